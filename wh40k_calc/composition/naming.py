"""How the refusals of :mod:`.reasons` name weapons: the printed name of a profile (attacking)
or of a weapon (carrying), "Name xN", counted nouns and runs of names joined with "and"."""

from __future__ import annotations

from ..attack_sets import Counting, Weapons
from ..datasheet import Datasheet


def counted_names(ds: Datasheet, wanted: dict[str, int], counting: Counting) -> dict[str, str]:
    """Key -> "Name xN" for the keys of ``wanted`` (a weapon's name for weapon keys)."""
    return {k: f"{weapon_name(ds, k, counting)} x{n}" for k, n in wanted.items()}


def weapon_name(ds: Datasheet, key: str, counting: Counting) -> str:
    """The printed name of profile ``key`` (attacking) or of weapon ``key`` (carrying)."""
    if not counting.attacking:
        return Weapons(ds).name.get(key, key)
    w = ds.weapon(key)
    return w.name if w is not None else key


def keys_in(ds: Datasheet, keys: tuple[str, ...], counting: Counting) -> set[str]:
    """The keys of an equipment list (profile keys) as ``counting`` names them: weapon keys
    when carrying."""
    if counting.attacking:
        return set(keys)
    arms = Weapons(ds)
    return {arms.weapon(k) for k in keys}


def count_of(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural where ``n`` is not 1 ("2 models")."""
    from ..wording import count

    return count(n, noun)


def and_join(items: list[str]) -> str:
    """The items as a run of names: "a", "a and b", "a, b and c"."""
    from ..wording import join_words

    return join_words(items)

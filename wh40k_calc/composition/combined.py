"""Which loadout entries of separate wargear options one model may take together.

A model may take each of its datasheet's wargear options, one after the other; the items of
one option are alternatives (a model takes one of them), and an option that replaces X needs
the model to carry X, one that adds Y to a model "equipped with X" needs X kept (10th edition
and edition 11 alike: each option is a choice of its own, its text saying which weapons it
takes away). Generated loadout entries carry the number of the option they come from
(``LoadoutEntry.option``) and, for such additions, the weapons they need (``needs``): entries
of different numbers on the same default equipment combine when what each takes away is
there (no weapon taken away twice) and what each needs none takes away. Two options may add the
same weapon (a Warhound Titan's "This model's Warhound plasma blastgun can be replaced with
..." and "... Warhound vulcan mega-bolter can be replaced with ...", each listing the inferno
gun: two inferno guns): no text forbids it, each option being a choice of its own (edition 11,
02.07 Wargear Options: "you can use these options"). The model then carries its default
equipment less every entry's weapons taken away plus every entry's weapons added (a weapon two
options add, twice). :mod:`.carriers` offers each combination as an equipment option of its
own, using up a model of each entry it combines.
"""

from __future__ import annotations

from collections import Counter

from msgspec import Struct

from ..attack_sets import Weapons
from ..datasheet import LoadoutEntry, ModelProfile
from .kits import Kit

MAX_COMBINED = 64  # combinations of separate options made for one model type, at most


class Combination(Struct, frozen=True):
    """Loadout entries of separate wargear options taken together by one model: what it then
    carries (weapon key -> copies), how many models may (the entries' smallest count; None:
    any number), and the single options it combines (their kits in
    :func:`wh40k_calc.composition.carriers`)."""

    carried: Counter[str]
    cap: int | None
    parts: tuple[Kit, ...]


def combined(
    m: ModelProfile,
    taken: list[tuple[LoadoutEntry, int | None, Kit]],
    singles: dict[Kit, int | None],
    arms: Weapons,
    weapons: set[str],
) -> list[Combination]:
    """The combinations of loadout entries of model type ``m`` from separate wargear options
    (``taken``: (entry, its models, its kit); entries with an ``option`` number and no
    ``instead_of`` only) that one model may take together: entries of different options on
    the same default equipment (``replaces``, else ``equipped``), each taking away weapons it
    has (default less entry) that together it still has, each adding weapons (entry less
    default; the same weapon as another's too: then one more copy of it), and each entry's
    ``needs`` kept (among the default
    weapons none takes away), and none adding a weapon another's ``excludes`` keeps off its
    models. A combination carries the default less every entry's weapons
    taken away plus every entry's weapons added, as if the options were taken one after the
    other (10th edition and edition 11 alike: a model may take each of its datasheet's
    options, and items of one option are alternatives).

    Only entries that add one of the ``weapons`` asked for are combined (one that adds none
    gives no more of them than the combination without it, which also takes fewer models of
    the limits). At most :data:`MAX_COMBINED` combinations are made for the model type, the
    smaller first (two options, then three ...).

    Args:
        m: the model type.
        taken: its loadout entries that apply to the unit's size: (entry, how many models may
            take it, its kit: named weapons and the limits it uses).
        singles: the kits offered alone (an entry whose kit is not among them is not
            combined).
        arms: the datasheet's weapons by weapon (:class:`~wh40k_calc.attack_sets.Weapons`).
        weapons: the weapon keys asked for.

    Returns:
        the combinations, each of two entries or more.
    """
    found: dict[tuple[str, ...], list[tuple]] = {}
    for e, cap, kit in taken:
        if e.option is None or e.instead_of is not None or kit not in singles:
            continue
        base = e.replaces if e.replaces is not None else m.equipped
        before, after = arms.copies(base), arms.copies(e.equipped)
        adds = after - before
        if not set(adds) & weapons:
            continue
        needs = {arms.weapon(k) for k in e.needs}
        bars = {arms.weapon(k) for k in e.excludes}
        found.setdefault(tuple(sorted(base)), []).append(
            (e.option, before - after, adds, needs, cap, kit, bars)
        )
    out: list[Combination] = []
    for base, parts in found.items():
        before = arms.copies(base)
        level: list[tuple[tuple[int, ...], Counter[str], Counter[str]]] = [
            ((i,), parts[i][1], parts[i][2]) for i in range(len(parts))
        ]
        while level and len(out) < MAX_COMBINED:  # two entries, then three, ...
            bigger = []
            for chosen, gone, added in level:
                for j in range(chosen[-1] + 1, len(parts)):
                    option, takes, adds, _, _, _, bars = parts[j]
                    if any(parts[i][0] == option for i in chosen):
                        continue  # alternatives of one option
                    if any(gone[k] + n > before[k] for k, n in takes.items()):
                        continue  # takes away what another took away already
                    if bars & set(added) or any(set(adds) & parts[i][6] for i in chosen):
                        continue  # adds what another's models may not carry (``excludes``)
                    both = (*chosen, j)
                    kept = before - (gone + takes)
                    if any(k not in kept for i in both for k in parts[i][3]):
                        continue  # takes away what another one needs
                    bigger.append((both, gone + takes, added + adds))
                    caps = [parts[i][4] for i in both if parts[i][4] is not None]
                    out.append(
                        Combination(
                            kept + added + adds,
                            min(caps) if caps else None,
                            tuple(parts[i][5] for i in both),
                        )
                    )
                    if len(out) >= MAX_COMBINED:
                        return out
            level = bigger
    return out

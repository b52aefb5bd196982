"""Weapon abilities granted for one activation (``--add-ability``): detachment rules and auras
that say "weapons gain [ABILITY]", without writing a datasheet; and weapon abilities of the
datasheets switched off for one activation (``--explain``'s subsets: :func:`without_abilities`).

The grant is applied to the attacking unit's weapons before anything else reads them, so every
rule (which weapons shoot under ``--indirect``, hazard rolls, the Hit and Wound rolls) sees the
weapon as if its datasheet listed the ability. Where the weapon already has the ability, or an
effect grants it too, the better value is kept (``WeaponAbilities.with_ability``: the larger X of
[SUSTAINED HITS X], [RAPID FIRE X], [MELTA X], [BLAST X], [CLEAVE X]; the lower X+ of [ANTI]).
"""

from __future__ import annotations

import re

from ..abilities import WeaponAbilities, parse_ability, split_abilities
from ..datasheet import Weapon, norm_name
from ..fuzzy import did_you_mean
from ..records import replace
from ..selection import AddedAbility, OptionError
from ..units import ModelGroup, Unit


def answers_to(w: Weapon) -> set[str]:
    """The names a weapon answers to: its own, and its multi-profile weapon's."""
    out = {w.key}
    if w.profile_of:
        out.add(norm_name(w.profile_of))
    return out


def added_kinds(added: tuple[AddedAbility, ...]) -> dict[tuple, list[int]]:
    """The ``--add-ability`` values grouped by what they grant: (the weapon, "*" or its name
    normalised; the ability as parsed, any case or spacing) -> the indices of the values that
    grant it, in the order given. Several indices: the same ability given again, which adds
    nothing (24.02: instances of one weapon ability are not cumulative)."""
    kinds: dict[tuple, list[int]] = {}
    for i, a in enumerate(added):
        weapon = "*" if a.weapon == "*" else norm_name(a.weapon)
        kinds.setdefault((weapon, parse_ability(a.ability)), []).append(i)
    return kinds


def torrent_cannot_have(w: Weapon, ability: str) -> bool:
    """Whether ``ability`` cannot be given to ``w`` because ``w`` has [TORRENT] (24.37.01:
    "[TORRENT] weapons cannot have [INDIRECT FIRE] or [PRECISION]")."""
    return w.abilities.torrent and parse_ability(ability).key in ("precision", "indirect fire")


def without_abilities(unit: Unit, removed: tuple[AddedAbility, ...]) -> Unit:
    """``unit`` with each weapon profile named in ``removed`` (by its own name, any datasheet
    of the unit) stripped of the abilities of that text as its datasheet gives them; applied
    before :func:`with_added_abilities`, so that a grant of the same ability still holds. A
    name or text the unit does not have changes nothing."""
    if not removed:
        return unit
    drop: dict[str, set[str]] = {}
    for a in removed:
        drop.setdefault(norm_name(a.weapon), set()).add(parse_ability(a.ability).text)

    def strip(w: Weapon) -> Weapon:
        texts = drop.get(w.key)
        if not texts:
            return w
        kept = [
            piece
            for item in w.ability_texts
            for piece in split_abilities(item)
            if parse_ability(piece).text not in texts
        ]
        return replace(w, abilities=WeaponAbilities.parse(kept), ability_texts=tuple(kept))

    def regroup(groups: tuple[ModelGroup, ...]) -> tuple[ModelGroup, ...]:
        return tuple(replace(g, weapons=tuple(strip(w) for w in g.weapons)) for g in groups)

    whole = regroup(unit.whole) if unit.whole is not None else None
    return replace(unit, groups=regroup(unit.groups), whole=whole)


def with_added_abilities(unit: Unit, added: tuple[AddedAbility, ...], edition: str = "10") -> Unit:
    """``unit`` with each weapon given the abilities ``added`` names for it: ``"*"`` every
    weapon of the unit (an attached Leader's too), otherwise every profile of the weapon of
    that name (any datasheet of the unit).

    Raises:
        OptionError: (of ``--add-ability``, its ``index`` the entry of ``added``) a weapon
            name no datasheet of the unit has (with the closest names); [BLAST X] in edition
            10, which has only [BLAST] (Core rules: Blast; [BLAST X] is edition 11's, 24.05).

    In edition 11 a [TORRENT] weapon is not given [PRECISION] or [INDIRECT FIRE] (24.37.01;
    a note says so: ``idle``).
    """
    if not added:
        return unit
    for i, a in enumerate(added):
        if edition == "10" and re.fullmatch(r"blast\s+\d+", a.ability.strip().lower()):
            given = a.ability if a.weapon == "*" else f"{a.weapon}: {a.ability}"
            why = (
                "edition 10 has no [BLAST X], only [BLAST] (+1 attack per five models in the "
                "target): give 'blast', or --edition 11"
            )
            raise OptionError(f"--add-ability {given!r}: {why}", "--add-ability", why, i)
    weapons = [w for ds in unit.datasheets for w in ds.weapons]
    for i, a in enumerate(added):
        if a.weapon != "*" and not any(norm_name(a.weapon) in answers_to(w) for w in weapons):
            known = list(dict.fromkeys(w.name for w in weapons))
            why = (
                f"{unit.name} has no weapon {a.weapon!r}"
                + did_you_mean(a.weapon, known)
                + f" (weapons: {', '.join(known)})"
            )
            given = f"{a.weapon}: {a.ability}"
            raise OptionError(f"--add-ability {given}: {why}", "--add-ability", why, i)

    def grant(w: Weapon) -> Weapon:
        texts = [
            a.ability
            for a in added
            if (a.weapon == "*" or norm_name(a.weapon) in answers_to(w))
            and not (edition == "11" and torrent_cannot_have(w, a.ability))
        ]
        if not texts:
            return w
        return replace(
            w,
            abilities=w.abilities.with_texts(texts),
            ability_texts=(*w.ability_texts, *texts),
        )

    def regroup(groups: tuple[ModelGroup, ...]) -> tuple[ModelGroup, ...]:
        return tuple(replace(g, weapons=tuple(grant(w) for w in g.weapons)) for g in groups)

    whole = regroup(unit.whole) if unit.whole is not None else None
    return replace(unit, groups=regroup(unit.groups), whole=whole)

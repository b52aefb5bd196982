"""Weapon abilities that apply only against some targets (24.01 Abilities: a weapon ability
followed by one or more keywords applies only if the target unit has one or more of them):
``lethal hits: non-monster/vehicle``, ``devastating wounds: monster/vehicle``, [ANTI] with
several keywords.

The target unit's keywords are every keyword of every model and datasheet in it (02.05.01
Using Keywords: "a unit has all the keywords of all models in that unit"; 19.03 Keywords In
Attached Units: an Attached unit has its Leaders' keywords too). Once the target is known, each
weapon of the attacking unit gets the conditional abilities the target matches as if they were
unconditional, and loses the others (``WeaponAbilities.against``), before any rule reads the
weapon; abilities effects grant later are resolved the same way where the attack profile is
assembled (``attacks``). [ANTI] naming keywords is read in the Wound roll (``wound``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..abilities import keywords_match
from ..records import replace

if TYPE_CHECKING:
    from ..datasheet import Weapon
    from ..units import ModelGroup, Unit


def against_target(unit: Unit, target: Unit) -> tuple[Unit, list[str]]:
    """``unit`` with every weapon's conditional abilities resolved against ``target``'s
    keywords, and one note per weapon and such ability saying whether it applies, e.g.
    "Desecrator laser destructor: [DEVASTATING WOUNDS: MONSTER/VEHICLE] applies (Knight
    Paladin has VEHICLE; 24.01)"."""
    if not any(w.abilities.conditional for g in unit.all_groups for w in g.weapons):
        return unit, []
    keywords = target.keywords
    notes: list[str] = []

    def resolve(w: Weapon) -> Weapon:
        if not w.abilities.conditional:
            return w
        for text, spec in w.abilities.conditional:
            note = _note(w.name, text, spec, target)
            if note not in notes:
                notes.append(note)
        return replace(w, abilities=w.abilities.against(keywords))

    def regroup(groups: tuple[ModelGroup, ...]) -> tuple[ModelGroup, ...]:
        return tuple(replace(g, weapons=tuple(resolve(w) for w in g.weapons)) for g in groups)

    whole = regroup(unit.whole) if unit.whole is not None else None
    return replace(unit, groups=regroup(unit.groups), whole=whole), notes


def _note(weapon: str, text: str, spec: str, target: Unit) -> str:
    """Whether one conditional ability applies against the target, in words."""
    non = spec.startswith("NON-")
    names = (spec[4:] if non else spec).split("/")
    shown = f"[{text.upper()}: {'non-' if non else ''}{'/'.join(names)}]"
    has = [n for n in names if n in target.keywords]
    why = (
        f"{target.name} has {' and '.join(has)}"
        if has
        else f"{target.name} has no {' or '.join(names)} keyword"
    )
    applies = keywords_match(spec, target.keywords)
    return f"{weapon}: {shown} {'applies' if applies else 'does not apply'} ({why}; 24.01)"

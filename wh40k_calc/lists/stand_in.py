"""Default weapons in the place of listed weapons we do not have.

A list may name a weapon our data lacks (newer or renamed: a Killa Kan's "Kan Blasta" in data
912, which has the kan shoota). Leaving it out alone would leave its model without the weapon
of that slot (the Kans without a gun: no shooting at all). So a model line's weapons are laid
over the default equipment of its models, slot by slot, and where some default slots are left
empty and the list names weapons we lack, those are taken to be in those slots: the models
keep their default weapons there (said). A listed weapon we have fills, in this order, the
slot of the same weapon, a slot that an option of the datasheet replaces with it (a loadout
entry of the model type that carries it and not that default weapon), else a slot of a
default weapon of the same kind (ranged or melee). Where more default slots are left empty
than copies of weapons we lack (a Deff Dread's extra klaw with a big shoota, a dread klaw and
stompy feet unfilled), which slot the unknown weapon takes is not known: nothing is put in
its place and it is left out, as before.

Only the lines that list at least one weapon we have come here; a model type none of whose
listed weapons we have keeps its default equipment whole, and so does a unit
(:mod:`wh40k_calc.lists.resolve`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..datasheet import Datasheet, ModelProfile, Weapon, norm_name


@dataclass(frozen=True)
class StandIn:
    """The default weapons (``weapons``: each its profiles and copies over the line) that take
    the place of the listed weapons we lack, and their printed names with counts
    (``shown``: ``Kan shoota ×3``)."""

    weapons: tuple[tuple[tuple[Weapon, ...], int], ...]
    shown: tuple[str, ...]


def stand_ins(
    ds: Datasheet,
    models: list[tuple[ModelProfile, int]],
    resolved: list[tuple[tuple[Weapon, ...], int]],
    unknown: int,
) -> StandIn | None:
    """The default weapons that stand in for ``unknown`` copies of listed weapons we lack on
    ``models`` ((model type, how many) of the line; several where the list names no type),
    given the line's ``resolved`` weapons (our profiles, copies over the line); None where
    no default slot is left empty or more are than there are unknown copies (see the module
    docstring)."""
    from ..attack_sets import Weapons

    if unknown <= 0 or not resolved:
        return None
    arms = Weapons(ds)
    slots: Counter[str] = Counter()  # default weapon -> copies over the line
    for m, n in models:
        for c, keys in m.default_equipment(n):
            for k, copies in arms.copies(keys).items():
                slots[k] += copies * c
    listed: Counter[str] = Counter()
    for profiles, copies in resolved:
        for k in dict.fromkeys(arms.weapon(w.key) for w in profiles):
            listed[k] += copies
    for k in list(listed):  # the same weapon
        take = min(slots[k], listed[k])
        slots[k] -= take
        listed[k] -= take
    types = {m.key for m, _ in models}
    for k in [k for k, n in listed.items() if n]:  # a slot an option replaces with it
        for e in (e for es in ds.loadouts.values() for e in es):
            if norm_name(e.model) not in types or k not in {arms.weapon(x) for x in e.equipped}:
                continue
            kept = {arms.weapon(x) for x in e.equipped}
            for r in [r for r in slots if slots[r] and r not in kept]:
                take = min(slots[r], listed[k])
                slots[r] -= take
                listed[k] -= take
            if not listed[k]:
                break
    for k in [k for k, n in listed.items() if n]:  # a slot of the same kind
        melee = _is_melee(arms, k)
        for r in [r for r in slots if slots[r] and _is_melee(arms, r) == melee]:
            take = min(slots[r], listed[k])
            slots[r] -= take
            listed[k] -= take
    empty = +slots
    if not empty or sum(empty.values()) > unknown:
        return None
    weapons = tuple((tuple(arms.profiles[k]), n) for k, n in empty.items())
    shown = tuple(f"{arms.name[k]} ×{n}" if n > 1 else arms.name[k] for k, n in empty.items())
    return StandIn(weapons, shown)


def _is_melee(arms, key: str) -> bool:
    return all(p.is_melee for p in arms.profiles.get(key, ()))

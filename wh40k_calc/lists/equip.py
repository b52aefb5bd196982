"""A unit equipped as its list says: the datasheet with each model type's default equipment
replaced by the list's.

A list counts weapons over a model type ("9x Wolf Guard Terminator: 2x Assault cannon, 7x
Master-crafted power weapon, 2x Power fist"), not model by model. :func:`kits` deals each
weapon's copies out to the models of the type in turn, ranged and melee weapons each from
where the last of their kind stopped, so that no model carries two melee weapons while another
carries none (a model fights with one melee weapon) and the counts are kept exactly: here 2
models with an assault cannon, 7 with a master-crafted power weapon and 2 with a power fist.
A weapon with several profiles travels as all its profiles (the rules use one per attack
sequence); a weapon counted more than once per model (``2x War Dog autocannon`` on one
Knight) is carried that many times.

:func:`as_listed` gives a copy of the datasheet whose model types carry those kits
(``equipped_by_count``), so that the rest of the program builds and resolves the unit as any
other (:func:`wh40k_calc.units.build_unit`). Nothing about lists reaches the rules or the
engines.
"""

from __future__ import annotations

from collections import Counter

from ..datasheet import Datasheet, ModelProfile, UnitSize, Weapon
from ..records import replace


def kits(models: int, weapons: list[tuple[tuple[Weapon, ...], int]]) -> list[tuple[int, tuple]]:
    """(models, weapon keys) kits for ``models`` models carrying ``weapons`` (each: its
    profiles and how many of it over the models), dealt out model by model.

    Returns kits of identical models, in order of first model; every copy of every weapon is
    in exactly one model's kit.
    """
    slots: list[list[str]] = [[] for _ in range(max(models, 1))]
    cursor = {"ranged": 0, "melee": 0}
    for profiles, total in weapons:
        kind = "melee" if all(w.is_melee for w in profiles) else "ranged"
        keys = [w.key for w in profiles]
        for k in range(total):
            slots[(cursor[kind] + k) % len(slots)].extend(keys)
        cursor[kind] += total
    counted = Counter(tuple(s) for s in slots)
    order = list(dict.fromkeys(tuple(s) for s in slots))
    return [(counted[k], k) for k in order]


def as_listed(
    ds: Datasheet,
    equipment: dict[str, list[tuple[int, tuple]]],
    composition: tuple[tuple[str, int], ...] | None = None,
) -> Datasheet:
    """A copy of ``ds`` whose model types (by key, in ``equipment``) carry the given kits
    instead of their default equipment (models beyond the kits keep it); ``composition``
    (model name, count) replaces the sizes with one of those models (the list's composition
    where it is not one of the data's; its points the closest size's, pro rata). Model types
    not in ``equipment`` keep
    their own equipment."""
    models: list[ModelProfile] = []
    for m in ds.models:
        if m.key in equipment:
            models.append(replace(m, equipped_by_count=tuple(equipment[m.key])))
        else:
            models.append(m)
    sizes = ds.sizes
    if composition is not None:
        total = sum(n for _, n in composition)
        near = min(ds.sizes, key=lambda s: (abs(s.total - total), s.total))
        points = round(near.points * total / near.total) if near.total else near.points
        sizes = (UnitSize(tuple(composition), points),)
    return replace(ds, models=tuple(models), sizes=sizes, loadouts={}, dropped_sizes=())

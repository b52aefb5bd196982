"""The named weapons whose number our data cannot check although the datasheet limits it.

A weapon no equipment option lists may be carried by any model (:mod:`.carriers`); where a
wargear option the importer did not generate (``options_not_generated``) names it, the
datasheet does limit it and we do not know how: the number given is taken, and a note says
so (:func:`unchecked`).
"""

from __future__ import annotations

from ..datasheet import Datasheet, Weapon, norm_name


def unchecked(ds: Datasheet, keys: list[str]) -> list[tuple[Weapon, str]]:
    """The weapons of ``keys`` whose number nothing of ours limits although the datasheet's
    options do: no equipment option lists them (so any model may carry them: see the module
    docstring), but a wargear option the importer did not generate names them
    (``options_not_generated``: the Intercessors' grenade launcher before its "for every 5
    models, 1 model equipped with a bolt rifle can be equipped with ..." form was read).
    Returns (weapon, the option's reason) in ``keys`` order, each weapon once."""
    listed: set[str] = set()
    for m in ds.models:
        listed.update(m.equipped)
        for _, kit in m.equipped_by_count:
            listed.update(kit)
        for c in m.choices:
            listed.update(c.weapons)
    for entries in ds.loadouts.values():
        for e in entries:
            listed.update(e.equipped)
    out = []
    for k in dict.fromkeys(keys):
        w = ds.weapon(k)
        if w is None or k in listed:
            continue
        names = {_singular(norm_name(w.name))}
        if w.profile_of:
            names.add(_singular(norm_name(w.profile_of)))
        why = next(
            (
                o.reason
                for o in ds.options_not_generated
                if any(_singular(norm_name(item)) in names for item in o.items)
            ),
            None,
        )
        if why is not None:
            out.append((w, why))
    return out


def _singular(key: str) -> str:
    return key[:-1] if key.endswith("s") else key

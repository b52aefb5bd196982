"""Rosterizer's JSON export.

Shape: ``{"rulebook": {...}, "snapshot": {...}}``; the snapshot is the roster item (``item``:
``"Roster§Name"``, ``name``, ``stats.Points.value``) whose ``assets.included`` lists items
named ``Class§Name``: ``Faction§``, ``Detachment§``, ``Battle Size§`` and ``Unit§`` items.
A unit's own ``assets.included`` holds its ``Model§`` items (``quantity`` models, their
``Weapon§``/``Wargear§`` items inside), its weapons (when it has no model items: a single
model type), its ``Enhancement§`` (with its points) and ``Attachment§`` items (``Attachment:
leader -> Unit``); ``assets.traits`` its ``Trait§Warlord``. A weapon's ``quantity`` counts it
over its parent's models; a unit's ``quantity`` is its models when it lists no model items.
A unit's points are its own plus its items' (an enhancement's are on its own item).
"""

from __future__ import annotations

from typing import Any

from .attach import pair_attachments
from .model import (
    ArmyList,
    Attachment,
    ListedModels,
    ListedUnit,
    ListError,
    merge_counts,
    whole_count,
)

FORMAT = "rosterizer"


def is_rosterizer(data: Any) -> bool:
    """True for a Rosterizer export: a ``snapshot`` object whose ``item`` is ``Roster§...``."""
    snap = data.get("snapshot") if isinstance(data, dict) else None
    return isinstance(snap, dict) and str(snap.get("item", "")).startswith("Roster§")


def _split(item: Any) -> tuple[str, str]:
    cls, _, name = str(item or "").partition("§")
    return cls.strip().lower(), name.strip()


def _assets(obj: dict[str, Any], key: str = "included") -> list[dict[str, Any]]:
    assets = obj.get("assets")
    if not isinstance(assets, dict):
        return []
    return [a for a in assets.get(key) or [] if isinstance(a, dict)]


def _quantity(obj: dict[str, Any], what: str = "", least: int = 0) -> int:
    """An item's ``quantity`` (models of a model type or a unit, or copies of a weapon over
    its parent's models; missing: 1).

    Raises:
        ListError: not a whole number of at least ``least`` (:func:`~.model.whole_count`).
    """
    return whole_count(obj, "quantity", what, least)


def _own_points(obj: dict[str, Any]) -> int | None:
    stats = obj.get("stats")
    if not isinstance(stats, dict):
        return None
    pts = stats.get("Points") or stats.get("points")
    value = pts.get("value") if isinstance(pts, dict) else pts
    try:
        return None if value is None else round(float(value))
    except (TypeError, ValueError):
        return None


def _points(obj: dict[str, Any]) -> int | None:
    own = _own_points(obj)
    total, found = own or 0, own is not None
    for a in _assets(obj):
        inner = _points(a)
        if inner is not None:
            total += inner
            found = True
    return total if found else None


def parse(data: dict[str, Any], label: str) -> ArmyList:
    """Read a Rosterizer export.

    Raises:
        ListError: no unit in it.
    """
    snap = data["snapshot"]
    faction, detachments, units = None, [], []
    for a in _assets(snap):
        cls, name = _split(a.get("item"))
        if cls == "faction":
            faction = faction or name
        elif cls == "detachment":
            detachments.append(name)
        elif cls == "unit":
            try:
                units.append(_unit(a, name))
            except ListError as exc:
                raise ListError(f"{label}: unit {name!r}: {exc}") from None
    if not units:
        raise ListError(f"{label}: a Rosterizer roster without units")
    name = snap.get("name") if isinstance(snap.get("name"), str) else _split(snap["item"])[1]
    return ArmyList(
        FORMAT,
        name or None,
        faction,
        tuple(detachments),
        tuple(pair_attachments(units)),
        points=_own_points(snap),
    ).with_notes()


def _unit(obj: dict[str, Any], name: str) -> ListedUnit:
    models: list[ListedModels] = []
    loose: list[tuple[str, int]] = []
    enhancement, enh_points, attachment = None, None, None
    for a in _assets(obj):
        cls, aname = _split(a.get("item"))
        if cls == "model":
            models.append(ListedModels(aname, _quantity(a, f"model {aname!r}", 1), _equipment(a)))
        elif cls == "enhancement":
            enhancement, enh_points = aname, _own_points(a)
        elif cls == "attachment":
            attachment = _attachment(aname)
        elif cls == "unit":  # its models would be read as this unit's wargear
            raise ListError(
                f"it holds the unit {aname or '(no name)'!r} inside it; a unit is an item of "
                "the roster, not of another unit: export the list again"
            )
        else:
            loose += [(aname, _quantity(a, repr(aname))), *_equipment(a)]
    warlord = any(_split(t.get("item"))[1].lower() == "warlord" for t in _assets(obj, "traits"))
    if not models:
        models = [ListedModels(None, _quantity(obj, least=1), merge_counts(loose))]
    elif loose:
        first = models[0]
        models[0] = ListedModels(first.name, first.count, merge_counts([*first.weapons, *loose]))
    return ListedUnit(
        name,
        _points(obj),
        tuple(models),
        enhancement=enhancement,
        enhancement_points=enh_points,
        warlord=warlord,
        attachment=attachment,
    )


def _equipment(obj: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for a in _assets(obj):
        cls, name = _split(a.get("item"))
        if cls in ("weapon", "wargear", "upgrade"):
            out.append((name, _quantity(a, repr(name))))
            out += _equipment(a)
    return merge_counts(out)


def _attachment(text: str) -> Attachment | None:
    """``Attachment: leader -> Fabricated Squad [provisional]`` -> a Leader's attachment to
    the unit named (grouped by :func:`~.attach.pair_attachments`)."""
    body = text.partition(":")[2].strip() or text
    role, arrow, to = body.partition("->")
    if not arrow:
        return None
    to = to.split("[")[0].strip()
    return Attachment(role.strip().lower() or "leader", None, f"Leading {to}")

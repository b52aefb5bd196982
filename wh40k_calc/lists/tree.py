"""BattleScribe-style roster trees: New Recruit's JSON export, ListForge's share JSON, and
BattleScribe's ``.ros`` (XML) and ``.rosz`` (a zip archive holding a ``.ros``).

The public roster schema: ``roster`` (``name``, ``costs``, ``costLimits``) > ``forces`` >
``force`` (``catalogueName``: the faction, e.g. ``Xenos - Orks``; a force may hold forces of
its own: an allied faction's) > ``selections`` > ``selection`` with ``type`` "unit", "model"
or "upgrade", ``number``, ``costs`` (``name="pts"``, ``value``), ``categories`` (keywords;
``primary`` marks the battlefield role, "Allied Units" among them) and ``selections`` inside.
The JSON exports carry the same tree with lists for the containers; :func:`xml_tree` turns an
XML roster into that shape, so one walker reads both.

Reading a force's selections: an upgrade of the "Configuration" category holds the battle size
and the detachment (its child's name); a "unit" selection is a unit, and so is a "model"
selection at the top of a force (a single-model unit). Inside a unit, "model" selections are
its model types (``number`` models, their upgrades their equipment); the unit's own upgrades
are its Warlord (name or category "Warlord"), its enhancement (an upgrade of the
"Enhancements" group, or named in an enhancement category), markers (detachment keywords
"... Character"), and equipment of the unit's single model. An upgrade's ``number`` counts it
over its parent's models; upgrades inside an upgrade (a drone's gun) count the same way. A
unit's points are its own costs plus every selection's inside it (an enhancement's cost sits
on its own selection).

A unit selection inside a unit, and a force's selection of another ``type`` (or none), are
refused: the one's models would be read as the outer unit's wargear, the other dropped.
"""

from __future__ import annotations

import json
from typing import Any

from .model import ArmyList, ListedModels, ListedUnit, ListError, merge_counts, whole_count
from .text import POINTS_MAX, POINTS_RULE, grand_faction, whole_points

_CONTAINERS = {
    "forces",
    "selections",
    "costs",
    "costLimits",
    "categories",
    "profiles",
    "characteristics",
    "rules",
    "publications",
}


def xml_tree(text: str, label: str) -> dict[str, Any]:
    """The roster of a ``.ros`` file as the JSON exports' tree: an element's attributes as
    keys, each container element (``selections``, ``costs``, ...) a list of its children, and a
    characteristic's text as ``$text``. Namespaces are dropped.

    Raises:
        ListError: not well-formed XML (truncated), a document type declaration (refused:
            entity expansion), or its root is not a roster.
    """
    import xml.etree.ElementTree as ET

    head = text[:2000].lower()
    if "<!doctype" in head or "<!entity" in text.lower():
        raise ListError(f"{label}: an XML file with a document type declaration; not a roster")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ListError(f"{label}: malformed or truncated XML ({exc})") from None
    if _local(root.tag) != "roster":
        raise ListError(f"{label}: XML, but not a BattleScribe roster (root <{_local(root.tag)}>)")
    return _element(root)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _element(el: Any) -> dict[str, Any]:
    out: dict[str, Any] = dict(el.attrib)
    for child in el:
        name = _local(child.tag)
        if name in _CONTAINERS:
            out[name] = [_element(c) for c in child]
        else:
            out[name] = _element(child)
    if el.text and el.text.strip() and len(el) == 0:
        out["$text"] = el.text.strip()
    return out


def roster_of(data: Any) -> dict[str, Any] | None:
    """The roster object of a JSON export (``{"roster": {...}}``, or the roster itself with
    its ``forces``), or None when ``data`` is not one."""
    if isinstance(data, dict) and isinstance(data.get("roster"), dict):
        data = data["roster"]
    if isinstance(data, dict) and isinstance(data.get("forces"), list):
        return data
    return None


def parse(roster: dict[str, Any], fmt: str, label: str) -> ArmyList:
    """Read a roster tree (from :func:`roster_of` or :func:`xml_tree`); ``fmt`` names the
    format in the result.

    Raises:
        ListError: no force or no unit in it.
    """
    forces = _list(roster.get("forces"))
    if not forces:
        raise ListError(f"{label}: a roster without forces")
    main = _faction(forces[0])
    units: list[ListedUnit] = []
    detachments: list[str] = []
    for depth, force in _walk_forces(forces):
        faction = _faction(force)
        ally = depth > 0 or (faction is not None and main is not None and faction != main)
        for sel in _list(force.get("selections")):
            if not isinstance(sel, dict):
                continue
            if _is_configuration(sel):
                detachments += _detachments(sel)
            elif sel.get("type") in ("unit", "model"):
                try:
                    units.append(_unit(sel, faction if ally else None, ally))
                except ListError as exc:
                    name = _text(sel.get("name")) or "(no name)"
                    raise ListError(f"{label}: unit {name!r}: {exc}") from None
            elif sel.get("type") != "upgrade":
                name = _text(sel.get("name")) or "(no name)"
                kind = json.dumps(sel.get("type")) if "type" in sel else "no type"
                raise ListError(
                    f"{label}: selection {name!r} of the force has {kind}; a force's "
                    'selections are units, models or upgrades ("unit", "model", '
                    '"upgrade"): export the list again'
                )
    if not units:
        raise ListError(f"{label}: a roster without units")
    try:
        points = _points(roster.get("costs"))
        limit = _points(roster.get("costLimits"), "costLimits")
    except ListError as exc:
        raise ListError(f"{label}: the list's {exc}") from None
    return ArmyList(
        fmt,
        _text(roster.get("name")),
        main,
        tuple(detachments),
        tuple(units),
        points=points,
        points_limit=limit,
    ).with_notes()


def _walk_forces(forces: list[Any], depth: int = 0):
    for f in forces:
        if isinstance(f, dict):
            yield depth, f
            yield from _walk_forces(_list(f.get("forces")), depth + 1)


def _faction(force: dict[str, Any]) -> str | None:
    name = _text(force.get("catalogueName")) or _text(force.get("name"))
    if name is None:
        return None
    return grand_faction([p.strip() for p in name.split(" - ")])[-1]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _number(sel: dict[str, Any], what: str = "", least: int = 0) -> int:
    """A selection's ``number`` (how many models of a model type, or how many of an upgrade
    over its parent's models; missing: 1).

    Raises:
        ListError: not a whole number of at least ``least`` (:func:`~.model.whole_count`).
    """
    return whole_count(sel, "number", what, least)


def _points(costs: Any, field: str = "costs") -> int | None:
    """The points of a ``costs`` (or ``costLimits``) list: its ``pts`` entries' ``value``
    added up (a missing ``value`` counts 0), or None when it has no ``pts`` entry. A
    ``costLimits`` value of -1 is BattleScribe's "no limit" (None).

    Raises:
        ListError: a ``value`` that is no points (:func:`~.text.whole_points`: NaN,
            ``1e400``, ``-5``, ``80.5``, text), or a total over :data:`~.text.POINTS_MAX`,
            naming ``field``; the reader adds the input and the unit.
    """
    total, found = 0, False
    for c in _list(costs):
        if isinstance(c, dict) and str(c.get("name", "")).strip().lower() in ("pts", "points"):
            value = c.get("value", 0)
            if field == "costLimits" and whole_points(value) is None and _is_minus_one(value):
                continue
            n = whole_points(value)
            if n is None:
                raise ListError(f"{field!r} gives 'pts' {_shown(value)}; {POINTS_RULE}")
            total += n
            found = True
    if total > POINTS_MAX:
        raise ListError(f"{field!r} add up to {total:,} pts; {POINTS_RULE}, at most {POINTS_MAX:,}")
    return total if found else None


def _is_minus_one(value: Any) -> bool:
    try:
        return not isinstance(value, bool) and float(value) == -1
    except (TypeError, ValueError):
        return False


def _shown(value: Any) -> str:
    if isinstance(value, float):
        text = repr(value) if value == value else "NaN"
    elif isinstance(value, (dict, list)):
        text = type(value).__name__
    else:
        text = json.dumps(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _categories(sel: dict[str, Any]) -> list[str]:
    return [str(c.get("name", "")) for c in _list(sel.get("categories")) if isinstance(c, dict)]


def _is_configuration(sel: dict[str, Any]) -> bool:
    return sel.get("type") == "upgrade" and any(
        c.strip().lower() == "configuration" for c in _categories(sel)
    )


def _detachments(sel: dict[str, Any]) -> list[str]:
    """The detachment a Configuration selection names (its child), where it is one."""
    if "detachment" not in str(sel.get("name", "")).lower():
        return []
    return [n for c in _list(sel.get("selections")) if (n := _text(c.get("name")))]


def _unit(sel: dict[str, Any], faction: str | None, ally: bool) -> ListedUnit:
    name = _text(sel.get("name")) or "(no name)"
    cats = _categories(sel)
    ally = ally or any(c.strip().lower() == "allied units" for c in cats)
    own = [c for c in cats if c.lower().startswith("faction: ")]
    if ally and faction is None and own:
        faction = own[0].split(":", 1)[1].strip()
    warlord, enhancement, enh_points, markers = False, None, None, []
    models: list[ListedModels] = []
    loose: list[tuple[str, int]] = []
    children = [c for c in _list(sel.get("selections")) if isinstance(c, dict)]
    # a "model" selection at the top is a single-model unit: its upgrades are its own
    count = _number(sel, least=1) if sel.get("type") == "model" else None
    for c in children:
        cname = _text(c.get("name")) or ""
        if c.get("type") == "unit":  # its models would be read as this unit's wargear
            raise ListError(
                f"it holds the unit {cname or '(no name)'!r} inside it; a unit is a selection "
                "of its force, not of another unit: export the list again"
            )
        if c.get("type") == "model" and count is None:
            n = _number(c, f"model {cname!r}", least=1)
            models.append(ListedModels(cname, n, _equipment(c)))
            continue
        kind = _kind(c)
        if kind == "warlord":
            warlord = True
        elif kind == "enhancement":
            enhancement, enh_points = cname, _points(c.get("costs"))
        elif kind == "marker":
            markers.append(cname)
        else:
            loose += [(cname, _number(c, repr(cname))), *_inner(c)]
    if not models:
        models = [ListedModels(None, count or 1, merge_counts(loose))]
    elif loose:
        first = models[0]
        models[0] = ListedModels(first.name, first.count, merge_counts([*first.weapons, *loose]))
    return ListedUnit(
        name,
        _total_points(sel),
        tuple(models),
        enhancement=enhancement,
        enhancement_points=enh_points,
        warlord=warlord,
        ally=ally,
        faction=faction,
        section=next((c for c in cats if _primary(sel, c)), None),
        markers=tuple(markers),
    )


def _primary(sel: dict[str, Any], name: str) -> bool:
    for c in _list(sel.get("categories")):
        if isinstance(c, dict) and c.get("name") == name:
            return str(c.get("primary", "")).lower() == "true" or c.get("primary") is True
    return False


def _kind(sel: dict[str, Any]) -> str:
    """What a unit's own upgrade is: "warlord", "enhancement", "marker" (a detachment keyword,
    no equipment) or "equipment"."""
    name = (_text(sel.get("name")) or "").lower()
    cats = [c.lower() for c in _categories(sel)]
    group = str(sel.get("group", "") or "").lower()
    if name == "warlord" or "warlord" in cats:
        return "warlord"
    if "enhancement" in group or any("enhancement" in c for c in cats):
        return "enhancement"
    if name.endswith(" character") and not _list(sel.get("profiles")):
        return "marker"
    return "equipment"


def _equipment(model: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """A model type's equipment: its upgrades (counted over its models) and what they hold."""
    out: list[tuple[str, int]] = []
    for c in _list(model.get("selections")):
        if isinstance(c, dict) and (name := _text(c.get("name"))):
            out.append((name, _number(c, repr(name))))
            out += _inner(c)
    return merge_counts(out)


def _inner(sel: dict[str, Any]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for c in _list(sel.get("selections")):
        if isinstance(c, dict) and (name := _text(c.get("name"))):
            out.append((name, _number(c, repr(name))))
            out += _inner(c)
    return out


def _total_points(sel: dict[str, Any], top: bool = True) -> int | None:
    """A unit's points: its own costs and every selection's inside it (None: no costs).

    Raises:
        ListError: a cost that is no points (:func:`_points`), naming the selection inside
            the unit that holds it, or a total over :data:`~.text.POINTS_MAX`.
    """
    try:
        own = _points(sel.get("costs"))
    except ListError as exc:
        if top:
            raise
        raise ListError(f"{_text(sel.get('name')) or '(no name)'!r}: {exc}") from None
    total = own or 0
    found = own is not None
    for c in _list(sel.get("selections")):
        if isinstance(c, dict):
            inner = _total_points(c, top=False)
            if inner is not None:
                total += inner
                found = True
    if top and total > POINTS_MAX:
        raise ListError(f"its costs add up to {total:,} pts; {POINTS_RULE}, at most {POINTS_MAX:,}")
    return total if found else None

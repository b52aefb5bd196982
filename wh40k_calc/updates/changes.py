"""What an update changes, faction by faction: units added or removed, and for each unit in
both, the statlines, weapons and points that differ (and the names of other fields that do).

The new datasheets are compared with the ones in use before (the updated set's or the shipped
set's for that faction). Files whose text is the same but for the comments at the top (the
header names the data version and how the file was made) are the same datasheet and are not
parsed; only the others are read, as YAML, and compared field by field:

- statlines: each model's characteristics and defensive values by model name (``Boy W 1→3``),
  models added or removed;
- points: by unit size (its number of models: ``10 models 75→80 pts``), sizes added or gone;
- weapons: by weapon name, each profile field (``Bolt rifle AP 0→-1``) and the abilities
  added or removed (``Bolt rifle +lethal hits``), weapons added or removed;
- anything else (keywords, abilities, Leader lists, loadouts): named (``also: keywords``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..sheetnames import norm_name

_NOT_COMPARED = ("name", "faction", "models", "sizes", "weapons", "data", "source", "edition")


@dataclass(frozen=True)
class UnitChange:
    """One unit's change: its name, ``kind`` ("added", "removed" or "changed") and, for a
    changed one, what differs (short phrases, ``Boy W 1→3``)."""

    name: str
    kind: str
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class FactionChanges:
    """One faction's changes: its name, the data version before (None: the faction was not in
    the data) and after, how many datasheets before and after, the units' changes (added,
    then removed, then changed, each by name)."""

    faction: str
    old_version: str | None
    new_version: str
    old_count: int
    new_count: int
    units: tuple[UnitChange, ...]

    def of_kind(self, kind: str) -> list[UnitChange]:
        """The units' changes of one kind."""
        return [u for u in self.units if u.kind == kind]


_PROVENANCE = ("data:", "source:")  # top-level fields naming the data version, not the unit


def body(text: str) -> str:
    """A generated file's text without what names the data it came from: its comment lines
    (the header) and its top-level ``data`` and ``source`` fields (with the lines under
    them). Two versions of a datasheet with the same body are the same datasheet."""
    out: list[str] = []
    skipping = False
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if not line[:1].isspace():
            skipping = line.startswith(_PROVENANCE)
        if not skipping:
            out.append(line)
    return "\n".join(out)


def compare_faction(
    faction: str,
    old: dict[str, tuple[str, Path]],
    new: dict[str, tuple[str, str]],
    old_version: str | None,
    new_version: str,
) -> FactionChanges:
    """The changes between a faction's datasheets in use and its new ones.

    Args:
        faction: the faction's name.
        old: normalised unit name -> (name, file) of the datasheets in use (empty: none).
        new: normalised unit name -> (name, file text) of the new datasheets.
        old_version: the data version in use (None: the faction was not in it).
        new_version: the new data version.

    Raises:
        OSError: a file in use cannot be read.
    """
    added = [UnitChange(new[k][0], "added") for k in sorted(new.keys() - old.keys())]
    removed = [UnitChange(old[k][0], "removed") for k in sorted(old.keys() - new.keys())]
    changed = []
    for key in sorted(old.keys() & new.keys()):
        name, text = new[key]
        before = old[key][1].read_text(encoding="utf-8")
        if body(before) == body(text):
            continue
        details = unit_details(_load(before), _load(text))
        changed.append(UnitChange(name, "changed", tuple(details) or ("the file's text",)))
    return FactionChanges(
        faction,
        old_version,
        new_version,
        len(old),
        len(new),
        tuple(sorted(added, key=lambda u: norm_name(u.name)))
        + tuple(sorted(removed, key=lambda u: norm_name(u.name)))
        + tuple(sorted(changed, key=lambda u: norm_name(u.name))),
    )


def _load(text: str) -> dict[str, Any]:
    from ..yamlio import YamlError, load

    try:
        data = load(text)
    except YamlError:
        return {}
    return data if isinstance(data, dict) else {}


def _shown(value: object) -> str:
    """A field's value as the changes show it ('–' for none)."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)


def _by_name(items: object) -> dict[str, dict[str, Any]]:
    """A list of named mappings (models, weapons) by normalised name."""
    out: dict[str, dict[str, Any]] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            out.setdefault(norm_name(item["name"]), item)
    return out


def _fields(
    name: str, old: dict[str, Any], new: dict[str, Any], skip: tuple[str, ...]
) -> list[str]:
    """``NAME FIELD a→b`` for each field of two mappings that differs."""
    out = []
    for key in [*old, *(k for k in new if k not in old)]:
        if key in skip or old.get(key) == new.get(key):
            continue
        out.append(f"{name} {key} {_shown(old.get(key))}→{_shown(new.get(key))}")
    return out


def _statlines(old: object, new: object) -> list[str]:
    before, after = _by_name(old), _by_name(new)
    out = [f"new model {after[k]['name']}" for k in after if k not in before]
    out += [f"no model {before[k]['name']}" for k in before if k not in after]
    for k in (k for k in after if k in before):
        out += _fields(after[k]["name"], before[k], after[k], ("name", "equipped"))
    return out


def _size_points(sizes: object) -> dict[int, object]:
    """Points by unit size (its number of models)."""
    out: dict[int, object] = {}
    for size in sizes if isinstance(sizes, list) else []:
        if isinstance(size, dict) and isinstance(size.get("models"), dict):
            n = sum(v for v in size["models"].values() if isinstance(v, int))
            out.setdefault(n, size.get("points"))
    return out


def _points(old: object, new: object) -> list[str]:
    before, after = _size_points(old), _size_points(new)
    out = []
    for n in sorted(before.keys() | after.keys()):
        models = f"{n} model{'s' if n != 1 else ''}"
        if n not in before:
            out.append(f"{models} {_shown(after[n])} pts (new size)")
        elif n not in after:
            out.append(f"{models} (size gone)")
        elif before[n] != after[n]:
            out.append(f"{models} {_shown(before[n])}→{_shown(after[n])} pts")
    return out


def _weapons(old: object, new: object) -> list[str]:
    before, after = _by_name(old), _by_name(new)
    out = [f"new weapon {after[k]['name']}" for k in after if k not in before]
    out += [f"no weapon {before[k]['name']}" for k in before if k not in after]
    for k in (k for k in after if k in before):
        a, b = before[k], after[k]
        name = b["name"]
        out += _fields(name, a, b, ("name", "abilities"))
        had = [str(x) for x in a.get("abilities") or []]
        has = [str(x) for x in b.get("abilities") or []]
        moved = [f"+{x}" for x in has if x not in had] + [f"-{x}" for x in had if x not in has]
        if moved:
            out.append(f"{name} {' '.join(moved)}")
    return out


def unit_details(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two versions of one datasheet (parsed YAML), as short phrases:
    statlines, points, weapons, then the other fields that differ."""
    out = _statlines(old.get("models"), new.get("models"))
    out += _points(old.get("sizes"), new.get("sizes"))
    out += _weapons(old.get("weapons"), new.get("weapons"))
    others = [
        k
        for k in [*old, *(k for k in new if k not in old)]
        if k not in _NOT_COMPARED and old.get(k) != new.get(k)
    ]
    if others:
        out.append("also: " + ", ".join(k.replace("_", " ") for k in others))
    return out

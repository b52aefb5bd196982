"""New Recruit's "simple" text export.

Shape: a first line ``Grand alliance - Faction - List name - [N pts]``, a ``# ++ Army Roster
++ [N pts]`` line, ``## Section [N pts]`` headings (``## Configuration`` holds ``Battle Size:
...`` and ``Detachment: ...``), and one unit per line: ``Name [N pts]: items`` for a unit of
one model type, or ``Name [N pts]:`` followed by ``• Nx Model: items`` lines, one a model
type.

Items are comma-separated; a count (``2x Shield Drone``) is per model and an item without one
is one per model. ``Warlord`` is the Warlord. An enhancement appears as a bare item whose
name another item of the unit cites as ``X (Enhancement upgrade)`` (the weapon it grants):
the bare item is the enhancement, the cited item its weapon X. ``A (B)`` is wargear A carrying
weapon B (``Missile Drone (Missile pod)``): both are kept, with the same count.

``Name [N pts]`` without a colon is a unit without items. Any other line outside the
Configuration section (a unit line the reader cannot read, a bullet with no unit above it,
the title or roster line again: a list pasted twice) is refused naming the line: it was
dropped, and the model lines under it read as the previous unit's.
"""

from __future__ import annotations

import re

from .model import ArmyList, Item, LineError, ListedModels, ListedUnit, ListError, listed_models
from .text import (
    TWO_LISTS,
    Line,
    grand_faction,
    is_ally_section,
    lines_of,
    points_anywhere,
    shown,
    split_count,
    split_items,
    split_points,
)

FORMAT = "newrecruit-simple"
_ROSTER = re.compile(r"^#\s*\+\+\s*army roster\s*\+\+", re.IGNORECASE)
_SECTION = re.compile(r"^##\s*(.+?)\s*(\[[^\]]*\])?\s*$")
_UPGRADE = re.compile(r"^(.*?)\s*\((.+?)\s+upgrade\)$", re.IGNORECASE)
_CARRIES = re.compile(r"^(.*?)\s*\(([^()]+)\)$")


def looks_like(lines: list[Line]) -> int:
    """How much ``lines`` look like this export: the roster line, ``##`` sections, ``[N
    pts]`` unit lines."""
    score = 0
    for ln in lines:
        if _ROSTER.match(ln.text):
            score += 5
        elif ln.text.startswith("## ") or "pts]:" in ln.text:
            score += 1
    return score


def parse(text: str, label: str) -> ArmyList:
    """Read the "simple" export.

    Raises:
        ListError: no unit in it.
    """
    lines = lines_of(text)
    name, faction, points = _title(lines)
    section, detachments, limit = None, [], None
    # (section, its stated points, its heading's line, its place among the sections)
    totals: list[tuple[str, int, int, int]] = []
    starts: list[int] = []  # the index of each section's first unit
    units: list[ListedUnit] = []
    open_unit: tuple[str, int | None, str | None, int] | None = None
    models: list[_Model] = []

    def close() -> None:
        nonlocal open_unit
        if open_unit is not None:
            units.append(_unit(open_unit, models))
            models.clear()
            open_unit = None

    first = next((ln for ln in lines if not ln.blank), None)  # the title line
    roster = first if first is not None and _ROSTER.match(first.text) else None
    for ln in lines:
        t = ln.text
        if ln.blank or ln is first:
            continue
        if _ROSTER.match(t) or (first is not None and t == first.text):
            again = roster if _ROSTER.match(t) else first
            if again is not None:
                raise LineError(
                    f"{label}: line {ln.number}: the list's title or roster line again (line "
                    f"{again.number}): {TWO_LISTS}",
                    ln.number,
                )
            roster = ln
            continue
        m = _SECTION.match(t)
        if m:
            close()
            section = m.group(1)
            starts.append(len(units))
            stated = points_anywhere(m.group(2)) if m.group(2) else None
            if stated is not None:
                totals.append((section, stated, ln.number, len(starts) - 1))
            continue
        if section is not None and section.lower() == "configuration":
            key, _, value = t.partition(":")
            if key.strip().lower() == "detachment" and value.strip():
                detachments.append(value.strip())
            elif key.strip().lower() == "battle size":
                limit = points_anywhere(value.replace("Point limit", "pts"))
            continue
        if ln.bullet and open_unit is not None:
            n, rest = split_count(t)
            model, _, items = rest.partition(":")
            models.append((model.strip(), n or 1, _counted(items, n or 1, ln.number), ln.number))
            continue
        head, colon, items = t.partition("]:")
        if not colon and not ln.bullet and split_points(t)[1] is not None:
            head, colon, items = t.rstrip()[:-1], "]:", ""  # "Land Raider [220 pts]": no items
        if not colon or ln.bullet:
            raise LineError(f"{label}: line {ln.number}: {_unread(ln, open_unit)}", ln.number)
        close()
        uname, pts, _ = split_points(head + "]")
        open_unit = (uname, pts, section, ln.number)
        if items.strip():
            models.append((None, 1, _counted(items, 1, ln.number), None))
    close()
    if not units:
        raise ListError(f"{label}: no unit found (a line like 'Boyz [90 pts]: ...')")
    return ArmyList(
        FORMAT,
        name,
        faction,
        tuple(detachments),
        tuple(units),
        points=points,
        points_limit=limit,
        notes=_section_notes(totals, starts, units),
    ).with_notes()


def _section_notes(
    totals: list[tuple[str, int, int, int]], starts: list[int], units: list[ListedUnit]
) -> tuple[str, ...]:
    """A note for each section whose heading's points (``## Epic Hero [195 pts]``) are not
    the points of the units under it (up to the next section heading; units that give none
    left out) added up, as for the list's total: a note, not an error (the export's own
    arithmetic, or a unit edited by hand). ``totals``: (section, stated points, heading's
    line, its place in ``starts``); ``starts``: each section's first unit's index, in order."""
    out = []
    for section, stated, line, k in totals:
        end = starts[k + 1] if k + 1 < len(starts) else len(units)
        listed = [u.points for u in units[starts[k] : end] if u.points is not None]
        if listed and sum(listed) != stated:
            out.append(
                f"line {line}: section {section!r} says {stated:,} points but its units add up "
                f"to {sum(listed):,}"
            )
    return tuple(out)


def _unread(ln: Line, unit: tuple | None) -> str:
    """Why a line of the "simple" export is none it writes, in words."""
    where = (
        f"under unit {unit[0]!r} (line {unit[3]})" if unit is not None else "where a unit belongs"
    )
    return (
        f"{shown(ln.text)} {where} is none of the lines New Recruit writes: a section ('## "
        "Battleline [85 pts]'), a unit ('Boyz [85 pts]: ...') or a model type under it ('• 9x "
        "Boy: Slugga, Choppa'); correct it or remove it"
    )


def _title(lines: list[Line]) -> tuple[str | None, str | None, int | None]:
    """(list name, faction, points) from the first line ``Xenos - T'au Empire - Name - [N
    pts]``."""
    first = next((ln.text for ln in lines if not ln.blank), "")
    if _ROSTER.match(first):
        return None, None, points_anywhere(first)
    points = points_anywhere(first)
    parts = [p.strip() for p in first.split(" - ")]
    if parts and re.fullmatch(r"\[[^\]]*\]", parts[-1]):
        parts = parts[:-1]
    parts = grand_faction(parts)
    if len(parts) >= 2:
        return " - ".join(parts[1:]) or None, parts[0], points
    return None, (parts[0] if parts else None), points


# a model line read: (model type or None, models, its items, the model type's line)
_Model = tuple[str | None, int, list[tuple[str, int, int]], int | None]


def _counted(text: str, each: int, line: int) -> list[tuple[str, int, int]]:
    """A model type's items (on text line ``line``), each carried by each of its ``each``
    models."""
    out: list[tuple[str, int, int]] = []
    for item in split_items(text):
        n, name = split_count(item)
        count = (n or 1) * each
        carried = _CARRIES.match(name)
        if carried and not _UPGRADE.match(name):
            out += [
                (carried.group(1).strip(), count, line),
                (carried.group(2).strip(), count, line),
            ]
        else:
            out.append((name, count, line))
    return out


def _unit(head: tuple[str, int | None, str | None, int], models: list[_Model]) -> ListedUnit:
    """A unit with its Warlord item and enhancement taken out of its items."""
    name, points, section, line = head
    items = [(w, n) for m in models for w, n, _ in m[2]]
    cited = {g.group(2).strip().lower() for w, _ in items if (g := _UPGRADE.match(w))}
    warlord = any(w.lower() == "warlord" for w, _ in items)
    enhancement = next((w for w, _ in items if w.lower() in cited), None)
    if enhancement is None and cited:
        enhancement = next(g.group(2).strip() for w, _ in items if (g := _UPGRADE.match(w)))

    def kept(weapons: list[tuple[str, int, int]]) -> list[Item]:
        out: list[Item] = []
        for w, n, at in weapons:
            if w.lower() == "warlord" or w.lower() in cited:
                continue
            g = _UPGRADE.match(w)
            out.append((g.group(1).strip() if g else w, n, at))
        return out

    listed = tuple(listed_models(m, n, kept(ws), at) for m, n, ws, at in models)
    return ListedUnit(
        name,
        points,
        listed or (ListedModels(None, 1),),
        enhancement=enhancement,
        warlord=warlord,
        ally=is_ally_section(section),
        section=section,
        line=line,
    )

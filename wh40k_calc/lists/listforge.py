"""ListForge's text export.

Shape: a first line ``List name - Faction - Detachment (N Points)``, then sections headed
``Name:`` (``Epic Hero:``, ``Character:``, ``Battleline:``, ``Allied Units:``, ...), each of
unit blocks: a heading ``Name (N pts)`` and bullet lines. A first-level bullet with lines
indented under it is a model type (``• 9x Bloodletter`` over ``• 9x Hellblade``: counts are
totals over the type); a first-level bullet without is the unit's own equipment (a single
model's weapons, or a unit's icon); ``• E: Name`` is the enhancement and ``• Warlord`` the
Warlord.

A line outside a unit that is none of the title, a section or a unit heading, a line at the
margin inside a unit that is no heading, and the title again (a list pasted twice) are refused
naming the line: such a line was dropped, with the unit under it.
"""

from __future__ import annotations

import re

from .model import (
    ArmyList,
    Item,
    LineError,
    ListedUnit,
    ListError,
    listed_models,
    with_items,
)
from .text import (
    TWO_LISTS,
    Line,
    is_ally_section,
    lines_of,
    points_anywhere,
    shown,
    split_count,
    split_points,
)

FORMAT = "listforge-text"
_SECTION = re.compile(r"^([A-Z][A-Za-z' /&-]{2,40}):$")
_HEAD = re.compile(r"\(\s*\d[\d,]*\s*pts\s*\)$", re.IGNORECASE)
_TITLE = re.compile(r"\(\s*\d[\d,]*\s*points\s*\)$", re.IGNORECASE)


def looks_like(lines: list[Line]) -> int:
    """How much ``lines`` look like this export: ``Section:`` headings, ``(N pts)`` unit
    headings, a ``Name - Faction - Detachment (N Points)`` title."""
    score = 0
    first = next((ln.text for ln in lines if not ln.blank), "")
    if " - " in first and _TITLE.search(first):
        score += 4
    for ln in lines:
        if not ln.bullet and _SECTION.match(ln.text):
            score += 2
        elif not ln.bullet and _HEAD.search(ln.text):
            score += 1
        elif ln.bullet and ln.text.startswith("E: "):
            score += 2
    return score


def parse(text: str, label: str) -> ArmyList:
    """Read ListForge's text export.

    Raises:
        ListError: no unit in it.
    """
    lines = lines_of(text)
    name, faction, detachments, points = _title(lines)
    units: list[ListedUnit] = []
    section: str | None = None
    block: list[Line] = []

    def flush() -> None:
        if block:
            units.append(_unit(block, section))
            block.clear()

    title: Line | None = None
    for ln in lines:
        if title is None and not ln.blank:  # the title line
            title = ln
            if not _HEAD.search(ln.text) and not _SECTION.match(ln.text):
                continue
        if ln.blank:
            flush()
            continue
        m = _SECTION.match(ln.text) if not ln.bullet else None
        if m:
            flush()
            section = m.group(1)
            continue
        heading = not ln.bullet and _HEAD.search(ln.text) is not None
        if heading:
            flush()
        elif not block or (ln.indent == 0 and not ln.bullet):
            raise LineError(f"{label}: line {ln.number}: {_unread(ln, block, title)}", ln.number)
        block.append(ln)
    flush()
    if not units:
        raise ListError(f"{label}: no unit found (a line like 'Bloodletters (110 pts)')")
    return ArmyList(FORMAT, name, faction, detachments, tuple(units), points=points).with_notes()


def _unread(ln: Line, block: list[Line], title: Line | None) -> str:
    """Why a line is none ListForge writes where it stands, in words: the list's title again
    (a second list), a line outside a unit, or one at the margin inside a unit."""
    if title is not None and ln.text == title.text and ln.number != title.number:
        return f"the list's title again (line {title.number}): {TWO_LISTS}"
    where = (
        f"under unit {split_points(block[0].text)[0]!r} (line {block[0].number})"
        if block
        else "where a unit heading or a section belongs"
    )
    return (
        f"{shown(ln.text)} {where} is none of the lines ListForge writes: a section "
        "('Battleline:'), a unit heading with its points ('Bloodletters (110 pts)') or an "
        "indented bullet line under it ('  • 9x Bloodletter'); correct it or remove it"
    )


def _title(lines: list[Line]) -> tuple[str | None, str | None, tuple[str, ...], int | None]:
    first = next((ln.text for ln in lines if not ln.blank), "")
    if not _TITLE.search(first):
        return None, None, (), None
    head, points, _ = split_points(first)
    points = points if points is not None else points_anywhere(first)
    parts = [p.strip() for p in head.split(" - ")]
    if len(parts) >= 3:
        return " - ".join(parts[:-2]), parts[-2], (parts[-1],), points
    if len(parts) == 2:
        return parts[0], parts[1], (), points
    return parts[0] or None, None, (), points


def _unit(block: list[Line], section: str | None) -> ListedUnit:
    name, points, _ = split_points(block[0].text)
    warlord, enhancement = False, None
    models: list[list] = []
    loose: list[Item] = []
    items = block[1:]
    outer = min((ln.indent for ln in items), default=0)
    for i, ln in enumerate(items):
        t = ln.text
        if ln.indent == outer and t.lower() == "warlord":
            warlord = True
            continue
        if ln.indent == outer and t.startswith("E: "):
            enhancement = t[3:].strip()
            continue
        n, what = split_count(t)
        deeper = i + 1 < len(items) and items[i + 1].indent > ln.indent
        if ln.indent == outer and deeper:
            models.append([what, n or 1, [], ln.number])
        elif ln.indent == outer:
            loose.append((what, n or 1, ln.number))
        elif models:
            models[-1][2].append((what, n or 1, ln.number))
        else:
            loose.append((what, n or 1, ln.number))
    out = [listed_models(m, n, w, line) for m, n, w, line in models]
    if not out:
        out = [listed_models(None, 1, loose)]
    elif loose:
        out[0] = with_items(out[0], loose)
    return ListedUnit(
        name,
        points,
        tuple(out),
        enhancement=enhancement,
        warlord=warlord,
        ally=is_ally_section(section),
        section=section,
        line=block[0].number,
    )

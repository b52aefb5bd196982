"""New Recruit's text exports with the WTC header: "WTC compact", "WTC full" and the GW-style
text.

All three open with a header block framed by ``+++`` lines: ``+ KEY: value`` lines
(``FACTION KEYWORD: Xenos - Orks``, ``DETACHMENT: Dread Mob, Green Tide (...)``, ``TOTAL
ARMY POINTS: 995pts``, ``LIST NAME``, ``WARLORD``, ``ENHANCEMENT: X (on Char1: Y)`` with ``&``
continuation lines, ``FORCE DISPOSITION``, ...). The body then differs:

* **compact**: a unit per line, ``[Char1: ]Nx Name (N pts)[: items]``; a unit of several model
  types continues with ``• Nx Model[: items]`` lines, and ``N with items`` lines under them;
  ``Enhancement: X (+N pts)``, ``Leading Unit[n]`` (a character's Bodyguard) and ``Attached to
  Name`` (a Bodyguard's character) lines follow the unit;
* **full**: as compact, with each model's equipment on ``N with items`` lines of their own
  (directly under a single-model unit's heading) and its wargear on ``• items`` lines below
  them; section headings in capitals;
* **GW-style**: section headings in capitals, ``[Nx ]Name (N pts)`` headings, and ``• Nx
  item`` lines: a first-level line with lines indented below it is a model type (the indented
  lines its equipment, counted over the type), else a single model's weapon; ``• X (+N pts)``
  is the enhancement, ``• ..., Warlord`` marks the Warlord.

In an items list a count (``2x Shield Drone``) is per model and items without one are one per
model; on a ``N with`` line the items are carried by each of those N models. ``Warlord`` among
the items is the Warlord; ``X upgrade`` is the enhancement's marker, not equipment; New
Recruit sometimes glues a marker to the first item after it (``Fusion Blades upgradeFusion
blaster``): read as the two.

Every line of the body must be one of these (or blank): any other line (a heading the reader
cannot read, notes), anything after the closing ``Created with newrecruit.eu`` line, and a
second ``+++`` header (a list pasted twice) are refused naming the line, never taken as part
of the unit above.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .attach import LEADING, pair_attachments
from .model import (
    ArmyList,
    Attachment,
    Item,
    LineError,
    ListedModels,
    ListedUnit,
    ListError,
    listed_models,
    with_items,
)
from .text import (
    POINTS_RULE,
    TWO_LISTS,
    Line,
    grand_faction,
    is_ally_section,
    is_heading,
    lines_of,
    shown,
    split_count,
    split_items,
    split_label,
    split_points,
    split_with,
    whole_points,
)

_RULE = re.compile(r"^\+{5,}$")
_GLUED = re.compile(r"(?<=[a-z]{3})(?=[A-Z][a-z])")  # "upgradeFusion", "droneDrone"
_ATTACHED_TO = re.compile(r"^attached to\s+(.+)$", re.IGNORECASE)
_CREATED = re.compile(r"^created with newrecruit", re.IGNORECASE)
_UNIT_COUNT = re.compile(r"^\+\s*NUMBER OF UNITS\s*:\s*(\d+)\s*$", re.IGNORECASE)
_HEADER_POINTS = re.compile(r"^(\d{1,3}(?:,\d{3})+|\d+)\s*(?:pts|points|pt|point)?\.?$", re.I)
_HEADER_FIGURES = {  # a header key whose value is a figure: what it counts
    "TOTAL ARMY POINTS": "the army's points",
    "POINTS LIMIT": "the points limit",
    "NUMBER OF UNITS": "the number of units",
}
_EMPTY = ("", "—", "-")  # a header value left empty


def has_header(lines: list[Line]) -> bool:
    """True when ``lines`` open with the WTC header (a ``+++`` rule and ``+ FACTION KEYWORD``
    or ``+ DETACHMENT`` lines)."""
    texts = [ln.text for ln in lines if not ln.blank][:4]
    return (
        bool(texts)
        and bool(_RULE.match(texts[0]))
        and any(t.startswith("+ ") and ":" in t for t in texts[1:])
    )


def variant(lines: list[Line]) -> str:
    """Which body follows the header: "newrecruit-wtc-full" (``N with`` lines of their own
    under a unit heading), "newrecruit-gw-style" (``• Nx item`` lines, no ``N with`` and no
    items after a heading's colon) or "newrecruit-wtc-compact"."""
    body = lines[_header_end(lines) :]
    heads = [h for h in (_heading(ln) for ln in body) if h is not None]
    inline = any(h[4] for h in heads)
    withs = [ln for ln in body if split_with(ln.text)[0] is not None]
    model_colon = any(ln.bullet and ":" in ln.text and split_count(ln.text)[0] for ln in body)
    if any(ln.indent == 0 and not ln.bullet for ln in withs):
        return "newrecruit-wtc-full"
    if not withs and not inline and not model_colon:
        return "newrecruit-gw-style"
    return "newrecruit-wtc-compact"


_HEAD_POINTS = re.compile(r"[(\[]\s*\d[\d,]*\s*(?:pts|points)\s*[)\]]", re.IGNORECASE)


def _heading(ln: Line) -> tuple[str | None, int | None, str, int, str] | None:
    """(label, count, name, points, items after the colon) of a unit heading line
    (``Char1: 1x Warboss (65 pts): Attack squig``), else None."""
    if ln.bullet:
        return None
    label, rest = split_label(ln.text)
    m = _HEAD_POINTS.search(rest)
    if m is None:
        return None
    tail = rest[m.end() :].strip()
    if tail and not tail.startswith(":"):
        return None
    name, points, _ = split_points(rest[: m.end()])
    count, name = split_count(name)
    if points is None or not name or name.lower().startswith("enhancement"):
        return None
    return label, count, name, points, tail.removeprefix(":").strip()


def _header_end(lines: list[Line]) -> int:
    rules = [i for i, ln in enumerate(lines) if _RULE.match(ln.text)]
    return rules[1] + 1 if len(rules) >= 2 else (rules[0] + 1 if rules else 0)


@dataclass
class _Header:
    name: str | None = None
    faction: str | None = None
    detachments: tuple[str, ...] = ()
    points: int | None = None
    limit: int | None = None
    disposition: str | None = None
    enhancements: list[tuple[str, str]] = field(default_factory=list)  # (name, "on" label)


def _header_figure(key: str, value: str) -> int | None:
    """A header figure's value (``995pts``, ``2,000 Points``; ``10`` units), or None when it
    is none: points that are no whole number from 0 up (:func:`~.text.whole_points`), a unit
    count that is no whole number from 1 up."""
    if key == "NUMBER OF UNITS":
        return int(value) if re.fullmatch(r"\d{1,4}", value) and int(value) >= 1 else None
    m = _HEADER_POINTS.match(value)
    return whole_points(int(m.group(1).replace(",", ""))) if m else None


def refuse_bad_header(lines: list[Line], label: str) -> None:
    """Refuse a header figure (``+ TOTAL ARMY POINTS``, ``+ POINTS LIMIT``, ``+ NUMBER OF
    UNITS``) that is no whole number (``1e9pts``, ``495.5pts``, ``-495pts``, ``abcpts``,
    ``0x1Fpts``; ``abc`` or ``-1`` units), naming its line, as a unit heading's points are
    refused (:func:`~.text.points_fault`); an empty value (``-``) gives no figure.

    Raises:
        LineError: naming the input, the line, its text and the rule.
    """
    from .model import LineError

    for ln in lines[: _header_end(lines)]:
        key, colon, value = ln.text[1:].partition(":")
        key, value = key.strip().upper(), value.strip()
        if not ln.text.startswith("+") or not colon or key not in _HEADER_FIGURES:
            continue
        if value in _EMPTY or _header_figure(key, value) is not None:
            continue
        rule = (
            "a count is a whole number of at least 1"
            if key == "NUMBER OF UNITS"
            else f"{POINTS_RULE} (e.g. '995pts')"
        )
        raise LineError(
            f"{label}: line {ln.number}: {shown(ln.text)} gives {value!r} as "
            f"{_HEADER_FIGURES[key]}; {rule}",
            ln.number,
        )


def _header(lines: list[Line]) -> _Header:
    h = _Header()
    last = ""
    for ln in lines[: _header_end(lines)]:
        t = ln.text
        if t.startswith("&") and last == "ENHANCEMENT":
            _enhancement(h, t[1:])
            continue
        if not t.startswith("+") or ":" not in t:
            continue
        key, _, value = t[1:].partition(":")
        key, value = key.strip().upper(), value.strip()
        last = key
        if value in _EMPTY:
            continue
        if key == "LIST NAME":
            h.name = value
        elif key == "FACTION KEYWORD":
            h.faction = grand_faction([p.strip() for p in value.split(" - ")])[-1]
        elif key == "DETACHMENT":
            bare = re.sub(r"\s*\([^)]*\)\s*$", "", value)  # "(Try Dat Button!)"
            h.detachments = tuple(d.strip() for d in bare.split(",") if d.strip())
        elif key == "TOTAL ARMY POINTS":
            h.points = _header_figure(key, value)
        elif key == "POINTS LIMIT":
            h.limit = _header_figure(key, value)
        elif key == "FORCE DISPOSITION":
            h.disposition = value
        elif key == "ENHANCEMENT":
            _enhancement(h, value)
    return h


def stated_units(lines: list[Line]) -> int | None:
    """The header's unit count (``+ NUMBER OF UNITS: 10``; an attached Leader counts as a
    unit of its own), or None where the header gives none."""
    for ln in lines[: _header_end(lines)]:
        m = _UNIT_COUNT.match(ln.text)
        if m:
            return int(m.group(1))
    return None


def _enhancement(h: _Header, text: str) -> None:
    name, _, on = text.strip().partition("(on ")
    h.enhancements.append((name.strip(), on.rstrip(") ").strip()))


def parse(text: str, label: str, which: str | None = None) -> ArmyList:
    """Read a WTC-header export; ``which`` the variant (None: :func:`variant` decides).

    Raises:
        ListError: no unit in it.
    """
    lines = lines_of(text)
    which = which or variant(lines)
    h = _header(lines)
    body = lines[_header_end(lines) :]
    units = _gw_style(body, label) if which == "newrecruit-gw-style" else _wtc(body, label)
    if not units:
        raise ListError(
            f"{label}: no unit found after the header (a line like '10x Boyz (90 pts)')"
        )
    edition, reason = None, None
    if len(h.detachments) > 1 or h.disposition:
        edition = "11"
        reason = (
            "it has a force disposition (edition-11 army construction)"
            if h.disposition
            else "it has several detachments (edition-11 army construction)"
        )
    return ArmyList(
        which,
        h.name,
        h.faction,
        h.detachments,
        tuple(pair_attachments(units)),
        points=h.points,
        points_limit=h.limit,
        edition=edition,
        edition_reason=reason,
        units_stated=stated_units(lines),
    ).with_notes()


# ---------------------------------------------------------------------------------------------
# WTC compact and full


@dataclass
class _Open:
    """A unit being read: its heading's fields, model types and other lines."""

    name: str
    points: int | None
    count: int | None
    section: str | None
    label: str | None = None
    models: list[list] = field(default_factory=list)  # [name, count, [(item, n, line)], line]
    enhancement: str | None = None
    enhancement_points: int | None = None
    warlord: bool = False
    leading: str | None = None
    attached_to: str | None = None
    markers: list[str] = field(default_factory=list)
    each: int = 1  # models the latest "N with" line (or model type) speaks for
    withs: dict[int, tuple[int, int | None]] = field(default_factory=dict)  # type: models, line
    line: int | None = None  # the heading's
    at: int | None = None  # the line being read


def _wtc(body: list[Line], label: str) -> list[ListedUnit]:
    """The units of a WTC compact or full body. Every line must be one the export writes: a
    section heading, a unit heading, a line under a unit (:func:`_body_line`) or the closing
    line, and nothing but blank lines after it (:func:`_after_closing`).

    Raises:
        ListError: a line the export does not write, naming it (a unit heading its reader
            cannot read, a second list pasted after the first, text after the closing line);
            a heading counting other than its model lines (:func:`_close`).
    """
    out: list[ListedUnit] = []
    section: str | None = None
    unit: _Open | None = None
    closing: Line | None = None  # New Recruit's closing line: the list is whole
    for ln in body:
        t = ln.text
        if ln.blank:
            continue
        _after_closing(ln, closing, label)
        if _CREATED.match(t):
            closing = ln
            continue
        if not ln.bullet and is_heading(t):
            section = t
            continue
        head = _heading(ln)
        if head is not None:
            if unit is not None:
                out.append(_close(unit, label))
            unit = _open(head, section, ln.number)
        elif unit is not None and _body_line(unit, ln):
            continue
        else:
            raise LineError(f"{label}: line {ln.number}: {_unread(ln, unit)}", ln.number)
    if unit is not None:
        out.append(_close(unit, label, ends_text=closing is None))
    return out


def _after_closing(ln: Line, closing: Line | None, label: str) -> None:
    """Refuse a line (not blank) that follows the closing line (``Created with newrecruit.eu
    ...``), or a second WTC header anywhere in the body: New Recruit writes nothing after
    its closing line, so it is a second list pasted after the first (its header) or text
    added by hand (a unit added after the list, notes), which is not part of the list.

    Raises:
        ListError: naming the line and what it is.
    """
    if _RULE.match(ln.text):
        raise LineError(
            f"{label}: line {ln.number}: a second list's WTC header ('+++'): {TWO_LISTS}",
            ln.number,
        )
    if closing is None:
        return
    raise LineError(
        f"{label}: line {ln.number}: {shown(ln.text)} comes after New Recruit's closing line "
        f"(line {closing.number}, {shown(closing.text, 40)}), after which the export writes "
        "nothing; remove it (a unit goes above the closing line)",
        ln.number,
    )


def _unread(ln: Line, unit: _Open | None) -> str:
    """Why a line of a WTC body is none the export writes, in words."""
    where = (
        f"under unit {unit.name!r} (line {unit.line})"
        if unit is not None
        else "before the first unit"
    )
    return (
        f"{shown(ln.text)} {where} is none of the lines New Recruit writes: a unit heading "
        "('10x Boyz (90 pts)', 'Char1: 1x Warboss (95 pts): Warlord, ...'), a line under it "
        "('• 9x Boy: ...', 'N with ...', 'Enhancement: ...', 'Leading ...', 'Attached to "
        "...') or a section heading; correct it or remove it"
    )


def _open(head: tuple, section: str | None, line: int | None = None) -> _Open:
    """A unit from its heading; items after the heading's colon are its single model type's
    (``N with`` giving how many models carry them, else every model). Items that are only
    markers (``Char1: 4x Chaplain Grimaldus (100 pts): Warlord`` over its ``• 3x Cenobyte
    Servitor`` and ``• 1x Chaplain Grimaldus`` lines) make no model type: the unit's model
    lines give its model types."""
    label, count, name, points, items = head
    unit = _Open(name, points, count, section, label, line=line, at=line)
    if items:
        n, rest = split_with(items)
        unit.models.append([None, count or 1, [], None])
        _items(unit, rest, n or count or 1)
        if n is not None:
            _with(unit, n, line)
        if not unit.models[0][2]:  # Warlord, an upgrade's marker: no equipment
            unit.models.clear()
    return unit


def _body_line(unit: _Open, ln: Line) -> bool:
    """Read one line under a unit heading: the enhancement, a Leader's or Bodyguard's line,
    an ``N with`` line (items of the latest model type, or of the unit's single type), a
    model type (``• Nx Model[: items]`` at the margin), or wargear (any other bullet: of the
    models the latest line spoke for). False for a line without a bullet that is none of
    these: no line New Recruit writes under a unit (a unit heading it cannot read, say), for
    the caller to refuse rather than take it as the unit's."""
    t = ln.text
    unit.at = ln.number
    key, _, value = t.partition(":")
    if not ln.bullet and key.strip().lower() == "enhancement":
        name, pts, _ = split_points(value.strip())
        unit.enhancement, unit.enhancement_points = name, pts
        return True
    if not ln.bullet and LEADING.match(t):
        unit.leading = t
        return True
    m = _ATTACHED_TO.match(t)
    if m and not ln.bullet:
        unit.attached_to = m.group(1).strip()
        return True
    n_with, rest = split_with(t)
    if n_with is not None and not ln.bullet:
        if not unit.models:
            unit.models.append([None, unit.count or n_with, [], None])
        _items(unit, rest, n_with)
        _with(unit, n_with, ln.number)
        return True
    if not ln.bullet:
        return False
    count, what = split_count(t)
    model, colon, items = what.partition(":")
    if count is not None and ln.indent == 0:  # a model type
        unit.models.append([model.strip(), count, [], ln.number])
        unit.each = count
        if colon:
            n, rest = split_with(items.strip())
            _items(unit, rest, n or count)
            if n is not None:
                _with(unit, n, ln.number)
        return True
    if not unit.models:
        unit.models.append([None, unit.count or 1, [], None])
    _items(unit, t, unit.each)
    return True


def _with(unit: _Open, n: int, line: int | None) -> None:
    """Count ``n`` models of the unit's latest model type as given items by an ``N with``
    (on ``line``: the first such line is kept for a message)."""
    given, first = unit.withs.get(len(unit.models) - 1, (0, line))
    unit.withs[len(unit.models) - 1] = (given + n, first)


def _items(unit: _Open, text: str, each: int) -> None:
    """Add the items of ``text``, each carried by ``each`` models, to the unit's latest model
    type; ``Warlord`` marks the unit, ``X upgrade`` is the enhancement's marker, a glued marker
    is split from the item after it."""
    unit.each = each
    target = unit.models[-1][2]
    for item in split_items(_unglued(text)):
        n, name = split_count(item)
        if name.lower() == "warlord":
            unit.warlord = True
        elif name.lower().endswith(" upgrade") or (
            name.lower().endswith(" character") and n is None
        ):
            unit.markers.append(name)
        else:
            target.append((name, (n or 1) * each, unit.at))


def _unglued(text: str) -> str:
    """``"Fusion Blades upgradeFusion blaster, ..."`` -> ``"Fusion Blades upgrade, Fusion
    blaster, ..."``: New Recruit writes a wargear group's name and its first item without a
    space between them; only such a join (a lower-case word of three letters or more, then a
    capitalised word) is split."""
    return _GLUED.sub(", ", text)


def _close(u: _Open, label: str, ends_text: bool = False) -> ListedUnit:
    """The unit read, its heading's count checked against its model lines (the heading counts
    the unit's models: ``10x Boyz (90 pts)`` over ``1x Boss Nob`` and ``9x Boy``).
    ``ends_text``: the text ends with this unit (no unit and no closing line after it), so
    model lines short of the heading's count are a list cut short, not a wrong count.

    Raises:
        ListError: a heading that counts other than its model lines add up to.
    """
    models = tuple(listed_models(name, n, items, line) for name, n, items, line in u.models)
    listed = sum(m.count for m in models)
    if u.count is not None and models and listed != u.count:
        where = f"line {u.line}: " if u.line is not None else ""
        from ..wording import count

        counted = count(u.count, "model")
        if ends_text and listed < u.count:
            raise ListError(
                f"{label}: cut short: {where}{u.name!r} counts {counted} in its heading, but "
                f"the text ends after model lines for {listed}; copy or export the whole list "
                "again"
            )
        raise ListError(
            f"{label}: {where}{u.name!r} counts {counted} in its heading, but its "
            f"model lines add up to {listed}; make the two agree"
        )
    for i, (given, line) in u.withs.items():
        name, n = u.models[i][0], u.models[i][1]
        if given < n:
            where = f"line {line}: " if line is not None else ""
            from ..wording import count

            raise ListError(
                f"{label}: {where}{name or u.name!r} counts {count(n, 'model')}, but its "
                f"'N with' lines give wargear to {given}: the other {n - given} would carry "
                "nothing the list names; make the counts agree"
            )
    if not models:
        models = (ListedModels(None, u.count or 1),)
    attachment = None
    if u.leading is not None:
        attachment = Attachment("leader", None, u.leading)
    elif u.attached_to is not None:
        attachment = Attachment("bodyguard", None, f"Attached to {u.attached_to}")
    return ListedUnit(
        u.name,
        u.points,
        models,
        enhancement=u.enhancement,
        enhancement_points=u.enhancement_points,
        warlord=u.warlord,
        attachment=attachment,
        ally=is_ally_section(u.section),
        section=u.section,
        markers=tuple(u.markers),
        line=u.line,
    )


# ---------------------------------------------------------------------------------------------
# GW-style


def _gw_style(body: list[Line], label: str) -> list[ListedUnit]:
    """The units of a GW-style body: blocks of a heading ``Name (N pts)`` and its bullet
    lines, under section headings, then the closing line (nothing after it:
    :func:`_after_closing`).

    Raises:
        ListError: a line the export does not write (a block that does not open with a
            heading with points, a line without a bullet inside a block), naming it.
    """
    out: list[ListedUnit] = []
    section: str | None = None
    block: list[Line] = []
    closing: Line | None = None

    def flush() -> None:
        if block:
            out.append(_gw_unit(block, section))
            block.clear()

    for ln in body:
        if not ln.blank:
            _after_closing(ln, closing, label)
        if ln.blank or _CREATED.match(ln.text):
            closing = closing if ln.blank else ln
            flush()
            continue
        if not ln.bullet and is_heading(ln.text):
            flush()
            section = ln.text
            continue
        heading = not ln.bullet and split_points(ln.text)[1] is not None
        if heading and block:
            flush()
        if not heading and (not block or not ln.bullet):
            where = (
                f"under unit {split_points(block[0].text)[0]!r} (line {block[0].number})"
                if block
                else "where a unit heading belongs"
            )
            raise LineError(
                f"{label}: line {ln.number}: {shown(ln.text)} {where} is none of the lines New "
                "Recruit writes: a unit heading with its points ('War Dog Brigand (140 pts)'), "
                "a bulleted line under it ('• 1x Armoured feet') or a section heading; "
                "correct it or remove it",
                ln.number,
            )
        block.append(ln)
    flush()
    return out


def _gw_unit(block: list[Line], section: str | None) -> ListedUnit:
    head, points, _ = split_points(block[0].text)
    _, head = split_label(head)
    count, name = split_count(head)
    warlord, enhancement, enh_points, markers = False, None, None, []
    models: list[list] = []
    loose: list[Item] = []
    lines = block[1:]
    for i, ln in enumerate(lines):
        text, pts, plus = split_points(ln.text)
        if plus:
            enhancement, enh_points = text, pts
            continue
        parts = split_items(text)
        if any(p.lower() == "warlord" for p in parts) and all(
            p.lower() == "warlord" or p.lower().endswith(" character") for p in parts
        ):
            warlord = True
            markers += [p for p in parts if p.lower() != "warlord"]
            continue
        if ln.indent == 0 and all(p.lower().endswith(" character") for p in parts):
            markers += parts
            continue
        if ln.indent == 0 and text.lower().endswith(" upgrade"):
            markers.append(text)
            continue
        n, what = split_count(text)
        deeper = i + 1 < len(lines) and lines[i + 1].indent > 0
        if ln.indent == 0 and deeper and n is not None:
            models.append([what, n, [], ln.number])
        elif ln.indent == 0:
            loose += [(w, c or 1, ln.number) for c, w in (split_count(p) for p in parts)]
        else:
            target = models[-1][2] if models else loose
            target += [(w, c or 1, ln.number) for c, w in (split_count(p) for p in parts)]
    out = [listed_models(m, n, items, line) for m, n, items, line in models]
    if not out:
        out = [listed_models(None, count or 1, loose)]
    elif loose:
        out[0] = with_items(out[0], loose)
    return ListedUnit(
        name,
        points,
        tuple(out),
        enhancement=enhancement,
        enhancement_points=enh_points,
        warlord=warlord,
        ally=is_ally_section(section),
        section=section,
        markers=tuple(markers),
        line=block[0].number,
    )

"""The official Warhammer 40,000 app's text export.

Shape (read from its structure; see README "Army lists"): a preamble — the list's name and
points (``Awoo (1,260 Points)``), the faction lines (``Space Marines`` then the chapter,
``Space Wolves``), the detachments (``A, B and C (3 Detachment Points)`` in edition 11, the
line after the battle size in edition 10), a force disposition, the battle size (``Strike
Force (2,000 Points)``) — then sections in capitals (``ATTACHED UNITS``, ``CHARACTERS``,
``BATTLELINE``, ``OTHER DATASHEETS``, ``ALLIED UNITS``, ...; app 2.6 writes ``Attached
Units``), each of unit blocks separated by blank lines, and a footer (``Exported with App
Version ...``).

A unit block is a heading ``Name (N Points)`` and bullet lines: ``Attached as: Leader
(Character)``, ``Warlord``, ``Enhancement(s): X``, ``... Keyword: Character`` (a detachment
keyword), and equipment ``Nx Name``. Two layouts of the equipment exist:

* indented (app 2.3): a model type at the first level (``• 9x Blood Claw``) with its weapons
  one level in (``◦ 9x Astartes chainsword``); a single-model unit's weapons at the first level;
* flat (app 2.6): only the first line of each group is bulleted, the rest of the group follows
  without a bullet; model-type lines and weapon groups alternate (``• 1x Bloodreaper``, ``•
  1x Hellblade``, ``• 9x Bloodletter``, ``• 1x Daemonic Icon`` / ``9x Hellblade``), and a unit
  with one group lists only weapons.

Counts are totals over the model type. ``Attached unit N`` sub-headings group the units of
one Attached unit. Edition: a list that counts Detachment Points is an edition-11 list (the
edition-11 core rules' army construction); the app states nothing else.

Inside a unit block, a line at the margin without a bullet must be a count (app 2.6's groups);
any other (a unit heading the reader cannot read, with no blank line before it) is refused
naming it, and so is a block's first line that is no heading with whole points (``Blood
Claws (1e3 Points)``, ``(½ Points)``, ``(135 Points))``: its unit's points and attachment
would be lost), an equipment line that is only a count (``◦ 9x``), and any text after the
footer (a unit added after it, notes, a second list).
"""

from __future__ import annotations

import itertools
import re

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
    TWO_LISTS,
    Line,
    is_ally_section,
    is_heading,
    lines_of,
    shown,
    split_count,
    split_points,
)

FORMAT = "gw-app"
_BATTLE_SIZE = re.compile(r"^(combat patrol|incursion|strike force|onslaught)\b.*\(", re.IGNORECASE)
_DETACHMENT_POINTS = re.compile(r"\(\s*\d+\s*detachment points?\s*\)", re.IGNORECASE)
_FOOTER = re.compile(r"^exported with app version", re.IGNORECASE)
_ATTACHED_GROUP = re.compile(r"^attached unit\s*(\d+)$", re.IGNORECASE)
_UNIT_HEAD = re.compile(r"\(\s*\d[\d,]*\s*points?\s*\)$", re.IGNORECASE)
SECTIONS = (
    "attached units",
    "characters",
    "character",
    "battleline",
    "dedicated transports",
    "other datasheets",
    "allied units",
    "epic heroes",
    "fortifications",
)


def looks_like(lines: list[Line]) -> int:
    """How much ``lines`` look like this export (0: not at all): the footer, ``(N Points)``
    unit headings, the app's section names."""
    score = 0
    for ln in lines:
        if _FOOTER.match(ln.text):
            score += 5
        elif not ln.bullet and _UNIT_HEAD.search(ln.text):
            score += 1
        elif not ln.bullet and ln.text.lower() in SECTIONS:
            score += 2
        elif _DETACHMENT_POINTS.search(ln.text):
            score += 3
    return score


def has_footer(lines: list[Line]) -> bool:
    """True when ``lines`` hold the app's footer line (``Exported with App Version ...``),
    the last line the app writes."""
    return any(_FOOTER.match(ln.text) for ln in lines)


def parse(text: str, label: str) -> ArmyList:
    """Read the app's text export.

    Raises:
        ListError: no unit in it.
    """
    lines = lines_of(text)
    body_at = _body_start(lines)
    head = _preamble(lines[:body_at])
    bullets = [ln for ln in lines[body_at:] if ln.bullet]
    flat = bool(bullets) and all(ln.indent == 0 and ln.bullet != "◦" for ln in bullets)
    preamble = [ln for ln in lines[:body_at] if not ln.blank]
    units = _units(lines[body_at:], flat, label, preamble)
    _after_footer(lines, label)
    if not units:
        raise ListError(f"{label}: no unit found (a line like 'Boyz (90 Points)')")
    return ArmyList(FORMAT, units=tuple(units), **head).with_notes()


def _body_start(lines: list[Line]) -> int:
    """Index of the first section heading or unit heading after the preamble (the preamble
    ends at the battle size line, or at the first section heading)."""
    for i, ln in enumerate(lines):
        if not ln.bullet and (ln.text.lower() in SECTIONS or _ATTACHED_GROUP.match(ln.text)):
            return i
    for i, ln in enumerate(lines):
        if _BATTLE_SIZE.match(ln.text):
            return i + 1
    return 0


def _preamble(lines: list[Line]) -> dict:
    """The list's name, points, faction, detachments, battle size limit and edition from the
    lines before the units."""
    texts = [ln.text for ln in lines if not ln.blank]
    name, points = None, None
    if texts:
        first, pts, _ = split_points(texts[0])
        if pts is not None and not _BATTLE_SIZE.match(texts[0]):
            name, points = first or None, pts
            texts = texts[1:]
    limit, detachments, edition, reason, faction_lines = None, [], None, None, []
    after_size = False
    for t in texts:
        if _BATTLE_SIZE.match(t):
            limit = split_points(t)[1]
            after_size = True
        elif _DETACHMENT_POINTS.search(t):
            detachments = _names(_DETACHMENT_POINTS.sub("", t))
            edition, reason = "11", "it counts Detachment Points (edition-11 army construction)"
        elif after_size and not detachments:  # edition 10: the detachment follows the size
            detachments = [t]
        elif not detachments:
            faction_lines.append(t)
    if not detachments and len(faction_lines) > 1 and not _is_chapter(faction_lines[-1]):
        # "Orks" / "War Horde" / "Strike Force (...)": an edition-10 detachment written before
        # the battle size without Detachment Points; a chapter ("Space Marines" / "Space
        # Wolves") is the faction's second line
        detachments = [faction_lines.pop()]
    return {
        "name": name,
        "points": points,
        "points_limit": limit,
        "faction": faction_lines[-1] if faction_lines else None,
        "detachments": tuple(detachments),
        "edition": edition,
        "edition_reason": reason,
    }


def _is_chapter(line: str) -> bool:
    """True for a Space Marine chapter's name (:data:`~.factions.CHAPTERS`), which the app
    writes on the line after "Space Marines"."""
    from ..datasheet import norm_name
    from .factions import CHAPTERS

    return any(norm_name(c) == norm_name(line) for c in CHAPTERS)


def _names(text: str) -> list[str]:
    """``"A, B and C"`` -> ["A", "B", "C"]: split at the commas, the last part at its last
    " and " (the app joins names so; a name with "and" in it, "Legends of Saga and Song",
    stays whole unless it comes last after another)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if parts:
        head, sep, tail = parts[-1].rpartition(" and ")
        if sep and head.strip() and tail.strip():
            parts[-1:] = [head.strip(), tail.strip()]
    return parts


def _after_footer(lines: list[Line], label: str) -> None:
    """Refuse text after the footer (``Exported with App Version ...``), the last line the app
    writes: another footer or the list's first line again after it is a second list (the list
    pasted twice, or two lists in one file); anything else was added by hand (a unit added
    after the list, notes) and is not part of the list.

    Raises:
        ListError: naming the first line after the footer and what it is.
    """
    at = next((i for i, ln in enumerate(lines) if _FOOTER.match(ln.text)), None)
    if at is None:
        return
    after = [ln for ln in lines[at + 1 :] if not ln.blank]
    if not after:
        return
    footer, first = lines[at], after[0]
    title = next(ln for ln in lines if not ln.blank)
    if first.text == title.text or any(_FOOTER.match(ln.text) for ln in after):
        raise LineError(
            f"{label}: line {first.number}: a second list begins after the app's closing line "
            f"(line {footer.number}): {TWO_LISTS}",
            first.number,
        )
    raise LineError(
        f"{label}: line {first.number}: {shown(first.text)} comes after the app's closing line "
        f"(line {footer.number}, 'Exported with App Version ...'), after which the app writes "
        "nothing; remove it (a unit goes above the closing line)",
        first.number,
    )


def _units(
    lines: list[Line], flat: bool, label: str, preamble: list[Line] | None = None
) -> list[ListedUnit]:
    """The unit blocks of the lines after the preamble, up to the footer (``preamble``: the
    list's non-blank lines before them, its title first).

    Raises:
        ListError: a line inside a block that the app does not write (:func:`_stray`); the
            list's first two lines again (a second list: a title alone is no sign of one, as a
            list may be named as its only unit's heading reads, "Ragnar Blackmane (90
            Points)").
    """
    out: list[ListedUnit] = []
    section: str | None = None
    group: str | None = None
    block: list[Line] = []
    # the text's last line: a count alone there is the cut of a copy (detect.cut_short)
    last = max((ln.number for ln in lines if not ln.blank), default=0)

    def flush() -> None:
        if block:
            out.append(_unit(block, section, group, flat))
            block.clear()

    title = preamble[0] if preamble else None
    after_title = preamble[1].text if preamble and len(preamble) > 1 else None
    nonblank = [x for x in lines if not x.blank]
    # each line's next non-blank line's text
    following = {a.number: b.text for a, b in itertools.pairwise(nonblank)}
    for ln in lines:
        if _FOOTER.match(ln.text):
            break
        if ln.blank:
            flush()
            continue
        if (
            title is not None
            and ln.text == title.text
            and ln.number != title.number
            and after_title is not None
            and following.get(ln.number) == after_title
        ):
            raise LineError(
                f"{label}: line {ln.number}: the list's first line again (line {title.number}): "
                f"{TWO_LISTS}",
                ln.number,
            )
        heading = is_heading(ln.text) or ln.text.lower() in SECTIONS
        if not ln.bullet and heading and (not block or ln.indent == 0):
            flush()
            section, group = ln.text, None
            continue
        m = _ATTACHED_GROUP.match(ln.text)
        if m and not ln.bullet:
            flush()
            group = f"Attached unit {m.group(1)}"
            continue
        if not ln.bullet and _UNIT_HEAD.search(ln.text) and ln.indent == 0 and block:
            flush()  # a heading right after a block (no blank line between)
        elif not block and not ln.bullet and not _UNIT_HEAD.search(ln.text):
            raise LineError(
                f"{label}: line {ln.number}: {shown(ln.text)} stands where the app writes a "
                "unit heading, which ends with its points, a whole number ('Blood Claws (135 "
                "Points)'); correct it or remove it",
                ln.number,
            )
        elif block and _count_only(ln) and ln.number != last:
            raise LineError(
                f"{label}: line {ln.number}: {shown(ln.text)} under unit "
                f"{split_points(block[0].text)[0]!r} (line {block[0].number}) is a count with "
                "nothing counted, which the app never writes ('◦ 9x Bolt pistol'); correct it "
                "or remove it",
                ln.number,
            )
        elif block and _stray(ln):
            raise LineError(
                f"{label}: line {ln.number}: {shown(ln.text)} under unit "
                f"{split_points(block[0].text)[0]!r} (line {block[0].number}) is none of the "
                "lines the app writes in a unit: they are bulleted or indented ('  • 9x Blood "
                "Claw'), or a count ('9x Hellblade'); a unit heading has its points ('Blood "
                "Claws (135 Points)'); correct it or remove it",
                ln.number,
            )
        block.append(ln)
    flush()
    return out


_COUNT_ONLY = re.compile(r"^\d+\s*[x×]$", re.IGNORECASE)


def _count_only(ln: Line) -> bool:
    """True for an equipment line that is only a count (``◦ 9x``): read as it stands, a weapon
    named "9x"."""
    return _COUNT_ONLY.match(ln.text) is not None


def _stray(ln: Line) -> bool:
    """True for a line inside a unit block that the app does not write there: at the margin,
    without a bullet and without a count (app 2.6's unbulleted lines are counts, ``9x
    Hellblade``): a unit heading the reader cannot read, say, which would otherwise be taken
    as the unit's equipment."""
    return ln.indent == 0 and not ln.bullet and split_count(ln.text)[0] is None


def _unit(block: list[Line], section: str | None, group: str | None, flat: bool) -> ListedUnit:
    name, points, _ = split_points(block[0].text)
    warlord, enhancement, attached, markers = False, None, None, []
    items: list[Line] = []
    for ln in block[1:]:
        key, _, value = ln.text.partition(":")
        k = key.strip().lower()
        if ln.text.lower() == "warlord":
            warlord = True
        elif k in ("enhancement", "enhancements") and value.strip():
            enhancement = value.strip()
        elif k == "attached as":
            attached = value.strip()
        elif k.endswith("keyword") and value.strip():
            markers.append(ln.text)
        else:
            items.append(ln)
    attachment = None
    if attached is not None:
        role = attached.split("(")[0].strip().lower() or "bodyguard"
        attachment = Attachment(role, group, attached)
    return ListedUnit(
        name,
        points,
        _models(items, flat),
        enhancement=enhancement,
        warlord=warlord,
        attachment=attachment,
        ally=is_ally_section(section),
        section=section,
        markers=tuple(markers),
        line=block[0].number,
    )


def _models(items: list[Line], flat: bool) -> tuple[ListedModels, ...]:
    """The unit's model types and their weapons from its equipment lines: by indentation
    where the lines have two levels, by the flat layout's groups (``flat``: the whole export
    bullets only at the margin), else every line a weapon of a single model."""
    if not items:
        return (ListedModels(None, 1),)
    levels = sorted({ln.indent for ln in items})
    if len(levels) > 1:  # indented layout: model types at the outer level
        return _tree(items, levels[0])
    if flat:
        return _flat(items)
    return (listed_models(None, 1, [_item(ln) for ln in items]),)


def _tree(items: list[Line], outer: int) -> tuple[ListedModels, ...]:
    models: list[ListedModels] = []
    loose: list[Item] = []
    current: tuple[int, str, int] | None = None
    weapons: list[Item] = []

    def close() -> None:
        if current is not None:
            n, what, line = current
            models.append(listed_models(what, n, weapons, line))
            weapons.clear()

    for i, ln in enumerate(items):
        n, what = split_count(ln.text)
        deeper = i + 1 < len(items) and items[i + 1].indent > ln.indent
        if ln.indent <= outer and ln.bullet != "◦":
            if deeper:
                close()
                current = (n or 1, what, ln.number)
            else:
                close()
                current = None
                loose.append((what, n or 1, ln.number))
        else:
            weapons.append((what, n or 1, ln.number))
    close()
    return _with_loose(models, loose)


def _flat(items: list[Line]) -> tuple[ListedModels, ...]:
    """App 2.6: groups (a bulleted line and the unbulleted lines after it); model-type lines
    and their weapon groups alternate when there are several groups and every other one is a
    single line; one group is a single-model unit's weapons."""
    groups: list[list[Line]] = []
    for ln in items:
        if ln.bullet or not groups:
            groups.append([ln])
        else:
            groups[-1].append(ln)
    alternate = len(groups) >= 2 and len(groups) % 2 == 0 and all(len(g) == 1 for g in groups[0::2])
    if not alternate:
        return (listed_models(None, 1, [_item(ln) for g in groups for ln in g]),)
    out = []
    for head, body in zip(groups[0::2], groups[1::2], strict=True):
        n, what = split_count(head[0].text)
        out.append(listed_models(what, n or 1, [_item(ln) for ln in body], head[0].number))
    return tuple(out)


def _item(ln: Line) -> Item:
    """An equipment line as an item: (name, count, its line)."""
    n, what = split_count(ln.text)
    return (what, n or 1, ln.number)


def _with_loose(models: list[ListedModels], loose: list[Item]) -> tuple[ListedModels, ...]:
    """Model types plus the first-level lines that are not one: with no model type they are
    the single model's weapons; beside model types, the unit's own wargear, given to the
    first model type's count (a unit-level item is not multiplied)."""
    if not models:
        return (listed_models(None, 1, loose),)
    if loose:
        models[0] = with_items(models[0], loose)
    return tuple(models)

"""Which export an input is, and reading it: the one entry point, :func:`read_list`.

By structure, first to last: a zip archive is a ``.rosz``; text that starts with ``<`` is XML
(a ``.ros`` roster); text that starts with ``{`` is JSON: a BattleScribe-style tree (New
Recruit's export, or ListForge's when its ``generatedBy`` says so) or a Rosterizer snapshot;
a ListForge share link (``...#/listforge-json/DATA``: the JSON gzipped, in base64) is that
JSON.
Other text is one of the text exports: the WTC header (``+++`` and ``+ KEY: value`` lines)
means New Recruit's WTC compact, WTC full or GW-style text; otherwise each text reader scores
how much the text looks like its export (its title line, section headings, unit headings) and
the best one reads it. Anything else — empty, binary, an unrelated file — is one line of
error, and so is a text export that was cut short (:func:`cut_short`), or that holds a line
its builder does not write (:func:`~.text.refuse_bad_lines`, and each reader's own lines).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .model import ArmyList, LineError, ListError
from .source import EMPTY_ZIP_MAGIC, ZIP_MAGIC, clean_text, decode_text, read_source, unzip_roster

FORMATS = (
    "gw-app",
    "newrecruit-wtc-compact",
    "newrecruit-wtc-full",
    "newrecruit-gw-style",
    "newrecruit-simple",
    "listforge-text",
    "listforge-json",
    "newrecruit-json",
    "battlescribe-ros",
    "battlescribe-rosz",
    "rosterizer",
)
MIN_SCORE = 2  # a text reader needs at least this much evidence


def read_list(path: str, stdin=None) -> ArmyList:
    """The army list in ``path`` (``-``: standard input), its format detected.

    Raises:
        ListError: the input cannot be read, or is not an army list we read (one line).
    """
    src = read_source(path, stdin)
    return parse_bytes(src.data, src.label)


def parse_bytes(data: bytes, label: str) -> ArmyList:
    """The army list in ``data`` (``label`` names it in messages).

    Raises:
        ListError: as :func:`read_list`.
    """
    if data.startswith((ZIP_MAGIC, EMPTY_ZIP_MAGIC)):
        return _xml(decode_text(unzip_roster(data, label), label), "battlescribe-rosz", label)
    text = decode_text(data, label)
    if not text.strip():
        raise ListError(f"{label}: empty; paste or export an army list into it")
    head = text.lstrip()
    shared = share_link(head, label)
    if shared is not None:
        return _json(shared, label)
    if head.startswith("<"):
        return _xml(text, "battlescribe-ros", label)
    if head.startswith(("{", "[")):
        return _json(text, label)
    try:
        army = parse_text(clean_text(text), label)
    except LineError as exc:
        cut_in_last_line(exc, text, label)
        raise
    cut_short(army, text, label)
    return army


def cut_in_last_line(exc: LineError, raw: str, label: str) -> None:
    """Refuse as cut short, rather than for the line, a text export whose line that no builder
    writes (``exc``) is its last and the text stops inside it (no line break after it: a copy
    cut mid-line, ``10x Boyz (1``), where the list without that line is cut short by
    :func:`cut_short`'s evidence (its units come short of its total). Otherwise nothing: the
    caller raises ``exc``. ``raw`` is the decoded text before cleaning.

    Raises:
        ListError: the list was cut short.
    """
    lines = clean_text(raw).split("\n")
    if raw.rstrip(" \t").endswith(("\n", "\r")) or exc.line != len(lines):
        return
    try:
        army = parse_text("\n".join(lines[:-1]), label)
    except ListError:
        return
    cut_short(army, raw, label)


_SHARE = "#/listforge-json/"
_GZIP_B64 = "H4sI"  # base64 of gzip's magic bytes


def share_link(text: str, label: str) -> str | None:
    """The JSON inside a ListForge share link (``...#/listforge-json/DATA``) or its bare data
    (base64 of gzipped JSON), or None when ``text`` is neither.

    Raises:
        ListError: the data does not decode, or unpacks to more than MAX_UNZIPPED.
    """
    import base64
    import binascii
    import gzip
    import io
    import zlib

    from .source import MAX_UNZIPPED

    data = text.strip()
    if _SHARE in data:
        data = data.split(_SHARE, 1)[1]
    elif not data.startswith(_GZIP_B64) or any(c.isspace() for c in data):
        return None
    data = data.split("&")[0].split("#")[0]
    try:
        packed = base64.b64decode(data + "=" * (-len(data) % 4), altchars=b"-_")
        with gzip.GzipFile(fileobj=io.BytesIO(packed)) as fh:
            raw = fh.read(MAX_UNZIPPED + 1)
    except (binascii.Error, OSError, EOFError, zlib.error, ValueError) as exc:
        raise ListError(f"{label}: a ListForge share link that does not decode ({exc})") from None
    if len(raw) > MAX_UNZIPPED:
        raise ListError(f"{label}: its share link unpacks to more than 16 MB; not an army list")
    return decode_text(raw, label)


def _xml(text: str, fmt: str, label: str) -> ArmyList:
    from . import tree

    return tree.parse(tree.xml_tree(text, label), fmt, label)


def _json(text: str, label: str) -> ArmyList:
    from . import rosterizer, tree

    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ListError(
            f"{label}: malformed or truncated JSON (line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg})"
        ) from None
    except RecursionError:
        raise ListError(f"{label}: JSON nested too deeply; not an army list") from None
    if rosterizer.is_rosterizer(data):
        return rosterizer.parse(data, label)
    roster = tree.roster_of(data)
    if roster is not None:
        by = " ".join(
            str(x.get("generatedBy", "")) for x in (data, roster) if isinstance(x, dict)
        ).lower()
        fmt = "listforge-json" if "listforge" in by else "newrecruit-json"
        return tree.parse(roster, fmt, label)
    keys = ", ".join(list(data)[:6]) if isinstance(data, dict) else type(data).__name__
    raise ListError(
        f"{label}: JSON, but not an army list export (a roster with forces, or a Rosterizer "
        f"snapshot; it has {keys or 'nothing'})"
    )


def parse_text(text: str, label: str) -> ArmyList:
    """A text export (already cleaned), its format detected.

    Raises:
        ListError: no text reader recognises it, or the one that does finds no unit; a
            line no list builder writes: a control character, points or a count that is no
            whole number (:func:`~.text.refuse_bad_lines`).
    """
    from . import gwapp, listforge, newrecruit, nrsimple
    from .text import lines_of, refuse_bad_lines

    lines = lines_of(text)
    if newrecruit.has_header(lines):
        newrecruit.refuse_bad_header(lines, label)
        refuse_bad_lines(lines, label)
        return newrecruit.parse(text, label)
    scores = {
        "gw-app": (gwapp.looks_like(lines), gwapp.parse),
        "newrecruit-simple": (nrsimple.looks_like(lines), nrsimple.parse),
        "listforge-text": (listforge.looks_like(lines), listforge.parse),
    }
    best = max(scores, key=lambda k: scores[k][0])
    if scores[best][0] < MIN_SCORE:
        why = _too_little(lines, scores[best][0])
        raise ListError(f"{label}: no army list format recognised: {why}")
    refuse_bad_lines(lines, label)
    return scores[best][1](text, label)


def _too_little(lines: list, score: int) -> str:
    """Why a text is no export we read (``score``: the most marks of an export a text reader
    found in it, below :data:`MIN_SCORE`), in words: what it holds, what an export has, the
    formats."""
    text = [ln.text for ln in lines if not ln.blank]
    first = text[0] if len(text[0]) <= 40 else text[0][:39] + "…"
    if len(text) == 1:
        held = f"its only line, {first!r}, is no list on its own"
    elif score:
        held = (
            f"of its {len(text):,} lines only one looks like part of a list (a unit heading "
            "or a section): too little to tell the export"
        )
    else:
        held = f"none of its {len(text):,} lines is a list builder's title, section or unit heading"
    return (
        f"{held}; an export has its builder's title or header (the app's 'NAME (2,000 "
        "Points)' and faction; New Recruit's '+++' lines; ListForge's 'NAME - FACTION - "
        "DETACHMENT (2,000 Points)') and its units, each with its points (e.g. 'Boyz (90 "
        f"Points)') and models; copy or export the whole list (formats: {', '.join(FORMATS)})"
    )


# the end of a line cut after a count, before its name: "• 9x", ": 5 with", ", 2x"
_BARE_COUNT = re.compile(r"(?:^|[:,])[\s•◦*-]*\d+\s*(?:x|with)?\s*$", re.IGNORECASE)


def cut_short(army: ArmyList, raw: str, label: str) -> None:
    """Refuse a text export that was cut short (a copy or a download that stopped part-way):
    its units add up to fewer points than the total it states, and its end shows the cut —
    the text stops inside a line (no line break after the last one), the header counts more
    units than it holds (New Recruit's ``NUMBER OF UNITS``), or the app's closing ``Exported
    with App Version`` line is missing. A shortfall alone stays a note (a list trimmed by hand
    on purpose; :meth:`ArmyList.with_notes`). Whatever the points, a text that ends on a count
    with no name after it (``  • 9x``, ``5x Lootas (130 pts): 5 with``, ``..., 2x``) was cut:
    no export writes a count alone. A cut inside the last name, or between two items of the
    last unit, leaves no sign of its own when the points add up (a shorter name or one item
    fewer is a list as valid as the whole one). ``raw`` is the decoded text before cleaning.

    Raises:
        ListError: the list was cut short; one line with the evidence.
    """
    from . import gwapp, newrecruit
    from .text import lines_of

    ending = raw.rstrip()
    final = ending.splitlines()[-1].strip() if ending else ""
    shown = final if len(final) <= 40 else "…" + final[-39:]
    bare = _BARE_COUNT.search(final) is not None
    listed = sum(u.points for u in army.units if u.points is not None)
    if army.points is None or listed >= army.points:
        if bare:  # the points add up, but no export ends on a count
            raise ListError(
                f"{label}: cut short: it ends on a count with no name after it ({shown!r}); "
                "copy or export the whole list again"
            )
        return
    lines = lines_of(clean_text(raw))
    signs = []
    last = raw.rstrip(" \t")
    if last and not last.endswith(("\n", "\r")):
        signs.append(f"it stops inside a line ({shown!r})")
    stated = newrecruit.stated_units(lines) if army.format.startswith("newrecruit") else None
    if stated is not None and stated > len(army.units):
        held = len(army.units)
        signs.append(
            f"its header counts {stated:,} units but {held:,} {'is' if held == 1 else 'are'} in it"
        )
    if army.format == gwapp.FORMAT and not gwapp.has_footer(lines):
        signs.append("the app's last line ('Exported with App Version ...') is missing")
    if signs:
        raise ListError(
            f"{label}: cut short: it says {army.points:,} points but its units add up to "
            f"{listed:,}; {', and '.join(signs)}; copy or export the whole list again"
        )

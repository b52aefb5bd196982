"""The text of ``calc data update`` and ``calc data status``: lines wrapped between words at
the terminal's width (``COLUMNS`` where it is set, as every command reads it; 80 columns when
the output is no terminal), names from the data with their control characters escaped.
Rendering only: everything shown is computed in :mod:`.run` and :mod:`.status`.

An update prints what it took, then for each faction whose datasheets changed a heading
(``Orks (data 912 → 913): 1 added, 2 changed``) and one line per unit (``+ Big Mek``,
``- Gretchin``, ``Boyz: 10 models 75→80 pts; Boy W 1→3``), then the factions with no change
in one wrapped line, then where the data now is and how to go back.
"""

from __future__ import annotations

import shutil
import textwrap

from ..terminal import escape_controls as esc
from ..wording import count
from .changes import FactionChanges
from .run import UpdateOutcome
from .status import DataStatus

DEFAULT_WIDTH = 80  # no terminal and no COLUMNS
MIN_WIDTH = 20


def width() -> int:
    """The width to fill: ``COLUMNS`` or the terminal's (:data:`DEFAULT_WIDTH` when neither
    says), at least :data:`MIN_WIDTH`."""
    return max(shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns, MIN_WIDTH)


def _fill(text: str, room: int, indent: str = "", more: str = "    ") -> str:
    return textwrap.fill(
        text,
        room,
        initial_indent=indent,
        subsequent_indent=indent + more,
        break_long_words=True,  # only a word longer than the line is folded
        break_on_hyphens=False,
    )


def wrapped(text: str) -> str:
    """A sentence wrapped to :func:`width`, its control characters escaped."""
    return _fill(esc(text), width())


def _versions(c: FactionChanges) -> str:
    if c.old_version is None:
        return f"data {c.new_version}, new in the data"
    if c.old_version == c.new_version:
        return f"data {c.new_version}"
    return f"data {c.old_version} → {c.new_version}"


def faction_lines(c: FactionChanges, room: int) -> list[str]:
    """A faction's heading and one line per unit added, removed or changed."""
    parts = [
        f"{len(units)} {kind}"
        for kind in ("added", "removed", "changed")
        if (units := c.of_kind(kind))
    ]
    head = f"{esc(c.faction)} ({_versions(c)}): {', '.join(parts)}"
    out = [_fill(head, room)]
    for u in c.units:
        if u.kind == "added":
            out.append(_fill(f"+ {esc(u.name)}", room, "  "))
        elif u.kind == "removed":
            out.append(_fill(f"- {esc(u.name)}", room, "  "))
        else:
            out.append(_fill(f"{esc(u.name)}: {esc('; '.join(u.details))}", room, "  "))
    return out


def update_lines(outcome: UpdateOutcome, room: int | None = None) -> list[str]:
    """The whole text of an update (or of finding nothing to change)."""
    room = room or width()
    versions = sorted({v for _, _, v in outcome.taken}, key=lambda v: (len(v), v))
    files = f"{count(len(outcome.taken), 'faction file')} (data {', '.join(versions)})"
    if not outcome.written:
        return [
            _fill(
                f"The edition-11 data is up to date: the {files} of {esc(outcome.source)} "
                "give the datasheets in use; nothing changed.",
                room,
            )
        ]
    out = [_fill(f"Updated the edition-11 data from {esc(outcome.source)}: {files}.", room)]
    quiet: dict[str, list[str]] = {}
    for c in outcome.changes:
        if c.units:
            out += faction_lines(c, room)
        else:
            quiet.setdefault(_versions(c), []).append(esc(c.faction))
    for versions_said, names in quiet.items():
        out.append(_fill(f"No datasheet changed ({versions_said}): {', '.join(names)}.", room))
    if outcome.refused:
        shown = "; ".join(f"{esc(n)} ({esc(f)}): {esc(r)}" for f, n, r in outcome.refused[:5])
        more = f"; and {len(outcome.refused) - 5} more" if len(outcome.refused) > 5 else ""
        out.append(
            _fill(
                f"Not generated: {count(len(outcome.refused), 'datasheet')}: {shown}{more}.",
                room,
            )
        )
    out.append(
        _fill(
            f"In use from now on: {count(outcome.count, 'datasheet')} in "
            f"{esc(str(outcome.folder))} (`calc data status` shows them; `calc data reset` "
            "goes back to the shipped data).",
            room,
        )
    )
    return out


def print_status(status: DataStatus, console) -> None:
    """``calc data status``: the versions in use, where the sets are, and a table of the
    factions (name, shipped or updated, version, date, datasheets) fitted to the console
    (:func:`~wh40k_calc.layout.print_table`)."""
    from rich.table import Table
    from rich.text import Text

    from ..layout import Words, print_table

    room = max(console.width, MIN_WIDTH)
    updated = [f for f in status.factions if f.kind == "updated"]
    head = (
        f"Edition-11 data in use: data {', '.join(map(str, status.versions))} · "
        f"{count(len(status.factions), 'faction')}: {len(updated)} updated, "
        f"{len(status.factions) - len(updated)} shipped"
    )
    lines = [_fill(head, room)]
    if status.updated is not None:
        lines.append(_fill(f"Updated: {esc(str(status.updated))}", room, "", "  "))
        rec = status.record
        said = (
            f"from {esc(rec.source)} on {esc(rec.when)}"
            if rec
            else "(not written by calc data update)"
        )
        lines.append(_fill(said, room, "  ", "  "))
    lines.append(_fill(f"Shipped: {esc(str(status.shipped))}", room, "", "  "))
    for line in lines:
        console.print(Text(line), soft_wrap=True)
    table = Table(show_edge=True)
    table.add_column("Faction")
    for heading, justify in (("Data", "left"), ("Version", "right"), ("Date", "left")):
        table.add_column(heading, no_wrap=True, justify=justify)  # type: ignore[arg-type]
    table.add_column("Datasheets", no_wrap=True, justify="right")
    for f in status.factions:
        version, date = esc(str(f.version)), esc(f.date)
        table.add_row(Words(esc(f.faction)), f.kind, version, date, f"{f.count:,}")
    print_table(console, table)
    if status.leftovers:
        note = (
            f"Note: an interrupted update left {count(len(status.leftovers), 'folder')} beside "
            "the set; the next `calc data update` or `calc data reset` removes them."
        )
        console.print(Text(_fill(note, room)), soft_wrap=True)

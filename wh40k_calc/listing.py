"""``calc units``: the datasheets found, filtered by a name fragment (fuzzy), as a table or JSON.

The filter is :func:`wh40k_calc.fuzzy.rank`: every word of the text must be like a word of the
name (of ``Faction/Name`` when the text has a ``/``: "world eaters/berzerkers"; a faction's
name alone matches nothing, ``--faction`` filters by faction), so "intercessor squad" lists
the Intercessor, Assault Intercessor and Heavy Intercessor Squads (and the alike Interceptor
Squad, last), "hellblastr" finds
"Hellblaster Squad" and "leman" every Leman Russ; best first. A text no name matches that way
lists the closest names instead (:func:`wh40k_calc.fuzzy.suggest`).

The table (:func:`print_units`) is plain aligned lines, not a rich table (a table of 1,600 rows
takes rich most of a second to lay out), and costs little per row: the terminal's width is
read once, a shipped file's place is its path with the shipped folder's prefix cut off, and
nothing here imports numpy or the datasheet schema (``calc units`` starts as fast as a listing
can; ``benchmarks/test_bench_startup.py``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .catalog import Entry


def faction_names(faction: str, present: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The names a datasheet of ``faction`` is listed under, as lookups take them
    (:mod:`wh40k_calc.factions`, :meth:`wh40k_calc.catalog.Catalog.entry`): the faction's
    own, the data's name for it (Adeptus Astartes for Space Marines); for a chapter with
    datasheets of its own in edition 11 its parent's names too (Blood Angels: Space Marines,
    Adeptus Astartes); and for a parent the names of its chapters that have no datasheets
    here (``present``: the factions listed, normalised), whose units are the parent's
    (edition 10: Space Wolves are Space Marines)."""
    from .factions import DATA_NAMES, PARENTS
    from .sheetnames import norm_name

    key = norm_name(faction)
    parents = [p for c, p in PARENTS.items() if norm_name(c) == key]
    out: list[str] = []
    for ours in [faction, *parents]:
        out += [ours] + [d for d, o in DATA_NAMES.items() if norm_name(o) == norm_name(ours)]
    out += [c for c, p in PARENTS.items() if norm_name(p) == key and norm_name(c) not in present]
    return tuple(dict.fromkeys(out))


def present_factions(entries: list[Entry]) -> frozenset[str]:
    """The factions of ``entries``, normalised (for :func:`faction_names`)."""
    from .sheetnames import norm_name

    return frozenset(norm_name(f) for f in {e.faction for e in entries})


def in_faction(e: Entry, text: str, present: frozenset[str] = frozenset()) -> bool:
    """Whether ``--faction TEXT`` takes ``e``: ``TEXT`` (punctuation and case ignored) is part
    of one of its faction's names (:func:`faction_names`: a chapter's units are Space
    Marines')."""
    from .sheetnames import norm_name

    key = norm_name(text)
    return any(key in norm_name(n) for n in faction_names(e.faction, present))


def filter_entries(entries: list[Entry], text: str) -> list[Entry]:
    """The entries whose name matches ``text`` (when ``text`` has a ``/``, their
    ``Faction/Name`` under any of the faction's names: :func:`faction_names`, so that
    ``space marines/death company`` finds the Blood Angels' Death Company units in edition 11
    and ``space wolves/wolf guard`` the Space Marines' Wolf Guard units in edition 10), best
    first;
    when none does, those with the closest names."""
    from .fuzzy import rank, suggest

    if "/" in text:
        present = present_factions(entries)
        named: dict[str, tuple[str, ...]] = {}
        owner = []
        choices = []
        for i, e in enumerate(entries):
            if e.faction not in named:
                named[e.faction] = faction_names(e.faction, present)
            for f in named[e.faction]:
                owner.append(i)
                choices.append(f"{f}/{e.name}")
    else:
        owner = list(range(len(entries)))
        choices = [e.name for e in entries]
    ranked = rank(text, choices)  # best first: word score, whole-name ratio, given order
    if ranked:
        return [entries[i] for i in dict.fromkeys(owner[j] for j, _ in ranked)]
    from .nicknames import nickname

    known = nickname(text)  # "fire warriors": the unit players mean by it, first
    first = [e for e in entries if known is not None and e.qualified == known.qualified]
    close = suggest(text, [e.name for e in entries])
    return first + [e for name in close for e in entries if e.name == name and e not in first]


def replaced(entries: list[Entry]) -> dict[Path, Path]:
    """The user's files that hide a shipped file of the same faction and name -> that file
    (``entries`` listed with the hidden ones)."""
    kinds = {e.path: e.kind for e in entries}
    return {
        e.hidden_by: e.path
        for e in entries
        if e.hidden_by is not None and e.shipped and kinds.get(e.hidden_by) == "user"
    }


def entry_json(
    e: Entry, replaces: Path | None, data: dict | None = None, invalid: str | None = None
) -> dict[str, Any]:
    """One entry for ``calc units --json``: name, faction, qualified name, source ("user",
    "curated" or "generated"), file, the editions it is for, the data version it comes from
    (``data``: ``{source, version, date}`` for a generated edition-11 one, else None) and the
    file it replaces or is hidden by; ``unreadable: true`` for a file that does not parse as a
    datasheet (:class:`~wh40k_calc.catalog.Entry`); ``invalid: true`` and ``error`` (the field
    and why, as :func:`invalid_user_files` gives it: ``invalid``) for a file of the user's
    that parses but does not load as a datasheet, as the text listing marks it."""
    out: dict[str, Any] = {
        "name": e.name,
        "faction": e.faction,
        "qualified": e.qualified,
        "source": e.kind,
        "file": str(e.path),
        "editions": [str(x) for x in e.editions],
        "data": data,
    }
    if replaces is not None:
        out["replaces"] = str(replaces)
    if e.hidden_by is not None:
        out["hidden_by"] = str(e.hidden_by)
    if e.unreadable:
        out["unreadable"] = True
    if invalid is not None:
        out["invalid"] = True
        out["error"] = invalid
    return out


def place_of(p: Path, cwd: str | None = None) -> str:
    """A file's path for people: inside the shipped folders (and the user data folder's
    edition-11 set) relative to them ("(shipped) orks/boyz.yaml"), else relative to ``cwd``
    (default: the working folder) where it can be.
    """
    from .catalog import GENERATED, GENERATED_11, SHIPPED, UPDATED_11

    text = str(p)
    shipped = ((SHIPPED, "shipped"), (GENERATED, "generated"), (GENERATED_11, "generated 11"))
    for base, label in shipped:
        prefix = str(base).rstrip(os.sep) + os.sep
        if text.startswith(prefix):
            return f"({label}) {text[len(prefix) :]}"
    marker = os.sep + UPDATED_11 + os.sep  # the user data folder's edition-11 set
    if marker in text:
        return f"(updated 11) {text.rsplit(marker, 1)[1]}"
    try:
        return os.path.relpath(p, cwd) if cwd is not None else os.path.relpath(p)
    except ValueError:
        return text


def invalid_user_files(entries: list[Entry]) -> dict[Path, str]:
    """The user's datasheet files of ``entries`` (``kind`` "user", readable YAML) that do not
    load as datasheets: path -> the error without the path (the field and why:
    ``models[0].T: must be a whole number, not text``). Only the user's files are loaded (a
    folder of a few files; the shipped ones are checked by the tests), so a listing without
    ``--datasheets`` or a user folder loads none and imports no datasheet schema; a file
    loaded before and unchanged since (its path, size, modification time and content, and the
    code of :data:`VALIDATED_BY`) is taken as valid from a mark in the cache folder
    (:mod:`wh40k_calc.filecache`, kind ``checked``) without loading it again."""
    mine = [e for e in entries if e.kind == "user" and not e.unreadable]
    if not mine:
        return {}
    from . import filecache

    depends = filecache.stamp(*VALIDATED_BY)
    out: dict[Path, str] = {}
    for e in mine:
        try:
            content = e.path.read_bytes()  # a small file: its digest keys the mark as well
            mark = filecache.entry("checked", e.path, e.path.stat(), depends, content)
        except OSError:
            mark = None
        if mark is not None and mark.exists():
            continue  # loaded before, unchanged, by the same code: valid
        from .datasheet import DatasheetError, load_datasheet

        try:
            load_datasheet(e.path)
        except DatasheetError as exc:
            out[e.path] = str(exc).removeprefix(f"{e.path}: ")
            continue
        if mark is not None:
            filecache.write(mark, b"")
    return out


# the modules whose code says whether a datasheet file loads: a new version of any of them
# checks every user file again
VALIDATED_BY = (
    "datasheet.py",
    "sheetnames.py",
    "validation.py",
    "abilities.py",
    "yamlio.py",
    "filecache.py",
    "listing.py",
)


def print_units(
    entries: list[Entry],
    replaces: dict[Path, Path],
    heading: str = "",
    invalid: dict[Path, str] | None = None,
) -> None:
    """Print ``calc units``' listing: one line per datasheet (name, file, notes), grouped by
    faction, after a count line ending in ``heading`` (the edition and data version). A line
    too long for the terminal is folded (the file below the name). A file of ``invalid``
    (path -> why, :func:`invalid_user_files`) is marked on its line and named with its field
    in a note after the listing."""
    import itertools

    from rich.text import Text

    from .layout import wrap_words
    from .terminal import escape_controls as esc
    from .terminal import output_console, print_joined
    from .wording import count

    # the datasheets used, then the files hidden by them ("1 datasheet, plus 1 hidden file"
    # over two lines: a hidden file is listed but is no datasheet a name finds)
    hidden = sum(1 for e in entries if e.hidden_by is not None)
    out = output_console()
    width = out.width  # asked once: rich asks the terminal each time
    cwd = os.getcwd()
    print_joined(
        out,
        Text(
            count(len(entries) - hidden, "datasheet")
            + (f", plus {count(hidden, 'hidden file')}" if hidden else "")
        ),
        Text(heading),
    )
    for faction, grouped in itertools.groupby(entries, key=lambda e: e.faction):
        group = list(grouped)
        # names and paths from files: escaped; a name too long to be valid, cut
        names = {e.path: esc(listed_name(e.name)) for e in group}
        name_width = max(len(n) for n in names.values())  # aligned within the faction
        hid = sum(1 for e in group if e.hidden_by is not None)  # counted as the summary does
        shown = f"{len(group) - hid:,}" + (f", plus {hid:,} hidden" if hid else "")
        shown = f"{esc(listed_name(faction)) or '(no faction)'} ({shown})"
        title = Text(shown, "bold")  # folded as a name
        lines = []
        for e in group:
            place = place_of(e.path, cwd)
            if e.hidden_by is not None:
                place += f" (hidden: same name as {place_of(e.hidden_by, cwd)})"
            if e.path in replaces:
                place += f" (replaces {place_of(replaces[e.path], cwd)})"
            if e.unreadable:
                place += " (unreadable: 'calc units --check' says why)"
            elif invalid and e.path in invalid:
                place += " (invalid: see below)"
            place = esc(place)
            line = f"  {names[e.path]:<{name_width}}  {place}"
            if len(line) <= width:  # one aligned line
                lines.append(line + "\n")
            else:  # folded for a narrow terminal: the file below the name, both wrapped
                name = _fill(names[e.path], width, 2, 4)
                where = _fill(place, width, 6, 8)
                lines.append(f"{name}\n{where}\n")
        for part in wrap_words(title, max(width, 1)):
            part.rstrip()
            out.print(part, soft_wrap=True)
        # plain text, already escaped and folded: written as it is (rich would only split it
        # into lines and segments again, most of the listing's time)
        out.file.write("".join(lines))
    for path, why in (invalid or {}).items():  # one note a file: its place, the field, why
        note = f"Note: {place_of(path, cwd)} is not a valid datasheet: {why}"
        out.file.write(_fill(esc(note), width, 0, 2) + "\n")


NAME_LIMIT = 200  # characters of a datasheet's name, at most (datasheet.py's schema)


def listed_name(name: str) -> str:
    """A datasheet file's ``name`` as listings print it: a name longer than a datasheet's may
    be (:data:`NAME_LIMIT`; the file is refused for it) cut to
    :data:`~wh40k_calc.wording.ECHO_LIMIT` characters with "…", as messages cut what the
    player typed; any other name as it is."""
    from .wording import ECHO_LIMIT

    return name if len(name) <= NAME_LIMIT else name[: ECHO_LIMIT - 1] + "…"


def _fill(text: str, width: int, first: int, rest: int) -> str:
    """``text`` wrapped at ``width`` columns (``textwrap``: between words and after hyphens, a
    word longer than the line folded), its first line indented ``first`` spaces and the others
    ``rest``; an indent that would leave no room on a line is shortened to leave one column."""
    import textwrap

    room = max(width - 1, 0)
    return textwrap.fill(
        text,
        max(width, 1),
        initial_indent=" " * min(first, room),
        subsequent_indent=" " * min(rest, room),
    )

"""The unit composition lines of one datasheet: model names and how many of each.

``1 Boss Nob``, ``9-19 Boyz``, ``1 Spanner and 4 Lootas``; alternatives are separated by ``OR``
lines, or are the rows after a ``One of the following:`` line. Brackets belong to the model
they follow and are never split: ``1 Aegis Defence Line
with Weapon Emplacement (4 large shield sections, 4 small shield sections and 1 gun
emplacement)`` is one model, whose sections (counted entries inside the brackets) are kept as its
``parts``; a bracket that counts nothing (``1 Kill Team Terminator (Garran Branatar)``, a
character's own name) is left out of the model's name.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from . import names
from .export import Export, html_to_text
from .names import singular


class Entry(NamedTuple):
    """One counted model of a composition line: its name (singular when there can be several),
    the fewest and the most, and the sections inside its brackets (name -> how many)."""

    name: str
    low: int
    high: int
    parts: tuple[tuple[str, int], ...] = ()


Entries = list[Entry]  # the entries of one composition alternative

_ENTRY_RE = re.compile(r"^(\d+)(?:\s*[-\u2010\u2011\u2013]\s*(\d+))?\s+(.+)$", re.DOTALL)
_SEPARATOR_RE = re.compile(r"[()]|(?:,|\s+and)\s+(?=\d)")


def split_outside_brackets(text: str) -> list[str]:
    """``text`` cut at each ``, `` or `` and `` that comes before a number outside brackets:
    ``'1 A (2 b and 3 c) and 4 D'`` -> ``['1 A (2 b and 3 c)', '4 D']``."""
    pieces: list[str] = []
    depth = start = 0
    for m in _SEPARATOR_RE.finditer(text):
        token = m.group(0)
        if token == "(":
            depth += 1
        elif token == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            pieces.append(text[start : m.start()])
            start = m.end()
    pieces.append(text[start:])
    return pieces


def entries(text: str) -> Entries:
    """The counted models of one line: ``'1 Spanner and 4 Lootas'`` ->
    ``[Entry('Spanner', 1, 1), Entry('Loota', 4, 4)]``; [] when a piece is not counted."""
    text = re.sub(r"\s*[\u2013-]\s*EPIC HERO\s*$", "", text).strip().rstrip(".*:").strip()
    out: Entries = []
    for piece in split_outside_brackets(text):
        m = _ENTRY_RE.match(piece.strip().rstrip("*").strip())
        if not m:
            return []
        low = int(m.group(1))
        high = int(m.group(2) or low)
        name, parts = _name_and_parts(m.group(3))
        out.append(Entry(singular(name) if high > 1 else name, low, high, parts))
    return out


def printed_names(rows: list[dict[str, str]]) -> list[str]:
    """Every model name the composition rows print, as printed (not made singular), with and
    without a bracket after it: ``1 Captain on Bike`` -> ``Captain on Bike`` (the names'
    own casing, for :func:`~wh40k_calc.importers.names.unit_name`)."""
    out = []
    for row in rows:
        for line in html_to_text(row.get("description", "")).splitlines():
            line = re.sub(r"\s*[\u2013-]\s*EPIC HERO\s*$", "", line).strip().rstrip(".*:").strip()
            for piece in split_outside_brackets(line):
                m = _ENTRY_RE.match(piece.strip().rstrip("*").strip())
                if m:
                    out += [m.group(3).strip(), m.group(3).partition("(")[0].strip()]
    return out


def unit_name(export: Export, sheet: dict[str, str]) -> str:
    """The name of ``sheet``'s unit in the data's own casing (its composition's, where that
    prints it): :func:`~wh40k_calc.importers.names.unit_name`."""
    rows = export.rows("Datasheets_unit_composition.csv", sheet["id"])
    return names.unit_name(sheet["name"], printed_names(rows))


def _name_and_parts(text: str) -> tuple[str, tuple[tuple[str, int], ...]]:
    """``'Imperial Fortress Walls (1 gate section, 2 tower sections)'`` -> the name before the
    bracket and the counted sections inside it (none for a bracket that counts nothing)."""
    name, bracket, inner = text.partition("(")
    if not bracket:
        return text.strip(), ()
    inside = entries(inner.rsplit(")", 1)[0])
    return name.strip(), tuple((e.name, e.low) for e in inside)


def composition(rows: list[dict[str, str]], warnings: list[str]) -> list[Entries]:
    """Alternatives of the composition rows' entries: separated by 'OR' lines, or each row
    after a 'One of the following:' line."""
    alts: list[Entries] = [[]]
    each_row = False
    for row in rows:
        text = html_to_text(row["description"]).split("\n")[0].strip()
        if text.lower().rstrip(":") == "or":
            alts.append([])
            continue
        if re.fullmatch(r"one of the following\W*", text, re.IGNORECASE):
            each_row = True
            alts.append([])
            continue
        if re.search(r"\bmaximum\b", text, re.IGNORECASE):
            continue  # "10 MODELS MAXIMUM": the sizes say it already
        found = entries(text)
        if found:
            alts[-1].extend(found)
        elif text and not re.match(r"^[A-Z][\w\s\u2019'-]*$", text):
            warnings.append("a unit composition line was not understood")
        elif text:
            alts[-1].append(Entry(text, 1, 1))  # a model named without a count: one of it
        if each_row:
            alts.append([])
    return [a for a in alts if a]

"""The pieces every text export is made of, read once: lines with their indentation and
bullet, counts (``9x Boy``, ``9 with ...``), points (``(90 pts)``, ``[90 pts]``, ``(1,260
Points)``, ``(+15 pts)``) and comma-separated item lists.

The readers of the text formats (:mod:`.gwapp`, :mod:`.newrecruit`, :mod:`.nrsimple`,
:mod:`.listforge`) walk :class:`Line` values and ask these helpers what a piece of a line is;
none of them matches a whole line with one pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BULLETS = "•◦▪‣○●◆■∙·*-"
_COUNT = re.compile(r"^(\d{1,4})\s*[x×]\s*(?=\S)", re.IGNORECASE)
_WITH = re.compile(r"^(\d{1,4})\s+with\s+", re.IGNORECASE)
_POINTS = re.compile(
    r"\s*[(\[]\s*(\+?)\s*(\d{1,3}(?:,\d{3})+|\d{1,6})\s*(pts|points|point|pt)\.?\s*[)\]]\s*$",
    re.IGNORECASE,
)
_LEADING_LABEL = re.compile(r"^([A-Za-z]{2,12}\d{1,3}):\s*")  # "Char1:", "Batt2:"
# a count that is no whole number from 1 up where a count stands: at the start of the text, or
# of an item after ":" or ",": "0x Boyz (85 pts)", "-1x Boyz", "x Blood Claw", "1.5x Boy",
# "..., 0x Shield Drone", "0 with Slugga"; and one of more digits than any unit has models
# ("99999999999999999999x Boyz": the readers take no more than four digits for a count)
_BAD_COUNT = re.compile(
    r"(?:^|[:,]\s*)(?:(?P<n>0+|-\s*\d+|\d+[.,]\d+|\d{5,})\s*(?:[xX×]\s*(?=\S)|(?i:with)\s)"
    r"|(?P<none>[x×])\s+(?=\S))"
)


@dataclass(frozen=True)
class Line:
    """One line of a text export: its 1-based ``number``, ``indent`` (spaces before the
    bullet or text), ``bullet`` (the bullet character, or "" for none) and ``text`` (after the
    bullet, stripped)."""

    number: int
    indent: int
    bullet: str
    text: str

    @property
    def blank(self) -> bool:
        """True for an empty line."""
        return not self.text and not self.bullet


def lines_of(text: str) -> list[Line]:
    """The lines of ``text`` (already :func:`~.source.clean_text`-ed) as :class:`Line` values.
    A bullet is one of BULLETS followed by a space (``-``, ``*`` and ``·`` only then)."""
    out = []
    for i, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.lstrip(" ")
        indent = len(raw) - len(stripped)
        bullet = ""
        lead, after = stripped[:1], stripped[1:2]
        if lead and lead in BULLETS and (after == " " or (after == "" and lead not in "*-·")):
            bullet, stripped = lead, stripped[1:].strip()
        out.append(Line(i, indent, bullet, stripped.strip()))
    return out


TWO_LISTS = "the text holds two lists (pasted twice?); give calc army one list"


def refuse_bad_lines(lines: list[Line], label: str) -> None:
    """Refuse a text export with a line no list builder writes, naming the first such line:
    a control character in it (:func:`control_fault`), points that are no whole number
    (:func:`points_fault`) or a count that is none (:func:`count_fault`). Each would
    otherwise make the line something else to its reader (a unit heading no longer one: its
    model lines read as the unit's before it).

    Raises:
        ListError: naming the input, the line, its text and what is wrong with it.
    """
    from .model import LineError

    for ln in lines:
        fault = control_fault(ln) or points_fault(ln) or count_fault(ln)
        if fault is not None:
            raise LineError(f"{label}: line {ln.number}: {fault}", ln.number)


def shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message (``repr``: a control character escaped), cut to
    ``limit`` characters."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def control_fault(ln: Line) -> str | None:
    """What is wrong with a line holding a control character (ESC, a bell, DEL, ...; the
    text is already cleaned: line breaks and tabs are gone), or None: no export writes one,
    and a unit heading with one (``10x Boyz (90 pts)`` and a colour code after it) is no
    longer read as a heading."""
    import unicodedata

    bad = [c for c in ln.text if unicodedata.category(c) == "Cc"]
    if not bad:
        return None
    which = ", ".join(dict.fromkeys(repr(c)[1:-1] for c in bad))
    return (
        f"{shown(ln.text)} holds a control character ({which}), which no list builder writes: "
        "remove it, or copy or export the list again"
    )


_ANY_POINTS = re.compile(r"[(\[]([^()\[\]]*?)(?:pts|points|point|pt)\.?\s*[)\]]", re.IGNORECASE)
_WHOLE_POINTS = re.compile(r"^\+?\s*(?:\d{1,3}(?:,\d{3})+|\d{1,6})$")
_WORD = re.compile(r"[^\W\d_]{2,}")  # "Detachment": a word, not a number's letter (1e3, 0x87)


POINTS_MAX = 999_999  # six digits: more than any list's points, the most a reader takes
POINTS_RULE = "points are a whole number from 0 up"


def whole_points(value: object) -> int | None:
    """``value`` as points, or None when it is none: a whole number from 0 to
    :data:`POINTS_MAX` (``90``, ``90.0``, the text ``"90"`` or ``"90.0"`` of an XML attribute);
    NaN, infinities, fractions, negatives, ``true`` and other text are none. The one points
    rule of every reader: the text formats' bracket digits (:func:`points_fault`) and the
    JSON and XML exports' ``value`` (:mod:`.tree`) both come here."""
    import math

    n: float
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        n = value
    elif isinstance(value, str):
        try:
            n = float(value.strip())
        except ValueError:
            return None
    else:
        return None
    if not math.isfinite(n) or n != int(n) or not 0 <= n <= POINTS_MAX:
        return None
    return int(n)


def points_fault(ln: Line) -> str | None:
    """What is wrong with a line's points (``(-90 pts)``, ``[9.5 pts]``, ``(1,2 Points)``,
    ``[1e2 pts]``, ``(0x87 Points)``, ``(½ Points)``: a bracket of numerals and signs before
    ``pts``/``Points`` that is no whole number from 0 up, an enhancement's ``+`` allowed), or
    None; a bracket with a word in it (``(3 Detachment Points)``) is no unit's points. A
    heading with such points is not read as a heading (its model lines would be read as the
    unit's before it)."""
    for m in _ANY_POINTS.finditer(ln.text):
        inner = m.group(1).strip()
        if not any(c.isnumeric() for c in inner):
            continue
        if _WHOLE_POINTS.match(inner) and whole_points(re.sub(r"[+,\s]", "", inner)) is not None:
            continue
        if _WORD.search(inner):  # "(3 Detachment Points)": not points
            continue
        return (
            f"{shown(ln.text)} gives {m.group(0).strip()!r} as points; {POINTS_RULE} "
            "(e.g. '(90 pts)')"
        )
    return None


def count_fault(ln: Line) -> str | None:
    """What is wrong with a line that counts a unit, a model type or an item with anything
    but a whole number from 1 up, or None: 0 (``0x Boyz``, ``• 0x Boy: ...``, ``2x Slugga,
    0x Choppa``, ``0 with ...``), a negative count (``-1x Boyz``), a fraction (``1.5x
    Boy``), an ``x`` with no number (``• x Blood Claw``), or more digits than any unit has
    models (``99999999999999999999x Boyz``), as the JSON and XML readers refuse such a
    ``number`` (:func:`~.model.whole_count`): the readers would otherwise take a missing
    count's 1 for it, or keep the count in the unit's name."""
    m = _BAD_COUNT.search(ln.text)
    if m is None:
        return None
    start = m.start() + len(m.group(0)) - len(m.group(0).lstrip(":, "))
    item = re.split(r"[,:]", ln.text[start:], maxsplit=1)[0].strip()
    n = (m.group("n") or "").replace(" ", "")
    hint = ""
    if m.group("none"):
        what = "has no number before its 'x'"
    elif n.isdigit() and int(n) == 0:
        what, hint = "counts 0", " (leave out what the list does not have)"
    elif n.isdigit():
        what = f"counts {n}, more models than any unit has"
    else:
        what = f"counts {n}"
    return f"{shown(item)} {what}; a count is a whole number of at least 1{hint}"


def split_points(text: str) -> tuple[str, int | None, bool]:
    """``"Boyz (90 pts)"`` -> ("Boyz", 90, False); ``"Mantle (+15 pts)"`` -> ("Mantle", 15,
    True) (the third value: written as an addition); no points: (text, None, False)."""
    m = _POINTS.search(text)
    if m is None:
        return text.strip(), None, False
    return text[: m.start()].strip(), int(m.group(2).replace(",", "")), bool(m.group(1))


def points_anywhere(text: str) -> int | None:
    """The points in ``text`` wherever they are: ``(2,000 Points)``, ``[1985 pts]``,
    ``995pts``; None if none."""
    m = re.search(r"(\d{1,3}(?:,\d{3})+|\d{1,6})\s*(?:pts|points)\b", text, re.IGNORECASE)
    return int(m.group(1).replace(",", "")) if m else None


def split_count(text: str) -> tuple[int | None, str]:
    """``"9x Boy"`` -> (9, "Boy"); ``"Boy"`` -> (None, "Boy")."""
    m = _COUNT.match(text)
    if m is None:
        return None, text.strip()
    return int(m.group(1)), text[m.end() :].strip()


def split_with(text: str) -> tuple[int | None, str]:
    """``"9 with Choppa, Slugga"`` -> (9, "Choppa, Slugga"); no ``N with``: (None, text)."""
    m = _WITH.match(text)
    if m is None:
        return None, text
    return int(m.group(1)), text[m.end() :].strip()


def split_label(text: str) -> tuple[str | None, str]:
    """``"Char1: 1x Warboss (65 pts)"`` -> ("Char1", "1x Warboss (65 pts)")."""
    m = _LEADING_LABEL.match(text)
    if m is None:
        return None, text
    return m.group(1), text[m.end() :]


def split_items(text: str) -> list[str]:
    """A comma-separated item list, split at the commas that are not inside brackets."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]" and depth:
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [x.strip() for x in out if x.strip()]


def counted_items(text: str, each: int) -> list[tuple[str, int]]:
    """Items of a comma-separated list carried by each of ``each`` models: ``"2x Shield
    Drone, Battlesuit fists"`` for 3 models -> [("Shield Drone", 6), ("Battlesuit fists", 3)].
    """
    out = []
    for item in split_items(text):
        n, name = split_count(item)
        out.append((name, (n or 1) * each))
    return out


def is_heading(text: str) -> bool:
    """A section heading written in capitals ("CHARACTERS", "OTHER DATASHEETS", "ALLIED
    UNITS"): letters and spaces only, no lower-case letter, at least four letters."""
    letters = [c for c in text if c.isalpha()]
    return (
        len(letters) >= 4
        and all(c.isalpha() or c in " &/-'’" for c in text)
        and not any(c.islower() for c in text)
    )


ALLY_SECTIONS = ("allied units", "allies", "allied")


def is_ally_section(heading: str | None) -> bool:
    """True for a section heading that marks allied units ("ALLIED UNITS")."""
    return heading is not None and heading.strip().rstrip(":").lower() in ALLY_SECTIONS


def grand_faction(parts: list[str]) -> list[str]:
    """``["Xenos", "T'au Empire", ...]`` -> ``["T'au Empire", ...]``: the grand alliance New
    Recruit and BattleScribe put before a faction (Imperium, Chaos, Xenos, Aeldari, Tyranids,
    Unaligned) dropped where a faction follows it."""
    if len(parts) > 1 and parts[0].strip().lower() in (
        "imperium",
        "chaos",
        "xenos",
        "unaligned",
        "unaligned forces",
    ):
        return parts[1:]
    return parts

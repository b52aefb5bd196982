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


def refuse_bad_counts(lines: list[Line], label: str) -> None:
    """Refuse a text export that counts a unit, a model type or an item with anything but a
    whole number from 1 up: 0 (``0x Boyz``, ``• 0x Boy: ...``, ``2x Slugga, 0x Choppa``, ``0
    with ...``), a negative count (``-1x Boyz``), a fraction (``1.5x Boy``), an ``x`` with no
    number (``• x Blood Claw``), or more digits than any unit has models
    (``99999999999999999999x Boyz``), as the JSON and XML readers refuse such a ``number``
    (:func:`~.model.whole_count`): the readers would otherwise take a missing count's 1 for
    it, or keep the count in the unit's name.

    Raises:
        ListError: naming the input, the line, its text and what is wrong with the count.
    """
    from .model import ListError

    for ln in lines:
        m = _BAD_COUNT.search(ln.text)
        if m is None:
            continue
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip(":, "))
        item = re.split(r"[,:]", ln.text[start:], maxsplit=1)[0].strip()
        shown = item if len(item) <= 60 else item[:59] + "…"
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
        raise ListError(
            f"{label}: line {ln.number}: {shown!r} {what}; a count is a whole number of at "
            f"least 1{hint}"
        )


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

"""The coverage tables of the README: per faction and kind, how many rules, how many change an
attack (modelled + not modelled), how many are modelled, and whether the goals of issue 18
are met.

Computed from the coverage files' lines alone (:class:`wh40k_calc.effect_coverage.Line`), so
the tables written into the README by ``make effects-coverage`` are a function of the CSV files
and a test can recompute them from the committed CSV without the data. A table lives between
two marker lines of the README (:func:`update_readme`)::

    <!-- BEGIN effects-coverage-11 -->
    ...
    <!-- END effects-coverage-11 -->

Goals (edition 11): 100% of the army rules and of the detachment rules that change an attack
modelled, at least 90% of such stratagems, at least 75% of such enhancements; each goal is met
overall and per faction when the share reaches it (a faction with no such rule meets it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the lines' type only: effect_coverage's command line imports this module
    from .effect_coverage import Coverage, Line

GOALS: dict[str, Fraction] = {
    "army": Fraction(1),
    "detachment": Fraction(1),
    "stratagem": Fraction(9, 10),
    "enhancement": Fraction(3, 4),
}
KINDS = tuple(GOALS)  # the kinds of edition 11's faction files, in the table's order
HEADINGS = {"army": "Army", "detachment": "Detachment", "stratagem": "Stratagems",
            "enhancement": "Enhancements"}  # fmt: skip


class ReadmeError(ValueError):
    """A README without the marker lines of a coverage block (the message names them)."""


@dataclass(frozen=True)
class Count:
    """Rules of one faction and kind: ``rules`` in all, ``attack`` (modelled + not
    modelled), ``modelled``, ``missing`` (not covered at all)."""

    rules: int = 0
    attack: int = 0
    modelled: int = 0
    missing: int = 0

    def __add__(self, other: Count) -> Count:
        return Count(
            self.rules + other.rules,
            self.attack + other.attack,
            self.modelled + other.modelled,
            self.missing + other.missing,
        )

    @property
    def share(self) -> Fraction | None:
        """Modelled of the attack rules; None when there is no attack rule."""
        return Fraction(self.modelled, self.attack) if self.attack else None

    def meets(self, goal: Fraction) -> bool:
        """The share reaches ``goal`` (no attack rule: met) and no rule is missing."""
        return not self.missing and (self.share is None or self.share >= goal)

    def cell(self) -> str:
        """``modelled/attack/rules share``: ``27/29/45 93%`` (``—`` for the share without
        attack rules), ``+N missing`` when some are not covered."""
        share = "—" if self.share is None else f"{_percent(self.share)}%"
        text = f"{self.modelled}/{self.attack}/{self.rules} {share}"
        return text + (f" +{self.missing} missing" if self.missing else "")


def _percent(share: Fraction) -> int:
    """Whole percent, rounded down (99.6% is not 100%)."""
    return int(share * 100)


def _count(lines: list[Line]) -> Count:
    return Count(
        len(lines),
        sum(x.attack for x in lines),
        sum(x.status == "modelled" for x in lines),
        sum(x.status == "missing" for x in lines),
    )


def counts(lines: tuple[Line, ...] | list[Line]) -> dict[str, dict[str, Count]]:
    """``{faction label: {kind: Count}}`` in the lines' order; the label is the data's name,
    with ours in parentheses where it differs (``Adeptus Astartes (Space Marines)``)."""
    out: dict[str, dict[str, list[Line]]] = {}
    for x in lines:
        label = f"{x.faction} ({x.our_faction})" if x.our_faction else x.faction
        out.setdefault(label, {}).setdefault(x.kind, []).append(x)
    return {f: {k: _count(v) for k, v in kinds.items()} for f, kinds in out.items()}


def _missed(row: dict[str, Count]) -> list[str]:
    """The goals a faction (or the total) misses: ``stratagems 88% < 90%``."""
    out = []
    for kind, goal in GOALS.items():
        c = row.get(kind, Count())
        if not c.meets(goal):
            share = c.share  # None only where the goal is met
            got = "missing rules" if c.missing or share is None else f"{_percent(share)}%"
            out.append(f"{HEADINGS[kind].lower()} {got} < {_percent(goal)}%")
    return out


def table_11(lines: tuple[Line, ...] | list[Line]) -> str:
    """The edition-11 block: one row per faction with rules of the four kinds (not ``Core``,
    whose unit rules no faction file lists), a total row, then the goals."""
    per = {f: row for f, row in counts(lines).items() if any(k in row for k in KINDS)}
    total = {k: sum((row.get(k, Count()) for row in per.values()), Count()) for k in KINDS}
    out = [
        "| Faction | " + " | ".join(HEADINGS[k] for k in KINDS) + " | Goals |",
        "| --- | " + " | ".join("---:" for _ in KINDS) + " | --- |",
    ]
    for faction, row in per.items():
        missed = _missed(row)
        cells = " | ".join(row.get(k, Count()).cell() for k in KINDS)
        out.append(f"| {faction} | {cells} | {'; '.join(missed) or 'met'} |")
    cells = " | ".join(f"**{total[k].cell()}**" for k in KINDS)
    out.append(f"| **All factions** | {cells} | {'; '.join(_missed(total)) or 'met'} |")
    out += ["", "| Goal | Share modelled, all factions | Met | Factions meeting it |",
            "| --- | ---: | --- | ---: |"]  # fmt: skip
    for kind, goal in GOALS.items():
        c = total[kind]
        share = "—" if c.share is None else f"{_percent(c.share)}% ({c.modelled}/{c.attack})"
        meeting = sum(row.get(kind, Count()).meets(goal) for row in per.values())
        met = "yes" if c.meets(goal) else "no"
        name = HEADINGS[kind].lower()
        out.append(f"| {name}: {_percent(goal)}% | {share} | {met} | {meeting} of {len(per)} |")
    return "\n".join(out)


def table_10(lines: tuple[Line, ...] | list[Line]) -> str:
    """The edition-10 block: one row per faction (army rules of the export; the other rules
    the effect files name: the seed pages' detachment rules, stratagems, unit rules and the
    core stratagems), then a total row."""
    per = counts(lines)
    out = ["| Faction | Army rules | Other rules (seed pages) |", "| --- | ---: | ---: |"]
    total_army, total_other = Count(), Count()
    for faction, row in per.items():
        army = row.get("army", Count())
        other = sum((c for k, c in row.items() if k != "army"), Count())
        total_army, total_other = total_army + army, total_other + other
        cells = [c.cell() if c.rules else "" for c in (army, other)]
        out.append(f"| {faction} | {cells[0]} | {cells[1]} |")
    out.append(f"| **All** | **{total_army.cell()}** | **{total_other.cell()}** |")
    return "\n".join(out)


def _block(name: str) -> tuple[str, str]:
    return f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with the lines between the markers of block ``name`` replaced by ``body``.

    Raises:
        ReadmeError: the markers are missing, repeated or out of order.
    """
    begin, end = _block(name)
    pattern = re.compile(rf"^{re.escape(begin)}\n.*?^{re.escape(end)}$", re.S | re.M)
    found = pattern.findall(text)
    if len(found) != 1:
        raise ReadmeError(
            f"the README needs exactly one block from a line {begin!r} to a line {end!r} "
            f"(found {len(found)})"
        )
    return pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)


def update_readme(text: str, results: list[Coverage]) -> str:
    """``text`` with the coverage block of each edition in ``results`` rewritten
    (``effects-coverage-11``, ``effects-coverage-10``)."""
    for cov in results:
        table = table_11 if cov.edition == 11 else table_10
        text = replace_block(text, f"effects-coverage-{cov.edition}", table(cov.lines))
    return text

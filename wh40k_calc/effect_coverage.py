"""Which rules of a faction's data an effect file covers: every army rule, detachment rule,
stratagem and enhancement of a game-datacards faction file must be modelled by a record or
listed in the file's ``coverage`` (not an attack rule, or not modelled with the reason).

Rules are matched by (kind, detachment, name), names compared by :func:`key` (case, accents,
apostrophes and punctuation aside). Army rules have no detachment.

``python -m wh40k_calc.effect_coverage FACTION.json EFFECTS.yaml`` prints the rules of the data
that the file does not cover and the file's entries that name no rule of the data (exit 1 if
any), then counts per kind and status.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from functools import lru_cache
from pathlib import Path

from msgspec import Struct

from .effect_schema import EffectFile, EffectFileError, load_effect_file

KINDS = ("army", "detachment", "stratagem", "enhancement")


@lru_cache(maxsize=4096)  # names are looked up again and again (every plan, every run)
def key(text: str | None) -> str:
    """A name for matching: lower case, accents, apostrophes and punctuation aside."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@lru_cache(maxsize=4096)
def slug(text: str) -> str:
    """An effect id from a rule's name: lower case, accents stripped, apostrophes dropped, every
    other run of punctuation or spaces one hyphen (``'Ard as Nails`` -> ``ard-as-nails``,
    ``Martial Ka’tah`` -> ``martial-katah``)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"['’‘`]", "", text)
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def _en(value: object) -> str:
    if isinstance(value, dict):
        return str(value.get("en", ""))
    return "" if value is None else str(value)


class DataRule(Struct, frozen=True):
    """One rule of a faction file: ``kind`` (army, detachment, stratagem, enhancement), its
    ``detachment`` (None for army rules), ``name`` as printed, and the data's ``id`` if any."""

    kind: str
    detachment: str | None
    name: str
    id: str = ""

    @property
    def match(self) -> tuple[str, str, str]:
        """The key it is matched by."""
        return (self.kind, key(self.detachment), key(self.name))


def data_rules(path: Path) -> list[DataRule]:
    """Every army rule, detachment rule, stratagem and enhancement of a game-datacards faction
    file, in file order."""
    d = json.loads(path.read_text(encoding="utf-8"))
    out = [DataRule("army", None, _en(r.get("name"))) for r in d.get("rules", {}).get("army", [])]
    for det in d.get("rules", {}).get("detachment", []):
        for r in det.get("rules", []):
            out.append(DataRule("detachment", det.get("detachment"), _en(r.get("name"))))
    for s in d.get("stratagems", []):
        out.append(DataRule("stratagem", s.get("detachment"), _en(s.get("name")), s.get("id", "")))
    for e in d.get("enhancements", []):
        out.append(
            DataRule("enhancement", e.get("detachment"), _en(e.get("name")), e.get("id", ""))
        )
    return out


def covered(f: EffectFile) -> dict[tuple[str, str, str], str]:
    """What the file says of each rule it names: ``modelled`` (a record; a record with several
    detachments covers the rule in each), ``not-attack`` or ``not-modelled``."""
    out: dict[tuple[str, str, str], str] = {}
    for r in f.effects:
        name = r.rule or r.name
        for det in r.detachments or [None]:
            out[(r.kind, key(det), key(name))] = "modelled"
    for c in f.coverage:
        out[(c.kind, key(c.detachment), key(c.rule))] = c.status
    return out


def report(json_path: Path, effects_path: Path) -> tuple[list[str], Counter]:
    """(problems, counts by (kind, status)) of one effect file against its faction file."""
    rules = data_rules(json_path)
    f = load_effect_file(effects_path)
    said = covered(f)
    problems, counts = [], Counter()
    wanted = set()
    for r in rules:
        wanted.add(r.match)
        status = said.get(r.match)
        if status is None:
            where = f" ({r.detachment})" if r.detachment else ""
            problems.append(f"not covered: {r.kind} {r.name!r}{where}")
            status = "missing"
        counts[(r.kind, status)] += 1
    for m in said:
        if m[0] in KINDS and m not in wanted:  # unit and core records name no faction rule
            problems.append(f"names no rule of the data: {m[0]} {m[2]!r} (detachment {m[1]!r})")
    return problems, counts


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    import sys

    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 2:
        print("usage: python -m wh40k_calc.effect_coverage FACTION.json EFFECTS.yaml")
        return 2
    try:
        problems, counts = report(Path(args[0]), Path(args[1]))
    except (EffectFileError, OSError, ValueError) as e:
        print(e)
        return 1
    for p in problems:
        print(p)
    for kind in KINDS:
        row = {s: n for (k, s), n in counts.items() if k == kind}
        total = sum(row.values())
        print(f"{kind}: {total} rules: " + ", ".join(f"{s} {n}" for s, n in sorted(row.items())))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

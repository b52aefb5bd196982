"""Which rules of a faction's data an effect file covers: every army rule, detachment rule,
stratagem and enhancement of a game-datacards faction file (edition 11), and every faction's
army rules in the 10th-edition CSV export, must be modelled by a record or listed in the file's
``coverage`` (not an attack rule, or not modelled with the reason).

Rules are matched by (kind, detachment, name), names compared by :func:`key` (case, accents,
apostrophes and punctuation aside). Army rules have no detachment. A record names the rule it
models by ``rule`` (default: its ``name``); a record with several ``detachments`` covers the
rule in each.

Two uses:

* ``python -m wh40k_calc.effect_coverage FACTION.json EFFECTS.yaml`` prints the rules of one
  faction file that the effect file does not cover and the file's entries that name no rule of
  the data (exit 1 if any), then counts per kind and status.
* ``python -m wh40k_calc.effect_coverage --gdc DIR --csv DIR [--readme README.md]`` (``make
  effects-coverage``) writes the coverage files ``effects/coverage-11.csv`` (from the
  game-datacards folder) and ``effects/coverage-10.csv`` (from the 10th-edition export), one
  line per rule (:data:`COLUMNS`), sorted, and the summary tables into the README's marked
  blocks (:mod:`wh40k_calc.effect_coverage_summary`). ``--check`` writes nothing and exits 1
  when a file would change.

The 10th-edition export marks a faction's army rules as its datasheets' abilities of type
``Faction`` (``Datasheets_abilities.csv``; name and text in ``Abilities.csv``): the rules
:func:`export_army_rules` lists for each faction of ``Factions.csv``. The 10th-edition effect
files of Orks, World Eaters and the core stratagems also hold the seed pages' detachment rules,
stratagems and unit rules, which no export lists: their lines come from the files alone (no
``rule_id``).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache
from pathlib import Path

from msgspec import Struct

from .effect_schema import EffectFile, EffectFileError, load_effect_file

KINDS = ("army", "detachment", "stratagem", "enhancement")
# every kind a coverage line may have, in the order the coverage files list them
ALL_KINDS = (*KINDS, "unit", "core")
STATUSES = ("modelled", "not-attack", "not-modelled", "missing")
# kinds no faction file of the data lists, which effect files may hold (unit rules, core
# stratagems): each entry of these kinds is a line of its own
UNIT_KINDS = frozenset({"unit", "core"})
EFFECTS = Path(__file__).resolve().parent.parent / "effects"  # the repository's effect files
CSV_NAME = {11: "coverage-11.csv", 10: "coverage-10.csv"}
EXPORT_SOURCE = "wahapedia-10e-2025-07"


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


def _faction_rules(d: dict) -> list[DataRule]:
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


def data_rules(path: Path) -> list[DataRule]:
    """Every army rule, detachment rule, stratagem and enhancement of a game-datacards faction
    file, in file order."""
    import json  # lazy, as csv: not on the start-up path of every command (1.5 ms)

    return _faction_rules(json.loads(path.read_text(encoding="utf-8")))


def covered(f: EffectFile) -> dict[tuple[str, str, str], str]:
    """What the file says of each rule it names: ``modelled`` (a record; a record with several
    detachments covers the rule in each), ``not-attack`` or ``not-modelled``."""
    out: dict[tuple[str, str, str], str] = {}
    for r in f.effects:
        name = r.rule or r.name
        for det in r.detachments or (None,):
            out[(r.kind, key(det), key(name))] = "modelled"
    for c in f.coverage:
        out[(c.kind, key(c.detachment), key(c.rule))] = c.status
    return out


def report(json_path: Path, effects_path: Path) -> tuple[list[str], Counter]:
    """(problems, counts by (kind, status)) of one effect file against its faction file."""
    rules = data_rules(json_path)
    f = load_effect_file(effects_path)
    said = covered(f)
    problems: list[str] = []
    counts: Counter = Counter()
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


# ---------------------------------------------------------------------------------------------
# The coverage files: one line per rule of every faction


class Line(Struct, frozen=True):
    """One line of a coverage file.

    ``faction``: the data's faction name (``Adeptus Astartes``; the export's in edition 10; the
    effect file's for rules only a file names, e.g. ``Core``); ``our_faction``: our datasheets'
    faction where it differs, else empty; ``kind``, ``detachment`` (empty for army rules) and
    ``rule`` (as printed) as in the data; ``rule_id``: the data's id of the rule (game-datacards
    id of a stratagem or enhancement; the export's ability id of a 10th-edition army rule;
    empty where the data has none); ``status``: ``modelled``, ``not-attack``, ``not-modelled``
    or ``missing`` (no record and no coverage line: a faction without an effect file yet, or a
    file that misses the rule); ``records``: the ids of the records that model it, space
    separated; ``reason``: why it is not modelled, or for a modelled rule what its records
    leave out (their ``not_modelled``); ``file``: the effect file that says it (or should),
    relative to the effects folder (``edition-11/orks.yaml``)."""

    faction: str
    our_faction: str
    kind: str
    detachment: str
    rule: str
    rule_id: str
    status: str
    records: str
    reason: str
    file: str

    @property
    def order(self) -> tuple:
        """Sort key: faction, kind (army first), detachment, rule."""
        kind = ALL_KINDS.index(self.kind) if self.kind in ALL_KINDS else len(ALL_KINDS)
        return (
            key(self.faction),
            self.faction,
            kind,
            key(self.detachment),
            key(self.rule),
            self.rule,
            self.rule_id,
            self.file,
        )

    @property
    def attack(self) -> bool:
        """It changes an attack: modelled or not modelled."""
        return self.status in ("modelled", "not-modelled")


COLUMNS: tuple[str, ...] = Line.__struct_fields__


class Coverage(Struct, frozen=True):
    """The lines of one edition, what is wrong (``problems``: the command exits 1) and what
    is only noted (``notes``: a faction without an effect file yet)."""

    edition: int
    lines: tuple[Line, ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...]


def _not_modelled_parts(records: list) -> str:
    parts = dict.fromkeys(r.not_modelled for r in records if r.not_modelled)
    return " | ".join(parts)


def match_file(
    faction: str,
    our: str,
    rules: list[DataRule],
    f: EffectFile | None,
    where: str,
    listed_kinds: frozenset[str] = frozenset(),
) -> tuple[list[Line], list[str]]:
    """The lines of one faction's ``rules`` as ``f`` covers them, and the problems.

    ``f`` None: every rule is ``missing`` (no problem: the file is not written yet).
    Entries of ``f`` that name no rule of ``rules`` are problems, except those of
    ``listed_kinds``, which become lines of their own (rules that only the file knows: the
    seed pages' stratagems in edition 10, unit rules). ``where`` is the file's name relative
    to the effects folder (``edition-11/orks.yaml``): the lines' ``file`` and the messages'
    first word.
    """
    first: dict[tuple[str, str, str], DataRule] = {}
    for r in rules:
        first.setdefault(r.match, r)  # the same rule printed twice is one line
    unique = list(first.values())
    if f is None:
        reason = "no effect file for this faction yet"
        missing = [
            Line(
                faction, our, r.kind, r.detachment or "", r.name, r.id, "missing", "", reason, where
            )
            for r in unique
        ]
        return missing, []
    recs: dict[tuple[str, str, str], list] = {}
    names: dict[tuple[str, str, str], tuple[str, str]] = {}
    for rec in f.effects:
        for det in rec.detachments or (None,):
            m: tuple[str, str, str] = (rec.kind, key(det), key(rec.rule or rec.name))
            recs.setdefault(m, []).append(rec)
            names.setdefault(m, (det or "", rec.rule or rec.name))
    covs: dict[tuple[str, str, str], list] = {}
    for c in f.coverage:
        m = (c.kind, key(c.detachment), key(c.rule))
        covs.setdefault(m, []).append(c)
        names.setdefault(m, (c.detachment or "", c.rule))
    lines, problems = [], []

    def line(kind: str, det: str, name: str, rule_id: str, m: tuple[str, str, str]) -> Line:
        label = f"{kind} {name!r}" + (f" ({det})" if det else "")
        found, listed = recs.get(m, []), covs.get(m, [])
        if found and listed:
            problems.append(f"{where}: {label} is both modelled and in coverage")
        if len(listed) > 1:
            problems.append(f"{where}: {label} is listed {len(listed)} times in coverage")
        if found:
            ids = " ".join(r.id for r in found)
            reason = _not_modelled_parts(found)
            return Line(faction, our, kind, det, name, rule_id, "modelled", ids, reason, where)
        if listed:
            c = listed[0]
            reason = c.reason or ""
            return Line(faction, our, kind, det, name, rule_id, c.status, "", reason, where)
        problems.append(f"{where}: not covered: {label}")
        reason = "not in the effect file"
        return Line(faction, our, kind, det, name, rule_id, "missing", "", reason, where)

    wanted = set(first)
    for r in unique:
        lines.append(line(r.kind, r.detachment or "", r.name, r.id, r.match))
    for m in list(recs) + [m for m in covs if m not in recs]:
        if m in wanted:
            continue
        wanted.add(m)
        det, name = names[m]
        if m[0] in listed_kinds:
            lines.append(line(m[0], det, name, "", m))
        else:
            problems.append(
                f"{where}: names no rule of the data: {m[0]} {name!r}"
                + (f" (detachment {det!r})" if det else "")
            )
    return lines, problems


def load_effect_files(folder: Path) -> dict[Path, EffectFile | EffectFileError]:
    """Every ``*.yaml`` of ``folder`` (none if it does not exist), loaded, by path; a file
    that does not load maps to its error."""
    out: dict[Path, EffectFile | EffectFileError] = {}
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            out[path] = load_effect_file(path)
        except EffectFileError as e:
            out[path] = e
    return out


def _shown(path: Path) -> str:
    """``path`` relative to the working folder when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _file_for(
    files: dict[Path, EffectFile | EffectFileError],
    path: Path,
    faction: str,
    edition: int,
    problems: list[str],
) -> EffectFile | None:
    f = files.get(path)
    if isinstance(f, EffectFileError):
        problems.append(str(f))
        return None
    if f is not None:
        if f.faction != faction:
            problems.append(f"{_name(path)}: faction {f.faction!r}, the data's is {faction!r}")
        if f.edition != edition:
            problems.append(f"{_name(path)}: edition {f.edition}, expected {edition}")
    return f


def _name(path: Path) -> str:
    """An effect file's name relative to the effects folder: ``edition-11/orks.yaml``."""
    return f"{path.parent.name}/{path.name}"


def _other_files(
    files: dict[Path, EffectFile | EffectFileError],
    seen: set[Path],
    edition: int,
    listed: frozenset[str],
    our,
) -> tuple[list[Line], list[str]]:
    """The lines of the effect files that no faction of the data has (core stratagems, unit
    rules): their entries of ``listed`` kinds, each a line of the file's own faction; any
    other entry names no rule of the data."""
    lines, problems = [], []
    for path, f in files.items():
        if path in seen:
            continue
        if isinstance(f, EffectFileError):
            problems.append(str(f))
            continue
        if f.edition != edition:
            problems.append(f"{_name(path)}: edition {f.edition}, expected {edition}")
        got, bad = match_file(f.faction, our(f.faction), [], f, _name(path), listed)
        lines += got
        problems += bad
    return lines, problems


def our_faction(name: str) -> str:
    """Our faction name for a data faction name, or '' when it is the same (the catalog's
    table, :mod:`wh40k_calc.factions`): ``Adeptus Astartes`` -> ``Space Marines``,
    ``Heretic Astartes`` -> ``Chaos Space Marines``, ``Asuryani`` -> ``Aeldari``; a Space
    Marine chapter keeps its name (our edition-11 datasheets file it under it)."""
    from .factions import our_name

    ours = our_name(name)
    return "" if ours == name else ours


def coverage_11(gdc: Path, effects: Path = EFFECTS, files: dict | None = None) -> Coverage:
    """Edition 11: every rule of every game-datacards faction file in ``gdc`` (the files with
    a faction's rules; ``faqs.json`` and the like are skipped) against
    ``effects/edition-11/<file stem>.yaml``.

    ``files``: the effect files already loaded (:func:`load_effect_files`), by path.

    Raises:
        OSError, ValueError: ``gdc`` is not a folder of readable JSON files.
    """
    folder = effects / "edition-11"
    files = load_effect_files(folder) if files is None else files
    problems: list[str]
    lines, problems, notes, seen = [], [], [], set()
    import json

    paths = sorted(gdc.glob("*.json"))
    if not paths:
        raise ValueError(f"{gdc}: no game-datacards faction files (*.json) here")
    for path in paths:
        d = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(d, dict) or "name" not in d or "stratagems" not in d:
            continue
        name = str(d["name"])
        target = folder / f"{path.stem}.yaml"
        seen.add(target)
        f = _file_for(files, target, name, 11, problems)
        if target not in files:
            notes.append(f"{_name(target)}: no effect file for {name} ({path.name}) yet")
        our = our_faction(name)
        got, bad = match_file(name, our, _faction_rules(d), f, _name(target), UNIT_KINDS)
        lines += got
        problems += bad
    got, bad = _other_files(files, seen, 11, UNIT_KINDS, our_faction)
    lines += got
    problems += bad
    return Coverage(11, tuple(sorted(lines, key=lambda x: x.order)), tuple(problems), tuple(notes))


class ExportRule(Struct, frozen=True):
    """A 10th-edition army rule: a faction ability of the export (``Abilities.csv``) that
    ``datasheets`` datasheets of the faction have (``Datasheets_abilities.csv``, type
    ``Faction``)."""

    name: str
    id: str
    datasheets: int


def export_army_rules(csv_dir: Path) -> dict[str, list[ExportRule]]:
    """Each faction of the export's ``Factions.csv`` (by name) with its army rules, the most
    used first (ties by name).

    Raises:
        ImportFailure: not an export folder, or a file is unreadable.
    """
    from .importers.export import Export, read_table

    export = Export(csv_dir)
    names = {a["id"]: a["name"] for a in read_table(export.dir, "Abilities.csv")}
    counts: dict[str, Counter] = {}
    for row in read_table(export.dir, "Datasheets_abilities.csv"):
        sheet = export.by_id.get(row.get("datasheet_id", ""))
        if row.get("type") == "Faction" and row.get("ability_id") in names and sheet:
            counts.setdefault(sheet["faction_id"], Counter())[row["ability_id"]] += 1
    out = {}
    for fid, fname in export.factions.items():
        used = counts.get(fid, Counter())
        rules = [ExportRule(names[a], a, n) for a, n in used.items()]
        out[fname] = sorted(rules, key=lambda r: (-r.datasheets, key(r.name)))
    return out


def coverage_10(csv_dir: Path, effects: Path = EFFECTS, files: dict | None = None) -> Coverage:
    """Edition 10: every faction's army rules in the export at ``csv_dir`` against
    ``effects/edition-10/<faction slug>.yaml`` (``space-marines.yaml``), plus every other rule
    those files name (the seed pages' detachment rules, stratagems and unit rules) and every
    rule of the files of no export faction (``core.yaml``: the core stratagems).

    Raises:
        ImportFailure: not an export folder.
    """
    from .importers.export import slug as file_slug

    folder = effects / "edition-10"
    files = load_effect_files(folder) if files is None else files
    problems: list[str]
    lines, problems, notes, seen = [], [], [], set()
    listed = frozenset(ALL_KINDS) - {"army"}  # the export lists army rules only
    for faction, rules in export_army_rules(csv_dir).items():
        target = folder / f"{file_slug(faction)}.yaml"
        seen.add(target)
        f = _file_for(files, target, faction, 10, problems)
        if target not in files:
            notes.append(f"{_name(target)}: no effect file for {faction} yet")
        data = [DataRule("army", None, r.name, r.id) for r in rules]
        got, bad = match_file(faction, "", data, f, _name(target), listed)
        lines += got
        problems += bad
    got, bad = _other_files(files, seen, 10, frozenset(ALL_KINDS), lambda n: "")
    lines += got
    problems += bad
    return Coverage(10, tuple(sorted(lines, key=lambda x: x.order)), tuple(problems), tuple(notes))


def csv_text(lines: tuple[Line, ...] | list[Line]) -> str:
    """The coverage file's text: a header of :data:`COLUMNS`, then one row per line."""
    import csv  # only for the coverage table
    import io

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for line in lines:
        w.writerow([getattr(line, c) for c in COLUMNS])
    return out.getvalue()


def read_csv(path: Path) -> list[Line]:
    """The lines of a coverage file, checked.

    Raises:
        ValueError: a header other than :data:`COLUMNS`, a row of another width, an unknown
            kind or status, a modelled line without records or a not-modelled line without a
            reason, lines out of order or twice; the message names the file and the line.
    """
    import csv
    import io

    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    if not rows or tuple(rows[0]) != COLUMNS:
        raise ValueError(f"{path}: line 1: the header must be {','.join(COLUMNS)}")
    lines: list[Line] = []
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != len(COLUMNS):
            raise ValueError(f"{path}: line {n}: {len(row)} fields, expected {len(COLUMNS)}")
        line = Line(*row)
        problem = _line_problem(line)
        if problem:
            raise ValueError(f"{path}: line {n}: {problem}")
        if lines and line.order <= lines[-1].order:
            raise ValueError(f"{path}: line {n}: out of order or repeated ({line.rule!r})")
        lines.append(line)
    return lines


def _line_problem(line: Line) -> str:
    if line.kind not in ALL_KINDS:
        return f"kind {line.kind!r} is none of {', '.join(ALL_KINDS)}"
    if line.status not in STATUSES:
        return f"status {line.status!r} is none of {', '.join(STATUSES)}"
    if not line.faction or not line.rule:
        return "faction and rule are required"
    if line.kind == "army" and line.detachment:
        return "an army rule has no detachment"
    if line.kind == "detachment" and not line.detachment:
        return "a detachment rule needs its detachment"
    if (line.status == "modelled") != bool(line.records):
        return "records are given for modelled rules, and only for them"
    if line.records and any(slug(r) != r for r in line.records.split(" ")):
        return f"records {line.records!r}: each is an effect id (lower case with hyphens)"
    if line.status in ("not-modelled", "missing") and not line.reason:
        return f"a {line.status} rule needs its reason"
    if not re.fullmatch(r"edition-1[01]/[^/]+\.yaml", line.file):
        return f"file {line.file!r} is not an effect file's name (edition-11/orks.yaml)"
    return ""


# ---------------------------------------------------------------------------------------------
# Command line


def _legacy(args: list[str]) -> int:
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


def _parser():
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m wh40k_calc.effect_coverage",
        description="Write the coverage files of the effect records (effects/coverage-11.csv, "
        "effects/coverage-10.csv) and the README's coverage tables. "
        "Or, with FACTION.json EFFECTS.yaml, check one effect file.",
    )
    p.add_argument("--gdc", type=Path, help="the game-datacards folder of edition 11 (data 912)")
    p.add_argument("--csv", type=Path, help="the folder of the 10th-edition CSV export")
    p.add_argument("--effects", type=Path, default=EFFECTS, help="the effects folder")
    p.add_argument("--readme", type=Path, help="a README with the marked coverage blocks")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if any changes")
    return p


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    import sys

    from .effect_coverage_summary import ReadmeError, update_readme

    args = list(argv if argv is not None else sys.argv[1:])
    if len(args) == 2 and not any(a.startswith("-") for a in args):
        return _legacy(args)
    if args and not args[0].startswith("-"):
        print("usage: python -m wh40k_calc.effect_coverage FACTION.json EFFECTS.yaml")
        return 2
    opts = _parser().parse_args(args)
    if not (opts.gdc or opts.csv):
        print("effect_coverage: give --gdc DIR (edition 11) and/or --csv DIR (edition 10)")
        return 2
    from .importers.export import ImportFailure

    results = []
    try:
        if opts.gdc:
            results.append(coverage_11(opts.gdc, opts.effects))
        if opts.csv:
            results.append(coverage_10(opts.csv, opts.effects))
    except (OSError, ValueError, ImportFailure) as e:
        print(f"effect_coverage: {e}")
        return 2
    changed, bad = [], False
    for cov in results:
        for p in cov.problems:
            print(p)
            bad = True
        for n in cov.notes:
            print(f"note: {n}")
        text = csv_text(cov.lines)
        path = opts.effects / CSV_NAME[cov.edition]
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old != text:
            changed.append(path)
            if not opts.check:
                path.write_text(text, encoding="utf-8")
        status = Counter(x.status for x in cov.lines)
        counts = ", ".join(f"{s} {status[s]}" for s in STATUSES if status[s])
        print(f"edition {cov.edition}: {len(cov.lines)} rules: {counts}")
    if opts.readme:
        try:
            new = update_readme(opts.readme.read_text(encoding="utf-8"), results)
        except (OSError, ReadmeError) as e:
            print(f"effect_coverage: {e}")
            return 2
        if new != opts.readme.read_text(encoding="utf-8"):
            changed.append(opts.readme)
            if not opts.check:
                opts.readme.write_text(new, encoding="utf-8")
    for path in changed:
        print(f"{'would change' if opts.check else 'wrote'} {_shown(path)}")
    return 1 if bad or (opts.check and changed) else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The coverage files (effects/coverage-11.csv, effects/coverage-10.csv) and the README's
coverage tables, held in step with the data and the effect files (issue 18, items 2 and 3).

Three kinds of check:

* with the data in ../shared/data (skipped, with the reason, without it): regenerating both
  files from the data gives the committed text, and no effect file misses a rule;
* without the data: every effect file loads and is filed under its edition; every line of the
  committed files is well formed; the lines agree with the effect files (a line's rule list is
  read back from the CSV itself, the effect files matched against it, and the result must be
  the committed lines); the README's tables are the ones computed from the committed lines;
* the machinery on small hand-made inputs, each expectation worked out by hand.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from wh40k_calc.effect_coverage import (
    ALL_KINDS,
    COLUMNS,
    CSV_NAME,
    EFFECTS,
    KINDS,
    Coverage,
    DataRule,
    Line,
    coverage_10,
    coverage_11,
    csv_text,
    export_army_rules,
    load_effect_files,
    main,
    match_file,
    our_faction,
    read_csv,
)
from wh40k_calc.effect_coverage_summary import (
    Count,
    ReadmeError,
    counts,
    replace_block,
    table_10,
    table_11,
    update_readme,
)
from wh40k_calc.effect_schema import EffectFile, EffectFileError, load_effect_file

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
GDC = DATA / "game-datacards-11e-912"
EXPORT = DATA / "wahapedia-10e-2025-07"
README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture(scope="module")
def files() -> dict[int, dict[Path, EffectFile | EffectFileError]]:
    """Every effect file of both editions, loaded once."""
    return {e: load_effect_files(EFFECTS / f"edition-{e}") for e in (11, 10)}


@pytest.fixture(scope="module")
def committed() -> dict[int, list[Line]]:
    return {e: read_csv(EFFECTS / CSV_NAME[e]) for e in (11, 10)}


# ---------------------------------------------------------------------------------------------
# Against the data


def test_regenerating_from_the_data_gives_the_committed_files(files) -> None:
    if not GDC.is_dir() or not (EXPORT / "Abilities.csv").is_file():
        pytest.skip(f"the data is not here ({DATA}): cannot regenerate the coverage files")
    for cov in (coverage_11(GDC, files=files[11]), coverage_10(EXPORT, files=files[10])):
        assert cov.problems == (), "\n".join(cov.problems)
        committed = (EFFECTS / CSV_NAME[cov.edition]).read_text(encoding="utf-8")
        assert csv_text(cov.lines) == committed, (
            f"effects/{CSV_NAME[cov.edition]} is out of date: run `make effects-coverage`"
        )
    # every edition-11 faction file has its effect file: nothing is missing
    assert not [x for x in coverage_11(GDC, files=files[11]).lines if x.status == "missing"]


def test_the_export_marks_army_rules_as_faction_abilities() -> None:
    if not (EXPORT / "Abilities.csv").is_file():
        pytest.skip(f"the 10th-edition export is not here ({EXPORT})")
    rules = export_army_rules(EXPORT)
    assert len(rules) == 25  # Factions.csv
    # Oath of Moment: every Space Marines datasheet but the four without it (Tarantula Air
    # Defence Battery, Astartes Servitors, Example Wargear, Kill Team Cassius) of 266
    oath = rules["Space Marines"][0]
    assert (oath.name, oath.id, oath.datasheets) == ("Oath of Moment", "000008350", 262)
    assert [r.name for r in rules["Orks"]] == ["Waaagh!"]
    assert [r.name for r in rules["World Eaters"]] == ["Blessings of Khorne", "Pact of Blood"]


# ---------------------------------------------------------------------------------------------
# Without the data


def test_every_effect_file_loads_and_is_filed_under_its_edition(files) -> None:
    for edition, loaded in files.items():
        assert loaded, f"no effect file in effects/edition-{edition}"
        for path, f in loaded.items():
            assert not isinstance(f, EffectFileError), str(f)
            assert f.edition == edition, path
    sources = {f.data.source for f in files[10].values()}
    assert "wahapedia-10e-2025-07" in sources


def test_ten_edition_files_are_named_by_our_faction_slug(files) -> None:
    from wh40k_calc.importers.export import slug

    for path, f in files[10].items():
        if f.faction != "Core":
            assert path.stem == slug(f.faction), path


def test_every_committed_line_is_well_formed(committed) -> None:
    # read_csv refuses a bad header, width, kind or status, records on a line that is not
    # modelled, a not-modelled line without its reason, and lines out of order or twice
    assert all(committed.values())
    # edition 10: the export gives army rules only (with their ability id); the rest come from
    # the effect files alone (no id)
    assert all(x.kind == "army" for x in committed[10] if x.rule_id)
    assert all(x.rule_id for x in committed[10] if x.kind == "army" and x.faction != "Core")


def _recomputed(lines: list[Line], files: dict, edition: int) -> list[Line]:
    """The lines again, without the data: each effect file matched against the rules its
    lines name, read back from ``lines`` (edition 11: the rules of the faction files' four
    kinds; edition 10: the export's army rules, those with an id), the rest of its entries
    listed as the coverage command lists them."""
    by_file: dict[str, list[Line]] = {}
    for x in lines:
        by_file.setdefault(x.file, []).append(x)
    named = {f"edition-{edition}/{p.name}": f for p, f in files.items()}
    out = []
    for name, mine in by_file.items():
        if edition == 11:
            rules = [x for x in mine if x.kind in KINDS]
            listed = frozenset({"unit", "core"})
        else:
            rules = [x for x in mine if x.rule_id]
            listed = frozenset(ALL_KINDS) - {"army"} if rules else frozenset(ALL_KINDS)
        data = [DataRule(x.kind, x.detachment or None, x.rule, x.rule_id) for x in rules]
        f = named.get(name)  # None: the faction has no effect file (its lines are missing)
        got, problems = match_file(mine[0].faction, mine[0].our_faction, data, f, name, listed)
        assert problems == [], problems
        out += got
    silent = [n for n, f in named.items() if n not in by_file and (f.effects or f.coverage)]
    assert silent == [], f"effect files with no line: {silent}"
    return sorted(out, key=lambda x: x.order)


@pytest.mark.parametrize("edition", [11, 10])
def test_the_committed_lines_are_what_the_effect_files_say(files, committed, edition) -> None:
    assert _recomputed(committed[edition], files[edition], edition) == committed[edition], (
        f"the effect files changed: run `make effects-coverage` to rewrite {CSV_NAME[edition]}"
    )


def test_the_readme_tables_are_computed_from_the_committed_lines(committed) -> None:
    text = README.read_text(encoding="utf-8")
    results = [Coverage(e, tuple(committed[e]), (), ()) for e in (11, 10)]
    assert update_readme(text, results) == text, "run `make effects-coverage`"


def test_ten_edition_army_rules_are_all_covered_but_the_two_factions_of_another_engineer(
    committed,
) -> None:
    missing = {x.faction for x in committed[10] if x.status == "missing"}
    assert missing <= {"Orks", "World Eaters"}
    covered = {x.faction for x in committed[10] if x.status != "missing"}
    assert len(covered) >= 23


# ---------------------------------------------------------------------------------------------
# The machinery, on hand-made inputs

HEAD = "schema: 1\nedition: 11\nfaction: Orks\ndata: {source: game-datacards, version: 912}\n"
ORKS = (
    HEAD
    + """effects:
  - id: waaagh
    name: Waaagh!
    kind: army
    summary: s
    side: attacker
    changes: [{strength: 1}]
    not_modelled: the charge part
  - id: one-stance
    name: One Stance
    rule: Two Ways
    kind: detachment
    detachments: [War Horde, Green Tide]
    summary: s
    side: attacker
    changes: [{hit_mod: 1}]
  - id: other-stance
    name: Other Stance
    rule: Two Ways
    kind: detachment
    detachments: [War Horde]
    summary: s
    side: attacker
    changes: [{wound_mod: 1}]
coverage:
  - {rule: Krump and Run, kind: stratagem, detachment: War Horde, status: not-attack}
  - {rule: Big Gob, kind: stratagem, detachment: War Horde, status: not-modelled, reason: why}
"""
)
RULES = [
    DataRule("army", None, "Waaagh!"),
    DataRule("detachment", "War Horde", "Two Ways"),
    DataRule("detachment", "Green Tide", "Two ways"),  # case aside, the same name
    DataRule("stratagem", "War Horde", "Krump and Run", "id-1"),
    DataRule("stratagem", "War Horde", "Big Gob", "id-2"),
]


def _orks(tmp_path: Path, text: str = ORKS) -> EffectFile:
    p = tmp_path / "orks.yaml"
    p.write_text(text, encoding="utf-8")
    return load_effect_file(p)


def test_a_file_covering_every_rule_gives_one_line_each(tmp_path) -> None:
    lines, problems = match_file("Orks", "", RULES, _orks(tmp_path), "orks.yaml")
    assert problems == []
    got = [(x.kind, x.detachment, x.rule, x.rule_id, x.status, x.records, x.reason) for x in lines]
    assert got == [
        ("army", "", "Waaagh!", "", "modelled", "waaagh", "the charge part"),
        ("detachment", "War Horde", "Two Ways", "", "modelled", "one-stance other-stance", ""),
        ("detachment", "Green Tide", "Two ways", "", "modelled", "one-stance", ""),
        ("stratagem", "War Horde", "Krump and Run", "id-1", "not-attack", "", ""),
        ("stratagem", "War Horde", "Big Gob", "id-2", "not-modelled", "", "why"),
    ]


def test_a_rule_the_file_misses_and_an_entry_naming_no_rule_are_problems(tmp_path) -> None:
    rules = [*RULES[:4], DataRule("stratagem", "War Horde", "Unheard Of", "id-3")]
    lines, problems = match_file("Orks", "", rules, _orks(tmp_path), "orks.yaml")
    assert problems == [
        "orks.yaml: not covered: stratagem 'Unheard Of' (War Horde)",
        "orks.yaml: names no rule of the data: stratagem 'Big Gob' (detachment 'War Horde')",
    ]
    assert lines[-1].status == "missing" and lines[-1].rule == "Unheard Of"


def test_entries_of_the_listed_kinds_become_lines_of_their_own(tmp_path) -> None:
    lines, problems = match_file(
        "Orks", "", RULES[:3], _orks(tmp_path), "orks.yaml", frozenset({"stratagem"})
    )
    assert problems == []
    assert [(x.rule, x.rule_id, x.status) for x in lines[3:]] == [
        ("Krump and Run", "", "not-attack"),
        ("Big Gob", "", "not-modelled"),
    ]


def test_a_rule_both_modelled_and_listed_is_a_problem(tmp_path) -> None:
    text = ORKS + "  - {rule: Waaagh!, kind: army, status: not-attack}\n"
    _, problems = match_file("Orks", "", RULES, _orks(tmp_path, text), "orks.yaml")
    assert problems == ["orks.yaml: army 'Waaagh!' is both modelled and in coverage"]


def test_a_faction_without_an_effect_file_is_missing_without_a_problem() -> None:
    # a rule printed twice (case aside) is one line: five distinct rules
    lines, problems = match_file("Orks", "", [*RULES, DataRule("army", None, "WAAAGH!")], None, "o")
    assert problems == []
    assert [x.rule for x in lines] == [
        "Waaagh!",
        "Two Ways",
        "Two ways",
        "Krump and Run",
        "Big Gob",
    ]
    assert {x.status for x in lines} == {"missing"}


def test_coverage_of_a_small_game_datacards_folder(tmp_path) -> None:
    gdc = tmp_path / "gdc"
    gdc.mkdir()
    (gdc / "orks.json").write_text(
        '{"name": "Orks", "rules": {"army": [{"name": {"en": "Waaagh!"}}], "detachment": []},'
        ' "stratagems": [{"id": "s1", "name": {"en": "Krump and Run"},'
        ' "detachment": "War Horde"}], "enhancements": []}',
        encoding="utf-8",
    )
    (gdc / "faqs.json").write_text('{"faqs": []}', encoding="utf-8")  # not a faction file
    (gdc / "votann.json").write_text(
        '{"name": "Leagues of Votann", "rules": {}, "stratagems": [], "enhancements": []}',
        encoding="utf-8",
    )
    effects = tmp_path / "effects"
    (effects / "edition-11").mkdir(parents=True)
    (effects / "edition-11" / "orks.yaml").write_text(
        HEAD + "effects:\n  - {id: waaagh, name: Waaagh!, kind: army, summary: s, side: attacker,"
        " changes: [{strength: 1}]}\ncoverage:\n  - {rule: Krump and Run, kind: stratagem,"
        " detachment: War Horde, status: not-attack}\n",
        encoding="utf-8",
    )
    cov = coverage_11(gdc, effects)
    assert cov.problems == ()
    # a faction file without an effect file is noted, not a problem (it has no rule here)
    assert cov.notes == (
        "edition-11/votann.yaml: no effect file for Leagues of Votann (votann.json) yet",
    )
    assert [(x.faction, x.rule, x.rule_id, x.status) for x in cov.lines] == [
        ("Orks", "Waaagh!", "", "modelled"),
        ("Orks", "Krump and Run", "s1", "not-attack"),
    ]
    out = tmp_path / "coverage-11.csv"
    out.write_text(csv_text(cov.lines), encoding="utf-8")
    assert read_csv(out) == list(cov.lines)
    assert out.read_text(encoding="utf-8").splitlines()[0] == ",".join(COLUMNS)


def _export(tmp_path: Path) -> Path:
    """A four-file export: two factions; FA1 used by two Orks datasheets and one Marine
    (a borrowed rule), FA2 by one Marine, a Core ability by everyone."""
    d = tmp_path / "export"
    d.mkdir()

    def table(name: str, header: str, *rows: str) -> None:
        text = "\ufeff" + header + "|\n" + "".join(r + "|\n" for r in rows)
        (d / name).write_text(text, encoding="utf-8")

    table("Factions.csv", "id|name|link", "ORK|Orks|x", "SM|Space Marines|y")
    table(
        "Abilities.csv",
        "id|name|legend|faction_id|description",
        "1|Waaagh!||ORK|text",
        "2|Oath of Moment||SM|text",
        "3|Leader||| text",
    )
    table("Datasheets.csv", "id|name|faction_id", "a|Boyz|ORK", "b|Nobz|ORK", "c|Captain|SM")
    table(
        "Datasheets_abilities.csv",
        "datasheet_id|line|ability_id|model|name|description|type|parameter",
        "a|1|1||||Faction|",
        "b|1|1||||Faction|",
        "c|1|2||||Faction|",
        "c|2|1||||Faction|",
        "a|2|3||||Core|",
        "c|3|3||||Core|",
    )
    return d


def test_export_army_rules_are_the_faction_abilities_of_each_factions_datasheets(tmp_path):
    rules = export_army_rules(_export(tmp_path))
    assert [(r.name, r.id, r.datasheets) for r in rules["Orks"]] == [("Waaagh!", "1", 2)]
    assert [(r.name, r.datasheets) for r in rules["Space Marines"]] == [
        ("Oath of Moment", 1),
        ("Waaagh!", 1),  # ties by name
    ]


def test_coverage_10_lists_army_rules_and_the_files_other_rules(tmp_path):
    effects = tmp_path / "effects"
    (effects / "edition-10").mkdir(parents=True)
    head10 = "schema: 1\nedition: 10\nfaction: {}\ndata: {{source: seeds}}\n"
    (effects / "edition-10" / "orks.yaml").write_text(
        head10.format("Orks")
        + "effects:\n  - {id: waaagh, name: Waaagh!, kind: army, summary: s, side: both,"
        " changes: [{strength: 1}]}\n  - {id: get-stuck-in, name: Get Stuck In, kind:"
        " detachment, detachments: [War Horde], summary: s, side: attacker, changes:"
        " [{hit_mod: 1}]}\n",
        encoding="utf-8",
    )
    (effects / "edition-10" / "core.yaml").write_text(
        head10.format("Core")
        + "coverage:\n  - {rule: Insane Bravery, kind: core, status: not-attack}\n",
        encoding="utf-8",
    )
    cov = coverage_10(_export(tmp_path), effects)
    assert cov.problems == ()
    assert cov.notes == ("edition-10/space-marines.yaml: no effect file for Space Marines yet",)
    got = [(x.faction, x.kind, x.rule, x.rule_id, x.status, x.records) for x in cov.lines]
    assert got == [
        ("Core", "core", "Insane Bravery", "", "not-attack", ""),
        ("Orks", "army", "Waaagh!", "1", "modelled", "waaagh"),
        ("Orks", "detachment", "Get Stuck In", "", "modelled", "get-stuck-in"),
        ("Space Marines", "army", "Oath of Moment", "2", "missing", ""),
        ("Space Marines", "army", "Waaagh!", "1", "missing", ""),
    ]
    assert [x.file for x in cov.lines] == [
        "edition-10/core.yaml",
        *["edition-10/orks.yaml"] * 2,
        *["edition-10/space-marines.yaml"] * 2,
    ]


@pytest.mark.parametrize(
    "row, message",
    [
        ("Orks,,army,,Waaagh!,,done,,,e/o.yaml", "status 'done' is none of"),
        ("Orks,,army,,Waaagh!,,modelled,,,e/o.yaml", "records are given for modelled rules"),
        ("Orks,,army,,Waaagh!,,not-attack,waaagh,,e/o", "records are given for modelled rules"),
        ("Orks,,army,,Waaagh!,,not-modelled,,,e/o.yaml", "a not-modelled rule needs its reason"),
        ("Orks,,army,War Horde,Waaagh!,,not-attack,,,e/o", "an army rule has no detachment"),
        ("Orks,,spell,,Waaagh!,,not-attack,,,e/o.yaml", "kind 'spell' is none of"),
        ("Orks,,army,,Waaagh!,,modelled,Waaagh!,,e/o.yaml", "each is an effect id"),
        ("Orks,,army,,Waaagh!,,not-attack,,,orks.yaml", "not an effect file's name"),
        ("Orks,,army,,Waaagh!,not-attack,,,e/o.yaml", "9 fields, expected 10"),
    ],
)
def test_a_malformed_line_is_refused_naming_the_file_and_line(tmp_path, row, message) -> None:
    p = tmp_path / "c.csv"
    p.write_text(",".join(COLUMNS) + "\n" + row + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as e:
        read_csv(p)
    assert f"{p}: line 2: " in str(e.value) and message in str(e.value)


def test_lines_out_of_order_are_refused(tmp_path) -> None:
    p = tmp_path / "c.csv"
    rows = [
        "Orks,,stratagem,War Horde,B,,not-attack,,,edition-11/orks.yaml",
        "Orks,,army,,A,,not-attack,,,edition-11/orks.yaml",
    ]
    p.write_text(",".join(COLUMNS) + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 3: out of order"):
        read_csv(p)


def test_our_faction_names() -> None:
    assert our_faction("Adeptus Astartes") == "Space Marines"
    assert our_faction("Heretic Astartes") == "Chaos Space Marines"
    assert our_faction("Legiones Daemonica") == "Chaos Daemons"
    assert our_faction("Asuryani") == "Aeldari"
    assert our_faction("Agents of the Imperium") == "Imperial Agents"
    assert our_faction("Space Wolves") == ""  # a chapter: our datasheets use its own name
    assert our_faction("Orks") == ""  # the same name


_NUMBERS = itertools.count()


def _line(faction: str, kind: str, status: str) -> Line:
    """A line of a rule of its own name."""
    records = "x" if status == "modelled" else ""
    det = "" if kind == "army" else "D"
    name = f"rule {next(_NUMBERS)}"
    return Line(faction, "", kind, det, name, "", status, records, "why", "edition-11/o.yaml")


def test_counts_and_goals_worked_by_hand() -> None:
    # Orks: 10 stratagems, 9 modelled and 1 not modelled of 9 + 1 attack rules: 90%, met;
    # 4 enhancements, 2 modelled of 3 attack rules: 66%, below 75%.
    lines = (
        [_line("Orks", "stratagem", "modelled") for _ in range(9)]
        + [_line("Orks", "stratagem", "not-modelled")]
        + [_line("Orks", "enhancement", s) for s in ("modelled",) * 2 + ("not-modelled",)]
        + [_line("Orks", "enhancement", "not-attack")]
    )
    c = counts(lines)["Orks"]
    assert c["stratagem"] == Count(10, 10, 9, 0) and c["stratagem"].share == Fraction(9, 10)
    assert c["enhancement"] == Count(4, 3, 2, 0)
    assert c["stratagem"].cell() == "9/10/10 90%"
    assert c["enhancement"].cell() == "2/3/4 66%"
    table = table_11(lines)
    assert "| Orks | 0/0/0 — | 0/0/0 — | 9/10/10 90% | 2/3/4 66% | enhancements 66% < 75% |" in (
        table
    )
    assert "| stratagems: 90% | 90% (9/10) | yes | 1 of 1 |" in table
    assert "| enhancements: 75% | 66% (2/3) | no | 0 of 1 |" in table


def test_a_share_is_rounded_down_so_nearly_all_is_not_all() -> None:
    c = Count(300, 300, 299, 0)
    assert c.cell() == "299/300/300 99%" and not c.meets(Fraction(1))


def test_table_10_counts_army_rules_apart_from_the_seed_pages_rules() -> None:
    lines = [
        Line("Orks", "", "army", "", "Waaagh!", "1", "modelled", "waaagh", "", "o"),
        Line("Orks", "", "stratagem", "War Horde", "'Ard as Nails", "", "modelled", "ard", "", "o"),
        Line("Orks", "", "unit", "", "Get Da Good Bitz", "", "not-attack", "", "", "o"),
    ]
    assert "| Orks | 1/1/1 100% | 1/1/2 100% |" in table_10(lines)


def test_a_readme_block_is_replaced_between_its_markers_only() -> None:
    text = "a\n<!-- BEGIN b -->\nold\nlines\n<!-- END b -->\nc\n"
    assert replace_block(text, "b", "new") == "a\n<!-- BEGIN b -->\nnew\n<!-- END b -->\nc\n"
    with pytest.raises(ReadmeError, match="exactly one block"):
        replace_block("no markers\n", "b", "new")


def test_the_one_file_check_keeps_its_two_argument_form(tmp_path, capsys) -> None:
    j = tmp_path / "orks.json"
    j.write_text(
        '{"name": "Orks", "rules": {"army": [{"name": {"en": "Waaagh!"}}]}, "stratagems": [],'
        ' "enhancements": []}',
        encoding="utf-8",
    )
    y = tmp_path / "orks.yaml"
    y.write_text(
        HEAD + "effects:\n  - {id: waaagh, name: Waaagh!, kind: army, summary: s, side: attacker,"
        " changes: [{strength: 1}]}\n",
        encoding="utf-8",
    )
    assert main([str(j), str(y)]) == 0
    assert "army: 1 rules: modelled 1" in capsys.readouterr().out


def test_the_command_writes_then_checks(tmp_path, capsys) -> None:
    effects = tmp_path / "effects"
    (effects / "edition-10").mkdir(parents=True)
    export = _export(tmp_path)
    args = ["--csv", str(export), "--effects", str(effects)]
    assert main([*args, "--check"]) == 1  # the file does not exist yet
    assert not (effects / "coverage-10.csv").exists()
    assert main(args) == 0
    assert len(read_csv(effects / "coverage-10.csv")) == 3
    assert main([*args, "--check"]) == 0
    readme = tmp_path / "README.md"
    readme.write_text("no markers\n", encoding="utf-8")
    assert main([*args, "--readme", str(readme)]) == 2
    assert "exactly one block" in capsys.readouterr().out
    assert main(["--csv", str(tmp_path / "nowhere")]) == 2
    assert main([]) == 2

"""``calc compare``'s table at 80 and 120 columns (compare/table.py).

The fresh-user trial found run names broken mid-word ("intercesso / r squad") though the README
says long names wrap between words, a long target heading wrapped into five lines inside the
narrow Run column, and a run named after its weapons ("Plasma rifle x3") spilling into the
left margin. What we check: every line within the width, no trailing spaces on the headings,
every word of a run name and of a target heading whole on one line, target headings on lines
of their own (flush left), run lines indented under them.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.compare.table import text_widths

LONG_TARGET = "Custodian Guard with Adrasite and Pyrithite Spears"
RUNS = ["Plasma rifle x3", "intercessor squad", "a very long run name that goes on and on"]


def compare(args: list[str], width: int) -> list[str]:
    res = CliRunner().invoke(app, ["compare", *args], env={"COLUMNS": str(width)})
    assert res.exit_code == 0, res.output
    return res.stdout.splitlines()


@pytest.fixture
def batch(tmp_path: Path) -> str:
    path = tmp_path / "b.yaml"
    data = {
        "targets": [LONG_TARGET, "boyz"],
        "runs": [
            {"name": RUNS[0], "attacker": {"name": "hellblaster squad", "weapons": ["x3"]}},
            {"name": RUNS[1], "attacker": "intercessor squad"},
            {"name": RUNS[2], "attacker": {"name": "lootas", "models": 10}},
        ],
    }
    data["runs"][0]["attacker"]["weapons"] = ["Plasma incinerator – standard x3"]
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def words_whole(lines: list[str], text: str) -> None:
    """Every word of ``text`` appears whole in some line."""
    tokens = {t for line in lines for t in line.split()}
    for word in text.split():
        assert word in tokens, (word, text)


@pytest.mark.parametrize("width", [80, 120])
def test_batch_table_layout(batch: str, width: int) -> None:
    lines = compare([batch], width)
    assert all(len(line) <= width for line in lines)
    for name in RUNS:
        words_whole(lines, name)
    heading = next(i for i, line in enumerate(lines) if line.startswith("5 Custodian Guard"))
    head = " ".join(lines[heading : heading + 2])
    assert f"5 {LONG_TARGET} ·" in head  # at most two lines, flush left, words whole
    assert not lines[heading].endswith(" ")
    body = lines[heading + 1 : lines.index("", heading)]
    runs = [line for line in body if line.strip().startswith(("Plasma", "intercessor", "a very"))]
    assert len(runs) == 3 and all(line.startswith("  ") and line[2] != " " for line in runs)
    assert lines[0] == "Comparison · shooting · edition 10 · exact"


def test_narrow_terminal_folds_the_attacker_under_the_run(batch: str) -> None:
    """At 80 columns the figures take 53; side by side, the run names and attackers would take
    up to four lines a row, so each attacker goes on a line under its run name."""
    lines = compare([batch], 80)
    assert lines[3].startswith("Run / Attacker ")
    i = lines.index("10 Boyz · 80 pts")
    assert lines[i + 1].startswith("  Plasma rifle x3 ")
    # the line breaks before "(110 pts)", never between the figure and its word
    assert lines[i + 2 : i + 4] == ["  5 Hellblaster Squad", "  (110 pts)"]


@pytest.mark.parametrize("width", [80, 120])
def test_command_line_runs_wrap_between_words(width: int) -> None:
    lines = compare(["intercessor squad", "lootas", "-t", "leman russ battle tank"], width)
    assert all(len(line) <= width for line in lines)
    words_whole(lines, "intercessor squad")
    assert "1 Leman Russ Battle Tank · 185 pts" in lines  # one line of its own


def test_text_widths_give_the_run_names_room_first() -> None:
    # all fit: natural widths
    assert text_widths(29, [12, 17], [8, 8]) == [12, 17]
    # 27 cells: each its longest word (8 + 8), then the run names their natural 12, the rest 7
    assert text_widths(27, [12, 17], [8, 8]) == [12, 15]
    # not even the longest words fit: no widths (the rows are stacked instead)
    assert text_widths(10, [12, 17], [8, 8]) is None


MIXED = {
    "targets": [{"name": "boyz", "models": 10}],
    "runs": [
        {"name": "sniper-default", "attacker": "lootas"},
        {"name": "spray", "attacker": "gretchin"},
        {"name": "seq", "sequence": ["shoot gretchin", "shoot lootas"]},
    ],
}


@pytest.mark.parametrize("edition_mixed", [False, True])
def test_single_runs_and_sequences_at_80_columns(tmp_path: Path, edition_mixed: bool) -> None:
    """Fresh-user trial: single runs mixed with a sequence plan (Phase and Attacker columns,
    and Edition when the batch mixes editions) cut the figures to "0.…" and the headings to
    "Dama…", and split words ("shootin / g"). The figures must be whole, the words too."""
    data = yaml.safe_load(yaml.safe_dump(MIXED))
    if edition_mixed:
        data["runs"][1]["edition"] = 11
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    lines = compare([str(path)], 80)
    assert all(len(line) <= 80 for line in lines)
    assert not any("…" in line for line in lines)
    head = next(line for line in lines if "Damage" in line)
    assert all(label in head.split() for label in ["Damage", "Models", "Wipe", "Pts/100"])
    for word in ["sniper-default", "sequence", "shooting", "Gretchin,", "Lootas", "spray"]:
        words_whole(lines, word)
    res = CliRunner().invoke(app, ["compare", str(path), "--json"])
    for obj in json.loads(res.stdout):
        row = next(line for line in lines if line.strip().split()[:1] == [obj["run"]])
        assert f"{obj['expected']['damage']:.2f}" in row.split(), row
        assert f"{obj['expected']['models_destroyed']:.3f}" in row.split(), row


def test_narrowest_text_keeps_the_words_whole() -> None:
    # the longest words just fit: each column its longest word
    assert text_widths(21, [14, 17], [12, 9]) == [12, 9]
    # they do not: no widths, rather than words folded (the rows are stacked instead)
    assert text_widths(18, [14, 17], [12, 9]) is None


SHEET = """\
name: {name}
faction: Testers
keywords: [INFANTRY]
models:
  - {{name: {name}, M: 6, T: 4, Sv: 7, W: 1, Ld: 7, OC: 1, equipped: [gun]}}
sizes:
  - {{models: {{{name}: {models}}}, points: 10}}
weapons:
  - {{name: Gun, range: 24, A: {attacks}, skill: {skill}, S: {strength}, AP: 0, D: 1}}
source: "synthetic test datasheet"
"""


def test_no_probability_rounded_to_a_certainty(tmp_path: Path) -> None:
    """Fresh-user trial: P(wipe) 0.99985 printed as 100.0% (and its expected models as the
    whole unit). Volley: 27 attacks, BS 4+ (hit 1/2), S4 against T4 ("S = T: 4+", 1/2), no
    save, D1, at one W1 model: P(wipe) = 1 - (3/4)^27 = 0.99958 (expected models the same).
    Plinker: 3 attacks, BS 6+ ("an unmodified Hit roll of 6 always succeeds": 1/6), S1
    against T4 ("S half or less of T: 6+", 1/6), at three W1 models: P(wipe) = (1/36)^3 =
    0.0021%. Neither is certain or impossible, so neither prints 100.0% or 0.0%."""
    for name, models, attacks, skill, strength in [
        ("Volley", 1, 27, 4, 4),
        ("Plinker", 1, 3, 6, 1),
        ("Lone", 1, 1, 6, 1),
        ("Trio", 3, 1, 6, 1),
    ]:
        (tmp_path / f"{name.lower()}.yaml").write_text(
            SHEET.format(
                name=name,
                models=models,
                attacks=attacks,
                skill=skill,
                strength=strength,
                gun="gun",
            ),
            encoding="utf-8",
        )
    env = {"COLUMNS": "100"}
    res = CliRunner().invoke(
        app, ["compare", "volley", "-t", "lone", "--datasheets", str(tmp_path)], env=env
    )
    table = res.stdout.splitlines()
    wipe = 1 - 0.75**27
    assert f"{100 * wipe:.1f}" == "100.0"  # plain rounding would claim a certain wipe
    res = CliRunner().invoke(
        app, ["compare", "volley", "-t", "lone", "--datasheets", str(tmp_path), "--json"]
    )
    assert json.loads(res.stdout)[0]["kill_table"][-1]["at_least"] == pytest.approx(wipe)
    row = next(line for line in table if line.startswith("  volley"))
    assert row.split()[2:4] == [">0.999", ">99.9%"], row
    res = CliRunner().invoke(
        app, ["compare", "plinker", "-t", "trio", "--datasheets", str(tmp_path)], env=env
    )
    row = next(line for line in res.stdout.splitlines() if line.startswith("  plinker"))
    assert row.split()[2:4] == [f"{3 / 36:.3f}", "<0.1%"], row


def test_probability_and_models_text() -> None:
    from wh40k_calc.compare.table import probability_text
    from wh40k_calc.wording import of_whole as models_text

    assert probability_text(0.99985) == ">99.9%"
    assert probability_text(0.0004) == "<0.1%"
    assert probability_text(1.0) == "100.0%" and probability_text(0.0) == "0.0%"
    assert probability_text(0.5) == "50.0%" and probability_text(0.9994) == "99.9%"
    assert models_text(4.99984, 5) == ">4.999" and models_text(5.0, 5) == "5.000"
    assert models_text(4.99984, 10) == "5.000"  # not the whole unit: plain rounding


def test_targets_told_apart_only_by_allocation_get_distinct_headings(tmp_path: Path) -> None:
    """Two targets that are the same unit and size but with different allocation orders are
    two sections; each heading says its order (both read "10 Boyz · 80 pts" before)."""
    path = tmp_path / "alloc.yaml"
    data = {
        "targets": [
            {"name": "boyz", "models": 10, "allocation": ["Boy", "Boss Nob"]},
            {"name": "boyz", "models": 10, "allocation": ["Boss Nob", "Boy"]},
        ],
        "runs": [{"name": "shooty", "attacker": "lootas"}],
    }
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    lines = compare([str(path), "--edition", "11"], 120)
    headings = [line for line in lines if line.startswith("10 Boyz")]
    assert headings == [  # edition 11: the Boyz of data 912 (10 Boyz are 75 points there)
        "10 Boyz · 75 pts · allocation Boy, Boss Nob",
        "10 Boyz · 75 pts · allocation Boss Nob, Boy",
    ]


def test_a_target_of_two_editions_is_a_section_per_edition(tmp_path: Path) -> None:
    """Runs of two editions against one target name are against two datasheets (10 Boyz are
    80 points in edition 10's data, 75 in edition 11's): a section per edition, each heading
    with its edition and its points, each row's Pts/100 from its own edition's points, and the
    CSV and JSON rows with their edition and target points (the fresh trial found one heading
    "10 Boyz · 75 pts" over rows resolved against the 80-point Boyz)."""
    path = tmp_path / "editions.yaml"
    data = {
        "targets": ["boyz"],
        "runs": [
            {"name": "ten", "attacker": "intercessor squad", "edition": 10},
            {"name": "eleven", "attacker": "intercessor squad", "edition": 11},
        ],
    }
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    lines = compare([str(path)], 120)
    headings = [line for line in lines if line.startswith("10 Boyz")]
    assert headings == ["10 Boyz · 80 pts · edition 10", "10 Boyz · 75 pts · edition 11"]
    first, second = (lines.index(h) for h in headings)
    assert any(line.strip().startswith("ten") for line in lines[first:second])
    assert any(line.strip().startswith("eleven") for line in lines[second:])
    res = CliRunner().invoke(app, ["compare", str(path), "--json"])
    rows = {r["run"]: r for r in json.loads(res.stdout)}
    for run, edition, points in (("ten", "10", 80), ("eleven", "11", 75)):
        r = rows[run]
        assert (r["edition"], r["target"]["points"]) == (edition, points)
        want = points / 10 * r["expected"]["models_destroyed"] / r["attacker"]["points"] * 100
        assert r["compared"]["points_per_100"] == pytest.approx(want)
    res = CliRunner().invoke(app, ["compare", str(path), "--csv", "-"])
    records = {rec["run"]: rec for rec in csv.DictReader(res.stdout.splitlines())}
    assert (records["ten"]["edition"], float(records["ten"]["target_points"])) == ("10", 80)
    assert (records["eleven"]["edition"], float(records["eleven"]["target_points"])) == ("11", 75)


def test_one_edition_adds_no_edition_to_the_headings(tmp_path: Path) -> None:
    lines = compare(["lootas", "--target", "boyz", "--target", "intercessor-squad"], 120)
    assert "10 Boyz · 80 pts" in lines and "5 Intercessor Squad · 80 pts" in lines


FORMULAS = ["=cmd|' /C calc'!A0", "+1+2", "-2+3", "@SUM(A1:A2)", "\t=1", "\r=1"]


def test_csv_text_cells_that_read_as_formulas_are_quoted(tmp_path: Path) -> None:
    """OWASP CSV Injection: a text cell beginning with =, +, -, @, a tab or a carriage return
    is written after a single quote (a spreadsheet shows it as text, never runs it); other
    names as they are, a control character escaped as in the table."""
    runs = [{"name": n, "attacker": "lootas"} for n in [*FORMULAS, "plain", "a=b"]]
    path = tmp_path / "runs.yaml"
    path.write_text(yaml.safe_dump({"targets": ["boyz"], "runs": runs}), encoding="utf-8")
    res = CliRunner().invoke(app, ["compare", str(path), "--csv", "-"])
    assert res.exit_code == 0, res.output
    names = [rec["run"] for rec in csv.DictReader(res.stdout.splitlines())]
    quoted = ["'=cmd|' /C calc'!A0", "'+1+2", "'-2+3", "'@SUM(A1:A2)", "'\\t=1", "'\\r=1"]
    assert sorted(names) == sorted([*quoted, "plain", "a=b"])


def test_csv_numbers_stay_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A number cell, a negative one too, is written as the number; the text "-1" is quoted."""
    import io

    from wh40k_calc.compare import table

    record = dict.fromkeys(table.CSV_COLUMNS, "")
    record |= {"run": "-1", "damage": -1.5, "target_models": -3, "attacker": "Lootas"}
    monkeypatch.setattr(table, "csv_records", lambda rows, key: [record])
    out = io.StringIO()
    table.write_csv([], "models", out)
    (row,) = csv.DictReader(out.getvalue().splitlines())
    assert (row["run"], row["damage"], row["target_models"]) == ("'-1", "-1.5", "-3")
    assert row["attacker"] == "Lootas"


@pytest.mark.parametrize(("sort", "column"), [("models", "Models"), ("damage", "Damage")])
def test_the_bar_column_has_a_heading_of_its_own(sort: str, column: str) -> None:
    """A fresh-user trial found two columns headed "Models" (the figure and the bar of the
    sort column): the bar's heading is "Bar", named in the legend with the column it draws;
    the CSV and JSON keep their keys (the CSV's header is CSV_COLUMNS, a JSON row's figures
    the same)."""
    args = ["lootas", "--target", "boyz", "--loadout", "default", "--loadout", "rokkit-launchas"]
    lines = compare([*args, "--sort", sort], 160)
    (head,) = [line for line in lines if line.startswith("Run ")]
    assert head.split() == ["Run", "Damage", "Models", "Wipe", "Pts/100", "Losses", "Bar"]
    legend = " ".join(lines[lines.index(head) + 1 :])
    assert f"Bar: the {column} column, relative to the highest of each target" in legend
    assert "bars:" not in legend
    res = CliRunner().invoke(app, ["compare", *args, "--csv", "-"])
    assert res.stdout.splitlines()[0].split(",") == [
        "run", "target", "target_models", "target_loadout", "target_points", "attacker",
        "attacker_models", "attacker_points", "phase", "edition", "method", "damage",
        "models_destroyed", "p_wipe", "points_per_100", "attacker_losses", "best",
    ]  # fmt: skip
    rows = json.loads(CliRunner().invoke(app, ["compare", *args, "--json"]).stdout)
    assert {"damage", "models_destroyed", "p_wipe", "points_per_100"} <= set(rows[0]["compared"])


def test_stacked_rows_have_no_bar_in_their_legend() -> None:
    """At 40 columns the rows are stacked (no table, no bar): the legend names no bar."""
    lines = compare(["lootas", "--target", "boyz"], 40)
    assert not any(line.startswith("Run ") for line in lines)
    assert "Bar:" not in " ".join(lines) and "bars:" not in " ".join(lines)

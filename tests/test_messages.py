"""Messages a fresh user met (validation.py, compare/command.py, wording.py): each with the exact
text expected.

Found by the trial: `calc compare /tmp` asked for a --target; `--csv ""` said "is a folder";
`--json --csv out.csv` did both silently; msgspec's own wording in datasheet and batch errors;
one target error printed once per run; "Choice: 4 Intercessor shoots Bolt rifle".
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import cli
from oracle import melee, model, weapon, write_unit
from typer.testing import CliRunner

from wh40k_calc.catalog import GENERATED, SHIPPED
from wh40k_calc.cli import app
from wh40k_calc.datasheet import DatasheetError, parse_datasheet
from wh40k_calc.wording import models_doing

LOOTAS = yaml.safe_load((SHIPPED / "orks" / "lootas.yaml").read_text(encoding="utf-8"))


calc = cli  # tests/helpers.py's: calc ARGS in-process, no traceback


def error(*args: str, code: int = 1) -> str:
    """The one error of ``calc ARGS``, which must exit with ``code`` (2: a usage error)."""
    res = calc(*args)
    assert res.exit_code == code, res.output
    assert "Traceback" not in res.output
    return res.stderr.strip()


# ---------------------------------------------------------------------------------------------
# calc compare's arguments


def test_compare_a_folder(tmp_path: Path) -> None:
    assert error("compare", tmp_path) == (
        f"error: {tmp_path}: is a folder, not a batch file (give a batch file, e.g. "
        "examples/lootas-loadouts.yaml, or attacker names with --target)"
    )


def test_csv_with_no_name() -> None:
    assert error("compare", "lootas", "-t", "boyz", "--csv", "", code=2) == (
        "error: --csv: give a file name (or '-' for the standard output)"
    )


def test_csv_a_folder(tmp_path: Path) -> None:
    assert error("compare", "lootas", "-t", "boyz", "--csv", tmp_path) == (
        f"error: --csv {tmp_path}: is a folder (give a file name in it, e.g. "
        f"{tmp_path}/compare.csv)"
    )


def test_json_and_csv_refused(tmp_path: Path) -> None:
    """The README: --csv writes the table "instead of printing it"; --json prints: one or the
    other, refused before any work (no file written)."""
    out = tmp_path / "out.csv"
    assert error("compare", "lootas", "-t", "boyz", "--json", "--csv", out, code=2) == (
        "error: --json and --csv: choose one (--csv writes the table as CSV instead of "
        "printing it; --json prints the JSON list)"
    )
    assert not out.exists()


# ---------------------------------------------------------------------------------------------
# Schema errors in our words


def refused(change) -> str:
    data = json.loads(json.dumps(LOOTAS))
    change(data)
    with pytest.raises(DatasheetError) as info:
        parse_datasheet(data, "x.yaml")
    return str(info.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("models"), "x.yaml: missing field 'models'"),
        (lambda d: d.update(models=[]), "x.yaml: models: needs at least one model"),
        (lambda d: d.update(sizes=[]), "x.yaml: sizes: needs at least one size"),
        (lambda d: d["models"][0].update(Sv=8), "x.yaml: models[0].Sv: must be from 2 to 7, not 8"),
        (
            lambda d: d["models"][0].update(Sv="5+"),
            "x.yaml: models[0].Sv: must be a whole number, not text (3 means 3+)",
        ),
        (
            lambda d: d["weapons"][0].update(range="far"),
            "x.yaml: weapons[0].range: 'far' is not allowed here: expected a whole number or "
            "'melee'",
        ),
        (
            lambda d: d["weapons"][0].update(D=1.5),
            "x.yaml: weapons[0].D: must be a whole number or a dice expression (e.g. D6+1), not "
            "1.5 (a decimal number)",
        ),
        (
            lambda d: d["sizes"][1]["models"].update(Spanner=-1),
            "x.yaml: sizes[1].models.Spanner: must be from 0 to 100, not -1",
        ),
        (
            lambda d: d["loadouts"]["mixed-spanners"][1].update(count=0),
            "x.yaml: loadouts.mixed-spanners[1].count: must be at least 1, not 0",
        ),
        (lambda d: d.update(name=" "), "x.yaml: name: must not be blank"),
        (
            lambda d: d["weapons"][0].update(abilities=["sustained hits 0"]),
            "x.yaml: weapons[0] (Deffgun).abilities[0]: 'sustained hits 0' is not a valid "
            "ability: [SUSTAINED HITS X]: X must be a number from 1 to 20 or dice such as D3 or "
            "D6+1, not '0'",
        ),
        (lambda d: d.update(keywords="INFANTRY"), "x.yaml: keywords: must be a list, not text"),
    ],
)
def test_datasheet_errors(change, message: str) -> None:
    assert refused(change) == message


def test_unknown_field_suggests_the_known_ones() -> None:
    """The known fields are listed (in the schema's order, which grows with the format)."""
    head = "x.yaml: unknown field 'foo' (fields: name, models, sizes, weapons, "
    msg = refused(lambda d: d.update(foo=1))
    tail = ", not_modelled, options_not_generated, source, edition, legends, data, additional_cost)"
    assert msg.startswith(head) and msg.endswith(tail)
    msg = refused(lambda d: d.update(sizez=[]))
    assert msg.startswith("x.yaml: unknown field 'sizez'; did you mean 'sizes'")  # closest first


def test_batch_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("targets: [boyz]\nruns: []\n")
    assert error("compare", empty) == f"error: {empty}:2: runs: needs at least one run"
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "targets: [boyz]\nruns:\n  - attacker: {name: lootas, modles: 10}\n"
        "  - attacker: lootas\n    method: fast\n"
    )
    lines = error("compare", bad).splitlines()
    assert lines == [
        f"error: {bad}:3: run 'runs[0]': attacker: unknown field 'modles'; did you mean "
        "'models'? (fields: name, models, loadout, weapons, leader, allocation, wounds_left)",
        f"error: {bad}:5: run 'runs[1]': method: 'fast' is not allowed here: expected 'both', "
        "'exact' or 'sample'",
    ]


def test_unknown_top_level_field_of_a_batch_has_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("targets: [boyz]\ntitel: x\nruns: [{attacker: lootas}]\n")
    assert error("compare", bad).startswith(
        f"error: {bad}:2: unknown field 'titel'; did you mean 'title'? (fields: runs, title,"
    )


# ---------------------------------------------------------------------------------------------
# One error once


def test_a_default_target_error_once_with_its_runs(tmp_path: Path) -> None:
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "targets: [boyz, bozy]\nruns:\n  - attacker: lootas\n  - name: rokkits\n"
        "    attacker: {name: lootas, loadout: rokkit-launchas}\n"
    )
    res = calc("compare", batch)
    assert res.exit_code == 1
    assert res.stderr.splitlines() == [
        f"error: {batch}:1: runs 'lootas' and 'rokkits' against bozy: (top level) targets[1]: "
        "unknown unit 'bozy'; did you mean 'Boyz'? (searched the shipped datasheets, the "
        "generated datasheets; `calc units` lists them)"
    ]
    assert "10 Boyz · 80 pts" in res.stdout  # the good target still printed


def test_a_runs_error_against_every_target_once_naming_them(tmp_path: Path) -> None:
    """A fresh-user trial: an attacker-side error was printed once per target."""
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "targets: [boyz, rhino, gretchin]\nruns:\n  - {name: bugs, attacker: carnifexes}\n"
        "  - {name: ok, attacker: lootas}\n"
    )
    res = calc("compare", batch)
    assert res.exit_code == 1
    (line,) = res.stderr.splitlines()
    assert line.startswith(
        f"error: {batch}:3: run 'bugs' against boyz, rhino and gretchin: Carnifexes has no "
        "ranged weapon"
    )


# ---------------------------------------------------------------------------------------------
# Grammar


def test_models_and_verbs_agree() -> None:
    assert models_doing(1, "Intercessor Sergeant", "shoots") == "1 Intercessor Sergeant shoots"
    assert models_doing(4, "Intercessor", "shoots") == "4 Intercessor models shoot"
    assert models_doing(19, "Boy", "fights with") == "19 Boy models fight with"


def test_choice_sentence() -> None:
    res = calc("shoot", "intercessor-squad", "-t", "boyz", "--json")
    assert json.loads(res.stdout)["choices"] == [
        "4 Intercessor models shoot Bolt rifle (rather than Bolt pistol): most models destroyed",
        "1 Intercessor Sergeant shoots Bolt rifle (rather than Bolt pistol): most models destroyed",
    ]


# ---------------------------------------------------------------------------------------------
# calc units --check


def test_units_check_prints_problems_and_a_count(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("name: Broken\nfaction: Testers\nmodels: []\n")
    (tmp_path / "good.yaml").write_text(yaml.safe_dump(dict(LOOTAS, name="Good", faction="T")))
    res = calc("units", "--check", "--datasheets", tmp_path, "good")
    assert res.exit_code == 0
    assert res.stdout == "1 datasheet checked, all valid\n"
    res = calc("units", "--check", "--datasheets", tmp_path, "--json")
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["checked"] >= 1600
    (bad,) = out["invalid"]
    assert (bad["qualified"], bad["error"]) == (
        "Testers/Broken",
        "models: needs at least one model",
    )
    assert bad["file"] == str(tmp_path / "broken.yaml")


NOT_DATASHEETS = {  # a file's name -> its content and the error calc units --check gives
    "empty": (b"", "expected a mapping of datasheet fields at the top level"),
    "binary": (bytes(range(256)) * 8, "not UTF-8 text"),  # 2 KB of every byte value
    "a-list": (b"- just\n- a list\n", "expected a mapping of datasheet fields at the top level"),
}
_CHECKED: dict[str, tuple[Path, dict, str, str]] = {}


def _checked(edition: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, str, str]:
    """One folder with each of :data:`NOT_DATASHEETS` and a file for the other edition only,
    and what ``calc units --check --json``, ``calc units --check`` and ``calc units`` say of
    it (with the shipped data) in ``edition``: made once a worker, not once a case (each run
    checks every shipped file)."""
    if edition not in _CHECKED:
        folder = tmp_path_factory.mktemp(f"not-datasheets-{edition}")
        for name, (content, _) in NOT_DATASHEETS.items():
            (folder / f"not-a-datasheet-{name}.yaml").write_bytes(content)
        other = dict(LOOTAS, name="Other Edition", faction="Testers")
        other["edition"] = 10 if edition == "11" else 11
        other["models"] = [dict(other["models"][0], Sv=9)]  # invalid: a save from 2 to 7
        (folder / "other-edition-only.yaml").write_text(yaml.safe_dump(other), encoding="utf-8")
        res = calc("units", "--check", "--datasheets", folder, "--edition", edition, "--json")
        assert res.exit_code == 1
        text = calc("units", "--check", "--datasheets", folder, "--edition", edition).stdout
        listing = calc("units", "--datasheets", folder, "--edition", edition).stdout
        _CHECKED[edition] = (folder, json.loads(res.stdout), text, listing)
    return _CHECKED[edition]


@pytest.mark.parametrize("name", NOT_DATASHEETS)
@pytest.mark.parametrize("edition", ["10", "11"])
def test_units_check_reports_a_file_that_is_no_datasheet_in_either_edition(
    tmp_path_factory: pytest.TempPathFactory, name: str, edition: str
) -> None:
    """Trial defect 4: in edition 11 an empty or binary file (which names no edition, so it
    was taken for an edition-10 file) was skipped: "all valid", exit 0. Such a file is checked
    and listed (as unreadable) in both editions; so is a file for the other edition only."""
    folder, checked, text, listing = _checked(edition, tmp_path_factory)
    invalid = {e["file"]: e for e in checked["invalid"]}
    files = [f"not-a-datasheet-{n}.yaml" for n in NOT_DATASHEETS] + ["other-edition-only.yaml"]
    assert sorted(invalid) == sorted(str(folder / f) for f in files)  # and none shipped
    bad = invalid[str(folder / f"not-a-datasheet-{name}.yaml")]
    wrong = invalid[str(folder / "other-edition-only.yaml")]
    assert bad["error"] == NOT_DATASHEETS[name][1]
    assert bad["unreadable"] is True
    assert wrong["error"] == "models[0].Sv: must be from 2 to 7, not 9"
    other_edition = "10" if edition == "11" else "11"
    assert f"of them for edition {other_edition} only), 4 invalid" in text.splitlines()[-1]
    flat = " ".join(listing.split())  # the path may be folded onto a line of its own
    squeezed = "".join(listing.split())  # a long path may be folded at a hyphen too
    assert f"datasheet-{name}.yaml(unreadable:'calcunits--check'sayswhy)" in squeezed
    assert f"not-a-datasheet-{name} " in flat  # the entry's name
    assert flat.count("(unreadable") == len(NOT_DATASHEETS)
    assert (
        "other-edition-only.yaml" not in listing
    )  # the other edition's file is checked, not listed


# ---------------------------------------------------------------------------------------------
# The first line of calc shoot


@pytest.mark.parametrize("width", [80, 120])
def test_header_wraps_before_the_edition(width: int) -> None:
    """84 characters: at 80 columns the units on one line and "· edition 10 · exact" on the
    next, no trailing spaces; at 120 one line."""
    res = CliRunner().invoke(app, ["shoot", "lootas", "-t", "boyz"], env={"COLUMNS": str(width)})
    lines = res.stdout.splitlines()
    head = "5 Lootas (Orks, 50 pts) shoots 10 Boyz (Orks, 80 pts, 11 wounds)"
    if width == 80:
        assert lines[:2] == [head, "· edition 10 · exact"]
    else:
        assert lines[0] == f"{head} · edition 10 · exact"
    for line in lines:  # the text lines (not the tables) end without spaces
        if line.startswith(("Conditions:", "Effects:", "Weapon order:", "Allocation order:")):
            assert line == line.rstrip()


def test_long_choice_lines_wrap_without_trailing_spaces() -> None:
    res = CliRunner().invoke(app, ["shoot", "intercessor-squad", "-t", "boyz"])
    lines = res.stdout.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("Choice: 4 Intercessor"))
    assert lines[i : i + 2] == [
        "Choice: 4 Intercessor models shoot Bolt rifle (rather than Bolt pistol): most",
        "models destroyed",
    ]


def test_sequence_header_wraps_between_words() -> None:
    """The same kind of line in `calc sequence`: the target wraps between words, and the
    edition follows on the last line where it fits; no trailing spaces."""
    args = ["sequence", "-t", "intercessor-squad", "--target-models", "10", "shoot lootas"]
    lines = CliRunner().invoke(app, args, env={"COLUMNS": "80"}).stdout.splitlines()
    assert lines[:2] == [  # never between a figure and its word ("20 wounds")
        "Sequence of 1 activation into 10 Intercessor Squad (Space Marines, 160 pts,",
        "20 wounds) · edition 10 · exact",
    ]


# ---------------------------------------------------------------------------------------------
# Fresh-user trial (fixes3): `calc units ""`; a 100 KB argument echoed whole in the error

HUGE = "x" * 100_000
CUT = "'" + "x" * 79 + "…'"


def test_units_with_empty_text_lists_everything() -> None:
    every = calc("units", "--json")
    assert every.exit_code == 0
    for text in ("", "  "):
        res = calc("units", text, "--json")
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout) == json.loads(every.stdout)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["shoot", HUGE, "-t", "boyz"], f"unknown unit {CUT}"),
        (["units", HUGE], f"no datasheet name is like {CUT}"),
        (["shoot", "lootas", "-t", "boyz", "--loadout", HUGE], f"Lootas has no loadout {CUT}"),
        (["shoot", "lootas", "-t", "boyz", "--models", HUGE], f"'--models': {CUT} is not"),
        (["sequence", "-t", "boyz", "shoot lootas --order " + HUGE], "step 1 ('shoot lootas"),
    ],
)
def test_long_input_is_shortened_in_errors(args: list[str], said: str) -> None:
    res = calc(*args)
    assert res.exit_code in (1, 2)
    assert said in res.output
    assert len(res.output) < 1_000, len(res.output)


def test_long_run_name_is_shortened_in_compare_errors(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(f"targets: [boyz]\nruns:\n  - {{name: {HUGE}, attacker: nobody}}\n")
    res = calc("compare", path)
    assert res.exit_code == 1
    assert f"run {CUT}" in res.stderr and len(res.stderr) < 1_000


def test_shorten_quoted_cuts_only_quoted_input() -> None:
    from wh40k_calc.wording import shorten_quoted

    long = "y" * 100
    assert shorten_quoted(f"unit {long!r} and 'b'") == f"unit '{'y' * 79}…' and 'b'"
    gap = f"x 'a' {'g' * 100} 'b'"  # the text between two quoted names is not one
    assert shorten_quoted(gap) == gap
    escaped = repr("it's" + long)  # repr uses double quotes here
    assert shorten_quoted(f"x {escaped}") == f'x {escaped[:80]}…"'
    assert shorten_quoted("short 'one'") == "short 'one'"


# ---------------------------------------------------------------------------------------------
# Fresh-user trial (fixes3 item 14): small messages

CSV = Path(__file__).resolve().parents[2] / "shared" / "data" / "wahapedia-10e-2025-07"


def test_unknown_target_set_names_the_files_not_read(tmp_path, monkeypatch) -> None:
    home = tmp_path / "home"
    (home / "target-sets").mkdir(parents=True)
    (home / "target-sets" / "bad.yaml").write_text("name: [broken\n", encoding="utf-8")
    (home / "target-sets" / "bin.yaml").write_bytes(b"\x00\xff\xfe")
    monkeypatch.setenv("WH40K_CALC_HOME", str(home))
    res = calc("compare", "lootas", "--target-set", "nope")
    assert res.exit_code == 1
    bad, binary = home / "target-sets" / "bad.yaml", home / "target-sets" / "bin.yaml"
    assert f"(target sets: benchmarks; not read, invalid: {bad}, {binary} (ask for" in res.stderr
    # the binary file, asked for: its path once
    res = calc("compare", "lootas", "--target-set", "bin")
    assert res.stderr.strip() == f"error: --target-set: {binary}: not UTF-8 text"


def test_import_without_names_or_all(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("WH40K_CALC_HOME", str(tmp_path / "home"))
    res = calc("import", "--csv", CSV)
    assert res.exit_code == 2  # a usage error
    assert res.stderr.strip() == "error: give datasheet names or --all"
    res = calc("import", "lootas", "--all", "--csv", CSV)
    assert res.stderr.strip() == "error: give datasheet names or --all (not both)"


def test_csv_folders_that_do_not_exist(tmp_path) -> None:
    missing = tmp_path / "nonexist"
    res = calc("import", "--all", "--csv", missing)
    assert res.exit_code == 1
    assert f"{missing}: the folder does not exist" in res.stderr


def test_output_folders_that_do_not_exist_are_created(tmp_path) -> None:
    """One policy for the files calc writes: missing folders are created, by ``calc import
    --out`` and ``calc compare --csv`` alike (compare refused them); a file where a folder of
    the path goes is refused before any work."""
    missing = tmp_path / "nonexist" / "deeper"
    res = calc("compare", "lootas", "-t", "boyz", "--csv", missing / "out.csv")
    assert res.exit_code == 0, res.output
    assert (missing / "out.csv").read_text(encoding="utf-8").startswith("run,target,")
    assert res.stderr == f"wrote 1 row to {missing / 'out.csv'} (created the folder {missing})\n"
    a_file = tmp_path / "file"
    a_file.write_text("x\n", encoding="utf-8")
    res = calc("compare", "lootas", "-t", "boyz", "--csv", a_file / "sub" / "out.csv")
    assert res.exit_code == 1
    assert f"{a_file} is a file, not a folder" in res.stderr


@pytest.mark.skipif(not CSV.is_dir(), reason=f"the datasheet export is not here: {CSV}")
def test_import_out_creates_its_folder(tmp_path) -> None:
    res = calc("import", "lootas", "--csv", CSV, "--replace-curated", "--out", tmp_path / "a/b")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "a/b/orks/lootas.yaml").is_file()


def test_user_data_folder_variable_naming_a_file(tmp_path, monkeypatch) -> None:
    a_file = tmp_path / "home.yaml"
    a_file.write_text("x\n", encoding="utf-8")
    monkeypatch.setenv("WH40K_CALC_HOME", str(a_file))
    for args in (["import", "burna boyz", "--csv", CSV], ["shoot", "lootas", "-t", "boyz"]):
        res = calc(*args)
        assert res.exit_code == 1
        assert res.stderr.startswith(f"error: WH40K_CALC_HOME={a_file}: is a file, not a folder")
        assert "Traceback" not in res.output


def test_a_file_where_the_user_datasheets_folder_goes(tmp_path, monkeypatch) -> None:
    """A fresh-user trial: a file at $WH40K_CALC_HOME/datasheets was ignored without a word
    (calc units --check said "all valid"); every command refuses it, saying what to do."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "datasheets").write_text("x\n", encoding="utf-8")
    monkeypatch.setenv("WH40K_CALC_HOME", str(home))
    for args in (["shoot", "lootas", "-t", "boyz"], ["units", "--check"], ["units"]):
        res = calc(*args)
        assert res.exit_code == 1, args
        assert res.stderr.startswith(f"error: {home / 'datasheets'}: is a file, not a folder")
        assert "WH40K_CALC_HOME" in res.stderr


def test_units_heading_counts_as_the_summary(tmp_path, monkeypatch) -> None:
    """``calc units "burna boyz"`` with an imported copy said "2 datasheets (1 hidden)" above
    "Orks (3)"; the heading now counts the same way, the hidden file apart from the datasheets
    (three lines: two datasheets and the generated file the copy hides)."""
    home = tmp_path / "home"
    monkeypatch.setenv("WH40K_CALC_HOME", str(home))
    if CSV.is_dir():
        assert calc("import", "burna boyz", "--csv", CSV).exit_code == 0
    else:  # no export here (CI): the copy `calc import` writes, placed by hand
        copy = home / "datasheets" / "orks" / "burna-boyz.yaml"
        copy.parent.mkdir(parents=True)
        shutil.copy(GENERATED / "orks" / "burna-boyz.yaml", copy)
    lines = calc("units", "burna").stdout.splitlines()
    assert lines[:2] == ["2 datasheets, plus 1 hidden file · edition 10", "Orks (2, plus 1 hidden)"]


@pytest.mark.parametrize(
    "args",
    [
        ["shoot", "lootas", "-t", "boyz"],
        ["units"],
        ["show", "boyz"],
        ["sequence", "-t", "boyz", "shoot lootas"],
        ["compare", "lootas", "-t", "boyz"],
    ],
)
def test_a_datasheets_path_with_control_characters_is_shown_escaped(args, monkeypatch) -> None:
    """A ``--datasheets`` path (or a ``WH40K_CALC_DATASHEETS`` entry) with an ESC sequence in
    it is printed escaped in the error, as names are, never obeyed by the terminal."""
    res = calc(*args, "--datasheets", "/tmp/x\x1b[31mred")
    assert res.exit_code == 1
    assert res.stderr == "error: /tmp/x\\x1b[31mred: datasheet folder does not exist\n"
    monkeypatch.setenv("WH40K_CALC_DATASHEETS", "/tmp/y\x1b]0;title\x07")
    res = calc(*args)
    assert "\x1b" not in res.stderr and "\x07" not in res.stderr
    assert "/tmp/y\\x1b]0;title\\x07: datasheet folder does not exist" in res.stderr


def test_other_paths_in_errors_are_escaped_too(tmp_path) -> None:
    res = calc("import", "lootas", "--csv", "/tmp/\x1b[31m/x")
    assert res.exit_code == 1
    assert "\x1b" not in res.stderr
    assert "/tmp/\\x1b[31m/x: the folder does not exist" in res.stderr
    a_file = tmp_path / "f"
    a_file.write_text("x\n", encoding="utf-8")
    res = calc("compare", "lootas", "-t", "boyz", "--csv", f"{a_file}/\x1b[2J/out.csv")
    assert res.exit_code == 1
    assert f"error: --csv {a_file}/\\x1b[2J/out.csv: {a_file} is a file" in res.stderr


# ---------------------------------------------------------------------------------------------
# calc army: a list cut short

WTC_LIST = """+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - Orks
+ DETACHMENT: War Horde
+ TOTAL ARMY POINTS: 305pts
+
+ NUMBER OF UNITS: 3
+++++++++++++++++++++++++++++++++++++++++++++++

10x Boyz (75 pts)
\u2022 1x Boss Nob: Big choppa, Slugga
\u2022 9x Boy: 9 with Choppa, Slugga
5x Lootas (130 pts): 5 with Deffgun
10x Boyz (100 pts)
\u2022 1x Boss Nob: Big choppa, Slugga
\u2022 9x Boy: 9 with Choppa, Slugga

Created with newrecruit.eu v35.82
"""
APP_LIST = """Lads (205 Points)

Orks
War Horde
Strike Force (2,000 Points)

BATTLELINE

Boyz (75 Points)
  \u2022 1x Boss Nob
     \u25e6 1x Big choppa
     \u25e6 1x Slugga
  \u2022 9x Boy
     \u25e6 9x Choppa
     \u25e6 9x Slugga

OTHER DATASHEETS

Lootas (130 Points)
  \u2022 5x Loota
     \u25e6 5x Deffgun

Exported with App Version: v2.3.0 (1), Data Version: v912
"""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (  # a download that stopped inside the third unit's line
            WTC_LIST[: WTC_LIST.index("10x Boyz (100") + 11],
            "it stops inside a line ('10x Boyz (1'), and its header counts 3 units but 2 are in it",
        ),
        (  # a copy that ends at a line break after the second unit
            WTC_LIST[: WTC_LIST.index("10x Boyz (100")],
            "its header counts 3 units but 2 are in it",
        ),
        (
            APP_LIST[: APP_LIST.index("OTHER DATASHEETS")],
            "the app's last line ('Exported with App Version ...') is missing",
        ),
    ],
    ids=["mid-line", "at a line break", "app without its last line"],
)
def test_army_refuses_a_list_cut_short(tmp_path: Path, text: str, said: str) -> None:
    """Trial defect 5: a text export cut short was read as the units before the cut (a
    shortfall note only, exit 0). It is refused in one line with the evidence: the units add
    up to fewer points than the list's total, and the text ends inside a line, the header
    counts more units, or the app's last line is missing."""
    total = 305 if text.startswith("+") else 205
    held = 75 if "Lootas" not in text else 205
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    got = error("army", tmp_path / "list.txt", "--target", "boyz")
    assert got == (
        f"error: {tmp_path / 'list.txt'}: cut short: it says {total} points but its units add "
        f"up to {held}; {said}; copy or export the whole list again"
    )


_LAST_BOYZ = WTC_LIST.index("10x Boyz (100")
_THEIR_BOY = WTC_LIST.index("\u2022 9x Boy", _LAST_BOYZ)


@pytest.mark.parametrize(
    "text",
    [
        WTC_LIST[:_THEIR_BOY],  # after the last Boyz' Boss Nob line
        WTC_LIST[: _THEIR_BOY - 8],  # inside their Boss Nob line ('... Big choppa, Sl')
    ],
    ids=["at a line break", "mid-line"],
)
def test_army_refuses_a_list_cut_inside_its_last_units_model_lines(tmp_path, text) -> None:
    """Trial: ``head -c 600`` of a WTC-compact list ended inside a unit's model lines and was
    refused as a count to correct ("make the two agree"). The last unit, its heading counting
    10 models over 1 model line before the text ends, is a list cut short."""
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    got = error("army", tmp_path / "list.txt", "--target", "boyz")
    assert got == (
        f"error: {tmp_path / 'list.txt'}: cut short: line 13: 'Boyz' counts 10 models in its "
        "heading, but the text ends after model lines for 1; copy or export the whole list again"
    )


def test_a_last_unit_short_of_its_count_before_the_closing_line_is_a_count_to_fix(
    tmp_path,
) -> None:
    """The same last unit with New Recruit's closing line after it: the list is whole, the
    count is wrong (the message the other units get)."""
    text = WTC_LIST.replace("\u2022 9x Boy: 9 with Choppa, Slugga\n\nCreated", "\nCreated")
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    got = error("army", tmp_path / "list.txt", "--target", "boyz")
    assert "cut short" not in got
    assert "line 13: 'Boyz' counts 10 models in its heading, but its model lines add up to 1" in got


@pytest.mark.parametrize("text", [WTC_LIST, APP_LIST, WTC_LIST.rstrip("\n")])
def test_army_reads_a_whole_list_and_a_trimmed_one(tmp_path: Path, text: str) -> None:
    """The whole lists are read (one without a last line break too), and a list whose units
    add up to less than its total with no sign of a cut (trimmed on purpose) gets the note."""
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    res = calc("army", tmp_path / "list.txt", "--target", "boyz")
    assert res.exit_code == 0, res.output
    assert "add up to" not in res.stdout
    trimmed = "\n".join(
        ln for ln in text.splitlines() if "NUMBER OF UNITS" not in ln and "Lootas" not in ln
    )
    if "Deffgun" in trimmed:  # the app list: drop the Lootas' block
        trimmed = trimmed[: trimmed.index("OTHER DATASHEETS")] + "\n" + trimmed.splitlines()[-1]
    (tmp_path / "list.txt").write_text(trimmed + "\n", encoding="utf-8")
    res = calc("army", tmp_path / "list.txt", "--target", "boyz")
    assert res.exit_code == 0, res.output
    assert "but its units add up to" in " ".join(res.stdout.split())


# the Lootas last: a list cut inside their line has every unit's points (205 in all)
WTC_LOOTAS_LAST = (
    WTC_LIST.replace("305pts", "205pts")
    .replace("NUMBER OF UNITS: 3", "NUMBER OF UNITS: 2")
    .replace("5x Lootas (130 pts): 5 with Deffgun\n", "")
    .replace("10x Boyz (100 pts)\n\u2022 1x Boss Nob: Big choppa, Slugga\n"
             "\u2022 9x Boy: 9 with Choppa, Slugga\n", "5x Lootas (130 pts): 5 with Deffgun\n")
)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (APP_LIST[: APP_LIST.index("5x Deffgun") + 2], "◦ 5x"),  # the app: an item's count
        (APP_LIST[: APP_LIST.index("5x Loota") + 2], "• 5x"),  # the app: a model line's
        (APP_LIST[: APP_LIST.index("5x Loota") + 2] + "\n", "• 5x"),  # then a line break
        (WTC_LOOTAS_LAST[: WTC_LOOTAS_LAST.index("5 with")] + "5", "5x Lootas (130 pts): 5"),
        (
            WTC_LOOTAS_LAST[: WTC_LOOTAS_LAST.index("5 with") + 6],
            "5x Lootas (130 pts): 5 with",
        ),
    ],
    ids=["app item", "app model", "app model, line break", "wtc count", "wtc count with"],
)
def test_army_refuses_a_list_cut_after_a_count_whose_points_add_up(
    tmp_path: Path, text: str, shown: str
) -> None:
    """Trial: a list cut inside its last unit's line after a count, its units' points adding
    up to its total, was read without an error. No export writes a count with no name after
    it: refused as cut short. The whole list is still read."""
    (tmp_path / "whole.txt").write_text(WTC_LOOTAS_LAST, encoding="utf-8")
    assert calc("army", tmp_path / "whole.txt", "--target", "boyz").exit_code == 0
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    got = error("army", tmp_path / "list.txt", "--target", "boyz")
    assert got == (
        f"error: {tmp_path / 'list.txt'}: cut short: it ends on a count with no name after it "
        f"({shown!r}); copy or export the whole list again"
    )


@pytest.mark.parametrize("command", [["army"], ["compare", "--army"]])
def test_allies_names_a_faction_of_ours(tmp_path: Path, command: list[str]) -> None:
    """Trial defect 6: ``--allies`` with a faction that is none of ours was taken silently
    (``calc compare --army`` gave a traceback once it was checked): refused, with the closest
    names; a chapter and an alias are still factions of ours."""
    (tmp_path / "list.txt").write_text(WTC_LIST, encoding="utf-8")
    got = error(*command, tmp_path / "list.txt", "--target", "boyz", "--allies", "chaos demons")
    assert got.startswith(
        "error: unknown faction 'chaos demons' (--allies); did you mean 'Chaos Daemons'? "
        "(factions: Adepta Sororitas, "
    )
    res = calc(*command, tmp_path / "list.txt", "-t", "boyz", "--allies", "daemons",
               "--allies", "space wolves")  # fmt: skip
    assert res.exit_code == 0, res.output


# ---------------------------------------------------------------------------------------------
# A model type equipped with nothing


@pytest.mark.parametrize(("command", "verb"), [("shoot", "Gun"), ("fight", "Blade")])
@pytest.mark.parametrize("edition", ["10", "11"])
def test_a_model_type_with_no_weapon_is_said(tmp_path: Path, command, verb, edition) -> None:
    """Trial defect 7: a model type whose datasheet equips it with nothing was left out of
    the attack without a word. Each such type gets a note; a unit none of whose models carry
    a weapon is refused, saying so."""
    armed = model("Trooper", equipped=["Gun", "Blade"])
    write_unit(tmp_path, "mixed", models=[(armed, 4), (model("Bearer"), 1), (model("Mule"), 2)],
               weapons=[weapon("Gun"), melee("Blade")])  # fmt: skip
    write_unit(tmp_path, "bare", models=[(model("Bearer"), 3)], weapons=[weapon("Gun")])
    write_unit(tmp_path, "dummies", models=[(model("Dummy"), 10)])
    common = ("-t", "dummies", "--datasheets", tmp_path, "--edition", edition)
    out = json.loads(calc(command, "mixed", *common, "--json").stdout)
    assert [w["name"] for w in out["weapons"]] == [verb]
    assert [n for n in out["notes"] if "no weapon" in n] == [
        "1 Bearer carries no weapon (its datasheet equips it with none): it does not attack",
        "2 Mule models carry no weapon (their datasheet equips them with none): they do not attack",
    ]
    text = " ".join(calc(command, "mixed", *common).stdout.split())
    assert "Note: 1 Bearer carries no weapon" in text
    if command == "shoot":
        assert error(command, "bare", *common) == (
            "error: Bare has no ranged weapon to attack with: its datasheet equips its models "
            "with no weapon; its datasheet has 'Gun': pick them with --weapon"
        )
    else:
        assert error(command, "bare", *common) == (
            "error: Bare has no melee weapon to attack with: its datasheet equips its models "
            "with no weapon"
        )


# ---------------------------------------------------------------------------------------------
# The config file


def test_an_unknown_config_key_is_warned_about_once(tmp_path: Path, monkeypatch) -> None:
    """Trial defect 8: ``editon = 11`` in config.toml was ignored without a word (edition 10
    used). Each unknown key is warned about once, naming the file and the key, with the
    closest known key; the known keys still apply."""
    monkeypatch.setenv("WH40K_CALC_HOME", str(tmp_path))
    monkeypatch.delenv("WH40K_CALC_EDITION", raising=False)
    monkeypatch.setenv("COLUMNS", "400")
    config = tmp_path / "config.toml"
    config.write_text("editon = 11\n", encoding="utf-8")
    res = calc("shoot", "lootas", "-t", "boyz")
    assert res.exit_code == 0
    assert res.stderr == (
        f"warning: {config}: unknown key 'editon' (ignored); did you mean 'edition'? (the "
        "config file's keys: edition)\n"
    )
    assert "· edition 10 · exact" in res.stdout
    config.write_text("edition = 11\n[colours]\nx = 1\n", encoding="utf-8")
    res = calc("shoot", "lootas", "-t", "boyz")
    assert res.stderr == (
        f"warning: {config}: unknown key 'colours' (ignored) (the config file's keys: edition)\n"
    )
    assert f"· edition 11 (from {config})" in res.stdout


def test_calc_data_alone_prints_its_help_as_text() -> None:
    """`calc data` with no subcommand printed its help with every line break as ``\\n`` (the
    escaping of usage errors took the help for one)."""
    res = calc("data")
    assert res.exit_code == 2
    assert "\\n" not in res.output
    assert " data [OPTIONS] COMMAND [ARGS]...\n" in res.output  # "root": the runner's name
    assert "\nCommands:\n" in res.output and "  status " in res.output


# ---------------------------------------------------------------------------------------------
# README examples


ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("example", ["examples/plans.yaml", "examples/lootas-loadouts.yaml"])
def test_the_example_batch_files_run_whatever_edition_the_player_set(example, monkeypatch):
    """The example files use the curated Lootas' loadout names (``kustom-mega-blastas``);
    with WH40K_CALC_EDITION=11 plans.yaml failed ("Lootas has no loadout
    'kustom-mega-blastas'"): each file says its edition, which wins over the variable."""
    monkeypatch.setenv("WH40K_CALC_EDITION", "11")
    res = calc("compare", ROOT / example, "--json")
    assert res.exit_code == 0, res.output
    assert {r["edition"] for r in json.loads(res.stdout)} == {"10"}


def test_the_benchmark_batch_says_its_edition() -> None:
    """benchmarks/batch-2000.yaml names edition-10 loadouts (``kombi-weapon``): it says
    ``edition: 10`` so that WH40K_CALC_EDITION=11 does not break the benchmark."""
    text = (ROOT / "benchmarks" / "batch-2000.yaml").read_text(encoding="utf-8")
    head = text[: text.index("\nruns:")]  # the defaults above the 2,000 runs
    assert yaml.safe_load(head)["edition"] == 10


# ---------------------------------------------------------------------------------------------
# Errors name the option the player typed


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["shoot", "lootas", "--models", "11", "-t", "boyz"],
         "error: --models 11: Lootas cannot have 11 models"),
        (["shoot", "lootas", "-t", "boyz", "--target-models", "21"],
         "error: --target-models 21: Boyz cannot have 21 models: from 1 to 20"),
        (["sequence", "-t", "boyz", "shoot lootas --models 11"],
         "error: step 1 ('shoot lootas --models 11'): --models 11: Lootas cannot have 11"),
        (["sequence", "-t", "boyz", "--target-models", "50", "shoot lootas"],
         "error: --target-models 50: Boyz cannot have 50 models"),
        (["exchange", "--side-a", "fight boyz", "--side-b", "shoot intercessor-squad",
          "--side-b", "fight intercessor-squad --models 40"],
         "error: --side-b 'fight intercessor-squad --models 40': --models 40: Intercessor "
         "Squad cannot have 40 models"),
    ],
    ids=["--models", "--target-models", "a step's --models", "sequence --target-models",
         "exchange side B"],
)  # fmt: skip
def test_a_size_error_names_its_option(args: list[str], said: str) -> None:
    """Trial, low items: "Lootas cannot have 0 models" did not say which option gave the
    size; and an exchange side B's size was blamed on --side-a's text (side A's activation
    built B as its target)."""
    assert error(*args).startswith(said)


def test_units_faction_suggests_the_closest() -> None:
    """Trial, low items: ``calc units --faction orkz`` listed every faction without a
    suggestion."""
    assert error("units", "--faction", "orkz").startswith(
        "error: no datasheets of faction 'orkz'; did you mean 'Orks'? (factions: Adepta "
    )


def test_import_out_with_no_name(tmp_path: Path, monkeypatch) -> None:
    """Trial, low items: ``calc import NAME --out ''`` wrote into the current folder (an empty
    path is '.'): refused as ``--csv ''`` is, before anything is read."""
    monkeypatch.chdir(tmp_path)
    assert error("import", "burna boyz", "--csv", tmp_path, "--out", "", code=2) == (
        "error: --out: give a folder name, e.g. --out my-datasheets (without --out: the user "
        "data folder)"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("sides", "note"),
    [
        (["shoot lootas", "shoot intercessor-squad"], "no side fights"),
        (["fight boyz --charged", "shoot intercessor-squad", "fight intercessor-squad"],
         None),  # turn 2: B's turn, where --fight-first picks
        (["fight boyz --charged", "fight intercessor-squad", "--turns", "1"],
         "one side has Fights First (its charge or an effect) in every Fight phase"),
    ],
)  # fmt: skip
def test_exchange_fight_first_with_no_effect_is_said(sides: list[str], note) -> None:
    """Trial, low items: ``--fight-first`` where it changes no Fight phase's order was taken
    without a word; it gets the usual "no effect" note."""
    a, *rest = sides
    b = [x for x in rest if not x.startswith("--") and not x.isdigit()]
    extra = [x for x in rest if x not in b]
    args = ["exchange", "--side-a", a, *[w for x in b for w in ("--side-b", x)], *extra]
    res = calc(*args, "--fight-first", "b", "--json")
    assert res.exit_code == 0, res.output
    said = [n for n in json.loads(res.stdout)["notes"] if "no effect" in n]
    assert said == ([f"--fight-first b: no effect: {note}"] if note else [])


def test_compare_dash_says_it_reads_no_standard_input() -> None:
    """Trial, low items: ``calc compare -`` (as ``calc army -`` reads a list) was taken for an
    attacker named '-': "unknown unit '-'". It says a batch file is given by name."""
    res = calc("compare", "-", "-t", "boyz")
    assert res.exit_code == 2
    assert res.stderr.startswith(
        "error: -: calc compare does not read a batch file from the standard input"
    )


def test_the_comparison_shows_the_standard_error_it_divides_by(monkeypatch) -> None:
    """Issue 21 A10 / trial, low items: with 2 trials the "wounds" row read "± SE 0.0000"
    beside "Δ / SE 1.2" (Δ was divided by the SE floored at 1/trials, the column showed the
    sample SE). The column shows the SE used: |1.6204 - 1.0000| / 0.5 = 1.2."""
    monkeypatch.setenv("COLUMNS", "120")
    out = calc("shoot", "lootas", "-t", "boyz", "--method", "both", "--trials", "2").stdout
    row = next(ln for ln in out.splitlines() if ln.startswith("│ wounds "))
    cells = [c.strip() for c in row.strip("│").split("│")]
    exact, sampled, se, z = (float(c) for c in cells[1:5])
    assert se == 0.5  # 1 / 2 trials: both trials gave the same number of wounds
    assert z == pytest.approx(abs(exact - sampled) / se, abs=0.05)


def test_the_comparison_prints_exact_zeros_as_zero(monkeypatch) -> None:
    """Lootas into Boyz make no mortal wounds and have no Hazardous weapon: those figures are
    exactly 0 in both engines, with nothing to measure, so every cell of their rows reads "0"
    (not 0.0000); the attacks (4 Deffguns A2 + a big shoota A3 = 11, fixed) read 11.0000 in
    both with an SE of 0. The JSON keeps its numbers (0.0)."""
    monkeypatch.setenv("COLUMNS", "120")
    args = ("shoot", "lootas", "-t", "boyz", "--method", "both", "--trials", "200")
    out = calc(*args).stdout

    def cells(label: str) -> list[str]:
        row = next(ln for ln in out.splitlines() if ln.startswith(f"│ {label} "))
        return [c.strip() for c in row.strip("│").split("│")][1:5]

    assert cells("mortal wounds") == ["0", "0", "0", "0"]
    assert cells("attacker models destroyed") == ["0", "0", "0", "0"]
    assert cells("attacks") == ["11.0000", "11.0000", "0", "0"]
    assert "0.0000" not in out
    js = json.loads(calc(*args, "--json").stdout)
    assert js["expected"]["mortal_wounds"] == 0.0
    assert js["sample"]["standard_error"]["expected"]["mortal_wounds"] == 0.0


def test_comparison_cells() -> None:
    """Four decimals; an exact zero "0"; a figure above zero that rounds to 0.0000 "<0.0001"
    (one below 1 that rounds to 1.0000: tests/test_trial_figures.py)."""
    from wh40k_calc.report import comparison_cell

    assert [comparison_cell(x) for x in (0.0, 0.00004, 0.5, 11.0)] == [
        "0", "<0.0001", "0.5000", "11.0000"
    ]  # fmt: skip


@pytest.mark.parametrize("command", [["army"], ["compare", "--army"]])
def test_army_says_where_its_default_edition_came_from(tmp_path, monkeypatch, command) -> None:
    """Trial, low items: a list that states no edition, read with WH40K_CALC_EDITION=11, said
    "edition 11 (the default)"; it says where the edition came from."""
    (tmp_path / "list.txt").write_text(APP_LIST, encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("WH40K_CALC_EDITION", "11")
    if command == ["army"]:
        out = calc("army", tmp_path / "list.txt", "--show").stdout
        assert "· edition 11 (from WH40K_CALC_EDITION)" in out
    else:
        rows = json.loads(calc(*command, tmp_path / "list.txt", "-t", "boyz", "--json").stdout)
        assert {r["edition"] for r in rows} == {"11"}
    monkeypatch.delenv("WH40K_CALC_EDITION")
    out = calc("army", tmp_path / "list.txt", "--show").stdout
    assert "· edition 10 (the default)" in out


@pytest.mark.parametrize(
    ("given", "meant"), [("attackr:waaagh", "attacker:waaagh"), ("targt:waaagh", "target:waaagh")]
)
def test_a_misspelt_side_prefix_of_an_effect_is_named(given: str, meant: str) -> None:
    """Trial, low items: ``--effect attackr:waaagh`` said only "unknown effect 'attackr'" (the
    text reads as effect ``attackr`` with option ``waaagh``): it names the prefix."""
    assert error("fight", "boyz", "-t", "boyz", "--effect", given) == (
        f"error: unknown effect {given.split(':')[0]!r}; {given.split(':')[0] + ':'!r} is not "
        f"a side (attacker: or target:): did you mean {meant!r}? (`calc effects` lists them)"
    )


def test_units_counts_a_hidden_file_apart_from_the_datasheets(tmp_path) -> None:
    """``x.yaml`` and ``sub/x.yaml`` (same faction and name): one datasheet a name finds
    (``sub/x.yaml``, first in search order) and one file it hides, both listed: "1 datasheet,
    plus 1 hidden file" over the two lines, never "1 datasheet (1 hidden)"."""
    for folder in (tmp_path, tmp_path / "sub"):
        write_unit(folder, "x", models=[(model("Gunner"), 1)])
    res = calc("units", "--faction", "testers", "--datasheets", tmp_path, env={"COLUMNS": "200"})
    lines = res.stdout.splitlines()
    assert lines[0] == "1 datasheet, plus 1 hidden file · edition 10"
    assert lines[1] == "Testers (1, plus 1 hidden)"
    names = [ln.split()[0] for ln in lines[2:] if not ln.startswith("   ")]  # folded or not
    assert names == ["X", "X"]
    assert " ".join(lines[2:]).count("(hidden: same name as") == 1


def test_an_idle_half_of_a_two_sided_effect_is_said_as_that_half() -> None:
    """Waaagh! (edition 10: +1 S and +1 A to melee weapons for the attacker; a 5+
    invulnerable save for the target) with Lootas shooting Boyz: the attacker's half has no
    melee attack to change, the target's half acts (the Boyz' save against the Deffgun's AP-1
    is 5+ invulnerable, not 6+). The note speaks of the idle half alone."""
    out = json.loads(calc("shoot", "lootas", "-t", "boyz", "--effect", "waaagh", "--json").stdout)
    assert out["effect_sides"]["waaagh"] == ["target"]
    assert not any(n.startswith("--effect waaagh: no effect") for n in out["notes"])
    assert (
        "--effect waaagh: the attacker's half has no effect: it changes melee attacks only "
        "(its target half acts)"
    ) in out["notes"]
    fight = json.loads(calc("fight", "boyz", "-t", "boyz", "--effect", "waaagh", "--json").stdout)
    assert fight["effect_sides"]["waaagh"] == ["attacker", "target"]
    assert not any("waaagh" in n for n in fight["notes"])


def test_an_effect_idle_on_its_only_side_says_no_effect() -> None:
    """Waaagh! applied for one side only (``attacker:``), with nothing of it acting: the
    note is the plain "no effect" one, with no other half to speak of."""
    out = json.loads(
        calc("shoot", "lootas", "-t", "boyz", "--effect", "attacker:waaagh", "--json").stdout
    )
    assert "waaagh" not in out["effect_sides"]
    assert "--effect waaagh: no effect: it changes melee attacks only" in out["notes"]


def test_calc_effects_counts_its_records_in_the_singular_and_the_plural() -> None:
    """``calc effects waaagh`` lists one record (Waaagh!): "1 record", not "1 records"."""
    one = calc("effects", "waaagh", env={"COLUMNS": "120"})
    assert one.exit_code == 0 and one.stdout.splitlines()[-1] == "1 record"
    every = calc("effects", env={"COLUMNS": "120"})
    assert every.exit_code == 0 and every.stdout.splitlines()[-1].endswith(" records")


def test_a_heading_of_one_model_over_more_model_lines_says_model() -> None:
    """``1x Boyz`` over a Boss Nob and 9 Boys: "counts 1 model", not "1 models"."""
    text = WTC_LIST.replace("10x Boyz (75 pts)", "1x Boyz (75 pts)")
    got = error_of_list(text)
    assert "line 9: 'Boyz' counts 1 model in its heading, but its model lines add up to 10" in got


def test_a_header_counting_more_units_than_the_one_held_says_is() -> None:
    """A list cut after its first unit: "its header counts 3 units but 1 is in it"."""
    text = WTC_LIST[: WTC_LIST.index("5x Lootas")]
    assert "its header counts 3 units but 1 is in it;" in error_of_list(text)


def error_of_list(text: str) -> str:
    """The error of ``calc army LIST --show`` for ``text`` (exit code 1)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "list.txt"
        path.write_text(text, encoding="utf-8")
        return error("army", path, "--show")

"""Issue 10, items 11, 13, 14 and 15: what the tables print, at 80 columns, literally, in
good English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from oracle import model, weapon
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.effects import all_effects

ROOT = Path(__file__).resolve().parents[1]
BOX = re.compile(r"[\u2500-\u257f]")  # box-drawing characters


def run(*args: str, width: int = 80, ok: bool = True):
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": str(width)})
    assert "Traceback" not in result.output
    if ok:
        assert result.exit_code == 0, result.output
    return result


def tokens(text: str) -> set[str]:
    """The words of a rendered screen, table borders removed."""
    return set(BOX.sub(" ", text).split())


def assert_fits(text: str, width: int = 80) -> None:
    """Every line within ``width`` columns and nothing cut short with an ellipsis."""
    for line in text.splitlines():
        assert len(line.rstrip()) <= width, line
    assert "…" not in text


# ---------------------------------------------------------------------------------------------
# Item 11: "The printed kill table stops at the largest number of models that can be destroyed
# (3 Big shoota shots do not print rows up to ≥10 at 0.00%); the JSON keeps k = 1..models."


def test_kill_table_stops_at_the_most_models_that_can_die() -> None:
    # Big shoota: 3 shots of Damage 1 (no rule adds attacks or hits without --half-range)
    # against W1 Boyz: at most 3 Boyz can be destroyed.
    out = run("shoot", "lootas", "-t", "boyz", "--weapon", "Big shoota").stdout
    assert "≥ 3" in out
    assert "≥ 4" not in out and "≥ 10" not in out
    data = json.loads(
        run("shoot", "lootas", "-t", "boyz", "--weapon", "Big shoota", "--json").stdout
    )
    assert [k["models"] for k in data["kill_table"]] == list(range(1, 11))
    assert [k["at_least"] for k in data["kill_table"][3:]] == [0.0] * 7


def test_kill_table_rows_in_the_comparison_and_for_the_sampler() -> None:
    both = run("shoot", "lootas", "-t", "boyz", "--weapon", "Big shoota", "--method", "both")
    assert "P(≥ 3 destroyed)" in both.stdout and "P(≥ 4 destroyed)" not in both.stdout
    sampled = run(
        "shoot",
        "lootas",
        "-t",
        "boyz",
        "--weapon",
        "Big shoota",
        "--method",
        "sample",
        "--trials",
        "20000",
    ).stdout
    assert "≥ 4" not in sampled  # the sampler cannot see more than 3 either
    assert "≥ 2" in sampled


def test_kill_table_when_no_model_can_be_destroyed() -> None:
    # 3 shots of Damage 1 cannot destroy a 26-wound Knight Paladin
    out = run("shoot", "lootas", "-t", "knight-paladin", "--weapon", "Big shoota").stdout
    assert "Kill table: no model of the target can be destroyed" in out
    assert "≥ 1" not in out


# ---------------------------------------------------------------------------------------------
# Item 13: "Names from files are printed literally: a run named `[bold red]loud[/]` shows as
# "loud" today because rich markup is interpreted; escape everything that comes from data."

LOUD = "[bold red]loud[/]"
GUN = "[blink]Gun[/blink] :smile:"


@pytest.fixture
def loud_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "loud"
    folder.mkdir()
    sheet = {
        "name": LOUD,
        "faction": "[italic]Testers[/italic]",
        "keywords": ["INFANTRY"],
        "faction_keywords": ["TESTERS"],
        "models": [model("[u]Shouter[/u]", equipped=[GUN])],
        "sizes": [{"models": {"[u]Shouter[/u]": 5}, "points": 50}],
        "weapons": [weapon(GUN, A=2)],
        "loadouts": {"[b]x[/b]": [{"model": "[u]Shouter[/u]", "count": "all", "equipped": [GUN]}]},
        "source": "written by a test",
    }
    (folder / "loud.yaml").write_text(yaml.safe_dump(sheet), encoding="utf-8")
    return folder


def test_shoot_prints_names_as_written(loud_folder: Path) -> None:
    out = run("shoot", "loud", "-t", "boyz", "--datasheets", loud_folder).stdout
    assert LOUD in out
    assert GUN in out  # neither markup nor the emoji code is interpreted


def test_units_show_and_compare_print_names_as_written(loud_folder: Path, tmp_path: Path) -> None:
    units = run("units", "--datasheets", loud_folder, width=120).stdout
    assert LOUD in units and "[italic]Testers[/italic]" in units
    show = run("show", "loud", "--datasheets", loud_folder, width=120).stdout
    for name in (LOUD, GUN, "[u]Shouter[/u]", "[b]x[/b]"):
        assert name in show, name
    batch = tmp_path / "loud.yaml"
    batch.write_text(
        yaml.safe_dump(
            {
                "title": "[red]Title[/red]",
                "datasheets": [str(loud_folder)],
                "runs": [{"name": "[bold red]run[/]", "attacker": "loud", "target": "boyz"}],
            }
        ),
        encoding="utf-8",
    )
    table = run("compare", batch, width=120).stdout
    assert "[red]Title[/red]" in table and "[bold red]run[/]" in table


def test_error_messages_print_names_as_written() -> None:
    result = run("shoot", "[bold]nobody[/bold]", "-t", "boyz", ok=False)
    assert result.exit_code == 1
    assert "'[bold]nobody[/bold]'" in result.stderr


# ---------------------------------------------------------------------------------------------
# Item 14: "Make every table readable at 80 columns (wrap at word boundaries, fold columns,
# shorter headings)." Issue 18, item 6: `calc effects` fits 80 columns and never cuts text.


def test_weapon_names_are_not_cut_at_80_columns() -> None:
    out = run(
        "fight",
        "boyz",
        "-t",
        "intercessor-squad",
        "--leader",
        "warboss",
        "--models",
        "20",
        "--charged",
    ).stdout
    assert_fits(out)
    assert {"Big", "choppa", "(Warboss)", "(Boyz)", "Choppa"} <= tokens(out)


@pytest.mark.parametrize("edition", ["10", "11"])
def test_effects_table_at_80_columns(edition: str) -> None:
    """Every record of the edition's Orks and core files: its id and every word of its
    summary whole, within 80 columns; the faction and kind named, not our file names."""
    out = run("effects", "--edition", edition, "--faction", "Orks").stdout
    assert_fits(out)
    words = tokens(out)
    pieces = {p for w in words for p in re.split(r"(?<=-)", w) if p}
    records = [e for e in all_effects(edition) if e.faction == "orks"]
    assert records
    for e in records:
        assert e.id in words or all(p in pieces for p in re.split(r"(?<=-)", e.id))
        for word in e.summary.split():  # no word broken across lines (but after a hyphen)
            assert all(p in pieces for p in re.split(r"(?<=-)", word) if p), (e.id, word)
    assert "Orks," in out and ".yaml" not in out


def test_effects_status_lines_at_80_columns() -> None:
    """With --status the coverage lines come too, their reasons whole."""
    out = run("effects", "--edition", "11", "--faction", "Core", "--status").stdout
    assert_fits(out)
    assert {"Smokescreen", "Explosives", "sources", "Battle-shock"} <= tokens(out)


def test_units_table_at_80_columns() -> None:
    out = run("units").stdout
    assert_fits(out)
    words = tokens(out)
    for path in (ROOT / "datasheets").glob("*/*.yaml"):
        assert f"{path.parent.name}/{path.name}" in words, path  # paths whole
    assert "Custodian Guard" in out and "Adeptus Custodes" in out


@pytest.mark.parametrize("width", [1, 2, 5, 8, 12, 16, 20, 21, 30, 40])
def test_units_fits_every_width(width: int) -> None:
    """No line of ``calc units commander`` wider than the terminal at any width: the count
    line, the faction headings ("Genestealer Cults (6)" is 21 characters) and the names and
    files below them, folded between words where they can be."""
    out = run("units", "commander", width=width).stdout
    lines = out.splitlines()
    assert len(lines) > 10
    for line in lines:  # README: below 20 columns, drawn at 20
        assert len(line) <= max(width, 20), (width, line)
    if width == 20:
        i = lines.index("Genestealer Cults")
        assert lines[i + 1].startswith("(") and lines[i + 1].endswith(")")


def test_units_check_at_80_columns(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "broken.yaml").write_text("name: Broken\nfaction: Testers\nmodels: []\n")
    out = run("units", "--check", "--datasheets", bad, ok=False).stdout
    assert_fits(out)
    assert "ok" not in tokens(out)  # only the problems (issue: 4,000 "ok" lines before)
    lines = out.splitlines()
    assert lines[0].startswith("Testers/Broken") and "broken.yaml" in "".join(lines[:-2])
    assert lines[-2] == "  models: needs at least one model"
    assert lines[-1].endswith(" datasheets checked, 1 invalid")


@pytest.mark.parametrize(
    "args",
    [
        ("show", "knight-paladin"),
        ("show", "boyz"),
        ("shoot", "lootas", "-t", "boyz", "--method", "both", "--trials", "2000"),
        ("compare", str(ROOT / "examples" / "lootas-loadouts.yaml")),
        ("compare", "lootas", "boyz", "-t", "leman-russ-battle-tank", "-t", "termagants"),
    ],
)
def test_tables_fit_80_columns(args: tuple[str, ...]) -> None:
    assert_fits(run(*args).stdout)


# ---------------------------------------------------------------------------------------------
# Item 15: "Wording: "wrote 1 rows", "of 1 orders", typer's "Value error," prefix, help
# showing `<list[str]>`; the setuptools "Editable installation !!" warning box on every
# `make demo`."


def test_wrote_one_row(tmp_path: Path) -> None:
    out = tmp_path / "one.csv"
    result = run("compare", "lootas", "-t", "boyz", "--csv", out)
    assert f"wrote 1 row to {out}" in result.stderr


def test_one_order(tmp_path: Path) -> None:
    data = json.loads(
        run(
            "shoot", "lootas", "-t", "boyz", "--weapon", "Deffgun x4", "--order", "best", "--json"
        ).stdout
    )
    assert "weapon order Deffgun: most models destroyed of 1 order" in data["choices"]


def test_counts_agree_with_their_nouns() -> None:
    out = run(
        "shoot",
        "lootas",
        "-t",
        "termagants",
        "--target-models",
        "1",
        "--method",
        "sample",
        "--trials",
        "2",
        width=120,
    ).stdout
    assert "1 wound)" in out and "(2 trials, seed 40000)" in out
    assert "only 2 sampler trials:" in out


def test_one_datasheet(loud_folder: Path) -> None:
    title = run("units", "--faction", "[italic]Testers", "--datasheets", loud_folder)
    assert title.stdout.splitlines()[0].strip() == "1 datasheet · edition 10"


def test_bad_values_have_no_validation_prefix() -> None:
    result = run("shoot", "lootas", "-t", "boyz", "--method", "foo", ok=False)
    assert result.exit_code == 2
    assert "'foo' is not one of 'exact', 'sample', 'both'" in result.output
    assert "Value error" not in result.output
    result = run("shoot", "lootas", "-t", "boyz", "--hit-mod", "x", ok=False)
    assert "'x' is not a whole number" in result.output


@pytest.mark.parametrize("command", ["shoot", "fight", "compare", "units", "show", "import"])
def test_help_shows_metavars_not_types(command: str) -> None:
    out = run(command, "-h").stdout
    assert "<list[" not in out and "<str>" not in out and "<int>" not in out


def test_make_installs_without_the_editable_notice() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    installs = [line.strip() for line in makefile.splitlines() if " -e " in line]
    assert len(installs) == 2  # the project, and the project with the dev tools
    for line in installs:
        assert line.startswith("$(PIP_INSTALL) -e ")
    # the editable install is a plain path entry ("compat" mode: no import finder loaded at
    # every Python start), and setuptools' notices about both are silenced
    assert (
        'PIP_INSTALL := PYTHONWARNINGS="ignore:Editable installation,'
        'ignore:Compat editable installs" ' in makefile
    )
    assert "--config-settings editable_mode=compat" in makefile


def test_an_expected_count_is_never_printed_as_the_whole_when_less_may_happen() -> None:
    """A fresh-user trial: `calc fight` printed "models destroyed 15.000 of 15" for an
    expectation of 14.99995 (P(wipe) 99.995%); compare already printed ">14.999"."""
    from wh40k_calc.wording import of_whole

    assert of_whole(14.99995, 15) == ">14.999"
    assert of_whole(15.0, 15) == "15.000"
    assert of_whole(15 - 1e-13, 15) == "15.000"  # a certain outcome's float sum
    assert of_whole(1.2531, 10) == "1.253"
    assert of_whole(0.0, 0) == "0.000"
    args = ["shoot", "lootas", "--models", "10", "-t", "gretchin", "--target-models", "10"]
    args += ["--add-ability", "torrent", "--add-ability", "anti-infantry 2+"]
    args += ["--add-ability", "devastating wounds"]
    expected = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)["expected"]
    assert f"{expected['models_destroyed']:.3f}" == "10.000"  # it rounds to the whole unit
    assert expected["models_destroyed"] < 10  # but a model may survive
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    line = next(x for x in res.stdout.splitlines() if x.startswith("Wounds lost"))
    assert line == "Wounds lost >10.999 of 11 · models destroyed >9.999 of 10"

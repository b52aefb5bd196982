"""Bad or extreme input found by the new-user trials: every case ends in a clear one-line
error (or a sensible answer), never a traceback."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import cli
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.datasheet import DatasheetError, load_datasheet, norm_name

ROOT = Path(__file__).resolve().parents[1]
LOOTAS = ROOT / "datasheets" / "orks" / "lootas.yaml"
runner = CliRunner()


calc = cli  # tests/helpers.py's: calc ARGS in-process, no traceback


def lootas_variant(tmp_path: Path, name: str, change) -> Path:
    data = yaml.safe_load(LOOTAS.read_text(encoding="utf-8"))
    data["name"] = name
    change(data)
    folder = tmp_path / "ds"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name.lower()}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def refused(path: Path) -> str:
    with pytest.raises(DatasheetError) as info:
        load_datasheet(path)
    return str(info.value)


def test_malformed_core_ability_is_refused(tmp_path):
    def bad(d):
        d["weapons"][0]["abilities"] = ["anti-infantry 7+"]

    msg = refused(lootas_variant(tmp_path, "Badanti", bad))
    assert "weapons[0] (Deffgun).abilities[0]" in msg
    assert "'anti-infantry 7+' is not a valid ability" in msg


def test_duplicate_key_is_refused(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text(LOOTAS.read_text(encoding="utf-8") + "name: Other\n", encoding="utf-8")
    msg = refused(path)
    assert "key 'name' given twice" in msg
    assert "line" in msg


def test_deep_nesting_is_refused(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("name: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    assert "nested too deeply" in refused(path)


def test_two_sizes_with_the_same_model_count_are_refused(tmp_path):
    def twice(d):
        d["sizes"].append({"models": {"Loota": 4, "Spanner": 1}, "points": 60})

    assert "a second size of 5 models" in refused(lootas_variant(tmp_path, "Twice", twice))


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("D6-1", "weapons[0] (Deffgun).D: D6-1: can roll 0; D must be at least 1 on every roll"),
        (0, "weapons[0] (Deffgun).D: 0: must be at least 1"),
    ],
)
def test_damage_that_can_be_zero_is_refused(tmp_path, damage, said):
    """The fresh-user trial read "weapons[0] (gun).D: D 0 can be below 1" for ``D: 0``."""

    def zero(d):
        d["weapons"][0]["D"] = damage

    assert said in refused(lootas_variant(tmp_path, "Zerod", zero))


def test_attacks_that_never_attack_are_refused(tmp_path):
    def none(d):
        d["weapons"][0]["A"] = 0

    assert "weapons[0] (Deffgun).A: 0: never makes an attack" in refused(
        lootas_variant(tmp_path, "Noattack", none)
    )


def test_names_match_without_accents():
    assert norm_name("Kâhl") == norm_name("kahl") == "kahl"


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["--weapon", "Deffgun x2", "--loadout", "kustom-mega-blastas"], "cannot be combined", 2),
        (["--order", ","], "give names separated by commas", 2),
        (["--allocation", "Bos Nob"], "did you mean 'Boss Nob'", 1),
        (["--order", "defgun"], "did you mean 'Deffgun'", 1),
        (["--datasheets", ""], "'--datasheets': no folder given ('')", 2),
    ],
)
def test_refused_with_one_line(args, message, code):
    """Refused with the message; exit code 2 for what is wrong whatever the data says."""
    res = calc("shoot", "lootas", "--target", "boyz", *args)
    assert res.exit_code == code
    assert message in res.stderr
    assert "Traceback" not in res.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--damage-mod", "1100"], "'--damage-mod': 1100 is not in the range -20<=x<=20"),
        (["--hit-mod", "99"], "'--hit-mod': 99 is not in the range -6<=x<=6"),
        (["--wound-mod", "-7"], "'--wound-mod': -7 is not in the range -6<=x<=6"),
        (["--ap-mod", "7"], "'--ap-mod': 7 is not in the range -6<=x<=6"),
        (["--save-mod", "7"], "'--save-mod': 7 is not in the range -6<=x<=6"),
        (["--damage-reduction", "50"], "'--damage-reduction': 50 is not in the range 0<=x<=20"),
        (["--crit-hit", "7"], "'--crit-hit': 7 is not in the range 2<=x<=6"),
        (["--fnp", "1"], "'--fnp': 1 is not in the range 2<=x<=6"),
    ],
)
def test_a_value_out_of_range_is_a_usage_error(args, message):
    """Every option's range is checked where the command line is parsed: a usage error, exit
    code 2, whichever option (the fresh trial found --hit-mod 99 exiting 1 and --crit-hit 7
    exiting 2); in a sequence step the same."""
    res = calc("shoot", "lootas", "--target", "boyz", *args)
    assert res.exit_code == 2, res.output
    assert message in res.output
    res = calc("sequence", " ".join(["shoot lootas", *args]), "--target", "boyz")
    assert res.exit_code == 2, res.output
    assert message in res.output


def test_the_command_lines_ranges_are_the_modifiers_ranges():
    """The ranges the options declare are those Modifiers refuses outside (a batch file's
    values, which are file errors: exit code 1)."""
    from typing import get_args, get_type_hints

    from wh40k_calc.options import ModifierOptions
    from wh40k_calc.selection import _RANGES

    hints = get_type_hints(ModifierOptions, include_extras=True)
    for name, low, high in _RANGES:
        option = get_args(hints[name])[1]  # Annotated[int, typer.Option(...)]
        assert (option.min, option.max) == (low, high), name


def test_fight_proppa_needs_orks():
    res = calc("fight", "lord-invocatus", "--target", "boyz", "--effect", "fight-proppa")
    assert res.exit_code == 1
    assert "needs an attacking unit with ORKS" in res.stderr


def test_batch_modifier_out_of_range_is_a_run_error(tmp_path):
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "targets: [boyz]\nruns:\n  - attacker: lootas\n  - name: bad\n    attacker: lootas\n"
        "    modifiers: {damage_mod: 1100}\n",
        encoding="utf-8",
    )
    res = calc("compare", batch, "--json")
    assert res.exit_code == 1
    rows = json.loads(res.stdout)
    assert [r["run"] for r in rows] == ["lootas"]  # the good run still prints
    assert "run 'bad': modifiers.damage_mod: 1100 is out of range" in res.stderr  # its field


def test_huge_weapon_falls_back_to_a_short_sampler_run(tmp_path):
    def huge(d):
        d["sizes"] = [{"models": {"Loota": 98, "Spanner": 2}, "points": 100}]
        d["weapons"][0].update(A=200, abilities=["sustained hits 2D6", "devastating wounds"])

    lootas_variant(tmp_path, "Horde", huge)
    res = calc("shoot", "horde", "--target", "boyz", "--datasheets", tmp_path / "ds", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["method"] == "sample"
    assert any("too many attacks" in n for n in out["notes"])
    assert any("the sampler ran" in n for n in out["notes"])
    assert out["sample"]["trials"] < 100_000


def _horde(tmp_path) -> Path:
    def huge(d):
        d["sizes"] = [{"models": {"Loota": 98, "Spanner": 2}, "points": 100}]
        d["weapons"][0].update(A=200, abilities=["sustained hits 2D6", "devastating wounds"])

    lootas_variant(tmp_path, "Horde", huge)
    return tmp_path / "ds"


def test_method_both_when_the_exact_engine_declines(tmp_path):
    """--method both on a selection the exact engine declines: no traceback; the figures are
    the sampler's ("method": "sample"), the notes say the exact engine declined and why, and
    the text says so above the figures."""
    ds = _horde(tmp_path)
    res = calc(
        "shoot", "horde", "--target", "boyz", "--datasheets", ds, "--method", "both", "--json"
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["method"] == "sample"
    assert any("exact engine declined" in n and "too many attacks" in n for n in out["notes"])
    assert out["sample"]["trials"] > 0
    assert out["expected"] == out["sample"]["expected"]
    text = calc("shoot", "horde", "--target", "boyz", "--datasheets", ds, "--method", "both")
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    declined = next(i for i, line in enumerate(lines) if "exact engine declined" in line)
    table = next(i for i, line in enumerate(lines) if "Expected per activation" in line)
    assert declined < table
    assert "Traceback" not in text.output


def test_compare_method_both_keeps_every_row(tmp_path):
    ds = _horde(tmp_path)
    res = calc(
        "compare", "horde", "lootas", "--target", "boyz", "--datasheets", ds, "--method", "both",
        "--json", "--trials", "2000",
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert sorted(r["method"] for r in rows) == ["both", "sample"]


def test_units_lists_a_hidden_same_named_file(tmp_path):
    folder = tmp_path / "twin"
    folder.mkdir()
    for stem in ("boyz-a", "boyz-b"):
        (folder / f"{stem}.yaml").write_text(
            (ROOT / "datasheets/orks/boyz.yaml").read_text(encoding="utf-8"), encoding="utf-8"
        )
    res = calc("units", "--datasheets", folder)
    assert res.exit_code == 0
    assert ", plus 2 hidden file" in res.stdout  # boyz-b.yaml and the shipped boyz.yaml
    assert "hidden: same name as" in res.stdout


@pytest.mark.parametrize(
    "broken", [{"x.yaml": ""}, {"x.yaml": "name: [unclosed\n", "y.yaml": ""}], ids=["one", "two"]
)
def test_an_unknown_unit_says_the_files_that_could_not_be_read(tmp_path, broken):
    """A unit not found where a --datasheets file could not be read (empty, malformed YAML)
    may be in that file: the error counts them, names the first and points to --check."""
    for name, text in broken.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    res = cli("shoot", "test gunner", "-t", "boyz", dirs=[tmp_path])
    assert res.exit_code == 1
    n = len(broken)
    said = f"{n} datasheet file{'s' if n > 1 else ''} of those folders could not be read"
    assert said in res.output
    assert str(tmp_path / "x.yaml") in res.output and "y.yaml" not in res.output
    assert "`calc units --check`" in res.output


def test_an_unknown_unit_of_readable_folders_says_nothing_of_files(tmp_path):
    (tmp_path / "boyz.yaml").write_text(
        (ROOT / "datasheets/orks/boyz.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    res = cli("shoot", "test gunner", "-t", "boyz", dirs=[tmp_path])
    assert res.exit_code == 1 and "unknown unit 'test gunner'" in res.output
    assert "could not be read" not in res.output


def _run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "wh40k_calc", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
        check=False,
    )


def test_a_terminal_that_cannot_show_the_tables():
    res = _run("shoot", "lootas", "--target", "boyz", PYTHONIOENCODING="ascii")
    assert res.returncode == 0
    assert "Traceback" not in res.stderr
    assert "Deffgun" in res.stdout


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_output_that_cannot_be_written():
    with open("/dev/full", "w") as full:
        res = subprocess.run(
            [sys.executable, "-m", "wh40k_calc", "shoot", "lootas", "--target", "boyz"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert res.returncode == 1
    assert "error: cannot write the output" in res.stderr
    assert "Traceback" not in res.stderr


@pytest.mark.parametrize("args", [["shoot", "lootas", "--target", "boyz"], ["units", "--json"]])
def test_a_closed_standard_output_is_the_error_a_full_disk_is(args):
    """``calc ... >&-``: the program starts without a standard output; writing the result
    fails as on a full disk (one error line, exit code 1), not exit 0 with nothing written."""
    res = subprocess.run(  # the shell starts the program with descriptor 1 closed
        ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "wh40k_calc", *args],
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )
    assert res.returncode == 1
    assert res.stderr == "error: cannot write the output: the standard output is closed\n"


ARMY_STDIN = ("army", "-", "-t", "boyz")


def test_a_closed_standard_input_is_one_error_line():
    """``calc army - ... <&-``: the program starts without a standard input; reading the list
    from it is one error line and exit code 1, not a traceback."""
    res = subprocess.run(  # the shell starts the program with descriptor 0 closed
        ["sh", "-c", 'exec "$@" <&-', "sh", sys.executable, "-m", "wh40k_calc", *ARMY_STDIN],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert res.returncode == 1
    assert res.stderr.startswith("error: standard input is closed")
    assert len(res.stderr.splitlines()) == 1


def test_a_standard_input_that_fails_to_read_is_a_list_error():
    """A standard input closed after start-up (reading it raises) is a ListError naming it."""
    from wh40k_calc.lists.model import ListError
    from wh40k_calc.lists.source import read_source

    class Closed(io.BytesIO):
        def read(self, *_):
            raise ValueError("I/O operation on closed file.")

    with pytest.raises(ListError, match=r"^standard input: cannot read it"):
        read_source("-", Closed())


def test_columns_0_is_read_as_unset():
    """``COLUMNS=0`` is no terminal width (rich would print nothing, exit 0): the output is
    the one without COLUMNS (80 columns when not on a terminal)."""
    zero = runner.invoke(app, ["shoot", "lootas", "-t", "boyz"], env={"COLUMNS": "0"})
    unset = runner.invoke(app, ["shoot", "lootas", "-t", "boyz"], env={"COLUMNS": None})
    assert zero.exit_code == 0
    assert "Deffgun" in zero.stdout
    assert zero.stdout == unset.stdout

"""Small defects a fresh-user trial found: the narrowest width drawn, the words of a bad whole
number, a device given as a batch file, an unknown side prefix of --effect, an empty .rosz,
and a "Not modelled" line printed once per Leader of one datasheet."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from helpers import cli


@pytest.mark.parametrize(
    "args",
    [("shoot", "lootas", "--target", "boyz"), ("compare", "lootas", "--target", "boyz")],
)
@pytest.mark.parametrize("narrow", ["1", "3", "19"])
def test_a_narrower_width_is_drawn_at_20_columns(args, narrow):
    """README: below 20 columns the output is drawn at 20 (at 1, every line was '  %')."""
    res = cli(*args, env={"COLUMNS": narrow})
    assert res.exit_code == 0, res.output
    assert res.stdout == cli(*args, env={"COLUMNS": "20"}).stdout
    lines = res.stdout.splitlines()
    assert max(len(line) for line in lines) > 10
    assert all(len(line) <= 20 for line in lines)


def test_a_bad_whole_number_is_said_in_words():
    res = cli("compare", "lootas", "--target", "boyz", "--jobs", "abc")
    assert res.exit_code == 2
    assert "'abc' is not a whole number" in res.output and "int range" not in res.output
    res = cli("shoot", "lootas", "--target", "boyz", "--models", "abc")
    assert "'abc' is not a whole number" in res.output


def test_a_device_is_not_a_batch_file():
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    res = cli("compare", "/dev/zero", "--target", "boyz")
    assert res.exit_code == 1
    assert res.stderr.startswith(
        "error: /dev/zero: not a regular file (a device or a pipe), not a batch file (give a "
        "batch file, e.g. examples/lootas-loadouts.yaml, or attacker names with --target)"
    )


def test_an_unknown_side_prefix_is_said_with_the_sides():
    res = cli("shoot", "lootas", "--target", "boyz", "--effect", "middle:waaagh")
    assert res.exit_code == 1
    assert "'middle:' is not a side prefix (the sides are attacker: and target:, e.g. " in (
        res.stderr
    )
    assert "'attacker:waaagh')" in res.stderr


def test_an_empty_rosz_holds_no_roster(tmp_path: Path):
    buf = io.BytesIO()
    zipfile.ZipFile(buf, "w").close()
    path = tmp_path / "army.rosz"
    path.write_bytes(buf.getvalue())
    res = cli("army", path, "--target", "boyz")
    assert res.exit_code == 1
    assert res.stderr == f"error: {path}: an empty zip archive: it holds no roster\n"


def test_two_leaders_of_one_datasheet_give_each_not_modelled_line_once():
    args = ("fight", "boyz", "--models", "20", "--leader", "warboss", "--leader", "warboss",
            "--target", "intercessor-squad")  # fmt: skip
    res = cli(*args)
    assert res.exit_code == 0, res.output
    assert res.stdout.count("Da Biggest and da Best") == 1
    out = json.loads(cli(*args, "--json").stdout)
    assert sum("Da Biggest" in n for n in out["not_modelled"]) == 1


def test_a_blank_name_is_echoed_as_typed():
    res = cli("shoot", "   ", "--target", "boyz")
    assert res.exit_code == 2  # no name at all: a usage error
    assert "Invalid value for 'ATTACKER': no name given ('   ')" in res.stderr

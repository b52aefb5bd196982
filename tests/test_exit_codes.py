"""One rule for exit codes, in every command (README, "Exit codes"): what is wrong whatever the
data says — an option's form, range or company, a name left empty — exits 2 (click's code for
its own usage errors); what is found wrong by looking in the data exits 1. A fresh-user trial
found empty names and malformed values exiting 1 in some commands and 2 in others."""

from __future__ import annotations

import pytest
from helpers import cli

USAGE = [
    ("shoot", "", "--target", "boyz"),
    ("shoot", "   ", "--target", "boyz"),
    ("shoot", "lootas", "--target", ""),
    ("shoot", "lootas", "--target", "boyz", "--leader", ""),
    ("shoot", "lootas", "--target", "boyz", "--target-leader", ""),
    ("shoot", "lootas", "--target", "boyz", "--effect", ""),
    ("shoot", "lootas", "--target", "boyz", "--effect", "waaagh:"),
    ("shoot", "lootas", "--target", "boyz", "--weapon", ""),
    ("shoot", "lootas", "--target", "boyz", "--weapon", "Deffgun x0"),
    ("shoot", "lootas", "--target", "boyz", "--allocation", ""),
    ("shoot", "lootas", "--target", "boyz", "--precision-target", ""),
    ("shoot", "lootas", "--target", "boyz", "--hit-mod", "99"),
    ("shoot", "lootas", "--target", "boyz", "--edition", "9"),
    ("fight", "", "--target", "lootas"),
    ("show", ""),
    ("effects", "--edition", "9"),
    ("sequence", "--target", "boyz", "shoot ''"),
    ("sequence", "--target", "boyz", "shoot lootas --weapon ''"),
    ("exchange", "--side-a", "shoot ''", "--side-b", "fight boyz"),
    ("compare", "lootas"),
]
DATA = [
    ("shoot", "lootaz", "--target", "boyz"),
    ("shoot", "lootas", "--target", "boyz", "--effect", "no-such-rule"),
    ("shoot", "lootas", "--target", "boyz", "--weapon", "Lascannon x1"),
    ("shoot", "lootas", "--target", "boyz", "--models", "99"),
    ("show", "lootaz"),
    ("effects", "no-such-rule"),
    ("sequence", "--target", "boyz", "shoot lootaz"),
]


@pytest.mark.parametrize("args", USAGE, ids=" ".join)
def test_a_usage_error_exits_2(args):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert "error" in result.output.lower()


@pytest.mark.parametrize("args", DATA, ids=" ".join)
def test_what_the_data_refuses_exits_1(args):
    result = cli(*args)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("error: ")

"""A fresh-user trial's findings on the command line, each checked against the message or exit
code the player should get (written here by hand, not read back from the program)."""

from __future__ import annotations

from pathlib import Path

from helpers import cli

WIDE = {"COLUMNS": "300"}  # one line per message


def error_line(result) -> str:
    lines = [x for x in result.output.splitlines() if x.startswith("error:")]
    assert len(lines) == 1, result.output
    return lines[0]


# --- calc effects --detachment: a misspelling that only the other edition has one like ---


def test_a_misspelt_detachment_of_the_other_edition_is_suggested() -> None:
    ten = cli("effects", "--detachment", "dred mob", "--edition", "10", env=WIDE)
    assert ten.exit_code == 1
    assert error_line(ten) == (
        "error: --detachment 'dred mob': no such detachment here; "
        "did you mean 'Dread Mob' (edition 11)?"
    )
    eleven = cli("effects", "--detachment", "dred mob", "--edition", "11", env=WIDE)
    assert error_line(eleven).endswith("did you mean 'Dread Mob'?")
    right = cli("effects", "--detachment", "dread mob", "--edition", "10", env=WIDE)
    assert error_line(right).endswith("edition 11 has it (add --edition 11)")
    nothing = cli("effects", "--detachment", "xyzzy", "--edition", "10", env=WIDE)
    assert error_line(nothing) == "error: --detachment 'xyzzy': no such detachment here"

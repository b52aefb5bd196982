"""No line of a command's terminal output ends in spaces (rich pads a table's rows and titles to
the table's width): the output console of ``terminal.py`` drops them, at every width, coloured
or not."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wh40k_calc.catalog import ENV_VAR
from wh40k_calc.cli import app
from wh40k_calc.terminal import EndTrimmed, output_console

# an army list the repository ships (the shared rosters are not in every checkout)
ORKS = Path(__file__).resolve().parents[1] / "examples" / "orks-list.txt"
SGR = re.compile(r"\x1b\[[0-9;]*m")

COMMANDS = [
    ["shoot", "lootas", "--target", "boyz"],
    ["fight", "boyz", "--target", "lootas", "--explain"],
    ["show", "lootas"],  # its statline tables and wrapped source line padded before the fix
    ["units", "lootas"],
    ["effects", "waaagh"],
    ["compare", "lootas", "--target", "boyz"],  # the table's header row padded before the fix
    ["sequence", "shoot lootas", "fight boyz", "--target", "boyz"],
    ["exchange", "--side-a", "fight boyz --charged", "--side-b", "shoot lootas"],
    ["army", str(ORKS), "--target", "boyz"],
    ["data", "status"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
@pytest.mark.parametrize("colour", [False, True], ids=["plain", "colour"])
def test_no_output_line_ends_in_spaces(args: list[str], colour: bool) -> None:
    env = {ENV_VAR: None, "FORCE_COLOR": "1" if colour else None}
    if colour:
        env["TTY_COMPATIBLE"] = "1"
    for width in (20, 40, 80, 132):
        res = CliRunner().invoke(app, args, env={**env, "COLUMNS": str(width)})
        assert res.exit_code == 0, res.output
        assert res.stdout.strip()
        if colour and args[0] != "data":
            assert "\x1b[" in res.stdout  # coloured indeed
        ended = [ln for ln in SGR.sub("", res.stdout).split("\n") if ln.endswith(" ")]
        assert ended == [], (width, ended)


def test_spaces_are_dropped_only_at_line_ends() -> None:
    """The spaces before a newline go, however the writes split them; spaces inside a line, and
    colour codes among dropped spaces, stay."""
    buf = io.StringIO()
    stream = EndTrimmed(buf)
    for part in ["a  ", " ", "\n", "b \x1b[1m ", "\x1b[0m\nc  d", "  ", "e\n", "  "]:
        stream.write(part)
    assert buf.getvalue() == "a\nb\x1b[1m\x1b[0m\nc  d  e\n"


def test_output_console_prints_tables_without_padding() -> None:
    from rich.table import Table

    table = Table("Name", "Value", title="A long title for a table")
    table.add_row("x", "1")
    table.add_row("a much longer name", "2")
    out = io.StringIO()
    con = output_console(width=60)
    con.file = EndTrimmed(out)
    con.print(table)
    lines = out.getvalue().split("\n")
    assert any("a much longer name" in ln for ln in lines)
    assert [ln for ln in lines if ln.endswith(" ")] == []

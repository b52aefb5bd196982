"""The README's ``calc army`` example runs on the list the repository ships
(``examples/orks-list.txt``) and prints what the README shows: every line of the README's
block, in order (`` ...`` marks lines left out there). A change of output, data or list that
the README does not follow fails here."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from helpers import cli

ROOT = Path(__file__).resolve().parents[1]


def _readme_block() -> tuple[list[str], list[str]]:
    """The README's ``calc army`` example: its command's arguments and the lines shown."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Army lists: `calc army`") :]
    block = re.search(r"```\n(\$ calc army .*?)```\n", section, re.DOTALL)
    assert block is not None
    command, *shown = block.group(1).rstrip("\n").split("\n")
    return shlex.split(command.removeprefix("$ calc ")), shown


def test_the_readme_army_example_is_this_command_s_output() -> None:
    args, shown = _readme_block()
    assert args[:2] == ["army", "examples/orks-list.txt"]
    assert (ROOT / args[1]).is_file()
    result = cli(*[str(ROOT / a) if a == args[1] else a for a in args], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    got = [line.rstrip() for line in result.output.splitlines()]
    chunks: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == "...":
            chunks.append([])
        else:
            chunks[-1].append(line)
    at = 0
    for n, chunk in enumerate(chunks):  # each run of lines as it stands, in order
        starts = [
            i for i in range(at, len(got) - len(chunk) + 1) if got[i : i + len(chunk)] == chunk
        ]
        assert starts, f"README lines not in the output as shown: {chunk[:3]!r}..."
        if n == 0:
            assert starts[0] == 0, "the output begins otherwise than the README's block"
        at = starts[0] + len(chunk)
    assert at == len(got), f"the output goes on after the README's block: {got[at:]!r}"

"""Every README example that shows a command's output (a fenced block opening with ``$ calc``)
is run and compared with what it shows, so the README cannot drift from the program (a
fresh-user trial found the ``calc exchange`` example's notes out of date).

What the README leaves out is marked, and only there may the output differ: a line ``...``
(or a table row holding only ``...``) stands for any number of lines, a line ending in ``...``
for a line that starts with its text and any lines after it. Lines are compared without the
spaces at their ends (rich pads a table's lines to its width), at 80 columns as shown.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SHARED = ROOT.parent / "shared"
BLOCK = re.compile(r"^```[a-z]*\n(\$ calc .*?)^```", re.S | re.M)
ELIDED = re.compile(r"^[\s│|]*\.\.\.[\s│|]*$")


def examples() -> list[tuple[int, list[str], list[str]]]:
    """(README line, the command's arguments after ``calc``, the lines shown) of each example."""
    text = README.read_text(encoding="utf-8")
    found = []
    for m in BLOCK.finditer(text):
        lines = m.group(1).splitlines()
        command, i = lines[0].removeprefix("$ "), 1
        while command.endswith("\\"):
            command, i = command[:-1] + " " + lines[i].strip(), i + 1
        found.append((text[: m.start()].count("\n") + 1, shlex.split(command)[1:], lines[i:]))
    return found


def pattern(shown: list[str]) -> re.Pattern[str]:
    """The output the README's lines allow, as one regular expression over the whole text."""
    parts = []
    for line in shown:
        line = line.rstrip()
        if ELIDED.match(line):
            parts.append(r"(?:[^\n]*\n)*?")
        elif line.endswith("..."):
            parts.append(re.escape(line.removesuffix("...").rstrip()) + r"[^\n]*\n(?:[^\n]*\n)*?")
        else:
            parts.append(re.escape(line) + r"\n")
    return re.compile("".join(parts))


EXAMPLES = examples()


def test_the_readme_has_its_examples() -> None:
    commands = [args[0] for _, args, _ in EXAMPLES]
    assert {"shoot", "sequence", "exchange", "army"} <= set(commands), commands


def test_every_example_prints_what_the_readme_shows(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "80", "WH40K_CALC_HOME": str(tmp_path)}
    for name in ("WH40K_CALC_FACTIONS", "WH40K_CALC_DATASHEETS", "WH40K_CALC_CSV"):
        env.pop(name, None)
    calc = [sys.executable, "-m", "wh40k_calc"]
    runs = []
    for line, args, shown in EXAMPLES:
        if any("../shared/" in a for a in args) and not SHARED.is_dir():
            continue  # CI has no shared/ (an army list from its rosters)
        proc = subprocess.Popen(
            [*calc, *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        runs.append((line, args, shown, proc))
    assert runs
    for line, args, shown, proc in runs:
        out, _ = proc.communicate(timeout=300)
        got = "".join(f"{row.rstrip()}\n" for row in out.splitlines())
        diff = "\n".join(difflib.unified_diff(shown, got.splitlines(), lineterm="", n=1))
        assert proc.returncode == 0, f"README line {line}: calc {shlex.join(args)}\n{out}"
        same = pattern(shown).fullmatch(got) is not None
        assert same, f"README line {line}: calc {shlex.join(args)}\n{diff}"

"""Headings, notes and table cells never break a line between a figure and the word after it
("80 pts", "11 wounds", "5 Lootas"): fresh-user trials found ``(Orks, 80`` / ``pts, 11 wounds)`` and
``· 5`` / ``Lootas (50 pts)`` at narrow widths (terminal.wrap_lines), and ``Boyz (260`` /
``pts)`` in a compare table's cell (layout.wrap_words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import cli

# (a break at a "·" between two figures, "... of 10" / "models destroyed ...", is between items)
SPLIT = re.compile(r"\d\n\s*(?:pts|wounds?|Boyz|Lootas|Rhino|Intercessor|activations?)\b")
COMMANDS = [
    ("shoot", "lootas", "--target", "boyz"),
    ("compare", "lootas", "--target", "boyz", "--target", "rhino"),
    ("sequence", "--target", "intercessor-squad", "shoot lootas", "fight boyz --charged"),
    ("exchange", "--side-a", "fight boyz --models 20 --charged",
     "--side-b", "fight intercessor-squad --models 10 --leader captain"),
    ("compare", str(Path(__file__).resolve().parents[1] / "examples" / "plans.yaml")),  # cells
]  # fmt: skip


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
@pytest.mark.parametrize("width", range(40, 90, 3))
def test_no_line_breaks_between_a_figure_and_its_word(args, width):
    out = cli(*args, env={"COLUMNS": str(width)})
    assert out.exit_code == 0, out.output
    assert not SPLIT.search(out.stdout), out.stdout[:400]
    assert all(len(line) <= width for line in out.stdout.splitlines()[:3])


def test_the_spaces_are_plain_spaces():
    """The held spaces come out as spaces, whatever the width: copied text is plain."""
    out = cli(*COMMANDS[0], env={"COLUMNS": "44"}).stdout
    assert "\ue000" not in out and "\xa0" not in out
    assert "80 pts, 11 wounds" in " ".join(out.split())

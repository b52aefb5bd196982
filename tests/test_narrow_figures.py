"""Down to 20 columns, a figure is never cut and never parted from its label (issue 21's
leftovers: at ``COLUMNS=20`` the block layout printed ``Mortal wounds`` on one line and its
figure on the next; the totals lines ``Wounds lost 1.253 of`` / ``11``). Checked at 20, 24, 30,
40, 60 and 80 columns on ``calc shoot`` (Lootas, with Devastating Wounds for mortal wounds, and
edition-11 Hellblasters' Hazardous line), ``calc sequence``, ``calc compare`` and ``calc
exchange``:

- every figure of the JSON output (as the text prints it) is a whole token of the text;
- no decimal figure or percentage starts a line: the words before it that say what it is are
  on its line, but for the Hazardous line's figures, followed there by the words that say
  what they count (``1.667 mortal wounds,``);
- in the block layout each ``Mortal wounds`` label has its figure on its line;
- no line is wider than the terminal.

Also the pieces: :func:`~wh40k_calc.layout.label_then_figure` and
:func:`~wh40k_calc.layout.item_lines`, against layouts worked out by hand."""

from __future__ import annotations

import json
import re

import pytest
from helpers import cli

from wh40k_calc.layout import item_lines, label_then_figure
from wh40k_calc.report import pct
from wh40k_calc.wording import of_whole

WIDTHS = [20, 24, 30, 40, 60, 80]
DRAWING = re.compile("[\u2500-\u259f]")  # box lines and bar blocks: not words
FIGURE = re.compile(r"[<>]?\d+\.\d+%?|[<>]?\d+%")
UNITS_AFTER = ("mortal", "models;")  # the Hazardous line's figures, their words after them

LOOTAS = ["shoot", "lootas", "-t", "boyz"]
DEVASTATING = [*LOOTAS, "--add-ability", "*:devastating wounds"]
HAZARD = ["shoot", "hellblaster-squad", "-t", "boyz", "--edition", "11"]
SEQUENCE = ["sequence", "-t", "intercessor-squad", "shoot lootas --models 10",
            "fight boyz --models 20 --charged"]  # fmt: skip
COMPARE = ["compare", "lootas", "--loadout", "default", "--loadout", "kustom-mega-blastas",
           "-t", "boyz"]  # fmt: skip
EXCHANGE = ["exchange", "--side-a", "fight boyz --models 20 --charged",
            "--side-b", "fight intercessor-squad --models 10 --leader captain"]  # fmt: skip


def _text(args: list[str], width: int) -> str:
    res = cli(*args, env={"COLUMNS": str(width)})
    assert res.exit_code == 0, res.output
    return res.stdout


def _tokens(line: str) -> list[str]:
    return DRAWING.sub(" ", line).split()


def _activation_figures(o: dict) -> list[str]:
    out = []
    for w in o["weapons"]:
        out += [f"{v:.3f}" for v in w["expected"].values()]
    out += [f"{v:.3f}" for k, v in o["expected"].items() if k not in ("wounds_lost",)]
    out.append(of_whole(o["expected"]["wounds_lost"], o["target"]["wounds"]))
    out += [pct(r["at_least"]) for r in o["kill_table"] if r["at_least"] > 0]
    losses = o.get("attacker_losses") or {}
    if losses.get("hazard_mortal_wounds"):
        out += [f"{losses['hazard_mortal_wounds']:.3f}", pct(losses["at_least_one"])]
    return out


def _check(out: str, width: int, figures: list[str]) -> None:
    have = {t for line in out.splitlines() for t in _tokens(line)}
    missing = [f for f in figures if f not in have]
    assert not missing, (width, missing[:10])
    for line in out.splitlines():
        assert len(line) <= width, (width, line)
        toks = _tokens(line)
        if toks and FIGURE.fullmatch(toks[0]):
            assert len(toks) > 1 and toks[1] in UNITS_AFTER, (width, line)


@pytest.mark.parametrize(
    "args", [LOOTAS, DEVASTATING, HAZARD], ids=["lootas", "devastating", "hazard"]
)
def test_shoot(args: list[str]) -> None:
    obj = json.loads(cli(*args, "--json").stdout)
    figures = _activation_figures(obj)
    for width in WIDTHS:
        out = _text(args, width)
        _check(out, width, figures)


def test_the_block_layout_keeps_mortal_wounds_with_its_figure() -> None:
    """At 20 columns ``calc shoot`` is a block per weapon; ``  Mortal wounds 0.000`` is 21
    cells, so it gives up its two spaces rather than its figure (the trial's output had the
    figure alone on the next line)."""
    out = _text(DEVASTATING, 20).splitlines()
    rows = [line for line in out if "Mortal wounds" in line]
    assert rows == [" Mortal wounds 0.519", " Mortal wounds 0.194", " Mortal wounds 0.713"]


def test_sequence_compare_and_exchange() -> None:
    seq = json.loads(cli(*SEQUENCE, "--json").stdout)
    seq_figures = [pct(r["at_least"]) for r in seq["kill_table"] if r["at_least"] > 0]
    for step in seq["steps"]:
        seq_figures += [f"{step['expected'][k]:.2f}" for k in ("hits", "wounds", "damage")]
    rows = json.loads(cli(*COMPARE, "--json").stdout)
    compare_figures = [f"{r['expected']['damage']:.2f}" for r in rows]
    ex = json.loads(cli(*EXCHANGE, "--json").stdout)
    left = ex["result"]["expected_models_left_by_kind"]["b"]
    ex_figures = [pct(ex["result"]["p_destroyed"][k]) for k in ("a", "b")]
    ex_figures += [of_whole(left["Intercessor"], 9, decimals=2)]  # in "(Intercessor 0.62 of 9,"
    for width in WIDTHS:
        _check(_text(SEQUENCE, width), width, seq_figures)
        _check(_text(COMPARE, width), width, compare_figures)
        _check(_text(EXCHANGE, width), width, ex_figures)


# ---------------------------------------------------------------------------------------------
# The pieces


def test_a_label_keeps_its_last_words_beside_its_figure() -> None:
    assert label_then_figure("Mortal wounds", "0.000", 20) == ["Mortal wounds 0.000"]
    assert label_then_figure("Mortal wounds", "123.456", 20) == ["Mortal", "wounds 123.456"]
    assert label_then_figure("Mortal wounds", "123.456", 10) == ["Mortal", "wounds", "123.456"]
    # a figure with words after its number: the number stays beside the label's last line
    assert label_then_figure("After 2 steps: wounds lost", "9.719 of 10", 20) == [
        "After 2 steps:",
        "wounds lost 9.719",
        "of 10",
    ]
    assert label_then_figure("models destroyed", "4.819 of 5", 20) == [
        "models",
        "destroyed 4.819 of 5",
    ]
    # a figure kept whole: on a line of its own where no label word fits beside it
    assert label_then_figure("attacker suffers", "1.667 mortal wounds,", 24, split=False) == [
        "attacker suffers",
        "1.667 mortal wounds,",
    ]


def test_items_give_up_their_indent_before_their_figure() -> None:
    items = [("Models", "4"), ("Mortal wounds", "0.000"), ("Damage", "1.728")]
    assert item_lines(items, 20, 2) == ["  Models 4", " Mortal wounds 0.000", "  Damage 1.728"]
    assert item_lines(items, 40, 2) == ["  Models 4 · Mortal wounds 0.000", "  Damage 1.728"]
    assert item_lines([("Mortal wounds", "123.456")], 20, 2) == ["  Mortal", "  wounds 123.456"]

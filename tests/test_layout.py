"""Every command's output at 40, 50, 60, 80 and 120 columns: every figure whole and no word
broken inside (wh40k_calc/layout.py; issue 21, A3/A4).

The fresh-user trial found ``calc shoot`` at 60 columns dropping the Weapon column and cutting
figures (``3.1…``, ``Attac…``), ``calc sequence`` at 50 cutting figures, and weapon names
broken inside a word at 80 (``Master-craft|ed boltgun``, ``(Shield-capt|ain)``). Two checks,
independent of how a width is laid out:

- **figures**: each figure of the JSON output (``--json`` of the same command), formatted as
  the text prints it, is a whole token of the text at every width;
- **words**: every token of the text at a narrow width is a token of the same output at 200
  columns (where nothing needs to wrap), or a part of one split after a hyphen. A word cut
  anywhere else (``craft``, ``ed``, ``3.1…``) is in neither.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import cli

from wh40k_calc.compare.table import probability_text
from wh40k_calc.layout import Words, line_count, longest_piece, wrap_words
from wh40k_calc.report import pct
from wh40k_calc.wording import of_whole

WIDTHS = [40, 50, 60, 80, 120]
DRAWING = re.compile("[\u2500-\u259f]")  # box lines and bar blocks: not words
HYPHEN = re.compile(r"(?<=[^\W\d_]-)(?=[^\W\d_])")


def text(args: list[str], width: int) -> str:
    res = cli(*args, env={"COLUMNS": str(width)})
    assert res.exit_code == 0, res.output
    return res.stdout


def tokens(out: str) -> list[str]:
    return DRAWING.sub(" ", out).split()


def word(token: str) -> str:
    """A token as a word to compare: lower case, without the punctuation after it (a heading
    that joins two, "phases;" for "phases")."""
    return token.lower().rstrip(",;:")


def check_words(args: list[str], width: int, out: str) -> None:
    legit = set()
    for t in tokens(text(args, 200)):
        parts = HYPHEN.split(word(t))  # a word may break after any of its hyphens
        n = len(parts)
        legit |= {"".join(parts[i:j]) for i in range(n) for j in range(i + 1, n + 1)}
    broken = [t for t in tokens(out) if word(t) not in legit]
    assert not broken, (width, broken[:10])
    assert all(len(line) <= width for line in out.splitlines()), width


def check_figures(figures: list[str], width: int, out: str) -> None:
    have = set(tokens(out))
    missing = [f for f in figures if f not in have]
    assert not missing, (width, missing[:10])


def activation_figures(o: dict[str, Any], sampled: bool = False) -> list[str]:
    """What ``calc shoot``/``fight`` print of their JSON object: each weapon's count and
    expected figures (3 decimals), the totals, the kill table's printed rows, the wounds
    lost and models destroyed; with the sampler, the exact-vs-sampled table's figures."""
    out = []
    for w in o["weapons"]:
        out.append(str(w["count"]))
        out += [f"{v:.3f}" for k, v in w["expected"].items()]
    e = o["expected"]
    out += [f"{e[k]:.3f}" for k in ("attacks", "hits", "wounds", "failed_saves", "damage")]
    out.append(of_whole(e["models_destroyed"], o["target"]["models"]))
    rows = [r for r in o["kill_table"] if r["at_least"] > 0]
    out += [pct(r["at_least"]) for r in rows]
    if sampled:
        se = o["sample"]["standard_error"]["expected"]
        for k in ("hits", "wounds", "damage", "models_destroyed"):
            out += [f"{e[k]:.4f}", f"{o['sample']['expected'][k]:.4f}", f"{se[k]:.4f}"]
    return out


ACTIVATIONS = [
    ["shoot", "lootas", "-t", "boyz", "--method", "both", "--trials", "2000"],
    ["shoot", "captain-on-bike", "-t", "intercessor-squad"],  # Master-crafted boltgun
    ["fight", "custodian-guard", "--leader", "shield-captain", "-t", "intercessor-squad"],
]


@pytest.mark.parametrize("args", ACTIVATIONS, ids=["lootas", "captain", "custodians"])
def test_shoot_and_fight(args: list[str]) -> None:
    obj = json.loads(cli(*args, "--json").stdout)
    figures = activation_figures(obj, sampled="both" in args)
    for width in WIDTHS:
        out = text(args, width)
        check_figures(figures, width, out)
        check_words(args, width, out)
        assert "…" not in out


def test_sequence() -> None:
    args = ["sequence", "-t", "intercessor-squad", "shoot lootas --models 10",
            "fight boyz --models 20 --charged"]  # fmt: skip
    obj = json.loads(cli(*args, "--json").stdout)
    figures = []
    for step in obj["steps"]:
        figures += [f"{step['expected'][k]:.2f}" for k in ("hits", "wounds", "damage")]
        cum = step["cumulative"]
        figures.append(of_whole(cum["models_destroyed"], obj["target"]["models"], decimals=2))
        figures.append(pct(cum["p_destroyed"]))
    figures += [pct(r["at_least"]) for r in obj["kill_table"] if r["at_least"] > 0]
    for width in WIDTHS:
        out = text(args, width)
        check_figures(figures, width, out)
        check_words(args, width, out)
        assert "shoot:" in out and "fight:" in out  # the activations are named at any width


def test_compare() -> None:
    args = ["compare", "lootas", "--loadout", "default", "--loadout", "kustom-mega-blastas",
            "-t", "boyz", "-t", "intercessor-squad"]  # fmt: skip
    rows = json.loads(cli(*args, "--json").stdout)
    figures = []
    for r in rows:
        kill = r["kill_table"]
        figures += [
            f"{r['expected']['damage']:.2f}",
            of_whole(r["expected"]["models_destroyed"], r["target"]["models"]),
            probability_text(kill[-1]["at_least"]),
            f"{r['attacker_losses']['models_destroyed']:.3f}",
        ]
    for width in WIDTHS:
        out = text(args, width)
        check_figures(figures, width, out)
        check_words(args, width, out)


def test_show() -> None:
    args = ["show", "captain-on-bike"]
    ds = json.loads(cli(*args, "--json").stdout)
    figures = []
    for m in ds["models"]:
        figures += [f'{m["M"]}"', str(m["T"]), f"{m['Sv']}+", str(m["W"]), f"{m['Ld']}+"]
    for w in ds["weapons"]:
        figures += [str(w["A"]), str(w["S"]), str(w["AP"]), str(w["D"])]
        figures.append("Melee" if w["range"] == "melee" else f'{w["range"]}"')
    for width in WIDTHS:
        out = text(args, width)
        check_figures(figures, width, out)
        check_words(args, width, out)


@pytest.mark.parametrize("args", [["effects"], ["units", "custodian"]])
def test_effects_and_units(args: list[str]) -> None:
    for width in WIDTHS:
        check_words(args, width, text(args, width))


# ---------------------------------------------------------------------------------------------
# The pieces


def test_names_break_between_words_and_after_hyphens_only() -> None:
    lines = [t.plain for t in wrap_words(Words("Master-crafted boltgun").text, 10)]
    assert lines == ["Master-", "crafted", "boltgun"]
    lines = [t.plain for t in wrap_words(Words("Guardian spear (Shield-captain)").text, 14)]
    assert lines == ["Guardian spear", "(Shield-", "captain)"]
    assert [t.plain for t in wrap_words(Words("AP -1 D3").text, 3)] == ["AP", "-1", "D3"]
    assert longest_piece("Master-crafted boltgun") == 7  # "Master-" and "crafted"
    assert line_count("Master-crafted boltgun", 14) == 2
    # only a piece longer than the line is folded
    assert [t.plain for t in wrap_words(Words("abcdefgh").text, 3)] == ["abc", "def", "gh"]


def test_a_table_that_fits_prints_as_rich_prints_it() -> None:
    """At 80 and 120 columns the README's first look is unchanged: every table fits as
    built."""
    for width in (80, 120):
        out = text(["shoot", "lootas", "-t", "boyz"], width)
        assert (
            "│ Deffgun    │      4 │   8.000 │ 1.556 │  1.037 │  0.864 │  0.000 │  1.728 │" in out
        )
        assert "│              ≥ 1 │      73.58% │ ███████████████████████▌         │" in out


def test_columns_are_stacked_before_anything_is_cut() -> None:
    """At 60 columns ``calc shoot``'s weapons table does not fit (it needs 78 with its words
    whole): turned on its side, one column per weapon; at 40 the comparison table of
    ``--method both`` is a block per figure."""
    out = text(["shoot", "lootas", "-t", "boyz"], 60).splitlines()
    assert any(line.split("┃")[1:4] == [" Weapon        ", " Deffgun ", " Big shoota "]
               for line in out)  # fmt: skip
    out = text(["shoot", "lootas", "-t", "boyz", "--method", "both", "--trials", "2000"], 40)
    assert "\nhits\n  Exact 2.7222 · Sampled " in out


def test_army() -> None:
    """``calc army`` (its units ranked, then the whole army in sequence) at every width."""
    army = Path(__file__).parent / "data" / "lists" / "waaagh.gw-app.txt"
    args = ["army", str(army), "-t", "intercessor-squad"]
    obj = json.loads(cli(*args, "--json").stdout)
    figures = []
    for u in obj["units"]:
        if u["error"] is None:
            figures.append(f"{u['expected_damage']:.2f}")
            figures.append(probability_text(u["p_all"]))
    for width in WIDTHS:
        out = text(args, width)
        check_figures(figures, width, out)
        check_words(args, width, out)

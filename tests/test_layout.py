"""Every command's output at 40, 50, 60, 80 and 120 columns (``calc exchange`` at every width
from 30 to 130): every figure whole and no word broken inside (wh40k_calc/layout.py; issue 21,
A3/A4; the exchange's tables: trial defect 2).

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

import functools
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


@functools.lru_cache(maxsize=16)
def wide_text(args: tuple[str, ...]) -> str:
    """``calc ARGS`` at 200 columns, the reference of :func:`check_words`: run once a worker
    for each command, not once for each width checked (the output depends on nothing else)."""
    return text(list(args), 200)


def tokens(out: str) -> list[str]:
    return DRAWING.sub(" ", out).split()


def word(token: str) -> str:
    """A token as a word to compare: lower case, without the punctuation after it (a heading
    that joins two, "phases;" for "phases")."""
    return token.lower().rstrip(",;:")


def check_words(args: list[str], width: int, out: str, reference: str | None = None) -> None:
    """No token of ``out`` is a word broken inside (see the module docstring): each is a
    token of ``reference`` (default: the same command at 200 columns) or a part of one split
    after a hyphen; no line is wider than ``width``."""
    legit = set()
    for t in tokens(wide_text(tuple(args)) if reference is None else reference):
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


# ---------------------------------------------------------------------------------------------
# calc exchange at every width from 30 to 130 columns (trial defect 2: its tables were cut
# between about 46 and 66 columns, a column dropped, figures cut to "0." and "10…")

EXCHANGES = {
    "fight": ["--side-a", "fight boyz --models 20 --charged",
              "--side-b", "fight intercessor-squad --models 10 --leader captain"],
    "hazardous": ["--side-a", "shoot lootas --models 10 --loadout kustom-mega-blasta",
                  "--side-b", "shoot 'space marines/hellblaster squad' --models 10",
                  "--rounds", "2", "--edition", "11"],
    "both": ["--side-a", "fight boyz --models 20 --charged",
             "--side-b", "fight intercessor-squad --models 10",
             "--method", "both", "--trials", "2000"],
}  # fmt: skip


def _exchange(args: list[str], monkeypatch: pytest.MonkeyPatch):
    """The ExchangeResult ``calc exchange ARGS`` renders (run once), and its JSON."""
    from wh40k_calc.exchange import render
    from wh40k_calc.exchange.output import to_json_exchange

    kept = []
    monkeypatch.setattr(render, "render_exchange", lambda ex, console: kept.append(ex))
    assert cli("exchange", *args).exit_code == 0
    monkeypatch.undo()
    return kept[0], to_json_exchange(kept[0])


def _rendered(ex: Any, width: int) -> str:
    """The exchange's text at ``width`` columns, as ``calc exchange`` prints it."""
    import io

    from rich.console import Console

    from wh40k_calc.exchange.render import render_exchange

    out = io.StringIO()
    render_exchange(ex, Console(width=width, file=out, highlight=False, color_system=None))
    return out.getvalue()


def exchange_figures(obj: dict[str, Any]) -> list[str]:
    """What the text prints of ``calc exchange --json``: each activation's P(made), expected
    attacks and damage, models destroyed (of the other unit's models) and, where one side
    loses models to its own attacks, own losses; both units' chances and models left; with
    ``--method both``, the exact and sampled figures of the comparison."""
    models = {k: obj["sides"][k]["models"] for k in ("a", "b")}
    hazard = any(abs(a["expected"]["own_models_lost"]) > 1e-9 for a in obj["activations"])
    out = []
    for a in obj["activations"]:
        e = a["expected"]
        other = models["b" if a["side"] == "a" else "a"]
        out += [pct(a["p_made"]), f"{e['attacks']:.2f}", f"{e['damage']:.2f}"]
        out.append(of_whole(e["models_destroyed"], other, decimals=2))
        if hazard:
            out.append(f"{e['own_models_lost']:.2f}")
    r = obj["result"]
    out += [pct(r["p_destroyed"]["a"]), pct(r["p_destroyed"]["b"]), pct(r["p_both_destroyed"])]
    out += [of_whole(r["expected_models_left"][k], models[k], decimals=2) for k in "ab"]
    if "sample" in obj:
        for a, s in zip(obj["activations"], obj["sample"]["activations"], strict=True):
            out += [f"{a['p_made']:.4f}", f"{s['p_made']:.4f}"]
            out += [f"{a['expected']['attacks']:.4f}", f"{s['expected']['attacks']:.4f}"]
    return out


@pytest.mark.parametrize("name", list(EXCHANGES))
def test_exchange_at_every_width(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ex, obj = _exchange(EXCHANGES[name], monkeypatch)
    figures = exchange_figures(obj)
    wide = _rendered(ex, 200)
    for width in range(30, 131):
        out = _rendered(ex, width)
        check_figures(figures, width, out)
        # the joint table's ranges of counts depend on the width ("1-11", "1-5"): the words
        # checked are those with a letter, every figure is checked above
        lettered = "\n".join(
            " ".join(t for t in tokens(line) if re.search(r"[^\W\d_]", t))
            for line in out.splitlines()
        )
        check_words([], width, lettered, reference=wide)
        assert all(len(line) <= width for line in out.splitlines()), width
        assert "…" not in out, width


DEVASTATORS = ["shoot", "devastator squad", "--add-ability", "devastating wounds", "-t", "boyz",
               "--target-leader", "warboss", "--edition", "11"]  # fmt: skip


def test_the_defenders_allocation_orders_read_one_a_line() -> None:
    """Boltguns with [DEVASTATING WOUNDS] into Boyz led by a Warboss (edition 11, 05.03): the
    defender's orders of one weapon were one run-on sentence wrapped at 80 columns. Now: the
    head line, then one ``  - ORDER for COUNTS`` line per order (continued 4 columns in), no
    line over 80, no word cut; the words are the JSON sentence's, in order; a count split by
    Devastating Wounds reads "N save rolls with M Devastating Wounds"."""
    out = json.loads(cli(*DEVASTATORS, "--json").stdout)
    said = [c for c in out["choices"] if "defender's allocation order" in c]
    assert len(said) == 1
    head, orders = said[0].split(": ", 1)[0], said[0].split("): ", 1)[1].split("; ")
    assert head == "Boltgun" and len(orders) >= 2
    assert any(re.search(r"\d+ save rolls with [\d, -]+ Devastating Wounds", o) for o in orders)
    lines = text(DEVASTATORS, 80).splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Choice: Boltgun: defender"))
    assert lines[start].endswith("(05.03, fewest models destroyed):")
    block = lines[start + 1 :]
    block = block[: next(i for i, ln in enumerate(block) if not ln.startswith("  "))]
    assert sum(ln.startswith("  - ") for ln in block) == len(orders)
    assert all(ln.startswith(("  - ", "    ")) and len(ln) <= 80 for ln in block)
    assert " ".join(ln[4:] for ln in block).split() == " ".join(orders).split()


def test_print_hanging_indents_the_lines_after_the_first() -> None:
    """At 20 columns after a 4-column lead: 16 columns a line, words whole (hand-wrapped:
    "Boy ×9, Boss" is 12, with " Nob," 17; "Nob, Warboss for" 16; "1-10 save rolls" 15)."""
    from rich.console import Console
    from rich.text import Text

    from wh40k_calc.terminal import print_hanging

    console = Console(width=20, record=True, color_system=None)
    print_hanging(console, Text("  - "), Text("Boy ×9, Boss Nob, Warboss for 1-10 save rolls"))
    assert console.export_text().splitlines() == [
        "  - Boy ×9, Boss",
        "    Nob, Warboss for",
        "    1-10 save rolls",
    ]


@pytest.mark.parametrize("columns", ["80", "120"])
def test_table_titles_have_no_trailing_spaces(columns: str) -> None:
    """rich pads a left-justified title to the table's width ("Kill table" and 60 spaces); the
    titles print on their own line, as rich styles them, without the padding (issue 21)."""
    out = cli("shoot", "lootas", "--target", "boyz", env={"COLUMNS": columns}).output
    lines = out.splitlines()
    for title in ("Expected per activation", "Kill table"):
        assert title in lines, (title, [ln for ln in lines if ln.startswith(title)])


@pytest.mark.parametrize("columns", ["80", "120"])
def test_army_table_rows_have_no_trailing_spaces(columns: str) -> None:
    """``calc army``'s tables (the ranked units, the whole army in sequence: SIMPLE_HEAD, no
    edge) printed rich's padding of the last cell at the end of each row; the README block
    has none. No line of the output ends in a space."""
    army = Path(__file__).resolve().parents[1] / "examples" / "orks-list.txt"
    args = ["army", str(army), "--target", "Space Marines/Intercessor Squad"]
    out = cli(*args, env={"COLUMNS": columns}).output
    assert " #  Unit / weapons used" in out
    assert [ln for ln in out.splitlines() if ln.endswith(" ")] == []


def test_a_table_prints_as_rich_prints_it_less_the_blank_line_ends() -> None:
    """print_table's rows are rich's own, each less the spaces that end it and show nothing
    (a bar's empty part, "on default", included); a right edge keeps every line as it is."""
    from rich import box
    from rich.bar import Bar
    from rich.console import Console
    from rich.table import Table

    from wh40k_calc.layout import print_table

    def table(edge: bool) -> Table:
        t = Table(box=box.SQUARE if edge else box.SIMPLE_HEAD, show_edge=edge)
        t.add_column("Name")
        t.add_column("Bar", no_wrap=True)
        t.add_row("Long name here", Bar(1.0, 0.0, 0.25, width=12))
        t.add_row("Short", "x")
        return t

    for edge in (False, True):
        ours = Console(width=60, record=True, color_system=None)
        print_table(ours, table(edge))
        rich = Console(width=60, record=True, color_system=None)
        rich.print(table(edge))
        theirs = rich.export_text().splitlines()
        assert any(ln.endswith(" ") for ln in theirs) != edge  # rich pads the last cell
        expected = theirs if edge else [ln.rstrip(" ") for ln in theirs]
        assert ours.export_text().splitlines() == expected

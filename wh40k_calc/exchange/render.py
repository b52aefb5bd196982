"""An exchange's result for people: the two units, one row per activation (its chance of being
made, its expected attacks, damage and models destroyed), both units after the exchange, and a
small table of the joint distribution of models left, then each activation's choices and
notes. Every table is printed with :func:`~wh40k_calc.layout.print_table` (it fits the
terminal, figures whole, words unbroken). Rendering only: every number comes from
:class:`~wh40k_calc.exchange.result.ExchangeResult`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..edition import heading_words
from ..report import ComparisonRow, _unit_label, comparison_table, pct, probability_sd
from ..terminal import print_joined, print_wrapped
from ..wording import count, of_whole
from .result import Chain, ExchangeResult

MAX_COLUMNS = 6  # bins of B's models left in the joint table (0 always its own), at 80 columns
MAX_ROWS = 8  # bins of A's models left


def render_exchange(ex: ExchangeResult, console: Any) -> None:
    """Print the exchange: the units, the activations, both units after it, the joint table,
    exact vs sampled with ``--method both``, and each activation's details."""
    from rich.text import Text

    from ..layout import print_table

    setup = ex.setup
    for key, lead in (("a", "Exchange between "), ("b", "and ")):
        unit = setup.tracks[key].unit
        start = setup.sides[key].wounds_left
        first = (*setup.tracks[key].profile.bodyguard, *setup.tracks[key].profile.characters)[0]
        extra = f"{first.name} on {start} of {first.W}" if start is not None else ""
        print_wrapped(console, Text.assemble(f"{lead}{key.upper()}: ", *_unit_label(unit, extra)))
    turns = setup.turns
    rounds = f"{count(turns // 2, 'battle round')}" if turns % 2 == 0 else count(turns, "turn")
    if turns % 2 == 0:
        rounds += f" ({count(turns, 'turn')})"
    chain = ex.primary
    sheets = [ds for sel in setup.selections for ds in sel.datasheets()]
    note = setup.selections[0].edition_note if setup.selections else ""
    tail: list = [heading_words(setup.edition, note, sheets), (ex.method, "cyan")]
    if ex.method == "sample":
        tail.append(f" ({count(chain.trials, 'trial')}, seed {chain.seed})")
    opener = setup.steps[0].active.upper() if setup.steps else "A"
    print_joined(console, Text(f"{rounds}, starting with {opener}'s turn"), Text.assemble(*tail))
    if ex.exact_declined is not None:
        console.print(
            Text.assemble(
                ("The exact engine declined", "yellow"),
                f" ({ex.exact_declined}): the figures below are the sampler's.",
            )
        )
    print_table(console, _activations_table(ex, chain), label_columns=3)
    _after(ex, chain, console)
    width = console.size.width
    columns = max(2, min(MAX_COLUMNS, (width - 18) // 9))
    joint = joint_table(chain, setup.tracks["a"].models, setup.tracks["b"].models, columns)
    print_table(console, joint)
    if ex.method == "both":
        print_table(console, _comparison(ex))
    _details(ex, chain, console)


def _activations_table(ex: ExchangeResult, chain: Chain):
    from rich import box
    from rich.table import Table

    from ..layout import Words

    setup = ex.setup
    hazard = any(abs(f.expected["own_models_lost"]) > 1e-9 for f in chain.steps)
    table = Table(
        title="Per activation, each unit with the models it has left (a unit with Fights "
        "First, as a charging one, fights first)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        collapse_padding=True,
    )
    table.add_column("#", no_wrap=True, justify="right")
    table.add_column("Turn", no_wrap=True)
    table.add_column("Activation")
    for col in ("P(made)", "Attacks", "Damage", "Models\ndestroyed"):
        table.add_column(col, justify="right", no_wrap=True)
    if hazard:
        table.add_column("Own\nlosses", justify="right", no_wrap=True)
    for p, f in zip(setup.steps, chain.steps, strict=True):
        other = setup.tracks[p.other].models
        what = f"{p.side.upper()} {'shoots' if p.step.phase == 'shooting' else 'fights'}"
        if p.engaged:
            what += " (engaged)"
        elif p.step.charged:
            what += " (charged)"
        elif p.fights_first:
            what += " (Fights First)"
        row: list[str | Words] = [
            str(p.number),
            f"{p.turn} ({p.active.upper()})",
            Words(what),
            pct(f.p_made),
            f"{f.expected['attacks']:.2f}",
            f"{f.expected['damage']:.2f}",
            of_whole(f.expected["models_destroyed"], other, decimals=2),
        ]
        if hazard:
            row.append(f"{f.expected['own_models_lost']:.2f}")
        table.add_row(*row)
    return table


def _after(ex: ExchangeResult, chain: Chain, console: Any) -> None:

    from ..layout import print_items

    setup = ex.setup
    s = chain.summary
    # each figure with the rest of its distribution summed (report.pct: never 100.00% while
    # a model may be left)
    pd, cells = s.p_destroyed, s.joint.ravel()
    rest = {k: float(m[1:].sum()) for k, m in s.models_left.items()}  # a model left
    both_not = float(cells[1:].sum())  # every cell but (0, 0): a model of either left
    figures = (pct(pd["a"], rest["a"]), pct(pd["b"], rest["b"]), pct(s.p_both, both_not))
    labels = (f"After {count(setup.turns, 'turn')}: P(A destroyed)", "P(B destroyed)", "P(both)")
    print_items(console, list(zip(labels, figures, strict=True)), bold=figures)
    left = s.expected_models_left
    for key in ("a", "b"):
        track = setup.tracks[key]
        kinds = s.kinds_left.get(key, {})
        lost_some = float(s.models_left[key][: track.models].sum()) > 0.0  # one may be lost
        shown = of_whole(left[key], track.models, decimals=2, short=lost_some)
        if shown == "0.00" and rest[key] > 0.0:  # a model may be left: not none
            shown = "<0.01"
        items = [(f"{key.upper()} models left", f"{shown} of {track.models}")]
        if len(kinds) > 1:  # (Boy 14.31 of 19, Boss Nob >0.99 of 1)
            whole = {
                name: sum(track.unit.groups[i].count for i in groups)
                for name, groups in track.kinds()
            }
            for n, (name, v) in enumerate(kinds.items()):
                end = ")" if n == len(kinds) - 1 else ","
                part = of_whole(v, whole[name], decimals=2)
                part = "<0.01" if part == "0.00" and v > 0.0 else part  # (a sum of products)
                figure = f"{part} of {whole[name]}{end}"
                items.append((f"({name}" if n == 0 else name, figure))
        print_items(console, items, bold=(shown,), sep=" ")


TAIL = 5e-4  # a range of counts less likely than this at either end joins its neighbour


def bins(dist: np.ndarray, most: int) -> list[tuple[int, int]]:
    """Ranges (first, last) of models left to show as rows or columns: 0 on its own, then the
    counts from 1 up to the largest with a chance, in at most ``most`` ranges in all, of equal
    width over the counts that are not in either tail (each tail, less likely than
    :data:`TAIL`, joins the range next to it)."""
    dist = np.asarray(dist, dtype=float)
    live = np.flatnonzero(dist > 0)
    top = int(live[-1]) if len(live) else 0
    if top + 1 <= most:
        return [(k, k) for k in range(top + 1)]
    body = dist[1 : top + 1]
    low = np.cumsum(body)
    high = np.cumsum(body[::-1])[::-1]
    a = 1 + int(np.argmax(low >= TAIL)) if (low >= TAIL).any() else 1
    b = 1 + int(np.flatnonzero(high >= TAIL)[-1]) if (high >= TAIL).any() else top
    if a > b:
        a = b = 1 + int(np.argmax(body))
    n = min(most - 1, b - a + 1)
    edges = np.linspace(a, b + 1, n + 1)
    out = [(0, 0)]
    for i in range(n):
        lo, hi = round(float(edges[i])), round(float(edges[i + 1])) - 1
        if hi >= lo:
            out.append((lo, hi))
    out[1] = (1, out[1][1])
    out[-1] = (out[-1][0], top)
    return out


def _label(r: tuple[int, int]) -> str:
    return str(r[0]) if r[0] == r[1] else f"{r[0]}-{r[1]}"


def joint_table(chain: Chain, models_a: int, models_b: int, columns: int = MAX_COLUMNS):
    """P(A has i models left and B has j), with ranges of counts where there are many (at most
    ``columns`` ranges of B's), and each row's and column's total."""
    from rich import box
    from rich.table import Table

    s = chain.summary
    rows = bins(s.models_left["a"], MAX_ROWS)
    cols = bins(s.models_left["b"], columns)
    table = Table(
        title=f"Models left: A of {models_a} (rows) × B of {models_b} (columns)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        collapse_padding=True,
    )
    table.add_column("A \\ B", no_wrap=True, justify="right")
    for c in cols:
        table.add_column(_label(c), justify="right", no_wrap=True)
    table.add_column("all", justify="right", no_wrap=True, style="dim")
    j = s.joint

    def block(rs: slice, cs: slice) -> tuple[float, float]:
        """A block's probability and the rest's, each summed from its own cells (report.pct:
        a block short of certain by any rest is never 100.00%)."""
        inside = np.zeros(j.shape, dtype=bool)
        inside[rs, cs] = True
        return float(j[inside].sum()), float(j[~inside].sum())

    every = slice(None)
    for r in rows:
        rs = slice(r[0], r[1] + 1)
        cells = [block(rs, slice(c[0], c[1] + 1)) for c in cols]
        shown = [pct(p, rest) if p > 0 else "" for p, rest in cells]
        table.add_row(_label(r), *shown, pct(*block(rs, every)))
    totals = [pct(*block(every, slice(c[0], c[1] + 1))) for c in cols]
    table.add_row("all", *totals, "", style="dim")
    return table


def _comparison(ex: ExchangeResult):
    e, s = ex.exact, ex.sample
    assert e is not None and s is not None
    rows: list[ComparisonRow] = []
    for p, fe, fs in zip(ex.setup.steps, e.steps, s.steps, strict=True):
        label = f"{p.number} {p.side.upper()}"
        rows.append(
            (
                f"{label} P(made)",
                fe.p_made,
                fs.p_made,
                fs.standard_error["p_made"],
                probability_sd(fe.p_made),
            )
        )
        for key, name in (("attacks", "attacks"), ("models_destroyed", "destroyed")):
            rows.append(
                (f"{label} {name}", fe.expected[key], fs.expected[key], fs.standard_error[key])
            )
    se = s.summary.standard_error
    for key in ("a", "b"):
        rows.append(
            (
                f"P({key.upper()} destroyed)",
                e.summary.p_destroyed[key],
                s.summary.p_destroyed[key],
                se["p_destroyed"][key],
                probability_sd(e.summary.p_destroyed[key]),
            )
        )
        rows.append(
            (
                f"{key.upper()} models left",
                e.summary.expected_models_left[key],
                s.summary.expected_models_left[key],
                se["expected_models_left"][key],
            )
        )
    rows.append(
        (
            "P(both destroyed)",
            e.summary.p_both,
            s.summary.p_both,
            se["p_both"],
            probability_sd(e.summary.p_both),
        )
    )
    return comparison_table(rows, s.trials, s.seed)


def _details(ex: ExchangeResult, chain: Chain, console: Any) -> None:
    """Each side's activations as written, then what the activations said — abilities not
    modelled, choices, notes — each once, with the activations it is about."""
    from rich.text import Text

    for key in ("a", "b"):
        for st in ex.setup.sides[key].steps:
            console.print(Text.assemble((f"{key.upper()} {st.verb}: ", "bold"), st.text))
    said: dict[tuple[str, str], list[int]] = {}
    for p, f in zip(ex.setup.steps, chain.steps, strict=True):
        for kind, texts in (
            ("not modelled", f.not_modelled),
            ("choice", f.said_choices()),
            ("note", f.notes),
        ):
            for t in texts:
                said.setdefault((kind, t), []).append(p.number)
    every = len(ex.setup.steps)
    for (kind, text), numbers in said.items():
        which = "" if len(numbers) == every and every > 1 else f" ({_numbers(numbers)})"
        style = "yellow" if kind == "not modelled" else "dim"
        head = kind[0].upper() + kind[1:]
        console.print(Text.assemble((f"{head}{which}: ", style), text))
    for n in ex.notes:
        console.print(Text.assemble(("Note: ", "dim"), n))


def _numbers(numbers: list[int]) -> str:
    word = "activation" if len(numbers) == 1 else "activations"
    return f"{word} {', '.join(str(n) for n in numbers)}"

"""A sequence's result for people: one row per step (its own expected hits, wounds and damage;
the whole sequence's models destroyed, wounds lost and P(unit destroyed) so far, with a bar),
the kill table of the whole sequence, the exact-vs-sampled table with ``--method both``, then
each step's conditions, effects, orders, choices and notes. Rendering only: every number comes
from :class:`~wh40k_calc.sequence.run.SequenceResult`."""

from __future__ import annotations

from typing import Any

from ..edition import heading_words
from ..report import (
    COND_KEYS,
    ComparisonRow,
    _allocation_text,
    _effects_text,
    _unit_label,
    _weapon_not_modelled,
    comparison_table,
    count_sd,
    hazard_items,
    pct,
    print_characters,
    print_choices,
    print_kill_table,
    probability_sd,
    roles,
    wounded_model,
    wounded_text,
)
from ..terminal import print_joined
from ..wording import count, of_whole
from .run import SequenceResult


def _activation_text(sr) -> str:
    """``shoot: 10 Lootas`` / ``fight: Lord Invocatus`` / ``fight: Boyz led by Warboss``."""
    unit = sr.result.plan.attacker
    verb = "shoot" if sr.result.selection.phase == "shooting" else "fight"
    who = unit.name if unit.is_attached or unit.models == 1 else f"{unit.models} {unit.name}"
    return f"{verb}: {who}"


def render_sequence(seq: SequenceResult, console: Any) -> None:
    """Print the sequence: header, steps table, the whole sequence's figures and kill table,
    Leaders, Hazardous, exact vs sampled, and each step's details."""
    from rich.text import Text

    first = seq.steps[0].result
    tgt = first.plan.target
    last = seq.primary(len(seq.steps) - 1)
    wounds = count(first.activation.target.wounds, "wound")
    wounded = wounded_model(first.activation.target, first.selection.target_wounds_left)
    if wounded is not None:
        wounds += f"; {wounded_text(wounded)}"
    sheets = [ds for sr in seq.steps for ds in sr.result.selection.datasheets()]
    tail: list[str | tuple[str, str]] = [
        heading_words(first.selection.edition, first.selection.edition_note, sheets),
        ("both" if seq.method == "both" else seq.method, "cyan"),
    ]
    if seq.method == "sample":
        tail.append(f" ({count(last.trials, 'trial')}, seed {seq.seed})")
    print_joined(  # as calc shoot's first line: "· edition ..." on a line of its own if need be
        console,
        Text.assemble(
            f"Sequence of {count(len(seq.steps), 'activation')} into ", *_unit_label(tgt, wounds)
        ),
        Text.assemble(*tail),
    )
    if seq.exact_declined is not None:
        console.print(
            Text.assemble(
                ("The exact engine declined", "yellow"),
                f" ({seq.exact_declined}): the figures below are the sampler's.",
            )
        )
    from ..layout import print_table

    print_table(console, steps_table(seq), label_columns=2)
    print_after(seq, console)
    _kill_table(seq, console)
    if seq.attribution is not None:
        _explained(seq, console)
    _leaders_and_hazards(seq, console)
    if seq.method == "both":
        print_table(console, _comparison(seq))
    _details(seq, console)


def _explained(seq: SequenceResult, console: Any) -> None:
    """``--explain``: what each rule adds in each step and over the whole sequence, then
    where the damage of every step went."""
    from ..explained import attribution_json, attribution_table, waste_table
    from ..layout import print_table
    from .explain import wasted_whole

    for sr in seq.steps:
        a = sr.result.attribution
        if a is not None and a.shares:
            label = f"Step {sr.step.label(seq.repeated)}: what each rule adds"
            print_table(console, attribution_table(attribution_json(a), label))
    if seq.attribution.shares:
        whole = attribution_json(seq.attribution)
        print_table(console, attribution_table(whole, "Whole sequence: what each rule adds"))
    data = wasted_whole(seq, "sample" if seq.method == "sample" else "exact")
    if data is not None:
        print_table(console, waste_table(data))


def print_after(seq: SequenceResult, console: Any) -> None:
    """The whole sequence's line: wounds lost, models destroyed and P(unit destroyed) after
    the last step."""
    from ..layout import print_items

    first = seq.steps[0].result
    tgt = first.plan.target
    last = seq.primary(len(seq.steps) - 1)
    wounds_total = first.activation.target.wounds - _already_lost(seq)
    last_step = len(seq.steps) - 1
    left = p_survives(seq, last_step)
    lost = of_whole(last.expected["wounds_lost"], wounds_total, short=left > 0.0)
    destroyed = of_whole(last.expected["models_destroyed"], tgt.models, short=left > 0.0)
    p = pct(p_destroyed(seq, last_step), left)
    items = [
        (f"After {count(len(seq.steps), 'step')}: wounds lost", f"{lost} of {wounds_total}"),
        ("models destroyed", f"{destroyed} of {tgt.models}"),
        ("P(unit destroyed)", p),
    ]
    print_items(console, items, bold=(lost, destroyed, p))


def _already_lost(seq: SequenceResult) -> int:
    start = seq.initial
    return int(start.wounds_lost[0]) if start is not None else 0


def p_destroyed(seq: SequenceResult, k: int) -> float:
    """P(the target is destroyed) after step ``k`` (0-based), from the primary engine."""
    md = seq.primary(k).models_destroyed_distribution
    n = seq.steps[0].result.activation.target.models
    return float(md[n]) if len(md) > n else 0.0


def p_survives(seq: SequenceResult, k: int) -> float:
    """P(some model of the target is left) after step ``k``: the states short of destroyed
    summed (positive while the unit may survive, though :func:`p_destroyed` is 1.0 in floating
    point: see ``report.pct``)."""
    return seq.primary(k).p_some_left(seq.steps[0].result.activation.target.models)


def steps_table(seq: SequenceResult, labels: list[str] | None = None):
    """One row per step: its own hits, wounds and damage, the whole sequence's models
    destroyed, wounds lost and P(unit destroyed) so far, with a bar (a rich Table);
    ``labels`` names the activations (default ``shoot: 10 Lootas``)."""
    from rich import box
    from rich.bar import Bar
    from rich.table import Table

    from ..layout import Words

    title = "Per step: its own hits, wounds and damage; the whole sequence so far"
    if seq.repeated:
        title += " (# is repeat.step)"
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        collapse_padding=True,
    )
    table.add_column("#", no_wrap=True)
    table.add_column("Activation", min_width=12)
    for col in ("Hits", "Wounds", "Damage", "Models\nso far", "Wounds\nso far", "P(unit\ndead)"):
        table.add_column(col, justify="right", no_wrap=True)
    table.add_column("", max_width=8)  # the bar: narrower where the room is short
    models = seq.steps[0].result.plan.target.models
    wounds = seq.steps[0].result.activation.target.wounds - _already_lost(seq)
    for k, sr in enumerate(seq.steps):
        own = sr.result.sample if seq.method == "sample" else sr.result.exact
        assert own is not None
        cum = seq.primary(k)
        p, left = p_destroyed(seq, k), p_survives(seq, k)
        table.add_row(
            sr.step.label(seq.repeated),
            Words(labels[k] if labels is not None else _activation_text(sr)),
            f"{own.expected['hits']:.2f}",
            f"{own.expected['wounds']:.2f}",
            f"{own.expected['damage']:.2f}",
            of_whole(cum.expected["models_destroyed"], models, decimals=2, short=left > 0.0),
            of_whole(cum.expected["wounds_lost"], wounds, decimals=2, short=left > 0.0),
            pct(p, left),
            Bar(1.0, 0.0, 1.0 - left, color="red"),  # monotone as ``left`` is (p has noise)
        )
    return table


def _kill_table(seq: SequenceResult, console: Any) -> None:
    """The whole sequence's kill table, up to the most models it can destroy."""
    exact_or_primary = seq.cumulative(
        len(seq.steps) - 1, "sample" if seq.method == "sample" else "exact"
    )
    kill = exact_or_primary.kill_table
    possible = [k for k, p in enumerate(kill) if p > 0.0]
    rows = possible[-1] + 1 if possible else 0
    short_of = exact_or_primary.short_of_table[:rows]
    print_kill_table(console, kill[:rows], "Kill table of the whole sequence", short_of)


def _leaders_and_hazards(seq: SequenceResult, console: Any) -> None:
    from ..layout import print_items

    first = seq.steps[0].result
    target = first.activation.target
    last = seq.primary(len(seq.steps) - 1)
    print_characters(console, target, roles(first), last.characters_destroyed)
    for sr in seq.steps:
        hazard = sr.result.activation.hazard
        if hazard is None:
            continue
        outcome = sr.result.sample if seq.method == "sample" else sr.result.exact
        assert outcome is not None
        head = f"Step {sr.step.label(seq.repeated)} Hazardous:"
        items, bold = hazard_items(head, hazard.tests, outcome.attacker_losses)
        print_items(console, items, bold, sep=" ", split_figures=False)


def _comparison(seq: SequenceResult):
    rows: list[ComparisonRow] = []
    for k, sr in enumerate(seq.steps):
        ex, sa = seq.cumulative(k, "exact"), seq.cumulative(k, "sample")
        se = sa.standard_error
        label = f"step {sr.step.label(seq.repeated)}"
        n = len(ex.kill_table)
        rows += [
            (
                f"{label} models so far",
                ex.expected["models_destroyed"],
                sa.expected["models_destroyed"],
                se["expected"]["models_destroyed"],
                count_sd(ex.kill_table),
            ),
            (
                f"{label} wounds so far",
                ex.expected["wounds_lost"],
                sa.expected["wounds_lost"],
                se["expected"]["wounds_lost"],
            ),
            (
                f"{label} P(unit dead)",
                ex.kill_table[n - 1],
                sa.kill_table[n - 1],
                se["kill_table"][n - 1],
                probability_sd(ex.kill_table[n - 1]),
            ),
        ]
    ex = seq.cumulative(len(seq.steps) - 1, "exact")
    sa = seq.cumulative(len(seq.steps) - 1, "sample")
    shown = [k for k, p in enumerate(ex.kill_table) if p > 0.0]
    for k in range(shown[-1] + 1 if shown else 0):
        rows.append(
            (
                f"P(≥ {k + 1} destroyed)",
                ex.kill_table[k],
                sa.kill_table[k],
                sa.standard_error["kill_table"][k],
                probability_sd(ex.kill_table[k]),
            )
        )
    return comparison_table(rows, sa.trials, seq.seed)


def _details(seq: SequenceResult, console: Any) -> None:
    """Each step's conditions, effects, weapon and allocation orders, choices, abilities not
    modelled and notes; repeats print only their choices that differ from the first pass."""
    from rich.text import Text

    seen_choices: dict[int, list[str]] = {}
    for sr in seq.steps:
        r, label = sr.result, f"Step {sr.step.label(seq.repeated)}"
        if sr.step.repeat == 1:
            console.print(Text.assemble((f"{label}: ", "bold"), sr.step.text))
            conds = [k.replace("_", "-") for k in COND_KEYS if getattr(r.selection.conditions, k)]
            lines = [
                ("Conditions", ", ".join(conds) if conds else "none"),
                ("Effects", _effects_text(r.plan) or "none"),
                ("Weapon order", ", ".join(w.name for w in r.activation.weapons)),
                ("Allocation order", _allocation_text(r)),
            ]
            for name, value in lines:
                console.print(Text.assemble(("  " + name + ": ", "dim"), value))
            for n in r.plan.not_modelled + _weapon_not_modelled(r):
                console.print(Text.assemble(("  Not modelled: ", "yellow"), n))
            for n in r.notes:
                console.print(Text.assemble(("  Note: ", "dim"), n))
            seen_choices[sr.step.index] = list(r.choices)
            print_choices(console, r, indent="  ")
        elif r.choices != seen_choices.get(sr.step.index):
            print_choices(console, r, f"{label} choice: ")
    for n in seq.notes:
        console.print(Text.assemble(("Note: ", "dim"), n))

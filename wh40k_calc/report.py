"""An activation's result rendered for people (rich tables and bars) and for scripts (the JSON
contract of DATASHEET_FORMAT.md, part 2)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from msgspec.structs import asdict

from .edition import heading_words
from .engine.outcome import LOSS_FIELDS, TOTAL_FIELDS, WEAPON_FIELDS, Outcome
from .kept import Kept
from .profile import TargetProfile
from .resolve import Result
from .rules.added import added_kinds
from .show import data_json
from .terminal import print_hanging, print_joined, print_wrapped
from .wording import compress_names, count, percent, points_figure

SCHEMA = 1
FLAG_SE = 5.0  # figures differing by more than this many standard errors are marked
COND_KEYS = (
    "half_range",
    "stationary",
    "charged",
    "cover",
    "objective",
    "overwatch",
    "indirect",
    "beyond_12",
    "disembarked",
    "plunging_fire",
    "spotted",
    "engaged",
    "target_engaged",
    "advanced",
)


def _f(x: float) -> float:
    """A number for the JSON: 12 decimals drop float noise (1e-17) but keep distributions
    summing to 1 within 1e-9 and small probabilities visible (6 decimals did neither). A
    whole number is its own rounding, and skips round's decimal conversion (most of a batch's
    attacker losses are 0, and a third of its expected figures whole)."""
    x = float(x)
    return x if x.is_integer() else round(x, 12)


def _dist(a: np.ndarray) -> list[float]:
    return [round(x, 12) for x in np.asarray(a, dtype=float).tolist()]  # _f of each, at once


def _kill_rows(kill: np.ndarray) -> list[dict[str, Any]]:
    """The JSON kill table: P(at least k models destroyed) for k = 1, 2, ... (each as
    :func:`_f` gives it, rounded at once)."""
    return _rows(_dist(kill))


def _rows(at_least: list[float]) -> list[dict[str, Any]]:
    return [{"models": k, "at_least": p} for k, p in enumerate(at_least, 1)]


def _outcome_block(o: Outcome, n_models: int, damage: bool = True) -> dict[str, Any]:
    md = np.zeros(n_models + 1)
    md[: len(o.models_destroyed_distribution)] = o.models_destroyed_distribution[: n_models + 1]
    block = {
        "weapons": [
            {
                "name": w.name,
                "count": w.count,
                "expected": {k: _f(w.expected[k]) for k in WEAPON_FIELDS},
            }
            for w in o.weapons
        ],
        "expected": {k: _f(o.expected[k]) for k in TOTAL_FIELDS},
        "kill_table": _kill_rows(o.kill_table),
        "models_destroyed_distribution": _dist(md),
        "damage_distribution": _dist(o.damage_distribution) if damage else [],
        "attacker_losses": {k: _f(o.attacker_losses[k]) for k in LOSS_FIELDS},
    }
    if not damage:
        del block["damage_distribution"]
    return block


def target_block(r: Result) -> dict[str, Any]:
    """The JSON ``target`` object's unit fields (name, faction, models, wounds, points, a
    wounded model) for the target of ``r``; shared by ``calc shoot`` and ``calc sequence``."""
    tgt, act, left = r.plan.target, r.activation, r.selection.target_wounds_left
    return {
        "name": tgt.name,
        "faction": tgt.datasheets[0].faction,
        "data": data_json(tgt.datasheets[0]),
        "models": tgt.models,
        "wounds": act.target.wounds,
        "points": _f(tgt.points),
        "points_listed": tgt.points_listed,
        "wounds_left": left,
        "wounded_model": wounded_model(act.target, left),
    }


def print_characters(console, target: TargetProfile, role_names: list[str], p: list) -> None:
    """One line per CHARACTER model of the target: its role, name and P(destroyed)."""
    from rich.text import Text

    for m, role, q in zip(target.characters, role_names, p, strict=True):
        console.print(
            Text.assemble(
                f"{role} ", (m.name, "bold"), " destroyed: ", (pct(q), "bold"),
                f" (survives {pct(1 - q)})",
            )
        )  # fmt: skip


def to_json(r: Result, *, damage: bool = True) -> dict[str, Any]:
    """The contract object for one activation (``schema`` 1); with ``r.attribution``
    (``--explain``) also ``attribution`` and ``wasted`` (:mod:`wh40k_calc.explained`).
    ``damage`` False: without the top level's ``damage_distribution``, never read (its
    exact figure pass never runs; ``calc compare``'s table and CSV do not show it)."""
    sel, plan, act = r.selection, r.plan, r.activation
    primary = r.primary
    att, tgt = plan.attacker, plan.target
    body = _outcome_block(primary, tgt.models, damage)  # first: reading it may add a note
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "edition": sel.edition,
        "phase": sel.phase,
        "method": r.method,
        "attacker": {
            "name": att.name,
            "faction": att.datasheets[0].faction,
            "data": data_json(att.datasheets[0]),
            "models": att.models,
            "points": _f(att.points),
            "points_listed": att.points_listed,
            "weapons_order": [w.name for w in act.weapons],
        },
        "target": {
            **target_block(r),
            "allocation_order": r.allocation_order or plan.allocation_order,
        },
        "conditions": {k: bool(getattr(sel.conditions, k)) for k in COND_KEYS},
        "effects": plan.effects,
        "effect_sides": plan.effect_sides,
        "effect_options": effect_options_json(plan),
        "choices": r.choices,
        "weapons": body["weapons"],
        "expected": body["expected"],
        "kill_table": body["kill_table"],
        "models_destroyed_distribution": body["models_destroyed_distribution"],
        "damage_distribution": body.get("damage_distribution"),
        "attacker_losses": body["attacker_losses"],
        "not_modelled": plan.not_modelled + _weapon_not_modelled(r),
        "notes": r.notes,
        "added_abilities": [
            {"weapon": a.weapon, "ability": a.ability} for a in sel.added_abilities
        ],
    }
    if act.target.characters:
        out["characters_destroyed"] = [
            {"name": m.name, "role": role.lower(), "destroyed": _f(p)}
            for m, role, p in zip(
                act.target.characters, roles(r), primary.characters_destroyed, strict=True
            )
        ]
    # always present: {} when no modifier is set
    out["modifiers"] = {k: v for k, v in asdict(sel.modifiers).items() if v not in (None, 0, False)}
    if not damage:
        del out["damage_distribution"]
    if r.sample is not None:
        out["sample"] = _sample_block(r, r.sample)
    if r.attribution is not None:  # --explain
        from .explained import attribution_json, wasted_json

        out["attribution"] = attribution_json(r.attribution)
        out["wasted"] = wasted_json(primary)
        if r.sample is not None and r.method == "both":
            out["sample"]["wasted"] = wasted_json(r.sample)
    return out


# the keys of the contract object that ``calc compare``'s table and CSV read (its rows, the
# figures compared, the target headings and the notes under the table): :func:`table_json`
TABLE_KEYS = (
    "edition",
    "phase",
    "method",
    "attacker",
    "target",
    "expected",
    "kill_table",
    "attacker_losses",
    "not_modelled",
    "notes",
)


def table_json(r: Result) -> dict[str, Any]:
    """The part of :func:`to_json` (without the damage distribution) that ``calc compare``'s
    table and CSV read (:data:`TABLE_KEYS`: the units' names, sizes and points, the totals,
    the kill table, the attacker's losses, the notes), each value as ``to_json`` gives it:
    a batch's rows need no weapon rows, distributions, conditions or effects that they never
    show (less to make, and less for a worker process to send back).
    ``attacker`` and ``target`` are the units' fields those read (``target`` whole, as the
    table's heading and the rows' grouping read it). An exact result only, without
    ``--explain`` (no attribution): else :func:`to_json`."""
    assert r.sample is None and r.attribution is None
    plan, o = r.plan, r.primary
    att = plan.attacker
    return {
        "edition": r.selection.edition,
        "phase": r.selection.phase,
        "method": r.method,
        "attacker": {
            "name": att.name,
            "models": att.models,
            "points": _f(att.points),
            "points_listed": att.points_listed,
        },
        "target": target_block(r),
        **_table_figures(o),
        "not_modelled": plan.not_modelled + _weapon_not_modelled(r),
        "notes": r.notes,
    }


FIGURES_KEPT = 512
_FIGURES: Kept[tuple[int, ...], tuple[tuple, dict, list[float], dict]] = Kept(FIGURES_KEPT)


def _table_figures(o: Outcome) -> dict[str, Any]:
    """The ``expected``, ``kill_table`` and ``attacker_losses`` of :func:`table_json` for
    outcome ``o``, rounded as :func:`to_json` rounds them, worked out once per process for
    each outcome's figures: the runs of a batch that resolve the same activation share the
    kept outcome's distribution and dicts (``resolve.exact_outcome``: 318 of the 1,050 rows
    of ``benchmarks/batch-2000.yaml``). Kept by the identity of those three objects, with
    them (so that no id is reused while kept); each caller gets its own dicts and lists."""
    held = (o.models_destroyed_distribution, o.expected, o.attacker_losses)
    key = tuple(map(id, held))
    kept = _FIGURES.get(key)
    if kept is None or any(a is not b for a, b in zip(kept[0], held, strict=True)):
        expected = {k: _f(o.expected[k]) for k in TOTAL_FIELDS}
        losses = {k: _f(o.attacker_losses[k]) for k in LOSS_FIELDS}
        kept = _FIGURES.put(key, (held, expected, _dist(o.kill_table), losses))
    _, expected, kill, losses = kept
    return {"expected": dict(expected), "kill_table": _rows(kill), "attacker_losses": dict(losses)}


def _sample_block(r: Result, s: Outcome) -> dict[str, Any]:
    """The JSON ``sample`` block: the sampler's trials and seed, its figures (as the top
    level's), and the standard error of each."""
    block = _outcome_block(s, r.plan.target.models)
    block = {"trials": s.trials, "seed": s.seed, **block}
    block["standard_error"] = {
        "expected": {k: _f(v) for k, v in s.standard_error.get("expected", {}).items()},
        "kill_table": [_f(x) for x in s.standard_error.get("kill_table", [])],
        "attacker_losses": {
            k: _f(v) for k, v in s.standard_error.get("attacker_losses", {}).items()
        },
        "weapons": [{k: _f(v) for k, v in w.standard_error.items()} for w in s.weapons],
    }
    if r.activation.target.characters:
        block["characters_destroyed"] = [_f(p) for p in s.characters_destroyed]
    return block


def roles(r: Result) -> list[str]:
    """The role of each CHARACTER model of the target ("Leader", "Support" or "CHARACTER"), as
    ``TargetProfile.characters`` lists them."""
    return r.plan.character_roles or ["Leader"] * len(r.activation.target.characters)


def _added_text(a) -> str:
    """``--add-ability`` as the player wrote it: "lethal hits" or "Deffgun: lethal hits"."""
    return a.ability if a.weapon == "*" else f"{a.weapon}: {a.ability}"


def _weapon_not_modelled(r: Result) -> list[str]:
    out = []
    seen = set()
    for g in r.plan.attacker.groups:
        for w in g.weapons:
            for text in w.abilities.unmodelled:
                item = f"{w.name}: [{text}] (datasheet rule, not modelled)"
                if item not in seen:
                    seen.add(item)
                    out.append(item)
    return out


# ---------------------------------------------------------------------------------------------
# Terminal


def _effects_text(plan) -> str:
    """Effect ids as ``--effect`` takes them, with the options given (``oath-of-moment:
    codex-army``) and the side for those that can apply to either (``waaagh (target)``) or
    that act for the target (``ard-as-nails (target)``: an ``--effect`` the target's side
    takes, not the attacker's)."""
    out = []
    for eid in plan.effects:
        sides = plan.effect_sides.get(eid, [])
        both = eid in plan.effects_both
        options = plan.effect_options.get(eid)
        name = f"{eid}:{','.join(options)}" if options else eid
        said = sides and (both or sides == ["target"])
        out.append(f"{name} ({' and '.join(sides)})" if said else name)
    return ", ".join(out)


def effect_options_json(plan) -> dict[str, list[str]]:
    """``effect_options`` of the JSON: each applied effect given options -> those options."""
    return {eid: plan.effect_options[eid] for eid in plan.effects if eid in plan.effect_options}


def _unit_label(unit, extra: str = "") -> tuple[tuple[str, str], str]:
    """``5 Lootas (Orks, 50 pts)``; an Attached unit as ``Boyz led by Warboss (Orks, 21
    models, ...)``."""
    more = f", {extra}" if extra else ""
    faction = unit.datasheets[0].faction
    where = f"{faction}, " if faction else ""
    pts = points_text(unit.points, unit.unpriced, len(unit.datasheets))
    if unit.is_attached:
        return (unit.name, "bold"), f" ({where}{unit.models} models, {pts}{more})"
    return (f"{unit.models} {unit.name}", "bold"), f" ({where}{pts}{more})"


def points_text(points: float, unpriced: tuple[str, ...] | list[str], parts: int = 1) -> str:
    """``50 pts``; ``no points listed`` where the source lists none; ``80 pts + Sir Hekhtur
    (no points listed)`` for an Attached unit with one such datasheet."""
    if not unpriced:
        return f"{points_figure(points)} pts"
    if len(unpriced) >= parts:
        return "no points listed"
    return f"{points_figure(points)} pts + {', '.join(unpriced)} (no points listed)"


def _already_lost(r: Result) -> int:
    start = r.activation.start
    return int(start.wounds_lost[0]) if start is not None and len(start.lost) == 1 else 0


def _wounds_text(r: Result) -> str:
    """``11 wounds``; with ``--target-wounds-left``, which model is wounded and how much."""
    text = count(r.activation.target.wounds, "wound")
    wounded = wounded_model(r.activation.target, r.selection.target_wounds_left)
    return f"{text}; {wounded_text(wounded)}" if wounded else text


def wounded_model(target, wounds_left: int | None) -> dict[str, Any] | None:
    """The model ``--target-wounds-left`` (a target's ``wounds_left``) wounds, the first in
    allocation order: ``{"name", "wounds_left", "W"}`` (None when the target is unharmed)."""
    if wounds_left is None:
        return None
    first = (*target.bodyguard, *target.characters)[0]
    return {"name": first.name, "wounds_left": wounds_left, "W": first.W}


def wounded_text(wounded: dict[str, Any]) -> str:
    """``Land Raider on 10 of 16``: every heading's words for a damaged target (``calc
    shoot``/``fight``, ``calc sequence``, ``calc compare``)."""
    return f"{wounded['name']} on {wounded['wounds_left']} of {wounded['W']}"


def pct(p: float, rest: float | None = None) -> str:
    """A probability as a percentage with 2 decimals; "<0.01%" / ">99.99%" rather than
    rounding a possible outcome to 0% or 100%. ``rest``: the probability of every other
    outcome where the caller has it summed from the small side (the states the outcome is not:
    exact where ``1 - p`` is not, and where ``p`` itself is 1.0 in floating point though the
    rest is 1e-17), so that a ``p`` short of certain by any rest is ">99.99%", never
    "100.00%" (an army's long sequence, its unit all but surely destroyed)."""
    p = float(p)
    certain = None if rest is None else (p >= 1.0 and rest <= 0.0)
    return percent(p, 2, certain=certain)


def kill_rows(r: Result) -> int:
    """Rows of the printed kill table: up to the largest number of models that can be
    destroyed, i.e. the last k with P(at least k) > 0 in the exact distribution (in the
    sampled one when the sampler runs alone). The JSON keeps k = 1..models."""
    source = r.exact if r.exact is not None else r.primary
    possible = np.flatnonzero(source.kill_table > 0.0)
    return int(possible[-1]) + 1 if len(possible) else 0


def render(r: Result, console) -> None:
    """Print the result: heading, weapons table, totals, kill table with bars (with
    ``--explain``: what each rule adds, where the damage went), CHARACTER models, Hazardous,
    exact vs sampled, then conditions, orders, choices and notes."""
    from .layout import print_table

    _print_heading(r, console)
    print_table(console, _weapons_table(r))
    _print_totals(r, console)
    _print_kill_table(r, console)
    if r.attribution is not None:  # --explain: what each rule adds, where the damage went
        from .explained import print_explained

        print_explained(console, r.attribution, r.primary)
    if r.activation.target.characters:
        print_characters(console, r.activation.target, roles(r), r.primary.characters_destroyed)
    if r.activation.hazard is not None:
        _print_hazard(r, console)
    if r.method == "both" and r.exact is not None and r.sample is not None:
        print_table(console, _comparison(r))
    _print_details(r, console)


def _print_heading(r: Result, console) -> None:
    """``5 Lootas (Orks, 50 pts) shoots 10 Boyz (...) · edition 10 · exact``, and where the
    exact engine declined, that the figures are the sampler's."""
    from rich.text import Text

    sel, plan, o = r.selection, r.plan, r.primary
    phase = "shoots" if sel.phase == "shooting" else "fights"
    print_joined(  # at 80 columns: the units on one line, "· edition 10 · exact" on the next
        console,
        Text.assemble(
            *_unit_label(plan.attacker), f" {phase} ", *_unit_label(plan.target, _wounds_text(r))
        ),
        Text.assemble(
            heading_words(sel.edition, sel.edition_note, sel.datasheets()),
            (r.method, "cyan"),
            f" ({count(o.trials, 'trial')}, seed {o.seed})" if r.method == "sample" else "",
        ),
    )
    if r.exact_declined is not None:
        console.print(
            Text.assemble(
                ("The exact engine declined", "yellow"),
                f" ({r.exact_declined}): the figures below are the sampler's.",
            )
        )


def _weapons_table(r: Result):
    """The "Expected per activation" table: one row per weapon profile, totals in the
    footer (printed with :func:`~wh40k_calc.layout.print_table`)."""
    from rich.table import Table

    from .layout import Words

    o = r.primary
    # Headings of two short lines and numbers that never wrap leave the names the most room
    # at 80 columns; a name wraps between words or after a hyphen, never inside a word.
    cols = ("Attacks", "Hits", "Wounds", "Failed\nsaves", "Mortal\nwounds", "Damage")
    table = Table(title="Expected per activation", title_justify="left", show_footer=True)
    table.add_column("Weapon", footer="Total")
    table.add_column("Models", justify="right", no_wrap=True)  # weapons of this profile used
    for col, key in zip(cols, WEAPON_FIELDS, strict=True):
        table.add_column(col, justify="right", no_wrap=True, footer=f"{o.expected[key]:.3f}")
    for w in o.weapons:
        table.add_row(
            Words(w.name),
            str(w.count) if w.count else "—",
            *(f"{w.expected[k]:.3f}" for k in WEAPON_FIELDS),
        )
    return table


def _print_totals(r: Result, console) -> None:
    """``Wounds lost 1.253 of 11 · models destroyed 1.253 of 10``."""

    from .layout import print_items
    from .wording import of_whole

    o = r.primary
    wounds = r.activation.target.wounds - _already_lost(r)
    models = r.plan.target.models
    survives = o.p_some_left(models) > 0.0
    lost = of_whole(o.expected["wounds_lost"], wounds, short=survives)
    destroyed = of_whole(o.expected["models_destroyed"], models, short=survives)
    items = [
        ("Wounds lost", f"{lost} of {wounds}"),
        ("models destroyed", f"{destroyed} of {models}"),
    ]
    print_items(console, items, bold=(lost, destroyed))


def _print_kill_table(r: Result, console) -> None:
    """The kill table: P(at least k models destroyed) with a bar, up to the most that can
    be destroyed (:func:`kill_rows`), or a line saying none can be."""
    rows = kill_rows(r)
    o = r.primary
    print_kill_table(console, o.kill_table[:rows], "Kill table", o.short_of_table[:rows])


def print_kill_table(console, kill, title: str, short_of=None) -> None:
    """``kill`` (P(at least k models destroyed) for k = 1, 2, ..., the rows to print) as a
    table titled ``title`` with a bar per row, or a line saying no model can be destroyed
    when it is empty (``calc shoot``'s and ``calc sequence``'s kill tables)."""
    from rich.bar import Bar
    from rich.table import Table

    from .layout import Words, print_table

    if not len(kill):
        console.print("Kill table: no model of the target can be destroyed")
        return
    table = Table(title=title, title_justify="left")
    table.add_column(Words("Models destroyed"), justify="right", min_width=5, no_wrap=True)
    table.add_column(Words("P(at least)"), justify="right", min_width=7, no_wrap=True)
    table.add_column("", max_width=32)  # the bar: narrower where the room is short
    for k, p in enumerate(kill, start=1):
        rest = None if short_of is None else short_of[k - 1]
        table.add_row(f"≥ {k}", pct(p, rest), Bar(1.0, 0.0, float(p), color="red"))
    print_table(console, table)


def _print_hazard(r: Result, console) -> None:
    """The attacker's Hazardous tests: mortal wounds suffered, models lost, P(at least one
    lost) (Core rules: Hazardous)."""
    from .layout import print_items

    assert r.activation.hazard is not None
    items, bold = hazard_items("Hazardous:", r.activation.hazard.tests, r.primary.attacker_losses)
    print_items(console, items, bold, sep=" ", split_figures=False)


def hazard_items(
    head: str, tests: int, losses: dict
) -> tuple[list[tuple[str, str]], tuple[str, ...]]:
    """The Hazardous line's (label, figure) items and its figures to print in bold
    (:func:`~wh40k_calc.layout.print_items`): ``Hazardous: 5 tests; attacker suffers 1.667
    mortal wounds, loses 0.584 models; P(loses at least one) 53.91%`` (``head`` first;
    ``losses``: the outcome's ``attacker_losses``), each figure with the words saying what it
    counts."""
    mortal = f"{losses['hazard_mortal_wounds']:.3f}"
    lost = f"{losses['models_destroyed']:.3f}"
    p = pct(losses["at_least_one"])
    items = [
        (head, f"{count(tests, 'test')};"),
        ("attacker suffers", f"{mortal} mortal wounds,"),
        ("loses", f"{lost} models;"),
        ("P(loses at least one)", p),
    ]
    return items, (mortal, lost, p)


def _print_details(r: Result, console) -> None:
    """The lines after the figures: conditions, effects, weapon and allocation orders,
    modifiers and added abilities set, then every choice, ability not modelled and note."""
    from rich.text import Text

    for label, value in _settings_lines(r):
        print_wrapped(console, Text.assemble((f"{label}: ", "dim"), value))
    print_choices(console, r)
    for n in r.plan.not_modelled + _weapon_not_modelled(r):
        print_wrapped(console, Text.assemble(("Not modelled: ", "yellow"), n))
    for n in r.notes:
        print_wrapped(console, Text.assemble(("Note: ", "dim"), n))


def _settings_lines(r: Result) -> list[tuple[str, str]]:
    """(label, text) of the conditions, effects, weapon order and allocation order, and of
    the modifiers and added abilities where any are set."""
    sel = r.selection
    conds = [k.replace("_", "-") for k in COND_KEYS if getattr(sel.conditions, k)]
    lines = [
        ("Conditions", ", ".join(conds) if conds else "none"),
        ("Effects", _effects_text(r.plan) or "none"),
        ("Weapon order", ", ".join(w.name for w in r.activation.weapons)),
        ("Allocation order", _allocation_text(r)),
    ]
    mods = {k: v for k, v in asdict(sel.modifiers).items() if v not in (None, 0, False)}
    if mods:
        lines.append(
            (
                "Modifiers",
                ", ".join(
                    k.replace("_", "-") + ("" if v is True else f" {v}") for k, v in mods.items()
                ),
            )
        )
    if sel.added_abilities:
        # each ability once, as first written (one given again adds nothing: a note says so)
        added = sel.added_abilities
        firsts = [added[i[0]] for i in added_kinds(added).values()]
        lines.append(("Added abilities", "; ".join(_added_text(a) for a in firsts)))
    return lines


def _allocation_text(r: Result) -> str:
    """The allocation order line: the order, and whether it is the defender's best."""
    text = compress_names(r.allocation_order or r.plan.allocation_order)
    if r.allocation_best:
        text += " (the defender's best for the most likely number of save rolls; see Choice)"
    return text


def print_choices(console, r: Result, label: str = "Choice: ", indent: str = "") -> None:
    """Every choice sentence of ``r``, ``label`` first, wrapped between words; a sentence of
    the defender's allocation orders (``Result.allocation_choices``) as its head, then one
    order a line (``  - ORDER for COUNTS``, a hanging indent), so that it reads at 80
    columns. ``indent``: before every line (a sequence step's)."""
    from rich.text import Text

    laid = {c.sentence: c for c in r.allocation_choices}
    for c in r.choices:
        said = laid.get(c)
        if said is None:
            print_wrapped(console, Text.assemble(indent, (label, "dim"), c))
            continue
        print_hanging(console, Text.assemble(indent, (label, "dim")), Text(f"{said.head}:"))
        for order in said.orders:
            print_hanging(console, Text(f"{indent}  - "), Text(order))


def _comparison(r: Result):
    ex, sa = r.exact, r.sample
    assert ex is not None and sa is not None
    se = sa.standard_error
    rows: list[ComparisonRow] = [
        (k.replace("_", " "), ex.expected[k], sa.expected[k], se["expected"].get(k, 0.0), None)
        for k in TOTAL_FIELDS
    ]
    rows = [
        (*row[:4], count_sd(ex.kill_table)) if k == "models_destroyed" else row
        for k, row in zip(TOTAL_FIELDS, rows, strict=True)
    ]
    rows += [
        (
            f"P(≥ {k + 1} destroyed)",
            ex.kill_table[k],
            sa.kill_table[k],
            se["kill_table"][k],
            probability_sd(ex.kill_table[k]),
        )
        for k in range(kill_rows(r))
    ]
    rows += [
        (
            f"attacker {k.replace('_', ' ')}",
            ex.attacker_losses[k],
            sa.attacker_losses[k],
            se.get("attacker_losses", {}).get(k, 0.0),
            probability_sd(ex.attacker_losses[k]) if k == "at_least_one" else None,
        )
        for k in LOSS_FIELDS
    ]
    return comparison_table(rows, sa.trials, sa.seed)


# (figure, exact, sampled, the sample's standard error, the exact figure's standard deviation
# over one trial where known, else None); a row of four: not known
ComparisonRow = tuple[str, float, float, float] | tuple[str, float, float, float, float | None]


def probability_sd(p: float) -> float:
    """The standard deviation over one trial of an outcome of exact probability ``p`` (a
    Bernoulli trial: sqrt(p(1 - p)))."""
    return math.sqrt(max(p * (1.0 - p), 0.0))


def count_sd(at_least: Iterable[float]) -> float:
    """The standard deviation of a count X from its exact ``at_least[k-1]`` = P(X >= k),
    k = 1..n (a list or an array): E[X] = sum P(X >= k), E[X^2] = sum (2k - 1) P(X >= k)."""
    at_least = [float(p) for p in at_least]
    mean = math.fsum(at_least)
    second = math.fsum((2 * k - 1) * p for k, p in enumerate(at_least, start=1))
    return math.sqrt(max(second - mean * mean, 0.0))


def flag_score(
    exact: float, sampled: float, sample_se: float, exact_sd: float | None, trials: int
) -> tuple[float, float]:
    """(the standard error used, the difference in those standard errors) of a sampled
    figure against its exact value: the standard error is the exact figure's (``exact_sd``
    over sqrt(trials)) where known, since the sample's own is itself a noisy estimate (one
    miss in 20,000 at p = 0.9996 gave 5e-5 against the true 1.4e-4, and a false '!'), else
    the sample's; floored at 1/trials (a figure that came out the same in every trial has a
    sample SE of 0, which measures nothing)."""
    n = max(trials, 1)
    se = sample_se if exact_sd is None else exact_sd / math.sqrt(n)
    used = max(se, 1.0 / n)
    return used, abs(exact - sampled) / used


def comparison_table(rows: Sequence[ComparisonRow], trials: int, seed: int | None):
    """The "Exact vs sampled" table: one row per figure (:data:`ComparisonRow`), with the
    difference in standard errors (:func:`flag_score`: from the exact figure where its
    spread is known) and a '!' beyond FLAG_SE. The standard error is shown as used, so that
    "± SE" and "Δ / SE" agree; except where the figure sampled equals the exact one and the
    sample's SE is 0 (a constant such as the attacks of a fixed A, or an impossible
    outcome): its SE and difference are exactly 0 and shown so. Figures as
    :func:`comparison_cell` writes them."""
    from rich.table import Table

    from .layout import Words

    t = Table(
        title=f"Exact vs sampled ({count(trials, 'trial')}, seed {seed}; SE at least "
        f"1/trials, from the exact figure where known; '!' marks a difference over "
        f"{FLAG_SE:g} standard errors)",
        title_justify="left",
    )
    for col in ("Figure", "Exact", "Sampled", "± SE", "Δ / SE", ""):
        figure = col not in ("Figure", "")
        t.add_column(col, justify="right" if figure else "left", no_wrap=figure)
    for row in rows:
        name, a, b, s = row[:4]
        sd = row[4] if len(row) > 4 else None
        used, z = flag_score(a, b, s, sd, trials)
        same = s == 0.0 and a == b  # nothing to measure: the same figure in every trial
        t.add_row(
            Words(name),
            comparison_cell(a),
            comparison_cell(b),
            "0" if same else comparison_cell(used),
            "0" if same else f"{z:.1f}",
            "[red]![/red]" if z > FLAG_SE and not same else "",
        )
    return t


def comparison_cell(x: float) -> str:
    """A figure of the "Exact vs sampled" table: four decimals; exactly zero as "0", a
    figure above zero that would round to 0.0000 as "<0.0001", and one below 1 that would
    round to 1.0000 as ">0.9999" (as :func:`pct` never rounds a possible outcome to 0% nor
    a chance short of certain to 100%)."""
    if x == 0.0:
        return "0"
    if 0.0 < x < 0.00005:
        return "<0.0001"
    text = f"{x:.4f}"
    if x < 1.0 and text == "1.0000":
        return ">0.9999"
    return text

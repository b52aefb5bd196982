"""``calc army`` for people: the list as resolved (``--show``), and the army against a target
(one row a unit, ranked, then the whole army in sequence). Rendering only: every figure
comes from :class:`~wh40k_calc.lists.army.ArmyRun`.

Tables fit 80 columns: unit names wrap between words, the weapons a unit used go on a dim
line under its name, and figures are never cut.
"""

from __future__ import annotations

from typing import Any

from ..terminal import escape_controls as esc
from ..terminal import print_wrapped
from ..wording import count, of_whole, points_figure
from .army import ArmyRun
from .resolve import ResolvedArmy, ResolvedUnit, WeaponLine

STATUS_STYLE = {"resolved": "green", "ally": "cyan", "unresolved": "red"}


def _text(*parts: Any) -> Any:
    from rich.text import Text

    return Text.assemble(*parts)


def print_heading(resolved: ResolvedArmy, console: Any) -> None:
    """The list's heading (name, format, faction, detachments, points, edition) and the
    resolution summary."""
    a = resolved.army
    head = [a.name or "(unnamed list)", f"({a.format})"]
    print_wrapped(console, _text(("Army list: ", "bold"), esc(" ".join(head))))
    facts = [x for x in (a.faction, ", ".join(a.detachments) or None) if x]
    if a.points is not None:
        facts.append(f"{a.points:,} pts")
    facts.append(f"edition {resolved.edition} ({resolved.edition_source})")
    print_wrapped(console, _text(esc(" · ".join(facts))))
    print_wrapped(console, _text(("Resolved: ", "bold"), resolved.summary()))


def render_show(resolved: ResolvedArmy, console: Any) -> None:
    """``calc army LIST --show``: what each line of the list became."""
    print_heading(resolved, console)
    for u in resolved.units:
        console.print()
        _unit_lines(u, console)
    _resolution_notes(resolved, console)


def _unit_lines(u: ResolvedUnit, console: Any) -> None:
    where = " and ".join(str(p) for p in u.positions)
    facts = [count(u.models, "model")]
    if u.points is not None:
        facts.append(f"{u.points} pts")
    if u.faction:
        facts.insert(0, u.faction)
    print_wrapped(
        console,
        _text(
            f"{where}. ",
            (esc(u.name), "bold"),
            " ",
            (u.status, STATUS_STYLE[u.status]),
            f" · {' · '.join(facts)}",
        ),
    )
    if len(u.listed) > 1:
        print_wrapped(
            console,
            _text(("  Attached unit: ", "dim"), esc(" + ".join(x.name for x in u.listed))),
        )
    for x in u.listed:
        extra = []
        if x.enhancement:
            extra.append(f"enhancement {x.enhancement}")
        if x.warlord:
            extra.append("Warlord")
        if extra:
            print_wrapped(console, _text("  ", (esc(f"{x.name}: {', '.join(extra)}"), "dim")))
    if u.reason:
        print_wrapped(console, _text("  ", ("why: ", "red"), esc(u.reason)))
    for f in u.folds:
        print_wrapped(console, _text("  ", ("read: ", "dim"), esc(f)))
    for w in u.warnings:
        print_wrapped(console, _text("  ", ("warning: ", "yellow"), esc(w)))
    if u.default_loadout:
        print_wrapped(console, _text("  ", ("default loadout", "yellow")))
    for line in u.weapons:
        print_wrapped(console, _text("    ", *_weapon_text(line, u.attached)))


def _weapon_text(w: WeaponLine, attached: bool = False) -> list[Any]:
    who = f"{w.model}: " if w.model else (f"{w.unit}: " if attached else "")
    listed = esc(f"{who}{w.count}x {w.listed}")
    if w.status in ("resolved", "folded"):
        became = ", ".join(w.weapons)
        return [listed, " → ", (esc(became), "green")] + (
            [("  (" + esc(w.fold) + ")", "dim")] if w.fold and w.status == "folded" else []
        )
    if w.status == "wargear":
        return [listed, (" · wargear, not a weapon", "dim")]
    did = f"; did you mean {', '.join(w.candidates)}?" if w.candidates else ""
    instead = [" → ", (esc(w.fold), "yellow")] if w.fold else []  # a default in its place
    return [listed, (f" · not one of ours{did}", "red"), *instead]


def _resolution_notes(resolved: ResolvedArmy, console: Any) -> None:
    e = resolved.effects
    if e.attacker:
        print_wrapped(console, _text(("Effects applied: ", "bold"), ", ".join(e.attacker)))
    for n in (*e.unused, *e.not_modelled):
        print_wrapped(console, _text(("Not modelled: ", "yellow"), esc(n)))
    for n in resolved.notes:
        print_wrapped(console, _text(("Note: ", "dim"), esc(n)))


def render_army(run: ArmyRun, console: Any) -> None:
    """The army against the target: heading, the rows ranked, the army in sequence, then
    what did not resolve and the notes."""
    print_heading(run.resolved, console)
    if not run.rows or all(r.seq is None for r in run.rows):
        console.print(_text(("No unit of the list can attack the target.", "red")))
        _unresolved(run.resolved, console)
        return
    first = next(r.seq for r in run.rows if r.seq is not None)
    res = first.steps[0].result
    tgt = res.plan.target
    wounds = res.activation.target.wounds
    method = first.method
    print_wrapped(
        console,
        _text(
            "Against ",
            (esc(f"{tgt.models} {tgt.name}"), "bold"),
            f" ({esc(tgt.datasheets[0].faction)}, {points_figure(tgt.points)} pts, "
            f"{count(wounds, 'wound')})",
            f" · {method}",
        ),
    )
    from ..layout import print_table

    print_table(console, _rows_table(run, tgt.models), label_columns=2)
    if run.seq is not None:
        from ..sequence.render import print_after, steps_table

        order = "in list order" if run.order == "list" else "in ranked order"
        console.print()
        print_wrapped(
            console,
            _text(
                ("The whole army in sequence", "bold"),
                f" ({order}: every unit's shooting, then its melee; the target's state "
                "carried from step to step)",
            ),
        )
        labels = [_step_label(sr.step.text) for sr in run.seq.steps]
        print_table(console, steps_table(run.seq, labels), label_columns=2)
        print_after(run.seq, console)
    _unresolved(run.resolved, console)
    for n in run.notes:
        print_wrapped(console, _text(("Note: ", "dim"), esc(n)))
    _resolution_notes(run.resolved, console)


def _step_label(text: str) -> str:
    """``shoot Boyz (list unit 3)`` -> ``shoot: Boyz (3)``."""
    verb, _, rest = text.partition(" ")
    name, _, where = rest.rpartition(" (list unit ")
    return f"{verb}: {name} ({where.rstrip(')')})" if where else f"{verb}: {rest}"


def _rows_table(run: ArmyRun, target_models: int) -> Any:
    from rich import box
    from rich.table import Table

    from ..compare.table import probability_text
    from ..layout import Words

    table = Table(
        title="One row a unit (an Attached unit is one), best first by models destroyed",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        collapse_padding=True,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Unit / weapons used", min_width=14)  # names wrap between words
    for col in ("Models", "Pts", "Damage", "Killed", "P(≥1)", "P(all)", "/100pts"):
        table.add_column(col, justify="right", no_wrap=True)
    for rank, r in enumerate(run.rows, start=1):
        u = r.plan.unit
        used = ", ".join(f"{n}" + (f" ×{c}" if c > 1 else "") for n, c in r.weapons)
        name = _text((esc(u.name), "bold"), f" ({', '.join(map(str, u.positions))})")
        if r.seq is None:
            why = r.error or (r.plan.notes[0] if r.plan.notes else "nothing to attack with")
            table.add_row(
                "—", Words(_text(name, "\n", (esc(why), "dim"))), str(u.models), _pts(u.points),
                "—", "—", "—", "—", "—",
            )  # fmt: skip
            continue
        table.add_row(
            str(rank),
            Words(_text(name, "\n", (esc(used) or "—", "dim"))),
            str(u.models),
            _pts(u.points),
            f"{r.damage:.2f}",
            of_whole(r.models_destroyed, target_models, short=r.p_short > 0.0),
            probability_text(r.p_one, r.p_one > 0.0, r.p_none == 0.0),
            probability_text(r.p_all, r.p_all > 0.0, r.p_short == 0.0),
            "—" if r.per_100 is None else f"{r.per_100:.1f}",
        )
    return table


def _pts(points: int | None) -> str:
    return "—" if points is None else str(points)


def _unresolved(resolved: ResolvedArmy, console: Any) -> None:
    said: set[tuple[str, str]] = set()  # a line that units of one name share is said once

    def once(head: str, style: str, text: str) -> None:
        if (head, text) not in said:
            said.add((head, text))
            print_wrapped(console, _text((head, style), esc(text)))

    for u in resolved.units:
        if u.status == "unresolved":
            where = ", ".join(map(str, u.positions))
            once("Not resolved: ", "red", f"{u.name} ({where}): {u.reason}")
        for w in u.warnings:
            once("Warning: ", "yellow", w)
        for f in u.folds:
            once("Read: ", "dim", f)
        bad = [w for w in u.weapons if w.status == "unresolved"]
        if bad and u.status != "unresolved":
            names = ", ".join(f"{w.listed}" for w in bad if not w.weapons)
            if not names:  # each has its model's default weapon in its place (a warning)
                continue
            what = "its default loadout instead" if u.default_loadout else "left out"
            once("Weapons not ours: ", "yellow", f"{u.name}: {names} ({what})")

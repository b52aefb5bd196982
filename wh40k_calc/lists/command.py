"""The ``calc army`` command (typer): an army list against a target, unit by unit and as the
whole army in sequence; ``--show`` prints the list as resolved.

Thin, as the other commands: read the list (:mod:`.detect`), resolve it (:mod:`.resolve`),
run it (:mod:`.army`), print the tables (:mod:`.render`) or the JSON (:mod:`.output`).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer
from msgspec import Struct

from ..optgroup import OptionGroup, with_groups
from ..options import (
    ConditionOptions,
    EngineOptions,
    TargetOptions,
    exit_code,
    fail,
    named,
    nonblank,
)


class Phase(StrEnum):
    """--phase."""

    shoot = "shoot"
    fight = "fight"
    both = "both"


class SequenceOrder(StrEnum):
    """--sequence."""

    list = "list"
    ranked = "ranked"


class ArmyTargetOptions(TargetOptions, frozen=True):
    """The target options of ``calc shoot``; the target itself is not needed with
    ``--show``."""

    # optional here (a wider type than TargetOptions' str): mypy refuses the override
    target: Annotated[
        str | None,
        typer.Option(
            "--target", "-t", metavar="NAME", help="Target unit (not with --show).", callback=named
        ),
    ] = None  # type: ignore[assignment]


class ArmyOptions(OptionGroup, Struct, frozen=True):
    """What ``calc army`` does with the list: the phases, the order of the army in sequence,
    only showing the resolution, strictness, and factions whose units count as allies."""

    phase: Annotated[
        Phase,
        typer.Option(
            case_sensitive=False,
            help="Each unit's shooting, its melee, or both (shooting first).",
        ),
    ] = Phase.both
    sequence_order: Annotated[
        SequenceOrder,
        typer.Option(
            "--sequence",
            case_sensitive=False,
            help="Order of the units in the army's sequence: the list's or the rows' ranking.",
        ),
    ] = SequenceOrder.list
    show: Annotated[
        bool,
        typer.Option("--show", help="Print the list as resolved (what each line became) only."),
    ] = False
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help="Exit with code 1 when a unit or weapon of the list did not resolve."
        ),
    ] = False
    allies: Annotated[
        list[str] | None,
        typer.Option(
            "--allies",
            metavar="FACTION",
            help="A faction whose units count as allies though the list does not mark them "
            "(repeatable); also picks the faction of an ally the list names ambiguously.",
        ),
    ] = None


@with_groups
def army(
    path: Annotated[
        str,
        typer.Argument(
            metavar="LIST",
            help="An army list export (official app, New Recruit, ListForge, Rosterizer or "
            "BattleScribe text, JSON, .ros or .rosz); '-' reads standard input.",
            callback=nonblank("file"),
        ),
    ],
    *,
    target: ArmyTargetOptions,
    conditions: ConditionOptions,
    engine: EngineOptions,
    options: ArmyOptions,
) -> None:
    """Resolve an army list and what each of its units does to a target: one row a unit,
    ranked by models destroyed, then the whole army in sequence (every unit's shooting,
    then its melee, the target's state carried from step to step)."""
    from ..catalog import UnknownFactionError, UnknownUnitError
    from ..datasheet import DatasheetError
    from ..edition import EditionError, choose
    from ..options import catalog
    from ..selection import SelectionError
    from .army import run_army
    from .detect import read_list
    from .model import EditionConflict, ListError, UnitCountError
    from .resolve import resolve_army

    if not options.show and target.target is None:
        raise fail("give the target (--target NAME), or --show to see the list as resolved", 2)
    if engine.explain:
        raise fail(
            "--explain: not for calc army; calc compare --army LIST --explain explains each "
            "unit's row",
            2,
        )
    try:
        army_list = read_list(path)
        edition = engine.edition.value if engine.edition else None
        chosen = choose(None) if edition is None else None  # env, config file
        default = edition or (chosen.edition if chosen else "10")
        cat = catalog(engine.datasheets, edition or default)
        resolved = resolve_army(
            army_list, cat, edition, default, tuple(options.allies or ()), _source_words(chosen)
        )
    except EditionConflict as exc:
        raise fail(f"{path}: {exc}", 2) from None
    except UnitCountError as exc:
        raise fail(f"{path}: {exc}") from None
    except (ListError, DatasheetError, EditionError, UnknownFactionError) as exc:
        raise fail(str(exc), exit_code(exc)) from None
    if options.show:
        _print_show(resolved, engine.as_json)
    else:
        try:
            run = run_army(
                resolved,
                cat,
                target,
                conditions.build(),
                options.phase.value,
                options.sequence_order.value,
                engine.method_value,
                engine.trials,
                engine.seed_value,
            )
        except (UnknownUnitError, DatasheetError, SelectionError, LookupError, ValueError) as exc:
            raise fail(str(exc)) from None
        except MemoryError:
            raise fail("out of memory; give fewer --trials or --phase shoot/fight") from None
        _print_run(run, options.phase.value, engine.as_json)
    if options.strict and not resolved.complete:
        faults = "".join(f"; {x}" for x in resolved.unit_faults())
        sys.stderr.write(
            f"error: --strict: not everything resolved ({resolved.summary()}){faults}\n"
        )
        raise typer.Exit(1)


def _source_words(chosen) -> str:
    """Where the default edition came from, as the list's heading says it: "the default",
    "from WH40K_CALC_EDITION" or "from" the config file (:class:`~wh40k_calc.edition.
    EditionChoice`; None: --edition chose)."""
    return chosen.note.strip("()") if chosen is not None and chosen.note else "the default"


def _print_show(resolved, as_json: bool) -> None:
    if as_json:
        import json

        from .output import list_json

        sys.stdout.write(json.dumps(list_json(resolved), indent=2, ensure_ascii=False) + "\n")
        return
    from ..terminal import output_console
    from .render import render_show

    render_show(resolved, output_console())


def _print_run(run, phase: str, as_json: bool) -> None:
    if as_json:
        import json

        from .output import army_json

        sys.stdout.write(json.dumps(army_json(run, phase), indent=2, ensure_ascii=False) + "\n")
        return
    from ..terminal import output_console
    from .render import render_army

    render_army(run, output_console())

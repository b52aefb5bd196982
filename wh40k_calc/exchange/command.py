"""The ``calc exchange`` command (typer): two units, each activation made by the survivors of
its unit against the other's current state.

Thin, as the other commands: build the sides (:mod:`~wh40k_calc.exchange.sides`) and the order
(:mod:`~wh40k_calc.exchange.setup`), run them (:mod:`~wh40k_calc.exchange.run`), print the
tables or the JSON.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated, ClassVar

import typer

from ..optgroup import with_groups
from ..options import EngineOptions, catalog, fail


class ExchangeEngineOptions(EngineOptions, frozen=True):
    """The engine options, with the exchange's sampler default and its JSON object."""

    help_overrides: ClassVar[dict[str, str]] = {
        "trials": "Sampler trials of the whole exchange (default 20000).",
        "as_json": "Print the exchange's JSON object.",
    }


class SideKey(StrEnum):
    """--first / --fight-first."""

    a = "a"
    b = "b"


_SIDE_HELP = (
    'One activation of side {s}: "fight UNIT [options]" or "shoot UNIT [options]", with calc '
    "fight's / calc shoot's options (--models, --loadout, --leader, --faction, --wounds-left "
    "and --allocation describe the unit, as attacker and as target; conditions, modifiers and "
    "effects are the activation's). Repeatable: one shoot and one fight activation at most."
)


@with_groups
def exchange(
    *,
    side_a: Annotated[
        list[str], typer.Option("--side-a", metavar="ACTIVATION", help=_SIDE_HELP.format(s="A"))
    ],
    side_b: Annotated[
        list[str], typer.Option("--side-b", metavar="ACTIVATION", help=_SIDE_HELP.format(s="B"))
    ],
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds",
            metavar="N",
            min=1,
            max=10,
            help="Battle rounds (two turns each; default 1).",
        ),
    ] = None,
    turns: Annotated[
        int | None,
        typer.Option(
            "--turns",
            metavar="N",
            min=1,
            max=20,
            help="Turns instead of battle rounds (--turns 1: only the first turn).",
        ),
    ] = None,
    first: Annotated[
        SideKey | None,
        typer.Option(
            "--first",
            case_sensitive=False,
            help="The side whose turn comes first (default: the side that charges, else A).",
        ),
    ] = None,
    fight_first: Annotated[
        SideKey | None,
        typer.Option(
            "--fight-first",
            case_sensitive=False,
            help="In a Fight phase where both sides or neither have Fights First, the side "
            "that fights first (default: in the 10th edition the side whose turn it is not, "
            "in edition 11 the side whose turn it is).",
        ),
    ] = None,
    engine: ExchangeEngineOptions,
) -> None:
    """Two units fighting or shooting each other, exactly: each activation is made by the
    models its unit has left, against the other unit's current state (models, the wounded
    model, Leaders), over one or more battle rounds. One row per activation, then both units'
    chances and the joint distribution of models left."""
    from ..catalog import UnknownUnitError
    from ..datasheet import DatasheetError
    from ..options import exit_code
    from ..selection import SelectionError
    from .run import run_exchange
    from .setup import build_setup
    from .sides import SideError, build_side

    if rounds is not None and turns is not None:
        raise fail("give --rounds or --turns, not both", 2)
    if engine.explain:
        raise fail(
            "--explain: calc exchange gives no attribution; give an activation to calc shoot or "
            "calc fight --explain, or several to calc sequence --explain",
            2,
        )
    n_turns = turns if turns is not None else 2 * (rounds or 1)
    try:
        cat = catalog(engine.datasheets, engine.edition_value)
        a = build_side("a", list(side_a), cat)
        b = build_side("b", list(side_b), cat)
        setup = build_setup(
            a,
            b,
            cat,
            engine,
            n_turns,
            first.value if first else None,
            fight_first.value if fight_first else None,
        )
        result = run_exchange(setup, engine.method_value, engine.trials, engine.seed_value)
    except SideError as exc:  # words that do not parse: a usage error (2), as at top level
        raise fail(str(exc), 2 if exc.usage else 1) from None
    except (UnknownUnitError, DatasheetError, SelectionError, LookupError, ValueError) as exc:
        raise fail(str(exc), exit_code(exc)) from None
    except MemoryError:
        raise fail("out of memory; give fewer --trials or smaller units") from None
    if engine.as_json:
        import json

        from .output import to_json_exchange

        sys.stdout.write(json.dumps(to_json_exchange(result), indent=2) + "\n")
        return
    from ..terminal import output_console
    from .render import render_exchange

    render_exchange(result, output_console())

"""The ``calc sequence`` command (typer): several activations against one target, each from
the state the earlier ones left.

Thin, as the other commands: parse the steps (:mod:`~wh40k_calc.sequence.steps`), run them
(:mod:`~wh40k_calc.sequence.run`), print the tables or the JSON.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ..optgroup import with_groups
from ..options import EngineOptions, TargetOptions, catalog, fail, warning


@with_groups
def sequence(
    steps: Annotated[
        list[str],
        typer.Argument(
            metavar="STEP...",
            help='Activations in order, each quoted: "shoot ATTACKER [options]" or "fight '
            "ATTACKER [options]\" with calc shoot's / calc fight's attacker options, "
            "conditions, modifiers and effects.",
        ),
    ],
    *,
    target: TargetOptions,
    engine: EngineOptions,
    repeat: Annotated[
        int,
        typer.Option(
            "--repeat",
            metavar="N",
            min=1,
            help="Repeat the whole list of steps N times (how many volleys; at most 60 "
            "activations in all).",
        ),
    ] = 1,
) -> None:
    """Several activations against one target, in order, exactly: the target's state after
    each step (models destroyed, the wounded model, a Leader's wounds) is the start of the
    next. One row per step, then the kill table of the whole sequence."""
    from ..catalog import UnknownUnitError
    from ..datasheet import DatasheetError
    from ..options import exit_code
    from ..progress import progress_bar
    from ..resolve import sampler_unused_note
    from ..selection import SelectionError
    from .run import run_sequence
    from .steps import StepError, build_steps

    bar = progress_bar()  # a long sampled run: on the standard error of a terminal only
    try:
        cat = catalog(engine.datasheets, engine.edition_value)
        plan = build_steps(list(steps), cat, target, engine, repeat)
        seed = engine.seed_value
        seq = run_sequence(plan, engine.method_value, engine.trials, seed, bar, warn=warning)
        note = sampler_unused_note(engine.sampler_given()) if seq.method == "exact" else None
        if note:
            seq.notes.append(note)
        if engine.explain:
            from .explain import explain_sequence

            seq = explain_sequence(seq, engine.seed_value)
    except StepError as exc:  # words that do not parse: a usage error (2), as at top level
        raise fail(str(exc), 2 if exc.usage else 1) from None
    except (UnknownUnitError, DatasheetError, SelectionError, LookupError, ValueError) as exc:
        raise fail(str(exc), exit_code(exc)) from None
    except MemoryError:
        trials = f"{engine.trials:,} sampler trials" if engine.trials else "this sequence"
        raise fail(f"out of memory with {trials}; give fewer --trials") from None
    finally:
        if bar is not None:
            bar.stop()
    if engine.as_json:
        import json

        from .output import to_json_sequence

        sys.stdout.write(json.dumps(to_json_sequence(seq), indent=2) + "\n")
        return
    from ..terminal import output_console
    from .render import render_sequence

    render_sequence(seq, output_console())

"""The ``calc compare`` command (typer): a batch file, or attackers x loadouts x targets.

The command runs four steps, each a function below: check where the output goes
(:func:`_csv_destination`), build the jobs from the batch file or from the command line
(:func:`_jobs`), run them (:func:`_run`), and print or write the results (:func:`_report`).
It shares the condition flags, ``--effect`` and the engine options with ``calc shoot``
(:mod:`wh40k_calc.options`). ``calc`` imports this module only to run ``compare`` (or list it
in ``calc -h``), and the batch and job machinery only inside the steps.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import typer
from msgspec import Struct

from ..optgroup import OptionGroup, with_groups
from ..options import (
    ConditionOptions,
    EffectOpt,
    EngineOptions,
    FactionOpt,
    TargetFactionOpt,
    exit_code,
    fail,
    named,
    nonblank,
)
from .table import SortKey

if TYPE_CHECKING:
    from ..catalog import Catalog
    from .jobs import Job, Row, RunError


class CrossOptions(OptionGroup, Struct, frozen=True):
    """What ``calc compare ATTACKER...`` crosses: targets and target sets, loadouts and sizes
    (each repeatable), Leaders attached to every attacker, the phase, and the factions names are
    looked up in. Not with a batch file."""

    target: Annotated[
        list[str] | None,
        typer.Option(
            "--target", "-t", metavar="NAME", help="Target unit (repeatable).", callback=named
        ),
    ] = None
    target_set: Annotated[
        list[str] | None,
        typer.Option(
            "--target-set",
            metavar="NAME",
            help="A named set of targets, e.g. 'benchmarks' (repeatable; with --target too).",
            callback=named,
        ),
    ] = None
    loadout: Annotated[
        list[str] | None,
        typer.Option(
            "--loadout",
            metavar="NAME",
            help="Named loadout of the attacker (repeatable).",
            callback=named,
        ),
    ] = None
    models: Annotated[
        list[int] | None,
        typer.Option(
            "--models",
            metavar="N",
            help="Attacking unit size (repeatable; a listed size, or fewer models than the "
            "smallest for a damaged unit).",
        ),
    ] = None
    leader: Annotated[
        list[str] | None,
        typer.Option(
            "--leader",
            metavar="NAME",
            help="Leader attached to each attacker (repeatable).",
            callback=named,
        ),
    ] = None
    fight: Annotated[
        bool, typer.Option("--fight", help="Melee (the Fight phase) instead of shooting.")
    ] = False
    faction: FactionOpt = None
    target_faction: TargetFactionOpt = None


class ArmyCompareOptions(OptionGroup, Struct, frozen=True):
    """``calc compare --army LIST``: army lists whose units (and the whole army in sequence)
    are compared against the targets, the phases, and factions that count as allies."""

    army: Annotated[
        list[str] | None,
        typer.Option(
            "--army",
            metavar="LIST",
            help="An army list export (as calc army reads it): each of its units, and the "
            "whole army in sequence, against each target (repeatable: several lists).",
            callback=nonblank("file"),
        ),
    ] = None
    phase: Annotated[
        str | None,
        typer.Option(
            "--phase",
            metavar="shoot|fight|both",
            help="With --army: each unit's shooting, its melee, or both (default both).",
        ),
    ] = None
    allies: Annotated[
        list[str] | None,
        typer.Option(
            "--allies",
            metavar="FACTION",
            help="With --army: a faction whose units count as allies (repeatable).",
        ),
    ] = None


class CompareEngineOptions(EngineOptions, frozen=True):
    """The engine options of ``calc shoot``; here each one given overrides a batch file's."""

    help_overrides: ClassVar[dict[str, str]] = {
        "edition": "Rules edition, and its datasheets (default: a batch file's, else "
        "WH40K_CALC_EDITION, else the config file's 'edition', else 10; overrides a batch "
        "file's).",
        "method": "exact (default), sample or both; overrides a batch file's.",
        "trials": "Sampler trials (default 100000; overrides a batch file's).",
        "seed": "Sampler seed (0 or more; default 40000; overrides a batch file's).",
        "as_json": "Print a list of JSON contract objects.",
    }


class OutputOptions(OptionGroup, Struct, frozen=True):
    """How the rows are ranked and where they go; whether the first error stops the run; how
    many processes resolve the runs."""

    sort: Annotated[
        SortKey, typer.Option(case_sensitive=False, help="Rank by this figure, best first.")
    ] = SortKey.models
    csv_path: Annotated[
        str | None,
        typer.Option("--csv", metavar="PATH", help="Write the table as CSV ('-': stdout)."),
    ] = None
    force: Annotated[
        bool, typer.Option("--force", help="Let --csv overwrite an existing file.")
    ] = False
    strict: Annotated[
        bool, typer.Option("--strict", help="Stop at the first error (exit code 1).")
    ] = False
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            metavar="N",
            min=1,
            help="Worker processes (default: every core above 300 distinct runs, else 1).",
        ),
    ] = None


@with_groups
def compare(
    what: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="BATCH.yaml | ATTACKER...",
            help="A batch file, or attacking units (datasheet names) to cross with "
            "--loadout, --models and --target (none with --army).",
            callback=named,
        ),
    ] = None,
    *,
    cross: CrossOptions,
    army: ArmyCompareOptions,
    conditions: ConditionOptions,
    effect: EffectOpt = None,
    engine: CompareEngineOptions,
    output: OutputOptions,
) -> None:
    """Compare runs side by side: a batch file, attackers × loadouts × targets, or the
    units of army lists (--army) and each army in sequence.

    One row per (run, target), grouped by target and ranked by --sort: expected damage,
    models destroyed, P(wipe), target points destroyed per 100 points of attacker, and the
    attacker's Hazardous losses.
    """
    what = list(what or [])
    csv_file = _csv_destination(output, what, engine.as_json)
    if army.army or army.phase is not None or army.allies:
        items, title = _army_jobs(what, cross, army, conditions, list(effect or []), engine)
    else:
        if not what:
            raise fail("give a batch file, attacker names, or --army LIST", 2)
        if "-" in what:  # as `calc army -` reads a list: here a batch's paths need its folder
            raise fail(
                "-: calc compare does not read a batch file from the standard input (its "
                "datasheets: and other paths are relative to the file's folder); give the "
                "file's name, e.g. calc compare examples/lootas-loadouts.yaml",
                2,
            )
        notes = engine.as_json or output.csv_path is None  # the CSV shows no note
        items, title = _jobs(what, cross, conditions, list(effect or []), engine, notes)
    _refuse_bad_targets(items)
    if not engine.as_json:  # the table and the CSV show no distributions: none is computed
        items = _without_detail(items, notes=output.csv_path is None)
    if engine.explain:
        items = _explained(items)
    show_progress = sys.stderr.isatty()  # on the standard error only: JSON and CSV untouched
    rows, errors = _run(items, output.strict, show_progress, output.jobs)
    _report(rows, errors, output, csv_file, engine.as_json, title)


def _refuse_bad_targets(items: list[Job | RunError]) -> None:
    """A ``--target`` that cannot be a target (unknown, of several factions) is the command
    line's error, for every run: said before anything is computed, each once, exit code 1
    (not a table of the other targets with the error after it)."""
    from .jobs import RunError

    bad = [
        e
        for e in items
        if isinstance(e, RunError) and e.run is None and (e.field or "").startswith("--target ")
    ]
    for e in bad[:-1]:
        fail(str(e))
    if bad:
        raise fail(str(bad[-1]))


def _explained(items: list[Job | RunError]) -> list[Job | RunError]:
    """The jobs with ``--explain`` (``Job.explain``): an activation's or a sequence's object
    then carries ``attribution`` and ``wasted``, and the table is followed by them."""
    from ..records import replace
    from .jobs import Job

    return [replace(j, explain=True) if isinstance(j, Job) else j for j in items]


def _without_detail(items: list[Job | RunError], notes: bool = True) -> list[Job | RunError]:
    """The jobs asking only for what the table and the CSV show (``Job.detail`` False; with
    ``notes`` False, for the CSV, which shows no note, ``Job.notes`` False too)."""
    from ..records import replace
    from .jobs import Job

    return [
        replace(j, detail=False, notes=notes and j.notes)
        if isinstance(j, Job) and (j.detail or (j.notes and not notes))
        else j
        for j in items
    ]


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to ``app`` (called by ``wh40k_calc.cli``)."""
    app.command("compare")(compare)


# ---------------------------------------------------------------------------------------------
# The steps


def _csv_destination(output: OutputOptions, what: list[str], as_json: bool) -> Path | None:
    """The file ``--csv`` writes (None: no file, or stdout), refused before any work when it
    cannot be written: no name, a folder, a file where a folder of its path goes, an existing
    file without --force, the batch file itself; and with ``--json`` (``--csv`` writes the
    table instead of printing it: one output or the other). Missing folders of the path are
    created when the file is written, as ``calc import --out`` creates its folder."""
    import os

    path = output.csv_path
    if path is None:
        return None
    if as_json:
        raise fail(
            "--json and --csv: choose one (--csv writes the table as CSV instead of printing it; "
            "--json prints the JSON list)",
            2,
        )
    if path == "-":
        return None
    if not path.strip():
        raise fail("--csv: give a file name (or '-' for the standard output)", 2)
    csv_file = Path(path)
    folder = next((p for p in csv_file.parents if p.exists()), csv_file.parent)
    if folder.exists() and not folder.is_dir():
        raise fail(f"--csv {path}: {folder} is a file, not a folder")
    if csv_file.is_dir():
        raise fail(f"--csv {path}: is a folder (give a file name in it, e.g. {path}/compare.csv)")
    if csv_file.exists() and not output.force:
        raise fail(f"--csv {path}: the file exists (add --force to overwrite it)")
    if csv_file.exists() and any(Path(w).exists() and os.path.samefile(w, csv_file) for w in what):
        raise fail(f"--csv {path}: that is the batch file being read")
    return csv_file


def _refuse_special_file(arg: str) -> None:
    """A path (with a slash, not named .yaml) that names something not a regular file (a
    device such as /dev/zero, a pipe): refused as no batch file, not read as FACTION/UNIT.

    Raises:
        BatchError: naming it.
    """
    from ..batch import BatchError

    p = Path(arg)
    if ("/" not in arg and "\\" not in arg) or p.suffix.lower() in (".yaml", ".yml"):
        return  # a unit's name; or a batch file's, which the reader refuses as it is
    try:
        if not p.exists() or p.is_file() or p.is_dir():
            return  # (a folder: said with the batch files it holds, by the reader)
    except OSError:
        return
    raise BatchError(
        f"{arg}: not a regular file (a device or a pipe), not a batch file (give a batch "
        "file, e.g. examples/lootas-loadouts.yaml, or attacker names with --target)"
    )


def _not_a_file_here(word: str) -> str | None:
    """What ``word``, a bare word (no slash), names in the current folder when that is no
    regular file ("a folder", "a device or a pipe"), else None."""
    if "/" in word or "\\" in word or not word:
        return None
    try:
        p = Path(word)
        if p.is_dir():
            return "a folder"
        if p.exists() and not p.is_file():
            return "a device or a pipe"
    except (OSError, ValueError):
        pass
    return None


def _names_a_unit(cat: Catalog, name: str, faction: str | None) -> bool:
    """Whether ``name`` is a unit's name in ``cat`` (a name of several factions' units is)."""
    from ..catalog import UnknownUnitError

    try:
        cat.entry(name, faction)
    except UnknownUnitError:
        return False
    except (LookupError, ValueError):
        return True  # ambiguous, an unknown faction, ...: the lookup proper says it
    return True


def _is_batch(arg: str) -> bool:
    p = Path(arg)
    return p.suffix.lower() in (".yaml", ".yml") or (p.is_file() and ("/" in arg or "\\" in arg))


def _jobs(
    what: list[str],
    cross: CrossOptions,
    conditions: ConditionOptions,
    effects: list[str],
    engine: EngineOptions,
    notes: bool = True,
) -> tuple[list[Job | RunError], str | None]:
    """The jobs (and errors in their place) in batch order, and the table's title (a batch
    file's jobs made as the output needs them: ``notes`` False, none shown)."""
    from ..batch import BatchError
    from ..datasheet import DatasheetError
    from ..edition import EditionError

    try:
        if len(what) == 1:
            _refuse_special_file(what[0])
        if len(what) == 1 and _is_batch(what[0]):
            clash = [*cross.changed(), *(["--effect"] if effects else []), *conditions.changed()]
            if clash:
                raise fail(
                    f"{', '.join(clash)}: not with a batch file (put it in the file; "
                    "--edition, --method, --trials and --seed do override the file's)",
                    2,
                )
            return _jobs_from_batch_file(Path(what[0]), engine, engine.as_json, notes)
        return _jobs_from_command_line(what, cross, conditions, effects, engine), None
    except (BatchError, DatasheetError, EditionError) as exc:
        raise fail(str(exc), exit_code(exc)) from None


def _army_jobs(
    what: list[str],
    cross: CrossOptions,
    army: ArmyCompareOptions,
    conditions: ConditionOptions,
    effects: list[str],
    engine: EngineOptions,
) -> tuple[list[Job | RunError], str | None]:
    """The jobs of ``calc compare --army LIST...``: the lists' units and armies against the
    targets (:mod:`wh40k_calc.lists.jobs`)."""
    from ..datasheet import DatasheetError
    from ..lists.jobs import army_jobs
    from ..options import catalog

    if not army.army:
        raise fail("--phase and --allies go with --army LIST", 2)
    clash = [
        *(["ATTACKER or BATCH.yaml"] if what else []),
        *(o for o in cross.changed() if o not in ("--target", "--target-set", "--target-faction")),
        *(["--effect"] if effects else []),
    ]
    if clash:
        raise fail(
            f"{', '.join(clash)}: not with --army (the lists give the attackers; conditions "
            "and the target options apply)",
            2,
        )
    phase = army.phase or "both"
    if phase not in ("shoot", "fight", "both"):
        raise fail(f"--phase {phase!r}: choose shoot, fight or both", 2)
    if not cross.target and not cross.target_set:
        raise fail("give at least one --target or --target-set with --army", 2)
    from ..catalog import UnknownFactionError
    from ..edition import EditionError, choose
    from ..lists.command import _source_words

    try:
        edition = engine.edition.value if engine.edition else None
        chosen = None if edition else choose(None)  # the environment's or the config file's
        default = edition or (chosen.edition if chosen else "10")
        cat = catalog(engine.datasheets, default)
        targets = _targets(cross, cat)
        jobs = army_jobs(
            list(army.army),
            cat,
            targets,
            phase=phase,
            conditions=conditions.build(),
            edition=edition,
            default_edition=default,
            default_source=_source_words(chosen),
            method=engine.method_value,
            trials=engine.trials,
            seed=engine.seed_value,
            allies=tuple(army.allies or ()),
            factions={"attacker": None, "target": cross.target_faction},
        )
    except (DatasheetError, EditionError, UnknownFactionError) as exc:
        raise fail(str(exc), exit_code(exc)) from None
    return jobs, "Army " + " and ".join(army.army)


def _targets(cross: CrossOptions, cat) -> list:
    """``--target`` names and the entries of each ``--target-set``."""
    targets: list = list(cross.target or [])
    for name in cross.target_set or []:
        from ..target_set import TargetSetError, find_target_set

        try:
            targets += find_target_set(name, cat).entries()
        except TargetSetError as exc:
            raise fail(f"--target-set: {exc}") from None
    return targets


def _jobs_from_batch_file(
    path: Path, engine: EngineOptions, detail: bool = True, notes: bool = True
) -> tuple[list[Job | RunError], str | None]:
    from ..batch import load_batch
    from ..edition import choose
    from ..options import catalog
    from .jobs import Overrides, jobs_from_batch

    batch = load_batch(path)
    edition = engine.edition.value if engine.edition else None
    fallback = edition or choose(None).edition  # the environment's or the config file's
    cat = catalog([*(engine.datasheets or []), *batch.datasheets], fallback)
    overrides = Overrides(
        edition,
        engine.method.value if engine.method else None,
        engine.trials,
        engine.seed,
        fallback_edition=fallback,
        detail=detail,  # the jobs made as the output needs them: no copy of each made later
        notes=notes,
    )
    return jobs_from_batch(batch, cat, overrides), batch.defaults.title


def _check_effect_forms(effects: list[str]) -> None:
    """Each ``--effect`` of the command line well formed, as ``calc shoot`` checks it: a name,
    at most one ``:OPTION`` part, an option after a ``:``.

    Raises:
        typer.Exit: code 2 (a usage error), after the error line.
    """
    from ..effects import EffectFormError, parse_request

    for text in effects:
        try:
            parse_request(text)
        except EffectFormError as exc:
            raise fail(str(exc), 2) from None


def _check_models(models: list[int] | None) -> None:
    """Each ``--models`` of the command line at least one model, as ``calc shoot`` checks
    it: fewer is no unit at all, whatever the datasheet (a batch file's ``models: 0`` is that
    run's error instead).

    Raises:
        typer.Exit: code 2 (a usage error), after the error line.
    """
    for n in models or ():
        if n < 1:
            raise fail(
                f"--models {n}: a unit cannot have {n} models (give 1 or more: a listed size, "
                "or fewer models than it for a damaged unit)",
                2,
            )


def _jobs_from_command_line(
    what: list[str],
    cross: CrossOptions,
    conditions: ConditionOptions,
    effects: list[str],
    engine: EngineOptions,
) -> list[Job | RunError]:
    from ..options import catalog
    from .jobs import jobs_from_options

    batchish = [w for w in what if _is_batch(w)]
    if batchish:
        raise fail(f"{batchish[0]}: give one batch file on its own, or attacker names", 2)
    folders = [w for w in what if Path(w).is_dir() and ("/" in w or "\\" in w or w == ".")]
    if folders:
        raise fail(
            f"{folders[0]}: is a folder, not a batch file (give a batch file, e.g. "
            "examples/lootas-loadouts.yaml, or attacker names with --target)"
        )
    for w in what:
        _refuse_special_file(w)  # a path to a pipe or device among attacker names
    cat = None
    here = [(w, kind) for w in what if (kind := _not_a_file_here(w))]
    if here:  # a bare word naming a folder or pipe of the current folder: a unit's name?
        cat = catalog(engine.datasheets, engine.edition_value)
        for w, kind in here:
            if not _names_a_unit(cat, w, cross.faction):
                raise fail(
                    f"{w}: {kind} here, not a batch file, and no unit has that name (give a "
                    "batch file, e.g. examples/lootas-loadouts.yaml, or attacker names with "
                    "--target)"
                )
    if not cross.target and not cross.target_set:
        raise fail("give at least one --target or --target-set (or a batch file)", 2)
    _check_effect_forms(effects)
    _check_models(cross.models)
    cat = cat or catalog(engine.datasheets, engine.edition_value)
    targets = _targets(cross, cat)
    return jobs_from_options(
        cat,
        list(what),
        targets,
        loadouts=cross.loadout,
        models=cross.models,
        leaders=cross.leader,
        phase="fight" if cross.fight else "shooting",
        conditions=conditions.build(),
        effects=effects,
        edition=engine.edition_value,
        method=engine.method_value,
        trials=engine.trials,
        seed=engine.seed_value,
        factions={"attacker": cross.faction, "target": cross.target_faction},
        sampler_set=engine.sampler_given(),
    )


def _run(
    items: list[Job | RunError], strict: bool, show_progress: bool, workers: int | None
) -> tuple[list[Row], list[RunError]]:
    """Resolve the jobs (a progress bar on a terminal), each distinct one once, on ``workers``
    processes (None: chosen by the batch's size); with ``strict``, exit at the first error."""
    from .jobs import RunError
    from .runner import run_jobs

    workers = _capped_workers(workers, items)
    if strict:
        first = next((i for i in items if isinstance(i, RunError)), None)
        if first is not None:
            _print_errors([first])
            raise typer.Exit(1)
    bar = _RowProgress(len(items)) if show_progress else None
    try:
        rows, errors = run_jobs(items, strict=strict, tick=bar, workers=workers)
    finally:
        if bar is not None:
            bar.stop()
    if strict and errors:
        _print_errors(errors[-1:])
        raise typer.Exit(1)
    return rows, errors


def _capped_workers(workers: int | None, items: list[Job | RunError]) -> int | None:
    """``--jobs N`` lowered to the cores this process may use, said in a note on stderr with
    the number of processes that will run: never more than the distinct jobs to resolve
    (``run_jobs`` starts no more), and nothing said when there is none."""
    from ..wording import count
    from .runner import distinct_jobs, usable_cores

    cores = usable_cores()
    if workers is None or workers <= cores:
        return workers
    jobs = distinct_jobs(items)
    if jobs == 0:
        return cores
    if jobs < cores:
        sys.stderr.write(
            f"note: --jobs {workers}: {count(jobs, 'process', 'processes')} used (one for "
            f"each distinct job to resolve)\n"
        )
        return cores
    sys.stderr.write(
        f"note: --jobs {workers} lowered to {cores} (the cores this process may use; more "
        "worker processes than cores only slow the batch down)\n"
    )
    return cores


def _report(
    rows: list[Row],
    errors: list[RunError],
    output: OutputOptions,
    csv_file: Path | None,
    as_json: bool,
    title: str | None,
) -> None:
    """JSON, CSV (stdout or file) or the table; then the errors (exit code 1 if any)."""
    from .table import render_table, write_csv

    if as_json:
        _write_json(rows, output.sort.value)
    if output.csv_path == "-":
        write_csv(rows, output.sort.value, sys.stdout)
    elif csv_file is not None:
        _write_csv_file(rows, output, csv_file)
    if not as_json and output.csv_path is None and rows:
        from ..terminal import output_console

        console = output_console()
        render_table(rows, output.sort.value, console, title)
        _print_explained(rows, console)
    if errors:
        _print_errors(errors)
        raise typer.Exit(1)


def _print_explained(rows: list[Row], console: Any) -> None:
    """``--explain``: after the table, each row's attribution and wasted damage (those that
    have them), titled with the run and its target."""
    from ..explained import attribution_table, waste_table
    from ..layout import print_table

    for r in rows:
        a, w = r.result.get("attribution"), r.result.get("wasted")
        head = f"{r.job.run} against {r.job.target_label or r.result['target']['name']}: "
        if a is not None and a["rules"]:
            print_table(console, attribution_table(a, head + "what each rule adds"))
        if w is not None:
            print_table(console, waste_table(w, head + "where the damage went"))


def _write_json(rows: list[Row], key: str) -> None:
    """The rows' objects as one JSON list (the text ``json.dumps(objects, indent=2)`` gives):
    each row's contract object with ``"run"`` first and the table's own figures last
    (``"compared"``, :func:`~wh40k_calc.compare.table.compared`). Written row by row so that
    memory does not grow with it; rows of one job (the same run repeated, e.g. through a YAML
    alias) share their contract object, serialised once."""
    import json
    import textwrap

    from .table import compared

    if not rows:
        sys.stdout.write("[]\n")
        return
    bodies: dict[tuple[int, ...], str] = {}
    sys.stdout.write("[\n")
    for i, (r, figures) in enumerate(zip(rows, compared(rows, key), strict=True)):
        rest = [(k, v) for k, v in r.result.items() if k != "run"]  # "run" is the first key
        shared = tuple(id(v) for _, v in rest)
        body = bodies.get(shared)
        if body is None:
            text = textwrap.indent(json.dumps(dict(rest), indent=2), "  ")
            body = bodies[shared] = text[len("  {\n") : -len("\n  }")]
        head = '  {\n    "run": ' + json.dumps(r.result["run"]) + ",\n"
        tail = textwrap.indent(json.dumps(figures, indent=2), "    ")[len("    ") :]
        end = ",\n" if i < len(rows) - 1 else "\n"
        sys.stdout.write(head + body + ',\n    "compared": ' + tail + "\n  }" + end)
    sys.stdout.write("]\n")


def _write_csv_file(rows: list[Row], output: OutputOptions, csv_file: Path) -> None:
    from .table import write_csv

    created = not csv_file.parent.is_dir()
    try:
        csv_file.parent.mkdir(parents=True, exist_ok=True)
        with csv_file.open("w" if output.force else "x", encoding="utf-8", newline="") as fh:
            write_csv(rows, output.sort.value, fh)
    except FileExistsError:
        raise fail(
            f"--csv {output.csv_path}: the file exists (add --force to overwrite it)"
        ) from None
    except OSError as exc:
        raise fail(f"--csv {output.csv_path}: cannot write: {exc.strerror or exc}") from None
    from ..terminal import escape_controls
    from ..wording import count

    made = f" (created the folder {csv_file.parent})" if created else ""
    said = escape_controls(f"wrote {count(len(rows), 'row')} to {output.csv_path}{made}")
    sys.stderr.write(said + "\n")


def _print_errors(errors: list[RunError]) -> None:
    from rich.console import Console
    from rich.text import Text

    from ..terminal import escape_controls
    from ..wording import shorten_quoted

    con = Console(stderr=True, highlight=False, soft_wrap=True)
    for line in error_lines(errors):
        con.print(Text.assemble(("error:", "bold red"), " ", escape_controls(shorten_quoted(line))))


def error_lines(errors: list[RunError]) -> list[str]:
    """One line per error; the same error against several targets once, naming them ("run
    'x' against boyz and rhino: Carnifexes has no ranged weapon"), and the same error in
    several runs (a bad default target) once, naming the runs: "b.yaml:1: runs 'a', 'b' and
    'c' against bozy: (top level) targets[2]: unknown unit 'bozy' ..."."""
    from ..records import replace
    from ..wording import join_words

    by_run: dict[tuple, list[RunError]] = {}  # the same error of one run, target by target
    key: tuple  # a run's error, then a group's
    for e in errors:
        key = (e.source, e.line, e.run, e.field, e.message) if e.run is not None else (id(e),)
        by_run.setdefault(key, []).append(e)
    groups: dict[tuple, list[RunError]] = {}  # ... then the same (targets, error) in runs
    for same in by_run.values():
        e = same[0]
        targets = list(dict.fromkeys(x.target for x in same if x.target))
        if len(targets) > 1:
            e = replace(e, target=join_words(targets))
        key = (e.source, e.line, e.target, e.field, e.message) if e.run is not None else (id(e),)
        groups.setdefault(key, []).append(e)
    return [
        same[0].describe([e.run for e in same if e.run is not None]) for same in groups.values()
    ]


class _RowProgress:
    """A transient rich progress bar on stderr, shown once the batch has run for 0.3 s."""

    def __init__(self, total: int):
        self.total = total
        self.done = 0
        self.start = time.monotonic()
        self.bar: Any = None
        self.task: Any = None

    def __call__(self) -> None:
        self.done += 1
        if self.bar is None:
            if time.monotonic() - self.start < 0.3 or self.done >= self.total:
                return
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("comparing", total=self.total, completed=self.done)
        self.bar.update(self.task, completed=self.done)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

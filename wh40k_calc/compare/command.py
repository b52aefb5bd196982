"""The ``calc compare`` command (typer): a batch file, or attackers x loadouts x targets."""

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from ..batch import BatchError, load_batch
from ..datasheet import DatasheetError
from ..selection import Conditions
from .jobs import Overrides, RunError, jobs_from_batch, jobs_from_options, run_jobs
from .table import SortKey, render_table, write_csv


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


def _print_errors(errors: list[RunError]) -> None:
    from rich.console import Console
    from rich.markup import escape

    con = Console(stderr=True, highlight=False, soft_wrap=True)
    for e in errors:
        con.print(f"[bold red]error:[/bold red] {escape(str(e))}")


def _is_batch(arg: str) -> bool:
    p = Path(arg)
    return p.suffix.lower() in (".yaml", ".yml") or (p.is_file() and ("/" in arg or "\\" in arg))


# ---------------------------------------------------------------------------------------------
# The command


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to ``app`` (called by ``wh40k_calc.cli``)."""
    from ..options import (
        Beyond12,
        Charged,
        Cover,
        DatasheetsOpt,
        Disembarked,
        Edition,
        EffectOpt,
        FactionOpt,
        HalfRange,
        Indirect,
        Method,
        Objective,
        Overwatch,
        PlungingFire,
        Stationary,
        TargetFactionOpt,
        catalog,
        fail,
    )

    def compare(
        what: Annotated[
            list[str],
            typer.Argument(
                metavar="BATCH.yaml | ATTACKER...",
                help="A batch file, or attacking units (datasheet names) to cross with "
                "--loadout, --models and --target.",
            ),
        ],
        target: Annotated[
            list[str] | None,
            typer.Option("--target", "-t", help="Target unit (repeatable)."),
        ] = None,
        loadout: Annotated[
            list[str] | None,
            typer.Option("--loadout", help="Named loadout of the attacker (repeatable)."),
        ] = None,
        models: Annotated[
            list[int] | None,
            typer.Option(
                "--models",
                help="Attacking unit size (repeatable; a listed size, or fewer models than the "
                "smallest for a damaged unit).",
            ),
        ] = None,
        leader: Annotated[
            list[str] | None,
            typer.Option("--leader", help="Leader attached to each attacker (repeatable)."),
        ] = None,
        fight: Annotated[
            bool, typer.Option("--fight", help="Melee (the Fight phase) instead of shooting.")
        ] = False,
        half_range: HalfRange = False,
        stationary: Stationary = False,
        charged: Charged = False,
        cover: Cover = False,
        objective: Objective = False,
        overwatch: Overwatch = False,
        indirect: Indirect = False,
        beyond_12: Beyond12 = False,
        disembarked: Disembarked = False,
        plunging_fire: PlungingFire = False,
        effect: EffectOpt = None,
        edition: Annotated[
            Edition | None,
            typer.Option(help="Rules edition (default 10; overrides a batch file's)."),
        ] = None,
        method: Annotated[
            Method | None,
            typer.Option(
                case_sensitive=False,
                help="exact (default), sample or both; overrides a batch file's.",
            ),
        ] = None,
        trials: Annotated[
            int | None,
            typer.Option(min=1, max=100_000_000, help="Sampler trials (default 100000)."),
        ] = None,
        seed: Annotated[
            int | None, typer.Option(min=0, help="Sampler seed (0 or more; default 40000).")
        ] = None,
        datasheets: DatasheetsOpt = None,
        faction: FactionOpt = None,
        target_faction: TargetFactionOpt = None,
        sort: Annotated[
            SortKey, typer.Option(case_sensitive=False, help="Rank by this figure, best first.")
        ] = SortKey.models,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print a list of JSON contract objects.")
        ] = False,
        csv_path: Annotated[
            str | None,
            typer.Option("--csv", metavar="PATH", help="Write the table as CSV ('-': stdout)."),
        ] = None,
        force: Annotated[
            bool, typer.Option("--force", help="Let --csv overwrite an existing file.")
        ] = False,
        strict: Annotated[
            bool, typer.Option("--strict", help="Stop at the first error (exit code 1).")
        ] = False,
    ) -> None:
        """Compare runs side by side: a batch file, or attackers × loadouts × targets.

        One row per (run, target), grouped by target and ranked by --sort: expected damage,
        models destroyed, P(wipe), target points destroyed per 100 points of attacker, and the
        attacker's Hazardous losses.
        """
        if as_json and csv_path == "-":
            raise fail("--json and --csv - both write to stdout: choose one")
        csv_file = None
        if csv_path is not None and csv_path != "-":
            csv_file = Path(csv_path)
            if csv_file.is_dir():
                raise fail(f"--csv {csv_path}: is a folder")
            if csv_file.exists() and not force:
                raise fail(f"--csv {csv_path}: the file exists (add --force to overwrite it)")
            if csv_file.exists() and any(
                Path(w).exists() and os.path.samefile(w, csv_file) for w in what
            ):
                raise fail(f"--csv {csv_path}: that is the batch file being read")
        title = None
        try:
            if len(what) == 1 and _is_batch(what[0]):
                given = [
                    ("--target", target),
                    ("--loadout", loadout),
                    ("--models", models),
                    ("--leader", leader),
                    ("--effect", effect),
                    ("--fight", fight),
                    *(
                        ("--" + n.replace("_", "-"), v)
                        for n, v in (
                            ("half_range", half_range),
                            ("stationary", stationary),
                            ("charged", charged),
                            ("cover", cover),
                            ("objective", objective),
                            ("overwatch", overwatch),
                            ("indirect", indirect),
                            ("beyond_12", beyond_12),
                            ("disembarked", disembarked),
                            ("plunging_fire", plunging_fire),
                        )
                    ),
                ]
                clash = [opt for opt, v in given if v]
                if clash:
                    raise fail(
                        f"{', '.join(clash)}: not with a batch file (put it in the file; "
                        "--edition, --method, --trials and --seed do override the file's)"
                    )
                batch = load_batch(Path(what[0]))
                title = batch.defaults.title
                cat = catalog([*(datasheets or []), *batch.datasheets])
                items = jobs_from_batch(
                    batch,
                    cat,
                    Overrides(
                        edition.value if edition else None,
                        method.value if method else None,
                        trials,
                        seed,
                    ),
                )
            else:
                batchish = [w for w in what if _is_batch(w)]
                if batchish:
                    raise fail(f"{batchish[0]}: give one batch file on its own, or attacker names")
                if not target:
                    raise fail("give at least one --target (or a batch file)")
                cat = catalog(datasheets)
                items = jobs_from_options(
                    cat,
                    list(what),
                    list(target),
                    loadouts=loadout,
                    models=models,
                    leaders=leader,
                    phase="fight" if fight else "shooting",
                    conditions=Conditions(
                        half_range,
                        stationary,
                        charged,
                        cover,
                        objective,
                        overwatch,
                        indirect,
                        beyond_12,
                        disembarked,
                        plunging_fire,
                    ),
                    effects=effect,
                    edition=edition.value if edition else "10",
                    method=method.value if method else "exact",
                    trials=trials or 100_000,
                    seed=40_000 if seed is None else seed,
                    factions={"attacker": faction, "target": target_faction},
                )
        except (BatchError, DatasheetError) as exc:
            raise fail(str(exc)) from None

        if strict:
            first = next((i for i in items if isinstance(i, RunError)), None)
            if first is not None:
                _print_errors([first])
                raise typer.Exit(1)
        show_progress = not as_json and csv_path is None and sys.stderr.isatty()
        bar = _RowProgress(len(items)) if show_progress else None
        try:
            rows, errors = run_jobs(items, strict=strict, tick=bar)
        finally:
            if bar is not None:
                bar.stop()
        if strict and errors:
            _print_errors(errors[-1:])
            raise typer.Exit(1)

        if as_json:
            sys.stdout.write(json.dumps([r.result for r in rows], indent=2) + "\n")
        if csv_path == "-":
            write_csv(rows, sort.value, sys.stdout)
        elif csv_file is not None:
            try:
                with csv_file.open("w" if force else "x", encoding="utf-8", newline="") as fh:
                    write_csv(rows, sort.value, fh)
            except FileExistsError:
                raise fail(
                    f"--csv {csv_path}: the file exists (add --force to overwrite it)"
                ) from None
            except OSError as exc:
                raise fail(f"--csv {csv_path}: cannot write: {exc.strerror or exc}") from None
            sys.stderr.write(f"wrote {len(rows)} rows to {csv_path}\n")
        if not as_json and csv_path is None and rows:
            from rich.console import Console

            render_table(rows, sort.value, Console(highlight=False), title)
        if errors:
            _print_errors(errors)
            raise typer.Exit(1)

    app.command("compare")(compare)

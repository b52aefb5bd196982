"""The command line (typer): parse, build the Selection, resolve, render. Thin on purpose.

``calc shoot ATTACKER --target TARGET`` and ``calc fight ...`` resolve one activation;
``calc units``, ``calc show NAME`` and ``calc effects`` browse the data; ``calc compare``,
``calc sequence``, ``calc army`` and ``calc import`` are registered from their own modules.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer.main
from typer.core import TyperGroup

from .optgroup import once_command_class, with_groups
from .options import (
    AttackerOptions,
    ConditionOptions,
    DatasheetsOpt,
    EffectOpt,
    EngineOptions,
    FactionOpt,
    ModifierOptions,
    TargetOptions,
    catalog,
    fail,
    warning,
)

if TYPE_CHECKING:
    from .request import AttackRequest
    from .resolve import Result

_SETTINGS: dict[str, Any] = {
    "add_completion": False,
    "rich_markup_mode": None,
    "pretty_exceptions_show_locals": False,
}
# name -> (the command function, loaded on first use; help shown by `calc -h`)
_COMMANDS: dict[str, tuple[Callable[[], Callable[..., Any]], str | None]] = {}


class _Commands(TyperGroup):
    """The root group: a command's click command is built (typer reads its whole signature,
    about 45 options for ``shoot``) only when it runs or ``calc -h`` lists it, and the modules
    of ``compare`` and ``import`` are imported only then. Commands registered the usual way
    (``app.command``) work as well."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        eager = [n for n in super().list_commands(ctx) if n not in _COMMANDS]
        return [*_COMMANDS, *eager]

    def resolve_command(self, ctx: typer.Context, args: list[str]) -> Any:
        """As click's, with the closest command names suggested for an unknown one (typer's
        own suggestions see only the commands already built)."""
        known = self.list_commands(ctx)
        if args and args[0] not in known and not args[0].startswith("-"):
            from difflib import get_close_matches

            matches = get_close_matches(args[0], known)
            hint = f" Did you mean {', '.join(repr(m) for m in matches)}?" if matches else ""
            ctx.fail(f"No such command {args[0]!r}.{hint}")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: typer.Context) -> Any:
        """As click's, with what the player typed cut to 80 characters where a usage error
        repeats it (``Invalid value for '--models': 'xxx…' is not a valid int.``)."""
        click_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
        try:
            return super().invoke(ctx)
        except click_error as exc:
            from .wording import shorten_quoted

            exc.message = shorten_quoted(exc.message)
            raise

    def get_command(self, ctx: typer.Context | None, cmd_name: str) -> Any:
        if cmd_name in _COMMANDS and cmd_name not in self.commands:
            load, text = _COMMANDS[cmd_name]
            one = typer.Typer(**_SETTINGS)
            one.command(cmd_name, help=text, cls=once_command_class())(load())
            self.commands[cmd_name] = typer.main.get_command(one)
        return super().get_command(ctx, cmd_name)  # type: ignore[arg-type]


def command(
    name: str, help: str | None = None, load: Callable[[], Callable[..., Any]] | None = None
):
    """Register a command of ``app`` to be built on first use: decorates the command function,
    or with ``load`` (returning the function) registers one that lives in another module."""

    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        _COMMANDS[name] = (lambda: func, help)
        return func

    if load is not None:
        _COMMANDS[name] = (load, help)
    return register


def click_command(name: str) -> Any:
    """The click command ``calc NAME`` runs (e.g. to parse a command line without running it)."""
    return typer.main.get_command(app).get_command(None, name)  # type: ignore[attr-defined]


app = typer.Typer(
    cls=_Commands,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Exact and Monte Carlo mathhammer for Warhammer 40,000: what one unit's shooting or "
    "fighting does to a target.",
    **_SETTINGS,
)


@with_groups
def attack(
    ctx: typer.Context,
    *,
    unit: AttackerOptions,
    target: TargetOptions,
    conditions: ConditionOptions,
    effect: EffectOpt = None,
    modifiers: ModifierOptions,
    engine: EngineOptions,
) -> AttackRequest | None:
    """Resolve one activation and print the result (``calc shoot`` and ``calc fight``).

    Returns the parsed request instead, without resolving, when called by
    :func:`wh40k_calc.request.parse_request`.
    """
    from .request import PARSE_ONLY, PHASES, AttackRequest

    request = AttackRequest(
        PHASES[ctx.command.name or "shoot"],
        unit,
        target,
        conditions,
        modifiers,
        tuple(effect or ()),
        engine,
        _given(ctx),
    )
    if ctx.obj is PARSE_ONLY:
        return request
    _print_result(_resolve_request(request), engine.as_json)
    return None


def _given(ctx: typer.Context) -> frozenset[str]:
    """The parameters typed on the command line (not defaults)."""
    given = set()
    for p in ctx.command.params:
        source = ctx.get_parameter_source(p.name) if p.name else None
        if source is not None and source.name == "COMMANDLINE":
            given.add(p.name)
    return frozenset(given)


def _resolve_request(request: AttackRequest) -> Result:
    """Build the Selection and resolve it; a user error exits with its one-line message."""
    from .catalog import UnknownUnitError
    from .datasheet import DatasheetError
    from .resolve import resolve
    from .selection import SelectionError

    engine = request.engine
    try:
        sel = request.selection(catalog(engine.datasheets))
        progress = None if engine.as_json else _progress_callback()
        seed = engine.seed_value
        return resolve(sel, engine.method_value, engine.trials, seed, progress, warn=warning)
    except (UnknownUnitError, DatasheetError, SelectionError, LookupError, ValueError) as exc:
        raise fail(str(exc)) from None
    finally:
        _PROGRESS.stop()


def _print_result(result: Result, as_json: bool) -> None:
    """The result as the JSON contract object, or as rich tables."""
    if as_json:
        import json

        from .report import to_json

        sys.stdout.write(json.dumps(to_json(result), indent=2) + "\n")
        return
    from rich.console import Console

    from .report import render

    render(result, Console(highlight=False))


class _Progress:
    """A rich progress bar on stderr, shown only on a terminal and once a run passes 0.5 s."""

    def __init__(self) -> None:
        self.bar = None
        self.task = None
        self.start = 0.0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if time.monotonic() - self.start < 0.5 or done >= total:
                return
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("sampling", total=total)
        self.bar.update(self.task, completed=done)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


_PROGRESS = _Progress()


def _progress_callback():
    if not sys.stderr.isatty():
        return None
    _PROGRESS.start = time.monotonic()
    return _PROGRESS


@app.callback(invoke_without_command=True)
def _root(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True)
    ] = False,
) -> None:
    """Exact and Monte Carlo mathhammer for Warhammer 40,000."""
    if version:
        from . import __version__

        typer.echo(f"wh40k-calc {__version__}")
        raise typer.Exit()


command("shoot", help="Resolve a unit's shooting at a target.")(attack)
command("fight", help="Resolve a unit's melee attacks against a target.")(attack)


@command("units")
def units(
    text: Annotated[
        str | None,
        typer.Argument(metavar="TEXT", help="Only names like this (fuzzy), e.g. 'leman russ'."),
    ] = None,
    faction: Annotated[str | None, typer.Option(metavar="NAME", help="Only this faction.")] = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Load every file listed; print the invalid ones and a count (exit 1 if any).",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON list (name, faction, source, file).")
    ] = False,
    datasheets: DatasheetsOpt = None,
) -> None:
    """List the datasheets found (name, faction, file); TEXT filters by name (fuzzy)."""
    from .listing import entry_json, filter_entries, replaced
    from .sheetnames import DatasheetError, norm_name

    try:
        cat = catalog(datasheets)
        entries = cat.entries(hidden=True)
    except DatasheetError as exc:
        raise fail(str(exc)) from None
    replaces = replaced(entries)
    if faction:
        known = sorted({e.faction for e in entries if e.faction})
        entries = [e for e in entries if norm_name(faction) in norm_name(e.faction)]
        if not entries:
            raise fail(f"no datasheets of faction {faction!r} (factions: {', '.join(known)})")
    if text is not None and text.strip():  # "" lists everything, as no TEXT does
        entries = filter_entries(entries, text)
        if not entries:
            raise fail(f"no datasheet name is like {text!r}")
        if not as_json:  # grouped by faction below, best match first within each
            order = {f: i for i, f in reversed(list(enumerate(e.faction for e in entries)))}
            entries = sorted(entries, key=lambda e: order[e.faction])
    else:
        entries = sorted(entries, key=lambda e: (e.faction, e.name))
    if check:
        _check_units(entries, replaces, as_json)
        return
    if as_json:
        import json

        rows = [entry_json(e, replaces.get(e.path)) for e in entries]
        sys.stdout.write(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
        return
    from .listing import print_units

    print_units(entries, replaces)


def _check_units(entries, replaces, as_json: bool) -> None:
    """``calc units --check``: load every file listed; print only the invalid ones (with the
    reason) and a summary line, or as JSON ``{"checked": N, "invalid": [entry + "error"]}``;
    exit code 1 when any is invalid."""
    from .datasheet import DatasheetError, load_datasheet
    from .listing import entry_json
    from .wording import count

    problems = []
    for e in entries:
        try:
            load_datasheet(e.path)
        except DatasheetError as exc:
            problems.append((e, str(exc).removeprefix(f"{e.path}: ")))
    summary = f"{count(len(entries), 'datasheet')} checked, " + (
        f"{len(problems):,} invalid" if problems else "all valid"
    )
    if as_json:
        import json

        invalid = [{**entry_json(e, replaces.get(e.path)), "error": why} for e, why in problems]
        out = {"checked": len(entries), "invalid": invalid}
        sys.stdout.write(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    else:
        _print_problems(problems, summary)
    if problems:
        raise typer.Exit(1)


def _print_problems(problems, summary: str) -> None:
    """The invalid files (name and file, the file below the name when both do not fit; then the
    reason, indented and wrapped) and the summary."""
    import textwrap

    from rich.console import Console
    from rich.text import Text

    from .listing import place_of
    from .terminal import escape_controls as esc

    out = Console(highlight=False)
    width = max(out.width, 20)
    for e, why in problems:
        name, place = esc(e.qualified), esc(place_of(e.path))
        head = f"{name}  {place}"
        if len(head) > width:
            head = name + "\n" + textwrap.fill(place, width, initial_indent="    ")
        out.print(Text(head), soft_wrap=True)
        text = textwrap.fill(why, width, initial_indent="  ", subsequent_indent="  ")
        out.print(Text(text, "red"), soft_wrap=True)
    out.print(Text(summary, "bold" if problems else ""), soft_wrap=True)


@command("show")
def show(
    name: Annotated[str, typer.Argument(help="Datasheet name, file stem or Faction/Name.")],
    faction: FactionOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the datasheet as JSON (the YAML's fields).")
    ] = False,
    datasheets: DatasheetsOpt = None,
) -> None:
    """Print one datasheet: statlines, sizes, weapons, loadouts, rules."""
    from .datasheet import DatasheetError
    from .show import datasheet_json, render_datasheet

    try:
        cat = catalog(datasheets)
        ds = cat.find(name, faction)
    except (LookupError, DatasheetError) as exc:
        raise fail(str(exc)) from None
    if as_json:
        import json

        sys.stdout.write(json.dumps(datasheet_json(ds), indent=1, ensure_ascii=False) + "\n")
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False)
    render_datasheet(ds, console)
    for note in cat.duplicate_notes([ds]):
        console.print(Text.assemble(("Note: ", "dim"), note))


@command("effects")
def effects() -> None:
    """List the named rules and stratagems --effect accepts."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .effects import EFFECTS

    # Columns folding several facts, so that words stay whole at 80 columns: three on a wide
    # terminal, two on a narrow one (kind and publication under the name).
    console = Console(highlight=False)
    narrow = console.width < 100
    table = Table(title="Effects (--effect NAME)")
    name_width = max(len(e.id) for e in EFFECTS)
    table.add_column(
        "Name: side, phases" + ("; kind: publication" if narrow else ""), min_width=name_width
    )
    if not narrow:
        table.add_column("Kind: publication")
    table.add_column("What it changes")
    for e in EFFECTS:
        default = " (applied by default)" if e.default else ""
        if e.editions != ("10", "11"):
            default += f" (edition {' and '.join(e.editions)} only)"
        name = Text.assemble((e.id, "bold"), "\n", (f"{e.side}: {', '.join(e.phases)}", "dim"))
        kind = Text.assemble(e.kind + default, "\n", (e.publication, "dim"))
        if narrow:
            table.add_row(Text.assemble(name, "\n", kind), Text(e.summary))
        else:
            table.add_row(name, kind, Text(e.summary))
    console.print(table)


def _compare_command() -> Callable[..., Any]:
    from .compare.command import compare

    return compare


def _import_command() -> Callable[..., Any]:
    from .importers.cli import import_command

    return import_command


def _sequence_command() -> Callable[..., Any]:
    from .sequence.command import sequence

    return sequence


def _army_command() -> Callable[..., Any]:
    from .lists.command import army

    return army


command("compare", load=_compare_command)
command(
    "sequence",
    help="Several activations against one target, in order, exactly.",
    load=_sequence_command,
)
command(
    "army",
    help="An army list (app, New Recruit, ListForge, ... export) against a target.",
    load=_army_command,
)
command("import", load=_import_command)


def _safe_streams() -> None:
    """On a terminal or pipe whose encoding cannot show the tables' characters (≥, bars,
    box lines), print replacements instead of failing."""
    if sys.stdout is None:  # started with stdout closed: output goes nowhere
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):  # not a text stream
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]


def main() -> None:
    """Console-script entry point: ``calc``.

    A closed pipe (``calc units | head -1``) ends the program quietly, like other command-line
    tools; output that cannot be written (a full disk) is one error line and exit code 1.
    """
    import signal

    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    _safe_streams()
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except MemoryError:
        sys.stderr.write("error: out of memory; ask for less (fewer --trials, smaller units)\n")
        sys.exit(1)
    except OSError as exc:  # writing the output failed (disk full, ...)
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        sys.stderr.write(f"error: cannot write the output: {exc.strerror or exc}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()

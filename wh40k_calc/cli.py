"""The command line (typer): parse, build the Selection, resolve, render. Thin on purpose.

``calc shoot ATTACKER --target TARGET`` and ``calc fight ...`` resolve one activation;
``calc units``, ``calc show NAME`` and ``calc effects`` browse the data; ``calc compare``,
``calc sequence``, ``calc army``, ``calc import`` and ``calc data`` are registered from their own
modules.
"""

from __future__ import annotations

import errno
import inspect
import io
import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from .options import DatasheetsOpt, EditionOpt, FactionOpt, catalog, exit_code, fail, named, warning
from .request import COMMAND_SETTINGS, PHASE_HELP, attack_command, command_for

if TYPE_CHECKING:
    # the click typer vendors: its Context is what typer's classes declare
    from typer._click import ClickException
    from typer._click import Context as ClickContext

    from .request import AttackRequest
    from .resolve import Result

# name -> (the command function, loaded on first use; help shown by `calc -h`)
_COMMANDS: dict[str, tuple[Callable[[], Callable[..., Any]], str | None]] = {}


class _Commands(TyperGroup):
    """The root group: a command's click command is built (typer reads its whole signature,
    about 45 options for ``shoot``) only when it runs or ``calc -h`` lists it, and the modules
    of ``compare`` and ``import`` are imported only then. Commands registered the usual way
    (``app.command``) work as well."""

    def list_commands(self, ctx: ClickContext) -> list[str]:
        eager = [n for n in super().list_commands(ctx) if n not in _COMMANDS]
        return [*_COMMANDS, *eager]

    def resolve_command(self, ctx: ClickContext, args: list[str]) -> Any:
        """As click's, with the closest command names suggested for an unknown one (typer's
        own suggestions see only the commands already built)."""
        known = self.list_commands(ctx)
        if args and args[0] not in known and not args[0].startswith("-"):
            from difflib import get_close_matches

            matches = get_close_matches(args[0], known)
            hint = f" Did you mean {', '.join(repr(m) for m in matches)}?" if matches else ""
            ctx.fail(f"No such command {args[0]!r}.{hint}")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: ClickContext) -> Any:
        """As click's, with what the player typed cut to 80 characters where a usage error
        repeats it (``Invalid value for '--models': 'xxx…' is not a valid int.``)."""
        click_error = cast(
            "type[ClickException]",
            next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"),
        )
        _zero_size_unset()
        try:
            return super().invoke(ctx)
        except click_error as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # its message is the help text
                raise
            from .terminal import escape_controls
            from .wording import shorten_quoted

            exc.message = escape_controls(shorten_quoted(_plain_types(exc.message)))
            raise
        except KeyboardInterrupt:  # typer's own handling: exit code 130 without a word
            _interrupted()

    def format_commands(self, ctx: ClickContext, formatter: Any) -> None:
        """typer's list of the commands and their short help, the commands registered with
        their help listed from it, not built (``calc --help`` built every command: imported
        its module, read its options)."""
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False

    def get_command(self, ctx: ClickContext | None, cmd_name: str) -> Any:
        if cmd_name in _COMMANDS and cmd_name not in self.commands:
            load, text = _COMMANDS[cmd_name]
            if text and getattr(self, "_listing", False):  # its name and help, for the list
                return TyperCommand(cmd_name, help=inspect.cleandoc(text))
            loaded = load()  # a command function, or a click group built already (`data`)
            if isinstance(loaded, TyperGroup):
                self.commands[cmd_name] = loaded
            else:
                self.commands[cmd_name] = command_for(cmd_name, loaded, text)
        return super().get_command(ctx, cmd_name)  # type: ignore[arg-type]


def _plain_types(message: str) -> str:
    """Click's "is not a valid int" and "is not a valid int range" (an option with a lower
    bound) in a player's words: "is not a whole number"."""
    return re.sub(
        r"is not a valid (?:int range|int|integer range|integer)\b",
        "is not a whole number",
        message,
    )


MIN_COLUMNS = 20  # the narrowest width drawn: below it, tables become lines of a few cells


def _zero_size_unset() -> None:
    """``COLUMNS=0`` (or ``LINES=0``) read as unset, as other terminal programs read it: rich
    would take it as a terminal 0 cells wide and print nothing; ``COLUMNS`` from 1 to
    :data:`MIN_COLUMNS` - 1 read as :data:`MIN_COLUMNS` (at 1, every line of a table was
    ``  %``), and so is a terminal that narrow."""
    for var in ("COLUMNS", "LINES"):
        value = os.environ.get(var, "").strip()
        if value.isdigit() and int(value) == 0:
            del os.environ[var]
    value = os.environ.get("COLUMNS", "").strip()
    if value.isdigit():
        if int(value) < MIN_COLUMNS:
            os.environ["COLUMNS"] = str(MIN_COLUMNS)
        return
    try:
        width = os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return  # not a terminal: rich's own default
    if 0 < width < MIN_COLUMNS:
        os.environ["COLUMNS"] = str(MIN_COLUMNS)


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
    **COMMAND_SETTINGS,
)


def _run(request: AttackRequest) -> None:
    """``calc shoot`` / ``calc fight``: resolve one activation and print the result."""
    _print_result(_resolve_request(request), request.engine.as_json)


_ATTACK: list[Callable[..., Any]] = []  # the shoot/fight command function, once made


def _attack() -> Callable[..., Any]:
    """The command function of ``calc shoot`` and ``calc fight`` (its options are the
    request's groups), made when one of them is first built: reading the groups' fields costs
    every other command 1-2 ms of start-up."""
    if not _ATTACK:
        _ATTACK.append(attack_command(_run))
    return _ATTACK[0]


def _resolve_request(request: AttackRequest) -> Result:
    """Build the Selection and resolve it; a user error exits with its one-line message."""
    from .catalog import UnknownUnitError
    from .datasheet import DatasheetError
    from .options import exit_code
    from .progress import progress_bar
    from .resolve import resolve, sampler_unused_note
    from .selection import SelectionError

    engine = request.engine
    bar = progress_bar()  # on the standard error of a terminal only, --json or not
    try:
        sel = request.selection(catalog(engine.datasheets, engine.edition_value))
        result = resolve(
            sel,
            engine.method_value,
            engine.trials,
            engine.seed_value,
            bar,
            warn=warning,
            waste=engine.explain,
        )
        note = sampler_unused_note(engine.sampler_given()) if result.sample is None else None
        if note:
            result.notes.append(note)
        if engine.explain:
            from .explain import explained

            result = explained(result, seed=engine.seed_value)
        return result
    except (UnknownUnitError, DatasheetError, SelectionError, LookupError, ValueError) as exc:
        raise fail(str(exc), exit_code(exc)) from None
    finally:
        if bar is not None:
            bar.stop()


def _print_result(result: Result, as_json: bool) -> None:
    """The result as the JSON contract object, or as rich tables."""
    if as_json:
        import json

        from .report import to_json

        sys.stdout.write(json.dumps(to_json(result), indent=2) + "\n")
        return
    from .report import render
    from .terminal import output_console

    render(result, output_console())


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


command("shoot", help=PHASE_HELP["shoot"], load=_attack)
command("fight", help=PHASE_HELP["fight"], load=_attack)


@command("units")
def units(
    text: Annotated[
        str | None,
        typer.Argument(metavar="TEXT", help="Only names like this (fuzzy), e.g. 'leman russ'."),
    ] = None,
    faction: Annotated[
        str | None, typer.Option(metavar="NAME", help="Only this faction.", callback=named)
    ] = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Load every file listed, and every file of your folders for the other "
            "edition; print the invalid ones and a count (exit 1 if any).",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON list (name, faction, source, file).")
    ] = False,
    datasheets: DatasheetsOpt = None,
    edition: EditionOpt = None,
) -> None:
    """List the datasheets found (name, faction, file) in the edition's data; TEXT filters by
    name (fuzzy)."""
    from .edition import EditionError, choose
    from .listing import entry_json, filter_entries, in_faction, present_factions, replaced
    from .sheetnames import DatasheetError

    try:
        chosen = choose(edition.value if edition else None)
        cat = catalog(datasheets, chosen.edition)
        entries = cat.entries(hidden=True)
        if check:  # every file of the folders, also those for the other edition only
            listed = {e.path for e in entries}
            other = "10" if chosen.edition == "11" else "11"
            entries += [
                e
                for e in cat.entries(hidden=True, edition=other)
                if e.kind != "generated" and e.path not in listed
            ]
        not_files = {p: (kind, why) for p, kind, why in cat.not_files()}
    except (DatasheetError, EditionError) as exc:
        raise fail(str(exc), exit_code(exc)) from None
    entries += [_not_file_entry(p, kind) for p, (kind, _) in not_files.items()]
    replaces = replaced(entries)
    if faction:
        known = sorted({e.faction for e in entries if e.faction})
        present = present_factions(entries)
        entries = [e for e in entries if in_faction(e, faction, present)]
        if not entries:
            from .fuzzy import did_you_mean

            raise fail(
                f"no datasheets of faction {faction!r}{did_you_mean(faction, known)} "
                f"(factions: {', '.join(known)})"
            )
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
        why = {p: what for p, (_, what) in not_files.items()}
        _check_units(entries, replaces, as_json, chosen.edition, why)
        return
    if as_json:
        import json

        from .listing import invalid_user_files

        bad = invalid_user_files(entries)
        rows = [
            entry_json(e, replaces.get(e.path), cat.data_of(e), bad.get(e.path)) for e in entries
        ]
        sys.stdout.write(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
        return
    from .listing import invalid_user_files, print_units

    print_units(entries, replaces, _edition_words(chosen, cat), invalid_user_files(entries))


def _edition_words(chosen, cat) -> str:
    """`` · edition 11 (from WH40K_CALC_EDITION) · data 912`` for a listing's first line."""
    versions = cat.data_versions(chosen.edition)
    data = f" · data {', '.join(versions)}" if versions else ""
    return f" · edition {chosen.edition}{' ' + chosen.note if chosen.note else ''}{data}"


def _not_file_entry(path, kind: str):
    """The listing's entry for a file named like a datasheet that is no regular file
    (:meth:`~wh40k_calc.catalog.Catalog.not_files`): its stem, no faction, both editions,
    unreadable."""
    from .catalog import EDITIONS, Entry

    return Entry(path.stem, "", path, kind == "curated", None, kind, EDITIONS, True)


def _check_units(entries, replaces, as_json: bool, edition: str, not_files=None) -> None:
    """``calc units --check``: load every file listed (the edition's, and the files of the
    folders read one by one that are for the other edition only); print only the invalid ones
    (with the reason) and a summary line, or as JSON ``{"checked": N, "invalid": [entry +
    "error"]}``; exit code 1 when any is invalid. ``not_files``: path -> why of the entries
    that are no regular file (a named pipe, a device): invalid without being opened."""
    from .datasheet import DatasheetError, load_datasheet
    from .listing import entry_json
    from .wording import count

    problems, warnings = [], []
    known: dict[str, str] = {}  # the unit rules' names (read once, for the first user file)
    for e in entries:
        if not_files and e.path in not_files:
            problems.append((e, not_files[e.path]))
            continue
        try:
            sheet = load_datasheet(e.path)
        except DatasheetError as exc:
            problems.append((e, str(exc).removeprefix(f"{e.path}: ")))
            continue
        if e.kind == "user":  # the shipped data's own rules are known: tests list them
            warnings += [(e, w) for w in _unknown_abilities(sheet)]
            warnings += [(e, w) for w in _unknown_rules(sheet, known)]
    others = sum(1 for e in entries if edition not in e.editions)
    other = "10" if edition == "11" else "11"
    hidden = sum(1 for e in entries if e.hidden_by is not None)  # counted as the listing does
    summary = (
        count(len(entries) - hidden, "datasheet")
        + (f", plus {count(hidden, 'hidden file')}," if hidden else "")
        + " checked"
        + (f" ({others:,} of them for edition {other} only)" if others else "")
        + ", "
        + (f"{len(problems):,} invalid" if problems else "all valid")
        + (f", {count(len(warnings), 'warning')}" if warnings else "")
    )
    if as_json:
        import json

        invalid = [{**entry_json(e, replaces.get(e.path)), "error": why} for e, why in problems]
        warned = [{**entry_json(e, replaces.get(e.path)), "warning": w} for e, w in warnings]
        out = {"checked": len(entries), "invalid": invalid, "warnings": warned}
        sys.stdout.write(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    else:
        _print_problems(problems + [(e, f"warning: {w}") for e, w in warnings], summary)
    if problems:
        raise typer.Exit(1)


def _unknown_abilities(sheet) -> list[str]:
    """Warnings for ``sheet``'s weapon abilities that are no core ability and no misspelling
    of one (those refuse the file): each is taken as the datasheet's own rule and reported as
    not modelled, which a typing slip ("zap hits") should not be silently. Each names its
    entry of the file as the errors do (``weapons[2] (Zap gun).abilities[0]``: the weapons
    and their ``ability_texts`` are in file order)."""
    from .abilities import WeaponAbilities

    out = []
    for i, w in enumerate(sheet.weapons):
        for j, item in enumerate(w.ability_texts):
            for text in WeaponAbilities.parse([item]).unmodelled:
                out.append(
                    f"weapons[{i}] ({w.name}).abilities[{j}]: {text!r} is no core ability: "
                    "taken as the datasheet's own rule, not modelled"
                )
    return out


def _unknown_rules(sheet, known: dict[str, str]) -> list[str]:
    """Warnings for ``sheet``'s ``rules:`` entries that no effect file of either edition names
    (by id, printed name or a rule it lists as coverage): each is reported as a unit rule not
    modelled when the unit attacks or is attacked, which a typing slip ("dats-our-lot")
    should not be silently. ``known``: :func:`~wh40k_calc.effects.unit_rule_names`, filled on
    first use (every effect file is read once)."""
    from .effects import slug, unit_rule_names
    from .fuzzy import did_you_mean

    out = []
    for i, rid in enumerate(sheet.rules):
        if not known:
            known.update(unit_rule_names())
        if slug(rid) in known:
            continue
        hint = did_you_mean(rid, sorted(set(known.values())))
        out.append(
            f"rules[{i}]: {rid!r} is no unit rule of the effect files{hint} (listed as not "
            "modelled when the unit attacks or is attacked)"
        )
    return out


def _print_problems(problems, summary: str) -> None:
    """The invalid files (name and file, the file below the name when both do not fit; then the
    reason, indented and wrapped) and the summary."""
    import textwrap

    from rich.text import Text

    from .listing import listed_name, place_of
    from .terminal import escape_controls as esc
    from .terminal import output_console

    out = output_console()
    width = max(out.width, 20)
    for e, why in problems:
        name = listed_name(e.name)  # a name too long to be valid: cut, as the listing does
        name = esc(f"{listed_name(e.faction)}/{name}" if e.faction else name)
        place = esc(place_of(e.path))
        head = f"{name}  {place}"
        if len(head) > width:
            head = name + "\n" + textwrap.fill(place, width, initial_indent="    ")
        out.print(Text(head), soft_wrap=True)
        text = textwrap.fill(why, width, initial_indent="  ", subsequent_indent="  ")
        out.print(Text(text, "red"), soft_wrap=True)
    shown = textwrap.fill(summary, width, break_on_hyphens=False)  # wrapped as the reasons are
    out.print(Text(shown, "bold" if problems else ""), soft_wrap=True)


@command("show")
def show(
    name: Annotated[
        str, typer.Argument(help="Datasheet name, file stem or Faction/Name.", callback=named)
    ],
    faction: FactionOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the datasheet as JSON (the YAML's fields).")
    ] = False,
    datasheets: DatasheetsOpt = None,
    edition: EditionOpt = None,
) -> None:
    """Print one datasheet of the edition's data: statlines, sizes, weapons, loadouts, rules."""
    from .catalog import AmbiguousUnitError
    from .datasheet import DatasheetError
    from .edition import EditionError, choose
    from .show import datasheet_json, render_datasheet

    try:
        chosen = choose(edition.value if edition else None)
        cat = catalog(datasheets, chosen.edition)
        ds = cat.find(name, faction)
    except AmbiguousUnitError as exc:
        raise fail(str(exc.saying("--faction"))) from None
    except (LookupError, DatasheetError, EditionError) as exc:
        raise fail(str(exc), exit_code(exc)) from None
    if as_json:
        import json

        sys.stdout.write(json.dumps(datasheet_json(ds), indent=1, ensure_ascii=False) + "\n")
        return
    from rich.text import Text

    from .terminal import output_console

    console = output_console()
    render_datasheet(ds, console, chosen.note)
    for note in cat.duplicate_notes([ds]):
        console.print(Text.assemble(("Note: ", "dim"), note))


@command("effects")
def effects(
    text: Annotated[
        str | None,
        typer.Argument(metavar="TEXT", help="Only rules named like this (fuzzy)."),
    ] = None,
    faction: Annotated[
        str | None,
        typer.Option(
            metavar="NAME", help="Only this faction's (ours or the data's name).", callback=named
        ),
    ] = None,
    edition: Annotated[
        str | None,
        typer.Option(metavar="10|11", help="Rules edition (default: the player's, else 10)."),
    ] = None,
    kind: Annotated[
        str | None,
        typer.Option(
            metavar="KIND", help="army, detachment, stratagem, enhancement, unit or core."
        ),
    ] = None,
    detachment: Annotated[
        str | None, typer.Option(metavar="NAME", help="Only this detachment's.", callback=named)
    ] = None,
    status: Annotated[
        bool,
        typer.Option(
            "--status", help="Also the rules not modelled (with the reason) or not attack rules."
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print a JSON list (every rule with its status)."),
    ] = False,
) -> None:
    """List the effects --effect accepts (army and detachment rules, stratagems,
    enhancements, unit rules, core stratagems), by faction, kind, detachment and name."""
    from .edition import EditionError, choose
    from .effect_listing import (
        KindError,
        ListingError,
        effect_json,
        line_json,
        only_lines,
        render,
        select,
    )
    from .effect_schema import EffectFileError

    try:
        ed = choose(edition.strip() if edition else None).edition
    except EditionError as exc:  # --edition 9 or WH40K_CALC_EDITION=9: a usage error (2)
        raise fail(str(exc), exit_code(exc)) from None
    try:
        found, lines = select(ed, faction, kind, detachment, text)
    except (ListingError, EffectFileError) as exc:
        raise fail(str(exc), 2 if isinstance(exc, KindError) else 1) from None
    if as_json:
        import json

        items = [effect_json(e) for e in found] + [line_json(x, ed) for x in lines]
        sys.stdout.write(json.dumps(items, indent=1, ensure_ascii=False) + "\n")
        return
    if not found and lines and not status:  # only rules hidden without --status
        raise fail(only_lines(lines, text))
    from .terminal import output_console

    render(found, lines if status else [], ed, output_console())


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


def _exchange_command() -> Callable[..., Any]:
    from .exchange.command import exchange

    return exchange


command(
    "exchange",
    help="Two units attacking each other, each with the models it has left, exactly.",
    load=_exchange_command,
)
command(
    "army",
    help="An army list (app, New Recruit, ListForge, ... export) against a target.",
    load=_army_command,
)
command("import", load=_import_command)


def _data_command() -> Any:
    from .updates.command import group

    return group()


command("data", load=_data_command)


class _ClosedStream(io.TextIOBase):
    """What the program writes its output to when it was started with the standard output
    closed (``calc ... >&-``): writing fails as on a full disk, so the run ends with the same
    one-line error and exit code 1 instead of exiting 0 having printed nothing."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "the standard output is closed")

    def fileno(self) -> int:
        raise io.UnsupportedOperation("the standard output is closed")


def _safe_streams() -> None:
    """On a terminal or pipe whose encoding cannot show the tables' characters (≥, bars,
    box lines), print replacements instead of failing. A closed standard output fails at
    the first write (:class:`_ClosedStream`)."""
    if sys.stdout is None:  # started with stdout closed
        sys.stdout = _ClosedStream()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):  # not a text stream
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]


def main() -> None:
    """Console-script entry point: ``calc``.

    A closed pipe (``calc units | head -1``) ends the program quietly, like other command-line
    tools; output that cannot be written (a full disk, a closed standard output) is one error
    line and exit code 1; Ctrl-C at any moment is ``interrupted`` and exit code 130
    (:mod:`wh40k_calc.interrupts`).
    """
    import signal

    from . import interrupts

    interrupts.hold()  # already held when started as `calc` (wh40k_calc.__main__)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    _safe_streams()
    try:
        try:
            interrupts.release()  # a Ctrl-C pressed during start-up is delivered here
            app()
        finally:
            interrupts.hold()  # one pressed from here to the end waits: see the last lines
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as exc:  # typer's own exit 130 for a Ctrl-C after the command returned
        if exc.code == 130 and not isinstance(exc, _Interrupted) and _from_interrupt(exc):
            _interrupted()
        raise
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
    finally:
        if interrupts.interrupted_meanwhile():  # Ctrl-C while the command was ending
            _interrupted()


def _from_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` was raised while handling a :class:`KeyboardInterrupt` (typer turns
    one that reaches its own main, after the command, into ``Exit(130)`` without a word)."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return True
        seen.add(id(cur))
        # ``raise ... from None`` (a command's own "interrupted; ..." exit) ends the chain
        cur = cur.__cause__ if cur.__suppress_context__ else cur.__cause__ or cur.__context__
    return False


class _Interrupted(SystemExit):
    """The exit :func:`_interrupted` makes (its line said already)."""


def _interrupted() -> NoReturn:
    """End the program on a Ctrl-C: one line, exit code 130 (128 + SIGINT, as shells report
    it). A second Ctrl-C from here on waits (it is held) and changes nothing."""
    from . import interrupts

    interrupts.hold()
    sys.stderr.write("interrupted\n")
    raise _Interrupted(130)


if __name__ == "__main__":
    main()

"""The command line (typer): parse, build the Selection, resolve, render. Thin on purpose.

``calc shoot ATTACKER --target TARGET`` and ``calc fight ...`` resolve one activation;
``calc units``, ``calc show NAME`` and ``calc effects`` browse the data; ``calc compare`` and
``calc import`` are registered from their own modules.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from .options import (
    AddAbilityOpt,
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
    Reroll,
    SaveReroll,
    Stationary,
    TargetFactionOpt,
    TargetStealthOpt,
    WoundsLeftOpt,
    catalog,
    fail,
)

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Exact and Monte Carlo mathhammer for Warhammer 40,000: what one unit's shooting or "
    "fighting does to a target.",
)


def _split_names(text: str | None, option: str) -> tuple[str, ...] | None:
    """``"A, B"`` -> ("A", "B"); None when the option was not given.

    Raises:
        SelectionError: the option was given without any name.
    """
    from .selection import SelectionError

    if text is None:
        return None
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise SelectionError(f"{option} {text!r}: give names separated by commas")
    return names


def attack(
    ctx: typer.Context,
    attacker: Annotated[
        str,
        typer.Argument(
            metavar="ATTACKER", help="Attacking unit (datasheet name or file stem, e.g. lootas)."
        ),
    ],
    target: Annotated[str, typer.Option("--target", "-t", help="Target unit.")],
    models: Annotated[
        int | None,
        typer.Option(
            help="Attacking unit size: a listed size (default: the smallest), or fewer models "
            "than the smallest for a damaged unit."
        ),
    ] = None,
    target_models: Annotated[
        int | None,
        typer.Option(help="Target size: a listed size, or fewer models for a damaged unit."),
    ] = None,
    loadout: Annotated[
        str | None, typer.Option(help="Named loadout of the attacker ('default' = as equipped).")
    ] = None,
    weapon: Annotated[
        list[str] | None,
        typer.Option(
            "--weapon",
            metavar="'NAME xN'",
            help="Exactly which weapons attack: 'NAME xN' (repeatable).",
        ),
    ] = None,
    leader: Annotated[
        list[str] | None,
        typer.Option(
            "--leader",
            metavar="NAME",
            help="Leader (edition 11: or Support) attached to the attacking unit (repeatable).",
        ),
    ] = None,
    target_loadout: Annotated[str | None, typer.Option(help="Named loadout of the target.")] = None,
    target_leader: Annotated[
        list[str] | None,
        typer.Option(
            "--target-leader",
            metavar="NAME",
            help="Leader (edition 11: or Support) attached to the target (repeatable).",
        ),
    ] = None,
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
    add_ability: AddAbilityOpt = None,
    hit_mod: Annotated[
        int, typer.Option(help="Hit roll modifier (capped at ±1 with the others).")
    ] = 0,
    wound_mod: Annotated[int, typer.Option(help="Wound roll modifier (capped at ±1).")] = 0,
    ap_mod: Annotated[
        int,
        typer.Option(
            help="Improve AP by N (1: AP-1 becomes AP-2); a negative N worsens it (AP never "
            "goes above 0)."
        ),
    ] = 0,
    damage_mod: Annotated[int, typer.Option(help="Add N to each Damage roll.")] = 0,
    crit_hit: Annotated[
        int | None, typer.Option(min=2, max=6, help="Critical Hit on an unmodified N+.")
    ] = None,
    crit_wound: Annotated[
        int | None, typer.Option(min=2, max=6, help="Critical Wound on an unmodified N+.")
    ] = None,
    reroll_hits: Annotated[
        Reroll | None, typer.Option(case_sensitive=False, help="Re-roll Hit rolls.")
    ] = None,
    reroll_wounds: Annotated[
        Reroll | None, typer.Option(case_sensitive=False, help="Re-roll Wound rolls.")
    ] = None,
    reroll_damage: Annotated[
        bool,
        typer.Option(
            "--reroll-damage", help="Re-roll a Damage roll when that raises expected damage."
        ),
    ] = False,
    invuln: Annotated[
        int | None, typer.Option(min=2, max=6, help="Target invulnerable save N+.")
    ] = None,
    fnp: Annotated[int | None, typer.Option(min=2, max=6, help="Target Feel No Pain N+.")] = None,
    fnp_mortal: Annotated[
        int | None,
        typer.Option(min=2, max=6, help="Target Feel No Pain N+ against mortal wounds only."),
    ] = None,
    save_mod: Annotated[int, typer.Option(help="Modifier to the target's saving throws.")] = 0,
    reroll_saves: Annotated[
        SaveReroll | None, typer.Option(case_sensitive=False, help="Target re-rolls saving throws.")
    ] = None,
    damage_reduction: Annotated[
        int, typer.Option(min=0, help="Subtract N from each Damage (never below 1).")
    ] = 0,
    half_damage: Annotated[
        bool, typer.Option("--half-damage", help="Halve Damage (before adding or subtracting).")
    ] = False,
    target_stealth: TargetStealthOpt = False,
    allocation: Annotated[
        str | None, typer.Option(help="Target's model allocation order, e.g. 'Boy,Boss Nob'.")
    ] = None,
    precision_target: Annotated[
        str,
        typer.Option(
            metavar="leader|bodyguard|NAME",
            help="Where [PRECISION] attacks go in an Attached unit: its CHARACTER models, the "
            "Bodyguard, or the CHARACTER model named first.",
        ),
    ] = "leader",
    order: Annotated[str | None, typer.Option(help="Weapon order: 'A,B,...' or 'best'.")] = None,
    edition: Annotated[Edition, typer.Option(help="Rules edition.")] = Edition.ten,
    method: Annotated[
        Method, typer.Option(case_sensitive=False, help="exact, sample (Monte Carlo) or both.")
    ] = Method.exact,
    trials: Annotated[int, typer.Option(min=1, max=100_000_000, help="Sampler trials.")] = 100_000,
    seed: Annotated[int, typer.Option(min=0, help="Sampler seed (0 or more).")] = 40_000,
    datasheets: DatasheetsOpt = None,
    faction: FactionOpt = None,
    target_faction: TargetFactionOpt = None,
    wounds_left: WoundsLeftOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the JSON contract object.")
    ] = False,
) -> None:
    """Resolve one activation and print the result."""
    from .abilities import parse_added_ability
    from .catalog import UnknownUnitError
    from .datasheet import DatasheetError
    from .resolve import resolve
    from .selection import (
        AddedAbility,
        Conditions,
        Modifiers,
        Selection,
        SelectionError,
        UnitChoice,
        precision_target_value,
    )
    from .units import parse_weapon_spec

    phase = "shooting" if ctx.info_name == "shoot" else "fight"
    try:
        cat = catalog(datasheets)
        sel = Selection(
            phase=phase,
            attacker=UnitChoice(
                cat.find(attacker, faction),
                models,
                loadout,
                tuple(parse_weapon_spec(w) for w in weapon or []),
                tuple(cat.find(n, faction) for n in leader or []),
            ),
            target=UnitChoice(
                cat.find(target, target_faction),
                target_models,
                target_loadout,
                (),
                tuple(cat.find(n, target_faction) for n in target_leader or []),
            ),
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
            modifiers=Modifiers(
                hit_mod,
                wound_mod,
                ap_mod,
                damage_mod,
                crit_hit,
                crit_wound,
                reroll_hits.value if reroll_hits else None,
                reroll_wounds.value if reroll_wounds else None,
                reroll_damage,
                invuln,
                fnp,
                fnp_mortal,
                save_mod,
                reroll_saves.value if reroll_saves else None,
                damage_reduction,
                half_damage,
                target_stealth,
            ),
            effects=tuple(effect or ()),
            edition=edition.value,
            order=(
                "best"
                if order and order.strip().lower() == "best"
                else _split_names(order, "--order")
            ),
            allocation=_split_names(allocation, "--allocation"),
            precision_target=precision_target_value(precision_target),
            added_abilities=tuple(AddedAbility(*parse_added_ability(a)) for a in add_ability or []),
            attacker_wounds_left=wounds_left,
        )
        progress = None if as_json else _progress_callback()
        result = resolve(sel, method.value, trials, seed, progress)
    except (UnknownUnitError, DatasheetError, SelectionError, LookupError, ValueError) as exc:
        raise fail(str(exc)) from None
    finally:
        _PROGRESS.stop()
    if as_json:
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


app.command("shoot", help="Resolve a unit's shooting at a target.")(attack)
app.command("fight", help="Resolve a unit's melee attacks against a target.")(attack)


@app.command("units")
def units(
    text: Annotated[
        str | None, typer.Argument(help="Only names like this (fuzzy), e.g. 'leman russ'.")
    ] = None,
    faction: Annotated[str | None, typer.Option(help="Only this faction.")] = None,
    check: Annotated[
        bool,
        typer.Option("--check", help="Load every file and report the invalid ones (exit 1)."),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON list (name, faction, source, file).")
    ] = False,
    datasheets: DatasheetsOpt = None,
) -> None:
    """List the datasheets found (name, faction, file); TEXT filters by name (fuzzy)."""
    from .datasheet import DatasheetError, load_datasheet, norm_name
    from .listing import entry_json, filter_entries, replaced

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
    if text is not None:
        entries = filter_entries(entries, text)
        if not entries:
            raise fail(f"no datasheet name is like {text!r}")
        if not as_json:  # grouped by faction below, best match first within each
            order = {f: i for i, f in reversed(list(enumerate(e.faction for e in entries)))}
            entries = sorted(entries, key=lambda e: order[e.faction])
    else:
        entries = sorted(entries, key=lambda e: (e.faction, e.name))
    if as_json:
        rows = [entry_json(e, replaces.get(e.path)) for e in entries]
        sys.stdout.write(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
        return
    problems: dict[Path, str] = {}
    if check:
        for e in entries:
            try:
                load_datasheet(e.path)
            except DatasheetError as exc:
                problems[e.path] = str(exc).removeprefix(f"{e.path}: ")
    _units_table(entries, replaces, problems if check else None)
    if problems:
        raise fail(f"{len(problems)} invalid datasheet file(s)")


def _units_table(entries, replaces, problems) -> None:
    """Print ``calc units``' listing: one line per datasheet (name, file, notes), grouped by
    faction. Plain aligned lines, not a rich table: a table of 1,600 rows takes rich most of a
    second to lay out."""
    import itertools

    from rich.console import Console
    from rich.text import Text

    hidden = sum(1 for e in entries if e.hidden_by is not None)
    out = Console(highlight=False)
    out.print(f"{len(entries) - hidden} datasheets" + (f" ({hidden} hidden)" if hidden else ""))
    width = max((len(e.name) for e in entries), default=0)
    for faction, group in itertools.groupby(entries, key=lambda e: e.faction):
        group = list(group)
        lines = Text(f"{faction or '(no faction)'} ({len(group)})\n", "bold")
        for e in group:
            place = _rel(e.path)
            if e.hidden_by is not None:
                place += f" (hidden: same name as {_rel(e.hidden_by)})"
            if e.path in replaces:
                place += f" (replaces {_rel(replaces[e.path])})"
            lines.append(f"  {e.name:<{width}}  {place}")
            if problems is not None:
                bad = problems.get(e.path)
                lines.append(f"  {bad}" if bad else "  ok", "red" if bad else "")
            lines.append("\n")
        out.print(lines, end="", soft_wrap=True)


def _rel(p: Path) -> str:
    """A file's path for people: inside the shipped folders relative to them."""
    from .catalog import GENERATED, SHIPPED

    for base, label in ((SHIPPED, "shipped"), (GENERATED, "generated")):
        if p.is_relative_to(base):
            return f"({label}) {p.relative_to(base)}"
    try:
        return os.path.relpath(p)
    except ValueError:
        return str(p)


@app.command("show")
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
        ds = catalog(datasheets).find(name, faction)
    except (LookupError, DatasheetError) as exc:
        raise fail(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(datasheet_json(ds), indent=1, ensure_ascii=False) + "\n")
        return
    from rich.console import Console

    render_datasheet(ds, Console(highlight=False))


@app.command("effects")
def effects() -> None:
    """List the named rules and stratagems --effect accepts."""
    from rich.console import Console
    from rich.table import Table

    from .effects import EFFECTS

    table = Table(title="Effects (--effect NAME)")
    table.add_column("Name", no_wrap=True)
    for col in ("Kind", "Side", "Phase", "What it changes", "Source"):
        table.add_column(col, overflow="fold")
    for e in EFFECTS:
        extra = " (applied by default)" if e.default else ""
        if e.editions != ("10", "11"):
            extra += f" (edition {' and '.join(e.editions)} only)"
        table.add_row(e.id, e.kind + extra, e.side, ", ".join(e.phases), e.summary, e.source)
    Console(highlight=False).print(table)


def _register_commands() -> None:
    """Add the commands that live in their own modules (compare, import)."""
    from .compare import register as register_compare
    from .importers.cli import register as register_import

    register_compare(app)
    register_import(app)


_register_commands()


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

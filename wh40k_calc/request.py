"""One ``calc shoot``/``calc fight`` command line, parsed: the option groups, and the Selection
they describe.

:func:`parse_request` parses an argument list such as ``["shoot", "lootas", "--models", "10",
"--stationary"]`` with the very parser of ``calc shoot`` (same options, types, ranges and error
messages) into an :class:`AttackRequest`; ``AttackRequest.selection`` looks the units up and
builds the :class:`~wh40k_calc.selection.Selection`. A command that runs several activations
(the steps of a sequence) parses each step with it, refuses the groups a step may not set
(``given_in``) and supplies the target itself.

The command function itself lives here (:func:`attack_command`): ``calc shoot`` and ``calc
fight`` (``cli.py``) register it with a ``run`` that resolves and prints the request, and
:func:`parse_request` builds the same command (:func:`command_for`) with no ``run``, so that it
returns the request. This module never imports ``cli.py``: the command line is one layer above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import typer
import typer.main
from msgspec import Struct, field

from .optgroup import once_command_class, with_groups
from .options import (
    AttackerOptions,
    ConditionOptions,
    EffectOpt,
    EngineOptions,
    ModifierOptions,
    TargetOptions,
)

if TYPE_CHECKING:
    from typer._click import ClickException  # the click typer vendors

    from .catalog import Catalog
    from .optgroup import OptionGroup
    from .selection import Selection, UnitChoice

PHASES = {"shoot": "shooting", "fight": "fight"}
PHASE_HELP = {
    "shoot": "Resolve a unit's shooting at a target.",
    "fight": "Resolve a unit's melee attacks against a target.",
}
# typer's settings for every command of calc (the root app and each command built alone)
COMMAND_SETTINGS: dict[str, Any] = {
    "add_completion": False,
    "rich_markup_mode": None,
    "pretty_exceptions_show_locals": False,
}


class AttackRequest(Struct, frozen=True):
    """The options of one ``calc shoot``/``calc fight`` command line.

    ``phase`` is "shooting" or "fight"; ``given`` holds the parameter names (``models``,
    ``target``, ...) of the options typed on the command line, whatever their value.
    ``target.target`` is None only when parsed with ``require_target=False``.
    """

    phase: str
    attacker: AttackerOptions
    target: TargetOptions
    conditions: ConditionOptions = field(default_factory=ConditionOptions)
    modifiers: ModifierOptions = field(default_factory=ModifierOptions)
    effects: tuple[str, ...] = ()
    engine: EngineOptions = field(default_factory=EngineOptions)
    given: frozenset[str] = field(default_factory=frozenset)

    def given_in(self, *groups: type[OptionGroup]) -> list[str]:
        """The options of ``groups`` that were given on the command line, in declaration
        order (e.g. to refuse target or engine options inside a sequence step)."""
        return [
            option
            for g in groups
            for name, option in g.option_names().items()
            if name in self.given
        ]

    def selection(
        self, cat: Catalog, target: UnitChoice | None = None, edition: str | None = None
    ) -> Selection:
        """The Selection these options describe (``target`` replaces the target options'), in
        ``edition`` when given (a batch run's), else the edition the options choose
        (:attr:`EngineOptions.edition_choice`); the units are looked up in that edition's data.

        Raises:
            UnknownUnitError, DatasheetError: a unit that cannot be found or loaded.
            SelectionError: a malformed --weapon, --order or --allocation, a modifier out of
                range, or no target at all.
            EditionError: the environment or the config file names no edition.
        """
        from .abilities import parse_added_ability
        from .edition import EditionChoice
        from .selection import (
            AddedAbility,
            Selection,
            SelectionError,
            allocation_choice,
            precision_target_value,
        )

        choice = EditionChoice(edition, "batch file") if edition else self.engine.edition_choice
        if target is None:
            if self.target.target is None:
                raise SelectionError("give the target (--target NAME)")
            target = _target_choice(cat, self.target, choice.edition)
        a = self.attacker
        order = a.order
        attacker = _attacker_choice(cat, a, choice.edition)
        return Selection(
            phase=self.phase,
            attacker=attacker,
            target=target,
            conditions=self.conditions.build(),
            modifiers=self.modifiers.build(target_stealth=self.target.target_stealth),
            effects=self.effects,
            edition=choice.edition,
            edition_note=choice.note,
            order="best"
            if order and order.strip().lower() == "best"
            else split_names(order, "--order"),
            allocation=allocation_choice(split_names(self.target.allocation, "--allocation")),
            target_wounds_left=self.target.target_wounds_left,
            precision_target=precision_target_value(
                "leader" if a.precision_target is None else a.precision_target
            ),
            precision_given=a.precision_target is not None,
            added_abilities=tuple(
                AddedAbility(*parse_added_ability(text)) for text in a.add_ability or []
            ),
            attacker_wounds_left=a.wounds_left,
            notes=cat.duplicate_notes(_sheets(attacker, target), choice.edition),
        )


def _sheets(*choices: UnitChoice) -> list:
    """The datasheets of the units chosen (Leaders included), each once."""
    out: list = []
    for c in choices:
        for ds in (c.datasheet, *c.leaders):
            if all(ds is not seen for seen in out):
                out.append(ds)
    return out


def _attacker_choice(cat: Catalog, a: AttackerOptions, edition: str) -> UnitChoice:
    from .selection import UnitChoice
    from .units import given_loadouts, parse_weapon_spec

    ds = _find(cat, a.attacker, a.faction, edition, "--faction")
    _check_size(ds, a.models, "--models")
    leaders = [_leader(cat, n, a.faction, edition, "--faction", "--leader") for n in a.leader or []]
    return UnitChoice(
        ds,
        a.models,
        a.loadout,
        tuple(parse_weapon_spec(w) for w in a.weapon or []),
        tuple(lead for lead, _ in leaders),
        given_loadouts([loadout for _, loadout in leaders]),
    )


def _leader(
    cat: Catalog,
    text: str,
    faction: str | None,
    edition: str | None,
    faction_option: str,
    option: str,
):
    """A Leader given as ``NAME`` or ``NAME:LOADOUT`` (``units.split_leader``): its datasheet
    and its loadout's name (None: as equipped).

    Raises:
        UsageError: a colon with nothing on one side.
        LookupError: as :func:`_find`.
        SelectionError: a loadout the Leader's datasheet does not have, naming the option.
    """
    from .selection import SelectionError
    from .units import find_loadout, split_leader

    name, loadout = split_leader(text, option)
    ds = _find(cat, name, faction, edition, faction_option)
    try:
        find_loadout(ds, loadout)
    except SelectionError as exc:
        raise SelectionError(f"{option} {text}: {exc}") from None
    return ds, loadout


def _find(cat: Catalog, name: str, faction: str | None, edition: str | None, option: str):
    """``cat.find``, a name of several factions' units refused suggesting ``option`` (the
    option that gives this unit's faction here)."""
    from .catalog import AmbiguousUnitError, UnknownFactionError

    try:
        return cat.find(name, faction, edition)
    except AmbiguousUnitError as exc:
        raise exc.saying(option) from None
    except UnknownFactionError as exc:  # the catalog names --faction; this unit's is option
        raise UnknownFactionError(str(exc).replace("(--faction)", f"({option})", 1)) from None


def _check_size(ds, models: int | None, option: str) -> None:
    """A unit size the datasheet cannot have, refused naming the option that gave it
    (``--models 0: Lootas cannot have 0 models: from 1 to 10 ...``).

    Raises:
        SelectionError: as :func:`~wh40k_calc.units.pick_size`, the option first.
    """
    from .selection import SelectionError
    from .units import pick_size

    if models is None:
        return
    try:
        pick_size(ds, models, "attacker")
    except SelectionError as exc:  # of the same kind: below one model is a usage error
        raise type(exc)(f"{option} {models}: {exc}") from None


def target_choice(
    cat: Catalog,
    t: TargetOptions,
    edition: str | None = None,
    models_option: str = "",
    faction_option: str = "",
) -> UnitChoice:
    """The target these options name (a sequence looks it up once for all its steps), in
    ``edition``'s data (default: the catalog's). ``models_option``: the option that gave
    ``t.target_models``, named in a size error (default ``--target-models``; an exchange
    side's is ``--models``); ``faction_option`` the one that gives its faction, suggested for
    a name of several factions' units (default ``--target-faction``; an exchange side's is
    ``--faction``).

    Raises:
        UnknownUnitError, DatasheetError: a unit that cannot be found or loaded.
        SelectionError: a size the unit cannot have.
    """
    return _target_choice(
        cat, t, edition, models_option or "--target-models", faction_option or "--target-faction"
    )


def _target_choice(
    cat: Catalog,
    t: TargetOptions,
    edition: str | None,
    models_option: str = "--target-models",
    faction_option: str = "--target-faction",
) -> UnitChoice:
    from .selection import UnitChoice
    from .units import given_loadouts

    ds = _find(cat, t.target, t.target_faction, edition, faction_option)
    _check_size(ds, t.target_models, models_option)
    option = "--leader" if models_option == "--models" else "--target-leader"  # a side's
    leaders = [
        _leader(cat, n, t.target_faction, edition, faction_option, option)
        for n in t.target_leader or []
    ]
    return UnitChoice(
        ds,
        t.target_models,
        t.target_loadout,
        (),
        tuple(lead for lead, _ in leaders),
        given_loadouts([loadout for _, loadout in leaders]),
    )


def split_names(text: str | None, option: str) -> tuple[str, ...] | None:
    """``"A, B"`` -> ("A", "B"); None when the option was not given.

    Raises:
        UsageError: the option was given without any name (exit code 2).
    """
    from .selection import UsageError

    if text is None:
        return None
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise UsageError(f"{option} {text!r}: give names separated by commas")
    return names


class RequestError(ValueError):
    """A command line that does not parse; the message is the one ``calc`` would print."""


def attack_command(
    run: Callable[[AttackRequest], None] | None = None,
) -> Callable[..., AttackRequest | None]:
    """The command function of ``calc shoot`` and ``calc fight`` (typer reads its option
    groups): it makes the :class:`AttackRequest` of the options parsed and hands it to ``run``
    (the command line: resolve and print); with ``run`` None it returns the request instead
    (:func:`parse_request`)."""

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
        """Resolve one activation and print the result (``calc shoot`` and ``calc fight``)."""
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
        if run is None:
            return request
        run(request)
        return None

    return attack


def _given(ctx: typer.Context) -> frozenset[str]:
    """The parameters typed on the command line (not defaults)."""
    given: set[str] = set()
    for p in ctx.command.params:
        source = ctx.get_parameter_source(p.name) if p.name else None
        if p.name and source is not None and source.name == "COMMANDLINE":
            given.add(p.name)
    return frozenset(given)


def command_for(name: str, func: Callable[..., Any], help: str | None = None) -> Any:
    """The click command ``calc NAME`` runs, built from the command function ``func`` alone
    (typer reads its whole signature): single-valued options refused when repeated
    (:func:`~wh40k_calc.optgroup.once_command_class`)."""
    one = typer.Typer(**COMMAND_SETTINGS)
    one.command(name, help=help, cls=once_command_class())(func)
    return typer.main.get_command(one)


def parse_request(args: Sequence[str], *, require_target: bool = True) -> AttackRequest:
    """Parse ``[COMMAND, ATTACKER, OPTIONS...]`` (COMMAND: shoot or fight) exactly as ``calc``
    parses its command line, without resolving anything.

    Args:
        args: the command-line words, e.g. ``shlex.split("shoot lootas --stationary")``.
        require_target: False lets ``--target`` be left out (a sequence step: the sequence
            gives the target).

    Raises:
        RequestError: COMMAND is not shoot or fight, an unknown option, a bad value, a missing
            argument, or ``--help``.
    """
    verb = args[0].lower() if args else ""  # as the commands' other choices: any case
    if verb not in PHASES:
        from .fuzzy import did_you_mean

        raise RequestError(
            f"expected 'shoot' or 'fight' first, got {' '.join(args[:1])!r}"
            + did_you_mean(verb, list(PHASES))
        )
    args = [verb, *args[1:]]
    command = command_for(verb, attack_command(), PHASE_HELP[verb])
    if not require_target:
        for p in command.params:
            if p.name == "target":
                p.required = False
    click_error = cast(
        "type[ClickException]",
        next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"),
    )
    try:
        got = command.main(list(args[1:]), prog_name=f"calc {args[0]}", standalone_mode=False)
    except click_error as exc:
        raise RequestError(exc.format_message()) from None
    if not isinstance(got, AttackRequest):
        raise RequestError(f"{' '.join(args)!r}: nothing to resolve")
    return got

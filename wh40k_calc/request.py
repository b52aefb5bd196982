"""One ``calc shoot``/``calc fight`` command line, parsed: the option groups, and the Selection
they describe.

:func:`parse_request` parses an argument list such as ``["shoot", "lootas", "--models", "10",
"--stationary"]`` with the very parser of ``calc shoot`` (same options, types, ranges and error
messages) into an :class:`AttackRequest`; ``AttackRequest.selection`` looks the units up and
builds the :class:`~wh40k_calc.selection.Selection`. A command that runs several activations
(the steps of a sequence) parses each step with it, refuses the groups a step may not set
(``given_in``) and supplies the target itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .options import (
    AttackerOptions,
    ConditionOptions,
    EngineOptions,
    ModifierOptions,
    TargetOptions,
)

if TYPE_CHECKING:
    from .catalog import Catalog
    from .optgroup import OptionGroup
    from .selection import Selection, UnitChoice

PHASES = {"shoot": "shooting", "fight": "fight"}
PARSE_ONLY = object()  # click's ctx.obj when the command should return its request, not run


@dataclass(frozen=True)
class AttackRequest:
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
            precision_target=precision_target_value(a.precision_target),
            added_abilities=tuple(
                AddedAbility(*parse_added_ability(text)) for text in a.add_ability or []
            ),
            attacker_wounds_left=a.wounds_left,
            notes=cat.duplicate_notes(_sheets(attacker, target), choice.edition),
        )


def _sheets(*choices: UnitChoice) -> list:
    """The datasheets of the units chosen (Leaders included), each once."""
    out = []
    for c in choices:
        for ds in (c.datasheet, *c.leaders):
            if all(ds is not seen for seen in out):
                out.append(ds)
    return out


def _attacker_choice(cat: Catalog, a: AttackerOptions, edition: str) -> UnitChoice:
    from .selection import UnitChoice
    from .units import parse_weapon_spec

    return UnitChoice(
        cat.find(a.attacker, a.faction, edition),
        a.models,
        a.loadout,
        tuple(parse_weapon_spec(w) for w in a.weapon or []),
        tuple(cat.find(n, a.faction, edition) for n in a.leader or []),
    )


def target_choice(cat: Catalog, t: TargetOptions, edition: str | None = None) -> UnitChoice:
    """The target these options name (a sequence looks it up once for all its steps), in
    ``edition``'s data (default: the catalog's).

    Raises:
        UnknownUnitError, DatasheetError: a unit that cannot be found or loaded.
    """
    return _target_choice(cat, t, edition)


def _target_choice(cat: Catalog, t: TargetOptions, edition: str | None) -> UnitChoice:
    from .selection import UnitChoice

    return UnitChoice(
        cat.find(t.target, t.target_faction, edition),
        t.target_models,
        t.target_loadout,
        (),
        tuple(cat.find(n, t.target_faction, edition) for n in t.target_leader or []),
    )


def split_names(text: str | None, option: str) -> tuple[str, ...] | None:
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


class RequestError(ValueError):
    """A command line that does not parse; the message is the one ``calc`` would print."""


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
    import typer

    from .cli import click_command

    verb = args[0].lower() if args else ""  # as the commands' other choices: any case
    if verb not in PHASES:
        from .catalog import did_you_mean

        raise RequestError(
            f"expected 'shoot' or 'fight' first, got {' '.join(args[:1])!r}"
            + did_you_mean(verb, list(PHASES))
        )
    args = [verb, *args[1:]]
    command = click_command(verb)
    if not require_target:
        for p in command.params:
            if p.name == "target":
                p.required = False
    click_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    try:
        got = command.main(
            list(args[1:]), prog_name=f"calc {args[0]}", standalone_mode=False, obj=PARSE_ONLY
        )
    except click_error as exc:
        raise RequestError(exc.format_message()) from None
    if not isinstance(got, AttackRequest):
        raise RequestError(f"{' '.join(args)!r}: nothing to resolve")
    return got

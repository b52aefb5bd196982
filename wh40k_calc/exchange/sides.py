"""The two sides of an exchange: each unit described once, and its activations.

Each side is given as one or two activations written as ``calc sequence`` steps
(``"fight boyz --models 20 --leader warboss --charged"``), parsed by ``calc shoot``'s own
parser (:func:`wh40k_calc.request.parse_request`). The options that describe the *unit* —
its datasheet, ``--models``, ``--loadout``, ``--leader``, ``--faction``, ``--wounds-left``
(the wounded model it starts with) and ``--allocation`` (its allocation order when it is
attacked) — describe it as attacker and as target alike, so they are given once per side:
in any of its texts, and where several texts give one, with the same value. The other
options (conditions, modifiers, effects, ``--order``, ``--add-ability``,
``--precision-target``) belong to that activation only.

A unit shoots once in its Shooting phase and fights once per Fight phase, so a side has at
most one ``shoot`` and one ``fight`` activation. ``--weapon`` (which models use which named
weapons) is refused: which of those models are left as the unit loses models is not modelled.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..options import AttackerOptions, EngineOptions, TargetOptions
from ..records import replace
from ..request import AttackRequest, RequestError, parse_request

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..selection import Selection, UnitChoice

SIDES = ("a", "b")
# the options that describe the unit (as attacker and as target), by parameter name
UNIT_OPTIONS = ("attacker", "models", "loadout", "leader", "faction", "wounds_left")
UNIT_TARGET_OPTIONS = ("allocation",)  # a TargetOptions field a side may set: its own order
HELP_WORDS = ("--help", "-h")


class SideError(ValueError):
    """A side's activation that cannot be parsed or is inconsistent with the side's other
    activation; the message names the side and the text. ``usage``: the words do not parse
    (exit code 2, as on the command line)."""

    def __init__(
        self, side: str, text: str, message: str, usage: bool = False, index: int | None = None
    ):
        where = f"--side-{side} {text!r}: " if text else f"side {side.upper()}: "
        super().__init__(where + message)
        self.side = side
        self.text = text
        self.reason = message
        self.usage = usage
        self.index = index  # which of the side's texts (0-based), when known


@dataclass(frozen=True)
class SideStep:
    """One activation of a side as written: ``phase`` "shooting" or "fight", ``text`` the
    activation as the player wrote it, ``request`` its parsed options (the unit's options
    replaced by the side's, so that every activation of the side describes one unit)."""

    side: str
    phase: str
    text: str
    request: AttackRequest

    @property
    def verb(self) -> str:
        """``shoot`` or ``fight``."""
        return "shoot" if self.phase == "shooting" else "fight"

    @property
    def charged(self) -> bool:
        """The activation is written with ``--charged`` (the side charges: Fights First)."""
        return self.request.conditions.charged

    @property
    def engaged(self) -> bool:
        """The activation is made while engaged (``--engaged``; a shoot activation once the
        units are engaged: :func:`~.order.engaged_step`)."""
        return self.request.conditions.engaged


@dataclass(frozen=True)
class Side:
    """One unit of the exchange.

    ``key`` is "a" or "b"; ``unit`` its UnitChoice (datasheet, size, loadout, Leaders);
    ``unit_options`` the side's unit options (``AttackerOptions`` with the unit's fields);
    ``allocation`` its allocation order as given (``--allocation`` text or None);
    ``wounds_left`` the wounds its first model in allocation order has left at the start
    (None: unharmed); ``steps`` its activations in the order given.
    """

    key: str
    unit: UnitChoice
    unit_options: AttackerOptions
    allocation: str | None
    wounds_left: int | None
    steps: tuple[SideStep, ...]

    @property
    def label(self) -> str:
        """``A`` or ``B``."""
        return self.key.upper()

    def step(self, phase: str) -> SideStep | None:
        """The side's activation in ``phase`` ("shooting" or "fight"), if any."""
        return next((s for s in self.steps if s.phase == phase), None)

    def as_target(self) -> TargetOptions:
        """The side's unit described as a target (for the other side's activations)."""
        return _as_target(self.unit_options, self.allocation)


def _as_target(o: AttackerOptions, allocation: str | None) -> TargetOptions:
    """A unit's options as the options of a target."""
    return TargetOptions(
        target=o.attacker,
        target_models=o.models,
        target_loadout=o.loadout,
        target_leader=o.leader,
        allocation=allocation,
        target_faction=o.faction,
    )


def parse_side_text(side: str, text: str) -> AttackRequest:
    """One activation of ``side`` parsed as ``calc shoot``/``calc fight`` parse a command
    line, without a target.

    Raises:
        SideError: (with ``usage``) the text does not split into words, does not start with
            shoot or fight, asks for --help, has an unknown option or a bad value, or gives a
            target option (other than ``--allocation``) or an engine option.
    """
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise SideError(side, text, f"cannot read it ({exc})", usage=True) from None
    if any(w in HELP_WORDS for w in words):
        raise SideError(
            side,
            text,
            "--help: not inside a side (see calc shoot --help / calc fight --help for an "
            "activation's options and calc exchange --help for the sides)",
            usage=True,
        )
    try:
        req = parse_request(words, require_target=False)
    except RequestError as exc:
        raise SideError(side, text, str(exc), usage=True) from None
    names = TargetOptions.option_names()
    refused = [n for p, n in names.items() if p in req.given and p not in UNIT_TARGET_OPTIONS]
    refused += req.given_in(EngineOptions)
    if refused:
        raise SideError(
            side,
            text,
            f"{', '.join(refused)}: not inside a side; the other unit is the other side, "
            "described in its own --side-a/--side-b, and --method/--trials/--seed/--json/"
            "--edition/--datasheets are given once, for the whole exchange",
            usage=True,
        )
    if "weapon" in req.given:
        raise SideError(
            side,
            text,
            "--weapon: not in an exchange (which models carry the named weapons as the unit "
            "loses models is not modelled); give --loadout, or leave the unit as equipped",
            usage=True,
        )
    return req


def build_side(side: str, texts: list[str], cat: Catalog) -> Side:
    """One side from its activations' texts.

    Raises:
        SideError: no text, a text that does not parse, more than one shoot or fight
            activation, activations naming different units or giving one of the unit's
            options different values, a unit that cannot be found.
    """
    from ..request import target_choice

    if not texts:
        raise SideError(
            side, "", f'give the side\'s activation, e.g. --side-{side} "fight boyz --models 20"'
        )
    parsed = []
    for i, t in enumerate(texts):
        try:
            parsed.append((t, parse_side_text(side, t)))
        except SideError as exc:
            exc.index = i
            raise
    for phase in ("shooting", "fight"):
        same = [i for i, (_, r) in enumerate(parsed) if r.phase == phase]
        if len(same) > 1:
            verb = (
                "shoots once in its Shooting phase"
                if phase == "shooting"
                else ("fights once per Fight phase")
            )
            message = f"a unit {verb}: give one {phase} activation per side"
            raise SideError(side, texts[same[1]], message, usage=True, index=same[1])
    options, allocation = _unit_options(side, parsed)
    steps = tuple(
        SideStep(side, r.phase, t, replace(r, attacker=_merged(r.attacker, options)))
        for t, r in parsed
    )
    given = [i for i, (_, r) in enumerate(parsed) if "models" in r.given]
    at = given[0] if given else 0  # the text that gave the side's size, said in its errors
    try:
        unit = target_choice(
            cat,
            _as_target(options, allocation),
            models_option="--models",
            faction_option="--faction",
        )
    except (LookupError, ValueError) as exc:
        from ..options import exit_code

        usage = exit_code(exc) == 2
        raise SideError(side, parsed[at][0], str(exc), index=at, usage=usage) from None
    return Side(side, unit, options, allocation, options.wounds_left, steps)


def _unit_options(
    side: str, parsed: list[tuple[str, AttackRequest]]
) -> tuple[AttackerOptions, str | None]:
    """The side's unit options (and its ``--allocation``): each one from the text that gives
    it; the same value where several do.

    Raises:
        SideError: two texts give one option different values, or name different units.
    """
    from ..datasheet import norm_name

    values: dict[str, tuple[object, object, str]] = {}  # name -> (value, comparable, text)
    for text, req in parsed:
        for name in (*UNIT_OPTIONS, *UNIT_TARGET_OPTIONS):
            if name not in req.given and name != "attacker":
                continue
            group = req.target if name in UNIT_TARGET_OPTIONS else req.attacker
            value = getattr(group, name)
            key = _comparable(name, value, norm_name)
            if name in values and values[name][1] != key:
                what = "the unit" if name == "attacker" else _option(name)
                raise SideError(
                    side,
                    text,
                    f"{what} differs from {values[name][2]!r}: a side is one unit, described "
                    "once (its size, loadout, Leaders and wounds cannot change during the "
                    "exchange)",
                    usage=True,
                )
            values.setdefault(name, (value, key, text))
    picked = {n: v[0] for n, v in values.items() if n in UNIT_OPTIONS}
    options = replace(parsed[0][1].attacker, **picked)
    allocation = values["allocation"][0] if "allocation" in values else None
    return options, allocation  # type: ignore[return-value]


def _comparable(name: str, value: object, norm) -> object:
    if name == "attacker" and isinstance(value, str):
        return norm(value)
    if name == "leader":
        return tuple(norm(v) for v in cast("tuple[str, ...]", value or ()))
    if name in ("allocation", "loadout", "faction") and isinstance(value, str):
        return norm(value)
    return value


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _merged(own: AttackerOptions, unit: AttackerOptions) -> AttackerOptions:
    """An activation's attacker options with the side's unit options (the wounded model is
    the state's, not the activation's)."""
    fields = {n: getattr(unit, n) for n in UNIT_OPTIONS}
    fields["wounds_left"] = None
    return replace(own, **fields)


def step_selection(
    step: SideStep, attacker: Side, target: Side, cat: Catalog, engine: EngineOptions
) -> Selection:
    """The Selection of ``attacker``'s activation ``step`` against ``target``'s unit, every
    model of both alive (the exchange replaces the models alive and the target's state).

    Raises:
        UnknownUnitError, DatasheetError, SelectionError: as
            :meth:`~wh40k_calc.request.AttackRequest.selection`.
    """
    req = replace(step.request, target=target.as_target(), engine=engine)
    return req.selection(cat, target=target.unit)

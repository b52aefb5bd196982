"""The order of an exchange's activations: battle rounds, turns, phases.

A battle round is two turns, one per player (Core rules; edition 11, 01 Core Concepts). The
exchange starts with the turn of the side that charges (the side whose ``fight`` activation has
``--charged``), else with side A (``--first`` picks). In each turn:

1. **Shooting phase**: the active side's ``shoot`` activation, if it has one. While the two
   units are not yet engaged (before the charge, or throughout when neither side fights) it
   is made as written. Once they are engaged (every turn after the charge's Fight phase) it
   is made as a shooting while engaged at the unit it is engaged with (``--engaged
   --target-engaged``, :func:`engaged_step`): 10th edition, Core rules: Pistol (seed 000) and
   Big Guns Never Tire; edition 11, 10.06 Close-Quarters Shooting. The rules layer
   (``rules.engaged``) picks the weapons that may shoot then (Pistols; a MONSTER/VEHICLE's
   ranged weapons, [BLAST] left out) and the Hit-roll penalties; when none may shoot, the
   activation is not made (``engaged_ok``) and the exchange says why in a note
   (``setup.missing_notes``). An engaged unit did not Advance (an Advance move cannot end
   within Engagement Range: Core rules, Advance Moves; 09.06), so ``--advanced`` is left out
   there, as ``--charged`` is, and so are edition 11's ``--stationary`` and ``--indirect``,
   which say the unit is unengaged (:func:`engaged_conditions`).
2. **Fight phase**: each side's ``fight`` activation, both sides fighting in every Fight phase
   once the units are engaged (from the charge on; from the start when nobody charges).
   Order: a unit has Fights First in a Fight phase when it made a Charge move this turn (10th
   edition: Core rules, Charge Bonus; edition 11: 11.04 Charge Move, for the rest of the turn)
   or when an effect of its fight activation gives it (a ``fights_first`` change whose
   conditions hold for that activation, or its datasheet's own ability; 10th edition: Core
   rules, Fights First; edition 11: 24.13 Fights First). Where such a condition reads the
   unit's own state (below its Starting Strength; an Attached unit whose Leader lacks the
   ability), the phase's two activations are marked ``order_by_state`` and the engines
   decide the order per state of both units at the start of the phase (:func:`lead_side`);
   they are listed in the order full strength gives. A unit with Fights
   First fights in the Fights First step, before a unit without it (10th edition: Core
   rules, Fights First; edition 11: 12.04 Fight Step, Resolve Fights First Combats). When
   both or neither have it, who selects first depends on the edition (:func:`tie_lead`):

   * 10th edition: Core rules, Fight phase: both steps (Fights First, then Remaining
     Combats) start with the player whose turn it is not, the players then alternating. So
     the side whose turn it is **not** fights first: e.g. in every Fight phase after the
     charge's own turn (the charge bonus lasts only that turn) when no effect gives Fights
     First. Our seed pages (000, 001) do not print the Fight phase's order (only Fights
     First and the Charge Bonus); this is from the 10th-edition Core Rules themselves.
   * Edition 11, 12.04: the player whose turn it is starts the Fights First step and, having
     no Fights First unit to select, moves the sequence on to Resolve Remaining Combats,
     where they select next: the side whose turn it **is** fights first.

   ``--fight-first`` picks the side instead (in either edition).

A charge is made once, in the charging side's first turn: its ``fight`` activation has
``--charged`` only there ([LANCE], charge effects); later it fights as a unit already engaged.
The charging turn's shooting comes before the charge, so it is made unengaged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ..records import replace
from .sides import Side, SideStep

C = TypeVar("C")  # a Selection's Conditions, or the ConditionOptions a side's text gives

MAX_TURNS = 20


@dataclass(frozen=True)
class Planned:
    """One activation of the exchange: its place (1-based ``number``; battle ``round`` and
    ``turn`` counted from 1; ``active`` the side whose turn it is), the side acting and the
    activation as it is made then (``step``; a charge only in the charging turn);
    ``fights_first``: the unit has Fights First in this Fight phase (it charged this turn, or
    the effects ``fights_first_by`` give it), as the unit is at full strength;
    ``order_by_state``: a Fights First condition reads a unit's state, so the order of this
    Fight phase's two activations is decided per state of both units at its start (the
    engines run the pair in either order, :func:`lead_side`); they are listed in the order
    full strength gives. ``engaged``: a shoot activation made once the units are engaged, at
    the unit it is engaged with (``step`` is then :func:`engaged_step`'s)."""

    number: int
    round: int
    turn: int
    active: str
    step: SideStep
    fights_first: bool = False  # the unit has Fights First in this Fight phase
    fights_first_by: tuple[str, ...] = ()  # the effects that give it (besides a charge)
    order_by_state: bool = False  # the Fight phase's order is read per state (see planned)
    engaged: bool = False  # a shoot activation made while engaged (after the charge)

    @property
    def side(self) -> str:
        """``a`` or ``b``: the side acting."""
        return self.step.side

    @property
    def other(self) -> str:
        """The side attacked."""
        return "b" if self.step.side == "a" else "a"


class OrderError(ValueError):
    """Activations that cannot be put in order (both sides charging, ...): options that do not
    go together, wrong whatever the data says (a usage error, exit code 2)."""

    usage = True


def first_side(a: Side, b: Side, first: str | None) -> str:
    """The side whose turn comes first: the side that charges, else ``first`` (default a).

    Raises:
        OrderError: both sides charge, or ``first`` names the side that does not charge.
    """
    charging = [s.key for s in (a, b) if (f := s.step("fight")) is not None and f.charged]
    for s in (a, b):
        shot = s.step("shooting")
        if shot is not None and shot.charged:
            raise OrderError(
                f"--side-{s.key} {shot.text!r}: --charged on a shoot activation: the charge is "
                "made by the side's fight activation (give --charged there)"
            )
    if len(charging) == 2:
        raise OrderError(
            "both sides are given --charged: the exchange starts with one charge (a unit "
            "already engaged cannot declare one); give it on the charging side only"
        )
    if charging:
        if first is not None and first != charging[0]:
            raise OrderError(
                f"--first {first}: side {charging[0].upper()} charges, so the exchange starts "
                "with its turn"
            )
        return charging[0]
    return first or "a"


def planned(
    a: Side,
    b: Side,
    turns: int,
    first: str | None,
    fight_first: str | None,
    given_by: Callable[[SideStep], tuple[tuple[str, ...], bool]] | None = None,
    *,
    edition: str,
    engaged_ok: Callable[[SideStep], bool] | None = None,
) -> list[Planned]:
    """Every activation of ``turns`` turns, in order, for the rules ``edition`` ("10" or
    "11": who fights first in a Fight phase where both sides or neither have Fights First,
    :func:`tie_lead`; ``fight_first`` overrides it). ``given_by(step)``: the names of the
    effects that give the unit of a fight activation (as it is made that turn, at full
    strength) Fights First, and whether their conditions read its state (None: no effect
    does). ``engaged_ok(step)``: whether the shoot activation ``step`` made while engaged
    (:func:`engaged_step`) has a weapon that may shoot then (None: every one has; those
    that have none are not made).

    Raises:
        OrderError: as :func:`first_side`; a side that both shoots and fights without a charge
            (the units would be engaged from the start, with no turn before the fight to shoot
            in).
        ValueError: an ``edition`` other than "10" and "11" (:func:`tie_lead`).
    """
    sides = {"a": a, "b": b}
    start = first_side(a, b, first)
    charger = next(
        (s.key for s in (a, b) if (f := s.step("fight")) is not None and f.charged), None
    )
    fights = any(s.step("fight") is not None for s in (a, b))
    shoots = [s for s in (a, b) if s.step("shooting") is not None]
    if fights and shoots and charger is None:
        raise OrderError(
            f"side {shoots[0].label} shoots and a side fights, but nobody charges: the units "
            "are then engaged from the start, with no turn to shoot in before the fight; give "
            "--charged on the fight activation of the side that charges (it shoots first in "
            "its turn, then charges; after the charge a shoot activation is made as a shooting "
            "while engaged)"
        )
    out: list[Planned] = []
    engaged = fights and charger is None
    for t in range(1, turns + 1):
        active = start if t % 2 == 1 else _other(start)
        shot = sides[active].step("shooting")
        if shot is not None and not engaged:
            out.append(Planned(len(out) + 1, (t + 1) // 2, t, active, shot))
        elif shot is not None and (engaged_ok is None or engaged_ok(engaged_step(shot, edition))):
            now = engaged_step(shot, edition)
            out.append(Planned(len(out) + 1, (t + 1) // 2, t, active, now, engaged=True))
        charging_now = t == 1 and charger is not None
        if not (engaged or charging_now):
            continue
        engaged = True
        made: dict[str, tuple[SideStep, bool, tuple[str, ...]]] = {}
        by_state = False
        for key in ("a", "b"):
            step = sides[key].step("fight")
            if step is None:
                continue
            charged = charging_now and key == charger
            if step.charged and not charged:
                step = _without_charge(step)
            by, reads = given_by(step) if given_by is not None else ((), False)
            by_state = by_state or (reads and not charged)
            made[key] = (step, charged, by)
        ff = {key for key, (_, charged, by) in made.items() if charged or by}
        by_state = by_state and len(made) == 2
        for key in _fight_order(active, ff, fight_first, edition):
            if key not in made:
                continue
            step, charged, by = made[key]
            out.append(
                Planned(len(out) + 1, (t + 1) // 2, t, active, step, key in ff, by, by_state)
            )
    return out


def lead_side(first: str, ff: dict[str, bool], active: str, pick: str | None, edition: str) -> bool:
    """Whether side ``first`` fights first in a Fight phase where each side has Fights First
    or not (``ff``), ``active`` being the side whose turn it is, ``pick`` the side given by
    ``--fight-first`` (or None) and ``edition`` "10" or "11": :func:`_fight_order`'s rule
    for one pair of states."""
    have = {k for k, v in ff.items() if v}
    return _fight_order(active, have, pick, edition)[0] == first


def tie_lead(active: str, edition: str) -> str:
    """The side that selects first in a Fight phase where both sides or neither have Fights
    First, ``active`` being the side whose turn it is: in the 10th edition the other side
    (Core rules, Fight phase: both steps start with the player whose turn it is not); in
    edition 11 ``active`` (12.04 Fight Step).

    Raises:
        ValueError: ``edition`` is neither "10" nor "11".
    """
    if edition == "10":
        return _other(active)
    if edition == "11":
        return active
    raise ValueError(f"edition {edition!r}: the Fight phase's order is known for 10 and 11")


def _fight_order(active: str, fights_first: set[str], pick: str | None, edition: str) -> list[str]:
    """The sides in the order they fight in one Fight phase: a side with Fights First
    before one without; when both or neither have it, ``pick`` (``--fight-first``), else
    :func:`tie_lead`."""
    one = len(fights_first) == 1
    lead = next(iter(fights_first)) if one else pick or tie_lead(active, edition)
    return [lead, _other(lead)]


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


# the conditions a shooting while engaged cannot have, by edition, with why (engaged_conditions)
NOT_WHILE_ENGAGED = {
    "10": (
        ("charged", "the charge is made once, in the charging side's first turn"),
        ("advanced", "an engaged unit cannot Advance (Core rules, Advance Moves)"),
    ),
    "11": (
        ("charged", "the charge is made once, in the charging side's first turn"),
        ("advanced", "an engaged unit cannot make an advance move (09.06)"),
        ("stationary", "in edition 11 it says the unit is unengaged ([HEAVY], 24.16)"),
        ("indirect", "indirect shooting needs an unengaged unit (10.07)"),
    ),
}


def engaged_conditions(conditions: C, edition: str) -> C:
    """A shoot activation's ``conditions`` once the units are engaged: the unit shoots while
    within Engagement Range of the other, at it (``engaged``, ``target_engaged``), and without
    the conditions an engaged unit cannot have in ``edition`` (:data:`NOT_WHILE_ENGAGED`: no
    Charge move this turn, no Advance move; edition 11's ``--stationary`` and ``--indirect``,
    which need an unengaged unit)."""
    off = {name: False for name, _ in NOT_WHILE_ENGAGED.get(edition, NOT_WHILE_ENGAGED["11"])}
    return replace(conditions, engaged=True, target_engaged=True, **off)


def engaged_step(step: SideStep, edition: str) -> SideStep:
    """The shoot activation ``step`` made once the units are engaged (its conditions as
    :func:`engaged_conditions` makes them for ``edition``)."""
    req = step.request
    conditions = engaged_conditions(req.conditions, edition)
    return replace(step, request=replace(req, conditions=conditions))


def _without_charge(step: SideStep) -> SideStep:
    """``step`` made in a later turn: the unit is already engaged, it did not charge."""
    req = step.request
    conditions = replace(req.conditions, charged=False)
    return replace(step, request=replace(req, conditions=conditions))

"""An exchange made ready to run: both sides, each unit's track, every activation in order with
its Selection, and each unit's state at the start.

The Selection of an activation is built with every model of both units (``calc shoot``'s
options, against the other side's unit as described by that side); an attack class then
replaces the models alive (``Selection.attacker_alive``) and the damaged bracket
(``attacker_wounds_left``), and the carried state replaces the target's. A shoot activation
made once the units are engaged has its own Selection, shooting while engaged at the other
unit (:func:`engaged_selection`); when the rules let no weapon shoot then, it is not made and
a note says why (:func:`missing_notes`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..notes import OptionNote
from ..profile import TargetStates
from ..records import replace
from .order import NOT_WHILE_ENGAGED, Planned, engaged_conditions, planned, tie_lead
from .sides import Side, SideStep, step_selection
from .track import AttackClass, Track, track_of

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..options import EngineOptions
    from ..selection import Selection


class ExchangeError(ValueError):
    """An activation of the exchange that cannot be resolved; the message names it."""


@dataclass(frozen=True)
class Setup:
    """Everything an exchange runs on.

    ``sides`` and ``tracks`` by key ("a", "b"); ``steps`` every activation in order and
    ``selections`` the Selection of each (every model alive); ``initial`` each unit's state at
    the start (one state); ``edition`` the rules edition.
    """

    sides: dict[str, Side]
    tracks: dict[str, Track]
    steps: tuple[Planned, ...]
    selections: tuple[Selection, ...]
    initial: dict[str, TargetStates]
    edition: str
    turns: int
    notes: tuple[str, ...] = ()  # said with the result (Fights First given by effects)
    fight_first: str | None = None  # --fight-first
    _ff: dict = field(default_factory=dict, compare=False, repr=False)  # (k, class) -> bool

    def selection(self, k: int, cls: AttackClass) -> Selection:
        """Step ``k``'s (0-based) Selection made by the models of ``cls``."""
        sel = self.selections[k]
        full = tuple(g.count for g in self.tracks[self.steps[k].side].unit.groups)
        if cls.alive == full and cls.wounds_left is None:
            return sel
        return replace(
            sel, attacker_alive=cls.alive, attacker_wounds_left=cls.wounds_left, skip_unmet=True
        )

    def fights_first(self, k: int, cls: AttackClass) -> bool:
        """Whether the unit of fight activation ``k`` has Fights First when its models are
        those of ``cls``: it charged this turn, or its effects give it there (their conditions
        read from those models: ``Plan.fights_first``). A class that cannot fight has none."""
        p = self.steps[k]
        if p.step.charged:
            return True
        key = (k, cls)
        if key not in self._ff:
            from ..rules import get_rules
            from ..selection import SelectionError

            try:
                plan = get_rules(self.edition).plan(self.selection(k, cls))
                self._ff[key] = bool(plan.fights_first)
            except (SelectionError, LookupError, ValueError):
                self._ff[key] = False
        return self._ff[key]

    def leads(self, k: int, rows: dict[str, np.ndarray]) -> np.ndarray:
        """For a Fight phase whose order is read per state (activations ``k`` and ``k + 1``,
        ``Planned.order_by_state``): whether activation ``k``'s side fights first, per pair of
        states (``rows["a"]`` × ``rows["b"]``: a boolean matrix, A's states as rows), each
        unit's Fights First read from its state (:meth:`fights_first`) and the order then as
        :func:`~.order.lead_side` gives it."""
        from .order import lead_side

        ff = {}
        for side in "ab":
            step = k if self.steps[k].side == side else k + 1
            classes, class_of = self.tracks[side].classes(rows[side])
            have = np.array([self.fights_first(step, c) for c in classes], dtype=bool)
            ff[side] = have[class_of] if len(class_of) else np.zeros(0, dtype=bool)
        first, active = self.steps[k].side, self.steps[k].active
        out = np.empty((len(rows["a"]), len(rows["b"])), dtype=bool)
        for fa in (False, True):
            for fb in (False, True):
                lead = lead_side(first, {"a": fa, "b": fb}, active, self.fight_first, self.edition)
                out[np.ix_(ff["a"] == fa, ff["b"] == fb)] = lead
        return out

    def label(self, k: int) -> str:
        """How step ``k`` (0-based) is named in messages: ``activation 3 (B fight, turn 2)``."""
        p = self.steps[k]
        return f"activation {p.number} ({p.side.upper()} {p.step.verb}, turn {p.turn})"


def build_setup(
    a: Side,
    b: Side,
    cat: Catalog,
    engine: EngineOptions,
    turns: int,
    first: str | None = None,
    fight_first: str | None = None,
) -> Setup:
    """The exchange of sides ``a`` and ``b`` over ``turns`` turns.

    Raises:
        SideError: an activation whose options are impossible (named by its side and text).
        OrderError: activations that cannot be ordered.
        ExchangeError: a unit whose start (``--wounds-left``) is impossible.
    """
    from ..options import exit_code
    from ..rules import get_rules
    from ..selection import SelectionError
    from .sides import SideError

    sides = {"a": a, "b": b}
    rules = get_rules(engine.edition_value)
    by_text: dict[tuple[str, str], Selection] = {}
    tracks: dict[str, Track] = {}
    for side in (a, b):
        other = sides["b" if side.key == "a" else "a"]
        for step in side.steps:
            try:
                sel = step_selection(step, side, other, cat, engine)
                plan = rules.plan(sel)
            except (SelectionError, LookupError, ValueError) as exc:
                raise SideError(side.key, step.text, str(exc), usage=exit_code(exc) == 2) from None
            by_text[(side.key, step.phase)] = sel
            act = plan.build(tuple(0 for _ in plan.groups), 0, None)
            track = track_of(plan.target, act.target, plan.target_groups)
            seen = tracks.get(other.key)
            if seen is not None and (seen.shape != track.shape or seen.listing != track.listing):
                raise ExchangeError(
                    f"side {other.label}: its models are allocated differently against "
                    f"--side-{side.key} {step.text!r} than against its other activation"
                )
            tracks.setdefault(other.key, track)
    for side in (a, b):
        attacker = rules.plan(by_text[(side.key, side.steps[0].phase)]).attacker
        groups = [(g.profile.name, g.count) for g in attacker.groups]
        if groups != [(g.profile.name, g.count) for g in tracks[side.key].unit.groups]:
            raise ExchangeError(f"side {side.label}: its models as attacker and as target differ")
    initial = {}
    for side in (a, b):
        track = tracks[side.key]
        try:
            initial[side.key] = (
                track.wounded(side.wounds_left)
                if side.wounds_left is not None
                else track.unharmed()
            )
        except ValueError as exc:
            raise ExchangeError(f"side {side.label}: {exc}") from None
    edition = engine.edition_value
    engaged, refused = _engaged_shooting(rules, by_text, sides, tracks, edition)

    def engaged_ok(step: SideStep) -> bool:
        return step.side in engaged

    given_by = _fights_first(rules, by_text)
    order = planned(
        a, b, turns, first, fight_first, given_by, edition=edition, engaged_ok=engaged_ok
    )
    idle = _fight_first_idle(a, b, turns, first, fight_first, order, given_by, edition, engaged_ok)
    every = planned(a, b, turns, first, fight_first, given_by, edition=edition)
    selections = []
    for p in order:
        sel = by_text[(p.side, p.step.phase)]
        if p.engaged:  # a shoot activation once the units are engaged
            sel = engaged[p.side]
        elif p.step.charged != sel.conditions.charged:  # a later turn: not charging any more
            sel = _later_turn(sel, p.step.charged)
        selections.append(sel)
    return Setup(
        sides,
        tracks,
        tuple(order),
        tuple(selections),
        initial,
        engine.edition_value,
        turns,
        (
            *fights_first_notes(order, engine.edition_value, fight_first),
            *idle,
            *missing_notes(a, b, order, every, refused, edition),
        ),
        fight_first,
    )


def engaged_selection(sel: Selection, edition: str) -> Selection:
    """A side's shoot activation ``sel`` made once the units are engaged: shooting while
    within Engagement Range of the other unit, at it, its conditions as
    :func:`~.order.engaged_conditions` makes them for ``edition``; an ``--effect`` whose
    conditions fail while engaged (Grenade: not an engaged unit) is left out with a note,
    not refused (``skip_unmet``)."""
    return replace(sel, conditions=engaged_conditions(sel.conditions, edition), skip_unmet=True)


def _engaged_shooting(
    rules,
    by_text: dict[tuple[str, str], Selection],
    sides: dict[str, Side],
    tracks,
    edition: str,
) -> tuple[dict[str, Selection], dict[str, str]]:
    """Each side's shoot activation made while engaged (:func:`engaged_selection`), by side,
    where the rules let a weapon shoot then (Pistols, a MONSTER/VEHICLE unit: ``rules.
    engaged``); and, for the others, why not (the rules' refusal). None where no side fights
    (the units are never engaged).

    Raises:
        ExchangeError: the other unit's models are allocated differently against it than
            against the side's other activations.
    """
    from ..selection import SelectionError

    made: dict[str, Selection] = {}
    refused: dict[str, str] = {}
    if all(side.step("fight") is None for side in sides.values()):
        return made, refused
    for key, side in sides.items():
        if side.step("shooting") is None:
            continue
        sel = engaged_selection(by_text[(key, "shooting")], edition)
        try:
            plan = rules.plan(sel)
        except (SelectionError, LookupError, ValueError) as exc:
            refused[key] = str(exc)
            continue
        act = plan.build(tuple(0 for _ in plan.groups), 0, None)
        other = "b" if key == "a" else "a"
        track = track_of(plan.target, act.target, plan.target_groups)
        seen = tracks[other]
        if seen.shape != track.shape or seen.listing != track.listing:
            raise ExchangeError(
                f"side {sides[other].label}: its models are allocated differently against side "
                f"{side.label}'s shooting while engaged than against its other activation"
            )
        made[key] = sel
    return made, refused


def _later_turn(sel: Selection, charged: bool) -> Selection:
    """The charging side's fight activation ``sel`` in a later turn (``charged`` False): the
    unit is already engaged and made no Charge move; an ``--effect`` that needs the charge
    does not apply there (left out with a note, :func:`unmet_notes`), not refused."""
    return replace(sel, conditions=replace(sel.conditions, charged=charged), skip_unmet=True)


def activation_notes(notes: list[str], unmet: tuple[tuple[str, str], ...]) -> list[str]:
    """The notes of one activation's Result as the exchange says them: without the "no
    effect" note of ``--charged`` (``rules.idle``'s, an :class:`~wh40k_calc.notes.OptionNote`:
    in an exchange the charge also decides whose turn comes first and gives Fights First,
    whatever the weapons), with :func:`unmet_notes`."""
    from ..notes import OptionNote

    kept = [n for n in notes if not (isinstance(n, OptionNote) and n.option == "--charged")]
    return kept + unmet_notes(unmet)


def unmet_notes(unmet: tuple[tuple[str, str], ...]) -> list[str]:
    """The notes of the ``--effect`` names an activation left out (``Plan.unmet``: their
    conditions are not met in this turn or by the models left), each as ``(name, why)``:
    the charge is made once, in the charging side's first turn, and an effect of a unit with
    fewer models or wounds may no longer apply; neither is a refusal."""
    out: list[str] = []
    for text, why in unmet:
        charge = why.endswith("(add --charged)")
        why = re.sub(r" \((add|with) --[a-z0-9-]+\)$", "", why)
        if charge:
            why += " (the charge is made once, in the charging side's first turn)"
        out.append(OptionNote("--effect", f"{text}: no effect: {why}", " "))
    return out


def missing_notes(
    a: Side,
    b: Side,
    order: list[Planned],
    every: list[Planned] | None = None,
    refused: dict[str, str] | None = None,
    edition: str = "10",
) -> tuple[str, ...]:
    """What the exchange says of the activations a side lacks or never makes, or makes
    otherwise than written: a side with no fight activation where the other fights does not
    fight back in the Fight phase (only its ``fight`` text gives it melee attacks); a shoot
    activation that the units' being engaged from the charge on leaves unmade, with the
    rules' reason (``every``: the activations were every shooting while engaged allowed;
    ``refused``: why a side cannot shoot while engaged, by side); ``--advanced`` with the
    charge in the same turn; the conditions left out of a shooting while engaged
    (:data:`~.order.NOT_WHILE_ENGAGED` of ``edition``)."""
    out = []
    refused = refused or {}
    fighting = [s for s in (a, b) if s.step("fight") is not None]
    for s in (a, b):
        if fighting and s.step("fight") is None:
            out.append(
                f"side {s.label} has no fight activation: it makes no attacks in the Fight "
                f'phase (a --side-{s.key} "fight UNIT ..." gives it one)'
            )
    made = {(p.side, p.step.phase) for p in order}
    wanted = {p.side for p in (every if every is not None else order) if p.engaged}
    for s in (a, b):
        if not fighting or s.step("shooting") is None:
            continue
        why = refused.get(s.key)
        if (s.key, "shooting") not in made:
            reason = (
                f"; in its turns after the charge it cannot shoot while engaged: {why}"
                if why and s.key in wanted
                else ""
            )
            out.append(
                f"side {s.label}'s shoot activation is not made: the units are engaged from "
                f"the charge on, so it has no Shooting phase before it{reason}"
            )
        elif why and s.key in wanted:
            out.append(
                f"side {s.label}'s shoot activation is made before the charge only: in its "
                f"turns after it, engaged, it cannot shoot: {why}"
            )
    for s in (a, b):
        shot, fight = s.step("shooting"), s.step("fight")
        if shot is None:
            continue
        cond = shot.request.conditions
        if cond.advanced and fight is not None and fight.charged:
            out.append(
                f"side {s.label} Advanced (--advanced) and charges in the same turn: a unit "
                "that Advanced is not eligible to declare a charge unless a rule lets it (Core "
                "rules, Advance Moves; edition 11: 09.06); the exchange takes it that one does"
            )
        dropped = [
            (f"--{name}", why)
            for name, why in NOT_WHILE_ENGAGED.get(edition, ())
            if name != "charged" and getattr(cond, name)
        ]
        if dropped and any(p.engaged and p.side == s.key for p in order):
            out.append(
                f"side {s.label}'s shooting while engaged is made without "
                f"{', '.join(f for f, _ in dropped)}: {'; '.join(w for _, w in dropped)}"
            )
    return tuple(out)


def _fights_first(rules, by_text: dict[tuple[str, str], Selection]):
    """``given_by`` for :func:`~.order.planned`: the effects that give a fight activation's
    unit Fights First (``Plan.fights_first``), read from its Selection as made that turn (with
    or without the charge), each once."""
    from ..selection import SelectionError

    seen: dict[tuple[str, bool], tuple[tuple[str, ...], bool]] = {}

    def given_by(step) -> tuple[tuple[str, ...], bool]:
        key = (step.side, step.charged)
        if key not in seen:
            sel = by_text[(step.side, "fight")]
            if sel.conditions.charged != step.charged:
                sel = _later_turn(sel, step.charged)
            try:
                plan = rules.plan(sel)
                seen[key] = (plan.fights_first, plan.fights_first_by_state)
            except (SelectionError, LookupError, ValueError):
                seen[key] = ((), False)  # refused as the activation is, when it is resolved
        return seen[key]

    return given_by


def fights_first_notes(
    order: list[Planned], edition: str, fight_first: str | None = None
) -> tuple[str, ...]:
    """What the exchange says of the Fight phases' order: which side has Fights First from
    which effects at full strength, which Fight phases are ordered per state, and who fights
    first in those where both sides or neither have it (at full strength): the tie's lead of
    ``edition`` (:func:`~.order.tie_lead`) or ``fight_first`` (``--fight-first``)."""
    from ..rules.activation import fights_first_sources

    out: dict[str, None] = {}
    phases: dict[int, list[Planned]] = {}
    for p in order:
        if p.step.phase == "fight":
            phases.setdefault(p.turn, []).append(p)
    ties = [
        t for t, ps in phases.items() if len(ps) == 2 and ps[0].fights_first == ps[1].fights_first
    ]
    if ties:
        plural = "s" if len(ties) > 1 else ""
        where = f"the Fight phase{plural} of turn{plural} {', '.join(map(str, ties))}"
        if fight_first is not None:
            out[
                f"{where}: both sides or neither have Fights First; side "
                f"{fight_first.upper()} fights first (--fight-first)"
            ] = None
        else:
            who = "is" if tie_lead("a", edition) == "a" else "is not"
            rule = (
                "12.04 Fight Step" if edition == "11" else "10th edition: Core rules, Fight phase"
            )
            out[
                f"{where}: both sides or neither have Fights First, so the side whose turn "
                f"it {who} fights first ({rule}); --fight-first a|b picks the side"
            ] = None
    for p in order:
        if p.fights_first_by:
            by = fights_first_sources(p.fights_first_by)
            out[f"side {p.side.upper()} has Fights First ({by}) at full strength"] = None
    turns = sorted({p.turn for p in order if p.order_by_state})
    if turns:
        out[
            "a Fights First condition reads a unit's state: the order of the Fight phase of "
            f"turn {', '.join(map(str, turns))} is decided per state of both units at its "
            "start (its activations listed in the order of full strength, each with its "
            "figures over both orders)"
        ] = None
    return tuple(out)


def _fight_first_idle(
    a: Side,
    b: Side,
    turns: int,
    first: str | None,
    fight_first: str | None,
    order: list[Planned],
    given_by,
    edition: str,
    engaged_ok=None,
) -> tuple[str, ...]:
    """The "no effect" note of a ``--fight-first`` that changes no Fight phase's order: fewer
    than two sides fight, or one side has Fights First (its charge, or an effect) in every
    Fight phase there is. None where a phase is ordered per state (the pick may count there)."""
    if fight_first is None or any(p.order_by_state for p in order):
        return ()
    other = "b" if fight_first == "a" else "a"
    if (
        planned(a, b, turns, first, other, given_by, edition=edition, engaged_ok=engaged_ok)
        != order
    ):
        return ()
    fighting = [s for s in (a, b) if s.step("fight") is not None]
    if len(fighting) < 2:
        why = "no side fights" if not fighting else f"only side {fighting[0].label} fights"
    else:
        why = "one side has Fights First (its charge or an effect) in every Fight phase"
    return (OptionNote("--fight-first", f"{fight_first}: no effect: {why}", " "),)

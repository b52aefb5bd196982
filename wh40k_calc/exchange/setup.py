"""An exchange made ready to run: both sides, each unit's track, every activation in order with
its Selection, and each unit's state at the start.

The Selection of an activation is built with every model of both units (``calc shoot``'s
options, against the other side's unit as described by that side); an attack class then
replaces the models alive (``Selection.attacker_alive``) and the damaged bracket
(``attacker_wounds_left``), and the carried state replaces the target's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..profile import TargetStates
from ..records import replace
from .order import Planned, planned
from .sides import Side, step_selection
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
    notes: tuple[str, ...] = ()  # options that change nothing here, said in the output

    def selection(self, k: int, cls: AttackClass) -> Selection:
        """Step ``k``'s (0-based) Selection made by the models of ``cls``."""
        sel = self.selections[k]
        full = tuple(g.count for g in self.tracks[self.steps[k].side].unit.groups)
        if cls.alive == full and cls.wounds_left is None:
            return sel
        return replace(sel, attacker_alive=cls.alive, attacker_wounds_left=cls.wounds_left)

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
                raise SideError(side.key, step.text, str(exc)) from None
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
    order = planned(a, b, turns, first, fight_first)
    notes = _fight_first_idle(a, b, turns, first, fight_first, order)
    selections = []
    for p in order:
        sel = by_text[(p.side, p.step.phase)]
        if p.step.charged != sel.conditions.charged:  # a later turn: not charging any more
            sel = replace(sel, conditions=replace(sel.conditions, charged=p.step.charged))
        selections.append(sel)
    return Setup(
        sides, tracks, tuple(order), tuple(selections), initial, engine.edition_value, turns,
        notes,
    )  # fmt: skip


def _fight_first_idle(
    a: Side, b: Side, turns: int, first: str | None, fight_first: str | None, order: list
) -> tuple[str, ...]:
    """The "no effect" note of a ``--fight-first`` that changes no Fight phase's order: fewer
    than two sides fight, or a charging unit fights first in every Fight phase there is."""
    if fight_first is None:
        return ()
    other = "b" if fight_first == "a" else "a"
    if planned(a, b, turns, first, other) != order:
        return ()
    fighting = [s for s in (a, b) if s.step("fight") is not None]
    if len(fighting) < 2:
        why = "no side fights" if not fighting else f"only side {fighting[0].label} fights"
    else:
        why = "the charging unit fights first in every Fight phase of the exchange"
    return (f"--fight-first {fight_first}: no effect: {why}",)

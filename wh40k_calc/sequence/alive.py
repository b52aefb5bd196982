"""A step acts only where the target is still alive when it begins (exact engine).

Destroyed units cannot be selected or targeted (edition 11, 05.04.04 Destroyed; in 10th
edition a destroyed unit is removed from the battlefield, and Hazardous tests are taken only for
weapons that targets were selected for). The target's state before a step is a distribution
over :class:`~wh40k_calc.profile.TargetStates`; the one state with every model destroyed is the
mass the step cannot act on. So a step is resolved from the start distribution conditioned on
"not destroyed", and its result is mixed with the destroyed mass:

* the step's own figures (attacks, hits, wounds, failed saves, mortal wounds, damage, the
  damage wasted, each weapon's, Hazardous losses) are P(alive) times the conditional ones,
  and its damage distribution puts the destroyed mass at 0;
* the state after the step (and everything counted from the unharmed unit: models destroyed,
  wounds lost, Leaders destroyed) is P(alive) times the conditional one plus the destroyed mass
  left where it was.

The sampler's counterpart (trials whose target is destroyed skip the step) is
:mod:`wh40k_calc.sequence.pooled`. Nothing here is in the engines: they resolve the
conditional start as any other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.outcome import LOSS_FIELDS, WEAPON_FIELDS, Outcome, WeaponResult
from ..profile import Activation, TargetStates
from ..records import replace


def destroyed(states: TargetStates) -> np.ndarray:
    """Per state (row), whether every model of the unit is destroyed (bool array)."""
    models = sum(g.models for g in states.shape)
    return states.models_destroyed >= models


@dataclass(frozen=True)
class Split:
    """A start distribution split at "destroyed": ``alive`` (renormalised; None when no state
    is alive), ``dead`` (the destroyed states, renormalised; None when there are none) and
    ``p_alive``, the mass of the alive states."""

    alive: TargetStates | None
    dead: TargetStates | None
    p_alive: float


def split(states: TargetStates | None) -> Split:
    """``states`` (a distribution, or None: the selection's own start, alive) split at
    "destroyed"."""
    if states is None:
        return Split(None, None, 1.0)
    assert states.weights is not None, "a distribution, not one state per trial"
    dead = destroyed(states)
    w = np.asarray(states.weights, dtype=float)
    p_dead = float(w[dead].sum())
    p_alive = float(w[~dead].sum())
    if p_dead <= 0.0:
        return Split(states, None, 1.0)
    total = p_dead + p_alive

    def part(mask: np.ndarray, mass: float) -> TargetStates | None:
        if mass <= 0.0:
            return None
        return TargetStates(states.shape, states.lost[mask], w[mask] / mass)

    return Split(part(~dead, p_alive), part(dead, p_dead), p_alive / total)


def _delta(length: int, at: int) -> np.ndarray:
    out = np.zeros(max(length, at + 1))
    out[at] = 1.0
    return out


def _blend(p: float, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``p * a + (1 - p) * b``, the shorter padded with zeros."""
    n = max(len(a), len(b))
    out = np.zeros(n)
    out[: len(a)] += p * np.asarray(a, dtype=float)
    out[: len(b)] += (1.0 - p) * np.asarray(b, dtype=float)
    return out


def mix(o: Outcome, p_alive: float, dead: TargetStates) -> Outcome:
    """The exact outcome of a step from a start with destroyed mass ``1 - p_alive``: ``o`` is
    the step resolved from the alive states, ``dead`` the destroyed state(s). The step's own
    figures are scaled by ``p_alive``; the figures counted from the unharmed unit and the final
    state mix in the destroyed mass unchanged."""
    p = p_alive
    n = len(o.models_destroyed_distribution) - 1
    lost = int(dead.wounds_lost[0])
    damage = o.__dict__["_damage"]

    def damage_mixed() -> np.ndarray:  # lazy, as the engine's own
        inner = damage() if callable(damage) else damage
        return _blend(p, inner, _delta(1, 0))

    expected = {f: p * o.expected[f] for f in WEAPON_FIELDS}
    expected["models_destroyed"] = p * o.expected["models_destroyed"] + (1 - p) * n
    expected["wounds_lost"] = p * o.expected["wounds_lost"] + (1 - p) * lost
    assert o.final_states is not None
    return replace(
        o,
        weapons=[
            replace(
                w,
                expected={f: p * w.expected[f] for f in WEAPON_FIELDS},
                wasted={f: p * x for f, x in w.wasted.items()},
            )
            for w in o.weapons
        ],
        expected=expected,
        models_destroyed_distribution=_blend(p, o.models_destroyed_distribution, _delta(n + 1, n)),
        wounds_lost_distribution=_blend(
            p, o.wounds_lost_distribution, _delta(len(o.wounds_lost_distribution), lost)
        ),
        damage_distribution=damage_mixed,
        characters_destroyed=[p * c + (1 - p) for c in o.characters_destroyed],
        attacker_losses={k: p * o.attacker_losses[k] for k in LOSS_FIELDS},
        final_states=_final(o.final_states, p, dead),
    )


def unmade(act: Activation, dead: TargetStates) -> Outcome:
    """The exact outcome of a step never made (the target is destroyed before it in every
    case): every figure of its own 0, the destroyed state left as it was."""
    n = act.target.models
    lost = int(dead.wounds_lost[0])
    expected = dict.fromkeys(WEAPON_FIELDS, 0.0)
    expected.update(models_destroyed=float(n), wounds_lost=float(lost))
    return Outcome(
        method="exact",
        weapons=silent_rows(act),
        expected=expected,
        models_destroyed_distribution=_delta(n + 1, n),
        damage_distribution=_delta(1, 0),
        wounds_lost_distribution=_delta(act.target.wounds + 1, lost),
        characters_destroyed=[1.0] * len(act.target.characters),
        attacker_losses=dict.fromkeys(LOSS_FIELDS, 0.0),
        final_states=dead,
        policy=act.policy,
    )


def silent_rows(act: Activation) -> list[WeaponResult]:
    """The rows of ``act``'s outcome (its mortal-wound sources, then its weapons) with every
    figure 0."""
    rows = [WeaponResult.mortal_source(src.name, 0.0, 0.0) for src in act.before]
    rows += [WeaponResult(w.name, w.models, dict.fromkeys(WEAPON_FIELDS, 0.0)) for w in act.weapons]
    return rows


def _final(alive: TargetStates, p: float, dead: TargetStates) -> TargetStates:
    dw = np.asarray(dead.weights, dtype=float) * (1 - p)
    aw = np.asarray(alive.weights, dtype=float) * p
    return TargetStates(
        dead.shape, np.concatenate([alive.lost, dead.lost]), np.concatenate([aw, dw])
    )

"""What an engine returns: expectations, distributions and the kill table, for one activation.

Both engines return an :class:`Outcome` of the same shape; the sampler also fills the standard
errors. Units: counts of attacks, hits, wounds, saves, wounds lost and models; probabilities in
[0, 1]; every expectation is a mean per activation.

An Outcome is made once and frozen: a changed figure is a new Outcome
(:meth:`Outcome.replaced`). Its damage distribution may be given as a function, called when
the distribution is first read and kept (the exact engine's figure pass costs more than the
rest, and most uses never read it); that first read is the only change an Outcome sees.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import numpy as np
from msgspec import Struct

from ..profile import OrderPolicy, TargetStates
from ..records import replace

WEAPON_FIELDS = ("attacks", "hits", "wounds", "failed_saves", "mortal_wounds", "damage")
TOTAL_FIELDS = (*WEAPON_FIELDS, "wounds_lost", "models_destroyed")
LOSS_FIELDS = ("hazard_mortal_wounds", "models_destroyed", "at_least_one")
# damage points wasted (expectations per activation): through Feel No Pain but beyond the wounds
# the model had left (excess damage, lost: no spill-over), ignored by Feel No Pain, and through
# Feel No Pain with no model left to take them (the unit destroyed: the rest of the mortal
# wounds, and the damage of failed saves the figure still counts); see Kernel.figures
WASTE_FIELDS = ("beyond_wounds_left", "feel_no_pain", "after_destruction")


class WeaponResult(Struct):
    """Expected figures of one weapon profile (or one source of mortal wounds).

    ``expected`` maps each of WEAPON_FIELDS to its mean; ``standard_error`` (sampler only) the
    standard error of each mean. ``wasted`` maps each of WASTE_FIELDS to the expected damage
    points the profile wastes so (empty: not counted, e.g. a step never made), ``wasted_se``
    (sampler only) their standard errors. ``damage`` less the wasted points other than Feel
    No Pain's is the wounds the profile removes.
    """

    name: str
    count: int
    expected: dict[str, float]
    standard_error: dict[str, float] = msgspec.field(default_factory=dict)
    wasted: dict[str, float] = msgspec.field(default_factory=dict)
    wasted_se: dict[str, float] = msgspec.field(default_factory=dict)

    @classmethod
    def mortal_source(
        cls, name: str, mortal_wounds: float, damage: float, se: dict[str, float] | None = None
    ) -> WeaponResult:
        """The row of a source of mortal wounds outside the attack sequence (no attacks, hits,
        wounds or saves): its expected mortal wounds and damage."""
        figures = dict.fromkeys(WEAPON_FIELDS, 0.0)
        figures.update(mortal_wounds=mortal_wounds, damage=damage)
        return cls(name, 0, figures, se or {})


@dataclass(frozen=True, eq=False)  # by identity: arrays and lists have no equality of value
class Outcome:
    """One activation's result (frozen: :meth:`replaced` makes a changed copy).

    Attributes:
        method: "exact" or "sample".
        weapons: per weapon profile, in resolution order (mortal-wound sources included).
        expected: totals: each of TOTAL_FIELDS.
        models_destroyed_distribution: P(exactly k target models destroyed), k = 0..models.
        damage_distribution: P(exactly d damage points), as defined in DATASHEET_FORMAT.md.
            An engine may give a zero-argument function instead: it is called when the
            distribution is first read (the exact engine's figure pass costs more than the
            rest, and most uses never read it).
        wounds_lost_distribution: P(exactly w wounds removed from the target).
        characters_destroyed: per CHARACTER model of an Attached target, P(it is destroyed).
        attacker_losses: each of LOSS_FIELDS (Hazardous).
        trials, seed, dice_drawn: sampler only (dice_drawn counts every integer drawn).
        standard_error: sampler only: {"expected": {...}, "kill_table": [...],
            "attacker_losses": {...}, "characters_destroyed": [...], "wasted": {...}}.
        policy: the defender's allocation orders used (edition 11 best order), else None.
        final_states: the target's state after the activation (exact: its distribution;
            sampler: one row per trial, when asked for).
    """

    method: str
    weapons: list[WeaponResult]
    expected: dict[str, float]
    models_destroyed_distribution: np.ndarray
    damage_distribution: np.ndarray
    wounds_lost_distribution: np.ndarray
    characters_destroyed: list[float]
    attacker_losses: dict[str, float]
    trials: int = 0
    seed: int | None = None
    standard_error: dict = field(default_factory=dict)
    dice_drawn: int = 0
    policy: OrderPolicy | None = None
    final_states: TargetStates | None = None

    def replaced(self, **changes) -> Outcome:
        """A copy with ``changes`` (as :func:`dataclasses.replace`), the damage distribution
        kept as it is unless changed: a function not yet called stays uncalled. Without
        changes, a shallow copy of the fields as they are (what ``replace`` would make, made
        without running ``__init__``: a batch copies each kept exact outcome it hands out)."""
        if not changes:
            out = object.__new__(Outcome)
            out.__dict__.update(self.__dict__)
            return out
        changes.setdefault("damage_distribution", self.__dict__["_damage"])
        return replace(self, **changes)

    def since(self, start: TargetStates | None) -> Outcome:
        """This outcome with the models destroyed and wounds lost counted from ``start`` when
        it is one state (e.g. ``--target-wounds-left``: the wounds the model had already lost
        are not this activation's). The engines count from the unharmed unit, so that states
        carried across activations add up; a start with several states is left so (the
        per-activation figures are then differences of expectations)."""
        if start is None or len(start.lost) != 1:
            return self
        dead = int(start.models_destroyed[0])
        lost = int(start.wounds_lost[0])
        md = self.models_destroyed_distribution[dead:]
        wl = self.wounds_lost_distribution[lost:]
        expected = dict(self.expected)
        expected["models_destroyed"] -= dead
        expected["wounds_lost"] -= lost
        return self.replaced(
            models_destroyed_distribution=np.concatenate([md, np.zeros(dead)]),
            wounds_lost_distribution=np.concatenate([wl, np.zeros(lost)]),
            expected=expected,
        )

    @property
    def wasted(self) -> dict[str, float]:
        """Each of WASTE_FIELDS summed over the rows; empty when no row counts them (an
        outcome put together without them, e.g. a sampled sequence's pooled steps)."""
        if not any(w.wasted for w in self.weapons):
            return {}
        return {k: float(sum(w.wasted.get(k, 0.0) for w in self.weapons)) for k in WASTE_FIELDS}

    @property
    def kill_table(self) -> np.ndarray:
        """P(at least k models destroyed) for k = 1..models (index k-1)."""
        dist = self.models_destroyed_distribution
        tail = dist[::-1].cumsum()[::-1]
        return np.minimum(np.maximum(tail[1:], 0.0), 1.0)  # np.clip's, without its wrapper

    def p_some_left(self, models: int) -> float:
        """P(a model of the ``models`` the target has is left): the states short of every
        model destroyed, summed (positive wherever the unit may survive, though P(all
        destroyed) is 1.0 in floating point)."""
        return float(self.models_destroyed_distribution[:models].sum())

    @property
    def short_of_table(self) -> np.ndarray:
        """P(fewer than k models destroyed) for k = 1..models (index k-1): the kill table's
        complements, summed from the small side (positive wherever fewer can happen, though
        P(at least k) is 1.0 in floating point)."""
        return np.cumsum(self.models_destroyed_distribution)[:-1]


def _damage_get(self: Outcome) -> np.ndarray:
    """The damage distribution, computed on first read when it was given as a function (and
    kept: the frozen Outcome's one memo)."""
    value = self.__dict__["_damage"]
    if callable(value):
        value = self.__dict__["_damage"] = value()
    return value


def _damage_set(self: Outcome, value) -> None:
    """Only the dataclass's own ``__init__`` reaches this (``object.__setattr__``); assigning
    to a made Outcome raises ``FrozenInstanceError`` before it."""
    self.__dict__["_damage"] = value


Outcome.damage_distribution = property(_damage_get, _damage_set)  # type: ignore[assignment]

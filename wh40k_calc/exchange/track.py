"""A unit of the exchange as the other side attacks it, and what each of its states leaves it
to attack with.

A unit's state is a row of :class:`~wh40k_calc.profile.TargetStates`: the wounds each of its
allocation groups has lost (the models of a group are destroyed in the group's listing order,
the next one carries the rest). That is the order the defender removes them in (the allocation
order: wounded model first, then the listing, CHARACTER models of an Attached unit last; in
edition 11 its declared order of groups), so a state says exactly which models are left: per
group of the unit as built (``Unit.groups``, each a model type with its weapons, a Leader's
model), how many are alive, and which one is wounded and by how much.

What changes the unit's attacks is its **attack class**: the models alive in each group (so a
Leader alive or not), and for a unit of one model with a damaged profile, whether that model
is in its damaged bracket (Core rules, datasheets: "While this model has 1-N wounds
remaining"). Every state of one class attacks alike, so an activation is resolved once per
class (:mod:`wh40k_calc.exchange.exact`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..profile import TargetProfile, TargetStates, allocation_groups, group_shape
from ..units import Unit


@dataclass(frozen=True)
class AttackClass:
    """What one state leaves the unit to attack with: ``alive[i]`` models of group ``i``
    (``Unit.groups``), and ``wounds_left``: for a lone model in its damaged bracket, the
    wounds it attacks at (the bracket's top: every value in it attacks alike), else None."""

    alive: tuple[int, ...]
    wounds_left: int | None = None

    @property
    def models(self) -> int:
        """Models alive."""
        return sum(self.alive)


@dataclass(frozen=True)
class Track:
    """One unit as the exchange carries it.

    Attributes:
        unit: the unit as built (every model).
        profile: the unit as a target (its allocation listing and groups).
        listing: per model of ``profile`` (Bodyguard, then CHARACTER models), the index of its
            group in ``unit.groups``.
        damaged: the wounds remaining at or below which the unit's datasheet's damaged profile
            applies, when the unit is one model of a datasheet with one (None otherwise).
    """

    unit: Unit
    profile: TargetProfile
    listing: tuple[int, ...]
    damaged: int | None = None

    @cached_property
    def shape(self):
        """The key of the unit's states (``TargetStates.shape``)."""
        return group_shape(self.profile)

    @cached_property
    def _groups(self):
        return allocation_groups(self.profile)

    @property
    def models(self) -> int:
        """Models in the unit."""
        return self.profile.models

    @property
    def wounds(self) -> int:
        """Wounds of the unit."""
        return self.profile.wounds

    def unharmed(self) -> TargetStates:
        """The unit with every model and wound (one state, weight 1)."""
        return TargetStates(self.shape, np.zeros((1, len(self.shape)), dtype=np.int64), np.ones(1))

    def wounded(self, wounds_left: int) -> TargetStates:
        """The unit with its first model in allocation order left ``wounds_left`` wounds.

        Raises:
            ValueError: that model has W1, or ``wounds_left`` is not 1 .. W - 1 of it.
        """
        first = self._groups[0]
        if first.W == 1:
            raise ValueError(
                f"--wounds-left {wounds_left}: {first.name}, the model allocated first, has W1 "
                "and cannot be left wounded"
            )
        if not 1 <= wounds_left < first.W:
            raise ValueError(
                f"--wounds-left {wounds_left}: {first.name}, the model allocated first, has "
                f"W{first.W}; give 1 to {first.W - 1} (fewer models: --models)"
            )
        return TargetStates.wounded_first(self.profile, wounds_left)

    def destroyed(self, lost: np.ndarray) -> np.ndarray:
        """Per state (row of ``lost``), whether every model is destroyed."""
        return self.models_left(lost) == 0

    def models_left(self, lost: np.ndarray) -> np.ndarray:
        """Models alive per state (row of ``lost``)."""
        ws = np.array([g.W for g in self.shape], dtype=np.int64)
        dead = (np.asarray(lost) // ws).sum(axis=1)
        return self.models - dead

    def attack_class(self, lost: np.ndarray) -> AttackClass:
        """The attack class of one state (a row of wounds lost per allocation group)."""
        alive = [g.count for g in self.unit.groups]
        wounded: tuple[int, int] | None = None  # (model index, wounds left)
        for group, value in zip(self._groups, lost.tolist(), strict=True):
            dead, rest = divmod(int(value), group.W)
            for i in range(group.start, group.start + min(dead, group.count)):
                alive[self.listing[i]] -= 1
            if rest and dead < group.count:
                i = group.start + dead
                model = (*self.profile.bodyguard, *self.profile.characters)[i]
                wounded = (i, model.W - rest)
        wounds_left = None
        if self.damaged is not None and sum(alive) == 1:
            left = wounded[1] if wounded is not None else None
            if left is not None and left <= self.damaged:
                wounds_left = self.damaged
        return AttackClass(tuple(alive), wounds_left)

    def alive_counts(self, lost: np.ndarray) -> np.ndarray:
        """Models alive per group (``unit.groups``) in each state (states × groups)."""
        return np.array([self.attack_class(row).alive for row in np.asarray(lost)], dtype=float)

    def kinds(self) -> list[tuple[str, list[int]]]:
        """The unit's model kinds as the output names them (its groups' model names, each
        once, in the unit's order) and the groups of each."""
        out: dict[str, list[int]] = {}
        for i, g in enumerate(self.unit.groups):
            out.setdefault(g.profile.name, []).append(i)
        return list(out.items())

    def classes(self, lost: np.ndarray) -> tuple[list[AttackClass], np.ndarray]:
        """The distinct attack classes of the states ``lost`` (rows) in first-seen order, and
        per state the index of its class."""
        rows, inverse = distinct_rows(lost)
        found: dict[AttackClass, int] = {}
        of_row = np.empty(len(rows), dtype=np.int64)
        for k, row in enumerate(rows):
            c = self.attack_class(row)
            of_row[k] = found.setdefault(c, len(found))
        return list(found), of_row[inverse]


def distinct_rows(lost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``lost`` (states × groups, non-negative) and, per row, the index of
    its distinct row: each row read as the digits of one number (faster than sorting rows)."""
    lost = np.asarray(lost, dtype=np.int64).reshape(len(lost), -1)
    radix = lost.max(axis=0, initial=0) + 1
    if float(np.prod(radix.astype(float))) >= 2.0**62:
        rows, inverse = np.unique(lost, axis=0, return_inverse=True)
        return rows, np.asarray(inverse).reshape(-1)
    place = np.cumprod(np.concatenate([radix[1:], [1]])[::-1])[::-1]
    _, first, inverse = np.unique(lost @ place, return_index=True, return_inverse=True)
    return lost[first], np.asarray(inverse).reshape(-1)


def track_of(unit: Unit, profile: TargetProfile, listing: tuple[int, ...]) -> Track:
    """The :class:`Track` of ``unit`` attacked as ``profile`` (``Plan.target`` and
    ``Plan.target_groups`` of an activation against it)."""
    damaged = None
    if unit.models == 1 and not unit.is_attached:
        sheet = unit.datasheets[0].damaged
        damaged = sheet.wounds_left if sheet is not None else None
    return Track(unit, profile, listing, damaged)

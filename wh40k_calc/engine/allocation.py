"""The target's state and the allocation policy, shared by the exact engine and the sampler.

The target unit is one or two *tracks* of models in allocation order: the Bodyguard models (for
a unit that is not an Attached unit, all of its models) and the CHARACTER models of an Attached
unit. Because a model that has lost wounds always takes the next attack, and excess damage from
one attack is lost, the state of a track is fully described by the number of wounds its models
have lost so far: models ``0 .. k-1`` destroyed, model ``k`` with the rest. A unit state is the
pair (Bodyguard wounds lost, CHARACTER wounds lost), flattened to one integer.

Routing (Core rules: Allocating attacks; LEADER, file 000): an attack goes to the Bodyguard
track while a Bodyguard model remains, then to the CHARACTER track. A [PRECISION] attack goes to
the CHARACTER track while a CHARACTER model remains, then to the Bodyguard track. Mortal wounds
are allocated like an attack, one at a time.

Every function here is vectorised over numpy arrays of states, so the sampler calls them on
arrays of trials and the exact engine on the array of all states: one policy, two engines.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..profile import TargetModel, TargetProfile

NORMAL, PRECISION = 0, 1


@dataclass(frozen=True)
class _Track:
    models: tuple[TargetModel, ...]
    cum: np.ndarray  # cum[k] = wounds of models 0..k-1; cum[-1] = total

    @classmethod
    def of(cls, models: tuple[TargetModel, ...]) -> _Track:
        cum = np.concatenate([[0], np.cumsum([m.W for m in models])]).astype(np.int64)
        return cls(models, cum)

    @property
    def total(self) -> int:
        return int(self.cum[-1])

    def locate(self, lost: np.ndarray) -> np.ndarray:
        """Index of the model currently taking damage for each 'wounds lost' value (len(models)
        once all are destroyed)."""
        return np.searchsorted(self.cum[1:], lost, side="right")


class AllocationSpace:
    """All states of one target unit, with vectorised routing and damage application.

    Args:
        target: the target unit's allocation tracks.

    Attributes:
        size: number of states (state 0: no wounds lost; ``size - 1``: unit destroyed).
    """

    def __init__(self, target: TargetProfile):
        self.target = target
        self.bg = _Track.of(target.bodyguard)
        self.ch = _Track.of(target.characters)
        self.ch_span = self.ch.total + 1
        self.size = (self.bg.total + 1) * self.ch_span
        states = np.arange(self.size)
        self.bg_lost = states // self.ch_span
        self.ch_lost = states % self.ch_span
        bg_k = self.bg.locate(self.bg_lost)
        ch_k = self.ch.locate(self.ch_lost)
        self.bg_destroyed = bg_k
        self.ch_destroyed = ch_k
        self.destroyed = bg_k + ch_k
        self.wounds_lost = self.bg_lost + self.ch_lost
        bg_alive = self.bg_lost < self.bg.total
        ch_alive = self.ch_lost < self.ch.total
        alive = target.models - self.destroyed

        def kinds_of(models: tuple[TargetModel, ...], k: np.ndarray) -> np.ndarray:
            """Kind of model ``k`` of a track (past the end: its last model, as the destroyed
            unit's kind for the damage figure), switched by ``kind_below`` on models alive."""
            idx = np.minimum(k, len(models) - 1)
            base = np.array([m.kind for m in models], dtype=np.int64)[idx]
            for i, m in enumerate(models):
                if m.kind_below is not None:
                    below = (idx == i) & (alive < m.kind_below[0])
                    base[below] = m.kind_below[1]
            return base

        last_track = target.characters or target.bodyguard
        wiped_kind = kinds_of(last_track, np.full(self.size, len(last_track)))

        def track_arrays(first_bg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            use_bg = first_bg
            use_ch = ~use_bg & ch_alive
            kind = wiped_kind.copy()
            left = np.zeros(self.size, dtype=np.int64)
            stride = np.zeros(self.size, dtype=np.int64)
            kind[use_bg] = kinds_of(target.bodyguard, bg_k)[use_bg]
            left[use_bg] = self.bg.cum[bg_k[use_bg] + 1] - self.bg_lost[use_bg]
            stride[use_bg] = self.ch_span
            if target.characters:
                kind[use_ch] = kinds_of(target.characters, ch_k)[use_ch]
                left[use_ch] = self.ch.cum[ch_k[use_ch] + 1] - self.ch_lost[use_ch]
                stride[use_ch] = 1
            return kind, left, stride

        normal = track_arrays(bg_alive)
        precise = track_arrays(bg_alive & ~ch_alive) if target.characters else normal
        # [routing][state]
        self.kind = np.stack([normal[0], precise[0]])
        self.left = np.stack([normal[1], precise[1]])
        self.stride = np.stack([normal[2], precise[2]])

    # ---- vectorised policy -------------------------------------------------------------------

    def apply(
        self, states: np.ndarray, damage: np.ndarray | int, routing: int = NORMAL
    ) -> np.ndarray:
        """States after ``damage`` points (after Feel No Pain) are inflicted by one attack on
        the model each state allocates it to; excess damage is lost (no spill-over).

        Args:
            states: int array of states.
            damage: int array (same shape) or int, points that get through.
            routing: NORMAL, or PRECISION for [PRECISION] attacks.
        """
        left = self.left[routing][states]
        return states + np.minimum(damage, left) * self.stride[routing][states]

    def kind_of(self, states: np.ndarray, routing: int = NORMAL) -> np.ndarray:
        """Model kind (index into ``AttackProfile.vs``) each state allocates the next attack to;
        for a destroyed unit, the kind of its last model."""
        return self.kind[routing][states]

    def wounds_left_of(self, states: np.ndarray, routing: int = NORMAL) -> np.ndarray:
        """Wounds left on the model each state allocates the next attack to (0: unit destroyed)."""
        return self.left[routing][states]

    # ---- reading states ------------------------------------------------------------------

    def characters_destroyed(self, states: np.ndarray) -> np.ndarray:
        """CHARACTER models of the Attached unit destroyed, per state."""
        return self.ch_destroyed[states]

    @property
    def wiped(self) -> int:
        """The state in which every model is destroyed."""
        return self.size - 1

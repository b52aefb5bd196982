"""The sampler's normal wounds from counts: tables of where failed saving throws leave the target.

Where a weapon's Damage is fixed against every model kind and no model has Feel No Pain, what
a failed save does depends only on the state it finds (the shared allocation policy,
:meth:`AllocationSpace.apply`: a wounded model first, excess damage lost; Core rules: Allocating
Attacks, Inflict Damage). So where ``j`` failed saves leave the target from any state is a table
built once by applying them one at a time (:class:`SaveJumps`), and a trial needs only to know
how many of its saves fail, and in what order they meet the models' saving throws:

* every model the weapon can reach has the same saving throw: the failed saves are one count
  of i.i.d. dice per trial (a binomial draw), then one table look-up;
* the saves differ (an attached Leader's invulnerable save, an edition-11 allocation group
  with another Sv), rolled one at a time (:class:`MixedSaves`): while the next model takes the
  same save, the rolls are i.i.d.; the table says after how many failed saves the save changes
  (``need``). A trial draws its failed saves among the rolls left against the current save;
  fewer than ``need`` and it is done; else the position of the ``need``-th failure among those
  rolls is drawn (given ``F`` failures among ``r`` exchangeable rolls, the saved rolls before
  the ``need``-th failure are beta-binomial, ``BetaBin(r - F, need, F + 1 - need)``), and the
  rolls after it are made afresh against the next save. One pass per change of save (a handful),
  never one per wound;
* the saves differ and are made together, lowest result first (edition 11, 05.04 Inflict
  Damage): the rolls are counted by result (one multinomial over the six results, re-rolls
  included, against the save current when they are rolled), then resolved result by result,
  1 to 6: the dice of one result fail while the current model's save fails on it, and the table
  says for how many failed saves in a row that holds (``runs``); the rest of that result are
  saved. Six passes, whatever the number of wounds.

Each stays a simulation of the dice (counts drawn with the probabilities of one die), never a
draw from the exact engine's distributions. The counts come from the caller's random source
(``dice``: ``counts(n, probs)`` and ``beta_binomial(n, a, b)``, see ``sample.py``).
"""

from __future__ import annotations

import numpy as np

from ..profile import SAVE_FAILED, AttackProfile, RollTable
from .allocation import AllocationSpace
from .arrays import distinct
from .counts import die_classes

NEVER = 1 << 40  # "the save never changes" (larger than any count of wounds)


class SaveJumps:
    """Normal wounds of one weapon resolved from counts, every model kind making the same
    saving throw (see the module docstring).

    ``jump[j * size + s]`` is the state ``j`` failed saves leave from state ``s`` and
    ``dealt[j * size + s]`` the damage they inflict (counted in full, as the damage figure
    is); past ``j = last`` the state no longer changes and each failed save adds ``rate[s]``."""

    MAX_ENTRIES = 1 << 21  # states x failed saves tabulated

    def __init__(
        self,
        space: AllocationSpace,
        w: AttackProfile,
        routing: int,
        damage: np.ndarray,
        order: int = 0,
    ):
        size = space.size
        state = np.arange(size)
        jumps, dealt = [state], [np.zeros(size, dtype=np.int64)]
        while True:
            hit = damage[space.kind_of(state, routing, order)]
            after = space.apply(state, hit, routing, order)
            if (after == state).all():
                break
            jumps.append(after)
            dealt.append(dealt[-1] + hit)
            state = after
        self.size, self.last = size, len(jumps) - 1
        self.jump = np.concatenate(jumps)
        self.dealt = np.concatenate(dealt)
        self.rate = damage[space.kind_of(state, routing, order)]
        self.fails = die_classes(w.vs[0].save, 2) if w.vs[0].save is not None else None

    @staticmethod
    def fixed_damage(
        space: AllocationSpace, w: AttackProfile, kinds: list[int] | None = None
    ) -> np.ndarray | None:
        """The fixed Damage per model kind when none of ``kinds`` (default: every kind) has
        Feel No Pain or a random Damage and the table fits :attr:`MAX_ENTRIES`; None
        otherwise (the other kinds' entries are 0)."""
        damage = [0] * len(w.vs)
        for k in range(len(w.vs)) if kinds is None else kinds:
            v = w.vs[k]
            values = {f for f, p in zip(v.damage.final, v.damage.probs, strict=True) if p > 0}
            if v.fnp > 0 or len(values) != 1:
                return None
            damage[k] = values.pop()
        bound = int(space.target.wounds) + 2  # each failed save changes a wound
        if space.size * bound > SaveJumps.MAX_ENTRIES:
            return None
        return np.array(damage, dtype=np.int64)

    @staticmethod
    def damage_of(space: AllocationSpace, w: AttackProfile) -> np.ndarray | None:
        """:meth:`fixed_damage` when every model kind also has the same saving throw; None
        otherwise."""
        if any(v.save != w.vs[0].save for v in w.vs):
            return None
        return SaveJumps.fixed_damage(space, w)

    @classmethod
    def of(
        cls, space: AllocationSpace, w: AttackProfile, routing: int, order: int = 0
    ) -> SaveJumps | None:
        """The table for ``w``'s normal wounds in allocation order ``order``, or None (see
        :meth:`damage_of`)."""
        damage = cls.damage_of(space, w)
        return None if damage is None else cls(space, w, routing, damage, order)

    def move(self, states: np.ndarray, failed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the states, the damage) ``failed`` failed saves from ``states`` lead to."""
        if int(failed.max(initial=0)) <= self.last:
            at = failed * self.size + states
            return self.jump[at], self.dealt[at]
        j = np.minimum(failed, self.last)
        at = j * self.size + states
        return self.jump[at], self.dealt[at] + (failed - j) * self.rate[states]

    def inflict(
        self,
        dice,
        states: np.ndarray,
        counts: np.ndarray,
        figure: np.ndarray,
        failed: np.ndarray,
    ) -> np.ndarray:
        """Each trial's ``counts`` normal wounds: failed saves drawn as one count, then the
        table; tallies failed saves and damage; returns the new states."""
        lost = counts if self.fails is None else dice.counts(counts, self.fails)[SAVE_FAILED]
        return self.apply(states, lost, figure, failed)

    def apply(
        self, states: np.ndarray, lost: np.ndarray, figure: np.ndarray, failed: np.ndarray
    ) -> np.ndarray:
        """Each trial's ``lost`` failed saves (already drawn) from ``states``: tallies failed
        saves and damage; returns the new states."""
        failed += lost
        after, dealt = self.move(states, lost)
        figure += dealt
        return after


class MixedSaves(SaveJumps):
    """Normal wounds of one weapon resolved from counts where the models it can reach make
    different saving throws (see the module docstring; ``lowest_first``: edition 11's save
    rolls made together and resolved lowest first, 05.04).

    ``save_class[s]`` is the class (index into ``tables``) of the save the model taking the next
    wound in state ``s`` makes; ``need[s]`` the failed saves after which that class changes
    (:data:`NEVER`: it does not); ``runs[f, s]`` (lowest first) the failed saves in a row a
    result of ``f`` makes from ``s`` before a model saves on it (:data:`NEVER`: every one
    fails)."""

    def __init__(self, space, w, routing, damage, order=0, lowest_first=False) -> None:
        super().__init__(space, w, routing, damage, order)
        size = self.size
        kinds = space.kind_of(self.jump, routing, order).reshape(self.last + 1, size)
        tables: list[RollTable | None] = []
        of_kind = []
        for v in w.vs:
            if v.save not in tables:
                tables.append(v.save)
            of_kind.append(tables.index(v.save))
        along = np.asarray(of_kind, dtype=np.int64)[kinds]  # (failed saves so far, start)
        self.tables = tables
        self.save_class = along[0]
        self.fail_probs = [None if t is None else die_classes(t, 2) for t in tables]
        self.lowest_first = lowest_first
        if lowest_first:
            # face_fails[c, f]: a save of class c whose result stands at f fails
            face_fails = np.array(
                [[t is None or t.outcome[f] == SAVE_FAILED for f in range(7)] for t in tables]
            )
            self.face_probs = [
                np.full(6, 1 / 6) if t is None else t.face_probabilities()[1:] for t in tables
            ]
            saves = ~face_fails[along]  # (j, s, f)
            self.runs = np.where(saves.any(axis=0), saves.argmax(axis=0), NEVER).T
        else:
            change = along != along[0]
            self.need = np.where(change.any(axis=0), change.argmax(axis=0), NEVER)

    @staticmethod
    def damage_of(space: AllocationSpace, w: AttackProfile) -> np.ndarray | None:
        """:meth:`SaveJumps.fixed_damage` for the kinds the target's models can be (the saves
        may differ)."""
        return SaveJumps.fixed_damage(space, w, distinct(space.kind))

    @classmethod
    def of(
        cls,
        space: AllocationSpace,
        w: AttackProfile,
        routing: int,
        order: int = 0,
        lowest_first: bool = False,
    ) -> MixedSaves | None:
        """The tables for ``w``'s normal wounds in allocation order ``order``, or None (see
        :meth:`SaveJumps.fixed_damage`)."""
        damage = cls.damage_of(space, w)
        return None if damage is None else cls(space, w, routing, damage, order, lowest_first)

    def _by_class(self, dice, states, counts, probs) -> list[np.ndarray]:
        """Counts of ``counts`` dice per trial over the classes of ``probs[c]``, each trial
        drawn with the probabilities of its current save class ``c`` (rows: classes)."""
        classes = self.save_class[states]
        first = int(classes[0]) if classes.size else 0
        if (classes == first).all():
            c = dice.counts(counts, probs[first])
            return [c[j] for j in range(len(probs[first]))]
        out = [np.zeros(counts.size, dtype=np.int64) for _ in probs[first]]
        for k in sorted(set(classes.tolist())):
            sel = np.flatnonzero(classes == k)
            c = dice.counts(counts[sel], probs[k])
            for j in range(len(out)):
                out[j][sel] = c[j]
        return out

    def inflict(self, dice, states, counts, figure, failed):
        """Each trial's ``counts`` normal wounds (see the class docstring); tallies failed saves
        and damage; returns the new states."""
        if self.lowest_first:
            return self._lowest_first(dice, states, counts, figure, failed)
        states = states.copy()
        left = counts.astype(np.int64, copy=True)  # save rolls each trial has still to make
        act = np.flatnonzero(left > 0)
        # a model with no save: every roll fails
        probs = [np.array([1.0, 0.0]) if p is None else p for p in self.fail_probs]
        while act.size:
            st, r = states[act], left[act]
            fails = self._by_class(dice, st, r, probs)[SAVE_FAILED]
            need = self.need[st]
            cross = fails >= need
            j = np.where(cross, need, fails)
            states[act], dealt = self.move(st, j)
            figure[act] += dealt
            failed[act] += j
            left[act] = 0
            if not cross.any():
                break
            act, r, f, nd = act[cross], r[cross], fails[cross], need[cross]
            # the rolls up to the need-th failure; the rest are made against the next save
            used = nd + dice.beta_binomial(r - f, nd, f + 1 - nd)
            left[act] = r - used
            act = act[left[act] > 0]
        return states

    def _lowest_first(self, dice, states, counts, figure, failed):
        """05.04: the results counted (re-rolled against the save current when rolled), then
        resolved from 1 to 6."""
        by_face = self._by_class(dice, states, counts, self.face_probs)
        for f in range(1, 7):
            n = by_face[f - 1]
            if not n.any():
                continue
            j = np.minimum(n, self.runs[f, states])
            states, dealt = self.move(states, j)
            figure += dealt
            failed += j
        return states

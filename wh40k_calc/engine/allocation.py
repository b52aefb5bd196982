"""The target's state and the allocation policy, shared by the exact engine and the sampler.

A target unit is a list of *allocation groups* (edition 11, Save Rolls: Create Groups; in 10th
edition, runs of identical models): Bodyguard groups in listing order, then one group per
CHARACTER model of an Attached unit (or, in edition 11, of any unit). Because a model that has
lost wounds always takes the next attack, and excess damage from one attack is lost, the state
of a group is the number of wounds it has lost: its models ``0 .. k-1`` destroyed, model ``k``
with the rest. Two representations of the unit's state:

* **tracks** (one fixed order, the cheap and usual case): the Bodyguard groups in order form one
  track and the CHARACTER groups another; a state is (Bodyguard wounds lost, CHARACTER wounds
  lost), flattened to one integer. Only states reachable in that order exist.
* **groups** (several orders, or a start state no single order reaches): a state is the wounds
  lost by every group (a mixed-radix integer), so any legal order can act on it.

Routing (Core rules: Allocating attacks, LEADER; edition 11, 05.03 Allocation Order and 05.04.01
Current Allocation Group): an attack goes to a non-CHARACTER group while one remains — a group
with a wounded model first, then the others in the order declared — and then to the CHARACTER
groups (wounded first). A [PRECISION] attack goes to a CHARACTER group first (wounded first,
then in listing order: the attacker's pick), then as a normal attack. Mortal wounds are
allocated like an attack, one at a time (06.02 Mortal Wounds: wounded non-CHARACTER model
first, then non-CHARACTER, then CHARACTER).

Every function here is vectorised over numpy arrays of states, so the sampler calls them on
arrays of trials and the exact engine on the array of all states: one policy, two engines.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
from msgspec import Struct

from ..profile import (
    TargetModel,
    TargetProfile,
    TargetStates,
    allocation_groups,
    shape_of,
)
from .arrays import distinct

NORMAL, PRECISION = 0, 1
MAX_ORDERS = 48  # preference orders the defender's best order is chosen from

Order = tuple[int, ...]


def legal_orders(target: TargetProfile, limit: int = MAX_ORDERS) -> tuple[Order, ...]:
    """Preference orders 05.03 allows (no CHARACTER group before a non-CHARACTER group; a
    wounded group still goes first, see :class:`AllocationSpace`): every order of the
    non-CHARACTER groups, then every order of the CHARACTER groups; the listing order first;
    at most ``limit`` of them."""
    groups = allocation_groups(target)
    plain = [i for i, g in enumerate(groups) if not g.character]
    chars = [i for i, g in enumerate(groups) if g.character]
    out: list[Order] = []
    for a, b in itertools.product(itertools.permutations(plain), itertools.permutations(chars)):
        out.append((*a, *b))
        if len(out) >= limit:
            break
    return tuple(out)


def order_models(target: TargetProfile, order: Order) -> list[str]:
    """Model names in the allocation order ``order`` (for reports)."""
    models = (*target.bodyguard, *target.characters)
    groups = allocation_groups(target)
    return [models[groups[g].start + i].name for g in order for i in range(groups[g].count)]


class _Track(Struct, frozen=True):
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
        target: the target unit.
        orders: preference orders of its allocation groups the engines may use (index 0 is the
            default); None: the listing order only. With groups, ``orders`` then also holds the
            orders declared with a wounded group first (:meth:`declared`).
        product: represent states as wounds lost per group (needed for several orders or for a
            start state off the single order's track); default: only when ``orders`` has more
            than one order.

    Attributes:
        size: number of states (state 0: no wounds lost; ``wiped``: unit destroyed).
        destroyed, wounds_lost: per state, models destroyed and wounds lost.
        total_wounds: the unit's wounds (``target.wounds``); model_counts, wound_counts: 0, 1,
            ... up to its models and its wounds, as floats.
        character_dead: (CHARACTER models, states) bool: that CHARACTER model is destroyed.
        kind, left, stride: (orders, routings, states): the kind of the model the next attack
            goes to, its wounds left and the state step per point of damage.
    """

    def __init__(
        self,
        target: TargetProfile,
        orders: tuple[Order, ...] | None = None,
        product: bool | None = None,
    ):
        self.target = target
        self.groups = allocation_groups(target)
        self.shape = shape_of(self.groups)
        self.models = (*target.bodyguard, *target.characters)
        self.orders = orders or (tuple(range(len(self.groups))),)
        self.n_given = len(self.orders)  # orders[:n_given] are the ones asked for
        if product is None:
            # a [PRECISION] pick among several CHARACTER groups (edition 11: picked per weapon;
            # either edition: named by the player) needs the group representation
            chars = sum(g.character for g in self.groups)
            picks = target.precision_one_group or target.precision_pick is not None
            product = len(self.orders) > 1 or (picks and chars > 1)
        self.product = product
        if self.product:
            self._build_groups()
        else:
            if len(self.orders) != 1:
                raise ValueError("a track space has one allocation order")
            self._build_tracks()
        self.wiped = self.size - 1
        self.total_wounds = target.wounds
        # 0, 1, ... as floats: the counts the exact engine's expectations weigh (read only)
        self.model_counts = np.arange(target.models + 1, dtype=float)
        self.wound_counts = np.arange(self.total_wounds + 1, dtype=float)

    # ---- construction ------------------------------------------------------------------------

    def _kinds(self, model_idx: np.ndarray, alive: np.ndarray) -> np.ndarray:
        """Kind of model ``model_idx`` (listing index) per state, switched by ``kind_below``
        on the models alive."""
        if not hasattr(self, "_model_kinds"):  # the models' own kinds, and which switch
            self._model_kinds = np.array([m.kind for m in self.models], dtype=np.int64)
            self._switching = [
                (i, m.kinds_below) for i, m in enumerate(self.models) if m.kind_below
            ]
        base = self._model_kinds[model_idx]
        for i, pairs in self._switching:
            for below_n, other in pairs:  # N descending: the lowest bracket last
                below = (model_idx == i) & (alive < below_n)
                base[below] = other
        return base

    def _wiped_kind(self, alive: np.ndarray) -> np.ndarray:
        """The kind a destroyed unit reports for figures: its last listed model's."""
        return self._kinds(np.full(len(alive), len(self.models) - 1), alive)

    def _build_tracks(self) -> None:
        target = self.target
        self.declared_index = np.zeros((1, 1), dtype=np.int64)
        self.bg = _Track.of(target.bodyguard)
        self.ch = _Track.of(target.characters)
        self.ch_span = self.ch.total + 1
        self.size = (self.bg.total + 1) * self.ch_span
        states = np.arange(self.size)
        self.bg_lost = states // self.ch_span
        self.ch_lost = states % self.ch_span
        bg_k = self.bg.locate(self.bg_lost)
        ch_k = self.ch.locate(self.ch_lost)
        self.destroyed = bg_k + ch_k
        self.wounds_lost = self.bg_lost + self.ch_lost
        self.character_dead = np.array(
            [ch_k > i for i in range(len(target.characters))], dtype=bool
        ).reshape(len(target.characters), self.size)
        bg_alive = self.bg_lost < self.bg.total
        ch_alive = self.ch_lost < self.ch.total
        alive = target.models - self.destroyed
        nb = len(target.bodyguard)
        wiped_kind = self._wiped_kind(alive)

        # the model each track allocates to next, its kind and wounds left (for both routings)
        if nb:
            bg_kind = self._kinds(np.minimum(bg_k, nb - 1), alive)
            bg_left = self.bg.cum[np.minimum(bg_k + 1, nb)] - self.bg_lost
        if target.characters:
            ch_kind = self._kinds(nb + np.minimum(ch_k, len(target.characters) - 1), alive)
            ch_left = self.ch.cum[np.minimum(ch_k + 1, len(target.characters))] - self.ch_lost

        def arrays(use_bg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            use_ch = ~use_bg & ch_alive
            kind = wiped_kind.copy()
            left = np.zeros(self.size, dtype=np.int64)
            stride = np.zeros(self.size, dtype=np.int64)
            if nb:
                kind[use_bg] = bg_kind[use_bg]
                left[use_bg] = bg_left[use_bg]
                stride[use_bg] = self.ch_span
            if target.characters:
                kind[use_ch] = ch_kind[use_ch]
                left[use_ch] = ch_left[use_ch]
                stride[use_ch] = 1
            return kind, left, stride

        normal = arrays(bg_alive)
        precise = arrays(bg_alive & ~ch_alive) if target.characters else normal
        self.kind = np.stack([normal[0], precise[0]])[None]
        self.left = np.stack([normal[1], precise[1]])[None]
        self.stride = np.stack([normal[2], precise[2]])[None]
        # wounds lost per allocation group along the tracks
        lost = np.zeros((len(self.groups), self.size), dtype=np.int64)
        for gi, g in enumerate(self.groups):
            track_lost = self.ch_lost if g.character else self.bg_lost
            first = g.start - (nb if g.character else 0)
            cum = (self.ch if g.character else self.bg).cum
            cap = cum[first + g.count] - cum[first]
            lost[gi] = np.minimum(np.maximum(track_lost - cum[first], 0), cap)
        self.group_lost = lost

    def _build_groups(self) -> None:
        groups = self.groups
        for g in groups:
            if any(self.models[g.start + i].W != g.W for i in range(g.count)):
                raise ValueError(f"allocation group {g.name!r} mixes models of different W")
        radix = [g.wounds + 1 for g in groups]
        self.size = int(np.prod(radix))
        strides = np.ones(len(groups), dtype=np.int64)
        for i in range(len(groups) - 2, -1, -1):
            strides[i] = strides[i + 1] * radix[i + 1]
        states = np.arange(self.size)
        lost = np.stack([(states // strides[i]) % radix[i] for i in range(len(groups))])
        self.group_lost = lost.astype(np.int64)
        ws = np.array([g.W for g in groups], dtype=np.int64)[:, None]
        counts = np.array([g.count for g in groups], dtype=np.int64)[:, None]
        dead = lost // ws
        alive_g = dead < counts
        wounded = alive_g & (lost % ws != 0)
        self.destroyed = dead.sum(axis=0)
        self.wounds_lost = lost.sum(axis=0)
        alive = self.target.models - self.destroyed
        kind_g = np.stack(
            [
                self._kinds(g.start + np.minimum(dead[i], g.count - 1), alive)
                for i, g in enumerate(groups)
            ]
        )
        left_g = ws - lost % ws
        chars = [i for i, g in enumerate(groups) if g.character]
        self.character_dead = ~alive_g[chars] if chars else np.zeros((0, self.size), dtype=bool)
        wiped_kind = self._wiped_kind(alive)
        self._declare_orders(wounded, ~alive_g)
        kinds, lefts, steps = [], [], []
        for order, pick in zip(self.orders, self.picks, strict=True):
            plain = [g for g in order if not groups[g].character]
            ordered_chars = [g for g in order if groups[g].character]
            kr, lr, sr = [], [], []
            # NORMAL: non-CHARACTER groups, then CHARACTER groups; PRECISION: the other way
            # (edition 11: the one CHARACTER group picked, then as NORMAL; a CHARACTER model
            # the player named comes first)
            precise: tuple[list[int], ...] = (chars, plain)
            if self.target.precision_one_group:
                rest = [g for g in ordered_chars if g != pick]
                precise = ([] if pick is None else [pick], plain, rest)
            elif self.named_group is not None:
                named = self.named_group
                precise = ([named], [g for g in chars if g != named], plain)
            for parts in ((plain, ordered_chars), precise):
                cur = np.full(self.size, -1, dtype=np.int64)
                for part in parts:
                    for mask in (wounded, alive_g):  # a group with a wounded model first
                        for k in part:
                            cur[(cur < 0) & mask[k]] = k
                ok = cur >= 0
                safe = np.where(ok, cur, 0)
                kr.append(np.where(ok, kind_g[safe, states], wiped_kind))
                lr.append(np.where(ok, left_g[safe, states], 0))
                sr.append(np.where(ok, strides[safe], 0))
            kinds.append(np.stack(kr))
            lefts.append(np.stack(lr))
            steps.append(np.stack(sr))
        self.kind = np.stack(kinds)
        self.left = np.stack(lefts)
        self.stride = np.stack(steps)
        self.radix = np.array(radix, dtype=np.int64)
        self.strides = strides

    @property
    def named_group(self) -> int | None:
        """The allocation group of the CHARACTER model the player named for [PRECISION]
        attacks (``TargetProfile.precision_pick``), or None."""
        pick = self.target.precision_pick
        if pick is None:
            return None
        first = len(self.target.bodyguard) + pick
        return next(i for i, g in enumerate(self.groups) if g.character and g.start == first)

    def _declare_orders(self, wounded: np.ndarray, dead: np.ndarray) -> None:
        """The order declared for a weapon whose preference order is ``orders[o]`` when it
        starts in state s (05.03 and its FAQ: groups with a wounded model before the others,
        among the non-CHARACTER groups and among the CHARACTER groups):
        ``declared_index[o, s]``, an index into ``orders``, which grows to hold them.

        With ``precision_one_group`` (edition 11, 24.28 [PRECISION]) the declared entry also
        fixes the CHARACTER group a [PRECISION] attack picks when the weapon starts
        (``picks``): the attacker's choice — the one the player named while it lives, else the
        calculator's: the first in listing order with a wounded model, else the first one
        alive; it stays picked until it is destroyed. ``wounded`` and ``dead`` are (groups,
        states) bool arrays."""
        groups = self.groups
        n = len(groups)
        listed = [g for g in range(n) if groups[g].character]
        named = self.named_group
        one = self.target.precision_one_group
        pattern = np.zeros(self.size, dtype=np.int64)
        for g in range(n):
            pattern |= wounded[g].astype(np.int64) << g
            if one and groups[g].character:
                pattern |= dead[g].astype(np.int64) << (n + g)

        def pick_for(pat: int) -> int | None:
            if not one:
                return None
            alive = [g for g in listed if not pat >> (n + g) & 1]
            if named in alive:
                return named
            return next((g for g in alive if pat >> g & 1), alive[0] if alive else None)

        closed = list(self.orders)
        self.picks = [pick_for(0) for _ in closed]
        index = {(o, p): i for i, (o, p) in enumerate(zip(closed, self.picks, strict=True))}
        self.declared_index = np.zeros((len(closed), self.size), dtype=np.int64)
        for oi, order in enumerate(self.orders):
            for pat in distinct(pattern):
                hurt = [g for g in order if pat >> g & 1]
                fresh = [g for g in order if not pat >> g & 1]
                eff = tuple(
                    [g for g in hurt if not groups[g].character]
                    + [g for g in fresh if not groups[g].character]
                    + [g for g in hurt if groups[g].character]
                    + [g for g in fresh if groups[g].character]
                )
                pick = pick_for(pat)
                if (eff, pick) not in index:
                    index[(eff, pick)] = len(closed)
                    closed.append(eff)
                    self.picks.append(pick)
                self.declared_index[oi, pattern == pat] = index[(eff, pick)]
        self.orders = tuple(closed)

    # ---- vectorised policy -------------------------------------------------------------------

    def apply(
        self,
        states: np.ndarray,
        damage: np.ndarray | int,
        routing: int = NORMAL,
        order: np.ndarray | int = 0,
    ) -> np.ndarray:
        """States after ``damage`` points (after Feel No Pain) are inflicted by one attack on
        the model each state allocates it to; excess damage is lost (no spill-over).

        Args:
            states: int array of states.
            damage: int array (same shape) or int, points that get through.
            routing: NORMAL, or PRECISION for [PRECISION] attacks.
            order: index into ``orders`` (an int, or an int array like ``states``).
        """
        left = self.left[order, routing, states]
        return states + np.minimum(damage, left) * self.stride[order, routing, states]

    def declared(self, states: np.ndarray, order: np.ndarray | int = 0) -> np.ndarray:
        """The order (index into ``orders``) a weapon's save rolls follow when it starts in
        ``states`` and the defender prefers ``orders[order]``: a group with a wounded model is
        declared first (05.03) and stays the current group until destroyed (05.04.01)."""
        if not self.product:
            return np.zeros(np.shape(states), dtype=np.int64)
        return self.declared_index[order, states]

    def kind_of(
        self, states: np.ndarray, routing: int = NORMAL, order: np.ndarray | int = 0
    ) -> np.ndarray:
        """Model kind (index into ``AttackProfile.vs``) each state allocates the next attack to;
        for a destroyed unit, the kind of its last listed model."""
        return self.kind[order, routing, states]

    def wounds_left_of(
        self, states: np.ndarray, routing: int = NORMAL, order: np.ndarray | int = 0
    ) -> np.ndarray:
        """Wounds left on the model each state allocates the next attack to (0: unit destroyed)."""
        return self.left[order, routing, states]

    # ---- reading and writing states ----------------------------------------------------------

    def lost_by_group(self, states: np.ndarray) -> np.ndarray:
        """(len(states), groups): wounds lost by each allocation group."""
        by_state = self.__dict__.get("_lost_by_state")
        if by_state is None:  # the rows of a state contiguous: a few states taken at once
            by_state = self._lost_by_state = np.ascontiguousarray(self.group_lost.T)
            by_state.flags.writeable = False
        return by_state[states]

    def index_of(self, lost: np.ndarray, on_track: bool = False) -> np.ndarray:
        """States of per-group 'wounds lost' rows (``lost``: (K, groups) ints); ``on_track``:
        the caller has checked :meth:`on_track` already (:func:`space_for` does).

        Raises:
            ValueError: a row is out of range, or (tracks) not reachable in the single order.
        """
        lost = np.asarray(lost, dtype=np.int64).reshape(-1, len(self.groups))
        caps = np.array([g.wounds for g in self.groups], dtype=np.int64)
        if ((lost < 0) | (lost > caps)).any():
            raise ValueError("a group's wounds lost is out of range")
        if self.product:
            return lost @ self.strides
        if not on_track and not self.on_track(lost).all():
            raise ValueError("the state cannot be reached in this allocation order")
        bg = np.zeros(len(lost), dtype=np.int64)
        ch = np.zeros(len(lost), dtype=np.int64)
        for gi, g in enumerate(self.groups):
            if g.character:
                ch += lost[:, gi]
            else:
                bg += lost[:, gi]
        return bg * self.ch_span + ch

    def on_track(self, lost: np.ndarray) -> np.ndarray:
        """Per row: whether the track representation can hold it (each track filled in order:
        no group has lost wounds while an earlier group of its track has a model alive)."""
        lost = np.asarray(lost, dtype=np.int64).reshape(-1, len(self.groups))
        ok = np.ones(len(lost), dtype=bool)
        for character in (False, True):
            idx = [i for i, g in enumerate(self.groups) if g.character == character]
            for j, a in enumerate(idx[:-1]):
                earlier_alive = lost[:, a] < self.groups[a].wounds
                ok &= ~(earlier_alive & (lost[:, idx[j + 1 :]].sum(axis=1) > 0))
        return ok

    def states_of(self, start: TargetStates | None, on_track: bool = False) -> np.ndarray:
        """State indices of ``start``'s rows (None: the unharmed unit); ``on_track``: as
        :meth:`index_of` (this space came from :func:`space_for` with ``start``).

        Raises:
            ValueError: ``start`` is keyed by another unit structure, or not representable.
        """
        if start is None:
            return np.zeros(1, dtype=np.int64)
        if start.shape != self.shape:
            raise ValueError("the start state belongs to a unit of another structure")
        return self.index_of(start.lost, on_track)

    def to_states(self, p: np.ndarray, eps: float = 0.0) -> TargetStates:
        """A state distribution over this space as :class:`TargetStates` (states with
        probability above ``eps`` only)."""
        keep = (p > eps).nonzero()[0]
        return TargetStates(self.shape, self.lost_by_group(keep), p[keep])  # both new arrays


def saves_differ(space: AllocationSpace, vs: tuple, routing: int) -> bool:
    """Whether the models this routing can reach (in any of the space's orders) make
    different saving throws against one weapon profile (``vs``: its ``VsModel`` per kind).
    When they do not, resolving the save rolls lowest first (05.04) gives the same distribution
    as one at a time: every result passes or fails alike whichever group is current, so the
    engines may use either."""
    seen = {}
    for k in distinct(space.kind[:, routing]):
        save = vs[int(k)].save
        seen[None if save is None else (save.outcome, save.reroll)] = True
    return len(seen) > 1


def space_for(
    target: TargetProfile,
    orders: tuple[Order, ...] | None = None,
    start: TargetStates | None = None,
) -> AllocationSpace:
    """The space both engines use for one activation: tracks when one order is in play and
    every start state lies on them, else one count of wounds lost per allocation group.

    A space is built once per (target, orders, representation) and shared (its arrays
    read-only): a batch or the player's choices resolve the same target again and again.

    Raises:
        ValueError: ``start`` belongs to a unit of another structure.
    """
    space = _space(target, orders, None)
    if start is not None:
        if start.shape != space.shape:
            raise ValueError("the start state belongs to a unit of another structure")
        if not space.product and not space.on_track(start.lost).all():
            space = _space(target, orders, True)
    return space


@lru_cache(maxsize=64)
def _space(
    target: TargetProfile, orders: tuple[Order, ...] | None, product: bool | None
) -> AllocationSpace:
    space = AllocationSpace(target, orders, product)
    for value in vars(space).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return space

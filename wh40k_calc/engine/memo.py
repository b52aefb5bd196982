"""What the exact engine builds again and again, built once per process.

A batch resolves the same weapon profiles against the same targets run after run (other
conditions, other targets of the same Toughness), and the player's choices score several
candidate activations that share most of their weapons. Their expensive parts depend only on a
few inputs, so each is kept, keyed by exactly what it reads:

* a weapon's wound counts (:func:`~wh40k_calc.engine.wounds.wound_joint`) and their cost: its
  attacks, Hit and Wound roll tables, Sustained Hits, Lethal Hits, Devastating Wounds, Command
  Re-roll, Blast and models, and with Blast the bracket of five the target's models were in
  when selected (:func:`selected_key`); the two pieces it is made of are kept by less: one
  attack's kernel (:func:`per_attack`) by the Hit and Wound roll tables, Sustained Hits,
  Lethal Hits and Devastating Wounds, and the attacks (:func:`attacks_of`) by one model's
  attacks, the models and Blast's extra attacks;
* a weapon's transition kernels (:func:`~wh40k_calc.engine.kernels.wound_kernel`,
  :func:`~wh40k_calc.engine.kernels.face_kernels`): the target's state space (itself built
  once, :func:`~wh40k_calc.engine.allocation.space_for`), what the weapon does to each kind of
  model (``AttackProfile.vs``) and its routing; the kernel of a mortal wound before the attacks
  (:func:`~wh40k_calc.engine.kernels.spill_kernel`): the space and the models' Feel No Pain;
* a weapon's damage figure where no wound's damage depends on the target's state
  (:func:`figure`): its counts of wounds and the points one wound inflicts;
* what the exact engine derives from kept counts and kernels alone (:func:`of_kept`, keyed by
  the kept objects themselves): the tails of a weapon's counts (:func:`tails`), the weights
  the state pass gives its counts, a weapon's whole damage figure. A kept kernel also keeps
  what the engine's passes build from it alone in its ``forms`` (the form of its step, its
  per-state expectations, and its *orbit*: the target's states after 0, 1, 2, ... of its
  wounds from the unharmed unit, up to a small size; ``exact._orbit``).

A kept result is the very object an uncached call returns (its arrays made read-only, so that
sharing it cannot change it), so results are identical with or without the cache. Each cache
holds a bounded number of entries (least recently used dropped first).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from ..profile import AttackProfile, attack_pmf
from . import kernels
from .allocation import AllocationSpace
from .kernels import Faces, Kernel, face_kernels, routing_of, spill_kernel, wound_kernel
from .wounds import joint_cost, per_attack_kernel, wound_joint

ENTRIES = 2048  # wound counts, costs and kernels kept (each)


class _Keyed:
    """A value that hashes and compares by ``key`` (what a cached function reads of it)."""

    __slots__ = ("_hash", "key", "value")

    def __init__(self, value: Any, key: tuple):
        self.value = value
        self.key = key
        self._hash = hash(key)  # once: a profile's key is looked up by several caches

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Keyed) and self.key == other.key


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _array_key(a: np.ndarray | None) -> tuple | None:
    return None if a is None else (a.dtype.str, a.shape, a.tobytes())


# ---- a weapon's wound counts ------------------------------------------------------------------


def _counts_key(ap: AttackProfile) -> tuple:
    """Everything :func:`wound_joint` and :func:`joint_cost` read of a profile."""
    return (
        _array_key(ap.attacks),
        ap.models,
        ap.blast,
        ap.hit,
        _array_key(ap.sustained),
        ap.lethal,
        ap.wound,
        ap.devastating,
        ap.command_reroll,
        ap.reroll_one_hit,
        ap.single_face,
        ap.substituted,
        ap.vs if ap.substituted and ap.substituted.saves else None,
    )


def _per_attack_key(ap: AttackProfile) -> tuple:
    """Everything :func:`~wh40k_calc.engine.wounds.per_attack_kernel` reads of a profile: its
    Hit and Wound roll tables, Sustained Hits, Lethal Hits and Devastating Wounds (not its
    attacks, models, Blast or single re-rolls: weapons that differ only in those share it)."""
    return (ap.hit, ap.wound, _array_key(ap.sustained), ap.lethal, ap.devastating)


@lru_cache(maxsize=ENTRIES)
def _per_attack(ap: _Keyed) -> tuple[np.ndarray, float]:
    k, hits = per_attack_kernel(ap.value)
    return _frozen(k), hits


def per_attack(ap: AttackProfile) -> tuple[np.ndarray, float]:
    """:func:`~wh40k_calc.engine.wounds.per_attack_kernel` of ``ap`` (its kernel read-only),
    built once per :func:`_per_attack_key`, for :func:`joint` and :func:`cost` both."""
    return _per_attack(_Keyed(ap, _per_attack_key(ap)))


@lru_cache(maxsize=ENTRIES)
def _attacks(per: _Keyed, models: int, bonus: int) -> np.ndarray:
    return _frozen(attack_pmf(per.value, models, bonus))


def attacks_of(ap: AttackProfile, selected: int) -> np.ndarray:
    """:meth:`~wh40k_calc.profile.AttackProfile.attack_pmf` of ``ap`` against ``selected``
    models (read-only), built once per distribution of one model's attacks, number of models
    and Blast's extra attacks (all it reads)."""
    per = ap.attacks
    return _attacks(
        _Keyed(per, (per.dtype.str, per.shape, per.tobytes())),
        ap.models,
        ap.blast * (selected // 5),
    )


@lru_cache(maxsize=ENTRIES)
def _joint(ap: _Keyed, selected: int, trim: Callable[[np.ndarray], np.ndarray]):
    w = ap.value
    p2, meta = wound_joint(w, selected, per_attack(w), attacks_of(w, selected))
    return _frozen(trim(p2)), meta


@lru_cache(maxsize=ENTRIES)
def _cost(ap: _Keyed, selected: int) -> float:
    return joint_cost(ap.value, selected, per_attack(ap.value))


def counts_of(ap: AttackProfile) -> _Keyed:
    """``ap`` keyed by what its wound counts read, for :func:`joint` and :func:`cost` (a
    caller asking both for one profile builds the key once)."""
    return _Keyed(ap, _counts_key(ap))


def selected_key(ap: AttackProfile, selected: int) -> int:
    """The models in the target when selected as :func:`wound_joint` and :func:`joint_cost`
    read them: only through Blast's extra attacks, ``blast * (selected // 5)``
    (``AttackProfile.attack_pmf``), so the first count of its bracket of five, and 0 for a
    weapon without Blast (whose counts are one whatever the target's size: a batch meets the
    same weapon against targets of many sizes)."""
    return selected // 5 * 5 if ap.blast else 0


def joint(
    ap: AttackProfile | _Keyed, selected: int, trim: Callable[[np.ndarray], np.ndarray]
) -> tuple[np.ndarray, dict]:
    """:func:`wound_joint` of ``ap`` (a profile, or :func:`counts_of` it) with ``selected``
    models in the target, its P[n, m] cut by ``trim`` (the exact engine leaves out negligible
    tails), computed once per :func:`selected_key` (the expectations dict is shared: read it,
    do not change it)."""
    keyed = ap if isinstance(ap, _Keyed) else counts_of(ap)
    return _joint(keyed, selected_key(keyed.value, selected), trim)


def cost(ap: AttackProfile | _Keyed, selected: int) -> float:
    """:func:`joint_cost` of ``ap`` (a profile, or :func:`counts_of` it), computed once per
    :func:`selected_key`."""
    keyed = ap if isinstance(ap, _Keyed) else counts_of(ap)
    return _cost(keyed, selected_key(keyed.value, selected))


_BY_ID: dict[tuple, tuple[tuple, Any]] = {}  # (fn, ids of its arguments): (them, fn's result)


def of_kept(fn: Callable[..., Any], *kept: Any) -> Any:
    """``fn(*kept)`` of kept values (each read-only and never changed, e.g. counts P[n, m] as
    :func:`joint` gives them or a kernel as :func:`kernel` does; the entry keeps them, so
    their ids name them), computed once (its result must be read-only too)."""
    key = (fn, *map(id, kept))
    hit = _BY_ID.get(key)
    if hit is not None:
        for a, b in zip(hit[0], kept, strict=True):
            if a is not b:  # another object where a dropped one was
                break
        else:
            return hit[1]
    out = fn(*kept)
    if len(_BY_ID) >= ENTRIES:
        _BY_ID.clear()
    _BY_ID[key] = (kept, out)
    return out


_OF_OBJECTS: dict[tuple, tuple[tuple, Any]] = {}  # see of_objects


def of_objects(fn: Callable[..., Any], objects: tuple, values: tuple) -> Any:
    """``fn(*objects, *values)`` of frozen or kept ``objects`` (matched by identity: the entry
    keeps them, so their ids name them) and hashable ``values`` (matched by value), computed
    once while kept; its result is shared, so it must never be changed."""
    key = (fn, *map(id, objects), *values)
    hit = _OF_OBJECTS.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], objects, strict=True)):
        return hit[1]
    out = fn(*objects, *values)
    if len(_OF_OBJECTS) >= ENTRIES:
        _OF_OBJECTS.clear()
    _OF_OBJECTS[key] = (objects, out)
    return out


def _tails(p2: np.ndarray) -> np.ndarray:
    return _frozen(1.0 - np.cumsum(p2.sum(axis=1)))


def tails(p2: np.ndarray) -> np.ndarray:
    """P(N > n) of kept counts P[n, m] (:func:`of_kept`), computed once (read-only)."""
    return of_kept(_tails, p2)


# ---- a weapon's damage figure -----------------------------------------------------------------


@lru_cache(maxsize=ENTRIES)
def _figure(key: _Keyed) -> np.ndarray:
    counts, points, compound = key.value
    return _frozen(compound(counts, points))


def figure(
    counts: np.ndarray, points: np.ndarray, compound: Callable[..., np.ndarray]
) -> np.ndarray:
    """``compound(counts, points)``: the distribution of the points ``counts[n]`` wounds
    inflict when each inflicts ``points`` whatever the target's state (the exact engine's
    damage figure of one weapon, :func:`~wh40k_calc.engine.exact._compound`), computed once
    per counts and points (read-only)."""
    key = (_array_key(counts), _array_key(points), compound)
    return _figure(_Keyed((counts, points, compound), key))


# ---- a weapon's kernels -----------------------------------------------------------------------


def _kernel_key(s: AllocationSpace, ap: AttackProfile, devastating: bool) -> tuple:
    """Everything :func:`wound_kernel` and :func:`face_kernels` read of a space and a
    profile."""
    # the space itself (compared by identity): allocation.space_for hands out one object per
    # target and orders while it keeps them, and a kept kernel keeps its space alive
    return (s, ap.vs, routing_of(ap, devastating), devastating)


@lru_cache(maxsize=ENTRIES)
def _kernel(key: _Keyed, order: int) -> Kernel:
    s, ap, devastating = key.value
    k = wound_kernel(s, ap, devastating, order)
    for a in (k.probs, k.fail, k.mortal):
        _frozen(a)
    return k


@lru_cache(maxsize=ENTRIES)
def _faces(key: _Keyed, order: int) -> Faces:
    s, ap, _ = key.value
    return face_kernels(s, ap, order)


def kernel(s: AllocationSpace, ap: AttackProfile, devastating: bool, order: int = 0) -> Kernel:
    """:func:`wound_kernel` (no ``face``), built once per space, profile effect and order."""
    return _kernel(_Keyed((s, ap, devastating), _kernel_key(s, ap, devastating)), order)


def faces(s: AllocationSpace, ap: AttackProfile, order: int = 0) -> Faces:
    """:func:`face_kernels`, built once per space, profile effect and order."""
    return _faces(_Keyed((s, ap, False), _kernel_key(s, ap, False)), order)


@lru_cache(maxsize=ENTRIES)
def _spill(s: AllocationSpace, fnp: tuple[float, ...]) -> Kernel:
    k = spill_kernel(s, fnp)
    for a in (k.probs, k.fail, k.mortal):
        _frozen(a)
    return k


def spill(s: AllocationSpace, fnp: tuple[float, ...]) -> Kernel:
    """:func:`spill_kernel` (mortal wounds before the attacks), built once per space and
    Feel No Pain (a kept kernel also keeps the form the chain chose for it)."""
    return _spill(s, fnp)


_KEPT: list = []  # caches of other modules' results (kept)


def kept(fn: Callable) -> Callable:
    """``fn`` cached like the rest (least recently used dropped first; its arguments the key)
    and forgotten by :func:`clear` with it: for a result built from a few hashable inputs."""
    cached = lru_cache(maxsize=ENTRIES)(fn)
    _KEPT.append(cached)
    return cached


def clear() -> None:
    """Forget everything kept here and the shared state spaces (tests, benchmarks)."""
    from .allocation import _space

    for cached in (
        kernels._row,
        _per_attack,
        _attacks,
        _joint,
        _cost,
        _kernel,
        _faces,
        _spill,
        _figure,
        _space,
        *_KEPT,
    ):
        cached.cache_clear()
    _BY_ID.clear()
    _OF_OBJECTS.clear()

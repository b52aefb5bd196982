"""The defender's allocation order (edition 11, 05.03 Allocation Order), chosen per weapon
profile after its Wound rolls, for the counts actually to be resolved.

Edition 11 has the defender declare the order of the allocation groups after the wound rolls,
so the order can depend on how many save rolls (n) and Devastating Wounds mortal wounds (m) a
weapon profile brings. For each (n, m) the order chosen is, among the orders 05.03 allows
(:func:`~wh40k_calc.engine.allocation.legal_orders`), the one that minimises the expected models
destroyed, then the expected wounds lost, by *that weapon's* resolution: its n save rolls (one
at a time or lowest first, as the edition says), then its m mortal wounds allocated in the same
order, starting from the distribution of the target's state when that weapon begins. The
defender does not look further ahead (the other weapons), and the same order is kept for every
state of that distribution (the order is a function of the counts, as the policy object
records); a group with a wounded model still goes first, whatever the order.

The objective (models destroyed, wounds lost) is pulled backwards through m mortal-wound steps
(H_m), and the start distribution pushed forwards through the n save rolls (F_n, every n at
once: :mod:`~wh40k_calc.engine.lowest` for save rolls resolved lowest first); each order's value
for (n, m) is the dot product of F_n and H_m.
"""

from __future__ import annotations

import numpy as np

from . import lowest
from .allocation import AllocationSpace
from .arrays import distinct
from .kernels import Faces, Kernel

TIE = 1e-12  # values closer than this (relative) count as equal; the earlier order wins


def _mortal_pull(space: AllocationSpace, dev: Kernel | None, g: np.ndarray, m: int) -> np.ndarray:
    """H[s, j, :] = the objective ``g`` after j mortal wounds from state s (j < m)."""
    out = np.zeros((space.size, m, g.shape[1]))
    cur = g
    for j in range(m):
        out[:, j] = cur
        if dev is not None and j + 1 < m:
            cur = dev.pull(space, cur)
    return out


def _after_saves(
    part: np.ndarray, k: Kernel, faces: Faces | None, n: int, step: lowest.Step
) -> np.ndarray:
    """F[s, r, b]: the state distribution after r save rolls (r < n) from ``part`` (S, B), one
    at a time with kernel ``k`` or, with ``faces``, rolled together and resolved lowest first
    (05.04; :func:`~wh40k_calc.engine.lowest.resolve`, one output slot per count r)."""
    S, B = part.shape
    v = part.reshape(S, 1, 1, B)
    if faces is None:
        out = np.empty((S, n, B))
        cur = v
        for r in range(n):
            out[:, r] = cur.reshape(S, B)
            if r + 1 < n:
                cur = step(cur, k)
        return out
    g = np.eye(n)[:, :, None, None]  # count r into slot r
    total = np.ones((n, 1))  # every count is wanted: no cut-off
    out = np.zeros((S, n, B))
    for mask, probs in faces.classes:
        if not (mask[:, None] & (part != 0)).any():
            continue
        classes = lowest.fail_classes(faces, probs)
        y = lowest.resolve(v * mask.reshape(-1, 1, 1, 1), g, total, classes, step, False).y
        out += y[:, 0, 0].real
    return out


def choose_orders(
    space: AllocationSpace,
    joints: dict,
    masses: dict,
    normal: list[Kernel],
    faces: list[Faces] | None,
    dev: list[Kernel] | None,
    step: lowest.Step,
) -> tuple[np.ndarray, np.ndarray]:
    """The order (index into ``space.orders``) for each (n, m) of one weapon profile.

    Args:
        space: the target's states (one per group, with every legal order first).
        joints: per Blast bracket b, (P_b[n, m], figures) of the weapon.
        masses: per bracket b, the distribution over states (S,) when the weapon begins.
        normal, faces, dev: per order of ``space.orders``, the weapon's save kernel, its
            lowest-first kernels (None: saves one at a time) and its Devastating Wounds kernel
            (None: not devastating). Save rolls follow the order declared from each start
            state (:meth:`AllocationSpace.declared`); mortal wounds the preference order.
        step: the forward step of the exact engine's state pass (one die of a kernel applied
            to an array whose first axis is the state).

    Returns:
        (table[n, m] of order indices, P[n, m] over the brackets).
    """
    n_max = max(p.shape[0] for p, _ in joints.values())
    m_max = max(p.shape[1] for p, _ in joints.values())
    weights = np.zeros((n_max, m_max))
    for b, (p2, _) in joints.items():
        weights[: p2.shape[0], : p2.shape[1]] += p2 * masses[b].sum()
    goal = np.stack([space.destroyed, space.wounds_lost], axis=1).astype(float)
    values = np.zeros((space.n_given, n_max, m_max, 2))
    brackets = list(joints)
    start = np.stack([masses[b] for b in brackets], axis=1)  # (S, B)
    mass = start.sum(axis=1) > 0
    for o in range(space.n_given):
        h = _mortal_pull(space, dev[o] if dev is not None else None, goal, m_max)
        declared = space.declared(np.arange(space.size), o)
        after = np.zeros((space.size, n_max, len(brackets)))
        for eo in distinct(declared[mass]):  # a wounded group is declared first
            part = np.where((declared == eo)[:, None], start, 0.0)
            fc = faces[eo] if faces is not None else None
            after += _after_saves(part, normal[eo], fc, n_max, step)
        x = np.einsum("snb,smk->nmkb", after, h)
        for i, (p2, _) in enumerate(joints.values()):
            n, m = p2.shape
            values[o, :n, :m] += p2[..., None] * x[:n, :m, :, i]
    return _lexicographic_min(values, weights), weights


def _lexicographic_min(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per (n, m): the order with the fewest expected models destroyed, then wounds lost;
    ties (within TIE) go to the earlier order."""
    n_orders = values.shape[0]
    table = np.zeros(weights.shape, dtype=np.int64)
    live = weights > 0
    norm = np.where(live, weights, 1.0)[None, ..., None]
    v = values / norm
    best = v[0].copy()
    for o in range(1, n_orders):
        tol = TIE * np.maximum(1.0, np.abs(best))
        d, w = v[o, ..., 0], v[o, ..., 1]
        better = (d < best[..., 0] - tol[..., 0]) | (
            (np.abs(d - best[..., 0]) <= tol[..., 0]) & (w < best[..., 1] - tol[..., 1])
        )
        better &= live
        table[better] = o
        best[better] = v[o][better]
    return table

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

The expectations are computed backwards: the objective (models destroyed, wounds lost) is
pulled through m mortal-wound steps and then through the n save rolls, which gives it for every
(n, m) at once; a dot product with the start distribution gives each order's value.
"""

from __future__ import annotations

import numpy as np

from .allocation import AllocationSpace
from .arrays import distinct
from .kernels import Faces, Kernel, binomials

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


def _count_pull(space: AllocationSpace, k: Kernel, h: np.ndarray, n: int) -> np.ndarray:
    """G[s, i, ...] = ``h`` after i save rolls resolved one at a time from state s (i < n)."""
    out = np.zeros((space.size, n, *h.shape[1:]))
    cur = h
    for i in range(n):
        out[:, i] = cur
        if i + 1 < n:
            cur = k.pull(space, cur)
    return out


def _lowest_first_pull(
    space: AllocationSpace, faces: Faces, h: np.ndarray, n: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per class of start states: G[s, r, ...] = ``h`` after r save rolls resolved lowest
    first (05.04) from state s. Backwards over the classes of results (highest first): with r
    dice in this class or higher, c ~ Binomial(r, P(class) / P(>= class)) are in it and are
    resolved first."""
    out = []
    for mask, probs in faces.classes:
        g = np.repeat(h[:, None], n, axis=1)  # the dice left after the last class all pass
        for k, p_class, rest in reversed(faces.steps(probs)):
            b, _ = binomials(n, min(1.0, p_class / rest))
            shape = (1, -1) + (1,) * (g.ndim - 2)
            new = np.zeros_like(g)
            cur = g
            for c in range(n):
                new[:, c:] += b[c:, c].reshape(shape) * cur[:, : n - c]
                if c + 1 < n:
                    nxt = cur[:, : n - c - 1]
                    cur = nxt if k is None else k.pull(space, nxt)
            g = new
        out.append((mask, g))
    return out


def choose_orders(
    space: AllocationSpace,
    joints: dict,
    masses: dict,
    normal: list[Kernel],
    faces: list[Faces] | None,
    dev: list[Kernel] | None,
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
    mass = sum(masses.values()) > 0
    for o in range(space.n_given):
        h = _mortal_pull(space, dev[o] if dev is not None else None, goal, m_max)
        declared = space.declared(np.arange(space.size), o)
        parts = []
        for eo in distinct(declared[mass]):  # a wounded group is declared first
            if faces is not None:
                got = _lowest_first_pull(space, faces[eo], h, n_max)
            else:
                got = [(np.ones(space.size, dtype=bool), _count_pull(space, normal[eo], h, n_max))]
            parts += [(mask & (declared == eo), g) for mask, g in got]
        for b, (p2, _) in joints.items():
            for mask, g in parts:
                start = np.where(mask, masses[b], 0.0)
                part = np.einsum("s,snmk->nmk", start, g[:, : p2.shape[0], : p2.shape[1]])
                values[o, : p2.shape[0], : p2.shape[1]] += p2[..., None] * part
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

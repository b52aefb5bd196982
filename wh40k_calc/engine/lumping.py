"""Merging target states that the damage figure cannot tell apart (exact lumping).

The exact engine's figure pass needs the target's state only to know how much damage the next
wound does. Two states can be merged when every kernel gives them the same row and, for every
amount of damage, sends them to states that can again be merged (a bisimulation, computed by
partition refinement). The merged chain is exact for anything that depends only on the rows,
such as the damage figure: e.g. once a Leader's Bodyguard is gone, every state of the Leader
behaves alike, so 30 Boyz with a Warboss need 31 classes instead of 217 states.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .kernels import Kernel


def classes(
    size: int, kernels: Sequence[Kernel], targets: Sequence[list], labels: Sequence[np.ndarray]
) -> np.ndarray:
    """The coarsest partition of ``size`` states that keeps ``labels`` apart and under which
    every kernel (rows ``kernels[i].probs``, successors ``targets[i]`` as (d, next state)
    pairs) acts alike on every state of a class. Returns the class of each state."""
    keys = [np.stack(labels, axis=1)] if labels else []
    keys += [k.probs for k in kernels]
    current = _relabel(np.concatenate(keys, axis=1) if keys else np.zeros((size, 1)))
    while True:
        moved = [current[:, None]] + [current[nxt][:, None] for t in targets for _, nxt in t]
        refined = _relabel(np.concatenate(moved, axis=1))
        if refined.max() == current.max():
            return refined
        current = refined


def _relabel(rows: np.ndarray) -> np.ndarray:
    """Equal rows get equal labels 0, 1, ... (in order of first appearance). Integer rows are
    told apart by a hash (checked: rows sharing a label must be equal, else the slow exact
    way)."""
    if rows.dtype.kind in "iu" and rows.shape[1] <= len(_MULTIPLIERS):
        keys = (rows.astype(np.uint64) * _MULTIPLIERS[: rows.shape[1]]).sum(axis=1)
        labels = _first_seen(keys)
        reps = np.zeros(labels.max() + 1, dtype=np.int64)
        reps[labels[::-1]] = np.arange(len(labels))[::-1]
        if (rows == rows[reps[labels]]).all():
            return labels
    _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first)] = np.arange(len(first))
    return rank[inverse.ravel()]


def _first_seen(keys: np.ndarray) -> np.ndarray:
    """Labels 0, 1, ... of 1-D keys in order of first appearance."""
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first)] = np.arange(len(first))
    return rank[inverse.ravel()]


def _splitmix64(n: int) -> np.ndarray:
    """``n`` well-mixed 64-bit integers (the SplitMix64 sequence), wrapping arithmetic: the
    multipliers of the row hash. Computed rather than drawn so that importing the exact engine
    does not import ``numpy.random`` (about 17 ms of start-up)."""
    x = np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


_MULTIPLIERS = _splitmix64(4096)  # wrapping products: a hash, checked by _relabel


def quotient(kernel: Kernel, cls: np.ndarray, reps: np.ndarray, targets: list) -> Kernel:
    """``kernel`` acting on classes: each class's row and successors are its representative's
    (``reps[c]``), the successors mapped to classes."""
    q = Kernel(kernel.probs[reps], kernel.routing, kernel.fail[reps], kernel.mortal[reps])
    q.order = kernel.order
    q._targets.extend((d, cls[nxt[reps]]) for d, nxt in targets)
    return q

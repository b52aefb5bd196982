"""Save rolls resolved lowest first (edition 11, 05.04 Inflict Damage), the exact engine's
linear-time formulation (``engine/lowest.py``) against a brute-force enumeration.

Rules text (file 004, 05.04): the save rolls made together are resolved from the lowest result
to the highest, each against the allocation group current when it is resolved. So with L
classes of results that can fail (in increasing order) and n dice, the target's state after
them is K_L^{c_L} ... K_1^{c_1} v, the counts c_j multinomial. The enumeration here rolls every
die's class ((L + 1)^n sequences, the last option "passes"), sorts the sequence and applies one
random transition matrix per class die by die; expected failed saves and damage are the sums,
over the dice, of the kernel's per-state figures at the state each die is resolved in.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wh40k_calc.engine.kernels import Kernel
from wh40k_calc.engine.lowest import FailClass, resolve

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None)


def _case(seed: int, S: int, L: int):
    """Random stochastic matrices (one per class), their per-state failed saves and figures
    (``Kernel.figures``) and class probabilities."""
    rng = np.random.default_rng(seed)
    mats, kernels = [], []
    for _ in range(L):
        m = rng.random((S, S)) * (rng.random((S, S)) < 0.6)
        m[np.arange(S), np.arange(S)] += 0.1
        m /= m.sum(axis=0, keepdims=True)  # columns: from-state
        mats.append(m)
        probs = np.zeros((S, 2))
        k = Kernel(probs, 0, rng.random(S), rng.random(S))
        k._figures = rng.random((S, 4))  # the damage figure and the three wasted points
        k._figure_mean = k._figures[:, 0]
        kernels.append(k)
    p = rng.dirichlet(np.ones(L + 1))  # classes 1..L, then "passes"
    return rng, mats, kernels, p


def _brute(v, g, mats, kernels, p):
    """y[s, f, pending, slot, b] and the expectations by enumerating every sequence."""
    N, slots, F, B = g.shape
    S = v.shape[0]
    L = len(mats)
    y = np.zeros((S, F, v.shape[2], slots, B), dtype=complex)
    fs, fig = 0.0, np.zeros(4)
    total = g.real.sum(axis=(1, 2))  # only used with F == 1 and real weights
    for n in range(N):
        for seq in itertools.product(range(L + 1), repeat=n):
            prob = float(np.prod([p[c] for c in seq]))
            cur = v.astype(complex)
            for c in sorted(seq):
                if c == L:
                    continue
                mass = cur.real.reshape(S, -1, B).sum(axis=1) @ total[n]
                fs += prob * float(kernels[c].fail @ mass)
                fig += prob * (mass @ kernels[c].figures)
                cur = np.einsum("ts,s...->t...", mats[c], cur)
            y += prob * np.einsum("sfpb,xfb->sfpxb", cur, g[n])
    return y, fs, fig


def _qs(p: np.ndarray) -> list[float]:
    out, done = [], 0.0
    for pj in p[:-1]:
        out.append(min(1.0, pj / (1.0 - done)))
        done += pj
    return out


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    S=st.integers(1, 4),
    L=st.integers(1, 4),
    N=st.integers(1, 4),
    slots=st.integers(1, 2),
    P=st.integers(1, 2),
    B=st.integers(1, 2),
)
def test_resolve_matches_the_enumeration(seed, S, L, N, slots, P, B) -> None:
    rng, mats, kernels, p = _case(seed, S, L)
    v = rng.random((S, 1, P, B))
    g = rng.random((N, slots, 1, B)) * (rng.random((N, 1, 1, B)) < 0.8)
    total = g.sum(axis=1)[:, 0, :]  # P(n) per bracket: the weights' sum (as pending slots)
    by_id = {id(k): m for k, m in zip(kernels, mats, strict=True)}

    def step(x: np.ndarray, k: Kernel) -> np.ndarray:
        return np.einsum("ts,s...->t...", by_id[id(k)], x)

    classes = [FailClass(k, q) for k, q in zip(kernels, _qs(p), strict=True)]
    got = resolve(v, g, total, classes, step, True)
    want, fs, fig = _brute(v, g, mats, kernels, p)
    np.testing.assert_allclose(got.y, want.real, rtol=0, atol=1e-12)
    assert got.failed == pytest.approx(fs, abs=1e-12)
    np.testing.assert_allclose(np.zeros(4) + got.figure, fig, rtol=0, atol=1e-12)


@SETTINGS
@given(seed=st.integers(0, 10**6), L=st.integers(0, 3), N=st.integers(1, 4))
def test_resolve_with_figure_bins_matches_the_enumeration(seed, L, N) -> None:
    """Complex weights per figure bin (the figure pass's folded mortal wounds)."""
    rng, mats, kernels, p = _case(seed, 3, max(L, 1))
    mats, kernels, p = mats[:L], kernels[:L], (p if L else np.ones(1))
    F = 3
    v = rng.random((3, F, 2, 1)) + 1j * rng.random((3, F, 2, 1))
    g = rng.random((N, 1, F, 1)) + 1j * rng.random((N, 1, F, 1))
    by_id = {id(k): m for k, m in zip(kernels, mats, strict=True)}

    def step(x: np.ndarray, k: Kernel) -> np.ndarray:
        return np.einsum("ts,s...->t...", by_id[id(k)], x)

    classes = [FailClass(k, q) for k, q in zip(kernels, _qs(p), strict=True)]
    got = resolve(v, g, np.ones((N, 1)), classes, step, False)
    want, _, _ = _brute(v, g, mats, kernels, p)
    np.testing.assert_allclose(got.y, want, rtol=0, atol=1e-12)

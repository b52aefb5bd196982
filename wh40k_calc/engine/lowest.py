"""Save rolls resolved lowest first (edition 11, 05.04 Inflict Damage) in the exact engine's
chain passes, with a number of Python-level steps linear in the number of save rolls.

A weapon profile's n save rolls are rolled together and resolved from the lowest result to the
highest, each against the allocation group current when it is resolved. The results fall into
*classes* that pass or fail alike against every group (a save is a threshold: a class is a run
of results; :meth:`~wh40k_calc.engine.kernels.Faces.steps`); only the classes that can fail
change the target. With L such classes, in increasing order, of probabilities p_1 .. p_L, the
counts (c_1 .. c_L) among n dice are multinomial and the target's state after them is
K_L^{c_L} ... K_1^{c_1} v (K_j: one die of class j against the current group).

Resolving that for every count n at once (weights g[n] from the weapon's count distribution):

* class 1: U[c] = K_1^c v for c = 0, 1, ... (one step each);
* the classes between the first and the last (three or more classes only): the dice left r on
  an axis; c ~ Binomial(r, q) of them are in the class (one step per c on the whole axis);
* the last class: Z[c] = (the weight of exactly c dice in it) x (the state before them), a
  matrix product over the counts (BLAS), then Horner's scheme sum_c K_L^c Z[c] (one step per c;
  each Z[c] made when Horner's scheme reaches it, so the memory is U and two slices).

The state before any class is linear in v, so weights combine by matrix products; only the
kernel steps are sparse. The expected failed saves and damage figure ride along: the number of
dice of class j resolved from a state is sum_c P(c_j > c) x (state before the (c+1)-th), a
tail weight on an extra slot.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from msgspec import Struct

from .kernels import Faces, Kernel, binomials

TAIL_EPS = 1e-15  # a count whose remaining probability is below this ends its loop (mass lost
# < 1e-15; the exact engine renormalises the state distribution at the end)

Step = Callable[[np.ndarray, Kernel], np.ndarray]


class FailClass(Struct, frozen=True):
    """A class of save results that can fail: its kernel and the probability that a die not
    in an earlier class that can fail is in it."""

    kernel: Kernel
    q: float


def fail_classes(faces: Faces, probs: np.ndarray) -> list[FailClass]:
    """The classes of ``faces`` (face probabilities ``probs``) that can fail, in increasing
    order, each with its conditional probability. Classes that pass against every group
    change nothing: their dice count with those that pass."""
    out = []
    done = 0.0
    for k, p, _ in faces.steps(probs):
        if k is None:
            continue
        out.append(FailClass(k, min(1.0, p / (1.0 - done)) if done < 1.0 else 1.0))
        done += p
    return out


class Resolved(Struct):
    """What :func:`resolve` returns: ``y[s, f, p, slot, b]`` (the weighted state after the
    dice, one slot per weight of ``g``), the expected failed saves, and the expected damage
    figure with the points wasted (:attr:`~.kernels.Kernel.figures`: an array of 4, or 0.0
    where nothing was counted)."""

    y: np.ndarray
    failed: float = 0.0
    figure: np.ndarray | float = 0.0  # the kernels' figures (Kernel.figures), an array of 4


def resolve(
    v: np.ndarray,
    g: np.ndarray,
    total: np.ndarray,
    classes: list[FailClass],
    step: Step,
    expect: bool,
) -> Resolved:
    """Resolve a weapon's save rolls lowest first on ``v`` for every count at once.

    Args:
        v: the chain array, (S, F, P, B): states, figure bins, pending counts, Blast brackets.
        g: (N, slots, F or 1, B or 1): the weight of count n (n < N) in each output slot.
        total: (N, B or 1): P(n) per bracket (the cut-offs; with ``expect``, the expectations).
        classes: the classes that can fail (:func:`fail_classes`).
        step: applies one die of a kernel to an array whose first axis is the state.
        expect: compute the expected failed saves and damage figure.

    Returns:
        :class:`Resolved`, its ``y`` of shape (S, F, P, slots, B).
    """
    if not classes:  # every die passes
        return Resolved(_weighted(g, v))
    first = classes[0]
    n = g.shape[0]
    b1, t1 = binomials(n, first.q)
    tails1 = np.einsum("nb,nc->cb", total, t1)  # P(c_1 > c) per bracket
    u = _powers(v, first.kernel, _first_count(tails1), step)
    powers = _Powers(u)
    out = Resolved(np.empty(0))
    if expect:
        out.failed, out.figure = _expected_along(u, first.kernel, tails1)
    if len(classes) == 1:
        q = np.einsum("nxfb,nc->cxfb", g, b1)[: len(u), None]
        out.y = powers.contract(q)[0]
        return out
    a, a_total = _after_first(g, total, b1, len(u))
    ex = np.concatenate([a, a_total], axis=2) if expect else a  # (c_1, r, slots[+1], F, B)
    left = a_total.sum(axis=(0, 2, 3, 4))  # P(r dice left after the first class)
    last = classes[-1]
    b, tail = binomials(n, last.q)
    if len(classes) == 2:  # straight from U: Q[c_1, c] = sum_r A[c_1, r] P(c of r in it)
        q = np.einsum("crsfb,rd->cdsfb", ex, b)
        if expect:
            q[:, :, -1] = np.einsum("crfb,rd->cdfb", ex[:, :, -1], tail)

        def z_of(c: int) -> np.ndarray:
            return powers.contract(q[:, c : c + 1])[0]

    else:
        y = powers.contract(ex)  # (r, S, F, P, slots[+1], B): r dice left after class 1
        del u, powers
        for mid in classes[1:-1]:
            y, f, d = _sweep(y, mid, step, expect)
            out.failed, out.figure = out.failed + f, out.figure + d
            left = _thinned(left, binomials(n, mid.q)[0])
        z_of = _from_left(y, b, tail, expect)
    out.y, f, d = _horner(z_of, _last_count(left, b), last.kernel, step, expect)
    out.failed, out.figure = out.failed + f, out.figure + d
    return out


def _first_count(tails1: np.ndarray) -> int:
    """How many powers of the first class's kernel are needed: up to the first count c whose
    P(c_1 > c) is at most TAIL_EPS."""
    n = tails1.shape[0]
    return min(n, int(np.count_nonzero(tails1.max(axis=1) > TAIL_EPS)) + 1)


def _last_count(left: np.ndarray, b: np.ndarray) -> int:
    """How many steps Horner's scheme takes for the last class: the counts c whose P(c_L >= c)
    exceeds TAIL_EPS (``left``: the distribution of the dice left before it)."""
    exact_c = left @ b
    return max(1, int(np.count_nonzero(np.cumsum(exact_c[::-1])[::-1] > TAIL_EPS)))


def steps(total: np.ndarray, classes: list[FailClass]) -> tuple[int, int]:
    """(steps of the first class, steps of Horner's scheme for the last) :func:`resolve`
    takes for counts of probability ``total`` (N, B) (:mod:`~wh40k_calc.engine.work`)."""
    n = total.shape[0]
    if not classes:
        return 0, 0
    b1, t1 = binomials(n, classes[0].q)
    n1 = _first_count(np.einsum("nb,nc->cb", total, t1))
    if len(classes) == 1:
        return n1, 0
    c = np.arange(n1)[:, None]
    idx = c + np.arange(n)[None, :]
    ok = idx < n
    safe = np.where(ok, idx, 0)
    coef = np.where(ok, b1[safe, np.broadcast_to(c, safe.shape)], 0.0)
    left = (total.sum(axis=1)[safe] * coef).sum(axis=0)
    for mid in classes[1:-1]:
        left = _thinned(left, binomials(n, mid.q)[0])
    return n1, _last_count(left, binomials(n, classes[-1].q)[0])


def _thinned(left: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distribution of the dice left after a class: r' = r - c, c ~ Binomial(r, q)."""
    n = len(left)
    out = np.zeros(n)
    for c in range(n):
        out[: n - c] += left[c:] * b[c:, c]
    return out


def _from_left(y: np.ndarray, b: np.ndarray, tail: np.ndarray, expect: bool):
    """Z[c] = sum_r P(c of r dice in the last class) y[r] (the total slot: P(more than c))."""

    def z_of(c: int) -> np.ndarray:
        z = np.tensordot(b[:, c], y, axes=([0], [0]))
        if expect:
            z[:, :, :, -1] = np.tensordot(tail[:, c], y[:, :, :, :, -1], axes=([0], [0]))
        return z

    return z_of


def _horner(z_of: Callable[[int], np.ndarray], keep: int, k: Kernel, step: Step, expect: bool):
    """sum_c K^c Z[c] for c < keep (Horner's scheme, Z[c] made when needed); with
    ``expect`` the last slot gives the expected failed saves and figure and is dropped."""
    acc = z_of(keep - 1)
    for c in range(keep - 2, -1, -1):
        acc = step(acc, k) + z_of(c)
    fs = fig = 0.0
    if expect:
        per_state = _mass(acc[:, :, :, -1]).sum(axis=1)
        fs, fig = float(k.fail @ per_state), per_state @ k.figures
        acc = acc[:, :, :, :-1]
    return acc, fs, fig


def _weighted(g: np.ndarray, v: np.ndarray) -> np.ndarray:
    """sum_n g[n, slot] v, as (S, F, P, slots, B)."""
    w = g.sum(axis=0)  # (slots, F, B)
    return v[:, :, :, None] * w.transpose(1, 0, 2)[None, :, None]


def _powers(v: np.ndarray, k: Kernel, count: int, step: Step) -> np.ndarray:
    """U[c] = K^c v for c < count, as one array (count, *v.shape)."""
    u = np.empty((count, *v.shape), dtype=v.dtype)
    u[0] = v
    for c in range(1, count):
        u[c] = step(u[c - 1], k)
    return u


def _mass(x: np.ndarray) -> np.ndarray:
    """Per state and bracket: the total of ``x`` (S, F, ..., B) over the other axes (real
    part: the state pass's arrays are real)."""
    return x.reshape(x.shape[0], -1, x.shape[-1]).sum(axis=1).real


def _expected_along(u: np.ndarray, k: Kernel, tails: np.ndarray) -> tuple[float, np.ndarray]:
    """Expected failed saves and figures (:attr:`~.kernels.Kernel.figures`) of the dice of a
    first class: sum_c P(c_1 > c) x <fail, mass of U[c]> (per bracket)."""
    fs, fig = 0.0, np.zeros(4)
    for c in range(len(u)):
        per_state = _mass(u[c]) @ tails[c]
        fs += float(k.fail @ per_state)
        fig += per_state @ k.figures
    return fs, fig


def _after_first(
    g: np.ndarray, total: np.ndarray, b1: np.ndarray, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """A[c, r, slot, ...] = g[c + r, slot] x P(c of c + r dice in the first class): the weight
    of c dice in it and r left; and the same for the total P(n) (one slot)."""
    n = g.shape[0]
    c = np.arange(count)[:, None]
    r = np.arange(n)[None, :]
    idx = c + r
    ok = idx < n
    safe = np.where(ok, idx, 0)
    coef = np.where(ok, b1[safe, np.broadcast_to(c, safe.shape)], 0.0)  # (count, n)
    a = g[safe] * coef.reshape(count, n, 1, 1, 1)
    a_total = (total[safe] * coef[..., None])[:, :, None, None, :]
    return a, a_total


class _Powers:
    """The first class's powers U[c] (c, S, F, P, B), laid out once for the products over the
    counts: per bracket, a (c, S * F * P) matrix (a view when there is one bracket)."""

    def __init__(self, u: np.ndarray):
        self.u = u
        cin, S, F, P, B = u.shape
        self.shape = (S, F, P, B)
        if B == 1:
            self.mats = [u.reshape(cin, S * F * P)]
        else:
            t = np.ascontiguousarray(np.moveaxis(u, -1, 0))
            self.mats = [t[b].reshape(cin, S * F * P) for b in range(B)]

    def contract(self, q: np.ndarray) -> np.ndarray:
        """out[c', s, f, p, slot, b] = sum_c q[c, c', slot, f, b] U[c, s, f, p, b]: a matrix
        product per bracket (BLAS) when the weights do not depend on the figure bin, else a
        weighted sum over c (one pass over U per c: the figure pass's folded weights)."""
        cin, cout, slots, fq, bq = q.shape
        S, F, P, B = self.shape
        if fq > 1:
            out = np.zeros((cout, S, F, P, slots, B), dtype=np.result_type(q, self.u))
            for c in range(cin):
                w = q[c].transpose(0, 2, 1, 3)[:, None, :, None]  # (cout, 1, F, 1, slots, B)
                out += w * self.u[c][None, :, :, :, None, :]
            return out
        if B == 1 and cout == 1:
            res = self.mats[0].T @ q.reshape(cin, slots)
            return res.reshape(1, S, F, P, slots, 1)
        out = np.empty((cout, S, F, P, slots, B), dtype=np.result_type(q, self.u))
        for b in range(B):
            qb = q[:, :, :, 0, b if bq > 1 else 0].reshape(cin, cout * slots)
            res = (self.mats[b].T @ qb).reshape(S, F, P, cout, slots)
            out[..., b] = res.transpose(3, 0, 1, 2, 4)
        return out


def _sweep(y: np.ndarray, cls: FailClass, step: Step, expect: bool):
    """A class between the first and the last: of the r dice left, c ~ Binomial(r, q) are
    in it; returns the array over the dice left after it, and its expectations."""
    n = y.shape[0]
    b, tail = binomials(n, cls.q)
    x = np.moveaxis(y, 0, -1)  # (S, F, P, slots, B, r)
    out = np.zeros_like(x)
    cur = x
    fs = fig = 0.0
    for c in range(n):
        out[..., : n - c] += cur * b[c:, c]
        t = tail[c:, c]
        if not (t > TAIL_EPS).any():
            break
        if expect:  # the total slot is the last
            per_state = _mass(cur[:, :, :, -1] @ t)
            fs += float(cls.kernel.fail @ per_state.sum(axis=1))
            fig = fig + per_state.sum(axis=1) @ cls.kernel.figures
        cur = step(np.ascontiguousarray(cur[..., 1:]), cls.kernel)
    return np.ascontiguousarray(np.moveaxis(out, -1, 0)), fs, fig

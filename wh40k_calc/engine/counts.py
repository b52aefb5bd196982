"""Counts of independent, identically distributed dice: the sampler's way of rolling many at once.

When ``n`` dice each land in one of ``k`` outcome classes independently with the same
probabilities (the Hit rolls of one weapon's attacks, the Wound rolls of its hits, the Feel No
Pain rolls of one attack's damage), what the attack sequence needs from them is only how many
landed in each class: a multinomial draw of ``n`` over the class probabilities. The sampler
draws that count once per trial and stage instead of rolling every die. It stays a simulation
of the dice: the class probabilities come from enumerating the faces of one die (with its
re-roll) here, and the counts are drawn, never read from the exact engine.

Two ways to draw, chosen by size, both exact in distribution:

- small ``n`` (every composition of ``n`` into ``k`` classes fits a table): one uniform number
  per trial located in the cumulative probabilities of the compositions of that trial's ``n``
  (inverse transform), found with a guide table in a few vectorised steps;
- otherwise numpy's multinomial generator, one row per trial (its cost no longer grows with the
  number of dice, so large pools are cheap too).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb, lgamma

import numpy as np

from ..profile import RollTable

TABLE_ENTRIES = 1 << 15  # compositions a table may hold (all n up to its largest)
GUIDE_ENTRIES = 1 << 18  # guide cells of a table, over all n (2 MB)


@lru_cache(maxsize=256)
def die_classes(table: RollTable, classes: int, marked: bool = False) -> np.ndarray:
    """The probability of each outcome class of one die rolled with ``table``, its re-roll
    included (Core rules: Re-rolls: the second result stands), counted over the 36 pairs of
    first and second results.

    Args:
        table: the roll (outcome class per unmodified face, faces re-rolled).
        classes: number of outcome classes (3 for Hit and Wound rolls, 2 for saving throws).
        marked: split class 0 (a failure) into "failed, not re-rolled" (index 0) and "failed
            after a re-roll" (index 1); the other classes move up by one. A Command Re-roll
            can take only the first kind.

    Returns:
        float array of length ``classes`` (``classes + 1`` when ``marked``), summing to 1;
        read-only (worked out once per table).
    """
    sixths = np.zeros(classes + 1, dtype=np.int64)  # in 36ths
    for first in range(1, 7):
        if table.reroll[first]:
            for second in range(1, 7):
                c = table.outcome[second]
                sixths[c + 1 if c else 1] += 1
        else:
            c = table.outcome[first]
            sixths[c + 1 if c else 0] += 6
    out = sixths / 36 if marked else np.concatenate([[sixths[0] + sixths[1]], sixths[2:]]) / 36
    out.flags.writeable = False
    return out


@dataclass(frozen=True)
class _Table:
    """Every composition of 0..``nmax`` dice into the classes, grouped by ``n``, with the upper
    end of each one's interval of [0, 1) and a guide to the first candidate per 1/``cells``.

    ``parts[j, e]`` is the count of class j in entry e (rows of zeros for classes that cannot
    happen); the entries of ``n`` dice are ``start[n] .. start[n + 1] - 1`` and ``upper``
    (scaled by ``cells``) runs up to ``cells`` within each group; ``guide[n * cells + g]`` is
    the entry whose interval holds ``g / cells``, bit-inverted (negative) when the interval
    ends inside the cell."""

    parts: np.ndarray
    upper: np.ndarray
    guide: np.ndarray
    cells: int
    start: np.ndarray

    @classmethod
    def build(cls, probs: tuple[float, ...], nmax: int) -> _Table:
        live = [j for j, p in enumerate(probs) if p > 0]
        grid = np.zeros((1, 0), dtype=np.int64)
        for _ in live:  # every tuple of counts of the live classes with sum <= nmax
            left = nmax - grid.sum(axis=1)
            reps = left + 1
            base = np.repeat(grid, reps, axis=0)
            step = np.arange(reps.sum()) - np.repeat(np.cumsum(reps) - reps, reps)
            grid = np.hstack([base, step[:, None]])
        n = grid.sum(axis=1)
        order = np.argsort(n, kind="stable")
        grid, n = grid[order], n[order]
        logfact = np.array([lgamma(i + 1) for i in range(nmax + 1)])
        logp = np.log(np.asarray(probs)[live])
        p = np.exp(logfact[n] - logfact[grid].sum(axis=1) + grid @ logp)
        start = np.searchsorted(n, np.arange(nmax + 2))
        upper = np.cumsum(p)
        offset = np.repeat(np.concatenate([[0.0], upper[start[1:-1] - 1]]), np.diff(start))
        upper = upper - offset
        upper[start[1:] - 1] = 1.0  # each group ends at 1 exactly: nothing falls past it
        widest = int(np.diff(start).max())
        # a power of two (u * cells is exact), 8 to 16 cells an entry so that most cells hold
        # no boundary, fewer for a large table, never fewer than 2 to 4 an entry
        cells = (8 * widest - 1).bit_length()
        cells = min(cells, (GUIDE_ENTRIES // (nmax + 1)).bit_length() - 1)
        cells = 1 << max(cells, (2 * widest - 1).bit_length(), 4)
        edges = np.arange(cells) / cells
        guide = np.concatenate(
            [
                start[m] + np.searchsorted(upper[start[m] : start[m + 1]], edges, side="right")
                for m in range(nmax + 1)
            ]
        )
        upper = upper * cells  # exact: a power of two
        mixed = upper[guide] < np.tile(np.arange(1, cells + 1), nmax + 1)
        guide[mixed] = ~guide[mixed]  # a boundary inside the cell: the entry is only the first
        parts = np.zeros((len(probs), len(n)), dtype=np.int64)
        parts[live] = grid.T
        return cls(parts, upper, guide.astype(np.int64), cells, start)

    def locate(self, u: np.ndarray, n: np.ndarray) -> np.ndarray:
        """The entry whose interval holds each ``u`` (uniform in [0, 1); overwritten) among the
        compositions of its ``n`` dice."""
        u *= self.cells  # exact: a power of two
        idx = u.astype(np.int64)
        idx += n * self.cells
        idx = self.guide[idx]
        mixed = np.flatnonzero(idx < 0)
        if mixed.size:  # cells that hold a boundary: the first entry of the group past u
            at, nm = u[mixed], n[mixed]
            low, high = int(nm.min()), int(nm.max())
            for m in [low] if low == high else np.unique(nm).tolist():
                sel = np.flatnonzero(nm == m) if low != high else slice(None)
                a, b = self.start[m], self.start[m + 1]
                idx[mixed[sel]] = a + np.searchsorted(self.upper[a:b], at[sel], side="right")
        return idx


class Counts:
    """Per trial, how many dice landed in each class; ``counts[j]`` is class j's row (int64,
    one entry per trial), gathered from the table when first read. ``drawn``: the random
    numbers the draw took."""

    def __init__(self, parts: np.ndarray, idx: np.ndarray | None = None, drawn: int = 0):
        self._parts = parts
        self._idx = idx
        self._rows: dict[int, np.ndarray] = {}
        self.drawn = drawn

    def __getitem__(self, j: int) -> np.ndarray:
        if self._idx is None:
            return self._parts[j]
        if j not in self._rows:
            self._rows[j] = self._parts[j].take(self._idx)
        return self._rows[j]

    def sum_of(self, classes: tuple[int, ...]) -> np.ndarray:
        """Per trial, the dice that landed in any of ``classes`` (int64): from a table, the
        entries' sums gathered once instead of a row per class added up."""
        if self._idx is None:
            return self._parts[list(classes)].sum(axis=0)
        return self._parts[list(classes)].sum(axis=0).take(self._idx)


def table_entries(classes: int, nmax: int) -> int:
    """Compositions of 0..``nmax`` dice into ``classes`` classes (a table's size)."""
    return comb(nmax + classes, classes)


@lru_cache(maxsize=1024)
def uses_table(classes: int, nmax: int) -> bool:
    """True when counts of up to ``nmax`` dice in ``classes`` live classes are drawn from a
    table (one uniform number a trial), False when numpy's multinomial draws them (one binomial
    per class but the last, a trial)."""
    if nmax <= 0 or classes <= 1:
        return True
    return table_entries(classes, 1 << (nmax - 1).bit_length()) <= TABLE_ENTRIES


@lru_cache(maxsize=256)
def _classes(raw: bytes, k: int) -> tuple[np.ndarray, np.ndarray, tuple[float, ...]]:
    """The live classes of the class probabilities ``raw`` (``k`` float64), the probabilities
    normalised over them, and those as a tuple (a table's key): worked out once per set."""
    probs = np.frombuffer(raw, dtype=np.float64, count=k)
    live = np.flatnonzero(probs > 0)
    p = probs / probs[live].sum()
    return live, p, tuple(float(x) for x in p)


@lru_cache(maxsize=32)  # at most about 3 MB each
def _table(probs: tuple[float, ...], nmax: int) -> _Table:
    return _Table.build(probs, nmax)


def draw_counts(rng: np.random.Generator, n: np.ndarray, probs: np.ndarray) -> Counts:
    """How many of ``n[i]`` independent dice land in each class, for every ``i``.

    Args:
        rng: the random source.
        n: int array of dice counts (>= 0), one per trial.
        probs: probability of each class for one die (sums to 1).

    Returns:
        :class:`Counts`: ``counts[j]`` is the int64 array of class j's counts per trial.
    """
    n = np.asarray(n, dtype=np.int64)
    live, p, key = _classes(probs.tobytes(), len(probs))
    nmax = int(n.max(initial=0))
    if live.size == 1 or nmax == 0:
        out = np.zeros((len(probs), n.size), dtype=np.int64)
        out[live[0]] = n
        return Counts(out)
    if uses_table(live.size, nmax):
        bucket = 1 << (nmax - 1).bit_length()  # one table serves every chunk up to the bucket
        table = _table(key, bucket)
        return Counts(table.parts, table.locate(rng.random(n.size), n), n.size)
    drawn = rng.multinomial(n, p[live]).T
    if live.size < len(probs):
        out = np.zeros((len(probs), n.size), dtype=np.int64)
        out[live] = drawn
        drawn = out
    return Counts(drawn, None, n.size * (live.size - 1))

"""The exact engine's view of an exchange: the joint distribution of both units' states.

``matrix[i, j]`` is P(unit A is in state ``a.rows[i]`` and unit B in state ``b.rows[j]``); a
state is a row of wounds lost per allocation group (:class:`~wh40k_calc.profile.TargetStates`),
so models left of each kind, the wounded model and each Leader's wounds. The states of each unit
are indexed as they appear (:class:`StateIndex`), so the matrix only holds states reached.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..profile import TargetStates


class StateIndex:
    """The states of one unit reached so far, each with an index (in order of appearance)."""

    def __init__(self, shape: tuple, first: np.ndarray):
        self.shape = shape
        self._rows: list[np.ndarray] = []
        self._index: dict[bytes, int] = {}
        self.add(first)

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def rows(self) -> np.ndarray:
        """Every state, in index order (states × groups, int64)."""
        return np.array(self._rows, dtype=np.int64).reshape(len(self._rows), len(self.shape))

    def add(self, lost: np.ndarray) -> np.ndarray:
        """The index of each row of ``lost``, adding the states not seen yet."""
        lost = np.ascontiguousarray(np.asarray(lost, dtype=np.int64)).reshape(-1, len(self.shape))
        out = np.empty(len(lost), dtype=np.int64)
        for k, row in enumerate(lost):
            key = row.tobytes()
            i = self._index.get(key)
            if i is None:
                i = self._index[key] = len(self._rows)
                self._rows.append(row.copy())
            out[k] = i
        return out

    def dense(self, states: TargetStates, size: int | None = None) -> np.ndarray:
        """A distribution over some of this unit's states as a vector over the index (length
        ``size``, at least the index's length after adding them)."""
        idx = self.add(states.lost)
        out = np.zeros(max(size or 0, len(self)))
        np.add.at(out, idx, np.asarray(states.weights, dtype=float))
        return out


@dataclass
class Joint:
    """The joint distribution of both units' states (see the module docstring)."""

    a: StateIndex
    b: StateIndex
    matrix: np.ndarray
    neglected: float = 0.0  # probability left unresolved (classes below the threshold)
    index: dict = field(init=False)

    def __post_init__(self) -> None:
        self.index = {"a": self.a, "b": self.b}

    @classmethod
    def start(cls, a: TargetStates, b: TargetStates) -> Joint:
        """Both units in their starting states (independent)."""
        ia, ib = StateIndex(a.shape, a.lost), StateIndex(b.shape, b.lost)
        wa = np.zeros(len(ia))
        np.add.at(wa, ia.add(a.lost), np.asarray(a.weights, dtype=float))
        wb = np.zeros(len(ib))
        np.add.at(wb, ib.add(b.lost), np.asarray(b.weights, dtype=float))
        return cls(ia, ib, np.outer(wa, wb))

    def oriented(self, side: str) -> np.ndarray:
        """The matrix with ``side``'s states as rows (a copy)."""
        return self.matrix.copy() if side == "a" else self.matrix.T.copy()

    def set_oriented(self, side: str, m: np.ndarray) -> None:
        """Set the matrix from one with ``side``'s states as rows."""
        self.matrix = m if side == "a" else np.ascontiguousarray(m.T)

    def pad(self) -> None:
        """Grow the matrix to the states indexed so far (another part of the distribution,
        sharing the indices, may have added some: :meth:`part`)."""
        shape = (len(self.a), len(self.b))
        if self.matrix.shape != shape:
            out = np.zeros(shape)
            out[: self.matrix.shape[0], : self.matrix.shape[1]] = self.matrix
            self.matrix = out

    def part(self, mask: np.ndarray) -> Joint:
        """The part of the distribution where ``mask`` (a boolean matrix over the pairs of
        states, A's as rows) holds, sharing this one's state indices."""
        self.pad()
        return Joint(self.a, self.b, np.where(mask, self.matrix, 0.0))

    def join(self, *parts: Joint) -> None:
        """This distribution becomes the sum of ``parts`` (made by :meth:`part`), their
        neglected probability added to its own."""
        total = np.zeros((len(self.a), len(self.b)))
        for q in parts:
            q.pad()
            total += q.matrix
            self.neglected += q.neglected
        self.matrix = total

    def marginal(self, side: str) -> np.ndarray:
        """P(each state of ``side``'s unit)."""
        return self.matrix.sum(axis=1) if side == "a" else self.matrix.sum(axis=0)

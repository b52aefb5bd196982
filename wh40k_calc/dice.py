"""Dice expressions: ``3``, ``D3``, ``D6+1``, ``2D6``, ``D3+3``, ``D6-1``.

A :class:`Dice` is parsed once and then gives its exact distribution as a probability
vector (index = value) and draws samples with numpy. Used for the A and D characteristics,
[RAPID FIRE X], [SUSTAINED HITS X], [MELTA X] and mortal-wound rolls.
"""

from __future__ import annotations

import re
from functools import cached_property
from math import comb
from typing import TYPE_CHECKING

from msgspec import Struct

if TYPE_CHECKING:  # numpy is imported where a distribution is built: parsing needs none
    import numpy as np

# "3", "D6", "2D6", "D6+1", "D3-1": a bonus after dice needs its sign ("D66" is refused).
_DICE_RE = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(3|6)\s*(?:([+-])\s*(\d+))?|(\d+))\s*$")


MAX_VALUE = 200  # no characteristic or roll in the game comes near this


class DiceError(ValueError):
    """A dice expression that does not parse; the message quotes the bad text."""


class Dice(Struct, frozen=True, cache_hash=True, dict=True):  # dict: the cached pmf
    """A sum of ``count`` dice with ``sides`` faces plus ``bonus`` (which may be negative).

    ``Dice(0, 6, 3)`` is the constant 3, ``Dice(2, 6, 0)`` is 2D6, ``Dice(1, 3, 3)`` is D3+3.
    Values never go below 0 (a constant or a negative bonus is clipped at 0).
    """

    count: int
    sides: int
    bonus: int = 0

    @classmethod
    def parse(cls, text: str | int | Dice) -> Dice:
        """Parse ``text`` (an int, ``"D6+2"``, ``"2D3"``, ...).

        Raises:
            DiceError: if the text is not a dice expression.
        """
        if isinstance(text, Dice):
            return text
        if isinstance(text, bool):
            raise DiceError(f"not a dice expression: {text!r}")
        if isinstance(text, int):
            if text < 0:
                raise DiceError(f"negative value: {text}")
            if text > MAX_VALUE:
                raise DiceError(f"value out of range (0-{MAX_VALUE}): {text}")
            return cls(0, 6, text)
        if not isinstance(text, str):
            raise DiceError(f"not a dice expression: {text!r}")
        m = _DICE_RE.match(text)
        if not m:
            raise DiceError(f"not a dice expression: {text!r} (expected e.g. 3, D3, D6+1, 2D6)")
        count_s, sides_s, sign, bonus_s, const_s = m.groups()
        if const_s is not None:
            if int(const_s) > MAX_VALUE:
                raise DiceError(f"value out of range (0-{MAX_VALUE}): {text!r}")
            return cls(0, 6, int(const_s))
        count = int(count_s) if count_s else 1
        if count < 1 or count > 20:
            raise DiceError(f"dice count out of range in {text!r}")
        bonus = int(bonus_s) if bonus_s else 0
        if bonus > MAX_VALUE:
            raise DiceError(f"value out of range (0-{MAX_VALUE}): {text!r}")
        if sign == "-":
            bonus = -bonus
        return cls(count, int(sides_s), bonus)

    @property
    def is_constant(self) -> bool:
        """True when no die is rolled."""
        return self.count == 0

    @cached_property
    def pmf(self) -> np.ndarray:
        """Exact distribution: ``pmf[v]`` is P(value == v), float64, sums to 1."""
        import numpy as np

        dist = np.zeros(1)
        dist[0] = 1.0
        face = np.full(self.sides, 1.0 / self.sides)
        for _ in range(self.count):
            dist = np.convolve(dist, face)
        # dist[i] is P(sum of dice == i + count)
        low = self.count + self.bonus
        out_len = max(low + len(dist), 1)
        out = np.zeros(out_len)
        for i, p in enumerate(dist):
            out[max(low + i, 0)] += p
        return out

    @property
    def max_value(self) -> int:
        """Largest value the expression can take."""
        if self.count == 0:
            return max(self.bonus, 0)
        return max(self.count * self.sides + self.bonus, 0)

    @property
    def mean(self) -> float:
        """Expected value."""
        import numpy as np

        return float(np.dot(np.arange(len(self.pmf)), self.pmf))

    def sample(self, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
        """Draw ``size`` independent values (int64) by rolling the dice."""
        import numpy as np

        if self.count == 0:
            return np.full(size, max(self.bonus, 0), dtype=np.int64)
        shape = (size,) if isinstance(size, int) else tuple(size)
        rolls = rng.integers(1, self.sides + 1, size=(*shape, self.count), dtype=np.int64)
        return np.maximum(rolls.sum(axis=-1) + self.bonus, 0)

    def __str__(self) -> str:
        if self.count == 0:
            return str(max(self.bonus, 0))
        head = f"{self.count if self.count > 1 else ''}D{self.sides}"
        if self.bonus > 0:
            return f"{head}+{self.bonus}"
        if self.bonus < 0:
            return f"{head}{self.bonus}"
        return head


def constant(value: int) -> Dice:
    """The constant ``value`` as a :class:`Dice`."""
    return Dice(0, 6, value)


def pmf_sample(pmf: np.ndarray, rng: np.random.Generator, size: int) -> np.ndarray:
    """Draw ``size`` values from ``pmf`` by inverse CDF (one uniform per value)."""
    import numpy as np

    cdf = np.cumsum(pmf)
    cdf[-1] = 1.0
    return np.searchsorted(cdf, rng.random(size), side="right").astype(np.int64)


def thin(pmf: np.ndarray, keep: float) -> np.ndarray:
    """Distribution of the points kept when each of ``d ~ pmf`` points is kept independently
    with probability ``keep`` (Feel No Pain: one roll per point)."""
    if keep >= 1.0:
        return pmf.copy()
    import numpy as np

    out = np.zeros(len(pmf))
    for d, p in enumerate(pmf):
        if p:
            for k in range(d + 1):
                out[k] += p * comb(d, k) * keep**k * (1 - keep) ** (d - k)
    return out

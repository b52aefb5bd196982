"""Small array helpers the engines share.

``numpy.unique`` of a plain 1-D array imports ``numpy.ma`` on first use (to test for a masked
array): about 5 ms of every ``calc`` start, for sets of a handful of integers.
"""

from __future__ import annotations

import numpy as np


def distinct(values: np.ndarray) -> list[int]:
    """The distinct integers of ``values`` (any shape), ascending, as Python ints: the same
    as ``numpy.unique(values).tolist()`` for an integer array."""
    return sorted(set(values.ravel().tolist()))

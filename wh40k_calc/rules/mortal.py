"""Mortal-wound rolls outside the attack sequence, as count distributions (index = mortal
wounds): the Grenade stratagem and Bloody Stampede (seeds 000 and 004)."""

from __future__ import annotations

from math import comb

import numpy as np


def grenade() -> np.ndarray:
    """GRENADE: roll six D6, each 4+ inflicts one mortal wound (Binomial(6, 1/2))."""
    return np.array([comb(6, k) / 64 for k in range(7)])


def bloody_stampede() -> np.ndarray:
    """Bloody Stampede: D6; 1: nothing; 2-3: 1 mortal wound; 4-5: D3; 6: D3+3."""
    out = np.zeros(7)
    out[0] += 1 / 6
    out[1] += 2 / 6
    for k in (1, 2, 3):
        out[k] += 2 / 6 / 3
        out[k + 3] += 1 / 6 / 3
    return out


MORTAL_ROLLS = {"grenade": grenade, "bloody-stampede": bloody_stampede}

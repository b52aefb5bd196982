"""10th edition (the default): the core rules in seeds 000 and 001 and the seeds README.

Every rule of this edition is the shared behaviour of :class:`~wh40k_calc.rules.base.Rules`,
whose hooks cite the sections they implement (Hit Roll, Wound Roll, Saving Throw,
Invulnerable Saves, Benefit of Cover, Re-rolls, Rapid Fire, Blast, Hazardous, Devastating
Wounds, Mortal Wounds, Anti, Pistol, Leader, Sustained Hits, Lethal Hits, Heavy).
"""

from __future__ import annotations

from .base import Rules


class Edition10(Rules):
    """10th-edition rules."""

    edition = "10"

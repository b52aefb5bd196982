"""Mortal wounds outside the attack sequence (Core rules: Mortal Wounds, Hazardous; edition 11:
06.02 Mortal Wounds, 06.03 Hazard Rolls): the rolls some rules make before the attacks (the
Grenade stratagem, Bloody Stampede: seeds 000 and 004), as count distributions (index =
mortal wounds), and the attacking unit as the track its own Hazardous mortal wounds are
allocated along.

How many Hazardous tests fail and what each inflicts is the edition's
(:meth:`~.edition.Edition.hazard`); allocation of mortal wounds (wounded model first, damage
spilling over) is the engines' (``engine/allocation.py``).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

import numpy as np

from ..abilities import WeaponAbilities
from ..profile import MortalWounds, TargetModel, TargetProfile
from . import common as c
from .damage import feel_no_pain
from .target import is_character

if TYPE_CHECKING:
    from ..units import ModelGroup, Unit
    from .situation import Situation
    from .target import Kind


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


def before_attacks(s: Situation, kinds: list[Kind]) -> list[MortalWounds]:
    """The mortal wounds the attacker's effects inflict on the target before the attacks
    (an effect's ``mortal_wounds`` names its roll in :data:`MORTAL_ROLLS`), each with the
    chance that Feel No Pain against mortal wounds ignores one, per kind of target model
    (``kinds``)."""
    out = []
    for e in s.applied.attacker:
        if not e.mortal_wounds:
            continue
        count = MORTAL_ROLLS[e.mortal_wounds]()
        fnp = tuple(
            c.fnp_chance(feel_no_pain(s.sel, WeaponAbilities(), k, s.applied.target)[1])
            for k in kinds
        )
        out.append(MortalWounds(e.name, count, fnp))
    return out


def attacker_track(
    attacker: Unit, groups: list[ModelGroup]
) -> tuple[TargetProfile, tuple[float, ...], tuple[int, ...]]:
    """The attacking unit's models in ``groups`` as an allocation track for mortal wounds it
    suffers: non-CHARACTER models first, then CHARACTER models; each kind's Feel No Pain
    chance (against mortal wounds: the better of its two); and per model of the track, the
    index of its group in ``attacker.groups`` (-1 for a model standing by with ``--weapon``).
    """
    ordered = [g for g in groups if not is_character(g)] + [g for g in groups if is_character(g)]
    name = attacker.name
    index = [next((i for i, x in enumerate(attacker.groups) if x is g), -1) for g in ordered]
    models: list[TargetModel] = []
    fnp: list[float] = []
    for g in ordered:  # mortal wounds: Feel No Pain against mortal wounds counts too
        fnp.append(c.fnp_chance(c.best_of(g.profile.feel_no_pain, g.profile.feel_no_pain_mortal)))
        models.extend(
            TargetModel(g.profile.name, g.profile.W, len(fnp) - 1) for _ in range(g.count)
        )
    kinds = tuple(g.profile.name for g in ordered)
    groups_of = tuple(i for i, g in zip(index, ordered, strict=True) for _ in range(g.count))
    return TargetProfile(name, tuple(models), (), kinds), tuple(fnp), groups_of

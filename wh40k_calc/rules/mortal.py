"""Mortal wounds outside the attack sequence (Core rules: Mortal Wounds, Hazardous; edition 11:
06.02 Mortal Wounds, 06.03 Hazard Rolls): the rolls some rules make before the attacks (the
Grenade stratagem, Bloody Stampede: seeds 000 and 004; any record's ``mortal_wounds``), as
count distributions (index = mortal wounds), and the attacking unit as the track its own
Hazardous mortal wounds are allocated along (a damaged single model with the wounds it has
left: :func:`from_wounds_left`).

How many Hazardous tests fail and what each inflicts is the edition's
(:meth:`~.edition.Edition.hazard`); allocation of mortal wounds (wounded model first, damage
spilling over) is the engines' (``engine/allocation.py``).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

import numpy as np

from ..abilities import WeaponAbilities
from ..dice import Dice
from ..profile import HazardProfile, MortalWounds, TargetModel, TargetProfile
from ..records import replace
from . import common as c
from .damage import feel_no_pain
from .target import is_character

# a Psychic ability's mortal wounds: Psychic Attacks (22.03 Psychic Abilities), as a [PSYCHIC]
# weapon's attacks are for Feel No Pain
PSYCHIC = WeaponAbilities(psychic=True)

if TYPE_CHECKING:
    from ..effect_schema import MortalWounds as MortalWoundsSpec
    from ..units import ModelGroup, Unit
    from .situation import Situation
    from .target import Kind


def mortal_count(spec: MortalWoundsSpec, models: int) -> np.ndarray:
    """The distribution of the mortal wounds a record's roll inflicts (index = mortal
    wounds; 06.02 Mortal Wounds; the shapes of :class:`~wh40k_calc.effect_schema.
    MortalWounds`): ``dice`` (that many); ``rolls`` D6 (``models``: one per model of the
    attacking unit, ``models``; ``extra_rolls`` more), each of ``on``+ after ``bonus``
    inflicting ``each``; one D6 plus ``bonus`` looked up in a ``table``; at most ``max`` in
    all."""
    if spec.dice is not None:
        out = Dice.parse(spec.dice).pmf
    elif spec.rolls is not None:
        n = (models if spec.rolls == "models" else int(spec.rolls)) + (spec.extra_rolls or 0)
        assert spec.on is not None and spec.each is not None
        need = min(7, max(1, spec.on - spec.bonus))  # the D6 result that passes
        p = (7 - need) / 6
        each = Dice.parse(spec.each).pmf
        power = np.ones(1)
        total = np.zeros(1)
        for k in range(n + 1):  # k successes of n, each inflicting ``each``
            if k:
                power = np.convolve(power, each)
            weight = comb(n, k) * p**k * (1 - p) ** (n - k)
            if weight:
                total = _add(total, weight * power)
        out = total
    else:
        out = np.zeros(1)
        for face in range(1, 7):
            result = face + spec.bonus
            row = next((r for r in spec.table or () if r.low <= result <= r.high), None)
            part = Dice.parse(row.wounds).pmf if row is not None else np.ones(1)
            out = _add(out, part / 6)
    if spec.max is not None and len(out) > spec.max + 1:
        out = np.concatenate([out[: spec.max], [out[spec.max :].sum()]])
    return out


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = max(len(a), len(b))
    out = np.zeros(n)
    out[: len(a)] += a
    out[: len(b)] += b
    return out


def before_attacks(s: Situation, kinds: list[Kind]) -> list[MortalWounds]:
    """The mortal wounds the attacker's effects inflict on the target before the attacks
    (``mortal_wounds`` changes whose conditions hold: :func:`mortal_count`), each with the
    chance that Feel No Pain against mortal wounds ignores one, per kind of target model
    (``kinds``); for a roll marked ``psychic`` (a Psychic ability's: its wounds are Psychic
    Attacks), Feel No Pain against Psychic Attacks counts too."""
    out = []
    for piece in s.changes.unit("attacker", "mortal_wounds"):
        spec: MortalWoundsSpec = piece.value  # type: ignore[assignment]
        count = mortal_count(spec, s.attacker.models)
        ab = PSYCHIC if spec.psychic else WeaponAbilities()
        fnp = tuple(c.fnp_chance(feel_no_pain(s, ab, k, None)[1]) for k in kinds)
        out.append(MortalWounds(piece.name, count, fnp))
    return out


def from_wounds_left(hz: HazardProfile | None, wounds_left: int | None) -> HazardProfile | None:
    """The Hazardous tests ``hz`` of an attacking model that has only ``wounds_left`` wounds
    left (``--wounds-left N``: a unit of one model): its mortal wounds come off the wounds it
    has left, so it is on the track as a model of W ``wounds_left`` (Core rules: Hazardous, the
    model selected "has lost one or more wounds"; 06.03 Hazard Rolls and 06.02 Mortal Wounds: a
    model whose remaining wounds reach 0 is destroyed). ``hz`` unchanged without the option."""
    if hz is None or wounds_left is None:
        return hz
    models = tuple(replace(m, W=min(m.W, wounds_left)) for m in hz.carriers.bodyguard)
    return replace(hz, carriers=replace(hz.carriers, bodyguard=models))


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

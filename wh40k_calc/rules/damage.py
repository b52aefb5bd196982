"""Damage and Feel No Pain (Core rules: Inflict Damage, Feel No Pain, Melta, Mortal Wounds;
edition 11: 05.04 Inflict Damage, 05.04.02 Modifying Damage, 24.12 Feel No Pain, 24.25
[MELTA]): what one failed save does to one kind of target model.

Damage is the weapon's D, plus [MELTA X] within half range, halved (the model's ability or
``--half-damage``) — in 10th edition before anything is added or subtracted, in edition 11
after the additions and before the subtractions (02.02.01 Applying Modifiers:
:meth:`~.edition.Edition.halve_after_adding`) — reduced by the model's and the target's
abilities, never below 1 (:func:`~wh40k_calc.rules.common.damage_table`); each point
may then be ignored by Feel No Pain, of which a model can have several kinds (against every
attack, against mortal wounds only, against Psychic Attacks only). :func:`vs_model` joins this
with the saving throw (``save``) into the piece the engines read per kind of model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..profile import VsModel
from . import common as c
from .save import save_table

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..datasheet import Weapon
    from ..effects import Effect
    from ..selection import Selection
    from .situation import Situation
    from .target import Kind


def feel_no_pain(
    sel: Selection, ab: WeaponAbilities, k: Kind, tgt: list[Effect]
) -> tuple[int | None, int | None]:
    """Feel No Pain X+ (None: none) of a model of kind ``k`` against an attack's normal damage
    and against mortal wounds (Core rules: Feel No Pain): the best of the model's, the
    target's effects' and ``--fnp`` / ``--fnp-mortal``; one "against Psychic Attacks" counts
    for a [PSYCHIC] weapon's (``ab``) damage of both kinds, one "against mortal wounds" for
    mortal wounds only."""
    mods = sel.modifiers
    psychic = [k.fnp_psychic, *(e.fnp_psychic for e in tgt)] if ab.psychic else []
    normal = c.best_of(k.fnp, mods.fnp, *psychic)
    mortal = c.best_of(normal, mods.fnp_mortal, k.fnp_mortal, *(e.fnp_mortal for e in tgt))
    return normal, mortal


def vs_model(s: Situation, w: Weapon, ab: WeaponAbilities, ap_improve: int, k: Kind) -> VsModel:
    """What ``w``'s attacks (abilities ``ab`` after effects, AP improved by ``ap_improve``)
    do to a model of kind ``k`` once they wound it: its saving throw (:func:`~.save.save_table`),
    the Damage roll (D, [MELTA X] within half range, halving, ``--damage-mod``, reductions;
    re-rolled with ``--reroll-damage`` where that raises the effective damage against a model
    of ``k.W`` wounds) and the chances that Feel No Pain ignores a point of normal damage and
    of a mortal wound."""
    sel, tgt = s.sel, s.applied.target
    mods, cond = sel.modifiers, sel.conditions
    save = save_table(s, w, ab, ap_improve, k)
    fnp, fnp_m = feel_no_pain(sel, ab, k, tgt)
    # the model's own "subtract N from the Damage characteristic" / "halve the Damage"
    reduce = mods.damage_reduction + sum(e.damage_reduction for e in tgt) + k.damage_reduction
    melta = ab.melta if (ab.melta is not None and cond.half_range and not w.is_melee) else None
    dmg = c.damage_table(
        w.D,
        melta,
        mods.half_damage or k.half_damage,
        mods.damage_mod,
        reduce,
        mods.reroll_damage,
        1 - c.fnp_chance(fnp),
        k.W,
        str(w.D),
        s.edition.halve_after_adding(),
    )
    return VsModel(save, dmg, c.fnp_chance(fnp), c.fnp_chance(fnp_m))

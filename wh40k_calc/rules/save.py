"""The saving throw (Core rules: Saving Throw, Invulnerable Saves, Benefit of Cover; edition 11:
05.03 Save Rolls, 05.03.01 Saving Throw, 13.08 Benefit Of Cover): the table of the save one
kind of target model makes against one weapon's attacks.

The armour save is the model's Sv worsened by AP (never above 0), with +1 for the Benefit of
Cover where the edition gives it as a save bonus (:meth:`~.edition.Edition.save_cover`: 10th
edition; edition 11 worsens BS instead, ``hit``) and never improved by more than 1; an
invulnerable save ignores AP and cover; the defender takes whichever is less likely to fail.
Whether one profile's saves are rolled together (edition 11) is the engines' business, told by
:meth:`~.edition.Edition.saves_lowest_first`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..profile import RollTable
from . import common as c

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..datasheet import Weapon
    from .situation import Situation
    from .target import Kind


def save_table(
    s: Situation, w: Weapon, ab: WeaponAbilities, ap_improve: int, k: Kind
) -> RollTable | None:
    """The saving throw of target models of kind ``k`` against ``w``'s attacks (abilities
    ``ab`` after effects, AP improved by ``ap_improve``), or None when no result saves.

    Armour Sv modified by AP, +1 for cover (ranged, not [IGNORES COVER], not Sv 3+ or better
    against AP 0), ``--save-mod``, never improved by more than 1; or the invulnerable save
    (never modified by AP or cover; a ranged-only one not against melee attacks), whichever
    is better (Core rules: Invulnerable Saves). AP never goes above 0 (a negative
    ``--ap-mod``, or a target's ability worsening AP, brings it down to 0 at most).
    ``--reroll-saves`` re-rolls a 1 or every failed save."""
    mods, tgt = s.sel.modifiers, s.applied.target
    ap = min(0, w.AP - ap_improve + sum(e.ap_worsen for e in tgt))
    cover = s.edition.save_cover(s.sel, w, ab, tgt)
    if cover and k.Sv <= 3 and ap == 0:
        cover = False
    armour_mod = min(ap + (1 if cover else 0) + mods.save_mod, 1)
    armour_o = c.save_outcomes(k.Sv, armour_mod)
    armour = RollTable(armour_o, c.reroll_faces(armour_o, mods.reroll_saves, (c.SAVE_FAILED,)))
    inv = None
    if k.invuln is not None and not (
        (k.invuln_ranged_only and w.is_melee) or (k.invuln_melee_only and not w.is_melee)
    ):
        io = c.save_outcomes(k.invuln, min(mods.save_mod, 1))
        inv = RollTable(io, c.reroll_faces(io, mods.reroll_saves, (c.SAVE_FAILED,)))
    table, _ = c.choose_save(armour, inv)
    if all(table.outcome[f] == c.SAVE_FAILED for f in range(1, 7)):
        return None
    return table

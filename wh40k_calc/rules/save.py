"""The saving throw (Core rules: Saving Throw, Invulnerable Saves, Benefit of Cover; edition 11:
05.03 Save Rolls, 05.03.01 Saving Throw, 13.08 Benefit Of Cover): the table of the save one
kind of target model makes against one weapon's attacks.

The armour save is the model's Sv (as effects change the characteristic:
:func:`save_characteristic`) worsened by AP (never above 0), with +1 for the Benefit of Cover
where the edition gives it as a save bonus (:meth:`~.edition.Edition.cover_improves_save`:
10th edition; edition 11 worsens BS instead, ``hit``; who has it: ``rules.cover``) and never
improved by more than 1; an invulnerable save ignores AP and cover; the defender takes
whichever is less likely to fail. Whether one profile's saves are rolled together (edition 11)
is the engines' business, told by :meth:`~.edition.Edition.saves_lowest_first`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, cast

from ..profile import RollTable
from . import common as c
from .cover import attack_in_cover

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from .changes import Attack
    from .situation import Situation
    from .target import Kind


def save_table(
    s: Situation, attack: Attack, ab: WeaponAbilities, ap_improve: int, k: Kind
) -> RollTable | None:
    """The saving throw of target models of kind ``k`` against ``attack`` (abilities ``ab``
    after effects, AP improved by ``ap_improve``), or None when no result saves.

    Armour: the model's Sv as the effects change the characteristic
    (:func:`save_characteristic`); modified by AP (worsened by the
    target's effects unless the attacks ignore harmful AP modifiers; never above 0), +1 for
    cover (ranged, not [IGNORES COVER], not Sv 3+ or better against AP 0), ``--save-mod`` and
    the target's save modifiers (and its modifiers to armour saves alone, ``armour_save_mod``,
    which an invulnerable save never takes), never improved by more than 1. Or the invulnerable save
    against this kind of attack (the best of the model's own — one for ranged or melee attacks
    only, or a better one against them: ``Kind.invuln`` —, ``--invuln`` and the target's
    effects; never modified by AP or cover), whichever is better (Core rules: Invulnerable
    Saves; 05.04 Inflict Damage, step 2: the InSv, else the Sv after AP). ``--reroll-saves``
    and the target's effects re-roll a 1 or every failed save (the more generous)."""
    fx, w = s.changes, attack.weapon
    mods = s.sel.modifiers

    def pieces(field: str):
        return fx.target(field, attack, bearer=k.bearer, target_models=k.alive)

    worse = 0 if fx.ignores(attack, "ap") else sum(int(p.value) for p in pieces("ap_worsen"))
    ap = min(0, w.AP - ap_improve + worse)
    cover = s.edition.cover_improves_save() and attack_in_cover(s, w, ab)
    improve = [(int(p.value), p.change.save_limit) for p in pieces("save_improve")]
    worsen = sum(int(cast(int, p.value)) for p in fx.attacker("target_save_worsen", attack))
    sets = [int(p.value) for p in pieces("save_set")]
    sv = save_characteristic(k.Sv, sets, improve, worsen)
    if cover and sv <= 3 and ap == 0:
        cover = False
    save_mod = mods.save_mod + sum(int(p.value) for p in pieces("save_mod"))
    rerolls = mods.reroll_saves
    for p in pieces("reroll_saves"):
        rerolls = c.stronger(rerolls, str(p.value))
    armour_only = sum(int(p.value) for p in pieces("armour_save_mod"))
    armour_mod = min(ap + (1 if cover else 0) + save_mod + armour_only, 1)
    own = k.invuln(w.is_melee)
    best = c.best_of(own, *(int(p.value) for p in pieces("invuln")))
    return save_roll(sv, armour_mod, rerolls, best, min(save_mod, 1))


@lru_cache(maxsize=1024)
def save_roll(
    sv: int, armour_mod: int, rerolls: str | None, invuln: int | None, invuln_mod: int
) -> RollTable | None:
    """The saving throw the defender takes (the one less likely to fail) of an armour save
    ``sv``+ modified by ``armour_mod`` and an invulnerable save ``invuln``+ (None: none)
    modified by ``invuln_mod``, each re-rolled as ``rerolls`` allows (None, "ones" or
    "fails"); None when no result saves. A pure function of its arguments, made once per
    process for each (a frozen table, shared: the weapons of a batch meet the same few)."""
    armour_o = c.save_outcomes(sv, armour_mod)
    armour = RollTable(armour_o, c.reroll_faces(armour_o, rerolls, (c.SAVE_FAILED,)))
    inv = None
    if invuln is not None:
        io = c.save_outcomes(invuln, invuln_mod)
        inv = RollTable(io, c.reroll_faces(io, rerolls, (c.SAVE_FAILED,)))
    table, _ = c.choose_save(armour, inv)
    if all(table.outcome[f] == c.SAVE_FAILED for f in range(1, 7)):
        return None
    return table


def save_characteristic(
    sv: int, sets: list[int], improve: list[tuple[int, int | None]], worsen: int
) -> int:
    """A model's Save characteristic (X for X+; 7 for none) after the effects that change it
    (02.02.01 Applying Modifiers, in its order; 10th edition reads them the same way):
    ``sets`` first (the best of them, when better than ``sv``: ``save_set``), then the
    improvements ``improve`` ((N, limit) pairs, ``save_improve``/``save_limit``): those with
    a limit first, the strictest first, each improving by N but never past its limit (a Save
    already as good keeps it), then the others added up; then ``worsen`` (the attacker's
    ``target_save_worsen``, a subtraction: last). Never better than 2+ (02.02.01: Sv cannot
    be 1+ or better; an unmodified 1 fails in both editions anyway)."""
    out = min([sv, *sets])
    limited = sorted((lim, n) for n, lim in improve if lim is not None)
    for lim, n in reversed(limited):  # the strictest limit (the largest X) first
        out = min(out, max(out - n, lim))
    out -= sum(n for n, lim in improve if lim is None)
    return max(2, out + worsen)

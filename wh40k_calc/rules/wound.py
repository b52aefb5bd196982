"""The Wound roll (Core rules: Wound Roll, Anti, Lance, Twin-linked, Re-rolls; edition 11:
05.02 Wound Rolls, 05.01.01 Critical Hits and Critical Wounds, 24.03 [ANTI], 24.21 [LANCE],
24.38 [TWIN-LINKED]): the table of one weapon's Wound roll against the target.

S against the T the edition names (:meth:`~.edition.Edition.toughness`: an Attached unit's
Bodyguard T; 05.02.01 Multiple Toughness Characteristics) gives the roll needed
(:func:`~wh40k_calc.rules.common.wound_needed`); modifiers are capped at ±1; Critical Wounds
come on a 6, or lower with ``--crit-wound`` or [ANTI-KEYWORD X+] (24.03; KEYWORD may be
several, ``anti-monster/vehicle 4+``, or ``non-KEYWORD``: ``abilities.keywords_match``);
re-rolls are chosen face by face where they raise the expected effective damage (DESIGN.md:
per-die choices).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..abilities import keywords_match
from . import common as c

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..profile import RollTable
    from .situation import Situation


def wound_table(
    s: Situation,
    ab: WeaponAbilities,
    strength: int,
    v_wound: tuple[float, ...],
    label: str,
    notes: list[str],
) -> RollTable:
    """The Wound roll (Core rules: Wound Roll) of attacks of S ``strength`` with abilities
    ``ab`` (after effects) against the target.

    S against the edition's T; modifiers (``--wound-mod``, [LANCE] after a charge, the
    target's abilities, some only when S > T) capped at ±1; Critical Wounds on
    ``--crit-wound`` or [ANTI-KEYWORD X+] against a target with that keyword; re-rolls
    (``--reroll-wounds``, [TWIN-LINKED], effects, some only for 10 or more attacking models)
    of the faces where re-rolling gains against ``v_wound`` (the value of a failed, normal and
    Critical Wound). A re-roll sentence naming ``label`` goes in ``notes``."""
    sel, target, applied = s.sel, s.target, s.applied
    mods, tkw = sel.modifiers, target.keywords
    T = s.edition.toughness(target)
    needed = c.wound_needed(strength, T)
    wmod = mods.wound_mod
    if ab.lance and sel.conditions.charged:
        wmod += 1
    for e in applied.target:
        wmod += e.wound_mod
        if strength > T:
            wmod += e.wound_mod_if_stronger
    crit_w = 6
    if mods.crit_wound:
        crit_w = min(crit_w, mods.crit_wound)
    for spec, x in ab.anti:  # 24.03: "if the target unit has the keyword denoted by X"
        if keywords_match(spec, tkw):
            crit_w = min(crit_w, x)
    w_outcomes = c.wound_outcomes(needed, c.cap(wmod), crit_w)
    wmode = mods.reroll_wounds
    if ab.twin_linked:
        wmode = c.stronger(wmode, "all")
    for e in applied.attacker:
        if e.reroll_wounds:
            wmode = c.stronger(wmode, e.reroll_wounds)
        if e.reroll_wounds_10 and s.attacker.models >= 10:
            wmode = c.stronger(wmode, e.reroll_wounds_10)
    return c.rerolled(w_outcomes, wmode, c.FAIL, v_wound, f"{label}: Wound roll", notes)

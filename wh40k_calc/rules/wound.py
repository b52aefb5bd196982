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
from .changes import names

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..profile import RollTable
    from .changes import Attack
    from .situation import Situation


def wound_table(
    s: Situation,
    attack: Attack,
    ab: WeaponAbilities,
    v_wound: tuple[float, ...],
    label: str,
    notes: list[str],
) -> RollTable:
    """The Wound roll (Core rules: Wound Roll) of ``attack`` (its S and the T it is against
    worked out with the effects: ``attacks.strength_and_abilities``) with abilities ``ab``
    (after effects).

    Modifiers (``--wound-mod``, [LANCE] after a charge (in the Fight phase: the Charge phase
    follows the Shooting phase, so no unit shoots after its own Charge move that turn), the
    attacker's and the target's effects, some only when S > T) summed and capped at ±1, the
    harmful ones dropped where an effect lets the attacks ignore them; Critical Wounds on the
    lowest of ``--crit-wound``, [ANTI-KEYWORD X+] against a target with that keyword and the
    effects' thresholds;
    re-rolls (``--reroll-wounds``, [TWIN-LINKED], effects: the most generous) of the faces
    where re-rolling gains against ``v_wound`` (the value of a failed, normal and Critical
    Wound). A re-roll sentence naming ``label`` goes in ``notes``."""
    sel, fx = s.sel, s.changes
    mods, tkw = sel.modifiers, s.applied.facts.target_keywords
    assert attack.strength is not None and attack.toughness is not None
    needed = c.wound_needed(attack.strength, attack.toughness)
    terms: list[tuple[str, int]] = [("--wound-mod", mods.wound_mod)] if mods.wound_mod else []
    if ab.lance and sel.conditions.charged and sel.phase == "fight":  # no charge before shooting
        terms.append(("[LANCE]", 1))
    terms += [(p.name, int(p.value)) for p in fx.attacker("wound_mod", attack)]  # type: ignore[call-overload]
    terms += [(p.name, int(p.value)) for p in fx.target("wound_mod", attack)]  # type: ignore[call-overload]
    if fx.ignores(attack, "wound"):
        dropped = [t for t in terms if t[1] < 0]
        if dropped:
            who = " and ".join(names(fx.attacker("ignore_harmful", attack)))
            said = " and ".join(f"{n} ({v:+d} to the Wound roll)" for n, v in dropped)
            notes.append(f"{label}: {who}: ignored {said}")
        terms = [t for t in terms if t[1] >= 0]
    crit_w = 6
    if mods.crit_wound:
        crit_w = min(crit_w, mods.crit_wound)
    for spec, x in ab.anti:  # 24.03: "if the target unit has the keyword denoted by X"
        if keywords_match(spec, tkw):
            crit_w = min(crit_w, x)
    for p in fx.attacker("crit_wound", attack):
        crit_w = min(crit_w, int(p.value))  # type: ignore[call-overload]
    w_outcomes = c.wound_outcomes(needed, c.cap(sum(v for _, v in terms)), crit_w)
    wmode = mods.reroll_wounds
    if ab.twin_linked:
        wmode = c.stronger(wmode, "all")
    for p in fx.attacker("reroll_wounds", attack):
        wmode = c.stronger(wmode, str(p.value))
    return c.rerolled(w_outcomes, wmode, c.FAIL, v_wound, f"{label}: Wound roll", notes)

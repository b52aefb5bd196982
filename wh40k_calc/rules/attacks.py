"""The attacks each weapon makes, and each weapon's attack profile assembled (Core rules: Making
Attacks, Rapid Fire, Blast, Extra Attacks; edition 11: 04.01 Select Weapons, 04.03 Resolve
Attacks, 24.05 [BLAST], 24.06 [CLEAVE], 24.11 [EXTRA ATTACKS], 24.30 [RAPID FIRE]).

The weapons the attacking models use (``rules.weapons``: pistols or other weapons, which melee
weapon, which profile) are gathered here into one :class:`~wh40k_calc.profile.AttackProfile`
per datasheet weapon, in the datasheets' weapon order; each profile is the weapon taken
through the attack sequence once: its attack dice (here), the saving throw and Damage against
each kind of target model (``save``, ``damage``), the Wound roll (``wound``) and the Hit roll
(``hit``), the later steps first because the re-roll choices of each roll compare what its
outcomes are worth downstream (DESIGN.md: per-die choices).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..profile import AttackProfile
from . import common as c
from .damage import vs_model
from .hit import hit_table, hit_values
from .wound import wound_table

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..datasheet import Weapon
    from ..effects import Effect
    from ..profile import TargetProfile
    from ..selection import Selection
    from ..units import ModelGroup, Unit
    from .situation import Situation
    from .target import Kind


def weapon_profiles(
    s: Situation,
    used: list[tuple[ModelGroup, Weapon, int]],
    kinds: list[Kind],
    tprofile: TargetProfile,
    variant: tuple[str, ...] | None,
    made: dict[tuple, AttackProfile] | None = None,
) -> list[AttackProfile]:
    """One profile per (datasheet, weapon) of the weapons ``used`` ((model group, weapon,
    models) triples), in the datasheets' weapon order, against the target's model ``kinds``
    and ``tprofile``; ``variant``: the abilities the player chose for melee weapons.

    A weapon named on two datasheets of the unit (a Leader's and the Bodyguard's) is labelled
    with its datasheet. [PRECISION] weapons say in ``choices`` where their attacks go.
    ``made`` keeps those already made for this selection (by weapon, models, label, first
    model kind and variant: all else is the selection's)."""
    sel = s.sel
    merged: dict[tuple[str, str], list] = {}
    sheets = [ds.key for ds in s.attacker.datasheets]
    places: dict[int, dict[str, int]] = {}  # per datasheet: a weapon key's first place

    def rank(item: tuple[ModelGroup, Weapon, int]) -> tuple[int, int]:
        g, w, _ = item
        ds = g.datasheet
        if id(ds) not in places:  # weapons may carry added abilities: matched by key
            first: dict[str, int] = {}
            for i, x in enumerate(ds.weapons):
                first.setdefault(x.key, i)
            places[id(ds)] = first
        return sheets.index(ds.key), places[id(ds)][w.key]

    for g, w, n in sorted(used, key=rank):
        key = (g.datasheet.key, w.key)
        if key in merged:
            merged[key][1] += n
        else:
            merged[key] = [w, n, g]
    named = Counter(w.name for w, _, _ in merged.values())
    out = []
    for w, n, g in merged.values():
        label = w.name if named[w.name] == 1 else f"{w.name} ({g.datasheet.name})"
        precise = w.abilities.precision and sel.precision_target != "bodyguard"
        chars = list(tprofile.characters)
        if tprofile.precision_pick is not None:  # the CHARACTER model the player named
            chars.insert(0, chars.pop(tprofile.precision_pick))
        first = chars[0].kind if precise and chars else tprofile.bodyguard[0].kind
        key = (id(w), n, label, first, variant)
        if made is not None and key in made:
            out.append(made[key])
            continue
        prof = attack_profile(s, w, n, label, kinds, first, variant)
        if w.abilities.precision and chars:
            who = list(dict.fromkeys(m.name for m in chars))
            said = (
                f"{label}: {s.edition.precision_sentence(who)}"
                if precise
                else f"{label}: [PRECISION] attacks kept on the Bodyguard "
                "(--precision-target bodyguard)"
            )
            prof = replace(prof, choices=(*prof.choices, said))
        if made is not None:
            made[key] = prof
        out.append(prof)
    return out


def attack_profile(
    s: Situation,
    w: Weapon,
    n: int,
    label: str,
    kinds: list[Kind],
    first: int,
    variant: tuple[str, ...] | None,
) -> AttackProfile:
    """The :class:`AttackProfile` of weapon ``w`` carried by ``n`` models, named ``label``,
    through the attack sequence (Core rules: Making Attacks): the attacks, the saves and
    Damage against each model kind of ``kinds``, the Wound roll, the Hit roll.

    Rolls are re-rolled where that raises the expected damage against the model kind
    ``first`` (an index into ``kinds``: the first the attacks are allocated to); ``variant``:
    the abilities the player chose for melee weapons. Choice sentences (re-rolls, Lethal
    Hits, [PSYCHIC]) go in ``choices``."""
    sel, melee = s.sel, w.is_melee
    ab, strength, ap_improve, attacks_bonus = melee_bonuses(
        sel, w, s.applied.attacker, s.target, variant, s.edition.extra_attacks_fixed()
    )
    ab = ab.against(s.target.keywords)  # 24.01: abilities granted with keywords (effects)
    a_pmf = attack_dice(sel, w, ab, attacks_bonus)
    vs = tuple(vs_model(s, w, ab, ap_improve, k) for k in kinds)
    v_wound = c.wound_values(vs[first], kinds[first].W, ab.devastating_wounds)
    notes: list[str] = []
    wounds = wound_table(s, ab, strength, v_wound, label, notes)
    values, lethal = hit_values(s, ab, wounds, v_wound, label, notes)
    hits = None
    if not ab.torrent:
        hits = hit_table(s, w, ab, values, label, notes)
    precise = ab.precision and sel.precision_target != "bodyguard"
    edition = s.edition
    return AttackProfile(
        name=label,
        models=n,
        attacks=a_pmf,
        hit=hits,
        wound=wounds,
        vs=vs,
        blast=edition.cleave_bonus(ab) if melee else edition.blast_bonus(ab),
        sustained=ab.sustained_hits.pmf if ab.sustained_hits is not None else None,
        lethal=lethal,
        devastating=ab.devastating_wounds,
        precision=precise,
        precision_mortals=precise and edition.precision_mortals(),
        ranged=not melee,
        choices=tuple(notes),
    )


def melee_bonuses(
    sel: Selection,
    w: Weapon,
    att: list[Effect],
    target: Unit,
    variant: tuple[str, ...] | None,
    extra_attacks_fixed: bool = True,
) -> tuple[WeaponAbilities, int, int, int]:
    """The weapon's abilities, S, AP improvement and attacks added per model, after the
    attacker's effects ``att`` that change melee weapons (+S, +AP, +A, abilities gained, some
    only against a target keyword) and the ``variant`` the player chose. With
    ``extra_attacks_fixed`` (10th edition, seeds README [EXTRA ATTACKS]: their number of
    attacks "cannot be modified by other rules unless they name the weapon") [EXTRA ATTACKS]
    weapons keep their A; edition 11's 24.11 has no such sentence. A ranged weapon is
    unchanged, with ``--ap-mod`` as its AP improvement."""
    ab, strength, ap_improve, attacks_bonus = w.abilities, w.S, sel.modifiers.ap_mod, 0
    if not w.is_melee:
        return ab, strength, ap_improve, attacks_bonus
    extra_ab: list[str] = []
    for e in att:
        strength += e.melee_strength
        ap_improve += e.melee_ap
        if not (ab.extra_attacks and extra_attacks_fixed):  # 10th: A not modified unless named
            attacks_bonus += e.melee_attacks
        extra_ab += list(e.melee_abilities)
        if e.melee_abilities_vs and e.melee_abilities_vs[0] in target.keywords:
            extra_ab += list(e.melee_abilities_vs[1])
    if variant:
        extra_ab += list(variant)
    return ab.with_texts(extra_ab), strength, ap_improve, attacks_bonus


def attack_dice(sel: Selection, w: Weapon, ab: WeaponAbilities, attacks_bonus: int) -> np.ndarray:
    """Distribution of one model's attacks with ``w`` (index = attacks): A, plus [RAPID FIRE
    X] within half range (Core rules: Rapid Fire), plus ``attacks_bonus`` (effects on melee
    weapons). [BLAST] and [CLEAVE X] add theirs in the engines (they count the target's
    models when the attacks are made: ``AttackProfile.blast``)."""
    a_pmf = w.A.pmf
    if ab.rapid_fire is not None and sel.conditions.half_range and not w.is_melee:
        a_pmf = np.convolve(a_pmf, ab.rapid_fire.pmf)
    if attacks_bonus:
        a_pmf = np.concatenate([np.zeros(attacks_bonus), a_pmf])
    return a_pmf

"""The rules engine both editions share: from a Selection to a Plan of attack profiles.

This is the only place (with ``effects.py`` and the edition modules) that reads keywords,
weapon abilities, conditions and effects. Edition modules subclass :class:`Rules` and override
the hooks where their text differs; every hook cites its section.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..abilities import WeaponAbilities
from ..datasheet import ModelProfile, Weapon
from ..dice import Dice
from ..effects import Effect
from ..profile import (
    Activation,
    AttackProfile,
    HazardProfile,
    MortalWounds,
    RollTable,
    TargetModel,
    TargetProfile,
    TargetStates,
    VsModel,
)
from ..selection import Selection, SelectionError, UnitChoice
from ..units import ModelGroup, Unit, build_unit
from . import common as c
from .added import with_added_abilities
from .applied import Applied, apply_effects
from .applied import variants as _variants
from .command_reroll import keep_command_reroll
from .hitroll import HitTerms
from .idle import idle_notes
from .mortal import MORTAL_ROLLS
from .order import precision_named, reorder
from .plan import GroupOptions, Plan
from .unit_abilities import damaged_hit_mod, defence_notes
from .weapons import ordered, weapon_options


@dataclass(frozen=True)
class Kind:
    """One kind of target model as saves and damage see it: its W, Sv, invulnerable save, and
    the datasheet's defensive abilities (Feel No Pain X+ against everything, against mortal
    wounds only, against Psychic Attacks only; Damage reduced by N or halved)."""

    name: str
    W: int
    Sv: int
    invuln: int | None
    invuln_ranged_only: bool
    fnp: int | None
    cover_capable: bool = True
    fnp_mortal: int | None = None
    fnp_psychic: int | None = None
    damage_reduction: int = 0
    half_damage: bool = False


class Rules:
    """Shared rules. ``edition`` is "10" or "11"."""

    edition = "10"

    # ---- hooks an edition overrides ------------------------------------------------------

    def toughness(self, target: Unit) -> int:
        """T used for Wound rolls against ``target``: an Attached unit uses its Bodyguard
        models' T (Core rules: LEADER); otherwise the highest T among its models."""
        groups = target.bodyguard or target.groups
        return max(g.profile.T for g in groups)

    def hazard(
        self, attacker: Unit, used: list[tuple[ModelGroup, Weapon, int]]
    ) -> HazardProfile | None:
        """Hazardous tests (Core rules: Hazardous): one D6 per Hazardous weapon used, failing
        on a 1; each failure inflicts 3 mortal wounds on one model carrying a Hazardous weapon
        (a wounded one first, then non-CHARACTER, then CHARACTER); the rest are lost when that
        model is destroyed."""
        tests = sum(n for _, w, n in used if w.abilities.hazardous)
        if not tests:
            return None
        carriers = list(dict.fromkeys(g for g, w, _ in used if w.abilities.hazardous))
        track, fnp, groups = attacker_track(attacker, carriers)
        return HazardProfile(tests, 1 / 6, Dice.parse(3), track, fnp, spill=False, groups=groups)

    def blast_bonus(self, abilities: WeaponAbilities) -> int:
        """Attacks added per five target models (Core rules: Blast: +1 per five models)."""
        return 1 if abilities.blast else 0

    def lethal_hits(self, values: dict[str, float], label: str) -> tuple[bool, str | None]:
        """Whether a Critical Hit of a [LETHAL HITS] weapon wounds automatically, and a choice
        sentence if the player chose (10th: it always does; Core rules: Lethal Hits).
        ``values``: expected effective damage of an automatic wound ("auto") and of rolling
        the Wound roll ("roll")."""
        del values, label
        return True, None

    def split_tracks(self, target: Unit) -> tuple[list[ModelGroup], list[ModelGroup]]:
        """(Bodyguard groups, protected CHARACTER groups) of the target, in allocation order.
        10th edition (Core rules: LEADER): only the CHARACTER models of an Attached unit are
        protected while a Bodyguard model remains."""
        return list(target.bodyguard), list(target.characters)

    def precision_mortals(self) -> bool:
        """Whether the mortal wounds of a [PRECISION] attack's Devastating Wounds can be
        allocated to a CHARACTER model (Core rules: Mortal Wounds: "If those mortal wounds are
        inflicted by an attack that has the [PRECISION] ability, the attacking model's
        controlling player can allocate those mortal wounds to a CHARACTER model")."""
        return True

    def precision_one_group(self) -> bool:
        """Whether a [PRECISION] attack is tied to one CHARACTER group picked when the weapon
        starts (10th edition, Core rules: [PRECISION]: each attack "can" be allocated to a
        CHARACTER model while one remains, so no)."""
        return False

    def precision_sentence(self, names: list[str]) -> str:
        """Where [PRECISION] attacks go, for ``choices``; ``names``: the target's CHARACTER
        models in allocation order. 10th edition (Core rules: [PRECISION]): each such attack
        can be allocated to a CHARACTER model while one remains (a wounded one first, then in
        that order), then to the Bodyguard."""
        if len(names) == 1:
            return (
                f"[PRECISION] attacks allocated to {names[0]} while it lives, then to the Bodyguard"
            )
        return (
            f"[PRECISION] attacks allocated to the CHARACTER models {' and '.join(names)} (a "
            "wounded one first) while one remains, then to the Bodyguard"
        )

    def snap_rerolls_allowed(self) -> bool:
        """Whether Hit rolls can be re-rolled when snap shooting (10th: nothing forbids it)."""
        return True

    def has_stealth(self, sel: Selection, target: Unit) -> bool:
        """Stealth (a unit ability; issue 9: "only while *every* model of the unit has it", so
        an Attached unit whose Leader lacks it has none), or ``--target-stealth``."""
        return sel.modifiers.target_stealth or all(g.profile.stealth for g in target.all_groups)

    def hit_terms(
        self,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        w: Weapon,
        ab: WeaponAbilities,
        tgt: list[Effect],
    ) -> HitTerms:
        """BS/WS changes and Hit-roll modifiers (Core rules: Hit Roll, Heavy; edition 11's
        [HEAVY] (seeds README) gives the same +1 when ``--stationary`` says its three
        conditions hold): ``--hit-mod``; for ranged attacks [HEAVY] +1 with ``--stationary``,
        then the edition's :meth:`ranged_hit_terms`."""
        terms = HitTerms()
        if sel.modifiers.hit_mod:
            terms = terms.add_roll("--hit-mod", sel.modifiers.hit_mod)
        damaged, _ = damaged_hit_mod(sel, attacker)  # the attacker's damaged profile
        if damaged:
            terms = terms.add_roll("its damaged profile", damaged)
        for e in tgt:  # the target's abilities: "subtract 1 from the Hit roll"
            if e.hit_mod:
                terms = terms.add_roll(e.name, e.hit_mod)
        if w.is_melee:
            return terms
        if ab.heavy and sel.conditions.stationary:
            terms = terms.add_roll("[HEAVY]", 1)
        return self.ranged_hit_terms(terms, sel, attacker, target, ab, tgt)

    def ranged_hit_terms(
        self,
        terms: HitTerms,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        ab: WeaponAbilities,
        tgt: list[Effect],
    ) -> HitTerms:
        """10th edition, ranged attacks: Stealth -1 to the Hit roll against a unit that has it
        (issue 9: "-1 to ranged Hit rolls ... inside the ±1 cap"); [INDIRECT FIRE] with
        ``--indirect`` (seeds README: "subtract 1 from its Hit roll, an unmodified Hit roll of
        1, 2 or 3 always fails"). Cover is a save bonus here (:meth:`save_cover`), not a BS
        change."""
        del attacker, tgt
        if self.has_stealth(sel, target):
            terms = terms.add_roll("Stealth", -1)
        if ab.indirect_fire and sel.conditions.indirect:
            terms = replace(terms.add_roll("[INDIRECT FIRE]", -1), fail_up_to=3)
        return terms

    def psychic_ignores_harmful(self) -> bool:
        """Whether [PSYCHIC] attacks ignore harmful BS/WS and Hit-roll modifiers (10th edition:
        no; seeds README: [PSYCHIC] "no effect on one attack sequence")."""
        return False

    def save_cover(self, sel: Selection, w: Weapon, ab: WeaponAbilities, tgt: list[Effect]) -> bool:
        """Whether the Benefit of Cover adds 1 to the armour save (Core rules: Benefit of
        Cover): against ranged attacks, from ``--cover``, an effect (Go to Ground) or an
        [INDIRECT FIRE] attack on a target that is not visible; not against [IGNORES COVER]."""
        cond = sel.conditions
        return (
            not w.is_melee
            and not ab.ignores_cover
            and (cond.cover or any(e.cover for e in tgt) or (cond.indirect and ab.indirect_fire))
        )

    def cleave_bonus(self, abilities: WeaponAbilities) -> int:
        """Attack dice added per five target models by [CLEAVE X] (10th edition: none; it is
        an edition-11 ability, reported as not modelled)."""
        del abilities
        return 0

    def check_conditions(self, sel: Selection, attacker: Unit, target: Unit) -> list[str]:
        """Notes on conditions that change nothing here (10th edition: plunging fire, an
        edition-11 rule, 22.05); raises for a selection this edition cannot resolve.

        Raises:
            SelectionError: never in 10th edition (edition 11 refuses ``--indirect``).
        """
        del attacker, target
        if sel.conditions.plunging_fire and sel.phase == "shooting":
            return [
                "--plunging-fire: no effect in edition 10 (plunging fire, 22.05, is an "
                "edition-11 rule)"
            ]
        return []

    def stealth_note(self, target: Unit, weapons: list[Weapon]) -> str:
        """What Stealth does here against ``weapons`` (the ranged weapons that can attack),
        for the notes (10th edition: -1 to ranged Hit rolls; nothing where no Hit roll is
        made, [TORRENT])."""
        said = f"Stealth ({target.name}): -1 to the Hit roll of ranged attacks"
        if weapons and all(w.abilities.torrent for w in weapons):
            said += "; no effect here: no weapon rolls to hit ([TORRENT])"
        return said

    def group_key(self, g: ModelGroup) -> object:
        """What makes Bodyguard models one allocation group (10th edition has no groups:
        each datasheet model group is its own run in the allocation order)."""
        return id(g)

    def best_allocation(self, sel: Selection) -> bool:
        """Whether the defender's allocation order is chosen per weapon and count (10th
        edition: never, and ``--allocation best`` is refused: the defender allocates attack by
        attack, a wounded model first, so there is no order to declare).

        Raises:
            SelectionError: ``--allocation best`` in 10th edition.
        """
        if sel.allocation == "best":
            raise SelectionError(
                "--allocation best is edition 11's declared allocation order (05.03); in 10th "
                "edition the defender allocates attack by attack (a wounded model first), so "
                "give the order as model names instead"
            )
        return False

    def saves_lowest_first(self) -> bool:
        """Whether one weapon profile's save rolls are made together and resolved from the
        lowest result up (10th: no; each attack is allocated and saved one at a time, seeds
        README "Allocating attacks")."""
        return False

    # ---- entry point ---------------------------------------------------------------------

    def plan(self, sel: Selection) -> Plan:
        """Resolve everything but the player's whole-activation choices: both units, the
        effects that apply, the target's models and allocation order, the attacker's weapon
        options, and every note; ``Plan.build`` makes the activation of one set of choices
        (:class:`_ActivationBuilder`).

        Raises:
            SelectionError: an impossible selection (size, loadout, Leader, effect conditions,
                no weapon able to attack).
        """
        if sel.phase not in ("shooting", "fight"):
            raise SelectionError(f"unknown phase {sel.phase!r}")
        attacker = _built(sel.attacker, "attacker", self.edition)
        if sel.attacker_alive is not None:  # calc exchange: the models still alive
            attacker = attacker.surviving(sel.attacker_alive)
        attacker = with_added_abilities(attacker, sel.added_abilities, self.edition)
        target = _built(sel.target, "target", self.edition)
        applied, not_modelled = apply_effects(sel, attacker, target)
        _, damaged_note = damaged_hit_mod(sel, attacker)
        conditions_notes = self.check_conditions(sel, attacker, target)
        groups, notes = weapon_options(sel, attacker)
        precise = any(w.abilities.precision for g in groups for o in g.options for w in o.weapons)
        kinds, tprofile, order, roles, listing = self._target(sel, target, applied, precise)
        best = self.best_allocation(sel)
        start = _wounded(sel, tprofile)
        notes += conditions_notes
        notes += self._stealth_notes(sel, target, groups)
        notes += idle_notes(self, sel, target, groups, applied)
        not_modelled += self._cleave_not_modelled(sel, groups)
        notes += self._blast_x_notes(groups)
        variants = _variants(applied)
        build = _ActivationBuilder(
            self, sel, attacker, target, groups, kinds, tprofile, applied, variants, best, start
        )
        plan = Plan(
            attacker=attacker,
            target=target,
            groups=groups,
            variants=list(variants) if variants else [],
            build=build,
        )
        plan.effects = applied.ids
        plan.effect_sides = applied.sides
        plan.not_modelled = not_modelled
        plan.notes = [*attacker.notes, *target.notes, *notes, *defence_notes(target)]
        plan.notes += [damaged_note] if damaged_note else []
        plan.notes += _idle_phase_notes(sel)
        plan.allocation_order = order
        plan.character_roles = roles
        plan.target_groups = listing
        return plan

    def _stealth_notes(self, sel: Selection, target: Unit, groups: list[GroupOptions]) -> list[str]:
        if sel.phase != "shooting":
            return []
        if self.has_stealth(sel, target):
            ranged = {w.name: w for g in groups for o in g.options for w in o.weapons}
            return [self.stealth_note(target, [w for w in ranged.values() if not w.is_melee])]
        if any(g.profile.stealth for g in target.all_groups):
            return [f"Stealth: not every model of {target.name} has it, so the unit has none"]
        return []

    def _cleave_not_modelled(self, sel: Selection, groups: list[GroupOptions]) -> list[str]:
        if sel.phase != "fight":
            return []
        out = []
        for g in groups:
            for opt in g.options:
                for w in opt.weapons:
                    if w.abilities.cleave and not self.cleave_bonus(w.abilities):
                        item = f"{w.name}: [cleave {w.abilities.cleave}] (edition 11 only)"
                        if item not in out:
                            out.append(item)
        return out

    def _blast_x_notes(self, groups: list[GroupOptions]) -> list[str]:
        """A datasheet weapon with [BLAST X] in an edition that has only [BLAST] (edition 10:
        +1 attack per five models, whatever X)."""
        out = []
        for w in (w for g in groups for opt in g.options for w in opt.weapons):
            blast = w.abilities.blast
            if blast > 1 and self.blast_bonus(w.abilities) != blast:
                note = (
                    f"{w.name}: [BLAST {blast}] is edition 11's [BLAST X]; edition {self.edition} "
                    "applies [BLAST] (+1 attack per five models in the target)"
                )
                if note not in out:
                    out.append(note)
        return out

    # ---- target --------------------------------------------------------------------------

    def _target(
        self, sel: Selection, target: Unit, applied: Applied, precise: bool
    ) -> tuple[list[Kind], TargetProfile, list[str], list[str], tuple[int, ...]]:
        """The target's model kinds, its :class:`TargetProfile`, its allocation order (model
        names), the role of each of its CHARACTER models (:func:`character_role`) and, per
        model of the profile (Bodyguard, then CHARACTER models), the index of its group in
        ``target.groups``.
        ``precise``: some weapon has [PRECISION] (else ``--precision-target NAME`` is not
        looked up: it has no effect, a note says so)."""
        mods = sel.modifiers
        invuln_fx = c.best_of(*(e.invuln for e in applied.target))
        invuln_10 = c.best_of(*(e.invuln_10 for e in applied.target))
        kinds: list[Kind] = []
        index: dict[tuple, int] = {}

        def kind_for(g: ModelGroup, at_10: bool) -> int:
            p = g.profile
            extra = c.best_of(invuln_fx, mods.invuln, invuln_10 if at_10 else None)
            key = (_defence(p, p.invuln, p.invuln_ranged_only), extra)
            if key not in index:
                index[key] = len(kinds)
                kinds.append(
                    _defence(p, _merge_invuln(p, extra), p.invuln_ranged_only and extra is None)
                )
            return index[key]

        bodyguard_groups, character_groups = self.split_tracks(target)
        if sel.allocation and sel.allocation != "best":
            bodyguard_groups, character_groups = reorder(
                sel.allocation, bodyguard_groups, character_groups, target.name
            )
        named = None
        if precise and sel.precision_target not in ("leader", "bodyguard"):
            named = precision_named(sel.precision_target, character_groups, target.name)
        bg: list[TargetModel] = []
        ch: list[TargetModel] = []
        group_ids = self._group_ids(bodyguard_groups)
        for groups, out in ((bodyguard_groups, bg), (character_groups, ch)):
            for g in groups:
                gid = group_ids.get(id(g), -1)
                for _ in range(g.count):
                    if invuln_10 is not None:
                        k10 = kind_for(g, True)
                        k = kind_for(g, False)
                        out.append(TargetModel(g.profile.name, g.profile.W, k10, (10, k), gid))
                    else:
                        k = kind_for(g, False)
                        out.append(TargetModel(g.profile.name, g.profile.W, k, None, gid))
        profile = TargetProfile(
            target.name,
            tuple(bg),
            tuple(ch),
            tuple(k.name for k in kinds),
            precision_one_group=self.precision_one_group(),
            precision_pick=None if named is None else _model_index(character_groups, named),
        )
        order = [m.name for m in bg] + [m.name for m in ch]
        roles = [character_role(g) for g in character_groups for _ in range(g.count)]
        listing = tuple(
            next(i for i, x in enumerate(target.groups) if x is g)
            for g in (*bodyguard_groups, *character_groups)
            for _ in range(g.count)
        )
        return kinds, profile, order, roles, listing

    def _group_ids(self, groups: list[ModelGroup]) -> dict[int, int]:
        """Allocation group number of each Bodyguard model group (by ``id``): consecutive
        groups with the same :meth:`group_key` share one."""
        out: dict[int, int] = {}
        prev, n = None, -1
        for g in groups:
            key = self.group_key(g)
            if n < 0 or key != prev:
                n += 1
            out[id(g)] = n
            prev = key
        return out

    # ---- weapons -------------------------------------------------------------------------

    def _profiles(
        self,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        used: list[tuple[ModelGroup, Weapon, int]],
        kinds: list[Kind],
        tprofile: TargetProfile,
        applied: Applied,
        variant: tuple[str, ...] | None,
        made: dict[tuple, AttackProfile] | None = None,
    ) -> list[AttackProfile]:
        """One profile per (datasheet, weapon), in the datasheets' weapon order; ``made``
        keeps those already made for this selection (by weapon, models, label, first model
        kind and variant: all else is the selection's)."""
        merged: dict[tuple[str, str], list] = {}
        sheets = [ds.key for ds in attacker.datasheets]
        places: dict[int, dict[str, int]] = {}  # per datasheet: a weapon key's first place

        def rank(item: tuple[ModelGroup, Weapon, int]) -> tuple[int, int]:
            g, w, _ = item
            ds = g.datasheet
            if id(ds) not in places:  # weapons may carry added abilities: matched by key
                keys = [x.key for x in ds.weapons]
                places[id(ds)] = {k: keys.index(k) for k in keys}
            return sheets.index(ds.key), places[id(ds)][w.key]

        for g, w, n in sorted(used, key=rank):
            key = (g.datasheet.key, w.key)
            if key in merged:
                merged[key][1] += n
            else:
                merged[key] = [w, n, g]
        names = [w.name for w, _, _ in merged.values()]
        out = []
        for w, n, g in merged.values():
            label = w.name if names.count(w.name) == 1 else f"{w.name} ({g.datasheet.name})"
            precise = w.abilities.precision and sel.precision_target != "bodyguard"
            chars = list(tprofile.characters)
            if tprofile.precision_pick is not None:  # the CHARACTER model the player named
                chars.insert(0, chars.pop(tprofile.precision_pick))
            first = chars[0].kind if precise and chars else tprofile.bodyguard[0].kind
            key = (id(w), n, label, first, variant)
            if made is not None and key in made:
                out.append(made[key])
                continue
            prof = self._profile(sel, attacker, target, w, n, label, kinds, first, applied, variant)
            if w.abilities.precision and chars:
                who = list(dict.fromkeys(m.name for m in chars))
                said = (
                    f"{label}: {self.precision_sentence(who)}"
                    if precise
                    else f"{label}: [PRECISION] attacks kept on the Bodyguard "
                    "(--precision-target bodyguard)"
                )
                prof = replace(prof, choices=(*prof.choices, said))
            if made is not None:
                made[key] = prof
            out.append(prof)
        return out

    def _profile(
        self,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        w: Weapon,
        n: int,
        label: str,
        kinds: list[Kind],
        first: int,
        applied: Applied,
        variant: tuple[str, ...] | None,
    ) -> AttackProfile:
        """The :class:`AttackProfile` of weapon ``w`` carried by ``n`` models, named ``label``,
        through the attack sequence (Core rules: Making Attacks): the attacks, the saves and
        Damage against each model kind, the Wound roll, the Hit roll. Rolls are re-rolled
        where that raises the expected damage against the model kind ``first`` (the first the
        attacks are allocated to); ``variant``: the abilities the player chose for melee
        weapons. Choice sentences (re-rolls, Lethal Hits, [PSYCHIC]) go in ``choices``."""
        melee = w.is_melee
        ab, strength, ap_improve, attacks_bonus = self._melee_bonuses(
            sel, w, applied.attacker, target, variant
        )
        a_pmf = self._attacks(sel, w, ab, attacks_bonus)
        vs = tuple(self._vs(sel, w, ab, ap_improve, k, applied.target) for k in kinds)
        v_wound = c.wound_values(vs[first], kinds[first].W, ab.devastating_wounds)
        notes: list[str] = []
        wound_table = self._wound_table(
            sel, attacker, target, ab, strength, applied, v_wound, label, notes
        )
        hit_values, lethal = self._hit_values(ab, wound_table, v_wound, label, notes)
        hit_table = None
        if not ab.torrent:
            hit_table = self._hit_table(
                sel, attacker, target, w, ab, applied, hit_values, label, notes
            )
        precise = ab.precision and sel.precision_target != "bodyguard"
        return AttackProfile(
            name=label,
            models=n,
            attacks=a_pmf,
            hit=hit_table,
            wound=wound_table,
            vs=vs,
            blast=self.cleave_bonus(ab) if melee else self.blast_bonus(ab),
            sustained=ab.sustained_hits.pmf if ab.sustained_hits is not None else None,
            lethal=lethal,
            devastating=ab.devastating_wounds,
            precision=precise,
            precision_mortals=precise and self.precision_mortals(),
            ranged=not melee,
            choices=tuple(notes),
        )

    def _melee_bonuses(
        self,
        sel: Selection,
        w: Weapon,
        att: list[Effect],
        target: Unit,
        variant: tuple[str, ...] | None,
    ) -> tuple[WeaponAbilities, int, int, int]:
        """The weapon's abilities, S, AP improvement and attacks added per model, after the
        attacker's effects that change melee weapons (+S, +AP, +A, abilities gained, some only
        against a target keyword) and the ``variant`` the player chose. [EXTRA ATTACKS]
        weapons keep their A (Core rules: Extra Attacks). A ranged weapon is unchanged, with
        ``--ap-mod`` as its AP improvement."""
        ab, strength, ap_improve, attacks_bonus = w.abilities, w.S, sel.modifiers.ap_mod, 0
        if not w.is_melee:
            return ab, strength, ap_improve, attacks_bonus
        extra_ab: list[str] = []
        for e in att:
            strength += e.melee_strength
            ap_improve += e.melee_ap
            if not ab.extra_attacks:  # [EXTRA ATTACKS]: A not modified unless named
                attacks_bonus += e.melee_attacks
            extra_ab += list(e.melee_abilities)
            if e.melee_abilities_vs and e.melee_abilities_vs[0] in target.keywords:
                extra_ab += list(e.melee_abilities_vs[1])
        if variant:
            extra_ab += list(variant)
        return ab.with_texts(extra_ab), strength, ap_improve, attacks_bonus

    def _attacks(
        self, sel: Selection, w: Weapon, ab: WeaponAbilities, attacks_bonus: int
    ) -> np.ndarray:
        """Distribution of one model's attacks with ``w``: A, plus [RAPID FIRE X] within half
        range (Core rules: Rapid Fire), plus ``attacks_bonus`` (effects on melee weapons).
        Blast's bonus is the engines' (it counts the target's models when it is selected)."""
        a_pmf = w.A.pmf
        if ab.rapid_fire is not None and sel.conditions.half_range and not w.is_melee:
            a_pmf = np.convolve(a_pmf, ab.rapid_fire.pmf)
        if attacks_bonus:
            a_pmf = np.concatenate([np.zeros(attacks_bonus), a_pmf])
        return a_pmf

    def _wound_table(
        self,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        ab: WeaponAbilities,
        strength: int,
        applied: Applied,
        v_wound: tuple[float, ...],
        label: str,
        notes: list[str],
    ) -> RollTable:
        """The Wound roll (Core rules: Wound Roll): S against the edition's T, modifiers
        (``--wound-mod``, [LANCE] after a charge, the target's abilities) capped at ±1,
        Critical Wounds on ``--crit-wound`` or [ANTI-KEYWORD X+], and re-rolls (``--reroll-
        wounds``, [TWIN-LINKED], effects) of the faces where re-rolling gains against
        ``v_wound`` (the value of a failed, normal and Critical Wound). A re-roll sentence goes
        in ``notes``."""
        mods, tkw = sel.modifiers, target.keywords
        T = self.toughness(target)
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
        for kw, x in ab.anti:
            if kw in tkw:
                crit_w = min(crit_w, x)
        w_outcomes = c.wound_outcomes(needed, c.cap(wmod), crit_w)
        wmode = mods.reroll_wounds
        if ab.twin_linked:
            wmode = c.stronger(wmode, "all")
        for e in applied.attacker:
            if e.reroll_wounds:
                wmode = c.stronger(wmode, e.reroll_wounds)
            if e.reroll_wounds_10 and attacker.models >= 10:
                wmode = c.stronger(wmode, e.reroll_wounds_10)
        return _rerolled(w_outcomes, wmode, c.FAIL, v_wound, f"{label}: Wound roll", notes)

    def _hit_values(
        self,
        ab: WeaponAbilities,
        wound_table: RollTable,
        v_wound: tuple[float, ...],
        label: str,
        notes: list[str],
    ) -> tuple[tuple[float, float, float], bool]:
        """The expected value of a miss, a hit and a Critical Hit (which the Hit roll's
        re-rolls compare): a hit rolls to wound; a Critical Hit adds [SUSTAINED HITS X]'s extra
        hits and, with [LETHAL HITS], wounds automatically where the edition says so (Core
        rules: Sustained Hits, Lethal Hits). Also whether Lethal Hits' automatic wound is
        taken (the player's choice sentence, if any, goes in ``notes``)."""
        pw = wound_table.probabilities(3)
        per_hit = float(sum(pw[i] * v_wound[i] for i in range(3)))
        sus = ab.sustained_hits.mean if ab.sustained_hits is not None else 0.0
        lethal = False
        if ab.lethal_hits:
            lethal, said = self.lethal_hits({"auto": v_wound[c.WOUND], "roll": per_hit}, label)
            if said:
                notes.append(said)
        return (0.0, per_hit, (v_wound[c.WOUND] if lethal else per_hit) + sus * per_hit), lethal

    def _hit_table(
        self,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        w: Weapon,
        ab: WeaponAbilities,
        applied: Applied,
        hit_values: tuple[float, float, float],
        label: str,
        notes: list[str],
    ) -> RollTable:
        """The Hit roll (Core rules: Hit Roll) of a weapon that makes one (not [TORRENT]):
        the edition's BS/WS and modifiers (:meth:`_hit_terms`), Critical Hits on
        ``--crit-hit``, [CONVERSION] beyond 12" or an effect's melee threshold, snap shooting
        (only a 6 hits), and re-rolls (``--reroll-hits``, effects) of the faces where
        re-rolling gains against ``hit_values``, where the edition allows them. Sentences go
        in ``notes``."""
        assert w.skill is not None
        cond, mods, melee = sel.conditions, sel.modifiers, w.is_melee
        att = applied.attacker
        terms = self._hit_terms(sel, attacker, target, w, ab, applied.target, label, notes)
        crit = 6
        if mods.crit_hit:
            crit = min(crit, mods.crit_hit)
        if ab.conversion and cond.beyond_12 and not melee:
            crit = min(crit, 4)
        if melee:
            for e in att:
                if e.melee_crit_hit:
                    crit = min(crit, e.melee_crit_hit)
        snap = (cond.overwatch or any(e.snap_shooting for e in att)) and not melee
        outcomes = c.hit_outcomes(
            terms.characteristic(w.skill), terms.modifier(), crit, snap, terms.fail_up_to
        )
        mode = mods.reroll_hits
        if not melee:
            for e in att:
                mode = c.stronger(mode, e.ranged_reroll_hits)
                if cond.objective:
                    mode = c.stronger(mode, e.ranged_reroll_hits_objective)
        if snap and not self.snap_rerolls_allowed():
            mode = None
        return _rerolled(outcomes, mode, c.MISS, hit_values, f"{label}: Hit roll", notes)

    def _hit_terms(
        self,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        w: Weapon,
        ab: WeaponAbilities,
        tgt: list[Effect],
        label: str,
        notes: list[str],
    ) -> HitTerms:
        """The edition's BS/WS changes and Hit-roll modifiers for ``w``; with [PSYCHIC] where
        the edition lets it, the harmful ones dropped (said in ``notes``)."""
        terms = self.hit_terms(sel, attacker, target, w, ab, tgt)
        if ab.psychic and self.psychic_ignores_harmful():
            terms, dropped = terms.without_harmful()
            if dropped:
                notes.append(f"{label}: [PSYCHIC]: ignored {' and '.join(dropped)}")
        return terms

    def _save(
        self,
        sel: Selection,
        w: Weapon,
        ab: WeaponAbilities,
        ap_improve: int,
        k: Kind,
        tgt: list[Effect],
    ) -> RollTable | None:
        """Saving throw against kind ``k`` (Core rules: Saving Throw, Invulnerable Saves,
        Benefit of Cover): armour Sv modified by AP, +1 for cover (ranged, not [IGNORES
        COVER], not Sv 3+ or better against AP 0), never improved by more than 1; or the
        invulnerable save (never modified by AP or cover), whichever is better. AP never goes
        above 0 (a negative ``--ap-mod``, or a target's ability worsening AP, brings it down to
        0 at most)."""
        mods = sel.modifiers
        ap = min(0, w.AP - ap_improve + sum(e.ap_worsen for e in tgt))
        cover = self.save_cover(sel, w, ab, tgt)
        if cover and k.Sv <= 3 and ap == 0:
            cover = False
        armour_mod = min(ap + (1 if cover else 0) + mods.save_mod, 1)
        armour_o = c.save_outcomes(k.Sv, armour_mod)
        armour = RollTable(armour_o, c.reroll_faces(armour_o, mods.reroll_saves, (c.SAVE_FAILED,)))
        inv = None
        if k.invuln is not None and not (k.invuln_ranged_only and w.is_melee):
            io = c.save_outcomes(k.invuln, min(mods.save_mod, 1))
            inv = RollTable(io, c.reroll_faces(io, mods.reroll_saves, (c.SAVE_FAILED,)))
        table, _ = c.choose_save(armour, inv)
        if all(table.outcome[f] == c.SAVE_FAILED for f in range(1, 7)):
            return None
        return table

    def _fnp(
        self, sel: Selection, ab: WeaponAbilities, k: Kind, tgt: list[Effect]
    ) -> tuple[int | None, int | None]:
        """Feel No Pain X+ against the attack's normal damage and against mortal wounds (Core
        rules: Feel No Pain; a Feel No Pain "against Psychic Attacks" counts for a [PSYCHIC]
        weapon's damage of both kinds, one "against mortal wounds" for mortal wounds only)."""
        mods = sel.modifiers
        psychic = [k.fnp_psychic, *(e.fnp_psychic for e in tgt)] if ab.psychic else []
        normal = c.best_of(k.fnp, mods.fnp, *psychic)
        mortal = c.best_of(normal, mods.fnp_mortal, k.fnp_mortal, *(e.fnp_mortal for e in tgt))
        return normal, mortal

    def _vs(
        self,
        sel: Selection,
        w: Weapon,
        ab: WeaponAbilities,
        ap_improve: int,
        k: Kind,
        tgt: list[Effect],
    ) -> VsModel:
        mods, cond = sel.modifiers, sel.conditions
        save = self._save(sel, w, ab, ap_improve, k, tgt)
        fnp, fnp_m = self._fnp(sel, ab, k, tgt)
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
        )
        return VsModel(save, dmg, c.fnp_chance(fnp), c.fnp_chance(fnp_m))

    # ---- order, mortal wounds, hazard ------------------------------------------------------

    def _before(
        self, sel: Selection, attacker: Unit, applied: Applied, kinds: list[Kind]
    ) -> list[MortalWounds]:
        out = []
        for e in applied.attacker:
            if not e.mortal_wounds:
                continue
            count = MORTAL_ROLLS[e.mortal_wounds]()
            fnp = tuple(
                c.fnp_chance(self._fnp(sel, WeaponAbilities(), k, applied.target)[1]) for k in kinds
            )
            out.append(MortalWounds(e.name, count, fnp))
        del attacker
        return out


_UNITS: dict[tuple, tuple[UnitChoice, Unit]] = {}  # built units, see _built
UNITS_KEPT = 512


def _built(choice: UnitChoice, role: str, edition: str) -> Unit:
    """:func:`build_unit`, each (choice, role, edition) built once per process: a batch
    resolves the same units run after run. Datasheets are matched by identity (the kept
    choice holds them, so an id is not reused while kept); units are frozen, so sharing one
    changes nothing. At most UNITS_KEPT are kept (all dropped when full); errors are not kept.

    Raises:
        SelectionError: as :func:`build_unit`.
    """
    key = (
        id(choice.datasheet),
        choice.models,
        choice.loadout,
        choice.weapons,
        tuple(map(id, choice.leaders)),
        role,
        edition,
    )
    if key in _UNITS:
        return _UNITS[key][1]
    unit = build_unit(choice, role, edition)
    if len(_UNITS) >= UNITS_KEPT:
        _UNITS.clear()
    _UNITS[key] = (choice, unit)
    return unit


@dataclass(eq=False)  # a function object: compared and hashed by identity, as a closure
class _ActivationBuilder:
    """``Plan.build``: the :class:`Activation` of one set of the player's choices (an option
    index per weapon group, a variant index, a weapon order or None for the datasheets'),
    with everything else the plan resolved once. ``made`` keeps the weapon profiles already
    made, which the candidates share."""

    rules: Rules
    sel: Selection
    attacker: Unit
    target: Unit
    groups: list[GroupOptions]
    kinds: list[Kind]
    tprofile: TargetProfile
    applied: Applied
    variants: list[tuple[str, ...]]
    best: bool  # the defender's allocation order is chosen per weapon (edition 11)
    start: TargetStates | None  # --target-wounds-left
    made: dict[tuple, AttackProfile] = field(default_factory=dict)

    def __call__(
        self, picks: tuple[int, ...], variant: int, order: tuple[str, ...] | None
    ) -> Activation:
        """The activation: the weapons the picked options use, one profile each in ``order``
        (Command Re-roll kept where it adds most), the mortal wounds inflicted before the
        attacks and the attacker's Hazardous tests."""
        rules, sel, applied = self.rules, self.sel, self.applied
        used: list[tuple[ModelGroup, Weapon, int]] = []
        for g, i in zip(self.groups, picks, strict=True):
            for w in g.options[i].weapons:
                used.append((g.group, w, g.group.count))
        profiles = rules._profiles(
            sel,
            self.attacker,
            self.target,
            used,
            self.kinds,
            self.tprofile,
            applied,
            self.variants[variant] if self.variants else None,
            self.made,
        )
        profiles = ordered(profiles, order)
        notes: tuple[str, ...] = ()
        if any(e.command_reroll for e in applied.attacker):
            profiles, notes = keep_command_reroll(profiles, self.tprofile)
        return Activation(
            tuple(profiles),
            self.tprofile,
            tuple(rules._before(sel, self.attacker, applied, self.kinds)),
            rules.hazard(self.attacker, used),
            lowest_first=rules.saves_lowest_first(),
            best_allocation=self.best,
            start=self.start,
            notes=notes,
        )


def _rerolled(
    outcomes: tuple[int, ...],
    mode: str | None,
    failed: int,
    values: tuple[float, ...],
    roll: str,
    notes: list[str],
) -> RollTable:
    """A Hit or Wound roll's table: each face's outcome and whether it is re-rolled (Core
    rules: Re-rolls; :func:`~wh40k_calc.rules.common.reroll_faces`): under ``mode``, a 1
    ("ones"), the faces whose outcome is ``failed`` ("fails"), or those worth less than a
    fresh roll by ``values``, the expected value of each outcome ("all"). The sentence naming
    the faces re-rolled (``roll``: ``NAME: Hit roll``) goes in ``notes``."""
    table = RollTable(outcomes, c.reroll_faces(outcomes, mode, (failed,), values))
    said = c.describe_rerolls(roll, table, mode)
    if said:
        notes.append(said)
    return table


def _idle_phase_notes(sel: Selection) -> list[str]:
    """A note on the conditions given that only the other kind of attack reads (``--cover`` in
    a fight, ``--charged`` in shooting)."""
    idle = [f"--{c.replace('_', '-')}" for c in _IDLE[sel.phase] if getattr(sel.conditions, c)]
    if not idle:
        return []
    what = "ranged" if sel.phase == "fight" else "melee"
    return [f"{', '.join(idle)}: no effect in this phase (only {what} attacks use it)"]


def _wounded(sel: Selection, target: TargetProfile) -> TargetStates | None:
    """``--target-wounds-left N``: the target's first model in allocation order (the one a
    wounded model is: allocated first, seeds README "Allocating attacks"; 05.03) has N wounds
    left.

    Raises:
        SelectionError: N is not 1 .. W - 1 of that model.
    """
    n = sel.target_wounds_left
    if n is None:
        return None
    first = (*target.bodyguard, *target.characters)[0]
    if first.W == 1:
        raise SelectionError(
            f"--target-wounds-left {n}: {first.name}, the model allocated first, has W1 and "
            "cannot be left wounded"
        )
    if not 1 <= n < first.W:
        raise SelectionError(
            f"--target-wounds-left {n}: {first.name}, the model allocated first, has W"
            f"{first.W}; give 1 to {first.W - 1} (a model at 0 is destroyed: use "
            "--target-models for fewer models)"
        )
    return TargetStates.wounded_first(target, n)


# conditions that only ranged (in the Fight phase) or only melee (in shooting) attacks read
_IDLE = {
    "fight": (
        "half_range",
        "stationary",
        "cover",
        "objective",
        "overwatch",
        "indirect",
        "beyond_12",
        "plunging_fire",
    ),
    "shooting": ("charged", "disembarked"),
}


def is_character(g: ModelGroup) -> bool:
    """True for a CHARACTER model (its own keywords or its datasheet's)."""
    return "CHARACTER" in (g.profile.keywords | g.datasheet.all_keywords())


def character_role(g: ModelGroup) -> str:
    """How the output names a CHARACTER model of the target: "Leader" or "Support" for an
    attached character (Core rules: LEADER; edition 11, 24.22 LEADER / 24.23 SUPPORT), else
    "CHARACTER" (edition 11: a CHARACTER model of the unit's own datasheet is a group of its
    own, Save Rolls: Create Groups)."""
    if g.support:
        return "Support"
    return "Leader" if g.character else "CHARACTER"


def attacker_track(
    attacker: Unit, groups: list[ModelGroup]
) -> tuple[TargetProfile, tuple[float, ...], tuple[int, ...]]:
    """The attacking unit's models in ``groups`` as an allocation track for mortal wounds it
    suffers: non-CHARACTER models first, then CHARACTER models; each kind's Feel No Pain
    chance; and per model of the track, the index of its group in ``attacker.groups`` (-1 for
    a model standing by with ``--weapon``)."""
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


def _merge_invuln(p, extra: int | None) -> int | None:
    return c.best_of(p.invuln, extra)


def _defence(p: ModelProfile, invuln: int | None, ranged_only: bool) -> Kind:
    """The :class:`Kind` of a model profile with the given invulnerable save."""
    return Kind(
        p.name,
        p.W,
        p.Sv,
        invuln,
        ranged_only,
        p.feel_no_pain,
        fnp_mortal=p.feel_no_pain_mortal,
        fnp_psychic=p.feel_no_pain_psychic,
        damage_reduction=p.damage_reduction,
        half_damage=p.half_damage,
    )


def _model_index(groups: list[ModelGroup], group: ModelGroup) -> int:
    """Index of ``group``'s first model in the models that ``groups`` list in order."""
    return sum(g.count for g in groups[: groups.index(group)])

"""The newer edition (``--edition 11``), from its whole core rules text (data 912's
``core_rules.json``; seed 004 prints part of it): where its text differs from 10th edition,
these answers of :class:`~wh40k_calc.rules.edition.Edition` follow it; where it is silent,
10th-edition behaviour applies, inherited from :class:`~wh40k_calc.rules.edition10.Edition10`.

Differences modelled:

* 06.03 Hazard Rolls / 24.15 [HAZARDOUS]: one hazard roll per [HAZARDOUS] weapon selected;
  a roll of 1-2 fails and the unit suffers 1 mortal wound (3 if every model is a
  MONSTER/VEHICLE), allocated as 06.02 Mortal Wounds (spilling over, non-CHARACTER first).
* 24.23 [LETHAL HITS]: the player *can* choose for a critical hit to wound automatically;
  the calculator chooses whichever gives more expected effective damage (with [DEVASTATING
  WOUNDS], rolling can be better) and says so in ``choices``.
* 24.05 [BLAST X]: X additional attack dice per five models in the target; 24.06 [CLEAVE X]:
  X more attack dice per five models in the target when all of a melee weapon's attacks
  target it.
* 24.11 [EXTRA ATTACKS]: no rule keeps their A from other rules (10th edition's does).
* 15.09 Snap Shooting: only unmodified 6s hit and Hit rolls cannot be re-rolled.
* 05.03 Save Rolls (allocation groups): one group per CHARACTER model, one for all other
  models with the same W, Sv and InSv (against the attacks resolved); no CHARACTER group before
  a non-CHARACTER group, in any unit.
* 24.28 [PRECISION]: the attacker can make a visible CHARACTER group the current group;
  24.28.01: a [PRECISION] attack's Devastating Wounds mortal wounds go to that group first.
* 05.04 Inflict Damage: one weapon profile's save rolls are made together and resolved from
  the lowest result to the highest, each against the group current when it is resolved;
  mortal wounds (Devastating Wounds, hazard rolls) have no save roll and follow 06.02.
* 05.04.02 / 02.02.01 Applying Modifiers: Damage is halved after the additions and before the
  subtractions, fractions rounded up at the end.
* 24.10 [DEVASTATING WOUNDS]: the mortal wounds equal the weapon's D, which the target's rules
  acting when an attack is allocated (-1 Damage, halving, Damage 1) never reach (04.02.02).
* 05.02.01 Multiple Toughness Characteristics: an attached unit uses the highest T among its
  bodyguard models, any other unit the highest T among its models.
* 24.22 Leader / 24.34 Support: one Leader and one Support character on a Bodyguard unit
  (``units.build_unit`` with edition "11").
* 13.08 Benefit Of Cover: against a ranged attack, BS worsened by 1 (not a Hit-roll modifier,
  so outside the ±1 cap); no bonus to the save. Stealth (24.33) gives it; [IGNORES COVER]
  (24.18) removes it whatever gives it; it counts once.
* 22.05 Plunging Fire: a ranged attack at a visible target has its BS improved by 1 (never
  for or against an AIRCRAFT, 23.03). BS changes are summed, then kept within 2+..6+
  (02.02.01: BS cannot be 1+ or 7+).
* 10.07 Indirect Shooting: [INDIRECT FIRE] attacks at a target that is not visible have it
  in cover, cannot re-roll Hit rolls, and fail on an unmodified 1-5 (1-3 when the unit Remained
  Stationary and the target is visible to a friendly unit).
* 24.29 [PSYCHIC]: the attacker may ignore modifiers to BS/WS and the Hit roll: the harmful
  ones are ignored, the helpful ones kept.
* 10.06 Close-Quarters Shooting (``--engaged``) and 17.03 Shooting At Engaged Monsters And
  Vehicles (``--target-engaged``): the -1 to hit of a MONSTER/VEHICLE model shooting while
  engaged (not a [CLOSE-QUARTERS] weapon at a unit it is engaged with) and of any ranged
  attack at an engaged MONSTER/VEHICLE (not a [CLOSE-QUARTERS] weapon of a unit engaged with
  it); the weapons and targets of an engaged unit are ``rules.engaged``'s; ``--engaged`` with
  ``--stationary`` (unengaged, for [HEAVY]) or ``--indirect`` (10.07) is refused.

Refused, because their edition-11 text is not in data 912 (the core rules name them but do
not print them): the core stratagems file 004 does not print (``Effect.editions``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dice import Dice
from ..notes import OptionNote
from ..profile import HazardProfile
from ..records import replace
from ..selection import SelectionError, UsageError
from .edition10 import Edition10
from .engaged import big_unit, target_engaged
from .idle import cover_unused
from .mortal import attacker_track
from .target import is_character

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..datasheet import Weapon
    from ..selection import Selection
    from ..units import ModelGroup, Unit
    from .hit import HitTerms


class Edition11(Edition10):
    """Edition-11 rules (seed 004; :class:`~wh40k_calc.rules.edition.Edition`)."""

    name = "11"

    def toughness(self, target: Unit) -> int:
        """05.02.01 Multiple Toughness Characteristics: an attached unit uses the highest T
        among its bodyguard models; otherwise the highest T among its models."""
        return super().toughness(target)

    def hazard(
        self, attacker: Unit, used: list[tuple[ModelGroup, Weapon, int]]
    ) -> HazardProfile | None:
        """24.15 [HAZARDOUS] and 06.03 Hazard Rolls: one hazard roll per [HAZARDOUS] weapon
        selected; each fails on 1-2 and inflicts 1 mortal wound (3 if every model in the unit
        is a MONSTER/VEHICLE), allocated to the unit as 06.02 Mortal Wounds."""
        tests = sum(n for _, w, n in used if w.abilities.hazardous)
        if not tests:
            return None
        everyone = attacker.all_groups  # the whole unit, not only the weapons' bearers
        big = all(
            {"MONSTER", "VEHICLE"} & (g.profile.keywords | g.datasheet.all_keywords())
            for g in everyone
        )
        track, fnp, groups = attacker_track(attacker, list(everyone))
        mortal = Dice.parse(3 if big else 1)
        return HazardProfile(tests, 2 / 6, mortal, track, fnp, spill=True, groups=groups)

    def blast_bonus(self, abilities: WeaponAbilities) -> int:
        """24.05 [BLAST]: one additional attack dice (X with [BLAST X]) per five models."""
        return abilities.blast

    def lethal_hits(self, values: dict[str, float], label: str) -> tuple[bool, str | None]:
        """24.23 [LETHAL HITS]: the player can choose for a critical hit to wound
        automatically; it is taken when that gives at least the expected effective damage of
        rolling the Wound roll."""
        auto = values["auto"] >= values["roll"] - 1e-12
        how = "wound automatically" if auto else "roll to wound (for Critical Wounds)"
        return auto, f"{label}: Lethal Hits: critical hits {how}"

    def precision_mortals(self) -> bool:
        """24.28.01 Precision and Devastating Wounds: the mortal wounds of a [PRECISION]
        attack with [DEVASTATING WOUNDS] are first applied to the CHARACTER group picked for
        those attacks, if it is not already destroyed (then as 06.02 Mortal Wounds)."""
        return True

    def precision_one_group(self) -> bool:
        """24.28 [PRECISION]: the attacker selects one CHARACTER group at the start of the
        Allocation Order step; it is the current group "until those attacks are resolved, or
        until that CHARACTER group is destroyed (whichever happens first)": the weapon's other
        attacks then follow the unit's allocation order (non-CHARACTER groups first)."""
        return True

    def precision_sentence(self, names: list[str]) -> str:
        """24.28 [PRECISION]: one CHARACTER group is picked when the weapon starts (the
        calculator picks the first listed, or one with a wounded model: see
        ``engine.allocation``) and stays current until it is destroyed; the weapon's other
        attacks then follow the unit's allocation order (Bodyguard first)."""
        wounded = "; a wounded CHARACTER model is picked first" if len(names) > 1 else ""
        return (
            f"[PRECISION] attacks allocated to {names[0]} (picked{wounded}), then by the "
            "allocation order once it is destroyed (24.28)"
        )

    def snap_rerolls_allowed(self) -> bool:
        """15.09 Snap Shooting: "You cannot re-roll hit rolls"."""
        return False

    def indirect_rerolls_allowed(self) -> bool:
        """10.07 Indirect Shooting: each [INDIRECT FIRE] attack "cannot re-roll hit rolls"."""
        return False

    def group_key(self, g: ModelGroup, melee: bool) -> object:
        """05.03 Save Rolls, Create Groups: one group for all other models with the same W, Sv
        and InSv characteristics. The InSv is the one against the attacks being resolved
        (05.04, step 2: the InSv the current group has): models whose invulnerable saves differ
        only against the other kind of attack (a save against melee attacks only) are one
        group; models whose saves differ against this kind are two."""
        return (g.profile.W, g.profile.Sv, g.profile.invuln_against(melee))

    def best_allocation(self, sel: Selection) -> bool:
        """05.03 Allocation Order: the defender declares the order after the wound rolls, so
        unless ``--allocation`` fixes one, the calculator declares the defender's best."""
        return sel.allocation is None or sel.allocation == "best"

    def halve_after_adding(self) -> bool:
        """05.04.02 Modifying Damage, 02.02.01 Applying Modifiers: multiplication, then
        addition, then division, then subtraction, fractions rounded up after all of them; so
        [MELTA X] (24.25: "add X to that weapon's D characteristic") and +Damage are halved
        with the D, reductions come after."""
        return True

    def devastating_allocated(self) -> bool:
        """24.10 [DEVASTATING WOUNDS]: a Critical Wound ends the attack sequence and inflicts
        mortal wounds equal to the weapon's D; the attack is never allocated, and rules that
        act when an attack is allocated trigger only in step 1 of Inflict Damage (04.02.02,
        05.04), so they never change that number. A rule that acts when the attack targets
        the unit does (04.02.02), since a change to an attack is a change to its weapon
        (04.01.04)."""
        return False

    def saves_lowest_first(self) -> bool:
        """05.03 Make Save Rolls: one save roll for each attack that wounded the target, made
        together (05.00); 05.04 Inflict Damage: resolved from the lowest result to the highest,
        each against the current allocation group (05.04.01), until all are resolved or the
        unit is destroyed (core_rules.json; the seeds README's summary of it matches)."""
        return True

    def split_tracks(self, target: Unit, melee: bool) -> tuple[list[ModelGroup], list[ModelGroup]]:
        """05.03 Save Rolls, Create Groups / Allocation Order: CHARACTER models come after every
        non-CHARACTER group in any unit; other models are grouped by equal W, Sv and InSv
        (:meth:`group_key`, against melee attacks with ``melee``), in the order each group
        first appears."""
        groups = list(target.groups)
        others = [g for g in groups if not is_character(g)]
        chars = [g for g in groups if is_character(g)]
        if not others:
            return chars, []
        keys: list[object] = []
        for g in others:
            key = self.group_key(g, melee)
            if key not in keys:
                keys.append(key)
        ordered = sorted(others, key=lambda g: keys.index(self.group_key(g, melee)))
        return ordered, chars

    def ranged_hit_terms(
        self,
        terms: HitTerms,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        ab: WeaponAbilities,
        covered: bool,
        stealth_fx: bool,
    ) -> HitTerms:
        """Ranged attacks: the Benefit of Cover (``covered``, ``rules.cover``: from
        ``--cover``, Stealth (24.33), an effect's cover or Stealth, or indirect shooting; not
        against [IGNORES COVER], 24.18) worsens the BS by 1 (13.08: "worsen the BS
        characteristic of that attack by 1"), once whatever gives it; plunging fire (22.05:
        "improve the BS characteristic of that attack by 1") against a visible target, so not
        with ``--indirect``, and not when the attacker or the target is an AIRCRAFT (23.03).

        Indirect shooting (10.07, ``--indirect``: the target not visible to the attacker), for
        each [INDIRECT FIRE] attack: the target has the Benefit of Cover, Hit rolls cannot be
        re-rolled, and an unmodified 1-5 fails, or 1-3 if the unit Remained Stationary and the
        target is visible to a friendly unit (``--spotted``). No -1 to the Hit roll (10th
        edition's)."""
        del stealth_fx  # Stealth is one of the sources of ``covered`` (24.33)
        cond = sel.conditions
        indirect = cond.indirect and ab.indirect_fire
        if covered:
            terms = terms.add_skill("the Benefit of Cover", -1)
        if cond.plunging_fire and not cond.indirect and not _aircraft(attacker, target):
            terms = terms.add_skill("plunging fire", 1)
        if indirect:  # no re-rolls: :meth:`indirect_rerolls_allowed`
            terms = replace(terms, fail_up_to=3 if cond.spotted else 5)
        return terms

    def engaged_hit_terms(
        self,
        terms: HitTerms,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        big: bool,
        ab: WeaponAbilities,
        lifted: bool,
    ) -> HitTerms:
        """10.06 Close-Quarters Shooting: each attack a MONSTER/VEHICLE model (``big``) makes
        while its unit is engaged (``--engaged``) takes -1 to the Hit roll unless it is made with
        a [CLOSE-QUARTERS] ([PISTOL]) weapon *and* targets a unit its unit is engaged with
        (``--target-engaged``); an effect may lift it (``lifted``: Ceaseless Cannonade).
        17.03 Shooting At Engaged Monsters And Vehicles: each ranged attack at an engaged
        MONSTER/VEHICLE unit (``--target-engaged``) takes -1 to the Hit roll, except a
        [CLOSE-QUARTERS] weapon's attack by a model whose unit is engaged with the target
        (``--engaged`` too); ``lifted`` does not lift it (it is the target's engagement, not the
        shooter's). Both are Hit-roll modifiers, summed with the others and capped at ±1."""
        cond = sel.conditions
        at_engaged = target_engaged(sel, attacker)
        if cond.engaged and big and not (ab.pistol and at_engaged) and not lifted:
            terms = terms.add_roll("close-quarters shooting (10.06)", -1)
        if at_engaged and big_unit(target) and not (ab.pistol and cond.engaged):
            terms = terms.add_roll("an engaged MONSTER/VEHICLE target (17.03)", -1)
        return terms

    def psychic_ignores_harmful(self) -> bool:
        """24.29 [PSYCHIC]: each attack can ignore any or all modifiers to its BS or WS and to
        its Hit roll (02.02.02 Ignore Modifiers: the harmful ones can be ignored and the helpful
        ones kept)."""
        return True

    def cover_improves_save(self) -> bool:
        """13.08 Benefit Of Cover: the only effect is the attack's BS worsened by 1
        (:meth:`ranged_hit_terms`); no bonus to the save, unlike 10th edition."""
        return False

    def stealth_gives_cover(self) -> bool:
        """24.33 Stealth: a unit every model of which has it has the benefit of cover against
        each ranged attack that targets it (13.08)."""
        return True

    def cleave_bonus(self, abilities: WeaponAbilities) -> int:
        """24.06 [CLEAVE]: when the weapon's attack dice are gathered and one target was
        selected for all its attacks (always, here), X additional attack dice for every five
        models in the target unit in the Select Targets step, rounding down."""
        return abilities.cleave

    def extra_attacks_fixed(self) -> bool:
        """24.11 [EXTRA ATTACKS] says only which weapons are selected (every [EXTRA ATTACKS]
        weapon, and one other melee weapon if possible); unlike 10th edition it does not keep
        their A from other rules: no."""
        return False

    def check_conditions(self, sel: Selection, attacker: Unit, target: Unit) -> list[str]:
        """Notes on conditions that change nothing here: plunging fire with an AIRCRAFT
        attacker or target (23.03), or against a target that is not visible (``--indirect``;
        22.05 needs "a visible unit"); ``--spotted`` without ``--indirect`` (10.07). Nothing is
        refused (``--indirect`` is 10.07 Indirect Shooting: :meth:`ranged_hit_terms`), except
        the engaged selections no shooting type allows (:func:`_engaged_refusal`).

        Raises:
            UsageError: ``--engaged`` with ``--stationary`` or ``--indirect``.
            SelectionError: ``--target-engaged`` at a unit that is not a MONSTER/VEHICLE without
                ``--engaged``.
        """
        cond = sel.conditions
        if sel.phase != "shooting":
            return []
        why = _engaged_refusal(sel, target)
        if why:  # two conditions that exclude each other are a usage error; a target, data's
            pair = cond.engaged and (cond.stationary or cond.indirect)
            raise (UsageError if pair else SelectionError)(why)
        out: list[str] = []
        if cond.plunging_fire and _aircraft(attacker, target):
            out.append(
                OptionNote(
                    "--plunging-fire",
                    "no effect when the attacker or the target is an AIRCRAFT (23.03)",
                )
            )
        elif cond.plunging_fire and cond.indirect:
            out.append(
                OptionNote(
                    "--plunging-fire",
                    "no effect with --indirect: plunging fire needs a visible target (22.05)",
                )
            )
        if cond.spotted and not cond.indirect:
            out.append(
                OptionNote("--spotted", "no effect without --indirect (indirect shooting, 10.07)")
            )
        return out

    def advanced_refusal(self, sel: Selection) -> str | None:
        """``--advanced`` with ``--indirect``: 10.07 Indirect Shooting needs a unit that did not
        make an advance move, and assault shooting (10.05) gives no leave to target a unit that
        is not visible. ``--stationary`` is not refused: edition 11's [HEAVY] reads no model
        having moved more than 3" (24.16), which an advance move may keep to."""
        if sel.conditions.indirect:
            return (
                "--advanced with --indirect: indirect shooting (10.07) needs a unit that did not "
                "make an advance move; after one, assault shooting (10.05) targets visible units "
                "only: drop one of them"
            )
        return None

    def stealth_note(self, target: Unit, weapons: list[Weapon]) -> str:
        """24.33 Stealth: a unit every model of which has it has the benefit of cover against
        ranged attacks (13.08); cover worsens BS, so it cannot act on an attack that ignores
        cover or makes no Hit roll ([TORRENT])."""
        said = f"Stealth ({target.name}): the Benefit of Cover against ranged attacks"
        unused = cover_unused(weapons, self.name)
        return f"{said}; {unused}" if unused else said


def _engaged_refusal(sel: Selection, target: Unit) -> str | None:
    """Why an engaged selection is impossible in edition 11, or None: ``--stationary`` says
    the unit is unengaged (README; 24.16 [HEAVY]'s conditions), and indirect shooting needs an
    unengaged unit (10.07), so neither goes with ``--engaged`` (close-quarters shooting, 10.06);
    a ranged attack's target must be unengaged (04.02 Select Targets) unless it is an engaged
    MONSTER/VEHICLE (17.03) or the attacker is engaged with it (10.06)."""
    cond = sel.conditions
    if cond.engaged and cond.stationary:
        return (
            "--engaged with --stationary: in edition 11 --stationary says the unit is unengaged "
            "(the conditions of [HEAVY], 24.16), so an engaged unit (close-quarters shooting, "
            "10.06) gets no [HEAVY] bonus: drop --stationary"
        )
    if cond.engaged and cond.indirect:
        return (
            "--engaged with --indirect: indirect shooting (10.07) needs an unengaged unit; an "
            "engaged unit shoots with close-quarters shooting (10.06): drop one of them"
        )
    if cond.target_engaged and not cond.engaged and not big_unit(target):
        return (
            f"--target-engaged: {target.name} is not a MONSTER/VEHICLE, and a ranged attack's "
            "target must be unengaged (04.02) unless it is an engaged MONSTER/VEHICLE (17.03) or "
            "a unit the attacker is engaged with (close-quarters shooting, 10.06: add --engaged)"
        )
    return None


def _aircraft(attacker: Unit, target: Unit) -> bool:
    return "AIRCRAFT" in attacker.keywords or "AIRCRAFT" in target.keywords

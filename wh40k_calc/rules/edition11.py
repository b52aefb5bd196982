"""The newer edition (``--edition 11``), from seed 004 and the edition-11 core rules: where its
text differs from 10th edition, these answers of :class:`~wh40k_calc.rules.edition.Edition`
follow it; where it is silent, 10th-edition behaviour applies (seeds README), inherited from
:class:`~wh40k_calc.rules.edition10.Edition10`.

Differences modelled:

* 06.03 Hazard Rolls / 24.15 [HAZARDOUS]: one hazard roll per [HAZARDOUS] weapon selected;
  a roll of 1-2 fails and the unit suffers 1 mortal wound (3 if every model is a
  MONSTER/VEHICLE), allocated as 06.02 Mortal Wounds (spilling over, non-CHARACTER first).
* 24.23 [LETHAL HITS]: the player *can* choose for a critical hit to wound automatically;
  the calculator chooses whichever gives more expected effective damage (with [DEVASTATING
  WOUNDS], rolling can be better) and says so in ``choices``.
* 24.05 [BLAST X]: X additional attack dice per five models in the target.
* 15.09 Snap Shooting: only unmodified 6s hit and Hit rolls cannot be re-rolled.
* Save Rolls (allocation groups): one group per CHARACTER model, one for all other models
  with the same W, Sv and InSv; no CHARACTER group before a non-CHARACTER group, in any unit.
* 24.28 [PRECISION]: the attacker can make a visible CHARACTER group the current group.
* 05.04 Inflict Damage (seeds README): one weapon profile's save rolls are made together and
  resolved from the lowest result to the highest, each against the group current when it is
  resolved; mortal wounds (Devastating Wounds, hazard rolls) have no save roll and follow 06.02.
* 05.02.01 Multiple Toughness Characteristics: an attached unit uses the highest T among its
  bodyguard models, any other unit the highest T among its models.
* 24.22 Leader / 24.34 Support: one Leader and one Support character on a Bodyguard unit
  (``units.build_unit`` with edition "11").

From the seeds README ("Edition-11 weapon abilities and cover that file 004 does not print"):

* Benefit of cover (13.08): against a ranged attack, BS worsened by 1 (not a Hit-roll modifier,
  so outside the ±1 cap); no bonus to the save. Stealth gives it; [IGNORES COVER] removes it
  whatever gives it; it counts once.
* Plunging fire (22.05): a ranged attack's BS improved by 1 (not with an AIRCRAFT on either
  side). BS changes are summed, then kept within 2+..6+.
* [PSYCHIC]: the attacker may ignore modifiers to BS/WS and the Hit roll: the harmful ones are
  ignored, the helpful ones kept.
* [CLEAVE X]: X more attack dice per five models in the target (melee).

Refused, because their edition-11 text is not in our sources: ``--indirect`` (10.07 indirect
shooting) and the core stratagems file 004 does not print (``Effect.editions``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dice import Dice
from ..profile import HazardProfile
from ..selection import SelectionError
from .conditions import has_stealth
from .edition10 import Edition10
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
        """24.10 [DEVASTATING WOUNDS]: a critical wound ends the attack sequence before the
        Allocation Order step where 24.28 [PRECISION] acts, so its mortal wounds follow 06.02
        (non-CHARACTER models first)."""
        return False

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

    def group_key(self, g: ModelGroup) -> object:
        """Save Rolls, Create Groups: "One group for all other models with the same W, Sv and
        InSv characteristics"."""
        return (g.profile.W, g.profile.Sv, g.profile.invuln)

    def best_allocation(self, sel: Selection) -> bool:
        """05.03 Allocation Order: the defender declares the order after the wound rolls, so
        unless ``--allocation`` fixes one, the calculator declares the defender's best."""
        return sel.allocation is None or sel.allocation == "best"

    def saves_lowest_first(self) -> bool:
        """05.03 Make Save Rolls: "one save roll for each attack that wounded the target"; the
        05.04 Inflict Damage text (seeds README, "Edition-11 rules file 004 implies"): those
        rolls are resolved from the lowest result to the highest, each against the allocation
        group current when it is resolved."""
        return True

    def split_tracks(self, target: Unit) -> tuple[list[ModelGroup], list[ModelGroup]]:
        """Save Rolls, Create Groups / Allocation Order: CHARACTER models come after every
        non-CHARACTER group in any unit; other models are grouped by equal W, Sv and InSv, in
        the order each group first appears."""
        groups = list(target.groups)
        others = [g for g in groups if not is_character(g)]
        chars = [g for g in groups if is_character(g)]
        if not others:
            return chars, []
        keys: list[tuple] = []
        for g in others:
            key = (g.profile.W, g.profile.Sv, g.profile.invuln)
            if key not in keys:
                keys.append(key)
        ordered = sorted(
            others, key=lambda g: keys.index((g.profile.W, g.profile.Sv, g.profile.invuln))
        )
        return ordered, chars

    def ranged_hit_terms(
        self,
        terms: HitTerms,
        sel: Selection,
        attacker: Unit,
        target: Unit,
        ab: WeaponAbilities,
        cover_fx: bool,
        stealth_fx: bool,
    ) -> HitTerms:
        """Ranged attacks (seeds README): the Benefit of cover (13.08; from ``--cover``,
        Stealth or an effect's cover or Stealth, ``cover_fx``/``stealth_fx``; not
        against [IGNORES COVER]) worsens BS by 1, once whatever
        gives it; plunging fire (22.05) improves BS by 1 unless the attacker or the target is
        an AIRCRAFT."""
        cond = sel.conditions
        cover = cond.cover or has_stealth(sel, target) or cover_fx or stealth_fx
        if cover and not ab.ignores_cover:
            terms = terms.add_skill("the Benefit of Cover", -1)
        if cond.plunging_fire and not _aircraft(attacker, target):
            terms = terms.add_skill("plunging fire", 1)
        return terms

    def psychic_ignores_harmful(self) -> bool:
        """Seeds README, [PSYCHIC]: "the attacker may ignore any or all modifiers to the
        attack's BS or WS and to its Hit roll"."""
        return True

    def save_cover(self, sel: Selection, w: Weapon, ab: WeaponAbilities, cover_fx: bool) -> bool:
        """Seeds README, Benefit of cover: "There is no +1 to the saving throw as in 10th
        edition" (cover changes BS instead: :meth:`ranged_hit_terms`)."""
        del sel, w, ab, cover_fx
        return False

    def cleave_bonus(self, abilities: WeaponAbilities) -> int:
        """Seeds README, [CLEAVE X]: "add X attack dice for every five models in the target
        unit (rounding down)" (all of the weapon's attacks target the one target unit)."""
        return abilities.cleave

    def check_conditions(self, sel: Selection, attacker: Unit, target: Unit) -> list[str]:
        """``--indirect`` is refused: indirect shooting (10.07) is not in our sources, and the
        10th-edition version is not this edition's. Plunging fire with an AIRCRAFT attacker or
        target is noted as having no effect (22.05).

        Raises:
            SelectionError: ``--indirect``.
        """
        if sel.conditions.indirect and sel.phase == "shooting":
            raise SelectionError(
                "--indirect: edition 11's indirect shooting (10.07) is not in our sources "
                "(file 004 does not print it), so it is not modelled with --edition 11"
            )
        if sel.conditions.plunging_fire and sel.phase == "shooting" and _aircraft(attacker, target):
            return [
                "--plunging-fire: no effect when the attacker or the target is an AIRCRAFT (22.05)"
            ]
        return []

    def stealth_note(self, target: Unit, weapons: list[Weapon]) -> str:
        """Seeds README, [STEALTH]: the unit "has the benefit of cover against ranged
        attacks"; cover worsens BS, so it cannot act on an attack that ignores cover or makes
        no Hit roll ([TORRENT])."""
        said = f"Stealth ({target.name}): the Benefit of Cover against ranged attacks"
        unused = cover_unused(weapons)
        return f"{said}; {unused}" if unused else said


def _aircraft(attacker: Unit, target: Unit) -> bool:
    return "AIRCRAFT" in attacker.keywords or "AIRCRAFT" in target.keywords

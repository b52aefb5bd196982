"""The newer edition (``--edition 11``), from seed 004: where its text differs from 10th
edition, these hooks follow it; where it is silent, 10th-edition behaviour applies (seeds
README).

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
"""

from __future__ import annotations

from ..datasheet import Weapon
from ..dice import Dice
from ..profile import HazardProfile
from ..selection import Selection
from ..units import ModelGroup, Unit
from .base import Rules, attacker_track, is_character


class Edition11(Rules):
    """Edition-11 rules (seed 004)."""

    edition = "11"

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
        big = all(
            {"MONSTER", "VEHICLE"} & (g.profile.keywords | g.datasheet.all_keywords())
            for g in attacker.groups
        )
        track, fnp = attacker_track(attacker.name, list(attacker.groups))
        return HazardProfile(tests, 2 / 6, Dice.parse(3 if big else 1), track, fnp, spill=True)

    def blast_bonus(self, abilities) -> int:
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

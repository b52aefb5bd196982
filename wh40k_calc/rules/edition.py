"""What an edition decides: the questions whose answers differ between 10th edition and edition
11, as one small protocol.

The rule modules of the attack sequence (``attacks``, ``hit``, ``wound``, ``save``, ``damage``,
``target``, ``conditions``, ``idle``) hold every rule both editions share and ask the edition
only these questions; :class:`~wh40k_calc.rules.edition10.Edition10` answers them from the
10th-edition core rules (seeds 000, 001), :class:`~wh40k_calc.rules.edition11.Edition11` from
file 004 and the edition-11 core rules (it inherits 10th edition's answer where its text is
silent, as the seeds README says). Each answer's docstring cites its section.

Adding a question: add it here, answer it in both editions, and ask it from the one rule module
that owns the rule. Nothing outside ``rules/`` sees an edition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..datasheet import Weapon
    from ..profile import HazardProfile
    from ..selection import Selection
    from ..units import ModelGroup, Unit
    from .hit import HitTerms


class Edition(Protocol):
    """The questions an edition answers (``name``: "10" or "11")."""

    name: str

    # ---- 04.01 Select Weapons / the attacks ---------------------------------------------

    def blast_bonus(self, abilities: WeaponAbilities) -> int:
        """Attack dice a weapon adds per five target models by [BLAST] / [BLAST X]."""
        ...

    def cleave_bonus(self, abilities: WeaponAbilities) -> int:
        """Attack dice a melee weapon adds per five target models by [CLEAVE X] (0: none)."""
        ...

    def extra_attacks_fixed(self) -> bool:
        """Whether other rules leave the A of an [EXTRA ATTACKS] weapon unchanged."""
        ...

    def check_conditions(self, sel: Selection, attacker: Unit, target: Unit) -> list[str]:
        """Notes on the activation's conditions this edition reads differently (an edition may
        raise ``SelectionError`` for one it cannot resolve)."""
        ...

    def advanced_refusal(self, sel: Selection) -> str | None:
        """Why this edition cannot resolve a shooting after an Advance move (``--advanced``)
        with the selection's other conditions, or None (``--engaged`` is refused in both:
        :mod:`~wh40k_calc.rules.advanced`)."""
        ...

    # ---- 05.01 Hit Rolls ------------------------------------------------------------------

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
        """``terms`` with the edition's BS and Hit-roll changes of a ranged attack (Stealth,
        cover, [INDIRECT FIRE], plunging fire); ``covered``: the target has the Benefit of
        Cover against it (``rules.cover``); ``stealth_fx``: an effect gives it Stealth."""
        ...

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
        """``terms`` with the Hit-roll penalties of a ranged attack made while the attacking
        unit is engaged (``--engaged``) or at an engaged target (``--target-engaged``);
        ``big``: the attacking model is a MONSTER/VEHICLE; ``lifted``: an effect lifts the
        penalty for shooting while engaged (``ignore_engaged_penalty``)."""
        ...

    def psychic_ignores_harmful(self) -> bool:
        """Whether a [PSYCHIC] attack ignores the harmful BS/WS and Hit-roll changes."""
        ...

    def snap_rerolls_allowed(self) -> bool:
        """Whether Hit rolls can be re-rolled when snap shooting."""
        ...

    def indirect_rerolls_allowed(self) -> bool:
        """Whether [INDIRECT FIRE] attacks under ``--indirect`` can re-roll their Hit rolls."""
        ...

    def lethal_hits(self, values: dict[str, float], label: str) -> tuple[bool, str | None]:
        """Whether a [LETHAL HITS] Critical Hit wounds automatically (``values``: expected
        effective damage "auto" and "roll"), and the choice sentence if the player chose."""
        ...

    def stealth_note(self, target: Unit, weapons: list[Weapon]) -> str:
        """What Stealth does against ``weapons`` (the ranged weapons that can attack)."""
        ...

    def stealth_gives_cover(self) -> bool:
        """Whether Stealth gives its unit the Benefit of Cover against ranged attacks (the
        one part of ``rules.cover.benefit_of_cover`` the editions answer differently)."""
        ...

    # ---- 05.02 Wound Rolls ----------------------------------------------------------------

    def toughness(self, target: Unit) -> int:
        """The T the Wound rolls against ``target`` use."""
        ...

    # ---- 05.03 Save Rolls -----------------------------------------------------------------

    def cover_improves_save(self) -> bool:
        """Whether the Benefit of Cover (``rules.cover``) adds 1 to the armour save (else it
        acts on the BS: :meth:`ranged_hit_terms`)."""
        ...

    def saves_lowest_first(self) -> bool:
        """Whether one weapon profile's save rolls are made together and resolved from the
        lowest result up."""
        ...

    # ---- allocation: the target's models --------------------------------------------------

    def split_tracks(self, target: Unit, melee: bool) -> tuple[list[ModelGroup], list[ModelGroup]]:
        """(groups allocated first, protected CHARACTER groups) of ``target``, in order, for
        melee attacks (``melee``) or ranged ones."""
        ...

    def group_key(self, g: ModelGroup, melee: bool) -> object:
        """What makes Bodyguard model groups one allocation group (equal keys in a row) against
        melee attacks (``melee``) or ranged ones."""
        ...

    def best_allocation(self, sel: Selection) -> bool:
        """Whether the defender's allocation order is chosen per weapon and count; raises
        ``SelectionError`` for ``--allocation best`` where the edition has no such order."""
        ...

    def precision_mortals(self) -> bool:
        """Whether a [PRECISION] attack's Devastating Wounds can go to a CHARACTER model."""
        ...

    def precision_one_group(self) -> bool:
        """Whether [PRECISION] attacks stay on one CHARACTER group picked when the weapon
        starts."""
        ...

    def precision_sentence(self, names: list[str]) -> str:
        """Where [PRECISION] attacks go, for ``choices`` (``names``: CHARACTER models)."""
        ...

    # ---- 05.04 Inflict Damage ---------------------------------------------------------------

    def halve_after_adding(self) -> bool:
        """Whether halving the Damage comes after the additions ([MELTA X], +Damage) and before
        the subtractions (else before both)."""
        ...

    def devastating_allocated(self) -> bool:
        """Whether a [DEVASTATING WOUNDS] Critical Wound's mortal wounds are counted after the
        attack is allocated, so the target's rules that act when an attack is allocated (its
        Damage reductions, halving, Damage set to N) change how many there are; else they
        equal the weapon's D as it stands when the attack is made, which only rules acting
        before allocation (when the attack targets the unit) change."""
        ...

    # ---- 06.03 Hazard Rolls ---------------------------------------------------------------

    def hazard(
        self, attacker: Unit, used: list[tuple[ModelGroup, Weapon, int]]
    ) -> HazardProfile | None:
        """The attacker's Hazardous tests for the weapons ``used`` (group, weapon, models),
        or None when no weapon is Hazardous."""
        ...

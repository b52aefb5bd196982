"""10th edition (the default): the answers of :class:`~wh40k_calc.rules.edition.Edition` from
the core rules in seeds 000 and 001 and the seeds README.

The rules both editions share are the rule modules' (``attacks``, ``hit``, ``wound``, ``save``,
``damage``, ``target``, ``mortal``); this class answers only the questions whose text differs
in edition 11, each citing its section (Core rules: LEADER, Hazardous, Blast, Lethal Hits,
[PRECISION], Mortal Wounds, Benefit of Cover, Stealth, [INDIRECT FIRE], Allocating Attacks).
:class:`~wh40k_calc.rules.edition11.Edition11` inherits these answers where its text is
silent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dice import Dice
from ..notes import OptionNote
from ..profile import HazardProfile
from ..records import replace
from ..selection import SelectionError
from .conditions import has_stealth
from .engaged import big_unit, target_engaged
from .mortal import attacker_track

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..datasheet import Weapon
    from ..selection import Selection
    from ..units import ModelGroup, Unit
    from .hit import HitTerms


class Edition10:
    """10th-edition rules (:class:`~wh40k_calc.rules.edition.Edition`)."""

    name = "10"

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

    def split_tracks(self, target: Unit, melee: bool) -> tuple[list[ModelGroup], list[ModelGroup]]:
        """(Bodyguard groups, protected CHARACTER groups) of the target, in allocation order.
        10th edition (Core rules: LEADER): only the CHARACTER models of an Attached unit are
        protected while a Bodyguard model remains (whatever the kind of attack)."""
        del melee
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

    def indirect_rerolls_allowed(self) -> bool:
        """Whether [INDIRECT FIRE] attacks at a target that is not visible can re-roll their
        Hit rolls (10th edition, seeds README [INDIRECT FIRE]: nothing forbids it)."""
        return True

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
        """10th edition, ranged attacks: Stealth -1 to the Hit roll against a unit that has it
        (issue 9: "-1 to ranged Hit rolls ... inside the ±1 cap"; an effect's Stealth,
        ``stealth_fx``, too); [INDIRECT FIRE] with
        ``--indirect`` (seeds README: "subtract 1 from its Hit roll, an unmodified Hit roll of
        1, 2 or 3 always fails"). Cover (``covered``) is a save bonus here
        (:meth:`cover_improves_save`), not a BS change."""
        del attacker, covered
        if has_stealth(sel, target) or stealth_fx:
            terms = terms.add_roll("Stealth", -1)
        if ab.indirect_fire and sel.conditions.indirect:
            terms = replace(terms.add_roll("[INDIRECT FIRE]", -1), fail_up_to=3)
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
        """10th edition, Big Guns Never Tire (printed neither in seeds 000/001 nor in the seeds
        README, which print Pistol only; modelled as the published core rule, whose summary
        is: each time a ranged attack is made by or against a MONSTER/VEHICLE unit within
        Engagement Range of enemy units, -1 to its Hit roll, unless the attack is made with a
        Pistol). Two penalties, both Hit-roll modifiers inside the ±1 cap:

        * by: each ranged attack a MONSTER/VEHICLE model (``big``) makes while its unit is
          engaged (``--engaged``), unless made with a Pistol or an effect lifts it
          (``lifted``, ``ignore_engaged_penalty``);
        * against: each ranged attack at a MONSTER/VEHICLE target within Engagement Range of
          the attacker's army (``--target-engaged``, or implied: ``engaged.target_engaged``),
          unless made with a Pistol; ``lifted`` does not lift it (it is the target's
          engagement, not the shooter's)."""
        if sel.conditions.engaged and big and not ab.pistol and not lifted:
            terms = terms.add_roll("shooting while engaged (Big Guns Never Tire)", -1)
        if target_engaged(sel, attacker) and big_unit(target) and not ab.pistol:
            terms = terms.add_roll("an engaged MONSTER/VEHICLE target (Big Guns Never Tire)", -1)
        return terms

    def psychic_ignores_harmful(self) -> bool:
        """Whether [PSYCHIC] attacks ignore harmful BS/WS and Hit-roll modifiers (10th edition:
        no; seeds README: [PSYCHIC] "no effect on one attack sequence")."""
        return False

    def cover_improves_save(self) -> bool:
        """Whether the Benefit of Cover adds 1 to the armour save (Core rules: Benefit of
        Cover: +1 to the armour saving throw, never to an invulnerable one; who has it against
        which attack: ``rules.cover``): yes."""
        return True

    def stealth_gives_cover(self) -> bool:
        """Whether Stealth gives the Benefit of Cover (10th edition: no; it is -1 to the Hit
        roll of ranged attacks, :meth:`ranged_hit_terms`; the Benefit of Cover of seeds 000
        and 001 comes from terrain, ``--cover``, and rules that name it)."""
        return False

    def cleave_bonus(self, abilities: WeaponAbilities) -> int:
        """Attack dice added per five target models by [CLEAVE X] (10th edition: none; it is
        an edition-11 ability, reported as not modelled)."""
        del abilities
        return 0

    def extra_attacks_fixed(self) -> bool:
        """Whether other rules leave the A of an [EXTRA ATTACKS] weapon unchanged (10th
        edition, seeds README [EXTRA ATTACKS]: "the number of attacks it makes cannot be
        modified by other rules unless they name the weapon"): yes."""
        return True

    def check_conditions(self, sel: Selection, attacker: Unit, target: Unit) -> list[str]:
        """Notes on conditions that change nothing here (10th edition: plunging fire, 22.05,
        and ``--spotted``, 10.07: edition-11 rules); an edition may raise ``SelectionError``
        for a selection it cannot resolve (10th edition does not)."""
        del attacker, target
        out: list[str] = []
        if sel.conditions.plunging_fire and sel.phase == "shooting":
            out.append(
                OptionNote(
                    "--plunging-fire",
                    "no effect in edition 10 (plunging fire, 22.05, is an edition-11 rule)",
                )
            )
        if sel.conditions.spotted and sel.phase == "shooting":
            out.append(
                OptionNote(
                    "--spotted",
                    "no effect in edition 10 (it is edition 11's indirect shooting, 10.07)",
                )
            )
        return out

    def stealth_note(self, target: Unit, weapons: list[Weapon]) -> str:
        """What Stealth does here against ``weapons`` (the ranged weapons that can attack),
        for the notes (10th edition: -1 to ranged Hit rolls; nothing where no Hit roll is
        made, [TORRENT])."""
        said = f"Stealth ({target.name}): -1 to the Hit roll of ranged attacks"
        if weapons and all(w.abilities.torrent for w in weapons):
            said += "; no effect here: no weapon rolls to hit ([TORRENT])"
        return said

    def group_key(self, g: ModelGroup, melee: bool) -> object:
        """What makes Bodyguard models one allocation group (10th edition has no groups:
        each datasheet model group is its own run in the allocation order)."""
        del melee
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

    def halve_after_adding(self) -> bool:
        """Where halving the Damage comes (10th edition, seeds README: "halving is applied
        before adding or subtracting"): first."""
        return False

    def devastating_allocated(self) -> bool:
        """Core rules: Devastating Wounds: the attack is allocated, modifiers are applied, then
        it inflicts mortal wounds equal to its Damage: every Damage rule of the target counts."""
        return True

    def saves_lowest_first(self) -> bool:
        """Whether one weapon profile's save rolls are made together and resolved from the
        lowest result up (10th: no; each attack is allocated and saved one at a time, seeds
        README "Allocating attacks")."""
        return False

    def advanced_refusal(self, sel: Selection) -> str | None:
        """``--advanced`` with ``--stationary``: in the 10th edition a unit selected to move
        either Remains Stationary, makes a Normal move, Advances or Falls Back (Core rules,
        Movement phase; seed 000 prints the Advance and Fall Back moves), and [HEAVY] reads
        "Remained Stationary this turn" (seed 001), so a unit that Advanced did not."""
        if sel.conditions.stationary:
            return (
                "--advanced with --stationary: a unit that Advanced this turn did not Remain "
                "Stationary (10th edition: Core rules, Movement phase: one kind of move per "
                "unit; [HEAVY] needs Remained Stationary): drop one of them"
            )
        return None

"""The rules layer's entry point: from a Selection to a :class:`~wh40k_calc.rules.plan.Plan`,
and from the player's whole-activation choices to an :class:`~wh40k_calc.profile.Activation`.

:func:`plan` does everything once per selection, in the order the rules need it: both units
built (a Leader attached, granted abilities given), the effects that apply, the conditions the
edition reads, the attacker's weapon options, the target's models and allocation order, and
every note. The :class:`~wh40k_calc.rules.plan.Plan` it returns leaves the player's choices
open (which option each model group attacks with, a variant, the weapon order);
``Plan.build`` (:class:`_ActivationBuilder`) makes the activation of one set of them: one
attack profile per weapon (``attacks``), the mortal wounds before the attacks and the
attacker's Hazardous tests (``mortal``, the edition's ``hazard``). ``wh40k_calc.resolve``
tries the choices and keeps the best.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..profile import Activation, AttackProfile, TargetProfile, TargetStates
from ..selection import Selection, SelectionError, UnitChoice
from ..units import ModelGroup, Unit, build_unit
from .added import with_added_abilities
from .applied import apply_effects
from .applied import variants as _variants
from .attacks import weapon_profiles
from .command_reroll import keep_command_reroll
from .conditions import blast_x_notes, cleave_not_modelled, stealth_notes
from .idle import idle_notes, idle_phase_notes
from .mortal import before_attacks
from .plan import GroupOptions, Plan
from .situation import Situation
from .target import Kind, target_profile, wounded_start
from .unit_abilities import damaged_hit_mod, defence_notes
from .weapons import ordered, weapon_options

if TYPE_CHECKING:
    from ..datasheet import Weapon
    from .edition import Edition


@dataclass(frozen=True)
class Rules:
    """The rules of one edition (:func:`wh40k_calc.rules.get_rules`): ``plan(sel)``."""

    edition: Edition

    def plan(self, sel: Selection) -> Plan:
        """:func:`plan` with this edition."""
        return plan(self.edition, sel)


def plan(edition: Edition, sel: Selection) -> Plan:
    """Resolve everything but the player's whole-activation choices under ``edition``: both
    units, the effects that apply, the target's models and allocation order, the attacker's
    weapon options, and every note; ``Plan.build`` makes the activation of one set of choices
    (:class:`_ActivationBuilder`).

    Raises:
        SelectionError: an impossible selection (size, loadout, Leader, effect conditions,
            no weapon able to attack).
    """
    if sel.phase not in ("shooting", "fight"):
        raise SelectionError(f"unknown phase {sel.phase!r}")
    attacker = _built(sel.attacker, "attacker", edition.name)
    if sel.attacker_alive is not None:  # calc exchange: the models still alive
        attacker = attacker.surviving(sel.attacker_alive)
    attacker = with_added_abilities(attacker, sel.added_abilities, edition.name)
    target = _built(sel.target, "target", edition.name)
    applied, not_modelled = apply_effects(sel, attacker, target)
    s = Situation(edition, sel, attacker, target, applied)
    _, damaged_note = damaged_hit_mod(sel, attacker)
    conditions_notes = edition.check_conditions(sel, attacker, target)
    groups, notes = weapon_options(sel, attacker)
    precise = any(w.abilities.precision for g in groups for o in g.options for w in o.weapons)
    kinds, tprofile, order, roles, listing = target_profile(s, precise)
    best = edition.best_allocation(sel)
    start = wounded_start(sel, tprofile)
    notes += conditions_notes
    notes += stealth_notes(s, groups)
    notes += idle_notes(edition, sel, target, groups, applied)
    not_modelled += cleave_not_modelled(edition, sel, groups)
    notes += blast_x_notes(edition, groups)
    variants = _variants(applied)
    return Plan(
        attacker=attacker,
        target=target,
        groups=groups,
        variants=list(variants) if variants else [],
        build=_ActivationBuilder(s, groups, kinds, tprofile, variants, best, start),
        effects=applied.ids,
        effect_sides=applied.sides,
        not_modelled=not_modelled,
        notes=[
            *attacker.notes,
            *target.notes,
            *notes,
            *defence_notes(target),
            *([damaged_note] if damaged_note else []),
            *idle_phase_notes(sel),
        ],
        allocation_order=order,
        character_roles=roles,
        target_groups=listing,
    )


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
    with everything else the plan resolved once (``s``: the situation). ``made`` keeps the
    weapon profiles already made, which the candidates share."""

    s: Situation
    groups: list[GroupOptions]
    kinds: list[Kind]
    tprofile: TargetProfile
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
        s = self.s
        used: list[tuple[ModelGroup, Weapon, int]] = []
        for g, i in zip(self.groups, picks, strict=True):
            for w in g.options[i].weapons:
                used.append((g.group, w, g.group.count))
        profiles = weapon_profiles(
            s,
            used,
            self.kinds,
            self.tprofile,
            self.variants[variant] if self.variants else None,
            self.made,
        )
        profiles = ordered(profiles, order)
        notes: tuple[str, ...] = ()
        if any(e.command_reroll for e in s.applied.attacker):
            profiles, notes = keep_command_reroll(profiles, self.tprofile)
        return Activation(
            tuple(profiles),
            self.tprofile,
            tuple(before_attacks(s, self.kinds)),
            s.edition.hazard(s.attacker, used),
            lowest_first=s.edition.saves_lowest_first(),
            best_allocation=self.best,
            start=self.start,
            notes=notes,
        )

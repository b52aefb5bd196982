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

from collections.abc import Iterator
from typing import TYPE_CHECKING

from msgspec import Struct, field

from ..abilities import parse_ability
from ..datasheet import norm_rule
from ..effect_schema import change_field, change_side
from ..kept import Kept
from ..profile import Activation, AttackProfile, TargetProfile, TargetStates
from ..records import replace
from ..selection import Selection, SelectionError, UnitChoice, UsageError
from ..units import ModelGroup, Unit, build_unit
from .added import with_added_abilities, without_abilities
from .advanced import advanced_refusal
from .applied import Applied, Variant, apply_effects, option_hints
from .attacks import attack_profile, weapon_profiles
from .changes import Changes, names
from .command_reroll import SingleReroll, keep_single_rerolls
from .conditional import against_target
from .conditions import blast_x_notes, cleave_not_modelled, stealth_notes
from .idle import (
    acting_hints,
    hint_lines,
    idle_effects,
    idle_findings,
    idle_notes,
    idle_phase_notes,
    lasting_idle,
)
from .miracle import check_named_rolls, keep_miracle_dice, miracle_only_sides, miracle_requests
from .mortal import before_attacks, from_wounds_left
from .plan import GroupOptions, Plan, acting_ids
from .situation import Situation
from .target import PER_KIND, Kind, target_profile, wounded_start
from .unit_abilities import damaged_hit_mod, defence_notes
from .weapons import ordered, weapon_options
from .when import StateSplit, UnitState, bearer_groups, facts_of, state_reads

if TYPE_CHECKING:
    from ..datasheet import Weapon
    from .edition import Edition


# the attacking unit's own state, which a ``fights_first`` change's conditions may read
FIGHTS_FIRST_STATE = (
    "attacker_below_starting_strength",
    "attacker_below_half_strength",
    "unit_min_models",
    "attacker_has_character",
)


def fights_first_reads_state(pieces: list) -> bool:
    """Whether a ``fights_first`` change (``pieces``: every one of the effects applied,
    holding or not) has a condition on the attacking unit's state (models, wounds, a
    CHARACTER alive), so that whether the unit has Fights First may change as it loses
    models (``calc exchange`` reads it per state at the start of each Fight phase)."""
    for p in pieces:
        when = p.change.when
        if when is not None and any(getattr(when, f) is not None for f in FIGHTS_FIRST_STATE):
            return True
    return False


def unit_fights_first(attacker: Unit, pieces: list) -> tuple[tuple[str, ...], list[str], bool]:
    """The names of the effects that give the attacking unit Fights First (``pieces``: the
    ``fights_first`` changes that hold), the notes to print, and whether a datasheet's own
    Fights First is withheld because another datasheet of the unit lacks it (so the unit
    gains it once those models are destroyed).

    An effect named for the unit gives it to the whole unit; a datasheet's own ability (a unit
    rule its datasheet names) only when every datasheet of an Attached unit names it too: a
    unit has Fights First while every model in it has the ability (10th edition: Core rules,
    Fights First; edition 11: 24.13 Fights First). It decides when the unit fights (12.04
    Fight Step), not what its attacks do: the note says one unit's attacks are the same."""
    if not pieces:  # no Fights First here (most activations)
        return (), [], False
    given = [p for p in pieces if p.active.owner is None]
    own = [p for p in pieces if p.active.owner is not None]
    notes = []
    lacking: list[str] = []
    if own:
        ids = {norm_rule(p.active.effect.id) for p in own}
        lacking = [ds.name for ds in attacker.datasheets if not ids & set(ds.rules)]
        if lacking:
            notes.append(
                f"{' and '.join(names(own))}: not every model of the unit has it "
                f"({', '.join(lacking)} lacks it), so the unit does not have Fights First"
            )
            own = []
    by = tuple(names(given + own))
    if by:
        notes.append(
            f"Fights First ({fights_first_sources(by)}) changes the order units fight in, not "
            "this unit's attacks (calc exchange orders the Fight phase by it)"
        )
    return by, notes, bool(lacking)


def fights_first_sources(by: tuple[str, ...]) -> str:
    """The effects that give Fights First, in words: a datasheet's own ability (its unit
    rule is named Fights First) as "its datasheet's ability"."""
    return " and ".join("its datasheet's ability" if n == "Fights First" else n for n in by)


class Rules(Struct, frozen=True):
    """The rules of one edition (:func:`wh40k_calc.rules.get_rules`): ``plan(sel)``."""

    edition: Edition

    def plan(
        self, sel: Selection, target_state: UnitState | None = None, *, words: bool = True
    ) -> Plan:
        """:func:`plan` with this edition."""
        return plan(self.edition, sel, target_state, words=words)


def plan(
    edition: Edition, sel: Selection, target_state: UnitState | None = None, *, words: bool = True
) -> Plan:
    """Resolve everything but the player's whole-activation choices under ``edition``: both
    units, the effects that apply, the target's models and allocation order, the attacker's
    weapon options, and every note; ``Plan.build`` makes the activation of one set of choices
    (:class:`_ActivationBuilder`). ``target_state``: the target's size as conditions read it
    when the activation starts from an earlier one's state (a sequence step), else as built.
    ``words`` False: for a caller that shows no note (``calc compare --csv``), the notes
    that only words need are not worked out (the options and conditions with no effect,
    Stealth, [BLAST X], the target's defences, the phase's idle conditions, what the effects
    leave out): the plan's ``notes`` and ``not_modelled`` then lack them and its ``idle``
    holds only the phase's idle conditions; everything the activation is built from is the
    same (``tests/test_shared_work.py``).

    Raises:
        SelectionError: an impossible selection (size, loadout, Leader, effect conditions,
            no weapon able to attack).
    """
    if sel.phase not in ("shooting", "fight"):
        raise SelectionError(f"unknown phase {sel.phase!r}")
    attacker = built_unit(sel.attacker, "attacker", edition.name)
    if sel.attacker_alive is not None:  # calc exchange: the models still alive
        attacker = attacker.surviving(sel.attacker_alive)
    attacker = without_abilities(attacker, sel.without_abilities)  # --explain's subsets
    attacker = with_added_abilities(attacker, sel.added_abilities, edition.name)
    target = built_unit(sel.target, "target", edition.name)
    attacker, conditional_notes = against_target(attacker, target)  # 24.01 Abilities
    facts = facts_of(sel, attacker, target, edition, target_state)
    applied, not_modelled = apply_effects(sel, attacker, target, facts)
    bearers = bearer_groups(attacker)
    variants = applied.variants()
    changes = Changes(applied, _first(variants), bearers, edition.extra_attacks_fixed())
    s = Situation(edition, sel, attacker, target, applied, changes)
    _, damaged_note = damaged_hit_mod(sel, attacker)
    conditions_notes = edition.check_conditions(sel, attacker, target)
    if (why := advanced_refusal(edition, sel)) is not None:  # conditions that exclude each other
        raise UsageError(why)
    mortal_only = bool(changes.unit("attacker", "mortal_wounds"))
    groups, notes = weapon_options(
        sel, attacker, mortal_only, _blast_ok(changes), _assault_ok(changes)
    )
    precise = any(w.abilities.precision for g in groups for o in g.options for w in o.weapons)
    holding: frozenset[str] | None = None  # the sides holding Miracle dice
    if changes.fields("attacker", "miracle_dice") or changes.fields("target", "miracle_dice"):
        holding = check_named_rolls(s, [w for g in groups for o in g.options for w in o.weapons])
    kinds, tprofile, order, roles, listing = target_profile(s, precise)
    best = edition.best_allocation(sel)
    start = wounded_start(sel, tprofile)
    notes += conditional_notes + conditions_notes
    if words:
        notes += stealth_notes(s, groups)
    findings = idle_findings(edition, sel, target, groups, applied) if words else []
    notes += idle_notes(findings)
    every = _each_variant(applied, changes, variants, bearers, edition)
    hints = acting_hints(option_hints(applied), changes, groups, target)
    idle_fx = idle_effects(applied, every, groups, attacker, target, hints)
    notes += [i.note for i in idle_fx if i.shown]
    swap = {i.replaces: i.note for i in idle_fx if i.replaces}
    not_modelled = [swap.get(n, n) for n in not_modelled] + hint_lines(hints, idle_fx, applied)
    if words:
        not_modelled += cleave_not_modelled(edition, sel, groups)
        not_modelled += effect_parts_not_modelled(applied)
        notes += blast_x_notes(edition, groups)
    ff_pieces = changes.unit("attacker", "fights_first")
    fights_first, ff_notes, ff_lacking = unit_fights_first(attacker, ff_pieces)
    notes += ff_notes
    ff_by_state = ff_lacking or fights_first_reads_state(changes.fields("attacker", "fights_first"))
    acting, acting_sides = acting_ids(applied.ids, applied.sides, idle_fx)
    if holding is not None:
        acting_sides = miracle_only_sides(acting_sides, changes, holding)
    return Plan(
        fights_first=fights_first,
        fights_first_by_state=ff_by_state,
        state_split=_state_split(applied, facts),
        attacker=attacker,
        target=target,
        groups=groups,
        variants=[v.labels for v in variants],
        variant_defender=[v.defender for v in variants],
        build=_ActivationBuilder(
            s, groups, precise, variants, best, start, bearers, situations={0: (s, kinds, tprofile)}
        ),
        effects=acting,
        effect_sides=acting_sides,
        effect_order=list(applied.ids),
        effect_sides_all=applied.sides,
        idle_effects=tuple(idle_fx),
        effects_both=[a.effect.id for a in applied.every_active() if a.effect.side == "both"],
        effect_options=applied.options(),
        not_modelled=not_modelled,
        notes=[
            *attacker.notes,
            *target.notes,
            *notes,
            *(defence_notes(target) if words else ()),
            *([damaged_note] if damaged_note else []),
            *(idle_phase_notes(sel) if words else ()),
        ],
        allocation_order=order,
        character_roles=roles,
        target_groups=listing,
        idle=lasting_idle(sel, findings),
        unmet=tuple(applied.unmet),
    )


def _each_variant(
    applied: Applied,
    first: Changes,
    variants: list[Variant],
    bearers: frozenset[int],
    edition: Edition,
) -> Iterator[Changes]:
    """The changes of each variant (``first``: the first one's, already made), made as they
    are asked for."""
    yield first
    for v in variants[1:]:
        yield Changes(applied, v, bearers, edition.extra_attacks_fixed())


def _blast_ok(changes: Changes):
    """Whether an effect lets a [BLAST] weapon of a model group shoot a target engaged with
    the attacker (``blast_at_engaged``: :mod:`~wh40k_calc.rules.engaged`); None where no
    effect has a change (none does: ``weapons.weapon_options`` then keeps its options)."""
    if not changes.by:
        return None

    def ok(g: ModelGroup, w: Weapon) -> bool:
        return bool(changes.attacker("blast_at_engaged", changes.attack(w, g)))

    return ok


def _assault_ok(changes: Changes):
    """Whether an effect lets a ranged weapon of a model group shoot after an Advance move
    (``--advanced``, :mod:`~wh40k_calc.rules.advanced`): it gives the weapon [ASSAULT] (an
    ``ability`` or ``choose_ability`` change whose conditions hold) or makes the unit eligible
    to shoot with every weapon after Advancing (``shoots_after_advance``); None where no
    effect has a change, as :func:`_blast_ok`."""
    if not changes.by:
        return None

    def ok(g: ModelGroup, w: Weapon) -> bool:
        attack = changes.attack(w, g)
        if changes.attacker("shoots_after_advance", attack):
            return True
        pieces = changes.attacker("ability", attack) + changes.attacker("choose_ability", attack)
        return any(parse_ability(str(p.value)).key == "assault" for p in pieces)

    return ok


def _state_split(applied: Applied, facts) -> StateSplit | None:
    """The target-state conditions the engines cannot read per state (those of the attacker's
    changes and of the target's changes to the whole roll; for a unit of one model, every
    one: it has no model count to switch a kind on), or None when there are none."""
    actives = applied.every_active()
    if not actives:  # no effect (most activations)
        return None
    single = facts.target.starting <= 1
    reads: list[tuple[str, int]] = []
    for a in actives:
        rec = a.effect.record
        for c in rec.changes:
            if change_side(rec, c) != a.side:
                continue
            if a.side == "target" and change_field(c) in PER_KIND and not single:
                continue  # read per kind of model as its models die (rules.target)
            reads += state_reads(rec.when, a.side) + state_reads(c.when, a.side)
    reads = list(dict.fromkeys(reads))
    return StateSplit(tuple(reads), facts.target) if reads else None


def _first(variants: list[Variant]) -> Variant | None:
    return variants[0] if variants else None


def effect_parts_not_modelled(applied: Applied) -> list[str]:
    """What the applied effects' records say they leave out (``not_modelled``), once each."""
    out = []
    for a in applied.every_active():
        nm = a.effect.record.not_modelled
        if nm:
            item = f"{a.effect.name}: {nm}"
            if item not in out:
                out.append(item)
    return out


def built_units(sel: Selection) -> tuple[Unit, Unit]:
    """The attacking unit (abilities granted) and the target as :func:`plan` builds them."""
    attacker = built_unit(sel.attacker, "attacker", sel.edition)
    attacker = with_added_abilities(attacker, sel.added_abilities, sel.edition)
    return attacker, built_unit(sel.target, "target", sel.edition)


UNITS_KEPT = 512
_UNITS: Kept[tuple, tuple[UnitChoice, Unit]] = Kept(UNITS_KEPT)  # built units, see built_unit


def built_unit(choice: UnitChoice, role: str, edition: str) -> Unit:
    """The unit ``choice`` fields (its datasheet, size, loadout or named weapons and Leaders)
    as ``role`` ("attacker" or "target") under ``edition`` ("10" or "11"), as :func:`plan`
    builds it before effects and added abilities (Core rules: Leader, Attached units):
    :func:`~wh40k_calc.units.build_unit`, each (choice, role, edition) built once per
    process: a batch resolves the same units run after run. Datasheets are matched by
    identity (the kept choice holds them, so an id is not reused while kept); units are
    frozen, so sharing one changes nothing. At most UNITS_KEPT are kept (all dropped when
    full); errors are not kept.

    Raises:
        SelectionError: as :func:`~wh40k_calc.units.build_unit` (a size, loadout, named
            weapons or Leader the datasheets do not allow).
    """
    key = (
        id(choice.datasheet),
        choice.models,
        choice.loadout,
        choice.weapons,
        tuple(map(id, choice.leaders)),
        choice.leader_loadouts,
        role,
        edition,
    )
    kept = _UNITS.get(key)
    if kept is not None:
        return kept[1]
    unit = build_unit(choice, role, edition)
    _UNITS.put(key, (choice, unit))
    return unit


class _ActivationBuilder(Struct, eq=False):  # a function object: compared and hashed by identity
    """``Plan.build``: the :class:`Activation` of one set of the player's choices (an option
    index per weapon group, a variant index, a weapon order or None for the datasheets'),
    with everything else the plan resolved once (``s``: the situation of the first variant;
    each variant has its own changes, :meth:`situation`). ``made`` keeps the weapon profiles
    already made, which the candidates share; ``situations`` those of the variants made (the
    first one's is the plan's own: the same changes and target); ``built`` the activations
    made (frozen), by choices."""

    s: Situation
    groups: list[GroupOptions]
    precise: bool
    variants: list[Variant]
    best: bool  # the defender's allocation order is chosen per weapon (edition 11)
    start: TargetStates | None  # --target-wounds-left
    bearers: frozenset[int]
    made: dict[tuple, AttackProfile] = field(default_factory=dict)
    situations: dict[int, tuple] = field(default_factory=dict)
    built: dict[tuple, Activation] = field(default_factory=dict)

    def situation(self, variant: int) -> tuple[Situation, list[Kind], TargetProfile]:
        """The situation of variant ``variant`` (its changes) and the target as it sees it."""
        if variant not in self.situations:
            s = self.s
            if self.variants:
                s = replace(
                    s,
                    changes=Changes(
                        s.applied,
                        self.variants[variant],
                        self.bearers,
                        s.edition.extra_attacks_fixed(),
                    ),
                )
            kinds, tprofile, _, _, _ = target_profile(s, self.precise)
            self.situations[variant] = (s, kinds, tprofile)
        return self.situations[variant]

    def __call__(
        self, picks: tuple[int, ...], variant: int, order: tuple[str, ...] | None
    ) -> Activation:
        """The activation: the weapons the picked options use, one profile each in ``order``
        (each single re-roll and Miracle dice kept where it adds most), the mortal wounds
        inflicted before the attacks and the attacker's Hazardous tests; each set of choices
        built once (the player's choices are scored, then the best is built again)."""
        key = (tuple(picks), variant, None if order is None else tuple(order))
        if key not in self.built:
            self.built[key] = self._build(picks, variant, order)
        return self.built[key]

    def _build(
        self, picks: tuple[int, ...], variant: int, order: tuple[str, ...] | None
    ) -> Activation:
        s, kinds, tprofile = self.situation(variant)
        used: list[tuple[ModelGroup, Weapon, int]] = []
        for g, i in zip(self.groups, picks, strict=True):
            for w in g.options[i].weapons:
                used.append((g.group, w, g.group.count))
        origins: dict[str, tuple[ModelGroup, Weapon, int]] = {}
        profiles = weapon_profiles(s, used, kinds, tprofile, variant, self.made, origins)
        profiles = ordered(profiles, order)
        notes: tuple[str, ...] = ()
        rerolls = _single_rerolls(s, origins)
        if rerolls:

            def rebuild(p: AttackProfile) -> AttackProfile:
                g, w, n = origins[p.name]
                first = _first_kind(p, tprofile)
                again = attack_profile(s, w, g, n, p.name, kinds, first, once_damage=True)
                return replace(again, choices=p.choices, reroll_one_damage=True)

            profiles, notes = keep_single_rerolls(profiles, tprofile, rerolls, rebuild)
        miracles = miracle_requests(s, origins)
        if miracles:
            profiles, more = keep_miracle_dice(profiles, tprofile, miracles)
            notes = (*notes, *more)
        uncut = [p.name for p in profiles if any(v.mortal_damage is not None for v in p.vs)]
        if uncut:  # why the mortal wounds differ from 10th edition's, in the player's words
            notes = (*notes, _uncut_mortal_note(uncut))
        return Activation(
            tuple(profiles),
            tprofile,
            tuple(before_attacks(s, kinds)),
            from_wounds_left(s.edition.hazard(s.attacker, used), s.sel.attacker_wounds_left),
            lowest_first=s.edition.saves_lowest_first(),
            best_allocation=self.best,
            start=self.start,
            notes=notes,
        )


def _uncut_mortal_note(weapons: list[str]) -> str:
    """The note of the weapons whose [DEVASTATING WOUNDS] mortal wounds the target's Damage
    rules do not cut (``VsModel.mortal_damage``; edition 11, 24.10)."""
    return (
        f"{' and '.join(weapons)}: [DEVASTATING WOUNDS] mortal wounds equal the weapon's D "
        "(24.10: the attack is never allocated), so the target's rules that act when an "
        "attack is allocated (-1 Damage, halving) do not reduce them"
    )


def _first_kind(p: AttackProfile, tprofile: TargetProfile) -> int:
    """The model kind ``p``'s attacks go to first."""
    if p.precision and tprofile.characters:
        return tprofile.characters[0].kind
    return (tprofile.bodyguard or tprofile.characters)[0].kind


def _single_rerolls(
    s: Situation, origins: dict[str, tuple[ModelGroup, Weapon, int]]
) -> list[SingleReroll]:
    """The single re-rolls the attacker's effects give (Command Re-roll's Wound roll, an
    effect's one Hit, Wound or Damage roll; one Hit or Wound roll changed to a 6), each with
    the weapon profiles it may be kept for (its scope and conditions)."""
    out = []
    fx = s.changes
    for which in ("command_reroll", "single_reroll", "single_six"):
        for piece in fx.fields("attacker", which):
            weapons = frozenset(
                name
                for name, (g, w, _) in origins.items()
                if piece in fx.attacker(which, fx.attack(w, g))
            )
            if which == "single_six":  # one roll of the kinds listed, changed to a 6
                v = piece.value
                kinds = tuple(str(k) for k in v) if isinstance(v, list) else (str(v),)
                out.append(SingleReroll(kinds[0], piece.name, weapons, 6, kinds[1:]))
                continue
            roll = "wound" if which == "command_reroll" else str(piece.value)
            out.append(SingleReroll(roll, piece.name, weapons))
    return out

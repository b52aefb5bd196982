"""The vocabulary of effect records: army rules, detachment rules, stratagems, enhancements and
unit rules as data (the files under ``effects/``, one per faction and edition).

A record says *what* a rule changes in one attack sequence and *when*; the rules layer
(``wh40k_calc/rules/``) turns each change into the same numbers a command-line option gives
(``hit_mod: 1`` is ``--hit-mod 1``, ``ability: lethal hits`` is ``--add-ability "lethal hits"``),
so the engines never learn a rule's name (DESIGN.md). This module is only the schema: the
shapes, the allowed values and their meaning. A file that uses a field the vocabulary lacks is
refused at load with the file and the field named (``forbid_unknown_fields``), never ignored.

A file::

    schema: 1
    edition: 11                      # 10 or 11
    faction: Adeptus Astartes        # the data's faction name (or "Core" for core stratagems)
    data: {source: game-datacards, version: 912}   # where the rules were read
    effects: [ <Record>, ... ]       # the modelled rules
    coverage: [ <Coverage>, ... ]    # every other rule of the faction's data, with its status

Meaning of a record, field by field, is in the docstrings below. Conditions (``When``) apply
at two levels: the record's ``when`` (all of the record or nothing: an effect whose record-level
conditions fail is refused with the reason) and each change's own ``when`` (that change alone
applies or not; no refusal). Every condition present must hold; a boolean condition written
``false`` requires the opposite ("not Below Half-strength"), which is how "X; if Y, Z instead"
is written: one change with ``Y: false``, one with ``Y: true``.

(No ``from __future__ import annotations`` here: msgspec reads these annotations when it
first decodes an effect file, and text annotations would each be compiled and evaluated then,
about 2 ms of every start-up; the two that name a class defined later are quoted.)
"""

from pathlib import Path
from typing import Annotated, Literal

import msgspec

Phase = Literal["shooting", "fight"]
Side = Literal["attacker", "target", "both"]
Kind = Literal["army", "detachment", "stratagem", "enhancement", "unit", "core"]
Reroll = Literal["ones", "fails", "all"]
SaveReroll = Literal["ones", "fails"]
Weapons = Literal["all", "melee", "ranged"]
Plus = Annotated[int, msgspec.Meta(ge=2, le=6)]
Small = Annotated[int, msgspec.Meta(ge=-6, le=6)]
Positive = Annotated[int, msgspec.Meta(ge=1, le=6)]
Keyword = Annotated[str, msgspec.Meta(min_length=1, max_length=60)]
Text = Annotated[str, msgspec.Meta(min_length=1, max_length=400)]
Slug = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=80)]


class When(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Conditions. Absent means "either way"; every condition present must hold.

    From the selection (derived, never asked): ``phases`` (the phase of the activation);
    ``charged`` (the attacking unit made a Charge move this turn, ``--charged``); ``stationary``
    (``--stationary``); ``half_range`` (the target is within half range, ``--half-range``);
    ``disembarked`` (``--disembarked``); ``objective`` (``--objective``: the target is within
    range of an objective marker); ``beyond_12`` (``--beyond-12``); ``target_in_cover`` (the
    target has the Benefit of Cover, ``--cover`` or Stealth); ``engaged`` (the attacking unit is
    within Engagement Range of enemy units, ``--engaged``); ``target_engaged`` (the target is
    within Engagement Range of a unit of the attacker's army — with ``engaged``, of the
    attacking unit itself —, ``--target-engaged``, or implied by ``--engaged`` for a unit that
    can only shoot the units it is engaged with: :mod:`wh40k_calc.rules.engaged`); ``advanced``
    (the attacking unit made an Advance move this turn, ``--advanced``: in the Shooting phase;
    :mod:`wh40k_calc.rules.advanced`).
    Keywords: ``attacker_keywords`` (the attacking unit has at least one), ``attacker_all``
    (it has all), ``attacker_not`` (it has none); ``target_keywords``, ``target_all``,
    ``target_not`` likewise for the target unit. A keyword of an Attached unit counts when any
    of its units has it, except ``CHARACTER``, which counts only for the character's own attacks.
    Unit state: ``attacker_below_starting_strength`` / ``attacker_below_half_strength``
    (``--models`` below the unit's Starting Strength / Below Half-strength as the core rules
    define it: fewer models than half its Starting Strength, or for a unit of one model fewer
    wounds left than half its W); ``target_below_starting_strength`` /
    ``target_below_half_strength`` (``--target-models`` / ``--target-wounds-left``, and in
    ``calc sequence`` the target's state at each step); ``unit_min_models`` (the unit the
    record is about — the attacker for an attacker-side change, the target for a target-side
    one — has at least N models; for the target, read as its models die, like Blast);
    ``target_min_models`` / ``target_max_models`` (the target unit has at least / at most N
    models, read as its models die); ``attacker_has_character`` (the attacking unit is or
    contains a CHARACTER model: a character alone, or an Attached unit);
    ``target_has_character`` (the target unit is or contains a CHARACTER model, read when the
    activation starts: "the bearer's unit" of a target-side enhancement, which a character on
    its own is too; "while the bearer is leading a unit" is ``leading``).
    Leaders (Core rules: Leader; edition 11, 19 Attached Units): ``leading`` (the model whose
    datasheet names this record in ``rules:`` is a Leader, or an edition-11 Support
    character, of the Attached unit it acts for: "while this model is leading a unit"; a
    record named with ``--effect`` and no such datasheet: the unit is an Attached unit);
    ``led_by`` (the unit it acts for — the attacker for an attacker-side change, the target
    for a target-side one — is an Attached unit one of whose Leaders has one of these
    keywords: "while a CAPTAIN model is leading this unit").
    Models: ``with_model`` (the unit it acts for has at least one model of one of these names,
    read when the activation starts: the bearer of wargear that only those models carry, as
    Victrix Honour Guard's Banner of Macragge, the Chapter Ancient's; a loadout without that
    model has none).
    Per attack (change level only): ``strength_above_toughness`` (the attack's S is greater than
    the target's T); ``strength_below_toughness``.
    Player-known (neither the selection nor the data can tell): ``option`` — the name of one of
    the record's ``options``, which the player gives as ``--effect ID:OPTION``; ``not_option``
    — that option was not given (for "X, or Y instead if ...").
    Per weapon (change level only): ``weapon_damage`` (N: the attacking weapon's Damage
    characteristic, unmodified — as its profile prints it, before any rule adds to it, sets it,
    halves or reduces it — is the number N; a random Damage such as D3 or D6+1 never is, even
    when it rolls N: "attacks with an unmodified Damage characteristic of 1").
    """

    phases: list[Phase] | None = None
    charged: bool | None = None
    stationary: bool | None = None
    half_range: bool | None = None
    disembarked: bool | None = None
    objective: bool | None = None
    beyond_12: bool | None = None
    target_in_cover: bool | None = None
    engaged: bool | None = None
    target_engaged: bool | None = None
    advanced: bool | None = None
    attacker_keywords: list[Keyword] | None = None
    attacker_all: list[Keyword] | None = None
    attacker_not: list[Keyword] | None = None
    target_keywords: list[Keyword] | None = None
    target_all: list[Keyword] | None = None
    target_not: list[Keyword] | None = None
    attacker_below_starting_strength: bool | None = None
    attacker_below_half_strength: bool | None = None
    target_below_starting_strength: bool | None = None
    target_below_half_strength: bool | None = None
    unit_min_models: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    target_min_models: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    target_max_models: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    attacker_has_character: bool | None = None
    target_has_character: bool | None = None
    leading: bool | None = None
    led_by: list[Keyword] | None = None
    with_model: list[Text] | None = None
    strength_above_toughness: bool | None = None
    strength_below_toughness: bool | None = None
    option: Slug | None = None
    not_option: Slug | None = None
    weapon_damage: Annotated[int, msgspec.Meta(ge=1, le=20)] | None = None


class MortalWounds(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Mortal wounds inflicted on the target before the attacks (06.02 Mortal Wounds; they
    spill over). One of three shapes:

    * ``dice: D3`` — that many mortal wounds;
    * ``rolls: 6`` (or ``rolls: models``: one per model of the attacking unit), ``"on": 4``
      (quoted: YAML 1.1 reads a bare ``on`` key as the boolean true),
      ``each: 1`` — roll that many D6, each result of ``on``+ inflicts ``each`` (a number or
      dice text); ``extra_rolls: N`` rolls N more D6 (``rolls: models, extra_rolls: 2``: one
      per model and two more, as "roll two additional D6");
    * ``table: [{from: 2, to: 3, wounds: "1"}, {from: 4, to: 5, wounds: D3}, ...]`` — one D6,
      the row it falls in gives the mortal wounds (none outside every row).
    ``bonus`` is added to every D6 rolled (``rolls``/``table``; e.g. +1 against a CHARACTER,
    written as two changes with ``when``). ``max``: at most this many mortal wounds in all
    ("to a maximum of 6"; with ``extra_rolls``, of every D6 together). ``psychic: true``: the
    mortal wounds are inflicted by a Psychic ability, so each is a Psychic Attack (edition 11,
    22.03 Psychic Abilities; 10th edition, Core rules: Psychic) and Feel No Pain against
    Psychic Attacks applies to them as well as Feel No Pain against mortal wounds.
    """

    dice: str | None = None
    rolls: int | Literal["models"] | None = None
    extra_rolls: Annotated[int, msgspec.Meta(ge=1, le=20)] | None = None
    on: Plus | None = None
    each: str | None = None
    table: "list[TableRow] | None" = None  # TableRow comes next
    bonus: Small = 0
    max: Annotated[int, msgspec.Meta(ge=1, le=60)] | None = None
    psychic: bool = False


class TableRow(msgspec.Struct, forbid_unknown_fields=True, rename={"low": "from", "high": "to"}):
    """One row of a :class:`MortalWounds` table: a D6 result from ``from`` to ``to``."""

    low: Annotated[int, msgspec.Meta(ge=1, le=12)]
    high: Annotated[int, msgspec.Meta(ge=1, le=12)]
    wounds: str


class Change(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One change to the attack sequence. Exactly one change field per item (plus the scope
    fields ``weapons``, ``named``, ``when``). ``side`` of the record says whose it is: an
    attacker-side change alters the attacking unit's attacks; a target-side one alters the
    attacks made against the target (the target's defence).

    Scope (attacker side): ``weapons`` — ``melee``, ``ranged`` or ``all`` (default);
    ``named`` — only the weapons with these names (datasheet weapon names, case and
    punctuation aside; a multi-profile weapon by its base name or a profile by its full name).
    ``weapons_with`` / ``weapons_without``: only weapons that have (have none of) these
    abilities, by name without their value (``torrent``, ``pistol``, ``rapid fire``, ``blast``,
    ``anti-infantry``). ``excluding_extra_attacks``: not weapons with [EXTRA ATTACKS] (needed
    for changes to A: 10th-edition core rules say their attacks cannot be modified unless a
    rule names the weapon; by default it is on for ``attacks`` in edition 10, off in edition
    11, whose 24.11 has no such rule). ``bearer_only``: an enhancement's (or a character's)
    change that applies to its bearer alone — attacker side: only the bearer's weapons (a unit
    rule that a datasheet names in ``rules:``: that datasheet's models, a Leader's own or its
    Bodyguard's; otherwise, in an Attached unit, the CHARACTER model's; a ``grant_keyword``
    counts for the bearer's own attacks and for the unit's record-level conditions); target
    side: only attacks allocated to the bearer (a change to the whole roll, such as T or a
    Hit-roll modifier, only when the bearer is the whole target). ``when``: conditions of this
    change alone (see :class:`When`).

    Attacker-side change fields (values as the matching command-line option):
    ``hit_mod``/``wound_mod`` (added to the roll; every modifier is added up, then capped at +-1);
    ``reroll_hits``/``reroll_wounds`` (``ones``, ``fails``, ``all``: the player may re-roll any, the
    calculator chooses); ``reroll_damage`` (true); ``reroll_attacks`` (true: the rolls that
    determine A); ``crit_hit``/``crit_wound`` (Critical on an unmodified X+); ``ability`` (a weapon
    ability granted, written as a datasheet writes it: ``lethal hits``, ``sustained hits 1``,
    ``anti-infantry 4+``, ``devastating wounds``, ``precision``, ``lance``, ``ignores cover``,
    ``twin-linked``, ``assault``...); ``choose_ability`` (the player picks one of these abilities:
    the calculator picks the one that destroys most and lists it under choices); ``strength``,
    ``attacks`` (a number or dice text such as ``D3``, added), ``ap`` (improvement: 1 turns AP-1
    into AP-2), ``damage`` (added; dice text allowed), ``skill`` (improvement of BS/WS: 1 turns 4+
    into 3+; a characteristic change, outside the Hit-roll cap); ``ignore_harmful`` (``hit``,
    ``wound``, ``skill``, ``strength``, ``ap``, ``damage``: the attacker may ignore modifiers to
    these, so the harmful ones — the target's rules that worsen them — are ignored);
    ``snap_shooting`` (true: only an unmodified 6 hits); ``target_toughness`` (added to the target's
    T for these attacks, e.g. -1); ``target_save_worsen`` (N: the target models' Save characteristic
    worsened by N for these attacks, 3+ becoming 4+ — a characteristic, not a save-roll modifier:
    invulnerable saves are untouched, and in 10th edition a model whose Sv becomes worse than 3+
    takes the Benefit of Cover against AP 0); ``mortal_wounds`` (:class:`MortalWounds`, before the
    attacks); ``command_reroll`` (one failed Wound roll re-rolled, as the core stratagem);
    ``single_reroll`` (``hit``, ``wound`` or ``damage``: one such roll of the activation may be
    re-rolled, the calculator choosing which, as for ``command_reroll``); ``single_six``
    (``[hit]``, ``[wound]`` or ``[hit, wound]``: once in the activation, after the roll is seen,
    the result of one such roll is changed to an unmodified 6 — one roll in all, of the kinds
    listed; the calculator picks the weapon and the kind where it adds most and spends it on
    that weapon's first failed roll of that kind: ``rules/command_reroll.py``; the saving-throw
    side of such rules is not in the vocabulary); ``snap_hit_on`` (X: snap
    shooting that hits on an unmodified X+ instead of 6); ``attacks_set`` (the weapon's A becomes
    this number or dice), ``skill_set`` (its BS/WS becomes X+); ``grant_keyword`` (the attacking
    unit has this keyword too, for every other rule's keyword conditions); ``miracle_dice``
    (N, 1 or 2, on both sides: up to N of the unit's dice rolls this phase may be replaced,
    before they are rolled, by dice of values the player gives as the record's options —
    ``ID:6``, ``ID:6,5`` — each counting as an unmodified roll of that value: attacker side a
    Hit, Wound or Damage roll of its attacks, target side a saving throw; options ``hit``,
    ``wound``, ``damage``, ``save`` name the roll, else the calculator picks the roll and
    weapon where it adds most: :mod:`wh40k_calc.miracle_dice`, ``rules/miracle.py``).
    Shooting while engaged (:mod:`wh40k_calc.rules.engaged`): ``ignore_engaged_penalty`` (true:
    these attacks do not take the Hit-roll penalty for shooting while the attacking unit is
    within Engagement Range of enemy units — edition 11's -1 of 10.06 Close-Quarters Shooting,
    10th edition's of Big Guns Never Tire; not the -1 for targeting an engaged MONSTER/VEHICLE,
    17.03); ``blast_at_engaged`` (true: these [BLAST] weapons may shoot a target that is
    within Engagement Range of the attacking unit, which [BLAST] otherwise never does).
    Shooting after an Advance (:mod:`wh40k_calc.rules.advanced`): ``shoots_after_advance``
    (true: the unit is eligible to shoot in a turn in which it Advanced, with all its ranged
    weapons, not only its [ASSAULT] ones; read only with ``--advanced``; it grants no
    [ASSAULT] and no Hit-roll modifier).

    Target-side change fields: ``invuln`` (X+ invulnerable save; the best one is used);
    ``fnp``, ``fnp_mortal`` (against mortal wounds only), ``fnp_psychic`` (against Psychic
    Attacks only) (Feel No Pain X+); ``damage_reduction`` (N subtracted from the Damage of each
    attack allocated, minimum 1); ``half_damage`` (halved, rounding up, before subtracting);
    ``ap_worsen`` (N: AP worsened, never above 0); ``hit_mod``/``wound_mod`` (added to the Hit
    or Wound rolls of attacks against the unit, usually -1); ``save_mod`` (added to its saving
    throws, e.g. +1); ``reroll_saves`` (``ones``/``fails``); ``cover`` (true: the Benefit of
    Cover against ranged attacks); ``stealth`` (true: as the Stealth ability); ``toughness``
    (added to its models' T); ``crit_hit_against`` (X: attacks against it score Critical Hits
    only on an unmodified X+, e.g. 6 when a rule forbids better thresholds); ``wounds`` (added
    to its models' W); ``damage_set`` (the Damage of each attack allocated to it becomes N,
    e.g. 1); ``save_set`` (its models' Sv becomes X+ when that is better); ``save_improve``
    (N: its models' Save characteristic improved by N, 4+ becoming 3+ — a characteristic, not
    a save-roll modifier as ``save_mod`` is: invulnerable saves are untouched, and it is not
    held to the +1 limit of save modifiers; never better than 2+), with ``save_limit`` (X:
    this improvement never makes a Save better than X+, "this cannot improve a model's Save
    to better than 3+"; a model already better keeps its Save); ``toughness_majority`` (true:
    the Wound rolls of attacks against it use the Toughness most of its models have — of an
    Attached unit, its Bodyguard models — the highest of those tied, counted when the
    activation starts, instead of the highest; T changes then add to it).
    ``before_allocation`` (true), with ``damage_reduction``, ``half_damage`` or
    ``damage_set``: the rule acts when an attack targets the unit (04.02.02), not when it is
    allocated (the default), so it changes the attacking weapon's D (04.01.04) and, in edition
    11, the mortal wounds of [DEVASTATING WOUNDS] too (24.10: the attack is never allocated).

    Order of the Sv changes (02.02.01 Applying Modifiers): ``save_set`` first, then the
    improvements (those with a ``save_limit`` first, the strictest limit first: each stops at
    its own limit; then the others, added up), then ``target_save_worsen`` (a subtraction:
    last); the result is never better than 2+. ``armour_save_mod`` (added to its armour
    saving throws only, never to an invulnerable save — a save-roll modifier, unlike
    ``save_improve``: "add 1 to any armour saving throw"; within the same +1 cap as
    ``save_mod``).

    Fight order (attacker side, the unit the rule is for; no weapon scope): ``fights_first``
    (true: the unit has the Fights First ability — 10th edition: Core rules, Fights First;
    edition 11: 24.13 Fights First, 12.04 Fight Step). It changes no attack: ``calc exchange``
    orders the Fight phase by it, ``calc fight`` says it has no effect on one unit's attacks.
    """

    side: Literal["attacker", "target"] | None = None
    weapons: Weapons = "all"
    named: list[Text] | None = None
    weapons_with: list[Text] | None = None
    weapons_without: list[Text] | None = None
    excluding_extra_attacks: bool | None = None
    bearer_only: bool | None = None
    when: When | None = None
    # attacker side
    hit_mod: Small | None = None
    wound_mod: Small | None = None
    reroll_hits: Reroll | None = None
    reroll_wounds: Reroll | None = None
    reroll_damage: bool | None = None
    reroll_attacks: bool | None = None
    crit_hit: Plus | None = None
    crit_wound: Plus | None = None
    ability: Text | None = None
    choose_ability: list[Text] | None = None
    strength: Small | None = None
    attacks: int | str | None = None
    ap: Positive | None = None
    damage: int | str | None = None
    skill: Positive | None = None
    ignore_harmful: list[Literal["hit", "wound", "skill", "strength", "ap", "damage"]] | None = None
    snap_shooting: bool | None = None
    target_toughness: Small | None = None
    target_save_worsen: Positive | None = None
    mortal_wounds: MortalWounds | None = None
    command_reroll: bool | None = None
    single_reroll: Literal["hit", "wound", "damage"] | None = None
    single_six: list[Literal["hit", "wound"]] | None = None
    snap_hit_on: Plus | None = None
    attacks_set: int | str | None = None
    skill_set: Plus | None = None
    ignore_engaged_penalty: bool | None = None
    blast_at_engaged: bool | None = None
    shoots_after_advance: bool | None = None
    miracle_dice: Annotated[int, msgspec.Meta(ge=1, le=2)] | None = None
    grant_keyword: Keyword | None = None
    # target side
    invuln: Plus | None = None
    fnp: Plus | None = None
    fnp_mortal: Plus | None = None
    fnp_psychic: Plus | None = None
    damage_reduction: Positive | None = None
    half_damage: bool | None = None
    ap_worsen: Positive | None = None
    save_mod: Small | None = None
    reroll_saves: SaveReroll | None = None
    cover: bool | None = None
    stealth: bool | None = None
    toughness: Small | None = None
    crit_hit_against: Plus | None = None
    wounds: Small | None = None
    damage_set: Positive | None = None
    save_set: Annotated[int, msgspec.Meta(ge=2, le=6)] | None = None
    save_improve: Positive | None = None
    toughness_majority: bool | None = None
    # qualifier of save_improve (not a change field of its own)
    save_limit: Plus | None = None
    # qualifier of damage_reduction, half_damage, damage_set (not a change field of its own)
    before_allocation: bool | None = None
    armour_save_mod: Small | None = None
    fights_first: bool | None = None


SCOPE_FIELDS: tuple[str, ...] = (
    "side",
    "weapons",
    "named",
    "weapons_with",
    "weapons_without",
    "excluding_extra_attacks",
    "bearer_only",
    "when",
)
# Fields that qualify change fields (``save_limit`` of ``save_improve``...): neither scope nor
# a change of their own.
QUALIFIERS: dict[str, tuple[str, ...]] = {
    "save_limit": ("save_improve",),
    "before_allocation": ("damage_reduction", "half_damage", "damage_set"),
}
# The change fields proper (not the scope fields): exactly one per Change.
CHANGE_FIELDS: tuple[str, ...] = tuple(
    f for f in Change.__struct_fields__ if f not in SCOPE_FIELDS and f not in QUALIFIERS
)
# Which side each change field exists on (hit_mod and wound_mod exist on both).
# The fight order is the acting unit's own (attacker side).
ORDER_FIELDS: frozenset[str] = frozenset({"fights_first"})
ATTACKER_FIELDS: frozenset[str] = (
    frozenset(CHANGE_FIELDS[: CHANGE_FIELDS.index("grant_keyword") + 1]) | ORDER_FIELDS
)
TARGET_FIELDS: frozenset[str] = (
    frozenset(CHANGE_FIELDS[CHANGE_FIELDS.index("invuln") :]) - ORDER_FIELDS
) | {
    "hit_mod",
    "wound_mod",
    "miracle_dice",
}
# Changes of the whole activation, not of one weapon's attacks: no weapon scope, no per-attack
# condition (mortal wounds before the attacks, a keyword the unit gains, the target's models'
# T and W).
UNIT_FIELDS: frozenset[str] = (
    frozenset({"mortal_wounds", "grant_keyword", "toughness", "wounds", "toughness_majority"})
    | ORDER_FIELDS
)
# Changes whose own value the per-attack conditions (S against T) would read.
STRENGTH_FIELDS: frozenset[str] = frozenset(
    {"strength", "target_toughness", "toughness", "toughness_majority"}
)
# Changes to a weapon's A, which [EXTRA ATTACKS] weapons take only when named (Core rules:
# Extra Attacks; 24.11 [EXTRA ATTACKS]).
ATTACKS_FIELDS: frozenset[str] = frozenset({"attacks", "attacks_set", "reroll_attacks"})
PER_ATTACK = ("strength_above_toughness", "strength_below_toughness")
# Conditions read from the attacking weapon's profile: change level only, never on a
# change of the whole activation (UNIT_FIELDS).
PER_WEAPON = ("weapon_damage",)


def change_field(c: Change) -> str:
    """The change field a (checked) change sets."""
    return next(f for f in CHANGE_FIELDS if getattr(c, f) is not None)


def change_side(r: "Record", c: Change) -> str:  # Record comes below
    """The side a (checked) change of record ``r`` acts for: its own ``side``, else the
    record's; in a ``both`` record a field that exists on one side only says which."""
    if c.side is not None:
        return c.side
    if r.side != "both":
        return r.side
    f = change_field(c)
    return "attacker" if f in ATTACKER_FIELDS else "target"


def excludes_extra_attacks(c: Change, fixed: bool = True) -> bool:
    """Whether a change leaves [EXTRA ATTACKS] weapons alone: as written, else (the default)
    for changes to A that do not name their weapons where the edition keeps their A
    (``fixed``: 10th edition, Core rules: Extra Attacks: "the number of attacks made with it
    cannot be modified by other rules, unless that rule explicitly says so"; edition 11's
    24.11 has no such sentence)."""
    if c.excluding_extra_attacks is not None:
        return c.excluding_extra_attacks
    return fixed and change_field(c) in ATTACKS_FIELDS and not c.named


class Record(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One modelled rule (or one option of a rule that offers a choice).

    ``id``: the rule's name in lower case with hyphens (``armour-of-contempt``); an option of a
    choice rule has the option's own name (``dacatari-stance``) and ``rule`` names the rule it
    belongs to (``Martial Ka'tah``): ``--effect martial-ka-tah`` then lets the calculator
    choose the best option, ``--effect dacatari-stance`` takes that one. ``name``: as printed.
    ``rule``: the name of the rule in the data that this record models (default: ``name``);
    the coverage file maps the data's rules to records by (kind, detachment, rule).
    ``kind``: army, detachment (a detachment rule), stratagem, enhancement, unit (a datasheet
    ability), core (a core stratagem). ``detachments``: the detachments it belongs to (the same
    rule in several detachments of one faction is one record). ``cost``: as printed, e.g.
    ``1CP`` or ``20 pts`` (shown only). ``summary``: what it does, in our own words (never the
    rule's text). ``side``: attacker, target, or both (a record with changes for both sides, as
    Waaagh!: a player may apply one side with ``attacker:``/``target:``). ``when``: conditions
    of the whole record (refused with the reason when they fail). ``options``: player-known
    conditions this record's changes may name in ``when.option``, each with a short description
    (``{unravelling: "the target is unravelling"}``). ``changes``: what it does.
    ``not_modelled``: a part of the rule the changes do not model, in our words (reported with
    the effect, so a player knows what is left out). ``default``: a unit rule that applies
    whenever its conditions hold (a datasheet's own ability), without ``--effect``.
    ``picks``: for an option of a choice rule, how many of the rule's options one unit may have
    at once, as the rule's text says ("select one of the Ka'tah Stances": 1; "activate up to
    two Blessings of Khorne": 2); more given together are refused. None: no such limit (the
    records are parts of one rule, all acting together).
    """

    id: Slug
    name: Text
    kind: Kind
    summary: Text
    side: Side
    changes: Annotated[list[Change], msgspec.Meta(min_length=1)]
    rule: Text | None = None
    detachments: list[Text] | None = None
    cost: str | None = None
    when: When | None = None
    options: dict[Slug, Text] | None = None
    not_modelled: Text | None = None
    default: bool = False
    picks: Annotated[int, msgspec.Meta(ge=1, le=10)] | None = None


Status = Literal["not-attack", "not-modelled"]


class Coverage(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A rule of the faction's data that no record models: ``not-attack`` (it changes nothing
    in an attack sequence: movement, objectives, Battle-shock, Command points, ...) or
    ``not-modelled`` with the ``reason`` (in our words: what it would need)."""

    rule: Text
    kind: Kind
    status: Status
    detachment: Text | None = None
    reason: Text | None = None


class DataSource(msgspec.Struct, forbid_unknown_fields=True):
    """Where the rules of a file were read: ``source`` (``game-datacards``,
    ``wahapedia-10e-2025-07``, ``seeds``), ``version`` (a data version, e.g. 912)."""

    source: str
    version: int | str | None = None


class EffectFile(msgspec.Struct, forbid_unknown_fields=True):
    """One file of effect records: one faction (the data's name, or ``Core``), one edition."""

    schema: Literal[1]
    edition: Literal[10, 11]
    faction: Text
    data: DataSource
    effects: list[Record] = []
    coverage: list[Coverage] = []


class EffectFileError(ValueError):
    """An effect file that cannot be used; the message names the file and the field."""


def check_record(r: Record) -> list[str]:
    """The problems msgspec cannot express of one record, as messages naming the field: one
    change field per change, on a side it exists on; options named that the record lists;
    dice and ability texts that parse; per-attack conditions only where an attack reads them;
    a mortal-wound roll of one shape."""
    problems = []
    for i, c in enumerate(r.changes):
        used = [f for f in CHANGE_FIELDS if getattr(c, f) is not None]
        if len(used) != 1:
            what = ", ".join(used) if used else "none"
            problems.append(f"{r.id}: changes[{i}]: needs exactly one change field, has {what}")
        else:
            problems += _check_change(r, i, c, used[0])
        for name in ("option", "not_option"):
            option = getattr(c.when, name) if c.when else None
            if option and option not in (r.options or {}):
                problems.append(f"{r.id}: changes[{i}].when.{name}: {option!r} is not in options")
        if c.mortal_wounds is not None:
            m = c.mortal_wounds
            shapes = [m.dice is not None, m.rolls is not None, m.table is not None]
            if sum(shapes) != 1:
                problems.append(
                    f"{r.id}: changes[{i}].mortal_wounds: needs exactly one of dice, rolls, table"
                )
            if m.rolls is not None and (m.on is None or m.each is None):
                problems.append(f"{r.id}: changes[{i}].mortal_wounds: rolls needs on and each")
            if m.extra_rolls is not None and m.rolls is None:
                problems.append(f"{r.id}: changes[{i}].mortal_wounds: extra_rolls needs rolls")
        for name, owners in QUALIFIERS.items():
            if getattr(c, name) is not None and not any(getattr(c, f) is not None for f in owners):
                problems.append(f"{r.id}: changes[{i}].{name}: only with {' or '.join(owners)}")
    for name in ("option", "not_option"):
        option = getattr(r.when, name) if r.when else None
        if option and option not in (r.options or {}):
            problems.append(f"{r.id}: when.{name}: {option!r} is not in options")
    for name in PER_ATTACK:
        if r.when is not None and getattr(r.when, name) is not None:
            problems.append(f"{r.id}: when.{name}: a per-attack condition goes on a change")
    for name in PER_WEAPON:
        if r.when is not None and getattr(r.when, name) is not None:
            problems.append(f"{r.id}: when.{name}: a weapon's condition goes on a change")
    return problems


def _check_change(r: Record, i: int, c: Change, field: str) -> list[str]:
    """The problems of change ``i`` of ``r``, which sets ``field``."""
    at = f"{r.id}: changes[{i}]"
    out = []
    if c.side is not None and r.side != "both" and c.side != r.side:
        out.append(f"{at}.side: {c.side!r} in a record whose side is {r.side!r}")
    if r.side == "both" and c.side is None and field in ATTACKER_FIELDS & TARGET_FIELDS:
        out.append(f"{at}: {field} exists on both sides: give side: attacker or target")
    side = c.side or (r.side if r.side != "both" else None)
    if side == "attacker" and field not in ATTACKER_FIELDS:
        out.append(f"{at}.{field}: a target-side change in an attacker-side record")
    if side == "target" and field not in TARGET_FIELDS:
        out.append(f"{at}.{field}: an attacker-side change in a target-side record")
    when = c.when
    if field in UNIT_FIELDS or field in STRENGTH_FIELDS:
        for name in PER_ATTACK:
            if when is not None and getattr(when, name) is not None:
                out.append(f"{at}.when.{name}: {field} is not read per attack")
    if field in UNIT_FIELDS:
        for name in PER_WEAPON:
            if when is not None and getattr(when, name) is not None:
                out.append(f"{at}.when.{name}: {field} is not a weapon's: no weapon condition")
    if field == "fights_first" and c.fights_first is not True:
        out.append(f"{at}.fights_first: write true (a rule that gives Fights First)")
    if field in UNIT_FIELDS and (
        c.weapons != "all" or c.named or c.weapons_with or c.weapons_without
    ):
        out.append(f"{at}: {field} is not a weapon's: it takes no weapons, named or weapons_with")
    if field == "toughness_majority" and c.toughness_majority is False:
        out.append(f"{at}.toughness_majority: write true, or leave the change out")
    if field in ("mortal_wounds", "fights_first") and c.bearer_only:
        out.append(f"{at}.bearer_only: {field} is the unit's, not one model's")
    out += _check_texts(at, c, field)
    return out


def _check_texts(at: str, c: Change, field: str) -> list[str]:
    """Dice and ability texts of one change that do not parse."""
    from .abilities import parse_ability, split_abilities
    from .dice import Dice, DiceError

    out = []
    for name in ("attacks", "damage", "attacks_set"):
        value = getattr(c, name)
        if isinstance(value, str):
            try:
                Dice.parse(value)
            except DiceError as e:
                out.append(f"{at}.{name}: {e}")
        elif isinstance(value, int) and name == "attacks_set" and value < 0:
            out.append(f"{at}.attacks_set: {value} is not a number of attacks")
    m = c.mortal_wounds
    if m is not None:
        texts = [("dice", m.dice), ("each", m.each)]
        texts += [(f"table[{j}].wounds", row.wounds) for j, row in enumerate(m.table or [])]
        for name, text in texts:
            if text is None:
                continue
            try:
                Dice.parse(text)
            except DiceError as e:
                out.append(f"{at}.mortal_wounds.{name}: {e}")
        for j, row in enumerate(m.table or []):
            if row.low > row.high:
                out.append(f"{at}.mortal_wounds.table[{j}]: from {row.low} is above to {row.high}")
    abilities = [c.ability] if c.ability else list(c.choose_ability or [])
    for text in abilities:
        for piece in split_abilities(text):
            if parse_ability(piece).key == "datasheet rule":
                out.append(f"{at}.{field}: {piece!r} is not a weapon ability we know")
    for name in ("weapons_with", "weapons_without"):
        for text in getattr(c, name) or []:
            if _ability_key(text) is None:
                out.append(f"{at}.{name}: {text!r} is not a weapon ability we know")
    if field == "choose_ability" and len(c.choose_ability or []) < 2:
        out.append(f"{at}.choose_ability: give two abilities or more (one is ability)")
    if field == "single_six" and (not c.single_six or len(set(c.single_six)) < len(c.single_six)):
        out.append(f"{at}.single_six: give hit, wound or both, each once")
    return out


def _ability_key(text: str) -> str | None:
    """The ability key ``weapons_with`` names (``torrent``, ``rapid fire``, ``anti-infantry``:
    an [ANTI] of that keyword), or None when it is none we know."""
    from .abilities import SPECS

    norm = " ".join(text.strip().lower().split())
    keys = {s.key for s in SPECS}
    if norm in keys:
        return norm
    if norm.startswith("anti-") and len(norm) > 5:
        return norm
    from .abilities import parse_ability

    key = parse_ability(norm).key
    return None if key == "datasheet rule" else key


def load_effect_file(path: Path) -> EffectFile:
    """Parse and check one effect file.

    Raises:
        EffectFileError: malformed YAML, a field the vocabulary lacks, a value out of range, a
            change with none or several change fields, an unknown option; the message names the
            file and the field.
    """
    import yaml

    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_safe_loader())
    except (OSError, yaml.YAMLError) as e:
        raise EffectFileError(f"{path}: cannot read: {e}") from None
    try:
        data = msgspec.convert(raw, EffectFile)
    except msgspec.ValidationError as e:
        raise EffectFileError(f"{path}: {_which_record(raw, str(e))}{e}") from None
    problems = [p for r in data.effects for p in check_record(r)]
    ids = [r.id for r in data.effects]
    problems += [f"id {i!r} is used twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if problems:
        raise EffectFileError(f"{path}: " + "; ".join(problems))
    return data


def _safe_loader():
    """PyYAML's safe loader, the libyaml one (``CSafeLoader``, about 6x faster on the effect
    files: the same documents) where PyYAML was built with it, else the pure-Python one."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _which_record(raw: object, message: str) -> str:
    """``"record 'x': "`` for a validation message at ``$.effects[N]...`` whose record has a
    text id, else ``""`` (the message's path then says where)."""
    import re

    m = re.search(r"\$\.effects\[(\d+)\]", message)
    if not m or not isinstance(raw, dict) or not isinstance(raw.get("effects"), list):
        return ""
    items = raw["effects"]
    n = int(m.group(1))
    item = items[n] if n < len(items) else None
    rid = item.get("id") if isinstance(item, dict) else None
    return f"record {rid!r}: " if isinstance(rid, str) else ""


def main(argv: list[str] | None = None) -> int:
    """``python -m wh40k_calc.effect_schema FILE...``: check effect files, one line each."""
    import sys

    bad = 0
    for name in argv if argv is not None else sys.argv[1:]:
        try:
            f = load_effect_file(Path(name))
        except EffectFileError as e:
            print(e)
            bad += 1
        else:
            print(f"{name}: ok ({len(f.effects)} records, {len(f.coverage)} coverage lines)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

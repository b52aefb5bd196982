"""The datasheet data model and its YAML loading (contract: DATASHEET_FORMAT.md, part 1).

Schema checks (types, ranges, unknown fields) are done by ``msgspec``; this module adds only
the cross-references a schema cannot express (weapons named in ``equipped`` and loadouts,
loadout counts, sizes naming known models). Every error names the file and the field.

(No ``from __future__ import annotations`` here: msgspec reads the schema's annotations when
it checks the first datasheet, and text annotations would each be compiled and evaluated
then, about 2 ms of every start-up.)
"""

import re
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal

import msgspec
from msgspec import Struct

from .abilities import (
    MALFORMED,
    NOT_MODELLED,
    Ability,
    WeaponAbilities,
    ability_problem,
    misspelt_ability,
    parse_ability,
    split_abilities,
)
from .dice import Dice, DiceError
from .records import compared_without

# re-exported: the datasheet layer's own
from .sheetnames import DatasheetError, file_editions, norm_name

# ---------------------------------------------------------------------------------------------
# Schema (what the YAML may contain). Field names follow the contract exactly.

Skill = Annotated[int, msgspec.Meta(ge=2, le=6)]
Save = Annotated[int, msgspec.Meta(ge=2, le=7)]
Toughness = Annotated[int, msgspec.Meta(ge=1, le=20)]
Wounds = Annotated[int, msgspec.Meta(ge=1, le=200)]
MAX_RANGE = 999  # inches: a titan's quake cannon reaches 480" (edition 11, data 912)
Plus = Annotated[int, msgspec.Meta(ge=2, le=6)]
ArmourPen = Annotated[int, msgspec.Meta(ge=-6, le=0)]
Leadership = Annotated[int, msgspec.Meta(ge=2, le=12)]
Strength = Annotated[int, msgspec.Meta(ge=1, le=40)]
Points = Annotated[int, msgspec.Meta(ge=0, le=100_000)]
After = Annotated[int, msgspec.Meta(ge=1, le=100)]  # an added cost from the Nth copy on
NonNeg = Annotated[int, msgspec.Meta(ge=0)]
# Objective Control: the data's largest is 30 (a titan); a score no rule reads, kept sane
Control = Annotated[int, msgspec.Meta(ge=0, le=100)]
# inches: a Strike Force battlefield's long edge; the fastest model of the data moves 40"
# (edition 11's Manta, data 912), aircraft '20+' (both editions)
MAX_MOVE = 60
Move = Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE)]
# a name: some text, no control characters (ESC would reach the terminal; nothing escapes it)
CONTROL = "\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
Name = Annotated[
    str, msgspec.Meta(min_length=1, max_length=200, pattern=rf"^(?=.*\S)[^{CONTROL}]*$")
]
_CONTROL_CHAR = re.compile(f"[{CONTROL}]")


def holds_control(text: str) -> bool:
    """Whether ``text`` holds a character of :data:`CONTROL`, which no name may hold (a name
    given with one is refused, never matched with the character left out)."""
    return not text.isprintable() and _CONTROL_CHAR.search(text) is not None


class _CountEquippedSchema(msgspec.Struct, forbid_unknown_fields=True):
    count: Annotated[int, msgspec.Meta(ge=1, le=100)]
    equipped: list[str]


class _ChoiceSchema(msgspec.Struct, forbid_unknown_fields=True):
    up_to: Annotated[int, msgspec.Meta(ge=1, le=10)]
    of: Annotated[list[str], msgspec.Meta(min_length=1)]
    once: list[str] = []
    count: Annotated[int, msgspec.Meta(ge=1)] | Literal["all"] = "all"
    adds: bool = False
    sets: list[Annotated[list[str], msgspec.Meta(min_length=1)]] = []
    one_pistol: bool = False


class _NotGeneratedSchema(msgspec.Struct, forbid_unknown_fields=True):
    reason: Name
    items: list[str] = []


class _ModelSchema(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    M: Move | str | None
    T: Toughness
    Sv: Save
    W: Wounds
    Ld: Leadership
    OC: Control
    equipped: list[str] = []
    invuln: Plus | None = None
    invuln_ranged_only: bool = False
    invuln_melee_only: bool = False
    invuln_ranged: Plus | None = None
    invuln_melee: Plus | None = None
    feel_no_pain: Plus | None = None
    feel_no_pain_mortal: Plus | None = None
    feel_no_pain_psychic: Plus | None = None
    stealth: bool = False
    damage_reduction: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    half_damage: bool = False
    keywords: list[str] = []
    equipped_by_count: list[_CountEquippedSchema] = []
    choices: list[_ChoiceSchema] = []
    keeps: Annotated[int, msgspec.Meta(ge=1)] | None = None


class _WeaponSchema(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    range: Annotated[int, msgspec.Meta(ge=0, le=MAX_RANGE)] | Literal["melee", "Melee", "MELEE"]
    A: NonNeg | str
    S: Strength
    AP: ArmourPen
    D: NonNeg | str
    skill: Skill | None = None
    abilities: list[str] = []
    profile_of: str | None = None


class _SizeSchema(msgspec.Struct, forbid_unknown_fields=True):
    models: dict[str, Annotated[int, msgspec.Meta(ge=0, le=100)]]
    points: Points
    label: str = ""
    add_ons: list[str] = []


class _AddOnSchema(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    points: Points
    model: str | None = None


class _LoadoutEntrySchema(msgspec.Struct, forbid_unknown_fields=True):
    model: str
    equipped: list[str]
    count: Annotated[int, msgspec.Meta(ge=1)] | Literal["all"] = "all"
    min_unit_size: Annotated[int, msgspec.Meta(ge=1)] | None = None
    per_models: Annotated[int, msgspec.Meta(ge=1)] | None = None
    replaces: list[str] | None = None
    instead_of: str | None = None
    whole: bool | Literal["unit"] = False
    option: Annotated[int, msgspec.Meta(ge=1)] | None = None
    needs: list[str] | None = None
    excludes: list[str] | None = None


class _OptionLimitSchema(msgspec.Struct, forbid_unknown_fields=True):
    loadouts: Annotated[list[str], msgspec.Meta(min_length=1)]
    models: Annotated[int, msgspec.Meta(ge=1)]
    per_models: Annotated[int, msgspec.Meta(ge=1)] | None = None


class _LeadersAllowedSchema(msgspec.Struct, forbid_unknown_fields=True):
    starting_strength: Annotated[int, msgspec.Meta(ge=1)]
    count: Annotated[int, msgspec.Meta(ge=1, le=3)]
    one_with_keyword: str | None = None


class _DamagedSchema(msgspec.Struct, forbid_unknown_fields=True):
    wounds_left: Annotated[int, msgspec.Meta(ge=1, le=200)]
    hit_mod: Annotated[int, msgspec.Meta(ge=-6, le=0)] = 0


class _NotModelledSchema(msgspec.Struct, forbid_unknown_fields=True):
    attacker: list[str] = []
    target: list[str] = []


EditionValue = Literal[10, 11, "10", "11"]


class _DataSchema(msgspec.Struct, forbid_unknown_fields=True):
    source: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    version: Annotated[int, msgspec.Meta(ge=0)] | Annotated[str, msgspec.Meta(max_length=50)]
    date: Annotated[str, msgspec.Meta(max_length=50)] = ""


class _AdditionalCostSchema(msgspec.Struct, forbid_unknown_fields=True):
    points: Points
    after: After


class _DatasheetSchema(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    models: Annotated[list[_ModelSchema], msgspec.Meta(min_length=1)]
    sizes: Annotated[list[_SizeSchema], msgspec.Meta(min_length=1)]
    weapons: list[_WeaponSchema] = []
    points_listed: bool = True
    dropped_sizes: list[_SizeSchema] = []
    add_ons: list[_AddOnSchema] = []
    faction: str = ""
    keywords: list[str] = []
    faction_keywords: list[str] = []
    loadouts: dict[str, list[_LoadoutEntrySchema]] = {}
    option_limits: list[_OptionLimitSchema] = []
    rules: list[str] = []
    leader_of: list[str] = []
    leader_alongside: list[str] = []
    leader_alongside_bodyguard: list[str] = []
    support_of: list[str] = []
    leaders_allowed: list[_LeadersAllowedSchema] = []
    damaged: _DamagedSchema | None = None
    not_modelled: _NotModelledSchema | None = None
    options_not_generated: list[_NotGeneratedSchema] = []
    source: str = ""
    edition: EditionValue | Annotated[list[EditionValue], msgspec.Meta(min_length=1)] | None = None
    legends: bool = False
    data: _DataSchema | None = None
    additional_cost: _AdditionalCostSchema | None = None


# ---------------------------------------------------------------------------------------------
# The immutable model the rest of the program uses.


class Weapon(Struct, frozen=True, cache_hash=True):
    """One weapon profile. ``range`` is in inches, None for melee weapons; ``skill`` is the BS
    or WS (2-6, None for [TORRENT] weapons); ``AP`` is 0 or negative; A and D are dice."""

    name: str
    range: int | None
    A: Dice
    skill: int | None
    S: int
    AP: int
    D: Dice
    abilities: WeaponAbilities
    ability_texts: tuple[str, ...] = ()
    profile_of: str | None = None

    @property
    def is_melee(self) -> bool:
        """True for melee weapons (range 'melee')."""
        return self.range is None

    @property
    def key(self) -> str:
        """Normalised name used for lookups."""
        return norm_name(self.name)

    def describe(self) -> str:
        """One-line profile, e.g. ``Deffgun 48" A2 BS6+ S8 AP-1 D2 [heavy, rapid fire 1]``."""
        rng = "melee" if self.range is None else f'{self.range}"'
        skill = "N/A" if self.skill is None else f"{self.skill}+"
        ab = f" [{', '.join(self.ability_texts)}]" if self.ability_texts else ""
        kind = "WS" if self.is_melee else "BS"
        return f"{self.name} {rng} A{self.A} {kind}{skill} S{self.S} AP{self.AP} D{self.D}{ab}"


class WeaponChoice(Struct, frozen=True):
    """A wargear option that lets a model carry several weapons of a list ("can each be
    equipped with up to three of the following, and can take duplicates"): up to ``up_to``
    of ``weapons`` (keys; duplicates allowed but of those in ``once``, which a model carries
    at most one of), in place of the ones of the list it carries (a Crisis Battlesuit's burst
    cannon is one of its three guns: "cannot be equipped with more than 3 ranged weapons"),
    or with ``adds`` besides everything it carries (a Commander's high-output burst cannon,
    or the gun that replaced it, and up to three more); ``count`` models of the type may take
    it (None: all). With ``sets`` (each a list of weapon keys, a key once a copy) the model
    takes the weapons of one set or part of it, and no others of the list ("one of the
    following: 2 lascannons and 2 twin heavy bolters, or 2 lascannons and 2 twin heavy
    flamers": a Baneblade's sponsons). With ``one_pistol`` a model taking it carries at most
    one Pistol and at most one other ranged weapon (a Sergeant's footnote: two ranged weapons
    only if one is a Pistol, and one Pistol at most). ``wh40k_calc.composition`` reads it for
    ``--weapon`` and army lists."""

    up_to: int
    weapons: tuple[str, ...]
    once: frozenset[str] = frozenset()
    count: int | None = None
    adds: bool = False
    sets: tuple[tuple[str, ...], ...] = ()
    one_pistol: bool = False


class NotGenerated(Struct, frozen=True):
    """A wargear option the importer did not turn into a loadout or choice: why, and the
    equipment it names (``calc show`` lists them; ``--weapon`` can still use the weapons)."""

    reason: str
    items: tuple[str, ...] = ()


class ModelProfile(Struct, frozen=True, cache_hash=True):
    """One kind of model: its statline (Sv 7 = no save), optional invulnerable save and Feel No
    Pain (X means X+), its own extra keywords and its default equipment (weapon keys).

    Defensive unit abilities carried per model (DATASHEET_FORMAT.md): ``feel_no_pain_mortal``
    and ``feel_no_pain_psychic`` (Feel No Pain X+ against mortal wounds / Psychic Attacks only),
    ``stealth`` (the unit has Stealth while every model has it), ``damage_reduction`` (subtract
    N from each attack's Damage, never below 1) and ``half_damage`` (halve it, rounding up,
    before subtracting).

    ``invuln_ranged_only`` / ``invuln_melee_only``: the invulnerable save is only against
    ranged / only against melee attacks (at most one of them is set). ``invuln_ranged`` /
    ``invuln_melee``: an invulnerable save against ranged / melee attacks besides ``invuln``
    (Howling Banshees: 5+, and 4+ against melee attacks); against such an attack the better of
    the two is used (:meth:`invuln_against`).

    ``equipped_by_count``: (count, weapon keys) pairs: that many models of this kind carry
    those weapons instead of ``equipped`` (a datasheet's "1 X is equipped with ..."); see
    :meth:`default_equipment`. ``choices``: options giving a model several weapons of a list
    (:class:`WeaponChoice`). ``M`` is inches, a text such as ``20+`` (aircraft) as the
    datasheet prints it, or None where it prints "-" (fortifications). ``keeps``: the fewest
    models of this kind the unit has when optional kinds stand in for some of them (a loadout
    entry's ``instead_of``: the composition's minimum of the kind; None: no minimum kept).
    """

    name: str
    M: int | str | None
    T: int
    Sv: int
    W: int
    Ld: int
    OC: int
    invuln: int | None
    invuln_ranged_only: bool
    feel_no_pain: int | None
    keywords: frozenset[str]
    equipped: tuple[str, ...]
    feel_no_pain_mortal: int | None = None
    feel_no_pain_psychic: int | None = None
    stealth: bool = False
    damage_reduction: int = 0
    half_damage: bool = False
    equipped_by_count: tuple[tuple[int, tuple[str, ...]], ...] = ()
    choices: tuple[WeaponChoice, ...] = ()
    invuln_melee_only: bool = False
    invuln_ranged: int | None = None
    invuln_melee: int | None = None
    keeps: int | None = None

    def invuln_against(self, melee: bool) -> int | None:
        """The invulnerable save (X means X+; None: none) against a melee attack (``melee``)
        or a ranged one: the better of the save against every attack (``invuln``, unless it
        is for the other kind only) and the one against that kind of attack."""
        general = self.invuln
        if (self.invuln_ranged_only and melee) or (self.invuln_melee_only and not melee):
            general = None
        own = self.invuln_melee if melee else self.invuln_ranged
        found = [x for x in (general, own) if x is not None]
        return min(found) if found else None

    @property
    def key(self) -> str:
        """Normalised name used for lookups."""
        return norm_name(self.name)

    def default_equipment(self, present: int) -> list[tuple[int, tuple[str, ...]]]:
        """How ``present`` models of this kind are equipped when no loadout says otherwise:
        ``equipped_by_count`` takes its counts first, in order (as far as models are left),
        the rest carry ``equipped``. Returns (count, weapon keys) pairs: first those carrying
        ``equipped`` (the count may be 0; they are allocated attacks first), then each
        ``equipped_by_count`` entry that has models."""
        special: list[tuple[int, tuple[str, ...]]] = []
        left = present
        for n, keys in self.equipped_by_count:
            take = min(n, left)
            if take:
                special.append((take, keys))
            left -= take
        return [(left, self.equipped), *special]

    def carries(self, weapon_key: str) -> bool:
        """True when some model of this kind carries the weapon by default."""
        return weapon_key in self.equipped or any(
            weapon_key in keys for _, keys in self.equipped_by_count
        )


class UnitSize(Struct, frozen=True, dict=True):  # dict: the total, kept
    """A legal unit size: model name -> count, and its points. ``label`` is what the source
    adds to it (``Assigned Agent``); ``add_ons`` names the add-ons its points include."""

    composition: tuple[tuple[str, int], ...]
    points: int
    label: str = ""
    add_ons: tuple[str, ...] = ()

    @cached_property
    def total(self) -> int:
        """Number of models in the unit (added up once: checking a unit's size asks for each
        size's a dozen times, a sixth of checking it)."""
        return sum(n for _, n in self.composition)

    def describe(self, points: bool = False) -> str:
        """``3 Wolf Guard Headtaker, 3 Hunting Wolf``, with the label and add-ons if any
        (``5 Shadow Spectre, 1 Shadow Spectre Exarch (add-on Shadow Spectre Exarch)``), and with
        ``points`` the points too (``6 Wolf Guard Headtaker (170 pts)``)."""
        text = ", ".join(f"{n} {name}" for name, n in self.composition)
        extra = ([self.label] if self.label else []) + [f"add-on {a}" for a in self.add_ons]
        extra += [f"{self.points} pts"] if points else []
        return text + (f" ({'; '.join(extra)})" if extra else "")

    def count(self, model_name: str) -> int:
        """How many models of ``model_name`` this size has."""
        key = norm_name(model_name)
        return sum(n for name, n in self.composition if norm_name(name) == key)


class AddOn(Struct, frozen=True):
    """An optional cost the source lists besides the sizes (``Attack Bike +55``): its name,
    points, and the model of the unit it adds (None: no model of this datasheet)."""

    name: str
    points: int
    model: str | None = None


class LoadoutEntry(Struct, frozen=True):
    """``count`` models (an int, or None for all the rest) of ``model`` carry ``equipped``.

    Entries for one model type take disjoint models in order. ``min_unit_size`` refuses the
    entry in smaller units (wargear options such as "if this unit contains 10 models").
    ``per_models`` makes ``count`` a number for every that many models of the unit's Starting
    Strength ("for every 5 models in this unit, 1 ...": 2 in a unit of 10, none in one of 4;
    :meth:`models_for`). ``replaces`` (weapon keys) takes the models whose default equipment
    is that (the model's ``equipped`` or one of its ``equipped_by_count`` lists); None takes
    them from ``equipped`` first. ``instead_of`` (a model name) fields ``count`` models of
    ``model``, a kind the unit's sizes leave out (an optional model of the composition: a
    Chapter Champion, a Kill Team's Intercessors with plasma incinerators), in place of as many
    of that kind (the unit's size, Starting Strength and points stay the size's). ``whole``
    (with ``count`` None): every model of the type that no other option equips takes it, or
    none does ("All Eliminators in this unit can each have their bolt sniper rifle replaced
    with ...": no Eliminator keeps a sniper rifle beside one with a las fusil);
    ``whole_unit`` (the file's ``whole: unit``) makes that every model of the unit the
    loadout has an entry for, across its model types ("All models in this unit can each have
    their flamestorm gauntlets replaced with ...": the Aggressor Sergeant swaps with his
    Aggressors, not alone); ``--weapon`` refuses weapons of two such alternatives together
    (:func:`wh40k_calc.units.whole_unit_conflict`).

    ``option``: the number of the datasheet's wargear option the entry comes from (None: not
    said, as in hand-written loadouts). Entries of one option are its alternatives; entries of
    different options may be combined on one model where they are independent
    (:mod:`wh40k_calc.composition`: what each takes away from the same default equipment is
    there and not taken twice, what each adds differs). ``needs`` (weapon keys): for an option
    that adds weapons to the models carrying X ("1 model equipped with a bolt rifle can be
    equipped with ..."), the X, which an option combined with it may not take away.
    ``excludes`` (weapon keys): for an option only for models "not equipped with X" ("1 Boy
    not equipped with 1 shoota can have its choppa and slugga replaced with ..."), the X: a
    model taking the entry never carries it besides (no ``choices`` entry or option combined
    with it gives it one)."""

    model: str
    count: int | None
    equipped: tuple[str, ...]
    min_unit_size: int | None = None
    replaces: tuple[str, ...] | None = None
    per_models: int | None = None
    instead_of: str | None = None
    whole: bool = False
    option: int | None = None
    needs: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    whole_unit: bool = False

    def models_for(self, starting_strength: int) -> int | None:
        """How many models the entry equips in a unit of ``starting_strength`` models: its
        ``count`` (None: all the rest), times ``starting_strength // per_models`` where the
        count is per that many models (0 in a smaller unit)."""
        if self.count is None or self.per_models is None:
            return self.count
        return self.count * (starting_strength // self.per_models)


class OptionLimit(Struct, frozen=True):
    """One wargear option offered as several loadouts (its items, or the model types that may
    take it: "up to 3 Traitor Guardsmen can each have their lasgun replaced with one of the
    following", "for every 5 models, 1 model equipped with a bolt rifle can be equipped with
    ..."): at most ``models`` models of the unit in all (for every ``per_models`` models of the
    Starting Strength, where given) take entries of ``loadouts`` (loadout names), whatever
    each entry's own ``count`` allows. ``wh40k_calc.composition`` reads it for ``--weapon``
    and army lists."""

    loadouts: tuple[str, ...]
    models: int
    per_models: int | None = None

    def models_for(self, starting_strength: int) -> int:
        """How many models may take the option in a unit of ``starting_strength`` models."""
        if self.per_models is None:
            return self.models
        return self.models * (starting_strength // self.per_models)


class LeadersAllowed(Struct, frozen=True):
    """Bodyguard rule: at this Starting Strength, up to ``count`` Leaders may be attached (one of
    them with ``one_with_keyword`` if set)."""

    starting_strength: int
    count: int
    one_with_keyword: str | None


class Damaged(Struct, frozen=True):
    """A damaged profile: while a model has 1..``wounds_left`` wounds left, ``hit_mod`` is added
    to its Hit rolls (the datasheet's "N wounds remaining" line)."""

    wounds_left: int
    hit_mod: int = 0


class DataVersion(Struct, frozen=True):
    """Where a generated datasheet's numbers come from: the data project (``source``, e.g.
    "game-datacards"), its data version (912) and the date of that version ("2026-07-23")."""

    source: str
    version: int | str
    date: str = ""

    @property
    def label(self) -> str:
        """``data 912``."""
        return f"data {self.version}"


class AdditionalCost(Struct, frozen=True):
    """The surcharge for further copies of a unit in one army: each copy after the first
    ``after`` costs ``points`` more (the edition-11 data's ``additionalCost``)."""

    points: int
    after: int


class Datasheet(Struct, frozen=True, dict=True):  # dict: the weapons by key, kept
    """A validated unit datasheet. ``models`` is in allocation order (rank-and-file first).

    ``not_modelled_attacker`` / ``not_modelled_target``: names of the unit's abilities that can
    change its own attacks / attacks against it but that the calculator does not model (the
    YAML's ``not_modelled: {attacker: [...], target: [...]}``); they are reported, not applied.

    ``points_listed`` is False where the source lists no points (the sizes then have 0);
    ``dropped_sizes`` are the source's other sizes with a number of models already in ``sizes``
    (not selectable); ``add_ons`` its optional costs; ``leader_alongside`` the keywords of an
    attached Leader that this Leader may join (an exception to one Leader per unit), in a
    Bodyguard unit with one of the ``leader_alongside_bodyguard`` keywords (empty: any).

    ``editions``: the rules editions the file is for ("10", "11" or both; a file that does not
    say is for edition 10); ``legends``: a Warhammer Legends datasheet; ``data``: the data
    version a generated file comes from; ``additional_cost``: the surcharge for further copies.
    """

    name: str
    faction: str
    keywords: frozenset[str]
    faction_keywords: frozenset[str]
    models: tuple[ModelProfile, ...]
    sizes: tuple[UnitSize, ...]
    weapons: tuple[Weapon, ...]
    loadouts: dict[str, tuple[LoadoutEntry, ...]]
    rules: tuple[str, ...] = ()
    leader_of: tuple[str, ...] = ()
    leaders_allowed: tuple[LeadersAllowed, ...] = ()
    source: str = ""
    path: Path | None = None
    support_of: tuple[str, ...] = ()
    damaged: Damaged | None = None
    not_modelled_attacker: tuple[str, ...] = ()
    not_modelled_target: tuple[str, ...] = ()
    points_listed: bool = True
    dropped_sizes: tuple[UnitSize, ...] = ()
    add_ons: tuple[AddOn, ...] = ()
    leader_alongside: tuple[str, ...] = ()
    leader_alongside_bodyguard: tuple[str, ...] = ()
    options_not_generated: tuple[NotGenerated, ...] = ()
    editions: tuple[str, ...] = ("10",)
    legends: bool = False
    data: DataVersion | None = None
    additional_cost: AdditionalCost | None = None
    option_limits: tuple[OptionLimit, ...] = ()

    __eq__, __hash__ = compared_without("loadouts")  # a dict: no part of equality

    @property
    def key(self) -> str:
        """Normalised name used for lookups."""
        return norm_name(self.name)

    def weapon(self, name: str) -> Weapon | None:
        """The weapon called ``name`` (normalised match; the first of that name), or None."""
        return self._weapons_by_key.get(norm_name(name))

    @cached_property
    def _weapons_by_key(self) -> dict[str, Weapon]:
        """Each weapon key -> the first weapon with it, made once: looking up every equipped
        weapon by scanning the list was quadratic in the number of weapons (issue 21, A1)."""
        out: dict[str, Weapon] = {}
        for w in self.weapons:
            out.setdefault(w.key, w)
        return out

    def model(self, name: str) -> ModelProfile | None:
        """The model profile called ``name`` (normalised match; plural 's' tolerated), or None."""
        key = norm_name(name)
        for m in self.models:
            if m.key == key or m.key + "s" == key or m.key == key + "s":
                return m
        return None

    def all_keywords(self) -> frozenset[str]:
        """Unit keywords plus faction keywords, upper case."""
        return self._all_keywords

    @cached_property
    def _all_keywords(self) -> frozenset[str]:
        return self.keywords | self.faction_keywords

    @property
    def min_size(self) -> UnitSize:
        """The smallest listed unit size."""
        return min(self.sizes, key=lambda s: s.total)

    @property
    def max_size(self) -> UnitSize:
        """The largest listed unit size."""
        return max(self.sizes, key=lambda s: s.total)


# ---------------------------------------------------------------------------------------------
# Loading


def _parse_dice(text: int | str, where: str, file: Path | str) -> Dice:
    try:
        return Dice.parse(text)
    except DiceError as exc:
        raise DatasheetError(f"{file}: {where}: {exc}") from None


def _checked_dice(text: int | str, where: str, file: Path | str, what: str, at_least: int) -> Dice:
    """A characteristic's dice expression: A must be able to reach 1, D can never be below 1."""
    dice = _parse_dice(text, where, file)
    if at_least == 0 and dice.max_value < 1:
        raise DatasheetError(f"{file}: {where}: {text}: never makes an attack")
    lowest = dice.count + dice.bonus
    if at_least == 1 and lowest < 1:
        if dice.count:  # "D6-1": the lowest roll is below 1
            raise DatasheetError(
                f"{file}: {where}: {text}: can roll {lowest}; {what} must be at least 1 on every "
                "roll"
            )
        raise DatasheetError(f"{file}: {where}: {text}: must be at least 1")
    return dice


def parse_datasheet(data: object, file: Path | str = "<datasheet>") -> Datasheet:
    """Validate a YAML document (already parsed) and build a :class:`Datasheet`: the schema,
    then the weapons, the models, the sizes and the loadouts, each checked against what the
    earlier ones define (DATASHEET_FORMAT.md, part 1).

    Raises:
        DatasheetError: naming ``file`` and the offending field.
    """
    raw = _schema(data, file)
    weapons = _weapons(raw.weapons, file)
    check_weapons = _weapon_refs(weapons, file)
    models = _models(raw.models, check_weapons, file, _items_of(weapons))
    model_keys = {m.key for m in models}
    add_ons = _add_ons(raw.add_ons, model_keys, file)
    sizes = _sizes(raw.sizes, "sizes", model_keys, add_ons, file)
    dropped = _sizes(raw.dropped_sizes, "dropped_sizes", model_keys, add_ons, file)
    _check_size_totals(sizes, file)
    largest = max(sizes, key=lambda s: s.total)
    loadouts = {
        lname: _loadout(lname, entries, models, largest, check_weapons, file)
        for lname, entries in raw.loadouts.items()
    }
    limits = _option_limits(raw.option_limits, loadouts, file)
    _check_keeps(models, loadouts, sizes, file)
    return Datasheet(
        name=raw.name,
        faction=raw.faction,
        keywords=frozenset(k.upper() for k in raw.keywords),
        faction_keywords=frozenset(k.upper() for k in raw.faction_keywords),
        models=tuple(models),
        sizes=tuple(sizes),
        weapons=tuple(weapons),
        loadouts=loadouts,
        rules=tuple(norm_rule(r) for r in raw.rules),
        leader_of=tuple(raw.leader_of),
        leaders_allowed=tuple(
            LeadersAllowed(a.starting_strength, a.count, a.one_with_keyword)
            for a in raw.leaders_allowed
        ),
        source=raw.source,
        path=Path(file) if not isinstance(file, Path) else file,
        support_of=tuple(raw.support_of),
        damaged=Damaged(raw.damaged.wounds_left, raw.damaged.hit_mod) if raw.damaged else None,
        not_modelled_attacker=tuple(raw.not_modelled.attacker) if raw.not_modelled else (),
        not_modelled_target=tuple(raw.not_modelled.target) if raw.not_modelled else (),
        points_listed=raw.points_listed,
        dropped_sizes=tuple(dropped),
        add_ons=tuple(add_ons),
        leader_alongside=tuple(k.upper() for k in raw.leader_alongside),
        leader_alongside_bodyguard=tuple(k.upper() for k in raw.leader_alongside_bodyguard),
        options_not_generated=tuple(
            NotGenerated(o.reason, tuple(o.items)) for o in raw.options_not_generated
        ),
        editions=file_editions(raw.edition),
        legends=raw.legends,
        data=DataVersion(raw.data.source, raw.data.version, raw.data.date) if raw.data else None,
        additional_cost=(
            AdditionalCost(raw.additional_cost.points, raw.additional_cost.after)
            if raw.additional_cost
            else None
        ),
        option_limits=limits,
    )


def _check_keeps(
    models: list[ModelProfile],
    loadouts: dict[str, tuple[LoadoutEntry, ...]],
    sizes: list[UnitSize],
    file: Path | str,
) -> None:
    """Each model's ``keeps`` means something: optional kinds stand in for that kind (a
    loadout entry's ``instead_of`` names it), and fewer models of it are kept than the largest
    unit has (else no optional model could ever stand in).

    Raises:
        DatasheetError: naming the model's field.
    """
    instead = {norm_name(e.instead_of) for es in loadouts.values() for e in es if e.instead_of}
    for i, m in enumerate(models):
        if m.keeps is None:
            continue
        where = f"{file}: models[{i}] ({m.name}).keeps"
        if m.key not in instead:
            raise DatasheetError(
                f"{where}: no loadout entry's 'instead_of' names {m.name}; keeps is how many "
                f"{m.name} models are left when optional kinds stand in for them"
            )
        most = max(s.count(m.name) for s in sizes)
        if m.keeps >= most:
            raise DatasheetError(
                f"{where}: {m.keeps}, but no unit size has more than {most} {m.name} (keeps "
                "must be fewer, or no optional model could stand in for one)"
            )


def _option_limits(
    raw: list[_OptionLimitSchema],
    loadouts: dict[str, tuple[LoadoutEntry, ...]],
    file: Path | str,
) -> tuple[OptionLimit, ...]:
    """The ``option_limits``, checked: each names loadouts of the file, and a loadout is in at
    most one limit.

    Raises:
        DatasheetError: naming the field.
    """
    by_key = {norm_name(n): n for n in loadouts}
    seen: set[str] = set()
    out = []
    for i, lim in enumerate(raw):
        names = []
        for j, name in enumerate(lim.loadouts):
            found = by_key.get(norm_name(name))
            if found is None:
                raise DatasheetError(
                    f"{file}: option_limits[{i}].loadouts[{j}]: {name!r} is not in 'loadouts'"
                )
            if found in names:
                raise DatasheetError(
                    f"{file}: option_limits[{i}].loadouts[{j}]: {name!r} is listed twice in "
                    "this limit"
                )
            if found in seen:
                raise DatasheetError(
                    f"{file}: option_limits[{i}].loadouts[{j}]: {name!r} is in another limit"
                )
            seen.add(found)
            names.append(found)
        out.append(OptionLimit(tuple(names), lim.models, lim.per_models))
    return tuple(out)


def _schema(data: object, file: Path | str) -> _DatasheetSchema:
    """The document checked against the schema (types, ranges, unknown fields).

    Raises:
        DatasheetError: not a mapping, or the first field the schema refuses, in our words.
    """
    if not isinstance(data, dict):
        raise DatasheetError(f"{file}: expected a mapping of datasheet fields at the top level")
    try:
        return msgspec.convert(data, _DatasheetSchema, strict=True)
    except msgspec.ValidationError as exc:
        from .validation import dotted, explain

        parts, msg = explain(exc, _DatasheetSchema, data)
        where = f"{dotted(parts)}: " if parts else ""
        raise DatasheetError(f"{file}: {where}{msg}") from None


def _weapons(raw: list[_WeaponSchema], file: Path | str) -> list[Weapon]:
    """The weapons in file order, each name used once, and every ``profile_of`` shared by
    another profile (a multi-profile weapon has at least two).

    Raises:
        DatasheetError: a name used twice, a bad weapon (:func:`_weapon`), a lone profile.
    """
    weapons: list[Weapon] = []
    seen: set[str] = set()
    for i, raw_w in enumerate(raw):
        where = f"weapons[{i}] ({raw_w.name})"
        if norm_name(raw_w.name) in seen:
            raise DatasheetError(
                f"{file}: {where}: weapon name used twice; suffix one of them, e.g. '(melee)'"
            )
        seen.add(norm_name(raw_w.name))
        weapons.append(_weapon(raw_w, where, file))
    for i, w in enumerate(weapons):
        if w.profile_of is not None and not any(
            x.profile_of and norm_name(x.profile_of) == norm_name(w.profile_of) and x is not w
            for x in weapons
        ):
            raise DatasheetError(
                f"{file}: weapons[{i}] ({w.name}).profile_of: no other profile of {w.profile_of!r}"
            )
    return weapons


def _weapon(w: _WeaponSchema, where: str, file: Path | str) -> Weapon:
    """One weapon profile: its abilities parsed (each must be one we can read), a BS/WS unless
    it is [TORRENT], and A and D as dice that can make an attack and never deal below 1.

    Raises:
        DatasheetError: naming ``where`` (``weapons[i] (NAME)``) and the field.
    """
    parsed: list[Ability] = []  # each piece parsed once: checked, then the abilities made
    for j, text in enumerate(w.abilities):
        items = [(a, parse_ability(a)) for a in split_abilities(text)]
        bad = [a for a, ab in items if ab.status == MALFORMED]
        if bad:
            why = ability_problem(bad[0])
            raise DatasheetError(
                f"{file}: {where}.abilities[{j}]: {bad[0]!r} is not a valid ability"
                + (
                    f": {why}"
                    if why
                    else " (e.g. 'rapid fire 2', 'sustained hits d3', 'anti-infantry 4+', "
                    "'melta 2', 'blast')"
                )
            )
        for a, ab in items:
            meant = misspelt_ability(a) if ab.status == NOT_MODELLED else None
            if meant:
                raise DatasheetError(
                    f"{file}: {where}.abilities[{j}]: {a!r} is not an ability we know; "
                    f"did you mean {meant!r}?"
                )
        parsed += [ab for _, ab in items]
    abilities = WeaponAbilities.of(parsed)
    if w.skill is None and not abilities.torrent:
        raise DatasheetError(
            f"{file}: {where}.skill: missing (only [TORRENT] weapons may have no BS/WS)"
        )
    return Weapon(
        name=w.name,
        range=None if isinstance(w.range, str) else w.range,
        A=_checked_dice(w.A, f"{where}.A", file, "A", at_least=0),
        skill=w.skill,
        S=w.S,
        AP=w.AP,
        D=_checked_dice(w.D, f"{where}.D", file, "D", at_least=1),
        abilities=abilities,
        ability_texts=tuple(a.strip().lower() for a in w.abilities),
        profile_of=w.profile_of,
    )


_WeaponCheck = Callable[[list[str], str], tuple[str, ...]]  # (names, field) -> weapon keys


def _weapon_refs(weapons: list[Weapon], file: Path | str) -> _WeaponCheck:
    """A check of weapon names given elsewhere in the file (``equipped``, loadouts): called
    with the names and the field they are in, it returns their normalised keys.

    The check raises DatasheetError naming the field and the first name not in ``weapons``.
    """
    weapon_keys = {w.key for w in weapons}

    def check_weapons(names: list[str], where: str) -> tuple[str, ...]:
        out = []
        for j, n in enumerate(names):
            key = norm_name(n)
            if key not in weapon_keys:
                raise DatasheetError(
                    f"{file}: {where}[{j}]: weapon {n!r} is not defined in 'weapons'"
                )
            out.append(key)
        return tuple(out)

    return check_weapons


# a Move characteristic written as text: "20+" (aircraft: at least 20"), '12"', "-" (none)
_MOVE_TEXT = re.compile(r'^(?:\d+"?\+?|-)$')


def _models(
    raw: list[_ModelSchema],
    check_weapons: _WeaponCheck,
    file: Path | str,
    item_of: dict[str, str],
) -> list[ModelProfile]:
    """The model profiles in allocation order, their equipment naming defined weapons, no two
    with one name.

    Raises:
        DatasheetError: an undefined weapon (naming the model's field), or a repeated name.
    """
    models: list[ModelProfile] = []
    for i, m in enumerate(raw):
        if isinstance(m.M, str) and not _MOVE_TEXT.match(m.M):
            raise DatasheetError(
                f"{file}: models[{i}].M: must be inches (a whole number), a number of inches "
                f"and '+' such as '20+' (aircraft), '-' or null (none), not {m.M!r}"
            )
        inches = re.match(r"\d+", m.M) if isinstance(m.M, str) else None
        if inches and int(inches.group(0)) > MAX_MOVE:  # '1000+', as the number 1000
            raise DatasheetError(
                f"{file}: models[{i}].M: must be from 0 to {MAX_MOVE}, not {m.M!r}"
            )
        models.append(
            ModelProfile(
                name=m.name,
                M=m.M,
                T=m.T,
                Sv=m.Sv,
                W=m.W,
                Ld=m.Ld,
                OC=m.OC,
                invuln=m.invuln,
                invuln_ranged_only=m.invuln_ranged_only,
                feel_no_pain=m.feel_no_pain,
                keywords=frozenset(k.upper() for k in m.keywords),
                equipped=check_weapons(m.equipped, f"models[{i}] ({m.name}).equipped"),
                feel_no_pain_mortal=m.feel_no_pain_mortal,
                feel_no_pain_psychic=m.feel_no_pain_psychic,
                stealth=m.stealth,
                damage_reduction=m.damage_reduction,
                half_damage=m.half_damage,
                equipped_by_count=tuple(
                    (c.count, check_weapons(c.equipped, f"models[{i}].equipped_by_count[{j}]"))
                    for j, c in enumerate(m.equipped_by_count)
                ),
                choices=tuple(
                    _choice(c, check_weapons, item_of, f"models[{i}].choices[{j}]", file)
                    for j, c in enumerate(m.choices)
                ),
                invuln_melee_only=m.invuln_melee_only,
                invuln_ranged=m.invuln_ranged,
                invuln_melee=m.invuln_melee,
                keeps=m.keeps,
            )
        )
        if m.invuln_ranged_only and m.invuln_melee_only:
            raise DatasheetError(
                f"{file}: models[{i}] ({m.name}).invuln_melee_only: the invulnerable save "
                "cannot be against ranged attacks only and against melee attacks only"
            )
        for kind in ("ranged", "melee"):
            if getattr(m, f"invuln_{kind}") is not None and getattr(m, f"invuln_{kind}_only"):
                raise DatasheetError(
                    f"{file}: models[{i}] ({m.name}).invuln_{kind}: invuln_{kind}_only already "
                    f"makes invuln the save against {kind} attacks; give one of them"
                )
    if len({m.key for m in models}) != len(models):
        raise DatasheetError(f"{file}: models: two models share a name")
    return models


def _choice(
    c: _ChoiceSchema,
    check_weapons: _WeaponCheck,
    item_of: dict[str, str],
    where: str,
    file: Path | str,
) -> WeaponChoice:
    """A model's ``choices`` entry, its weapons defined, ``once`` among its ``of``, each of its
    ``sets`` one that the choice can give (:func:`_check_set`); ``item_of``: weapon key -> the
    item it is a profile of (:func:`_items_of`).

    Raises:
        DatasheetError: naming the field.
    """
    weapons = check_weapons(c.of, f"{where}.of")
    once = check_weapons(c.once, f"{where}.once")
    for j, key in enumerate(once):
        if key not in weapons:
            raise DatasheetError(f"{file}: {where}.once[{j}]: {c.once[j]!r} is not one of its 'of'")
    count = None if c.count == "all" else c.count
    sets = []
    for j, group in enumerate(c.sets):
        keys = check_weapons(group, f"{where}.sets[{j}]")
        for key, name in zip(keys, group, strict=True):
            if key not in weapons:
                raise DatasheetError(f"{file}: {where}.sets[{j}]: {name!r} is not one of its 'of'")
        _check_set(keys, group, c.up_to, set(once), item_of, f"{file}: {where}.sets[{j}]")
        sets.append(keys)
    return WeaponChoice(
        c.up_to,
        tuple(dict.fromkeys(weapons)),
        frozenset(once),
        count,
        c.adds,
        tuple(sets),
        c.one_pistol,
    )


def _items_of(weapons: list[Weapon]) -> dict[str, str]:
    """Weapon key -> the key of the one item of wargear it is a profile of: its ``profile_of``
    (a plasma gun's standard and supercharge profiles), or its name without the importer's
    `` (melee)`` suffix (a Kroot rifle's melee profile), else its own key."""
    out = {}
    for w in weapons:
        if w.profile_of:
            out[w.key] = norm_name(w.profile_of)
        else:
            out[w.key] = norm_name(re.sub(r"\s*\(melee\)$", "", w.name, flags=re.IGNORECASE))
    return out


def _check_set(
    keys: tuple[str, ...],
    names: list[str],
    up_to: int,
    once: set[str],
    item_of: dict[str, str],
    where: str,
) -> None:
    """A ``sets`` entry the choice can give: at most ``up_to`` items (the profiles of one
    weapon, each listed once a copy, are one item: two plasma cannons are [standard,
    supercharge, standard, supercharge]), and no weapon of ``once`` twice.

    Raises:
        DatasheetError: ``where`` and the reason.
    """
    for key, name in zip(keys, names, strict=True):
        if key in once and keys.count(key) > 1:
            raise DatasheetError(
                f"{where}: lists {name!r} {keys.count(key)} times, but it is in 'once' (a model "
                "carries at most one)"
            )
    copies: dict[str, int] = {}
    for key in keys:
        copies[key] = copies.get(key, 0) + 1
    items: dict[str, int] = {}
    for key, n in copies.items():
        item = item_of.get(key, key)
        items[item] = max(items.get(item, 0), n)
    total = sum(items.values())
    if total > up_to:
        raise DatasheetError(
            f"{where}: a set of {total} items, but the choice gives up to {up_to} (up_to); a "
            "set is what one model may take of the list at once"
        )


def _check_size_totals(sizes: list[UnitSize], file: Path | str) -> None:
    """No two selectable sizes with the same number of models (``--models N`` picks one).

    Raises:
        DatasheetError: naming the second size of a number.
    """
    totals = [s.total for s in sizes]
    for i, t in enumerate(totals):
        if t in totals[:i]:
            raise DatasheetError(
                f"{file}: sizes[{i}]: a second size of {t} model{'s' if t != 1 else ''}"
            )


def _loadout(
    lname: str,
    entries: list[_LoadoutEntrySchema],
    models: list[ModelProfile],
    largest: UnitSize,
    check_weapons: _WeaponCheck,
    file: Path | str,
) -> tuple[LoadoutEntry, ...]:
    """One named loadout's entries, checked: known models and weapons, counts that fit the
    largest size, and ``replaces`` naming a default equipment of the model."""
    if norm_name(lname) == "default":
        raise DatasheetError(
            f"{file}: loadouts.{lname}: 'default' is reserved (it means each model's 'equipped')"
        )
    by_key = {m.key: m for m in models}
    out = []
    taken: dict[str, int] = {}
    for j, e in enumerate(entries):
        where = f"loadouts.{lname}[{j}]"
        model = by_key.get(norm_name(e.model))
        if model is None:
            raise DatasheetError(f"{file}: {where}.model: {e.model!r} is not in 'models'")
        count = None if e.count == "all" else int(e.count)
        if e.per_models is not None and count is None:
            raise DatasheetError(
                f"{file}: {where}.per_models: needs a number of models in 'count' (a number "
                "for every per_models models), not 'all'"
            )
        instead = _instead_of(e, count, by_key, model, f"{file}: {where}")
        takes = instead or model
        present = largest.count(takes.name)
        most = (
            count
            if e.per_models is None or count is None
            else count * (largest.total // e.per_models)
        )
        taken[takes.key] = taken.get(takes.key, 0) + (most or 0)
        if count is not None and taken[takes.key] > present:
            raise DatasheetError(
                f"{file}: {where}.count: the entries for {takes.name} take "
                f"{taken[takes.key]} models but the largest unit has {present}"
            )
        replaces = None
        if e.replaces is not None:
            replaces = check_weapons(e.replaces, f"{where}.replaces")
            kits = [model.equipped, *(keys for _, keys in model.equipped_by_count)]
            if sorted(replaces) not in [sorted(k) for k in kits]:
                raise DatasheetError(
                    f"{file}: {where}.replaces: not the equipment of any {model.name} "
                    "(its 'equipped' or one of its 'equipped_by_count' lists)"
                )
        equipped = check_weapons(e.equipped, f"{where}.equipped")
        needs: tuple[str, ...] = ()
        if e.needs is not None:
            needs = check_weapons(e.needs, f"{where}.needs")
            if not set(needs) <= set(equipped):
                raise DatasheetError(
                    f"{file}: {where}.needs: the weapons a model needs to take the entry are "
                    "among those it keeps ('equipped')"
                )
        excludes: tuple[str, ...] = ()
        if e.excludes is not None:
            excludes = check_weapons(e.excludes, f"{where}.excludes")
            if set(excludes) & set(equipped):
                raise DatasheetError(
                    f"{file}: {where}.excludes: the weapons a model taking the entry may not "
                    "carry are not among those it carries ('equipped')"
                )
        if e.whole and (count is not None or instead is not None):
            raise DatasheetError(
                f"{file}: {where}.whole: for an entry of every model of its type (count: all, "
                "no instead_of): the option is all of them or none (whole: unit, all models "
                "of the unit)"
            )
        out.append(
            LoadoutEntry(
                e.model,
                count,
                equipped,
                e.min_unit_size,
                replaces,
                e.per_models,
                instead.name if instead is not None else None,
                bool(e.whole),
                e.option,
                needs,
                excludes,
                e.whole == "unit",
            )
        )
    return tuple(out)


def _instead_of(
    e: _LoadoutEntrySchema,
    count: int | None,
    by_key: dict[str, ModelProfile],
    model: ModelProfile,
    where: str,
) -> ModelProfile | None:
    """The model type a loadout entry's ``instead_of`` names (None: it has none), checked: a
    model of the file other than the entry's own, and a number of models in ``count``.

    Raises:
        DatasheetError: naming the field.
    """
    if e.instead_of is None:
        return None
    instead = by_key.get(norm_name(e.instead_of))
    if instead is None:
        raise DatasheetError(f"{where}.instead_of: {e.instead_of!r} is not in 'models'")
    if instead is model:
        raise DatasheetError(f"{where}.instead_of: the entry's own model ({model.name})")
    if count is None:
        raise DatasheetError(
            f"{where}.count: needs a number of models with instead_of (how many {model.name} "
            f"take the place of as many {instead.name}), not 'all'"
        )
    return instead


def _add_ons(raw: list[_AddOnSchema], model_keys: set[str], file: Path | str) -> list[AddOn]:
    out = []
    for i, a in enumerate(raw):
        if a.model is not None and norm_name(a.model) not in model_keys:
            raise DatasheetError(f"{file}: add_ons[{i}].model: {a.model!r} is not in 'models'")
        out.append(AddOn(a.name, a.points, a.model))
    return out


def _sizes(
    raw: list[_SizeSchema], field: str, model_keys: set[str], add_ons: list[AddOn], file
) -> list[UnitSize]:
    """Sizes (or dropped sizes) naming known models and add-ons, each with a model."""
    names = {norm_name(a.name) for a in add_ons}
    out = []
    for i, s in enumerate(raw):
        for name in s.models:
            if norm_name(name) not in model_keys:
                raise DatasheetError(f"{file}: {field}[{i}].models: {name!r} is not in 'models'")
        if sum(s.models.values()) < 1:
            raise DatasheetError(f"{file}: {field}[{i}].models: a unit needs at least one model")
        for name in s.add_ons:
            if norm_name(name) not in names:
                raise DatasheetError(f"{file}: {field}[{i}].add_ons: {name!r} is not in 'add_ons'")
        out.append(UnitSize(tuple(s.models.items()), s.points, s.label, tuple(s.add_ons)))
    return out


def norm_rule(text: str) -> str:
    """Normalise an effect id: ``Dat's Our Loot!`` -> ``dats-our-loot``."""
    text = text.lower().replace("\u2019", "").replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def load_datasheet(path: Path, keep: bool = False) -> Datasheet:
    """Read and validate one YAML datasheet file; with ``keep`` its parsed YAML is kept
    between runs (:func:`wh40k_calc.filecache.datasheet_data`: the catalog's look-ups, not
    the files an import or an update checks once).

    Raises:
        DatasheetError: the file cannot be read, is not YAML, or fails validation.
    """
    from .filecache import datasheet_data  # lazy: only when a file is read

    try:
        data = datasheet_data(path, keep)  # parsed, or kept from an earlier run
    except ValueError as exc:  # YamlError: its module (and PyYAML) loaded only to parse
        from .yamlio import YamlError

        if not isinstance(exc, YamlError):
            raise
        raise DatasheetError(str(exc)) from None
    return parse_datasheet(data, path)

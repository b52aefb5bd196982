"""What the player asked for: attacker, target, sizes, loadouts, conditions, modifiers, effects.

Built by the CLI (or a batch file) and handed to the rules layer; plain data, no rules here.
"""

from __future__ import annotations

from msgspec import Struct, field
from msgspec.structs import astuple

from .datasheet import Datasheet

REROLL_MODES = ("ones", "fails", "all")


class Conditions(Struct, frozen=True, cache_hash=True):
    """Battlefield conditions of the activation (each a CLI flag of the same name)."""

    half_range: bool = False
    stationary: bool = False
    charged: bool = False
    cover: bool = False
    objective: bool = False
    overwatch: bool = False
    indirect: bool = False
    beyond_12: bool = False
    disembarked: bool = False
    plunging_fire: bool = False
    spotted: bool = False
    engaged: bool = False
    target_engaged: bool = False
    advanced: bool = False

    def as_dict(self) -> dict[str, bool]:
        """The flags by name, for reports and JSON."""
        return {name: getattr(self, name) for name in self.__struct_fields__}


class Modifiers(Struct, frozen=True, cache_hash=True):
    """Modifiers and re-rolls anyone can set.

    Attacker side: ``hit_mod``/``wound_mod`` (added to the others, then capped at +-1),
    ``ap_mod`` (improves AP: 1 turns AP -1 into AP -2), ``damage_mod``, ``crit_hit`` and
    ``crit_wound`` (Critical on an unmodified N+), ``reroll_hits``/``reroll_wounds`` (one of
    REROLL_MODES or None), ``reroll_damage``. Target side: ``invuln``, ``fnp``, ``fnp_mortal``
    (X means X+), ``save_mod``, ``reroll_saves`` ("ones" or "fails"), ``damage_reduction``,
    ``half_damage``, ``target_stealth`` (the target has Stealth, whatever its datasheet says).
    A negative ``ap_mod`` worsens AP; AP never goes above 0.
    """

    hit_mod: int = 0
    wound_mod: int = 0
    ap_mod: int = 0
    damage_mod: int = 0
    crit_hit: int | None = None
    crit_wound: int | None = None
    reroll_hits: str | None = None
    reroll_wounds: str | None = None
    reroll_damage: bool = False
    invuln: int | None = None
    fnp: int | None = None
    fnp_mortal: int | None = None
    save_mod: int = 0
    reroll_saves: str | None = None
    damage_reduction: int = 0
    half_damage: bool = False
    target_stealth: bool = False

    def __post_init__(self) -> None:
        """Refuse values no rule produces (and that would only make the maths slow).

        Raises:
            SelectionError: naming the option and its range.
        """
        for name, low, high in _RANGES:
            value = getattr(self, name)
            if value is not None and not low <= value <= high:
                opt = "--" + name.replace("_", "-")
                raise OptionError(
                    f"{opt} {value}: out of range ({low} to {high})",
                    opt,
                    f"{value} is out of range ({low} to {high})",
                )
        for name, modes in (
            ("reroll_hits", REROLL_MODES),
            ("reroll_wounds", REROLL_MODES),
            ("reroll_saves", ("ones", "fails")),
        ):
            value = getattr(self, name)
            if value is not None and value not in modes:
                opt = "--" + name.replace("_", "-")
                raise OptionError(
                    f"{opt} {value!r}: choose {', '.join(modes)}",
                    opt,
                    f"{value!r}: choose {', '.join(modes)}",
                )


_RANGES = (
    ("hit_mod", -6, 6),
    ("wound_mod", -6, 6),
    ("ap_mod", -6, 6),
    ("damage_mod", -20, 20),
    ("crit_hit", 2, 6),
    ("crit_wound", 2, 6),
    ("invuln", 2, 6),
    ("fnp", 2, 6),
    ("fnp_mortal", 2, 6),
    ("save_mod", -6, 6),
    ("damage_reduction", 0, 20),
)


class UnitChoice(Struct, frozen=True):
    """One side's unit: its datasheet, size (None: the smallest listed), named loadout,
    explicit weapons ((name, models) pairs, overriding the loadout) and attached Leaders;
    ``leader_loadouts``: each Leader's named loadout, in the order of ``leaders`` (None or
    left out: as its datasheet equips it; ``--leader captain:power-fist``)."""

    datasheet: Datasheet
    models: int | None = None
    loadout: str | None = None
    weapons: tuple[tuple[str, int], ...] = ()
    leaders: tuple[Datasheet, ...] = ()
    leader_loadouts: tuple[str | None, ...] = ()

    def leader_loadout(self, i: int) -> str | None:
        """The named loadout of Leader ``i`` (None: as equipped)."""
        return self.leader_loadouts[i] if i < len(self.leader_loadouts) else None


class AddedAbility(Struct, frozen=True, cache_hash=True):
    """A weapon ability granted for this activation (``--add-ability``): ``weapon`` is "*"
    (every weapon of the attacking unit, Leaders' included) or a weapon name; ``ability`` the
    ability text ("lethal hits", "sustained hits 1")."""

    weapon: str
    ability: str


class Selection(Struct, frozen=True):
    """One activation to resolve: ``phase`` is "shooting" or "fight".

    ``precision_target`` is "leader" (the default: [PRECISION] attacks go to the CHARACTER
    models), "bodyguard" (kept on the Bodyguard) or the name of one CHARACTER model or unit of
    the target (that one first); ``precision_given``: the player gave it (so that a "leader"
    given where it changes nothing is noted too). ``added_abilities`` are weapon abilities
    granted for this activation. ``attacker_wounds_left`` (``--wounds-left``): wounds the
    single-model attacker has left (its damaged profile). ``attacker_alive`` (calc
    exchange): the models of each group of the attacking unit (``Unit.groups`` of the unit the
    choice builds, Leaders' groups included) still alive; a group at 0 does not attack, and a
    Leader with no model left is not part of the unit (None: every model). ``notes``: what
    finding the units has to say (a unit that several of the user's files define), passed on to
    the result's notes. ``edition_note``: where the edition came from when the environment or
    the config file chose it (``(from WH40K_CALC_EDITION)``;
    :class:`wh40k_calc.edition.EditionChoice`), else "".

    Switched off for ``--explain`` (its subsets of the rules applied; ``rules.players``):
    ``without_rules`` are the ids of unit rules the datasheets name that are not applied,
    ``without_abilities`` weapon abilities the datasheets give that are taken off those
    weapons (``weapon`` a weapon profile's name, ``ability`` its text), and with
    ``skip_unmet`` an ``--effect`` whose conditions are not met (a Charge move switched off)
    is left out instead of refused.
    """

    phase: str
    attacker: UnitChoice
    target: UnitChoice
    conditions: Conditions = field(default_factory=Conditions)
    modifiers: Modifiers = field(default_factory=Modifiers)
    effects: tuple[str, ...] = ()
    edition: str = "10"
    order: tuple[str, ...] | str | None = None
    allocation: tuple[str, ...] | str | None = None  # model names, or "best" (edition 11)
    precision_target: str = "leader"
    precision_given: bool = False  # --precision-target given (not the default), for its note
    added_abilities: tuple[AddedAbility, ...] = ()
    attacker_wounds_left: int | None = None
    attacker_alive: tuple[int, ...] | None = None
    target_wounds_left: int | None = None  # the target's first model in allocation order
    notes: tuple[str, ...] = ()
    without_rules: tuple[str, ...] = ()
    without_abilities: tuple[AddedAbility, ...] = ()
    skip_unmet: bool = False
    edition_note: str = ""

    def datasheets(self) -> list:
        """The datasheets of both units (Leaders included), attacker first, each once."""
        out: list = []
        for c in (self.attacker, self.target):
            for ds in (c.datasheet, *c.leaders):
                if all(ds is not seen for seen in out):
                    out.append(ds)
        return out


def selection_key(sel: Selection, attacker_models: bool = True) -> tuple:
    """Every field of ``sel`` as one hashable value, its units' datasheets (and Leaders') by
    identity (the caller keeps ``sel``, which holds them, alive while it uses the key);
    ``attacker_models`` False leaves out how many models the attacker has and how they are
    equipped (its size, loadout and weapons), for what reads them only through one model
    group (``rules.attacks``' shared weapon profiles). The two UnitChoice fields are put in
    place by name (testing every field's type made it 4 times slower: a batch keys each of
    its selections twice, ``resolve.planned`` and ``rules.attacks``)."""
    key = list(astuple(sel))
    key[ATTACKER_FIELD] = _choice_key(sel.attacker, attacker_models)
    key[TARGET_FIELD] = _choice_key(sel.target, True)
    return tuple(key)


# where the Selection's two UnitChoice fields stand in its fields (``astuple``), for the keys
# made of it (here and ``compare.runner.job_key``)
ATTACKER_FIELD = Selection.__struct_fields__.index("attacker")
TARGET_FIELD = Selection.__struct_fields__.index("target")


def _choice_key(choice: UnitChoice, models: bool) -> tuple:
    return (
        id(choice.datasheet),
        (choice.models, choice.loadout, choice.weapons) if models else None,
        tuple(map(id, choice.leaders)),
        choice.leader_loadouts,
    )


def allocation_choice(names: tuple[str, ...] | None) -> tuple[str, ...] | str | None:
    """``--allocation`` as given: model names in order, ``"best"`` (the single word ``best``:
    edition 11's defender's best order), or None."""
    if names and len(names) == 1 and names[0].strip().lower() == "best":
        return "best"
    return names or None


class SelectionError(ValueError):
    """An impossible selection; the message says why."""


class NothingAfterAdvanceError(SelectionError):
    """A unit that Advanced (``--advanced``) has no weapon that may shoot then (none with
    [ASSAULT], no rule letting it shoot anyway): ``calc army`` leaves out its shooting with a
    note, as for a unit with no ranged weapon, where a single activation refuses."""


class OptionError(SelectionError):
    """One option's value refused (``--allocation``, ``--target-wounds-left``, ``--hit-mod``):
    the message names the option; ``option`` is the option (``"--hit-mod"``) and ``detail``
    the same reason without it, for a batch file to name its own field instead
    (``modifiers.hit_mod: 7 is out of range (-6 to 6)``); ``index``: for an option given
    several times (``--effect``, ``--add-ability``), which of them (0-based, in the order
    given; None: not one of them), for the batch file's list entry (``effects[1]``)."""

    def __init__(self, message: str, option: str, detail: str, index: int | None = None):
        super().__init__(message)
        self.option = option
        self.detail = detail
        self.index = index


class WeaponsError(OptionError):
    """Named weapons that cannot attack as named (``--weapon``; a batch file's ``weapons``
    field): an :class:`OptionError` of ``--weapon``, whose ``detail`` (the reason without the
    option; the message itself where none is given) a batch file shows under its own field
    (``attacker.weapons: ...``)."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message, "--weapon", message if detail is None else detail)


class UsageError(SelectionError):
    """An option's value out of its range where only the rules can tell (a Miracle dice of
    7): refused as a usage error (exit code 2), as the command line refuses ``--hit-mod 99``."""


class EffectError(OptionError):
    """An ``--effect`` refused where the rules are applied (an option the record lacks, its
    conditions not met, another faction's rule, two chapters' rules, Miracle dice not usable
    here): an :class:`OptionError` of ``--effect`` whose ``detail`` is the message without
    the option (the name as written, then why; ``detail`` given: those words) and ``index``
    the position of the name in ``Selection.effects`` (None: several names, or not known), for
    a batch file to name its own field (``effects[0]: waaagh:7: ...``)."""

    def __init__(self, message: str, index: int | None = None, detail: str | None = None):
        super().__init__(message, "--effect", detail or message.removeprefix("--effect "), index)


class OptionUsageError(OptionError, UsageError):
    """An :class:`OptionError` that is a usage error (exit code 2): a value wrong whatever
    the data says (``--target-wounds-left 0``, one name twice in ``--order``)."""


class EffectUsageError(EffectError, UsageError):
    """An :class:`EffectError` that is a usage error (exit code 2): a Miracle dice value out
    of its range, more values than the rules allow."""


def effect_error(
    message: str, effects: tuple[str, ...], text: str | None = None, *, usage: bool = False
) -> EffectError:
    """The :class:`EffectError` (``usage``: :class:`EffectUsageError`) of ``message`` about
    the ``--effect`` written ``text``, found in ``effects`` (``Selection.effects``) for its
    index (None when not among them, or no ``text``)."""
    index = effects.index(text) if text is not None and text in effects else None
    return (EffectUsageError if usage else EffectError)(message, index)


def precision_target_value(text: str) -> str:
    """A ``--precision-target`` value: "leader" or "bodyguard" (any case), or the name of a
    CHARACTER model of the target (kept as written).

    Raises:
        UsageError: an empty value.
    """
    value = text.strip()
    if not value:
        raise UsageError("--precision-target: give leader, bodyguard or a CHARACTER's name")
    return value.lower() if value.lower() in ("leader", "bodyguard") else value

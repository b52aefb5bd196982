"""The conditions of effect records (``When``, :mod:`~wh40k_calc.effect_schema`): what the
selection says of the activation (:class:`Facts`, derived once), and whether a record's or a
change's conditions hold (:func:`holds`) or why not (:func:`why_not`, for a refusal).

Derived, never asked: the phase, ``--charged``, ``--stationary``, ``--half-range``,
``--disembarked``, ``--objective``, ``--beyond-12``, ``--engaged``, ``--target-engaged``,
``--advanced``; the Benefit of Cover (``--cover``, an effect's cover, [INDIRECT FIRE] with
``--indirect``, and in edition 11 Stealth; against a ranged attack that does not ignore it:
``rules.cover``); both units' keywords (an Attached unit's are all its units', except
CHARACTER, which counts only for a CHARACTER model's own attacks); whether each is or
contains a CHARACTER model; their model counts and Starting Strength. Below Starting
Strength and Below Half-strength follow the core rules (seeds 000 "Below Half-strength";
edition 11, 01.02.01 Starting Strength and Half-Strength): a unit of one model is below its
Starting Strength when it has lost a wound, Below Half-strength when fewer wounds than half its
W remain; any other unit by its models against its Starting Strength (fewer than it; fewer than
half of it). The Starting Strength of an Attached unit is all its models'. A unit built with
fewer models than a listed size (``--models``, ``--target-models``) is below the Starting
Strength of the smallest listed size with more models; a listed size is at full strength.
Leaders: a unit rule's ``leading`` holds when the datasheet that names it leads the unit
(:func:`leads`: a Leader or Support character of the Attached unit), ``led_by`` when one of the
unit's Leaders has one of the keywords (:func:`leader_keywords`).
Conditions on the target's state are read from the state an activation starts from
(:class:`TargetState`: ``calc shoot``'s options, a sequence step's carried state); those of
the target's defence (saves, Feel No Pain, Damage) are also read as its models die
(``rules.target``).
"""

from __future__ import annotations

from math import ceil
from typing import TYPE_CHECKING, NamedTuple

from msgspec import Struct

from ..kept import Kept
from ..records import replace
from .cover import benefit_of_cover, cover_sources
from .engaged import target_engaged

if TYPE_CHECKING:
    from ..effect_schema import When
    from ..selection import Selection
    from ..units import ModelGroup, Unit
    from .cover import CoverSources
    from .edition import Edition

CHARACTER = "CHARACTER"


class UnitState(Struct, frozen=True):
    """One unit's size as conditions read it: ``models`` now, its ``starting`` strength, and
    for a unit of one model its ``W`` and ``wounds_left``."""

    models: int
    starting: int
    W: int = 1
    wounds_left: int | None = None

    @property
    def below_starting_strength(self) -> bool:
        """Core rules: fewer models than its Starting Strength; one model: a wound lost."""
        if self.starting <= 1:
            return self.wounds_left is not None and self.wounds_left < self.W
        return self.models < self.starting

    @property
    def below_half_strength(self) -> bool:
        """Core rules: fewer models than half its Starting Strength; one model: fewer wounds
        left than half its W."""
        if self.starting <= 1:
            return self.wounds_left is not None and 2 * self.wounds_left < self.W
        return 2 * self.models < self.starting

    def with_models(self, alive: int) -> UnitState:
        """The same unit with ``alive`` models (its models dying during an activation)."""
        return replace(self, models=alive)


def unit_state(unit: Unit, wounds_left: int | None) -> UnitState:
    """The state of a unit as built (its Bodyguard at the size asked for, Leaders whole), with
    ``wounds_left`` of its first model (``--wounds-left`` / ``--target-wounds-left``); its
    size found once per unit object (:func:`_unit_facts`)."""
    return UnitState(*_unit_facts(unit).size, wounds_left)


def _size(unit: Unit) -> tuple[int, int, int]:
    """:func:`unit_state`'s models, Starting Strength and first model's W of ``unit``."""
    leaders = sum(g.count for g in unit.all_groups if g.character)
    starting = unit.starting_strength + leaders
    first = unit.all_groups[0].profile.W if unit.all_groups else 1
    return unit.models, starting, first


def starting_thresholds(state: UnitState) -> dict[str, int]:
    """For a unit of two or more models: the model counts below which each state condition
    holds (alive < N): below Starting Strength, Below Half-strength."""
    if state.starting <= 1:
        return {}
    return {
        "target_below_starting_strength": state.starting,
        "target_below_half_strength": ceil(state.starting / 2),
    }


class Facts(Struct, frozen=True):
    """What the selection says of one activation, for every condition (see the module
    docstring). ``attacker_keywords`` include the keywords effects grant it."""

    phase: str
    charged: bool
    stationary: bool
    half_range: bool
    disembarked: bool
    objective: bool
    beyond_12: bool
    engaged: bool  # --engaged
    target_engaged: bool  # --target-engaged, or implied (rules.engaged.target_engaged)
    advanced: bool  # --advanced (shooting)
    cover: CoverSources  # what may give the target the Benefit of Cover (``rules.cover``)
    attacker_keywords: frozenset[str]
    target_keywords: frozenset[str]
    attacker: UnitState
    target: UnitState
    attacker_has_character: bool
    edition: Edition  # asked whether Stealth gives the Benefit of Cover (``rules.cover``)
    target_has_character: bool = False
    target_all_bearer: bool = False  # every target model is the bearer (one CHARACTER)
    bearer_keywords: frozenset[str] = frozenset()  # granted to the attacker's bearer alone
    attacker_leaders: frozenset[str] = frozenset()  # keywords of the Leaders attached to it
    target_leaders: frozenset[str] = frozenset()
    attacker_model_names: frozenset[str] = frozenset()  # the names of its models present
    target_model_names: frozenset[str] = frozenset()

    def granted(self, keywords: frozenset[str], bearer: frozenset[str] = frozenset()) -> Facts:
        """The same facts with ``keywords`` added to the attacker's (``bearer``: to its
        bearer's, for the bearer's own attacks and the unit's record-level conditions)."""
        return replace(
            self,
            attacker_keywords=self.attacker_keywords | keywords,
            bearer_keywords=self.bearer_keywords | bearer,
        )


def facts_of(
    sel: Selection,
    attacker: Unit,
    target: Unit,
    edition: Edition,
    target_state: UnitState | None = None,
) -> Facts:
    """The :class:`Facts` of a selection under ``edition`` (the target's state as built, or
    ``target_state``)."""
    cond = sel.conditions
    att, tgt = _unit_facts(attacker), _unit_facts(target)
    return Facts(
        phase=sel.phase,
        charged=cond.charged,
        stationary=cond.stationary,
        half_range=cond.half_range,
        disembarked=cond.disembarked,
        objective=cond.objective,
        beyond_12=cond.beyond_12,
        engaged=cond.engaged and sel.phase == "shooting",
        target_engaged=target_engaged(sel, attacker),
        advanced=cond.advanced and sel.phase == "shooting",
        cover=cover_sources(sel, target),
        attacker_keywords=attacker.keywords,
        target_keywords=target.keywords,
        attacker=unit_state(attacker, sel.attacker_wounds_left),
        target=target_state or unit_state(target, sel.target_wounds_left),
        attacker_has_character=att.has_character,
        target_has_character=tgt.has_character,
        target_all_bearer=tgt.all_bearer,
        attacker_leaders=att.leaders,
        target_leaders=tgt.leaders,
        attacker_model_names=att.model_names,
        target_model_names=tgt.model_names,
        edition=edition,
    )


class _UnitFacts(NamedTuple):
    """What :func:`facts_of` and :func:`unit_state` read of a unit alone."""

    has_character: bool  # a CHARACTER model
    all_bearer: bool  # every model is the bearer
    leaders: frozenset[str]  # its Leaders' keywords
    model_names: frozenset[str]
    size: tuple[int, int, int]  # :func:`_size`


UNIT_FACTS_KEPT = 512
_UNIT_FACTS: Kept[int, tuple[Unit, _UnitFacts]] = Kept(UNIT_FACTS_KEPT)  # see _unit_facts


def _unit_facts(unit: Unit) -> _UnitFacts:
    """The :class:`_UnitFacts` of ``unit``, found once per unit
    object (kept by its identity with the unit itself: a batch plans the same built units
    again and again, ``rules.activation.built_unit``)."""
    kept = _UNIT_FACTS.get(id(unit))
    if kept is not None and kept[0] is unit:
        return kept[1]
    found = _UnitFacts(
        any(is_character(g) for g in unit.all_groups),
        _all_bearer(unit),
        leader_keywords(unit),
        model_names(unit),
        _size(unit),
    )
    _UNIT_FACTS.put(id(unit), (unit, found))
    return found


def model_names(unit: Unit) -> frozenset[str]:
    """The names of the models ``unit`` has (its Leaders' too; a group of none left out)."""
    return frozenset(g.profile.name for g in unit.all_groups if g.count)


def leader_keywords(unit: Unit) -> frozenset[str]:
    """The keywords of the Leaders (and edition-11 Support characters) attached to ``unit``:
    its datasheets after the Bodyguard's (none for a unit that is not an Attached unit)."""
    out: frozenset[str] = frozenset()
    for ds in unit.datasheets[1:]:
        out |= ds.all_keywords()
    return out


def leads(unit: Unit, owner: object | None) -> bool:
    """Whether the datasheet ``owner`` (the one that names a unit rule) is a Leader of the
    Attached unit ``unit``; without an owner (an effect named with ``--effect``), whether
    ``unit`` is an Attached unit (Core rules: Leader; edition 11, 19 Attached Units)."""
    if owner is None:
        return unit.is_attached
    return any(ds is owner for ds in unit.datasheets[1:])


def _all_bearer(unit: Unit) -> bool:
    bearers = bearer_groups(unit)
    return bool(bearers) and all(id(g) in bearers for g in unit.all_groups)


BEARERS_KEPT = 512
_BEARERS: Kept[int, tuple[Unit, frozenset[int]]] = Kept(BEARERS_KEPT)  # see bearer_groups


def bearer_groups(unit: Unit) -> frozenset[int]:
    """The ids of the model groups of ``unit``'s bearer (an enhancement's, a ``bearer_only``
    change's): the CHARACTER models of the first of its datasheets that has any (a CHARACTER
    unit's own models, else the first Leader attached); in a unit without a CHARACTER, its
    only model if it has one model (a VEHICLE that takes an enhancement, as data 912's
    "VEHICLE model only" ones), else none.

    Found once per unit object (a planned activation asks four times, and a batch plans the
    same built units again and again: ``rules.activation.built_unit``): kept by the unit's
    identity with the unit itself (so its id is not reused while kept; the ids it gives are
    of its own groups); at most BEARERS_KEPT (all dropped when full)."""
    kept = _BEARERS.get(id(unit))
    if kept is not None and kept[0] is unit:
        return kept[1]
    found = _bearer_groups(unit)
    _BEARERS.put(id(unit), (unit, found))
    return found


def _bearer_groups(unit: Unit) -> frozenset[int]:
    chars = [g for g in unit.all_groups if is_character(g)]
    if not chars:
        groups = unit.all_groups
        if sum(g.count for g in groups) == 1:
            return frozenset(id(g) for g in groups if g.count)
        return frozenset()
    first = chars[0].datasheet
    return frozenset(id(g) for g in chars if g.datasheet is first)


def is_character(g: ModelGroup) -> bool:
    """A CHARACTER model (its own keywords or its datasheet's)."""
    return CHARACTER in g.profile.keywords or CHARACTER in g.datasheet.all_keywords()


class Context(Struct, frozen=True):
    """Where a condition is read: ``side`` the change acts for; ``group`` the attacking model
    group (its CHARACTER keyword counts for its own attacks only); ``ranged`` and
    ``ignores_cover`` of the attack; ``bearer``: the group is the bearer's; ``strength`` and
    ``toughness`` of the attack (per-attack conditions); ``damage``: the weapon's unmodified
    Damage characteristic when it is a fixed number (None for a random one such as D3, or
    outside an attack); ``target_models`` alive (the target's defence read as its models die);
    ``options`` the player gave for the record; ``leading``: the record's datasheet leads the
    unit it acts for (:func:`leads`)."""

    side: str
    options: frozenset[str] = frozenset()
    leading: bool = False
    group: ModelGroup | None = None
    bearer: bool = False
    ranged: bool | None = None
    ignores_cover: bool = False
    indirect_fire: bool = False  # the attack's weapon has [INDIRECT FIRE]
    cover_fx: bool = False  # another effect gives the target cover
    stealth_fx: bool = False  # another effect gives the target Stealth
    strength: int | None = None
    toughness: int | None = None
    target_models: int | None = None
    damage: int | None = None  # the weapon's unmodified D when it is a fixed number


def _attacker_kw(f: Facts, ctx: Context) -> frozenset[str]:
    """The attacker's keywords for a condition read for ``ctx``: the unit's (and its
    bearer's granted ones) for the whole unit; for one model group's attacks, CHARACTER only
    for a CHARACTER model's, the bearer's granted keywords only for the bearer's."""
    kw = f.attacker_keywords
    if ctx.group is None:
        return kw | f.bearer_keywords
    own = f.bearer_keywords if ctx.bearer else frozenset()
    return (kw - {CHARACTER}) | own | ({CHARACTER} if is_character(ctx.group) else frozenset())


def _keywords(have: frozenset[str], any_of, all_of, none_of) -> tuple[str, str] | None:
    """(what is missing, words) when the keyword conditions fail, else None: every keyword
    of ``all_of`` the unit lacks (a faction keyword among them) and, when it has none of
    them, ``any_of`` ("ASTRA MILITARUM, and WALKER or REGIMENT"); or the ``none_of`` it has."""
    lacking = [k for k in all_of or () if k not in have]
    either = " or ".join(any_of) if any_of and not set(any_of) & have else ""
    if lacking or either:
        words = " and ".join(lacking)
        if either:
            words = f"{words}, and {either}" if words else either
        return ("all" if lacking else "any"), words
    if none_of and set(none_of) & have:
        return "none", "/".join(sorted(set(none_of) & have))
    return None


def why_not(
    when: When | None,
    f: Facts,
    ctx: Context,
    name: str,
    *,
    keyword_sides: tuple[str, ...] = ("attacker", "target"),
) -> str | None:
    """Why ``when`` does not hold (a sentence for a refusal, naming the option to give), or
    None when every condition present holds. ``keyword_sides``: whose keyword conditions are
    read (a ``both`` record's record-level ones are each side's own)."""
    if when is None:
        return None
    if when.phases is not None and f.phase not in when.phases:
        return f"{name} applies in the {' or '.join(when.phases)} phase only"
    flags = (
        ("charged", "a unit that made a Charge move this turn", "--charged"),
        ("stationary", "a unit that Remained Stationary", "--stationary"),
        ("half_range", "a target within half range", "--half-range"),
        ("disembarked", "a unit that disembarked from a TRANSPORT this turn", "--disembarked"),
        ("objective", "a target within range of an objective marker", "--objective"),
        ("beyond_12", 'a target more than 12" away', "--beyond-12"),
        ("engaged", "a unit within Engagement Range of enemy units", "--engaged"),
        ("target_engaged", "a target within Engagement Range of the attacker", "--target-engaged"),
        ("advanced", "a unit that made an Advance move this turn", "--advanced"),
    )
    for field, what, flag in flags:
        want = getattr(when, field)
        if want is not None and getattr(f, field) != want:
            if want:
                return f"{name} needs {what} (add {flag})"
            return f"{name} cannot be used with {flag} ({what})"
    if when.target_in_cover is not None:
        cover = _in_cover(f, ctx)
        if cover != when.target_in_cover:
            return (
                f"{name} needs a target with the Benefit of Cover (--cover)"
                if when.target_in_cover
                else f"{name} needs a target without the Benefit of Cover"
            )
    if "attacker" in keyword_sides:
        miss = _keywords(
            _attacker_kw(f, ctx), when.attacker_keywords, when.attacker_all, when.attacker_not
        )
        if miss is not None:
            how, words = miss
            if how == "none":
                return f"{name} cannot be used by a {words} unit"
            return f"{name} needs an attacking unit with {words}"
    if "target" in keyword_sides:
        miss = _keywords(f.target_keywords, when.target_keywords, when.target_all, when.target_not)
        if miss is not None:
            how, words = miss
            if how == "none":
                return f"{name} cannot be used on a {words} unit"
            return f"{name} needs a target unit with {words}"
    states: tuple[tuple[str, bool, str], ...] = (
        (
            "attacker_below_starting_strength",
            f.attacker.below_starting_strength,
            "an attacking unit below its Starting Strength (--models, --wounds-left)",
        ),
        (
            "attacker_below_half_strength",
            f.attacker.below_half_strength,
            "an attacking unit Below Half-strength (--models, --wounds-left)",
        ),
    )
    target = f.target if ctx.target_models is None else f.target.with_models(ctx.target_models)
    states += (
        (
            "target_below_starting_strength",
            target.below_starting_strength,
            "a target below its Starting Strength (--target-models, --target-wounds-left)",
        ),
        (
            "target_below_half_strength",
            target.below_half_strength,
            "a target Below Half-strength (--target-models, --target-wounds-left)",
        ),
    )
    for field, value, what in states:
        want = getattr(when, field)
        if want is not None and value != want:
            return f"{name} needs {what}" if want else f"{name} cannot be used with {what}"
    if when.unit_min_models is not None:
        unit = f.attacker if ctx.side == "attacker" else target
        if unit.models < when.unit_min_models:
            who = "an attacking unit" if ctx.side == "attacker" else "a target"
            return f"{name} needs {who} of {when.unit_min_models} or more models"
    if when.target_min_models is not None and target.models < when.target_min_models:
        return f"{name} needs a target of {when.target_min_models} or more models"
    if when.target_max_models is not None and target.models > when.target_max_models:
        from ..wording import count

        return f"{name} needs a target of {count(when.target_max_models, 'model')} or fewer"
    if when.leading is not None and ctx.leading != when.leading:
        return (
            f"{name} applies while its model leads a unit (attach it with --leader or "
            f"--target-leader)"
            if when.leading
            else f"{name} cannot be used while its model leads a unit"
        )
    if when.led_by is not None:
        leaders = f.attacker_leaders if ctx.side == "attacker" else f.target_leaders
        if not set(when.led_by) & leaders:
            who = "attacking unit" if ctx.side == "attacker" else "target"
            return f"{name} needs a {who} led by a {' or '.join(when.led_by)}"
    if when.with_model is not None:
        names = f.attacker_model_names if ctx.side == "attacker" else f.target_model_names
        if not set(when.with_model) & names:
            who, flag = (
                ("an attacking unit", "--loadout")
                if ctx.side == "attacker"
                else ("a target", "--target-loadout")
            )
            return (
                f"{name} needs {who} with a {' or '.join(when.with_model)} model (its "
                f"bearer: a {flag} with one; `calc show UNIT` lists them)"
            )
    if when.attacker_has_character is not None:
        has = f.attacker_has_character
        if has != when.attacker_has_character:
            return (
                f"{name} needs an attacking unit that is or contains a CHARACTER"
                if when.attacker_has_character
                else f"{name} cannot be used by a unit with a CHARACTER"
            )
    if when.target_has_character is not None:
        has = f.target_has_character
        if has != when.target_has_character:
            return (
                f"{name} needs a target unit that is or contains a CHARACTER (--target-leader)"
                if when.target_has_character
                else f"{name} cannot be used on a unit with a CHARACTER"
            )
    for field, above in (("strength_above_toughness", True), ("strength_below_toughness", False)):
        want = getattr(when, field)
        if want is None:
            continue
        assert ctx.strength is not None and ctx.toughness is not None, field
        got = ctx.strength > ctx.toughness if above else ctx.strength < ctx.toughness
        if got != want:
            return f"{name}: not for this attack's Strength"
    if when.weapon_damage is not None and ctx.damage != when.weapon_damage:
        return f"{name}: only for weapons of Damage {when.weapon_damage} (unmodified)"
    if when.option is not None and when.option not in ctx.options:
        return f"{name} needs the option {when.option!r} (--effect ID:{when.option})"
    if when.not_option is not None and when.not_option in ctx.options:
        return f"{name} cannot be used with the option {when.not_option!r}"
    return None


def holds(when: When | None, f: Facts, ctx: Context, **kw) -> bool:
    """Whether every condition of ``when`` holds (:func:`why_not` gives none)."""
    return why_not(when, f, ctx, "", **kw) is None


def _in_cover(f: Facts, ctx: Context) -> bool:
    """The target has the Benefit of Cover against this attack (``rules.cover``'s
    :func:`~.cover.benefit_of_cover`, asked of the edition): the selection's sources with the
    other effects' cover and Stealth (a record's own cover never counts for its own
    conditions: ``Changes``); read for the whole activation when no attack is named
    (``ranged`` None): in the Shooting phase, by an attack without [INDIRECT FIRE]."""
    ranged = ctx.ranged if ctx.ranged is not None else f.phase == "shooting"
    src = replace(f.cover, cover_fx=ctx.cover_fx, stealth_fx=ctx.stealth_fx)
    return benefit_of_cover(
        f.edition,
        src,
        ranged=ranged,
        ignores_cover=ctx.ignores_cover,
        indirect_fire=ctx.indirect_fire,
    )


def state_thresholds(when: When | None, f: Facts, side: str) -> set[int]:
    """The target model counts at which ``when`` may change while the target's models die
    (alive < N on one side, not on the other): for the target's defence, read per state."""
    out: set[int] = set()
    if when is None:
        return out
    limits = starting_thresholds(f.target)
    for field, n in limits.items():
        if getattr(when, field) is not None:
            out.add(n)
    if when.unit_min_models is not None and side == "target":
        out.add(when.unit_min_models)
    if when.target_min_models is not None:
        out.add(when.target_min_models)
    if when.target_max_models is not None:
        out.add(when.target_max_models + 1)
    return out


class StateSplit(Struct, frozen=True):
    """The conditions of an activation's effects that read the target's state where the
    engines cannot (a Hit or Wound roll, T, a single-model unit's wounds): ``reads`` are
    (condition, N) pairs (N for model counts, else 0); ``base`` is the target as built
    (``models`` there are the unharmed unit's). A sequence step that starts from a
    distribution of states resolves each class of states (the states in which every read
    gives the same answer) with the conditions read in it (``resolve``), as Blast reads its
    models per state."""

    reads: tuple[tuple[str, int], ...]
    base: UnitState

    def state(self, models_destroyed: int, wounds_lost: int) -> UnitState:
        """The target's state after it lost these models and wounds."""
        left = self.base.W - wounds_lost if self.base.starting <= 1 else None
        return replace(self.base, models=self.base.models - models_destroyed, wounds_left=left)

    def codes(self, destroyed, lost):
        """Per state (arrays of models destroyed and wounds lost), the class it is in: what
        every read says, as bits of one integer (numpy int64 array)."""
        import numpy as np

        b = self.base
        alive = b.models - np.asarray(destroyed, dtype=np.int64)
        left = b.W - np.asarray(lost, dtype=np.int64)
        code = np.zeros(alive.shape, dtype=np.int64)
        for i, (what, n) in enumerate(self.reads):
            if what == "target_below_starting_strength":
                bit = left < b.W if b.starting <= 1 else alive < b.starting
            elif what == "target_below_half_strength":
                bit = 2 * left < b.W if b.starting <= 1 else 2 * alive < b.starting
            elif what in ("target_min_models", "unit_min_models"):
                bit = alive >= n
            else:
                bit = alive <= n
            code |= bit.astype(np.int64) << i
        return code

    def key(self, u: UnitState) -> tuple[bool, ...]:
        """What every read says in state ``u``."""
        out = []
        for what, n in self.reads:
            if what == "target_below_starting_strength":
                out.append(u.below_starting_strength)
            elif what == "target_below_half_strength":
                out.append(u.below_half_strength)
            elif what in ("target_min_models", "unit_min_models"):
                out.append(u.models >= n)
            else:  # target_max_models
                out.append(u.models <= n)
        return tuple(out)


STATE_READS = (
    "target_below_starting_strength",
    "target_below_half_strength",
    "target_min_models",
    "target_max_models",
)


def state_reads(when: When | None, side: str) -> list[tuple[str, int]]:
    """The target-state conditions of ``when`` as (condition, N) pairs (``unit_min_models``
    counts on the target side only)."""
    if when is None:
        return []
    out = []
    for name in STATE_READS:
        v = getattr(when, name)
        if v is not None:
            out.append((name, int(v) if not isinstance(v, bool) else 0))
    if side == "target" and when.unit_min_models is not None:
        out.append(("unit_min_models", when.unit_min_models))
    return out

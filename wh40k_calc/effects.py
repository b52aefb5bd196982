"""Named army rules, detachment rules, stratagems, enhancements and unit rules: the records of
the effect files (``effects/``, :mod:`~wh40k_calc.effect_files`), and finding one by the name a
player gives.

An :class:`Effect` is one record (:class:`~wh40k_calc.effect_schema.Record`: what it changes,
on which side, under which conditions) with the faction and edition of its file. What the
changes mean is the rules layer's (``wh40k_calc/rules/``); this module only finds them.

Names (``--effect``): ``[attacker:|target:][FACTION/]ID[:OPTION[,OPTION]]``
(:func:`parse_request`). An id is the rule's name slugged (:func:`~wh40k_calc.effect_coverage.
slug`); a record's printed name works too. A choice rule (several records sharing ``rule:``
and detachments) is found by the rule's name: the calculator then picks the option
(:class:`Found`). Without ``FACTION/``, :func:`find` looks in the factions of the two units
and the core rules; a name found for both units, or in two of a unit's factions of the same
rank (:func:`~wh40k_calc.effect_files.faction_tiers`), is refused with the choices, as unit
names are. A name of another faction or edition only is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct

from . import effect_files as ef
from .effect_coverage import slug
from .fuzzy import did_you_mean

if TYPE_CHECKING:
    from collections.abc import Callable

    from .effect_schema import Change, Record, When

SIDES = ("attacker", "target")
KIND_WORDS = {
    "army": "army rule",
    "detachment": "detachment rule",
    "stratagem": "stratagem",
    "enhancement": "enhancement",
    "unit": "unit rule",
    "core": "core stratagem",
}


class Effect(Struct, frozen=True, eq=False, dict=True):  # by identity; dict: cached
    """One record of one effect file: ``record`` (the schema's), ``faction`` (the faction key,
    :func:`~wh40k_calc.effect_files.faction_key`; ``core`` for the core rules), the file's own
    ``faction_name``, ``edition`` ("10" or "11") and ``path``."""

    record: Record
    faction: str
    faction_name: str
    edition: str
    path: Path

    @property
    def id(self) -> str:
        """The record's id (its rule's name slugged)."""
        return self.record.id

    @property
    def name(self) -> str:
        """The name as printed."""
        return self.record.name

    @property
    def kind(self) -> str:
        """army, detachment, stratagem, enhancement, unit or core."""
        return self.record.kind

    @property
    def side(self) -> str:
        """attacker, target or both."""
        return self.record.side

    @property
    def summary(self) -> str:
        """What it does, in our words."""
        return self.record.summary

    @property
    def when(self) -> When | None:
        """The record-level conditions."""
        return self.record.when

    @property
    def changes(self) -> list[Change]:
        """What it changes."""
        return self.record.changes

    @property
    def options(self) -> dict[str, str]:
        """Player-known conditions (``--effect ID:OPTION``) and what each means (a record
        with ``miracle_dice`` takes the Miracle dice held: :mod:`~wh40k_calc.miracle_dice`)."""
        out = dict(self.record.options or {})
        if self.miracle_limit:
            from .miracle_dice import HELP

            out.update(HELP)
        return out

    @cached_property
    def miracle_limit(self) -> int:
        """How many Miracle dice the record lets a unit use in a phase (0: none)."""
        from .miracle_dice import miracle_limit

        return miracle_limit(self.record)

    @property
    def default(self) -> bool:
        """A unit rule applied whenever its datasheet names it and its conditions hold."""
        return self.record.default

    @property
    def rule(self) -> str:
        """The name of the rule this record models (a choice rule's name for its options)."""
        return self.record.rule or self.record.name

    @property
    def detachments(self) -> tuple[str, ...]:
        """The detachments it belongs to (none for army, core and unit rules)."""
        return tuple(self.record.detachments or ())

    @property
    def qualified(self) -> str:
        """``FACTION/ID`` (the faction as ours, or ``Core``)."""
        return f"{ef.display_name(self.faction)}/{self.id}"

    @property
    def is_core(self) -> bool:
        """A core stratagem or a datasheet ability anyone may have."""
        return self.faction == ef.CORE

    @property
    def kind_words(self) -> str:
        """``"stratagem (War Horde)"``, ``"army rule"``, ``"core stratagem"``."""
        words = KIND_WORDS.get(self.kind, self.kind)
        return f"{words} ({', '.join(self.detachments)})" if self.detachments else words

    @property
    def applies_to_attacker(self) -> bool:
        """True when the effect changes the attacking unit's attacks."""
        return self.side in ("attacker", "both")

    @property
    def applies_to_target(self) -> bool:
        """True when the effect changes the target's defence."""
        return self.side in ("target", "both")

    @cached_property
    def identity(self) -> tuple[str, str, str]:
        """(edition, faction, id): the same rule, which never applies twice."""
        return (self.edition, self.faction, self.id)

    def describe(self) -> str:
        """``"Waaagh! (Orks army rule)"``, ``"Grenade (core stratagem)"`` for messages."""
        return f"{self.name} ({self.owned_kind})"

    @property
    def owned_kind(self) -> str:
        """``"Orks army rule"``, ``"core unit rule"``, ``"core stratagem"`` (a core stratagem's
        kind names its owner already)."""
        if self.kind == "core":
            return self.kind_words
        owner = "core" if self.is_core else ef.display_name(self.faction)
        return f"{owner} {self.kind_words}"


class UnknownEffectError(LookupError):
    """No effect has this name; the message suggests the closest."""


class EffectNameError(LookupError):
    """An ``--effect`` that cannot be used as written: a malformed name, an unknown faction or
    option, a name of several rules, an effect of another faction or edition; the message
    says why."""


class EffectFormError(EffectNameError):
    """An ``--effect`` whose very form is wrong, whatever the data says (no name, no faction
    before ``/``, more than one ``:OPTION`` part, no option after ``:``): a usage error
    (``usage``: exit code 2)."""

    usage = True


class EmptyOptionError(EffectFormError):
    """``--effect ID:`` with no option after the colon; ``bare``: the text without it (for a
    Miracle dice record this is no value given: :func:`empty_option_error`)."""

    def __init__(self, message: str, bare: str) -> None:
        super().__init__(message)
        self.bare = bare


class WrongFactionError(EffectNameError):
    """An effect of a faction neither unit may use for the side it acts for: ``effect`` and
    the ``sides`` it would act for (a caller may first say which of its conditions fail);
    ``alternatives``: every record of that name found (several factions' stratagems of one
    name, ``effect`` first), whose conditions may differ."""

    def __init__(
        self,
        message: str,
        effect: Effect,
        sides: list[str],
        alternatives: Sequence[Effect] = (),
    ):
        super().__init__(message)
        self.effect = effect
        self.sides = sides
        self.alternatives = tuple(alternatives) or (effect,)


# ---------------------------------------------------------------------------------------------
# Loading


@lru_cache(maxsize=64)
def effects_of(edition: str, faction: str) -> tuple[Effect, ...]:
    """Every record of the files of faction key ``faction`` in ``edition``, in file order.

    Raises:
        EffectFileError: a file that does not load (naming the file and the field).
    """
    out: list[Effect] = []
    seen: set[str] = set()
    for path in ef.files_of(edition).get(faction, ()):
        data = ef.load(path)
        for r in data.effects:
            if r.id in seen:  # a folder given first (tests) hides the shipped record
                continue
            seen.add(r.id)
            out.append(Effect(r, faction, data.faction, edition, path))
    return tuple(out)


def all_effects(edition: str) -> tuple[Effect, ...]:
    """Every record of every file of ``edition`` (slow: every file is read; for listings and
    for explaining a name not found where it was looked for)."""
    return tuple(e for key in ef.files_of(edition) for e in effects_of(edition, key))


DERIVED: list[Callable[[], None]] = []  # forgets what other modules keep of these (clear)


def clear_caches() -> None:
    """Forget every file read (after :func:`~wh40k_calc.effect_files.set_roots`), and what
    other modules keep that they read (each one's forget function in :data:`DERIVED`)."""
    effects_of.cache_clear()
    unit_rule.cache_clear()
    coverage_line.cache_clear()
    records_of_rule.cache_clear()
    for forget in DERIVED:
        forget()


# ---------------------------------------------------------------------------------------------
# Names


class Request(Struct, frozen=True):
    """One ``--effect`` as written: ``side`` ("attacker", "target" or None), ``faction`` (as
    written, or None), ``name`` and the ``options`` given (slugged)."""

    text: str
    name: str
    side: str | None = None
    faction: str | None = None
    options: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The name slugged (an id)."""
        return slug(self.name)


def parse_request(text: str) -> Request:
    """``[attacker:|target:][FACTION/]NAME[:OPTION[,OPTION...]]``.

    Raises:
        EffectFormError: an empty name, a name with no letter or digit to match
            (:func:`unmatchable`), no faction before a ``/``, or more than one ``:OPTION``
            part (usage errors, exit code 2).
        EmptyOptionError: a ``:`` with no option after it (a usage error too).
    """
    raw = text.strip()
    parts = [p.strip() for p in raw.split(":")]
    side = None
    if len(parts) > 1 and parts[0].lower() in SIDES:
        side = parts[0].lower()
        parts = parts[1:]
    if len(parts) > 2:
        raise EffectFormError(
            f"--effect {raw}: write [attacker:|target:][FACTION/]NAME[:OPTION,OPTION]"
        )
    name = parts[0]
    faction = None
    if "/" in name:
        faction, name = (p.strip() for p in name.rsplit("/", 1))
        if not faction:
            raise EffectFormError(
                f"--effect {raw!r}: no faction before '/' (write FACTION/NAME, or the NAME alone)"
            )
    options = tuple(slug(o) for o in parts[1].split(",") if o.strip()) if len(parts) > 1 else ()
    if not name:
        raise EffectFormError(f"--effect {raw!r}: no effect name (`calc effects` lists them)")
    if not slug(name):
        raise EffectFormError(f"--effect {raw!r}: {unmatchable(name, faction)}")
    if len(parts) > 1 and not options:
        bare = raw.rstrip(": ")
        raise EmptyOptionError(
            f"--effect {raw!r}: no option after ':' (write {bare!r} alone, or {bare}:OPTION)", bare
        )
    return Request(raw, name, side, faction, options)


def unmatchable(name: str, faction: str | None = None) -> str:
    """Why ``name`` (not blank) can match no effect: it has no letter or digit an id keeps
    (:func:`~wh40k_calc.effect_coverage.slug`: Latin letters, accents dropped, and digits),
    with where to find the names to write instead (``faction``: as written before '/')."""
    listing = f"calc effects --faction {faction!r}" if faction else "calc effects --faction NAME"
    return (
        f"the name {name!r} has no letters or digits we can match (effects are named by their "
        "English names' Latin letters and digits, accents dropped): write a name or id as "
        f"`calc effects` lists them (`{listing}` for one faction's)"
    )


class Found(Struct, frozen=True, eq=False):  # by identity
    """What a name found: one record, or the options of a choice rule (``choice``: the
    calculator picks one for the side); ``sides`` it may apply to (one for a choice rule);
    ``options`` given; ``request`` as written."""

    effects: tuple[Effect, ...]
    sides: tuple[str, ...]
    options: tuple[str, ...]
    request: Request
    choice: bool = False

    @property
    def effect(self) -> Effect:
        """The record (the first option of a choice rule)."""
        return self.effects[0]

    @property
    def label(self) -> str:
        """The id a player would write for it: the record's, or the choice rule's."""
        return slug(self.effect.rule) if self.choice else self.effect.id


def _matches(e: Effect, key: str) -> bool:
    return e.id == key or slug(e.name) == key


def _groups(effects: tuple[Effect, ...], key: str) -> list[tuple[Effect, ...]]:
    """The choice rules (or single records) whose rule's name slugs to ``key``: records of
    one faction sharing (kind, rule, detachments), in file order."""
    out: dict[tuple, list[Effect]] = {}
    for e in effects:
        if e.record.rule and slug(e.record.rule) == key:
            out.setdefault((e.faction, e.kind, key, e.detachments), []).append(e)
    return [tuple(v) for v in out.values()]


def find(req: Request, edition: str, units: dict[str, tuple[str, dict[str, int]]]) -> Found:
    """The effect ``req`` names in ``edition`` for an activation whose units are ``units``
    ({"attacker": (name, faction ranks), "target": (name, faction ranks)}: each faction key
    of the unit and its rank, :func:`~wh40k_calc.effect_files.faction_tiers`, 0 most specific).

    Raises:
        UnknownEffectError: no record of this edition or the other has the name (with the
            closest names).
        EffectNameError: an unknown faction or option; a name of several rules here (with the
            choices); a record of another edition only, or of a faction neither unit may use
            for the side it acts for (with the reason).
    """
    key = req.key
    if req.faction is not None:
        fkey = ef.faction_key(req.faction)
        if fkey is None or fkey not in ef.files_of(edition):
            raise _unknown_faction(req, edition)
        searched: tuple[str, ...] = (fkey,)
    else:
        searched = tuple(dict.fromkeys((*units["attacker"][1], *units["target"][1], ef.CORE)))
    pool = tuple(e for f in searched if f in ef.files_of(edition) for e in effects_of(edition, f))
    # an id names one record of a file; a printed name may be several records' (the same
    # ability of different datasheets, generated with ids of their own)
    exact = [e for e in pool if e.id == key]
    candidates: list[tuple[tuple[Effect, ...], bool]] = [
        ((e,), False) for e in (exact or [e for e in pool if _matches(e, key)])
    ]
    if not candidates:
        candidates = [(g, len(g) > 1) for g in _groups(pool, key)]
    if not candidates:
        raise _not_here(req, edition, units, searched, pool)
    if req.side is not None and not any(_record_sides(g, req.side) for g, _ in candidates):
        raise _no_half(req, candidates[0])
    pairs = []  # (rank, candidate index, side)
    refused: list[str] = []
    for i, (group, _) in enumerate(candidates):
        e = group[0]
        for side in _record_sides(group, req.side):
            ranks = units[side][1]
            if e.is_core:
                pairs.append((9, i, side))
            elif e.faction in ranks:
                pairs.append((ranks[e.faction], i, side))
            else:
                refused.append(side)
    if not pairs:
        _check_values(req, candidates[0][0])  # a bad value first, whatever the units
        alternatives = [g[0] for g, _ in candidates]
        raise _wrong_faction(req, alternatives[0], units, refused, alternatives)
    best: dict[str, int] = {}
    for rank, _, side in pairs:
        best[side] = min(best.get(side, rank), rank)
    chosen = sorted({(i, side) for rank, i, side in pairs if rank == best[side]})
    picked = {i for i, _ in chosen}
    if len(picked) > 1:
        raise _ambiguous(req, [candidates[i][0] for i in sorted(picked)], chosen, candidates)
    i = chosen[0][0]
    group, choice = candidates[i]
    sides = tuple(s for s in SIDES if (i, s) in chosen)
    if choice and len(sides) > 1:  # a choice rule is one side's pick
        raise EffectNameError(
            f"--effect {req.text}: both units may use {group[0].rule}, a rule whose options "
            f"the player of one side picks: give attacker:{req.name} or target:{req.name}"
        )
    _check_options(req, group)
    if choice:
        group = tuple(e for e in group if sides[0] in own_sides(e))
    return Found(group, sides, req.options, req, choice)


def own_sides(e: Effect) -> tuple[str, ...]:
    """The sides a record acts for: its own, or both (a ``both`` record has two halves)."""
    return SIDES if e.side == "both" else (e.side,)


def _record_sides(group: tuple[Effect, ...], asked: str | None) -> list[str]:
    """The sides a record (or a choice rule's options) can act for, within ``asked``."""
    sides = list(dict.fromkeys(s for e in group for s in own_sides(e)))
    return [s for s in sides if asked is None or s == asked] if asked else sides


def _no_half(req: Request, candidate: tuple[tuple[Effect, ...], bool]) -> EffectNameError:
    """``attacker:NAME`` / ``target:NAME`` for a rule with no half for that side."""
    group, choice = candidate
    e = group[0]
    what = _rule_words(e, choice)
    own = _record_sides(group, None)
    acts = " and ".join(
        "the attacker's attacks" if s == "attacker" else "the target's defence" for s in own
    )
    bare = slug(e.rule) if choice else e.id
    prefixed = " or ".join(f"{s}:{bare}" for s in own)
    return EffectNameError(
        f"--effect {req.text}: {what} changes {acts} only: it has no {req.side} half "
        f"(give {bare} or {prefixed})"
    )


def _rule_words(e: Effect, choice: bool) -> str:
    """``"Oath of Moment (Space Marines army rule)"``; a choice rule by the rule's name."""
    if not choice:
        return e.describe()
    return f"{e.rule} ({e.owned_kind})"


def empty_option_error(exc: EmptyOptionError, edition: str, units: dict) -> LookupError:
    """The error of ``--effect ID:``: for a record that takes Miracle dice, no value given (a
    usage error, exit code 2, as ``ID`` alone: :mod:`~wh40k_calc.miracle_dice`); else ``exc``."""
    try:
        find(parse_request(exc.bare), edition, units)
    except LookupError as other:
        return other if getattr(other, "usage", False) else exc
    return exc


def _check_values(req: Request, group: tuple[Effect, ...]) -> None:
    """Check the Miracle dice values ``req`` gives a record of ``group`` that takes them,
    whatever the units: a value's own error (``acts-of-faith:7``) is a usage error before any
    refusal of the unit (exit code 2, as on the rule's own faction).

    Raises:
        MiracleDiceError: as :func:`~wh40k_calc.miracle_dice.miracle_options`.
    """
    limit = max(e.miracle_limit for e in group)
    if limit:  # the values as written: a slug would read -1 as 1
        from .miracle_dice import miracle_options

        raw = req.text.rsplit(":", 1)[1] if req.options else ""
        miracle_options(
            req.text, group[0].rule, tuple(o for o in raw.split(",") if o.strip()), limit
        )


def _check_options(req: Request, group: tuple[Effect, ...]) -> None:
    known: dict[str, str] = {}
    for e in group:
        known.update(e.options)
    limit = max(e.miracle_limit for e in group)
    _check_values(req, group)
    from .miracle_dice import is_value

    for o in req.options:
        if limit and is_value(o):
            continue
        if o not in known:
            listed = ", ".join(f"{k} ({v})" for k, v in known.items())
            e = group[0]  # a record found by its own name (a choice rule's option) says it
            named = e.name if len(group) == 1 and e.name and e.name != e.rule else e.rule
            head = f"--effect {req.text}: {named} has no option {o!r}"
            raise EffectNameError(
                head
                + (f"; its options: {listed}" if listed else "; it takes no option")
                + did_you_mean(o, list(known))
            )


def _ambiguous(req, groups, chosen, candidates) -> EffectNameError:
    names = []
    for i, side in chosen:
        g, _ = candidates[i]
        prefix = f"{side}:" if len({s for _, s in chosen}) > 1 else ""
        names.append(f"{prefix}{ef.display_name(g[0].faction)}/{req.key}")
    where = "; ".join(
        f"{g[0].describe()}" + (f" ({', '.join(g[0].detachments)})" if g[0].detachments else "")
        for g in groups
    )
    return EffectNameError(
        f"--effect {req.text}: {req.name!r} names several rules here: {where}; give one of "
        f"{', '.join(dict.fromkeys(names))}"
        + (" (or the option's own id)" if any(len(g) > 1 for g in groups) else "")
    )


def _unit_words(side: str, units) -> str:
    name, ranks = units[side]
    keys = sorted(ranks, key=lambda k: ranks[k])
    factions = " and ".join(ef.display_name(k) for k in keys) or "of no faction with rules"
    who = "the attacking unit" if side == "attacker" else "the target"
    return f"{who}, {name}, is {factions}"


def _wrong_faction(
    req, e: Effect, units, refused: list[str], alternatives: Sequence[Effect] = ()
) -> WrongFactionError:
    sides = list(dict.fromkeys(refused)) or list(own_sides(e))
    acts = " and ".join(
        "the attacker's attacks" if s == "attacker" else "the target's defence" for s in sides
    )
    units_said = "; ".join(_unit_words(s, units) for s in sides)
    return WrongFactionError(
        f"--effect {req.text}: {e.describe()}{_for_whom(e, sides)} changes {acts}, and "
        f"{units_said} (an effect applies to a unit of its own faction; core stratagems to any)",
        e,
        sides,
        alternatives,
    )


def _for_whom(e: Effect, sides: list[str]) -> str:
    """``", for a unit with BOYZ"``: the keywords its record asks of the unit it is for."""
    w = e.when
    if w is None:
        return ""
    parts = []
    for side in sides:
        prefix = "attacker" if side == "attacker" else "target"
        any_of = getattr(w, f"{prefix}_keywords") or []
        all_of = getattr(w, f"{prefix}_all") or []
        words = " and ".join([*all_of, *([" or ".join(any_of)] if any_of else [])])
        if words:
            parts.append(f"a unit with {words}")
    return f", for {' or '.join(dict.fromkeys(parts))}," if parts else ""


def _unknown_faction(req, edition) -> EffectNameError:
    known = sorted({ef.display_name(k) for k in ef.files_of(edition)})
    names = [f.name for f in ef.FACTIONS] + [a for f in ef.FACTIONS for a in f.aliases]
    return EffectNameError(
        f"--effect {req.text}: no edition-{edition} effects of faction {req.faction!r}"
        + did_you_mean(req.faction or "", names)
        + f" (factions with effects: {', '.join(known)})"
    )


def _not_here(req, edition, units, searched, pool) -> LookupError:
    """Why nothing in ``searched`` has the name: another faction of this edition has it (the
    faction refusal), only the other edition has it, or nobody (unknown, did you mean)."""
    key = req.key
    if "," in req.name:
        return EffectNameError(f"--effect {req.text}: {comma_hint(req.name)}")
    everywhere = all_effects(edition)
    elsewhere = [e for e in everywhere if _matches(e, key) or slug(e.rule) == key]
    if elsewhere and req.faction is None:
        _check_values(req, (elsewhere[0],))  # a bad value first, whatever the units
        return _wrong_faction(req, elsewhere[0], units, list(own_sides(elsewhere[0])), elsewhere)
    if elsewhere:
        return _not_of_faction(req, elsewhere)
    line = coverage_line(key, edition, searched if req.faction else tuple(ef.files_of(edition)))
    if line is not None:
        what = "not an attack rule" if line.status == "not-attack" else "not modelled"
        why = f": {line.reason}" if line.reason else ""
        return EffectNameError(
            f"--effect {req.text}: {line.rule} ({line.kind}) is {what} in our edition-"
            f"{edition} records{why}"
        )
    other = "11" if edition == "10" else "10"
    there = [e for e in all_effects(other) if _matches(e, key) or slug(e.rule) == key]
    if req.faction is not None:
        there = [e for e in there if e.faction == ef.faction_key(req.faction)]
    if there:
        e = there[0]
        if e.is_core:
            return EffectNameError(
                f"--effect {req.text}: {e.name} is a {e.kind_words} whose edition-{edition} "
                f"text is not in our sources (file 004's section 15 does not print it), so it "
                f"is not applied with --edition {edition} (it exists in edition {other})"
            )
        # this edition's name for it, where it is spelled otherwise (dacatarai-stance in
        # edition 10, dacatari-stance in 11)
        hint = did_you_mean(req.name, sorted({x.id for x in everywhere if x.faction == e.faction}))
        return EffectNameError(
            f"--effect {req.text}: {e.describe()} is an edition-{other} rule; edition "
            f"{edition} has no record of that name for {ef.display_name(e.faction)}{hint} ("
            f"{'or ' if hint else ''}give --edition {other}, or see `calc effects --edition "
            f"{edition}`)"
        )
    names = sorted({x.id for x in (pool or everywhere)} | {slug(x.rule) for x in pool})
    if not did_you_mean(req.name, names):
        names = sorted({x.id for x in everywhere})
    return UnknownEffectError(
        f"unknown effect {req.name!r}"
        + (_side_hint(req, names) or did_you_mean(req.name, names))
        + " (`calc effects` lists them)"
    )


def _not_of_faction(req: Request, elsewhere: list[Effect]) -> EffectNameError:
    """``FACTION/NAME`` where the faction has no such rule and others do: whose it is (a
    faction others of them are within first, as Space Marines for the chapters)."""
    from .wording import join_words

    asked = ef.faction_key(req.faction or "")
    asked_name = ef.display_name(asked) if asked else req.faction
    owners: dict[str, Effect] = {}
    for e in elsewhere:
        owners.setdefault(e.faction, e)

    def parent(k: str) -> str | None:
        f = ef.faction_of_key(k)
        return f.within if f is not None else None

    def rank(e: Effect) -> int:
        if any(parent(k) == e.faction for k in owners):
            return 0  # others are within it
        return 2 if parent(e.faction) is not None else 1

    first, *more = sorted(owners.values(), key=rank)
    choice = not _matches(first, req.key)
    rule = first.rule if choice else first.name
    name = slug(rule) if choice else first.id
    words = KIND_WORDS.get(first.kind, first.kind)  # its detachments can be many: left out
    article = "an" if words[0] in "aeiou" else "a"
    if first.is_core:
        return EffectNameError(
            f"--effect {req.text}: {rule} is {article} {words}, not a rule of {asked_name} "
            f"(give {name}, with no faction)"
        )
    shown = ef.display_name(first.faction)
    data = f" ({first.faction_name})" if slug(first.faction_name) != slug(shown) else ""
    also = join_words([ef.display_name(e.faction) for e in more]) if more else ""
    return EffectNameError(
        f"--effect {req.text}: {rule} is {article} {words} of {shown}{data}"
        + (f", also of {also}" if more else "")
        + f", not of {asked_name} (give {shown}/{name}"
        + (", or another of those factions before the '/')" if more else ")")
    )


def comma_hint(name: str) -> str:
    """What to say of an effect name with commas (``waaagh,get-stuck-in``): one effect per
    ``--effect``; a comma separates only the options after ``:``."""
    parts = [p.strip() for p in name.split(",") if p.strip()]
    given = " ".join(f"--effect {p}" for p in parts)
    return (
        f"one effect per --effect (or per entry of a list): give {given}; a comma separates "
        "only the options after ':' (ID:A,B)"
    )


def _side_hint(req, names: list[str] | tuple[str, ...] = ()) -> str:
    """``; 'attackr:' is not a side: did you mean 'attacker:waaagh'?`` when the name before
    a ``:`` is a misspelt side prefix (``attackr:waaagh`` reads as effect ``attackr`` with
    option ``waaagh``); ``; 'middle:' is not a side prefix (the sides are attacker: and
    target:)`` when it is not like one but what follows is an effect of ``names``; else ""."""
    from .fuzzy import suggest_names

    if req.side is not None or len(req.options) != 1:
        return ""
    rest = req.text.split(":", 1)[1].strip()
    near = suggest_names(req.name, list(SIDES))
    if not near:
        if slug(rest) in names:
            return (
                f"; {req.name + ':'!r} is not a side prefix (the sides are "
                f"{' and '.join(s + ':' for s in SIDES)}, e.g. 'attacker:{rest}')"
            )
        return ""
    prefix, meant = req.name + ":", near[0] + ":" + rest
    return f"; {prefix!r} is not a side (attacker: or target:): did you mean {meant!r}?"


# ---------------------------------------------------------------------------------------------
# Unit rules named by datasheets


@lru_cache(maxsize=1024)  # a batch asks for the same units' rules run after run
def unit_rule(rid: str, edition: str, factions: tuple[str, ...]) -> Effect | None:
    """The record a datasheet's ``rules:`` entry ``rid`` names in ``edition``: in the unit's
    ``factions`` (most specific first), then the core file, by id first, then by printed
    name; None when none has it (each answer kept until :func:`clear_caches`)."""
    key = slug(rid)
    files = ef.files_of(edition)
    pool = [e for f in (*factions, ef.CORE) if f in files for e in effects_of(edition, f)]
    return next((e for e in pool if e.id == key), None) or next(
        (e for e in pool if _matches(e, key)), None
    )


@lru_cache(maxsize=1024)
def coverage_line(rid: str, edition: str, factions: tuple[str, ...]):
    """The coverage line (:class:`~wh40k_calc.effect_schema.Coverage`) of the files of
    ``factions`` and core in ``edition`` whose rule's name slugs to ``rid``, or None: a rule
    we list as not an attack rule, or not modelled with the reason (kept until
    :func:`clear_caches`)."""
    key = slug(rid)
    files = ef.files_of(edition)
    for f in (*factions, ef.CORE):
        for path in files.get(f, ()):
            for c in ef.load(path).coverage:
                if slug(c.rule) == key:
                    return c
    return None


def known_anywhere(name: str) -> bool:
    """Whether some record of some edition has the name ``name`` (an id, a printed name or a
    choice rule's name): for checking a job file before any unit is known."""
    key = slug(parse_request(name).name)
    return any(
        _matches(e, key) or slug(e.rule) == key for ed in ef.EDITIONS for e in all_effects(ed)
    )


def suggestions(name: str) -> str:
    """``"; did you mean ..."`` for a name no record has, over every edition's ids (for a
    name with commas, that effects are given one each: :func:`comma_hint`)."""
    if "," in name:
        return f"; {comma_hint(name)}"
    ids = sorted({e.id for ed in ef.EDITIONS for e in all_effects(ed)})
    return did_you_mean(name, ids)


@lru_cache(maxsize=1024)
def records_of_rule(rule: str, edition: str, factions: tuple[str, ...]) -> tuple[Effect, ...]:
    """The records of ``factions`` and the core file in ``edition`` whose rule is named
    ``rule`` (any case or punctuation), in file order: a choice rule's options (Martial
    Ka'tah's stances), or the one record of a rule (kept until :func:`clear_caches`)."""
    key = slug(rule)
    files = ef.files_of(edition)
    return tuple(
        e
        for f in (*factions, ef.CORE)
        if f in files
        for e in effects_of(edition, f)
        if e.record.rule and slug(e.record.rule) == key
    )


def unit_rule_names() -> dict[str, str]:
    """Every name a datasheet's ``rules:`` entry may give, in either edition, by its slug: the
    records' ids and printed names and the rules the files list as coverage (modelled or
    not), with their names as written (for checking a user's datasheet: ``calc units
    --check``; slow, every file is read)."""
    out: dict[str, str] = {}
    for ed in ef.EDITIONS:
        for e in all_effects(ed):
            for name in (e.id, e.name):
                out.setdefault(slug(name), name)
        for paths in ef.files_of(ed).values():
            for path in paths:
                for c in ef.load(path).coverage:
                    out.setdefault(slug(c.rule), c.rule)
    return out


def unit_rule_id(
    printed: str, edition: str = "10", kinds: tuple[str, ...] = ("unit",)
) -> str | None:
    """The id of the hand-written record of ``edition`` whose kind is one of ``kinds``
    (``unit``: a datasheet ability; ``army``: a faction ability, the army rule) printed as
    ``printed`` ("Dat's Our Loot!"), in any faction, or, for ``unit``, of a unit rule a file
    lists as coverage ("Get Da Good Bitz"): for the importers, which list a datasheet's rules
    by id. A stratagem or an enhancement that shares an ability's name is never its record."""
    key = slug(printed)
    return next((rid for rid, kind in _printed_ids(edition).get(key, ()) if kind in kinds), None)


@lru_cache(maxsize=2)
def _printed_ids(edition: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """Printed names and ids -> (id, kind) of every hand-written record (the generated unit
    rules are the importers' own output, never their input) in file order, and of the unit
    rules the files list as coverage (kind ``unit``: a datasheet names them in ``rules:`` too,
    and they are then known)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for paths in ef.hand_files_of(edition).values():
        for path in paths:
            data = ef.load(path)
            for r in data.effects:
                out.setdefault(slug(r.name), []).append((r.id, r.kind))
                out.setdefault(r.id, []).append((r.id, r.kind))
            for c in data.coverage:
                if c.kind == "unit":
                    out.setdefault(slug(c.rule), []).append((slug(c.rule), "unit"))
    return {k: tuple(v) for k, v in out.items()}

"""Which effects apply to an activation, and to which side: the ``--effect`` names
(:func:`~wh40k_calc.effects.find`) and the unit rules the datasheets name, each checked against
its record's conditions (``rules.when``); the choices they leave to the players.

An effect named with ``--effect`` whose conditions fail on every side it could act for is
refused with the reason; a datasheet's own rule (``default``) simply does not apply then. An
effect acts for a unit of its own faction (core stratagems and datasheet abilities for any;
``effects.find``). The same rule never applies twice to one side (a default rule also named,
a name given twice).

Choices (:class:`Choice`): a choice rule named by its rule's name (the side's player picks the
option: the attacker the one that destroys most, the defender the one that lets fewest be
destroyed, ``resolve.choose``), and a change with ``choose_ability`` (the attacker picks). A
variant is one pick of every choice (:meth:`Applied.variants`).

Conditions on the target's state (below Starting Strength, Below Half-strength, its model
counts) never refuse an effect: they are read where the target's state is known (``changes``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec
from msgspec import Struct, field

from ..datasheet import Datasheet
from ..effect_coverage import slug
from ..effect_files import CHAPTER_RANK, display_name, faction_tiers
from ..effect_schema import change_side
from ..effects import (
    DERIVED,
    Effect,
    EffectNameError,
    EmptyOptionError,
    Found,
    WrongFactionError,
    coverage_line,
    empty_option_error,
    find,
    own_sides,
    parse_request,
    records_of_rule,
    unit_rule,
)
from ..kept import Kept
from ..records import compared_without, replace
from ..selection import (
    EffectError,
    EffectUsageError,
    Selection,
    SelectionError,
    effect_error,
)
from ..units import Unit
from .when import Context, Facts, facts_of, leads, why_not

if TYPE_CHECKING:
    from .edition import Edition

# conditions on the target's state: read per state, never a reason to refuse (module docstring)
STATE_FIELDS = (
    "target_below_starting_strength",
    "target_below_half_strength",
    "target_min_models",
    "target_max_models",
)


class Active(Struct, frozen=True):
    """One effect acting for one ``side`` ("attacker" or "target") with the ``options`` the
    player gave; ``explicit``: named with ``--effect`` (else a datasheet's own rule);
    ``owner``: the datasheet of the unit that names it in ``rules:`` (its models are the
    bearer of a ``bearer_only`` change); ``leading``: that datasheet leads the unit (for
    ``when.leading``: :func:`~wh40k_calc.rules.when.leads`); ``given``: the options in the
    order given, repeats kept (Miracle dice values: ``rules.miracle``)."""

    effect: Effect
    side: str
    options: frozenset[str] = frozenset()
    explicit: bool = True
    owner: Datasheet | None = None
    leading: bool = False
    given: tuple[str, ...] = ()

    __eq__, __hash__ = compared_without("owner")  # the owner takes no part

    @property
    def key(self) -> tuple:
        """The rule and side: applied once."""
        return (*self.effect.identity, self.side)


class Choice(Struct, frozen=True):
    """A choice left to a player: one of ``actives`` (a choice rule's options, for ``side``)
    or one of ``abilities`` (a ``choose_ability`` change: ``owner`` is (the active's key, the
    change's index)). ``label`` names it in the choice sentences."""

    side: str
    label: str
    actives: tuple[Active, ...] = ()
    abilities: tuple[str, ...] = ()
    owner: tuple | None = None
    # a rule whose options a unit may have several of at once (its records' ``picks``): each
    # option of the choice is these indices of ``actives`` together (every set of 1 to
    # ``picks`` of them); empty: each option is one of ``actives``
    combos: tuple[tuple[int, ...], ...] = ()

    @property
    def size(self) -> int:
        """How many options it has."""
        return len(self.combos) or len(self.actives) or len(self.abilities)

    def picked(self, i: int) -> tuple[Active, ...]:
        """The effects option ``i`` makes act."""
        if self.combos:
            return tuple(self.actives[j] for j in self.combos[i])
        return (self.actives[i],) if self.actives else ()

    def option_label(self, i: int) -> str:
        """The name of option ``i``."""
        if self.actives:
            return " and ".join(a.effect.name for a in self.picked(i))
        return self.abilities[i]


class Variant(Struct, frozen=True):
    """One pick per choice of :attr:`Applied.choices` (``picks``), with the words saying it
    (``labels``) and the defender's part of it (``defender``: the picks of the target side's
    choices, which the defender makes)."""

    picks: tuple[int, ...]
    labels: tuple[str, ...]
    defender: tuple[int, ...]


class Applied(Struct):
    """The effects that apply, after their conditions were checked: ``fixed`` (always),
    ``choices`` (the players'), ``facts`` the conditions read (the attacker's keywords include
    those effects grant), and for the report ``ids`` and ``sides`` (id -> the sides it acts
    for), ``members`` ((id, side) -> the keys of the actives it stands for: one, or a
    choice rule's options), ``unmet``: the ``--effect`` names left out because their
    conditions are not met here (``Selection.skip_unmet``), as ``(the name as given, why)``,
    and ``repeated``: the rules named more than once by names of which one at least adds
    nothing to those before it, as ``(the rule's name, every name given for it)``
    (:func:`_repeats`)."""

    facts: Facts
    fixed: list[Active] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    sides: dict[str, list[str]] = field(default_factory=dict)
    unmet: list[tuple[str, str]] = field(default_factory=list)  # see the docstring
    members: dict[tuple[str, str], list[tuple]] = field(default_factory=dict)
    repeated: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # see above

    def variants(self) -> list[Variant]:
        """Every combination of the choices' options (none without choices)."""
        if not self.choices:
            return []
        out = []
        for picks in itertools.product(*(range(c.size) for c in self.choices)):
            labels = tuple(
                f"{c.label}: {c.option_label(i)}" for c, i in zip(self.choices, picks, strict=True)
            )
            defender = tuple(
                i for c, i in zip(self.choices, picks, strict=True) if c.side == "target"
            )
            out.append(Variant(picks, labels, defender))
        return out

    def actives(self, variant: Variant | None) -> list[Active]:
        """The effects acting under ``variant``: the fixed ones and the options picked."""
        out = list(self.fixed)
        if variant is not None:
            for c, i in zip(self.choices, variant.picks, strict=True):
                out.extend(c.picked(i))
        return out

    def picked_abilities(self, variant: Variant | None) -> dict[tuple, str]:
        """(active key, change index) -> the ability picked for a ``choose_ability`` change."""
        out: dict[tuple, str] = {}
        if variant is not None:
            for c, i in zip(self.choices, variant.picks, strict=True):
                if c.abilities and c.owner is not None:
                    out[c.owner] = c.abilities[i]
        return out

    def every_active(self) -> list[Active]:
        """Every effect that may act (each option of each choice rule too), for notes."""
        return [*self.fixed, *(a for c in self.choices for a in c.actives)]

    def options(self) -> dict[str, list[str]]:
        """For the report: id (as in :attr:`ids`) -> the options the player gave for it
        (``--effect ID:OPTION``, as written: in the order given, a Miracle dice value given
        twice twice; those of another side or option record not given already after them;
        ids given none are left out)."""
        if not self.members:  # no effect applied
            return {}
        by_key = {a.key: a for a in self.every_active()}
        out: dict[str, list[str]] = {}
        for (eid, _), keys in self.members.items():
            for k in keys:
                a = by_key.get(k)
                if a is None or not a.options:
                    continue
                given = list(a.given) or sorted(a.options)
                if eid not in out:
                    out[eid] = given
                else:
                    out[eid] += [o for o in given if o not in out[eid]]
        return {eid: out[eid] for eid in self.ids if eid in out}


def unit_keys(unit: Unit) -> dict[str, int]:
    """The faction keys of ``unit`` (each datasheet's faction and every faction keyword) and
    their ranks (:func:`~wh40k_calc.effect_files.faction_tiers`: 0 most specific)."""
    out: dict[str, int] = {}
    for ds in unit.datasheets:
        for k, r in faction_tiers(ds.faction or "", unit.keywords).items():
            out[k] = min(out.get(k, r), r)
    return out


def apply_effects(
    sel: Selection, attacker: Unit, target: Unit, facts: Facts
) -> tuple[Applied, list[str]]:
    """Find the requested effects and the unit rules the datasheets name, check them against
    their conditions (``facts``: :func:`~.when.facts_of` of the selection) and sort those that
    apply by side; list unit rules we do not have as not modelled.

    Raises:
        EffectError: an unknown or ambiguous effect name, an unknown option, an effect of
            another faction or edition, or an explicit effect whose conditions are not met
            (with the reason; with ``sel.skip_unmet``, ``--explain``'s subsets, it is left
            out instead): a :class:`~wh40k_calc.selection.SelectionError` naming the name's
            place in ``sel.effects`` (:class:`~wh40k_calc.selection.EffectUsageError`: a
            value out of range).
    """
    base = facts
    requested, not_modelled = datasheet_rules(sel, attacker, target)
    if not requested and not sel.effects:  # nothing to find or apply (728 of 830 batch plans)
        out = Applied(base)
        return out, not_modelled + _choice_lines(sel, out, datasheet_choices(sel, attacker, target))
    units = (
        {
            "attacker": (attacker.name, unit_keys(attacker)),
            "target": (target.name, unit_keys(target)),
        }
        if sel.effects
        else {}
    )
    for i, name in enumerate(sel.effects):
        try:
            requested.append(find(parse_request(name), sel.edition, units))
        except WrongFactionError as exc:  # its own conditions first, as for any effect
            why = _alternatives_why(exc, name, base)
            raise EffectError(f"--effect {name}: {why}" if why else str(exc), i) from None
        except LookupError as exc:
            if isinstance(exc, EmptyOptionError):  # `ID:`: a Miracle dice record's no value
                exc = empty_option_error(exc, sel.edition, units)
            usage = getattr(exc, "usage", False)  # a value out of range (Miracle dice)
            raise (EffectUsageError if usage else EffectError)(str(exc), i) from None
    _one_chapter(requested, units)
    _within_picks(requested, sel)
    repeated = _repeats(requested)
    requested = _merged(requested)
    granted, bearer_granted = _granted(requested, base)
    f = base.granted(granted, bearer_granted) if granted or bearer_granted else base
    out = Applied(f, repeated=repeated)
    seen: set[tuple] = set()
    sides = {"attacker": attacker, "target": target}
    owners = _owners(requested)
    # the names given first: a datasheet's own rule also named (with its options) is the named
    for item in [i for i in requested if isinstance(i, Found)]:
        _apply_found(out, item, f, seen, sides, owners, sel)
    for item in requested:
        if isinstance(item, Found):
            continue
        e, side, owner = item
        a = Active(e, side, frozenset(), False, owner, leads(sides[side], owner))
        if a.key in seen:
            continue
        why = _why(a, f)
        if why is None:
            _add(out, a, seen)
        elif _option_refused(a, f):
            not_modelled.append(
                f"{e.name} ({owner.name if owner else e.faction_name} unit ability): {why}"
            )
    _add_ability_choices(out)
    not_modelled += _choice_lines(sel, out, datasheet_choices(sel, attacker, target))
    return out, not_modelled


def _alternatives_why(exc: WrongFactionError, name: str, f: Facts) -> str | None:
    """Why no record of the name ``exc`` found can act here by its own conditions (before
    the faction, as for any effect), or None where some record's conditions hold (the
    faction is then the reason). Records whose conditions fail alike are said once, and
    records of several factions that fail otherwise each with their factions: Armour of
    Contempt "needs a target unit with ADEPTUS ASTARTES (Blood Angels, Dark Angels,
    Deathwatch, Space Marines) or a target unit with DEATHWATCH (Imperial Agents)"."""
    by_why: dict[str, list[str]] = {}
    for e in exc.alternatives:
        said = _said_name(e, name)
        sides = exc.sides if e is exc.effect else list(own_sides(e))
        whys = [_why(Active(e, side), f, said) for side in sides]
        first = next((w for w in whys if w is not None), None)
        if first is None:
            return None
        by_why.setdefault(first, []).append(display_name(e.faction))
    if len(by_why) == 1:
        return next(iter(by_why))
    ordered: list[str] = sorted(by_why, key=lambda w: -len(by_why[w]))  # most factions first
    lead = ordered[0].split(" needs ", 1)[0] + " needs "
    parts = [
        f"{w.removeprefix(lead) if w.startswith(lead) else w} "
        f"({', '.join(dict.fromkeys(by_why[w]))})"
        for w in ordered
    ]
    if all(w.startswith(lead) for w in ordered):
        return lead + " or ".join(parts)
    return "; ".join(parts)


def _within_picks(requested: list, sel: Selection) -> None:
    """The ``--effect`` options of one choice rule given together, no more than its record's
    ``picks`` (a unit has one Ka'tah Stance at a time, up to two Blessings of Khorne): the
    same option twice is one (said as a repeat elsewhere); the rule named by its own name
    takes all its picks (the calculator fills them), so nothing may be given beside it.

    Raises:
        EffectError: more of one rule's options than it lets a unit have, naming them (the
            place of the last one in ``sel.effects``).
    """
    given: dict[tuple, dict[str, Found]] = {}  # (faction, rule, side) -> label -> what found
    for item in requested:
        if isinstance(item, Found) and item.effect.record.picks is not None:
            for side in item.sides:
                key = (item.effect.faction, slug(item.effect.rule), side)
                given.setdefault(key, {}).setdefault(item.label, item)
    for found in given.values():
        items = list(found.values())
        picks = items[0].effect.record.picks
        assert picks is not None
        rule_named = any(i.choice for i in items)
        if len(items) <= picks and not (rule_named and len(items) > 1):
            continue
        rule = items[0].effect.rule
        if len(items) > picks:
            most = "one of its options" if picks == 1 else f"up to {picks} of its options"
            give = "one" if picks == 1 else f"at most {picks}"
            why = f"{rule} gives a unit {most} at once; give {give}"
        else:  # the name beside an option: two asks
            why = (
                f"{rule} by its own name picks the best of its options itself; give the name "
                "alone, or the options"
            )
        texts = [i.request.text for i in items]
        last = texts[-1]
        raise EffectError(
            " and ".join(f"--effect {t}" for t in texts) + f": {why}",
            sel.effects.index(last) if last in sel.effects else None,
            detail=f"{' and '.join(texts)}: {why}",
        )


def _one_chapter(requested: list, units: dict[str, tuple[str, dict[str, int]]]) -> None:
    """A Codex Space Marines datasheet takes a chapter's rules as part of that chapter's army
    (:data:`~wh40k_calc.effect_files.CHAPTER_RANK`), so it is of one chapter: the ``--effect``
    names found for one unit from two chapters are refused, naming them.

    Raises:
        SelectionError: two chapters' rules for one unit.
    """
    for side, (name, ranks) in units.items():
        chapters: dict[str, str] = {}
        for item in requested:
            if not isinstance(item, Found) or side not in item.sides or item.effect.is_core:
                continue
            if ranks.get(item.effect.faction) == CHAPTER_RANK:
                chapters.setdefault(item.effect.faction, item.request.text)
        if len(chapters) > 1:
            pairs = [f"{text} ({display_name(f)})" for f, text in chapters.items()]
            why = (
                f"{name} is a Space Marines datasheet, fielded in one chapter's army, so it "
                "takes one chapter's rules; give the rules of one of them"
            )
            said = " and ".join(f"--effect {p}" for p in pairs)
            raise EffectError(f"{said}: {why}", detail=f"{' and '.join(pairs)}: {why}")


def _repeats(requested: list) -> list[tuple[str, tuple[str, ...]]]:
    """The rules the ``--effect`` names (``requested``, as :func:`find` gave them) name more
    than once where a later name adds nothing to those before it (the same rule, for sides
    and with options all given already: ``waaagh`` twice, ``Waaagh`` after ``orks/waaagh``,
    ``attacker:waaagh`` after ``waaagh``), as (the rule's name, every name given for it in
    order), for a note: a rule applies once (:func:`_merged`), so the repeat changes nothing.
    A later name that adds an option (``oath-of-moment:codex-army`` after ``oath-of-moment``)
    is no repeat."""
    given: dict[tuple, list[Found]] = {}
    repeats: set[tuple] = set()
    for item in requested:
        if not isinstance(item, Found):
            continue
        key = (tuple(e.identity for e in item.effects), item.choice)
        earlier = given.setdefault(key, [])
        sides = {s for f in earlier for s in f.sides}
        options = {o for f in earlier for o in f.options}
        if earlier and set(item.sides) <= sides and set(item.options) <= options:
            repeats.add(key)
        earlier.append(item)
    return [
        (found[0].effect.rule if found[0].choice else found[0].effect.name,
         tuple(f.request.text for f in found))
        for key, found in given.items()
        if key in repeats
    ]  # fmt: skip


def _merged(requested: list) -> list:
    """The ``--effect`` names of one rule given more than once (``oath-of-moment`` and
    ``oath-of-moment:codex-army``, in either order) as one, with every option any of them
    gave: the same rule applies once, with its options. A name of one half of a ``both``
    record (``attacker:``) after the whole record adds its options and nothing else; the
    whole after a half takes the half's options too. Unit rules (triples) are kept as they
    are."""
    out: list = []
    options: dict[tuple, list[str]] = {}
    for item in requested:
        if isinstance(item, Found):
            key = (tuple(e.identity for e in item.effects), item.choice)
            options.setdefault(key, [])
            options[key] += [o for o in item.options if o not in options[key]]
    kept: dict[tuple, list[Found]] = {}
    for item in requested:
        if not isinstance(item, Found):
            out.append(item)
            continue
        key = (tuple(e.identity for e in item.effects), item.choice)
        earlier = kept.setdefault(key, [])
        if any(set(item.sides) <= set(f.sides) for f in earlier):
            continue
        merged = replace(item, options=tuple(options[key]))
        earlier.append(merged)
        out.append(merged)
    return out


def _owners(requested: list) -> dict[tuple, Datasheet]:
    """(edition, faction, id, side) of each datasheet's own rule -> that datasheet (for an
    effect also named with ``--effect``: its bearer is that datasheet's models)."""
    out: dict[tuple, Datasheet] = {}
    for item in requested:
        if not isinstance(item, Found):
            e, side, owner = item
            out.setdefault((*e.identity, side), owner)
    return out


def _option_refused(a: Active, f: Facts) -> bool:
    """Whether a datasheet's own rule fails only for want of the player's option."""
    w = a.effect.when
    return (
        w is not None
        and w.option is not None
        and _why(Active(a.effect, a.side, frozenset({w.option}), False, a.owner, a.leading), f)
        is None
    )


class OptionHint(Struct, frozen=True):
    """A datasheet's own rule acting with a change that asks for an option the player did not
    give (``--effect ID:OPTION``): the rule's active ``key`` (:attr:`Active.key`), its
    ``name``, ``who`` names it (the datasheet, else the faction), its ``effect_id``, the
    ``option`` and what it ``means`` (the record's words for it)."""

    key: tuple
    name: str
    who: str
    effect_id: str
    option: str
    means: str

    @property
    def flag(self) -> str:
        """The option as the player gives it: ``--effect ID:OPTION``."""
        return f"--effect {self.effect_id}:{self.option}"

    def line(self) -> str:
        """The hint when other parts of the rule act here: what is left out, how to have it."""
        head = f"{self.name} ({self.who} unit ability)"
        return f"{head}: its part for when {self.means} needs {self.flag}"


def option_hints(out: Applied) -> list[OptionHint]:
    """Each datasheet's own rule in ``out`` acting with changes that ask for an option the
    player did not give: one hint per option (``rules.idle.hint_lines`` words them, once per
    rule when the rule acts only with them)."""
    hints = []
    for a in out.fixed:
        if a.explicit or not a.effect.options:
            continue
        missing = [o for o in a.effect.options if o not in a.options]
        used = {c.when.option for c in a.effect.changes if c.when and c.when.option}
        who = a.owner.name if a.owner is not None else a.effect.faction_name
        for o in missing:
            if o in used:
                hints.append(
                    OptionHint(a.key, a.effect.name, who, a.effect.id, o, a.effect.options[o])
                )
    return hints


def _said_name(e: Effect, text: str) -> str:
    """The name a refusal gives ``e`` when the player wrote ``text``: the choice rule's when
    that is what the player named (Blessings of Khorne, not its option Martial
    Excellence), else the record's."""
    key = parse_request(text).key
    return e.rule if key != e.id and key != slug(e.name) and key == slug(e.rule) else e.name


def _why(a: Active, f: Facts, name: str | None = None) -> str | None:
    """Why the record of ``a`` cannot act for its side (its record-level conditions but those
    on the target's state), or None; ``name``: what the reason calls it (its record's name
    by default)."""
    e = a.effect
    when = e.when
    if when is not None and any(getattr(when, k) is not None for k in STATE_FIELDS):
        when = msgspec.structs.replace(when, **dict.fromkeys(STATE_FIELDS))
    if when is not None and a.side == "target" and when.unit_min_models is not None:
        # the target's model count: per state
        when = msgspec.structs.replace(when, unit_min_models=None)
    sides = (a.side,) if e.side == "both" else ("attacker", "target")
    ctx = Context(a.side, a.options, leading=a.leading)
    return why_not(when, f, ctx, name or e.name, keyword_sides=sides)


def _named(e: Effect, side: str, given: tuple[str, ...], sides: dict, owners: dict) -> Active:
    """An effect named with ``--effect`` acting for ``side`` with the options ``given``: its
    owner, when a datasheet of that unit names it too."""
    owner = owners.get((*e.identity, side))
    return Active(e, side, frozenset(given), True, owner, leads(sides[side], owner), given)


def _apply_found(
    out: Applied,
    found: Found,
    f: Facts,
    seen: set[tuple],
    sides: dict,
    owners: dict,
    sel: Selection,
) -> None:
    """Add what one ``--effect`` found: each side it can act for, or a choice (with
    ``sel.skip_unmet`` one that cannot act is left out rather than refused).

    Raises:
        EffectError: no side it can act for, with the reason.
    """
    opts = tuple(found.options)
    text = found.request.text
    skip_unmet = sel.skip_unmet
    if found.choice:
        side = found.sides[0]
        options = [_named(e, side, opts, sides, owners) for e in found.effects]
        ok = [a for a in options if _why(a, f) is None]
        if not ok:
            if skip_unmet:
                out.unmet.append(
                    (text, _why(options[0], f, found.effect.rule) or found.effect.rule)
                )
                return
            why = _why(options[0], f, found.effect.rule)
            raise effect_error(f"--effect {text}: {why}", sel.effects, text)
        picks = found.effect.record.picks or 1
        combos: tuple[tuple[int, ...], ...] = ()
        if picks > 1 and len(ok) > 1:  # "up to two Blessings": every set of 1 to picks
            combos = tuple(
                c for k in range(1, min(picks, len(ok)) + 1)
                for c in itertools.combinations(range(len(ok)), k)
            )  # fmt: skip
        out.choices.append(Choice(side, found.effect.rule, tuple(ok), combos=combos))
        _mark(out, found.label, side, ok)
        return
    e = found.effect
    reasons = []
    applied = False
    for side in found.sides:
        a = _named(e, side, opts, sides, owners)
        if a.key in seen:
            applied = True
            continue
        why = _why(a, f)
        if why is None:
            _add(out, a, seen)
            applied = True
        else:
            reasons.append(why)
    if not applied:
        why = reasons[0] if reasons else e.name
        if skip_unmet:
            out.unmet.append((text, why))
            return
        raise effect_error(f"--effect {text}: {why}", sel.effects, text)


def _add(out: Applied, a: Active, seen: set[tuple]) -> None:
    seen.add(a.key)
    out.fixed.append(a)
    _mark(out, a.effect.id, a.side, [a])


def _mark(out: Applied, eid: str, side: str, actives: list[Active]) -> None:
    if eid not in out.ids:
        out.ids.append(eid)
    sides = out.sides.setdefault(eid, [])
    if side not in sides:
        sides.append(side)
    out.members.setdefault((eid, side), []).extend(a.key for a in actives)


def _add_ability_choices(out: Applied) -> None:
    """A choice for each ``choose_ability`` change of an effect that may act."""
    for a in out.every_active():
        for i, c in enumerate(a.effect.changes):
            if c.choose_ability:
                out.choices.append(
                    Choice(
                        "attacker",
                        a.effect.name,
                        abilities=tuple(c.choose_ability),
                        owner=(a.key, i),
                    )
                )


def _granted(requested: list, f: Facts) -> tuple[frozenset[str], frozenset[str]]:
    """Keywords the attacker's effects give it (``grant_keyword``), for every other rule's
    conditions: those of records and changes whose conditions hold on its own keywords; the
    unit's, and its bearer's alone (``bearer_only``)."""
    out: set[str] = set()
    bearer: set[str] = set()
    for item in requested:
        effects = item.effects if isinstance(item, Found) else (item[0],)
        sides = item.sides if isinstance(item, Found) else (item[1],)
        opts = frozenset(item.options) if isinstance(item, Found) else frozenset()
        if "attacker" not in sides:
            continue
        for e in effects:
            if not any(c.grant_keyword for c in e.changes):
                continue
            a = Active(e, "attacker", opts)
            if _why(a, f) is not None:
                continue
            for c in e.changes:
                if not c.grant_keyword or change_side(e.record, c) != "attacker":
                    continue
                if why_not(c.when, f, Context("attacker", opts), "") is None:
                    (bearer if c.bearer_only else out).add(c.grant_keyword)
    return frozenset(out), frozenset(bearer)


def datasheet_rules(sel: Selection, attacker: Unit, target: Unit) -> tuple[list, list[str]]:
    """The unit rules named in both units' datasheets (their ``rules:``; the datasheet
    abilities the importers read as records), for ``attacker`` and ``target`` as built
    (:func:`~wh40k_calc.rules.activation.built_unit`) under ``sel.edition``.

    Returns:
        (the rules, as (effect, side, datasheet) triples for the side the unit is on; what is
        not modelled, as report lines: rules we have no record of in this edition, and the
        abilities each datasheet lists as not modelled for its side). The rules of
        ``sel.without_rules`` (switched off by ``--explain``) are left out. Each call gets its
        own lists (each unit's part is kept: :func:`_rules_of`). Raises nothing: a rule with
        no record is a line of what is not modelled.
    """
    mine = _rules_of(attacker, "attacker", sel.edition, sel.without_rules)
    theirs = _rules_of(target, "target", sel.edition, sel.without_rules)
    # each once: two Leaders of one datasheet (two Warbosses) have the same abilities
    return [*mine[0], *theirs[0]], list(dict.fromkeys((*mine[1], *theirs[1])))


class ChoiceAbility(Struct, frozen=True):
    """A datasheet ability the importer lists as not modelled whose options the effect files
    hold as records of its rule, one per choice the player makes (Martial Ka'tah: the
    Dacatari and Rendax stances, ``--effect dacatari-stance``): ``name`` as the datasheet
    gives it, ``who`` the datasheet's name, ``records`` its options for the unit's side."""

    name: str
    who: str
    records: tuple[Effect, ...]


def _choice_lines(sel: Selection, out: Applied, abilities: Sequence[ChoiceAbility]) -> list[str]:
    """The not-modelled lines of the choice abilities of both units: none for an ability one
    of whose records acts here (the player chose) or none of whose records can act in this
    phase (it changes nothing here); else the ability with the ``--effect`` of each record
    that can (the player has not chosen)."""
    if not abilities:  # most units have none
        return []
    acting = {a.effect.id for a in out.every_active()}
    lines = []
    for ab in abilities:
        here = [
            e
            for e in ab.records
            if e.record.when is None
            or e.record.when.phases is None
            or sel.phase in e.record.when.phases
        ]
        if not here or any(e.id in acting for e in ab.records):
            continue
        ids = list(dict.fromkeys(e.id for e in here))
        head = f"{ab.name} ({ab.who} unit ability)"
        if len(ids) == 1:
            lines.append(f"{head}: applied when given: --effect {ids[0]}")
        else:
            flags = " or ".join(f"--effect {i}" for i in ids)
            lines.append(f"{head}: the player's choice, not made: {flags}")
    return lines


RULES_KEPT = 512
_RULES: Kept[tuple, tuple[Unit, tuple, tuple[str, ...], tuple[ChoiceAbility, ...]]] = Kept(
    RULES_KEPT
)  # see _rules_of
DERIVED.append(_RULES.clear)  # the unit rules found are the effect files' (effects.clear_caches)


def datasheet_choices(sel: Selection, attacker: Unit, target: Unit) -> list[ChoiceAbility]:
    """Both units' :class:`ChoiceAbility` items (of :func:`datasheet_rules`' units and
    edition), each once."""
    mine = _rules_of(attacker, "attacker", sel.edition, sel.without_rules)
    theirs = _rules_of(target, "target", sel.edition, sel.without_rules)
    return list(dict.fromkeys((*mine[2], *theirs[2])))


def _rules_of(
    unit: Unit, role: str, edition: str, without: tuple[str, ...]
) -> tuple[tuple, tuple[str, ...], tuple[ChoiceAbility, ...]]:
    """One unit's part of :func:`datasheet_rules` (and of :func:`datasheet_choices`) on side
    ``role``, found once per unit object, side, edition and rules switched off (all it reads:
    kept with the unit, so its id is not reused while kept; forgotten with the effect files'
    caches, ``effects.DERIVED``)."""
    key = (id(unit), role, edition, without)
    kept = _RULES.get(key)
    if kept is None or kept[0] is not unit:
        kept = _RULES.put(key, (unit, *_found_rules_of(unit, role, edition, without)))
    return kept[1], kept[2], kept[3]


def _found_rules_of(
    unit: Unit, role: str, edition: str, without: tuple[str, ...]
) -> tuple[tuple, tuple[str, ...], tuple[ChoiceAbility, ...]]:
    """:func:`_rules_of` found afresh (as tuples; the not-modelled lines in order, repeats
    kept: :func:`datasheet_rules` drops them)."""
    requested: list = []
    not_modelled: list[str] = []
    choices: list[ChoiceAbility] = []
    ranks = unit_keys(unit)
    keys = tuple(sorted(ranks, key=lambda k: ranks[k]))
    for ds in unit.datasheets:
        for rid in ds.rules:
            e = unit_rule(rid, edition, keys)
            if e is None:
                line = coverage_line(rid, edition, keys)
                if line is not None and line.status == "not-attack":
                    continue  # a rule that changes no attack: nothing to say
                if line is not None:
                    not_modelled.append(f"unit rule {line.rule} of {ds.name} ({line.reason})")
                    continue
                other = "11" if edition == "10" else "10"
                if unit_rule(rid, other, keys) is not None:
                    not_modelled.append(f"unit rule {rid} of {ds.name} (edition {other} only)")
                else:
                    not_modelled.append(f"unit rule {rid!r} of {ds.name}")
                continue
            if e.side in (role, "both") and e.id not in without:
                requested.append((e, role, ds))
        mine = ds.not_modelled_attacker if role == "attacker" else ds.not_modelled_target
        for n in mine:
            records = tuple(
                e for e in records_of_rule(n, edition, keys) if e.side in (role, "both")
            )
            if records:  # the player's choice, made with --effect (or not: said when applied)
                choices.append(ChoiceAbility(n, ds.name, records))
            else:
                not_modelled.append(f"{n} ({ds.name} unit ability)")
    return tuple(requested), tuple(not_modelled), tuple(choices)


def refusal(
    sel: Selection, attacker: Unit, target: Unit, name: str, edition: Edition
) -> str | None:
    """Why ``--effect name`` cannot be used in ``sel`` under ``edition`` (the message), or
    None when it can: for callers that add effects where they can apply (army lists)."""
    try:
        sel = replace(sel, effects=(name,))
        apply_effects(sel, attacker, target, facts_of(sel, attacker, target, edition))
    except SelectionError as exc:
        return str(exc)
    except EffectNameError as exc:  # pragma: no cover - converted above
        return str(exc)
    return None

"""An army list resolved to our datasheets: each unit to a datasheet, its models to the
unit's size and model types, its weapons to our weapon profiles, its Leaders to an Attached
unit, each step said.

* **Edition**: the list's (where the export states it), else ``--edition``, else the
  default; it reaches every datasheet look-up (:func:`lookup_entry`) and every activation.
* **Units**: a datasheet of the list's faction (:mod:`.factions`: a chapter is a Space
  Marines datasheet with the chapter's keyword), by the same name rules as the rest of
  ``calc`` (:meth:`~wh40k_calc.catalog.Catalog.entry`), then the forms lists use
  (:mod:`.names`), each fold shown. A unit the list marks as an ally is looked up in its own
  faction (the list's word for it) or in any; so is a unit of a faction given with
  ``--allies``. A unit found only in another faction is unresolved, naming that faction;
  a name found nowhere is unresolved with the closest names; nothing is guessed.
* **Models**: the list's model count is the unit's size; a count the data has no size of
  is a damaged unit of the next size (as ``--models`` takes it), with a warning, and a count
  above the largest size refuses the list (:class:`~.model.UnitCountError`, naming the
  sizes), and so does a weapon listed more than :data:`MOST_COPIES_A_MODEL` times a model
  (no option gives a model more than 10 of one weapon: such a count is an export's error),
  and one of our weapons listed more times than the unit's models could carry under any
  loadout (:func:`.bounds.most_copies`, generous: a gap in our options cannot make it
  refuse a real list); counts over our options' finer limits are warnings
  (:func:`_beyond_options`: our data may lack an option).
  Model types by name (:func:`.names.model_type`);
  where the list's counts per type are not those of the data's size, the list's are used
  (said).
* **Weapons**: each listed weapon to our profiles (a base name to its profiles); wargear
  that is not a weapon is recognised and reported as such; a weapon we lack is unresolved
  with the closest names. Each model type carries what the list gives it
  (:mod:`.equip`); a model type none of whose listed weapons we have keeps its default
  equipment, and a unit none of whose weapons we have takes its default loadout, both said.
* **Attached units**: the units the list groups (a Leader and its Bodyguard) are one
  Attached unit, as the list says; where our data refuses the attachment (this Leader
  cannot lead that unit), they stay separate units and the reason is said.

The result (:class:`ResolvedArmy`) carries every unit's status (``resolved``, ``ally``,
``unresolved``) and every weapon line's (``resolved``, ``folded``, ``wargear``,
``unresolved``), and the :class:`~wh40k_calc.selection.UnitChoice` each resolved unit is
built from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..datasheet import Datasheet, DatasheetError, ModelProfile, Weapon, norm_name
from ..selection import SelectionError, UnitChoice
from ..wording import count
from .effects_for import ListEffects, enhancement_effect, list_effects
from .factions import FactionChoice, chapter_of, our_faction
from .model import ArmyList, ListedModels, ListedUnit, at_lines
from .names import Fold, is_wargear, model_type, suggestions, unit_forms, weapon_profiles

if TYPE_CHECKING:
    from ..catalog import Catalog, Entry
    from .allies import AllyRule

UNIT_STATUSES = ("resolved", "ally", "unresolved")
WEAPON_STATUSES = ("resolved", "folded", "wargear", "unresolved")


@dataclass(frozen=True)
class WeaponLine:
    """One weapon or wargear entry of the list: ``unit`` the list's unit name, ``model`` its
    model type as the list names it (None: the unit as a whole), ``listed`` and ``count`` as
    the list says, ``status`` (WEAPON_STATUSES), ``weapons`` our profiles it became,
    ``fold`` the name form used, ``candidates`` the closest of our weapons when unresolved."""

    unit: str
    model: str | None
    listed: str
    count: int
    status: str
    weapons: tuple[str, ...] = ()
    fold: str | None = None
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResolvedUnit:
    """One row of the army: a unit of the list, or an Attached unit (a Bodyguard and its
    Leaders, ``listed`` in list order).

    ``name`` our name for it (``Blood Claws led by Ragnar Blackmane``; the list's name when
    unresolved), ``positions`` the units' places in the list (1-based), ``status`` one of
    UNIT_STATUSES, ``faction`` our faction of its datasheet, ``choice`` what it is built from
    (None when unresolved), ``points`` and ``models`` the list's, ``folds`` the name forms
    and readings made, ``warnings`` what may differ from the list, ``weapons`` every weapon
    line, ``candidates`` the closest datasheets when unresolved and ``reason`` why,
    ``effects`` the attacker-side effects that may apply to its activations,
    ``default_loadout`` whether it kept its datasheet's equipment (nothing listed matched),
    ``beyond_options`` why it has more of a weapon than its datasheet's wargear options allow
    (one reason a weapon; also among the warnings: the list's weapons are used as listed),
    ``below_minimum`` why a unit of it has fewer models than its datasheet's smallest size
    (one reason a listed unit; also among the warnings: read as a damaged unit)."""

    name: str
    listed: tuple[ListedUnit, ...]
    positions: tuple[int, ...]
    status: str
    faction: str | None = None
    choice: UnitChoice | None = None
    points: int | None = None
    models: int = 0
    folds: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    weapons: tuple[WeaponLine, ...] = ()
    candidates: tuple[str, ...] = ()
    reason: str | None = None
    effects: tuple[str, ...] = ()
    default_loadout: bool = False
    beyond_options: tuple[str, ...] = ()
    below_minimum: tuple[str, ...] = ()

    @property
    def attached(self) -> bool:
        """True for an Attached unit (a Bodyguard and its Leaders)."""
        return len(self.listed) > 1


@dataclass(frozen=True)
class ResolvedArmy:
    """A list resolved: the list itself, the ``edition`` used and where it comes from
    (``edition_source``), the list's faction as ours, every row (:class:`ResolvedUnit`), the
    detachments' and enhancements' effects and what resolving noticed (``notes``)."""

    army: ArmyList
    edition: str
    edition_source: str
    faction: FactionChoice
    units: tuple[ResolvedUnit, ...]
    effects: ListEffects
    notes: tuple[str, ...] = ()

    def unit_counts(self) -> dict[str, int]:
        """The list's units (an Attached unit counts each of its units) by status."""
        out = dict.fromkeys(UNIT_STATUSES, 0)
        for u in self.units:
            out[u.status] += len(u.listed)
        return out

    def weapon_counts(self) -> dict[str, int]:
        """The list's weapon and wargear lines by status."""
        out = dict.fromkeys(WEAPON_STATUSES, 0)
        for u in self.units:
            for w in u.weapons:
                out[w.status] += 1
        return out

    def summary(self) -> str:
        """``16/18 units, 61/70 weapons resolved`` (allies count as resolved; wargear that
        is not a weapon is not counted among the weapons), then wargear and allies."""
        u, w = self.unit_counts(), self.weapon_counts()
        units = sum(u.values())
        weapons = w["resolved"] + w["folded"] + w["unresolved"]
        text = (
            f"{u['resolved'] + u['ally']}/{count(units, 'unit')}, "
            f"{w['resolved'] + w['folded']}/{count(weapons, 'weapon')} resolved"
        )
        extra = []
        if u["ally"]:
            extra.append(f"{u['ally']} of them allies")
        if w["wargear"]:
            extra.append(f"{count(w['wargear'], 'wargear line')} not weapons")
        if beyond := self.beyond_options():
            extra.append(f"{count(beyond, 'unit')} over the wargear limits")
        if below := self.below_minimum():
            extra.append(f"{count(below, 'unit')} below the smallest size")
        return text + (f" ({'; '.join(extra)})" if extra else "")

    def unit_faults(self) -> list[str]:
        """The rows ``--strict`` refuses for the unit as a whole, each with its units' lines
        in the list (none for a JSON or XML export): "line 9: Lootas (over the wargear
        limits)", "line 4: Tactical Squad (below the smallest size)"."""
        out = []
        for u in self.units:
            why = [
                what
                for what, given in (
                    ("over the wargear limits", u.beyond_options),
                    ("below the smallest size", u.below_minimum),
                )
                if given
            ]
            if why:
                lines = [x.line for x in u.listed if x.line is not None]
                out.append(f"{at_lines(lines)}{u.name} ({', '.join(why)})")
        return out

    def beyond_options(self) -> int:
        """How many rows have more of a weapon than their datasheet's wargear options allow."""
        return sum(1 for u in self.units if u.beyond_options)

    def below_minimum(self) -> int:
        """How many listed units have fewer models than their datasheet's smallest size (an
        Attached unit counts each of its units)."""
        return sum(len(u.below_minimum) for u in self.units)

    @property
    def complete(self) -> bool:
        """True when every unit and every weapon line resolved and no row has more of a
        weapon than its wargear options allow nor fewer models than its datasheet's smallest
        size (``--strict``)."""
        return (
            not self.unit_counts()["unresolved"]
            and not self.weapon_counts()["unresolved"]
            and not self.beyond_options()
            and not self.below_minimum()
        )

    def resolved(self) -> list[ResolvedUnit]:
        """The rows that can attack (resolved or ally), in list order."""
        return [u for u in self.units if u.choice is not None]


def _a(name: str | None) -> str:
    """``name`` after its article: "an Orks", "an Imperial Agents", "a Chaos Knights"."""
    text = name or ""
    return f"{'an' if text[:1].upper() in 'AEIOU' else 'a'} {text}"


def lookup_entry(cat: Catalog, name: str, faction: str | None, edition: str) -> Entry:
    """The catalog entry ``name`` finds in ``faction`` (None: any faction) for ``edition``:
    the one place a list's unit meets the catalog (:meth:`~wh40k_calc.catalog.Catalog.entry`;
    in ``edition``'s data). A name that no datasheet has (by
    name or file stem) is refused at once, without the catalog's suggestions (a list tries
    several forms of a name).

    Raises:
        UnknownUnitError, AmbiguousUnitError, UnknownFactionError: as the catalog's.
    """
    from ..catalog import UnknownUnitError

    if "/" not in name and norm_name(name) not in _known_names(cat, edition):
        raise UnknownUnitError(name, [])
    return cat.entry(name, faction, edition=edition)


_KNOWN: dict[tuple[int, str], tuple[Catalog, frozenset[str]]] = {}


def _known_names(cat: Catalog, edition: str) -> frozenset[str]:
    """Every datasheet name and file stem of ``cat`` in ``edition``'s data, normalised (once a
    catalog and edition)."""
    hit = _KNOWN.get((id(cat), edition))
    if hit is None or hit[0] is not cat:
        entries = cat.entries(edition=edition)
        keys = frozenset(norm_name(e.name) for e in entries) | frozenset(
            norm_name(e.path.stem) for e in entries
        )
        hit = _KNOWN[(id(cat), edition)] = (cat, keys)
    return hit[1]


def _load(cat: Catalog, entry: Entry, edition: str) -> Datasheet:
    """The datasheet of ``entry`` in ``edition``'s data."""
    return cat.find(entry.name, entry.faction or None, edition=edition)


# ---------------------------------------------------------------------------------------------
# The whole list


def resolve_army(
    army: ArmyList,
    cat: Catalog,
    edition: str | None = None,
    default_edition: str = "10",
    allies: tuple[str, ...] = (),
    default_source: str = "the default",
) -> ResolvedArmy:
    """Resolve ``army`` to our datasheets (see the module docstring).

    Args:
        army: the list as read.
        cat: where datasheets are found.
        edition: ``--edition`` (None: not given); one the list contradicts (the list states
            another) is refused.
        default_edition: the player's default edition.
        default_source: where that default comes from, as the output says it ("the default",
            "from WH40K_CALC_EDITION", "from /home/me/.../config.toml").
        allies: factions (``--allies``) whose units count as allies though the list does not
            mark them.

    Raises:
        EditionConflict: ``edition`` is given and the list states another.
        UnknownFactionError: an ``allies`` faction is none of ours.
        UnitCountError: a unit has more models than any size of its datasheet.
    """
    notes: list[str] = list(army.notes)
    if army.edition is not None:
        used, source = army.edition, f"the list's: {army.edition_reason or 'it says so'}"
        if edition is not None and edition != army.edition:
            from .model import EditionConflict

            raise EditionConflict(
                f"--edition {edition} contradicts the list, which is an edition-{army.edition} "
                f"list ({army.edition_reason or 'it says so'}): leave out --edition to follow "
                f"the list, or give --edition {army.edition}"
            )
    elif edition is not None:
        used, source = edition, "--edition"
    else:
        used, source = default_edition, default_source
    faction = our_faction(cat, army.faction)
    if faction.fold:
        notes.append(faction.fold)
    effects = list_effects(
        army.detachments,
        tuple(u.enhancement for u in army.units if u.enhancement),
        faction.faction or army.faction,
        used,
    )
    ally_factions = tuple(_ally_faction(cat, a) for a in allies)
    from .allies import ally_rules

    rules = ally_rules(faction.faction, army.detachments)
    sheets = [_sheet(cat, u, faction, ally_factions, used, rules) for u in army.units]
    rows = _rows(army, sheets, used, effects)
    return ResolvedArmy(army, used, source, faction, tuple(rows), effects, tuple(notes))


def _ally_faction(cat: Catalog, name: str) -> str:
    """Our faction that ``--allies NAME`` names (a chapter or an alias as for the list's own).

    Raises:
        UnknownFactionError: none of ours, with the closest names.
    """
    ours = our_faction(cat, name).faction
    if ours is None:
        cat.faction_name(name, "--allies")  # raises, with the closest names
    return ours or name


@dataclass
class _Sheet:
    """A listed unit's datasheet look-up: the datasheet (None: not found), its status,
    folds, candidates and reason."""

    ds: Datasheet | None
    status: str
    folds: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    reason: str | None = None


def _sheet(
    cat: Catalog,
    u: ListedUnit,
    faction: FactionChoice,
    allies: tuple[str, ...],
    edition: str,
    rules_for: list[AllyRule] | None = None,
) -> _Sheet:
    from ..catalog import AmbiguousUnitError, UnknownFactionError, UnknownUnitError

    forms = [Fold(u.name, ""), *unit_forms(u.name)]
    if u.ally:  # its own faction where the list gives it, else an --allies one, else any
        own = our_faction(cat, u.faction).faction if u.faction else None
        where: list[str | None] = [own] if own else [*allies]
        status = "ally"
        if not own:
            found = _by_ally_rule(cat, u, faction, forms, edition, rules_for)
            if found is not None and not any(
                _has(cat, form.name, a, edition) for a in allies for form in forms
            ):
                return found
            where.append(None)
    else:
        where = [faction.faction]
        status = "resolved"
    for f in where:
        for form in forms:
            try:
                entry = lookup_entry(cat, form.name, f, edition)
            except AmbiguousUnitError as exc:
                return _Sheet(
                    None,
                    "unresolved",
                    candidates=list(exc.choices),
                    reason=f"{u.name!r} is a datasheet of several factions "
                    f"({', '.join(exc.choices)}) and the list does not say which (give "
                    "--allies with its faction)",
                )
            except (UnknownUnitError, UnknownFactionError):
                continue
            try:
                ds = _load(cat, entry, edition)
            except (DatasheetError, LookupError) as exc:
                return _Sheet(None, "unresolved", reason=str(exc))
            folds = [] if not form.why else [f"{u.name!r} read as {ds.name!r} ({form.why})"]
            if status == "ally" and faction.faction is not None and ds.faction == faction.faction:
                # listed among the allies, yet a datasheet of the army's own faction
                status = "resolved"
                folds.append(
                    f"{u.name!r} is listed as an ally but is {_a(ds.faction)} datasheet, the "
                    "army's own faction: read as one of the army's units"
                )
            refused = _chapter_refusal(ds, faction) if status == "resolved" else None
            if refused:
                return _Sheet(None, "unresolved", reason=refused)
            return _Sheet(ds, status, folds)
    return _elsewhere(cat, u, faction, allies, edition, forms)


def _has(cat: Catalog, name: str, faction: str, edition: str) -> bool:
    """Whether ``faction`` has a datasheet called ``name`` in ``edition``'s data."""
    from ..catalog import AmbiguousUnitError, UnknownFactionError, UnknownUnitError

    try:
        lookup_entry(cat, name, faction, edition)
    except AmbiguousUnitError:
        return True
    except (UnknownUnitError, UnknownFactionError):
        return False
    return True


def _by_ally_rule(
    cat: Catalog,
    u: ListedUnit,
    faction: FactionChoice,
    forms: list[Fold],
    edition: str,
    rules_for: list[AllyRule] | None,
) -> _Sheet | None:
    """A unit the list marks as an ally without its faction, found in the factions the army's
    own may take allies from (:func:`.allies.ally_rules`, ``rules_for`` the army's rules):
    the datasheet of the one faction that has it and whose rule admits it (said, naming the
    rule); where several do, unresolved with them; None where none does (it is looked up
    in any faction then, as before)."""
    from ..catalog import AmbiguousUnitError, UnknownFactionError, UnknownUnitError
    from .allies import allowed

    rules = rules_for or []
    found: dict[str, tuple[Datasheet, str, Fold]] = {}
    for f in dict.fromkeys(r.allies for r in rules):
        for form in forms:
            try:
                entry = lookup_entry(cat, form.name, f, edition)
                ds = _load(cat, entry, edition)
            except (AmbiguousUnitError, UnknownUnitError, UnknownFactionError):
                continue
            except (DatasheetError, LookupError):
                continue
            rule = allowed(rules, ds)
            if rule is not None:
                found[ds.faction] = (ds, f"{rule.name} ({rule.source} army rule)", form)
                break
    if not found:
        return None
    if len(found) > 1:
        names = list(found)
        return _Sheet(
            None,
            "unresolved",
            candidates=[f"{f}/{found[f][0].name}" for f in names],
            reason=f"{u.name!r} is a datasheet of several factions a {faction.faction} army "
            f"may take allies from ({', '.join(names)}) and the list does not say which (give "
            "--allies with its faction)",
        )
    ((f, (ds, why, form)),) = found.items()
    read = f"{u.name!r} read as {f}/{ds.name}" + (f" ({form.why})" if form.why else "")
    return _Sheet(ds, "ally", [f"{read}: an ally of {_a(faction.faction)} army by {why}"])


def _chapter_refusal(ds: Datasheet, faction: FactionChoice) -> str | None:
    theirs = chapter_of(ds.faction_keywords)
    if faction.keyword and theirs and theirs != faction.keyword:
        return f"{ds.name} is a {theirs.title()} datasheet; the list is {faction.listed}"
    return None


def _elsewhere(
    cat: Catalog,
    u: ListedUnit,
    faction: FactionChoice,
    allies: tuple[str, ...],
    edition: str,
    forms: list[Fold],
) -> _Sheet:
    """A unit not found where the list says: found in an ``--allies`` faction (an ally), in
    another faction (unresolved, naming it), or nowhere (unresolved, the closest names)."""
    from ..catalog import AmbiguousUnitError, UnknownFactionError, UnknownUnitError

    others: list[str] = []
    for form in forms:
        try:
            entry = lookup_entry(cat, form.name, None, edition)
            others.append(entry.qualified)
        except AmbiguousUnitError as exc:
            others += exc.choices
        except (UnknownUnitError, UnknownFactionError):
            continue
        break
    for a in allies:
        for q in others:
            if norm_name(q.rpartition("/")[0]) == norm_name(a):
                ds = _load(cat, lookup_entry(cat, q, None, edition), edition)
                fold = f"{u.name!r} read as {q} (an ally: --allies {a})"
                return _Sheet(ds, "ally", [fold])
    if others and faction.faction is not None and not u.ally:
        where = ", ".join(dict.fromkeys(others))
        return _Sheet(
            None,
            "unresolved",
            candidates=list(dict.fromkeys(others)),
            reason=f"{u.name!r} is not {_a(faction.faction)} datasheet (it is {where}); mark it "
            "as an ally in the list, or give --allies with its faction",
        )
    in_edition = cat.entries(edition=edition)  # the names resolution looked in, not the default's
    pool = (
        [e for e in in_edition if faction.faction is None or e.faction == faction.faction]
        if not u.ally
        else in_edition
    )
    cands = cat.suggest(u.name, pool)
    where = faction.faction or "any faction"
    return _Sheet(
        None,
        "unresolved",
        candidates=cands,
        reason=f"no datasheet of {where} is called {u.name!r}"
        + (f"; did you mean {', '.join(repr(c) for c in cands)}?" if cands else ""),
    )


# ---------------------------------------------------------------------------------------------
# Rows: single units and Attached units


def _rows(
    army: ArmyList,
    sheets: list[_Sheet],
    edition: str,
    effects: ListEffects,
) -> list[ResolvedUnit]:
    groups: dict[str, list[int]] = {}
    for i, u in enumerate(army.units):
        if u.attachment is not None and u.attachment.group is not None:
            groups.setdefault(u.attachment.group, []).append(i)
    done: set[int] = set()
    rows: list[ResolvedUnit] = []
    for i, u in enumerate(army.units):
        if i in done:
            continue
        group = groups.get(u.attachment.group) if u.attachment and u.attachment.group else None
        warn = ""
        if group and len(group) > 1:
            row = _attached_row(army, sheets, group, edition, effects)
            if isinstance(row, ResolvedUnit):
                rows.append(row)
                done.update(group)
                continue
            warn = row or ""
            for j in group:  # each of the group on its own, the reason on each
                if j not in done:
                    rows.append(_single_row(army.units[j], j, sheets[j], edition, effects, warn))
                    done.add(j)
            continue
        rows.append(_single_row(army.units[i], i, sheets[i], edition, effects))
        done.add(i)
    return sorted(rows, key=lambda r: r.positions[0])


def _single_row(
    u: ListedUnit, i: int, sheet: _Sheet, edition: str, effects: ListEffects, warn: str = ""
) -> ResolvedUnit:
    base = ResolvedUnit(
        u.name,
        (u,),
        (i + 1,),
        "unresolved",
        points=u.points,
        models=u.model_count,
        folds=tuple(sheet.folds),
        warnings=(warn,) if warn else (),
        candidates=tuple(sheet.candidates),
        reason=sheet.reason,
    )
    if sheet.ds is None:
        lines = tuple(
            WeaponLine(u.name, m.name, w, n, "unresolved") for m in u.models for w, n in m.weapons
        )
        return _replace(base, weapons=lines)
    eq = _equip(sheet.ds, u)
    from ..records import replace

    choice = UnitChoice(eq.datasheet, eq.models)
    refused = _refused(choice, edition)
    folds = (*base.folds, *eq.folds)
    warnings = (*base.warnings, *eq.warnings)
    if eq.error or refused:
        return replace(
            base,
            weapons=tuple(eq.lines),
            folds=folds,
            warnings=warnings,
            reason=eq.error or refused,
        )
    return replace(
        base,
        name=sheet.ds.name,
        status=sheet.status,
        faction=sheet.ds.faction,
        choice=choice,
        folds=folds,
        warnings=warnings,
        weapons=tuple(eq.lines),
        effects=_unit_effects(effects, (u,)),
        default_loadout=eq.default,
        beyond_options=tuple(eq.beyond),
        below_minimum=eq.below,
    )


def _replace(row: ResolvedUnit, **changes) -> ResolvedUnit:
    from ..records import replace

    return replace(row, **changes)


def _refused(choice: UnitChoice, edition: str) -> str | None:
    """Why the unit cannot be built (our data refuses it), or None."""
    from ..units import build_unit

    try:
        build_unit(choice, "attacker", edition)
    except SelectionError as exc:
        return str(exc)
    return None


def _attached_row(
    army: ArmyList,
    sheets: list[_Sheet],
    group: list[int],
    edition: str,
    effects: ListEffects,
) -> ResolvedUnit | str | None:
    """The Attached unit of ``group`` (list indexes); else why it cannot be one (words for
    the units' rows; None when a unit of it is unresolved anyway), its units then resolved
    one by one."""
    roles = {i: army.units[i].attachment.role for i in group}  # type: ignore[union-attr]
    bodyguards = [i for i in group if roles[i] == "bodyguard"]
    leaders = [i for i in group if roles[i] != "bodyguard"]
    names = ", ".join(army.units[i].name for i in group)
    if len(bodyguards) != 1 or not leaders:
        return f"the list groups {names} without one Bodyguard and a Leader: not attached"
    if any(sheets[i].ds is None for i in group):
        return None
    b = bodyguards[0]
    bg = army.units[b]
    eq = _equip(sheets[b].ds, bg)  # type: ignore[arg-type]
    leqs = [_equip(sheets[i].ds, army.units[i]) for i in leaders]  # type: ignore[arg-type]
    if eq.error or any(x.error for x in leqs):
        return None
    choice = UnitChoice(eq.datasheet, eq.models, leaders=tuple(x.datasheet for x in leqs))
    refused = _refused(choice, edition)
    listed = tuple(army.units[i] for i in sorted(group))
    if refused:
        return (
            f"the list attaches {', '.join(army.units[i].name for i in leaders)} to {bg.name}, "
            f"but our data refuses it ({refused}): resolved as separate units"
        )
    from ..units import build_unit

    unit = build_unit(choice, "attacker", edition)
    points = [u.points for u in listed]
    folds = [f for i in sorted(group) for f in sheets[i].folds]
    folds += eq.folds + [f for x in leqs for f in x.folds]
    warnings = eq.warnings + [w for x in leqs for w in x.warnings]
    status = "ally" if all(sheets[i].status == "ally" for i in group) else "resolved"
    return ResolvedUnit(
        unit.name,
        listed,
        tuple(i + 1 for i in sorted(group)),
        status,
        faction=eq.datasheet.faction,
        choice=choice,
        points=sum(p for p in points if p is not None)
        if any(p is not None for p in points)
        else None,
        models=sum(u.model_count for u in listed),
        folds=tuple(folds),
        warnings=tuple(warnings),
        weapons=tuple(eq.lines + [w for x in leqs for w in x.lines]),
        effects=_unit_effects(effects, listed),
        default_loadout=eq.default,
        beyond_options=tuple(eq.beyond + [w for x in leqs for w in x.beyond]),
        below_minimum=eq.below + tuple(w for x in leqs for w in x.below),
    )


def _unit_effects(effects: ListEffects, listed: tuple[ListedUnit, ...]) -> tuple[str, ...]:
    """The army's attacker-side effects and the attacker-side effects of the units'
    enhancements."""
    own = []
    for u in listed:
        e = (
            enhancement_effect(u.enhancement, effects.faction, effects.edition)
            if u.enhancement
            else None
        )
        if e is not None and e.applies_to_attacker:
            own.append(e.id)
    return tuple(dict.fromkeys((*effects.attacker, *own)))


# ---------------------------------------------------------------------------------------------
# One datasheet equipped as the list says


MOST_COPIES_A_MODEL = 100  # a listed weapon's copies a model, at most (the data's most: 10)


@dataclass
class _Equipped:
    """A listed unit on its datasheet: the datasheet to build it from (equipped as listed, or
    the datasheet itself for its default loadout), its size, the weapon lines, folds and
    warnings; ``error`` why it cannot be built (no such size); ``default`` whether it kept
    its default loadout; ``beyond`` why it has more of a weapon than the datasheet's wargear
    options allow (one reason a weapon; also among the warnings)."""

    datasheet: Datasheet
    models: int | None
    lines: list[WeaponLine] = field(default_factory=list)
    folds: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    default: bool = False
    beyond: list[str] = field(default_factory=list)
    below: tuple[str, ...] = ()


def _equip(ds: Datasheet, u: ListedUnit) -> _Equipped:
    from ..units import pick_size
    from .equip import as_listed, kits

    n = max(u.model_count, 1)
    totals = sorted({s.total for s in ds.sizes})
    out = _Equipped(ds, n)
    if n > totals[-1]:
        from .model import UnitCountError

        where = f"line {u.line}: " if u.line is not None else ""
        raise UnitCountError(
            f"{where}{u.name!r} counts {count(n, 'model')}, more than any size of {ds.name} "
            f"(sizes {', '.join(map(str, totals))}); a count is a whole number from 1 up to "
            "the largest size's"
        )
    at = u.where()  # the unit's own line, for what is said of the whole unit
    if n < totals[0]:  # a roster fields a unit of one of its sizes (--strict refuses)
        out.below = (
            f"{ds.name} has {count(n, 'model')}, fewer than its smallest size (sizes "
            f"{', '.join(map(str, totals))}): read as a damaged unit of {totals[0]}, as "
            f"--models {n} takes it (--strict refuses it)",
        )
        out.warnings.append(at + out.below[0])
    elif n not in totals:
        out.warnings.append(
            f"{at}{ds.name} has no {n}-model size (sizes {', '.join(map(str, totals))}): "
            f"read as a damaged unit, as --models {n} takes it"
        )
    for g in u.models:
        for name, copies in g.weapons:
            if copies > MOST_COPIES_A_MODEL * n:
                from .model import UnitCountError

                raise UnitCountError(
                    f"{at_lines(g.lines_of(name), u.line)}{u.name!r} lists {copies} of "
                    f"{name!r} on {count(n, 'model')}: "
                    f"more than any wargear option gives them (at most "
                    f"{MOST_COPIES_A_MODEL} of a weapon a model)"
                )
    size, size_counts = pick_size(ds, n, "attacker")
    by_type: dict[str, int] = {}
    for name, c in size_counts.items():
        by_type[norm_name(name)] = by_type.get(norm_name(name), 0) + c
    groups = _typed_groups(ds, u, out)
    listed_counts: dict[str, int] = {}
    named = all(m is not None for m, _ in groups)
    for m, g in groups:
        if m is not None:
            listed_counts[m.key] = listed_counts.get(m.key, 0) + g.count
    equipment: dict[str, list[tuple[int, tuple]]] = {}
    resolved_any = False
    listed: dict[tuple[str, ...], None] = {}  # each listed weapon's profile keys, in order
    lines: list[tuple[str, int, tuple]] | None = [] if named else None  # model lines' kits
    carried: dict[str, tuple[str, int]] = {}  # weapon -> (the list's name, copies on the unit)
    for m, g in groups:
        first_line = len(out.lines)
        resolved, listed_any = _resolve_weapons(ds, u, g, out)
        resolved_any = resolved_any or bool(resolved)
        names = [w.listed for w in out.lines[first_line:] if w.status in ("resolved", "folded")]
        _count_carried(ds, list(zip(names, resolved, strict=True)), carried)
        resolved = resolved + _stand_in(ds, g, m, by_type, resolved, out, first_line)
        listed.update((tuple(w.key for w in profiles), None) for profiles, _ in resolved)
        if m is None:
            for mk, weapons in _spread(ds, resolved, by_type).items():
                equipment.setdefault(mk, []).extend(kits(by_type[mk], weapons))
            continue
        if listed_any and not resolved and g.weapons:
            out.warnings.append(
                f"{ds.name}: {at_lines((), g.line)}none of {g.name}'s listed weapons is one "
                f"of ours: its {g.count} keep their default equipment"
            )
            if lines is not None:
                lines.append((m.name, g.count, ()))
            continue
        equipment.setdefault(m.key, []).extend(kits(g.count, resolved))
        if lines is not None:
            lines.append((m.name, g.count, tuple(kits(g.count, resolved))))
    _refuse_beyond_any_loadout(ds, u, n, carried)
    if not resolved_any:
        out.default = True
        out.warnings.append(
            f"{ds.name}: {at}no listed weapon is one of ours: it takes its default loadout"
        )
        return out
    composition = None
    if named and listed_counts and listed_counts != {k: v for k, v in by_type.items() if v}:
        composition = tuple(
            (m.name, listed_counts[m.key]) for m in ds.models if listed_counts.get(m.key)
        )
        data = ", ".join(f"{c} {name}" for name, c in size_counts.items() if c)
        mine = ", ".join(f"{c} {name}" for name, c in composition)
        out.warnings.append(
            f"{ds.name}: {at}the list's models ({mine}) are not the data's {n}-model size "
            f"({data}): the list's are used"
        )
    counts = dict(composition) if composition is not None else size_counts
    starting = size.total if composition is None else sum(counts.values())
    for why in _beyond_options(ds, equipment, list(listed), counts, starting, lines):
        out.beyond.append(why)
        out.warnings.append(
            f"{at}{ds.name} is over our data's wargear limits: {why}. The list's weapons are "
            "used as listed (--strict refuses them)"
        )
    from ..units import unlimited_notes

    keys = [k for profiles in listed for k in profiles]
    out.warnings += [f"{ds.name}: {at}{note}" for note in unlimited_notes(ds, keys)]
    out.datasheet = as_listed(ds, equipment, composition)
    return out


def _stand_in(
    ds: Datasheet,
    g: ListedModels,
    m: ModelProfile | None,
    by_type: dict[str, int],
    resolved: list[tuple[tuple[Weapon, ...], int]],
    out: _Equipped,
    first_line: int,
) -> list[tuple[tuple[Weapon, ...], int]]:
    """The default weapons that take the place of a model line's listed weapons we lack
    (:func:`.stand_in.stand_ins`; ``out.lines[first_line:]`` the line's weapon lines), each
    such weapon line marked with them and a warning said; none: an empty list."""
    from ..records import replace
    from .stand_in import stand_ins

    unknown = [i for i in range(first_line, len(out.lines)) if out.lines[i].status == "unresolved"]
    if not unknown or not resolved:
        return []
    models = (
        [(m, g.count)]
        if m is not None
        else [(x, by_type[x.key]) for x in ds.models if by_type.get(x.key)]
    )
    got = stand_ins(ds, models, resolved, sum(out.lines[i].count for i in unknown))
    if got is None:
        return []
    names = [out.lines[i].listed for i in unknown]
    instead = ", ".join(got.shown)
    for i in unknown:
        out.lines[i] = replace(
            out.lines[i],
            weapons=tuple(w.name for profiles, _ in got.weapons for w in profiles),
            fold=f"the default {instead} in its place",
        )
    n = sum(c for _, c in models)
    one = len(names) == 1
    place = "its place" if one else "their place"
    if n == 1:
        kept = f"it keeps its default {instead} in {place}"
    else:
        kind = f"{m.name} models" if m is not None else "models"
        kept = f"its {n} {kind} keep their default {instead} in {place}"
    at = at_lines(tuple(dict.fromkeys(n for x in names for n in g.lines_of(x))))
    out.warnings.append(
        f"{ds.name}: {at}{', '.join(names)} {'is' if one else 'are'} not one of ours: {kept}"
    )
    return list(got.weapons)


def _count_carried(
    ds: Datasheet,
    resolved: list[tuple[str, tuple[tuple[Weapon, ...], int]]],
    carried: dict[str, tuple[str, int]],
) -> None:
    """Add a model line's resolved weapons (the list's name, (our profiles, copies)) to
    ``carried`` (weapon key, a weapon of several profiles once -> the list's first name for
    it and its copies over the unit). Two names of one line that stand for the same weapon
    (``Stikka``, a base name for the ranged and the melee Stikka, beside ``Stikka (melee)``)
    count it once, the larger count."""
    from ..attack_sets import Weapons

    arms = Weapons(ds)
    line: dict[str, tuple[str, int]] = {}  # names of one line that overlap are one weapon
    for listed, (profiles, copies) in resolved:
        for k in dict.fromkeys(arms.weapon(w.key) for w in profiles):
            if copies > line.get(k, ("", 0))[1]:
                line[k] = (listed, copies)
    for k, (listed, copies) in line.items():
        name, before = carried.get(k, (listed, 0))
        carried[k] = (name, before + copies)


def _refuse_beyond_any_loadout(
    ds: Datasheet, u: ListedUnit, models: int, carried: dict[str, tuple[str, int]]
) -> None:
    """Refuse a unit listed with more copies of one of our weapons than its ``models`` could
    carry under any loadout of ``ds``: more than ``models`` times :func:`.bounds.most_copies`
    (the most of one weapon any one model of the datasheet could carry, taken generously, so
    that a gap in our option data cannot make it refuse a real list). Finer limits (what
    these options give these models) are warnings (:func:`_beyond_options`).

    Raises:
        UnitCountError: naming the weapon's lines (the unit's where the list does not say
            them), the weapon, its count and the bound.
    """
    from .bounds import most_copies

    over = [(name, c) for name, c in carried.values() if c > models]
    if not over:
        return
    most = most_copies(ds)
    for name, copies in over:
        if copies > models * most:
            from .model import UnitCountError

            a_model = "one" if most == 1 else f"{most}"
            raise UnitCountError(
                f"{u.where(name)}{u.name!r} lists {copies} of {name!r} on "
                f"{count(models, 'model')}, "
                f"more than they could carry under any loadout of {ds.name} (at most "
                f"{a_model} of a weapon a model: {models * most}); fix the count in the list"
            )


def _beyond_options(
    ds: Datasheet,
    equipment: dict[str, list[tuple[int, tuple]]],
    weapons: list[tuple[str, ...]],
    counts: dict[str, int],
    starting_strength: int,
    lines: list[tuple[str, int, tuple]] | None = None,
) -> list[str]:
    """Why the unit's models cannot carry as many of a listed weapon (``weapons``: each one's
    profile keys) as the list gives them (``equipment``, the kits as dealt), one reason a
    weapon, or nothing: ``--weapon``'s check (:func:`wh40k_calc.composition.assign`, and
    :func:`~wh40k_calc.composition.explain` for the reason; the datasheet's wargear limits,
    e.g. one assault cannon for every five models), one weapon at a time, over the whole unit.
    Then the weapons one wargear option gives (an ``option_limits`` entry: at most N models in
    all take its loadouts) are checked together, as that option's limit says (a Legionary's
    flamer and meltagun: 1 for every 5 models), and so are an option for every model of a
    type or none (a loadout entry's ``whole``: :func:`wh40k_calc.units.whole_unit_conflict`):
    5 Termagants with devourers beside 5 with fleshborers. Where none of these refuses the
    unit, every listed weapon is checked together and then each model line on its own
    model type (:func:`_model_by_model`; ``lines`` as there): a Sergeant's two items of one
    option, a Boy's big shoota beside a shoota.

    The list names wargear the models *carry*, not what attacks (the activation picks that, as
    for any unit: ``rules.weapons``), so weapons are counted as carried
    (:data:`~wh40k_calc.attack_sets.CARRYING`): a weapon with several profiles once, by its
    name ("Plasma pistol x2", not each of its profiles x2), a Pistol beside a boltgun."""
    from ..attack_sets import CARRYING, Weapons
    from ..composition import assign, explain, wanted_by_kits

    arms = Weapons(ds)
    wanted = wanted_by_kits(ds, [kit for kits in equipment.values() for kit in kits])
    subject = f"this unit of {count(sum(counts.values()), 'model')}"
    out = []
    refused: set[str] = set()
    for keys in weapons:
        one = {w: wanted[w] for w in dict.fromkeys(arms.weapon(k) for k in keys) if wanted.get(w)}
        if not one or assign(ds, counts, one, starting_strength, counting=CARRYING) is not None:
            continue
        refused |= set(one)
        out.append(explain(ds, counts, one, starting_strength, subject, CARRYING))
    default = {arms.weapon(k) for m in ds.models for k in m.equipped}
    for lim in ds.option_limits:
        given = {
            arms.weapon(k) for name in lim.loadouts for e in ds.loadouts[name] for k in e.equipped
        }
        together = {k: n for k, n in wanted.items() if n and k in given and k not in default}
        if len(together) < 2 or refused & set(together):
            continue
        if assign(ds, counts, together, starting_strength, counting=CARRYING) is not None:
            continue
        out.append(explain(ds, counts, together, starting_strength, subject, CARRYING))
        refused |= set(together)
    from ..units import whole_unit_conflict

    firsts = {
        keys[0]: (w, wanted.get(arms.weapon(keys[0]), 0))
        for keys in weapons
        if keys and (w := ds.weapon(keys[0])) is not None
    }
    conflict = whole_unit_conflict(ds, {k: v for k, v in firsts.items() if v[1]})
    if conflict is not None:
        out.append(conflict.removeprefix(f"{ds.name}: "))
    if not out:
        out += _model_by_model(ds, wanted, counts, starting_strength, lines, subject)
    return out


def _model_by_model(
    ds: Datasheet,
    wanted: dict[str, int],
    counts: dict[str, int],
    starting_strength: int,
    lines: list[tuple[str, int, tuple]] | None,
    subject: str,
) -> list[str]:
    """Why the unit's models cannot carry all the listed weapons at once, or those of each
    model line (``lines``: (model type's name, models, the line's kits as dealt); None where
    the list does not name every model's type), or nothing: ``--weapon``'s search
    (:func:`wh40k_calc.composition.assign` over the whole unit's weapons together, then
    :func:`~wh40k_calc.composition.lines_fit` a line at a time) and its reason
    (:func:`~wh40k_calc.composition.explain`). A Boy listed with a big shoota and a shoota,
    a Sergeant with two items of one option or with a grenade launcher beside the plasma
    pistol that replaced the bolt rifle it needs, 9 master-crafted power weapons and 2 power
    fists (which replace one) on 9 Terminators: one reason at most.

    Two things of our data are not taken as the rules: swaps without an option number (a
    hand-written loadout, or a generated one where the datasheet's text restricts which
    options a model combines, or of a model type with one option) are taken as independent
    options (:func:`_every_swap_numbered`: the exported Boss Nob's kombi-rokkit and power klaw
    are taken), and the weapons of an option our data does not generate are left out
    (:func:`_not_generated`), so a list is refused only what our options surely forbid."""
    from ..attack_sets import CARRYING
    from ..composition import assign, explain, lines_fit, wanted_by_kits

    open_ = _not_generated(ds)
    ds = _every_swap_numbered(ds)
    wanted = {k: n for k, n in wanted.items() if n and k not in open_}
    if not wanted:
        return []
    if assign(ds, counts, wanted, starting_strength, counting=CARRYING) is None:
        return [explain(ds, counts, wanted, starting_strength, subject, CARRYING)]
    if lines is None:
        return []
    per = [
        (name, n, {k: c for k, c in wanted_by_kits(ds, list(ks)).items() if k not in open_})
        for name, n, ks in lines
    ]
    if lines_fit(ds, per, starting_strength):
        return []
    for name, n, line in per:
        if line and not lines_fit(ds, [(name, n, line)], starting_strength):
            listed = ", ".join(f"{_weapon_name(ds, k)} x{c}" for k, c in line.items())
            who = f"its {name}" if n == 1 else f"its {n} {name} models"
            return [explain(ds, {name: n}, line, starting_strength, f"{who} ({listed})", CARRYING)]
    shown = "; ".join(
        f"{n} {name}: " + ", ".join(f"{_weapon_name(ds, k)} x{c}" for k, c in line.items())
        for name, n, line in per
        if line
    )
    return [
        f"no assignment of the models of {subject} gives each of the list's model lines its "
        f"weapons ({shown}) within the options' counts and limits"
    ]


def _every_swap_numbered(ds: Datasheet) -> Datasheet:
    """``ds`` with each loadout without an option number (a hand-written one; a generated one
    of a model type with one option, or of a datasheet whose text restricts which options a
    model takes together: none is numbered there) given a number of its own, so that a model
    may take it together with any other where they are independent (what each takes away is
    there, what each adds differs): a list's model is refused only equipment that no
    combination of its swaps gives (a Boss Nob's kombi-rokkit beside the power klaw that
    replaced his big choppa is taken; two swaps of the same weapon are not). Entries with
    ``instead_of`` keep none."""
    from ..records import replace

    first = 1 + max((e.option or 0 for entries in ds.loadouts.values() for e in entries), default=0)
    loadouts = {}
    for i, (name, entries) in enumerate(ds.loadouts.items()):
        loadouts[name] = tuple(
            replace(e, option=first + i) if e.option is None and e.instead_of is None else e
            for e in entries
        )
    return replace(ds, loadouts=loadouts)


def _not_generated(ds: Datasheet) -> set[str]:
    """The weapon keys (:class:`~wh40k_calc.attack_sets.Weapons`) that a wargear option our
    data does not generate names (``options_not_generated``): what a model may carry beside
    them is not known, so the model-by-model checks leave them out."""
    from ..attack_sets import Weapons

    names = {
        norm_name(item).removesuffix("s") for o in ds.options_not_generated for item in o.items
    }
    arms = Weapons(ds)
    return {k for k, label in arms.name.items() if norm_name(label).removesuffix("s") in names}


def _weapon_name(ds: Datasheet, key: str) -> str:
    """The printed name of weapon ``key`` (a multi-profile weapon's ``profile_of``)."""
    from ..attack_sets import Weapons

    return Weapons(ds).name.get(key, key)


def _typed_groups(
    ds: Datasheet, u: ListedUnit, out: _Equipped
) -> list[tuple[ModelProfile | None, ListedModels]]:
    """The unit's listed model types, each with our model type (None: the list names none,
    or none of ours is that name: its weapons are spread over the unit, said)."""
    groups = []
    for g in u.models:
        m, fold = model_type(ds, g.name)
        if fold:
            out.folds.append(f"{ds.name}: {fold}")
        if g.name is not None and m is None:
            types = ", ".join(x.name for x in ds.models)
            out.warnings.append(
                f"{ds.name}: {at_lines((), g.line)}no model type is called {g.name!r} (types: "
                f"{types}): its weapons are given to the models that can carry them"
            )
        groups.append((m, g))
    return groups


def _resolve_weapons(
    ds: Datasheet, u: ListedUnit, g: ListedModels, out: _Equipped
) -> tuple[list[tuple[tuple[Weapon, ...], int]], bool]:
    """Our profiles for each weapon of a listed model type (and its weapon lines in ``out``);
    and whether it listed anything that is not wargear."""
    resolved: list[tuple[tuple[Weapon, ...], int]] = []
    listed_any = False
    for name, n in g.weapons:
        profiles, fold = weapon_profiles(ds, name)
        if profiles:
            listed_any = True
            status = "folded" if fold and "read as" in fold else "resolved"
            out.lines.append(
                WeaponLine(u.name, g.name, name, n, status, tuple(w.name for w in profiles), fold)
            )
            resolved.append((profiles, n))
        elif is_wargear(name):
            out.lines.append(WeaponLine(u.name, g.name, name, n, "wargear"))
        else:
            listed_any = True
            cands = suggestions(name, [w.name for w in ds.weapons])
            out.lines.append(
                WeaponLine(u.name, g.name, name, n, "unresolved", candidates=tuple(cands))
            )
    return resolved, listed_any


def _spread(
    ds: Datasheet,
    weapons: list[tuple[tuple[Weapon, ...], int]],
    by_type: dict[str, int],
) -> dict[str, list[tuple[tuple[Weapon, ...], int]]]:
    """Weapons the list gives the unit as a whole, spread over its model types: each weapon's
    copies dealt one a model, first over the models of the types that can carry it (its
    default equipment or a loadout of the type lists it), then over the others, in the
    datasheet's order, and round again only when there are more copies than models."""
    out: dict[str, list[tuple[tuple[Weapon, ...], int]]] = {}
    present = [m for m in ds.models if by_type.get(m.key)]
    for profiles, total in weapons:
        keys = {w.key for w in profiles}
        able = [m for m in present if any(_can_carry(ds, m, k) for k in keys)]
        rest = [m for m in present if m not in able]
        slots = [m.key for m in (*able, *rest) for _ in range(by_type[m.key])]
        share: dict[str, int] = {}
        for k in range(total):
            mk = slots[k % len(slots)]
            share[mk] = share.get(mk, 0) + 1
        for mk, c in share.items():
            out.setdefault(mk, []).append((profiles, c))
    return out


def _can_carry(ds: Datasheet, m: ModelProfile, key: str) -> bool:
    if m.carries(key):
        return True
    return any(
        norm_name(e.model) == m.key and key in e.equipped
        for entries in ds.loadouts.values()
        for e in entries
    )

"""A unit on the table: how many models of each kind, what each carries, Leaders attached.

Turns a :class:`~wh40k_calc.selection.UnitChoice` into a :class:`Unit` (sizes and loadouts as
DATASHEET_FORMAT.md defines them), refusing impossible choices with the reason.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from msgspec import Struct

from .datasheet import (
    Datasheet,
    LoadoutEntry,
    ModelProfile,
    UnitSize,
    Weapon,
    holds_control,
    norm_name,
)
from .fuzzy import did_you_mean
from .notes import OptionNote
from .records import replace
from .selection import SelectionError, UnitChoice, UsageError, WeaponsError
from .wording import count


class ModelGroup(Struct, frozen=True, cache_hash=True):
    """``count`` identical models of ``profile`` carrying ``weapons``, from ``datasheet``.
    ``character`` marks a Leader's CHARACTER models in an Attached unit; ``support`` those of
    an attached Support character (edition 11, 24.34 SUPPORT)."""

    profile: ModelProfile
    count: int
    weapons: tuple[Weapon, ...]
    datasheet: Datasheet
    character: bool = False
    support: bool = False

    @property
    def label(self) -> str:
        """Model name, with the unit's name for a Leader."""
        return self.profile.name


class Unit(Struct, frozen=True, dict=True):  # dict: the keywords, kept
    """A unit (Attached or not): ``groups`` in allocation order, Bodyguard models first.

    ``starting_strength`` is the Bodyguard unit's; ``points`` includes Leaders (pro rata for a
    damaged unit). ``unpriced`` names the datasheets in it whose source lists no points (their
    share of ``points`` is 0); ``notes`` are sentences for the output (a size chosen where the
    source has another of the same number of models).
    """

    name: str
    groups: tuple[ModelGroup, ...]
    points: float
    starting_strength: int
    datasheets: tuple[Datasheet, ...]
    size: int | None = None
    whole: tuple[ModelGroup, ...] | None = None
    unpriced: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def points_listed(self) -> bool:
        """False when a datasheet of the unit has no points in its source."""
        return not self.unpriced

    @property
    def models(self) -> int:
        """Models in the unit (with ``--weapon``, all of them, not only the weapons' bearers)."""
        return self.size if self.size is not None else sum(g.count for g in self.groups)

    @property
    def all_groups(self) -> tuple[ModelGroup, ...]:
        """Every model of the unit, as equipped: with ``--weapon``, ``groups`` holds only the
        models that attack and their named weapons, this the whole unit (for rules about the
        unit rather than the attacks: keywords, hazard rolls, Stealth)."""
        return self.whole if self.whole is not None else self.groups

    @cached_property
    def keywords(self) -> frozenset[str]:
        """Keywords of every datasheet in the unit (an Attached unit is one unit for rules);
        made once (the rules ask for them many times an activation)."""
        out: frozenset[str] = frozenset()
        for ds in self.datasheets:
            out |= ds.all_keywords()
        for g in self.all_groups:
            out |= g.profile.keywords
        return out

    @property
    def is_attached(self) -> bool:
        """True when Leaders are attached."""
        return len(self.datasheets) > 1

    @property
    def bodyguard(self) -> tuple[ModelGroup, ...]:
        """Groups of the Bodyguard unit."""
        return tuple(g for g in self.groups if not g.character)

    @property
    def characters(self) -> tuple[ModelGroup, ...]:
        """Groups of the attached Leaders."""
        return tuple(g for g in self.groups if g.character)

    def surviving(self, alive: tuple[int, ...]) -> Unit:
        """The unit with only ``alive[i]`` models left in group ``i`` (``groups`` order): groups
        with none left are gone, and so is a datasheet (an attached Leader, or the Bodyguard)
        none of whose models is left. The Starting Strength stays the unit's (Below
        Half-strength reads it); points are not changed.

        Raises:
            SelectionError: one count per group is not given, a count is above the group's,
                or no model is left.
        """
        if len(alive) != len(self.groups) or any(
            not 0 <= n <= g.count for n, g in zip(alive, self.groups, strict=True)
        ):
            raise SelectionError(f"{self.name}: models alive {alive} do not fit the unit")
        if self.whole is not None:
            raise SelectionError(f"{self.name}: models alive cannot be given with --weapon")
        groups = tuple(
            replace(g, count=n) for g, n in zip(self.groups, alive, strict=True) if n > 0
        )
        if not groups:
            raise SelectionError(f"{self.name}: no model is left")
        left = [ds for ds in self.datasheets if any(g.datasheet is ds for g in groups)]
        return replace(self, groups=groups, datasheets=tuple(left), size=sum(alive))


def pick_size(ds: Datasheet, models: int | None, role: str) -> tuple[UnitSize, dict[str, int]]:
    """The size and per-model counts for ``models`` models.

    Either side takes a listed size, or a damaged unit: the smallest listed size with at least
    N models, rank-and-file removed first (its Starting Strength stays that size's), for any N
    from 1 to the largest size (issue 10, item 9: "`--models N` below the smallest size works
    as `--target-models` does"; a 10-model unit down to 7 models is a damaged unit too).

    Raises:
        SelectionError: the size is not possible, with the legal sizes.
    """
    totals = sorted({s.total for s in ds.sizes})
    if models is None:
        size = ds.min_size
        return size, {name: n for name, n in size.composition}
    exact = [s for s in ds.sizes if s.total == models]
    if exact:
        size = exact[0]
        return size, {name: n for name, n in size.composition}
    legal = ", ".join(str(t) for t in totals)
    if models < 1 or models > totals[-1]:
        why = next(
            (
                f"; the source's {models}-model size is not selectable: {d.label}"
                for d in ds.dropped_sizes
                if d.total == models and d.label
            ),
            "",
        )
        # fewer than one model is no unit at all, whatever the datasheet: a usage error
        error = SelectionError if models >= 1 else UsageError
        raise error(
            f"{ds.name} cannot have {count(models, 'model')}: from 1 to {totals[-1]} "
            f"(sizes {legal}; fewer models means a damaged unit{why})"
        )
    size = min((s for s in ds.sizes if s.total >= models), key=lambda s: s.total)
    counts = {name: n for name, n in size.composition}
    remove = size.total - models
    for m in ds.models:  # rank-and-file (first in allocation order) removed first
        for name in counts:
            if norm_name(name) == m.key and remove:
                taken = min(counts[name], remove)
                counts[name] -= taken
                remove -= taken
    return size, counts


def build_unit(choice: UnitChoice, role: str, edition: str = "10") -> Unit:
    """The unit a :class:`UnitChoice` describes.

    Args:
        choice: datasheet, size, loadout, explicit weapons and Leaders (or, in edition 11,
            Support characters).
        role: "attacker" or "target".
        edition: "10" or "11" (edition 11 also attaches Support characters: 24.22/24.34).

    With ``--weapon`` (``choice.weapons``) the unit is still the whole unit of the size asked
    for, or of the smallest listed size whose models can carry the named weapons; only the
    named weapons attack (``Unit.groups``), the rest stand by (``Unit.all_groups``).

    Raises:
        SelectionError: unknown loadout or weapon, impossible size or count, a character that
            cannot lead (or support) this unit, too many of them; a UsageError (exit code 2)
            for ``--weapon`` with ``--loadout``.
    """
    if choice.weapons and choice.loadout is not None:
        from .selection import UsageError

        raise UsageError(
            "--weapon lists exactly which weapons attack: it cannot be combined with --loadout"
        )
    ds = choice.datasheet
    _refuse_leader_weapons(ds, choice)
    models = choice.models
    fitted = None  # --weapon without --models: the smallest size that can carry them
    if choice.weapons and models is None:  # none fits: the largest, to say why
        fitted = _size_for_weapons(ds, choice.weapons)
        models = fitted or ds.max_size.total
    size, counts = pick_size(ds, models, role)
    n_models = sum(counts.values())
    groups = _equip(ds, counts, choice.loadout, size.total)
    whole: list[ModelGroup] | None = None
    unlimited: tuple[str, ...] = ()
    if choice.weapons:
        whole = list(groups)
        groups = _explicit_weapons(ds, counts, choice.weapons, choice.models is None, size.total)
        whole = _with_optional_kinds(ds, whole, groups, counts)
        unlimited = unlimited_notes(ds, [k for k in _wanted(ds, choice.weapons)], "--weapon")
    points = size.points * n_models / size.total
    out_groups = list(groups)
    total = n_models
    supports = _check_leaders(ds, choice.leaders, size.total, edition == "11")
    for i, (leader, supporting) in enumerate(zip(choice.leaders, supports, strict=True)):
        lsize, lcounts = pick_size(leader, None, "attacker")
        total += lsize.total
        for g in _equip(leader, lcounts, choice.leader_loadout(i), lsize.total):
            is_char = "CHARACTER" in (leader.all_keywords() | g.profile.keywords)
            helps = is_char and supporting
            attached = ModelGroup(g.profile, g.count, g.weapons, leader, is_char, helps)
            out_groups.append(attached)
            if whole is not None:
                whole.append(attached)
        points += lsize.points
    name = (
        ds.name
        if not choice.leaders
        else (f"{ds.name} led by {' and '.join(leader_labels(choice))}")
    )
    parts = [(ds, size), *((lead, lead.min_size) for lead in choice.leaders)]
    return Unit(
        name,
        tuple(out_groups),
        points,
        size.total,
        (ds, *choice.leaders),
        total,
        tuple(whole) if whole is not None else None,
        tuple(d.name for d, _ in parts if not d.points_listed),
        tuple(note for d, s in parts for note in size_notes(d, s))
        + _fitted_note(ds, fitted)
        + repeated_weapon_notes(ds, choice.weapons)
        + unlimited,
    )


def unlimited_notes(ds: Datasheet, keys: list[str], option: str = "") -> tuple[str, ...]:
    """A note for each weapon of ``keys`` whose number a wargear option limits that our data
    does not generate (:func:`~wh40k_calc.composition.unchecked`): taken as given, never
    silently (``option``: ``--weapon`` where that option named them: an
    :class:`~wh40k_calc.notes.OptionNote` ``--weapon NAME: ...``)."""
    from .composition.unchecked import unchecked

    notes = [
        f"{w.name}: how many of it the unit may carry is set by a wargear option our "
        f"data does not generate ({why}); the number given is not checked against it"
        for w, why in unchecked(ds, keys)
    ]
    return tuple(OptionNote(option, n, " ") if option else n for n in notes)


def size_notes(ds: Datasheet, size: UnitSize) -> list[str]:
    """Notes for a size chosen where the source lists another size of as many models (kept in
    ``dropped_sizes``, not selectable): the composition used and the one dropped."""
    return [
        f"{ds.name}: {count(size.total, 'model')} is {size.describe(points=True)}; the "
        f"source's other {size.total}-model size, {d.describe(points=True)}, is not selectable"
        for d in ds.dropped_sizes
        if d.total == size.total
    ]


def _equip(
    ds: Datasheet, counts: dict[str, int], loadout: str | None, starting_strength: int
) -> list[ModelGroup]:
    """The model groups of a unit with ``counts`` models of each kind: each kind's default
    equipment (``ModelProfile.default_equipment``), less the models a loadout's entries take
    and equip otherwise; per kind, the models left as equipped by default come first. A
    loadout's ``instead_of`` entries first put their models in place of as many of that kind
    (:func:`fielded`)."""
    entries: tuple[LoadoutEntry, ...] = ()
    loadout = find_loadout(ds, loadout)
    if loadout is not None:
        entries = ds.loadouts[loadout]
        counts = fielded(ds, counts, entries, str(loadout), starting_strength)
    groups: list[ModelGroup] = []
    for m in ds.models:
        present = sum(n for name, n in counts.items() if norm_name(name) == m.key)
        if not present:
            continue
        kits: list[list[Any]] = [[n, keys] for n, keys in m.default_equipment(present)]
        changed: list[ModelGroup] = []
        for e in entries:
            if norm_name(e.model) != m.key:
                continue
            least = max(e.min_unit_size or 0, e.per_models or 0)
            if least and starting_strength < least:
                per = f" for every {e.per_models} models" if e.per_models else ""
                raise SelectionError(
                    f"loadout {loadout!r} of {ds.name} ({e.count or 'all'} {m.name}{per}: "
                    f"{', '.join(w.name for w in _weapons(ds, e.equipped))}) needs a unit of at "
                    f"least {least} models (this one has {starting_strength})"
                )
            take = _take(ds, m, kits, e, str(loadout), e.models_for(starting_strength))
            if take:
                changed.append(ModelGroup(m, take, _weapons(ds, e.equipped), ds))
        groups += [ModelGroup(m, n, _weapons(ds, keys), ds) for n, keys in kits if n]
        groups += changed
    return groups


def _with_optional_kinds(
    ds: Datasheet, whole: list[ModelGroup], attacking: list[ModelGroup], counts: dict[str, int]
) -> list[ModelGroup]:
    """The whole unit of ``--weapon`` (``Unit.all_groups``) with the optional model kinds its
    named weapons needed (a loadout entry's ``instead_of``: :func:`wh40k_calc.composition.
    assign` gives them to such models) in place of as many of the kind they replace, each
    with its default equipment (of a kind in several attacking groups, the largest: a model
    carrying two named weapons is in both)."""
    present = {norm_name(name) for name, c in counts.items() if c}
    instead = {
        norm_name(e.model): norm_name(e.instead_of)
        for entries in ds.loadouts.values()
        for e in entries
        if e.instead_of
    }
    added: dict[str, tuple[ModelProfile, int]] = {}
    for g in attacking:
        if g.profile.key not in present and g.profile.key in instead:
            n = max(added.get(g.profile.key, (g.profile, 0))[1], g.count)
            added[g.profile.key] = (g.profile, n)
    out = list(whole)
    for key, (kind, n) in added.items():
        left = n
        for i, g in enumerate(out):
            if g.profile.key == instead[key] and left:
                taken = min(g.count, left)
                out[i] = replace(g, count=g.count - taken)
                left -= taken
        out.append(ModelGroup(kind, n - left, _weapons(ds, kind.equipped), ds))
    return [g for g in out if g.count]


def fielded(
    ds: Datasheet,
    counts: dict[str, int],
    entries: tuple[LoadoutEntry, ...],
    loadout: str,
    starting_strength: int,
) -> dict[str, int]:
    """``counts`` (model name -> models) with each ``instead_of`` entry's models of an optional
    kind in the place of as many of the kind it names (a Victrix Honour Guard's Chapter
    Champion for one of the Honour Guard): the unit keeps its number of models.

    Raises:
        SelectionError: the unit has fewer models of that kind left than the entries take, or
            than the kind ``keeps`` (its composition's minimum) and the entries take.
    """
    out = dict(counts)
    for e in entries:
        if e.instead_of is None:
            continue
        n = e.models_for(starting_strength) or 0
        key = norm_name(e.instead_of)
        have = sum(c for name, c in out.items() if norm_name(name) == key)
        kind = ds.model(e.instead_of)
        keeps = (kind.keeps or 0) if kind is not None else 0
        if n > have - keeps:
            kept = f", and keeps at least {keeps} of them" if keeps else ""
            raise SelectionError(
                f"loadout {loadout!r} of {ds.name} fields {count(n, e.model)} in place of as "
                f"many {e.instead_of} but this unit has {count(have, e.instead_of)}{kept}"
            )
        left = n
        for name in out:
            if norm_name(name) == key and left:
                taken = min(out[name], left)
                out[name] -= taken
                left -= taken
        out[e.model] = out.get(e.model, 0) + n
    return {name: c for name, c in out.items() if c}


def _take(
    ds: Datasheet, m: ModelProfile, kits: list[list], e: LoadoutEntry, name: str, count: int | None
) -> int:
    """Take the ``count`` models (None: all) a loadout entry equips out of ``kits`` ([count,
    weapon keys] per default equipment, ``equipped`` first): those with the equipment it
    ``replaces``, else those with ``equipped`` first, then the others from the last. Returns
    how many.

    Raises:
        SelectionError: fewer such models are left than the entry equips.
    """
    if e.replaces is not None:
        pool = [k for k in kits if sorted(k[1]) == sorted(e.replaces)]
    else:
        pool = [kits[0], *kits[:0:-1]]
    left = sum(k[0] for k in pool)
    take = left if count is None else count
    if take > left:
        which = f" with {', '.join(w.name for w in _weapons(ds, e.replaces))}" if e.replaces else ""
        raise SelectionError(
            f"loadout {name!r} equips {count} {m.name} "
            f"{'model' if count == 1 else 'models'} with "
            f"{', '.join(w.name for w in _weapons(ds, e.equipped))} but this unit has "
            f"only {left} {m.name} model{'s' if left != 1 else ''}{which} left to equip"
        )
    need = take
    for k in pool:
        used = min(need, k[0])
        k[0] -= used
        need -= used
    return take


def leader_labels(choice: UnitChoice) -> list[str]:
    """Each Leader of ``choice`` by name, with its named loadout where one is chosen
    ("Captain (power-fist)")."""
    out = []
    for i, lead in enumerate(choice.leaders):
        loadout = find_loadout(lead, choice.leader_loadout(i))
        out.append(lead.name if loadout is None else f"{lead.name} ({loadout})")
    return out


def given_loadouts(loadouts: list[str | None]) -> tuple[str | None, ...]:
    """The Leaders' loadouts for ``UnitChoice.leader_loadouts``: empty where none names one,
    so that a unit given without them and one given as equipped are the same choice (its
    keys, its cached builds)."""
    return tuple(loadouts) if any(loadouts) else ()


def split_leader(text: str, option: str = "--leader") -> tuple[str, str | None]:
    """A Leader as given: ``"captain"`` -> ("captain", None), ``"captain:power-fist"`` ->
    ("captain", "power-fist"), the Leader's named loadout after the colon (no unit name holds
    one; a full-width one counts).

    Raises:
        UsageError: a colon with no name before it or no loadout after it (exit code 2).
    """
    plain = text.replace("\uff1a", ":")  # a full-width colon is the colon, as letters are
    if ":" not in plain:
        return text, None
    name, _, loadout = plain.partition(":")
    form = "(NAME or NAME:LOADOUT, e.g. captain:power-fist)"
    if ":" in loadout:
        raise UsageError(f"{option} {text!r}: one colon, between the unit and its loadout {form}")
    if not name.strip() or not loadout.strip():
        missing = "a unit name before" if not name.strip() else "a loadout name after"
        raise UsageError(f"{option} {text!r}: give {missing} the colon {form}")
    return name.strip(), loadout.strip()


def find_loadout(ds: Datasheet, name: str | None) -> str | None:
    """The loadout of ``ds`` called ``name`` (normalised match); None for no name or
    ``default`` (each model as equipped).

    Raises:
        SelectionError: no such loadout, with the closest names and the list.
    """
    if name is None or norm_name(name) == "default":
        return None
    found = [k for k in ds.loadouts if norm_name(k) == norm_name(name)]
    if found:
        return found[0]
    names = ["default", *ds.loadouts]
    raise SelectionError(
        f"{ds.name} has no loadout {name!r}"
        + did_you_mean(name, names)
        + f" (loadouts: {', '.join(names)})"
    )


def _weapons(ds: Datasheet, keys: tuple[str, ...]) -> tuple[Weapon, ...]:
    out = []
    for k in keys:
        w = ds.weapon(k)
        assert w is not None  # validated when the datasheet was loaded
        out.append(w)
    return tuple(out)


_WEAPON_SPEC = re.compile(r"^\s*(.+?)\s*(?:[x×*]\s*(-?\d+))?\s*$", re.IGNORECASE)


def parse_weapon_spec(text: str) -> tuple[str, int]:
    """``"Deffgun x4"`` -> ("Deffgun", 4); no count means 1.

    Raises:
        UsageError: the text holds a control character (a newline, a tab, ESC: ``Flamer\\nx2``
            is neither ``Flamer`` nor ``Flamer x2``), shown escaped (exit code 2).
        UsageError: empty name or a count below 1 (exit code 2, as for any malformed value).
    """

    if holds_control(text):
        from .terminal import escape_controls

        raise UsageError(
            f"--weapon '{escape_controls(text)}': holds a control character; write the name "
            "and the count on one line, e.g. 'Deffgun x4'"
        )
    m = _WEAPON_SPEC.match(text)
    if not m or not m.group(1):
        raise UsageError(f"--weapon {text!r}: expected 'NAME xN', e.g. 'Deffgun x4'")
    n = int(m.group(2)) if m.group(2) else 1
    if n < 1:
        raise UsageError(f"--weapon {text!r}: the count must be at least 1")
    return m.group(1), n


def _refuse_leader_weapons(ds: Datasheet, choice: UnitChoice) -> None:
    """A ``--weapon`` the Bodyguard ``ds`` lacks but an attached Leader has: said as such
    (``--weapon`` picks the Bodyguard's weapons; a Leader attacks with its default
    equipment, which no option changes).

    Raises:
        SelectionError: naming the Leader whose weapon it is.
    """
    for name, _ in choice.weapons:
        if ds.weapon(name) is not None:
            continue
        for lead in choice.leaders:
            w = lead.weapon(name)
            if w is not None:
                raise SelectionError(
                    f"--weapon {name!r}: {w.name} is a weapon of the attached Leader "
                    f"({lead.name}), not of {ds.name}: --weapon picks the Bodyguard's weapons, "
                    "and a Leader attacks with its datasheet's default equipment (no option "
                    "chooses a Leader's wargear; a datasheet file of your own, with the "
                    "equipment you want as its default, does)"
                )


def _wanted(ds: Datasheet, specs: tuple[tuple[str, int], ...]) -> dict[str, tuple[Weapon, int]]:
    """The named weapons and how many of each (the same weapon named twice counts together).

    Raises:
        SelectionError: a weapon the datasheet lacks (with the closest names).
    """
    out: dict[str, tuple[Weapon, int]] = {}
    for name, n in specs:
        w = ds.weapon(name)
        if w is None:
            raise SelectionError(
                f"{ds.name} has no weapon {name!r}"
                + did_you_mean(name, [x.name for x in ds.weapons])
                + f" (weapons: {', '.join(x.name for x in ds.weapons)})"
            )
        out[w.key] = (w, out.get(w.key, (w, 0))[1] + n)
    return out


def whole_unit_conflict(ds: Datasheet, wanted: dict[str, tuple[Weapon, int]]) -> str | None:
    """Why the ``wanted`` weapons (key -> (weapon, number)) break a wargear option for every
    model of a type or none (a loadout entry's ``whole``), or for every model of the unit or
    none (``whole_unit``: its entries for several types swap together): they name weapons that
    only one alternative of those models gives (their default equipment, or one such loadout)
    and weapons that only another gives, e.g. a Termagant devourer and a fleshborer, or an
    Aggressor Sergeant's auto boltstorm gauntlets beside flamestorm gauntlets. A weapon that
    any other option gives (another loadout, a choice, another model type) is no evidence,
    except a default weapon that another loadout of the same type lists as kept beside what
    it adds (the Cthonian Beserks' mole grenade launcher and heavy plasma axe): the swap for
    every model replaces it there too. None: no conflict."""
    scopes: dict[frozenset[str], list[tuple[str, list[LoadoutEntry]]]] = {}
    for name, entries in ds.loadouts.items():
        unit_wide = [e for e in entries if e.whole and e.whole_unit]
        if unit_wide:
            keys = frozenset(norm_name(e.model) for e in unit_wide)
            scopes.setdefault(keys, []).append((name, unit_wide))
        for e in entries:
            if e.whole and not e.whole_unit:
                scopes.setdefault(frozenset({norm_name(e.model)}), []).append((name, [e]))
    for scope, wholes in scopes.items():
        found = _whole_alternatives(ds, wanted, scope, wholes)
        if len(found) > 1:
            named = [
                f"{' and '.join(wanted[k][0].name for k in own)} ({label})" for label, own in found
            ]
            from .wording import join_words

            kinds = [m.name for m in ds.models if m.key in scope]
            every = (
                f"every {kinds[0]} or none (all models of the unit swap together)"
                if len(kinds) == 1
                else f"every model of the unit or none ({join_words(kinds)} swap together)"
            )
            options = join_words([repr(name) for name, _ in wholes])
            return (
                f"{ds.name}: the loadout{'s' if len(wholes) > 1 else ''} {options} "
                f"{'are each' if len(wholes) > 1 else 'is'} for {every}, so the unit cannot have "
                f"{join_words(named)}"
            )
    return None


def _whole_alternatives(
    ds: Datasheet,
    wanted: dict[str, tuple[Weapon, int]],
    scope: frozenset[str],
    wholes: list[tuple[str, list[LoadoutEntry]]],
) -> list[tuple[str, list[str]]]:
    """The alternatives of the models of ``scope`` (model keys) that the ``wanted`` weapons
    name, each as (its label, the wanted keys only it gives): their default equipment, or one
    of the loadouts ``wholes`` (name, its entries for them) that every one of them takes or
    none does (:func:`whole_unit_conflict`)."""
    mine = [m for m in ds.models if m.key in scope]
    default = {k for m in mine for k in m.equipped}
    alts = [("its default equipment", default)]
    alts += [(f"loadout {name!r}", {k for e in es for k in e.equipped}) for name, es in wholes]
    taken = {id(e) for _, es in wholes for e in es}
    elsewhere: set[str] = set()
    for other in ds.models:
        elsewhere.update(k for c in other.choices for k in c.weapons)
        elsewhere.update(k for _, keys in other.equipped_by_count for k in keys)
        if other.key not in scope:
            elsewhere.update(other.equipped)
    for entries in ds.loadouts.values():
        for e in entries:
            if id(e) in taken:
                continue
            # another option of these models lists the default weapons it keeps (a Cthonian
            # Beserk's mole grenade launcher beside its heavy plasma axe): the swap for every
            # model decides whether those stay, so they are no evidence
            ours = norm_name(e.model) in scope
            elsewhere.update(k for k in e.equipped if not (ours and k in default))
    found = []
    for i, (label, keys) in enumerate(alts):
        rest: set[str] = set()
        for j, (_, other_keys) in enumerate(alts):
            if j != i:
                rest |= other_keys
        own = [k for k in wanted if k in keys and k not in rest and k not in elsewhere]
        if own:
            found.append((label, own))
    return found


def _fitted_note(ds: Datasheet, fitted: int | None) -> tuple[str, ...]:
    """The note saying that ``--weapon`` chose a unit larger than the smallest (never chosen
    without a word): ``fitted`` is that size (None: not chosen, or the smallest)."""
    if fitted is None or fitted == ds.min_size.total:
        return ()
    return (
        OptionNote(
            "--weapon",
            f"a unit of {fitted} models, the smallest listed size of {ds.name} whose models "
            f"can carry the named weapons (the smallest is {ds.min_size.total}; --models N "
            "for another)",
        ),
    )


def repeated_weapon_notes(ds: Datasheet, specs: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """A note for each weapon of ``ds`` that ``specs`` ((name as written, number) pairs, as
    ``--weapon "NAME xN"`` gives them) name more than once: the numbers count together
    (:func:`_wanted`), said with the total, so that a weapon repeated by mistake is seen.
    Names ``ds`` lacks are left to :func:`_wanted`'s refusal."""
    named: dict[str, list[tuple[str, int]]] = {}
    names: dict[str, str] = {}
    for text, n in specs:
        w = ds.weapon(text)
        if w is not None:
            named.setdefault(w.key, []).append((text, n))
            names[w.key] = w.name
    return tuple(
        OptionNote(
            "--weapon",
            f"{names[k]} is named {len(given)} times "
            f"({', '.join(f'{text} x{n}' for text, n in given)}): they count together, "
            f"{names[k]} x{sum(n for _, n in given)}",
        )
        for k, given in named.items()
        if len(given) > 1
    )


def _size_for_weapons(ds: Datasheet, specs: tuple[tuple[str, int], ...]) -> int | None:
    """The smallest listed size whose models can carry the named weapons (None: none can, or a
    weapon is unknown; ``_explicit_weapons`` then says why)."""
    try:
        need = {k: n for k, (_, n) in _wanted(ds, specs).items()}
    except SelectionError:
        return None
    from .composition.search import assign

    for size in sorted(ds.sizes, key=lambda s: s.total):
        counts = {name: n for name, n in size.composition}
        if assign(ds, counts, need, size.total) is not None:
            return size.total
    return None


def _explicit_weapons(
    ds: Datasheet,
    counts: dict[str, int],
    specs: tuple[tuple[str, int], ...],
    any_size: bool,
    starting_strength: int,
) -> list[ModelGroup]:
    """The attacking groups of ``--weapon``: each named weapon, that many of it, carried by
    models whose equipment options allow it (:mod:`wh40k_calc.composition`: a model uses a
    combination of weapons only if one of its options lists them together, as many of each as
    the option lists; model types filled in datasheet order) and which may attack with them
    together (:mod:`wh40k_calc.attack_sets`: one profile of each weapon, its Pistols or its
    other ranged weapons unless it is a MONSTER or VEHICLE, one melee weapon besides its
    [EXTRA ATTACKS] weapons). A model may use several different named weapons (a vehicle's
    guns, a Pistol and a melee weapon).

    Raises:
        SelectionError: an unknown weapon, or named weapons no assignment of the unit's models
            can carry or attack with (why: e.g. two weapons no model carries together, more
            than its models, a Pistol and a boltgun on one model).
    """
    from .composition.search import assign

    wanted = _wanted(ds, specs)
    conflict = whole_unit_conflict(ds, wanted)
    if conflict is not None:
        raise WeaponsError("--weapon: " + conflict, conflict)
    plan = assign(ds, counts, {k: n for k, (_, n) in wanted.items()}, starting_strength)
    if plan is None:
        from .composition.reasons import explain
        from .composition.search import carried_fits

        n_models = sum(counts.values())
        subject = f"this unit of {count(n_models, 'model')}"
        need = {k: n for k, (_, n) in wanted.items()}
        head = ""
        if any_size:
            verb = "attack with" if carried_fits(ds, counts, need, starting_strength) else "carry"
            head = f"no listed size of {ds.name} can {verb} them: "
            subject = f"the largest ({count(n_models, 'model')})"
        why = head + explain(ds, counts, need, starting_strength, subject)
        raise WeaponsError("--weapon: " + why, why)
    out: list[ModelGroup] = []
    for name, n in specs:  # in the order given (the same weapon twice: two groups)
        w = ds.weapon(name)
        assert w is not None  # checked by _wanted
        carried = plan[w.key]  # [(model type, models, weapons each)], used up in order
        while n > 0:
            m, models, each = carried.pop(0)
            if each > n:  # one model uses n of its weapons; its others stay for later specs
                out.append(ModelGroup(m, 1, (w,) * n, ds))
                carried[:0] = [(m, 1, each - n)] + ([(m, models - 1, each)] if models > 1 else [])
                break
            take = min(models, n // each)
            out.append(ModelGroup(m, take, (w,) * each, ds))
            n -= take * each
            if take < models:
                carried.insert(0, (m, models - take, each))
    return out


def _check_leaders(
    ds: Datasheet, chars: tuple[Datasheet, ...], starting: int, support: bool
) -> list[bool]:
    """Refuse characters that cannot be attached to ``ds`` (Core rules: LEADER, "Each Bodyguard
    unit can only have one Leader attached to it"; edition 11, 24.22 LEADER / 24.34 SUPPORT:
    "Unless otherwise stated, each bodyguard unit can only have one leader unit and one support
    unit attached to it"). A character that can both lead and support ``ds`` leads while the
    Bodyguard has room for a Leader. ``leaders_allowed`` (e.g. two Leaders at a Starting
    Strength of 20) raises the number of Leaders, and so does a Leader's own
    ``leader_alongside`` (it may join a Leader with one of those keywords: a Lieutenant
    alongside a Captain), in both editions.

    Returns, for each of ``chars``, whether it is attached as a Support character.

    Raises:
        SelectionError: naming the character and why.
    """
    if not chars:
        return []
    allowed = 1
    rule = None
    for a in ds.leaders_allowed:
        if starting >= a.starting_strength and a.count > allowed:
            allowed, rule = a.count, a
    leaders: list[Datasheet] = []
    supports: list[Datasheet] = []
    supporting = [False] * len(chars)
    for i, ch in enumerate(chars):
        leads = any(norm_name(x) == ds.key for x in ch.leader_of)
        helps = any(norm_name(x) == ds.key for x in ch.support_of)
        room = len(leaders) < allowed or _joins(ch, leaders, ds) is None
        if leads and (not (support and helps) or room):
            leaders.append(ch)
        elif helps and support:
            supports.append(ch)
            supporting[i] = True
        elif helps:
            raise SelectionError(
                f"{ch.name} cannot lead {ds.name}: it is a Support character for it, which "
                "only edition 11 has (add --edition 11)"
            )
        else:
            can = ", ".join(ch.leader_of) or "no unit"
            more = f"; it can support: {', '.join(ch.support_of)}" if ch.support_of else ""
            raise SelectionError(f"{ch.name} cannot lead {ds.name} (it can lead: {can}{more})")
    if len(supports) > 1:
        raise SelectionError(
            f"{ds.name} can have one Support character attached, not {len(supports)} "
            f"({', '.join(x.name for x in supports)}; 24.34 SUPPORT)"
        )
    if len(leaders) > allowed:
        _check_alongside(ds, leaders, starting, allowed)
    elif len(leaders) > 1 and rule is not None and rule.one_with_keyword:
        kw = rule.one_with_keyword.upper()
        if not any(kw in lead.all_keywords() for lead in leaders):
            raise SelectionError(f"two Leaders on {ds.name} need one of them to be {kw}")
    return supporting


def _check_alongside(ds: Datasheet, leaders: list[Datasheet], starting: int, allowed: int) -> None:
    """More Leaders than the Bodyguard allows: each one beyond ``allowed`` must be one whose
    ``leader_alongside`` lets it join all the others.

    Raises:
        SelectionError: with each Leader's reason where one gives it.
    """
    reasons = [_joins(lead, leaders[:i] + leaders[i + 1 :], ds) for i, lead in enumerate(leaders)]
    if reasons.count(None) >= len(leaders) - allowed:
        return
    why = "; ".join(dict.fromkeys(r for r in reasons if r))
    raise SelectionError(
        f"{ds.name} with a Starting Strength of {starting} can have {allowed} Leader"
        f"{'s' if allowed > 1 else ''} attached, not {len(leaders)}" + (f" ({why})" if why else "")
    )


def _joins(lead: Datasheet, others: list[Datasheet], ds: Datasheet) -> str | None:
    """None when ``lead`` may be attached to ``ds`` although ``others`` are (its datasheet's
    ``leader_alongside``: each of them has one of those keywords, and ``ds`` one of the
    ``leader_alongside_bodyguard`` keywords if any); else why not, in a few words."""
    if not lead.leader_alongside:
        return None if not others else f"{lead.name} has no rule to join another Leader"
    wanted = " or ".join(lead.leader_alongside)
    if lead.leader_alongside_bodyguard and not set(lead.leader_alongside_bodyguard) & _keywords(ds):
        where = " or ".join(lead.leader_alongside_bodyguard)
        return f"{lead.name} may join another Leader only in a {where} unit"
    for other in others:
        same = other.key == lead.key and norm_name(other.faction) == norm_name(lead.faction)
        if same and lead.key not in {norm_name(k) for k in lead.leader_alongside}:
            return f"{lead.name} cannot join another {lead.name}"
        if not set(lead.leader_alongside) & _keywords(other):
            return f"{lead.name} may join only a Leader with keyword {wanted}, not {other.name}"
    return None


def _keywords(ds: Datasheet) -> frozenset[str]:
    """Every keyword of a datasheet: the unit's, its faction's and its models' own."""
    out = ds.all_keywords()
    for m in ds.models:
        out |= m.keywords
    return out

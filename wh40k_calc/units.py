"""A unit on the table: how many models of each kind, what each carries, Leaders attached.

Turns a :class:`~wh40k_calc.selection.UnitChoice` into a :class:`Unit` (sizes and loadouts as
DATASHEET_FORMAT.md defines them), refusing impossible choices with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .catalog import did_you_mean
from .datasheet import Datasheet, ModelProfile, UnitSize, Weapon, norm_name
from .selection import SelectionError, UnitChoice
from .wording import count


@dataclass(frozen=True)
class ModelGroup:
    """``count`` identical models of ``profile`` carrying ``weapons``, from ``datasheet``.
    ``character`` marks a Leader's CHARACTER models in an Attached unit."""

    profile: ModelProfile
    count: int
    weapons: tuple[Weapon, ...]
    datasheet: Datasheet
    character: bool = False

    @property
    def label(self) -> str:
        """Model name, with the unit's name for a Leader."""
        return self.profile.name


@dataclass(frozen=True)
class Unit:
    """A unit (Attached or not): ``groups`` in allocation order, Bodyguard models first.

    ``starting_strength`` is the Bodyguard unit's; ``points`` includes Leaders (pro rata for a
    damaged unit).
    """

    name: str
    groups: tuple[ModelGroup, ...]
    points: float
    starting_strength: int
    datasheets: tuple[Datasheet, ...]
    size: int | None = None

    @property
    def models(self) -> int:
        """Models in the unit (with ``--weapon``, all of them, not only the weapons' bearers)."""
        return self.size if self.size is not None else sum(g.count for g in self.groups)

    @property
    def keywords(self) -> frozenset[str]:
        """Keywords of every datasheet in the unit (an Attached unit is one unit for rules)."""
        out: frozenset[str] = frozenset()
        for ds in self.datasheets:
            out |= ds.all_keywords()
        for g in self.groups:
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


def pick_size(ds: Datasheet, models: int | None, role: str) -> tuple[UnitSize, dict[str, int]]:
    """The size and per-model counts for ``models`` models.

    The attacker takes a listed size; a target may also take any smaller N (a damaged unit: the
    smallest listed size with at least N models, rank-and-file removed first).

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
    if role == "attacker":
        raise SelectionError(
            f"{ds.name} cannot have {count(models, 'model')}: its sizes are {legal}"
        )
    if models < 1 or models > totals[-1]:
        raise SelectionError(
            f"{ds.name} cannot have {count(models, 'model')}: from 1 to {totals[-1]} "
            f"(sizes {legal}; fewer models means a damaged unit)"
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


def build_unit(choice: UnitChoice, role: str) -> Unit:
    """The unit a :class:`UnitChoice` describes.

    Args:
        choice: datasheet, size, loadout, explicit weapons and Leaders.
        role: "attacker" or "target" (a target may be a damaged unit).

    Raises:
        SelectionError: unknown loadout or weapon, impossible size or count, a Leader that
            cannot lead this unit, too many Leaders.
    """
    if choice.weapons and choice.loadout and norm_name(choice.loadout) != "default":
        raise SelectionError(
            "--weapon lists exactly which weapons attack: it cannot be combined with --loadout"
        )
    ds = choice.datasheet
    size, counts = pick_size(ds, choice.models, role)
    n_models = sum(counts.values())
    groups = _equip(ds, counts, choice.loadout, size.total)
    if choice.weapons:
        groups = _explicit_weapons(ds, groups, choice.weapons, n_models)
    points = size.points * n_models / size.total
    out_groups = list(groups)
    total = n_models
    _check_leaders(ds, choice.leaders, size.total)
    for leader in choice.leaders:
        lsize, lcounts = pick_size(leader, None, "attacker")
        total += lsize.total
        for g in _equip(leader, lcounts, None, lsize.total):
            is_char = "CHARACTER" in (leader.all_keywords() | g.profile.keywords)
            out_groups.append(ModelGroup(g.profile, g.count, g.weapons, leader, is_char))
        points += lsize.points
    name = (
        ds.name
        if not choice.leaders
        else (f"{ds.name} led by {' and '.join(lead.name for lead in choice.leaders)}")
    )
    return Unit(name, tuple(out_groups), points, size.total, (ds, *choice.leaders), total)


def _equip(
    ds: Datasheet, counts: dict[str, int], loadout: str | None, starting_strength: int
) -> list[ModelGroup]:
    entries = ()
    loadout = find_loadout(ds, loadout)
    if loadout is not None:
        entries = ds.loadouts[loadout]
    groups: list[ModelGroup] = []
    for m in ds.models:
        present = sum(n for name, n in counts.items() if norm_name(name) == m.key)
        if not present:
            continue
        left = present
        for e in entries:
            if norm_name(e.model) != m.key:
                continue
            if e.min_unit_size and starting_strength < e.min_unit_size:
                raise SelectionError(
                    f"loadout {loadout!r} of {ds.name} ({e.count or 'all'} {m.name}: "
                    f"{', '.join(w.name for w in _weapons(ds, e.equipped))}) needs a unit of at "
                    f"least {e.min_unit_size} models (this one has {starting_strength})"
                )
            take = left if e.count is None else e.count
            if take > left:
                raise SelectionError(
                    f"loadout {loadout!r} equips {e.count} {m.name} "
                    f"{'model' if e.count == 1 else 'models'} with "
                    f"{', '.join(w.name for w in _weapons(ds, e.equipped))} but this unit has "
                    f"only {left} {m.name} model{'s' if left != 1 else ''} left to equip"
                )
            if take:
                groups.append(ModelGroup(m, take, _weapons(ds, e.equipped), ds))
            left -= take
        if left:
            groups.insert(
                len(groups) - sum(1 for g in groups if g.profile is m),
                ModelGroup(m, left, _weapons(ds, m.equipped), ds),
            )
    return groups


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
        SelectionError: empty name or a count below 1.
    """
    m = _WEAPON_SPEC.match(text)
    if not m or not m.group(1):
        raise SelectionError(f"--weapon {text!r}: expected 'NAME xN', e.g. 'Deffgun x4'")
    n = int(m.group(2)) if m.group(2) else 1
    if n < 1:
        raise SelectionError(f"--weapon {text!r}: the count must be at least 1")
    return m.group(1), n


def _explicit_weapons(
    ds: Datasheet, groups: list[ModelGroup], specs: tuple[tuple[str, int], ...], n_models: int
) -> list[ModelGroup]:
    out: list[ModelGroup] = []
    totals: dict[str, int] = {}
    for name, n in specs:
        w = ds.weapon(name)
        if w is None:
            raise SelectionError(
                f"{ds.name} has no weapon {name!r}"
                + did_you_mean(name, [x.name for x in ds.weapons])
                + f" (weapons: {', '.join(x.name for x in ds.weapons)})"
            )
        totals[w.key] = totals.get(w.key, 0) + n
        if totals[w.key] > n_models:
            raise SelectionError(
                f"--weapon {w.name} x{totals[w.key]}: the unit has only {n_models} "
                f"model{'s' if n_models != 1 else ''}"
            )
        bearer = _bearer(ds, w)
        out.append(ModelGroup(bearer, n, (w,), ds))
    return out


def _bearer(ds: Datasheet, w: Weapon) -> ModelProfile:
    for m in ds.models:
        if w.key in m.equipped:
            return m
    for entries in ds.loadouts.values():
        for e in entries:
            if w.key in e.equipped:
                found = ds.model(e.model)
                if found is not None:
                    return found
    return ds.models[0]


def _check_leaders(ds: Datasheet, leaders: tuple[Datasheet, ...], starting: int) -> None:
    if not leaders:
        return
    for lead in leaders:
        if not any(norm_name(x) == ds.key for x in lead.leader_of):
            can = ", ".join(lead.leader_of) or "no unit"
            raise SelectionError(f"{lead.name} cannot lead {ds.name} (it can lead: {can})")
    allowed = 1
    rule = None
    for a in ds.leaders_allowed:
        if starting >= a.starting_strength and a.count > allowed:
            allowed, rule = a.count, a
    if len(leaders) > allowed:
        raise SelectionError(
            f"{ds.name} with a Starting Strength of {starting} can have {allowed} Leader"
            f"{'s' if allowed > 1 else ''} attached, not {len(leaders)}"
        )
    if len(leaders) > 1 and rule is not None and rule.one_with_keyword:
        kw = rule.one_with_keyword.upper()
        if not any(kw in lead.all_keywords() for lead in leaders):
            raise SelectionError(f"two Leaders on {ds.name} need one of them to be {kw}")

"""Which models of a unit can carry which weapons: each model type's equipment options.

A model uses a combination of weapons only if that combination appears together in one of its
equipment options: its model type's default equipment (``equipped``, or one of its
``equipped_by_count`` lists, for as many models as that gives it), or the ``equipped`` of a
loadout entry for its model type (hand-written or generated from the datasheet's wargear
options), or one of these with a ``choices`` entry of the model taken (:mod:`.choices`), or
several loadout entries of separate wargear options taken together (:mod:`.combined`). An
option may list a weapon more than once (a Land Raider's two godhammer lascannons): a model
taking it carries that many of it (attacking, of a melee weapon one: a model fights with one
melee weapon, besides its [EXTRA ATTACKS] weapons). A loadout entry with a ``count`` lets at
most that many models of the type take it (the same list in several loadouts: the largest
count; a count ``per_models`` is that many for every ``per_models`` models of the Starting
Strength), and one with ``min_unit_size`` only units of at least that Starting Strength. A
loadout entry with ``instead_of`` (an optional model kind the unit's size leaves out, fielded
in place of models of that kind) is an option of the kind it names, whose models taking it
become models of the optional kind (``Option.model``): a Kill Team Intercessor with a plasma
incinerator in place of a Kill Team Intercessor, up to the entry's count. A weapon that no
equipment option lists (wargear the datasheet offers in a way no loadout was generated for)
may be carried by any model, with anything else (:mod:`.unchecked` says which of them a
wargear option not generated names).

A combination of separate options uses up a model of each entry it combines: of each one's
option limit, and of its ``count``, a limit that combination and the entry alone share
(:attr:`Carriers.resources`, after the limits of :func:`pool_sizes`). Options hold *weapons*:
for ``--weapon``, which names the profiles that *attack*, each option becomes the sets its
models may attack with (:func:`~wh40k_calc.attack_sets.attack_sets`), which share the option's
cap and option limit; an army list names what models *carry*
(:data:`~wh40k_calc.attack_sets.CARRYING`: every copy counted, a weapon once whatever its
profiles). The result, a :class:`Carriers` per model type, is what :mod:`.search` assigns
and :mod:`.shortfall` counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from msgspec import Struct

from ..attack_sets import ATTACKING, Counting, Weapons, attack_sets, is_big
from ..datasheet import Datasheet, LoadoutEntry, ModelProfile, norm_name
from .choices import with_choice
from .combined import combined
from .kits import Kit, keep_option


class Option(Struct, frozen=True):
    """One equipment option of a model type, reduced to the named weapons it lets a model use:
    ``weapons`` maps weapon key -> how many of it one model carries (attacking: one set of
    profiles its models may attack with); ``cap`` is how many models of the type may take the
    option (None: all of them); ``model``: the optional model kind a model taking it becomes
    (a loadout entry's ``instead_of``; None: it stays of its type); ``pools``: the limits
    whose models it uses up, by index: the datasheet's ``option_limits`` entries, then the
    optional kinds' limits (:func:`pool_sizes`), then the caps that separate options combined
    on one model share with each option alone (:attr:`Carriers.resources`); ``kit``: the
    carried option it is a set of (the options of one kit follow each other and share its
    ``cap``)."""

    weapons: tuple[tuple[str, int], ...]
    cap: int | None
    model: ModelProfile | None = None
    pools: tuple[int, ...] = ()  # the indices of the limits it counts against
    kit: int = 0

    def carries(self, key: str) -> int:
        """How many of weapon ``key`` one model taking this option carries."""
        return dict(self.weapons).get(key, 0)


class Carriers(Struct, frozen=True):
    """``count`` models of ``model`` in the unit, and their equipment options (named weapons
    only, default equipment first); ``resources``: (limit index, models) of the caps its
    combined options share with the options they combine
    (:func:`~.combined.combined`)."""

    model: ModelProfile
    count: int
    options: tuple[Option, ...]
    resources: tuple[tuple[int, int], ...] = ()


def pool_of(ds: Datasheet) -> dict[str, int]:
    """Loadout name -> the index of the datasheet's option limit that names it."""
    return {name: i for i, lim in enumerate(ds.option_limits) for name in lim.loadouts}


def pool_sizes(
    ds: Datasheet, starting_strength: int, counts: dict[str, int] | None = None
) -> tuple[int, ...]:
    """How many models each of the datasheet's option limits lets take its loadouts, in a unit
    of ``starting_strength`` models; with ``counts`` (model name -> models), then how many
    optional models may stand in for each kind that ``keeps`` a minimum (its models less that
    minimum: :func:`kept_kinds`)."""
    out = tuple(lim.models_for(starting_strength) for lim in ds.option_limits)
    if counts is None:
        return out
    present = {norm_name(name): n for name, n in counts.items()}
    return out + tuple(max(0, present.get(m.key, 0) - (m.keeps or 0)) for m in kept_kinds(ds))


def kept_kinds(ds: Datasheet) -> list[ModelProfile]:
    """The model kinds with a minimum (``keeps``) that optional kinds stand in for (a loadout
    entry's ``instead_of``), in datasheet order: their limits follow the option limits."""
    instead = {norm_name(e.instead_of) for es in ds.loadouts.values() for e in es if e.instead_of}
    return [m for m in ds.models if m.keeps and m.key in instead]


def carriers(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    counting: Counting = ATTACKING,
) -> list[Carriers]:
    """The unit's model types (those present in ``counts``, model name -> number) with their
    options restricted to the ``wanted`` keys (key -> number: profiles that attack, or with
    ``counting.attacking`` False weapons carried); attacking, each carried option becomes
    the sets of profiles its models may attack with (:func:`~wh40k_calc.attack_sets.
    attack_sets`), the same ``kit`` for all of them."""
    arms = Weapons(ds)
    weapons = {arms.weapon(k) for k in wanted} if counting.attacking else set(wanted)
    melee = arms.one_a_model() if counting.attacking else set()  # carried: every copy counts

    def named(equipped: tuple[str, ...]) -> frozenset[tuple[str, int]]:
        return named_copies(arms.copies(equipped))

    def named_copies(found: Counter[str]) -> frozenset[tuple[str, int]]:
        return frozenset(
            (k, 1 if k in melee else n) for k, n in found.items() if k in weapons and n > 0
        )

    listed: set[str] = set()
    per_model = []
    fielded = _optional_kinds(ds, counts, starting_strength, named)
    pools = pool_of(ds)
    first = len(ds.option_limits)
    kept_pool = {k.key: first + i for i, k in enumerate(kept_kinds(ds))}
    resources: list[tuple[int, int]] = []  # (index, models), after the limits of pool_sizes
    for m in ds.models:
        n = sum(c for name, c in counts.items() if norm_name(name) == m.key)
        kits = m.default_equipment(n) if n else [(0, m.equipped), *m.equipped_by_count]
        opts: dict[Kit, int | None] = {}
        for c, keys in kits:  # default equipment: disjoint models, counts add up
            keep_option(opts, (named(keys), ()), c, add=True)
        swaps: dict[Kit, int | None] = {}
        numbered: set[Kit] = set()  # the kits of entries with an option number
        taken: list[tuple[LoadoutEntry, int | None, Kit]] = []
        barred: dict[Kit, frozenset[str]] = {}  # kit -> weapons no choice may add to it
        unbarred: set[Kit] = set(opts)  # kits that some equipment gives without a bar
        for lname, entries in ds.loadouts.items():
            for e in entries:
                if norm_name(e.model) == m.key:  # listed, if only for larger units: not free
                    listed |= {k for k, _ in named(e.equipped)}
                if norm_name(e.model) == m.key and starting_strength >= (e.min_unit_size or 0):
                    cap = e.models_for(starting_strength)
                    if cap != 0:  # alternatives: the largest
                        pool = pools.get(lname)
                        kit: Kit = (named(e.equipped), () if pool is None else (pool,))
                        keep_option(swaps, kit, cap)
                        taken.append((e, cap, kit))
                        bar = frozenset(arms.weapon(k) for k in e.excludes)
                        if bar:
                            barred[kit] = barred.get(kit, bar) & bar
                        else:
                            unbarred.add(kit)
                        if e.option is not None:
                            numbered.add(kit)
        singles = _without_covered(swaps, numbered)
        combos = combined(m, taken, singles, arms, weapons) if n else []
        mine = len(resources)
        shared: dict[Kit, int] = {}  # a capped option that combined options use: its limit
        for combo in combos:
            for kit in combo.parts:
                cap = singles[kit]
                if cap is not None and cap < n and kit not in shared:
                    shared[kit] = first + len(kept_pool) + len(resources)
                    resources.append((shared[kit], cap))
        for (ws, limits), cap in singles.items():
            mine_too = (shared[(ws, limits)],) if (ws, limits) in shared else ()
            keep_option(opts, (ws, limits + mine_too), cap, add=True)
        for combo in combos:
            uses = {p for kit in combo.parts for p in kit[1]}
            uses |= {shared[kit] for kit in combo.parts if kit in shared}
            keep_option(opts, (named_copies(combo.carried), tuple(sorted(uses))), combo.cap)
        listed |= {k for ws, _ in opts for k, _ in ws}
        listed |= {k for (_, ws), _ in fielded.get(m.key, {}).items() for k, _ in ws}
        barred = {kit: bar for kit, bar in barred.items() if kit not in unbarred}
        for choice in m.choices:
            listed |= {arms.weapon(k) for k in choice.weapons} & weapons
            opts = with_choice(opts, choice, weapons, melee, arms, barred)
        if n:
            per_model.append((m, n, opts, tuple(resources[mine:])))
    free = frozenset((k, 1) for k in weapons if k not in listed)  # any model may carry them
    out = []
    for m, n, opts, own in per_model:
        kits_of: list[
            tuple[frozenset[tuple[str, int]], int | None, ModelProfile | None, tuple[int, ...]]
        ]
        kits_of = []  # (weapons carried, cap, optional kind, limits) of each kit
        merged: dict[Kit, int | None] = {}
        for (ws, limits), cap in opts.items():
            if ws | free:
                keep_option(merged, (ws | free, limits), cap, add=True)
        kits_of += [(ws, cap, None, limits) for (ws, limits), cap in merged.items()]
        kept = kept_pool.get(m.key)
        for (kind, ws), cap in fielded.get(m.key, {}).items():
            if ws | free:
                kits_of.append((ws | free, cap, kind, () if kept is None else (kept,)))
        options = []
        for i, (ws, cap, becomes, limits) in enumerate(kits_of):
            if not counting.attacking:
                options.append(Option(tuple(sorted(ws)), cap, becomes, limits, i))
                continue
            big = is_big(ds, becomes or m)
            for s in attack_sets(arms, sorted(ws), set(wanted), big, counting):
                options.append(Option(tuple(sorted(s)), cap, becomes, limits, i))
        out.append(Carriers(m, n, tuple(options), own))
    return out


def _without_covered(
    swaps: dict[Kit, int | None],
    numbered: set[Kit] = frozenset(),  # type: ignore[assignment]
) -> dict[Kit, int | None]:
    """``swaps`` without the entries outside every option limit whose equipment entries inside
    limits also give, as many models in all (a loadout made by adding up separate options,
    ``meltagun-x2``: the options' own entries, each within its option's limit, say how many
    models may take it). An entry of ``numbered`` (with an option number: an option of its
    own, not a sum of others) is kept."""
    pooled: dict[frozenset[tuple[str, int]], int] = {}
    for (ws, limits), cap in swaps.items():
        if limits and cap is not None:
            pooled[ws] = pooled.get(ws, 0) + cap
    return {
        (ws, limits): cap
        for (ws, limits), cap in swaps.items()
        if limits or cap is None or cap > pooled.get(ws, 0) or (ws, limits) in numbered
    }


def _optional_kinds(
    ds: Datasheet,
    counts: dict[str, int],
    starting_strength: int,
    named: Callable[[tuple[str, ...]], frozenset[tuple[str, int]]],
) -> dict[str, dict[tuple[ModelProfile, frozenset[tuple[str, int]]], int | None]]:
    """The loadout entries that field an optional model kind the unit lacks (``instead_of``),
    as options of the kind they name: that kind's key -> {(optional kind, its named weapons):
    how many models may take it (the entries' largest count)}. An optional kind the unit
    already has (an army list's own counts) is left out: its models are in ``counts``."""
    out: dict[str, dict[tuple[ModelProfile, frozenset[tuple[str, int]]], int | None]] = {}
    present = {norm_name(name) for name, c in counts.items() if c}
    for entries in ds.loadouts.values():
        for e in entries:
            kind = ds.model(e.model)
            if e.instead_of is None or kind is None or kind.key in present:
                continue
            if starting_strength < (e.min_unit_size or 0):
                continue
            cap = e.models_for(starting_strength)
            if cap:
                keep_option(
                    out.setdefault(norm_name(e.instead_of), {}), (kind, named(e.equipped)), cap
                )
    return out


def wanted_by_kits(ds: Datasheet, kits: list[tuple[int, tuple[str, ...]]]) -> dict[str, int]:
    """How many of each weapon models carrying ``kits`` (models, profile keys each, listed
    once a copy) carry, by weapon (:class:`~wh40k_calc.attack_sets.Weapons`: a multi-profile
    weapon once, not once a profile), every copy counted, melee weapons too (a model fights
    with one melee weapon, but an option says how many it *carries*: 19 chainswords on 9
    models are more than their options give them). The ``wanted`` of :func:`assign` with
    :data:`~wh40k_calc.attack_sets.CARRYING` for a unit whose equipment is given model by
    model (an army list's)."""
    arms = Weapons(ds)
    out: dict[str, int] = {}
    for models, keys in kits:
        for k, n in arms.copies(keys).items():
            out[k] = out.get(k, 0) + models * n
    return out

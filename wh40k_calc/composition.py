"""Which models of a unit can carry the weapons ``--weapon`` names (a unit's composition).

A model uses a combination of weapons only if that combination appears together in one of its
equipment options: its model type's default equipment (``equipped``, or one of its
``equipped_by_count`` lists, for as many models as that gives it), or the ``equipped`` of a
loadout entry for its model type (hand-written or generated from the datasheet's wargear
options), or one of these with a ``choices`` entry of the model taken (up to N weapons of a
list, in place of those of the list it holds: a Crisis Battlesuit's three guns). An option may
list
a weapon more than once (a Land Raider's two godhammer lascannons): a model taking it carries
that many of it (of a melee weapon one: a model fights with one melee weapon, besides its
[EXTRA ATTACKS] weapons). A loadout
entry with a ``count`` lets at most that many models of the type take it (the same list in
several loadouts: the largest count; a count ``per_models`` is that many for every
``per_models`` models of the Starting Strength), and one with ``min_unit_size`` only units of
at least that Starting Strength. A loadout entry with ``instead_of`` (an optional model kind
the unit's size leaves out, fielded in place of models of that kind) is an option of the kind
it names, whose models taking it become models of the optional kind (``Option.model``): a
Kill Team Intercessor with a plasma incinerator in place of a Kill Team Intercessor, up to the
entry's count. A weapon that no equipment option lists (wargear the datasheet
offers in a way no loadout was generated for, e.g. "can be equipped with 1 hunter-killer
missile") may be carried by any model, with anything else.

A model may also take loadout entries of its type from *separate* wargear options together
(entries with different ``option`` numbers, :func:`~wh40k_calc.combined_options.combined`):
a Redemptor Dreadnought's onslaught gatling cannon and twin storm bolter. Each combination is
an option of its own
(what the default carries less what each entry takes away, plus what each adds), and uses up
a model of each entry it combines: of each one's option limit, and of its ``count``, a limit
that combination and the entry alone share (:attr:`Carriers.resources`, after the limits of
:func:`pool_sizes`).

Options hold *weapons*: a weapon with several profiles is one weapon however its profiles are
listed (:class:`~wh40k_calc.attack_sets.Weapons`). For ``--weapon``, which names the profiles
that *attack*, each option then becomes the sets its models may attack with
(:func:`~wh40k_calc.attack_sets.attack_sets`: one profile of each weapon, Pistols or the other
ranged weapons unless MONSTER/VEHICLE, one melee weapon besides [EXTRA ATTACKS] ones), which
share the option's cap and option limit: k sets of one option never take more models than it
allows. An army list names the weapons its models *carry* (:data:`~wh40k_calc.attack_sets.
CARRYING`): there a weapon is counted once, not once a profile, every copy of it (melee
weapons too: a model fights with one, but carries what its options give it), and the
activation then picks what attacks as for any unit (``rules.weapons``). A loadout entry's
``excludes`` keeps weapons off its models: no choice or option combined gives them one.

``--weapon "Deffgun x8" --weapon "Big shoota x2" --weapon "Rokkit launcha x2"`` asks a 10-model
Lootas unit for 12 weapons of which its two Spanners would carry four: no assignment exists.
:func:`assign` finds an assignment by a small search over model types and their options (how
many models take each, up to its cap), or :func:`explain` says why there is none: a set of the
named weapons that needs more than the unit's models can carry of them at once, or the rule of
the attack sequence that forbids one model using them together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from functools import cache
from itertools import combinations, combinations_with_replacement

from msgspec import Struct

from .attack_sets import ATTACKING, CARRYING, RULES, UNRULED, Counting, Weapons, attack_sets, is_big
from .combined_options import Kit, combined
from .datasheet import Datasheet, LoadoutEntry, ModelProfile, Weapon, WeaponChoice, norm_name

MAX_SUBSETS_OF = 10  # up to this many named weapons, explanations try every set of them


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
    (:func:`~wh40k_calc.combined_options.combined`)."""

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
    minimum: :func:`_kept_kinds`)."""
    out = tuple(lim.models_for(starting_strength) for lim in ds.option_limits)
    if counts is None:
        return out
    present = {norm_name(name): n for name, n in counts.items()}
    return out + tuple(max(0, present.get(m.key, 0) - (m.keeps or 0)) for m in _kept_kinds(ds))


def _kept_kinds(ds: Datasheet) -> list[ModelProfile]:
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
    kept_pool = {k.key: first + i for i, k in enumerate(_kept_kinds(ds))}
    resources: list[tuple[int, int]] = []  # (index, models), after the limits of pool_sizes
    for m in ds.models:
        n = sum(c for name, c in counts.items() if norm_name(name) == m.key)
        kits = m.default_equipment(n) if n else [(0, m.equipped), *m.equipped_by_count]
        opts: dict[Kit, int | None] = {}
        for c, keys in kits:  # default equipment: disjoint models, counts add up
            _keep(opts, (named(keys), ()), c, add=True)
        swaps: dict[Kit, int | None] = {}
        numbered: set[Kit] = set()  # the kits of entries with an option number
        taken: list[tuple[LoadoutEntry, int | None, Kit]] = []
        barred: dict[Kit, frozenset[str]] = {}  # kit -> weapons no choice may add to it
        unbarred: set[Kit] = set(opts)  # kits that some equipment gives without a bar
        for lname, entries in ds.loadouts.items():
            for e in entries:
                if norm_name(e.model) == m.key and starting_strength >= (e.min_unit_size or 0):
                    cap = e.models_for(starting_strength)
                    if cap != 0:  # alternatives: the largest
                        pool = pools.get(lname)
                        kit: Kit = (named(e.equipped), () if pool is None else (pool,))
                        _keep(swaps, kit, cap)
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
            _keep(opts, (ws, limits + mine_too), cap, add=True)
        for combo in combos:
            uses = {p for kit in combo.parts for p in kit[1]}
            uses |= {shared[kit] for kit in combo.parts if kit in shared}
            _keep(opts, (named_copies(combo.carried), tuple(sorted(uses))), combo.cap)
        listed |= {k for ws, _ in opts for k, _ in ws}
        listed |= {k for (_, ws), _ in fielded.get(m.key, {}).items() for k, _ in ws}
        barred = {kit: bar for kit, bar in barred.items() if kit not in unbarred}
        for choice in m.choices:
            listed |= {arms.weapon(k) for k in choice.weapons} & weapons
            opts = _chosen(opts, choice, weapons, melee, arms, barred)
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
                _keep(merged, (ws | free, limits), cap, add=True)
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
                _keep(out.setdefault(norm_name(e.instead_of), {}), (kind, named(e.equipped)), cap)
    return out


def unchecked(ds: Datasheet, keys: list[str]) -> list[tuple[Weapon, str]]:
    """The weapons of ``keys`` whose number nothing of ours limits although the datasheet's
    options do: no equipment option lists them (so any model may carry them: see the module
    docstring), but a wargear option the importer did not generate names them
    (``options_not_generated``: the Intercessors' grenade launcher before its "for every 5
    models, 1 model equipped with a bolt rifle can be equipped with ..." form was read).
    Returns (weapon, the option's reason) in ``keys`` order, each weapon once."""
    listed: set[str] = set()
    for m in ds.models:
        listed.update(m.equipped)
        for _, kit in m.equipped_by_count:
            listed.update(kit)
        for c in m.choices:
            listed.update(c.weapons)
    for entries in ds.loadouts.values():
        for e in entries:
            listed.update(e.equipped)
    out = []
    for k in dict.fromkeys(keys):
        w = ds.weapon(k)
        if w is None or k in listed:
            continue
        names = {_singular(norm_name(w.name))}
        if w.profile_of:
            names.add(_singular(norm_name(w.profile_of)))
        why = next(
            (
                o.reason
                for o in ds.options_not_generated
                if any(_singular(norm_name(item)) in names for item in o.items)
            ),
            None,
        )
        if why is not None:
            out.append((w, why))
    return out


def _singular(key: str) -> str:
    return key[:-1] if key.endswith("s") else key


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


def _chosen(
    opts: dict[Kit, int | None],
    choice: WeaponChoice,
    wanted: set[str],
    melee: set[str],
    arms: Weapons,
    barred: dict[Kit, frozenset[str]] | None = None,
) -> dict[Kit, int | None]:
    """``opts`` and, for each, the same option with a :class:`~wh40k_calc.datasheet.
    WeaponChoice` taken: the choice's weapons it holds set aside (with ``choice.adds``: kept),
    up to ``choice.up_to`` of them carried instead or besides (each named weapon as many times
    as it may be: once for those in ``choice.once`` and for melee weapons, of which a model
    fights with one, counting one it holds already), at most ``choice.count`` models of the
    type; with ``choice.sets``, the weapons of one set or of part of it (a melee weapon once).
    Weapons, not profiles: the choice's profiles of one weapon are one pick (``wanted``:
    weapon keys, :class:`~wh40k_calc.attack_sets.Weapons`). ``barred`` (kit -> weapon keys,
    updated for the options made): the weapons a loadout entry's ``excludes`` keeps off its
    models, which no choice gives them (a Boy with a big shoota takes no shoota). A choice's
    ``one_pistol`` keeps only the options with at most one Pistol and one other ranged weapon
    of those named."""
    offered = list(dict.fromkeys(arms.weapon(k) for k in choice.weapons))
    picks = [k for k in offered if k in wanted]
    out = dict(opts)
    if not picks:
        return out
    single = {arms.weapon(k) for k in choice.once} | melee
    if choice.sets:
        combos = []
        for group in choice.sets:
            have = {k: n for k, n in arms.copies(group).items() if k in wanted}
            most = {k: 1 if k in single else n for k, n in have.items()}
            combos += [c for c in _multisets(list(have), most, sum(have.values())) if c]
    else:
        most = {k: 1 if k in single else choice.up_to for k in picks}
        combos = [c for c in _multisets(picks, most, choice.up_to) if c]
    barred = {} if barred is None else barred
    for (ws, limits), cap in opts.items():
        kept = {k: n for k, n in ws if choice.adds or k not in offered}
        limit = cap if choice.count is None else min(choice.count, cap or choice.count)
        bar = barred.get((ws, limits), frozenset())
        for combo in combos:
            if any(k in single and kept.get(k, 0) + n > 1 for k, n in combo.items()):
                continue  # a second one of a weapon a model carries at most one of
            if bar & set(combo):
                continue  # a weapon the option's models may not carry besides
            both = Counter(kept) + Counter(combo)
            if choice.one_pistol and not _one_pistol(both, arms):
                continue
            made: Kit = (frozenset(both.items()), limits)
            if bar and made not in out:
                barred[made] = bar
            _keep(out, made, limit)
    return out


def _one_pistol(carried: Counter[str], arms: Weapons) -> bool:
    """Whether ``carried`` (weapon key -> copies) holds at most one Pistol and at most one
    other ranged weapon (a choice's ``one_pistol``: two ranged weapons only if one of them is
    a Pistol, and one Pistol at most)."""
    pistols = others = 0
    for k, n in carried.items():
        profiles = arms.profiles.get(k, [])
        if not profiles or all(p.is_melee for p in profiles):
            continue
        if any(p.abilities.pistol for p in profiles):
            pistols += n
        else:
            others += n
    return pistols <= 1 and others <= 1


def _multisets(keys: list[str], most: dict[str, int], total: int) -> list[dict[str, int]]:
    """Every way of taking at most ``total`` items of ``keys``, each at most ``most[key]``
    times (as key -> how many; the empty one included)."""
    if not keys:
        return [{}]
    first, rest = keys[0], keys[1:]
    out = []
    for n in range(min(most[first], total) + 1):
        for tail in _multisets(rest, most, total - n):
            out.append({first: n, **tail} if n else tail)
    return out


def _keep(opts: dict, weapons: Hashable, cap: int | None, add: bool = False) -> None:
    """Add an option; the same weapons again keep the larger cap, or with ``add`` the sum
    (None: no cap)."""
    if weapons not in opts:
        opts[weapons] = cap
        return
    old = opts[weapons]
    if old is None or cap is None:
        opts[weapons] = None
    else:
        opts[weapons] = old + cap if add else max(old, cap)


def assign(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    pools: tuple[int | None, ...] | None = None,
    counting: Counting = ATTACKING,
) -> dict[str, list[tuple[ModelProfile, int, int]]] | None:
    """Which models use the named weapons, or None when no assignment exists.

    Args:
        ds: the datasheet.
        counts: model name -> models of that name in the unit.
        wanted: key -> how many of it attack (profile keys, ``Weapon.key``), or with
            ``counting`` :data:`~wh40k_calc.attack_sets.CARRYING` how many of each weapon
            the models carry (weapon keys: :class:`~wh40k_calc.attack_sets.Weapons`).
        starting_strength: the unit's listed size (for loadout entries' ``min_unit_size`` and
            the option limits).
        pools: how many models each of the datasheet's ``option_limits`` lets take its
            loadouts (None: as the limits say for ``starting_strength``; an item None: no
            limit, for :func:`explain`).
        counting: :data:`~wh40k_calc.attack_sets.ATTACKING` (``--weapon``: each model's
            named profiles one set it may attack with, by the rules of the attack sequence
            in :mod:`~wh40k_calc.attack_sets`), or another :class:`~wh40k_calc.attack_sets.
            Counting`.

    Returns:
        key -> [(model type, models, weapons each)], whose models times weapons add up to the
        key's count in ``wanted``. Model types are filled in datasheet order, the default
        equipment before loadouts.
    """
    units = carriers(ds, counts, wanted, starting_strength, counting)
    order = tuple(wanted)
    if pools is None:
        pools = pool_sizes(ds, starting_strength, counts)
    pools = (*pools, *(size for c in units for _, size in c.resources))
    chosen = _search(tuple(units), order, tuple(wanted[k] for k in order), pools)
    if chosen is None:
        return None
    left = dict(wanted)
    out: dict[str, list[tuple[ModelProfile, int, int]]] = {k: [] for k in order}
    for ti, oi, x in chosen:
        c = units[ti]
        model = c.options[oi].model or c.model
        for k, each in c.options[oi].weapons:
            take = min(x * each, left[k])
            left[k] -= take
            full, rest = divmod(take, each)
            if full:
                out[k].append((model, full, each))
            if rest:
                out[k].append((model, 1, rest))
    return out


ModelLine = tuple[str, int, dict[str, int]]  # model type's name, models, weapon key -> copies


def lines_fit(
    ds: Datasheet,
    lines: list[ModelLine],
    starting_strength: int,
    counting: Counting = CARRYING,
) -> bool:
    """Whether a unit whose equipment is given line by line (an army list's model lines:
    (model type's name, models, weapon key -> how many the line's models carry in all)) can
    be equipped so: each line's models take equipment options of their type (the same
    options, combinations, choices and limits as :func:`assign`'s, the models of one type
    sharing each option's ``count`` and every option limit shared by the whole unit) that
    carry the line's weapons, no model's weapons counted for another line. A line of one
    model is that model's own equipment: a Sergeant listed with a plasma pistol and a
    grenade launcher needs one option (or combination) that gives him both. Lines of model
    types the datasheet lacks are left out.

    ``assign`` over the unit's totals is the special case of one line a model type."""
    counts: dict[str, int] = {}
    wanted: dict[str, int] = {}
    for name, n, weapons in lines:
        counts[name] = counts.get(name, 0) + n
        for k, copies in weapons.items():
            wanted[k] = wanted.get(k, 0) + copies
    units = {c.model.key: c for c in carriers(ds, counts, wanted, starting_strength, counting)}
    pools = [*pool_sizes(ds, starting_strength, counts)]
    pools += [size for c in units.values() for _, size in c.resources]
    capped: dict[tuple[str, int], int] = {}  # (type, kit) -> its pool: a count lines share
    mine: list[Carriers] = []
    order: list[str] = []
    needs: list[int] = []
    for i, (name, n, weapons) in enumerate(lines):
        found = units.get(norm_name(name))
        if found is None:
            continue
        c = found
        keys = {k: f"{i}\x00{k}" for k in weapons if weapons[k]}
        order += keys.values()
        needs += [weapons[k] for k in keys]
        options: list[Option] = []
        for o in c.options:
            extra: tuple[int, ...] = ()
            if o.cap is not None:
                if (c.model.key, o.kit) not in capped:
                    capped[(c.model.key, o.kit)] = len(pools)
                    pools.append(o.cap)
                extra = (capped[(c.model.key, o.kit)],)
            ws = tuple((keys[k], x) for k, x in o.weapons if k in keys)
            options.append(Option(ws, None, o.model, o.pools + extra, len(options)))
        mine.append(Carriers(c.model, n, tuple(options)))
    return _search(tuple(mine), tuple(order), tuple(needs), tuple(pools)) is not None


def _search(
    units: tuple[Carriers, ...],
    order: tuple[str, ...],
    needs: tuple[int, ...],
    pools: tuple[int | None, ...] = (),
) -> list[tuple[int, int, int]] | None:
    """Depth-first over model types and their options: how many models of each type take each
    option (at most its cap less what the options of the same kit took before it, the models
    left and what is left of its option limit), until every need is met. Returns the (type
    index, option index, models) taken, or None. States already seen are remembered."""

    # most[ti][oi][j]: the most of key j one model of type ti takes from its options oi on;
    # beyond[ti][j]: what all the models of the types after ti can take of it at most (a
    # bound that prunes the states that can no longer meet the needs)
    most_from = []
    for c in units:
        rows = [[0] * len(order)]
        for o in reversed(c.options):
            rows.append([max(a, o.carries(k)) for a, k in zip(rows[-1], order, strict=True)])
        most_from.append(rows[::-1])
    beyond = [[0] * len(order)]
    for ti in range(len(units) - 1, 0, -1):
        n = units[ti].count
        beyond.append([a + n * b for a, b in zip(beyond[-1], most_from[ti][0], strict=True)])
    beyond = beyond[::-1]

    @cache
    def go(
        ti: int,
        oi: int,
        left: int,
        used: int,
        needs: tuple[int, ...],
        free: tuple[int | None, ...],
    ) -> tuple | None:
        if not any(needs):
            return ()
        if ti == len(units):
            return None
        best, rest_of = most_from[ti][oi], beyond[ti]
        if any(n > left * b + r for n, b, r in zip(needs, best, rest_of, strict=True)):
            return None
        c = units[ti]
        if oi == len(c.options) or not left:
            nxt = units[ti + 1].count if ti + 1 < len(units) else 0
            return go(ti + 1, 0, nxt, 0, needs, free)
        opt = c.options[oi]
        each = [opt.carries(k) for k in order]
        useful = max((-(-n // e) for n, e in zip(needs, each, strict=True) if e), default=0)
        most = min(left, useful, left if opt.cap is None else opt.cap - used)
        rooms = [r for p in opt.pools if (r := free[p]) is not None]
        room = min(rooms) if rooms else None
        if room is not None:
            most = min(most, room)
        same_kit = oi + 1 < len(c.options) and c.options[oi + 1].kit == opt.kit
        for x in range(max(most, 0), -1, -1):
            after = tuple(max(0, n - x * e) for n, e in zip(needs, each, strict=True))
            rest_free = free
            if room is not None and x:
                rest_free = tuple(
                    f - x if i in opt.pools and f is not None else f for i, f in enumerate(free)
                )
            rest = go(ti, oi + 1, left - x, used + x if same_kit else 0, after, rest_free)
            if rest is not None:
                return ((ti, oi, x), *rest) if x else rest
        return None

    if not units:
        return None if any(needs) else []
    found = go(0, 0, units[0].count, 0, needs, tuple(pools))
    return None if found is None else list(found)


def explain(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    subject: str = "the unit",
    counting: Counting = ATTACKING,
) -> str:
    """Why no assignment exists (``wanted`` as :func:`assign` takes it), in words, starting
    with ``subject``: a set of the named weapons that needs more than the unit's models can
    carry of them at once (the largest shortfall; of those, the fewest weapons), e.g. "the
    unit can carry only 2 of Big shoota and Rokkit launcha at once (Spanner ×2); Big shoota x2
    and Rokkit launcha x2 need 4"; or a wargear option that several loadouts offer and whose
    limit of models in all the weapons exceed, named by its loadouts (:func:`limit_exceeded`);
    or, where the models could carry them all but not attack with them together, the rule of
    the attack sequence that forbids it (:func:`_attack_rule`)."""
    if counting.attacking and counting != UNRULED:
        if carried_fits(ds, counts, wanted, starting_strength):
            return _attack_rule(ds, counts, wanted, starting_strength, subject, counting)
        counting = UNRULED  # carrying them fails already: say why in those terms
    over = limit_exceeded(ds, counts, wanted, starting_strength, subject, counting)
    if over is not None:
        return over
    units = carriers(ds, counts, wanted, starting_strength, counting)
    named = _named(ds, wanted, counting)
    found = _shortfall(units, wanted)
    if found is None:
        return (
            f"no assignment of the models of {subject} carries {_and(list(named.values()))} "
            f"(each model uses only weapons that one of its equipment options lists together; "
            f"`calc show {ds.name}` lists them)"
        )
    has, subset, who = found
    apart = (
        _apart(ds, subset, counting)
        or _pistol_footnote(ds, subset, counting)
        or _excluded(ds, subset, counting)
    )
    options = _from_options(ds, subset, counting)
    apart = apart or _loadouts_apart(ds, subset, counting)
    if options and apart:  # one parenthesis: "(wargear option: ...; loadout x is for ...)"
        options, apart = options[:-1], "; " + apart[2:]
    return _short_text(ds, subject, "carry", has, subset, who, wanted, counting) + options + apart


def _loadouts_apart(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
    """Why one model cannot carry two weapons of ``keys`` together where each comes to its
    model type only from loadouts (not as equipped, nor from a choice) and no loadout gives
    both, as the end of a refusal (" (Boss Nob: Kustom shoota comes only with loadout
    big-choppa-kustom-shoota, Power klaw only with power-klaw; no loadout gives both)"); ""
    where no two do."""
    arms = Weapons(ds)
    weapons = list(dict.fromkeys(arms.weapon(k) if counting.attacking else k for k in keys))
    for m in ds.models:
        own = set(arms.copies(m.equipped)) | {arms.weapon(k) for c in m.choices for k in c.weapons}
        sources = {
            w: [
                name
                for name, entries in ds.loadouts.items()
                if any(e.model == m.name and w in arms.copies(e.equipped) for e in entries)
            ]
            for w in weapons
            if w not in own
        }
        for a, b in combinations([w for w in weapons if sources.get(w)], 2):
            if set(sources[a]) & set(sources[b]):
                continue
            name_a, name_b = (arms.name.get(w, w) for w in (a, b))
            only_a = f"loadout{'s' if len(sources[a]) > 1 else ''} {_and(sources[a])}"
            return (
                f" ({m.name}: {name_a} comes only with {only_a}, {name_b} only with "
                f"{_and(sources[b])}; no loadout gives both)"
            )
    return ""


def _excluded(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
    """Why one model cannot carry two weapons of ``keys`` together where a loadout giving one
    is only for models "not equipped with" the other (its entries' ``excludes``), as the end
    of a refusal (" (loadout big-shoota-close-combat-weapon is for a Boy not equipped with
    Shoota: no model taking it carries one)"); "" where no such loadout gives one of them."""
    arms = Weapons(ds)
    weapons = list(dict.fromkeys(arms.weapon(k) if counting.attacking else k for k in keys))
    found: dict[tuple[str, tuple[str, ...]], list[str]] = {}  # (model, barred) -> loadouts
    for lname, entries in ds.loadouts.items():
        for e in entries:
            m = ds.model(e.model)
            if m is None or not e.excludes:
                continue
            gives = set(arms.copies(e.equipped)) - set(arms.copies(m.equipped))
            barred = {arms.weapon(k) for k in e.excludes}
            if gives & set(weapons) and (bar := tuple(w for w in weapons if w in barred)):
                found.setdefault((m.name, bar), []).append(lname)
    for (model, bar), names in found.items():
        what = _and([arms.name.get(w, w) for w in bar])
        loadouts = f"loadout{'s' if len(names) > 1 else ''} {_and(names)}"
        verb = "are" if len(names) > 1 else "is"
        return (
            f" ({loadouts} {verb} for a {model} not equipped with {what}: no model taking "
            f"{'them' if len(names) > 1 else 'it'} carries one)"
        )
    return ""


def _pistol_footnote(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
    """Why one model cannot take the weapons of ``keys`` together from a choice with
    ``one_pistol`` (a Sergeant's footnote: at most one Pistol and one other ranged weapon),
    as the end of a refusal (" (Tactical Sergeant: at most one Pistol and one other ranged
    weapon, and Combi-weapon and Storm bolter are both other ranged weapons)"); "" where no
    such choice offers two of them that break it."""
    arms = Weapons(ds)
    weapons = list(dict.fromkeys(arms.weapon(k) if counting.attacking else k for k in keys))
    for m in ds.models:
        for choice in m.choices:
            offered = {arms.weapon(k) for k in choice.weapons}
            mine = [w for w in weapons if w in offered]
            if not choice.one_pistol or len(mine) < 2 or _one_pistol(Counter(mine), arms):
                continue
            pistols = [w for w in mine if any(p.abilities.pistol for p in arms.profiles.get(w, []))]
            others = [
                w
                for w in mine
                if w not in pistols and not all(p.is_melee for p in arms.profiles.get(w, []))
            ]
            both = pistols if len(pistols) > 1 else others
            kind = "Pistols" if len(pistols) > 1 else "other ranged weapons"
            names = _and([arms.name.get(w, w) for w in both])
            return (
                f" ({m.name}: at most one Pistol and one other ranged weapon, and {names} "
                f"are both {kind})"
            )
    return ""


def _apart(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
    """Why one model cannot take the numbered options (loadout entries' ``option``) that give
    the weapons of ``keys`` together, as the end of a refusal: two weapons only items of one
    option give (" (hand-flamer and plasma-pistol are items of one wargear option: a model
    takes one)"), or a default weapon every option giving another takes away (" (loadout
    onslaught-gatling-cannon takes away the Heavy flamer)"); "" where neither is the case."""
    arms = Weapons(ds)
    found: dict[str, list[tuple[str, int, set[str]]]] = {}  # key -> (loadout, option, gone)
    for lname, entries in ds.loadouts.items():
        for e in entries:
            m = ds.model(e.model)
            if e.option is None or m is None:
                continue
            before = arms.copies(e.replaces if e.replaces is not None else m.equipped)
            after = arms.copies(e.equipped)
            for k in keys:
                if (arms.weapon(k) if counting.attacking else k) in after - before:
                    found.setdefault(k, []).append((lname, e.option, set(before - after)))
    if not found:
        return ""
    for a, b in combinations([k for k in keys if k in found], 2):
        options = {o for _, o, _ in found[a] + found[b]}
        if len(options) == 1:
            names = _and(list(dict.fromkeys(n for n, _, _ in found[a] + found[b])))
            return f" ({names} are items of one wargear option: a model takes one)"
    for k in keys:
        gone = arms.weapon(k) if counting.attacking else k
        for other in keys:
            if other != k and other in found and all(gone in g for _, _, g in found[other]):
                names = _and(list(dict.fromkeys(n for n, _, _ in found[other])))
                what = f"away the {_name(ds, k, counting)}"
                if len(found[other]) == 1:
                    return f" (loadout {names} takes {what})"
                return f" (loadouts {names} take {what})"
    return ""


def carried_fits(
    ds: Datasheet, counts: dict[str, int], wanted: dict[str, int], starting_strength: int
) -> bool:
    """Whether the unit's models could *carry* the named profiles (``wanted`` as
    :func:`assign` takes it), leaving out the rules of which weapons attack together: where
    :func:`assign` refuses them but this accepts, an attack-sequence rule is the reason."""
    return assign(ds, counts, wanted, starting_strength, counting=UNRULED) is not None


def _named(ds: Datasheet, wanted: dict[str, int], counting: Counting) -> dict[str, str]:
    """Key -> "Name xN" for the keys of ``wanted`` (a weapon's name for weapon keys)."""
    return {k: f"{_name(ds, k, counting)} x{n}" for k, n in wanted.items()}


def _name(ds: Datasheet, key: str, counting: Counting) -> str:
    """The printed name of profile ``key`` (attacking) or of weapon ``key`` (carrying)."""
    if not counting.attacking:
        return Weapons(ds).name.get(key, key)
    w = ds.weapon(key)
    return w.name if w is not None else key


def _shortfall(
    units: list[Carriers], wanted: dict[str, int]
) -> tuple[int, tuple[str, ...], list[str]] | None:
    """The set of ``wanted``'s keys (every set up to :data:`MAX_SUBSETS_OF` keys, else those
    of up to 3) whose number most exceeds what the models can use of them at once
    (:func:`_capacity`; of equal shortfalls, the fewest keys): (how many they can use, the
    keys, which models); None when no set does."""
    keys = list(wanted)
    best: tuple[int, tuple[str, ...], list[str], int] | None = None
    largest = len(keys) if len(keys) <= MAX_SUBSETS_OF else 3
    for size in range(1, largest + 1):
        for subset in combinations(keys, size):
            total = sum(wanted[k] for k in subset)
            has, who = _capacity(units, set(subset))
            if total > has and (best is None or total - has > best[0]):
                best = (total - has, subset, who, has)
    return None if best is None else (best[3], best[1], best[2])


def _short_text(
    ds: Datasheet,
    subject: str,
    verb: str,
    has: int,
    subset: tuple[str, ...],
    who: list[str],
    wanted: dict[str, int],
    counting: Counting,
) -> str:
    """ "{subject} can {verb} only {has} of A and B at once (models); A xN and B xM need T"."""
    total = sum(wanted[k] for k in subset)
    named = _named(ds, wanted, counting)
    what = _and([_name(ds, k, counting) for k in subset])
    at_once = " at once" if len(subset) > 1 else ""
    need = "needs" if len(subset) == 1 else "need"
    return (
        f"{subject} can {verb} only {has} of {what}{at_once} "
        f"({', '.join(who) or 'no model can'}); {_and([named[k] for k in subset])} {need} {total}"
    )


RULE_TEXT = {
    "one_profile": "a model attacks with one profile of each weapon it carries",
    "pistols_or_others": (
        "a model shoots its Pistols or its other ranged weapons, not both (not a MONSTER or "
        "VEHICLE)"
    ),
    "one_melee": "a model fights with one melee weapon, besides its [EXTRA ATTACKS] weapons",
}
RULE_VERB = {"one_profile": "attack with", "pistols_or_others": "shoot", "one_melee": "fight with"}


def _attack_rule(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    subject: str,
    counting: Counting,
) -> str:
    """Why models that can carry the named profiles (``wanted``, profile keys) cannot attack
    with them: the rule of :mod:`~wh40k_calc.attack_sets` without which they could (tried in
    turn: one profile a weapon, Pistols or the others, one melee weapon), e.g. "a model shoots
    its Pistols or its other ranged weapons, not both (not a MONSTER or VEHICLE): this unit of
    10 models can shoot only 10 of Bolt pistol and Boltgun at once (Tactical Marine ×9,
    Tactical Sergeant ×1); Bolt pistol x10 and Boltgun x10 need 20". For one profile a
    weapon, the weapon's profiles counted as that weapon against how many of it the models
    carry: "Plasma gun – standard x2 and Plasma gun – supercharge x2 are Plasma gun x4; this
    unit of 10 models can carry only 2 of Plasma gun (Tactical Marine ×2)"."""
    rule = next(
        (
            r
            for r in RULES
            if getattr(counting, r)
            and assign(ds, counts, wanted, starting_strength, counting=counting.without(r))
            is not None
        ),
        None,
    )
    if rule == "one_profile":
        why = _profiles_short(ds, counts, wanted, starting_strength, subject)
        if why is not None:
            return f"{RULE_TEXT[rule]}: {why}"
    if rule is None:
        head = "; ".join(RULE_TEXT[r] for r in RULES if getattr(counting, r))
        verb = "attack with"
    else:
        head, verb = RULE_TEXT[rule], RULE_VERB[rule]
    units = carriers(ds, counts, wanted, starting_strength, counting)
    found = _shortfall(units, wanted)
    if found is None:
        named = _named(ds, wanted, counting)
        return (
            f"{head}: no assignment of the models of {subject} lets them {verb} "
            f"{_and(list(named.values()))} together"
        )
    has, subset, who = found
    return f"{head}: " + _short_text(ds, subject, verb, has, subset, who, wanted, counting)


def _profiles_short(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    subject: str,
) -> str | None:
    """The first weapon of several profiles named more times in all than the models can carry
    of it (each model using one profile of each copy it carries), in words; None if none."""
    arms = Weapons(ds)
    per: dict[str, list[str]] = {}
    for k in wanted:
        per.setdefault(arms.weapon(k), []).append(k)
    for weapon, keys in per.items():
        if len(keys) < 2:
            continue
        total = sum(wanted[k] for k in keys)
        units = carriers(ds, counts, {weapon: total}, starting_strength, CARRYING)
        has, who = _capacity(units, {weapon})
        if has < total:
            named = _and([f"{_name(ds, k, ATTACKING)} x{wanted[k]}" for k in keys])
            return (
                f"{named} are {arms.name[weapon]} x{total}; {subject} can carry only {has} of "
                f"{arms.name[weapon]} ({', '.join(who) or 'no model can'})"
            )
    return None


def _keys_in(ds: Datasheet, keys: tuple[str, ...], counting: Counting) -> set[str]:
    """The keys of an equipment list (profile keys) as ``counting`` names them: weapon keys
    when carrying."""
    if counting.attacking:
        return set(keys)
    arms = Weapons(ds)
    return {arms.weapon(k) for k in keys}


def _from_options(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
    """The wargear options (``option_limits`` entries) that cap how many models carry the
    weapons of ``keys``, by those of their loadouts that give a model one of them that it
    cannot carry otherwise (as equipped or by a loadout no limit counts), as the end of a
    refusal (" (wargear option: one of the loadouts a, b and c, each for the models it
    lists)"), or "" where none does."""
    limited = {n for lim in ds.option_limits for n in lim.loadouts}
    free = {(m.name, k) for m in ds.models for k in _keys_in(ds, m.equipped, counting)}
    free |= {  # what a model may carry without a limited option: no limit caps it
        (e.model, k)
        for name, entries in ds.loadouts.items()
        if name not in limited
        for e in entries
        for k in _keys_in(ds, e.equipped, counting)
    }

    def gives(name: str) -> bool:  # a loadout giving a model one of the weapons only so
        return any(
            k in _keys_in(ds, e.equipped, counting) and (e.model, k) not in free
            for e in ds.loadouts[name]
            for k in keys
        )

    found = [names for lim in ds.option_limits if (names := [n for n in lim.loadouts if gives(n)])]
    if not found:
        return ""
    text = "; ".join(f"one of the loadouts {_and(names)}" for names in found)
    every = [n for names in found for n in names]
    sizes = _and([f"{n} for {size}" for n in every if (size := _for(ds, n))])
    if len(every) == 1:
        sizes = _for(ds, every[0])
    return f" (wargear option: {text}, each for the models it lists{': ' + sizes if sizes else ''})"


def _for(ds: Datasheet, loadout: str) -> str:
    """How many models loadout ``loadout`` lists, in words ("1 model", "2 models in units of
    10 models or more", "1 model for every 10 models"), its entries' joined; "" where an entry
    has no count (every model it is for)."""
    out = []
    for e in ds.loadouts[loadout]:
        if e.count is None:
            return ""
        text = _count(e.count, "model")
        if e.per_models is not None:
            text += f" for every {e.per_models} models"
        if e.min_unit_size:
            text += f" in units of {e.min_unit_size} models or more"
        out.append(text if len(ds.loadouts[loadout]) == 1 else f"{text} ({e.model})")
    return _and(out)


def limit_exceeded(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    subject: str = "the unit",
    counting: Counting = ATTACKING,
) -> str | None:
    """The refusal naming the wargear option (an ``option_limits`` entry, by its loadouts)
    without whose limit the unit's models could carry the ``wanted`` weapons (as :func:`assign`
    takes them), with the models it allows and the models the weapons need (the fewest for
    which they fit): "this unit of 10 models can give only 3 models one of the loadouts
    flamer, meltagun and plasma-gun (one wargear option); Flamer x2 and Meltagun x2 need it
    on 4 models". None when no single limit is the reason."""
    need = wanted
    sizes: tuple[int | None, ...] = pool_sizes(ds, starting_strength, counts)
    most = sum(counts.values())
    named = _named(ds, wanted, counting)

    def fits(pools: tuple[int | None, ...]) -> bool:
        return assign(ds, counts, need, starting_strength, pools, counting) is not None

    for i, allowed in enumerate(sizes):
        relaxed = (*sizes[:i], None, *sizes[i + 1 :])
        if not fits(relaxed):
            continue
        assert allowed is not None
        needed = next(
            (k for k in range(allowed + 1, most + 1) if fits((*sizes[:i], k, *sizes[i + 1 :]))),
            most,
        )
        if i >= len(ds.option_limits):  # optional models in place of a kind with a minimum
            kind = _kept_kinds(ds)[i - len(ds.option_limits)]
            return (
                f"{subject} can field only {_count(allowed, 'model')} of its optional kinds "
                f"in place of {kind.name} models (it keeps {kind.keeps} of them); "
                f"{_and(list(named.values()))} need {needed}"
            )
        breaking = _breaking(
            wanted, lambda ws: _fits_all(ds, counts, ws, starting_strength, counting)
        )
        together = _binding_limits(ds, counts, breaking, starting_strength, counting)
        if len(together) > 1:
            return _limits_text(
                ds, counts, breaking, starting_strength, subject, together, counting
            )
        lim = ds.option_limits[i]
        given = _given(ds, lim.loadouts, counting)
        default = {k for m in ds.models for k in _keys_in(ds, m.equipped, counting)}
        asked = [k for k in wanted if k in given and k not in default] or [
            k for k in wanted if k in given
        ]
        asked = [k for k in asked if k in breaking] or asked
        what = _and([named[k] for k in asked or list(wanted)])
        loadouts = _and(list(lim.loadouts))
        per = (
            f" ({lim.models} for every {lim.per_models} models)"
            if lim.per_models is not None
            else ""
        )
        verb = "needs" if len(asked) == 1 else "need"
        return (
            f"{subject} can give only {_count(allowed, 'model')}{per} one of the loadouts "
            f"{loadouts} (one wargear option); {what} {verb} it on {needed} models"
        )
    return None


def _given(ds: Datasheet, loadouts: list[str] | tuple[str, ...], counting: Counting) -> set[str]:
    """The keys (as ``counting`` names them) that the named loadouts' entries equip."""
    return {
        k
        for name in loadouts
        for e in ds.loadouts[name]
        for k in _keys_in(ds, e.equipped, counting)
    }


def _fits_all(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    counting: Counting,
    pools: tuple[int | None, ...] | None = None,
) -> bool:
    return assign(ds, counts, wanted, starting_strength, pools, counting) is not None


def _breaking(wanted: dict[str, int], fits: Callable[[dict[str, int]], bool]) -> dict[str, int]:
    """The fewest of ``wanted``'s keys (with their numbers) that do not fit together (``fits``
    False), the first such set in ``wanted``'s order among every set up to
    :data:`MAX_SUBSETS_OF` keys; ``wanted`` itself beyond that or where every smaller set
    fits. A Tactical Squad's Flamer, Meltagun and Lascannon: each pair fits (one from each of
    its two options of one model), the three do not."""
    keys = list(wanted)
    if len(keys) <= MAX_SUBSETS_OF:
        for size in range(1, len(keys)):
            for subset in combinations(keys, size):
                some = {k: wanted[k] for k in subset}
                if not fits(some):
                    return some
    return dict(wanted)


def _binding_limits(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    counting: Counting,
) -> list[int]:
    """The datasheet's option limits (indices) each of which, lifted alone, lets the models
    carry ``wanted`` (the weapons that break the limits: :func:`_breaking`): where there are
    several, no one of them is the reason but their models together (a Tactical Squad's two
    options of one model each, for three special and heavy weapons)."""
    sizes: tuple[int | None, ...] = pool_sizes(ds, starting_strength, counts)
    out = []
    for i in range(len(ds.option_limits)):
        relaxed = (*sizes[:i], None, *sizes[i + 1 :])
        if _fits_all(ds, counts, wanted, starting_strength, counting, relaxed):
            out.append(i)
    return out


def _limits_text(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    subject: str,
    limits: list[int],
    counting: Counting,
) -> str:
    """The refusal naming several option limits that together cap the models ``wanted`` (the
    weapons that break them) need: "this unit of 10 models can give only 2 models the
    loadouts of 2 wargear options (one of the loadouts flamer, ... (1 model); one of the
    loadouts tactical-marine-flamer, ... (1 model)); Flamer x1, Meltagun x1 and Lascannon x1
    need them on 3 models", the models counted as the fewest more, spread over these limits
    any way, with which the weapons fit."""
    sizes = pool_sizes(ds, starting_strength, counts)
    allowed = sum(sizes[i] for i in limits)
    most = sum(counts.values())
    needed = most
    for extra in range(1, most - allowed + 1):
        for spread in combinations_with_replacement(limits, extra):
            more = Counter(spread)
            grown = tuple(s + more.get(j, 0) for j, s in enumerate(sizes))
            if _fits_all(ds, counts, wanted, starting_strength, counting, grown):
                needed = allowed + extra
                break
        else:
            continue
        break
    parts = []
    for i in limits:
        lim = ds.option_limits[i]
        per = f": {lim.models} for every {lim.per_models} models" if lim.per_models else ""
        parts.append(
            f"one of the loadouts {_and(list(lim.loadouts))} ({_count(sizes[i], 'model')}{per})"
        )
    named = _named(ds, wanted, counting)
    return (
        f"{subject} can give only {_count(allowed, 'model')} the loadouts of "
        f"{len(limits)} wargear options ({'; '.join(parts)}); "
        f"{_and(list(named.values()))} {'needs' if len(named) == 1 else 'need'} them on "
        f"{needed} models"
    )


def _capacity(units: list[Carriers], subset: set[str]) -> tuple[int, list[str]]:
    """The most weapons of ``subset`` (counted together) the models can carry (or attack
    with) at once: each type's models take the options carrying most of them first, within
    the caps (of a kit's sets, the one using most of them); and which models carry them
    ("Spanner ×2"), by the kind they are when they do (an option fielding an optional kind
    names that kind: a Chapter Champion in place of a Victrix Honour Guard). A cap that
    options combined on one model share with each option alone (:attr:`Carriers.resources`)
    is used up by both."""
    total = 0
    who: dict[str, list[int]] = {}  # model kind -> [models, weapons], in order
    room = {i: size for c in units for i, size in c.resources}
    for c in units:
        best: dict[int, tuple[int, int | None, ModelProfile | None, tuple[int, ...]]] = {}
        for o in c.options:
            each = sum(n for k, n in o.weapons if k in subset)
            if o.kit not in best or each > best[o.kit][0]:
                best[o.kit] = (each, o.cap, o.model, o.pools)
        per = sorted(best.values(), key=lambda t: -t[0])
        left = c.count
        for each, cap, kind, limits in per:
            if each and left:
                x = left if cap is None else min(cap, left)
                x = min([x, *(room[p] for p in limits if p in room)])
                for p in limits:
                    if p in room:
                        room[p] -= x
                if not x:
                    continue
                left -= x
                total += x * each
                name = (kind or c.model).name
                got = who.setdefault(name, [0, 0])
                got[0], got[1] = got[0] + x, got[1] + x * each
    return total, [
        f"{name} ×{models}" + (f", {got} in all" if got != models else "")
        for name, (models, got) in who.items()
    ]


def _count(n: int, noun: str) -> str:
    from .wording import count

    return count(n, noun)


def _and(items: list[str]) -> str:
    from .wording import join_words

    return join_words(items)

"""The assignment search: which models take which equipment options to carry the named weapons.

:func:`assign` finds how many models of each type take each of their options
(:mod:`.carriers`: each at most its cap, every option limit shared by the whole unit) so that
the named weapons are all carried (or attacked with); :func:`lines_fit` does the same for a
unit given model line by model line (an army list's), each line's models on their own type.
Both run :func:`_search`, a depth-first search over model types and their options, pruned by
what the models left can take at most and remembering the states it has seen. ``--weapon
"Deffgun x8" --weapon "Big shoota x2" --weapon "Rokkit launcha x2"`` asks a 10-model Lootas
unit for 12 weapons of which its two Spanners would carry four: no assignment exists, and
:mod:`.reasons` says why.
"""

from __future__ import annotations

from functools import cache

from ..attack_sets import ATTACKING, CARRYING, UNRULED, Counting
from ..datasheet import Datasheet, ModelProfile, norm_name
from .carriers import Carriers, Option, carriers, pool_sizes


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


def carried_fits(
    ds: Datasheet, counts: dict[str, int], wanted: dict[str, int], starting_strength: int
) -> bool:
    """Whether the unit's models could *carry* the named profiles (``wanted`` as
    :func:`assign` takes it), leaving out the rules of which weapons attack together: where
    :func:`assign` refuses them but this accepts, an attack-sequence rule is the reason."""
    return assign(ds, counts, wanted, starting_strength, counting=UNRULED) is not None

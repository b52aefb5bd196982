"""The wargear options whose limits of models are the reason named weapons do not fit.

An option limit (``option_limits``: one option offered as several loadouts, at most N models
in all) or the minimum of a kind optional models stand in for caps how many models take its
loadouts. :func:`limit_exceeded` lifts each limit in turn: one without which the weapons fit
is the reason, named by its loadouts with the models it allows and the fewest the weapons
need. The weapons named are those that break it: the fewest of the named weapons that do not
fit together. Where several limits each, lifted alone, let them fit (a Tactical Squad's two
options of one model each, for a flamer, a meltagun and a lascannon), no one of them is the
reason but their models together, and the refusal names them all. :func:`options_capping`
names the options that cap a weapon in a refusal of :mod:`.shortfall`'s kind, with how many
models each of their loadouts lists (the once-per-unit, twice-in-ten footnotes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations, combinations_with_replacement

from ..attack_sets import ATTACKING, Counting
from ..datasheet import Datasheet
from .carriers import kept_kinds, pool_sizes
from .naming import and_join, count_of, counted_names, keys_in
from .search import assign
from .shortfall import MAX_SUBSETS_OF


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
    named = counted_names(ds, wanted, counting)

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
            kind = kept_kinds(ds)[i - len(ds.option_limits)]
            return (
                f"{subject} can field only {count_of(allowed, 'model')} of its optional kinds "
                f"in place of {kind.name} models (it keeps {kind.keeps} of them); "
                f"{and_join(list(named.values()))} need {needed}"
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
        default = {k for m in ds.models for k in keys_in(ds, m.equipped, counting)}
        asked = [k for k in wanted if k in given and k not in default] or [
            k for k in wanted if k in given
        ]
        asked = [k for k in asked if k in breaking] or asked
        what = and_join([named[k] for k in asked or list(wanted)])
        loadouts = and_join(list(lim.loadouts))
        per = (
            f" ({lim.models} for every {lim.per_models} models)"
            if lim.per_models is not None
            else ""
        )
        verb = "needs" if len(asked) == 1 else "need"
        return (
            f"{subject} can give only {count_of(allowed, 'model')}{per} one of the loadouts "
            f"{loadouts} (one wargear option); {what} {verb} it on {needed} models"
        )
    return None


def options_capping(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
    """The wargear options (``option_limits`` entries) that cap how many models carry the
    weapons of ``keys``, by those of their loadouts that give a model one of them that it
    cannot carry otherwise (as equipped or by a loadout no limit counts), as the end of a
    refusal (" (wargear option: one of the loadouts a, b and c, each for the models it
    lists)"), or "" where none does."""
    limited = {n for lim in ds.option_limits for n in lim.loadouts}
    free = {(m.name, k) for m in ds.models for k in keys_in(ds, m.equipped, counting)}
    free |= {  # what a model may carry without a limited option: no limit caps it
        (e.model, k)
        for name, entries in ds.loadouts.items()
        if name not in limited
        for e in entries
        for k in keys_in(ds, e.equipped, counting)
    }

    def gives(name: str) -> bool:  # a loadout giving a model one of the weapons only so
        return any(
            k in keys_in(ds, e.equipped, counting) and (e.model, k) not in free
            for e in ds.loadouts[name]
            for k in keys
        )

    found = [names for lim in ds.option_limits if (names := [n for n in lim.loadouts if gives(n)])]
    if not found:
        return ""
    text = "; ".join(f"one of the loadouts {and_join(names)}" for names in found)
    every = [n for names in found for n in names]
    sizes = and_join([f"{n} for {size}" for n in every if (size := _for(ds, n))])
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
        text = count_of(e.count, "model")
        if e.per_models is not None:
            text += f" for every {e.per_models} models"
        if e.min_unit_size:
            text += f" in units of {e.min_unit_size} models or more"
        out.append(text if len(ds.loadouts[loadout]) == 1 else f"{text} ({e.model})")
    return and_join(out)


def _given(ds: Datasheet, loadouts: list[str] | tuple[str, ...], counting: Counting) -> set[str]:
    """The keys (as ``counting`` names them) that the named loadouts' entries equip."""
    return {
        k for name in loadouts for e in ds.loadouts[name] for k in keys_in(ds, e.equipped, counting)
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
        names = and_join(list(lim.loadouts))
        parts.append(f"one of the loadouts {names} ({count_of(sizes[i], 'model')}{per})")
    named = counted_names(ds, wanted, counting)
    return (
        f"{subject} can give only {count_of(allowed, 'model')} the loadouts of "
        f"{len(limits)} wargear options ({'; '.join(parts)}); "
        f"{and_join(list(named.values()))} {'needs' if len(named) == 1 else 'need'} them on "
        f"{needed} models"
    )

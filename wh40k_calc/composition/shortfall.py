"""How many of a set of the named weapons the unit's models can carry at once, and the set
that most exceeds it: the usual reason no assignment exists.

:func:`capacity` fills each model type's models with the options carrying most of the set
first, within the caps and the limits options combined on one model share with each option
alone; :func:`worst_shortfall` tries every set of the named weapons (up to
:data:`MAX_SUBSETS_OF` of them, else those of up to 3) and keeps the largest shortfall, of
equal ones the fewest weapons: "the unit can carry only 2 of Big shoota and Rokkit launcha at
once (Spanner ×2); Big shoota x2 and Rokkit launcha x2 need 4" (:func:`shortfall_text`).
"""

from __future__ import annotations

from itertools import combinations

from ..attack_sets import Counting
from ..datasheet import Datasheet, ModelProfile
from .carriers import Carriers
from .naming import and_join, counted_names, weapon_name

MAX_SUBSETS_OF = 10  # up to this many named weapons, explanations try every set of them


def worst_shortfall(
    units: list[Carriers], wanted: dict[str, int]
) -> tuple[int, tuple[str, ...], list[str]] | None:
    """The set of ``wanted``'s keys (every set up to :data:`MAX_SUBSETS_OF` keys, else those
    of up to 3) whose number most exceeds what the models can use of them at once
    (:func:`capacity`; of equal shortfalls, the fewest keys): (how many they can use, the
    keys, which models); None when no set does."""
    keys = list(wanted)
    best: tuple[int, tuple[str, ...], list[str], int] | None = None
    largest = len(keys) if len(keys) <= MAX_SUBSETS_OF else 3
    for size in range(1, largest + 1):
        for subset in combinations(keys, size):
            total = sum(wanted[k] for k in subset)
            has, who = capacity(units, set(subset))
            if total > has and (best is None or total - has > best[0]):
                best = (total - has, subset, who, has)
    return None if best is None else (best[3], best[1], best[2])


def shortfall_text(
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
    named = counted_names(ds, wanted, counting)
    what = and_join([weapon_name(ds, k, counting) for k in subset])
    at_once = " at once" if len(subset) > 1 else ""
    need = "needs" if len(subset) == 1 else "need"
    asked = and_join([named[k] for k in subset])
    return (
        f"{subject} can {verb} only {has} of {what}{at_once} "
        f"({', '.join(who) or 'no model can'}); {asked} {need} {total}"
    )


def capacity(units: list[Carriers], subset: set[str]) -> tuple[int, list[str]]:
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

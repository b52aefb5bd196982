"""A model's ``choices`` (up to N weapons of a list) taken on its equipment options.

A :class:`~wh40k_calc.datasheet.WeaponChoice` lets a model carry up to ``up_to`` weapons of a
list, in place of the list's weapons it holds (a Crisis Battlesuit's three guns) or, with
``adds``, beside them (a T'au Commander's fourth gun); with ``sets``, one item of several
weapons or part of it (a Baneblade's sponsons). Each equipment option of the model type then
has a variant for every way of taking the choice: each weapon at most once where the choice
says so (``once``) and for melee weapons (a model fights with one), never a weapon a loadout
entry's ``excludes`` keeps off its models, and with ``one_pistol`` (a Sergeant's footnote) at
most one Pistol and one other ranged weapon. The variants share the choice's ``count``.
"""

from __future__ import annotations

from collections import Counter

from ..attack_sets import Weapons
from ..datasheet import WeaponChoice
from .kits import Kit, keep_option


def with_choice(
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
            if choice.one_pistol and not one_pistol_at_most(both, arms):
                continue
            made: Kit = (frozenset(both.items()), limits)
            if bar and made not in out:
                barred[made] = bar
            keep_option(out, made, limit)
    return out


def one_pistol_at_most(carried: Counter[str], arms: Weapons) -> bool:
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

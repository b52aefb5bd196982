"""Why one model cannot carry two of the named weapons together, as the end of a refusal.

Tried in turn by :func:`~.reasons.explain` once a set of weapons is short: two items of one
wargear option (a model takes one) or a default weapon every option giving another takes away
(:func:`options_apart`); a Sergeant's footnote of at most one Pistol and one other ranged
weapon (:func:`pistol_footnote`); a loadout only for models "not equipped with" the other
(``excludes``: :func:`excluded_by`); and two weapons that each come only with loadouts, none
giving both (:func:`loadouts_apart`). Each returns "" where it is not the reason.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from ..attack_sets import ATTACKING, Counting, Weapons
from ..datasheet import Datasheet
from .choices import one_pistol_at_most
from .naming import and_join, weapon_name


def options_apart(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
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
            names = and_join(list(dict.fromkeys(n for n, _, _ in found[a] + found[b])))
            return f" ({names} are items of one wargear option: a model takes one)"
    for k in keys:
        gone = arms.weapon(k) if counting.attacking else k
        for other in keys:
            if other != k and other in found and all(gone in g for _, _, g in found[other]):
                names = and_join(list(dict.fromkeys(n for n, _, _ in found[other])))
                what = f"away the {weapon_name(ds, k, counting)}"
                if len(found[other]) == 1:
                    return f" (loadout {names} takes {what})"
                return f" (loadouts {names} take {what})"
    return ""


def pistol_footnote(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
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
            if not choice.one_pistol or len(mine) < 2 or one_pistol_at_most(Counter(mine), arms):
                continue
            pistols = [w for w in mine if any(p.abilities.pistol for p in arms.profiles.get(w, []))]
            others = [
                w
                for w in mine
                if w not in pistols and not all(p.is_melee for p in arms.profiles.get(w, []))
            ]
            both = pistols if len(pistols) > 1 else others
            kind = "Pistols" if len(pistols) > 1 else "other ranged weapons"
            names = and_join([arms.name.get(w, w) for w in both])
            return (
                f" ({m.name}: at most one Pistol and one other ranged weapon, and {names} "
                f"are both {kind})"
            )
    return ""


def excluded_by(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
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
        what = and_join([arms.name.get(w, w) for w in bar])
        loadouts = f"loadout{'s' if len(names) > 1 else ''} {and_join(names)}"
        verb = "are" if len(names) > 1 else "is"
        return (
            f" ({loadouts} {verb} for a {model} not equipped with {what}: no model taking "
            f"{'them' if len(names) > 1 else 'it'} carries one)"
        )
    return ""


def loadouts_apart(ds: Datasheet, keys: tuple[str, ...], counting: Counting = ATTACKING) -> str:
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
            only_a = f"loadout{'s' if len(sources[a]) > 1 else ''} {and_join(sources[a])}"
            return (
                f" ({m.name}: {name_a} comes only with {only_a}, {name_b} only with "
                f"{and_join(sources[b])}; no loadout gives both)"
            )
    return ""

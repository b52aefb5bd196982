"""The name forms lists use that our datasheets do not, each fold said in words.

The rest of ``calc`` finds a name exactly (case, accents and punctuation aside: the catalog's
and the datasheet's own rules). Lists add forms of their own, tried in order after the exact
name, each giving the fold it made so that the report can show it; a name none of them finds
is unresolved, with the closest names as suggestions (never taken):

* units: "The X" for "X" and back ("Emperor's Champion" is "The Emperor's Champion"), the
  plural or singular ("Killa Kan" / "Killa Kans"), a suffix in brackets dropped ("Tyrannocyte
  (Legends)");
* model types: the plural (the datasheet's own rule), a loadout suffix dropped ("Kroot
  Carnivore w/ tanglebomb launcher" is a Kroot Carnivore), a name that is the end of exactly
  one model type's ("Nob" is the Boss Nob), the datasheet's only model type;
* weapons: a base name stands for its profiles ("Axe Morkai" is "Axe Morkai – strike" and "–
  sweep"; "Foehammer" its ranged and its "(melee)" profile), the plural or singular;
* wargear that is not a weapon (icons, banners, shields, drones, support systems, beacons)
  is recognised by its words and reported as wargear, not as a weapon we lack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..datasheet import Datasheet, ModelProfile, Weapon, norm_name

WARGEAR_WORDS = frozenset(
    {
        "icon",
        "banner",
        "standard",
        "shield",
        "drone",
        "drones",
        "beacon",
        "system",
        "instrument",
        "vox",
        "auspex",
        "narthecium",
        "medipack",
        "grenades",
        "collar",
        "totem",
        "talisman",
        "cloak",
        "mantle",
        "generator",
        "array",
        "targeter",
        "sensor",
        "trophies",
        "familiar",
        "servo",
        "jump",
        "pack",
    }
)
_PROFILE_SEP = re.compile(r"\s+[–—-]\s+")


@dataclass(frozen=True)
class Fold:
    """A name read as another: ``name`` the form tried, ``why`` the fold in words."""

    name: str
    why: str


def unit_forms(name: str) -> list[Fold]:
    """The other forms of a unit name a list may use, in the order they are tried."""
    out: list[Fold] = []
    bare = re.sub(r"\s*[(\[][^()\[\]]*[)\]]\s*$", "", name).strip()
    bases = [(name, "")]
    if bare and bare != name:
        bases.append((bare, f"dropping {name[len(bare) :].strip()!r}"))
    for base, how in bases:
        if how:
            out.append(Fold(base, how))
        words = base.split()
        if words and words[0].lower() == "the" and len(words) > 1:
            out.append(Fold(" ".join(words[1:]), _and(how, "without 'The'")))
        else:
            out.append(Fold(f"The {base}", _and(how, "adding 'The'")))
        for form, why in _number_forms(base):
            out.append(Fold(form, _and(how, why)))
    return out


def _and(a: str, b: str) -> str:
    return f"{a}, {b}" if a else b


def _number_forms(name: str) -> list[tuple[str, str]]:
    """The singular and plural of ``name``'s last word, as far as English does them."""
    words = name.split()
    if not words:
        return []
    last = words[-1]
    head = " ".join(words[:-1])
    forms = []
    low = last.lower()
    if low.endswith("ies") and len(last) > 4:
        forms.append(last[:-3] + "y")
    if low.endswith("es") and len(last) > 3:
        forms.append(last[:-2])
    if low.endswith(("s", "z")) and len(last) > 2:  # "z": the Orks' plural (Boyz, Nobz)
        forms.append(last[:-1])
    else:
        forms.append(last + "s")
        forms.append(last + "z")
        if low.endswith("y"):
            forms.append(last[:-1] + "ies")
    out = []
    for f in forms:
        full = f"{head} {f}".strip()
        why = "as the singular" if len(f) < len(last) else "as the plural"
        out.append((full, why))
    return out


# ---------------------------------------------------------------------------------------------
# Model types


def model_type(ds: Datasheet, name: str | None) -> tuple[ModelProfile | None, str | None]:
    """The model type of ``ds`` the list's ``name`` means, and the fold made (None: the
    exact name, or no name given); (None, None) when no model type is that name."""
    if name is None:
        return None, None
    m = ds.model(name)
    if m is not None:
        return m, None
    bare = re.split(r"\s+(?:w/|with)\s+", name, maxsplit=1, flags=re.IGNORECASE)[0].strip()
    if bare != name:
        m = ds.model(bare)
        if m is not None:
            return m, f"model {name!r} read as {m.name} (a loadout suffix dropped)"
    for form, why in _number_forms(bare):
        m = ds.model(form)
        if m is not None:
            how = f"a loadout suffix dropped, {why}" if bare != name else why
            return m, f"model {name!r} read as {m.name} ({how})"
    key_words = _words(bare)
    singular = [w.removesuffix("s") for w in key_words]
    ends = [
        m
        for m in ds.models
        if key_words and _words(m.name)[-len(key_words) :] in (key_words, singular)
    ]
    if len(ends) == 1:
        return ends[0], f"model {name!r} read as {ends[0].name}"
    if len(ds.models) == 1:
        only = ds.models[0]
        return only, f"model {name!r} read as {only.name} (the datasheet's only model type)"
    return None, None


def _words(text: str) -> list[str]:
    return [norm_name(w) for w in re.split(r"[\s\-]+", text) if norm_name(w)]


# ---------------------------------------------------------------------------------------------
# Weapons


def weapon_profiles(ds: Datasheet, name: str) -> tuple[tuple[Weapon, ...], str | None]:
    """The weapon profiles of ``ds`` a listed weapon name stands for, and the fold made
    (None: the exact name); ((), None) when none.

    A base name stands for every profile of it: the weapons whose ``profile_of`` is that name,
    or named ``NAME – profile``; an exact name also takes its ``NAME (melee)`` / ``NAME
    (ranged)`` twin (one weapon with a ranged and a melee profile)."""
    for form, why in [(name, None), *((f, w) for f, w in _number_forms(name))]:
        found = _profiles(ds, form)
        if found:
            fold = None
            if why is not None:
                fold = f"weapon {name!r} read as {form!r} ({why})"
            elif len(found) > 1 or norm_name(found[0].name) != norm_name(name):
                fold = f"weapon {name!r} is {', '.join(w.name for w in found)}"
            return found, fold
    return (), None


def _profiles(ds: Datasheet, name: str) -> tuple[Weapon, ...]:
    key = norm_name(name)
    if not key:
        return ()
    exact = ds.weapon(name)
    twins = [
        w
        for w in ds.weapons
        if w is not exact
        and (
            norm_name(w.profile_of or "") == key
            or norm_name(_PROFILE_SEP.split(w.name, maxsplit=1)[0]) == key
            or w.key in (key + "melee", key + "ranged")
        )
    ]
    out = ([exact] if exact is not None else []) + [w for w in twins if w is not exact]
    return tuple(dict.fromkeys(out))


def is_wargear(name: str) -> bool:
    """True when ``name`` reads as wargear that is not a weapon (an icon, a banner, a
    shield, a drone, a support system...): one of its words is a WARGEAR_WORDS word."""
    return any(w in WARGEAR_WORDS for w in re.split(r"[^a-z]+", name.lower()) if w)


def suggestions(name: str, candidates: list[str]) -> list[str]:
    """The closest of ``candidates`` to ``name`` (:func:`wh40k_calc.fuzzy.suggest`)."""
    from ..fuzzy import suggest

    return suggest(name, candidates)

"""Linking an edition-11 datasheet's equipment names to its weapon profiles where the names
differ (game-datacards data: the ``loadout`` text, the "Default Wargear" lists of
``wargearOptions`` and the weapon entries of ``rangedWeapons``/``meleeWeapons`` are written
separately and do not always agree).

The model: every weapon entry of the data (one entry, one or more profiles) is something a
model of the unit carries, by default or by a wargear option, so an entry that no equipment
name, no Default Wargear name and no option names is the weapon of a name that matches no
profile. The links, tried in order for an item of the loadout with no exact match:

1. a leading article dropped ("the Maugetar" is the Maugetar);
2. a name the Default Wargear list gives, that holds the item's words in order ("power fist"
   for the data's "Twin power fists"; "Tyrant's Claw" for both of Huron Blackheart's "Tyrant's
   Claw and exalted power weapon" and "Tyrant's Claw heavy flamer"): the list is the data's
   own spelling of the default equipment, so a word such as "twin" it adds is no other weapon;
3. elimination: where exactly one name of the loadout and the Default Wargear lists matches no
   weapon and exactly one weapon entry is named by nothing (not by an equipment name, a
   Default Wargear name or an option's text), they are one weapon (Canis Rex's "Questoris
   multi-laser" is the data's "Chainbreaker multi-laser"). An entry whose only profile has no
   name of its own ("strike", "Melee", "Ranged": words that name a profile of a weapon, not a
   weapon) takes the name it is linked to (Jain Zar's Blade of Destruction);
4. the similarity and containment matches every importer uses (:func:`.names.near_match`).

Each link made is reported in the file's notes. A name that still matches nothing is listed by
the caller as not modelled, never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .equipment import wargear_name
from .names import NearMatch, key, name_words, same_name
from .weapons import ImportedWeapon, resolve_item, split_count

# profile names that name no weapon: the six commonest profile suffixes of data 912
# ("Choppa – Standard", "Freedom's Hand – Sweep"), which a few weapons have as their only name
PROFILE_ONLY = frozenset({"standard", "supercharge", "sweep", "strike", "ranged", "melee"})
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


def _in_order(part: list[str], words: list[str]) -> bool:
    """Whether ``part``'s words all occur in ``words``, in that order (others may come
    between)."""
    it = iter(words)
    return all(any(p == w for w in it) for p in part)


@dataclass
class Links:
    """How one datasheet's equipment names resolve to its weapons: ``aliases`` (a name's key ->
    the weapon names it stands for), the Default Wargear names (``defaults``), the weapon
    names given by the Default Wargear list to an item (``from_defaults``: the caller keeps one
    copy of each per model), and the ``notes`` to write into the file."""

    weapons: list[ImportedWeapon]
    defaults: list[str]
    aliases: dict[str, list[str]] = field(default_factory=dict)
    from_defaults: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    def exact(self, name: str) -> list[str] | None:
        """The weapon names of ``name`` by its own spelling, without a leading article, or by
        a link made (None: none)."""
        count, text = split_count(name)
        for form in (text, _ARTICLE.sub("", text)):
            found = resolve_item(form, self.weapons)
            if found is not None:
                return found * count
            alias = self.aliases.get(key(form))
            if alias is not None:
                return alias * count
        return None

    def resolve(self, item: str, near: list[NearMatch]) -> list[str] | None:
        """The weapon names a loadout item stands for, by the links above (None: no weapon);
        a similarity or containment match is appended to ``near``."""
        found = self.exact(item)
        if found is not None:
            return found
        count, text = split_count(item)
        words = name_words(_ARTICLE.sub("", text))
        if len(words) >= 2:
            names: list[str] = []
            for d in self.defaults:
                if not same_name(d, text) and _in_order(words, name_words(d)):
                    names += [n for n in self.exact(d) or [] if n not in names]
            if names:
                self.notes.append(
                    f"equipment {text!r} taken as {', '.join(repr(n) for n in names)} (the "
                    "data's Default Wargear list spells it so)"
                )
                self.from_defaults.update(names)
                return names * count
        found = resolve_item(_ARTICLE.sub("", text), self.weapons, near)
        return None if found is None else found * count


def link_equipment(
    items: list[str],
    defaults: list[str],
    options_text: str,
    weapons: list[ImportedWeapon],
    gear: list[str],
) -> Links:
    """Links for one datasheet (rule 3 of the module docstring, made here; the others are made
    as items are resolved).

    Args:
        items: the loadout's items as printed (``2 hellstrike missiles``), every paragraph's.
        defaults: the names of the "Default Wargear" lists.
        options_text: the wargear options' text, all of it.
        weapons: the weapon profiles (renamed in place where an entry has no name of its own).
        gear: the datasheet's non-weapon wargear names (never weapons).
    """
    links = Links(weapons, defaults)
    names = [split_count(i)[1] for i in items] + defaults
    unresolved: list[str] = []
    claimed: set[int] = set()
    for n in names:
        found = links.resolve(n, [])
        if found is not None:
            claimed |= {w.group for w in weapons if w.name in found}
        elif wargear_name(split_count(n)[1], gear) is None and not any(
            same_name(n, u) for u in unresolved
        ):
            unresolved.append(_ARTICLE.sub("", n))
    links.notes.clear()
    links.from_defaults.clear()
    told = key(options_text)
    for w in weapons:
        if key(w.base) and key(w.base) in told:
            claimed.add(w.group)
    free = sorted({w.group for w in weapons} - claimed)
    if len(unresolved) != 1 or len(free) != 1:
        return links
    name = unresolved[0]
    entry = [w for w in weapons if w.group == free[0]]
    if all(w.name.lower() in PROFILE_ONLY for w in entry):
        printed = name[:1].upper() + name[1:]
        own = ", ".join(repr(w.name) for w in entry)
        for w in entry:
            w.base = printed
            w.data["name"] = printed if len(entry) == 1 else f"{printed} \u2013 {w.name}"
            if len(entry) > 1:
                w.data["profile_of"] = printed
        links.notes.append(
            f"weapon {own} of the data has no name of its own: named {printed!r}, the only "
            "equipment that matches no profile"
        )
    else:
        links.notes.append(
            f"equipment {name!r} taken as weapon {entry[0].base!r}: the only equipment that "
            "matches no profile, and the only weapon that no equipment or option names"
        )
    links.aliases[key(name)] = [w.name for w in entry]
    return links

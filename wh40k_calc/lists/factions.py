"""A list's faction as our datasheets file it.

List builders name factions as the game does; our datasheets file some of them under another
faction: the Space Marine chapters (Space Wolves, Blood Angels, ...) are Space Marines
datasheets with the chapter's faction keyword, "Adeptus Astartes" is Space Marines,
"Legiones Daemonica" Chaos Daemons. :func:`our_faction` maps a list's faction to (our
faction, the faction keyword that narrows it, or None) and says the fold. The catalog's own
faction names come first (:meth:`~wh40k_calc.catalog.Catalog.faction_name`: it may know
aliases of its own).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..datasheet import norm_name

CHAPTERS = (
    "Space Wolves",
    "Blood Angels",
    "Dark Angels",
    "Black Templars",
    "Deathwatch",
    "Ultramarines",
    "Imperial Fists",
    "Iron Hands",
    "Raven Guard",
    "Salamanders",
    "White Scars",
)
ALIASES = {
    "adeptusastartes": "Space Marines",
    "legionesdaemonica": "Chaos Daemons",
    "daemons": "Chaos Daemons",
    "agentsoftheimperium": "Imperial Agents",
    "craftworlds": "Aeldari",
    "asuryani": "Aeldari",
    "harlequins": "Aeldari",
    "ynnari": "Aeldari",
    "hereticastartes": "Chaos Space Marines",
    "tau": "T’au Empire",
    "astartes": "Space Marines",
}


@dataclass(frozen=True)
class FactionChoice:
    """A list's faction resolved: ``faction`` ours (None: none of ours), ``keyword`` the
    faction keyword a datasheet of a sub-faction has (a chapter: ``SPACE WOLVES``), ``fold``
    what was made of the list's name (None: taken as written)."""

    listed: str | None
    faction: str | None
    keyword: str | None = None
    fold: str | None = None


def our_faction(cat, listed: str | None) -> FactionChoice:
    """The faction of ``cat`` that the list's ``listed`` faction is (:class:`FactionChoice`)."""
    if not listed:
        return FactionChoice(None, None)
    try:
        return FactionChoice(listed, cat.faction_name(listed, "the list's faction"))
    except LookupError:
        pass
    key = norm_name(listed)
    for chapter in CHAPTERS:
        if norm_name(chapter) == key:
            sm = _known(cat, "Space Marines")
            if sm:
                fold = f"{listed} datasheets are {sm} datasheets with the {chapter.upper()} keyword"
                return FactionChoice(listed, sm, chapter.upper(), fold)
    alias = ALIASES.get(key)
    if alias and _known(cat, alias):
        ours = _known(cat, alias)
        return FactionChoice(listed, ours, None, f"faction {listed!r} is {ours}")
    return FactionChoice(listed, None, None, f"faction {listed!r} is none of ours")


def _known(cat, name: str) -> str | None:
    try:
        return cat.faction_name(name, "alias")
    except LookupError:
        return None


def chapter_of(keywords: frozenset[str]) -> str | None:
    """The chapter keyword among a datasheet's faction keywords, if any."""
    for c in CHAPTERS:
        if c.upper() in keywords:
            return c.upper()
    return None

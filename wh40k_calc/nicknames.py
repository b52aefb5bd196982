"""Nicknames: the names players call some units by ("fire warriors" for the T'au Strike Team),
from the data file ``nicknames.yaml`` beside this module, each mapped to the unit's qualified
name (``Faction/Name``).

A nickname is never taken for the unit (a unit is found only by its own name or file stem):
an unknown name that is one — its words, case, accents and punctuation aside, or within a
typo of it (rapidfuzz ratio :data:`NICKNAME_CUTOFF` of the whole words) — has that unit
offered first among the "did you mean" suggestions, saying so, and ``calc units`` lists it.
Read only when a name is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

FILE = Path(__file__).with_name("nicknames.yaml")
NICKNAME_CUTOFF = 90  # whole-name ratio for a typed name to be a nickname (a letter off)


@dataclass(frozen=True)
class Nickname:
    """``nickname`` (as the file spells it) is what players call ``qualified``."""

    nickname: str
    qualified: str


@cache
def _table() -> tuple[Nickname, ...]:
    import yaml

    data = yaml.safe_load(FILE.read_text(encoding="utf-8")) or {}
    return tuple(Nickname(str(k), str(v)) for k, v in data.items())


def nickname(text: str) -> Nickname | None:
    """The nickname ``text`` is (the closest of those within :data:`NICKNAME_CUTOFF`), or
    None."""
    from .datasheet import norm_name
    from .fuzzy import whole_ratio, words

    key, typed = norm_name(text), words(text)
    best: tuple[float, Nickname] | None = None
    for n in _table():
        score = 100.0 if norm_name(n.nickname) == key else whole_ratio(typed, words(n.nickname))
        if score >= NICKNAME_CUTOFF and (best is None or score > best[0]):
            best = (score, n)
    return None if best is None else best[1]

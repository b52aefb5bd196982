"""``calc units``: the datasheets found, filtered by a name fragment (fuzzy), as a table or JSON.

The filter is :func:`wh40k_calc.fuzzy.rank`: every word of the text must be like a word of the
name (of ``Faction/Name`` when the text has a ``/``: "world eaters/berzerkers"; a faction's
name alone matches nothing, ``--faction`` filters by faction), so "intercessor squad" lists
the Intercessor, Assault Intercessor and Heavy Intercessor Squads (and the alike Interceptor
Squad, last), "hellblastr" finds
"Hellblaster Squad" and "leman" every Leman Russ; best first. A text no name matches that way
lists the closest names instead (:func:`wh40k_calc.fuzzy.suggest`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .catalog import Entry


def filter_entries(entries: list[Entry], text: str) -> list[Entry]:
    """The entries whose name matches ``text`` (their ``Faction/Name`` when ``text`` has a
    ``/``), best first; when none does, those with the closest names."""
    from .fuzzy import rank, suggest

    choices = [e.qualified if "/" in text else e.name for e in entries]
    ranked = rank(text, choices)  # best first: word score, whole-name ratio, given order
    if ranked:
        return [entries[i] for i, _ in ranked]
    from .nicknames import nickname

    known = nickname(text)  # "fire warriors": the unit players mean by it, first
    first = [e for e in entries if known is not None and e.qualified == known.qualified]
    close = suggest(text, [e.name for e in entries])
    return first + [e for name in close for e in entries if e.name == name and e not in first]


def replaced(entries: list[Entry]) -> dict[Path, Path]:
    """The user's files that hide a shipped file of the same faction and name -> that file
    (``entries`` listed with the hidden ones)."""
    kinds = {e.path: e.kind for e in entries}
    return {
        e.hidden_by: e.path
        for e in entries
        if e.hidden_by is not None and e.shipped and kinds.get(e.hidden_by) == "user"
    }


def entry_json(e: Entry, replaces: Path | None, data: dict | None = None) -> dict[str, Any]:
    """One entry for ``calc units --json``: name, faction, qualified name, source ("user",
    "curated" or "generated"), file, the editions it is for, the data version it comes from
    (``data``: ``{source, version, date}`` for a generated edition-11 one, else None) and the
    file it replaces or is hidden by."""
    out: dict[str, Any] = {
        "name": e.name,
        "faction": e.faction,
        "qualified": e.qualified,
        "source": e.kind,
        "file": str(e.path),
        "editions": [int(x) for x in e.editions],
        "data": data,
    }
    if replaces is not None:
        out["replaces"] = str(replaces)
    if e.hidden_by is not None:
        out["hidden_by"] = str(e.hidden_by)
    return out

"""``calc units``: the datasheets found, filtered by a name fragment (fuzzy), as a table or JSON.

The filter is :func:`wh40k_calc.fuzzy.rank`: every word of the text must be like a word of the
name (or of ``Faction/Name``), so "intercessor squad" lists the Intercessor, Assault Intercessor
and Heavy Intercessor Squads (and the alike Interceptor Squad, last), "hellblastr" finds
"Hellblaster Squad" and "leman" every Leman Russ; best first. A text no name matches that way
lists the closest names instead (:func:`wh40k_calc.fuzzy.suggest`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .catalog import Entry


def filter_entries(entries: list[Entry], text: str) -> list[Entry]:
    """The entries whose name (or ``Faction/Name``) matches ``text``, best first; when none
    does, those with the closest names."""
    from .fuzzy import rank, suggest

    scores: dict[int, float] = {}
    for choices, penalty in (
        ([e.name for e in entries], 0.0),
        ([e.qualified for e in entries], 1.0),
    ):
        for i, s in rank(text, choices):
            scores[i] = max(scores.get(i, -1.0), s - penalty)
    if scores:  # best first; ties: as the names rank, then by name
        by_name = {i: pos for pos, (i, _) in enumerate(rank(text, [e.name for e in entries]))}
        order = sorted(
            scores, key=lambda i: (-scores[i], by_name.get(i, len(entries)), entries[i].name)
        )
        return [entries[i] for i in order]
    close = suggest(text, [e.name for e in entries])
    return [e for name in close for e in entries if e.name == name]


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

"""``calc units``: the datasheets found, filtered by a name fragment (fuzzy), as a table or JSON.

Fuzzy matching is rapidfuzz's weighted ratio (``WRatio``: whole names, fragments and word
order all score), so "leman" lists every Leman Russ and "hellblaster" finds "Hellblaster
Squad"; a misspelt fragment falls back to the closest names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .catalog import Entry

FUZZY_CUTOFF = 80  # WRatio score (0-100) for a name to match a fragment
FALLBACK_CUTOFF = 60  # when nothing reaches FUZZY_CUTOFF: the closest names above this
FALLBACK_COUNT = 10


def filter_entries(entries: list[Entry], text: str) -> list[Entry]:
    """The entries whose name (or ``Faction/Name``) matches ``text``, best first."""
    from rapidfuzz import fuzz, process, utils  # lazy: only `calc units TEXT` needs it

    names = [e.name for e in entries]
    qualified = [e.qualified for e in entries]
    scores: dict[int, float] = {}
    for choices in (names, qualified):
        for _, score, i in process.extract(
            text,
            choices,
            scorer=fuzz.WRatio,
            processor=utils.default_process,
            limit=None,
            score_cutoff=FALLBACK_CUTOFF,
        ):
            scores[i] = max(scores.get(i, 0.0), score)
    good = {i: s for i, s in scores.items() if s >= FUZZY_CUTOFF}
    if not good:
        best = sorted(scores, key=lambda i: -scores[i])[:FALLBACK_COUNT]
        good = {i: scores[i] for i in best}
    order = sorted(good, key=lambda i: (-good[i], entries[i].faction, entries[i].name))
    return [entries[i] for i in order]


def replaced(entries: list[Entry]) -> dict[Path, Path]:
    """The user's files that hide a shipped file of the same faction and name -> that file
    (``entries`` listed with the hidden ones)."""
    kinds = {e.path: e.kind for e in entries}
    return {
        e.hidden_by: e.path
        for e in entries
        if e.hidden_by is not None and e.shipped and kinds.get(e.hidden_by) == "user"
    }


def entry_json(e: Entry, replaces: Path | None) -> dict[str, Any]:
    """One entry for ``calc units --json``: name, faction, qualified name, source ("user",
    "curated" or "generated"), file, and the file it replaces or is hidden by."""
    out: dict[str, Any] = {
        "name": e.name,
        "faction": e.faction,
        "qualified": e.qualified,
        "source": e.kind,
        "file": str(e.path),
    }
    if replaces is not None:
        out["replaces"] = str(replaces)
    if e.hidden_by is not None:
        out["hidden_by"] = str(e.hidden_by)
    return out

"""Which units a Leader leads, and the exception some Leaders' datasheets make to "each
Bodyguard unit can only have one Leader attached" (Core rules: Leader): "you can attach this
model to <a unit> even if one <KEYWORD> or <KEYWORD> model has already been attached to it".

The exception is read into ``leader_alongside`` (the keywords of a Leader already attached
that this one may join; "one other Leader unit" and "one other CHARACTER model" both become
CHARACTER, since every Leader is a CHARACTER unit) and ``leader_alongside_bodyguard`` (the
keywords of the Bodyguard units it names, when it names some rather than "one of the above
units" or "a unit it can lead"). Only keywords are kept, no text.
"""

from __future__ import annotations

import re

from .composition import unit_name
from .export import Export, html_to_text

_EVEN_IF = re.compile(
    r"even if (?:one or more other |one other |one |an? )?(?P<kws>.+?)"
    r"(?: (?:model|unit)s?)? (?:has|have) already been attached",
    re.IGNORECASE,
)
_BODYGUARD = re.compile(
    r"attach(?:ed)? (?:this model |this unit )?to (?:an? |the )?(?P<units>[A-Z][A-Za-z ’',-]+?)"
    r"(?: units?)?,? even if",
)
_ANY_LEADER = frozenset({"LEADER", "CHARACTER"})


def read_leaders(export: Export, sheet: dict[str, str]) -> dict[str, list[str]]:
    """``leader_of`` (the Bodyguard units' names), ``leader_alongside`` and
    ``leader_alongside_bodyguard`` of one datasheet, each only when it has entries."""
    out: dict[str, list[str]] = {}
    leads = [
        unit_name(export, export.by_id[r["attached_id"]])
        for r in export.rows("Datasheets_leader.csv", sheet["id"], key="leader_id")
        if r["attached_id"] in export.by_id
    ]
    if leads:
        out["leader_of"] = list(dict.fromkeys(leads))
    alongside, bodyguard = leader_alongside(html_to_text(sheet.get("leader_footer", "")))
    if alongside:
        out["leader_alongside"] = alongside
    if bodyguard:
        out["leader_alongside_bodyguard"] = bodyguard
    return out


def leader_alongside(text: str) -> tuple[list[str], list[str]]:
    """(keywords of the Leader this one may join, keywords of the Bodyguard units where it
    may) from a leader footer's plain text; ([], []) when it makes no such exception."""
    m = _EVEN_IF.search(" ".join(text.split()))
    if m is None:
        return [], []
    kws = [k.upper() for k in _keywords(m["kws"])]
    kws = ["CHARACTER" if k in _ANY_LEADER else k for k in kws]
    head = " ".join(text.split())[: m.end()]
    units = _BODYGUARD.search(head)
    bodyguard = [k.upper() for k in _keywords(units["units"])] if units else []
    return list(dict.fromkeys(kws)), bodyguard


def _keywords(text: str) -> list[str]:
    """``'CAPTAIN, CHAPTER MASTER or LIEUTENANT'`` -> the three keywords."""
    return [p.strip() for p in re.split(r",\s*|\s+or\s+", text) if p.strip()]

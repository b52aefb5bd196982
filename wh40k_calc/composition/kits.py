"""An equipment option as the search keys it: a *kit*.

A kit is (the named weapons one model carries, as (weapon key, copies) pairs; the indices of
the limits whose models it uses up). Options with the same kit are one option to the search,
whatever loadout entry, default equipment or choice made them: :func:`keep_option` merges
them, adding up their caps where they give disjoint models (default equipment) or keeping the
larger where they are alternatives (loadouts of one list). Used by :mod:`.carriers`,
:mod:`.choices` and :mod:`.combined`.
"""

from __future__ import annotations

from collections.abc import Hashable

Kit = tuple[frozenset[tuple[str, int]], tuple[int, ...]]  # named weapons, limits (indices)


def keep_option(opts: dict, weapons: Hashable, cap: int | None, add: bool = False) -> None:
    """Add an option; the same weapons again keep the larger cap, or with ``add`` the sum
    (None: no cap)."""
    if weapons not in opts:
        opts[weapons] = cap
        return
    old = opts[weapons]
    if old is None or cap is None:
        opts[weapons] = None
    else:
        opts[weapons] = old + cap if add else max(old, cap)

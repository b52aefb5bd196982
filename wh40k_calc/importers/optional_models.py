"""Loadouts that field a unit's optional model kinds, which its sizes leave out.

A composition line of "0-N" models (``0-1 Chapter Champion``, ``0-4 Kill Team Intercessors
with plasma incinerators``, ``0-5 Kill Team Heavy Intercessors with Jump Packs``) is a kind of
model the unit may have in place of some of its rank-and-file: the points are per number of
models, so a size holds the kinds whose minimum it needs and fills the rest with the most
numerous kind (:func:`.sizes.fits`), and the optional kinds are in none. Each becomes a named
loadout (after the model: ``chapter-champion``) of one entry with ``instead_of``: its most
models (the line's largest number, and no more than the rank-and-file can give up and keep
their own minimum in the largest size), each with its own default equipment, in place of as
many of the rank-and-file kind. Where every optional kind fits the smallest size at once
(the Victrix Honour Guard's Chapter Ancient and Chapter Champion), one more loadout fields
them all (``chapter-ancient-and-chapter-champion``). ``--weapon`` takes them too, in any mix
(:mod:`wh40k_calc.composition`).

The rank-and-file kind is the one the largest size has most of among the kinds whose number
varies (``2-9 Kill Team Intercessors``), CHARACTER models never. A unit with no such kind, or
an optional kind of no composition line of its own (a model of an alternative composition
line only, which :mod:`.sizes` reports), gets none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from .export import slug
from .models import ImportedModel

_ALL = "-and-"


def optional_model_loadouts(
    models: list[ImportedModel], sizes: list[dict[str, object]], taken: Mapping[str, object]
) -> dict[str, list[dict[str, object]]]:
    """Loadouts (name -> entries, the datasheet format's) that field the optional model kinds
    of ``models`` that no size of ``sizes`` has; ``taken`` holds the loadout names used
    already (a name taken gets ``-models``)."""
    if not sizes:
        return {}
    counts = [cast(dict[str, int], s["models"]) for s in sizes]
    in_sizes = {name for c in counts for name in c}
    optional = [m for m in models if m.low == 0 and m.name not in in_sizes]
    base = _rank_and_file(models, counts)
    if not optional or base is None:
        return {}
    largest = max(counts, key=lambda c: sum(c.values()))
    smallest = min(counts, key=lambda c: sum(c.values()))
    spare = largest.get(base.name, 0) - base.low
    out: dict[str, list[dict[str, object]]] = {}
    entries = []
    for m in optional:
        n = min(m.high, spare)
        if n < 1:
            continue
        entry: dict[str, object] = {
            "model": m.name,
            "count": n,
            "equipped": list(m.equipped or []),
            "instead_of": base.name,
        }
        entries.append(entry)
        out[_free(slug(m.name), taken, out)] = [entry]
    if len(entries) > 1 and sum(cast(int, e["count"]) for e in entries) <= (
        smallest.get(base.name, 0) - base.low
    ):
        name = _ALL.join(slug(str(e["model"])) for e in entries)
        out[_free(name, taken, out)] = entries
    return out


def _rank_and_file(
    models: list[ImportedModel], counts: list[dict[str, int]]
) -> ImportedModel | None:
    """The kind optional models stand in for: of the kinds whose number varies (not
    CHARACTER), the one the largest size has most of; None when there is none."""
    largest = max(counts, key=lambda c: sum(c.values()))
    varying = [
        m
        for m in models
        if m.high > m.low and "CHARACTER" not in m.keywords and largest.get(m.name, 0) > m.low
    ]
    return max(varying, key=lambda m: largest.get(m.name, 0), default=None)


def _free(name: str, taken: Mapping[str, object], made: Mapping[str, object]) -> str:
    """``name``, or ``name-models`` where a loadout has it already."""
    return f"{name}-models" if name in taken or name in made else name


def rank_and_file_minimum(
    models: list[ImportedModel], sizes: list[dict[str, object]]
) -> tuple[str, int] | None:
    """(name, least number) of the kind the optional kinds of ``models`` stand in for, where
    the unit has optional kinds and that kind a minimum above 0 (its ``keeps``: a unit of 5
    with 2-9 Kill Team Intercessors fields at most 3 optional models); None otherwise."""
    if not sizes:
        return None
    counts = [cast(dict[str, int], s["models"]) for s in sizes]
    in_sizes = {name for c in counts for name in c}
    if not any(m.low == 0 and m.name not in in_sizes for m in models):
        return None
    base = _rank_and_file(models, counts)
    if base is None or base.low < 1:
        return None
    return base.name, base.low

"""Unit sizes and points of one datasheet, from its cost rows.

A cost row is a size (``5 models``, ``1 Spanner and 4 Lootas``, ``1 model (Assigned Agent)``:
the bracket becomes the size's ``label``) or an optional add-on whose cost starts with ``+``
(``Shadow Spectre Exarch +30``). The datasheet format keeps one size per number of models: of
several rows with one count, the first listed is kept and the others are kept as data in
``dropped_sizes`` (with a warning). An add-on that is a model of the unit (``0-1 Shadow Spectre
Exarch``) also gives each size without it a size with it, whose points include the add-on's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import cast

from .composition import Entries, entries
from .export import Export, html_to_text
from .models import ImportedModel
from .names import find
from .weapons import to_int


@dataclass
class Sizes:
    """What the cost rows give: ``sizes`` and ``dropped`` (datasheet-format size entries),
    ``add_ons`` (``{name, points[, model]}`` entries) and ``listed`` (False: the export lists
    no points, and the one size given has 0)."""

    sizes: list[dict[str, object]] = field(default_factory=list)
    dropped: list[dict[str, object]] = field(default_factory=list)
    add_ons: list[dict[str, object]] = field(default_factory=list)
    listed: bool = True


def read_sizes(
    export: Export,
    sheet: dict[str, str],
    models: list[ImportedModel],
    alts: list[Entries],
    warnings: list[str],
) -> Sizes:
    """The unit sizes with their points, one per number of models, and what else the cost rows
    say (see the module docstring)."""
    out = Sizes()
    for row in export.rows("Datasheets_models_cost.csv", sheet["id"]):
        text = html_to_text(row["description"])
        try:
            points = to_int(row["cost"])
        except ValueError:
            warnings.append(f"size {text!r} skipped: points {row['cost']!r}")
            continue
        if row["cost"].strip().startswith("+"):
            out.add_ons.append(_add_on(text, points, models))
            continue
        label = " ".join(" ".join(re.findall(r"\((.*?)\)", text)).split())
        plain = re.sub(r"\s*\(.*?\)\s*", " ", text).strip()
        m = re.match(r"^(\d+)\s+models?\b", plain)
        found = fits(int(m.group(1)), models, alts) if m else [_explicit(plain, models)]
        if found[0] is None:
            warnings.append(f"size {text!r} not understood; skipped")
            continue
        for counts in found:  # a composition alternative of the same count is dropped
            keep_size(
                out, {"models": counts, "points": points} | ({"label": label} if label else {})
            )
    for add in out.add_ons:
        _with_add_on(out, add)
    unused_alternatives(out, models, alts, warnings)
    out.sizes.sort(key=_total)
    if out.dropped:
        warnings.append(
            "another size with a number of models already listed is not selectable (the first "
            "listed is kept; the others are in dropped_sizes): "
            + "; ".join(_describe(s) for s in out.dropped)
        )
    if not out.sizes:
        unlisted(out, models, warnings, "the export")
    return out


def unlisted(out: Sizes, models: list[ImportedModel], warnings: list[str], source: str) -> None:
    """A unit whose ``source`` (the export, the data) lists no points: one size of the fewest
    models of each kind (one of the largest kind if none is required), points not listed."""
    out.listed = False
    largest = max(models, key=lambda m: m.high)
    counts = {m.name: m.low for m in models if m.low} or {largest.name: 1}
    out.sizes.append({"models": counts, "points": 0})
    warnings.append(f"no points in {source}: one size, points not listed")


def unused_alternatives(
    out: Sizes, models: list[ImportedModel], alts: list[Entries], warnings: list[str]
) -> None:
    """Warn about composition alternatives that no size (kept or dropped) has: their models
    cannot be selected (a Heavy Weapons Team counted as 9 models where the cost row says 10)."""
    if len(alts) < 2:
        return
    had = [set(s["models"]) for s in out.sizes + out.dropped]  # type: ignore[call-overload]
    names = [m.name for m in models]
    for alt in alts:
        found = [find(e.name, names) for e in alt]
        kinds = {names[i] for i in found if i is not None}
        if kinds and kinds not in had:
            listed = ", ".join(
                f"{e.low if e.low == e.high else f'{e.low}-{e.high}'} {e.name}" for e in alt
            )
            warnings.append(
                f"composition alternative {listed} matches no cost row's number of models: "
                "not a size"
            )


def keep_size(out: Sizes, size: dict[str, object]) -> None:
    """Add ``size`` to the sizes, or to the dropped ones when its count is listed already."""
    total = _total(size)
    if any(_total(s) == total for s in out.sizes):
        out.dropped.append(size)
    else:
        out.sizes.append(size)


def _total(size: dict[str, object]) -> int:
    return sum(size["models"].values())  # type: ignore[attr-defined]


def _describe(size: dict[str, object]) -> str:
    """``6 Wolf Guard Headtaker (170 pts)``."""
    parts = ", ".join(f"{n} {name}" for name, n in size["models"].items())  # type: ignore[attr-defined]
    label = f", {size['label']}" if size.get("label") else ""
    return f"{parts} ({size['points']} pts{label})"


def _add_on(text: str, points: int, models: list[ImportedModel]) -> dict[str, object]:
    """An add-on row: its name, its points and the model of the unit it is, if any."""
    name = " ".join(text.split())
    found = find(name, [m.name for m in models])
    add: dict[str, object] = {"name": name, "points": points}
    if found is not None and models[found].low == 0:
        add["model"] = models[found].name
    return add


def _with_add_on(out: Sizes, add: dict[str, object]) -> None:
    """For an add-on that is an optional model: each size without that model, with one of it
    (points added; the size lists the add-on by name)."""
    model = add.get("model")
    if model is None:
        return
    for size in list(out.sizes):
        counts: dict[str, int] = size["models"]  # type: ignore[assignment]
        if counts.get(str(model)):
            continue
        bigger = {
            "models": {**counts, str(model): 1},
            "points": int(size["points"]) + int(add["points"]),  # type: ignore[call-overload]
            "add_ons": [*cast(list[object], size.get("add_ons", [])), add["name"]],
        }
        if size.get("label"):
            bigger["label"] = size["label"]
        keep_size(out, bigger)


def fits(total: int, models: list[ImportedModel], alts: list[Entries]) -> list[dict[str, int]]:
    """Per-model counts of a unit of ``total`` models for each composition alternative that
    can have that many (the first alternative when none can)."""
    fitting = [a for a in alts if sum(e.low for e in a) <= total <= sum(e.high for e in a)]
    return [_counts(total, models, a) for a in fitting or alts[:1] or [[]]]


def _counts(total: int, models: list[ImportedModel], alt: Entries) -> dict[str, int]:
    """Per-model counts of a unit of ``total`` models of one composition alternative:
    minimums first, then the remainder to the most numerous (rank-and-file) model, then to the
    others in order."""
    pairs = [(e.name, e.low, e.high) for e in alt] or [(m.name, m.low, m.high) for m in models]
    counts: dict[str, int] = {}
    limits: dict[str, int] = {}
    for name, low, high in pairs:
        found = find(name, [m.name for m in models])
        if found is not None:
            model = models[found]
            counts[model.name] = counts.get(model.name, 0) + low
            limits[model.name] = limits.get(model.name, 0) + high
    left = total - sum(counts.values())
    for name in sorted(counts, key=lambda n: -limits[n]):
        add = min(left, limits[name] - counts[name])
        counts[name] += add
        left -= add
    if left > 0 and counts:
        first = max(counts, key=lambda n: limits[n])
        counts[first] += left
    return {n: c for n, c in counts.items() if c > 0}


def _explicit(text: str, models: list[ImportedModel]) -> dict[str, int] | None:
    counts: dict[str, int] = {}
    for e in entries(text):
        found = find(e.name, [m.name for m in models])
        if found is None:
            return None
        model = models[found]
        counts[model.name] = counts.get(model.name, 0) + e.low
    return counts or None

"""Models, unit composition, statlines and unit sizes of one datasheet of the export.

The unit composition lines give the model names and how many of each (``1 Boss Nob``,
``9-19 Boyz``, alternatives separated by ``OR``); the statline rows give M/T/Sv/W/Ld/OC and the
invulnerable save; the cost rows give the sizes and their points. Where two cost rows have the
same number of models (dual pricing, a repeated row), the first price is kept and the others
are returned for the file to record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..datasheet import norm_name
from .export import Export, html_to_text
from .names import find, nice_case, same_name, singular
from .weapons import to_int


@dataclass
class ImportedModel:
    """One model of the unit while it is being imported: its name and count range, its
    statline row, its own keywords, default equipment (weapon names) and the non-weapon
    wargear it carries by default (names)."""

    name: str
    low: int
    high: int
    stats: dict[str, str] | None = None
    keywords: list[str] = field(default_factory=list)
    equipped: list[str] | None = None
    wargear: list[str] = field(default_factory=list)


Entries = list[tuple[str, int, int]]  # (model name, min, max) of one composition line


_ENTRY_RE = re.compile(r"^(\d+)(?:\s*[-\u2010\u2011\u2013]\s*(\d+))?\s+(.+)$")


def _entries(text: str) -> Entries:
    """``'1 Spanner and 4 Lootas'`` -> [('Spanner', 1, 1), ('Loota', 4, 4)]."""
    text = re.sub(r"\s*[\u2013-]\s*EPIC HERO\s*$", "", text).strip().rstrip(".*:").strip()
    out = []
    for part in re.split(r"(?:,|\s+and)\s+(?=\d)", text):
        m = _ENTRY_RE.match(part.strip().rstrip("*").strip())
        if not m:
            return []
        low = int(m.group(1))
        high = int(m.group(2) or low)
        name = m.group(3).strip()
        out.append((singular(name) if high > 1 else name, low, high))
    return out


def _composition(rows: list[dict[str, str]], warnings: list[str]) -> list[Entries]:
    """Alternatives (separated by 'OR' lines) of (model name, min, max) entries."""
    alts: list[Entries] = [[]]
    for row in rows:
        text = html_to_text(row["description"]).split("\n")[0].strip()
        if text.lower().rstrip(":") == "or":
            alts.append([])
            continue
        if re.search(r"\bmaximum\b", text, re.IGNORECASE):
            continue  # "10 MODELS MAXIMUM": the sizes say it already
        found = _entries(text)
        if found:
            alts[-1].extend(found)
        elif text and not re.match(r"^[A-Z][\w\s\u2019'-]*$", text):
            warnings.append("a unit composition line was not understood")
        elif text:
            alts[-1].append((text, 1, 1))  # a model named without a count: one of it
    return [a for a in alts if a]


def read_models(
    export: Export, sheet: dict[str, str], warnings: list[str]
) -> tuple[list[ImportedModel], list[Entries]]:
    """The unit's models with their statline rows, and the composition alternatives."""
    lines = sorted(
        export.rows("Datasheets_models.csv", sheet["id"]), key=lambda r: to_int(r["line"])
    )
    alts = _composition(export.rows("Datasheets_unit_composition.csv", sheet["id"]), warnings)
    models: list[ImportedModel] = []
    for alt in alts:
        for name, low, high in alt:
            known = next((m for m in models if same_name(m.name, name)), None)
            if known:
                known.low, known.high = min(known.low, low), max(known.high, high)
            else:
                models.append(ImportedModel(name, low, high))
    if not models:
        warnings.append("unit composition not found; one model per statline line")
        models = [ImportedModel(nice_case(r["name"]), 1, 1) for r in lines]
    for m in models:
        found = find(m.name, [r["name"] for r in lines])
        line = lines[found] if found is not None else None
        if line is None and len(lines) == 1:
            line = lines[0]
        if line is None:
            line = next((r for r in lines if norm_name(r["name"]) == "othermodels"), None)
        if line is None and lines:
            warnings.append(f"no statline named {m.name!r}; used {nice_case(lines[0]['name'])!r}")
            line = lines[0]
        m.stats = line
    for r in lines:
        if (
            len(lines) > 1
            and norm_name(r["name"]) != "othermodels"
            and not any(same_name(r["name"], m.name) for m in models)
        ):
            warnings.append(
                f"statline {nice_case(r['name'])!r} is not in the unit composition; not imported"
            )
    return [m for m in models if m.stats is not None], alts


def statline(m: ImportedModel, warnings: list[str], not_modelled: list[str]) -> dict[str, object]:
    """The model's characteristics and invulnerable save in the datasheet format. The
    invulnerable save's note is read for 'against ranged attacks' (``invuln_ranged_only``),
    'X model only' / 'excluding X' (which models have it) and a better save against melee
    attacks (not modelled: listed in ``not_modelled``)."""
    row = m.stats or {}
    move = row["M"].strip().replace('"', "")
    out: dict[str, object] = {
        "name": m.name,
        "M": int(move) if move.isdigit() else (0 if move in ("-", "") else move),
        "T": to_int(row["T"]),
        "Sv": 7 if row["Sv"].strip() in ("-", "") else to_int(row["Sv"]),
        "W": to_int(row["W"]),
        "Ld": to_int(row["Ld"]),
        "OC": to_int(row["OC"]),
    }
    if "*" in row["T"]:
        warnings.append(f"{m.name}: toughness {row['T']!r} has a footnote; imported as {out['T']}")
    inv = row["inv_sv"].strip()
    if inv not in ("", "-"):
        _invuln(out, m.name, to_int(inv), html_to_text(row.get("inv_sv_descr", "")), warnings)
        if out.pop("_melee_better", False):
            not_modelled.append("invulnerable save against melee attacks")
    return out


def _invuln(out: dict[str, object], model: str, value: int, note: str, warnings: list[str]):
    low = note.lower()
    only = re.search(r"^\W*(.+?) models? only\b|^\W*(.+?) only\.?$", note, re.IGNORECASE)
    excluding = re.search(r"excluding (?:the )?(.+?)\.?$", note, re.IGNORECASE)
    if only and "attacks" not in low:
        who = only.group(1) or only.group(2)
        if not same_name(who, model) and find(who, [model]) is None:
            warnings.append(f"{model}: the invulnerable save is for {who} only: not imported")
            return
    if excluding and find(excluding.group(1), [model]) is not None:
        warnings.append(f"{model}: the invulnerable save excludes this model: not imported")
        return
    if "melee attacks" in low and "improved" not in low and "only" not in low:
        out["_melee_better"] = True  # an invulnerable save against melee attacks only
        warnings.append(f"{model}: invulnerable save against melee attacks only: not imported")
        return
    out["invuln"] = value
    if "against ranged attacks" in low:
        out["invuln_ranged_only"] = True
    elif "melee attacks" in low:
        out["_melee_better"] = True
        warnings.append(f"{model}: a better invulnerable save against melee attacks: not modelled")
    elif note and not re.search(r"only\b|excluding", low):
        warnings.append(f"{model}: the invulnerable save's note is not modelled")


def read_sizes(
    export: Export,
    sheet: dict[str, str],
    models: list[ImportedModel],
    alts: list[Entries],
    warnings: list[str],
) -> tuple[list[dict[str, object]], list[str]]:
    """The unit sizes with their points, one per number of models (the first cost row listed
    for that number), and the other cost rows as ``'<description>: <points>'`` texts."""
    rows = export.rows("Datasheets_models_cost.csv", sheet["id"])
    sizes: list[dict[str, object]] = []
    others: list[str] = []
    totals: list[int] = []
    for row in rows:
        text = html_to_text(row["description"])
        try:
            points = to_int(row["cost"])
        except ValueError:
            warnings.append(f"size {text!r} skipped: points {row['cost']!r}")
            continue
        plain = re.sub(r"\s*\(.*?\)\s*", " ", text).strip()
        m = re.match(r"^(\d+)\s+models?\b", plain)
        counts = _counts(int(m.group(1)), models, alts) if m else _explicit(plain, models)
        if counts is None:
            warnings.append(f"size {text!r} not understood; skipped")
            continue
        total = sum(counts.values())
        if total in totals:
            others.append(f"{text}: {points}")
            continue
        totals.append(total)
        sizes.append({"models": counts, "points": points})
    if others:
        warnings.append(
            "a second price for the same number of models is not imported (the first listed "
            f"is kept): {'; '.join(others)}"
        )
    return sizes, others


def _counts(total: int, models: list[ImportedModel], alts: list[Entries]) -> dict[str, int]:
    """Per-model counts of a unit of ``total`` models: minimums first, then the remainder to the
    most numerous (rank-and-file) model, then to the others in order."""
    entries = next(
        (a for a in alts if sum(e[1] for e in a) <= total <= sum(e[2] for e in a)),
        alts[0] if alts else [(m.name, m.low, m.high) for m in models],
    )
    counts: dict[str, int] = {}
    limits: dict[str, int] = {}
    for name, low, high in entries:
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
    for name, low, _ in _entries(text):
        found = find(name, [m.name for m in models])
        if found is None:
            return None
        model = models[found]
        counts[model.name] = counts.get(model.name, 0) + low
    return counts or None


def read_keywords(
    export: Export, sheet: dict[str, str], models: list[ImportedModel], warnings: list[str]
) -> tuple[list[str], list[str]]:
    """(unit keywords, faction keywords); a keyword for one model goes to that model."""
    unit: list[str] = []
    faction: list[str] = []
    for row in export.rows("Datasheets_keywords.csv", sheet["id"]):
        kw = " ".join(html_to_text(row["keyword"]).upper().split())
        if not kw:
            continue
        if row["is_faction_keyword"].strip().lower() == "true":
            if kw not in faction:
                faction.append(kw)
            continue
        who = re.sub(r"\s+(ONLY|MODELS?)$", "", " ".join(row["model"].upper().split()))
        target = None
        if who not in ("", "ALL") and len(models) > 1:
            found = find(who, [m.name for m in models])
            target = models[found] if found is not None else None
            if target is None:
                warnings.append(
                    f"keyword {kw} is for {row['model'].strip()!r}, not a model of "
                    "this unit: kept as a unit keyword"
                )
        if target is not None:
            if kw not in target.keywords:
                target.keywords.append(kw)
        elif kw not in unit:
            unit.append(kw)
    return unit, faction

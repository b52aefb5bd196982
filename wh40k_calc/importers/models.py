"""Models and statlines of one datasheet of the export.

The unit composition lines (``composition``) give the model names and how many of each; the
statline rows give M/T/Sv/W/Ld/OC and the invulnerable save, one row for one or several models
(``Farstalkers & Kill-broker``); the keyword rows give unit, model and faction keywords. The
cost rows are read in ``sizes``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..datasheet import norm_name
from .composition import Entries, composition
from .export import Export, html_to_text
from .names import find, key, nice_case, same_name
from .weapons import to_int


@dataclass
class ImportedModel:
    """One model of the unit while it is being imported: its name and count range, its
    statline row, its own keywords, default equipment (weapon names) and the non-weapon
    wargear it carries by default (names); ``by_count`` the equipment of some of these models
    only ((count, weapon names, wargear names): "1 X is equipped with ..."); ``parts`` the
    sections a model is made of (name -> how many: a fortification's towers)."""

    name: str
    low: int
    high: int
    stats: dict[str, str] | None = None
    keywords: list[str] = field(default_factory=list)
    equipped: list[str] | None = None
    wargear: list[str] = field(default_factory=list)
    parts: tuple[tuple[str, int], ...] = ()
    by_count: list[tuple[int, list[str], list[str]]] = field(default_factory=list)
    # the equipment another wargear option lets any number of these models swap to (a
    # Voidreaver's shuriken rifle): what an option replacing a weapon none carries by default
    # replaces (:func:`~wh40k_calc.importers.loadouts.generate_loadouts`)
    gained: tuple[tuple[str, ...], ...] = ()


def models_of(alts: list[Entries]) -> list[ImportedModel]:
    """The unit's models from its composition alternatives: one per model name (plural
    tolerant) with the fewest and most of it over every alternative."""
    models: list[ImportedModel] = []
    for alt in alts:
        for e in alt:
            known = next((m for m in models if same_name(m.name, e.name)), None)
            if known:
                known.low, known.high = min(known.low, e.low), max(known.high, e.high)
            else:
                models.append(ImportedModel(e.name, e.low, e.high, parts=e.parts))
    return models


def finish_row(row: dict, m: ImportedModel, extra: dict) -> dict:
    """A model's datasheet row completed with the defensive fields its abilities gave
    (``extra``: Feel No Pain, Stealth, damage reduction, half damage), its own keywords and
    its default equipment (all and by count); the same in both importers."""
    for k in ("feel_no_pain", "feel_no_pain_mortal", "feel_no_pain_psychic"):
        if extra.get(k) is not None:
            row[k] = extra[k]
    for k in ("stealth", "damage_reduction", "half_damage"):
        if extra.get(k):
            row[k] = extra[k]
    if m.keywords:
        row["keywords"] = m.keywords
    row["equipped"] = m.equipped or []
    if m.by_count:
        row["equipped_by_count"] = [{"count": n, "equipped": names} for n, names, _ in m.by_count]
    return row


def read_models(
    export: Export, sheet: dict[str, str], warnings: list[str]
) -> tuple[list[ImportedModel], list[Entries]]:
    """The unit's models with their statline rows, and the composition alternatives."""
    lines = sorted(
        export.rows("Datasheets_models.csv", sheet["id"]), key=lambda r: to_int(r["line"])
    )
    alts = composition(export.rows("Datasheets_unit_composition.csv", sheet["id"]), warnings)
    models = models_of(alts)
    if not models:
        warnings.append("unit composition not found; one model per statline line")
        models = [ImportedModel(nice_case(r["name"]), 1, 1) for r in lines]
    match_statlines(models, lines, warnings)
    return [m for m in models if m.stats is not None], alts


def _line_names(row: dict[str, str]) -> list[str]:
    """The names a statline row is for: its own, and each of several it lists
    (``Farstalkers & Kill-broker``, ``Combat Servitors and Gun Servitors``, ``A/B``)."""
    whole = row["name"]
    parts = [p for p in re.split(r"\s*(?:&|/|\band\b)\s*", whole, flags=re.IGNORECASE) if p]
    return [whole] + (parts if len(parts) > 1 else [])


def _named_line(name: str, lines: list[dict[str, str]]) -> int | None:
    """The statline row named after model ``name``: the same name (plural tolerant), else the
    only row whose name contains it or is contained in it; None when there is none."""
    names = [(i, n) for i, r in enumerate(lines) for n in _line_names(r)]
    same = sorted({i for i, n in names if same_name(name, n)})
    if same:
        return same[0]
    k = key(name)
    near = {i for i, n in names if k and key(n) and (k in key(n) or key(n) in k)}
    return near.pop() if len(near) == 1 else None


def match_statlines(
    models: list[ImportedModel], lines: list[dict[str, str]], warnings: list[str]
) -> None:
    """Give each model its statline row: the row named after it; the only row when there is
    one; an 'Other models' row; else, where the rows named after no model are as many as the
    models without a row, those rows in order (``Lesk’s Veterans`` for the ``Lesk’s Heroes``);
    else the first row, with a warning. Rows no model takes are reported."""
    other = next((r for r in lines if norm_name(r["name"]) == "othermodels"), None)
    for m in models:
        found = _named_line(m.name, lines)
        if found is not None:
            m.stats = lines[found]
        elif len(lines) == 1 or other is not None:
            m.stats = lines[0] if len(lines) == 1 else other
    used = {id(m.stats) for m in models if m.stats is not None}
    spare = [r for r in lines if id(r) not in used and r is not other]
    missing = [m for m in models if m.stats is None]
    if missing and len(spare) == len(missing):
        for m, r in zip(missing, spare, strict=True):
            m.stats = r
            warnings.append(
                f"statline {nice_case(r['name'])!r} used for {m.name!r} (the only statline "
                "named after no model of the unit composition)"
                if len(spare) == 1
                else f"statline {nice_case(r['name'])!r} used for {m.name!r} (statlines named "
                "after no model, taken in order)"
            )
        spare = []
    for m in models:
        if m.stats is None and lines:
            warnings.append(f"no statline named {m.name!r}; used {nice_case(lines[0]['name'])!r}")
            m.stats = lines[0]
    for r in spare:
        warnings.append(
            f"statline {nice_case(r['name'])!r} is not in the unit composition; not imported"
        )


def statline(m: ImportedModel, warnings: list[str], not_modelled: list[str]) -> dict[str, object]:
    """The model's characteristics and invulnerable save in the datasheet format. The
    invulnerable save's note is read for 'against ranged attacks' (``invuln_ranged_only``),
    'X model only' / 'excluding X' (which models have it) and a save against melee attacks
    (only those, ``invuln_melee_only``, or a better one against them, ``invuln_melee``)."""
    row = m.stats or {}
    move = row["M"].strip().replace('"', "")
    out: dict[str, object] = {
        "name": m.name,
        "M": int(move) if move.isdigit() else (None if move in ("-", "") else move),
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
        invuln_note(out, m.name, to_int(inv), html_to_text(row.get("inv_sv_descr", "")), warnings)
    return out


def invuln_note(out: dict[str, object], model: str, value: int, note: str, warnings: list[str]):
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
    if "melee attacks" in low:
        # "improved to 4+ against melee attacks", "4+ against melee attacks only": a better
        # save against melee attacks besides this one; "has a 4+ invulnerable save against
        # melee attacks": this one, against melee attacks only
        better = re.search(r"([2-6])\+", note)
        if better and int(better.group(1)) < value:
            out["invuln"] = value
            out["invuln_melee"] = int(better.group(1))
        else:
            out["invuln"] = value
            out["invuln_melee_only"] = True
        return
    out["invuln"] = value
    if "against ranged attacks" in low:
        out["invuln_ranged_only"] = True
    elif note and not re.search(r"only\b|excluding", low):
        warnings.append(f"{model}: the invulnerable save's note is not modelled")


def put_invuln(row: dict, general: int | None, ranged: int | None, melee: int | None) -> None:
    """A model's invulnerable saves in the format: the general one as ``invuln`` and a better
    one against ranged or melee attacks as ``invuln_ranged`` / ``invuln_melee`` (Howling
    Banshees: 5+, 4+ against melee attacks); a save against one kind of attack only as
    ``invuln`` with ``invuln_ranged_only`` / ``invuln_melee_only``, or, one for each kind, as
    ``invuln_ranged`` and ``invuln_melee``."""
    if general is not None:
        row["invuln"] = general
        for value, kind in ((ranged, "ranged"), (melee, "melee")):
            if value is not None and value < general:
                row[f"invuln_{kind}"] = value
    elif ranged is not None and melee is not None:
        row["invuln_ranged"] = ranged
        row["invuln_melee"] = melee
    elif ranged is not None:
        row["invuln"] = ranged
        row["invuln_ranged_only"] = True
    elif melee is not None:
        row["invuln"] = melee
        row["invuln_melee_only"] = True


def take_invulns(row: dict) -> tuple[int | None, int | None, int | None]:
    """The invulnerable saves a model row holds, removed from it: (against every attack,
    against ranged attacks, against melee attacks), as :func:`put_invuln` writes them back."""
    value = row.pop("invuln", None)
    ranged_only = row.pop("invuln_ranged_only", False)
    melee_only = row.pop("invuln_melee_only", False)
    ranged, melee = row.pop("invuln_ranged", None), row.pop("invuln_melee", None)
    if ranged_only:
        return None, value, melee
    if melee_only:
        return None, ranged, value
    return value, ranged, melee


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

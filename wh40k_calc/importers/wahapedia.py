"""Import one datasheet from the 10th-edition datasheet CSV export.

:func:`import_unit` finds a datasheet by name and :func:`import_sheet` converts one datasheet
row into a dict that follows the datasheet YAML contract (DATASHEET_FORMAT.md, part 1), with a
list of warnings for what it guessed or left out; :func:`~.yaml_out.to_yaml` writes it out. The
pieces live in their own modules: ``export`` (reading the files), ``weapons``, ``models``,
``equipment`` (default equipment), ``unit_abilities`` and ``loadouts`` (wargear options).
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from ..datasheet import DatasheetError, norm_name, parse_datasheet
from .composition import unit_name
from .equipment import read_equipment
from .export import (
    Export,
    ImportFailure,
    clean_name,
    html_to_text,
    load_export,
    read_table,
    slug,
    weapon_abilities,
)
from .leaders import read_leaders
from .loadouts import generate_loadouts, write_options
from .models import (
    ImportedModel,
    finish_row,
    put_invuln,
    read_keywords,
    read_models,
    statline,
    take_invulns,
)
from .names import same_name
from .sizes import Sizes, read_sizes
from .unit_abilities import Context, UnitAbilities, read_unit_abilities, wargear_names
from .unit_rules import Collected
from .weapons import DASH_RE, ImportedWeapon, read_weapons
from .yaml_out import to_yaml

__all__ = [
    "ImportFailure",
    "html_to_text",
    "import_sheet",
    "import_sheet_notes",
    "import_unit",
    "read_table",
    "slug",
    "to_yaml",
    "weapon_abilities",
]

PLACEHOLDERS = frozenset({"examplewargear"})  # the export's placeholder datasheet


# ---------------------------------------------------------------------------------------------
# Finding the datasheet


def _find_sheet(export: Export, name: str, faction: str | None) -> tuple[dict[str, str], list]:
    key = norm_name(name)
    matches = [d for d in export.sheets if norm_name(d["name"]) == key]
    warnings: list[str] = []
    if faction:
        fkey = norm_name(faction)
        known = {
            fid
            for fid, fname in export.factions.items()
            if norm_name(fid) == fkey or norm_name(fname) == fkey
        }
        if not known:
            from ..fuzzy import suggest

            close = suggest(faction, list(export.factions.values()), limit=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise ImportFailure(
                f"unknown faction {faction!r}{hint} (factions: "
                f"{', '.join(sorted(export.factions.values()))})"
            )
        in_faction = [d for d in matches if d["faction_id"] in known]
        if matches and not in_faction:
            where = ", ".join(sorted({export.faction_label(d["faction_id"]) for d in matches}))
            raise ImportFailure(f"{name!r} is not a datasheet of {faction}; it exists in: {where}")
        matches = in_faction
    if not matches:
        raise ImportFailure(f"no datasheet named {name!r}{_suggest(export, name)}")
    faction_ids = sorted({d["faction_id"] for d in matches})
    if len(faction_ids) > 1:
        where = ", ".join(export.faction_label(f) for f in faction_ids)
        raise ImportFailure(
            f"{name!r} exists in several factions: {where}; choose one with --faction (name or id)"
        )
    if len(matches) > 1:
        warnings.append(
            f"{len(matches)} datasheets named {matches[0]['name']!r} "
            f"(ids {', '.join(d['id'] for d in matches)}); imported the first"
        )
    return matches[0], warnings


def _suggest(export: Export, name: str) -> str:
    """The export's datasheet names like ``name``, ranked as ``calc units TEXT`` ranks them
    (:func:`wh40k_calc.fuzzy.like`), as a clause: the first six."""
    from ..fuzzy import like

    picks = like(name, sorted({d["name"] for d in export.sheets}), limit=6)
    return f"; did you mean: {', '.join(picks)}?" if picks else ""


def import_unit(csv_dir: Path, name: str, faction: str | None = None) -> tuple[dict, list[str]]:
    """Convert the datasheet called ``name`` of the CSV export into datasheet-format data.

    Args:
        csv_dir: the export folder (holds ``Datasheets.csv`` and the others).
        name: the datasheet's name; case and punctuation are ignored.
        faction: a faction name or id (``Astra Militarum``, ``AM``) for names that several
            factions use.

    Returns:
        ``(data, warnings)`` as :func:`import_sheet` gives them.

    Raises:
        ImportFailure: the export cannot be read; the name is unknown (with suggestions) or used
            by several factions (listing them); the faction is unknown; or the datasheet is the
            export's placeholder.
    """
    export = load_export(str(Path(csv_dir).resolve()))
    sheet, warnings = _find_sheet(export, name, faction)
    data, more = import_sheet(export, sheet)
    return data, warnings + more


# ---------------------------------------------------------------------------------------------
# The whole datasheet


def _twin(export: Export, sheet: dict[str, str]) -> dict[str, str] | None:
    """The datasheet of the same name in another faction that lists weapons (Astra Militarum
    units in Genestealer Cults, ...), or None."""
    return next(
        (
            d
            for d in export.sheets
            if d["name"] == sheet["name"]
            and d is not sheet
            and export.rows("Datasheets_wargear.csv", d["id"])
        ),
        None,
    )


def _weapons_and_equipment(
    export: Export, sheet: dict[str, str], models: list[ImportedModel], warnings: list[str]
) -> tuple[list[ImportedWeapon], list[str]]:
    """The datasheet's weapons, and each model's default equipment. A datasheet that lists no
    weapons, or not those its models carry, takes them from its twin in another faction.
    Returns the weapons and the loadout's items that match no weapon nor wargear."""
    rows = export.rows("Datasheets_wargear.csv", sheet["id"])
    twin = _twin(export, sheet)
    if not rows and twin is not None:
        rows = export.rows("Datasheets_wargear.csv", twin["id"])
        warnings.append(
            f"no weapons listed under this faction: weapons taken from the "
            f"{export.faction_label(twin['faction_id'])} datasheet {twin['id']}"
        )
        twin = None
    gear = wargear_names(export, sheet)
    trial: list[str] = []
    weapons = read_weapons(rows, trial)
    near, missing = read_equipment(sheet.get("loadout", ""), models, weapons, gear, trial)
    borrowed = []
    if missing and twin is not None:
        borrowed = [
            r
            for r in export.rows("Datasheets_wargear.csv", twin["id"])
            if any(same_name(DASH_RE.split(r["name"])[0], item) for item in missing)
        ]
    if borrowed:
        for m in models:
            m.equipped, m.wargear = None, []
        trial = [
            f"weapons {', '.join(sorted({clean_name(r['name']) for r in borrowed}))} taken from "
            f"the {export.faction_label(twin['faction_id'])} datasheet {twin['id']}"  # type: ignore[index]
        ]
        weapons = read_weapons(rows + borrowed, trial)
        near, missing = read_equipment(sheet.get("loadout", ""), models, weapons, gear, trial)
    warnings += trial
    warnings += [f"equipment {n.printed!r} matched to weapon {n.weapon!r} ({n.how})" for n in near]
    if not weapons:
        warnings.append("the export lists no weapon for this datasheet")
    return weapons, missing


def import_sheet(
    export: Export, sheet: dict[str, str], name: str | None = None
) -> tuple[dict, list[str]]:
    """:func:`import_sheet_notes` without the notes: ``(data, warnings)``."""
    data, warnings, _ = import_sheet_notes(export, sheet, name)
    return data, warnings


def import_sheet_notes(
    export: Export,
    sheet: dict[str, str],
    name: str | None = None,
    collect: Collected | None = None,
) -> tuple[dict, list[str], list[str]]:
    """Convert one datasheet row of ``export`` into datasheet-format data.

    Args:
        export: the export (``export.load_export``).
        sheet: its row of Datasheets.csv.
        name: the name to give the unit (default: the datasheet's own), for a second datasheet
            of the same name in one faction.
        collect: where to add the abilities read as effect records, (name, record body),
            and the census of its abilities (:class:`.unit_rules.Collected`); ``data["rules"]``
            names the records by their names slugged.

    Returns:
        ``(data, warnings, notes)``: ``data`` is accepted by
        :func:`wh40k_calc.datasheet.parse_datasheet`; ``warnings`` lists what was guessed or
        left out, one sentence each (names and numbers only, no text of the export); ``notes``
        says which wargear options were not generated as loadouts and why.

    Raises:
        ImportFailure: the placeholder datasheet, a datasheet without any statline, or a result
            that does not fit the datasheet format.
    """
    warnings: list[str] = []
    if norm_name(sheet["name"]) in PLACEHOLDERS:
        raise ImportFailure(f"{sheet['name']} ({sheet['id']}) is the export's placeholder")
    faction_name = export.factions.get(sheet["faction_id"], sheet["faction_id"])
    models, alts = read_models(export, sheet, warnings)
    if not models:
        raise ImportFailure(f"{sheet['name']} ({sheet['id']}): no model statline in the export")
    unit_kw, faction_kw = read_keywords(export, sheet, models, warnings)
    weapons, missing = _weapons_and_equipment(export, sheet, models, warnings)
    costs = read_sizes(export, sheet, models, alts, warnings)
    sizes = costs.sizes
    # allocation order: rank-and-file (most numerous) first, CHARACTER models last
    models.sort(key=lambda m: ("CHARACTER" in m.keywords, -m.high))
    for size in sizes + costs.dropped:
        counts = cast(dict[str, int], size["models"])
        size["models"] = {m.name: counts[m.name] for m in models if m.name in counts}
    context = Context(
        character="CHARACTER" in unit_kw,
        weapons=frozenset(str(w.data["name"]).lower() for w in weapons),
        keywords=export.keywords,
        edition="10",
    )
    abilities = read_unit_abilities(export, sheet, models, warnings, context)
    abilities.without_profile(missing, warnings)
    if collect is not None:
        collect.records += abilities.generated
        collect.census += abilities.census
    data: dict[str, object] = {
        "name": name or unit_name(export, sheet),
        "faction": faction_name,
        "keywords": unit_kw,
        "faction_keywords": faction_kw,
        "models": [_model_row(m, abilities, warnings) for m in models],
        "sizes": sizes,
        "weapons": [w.data for w in weapons],
    }
    _add_costs(data, costs)
    notes: list[str] = []
    _add_loadouts(data, export, sheet, models, weapons, sizes, notes)
    _add_abilities(data, abilities)
    data.update(read_leaders(export, sheet))
    data["source"] = _source(export, sheet, faction_name)
    try:
        parse_datasheet(data, f"<{sheet['name']}>")
    except DatasheetError as exc:
        raise ImportFailure(
            f"{sheet['name']} ({sheet['id']}) does not fit the datasheet format: {exc}"
        ) from None
    return data, warnings, notes


def _add_costs(data: dict, costs: Sizes) -> None:
    """The cost rows' facts besides the sizes: points not listed, dropped sizes, add-ons."""
    if not costs.listed:
        data["points_listed"] = False
    if costs.dropped:
        data["dropped_sizes"] = costs.dropped
    if costs.add_ons:
        data["add_ons"] = costs.add_ons


def _model_row(m: ImportedModel, abilities: UnitAbilities, warnings: list[str]) -> dict:
    """One model in the datasheet format, with the fields its abilities give."""
    not_modelled: list[str] = []
    row = statline(m, warnings, not_modelled)
    for name in not_modelled:
        abilities.not_modelled_on({"target"}, name)
    extra = abilities.model_fields.get(m.name, {})
    _merge_invuln(row, extra.get("invuln"), extra.get("invuln_ranged"))
    return finish_row(row, m, extra)


def _merge_invuln(row: dict, general: object, ranged: object) -> None:
    """The best invulnerable saves from the statline's and the abilities' (a general one, and
    one against ranged attacks only), as :func:`.models.put_invuln` writes them."""
    own_general, own_ranged, own_melee = take_invulns(row)
    put_invuln(row, _best(own_general, general), _best(own_ranged, ranged), own_melee)


def _best(a: object, b: object) -> int | None:
    found = [int(v) for v in (a, b) if v is not None]  # type: ignore[call-overload]
    return min(found) if found else None


def _add_loadouts(
    data: dict,
    export: Export,
    sheet: dict[str, str],
    models: list[ImportedModel],
    weapons: list,
    sizes: list[dict[str, object]],
    notes: list[str],
) -> None:
    largest = max(sizes, key=lambda s: sum(cast(dict[str, int], s["models"]).values()))
    max_counts = dict(largest["models"])  # type: ignore[call-overload]
    rows = export.rows("Datasheets_options.csv", sheet["id"])
    options = generate_loadouts(rows, models, weapons, max_counts)
    write_options(data, options, models, sizes, notes)


def _add_abilities(data: dict, abilities: UnitAbilities) -> None:
    if abilities.damaged is not None:
        data["damaged"] = abilities.damaged
    if abilities.rules:
        data["rules"] = abilities.rules
    if abilities.leaders_allowed:
        data["leaders_allowed"] = abilities.leaders_allowed
    nm = {side: names for side, names in abilities.not_modelled.items() if names}
    if nm:
        data["not_modelled"] = nm


def _source(export: Export, sheet: dict[str, str], faction_name: str) -> str:
    publication = export.source_name(sheet.get("source_id", ""))
    return (
        f"{export.dir.name} CSV export, datasheet {sheet['id']} ({faction_name} "
        f"\u2013 {unit_name(export, sheet)})" + (f", {publication}" if publication else "")
    )

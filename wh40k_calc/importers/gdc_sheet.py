"""One edition-11 datasheet of a game-datacards faction file, converted into the datasheet
format (DATASHEET_FORMAT.md, part 1) with ``edition: 11``.

The data's pieces are given the shapes the 10th-edition importer reads, and its readers do the
rest (one reading of composition lines, statlines, weapon profiles, loadout text, wargear
options and unit sizes for both sources):

* ``composition`` (``**1 Boss Nob**``, ``**9-19 Boyz**``, ``OR``) ->
  :func:`.composition.composition`;
* ``stats`` (one line a model type) -> :func:`.models.match_statlines` and ``statline``;
* ``rangedWeapons``/``meleeWeapons`` (each weapon a list of ``profiles``: ``Choppa –
  Standard``, ``Choppa – Hunter`` become profiles of one weapon, ``profile_of``) ->
  :func:`.weapons.read_weapons`, each profile's ``keywords`` kept as its ability strings, lower
  case (``lethal hits: non-monster/vehicle``);
* ``loadout`` (``**Every Boy is equipped with:** slugga; choppa.``) -> :func:`.equipment.
  read_equipment`; ``wargear`` (the options' text) -> :func:`.loadouts.generate_loadouts`;
* ``points`` (cost per number of models; a cost for a keyword or a detachment is kept as a
  labelled, not selectable size) -> unit sizes; ``additionalCost`` -> ``additional_cost``;
* ``abilities`` -> :mod:`.gdc_abilities`; ``leader`` and the Support rule -> ``leader_of`` and
  ``support_of``, the units named as their datasheets spell them.

Legends datasheets (``legends: true`` on the datasheet, as game-datacards marks them; data 912
has none) are kept and marked ``legends: true``. Facts only: names, numbers, keywords and
ability names, never the text.
"""

from __future__ import annotations

import re
from typing import Any, cast

from ..datasheet import DatasheetError, norm_name, parse_datasheet
from .composition import Entries, composition
from .equipment import loadout_items, read_equipment
from .export import ImportFailure
from .gdc import SOURCE, FactionFile, gdc_name, plain, text
from .gdc_abilities import attachable_units, read_gdc_abilities
from .gdc_equipment import link_equipment
from .gdc_shape import check_sheet
from .leaders import leader_alongside
from .loadouts import generate_loadouts, write_options
from .models import (
    ImportedModel,
    finish_row,
    invuln_note,
    match_statlines,
    models_of,
    put_invuln,
    statline,
)
from .names import nice_case
from .sizes import Sizes, fits, keep_size, unlisted, unused_alternatives
from .unit_abilities import Context, UnitAbilities
from .unit_rules import Collected
from .weapons import DASH_RE, ImportedWeapon, read_weapons, to_int

EPIC_HERO = re.compile(r"\s*[\u2013\u2014-]\s*epic hero\s*$", re.IGNORECASE)
_COUNTED = re.compile(r"^\d")


def is_legends(sheet: dict[str, Any]) -> bool:
    """Whether game-datacards marks a datasheet as Warhammer Legends (``legends: true``, or
    the name tagged ``[Legends]``/``(Legends)``)."""
    flag = sheet.get("legends")
    if flag is True or (isinstance(flag, str) and flag.strip().lower() == "true"):
        return True
    return bool(re.search(r"[\[(]legends[\])]", gdc_name(sheet.get("name")), re.IGNORECASE))


def import_gdc_sheet(
    faction: FactionFile,
    sheet: dict[str, Any],
    name: str,
    units: dict[str, str],
    collect: Collected | None = None,
    data_keywords: frozenset[str] = frozenset(),
) -> tuple[dict[str, Any], list[str], list[str]]:
    """Convert one datasheet of ``faction`` into datasheet-format data.

    Args:
        faction: the faction file it is in.
        sheet: the datasheet (raw JSON).
        name: the name to give the unit (its own, or a tagged one for a second datasheet of
            the same name in the file).
        units: normalised name -> name of every unit of the data (to spell the units a
            Leader or Support character can join as their datasheets do).
        collect: where to add the abilities read as effect records and the census (as
            :func:`.wahapedia.import_sheet_notes`).
        data_keywords: every keyword of the data (to split a run of keywords in an ability).

    Returns:
        ``(data, warnings, notes)`` as :func:`.wahapedia.import_sheet_notes` gives them:
        ``data`` is accepted by :func:`wh40k_calc.datasheet.parse_datasheet`.

    Raises:
        ImportFailure: a field of the wrong shape, or a number (a statline's, a weapon's,
            points, an added cost) that is not one or is out of range
            (:func:`.gdc_shape.check_sheet`, naming the field); no statline; or a result that
            does not fit the datasheet format.
    """
    warnings: list[str] = []
    label = f"{faction.path.name}: {name}"
    check_sheet(sheet, label)
    lines = [plain(text(c)) for c in sheet.get("composition") or []]
    models, alts = _models(sheet, lines, warnings)
    if not models:
        raise ImportFailure(f"{label}: no model statline")
    keywords = _keywords(sheet)
    faction_keywords = [gdc_name(f).upper() for f in sheet.get("factions") or [] if gdc_name(f)]
    unit_keywords = [k for k in keywords if k not in faction_keywords]
    unit_keywords = _character_models(name, unit_keywords, models, warnings)
    trial: list[str] = []
    weapons = read_weapons(_weapon_rows(sheet), trial)
    _name_sides(weapons)
    abilities_raw = sheet.get("abilities")
    if not isinstance(abilities_raw, dict):
        abilities_raw = {}
    gear = [gdc_name(a.get("name")) for a in abilities_raw.get("wargear") or [] if a]
    loadout = _loadout_text(sheet, lines, [m.name for m in models])
    options_text = "\n".join(plain(text(o)) for o in sheet.get("wargear") or [])
    defaults = [n for group in _default_lists(sheet) for n in group]
    links = link_equipment(loadout_items(loadout), defaults, options_text, weapons, gear)
    near, missing = read_equipment(loadout, models, weapons, gear, trial, links.resolve)
    _once(models, links.from_defaults)
    warnings += trial + list(dict.fromkeys(links.notes))
    warnings += [f"equipment {n.printed!r} matched to weapon {n.weapon!r} ({n.how})" for n in near]
    costs = _sizes(sheet, models, alts, warnings)
    models.sort(key=lambda m: ("CHARACTER" in m.keywords, -m.high))  # allocation order
    for size in costs.sizes + costs.dropped:
        counts = cast(dict[str, int], size["models"])
        size["models"] = {m.name: counts[m.name] for m in models if m.name in counts}
    everyone = [m.name for m in models]
    context = Context(
        character="CHARACTER" in unit_keywords or any("CHARACTER" in m.keywords for m in models),
        weapons=frozenset(str(w.data["name"]).lower() for w in weapons),
        keywords=data_keywords,
        edition="11",
    )
    abilities, support = read_gdc_abilities(
        faction, sheet, everyone, {m.name: m.wargear for m in models}, warnings, context
    )
    if collect is not None:
        collect.records += abilities.generated
        collect.census += abilities.census
    abilities.without_profile(missing, trial)
    invul = abilities_raw.get("invul") if isinstance(abilities_raw.get("invul"), dict) else None
    data: dict[str, Any] = {
        "name": name,
        "faction": faction.faction,
        "keywords": unit_keywords,
        "faction_keywords": faction_keywords,
        "models": [_model_row(m, invul, abilities, warnings) for m in models],
        "sizes": costs.sizes,
        "weapons": [w.data for w in weapons],
    }
    if not costs.listed:
        data["points_listed"] = False
    if costs.dropped:
        data["dropped_sizes"] = costs.dropped
    notes: list[str] = []
    _add_loadouts(data, sheet, models, weapons, costs.sizes, notes)
    if abilities.damaged is not None:
        data["damaged"] = abilities.damaged
    if abilities.rules:
        data["rules"] = abilities.rules
    if abilities.leaders_allowed:
        data["leaders_allowed"] = abilities.leaders_allowed
    nm = {side: names for side, names in abilities.not_modelled.items() if names}
    if nm:
        data["not_modelled"] = nm
    data.update(_attachments(faction, sheet, support, units))
    _add_costs(data, sheet)
    if is_legends(sheet):
        data["legends"] = True
    data["edition"] = 11
    data["data"] = {"source": SOURCE, "version": faction.version, "date": faction.date}
    data["source"] = (
        f"{SOURCE} data {faction.version} ({faction.date}), {faction.path.name}: "
        f"{faction.data_name} \u2013 {gdc_name(sheet.get('name'))}"
    )
    try:
        parse_datasheet(data, f"<{name}>")
    except DatasheetError as exc:
        raise ImportFailure(f"{label} does not fit the datasheet format: {exc}") from None
    return data, warnings, notes


# ---------------------------------------------------------------------------------------------
# Models


def _composition_rows(lines: list[str]) -> list[dict[str, str]]:
    """The composition lines that count models (or separate alternatives), as the rows
    :func:`.composition.composition` reads: notes and loadout lines printed among them are
    left out, an EPIC HERO tag is dropped."""
    rows = []
    for block in lines:
        for line in block.splitlines():
            line = EPIC_HERO.sub("", line).strip()
            if not line or "equipped with" in line.lower():
                continue
            if not _COUNTED.match(line) and len(line.split()) > 6:
                continue  # a sentence (a note on the models), not a model
            rows.append({"description": line})
    return rows


def _models(
    sheet: dict[str, Any], lines: list[str], warnings: list[str]
) -> tuple[list[ImportedModel], list[Entries]]:
    """The unit's models (composition entries) with their statlines, and the composition
    alternatives."""
    stats = [_stat_row(s) for s in sheet.get("stats") or [] if isinstance(s, dict)]
    alts = composition(_composition_rows(lines), warnings)
    models = models_of(alts)
    if not models:
        if stats:
            warnings.append("unit composition not understood; one model per statline")
        models = [ImportedModel(nice_case(r["name"]), 1, 1) for r in stats]
    match_statlines(models, stats, warnings)
    return [m for m in models if m.stats is not None], alts


def _stat_row(stats: dict[str, Any]) -> dict[str, str]:
    """A statline in the shape the 10th-edition reader takes (an OC of '-' is 0)."""
    oc = str(stats.get("oc", "")).strip()
    return {
        "name": gdc_name(stats.get("name")),
        "M": str(stats.get("m", "")),
        "T": str(stats.get("t", "")),
        "Sv": str(stats.get("sv", "")),
        "W": str(stats.get("w", "")),
        "Ld": str(stats.get("ld", "")),
        "OC": "0" if oc in ("", "-") else oc,
        "inv_sv": "",  # the invulnerable save is the datasheet's abilities.invul
    }


def _keywords(sheet: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for k in sheet.get("keywords") or []:
        kw = gdc_name(k).upper()
        if kw and kw not in out:
            out.append(kw)
    return out


def _character_models(
    name: str, keywords: list[str], models: list[ImportedModel], warnings: list[str]
) -> list[str]:
    """The unit keywords, without CHARACTER where it belongs to some of the models only: the
    data lists keywords for the unit alone, but a unit with a CHARACTER among other models
    (a command squad's commander) has it on that model only (as the 10th-edition export
    says). The CHARACTER models are those named by a unit keyword or by the start of the
    unit's name (``Rogue Trader`` in the Rogue Trader Entourage), else, in a unit with several
    models of some kind, its single models with the most wounds. Where that gives every model
    (or none), the keyword stays the unit's."""
    if "CHARACTER" not in keywords or len(models) < 2:
        return keywords
    kws = {norm_name(k) for k in keywords}
    picked = [
        m
        for m in models
        if norm_name(m.name) in kws or norm_name(name).startswith(norm_name(m.name))
    ]
    if not picked and any(m.high > 1 for m in models):
        single = [m for m in models if m.low == m.high == 1 and m.stats]
        most = max((to_int(m.stats["W"]) for m in single), default=0)  # type: ignore[index]
        picked = [m for m in single if to_int(m.stats["W"]) == most]  # type: ignore[index]
    if not picked or len(picked) == len(models):
        return keywords
    for m in picked:
        m.keywords.append("CHARACTER")
    warnings.append(
        f"the unit's CHARACTER keyword given to {', '.join(m.name for m in picked)} only (the "
        "data lists keywords for the unit, not for each model)"
    )
    return [k for k in keywords if k != "CHARACTER"]


def _model_row(
    m: ImportedModel, invul: dict | None, abilities: UnitAbilities, warnings: list[str]
) -> dict[str, Any]:
    """One model in the datasheet format: its statline, the best invulnerable save(s) the
    format can hold (the datasheet's and its abilities'), and its defensive abilities."""
    row = statline(m, warnings, [])
    own = _data_invuln(invul, m.name, warnings)
    extra = abilities.model_fields.get(m.name, {})
    best = [_best(own[0], extra.get("invuln"))]
    best += [_best(own[1], extra.get("invuln_ranged")), _best(own[2], extra.get("invuln_melee"))]
    put_invuln(row, *best)
    return finish_row(row, m, extra)


def _best(a: object, b: object) -> int | None:
    found = [int(v) for v in (a, b) if v is not None]  # type: ignore[call-overload]
    return min(found) if found else None


def _data_invuln(
    invul: dict | None, model: str, warnings: list[str]
) -> tuple[int | None, int | None, int | None]:
    """The datasheet's invulnerable save for ``model`` (``abilities.invul``: ``{value,
    info}``): (against every attack, against ranged attacks only, against melee attacks only).
    Its note is read for "against ranged/melee attacks only", "4+ against melee attacks only"
    (a better save in melee), "X model only" and "excluding X"."""
    if not invul:
        return None, None, None
    raw = str(invul.get("value") or "").strip()
    value = to_int(raw) if re.match(r"^[2-6]\+?$", raw) else None
    note = plain(text(invul.get("info")))
    low = note.lower()
    melee = re.search(r"([2-6])\+ against melee attacks", low)
    if melee:
        return value, None, int(melee.group(1))
    if value is None:
        return None, None, None
    if "against ranged attacks" in low:
        return None, value, None
    if "against melee attacks" in low:
        return None, None, value
    out: dict[str, object] = {}
    invuln_note(out, model, value, note, warnings)
    return out.get("invuln"), None, None  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# Weapons and equipment


def _weapon_rows(sheet: dict[str, Any]) -> list[dict[str, str]]:
    """Every weapon profile as a row of the shape :func:`.weapons.read_weapons` reads (the
    profiles of one weapon numbered from 1, its keywords as the ability text)."""
    rows = []
    for kind, key in (("Ranged", "rangedWeapons"), ("Melee", "meleeWeapons")):
        for weapon in sheet.get(key) or []:
            profiles = weapon.get("profiles") if isinstance(weapon, dict) else None
            for i, p in enumerate(profiles or []):
                ap = str(p.get("ap", "")).strip()
                rows.append(
                    {
                        "line_in_wargear": str(i + 1),
                        "name": gdc_name(p.get("name")),
                        "type": kind,
                        "range": str(p.get("range", "")),
                        "BS_WS": str(p.get("skill", "")),
                        "A": str(p.get("attacks", "")),
                        "S": str(p.get("strength", "")),
                        "AP": "0" if ap in ("", "-") else ap,
                        "D": str(p.get("damage", "")),
                        "description": ", ".join(
                            gdc_name(k) for k in p.get("keywords") or [] if gdc_name(k)
                        ),
                    }
                )
    return rows


_SIDES = frozenset({"ranged", "melee", "shooting"})


def _name_sides(weapons: list[ImportedWeapon]) -> None:
    """A weapon with a ranged and a melee profile listed as two weapons (``Guardian spear –
    Ranged``, ``Guardian spear – Melee``) is what the loadout calls ``guardian spear``: both
    are that equipment's profiles (``base``)."""
    for w in weapons:
        parts = DASH_RE.split(w.name, maxsplit=1)
        if len(parts) == 2 and "profile_of" not in w.data and parts[1].lower() in _SIDES:
            w.base = parts[0].strip()


def _loadout_text(sheet: dict[str, Any], lines: list[str], models: list[str]) -> str:
    """The loadout as the 10th-edition reader takes it (``<b>Every Boy is equipped with:</b>
    slugga; choppa.``); where the loadout field is empty, the composition's loadout lines, or
    else the wargear options' "Default Wargear" lists (one a model, in composition order)."""
    md = text(sheet.get("loadout"))
    if not md.strip():
        md = "\n".join(line for line in lines if "equipped with" in line.lower())
    if not md.strip():
        md = _default_wargear(sheet, models)
    md = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", md).replace("*", "")
    md = re.sub(r"</b>\s*:", ":</b>", md)  # '**Every model is equipped with**: ...'
    return gdc_name_lines(md).replace("\n", "<br>")


def _default_lists(sheet: dict[str, Any]) -> list[list[str]]:
    """The names of each "Default Wargear" list of ``wargearOptions`` (one a model, in
    composition order, where the data gives them)."""
    return [
        [gdc_name(o.get("name")) for o in w.get("options") or [] if isinstance(o, dict)]
        for w in sheet.get("wargearOptions") or []
        if isinstance(w, dict) and text(w.get("instruction")).strip().lower() == "default wargear"
    ]


def _default_wargear(sheet: dict[str, Any], models: list[str]) -> str:
    """A loadout text made of the "Default Wargear" options (``wargearOptions``), which list
    each model's default equipment in composition order: used only when there is one list a
    model ('' otherwise)."""
    groups = _default_lists(sheet)
    if not groups or len(groups) != len(models):
        return ""
    return "\n".join(
        f"**Every {m} is equipped with:** {'; '.join(g)}."
        for m, g in zip(models, groups, strict=True)
    )


def gdc_name_lines(value: str) -> str:
    """``value`` with hyphens as typed, line by line (the line breaks kept)."""
    return "\n".join(gdc_name(line) for line in value.splitlines())


def _once(models: list[ImportedModel], names: set[str]) -> None:
    """One copy a model of each weapon that the Default Wargear list gave to several items of
    its loadout (Huron Blackheart's "Tyrant's Claw" and "exalted weapon" both hold the
    profile "Tyrant's Claw and exalted power weapon")."""
    for m in models:
        lists = [m.equipped or []] + [ws for _, ws, _ in m.by_count]
        for ws in lists:
            for n in names:
                while ws.count(n) > 1:
                    del ws[len(ws) - 1 - ws[::-1].index(n)]


_MARK = "\u2020"  # a footnote mark (``*``) kept through :func:`.gdc.plain`
_MARK_RE = re.compile(r"(?<=[\w)])\*(?=[\s,.;:]|$)")
_NOTE_RE = re.compile(_MARK + r"\s+([A-Z].*)$")
_LOOSE_NOTE = re.compile(r"(?<![*\s])\s+\*\s+(?P<note>[A-Z][^*\n]*)$")  # after an unmarked item


def option_text(markdown: str) -> tuple[str, list[str]]:
    """A wargear option as the 10th-edition reader takes it, and its footnotes: the plain
    text with the footnote mark after an item kept (``1 cyclic ion blaster*``: no duplicates
    of it, as the export marks it; :func:`.gdc.plain` drops every ``*``), less the footnote
    sentence the data prints after the list's last item (``... 1 weapon support system*  *
    This model cannot have duplicates ...``, or after an unmarked last item: ``... 1 thunder
    hammer  * This model can only be equipped with ...``), which is returned apart (the
    export's footnote rows: :func:`.loadouts.ranged_cap` reads them)."""
    notes = []
    if loose := _LOOSE_NOTE.search(markdown):  # "... 1 thunder hammer  * This model can ..."
        notes.append(loose["note"].strip())
        markdown = markdown[: loose.start()]
    lines = plain(_MARK_RE.sub(_MARK, markdown)).splitlines()
    if lines:
        found = _NOTE_RE.search(lines[-1])
        if found:
            notes.append(found.group(1))
            lines[-1] = lines[-1][: found.start() + 1]
    return "\n".join(lines).replace(_MARK, "*"), notes


def _add_loadouts(
    data: dict,
    sheet: dict[str, Any],
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    sizes: list[dict[str, Any]],
    notes: list[str],
) -> None:
    """Named loadouts and each model's choices for the wargear options (``wargear``: one
    option a text, its choices after bullets), and the options not generated, as the
    10th-edition importer makes them (:func:`.loadouts.generate_loadouts`)."""
    largest = max(sizes, key=lambda s: sum(s["models"].values()))
    rows = []
    for o in sheet.get("wargear") or []:
        body, footnotes = option_text(text(o))
        if body.strip().lower() not in ("", "none"):
            rows.append({"description": body})
            rows += [{"description": note, "button": "*"} for note in footnotes]
    options = generate_loadouts(rows, models, weapons, dict(largest["models"]))
    write_options(data, options, models, sizes, notes)


# ---------------------------------------------------------------------------------------------
# Points, attachments


def _sizes(
    sheet: dict[str, Any], models: list[ImportedModel], alts: list[Entries], warnings: list[str]
) -> Sizes:
    """The unit sizes with their points (``points``: a cost per number of models, each a
    whole number of 1 or more: :func:`.gdc_shape.check_sheet` has checked them). A cost
    that applies only with a keyword or in a detachment is kept as a labelled size in
    ``dropped_sizes`` (not selectable)."""
    out = Sizes()
    rows = []
    for p in sheet.get("points") or []:
        points, total = to_int(str(p["cost"])), to_int(str(p["models"]))
        label = "; ".join(
            f"{gdc_name(p.get(k))} ({k})" for k in ("keyword", "detachment") if gdc_name(p.get(k))
        )
        rows.append((points, total, label))
    for points, total, label in rows:
        if not label and _sum_of_maxima(total, points, rows, alts):
            smaller = min(t for c, t, lb in rows if c == points and not lb)
            label = (
                f"the sum of every composition line's largest number, at the points of "
                f"{smaller} models: not a size of this unit"
            )
            warnings.append(
                f"the data's {total}-model size ({points} pts) is the sum of every composition "
                f"line's largest number, at the points of its {smaller}-model size: not "
                "selectable (dropped_sizes)"
            )
        for counts in fits(total, models, alts):
            size: dict[str, Any] = {"models": counts, "points": points}
            if label:
                size["label"] = label
                out.dropped.append(size)
            else:
                keep_size(out, size)
    unused_alternatives(out, models, alts, warnings)
    out.sizes.sort(key=lambda s: sum(cast(dict[str, int], s["models"]).values()))
    if not out.sizes:
        unlisted(out, models, warnings, "the data")
    return out


def _sum_of_maxima(
    total: int, points: int, rows: list[tuple[int, int, str]], alts: list[Entries]
) -> bool:
    """Whether a size of ``total`` models at ``points`` is no unit size but the sum of every
    composition line's largest number: another size of the same points (no keyword or
    detachment) is more than one model smaller, and ``total`` is that sum. (Data 912's Kill
    Teams list "3-10 Kill Team Infiltrators" beside "0-3 Kill Team Infiltrators with bolt
    sniper rifles" and more such lines, which are Infiltrators of the 10, and a 21-model size
    at the 10-model size's points.) An optional model at the same points (20 or 21
    Neurogaunts) is one model more, and kept."""
    same = [t for c, t, label in rows if c == points and not label and t < total - 1]
    return bool(same) and any(total == sum(e.high for e in alt) for alt in alts)


def _add_costs(data: dict, sheet: dict[str, Any]) -> None:
    """``additionalCost`` (``{cost, afterSelections}``, both whole numbers of 1 or more:
    :func:`.gdc_shape.check_sheet` has checked them) as ``additional_cost``."""
    extra = sheet.get("additionalCost")
    if extra is None:
        return
    points, after = to_int(str(extra["cost"])), to_int(str(extra["afterSelections"]))
    data["additional_cost"] = {"points": points, "after": after}


def _attachments(
    faction: FactionFile, sheet: dict[str, Any], support: list[str], units: dict[str, str]
) -> dict[str, list[str]]:
    """``leader_of`` (from the ``leader`` text), ``leader_alongside`` and its Bodyguard
    keywords (an exception the text makes), and ``support_of`` (the Support rule's list)."""
    out: dict[str, list[str]] = {}
    body = plain(text(sheet.get("leader")))
    leads = [units.get(norm_name(u), nice_case(u)) for u in attachable_units(body)]
    if leads:
        out["leader_of"] = list(dict.fromkeys(leads))
    alongside, bodyguard = leader_alongside(" ".join(body.split()))
    if alongside:
        out["leader_alongside"] = alongside
    if bodyguard:
        out["leader_alongside_bodyguard"] = bodyguard
    joins = [units.get(norm_name(u), nice_case(u)) for u in support]
    if joins:
        out["support_of"] = list(dict.fromkeys(joins))
    return out

"""``calc show``: one datasheet as rich tables (statlines, sizes, weapons, loadouts, rules),
or as JSON in the shape of the datasheet YAML (DATASHEET_FORMAT.md, part 1)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .datasheet import Datasheet, LoadoutEntry, ModelProfile, UnitSize, Weapon, norm_name
from .dice import Dice


def render_datasheet(ds: Datasheet, console, edition_note: str = "") -> None:
    """Print ``ds`` the way a datasheet page reads: name, faction, editions and data version
    (and ``edition_note``: where the edition in use came from, if the environment or the config
    file chose it), keywords, models, sizes, weapons, loadouts, then its defensive abilities,
    damaged profile, rules and Leader lines; every name from the file is printed as written
    (not read as rich markup)."""
    from rich.text import Text

    from .layout import print_table

    head = [f" · {ds.faction}" if ds.faction else "", " · Legends" if ds.legends else ""]
    head.append(
        f" · edition {' and '.join(ds.editions)}" + (f" {edition_note}" if edition_note else "")
    )
    if ds.data is not None:
        head.append(f" · {ds.data.label}" + (f" ({ds.data.date})" if ds.data.date else ""))
    console.print(Text.assemble((ds.name, "bold"), *head))
    kw = ", ".join(sorted(ds.keywords))
    fkw = ", ".join(sorted(ds.faction_keywords))
    faction = (("  Faction: ", "dim"), fkw) if fkw else ()
    console.print(Text.assemble(("Keywords: ", "dim"), kw or "none", *faction))
    print_table(console, _models_table(ds))
    _render_sizes(ds, console)
    print_table(console, _weapons_table(ds))
    if ds.loadouts:
        print_table(console, _loadouts_table(ds))
    for label, line, style in [*_option_lines(ds), *_closing_lines(ds)]:
        console.print(Text.assemble((label, style), line))


def _models_table(ds: Datasheet):
    """The models table, in allocation order: the statline, invulnerable save, Feel No Pain
    and equipment of each model."""
    from rich.table import Table

    from .layout import Words

    models = Table(title="Models (allocation order)", title_justify="left")
    models.add_column("Model")
    for col in ("M", "T", "Sv", "W", "Ld", "OC"):  # figures: never broken
        models.add_column(col, no_wrap=True)
    for col in ("Invuln", "FNP", "Equipped"):
        models.add_column(col)
    for m in ds.models:
        inv = _invuln_text(m)
        models.add_row(
            Words(m.name),
            _move(m.M),
            str(m.T),
            f"{m.Sv}+" if m.Sv < 7 else "—",
            str(m.W),
            f"{m.Ld}+",
            str(m.OC),
            Words(inv),
            Words(_fnp(m)),
            Words(_equipped_text(ds, m)),
        )
    return models


def _weapons_table(ds: Datasheet):
    """The weapons table: one row per profile (a multi-profile weapon's named), its
    characteristics and abilities."""
    from rich.table import Table

    from .layout import Words

    weapons = Table(title="Weapons", title_justify="left")
    weapons.add_column("Weapon")
    for col in ("Range", "A", "BS/WS", "S", "AP", "D"):  # figures: never broken
        weapons.add_column(col, no_wrap=True)
    weapons.add_column("Abilities")
    for w in ds.weapons:
        weapons.add_row(
            Words(w.name + (f" ({w.profile_of} profile)" if w.profile_of else "")),
            "Melee" if w.range is None else f'{w.range}"',
            str(w.A),
            "N/A" if w.skill is None else f"{w.skill}+",
            str(w.S),
            str(w.AP),
            str(w.D),
            Words(", ".join(w.ability_texts)),
        )
    return weapons


def _loadouts_table(ds: Datasheet):
    """The loadouts table: each named loadout's changes, entry by entry (``2 Spanner with
    Big shoota: Rokkit launcha (unit of 10+)``)."""
    from rich.table import Table

    from .layout import Words

    lo = Table(title="Loadouts (--loadout NAME; 'default' = as equipped)", title_justify="left")
    lo.add_column("Loadout")
    lo.add_column("Changes")
    for name, entries in ds.loadouts.items():
        parts = [
            f"{'all' if e.count is None else e.count} {e.model}"
            + (f" with {', '.join(_weapon_name(ds, k) for k in e.replaces)}" if e.replaces else "")
            + f": {', '.join(_weapon_name(ds, k) for k in e.equipped)}"
            + (f" (unit of {e.min_unit_size}+)" if e.min_unit_size else "")
            + (f" (for every {e.per_models} models)" if e.per_models else "")
            + (f" (in place of as many {e.instead_of})" if e.instead_of else "")
            + (
                f" (never with {', '.join(_weapon_name(ds, k) for k in e.excludes)})"
                if e.excludes
                else ""
            )
            for e in entries
        ]
        lo.add_row(Words(name), Words("; ".join(parts)))
    return lo


def _option_lines(ds: Datasheet) -> list[tuple[str, str, str]]:
    """(label, text, label style) of the wargear options beyond the loadouts: each model's
    ``choices`` (several weapons of a list, for ``--weapon``), then the options not generated,
    by reason, with the equipment they name."""
    out = []
    by_text: dict[str, list[str]] = {}
    for m in ds.models:
        for c in m.choices:
            names = [
                _weapon_name(ds, k) + (" (at most one)" if k in c.once and c.up_to > 1 else "")
                for k in c.weapons
            ]
            who = "" if c.count is None else f"up to {c.count} models, "
            how = "besides what it carries" if c.adds else "in place of those of them it carries"
            what = f"up to {c.up_to} of {', '.join(names)}"
            if c.sets:
                groups = [
                    " and ".join(
                        f"{_weapon_name(ds, k)}{f' ×{n}' if n > 1 else ''}"
                        for k, n in Counter(g).items()
                    )
                    for g in c.sets
                ]
                what = f"one of: {'; '.join(groups)}"
            only = "; at most one Pistol and one other ranged weapon" if c.one_pistol else ""
            text = f'{who}{what}, {how}{only} (--weapon "NAME xN")'
            by_text.setdefault(text, []).append(m.name)
    for text, models in by_text.items():
        out.append(("Choice: ", f"{', '.join(models)}: {text}", "dim"))
    for lim in ds.option_limits:
        per = f" for every {lim.per_models} models" if lim.per_models else ""
        who = f"{lim.models} model{'s' if lim.models != 1 else ''}{per}"
        text = f"at most {who} in all take one of {', '.join(lim.loadouts)} (one wargear option)"
        out.append(("Option limit: ", text, "dim"))
    reasons: dict[str, list[str]] = {}
    for o in ds.options_not_generated:
        items = list(o.items) or ["(an option that names no equipment)"]
        if o.reason == _NOT_A_WEAPON:  # the items that are not, the weapons beside them after
            odd = [i for i in items if not _a_weapon_of(ds, i)]
            if odd and len(odd) < len(items):
                beside = ", ".join(i for i in items if i not in odd)
                items = [f"{', '.join(odd)} (with {beside})"]
        reasons.setdefault(o.reason, []).extend(items)
    for reason, items in reasons.items():
        shown = ", ".join(dict.fromkeys(items))
        out.append(("Options not generated: ", f"{reason}: {shown}", "yellow"))
    return out


_NOT_A_WEAPON = "a new item is not a weapon of the datasheet"  # the importers' reason


def _a_weapon_of(ds: Datasheet, item: str) -> bool:
    """Whether ``item`` (an option's, as the importer wrote it) names a weapon of ``ds``: its
    name or its several-profile weapon's, plural or not (a second fresh-user trial: the
    Captain's "heavy bolt pistol, master-crafted power weapon, relic shield" read as three
    non-weapons)."""
    key = norm_name(item).removesuffix("s")
    return any(
        norm_name(n).removesuffix("s") == key
        for w in ds.weapons
        for n in (w.name, w.profile_of)
        if n
    )


def _closing_lines(ds: Datasheet) -> list[tuple[str, str, str]]:
    """(label, text, label style) of the lines after the tables: defensive abilities, the
    damaged profile, unit rules, abilities not modelled, whom it leads and the source."""
    out = [("Defence: ", line, "dim") for line in _defence_lines(ds)]
    if ds.damaged is not None:
        d = ds.damaged
        effect = f"{d.hit_mod:+d} to its Hit rolls" if d.hit_mod else "no Hit roll modifier"
        line = f"1-{d.wounds_left} wounds remaining: {effect} (--wounds-left N)"
        out.append(("Damaged: ", line, "dim"))
    if ds.rules:
        out.append(("Unit rules: ", ", ".join(ds.rules), "dim"))
    for side, names in (
        ("its attacks", ds.not_modelled_attacker),
        ("attacks against it", ds.not_modelled_target),
    ):
        if names:
            out.append((f"Not modelled ({side}): ", ", ".join(names), "yellow"))
    own = [f"{w.name}: [{t}]" for w in ds.weapons for t in w.abilities.unmodelled]
    if own:  # a weapon's own rules, which `calc shoot` reports as not modelled too
        out.append(("Not modelled (weapon rules): ", ", ".join(own), "yellow"))
    if ds.leader_of:
        out.append(("Leader of: ", ", ".join(ds.leader_of), "dim"))
    if ds.leader_alongside:
        where = (
            f" (in a {' or '.join(ds.leader_alongside_bodyguard)} unit)"
            if ds.leader_alongside_bodyguard
            else ""
        )
        line = f"a Leader with keyword {' or '.join(ds.leader_alongside)}{where}"
        out.append(("Leads alongside: ", line, "dim"))
    if ds.source:
        out.append(("Source: ", ds.source, "dim"))
    return out


def _render_sizes(ds: Datasheet, console) -> None:
    """The sizes table (dropped sizes marked, not selectable) and the add-ons line."""
    from rich.table import Table
    from rich.text import Text

    from .layout import Words, print_table
    from .wording import count

    sizes = Table(title="Unit sizes (--models N)", title_justify="left")
    sizes.add_column("Models", no_wrap=True)
    sizes.add_column("Composition")
    sizes.add_column("Points", justify="right", no_wrap=True)
    for s in ds.sizes:
        sizes.add_row(str(s.total), Words(s.describe()), _points_text(ds, s.points))
    for s in ds.dropped_sizes:
        why = (
            f": --models {s.total} picks the size of {count(s.total, 'model')} listed first"
            if any(o.total == s.total for o in ds.sizes)
            else ""  # its label says why
        )
        sizes.add_row(
            str(s.total),
            Words(f"{s.describe()} — not selectable{why}"),
            _points_text(ds, s.points),
            style="dim",
        )
    print_table(console, sizes)
    if ds.additional_cost is not None:
        console.print(Text.assemble(("Additional cost: ", "dim"), additional_cost_text(ds)))
    if ds.add_ons:
        parts = [
            f"{a.name} +{a.points} pts"
            + ("" if a.model else " (not a model of this datasheet: in no size)")
            for a in ds.add_ons
        ]
        console.print(Text.assemble(("Add-ons: ", "dim"), "; ".join(parts)))


def additional_cost_text(ds: Datasheet) -> str:
    """``+10 pts for each copy after the 3rd in an army`` ("" without an additional cost)."""
    a = ds.additional_cost
    if a is None:
        return ""
    nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(a.after, f"{a.after}th")
    return f"+{a.points} pts for each copy after the {nth} in an army"


def _points_text(ds: Datasheet, points: int) -> str:
    return str(points) if ds.points_listed else "not listed"


def _move(m: int | str | None) -> str:
    """The M cell: ``6"``, ``20+"``, or ``—`` where the datasheet prints "-"."""
    return "—" if m is None else f'{m}"'


def _equipped_text(ds: Datasheet, m: ModelProfile) -> str:
    """The Equipped cell: ``equipped``, or with ``equipped_by_count`` one line per count and
    the others last."""
    plain = ", ".join(_weapon_name(ds, k) for k in m.equipped) or "nothing"
    if not m.equipped_by_count:
        return plain if m.equipped else ""
    lines = [
        f"{n} model{'s' if n != 1 else ''}: "
        + (", ".join(_weapon_name(ds, k) for k in keys) or "nothing")
        for n, keys in m.equipped_by_count
    ]
    return "\n".join([*lines, f"the others: {plain}"])


def _weapon_name(ds: Datasheet, key: str) -> str:
    w = ds.weapon(key)
    return w.name if w else key


def _fnp(m: ModelProfile) -> str:
    """The FNP cell: ``5+``, ``4+ (mortal)``, ``5+; 4+ psychic``."""
    parts = [f"{m.feel_no_pain}+"] if m.feel_no_pain else []
    if m.feel_no_pain_mortal:
        parts.append(f"{m.feel_no_pain_mortal}+ mortal")
    if m.feel_no_pain_psychic:
        parts.append(f"{m.feel_no_pain_psychic}+ psychic")
    return "; ".join(parts) or "—"


def _defence_lines(ds: Datasheet) -> list[str]:
    """Stealth and Damage reduction of the models, one line each."""
    out = []
    for m in ds.models:
        parts = []
        if m.stealth:
            parts.append("Stealth")
        if m.half_damage:
            parts.append("halves the Damage of attacks allocated to it")
        if m.damage_reduction:
            parts.append(f"-{m.damage_reduction} Damage of attacks allocated to it")
        if parts:
            out.append(f"{m.name}: {', '.join(parts)}")
    return out


def _number(d: Dice) -> int | str:
    return d.bonus if d.is_constant else str(d)


def datasheet_json(ds: Datasheet) -> dict[str, Any]:
    """``ds`` in the datasheet YAML's shape (every field spelt out, defaults included), plus
    ``file``: the path it was read from."""
    out: dict[str, Any] = {
        "name": ds.name,
        "faction": ds.faction,
        "keywords": sorted(ds.keywords),
        "faction_keywords": sorted(ds.faction_keywords),
        "models": [_model_json(ds, m) for m in ds.models],
        "points_listed": ds.points_listed,
        "sizes": [_size_json(s) for s in ds.sizes],
        "dropped_sizes": [_size_json(s) for s in ds.dropped_sizes],
        "add_ons": [
            {"name": a.name, "points": a.points} | ({"model": a.model} if a.model else {})
            for a in ds.add_ons
        ],
        "weapons": [_weapon_json(w) for w in ds.weapons],
        "loadouts": {
            name: [_loadout_entry_json(ds, e) for e in entries]
            for name, entries in ds.loadouts.items()
        },
        "damaged": (
            {"wounds_left": ds.damaged.wounds_left, "hit_mod": ds.damaged.hit_mod}
            if ds.damaged
            else None
        ),
        "rules": list(ds.rules),
        "leader_of": list(ds.leader_of),
        "leader_alongside": list(ds.leader_alongside),
        "leader_alongside_bodyguard": list(ds.leader_alongside_bodyguard),
        "support_of": list(ds.support_of),
        "option_limits": [
            {"loadouts": list(lim.loadouts), "models": lim.models}
            | ({"per_models": lim.per_models} if lim.per_models else {})
            for lim in ds.option_limits
        ],
        "options_not_generated": [
            {"reason": o.reason, "items": list(o.items)} for o in ds.options_not_generated
        ],
        "leaders_allowed": [
            {"starting_strength": a.starting_strength, "count": a.count}
            | ({"one_with_keyword": a.one_with_keyword} if a.one_with_keyword else {})
            for a in ds.leaders_allowed
        ],
        "not_modelled": {
            "attacker": list(ds.not_modelled_attacker),
            "target": list(ds.not_modelled_target),
        },
        "source": ds.source,
        "editions": [str(e) for e in ds.editions],
        "legends": ds.legends,
        "data": data_json(ds),
        "additional_cost": (
            {"points": ds.additional_cost.points, "after": ds.additional_cost.after}
            if ds.additional_cost
            else None
        ),
    }
    if ds.path is not None:
        out["file"] = str(ds.path)
    return out


def data_json(ds: Datasheet) -> dict[str, Any] | None:
    """The data version a datasheet comes from, ``{source, version, date}``, or None (a file
    written by hand, or generated without one)."""
    if ds.data is None:
        return None
    return {"source": ds.data.source, "version": ds.data.version, "date": ds.data.date}


def _weapon_json(w: Weapon) -> dict[str, Any]:
    """One weapon profile as the YAML writes it (A and D as numbers or dice text)."""
    return {
        "name": w.name,
        "range": "melee" if w.range is None else w.range,
        "A": _number(w.A),
        "skill": w.skill,
        "S": w.S,
        "AP": w.AP,
        "D": _number(w.D),
        "abilities": list(w.ability_texts),
        **({"profile_of": w.profile_of} if w.profile_of else {}),
    }


def _loadout_entry_json(ds: Datasheet, e: LoadoutEntry) -> dict[str, Any]:
    """One loadout entry as the YAML writes it (weapons by name)."""
    return {
        "model": e.model,
        "count": "all" if e.count is None else e.count,
        "equipped": [_weapon_name(ds, k) for k in e.equipped],
        **({"min_unit_size": e.min_unit_size} if e.min_unit_size else {}),
        **({"per_models": e.per_models} if e.per_models else {}),
        **({"replaces": [_weapon_name(ds, k) for k in e.replaces]} if e.replaces else {}),
        **({"instead_of": e.instead_of} if e.instead_of else {}),
        **({"whole": "unit" if e.whole_unit else True} if e.whole else {}),
        **({"option": e.option} if e.option is not None else {}),
        **({"needs": [_weapon_name(ds, k) for k in e.needs]} if e.needs else {}),
        **({"excludes": [_weapon_name(ds, k) for k in e.excludes]} if e.excludes else {}),
    }


def _invuln_text(m: ModelProfile) -> str:
    """``5++``, ``4++ (ranged)``, ``5++, 4++ (melee)`` (a better one against melee attacks), or
    a dash."""
    only = " (ranged)" if m.invuln_ranged_only else " (melee)" if m.invuln_melee_only else ""
    parts = [f"{m.invuln}++{only}"] if m.invuln else []
    parts += [
        f"{x}++ ({kind})"
        for x, kind in ((m.invuln_ranged, "ranged"), (m.invuln_melee, "melee"))
        if x is not None
    ]
    return ", ".join(parts) or "—"


def _model_json(ds: Datasheet, m: ModelProfile) -> dict[str, Any]:
    return {
        "name": m.name,
        "M": m.M,
        "T": m.T,
        "Sv": m.Sv,
        "W": m.W,
        "Ld": m.Ld,
        "OC": m.OC,
        "invuln": m.invuln,
        "invuln_ranged_only": m.invuln_ranged_only,
        "invuln_melee_only": m.invuln_melee_only,
        "invuln_ranged": m.invuln_ranged,
        "invuln_melee": m.invuln_melee,
        "feel_no_pain": m.feel_no_pain,
        "feel_no_pain_mortal": m.feel_no_pain_mortal,
        "feel_no_pain_psychic": m.feel_no_pain_psychic,
        "stealth": m.stealth,
        "damage_reduction": m.damage_reduction,
        "half_damage": m.half_damage,
        "keywords": sorted(m.keywords),
        "equipped": [_weapon_name(ds, k) for k in m.equipped],
        "equipped_by_count": [
            {"count": n, "equipped": [_weapon_name(ds, k) for k in keys]}
            for n, keys in m.equipped_by_count
        ],
        "choices": [
            {
                "up_to": c.up_to,
                "of": [_weapon_name(ds, k) for k in c.weapons],
                "once": [_weapon_name(ds, k) for k in c.weapons if k in c.once],
                "count": "all" if c.count is None else c.count,
                "adds": c.adds,
            }
            | ({"sets": [[_weapon_name(ds, k) for k in g] for g in c.sets]} if c.sets else {})
            | ({"one_pistol": True} if c.one_pistol else {})
            for c in m.choices
        ],
    } | ({"keeps": m.keeps} if m.keeps else {})


def _size_json(s: UnitSize) -> dict[str, Any]:
    out: dict[str, Any] = {"models": dict(s.composition), "points": s.points}
    if s.label:
        out["label"] = s.label
    if s.add_ons:
        out["add_ons"] = list(s.add_ons)
    return out

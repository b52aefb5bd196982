"""Army lists printed in the shape of each export (test helpers for the round-trip property
test): the inverse of the readers, written from the formats' descriptions in the readers'
docstrings. Each printer takes an :class:`~wh40k_calc.lists.model.ArmyList` whose model types
carry the same number of each weapon per model, and returns the export's bytes."""

from __future__ import annotations

import json

from wh40k_calc.lists.model import ArmyList, ListedModels, ListedUnit


def _per_model(m: ListedModels) -> list[tuple[str, int]]:
    return [(w, n // m.count) for w, n in m.weapons]


def _items(pairs: list[tuple[str, int]]) -> str:
    return ", ".join(f"{k}x {w}" if k > 1 else w for w, k in pairs)


def _single(u: ListedUnit) -> bool:
    return len(u.models) == 1 and u.models[0].name is None


def gw_app(a: ArmyList) -> bytes:
    out = [f"{a.name} ({a.points} Points)", "", a.faction, "Strike Force (2000 Points)"]
    out += [*a.detachments, "", "OTHER DATASHEETS", ""]
    for u in a.units:
        out.append(f"{u.name} ({u.points} Points)")
        if u.warlord:
            out.append("  • Warlord")
        for m in u.models:
            if m.name is None:
                out += [f"  • {n}x {w}" for w, n in m.weapons]
            else:
                out.append(f"  • {m.count}x {m.name}")
                out += [f"     ◦ {n}x {w}" for w, n in m.weapons]
        if u.enhancement:
            out.append(f"  • Enhancements: {u.enhancement}")
        out.append("")
    out.append("Exported with App Version: v2.3.0 (1), Data Version: v912")
    return "\n".join(out).encode()


def wtc_compact(a: ArmyList) -> bytes:
    out = ["+" * 47, f"+ LIST NAME: {a.name}", f"+ FACTION KEYWORD: Xenos - {a.faction}"]
    out += [f"+ DETACHMENT: {', '.join(a.detachments)}", f"+ TOTAL ARMY POINTS: {a.points}pts"]
    out += ["+" * 47, ""]
    for u in a.units:
        warlord = ["Warlord"] if u.warlord else []
        if _single(u):
            items = ", ".join([*warlord, _items(_per_model(u.models[0]))])
            out.append(f"1x {u.name} ({u.points} pts): {items}")
        else:
            out.append(f"{u.model_count}x {u.name} ({u.points} pts)")
            for i, m in enumerate(u.models):
                extra = warlord if i == 0 else []
                items = ", ".join([*extra, _items(_per_model(m))])
                out.append(f"• {m.count}x {m.name}: {m.count} with {items}")
        if u.enhancement:
            out.append(f"Enhancement: {u.enhancement}")
    out += ["", "Created with newrecruit.eu v35.82"]
    return "\n".join(out).encode()


def listforge_text(a: ArmyList) -> bytes:
    out = [f"{a.name} - {a.faction} - {a.detachments[0]} ({a.points} Points)", "", "Other:"]
    for u in a.units:
        out.append(f"{u.name} ({u.points} pts)")
        for m in u.models:
            if m.name is None:
                out += [f"  • {n}x {w}" for w, n in m.weapons]
            else:
                out.append(f"  • {m.count}x {m.name}")
                out += [f"    • {n}x {w}" for w, n in m.weapons]
        if u.enhancement:
            out.append(f"  • E: {u.enhancement}")
        if u.warlord:
            out.append("  • Warlord")
        out.append("")
    return "\n".join(out).encode()


def nr_simple(a: ArmyList) -> bytes:
    out = [f"Xenos - {a.faction} - {a.name} - [{a.points} pts]", ""]
    out += [f"# ++ Army Roster ++ [{a.points} pts]", "## Configuration"]
    out += ["Battle Size: Strike Force (2000 Point limit)"]
    out += [f"Detachment: {d}" for d in a.detachments]
    out += ["", "## Other [0 pts]"]
    for u in a.units:
        warlord = ["Warlord"] if u.warlord else []
        if _single(u):
            items = ", ".join([*warlord, _items(_per_model(u.models[0]))])
            out.append(f"{u.name} [{u.points} pts]: {items}")
        else:
            out.append(f"{u.name} [{u.points} pts]:")
            for i, m in enumerate(u.models):
                extra = warlord if i == 0 else []
                out.append(f"• {m.count}x {m.name}: {', '.join([*extra, _items(_per_model(m))])}")
    return "\n".join(out).encode()


def _cost(v: int) -> list[dict]:
    return [{"name": "pts", "typeId": "points", "value": v}]


def _up(name: str, n: int, **kw) -> dict:
    return {"name": name, "type": "upgrade", "number": n, **kw}


def _tree_unit(u: ListedUnit) -> dict:
    own = []
    if u.warlord:
        own.append(_up("Warlord", 1, categories=[{"name": "Warlord", "primary": False}]))
    if u.enhancement:
        own.append(_up(u.enhancement, 1, group="Enhancements"))
    if _single(u):
        weapons = [_up(w, n) for w, n in u.models[0].weapons]
        return {
            "name": u.name, "type": "model", "number": 1, "costs": _cost(u.points),
            "selections": own + weapons,
        }  # fmt: skip
    models = [
        {"name": m.name, "type": "model", "number": m.count,
         "selections": [_up(w, n) for w, n in m.weapons]}
        for m in u.models
    ]  # fmt: skip
    return {
        "name": u.name, "type": "unit", "number": 1, "costs": _cost(u.points),
        "selections": own + models,
    }  # fmt: skip


def _roster(a: ArmyList) -> dict:
    config = {
        "name": "Detachment", "type": "upgrade", "number": 1,
        "categories": [{"name": "Configuration", "primary": True}],
        "selections": [_up(d, 1) for d in a.detachments],
    }  # fmt: skip
    force = {
        "catalogueName": f"Xenos - {a.faction}",
        "selections": [config, *(_tree_unit(u) for u in a.units)],
    }
    return {"name": a.name, "costs": _cost(a.points), "forces": [force]}


def nr_json(a: ArmyList) -> bytes:
    return json.dumps({"generatedBy": "https://newrecruit.eu", "roster": _roster(a)}).encode()


def ros(a: ArmyList) -> bytes:
    from xml.sax.saxutils import quoteattr

    singular = {"categories": "category", "costs": "cost", "forces": "force"}

    def element(tag: str, d: dict) -> str:
        attrs = "".join(
            f" {k}={quoteattr(str(v))}" for k, v in d.items() if not isinstance(v, list)
        )
        inner = "".join(
            f"<{k}>" + "".join(element(singular.get(k, k[:-1]), x) for x in v) + f"</{k}>"
            for k, v in d.items()
            if isinstance(v, list)
        )
        return f"<{tag}{attrs}>{inner}</{tag}>"

    body = element("roster", _roster(a)).replace(
        "<roster", '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"', 1
    )
    return ('<?xml version="1.0" encoding="utf-8"?>' + body).encode()


def rosterizer(a: ArmyList) -> bytes:
    def unit(u: ListedUnit) -> dict:
        included = []
        if u.enhancement:
            included.append({"item": f"Enhancement§{u.enhancement}"})
        if _single(u):
            included += [{"item": f"Weapon§{w}", "quantity": n} for w, n in u.models[0].weapons]
        else:
            for m in u.models:
                inner = [{"item": f"Weapon§{w}", "quantity": n} for w, n in m.weapons]
                included.append(
                    {"item": f"Model§{m.name}", "quantity": m.count,
                     "assets": {"included": inner}}
                )  # fmt: skip
        assets = {"included": included}
        if u.warlord:
            assets["traits"] = [{"item": "Trait§Warlord"}]
        return {"item": f"Unit§{u.name}", "quantity": 1, "stats": {"Points": {"value": u.points}},
                "assets": assets}  # fmt: skip

    items = [{"item": f"Faction§{a.faction}"}]
    items += [{"item": f"Detachment§{d}"} for d in a.detachments]
    items += [unit(u) for u in a.units]
    snap = {"item": "Roster§Roster", "name": a.name, "stats": {"Points": {"value": a.points}},
            "assets": {"included": items}}  # fmt: skip
    return json.dumps({"rulebook": {"name": "x"}, "snapshot": snap}).encode()


PRINTERS = {
    "gw-app": gw_app,
    "newrecruit-wtc-compact": wtc_compact,
    "listforge-text": listforge_text,
    "newrecruit-simple": nr_simple,
    "newrecruit-json": nr_json,
    "battlescribe-ros": ros,
    "rosterizer": rosterizer,
}
CARRIES_ENHANCEMENT = set(PRINTERS) - {"newrecruit-simple"}  # it names one only by a weapon

"""``--explain`` in the output: what each rule adds (:mod:`wh40k_calc.explain`) and where the
damage went (the engines' wasted damage), as tables for people and as the JSON
``attribution`` and ``wasted`` objects (README, "JSON output").

Shared by ``calc shoot``/``calc fight`` (``report.py``), ``calc sequence`` and ``calc compare``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .engine.outcome import WASTE_FIELDS

if TYPE_CHECKING:
    from .engine.outcome import Outcome, WeaponResult
    from .explain import Attribution

METRICS = ("models_destroyed", "wounds_lost", "damage")


def _f(x: float) -> float:
    return float(round(float(x), 12))


# ---------------------------------------------------------------------------------------------
# JSON


def attribution_json(a: Attribution) -> dict[str, Any]:
    """The ``attribution`` object: how it was made, the figures with every rule and with none,
    and per rule (player) its name, kind and Shapley value of each figure (with its standard
    error when sampled)."""
    return {
        "method": a.method,
        "subsets": a.subsets,
        "orders": a.orders,
        "seed": a.seed,
        "all": {k: _f(v) for k, v in a.all.items()},
        "none": {k: _f(v) for k, v in a.none.items()},
        "rules": [
            {
                "name": s.player.name,
                "kind": s.player.kind,
                **{k: _f(s.value[k]) for k in METRICS},
                "standard_error": None if s.se is None else {k: _f(s.se[k]) for k in METRICS},
            }
            for s in a.shares
        ],
        "declined": a.declined,
    }


def _row(w: WeaponResult) -> dict[str, float]:
    return _waste_figures(w.expected["damage"], w.wasted)


def _waste_figures(damage: float, wasted: dict[str, float]) -> dict[str, float]:
    """The damage figure, the wounds it removed (damage less the points beyond the wounds
    left and after destruction) and each wasted figure."""
    lost = damage - wasted["beyond_wounds_left"] - wasted["after_destruction"]
    return {
        "damage": _f(damage),
        "wounds_lost": _f(max(lost, 0.0)),
        **{k: _f(wasted[k]) for k in WASTE_FIELDS},
    }


def wasted_json(o: Outcome) -> dict[str, Any] | None:
    """The ``wasted`` object of an outcome: per weapon profile (and mortal-wound source) and
    in total; with the sampler's standard errors when it is a sampled outcome. None when the
    outcome does not count them."""
    total = o.wasted
    if not total:
        return None
    rows = [w for w in o.weapons if w.wasted]
    out: dict[str, Any] = {
        "method": o.method,
        "weapons": [{"name": w.name, **_row(w)} for w in rows],
        "total": _waste_figures(sum(w.expected["damage"] for w in rows), total),
    }
    if o.method == "sample":
        out["standard_error"] = {
            "weapons": [{k: _f(v) for k, v in w.wasted_se.items()} for w in rows],
            "total": {k: _f(v) for k, v in o.standard_error.get("wasted", {}).items()},
        }
    return out


# ---------------------------------------------------------------------------------------------
# Terminal


def attribution_table(a: dict[str, Any], title: str = "What each rule adds"):
    """The attribution (its JSON object, :func:`attribution_json`) as a table: one row per
    rule, the Shapley value of models destroyed, wounds lost and damage ("± SE" with sampled
    orders), and a footer with all rules less none (what the values add up to)."""
    from rich.table import Table

    from .layout import Words

    sampled = a["method"] == "sampled"
    how = f"Shapley values, {a['orders']:,} random orders" if sampled else "exact Shapley values"
    t = Table(title=f"{title} ({how})", title_justify="left", show_footer=True)
    t.add_column("Rule", footer="All less none")
    t.add_column("Kind")
    for head, key in zip(("Models\ndestroyed", "Wounds\nlost", "Damage"), METRICS, strict=True):
        diff = a["all"].get(key, 0.0) - a["none"].get(key, 0.0)
        t.add_column(head, justify="right", no_wrap=True, footer=f"{diff:+.3f}")
    for rule in a["rules"]:
        cells = []
        for key in METRICS:
            text = f"{rule[key]:+.3f}"
            if sampled and rule["standard_error"] is not None:
                text += f" ±{rule['standard_error'][key]:.3f}"
            cells.append(text)
        t.add_row(Words(rule["name"]), Words(rule["kind"]), *cells)
    return t


def wasted_table(o: Outcome, title: str = "Where the damage went"):
    """The damage figure of each weapon profile split into the wounds it removed and the
    points wasted (beyond the wounds the model had left, after the unit was destroyed), with
    the points Feel No Pain ignored beside them; totals in the footer. None when the outcome
    does not count them."""
    data = wasted_json(o)
    return None if data is None else waste_table(data, title)


def waste_table(data: dict[str, Any], title: str = "Where the damage went"):
    """:func:`wasted_table` of a ``wasted`` object (:func:`wasted_json`, or a sequence's)."""
    from rich.table import Table

    from .layout import Words

    heads = ("Damage", "Wounds\nlost", "Beyond\nwounds left", "After\ndestroyed", "Feel\nNo Pain")
    keys = ("damage", "wounds_lost", "beyond_wounds_left", "after_destruction", "feel_no_pain")
    t = Table(
        title=title,
        title_justify="left",
        show_footer=True,
        caption="damage = wounds lost + beyond wounds left + after destroyed; Feel No Pain: "
        "points ignored before the damage",
        caption_justify="left",
    )
    t.add_column("Weapon", footer="Total")
    for head, key in zip(heads, keys, strict=True):
        t.add_column(head, justify="right", no_wrap=True, footer=f"{data['total'][key]:.3f}")
    for w in data["weapons"]:
        t.add_row(Words(w["name"]), *(f"{w[k]:.3f}" for k in keys))
    return t


def print_explained(console, a: Attribution | None, o: Outcome | None, title: str = "") -> None:
    """Both tables (each where there is something to show) and the attribution's notes are
    the caller's (they go with the other notes)."""
    from .layout import print_table

    if a is not None and a.shares:
        print_table(console, attribution_table(attribution_json(a), f"{title}What each rule adds"))
    if o is not None:
        table = wasted_table(o, f"{title}Where the damage went")
        if table is not None:
            print_table(console, table)

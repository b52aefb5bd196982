"""Rendering ``calc compare`` rows: grouped by target and ranked, as a rich table with bars or
as CSV records."""

from __future__ import annotations

import csv
from enum import StrEnum
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .jobs import Row

SORT_LABELS = {
    "models": "models destroyed",
    "damage": "expected damage",
    "wipe": "P(wipe)",
    "efficiency": "points destroyed per 100 points",
    "losses": "Hazardous losses, fewest first",
}
SHORT_LABELS = {
    "damage": "Damage",
    "models": "Models",
    "wipe": "Wipe",
    "efficiency": "Pts/100",
    "losses": "Losses",
}
LOWER_IS_BETTER = frozenset({"losses"})
CSV_COLUMNS = (
    "run",
    "target",
    "target_models",
    "target_loadout",
    "target_points",
    "attacker",
    "attacker_models",
    "attacker_points",
    "phase",
    "edition",
    "method",
    "damage",
    "models_destroyed",
    "p_wipe",
    "points_per_100",
    "attacker_losses",
    "best",
)


class SortKey(StrEnum):
    """``--sort``: the figure rows are ranked by."""

    models = "models"
    damage = "damage"
    wipe = "wipe"
    efficiency = "efficiency"
    losses = "losses"


def group_rows(rows: list[Row], key: str) -> list[list[Row]]:
    """Rows grouped by target (groups in order of first appearance), each group sorted best
    first by ``key`` (one of SORT_LABELS; ``losses``: fewest first; None last; ties keep
    batch order)."""
    groups: dict[tuple, list[Row]] = {}
    for r in rows:
        groups.setdefault(r.target_key, []).append(r)
    sign = 1.0 if key in LOWER_IS_BETTER else -1.0

    def order(r: Row) -> tuple[int, float]:
        v = r.figures[key]
        return (1, 0.0) if v is None else (0, sign * v)

    return [sorted(g, key=order) for g in groups.values()]


def best_rows(group: list[Row], key: str) -> set[int]:
    """Indexes (in ``group``) of the best rows by ``key``; empty when every row ties."""
    values = [r.figures[key] for r in group]
    known = [v for v in values if v is not None]
    if len(group) < 2 or not known:
        return set()
    best = min(known) if key in LOWER_IS_BETTER else max(known)
    idx = {i for i, v in enumerate(values) if v is not None and abs(v - best) <= 1e-9}
    return set() if len(idx) == len(group) else idx


def _attacker_text(o: dict[str, Any]) -> str:
    a = o["attacker"]
    if o["phase"] == "sequence":  # "Lootas then Boyz": each unit's size is in its steps
        return f"{', '.join(u['name'] for u in a['units'])} ({_points(a)})"
    return f"{a['models']} {a['name']} ({_points(a)})"


def _points(unit: dict[str, Any]) -> str:
    """``50 pts``, or ``no points listed`` where the source lists none."""
    return f"{unit['points']:g} pts" if unit.get("points_listed", True) else "no points listed"


def render_table(rows: list[Row], key: str, console: Any, title: str | None = None) -> None:
    """Print the comparison table (rich) on ``console``: a section per target, sorted by
    ``key``, the best row(s) of each target in bold green, a bar for the sort column; then the
    rules not modelled and the notes (each once).

    What every row shares (phase, edition, method, attacker) goes in the title; what differs
    gets a column.
    """
    from rich import box
    from rich.bar import Bar
    from rich.table import Table
    from rich.text import Text

    groups = group_rows(rows, key)
    varying = {
        "Phase": lambda o: o["phase"],
        "Edition": lambda o: o["edition"],
        "Method": lambda o: o["method"],
        "Attacker": _attacker_text,
    }
    first = rows[0].result
    common, columns = [], []
    for label, get in varying.items():
        if len({get(r.result) for r in rows}) > 1:
            columns.append((label, get))
        elif label == "Edition":
            common.append(f"edition {get(first)}")
        else:
            common.append(get(first))
    heading = " · ".join([title or "Comparison", *common])
    table = Table(
        title=Text(f"{heading}\nby target, sorted by {SORT_LABELS[key]}; best in bold"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("Run", overflow="fold")
    for label, _ in columns:
        table.add_column(label, overflow="fold")
    for label in SHORT_LABELS.values():
        table.add_column(label, justify="right", no_wrap=True)
    table.add_column(SHORT_LABELS[key], width=10, no_wrap=True)
    blank = [""] * (len(columns) + len(SHORT_LABELS) + 1)
    for gi, group in enumerate(groups):
        if gi:
            table.add_section()
        t = group[0].result["target"]
        table.add_row(Text(f"{t['models']} {t['name']} · {_points(t)}", "bold"), *blank)
        best = best_rows(group, key)
        values = [r.figures[key] or 0.0 for r in group]
        scale = max(values)
        for i, r in enumerate(group):
            o, f = r.result, r.figures
            eff = f["efficiency"]
            value = f[key] or 0.0
            table.add_row(
                Text(f"  {r.job.run}"),
                *(Text(get(o)) for _, get in columns),
                f"{f['damage']:.2f}",
                f"{f['models']:.3f}",
                f"{100 * f['wipe']:.1f}%",
                "—" if eff is None else f"{eff:.1f}",
                f"{f['losses']:.3f}",
                Bar(scale, 0.0, value, color="red" if key == "losses" else "green")
                if scale > 1e-9
                else "",
                style="bold green" if i in best else None,
            )
    console.print(table)
    console.print(
        Text(
            "Models: expected models destroyed · Wipe: P(every model destroyed) · Pts/100: "
            "target points destroyed per 100 points of attacker · Losses: attacker models "
            "expected lost to Hazardous · bars: relative to the highest of each target",
            style="dim",
        )
    )
    seen: set[str] = set()
    for r in rows:
        for n in r.result["not_modelled"]:
            if n not in seen:
                seen.add(n)
                console.print(Text.assemble(("Not modelled: ", "yellow"), n))
    for r in rows:
        for n in r.result["notes"]:
            if n not in seen:
                seen.add(n)
                console.print(Text.assemble(("Note: ", "dim"), n))


def _csv_points(unit: dict[str, Any]) -> float | str:
    """The points, or "" where the source lists none."""
    return unit["points"] if unit.get("points_listed", True) else ""


def csv_records(rows: list[Row], key: str) -> list[dict[str, Any]]:
    """The table's rows as CSV_COLUMNS records, grouped and sorted as the table is."""
    out = []
    for group in group_rows(rows, key):
        best = best_rows(group, key)
        for i, r in enumerate(group):
            o, f = r.result, r.figures
            out.append(
                {
                    "run": r.job.run,
                    "target": o["target"]["name"],
                    "target_models": o["target"]["models"],
                    "target_loadout": r.job.selection.target.loadout or "",
                    "target_points": _csv_points(o["target"]),
                    "attacker": o["attacker"]["name"],
                    "attacker_models": o["attacker"]["models"],
                    "attacker_points": _csv_points(o["attacker"]),
                    "phase": o["phase"],
                    "edition": o["edition"],
                    "method": o["method"],
                    "damage": f["damage"],
                    "models_destroyed": f["models"],
                    "p_wipe": f["wipe"],
                    "points_per_100": "" if f["efficiency"] is None else f["efficiency"],
                    "attacker_losses": f["losses"],
                    "best": "yes" if i in best else "",
                }
            )
    return out


def write_csv(rows: list[Row], key: str, fh: IO[str]) -> None:
    """Write the comparison as CSV (header CSV_COLUMNS) to an open text file."""
    writer = csv.DictWriter(fh, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(csv_records(rows, key))

"""Edition-11 unit sizes that contradict the composition (importers/gdc_sheet.py): data 912
lists the Deathwatch Kill Teams with a size that is the sum of every composition line's
largest number ("3-10 Kill Team Infiltrators" + "0-3 ... with bolt sniper rifles" + 0-4 + 0-4
= 21) at the points of their 10-model size. Such a size is kept out of the selectable sizes
(``dropped_sizes``, with the reason), and said so by ``calc show`` and ``--models``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli, cli_json
from test_gdc_import import en, generate, load, sheet

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATA_912 = SHARED / "data" / "game-datacards-11e-912"
needs_912 = pytest.mark.skipif(not DATA_912.is_dir(), reason=f"data 912 absent: needs {DATA_912}")


def points(*rows: tuple[str, str]) -> list[dict]:
    return [{"cost": c, "models": n, "keyword": None, "detachment": None} for c, n in rows]


def test_the_sum_of_the_lines_maxima_at_the_same_points_is_no_size(tmp_path: Path) -> None:
    s = sheet(
        "Team",
        composition=[en("**3-10 Troopers**"), en("**0-3 Troopers with guns**")],
        points=points(("170", "13"), ("170", "10")),
    )
    _, out = generate(tmp_path, s)
    ds, raw = load(out, "team")
    assert [(sz.total, sz.points) for sz in ds.sizes] == [(10, 170)]
    assert [(d.total, d.points) for d in ds.dropped_sizes] == [(13, 170)]
    assert "sum of every composition line" in raw["dropped_sizes"][0]["label"]


def test_one_optional_model_more_at_the_same_points_is_kept(tmp_path: Path) -> None:
    # 20 Neurogaunts and a Nodebeast, or two Nodebeasts, at 90 points: both sizes are kept
    s = sheet(
        "Gaunts",
        composition=[en("**20 Gaunts**"), en("**1-2 Nodebeasts**")],
        stats=[
            {"name": en("Gaunt"), "m": '6"', "t": "3", "sv": "6+", "w": "1", "ld": "8+", "oc": "1"},
            {
                "name": en("Nodebeast"),
                "m": '6"',
                "t": "4",
                "sv": "5+",
                "w": "3",
                "ld": "8+",
                "oc": "1",
            },
        ],
        points=points(("90", "21"), ("90", "22")),
    )
    _, out = generate(tmp_path, s)
    ds, _ = load(out, "gaunts")
    assert [(sz.total, sz.points) for sz in ds.sizes] == [(21, 90), (22, 90)]
    assert not ds.dropped_sizes


@needs_912
@pytest.mark.parametrize(
    ("unit", "wrong"),
    [
        ("Spectrus Kill Team", 21),
        ("Fortis Kill Team", 24),
        ("Indomitor Kill Team", 16),
        ("Talonstrike Kill Team", 15),
    ],
)
def test_the_kill_teams_are_ten_models(unit: str, wrong: int) -> None:
    shown = cli_json("show", unit, "--edition", "11")
    assert [sum(s["models"].values()) for s in shown["sizes"]] == [10]
    assert [sum(s["models"].values()) for s in shown["dropped_sizes"]] == [wrong]
    res = cli("shoot", unit, "--models", str(wrong), "--edition", "11", "-t", "boyz")
    assert res.exit_code != 0
    assert "sum of every composition line" in " ".join(res.output.split())
    text = cli("show", unit, "--edition", "11").output.replace("\u2502", " ")  # cell borders
    assert "— not selectable" in " ".join(text.split())

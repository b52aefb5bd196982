"""Wargear options that add weapons without taking one away — "This model can be equipped
with 1 X", "... with one of the following:" a list, "The M / Any number of models can [each]
be equipped with ..." — become the models' ``choices`` (importers/loadouts.py, both
editions), so that ``--weapon`` lets a model carry them with any of its other options, as many
as the option gives and no more.

Figures by hand: a heavy bolter is A3 [SUSTAINED HITS 1]; the Valkyrie's BS is 4+, so an attack
hits on 4+ (1/2) and a 6 (1/6) adds a hit: 2/3 hits an attack.
"""

from __future__ import annotations

from fractions import Fraction as Fr
from pathlib import Path

import pytest
from helpers import cli, cli_json
from pytest import approx

from wh40k_calc.importers.loadouts import parse_addition

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATA_912 = SHARED / "data" / "game-datacards-11e-912"
needs_912 = pytest.mark.skipif(not DATA_912.is_dir(), reason=f"data 912 absent: needs {DATA_912}")


@pytest.mark.parametrize(
    ("text", "model", "up_to", "twice", "items"),
    [
        ("This model can be equipped with 1 storm bolter.", None, 1, False, ("1 storm bolter",)),
        ("This model can be equipped with 2 heavy bolters.", None, 2, True, ("2 heavy bolters",)),
        (
            "This model can be equipped with one of the following:\n1 storm bolter\n1 meltagun",
            None,
            1,
            False,
            ("1 storm bolter", "1 meltagun"),
        ),
        (
            "The Sister Superior can be equipped with 1 plasma pistol and 1 power weapon.",
            "Sister Superior",
            2,
            False,
            ("1 plasma pistol", "1 power weapon"),
        ),
        (
            "Any number of models can each be equipped with 1 hunter-killer missile.",
            None,
            1,
            False,
            ("1 hunter-killer missile",),
        ),
    ],
)
def test_added_weapon_options_are_read(text, model, up_to, twice, items) -> None:
    choice = parse_addition(text)
    assert choice is not None
    assert (choice.model, choice.up_to, choice.duplicates, choice.items) == (
        model,
        up_to,
        twice,
        items,
    )


@pytest.mark.parametrize(
    "text",
    [
        "One Celestian Insidiant equipped with 1 condemnor bolt pistol can be equipped with 1 "
        "Simulacrum Imperialis.",
        "For every 5 models in this unit, 1 model can be equipped with 1 gun.",
        "This model can be equipped with 1 gun or 1 blade.",
        "This model's boltgun can be replaced with 1 plasma gun.",
    ],
)
def test_other_forms_are_not_read_as_additions(text: str) -> None:
    assert parse_addition(text) is None


@needs_912
def test_the_valkyrie_takes_its_two_heavy_bolters_and_no_more() -> None:
    args = ("shoot", "valkyrie", "--edition", "11", "-t", "boyz")
    out = cli_json(*args, "--weapon", "Heavy bolter x2")
    row = next(w for w in out["weapons"] if w["name"] == "Heavy bolter")
    assert row["expected"]["attacks"] == approx(6)
    assert row["expected"]["hits"] == approx(float(6 * Fr(2, 3)))  # 4 hits
    res = cli(*args, "--weapon", "Heavy bolter x3")
    assert res.exit_code != 0
    assert "can carry only 2 of Heavy bolter" in " ".join(res.output.split())


@needs_912
def test_an_added_weapon_goes_with_a_swap() -> None:
    # Deathstrike: its heavy bolter swapped for a heavy flamer, and a hunter-killer missile
    out = cli_json(
        "shoot",
        "deathstrike",
        "--edition",
        "11",
        "-t",
        "boyz",
        "--weapon",
        "Heavy flamer",
        "--weapon",
        "Hunter-killer missile",
    )
    assert {w["name"] for w in out["weapons"]} == {"Heavy flamer", "Hunter-killer missile"}
    shown = cli_json("show", "deathstrike", "--edition", "11")
    assert shown["models"][0]["choices"][0]["of"] == ["Hunter-killer missile"]

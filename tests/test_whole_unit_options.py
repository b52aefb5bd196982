"""Wargear options for every model of the *unit* or none (``whole: unit``), told apart from
those for every model of one *type* (``whole: true``).

"All models in this unit can each have their flamestorm gauntlets replaced with 1 auto
boltstorm gauntlets and 1 fragstorm grenade launcher" (Aggressor Squad, both editions) names
no model type: the Aggressor Sergeant swaps with his Aggressors or not at all, so 2 flamestorm
gauntlets beside 1 auto boltstorm gauntlets is no legal unit (the fresh trial had it accepted).
"All Eliminators in this unit can each have their bolt sniper rifle replaced with 1 las fusil"
names a type: the Eliminators swap together, and the Sergeant has an option of his own, so his
las fusil beside 2 bolt sniper rifles is legal. Files written before ``whole: unit`` existed
keep their meaning (``whole: true``: each type on its own).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import cli
from test_datasheet import base, refused, write

from wh40k_calc.catalog import Catalog
from wh40k_calc.datasheet import load_datasheet
from wh40k_calc.importers.loadouts import parse_option
from wh40k_calc.selection import SelectionError, UnitChoice
from wh40k_calc.units import build_unit, parse_weapon_spec

CAT = Catalog(use_env=False, home=None)
AGGRESSOR_LOADOUT = "auto-boltstorm-gauntlets-fragstorm-grenade-launcher"


def _refusal(*args: str) -> str:
    res = cli(*args)
    assert res.exit_code == 1, res.output
    return " ".join(res.output.split())


def _counts(*args: str) -> list[tuple[str, int]]:
    res = cli(*args, "--json", "--method", "exact")
    assert res.exit_code == 0, res.output
    return [(w["name"], w["count"]) for w in json.loads(res.stdout)["weapons"]]


@pytest.mark.parametrize(
    "text",
    [
        "All models in this unit can each have their X replaced with 1 Y.",
        "All of the models in this unit can each have their X replaced with 1 Y.",
        "All models can each have their X replaced with 1 Y.",
    ],
)
def test_all_models_names_no_model_type(text: str) -> None:
    """The unit's phrasings in both editions' data: no model type, every model."""
    option = parse_option(text)
    assert option is not None and option.whole and option.model is None


def test_all_of_a_type_names_it() -> None:
    option = parse_option("All Eliminators in this unit can each have their X replaced with 1 Y.")
    assert option is not None and option.whole and option.model == "Eliminators"


@pytest.mark.parametrize("edition", ["10", "11"])
def test_aggressors_swap_as_a_unit(edition: str) -> None:
    ds = CAT.find("aggressor squad", "Space Marines", edition)
    entries = ds.loadouts[AGGRESSOR_LOADOUT]
    assert sorted(e.model for e in entries) == ["Aggressor", "Aggressor Sergeant"]
    assert all(e.whole and e.whole_unit and e.count is None for e in entries)
    base_args = ("shoot", "aggressor squad", "--edition", edition, "--target", "boyz")
    msg = _refusal(
        *base_args, "--weapon", "Flamestorm gauntlets x2", "--weapon", "Auto boltstorm gauntlets"
    )
    assert msg.endswith(
        f"--weapon: Aggressor Squad: the loadout '{AGGRESSOR_LOADOUT}' is for every model of "
        "the unit or none (Aggressor and Aggressor Sergeant swap together), so the unit cannot "
        "have Flamestorm gauntlets (its default equipment) and Auto boltstorm gauntlets "
        f"(loadout '{AGGRESSOR_LOADOUT}')"
    )
    assert _counts(*base_args, "--weapon", "Auto boltstorm gauntlets x3") == [
        ("Auto boltstorm gauntlets", 3)
    ]
    assert _counts(*base_args, "--weapon", "Flamestorm gauntlets x3") == [
        ("Flamestorm gauntlets", 3)
    ]
    shown = cli("show", "aggressor squad", "--edition", edition, "--json")
    assert shown.exit_code == 0, shown.output
    entries_shown = json.loads(shown.stdout)["loadouts"][AGGRESSOR_LOADOUT]
    assert [e["whole"] for e in entries_shown] == ["unit", "unit"]  # as the file writes it


@pytest.mark.parametrize("edition", ["10", "11"])
def test_eliminators_swap_by_type_and_the_sergeant_alone(edition: str) -> None:
    ds = CAT.find("eliminator squad", "Space Marines", edition)
    whole = [e for es in ds.loadouts.values() for e in es if e.whole]
    assert [(e.model, e.whole_unit) for e in whole] == [("Eliminator", False)]
    args = ("shoot", "eliminator squad", "--edition", edition, "--target", "boyz")
    got = _counts(*args, "--weapon", "Las fusil", "--weapon", "Bolt sniper rifle x2")
    assert sorted(got) == [("Bolt sniper rifle", 2), ("Las fusil", 1)]


def _two_types(whole: object) -> dict[str, Any]:
    """The test squad with a plasma gun swap for "all models" of both its types."""
    data = base()
    data["loadouts"]["plasma"] = [
        {"model": model, "equipped": ["plasma gun", "knife"], "whole": whole}
        for model in ("Trooper", "Sergeant")
    ]
    return data


def _build(path: Path, *weapons: str):
    ds = load_datasheet(path)
    specs = tuple(parse_weapon_spec(w) for w in weapons)
    return build_unit(UnitChoice(ds, 5, None, specs), "attacker")


def _carried(unit) -> dict[str, int]:
    """Weapon name -> how many models of the unit attack with it."""
    out: dict[str, int] = {}
    for g in unit.groups:
        for w in g.weapons:
            out[w.name] = out.get(w.name, 0) + g.count
    return out


def test_whole_true_stays_per_type_and_whole_unit_is_the_unit(tmp_path: Path) -> None:
    """``whole: true`` on both types (an older file): the Sergeant may keep his lasgun while
    the Troopers take plasma guns; ``whole: unit``: not."""
    per_type = write(tmp_path, _two_types(True), "per-type.yaml")
    assert _carried(_build(per_type, "Plasma gun x4", "Lasgun x1")) == {
        "Lasgun": 1,
        "Plasma gun": 4,
    }
    unit_wide = write(tmp_path, _two_types("unit"), "unit-wide.yaml")
    ds = load_datasheet(unit_wide)
    assert all(e.whole and e.whole_unit for e in ds.loadouts["plasma"])
    with pytest.raises(SelectionError) as info:
        _build(unit_wide, "Plasma gun x4", "Lasgun x1")
    assert "is for every model of the unit or none (Trooper and Sergeant swap together)" in str(
        info.value
    )
    assert _carried(_build(unit_wide, "Plasma gun x5")) == {"Plasma gun": 5}


def test_whole_takes_true_false_or_unit(tmp_path: Path) -> None:
    def bad(data: dict[str, Any]) -> None:
        data["loadouts"] = _two_types("squad")["loadouts"]

    msg = refused(tmp_path, bad)
    assert msg.endswith(
        "loadouts.plasma[0].whole: 'squad' is not allowed here: expected true, false or 'unit'"
    )

"""Wargear options "For every N models in this unit, 1 ...": the number of models that may
take the option scales with the unit's Starting Strength (a loadout entry's ``per_models``),
in both editions' importers (the shared option parser, importers/loadouts.py) and in
``--weapon`` / ``--loadout`` (composition.py, units.py).

Figures by hand: an assault cannon is A6 at BS2+ (5/6 of the attacks hit); a storm bolter A2
(RAPID FIRE 2, not at half range) at BS2+.
"""

from __future__ import annotations

from fractions import Fraction as Fr
from pathlib import Path

import pytest
from helpers import cli, cli_json
from pytest import approx

from wh40k_calc.importers.loadouts import parse_option

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATA_912 = SHARED / "data" / "game-datacards-11e-912"
needs_912 = pytest.mark.skipif(not DATA_912.is_dir(), reason=f"data 912 absent: needs {DATA_912}")


def test_for_every_n_models_is_a_number_per_n_models() -> None:
    option = parse_option(
        "For every 5 models in this unit, 1 Wolf Guard Terminator’s storm bolter and "
        "master-crafted power weapon can be replaced with 1 assault cannon and 1 power fist."
    )
    assert option is not None
    assert (option.count, option.per_models, option.min_unit_size) == (1, 5, None)
    option = parse_option(
        "If this unit contains 10 models, 1 Corsair Voidscarred’s power sword can be replaced "
        "with 1 fusion pistol."
    )
    assert option is not None
    assert (option.count, option.per_models, option.min_unit_size) == (1, None, 10)


UNIT = """\
name: Squad
faction: Testers
models:
  - {name: Trooper, M: 6, T: 4, Sv: 3, W: 2, Ld: 6, OC: 1, equipped: [Rifle]}
sizes:
  - {models: {Trooper: 5}, points: 100}
  - {models: {Trooper: 10}, points: 200}
weapons:
  - {name: Rifle, range: 24, A: 1, skill: 3, S: 4, AP: 0, D: 1}
  - {name: Gun, range: 24, A: 3, skill: 3, S: 5, AP: 0, D: 1}
loadouts:
  gun:
    - {model: Trooper, count: 1, equipped: [Gun], per_models: 5}
"""


@pytest.fixture
def squad(tmp_path: Path) -> Path:
    (tmp_path / "squad.yaml").write_text(UNIT, encoding="utf-8")
    return tmp_path


def test_weapon_counts_scale_with_the_unit(squad: Path) -> None:
    ten = cli_json(
        "shoot", "squad", "--models", "10", "--weapon", "Gun x2", "-t", "boyz", dirs=[squad]
    )
    gun = next(w for w in ten["weapons"] if w["name"] == "Gun")
    assert gun["expected"]["attacks"] == approx(6)  # 2 guns x A3
    refused = cli(
        "shoot", "squad", "--models", "10", "--weapon", "Gun x3", "-t", "boyz", dirs=[squad]
    )
    assert refused.exit_code != 0
    assert "can carry only 2 of Gun" in refused.output
    five = cli("shoot", "squad", "--models", "5", "--weapon", "Gun x2", "-t", "boyz", dirs=[squad])
    assert five.exit_code != 0 and "can carry only 1 of Gun" in five.output


def test_the_loadout_equips_one_model_for_every_n(squad: Path) -> None:
    for models, guns in (("5", 1), ("10", 2)):
        out = cli_json(
            "shoot", "squad", "--models", models, "--loadout", "gun", "-t", "boyz", dirs=[squad]
        )
        counts = {w["name"]: w["count"] for w in out["weapons"]}
        assert counts == {"Gun": guns, "Rifle": int(models) - guns}


def test_a_per_models_entry_needs_a_number(tmp_path: Path) -> None:
    (tmp_path / "squad.yaml").write_text(UNIT.replace("count: 1, ", ""), encoding="utf-8")
    res = cli("show", "squad", dirs=[tmp_path])
    assert res.exit_code != 0
    assert "per_models" in res.output


@needs_912
@pytest.mark.parametrize("edition", ["10", "11"])
def test_ten_wolf_guard_terminators_take_two_assault_cannons(edition: str) -> None:
    args = ("shoot", "wolf guard terminators", "--models", "10", "--edition", edition, "-t", "boyz")
    out = cli_json(*args, "--weapon", "Assault cannon x2")
    cannon = next(w for w in out["weapons"] if w["name"] == "Assault cannon")
    assert cannon["expected"]["hits"] == approx(float(2 * 6 * Fr(5, 6)))  # 10 hits
    out = cli_json(*args, "--loadout", "assault-cannon-power-fist")
    by_name = {w["name"]: w for w in out["weapons"]}
    assert by_name["Assault cannon"]["count"] == 2
    assert by_name["Assault cannon"]["expected"]["hits"] == approx(10)
    # the other 8 models keep their storm bolters: 8 x 2 attacks x 5/6
    assert by_name["Storm bolter"]["count"] == 8
    assert by_name["Storm bolter"]["expected"]["hits"] == approx(float(16 * Fr(5, 6)))
    five = cli(
        "shoot",
        "wolf guard terminators",
        "--models",
        "5",
        "--edition",
        edition,
        "-t",
        "boyz",
        "--weapon",
        "Assault cannon x2",
    )
    assert five.exit_code != 0 and "can carry only 1 of Assault cannon" in five.output


def test_a_stray_equipped_with_before_the_new_item_is_dropped() -> None:
    # the edition-10 export prints one option as "... can be replaced with equipped with 1 X"
    option = parse_option(
        "For every 5 models in this unit, 1 model's chainsword can be replaced with "
        "equipped with 1 eviscerator."
    )
    assert option is not None
    assert (option.count, option.per_models, option.adds) == (1, 5, False)
    assert (option.old, option.new) == (("chainsword",), (("1 eviscerator",),))


def test_death_company_marines_take_one_eviscerator_for_every_five_models() -> None:
    # edition 10: "for every 5 models, 1 model's Astartes chainsword can be replaced with 1
    # eviscerator": 10 models carry at most 2, 5 models at most 1 (by hand from the options row)
    base = ("fight", "death company marines", "--edition", "10", "-t", "boyz")
    for models, most in (("10", 2), ("5", 1)):
        out = cli_json(*base, "--models", models, "--weapon", f"Eviscerator x{most}")
        evis = next(w for w in out["weapons"] if w["name"] == "Eviscerator")
        assert evis["count"] == most
        over = cli(*base, "--models", models, "--weapon", f"Eviscerator x{most + 1}")
        assert over.exit_code != 0
        assert f"can carry only {most} of Eviscerator" in over.output
    ten = cli(*base, "--models", "10", "--weapon", "Eviscerator x10")
    assert ten.exit_code != 0 and "can carry only 2 of Eviscerator" in ten.output

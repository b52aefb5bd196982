"""Wargear options that give a model several weapons of a list (issue 21, A16): "Any number of
models can each be equipped with up to three of the following, and can take duplicates" with
the footnotes "* Each model cannot have duplicates of these" and "** ... no more than 3 ranged
weapons" (the Crisis Battlesuits' options in the July 2025 export). Generated as the models'
``choices``; ``--weapon`` uses them, never grows the unit without saying so; ``calc show``
lists them and the options not generated.

Hand-worked: 6 missile pods and 3 plasma rifles on 3 Crisis Battlesuits (BS4+) into 10 Boyz
(T5, Sv5+): missile pods A2 S7 AP-1 D2: 12 attacks, 6 hits, wound on 3+ (S > T) 4, save 6+
fails 5/6: 3.333 failed saves, 6.667 damage; plasma rifles A1 S8 AP-3 D3: 3 attacks, 1.5 hits,
3+ to wound 1.0, no save (5+ worsened by 3), 1.0 failed save, 3.0 damage.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli, cli_json

from wh40k_calc.catalog import Catalog
from wh40k_calc.composition import assign
from wh40k_calc.datasheet import DatasheetError, load_datasheet, norm_name

CRISIS = Catalog(use_env=False, home=None).find("crisis battlesuits")
GUNS = ["Airbursting fragmentation projector", "Burst cannon", "Cyclic ion blaster – standard",
        "Cyclic ion blaster – overcharge", "Fusion blaster", "Missile pod", "Plasma rifle",
        "T’au flamer"]  # fmt: skip


def test_the_crisis_option_is_generated_as_a_choice() -> None:
    for m in CRISIS.models:
        [c] = m.choices
        assert c.up_to == 3 and c.count is None
        assert list(c.weapons) == [norm_name(g) for g in GUNS]
        assert c.once == {norm_name("Airbursting fragmentation projector")}  # starred: "*"


def test_three_suits_carry_two_or_three_guns_each() -> None:
    out = cli_json("shoot", "crisis-battlesuits", "-t", "boyz",
                   "--weapon", "Missile pod x6", "--weapon", "Plasma rifle x3")  # fmt: skip
    assert out["attacker"]["models"] == 3 and out["attacker"]["points"] == 200
    pods, rifles = out["weapons"]
    assert (pods["count"], rifles["count"]) == (6, 3)
    assert pods["expected"]["hits"] == pytest.approx(6.0)
    assert pods["expected"]["wounds"] == pytest.approx(4.0)
    assert pods["expected"]["failed_saves"] == pytest.approx(10 / 3)
    assert pods["expected"]["damage"] == pytest.approx(20 / 3)
    assert rifles["expected"]["hits"] == pytest.approx(1.5)
    assert rifles["expected"]["failed_saves"] == pytest.approx(1.0)
    assert rifles["expected"]["damage"] == pytest.approx(3.0)
    assert not [n for n in out["notes"] if "--weapon: a unit of" in n]


def test_weapon_never_grows_the_unit_without_saying_so() -> None:
    """9 guns fit 3 suits; 12 missile pods need 4 suits, so the 6-model size, said in the
    notes; 4 airbursting fragmentation projectors (at most one a suit) likewise."""
    for weapon in ("Missile pod x12", "Airbursting fragmentation projector x4"):
        out = cli_json("shoot", "crisis-battlesuits", "-t", "boyz", "--weapon", weapon)
        assert out["attacker"]["models"] == 6
        assert (
            "--weapon: a unit of 6 models, the smallest listed size of Crisis Battlesuits whose "
            "models can carry the named weapons (the smallest is 3; --models N for another)"
        ) in out["notes"]
    res = cli("shoot", "crisis-battlesuits", "-t", "boyz", "--weapon", "Missile pod x19")
    assert res.exit_code == 1
    assert "can carry only 18 of Missile pod" in res.stderr  # 6 suits × 3


def test_show_lists_the_choice_and_the_options_not_generated() -> None:
    out = cli("show", "crisis-battlesuits", env={"COLUMNS": "200"}).stdout
    assert (
        "Choice: Crisis Shas’ui, Crisis Shas’vre: up to 3 of Airbursting fragmentation projector "
        "(at most one), Burst cannon, "
    ) in out
    assert (
        "Options not generated: a new item is not a weapon of the datasheet: battlesuit support "
        "system, shield generator, weapon support system, gun drone, marker drone, shield drone"
    ) in out
    ds = cli_json("show", "crisis-battlesuits")
    assert ds["models"][0]["choices"][0]["up_to"] == 3
    assert ds["options_not_generated"][0] == {
        "reason": "a new item is not a weapon of the datasheet",
        "items": ["battlesuit support system"],
    }


SHEET = """\
name: Gunner
faction: Testers
models:
  - {name: Gunner, M: 6, T: 4, Sv: 4, W: 2, Ld: 7, OC: 1, equipped: [Pistol, Knife],
     choices: [{up_to: 2, of: [Pistol, Rifle, Cannon], once: [Cannon]}]}
sizes:
  - {models: {Gunner: 2}, points: 20}
weapons:
  - {name: Pistol, range: 12, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Rifle, range: 24, A: 2, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Cannon, range: 36, A: 1, skill: 4, S: 9, AP: -2, D: 3}
  - {name: Knife, range: melee, A: 1, skill: 4, S: 3, AP: 0, D: 1}
source: synthetic
"""


@pytest.mark.parametrize(
    ("need", "fits"),
    [
        ({"rifle": 4}, True),  # 2 each, duplicates allowed
        ({"rifle": 5}, False),  # 2 models × 2
        ({"cannon": 2}, True),  # one each
        ({"cannon": 3}, False),  # never two on one model ("once")
        ({"cannon": 2, "rifle": 2}, True),  # a cannon and a rifle each
        ({"cannon": 2, "rifle": 2, "pistol": 1}, False),  # 5 guns, 4 slots
        ({"pistol": 2, "knife": 2}, True),  # the default equipment still counts
        ({"rifle": 2, "knife": 2}, True),  # the choice keeps what is not of its list
    ],
)
def test_a_choice_gives_up_to_n_of_its_list(tmp_path: Path, need, fits) -> None:
    path = tmp_path / "gunner.yaml"
    path.write_text(SHEET, encoding="utf-8")
    ds = load_datasheet(path)
    assert (assign(ds, {"Gunner": 2}, need, 2) is not None) == fits


def test_a_choice_is_checked_like_the_rest_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SHEET.replace("once: [Cannon]", "once: [Knife]"), encoding="utf-8")
    with pytest.raises(DatasheetError, match=r"models\[0\].choices\[0\].once\[0\]: 'Knife'"):
        load_datasheet(path)
    path.write_text(SHEET.replace("of: [Pistol,", "of: [Laser,"), encoding="utf-8")
    with pytest.raises(DatasheetError, match=r"choices\[0\].of\[0\]: weapon 'Laser' is not"):
        load_datasheet(path)

"""Wargear options that limit how many of a weapon a unit takes (the fresh trial: edition 11
took any number of Intercessor grenade launchers, silently).

* "For every 5 models in this unit, 1 model equipped with a bolt rifle can be equipped with 1
  Astartes grenade launcher" (data 912's Intercessor Squad) is generated: a loadout entry of
  one Intercessor for every 5 models, who keeps his bolt rifle (``per_models``). So a unit of
  10 carries 2 launchers, a unit of 5 one: the numbers the option's text gives.
* A weapon that only an option we do not generate names (``options_not_generated``) is taken
  as ``--weapon`` or a list gives it, and the notes say that its number is not checked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli, cli_json

from wh40k_calc.importers import loadouts

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATA_912 = SHARED / "data" / "game-datacards-11e-912"
INTERCESSORS = ("shoot", "Adeptus Astartes/Intercessor Squad", "--edition", "11", "-t", "boyz")
KRAK = "Astartes grenade launcher – Krak"


@pytest.mark.parametrize(
    ("text", "model", "count", "per", "old", "new"),
    [
        (
            "For every 5 models in this unit, 1 model equipped with a bolt rifle can be "
            "equipped with 1 Astartes grenade launcher.",
            None, 1, 5, ("bolt rifle",), (("1 Astartes grenade launcher",),),
        ),
        (
            "1 model in this unit equipped with a pulse carbine can be equipped with 1 "
            "semi-automatic grenade launcher. That model’s pulse carbine cannot be replaced.",
            None, 1, None, ("pulse carbine",), (("1 semi-automatic grenade launcher",),),
        ),
        (
            "1 Battle Sister equipped with 1 boltgun can be equipped with 1 simulacrum "
            "imperialis (that model’s boltgun cannot be replaced).",
            "Battle Sister", 1, None, ("1 boltgun",), (("1 simulacrum imperialis",),),
        ),
    ],
)  # fmt: skip
def test_the_added_weapon_form_is_read(text, model, count, per, old, new) -> None:
    assert loadouts.parse_option(text) is None  # not a swap: nothing is taken away
    option = loadouts.parse_equipped_addition(text)
    assert option is not None and option.adds
    assert (option.model, option.count, option.per_models) == (model, count, per)
    assert (option.old, option.new) == (old, new)


@pytest.mark.skipif(not DATA_912.is_dir(), reason=f"data 912 absent: needs {DATA_912}")
@pytest.mark.parametrize(("models", "most"), [(5, 1), (10, 2)])
def test_intercessors_take_one_grenade_launcher_for_every_five_models(models, most) -> None:
    size = ("--models", str(models))
    ok = cli_json(*INTERCESSORS, *size, "--weapon", f"{KRAK} x{most}")
    [krak] = ok["weapons"]
    assert krak["count"] == most
    assert not [n for n in ok["notes"] if "not checked" in n]
    over = cli(*INTERCESSORS, *size, "--weapon", f"{KRAK} x{most + 1}")
    assert over.exit_code == 1
    # the refusal names the option (its loadouts) and its limit
    assert f"this unit of {models} models can give only {most} model" in over.stderr
    assert "(1 for every 5 models) one of the loadouts astartes-grenade-launcher" in over.stderr
    assert f"{KRAK} x{most + 1} needs it on {most + 1} models" in over.stderr
    shown = cli("show", "Adeptus Astartes/Intercessor Squad", "--edition", "11").stdout
    assert "astartes-grenade-launcher" in shown
    assert "Options not generated" not in shown


SHEET = """\
name: Gunners
faction: Testers
models:
  - {name: Gunner, M: 6, T: 4, Sv: 4, W: 2, Ld: 7, OC: 1, equipped: [Rifle, Knife]}
sizes:
  - {models: {Gunner: 10}, points: 100}
weapons:
  - {name: Rifle, range: 24, A: 2, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Cannon, range: 36, A: 1, skill: 4, S: 9, AP: -2, D: 3}
  - {name: Knife, range: melee, A: 1, skill: 4, S: 3, AP: 0, D: 1}
options_not_generated:
  - {reason: not a weapon swap of a known form, items: [cannon]}
source: synthetic
"""


def test_a_number_no_generated_option_checks_is_said(tmp_path: Path) -> None:
    (tmp_path / "gunners.yaml").write_text(SHEET, encoding="utf-8")
    out = cli_json("shoot", "gunners", "-t", "boyz", "--weapon", "Cannon x9", dirs=[tmp_path])
    assert out["weapons"][0]["count"] == 9  # taken as given: the option is not ours to read
    assert (
        "--weapon Cannon: how many of it the unit may carry is set by a wargear option our data "
        "does not generate (not a weapon swap of a known form); the number given is not checked "
        "against it"
    ) in out["notes"]
    rifles = cli_json("shoot", "gunners", "-t", "boyz", "--weapon", "Rifle x9", dirs=[tmp_path])
    assert not [n for n in rifles["notes"] if "not checked" in n]  # its equipment lists it

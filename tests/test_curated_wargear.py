"""The hand-curated edition-10 datasheets' wargear options (``datasheets/``), and the checks of
``option_limits``, ``keeps``, ``sets`` and ``--weapon`` text that go with them.

Each expected answer is worked by hand from the option's text in the 10th-edition export
(wahapedia-10e-2025-07, ``Datasheets_options.csv``), summarised in each test: one selection the
options allow is accepted, one they forbid is refused (naming the option where one limit of
models is the reason).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_datasheet import base, refused

from wh40k_calc.catalog import Catalog
from wh40k_calc.selection import SelectionError, UnitChoice, UsageError
from wh40k_calc.units import build_unit, parse_weapon_spec

CAT = Catalog(use_env=False)
CURATED = Path(__file__).resolve().parents[1] / "datasheets"


def sheet(name: str):
    ds = CAT.find(name)
    assert ds.path is not None and CURATED in ds.path.parents, "the curated file must win"
    return ds


def accepted(name: str, models: int | None, *weapons: str) -> int:
    """How many weapons attack when the selection is accepted."""
    ds = sheet(name)
    specs = tuple(parse_weapon_spec(w) for w in weapons)
    unit = build_unit(UnitChoice(ds, models, None, specs), "attacker")
    return sum(len(g.weapons) * g.count for g in unit.groups)


def refusal(name: str, models: int | None, *weapons: str) -> str:
    ds = sheet(name)
    specs = tuple(parse_weapon_spec(w) for w in weapons)
    with pytest.raises(SelectionError) as info:
        build_unit(UnitChoice(ds, models, None, specs), "attacker")
    return str(info.value)


def test_the_curated_folder_holds_sixteen_datasheets() -> None:
    assert len(list(CURATED.rglob("*.yaml"))) == 16


# Cadian Shock Troops: "For every 10 models, up to 2 Shock Troopers can each have their lasgun
# replaced with" a flamer, grenade launcher, meltagun or plasma gun; the same weapon at most
# once per unit, or twice in a unit of 20. So 10 models: 2 specials, all different; 20: 4.
def test_cadian_shock_troops_two_special_weapons_for_every_ten() -> None:
    assert accepted("cadian shock troops", 10, "Flamer", "Meltagun") == 2
    assert accepted("cadian shock troops", 20, "Flamer x2") == 2
    assert accepted("cadian shock troops", 20, "Flamer x2", "Meltagun x2") == 4
    msg = refusal("cadian shock troops", 10, "Flamer", "Meltagun", "Plasma gun – standard")
    assert "only 2 models" in msg and "one wargear option" in msg and "plasma-gun" in msg
    assert "3 models" in msg
    assert "Flamer x3" in refusal("cadian shock troops", 20, "Flamer x3")
    assert "Flamer x2" in refusal("cadian shock troops", 10, "Flamer x2")


# Leman Russ Battle Tank: the lascannon or, instead, a heavy bolter or a heavy flamer; one pair
# of sponsons (2 heavy bolters, 2 heavy flamers, 2 multi-meltas or 2 plasma cannons); a heavy
# stubber or a storm bolter; a hunter-killer missile.
def test_leman_russ_hull_weapon_sponsons_and_one_pintle_weapon() -> None:
    assert accepted("leman russ battle tank", 1, "Multi-melta", "Heavy bolter") == 2
    assert accepted("leman russ battle tank", 1, "Heavy bolter x2", "Heavy flamer") == 3
    assert accepted("leman russ battle tank", 1, "Heavy bolter x3", "Storm bolter") == 4
    assert accepted(
        "leman russ battle tank", 1, "Lascannon", "Multi-melta x2", "Heavy stubber",
        "Hunter-killer missile",
    ) == 5  # fmt: skip
    assert "Storm bolter" in refusal(
        "leman russ battle tank", 1, "Multi-melta x2", "Heavy stubber", "Storm bolter"
    )
    # one pair of sponsons and one hull weapon: at most 3 of these
    assert "need 4" in refusal("leman russ battle tank", 1, "Multi-melta x2", "Heavy bolter x2")
    assert "needs 2" in refusal("leman russ battle tank", 1, "Hunter-killer missile x2")


# Boyz: "For every 10 models in this unit, 1 Boy's choppa and slugga can be replaced with" a big
# shoota or a rokkit launcha (each with a close combat weapon): 2 of them in 20, 1 in 10.
def test_boyz_one_special_weapon_for_every_ten() -> None:
    assert accepted("boyz", 20, "Rokkit launcha", "Big shoota") == 2
    assert accepted("boyz", 20, "Rokkit launcha x2") == 2
    msg = refusal("boyz", 20, "Rokkit launcha x2", "Big shoota")
    assert "only 2 models (1 for every 10 models)" in msg and "big-shoota" in msg
    assert "one wargear option" in refusal("boyz", 10, "Rokkit launcha", "Big shoota")


# Termagants: three separate options, each "For every 10 models in this unit, 1 model's ranged
# weapon can be replaced with 1" shardlauncher / spike rifle / strangleweb: 1 of each in 10,
# 2 of each in 20, whatever the others take.
def test_termagants_one_of_each_special_for_every_ten() -> None:
    assert accepted("termagants", 20, "Shardlauncher x2") == 2
    assert accepted("termagants", 10, "Shardlauncher", "Spike rifle", "Strangleweb") == 3
    assert accepted("termagants", 20, "Spike rifle x2", "Strangleweb x2") == 4
    assert "Shardlauncher x2 needs 2" in refusal("termagants", 10, "Shardlauncher x2")
    assert "Spike rifle x3 needs 3" in refusal("termagants", 20, "Spike rifle x3")


# Termagants: "All models in this unit can each have their fleshborer replaced with 1
# Termagant devourer" (and another option the same with spinefists): every model or none, the
# specials above aside.
def test_termagants_devourers_for_every_model_or_none() -> None:
    assert accepted("termagants", 10, "Termagant devourer x9", "Shardlauncher") == 10
    msg = refusal("termagants", 10, "Termagant devourer x5", "Fleshborer x5")
    assert "'devourers'" in msg and "every Termagant or none" in msg and "Fleshborer" in msg
    assert "'spinefists'" in refusal("termagants", 20, "Termagant spinefists", "Termagant devourer")
    unit = build_unit(UnitChoice(sheet("termagants"), 20, "devourers"), "attacker")
    assert [(g.count, g.weapons[0].name) for g in unit.groups] == [(20, "Termagant devourer")]


def test_whole_needs_an_entry_for_every_model(tmp_path: Path) -> None:
    def one(data: dict[str, Any]) -> None:
        data["loadouts"]["flamers"][0]["whole"] = True  # count: 2

    assert "loadouts.flamers[0].whole" in refused(tmp_path, one)


# Intercessor Squad: "For every 5 models in this unit, 1 model equipped with a bolt rifle can be
# equipped with 1 Astartes grenade launcher" (the Sergeant too); his bolt rifle and his close
# combat weapon can each be replaced (a hand flamer and a thunder hammer together).
def test_intercessors_grenade_launcher_for_every_five_and_the_sergeants_pairs() -> None:
    gl = "Astartes grenade launcher – krak"
    assert accepted("intercessor squad", 10, f"{gl} x2") == 2
    assert accepted("intercessor squad", 5, "Hand flamer", gl, "Bolt rifle x3") == 5
    msg = refusal("intercessor squad", 5, f"{gl} x2")
    assert "only 1 model (1 for every 5 models)" in msg and "sergeant-grenade-launcher" in msg
    ds = sheet("intercessor squad")
    unit = build_unit(UnitChoice(ds, 5, "sergeant-hand-flamer-thunder-hammer"), "attacker")
    sergeant = [g for g in unit.groups if g.profile.name == "Intercessor Sergeant"]
    assert [w.name for w in sergeant[0].weapons] == ["Bolt pistol", "Hand flamer", "Thunder hammer"]


# Terminator Squad: "For every 5 models in this unit, 1 Terminator's storm bolter can be
# replaced with" an assault cannon, a heavy flamer, or a cyclone missile launcher and a storm
# bolter: one of them in 5, two in 10.
def test_terminators_one_heavy_weapon_for_every_five() -> None:
    assert accepted("terminator squad", 10, "Assault cannon", "Heavy flamer") == 2
    assert accepted("terminator squad", 10, "Heavy flamer x2") == 2
    msg = refusal("terminator squad", 5, "Assault cannon", "Heavy flamer")
    assert "only 1 model (1 for every 5 models)" in msg and "cyclone-missile-launcher" in msg


# Carnifexes: any number of models can each replace their extra scything talons (deathspitters,
# devourers, heavy venom cannon, stranglethorn cannon, crushing claws) and their scything
# talons (deathspitters, devourers, crushing claws), and take bio-plasma and spine banks.
def test_carnifexes_both_swaps_and_the_additions() -> None:
    assert accepted("carnifexes", 1, "Stranglethorn cannon", "Bio-plasma", "Spine banks") == 3
    assert accepted(
        "carnifexes", 1, "Heavy venom cannon", "Deathspitters with slimer maggots"
    ) == 2  # fmt: skip
    # both cannons replace the extra scything talons: one of them
    assert "need 2" in refusal("carnifexes", 1, "Heavy venom cannon", "Stranglethorn cannon")
    assert "needs 2" in refusal("carnifexes", 1, "Bio-plasma x2")


# Knight Paladin: its meltagun can be replaced with a second Questoris heavy stubber; it can
# take one of Icarus autocannons, an ironstorm missile pod or a stormspear rocket pod.
def test_knight_paladin_one_carapace_weapon() -> None:
    assert accepted("knight paladin", 1, "Questoris heavy stubber x2", "Icarus autocannons") == 3
    assert "at once" in refusal("knight paladin", 1, "Stormspear rocket pod", "Icarus autocannons")
    assert "need 3" in refusal("knight paladin", 1, "Questoris heavy stubber x2", "Meltagun")


# The files whose options needed nothing new (their loadouts already say it all): each adds one
# hunter-killer missile / multi-melta / storm bolter, or swaps every model or one.
@pytest.mark.parametrize(
    ("name", "models", "legal", "illegal"),
    [
        ("land raider", 1, ("Multi-melta", "Storm bolter", "Hunter-killer missile"),
         ("Multi-melta x2",)),
        ("rhino", 1, ("Storm bolter", "Hunter-killer missile"), ("Hunter-killer missile x2",)),
        ("armiger warglaive", 1, ("Meltagun",), ("Meltagun", "Questoris heavy stubber")),
        ("necron warriors", 10, ("Gauss reaper x4", "Gauss flayer x6"), ("Gauss reaper x11",)),
        ("lootas", 10, ("Kustom mega-blasta", "Rokkit launcha"), ("Rokkit launcha x3",)),
        ("warboss", 1, ("Kombi-weapon",), ("Kombi-weapon x2",)),
        ("custodian guard", 5, ("Sentinel blade x4",), ("Sentinel blade x5", "Misericordia")),
    ],
)  # fmt: skip
def test_the_other_curated_files(name: str, models: int, legal: tuple, illegal: tuple) -> None:
    assert accepted(name, models, *legal) >= len(legal)
    refusal(name, models, *illegal)


# ---------------------------------------------------------------------------------------------
# Validation of a user's datasheet: the file and the field named


def with_limit(limits: list[dict[str, Any]]):
    def mutate(data: dict[str, Any]) -> None:
        data["loadouts"]["plasma"] = [
            {"model": "Trooper", "count": 1, "equipped": ["plasma gun", "knife"]}
        ]
        data["option_limits"] = limits

    return mutate


def test_a_loadout_listed_twice_in_one_limit_is_refused_as_such(tmp_path: Path) -> None:
    msg = refused(tmp_path, with_limit([{"loadouts": ["flamers", "flamers"], "models": 1}]))
    assert "option_limits[0].loadouts[1]" in msg and "listed twice" in msg
    assert "another limit" not in msg
    msg = refused(
        tmp_path,
        with_limit(
            [{"loadouts": ["flamers"], "models": 1}, {"loadouts": ["flamers"], "models": 1}]
        ),
    )
    assert "option_limits[1].loadouts[0]" in msg and "another limit" in msg


def test_keeps_needs_optional_kinds_and_room_for_them(tmp_path: Path) -> None:
    def no_optional(data: dict[str, Any]) -> None:
        data["models"][0]["keeps"] = 99

    msg = refused(tmp_path, no_optional)
    assert "models[0] (Trooper).keeps" in msg and "instead_of" in msg

    def too_many(data: dict[str, Any]) -> None:
        data["models"].append(dict(data["models"][0], name="Gunner", equipped=["flamer"]))
        data["loadouts"]["gunner"] = [
            {"model": "Gunner", "count": 1, "equipped": ["flamer"], "instead_of": "Trooper"}
        ]
        data["models"][0]["keeps"] = 9  # the largest unit has 9 Troopers

    msg = refused(tmp_path, too_many)
    assert "models[0] (Trooper).keeps" in msg and "no unit size has more than 9" in msg


def set_of(up_to: int, group: list[str], once: list[str] | None = None):
    def mutate(data: dict[str, Any]) -> None:
        choice: dict[str, Any] = {"up_to": up_to, "of": ["Flamer", "Plasma gun"], "sets": [group]}
        if once:
            choice["once"] = once
        data["models"][0]["choices"] = [choice]

    return mutate


def test_a_set_larger_than_up_to_is_refused(tmp_path: Path) -> None:
    msg = refused(tmp_path, set_of(1, ["Flamer", "Plasma gun", "Flamer"]))
    assert "models[0].choices[0].sets[0]" in msg and "3 items" in msg and "up to 1" in msg
    msg = refused(tmp_path, set_of(2, ["Flamer", "Flamer"], once=["Flamer"]))
    assert "models[0].choices[0].sets[0]" in msg and "'once'" in msg


def test_the_profiles_of_one_weapon_in_a_set_are_one_item(tmp_path: Path) -> None:
    from test_datasheet import write

    from wh40k_calc.datasheet import load_datasheet

    data = base()
    data["weapons"] += [
        {"name": "Cannon – standard", "range": 36, "A": 1, "skill": 4, "S": 7, "AP": -2, "D": 1,
         "profile_of": "Cannon"},
        {"name": "Cannon – supercharge", "range": 36, "A": 1, "skill": 4, "S": 8, "AP": -3,
         "D": 2, "profile_of": "Cannon"},
    ]  # fmt: skip
    pair = ["Cannon – standard", "Cannon – supercharge"] * 2  # two cannons
    data["models"][0]["choices"] = [{"up_to": 2, "of": pair[:2], "sets": [pair]}]
    ds = load_datasheet(write(tmp_path, data))
    assert len(ds.models[0].choices[0].sets[0]) == 4  # loaded: two cannons are 2 items


# ---------------------------------------------------------------------------------------------
# --weapon text


@pytest.mark.parametrize("text", ["Flamer\nx2", "Flamer\t", "Flam\x1ber", "Flamer\u202e"])
def test_a_weapon_with_a_control_character_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_weapon_spec(text)
    msg = str(info.value)
    assert "control character" in msg
    assert not any(c in msg for c in "\n\t\x1b\u202e"), "shown escaped"
    assert repr(text)[1:-1] in msg


def test_the_command_line_exits_2_on_a_control_character() -> None:
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    result = CliRunner().invoke(
        app, ["shoot", "cadian shock troops", "-t", "boyz", "--weapon", "Flamer\nx2"]
    )
    assert result.exit_code == 2
    assert "Flamer\\nx2" in result.output

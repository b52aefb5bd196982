"""Datasheet YAML validation (DATASHEET_FORMAT.md part 1): every refusal names the file and the
field. Each test writes a small YAML file to tmp_path and loads it with load_datasheet."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from wh40k_calc.datasheet import DatasheetError, load_datasheet, norm_name, parse_datasheet


def base() -> dict[str, Any]:
    """A small valid datasheet: 5 or 10 models, a torrent weapon, a melee weapon, a loadout."""
    return {
        "name": "Test Squad",
        "faction": "Testers",
        "keywords": ["INFANTRY", "battleline"],
        "faction_keywords": ["TESTERS"],
        "models": [
            {"name": "Trooper", "M": 6, "T": 4, "Sv": 4, "W": 1, "Ld": 7, "OC": 2,
             "equipped": ["lasgun", "knife"]},
            {"name": "Sergeant", "M": 6, "T": 4, "Sv": 4, "W": 2, "Ld": 6, "OC": 2,
             "invuln": 5, "feel_no_pain": 6, "keywords": ["character"],
             "equipped": ["Lasgun", "KNIFE"]},
        ],
        "sizes": [
            {"models": {"Trooper": 4, "Sergeant": 1}, "points": 50},
            {"models": {"Trooper": 9, "Sergeant": 1}, "points": 95},
        ],
        "weapons": [
            {"name": "Lasgun", "range": 24, "A": 1, "skill": 4, "S": 3, "AP": 0, "D": 1,
             "abilities": ["rapid fire 1"]},
            {"name": "Flamer", "range": 12, "A": "D6", "S": 4, "AP": 0, "D": 1,
             "abilities": ["torrent", "ignores cover"]},
            {"name": "Plasma gun", "range": 24, "A": 1, "skill": 4, "S": 8, "AP": -3,
             "D": "D3+1", "abilities": ["hazardous"]},
            {"name": "Knife", "range": "melee", "A": 1, "skill": 4, "S": 3, "AP": 0, "D": 1},
        ],
        "loadouts": {
            "flamers": [{"model": "Trooper", "count": 2, "equipped": ["flamer", "knife"]}],
        },
        "source": "made up for the tests",
    }  # fmt: skip


def write(tmp_path: Path, data: object, name: str = "test-squad.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def refused(tmp_path: Path, mutate: Callable[[dict[str, Any]], None]) -> str:
    data = base()
    mutate(data)
    path = write(tmp_path, data)
    with pytest.raises(DatasheetError) as info:
        load_datasheet(path)
    message = str(info.value)
    assert str(path) in message, "the error must name the file"
    return message


# ---------------------------------------------------------------------------------------------
# The valid base loads into the model the contract describes


def test_valid_datasheet_loads(tmp_path: Path) -> None:
    ds = load_datasheet(write(tmp_path, base()))
    assert ds.name == "Test Squad"
    assert ds.faction == "Testers"
    assert ds.keywords == frozenset({"INFANTRY", "BATTLELINE"})
    assert ds.faction_keywords == frozenset({"TESTERS"})
    assert [m.name for m in ds.models] == ["Trooper", "Sergeant"]
    sarge = ds.model("Sergeant")
    assert sarge is not None
    assert (sarge.T, sarge.Sv, sarge.W, sarge.invuln, sarge.feel_no_pain) == (4, 4, 2, 5, 6)
    assert sarge.keywords == frozenset({"CHARACTER"})
    assert sarge.equipped == ("lasgun", "knife")  # matched case-insensitively
    assert [s.total for s in ds.sizes] == [5, 10]
    assert ds.min_size.points == 50 and ds.max_size.points == 95
    flamer = ds.weapon("flamer")
    assert flamer is not None
    assert flamer.skill is None and flamer.abilities.torrent and flamer.abilities.ignores_cover
    assert (flamer.A.count, flamer.A.sides, flamer.A.bonus) == (1, 6, 0)
    plasma = ds.weapon("PLASMA GUN")
    assert plasma is not None and plasma.AP == -3
    assert (plasma.D.count, plasma.D.sides, plasma.D.bonus) == (1, 3, 1)
    knife = ds.weapon("Knife")
    assert knife is not None and knife.is_melee and knife.range is None
    assert ds.weapon("Lasgun").range == 24  # type: ignore[union-attr]
    entry = ds.loadouts["flamers"][0]
    assert (entry.model, entry.count, entry.equipped) == ("Trooper", 2, ("flamer", "knife"))
    assert ds.path == write(tmp_path, base())


def test_count_all_and_defaults(tmp_path: Path) -> None:
    data = base()
    data["loadouts"]["all-flamers"] = [{"model": "Trooper", "equipped": ["flamer"]}]
    data["models"][0].pop("equipped")
    ds = load_datasheet(write(tmp_path, data))
    assert ds.loadouts["all-flamers"][0].count is None
    trooper = ds.models[0]
    assert trooper.equipped == ()
    assert trooper.invuln is None and trooper.feel_no_pain is None
    assert trooper.invuln_ranged_only is False
    assert ds.rules == () and ds.leader_of == ()


def test_save_7_means_no_save_and_is_accepted(tmp_path: Path) -> None:
    data = base()
    data["models"][0]["Sv"] = 7
    assert load_datasheet(write(tmp_path, data)).models[0].Sv == 7


def test_range_limits_accepted(tmp_path: Path) -> None:
    data = base()
    data["models"][0].update(T=20, W=200, Sv=2)
    data["weapons"][0].update(skill=2, AP=-6)
    data["weapons"][2].update(skill=6)
    ds = load_datasheet(write(tmp_path, data))
    assert (ds.models[0].T, ds.models[0].W, ds.models[0].Sv) == (20, 200, 2)
    assert ds.weapons[0].AP == -6
    data["models"][0].update(T=1)
    assert load_datasheet(write(tmp_path, data, "t1.yaml")).models[0].T == 1


# ---------------------------------------------------------------------------------------------
# Refusals: each names the file and the field


def test_missing_characteristic(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d["models"][0].pop("T"))
    assert msg.endswith(": models[0]: missing field 'T'")


def test_missing_weapon_characteristic(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d["weapons"][0].pop("S"))
    assert msg.endswith(": weapons[0]: missing field 'S'")


@pytest.mark.parametrize(
    ("where", "index", "field", "value"),
    [
        ("models", 0, "T", 25),
        ("models", 0, "T", 0),
        ("models", 1, "Sv", 1),
        ("models", 1, "Sv", 8),
        ("models", 0, "W", 0),
        ("models", 0, "W", 201),
        ("weapons", 0, "skill", 7),
        ("weapons", 0, "skill", 1),
        ("weapons", 0, "AP", 1),
        ("weapons", 2, "AP", -7),
        ("models", 1, "invuln", 7),
        ("models", 1, "feel_no_pain", 1),
    ],
)
def test_out_of_range(tmp_path: Path, where: str, index: int, field: str, value: int) -> None:
    msg = refused(tmp_path, lambda d: d[where][index].update({field: value}))
    assert f"{where}[{index}].{field}" in msg


@pytest.mark.parametrize(
    ("where", "index", "field", "value"),
    [("models", 0, "T", "4"), ("models", 0, "W", True), ("weapons", 0, "AP", "-1")],
)
def test_wrong_type(tmp_path: Path, where: str, index: int, field: str, value: object) -> None:
    msg = refused(tmp_path, lambda d: d[where][index].update({field: value}))
    assert f"{where}[{index}].{field}" in msg


def test_unknown_field_typo(tmp_path: Path) -> None:
    def typo(d: dict[str, Any]) -> None:
        d["models"][0]["SV"] = d["models"][0].pop("Sv")

    msg = refused(tmp_path, typo)
    assert ": models[0]: unknown field 'SV'; did you mean 'Sv'? (fields: name, M, T, Sv, W, " in msg
    assert ", equipped, " in msg and ", keywords" in msg


def test_unknown_top_level_field(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d.update(Keywords=["X"]))
    assert "Keywords" in msg


@pytest.mark.parametrize(("field", "text"), [("A", "D7"), ("D", "2D"), ("A", "x"), ("D", "D6+")])
def test_dice_that_does_not_parse(tmp_path: Path, field: str, text: str) -> None:
    msg = refused(tmp_path, lambda d: d["weapons"][0].update({field: text}))
    assert "weapons[0]" in msg
    assert f".{field}" in msg
    assert "Lasgun" in msg
    assert repr(text) in msg


def test_weapon_in_equipped_not_defined(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d["models"][1]["equipped"].append("power sword"))
    assert "models[1]" in msg
    assert "equipped" in msg
    assert "power sword" in msg


def test_weapon_in_loadout_not_defined(tmp_path: Path) -> None:
    msg = refused(
        tmp_path, lambda d: d["loadouts"]["flamers"][0].update(equipped=["meltagun", "knife"])
    )
    assert "loadouts.flamers[0].equipped" in msg
    assert "meltagun" in msg


def test_loadout_model_unknown(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d["loadouts"]["flamers"][0].update(model="Commissar"))
    assert "loadouts.flamers[0].model" in msg
    assert "Commissar" in msg


def test_loadout_count_larger_than_the_largest_unit(tmp_path: Path) -> None:
    # the largest size has 9 Troopers
    msg = refused(tmp_path, lambda d: d["loadouts"]["flamers"][0].update(count=10))
    assert "loadouts.flamers[0].count" in msg
    assert "10" in msg


def test_loadout_count_equal_to_the_largest_unit_is_accepted(tmp_path: Path) -> None:
    data = base()
    data["loadouts"]["flamers"][0]["count"] = 9
    assert load_datasheet(write(tmp_path, data)).loadouts["flamers"][0].count == 9


def test_loadout_count_of_a_model_the_unit_has_once(tmp_path: Path) -> None:
    msg = refused(
        tmp_path,
        lambda d: d["loadouts"].update(
            two_sarges=[{"model": "Sergeant", "count": 2, "equipped": ["flamer"]}]
        ),
    )
    assert "loadouts.two_sarges[0].count" in msg


def test_loadout_entries_together_larger_than_the_largest_unit(tmp_path: Path) -> None:
    refused(
        tmp_path,
        lambda d: d["loadouts"].update(
            too_many=[
                {"model": "Trooper", "count": 5, "equipped": ["flamer", "knife"]},
                {"model": "Trooper", "count": 5, "equipped": ["plasma gun", "knife"]},
            ]
        ),
    )


def test_default_loadout_name_is_reserved(tmp_path: Path) -> None:
    msg = refused(
        tmp_path, lambda d: d["loadouts"].update(default=[{"model": "Trooper", "equipped": []}])
    )
    assert "loadouts.default" in msg


def test_size_naming_an_unknown_model(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d["sizes"][1]["models"].update(Commissar=1))
    assert "sizes[1]" in msg
    assert "Commissar" in msg


def test_size_with_no_models(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d["sizes"][0].update(models={"Trooper": 0}))
    assert "sizes[0]" in msg


def test_no_models_at_all(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d.update(models=[]))
    assert msg.endswith(": models: needs at least one model")


def test_missing_name(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d.pop("name"))
    assert msg.endswith(": missing field 'name'")


@pytest.mark.parametrize("other", ["Lasgun", "lasgun", "LASGUN!"])
def test_duplicate_weapon_names(tmp_path: Path, other: str) -> None:
    def dup(d: dict[str, Any]) -> None:
        d["weapons"].append(dict(d["weapons"][0], name=other))

    msg = refused(tmp_path, dup)
    assert "weapons[4]" in msg
    assert other in msg


def test_two_models_with_one_name(tmp_path: Path) -> None:
    def dup(d: dict[str, Any]) -> None:
        d["models"].append(copy.deepcopy(d["models"][0]))

    assert "models" in refused(tmp_path, dup)


def test_profile_of_without_a_sibling(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d["weapons"][2].update(profile_of="Plasma gun"))
    assert "weapons[2]" in msg and "profile_of" in msg


def test_profiles_of_one_weapon_accepted(tmp_path: Path) -> None:
    data = base()
    data["weapons"][2]["name"] = "Plasma gun - standard"
    data["weapons"][2]["profile_of"] = "Plasma gun"
    data["weapons"].append(
        dict(data["weapons"][2], name="Plasma gun - supercharge", S=9, D=2, profile_of="Plasma gun")
    )
    ds = load_datasheet(write(tmp_path, data))
    standard = ds.weapon("Plasma gun - standard")
    supercharge = ds.weapon("Plasma gun - supercharge")
    assert standard is not None and supercharge is not None
    assert standard.profile_of == supercharge.profile_of == "Plasma gun"
    assert supercharge.D.is_constant and supercharge.D.mean == 2


def test_torrent_weapon_without_skill_is_accepted(tmp_path: Path) -> None:
    data = base()
    assert "skill" not in data["weapons"][1]
    ds = load_datasheet(write(tmp_path, data))
    assert ds.weapon("Flamer").skill is None  # type: ignore[union-attr]
    data["weapons"][1]["skill"] = None
    assert load_datasheet(write(tmp_path, data, "null-skill.yaml")).weapons[1].skill is None


def test_non_torrent_weapon_without_skill_is_refused(tmp_path: Path) -> None:
    msg = refused(tmp_path, lambda d: d["weapons"][0].pop("skill"))
    assert "weapons[0]" in msg
    assert "skill" in msg


def test_torrent_in_a_comma_list_counts(tmp_path: Path) -> None:
    data = base()
    data["weapons"][1]["abilities"] = ["ignores cover, torrent"]
    assert load_datasheet(write(tmp_path, data)).weapons[1].abilities.torrent


# ---------------------------------------------------------------------------------------------
# Files that are not YAML mappings


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("name: Broken\nmodels: [\n", 3, 1),
        ("name: Broken\nfaction: a: b\n", 2, 11),
        ("name: Broken\n  bad indent: 1\n", 2, 13),
    ],
)
def test_malformed_yaml_gives_line_and_column(
    tmp_path: Path, text: str, line: int, column: int
) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasheetError) as info:
        load_datasheet(path)
    msg = str(info.value)
    assert str(path) in msg
    assert f"line {line}" in msg
    assert f"column {column}" in msg


@pytest.mark.parametrize("text", ["- a\n- b\n", "just some text\n", "42\n", ""])
def test_non_mapping_top_level(tmp_path: Path, text: str) -> None:
    path = tmp_path / "list.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasheetError) as info:
        load_datasheet(path)
    assert str(path) in str(info.value)
    assert "mapping" in str(info.value)


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: Caf\u00e9 Squad\n".encode("latin-1"))
    with pytest.raises(DatasheetError) as info:
        load_datasheet(path)
    assert str(path) in str(info.value)
    assert "UTF-8" in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(DatasheetError) as info:
        load_datasheet(path)
    assert str(path) in str(info.value)


def test_parse_datasheet_names_the_given_file() -> None:
    with pytest.raises(DatasheetError) as info:
        parse_datasheet(["not", "a", "mapping"], "somewhere/x.yaml")
    assert "somewhere/x.yaml" in str(info.value)


def test_datasheet_error_is_a_value_error() -> None:
    assert issubclass(DatasheetError, ValueError)


def test_norm_name() -> None:
    assert norm_name("Lord Invocatus") == norm_name("lord-invocatus") == "lordinvocatus"
    assert norm_name("Coward\u2019s Bane") == norm_name("coward's bane")
    assert norm_name("Kustom mega-blasta") == "kustommegablasta"

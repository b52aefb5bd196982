"""The CSV-export importer (wh40k_calc.importers.wahapedia) and the `import` command, on the
real July 2025 export in ../shared/data (skipped where that folder is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
import yaml
from typer.testing import CliRunner

from wh40k_calc.datasheet import Datasheet, load_datasheet, norm_name, parse_datasheet
from wh40k_calc.importers.cli import register
from wh40k_calc.importers.wahapedia import (
    ImportFailure,
    html_to_text,
    import_unit,
    slug,
    to_yaml,
    weapon_abilities,
)

CSV_DIR = Path(__file__).resolve().parents[2] / "shared/data/wahapedia-10e-2025-07"
SEEDS = Path(__file__).resolve().parents[1] / "datasheets"

# each test skipped (not the module): the summary counts them (conftest.py)
pytestmark = pytest.mark.skipif(
    not (CSV_DIR / "Datasheets.csv").is_file(), reason=f"the CSV export is not here: {CSV_DIR}"
)


def imported(name: str, faction: str | None = None) -> tuple[Datasheet, dict, list[str]]:
    data, warnings = import_unit(CSV_DIR, name, faction)
    return parse_datasheet(data, f"<imported {name}>"), data, warnings


def statline(model) -> tuple:
    return (model.M, model.T, model.Sv, model.W, model.Ld, model.OC, model.invuln)


def profile(weapon) -> tuple:
    return (
        weapon.range,
        weapon.A,
        weapon.skill,
        weapon.S,
        weapon.AP,
        weapon.D,
        sorted(weapon.ability_texts),
        weapon.profile_of,
    )


# ---------------------------------------------------------------------------------------------
# Real rows against the hand-written seeds


@pytest.mark.parametrize("seed", ["orks/lootas.yaml", "orks/boyz.yaml"])
def test_import_matches_hand_written_seed(seed: str) -> None:
    expected = load_datasheet(SEEDS / seed)
    sheet, _, warnings = imported(expected.name)
    assert warnings == []
    assert sheet.name == expected.name
    assert sheet.faction == expected.faction
    assert sheet.keywords == expected.keywords
    assert sheet.faction_keywords == expected.faction_keywords
    # models: same names, allocation order, statlines and default equipment
    assert [m.key for m in sheet.models] == [m.key for m in expected.models]
    for got, want in zip(sheet.models, expected.models, strict=True):
        assert statline(got) == statline(want), got.name
        assert got.equipped == want.equipped, got.name
    # weapons: the same set, each with the same profile
    assert {w.key for w in sheet.weapons} == {w.key for w in expected.weapons}
    for want in expected.weapons:
        got = sheet.weapon(want.name)
        assert got is not None and profile(got) == profile(want), want.name
    # sizes: the same compositions (points differ: the seeds follow their pages, see below)
    assert [dict(s.composition) for s in sheet.sizes] == [
        dict(s.composition) for s in expected.sizes
    ]


def test_points_follow_the_export() -> None:
    # The seeds take points from their pages (80/160 Boyz, 50/100 Lootas); the export has
    # later values for the larger sizes.
    assert [s.points for s in imported("Boyz")[0].sizes] == [80, 170]
    assert [s.points for s in imported("Lootas")[0].sizes] == [50, 115]


def test_explicit_and_alternative_compositions() -> None:
    lootas = imported("Lootas")[0]
    assert [dict(s.composition) for s in lootas.sizes] == [
        {"Loota": 4, "Spanner": 1},
        {"Loota": 8, "Spanner": 2},
    ]
    cadians = imported("Cadian Shock Troops", "AM")[0]
    assert [m.name for m in cadians.models] == ["Shock Trooper", "Shock Trooper Sergeant"]
    assert [dict(s.composition) for s in cadians.sizes] == [
        {"Shock Trooper": 9, "Shock Trooper Sergeant": 1},
        {"Shock Trooper": 18, "Shock Trooper Sergeant": 2},
    ]


def test_single_statline_named_after_composition() -> None:
    intercessors = imported("Intercessor Squad")[0]
    assert [m.name for m in intercessors.models] == ["Intercessor", "Intercessor Sergeant"]
    assert [(s.total, s.points) for s in intercessors.sizes] == [(5, 80), (10, 160)]
    carnifexes = imported("Carnifexes")[0]
    assert [m.name for m in carnifexes.models] == ["Carnifex"]


def test_warboss() -> None:
    sheet, data, warnings = imported("Warboss")
    assert warnings == []
    (boss,) = sheet.models
    assert (boss.T, boss.Sv, boss.invuln, boss.W, boss.Ld) == (5, 4, 5, 6, 6)
    assert "CHARACTER" in sheet.keywords
    assert "Boyz" in sheet.leader_of
    assert boss.equipped == ("kombiweapon", "twinslugga", "bigchoppa")
    assert sheet.weapon("Attack squig").abilities.extra_attacks
    assert data["source"].startswith("wahapedia-10e-2025-07 CSV export, datasheet 000000001")


def test_invulnerable_save_against_ranged_attacks_only() -> None:
    (knight,) = imported("Armiger Warglaive")[0].models
    assert (knight.invuln, knight.invuln_ranged_only) == (5, True)
    (terminator, _sergeant) = imported("Terminator Squad")[0].models
    assert (terminator.invuln, terminator.invuln_ranged_only) == (4, False)


def test_torrent_weapons_have_no_skill() -> None:
    flamer = imported("Terminator Squad")[0].weapon("Heavy flamer")
    assert flamer.skill is None and flamer.abilities.torrent


def test_weapons_carried_twice_are_listed_twice() -> None:
    (raider,) = imported("Land Raider")[0].models
    assert raider.equipped.count("godhammerlascannon") == 2


# ---------------------------------------------------------------------------------------------
# Weapon names: profiles and melee/ranged twins


def test_multi_profile_weapons_get_profile_of() -> None:
    sheet = imported("Intercessor Squad")[0]
    standard = sheet.weapon("Plasma pistol – standard")
    supercharge = sheet.weapon("Plasma pistol – supercharge")
    assert standard.profile_of == supercharge.profile_of == "Plasma pistol"
    assert supercharge.abilities.hazardous and not standard.abilities.hazardous
    assert sheet.weapon("Astartes grenade launcher – krak").profile_of == (
        "Astartes grenade launcher"
    )
    assert sheet.weapon("Bolt rifle").profile_of is None


def test_default_equipment_takes_every_profile() -> None:
    (paladin,) = imported("Knight Paladin")[0].models
    assert "reaperchainswordstrike" in paladin.equipped
    assert "reaperchainswordsweep" in paladin.equipped


def test_hyphenated_profiles_are_recognised() -> None:
    # some rows write "X - strike" with a hyphen; the name is normalised to an en dash
    sheet = imported("Ghazghkull Thraka")[0]
    strike = sheet.weapon("Gork’s Klaw – strike")
    assert strike is not None and strike.profile_of == "Gork’s Klaw"


def test_ranged_and_melee_weapons_with_one_name_are_suffixed() -> None:
    sheet, _, _ = imported("Custodian Guard")
    ranged = sheet.weapon("Guardian spear")
    melee = sheet.weapon("Guardian spear (melee)")
    assert ranged.range == 24 and ranged.A.bonus == 2
    assert melee.is_melee and melee.S == 7
    assert sheet.weapon("Sentinel blade (melee)").is_melee
    (guard,) = sheet.models
    assert guard.equipped == ("guardianspear", "guardianspearmelee")


def test_profiles_named_like_a_ranged_weapon_are_kept_apart() -> None:
    sheet = imported("Cerastus Knight Lancer")[0]
    lance = sheet.weapon("Cerastus shock lance")
    strike = sheet.weapon("Cerastus shock lance – strike")
    assert lance.profile_of is None and not lance.is_melee
    assert strike.profile_of == "Cerastus shock lance (melee)"


# ---------------------------------------------------------------------------------------------
# Errors


def test_unknown_name_suggests_close_ones() -> None:
    with pytest.raises(ImportFailure, match="did you mean") as info:
        import_unit(CSV_DIR, "Intercesor Squad")
    assert isinstance(info.value, ValueError)
    assert "Intercessor Squad" in str(info.value)


def test_ambiguous_name_lists_factions() -> None:
    with pytest.raises(ImportFailure) as info:
        import_unit(CSV_DIR, "Leman Russ Battle Tank")
    message = str(info.value)
    assert "Astra Militarum (AM)" in message and "Genestealer Cults (GC)" in message
    assert "--faction" in message


@pytest.mark.parametrize("faction", ["AM", "am", "Astra Militarum"])
def test_faction_by_id_or_name(faction: str) -> None:
    assert imported("Leman Russ Battle Tank", faction)[0].faction == "Astra Militarum"


def test_weapons_borrowed_from_the_same_unit_of_another_faction() -> None:
    sheet, _, warnings = imported("Cadian Shock Troops", "Genestealer Cults")
    assert sheet.faction == "Genestealer Cults"
    assert sheet.weapon("Lasgun") is not None
    assert any("weapons taken from the Astra Militarum (AM) datasheet" in w for w in warnings)


def test_unknown_faction_and_wrong_faction() -> None:
    with pytest.raises(ImportFailure, match="unknown faction"):
        import_unit(CSV_DIR, "Boyz", "Orcs and Goblins")
    with pytest.raises(ImportFailure, match="exists in: Orks"):
        import_unit(CSV_DIR, "Boyz", "Necrons")


def test_missing_export_folder(tmp_path: Path) -> None:
    with pytest.raises(ImportFailure, match=r"no Datasheets\.csv"):
        import_unit(tmp_path, "Boyz")


def test_titans_fit_the_format() -> None:
    # DATASHEET_FORMAT.md allows W up to 200: the Warlord Titan's export row says W 100
    data, _ = import_unit(CSV_DIR, "Warlord Titan")
    assert data["models"][0]["W"] == 100


# ---------------------------------------------------------------------------------------------
# Text helpers and YAML


def test_text_helpers() -> None:
    assert html_to_text('<b>Every Boy</b> is &amp; <span class="kwb">ORKS</span>') == (
        "Every Boy is & ORKS"
    )
    description = (
        '<a href="/core#Anti">ANTI-VEHICLE 2+</a>, <a href="/core#Melta">melta 2</a>. one shot'
    )
    assert weapon_abilities(description) == ["anti-vehicle 2+", "melta 2", "one shot"]
    assert slug("T’au Empire") == "tau-empire"
    assert slug("Leman Russ Battle Tank") == "leman-russ-battle-tank"


@pytest.mark.parametrize("name", ["Boyz", "Knight Paladin", "Carnifexes", "Intercessor Squad"])
def test_yaml_round_trip(name: str) -> None:
    data, _ = import_unit(CSV_DIR, name)
    text = to_yaml(data, header="first line\nsecond line")
    assert text.startswith("# first line\n# second line\nname: ")
    assert yaml.safe_load(text) == data
    assert "  - {name: " in text  # one flow line per weapon


# ---------------------------------------------------------------------------------------------
# The `import` command


@pytest.fixture
def app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Tiny app for the tests."""

    register(app)
    return app


def run(app: typer.Typer, *args: str):
    return CliRunner().invoke(app, ["import", *args])


def test_import_command_writes_then_refuses_then_forces(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "user"
    target = out / "orks" / "warboss.yaml"

    # Warboss has a curated shipped datasheet: --replace-curated imports it all the same
    curated = "--replace-curated"
    result = run(app, "Warboss", "--csv", str(CSV_DIR), "--out", str(out), curated)
    assert result.exit_code == 0, result.output
    assert f"wrote {target}" in result.output
    sheet = load_datasheet(target)
    assert sheet.name == "Warboss" and sheet.models[0].W == 6
    assert target.read_text(encoding="utf-8").startswith("# Imported by `calc import`")

    target.write_text("sentinel\n", encoding="utf-8")
    result = run(app, "Warboss", "--csv", str(CSV_DIR), "--out", str(out), curated)
    assert result.exit_code != 0
    assert "--force" in result.output and "Traceback" not in result.output
    assert target.read_text(encoding="utf-8") == "sentinel\n"

    result = run(app, "Warboss", "--csv", str(CSV_DIR), "--out", str(out), "--force", curated)
    assert result.exit_code == 0, result.output
    assert load_datasheet(target).name == "Warboss"


def test_import_command_several_names_and_faction(app: typer.Typer, tmp_path: Path) -> None:
    result = run(
        app,
        "Cadian Shock Troops",
        "Leman Russ Battle Tank",
        "--faction",
        "AM",
        "--csv",
        str(CSV_DIR),
        "--out",
        str(tmp_path),
        "--replace-curated",  # both have curated shipped datasheets
    )
    assert result.exit_code == 0, result.output
    for stem in ("cadian-shock-troops", "leman-russ-battle-tank"):
        assert load_datasheet(tmp_path / "astra-militarum" / f"{stem}.yaml").faction == (
            "Astra Militarum"
        )


def test_import_command_unknown_name(app: typer.Typer, tmp_path: Path) -> None:
    result = run(app, "Intercesor Squad", "--csv", str(CSV_DIR), "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "did you mean" in result.output and "Intercessor Squad" in result.output
    assert "Traceback" not in result.output
    assert not any(tmp_path.iterdir())


def test_import_command_ambiguous_name(app: typer.Typer, tmp_path: Path) -> None:
    result = run(app, "Cadian Shock Troops", "--csv", str(CSV_DIR), "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "Genestealer Cults" in result.output and "Astra Militarum" in result.output


def test_import_command_csv_from_environment(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WH40K_CALC_CSV", str(CSV_DIR))
    result = run(app, "Rhino", "--out", str(tmp_path), "--replace-curated")  # curated too
    assert result.exit_code == 0, result.output
    rhino = load_datasheet(tmp_path / "space-marines" / "rhino.yaml")
    assert norm_name(rhino.name) == "rhino"

    monkeypatch.setenv("WH40K_CALC_CSV", str(tmp_path / "nowhere"))
    result = run(app, "Rhino", "--out", str(tmp_path))
    assert result.exit_code == 1 and "nowhere: the folder does not exist" in result.output
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("WH40K_CALC_CSV", str(tmp_path / "empty"))
    result = run(app, "Rhino", "--out", str(tmp_path))
    assert result.exit_code == 1 and "no Datasheets.csv" in result.output


def test_names_keep_the_datas_casing() -> None:
    """The export's datasheet table capitalises every word ("Captain On Bike"); the unit
    composition prints the name as the publications do ("1 Captain on Bike"), and that is
    the name generated. A name the composition does not print keeps its capitals but the
    small words inside it ("Rein And Raus": "1 Rein" and "1 Raus" only)."""
    assert imported("captain on bike")[0].name == "Captain on Bike"
    assert imported("Shield-captain On Dawneagle Jetbike")[0].name == (
        "Shield-Captain on Dawneagle Jetbike"
    )
    assert imported("rein and raus")[0].name == "Rein and Raus"
    assert imported("Lootas")[0].name == "Lootas"


def test_unit_name_rules() -> None:
    from wh40k_calc.importers.names import unit_name

    assert unit_name("Captain On Bike", ["Captain on Bike", "Bike"]) == "Captain on Bike"
    assert unit_name("Keeper Of Secrets", []) == "Keeper of Secrets"
    assert unit_name("The Masque Of Slaanesh", []) == "The Masque of Slaanesh"  # first kept
    assert unit_name("Overlord with translocation shroud", []) == (
        "Overlord with translocation shroud"  # not capitalised word by word: as written
    )


def test_separate_options_offering_one_swap_add_up() -> None:
    """Datasheet 000000903 (Battle Sisters Squad): options 3 and 4 each let 1 Battle Sister
    replace her boltgun with one of a list, both lists holding a meltagun: each option's
    loadout equips 1 model, and one loadout more, ``meltagun-x2``, equips 2 (the options are
    taken together; a Sister Superior's option is not added to a Battle Sister's)."""
    _, data, _ = imported("Battle Sisters Squad", "Adepta Sororitas")
    loadouts = data["loadouts"]
    melta = ["Bolt pistol", "Meltagun", "Close combat weapon"]
    singles = [
        n for n, es in loadouts.items() if es[0]["equipped"] == melta and es[0]["count"] == 1
    ]
    assert len(singles) == 2  # one an option
    assert loadouts["meltagun-x2"] == [{"model": "Battle Sister", "count": 2, "equipped": melta}]
    assert "heavy-bolter-x2" not in loadouts  # option 4 alone offers a heavy bolter
    assert not any(
        n.endswith("-x2") for n, es in loadouts.items() if es[0]["model"] != "Battle Sister"
    )

"""The edition picks the data (issue 17): ``--edition 11`` uses the edition-11 datasheets
(game-datacards 912), ``--edition 10`` the 10th-edition ones, in every command; a unit of the
other edition only is refused with the reason; the data's own faction names are accepted; the
chapters' datasheets are found through Space Marines; the data version is on the first line and
in the JSON; the player's edition comes from --edition, WH40K_CALC_EDITION or the config file,
in that order; bad values are refused in one line without a traceback; a newer edition-11 set in
the user data folder replaces the shipped one faction by faction.

The expected numbers are the data's (the issue's: 10 Boyz 75 points and 10 Intercessors 150 in
data 912, 80 and 160 in the 10th-edition export) or worked by hand in the tests.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction as F
from pathlib import Path

import pytest
import yaml
from helpers import cli, write_datasheet

from wh40k_calc.catalog import Catalog
from wh40k_calc.edition import EDITION_VAR, choose
from wh40k_calc.importers.generate_gdc import generate_gdc


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user data folder of the test's own, and no edition set in the environment."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("WH40K_CALC_HOME", str(home))
    monkeypatch.delenv(EDITION_VAR, raising=False)
    monkeypatch.delenv("WH40K_CALC_DATASHEETS", raising=False)
    monkeypatch.delenv("WH40K_CALC_FACTIONS", raising=False)
    return home


def calc(*args: str | Path, code: int = 0):
    """``calc ARGS`` in-process (tests/helpers.cli), with the exit code checked."""
    result = cli(*args)
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def as_json(*args: str | Path) -> dict:
    return json.loads(calc(*args, "--json").stdout)


# ---------------------------------------------------------------------------------------------
# The "done when"


def test_shoot_with_edition_11_uses_its_datasheets_and_names_the_data_version() -> None:
    args = ("shoot", "intercessor squad", "--target", "necron warriors")
    text = calc(*args, "--edition", "11").stdout
    assert "· edition 11 · data 912 ·" in " ".join(text.split("\n")[:2])
    out = as_json(*args, "--edition", "11", "--models", "10")
    assert out["attacker"]["points"] == 150  # data 912: 10 Intercessors are 150 points
    version = {"source": "game-datacards", "version": 912, "date": "2026-07-23"}
    assert out["attacker"]["data"] == out["target"]["data"] == version
    out10 = as_json(*args, "--models", "10")
    assert out10["attacker"]["points"] == 160  # the 10th-edition export's
    assert out10["attacker"]["data"] is None  # hand-written (curated) file: no data version
    assert "data" not in calc(*args).stdout.split("\n")[1]


def test_exchange_and_sequence_name_the_data_version() -> None:
    args = ("--side-a", "fight boyz --models 20", "--side-b", "fight intercessor-squad")
    text = calc("exchange", *args, "--edition", "11").stdout
    assert "· edition 11 · data 912 ·" in " ".join(text.split())
    out = as_json("exchange", *args, "--edition", "11")
    assert out["sides"]["a"]["data"]["version"] == out["sides"]["b"]["data"]["version"] == 912
    seq = as_json("sequence", "shoot lootas", "--target", "boyz", "--edition", "11")
    assert seq["data_versions"] == [912] and seq["attacker"]["units"][0]["data"]["version"] == 912
    assert "· edition 11 · data 912 ·" in " ".join(
        calc("sequence", "shoot lootas", "--target", "boyz", "--edition", "11").stdout.split()
    )


def test_show_the_data_s_faction_name_with_points_and_data_version() -> None:
    out = as_json("show", "Adeptus Astartes/Intercessor Squad", "--edition", "11")
    assert out["faction"] == "Space Marines"
    assert [s["points"] for s in out["sizes"]] == [80, 150]
    assert out["data"] == {"source": "game-datacards", "version": 912, "date": "2026-07-23"}
    assert out["editions"] == ["11"]
    first = calc("show", "Adeptus Astartes/Intercessor Squad", "--edition", "11").stdout
    assert first.splitlines()[0].endswith("· edition 11 · data 912 (2026-07-23)")


def test_boyz_points_by_edition() -> None:
    assert [s["points"] for s in as_json("show", "boyz")["sizes"]] == [80, 160]
    boyz = as_json("show", "boyz", "--edition", "11")
    assert [s["points"] for s in boyz["sizes"]] == [75, 160]
    assert boyz["additional_cost"] == {"points": 10, "after": 3}  # additionalCost of data 912
    assert "+10 pts for each copy after the 3rd" in calc("show", "boyz", "--edition", "11").stdout


def test_compare_points_per_100_use_the_edition_s_points(tmp_path: Path) -> None:
    """Pts/100 = target points per model × expected models destroyed / attacker points × 100.
    The attacker (100 pts): a [TORRENT] weapon of A10 S10 AP-6 D2: every attack hits; S10
    against T5 wounds on 2+ (5/6); a Sv 5+ fails against AP-6; D2 destroys a Boy (W1) or the
    Boss Nob (W2) with each unsaved wound, so models destroyed = wounds and E = 10 × 5/6 =
    25/3. 10 Boyz: 75 points in data 912 (7.5 a model): 7.5 × 25/3 = 62.5; 80 in the
    10th-edition export: 8 × 25/3 = 66.67."""
    flamer = {
        "name": "Burner",
        "range": 12,
        "A": 10,
        "skill": None,
        "S": 10,
        "AP": -6,
        "D": 2,
        "abilities": ["torrent"],
    }
    write_datasheet(tmp_path, "Burners", [flamer], model="Burner", stats={"Sv": 3, "W": 2, "Ld": 6})
    for edition, per_model in (("11", F(75, 10)), ("10", F(80, 10))):
        out = calc(
            "compare",
            "burners",
            "--target",
            "boyz",
            "--edition",
            edition,
            "--csv",
            "-",
            "--datasheets",
            tmp_path,
        ).stdout
        row = next(csv.DictReader(io.StringIO(out)))
        want = per_model * 10 * F(5, 6) * 100 / 100
        assert float(row["points_per_100"]) == pytest.approx(float(want), abs=1e-6)


# ---------------------------------------------------------------------------------------------
# A unit of the other edition only


def test_a_unit_of_the_other_edition_only_is_refused_with_the_reason() -> None:
    err = calc("show", "ufthak blackhawk", "--edition", "11", code=1).stderr
    assert "not in the 11th-edition data (912); it exists in edition 10: use --edition 10" in err
    err = calc("shoot", "bannernob", "--target", "boyz", code=1).stderr
    assert "not in the 10th-edition data; it exists in edition 11: use --edition 11" in err


def test_a_user_file_is_for_the_editions_it_names(tmp_path: Path) -> None:
    lootas = yaml.safe_load(calc("show", "lootas", "--json").stdout)
    data = {k: lootas[k] for k in ("name", "faction", "models", "sizes", "weapons")}
    data["sizes"] = [{"models": s["models"], "points": 1} for s in data["sizes"]]
    (tmp_path / "lootas.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    # no edition field: edition 10 only; it wins there over the shipped file
    assert as_json("show", "lootas", "--datasheets", tmp_path)["sizes"][0]["points"] == 1
    ed11 = as_json("show", "lootas", "--datasheets", tmp_path, "--edition", "11")
    assert ed11["sizes"][0]["points"] == 50 and ed11["data"]["version"] == 912
    # a unit only the user's edition-10 file has: refused in edition 11, saying how to fix it
    data["name"] = "Lootaz"
    (tmp_path / "lootaz.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    err = calc("show", "lootaz", "--datasheets", tmp_path, "--edition", "11", code=1).stderr
    assert "it exists in edition 10: use --edition 10" in err and "edition: [10, 11]" in err
    # named for edition 11, it wins over the shipped edition-11 file (and not in edition 10)
    data["name"], data["edition"] = "Lootas", 11
    (tmp_path / "lootas.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    assert (
        as_json("show", "lootas", "--datasheets", tmp_path, "--edition", "11")["sizes"][0]["points"]
        == 1
    )
    assert as_json("show", "lootas", "--datasheets", tmp_path)["sizes"][0]["points"] == 50


def test_curated_lord_invocatus_is_for_both_editions() -> None:
    for edition in ("10", "11"):
        out = as_json("show", "lord invocatus", "--edition", edition)
        assert out["editions"] == ["10", "11"] and "rules" in out and out["data"] is None


def test_a_bad_edition_field_is_refused_naming_the_file(tmp_path: Path) -> None:
    lootas = yaml.safe_load(calc("show", "lootas", "--json").stdout)
    data = {k: lootas[k] for k in ("name", "faction", "models", "sizes", "weapons")}
    data["name"], data["edition"] = "Lootaz", 12
    (tmp_path / "lootaz.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    err = calc("show", "lootaz", "--datasheets", tmp_path, code=1).stderr
    assert "lootaz.yaml: edition:" in err and "12" in err, err


# ---------------------------------------------------------------------------------------------
# Faction names and chapters


@pytest.mark.parametrize(
    ("name", "edition", "faction"),
    [
        ("Adeptus Astartes/Intercessor Squad", "10", "Space Marines"),
        ("Heretic Astartes/Chaos Rhino", "11", "Chaos Space Marines"),
        ("Legiones Daemonica/Bloodletters", "11", "Chaos Daemons"),
        ("Asuryani/Dire Avengers", "11", "Aeldari"),
        ("T'au Empire/Strike Team", "11", "T’au Empire"),  # a straight apostrophe
        ("Agents of the Imperium/Inquisitor", "11", "Imperial Agents"),
        ("Space Marines/Death Company Marines", "11", "Blood Angels"),  # a chapter's own
        ("Blood Angels/Intercessor Squad", "11", "Space Marines"),  # the parent's
        ("terminator squad", "11", "Space Marines"),  # Space Marines' over Black Templars'
        ("Black Templars/Terminator Squad", "11", "Black Templars"),
    ],
)
def test_faction_names_of_the_data_and_chapters(name: str, edition: str, faction: str) -> None:
    assert Catalog(edition=edition).find(name).faction == faction


def test_faction_option_takes_the_data_s_name() -> None:
    out = as_json("show", "chaos rhino", "--faction", "Heretic Astartes", "--edition", "11")
    assert out["faction"] == "Chaos Space Marines"


def test_a_name_of_several_factions_still_needs_one() -> None:
    err = calc("show", "land raider crusader", "--edition", "11", code=1).stderr
    assert "several factions" in err and "Grey Knights/Land Raider Crusader" in err


# ---------------------------------------------------------------------------------------------
# The player's edition: --edition, WH40K_CALC_EDITION, the config file


def heading(*args: str) -> str:
    """The first line (and its continuation) of ``calc shoot lootas --target boyz``."""
    out = calc("shoot", "lootas", "--target", "boyz", *args).stdout
    return " ".join(out.split("Expected per activation")[0].split())


def test_edition_precedence(_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # the config file's path on the first line, unfolded
    assert "· edition 10 · exact" in heading()
    (_home / "config.toml").write_text("edition = 11\n", encoding="utf-8")
    assert f"· edition 11 (from {_home / 'config.toml'}) · data 912 ·" in heading()
    monkeypatch.setenv(EDITION_VAR, "10")
    assert f"· edition 10 (from {EDITION_VAR}) · exact" in heading()
    assert "· edition 11 · data 912 ·" in heading("--edition", "11")  # the flag wins
    monkeypatch.setenv(EDITION_VAR, "11")
    assert "· edition 10 · exact" in heading("--edition", "10")
    assert choose(None).edition == "11" and choose("10").source == "--edition"
    # units and show follow it too
    assert calc("units", "bannernob").stdout.startswith("1 datasheet · edition 11 (from")
    assert as_json("show", "boyz")["sizes"][0]["points"] == 75


def test_a_batch_file_s_edition_wins_over_the_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(EDITION_VAR, "11")
    batch = tmp_path / "b.yaml"
    batch.write_text(
        yaml.safe_dump({"edition": 10, "targets": ["boyz"], "runs": [{"attacker": "lootas"}]}),
        encoding="utf-8",
    )
    rows = json.loads(calc("compare", batch, "--json").stdout)
    assert rows[0]["edition"] == "10" and rows[0]["target"]["points"] == 80
    batch.write_text(
        yaml.safe_dump({"targets": ["boyz"], "runs": [{"attacker": "lootas"}]}), encoding="utf-8"
    )
    rows = json.loads(calc("compare", batch, "--json").stdout)
    assert rows[0]["edition"] == "11" and rows[0]["target"]["points"] == 75


@pytest.mark.parametrize(
    ("env", "config", "message"),
    [
        ("12", None, f"{EDITION_VAR}='12': not an edition (give 10 or 11, or unset it)"),
        ("ten", None, f"{EDITION_VAR}='ten': not an edition"),
        (None, "edition = 12\n", "config.toml: edition = 12: not an edition (give 10 or 11)"),
        (None, "edition = 'x'\n", 'config.toml: edition = "x": not an edition'),
        (None, "edition = \n", "config.toml: not a valid TOML file"),
        # echoed as TOML writes it (the fresh trial found Python's "True")
        (None, "edition = true\n", "config.toml: edition = true: not an edition"),
        (None, "edition = [11]\n", "config.toml: edition = [11]: not an edition"),
        (None, "edition = 11.0\n", "config.toml: edition = 11.0: not an edition"),
    ],
)
def test_bad_edition_settings_are_refused_in_one_line(
    _home: Path, monkeypatch, env, config, message
) -> None:
    """The environment variable is the player's setting, as ``--edition`` is: a usage error
    (exit code 2) in every command (the fresh trial found ``WH40K_CALC_EDITION=9 calc shoot``
    exiting 1 where ``--edition 9`` exits 2); the config file's edition is a file's data (1)."""
    if env is not None:
        monkeypatch.setenv(EDITION_VAR, env)
    if config is not None:
        (_home / "config.toml").write_text(config, encoding="utf-8")
    army = Path(__file__).parents[1] / "examples" / "orks-list.txt"
    for args in (
        ("shoot", "lootas", "--target", "boyz"),
        ("fight", "boyz", "--target", "boyz"),
        ("units",),
        ("show", "boyz"),
        ("effects",),
        ("compare", "lootas", "--target", "boyz"),
        ("compare", "--army", army, "--target", "boyz"),
        ("army", army, "--target", "boyz"),
        ("sequence", "shoot lootas", "--target", "boyz"),
        ("exchange", "--side-a", "shoot lootas", "--side-b", "fight boyz"),
    ):
        err = calc(*args, code=2 if env is not None else 1).stderr
        assert err.startswith("error: ") and message in err and err.count("\n") == 1, (args, err)
    # --edition wins: the setting is not even read
    calc("shoot", "lootas", "--target", "boyz", "--edition", "10")


def test_a_config_file_with_a_byte_order_mark_is_read(_home: Path) -> None:
    """A config.toml saved with a UTF-8 byte-order mark (as some Windows editors save it) is
    read as without one, as army lists are (the fresh trial got "Invalid statement (at line
    1, column 1)")."""
    (_home / "config.toml").write_bytes(b"\xef\xbb\xbfedition = 11\n")
    rows = json.loads(calc("compare", "lootas", "--target", "boyz", "--json").stdout)
    assert rows[0]["edition"] == "11" and rows[0]["target"]["points"] == 75


def test_a_config_folder_is_refused(_home: Path) -> None:
    (_home / "config.toml").mkdir()
    err = calc("show", "boyz", code=1).stderr
    assert "config.toml: is a folder, not the config file" in err


def test_no_traceback_on_bad_edition_input() -> None:
    assert calc("units", "--edition", "12", code=2).exception is not None  # usage error
    calc("show", "boyz", "--edition", "11", "--faction", "Nonsense", code=1)
    calc("show", "Nonsense/Boyz", "--edition", "11", code=1)
    calc("shoot", "ufthak blackhawk", "--target", "boyz", "--edition", "11", code=1)


# ---------------------------------------------------------------------------------------------
# Newer edition-11 data in the user data folder, faction by faction


def _faction_file(version: int, boyz_points: int) -> dict:
    """A small faction file of the game-datacards shape: Orks with one datasheet."""
    boy = {"name": {"en": "Boy"}, "m": '6"', "t": "5", "sv": "5+", "w": "1", "ld": "7+", "oc": "2"}
    choppa = {
        "name": {"en": "Choppa"},
        "range": "Melee",
        "attacks": "3",
        "skill": "3+",
        "strength": "4",
        "ap": "-1",
        "damage": "1",
        "keywords": [],
    }
    return {
        "id": "x",
        "name": {"en": "Orks"},
        "source": "40k-11e",
        "compatibleDataVersion": version,
        "updated": "2026-09-01T00:00:00Z",
        "datasheets": [
            {
                "name": {"en": "Boyz"},
                "factions": ["Orks"],
                "keywords": [{"en": "Infantry"}],
                "stats": [boy],
                "rangedWeapons": [],
                "meleeWeapons": [{"profiles": [choppa]}],
                "abilities": {},
                "composition": [{"en": "**10-20 Boyz**"}],
                "loadout": {"en": "**Every model is equipped with:** choppa."},
                "points": [
                    {"cost": str(boyz_points), "models": "10", "keyword": None, "detachment": None}
                ],
            }
        ],
    }


def test_the_user_data_folder_s_set_replaces_the_shipped_one_per_faction(
    tmp_path: Path, _home: Path
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "orks.json").write_text(json.dumps(_faction_file(913, 70)), encoding="utf-8")
    report = generate_gdc(src, _home / "datasheets-11")
    assert report.generated == 1 and report.refused == []
    boyz = as_json("show", "boyz", "--edition", "11")
    assert boyz["sizes"][0]["points"] == 70
    assert boyz["data"] == {"source": "game-datacards", "version": 913, "date": "2026-09-01"}
    assert "(updated 11) orks/boyz.yaml" in calc("units", "boyz", "--edition", "11").stdout
    # its faction comes wholly from the newer set; the other factions stay the shipped ones
    err = calc("show", "lootas", "--edition", "11", code=1).stderr
    assert "removed from the Orks datasheets by `calc data update` (data 913)" in err
    assert "`calc data reset` goes back to the shipped data" in err
    assert as_json("show", "intercessor squad", "--edition", "11")["data"]["version"] == 912
    text = calc("shoot", "intercessor squad", "--target", "boyz", "--edition", "11").stdout
    assert "· data 912/913 ·" in " ".join(text.split("\n")[:2])
    assert calc("units", "--edition", "11").stdout.startswith(
        "952 datasheets · edition 11 · data 912, 913"
    )
    assert as_json("show", "boyz")["data"] is None  # edition 10 is untouched

"""A file of yours named like a shipped unit of another faction (or of none) wins the bare name
(README, name look-up: "a hand-written file has that name (a curated shipped file or one of
yours): it wins"), and a note says so (a fresh-user trial found a faction-less ``boyz.yaml``
silently used instead of the shipped Orks Boyz). A file with the shipped one's faction and name
replaces it by design: no note.

The expected figures are the files': the test's Boyz cost 100 points (``write_datasheet``'s
default), the shipped 10 Orks Boyz 80 (edition 10).
"""

from __future__ import annotations

from pathlib import Path

from helpers import cli, cli_json, write_datasheet

NOTE = (
    "Boyz: your file boyz.yaml{own} is used, not the shipped Orks/Boyz (a file of yours wins a "
    "name several factions have); Orks/Boyz names that one{keep}"
)
NO_FACTION = NOTE.format(
    own=" (no faction)", keep="; with a faction (faction: NAME) yours is NAME/Boyz"
)
GUN = {"name": "Gun", "range": 24, "A": 1, "skill": 3, "S": 4, "AP": 0, "D": 1}


def _boyz(folder: Path, faction: str | None) -> Path:
    path = write_datasheet(folder, "Boyz", [GUN], models=10, model="Boy", points=100)
    if faction is None:
        path.write_text(path.read_text().replace("faction: Testers\n", ""))
    elif faction != "Testers":
        path.write_text(path.read_text().replace("faction: Testers", f"faction: {faction}"))
    return path


def test_a_file_with_no_faction_wins_the_name_and_says_so(tmp_path: Path) -> None:
    _boyz(tmp_path, None)
    out = cli_json("shoot", "lootas", "--target", "boyz", dirs=[tmp_path])
    assert out["target"]["points"] == 100  # yours, not the shipped 80
    assert NO_FACTION in out["notes"]
    shown = cli("show", "boyz", dirs=[tmp_path], env={"COLUMNS": "400"})
    assert shown.exit_code == 0 and NO_FACTION in " ".join(shown.output.split())
    as_attacker = cli_json("shoot", "boyz", "--target", "lootas", dirs=[tmp_path])
    assert NO_FACTION in as_attacker["notes"]


def test_the_shipped_unit_named_with_its_faction_gets_no_note(tmp_path: Path) -> None:
    _boyz(tmp_path, None)
    out = cli_json("shoot", "lootas", "--target", "orks/boyz", dirs=[tmp_path])
    assert out["target"]["points"] == 80
    assert not [n for n in out["notes"] if "your file" in n]


def test_a_file_of_another_faction_is_said_without_the_faction_advice(tmp_path: Path) -> None:
    _boyz(tmp_path, "Testers")
    out = cli_json("shoot", "lootas", "--target", "boyz", dirs=[tmp_path])
    assert out["target"]["points"] == 100
    assert NOTE.format(own="", keep="") in out["notes"]


def test_a_file_replacing_the_shipped_one_is_by_design(tmp_path: Path) -> None:
    """Same faction and name: it replaces the shipped datasheet (README: no note)."""
    _boyz(tmp_path, "Orks")
    out = cli_json("shoot", "lootas", "--target", "boyz", dirs=[tmp_path])
    assert out["target"]["points"] == 100
    assert not [n for n in out["notes"] if "your file" in n]


def test_compare_says_it_once(tmp_path: Path) -> None:
    _boyz(tmp_path, None)
    args = ["compare", "lootas", "--target", "boyz", "--loadout", "default"]
    res = cli(*args, "--loadout", "rokkit-launchas", dirs=[tmp_path], env={"COLUMNS": "400"})
    assert res.exit_code == 0, res.output
    assert " ".join(res.stdout.split()).count(NO_FACTION) == 1

"""Optional model kinds of a unit (the fresh trial: edition 11's Kill Teams and the Victrix
Honour Guard could not field them): a composition line of "0-N" models that no size holds
becomes a loadout whose entry fields that many of the kind ``instead_of`` as many of the
rank-and-file, each with its own equipment; ``--weapon`` gives them the weapons only they
carry.

Numbers from data 912's composition lines (read by hand): Victrix Honour Guard "0-1 Chapter
Ancient", "0-1 Chapter Champion", "1-6 Victrix Honour Guard" (3 or 6 models); Fortis Kill Team
"1 Kill Team Sergeant", "2-9 Kill Team Intercessors", then 0-4, 0-4, 0-4 and 0-2 Intercessors
with plasma incinerators, heavy bolt pistols, pyreblasters and superfrag rocket launchers (10
models: 9 Intercessors, of whom 7 may be others); Talonstrike Kill Team "0-5 Kill Team Heavy
Intercessors with Jump Packs" beside "2-9 Kill Team Intercessors with Jump Packs".

Hand-worked: the Chapter Champion's blades of honour (A6 WS2+ S5 AP-2 D2 [TWIN-LINKED]) into
Boyz (T5, Sv5+): 6 attacks, 5 hits; 4+ to wound re-rolled (twin-linked): 3/4, 3.75 wounds; AP-2
leaves no save (7+): 3.75 failed saves, 7.5 damage. The two Honour Guard left: master-crafted
power weapon A5 WS2+ S5 AP-2 D2: 10 attacks, 25/3 hits, 25/6 wounds and failed saves, 25/3
damage.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli, cli_json

from wh40k_calc.datasheet import DatasheetError, load_datasheet
from wh40k_calc.selection import SelectionError, UnitChoice
from wh40k_calc.units import build_unit

GENERATED = Path(__file__).resolve().parents[1] / "datasheets-generated-11"
E11 = ("--edition", "11")


def _loadouts(path: str) -> dict:
    ds = load_datasheet(GENERATED / path)
    return {
        name: [(e.model, e.count, e.instead_of) for e in entries]
        for name, entries in ds.loadouts.items()
        if any(e.instead_of for e in entries)
    }


def test_the_optional_models_are_loadouts_of_their_own() -> None:
    hg = "Victrix Honour Guard"
    assert _loadouts("space-marines/victrix-honour-guard.yaml") == {
        "chapter-ancient": [("Chapter Ancient", 1, hg)],
        "chapter-champion": [("Chapter Champion", 1, hg)],
        "chapter-ancient-and-chapter-champion": [
            ("Chapter Ancient", 1, hg),
            ("Chapter Champion", 1, hg),
        ],
    }
    kti = "Kill Team Intercessor"
    fortis = _loadouts("deathwatch/fortis-kill-team.yaml")
    assert [v for v in fortis.values()] == [
        [(f"{kti} with plasma incinerator", 4, kti)],
        [(f"{kti} with heavy bolt pistol", 4, kti)],
        [(f"{kti} with pyreblaster", 4, kti)],
        [(f"{kti} with superfrag rocket launcher", 2, kti)],
    ]  # 4 + 4 + 4 + 2 > 7: no loadout fields them all at once
    heavy, jump = (
        "Kill Team Heavy Intercessor with Jump Pack",
        "Kill Team Intercessor with Jump Pack",
    )
    assert list(_loadouts("deathwatch/talonstrike-kill-team.yaml").values()) == [[(heavy, 5, jump)]]


def test_the_chapter_champion_fights_in_the_unit() -> None:
    out = cli_json("fight", "victrix honour guard", *E11, "-t", "boyz", "--loadout",
                   "chapter-champion")  # fmt: skip
    assert out["attacker"]["models"] == 3 and out["attacker"]["points"] == 110
    by = {w["name"]: w for w in out["weapons"]}
    blades = by["Blades of honour"]["expected"]
    assert by["Blades of honour"]["count"] == 1
    assert blades["attacks"] == pytest.approx(6)
    assert blades["hits"] == pytest.approx(5)
    assert blades["wounds"] == pytest.approx(3.75)
    assert blades["failed_saves"] == pytest.approx(3.75)
    assert blades["damage"] == pytest.approx(7.5)
    pw = by["Master-crafted power weapon"]
    assert pw["count"] == 2  # three models: the Champion in place of one Honour Guard
    assert pw["expected"]["hits"] == pytest.approx(25 / 3)
    assert pw["expected"]["damage"] == pytest.approx(25 / 3)
    both = cli_json("fight", "victrix honour guard", *E11, "-t", "boyz", "--loadout",
                    "chapter-ancient-and-chapter-champion")  # fmt: skip
    assert [(w["name"], w["count"]) for w in both["weapons"]] == [
        ("Master-crafted power weapon", 2),  # an Honour Guard and the Ancient
        ("Blades of honour", 1),
    ]


def test_weapon_takes_the_optional_models_up_to_their_lines() -> None:
    fortis = ("shoot", "fortis kill team", *E11, "-t", "boyz")
    ok = cli_json(*fortis, "--weapon", "Plasma incinerator – Standard x4",
                  "--weapon", "Superfrag rocket launcher x2")  # fmt: skip
    assert ok["attacker"]["models"] == 10
    assert sorted((w["name"], w["count"]) for w in ok["weapons"]) == [
        ("Plasma incinerator – Standard", 4),
        ("Superfrag rocket launcher", 2),
    ]
    over = cli(*fortis, "--weapon", "Plasma incinerator – Standard x5")
    assert over.exit_code == 1
    assert "can carry only 4 of Plasma incinerator – Standard" in over.stderr
    talon = cli_json("shoot", "talonstrike kill team", *E11, "-t", "boyz",
                     "--weapon", "Assault bolters x5")  # fmt: skip
    assert talon["weapons"][0]["count"] == 5 and talon["attacker"]["models"] == 10
    six = cli(
        "shoot", "talonstrike kill team", *E11, "-t", "boyz", "--weapon", "Assault bolters x6"
    )
    assert six.exit_code == 1 and "can carry only 5 of Assault bolters" in six.stderr


SHEET = """\
name: Squad
faction: Testers
models:
  - {name: Trooper, M: 6, T: 4, Sv: 4, W: 1, Ld: 7, OC: 1, equipped: [Rifle]}
  - {name: Gunner, M: 6, T: 4, Sv: 4, W: 2, Ld: 7, OC: 1, equipped: [Cannon]}
sizes:
  - {models: {Trooper: 5}, points: 50}
  - {models: {Trooper: 10}, points: 100}
weapons:
  - {name: Rifle, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Cannon, range: 36, A: 1, skill: 4, S: 9, AP: -2, D: 3}
loadouts:
  gunners:
    - {model: Gunner, count: 2, equipped: [Cannon], instead_of: Trooper}
source: synthetic
"""


def _unit(tmp_path: Path, text: str, models: int | None, loadout: str | None):
    path = tmp_path / "squad.yaml"
    path.write_text(text, encoding="utf-8")
    ds = load_datasheet(path)
    return build_unit(UnitChoice(ds, models=models, loadout=loadout), "attacker")


def test_an_instead_of_entry_swaps_models_and_keeps_the_size(tmp_path: Path) -> None:
    unit = _unit(tmp_path, SHEET, 5, "gunners")
    assert [(g.profile.name, g.count) for g in unit.groups] == [("Trooper", 3), ("Gunner", 2)]
    assert (unit.models, unit.starting_strength, unit.points) == (5, 5, 50)
    with pytest.raises(SelectionError, match="fields 2 Gunners in place of as many Trooper but"):
        _unit(tmp_path, SHEET, 1, "gunners")  # a damaged unit of 1 has one Trooper


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("instead_of: Trooper", "instead_of: Sergeant", "loadouts.gunners[0].instead_of"),
        ("instead_of: Trooper", "instead_of: Gunner", "loadouts.gunners[0].instead_of"),
        ("count: 2, equipped: [Cannon]", "equipped: [Cannon]", "loadouts.gunners[0].count"),
        ("count: 2, equipped", "count: 11, equipped", "loadouts.gunners[0].count"),
    ],
)
def test_instead_of_is_checked(tmp_path: Path, old: str, new: str, field: str) -> None:
    path = tmp_path / "squad.yaml"
    path.write_text(SHEET.replace(old, new), encoding="utf-8")
    with pytest.raises(DatasheetError, match=field.replace("[", r"\[").replace("]", r"\]")):
        load_datasheet(path)


def test_show_says_what_the_loadout_fields() -> None:
    out = cli("show", "victrix honour guard", *E11, env={"COLUMNS": "300"}).stdout
    assert "1 Chapter Champion: Blades of honour (in place of as many Victrix Honour Guard)" in out

"""Every shipped datasheet loads, and the benchmark targets carry their published statlines.

The numbers below are typed from the task that asked for these files (10th-edition values),
not read back from the files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wh40k_calc.datasheet import load_datasheet

DATASHEETS = Path(__file__).resolve().parents[1] / "datasheets"
ALL_FILES = sorted(DATASHEETS.rglob("*.yaml"))

# file: (T, Sv, invulnerable save or None, invulnerable against ranged attacks only, W)
BENCHMARKS = {
    "astra-militarum/cadian-shock-troops.yaml": (3, 5, None, False, 1),
    "space-marines/intercessor-squad.yaml": (4, 3, None, False, 2),
    "space-marines/terminator-squad.yaml": (5, 2, 4, False, 3),
    "adeptus-custodes/custodian-guard.yaml": (6, 2, 4, False, 3),
    "space-marines/rhino.yaml": (9, 3, None, False, 10),
    "astra-militarum/leman-russ-battle-tank.yaml": (11, 2, None, False, 13),
    "space-marines/land-raider.yaml": (12, 2, None, False, 16),
    "imperial-knights/armiger-warglaive.yaml": (9, 3, 5, True, 14),
    "imperial-knights/knight-paladin.yaml": (11, 3, 5, True, 26),
    "necrons/necron-warriors.yaml": (4, 4, None, False, 1),
    "tyranids/termagants.yaml": (3, 5, None, False, 1),
    "tyranids/carnifexes.yaml": (9, 2, None, False, 8),
    "orks/warboss.yaml": (5, 4, 5, False, 6),
}


def test_there_are_shipped_datasheets() -> None:
    assert len(ALL_FILES) >= len(BENCHMARKS) + 3


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: str(p.relative_to(DATASHEETS)))
def test_every_shipped_datasheet_loads(path: Path) -> None:
    sheet = load_datasheet(path)
    assert sheet.models and sheet.sizes


@pytest.mark.parametrize("relpath", sorted(BENCHMARKS))
def test_benchmark_statlines(relpath: str) -> None:
    sheet = load_datasheet(DATASHEETS / relpath)
    for model in sheet.models:
        got = (model.T, model.Sv, model.invuln, model.invuln_ranged_only, model.W)
        assert got == BENCHMARKS[relpath], model.name


@pytest.mark.parametrize("relpath", sorted(BENCHMARKS))
def test_benchmark_units_can_attack(relpath: str) -> None:
    sheet = load_datasheet(DATASHEETS / relpath)
    for model in sheet.models:
        weapons = [sheet.weapon(key) for key in model.equipped]
        assert any(w.is_melee for w in weapons), model.name
    assert any(not w.is_melee for w in sheet.weapons)
    assert all(size.points > 0 for size in sheet.sizes)
    assert sheet.loadouts, "named loadouts for the common wargear options"


def test_benchmark_header_comment() -> None:
    for relpath in BENCHMARKS:
        head = (DATASHEETS / relpath).read_text(encoding="utf-8").splitlines()[:3]
        assert head[0].startswith("# ") and "CSV" in head[0], relpath
        assert any("datasheet 0" in line for line in head), relpath
        assert any("Fixed by hand" in line for line in head), relpath


def test_warboss() -> None:
    sheet = load_datasheet(DATASHEETS / "orks/warboss.yaml")
    (boss,) = sheet.models
    assert "CHARACTER" in sheet.keywords
    assert "Boyz" in sheet.leader_of
    assert boss.equipped == ("kombiweapon", "twinslugga", "bigchoppa")
    equipped = {name: set(e.equipped) for name, (e,) in sheet.loadouts.items()}
    assert "attacksquig" in equipped["attack-squig"]
    assert "powerklaw" in equipped["power-klaw"]
    assert {"attacksquig", "powerklaw"} <= equipped["power-klaw-attack-squig"]


def test_sizes_and_points() -> None:
    def sizes(relpath: str) -> list[tuple[int, int]]:
        return [(s.total, s.points) for s in load_datasheet(DATASHEETS / relpath).sizes]

    assert sizes("astra-militarum/cadian-shock-troops.yaml") == [(10, 65), (20, 120)]
    assert sizes("space-marines/intercessor-squad.yaml") == [(5, 80), (10, 160)]
    assert sizes("adeptus-custodes/custodian-guard.yaml") == [(4, 170), (5, 215)]
    assert sizes("tyranids/carnifexes.yaml") == [(1, 115), (2, 230)]


def test_rank_and_file_first() -> None:
    intercessors = load_datasheet(DATASHEETS / "space-marines/intercessor-squad.yaml")
    assert [m.name for m in intercessors.models] == ["Intercessor", "Intercessor Sergeant"]
    cadians = load_datasheet(DATASHEETS / "astra-militarum/cadian-shock-troops.yaml")
    assert [m.name for m in cadians.models] == ["Shock Trooper", "Shock Trooper Sergeant"]

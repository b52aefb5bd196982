"""The shipped edition-11 datasheets (``datasheets-generated-11/``): exactly what `make
datasheets-11` makes from the game-datacards faction files of data 912, every one of the 1,009
datasheets generated, every file usable, and the index saying where each faction's numbers come
from.

The regeneration test needs the faction files in ../shared/data; it is skipped, with the reason,
where that folder is absent. The other checks need nothing but the repository.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import sample

from wh40k_calc.catalog import GENERATED_11
from wh40k_calc.datasheet import load_datasheet, norm_name
from wh40k_calc.importers.generate_gdc import INDEX, generate_gdc

GDC_DIR = Path(__file__).resolve().parents[2] / "shared/data/game-datacards-11e-912"
INDEX_DATA = json.loads((GENERATED_11 / INDEX).read_text(encoding="utf-8"))
ALL_FILES = sorted(p.relative_to(GENERATED_11).as_posix() for p in GENERATED_11.rglob("*.yaml"))
# the datasheets; unit-rules/ holds the abilities read as effect records (one file a faction)
FILES = [rel for rel in ALL_FILES if not rel.startswith("unit-rules/")]


def _need_data() -> None:
    if not (GDC_DIR / "orks.json").is_file():
        pytest.skip(f"the edition-11 faction files are not here ({GDC_DIR}): cannot regenerate")


def test_regenerating_from_the_faction_files_gives_the_committed_files(tmp_path: Path) -> None:
    _need_data()
    report = generate_gdc(GDC_DIR, tmp_path)
    made = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.yaml"))
    assert made == ALL_FILES, "files added or removed: run `make datasheets-11 GDC=...`"
    changed = [
        rel for rel in made if (tmp_path / rel).read_bytes() != (GENERATED_11 / rel).read_bytes()
    ]
    assert changed == [], (
        f"{len(changed)} files differ (e.g. {changed[:3]}): run `make datasheets-11`"
    )
    assert (tmp_path / INDEX).read_text("utf-8") == (GENERATED_11 / INDEX).read_text("utf-8")
    assert report.refused == []


def test_every_datasheet_of_every_faction_file_is_generated() -> None:
    _need_data()
    counts = {}
    for path in sorted(GDC_DIR.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(raw.get("datasheets"), list):
            counts[path.name] = len(raw["datasheets"])
    assert sum(counts.values()) == 1009  # data 912
    assert {s["file"]: s["count"] for s in INDEX_DATA["files"]} == counts
    assert INDEX_DATA["refused"] == []


def test_the_index_names_each_faction_file_with_its_version_and_date() -> None:
    assert INDEX_DATA["edition"] == 11 and INDEX_DATA["source"] == "game-datacards"
    assert INDEX_DATA["count"] == len(INDEX_DATA["units"]) == len(FILES) == 1009
    by_file = {s["file"]: s for s in INDEX_DATA["files"]}
    assert by_file["orks.json"] == {
        "file": "orks.json",
        "faction": "Orks",
        "data_faction": "Orks",
        "parent": None,
        "version": 912,
        "date": "2026-07-23",
        "count": 58,
    }
    # ours stay what players call them; the data's own name is kept beside it
    assert (
        by_file["space_marines.json"]["faction"],
        by_file["space_marines.json"]["data_faction"],
    ) == (
        "Space Marines",
        "Adeptus Astartes",
    )
    assert by_file["bloodangels.json"]["faction"] == "Blood Angels"
    assert by_file["bloodangels.json"]["parent"] == "Space Marines"
    assert sorted(u["file"] for u in INDEX_DATA["units"]) == FILES
    assert all(u["key"] == norm_name(u["name"]) for u in INDEX_DATA["units"])
    identities = {(u["faction"], u["key"]) for u in INDEX_DATA["units"]}
    assert len(identities) == len(INDEX_DATA["units"]), "two units with one faction and name"


@pytest.mark.sweep
def test_every_generated_file_loads_as_an_edition_11_datasheet() -> None:
    """Each generated file (make test-slow; make test: a fixed sample, every faction's folder
    at least once) is an edition-11 datasheet of data 912 whose models carry only its own
    weapons."""
    problems = []
    for rel in sample(FILES, 6, group=lambda rel: rel.split("/")[0]):
        sheet = load_datasheet(GENERATED_11 / rel)
        if sheet.editions != ("11",) or sheet.data is None or sheet.data.version != 912:
            problems.append(rel)
        for m in sheet.models:
            assert all(sheet.weapon(k) is not None for k in m.equipped), (rel, m.name)
    assert problems == []

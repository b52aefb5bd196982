"""The shipped datasheets: the generated set is exactly what `make datasheets` makes from the
July 2025 export, and every shipped file (generated or curated) is usable.

The regeneration test needs the export in ../shared/data; it is skipped, with the reason,
where that folder is absent. The walk over the shipped files needs nothing but the repository.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import swept

from wh40k_calc.catalog import GENERATED, SHIPPED, Catalog
from wh40k_calc.datasheet import load_datasheet, norm_name
from wh40k_calc.importers.generate import INDEX, generate, index_text

CSV_DIR = Path(__file__).resolve().parents[2] / "shared/data/wahapedia-10e-2025-07"
INDEX_UNITS = json.loads((GENERATED / INDEX).read_text(encoding="utf-8"))["units"]
ALL_FILES = sorted(p.relative_to(GENERATED).as_posix() for p in GENERATED.rglob("*.yaml"))
# the datasheets; unit-rules/ holds the abilities read as effect records (one file a faction)
GENERATED_FILES = [rel for rel in ALL_FILES if not rel.startswith("unit-rules/")]
RULE_FILES = [rel for rel in ALL_FILES if rel.startswith("unit-rules/")]
CURATED_FILES = sorted(SHIPPED.rglob("*.yaml"))


def test_regenerating_from_the_export_gives_the_committed_files() -> None:
    if not (CSV_DIR / "Datasheets.csv").is_file():
        pytest.skip(f"the datasheet export is not here ({CSV_DIR}): cannot regenerate")
    gen = generate(CSV_DIR)
    assert sorted(gen.files) == GENERATED_FILES, "files added or removed: run `make datasheets`"
    assert sorted(gen.rule_files) == RULE_FILES, "unit rules added or removed: `make datasheets`"
    made = {**gen.files, **gen.rule_files}
    changed = [rel for rel, text in made.items() if (GENERATED / rel).read_text("utf-8") != text]
    assert changed == [], f"{len(changed)} files differ (e.g. {changed[:3]}): run `make datasheets`"
    assert index_text(gen) == (GENERATED / INDEX).read_text(encoding="utf-8")
    assert [name for _, name, _ in gen.refused] == ["Example Wargear"]  # the placeholder only


def test_the_whole_export_is_shipped() -> None:
    # "calc units --json lists every datasheet (at least 1,550)"
    assert len(INDEX_UNITS) >= 1550
    assert sorted(u["file"] for u in INDEX_UNITS) == GENERATED_FILES
    assert all(u["key"] == norm_name(u["name"]) for u in INDEX_UNITS)
    identities = {(u["faction"], norm_name(u["name"])) for u in INDEX_UNITS}
    assert len(identities) == len(INDEX_UNITS), "two units with one faction and name"
    assert len(Catalog().entries()) >= 1550


def _check(sheet, text: str) -> None:
    assert sheet.models and sheet.sizes
    for m in sheet.models:
        for key in m.equipped:  # load_datasheet refuses any other; this is the explicit check
            assert sheet.weapon(key) is not None, (m.name, key)
    if any(not m.equipped for m in sheet.models):
        # the file says why a model carries nothing
        notes = text.split("\nname:")[0]
        assert re.search(r"equipment|no weapon|not found", notes), sheet.name


# a fixed sample (every faction at least once) in make test, every file in make test-slow
@pytest.mark.parametrize("rel", swept(GENERATED_FILES, 8, key=str, group=lambda r: r.split("/")[0]))
def test_every_generated_datasheet_is_usable(rel: str) -> None:
    path = GENERATED / rel
    _check(load_datasheet(path), path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", CURATED_FILES, ids=lambda p: str(p.relative_to(SHIPPED)))
def test_every_curated_datasheet_is_usable(path: Path) -> None:
    _check(load_datasheet(path), path.read_text(encoding="utf-8"))


def test_curated_files_win_over_generated_ones() -> None:
    cat = Catalog()
    for path in CURATED_FILES:
        sheet = load_datasheet(path)
        found = cat.find(f"{sheet.faction}/{sheet.name}")
        assert found.path == path
    # the curated Boyz keep the seed page's points (20 Boyz 160), the generated copy is not used
    assert [s.points for s in cat.find("boyz").sizes] == [80, 160]


def test_generated_files_hold_no_prose() -> None:
    # facts only: the header notes and the datasheet fields are names and numbers; no
    # sentence of the export's ability texts (they all run to many words) appears
    long_runs = re.compile(r"(?:\b[a-z]+\b[ ,]+){14,}")
    for rel in GENERATED_FILES[::25]:
        text = (GENERATED / rel).read_text(encoding="utf-8")
        assert not long_runs.search(text.split("\nname:")[1]), rel

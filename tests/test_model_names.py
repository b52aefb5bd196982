"""Model names the importers make singular from a unit's plural (``importers/names.py``): a
fresh trial found the Drukhari Talos and Cronos named "Talo" and "Crono" in both editions'
generated data (their names end in an s that is no plural ending)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wh40k_calc.datasheet import load_datasheet
from wh40k_calc.importers.names import singular

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("plural", "one"),
    [
        ("Talos", "Talos"),
        ("Cronos", "Cronos"),
        ("Boyz", "Boy"),
        ("Lootas", "Loota"),
        ("Carnifexes", "Carnifex"),
        ("Guardsmen", "Guardsman"),
        ("Kommandos", "Kommando"),
        ("Rhinos", "Rhino"),
    ],
)
def test_singular(plural: str, one: str) -> None:
    assert singular(plural) == one


@pytest.mark.parametrize("folder", ["datasheets-generated", "datasheets-generated-11"])
@pytest.mark.parametrize("unit", ["talos", "cronos"])
def test_the_drukhari_engines_keep_their_names(folder: str, unit: str) -> None:
    sheet = load_datasheet(ROOT / folder / "drukhari" / f"{unit}.yaml")
    assert [m.name for m in sheet.models] == [sheet.name]

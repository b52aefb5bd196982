"""An update that would wipe a faction is refused without ``--force`` (trial defect 3): one that
removes every datasheet of a faction in use, or more than half of them
(``wh40k_calc.updates.run.MAX_REMOVED_SHARE``), names the faction and its file and changes
nothing. A unit that an update did remove is then not found in edition 11 with the reason
(``calc data update`` removed it; ``calc data status``, ``calc data reset``), not with "use
--edition 10".

The counts are worked by hand: a first update (forced) gives Orks four datasheets; one that
keeps one of them removes 3 of 4 (75 %, more than half: refused), one that keeps two removes
2 of 4 (50 %, not more than half: taken), one with none removes all.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from helpers import cli
from test_gdc_shape import faction

SHARED_912 = Path(__file__).resolve().parents[2] / "shared" / "data" / "game-datacards-11e-912"
NAMES = ("Boyz", "Beast Snagga Boyz", "Gretchin", "Stormboyz")


def orks(names: tuple[str, ...], version: int) -> dict:
    """Orks of data ``version`` with one datasheet (a copy of the Boyz built in
    test_gdc_shape) for each name."""
    data = faction(version)
    boyz = data["datasheets"][0]
    data["datasheets"] = []
    for name in names:
        sheet = copy.deepcopy(boyz)
        sheet["name"] = {"en": name}
        data["datasheets"].append(sheet)
    return data


def update(tmp_path: Path, data: dict, *more: str, code: int = 0):
    folder = tmp_path / f"dl-{data['compatibleDataVersion']}-{len(data['datasheets'])}"
    folder.mkdir()
    (folder / "orks.json").write_text(json.dumps(data), encoding="utf-8")
    result = cli("data", "update", "--from", str(folder), *more)
    assert result.exit_code == code, (result.stdout, result.stderr)
    return folder, result


def versions() -> dict[str, tuple[str, int, int]]:
    status = json.loads(cli("data", "status", "--json").stdout)
    return {f["faction"]: (f["set"], f["version"], f["datasheets"]) for f in status["factions"]}


def test_removing_most_or_all_of_a_faction_is_refused_without_force(tmp_path: Path) -> None:
    update(tmp_path, orks(NAMES, 913), "--force")  # 58 shipped datasheets -> 4: forced
    assert versions()["Orks"] == ("updated", 913, 4)
    folder, result = update(tmp_path, orks(NAMES[:1], 914), code=1)
    assert result.stderr.strip() == (
        f"error: {folder / 'orks.json'}: it would remove 3 of the 4 Orks datasheets in use "
        "(more than 50% of them: a file cut short or emptied?); --force takes it anyway; the "
        "data in use is unchanged"
    )
    folder, result = update(tmp_path, orks((), 914), code=1)
    assert "it would remove 4 of the 4 Orks datasheets in use (all of them" in result.stderr
    assert versions()["Orks"] == ("updated", 913, 4)  # unchanged
    _, result = update(tmp_path, orks(NAMES[:2], 914))  # 2 of 4 removed: half, not more
    assert "Orks (data 913 → 914): 2 removed" in result.stdout
    assert versions()["Orks"] == ("updated", 914, 2)
    update(tmp_path, orks((), 915), "--force")
    assert versions()["Orks"] == ("updated", 915, 0)


def test_a_unit_an_update_removed_says_so(tmp_path: Path) -> None:
    update(tmp_path, orks(("Boyz",), 913), "--force")
    result = cli("shoot", "lootas", "--target", "boyz", "--edition", "11")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: unknown unit 'lootas'; removed from the Orks datasheets by `calc data update` "
        "(data 913): the shipped data has it; `calc data status` shows the data in use, `calc "
        "data reset` goes back to the shipped data"
    )
    # a unit the update has is found; one in neither edition is still unknown
    assert cli("show", "boyz", "--edition", "11").exit_code == 0
    assert "removed" not in cli("show", "lootaz", "--edition", "11").stderr
    cli("data", "reset")
    assert cli("show", "lootas", "--edition", "11").exit_code == 0


@pytest.mark.skipif(not SHARED_912.is_dir(), reason=f"reads the data 912 in {SHARED_912}")
def test_the_trial_s_emptied_orks_file_is_refused(tmp_path: Path) -> None:
    """The trial's case: data 912's Orks file as a "913" with ``"datasheets": []``."""
    data = json.loads((SHARED_912 / "orks.json").read_text(encoding="utf-8"))
    data["compatibleDataVersion"] = 913
    data["datasheets"] = []
    _, result = update(tmp_path, data, code=1)
    assert "it would remove 58 of the 58 Orks datasheets in use (all of them" in result.stderr
    assert versions()["Orks"] == ("shipped", 912, 58)
    assert cli("show", "lootas", "--edition", "11").exit_code == 0

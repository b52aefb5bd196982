"""``calc data update`` refuses a faction file with a number that is not one or is out of range
(the second fresh trial): data 912's Orks file, served by a local HTTP server on 127.0.0.1
(``tests/data_server.py``; nothing of the network layer is mocked) with one value of the Boyz
datasheet changed here, exits 1 with one line naming the file, the datasheet and the field, and
the data in use is as it was: Boyz of data 912, 75 points for 10 models and 160 for 20, 10
points more from the fourth copy (the shipped numbers, read from the data by hand).

Before, the update took such files with exit 0: ten Boyz for ``"cost": "-5"`` points left the
Boyz out ("Not generated", the unit then unknown), ``"models": "0"`` made a size of one Boss Nob
for 160 points, ``"cost": "abc"`` dropped a size ("size gone") and an ``additionalCost`` of
``{"cost": "ten"}`` was dropped ("also: additional cost"). With ``--force`` the datasheet is
left out, said so, and the unit in use that it was is named as removed.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest
from data_server import data_server, file
from helpers import cli

SHARED_912 = Path(__file__).resolve().parents[2] / "shared" / "data" / "game-datacards-11e-912"
pytestmark = pytest.mark.skipif(
    not SHARED_912.is_dir(), reason=f"reads the data 912 in {SHARED_912}"
)

POINTS = "not a number of points (a whole number, 1 or more)"
ONE_UP = "not a whole number of 1 or more"
DICE = f"{ONE_UP} or dice (D6+1)"


@pytest.fixture(scope="module")
def orks_912() -> dict:
    return json.loads((SHARED_912 / "orks.json").read_text(encoding="utf-8"))


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.delenv("WH40K_CALC_EDITION", raising=False)
    with data_server() as s:
        yield s


def _boyz(data: dict) -> dict:
    [sheet] = [s for s in data["datasheets"] if s["name"]["en"] == "Boyz"]
    return sheet


def changed(orks: dict, version: int, path: tuple, value: object) -> dict:
    """Data 912's Orks file as data ``version``, the Boyz' field at ``path`` set to
    ``value``."""
    data = copy.deepcopy(orks)
    data["compatibleDataVersion"] = version
    here = _boyz(data)
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = value
    return data


def serve(server, data: dict) -> None:
    server.routes["/orks.json"] = file(json.dumps(data).encode())
    listing = {"schemaVersion": 1, "source": "40k-11e", "factions": [{"file": "orks.json"}]}
    server.routes["/index.json"] = file(json.dumps(listing).encode())


def boyz_in_use() -> tuple:
    """The Boyz of edition 11 as the commands see them: data version, points per size,
    the added cost, the Boy's T and W and the shoota's A."""
    shown = cli("show", "boyz", "--edition", "11", "--json")
    assert shown.exit_code == 0, shown.stderr
    d = json.loads(shown.stdout)
    sizes = sorted((sum(s["models"].values()), s["points"]) for s in d["sizes"])
    boy = next(m for m in d["models"] if m["name"] == "Boy")
    shoota = next(w for w in d["weapons"] if w["name"] == "Shoota")
    return d["data"]["version"], sizes, d["additional_cost"], boy["T"], boy["W"], shoota["A"]


SHIPPED = (912, [(10, 75), (20, 160)], {"points": 10, "after": 3}, 5, 1, 2)


def leftovers(home: Path) -> list[str]:
    return sorted(p.name for p in home.iterdir() if p.name.startswith(".datasheets-11.new"))


@pytest.mark.parametrize(
    ("path", "value", "said"),
    [
        # the trial's four cases (points[0] is the 20 models' line in data 912, points[1] the
        # 10 models')
        (("points", 1, "cost"), "-5", f"points[1].cost is '-5', {POINTS}"),
        (("points", 0, "models"), "0", "points[0].models is '0', not a number of models (a "
         "whole number, 1 or more)"),
        (("points", 0, "cost"), "abc", f"points[0].cost is 'abc', {POINTS}"),
        (("additionalCost",), {"cost": "ten"}, f"additionalCost.cost is 'ten', {POINTS}"),
        # a statline's and a weapon's numbers
        (("stats", 0, "w"), "0", f"stats[0].w is '0', {ONE_UP}"),
        (("stats", 0, "t"), -5, f"stats[0].t is -5, {ONE_UP}"),
        (("stats", 0, "t"), "25", "stats[0].t is '25', out of range (1 to 20)"),
        (("rangedWeapons", 0, "profiles", 0, "attacks"), "two",
         f"rangedWeapons[0].profiles[0].attacks is 'two', {DICE}"),
        (("meleeWeapons", 0, "profiles", 0, "damage"), "0",
         f"meleeWeapons[0].profiles[0].damage is '0', {DICE}"),
    ],
)  # fmt: skip
def test_a_bad_number_refuses_the_update_in_one_line(
    server, orks_912: dict, path: tuple, value: object, said: str
) -> None:
    home = Path(os.environ["WH40K_CALC_HOME"])  # the test's own (conftest)
    assert boyz_in_use() == SHIPPED
    serve(server, changed(orks_912, 913, path, value))
    result = cli("data", "update", "--from", server.url)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"error: {server.url}orks.json: the datasheet 'Boyz' cannot be read: {said}; --force "
        "updates without it; the data in use is unchanged"
    )
    assert boyz_in_use() == SHIPPED
    assert not (home / "datasheets-11").exists() and leftovers(home) == []


def test_a_bad_number_leaves_an_earlier_update_in_use(server, orks_912: dict) -> None:
    serve(server, changed(orks_912, 913, ("points", 1, "cost"), "80"))  # 10 Boyz 75 -> 80
    assert cli("data", "update", "--from", server.url).exit_code == 0
    before = (913, [(10, 80), (20, 160)], *SHIPPED[2:])
    assert boyz_in_use() == before
    serve(server, changed(orks_912, 914, ("points", 0, "models"), "0"))
    result = cli("data", "update", "--from", server.url)
    assert result.exit_code == 1 and "points[0].models is '0'" in result.stderr
    assert boyz_in_use() == before


def test_with_force_the_datasheet_is_left_out_and_named_removed(server, orks_912: dict) -> None:
    serve(server, changed(orks_912, 913, ("points", 1, "cost"), "-5"))
    result = cli("data", "update", "--from", server.url, "--force")
    assert result.exit_code == 0, result.stderr
    said = " ".join(result.stdout.split())
    assert "Orks (data 912 → 913): 1 removed - Boyz " in said
    assert f"Not generated: 1 datasheet: Boyz (orks.json): points[1].cost is '-5', {POINTS}." in (
        said
    )
    shot = cli("shoot", "lootas", "--target", "boyz", "--edition", "11")
    assert shot.exit_code == 1
    removed = "unknown unit 'boyz'; removed from the Orks datasheets by `calc data update` (data"
    assert f"{removed} 913)" in shot.stderr
    assert cli("show", "lootas", "--edition", "11").exit_code == 0  # the rest are taken


@pytest.mark.parametrize("columns", [60, 200])
def test_with_force_the_lines_follow_the_terminal_width(
    server, orks_912: dict, columns: int
) -> None:
    """The update's text wraps at ``COLUMNS`` as every command's does, wider than 80 too (it
    was held to 80 columns whatever ``COLUMNS`` said): the sentence naming the datasheet left
    out (121 characters) is one line at 200 columns, and every line fits 60 columns at 60."""
    serve(server, changed(orks_912, 913, ("points", 1, "cost"), "-5"))
    result = cli("data", "update", "--from", server.url, "--force", env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    sentence = f"Not generated: 1 datasheet: Boyz (orks.json): points[1].cost is '-5', {POINTS}."
    assert len(sentence) == 121
    if columns == 200:
        assert sentence in lines
    else:
        assert all(len(line) <= 60 for line in lines), lines
        assert sentence not in lines

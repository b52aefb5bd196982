"""A Leader's wargear: ``--leader NAME:LOADOUT`` (and ``--target-leader``, a batch file's
``leader``, an exchange side's or a sequence step's ``--leader``) gives an attached Leader one
of its datasheet's named loadouts, as ``--loadout`` gives the unit one (a fresh-user trial: a
Captain always fought with his datasheet's default close combat weapon).

Hand figures, edition 10: the Captain's power-fist loadout is a bolt pistol, a master-crafted
boltgun and a power fist (A5, WS2+, S8, AP-2, D2). Against Boyz (T5, Sv5+): 5 x 5/6 = 25/6
hits, wounding on 3+ (S8 against T5): 25/9 wounds, no save (5+ with AP-2 is 7+): 25/9 failed
saves, 50/9 damage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli, cli_json

FIST = {"attacks": 5.0, "hits": 25 / 6, "wounds": 25 / 9, "failed_saves": 25 / 9, "damage": 50 / 9}


def _rows(out: dict) -> dict[str, dict]:
    return {w["name"]: w for w in out["weapons"]}


def _check_fist(out: dict) -> None:
    rows = _rows(out)
    assert rows["Power fist"]["count"] == 1
    for k, v in FIST.items():
        assert rows["Power fist"]["expected"][k] == pytest.approx(v, abs=1e-9), k
    # the Captain's close combat weapon is gone; the 5 Intercessors keep theirs
    assert rows["Close combat weapon"]["count"] == 5


def test_a_leader_fights_with_its_named_loadout() -> None:
    out = cli_json("fight", "intercessor-squad", "--leader", "captain:power-fist", "-t", "boyz")
    _check_fist(out)
    assert out["attacker"]["name"] == "Intercessor Squad led by Captain (power-fist)"
    plain = cli_json("fight", "intercessor-squad", "--leader", "captain", "-t", "boyz")
    assert "Power fist" not in _rows(plain)
    ccw = [w["count"] for w in plain["weapons"] if w["name"].startswith("Close combat weapon")]
    assert sorted(ccw) == [1, 5]  # the Captain's and the Intercessors', told apart
    same = cli_json("fight", "intercessor-squad", "--leader", "captain:default", "-t", "boyz")
    assert same["weapons"] == plain["weapons"]


def test_a_full_width_colon_is_the_colon() -> None:
    """Full-width letters name units (``norm_name``), so a full-width colon divides too."""
    out = cli_json(
        "fight", "intercessor-squad", "--leader", "captain\uff1apower-fist", "-t", "boyz"
    )
    _check_fist(out)


def test_the_same_in_a_batch_file(tmp_path: Path) -> None:
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "runs:\n"
        "  - name: fist\n"
        "    phase: fight\n"
        "    attacker: {name: intercessor-squad, leader: 'captain:power-fist'}\n"
        "    target: boyz\n",
        encoding="utf-8",
    )
    res = cli("compare", batch, "--json")
    assert res.exit_code == 0, res.output
    [row] = json.loads(res.stdout)
    _check_fist(row)


def test_a_wrong_loadout_or_form_is_refused() -> None:
    bad = cli("fight", "intercessor-squad", "--leader", "captain:powr-fist", "-t", "boyz")
    assert bad.exit_code == 1
    assert bad.stderr.startswith(
        "error: --leader captain:powr-fist: Captain has no loadout 'powr-fist'; did you mean "
        "'power-fist'?"
    )
    for text, said in (
        ("captain:", "a loadout name after"),
        (":power-fist", "a unit name"),
        ("captain::power-fist", "one colon"),  # a second trial: taken as captain:power-fist
        ("captain:power-fist:x", "one colon"),  # ... and 'unknown unit captain:power-fist'
    ):
        res = cli("fight", "intercessor-squad", "--leader", text, "-t", "boyz")
        assert res.exit_code == 2 and said in res.stderr, res.stderr
    target = cli("shoot", "lootas", "-t", "intercessor-squad", "--target-leader", "captain:x")
    assert target.exit_code == 1 and "--target-leader captain:x: Captain has no loadout" in (
        target.stderr
    )


def test_a_batch_file_names_the_leader_field(tmp_path: Path) -> None:
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "runs:\n"
        "  - name: bad\n"
        "    attacker: {name: intercessor-squad, leader: ['captain:powr-fist']}\n"
        "    target: boyz\n",
        encoding="utf-8",
    )
    res = cli("compare", batch)
    assert res.exit_code == 1
    assert "run 'bad': attacker.leader[0]: Captain has no loadout 'powr-fist'" in res.stderr

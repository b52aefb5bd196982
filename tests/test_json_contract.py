"""The JSON contract (DATASHEET_FORMAT.md part 2) of `calc shoot/fight ... --json`.

Every expected figure below is derived by hand in the comments.
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from numbers import Real
from typing import Any

import pytest
from typer.testing import CliRunner

from wh40k_calc.catalog import ENV_VAR
from wh40k_calc.cli import app

ENV = {"COLUMNS": "200", ENV_VAR: None}

TOP_KEYS = {
    "schema", "edition", "phase", "method", "attacker", "target", "conditions", "effects",
    "choices", "weapons", "expected", "kill_table", "models_destroyed_distribution",
    "damage_distribution", "attacker_losses", "not_modelled",
}  # fmt: skip
ATTACKER_KEYS = {"name", "models", "points", "weapons_order"}
TARGET_KEYS = {"name", "models", "wounds", "points", "allocation_order"}
CONDITION_KEYS = {
    "half_range", "stationary", "charged", "cover", "objective", "overwatch", "indirect",
}  # fmt: skip
FIGURES = {"attacks", "hits", "wounds", "failed_saves", "mortal_wounds", "damage"}
EXPECTED_KEYS = FIGURES | {"wounds_lost", "models_destroyed"}
LOSS_KEYS = {"hazard_mortal_wounds", "models_destroyed", "at_least_one"}
SAMPLE_KEYS = {
    "trials", "seed", "weapons", "expected", "kill_table", "models_destroyed_distribution",
    "damage_distribution", "attacker_losses", "standard_error",
}  # fmt: skip

# Lootas (4 Lootas with deffguns, 1 Spanner with a big shoota) shooting 10 Boyz at long range.
# Dat's Our Loot! re-rolls Hit rolls of 1.
#
# Deffgun: 4 models x A2 = 8 attacks. BS6+: P(hit) = 1/6 + (1/6)(1/6) = 7/36 -> 8*7/36 = 1.556.
#   S8 vs T5 wounds on 3+: 2/3 -> 1.037. Sv5+ with AP-1 saves on 6+: fails 5/6 -> 0.864.
#   D2 -> 1.728 damage.
# Big shoota: 1 model x A3 = 3 attacks. BS5+: P(hit) = 2/6 + (1/6)(2/6) = 7/18 -> 1.167.
#   S5 vs T5 wounds on 4+: 1/2 -> 0.583. Sv5+, AP0: fails 2/3 -> 0.389. D1 -> 0.389.
DEFFGUN = {
    "attacks": 8.0,
    "hits": 8 * 7 / 36,
    "wounds": 8 * 7 / 36 * 2 / 3,
    "failed_saves": 8 * 7 / 36 * 2 / 3 * 5 / 6,
    "mortal_wounds": 0.0,
    "damage": 8 * 7 / 36 * 2 / 3 * 5 / 6 * 2,
}
BIG_SHOOTA = {
    "attacks": 3.0,
    "hits": 3 * 7 / 18,
    "wounds": 3 * 7 / 18 / 2,
    "failed_saves": 3 * 7 / 18 / 2 * 2 / 3,
    "mortal_wounds": 0.0,
    "damage": 3 * 7 / 18 / 2 * 2 / 3,
}
# Each failed save destroys one Boy (W1; the Deffgun's second damage point is lost), and the
# Boss Nob (W2) is last, so wounds lost = models destroyed = failed saves unless 10 or more of
# the 11 attacks get through (probability below 1e-6).
# P(no failed save) = (1 - 70/648)^8 * (1 - 7/54)^3 (per-attack chances from the lines above).
P_NOTHING = (1 - 70 / 648) ** 8 * (1 - 7 / 54) ** 3  # 0.2642


def invoke(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*args, "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@cache
def lootas_at_boyz(*extra: str) -> dict[str, Any]:
    return invoke("shoot", "lootas", "--target", "boyz", *extra)


def is_number(x: object) -> bool:
    return isinstance(x, Real) and not isinstance(x, bool)


def check_probability(p: object) -> None:
    assert is_number(p)
    assert 0.0 <= p <= 1.0  # type: ignore[operator]


def check_figures(expected: dict[str, Any], keys: set[str]) -> None:
    assert set(expected) >= keys
    for k in keys:
        assert is_number(expected[k]), k
        assert expected[k] >= 0, k


def check_kill_table(table: list[dict[str, Any]], models: int) -> None:
    assert [row["models"] for row in table] == list(range(1, models + 1))
    values = [row["at_least"] for row in table]
    for v in values:
        check_probability(v)
    assert all(a >= b for a, b in itertools.pairwise(values))


def check_distribution(dist: list[float]) -> None:
    assert dist
    for p in dist:
        check_probability(p)
    assert sum(dist) == pytest.approx(1.0, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Exact


def test_top_level_keys_and_scalars() -> None:
    data = lootas_at_boyz()
    assert set(data) >= TOP_KEYS
    assert "sample" not in data
    assert data["schema"] == 1
    assert data["edition"] == "10"
    assert data["phase"] == "shooting"
    assert data["method"] == "exact"
    assert data["effects"] == ["dats-our-loot"]
    assert isinstance(data["choices"], list)
    assert all(isinstance(c, str) for c in data["choices"])
    assert isinstance(data["not_modelled"], list)
    assert all(isinstance(c, str) for c in data["not_modelled"])


def test_attacker_and_target() -> None:
    data = lootas_at_boyz()
    attacker, target = data["attacker"], data["target"]
    assert set(attacker) >= ATTACKER_KEYS
    assert attacker["name"] == "Lootas"
    assert attacker["models"] == 5 and isinstance(attacker["models"], int)
    assert is_number(attacker["points"]) and attacker["points"] == 50
    assert attacker["weapons_order"] == ["Deffgun", "Big shoota"]
    assert set(target) >= TARGET_KEYS
    assert target["name"] == "Boyz"
    assert target["models"] == 10 and isinstance(target["models"], int)
    assert target["wounds"] == 9 * 1 + 2 and isinstance(target["wounds"], int)
    assert is_number(target["points"]) and target["points"] == 80
    assert target["allocation_order"] == ["Boy"] * 9 + ["Boss Nob"]


def test_conditions_all_false() -> None:
    conditions = lootas_at_boyz()["conditions"]
    assert set(conditions) >= CONDITION_KEYS
    for key in CONDITION_KEYS:
        assert conditions[key] is False, key


def test_conditions_follow_the_flags() -> None:
    conditions = lootas_at_boyz("--half-range", "--cover", "--objective")["conditions"]
    assert conditions["half_range"] is True
    assert conditions["cover"] is True
    assert conditions["objective"] is True
    assert conditions["stationary"] is False and conditions["overwatch"] is False


def test_weapons_rows_are_the_hand_values() -> None:
    weapons = lootas_at_boyz()["weapons"]
    assert [w["name"] for w in weapons] == ["Deffgun", "Big shoota"]
    assert [w["count"] for w in weapons] == [4, 1]
    for row, hand in zip(weapons, (DEFFGUN, BIG_SHOOTA), strict=True):
        assert set(row) >= {"name", "count", "expected"}
        check_figures(row["expected"], FIGURES)
        for key, value in hand.items():
            assert row["expected"][key] == pytest.approx(value, abs=5e-4), (row["name"], key)
    deffgun = weapons[0]["expected"]
    # the contract's example row, to 3 decimals
    assert round(deffgun["attacks"], 3) == 8.0
    assert round(deffgun["hits"], 3) == 1.556
    assert round(deffgun["wounds"], 3) == 1.037
    assert round(deffgun["failed_saves"], 3) == 0.864
    assert round(deffgun["mortal_wounds"], 3) == 0.0
    assert round(deffgun["damage"], 3) == 1.728


def test_expected_totals() -> None:
    expected = lootas_at_boyz()["expected"]
    check_figures(expected, EXPECTED_KEYS)
    for key in FIGURES:
        assert expected[key] == pytest.approx(DEFFGUN[key] + BIG_SHOOTA[key], abs=5e-4), key
    failed = DEFFGUN["failed_saves"] + BIG_SHOOTA["failed_saves"]  # 203/162 = 1.253
    assert expected["wounds_lost"] == pytest.approx(failed, abs=5e-4)
    assert expected["models_destroyed"] == pytest.approx(failed, abs=5e-4)


def test_kill_table_and_distributions() -> None:
    data = lootas_at_boyz()
    table = data["kill_table"]
    assert len(table) == 10
    check_kill_table(table, 10)
    assert table[0]["at_least"] == pytest.approx(1 - P_NOTHING, abs=1e-5)
    dist = data["models_destroyed_distribution"]
    assert len(dist) == 11
    check_distribution(dist)
    assert dist[0] == pytest.approx(P_NOTHING, abs=1e-5)
    # kill_table[k-1] = P(at least k) = sum of dist[k:]
    for k, row in enumerate(table, start=1):
        assert row["at_least"] == pytest.approx(sum(dist[k:]), abs=1e-9)
    mean = sum(k * p for k, p in enumerate(dist))
    assert mean == pytest.approx(data["expected"]["models_destroyed"], abs=1e-4)


def test_damage_distribution() -> None:
    data = lootas_at_boyz()
    dist = data["damage_distribution"]
    check_distribution(dist)
    assert dist[0] == pytest.approx(P_NOTHING, abs=1e-5)
    # at most 8 x 2 + 3 x 1 = 19 damage
    assert len(dist) <= 20
    mean = sum(d * p for d, p in enumerate(dist))
    assert mean == pytest.approx(data["expected"]["damage"], abs=1e-4)


def test_attacker_losses_without_hazardous() -> None:
    losses = lootas_at_boyz()["attacker_losses"]
    assert set(losses) >= LOSS_KEYS
    assert losses == {"hazard_mortal_wounds": 0.0, "models_destroyed": 0.0, "at_least_one": 0.0}


def test_attacker_losses_with_hazardous() -> None:
    # one kustom mega-blasta: one Hazardous test, a 1 (1/6) inflicts 3 mortal wounds on a
    # Spanner (W1): 0.5 mortal wounds expected, 1/6 models lost, P(at least one) = 1/6.
    data = lootas_at_boyz("--loadout", "kustom-mega-blastas")
    losses = data["attacker_losses"]
    assert losses["hazard_mortal_wounds"] == pytest.approx(3 / 6, abs=1e-5)
    assert losses["models_destroyed"] == pytest.approx(1 / 6, abs=1e-5)
    assert losses["at_least_one"] == pytest.approx(1 / 6, abs=1e-5)
    # Kustom mega-blasta: A3, BS5+ with 1s re-rolled (7/18) -> 7/6 hits; S9 vs T5 on 3+ -> 7/9;
    # AP-2 turns Sv5+ into 7+: no save -> 7/9 failed; D6 (3.5) -> 49/18 damage.
    kmb = next(w for w in data["weapons"] if w["name"] == "Kustom mega-blasta")
    assert kmb["count"] == 1
    assert kmb["expected"]["hits"] == pytest.approx(7 / 6, abs=5e-4)
    assert kmb["expected"]["failed_saves"] == pytest.approx(7 / 9, abs=5e-4)
    assert kmb["expected"]["damage"] == pytest.approx(49 / 18, abs=5e-4)


def test_fight_lord_invocatus_after_a_charge() -> None:
    data = invoke("fight", "lord-invocatus", "--target", "boyz", "--charged")
    assert data["phase"] == "fight"
    assert data["conditions"]["charged"] is True
    assert "bloody-stampede" in data["effects"]
    rows = {w["name"]: w["expected"] for w in data["weapons"]}
    # Coward's Bane: A7 WS2+ -> 35/6 hits; S6 vs T5 on 3+; a 6 (1/6 of the hits) is a Critical
    # Wound -> Devastating Wounds: 35/36 crits x D2 = 35/18 mortal wounds; the other 3+ results
    # (1/2 of the hits) face Sv5+ with AP-2 = 7+: all fail -> 35/12.
    bane = rows["Coward's Bane"]
    assert bane["attacks"] == pytest.approx(7)
    assert bane["hits"] == pytest.approx(35 / 6, abs=5e-4)
    assert bane["wounds"] == pytest.approx(35 / 9, abs=5e-4)
    assert bane["mortal_wounds"] == pytest.approx(35 / 18, abs=5e-4)
    assert bane["failed_saves"] == pytest.approx(35 / 12, abs=5e-4)
    # Bladed horn (extra attacks, lance): A4 WS3+ -> 8/3 hits; S6 vs T5 3+, +1 with the
    # charge -> 2+: 20/9 wounds; AP-1: Sv 6+ fails 5/6 -> 50/27; D2 -> 100/27.
    horn = rows["Bladed horn"]
    assert horn["hits"] == pytest.approx(8 / 3, abs=5e-4)
    assert horn["wounds"] == pytest.approx(20 / 9, abs=5e-4)
    assert horn["failed_saves"] == pytest.approx(50 / 27, abs=5e-4)
    assert horn["damage"] == pytest.approx(100 / 27, abs=5e-4)
    # Bloody Stampede: D6; 2-3 one mortal wound, 4-5 D3 (mean 2), 6 D3+3 (mean 5):
    # (2*1 + 2*2 + 5) / 6 = 11/6
    total_mw = sum(row["mortal_wounds"] for row in rows.values())
    assert total_mw == pytest.approx(11 / 6 + 35 / 18, abs=1e-3)
    check_kill_table(data["kill_table"], 10)
    check_distribution(data["models_destroyed_distribution"])
    check_distribution(data["damage_distribution"])


def test_json_on_a_mistake_prints_no_json() -> None:
    result = CliRunner().invoke(app, ["shoot", "lootz", "--target", "boyz", "--json"], env=ENV)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")


# ---------------------------------------------------------------------------------------------
# Sampler


def check_sample_block(data: dict[str, Any], trials: int, seed: int) -> dict[str, Any]:
    sample = data["sample"]
    assert set(sample) >= SAMPLE_KEYS
    assert sample["trials"] == trials
    assert sample["seed"] == seed
    assert [w["name"] for w in sample["weapons"]] == ["Deffgun", "Big shoota"]
    assert [w["count"] for w in sample["weapons"]] == [4, 1]
    for row in sample["weapons"]:
        check_figures(row["expected"], FIGURES)
    check_figures(sample["expected"], EXPECTED_KEYS)
    check_kill_table(sample["kill_table"], 10)
    check_distribution(sample["models_destroyed_distribution"])
    check_distribution(sample["damage_distribution"])
    assert set(sample["attacker_losses"]) >= LOSS_KEYS
    check_probability(sample["attacker_losses"]["at_least_one"])
    se = sample["standard_error"]
    assert set(se) >= {"expected", "kill_table"}
    assert set(se["expected"]) >= EXPECTED_KEYS
    assert all(is_number(v) and v >= 0 for v in se["expected"].values())
    assert len(se["kill_table"]) == 10
    assert all(is_number(v) and v >= 0 for v in se["kill_table"])
    return sample


def test_method_both() -> None:
    data = lootas_at_boyz("--method", "both", "--trials", "2000")
    assert data["method"] in ("both", "exact")
    sample = check_sample_block(data, 2000, 40000)
    # the exact figures stay at the top level
    assert data["weapons"][0]["expected"]["hits"] == pytest.approx(DEFFGUN["hits"], abs=5e-4)
    # attacks are not random here: the sampler gets them exactly
    assert sample["expected"]["attacks"] == pytest.approx(11.0)
    assert sample["standard_error"]["expected"]["attacks"] == pytest.approx(0.0)
    # the sample agrees with the exact values within 5 standard errors
    for key in ("hits", "wounds", "failed_saves", "damage", "models_destroyed"):
        se = sample["standard_error"]["expected"][key]
        assert se > 0, key
        assert abs(sample["expected"][key] - data["expected"][key]) < 5 * se + 1e-6, key
    for row, exact, se in zip(
        sample["kill_table"],
        data["kill_table"],
        sample["standard_error"]["kill_table"],
        strict=True,
    ):
        assert abs(row["at_least"] - exact["at_least"]) < 5 * se + 2e-3


def test_method_sample() -> None:
    data = lootas_at_boyz("--method", "sample", "--trials", "2000")
    assert data["method"] == "sample"
    assert set(data) >= TOP_KEYS
    sample = check_sample_block(data, 2000, 40000)
    # with --method sample the top-level numbers are the sampler's
    assert data["expected"] == sample["expected"]
    assert data["kill_table"] == sample["kill_table"]
    assert data["weapons"] == sample["weapons"]


def test_seed_reproducible() -> None:
    a = lootas_at_boyz("--method", "sample", "--trials", "2000", "--seed", "7")
    b = invoke("shoot", "lootas", "--target", "boyz", "--method", "sample", "--trials", "2000",
               "--seed", "7")  # fmt: skip
    c = lootas_at_boyz("--method", "sample", "--trials", "2000", "--seed", "8")
    assert a["sample"]["seed"] == 7 and c["sample"]["seed"] == 8
    assert a["sample"]["expected"] == b["sample"]["expected"]
    assert a["sample"]["damage_distribution"] == b["sample"]["damage_distribution"]
    assert a["sample"]["expected"] != c["sample"]["expected"]

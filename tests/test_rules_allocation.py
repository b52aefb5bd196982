"""Allocation and the kill table, against the independent allocation model in oracle.py.

Seeds README, "Allocating attacks": "the defender picks the model for each attack that
wounds; a model that has already lost wounds, or had attacks allocated to it this phase, must
be picked first." Core rules, LEADER: "you must use the Toughness characteristic of the
Bodyguard models in that unit ... Each time an attack successfully wounds an Attached unit,
that attack cannot be allocated to a CHARACTER model in that unit ... As soon as the last
Bodyguard model in an Attached unit has been destroyed, any attacks ... can then be allocated to
CHARACTER models". JSON: "kill_table[k-1].at_least: probability of destroying at least k
models"; "models_destroyed_distribution[k]": probability of exactly k."""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import (
    allocate,
    allocate_streams,
    approx,
    attacker,
    dist_list,
    marginal,
    mean,
    shoot,
    target,
    weapon,
)

BOYZ = [1] * 9 + [2]  # 9 Boys (W1), then the Boss Nob (W2): the datasheet's order


def check_kills(out: dict, joint: dict, n_models: int) -> None:
    """The whole kill table and distribution against the oracle's exact joint distribution."""
    models = marginal(joint, 0)
    assert sum(models.values()) == 1  # the oracle's distribution is a distribution
    assert out["models_destroyed_distribution"] == [
        approx(q) for q in dist_list(models, n_models + 1)
    ]
    tail = [sum((q for k, q in models.items() if k >= m), Fr(0)) for m in range(1, n_models + 1)]
    assert [row["models"] for row in out["kill_table"]] == list(range(1, n_models + 1))
    assert [row["at_least"] for row in out["kill_table"]] == [approx(q) for q in tail]
    assert out["expected"]["models_destroyed"] == approx(mean(models))
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))


@pytest.mark.parametrize("damage", [1, 2])
def test_boyz_boys_first_then_the_boss_nob(tmp_path, damage):
    """12 [TORRENT] S10 AP-4 attacks into Boyz (T5: 2+ to wound; Sv 5+ - 4: no save): each
    attack is a failed save with P = 5/6. With D1, the Boss Nob (W2, last) needs two."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=10, AP=-4, D=damage, abilities=["torrent"]))
    out = shoot(a, "boyz", dirs=[tmp_path])
    assert out["target"]["allocation_order"] == ["Boy"] * 9 + ["Boss Nob"]
    p = Fr(5, 6)
    check_kills(out, allocate(12, {0: 1 - p, damage: p}, BOYZ), 10)


def test_wounded_boss_nob_must_take_the_next_attack(tmp_path):
    """--allocation "Boss Nob,Boy": the Boss Nob first. A D1 failed save leaves it on 1 wound,
    and the next must go to it (it has lost a wound): 1 failed save kills nobody, k >= 2 kill
    k - 1 models. Exact table from the oracle with the Nob first."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=10, AP=-4, D=1, abilities=["torrent"]))
    out = shoot(a, "boyz", "--allocation", "Boss Nob,Boy", dirs=[tmp_path])
    assert out["target"]["allocation_order"] == ["Boss Nob"] + ["Boy"] * 9
    p = Fr(5, 6)
    joint = allocate(6, {0: 1 - p, 1: p}, [2] + [1] * 9)
    check_kills(out, joint, 10)
    # by hand: P(no model destroyed) = P(0 or 1 failed save) = (1/6)^6 + 6 x 5/6 x (1/6)^5
    assert out["models_destroyed_distribution"][0] == approx((1 - p) ** 6 + 6 * p * (1 - p) ** 5)


def test_lootas_shooting_boyz_full_kill_table():
    """`calc shoot lootas --target boyz`: Deffguns first (8 attacks, D2), then the big shoota
    (3 attacks, D1), the Boyz' state carrying over.
    Deffgun: 6+ to hit with 1s re-rolled (7/36), S8 v T5 3+ (2/3), 6+ save (fails 5/6).
    Big shoota: 5+ to hit with 1s re-rolled (14/36), S5 v T5 4+ (1/2), 5+ save (fails 4/6)."""
    out = shoot("lootas", "boyz")
    assert out["attacker"]["weapons_order"] == ["Deffgun", "Big shoota"]
    pd = Fr(7, 36) * Fr(2, 3) * Fr(5, 6)
    pb = Fr(14, 36) * Fr(1, 2) * Fr(4, 6)
    joint = allocate_streams([(8, {0: 1 - pd, 2: pd}), (3, {0: 1 - pb, 1: pb})], BOYZ)
    check_kills(out, joint, 10)


def test_attached_unit_uses_bodyguard_toughness_and_leader_last(tmp_path):
    """Oracle Squad (5 x T4 Sv7 W1) led by Oracle Captain (T6 Sv3+ W4, CHARACTER). S4
    [TORRENT] D1, 12 attacks: the Toughness is the Bodyguard's (4: 4+ to wound, not 5+ for
    T6), the Captain is allocated to last and saves on 3+ (fails 2/6)."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=4, abilities=["torrent"]))
    out = shoot(a, "oracle-squad", "--target-leader", "oracle-captain", dirs=[tmp_path])
    assert out["target"]["allocation_order"] == ["Squaddie"] * 5 + ["Captain"]
    assert out["weapons"][0]["expected"]["wounds"] == approx(6)

    def per_attack(i: int, _left: int) -> dict:
        p = Fr(1, 2) if i < 5 else Fr(1, 2) * Fr(2, 6)
        return {0: 1 - p, 1: p}

    check_kills(out, allocate(12, per_attack, [1] * 5 + [4]), 6)


def test_precision_attacks_go_to_the_leader(tmp_path):
    """[PRECISION] (seeds README): "when an attack with this ability is allocated to an
    Attached unit, the attacker can have it allocated to a visible CHARACTER model"; DESIGN:
    "[PRECISION] attacks go to the Leader unless the player says otherwise". 6 attacks on the
    Captain (4+ to wound, fails 3+ save on 1-2: 1/6 each); once it is destroyed the rest go to
    the Squaddies (1/2 each)."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=4, abilities=["torrent", "precision"]))
    out = shoot(a, "oracle-squad", "--target-leader", "oracle-captain", dirs=[tmp_path])

    def per_attack(i: int, _left: int) -> dict:
        p = Fr(1, 6) if i == 0 else Fr(1, 2)
        return {0: 1 - p, 1: p}

    check_kills(out, allocate(6, per_attack, [4] + [1] * 5), 6)


def test_precision_target_bodyguard(tmp_path):
    """--precision-target bodyguard: the same attacks are allocated as normal attacks."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=4, abilities=["torrent", "precision"]))
    out = shoot(
        a,
        "oracle-squad",
        "--target-leader",
        "oracle-captain",
        "--precision-target",
        "bodyguard",
        dirs=[tmp_path],
    )

    def per_attack(i: int, _left: int) -> dict:
        p = Fr(1, 2) if i < 5 else Fr(1, 6)
        return {0: 1 - p, 1: p}

    check_kills(out, allocate(6, per_attack, [1] * 5 + [4]), 6)


def test_precision_choice_is_listed(tmp_path):
    """JSON contract: "choices: each choice the calculator made for the player, as a sentence
    (re-rolled results, weapon or profile picked, weapon order, Lethal Hits taken or not,
    Precision target)". Allocating [PRECISION] attacks to the Leader is such a choice."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=4, abilities=["torrent", "precision"]))
    out = shoot(a, "oracle-squad", "--target-leader", "oracle-captain", dirs=[tmp_path])
    assert any("precision" in c.lower() or "Captain" in c for c in out["choices"]), out["choices"]


def test_damaged_target_unit(tmp_path):
    """--target-models 4 of a 5-model unit: a damaged unit of 4 W1 models; 6 torrent S8
    attacks (2+, no save) destroy min(k, 4) models."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=8, abilities=["torrent"]))
    out = shoot(a, "oracle-squad", "--target-models", "4", dirs=[tmp_path])
    assert out["target"]["models"] == 4
    p = Fr(5, 6)
    check_kills(out, allocate(6, {0: 1 - p, 1: p}, [1] * 4), 4)


def test_devastating_wounds_wait_for_all_normal_damage_of_every_weapon(tmp_path):
    """Core rules, Devastating Wounds: "Such attacks are only allocated to models after all
    other attacks made by the attacking unit have been allocated and resolved." Weapon order
    Lance-gun (D2 [devastating wounds]) then Popgun (D1): the Popgun's normal damage comes
    before the Lance-gun's mortal wounds, which then do not spill. Into six T4 W2 models, no
    save, [TORRENT] S4 (4+ to wound): Lance-gun: 6 to wound -> 2 mortal wounds (1/6), 4-5 ->
    2 damage (2/6); Popgun: 4+ -> 1 damage (1/2)."""
    a = attacker(
        tmp_path,
        weapon("Lance-gun", A=6, skill=None, S=4, D=2, abilities=["torrent", "devastating wounds"]),
        weapon("Popgun", A=6, skill=None, S=4, D=1, abilities=["torrent"]),
    )
    out = shoot(
        a,
        target(tmp_path, models=6, T=4, Sv=7, W=2),
        "--order",
        "Lance-gun,Popgun",
        dirs=[tmp_path],
    )
    assert out["attacker"]["weapons_order"] == ["Lance-gun", "Popgun"]
    lance = {0: Fr(1, 2), 2: Fr(1, 3), ("dev", 2): Fr(1, 6)}
    popgun = {0: Fr(1, 2), 1: Fr(1, 2)}
    check_kills(out, allocate_streams([(6, lance), (6, popgun)], [2] * 6), 6)

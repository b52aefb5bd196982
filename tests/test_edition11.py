"""Edition 11 (`--edition 11`, seed 004) where its text differs from 10th edition: hazard
rolls, [LETHAL HITS] as a choice, [BLAST X], snap shooting without Hit re-rolls, allocation
groups with CHARACTER models last in any unit, and [PRECISION] into a CHARACTER group.

Rules quoted (seed 004):

* 24.15 [HAZARDOUS]: "make a number of hazard rolls (06.03) for that unit equal to the number of
  [HAZARDOUS] weapons you selected in the Select Weapons step."
* 06.03 Hazard Rolls: "roll one D6: on a 1-2, that roll fails and that unit suffers 1 mortal
  wound, or 3 mortal wounds instead if each model in that unit is a MONSTER/VEHICLE model."
  FAQ: "you allocate the mortal wounds to the unit as per Mortal Wounds (06.02)."
* 06.02 Mortal Wounds: "If a non-CHARACTER model in that unit has lost one or more wounds, you
  must select that model. Otherwise, if that unit contains one or more non-CHARACTER models, you
  must select one of those models. [...]" one mortal wound at a time "until either all of them
  have been inflicted or that unit is destroyed".
* 24.23 [LETHAL HITS]: "you can choose for that attack to automatically wound the target."
  Designer's Note: "You may decide against this, as it means that attack cannot result in a
  critical wound and so cannot trigger other abilities such as [DEVASTATING WOUNDS]."
* 24.10 [DEVASTATING WOUNDS]: "the attack sequence for that attack ends and the target unit
  suffers a number of mortal wounds equal to the D characteristic of that weapon."
* 24.05 [BLAST]: "If this ability takes the form [BLAST X], [...] add X additional attack dice
  for every five models that were in the target unit [...] (rounding down)". Example: "[BLAST
  2] [...] A characteristic of 3 targets a unit containing 12 models, you would gather four
  additional attack dice for that weapon (for a total of seven for that weapon)."
* 15.09 Snap Shooting: "Each attack only hits on an unmodified hit roll of 6 [...] You cannot
  re-roll hit rolls."
* Save Rolls, Allocation Order: "No CHARACTER group can be earlier in the allocation order than
  a non-CHARACTER group."
* 24.28 [PRECISION]: "the active player can select one allocation group that contains one of
  those visible CHARACTER models. If they do, until those attacks are resolved, or until that
  CHARACTER group is destroyed (whichever happens first), that CHARACTER group is the current
  allocation group."

Test units are in tests/data/alloc/. CLI figures come from the JSON (rounded to 6 decimals,
compared to 1e-6); the sampler (--method both) within 5 standard errors computed from the
hand-derived distribution (floored at 1/trials).
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import partial
from pathlib import Path

import pytest
from helpers import binom, both_json, check_models, se_mean, se_p

DATA = Path(__file__).parent / "data" / "alloc"
SEED = 1_111


calc = partial(both_json, dirs=[DATA], seed=SEED, edition="11")  # exact and sampled JSON


def check_losses(out: dict, mortal: dict[int, F], models: dict[int, F]) -> None:
    """attacker_losses (exact and sampled) against the hand distributions of the mortal wounds
    suffered and of the models lost."""
    want = {
        "hazard_mortal_wounds": sum(v * p for v, p in mortal.items()),
        "models_destroyed": sum(k * p for k, p in models.items()),
        "at_least_one": sum(p for k, p in models.items() if k >= 1),
    }
    ses = {
        "hazard_mortal_wounds": se_mean(mortal),
        "models_destroyed": se_mean(models),
        "at_least_one": se_p(float(want["at_least_one"])),
    }
    for key, value in want.items():
        assert out["attacker_losses"][key] == pytest.approx(float(value), abs=1e-6), key
        got = out["sample"]["attacker_losses"][key]
        assert abs(got - float(value)) <= 5 * ses[key], (key, got, value)


def scaled(dist: list[F], by: int) -> dict[int, F]:
    return {by * k: p for k, p in enumerate(dist)}


# ---------------------------------------------------------------------------------------------
# Hazard rolls


def test_hazard_roll_lootas_one_spanner():
    # Lootas (5 models; the edition-11 datasheet of data 912: 1 Spanner, W1), kustom-mega-blasta:
    # 1 [HAZARDOUS] weapon -> 1 hazard roll, fails on 1-2 (1/3): 1 mortal wound (the Lootas are
    # not MONSTER/VEHICLE), destroying a W1 model.
    # P(lose a model) = 1/3 = E[models lost] = E[mortal wounds].
    out = calc("shoot", "lootas", "--loadout", "kustom-mega-blasta", "--target", "boyz")
    check_losses(out, scaled(binom(1, F(1, 3)), 1), {0: F(2, 3), 1: F(1, 3)})


def test_hazard_roll_lootas_two_spanners():
    # 10 models: 2 Spanners with kustom mega-blastas: 2 hazard rolls; failures ~
    # Binomial(2, 1/3) = (4, 4, 1)/9, each one mortal wound destroying one W1 model:
    # E = 2/3, P(at least one) = 5/9.
    out = calc(
        "shoot", "lootas", "--loadout", "kustom-mega-blasta", "--models", "10", "--target", "boyz"
    )
    b = binom(2, F(1, 3))
    check_losses(out, scaled(b, 1), dict(enumerate(b)))


def test_hazard_rolls_vehicles_three_mortal_wounds_spill():
    # Walkers: 3 W2 VEHICLE models, one [HAZARDOUS] weapon each: 3 hazard rolls, failures
    # K ~ Binomial(3, 1/3) = (8, 12, 6, 1)/27; every model is a VEHICLE, so 3 mortal wounds per
    # failure, allocated one at a time (spilling): K = 1: 3 -> first Walker destroyed (2), the
    # second loses 1: 1 model; K = 2: 6 -> all three (2 + 2 + 2): 3; K = 3: 3 (rest lost).
    # E[models] = 12/27 + 3 * 7/27 = 11/9; P(at least one) = 19/27; E[mortal wounds] = 3.
    out = calc("shoot", "walkers", "--target", "grunts", "--target-models", "10")
    b = binom(3, F(1, 3))
    check_losses(out, scaled(b, 3), {0: b[0], 1: b[1], 3: b[2] + b[3]})


def test_hazardous_vehicles_in_10th_do_not_spill():
    # Same Walkers in 10th: 3 tests failing on a 1 (1/6); each failure's 3 mortal wounds go to
    # one bearer (W2): destroyed, the rest lost. Models lost ~ Binomial(3, 1/6): E = 1/2.
    out = calc("shoot", "walkers", "--target", "grunts", "--target-models", "10", edition="10")
    b = binom(3, F(1, 6))
    check_losses(out, scaled(b, 3), dict(enumerate(b)))


def test_hazard_mortal_wound_goes_to_non_character_first():
    # Hazboss: the W1 CHARACTER Boss (listed first) carries the only [HAZARDOUS] weapon; the
    # Minder (W2) carries none. Edition 11: 1 hazard roll (1/3) -> 1 mortal wound, allocated to
    # the unit, non-CHARACTER first: the Minder loses 1 of 2 wounds. No model is ever lost.
    out = calc("shoot", "hazboss", "--target", "grunts", "--target-models", "10")
    check_losses(out, scaled(binom(1, F(1, 3)), 1), {0: F(1)})


def test_hazardous_10th_goes_to_the_bearer():
    # 10th edition, same unit: 1 test (1/6) -> 3 mortal wounds to a model equipped with a
    # Hazardous weapon: only the Boss (W1): destroyed. P = 1/6.
    out = calc("shoot", "hazboss", "--target", "grunts", "--target-models", "10", edition="10")
    check_losses(out, scaled(binom(1, F(1, 6)), 3), {0: F(5, 6), 1: F(1, 6)})


def test_hazard_rolls_character_last():
    # Hazard Squad: CHARACTER Veteran (W4, listed first) and Gunner (W1), one [HAZARDOUS]
    # weapon each: 2 hazard rolls, M ~ Binomial(2, 1/3) mortal wounds. The first goes to the
    # Gunner (non-CHARACTER): destroyed; the second to the Veteran: 1 of 4 lost.
    # Models lost: 1 iff M >= 1: 5/9.
    out = calc("shoot", "hazard-squad", "--target", "grunts", "--target-models", "10")
    b = binom(2, F(1, 3))
    check_losses(out, scaled(b, 1), {0: b[0], 1: b[1] + b[2]})


# ---------------------------------------------------------------------------------------------
# [LETHAL HITS] as a choice

# Slayer gun: A6, BS4+ (4-5 hit, 6 Critical Hit), S4, AP0, D1, [LETHAL HITS, DEVASTATING
# WOUNDS]. Wardens: 10 models, W1, T4, Sv2+ (a failed save: 1/6).
# Value of a Critical Hit (expected wounds lost by the W1 model it goes to):
#   wound automatically: a normal wound, saved unless a 1: 1/6;
#   roll (S4 = T4: 4+): 4-5 (2/6) normal wounds -> 1/6 each; 6 (1/6) a Critical Wound ->
#   1 mortal wound, no save: 1. Total 2/6 * 1/6 + 1/6 = 2/9 > 1/6 -> roll.
# Edition 11, rolling: every hit (4-6: 1/2) rolls 4+: P(kill per attack) =
#   1/2 * (2/6 * 1/6 + 1/6) = 1/2 * 2/9 = 1/9; 6 attacks into 10 W1 models, at most one model
#   per attack: models destroyed ~ Binomial(6, 1/9). Mortal wounds: 6 * 1/2 * 1/6 = 1/2.
# 10th edition, Lethal Hits always wound automatically: P(kill per attack) =
#   1/6 (Critical Hit) * 1/6 + 2/6 (other hits) * 2/9 = 1/36 + 2/27 = 11/108: Binomial(6, 11/108).


def test_lethal_hits_edition11_rolls_for_devastating_wounds():
    out = calc("shoot", "slayers", "--target", "wardens")
    assert (
        "Slayer gun: Lethal Hits: critical hits roll to wound (for Critical Wounds)"
        in out["choices"]
    )
    check_models(out, binom(6, F(1, 9)))
    assert out["expected"]["mortal_wounds"] == pytest.approx(0.5, abs=1e-6)


def test_lethal_hits_10th_always_wounds_automatically():
    out = calc("shoot", "slayers", "--target", "wardens", edition="10")
    assert not any("Lethal Hits" in c for c in out["choices"])
    check_models(out, binom(6, F(11, 108)))
    # Mortal wounds only from the other hits' 6s: 6 * 2/6 * 1/6 = 1/3.
    assert out["expected"]["mortal_wounds"] == pytest.approx(1 / 3, abs=1e-6)


def test_lethal_hits_edition11_wounds_automatically_when_better():
    # Against Grunts (W1, T3, no save) an automatic wound always destroys a model (1), rolling
    # (3+) only 4/6 of the time: wound automatically. Per attack: 2/6 * 4/6 + 1/6 * 1 = 7/18:
    # Binomial(6, 7/18). Mortal wounds: only the other hits' 6s: 6 * 2/6 * 1/6 = 1/3.
    out = calc("shoot", "slayers", "--target", "grunts", "--target-models", "10")
    assert "Slayer gun: Lethal Hits: critical hits wound automatically" in out["choices"]
    check_models(out, binom(6, F(7, 18)))
    assert out["expected"]["mortal_wounds"] == pytest.approx(1 / 3, abs=1e-6)


# ---------------------------------------------------------------------------------------------
# [BLAST X]


@pytest.mark.parametrize(
    ("edition", "models", "attacks"),
    [
        ("11", 10, 7),  # 3 + 2 * (10 // 5)
        ("11", 12, 7),  # the seed's example: 3 + 2 * (12 // 5) = 7
        ("11", 9, 5),  # 3 + 2 * (9 // 5)
        ("10", 10, 5),  # 10th: [BLAST] is +1 per five models: 3 + 2
    ],
)
def test_blast_x_attacks(edition, models, attacks):
    out = calc(
        "shoot", "bombards", "--target", "grunts", "--target-models", str(models), edition=edition
    )
    (w,) = out["weapons"]
    assert w["expected"]["attacks"] == pytest.approx(attacks, abs=1e-6)
    # Mortar BS4+ (1/2), S4 vs T3 (3+, 2/3), D1, no save: 1/3 per attack; never more
    # attacks than Grunts, so models destroyed ~ Binomial(attacks, 1/3).
    check_models(out, binom(attacks, F(1, 3)))


# ---------------------------------------------------------------------------------------------
# Snap shooting


def test_snap_shooting_no_hit_rerolls_in_edition11():
    # --overwatch: only unmodified 6s hit (1/6); "You cannot re-roll hit rolls": 6 attacks ->
    # 1 expected hit even with --reroll-hits all. Per attack 1/6 * 2/3 (S4 vs T3): 1/9.
    out = calc(
        "shoot",
        "watchers",
        "--target",
        "grunts",
        "--target-models",
        "10",
        "--overwatch",
        "--reroll-hits",
        "all",
    )
    assert out["expected"]["hits"] == pytest.approx(1.0, abs=1e-6)
    assert not any("Hit roll" in c for c in out["choices"])
    check_models(out, binom(6, F(1, 9)))


def test_snap_shooting_rerolls_hits_in_10th():
    # 10th: nothing forbids it: every result but a 6 is re-rolled ("all": the player re-rolls
    # whatever a fresh roll beats): P(hit) = 1/6 + 5/6 * 1/6 = 11/36; hits = 6 * 11/36 = 11/6.
    # Per attack 11/36 * 2/3 = 11/54.
    out = calc(
        "shoot",
        "watchers",
        "--target",
        "grunts",
        "--target-models",
        "10",
        "--overwatch",
        "--reroll-hits",
        "all",
        edition="10",
    )
    assert out["expected"]["hits"] == pytest.approx(11 / 6, abs=1e-6)
    check_models(out, binom(6, F(11, 54)))


# ---------------------------------------------------------------------------------------------
# Allocation groups: a CHARACTER model in a unit that is not an Attached unit

# Squad: a CHARACTER Sergeant (W2) listed first, then 4 Troopers (W1); T3, no save.
# Marksmen's Carbine x2: 2 torrent attacks, S6 vs T3 (2+, 5/6), D1: W ~ Binomial(2, 5/6) =
# (1, 10, 25)/36.


def _squad(edition: str, weapon: str = "Carbine x2", *extra: str) -> dict:
    return calc(
        "shoot",
        "marksmen",
        "--weapon",
        weapon,
        "--target",
        "squad",
        *extra,
        edition=edition,
    )


def test_character_in_plain_unit_is_last_in_edition11():
    # Edition 11: Troopers first: each wound destroys one: (1, 10, 25)/36.
    out = _squad("11")
    assert out["target"]["allocation_order"] == ["Trooper"] * 4 + ["Sergeant"]
    check_models(out, binom(2, F(5, 6)))


def test_character_in_plain_unit_in_datasheet_order_in_10th():
    # 10th: not an Attached unit, so the Sergeant is not protected: datasheet order, the
    # Sergeant (W2) first: destroyed only if both wound: (11, 25)/36.
    out = _squad("10")
    assert out["target"]["allocation_order"] == ["Sergeant"] + ["Trooper"] * 4
    check_models(out, [F(11, 36), F(25, 36)])


def test_precision_into_character_group_edition11():
    # Needle rifle x2 ([PRECISION]): the Sergeant's group is made the current group until it
    # is destroyed: both wounds to the Sergeant: destroyed w.p. 25/36; models (11, 25)/36.
    out = _squad("11", "Needle rifle x2")
    check_models(out, [F(11, 36), F(25, 36)])
    (entry,) = out["characters_destroyed"]
    assert entry["name"] == "Sergeant"
    assert entry["destroyed"] == pytest.approx(25 / 36, abs=1e-6)
    assert abs(out["sample"]["characters_destroyed"][0] - 25 / 36) <= 5 * se_p(25 / 36)


def test_precision_declined_edition11():
    # --precision-target bodyguard: normal allocation groups, Troopers first.
    out = _squad("11", "Needle rifle x2", "--precision-target", "bodyguard")
    check_models(out, binom(2, F(5, 6)))
    (entry,) = out["characters_destroyed"]
    assert entry["destroyed"] == 0.0


def test_precision_devastating_mortal_wounds_edition11_go_to_the_picked_group():
    # 24.28.01 Precision and Devastating Wounds (core_rules.json; seed 004 did not print it):
    # mortal wounds of a [PRECISION] attack with [DEVASTATING WOUNDS] are first applied to the
    # CHARACTER group picked for those attacks, if it is not already destroyed. (24.10: "can
    # damage a maximum of one model for each critical wound".)
    # Assassin gun: Critical Wound on 2-6 (5/6), D2 -> 2 mortal wounds into the Captain (W2)
    # leading 2 Grunts (W1): the Captain is destroyed with 5/6; models destroyed (1/6, 5/6);
    # wounds lost 5/6 x 2 = 5/3.
    args = ("--weapon", "Assassin gun x1", "--target", "grunts", "--target-models", "2",
            "--target-leader", "captain")  # fmt: skip
    out = calc("shoot", "marksmen", *args)
    check_models(out, [F(1, 6), F(5, 6)])
    assert out["expected"]["wounds_lost"] == pytest.approx(5 / 3, abs=1e-6)
    (entry,) = out["characters_destroyed"]
    assert entry["destroyed"] == pytest.approx(5 / 6, abs=1e-6)
    # declined (--precision-target bodyguard): 06.02, a Grunt first; the second wound is lost
    out = calc("shoot", "marksmen", *args, "--precision-target", "bodyguard")
    check_models(out, [F(1, 6), F(5, 6)])
    assert out["expected"]["wounds_lost"] == pytest.approx(5 / 6, abs=1e-6)
    (entry,) = out["characters_destroyed"]
    assert entry["destroyed"] == 0.0

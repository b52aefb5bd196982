"""Attached units (`--target-leader`): allocation order, the Leader's chance of being destroyed,
the Bodyguard's Toughness for Wound rolls, and [PRECISION].

Rules (Core rules, LEADER, seed 000):

* "Each time an attack targets an Attached unit, until the attacking unit has resolved all of
  its attacks, you must use the Toughness characteristic of the Bodyguard models in that unit,
  even if a Leader in that unit has a different Toughness characteristic."
* "Each time an attack sucessfully wounds an Attached unit, that attack cannot be allocated to
  a CHARACTER model in that unit [...] As soon as the last Bodyguard model in an Attached unit
  has been destroyed, any attacks made against that unit that have yet to be allocated can then
  be allocated to CHARACTER models in that unit."
* [PRECISION] (seeds README): "when an attack with this ability is allocated to an Attached
  unit, the attacker can have it allocated to a visible CHARACTER model in that unit."
* README: "[PRECISION] attacks go to the Leader while it lives (then to the Bodyguard), unless
  `--precision-target bodyguard`."

Test units live in tests/data/alloc/: Grunts (W1, T3, no save), Captain (Leader of Grunts:
CHARACTER, W2, T6, no save), Marksmen (torrent guns chosen with --weapon).

CLI figures come from the JSON, which rounds to 6 decimals (report._f), so they are compared
to 1e-6; the sampler's (--method both) within 5 standard errors computed from the
hand-derived distribution (floored at 1/trials). Profile-level tests compare the exact engine
to 1e-9.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from helpers import TRIALS, binom, cli, cli_json, se_p

from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.profile import (
    Activation,
    AttackProfile,
    DamageTable,
    RollTable,
    TargetModel,
    TargetProfile,
    VsModel,
)

DATA = Path(__file__).parent / "data" / "alloc"
SEED = 31_337


calc = partial(cli_json, dirs=[DATA])  # calc ARGS --json with the test datasheets


def invoke(*args: str) -> str:
    """The text output of ``calc ARGS`` (exit code 0) with the test datasheets."""
    result = cli(*args, dirs=[DATA])
    assert result.exit_code == 0, result.output
    return result.stdout


def check_distribution(out: dict, dist: list) -> None:
    """Exact (JSON, 6 decimals) and sampled models-destroyed distributions against ``dist``."""
    exact = out["models_destroyed_distribution"]
    assert len(exact) == len(dist)
    np.testing.assert_allclose(exact, [float(p) for p in dist], atol=1e-6)
    sampled = out["sample"]["models_destroyed_distribution"]
    trials = out["sample"]["trials"]
    for k, p in enumerate(dist):
        assert abs(sampled[k] - float(p)) <= 5 * se_p(float(p), trials), (k, sampled[k], p)


def leader_destroyed(out: dict) -> tuple[float, float]:
    (entry,) = out["characters_destroyed"]
    return entry["destroyed"], out["sample"]["characters_destroyed"][0]


# ---------------------------------------------------------------------------------------------
# The shipped example: Lootas shooting Boyz led by a Warboss


def test_lootas_at_boyz_with_warboss_json():
    out = calc("shoot", "lootas", "--target", "boyz", "--target-leader", "warboss")
    # Bodyguard in datasheet order (nine Boys, then the Boss Nob), the Leader last.
    assert out["target"]["allocation_order"] == ["Boy"] * 9 + ["Boss Nob", "Warboss"]
    assert out["target"]["allocation_order"][-1] == "Warboss"
    assert out["target"]["models"] == 11
    assert out["target"]["wounds"] == 9 + 2 + 6
    # The Warboss cannot be destroyed: the Lootas make at most 4 x 2 deffgun + 3 big shoota =
    # 11 attacks, at most 2 damage each; the Bodyguard needs at least 10 of them (nine Boys and
    # a Nob killed by one 2-damage hit) before any attack may go to the Warboss (W6), so at
    # most one 2-damage attack reaches it.
    (entry,) = out["characters_destroyed"]
    assert entry["name"] == "Warboss"
    assert entry["destroyed"] == 0.0
    assert len(out["kill_table"]) == 11


def test_lootas_at_boyz_with_warboss_text():
    text = invoke("shoot", "lootas", "--target", "boyz", "--target-leader", "warboss")
    assert "Leader Warboss destroyed: 0.00% (survives 100.00%)" in text
    assert "Allocation order: Boy ×9, Boss Nob, Warboss" in text
    assert "Boyz led by Warboss" in text


# ---------------------------------------------------------------------------------------------
# Profile level: a W1 Bodyguard model and a W2 Leader


def _attached_act(n_wounds: int, p_fail: Fraction | None, precision: bool = False) -> Activation:
    """``n_wounds`` wounds that all hit and wound, Damage 1, each save failing w.p. ``p_fail``
    (None: no save), into a Bodyguard of one W1 model led by a W2 CHARACTER."""
    save = None
    if p_fail is not None:
        fails = int(p_fail * 6)
        save = RollTable((0, *([0] * fails), *([1] * (6 - fails))))
    attacks = np.zeros(n_wounds + 1)
    attacks[n_wounds] = 1.0
    vs = VsModel(save, DamageTable((1.0,), (1,)))
    gun = AttackProfile(
        name="gun",
        models=1,
        attacks=attacks,
        hit=RollTable((0, 1, 1, 1, 1, 1, 1)),
        wound=RollTable((0, 1, 1, 1, 1, 1, 1)),
        vs=(vs, vs),
        precision=precision,
    )
    tgt = TargetProfile(
        "Attached", (TargetModel("Grunt", 1, 0),), (TargetModel("Captain", 2, 1),), ("g", "c")
    )
    return Activation((gun,), tgt)


def test_three_unsaved_wounds_destroy_bodyguard_then_leader():
    # 3 unsaved 1-damage wounds: the first must go to the Bodyguard model (W1: destroyed);
    # then the Bodyguard is gone, so the next two go to the Leader (W2): destroyed.
    act = _attached_act(3, None)
    ex = run_exact(act)
    np.testing.assert_allclose(ex.models_destroyed_distribution, [0, 0, 1], atol=1e-9)
    np.testing.assert_allclose(ex.characters_destroyed, [1.0], atol=1e-9)
    sa = run_sample(act, trials=2_000, seed=SEED)
    assert sa.models_destroyed_distribution[2] == 1.0
    assert sa.characters_destroyed == [1.0]


def test_two_unsaved_wounds_leave_the_leader_alive():
    # 2 unsaved wounds: the Bodyguard model dies, the Leader loses 1 of its 2 wounds.
    ex = run_exact(_attached_act(2, None))
    np.testing.assert_allclose(ex.models_destroyed_distribution, [0, 1, 0], atol=1e-9)
    np.testing.assert_allclose(ex.characters_destroyed, [0.0], atol=1e-9)
    assert ex.expected["wounds_lost"] == pytest.approx(2.0, abs=1e-9)


@pytest.mark.parametrize("precision", [False, True])
def test_leader_destroyed_probability_small_case(precision):
    # 3 wounds, each save failing w.p. 1/2: F ~ Binomial(3, 1/2) = (1, 3, 3, 1)/8.
    # Normal allocation: Bodyguard first, so the Leader dies only when F = 3: 1/8;
    #   models destroyed: 0 (F=0), 1 (F=1, 2), 2 (F=3) -> (1/8, 6/8, 1/8).
    # [PRECISION]: the Leader first: dies when F >= 2 (4/8); the third failed save goes to the
    #   Bodyguard: models destroyed 0 (F<=1), 1 (F=2), 2 (F=3) -> (4/8, 3/8, 1/8).
    act = _attached_act(3, Fraction(1, 2), precision=precision)
    md = [4 / 8, 3 / 8, 1 / 8] if precision else [1 / 8, 6 / 8, 1 / 8]
    lead = 4 / 8 if precision else 1 / 8
    ex = run_exact(act)
    np.testing.assert_allclose(ex.models_destroyed_distribution, md, atol=1e-9)
    np.testing.assert_allclose(ex.characters_destroyed, [lead], atol=1e-9)
    sa = run_sample(act, trials=TRIALS, seed=SEED)
    for got, p in zip(sa.models_destroyed_distribution, md, strict=True):
        assert abs(got - p) <= 5 * se_p(p)
    assert abs(sa.characters_destroyed[0] - lead) <= 5 * se_p(lead)


# ---------------------------------------------------------------------------------------------
# CLI: the Bodyguard's Toughness


@pytest.mark.parametrize("edition", ["10", "11"])
def test_wound_roll_uses_bodyguard_toughness(edition):
    # Autogun: 6 attacks, [TORRENT] (6 hits), S4. Bodyguard Grunts T3, Leader Captain T6.
    # Bodyguard T: S4 > T3 -> 3+ (4/6 per hit): expected wounds 6 * 4/6 = 4.
    # (Leader T would be S4 < T6 -> 5+, 2 expected wounds.)
    # Edition 11, 05.02.01: "If the target unit is an attached unit, use the highest T
    # characteristic amongst bodyguard models in that unit" -> also T3.
    out = calc(
        "shoot",
        "marksmen",
        "--target",
        "grunts",
        "--target-models",
        "10",
        "--target-leader",
        "captain",
        "--weapon",
        "Autogun x1",
        "--edition",
        edition,
    )
    (w,) = out["weapons"]
    assert w["expected"]["hits"] == pytest.approx(6.0, abs=1e-6)
    assert w["expected"]["wounds"] == pytest.approx(4.0, abs=1e-6)


def test_bodyguard_toughness_kept_after_the_bodyguard_dies():
    # One Grunt (W1) led by the Captain (W2); Autogun 6 torrent hits at S4. "until the
    # attacking unit has resolved all of its attacks, you must use the Toughness
    # characteristic of the Bodyguard models": every Wound roll needs 3+ (2/3), also after the
    # Grunt is destroyed. W ~ Binomial(6, 2/3), no save (Sv 7), Damage 1:
    # W = 0: nothing; W = 1 or 2: the Grunt dies (the Captain may lose 1); W >= 3: both die.
    # P(Captain destroyed) = P(W >= 3) = 1 - (1 + 12 + 60)/729 = 656/729.
    b = binom(6, Fraction(2, 3))
    dist = [b[0], b[1] + b[2], sum(b[3:])]
    out = calc(
        "shoot",
        "marksmen",
        "--target",
        "grunts",
        "--target-models",
        "1",
        "--target-leader",
        "captain",
        "--weapon",
        "Autogun x1",
        "--method",
        "both",
        "--trials",
        str(TRIALS),
        "--seed",
        str(SEED),
    )
    check_distribution(out, dist)
    ex, sa = leader_destroyed(out)
    assert ex == pytest.approx(656 / 729, abs=1e-6)
    assert abs(sa - 656 / 729) <= 5 * se_p(656 / 729)


# ---------------------------------------------------------------------------------------------
# CLI: [PRECISION]


def _precision_run(*extra: str) -> dict:
    # 3 Marksmen with Needle rifles: 3 attacks, [TORRENT], S6 vs the Bodyguard's T3 (S >= 2T:
    # 2+, 5/6), [PRECISION], Damage 1, no save. Target: 2 Grunts (W1) led by the Captain (W2).
    return calc(
        "shoot",
        "marksmen",
        "--target",
        "grunts",
        "--target-models",
        "2",
        "--target-leader",
        "captain",
        "--weapon",
        "Needle rifle x3",
        "--method",
        "both",
        "--trials",
        str(TRIALS),
        "--seed",
        str(SEED),
        *extra,
    )


def test_precision_goes_to_the_leader_then_spills_to_bodyguard():
    # W ~ Binomial(3, 5/6) = (1, 15, 75, 125)/216. [PRECISION] to the Leader while it lives:
    # wounds 1-2 go to the Captain (destroyed when W >= 2), wound 3 to a Grunt.
    # Models destroyed: W <= 1: 0; W = 2: 1; W = 3: 2 -> (16, 75, 125, 0)/216.
    # P(Captain destroyed) = 200/216 = 25/27.
    out = _precision_run()
    check_distribution(out, [16 / 216, 75 / 216, 125 / 216, 0.0])
    ex, sa = leader_destroyed(out)
    assert ex == pytest.approx(25 / 27, abs=1e-6)
    assert abs(sa - 25 / 27) <= 5 * se_p(25 / 27)


def test_precision_target_bodyguard_keeps_normal_allocation():
    # --precision-target bodyguard: normal allocation, two Grunts first; the Captain can take
    # at most the third wound (1 of its 2 wounds): never destroyed.
    # Models destroyed: W = 0: 0; 1: 1; 2 or 3: 2 -> (1, 15, 200, 0)/216.
    out = _precision_run("--precision-target", "bodyguard")
    check_distribution(out, [1 / 216, 15 / 216, 200 / 216, 0.0])
    ex, sa = leader_destroyed(out)
    assert ex == 0.0
    assert sa == 0.0


def test_precision_text_prints_leader_line_and_order():
    text = invoke(
        "shoot",
        "marksmen",
        "--target",
        "grunts",
        "--target-models",
        "2",
        "--target-leader",
        "captain",
        "--weapon",
        "Needle rifle x3",
    )
    # 25/27 = 92.5926%, survives 7.4074%.
    assert "Leader Captain destroyed: 92.59% (survives 7.41%)" in text
    assert "Allocation order: Grunt ×2, Captain" in text


def test_precision_devastating_mortal_wounds_go_to_the_leader_10th():
    # Mortal Wounds (seed 000): "If those mortal wounds are inflicted by an attack that has the
    # [PRECISION] ability, the attacking model's controlling player can allocate those mortal
    # wounds to a CHARACTER model in that unit."
    # Assassin gun: 1 torrent attack, S1 (6+ vs T3) but anti-infantry 2+: a Critical Wound on
    # 2-6 (5/6); [DEVASTATING WOUNDS] with D2: 2 mortal wounds, [PRECISION]: to the Captain
    # (W2): destroyed w.p. 5/6. Wounds lost 2 * 5/6 = 5/3.
    out = calc(
        "shoot",
        "marksmen",
        "--target",
        "grunts",
        "--target-models",
        "2",
        "--target-leader",
        "captain",
        "--weapon",
        "Assassin gun x1",
        "--method",
        "both",
        "--trials",
        str(TRIALS),
        "--seed",
        str(SEED),
    )
    check_distribution(out, [1 / 6, 5 / 6, 0.0, 0.0])
    ex, sa = leader_destroyed(out)
    assert ex == pytest.approx(5 / 6, abs=1e-6)
    assert abs(sa - 5 / 6) <= 5 * se_p(5 / 6)
    assert out["expected"]["wounds_lost"] == pytest.approx(5 / 3, abs=1e-6)


def test_precision_target_name_without_precision_weapons_is_a_note(tmp_path: Path) -> None:
    """Fresh-user trial: ``--precision-target warboss`` against a target with no CHARACTER
    model was an error though no weapon had [PRECISION] (``bodyguard`` got the "no effect"
    note). With no [PRECISION] weapon any value is a no-effect note and changes no figure; with
    one, a CHARACTER name the target lacks stays an error."""
    from helpers import cli

    plain = ["shoot", "marksmen", "-t", "grunts", "--weapon", "Carbine x3"]
    base = calc(*plain)
    for value in ("captain", "bodyguard", "nobody at all"):
        out = calc(*plain, "--precision-target", value)
        assert (
            f"--precision-target {value}: no effect: no weapon here has [PRECISION]"
            in (out["notes"])
        )
        assert out["models_destroyed_distribution"] == base["models_destroyed_distribution"]
    precise = ["shoot", "marksmen", "-t", "grunts", "--weapon", "Needle rifle x3"]
    res = cli(*precise, "--precision-target", "captain", dirs=[DATA])
    assert res.exit_code == 1
    assert "Grunts has no CHARACTER model that [PRECISION] attacks" in res.output
    # a batch keeps the rows of such a run against every target, attached or not
    path = tmp_path / "b.yaml"
    path.write_text(
        "targets: [grunts, {name: grunts, leader: captain}]\n"
        "runs: [{attacker: {name: marksmen, weapons: [Carbine x3]}, "
        "precision_target: captain}]\n",
        encoding="utf-8",
    )
    rows = calc("compare", str(path))
    assert [r["target"]["name"] for r in rows] == ["Grunts", "Grunts led by Captain"]

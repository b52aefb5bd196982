"""Command Re-roll (core stratagem, seed 000): "You re-roll that roll, test or saving throw";
Core rules: Re-rolls: "You can never re-roll a dice more than once".

The calculator keeps the re-roll for the Wound rolls of one weapon (the one whose wounds are
worth most) and spends it on that weapon's first failed Wound roll of an attack's own hit that
the Wound roll table did not re-roll already (never on Sustained Hits' extra hits, never on
Lethal Hits' automatic wounds, which roll no die). Both engines model it; every value below is
worked out by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest
from profiles import Kind, disagreements, unit, weapon
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.profile import Activation
from wh40k_calc.records import replace

TRIALS = 100_000
KINDS = (Kind(W=1, Sv=7),)  # no save


def _both(act: Activation):
    exact = run_exact(act)
    sample = run_sample(act, trials=TRIALS, seed=11)
    assert not disagreements(exact, sample)
    return exact


def _gun(kinds=KINDS, **kw):
    return replace(weapon(kinds, S=4, T=4, **kw), command_reroll=True)


def _kill(models: int = 1, W: int = 1, **kw) -> np.ndarray:
    kinds = (Kind(W=W, Sv=7),)
    act = Activation((_gun(kinds, **kw),), unit(kinds, [(0, models)]))
    return _both(act).kill_table


def test_one_failed_wound_roll_is_re_rolled():
    # one automatic hit, S4 v T4 wounds on 4+ (1/2), no save, D1 into one W1 model:
    # P(destroyed) = 1/2 + 1/2 * 1/2 = 3/4 with the Command Re-roll on the failed Wound roll
    assert _kill(A=1, skill=None)[0] == pytest.approx(3 / 4)


def test_a_die_already_re_rolled_is_not_re_rolled_again():
    # with "re-roll Wound rolls of 1" the table re-rolls a 1 first; the Command Re-roll can
    # only take a failure that was not re-rolled: a first roll of 2 or 3 (2/6).
    # P(wound) = 3/6 (4+ first) + 1/6 * 1/2 (a 1, re-rolled by the table: 4+)
    #          + 2/6 * 1/2 (a 2 or 3, re-rolled by the Command Re-roll) = 3/6 + 1/12 + 1/6 = 3/4
    assert _kill(A=1, skill=None, reroll_wounds="ones")[0] == pytest.approx(3 / 4)


def test_only_one_re_roll_per_activation():
    # two automatic hits on one W2 model (D1): without the Command Re-roll P(both wound) = 1/4;
    # with one re-roll of one failed die: P = 1/4 + 2 * (1/4 * 1/2) = 1/2 (exactly one of the
    # two failed, re-rolled successfully); two failures: only one is re-rolled, never both.
    assert _kill(W=2, A=2, skill=None)[0] == pytest.approx(1 / 2)


def test_a_missed_attack_keeps_it():
    # one attack, BS4+ (hits 1/2), then as the first case: 1/2 * 3/4 = 3/8
    assert _kill(A=1, skill=4)[0] == pytest.approx(3 / 8)


def test_lethal_hits_never_spend_it():
    # BS4+ with [LETHAL HITS]: a 6 (1/6) wounds automatically (no Wound roll to re-roll); a 4
    # or 5 (2/6) rolls 4+ with the re-roll: 3/4. P = 1/6 + 2/6 * 3/4 = 5/12.
    assert _kill(A=1, skill=4, lethal=True)[0] == pytest.approx(5 / 12)


def test_sustained_hits_extra_hits_never_spend_it():
    # BS6+ (only a 6 hits: a Critical Hit, 1/6), [SUSTAINED HITS 1]: the attack's own Wound
    # roll has the re-roll (3/4), its extra hit rolls without it (1/2), into two W1 models:
    # E[destroyed] = 1/6 * (3/4 + 1/2) = 5/24.
    kill = _kill(models=2, A=1, skill=6, sustained=1)
    assert kill.sum() == pytest.approx(5 / 24)


def test_the_first_failed_roll_takes_it_devastating():
    # two automatic hits, [DEVASTATING WOUNDS], wounding on 4+ with a 6 a Critical Wound, D1,
    # into one W1 model with a 2+ save. One attack without the re-roll leaves it alive when it
    # fails (3/6) or its normal wound (2/6) is saved (5/6): plain = 3/6 + 2/6 * 5/6. With the
    # re-roll a failure is rolled again: with_rr = 2/6 * 5/6 + 3/6 * plain. The first attack
    # fails (3/6): spent, survive plain, then the second plain; its wound is saved (2/6 * 5/6):
    # the second still has it. P(survive) = 3/6 * plain^2 + 2/6 * 5/6 * with_rr.
    kinds = (Kind(W=1, Sv=2),)
    gun = _gun(kinds, A=2, skill=None, devastating=True)
    out = _both(Activation((gun,), unit(kinds, [(0, 1)])))
    plain = 2 / 6 * 5 / 6 + 3 / 6  # one attack without the re-roll: fails or saved wound
    with_rr = 2 / 6 * 5 / 6 + 3 / 6 * plain  # one attack with it: re-rolled failure
    survive = 3 / 6 * plain * plain + 2 / 6 * 5 / 6 * with_rr
    assert out.kill_table[0] == pytest.approx(1 - survive)


def test_main_job_exact_equals_sampled_and_is_not_handed_over():
    res = CliRunner().invoke(
        app,
        [
            "shoot", "lootas", "--target", "boyz", "--effect", "command-re-roll",
            "--method", "both", "--trials", "100000", "--json",
        ],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["method"] == "both"
    assert not any("sampler only" in n for n in out["notes"])
    assert any("Command Re-roll" in c for c in out["choices"])
    exact = out["expected"]["models_destroyed"]
    sampled = out["sample"]["expected"]["models_destroyed"]
    se = out["sample"]["standard_error"]["expected"]["models_destroyed"]
    assert abs(exact - sampled) <= 5 * se
    # the re-roll adds to the figures: more than without it (1.253)
    assert exact > 1.26


def test_compare_keeps_the_exact_engine():
    res = CliRunner().invoke(
        app, ["compare", "lootas", "--target", "boyz", "--effect", "command-re-roll", "--json"]
    )
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.stdout)
    assert row["method"] == "exact"


# ---------------------------------------------------------------------------------------------
# Which weapon keeps it: the one where it adds most (the trial: it was kept for a [TWIN-LINKED]
# weapon, which re-rolls every failed Wound roll already, so it did nothing).


def _pair(folder, first: dict, second: dict) -> None:
    """One attacking model with the two guns; two W1 T4 models with no save."""
    from oracle import attacker, target

    attacker(folder, first, second, stem="pair")
    target(folder, models=2, stem="dummies", T=4, Sv=7, W=1)


def _run(folder, *flags: str) -> dict:
    from oracle import shoot

    return shoot("pair", "dummies", "--effect", "command-re-roll", *flags, dirs=[folder])


def test_not_kept_for_a_twin_linked_weapon(tmp_path):
    """Two [TORRENT] S4 guns (wound T4 on 4+: 1/2) into two W1 models, no save. The first is
    [TWIN-LINKED] (every failed Wound roll re-rolled: wounds 3/4) and D2, so the old policy
    (the weapon whose wounds are worth most) kept the re-roll for it, where it can do nothing.
    Kept for the plain gun instead: its failed roll (1/2) is re-rolled (1/2): 3/4. Models
    destroyed = 3/4 + 3/4 = 3/2 (two W1 models; each wound destroys one)."""
    from oracle import approx, weapon

    twin = weapon("Twin gun", A=1, skill=None, S=4, D=2, abilities=["torrent", "twin-linked"])
    plain = weapon("Plain gun", A=1, skill=None, S=4, D=1, abilities=["torrent"])
    _pair(tmp_path, twin, plain)
    out = _run(tmp_path)
    assert out["expected"]["models_destroyed"] == approx(3 / 2)
    assert (
        "Plain gun: Command Re-roll kept for its first failed Wound roll not re-rolled already "
        "(the weapon where it adds most)"
    ) in out["choices"]
    assert not any("Twin gun: Command" in c for c in out["choices"])


def test_kept_where_a_re_roll_adds_most(tmp_path):
    """Both guns one [TORRENT] shot, D1, into two W1 models, no save. 'Strong gun' S8 wounds on
    2+: a re-roll adds P(fail) 1/6 x 5/6 = 5/36; 'Even gun' S4 wounds on 4+: it adds 1/2 x 1/2
    = 1/4, more. The old policy valued both alike (failed save x Damage) and kept it for the
    first listed, the Strong gun. Kept for the Even gun: 5/6 + 3/4 = 19/12 models destroyed
    (for the Strong gun it would be 35/36 + 1/2 = 53/36)."""
    from oracle import approx, weapon

    strong = weapon("Strong gun", A=1, skill=None, S=8, D=1, abilities=["torrent"])
    even = weapon("Even gun", A=1, skill=None, S=4, D=1, abilities=["torrent"])
    _pair(tmp_path, strong, even)
    out = _run(tmp_path)
    assert out["expected"]["models_destroyed"] == approx(19 / 12)
    assert any(c.startswith("Even gun: Command Re-roll kept") for c in out["choices"])


def test_a_note_when_no_weapon_can_use_it(tmp_path):
    """Only the [TWIN-LINKED] gun attacks: the re-roll can add nothing; a note says so, no
    choice claims it was kept, and the figures are the gun's own: 1 - (1/2)^2 = 3/4."""
    from oracle import approx, weapon

    twin = weapon("Twin gun", A=1, skill=None, S=4, D=2, abilities=["torrent", "twin-linked"])
    plain = weapon("Plain gun", A=1, skill=None, S=4, D=1, abilities=["torrent"])
    _pair(tmp_path, twin, plain)
    out = _run(tmp_path, "--weapon", "Twin gun")
    assert out["expected"]["models_destroyed"] == approx(3 / 4)
    assert not any("Command Re-roll" in c for c in out["choices"])
    assert (
        "Command Re-roll: not used: the calculator spends it on a failed Wound roll, and every "
        "failed Wound roll here is re-rolled already (e.g. [TWIN-LINKED]), and a die is never "
        "re-rolled twice"
    ) in out["notes"]


def test_reroll_gain_by_hand():
    """The value the choice compares, against the first model (W1, no save, D1): a BS4+ gun
    (hits 1/2, no Critical Hit rule beyond a 6) with 2 attacks, S4 v T4 (fails 1/2): an attack
    has an un-re-rolled failed Wound roll with P = 1/2 x 1/2 = 1/4 (a 6 to hit rolls to wound
    too); P(at least one of 2) = 1 - (3/4)^2 = 7/16; a fresh roll is worth 1/2: 7/32."""
    from wh40k_calc.rules.command_reroll import reroll_gain

    kinds = (Kind(W=1, Sv=7),)
    gun = weapon(kinds, S=4, T=4, A=2, skill=4)
    assert reroll_gain(gun, unit(kinds, [(0, 1)])) == pytest.approx(7 / 32)
    # [LETHAL HITS]: a Critical Hit (1/6) wounds without a die: P = 2/6 x 1/2 = 1/6 per attack
    lethal = weapon(kinds, S=4, T=4, A=2, skill=4, lethal=True)
    assert reroll_gain(lethal, unit(kinds, [(0, 1)])) == pytest.approx((1 - (5 / 6) ** 2) / 2)

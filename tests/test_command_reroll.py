"""Command Re-roll (core stratagem, seed 000): "You re-roll that roll, test or saving throw";
and Core rules: Re-rolls: "You can never re-roll a dice more than once". The sampler models it
(kept for one weapon's first failed Wound roll); the exact engine hands it over and says so."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from profiles import Kind, unit, weapon
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.profile import Activation

TRIALS = 100_000
KINDS = (Kind(W=1, Sv=7),)  # no save


def _kill_probability(**kw) -> float:
    gun = replace(weapon(KINDS, A=1, skill=None, S=4, T=4, **kw), command_reroll=True)
    out = run_sample(Activation((gun,), unit(KINDS, [(0, 1)])), trials=TRIALS, seed=11)
    return float(out.kill_table[0]), float(out.standard_error["kill_table"][0])


def _close(p: float, expected: float) -> None:
    se = max(np.sqrt(expected * (1 - expected) / TRIALS), 1 / TRIALS)
    assert abs(p - expected) < 5 * se, (p, expected)


def test_one_failed_wound_roll_is_re_rolled():
    # one automatic hit, S4 v T4 wounds on 4+ (1/2), no save, D1 into one W1 model:
    # P(destroyed) = 1/2 + 1/2 * 1/2 = 3/4 with the Command Re-roll on the failed Wound roll
    p, _ = _kill_probability()
    _close(p, 3 / 4)


def test_a_die_already_re_rolled_is_not_re_rolled_again():
    # with "re-roll Wound rolls of 1" the table re-rolls a 1 first; the Command Re-roll can
    # only take a failure that was not re-rolled: a first roll of 2 or 3 (2/6).
    # P(wound) = 3/6 (4+ first) + 1/6 * 1/2 (a 1, re-rolled by the table: 4+)
    #          + 2/6 * 1/2 (a 2 or 3, re-rolled by the Command Re-roll) = 3/6 + 1/12 + 1/6 = 3/4
    p, _ = _kill_probability(reroll_wounds="ones")
    _close(p, 3 / 4)


def test_only_one_re_roll_per_activation():
    # two automatic hits on one W2 model (D1): without the Command Re-roll P(both wound) = 1/4;
    # with one re-roll of one failed die: P = 1/4 + 2 * (1/4 * 1/2) = 1/2 (exactly one of the
    # two failed, re-rolled successfully); two failures: only one is re-rolled, never both.
    kinds = (Kind(W=2, Sv=7),)
    gun = replace(weapon(kinds, A=2, skill=None, S=4, T=4), command_reroll=True)
    out = run_sample(Activation((gun,), unit(kinds, [(0, 1)])), trials=TRIALS, seed=5)
    _close(float(out.kill_table[0]), 1 / 2)


@pytest.mark.parametrize("method", ["exact", "both"])
def test_cli_says_it_is_sampled(method: str):
    res = CliRunner().invoke(
        app,
        [
            "shoot",
            "lootas",
            "--target",
            "boyz",
            "--effect",
            "command-re-roll",
            "--method",
            method,
            "--trials",
            "20000",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    import json

    out = json.loads(res.stdout)
    assert any("sampler only" in n for n in out["notes"])
    assert any("Command Re-roll" in c for c in out["choices"])
    assert "sample" in out

"""``calc sequence``: a step acts only where the target is still alive when it begins; the
sampler's chunks of trials, time budget and memory for whole sequences.

Rules quoted:

* 05.04.04 Destroyed (seed 004, edition 11): "Unless otherwise stated, destroyed models and
  units cannot use abilities or be selected or targeted by rules."
* 10th edition (seed 000): "When every model in a unit has been destroyed, that unit is
  destroyed"; [HAZARDOUS]: a unit takes one Hazardous test "for each Hazardous weapon that
  targets were selected for" — a step whose target is already destroyed selects none, so it
  takes none.

Expected values are worked out by hand (fractions) or by brute force here, never by the code
under test.
"""

from __future__ import annotations

import tracemalloc
from fractions import Fraction as F
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from helpers import binom, cli, cli_json, se_mean, se_p

ALLOC = Path(__file__).parent / "data" / "alloc"
TRIALS = 60_000

# One Grunt (W1, T3, no save). A Carbine (one [TORRENT] S6 attack: S6 = 2 x T3 wounds on 2+)
# destroys it with 5/6.
ONE_GRUNT = ["-t", "grunts", "--target-models", "1"]
CARBINE = "shoot marksmen --weapon 'Carbine x1'"
P_CARBINE = F(5, 6)

# The Hazard Squad from an unharmed Grunt: two plasma guns (BS6+: hit 1/6; S1 into T3 wounds
# on 6+: 1/6; no save; Damage 1), so 2 attacks, 1/3 hits, 1/18 wounds, failed saves and damage;
# the Grunt is destroyed with 1 - (35/36)^2 = 71/1296. Hazardous: two tests, each failed on a
# 1; the first failure destroys the W1 Gunner (3 mortal wounds), a second puts 3 on the W4
# Veteran (the only model left with the weapon), who survives: 3 x 2/6 = 1 mortal wound
# expected, P(losing a model) = 1 - (5/6)^2 = 11/36 = E[models lost].
HAZARD = "shoot hazard-squad"
HAZARD_OWN = {
    "attacks": F(2),
    "hits": F(1, 3),
    "wounds": F(1, 18),
    "failed_saves": F(1, 18),
    "mortal_wounds": F(0),
    "damage": F(1, 18),
}
HAZARD_KILLS = 1 - F(35, 36) ** 2
HAZARD_LOSS = {"hazard_mortal_wounds": F(1), "models_destroyed": F(11, 36)}
H = F(11, 36)  # P(the Hazard Squad loses a model | it shoots)


calc = partial(cli, dirs=[ALLOC], env={"COLUMNS": "100"})
as_json = partial(cli_json, dirs=[ALLOC], env={"COLUMNS": "100"})


# ---------------------------------------------------------------------------------------------
# A step after a likely wipe: (1 - q) x its figures from the surviving states


def test_a_step_after_a_likely_wipe_counts_only_where_the_target_survived():
    """Step 1 destroys the Grunt with q = 5/6; step 2 (the Hazard Squad) is made only in the
    other 1/6: every one of its own figures, its Hazardous losses included, is 1/6 of the
    Hazard Squad's against an unharmed Grunt, and its damage is 0 with 5/6 more."""
    out = as_json("sequence", *ONE_GRUNT, CARBINE, HAZARD, "--method", "both",
                  "--trials", str(TRIALS))  # fmt: skip
    alive = 1 - P_CARBINE
    step = out["steps"][1]
    for f, v in HAZARD_OWN.items():
        assert step["expected"][f] == pytest.approx(float(alive * v), abs=1e-12), f
    for f, v in HAZARD_LOSS.items():
        assert step["attacker_losses"][f] == pytest.approx(float(alive * v), abs=1e-12), f
    assert step["attacker_losses"]["at_least_one"] == pytest.approx(float(alive * H), abs=1e-12)
    # its own kill table: it destroys the Grunt with 1/6 x 71/1296
    own = float(alive * HAZARD_KILLS)
    np.testing.assert_allclose(step["models_destroyed_distribution"], [1 - own, own], atol=1e-12)
    # damage: Bin(2, 1/36) where it is made, 0 where it is not
    damage = [alive * p for p in binom(2, F(1, 36))]
    damage[0] += P_CARBINE
    np.testing.assert_allclose(step["damage_distribution"], [float(p) for p in damage], atol=1e-12)
    # the whole sequence
    assert step["cumulative"]["p_destroyed"] == pytest.approx(float(P_CARBINE) + own, abs=1e-12)
    # the Carbine's one [TORRENT] attack hits automatically
    assert out["expected"]["hits"] == pytest.approx(float(1 + alive / 3), abs=1e-12)
    assert out["attacker_losses"]["at_least_one"] == pytest.approx(float(alive * H), abs=1e-12)
    # the sampler: trials whose Grunt is destroyed skip the step
    sample = step["sample"]["expected"]
    hits = {0: P_CARBINE + alive * F(25, 36), 1: alive * F(10, 36), 2: alive * F(1, 36)}
    assert abs(sample["hits"] - float(alive / 3)) <= 5 * se_mean(hits, TRIALS)
    lost = step["sample"]["attacker_losses"]["at_least_one"]
    assert abs(lost - float(alive * H)) <= 5 * se_p(float(alive * H), TRIALS)
    assert abs(sample["attacks"] - float(2 * alive)) <= 5 * se_mean(
        {0: P_CARBINE, 2: alive}, TRIALS
    )


def test_hazardous_losses_over_steps_count_the_steps_made():
    """Carbine, then two Hazard Squad units. The second squad shoots only if the Grunt
    survived the first too: a2 = 1/6, a3 = 1/6 x (1 - 71/1296). The steps made are always the
    first ones, so P(no model lost) = (1 - a2) + (a2 - a3)(1 - h) + a3 (1 - h)^2 with
    h = 11/36 (not the product of the steps' own chances, as if independent)."""
    out = as_json("sequence", *ONE_GRUNT, CARBINE, HAZARD, HAZARD, "--method", "both",
                  "--trials", str(TRIALS))  # fmt: skip
    a2 = 1 - P_CARBINE
    a3 = a2 * (1 - HAZARD_KILLS)
    spared = (1 - a2) + (a2 - a3) * (1 - H) + a3 * (1 - H) ** 2
    independent = 1 - (1 - a2 * H) * (1 - a3 * H)
    assert abs(float(1 - spared - independent)) > 0.005  # the two differ
    got = out["attacker_losses"]
    assert got["at_least_one"] == pytest.approx(float(1 - spared), abs=1e-12)
    assert got["models_destroyed"] == pytest.approx(float((a2 + a3) * F(11, 36)), abs=1e-12)
    sampled = out["sample"]["attacker_losses"]["at_least_one"]
    assert abs(sampled - float(1 - spared)) <= 5 * se_p(float(1 - spared), TRIALS)


# ---------------------------------------------------------------------------------------------
# A step after a certain wipe is not made


def test_a_step_after_a_certain_wipe_has_all_zero_figures_sampled():
    """20 Boyz (at least 40 attacks hitting and wounding T3 on 3+) leave one Grunt alive with
    less than (5/9)^40 < 1e-10: in none of 2,000 trials. The Hazard Squad's step is then not
    made in any trial: every figure of its own is 0, no Hazardous test, the Grunt stays
    destroyed, and the notes say so."""
    out = as_json("sequence", *ONE_GRUNT, "fight boyz --models 20", HAZARD,
                  "--method", "sample", "--trials", "2000")  # fmt: skip
    step = out["steps"][1]
    assert out["steps"][0]["cumulative"]["p_destroyed"] == 1.0
    for block in (step["expected"], step["sample"]["expected"]):
        for f in HAZARD_OWN:
            assert block[f] == 0.0, f
        assert block["models_destroyed"] == 0.0 and block["wounds_lost"] == 0.0
    assert all(v == 0.0 for v in step["attacker_losses"].values())
    assert all(all(v == 0.0 for v in w["expected"].values()) for w in step["weapons"])
    assert step["models_destroyed_distribution"] == [1.0, 0.0]
    assert step["damage_distribution"] == [1.0]
    assert step["cumulative"]["p_destroyed"] == 1.0
    assert step["choices"] == []
    assert any("destroyed before this step in every trial" in n for n in step["notes"])
    assert out["sample"]["trials"] == step["sample"]["trials"] == 2000


def _steps(*texts: str, models: int = 1):
    from wh40k_calc.options import EngineOptions, TargetOptions, catalog
    from wh40k_calc.sequence.steps import build_steps

    return build_steps(list(texts), catalog([ALLOC]), TargetOptions("grunts", models),
                       EngineOptions())  # fmt: skip


def test_a_step_after_a_certain_wipe_has_all_zero_figures_exact():
    """The exact engine's counterpart: game dice never make a wipe certain (a Wound roll of 1
    fails), so the steps start here from a Grunt certainly destroyed. No step is made: no
    engine runs, every figure of its own is 0 (no Hazardous test), the Grunt stays destroyed,
    its own kill table destroys nothing, and its notes say so."""
    from wh40k_calc.engine.outcome import WEAPON_FIELDS
    from wh40k_calc.profile import TargetStates
    from wh40k_calc.resolve import resolve
    from wh40k_calc.sequence.figures import own_models_destroyed
    from wh40k_calc.sequence.run import _exact_chain

    steps = _steps(CARBINE, HAZARD)
    shape = resolve(steps[0].selection).exact.final_states.shape  # the Grunt's
    dead = TargetStates(shape, np.array([[1]]), np.ones(1))
    done = _exact_chain(steps, "exact", dead)
    assert [w.name for w in done[1].result.exact.weapons] == ["Plasma gun"]
    for sr in done:
        o = sr.result.exact
        assert sr.p_alive == {"exact": 0.0}
        assert all(o.expected[f] == 0.0 for f in WEAPON_FIELDS)
        assert all(w.expected[f] == 0.0 for w in o.weapons for f in WEAPON_FIELDS)
        assert o.attacker_losses == dict.fromkeys(o.attacker_losses, 0.0)
        assert o.expected["models_destroyed"] == 1.0
        assert o.models_destroyed_distribution.tolist() == [0.0, 1.0]
        assert o.damage_distribution.tolist() == [1.0]
        assert o.final_states.lost.tolist() == [[1]]
        assert own_models_destroyed(sr.result, dead).tolist() == [1.0, 0.0]
        assert sr.result.choices == []
        assert any("destroyed before this step in every case" in n for n in sr.result.notes)


def test_split_and_mix_by_hand():
    """A start of 1/4 unharmed, 3/4 destroyed: the step resolves from the unharmed state
    alone; mixing scales its own figures by 1/4 and keeps 3/4 destroyed."""
    from wh40k_calc.profile import TargetStates
    from wh40k_calc.resolve import resolve
    from wh40k_calc.sequence.alive import mix, split, unmade

    res = resolve(_steps(HAZARD)[0].selection)
    shape = res.exact.final_states.shape
    start = TargetStates(shape, np.array([[0], [1]]), np.array([0.25, 0.75]))
    parts = split(start)
    assert parts.p_alive == 0.25
    assert parts.alive.lost.tolist() == [[0]] and parts.alive.weights.tolist() == [1.0]
    assert parts.dead.lost.tolist() == [[1]]
    got = mix(res.exact, parts.p_alive, parts.dead)
    assert got.expected["hits"] == pytest.approx(float(F(1, 4) * F(1, 3)), abs=1e-15)
    assert got.attacker_losses["at_least_one"] == pytest.approx(float(H / 4), abs=1e-15)
    kill = float(HAZARD_KILLS / 4)
    np.testing.assert_allclose(got.models_destroyed_distribution, [1 - 0.75 - kill, 0.75 + kill])
    assert got.final_states.weights.sum() == pytest.approx(1.0)
    none = unmade(res.activation, parts.dead)
    assert none.expected["hits"] == 0.0 and none.models_destroyed_distribution.tolist() == [0, 1]
    assert none.attacker_losses == dict.fromkeys(none.attacker_losses, 0.0)


def test_step_one_of_a_likely_wipe_is_calc_shoot():
    """Step 1 starts alive: its figures are calc shoot's, to 1e-12."""
    shot = as_json("shoot", "marksmen", "--weapon", "Carbine x1", *ONE_GRUNT)
    seq = as_json("sequence", *ONE_GRUNT, CARBINE, HAZARD)
    assert seq["steps"][0]["expected"] == pytest.approx(shot["expected"], abs=1e-12)
    assert seq["steps"][0]["cumulative"]["p_destroyed"] == pytest.approx(float(P_CARBINE))


# ---------------------------------------------------------------------------------------------
# The sampler's chunks: step 1 is still calc shoot; memory does not grow with the trials

CHUNKED = [*ONE_GRUNT[:2], "--target-models", "10"]


def test_chunks_continue_each_steps_stream(monkeypatch):
    """With chunks of 32,768 trials (4 chunks for 100,000), step 1's sampled figures are
    ``calc shoot``'s with the same seed and trials, exactly: its stream of dice continues from
    chunk to chunk; the later steps agree with the exact engine within 5 standard errors."""
    import wh40k_calc.sequence.sampled as sampled

    monkeypatch.setattr(sampled, "SEQUENCE_CHUNK", 1 << 15)
    trials = "100000"
    shot = as_json("shoot", "marksmen", "--weapon", "Autogun x1", *CHUNKED,
                   "--method", "sample", "--trials", trials)  # fmt: skip
    out = as_json("sequence", *CHUNKED, "shoot marksmen --weapon 'Autogun x1'", CARBINE,
                  HAZARD, "--method", "both", "--trials", trials)  # fmt: skip
    first = out["steps"][0]["sample"]
    assert first["expected"] == pytest.approx(shot["sample"]["expected"], abs=1e-12)
    assert first["models_destroyed_distribution"] == pytest.approx(
        shot["sample"]["models_destroyed_distribution"], abs=1e-12
    )
    assert out["sample"]["trials"] == 100_000
    for s in out["steps"]:
        assert s["sample"]["trials"] == 100_000
        exact, got = s["cumulative"], s["sample"]["cumulative"]
        for e, g, se in zip(
            [r["at_least"] for r in exact["kill_table"]],
            [r["at_least"] for r in got["kill_table"]],
            got["standard_error"]["kill_table"],
            strict=True,
        ):
            assert abs(e - g) <= 5 * max(se, 1e-5)


def _peak_bytes(trials: int) -> int:
    from wh40k_calc.sequence.run import run_sequence

    steps = _steps("shoot marksmen --weapon 'Autogun x1'", HAZARD, models=10)
    run_sequence(steps, "sample", 2048, 1)  # warm up: modules, caches
    tracemalloc.start()
    try:
        run_sequence(steps, "sample", trials, 1)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_trials(monkeypatch):
    """Every step runs one chunk of trials at a time: 8 chunks take no more memory at their
    peak than 1 (within 20%); carrying every trial's state through the steps took 1.8 times
    as much here (and 471 MB for 10^7 trials of a 2-step sequence)."""
    import wh40k_calc.sequence.sampled as sampled

    monkeypatch.setattr(sampled, "SEQUENCE_CHUNK", 1 << 15)
    one = _peak_bytes(1 << 15)
    eight = _peak_bytes(8 << 15)
    assert eight < 1.2 * one, (one, eight)


def test_out_of_memory_is_one_error_line(monkeypatch):
    import wh40k_calc.sequence.run as run

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(run, "run_sequence", no_memory)
    res = calc("sequence", *ONE_GRUNT, CARBINE, "--method", "sample", "--trials", "90000000")
    assert res.exit_code == 1
    assert res.stderr.strip().splitlines() == [
        "error: out of memory with 90,000,000 sampler trials; give fewer --trials"
    ]


# ---------------------------------------------------------------------------------------------
# The time budget of a whole sequence


def test_trials_within_all_by_brute_force():
    """Two runs of 1 ms per trial and 10 ms per chunk of 100, the second on half the trials:
    the most trials within 1 s, found by trying every count."""
    from math import ceil

    from wh40k_calc.engine.budget import SampleCost, trials_within_all

    cost = SampleCost(1e-3, 1e-2, 100)

    def seconds(t: int) -> float:
        half = ceil(t / 2)
        return t * 1e-3 + ceil(t / 100) * 1e-2 + half * 1e-3 + ceil(half / 100) * 1e-2

    want = max(t for t in range(0, 2000) if seconds(t) <= 1.0)
    assert trials_within_all([cost, cost], [1.0, 0.5], 1.0, 10_000) == want
    assert trials_within_all([cost, cost], [1.0, 0.5], 1.0, 100) == 100
    assert trials_within_all([cost], [0.0], 1.0, 500) == 500  # a step never made costs nothing
    assert trials_within_all([cost], [1.0], 1e-3, 500) == 0


def test_the_budget_counts_every_step_and_only_where_it_acts(monkeypatch):
    """Without --trials, the sampled trials of the whole sequence fit the budget: with a
    budget this small they are cut, every step runs the same number, and a note says how many
    ran. A step after a certain wipe costs nothing: 20 Boyz then four volleys into one Grunt
    (destroyed by the Boyz) run about as many trials as the Boyz alone (the volleys, counted
    as if they were made, would cost nearly as much as the Boyz and halve them)."""
    import wh40k_calc.resolve as resolve_module

    monkeypatch.setattr(resolve_module, "FALLBACK_SECONDS", 0.03)
    volleys = ["shoot marksmen --weapon 'Autogun x1'"] * 4
    alone = as_json("sequence", "-t", "grunts", "--target-models", "20", *volleys,
                    "--method", "sample")  # fmt: skip
    ran = alone["sample"]["trials"]
    assert 100 <= ran < 100_000
    assert all(s["sample"]["trials"] == ran for s in alone["steps"])
    assert any(n.startswith(f"the sampler ran {ran:,} trials of the sequence") for n in
               alone["notes"])  # fmt: skip
    boyz = "fight boyz --models 20"
    first = as_json("sequence", *ONE_GRUNT, boyz, "--method", "sample")["sample"]["trials"]
    wiped = as_json("sequence", *ONE_GRUNT, boyz, *volleys, "--method", "sample")
    assert wiped["sample"]["trials"] >= 0.9 * first


def test_empirical_states_are_numpys_unique_rows():
    """The distribution of per-trial states the sampler's choices are scored on: each
    distinct row (in lexicographic order) weighted by its share, as numpy's unique rows."""
    from wh40k_calc.profile import GroupShape, TargetStates
    from wh40k_calc.sequence.sampled import empirical

    rng = np.random.default_rng(1)
    for highs in ([7], [7, 3], [7, 3, 11], [7, 3, 11, 2, 5], [1 << 20] * 4):
        lost = rng.integers(0, highs, size=(5000, len(highs)))
        shape = tuple(GroupShape("x", 1, 10, False) for _ in highs)
        got = empirical(TargetStates(shape, lost))
        rows, counts = np.unique(lost, axis=0, return_counts=True)
        assert got.lost.tolist() == rows.tolist()
        np.testing.assert_allclose(got.weights, counts / counts.sum(), rtol=0, atol=1e-15)

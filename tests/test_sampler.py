"""The Monte Carlo sampler: reproducible, statistically sound, chunked without bias, and wired
into ``resolve()``, the JSON contract and the ``--method both`` report."""

from __future__ import annotations

import json

import numpy as np
import pytest
from profiles import Kind, activation, disagreements, main_job, selection, unit, weapon
from typer.testing import CliRunner

import wh40k_calc.engine.sample as sample_module
from wh40k_calc.cli import app
from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.outcome import LOSS_FIELDS, TOTAL_FIELDS
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.records import replace
from wh40k_calc.resolve import resolve

TRIALS = 20_000


@pytest.fixture(scope="module")
def job():
    """The main job: 5 Lootas shoot 10 Boyz."""
    return main_job()


def _same(a, b) -> None:
    """Two outcomes are identical, figure for figure."""
    assert a.expected == b.expected
    assert a.attacker_losses == b.attacker_losses
    assert a.characters_destroyed == b.characters_destroyed
    assert a.standard_error == b.standard_error
    assert a.dice_drawn == b.dice_drawn
    for name in (
        "models_destroyed_distribution",
        "damage_distribution",
        "wounds_lost_distribution",
    ):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert [(w.name, w.expected, w.standard_error) for w in a.weapons] == [
        (w.name, w.expected, w.standard_error) for w in b.weapons
    ]


def _within_error(a, b, z: float = 5.0) -> list[str]:
    """Figures where two sampled outcomes differ by more than ``z`` combined standard errors
    (each floored at 1/trials)."""
    bad = []

    def check(label: str, x: float, y: float, sx: float, sy: float) -> None:
        se = np.hypot(max(sx, 1 / a.trials), max(sy, 1 / b.trials))
        if abs(x - y) > z * se:
            bad.append(f"{label}: {x:.6g} vs {y:.6g} (SE {se:.3g})")

    for f in TOTAL_FIELDS:
        sa, sb = a.standard_error["expected"][f], b.standard_error["expected"][f]
        check(f, a.expected[f], b.expected[f], sa, sb)
    for k, (x, y) in enumerate(zip(a.kill_table, b.kill_table, strict=True)):
        check(
            f"kill[{k + 1}]",
            x,
            y,
            a.standard_error["kill_table"][k],
            b.standard_error["kill_table"][k],
        )
    for f in LOSS_FIELDS:
        sa, sb = a.standard_error["attacker_losses"][f], b.standard_error["attacker_losses"][f]
        check(f"losses.{f}", a.attacker_losses[f], b.attacker_losses[f], sa, sb)
    return bad


def test_same_seed_same_outcome(job) -> None:
    _same(run_sample(job, trials=TRIALS, seed=7), run_sample(job, trials=TRIALS, seed=7))


def test_same_seed_same_outcome_with_every_feature() -> None:
    kinds = (Kind(W=1, Sv=5, fnp=6), Kind(W=4, Sv=3, invuln=4, fnp=5))
    from profiles import grenade, hazard

    w = weapon(
        kinds,
        models=4,
        A="D3",
        skill=3,
        S=5,
        T=5,
        AP=-1,
        D="D3",
        sustained=1,
        devastating=True,
        blast=True,
        reroll_damage=True,
        precision=True,
    )
    act = activation(
        w,
        unit(kinds, [(0, 9)], [(1, 1)]),
        [grenade(kinds)],
        hazard(2, (Kind(W=2),), [(0, 3)], spill=True),
    )
    _same(run_sample(act, trials=5_000, seed=3), run_sample(act, trials=5_000, seed=3))


def test_different_seeds_differ_but_agree_within_error(job) -> None:
    a = run_sample(job, trials=TRIALS, seed=1)
    b = run_sample(job, trials=TRIALS, seed=2)
    assert a.expected != b.expected  # really different draws
    assert not _within_error(a, b)


def test_seed_and_trials_are_recorded(job) -> None:
    o = run_sample(job, trials=1_234, seed=99)
    assert (o.method, o.trials, o.seed) == ("sample", 1_234, 99)
    assert o.models_destroyed_distribution.sum() == pytest.approx(1.0, abs=1e-12)


def test_chunking_does_not_change_results(job, monkeypatch) -> None:
    """Many small chunks (256 trials, the last one short) against one chunk: the same
    statistics, and both agree with the exact engine."""
    trials = 25_013  # not a multiple of 256
    whole = run_sample(job, trials=trials, seed=5)
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(sample_module, "DICE_PER_CHUNK", 1)  # chunk = the 256-trial minimum
    chunked = run_sample(job, trials=trials, seed=5, progress=lambda d, t: calls.append((d, t)))
    assert len(calls) == -(-trials // 256)
    assert calls[-1] == (trials, trials)
    assert all(t == trials for _, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert chunked.trials == trials
    assert chunked.models_destroyed_distribution.sum() == pytest.approx(1.0, abs=1e-12)
    assert chunked.expected != whole.expected  # different chunking, different draws
    assert not _within_error(whole, chunked)
    exact = run_exact(job)
    assert not disagreements(exact, chunked)
    assert not disagreements(exact, whole)


def test_dice_drawn_counts_draws_not_dice(job) -> None:
    """The main job rolls 11 Hit rolls per activation (and a Wound roll per hit, a save per
    wound); the sampler draws what it must (DESIGN.md): each weapon's attacks are alike up to
    the save (fixed Damage, one save for every Boy, no Critical Hit or Wound that does anything
    of its own), so a trial draws one count per weapon of its attacks' outcomes (missed, not
    wounded, saved, failed save): two random numbers a trial."""
    o = run_sample(job, trials=TRIALS, seed=11)
    assert o.dice_drawn == 2 * TRIALS


def test_attack_outcomes_by_hand() -> None:
    """One attack's four outcomes from its three rolls (Core rules: Hit Roll, Wound Roll,
    Saving Throw), worked out by hand: BS 4+ hits on 1/2, S4 against T4 wounds on 4+ (1/2),
    Sv 5+ against AP -1 saves on 6 (1/6)."""
    from wh40k_calc.engine.sample import attack_outcomes

    kinds = (Kind(Sv=5),)
    got = attack_outcomes(weapon(kinds, skill=4, S=4, T=4, AP=-1))
    assert got == pytest.approx([1 / 2, 1 / 4, 1 / 24, 5 / 24], abs=1e-15)
    # re-rolling Hit rolls of 1 (7/12 hit), every failed Wound roll (3/4), failed saves of a
    # 4+ save (3/4 saved)
    kinds = (Kind(Sv=4),)
    w = weapon(kinds, reroll_hits="ones", reroll_wounds="fails", reroll_saves="fails")
    hit, wound, saved = 7 / 12, 3 / 4, 3 / 4
    expected = [1 - hit, hit * (1 - wound), hit * wound * saved, hit * wound * (1 - saved)]
    assert attack_outcomes(w) == pytest.approx(expected, abs=1e-15)
    # [TORRENT] never misses; no save possible (Sv 7): every wound fails its save
    assert attack_outcomes(weapon((Kind(Sv=7),), skill=None)) == pytest.approx([0, 0.5, 0, 0.5])


def _drawn_whole(w, target) -> bool:
    """Whether the sampler draws ``w``'s attacks whole against ``target`` (one count a trial
    up to the save) rather than roll by roll."""
    from wh40k_calc.engine.allocation import AllocationSpace

    return sample_module._Inflict(AllocationSpace(target), w).outcomes is not None


def test_attacks_drawn_whole_only_where_they_are_alike_to_the_save() -> None:
    one = (Kind(W=2, Sv=4),)
    target = unit(one, [(0, 10)])
    assert _drawn_whole(weapon(one, A="D6", blast=True, precision=True), target)
    assert _drawn_whole(weapon(one, skill=None, D=2), target)
    for different in (
        {"sustained": 1},
        {"lethal": True},
        {"devastating": True},
        {"D": "D3"},  # the damage depends on the model
    ):
        assert not _drawn_whole(weapon(one, **different), target), different
    gun = weapon(one)
    assert not _drawn_whole(replace(gun, command_reroll=True), target)
    tough = (Kind(W=2, Sv=4, fnp=5),)
    assert not _drawn_whole(weapon(tough), unit(tough, [(0, 10)]))
    led = (Kind(W=1, Sv=4), Kind(W=4, Sv=4, invuln=4, name="Captain"))  # saves differ
    assert not _drawn_whole(weapon(led, AP=-2), unit(led, [(0, 5)], [(1, 1)]))


def test_a_single_hit_reroll_is_rolled_without_sustained_or_lethal_hits() -> None:
    """A rule's single Hit re-roll (``reroll_one_hit``: the first failed Hit roll not already
    re-rolled, once per activation) on a weapon with neither [SUSTAINED HITS] nor [LETHAL
    HITS]: the sampler rolls it (it took the counts' short cut and dropped it: 2.50 wounds
    against the exact engine's 2.75, 83 SE). 10 attacks hitting on 4+, wounding on 4+: the
    re-roll adds a hit with P(some attack misses) x 1/2 = (1 - 2^-10) / 2."""
    kinds = (Kind(W=1, Sv=4),)
    gun = replace(weapon(kinds, models=5, A=2, skill=4, D=1), reroll_one_hit=True)
    act = activation(gun, unit(kinds, [(0, 10)]))
    sampled = run_sample(act, trials=TRIALS, seed=29)
    hits = 5 + (1 - 2**-10) / 2
    assert abs(sampled.expected["hits"] - hits) < 5 * sampled.standard_error["expected"]["hits"]
    # the exact engine's expected hits leave the re-rolled hit out (its wounds count it), so
    # only the figures after the Hit roll are compared
    bad = [d for d in disagreements(run_exact(act), sampled) if ".hits" not in d]
    assert not bad


@pytest.mark.parametrize("precision", [False, True])
def test_attacks_drawn_whole_agree_with_the_exact_engine(precision: bool) -> None:
    """Random attacks with [BLAST] into models of two wound counts and one save, drawn whole,
    against the exact engine (an Attached unit with the same save as its Bodyguard)."""
    kinds = (Kind(W=1, Sv=5, name="Boy"), Kind(W=3, Sv=5, name="Nob"))
    target = unit(kinds, [(0, 9)], [(1, 1)])
    gun = weapon(kinds, models=3, A="D6", blast=True, skill=3, S=5, T=4, AP=-1, D=2,
                 precision=precision)  # fmt: skip
    act = activation(gun, target)
    assert _drawn_whole(gun, target)
    sampled = run_sample(act, trials=TRIALS, seed=23)
    assert not disagreements(run_exact(act), sampled)


def test_single_trial() -> None:
    act = activation(weapon((Kind(),), A=2), unit((Kind(),), [(0, 3)]))
    o = run_sample(act, trials=1, seed=0)
    assert o.trials == 1
    assert o.models_destroyed_distribution.sum() == 1.0
    with pytest.raises(ValueError):
        run_sample(act, trials=0)


def test_method_sample_through_resolve() -> None:
    r = resolve(selection("lootas", "boyz"), "sample", trials=10_000, seed=21)
    assert r.method == "sample"
    assert r.exact is None
    assert r.sample is not None and r.primary is r.sample
    assert (r.sample.trials, r.sample.seed) == (10_000, 21)
    again = resolve(selection("lootas", "boyz"), "sample", trials=10_000, seed=21)
    _same(r.sample, again.sample)
    both = resolve(selection("lootas", "boyz"), "both", trials=10_000, seed=21)
    assert both.exact is not None and both.primary is both.exact
    _same(both.sample, r.sample)
    assert not disagreements(both.exact, both.sample)


def test_json_has_a_sample_block() -> None:
    res = CliRunner().invoke(
        app, ["shoot", "lootas", "--target", "boyz", "--method", "both", "--json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["method"] == "both"
    s = out["sample"]
    for key in (
        "trials",
        "seed",
        "weapons",
        "expected",
        "kill_table",
        "models_destroyed_distribution",
        "damage_distribution",
        "attacker_losses",
        "standard_error",
    ):
        assert key in s, key
    assert s["trials"] == 100_000 and s["seed"] == 40_000
    assert [w["name"] for w in s["weapons"]] == [w["name"] for w in out["weapons"]]
    assert set(s["expected"]) == set(TOTAL_FIELDS)
    assert len(s["kill_table"]) == out["target"]["models"] == 10
    assert len(s["models_destroyed_distribution"]) == 11
    assert sum(s["models_destroyed_distribution"]) == pytest.approx(1.0, abs=1e-5)
    assert sum(s["damage_distribution"]) == pytest.approx(1.0, abs=1e-5)
    assert set(s["attacker_losses"]) == set(LOSS_FIELDS)
    se = s["standard_error"]
    assert set(se["expected"]) == set(TOTAL_FIELDS)
    assert len(se["kill_table"]) == 10
    assert all(x >= 0 for x in se["kill_table"])
    assert se["expected"]["models_destroyed"] > 0
    # the sampled figures agree with the exact ones of the same JSON object
    for k in ("models_destroyed", "damage", "wounds_lost"):
        assert abs(s["expected"][k] - out["expected"][k]) <= 5 * se["expected"][k] + 1e-5


def test_text_comparison_has_no_flags() -> None:
    res = CliRunner().invoke(app, ["shoot", "lootas", "--target", "boyz", "--method", "both"])
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert "Exact vs sampled" in text
    table = text[text.index("Exact vs sampled") :]
    rows = [line for line in table.splitlines() if line.startswith("│")]
    labels = [row.split("│")[1].strip() for row in rows]
    for figure in ("models destroyed", "wounds lost", "damage", "P(≥ 1 destroyed)"):
        assert figure in labels, figure
    flagged = [row for row in rows if "!" in row]
    assert not flagged, "\n".join(flagged)


def test_feel_no_pain_is_rolled_only_by_models_that_have_it() -> None:
    """Seeds README: "Feel No Pain X+: each time a model would lose a wound, roll one D6; on X+
    that wound is not lost." A model without it rolls nothing. One automatic hit
    ([TORRENT]), S4 v T4, no save, Damage 1 into one W1 model: without Feel No Pain the only
    random number a trial draws is its count of Wound rolls; with Feel No Pain 5+ the failed
    saves' points are rolled too, and P(destroyed) = 1/2 (wound on 4+) x 4/6 (FNP fails on 1-4)
    = 1/3."""
    trials = 20_000

    def run(fnp: int | None):
        kinds = (Kind(W=1, Sv=7, fnp=fnp),)
        gun = weapon(kinds, A=1, skill=None, S=4, T=4)
        return run_sample(activation(gun, unit(kinds, [(0, 1)])), trials=trials, seed=13)

    plain, tough = run(None), run(5)
    assert plain.dice_drawn == trials
    assert tough.dice_drawn > trials
    assert abs(plain.kill_table[0] - 1 / 2) < 5 * np.sqrt(1 / 4 / trials)
    assert abs(tough.kill_table[0] - 1 / 3) < 5 * np.sqrt(2 / 9 / trials)


# Normal wounds resolved from counts and a table of where failed saves leave the target -------


def _jumps(kinds, target, **kw):
    from wh40k_calc.engine.allocation import NORMAL, AllocationSpace
    from wh40k_calc.engine.sample import _SaveJumps

    gun = weapon(kinds, skill=None, S=4, T=4, **kw)
    return _SaveJumps.of(AllocationSpace(target), gun, NORMAL)


def test_failed_saves_move_the_target_as_allocation_says() -> None:
    """Core rules: a wounded model takes the next attack, and excess damage from one attack is
    lost. Nine W1 Boyz then a W2 Nob, Damage 2: each failed save destroys one model, so j
    failed saves (from none) destroy min(j, 10) models and remove min(j, 9) + (2 if j >= 10)
    wounds; the damage figure counts every point, 2 j. Two W3 models, Damage 2: the first
    failed save leaves 1 wound, the second destroys the model (1 point lost)."""
    from wh40k_calc.engine.allocation import AllocationSpace

    kinds = (Kind(W=1, Sv=5, name="Boy"), Kind(W=2, Sv=5, name="Nob"))
    target = unit(kinds, [(0, 9), (1, 1)])
    t = _jumps(kinds, target, D=2)
    space = AllocationSpace(target)
    for j in range(0, 14):
        at = min(j, t.last) * t.size  # from state 0, no wounds lost
        state = t.jump[at]
        assert space.destroyed[state] == min(j, 10)
        assert space.wounds_lost[state] == min(j, 9) + (2 if j >= 10 else 0)
        assert t.dealt[at] + (j - min(j, t.last)) * t.rate[0] == 2 * j
    gravis = (Kind(W=3, Sv=3),)
    t3 = _jumps(gravis, unit(gravis, [(0, 2)]), D=2)
    space3 = AllocationSpace(unit(gravis, [(0, 2)]))
    lost = [int(space3.wounds_lost[t3.jump[min(j, t3.last) * t3.size]]) for j in range(6)]
    assert lost == [0, 2, 3, 5, 6, 6]


def test_only_fixed_damage_and_one_save_and_no_feel_no_pain_are_tabulated() -> None:
    boyz = (Kind(W=1, Sv=5), Kind(W=2, Sv=5))
    target = unit(boyz, [(0, 9), (1, 1)])
    assert _jumps(boyz, target, D=1) is not None
    assert _jumps(boyz, target, D="D3") is None  # the Damage roll depends on the model hit
    warded = (Kind(W=1, Sv=5), Kind(W=2, Sv=5, invuln=4))
    assert _jumps(warded, unit(warded, [(0, 9), (1, 1)]), D=1) is None  # saves differ
    tough = (Kind(W=1, Sv=5, fnp=6), Kind(W=2, Sv=5))
    assert _jumps(tough, unit(tough, [(0, 9), (1, 1)]), D=1) is None  # Feel No Pain


# Saves that differ (an attached Leader), still from counts: engine/jumps.py's MixedSaves ----


def _mixed_states(lowest_first: bool, trials: int = 200_000):
    """Three wounds of Damage 1 into one W1 Sv4+ Bodyguard model led by a W1 Sv2+ Leader
    (a [TORRENT] gun: no Hit roll), resolved by MixedSaves alone: each trial's final state."""
    from wh40k_calc.engine.allocation import NORMAL, AllocationSpace
    from wh40k_calc.engine.jumps import MixedSaves
    from wh40k_calc.engine.sample import _Dice

    kinds = (Kind(W=1, Sv=4, name="Guard"), Kind(W=1, Sv=2, name="Leader"))
    target = unit(kinds, [(0, 1)], [(1, 1)])
    gun = weapon(kinds, skill=None, S=4, T=4, D=1)
    space = AllocationSpace(target)
    table = MixedSaves.of(space, gun, NORMAL, 0, lowest_first)
    assert table is not None
    dice = _Dice(np.random.default_rng(5))
    states = np.zeros(trials, dtype=np.int64)
    figure, failed = np.zeros(trials, dtype=np.int64), np.zeros(trials, dtype=np.int64)
    states = table.inflict(dice, states, np.full(trials, 3), figure, failed)
    assert (figure == failed).all()  # Damage 1: one point a failed save
    return space.destroyed[states], failed


def _close(freq: np.ndarray, want: list[float], trials: int) -> None:
    for f, p in zip(freq, want, strict=True):
        assert abs(f - p) < 5 * np.sqrt(p * (1 - p) / trials) + 1e-12, (freq, want)


def test_mixed_saves_one_at_a_time_by_hand() -> None:
    """Core rules (Allocating Attacks): the Bodyguard model takes the saves until it is
    destroyed, then the Leader. The Guard fails on 1-3 (1/2), the Leader on a 1 (1/6). The
    Guard is destroyed at save k (k = 1..3) with probability 1/2^k, and the Leader then makes
    3 - k saves: P(none destroyed) = 1/8 = 9/72; P(both) = 1/2 (1 - (5/6)^2) + 1/4 (1 - 5/6)
    = 14/72; P(the Guard only) = 49/72."""
    trials = 200_000
    destroyed, _ = _mixed_states(False, trials)
    freq = np.bincount(destroyed, minlength=3) / trials
    _close(freq, [9 / 72, 49 / 72, 14 / 72], trials)


def test_mixed_saves_lowest_first_by_hand() -> None:
    """Edition 11, 05.04: the three save rolls are made together and resolved lowest first.
    The lowest fails against the Guard unless all three are 4+ (P 1/8 = 27/216: nothing
    destroyed); the Guard destroyed, a further 1 fails against the Leader: both destroyed
    when at least two dice show a 1, 3 (1/6)^2 (5/6) + (1/6)^3 = 16/216; the Guard only:
    1 - 27/216 - 16/216 = 173/216."""
    trials = 200_000
    destroyed, _ = _mixed_states(True, trials)
    freq = np.bincount(destroyed, minlength=3) / trials
    _close(freq, [27 / 216, 173 / 216, 16 / 216], trials)


@pytest.mark.parametrize("lowest_first", [False, True])
@pytest.mark.parametrize("precision", [False, True])
def test_mixed_saves_and_one_at_a_time_agree(monkeypatch, lowest_first, precision) -> None:
    """Boys and a Nob led by a Boss of another save, two weapons of fixed Damage (one
    [PRECISION] or not), in edition 10 and with edition 11's lowest-first saves: from counts
    and wound by wound, both agree with the exact engine and with each other."""
    from wh40k_calc.engine.jumps import MixedSaves

    kinds = (Kind(W=1, Sv=5, name="Boy"), Kind(W=2, Sv=5, name="Nob"))
    kinds += (Kind(W=6, Sv=4, invuln=5, name="Boss"),)
    target = unit(kinds, [(0, 5), (1, 1)], [(2, 1)])
    guns = (
        weapon(kinds, "gun", models=8, A=2, skill=3, S=5, T=5, AP=-1, D=2, precision=precision),
        weapon(kinds, "shoota", models=10, A=2, skill=4, S=4, T=5, D=1),
    )
    act = replace(activation(guns, target), lowest_first=lowest_first)
    counted = run_sample(act, trials=TRIALS, seed=23)
    monkeypatch.setattr(MixedSaves, "of", classmethod(lambda cls, *a: None))
    one_by_one = run_sample(act, trials=TRIALS, seed=23)
    exact = run_exact(act)
    assert not disagreements(exact, counted)
    assert not disagreements(exact, one_by_one)
    assert not _within_error(counted, one_by_one)


@pytest.mark.parametrize("precision", [False, True])
def test_tabulated_and_one_at_a_time_agree(monkeypatch, precision: bool) -> None:
    """The same activation resolved from the table and wound by wound: both agree with the
    exact engine and with each other (an Attached unit, [PRECISION] or not, two weapons)."""
    from wh40k_calc.engine.sample import _SaveJumps

    kinds = (Kind(W=1, Sv=4, name="Guard"), Kind(W=4, Sv=4, name="Captain"))
    target = unit(kinds, [(0, 8)], [(1, 1)])
    guns = (
        weapon(kinds, "las", models=10, A=2, skill=4, S=3, T=3, AP=-1, D=2, precision=precision),
        weapon(kinds, "bolt", models=5, A=3, skill=3, S=4, T=3, D=1, sustained=1),
    )
    act = activation(guns, target)
    table = run_sample(act, trials=TRIALS, seed=17)
    monkeypatch.setattr(_SaveJumps, "of", classmethod(lambda cls, *a: None))
    one_by_one = run_sample(act, trials=TRIALS, seed=17)
    exact = run_exact(act)
    assert not disagreements(exact, table)
    assert not disagreements(exact, one_by_one)
    assert not _within_error(table, one_by_one)

"""The stand-in sampler's budget: when the exact engine declines a selection, the sampler answers
in a few seconds whatever the selection, with as many trials as its cost, estimated from the
profiles before anything is rolled, fits (``engine/budget.py``, ``resolve._affordable_trials``).
Nothing here is timed: the estimate's expected counts are checked against the exact engine, its
arithmetic by hand, and the stand-in's wiring with a stub sampler."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import Kind, activation, selection, unit, weapon

import wh40k_calc.engine.sample as sample_module
import wh40k_calc.resolve as resolve_module
from wh40k_calc.catalog import Catalog
from wh40k_calc.engine.budget import SampleCost, _weapon, estimate
from wh40k_calc.engine.exact import run_exact
from wh40k_calc.records import replace
from wh40k_calc.selection import Selection, UnitChoice

ABSURD = Path(__file__).resolve().parents[1] / "benchmarks" / "absurd.yaml"


@given(
    per_trial=st.floats(1e-9, 1e-1),
    per_chunk=st.floats(0.0, 5.0),
    chunk=st.integers(1, 1 << 16),
    seconds=st.floats(0.0, 30.0),
)
def test_trials_within_is_the_most_that_fit(per_trial, per_chunk, chunk, seconds) -> None:
    cost = SampleCost(per_trial, per_chunk, chunk)
    n = cost.trials_within(seconds)
    assert n >= 0
    if n:
        assert cost.seconds(n) <= seconds * (1 + 1e-9)
    assert cost.seconds(n + 1) > seconds * (1 - 1e-9)


def test_seconds_counts_every_started_chunk() -> None:
    cost = SampleCost(per_trial=1e-6, per_chunk=0.5, chunk=1000)
    assert cost.seconds(1000) == pytest.approx(1000e-6 + 0.5)
    assert cost.seconds(1001) == pytest.approx(1001e-6 + 1.0)  # a second chunk has begun


KINDS = (Kind(W=1, Sv=5, name="Boy"), Kind(W=2, Sv=5, name="Nob"))


@pytest.mark.parametrize(
    "kw",
    [
        {"A": 2, "skill": 4, "S": 4, "T": 4},
        {"A": "D6", "skill": 3, "S": 5, "T": 4, "reroll_hits": "ones", "reroll_wounds": "fails"},
        {"A": 3, "skill": 3, "S": 4, "T": 4, "sustained": "D3", "lethal": True},
        {"A": "D3", "skill": None, "S": 6, "T": 4, "devastating": True, "anti": 4},
        {"A": "2D6", "skill": 4, "S": 9, "T": 4, "blast": True, "crit_hit": 5},
    ],
)
def test_expected_wounds_agree_with_the_exact_engine(kw: dict) -> None:
    """The estimate's expected wounds of a weapon (from the sampler's per-die probabilities)
    are the exact engine's expected wounds: the work it sizes is the work the sampler does."""
    gun = weapon(KINDS, models=5, AP=-1, **kw)
    act = activation(gun, unit(KINDS, [(0, 9), (1, 1)]))
    _, normal, devastating = _weapon(gun, act.target.models)
    assert normal + devastating == pytest.approx(run_exact(act).expected["wounds"], rel=1e-9)
    assert (devastating > 0) == bool(kw.get("devastating"))


def test_more_attacks_cost_more() -> None:
    def cost(models: int) -> SampleCost:
        gun = weapon(KINDS, models=models, A="D6", skill=4, S=4, T=4, D="D3")
        return estimate(activation(gun, unit(KINDS, [(0, 9), (1, 1)])))

    assert cost(50).per_trial > cost(5).per_trial
    assert cost(50).per_chunk > cost(5).per_chunk


@pytest.fixture
def absurd(tmp_path) -> UnitChoice:
    """The benchmark's absurd unit: 200 models with A 20D6+200 (benchmarks/absurd.yaml)."""
    folder = tmp_path / "ds"
    folder.mkdir()
    shutil.copy(ABSURD, folder / "absurd.yaml")
    return UnitChoice(Catalog([folder], use_env=False).find("absurd-horde"), None, None)


@pytest.fixture
def absurd_selection(absurd) -> Selection:
    """The absurd unit shooting at 20 Boyz."""
    return replace(selection("lootas", "boyz", target_models=20), attacker=absurd)


@pytest.fixture
def sampler_calls(monkeypatch) -> list[int]:
    """The trials of each sampler run from here on: the sampler is replaced by a stub that
    records them and returns "sampled"."""
    calls: list[int] = []

    def stub(act, trials, seed, progress=None):
        calls.append(trials)
        return "sampled"

    monkeypatch.setattr(sample_module, "run_sample", stub)
    return calls


def test_a_huge_selection_is_sized_before_anything_is_rolled(
    absurd_selection, sampler_calls
) -> None:
    """The exact engine declines; the sampler runs once (no pilot run), with as many trials
    as fit the budget by the estimate, and the notes say how many."""
    res = resolve_module.resolve(absurd_selection, "exact")
    assert res.method == "sample" and res.sample == "sampled"
    assert len(sampler_calls) == 1
    trials = sampler_calls[0]
    cost = estimate(res.activation)
    assert resolve_module.FALLBACK_MIN_TRIALS <= trials < 100_000
    assert cost.seconds(trials) <= resolve_module.FALLBACK_SECONDS
    assert cost.seconds(trials + 1) > resolve_module.FALLBACK_SECONDS
    assert any(f"the sampler ran {trials:,} trials" in n for n in res.notes), res.notes


def test_asked_trials_that_fit_are_all_run(monkeypatch) -> None:
    notes: list[str] = []
    gun = weapon(KINDS, models=5, A=2, skill=4, S=4, T=4)
    act = activation(gun, unit(KINDS, [(0, 9), (1, 1)]))
    assert resolve_module._affordable_trials(act, 10_000, notes) == 10_000
    assert notes == []


def test_the_floor_holds_when_nothing_fits(monkeypatch) -> None:
    monkeypatch.setattr(resolve_module, "FALLBACK_SECONDS", 0.0)
    notes: list[str] = []
    gun = weapon(KINDS, models=5, A=2, skill=4, S=4, T=4)
    act = activation(gun, unit(KINDS, [(0, 9), (1, 1)]))
    trials = resolve_module._affordable_trials(act, 10_000, notes)
    assert trials == resolve_module.FALLBACK_MIN_TRIALS
    assert "the sampler ran 100 trials" in notes[0]


@pytest.mark.parametrize("method", ["sample", "both"])
def test_default_trials_are_budgeted_too(absurd_selection, sampler_calls, method) -> None:
    """`--method sample` (or `both`) without `--trials` keeps to the time budget as the
    stand-in does; the notes say how many trials ran."""
    res = resolve_module.resolve(absurd_selection, method)
    assert sampler_calls and sampler_calls[-1] < resolve_module.DEFAULT_TRIALS
    assert any(f"the sampler ran {sampler_calls[-1]:,} trials" in n for n in res.notes), res.notes


def test_given_trials_are_run_exactly(absurd_selection, sampler_calls) -> None:
    """`--trials N` runs exactly N, however long they take."""
    resolve_module.resolve(absurd_selection, "sample", trials=50_000)
    assert sampler_calls == [50_000]


# An explicit --trials far beyond the time budget: warned of first, with the estimate ---------


def test_slow_trials_warning_only_far_beyond_the_budget() -> None:
    from wh40k_calc.engine.budget import SLOW_FACTOR, slow_trials_warning

    assert slow_trials_warning(SLOW_FACTOR * 3.0, 10**7, 3.0) is None
    text = slow_trials_warning(120.0, 10**8, 3.0)
    assert text is not None
    # 3 s of the 120 s estimate: 1/40 of the trials
    assert "--trials 100,000,000" in text and "2 minutes" in text and "2,500,000" in text


def _slow(monkeypatch) -> None:
    """Every sampler run estimated at 100 s (the run itself stays small)."""
    from wh40k_calc.engine.budget import SampleCost

    monkeypatch.setattr(SampleCost, "seconds", lambda self, trials: 100.0)


@pytest.mark.parametrize(
    ("args", "estimate"),
    [
        (["shoot", "lootas", "--target", "boyz", "--method", "sample"], "100 s"),
        (["shoot", "lootas", "--target", "boyz", "--method", "both", "--json"], "100 s"),
        # a sequence: every step in every trial, 2 x 100 s
        (["sequence", "-t", "boyz", "shoot lootas", "fight boyz", "--method=sample"], "3 minutes"),
    ],
)
def test_explicit_trials_far_beyond_the_budget_warn_first(monkeypatch, args, estimate) -> None:
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    _slow(monkeypatch)
    result = CliRunner().invoke(app, [*args, "--trials", "2000"])
    assert result.exit_code == 0, result.output
    assert f"warning: --trials 2,000: the sampler estimates about {estimate} " in result.stderr
    assert "warning" not in result.stdout


def test_no_warning_without_trials_or_within_the_budget(monkeypatch) -> None:
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    result = CliRunner().invoke(app, ["shoot", "lootas", "-t", "boyz", "--method", "sample"])
    assert result.exit_code == 0 and "warning" not in result.stderr  # the budget's own trials
    _slow(monkeypatch)
    result = CliRunner().invoke(app, ["shoot", "lootas", "-t", "boyz", "--method", "sample"])
    assert "warning" not in result.stderr  # no --trials: the budget cuts them (a note says so)

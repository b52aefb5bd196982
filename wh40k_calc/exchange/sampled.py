"""The sampler's exchange: each trial carries both units' states through every activation.

Per activation, the trials where the acting unit and the unit it attacks are both alive are
grouped by the acting unit's attack class (:mod:`.track`); each group is sampled with that
class's activation from its own trials' states of the attacked unit, one state per trial
(``run_sample(start=..., keep_states=True)``), and its Hazardous tests from the acting unit's
(:mod:`.hazard`). With ``--method both`` a class's activation is the one the exact engine
resolved (its choices made); otherwise, and for a class the exact engine did not resolve, it
is resolved on the class's trials (the choices scored on their states, as ``calc sequence``'s
sampler does). The other trials are left as they are; their figures count 0.

Activation ``k``'s random stream is seeded from ``--seed`` and ``k``
(:func:`~wh40k_calc.sequence.run.step_seed`); its classes draw from it in turn.
"""

from __future__ import annotations

import numpy as np

from ..engine.outcome import WEAPON_FIELDS
from ..profile import TargetStates
from ..resolve import Carried, Result, few_trials_note, pool_samples, resolve
from ..sequence.pooled import Moments, se_p
from ..sequence.run import step_seed
from ..sequence.sampled import empirical
from .exact import fights_first_share, nothing_to_choose
from .hazard import hazard_step
from .result import STEP_FIELDS, Chain, StepFigures, Summary, summary_of
from .setup import ExchangeError, Setup, activation_notes
from .track import AttackClass, distinct_rows

DEFAULT_TRIALS = 20_000


def sample_chain(
    setup: Setup,
    trials: int,
    seed: int,
    decided: list[dict[AttackClass, Result]] | None = None,
) -> Chain:
    """Every activation sampled over ``trials`` trials, in order: the trials in chunks of
    :data:`CHUNK`, every activation for one chunk before the next (memory stays flat whatever
    the trials), each activation's random stream continued from chunk to chunk.

    Raises:
        ExchangeError: an activation that cannot be resolved at full strength.
    """
    n_steps = len(setup.steps)
    rngs = [np.random.default_rng(step_seed(seed, k)) for k in range(n_steps)]
    tallies = [_Tally() for _ in range(n_steps)]
    known: list[dict[AttackClass, Result]] = [dict(d) for d in decided] if decided else []
    known += [{} for _ in range(n_steps - len(known))]
    fixed: dict = {}  # (selection, class) -> a Result whose activation any start shares
    ends = _Ends(setup)
    done = 0
    while done < trials:
        n = min(CHUNK, trials - done)
        states = {s: np.repeat(setup.initial[s].lost[:1], n, axis=0).astype(np.int64) for s in "ab"}
        k = 0
        while k < n_steps:
            if setup.steps[k].order_by_state:  # a Fight phase ordered per state
                lead = _leads(setup, k, states)
                both = ~setup.tracks["a"].destroyed(states["a"])
                both &= ~setup.tracks["b"].destroyed(states["b"])
                tallies[k].led += int((lead & both).sum())
                tallies[k].both += int(both.sum())
                runs: list[tuple[int, np.ndarray | None]] = [(k, lead), (k + 1, None), (k, ~lead)]
                width = 2
            else:
                runs, width = [(k, None)], 1
            for j, only in runs:
                sel = id(setup.selections[j])
                for (s, c), r in fixed.items():
                    if s == sel:
                        known[j].setdefault(c, r)
                _step(setup, j, states, rngs[j], known[j], tallies[j], only)
                for c, r in known[j].items():
                    if nothing_to_choose(r):
                        fixed.setdefault((sel, c), r)
            k += width
        ends.add(states["a"], states["b"])
        done += n
    steps = [t.figures() for t in tallies]
    k = 0
    while k < n_steps:  # a Fight phase ordered per state: how often its first side led
        if setup.steps[k].order_by_state:
            side = setup.steps[k].side.upper()
            t = tallies[k]
            steps[k].notes.insert(0, fights_first_share(side, t.led / t.both if t.both else 1.0))
            k += 2
        else:
            k += 1
    return Chain("sample", steps, ends.summary(), trials=trials, seed=seed)


def _leads(setup: Setup, k: int, states: dict[str, np.ndarray]) -> np.ndarray:
    """Per trial, whether activation ``k``'s side fights first in its Fight phase, read
    from both units' states at its start (:meth:`~.setup.Setup.leads`, per distinct pair)."""
    ua, ia = distinct_rows(states["a"])
    ub, ib = distinct_rows(states["b"])
    return setup.leads(k, {"a": ua, "b": ub})[ia, ib]


CHUNK = 1 << 17  # trials carried through every activation at once


class _Tally:
    """One activation's sampled figures over the chunks of trials: the moments of each
    figure, the trials in which it was made, and what its activations said."""

    def __init__(self) -> None:
        self.moments = {f: Moments() for f in STEP_FIELDS}
        self.made = 0
        self.trials = 0
        self.words = StepFigures(0.0, {})
        self.classes: set = set()
        self.led = 0  # trials in which its side fought first (a Fight phase ordered per state)
        self.both = 0  # trials in which both units were alive at the start of that phase

    def figures(self) -> StepFigures:
        out = self.words
        out.p_made = self.made / self.trials if self.trials else 0.0
        out.expected = {f: self.moments[f].mean for f in STEP_FIELDS}
        out.standard_error = {f: self.moments[f].se for f in STEP_FIELDS}
        out.standard_error["p_made"] = se_p(out.p_made, self.trials)
        out.classes = len(self.classes)
        return out


def _step(
    setup: Setup,
    k: int,
    states: dict[str, np.ndarray],
    rng: np.random.Generator,
    decided: dict[AttackClass, Result],
    tally: _Tally,
    only: np.ndarray | None = None,
) -> None:
    """Activation ``k`` on one chunk of trials (``states``, changed in place), into
    ``tally``; ``only``: on the trials where it holds (the others neither act nor count:
    a Fight phase ordered per state runs an activation on each part of the trials in turn)."""
    planned = setup.steps[k]
    x, y = planned.side, planned.other
    tx, ty = setup.tracks[x], setup.tracks[y]
    xs, ys = states[x], states[y]
    n = len(xs) if only is None else int(only.sum())
    before_x, before_y = tx.models_left(xs), ty.models_left(ys)
    wounds_y = ys.sum(axis=1)
    made = ~tx.destroyed(xs) & ~ty.destroyed(ys)
    if only is not None:
        made &= only
    classes, class_of = tx.classes(xs)
    moments = tally.moments
    figures = tally.words
    acted = 0
    for c, cls in enumerate(classes):
        idx = np.flatnonzero((class_of == c) & made)
        if not len(idx):
            continue
        start = TargetStates(ty.shape, ys[idx])
        act, outcome = _sampled(setup, k, cls, start, rng, decided, figures)
        if outcome is None:
            continue
        acted += len(idx)
        tally.classes.add(cls)
        figures.resolutions += 1
        assert outcome.final_states is not None
        ys[idx] = outcome.final_states.lost
        se = outcome.standard_error["expected"]
        for f in WEAPON_FIELDS:
            moments[f].add_estimate(len(idx), outcome.expected[f], se[f])
        _hazard(setup, k, cls, act, xs, idx, rng, figures)
    for f in WEAPON_FIELDS:
        moments[f].add_constant(n - acted, 0.0)
    own = {
        "models_destroyed": before_y - ty.models_left(ys),
        "wounds_lost": ys.sum(axis=1) - wounds_y,
        "own_models_lost": before_x - tx.models_left(xs),
    }
    for f, values in own.items():
        _add_values(moments[f], values if only is None else values[only])
    tally.made += int(made.sum())
    tally.trials += n


def _sampled(setup, k, cls, start, rng, decided, figures):
    """The class's activation and its sampled outcome on the trials ``start`` (None, None when
    the survivors have no weapon for this phase)."""
    from ..engine.sample import run_sample
    from ..selection import SelectionError

    res = decided.get(cls)
    if res is not None:
        act = res.activation
        if res.by_state is not None:  # the target's state read by effects: per class of states
            parts = [
                (mask, run_sample(a, trials=int(mask.sum()), seed=rng,
                                  start=TargetStates(start.shape, start.lost[mask]),
                                  keep_states=True))
                for mask, a in res.by_state(start)
            ]  # fmt: skip
            return act, pool_samples(parts, len(start.lost))
        return act, run_sample(act, trials=len(start.lost), seed=rng, start=start, keep_states=True)
    sel = setup.selection(k, cls)
    m = len(start.lost)
    try:
        res = resolve(sel, "sample", m, rng, None, Carried(empirical(start), start), stand_in=True)
    except SelectionError as exc:
        if sel.attacker_alive is not None and "weapon" in str(exc):
            return None, None
        raise ExchangeError(f"{setup.label(k)}: {exc}") from None
    except (LookupError, ValueError) as exc:
        raise ExchangeError(f"{setup.label(k)}: {exc}") from None
    figures.add_choices(res)
    for text, into in (
        (
            activation_notes([t for t in res.notes if t != few_trials_note(m)], res.plan.unmet),
            figures.notes,
        ),
        (res.plan.not_modelled, figures.not_modelled),
    ):
        for t in text:
            if t not in into:
                into.append(t)
    decided[cls] = res
    return res.activation, res.sample


def _hazard(setup, k, cls, act, xs, idx, rng, figures) -> None:
    """The class's Hazardous tests, sampled on its trials' states of the acting unit."""
    from ..engine.sample import run_sample

    try:
        hz = hazard_step(setup.tracks[setup.steps[k].side], cls.alive, act.hazard)
    except ValueError as exc:
        note = f"Hazardous losses not carried in the unit's state ({exc})"
        if note not in figures.notes:
            figures.notes.append(note)
        return
    if hz is None:
        return
    out = run_sample(hz.act, trials=len(idx), seed=rng, start=hz.start(xs[idx]), keep_states=True)
    assert out.final_states is not None
    xs[idx] = hz.written_back(xs[idx], out.final_states.lost)


class _Ends:
    """Both units' states at the end of the exchange, counted over the chunks of trials (each
    distinct pair of states once), and the models left per trial's moments."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.pairs: dict[tuple[bytes, bytes], list] = {}  # (A's row, B's row) -> [a, b, count]
        self.left = {s: Moments() for s in "ab"}
        self.n = 0

    def add(self, a: np.ndarray, b: np.ndarray) -> None:
        ua, ia = distinct_rows(a)
        ub, ib = distinct_rows(b)
        pair, counts = np.unique(ia * len(ub) + ib, return_counts=True)
        for key, c in zip(pair.tolist(), counts.tolist(), strict=True):
            ra, rb = ua[key // len(ub)], ub[key % len(ub)]
            entry = self.pairs.setdefault((ra.tobytes(), rb.tobytes()), [ra, rb, 0])
            entry[2] += c
        for s, rows in (("a", a), ("b", b)):
            v = self.setup.tracks[s].models_left(rows).astype(np.float64)
            m = self.left[s]
            m.n, m.total, m.squares = (
                m.n + len(v),
                m.total + float(v.sum()),
                m.squares + float(v @ v),
            )
        self.n += len(a)

    def summary(self) -> Summary:
        """The summary of every trial's end, with standard errors."""
        n = self.n
        entries = list(self.pairs.values())
        a_rows = np.array([e[0] for e in entries], dtype=np.int64)
        b_rows = np.array([e[1] for e in entries], dtype=np.int64)
        weights = np.array([e[2] for e in entries], dtype=float) / n
        ua, ia = distinct_rows(a_rows)
        ub, ib = distinct_rows(b_rows)
        p = np.zeros((len(ua), len(ub)))
        np.add.at(p, (ia, ib), weights)
        out = summary_of(self.setup, ua, ub, p)
        out.standard_error = {
            "p_destroyed": {s: se_p(out.p_destroyed[s], n) for s in "ab"},
            "p_both": se_p(out.p_both, n),
            "expected_models_left": {s: self.left[s].se for s in "ab"},
            "joint": np.sqrt(np.clip(out.joint * (1 - out.joint), 0, None) / max(n - 1, 1)),
        }
        return out


def _add_values(m: Moments, values: np.ndarray) -> None:
    """Add one trial per entry of ``values`` to ``m``."""
    v = np.asarray(values, dtype=np.float64)
    m.n += len(v)
    m.total += float(v.sum())
    m.squares += float((v * v).sum())

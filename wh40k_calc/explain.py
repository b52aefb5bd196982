"""``--explain``: what each rule applied adds to an activation, as Shapley values.

The players are the rules applied (``rules.players``: effects, unit rules, conditions,
modifiers, added and weapon abilities that can change the result). The value of a set S of
them is the exact expectation, with every other player switched off (in the rules layer:
``rules.players.switched_off``; the engines never know), of three figures: models destroyed,
wounds lost and damage. A player's Shapley value is its marginal contribution v(S + i) - v(S)
averaged over the n! orders in which the players could be added:

    phi_i = sum over S not holding i of |S|! (n - |S| - 1)! / n! x (v(S + i) - v(S)),

so the values sum exactly to v(all) - v(none), a player that changes nothing in any subset
gets 0, and two players that only act together (``--stationary`` and a [HEAVY] weapon) share
what they add equally. Exactly, every one of the 2^n subsets is resolved once (the exact
engine's outcome of each distinct activation kept); beyond a budget (more than
:data:`MAX_EXACT_PLAYERS` players, or the 2^n resolutions estimated at more than
:data:`EXACT_SECONDS` from the first two: for one activation each subset's planning and the
exact engine's own estimate of its runs, the same on every machine; for a sequence the time
they took), a seeded sample of random orders gives each
value as the mean of its marginal contributions, with its standard error (each order's
contributions still add up to v(all) - v(none), so their means do too).

The attribution is the exact engine's whatever ``--method`` (a sampled value of each subset
would bury the differences in noise); where the exact engine declines the activation, there is
no attribution and the notes say so.
"""

from __future__ import annotations

import math
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .engine.exact import ExactUnsupported, run_exact, state_estimate
from .notes import OptionNote
from .records import replace
from .resolve import Carried, _Scorer, choose
from .rules import get_rules
from .rules.players import Player, players, switched_off
from .selection import Selection, SelectionError

if TYPE_CHECKING:
    from .engine.outcome import Outcome
    from .profile import Activation
    from .resolve import Result

METRICS = ("models_destroyed", "wounds_lost", "damage")
MAX_EXACT_PLAYERS = 14  # 16,384 subsets at most, each resolved once
EXACT_SECONDS = 1.5  # every subset resolved within this estimate, else sampled orders
SAMPLED_SECONDS = 1.5  # the sampled orders' time budget (estimated the same way)
PLAN_SECONDS = 0.002  # one subset planned and its choices made (the development machine)
MIN_ORDERS, MAX_ORDERS = 40, 4000
DEFAULT_SEED = 40_000

Value = Callable[[Selection], np.ndarray]  # the three METRICS of one selection


@dataclass(frozen=True)
class Share:
    """One player's Shapley value of each of :data:`METRICS` (``se``: the standard errors of a
    sampled attribution, else None)."""

    player: Player
    value: dict[str, float]
    se: dict[str, float] | None = None


@dataclass(frozen=True)
class Attribution:
    """What each player adds: ``shares`` in the players' order; ``all`` and ``none`` the
    figures with every player applied and with none; ``method`` "exact" (every subset) or
    "sampled" (``orders`` random orders from ``seed``); ``subsets``: the subsets resolved;
    ``declined``: why there is no attribution (the exact engine declined), else None."""

    method: str
    shares: tuple[Share, ...]
    all: dict[str, float]
    none: dict[str, float]
    subsets: int
    orders: int | None = None
    seed: int | None = None
    declined: str | None = None
    notes: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------------------------------
# Shapley values of any game


def shapley_exact(n: int, v: Callable[[int], np.ndarray]) -> np.ndarray:
    """The Shapley values (n, metrics) of the game ``v`` (a bit mask of the players in, bit i
    for player i, to its figures), from every one of the 2^n subsets."""
    size = 1 << n
    values = np.array([v(m) for m in range(size)])
    masks = np.arange(size)
    pops = np.array([bin(m).count("1") for m in range(size)])
    weights = np.array(
        [math.factorial(k) * math.factorial(n - k - 1) / math.factorial(n) for k in range(n)]
    )
    out = np.zeros((n, values.shape[1]))
    for i in range(n):
        bit = 1 << i
        without = masks[(masks & bit) == 0]
        out[i] = weights[pops[without]] @ (values[without | bit] - values[without])
    return out


def shapley_sampled(
    n: int, v: Callable[[int], np.ndarray], orders: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Estimates of the Shapley values of ``v`` from ``orders`` random orders (numpy
    ``default_rng(seed)``): per order, each player's marginal contribution when added after
    those before it; their means and standard errors, both (n, metrics)."""
    rng = np.random.default_rng(seed)
    full = v((1 << n) - 1)
    marg = np.zeros((orders, n, len(full)))
    for k in range(orders):
        mask, before = 0, v(0)
        for i in rng.permutation(n):
            mask |= 1 << int(i)
            now = v(mask)
            marg[k, i] = now - before
            before = now
    mean = marg.mean(axis=0)
    se = marg.std(axis=0, ddof=1) / math.sqrt(orders) if orders > 1 else np.zeros_like(mean)
    return mean, se


# ---------------------------------------------------------------------------------------------
# One activation


class _Engine:
    """The exact engine's outcome of each distinct activation, run once (activations made
    equal by different subsets, e.g. with a player that changes nothing there, share it);
    ``seconds``: the engine's own estimate of the runs so far (``engine.exact.state_estimate``,
    seconds on the development machine: the same on every machine)."""

    def __init__(self) -> None:
        self.kept: dict[bytes, Outcome] = {}
        self.seconds = 0.0

    def __call__(self, act: Activation) -> Outcome:
        key = pickle.dumps(
            replace(act, notes=(), weapons=tuple(replace(w, choices=()) for w in act.weapons))
        )
        if key not in self.kept:
            self.kept[key] = run_exact(act)
            self.seconds += state_estimate(act).seconds
        return self.kept[key]


class _SharedScorer(_Scorer):
    """``resolve``'s scorer of the player's choices, on :class:`_Engine`'s outcomes."""

    def __init__(self, engine: _Engine) -> None:
        super().__init__()
        self.engine = engine

    def __call__(self, picks: tuple[int, ...], variant: int, act: Activation) -> tuple:
        o = self.engine(act)
        return o.expected["models_destroyed"], o.expected["wounds_lost"]


def activation_value(carried: Carried | None = None) -> Value:
    """The value of a selection for ``--explain``: the exact engine's expected models
    destroyed, wounds lost and damage of the activation the player's choices make (as
    ``resolve`` makes them), this activation's own (from ``carried``'s start, or the
    selection's, the figures of that start taken off). Its ``estimate(subsets)`` is the
    seconds those subsets are estimated to take, the same on every machine: each planned
    (:data:`PLAN_SECONDS`) and the engine's own estimate of its runs.

    Raises:
        ExactUnsupported: the exact engine declines it.
        SelectionError: an impossible selection.
    """
    engine = _Engine()

    def estimate(subsets: int) -> float:
        return subsets * PLAN_SECONDS + engine.seconds

    def value(sel: Selection) -> np.ndarray:
        if carried is not None:  # as resolve does it (effects may read each start state)
            from .resolve import resolve

            r = resolve(sel, "exact", carried=carried, stand_in=False)
            if r.exact is None:
                raise ExactUnsupported(r.exact_declined or "declined")
            o, start = r.exact, carried.exact
        else:
            plan = get_rules(sel.edition).plan(sel)
            picks, variant, order, _ = choose(plan, sel, _SharedScorer(engine))
            act = plan.build(picks, variant, order)
            o, start = engine(act), act.start
        md, wl = o.expected["models_destroyed"], o.expected["wounds_lost"]
        if start is not None and start.weights is not None:
            w = np.asarray(start.weights, dtype=float) / float(np.sum(start.weights))
            md -= float(w @ start.models_destroyed)
            wl -= float(w @ start.wounds_lost)
        return np.array([md, wl, o.expected["damage"]])

    value.estimate = estimate  # type: ignore[attr-defined]
    return value


def explain(
    r: Result,
    carried: Carried | None = None,
    seed: int = DEFAULT_SEED,
    method: str | None = None,
    orders: int | None = None,
) -> Attribution:
    """The attribution of the activation ``r`` resolved (its selection, and the players its
    plan and activation give), from ``carried``'s start (a sequence step) if given.

    ``method`` "exact" or "sampled" forces one (None: exact within the budget); ``orders``
    the sampled orders (None: as many as :data:`SAMPLED_SECONDS` allows, within
    :data:`MIN_ORDERS` and :data:`MAX_ORDERS`).

    Raises:
        SelectionError: a subset that cannot be resolved (naming the players switched off).
    """
    ps = players(r.selection, r.plan, r.activation)
    return attribute(ps, r.selection, activation_value(carried), seed, method, orders)


def explained(r: Result, carried: Carried | None = None, seed: int = DEFAULT_SEED) -> Result:
    """``r`` with its attribution (:func:`explain`) and the attribution's notes added to its
    own.

    Raises:
        SelectionError: as :func:`explain`.
    """
    a = explain(r, carried, seed)
    out = replace(r, attribution=a)
    out.notes.extend(a.notes)
    return out


def attribute(
    ps: Sequence[Player],
    sel: Any,
    value: Callable[[Any], np.ndarray],
    seed: int = DEFAULT_SEED,
    method: str | None = None,
    orders: int | None = None,
    switch: Callable[[Any, list[Player]], Any] | None = None,
) -> Attribution:
    """The Shapley attribution of the players ``ps`` of ``sel`` under ``value`` (see
    :func:`explain`); ``switch(sel, off)`` switches players off (default
    :func:`~wh40k_calc.rules.players.switched_off`; a whole sequence passes its own, its
    ``sel`` the list of its steps).

    Raises:
        SelectionError: a subset that cannot be resolved.
    """
    switch = switch or switched_off
    n = len(ps)
    cache: dict[int, np.ndarray] = {}
    spent: list[float] = []

    def v(mask: int) -> np.ndarray:
        if mask not in cache:
            off = [p for i, p in enumerate(ps) if not mask >> i & 1]
            start = time.perf_counter()
            try:
                cache[mask] = value(sel if not off else switch(sel, off))
            except SelectionError as exc:
                names = ", ".join(p.name for p in off)
                raise SelectionError(f"--explain: with {names} switched off: {exc}") from None
            spent.append(time.perf_counter() - start)
        return cache[mask]

    full = (1 << n) - 1
    try:
        top, bottom = v(full), v(0)
    except ExactUnsupported as exc:
        return _declined(str(exc))
    estimate = getattr(value, "estimate", None)  # deterministic; else the time measured
    per = (estimate(len(cache)) if estimate else sum(spent)) / max(len(cache), 1)
    if method is None:
        affordable = n <= MAX_EXACT_PLAYERS and ((1 << n) - 2) * per <= EXACT_SECONDS
        method = "exact" if affordable else "sampled"
    try:
        if method == "exact":
            phi, se = shapley_exact(n, v), None
            used = None
        else:
            used = orders or int(
                np.clip(SAMPLED_SECONDS / max(per * max(n - 1, 1), 1e-9), MIN_ORDERS, MAX_ORDERS)
            )
            phi, se = shapley_sampled(n, v, used, seed)
    except ExactUnsupported as exc:
        return _declined(str(exc))
    shares = tuple(
        Share(
            p,
            dict(zip(METRICS, map(float, phi[i]), strict=True)),
            None if se is None else dict(zip(METRICS, map(float, se[i]), strict=True)),
        )
        for i, p in enumerate(ps)
    )
    return Attribution(
        method,
        shares,
        dict(zip(METRICS, map(float, top), strict=True)),
        dict(zip(METRICS, map(float, bottom), strict=True)),
        len(cache),
        used,
        seed if used is not None else None,
        notes=(_note(method, n, len(cache), used, seed),),
    )


def _declined(reason: str) -> Attribution:
    return Attribution(
        "exact",
        (),
        {},
        {},
        0,
        declined=reason,
        notes=(OptionNote("--explain", f"no attribution: the exact engine declined ({reason})"),),
    )


def _note(method: str, n: int, subsets: int, orders: int | None, seed: int) -> str:
    """The note saying how the attribution was made."""
    from .wording import count

    if n == 0:
        return OptionNote(
            "--explain", "no rule applied here can change the result (nothing to attribute)"
        )
    if method == "exact":
        return OptionNote(
            "--explain",
            f"exact Shapley values of {count(n, 'rule')} over all {1 << n:,} subsets "
            f"({count(subsets, 'subset')} resolved by the exact engine)",
        )
    return OptionNote(
        "--explain",
        f"Shapley values of {count(n, 'rule')} estimated from {orders:,} random orders (seed "
        f"{seed}; {count(subsets, 'subset')} resolved by the exact engine), with a standard "
        "error each; they still add up exactly to all rules less none",
    )

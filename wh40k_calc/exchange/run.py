"""Running an exchange with ``--method exact|sample|both``: the exact engine's joint
distribution (:mod:`.exact`), the sampler's trials (:mod:`.sampled`), or both side by side.
When the exact engine declines an activation (too large), the whole exchange is sampled and
the notes say so, as ``calc sequence`` does."""

from __future__ import annotations

from .exact import Declined, exact_chain
from .result import ExchangeResult
from .sampled import DEFAULT_TRIALS, sample_chain
from .setup import Setup


def run_exchange(
    setup: Setup, method: str = "exact", trials: int | None = None, seed: int = 40_000
) -> ExchangeResult:
    """Resolve the exchange ``setup`` with ``method`` ("exact", "sample" or "both").

    ``trials``: the sampler's (None: :data:`~.sampled.DEFAULT_TRIALS`, said in the notes).

    Raises:
        ExchangeError: an activation that cannot be resolved.
        ValueError: an unknown method.
    """
    if method not in ("exact", "sample", "both"):
        raise ValueError(f"unknown method {method!r} (choose exact, sample, both)")
    notes: list[str] = list(setup.notes)
    n = trials if trials is not None else DEFAULT_TRIALS
    if method != "exact" and trials is None:
        notes.append(f"the sampler ran {n:,} trials of the exchange; --trials N runs more")
    exact = sample = None
    declined = None
    if method in ("exact", "both"):
        try:
            exact, decided = exact_chain(setup)
        except Declined as d:
            declined = f"{setup.label(d.k)}: {d.reason}"
            notes.insert(
                0,
                f"the exact engine declined {setup.label(d.k)} ({d.reason}); every figure is "
                "the sampler's",
            )
            if trials is None:
                notes.append(f"the sampler ran {n:,} trials of the exchange; --trials N runs more")
            method = "sample"
    if method in ("sample", "both"):
        sample = sample_chain(setup, n, seed, decided if exact is not None else None)
    if exact is not None and exact.neglected > 1e-9:
        notes.append(
            f"attack classes with a total probability of {exact.neglected:.2g} were too unlikely "
            "to resolve and were left as they were"
        )
    return ExchangeResult(setup, method, exact, sample, notes, declined)

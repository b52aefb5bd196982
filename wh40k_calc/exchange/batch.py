"""``exchange:`` runs of a batch file (``calc compare``): an exchange built from a run's
``exchange`` mapping, as ``calc exchange`` builds it from its options, so that compare can rank
"charge with the Boyz" against "charge with the Nobz".

A compare row needs the unit attacked and the attacker: an exchange run's row is side A's, and
its target is side B (rows with the same side B are ranked together); the figures compared are
side A's (:func:`~wh40k_calc.exchange.output.to_json_exchange`, ``expected`` and
``attacker_losses``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..records import replace

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..selection import Selection
    from .setup import Setup


@dataclass(frozen=True)
class ExchangeJob:
    """An exchange to resolve: ``key`` (what decides its result: the sides' texts, turns,
    order and edition) and its ``setup`` (built once, when the batch is read)."""

    key: tuple
    setup: Setup = field(compare=False)


def texts(value: str | list[str]) -> list[str]:
    """A side's activations as written: one text or a list."""
    return [value] if isinstance(value, str) else list(value)


def exchange_job(spec: Any, cat: Catalog, edition: str) -> tuple[ExchangeJob, Selection]:
    """The job of a run's ``exchange`` (a :class:`~wh40k_calc.batch.ExchangeSpec`) and the
    Selection its row is keyed by (side A's first activation against side B, with B's wounded
    model).

    Raises:
        SideError: a side's activation that does not parse or is impossible.
        OrderError: activations that cannot be ordered.
        ExchangeError: a unit whose start is impossible.
        ValueError: both ``rounds`` and ``turns``.
    """
    from ..options import Edition, EngineOptions
    from .setup import build_setup
    from .sides import build_side

    if spec.rounds is not None and spec.turns is not None:
        raise ValueError("give rounds or turns, not both")
    turns = spec.turns if spec.turns is not None else 2 * (spec.rounds or 1)
    a_texts, b_texts = texts(spec.side_a), texts(spec.side_b)
    a, b = build_side("a", a_texts, cat), build_side("b", b_texts, cat)
    engine = EngineOptions(edition=Edition(edition))
    setup = build_setup(a, b, cat, engine, turns, spec.first, spec.fight_first)
    key = (tuple(a_texts), tuple(b_texts), turns, spec.first, spec.fight_first, edition)
    k = next(i for i, p in enumerate(setup.steps) if p.side == "a") if setup.steps else 0
    sel = replace(setup.selections[k], target_wounds_left=b.wounds_left) if setup.steps else None
    if sel is None:
        from .sides import SideError

        raise SideError("a", a_texts[0], "no activation of side A is made in these turns")
    return ExchangeJob(key, setup), sel


def auto_name(spec: Any) -> str:
    """A run's name from its exchange: ``boyz vs intercessor-squad``."""

    def unit(value: str | list[str]) -> str:
        words = texts(value)[0].split()
        return words[1] if len(words) > 1 else texts(value)[0]

    return f"{unit(spec.side_a)} vs {unit(spec.side_b)}"

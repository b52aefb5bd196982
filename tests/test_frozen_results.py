"""Plan, Result and Outcome are made once and frozen (issue 21, C: "today fields are set after
construction in rules/base.plan and resolve.py"; the plan is now rules/activation.py's):
assigning to one raises, a change is a new object, and an Outcome's lazy damage distribution
stays uncalled through a change."""

from __future__ import annotations

import numpy as np
import pytest

from wh40k_calc.catalog import SHIPPED
from wh40k_calc.datasheet import load_datasheet
from wh40k_calc.engine.outcome import Outcome
from wh40k_calc.resolve import resolve
from wh40k_calc.selection import Selection, UnitChoice

LOOTAS = load_datasheet(SHIPPED / "orks" / "lootas.yaml")
BOYZ = load_datasheet(SHIPPED / "orks" / "boyz.yaml")


def test_a_resolved_activation_cannot_be_changed_after_the_fact() -> None:
    res = resolve(Selection("shooting", UnitChoice(LOOTAS), UnitChoice(BOYZ)), "both", 200, 1)
    assert res.exact is not None and res.sample is not None
    for obj, name, value in [
        (res, "method", "sample"),
        (res, "exact", None),
        (res.plan, "notes", []),
        (res.plan, "build", None),
        (res.exact, "expected", {}),
        (res.sample, "dice_drawn", 0),
        (res.exact, "damage_distribution", np.zeros(1)),
    ]:
        # a frozen record (msgspec) or dataclass (FrozenInstanceError is an AttributeError)
        with pytest.raises(AttributeError):
            setattr(obj, name, value)


def test_replaced_keeps_a_lazy_damage_distribution_lazy() -> None:
    calls: list[int] = []

    def damage() -> np.ndarray:
        calls.append(1)
        return np.array([0.5, 0.5])

    o = Outcome("exact", [], {"wounds_lost": 1.0}, np.array([1.0]), damage, np.array([1.0]), [], {})
    changed = o.replaced(trials=7)
    assert changed is not o and changed.trials == 7 and o.trials == 0
    assert calls == []  # neither copy has read it yet
    assert list(changed.damage_distribution) == [0.5, 0.5] and calls == [1]
    assert list(changed.damage_distribution) == [0.5, 0.5] and calls == [1]  # read once, kept
    assert list(o.replaced(damage_distribution=np.zeros(2)).damage_distribution) == [0.0, 0.0]

"""300 random (attacker, target) pairs of shipped datasheets shoot and fight with no traceback
(issue 9, "Done when"). A pair may be refused with a reason (a unit with no ranged weapon); any
other exception is a failure. It takes a few seconds, so it runs with the others."""

from __future__ import annotations

import random
import traceback

from wh40k_calc.catalog import Catalog
from wh40k_calc.datasheet import DatasheetError
from wh40k_calc.resolve import resolve
from wh40k_calc.selection import Selection, SelectionError, UnitChoice

PAIRS = 300


def test_random_pairs_shoot_and_fight_without_tracebacks() -> None:
    cat = Catalog(use_env=False, home=None)
    entries = cat.entries()
    rng = random.Random(9)
    crashes: list[str] = []
    refused = ran = 0
    for i in range(PAIRS):
        a, t = rng.choice(entries), rng.choice(entries)
        for phase in ("shooting", "fight"):
            try:
                sel = Selection(
                    phase=phase,
                    attacker=UnitChoice(cat.find(a.qualified, a.faction or None)),
                    target=UnitChoice(cat.find(t.qualified, t.faction or None)),
                    edition="11" if i % 4 == 3 else "10",
                )
                resolve(sel, "exact", trials=2000, seed=i)
                ran += 1
            except (SelectionError, DatasheetError):
                refused += 1
            except Exception:
                crashes.append(f"{a.qualified} {phase} {t.qualified}:\n{traceback.format_exc()}")
    assert crashes == [], f"{len(crashes)} crashes; first:\n{crashes[0]}"
    assert ran > PAIRS  # most pairs can do both
    print(f"{ran} activations resolved, {refused} refused with a reason")

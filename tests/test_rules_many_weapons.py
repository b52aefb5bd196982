"""A datasheet with very many weapons resolves in linear work (issue 21, A1: 120,000 weapons, a
file under the size cap, took 97 s and 940 MB: each weapon's place in the datasheet was
looked up with ``list.index``, and each equipped weapon by scanning every weapon).

Counted, not timed: the weapon names and keys are a ``str`` subclass that counts its equality
comparisons, so a lookup that scans a list shows up as comparisons however fast it runs in C.
Linear work makes a bounded number per weapon; quadratic work grows with the square, and the
test compares two sizes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wh40k_calc.catalog import SHIPPED
from wh40k_calc.datasheet import Weapon, load_datasheet, norm_name
from wh40k_calc.records import replace
from wh40k_calc.rules import get_rules
from wh40k_calc.selection import Selection, UnitChoice


class Counted(str):
    """A name that counts how often it is compared for equality."""

    compares = 0

    def __eq__(self, other: object) -> bool:
        Counted.compares += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def armoury(tmp_path: Path, n: int):
    """A one-model unit carrying ``n`` distinct guns (every one it lists), names counted."""
    guns = "".join(
        f"  - {{name: Gun {i}, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}}\n" for i in range(n)
    )
    equipped = ", ".join(f"gun {i}" for i in range(n))
    path = tmp_path / f"armoury-{n}.yaml"
    path.write_text(
        f"name: Armoury {n}\nfaction: Orks\nkeywords: [INFANTRY]\n"
        f"models:\n  - {{name: Gunner, M: 6, T: 4, Sv: 4, W: 2, Ld: 7, OC: 1, "
        f"equipped: [{equipped}]}}\n"
        f"sizes:\n  - {{models: {{Gunner: 1}}, points: 10}}\n"
        f"weapons:\n{guns}",
        encoding="utf-8",
    )
    ds = load_datasheet(path)
    return replace(ds, weapons=tuple(replace(w, name=Counted(w.name)) for w in ds.weapons))


def comparisons(tmp_path: Path, n: int, monkeypatch, edition: str) -> int:
    """Name comparisons made to plan and build the activation of ``n`` guns into Boyz."""
    ds = armoury(tmp_path, n)
    monkeypatch.setattr(Weapon, "key", property(lambda w: Counted(norm_name(w.name))))
    boyz = load_datasheet(SHIPPED / "orks" / "boyz.yaml")
    sel = Selection(
        phase="shooting", attacker=UnitChoice(ds), target=UnitChoice(boyz), edition=edition
    )
    Counted.compares = 0
    plan = get_rules(edition).plan(sel)
    act = plan.build(tuple(0 for _ in plan.groups), 0, None)
    assert len(act.weapons) == n  # every gun attacks: the lookups really ran
    return Counted.compares


@pytest.mark.parametrize("edition", ["10", "11"])
def test_many_weapons_resolve_in_linear_work(tmp_path, monkeypatch, edition) -> None:
    """Before the fix: 320,023 comparisons for 400 guns and 5,681,423 for 1,600 (x17.8);
    after it about 2-3 a gun (dictionary probes), so x4 the guns stays well under x8."""
    small, large = 400, 1600  # x4 the weapons: about x4 the work if linear, x16 if quadratic
    few = comparisons(tmp_path, small, monkeypatch, edition)
    many = comparisons(tmp_path, large, monkeypatch, edition)
    assert many <= 8 * few, (few, many)
    assert many <= 10 * large, many  # a few lookups per weapon, not one per pair

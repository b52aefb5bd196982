"""An invulnerable save held for one kind of attack only (``invuln_ranged_only`` /
``invuln_melee_only``, DATASHEET_FORMAT.md): it is taken against that kind of attack and never
against the other (edition 11 data: "4+ against melee attacks only"; Core rules: Invulnerable
Saves). Hand-worked: the target's Sv is 7+ (no armour save), so every wound is a failed save
unless the invulnerable save applies; a 4+ invulnerable save fails on 1-3, 3/6 of the wounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import fight, model, shoot, weapon, write_unit


def _units(tmp_path: Path, **defence) -> tuple[str, str]:
    gun = weapon("Gun", A=6, skill=3, S=4, AP=0, D=1)
    blade = weapon("Blade", range="melee", A=6, skill=3, S=4, AP=0, D=1)
    attacker = model("Gunner", equipped=["Gun", "Blade"])
    write_unit(tmp_path, "gunners", models=[(attacker, 1)], weapons=[gun, blade])
    target = {**model("Ward", T=4, Sv=7), **defence}
    write_unit(tmp_path, "wards", models=[(target, 10)])
    return "gunners", "wards"


@pytest.mark.parametrize("edition", ["10", "11"])
@pytest.mark.parametrize(
    ("defence", "ranged_fail", "melee_fail"),
    [
        ({"invuln": 4, "invuln_melee_only": True}, 1.0, 0.5),
        ({"invuln": 4, "invuln_ranged_only": True}, 0.5, 1.0),
        ({"invuln": 4}, 0.5, 0.5),
    ],
)
def test_an_invulnerable_save_for_one_kind_of_attack(
    tmp_path: Path, edition: str, defence: dict, ranged_fail: float, melee_fail: float
) -> None:
    a, t = _units(tmp_path, **defence)
    flags = ("--edition", edition)
    for out, fail in (
        (shoot(a, t, *flags, dirs=[tmp_path]), ranged_fail),
        (fight(a, t, *flags, dirs=[tmp_path]), melee_fail),
    ):
        row = out["expected"]
        assert row["wounds"] > 0
        assert row["failed_saves"] == pytest.approx(row["wounds"] * fail, abs=1e-6)

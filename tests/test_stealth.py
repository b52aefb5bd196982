"""Stealth (a unit ability; datasheet field `stealth: true` per model, or `--target-stealth`).

10th edition (issue 9, the rule in our words): "-1 to ranged Hit rolls against the unit (inside
the ±1 cap) only while *every* model of the unit has it (an Attached unit whose Leader lacks it
gets none)". Edition 11 (seeds README, [STEALTH]): "if every model in the unit has it, the unit
has the benefit of cover against ranged attacks" (tests/test_edition11_rules.py).

Every figure: 6 shots at BS3+, S8 into T4 models with no save (W1), so hits decide everything.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from oracle import approx, attacker, fight, melee, model, shoot, target, weapon, weapon_row

GUN = weapon(A=6, skill=3, S=8)


def sneaks(folder: Path, leader_stealth: bool | None = None) -> str:
    """10 Sneaks (T4, no save, Stealth); with ``leader_stealth`` not None, a Boss datasheet
    (CHARACTER, Leader of Sneaks) with or without Stealth is written too."""
    sheet = {
        "name": "Sneaks",
        "faction": "Testers",
        "keywords": ["INFANTRY"],
        "models": [{**model("Sneak", T=4, Sv=7), "stealth": True}],
        "sizes": [{"models": {"Sneak": 10}, "points": 100}],
    }
    (folder / "sneaks.yaml").write_text(yaml.safe_dump(sheet))
    if leader_stealth is not None:
        boss = {
            "name": "Boss",
            "faction": "Testers",
            "keywords": ["INFANTRY", "CHARACTER"],
            "models": [{**model("Boss", T=4, Sv=7, W=3), "stealth": leader_stealth}],
            "sizes": [{"models": {"Boss": 1}, "points": 50}],
            "leader_of": ["Sneaks"],
        }
        (folder / "boss.yaml").write_text(yaml.safe_dump(boss))
    return "sneaks"


def hits(out: dict) -> float:
    return weapon_row(out)["hits"]


def test_stealth_minus_one_to_ranged_hit_rolls(tmp_path):
    """BS3+ with -1: 4+: 6 x 3/6 = 3.0; said in the notes."""
    out = shoot(attacker(tmp_path, GUN), sneaks(tmp_path), dirs=[tmp_path])
    assert hits(out) == approx(3)
    assert any("Stealth" in n and "-1" in n for n in out["notes"])


def test_stealth_is_inside_the_cap(tmp_path):
    """Stealth (-1) and --hit-mod -1: capped at -1: still 4+: 3.0; with --hit-mod 1 the sum
    is 0: 3+: 4.0."""
    a, t = attacker(tmp_path, GUN), sneaks(tmp_path)
    assert hits(shoot(a, t, "--hit-mod", "-1", dirs=[tmp_path])) == approx(3)
    assert hits(shoot(a, t, "--hit-mod", "1", dirs=[tmp_path])) == approx(4)


def test_stealth_does_not_touch_melee(tmp_path):
    """Ranged Hit rolls only: a WS3+ blade hits on 3+: 4.0."""
    a = attacker(tmp_path, melee(A=6, skill=3, S=8))
    assert hits(fight(a, sneaks(tmp_path), dirs=[tmp_path])) == approx(4)


def test_stealth_and_cover_both_apply_in_10th(tmp_path):
    """In 10th edition Stealth is a Hit modifier and cover a save bonus: both apply. Hits 3.0;
    wounds 2.5; Sv 7+ in cover saves on a 6: failed saves 2.5 x 5/6."""
    out = shoot(attacker(tmp_path, GUN), sneaks(tmp_path), "--cover", dirs=[tmp_path])
    assert hits(out) == approx(3)
    assert weapon_row(out)["failed_saves"] == approx(2.5 * 5 / 6)


def test_ignores_cover_does_not_remove_10th_edition_stealth(tmp_path):
    """[IGNORES COVER] removes the Benefit of Cover; 10th-edition Stealth is not cover: 3.0."""
    a = attacker(tmp_path, weapon(A=6, skill=3, S=8, abilities=["ignores cover"]))
    assert hits(shoot(a, sneaks(tmp_path), dirs=[tmp_path])) == approx(3)


def test_attached_unit_whose_leader_lacks_stealth_has_none(tmp_path):
    """Sneaks led by a Boss without Stealth: not every model has it: 4.0 hits, and a note says
    why; led by a Boss with Stealth: 3.0."""
    a = attacker(tmp_path / "attacker", GUN)
    for stealthy, want in ((False, 4), (True, 3)):
        folder = tmp_path / str(stealthy)  # (a folder is searched with its subfolders)
        folder.mkdir()
        t = sneaks(folder, leader_stealth=stealthy)
        out = shoot(a, t, "--target-leader", "boss", dirs=[tmp_path / "attacker", folder])
        assert hits(out) == approx(want)
        assert any("not every model" in n for n in out["notes"]) is not stealthy


def test_target_stealth_option(tmp_path):
    """--target-stealth on a unit without Stealth: 3.0; JSON modifiers.target_stealth."""
    out = shoot(attacker(tmp_path, GUN), target(tmp_path, T=4, Sv=7), "--target-stealth",
                dirs=[tmp_path])  # fmt: skip
    assert hits(out) == approx(3)
    assert out["modifiers"]["target_stealth"] is True


def test_target_stealth_into_an_attached_unit(tmp_path):
    """--target-stealth marks the whole target: an Attached unit whose Leader lacks Stealth has
    it all the same: 3.0."""
    t = sneaks(tmp_path, leader_stealth=False)
    out = shoot(attacker(tmp_path, GUN), t, "--target-leader", "boss", "--target-stealth",
                dirs=[tmp_path])  # fmt: skip
    assert hits(out) == approx(3)


def test_an_effects_stealth_is_not_the_benefit_of_cover_in_10th_edition():
    """Shrouding (the Librarian in Phobos Armour's Stealth while it leads) into Infiltrators:
    -1 to hit, and no +1 to the save (10th-edition Stealth is not the Benefit of Cover). 4
    Deffguns (A2 BS6+ S8 AP-1): 8 attacks, only unmodified 6s hit, a 1 re-rolled (Dat's Our
    Loot): 8 x (1/6 + 1/6 x 1/6) = 14/9 hits; S8 v T4 2+: 35/27 wounds; Sv3+ with AP-1: 4+,
    so 35/54 failed saves (with a cover bonus it would be 3+: 35/81)."""
    from fractions import Fraction as Fr

    out = shoot("lootas", "infiltrator squad", "--target-leader", "librarian in phobos armour")
    assert "shrouding" in out["effects"]
    r = weapon_row(out, "Deffgun")
    assert r["hits"] == approx(Fr(14, 9))
    assert r["wounds"] == approx(Fr(35, 27))
    assert r["failed_saves"] == approx(Fr(35, 54))

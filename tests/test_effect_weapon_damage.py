"""The weapon-profile condition ``weapon_damage`` (an attack whose unmodified Damage
characteristic is N) and the armour-only save modifier ``armour_save_mod``
(wh40k_calc/effect_schema.py), each against values worked out by hand, in both editions, and
the shipped records that use them (Thousand Sons' All is Dust, Grey Knights' Warding Chant).

Standard units (as tests/test_effect_vocabulary.py): a ``flamer`` of 12 automatic hits S4
(6 wounds against T4); ``big``: one model T4 W40 (no damage wasted)."""

from __future__ import annotations

from fractions import Fraction as Fr
from pathlib import Path

import pytest
from oracle import approx, attacker, shoot, target, weapon, weapon_row

from wh40k_calc.effect_schema import EffectFileError, load_effect_file

EDITIONS = ("10", "11")
BOTH = pytest.mark.parametrize("edition", EDITIONS)
SHARED = Path(__file__).resolve().parents[2] / "shared"


def rec(*changes: dict, side: str = "target", **fields) -> dict:
    out = {"id": "x", "name": "X", "kind": "stratagem", "summary": "s", "side": side}
    out.update(changes=list(changes), **fields)
    return out


def flamer(tmp, D="1", AP=0, S=4) -> str:
    d = int(D) if D.isdigit() else D
    w = weapon(A=12, skill=None, S=S, AP=AP, D=d, abilities=["torrent"])
    return attacker(tmp, w, stem=f"flamer-{str(D).lower()}")


def ed(edition: str) -> tuple[str, ...]:
    return ("--edition", edition)


ARMOUR_D1 = {"armour_save_mod": 1, "when": {"weapon_damage": 1}}


@BOTH
@pytest.mark.parametrize(
    ("D", "AP", "failed"),
    [
        # Damage 1, AP 0: Sv 3+ becomes 2+: 6 wounds x 1/6 failed (2 without the rule)
        ("1", 0, 1),
        # Damage 1, AP-2: armour 3+ -2 +1 = 4+ (3 failed); the 5+ invulnerable save does not
        # improve, so it is not taken (4 failed without the rule: 5+ either way)
        ("1", -2, 3),
        # Damage 1, AP-3: armour 3+ -3 +1 = 5+, the same as the 5+ invulnerable save, which
        # the bonus never reaches (a +1 there would make it 4+: 3 failed): 4 failed
        ("1", -3, 4),
        # random Damage is not "Damage 1" (even when it rolls 1): Sv 3+ stays: 2 failed
        ("D3", 0, 2),
        # Damage 2: not 1: 2 failed
        ("2", 0, 2),
    ],
)
def test_armour_save_mod_against_damage_1(tmp_path, fx, edition, D, AP, failed):
    fx(rec(ARMOUR_D1))
    t = target(tmp_path, models=20, T=4, Sv=3, W=1, invuln=5)
    out = shoot(flamer(tmp_path, D=D, AP=AP), t, "--effect", "x", *ed(edition), dirs=[tmp_path])
    assert weapon_row(out)["failed_saves"] == approx(failed)


@BOTH
def test_the_condition_reads_the_damage_before_modifiers(tmp_path, fx, edition):
    """A Damage 1 weapon given +1 Damage (``--damage-mod 1``) still has an unmodified Damage
    characteristic of 1: Sv 3+ becomes 2+ (1 failed save of 6 wounds, not 2)."""
    fx(rec(ARMOUR_D1))
    t = target(tmp_path, models=20, T=4, Sv=3, W=2)
    out = shoot(
        flamer(tmp_path), t, "--effect", "x", "--damage-mod", "1", *ed(edition), dirs=[tmp_path]
    )
    assert weapon_row(out)["failed_saves"] == approx(1)


@BOTH
def test_armour_save_mod_within_the_save_cap(tmp_path, fx, edition):
    """The armour-only +1 and ``--save-mod 1`` add up to +2, capped at +1 (Sv 4+ becomes 3+):
    6 wounds x 2/6 = 2 failed."""
    fx(rec(ARMOUR_D1))
    t = target(tmp_path, models=20, T=4, Sv=4, W=1)
    out = shoot(
        flamer(tmp_path), t, "--effect", "x", "--save-mod", "1", *ed(edition), dirs=[tmp_path]
    )
    assert weapon_row(out)["failed_saves"] == approx(2)


@BOTH
@pytest.mark.parametrize(("D", "damage"), [("1", 6 * Fr(4, 6)), ("2", 12), ("D3", 12)])
def test_weapon_damage_on_feel_no_pain(tmp_path, fx, edition, D, damage):
    """Feel No Pain 5+ against Damage 1 weapons only (Warding Chant's form), no save, W40:
    6 wounds of Damage 1, each kept with 4/6: 4; Damage 2: 12; D3 (mean 2): 12, no Feel No
    Pain."""
    fx(rec({"fnp": 5, "when": {"weapon_damage": 1}}))
    big = target(tmp_path, models=1, T=4, Sv=7, W=40, stem="big")
    out = shoot(flamer(tmp_path, D=D), big, "--effect", "x", *ed(edition), dirs=[tmp_path])
    assert weapon_row(out)["damage"] == approx(damage)


@BOTH
def test_weapon_damage_on_an_attacker_change(tmp_path, fx, edition):
    """An attacker-side change read per weapon: +1 S for Damage 2 weapons only (S4 into T4:
    4+ to wound, 6 wounds; S5: 3+, 8 wounds)."""
    fx(rec({"strength": 1, "when": {"weapon_damage": 2}}, side="attacker"))
    t = target(tmp_path, models=20, T=4, Sv=7, W=1)
    for D, wounds in (("2", 8), ("1", 6)):
        out = shoot(flamer(tmp_path, D=D), t, "--effect", "x", *ed(edition), dirs=[tmp_path])
        assert weapon_row(out)["wounds"] == approx(wounds)


HEAD = "schema: 1\nedition: 11\nfaction: Orks\ndata: {source: game-datacards, version: 912}\n"


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            "{id: x, name: X, kind: army, summary: s, side: target, when: {weapon_damage: 1}, "
            "changes: [{save_mod: 1}]}",
            "when.weapon_damage: a weapon's condition goes on a change",
        ),
        (
            "{id: x, name: X, kind: army, summary: s, side: attacker, "
            "changes: [{mortal_wounds: {dice: D3}, when: {weapon_damage: 1}}]}",
            "mortal_wounds is not a weapon's: no weapon condition",
        ),
        (
            "{id: x, name: X, kind: army, summary: s, side: target, "
            "changes: [{save_mod: 1, when: {weapon_damage: 0}}]}",
            "Expected `int` >= 1",
        ),
        (
            "{id: x, name: X, kind: army, summary: s, side: target, "
            "changes: [{save_mod: 1, when: {weapon_damage: D3}}]}",
            "weapon_damage",
        ),
        (
            "{id: x, name: X, kind: army, summary: s, side: attacker, "
            "changes: [{armour_save_mod: 1}]}",
            "armour_save_mod: a target-side change in an attacker-side record",
        ),
    ],
)
def test_malformed_weapon_conditions_are_refused_at_load(tmp_path, record, message):
    p = tmp_path / "orks.yaml"
    p.write_text(HEAD + f"effects:\n  - {record}\n", encoding="utf-8")
    with pytest.raises(EffectFileError) as e:
        load_effect_file(p)
    assert str(p) in str(e.value) and message in str(e.value)


def _needs_shared():
    if not (SHARED / "data").is_dir():
        pytest.skip(f"needs {SHARED} (the datasheet exports)")


def test_all_is_dust_on_rubric_marines():
    """Thousand Sons, Rubricae Phalanx, All is Dust (edition 11): Rubric Marines (Sv 3+,
    invulnerable 5+) against the Intercessors' bolt rifle (AP-1, Damage 1) save on 3+
    (3+ -1 +1) instead of 4+: failed saves x (2/6) / (3/6) = 2/3."""
    _needs_shared()
    import json

    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    base = ["shoot", "Adeptus Astartes/Intercessor Squad", "--edition", "11", "--json"]
    base += ["--target", "Thousand Sons/Rubric Marines"]
    runner = CliRunner()
    plain = runner.invoke(app, base)
    dust = runner.invoke(app, [*base, "--effect", "all-is-dust"])
    assert plain.exit_code == 0 and dust.exit_code == 0, (plain.stderr, dust.stderr)

    def rows(res):
        return {w["name"]: w["expected"] for w in json.loads(res.stdout)["weapons"]}

    p, d = rows(plain), rows(dust)
    rifle = next(n for n in p if "bolt rifle" in n.lower())
    assert d[rifle]["failed_saves"] == approx(p[rifle]["failed_saves"] * Fr(2, 3))


def test_fleshmetal_fusion_with_unnatural_fortitude():
    """Chaos Knights, Infernal Lance, Fleshmetal Fusion (edition 11): +1 T for the bearer, and
    while it uses Unnatural Fortitude (the option) +1 to its armour saves against Damage 1
    attacks. A Knight Desecrator (Sv 3+) shot by bolt rifles (AP-1, D1): without the option
    its saves are unchanged (S4 into T12 or T13: 6+ to wound either way); with it, armour
    4+ becomes 3+: failed saves x 2/3."""
    _needs_shared()
    import json

    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    base = ["shoot", "Adeptus Astartes/Intercessor Squad", "--edition", "11", "--json"]
    base += ["--target", "Chaos Knights/Knight Desecrator"]
    runner = CliRunner()

    def rifle(*extra):
        res = runner.invoke(app, [*base, *extra])
        assert res.exit_code == 0, res.stderr
        rows = {w["name"]: w["expected"] for w in json.loads(res.stdout)["weapons"]}
        return next(v for n, v in rows.items() if "bolt rifle" in n.lower())

    plain = rifle()
    fused = rifle("--effect", "fleshmetal-fusion")
    fortified = rifle("--effect", "fleshmetal-fusion:unnatural-fortitude")
    assert fused["failed_saves"] == approx(plain["failed_saves"])
    assert fortified["failed_saves"] == approx(plain["failed_saves"] * Fr(2, 3))

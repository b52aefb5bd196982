"""Mortal wounds: [DEVASTATING WOUNDS] (no spill-over, after all normal damage), the Grenade
stratagem and Bloody Stampede (spilling over), Feel No Pain against mortal wounds, and
10th-edition Hazardous tests on the attacker.

Rules (seed 000, 10th edition):

* Devastating Wounds: "Such attacks are only allocated to models after all other attacks made
  by the attacking unit have been allocated and resolved. [...] it inflicts a number of mortal
  wounds on the target equal to the Damage characteristic of that attack".
* Mortal Wounds: "each of those mortal wounds inflicts one point of damage [...] always applied
  one at a time. [...] Excess damage from mortal wounds is not lost if the damage can be
  allocated to another model." and "If mortal wounds are being inflicted as a result of the
  [HAZARDOUS] ability or by an attack with the [DEVASTATING WOUNDS] ability that scored a
  Critical Wound, [...] if that model is destroyed as a result of those mortal wounds, the
  remaining mortal wounds from that attack are lost".
* GRENADE: "Roll six D6: for each 4+, that enemy unit suffers 1 mortal wound."
* Bloody Stampede (seed 004, Lord Invocatus): "roll one D6: on a 2-3, that enemy unit suffers
  1 mortal wound; on a 4-5, that enemy unit suffers D3 mortal wounds; on a 6, that enemy unit
  suffers D3+3 mortal wounds."
* Feel No Pain (seeds README): "each time a model would lose a wound, roll one D6; on X+ that
  wound is not lost."
* Hazardous: "roll one D6: on a 1, that test is failed. For each failed test [...] If possible,
  select one model in that unit that has lost one or more wounds and is equipped with one or
  more Hazardous weapons. - Otherwise, if possible, select one model in that unit (excluding
  CHARACTER models) equipped with one or more Hazardous weapons. - Otherwise, select one
  CHARACTER model [...]" and "a model equipped with a hazardous weapon suffers 3 mortal
  wounds, that must be allocated to the selected model."

Test units are in tests/data/alloc/. CLI figures come from the JSON (rounded to 6 decimals,
compared to 1e-6); the sampler (--method both) is checked within 5 standard errors computed
from the hand-derived distribution (floored at 1/trials). Profile-level tests compare the exact
engine to 1e-9.
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from helpers import TRIALS, binom, both_json, check_models, conv, se_mean, se_p
from typer.testing import CliRunner

from wh40k_calc.catalog import Catalog
from wh40k_calc.cli import app
from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.profile import (
    CRIT_WOUND,
    Activation,
    AttackProfile,
    DamageTable,
    RollTable,
    TargetModel,
    TargetProfile,
    VsModel,
)
from wh40k_calc.resolve import resolve
from wh40k_calc.selection import Conditions, Modifiers, Selection, UnitChoice

DATA = Path(__file__).parent / "data" / "alloc"
SEED = 4_242


calc = partial(both_json, dirs=[DATA], seed=SEED)  # exact and sampled JSON


# ---------------------------------------------------------------------------------------------
# Profile level: Devastating Wounds


def _dev_weapon(dmg: dict[int, float], attacks: int = 1) -> AttackProfile:
    """``attacks`` attacks that hit and always score a Critical Wound, [DEVASTATING WOUNDS]."""
    a = np.zeros(attacks + 1)
    a[attacks] = 1.0
    vals = sorted(dmg)
    table = DamageTable(tuple(dmg[v] for v in vals), tuple(vals))
    return AttackProfile(
        name="dev",
        models=1,
        attacks=a,
        hit=RollTable((0, 1, 1, 1, 1, 1, 1)),
        wound=RollTable((0, *([CRIT_WOUND] * 6))),
        vs=(VsModel(RollTable((0, 0, 1, 1, 1, 1, 1)), table),),  # a 2+ save: never taken
        devastating=True,
    )


def _plain(n: int, w: int) -> TargetProfile:
    return TargetProfile("T", tuple(TargetModel(f"m{i}", w, 0) for i in range(n)), (), ("k",))


def test_devastating_d3_into_w1_models_destroys_exactly_one():
    # One Critical Wound with D3 damage: 1-3 mortal wounds, no save (the 2+ save is never
    # used). "the remaining mortal wounds from that attack are lost": exactly one W1 model.
    act = Activation((_dev_weapon({1: 1 / 3, 2: 1 / 3, 3: 1 / 3}),), _plain(5, 1))
    ex = run_exact(act)
    np.testing.assert_allclose(ex.models_destroyed_distribution, [0, 1, 0, 0, 0, 0], atol=1e-9)
    np.testing.assert_allclose(ex.wounds_lost_distribution, [0, 1, 0, 0, 0, 0], atol=1e-9)
    assert ex.expected["mortal_wounds"] == pytest.approx(2.0, abs=1e-9)  # E[D3]
    sa = run_sample(act, trials=5_000, seed=SEED)
    assert sa.models_destroyed_distribution[1] == 1.0


def test_devastating_d3_into_w2_models():
    # Against W2 models: 1 mortal wound (1/3) leaves the model on 1 wound; 2 or 3 (2/3)
    # destroy it and any third is lost. Models destroyed (2/3 one, 1/3 none); wounds lost
    # 1 w.p. 1/3, 2 w.p. 2/3.
    act = Activation((_dev_weapon({1: 1 / 3, 2: 1 / 3, 3: 1 / 3}),), _plain(3, 2))
    ex = run_exact(act)
    np.testing.assert_allclose(ex.models_destroyed_distribution, [1 / 3, 2 / 3, 0, 0], atol=1e-9)
    np.testing.assert_allclose(ex.wounds_lost_distribution[:3], [0, 1 / 3, 2 / 3], atol=1e-9)
    sa = run_sample(act, trials=TRIALS, seed=SEED)
    assert abs(sa.models_destroyed_distribution[1] - 2 / 3) <= 5 * se_p(2 / 3)
    assert sa.models_destroyed_distribution[2] == 0.0


def test_devastating_mortal_wounds_come_after_later_normal_damage():
    # Weapon order: the Devastating weapon FIRST (one Critical Wound, Damage 1 -> 1 mortal
    # wound), then a plain weapon (one unsaved wound, Damage 2). Target: two W2 models.
    # Rule: mortal wounds "are only allocated to models after all other attacks made by the
    # attacking unit have been allocated and resolved". So: the Damage 2 wound destroys model
    # A, then the mortal wound makes B lose 1: 3 wounds lost, 1 model destroyed.
    # (Mortal wound first would leave A on 1 wound, the Damage 2 would have to go to A and
    # lose its excess: only 2 wounds lost.)
    plain = AttackProfile(
        name="plain",
        models=1,
        attacks=np.array([0.0, 1.0]),
        hit=RollTable((0, 1, 1, 1, 1, 1, 1)),
        wound=RollTable((0, 1, 1, 1, 1, 1, 1)),
        vs=(VsModel(None, DamageTable((1.0,), (2,))),),
    )
    act = Activation((_dev_weapon({1: 1.0}), plain), _plain(2, 2))
    ex = run_exact(act)
    np.testing.assert_allclose(ex.wounds_lost_distribution, [0, 0, 0, 1, 0], atol=1e-9)
    np.testing.assert_allclose(ex.models_destroyed_distribution, [0, 1, 0], atol=1e-9)
    sa = run_sample(act, trials=5_000, seed=SEED)
    assert sa.wounds_lost_distribution[3] == 1.0


# ---------------------------------------------------------------------------------------------
# CLI: Devastating Wounds


def test_blight_launcher_d3_devastating_into_grunts():
    # Blight launcher: 1 attack, [TORRENT] (1 hit), S1 vs T3 (6+ normally) but anti-infantry
    # 2+: unmodified 2-6 are Critical Wounds (5/6), 1 fails. Each Critical Wound: D3 mortal
    # wounds, no spill: exactly one W1 Grunt. P(1 destroyed) = 5/6, P(0) = 1/6.
    out = calc("shoot", "executioners", "--target", "grunts", "--target-models", "10")
    assert [w["name"] for w in out["weapons"]] == ["Blight launcher"]
    check_models(out, [F(1, 6), F(5, 6)], sampled_mean=True)
    # Expected mortal wounds: 5/6 * E[D3] = 5/6 * 2 = 5/3.
    assert out["expected"]["mortal_wounds"] == pytest.approx(5 / 3, abs=1e-6)


def test_blight_launcher_into_w2_ogres():
    # Against W2 Ogres: destroyed when the Critical Wound (5/6) rolls 2 or 3 (2/3): 5/9.
    out = calc("shoot", "executioners", "--target", "ogres", "--target-models", "10")
    check_models(out, [F(4, 9), F(5, 9)], sampled_mean=True)


def test_feel_no_pain_against_devastating_mortal_wounds():
    # --fnp-mortal 5: each mortal wound ignored w.p. 1/3. A Critical Wound (5/6) of d mortal
    # wounds destroys the W1 Grunt unless all d are ignored: 1 - (1/3)^d; over D3:
    # 1 - (1/3)(1/3 + 1/9 + 1/27) = 1 - 13/81 = 68/81. P(1 destroyed) = 5/6 * 68/81 = 170/243.
    out = calc(
        "shoot", "executioners", "--target", "grunts", "--target-models", "10", "--fnp-mortal", "5"
    )
    check_models(out, [1 - F(170, 243), F(170, 243)], sampled_mean=True)


def test_devastating_after_normal_damage_cli():
    # Pox launcher (listed first: 1 torrent attack, Critical Wound on 2+ vs INFANTRY = 5/6,
    # Devastating, Damage 1) and Mauler (listed after it: 1 torrent attack, S6 vs T3 2+ = 5/6,
    # Damage 2), into two W2 Ogres (no save). Mortal wounds after all normal damage:
    #   both (25/36): Mauler destroys A (2), the mortal wound hits B: 3 wounds lost;
    #   Mauler only (5/36): 2; Pox only (5/36): A loses 1: 1; neither (1/36): 0.
    # E[wounds lost] = (75 + 10 + 5)/36 = 5/2 (mortal wound first would give 65/36).
    # Models destroyed: 1 exactly when the Mauler wounds: 5/6.
    out = calc(
        "shoot",
        "executioners",
        "--weapon",
        "Pox launcher x1",
        "--weapon",
        "Mauler x1",
        "--target",
        "ogres",
        "--target-models",
        "2",
    )
    assert out["attacker"]["weapons_order"] == ["Pox launcher", "Mauler"]
    assert out["expected"]["wounds_lost"] == pytest.approx(2.5, abs=1e-6)
    wl = {0: F(1, 36), 1: F(5, 36), 2: F(5, 36), 3: F(25, 36)}
    assert abs(out["sample"]["expected"]["wounds_lost"] - 2.5) <= 5 * se_mean(wl)
    check_models(out, [F(1, 6), F(5, 6), F(0)], sampled_mean=True)


# ---------------------------------------------------------------------------------------------
# CLI: Grenade (spilling mortal wounds before the attacks)


def _stub_gun_plus(grenade: list[F]) -> list[F]:
    # The Grenadier's Stub gun: 1 attack, BS6+ (1/6), S1 vs T3 -> 6+ (1/6), no save, Damage 1:
    # one more point of damage w.p. 1/36, independent of the grenade.
    return conv(grenade, [F(35, 36), F(1, 36)])


def test_grenade_binomial_into_w1_models():
    # Six D6, each 4+ one mortal wound: K ~ Binomial(6, 1/2), P(K = k) = C(6, k)/64; each
    # destroys one W1 Grunt (10 in the unit, never exhausted). Plus the Stub gun.
    out = calc(
        "shoot", "grenadiers", "--target", "grunts", "--target-models", "10", "--effect", "grenade"
    )
    grenade = [F(math.comb(6, k), 64) for k in range(7)]
    check_models(out, _stub_gun_plus(grenade), sampled_mean=True)
    rows = {w["name"]: w for w in out["weapons"]}
    assert rows["Grenade"]["expected"]["mortal_wounds"] == pytest.approx(3.0, abs=1e-6)


def test_grenade_spills_over_w2_models():
    # Against W2 Ogres every point is 1 damage, one at a time, wounded model first, and
    # "Excess damage from mortal wounds is not lost": with T = K + (Stub gun point) points in
    # total, floor(T/2) Ogres are destroyed.
    out = calc(
        "shoot", "grenadiers", "--target", "ogres", "--target-models", "10", "--effect", "grenade"
    )
    points = _stub_gun_plus([F(math.comb(6, k), 64) for k in range(7)])
    dist = [F(0)] * 11
    for t, p in enumerate(points):
        dist[t // 2] += p
    check_models(out, dist, sampled_mean=True)


def test_grenade_with_feel_no_pain_against_mortal_wounds():
    # --fnp-mortal 5: each grenade die inflicts a wound that is lost w.p. 1/2 * 2/3 = 1/3:
    # K ~ Binomial(6, 1/3). The Stub gun's normal damage is not affected (1/36 still).
    out = calc(
        "shoot",
        "grenadiers",
        "--target",
        "grunts",
        "--target-models",
        "10",
        "--effect",
        "grenade",
        "--fnp-mortal",
        "5",
    )
    check_models(out, _stub_gun_plus(binom(6, F(1, 3))), sampled_mean=True)


def test_grenade_before_a_blast_weapon_changes_its_attacks():
    # Blast: "add 1 to the result for every five models that were in the target unit when you
    # selected it as the target". The grenade is resolved before the unit shoots, so the
    # Flamer (A1, [TORRENT, BLAST], S6 vs T3: 2+ = 5/6, D1, no save) sees 10 - K Grunts:
    # K = 0: 10 models -> 3 attacks; 1 <= K <= 5: 5-9 models -> 2; K = 6: 4 models -> 1.
    # E[attacks] = 3/64 + 2 * 62/64 + 1/64 = 2. Each wound destroys one more W1 Grunt (at most
    # 6 + 1 or 0 + 3 of 10): destroyed = K + Binomial(a(K), 5/6).
    out = calc(
        "shoot",
        "grenadiers",
        "--loadout",
        "flamer",
        "--target",
        "grunts",
        "--target-models",
        "10",
        "--effect",
        "grenade",
    )
    dist = [F(0)] * 11
    for k in range(7):
        a = 3 if k == 0 else (1 if k == 6 else 2)
        for j, p in enumerate(binom(a, F(5, 6))):
            dist[k + j] += F(math.comb(6, k), 64) * p
    rows = {w["name"]: w for w in out["weapons"]}
    assert rows["Flamer"]["expected"]["attacks"] == pytest.approx(2.0, abs=1e-6)
    check_models(out, dist, sampled_mean=True)


# ---------------------------------------------------------------------------------------------
# Bloody Stampede

# D6: 1 nothing; 2-3 one; 4-5 D3; 6 D3+3:
# P(0) = 1/6; P(1) = 2/6 + 2/6*1/3 = 4/9; P(2) = P(3) = 2/6*1/3 = 1/9;
# P(4) = P(5) = P(6) = 1/6*1/3 = 1/18. Mean: 2/6*1 + 2/6*2 + 1/6*5 = 11/6.
STAMPEDE = [F(1, 6), F(4, 9), F(1, 9), F(1, 9), F(1, 18), F(1, 18), F(1, 18)]


def _invocatus_activation(target: str, models: int, fnp_mortal: int | None = None) -> Activation:
    cat = Catalog([DATA])
    sel = Selection(
        phase="fight",
        attacker=UnitChoice(cat.find("lord invocatus")),
        target=UnitChoice(cat.find(target), models),
        conditions=Conditions(charged=True),
        modifiers=Modifiers(fnp_mortal=fnp_mortal),
    )
    return resolve(sel, "exact").activation


def test_bloody_stampede_count_distribution():
    act = _invocatus_activation("grunts", 20)
    (src,) = act.before
    np.testing.assert_allclose(src.count, [float(p) for p in STAMPEDE], atol=1e-12)


@pytest.mark.parametrize(("target", "wounds"), [("grunts", 1), ("ogres", 2)])
def test_bloody_stampede_alone_spills(target, wounds):
    # The mortal wounds alone (the Lord's attacks removed): against W1 models K models are
    # destroyed; against W2 models, spilling one at a time, floor(K/2).
    act = _invocatus_activation(target, 10)
    act = Activation((), act.target, act.before)
    dist = [0.0] * 11
    for k, p in enumerate(STAMPEDE):
        dist[k // wounds] += float(p)
    ex = run_exact(act)
    np.testing.assert_allclose(ex.models_destroyed_distribution, dist, atol=1e-9)
    sa = run_sample(act, trials=TRIALS, seed=SEED)
    for k, p in enumerate(dist):
        assert abs(sa.models_destroyed_distribution[k] - p) <= 5 * se_p(p), k


def test_bloody_stampede_with_feel_no_pain_against_mortal_wounds():
    # Feel No Pain 5+ against mortal wounds: each of the K mortal wounds is lost w.p. 2/3
    # (ignored 1/3), one roll per mortal wound; against W1 models the number destroyed is
    # Binomial(K, 2/3) given K.
    act = _invocatus_activation("grunts", 10, fnp_mortal=5)
    act = Activation((), act.target, act.before)
    dist = [F(0)] * 11
    for k, p in enumerate(STAMPEDE):
        for j, q in enumerate(binom(k, F(2, 3))):
            dist[j] += p * q
    want = [float(p) for p in dist]
    ex = run_exact(act)
    np.testing.assert_allclose(ex.models_destroyed_distribution, want, atol=1e-9)
    sa = run_sample(act, trials=TRIALS, seed=SEED)
    for k, p in enumerate(want):
        assert abs(sa.models_destroyed_distribution[k] - p) <= 5 * se_p(p), k


def test_lord_invocatus_charge_with_bloody_stampede_cli():
    # 20 Grunts (W1, T3, no save), --charged. Bloody Stampede first (K ~ STAMPEDE), then the
    # Lord fights with Coward's Bane AND the Bladed horn ([EXTRA ATTACKS]):
    #   Coward's Bane A7 WS2+ (5/6) S6 vs T3 (2+, 5/6): a normal wound (Damage 2, no save)
    #   or a Critical Wound (Devastating: 2 mortal wounds, no spill) each destroy exactly one
    #   Grunt: 25/36 per attack.
    #   Bladed horn A4 WS3+ (4/6) S6 2+ (Lance +1 changes nothing: a 1 still fails): 20/36.
    # At most 6 + 7 + 4 = 17 < 20 models, so models destroyed =
    # K + Binomial(7, 25/36) + Binomial(4, 5/9).
    out = calc(
        "fight", "lord-invocatus", "--target", "grunts", "--target-models", "20", "--charged"
    )
    names = [w["name"] for w in out["weapons"]]
    assert names == ["Bloody Stampede", "Coward's Bane", "Bladed horn"]
    assert "bloody-stampede" in out["effects"]
    rows = {w["name"]: w for w in out["weapons"]}
    assert rows["Bloody Stampede"]["expected"]["mortal_wounds"] == pytest.approx(11 / 6, abs=1e-6)
    dist = conv(conv(STAMPEDE, binom(7, F(25, 36))), binom(4, F(5, 9)))
    check_models(out, dist, sampled_mean=True)


def test_no_bloody_stampede_without_a_charge():
    out = calc("fight", "lord-invocatus", "--target", "grunts", "--target-models", "20")
    assert [w["name"] for w in out["weapons"]] == ["Coward's Bane", "Bladed horn"]
    check_models(out, conv(binom(7, F(25, 36)), binom(4, F(5, 9))), sampled_mean=True)


# ---------------------------------------------------------------------------------------------
# Hazardous (10th edition): the attacker's losses


def check_losses(out: dict, tests: int, models: dict[int, F]) -> None:
    """attacker_losses against: mortal wounds 3 x Binomial(tests, 1/6); models lost ``models``."""
    mw = {3 * k: p for k, p in enumerate(binom(tests, F(1, 6)))}
    want = {
        "hazard_mortal_wounds": sum(v * p for v, p in mw.items()),
        "models_destroyed": sum(k * p for k, p in models.items()),
        "at_least_one": sum(p for k, p in models.items() if k >= 1),
    }
    ses = {
        "hazard_mortal_wounds": se_mean(mw),
        "models_destroyed": se_mean(models),
        "at_least_one": se_p(float(want["at_least_one"])),
    }
    for key, value in want.items():
        assert out["attacker_losses"][key] == pytest.approx(float(value), abs=1e-6), key
        got = out["sample"]["attacker_losses"][key]
        assert abs(got - float(value)) <= 5 * ses[key], (key, got, value)


def test_hazardous_one_w1_bearer():
    # Lootas (5 models) with the kustom-mega-blastas loadout: one Spanner (W1) carries one.
    # One test, failed on a 1 (1/6): 3 mortal wounds destroy the Spanner.
    # E[mortal wounds] = 3/6 = 0.5, E[models] = P(at least one) = 1/6.
    out = calc("shoot", "lootas", "--loadout", "kustom-mega-blastas", "--target", "boyz")
    check_losses(out, 1, {0: F(5, 6), 1: F(1, 6)})


def test_hazardous_two_w1_bearers():
    # Lootas at 10 models: 2 Spanners with kustom mega-blastas: two tests; each failure
    # destroys one W1 Spanner. E[mortal wounds] = 2 * 3/6 = 1; models ~ Binomial(2, 1/6):
    # E = 2/6, P(at least one) = 1 - (5/6)^2 = 11/36.
    out = calc(
        "shoot", "lootas", "--loadout", "kustom-mega-blastas", "--models", "10", "--target", "boyz"
    )
    check_losses(out, 2, {0: F(25, 36), 1: F(10, 36), 2: F(1, 36)})


def test_hazardous_text_line():
    # The same figures in the text report: 1.000 mortal wounds, 0.333 models, 11/36 = 30.56%.
    result = CliRunner().invoke(
        app,
        ["shoot", "lootas", "--loadout", "kustom-mega-blastas", "--models", "10", "-t", "boyz"],
    )
    assert result.exit_code == 0, result.output
    assert (
        "Hazardous: 2 tests; attacker suffers 1.000 mortal wounds, loses 0.333 models; "
        "P(loses at least one) 30.56%"
    ) in " ".join(result.stdout.split())


def test_hazardous_one_w3_bearer_two_tests():
    # One W3 Ogryn with two Hazardous weapons: two tests; the first failure's 3 mortal wounds
    # destroy it (a second is lost on a destroyed model). P(lost) = 11/36; E[mw] = 1.
    out = calc("shoot", "ogryn", "--target", "grunts", "--target-models", "10")
    check_losses(out, 2, {0: F(25, 36), 1: F(11, 36)})


def test_hazardous_wounded_bearer_first():
    # Two W4 Bullgryns, one Hazardous weapon each: two tests. One failure: 3 mortal wounds, the
    # bearer survives on 1 wound. Two failures: the second must go to the wounded one ("has
    # lost one or more wounds"), which is destroyed (the rest lost). P(lost) = 1/36.
    out = calc("shoot", "bullgryns", "--target", "grunts", "--target-models", "10")
    check_losses(out, 2, {0: F(35, 36), 1: F(1, 36)})


def test_hazardous_non_character_bearer_before_character():
    # Hazard Squad: a CHARACTER Veteran (W4, listed first) and a Gunner (W1), each with a
    # Hazardous weapon: two tests. First failure: "(excluding CHARACTER models)" -> the
    # Gunner is destroyed. Second failure: no wounded bearer, no non-CHARACTER bearer left ->
    # the Veteran takes 3 and survives on 1. Models lost: 1 iff at least one failure:
    # 11/36. (Veteran first would give only 1/36.)
    out = calc("shoot", "hazard-squad", "--target", "grunts", "--target-models", "10")
    check_losses(out, 2, {0: F(25, 36), 1: F(11, 36)})

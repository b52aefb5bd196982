"""Allocation: the target state space shared by both engines, and kill distributions worked
out by hand.

Rules checked (quoted where a test depends on them):

* seeds README, "Allocating attacks": "the defender picks the model for each attack that
  wounds; a model that has already lost wounds, or had attacks allocated to it this phase, must
  be picked first."
* README "How it resolves an activation", 6: "Damage to that one model; excess normal damage is
  lost."
* Core rules LEADER (seed 000): "Each time an attack sucessfully wounds an Attached unit, that
  attack cannot be allocated to a CHARACTER model in that unit [...] As soon as the last
  Bodyguard model in an Attached unit has been destroyed, any attacks [...] can then be
  allocated to CHARACTER models in that unit."
* seeds README, [PRECISION]: "the attacker can have it allocated to a visible CHARACTER model in
  that unit."
* seeds README, Feel No Pain: "each time a model would lose a wound, roll one D6; on X+ that
  wound is not lost."

Every expected value below is derived by hand in the comment next to it. Engine results are
checked with both engines: exact to 1e-9, and the sampler (fixed seed) within 5 standard
errors, the standard error computed from the hand-derived distribution and floored at
1/trials.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from helpers import se_p
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.engine.allocation import NORMAL, PRECISION, AllocationSpace
from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.profile import (
    Activation,
    AttackProfile,
    DamageTable,
    RollTable,
    TargetModel,
    TargetProfile,
    VsModel,
)

TRIALS = 40_000
SEED = 20_505
DATA = Path(__file__).parent / "data" / "alloc"

# ---------------------------------------------------------------------------------------------
# Small builders (plain profiles, no rules layer)


def target(ws, chars=(), kinds=None, char_kinds=None, kind_below=None) -> TargetProfile:
    """Bodyguard models with wounds ``ws`` (kind 0 unless ``kinds``) and CHARACTER models
    ``chars`` (kind 1 unless ``char_kinds``)."""
    kinds = kinds or [0] * len(ws)
    char_kinds = char_kinds or [1] * len(chars)
    bg = tuple(
        TargetModel(f"b{i}", w, k, kind_below)
        for i, (w, k) in enumerate(zip(ws, kinds, strict=True))
    )
    ch = tuple(
        TargetModel(f"c{i}", w, k) for i, (w, k) in enumerate(zip(chars, char_kinds, strict=True))
    )
    n_kinds = 1 + max([*kinds, *char_kinds, *(kind_below[1:] if kind_below else ())])
    return TargetProfile("T", bg, ch, tuple(f"k{i}" for i in range(n_kinds)))


def damage(dist: dict[int, float]) -> DamageTable:
    """A Damage roll: ``dist`` maps final damage to its probability."""
    vals = sorted(dist)
    return DamageTable(tuple(float(dist[v]) for v in vals), tuple(vals))


def save_failing(p_fail: Fraction | None) -> RollTable | None:
    """A saving throw that fails with probability ``p_fail`` (a multiple of 1/6; None: no save
    can be made)."""
    if p_fail is None:
        return None
    fails = int(p_fail * 6)
    return RollTable((0, *([0] * fails), *([1] * (6 - fails))))


def exactly(n: int) -> np.ndarray:
    out = np.zeros(n + 1)
    out[n] = 1.0
    return out


ALL_HIT = RollTable((0, 1, 1, 1, 1, 1, 1))  # every face is a (non-critical) success
ALL_WOUND = RollTable((0, 1, 1, 1, 1, 1, 1))


def weapon(
    attacks: int,
    dmg: dict[int, float],
    *,
    n_kinds: int = 1,
    p_fail=None,
    fnp: float = 0.0,
    precision: bool = False,
    saves: list | None = None,
) -> AttackProfile:
    """``attacks`` attacks that all hit and all wound; per kind the save in ``saves`` (default:
    ``p_fail`` for every kind), damage ``dmg``."""
    saves = saves if saves is not None else [p_fail] * n_kinds
    vs = tuple(VsModel(save_failing(s), damage(dmg), fnp=fnp) for s in saves)
    return AttackProfile(
        name="gun",
        models=1,
        attacks=exactly(attacks),
        hit=ALL_HIT,
        wound=ALL_WOUND,
        vs=vs,
        precision=precision,
    )


# ---------------------------------------------------------------------------------------------
# Checking both engines against a hand-derived distribution


def se_of(dist: dict[int, float], trials: int) -> float:
    mean = sum(k * p for k, p in dist.items())
    var = sum(p * (k - mean) ** 2 for k, p in dist.items())
    return max(math.sqrt(var / trials), 1 / trials)


def padded(dist: dict[int, float], n: int) -> np.ndarray:
    out = np.zeros(n)
    for k, p in dist.items():
        out[k] = float(p)
    return out


def check_engines(
    act: Activation,
    models: dict[int, float],
    wounds: dict[int, float] | None = None,
    characters: list[float] | None = None,
) -> None:
    """Exact engine to 1e-9 and sampler within 5 SE, for the models-destroyed distribution,
    the wounds-lost distribution and P(each CHARACTER destroyed)."""
    models = {k: float(p) for k, p in models.items()}
    ex = run_exact(act)
    n = act.target.models + 1
    np.testing.assert_allclose(ex.models_destroyed_distribution, padded(models, n), atol=1e-9)
    assert ex.expected["models_destroyed"] == pytest.approx(
        sum(k * p for k, p in models.items()), abs=1e-9
    )
    if wounds is not None:
        wounds = {k: float(p) for k, p in wounds.items()}
        wn = act.target.wounds + 1
        np.testing.assert_allclose(ex.wounds_lost_distribution, padded(wounds, wn), atol=1e-9)
        assert ex.expected["wounds_lost"] == pytest.approx(
            sum(k * p for k, p in wounds.items()), abs=1e-9
        )
    if characters is not None:
        np.testing.assert_allclose(ex.characters_destroyed, characters, atol=1e-9)

    sa = run_sample(act, trials=TRIALS, seed=SEED)
    for k in range(n):
        p = models.get(k, 0.0)
        assert abs(sa.models_destroyed_distribution[k] - p) <= 5 * se_p(p, TRIALS), (k, p)
    mean = sum(k * p for k, p in models.items())
    assert abs(sa.expected["models_destroyed"] - mean) <= 5 * se_of(models, TRIALS)
    if wounds is not None:
        for k in range(act.target.wounds + 1):
            p = wounds.get(k, 0.0)
            assert abs(sa.wounds_lost_distribution[k] - p) <= 5 * se_p(p, TRIALS), (k, p)
    if characters is not None:
        for got, p in zip(sa.characters_destroyed, characters, strict=True):
            assert abs(got - p) <= 5 * se_p(p, TRIALS)


# ---------------------------------------------------------------------------------------------
# AllocationSpace unit tests


def test_state_count_is_product_of_track_wounds_plus_one():
    # States = wounds lost per track: Bodyguard W1+W1+W2 = 4 (0..4: 5 values) and one
    # CHARACTER W3 (0..3: 4 values): 5 * 4 = 20 states.
    space = AllocationSpace(target([1, 1, 2], chars=[3]))
    assert space.size == 20
    assert space.wiped == 19
    assert space.destroyed[space.wiped] == 4
    assert space.wounds_lost[space.wiped] == 7
    # A plain unit of ten W1 models: 0..10 wounds lost.
    plain = AllocationSpace(target([1] * 10))
    assert plain.size == 11
    assert plain.destroyed[0] == 0 and plain.destroyed[10] == 10


def test_destroyed_and_wounds_lost_read_off_each_track():
    # Bodyguard W1, W2, W3 (cumulative 1, 3, 6) and CHARACTER W2: ch_span = 3, so
    # state = bg_lost * 3 + ch_lost.
    space = AllocationSpace(target([1, 2, 3], chars=[2]))
    cases = {
        # (bg_lost, ch_lost): (models destroyed, characters destroyed)
        (0, 0): (0, 0),
        (1, 0): (1, 0),  # the W1 model is gone
        (2, 0): (1, 0),  # the W2 model has lost 1 of 2
        (3, 1): (2, 0),  # W1 and W2 gone; the CHARACTER has lost 1 of 2
        (5, 2): (3, 1),  # W3 model has lost 2 of 3; the CHARACTER is gone
        (6, 2): (4, 1),  # everything gone
    }
    for (bg, ch), (dead, ch_dead) in cases.items():
        s = np.array([bg * 3 + ch])
        assert space.destroyed[s][0] == dead, (bg, ch)
        assert space.wounds_lost[s][0] == bg + ch, (bg, ch)
        assert space.character_dead[:, s].sum(axis=0)[0] == ch_dead, (bg, ch)


def test_apply_excess_damage_is_lost():
    # Boyz: nine W1 Boys then a W2 Boss Nob. A D3 hit rolling 3 destroys one Boy; "excess
    # normal damage is lost", so exactly one model is destroyed and one wound is lost.
    space = AllocationSpace(target([1] * 9 + [2]))
    after = space.apply(np.array([0, 0, 0]), np.array([1, 2, 3]))
    assert list(space.destroyed[after]) == [1, 1, 1]
    assert list(space.wounds_lost[after]) == [1, 1, 1]
    # Zero damage (e.g. everything ignored by Feel No Pain) changes nothing.
    assert space.apply(np.array([4]), 0)[0] == 4


def test_wounded_model_must_take_the_next_attack():
    # Allocation order Boss Nob (W2) then a Boy (W1). A 1-damage hit leaves the Nob on 1
    # wound; "a model that has already lost wounds [...] must be picked first", so the next
    # hit (3 damage) goes to the Nob, destroys it and the excess 2 is lost: the Boy is
    # untouched (1 model destroyed, 2 wounds lost in total).
    space = AllocationSpace(target([2, 1]))
    s1 = space.apply(np.array([0]), 1)
    assert space.wounds_left_of(s1)[0] == 1
    assert space.destroyed[s1][0] == 0
    s2 = space.apply(s1, 3)
    assert space.destroyed[s2][0] == 1
    assert space.wounds_lost[s2][0] == 2
    # Boyz order (nine Boys, then the Nob): after the Boys, a 1-damage hit wounds the Nob and
    # the next 1-damage hit must go to it, wiping the unit.
    boyz = AllocationSpace(target([1] * 9 + [2]))
    s = np.array([9])
    assert boyz.wounds_left_of(s)[0] == 2
    s = boyz.apply(s, 1)
    assert boyz.wounds_left_of(s)[0] == 1 and boyz.destroyed[s][0] == 9
    s = boyz.apply(s, 1)
    assert s[0] == boyz.wiped and boyz.destroyed[s][0] == 10


def test_routing_normal_and_precision_with_characters():
    # Bodyguard two W1 models (kind 0), CHARACTER one W3 model (kind 1); ch_span = 4.
    space = AllocationSpace(target([1, 1], chars=[3]))
    s0 = np.array([0])
    # NORMAL: the Bodyguard takes it (LEADER: cannot be allocated to a CHARACTER model).
    assert space.kind_of(s0, NORMAL)[0] == 0
    assert space.wounds_left_of(s0, NORMAL)[0] == 1
    s = space.apply(s0, 2, NORMAL)
    assert space.bg_lost[s][0] == 1 and space.ch_lost[s][0] == 0
    # PRECISION: the CHARACTER takes it while it lives.
    assert space.kind_of(s0, PRECISION)[0] == 1
    assert space.wounds_left_of(s0, PRECISION)[0] == 3
    s = space.apply(s0, 2, PRECISION)
    assert space.bg_lost[s][0] == 0 and space.ch_lost[s][0] == 2
    # ... and a wounded CHARACTER keeps taking [PRECISION] attacks; excess is lost.
    s = space.apply(s, 3, PRECISION)
    assert space.ch_lost[s][0] == 3 and space.character_dead[:, s].sum(axis=0)[0] == 1
    assert space.bg_lost[s][0] == 0
    # Once the CHARACTER is destroyed, [PRECISION] attacks go to the Bodyguard.
    assert space.kind_of(s, PRECISION)[0] == 0
    s = space.apply(s, 1, PRECISION)
    assert space.bg_lost[s][0] == 1
    # Once the last Bodyguard model is destroyed, normal attacks go to the CHARACTER.
    bg_dead = np.array([2 * 4 + 0])
    assert space.kind_of(bg_dead, NORMAL)[0] == 1
    assert space.wounds_left_of(bg_dead, NORMAL)[0] == 3
    s = space.apply(bg_dead, 1, NORMAL)
    assert space.ch_lost[s][0] == 1
    # Nothing left: 0 wounds left, the state does not move.
    assert space.wounds_left_of(np.array([space.wiped]), NORMAL)[0] == 0
    assert space.apply(np.array([space.wiped]), 5, NORMAL)[0] == space.wiped


def test_kind_below_switches_kind_when_fewer_than_n_models_remain():
    # "5+ invulnerable save while the unit has 10 or more models": kind 0 with 10 or more
    # models, kind 1 once fewer than 10 remain.
    space = AllocationSpace(target([1] * 10, kinds=[0] * 10, kind_below=(10, 1)))
    assert space.kind_of(np.array([0]))[0] == 0  # 10 models
    assert space.kind_of(np.array([1]))[0] == 1  # 9 models
    assert space.kind_of(np.array([5]))[0] == 1
    # W2 models: losing a wound does not remove a model; the kind changes only when the
    # first model is destroyed.
    w2 = AllocationSpace(target([2] * 10, kinds=[0] * 10, kind_below=(10, 1)))
    assert w2.kind_of(np.array([1]))[0] == 0  # 10 models, first one wounded
    assert w2.kind_of(np.array([2]))[0] == 1  # 9 models


# ---------------------------------------------------------------------------------------------
# Kill distributions by hand, both engines


def test_two_d3_wounds_into_w1_then_w2():
    # Exactly 2 wounds, all saves fail, Damage D3 (1, 2, 3 each 1/3), models W1 then W2.
    # Wound 1 -> the W1 model: any roll destroys it (excess lost): 1 wound lost.
    # Wound 2 -> the W2 model: destroyed on 2 or 3 (2/3), else it loses 1 (1/3).
    # Models destroyed: 1 w.p. 1/3, 2 w.p. 2/3. Wounds lost: 2 w.p. 1/3, 3 w.p. 2/3.
    third = 1 / 3
    act = Activation((weapon(2, {1: third, 2: third, 3: third}),), target([1, 2]))
    check_engines(act, models={1: 1 / 3, 2: 2 / 3}, wounds={2: 1 / 3, 3: 2 / 3})


def test_p7_three_damage_10_wounds_into_w11_models():
    # 3 wounds of Damage 10 into W11 models, each save failing with probability 1/2.
    # F = failed saves ~ Binomial(3, 1/2). 1st failed save: model A loses 10 (1 left). 2nd:
    # A is wounded so must take it: destroyed, 9 lost in excess (11 wounds lost). 3rd: model B
    # loses 10 (21). Wounds lost is therefore only ever 0, 10, 11 or 21:
    # P = 1/8, 3/8, 3/8, 1/8; models destroyed 0 (F <= 1) or 1 (F >= 2): 1/2 each.
    act = Activation(
        (weapon(3, {10: 1.0}, p_fail=Fraction(1, 2)),),
        target([11, 11, 11]),
    )
    check_engines(
        act,
        models={0: 1 / 2, 1: 1 / 2},
        wounds={0: 1 / 8, 10: 3 / 8, 11: 3 / 8, 21: 1 / 8},
    )


def test_feel_no_pain_rolls_once_per_point_of_damage():
    # One wound of Damage 2 into a W2 model with Feel No Pain 5+ (each point ignored w.p.
    # 1/3): points lost ~ Binomial(2, 2/3): 0 w.p. 1/9, 1 w.p. 4/9, 2 w.p. 4/9; destroyed
    # only when both get through: 4/9.
    act = Activation((weapon(1, {2: 1.0}, fnp=1 / 3),), target([2, 2]))
    check_engines(act, models={0: 5 / 9, 1: 4 / 9}, wounds={0: 1 / 9, 1: 4 / 9, 2: 4 / 9})


def test_kind_below_in_both_engines():
    # Ten W1 models that fail their save with probability 4/6 (a 5+ save) while the unit has
    # 10 or more models and 5/6 (6+) below that; two Damage-1 wounds.
    # Wound 1: at 10 models, fails 4/6. If it killed, wound 2 is at 9 models: fails 5/6; if
    # not, wound 2 is still at 10 models: fails 4/6.
    # P(2) = 4/6 * 5/6 = 20/36; P(0) = 2/6 * 2/6 = 4/36; P(1) = 12/36.
    act = Activation(
        (weapon(2, {1: 1.0}, saves=[Fraction(4, 6), Fraction(5, 6)]),),
        target([1] * 10, kinds=[0] * 10, kind_below=(10, 1)),
    )
    check_engines(act, models={0: 4 / 36, 1: 12 / 36, 2: 20 / 36})


def test_normal_attacks_reach_the_character_only_after_the_bodyguard():
    # Bodyguard 2 W1 models, CHARACTER W2; 4 wounds, each save fails w.p. 1/2,
    # F ~ Binomial(4, 1/2) = (1, 4, 6, 4, 1)/16. The first two failed saves destroy the
    # Bodyguard, the next two the CHARACTER: models destroyed = F for F <= 2, 2 for F = 3,
    # 3 for F = 4; the CHARACTER is destroyed only when F = 4 (1/16).
    act = Activation(
        (weapon(4, {1: 1.0}, n_kinds=2, p_fail=Fraction(1, 2)),),
        target([1, 1], chars=[2]),
    )
    check_engines(
        act,
        models={0: 1 / 16, 1: 4 / 16, 2: 6 / 16 + 4 / 16, 3: 1 / 16},
        characters=[1 / 16],
    )


# ---------------------------------------------------------------------------------------------
# CLI: the allocation order option


def test_allocation_option_changes_the_order_and_the_kills():
    # Gunline into Mixed (W1 Grot, W3 Brute; T3, no save) with --allocation "Brute,Grot":
    # Cannon (resolved first; 1 torrent attack, S6 vs T3 2+ = 5/6, Damage 3) then Needler (the
    # same, Damage 1). Cannon wounds: the Brute is destroyed (3 of 3); then the Needler
    # destroys the Grot (5/6). Cannon fails: the Needler's wound goes to the Brute (1 of 3).
    # Models destroyed: 2 w.p. 25/36, 1 w.p. 5/36, 0 w.p. 6/36.
    result = CliRunner().invoke(
        app,
        [
            "shoot",
            "gunline",
            "--target",
            "mixed",
            "--allocation",
            "Brute,Grot",
            "--datasheets",
            str(DATA),
            "--json",
            "--method",
            "both",
            "--trials",
            str(TRIALS),
            "--seed",
            str(SEED),
        ],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["target"]["allocation_order"] == ["Brute", "Grot"]
    want = [6 / 36, 5 / 36, 25 / 36]
    np.testing.assert_allclose(out["models_destroyed_distribution"], want, atol=1e-6)
    for got, p in zip(out["sample"]["models_destroyed_distribution"], want, strict=True):
        assert abs(got - p) <= 5 * se_p(p, TRIALS)


def test_allocation_option_cannot_name_a_protected_character():
    # LEADER: "that attack cannot be allocated to a CHARACTER model in that unit".
    result = CliRunner().invoke(
        app,
        [
            "shoot",
            "marksmen",
            "--target",
            "grunts",
            "--target-leader",
            "captain",
            "--allocation",
            "Captain,Grunt",
            "--datasheets",
            str(DATA),
        ],
    )
    assert result.exit_code == 1
    assert "protected CHARACTER" in result.output

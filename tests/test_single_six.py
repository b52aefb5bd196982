"""One roll's result changed to an unmodified 6 after it is seen (``single_six``: Forged in
Battle, Artisan, Gift of Foresight, Pledge of Unholy Fortune): the calculator keeps it for the
weapon and kind of roll where it adds most and spends it on that weapon's first failed Hit
roll (or Wound roll of an attack's own hit), re-rolled already or not.

Every value is worked out independently of the engines: by enumerating the dice faces and
applying the rule as written (the first failed roll becomes a 6), or by hand in the
docstrings; the two engines are held against each other on several profiles and on random
ones (hypothesis)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as Fr
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import approx, attacker, invoke, shoot, target, weapon, weapon_row
from profiles import Kind, disagreements, unit
from profiles import weapon as profile_weapon

from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.profile import Activation
from wh40k_calc.records import replace

TRIALS = 60_000


def rec(*changes: dict, id: str = "x", **fields) -> dict:
    """A stratagem of the test faction with ``changes``."""
    out = {"id": id, "name": "Lucky Six", "kind": "stratagem", "summary": "s"}
    out.update(side="attacker", changes=list(changes), **fields)
    return out


def binom(n: int, k: int, p: Fr) -> Fr:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def lethal_oracle(attacks: int = 3) -> tuple[dict[int, Fr], Fr, Fr]:
    """``attacks`` attacks BS4+ with [LETHAL HITS], S4 v T4 (4+), the first failed Hit roll
    (1-3) changed to a 6: (distribution of wounds, expected hits, expected automatic wounds),
    by enumerating the Hit roll faces; a 6 wounds automatically, a 4 or 5 rolls 4+."""
    dist: dict[int, Fr] = {}
    hits = autos = Fr(0)
    for faces in itertools.product(range(1, 7), repeat=attacks):
        p = Fr(1, 6**attacks)
        faces = list(faces)
        failed = [i for i, f in enumerate(faces) if f <= 3]
        if failed:
            faces[failed[0]] = 6
        crit = sum(f == 6 for f in faces)
        normal = sum(f in (4, 5) for f in faces)
        hits += p * (crit + normal)
        autos += p * crit
        for k in range(normal + 1):
            w = crit + k
            dist[w] = dist.get(w, Fr(0)) + p * binom(normal, k, Fr(1, 2))
    return dist, hits, autos


def test_the_oracle_agrees_with_a_hand_count():
    """3 attacks: P(no Hit roll fails) = 1/8, so the 6 is used with 7/8; hits 3/2 + 7/8 =
    19/8, automatic wounds 3/6 + 7/8 = 11/8. No wound at all only when no roll fails, none is
    a 6, and all three 4s or 5s fail to wound: (2/6 x 1/2)^3 = 1/216."""
    dist, hits, autos = lethal_oracle()
    assert hits == Fr(19, 8) and autos == Fr(11, 8)
    assert dist[0] == Fr(1, 216)
    assert sum(dist.values()) == 1


@pytest.mark.parametrize("edition", ["10", "11"])
def test_lethal_hits_first_failed_hit_roll_becomes_a_six(tmp_path, fx, edition):
    """3 attacks BS4+ [LETHAL HITS] S4 into 20 W1 models with no save (T4): the wounds'
    distribution, hits 19/8 and wounds 11/8 + 1 x 1/2 = 15/8 (the normal hits, 1 expected,
    are untouched: a miss becomes a Critical Hit)."""
    fx(rec({"single_six": ["hit"]}))
    a = attacker(tmp_path, weapon(A=3, skill=4, abilities=["lethal hits"]))
    t = target(tmp_path, models=20, T=4, Sv=7, W=1)
    out = shoot(a, t, "--effect", "x", "--edition", edition, dirs=[tmp_path])
    dist, hits, autos = lethal_oracle()
    assert out["models_destroyed_distribution"][:4] == [approx(dist.get(k, 0)) for k in range(4)]
    r = weapon_row(out)
    assert r["hits"] == approx(hits)
    assert r["wounds"] == approx(autos + Fr(1, 2))
    assert any("changed to an unmodified 6" in c for c in out["choices"]), out["choices"]


def _devastating(reroll: str | None) -> Activation:
    kinds = (Kind(W=40, Sv=3),)
    w = profile_weapon(
        kinds, A=2, skill=None, S=4, T=4, D=2, devastating=True, reroll_wounds=reroll
    )
    return Activation((replace(w, command_reroll=True, single_face=6),), unit(kinds, [(0, 1)]))


@pytest.mark.parametrize(
    ("reroll", "damage"),
    [
        # 2 torrent hits, 4+ to wound, Sv3+ AP0 (fails 1/3), D2, [DEVASTATING WOUNDS]: each
        # hit 1/3 x 1/3 x 2 + 1/6 x 2 = 5/9; one failed Wound roll (P 1 - 1/4) turned into a
        # 6 adds 2 mortal wounds: 10/9 + 3/4 x 2 = 47/18
        (None, Fr(47, 18)),
        # re-rolling failed Wound rolls first: a wound 1/2, a 6 1/6 + 1/2 x 1/6 = 1/4, a
        # failure 1/4 (re-rolled already: still changed, a change is not a re-roll):
        # 2 x (1/2 x 1/3 x 2 + 1/4 x 2) + (1 - (3/4)^2) x 2 = 5/3 + 7/8 = 61/24
        ("fails", Fr(61, 24)),
    ],
)
def test_devastating_wounds_first_failed_wound_roll_becomes_a_six(reroll, damage):
    act = _devastating(reroll)
    exact = run_exact(act)
    assert exact.expected["damage"] == approx(damage)
    sample = run_sample(act, trials=TRIALS, seed=5)
    assert not disagreements(exact, sample)


def test_a_re_roll_of_the_same_failure_would_add_nothing():
    """The difference from a single re-roll: with every failed Wound roll re-rolled already,
    the Command Re-roll's kind of single roll adds nothing (5/3), the 6 adds 7/8."""
    act = _devastating("fails")
    plain = replace(act.weapons[0], single_face=0)
    assert run_exact(replace(act, weapons=(plain,))).expected["damage"] == approx(Fr(5, 3))


KINDS = (Kind(W=2, Sv=4, invuln=5), Kind(W=1, Sv=6, fnp=5))

PROFILES = {
    "hit-sustained-reroll-ones": dict(A=3, models=3, skill=4, sustained=2, reroll_hits="ones"),
    "hit-lethal-devastating": dict(A=2, models=4, skill=3, lethal=True, devastating=True, D=2),
    "hit-crit-5-blast": dict(A="D6", models=2, skill=4, crit_hit=5, sustained=1, blast=True),
    "wound-devastating-sustained": dict(A=2, models=5, skill=3, devastating=True, sustained=1),
    "wound-twin-linked-anti": dict(A=3, models=2, skill=4, anti=4, reroll_wounds="fails", D=2),
    "wound-torrent-lethal": dict(A="D6", models=2, skill=None, D="D3"),
}


@pytest.mark.parametrize("name", list(PROFILES))
def test_engines_agree(name):
    """Exact engine and sampler on the same profiles (fixed seed, 5 standard errors)."""
    roll = name.split("-")[0]
    w = profile_weapon(KINDS, S=4, T=4, AP=-1, **PROFILES[name])
    flag = {"command_reroll": True} if roll == "wound" else {"reroll_one_hit": True}
    act = Activation((replace(w, single_face=6, **flag),), unit(KINDS, [(0, 3), (1, 4)]))
    exact = run_exact(act)
    assert not disagreements(exact, run_sample(act, trials=TRIALS, seed=17))


@settings(
    max_examples=25,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    roll=st.sampled_from(["hit", "wound"]),
    A=st.integers(1, 4),
    models=st.integers(1, 4),
    skill=st.sampled_from([2, 3, 4, 5, 6, None]),
    S=st.integers(3, 8),
    sustained=st.sampled_from([None, 1, 2]),
    lethal=st.booleans(),
    devastating=st.booleans(),
    reroll=st.sampled_from([None, "ones", "fails"]),
    W=st.integers(1, 3),
    Sv=st.integers(2, 7),
)
def test_engines_agree_on_random_profiles(
    roll, A, models, skill, S, sustained, lethal, devastating, reroll, W, Sv
):
    kinds = (Kind(W=W, Sv=Sv),)
    rr = {"reroll_hits": reroll} if roll == "hit" else {"reroll_wounds": reroll}
    w = profile_weapon(
        kinds,
        A=A,
        models=models,
        skill=skill,
        S=S,
        T=4,
        sustained=sustained,
        lethal=lethal,
        devastating=devastating,
        **rr,
    )
    flag = {"command_reroll": True} if roll == "wound" else {"reroll_one_hit": True}
    act = Activation((replace(w, single_face=6, **flag),), unit(kinds, [(0, 5)]))
    exact = run_exact(act)
    assert not disagreements(exact, run_sample(act, trials=8_000, seed=3))


def _two_guns(tmp_path, lethal: bool) -> tuple[str, str]:
    heavy = ["lethal hits"] if lethal else []
    a = attacker(
        tmp_path,
        weapon("Light gun", A=4, skill=4, D=1),
        weapon("Heavy gun", A=4, skill=4, D=3, abilities=heavy),
    )
    t = target(tmp_path, models=1, T=4, Sv=7, W=40, stem="big")
    return a, t


@pytest.mark.parametrize(
    ("lethal", "roll", "damage"),
    [
        # Heavy gun with [LETHAL HITS]: 4 x (1/6 x 3 + 1/3 x 1/2 x 3) = 4; a failed Hit roll
        # (P 1 - 1/16) turned into a 6 wounds automatically: + 15/16 x 3 = 109/16 (a Wound
        # roll instead: P 1 - (1 - 1/3 x 1/2)^4 = 671/1296 of 3, less); Light gun 1
        (True, "Hit", 1 + Fr(109, 16)),
        # without it: a 6 on a Hit roll still rolls to wound (15/16 x 3/2 = 45/32), a failed
        # Wound roll (P 1 - (3/4)^4 = 175/256) turned into a 6 is a wound: 525/256, more;
        # Heavy 3 + 525/256, Light 1
        (False, "Wound", 4 + Fr(525, 256)),
    ],
)
def test_the_cli_names_the_weapon_and_the_roll(tmp_path, fx, lethal, roll, damage):
    """One Hit or Wound roll changed to a 6 (D3 and D1 guns, A4 BS4+ S4, into one W40 T4
    model with no save): the calculator takes the Heavy gun and the kind of roll where the 6
    adds most, says so in the choices, in the text output and in ``--json``."""
    fx(rec({"single_six": ["hit", "wound"]}))
    a, t = _two_guns(tmp_path, lethal)
    out = shoot(a, t, "--effect", "x", dirs=[tmp_path])
    assert out["expected"]["damage"] == approx(damage)
    chosen = [c for c in out["choices"] if "Lucky Six" in c]
    assert chosen == [
        f"Heavy gun: Lucky Six kept for its first failed {roll} roll, changed to an unmodified "
        "6 (the weapon where it adds most)"
    ]
    text = invoke(["shoot", a, "--target", t, "--effect", "x"], dirs=[tmp_path])
    assert text.exit_code == 0, text.stdout
    said = " ".join(text.stdout.split())
    assert f"Heavy gun: Lucky Six kept for its first failed {roll} roll" in said


def test_wound_roll_kept_where_the_hit_is_automatic(tmp_path, fx):
    """A [TORRENT] weapon has no Hit roll: the 6 goes to its first failed Wound roll."""
    fx(rec({"single_six": ["hit", "wound"]}))
    a = attacker(tmp_path, weapon("Flamer", A=2, skill=None, abilities=["torrent"]))
    t = target(tmp_path, models=1, T=4, Sv=7, W=40, stem="big")
    result = invoke(["shoot", a, "--target", t, "--effect", "x", "--json"], dirs=[tmp_path])
    out = json.loads(result.stdout)
    # 2 hits, 4+ to wound: 1, plus P(a failure) 3/4 x 1
    assert out["expected"]["damage"] == approx(Fr(7, 4))
    assert any("first failed Wound roll, changed" in c for c in out["choices"])


def _effect_file(tmp_path, single_six):
    """An edition-11 effects file of one record whose change has ``single_six``."""
    import yaml

    path = tmp_path / "x.yaml"
    doc = {
        "schema": 1,
        "edition": 11,
        "faction": "Testers",
        "data": {"source": "tests"},
        "effects": [rec({"single_six": single_six})],
    }
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("value", [["save"], [], ["hit", "hit"], "hit"])
def test_a_bad_single_six_is_refused_at_load(tmp_path, value):
    """Only Hit and Wound rolls, each once, as a list: anything else is an error at load."""
    from wh40k_calc.effect_schema import EffectFileError, load_effect_file

    with pytest.raises(EffectFileError, match="single_six"):
        load_effect_file(_effect_file(tmp_path, value))


def test_a_good_single_six_loads(tmp_path):
    from wh40k_calc.effect_schema import load_effect_file

    path = _effect_file(tmp_path, ["hit", "wound"])
    assert load_effect_file(path).effects[0].changes[0].single_six == ["hit", "wound"]


def _calc(*args: str) -> dict:
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    res = CliRunner().invoke(app, [*args, "--edition", "11", "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_forged_in_battle_on_the_shipped_records():
    """Forged in Battle (Firestorm Assault Force): an Intercessor Squad (5 models, Bolt rifle
    A2 BS3+) led by a Lieutenant (Master-crafted bolter A2 BS2+; Tactical Precision gives the
    unit [LETHAL HITS]) shooting Boyz: 10 x 2/3 + 2 x 5/6 = 25/3 hits. The 6 goes to the Bolt
    rifle (10 Hit rolls, each failing 1/3; the bolter's 2 fail 1/6 each): + 1 - (2/3)^10 hits,
    and as many automatic wounds ([LETHAL HITS]). Without a Leader the rule is refused."""
    unit = ["shoot", "Space Marines/Intercessor Squad", "--target", "Orks/Boyz"]
    led = [*unit, "--leader", "Space Marines/Lieutenant"]
    plain = _calc(*led)
    six = _calc(*led, "--effect", "forged-in-battle")
    gain = 1 - Fr(2, 3) ** 10
    assert plain["expected"]["hits"] == approx(Fr(25, 3))
    assert six["expected"]["hits"] == approx(Fr(25, 3) + gain)
    assert six["expected"]["wounds"] == approx(plain["expected"]["wounds"] + gain)
    assert any(c.startswith("Bolt rifle: Forged in Battle kept for") for c in six["choices"])
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    res = CliRunner().invoke(app, [*unit, "--edition", "11", "--effect", "forged-in-battle"])
    assert res.exit_code != 0 and "CHARACTER" in res.output

"""``calc exchange``: shooting once the units are engaged.

After the charge the units are within Engagement Range of each other, so in each later turn the
active side's shoot activation is made as a shooting while engaged, at the unit it is engaged
with (10th edition: Core rules, Pistol — seed 000 — and Big Guns Never Tire; edition 11,
10.06 Close-Quarters Shooting): a unit that is not a MONSTER/VEHICLE shoots its Pistols only,
at no penalty; a MONSTER/VEHICLE shoots its ranged weapons at -1 to hit (not its Pistols in
10th edition; not its [CLOSE-QUARTERS] weapons at the unit it is engaged with in edition 11)
and never its [BLAST] weapons at a unit it is engaged with. A unit that may shoot nothing then
does not: the exchange says why in one note. The charging turn's shooting comes before the
charge, unengaged.

Expected values come from the independent chain of ``tests/exchange_oracle.py`` (its own dice
arithmetic, fractions), never from the code under test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from exchange_oracle import Model, Unit, Weapon, exchange, models_left_joint
from helpers import check_exchange, cli, cli_json, write_datasheet

# Reavers: 2 models W2 T4 Sv3+, a chainaxe A2 WS3+ S4 AP0 D1 and a bolt pistol ([PISTOL]) A1
# BS3+ S4 AP0 D1. Warden: 1 model W4 T4 Sv3+, a glaive A3 WS3+ S4 AP-1 D1 and a sling (not a
# Pistol) A1 BS3+ S3. Walker: 1 VEHICLE model W5 T6 Sv3+, a claw A2 WS4+ S6 AP-1 D2, a cannon
# A2 BS3+ S6 AP-1 D2 and a blaster ([BLAST]).
CHAINAXE = Weapon(A=2, skill=3, S=4, AP=0, D=1)
PISTOL = Weapon(A=1, skill=3, S=4, AP=0, D=1)
GLAIVE = Weapon(A=3, skill=3, S=4, AP=-1, D=1)
SLING = Weapon(A=1, skill=3, S=3, AP=0, D=1)
CLAW = Weapon(A=2, skill=4, S=6, AP=-1, D=2)
CANNON_ENGAGED = Weapon(A=2, skill=4, S=6, AP=-1, D=2)  # BS3+ at -1 to hit: 4+
REAVERS = Unit((Model("Reaver", 2, 4, 3, CHAINAXE),) * 2, ((0, 1),))
REAVERS_SHOOT = Unit((Model("Reaver", 2, 4, 3, PISTOL),) * 2, ((0, 1),))
WARDEN = Unit((Model("Warden", 4, 4, 3, GLAIVE),), ((0,),))
WARDEN_SHOOT = Unit((Model("Warden", 4, 4, 3, SLING),), ((0,),))
WALKER = Unit((Model("Walker", 5, 6, 3, CLAW),), ((0,),))
WALKER_SHOOT = Unit((Model("Walker", 5, 6, 3, CANNON_ENGAGED),), ((0,),))


def _melee(name: str, A: int, skill: int, S: int, AP: int, D: int) -> dict:
    return {"name": name, "range": "melee", "A": A, "skill": skill, "S": S, "AP": AP, "D": D}


def _ranged(name: str, A: int, S: int, AP: int, D: int, *abilities: str) -> dict:
    return {"name": name, "range": 18, "A": A, "skill": 3, "S": S, "AP": AP, "D": D,
            "abilities": list(abilities)}  # fmt: skip


SHEETS = {
    "Reavers": (["INFANTRY"], "Reaver", 2, 2, 4,
                [_melee("Chainaxe", 2, 3, 4, 0, 1), _ranged("Bolt pistol", 1, 4, 0, 1, "pistol")]),
    "Warden": (["INFANTRY"], "Warden", 1, 4, 4,
               [_melee("Glaive", 3, 3, 4, -1, 1), _ranged("Sling", 1, 3, 0, 1)]),
    "Walker": (["VEHICLE", "WALKER"], "Walker", 1, 5, 6,
               [_melee("Claw", 2, 4, 6, -1, 2), _ranged("Cannon", 2, 6, -1, 2),
                _ranged("Blaster", 1, 6, 0, 1, "blast")]),
}  # fmt: skip


@pytest.fixture
def sheets(tmp_path: Path) -> Path:
    folder = tmp_path / "engaged"
    folder.mkdir()
    for name, (keywords, model, count, wounds, toughness, weapons) in SHEETS.items():
        write_datasheet(
            folder,
            name,
            weapons,
            models=count,
            model=model,
            keywords=keywords,
            points=20 * count,
            stats={"T": toughness, "Sv": 3, "W": wounds},
        )
    return folder


PISTOLS = ["--side-a", "shoot reavers", "--side-a", "fight reavers --charged",
           "--side-b", "shoot warden", "--side-b", "fight warden", "--rounds", "2"]  # fmt: skip
# A charges in turn 1, after shooting unengaged; in turn 3 (A's) it shoots its pistols while
# engaged. B's sling is not a Pistol: B never shoots. 10th edition: after turn 1, the side
# whose turn it is not fights first; edition 11 (12.04): the side whose turn it is.
ORDER_10 = [("a", REAVERS_SHOOT), "a", "b", "a", "b", ("a", REAVERS_SHOOT), "b", "a", "a", "b"]
ORDER_11 = [("a", REAVERS_SHOOT), "a", "b", "b", "a", ("a", REAVERS_SHOOT), "a", "b", "b", "a"]


def test_the_oracle_sees_the_engaged_shooting():
    """The pistols in turn 3 change the chain's figures (so the tests below can fail)."""
    with_shot, _ = exchange(REAVERS, WARDEN, ORDER_10)
    without = [e for i, e in enumerate(ORDER_10) if i != 5]
    assert models_left_joint(with_shot) != models_left_joint(exchange(REAVERS, WARDEN, without)[0])


@pytest.mark.parametrize(("edition", "order"), [("10", ORDER_10), ("11", ORDER_11)])
def test_a_pistol_unit_that_charged_shoots_its_pistols_later(sheets, edition, order):
    """Every figure as the chain's: turn 1's shooting before the charge, turn 3's with the
    bolt pistols while engaged (2 attacks at BS3+, no penalty: not a MONSTER/VEHICLE)."""
    out = cli_json("exchange", *PISTOLS, "--edition", edition, dirs=[sheets])
    acts = out["activations"]
    assert [(a["side"], a["phase"], a["engaged"]) for a in acts if a["phase"] == "shooting"] == [
        ("a", "shooting", False),
        ("a", "shooting", True),
    ]
    assert [a["turn"] for a in acts if a["phase"] == "shooting"] == [1, 3]
    joint, steps = exchange(REAVERS, WARDEN, order)
    check_exchange(out, joint, steps)
    assert acts[5]["expected"]["attacks"] < 2  # only the Reavers alive shoot


def test_the_side_that_cannot_shoot_engaged_is_said_why(sheets):
    """B's shoot activation is never made: one note, with the rules' reason."""
    out = cli_json("exchange", *PISTOLS, dirs=[sheets])
    notes = [n for n in out["notes"] if n.startswith("side B's shoot activation")]
    assert len(notes) == 1
    assert "engaged from the charge on" in notes[0]
    assert "Warden cannot shoot while engaged" in notes[0] and "Pistol" in notes[0]


def test_a_charger_without_pistols_shoots_before_the_charge_only(sheets):
    """The Warden charges: it shoots in turn 1 (its sling, unengaged), not in turn 3; the
    Reavers shoot their pistols in turns 2 and 4 while engaged. The chain: 10th edition."""
    args = ["--side-a", "shoot warden", "--side-a", "fight warden --charged",
            "--side-b", "shoot reavers", "--side-b", "fight reavers", "--rounds", "2"]  # fmt: skip
    out = cli_json("exchange", *args, dirs=[sheets])
    order = [("a", WARDEN_SHOOT), "a", "b", ("b", REAVERS_SHOOT), "a", "b", "b", "a",
             ("b", REAVERS_SHOOT), "a", "b"]  # fmt: skip
    joint, steps = exchange(WARDEN, REAVERS, order)
    check_exchange(out, joint, steps)
    (note,) = [n for n in out["notes"] if n.startswith("side A's shoot activation")]
    assert note.startswith("side A's shoot activation is made before the charge only")


@pytest.mark.parametrize("edition", ["10", "11"])
def test_a_vehicle_shoots_engaged_at_minus_one_without_blast(sheets, edition):
    """The Reavers charge the Walker; in turn 2 the Walker shoots while engaged: its cannon
    at -1 to hit (10th: Big Guns Never Tire; 10.06), its [BLAST] blaster not at all (a note
    names it). The chain gives the cannon BS4+."""
    args = ["--side-a", "fight reavers --charged", "--side-b", "shoot walker",
            "--side-b", "fight walker", "--rounds", "2", "--edition", edition]  # fmt: skip
    out = cli_json("exchange", *args, dirs=[sheets])
    if edition == "10":
        order = ["a", "b", ("b", WALKER_SHOOT), "a", "b", "b", "a", ("b", WALKER_SHOOT), "a", "b"]
    else:
        order = ["a", "b", ("b", WALKER_SHOOT), "b", "a", "a", "b", ("b", WALKER_SHOOT), "b", "a"]
    joint, steps = exchange(REAVERS, WALKER, order)
    check_exchange(out, joint, steps)
    shot = [a for a in out["activations"] if a["phase"] == "shooting"]
    assert [a["turn"] for a in shot] == [2, 4] and all(a["engaged"] for a in shot)
    assert any("Blaster cannot shoot it" in n for n in shot[0]["notes"])


def test_the_sampled_half_makes_the_engaged_shooting(sheets):
    """The sampler runs the same activations and agrees with the chain within its standard
    errors (fixed seed)."""
    out = cli_json("exchange", *PISTOLS, "--method", "sample", "--trials", "20000", "--seed",
                   "11", dirs=[sheets])  # fmt: skip
    joint, steps = exchange(REAVERS, WARDEN, ORDER_10)
    want = models_left_joint(joint)
    res = out["sample"]["result"]
    for i, side in enumerate("ab"):
        left = float(sum(p * n[i] for n, p in want.items()))
        se = res["standard_error"]["expected_models_left"][side]
        assert abs(res["expected_models_left"][side] - left) < 5 * max(se, 1 / 20000)
    sampled = out["sample"]["activations"][5]
    made, attacks, _ = steps[5]
    assert abs(sampled["p_made"] - float(made)) < 5 * max(
        sampled["standard_error"]["p_made"], 1 / 20000
    )
    assert abs(sampled["expected"]["attacks"] - float(attacks)) < 5 * max(
        sampled["standard_error"]["attacks"], 1 / 20000
    )


def test_the_table_marks_the_engaged_shooting(sheets):
    r = cli("exchange", *PISTOLS, dirs=[sheets], env={"COLUMNS": "120"})
    assert r.exit_code == 0, r.output
    assert "A shoots (engaged)" in r.output


def test_advanced_is_left_out_once_engaged(sheets):
    """``--advanced`` on the charger's shoot activation (its pistols given [ASSAULT]): turn 1
    shoots them after the Advance; a note says a unit that Advanced charges only where a rule
    lets it, and another that the shooting while engaged is made without --advanced. Same
    figures as the chain (the pistols both times)."""
    args = ["--side-a", "shoot reavers --advanced --add-ability assault", *PISTOLS[2:]]
    out = cli_json("exchange", *args, dirs=[sheets])
    joint, steps = exchange(REAVERS, WARDEN, ORDER_10)
    check_exchange(out, joint, steps)
    assert any("Advanced (--advanced) and charges in the same turn" in n for n in out["notes"])
    assert any("made without --advanced: an engaged unit cannot Advance" in n for n in out["notes"])


@pytest.mark.parametrize("edition", ["10", "11"])
def test_pistols_after_the_charge_by_hand(sheets, edition):
    """By hand: the Reavers charge the Warden, which has no fight activation and no Pistol
    (it never attacks). Every Reaver attack — bolt pistol or chainaxe, BS/WS3+ S4 AP0 against
    T4 Sv3+ — takes one of its 4 wounds with 2/3 x 1/2 x 1/3 = 1/9. Turn 1: 2 pistol shots
    and 4 chainaxe attacks; turn 2: 4 attacks; turn 3: the pistols while engaged, made while
    the Warden lives: after X ~ Binomial(10, 1/9) wounds it lives when X <= 3, so 2 P(X <= 3)
    attacks, and they destroy it when X = 3 and one of the 2 gets through, or X = 2 and both
    do."""
    from fractions import Fraction as F
    from math import comb

    def p(k: int) -> F:
        return comb(10, k) * F(1, 9) ** k * F(8, 9) ** (10 - k)

    args = ["--side-a", "shoot reavers", "--side-a", "fight reavers --charged",
            "--side-b", "shoot warden", "--turns", "3", "--edition", edition]  # fmt: skip
    out = cli_json("exchange", *args, dirs=[sheets])
    acts = out["activations"]
    assert [(a["turn"], a["side"], a["phase"]) for a in acts] == [
        (1, "a", "shooting"), (1, "a", "fight"), (2, "a", "fight"), (3, "a", "shooting"),
        (3, "a", "fight"),
    ]  # fmt: skip
    alive = sum(p(k) for k in range(4))
    assert acts[3]["engaged"] and acts[3]["p_made"] == pytest.approx(float(alive), abs=1e-12)
    assert acts[3]["expected"]["attacks"] == pytest.approx(float(2 * alive), abs=1e-12)
    destroyed = p(3) * (1 - F(8, 9) ** 2) + p(2) * F(1, 9) ** 2
    assert acts[3]["expected"]["models_destroyed"] == pytest.approx(float(destroyed), abs=1e-12)


def test_edition_11_drops_stationary_once_engaged(sheets):
    """Edition 11's --stationary says the unit is unengaged (24.16), so it cannot go with a
    shooting while engaged (10.06): given on the shoot activation, it holds before the charge
    and is left out after it (a note says so), and the pistols still shoot in turn 3: the
    same figures as without it (the Reavers have no [HEAVY] weapon)."""
    args = ["--side-a", "shoot reavers --stationary", *PISTOLS[2:], "--edition", "11"]
    out = cli_json("exchange", *args, dirs=[sheets])
    joint, steps = exchange(REAVERS, WARDEN, ORDER_11)
    check_exchange(out, joint, steps)
    assert any(
        n.startswith("side A's shooting while engaged is made without --stationary")
        for n in out["notes"]
    ), out["notes"]

"""``calc exchange``: two units, each activation made by the models its unit has left against
the other unit's state, exactly (the joint distribution of both units' states) and sampled.

Expected values come from an independent Markov chain over both units' models written in
``tests/exchange_oracle.py`` (its own dice arithmetic, fractions, attack by attack), or by hand
here, never from the code under test.

Rules checked:

* a unit attacks with its models alive (a unit of 10 that lost 3 attacks with 7), the models
  removed in allocation order (rank-and-file first, an attached Leader last);
* a lone model at or below its damaged profile's wounds attacks with its Hit modifier;
* an attacker destroyed before its activation does not attack, and a destroyed unit is not
  attacked (05.04.04 Destroyed; 10th edition: a destroyed unit is removed);
* the Fight phase: a unit that charged this turn fights first (10th edition: Charge Bonus and
  Fights First; edition 11: 11.04, 24.13, 12.04); otherwise (both or neither have Fights
  First) the player whose turn it is not selects first in the 10th edition (Core rules, Fight
  phase: both steps start with them) and the player whose turn it is in edition 11 (12.04);
  ``--fight-first`` picks the side instead;
* the attacking unit's Hazardous losses stay in its state (Core rules: Hazardous; 06.03).
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import partial
from pathlib import Path

import pytest
from exchange_oracle import (
    Model,
    Unit,
    Weapon,
    exchange,
    p_hit,
    p_unsaved,
    p_wound,
)
from helpers import check_exchange, cli, cli_json, write_datasheet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DATA = Path(__file__).parent / "data" / "exchange"
calc = partial(cli, "exchange", dirs=[DATA], env={"COLUMNS": "80"})
as_json = partial(cli_json, "exchange", dirs=[DATA], env={"COLUMNS": "80"})

RAPIER = Weapon(A=2, skill=3, S=4, AP=0, D=1)
MAUL = Weapon(A=3, skill=4, S=5, AP=-1, D=2)
FENCER = Unit((Model("Fencer", 3, 4, 4, RAPIER),), ((0,),))
BRUTE = Unit((Model("Brute", 4, 5, 5, MAUL),), ((0,),), damaged=(2, -1))


def other(side: str) -> str:
    return "b" if side == "a" else "a"


def tie_lead(active: str, edition: str) -> str:
    """The side that fights first when both or neither have Fights First, as the rules say
    it (written here, not taken from the program): in the 10th edition the side whose turn it
    is not (Core rules, Fight phase: both steps start with the player whose turn it is not);
    in edition 11 the side whose turn it is (12.04 Fight Step)."""
    return other(active) if edition == "10" else active


def no_charge_order(first: str, turns: int, edition: str) -> list[str]:
    """The sides acting, in order, when both fight in every Fight phase and nobody has Fights
    First: each turn the tie's lead, then the other side; the turns alternate from ``first``."""
    out = []
    for t in range(turns):
        lead = tie_lead(first if t % 2 == 0 else other(first), edition)
        out += [lead, other(lead)]
    return out


# ---- a duel of one model each, by hand --------------------------------------------------------


def test_oracle_dice_by_hand():
    """The oracle's own arithmetic on the duel's numbers: the Fencer's rapier (WS3+, S4 into
    T5, no AP into Sv5+) gets through with 2/3 x 1/3 x 2/3; the Brute's maul (WS4+, S5 into T4,
    AP-1 into Sv4+) with 1/2 x 2/3 x 2/3, and at 1-2 wounds left (-1 to hit: 5+) 1/3 x ..."""
    assert p_hit(3, 0) * p_wound(4, 5) * p_unsaved(5, 0) == F(4, 27)
    assert p_hit(4, 0) * p_wound(5, 4) * p_unsaved(4, -1) == F(2, 9)
    assert p_hit(5, 0) == F(1, 3)


def _duel_by_hand(first: str) -> dict:
    """P(Fencer destroyed), P(Brute destroyed) after one Fight phase, by hand. The Fencer's
    two attacks each take 1 wound with 4/27, so they cannot destroy the 4-wound Brute; the
    Brute's three each take 2 with 2/9, and the Fencer (W3) dies to two of them. When the
    Fencer strikes first and both its attacks get through, the Brute is left at 2 wounds, in
    its damaged bracket, and hits on 5+: each attack then gets through with 4/27."""
    f, b = F(4, 27), F(2, 9)
    fencer_dies = 1 - (1 - b) ** 3 - 3 * b * (1 - b) ** 2  # two or more of three
    if first == "b":  # the Brute (4 wounds) strikes first; the Fencer answers if alive
        brute_dies = F(0)  # two 1-damage attacks cannot take 4 wounds
        return {"a": fencer_dies, "b": brute_dies}
    d = F(4, 27)
    dies_damaged = 1 - (1 - d) ** 3 - 3 * d * (1 - d) ** 2
    return {"a": f * f * dies_damaged + (1 - f * f) * fencer_dies, "b": F(0)}


@pytest.mark.parametrize("edition", ["10", "11"])
@pytest.mark.parametrize("first", ["a", "b"])
def test_duel_one_turn_both_orders_by_hand(first, edition):
    """No charge, nobody has Fights First: in the 10th edition the side whose turn it is not
    fights first, in edition 11 the side whose turn it is."""
    out = as_json(
        "--side-a", "fight fencer", "--side-b", "fight brute", "--turns", "1", "--first", first,
        "--edition", edition,
    )  # fmt: skip
    lead = other(first) if edition == "10" else first
    hand = _duel_by_hand(lead)
    assert [a["side"] for a in out["activations"]] == [lead, other(lead)]
    for side in "ab":
        assert out["result"]["p_destroyed"][side] == pytest.approx(float(hand[side]), abs=1e-12)
    joint, steps = exchange(FENCER, BRUTE, [lead, other(lead)])
    check_exchange(out, joint, steps)


@pytest.mark.parametrize("edition", ["10", "11"])
@pytest.mark.parametrize("first", ["a", "b"])
def test_duel_two_battle_rounds_against_the_chain(first, edition):
    """Four turns, both fighting in each Fight phase: the 10th edition's phases start with the
    side whose turn it is not (B, A, A, B, ... from A's turn), edition 11's with the side whose
    turn it is."""
    out = as_json(
        "--side-a", "fight fencer", "--side-b", "fight brute", "--rounds", "2", "--first", first,
        "--edition", edition,
    )  # fmt: skip
    order = no_charge_order(first, 4, edition)
    lead = other(first) if edition == "10" else first
    assert order == [lead, other(lead), other(lead), lead] * 2
    assert [a["side"] for a in out["activations"]] == order
    joint, steps = exchange(FENCER, BRUTE, order)
    check_exchange(out, joint, steps)


# ---- the order of a Fight phase where both or neither have Fights First, by hand -------------
#
# Two made-up one-model units, W1 each, one attack each, so each activation made while both are
# alive destroys the other unit with a fixed chance and the exchange ends at the first success:
# the Striker (T4, Sv4+; blade A1 WS4+ S4 AP-3 D1) destroys the Guard with 1/2 x 1/2 x 1 = 1/4
# (S4 v T4: 4+; AP-3 against Sv4+: no save), the Guard (T4, Sv4+; spear A1 WS3+ S4 AP-3 D1) the
# Striker with 2/3 x 1/2 x 1 = 1/3.

DUELLISTS = {
    "Striker": {"A": 1, "skill": 4, "S": 4, "AP": -3, "D": 1, "weapon": "Blade"},
    "Guard": {"A": 1, "skill": 3, "S": 4, "AP": -3, "D": 1, "weapon": "Spear"},
}


def _duellists(tmp_path: Path) -> Path:
    folder = tmp_path / "duellists"
    folder.mkdir()
    for name, w in DUELLISTS.items():
        blade = {"name": w["weapon"], "range": "melee", "A": w["A"], "skill": w["skill"],
                 "S": w["S"], "AP": w["AP"], "D": w["D"]}  # fmt: skip
        write_datasheet(
            folder, name, [blade], model=name, keywords=["INFANTRY", name.upper()], points=10
        )
    return folder


def _first_kill(order: list[str], kill: dict[str, F]) -> dict[str, F]:
    """P(each unit destroyed) when the sides act in ``order`` and side s's activation
    destroys the other with ``kill[s]`` while both live (the first success ends it)."""
    out = {"a": F(0), "b": F(0)}
    alive = F(1)  # P(both alive before this activation)
    for s in order:
        out[other(s)] += alive * kill[s]
        alive *= 1 - kill[s]
    return out


# The Striker charges (A's turn: it fights first); every later Fight phase is a tie (the
# charge bonus lasts only its own turn). With a = 1/4, b = 1/3 (qa = 3/4, qb = 2/3), the
# Guard destroys the Striker at each of its activations after every earlier one failed:
# 10th edition, order A B | A B | B A | A B (turns 2-4 led by the side whose turn it is not):
#   P(A destroyed) = b (qa + qa^2 qb + qa^2 qb^2 + qa^4 qb^3) = 1/3 (3/4 + 3/8 + 1/4 + 3/32)
#                  = 47/96;  P(B destroyed) = a (1 + qa qb + qa^2 qb^3 + qa^3 qb^3)
#                  = 1/4 (1 + 1/2 + 1/6 + 1/8) = 43/96;  neither: qa^4 qb^4 = 6/96.
# Edition 11, order A B | B A | A B | B A (led by the side whose turn it is):
#   P(A destroyed) = b (qa + qa qb + qa^3 qb^2 + qa^3 qb^3) = 1/3 (3/4 + 1/2 + 3/16 + 1/8)
#                  = 50/96;  P(B destroyed) = a (1 + qa qb^2 + qa^2 qb^2 + qa^3 qb^4)
#                  = 1/4 (1 + 1/3 + 1/4 + 1/12) = 40/96.
# --fight-first b in the 10th edition, A B | B A | B A | B A: P(A destroyed) = b (qa + qa qb
#   + qa^2 qb^2 + qa^3 qb^3) = 1/3 (3/4 + 1/2 + 1/4 + 1/8) = 52/96.
# --fight-first a in edition 11, A B | A B | A B | A B: P(A destroyed) = b (qa + qa^2 qb
#   + qa^3 qb^2 + qa^4 qb^3) = 1/3 (3/4 + 3/8 + 3/16 + 3/32) = 45/96.
KILL = {"a": F(1, 4), "b": F(1, 3)}
TIE_ORDER = {
    ("10", None): (["a", "b", "a", "b", "b", "a", "a", "b"], F(47, 96), F(43, 96)),
    ("11", None): (["a", "b", "b", "a", "a", "b", "b", "a"], F(50, 96), F(40, 96)),
    ("10", "b"): (["a", "b", "b", "a", "b", "a", "b", "a"], F(52, 96), None),
    ("11", "a"): (["a", "b"] * 4, F(45, 96), None),
}


def test_the_hand_values_of_the_tie_order_duel():
    """The closed forms above against the first-kill chain, and they differ by order (so the
    test below can fail)."""
    for order, p_a, p_b in TIE_ORDER.values():
        got = _first_kill(order, KILL)
        assert got["a"] == p_a
        if p_b is not None:
            assert got["b"] == p_b
    assert len({p_a for _, p_a, _ in TIE_ORDER.values()}) == len(TIE_ORDER)


@pytest.mark.parametrize(("edition", "pick"), list(TIE_ORDER))
def test_after_the_charge_the_tie_order_follows_the_edition(tmp_path, edition, pick):
    """Two battle rounds after the Striker's charge: turn 1 the charger fights first; in every
    later Fight phase neither has Fights First and the 10th edition starts with the side whose
    turn it is not (Core rules, Fight phase), edition 11 with the side whose turn it is
    (12.04); ``--fight-first`` picks the side in either. P(each destroyed) by hand; the
    sampler (same seed each run) within its standard errors."""
    order, p_a, p_b = TIE_ORDER[(edition, pick)]
    args = ["--side-a", "fight striker --charged", "--side-b", "fight guard", "--rounds", "2"]
    args += ["--edition", edition, "--method", "both", "--trials", "20000", "--seed", "3"]
    if pick is not None:
        args += ["--fight-first", pick]
    out = cli_json("exchange", *args, dirs=[_duellists(tmp_path)])
    assert [a["side"] for a in out["activations"]] == order
    assert [a["active"] for a in out["activations"]] == ["a", "a", "b", "b"] * 2
    assert out["result"]["p_destroyed"]["a"] == pytest.approx(float(p_a), abs=1e-12)
    if p_b is not None:
        assert out["result"]["p_destroyed"]["b"] == pytest.approx(float(p_b), abs=1e-12)
    sample = out["sample"]["result"]
    for side in "ab":
        se = sample["standard_error"]["p_destroyed"][side]
        assert abs(sample["p_destroyed"][side] - out["result"]["p_destroyed"][side]) < 5 * se
    # the notes say who fights first in the tied phases (turns 2-4) and why
    tie = [n for n in out["notes"] if n.startswith("the Fight phases of turns 2, 3, 4: ")]
    assert len(tie) == 1, out["notes"]
    if pick is not None:
        assert f"side {pick.upper()} fights first (--fight-first)" in tie[0]
    elif edition == "10":
        assert "the side whose turn it is not fights first (10th edition: Core rules" in tie[0]
    else:
        assert "the side whose turn it is fights first (12.04 Fight Step)" in tie[0]


# ---- a damaged single model fights back with its damaged profile ------------------------------


def test_damaged_model_fights_back_with_its_damaged_profile():
    """The Brute starts on 3 wounds: one of the Fencer's attacks through (2 x 4/27 x 23/27)
    leaves it on 2, in its damaged bracket (-1 to hit: its attacks then get through with 4/27
    rather than 2/9); two leave it on 1, still damaged. By hand, P(Fencer destroyed) is the
    mixture over the Brute's wounds left. (``--fight-first a``: the Fencer strikes first in its
    own turn; the 10th edition would start with the Brute, whose turn it is not.)"""
    out = as_json(
        "--side-a", "fight fencer", "--side-b", "fight brute --wounds-left 3", "--turns", "1",
        "--fight-first", "a",
    )  # fmt: skip
    assert [a["side"] for a in out["activations"]] == ["a", "b"]
    f = F(4, 27)

    def kills(p):  # two or more of three attacks through
        return 1 - (1 - p) ** 3 - 3 * p * (1 - p) ** 2

    untouched = (1 - f) ** 2
    hand = untouched * kills(F(2, 9)) + (1 - untouched) * kills(F(4, 27))
    assert out["result"]["p_destroyed"]["a"] == pytest.approx(float(hand), abs=1e-12)
    assert out["sides"]["b"]["wounds_left"] == 3
    joint, steps = exchange(FENCER, BRUTE, ["a", "b"], start_b=(3,))
    check_exchange(out, joint, steps)
    notes = out["activations"][1]["notes"]
    assert any("damaged profile" in n for n in notes)


def test_damaged_bracket_is_one_resolution():
    """Every wounds-left value in the damaged bracket attacks alike: the Brute on 2 or on 1
    wound is one attack class (so one resolution), beside the undamaged one (the Fencer
    strikes first: ``--fight-first a``)."""
    out = as_json(
        "--side-a", "fight fencer", "--side-b", "fight brute --wounds-left 3", "--turns", "1",
        "--fight-first", "a",
    )  # fmt: skip
    assert out["activations"][1]["side"] == "b"
    assert out["activations"][1]["attack_classes"] == 2


# ---- a Leader in one side ------------------------------------------------------------------------

RAIDER = Model("Raider", 1, 4, 5, Weapon(A=1, skill=4, S=3, AP=0, D=1))
CHIEF = Model("Chief", 3, 4, 4, Weapon(A=2, skill=3, S=5, AP=-1, D=2))
# the Bodyguard's knives first, then the Leader's axe (the datasheets' order); the Chief is
# allocated to last (Core rules: LEADER)
WARBAND = Unit((RAIDER, RAIDER, RAIDER, CHIEF), ((0, 1, 2), (3,)))


@pytest.mark.parametrize("first", ["a", "b"])
def test_leader_in_one_side(first):
    """Three Raiders led by a Chief against the Brute, two battle rounds (10th edition: each
    Fight phase led by the side whose turn it is not): the Raiders are removed first, the
    Chief attacks while it lives and the unit with it."""
    out = as_json(
        "--side-a",
        "fight warband --leader chief",
        "--side-b",
        "fight brute",
        "--rounds",
        "2",
        "--first",
        first,
    )
    order = no_charge_order(first, 4, "10")
    assert [a["side"] for a in out["activations"]] == order
    joint, steps = exchange(WARBAND, BRUTE, order)
    check_exchange(out, joint, steps)
    assert out["sides"]["a"]["allocation_order"] == ["Raider"] * 3 + ["Chief"]
    kinds = out["result"]["expected_models_left_by_kind"]["a"]
    p_chief = sum(p for (la, _), p in joint.items() if la[3] > 0)
    assert kinds["Chief"] == pytest.approx(float(p_chief), abs=1e-9)


# ---- 10 Boyz against 5 Intercessors, two battle rounds ------------------------------------------

BOY = Model("Boy", 1, 5, 5, Weapon(A=3, skill=3, S=4, AP=-1, D=1))  # choppa
NOB = Model("Boss Nob", 2, 5, 5, Weapon(A=3, skill=3, S=7, AP=-1, D=2))  # big choppa
BOYZ = Unit((BOY,) * 9 + (NOB,), ((9,), tuple(range(9))))  # big choppa listed first
MARINE = Model("Intercessor", 2, 4, 3, Weapon(A=3, skill=3, S=4, AP=0, D=1))  # ccw
INTERCESSORS = Unit((MARINE,) * 5, (tuple(range(5)),))


def test_boyz_charge_intercessors_two_rounds_against_the_chain():
    """The Boyz charge (they fight first in turn 1, then the Intercessors); from turn 2 on
    neither has Fights First, and each Fight phase starts with the side whose turn it is not
    (10th edition: Core rules, Fight phase): the Boyz in turn 2 (B's), the Intercessors in
    turn 3 (A's), the Boyz in turn 4. Every figure against the oracle's chain over both units'
    models."""
    out = as_json(
        "--side-a",
        "fight boyz --models 10 --charged",
        "--side-b",
        "fight intercessor-squad --models 5",
        "--rounds",
        "2",
        dirs=[],
    )
    order = ["a", "b", "a", "b", "b", "a", "a", "b"]
    assert order[2:] == no_charge_order("b", 3, "10")
    assert [a["side"] for a in out["activations"]] == order
    assert out["activations"][0]["fights_first"] and out["activations"][0]["charged"]
    assert not any(a["charged"] for a in out["activations"][1:])
    joint, steps = exchange(BOYZ, INTERCESSORS, order)
    check_exchange(out, joint, steps)
    assert sum(sum(r) for r in out["result"]["joint_models_left"]) == pytest.approx(1, abs=1e-9)


# ---- the attacking unit's own Hazardous losses ---------------------------------------------


def test_hazardous_losses_stay_in_the_shooting_units_state_edition_10():
    """Gunners (a W4 CHARACTER Veteran and a W1 Gunner, each with a [HAZARDOUS] gun) shoot:
    two Hazardous tests, each failed on a 1 (1/6). A failure puts 3 mortal wounds on a carrier
    that has lost wounds, else one that is not a CHARACTER, else a CHARACTER, the rest lost:
    one failure destroys the Gunner, a second leaves the Veteran on 1 wound. By hand:
    P(one model left) = 1 - (5/6)^2 = 11/36; wounds lost 10/36 x 1 + 1/36 x 4 = 14/36."""
    out = as_json("--side-a", "shoot gunners", "--side-b", "shoot gunners", "--turns", "1")
    left = out["result"]["models_left_distribution"]["a"]
    assert left[1] == pytest.approx(11 / 36, abs=1e-12)
    assert left[2] == pytest.approx(25 / 36, abs=1e-12)
    assert out["result"]["expected_wounds_left"]["a"] == pytest.approx(5 - 14 / 36, abs=1e-12)
    assert out["activations"][0]["expected"]["own_models_lost"] == pytest.approx(11 / 36)


def test_hazardous_losses_stay_in_the_state_edition_11_and_the_unit_shoots_with_them():
    """Edition 11 (06.03): each hazard roll fails on 1-2 and the unit suffers 1 mortal wound,
    allocated as 06.02 (the non-CHARACTER Gunner first). P(the Gunner is lost) = 1 - (2/3)^2
    = 5/9; expected wounds lost 2 x 1/3. In their next turn the Gunners shoot with the models
    left."""
    out = as_json(
        "--side-a", "shoot gunners", "--side-b", "shoot gunners", "--turns", "1", "--edition", "11"
    )
    assert out["result"]["models_left_distribution"]["a"][1] == pytest.approx(5 / 9, abs=1e-12)
    assert out["result"]["expected_wounds_left"]["a"] == pytest.approx(5 - 2 / 3, abs=1e-12)
    three = as_json(
        "--side-a", "shoot gunners", "--side-b", "shoot gunners", "--turns", "3", "--edition", "11"
    )
    third = three["activations"][2]
    assert third["side"] == "a"
    # in turn 3 the Gunners shoot with the models left: 2 guns, 1 where the Gunner was lost
    # (to its own hazard roll, 5/9, or to B's shooting: more)
    assert third["expected"]["attacks"] <= third["p_made"] * (2 - 5 / 9) + 1e-9


# ---- an attacker destroyed before its turn does not attack --------------------------------------


def test_a_destroyed_unit_neither_attacks_nor_is_attacked():
    """Activation 2 is made only where the Boyz' charge left an Intercessor: its P(made) is
    1 - P(B destroyed) after the turn (B's own attacks cannot destroy B), and its attacks are
    made only there."""
    out = as_json(
        "--side-a",
        "fight boyz --models 20 --charged --effect waaagh",
        "--side-b",
        "fight intercessor-squad --models 5",
        "--turns",
        "1",
        dirs=[],
    )
    acts = out["activations"]
    p_wiped = out["result"]["p_destroyed"]["b"]
    assert 0.05 < p_wiped < 0.999
    assert acts[1]["p_made"] == pytest.approx(1 - p_wiped, abs=1e-12)
    assert acts[1]["expected"]["attacks"] <= 15 * acts[1]["p_made"] + 1e-9


# ---- the exact engine and the sampler agree ------------------------------------------------------

AGREE_TRIALS = 20_000


def _agree(out: dict, trials: int = AGREE_TRIALS, z: float = 5.0) -> None:
    """Every activation's P(made), attacks, models destroyed and own losses, and the units'
    chances and models left, sampled within ``z`` standard errors (floored at 1/trials) of the
    exact figures."""
    floor = 1 / trials
    sample = out["sample"]
    for exact, sampled in zip(out["activations"], sample["activations"], strict=True):
        se = sampled["standard_error"]
        assert abs(exact["p_made"] - sampled["p_made"]) <= z * max(se["p_made"], floor)
        for f in ("attacks", "damage", "models_destroyed", "own_models_lost"):
            diff = abs(exact["expected"][f] - sampled["expected"][f])
            assert diff <= z * max(se[f], floor), (exact["number"], f, diff, se[f])
    got, want = sample["result"], out["result"]
    se = got["standard_error"]
    for side in "ab":
        for key in ("p_destroyed", "expected_models_left"):
            diff = abs(got[key][side] - want[key][side])
            assert diff <= z * max(se[key][side], floor), (key, side, diff)
    assert abs(got["p_both_destroyed"] - want["p_both_destroyed"]) <= z * max(
        se["p_both_destroyed"], floor
    )


AGREEMENT = {
    "boyz-intercessors": (
        [
            "--side-a",
            "fight boyz --models 10 --charged",
            "--side-b",
            "fight intercessor-squad --models 5",
            "--rounds",
            "2",
        ],
        [],
    ),
    "leader-brute": (
        [
            "--side-a",
            "fight warband --leader chief",
            "--side-b",
            "fight brute --wounds-left 3",
            "--rounds",
            "2",
        ],
        [DATA],
    ),
    "hazard-shooting": (
        [
            "--side-a",
            "shoot lootas --models 10 --loadout kustom-mega-blastas",
            "--side-b",
            "shoot intercessor-squad --models 5",
            "--rounds",
            "1",
        ],
        [],
    ),
    "edition-11": (
        [
            "--side-a",
            "fight boyz --models 10 --charged",
            "--side-b",
            "fight intercessor-squad --models 5",
            "--rounds",
            "1",
            "--edition",
            "11",
        ],
        [],
    ),
    "shoot-then-charge": (
        [
            "--side-a",
            "shoot boyz --models 10",
            "--side-a",
            "fight boyz --charged",
            "--side-b",
            "fight fencer",
            "--rounds",
            "1",
        ],
        [DATA],
    ),
}


@pytest.mark.parametrize("name", list(AGREEMENT))
def test_exact_and_sampler_agree(name):
    args, dirs = AGREEMENT[name]
    out = as_json(
        *args, "--method", "both", "--trials", str(AGREE_TRIALS), "--seed", "11", dirs=dirs
    )
    _agree(out)


FIGHTERS = [
    "fight fencer",
    "fight brute",
    "fight brute --wounds-left 2",
    "fight warband",
    "fight warband --leader chief",
    "fight boyz --models 10",
    "fight intercessor-squad --models 5",
]


@settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=12,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    a=st.sampled_from(FIGHTERS),
    b=st.sampled_from(FIGHTERS),
    charged=st.booleans(),
    turns=st.integers(1, 3),
    edition=st.sampled_from(["10", "11"]),
)
def test_exact_and_sampler_agree_on_random_pairs(a, b, charged, turns, edition):
    """Small random pairs of units, with or without a charge, over 1-3 turns, both editions."""
    from wh40k_calc.exchange.output import to_json_exchange
    from wh40k_calc.exchange.run import run_exchange
    from wh40k_calc.exchange.setup import build_setup
    from wh40k_calc.exchange.sides import build_side
    from wh40k_calc.options import Edition as Ed
    from wh40k_calc.options import EngineOptions, Method, catalog

    cat = catalog([DATA])
    engine = EngineOptions(edition=Ed(edition), method=Method.both)
    side_a = build_side("a", [a + (" --charged" if charged else "")], cat)
    side_b = build_side("b", [b], cat)
    setup = build_setup(side_a, side_b, cat, engine, turns)
    out = to_json_exchange(run_exchange(setup, "both", 4_000, 5))
    _agree(out, trials=4_000)
    total = sum(sum(r) for r in out["result"]["joint_models_left"])
    assert total == pytest.approx(1.0, abs=1e-9)


# ---- bad input ---------------------------------------------------------------------------------

BAD = [
    # (arguments, exit code, words the message must hold)
    (["--side-a", "fight boyzz", "--side-b", "fight fencer"], 1, ["boyz"]),
    (
        ["--side-a", "fight fencer --modles 2", "--side-b", "fight brute"],
        2,
        ["--side-a", "--modles"],
    ),
    (
        ["--side-a", "fight fencer -t brute", "--side-b", "fight brute"],
        2,
        ["--target", "other unit"],
    ),
    (["--side-a", "fight fencer --method sample", "--side-b", "fight brute"], 2, ["--method"]),
    (
        ["--side-a", "fight fencer", "--side-a", "fight fencer", "--side-b", "fight brute"],
        2,
        ["fights once per Fight phase"],
    ),
    (
        [
            "--side-a",
            "shoot boyz --models 10",
            "--side-a",
            "fight boyz --models 20 --charged",
            "--side-b",
            "fight fencer",
        ],
        2,
        ["--models", "differs", "described once"],
    ),
    (
        ["--side-a", "shoot boyz", "--side-a", "fight fencer --charged", "--side-b", "fight brute"],
        2,
        ["the unit differs"],
    ),
    (
        ["--side-a", "fight fencer --charged", "--side-b", "fight brute --charged"],
        2,
        ["both sides"],
    ),
    (["--side-a", "shoot gunners", "--side-b", "fight brute"], 2, ["nobody charges"]),
    (
        ["--side-a", "fight fencer", "--side-b", "fight brute", "--rounds", "2", "--turns", "3"],
        2,
        ["--rounds or --turns"],
    ),
    (["--side-a", "fight boyz --weapon 'Choppa x3'", "--side-b", "fight fencer"], 2, ["--weapon"]),
    (
        ["--side-a", "fight warband --wounds-left 1", "--side-b", "fight fencer"],
        1,
        ["Raider", "W1"],
    ),
    (
        ["--side-a", "fight fencer --charged", "--side-b", "fight brute", "--first", "b"],
        2,
        ["charges"],
    ),
    (["--side-a", "shoot gunners --charged", "--side-b", "shoot gunners"], 2, ["fight activation"]),
    (["--side-a", "fight fencer --help", "--side-b", "fight brute"], 2, ["not inside a side"]),
    (["--side-a", "fight fencer 'unclosed", "--side-b", "fight brute"], 2, ["cannot read"]),
    (["--side-a", "shoot fencer", "--side-b", "shoot brute"], 1, ["no ranged weapon"]),
]


@pytest.mark.parametrize(("args", "code", "words"), BAD)
def test_bad_input_is_refused_with_the_reason(args, code, words):
    result = calc(*args)
    assert result.exit_code == code, result.output
    message = result.stderr if result.stderr else result.output
    assert "error" in message.lower() or code == 2, message
    for w in words:
        assert w in message, (w, message)


def test_missing_side_is_a_usage_error():
    result = calc("--side-a", "fight fencer")
    assert result.exit_code == 2
    assert "--side-b" in result.output


# ---- output ------------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", ["80", "60"])
def test_text_fits_the_terminal_and_figures_are_never_cut(columns):
    result = cli(
        "exchange",
        "--side-a",
        "fight boyz --models 20 --leader warboss --charged",
        "--side-b",
        "fight intercessor-squad --models 10 --leader captain",
        "--method",
        "both",
        "--trials",
        "2000",
        env={"COLUMNS": columns},
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert all(len(line) <= int(columns) for line in lines), max(lines, key=len)
    assert "…" not in result.stdout
    assert "P(A destroyed)" in result.stdout
    assert "Models left: A of 21 (rows) × B of 11" in result.stdout
    assert "A \\ B" in result.stdout


def test_json_joint_table_is_a_distribution_with_the_marginals():
    out = as_json(
        "--side-a", "fight warband --leader chief", "--side-b", "fight brute", "--rounds", "1"
    )
    joint = out["result"]["joint_models_left"]
    assert len(joint) == 5 and len(joint[0]) == 2
    rows = [sum(r) for r in joint]
    cols = [sum(r[j] for r in joint) for j in range(2)]
    # the JSON gives each figure to 12 decimals (at most 0.5e-12 off): a sum of n of them and
    # the marginal given beside it differ by at most (n + 1) x 0.5e-12
    ulp = 0.5e-12
    a_dist, b_dist = (out["result"]["models_left_distribution"][k] for k in "ab")
    assert rows == pytest.approx(a_dist, abs=(len(joint[0]) + 1) * ulp)
    assert cols == pytest.approx(b_dist, abs=(len(joint) + 1) * ulp)
    assert out["result"]["p_both_destroyed"] == pytest.approx(joint[0][0], abs=1e-12)
    assert out["phase"] == "exchange" and out["turns"] == 2 and out["rounds"] == 1


def test_when_the_exact_engine_declines_the_whole_exchange_is_sampled(monkeypatch):
    """An activation the exact engine declines (too large) makes every figure the
    sampler's, said in the notes (as calc sequence does)."""
    import wh40k_calc.resolve as resolve_module
    from wh40k_calc.engine.exact import ExactUnsupported
    from wh40k_calc.exchange.run import run_exchange
    from wh40k_calc.exchange.setup import build_setup
    from wh40k_calc.exchange.sides import build_side
    from wh40k_calc.options import EngineOptions, catalog

    def declines(act, *args, **kwargs):
        raise ExactUnsupported("too large for the test")

    cat = catalog([DATA])
    a, b = build_side("a", ["fight fencer"], cat), build_side("b", ["fight brute"], cat)
    setup = build_setup(a, b, cat, EngineOptions(), 2)
    monkeypatch.setattr(resolve_module, "run_exact", declines)
    out = run_exchange(setup, "exact", 2_000, 3)
    assert out.method == "sample" and out.exact is None and out.sample is not None
    assert "too large for the test" in out.exact_declined
    assert any("declined" in n for n in out.notes)
    order = no_charge_order("a", 2, "10")
    assert [p.side for p in setup.steps] == order
    joint, _ = exchange(FENCER, BRUTE, order)
    p_a = float(sum(p for (la, _), p in joint.items() if not any(la)))
    se = out.sample.summary.standard_error["p_destroyed"]["a"]
    assert abs(out.sample.summary.p_destroyed["a"] - p_a) <= 5 * max(se, 1 / 2_000)


def test_the_sampler_runs_the_trials_in_chunks_and_still_agrees(monkeypatch):
    """Trials in chunks (every activation for one chunk before the next) pool into the same
    figures: within standard errors of the exact ones, and the same for one seed."""
    import wh40k_calc.exchange.sampled as sampled
    from wh40k_calc.exchange.output import to_json_exchange
    from wh40k_calc.exchange.run import run_exchange
    from wh40k_calc.exchange.setup import build_setup
    from wh40k_calc.exchange.sides import build_side
    from wh40k_calc.options import EngineOptions, catalog

    cat = catalog([DATA])
    a = build_side("a", ["fight warband --leader chief --charged"], cat)
    b = build_side("b", ["fight brute"], cat)
    setup = build_setup(a, b, cat, EngineOptions(), 2)
    monkeypatch.setattr(sampled, "CHUNK", 1_500)
    out = to_json_exchange(run_exchange(setup, "both", 6_000, 9))
    _agree(out, trials=6_000)
    again = to_json_exchange(run_exchange(setup, "both", 6_000, 9))
    assert again["sample"] == out["sample"]


def test_survivors_without_a_weapon_for_the_phase_do_not_attack():
    """The Crew's Guard (knife, allocated first) dies first; the Loader left has no melee
    weapon, so the unit makes no attack in a Fight phase, though it is still there to be
    attacked."""
    crew = Unit(
        (
            Model("Guard", 1, 4, 5, Weapon(A=2, skill=4, S=3, AP=0, D=1)),
            Model("Loader", 2, 4, 5, None),
        ),
        ((0,), (1,)),
    )
    out = as_json("--side-a", "fight crew", "--side-b", "fight brute", "--rounds", "2")
    order = no_charge_order("a", 4, "10")
    assert [a["side"] for a in out["activations"]] == order == ["b", "a", "a", "b"] * 2
    joint, steps = exchange(crew, BRUTE, order)
    check_exchange(out, joint, steps)
    loader_alone = out["activations"][1]  # the Crew after the Brute's first attacks
    assert loader_alone["attack_classes"] == 1  # the class with only the Loader does not attack

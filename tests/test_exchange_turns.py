"""``calc exchange`` over several turns: what a turn changes in an activation.

The charge is made once, in the charging side's first turn (10th edition: Core rules, Charge
phase and Charge Bonus; edition 11: 11.04 Charge Move): an ``--effect`` whose condition is
the Charge move (Hack and Slash: +1 AP to melee weapons after a charge) applies in that
turn's Fight phase and simply not in later ones (a note says so), rather than refusing the
whole exchange; likewise an effect that needs more models than the unit has left. In an
exchange ``--charged`` always counts (it decides whose turn comes first and gives Fights
First), so no "no effect" note is said of it; a side without a fight activation makes no
attacks in the Fight phase, and a note says so.

Expected values come from the independent chain of ``tests/exchange_oracle.py`` (its own dice
arithmetic, fractions), never from the code under test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from exchange_oracle import Model, Unit, Weapon, exchange, models_left_joint, wounds_left
from helpers import check_exchange, cli, cli_json, write_datasheet

# Two made-up units. Reavers (World Eaters, so Hack and Slash can act for them): 2 models,
# W2 T4 Sv3+, each a chainaxe A2 WS3+ S4 AP0 D1. The Warden: 1 model, W4 T4 Sv3+, a glaive
# A3 WS3+ S4 AP-1 D1 (and a sling, for a side that shoots).
CHAINAXE = Weapon(A=2, skill=3, S=4, AP=0, D=1)
CHAINAXE_AFTER_CHARGE = Weapon(A=2, skill=3, S=4, AP=-1, D=1)  # Hack and Slash: AP improved by 1
GLAIVE = Weapon(A=3, skill=3, S=4, AP=-1, D=1)
REAVERS = Unit((Model("Reaver", 2, 4, 3, CHAINAXE),) * 2, ((0, 1),))
REAVERS_CHARGING = Unit((Model("Reaver", 2, 4, 3, CHAINAXE_AFTER_CHARGE),) * 2, ((0, 1),))
WARDEN = Unit((Model("Warden", 4, 4, 3, GLAIVE),), ((0,),))

SHEETS = {
    "Reavers": ("World Eaters", ["INFANTRY", "WORLD EATERS", "REAVERS"], "Reaver", 2, 2,
                {"name": "Chainaxe", "A": 2, "AP": 0}),
    "Warden": ("Testers", ["INFANTRY", "WARDEN"], "Warden", 1, 4,
               {"name": "Glaive", "A": 3, "AP": -1}),
}  # fmt: skip


@pytest.fixture
def sheets(tmp_path: Path) -> Path:
    folder = tmp_path / "turns"
    folder.mkdir()
    for name, (faction, keywords, model, count, wounds, weapon) in SHEETS.items():
        weapons = [{"name": weapon["name"], "range": "melee", "A": weapon["A"], "skill": 3,
                    "S": 4, "AP": weapon["AP"], "D": 1}]  # fmt: skip
        if name == "Warden":  # a sling too (it shoots; in melee only the glaive counts)
            weapons.append({"name": "Sling", "range": 18, "A": 1, "skill": 3, "S": 3, "AP": 0,
                            "D": 1})  # fmt: skip
        write_datasheet(
            folder,
            name,
            weapons,
            models=count,
            model=model,
            keywords=keywords,
            faction=faction,
            points=20 * count,
            stats={"Sv": 3, "W": wounds},
        )
    return folder


CHARGE = ["--side-a", "fight reavers --charged --effect hack-and-slash", "--side-b", "fight warden"]
# 10th edition, A charging: turn 1 A (charged, Fights First) then B; later Fight phases have
# no Fights First, so the side whose turn it is not starts: turn 2 (B's) A, turn 3 (A's) B.
ORDER = [("a", REAVERS_CHARGING), "b", "a", "b", "b", "a", "a", "b"]


def test_the_oracle_sees_the_charge_bonus():
    """Hack and Slash changes the chain's figures (so the test below can fail): AP-1 against
    Sv3+ lets 1/2 of the wounds through rather than 1/3."""
    with_bonus, _ = exchange(REAVERS, WARDEN, ORDER)
    without, _ = exchange(REAVERS, WARDEN, ["a", *ORDER[1:]])
    assert wounds_left(with_bonus, "b") < wounds_left(without, "b")


def test_a_charge_effect_applies_in_the_charge_turn_only(sheets):
    """Two battle rounds: Hack and Slash in turn 1's Fight phase, not in the later ones (not
    refused there): every figure as the chain's."""
    out = cli_json("exchange", *CHARGE, "--rounds", "2", dirs=[sheets])
    assert [a["side"] for a in out["activations"]] == [e[0] for e in ORDER]
    joint, steps = exchange(REAVERS, WARDEN, ORDER)
    check_exchange(out, joint, steps)
    later = [n for a in out["activations"][2:] for n in a["notes"]]
    assert any(
        n.startswith("--effect hack-and-slash: no effect: Hack and Slash needs a unit that made "
                     "a Charge move this turn (the charge is made once") for n in later
    ), later  # fmt: skip
    assert not any("hack-and-slash" in n for n in out["activations"][0]["notes"])


def test_a_charge_effect_in_later_turns_sampled(sheets):
    """The sampler makes the same activations (no refusal) and agrees with the chain."""
    out = cli_json(
        "exchange", *CHARGE, "--rounds", "2", "--method", "sample", "--trials", "20000",
        "--seed", "5", dirs=[sheets],
    )  # fmt: skip
    joint, _ = exchange(REAVERS, WARDEN, ORDER)
    want = models_left_joint(joint)
    res = out["sample"]["result"]
    for i, side in enumerate("ab"):
        left = float(sum(p * n[i] for n, p in want.items()))
        se = res["standard_error"]["expected_models_left"][side]
        assert abs(res["expected_models_left"][side] - left) < 5 * max(se, 1 / 20000)


def test_a_charge_effect_outside_an_exchange_is_still_refused(sheets):
    """``calc fight`` without ``--charged`` keeps refusing it, with the option to give."""
    r = cli("fight", "reavers", "--effect", "hack-and-slash", "--target", "warden", dirs=[sheets])
    assert r.exit_code != 0
    assert "needs a unit that made a Charge move this turn (add --charged)" in r.output


def test_the_charge_is_never_said_to_have_no_effect_in_an_exchange(sheets):
    """The Reavers have no [LANCE] weapon: ``calc fight --charged`` says the charge changes
    nothing there, but in the exchange it starts the exchange and gives Fights First."""
    fight = cli("fight", "reavers", "--charged", "--target", "warden", dirs=[sheets])
    assert "--charged: no effect" in fight.output
    out = cli_json(
        "exchange", "--side-a", "fight reavers --charged", "--side-b", "fight warden",
        dirs=[sheets],
    )  # fmt: skip
    said = [*out["notes"], *(n for a in out["activations"] for n in a["notes"])]
    assert not any("--charged" in n for n in said), said


def test_a_side_without_a_fight_activation_is_said_not_to_fight_back(sheets):
    """Side B only shoots: after A's charge the units are engaged, so B neither shoots nor
    (having no fight activation) fights; both are said."""
    r = cli(
        "exchange", "--side-a", "fight reavers --charged", "--side-b", "shoot warden",
        dirs=[sheets], env={"COLUMNS": "200"},
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "side B has no fight activation: it makes no attacks in the Fight phase" in r.output
    assert "side B's shoot activation is not made: the units are engaged" in r.output
    both = cli(
        "exchange", "--side-a", "fight reavers --charged", "--side-b", "fight warden",
        dirs=[sheets], env={"COLUMNS": "200"},
    )  # fmt: skip
    assert "no fight activation" not in both.output


def test_an_effect_that_needs_more_models_than_are_left_is_not_refused():
    """Edition 11's Blessings of Filth needs an Attached unit of 2 or more models: once only
    the Leader is left it does not apply (a note), and the exchange is resolved."""
    r = cli(
        "exchange", "--edition", "11",
        "--side-a", "fight death-guard/blightlord-terminators --leader "
                    "death-guard/lord-of-contagion --charged --effect blessings-of-filth",
        "--side-b", "fight space-marines/terminator-squad --models 10", "--rounds", "3",
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert (
        "--effect blessings-of-filth: no effect: Blessings of Filth needs an attacking unit "
        "of 2 or more models" in r.output
    )

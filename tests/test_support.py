"""Support characters (edition 11), `--precision-target NAME`, and `--allocation` naming
CHARACTER models (issue 10 item 4, issue 11).

Rules quoted:

* File 004, LEADER 24.22 / SUPPORT 24.34: "for each leader and support unit in your army, you
  can select one friendly bodyguard unit that unit can lead [...] each bodyguard unit can only
  have one leader unit and one support unit attached to it." Seeds README, Support (24.34):
  "both are CHARACTER models of the Attached unit for allocation."
* File 004, Save Rolls, Allocation Order: "No CHARACTER group can be earlier in the allocation
  order than a non-CHARACTER group." Core rules (file 000), LEADER: an attack "cannot be
  allocated to a CHARACTER model in that unit" while a Bodyguard model remains.
* [PRECISION] (file 004, 24.28): "the active player can select one allocation group that
  contains one of those visible CHARACTER models".

Units (written below): 5 Grunts (T4, W1, no save); Captain (CHARACTER, W3, Leader of Grunts);
Medic and Doc (CHARACTER, W2, Support of Grunts); Sniper: one [TORRENT, PRECISION] shot, S8
(wounds T4 on 2+: 5/6), AP0, D2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import approx, fight, melee, model, refused, shoot, weapon, write_sheet

ED11 = ("--edition", "11")


@pytest.fixture
def units(tmp_path: Path) -> Path:
    write_sheet(tmp_path, "Grunts", model("Grunt", T=4, Sv=7), 5)
    captain = model("Captain", T=4, Sv=7, W=3)
    write_sheet(tmp_path, "Captain", captain, 1, "CHARACTER", leader_of=["Grunts"])
    scalpel = melee("Scalpel", A=2, skill=3)
    medic = model("Medic", T=4, Sv=7, W=2, equipped=["Scalpel"])
    write_sheet(tmp_path, "Medic", medic, 1, "CHARACTER", support_of=["Grunts"], weapons=[scalpel])
    doc = model("Doc", T=4, Sv=7, W=2)
    write_sheet(tmp_path, "Doc", doc, 1, "CHARACTER", support_of=["Grunts"])
    sniper = weapon("Sniper", A=1, skill=None, S=8, D=2, abilities=["torrent", "precision"])
    write_sheet(tmp_path, "Sniper", model("Sniper", equipped=["Sniper"]), 1, weapons=[sniper])
    return tmp_path


def at_grunts(folder: Path, *flags: str) -> dict:
    return shoot("sniper", "grunts", *flags, dirs=[folder])


def destroyed(out: dict) -> dict[str, float]:
    return {c["name"]: c["destroyed"] for c in out["characters_destroyed"]}


def test_one_leader_and_one_support_in_edition_11(units):
    out = at_grunts(units, *ED11, "--target-leader", "captain", "--target-leader", "medic")
    assert out["target"]["models"] == 7
    assert out["target"]["allocation_order"] == ["Grunt"] * 5 + ["Captain", "Medic"]
    assert set(destroyed(out)) == {"Captain", "Medic"}


def test_support_alone(units):
    out = at_grunts(units, *ED11, "--target-leader", "medic")
    assert out["target"]["allocation_order"] == ["Grunt"] * 5 + ["Medic"]


def test_support_refused_in_10th_edition(units):
    result = refused("shoot", "sniper", "grunts", "--target-leader", "medic", dirs=[units])
    assert "Support" in result.stderr and "edition 11" in result.stderr


def test_two_supports_refused(units):
    result = refused("shoot", "sniper", "grunts", *ED11, "--target-leader", "medic",
                     "--target-leader", "doc", dirs=[units])  # fmt: skip
    assert "one Support" in result.stderr
    assert "; 24.34 SUPPORT)" in result.stderr  # the edition-11 section (24.23 is LETHAL HITS)


def test_support_on_the_attacking_unit(units):
    """`--leader` takes a Support character too (edition 11): the Medic's Scalpel (A2) fights
    with the Grunts; in 10th edition it is refused."""
    out = fight("grunts", "sniper", *ED11, "--leader", "medic", dirs=[units])
    assert [(w["name"], w["count"]) for w in out["weapons"]] == [("Scalpel", 1)]
    assert out["attacker"]["models"] == 6
    refused("fight", "grunts", "sniper", "--leader", "medic", dirs=[units])


# ---------------------------------------------------------------------------------------------
# --precision-target NAME


def test_precision_goes_to_the_first_character_by_default(units):
    """Default: [PRECISION] to the CHARACTER models, the Captain (W3) first: one D2 wound (5/6)
    never destroys it; wounds lost 2 x 5/6."""
    out = at_grunts(units, *ED11, "--target-leader", "captain", "--target-leader", "medic")
    assert destroyed(out) == {"Captain": approx(0), "Medic": approx(0)}
    assert out["expected"]["wounds_lost"] == approx(5 / 3)


def test_precision_target_names_a_character(units):
    """--precision-target medic: the wound (5/6) goes to the Medic (W2): destroyed 5/6."""
    out = at_grunts(units, *ED11, "--target-leader", "captain", "--target-leader", "medic",
                    "--precision-target", "Medic")  # fmt: skip
    assert destroyed(out) == {"Captain": approx(0), "Medic": approx(5 / 6)}
    assert out["expected"]["models_destroyed"] == approx(5 / 6)


def _twin_sniper(folder: Path) -> None:
    twin = weapon("Twin sniper", A=2, skill=None, S=8, D=2, abilities=["torrent", "precision"])
    write_sheet(folder, "Twin Sniper", model("Twin", equipped=["Twin sniper"]), 1, weapons=[twin])


@pytest.mark.parametrize("method", ["exact", "sample"])
def test_precision_group_destroyed_then_the_bodyguard(units, method):
    """24.28 [PRECISION]: the picked CHARACTER group is current "until those attacks are
    resolved, or until that CHARACTER group is destroyed (whichever happens first)"; after it,
    the unit's allocation order applies (no CHARACTER group before a non-CHARACTER group).
    Two [TORRENT] D2 wounds (5/6 each, no save) picking the Medic (W2): the first destroys it,
    the second goes to a Grunt (W1), not to the Captain. n wounds ~ Bin(2, 5/6):
    models destroyed = P(n >= 1) + P(n = 2) = 35/36 + 25/36 = 5/3; wounds lost =
    2 x 10/36 + 3 x 25/36 = 95/36; the Captain is never touched (10th-edition routing would
    give it 2 wounds lost and 35/36 models destroyed)."""
    _twin_sniper(units)
    flags = (*ED11, "--target-leader", "captain", "--target-leader", "medic",
             "--precision-target", "Medic", "--method", method, "--trials", "40000")  # fmt: skip
    out = shoot("twin sniper", "grunts", *flags, dirs=[units])
    tol = 5 * 0.01 if method == "sample" else 1e-9
    assert out["expected"]["models_destroyed"] == pytest.approx(5 / 3, abs=tol)
    assert out["expected"]["wounds_lost"] == pytest.approx(95 / 36, abs=tol * 2)
    assert destroyed(out)["Captain"] == pytest.approx(0, abs=1e-12)
    assert destroyed(out)["Medic"] == pytest.approx(35 / 36, abs=tol)


def test_precision_in_10th_edition_stays_on_the_character(units):
    """10th edition, [PRECISION]: each such attack can be allocated to a CHARACTER model while
    one remains (no single pick): the Captain (W3) takes both D2 wounds and is destroyed with
    P(n = 2) = 25/36."""
    _twin_sniper(units)
    out = shoot("twin sniper", "grunts", "--target-leader", "captain", dirs=[units])
    assert destroyed(out)["Captain"] == pytest.approx(25 / 36)
    assert out["expected"]["models_destroyed"] == pytest.approx(25 / 36)


def test_precision_target_bodyguard_still_works(units):
    """--precision-target bodyguard: a Grunt (W1) takes it: 5/6 models, no character."""
    out = at_grunts(units, *ED11, "--target-leader", "captain", "--precision-target",
                    "bodyguard")  # fmt: skip
    assert destroyed(out) == {"Captain": approx(0)}
    assert out["expected"]["models_destroyed"] == approx(5 / 6)


def test_precision_target_unknown_name(units):
    result = refused("shoot", "sniper", "grunts", *ED11, "--target-leader", "captain",
                     "--precision-target", "Captian", dirs=[units])  # fmt: skip
    assert "did you mean 'Captain'" in result.stderr


# ---------------------------------------------------------------------------------------------
# --allocation with CHARACTER models last (issue 10 item 4)


def test_allocation_names_characters_last_and_orders_them(units):
    out = at_grunts(units, *ED11, "--target-leader", "captain", "--target-leader", "medic",
                    "--allocation", "Grunt,Medic,Captain")  # fmt: skip
    assert out["target"]["allocation_order"] == ["Grunt"] * 5 + ["Medic", "Captain"]


def test_allocation_refuses_a_character_before_another_model(units):
    result = refused("shoot", "sniper", "grunts", *ED11, "--target-leader", "captain",
                     "--allocation", "Captain,Grunt", dirs=[units])  # fmt: skip
    assert "Captain" in result.stderr and "last" in result.stderr


def test_allocation_with_an_attached_warboss_last():
    """Issue 10 item 4: `--allocation "Boy,Boss Nob,Warboss"` with `--target-leader warboss`
    is accepted (the Warboss is where the rules put it: last); elsewhere it is refused."""
    out = shoot("lootas", "boyz", "--target-leader", "warboss", "--allocation",
                "Boy,Boss Nob,Warboss")  # fmt: skip
    assert out["target"]["allocation_order"] == ["Boy"] * 9 + ["Boss Nob", "Warboss"]
    result = refused("shoot", "lootas", "boyz", "--target-leader", "warboss", "--allocation",
                     "Boy,Warboss,Boss Nob")  # fmt: skip
    assert "Warboss" in result.stderr and "name it last" in result.stderr


def test_named_precision_target_is_picked_even_when_another_is_wounded(units):
    """24.28: the active player selects the CHARACTER group. Step 1 (Twin sniper, default pick:
    the Captain, listed first): n ~ Bin(2, 5/6) D2 wounds leave the Captain (W3) wounded with
    P(n = 1) = 10/36 and destroyed with P(n = 2) = 25/36. Step 2 (Sniper, one D2 wound at 5/6,
    `--precision-target Medic`): the named Medic (W2) is picked even where the Captain is
    wounded, so P(Medic destroyed) = 5/6 and P(Captain destroyed) stays 25/36."""
    _twin_sniper(units)
    from oracle import invoke

    result = invoke(
        ["sequence", "--target", "grunts", *ED11, "--target-leader", "captain",
         "--target-leader", "medic", "--json", "shoot twin-sniper",
         "shoot sniper --precision-target Medic"],
        [units],
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout
    import json

    out = json.loads(result.stdout)
    assert destroyed(out)["Medic"] == pytest.approx(5 / 6)
    assert destroyed(out)["Captain"] == pytest.approx(25 / 36)

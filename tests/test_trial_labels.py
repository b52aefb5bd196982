"""Labels a new player's trial found misleading: where [PRECISION] attacks go, which role an
attached character has, "no weapon" refusals, counted nouns.

Rules quoted:

* [PRECISION], 10th edition (Core rules): an attack with it "can be allocated to a CHARACTER
  model" in the Attached unit while one remains (so each such attack goes to one of them,
  whichever is left).
* 24.28 [PRECISION] (file 004): "the active player can select one allocation group that
  contains one of those visible CHARACTER models"; it is current "until those attacks are
  resolved, or until that CHARACTER group is destroyed (whichever happens first)".
* 24.22 LEADER / 24.34 SUPPORT (file 004): "each bodyguard unit can only have one leader unit
  and one support unit attached to it".

Units (written below): 5 Grunts (T4, W1, no save); Captain (CHARACTER, W3, Leader of Grunts);
Lieutenant (CHARACTER, W2, Leader of Grunts alongside a CAPTAIN); Medic (CHARACTER, W2,
Support of Grunts); Twin Sniper: two [TORRENT, PRECISION] shots, S8 (wounds T4 on 2+), AP0, D2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import approx, invoke, model, shoot, weapon, write_sheet

ED11 = ("--edition", "11")


@pytest.fixture
def units(tmp_path: Path) -> Path:
    write_sheet(tmp_path, "Grunts", model("Grunt", T=4, Sv=7), 5)
    captain = model("Captain", T=4, Sv=7, W=3)
    write_sheet(tmp_path, "Captain", captain, 1, "CHARACTER", "CAPTAIN", leader_of=["Grunts"])
    lieutenant = model("Lieutenant", T=4, Sv=7, W=2)
    write_sheet(tmp_path, "Lieutenant", lieutenant, 1, "CHARACTER", "LIEUTENANT",
                leader_of=["Grunts"], leader_alongside=["CAPTAIN"])  # fmt: skip
    medic = model("Medic", T=4, Sv=7, W=2)
    write_sheet(tmp_path, "Medic", medic, 1, "CHARACTER", "MEDIC", support_of=["Grunts"])
    twin = weapon("Twin sniper", A=2, skill=None, S=8, D=2, abilities=["torrent", "precision"])
    write_sheet(tmp_path, "Twin Sniper", model("Twin", equipped=["Twin sniper"]), 1, weapons=[twin])
    return tmp_path


def precision_choice(out: dict) -> str:
    said = [c for c in out["choices"] if "[PRECISION]" in c]
    assert len(said) == 1, out["choices"]
    return said[0]


# ---------------------------------------------------------------------------------------------
# Item 1: the [PRECISION] choice sentence says what the engines do


def test_edition_11_names_the_picked_group_and_what_follows(units):
    """24.28: one group is picked (the Medic, named by --precision-target); once it is destroyed
    the weapon's other attacks follow the allocation order. Figures: two D2 wounds (5/6 each)
    at the Medic (W2): the first destroys it, the second goes to a Grunt, never to the Captain
    (test_support.py works the same case out: models destroyed 5/3, Captain 0)."""
    out = shoot("twin sniper", "grunts", *ED11, "--target-leader", "captain", "--target-leader",
                "medic", "--precision-target", "Medic", dirs=[units])  # fmt: skip
    assert precision_choice(out) == (
        "Twin sniper: [PRECISION] attacks allocated to Medic (picked; a wounded CHARACTER model "
        "is picked first), then by the allocation order once it is destroyed (24.28)"
    )
    assert out["expected"]["models_destroyed"] == approx(5 / 3)
    chars = {c["name"]: c["destroyed"] for c in out["characters_destroyed"]}
    assert chars["Captain"] == approx(0)


def test_edition_11_one_character(units):
    out = shoot("twin sniper", "grunts", *ED11, "--target-leader", "captain", dirs=[units])
    assert precision_choice(out) == (
        "Twin sniper: [PRECISION] attacks allocated to Captain (picked), then by the allocation "
        "order once it is destroyed (24.28)"
    )


def test_10th_edition_one_leader(units):
    """The Captain (W3) takes both D2 wounds while it lives: destroyed with P(both) = 25/36."""
    out = shoot("twin sniper", "grunts", "--target-leader", "captain", dirs=[units])
    assert precision_choice(out) == (
        "Twin sniper: [PRECISION] attacks allocated to Captain while it lives, then to the "
        "Bodyguard"
    )
    assert out["characters_destroyed"][0]["destroyed"] == approx(25 / 36)


def test_10th_edition_two_leaders_while_one_remains(units):
    """10th edition, Captain (W3) and Lieutenant (W2): each [PRECISION] attack goes to a
    CHARACTER model while one remains, the first listed (Captain) first: it takes both wounds
    (destroyed 25/36), the Lieutenant none."""
    out = shoot("twin sniper", "grunts", "--target-leader", "captain", "--target-leader",
                "lieutenant", dirs=[units])  # fmt: skip
    assert precision_choice(out) == (
        "Twin sniper: [PRECISION] attacks allocated to the CHARACTER models Captain and "
        "Lieutenant (a wounded one first) while one remains, then to the Bodyguard"
    )
    chars = {c["name"]: c["destroyed"] for c in out["characters_destroyed"]}
    assert chars == {"Captain": approx(25 / 36), "Lieutenant": approx(0)}


# ---------------------------------------------------------------------------------------------
# Item 2: a Support character is not called a Leader


def _text(*args: str, dirs=()) -> str:
    result = invoke(args, dirs)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_support_and_leader_lines(units):
    text = _text("shoot", "twin sniper", "--target", "grunts", *ED11, "--target-leader",
                 "captain", "--target-leader", "medic", dirs=[units])  # fmt: skip
    assert "Leader Captain destroyed: 69.44% (survives 30.56%)" in text
    assert "Support Medic destroyed: 0.00% (survives 100.00%)" in text
    assert "Leader Medic" not in text


def test_support_role_in_json(units):
    out = shoot("twin sniper", "grunts", *ED11, "--target-leader", "captain", "--target-leader",
                "medic", dirs=[units])  # fmt: skip
    assert [(c["name"], c["role"]) for c in out["characters_destroyed"]] == [
        ("Captain", "leader"),
        ("Medic", "support"),
    ]


def test_support_role_in_a_sequence(units):
    args = ("sequence", "--target", "grunts", *ED11, "--target-leader", "captain",
            "--target-leader", "medic", "shoot twin-sniper")  # fmt: skip
    text = _text(*args, dirs=[units])
    assert "Support Medic destroyed: 0.00%" in text and "Leader Medic" not in text
    import json

    out = json.loads(_text(*args, "--json", dirs=[units]))
    assert [c["role"] for c in out["characters_destroyed"]] == ["leader", "support"]
    step = out["steps"][0]
    assert [c["role"] for c in step["cumulative"]["characters_destroyed"]] == ["leader", "support"]


def test_a_units_own_character_is_not_a_leader():
    """Edition 11 (Save Rolls: Create Groups): a CHARACTER model of the unit's own datasheet
    is a group of its own, after the others; nobody led the unit, so it is no Leader."""
    text = _text("shoot", "lootas", "--target", "astra militarum/cadian command squad", *ED11)
    assert "CHARACTER Cadian Commander destroyed:" in text
    assert "Leader Cadian Commander" not in text


# ---------------------------------------------------------------------------------------------
# Item 5: "no weapon" refusals name the selected weapon's problem


@pytest.fixture
def gunner(tmp_path: Path) -> Path:
    """A Gunner with a plain gun, a [TORRENT] gun, an [INDIRECT FIRE] gun and a Fist."""
    from oracle import melee

    weapons = [
        weapon("Test gun", A=3, skill=3),
        weapon("Torrent gun", A=2, skill=None, abilities=["torrent"]),
        weapon("Lob gun", A=1, skill=3, abilities=["indirect fire"]),
        melee("Fist", A=2, skill=3),
    ]
    gunner = model("Gunner", equipped=["Test gun", "Fist"])
    write_sheet(tmp_path, "Gunner", gunner, 1, weapons=weapons)
    write_sheet(tmp_path, "Dummies", model("Dummy", T=4, Sv=7), 5)
    return tmp_path


def _refusal(*args: str, dirs) -> str:
    from oracle import refused

    result = refused(*args, dirs=dirs)
    return result.stderr.strip()


def test_indirect_with_a_selected_weapon_that_cannot(gunner):
    """Seeds README, [INDIRECT FIRE]: with a target that is not visible only [INDIRECT FIRE]
    weapons shoot. The Gunner has one (Lob gun): the selected Torrent gun is the problem."""
    err = _refusal("shoot", "gunner", "dummies", "--weapon", "Torrent gun", "--indirect",
                   dirs=[gunner])  # fmt: skip
    assert err == (
        "error: --weapon Torrent gun: with --indirect only [INDIRECT FIRE] weapons shoot, and it "
        "has none (Gunner's that can: Lob gun)"
    )


def test_a_melee_weapon_in_shooting(gunner):
    err = _refusal("shoot", "gunner", "dummies", "--weapon", "Fist", dirs=[gunner])
    assert err == "error: --weapon Fist: a melee weapon, which does not shoot: use calc fight"


def test_a_ranged_weapon_in_a_fight(gunner):
    err = _refusal("fight", "gunner", "dummies", "--weapon", "Test gun", dirs=[gunner])
    assert err == "error: --weapon Test gun: a ranged weapon, which does not fight: use calc shoot"


def test_a_melee_weapon_beside_a_ranged_one_is_noted(gunner):
    """Test gun (A3, BS3+: hits 2/3; S4 v T4: wounds 1/2; no save, D1) shoots; the Fist is
    noted, not silently dropped: 3 x 2/3 x 1/2 = 1 model destroyed."""
    out = shoot("gunner", "dummies", "--weapon", "Fist", "--weapon", "Test gun", dirs=[gunner])
    assert [w["name"] for w in out["weapons"]] == ["Test gun"]
    assert out["expected"]["models_destroyed"] == approx(1)
    assert (
        "--weapon Fist: a melee weapon, which does not shoot: use calc fight (it does not attack "
        "here)"
    ) in out["notes"]


def test_no_weapon_without_weapon_option_lists_only_the_ones_that_could(gunner):
    """Without --weapon, the refusal under --indirect lists the datasheet's weapons that
    could shoot (Lob gun), not every ranged weapon."""
    err = _refusal("shoot", "gunner", "dummies", "--indirect", dirs=[gunner])
    assert err == (
        "error: Gunner has no ranged weapon with [INDIRECT FIRE] (and not [TORRENT]) to attack "
        "with; its datasheet has 'Lob gun': pick them with --weapon"
    )


# ---------------------------------------------------------------------------------------------
# Item 7: counted nouns, the JSON modifiers object, compare bars


def test_one_wound_left_is_singular():
    out = shoot("knight-paladin", "boyz", "--wounds-left", "1")
    assert (
        "Knight Paladin with 1 wound left: damaged profile: 1-9 wounds remaining, -1 to its Hit "
        "rolls"
    ) in out["notes"]


def test_compare_target_label_with_one_wound_left(tmp_path: Path):
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "runs:\n  - attacker: lootas\ntargets:\n  - {name: rhino, models: 3, wounds_left: 1}\n"
    )
    result = invoke(["compare", str(batch)])
    assert "against 3 rhino, 1 wound left:" in result.stderr


def test_modifiers_always_present_in_json():
    assert shoot("lootas", "boyz")["modifiers"] == {}
    assert shoot("lootas", "boyz", "--hit-mod", "1")["modifiers"] == {"hit_mod": 1}


def _sections(text: str) -> dict[str, list[str]]:
    """calc compare's table: each target heading's run rows."""
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if "·" in line and "pts" in line and not line.startswith(" "):
            current = line
            out[current] = []
        elif current and line.startswith("  "):
            out[current].append(line)
        elif not line.strip():
            current = None
    return out


def test_compare_bars_only_for_figures_shown_above_zero():
    """5 Lootas into a Rhino destroy it with P about 2e-6 (printed 0.000): no bar, as for the
    Leman Russ (about 1e-10); 10 Boyz get a bar (1.253)."""
    result = invoke(["compare", "lootas", "-t", "rhino", "-t", "leman-russ-battle-tank", "-t",
                     "boyz"])  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = {head.split(" · ")[0]: lines for head, lines in _sections(result.stdout).items()}
    assert "0.000" in rows["1 Rhino"][0] and "█" not in rows["1 Rhino"][0]
    assert "█" not in rows["1 Leman Russ Battle Tank"][0]
    assert "██████████" in rows["10 Boyz"][0]

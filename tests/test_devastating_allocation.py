"""How many mortal wounds a [DEVASTATING WOUNDS] Critical Wound inflicts against a target whose
rules change the Damage of the attacks it takes.

10th edition (Core rules: Devastating Wounds): the attack is allocated and "after any modifiers
are applied" inflicts mortal wounds equal to its Damage, so every Damage rule of the target
counts. Edition 11 (core_rules.json, 24.10): the Critical Wound ends the attack sequence and
the target suffers mortal wounds equal to the weapon's D; the attack is never allocated, and
rules that act "each time an attack is allocated" trigger only in step 1 of Inflict Damage
(04.02.02, 05.04), so they never reach those mortal wounds. A rule that acts when the attack
*targets* the unit (04.02.02) does change them: a change to an attack is a change to the weapon
making it (04.01.04).

Every attack below is [TORRENT] S8 into T4 with no save: per attack the Wound roll fails on a
1 (1/6), wounds on 2-5 (4/6: a failed save) and scores a Critical Wound on a 6 (1/6).
"""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from helpers import both_json, check_models, cli_json, write_datasheet
from oracle import allocate, dist_list, marginal

GUN = {
    "name": "Gun",
    "range": 24,
    "A": 6,
    "skill": None,
    "S": 8,
    "AP": 0,
    "D": 2,
    "abilities": ["torrent", "devastating wounds"],
}


def _expected(tmp_path, target: str, *flags: str, edition: str) -> dict:
    write_datasheet(tmp_path, "Shooter", [GUN])
    out = cli_json(
        "shoot", "shooter", "--target", target, "--edition", edition, *flags, dirs=[tmp_path]
    )
    return out["weapons"][0]["expected"]


@pytest.mark.parametrize(
    ("stats", "flags"),
    [
        ({"damage_reduction": 1}, ()),  # the model's own rule ("... allocated to this model")
        ({}, ("--damage-reduction", "1")),
        ({}, ("--half-damage",)),  # D2 halved: 1
        ({"half_damage": True}, ()),
    ],
)
def test_rules_acting_on_allocation_and_devastating_wounds(tmp_path, stats, flags):
    """Each failed save does 2 - 1 = 1 damage (halved: 1) in both editions. A Critical Wound's
    mortal wounds: 10th edition 1 (the Damage after the target's modifiers), edition 11 2 (the
    weapon's D). Per activation (6 attacks):
    10th: failed saves 6 x 4/6 = 4, mortal wounds 6 x 1/6 x 1 = 1, damage 4 + 1 = 5;
    11th: mortal wounds 6 x 1/6 x 2 = 2, damage 4 + 2 = 6."""
    write_datasheet(tmp_path, "Wall", models=5, stats={"T": 4, "Sv": 7, "W": 20, **stats})
    ten = _expected(tmp_path, "wall", *flags, edition="10")
    eleven = _expected(tmp_path, "wall", *flags, edition="11")
    assert (ten["failed_saves"], ten["mortal_wounds"], ten["damage"]) == pytest.approx((4, 1, 5))
    assert (eleven["failed_saves"], eleven["mortal_wounds"], eleven["damage"]) == pytest.approx(
        (4, 2, 6)
    )


def _goliath(tmp_path) -> None:
    write_datasheet(
        tmp_path,
        "Goliath Truck",
        keywords=["VEHICLE", "GOLIATH TRUCK"],
        faction="Genestealer Cults",
        faction_keywords=["GENESTEALER CULTS"],
        stats={"T": 4, "Sv": 7, "W": 20},
    )


def test_a_rule_acting_when_the_attack_targets_the_unit_cuts_them(tmp_path):
    """Devoted Crew (Genestealer Cults, edition 11): "each time an attack targets your unit,
    subtract 1 from the Damage characteristic": before allocation, so the weapon's D is 1 for
    both kinds of wound: failed saves 4 x 1, mortal wounds 6 x 1/6 x 1 = 1, damage 5. Without
    it: 4 x 2 + 2 x 1... = failed saves' 8 + mortal wounds' 2 = 10."""
    _goliath(tmp_path)
    plain = _expected(tmp_path, "goliath-truck", edition="11")
    crew = _expected(tmp_path, "goliath-truck", "--effect", "target:devoted-crew", edition="11")
    assert (plain["mortal_wounds"], plain["damage"]) == pytest.approx((2, 10))
    assert (crew["mortal_wounds"], crew["damage"]) == pytest.approx((1, 5))


def test_wrath_beyond_reason_acts_before_allocation(tmp_path):
    """World Eaters' Wrath Beyond Reason (edition 11): ranged attacks that target the
    Terminator Squad have -1 D: both the failed saves' damage and the mortal wounds drop to 1."""
    write_datasheet(tmp_path, "Shooter", [GUN])
    write_datasheet(
        tmp_path,
        "Terminator Squad",
        models=5,
        keywords=["INFANTRY", "TERMINATOR SQUAD"],
        faction="World Eaters",
        faction_keywords=["WORLD EATERS"],
        stats={"T": 4, "Sv": 7, "W": 20},
    )
    out = _expected(
        tmp_path, "terminator-squad", "--effect", "target:wrath-beyond-reason", edition="11"
    )
    assert (out["failed_saves"], out["mortal_wounds"], out["damage"]) == pytest.approx((4, 1, 5))


@pytest.mark.parametrize(("edition", "mortal"), [("10", 1), ("11", 2)])
def test_models_destroyed_exact_and_sampled(tmp_path, edition, mortal):
    """Five W3 models with -1 Damage on allocation: a failed save is 1 damage; a Critical
    Wound's mortal wounds (1 in 10th edition, 2 in edition 11) come after all normal damage
    and never spill. The kill table from the independent allocation model (tests/oracle.py;
    with identical models and no save, edition 11's allocation groups pick the same models),
    and the sampler within 5 standard errors of it."""
    write_datasheet(tmp_path, "Shooter", [GUN])
    write_datasheet(
        tmp_path, "Wall", models=5, stats={"T": 4, "Sv": 7, "W": 3, "damage_reduction": 1}
    )
    out = both_json("shoot", "shooter", "--target", "wall", dirs=[tmp_path], edition=edition)
    joint = allocate(6, {0: Fr(1, 6), 1: Fr(4, 6), ("dev", mortal): Fr(1, 6)}, [3] * 5)
    check_models(out, dist_list(marginal(joint, 0), 6), sampled_mean=True)


def test_a_note_says_why_edition_11_does_not_cut_them(tmp_path):
    """A player comparing editions sees why the mortal wounds differ: edition 11 says so in a
    note naming the weapon; 10th edition, where the reduction applies, has no such note."""
    write_datasheet(tmp_path, "Shooter", [GUN])
    write_datasheet(
        tmp_path, "Wall", models=5, stats={"T": 4, "Sv": 7, "W": 20, "damage_reduction": 1}
    )
    notes = {
        e: cli_json("shoot", "shooter", "--target", "wall", "--edition", e, dirs=[tmp_path])[
            "notes"
        ]
        for e in ("10", "11")
    }
    said = "Gun: [DEVASTATING WOUNDS] mortal wounds equal the weapon's D (24.10"
    assert any(n.startswith(said) for n in notes["11"])
    assert not any("[DEVASTATING WOUNDS] mortal wounds" in n for n in notes["10"])

"""`--add-ability` and `--target-stealth` (issue 10 item 10): detachment rules and auras that
say "weapons gain [ABILITY]", without writing a datasheet.

Issue 10: "`--add-ability "lethal hits"` (repeatable) gives every weapon of the attacking unit
that ability for this activation; `--add-ability "Deffgun: sustained hits 1"` only the named
weapon (every profile of it; a Leader's weapons too when named). Accepted: the weapon abilities
the README's abilities table lists (not [PISTOL] or [EXTRA ATTACKS], which change which weapons
attack); where the weapon already has the ability or an effect grants it, the better value is
kept." Each figure is worked out by hand in the docstring (the abilities' own rules: Core
rules, Lethal Hits: a Critical Hit "automatically wounds"; Sustained Hits X: "X additional
hits").
"""

from __future__ import annotations

import json
from fractions import Fraction as Fr
from pathlib import Path

import pytest
import yaml
from oracle import (
    approx,
    attacker,
    fight,
    invoke,
    melee,
    model,
    refused,
    shoot,
    target,
    weapon,
    weapon_row,
    write_unit,
)

from wh40k_calc.catalog import Catalog
from wh40k_calc.rules.added import with_added_abilities
from wh40k_calc.selection import AddedAbility, UnitChoice
from wh40k_calc.units import build_unit

ADD = "--add-ability"


def two_guns(tmp_path: Path, gun_abilities: tuple[str, ...] = ()) -> str:
    """One model with a Gun and a Rifle, each A6 BS3+ S4 (no rifle abilities)."""
    return attacker(
        tmp_path,
        weapon("Gun", A=6, skill=3, S=4, abilities=gun_abilities),
        weapon("Rifle", A=6, skill=3, S=4),
    )


def test_lethal_hits_for_every_weapon(tmp_path):
    """Into T8 (S4: 6+ to wound). Per attack: a Critical Hit (1/6) wounds automatically; other
    hits (3/6) wound on a 6: 1/6 + 3/6 x 1/6 = 1/4; 6 attacks: 1.5 wounds per weapon (2/3
    without)."""
    a, t = two_guns(tmp_path), target(tmp_path, T=8)
    out = shoot(a, t, ADD, "lethal hits", dirs=[tmp_path])
    assert weapon_row(out, "Gun")["wounds"] == approx(Fr(3, 2))
    assert weapon_row(out, "Rifle")["wounds"] == approx(Fr(3, 2))
    assert out["added_abilities"] == [{"weapon": "*", "ability": "lethal hits"}]
    plain = shoot(a, t, dirs=[tmp_path])
    assert weapon_row(plain, "Gun")["wounds"] == approx(Fr(2, 3))
    assert plain["added_abilities"] == []


def test_named_weapon_only(tmp_path):
    """ "Gun: sustained hits 1": the Gun's 6s score 2 hits: 6 x (3/6 + 2/6) = 5; the Rifle
    6 x 4/6 = 4."""
    out = shoot(two_guns(tmp_path), target(tmp_path), ADD, "gun: Sustained Hits 1",
                dirs=[tmp_path])  # fmt: skip
    assert weapon_row(out, "Gun")["hits"] == approx(5)
    assert weapon_row(out, "Rifle")["hits"] == approx(4)
    assert out["added_abilities"] == [{"weapon": "gun", "ability": "sustained hits 1"}]


@pytest.mark.parametrize(("has", "added"), [("sustained hits 2", "sustained hits 1"),
                                            ("sustained hits 1", "sustained hits 2")])  # fmt: skip
def test_better_value_kept(tmp_path, has, added):
    """[SUSTAINED HITS 2] either way: 6 x (3/6 + 1/6 x 3) = 6 hits."""
    out = shoot(two_guns(tmp_path, (has,)), target(tmp_path), ADD, f"Gun: {added}",
                dirs=[tmp_path])  # fmt: skip
    assert weapon_row(out, "Gun")["hits"] == approx(6)


def test_better_value_kept_against_an_effect(tmp_path):
    """Get Stuck In (Orks, fight) grants [SUSTAINED HITS 1]; --add-ability "sustained hits 2":
    the better, 2: WS3+ A6: 6 x (3/6 + 1/6 x 3) = 6 hits."""
    a = attacker(tmp_path, melee(A=6, skill=3), faction_keywords=("ORKS",))
    out = fight(a, target(tmp_path), "--effect", "get-stuck-in", ADD, "sustained hits 2",
                dirs=[tmp_path])  # fmt: skip
    assert weapon_row(out)["hits"] == approx(6)


def test_a_leaders_weapon_when_named_and_with_star(tmp_path):
    """Squad (Rifle A6 BS3+) led by Chief (Chief gun A6 BS3+): naming the Chief gun gives it
    [SUSTAINED HITS 1] (5 hits) and leaves the Rifle (4); "*" gives both (5 and 5)."""
    squad = write_unit(tmp_path, "squad", models=[(model("Trooper", equipped=["Rifle"]), 1)],
                       weapons=[weapon("Rifle", A=6, skill=3)])  # fmt: skip
    chief = {
        "name": "Chief",
        "faction": "Testers",
        "keywords": ["INFANTRY", "CHARACTER"],
        "models": [model("Chief", equipped=["Chief gun"])],
        "sizes": [{"models": {"Chief": 1}, "points": 50}],
        "weapons": [weapon("Chief gun", A=6, skill=3)],
        "leader_of": ["Squad"],
    }
    (tmp_path / "chief.yaml").write_text(yaml.safe_dump(chief))
    t = target(tmp_path)
    out = shoot(squad, t, "--leader", "chief", ADD, "Chief gun: sustained hits 1", dirs=[tmp_path])
    assert weapon_row(out, "Chief gun")["hits"] == approx(5)
    assert weapon_row(out, "Rifle")["hits"] == approx(4)
    out = shoot(squad, t, "--leader", "chief", ADD, "sustained hits 1", dirs=[tmp_path])
    assert weapon_row(out, "Chief gun")["hits"] == approx(5)
    assert weapon_row(out, "Rifle")["hits"] == approx(5)


def test_every_profile_of_a_named_weapon(tmp_path):
    """A multi-profile weapon named by its family name: every profile gains the ability."""
    sheet = {
        "name": "Plasma Team",
        "faction": "Testers",
        "models": [model("Gunner", equipped=["Plasma (standard)", "Plasma (supercharge)"])],
        "sizes": [{"models": {"Gunner": 2}, "points": 50}],
        "weapons": [
            {**weapon("Plasma (standard)", S=7), "profile_of": "Plasma"},
            {
                **weapon("Plasma (supercharge)", S=8, abilities=["hazardous"]),
                "profile_of": "Plasma",
            },
        ],
    }
    (tmp_path / "plasma-team.yaml").write_text(yaml.safe_dump(sheet))
    unit = build_unit(UnitChoice(Catalog([tmp_path]).find("plasma team")), "attacker")
    unit = with_added_abilities(unit, (AddedAbility("plasma", "lethal hits"),))
    assert all(w.abilities.lethal_hits for g in unit.groups for w in g.weapons)
    assert [w.abilities.hazardous for w in unit.groups[0].weapons] == [False, True]


def test_added_indirect_fire_and_torrent(tmp_path):
    """Abilities that change which weapons can shoot are seen by every rule: with [INDIRECT
    FIRE] added, --indirect lets the Gun shoot (BS3+ -1: 4+: 6 x 3/6 = 3 hits); with
    [TORRENT] added, 6 automatic hits."""
    a, t = attacker(tmp_path, weapon("Gun", A=6, skill=3)), target(tmp_path)
    out = shoot(a, t, "--indirect", ADD, "indirect fire", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(3)
    out = shoot(a, t, ADD, "Gun: torrent", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(6)


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("Gn: lethal hits", "did you mean 'Gun'"),
        ("lethal hit", "did you mean 'lethal hits'"),
        ("Gun: sustained hits", "e.g. 'sustained hits 1'"),
        ("pistol", "[PISTOL] changes which weapons attack"),
        ("Gun: extra attacks", "[EXTRA ATTACKS] changes which weapons attack"),
        ("lethal hits, torrent", "give one ability"),
    ],
)
def test_refused_with_the_reason(tmp_path, value, said):
    result = refused("shoot", two_guns(tmp_path), target(tmp_path), ADD, value, dirs=[tmp_path])
    assert said in result.stderr


def test_text_report_lists_added_abilities(tmp_path):
    result = invoke(["shoot", two_guns(tmp_path), "--target", target(tmp_path), ADD,
                     "Gun: lethal hits", "--target-stealth"], [tmp_path])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Added abilities: Gun: lethal hits" in result.stdout
    assert "target-stealth" in result.stdout


# ---------------------------------------------------------------------------------------------
# Batch files: add_abilities and target_stealth per run


def test_batch_add_abilities_and_target_stealth(tmp_path):
    """Three runs against T8 models (S4: 6+ to wound): plain (2/3 wounds per weapon), with
    add_abilities [lethal hits] (3/2), and with target_stealth (10th edition: BS3+ -1: hits
    6 x 3/6 = 3, Gun wounds 1/2); the default add_abilities (Rifle: lethal hits) applies to a
    run that does not give its own."""
    a, t = two_guns(tmp_path), target(tmp_path, T=8)
    batch = tmp_path / "runs.yaml"
    batch.write_text(
        yaml.safe_dump(
            {
                "datasheets": ["."],
                "targets": [t],
                "add_abilities": ["Rifle: lethal hits"],
                "runs": [
                    {"name": "plain", "attacker": a, "add_abilities": []},
                    {"name": "lethal", "attacker": a, "add_abilities": ["lethal hits"]},
                    {"name": "stealth", "attacker": a, "target_stealth": True},
                ],
            }
        )
    )
    result = invoke(["compare", str(batch), "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["run"]: r for r in json.loads(result.stdout)}
    assert weapon_row(rows["plain"], "Gun")["wounds"] == approx(Fr(2, 3))
    assert weapon_row(rows["lethal"], "Gun")["wounds"] == approx(Fr(3, 2))
    assert rows["lethal"]["added_abilities"] == [{"weapon": "*", "ability": "lethal hits"}]
    stealth = rows["stealth"]
    assert weapon_row(stealth, "Gun")["hits"] == approx(3)
    assert weapon_row(stealth, "Gun")["wounds"] == approx(Fr(1, 2))
    # the default "Rifle: lethal hits": a 6 wounds automatically, a 4 or 5 hits and needs a
    # 6 to wound: 6 x (1/6 + 2/6 x 1/6) = 4/3
    assert weapon_row(stealth, "Rifle")["wounds"] == approx(Fr(4, 3))
    assert stealth["modifiers"]["target_stealth"] is True


def test_batch_bad_add_ability_names_the_field(tmp_path):
    a, t = two_guns(tmp_path), target(tmp_path)
    batch = tmp_path / "runs.yaml"
    batch.write_text(
        yaml.safe_dump(
            {
                "datasheets": ["."],
                "targets": [t],
                "runs": [{"name": "bad", "attacker": a, "add_abilities": ["letal hits"]}],
            }
        )
    )
    result = invoke(["compare", str(batch)])
    assert result.exit_code == 1
    assert "run 'bad'" in result.stderr and "add_abilities[0]" in result.stderr
    assert "did you mean 'lethal hits'" in result.stderr


# ---------------------------------------------------------------------------------------------
# Values of parameterised abilities (fresh-user trial: "blast 3" silently plain [BLAST] in
# edition 10, "sustained hits 0" accepted, "sustained hits 999999" refused without the range)

DICE_X = "a number from 1 to 20 or dice such as D3 or D6+1"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("sustained hits 0", f"[SUSTAINED HITS X]: X must be {DICE_X}, not '0'"),
        ("sustained hits 999999", f"[SUSTAINED HITS X]: X must be {DICE_X}, not '999999'"),
        ("rapid fire 0", f"[RAPID FIRE X]: X must be {DICE_X}, not '0'"),
        ("rapid fire", f"[RAPID FIRE X] needs X: {DICE_X}, e.g. 'rapid fire 1'"),
        ("Gun: melta 21", f"[MELTA X]: X must be {DICE_X}, not '21'"),
        ("anti-infantry 7+", "[ANTI-KEYWORD X+]: X+ must be from 2+ to 6+, not '7+'"),
        ("anti-infantry 1+", "[ANTI-KEYWORD X+]: X+ must be from 2+ to 6+, not '1+'"),
        ("anti-infantry", "[ANTI-KEYWORD X+] needs a keyword and X+, e.g. 'anti-infantry 4+'"),
        ("blast 0", "[BLAST X]: X must be a number from 1 to 20, not '0'"),
        ("cleave 21", "[CLEAVE X]: X must be a number from 1 to 20, not '21'"),
    ],
)
def test_values_out_of_range_refused(tmp_path, value, said):
    result = refused("shoot", two_guns(tmp_path), target(tmp_path), ADD, value, dirs=[tmp_path])
    assert result.stderr.strip() == f"error: --add-ability {value!r}: {said}"


def test_blast_x_refused_in_edition_10(tmp_path):
    """Edition 10 (Core rules: Blast) has only [BLAST]: +1 attack per five models; [BLAST X] is
    edition 11's (24.05)."""
    result = refused("shoot", two_guns(tmp_path), target(tmp_path), ADD, "Gun: blast 3",
                     dirs=[tmp_path])  # fmt: skip
    assert result.stderr.strip() == (
        "error: --add-ability 'Gun: blast 3': edition 10 has no [BLAST X], only [BLAST] (+1 "
        "attack per five models in the target): give 'blast', or --edition 11"
    )


def test_blast_x_in_edition_11(tmp_path):
    """Edition 11, [BLAST 3] into 10 models: 6 + 3 x 2 = 12 attacks (A6 + X per five models);
    [BLAST] into 10 models in edition 10: 6 + 2 = 8."""
    a, t = two_guns(tmp_path), target(tmp_path, models=10)
    out = shoot(a, t, ADD, "Gun: blast 3", "--edition", "11", dirs=[tmp_path])
    assert weapon_row(out, "Gun")["attacks"] == approx(12)
    out = shoot(a, t, ADD, "Gun: blast", dirs=[tmp_path])
    assert weapon_row(out, "Gun")["attacks"] == approx(8)


def test_datasheet_blast_x_in_edition_10_is_noted(tmp_path):
    a = two_guns(tmp_path, gun_abilities=("blast 3",))
    out = shoot(a, target(tmp_path, models=10), dirs=[tmp_path])
    assert weapon_row(out, "Gun")["attacks"] == approx(8)
    assert (
        "Gun: [BLAST 3] is edition 11's [BLAST X]; edition 10 applies [BLAST] (+1 attack per "
        "five models in the target)"
    ) in out["notes"]


def test_text_report_lists_an_ability_given_twice_once(tmp_path):
    """The trial's ``--add-ability "sustained hits 1"`` twice was listed twice on the
    "Added abilities" line although it applies once (24.02: not cumulative): the line lists
    it once, as first written, and the note says it was given twice."""
    result = invoke(["shoot", two_guns(tmp_path), "--target", target(tmp_path),
                     ADD, "Gun: lethal hits", ADD, "sustained hits 1", ADD, "gun:  Lethal Hits"],
                    [tmp_path])  # fmt: skip
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Added abilities: Gun: lethal hits; sustained hits 1 " in out + " "
    assert "is named 2 times" in out

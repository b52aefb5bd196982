"""Options and conditions that change nothing are said, not dropped without a word (a new
player's trial: `--overwatch --reroll-hits all --edition 11` applied no re-roll and said
nothing; Stealth was said to give cover to a unit shot by [IGNORES COVER] weapons).

Rules quoted:

* 15.09 Snap Shooting (file 004): "You cannot re-roll hit rolls."
* Seeds README, edition 11: Stealth: the unit "has the benefit of cover against ranged
  attacks"; [IGNORES COVER]: no cover from any source, Stealth included; cover worsens BS.
* Core rules, Benefit of Cover (10th edition): +1 to the armour save against ranged attacks,
  "not for models with a Save characteristic of 3+ or better against attacks with an AP of 0".

Units (written below): Gunner: Gun (A6, BS4+, S4, AP0, D1), Torrent gun (A2, [TORRENT]),
Fist (melee); Dummies: 10 models T4, W1, no save (Sv 7); Sneaks: the same with Stealth;
Guards: 10 models T4, W1, Sv 3+.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import approx, melee, model, shoot, weapon, write_unit

ED11 = ("--edition", "11")


@pytest.fixture
def units(tmp_path: Path) -> Path:
    gun = weapon("Gun", A=6, skill=4)
    torrent = weapon("Torrent gun", A=2, skill=None, abilities=["torrent"])
    fist = melee("Fist", A=2, skill=3)
    gunner = model("Gunner", equipped=["Gun", "Fist"])
    write_unit(tmp_path, "gunner", models=[(gunner, 1)], weapons=[gun, torrent, fist])
    write_unit(tmp_path, "dummies", models=[(model("Dummy", T=4, Sv=7), 10)])
    sneak = {**model("Sneak", T=4, Sv=7), "stealth": True}
    write_unit(tmp_path, "sneaks", models=[(sneak, 10)])
    write_unit(tmp_path, "guards", models=[(model("Guard", T=4, Sv=3), 10)])
    return tmp_path


def run(target: str, *flags: str, folder: Path) -> dict:
    return shoot("gunner", target, *flags, dirs=[folder])


def test_snap_shooting_refuses_hit_re_rolls_and_says_so(units):
    """Edition 11: snap shooting hits only on an unmodified 6 (1/6) and cannot re-roll: 6
    shots x 1/6 x 1/2 (S4 v T4) = 1/2 wound, one model each (no save). With the re-roll it
    would be 6 x 11/36 x 1/2."""
    out = run("dummies", *ED11, "--overwatch", "--reroll-hits", "all", folder=units)
    assert out["expected"]["models_destroyed"] == approx(1 / 2)
    assert (
        "--reroll-hits all: no effect: Hit rolls cannot be re-rolled when snap shooting (15.09 "
        "Snap Shooting)"
    ) in out["notes"]


def test_snap_shooting_names_a_rules_re_roll_too():
    """Lootas' Dat's Our Loot! (re-roll Hit rolls of 1) is dropped too under edition 11 snap
    shooting: both named."""
    out = shoot("lootas", "boyz", *ED11, "--overwatch", "--reroll-hits", "ones")
    assert (
        "--reroll-hits ones and Dat's Our Loot!: no effect: Hit rolls cannot be re-rolled when "
        "snap shooting (15.09 Snap Shooting)"
    ) in out["notes"]


def test_10th_edition_snap_shooting_keeps_re_rolls(units):
    """10th edition has no such rule: the re-roll applies (6 x 11/36 x 1/2 = 11/12), no note."""
    out = run("dummies", "--overwatch", "--reroll-hits", "all", folder=units)
    assert out["expected"]["models_destroyed"] == approx(11 / 12)
    assert not any("snap shooting" in n for n in out["notes"])


def test_stealth_ignored_by_ignores_cover_says_so(units):
    """Edition 11: Stealth gives cover (BS4+ -> 5+), which [IGNORES COVER] removes: 6 x 1/2 x
    1/2 = 3/2 wounds, as if the unit had no Stealth; the note says the weapon ignores it."""
    out = run("sneaks", *ED11, "--weapon", "Gun", "--add-ability", "ignores cover", folder=units)
    assert out["expected"]["models_destroyed"] == approx(3 / 2)
    assert (
        "Stealth (Sneaks): the Benefit of Cover against ranged attacks; no effect here: every "
        "weapon has [IGNORES COVER]"
    ) in out["notes"]
    plain = run("sneaks", *ED11, "--weapon", "Gun", folder=units)
    assert plain["expected"]["models_destroyed"] == approx(1)  # BS5+: 6 x 1/3 x 1/2
    assert "Stealth (Sneaks): the Benefit of Cover against ranged attacks" in plain["notes"]


def test_stealth_with_some_weapons_unaffected(units):
    """The Torrent gun makes no Hit roll, so a BS change cannot touch it; the Gun gets cover."""
    both = ("--weapon", "Gun", "--weapon", "Torrent gun")
    out = run("sneaks", *ED11, *both, folder=units)
    assert (
        "Stealth (Sneaks): the Benefit of Cover against ranged attacks; not against Torrent gun "
        "([TORRENT])"
    ) in out["notes"]
    out = run("sneaks", *ED11, *both, "--add-ability", "Gun: ignores cover", folder=units)
    assert (
        "Stealth (Sneaks): the Benefit of Cover against ranged attacks; no effect here: every "
        "weapon has [IGNORES COVER] or [TORRENT]"
    ) in out["notes"]


def test_cover_against_a_3_up_save_and_ap_0(units):
    """10th edition: no cover bonus for Sv 3+ against AP 0: the figures are the same as without
    --cover (6 x 1/2 x 1/2 wounds, saved on 3+: failed 1/3 -> 1/2 model) and a note says so."""
    out = run("guards", "--weapon", "Gun", "--cover", folder=units)
    assert out["expected"]["models_destroyed"] == approx(1 / 2)
    assert (
        "--cover: no effect: the Benefit of Cover does not improve a save of 3+ or better "
        "against AP 0"
    ) in out["notes"]


def test_cover_every_weapon_ignores(units):
    out = run("dummies", "--weapon", "Gun", "--cover", "--add-ability", "ignores cover",
              folder=units)  # fmt: skip
    assert "--cover: no effect here: every weapon has [IGNORES COVER]" in out["notes"]


def test_conditions_no_weapon_reads(units):
    out = run("dummies", "--weapon", "Gun", "--half-range", "--stationary", "--beyond-12",
              "--objective", folder=units)  # fmt: skip
    assert out["notes"] == [
        "--half-range: no effect: no weapon here has [RAPID FIRE X] or [MELTA X]",
        "--stationary: no effect: no weapon here has [HEAVY]",
        "--beyond-12: no effect: no weapon here has [CONVERSION]",
        "--objective: no effect: no rule here reads it (Dat's Our Loot! does)",
    ]


def test_fight_conditions_and_options_no_one_reads(units):
    from oracle import fight

    out = fight("gunner", "dummies", "--charged", "--disembarked", "--target-stealth",
                dirs=[units])  # fmt: skip
    assert out["notes"] == [
        "--charged: no effect: no weapon here has [LANCE]",
        "--disembarked: no effect: no rule here reads it (Rush to the Fray does)",
        "--target-stealth: no effect in the Fight phase (Stealth is against ranged attacks)",
    ]


def test_hit_roll_options_with_torrent_only(units):
    out = run("dummies", "--weapon", "Torrent gun", "--hit-mod", "1", "--reroll-hits", "ones",
              folder=units)  # fmt: skip
    assert (
        "--hit-mod, --reroll-hits: no effect: no Hit roll is made (every weapon here has [TORRENT])"
    ) in out["notes"]


def test_damage_and_target_options_that_change_nothing(units):
    out = run("dummies", "--weapon", "Gun", "--reroll-damage", "--precision-target",
              "bodyguard", folder=units)  # fmt: skip
    assert (
        "--reroll-damage: no effect: no weapon here has a random Damage characteristic"
        in (out["notes"])
    )
    assert (
        "--precision-target bodyguard: no effect: no weapon here has [PRECISION]" in (out["notes"])
    )


def test_damage_reduction_on_damage_1_and_fnp_against_no_mortal_wounds(units):
    """Core rules: Damage is never reduced below 1, so -1 Damage or halving does nothing to D1
    attacks (6 x 1/2 x 1/2 = 3/2 models either way); nothing here inflicts mortal wounds."""
    out = run("dummies", "--weapon", "Gun", "--damage-reduction", "1", "--half-damage",
              "--fnp-mortal", "5", folder=units)  # fmt: skip
    assert out["expected"]["models_destroyed"] == approx(3 / 2)
    assert out["notes"] == [
        "--damage-reduction, --half-damage: no effect: no attack here has more than 1 Damage "
        "(Damage is never reduced below 1)",
        "--fnp-mortal 5: no effect: nothing here inflicts mortal wounds on the target (no "
        "[DEVASTATING WOUNDS] weapon or mortal-wound rule)",
    ]
    out = run("dummies", "--weapon", "Gun", "--damage-reduction", "1", "--damage-mod", "1",
              "--add-ability", "devastating wounds", "--fnp-mortal", "5", folder=units)  # fmt: skip
    assert out["notes"] == []


def test_invuln_and_fnp_no_better_than_the_datasheet():
    """Terminators have a 4+ invulnerable save: --invuln 5 changes nothing (said); --invuln 3
    does (not said)."""
    out = shoot("lootas", "terminator-squad", "--invuln", "5")
    assert (
        "--invuln 5: no effect: every model of Terminator Squad has an invulnerable save of 5+ "
        "or better"
    ) in out["notes"]
    out = shoot("lootas", "terminator-squad", "--invuln", "3")
    assert not any(n.startswith("--invuln") for n in out["notes"])


# ---------------------------------------------------------------------------------------------
# --add-ability grants that cannot act


def test_a_granted_weapon_that_does_not_attack(units):
    """The Torrent gun is not equipped (only --weapon could pick it): the grant is noted; the
    Gun's figures are unchanged (6 x 1/2 x 1/2 = 3/2)."""
    out = run("dummies", "--add-ability", "Torrent gun: lethal hits", folder=units)
    assert out["expected"]["models_destroyed"] == approx(3 / 2)
    assert (
        "--add-ability 'Torrent gun: lethal hits': Torrent gun does not attack in this activation"
    ) in out["notes"]


def test_cleave_in_10th_edition(units):
    """[CLEAVE X] is edition 11's (seeds README); 10th edition does not model it, as for a
    datasheet's [CLEAVE X]: Fist A2, WS3+ (2/3), S4 v T4 (1/2): 2/3 models either way."""
    from oracle import fight

    out = fight("gunner", "dummies", "--add-ability", "cleave 2", dirs=[units])
    assert out["expected"]["models_destroyed"] == approx(2 / 3)
    assert (
        "--add-ability 'cleave 2': [CLEAVE X] is an edition-11 ability, not modelled in edition "
        "10 (as a datasheet's [CLEAVE X]; --edition 11 applies it)"
    ) in out["notes"]
    # edition 11: +2 attack dice per five models (10 models: +4): 6 x 2/3 x 1/2 = 2
    out = fight("gunner", "dummies", "--add-ability", "cleave 2", *ED11, dirs=[units])
    assert out["expected"]["models_destroyed"] == approx(2)
    assert not any("cleave" in n for n in out["notes"])


def test_abilities_the_phase_does_not_read(units):
    out = run("dummies", *ED11, "--add-ability", "cleave 1", folder=units)
    assert (
        "--add-ability 'cleave 1': a melee ability: no effect on ranged attacks" in (out["notes"])
    )
    from oracle import fight

    out = fight("gunner", "dummies", "--add-ability", "rapid fire 1", "--add-ability", "assault",
                dirs=[units])  # fmt: skip
    assert (
        "--add-ability 'rapid fire 1': a ranged ability: no effect on melee attacks"
        in (out["notes"])
    )
    assert "--add-ability 'assault': no effect on one activation" in out["notes"]


# ---------------------------------------------------------------------------------------------
# Refused instead of accepted without a word


def test_allocation_naming_a_model_twice():
    from oracle import refused

    result = refused("shoot", "lootas", "boyz", "--allocation", "Boss Nob,Boss Nob")
    assert result.stderr.strip() == (
        "error: --allocation: Boss Nob is named twice; name each model once"
    )
    result = refused("shoot", "lootas", "boyz", "--allocation", "Boy,Boys")
    assert (
        result.stderr.strip() == "error: --allocation: 'Boys' names Boy again; name each model once"
    )


@pytest.mark.parametrize(
    "args, option",
    [
        (("shoot", "lootas", "--target", "boyz", "--target", "rhino"), "--target"),
        (("shoot", "lootas", "-t", "boyz", "--target=rhino"), "--target"),
        (("fight", "boyz", "--target", "rhino", "--models", "10", "--models", "20"), "--models"),
        (("shoot", "lootas", "-t", "boyz", "--edition", "10", "--edition", "11"), "--edition"),
        (
            ("compare", "lootas", "--target", "boyz", "--method", "exact", "--method", "sample"),
            "--method",
        ),
        (("sequence", "--target", "boyz", "--target", "rhino", "shoot lootas"), "--target"),
    ],
)
def test_a_single_valued_option_given_twice_is_refused(args, option):
    """click keeps the last value of a repeated option without a word (the second --target
    won); every command refuses it, naming the option (exit code 2, a usage error)."""
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 2, result.output
    assert f"{option} is given more than once; it takes one value, so give it once" in (
        result.stderr
    )
    assert "Traceback" not in result.output


def test_a_repeated_option_inside_a_sequence_step():
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    result = CliRunner().invoke(
        app, ["sequence", "--target", "boyz", "shoot lootas --models 5 --models 10"]
    )
    assert result.exit_code == 2  # a usage error, as at top level (fixes3 item 8)
    assert result.stderr.strip() == (
        "error: step 1 ('shoot lootas --models 5 --models 10'): --models is given more than once; "
        "it takes one value, so give it once"
    )


def test_repeatable_options_and_flags_still_repeat():
    out = shoot("lootas", "boyz", "--effect", "waaagh", "--effect", "command-re-roll",
                "--stationary", "--stationary")  # fmt: skip
    assert {"waaagh", "command-re-roll"} <= set(out["effects"])
    assert out["conditions"]["stationary"] is True


def test_compare_says_which_runs_a_note_is_about():
    """calc compare prints each note once: a note about some runs names them (the Boyz have no
    [HEAVY] weapon; the Lootas' Deffguns have), one about every run does not."""
    from oracle import invoke

    result = invoke(["compare", "lootas", "boyz", "--target", "rhino", "--stationary"])
    assert result.exit_code == 0, result.output
    assert "Note (run 'boyz'): --stationary: no effect: no weapon here has [HEAVY]" in (
        result.stdout
    )
    result = invoke(["compare", "boyz", "--target", "rhino", "--stationary"])
    assert "Note: --stationary: no effect: no weapon here has [HEAVY]" in result.stdout

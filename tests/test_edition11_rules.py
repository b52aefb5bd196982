"""Edition 11 (`--edition 11`) where it has its own text for what decides how many attacks hit
or are made: the Benefit of cover, Stealth, [IGNORES COVER], [PSYCHIC], [HEAVY], [CLEAVE X],
plunging fire; and what it refuses because our sources lack its text (Grenade, Go to Ground).
Issue 11's worked numbers are here, each worked out by hand in its docstring.

Rules quoted (file 004 does not print them; seeds README, "Edition-11 weapon abilities and cover
that file 004 does not print", in our words):

* Benefit of cover (13.08): "against a ranged attack, when every model of the target is in
  cover, the attack's BS is worsened by 1 (a change to the characteristic, so it is not part of
  the ±1 Hit-roll modifier cap, and BS is never worse than 6+). There is no +1 to the saving
  throw as in 10th edition."
* Plunging fire (22.05): "a ranged attack's BS is improved by 1 when [...] neither side is an
  AIRCRAFT."
* [STEALTH]: "if every model in the unit has it, the unit has the benefit of cover against
  ranged attacks."
* [IGNORES COVER]: "the target cannot have the benefit of cover against the attack, including
  cover that Stealth gives."
* [HEAVY]: "in the Shooting phase, +1 to the Hit roll if the attacking unit is unengaged, was not
  set up this turn, and no model in it moved more than 3\" (`--stationary` means all three
  hold)."
* [PSYCHIC]: "the attacker may ignore any or all modifiers to the attack's BS or WS and to its
  Hit roll (so a calculator ignores the harmful ones and keeps the helpful ones)."
* [CLEAVE X]: "when gathering attack dice, if all of the weapon's attacks target one unit, add X
  attack dice for every five models in the target unit (rounding down)".
* [PISTOL] and [CLOSE-QUARTERS]: "are the same ability" (file 004, 24.27: "[PISTOL] and
  [CLOSE-QUARTERS] are identical for all rules purposes").

The common example (issue 11): 6 shots at BS3+, S8 into T4 models with no save (Sv 7+), W1:
every hit wounds on 2+ (5/6) and no wound is saved.
"""

from __future__ import annotations

import json
from fractions import Fraction as Fr

import pytest
import yaml
from oracle import (
    approx,
    attacker,
    check_row,
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

ED11 = ("--edition", "11")


def gun(*abilities: str, skill: int = 3) -> dict:
    return weapon(A=6, skill=skill, S=8, abilities=abilities)


def no_save(tmp_path, models: int = 10) -> str:
    return target(tmp_path, models=models, T=4, Sv=7)


def sneaks(tmp_path, models: int = 10) -> str:
    """T4 Sv7+ W1 models that all have Stealth."""
    m = {**model("Sneak", T=4, Sv=7), "stealth": True}
    return write_unit(tmp_path, "sneaks", models=[(m, models)])


def hits(tmp_path, a: str, t: str, *flags: str) -> float:
    return weapon_row(shoot(a, t, *ED11, *flags, dirs=[tmp_path]))["hits"]


# ---------------------------------------------------------------------------------------------
# Benefit of cover: BS worsened by 1, outside the Hit-roll cap, no save bonus


def test_cover_worsens_bs_and_never_touches_the_save(tmp_path):
    """--cover: BS3+ becomes 4+: 6 x 3/6 = 3.0 hits; 2.5 wounds; every wound unsaved (a Sv 7+
    model does not save on 6s as it would with 10th edition's +1)."""
    out = shoot(attacker(tmp_path, gun()), no_save(tmp_path), *ED11, "--cover", dirs=[tmp_path])
    check_row(weapon_row(out), hits=3, wounds=Fr(5, 2), failed_saves=Fr(5, 2))


def test_cover_in_10th_edition_for_contrast(tmp_path):
    """10th edition: cover adds 1 to the save: 4.0 hits, 10/3 wounds, Sv 7+ saves on a 6."""
    out = shoot(attacker(tmp_path, gun()), no_save(tmp_path), "--cover", dirs=[tmp_path])
    check_row(weapon_row(out), hits=4, wounds=Fr(10, 3), failed_saves=Fr(10, 3) * Fr(5, 6))


def test_cover_is_outside_the_hit_modifier_cap(tmp_path):
    """--cover --hit-mod -1: BS 4+, then -1 to the roll: 5+: 6 x 2/6 = 2.0 (a Hit-roll
    modifier would have been capped at -1 in total: 3.0)."""
    a, t = attacker(tmp_path, gun()), no_save(tmp_path)
    assert hits(tmp_path, a, t, "--cover", "--hit-mod", "-1") == approx(2)


def test_cover_and_a_plus_one_to_hit(tmp_path):
    """--cover --hit-mod 1: BS 4+, +1 to the roll: a 3 hits: 6 x 4/6 = 4.0."""
    a, t = attacker(tmp_path, gun()), no_save(tmp_path)
    assert hits(tmp_path, a, t, "--cover", "--hit-mod", "1") == approx(4)


def test_cover_never_worse_than_6_plus(tmp_path):
    """BS 6+ with cover stays 6+ ("BS is never worse than 6+"): 6 x 1/6 = 1.0."""
    a = attacker(tmp_path, gun(skill=6))
    assert hits(tmp_path, a, no_save(tmp_path), "--cover") == approx(1)


def test_cover_does_not_touch_melee(tmp_path):
    """Cover is against ranged attacks: a WS3+ blade still hits on 3+ and --cover is noted."""
    a = attacker(tmp_path, melee(A=6, skill=3, S=8))
    out = fight(a, no_save(tmp_path), *ED11, "--cover", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(4)
    assert any("--cover" in n for n in out["notes"])


# ---------------------------------------------------------------------------------------------
# Stealth and [IGNORES COVER]


def test_stealth_gives_cover(tmp_path):
    """Every model has Stealth: the benefit of cover: BS 4+: 3.0 hits; said in notes."""
    out = shoot(attacker(tmp_path, gun()), sneaks(tmp_path), *ED11, dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(3)
    assert any("Stealth" in n and "Cover" in n for n in out["notes"])


def test_stealth_and_cover_count_once(tmp_path):
    """Stealth with --cover is still BS worsened by 1: 3.0 hits, not 2.0."""
    assert hits(tmp_path, attacker(tmp_path, gun()), sneaks(tmp_path), "--cover") == approx(3)


def test_target_stealth_option(tmp_path):
    """--target-stealth: the same as a Stealth datasheet: 3.0; with --cover still 3.0."""
    a, t = attacker(tmp_path, gun()), no_save(tmp_path)
    assert hits(tmp_path, a, t, "--target-stealth") == approx(3)
    assert hits(tmp_path, a, t, "--target-stealth", "--cover") == approx(3)


@pytest.mark.parametrize("flags", [("--cover",), ()])
def test_ignores_cover_removes_cover_from_any_source(tmp_path, flags):
    """[IGNORES COVER] against --cover, Stealth, or both: BS3+ stays 3+: 4.0 hits."""
    a = attacker(tmp_path, gun("ignores cover"))
    assert hits(tmp_path, a, sneaks(tmp_path), *flags) == approx(4)
    assert hits(tmp_path, a, no_save(tmp_path), "--cover") == approx(4)


# ---------------------------------------------------------------------------------------------
# Plunging fire


def test_plunging_fire_alone(tmp_path):
    """BS3+ improved by 1: 2+: 6 x 5/6 = 5.0 hits; JSON conditions.plunging_fire."""
    out = shoot(attacker(tmp_path, gun()), no_save(tmp_path), *ED11, "--plunging-fire",
                dirs=[tmp_path])  # fmt: skip
    assert weapon_row(out)["hits"] == approx(5)
    assert out["conditions"]["plunging_fire"] is True


def test_plunging_fire_with_cover(tmp_path):
    """BS changes are added up first (-1 cover, +1 plunging fire): BS3+: 4.0 hits."""
    a, t = attacker(tmp_path, gun()), no_save(tmp_path)
    assert hits(tmp_path, a, t, "--plunging-fire", "--cover") == approx(4)
    assert hits(tmp_path, a, sneaks(tmp_path), "--plunging-fire") == approx(4)


def test_plunging_fire_never_better_than_2_plus(tmp_path):
    """BS2+ with plunging fire stays 2+ (kept within 2+..6+): 5.0 hits; an unmodified 1 still
    fails."""
    a = attacker(tmp_path, gun(skill=2))
    assert hits(tmp_path, a, no_save(tmp_path), "--plunging-fire") == approx(5)


def test_plunging_fire_sum_is_clamped_after_adding(tmp_path):
    """BS6+ with cover (-1) and plunging fire (+1): the changes are summed first (0): 6+ stays
    6+: 1.0 hits (clamping cover first, to 6+, then improving to 5+ would give 2.0)."""
    a = attacker(tmp_path, gun(skill=6))
    assert hits(tmp_path, a, no_save(tmp_path), "--plunging-fire", "--cover") == approx(1)


@pytest.mark.parametrize("side", ["attacker", "target"])
def test_plunging_fire_not_with_aircraft(tmp_path, side):
    """Plunging fire needs "neither side is an AIRCRAFT": no effect (4.0 hits), noted."""
    kw = ("VEHICLE", "AIRCRAFT")
    a = attacker(tmp_path, gun(), keywords=kw if side == "attacker" else ("INFANTRY",))
    t = target(tmp_path, T=4, Sv=7, keywords=kw if side == "target" else ("INFANTRY",))
    out = shoot(a, t, *ED11, "--plunging-fire", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(4)
    assert any("--plunging-fire" in n and "AIRCRAFT" in n for n in out["notes"])


def test_plunging_fire_has_no_effect_in_edition_10(tmp_path):
    """Accepted and noted as having no effect in edition 10: 4.0 hits."""
    out = shoot(attacker(tmp_path, gun()), no_save(tmp_path), "--plunging-fire", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(4)
    assert any("--plunging-fire" in n and "edition 10" in n for n in out["notes"])


def test_plunging_fire_has_no_effect_in_the_fight_phase(tmp_path):
    a = attacker(tmp_path, melee(A=6, skill=3, S=8))
    out = fight(a, no_save(tmp_path), *ED11, "--plunging-fire", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(4)
    assert any("--plunging-fire" in n and "no effect" in n for n in out["notes"])


# ---------------------------------------------------------------------------------------------
# [PSYCHIC]


def test_psychic_ignores_stealth(tmp_path):
    """A Psychic weapon into a Stealth unit hits as if the target had no cover: 4.0; the
    choice is listed."""
    out = shoot(attacker(tmp_path, gun("psychic")), sneaks(tmp_path), *ED11, dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(4)
    assert any("[PSYCHIC]" in c and "Cover" in c for c in out["choices"])


def test_psychic_keeps_plunging_fire(tmp_path):
    """With cover and plunging fire it keeps only the plunging fire: BS 2+: 5.0 hits."""
    a = attacker(tmp_path, gun("psychic"))
    assert hits(tmp_path, a, no_save(tmp_path), "--cover", "--plunging-fire") == approx(5)


def test_psychic_ignores_harmful_hit_modifiers_and_keeps_helpful_ones(tmp_path):
    """--hit-mod -1 ignored: 3+: 4.0; --hit-mod 1 kept: 2+: 5.0; [HEAVY] with --stationary
    (+1) kept while --cover is dropped: 2+: 5.0."""
    a = attacker(tmp_path, gun("psychic", "heavy"))
    t = no_save(tmp_path)
    assert hits(tmp_path, a, t, "--hit-mod", "-1") == approx(4)
    assert hits(tmp_path, a, t, "--hit-mod", "1") == approx(5)
    assert hits(tmp_path, a, t, "--stationary", "--cover") == approx(5)


def test_psychic_melee_ignores_a_harmful_ws_modifier(tmp_path):
    """Melee: -1 to the Hit roll ignored: WS3+ hits on 3+: 6 x 4/6 = 4.0."""
    a = attacker(tmp_path, melee(A=6, skill=3, S=8, abilities=["psychic"]))
    out = fight(a, no_save(tmp_path), *ED11, "--hit-mod", "-1", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(4)


def test_psychic_changes_nothing_in_10th_edition(tmp_path):
    """10th edition: [PSYCHIC] does not ignore modifiers: --hit-mod -1: 4+: 3.0."""
    a = attacker(tmp_path, gun("psychic"))
    out = shoot(a, no_save(tmp_path), "--hit-mod", "-1", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(3)


# ---------------------------------------------------------------------------------------------
# [HEAVY]


def test_heavy_in_edition_11(tmp_path):
    """BS4+ [HEAVY] with --stationary: +1: 3+: 6 x 4/6 = 4.0; and with cover: BS 5+, +1 to
    the roll: a 4 hits: 3.0 (two kinds of change, both applied)."""
    a = attacker(tmp_path, gun("heavy", skill=4))
    t = no_save(tmp_path)
    assert hits(tmp_path, a, t, "--stationary") == approx(4)
    assert hits(tmp_path, a, t, "--stationary", "--cover") == approx(3)
    assert hits(tmp_path, a, t) == approx(3)


def test_stationary_help_per_edition():
    out = invoke(["shoot", "--help"])
    text = " ".join(out.stdout.split())
    assert "Edition 10: the attacker Remained Stationary" in text
    assert "edition 11: it is unengaged, was not set up this turn and no model moved" in text


# ---------------------------------------------------------------------------------------------
# [CLEAVE X]


@pytest.mark.parametrize(("x", "models", "attacks"), [(1, 16, 6), (1, 4, 3), (2, 10, 7)])
def test_cleave(tmp_path, x, models, attacks):
    """A3 [CLEAVE X]: +X attack dice per five models in the target (rounding down): into 16
    models with X=1: 3 + 3 = 6 attacks; into 4: 3; X=2 into 10: 3 + 4 = 7."""
    a = attacker(tmp_path, melee(A=3, skill=3, abilities=[f"cleave {x}"]))
    out = fight(a, target(tmp_path, models=models), *ED11, dirs=[tmp_path])
    assert weapon_row(out)["attacks"] == approx(attacks)


def test_cleave_not_modelled_in_edition_10(tmp_path):
    """[CLEAVE X] is not a 10th-edition ability: 3 attacks, listed under not_modelled."""
    a = attacker(tmp_path, melee(A=3, skill=3, abilities=["cleave 1"]))
    out = fight(a, target(tmp_path, models=16), dirs=[tmp_path])
    assert weapon_row(out)["attacks"] == approx(3)
    assert any("cleave 1" in n for n in out["not_modelled"])


# ---------------------------------------------------------------------------------------------
# [PISTOL] = [CLOSE-QUARTERS]


def test_close_quarters_is_pistol_in_edition_11(tmp_path):
    """A model with a [CLOSE-QUARTERS] gun (A1) and a rifle (A2) shoots one or the other, as
    with a [PISTOL]: the rifle (2 models x 2 attacks = 4), not 6."""
    m = model("Trooper", equipped=["Sidearm", "Rifle"])
    u = write_unit(
        tmp_path,
        "troopers",
        models=[(m, 2)],
        weapons=[weapon("Sidearm", A=1, skill=3, abilities=["close-quarters"]),
                 weapon("Rifle", A=2, skill=3)],
    )  # fmt: skip
    out = shoot(u, no_save(tmp_path), *ED11, dirs=[tmp_path])
    assert [w["name"] for w in out["weapons"]] == ["Rifle"]
    assert out["expected"]["attacks"] == approx(4)
    assert any("Rifle" in c and "Sidearm" in c for c in out["choices"])


# ---------------------------------------------------------------------------------------------
# What edition 11 refuses: its text is not in our sources


def test_indirect_without_an_indirect_fire_weapon_refused_in_edition_11(tmp_path):
    """``--indirect`` is edition 11's indirect shooting (10.07; its values are in
    test_rules11_text.py): only [INDIRECT FIRE] weapons can target a unit that is not visible,
    so a unit without one is refused, as in 10th edition."""
    result = refused("shoot", attacker(tmp_path, gun()), no_save(tmp_path), *ED11, "--indirect",
                     dirs=[tmp_path])  # fmt: skip
    assert "[INDIRECT FIRE]" in result.stderr


@pytest.mark.parametrize(("effect", "unit_kw"), [("grenade", "GRENADES"), ("go-to-ground", None)])
def test_core_stratagems_without_edition_11_text_refused(tmp_path, effect, unit_kw):
    """Grenade and Go to Ground are not in file 004's section 15: refused with the reason."""
    a = attacker(tmp_path, gun(), keywords=("INFANTRY", "GRENADES"))
    effect_flag = ("--effect", effect if unit_kw else f"target:{effect}")
    result = refused("shoot", a, no_save(tmp_path), *ED11, *effect_flag, dirs=[tmp_path])
    assert "edition-11 text" in result.stderr and "not in our sources" in result.stderr
    # 10th edition: applied
    out = shoot(a, no_save(tmp_path), *effect_flag, dirs=[tmp_path])
    assert effect in out["effects"]


@pytest.mark.parametrize("effect", ["fire-overwatch", "command-re-roll"])
def test_core_stratagems_in_file_004_accepted(tmp_path, effect):
    """Fire Overwatch (15.08) and Command Re-roll (15.02) are in file 004: accepted."""
    out = shoot(attacker(tmp_path, gun()), no_save(tmp_path), *ED11, "--effect", effect,
                dirs=[tmp_path])  # fmt: skip
    assert effect in out["effects"]


def test_plunging_fire_in_batch_files_and_compare(tmp_path):
    """Batch `conditions: {plunging_fire: true}` (or `plunging-fire`) and `calc compare
    --plunging-fire`: 5.0 hits as with `calc shoot --plunging-fire`."""
    a, t = attacker(tmp_path, gun()), no_save(tmp_path)
    batch = tmp_path / "runs.yaml"
    batch.write_text(
        yaml.safe_dump(
            {
                "edition": 11,
                "datasheets": ["."],
                "targets": [t],
                "runs": [
                    {"name": "plunging", "attacker": a, "conditions": {"plunging-fire": True}},
                    {"name": "level", "attacker": a},
                ],
            }
        )
    )
    result = invoke(["compare", str(batch), "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["run"]: r for r in json.loads(result.stdout)}
    assert weapon_row(rows["plunging"])["hits"] == approx(5)
    assert rows["plunging"]["conditions"]["plunging_fire"] is True
    assert weapon_row(rows["level"])["hits"] == approx(4)
    result = invoke(["compare", a, "--target", t, "--plunging-fire", *ED11, "--json"], [tmp_path])
    assert result.exit_code == 0, result.output
    assert weapon_row(json.loads(result.stdout)[0])["hits"] == approx(5)

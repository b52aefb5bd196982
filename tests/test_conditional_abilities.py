"""Weapon abilities that apply only against some targets (edition 11's forms), checked against
values worked out by hand.

Rules (core_rules.json, in our words):

* 24.01 Abilities: a weapon ability followed by one or more keywords applies only to attacks
  that target a unit with one or more of those keywords (its example: [LETHAL HITS: VEHICLE]
  only against a VEHICLE unit, [SUSTAINED HITS 1: INFANTRY/BEASTS] only against an INFANTRY or
  BEASTS unit).
* 02.05.01 Using Keywords: keywords separated by slashes mean any one of them; a rule for
  "non-KEYWORD" units applies only to units without that keyword; a unit has every keyword of
  its models; 19.03: an Attached unit has the keywords of all its component units.
* Core rules FAQ on [ANTI]: [ANTI-non-MONSTER/VEHICLE X+] triggers on any unit without the
  keywords named.
* 24.02 Duplicated Abilities: two instances of one ability are not cumulative; the controlling
  player selects which applies (the calculator keeps the better).

The common attacker: one model, A6, BS4+ (a hit on 4+: 1/2, a Critical Hit on 6: 1/6), S4,
AP0, D1, into ten W1 models with T8 (S4 is half of T8: wounds on 6+ only) and no save (Sv7+).
"""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import attacker, check_row, fight, refused, shoot, weapon, weapon_row, write_unit

from wh40k_calc.abilities import (
    MODELLED,
    WeaponAbilities,
    keywords_match,
    parse_ability,
    parse_added_ability,
)

ED11 = ("--edition", "11")


def dummies(tmp_path, stem: str, *keywords: str, models: int = 10) -> str:
    """Ten W1 T8 Sv7+ models with ``keywords``."""
    m = {"name": stem.title(), "M": 6, "T": 8, "Sv": 7, "W": 1, "Ld": 7, "OC": 1, "equipped": []}
    return write_unit(tmp_path, stem, models=[(m, models)], keywords=keywords)


def gun(*abilities: str) -> dict:
    return weapon(A=6, skill=4, S=4, abilities=abilities)


def row(tmp_path, a: str, t: str, *flags: str) -> dict:
    return weapon_row(shoot(a, t, *ED11, *flags, dirs=[tmp_path]))


# ---------------------------------------------------------------------------------------------
# Parsing: the keyword spec


@pytest.mark.parametrize(
    ("spec", "keywords", "matches"),
    [
        ("MONSTER/VEHICLE", {"VEHICLE", "WALKER"}, True),
        ("MONSTER/VEHICLE", {"MONSTER"}, True),
        ("MONSTER/VEHICLE", {"INFANTRY"}, False),
        ("NON-MONSTER/VEHICLE", {"INFANTRY"}, True),
        ("NON-MONSTER/VEHICLE", {"INFANTRY", "VEHICLE"}, False),  # a unit with a VEHICLE model
        ("COMMISSAR", {"COMMISSAR GRAVES"}, False),  # core rules FAQ: keywords match whole
        ("EPIC HERO", {"EPIC HERO", "CHARACTER"}, True),
    ],
)
def test_keyword_spec(spec, keywords, matches) -> None:
    assert keywords_match(spec, frozenset(keywords)) is matches


@pytest.mark.parametrize(
    ("text", "inner", "spec"),
    [
        ("LETHAL HITS: non-MONSTER/VEHICLE", "lethal hits", "NON-MONSTER/VEHICLE"),
        ("devastating wounds: monster/vehicle", "devastating wounds", "MONSTER/VEHICLE"),
        ("sustained hits 1: infantry/beasts", "sustained hits 1", "INFANTRY/BEASTS"),
        ("Lethal Hits : Vehicle", "lethal hits", "VEHICLE"),
    ],
)
def test_conditional_forms_parse_as_modelled(text, inner, spec) -> None:
    ab = parse_ability(text)
    assert ab.key == "conditional" and ab.status == MODELLED
    assert (ab.value[0].text, ab.value[1]) == (inner, spec)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("anti-monster/vehicle 4+", ("MONSTER/VEHICLE", 4)),
        ("ANTI-non-MONSTER/VEHICLE 5+", ("NON-MONSTER/VEHICLE", 5)),
        ("anti-non-psyker 2+", ("NON-PSYKER", 2)),
        ("anti-infantry 4+", ("INFANTRY", 4)),
    ],
)
def test_anti_with_several_keywords_is_modelled(text, value) -> None:
    ab = parse_ability(text)
    assert (ab.key, ab.value, ab.status) == ("anti", value, MODELLED)


def test_a_datasheet_rule_with_keywords_stays_not_modelled() -> None:
    ab = WeaponAbilities.parse(["snagged: vehicle"])
    assert ab.unmodelled == ("snagged: vehicle",) and ab.conditional == ()


def test_against_applies_matching_abilities_and_drops_the_rest() -> None:
    ab = WeaponAbilities.parse(
        ["lethal hits: non-monster/vehicle", "devastating wounds: vehicle", "sustained hits 1"]
    )
    assert not ab.lethal_hits and not ab.devastating_wounds  # not until the target is known
    infantry = ab.against(frozenset({"INFANTRY"}))
    assert infantry.lethal_hits and not infantry.devastating_wounds
    tank = ab.against(frozenset({"VEHICLE"}))
    assert not tank.lethal_hits and tank.devastating_wounds
    assert infantry.conditional == tank.conditional == ()
    assert str(infantry.sustained_hits) == str(tank.sustained_hits) == "1"
    # what the weapon has against each target (``weapons_with`` of effect records reads it)
    assert infantry.texts == ("sustained hits 1", "lethal hits")
    assert tank.texts == ("sustained hits 1", "devastating wounds")


def test_duplicated_abilities_keep_the_better_one() -> None:
    """24.02: [SUSTAINED HITS 1] and [SUSTAINED HITS 2: INFANTRY] do not add up; against
    INFANTRY the player selects SUSTAINED HITS 2."""
    ab = WeaponAbilities.parse(["sustained hits 1", "sustained hits 2: infantry"])
    assert str(ab.against(frozenset({"INFANTRY"})).sustained_hits) == "2"
    assert str(ab.against(frozenset({"VEHICLE"})).sustained_hits) == "1"


# ---------------------------------------------------------------------------------------------
# Through the attack sequence


@pytest.mark.parametrize("edition", ["10", "11"])
def test_lethal_hits_non_monster_vehicle_into_infantry_and_a_vehicle(tmp_path, edition) -> None:
    """Into INFANTRY it applies: a Critical Hit (1/6) wounds automatically, another hit (4-5:
    2/6) wounds on a 6 (1/6): 6 x (1/6 + 2/6 x 1/6) = 4/3 wounds, each destroying a W1 model
    with no save. (Edition 11 takes the automatic wound as a choice, 24.23: here it is always
    the better one.) Into a VEHICLE it does not apply: 6 x 3/6 x 1/6 = 1/2."""
    a = attacker(tmp_path, gun("lethal hits: non-monster/vehicle"))
    grunts = dummies(tmp_path, "grunts", "INFANTRY")
    tanks = dummies(tmp_path, "tanks", "VEHICLE")
    flags = ("--edition", edition)
    out = shoot(a, grunts, *flags, dirs=[tmp_path])
    check_row(weapon_row(out), hits=3, wounds=Fr(4, 3), damage=Fr(4, 3))
    assert any("applies (Grunts has no MONSTER or VEHICLE keyword" in n for n in out["notes"])
    out = shoot(a, tanks, *flags, dirs=[tmp_path])
    check_row(weapon_row(out), hits=3, wounds=Fr(1, 2), damage=Fr(1, 2))
    assert any("does not apply (Tanks has VEHICLE" in n for n in out["notes"])


def test_anti_monster_vehicle(tmp_path) -> None:
    """[ANTI-MONSTER/VEHICLE 4+]: 3 hits; against a MONSTER or a VEHICLE an unmodified 4+ is a
    Critical Wound (so a wound): 3 x 1/2 = 3/2; against INFANTRY only the 6: 3 x 1/6 = 1/2."""
    a = attacker(tmp_path, gun("anti-monster/vehicle 4+"))
    for stem, kw, wounds in (
        ("tanks", "VEHICLE", Fr(3, 2)),
        ("beasts", "MONSTER", Fr(3, 2)),
        ("grunts", "INFANTRY", Fr(1, 2)),
    ):
        check_row(row(tmp_path, a, dummies(tmp_path, stem, kw)), hits=3, wounds=wounds)


def test_anti_non_keyword(tmp_path) -> None:
    """[ANTI-non-MONSTER/VEHICLE 4+] (core rules FAQ: it triggers on any unit without those
    keywords): 3/2 wounds into INFANTRY, 1/2 into a VEHICLE."""
    a = attacker(tmp_path, gun("anti-non-monster/vehicle 4+"))
    check_row(row(tmp_path, a, dummies(tmp_path, "grunts", "INFANTRY")), wounds=Fr(3, 2))
    check_row(row(tmp_path, a, dummies(tmp_path, "tanks", "VEHICLE")), wounds=Fr(1, 2))


def test_sustained_hits_for_one_keyword(tmp_path) -> None:
    """[SUSTAINED HITS 1: INFANTRY]: into INFANTRY a Critical Hit (1/6) adds a hit: 3 + 6/6 =
    4 hits; into a VEHICLE 3."""
    a = attacker(tmp_path, gun("sustained hits 1: infantry"))
    check_row(row(tmp_path, a, dummies(tmp_path, "grunts", "INFANTRY")), hits=4)
    check_row(row(tmp_path, a, dummies(tmp_path, "tanks", "VEHICLE")), hits=3)


def test_an_attached_unit_has_its_leaders_keywords(tmp_path) -> None:
    """19.03: an Attached unit has the keywords of all its component units. A MONSTER Leader
    makes the unit a MONSTER unit, so [ANTI-MONSTER 4+] applies to every attack, even those
    allocated to the INFANTRY Bodyguard: 3 x 1/2 = 3/2 wounds."""
    bg = {"name": "Grunt", "M": 6, "T": 8, "Sv": 7, "W": 1, "Ld": 7, "OC": 1, "equipped": []}
    boss = {**bg, "name": "Beast Boss", "W": 6}
    write_unit(tmp_path, "grunts", models=[(bg, 10)], keywords=("INFANTRY",))
    leader = write_unit(
        tmp_path, "beast-boss", models=[(boss, 1)], keywords=("MONSTER", "CHARACTER")
    )
    sheet = (tmp_path / "beast-boss.yaml").read_text() + "leader_of: [Grunts]\n"
    (tmp_path / "beast-boss.yaml").write_text(sheet)
    a = attacker(tmp_path, gun("anti-monster 4+"))
    check_row(row(tmp_path, a, "grunts", "--target-leader", leader), wounds=Fr(3, 2))
    check_row(row(tmp_path, a, "grunts"), wounds=Fr(1, 2))


def test_devastating_wounds_monster_vehicle_in_the_data(tmp_path) -> None:
    """The one conditional form in data 912: the Knight Desecrator's Desecrator laser
    destructor (A3, BS2+, S18, AP-4, D D6+3, [DEVASTATING WOUNDS: MONSTER/VEHICLE]).

    Into a Land Raider (VEHICLE, T12: S18 > T12 wounds on 3+): 3 x 5/6 = 5/2 hits, 5/2 x 4/6 =
    5/3 wounds, of which the 6s (5/2 x 1/6 = 5/12) become D6+3 mortal wounds each: 5/12 x 13/2 =
    65/24. Into Intercessors (INFANTRY, T4: S18 >= 8 wounds on 2+): 5/2 x 5/6 = 25/12 wounds, no
    mortal wounds."""
    fire = ("--weapon", "Desecrator laser destructor")
    out = shoot("knight desecrator", "Space Marines/Land Raider", *ED11, *fire)
    check_row(weapon_row(out), hits=Fr(5, 2), wounds=Fr(5, 3), mortal_wounds=Fr(65, 24))
    out = shoot("knight desecrator", "Space Marines/Intercessor Squad", *ED11, *fire)
    check_row(weapon_row(out), hits=Fr(5, 2), wounds=Fr(25, 12), mortal_wounds=0)


# ---------------------------------------------------------------------------------------------
# --add-ability


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("lethal hits: vehicle", ("*", "lethal hits: vehicle")),
        ("Gun: sustained hits 1: infantry", ("Gun", "sustained hits 1: infantry")),
        ("Gun: lethal hits", ("Gun", "lethal hits")),
        ("anti-monster/vehicle 4+", ("*", "anti-monster/vehicle 4+")),
    ],
)
def test_add_ability_reads_the_conditional_forms(text, parsed) -> None:
    assert parse_added_ability(text) == parsed


def test_add_ability_refuses_a_conditional_form_of_what_it_refuses() -> None:
    with pytest.raises(ValueError, match="PISTOL"):
        parse_added_ability("pistol: vehicle")


def test_add_ability_conditional_through_the_cli(tmp_path) -> None:
    """``--add-ability "lethal hits: non-monster/vehicle"`` acts as the datasheet's would."""
    a = attacker(tmp_path, gun())
    grunts = dummies(tmp_path, "grunts", "INFANTRY")
    tanks = dummies(tmp_path, "tanks", "VEHICLE")
    added = ("--add-ability", "Gun: lethal hits: non-monster/vehicle")
    check_row(row(tmp_path, a, grunts, *added), wounds=Fr(4, 3))
    check_row(row(tmp_path, a, tanks, *added), wounds=Fr(1, 2))
    refused("shoot", a, grunts, *ED11, "--add-ability", "Gun: snagged: vehicle", dirs=[tmp_path])


# ---------------------------------------------------------------------------------------------
# A weapon with several profiles (04.01.03 Multiple Weapon Profiles: when a weapon with more
# than one profile is selected, the controlling player selects one of its profiles for the
# Resolve Attacks step)


def _choppas(tmp_path) -> str:
    """Five models, each with one Choppa of two profiles: Standard A4 WS3+ S4 AP-1 D1 and
    Hunter A2 WS3+ S6 AP-2 D3 (as the edition-11 importer writes them: ``profile_of``)."""
    standard = {**weapon("Choppa – Standard", range="melee", A=4, skill=3, S=4, AP=-1, D=1),
                "profile_of": "Choppa"}  # fmt: skip
    hunter = {**weapon("Choppa – Hunter", range="melee", A=2, skill=3, S=6, AP=-2, D=3),
              "profile_of": "Choppa"}  # fmt: skip
    m = {"name": "Choppa Boy", "M": 6, "T": 5, "Sv": 5, "W": 1, "Ld": 7, "OC": 1,
         "equipped": ["Choppa – Standard", "Choppa – Hunter"]}  # fmt: skip
    return write_unit(tmp_path, "choppa-boyz", models=[(m, 5)], weapons=[standard, hunter])


def _marines(tmp_path, stem: str, W: int, models: int) -> str:
    m = {"name": stem.title(), "M": 6, "T": 4, "Sv": 4, "W": W, "Ld": 7, "OC": 1, "equipped": []}
    return write_unit(tmp_path, stem, models=[(m, models)])


def test_two_profiles_one_per_attack_sequence_the_better_chosen(tmp_path) -> None:
    """Per model: Standard 4 attacks, a hit on 3+ (2/3), S4 against T4 wounds on 4+ (1/2), Sv4+
    with AP-1 saves on 5+ (fails 2/3): 20 attacks x 2/9 = 40/9 failed saves of 1 Damage.
    Hunter 2 attacks, 2/3 hit, S6 > T4 wounds on 3+ (2/3), AP-2 leaves a 6+ save (fails 5/6): 10
    x 10/27 = 100/27 failed saves of 3 Damage.

    Into thirty W1 models Standard destroys more (40/9 > 100/27): only its row. Into ten W3
    models each Hunter failed save destroys a model (100/27), while Standard's 40/9 points of
    Damage destroy fewer than 40/27 models: Hunter's row only, 100/27 x 3 = 100/9 Damage."""
    a = _choppas(tmp_path)
    out = fight(a, _marines(tmp_path, "grunts", 1, 30), *ED11, dirs=[tmp_path])
    assert [r["name"] for r in out["weapons"]] == ["Choppa – Standard"]
    check_row(weapon_row(out), attacks=20, failed_saves=Fr(40, 9), damage=Fr(40, 9))
    out = fight(a, _marines(tmp_path, "brutes", 3, 10), *ED11, dirs=[tmp_path])
    assert [r["name"] for r in out["weapons"]] == ["Choppa – Hunter"]
    check_row(weapon_row(out), attacks=10, failed_saves=Fr(100, 27), damage=Fr(100, 9))
    assert out["expected"]["models_destroyed"] == pytest.approx(100 / 27, abs=1e-6)

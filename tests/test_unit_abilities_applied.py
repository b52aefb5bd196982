"""Datasheet abilities the importers read as effect records (issue 18, item 7), applied to real
datasheets of both editions' shipped data and checked against values worked out by hand from
the ability's text and the datasheet's numbers (each test's docstring shows the sum).

Each pattern family has a unit of each edition: re-rolls of Hit rolls of 1, a Leader's +1 to
melee Hit rolls only while it leads, +1 to Wound rolls against a keyword, Feel No Pain against
mortal wounds taking [DEVASTATING WOUNDS], an invulnerable save and the Benefit of Cover while
a Leader leads, Critical Hits or S/D after a Charge move, +1 to Hit rolls against a target
Below Half-strength, -1 to be wounded while a CHARACTER leads, a player-known condition as an
option, an aura named with --effect. The datasheets' numbers the sums use are checked first
(``_profile``), so a change of data fails with the reason rather than a wrong sum.
"""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import approx, check_row, fight, shoot, target, weapon, weapon_row, write_unit

from wh40k_calc.catalog import Catalog


def _profile(name: str, edition: str, weapon_name: str, **want) -> None:
    """The shipped datasheet ``name`` of ``edition`` has weapon ``weapon_name`` with the
    characteristics ``want`` (the numbers a test's sum uses)."""
    ds = Catalog(edition=edition).find(name, edition=edition)
    w = ds.weapon(weapon_name)
    assert w is not None, (name, weapon_name)
    got = {k: _value(getattr(w, k)) if k != "abilities" else tuple(w.abilities.texts) for k in want}
    assert got == want, (name, weapon_name, got)


def _value(v):
    """A characteristic as a number where it is one (A and D are dice expressions)."""
    count = getattr(v, "count", None)
    return v.bonus if count == 0 else v


def _rules(name: str, edition: str) -> tuple[str, ...]:
    return Catalog(edition=edition).find(name, edition=edition).rules


def _p(n: int) -> Fr:
    """P(a D6 rolls n or more)."""
    return Fr(max(0, min(6, 7 - n)), 6)


def _reroll_ones(n: int) -> Fr:
    """P(success on n+ when a roll of 1 is re-rolled)."""
    return _p(n) + Fr(1, 6) * _p(n)


# ------------------------------------------------------------------------------------------
# The unit's own attacks: re-roll Hit rolls of 1


@pytest.mark.parametrize("edition", ["10", "11"])
def test_breaching_command_rerolls_hit_rolls_of_1(tmp_path, edition):
    """Kataphron Breachers (Breaching Command: each time a model in this unit makes an attack,
    re-roll a Hit roll of 1). 3 Breachers shoot their heavy arc rifles (A2 BS4+ S8; rapid
    fire only at half range): 6 attacks, P(hit) = 1/2 + 1/6 x 1/2 = 7/12: 3.5 hits; S8 against
    T4 wounds on 2+: 35/12."""
    _profile("Kataphron Breachers", edition, "Heavy arc rifle", A=2, skill=4, S=8)
    assert "breaching-command" in _rules("Kataphron Breachers", edition)
    t = target(tmp_path, T=4, Sv=7)
    out = shoot("Kataphron Breachers", t, "--edition", edition, dirs=[tmp_path])
    assert "breaching-command" in out["effects"]
    check_row(weapon_row(out, "Heavy arc rifle"), attacks=6, hits=Fr(7, 2), wounds=Fr(35, 12))


# ------------------------------------------------------------------------------------------
# Leader abilities: only while the Leader leads the unit


@pytest.mark.parametrize("edition", ["10", "11"])
def test_might_is_right_only_while_the_warboss_leads(tmp_path, edition):
    """Warboss (Might is Right: while this model is leading a unit, each time a model in that
    unit makes a melee attack, add 1 to the Hit roll). 10 Boyz: 9 Boys with choppas (A3 WS3+)
    make 27 attacks; led by the Warboss they hit on 2+: 22.5 hits, alone on 3+: 18. The
    Warboss fighting alone leads nothing: the rule does not apply."""
    _profile("Orks/Boyz", edition, "Choppa", A=3, skill=3)
    t = target(tmp_path, T=4, Sv=7)
    led = fight("Orks/Boyz", t, "--leader", "Orks/Warboss", "--edition", edition, dirs=[tmp_path])
    alone = fight("Orks/Boyz", t, "--edition", edition, dirs=[tmp_path])
    boss = fight("Orks/Warboss", t, "--edition", edition, dirs=[tmp_path])
    assert "might-is-right" in led["effects"]
    assert "might-is-right" not in alone["effects"] + boss["effects"]
    check_row(weapon_row(led, "Choppa"), attacks=27, hits=Fr(45, 2))
    check_row(weapon_row(alone, "Choppa"), attacks=27, hits=18)


# ------------------------------------------------------------------------------------------
# Conditions on the target's keywords


def test_tank_hunter_adds_1_to_wound_rolls_against_vehicles(tmp_path):
    """Stygies Destroyer Tank Hunter (edition 10; Tank Hunter: each time this model makes a
    ranged attack that targets a VEHICLE unit, add 1 to the Wound roll). Its laser destroyer
    (A2 BS4+ S14): 1 hit; against T12, S > T wounds on 3+ (2/3) against INFANTRY, on 2+ (5/6)
    against a VEHICLE."""
    name = "Astra Militarum/Stygies Destroyer Tank Hunter"
    _profile(name, "10", "Stygies laser destroyer", A=2, skill=4, S=14)
    tank = target(tmp_path, T=12, Sv=7, models=1, keywords=["VEHICLE"], stem="tank", W=20)
    foot = target(tmp_path, T=12, Sv=7, models=1, stem="foot", W=20)
    vs_tank = shoot(name, tank, dirs=[tmp_path])
    vs_foot = shoot(name, foot, dirs=[tmp_path])
    check_row(weapon_row(vs_tank, "Stygies laser destroyer"), hits=1, wounds=Fr(5, 6))
    check_row(weapon_row(vs_foot, "Stygies laser destroyer"), hits=1, wounds=Fr(2, 3))


def test_skyhunter_adds_1_to_hit_and_wound_against_units_that_can_fly(tmp_path):
    """Crimson Hunter (edition 11; Skyhunter: each time this model makes a ranged attack that
    targets a unit that can FLY, add 1 to the Hit roll and add 1 to the Wound roll). Two
    starcannons (A2 BS3+ S8): 4 attacks; against a T5 FLY unit, 2+ to hit: 10/3 hits, S > T
    3+ +1: 2+: 25/9 wounds; against a unit on foot 3+ and 3+: 8/3 and 16/9."""
    _profile("Crimson Hunter", "11", "Starcannon", A=2, skill=3, S=8)
    flyer = target(tmp_path, T=5, Sv=7, keywords=["INFANTRY", "FLY"], stem="flyer")
    foot = target(tmp_path, T=5, Sv=7, stem="foot")
    up = shoot("Crimson Hunter", flyer, "--edition", "11", dirs=[tmp_path])
    down = shoot("Crimson Hunter", foot, "--edition", "11", dirs=[tmp_path])
    check_row(weapon_row(up, "Starcannon"), attacks=4, hits=Fr(10, 3), wounds=Fr(25, 9))
    check_row(weapon_row(down, "Starcannon"), attacks=4, hits=Fr(8, 3), wounds=Fr(16, 9))


# ------------------------------------------------------------------------------------------
# Feel No Pain against mortal wounds, while a Leader leads, taking [DEVASTATING WOUNDS]


def _devastator(tmp_path):
    """Six torrent attacks S8 AP-6 D1 [DEVASTATING WOUNDS]: against T4, 2+ to wound, a 6 is
    a Critical Wound (1 mortal wound); 2-5 wound normally and AP-6 leaves no armour save."""
    gun = weapon("Devastator", A=6, skill=None, S=8, AP=-6, D=1)
    gun["abilities"] = ["torrent", "devastating wounds"]
    return write_unit(
        tmp_path,
        "devastator",
        models=[
            (
                {
                    "name": "Gunner",
                    "M": 6,
                    "T": 4,
                    "Sv": 4,
                    "W": 1,
                    "Ld": 7,
                    "OC": 1,
                    "equipped": ["devastator"],
                },
                1,
            )
        ],
        weapons=[gun],
    )


@pytest.mark.parametrize(
    ("edition", "bodyguard", "leader", "rule", "fnp"),
    [
        (
            "10",
            "Nemesis Claw",
            "Chaos Space Marines/Chaos Lord on Disc of Tzeentch",
            "lord-of-fate",
            5,
        ),
        (
            "11",
            "Space Marines/Intercessor Squad",
            "Chief Librarian Tigurius",
            "hood-of-hellfire",
            4,
        ),
    ],
)
def test_feel_no_pain_against_mortal_wounds_while_leading(
    tmp_path, edition, bodyguard, leader, rule, fnp
):
    """Lord of Fate (edition 10, Feel No Pain 5+ against mortal wounds) and Hood of Hellfire
    (edition 11, 4+ against mortal wounds and Psychic Attacks), each while its model leads
    the unit: 6 attacks, 5 wounds (2+): 4 normal ones (4 wounds lost, no Feel No Pain against
    them) and 1 Critical Wound's mortal wound, lost with P = 1 - P(X+): 4 + 2/3 (5+) or
    4 + 1/2 (4+) wounds lost; unled, all 5 are lost."""
    gun = _devastator(tmp_path)
    led = shoot(gun, bodyguard, "--target-leader", leader, "--edition", edition, dirs=[tmp_path])
    alone = shoot(gun, bodyguard, "--edition", edition, dirs=[tmp_path])
    assert rule in led["effects"] and rule not in alone["effects"]
    row = weapon_row(led)
    check_row(row, hits=6, wounds=5, failed_saves=4, mortal_wounds=1)
    assert led["expected"]["wounds_lost"] == approx(4 + (1 - _p(fnp)))
    assert alone["expected"]["wounds_lost"] == approx(5)


# ------------------------------------------------------------------------------------------
# An invulnerable save and the Benefit of Cover while a Leader leads


def test_blessed_by_the_plague_god_gives_the_unit_a_4_plus_invulnerable_save(tmp_path):
    """Epidemius (edition 10; while this model is leading a unit, models in that unit have a
    4+ invulnerable save) leading Plaguebearers (T5 Sv 7+, 5+ invulnerable): 6 torrent AP0 S8
    attacks wound on 3+ (4 wounds); they fail a 4+ save half the time (2), a 5+ two thirds
    (8/3)."""
    gun = attacker_gun(tmp_path)
    led = shoot(gun, "Chaos Daemons/Plaguebearers", "--target-leader", "Epidemius", dirs=[tmp_path])
    alone = shoot(gun, "Chaos Daemons/Plaguebearers", dirs=[tmp_path])
    check_row(weapon_row(led), wounds=4, failed_saves=2)
    check_row(weapon_row(alone), wounds=4, failed_saves=Fr(8, 3))


def attacker_gun(tmp_path, *, torrent: bool = True, A: int = 6, skill: int | None = None):
    """A gun of A attacks S8 AP0 D1 (torrent, or BS ``skill``)."""
    gun = weapon("Gun", A=A, skill=skill, S=8, AP=0, D=1)
    if torrent:
        gun["abilities"] = ["torrent"]
    return write_unit(
        tmp_path,
        "gunner",
        models=[
            (
                {
                    "name": "Gunner",
                    "M": 6,
                    "T": 4,
                    "Sv": 4,
                    "W": 1,
                    "Ld": 7,
                    "OC": 1,
                    "equipped": ["gun"],
                },
                1,
            )
        ],
        weapons=[gun],
    )


def test_red_skull_kommandos_gives_the_benefit_of_cover(tmp_path):
    """Boss Snikrot (edition 10; while this model is leading a unit, models in that unit have
    the Benefit of Cover) leading Kommandos (Sv 5+): ranged AP0 attacks face a 4+ save (10th
    edition: +1 to the armour save). 6 torrent S8 attacks against T5: 3+ to wound (4
    wounds): 2 failed saves led, 8/3 unled."""
    gun = attacker_gun(tmp_path)
    led = shoot(gun, "Kommandos", "--target-leader", "Boss Snikrot", dirs=[tmp_path])
    alone = shoot(gun, "Kommandos", dirs=[tmp_path])
    assert "red-skull-kommandos" in led["effects"]
    check_row(weapon_row(led), wounds=4, failed_saves=2)
    check_row(weapon_row(alone), wounds=4, failed_saves=Fr(8, 3))


def test_warped_interference_gives_the_benefit_of_cover_in_edition_11(tmp_path):
    """Sorcerer of the Emperor's Children (edition 11; Warped Interference: while this model
    is leading a unit, each time a ranged attack targets that unit, models in it have the
    Benefit of Cover: 13.08, -1 to the attack's BS) leading Noise Marines: a gun of 6 attacks
    BS3+ hits 4 times against them unled, 3 times led."""
    gun = attacker_gun(tmp_path, torrent=False, skill=3)
    led = shoot(
        gun,
        "Noise Marines",
        "--target-leader",
        "Emperor's Children/Sorcerer",
        "--edition",
        "11",
        dirs=[tmp_path],
    )
    alone = shoot(gun, "Noise Marines", "--edition", "11", dirs=[tmp_path])
    assert "warped-interference" in led["effects"]
    check_row(weapon_row(led), hits=3)
    check_row(weapon_row(alone), hits=4)


# ------------------------------------------------------------------------------------------
# After a Charge move


def test_mandiblasters_critical_hits_on_5_after_a_charge(tmp_path):
    """Striking Scorpions (edition 10; Mandiblasters: each time a model in this unit makes a
    melee attack, if it made a Charge move this turn, an unmodified Hit roll of 5+ scores a
    Critical Hit). 5 Scorpions' chainswords (the Exarch's too; A4 WS3+ [SUSTAINED HITS 1])
    make 20 attacks: 20 x 4/6 hits, plus one per Critical Hit: 20 x 2/6 with --charged (5+),
    20 x 1/6 without."""
    _profile(
        "Striking Scorpions",
        "10",
        "Scorpion chainsword",
        A=4,
        skill=3,
        abilities=("sustained hits 1",),
    )
    t = target(tmp_path, T=3, Sv=7)
    charged = fight("Striking Scorpions", t, "--charged", dirs=[tmp_path])
    plain = fight("Striking Scorpions", t, dirs=[tmp_path])
    assert "mandiblasters" in charged["effects"] and "mandiblasters" not in plain["effects"]
    check_row(
        weapon_row(charged, "Scorpion chainsword"), attacks=20, hits=Fr(20 * 4, 6) + Fr(20 * 2, 6)
    )
    check_row(weapon_row(plain, "Scorpion chainsword"), attacks=20, hits=Fr(20 * 4, 6) + Fr(20, 6))


def test_cutting_down_the_foe_adds_strength_and_damage_after_a_charge(tmp_path):
    """Hellflayers (edition 11; each time a model in this unit makes a melee attack, if this
    unit made a Charge move this turn, improve the S and D of that attack by 1). Slashing
    claws (A8 WS3+ S4): 16/3 hits; against T5 they wound on 5+ without a charge (16/9), on 4+
    with it (S5: 8/3)."""
    _profile("Hellflayers", "11", "Slashing claws", A=8, skill=3, S=4, D=1)
    t = target(tmp_path, T=5, Sv=7, W=3, models=5)
    charged = fight(
        "Hellflayers",
        t,
        "--charged",
        "--weapon",
        "Slashing claws",
        "--edition",
        "11",
        dirs=[tmp_path],
    )
    plain = fight(
        "Hellflayers", t, "--weapon", "Slashing claws", "--edition", "11", dirs=[tmp_path]
    )
    check_row(weapon_row(charged, "Slashing claws"), attacks=8, hits=Fr(16, 3), wounds=Fr(8, 3))
    check_row(weapon_row(plain, "Slashing claws"), wounds=Fr(16, 9))
    assert "cutting-down-the-foe" in charged["effects"]
    assert "cutting-down-the-foe" not in plain["effects"]


# ------------------------------------------------------------------------------------------
# Against a target Below Half-strength


@pytest.mark.parametrize("edition", ["10", "11"])
def test_executioner_adds_1_to_hit_against_a_target_below_half_strength(tmp_path, edition):
    """War Dog Executioner (Executioner: each time this model makes an attack that targets a
    unit that is Below Half-strength, add 1 to the Hit roll). Two autocannons (A4 BS3+): 8
    attacks, 16/3 hits against 10 models, 20/3 against 4 of them (Below Half-strength: fewer
    than 5 of 10)."""
    _profile("Chaos Knights/War Dog Executioner", edition, "War Dog autocannon", A=4, skill=3)
    t = target(tmp_path, T=4, Sv=7, W=1, models=10)
    full = shoot("Chaos Knights/War Dog Executioner", t, "--edition", edition, dirs=[tmp_path])
    half = shoot(
        "Chaos Knights/War Dog Executioner",
        t,
        "--target-models",
        "4",
        "--edition",
        edition,
        dirs=[tmp_path],
    )
    check_row(weapon_row(full, "War Dog autocannon"), attacks=8, hits=Fr(16, 3))
    check_row(weapon_row(half, "War Dog autocannon"), attacks=8, hits=Fr(20, 3))


# ------------------------------------------------------------------------------------------
# While a CHARACTER leads this unit (the Bodyguard's own ability)


@pytest.mark.parametrize("edition", ["10", "11"])
def test_resolute_will_only_while_a_character_leads(tmp_path, edition):
    """Custodian Wardens (Resolute Will: while a CHARACTER model is leading this unit, each
    time an attack targets it, if its S is greater than this unit's T, subtract 1 from the
    Wound roll). T6: 6 torrent S8 attacks wound on 3+ (4 wounds), 4+ (3) while a
    Shield-Captain leads; S6 attacks (not greater) stay on 4+ (3 wounds) either way."""
    strong = attacker_gun(tmp_path)
    led = shoot(
        strong,
        "Custodian Wardens",
        "--target-leader",
        "Adeptus Custodes/Shield-Captain",
        "--edition",
        edition,
        dirs=[tmp_path],
    )
    alone = shoot(strong, "Custodian Wardens", "--edition", edition, dirs=[tmp_path])
    assert "resolute-will" in led["effects"] and "resolute-will" not in alone["effects"]
    check_row(weapon_row(led), wounds=3)
    check_row(weapon_row(alone), wounds=4)


# ------------------------------------------------------------------------------------------
# A player-known condition as an option; an aura named with --effect


def test_battlefield_control_needs_its_option(tmp_path):
    """Macharius (edition 10; Battlefield Control: each time this model makes a ranged
    attack, if it is within range of an objective marker you control, re-roll a Hit roll of
    1): the player says so with --effect battlefield-control:on-objective. Its heavy
    stubbers (two, A3 BS4+, rapid fire only at half range): 6 attacks, 3 hits, 3.5 with the
    option; without it the output says what the option would add."""
    _profile("Astra Militarum/Macharius", "10", "Heavy stubber", A=3, skill=4)
    t = target(tmp_path, T=4, Sv=7)
    held = shoot(
        "Astra Militarum/Macharius",
        t,
        "--effect",
        "battlefield-control:on-objective",
        dirs=[tmp_path],
    )
    plain = shoot("Astra Militarum/Macharius", t, dirs=[tmp_path])
    check_row(weapon_row(held, "Heavy stubber"), attacks=6, hits=Fr(7, 2))
    check_row(weapon_row(plain, "Heavy stubber"), attacks=6, hits=3)
    assert any("battlefield-control:on-objective" in n for n in plain["not_modelled"])


@pytest.mark.parametrize(
    ("edition", "rule"), [("10", "wisdom-of-the-ancients"), ("11", "wisdom-of-the-ancients")]
)
def test_an_aura_applies_only_when_named(tmp_path, edition, rule):
    """Wisdom of the Ancients (a Space Marine Dreadnought's aura: while a friendly ADEPTUS
    ASTARTES INFANTRY unit is within 6" of this model, each time a model in that unit makes an
    attack, re-roll a Hit roll of 1): 5 Intercessors' bolt rifles (A2 BS3+; rapid fire only at
    half range) make 10 attacks: 20/3 hits, with the aura named 10 x (4/6 + 1/6 x 4/6) =
    70/9."""
    name = "Space Marines/Intercessor Squad"
    _profile(name, edition, "Bolt rifle", A=2, skill=3)
    t = target(tmp_path, T=4, Sv=7)
    named = shoot(name, t, "--effect", rule, "--edition", edition, dirs=[tmp_path])
    plain = shoot(name, t, "--edition", edition, dirs=[tmp_path])
    check_row(weapon_row(named, "Bolt rifle"), attacks=10, hits=Fr(70, 9))
    check_row(weapon_row(plain, "Bolt rifle"), attacks=10, hits=Fr(20, 3))
    assert rule in named["effects"] and rule not in plain["effects"]

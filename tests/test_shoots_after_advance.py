"""Rules that let a unit shoot with all its weapons after an Advance (the effect change
``shoots_after_advance``, read by ``rules/advanced.py``), against values worked out by hand.

The rules, in our words: edition 11's Devastator Doctrine (Combat Doctrines, Mastered
Doctrines, and the stratagems that pick a doctrine for one unit) makes a unit eligible to shoot
in a turn in which it Advanced; Thrill Seekers (Emperor's Children; 10th edition also Chaos
Space Marines) likewise, with targeting restrictions we do not model. Neither grants [ASSAULT]
nor gives a Hit-roll modifier, so every ranged weapon shoots as it would unmoved.

The test squads are those of ``test_advanced.py``: five models with a carbine (A2 BS3+ S4 AP0
D1 [ASSAULT]), a cannon (A1 BS3+ S8 AP-2 D2 [HEAVY]) and a sidearm ([PISTOL]); the slow squad
has only cannons. The mob: twenty T4 Sv4+ W1 models.
"""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from helpers import cli
from oracle import approx, invoke, refused, shoot
from test_advanced import CANNON, CARBINE, sheets  # noqa: F401  (the fixture)

ED11 = ("--edition", "11")
RECORD = {"id": "free-fire", "name": "Free Fire", "kind": "detachment", "side": "attacker",
          "summary": "test", "changes": [{"shoots_after_advance": True,
                                          "when": {"advanced": True}}]}  # fmt: skip


def _weapons(out: dict) -> set[str]:
    return {w["name"] for w in out["weapons"]}


@pytest.mark.parametrize("edition", ["10", "11"])
def test_every_gun_shoots_after_advancing(sheets, fx, edition) -> None:  # noqa: F811
    """With the change, the slow squad (cannons only, [HEAVY], no [ASSAULT]) is not refused:
    5 cannons hit 5 x 4/6 = 10/3 (no modifier, no [HEAVY] bonus) and destroy 5 x 25/54. The
    dash squad shoots carbines and cannons, as unmoved: 10 x 1/6 + 5 x 25/54. Without the
    effect the slow squad is refused and the dash squad shoots its carbines only."""
    fx(RECORD)
    flags = ("--advanced", "--edition", edition)
    out = shoot("slow squad", "test mob", *flags, "--effect", "free-fire", dirs=[sheets])
    assert _weapons(out) == {"Cannon"}
    assert out["weapons"][0]["expected"]["hits"] == approx(Fr(10, 3))
    assert out["expected"]["models_destroyed"] == approx(5 * CANNON)
    assert not any(n.startswith("advanced (--advanced)") for n in out["notes"])
    r = refused("shoot", "slow squad", "test mob", *flags, dirs=[sheets])
    assert "cannot shoot after an Advance move" in r.stdout + r.stderr
    out = shoot("dash squad", "test mob", *flags, "--effect", "free-fire", dirs=[sheets])
    assert _weapons(out) == {"Carbine", "Cannon"}
    assert out["expected"]["models_destroyed"] == approx(10 * CARBINE + 5 * CANNON)
    out = shoot("dash squad", "test mob", *flags, dirs=[sheets])
    assert _weapons(out) == {"Carbine"}


def test_no_effect_without_advanced(sheets, fx) -> None:  # noqa: F811
    """Unmoved, the effect changes nothing: same figures, and a note says it needs --advanced."""
    fx(RECORD)
    plain = shoot("slow squad", "test mob", *ED11, dirs=[sheets])
    out = shoot("slow squad", "test mob", *ED11, "--effect", "free-fire", dirs=[sheets])
    assert out["expected"]["models_destroyed"] == approx(5 * CANNON)
    assert plain["expected"]["models_destroyed"] == approx(5 * CANNON)
    assert any("--effect free-fire: no effect" in n and "--advanced" in n for n in out["notes"])


def test_a_misspelt_field_is_an_error(sheets, fx) -> None:  # noqa: F811
    """An unknown change field stays an error at load, naming the field."""
    bad = dict(RECORD, changes=[{"shoots_after_advancing": True}])
    fx(bad)
    r = refused("shoot", "slow squad", "test mob", "--advanced", "--effect", "free-fire",
                *ED11, dirs=[sheets])  # fmt: skip
    assert "shoots_after_advancing" in r.stdout + r.stderr


# Eradicator Squad (edition 11): 3 models, melta rifle A1 BS3+ S9 AP-4 D6 [MELTA 2, HEAVY],
# bolt pistol. Into Boyz (T5 Sv5+): 3 attacks, 3 x 2/3 = 2 hits, S9 v T5 wounds on 3+:
# 2 x 2/3 = 4/3 wounds, Sv5+ at AP-4 is no save: 4/3 failed saves.
@pytest.mark.parametrize(
    "effect",
    [
        "devastator-doctrine",
        "mastered-devastator-doctrine",
        "adaptive-strategy",
        "ultramarian-adaptivity",
        "storm-of-fire:devastator-doctrine",
        "exemplary-vigilance:devastator-doctrine",
        "mobile-lethality",
        "heresy-undone",
    ],
)
def test_the_devastator_doctrine(effect) -> None:
    out = shoot("eradicator squad", "boyz", "--advanced", "--effect", effect, *ED11)
    (w,) = out["weapons"]
    assert w["name"] == "Melta rifle"
    assert w["expected"]["attacks"] == approx(3)
    assert w["expected"]["hits"] == approx(2)
    assert w["expected"]["wounds"] == approx(Fr(4, 3))
    assert w["expected"]["failed_saves"] == approx(Fr(4, 3))


def test_eradicators_refused_without_the_doctrine() -> None:
    """No [ASSAULT] gun and no doctrine: refused; Storm of Fire without its doctrine option
    grants no shooting after the Advance either."""
    r = refused("shoot", "eradicator squad", "boyz", "--advanced", *ED11)
    assert "(Bolt pistol, Melta rifle)" in r.stdout + r.stderr
    r = refused("shoot", "eradicator squad", "boyz", "--advanced", "--effect", "storm-of-fire",
                *ED11)  # fmt: skip
    assert "cannot shoot after an Advance move" in r.stdout + r.stderr


# Other stratagems and an enhancement (edition 11), each unit's gun without [ASSAULT]: hits are
# attacks x the BS chance, no modifier: Predator autocannon A4 BS3+ (not at half range): 8/3;
# Lascannon A1 BS4+: 1/2; Gauss destructor A1 BS3+: 2/3; Dark lance A1 BS3+: 2/3;
# 3 Eliminators (PHOBOS), bolt sniper rifle A1 BS3+ [HEAVY]: 3 x 2/3; Vyper bright lance A1
# BS3+; 5 Havocs: 2 Havoc autocannons A2 BS3+, 2 Havoc lascannons A1 BS3+; Boomdakka
# Snazzwagon big shoota A3 BS5+; 5 Jump Pack Assault Intercessors, heavy bolt pistol A1 BS3+;
# 3 Tzaangor Enlightened, greatbow A2 BS4+; Dark Angels and Blood Angels Eradicators as above.
# (Lootas: only that the Deffgun shoots; its hits depend on the Orks' own rules.)
@pytest.mark.parametrize(
    ("unit", "effect", "weapon", "hits"),
    [
        ("predator destructor", "master-of-machine-war", "Predator autocannon", Fr(8, 3)),
        ("leman russ executioner", "blazing-advance", "Lascannon", Fr(1, 2)),
        ("leman russ executioner", "mobile-firebase", "Lascannon", Fr(1, 2)),
        ("lokhust heavy destroyers", "driven-to-butchery", "Gauss destructor", Fr(2, 3)),
        ("raider", "shorten-the-odds", "Dark lance", Fr(2, 3)),
        ("eliminator squad", "feint-and-thrust", "Bolt sniper rifle", 3 * Fr(2, 3)),
        ("vyper", "wind-of-blades", "Bright lance", Fr(2, 3)),
        ("havocs", "at-the-tyrant-s-command", "Havoc autocannon", 4 * Fr(2, 3)),
        ("havocs", "torpefying-refrain", "Havoc lascannon", 2 * Fr(2, 3)),
        ("havocs", "forge-fire-surge", "Havoc autocannon", 4 * Fr(2, 3)),
        ("boomdakka snazzwagon", "adrenaline-junkies", "Big shoota", 3 * Fr(1, 3)),
        ("lootas", "on-da-move", "Deffgun", None),
        (
            "assault intercessors with jump packs",
            "death-from-the-skies",
            "Heavy bolt pistol",
            5 * Fr(2, 3),
        ),
        (
            "tzaangor enlightened with fatecaster greatbows",
            "touched-by-tzeentch",
            "Fatecaster greatbow",
            6 * Fr(1, 2),
        ),
        ("Dark Angels/Eradicator Squad", "tactical-mastery", "Melta rifle", 2),
        ("Blood Angels/Eradicator Squad", "red-wrath", "Melta rifle", 2),
        ("Blood Angels/Eradicator Squad", "aggressive-onslaught", "Melta rifle", 2),
    ],
)
def test_other_rules(unit, effect, weapon, hits) -> None:
    """Without the effect the weapon does not shoot after the Advance (the unit is refused, or
    shoots only its [ASSAULT] weapons); with it, it does, at no Hit-roll modifier."""
    r = invoke(["shoot", unit, "--target", "boyz", "--json", "--advanced", *ED11])
    if r.exit_code == 0:
        import json

        assert weapon not in {w["name"] for w in json.loads(r.stdout)["weapons"]}
    else:
        assert "cannot shoot after an Advance move" in r.stdout + r.stderr
    out = shoot(unit, "boyz", "--advanced", "--effect", effect, *ED11)
    got = {w["name"]: w["expected"]["hits"] for w in out["weapons"]}
    assert weapon in got
    if hits is not None:
        assert got[weapon] == approx(hits)


def test_keyword_limits() -> None:
    """Feint and Thrust: only a PHOBOS or SCOUT SQUAD unit; At the Tyrant's Command: not a
    VEHICLE; Blazing Advance (used just after the unit Advances) needs --advanced."""
    r = refused("shoot", "eradicator squad", "boyz", "--advanced", "--effect",
                "feint-and-thrust", *ED11)  # fmt: skip
    assert "PHOBOS or SCOUT SQUAD" in r.stdout + r.stderr
    r = refused("shoot", "Chaos Space Marines/Chaos Predator Destructor", "boyz", "--advanced",
                "--effect", "at-the-tyrant-s-command", *ED11)  # fmt: skip
    assert "VEHICLE" in r.stdout + r.stderr
    r = refused("shoot", "leman russ executioner", "boyz", "--effect", "blazing-advance", *ED11)
    assert "add --advanced" in r.stdout + r.stderr


@pytest.mark.parametrize("edition", ["10", "11"])
def test_thrill_seekers(edition) -> None:
    """An Emperor's Children Chaos Rhino (combi-bolter A2 BS3+ S4 [RAPID FIRE 2], no
    [ASSAULT]) after an Advance with Thrill Seekers: 2 attacks (not at half range), 4/3 hits,
    S4 v T5 wounds on 5+: 4/9; the targeting restrictions are listed as not modelled."""
    rhino = "Emperor’s Children/Chaos Rhino"
    out = shoot(rhino, "boyz", "--advanced", "--effect", "thrill-seekers", "--edition", edition)
    (w,) = out["weapons"]
    assert w["name"] == "Combi-bolter"
    assert w["expected"]["hits"] == approx(Fr(4, 3))
    assert w["expected"]["wounds"] == approx(Fr(4, 9))
    assert any("Engagement Range" in n for n in out["not_modelled"])
    r = refused("shoot", rhino, "boyz", "--advanced", "--edition", edition)
    assert "(Combi-bolter)" in r.stdout + r.stderr


def test_effects_listing_only_hidden_lines() -> None:
    """``calc effects "fire ridrs"`` in edition 10 finds only a coverage line (not an attack
    rule), hidden without --status: refused, saying what was found and to add --status."""
    r = cli("effects", "fire ridrs", "--edition", "10")
    assert r.exit_code == 1
    assert "Fire Riders" in r.output and "not an attack rule" in r.output
    assert "--status" in r.output
    r = cli("effects", "fire ridrs", "--edition", "10", "--status")
    assert r.exit_code == 0 and "Fire Riders" in r.output

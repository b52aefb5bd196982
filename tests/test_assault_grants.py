"""Faction rules whose part in an attack is granting [ASSAULT] (edition 11, game-datacards data
912), against values worked out by hand.

Since ``--advanced`` (10.05 Assault Shooting: a unit that made an advance move shoots with its
[ASSAULT] weapons only) such a grant decides which weapons shoot, so these rules are effect
records (``effects/edition-11/*.yaml``). For each faction touched: a unit given the rule with
``--advanced`` shoots its now-[ASSAULT] guns (hits, wounds or failed saves by hand from the
datasheet numbers), the same unit without the rule is refused or shoots less, and a unit the
rule's scope excludes is refused with the reason.

Rules, in our words (the text of each is in the faction's data file):

* Skilled Crews (Aeldari, Armoured Warhost): AELDARI VEHICLE units' ranged attacks have
  [ASSAULT].
* Unflinching Determination (Adepta Sororitas, Sacred Champions, stratagem): a CELESTIAN
  SACRESANTS unit that Advanced or Fell Back has [ASSAULT] ranged attacks until the end of the
  turn.
* Masters of Manoeuvre (Dark Angels, Company of Hunters): ADEPTUS ASTARTES units' ranged
  attacks have [ASSAULT].
* Mailed Fist (Grey Knights, Sanctic Spearhead): a GREY KNIGHTS VEHICLE unit that Advances has
  [ASSAULT] ranged weapons until the end of the turn.
* Transcendent Celerity (Genestealer Cults, Xenocreed Congregation, stratagem): an ACOLYTE
  HYBRIDS, HYBRID METAMORPHS or NEOPHYTE HYBRIDS unit's ranged weapons have [ASSAULT] for the
  Shooting phase.
* Bold Gallantry (Imperial Knights, Valourstrike Lance): once an IMPERIAL KNIGHTS unit
  Advances, IMPERIAL KNIGHTS models' ranged weapons have [ASSAULT] until the end of the turn.
* Hypermotility Protocols (Necrons, Hand of the Dynasty): IMMORTALS and NECRON WARRIORS
  units' ranged attacks have [ASSAULT]. Protocol of the Sudden Storm (Awakened Dynasty,
  stratagem): a NECRONS unit's ranged weapons have [ASSAULT] until the end of the turn.
  Deepening Madness (Skyshroud Spearhead, Upgrade): a DESTROYER CULT MOUNTED unit's ranged
  attacks have [ASSAULT].
* Turbo Boostas (Orks, Speedwaaagh!): a SPEED FREEKS or TRUKK unit, not AIRCRAFT, that
  Advances using its turbo has [ASSAULT] ranged weapons until the end of the turn.
  Superfuelled Boiler (Dread Mob, stratagem): an ORKS WALKER unit selected to Advance has
  [ASSAULT] ranged weapons until the end of the turn.
* Astartes Tank Ace (Aura) (Space Marines, Headhunter Task Force): in your Shooting phase an
  ADEPTUS ASTARTES VEHICLE unit within 6" of the bearer (its own unit always is) has
  [ASSAULT] ranged weapons.
* Nomadic Hunter (T'au Empire, Kroot Hunting Pack): while the KROOT TRAIL SHAPER leads a
  unit, that unit's ranged weapons have [ASSAULT].

The target is an Intercessor Squad (5 models, T4 Sv3+ W2) unless said otherwise. No target is
within half range, so [RAPID FIRE] adds no attacks; nothing Remained Stationary, so [HEAVY]
adds nothing. Per attack: BS3+ hits 2/3, BS4+ 1/2, BS5+ 1/3; S4 v T4 wounds on 4+ (1/2), S3
on 5+ (1/3), S5 or S6 on 3+ (2/3), S14 on 2+ (5/6); Sv3+ fails 1/3 against AP0, 1/2 against
AP-1, 5/6 against AP-3 (6+).
"""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import approx, refused, shoot

ED11 = ("--edition", "11")
ADV = ("--advanced", *ED11)
TARGET = "Intercessor Squad"


def _weapons(out: dict) -> dict[str, dict]:
    return {w["name"]: w["expected"] for w in out["weapons"]}


def _refusal(attacker: str, *flags: str, command: str = "shoot") -> str:
    r = refused(command, attacker, TARGET, *flags)
    return r.stdout + r.stderr


# (faction file, effect, attacker, extra flags, weapon row read (None: the activation), figure,
#  hand-worked value, the weapons that shoot)
CASES = [
    # War Walkers: one model, two shuriken cannons (A3 BS3+ S6 AP-1 D2 [LETHAL HITS]): 6
    # attacks, 4 hits; wounds: a 6 to hit (1/6) wounds automatically, a 3-5 (1/2) wounds on
    # 3+: 6 x (1/6 + 1/2 x 2/3) = 3.
    ("aeldari", "skilled-crews", "War Walkers", (), "Shuriken cannon", "wounds",
     6 * (Fr(1, 6) + Fr(1, 2) * Fr(2, 3)), {"Shuriken cannon"}),
    # Celestian Sacresants: five bolt pistols (A1 BS3+ S4 AP0 D1 [PISTOL]): 5 x 2/3 x 1/2 x
    # 1/3 = 5/9 failed saves.
    ("adeptasororitas", "unflinching-determination", "Celestian Sacresants", (), "Bolt pistol",
     "failed_saves", 5 * Fr(2, 3) * Fr(1, 2) * Fr(1, 3), {"Bolt pistol"}),
    # Ravenwing Black Knights: three plasma talons (A2 BS3+, either profile): 6 x 2/3 = 4 hits.
    ("darkangels", "masters-of-manoeuvre", "Ravenwing Black Knights", (), None, "hits",
     Fr(4), None),
    # Land Raider: two Godhammer lascannons (A2 BS3+): 4 x 2/3 = 8/3 hits; twin heavy bolter
    # (A3 BS3+ [SUSTAINED HITS 1]): 3 x (2/3 + 1/6) = 5/2 hits.
    ("greyknights", "mailed-fist", "Grey Knights/Land Raider", (), None, "hits",
     Fr(8, 3) + Fr(5, 2), {"Godhammer lascannon", "Twin heavy bolter"}),
    # Neophyte Hybrids: ten hybrid firearms (A1 BS4+ S3 AP0): 10 x 1/2 x 1/3 = 5/3 wounds.
    ("gsc", "transcendent-celerity", "Neophyte Hybrids", (), "Hybrid firearm", "wounds",
     10 * Fr(1, 2) * Fr(1, 3), {"Hybrid firearm"}),
    # Knight Paladin: Questoris heavy stubber (A3 BS3+ [RAPID FIRE 3]): 3 x 2/3 = 2 hits; the
    # battle cannon and the meltagun shoot too.
    ("imperialknights", "bold-gallantry", "Knight Paladin", (), "Questoris heavy stubber",
     "hits", Fr(2), {"Questoris heavy stubber", "Rapid-fire battle cannon", "Meltagun"}),
    # Necron Warriors: ten gauss flayers (A1 BS4+ [LETHAL HITS]): 5 hits.
    ("necrons", "hypermotility-protocols", "Necron Warriors", (), "Gauss flayer", "hits",
     Fr(5), {"Gauss flayer"}),
    # Immortals: five gauss blasters (A2 BS3+): 10 x 2/3 = 20/3 hits.
    ("necrons", "protocol-of-the-sudden-storm", "Immortals", (), "Gauss blaster", "hits",
     Fr(20, 3), {"Gauss blaster"}),
    # Lokhust Destroyers: one gauss cannon (A3 BS3+ [LETHAL HITS]): 2 hits.
    ("necrons", "deepening-madness-upgrade", "Lokhust Destroyers", (), "Gauss cannon", "hits",
     Fr(2), {"Gauss cannon"}),
    # Trukk: one big shoota (A3 BS5+ [RAPID FIRE 2]): 1 hit.
    ("orks", "turbo-boostas", "Trukk", (), "Big shoota", "hits", Fr(1), {"Big shoota"}),
    # Deff Dread: two big shootas (A3 BS5+ S5 AP0): 6 x 1/3 x 2/3 x 1/3 = 4/9 failed saves.
    ("orks", "superfuelled-boiler", "Deff Dread", (), "Big shoota", "failed_saves",
     6 * Fr(1, 3) * Fr(2, 3) * Fr(1, 3), {"Big shoota"}),
    # Predator Annihilator: twin lascannon (A1 BS3+ S14 AP-3 [TWIN-LINKED]): 2/3 hits, wounds
    # on 2+ re-rolled: 1 - (1/6)^2 = 35/36; saves on 6+ fail 5/6: 2/3 x 35/36 x 5/6 = 175/324.
    ("space_marines", "astartes-tank-ace-aura", "Predator Annihilator", (),
     "Predator twin lascannon", "failed_saves", Fr(2, 3) * Fr(35, 36) * Fr(5, 6),
     {"Predator twin lascannon"}),
    # Kroot Carnivores (ten Kroot rifles, A1 BS4+) led by a Kroot Trail Shaper (one more):
    # 11 x 1/2 = 11/2 hits.
    ("tau", "nomadic-hunter", "Kroot Carnivores", ("--leader", "Kroot Trail Shaper"), None,
     "hits", Fr(11, 2), None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("faction", "effect", "attacker", "flags", "weapon", "figure", "expected", "shooting"),
    CASES,
    ids=[f"{c[0]}/{c[1]}" for c in CASES],
)
def test_granted_assault_shoots_after_an_advance(
    faction, effect, attacker, flags, weapon, figure, expected, shooting
) -> None:
    """With the rule the unit shoots after an Advance with the weapons it made [ASSAULT], at
    no penalty (the hand-worked figure); without it none of them has [ASSAULT], so it is
    refused."""
    out = shoot(attacker, TARGET, *flags, "--effect", effect, *ADV)
    assert effect in out["effects"]
    assert out["conditions"]["advanced"] is True
    rows = _weapons(out)
    if shooting is not None:
        assert set(rows) == shooting
    got = out["expected"][figure] if weapon is None else rows[weapon][figure]
    assert got == approx(expected)
    text = _refusal(attacker, *flags, *ADV)
    assert "cannot shoot after an Advance move" in text


# Units each rule's scope leaves out: refused with the reason.
OUT_OF_SCOPE = [
    ("skilled-crews", "Guardian Defenders", (), "needs an attacking unit with VEHICLE"),
    ("unflinching-determination", "Battle Sisters Squad", (),
     "needs an attacking unit with CELESTIAN SACRESANTS"),
    ("mailed-fist", "Strike Squad", (), "needs an attacking unit with VEHICLE"),
    ("transcendent-celerity", "Purestrain Genestealers", (),
     "needs an attacking unit with ACOLYTE HYBRIDS or HYBRID METAMORPHS or NEOPHYTE HYBRIDS"),
    ("hypermotility-protocols", "Lokhust Destroyers", (),
     "needs an attacking unit with IMMORTALS or NECRON WARRIORS"),
    ("deepening-madness-upgrade", "Necron Warriors", (),
     "needs an attacking unit with DESTROYER CULT and MOUNTED"),
    ("turbo-boostas", "Orks/Dakkajet", (), "cannot be used by a AIRCRAFT unit"),
    ("superfuelled-boiler", "Trukk", (), "needs an attacking unit with WALKER"),
    ("astartes-tank-ace-aura", "Intercessor Squad", (), "needs an attacking unit with VEHICLE"),
    ("nomadic-hunter", "Kroot Carnivores", (), "needs an attacking unit with TRAIL SHAPER"),
    ("nomadic-hunter", "Kroot Trail Shaper", (), "needs an attacking unit of 2 or more models"),
]  # fmt: skip


@pytest.mark.parametrize(("effect", "attacker", "flags", "why"), OUT_OF_SCOPE)
def test_scope_excludes(effect, attacker, flags, why) -> None:
    assert why in _refusal(attacker, *flags, "--effect", effect, *ADV)


@pytest.mark.parametrize("effect", ["mailed-fist", "bold-gallantry", "turbo-boostas",
                                    "superfuelled-boiler"])  # fmt: skip
def test_rules_for_a_unit_that_advanced_need_the_flag(effect) -> None:
    """The rules that act "each time the unit Advances" ask for ``--advanced``."""
    attacker = {"mailed-fist": "Grey Knights/Land Raider", "bold-gallantry": "Knight Paladin",
                "turbo-boostas": "Trukk", "superfuelled-boiler": "Deff Dread"}[effect]  # fmt: skip
    text = _refusal(attacker, "--effect", effect, *ED11)
    assert "made an Advance move this turn (add --advanced)" in text


def test_ranged_only_and_no_change_without_the_advance() -> None:
    """Masters of Manoeuvre is for ranged attacks in the Shooting phase: refused in a fight.
    Without --advanced the grant changes nothing: the War Walkers' two shuriken cannons make
    the same 4 hits (6 x 2/3) with Skilled Crews as without."""
    text = _refusal("Ravenwing Black Knights", "--effect", "masters-of-manoeuvre", *ED11,
                    command="fight")  # fmt: skip
    assert "applies in the shooting phase only" in text
    base = shoot("War Walkers", TARGET, *ED11)
    out = shoot("War Walkers", TARGET, "--effect", "skilled-crews", *ED11)
    assert out["expected"]["hits"] == approx(4) == base["expected"]["hits"]

"""Every faction's rules against hand-worked values (issue 18, "Tests": for every faction, at
least three of its modelled rules).

One row per rule: a real ``calc shoot``/``calc fight --effect ID --json`` selection with units of
that faction's data (game-datacards data 912 for edition 11; the shipped 10th-edition datasheets
for edition 10), the figure read (one weapon's expected hits, wounds, failed saves, mortal wounds
or damage, or the activation's total) and the value worked out by hand from the datasheets'
numbers, the arithmetic in the row's comment. Each row was checked against its rule's text in
the data when it was written (edition 11: ``/work/shared/data/game-datacards-11e-912/<file>.json``;
edition 10: the seed pages, and for the army rules ``Abilities.csv`` of the 10th-edition export
``/work/shared/data/wahapedia-10e-2025-07/``); the expected value follows the text, never the
program. Every edition's rows are in this one table (the guard below counts them per file).

Conventions of the arithmetic: ``d6(n)`` is the chance that one D6 roll needing ``n``+ passes
(an unmodified 1 always fails and an unmodified 6 always passes Hit and Wound rolls, so ``n`` is
clamped to 2..6); ``fail(n)`` the chance that a saving throw needing ``n``+ fails (no save from
7+). Hit rolls: BS/WS X+, a modifier moves the roll. Wound rolls (both editions): S >= 2T 2+,
S > T 3+, S = T 4+, S < T 5+, S <= T/2 6+. A weapon's row counts every model of the unit that
uses it (``count`` in the JSON); the attacks are A x models.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction as Fr
from math import comb

import pytest
from typer.testing import CliRunner

from wh40k_calc.cli import app

TOL = 1e-6  # the JSON carries the exact engine's figures to 12 places


def d6(n: int) -> Fr:
    """P(one D6 roll needing ``n``+ passes), an unmodified 1 failing and a 6 passing."""
    n = min(max(n, 2), 6)
    return Fr(7 - n, 6)


def fail(n: int) -> Fr:
    """P(a saving throw needing ``n``+ fails): an unmodified 1 always fails."""
    return Fr(1) if n >= 7 else Fr(max(n, 2) - 1, 6)


def binom(n: int, p: Fr, k: int) -> Fr:
    """P(exactly k of n independent rolls pass, each with chance p)."""
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def capped(n: int, p: Fr, cap: int) -> Fr:
    """E[min(successes of n rolls of chance p, cap)]: "roll n D6, 1 mortal wound per success,
    to a maximum of cap"."""
    return sum((min(k, cap) * binom(n, p, k) for k in range(n + 1)), Fr(0))


@dataclass(frozen=True)
class Case:
    """One rule's row: ``faction`` (the effect file's stem), ``effect`` (the ``--effect``
    text), ``command`` (shoot or fight), the ``attacker`` and ``target`` units, more command
    ``flags``, the ``weapon`` whose row is read (None: the activation's totals), the ``figure``
    and the hand-worked ``expected`` value; ``edition`` "11" or "10"; ``idle``: the rule
    changes nothing here (its record's conditions hold, no change's do), so it is not listed
    as applied and a "no effect" note says why."""

    faction: str
    effect: str
    command: str
    attacker: str
    target: str
    flags: tuple[str, ...]
    weapon: str | None
    figure: str
    expected: Fr | int
    edition: str = "11"
    idle: bool = False


def case(
    faction, effect, command, attacker, target, *flags, weapon, figure, expected, ed="11",
    idle=False,
):  # fmt: skip
    c = Case(faction, effect, command, attacker, target, flags, weapon, figure, expected, ed,
             idle)  # fmt: skip
    return pytest.param(c, id=f"{ed}/{faction}/{effect}")


def ids(effect: str) -> set[str]:
    """The ids an ``--effect`` text may be reported as (its prefix, faction and options
    aside)."""
    name = effect.split(":")[-1] if effect.startswith(("attacker:", "target:")) else effect
    name = name.split("/")[-1].split(":")[0]
    return {name}


CASES = [
    # ----------------------------------------------------------------------------------------
    # Orks (orks.json). Boyz: 9 Boys with a choppa (A3 WS3+ S4 AP-1 D1) and a Boss Nob with a
    # big choppa; Intercessor Squad: 5 models T4 Sv3+ W2; Boyz: T5 Sv5+.
    # Waaagh! (army rule, attacker half): +1 S and +1 A to melee weapons. Choppas: 9 x 4 = 36
    # attacks, 36 x 4/6 = 24 hits, S5 v T4 wounds on 3+: 24 x 4/6 = 16 (9 without).
    case("orks", "waaagh", "fight", "Orks/Boyz", "Intercessor Squad",
         weapon="Choppa", figure="wounds", expected=9 * 4 * d6(3) * d6(3)),
    # Get Stuck In (War Horde detachment rule): melee [SUSTAINED HITS 1]: 27 attacks, each
    # 4/6 a hit plus 1/6 (a 6) one more: 27 x 5/6 = 22.5 hits (18 without).
    case("orks", "get-stuck-in", "fight", "Orks/Boyz", "Intercessor Squad",
         weapon="Choppa", figure="hits", expected=27 * (d6(3) + Fr(1, 6))),
    # 'Ard as Nails (War Horde stratagem, target side): -1 to the Wound roll against the Boyz.
    # 5 bolt rifles (A2 BS3+ S4): 10 x 4/6 hits; S4 v T5 needs 5+, with -1 only a 6:
    # 20/3 x 1/6 = 10/9 wounds (20/9 without).
    case("orks", "ard-as-nails", "shoot", "Intercessor Squad", "Orks/Boyz",
         weapon="Bolt rifle", figure="wounds", expected=10 * d6(3) * d6(6)),
    # Competitive Streak (Green Tide stratagem): re-roll Wound rolls of 1, any Wound roll while
    # the unit has 10 or more models (it has 10): 18 choppa hits, S4 v T4 4+ with a re-roll
    # of failures: 18 x (1 - 1/2 x 1/2) = 13.5 wounds.
    case("orks", "competitive-streak", "fight", "Orks/Boyz", "Intercessor Squad",
         weapon="Choppa", figure="wounds", expected=18 * (1 - (1 - d6(4)) ** 2)),
    # Krushin' Impact (Bully Boyz stratagem): after a charge, one D6 per model, each 5+ one
    # mortal wound, to a maximum of 6. 10 Nobz: E[min(Binomial(10, 1/3), 6)] = 3.3099.
    case("orks", "krushin-impact", "fight", "Orks/Nobz", "Intercessor Squad",
         "--charged", "--models", "10",
         weapon="Krushin' Impact", figure="mortal_wounds", expected=capped(10, d6(5), 6)),
    # ----------------------------------------------------------------------------------------
    # Adeptus Astartes (space_marines.json). Intercessor Squad: 5 bolt rifles A2 BS3+ S4 AP-1
    # D1; Predator Destructor: one model, Predator autocannon A4 BS3+ S9 AP-1 D3.
    # Oath of Moment (army rule) with the Codex-army option: re-roll the Hit roll, +1 to the
    # Wound roll. 10 attacks x (1 - (2/6)^2) = 80/9 hits; S4 v T5 5+, +1: 4+: 40/9 wounds.
    case("space_marines", "oath-of-moment:codex-army", "shoot", "Intercessor Squad", "Orks/Boyz",
         weapon="Bolt rifle", figure="wounds", expected=10 * (1 - (1 - d6(3)) ** 2) * d6(4)),
    # Tactical Foresight (Blade of Ultramar stratagem, target side): -1 to the Wound roll of
    # attacks whose S is at least the unit's T. Choppa S4 v T4: 4+ becomes 5+: 18 x 2/6 = 6.
    case("space_marines", "tactical-foresight", "fight", "Orks/Boyz", "Intercessor Squad",
         weapon="Choppa", figure="wounds", expected=27 * d6(3) * d6(5)),
    # Firestorm Coordinators (Headhunter Task Force enhancement, VEHICLE model only): the
    # bearer's ranged weapons have [SUSTAINED HITS 1]; a Predator is its own bearer.
    # 4 x (4/6 + 1/6) = 10/3 hits (8/3 without).
    case("space_marines", "firestorm-coordinators", "shoot", "Predator Destructor", "Orks/Boyz",
         weapon="Predator autocannon", figure="hits", expected=4 * (d6(3) + Fr(1, 6))),
    # Kill Shot (Headhunter Task Force stratagem): against a MONSTER or VEHICLE, re-roll Wound
    # rolls of 1, any Wound roll below its Starting Strength (a Battlewagon with 10 of its 16
    # wounds left). 8/3 hits; S9 v T10 5+, re-rolled: 1 - (4/6)^2 = 5/9: 40/27 wounds.
    case("space_marines", "kill-shot", "shoot", "Predator Destructor", "Orks/Battlewagon",
         "--target-wounds-left", "10",
         weapon="Predator autocannon", figure="wounds",
         expected=4 * d6(3) * (1 - (1 - d6(5)) ** 2)),
    # Shadow Masters (Vanguard Spearhead detachment rule, target side): the Benefit of Cover
    # against ranged attacks from more than 12" (edition 11, 13.08: BS worsened by 1): bolt
    # rifles hit on 4+: 10 x 3/6 = 5 hits (20/3 without).
    case("space_marines", "shadow-masters", "shoot", "Intercessor Squad", "Intercessor Squad",
         "--beyond-12", weapon="Bolt rifle", figure="hits", expected=10 * d6(4)),
    # Shroud Field (Subversion Assets enhancement, target side): the bearer has Stealth,
    # which gives a unit the Benefit of Cover only when all its models have it: a lone
    # Lieutenant in Phobos Armour is in cover (BS 3+ worsened to 4+): 5 hits; led Infiltrators
    # are not (the second row: 20/3 hits).
    case("space_marines", "shroud-field", "shoot", "Intercessor Squad",
         "Lieutenant in Phobos Armour", weapon="Bolt rifle", figure="hits", expected=10 * d6(4)),
    case("space_marines", "shroud-field", "shoot", "Intercessor Squad", "Infiltrator Squad",
         "--target-leader", "Lieutenant in Phobos Armour", weapon="Bolt rifle", figure="hits",
         expected=10 * d6(3)),
    # ----------------------------------------------------------------------------------------
    # Heretic Astartes (chaos_spacemarines.json). Legionaries: 5 models, boltgun A2 BS3+ S4 AP0
    # D1, close combat weapon A3 WS3+ S4 AP0 D1; Chaos Lord: daemon hammer A5 WS3+ S8 AP-2 D2.
    # Dark Pacts (army rule): [LETHAL HITS] or [SUSTAINED HITS 1], the calculator's pick.
    # Against a Battlewagon (T10: S4 wounds on 6+) lethal hits is worth more: 15 attacks x
    # (1/6 a Critical Hit, wounding + 3/6 other hits x 1/6) = 15/4 wounds (sustained: 15 x 5/6
    # x 1/6 = 25/12). Its chance of destroying the W16 Battlewagon is nil, sustained hits' is
    # 6e-19: the pick must not turn on that. The Legionaries' own Veterans of the Long War
    # re-rolls a Wound roll of 1 in melee: 6+ becomes 1/6 + 1/6 x 1/6 = 7/36: 95/24 wounds.
    case("chaos_spacemarines", "dark-pacts", "fight", "Legionaries", "Orks/Battlewagon",
         weapon="Close combat weapon", figure="wounds",
         expected=15 * (Fr(1, 6) + (d6(3) - Fr(1, 6)) * (d6(6) + Fr(1, 6) * d6(6)))),
    # Iron Fortitude (Fellhammer Siege-host detachment rule, target side): -1 to the Wound
    # roll of ranged attacks whose S is greater than the unit's T. Autocannon S9 v T4: 2+
    # becomes 3+: 8/3 hits x 4/6 = 16/9 wounds.
    case("chaos_spacemarines", "iron-fortitude", "shoot", "Predator Destructor", "Legionaries",
         weapon="Predator autocannon", figure="wounds", expected=4 * d6(3) * d6(3)),
    # Pick Them Off (Deceptors stratagem): re-roll the Hit roll against a unit below its
    # Starting Strength, and the Wound roll against one Below Half-strength (Intercessors
    # with 2 of 5 models): 10 boltgun attacks x 8/9 hits x (1 - (1/2)^2) = 20/3 wounds.
    case("chaos_spacemarines", "pick-them-off", "shoot", "Legionaries", "Intercessor Squad",
         "--target-models", "2", weapon="Boltgun", figure="wounds",
         expected=10 * (1 - (1 - d6(3)) ** 2) * (1 - (1 - d6(4)) ** 2)),
    # Prime Test Subject (Creations of Bile enhancement): the bearer's melee weapons +1 D and
    # re-roll the Hit roll: 5 x (1 - (2/6)^2) = 40/9 hits.
    case("chaos_spacemarines", "prime-test-subject", "fight", "Chaos Lord", "Intercessor Squad",
         weapon="Daemon hammer", figure="hits", expected=5 * (1 - (1 - d6(3)) ** 2)),
    # ----------------------------------------------------------------------------------------
    # Aeldari (aeldari.json). Guardian Defenders: T3 Sv4+; Dire Avengers: 5 Avenger shuriken
    # catapults A4 BS3+ S4 AP-1; Troupe Master: blade A5 WS2+ S5 AP-2 D2 [DEVASTATING WOUNDS];
    # Rangers: 5 long rifles A1 BS3+ S4 AP-1 D2.
    # Lightning-fast Reactions (Warhost stratagem, target side): -1 to the Hit roll: bolt
    # rifles hit on 4+: 10 x 3/6 = 5 hits.
    case("aeldari", "lightning-fast-reactions", "shoot", "Intercessor Squad",
         "Guardian Defenders", weapon="Bolt rifle", figure="hits", expected=10 * d6(4)),
    # Path of the Warrior, the Wound-roll pick (Aspect Host detachment rule): re-roll Wound
    # rolls of 1. 20 x 4/6 = 40/3 hits; S4 v T4: 1/2 + 1/6 x 1/2 = 7/12: 70/9 wounds.
    case("aeldari", "path-of-the-warrior-wound-rolls", "shoot", "Dire Avengers",
         "Intercessor Squad", weapon="Avenger shuriken catapult", figure="wounds",
         expected=20 * d6(3) * (d6(4) + Fr(1, 6) * d6(4))),
    # Weavers' Wail (Serpent's Brood enhancement): +3 S and +1 A to the bearer's melee
    # weapons. 6 attacks x 5/6 = 5 hits; S8 v T4 2+, the 6s are Critical Wounds (mortal
    # wounds), the other 4/6 go to saves: AP-2 v Sv3+ fails on 1-4: 5 x 4/6 x 4/6 = 20/9. The
    # Troupe Master's own Cegorach's Favour re-rolls its Hit rolls of 1 (5/6 + 1/6 x 5/6) and
    # adds 1 to its Wound rolls (2+ stays 2+, a 6 still the Critical Wound): 70/27.
    case("aeldari", "weavers-wail", "fight", "Troupe Master", "Intercessor Squad",
         weapon="Troupe Master’s blade", figure="failed_saves",
         expected=(5 + 1) * (d6(2) + Fr(1, 6) * d6(2)) * (d6(2) - Fr(1, 6)) * fail(5)),
    # No Prey too Big (Eldritch Raiders stratagem): +1 to the Wound roll of attacks whose S is
    # below the target's T. Long rifles (heavy, not stationary): 5 x 4/6 hits; S4 v T5 5+,
    # +1: 4+: 10/3 x 1/2 = 5/3 wounds.
    case("aeldari", "no-prey-too-big", "shoot", "Aeldari/Rangers", "Orks/Boyz",
         weapon="Long rifle", figure="wounds", expected=5 * d6(3) * d6(4)),
    # ----------------------------------------------------------------------------------------
    # Astra Militarum (astramilitarum.json). Cadian Shock Troops: 9 lasguns A1 BS4+ S3 AP0
    # [RAPID FIRE 1] and a sergeant's laspistol; Leman Russ Battle Tank: T11 Sv2+ W13.
    # Take Aim! (an Order of the army rule Voice of Command): BS improved by 1: 9 x 4/6 = 6
    # hits (4.5 without).
    case("astramilitarum", "take-aim", "shoot", "Cadian Shock Troops", "Orks/Boyz",
         weapon="Lasgun", figure="hits", expected=9 * d6(3)),
    # Born Soldiers (Combined Arms detachment rule): a REGIMENT's ranged attacks have [LETHAL
    # HITS] against a target that is not a MONSTER or VEHICLE. S3 v T5 5+: 9 x (1/6 + 2/6 x
    # 2/6) = 5/2 wounds (3/2 without).
    case("astramilitarum", "born-soldiers", "shoot", "Cadian Shock Troops", "Orks/Boyz",
         weapon="Lasgun", figure="wounds",
         expected=9 * (Fr(1, 6) + (d6(4) - Fr(1, 6)) * d6(5))),
    # Ablative Plating (Hammer of the Emperor stratagem, target side): -1 Damage. Autocannon
    # 8/3 hits, S9 v T11 5+: 8/9 wounds, AP-1 v Sv2+ saves on 3+: 8/27 failed, D3-1 = 2 each:
    # 16/27 damage.
    case("astramilitarum", "ablative-plating", "shoot", "Predator Destructor",
         "Leman Russ Battle Tank", weapon="Predator autocannon", figure="damage",
         expected=4 * d6(3) * d6(5) * fail(3) * (3 - 1)),
    # Furious Fusillade (Siege Regiment stratagem): +1 A to a PLATOON's ranged weapons against
    # a target within half range; [RAPID FIRE 1] adds 1 more there: 9 x 3 = 27 attacks, x 3/6
    # = 13.5 hits.
    case("astramilitarum", "furious-fusillade", "shoot", "Cadian Shock Troops", "Orks/Boyz",
         "--half-range", weapon="Lasgun", figure="hits", expected=9 * (1 + 1 + 1) * d6(4)),
    # ----------------------------------------------------------------------------------------
    # Necrons (necrons.json). Necron Warriors: 10 gauss flayers A1 BS4+ S4 [LETHAL HITS];
    # Overlord: blade A4 WS2+ S8 AP-3 D2 [DEVASTATING WOUNDS]; Skorpekh Destroyers: 3 models,
    # hyperphase weapons A4 WS3+ S7 AP-2 D2; Doomsday Ark: T9 Sv3+ invulnerable 4+.
    # Command Protocols (Awakened Dynasty detachment rule): +1 to the Hit roll while a
    # CHARACTER leads the unit (the Overlord attached): gauss flayers hit on 3+: 20/3 hits.
    case("necrons", "command-protocols", "shoot", "Necron Warriors", "Orks/Boyz",
         "--leader", "Overlord", weapon="Gauss flayer", figure="hits", expected=10 * d6(3)),
    # Nanoassembly Protocols (Obeisance Phalanx stratagem, target side): -1 Damage. 8/3
    # hits, S9 v T9 4+: 4/3 wounds; AP-1: Sv 4+, the invulnerable save 4+ too: 2/3 failed;
    # D3-1 = 2: 4/3 damage.
    case("necrons", "nanoassembly-protocols", "shoot", "Predator Destructor", "Doomsday Ark",
         weapon="Predator autocannon", figure="damage",
         expected=4 * d6(3) * d6(4) * fail(4) * (3 - 1)),
    # The Spoor of Frailty (Annihilation Legion stratagem): +1 to the Hit roll against a
    # target below its Starting Strength, +1 to the Wound roll too if Below Half-strength
    # (Intercessors, 2 of 5 left): 12 x 5/6 = 10 hits; S7 v T4 3+, +1: 2+: 25/3 wounds. The
    # Skorpekhs' own Whirling Onslaught re-rolls Hit rolls of 1 in melee: 12 x (5/6 + 1/6 x
    # 5/6) x 5/6 = 175/18 wounds.
    case("necrons", "the-spoor-of-frailty", "fight", "Skorpekh Destroyers", "Intercessor Squad",
         "--target-models", "2", weapon="Skorpekh hyperphase weapons", figure="wounds",
         expected=12 * (d6(2) + Fr(1, 6) * d6(2)) * d6(2)),
    # Unflinching Will (Obeisance Phalanx enhancement): the Overlord's melee weapons have
    # [PRECISION] and [ANTI-INFANTRY 5+]: Critical Wounds on 5+, mortal wounds by [DEVASTATING
    # WOUNDS]: 4 x 5/6 hits x 2/6 x D2 = 20/9 mortal wounds (10/9 without).
    case("necrons", "unflinching-will", "fight", "Overlord", "Intercessor Squad",
         weapon="Overlord’s blade", figure="mortal_wounds",
         expected=4 * d6(2) * Fr(2, 6) * 2),
    # ----------------------------------------------------------------------------------------
    # Adepta Sororitas (adeptasororitas.json). Battle Sisters Squad: 10 models, boltgun A1
    # BS3+ S4 AP0 [RAPID FIRE 1], T3 Sv3+; Canoness: T3 Sv3+ W4, invulnerable 4+.
    # The Blood of Martyrs (Hallowed Martyrs detachment rule): +1 to the Hit roll below the
    # unit's Starting Strength, +1 to the Wound roll too Below Half-strength (4 of 10 left):
    # 4 boltguns x 5/6 = 10/3 hits; S4 v T5 5+, +1: 4+: 5/3 wounds.
    case("adeptasororitas", "the-blood-of-martyrs", "shoot", "Battle Sisters Squad",
         "Orks/Boyz", "--models", "4", weapon="Boltgun", figure="wounds",
         expected=4 * d6(2) * d6(4)),
    # Shield of Aversion (Bringers of Flame stratagem, target side): AP worsened by 1. Choppas
    # AP-1 become AP0: 27 x 4/6 = 18 hits, S4 v T3 3+: 12 wounds, Sv3+ fails 2/6: 4.
    case("adeptasororitas", "shield-of-aversion", "fight", "Orks/Boyz", "Battle Sisters Squad",
         weapon="Choppa", figure="failed_saves", expected=27 * d6(3) * d6(3) * fail(3)),
    # Mantle of Ophelia (Hallowed Martyrs enhancement): attacks allocated to the bearer have
    # Damage 1. Autocannon: 8/3 hits, S9 v T3 2+: 20/9 wounds, AP-1: 4+ and the 4+
    # invulnerable save: 10/9 failed, 1 damage each (D3 without: 10/3).
    case("adeptasororitas", "mantle-of-ophelia", "shoot", "Predator Destructor", "Canoness",
         weapon="Predator autocannon", figure="damage", expected=4 * d6(3) * d6(2) * fail(4) * 1),
    # ----------------------------------------------------------------------------------------
    # Adeptus Custodes (adeptuscustodes.json). Custodian Guard: 4 models, guardian spear
    # (melee) A5 WS2+ S7 AP-2 D2; Shield-Captain: guardian spear A7 WS2+ S7 AP-2 D2; Aquilon
    # Custodians: T7 Sv2+ invulnerable 4+.
    # Rendax Stance (a stance of the army rule Martial Ka'tah): melee [LETHAL HITS]. S7 v T4
    # 3+: 20 x (1/6 + 4/6 x 4/6) = 110/9 wounds; the Guard's own Stand Vigil re-rolls Wound
    # rolls of 1 (4/6 + 1/6 x 4/6 = 7/9): 20 x (1/6 + 4/6 x 7/9) = 370/27.
    case("adeptuscustodes", "rendax-stance", "fight", "Custodian Guard", "Intercessor Squad",
         weapon="Guardian spear – Melee", figure="wounds",
         expected=20 * (Fr(1, 6) + (d6(2) - Fr(1, 6)) * (d6(3) + Fr(1, 6) * d6(3)))),
    # Avenge the Fallen (Shield Host stratagem): +1 A below the unit's Starting Strength
    # (3 of 4), +2 A Below Half-strength: 3 x (5 + 1) = 18 attacks x 5/6 = 15 hits.
    case("adeptuscustodes", "avenge-the-fallen", "fight", "Custodian Guard", "Intercessor Squad",
         "--models", "3", weapon="Guardian spear – Melee", figure="hits",
         expected=3 * (5 + 1) * d6(2)),
    # Hardened Resolve (Tharanatoi Hammerblow stratagem, target side): +1 T. Bolt rifles S4 v
    # T8 need 6+ (5+ against T7): 20/3 hits x 1/6 = 10/9 wounds.
    case("adeptuscustodes", "hardened-resolve", "shoot", "Intercessor Squad", "Aquilon Custodians",
         weapon="Bolt rifle", figure="wounds", expected=10 * d6(3) * d6(6)),
    # Admonimortis (Lions of the Emperor enhancement): +3 S, AP and D improved by 1 for the
    # Shield-Captain's melee weapons. 7 x 5/6 hits; S10 v T4 2+; AP-3 v Sv3+ saves only on 6:
    # 35/6 x 5/6 x 5/6 failed x D3 = 875/72 damage.
    case("adeptuscustodes", "admonimortis", "fight", "Shield-Captain", "Intercessor Squad",
         weapon="Guardian spear – Melee", figure="damage",
         expected=7 * d6(2) * d6(2) * fail(6) * (2 + 1)),
    # ----------------------------------------------------------------------------------------
    # Adeptus Mechanicus (adeptusmechanicus.json). Skitarii Rangers (BATTLELINE): 10 galvanic
    # rifles A2 BS4+ S4 AP0; Kastelan Robots: twin Kastelan fist A4 WS4+ S12 AP-2 D3
    # [TWIN-LINKED]; Tech-Priest Dominus: T4 Sv2+ invulnerable 5+.
    # Conqueror Imperative (an option of the army rule Doctrina Imperatives): a BATTLELINE
    # unit's attacks improve their AP by 1. 20 x 3/6 = 10 hits, S4 v T5 5+: 10/3 wounds;
    # AP-1 v Sv5+ fails 5/6: 25/9 (20/9 without).
    case("adeptusmechanicus", "conqueror-imperative", "shoot", "Skitarii Rangers", "Orks/Boyz",
         weapon="Galvanic rifle", figure="failed_saves",
         expected=20 * d6(4) * d6(5) * fail(6)),
    # Machine Spirit Resurgent (Cohort Cybernetica stratagem): re-roll the Hit roll while
    # below Starting Strength (1 of 2 Kastelans), the Wound roll too Below Half-strength (not
    # here): 4 x (1 - (3/6)^2) = 3 hits.
    case("adeptusmechanicus", "machine-spirit-resurgent", "fight", "Kastelan Robots",
         "Intercessor Squad", "--models", "1", weapon="Twin Kastelan fist", figure="hits",
         expected=4 * (1 - (1 - d6(4)) ** 2)),
    # Mantle of the Gnosticarch (Data-psalm Conclave enhancement): attacks allocated to the
    # bearer have Damage 1. 8/3 hits, S9 v T4 2+: 20/9 wounds, AP-1 improved by 1 against an
    # INFANTRY unit (the Predator's own Destructor ability) v Sv2+ saves on 4+: 10/9 failed,
    # 1 damage each (D3 without).
    case("adeptusmechanicus", "mantle-of-the-gnosticarch", "shoot", "Predator Destructor",
         "Tech-Priest Dominus", weapon="Predator autocannon", figure="damage",
         expected=4 * d6(3) * d6(2) * fail(4) * 1),
    # ----------------------------------------------------------------------------------------
    # Imperial Agents (agents.json). Inquisitorial Agents: 6 models, agent melee weapon A3
    # WS3+ S3 AP0; Inquisitor: melee weapon A5 WS3+ S4 AP-2, T3 Sv4+ W4; Bloodletters: DAEMON,
    # T4; Legionaries: CHAOS, 5 models.
    # Root out Heresy (Ordo Hereticus detachment rule): [SUSTAINED HITS 1] against a CHAOS
    # unit of 5 or more models: 18 x (4/6 + 1/6) = 15 hits (12 without).
    case("agents", "root-out-heresy", "fight", "Inquisitorial Agents", "Legionaries",
         weapon="Agent melee weapon", figure="hits", expected=18 * (d6(3) + Fr(1, 6))),
    # Destroy the Daemonic (Ordo Malleus detachment rule): re-roll Hit rolls of 1, and Wound
    # rolls of 1 against a DAEMON unit: 5 x (4/6 + 1/6 x 4/6) = 35/9 hits; S4 v T4: 1/2 +
    # 1/6 x 1/2 = 7/12: 245/108 wounds.
    case("agents", "destroy-the-daemonic", "fight", "Imperial Agents/Inquisitor", "Bloodletters",
         weapon="Inquisitorial melee weapon", figure="wounds",
         expected=5 * (d6(3) + Fr(1, 6) * d6(3)) * (d6(4) + Fr(1, 6) * d6(4))),
    # Hyperstimms (Veiled Blade stratagem, target side): +1 T for the CHARACTER unit. Bolt
    # rifles S4 v T4 (the Inquisitor's T3 + 1) 4+: 20/3 x 1/2 = 10/3 wounds (40/9 against T3).
    case("agents", "hyperstimms", "shoot", "Intercessor Squad", "Imperial Agents/Inquisitor",
         weapon="Bolt rifle", figure="wounds", expected=10 * d6(3) * d6(4)),
    # ----------------------------------------------------------------------------------------
    # Black Templars (blacktemplar.json). Crusader Squad: 5 Initiates with close combat
    # weapons A3 WS3+ S4 AP0 (and Neophytes, a Sword Brother); Land Raider Crusader: T12 Sv2+.
    # Accept any Challenge, no Matter the Odds (a Templar Vow, the army rule): +1 to the Wound
    # roll of melee attacks whose S is not above the target's T. 15 x 4/6 = 10 hits; S4 v T4
    # 4+, +1: 3+: 20/3 wounds (5 without).
    case("blacktemplar", "accept-any-challenge-no-matter-the-odds", "fight", "Crusader Squad",
         "Intercessor Squad", weapon="Close combat weapon", figure="wounds",
         expected=15 * d6(3) * d6(3)),
    # Shock and Awe (Godhammer Assault Force detachment rule): +1 to the Hit roll of melee
    # attacks in a turn the unit disembarked: 15 x 5/6 = 12.5 hits.
    case("blacktemplar", "shock-and-awe", "fight", "Crusader Squad", "Intercessor Squad",
         "--disembarked", weapon="Close combat weapon", figure="hits", expected=15 * d6(2)),
    # Blessed Hull (Godhammer Assault Force stratagem, target side): -1 Damage. Autocannon:
    # 8/3 hits, S9 v T12 5+: 8/9, AP-1 v Sv2+ 3+: 8/27 failed, D3-1 = 2: 16/27 damage.
    case("blacktemplar", "blessed-hull", "shoot", "Predator Destructor",
         "Black Templars/Land Raider Crusader", weapon="Predator autocannon", figure="damage",
         expected=4 * d6(3) * d6(5) * fail(3) * (3 - 1)),
    # ----------------------------------------------------------------------------------------
    # Blood Angels (bloodangels.json). Death Company Marines: 5 or 10 models, Astartes
    # chainsword A4 WS3+ S4 AP-1 D1, T4 Sv3+ W2, Feel No Pain 6+.
    # Red Thirst (Liberator Assault Group detachment rule): after a Charge move, +1 A and +2 S
    # to melee weapons: 25 attacks x 4/6; S6 v T4 3+: 100/9 wounds; the Marines' own Black
    # Rage lets them re-roll the Hit roll in melee (4/6 + 2/6 x 4/6 = 8/9): 400/27 wounds.
    case("bloodangels", "red-thirst", "fight", "Death Company Marines", "Intercessor Squad",
         "--charged", weapon="Astartes chainsword", figure="wounds",
         expected=5 * (4 + 1) * (d6(3) + (1 - d6(3)) * d6(3)) * d6(3)),
    # A Noble Death in Combat (The Lost Brethren detachment rule): DEATH COMPANY melee attacks
    # re-roll Wound rolls of 1 below Starting Strength, any Wound roll Below Half-strength
    # (2 models: below half of 5). 8 x 4/6 hits x (1 - (1/2)^2) = 4 wounds; with Black Rage's
    # melee Hit re-roll (8/9 hits): 16/3 wounds.
    case("bloodangels", "a-noble-death-in-combat", "fight", "Death Company Marines",
         "Intercessor Squad", "--models", "2", weapon="Astartes chainsword", figure="wounds",
         expected=2 * 4 * (d6(3) + (1 - d6(3)) * d6(3)) * (1 - (1 - d6(4)) ** 2)),
    # Insensate Rampage (Rage-cursed Onslaught stratagem, target side): Feel No Pain 5+ (the
    # better of it and the datasheet's 6+). 8/3 hits, S9 v T4 2+: 20/9 wounds, AP-1, improved
    # by 1 against INFANTRY (the Predator's own Destructor), v Sv3+ 5+: 40/27 failed x D3 =
    # 40/9, of which 4/6 gets through: 80/27 damage.
    case("bloodangels", "insensate-rampage", "shoot", "Predator Destructor",
         "Death Company Marines", weapon="Predator autocannon", figure="damage",
         expected=4 * d6(3) * d6(2) * fail(5) * 3 * (1 - d6(5))),
    # ----------------------------------------------------------------------------------------
    # Legiones Daemonica (chaosdaemons.json). Daemonettes (SLAANESH), Bloodletters (KHORNE)
    # and Plaguebearers (NURGLE): Sv7+, invulnerable 5+; Bloodletters have no ranged weapon;
    # Plaguebearers: 10 plagueswords A2 WS3+ S4 AP-1 [LETHAL HITS].
    # Overwhelming Excess (Legion of Excess stratagem, target side): -1 to the Hit roll:
    # bolt rifles hit on 4+: 10 x 3/6 = 5 hits.
    case("chaosdaemons", "overwhelming-excess", "shoot", "Intercessor Squad", "Daemonettes",
         weapon="Bolt rifle", figure="hits", expected=10 * d6(4)),
    # Skulls Beget Blood (Blood Legion stratagem): in the Shooting phase a KHORNE INFANTRY
    # unit rolls six D6, 1 mortal wound per 4+: 6 x 1/2 = 3 (the unit has no gun: the roll is
    # all it does).
    case("chaosdaemons", "skulls-beget-blood", "shoot", "Bloodletters", "Intercessor Squad",
         weapon="Skulls Beget Blood", figure="mortal_wounds", expected=6 * d6(4)),
    # Sheathed In Brass (Blood Legion stratagem, target side): Save characteristic 3+. Bolt
    # rifles: 20/3 hits, S4 v T4 10/3 wounds, AP-1: 4+ (better than the 5+ invulnerable
    # save): 5/3 failed (20/9 with the invulnerable save alone).
    case("chaosdaemons", "sheathed-in-brass", "shoot", "Intercessor Squad", "Bloodletters",
         weapon="Bolt rifle", figure="failed_saves", expected=10 * d6(3) * d6(4) * fail(4)),
    # Seeping Virulence (Plague Legion stratagem): Critical Hits on an unmodified 5+ in the
    # Fight phase; with [LETHAL HITS] those wound automatically: 20 x (2/6 + 2/6 x 1/2) = 10
    # wounds (20 x (1/6 + 3/6 x 1/2) = 25/3 without).
    case("chaosdaemons", "seeping-virulence", "fight", "Plaguebearers", "Intercessor Squad",
         weapon="Plaguesword", figure="wounds",
         expected=20 * (Fr(2, 6) + (d6(3) - Fr(2, 6)) * d6(4))),
    # ----------------------------------------------------------------------------------------
    # Chaos Knights (chaosknights.json). War Dog Karnivore: Diabolus heavy stubber A3 BS3+ S5
    # AP0 D1 [RAPID FIRE 3]; T9 Sv3+ W14, invulnerable 5+ against ranged attacks.
    # Doom (a Dread ability of the army rule Harbingers of Dread): +1 to the Wound roll (the
    # Battle-shocked target asserted): 2 hits, S5 v T4 3+, +1: 2+: 5/3 wounds (4/3 without).
    case("chaosknights", "doom", "shoot", "War Dog Karnivore", "Intercessor Squad",
         weapon="Diabolus heavy stubber", figure="wounds", expected=3 * d6(3) * d6(2)),
    # Marked Prey (Houndpack Lance detachment rule): WAR DOG attacks against the chosen unit
    # have [SUSTAINED HITS 1]: 3 x (4/6 + 1/6) = 5/2 hits.
    case("chaosknights", "marked-prey", "shoot", "War Dog Karnivore", "Intercessor Squad",
         weapon="Diabolus heavy stubber", figure="hits", expected=3 * (d6(3) + Fr(1, 6))),
    # Unnatural Fortitude, the Feel No Pain pick (Infernal Lance detachment rule, target side):
    # Feel No Pain 6+. Autocannon: 8/3 hits, S9 v T9 4+: 4/3, AP-1 v Sv3+ 4+: 2/3 failed x D3
    # = 2, of which 5/6 gets through: 5/3 damage.
    case("chaosknights", "unnatural-fortitude-feel-no-pain", "shoot", "Predator Destructor",
         "War Dog Karnivore", weapon="Predator autocannon", figure="damage",
         expected=4 * d6(3) * d6(4) * fail(4) * 3 * (1 - d6(6))),
    # ----------------------------------------------------------------------------------------
    # Dark Angels (darkangels.json). Deathwing Knights: 4 maces of absolution A4 WS2+ S6 AP-2
    # D2 and a Knight Master; Deathwing Terminator Squad: T5 Sv2+ invulnerable 4+.
    # Vowed Target (Inner Circle Task Force detachment rule): DEATHWING INFANTRY +1 to the
    # Wound roll against a target within range of an objective marker: 16 x 5/6 hits; S6 v T4
    # 3+, +1: 2+: 100/9 wounds.
    case("darkangels", "vowed-target", "fight", "Deathwing Knights", "Intercessor Squad",
         "--objective", weapon="Mace of absolution", figure="wounds",
         expected=16 * d6(2) * d6(2)),
    # Dutiful Tenacity (Wrath of the Rock detachment rule, target side): -1 to the Wound roll
    # of attacks with S above T against INFANTRY: autocannon S9 v T5 3+ becomes 4+: 8/3 x 1/2
    # = 4/3 wounds.
    case("darkangels", "dutiful-tenacity", "shoot", "Predator Destructor",
         "Deathwing Terminator Squad", weapon="Predator autocannon", figure="wounds",
         expected=4 * d6(3) * d6(4)),
    # Wrath of the Lion (Inner Circle Task Force stratagem): after a charge, one D6 per model,
    # +1 against a target within range of an objective marker, 1 mortal wound per 4+, to a
    # maximum of 3: five D6 passing on 3+: E[min(Binomial(5, 2/3), 3)] = 74/27.
    case("darkangels", "wrath-of-the-lion", "fight", "Deathwing Knights", "Intercessor Squad",
         "--objective", "--charged", weapon="Wrath of the Lion", figure="mortal_wounds",
         expected=capped(5, d6(3), 3)),
    # ----------------------------------------------------------------------------------------
    # Death Guard (deathguard.json). Plague Marines: 5 boltguns A2 BS3+ S4 AP0 [LETHAL HITS],
    # T6 Sv3+ W2; Blightlord Terminators: 3 bubotic blades A3 WS3+ S5 AP-2 D2 [LETHAL HITS].
    # Skullsquirm Blight (a Plague of the army rule Nurgle's Gift, attacker half): the
    # Afflicted target has -1 T. Boltguns against T3: 10 x (1/6 lethal + 3/6 x 4/6) = 5
    # wounds (25/6 against T4).
    case("deathguard", "skullsquirm-blight", "shoot", "Plague Marines", "Intercessor Squad",
         weapon="Boltgun", figure="wounds",
         expected=10 * (Fr(1, 6) + (d6(3) - Fr(1, 6)) * d6(3))),
    # Disgustingly Resilient (Virulent Vectorium stratagem, target side): -1 Damage.
    # Autocannon: 8/3 hits, S9 v T6 3+: 16/9, AP-1 improved by 1 against INFANTRY (the
    # Predator's own Destructor) v Sv3+ 5+: 32/27 failed, D3-1 = 2: 64/27.
    case("deathguard", "disgustingly-resilient", "shoot", "Predator Destructor", "Plague Marines",
         weapon="Predator autocannon", figure="damage",
         expected=4 * d6(3) * d6(3) * fail(5) * (3 - 1)),
    # Grim Reapers (Death Lord's Chosen stratagem): TERMINATOR melee re-rolls the Hit roll
    # against a target that is not a MONSTER or VEHICLE: 9 x (1 - (2/6)^2) = 8 hits.
    case("deathguard", "grim-reapers", "fight", "Blightlord Terminators", "Intercessor Squad",
         weapon="Bubotic blade", figure="hits", expected=9 * (1 - (1 - d6(3)) ** 2)),
    # ----------------------------------------------------------------------------------------
    # Deathwatch (deathwatch.json). Deathwatch Veterans (KILL TEAM): 5 boltguns A2 BS3+ S4 AP0
    # D1; Watch Master: vigil spear (melee) A6 WS2+ S6 AP-2 D D3.
    # Furor Tactics (a Mission Tactic, the detachment rule): [SUSTAINED HITS 1]: 10 x (4/6 +
    # 1/6) = 25/3 hits; the Veterans' own Death to the Alien re-rolls the Hit roll against a
    # target that is neither IMPERIUM nor CHAOS (the Boyz): the 2/6 misses roll again: 10 x
    # 5/6 x (1 + 2/6) = 100/9 hits.
    case("deathwatch", "furor-tactics", "shoot", "Deathwatch Veterans", "Orks/Boyz",
         weapon="Boltgun", figure="hits",
         expected=10 * (d6(3) + Fr(1, 6)) * (1 + (1 - d6(3)))),
    # Kraken Rounds (Black Spear Task Force stratagem): a KILL TEAM's ranged AP improved by
    # 1: 20/3 hits, 10/3 wounds against T4, AP-1 v Sv3+ fails on 1-3: 5/3 (10/9 at AP0);
    # Death to the Alien re-rolls Hit rolls of 1 against IMPERIUM (4/6 + 1/6 x 4/6): 35/18.
    case("deathwatch", "kraken-rounds", "shoot", "Deathwatch Veterans", "Intercessor Squad",
         weapon="Boltgun", figure="failed_saves",
         expected=10 * (d6(3) + Fr(1, 6) * d6(3)) * d6(4) * fail(4)),
    # Thief of Secrets (Black Spear Task Force enhancement): the bearer's melee weapons +1 S,
    # +1 D, AP improved by 1: 5 hits; S7 v T4 3+: 10/3; AP-3 v Sv3+ saves on 6: 25/9 failed x
    # (D3, average 2, +1) = 25/3 damage (40/9 without).
    case("deathwatch", "thief-of-secrets", "fight", "Deathwatch/Watch Master",
         "Intercessor Squad", weapon="Vigil spear – Melee", figure="damage",
         expected=6 * d6(2) * d6(3) * fail(6) * (2 + 1)),
    # ----------------------------------------------------------------------------------------
    # Drukhari (drukhari.json). Wyches (WYCH CULT): 10 Hekatarii blades A4 WS3+ S3 AP-1, T3;
    # Kabalite Warriors (KABAL): 10 splinter rifles A2 BS3+ S2 [ANTI-INFANTRY 3+].
    # Adrenalight (a Combat Drug, Spectacle of Spite detachment rule): +1 A to WYCH CULT
    # melee weapons: 50 attacks x 4/6 hits; S3 v T4 5+: 100/9 wounds.
    case("drukhari", "adrenalight", "fight", "Wyches", "Intercessor Squad",
         weapon="Hekatarii blade", figure="wounds", expected=10 * (4 + 1) * d6(3) * d6(5)),
    # Painbringer (a Combat Drug, target side): +1 T to WYCH CULT models: bolt rifles S4 v T4
    # 4+: 20/3 x 1/2 = 10/3 wounds (40/9 against T3).
    case("drukhari", "painbringer", "shoot", "Intercessor Squad", "Wyches",
         weapon="Bolt rifle", figure="wounds", expected=10 * d6(3) * d6(4)),
    # Sow Fear and Terror (a Contract of Kabalite Cartel's Murderous Agenda): KABAL attacks
    # against an INFANTRY unit have [SUSTAINED HITS 1]: 20 x (4/6 + 1/6) = 50/3 hits.
    case("drukhari", "sow-fear-and-terror", "shoot", "Kabalite Warriors", "Intercessor Squad",
         weapon="Splinter rifle", figure="hits", expected=20 * (d6(3) + Fr(1, 6))),
    # ----------------------------------------------------------------------------------------
    # Emperor's Children (emperors_children.json). Infractors: 4 duelling sabres A4 WS3+ S4
    # AP-1, T4; Lord Exultant: Phoenix power spear A5 WS2+ S7 AP-2 D2.
    # Sensational Performance (Court of the Phoenician detachment rule): after a charge, +1 S
    # and AP improved by 1 in melee. Sabres: 16 x 4/6 hits, S5 v T4 3+, AP-2 v Sv3+ fails on
    # 1-4: 16 x 4/6 x 4/6 x 4/6 = 128/27 failed saves; the Infractors' own Excessive Assault
    # re-rolls Wound rolls of 1 in melee (4/6 + 1/6 x 4/6 = 7/9): 448/81.
    case("emperors_children", "sensational-performance", "fight", "Infractors",
         "Intercessor Squad", "--charged", weapon="Duelling sabre", figure="failed_saves",
         expected=16 * d6(3) * (d6(3) + Fr(1, 6) * d6(3)) * fail(5)),
    # Contemptuous Disregard (Court of the Phoenician stratagem, target side): -1 to the Wound
    # roll of attacks with S above T. The Boss Nob's big choppa S7 v T4 3+ becomes 4+: 2 hits
    # x 1/2 = 1 wound.
    case("emperors_children", "contemptuous-disregard", "fight", "Orks/Boyz", "Infractors",
         weapon="Big choppa", figure="wounds", expected=3 * d6(3) * d6(4)),
    # Euphoric Crown (Frenzied Host enhancement): +1 S to the Lord Exultant's melee weapons:
    # 5 x 5/6 hits; S8 v T4 2+: 125/36 wounds (25/9 at S7).
    case("emperors_children", "euphoric-crown", "fight", "Lord Exultant", "Intercessor Squad",
         weapon="Phoenix power spear", figure="wounds", expected=5 * d6(2) * d6(2)),
    # ----------------------------------------------------------------------------------------
    # Grey Knights (greyknights.json). Paladin Squad: 4 models, Nemesis force weapon A4 WS2+
    # S6 AP-2 D2 [PSYCHIC]; Strike Squad: T4 Sv2+.
    # Dauntless Champions (Argent Assault detachment rule): a Paladin Squad's melee attacks
    # whose S is below the target's T get +1 to the Wound roll. S6 v T10 (a Battlewagon) 5+,
    # +1: 4+: 16 x 5/6 hits x 1/2 = 20/3 wounds.
    case("greyknights", "dauntless-champions", "fight", "Paladin Squad", "Orks/Battlewagon",
         weapon="Nemesis force weapon", figure="wounds", expected=16 * d6(2) * d6(4)),
    # Giants of the Battlefield (Hallowed Conclave stratagem): +1 A to a TERMINATOR unit's
    # melee weapons: 4 x 5 = 20 attacks x 5/6 = 50/3 hits.
    case("greyknights", "giants-of-the-battlefield", "fight", "Paladin Squad",
         "Intercessor Squad", weapon="Nemesis force weapon", figure="hits",
         expected=4 * (4 + 1) * d6(2)),
    # Shining Resolve (Hallowed Conclave stratagem, target side): -1 to the Wound roll of
    # attacks with S above T: autocannon S9 v T4 2+ becomes 3+: 8/3 x 4/6 = 16/9 wounds.
    case("greyknights", "shining-resolve", "shoot", "Predator Destructor", "Strike Squad",
         weapon="Predator autocannon", figure="wounds", expected=4 * d6(3) * d6(3)),
    # ----------------------------------------------------------------------------------------
    # Genestealer Cults (gsc.json). Neophyte Hybrids: 10 models with close combat weapons A1
    # WS4+ S3; Primus (Leader): Cult bonesword A5 WS2+; Purestrain Genestealers: 5 models,
    # claws A4 WS2+ S4 AP-2; Atalan Jackals: T4 Sv5+, Stealth.
    # Frenzied Devotion (Xenocreed Congregation stratagem): +1 A and WS improved by 1 for the
    # melee weapons of the models that are not CHARACTERS: the Neophytes' 10 x 2 = 20 attacks
    # hit on 3+: 40/3 hits (the Primus's bonesword is unchanged).
    case("gsc", "frenzied-devotion", "fight", "Neophyte Hybrids", "Intercessor Squad",
         "--leader", "Primus", weapon="Close combat weapon", figure="hits",
         expected=10 * (1 + 1) * d6(3)),
    # Hypermorphic Fury (Biosanctic Broodsurge detachment rule): +1 A in melee after a charge:
    # 25 attacks x 5/6 hits; S4 v T4 4+: 125/12 wounds.
    case("gsc", "hypermorphic-fury", "fight", "Purestrain Genestealers", "Intercessor Squad",
         "--charged", weapon="Cult claws and talons", figure="wounds",
         expected=5 * (4 + 1) * d6(2) * d6(4)),
    # Deft Manoeuvring (Outlander Claw stratagem, target side): a 4+ invulnerable save. The
    # Jackals' Stealth gives cover (BS 3+ worsened to 4+): 2 hits, S9 v T4 2+: 5/3 wounds;
    # AP-1 v Sv5+ would save on 6, the invulnerable save on 4+: 5/6 failed.
    case("gsc", "deft-manoeuvring", "shoot", "Predator Destructor", "Atalan Jackals",
         weapon="Predator autocannon", figure="failed_saves",
         expected=4 * d6(4) * d6(2) * fail(4)),
    # ----------------------------------------------------------------------------------------
    # Imperial Knights (imperialknights.json). Armiger Warglaive: thermal spear A2 BS3+ S12
    # AP-4 D D6 [MELTA 4], T9 Sv3+ W14, invulnerable 5+ against ranged attacks; Knight Paladin
    # (TITANIC): Questoris heavy stubber A3 BS3+ S4 AP-1 D1 [RAPID FIRE 3].
    # Thin Their Ranks (Spearhead-at-Arms stratagem): ARMIGER ranged weapons gain [RAPID FIRE
    # 1]: the thermal spear within half range makes 2 + 1 = 3 attacks x 4/6 = 2 hits.
    case("imperialknights", "thin-their-ranks", "shoot", "Armiger Warglaive",
         "Intercessor Squad", "--half-range", weapon="Thermal spear", figure="hits",
         expected=(2 + 1) * d6(3)),
    # Knights of Legend (Freeblade Company detachment rule, target side): Feel No Pain 6+.
    # Autocannon: 8/3 hits, S9 v T9 4+: 4/3 wounds; the armour save
    # 3+ worsened to 4+ (better than the 5+ invulnerable save): 2/3 failed x D3 = 2, of which
    # 5/6 gets through: 5/3 damage.
    case("imperialknights", "knights-of-legend", "shoot", "Predator Destructor",
         "Armiger Warglaive", weapon="Predator autocannon", figure="damage",
         expected=4 * d6(3) * d6(4) * fail(4) * 3 * (1 - d6(6))),
    # Titanic Duel (Questoris Companions stratagem): a TITANIC Knight gets +1 to the Hit and
    # Wound rolls against a MONSTER, TITANIC or WALKER (a War Dog Karnivore): the heavy
    # stubber hits on 2+: 5/2; S4 v T9 (S at most half T) 6+, +1: 5+: 5/6 wounds.
    case("imperialknights", "titanic-duel", "shoot", "Knight Paladin", "War Dog Karnivore",
         weapon="Questoris heavy stubber", figure="wounds", expected=3 * d6(2) * d6(5)),
    # ----------------------------------------------------------------------------------------
    # Space Wolves (spacewolves.json). Blood Claws: 10 Astartes chainswords A4 WS3+ S4 AP-1;
    # Grey Hunters: 10 bolt carbines A2 BS3+ S4 AP0; a Wolf Guard Battle Leader can lead them.
    # Unbridled Ferocity (Saga of the Beastslayer stratagem): +1 to the Wound roll in the
    # Fight phase: 80/3 hits; S4 v T4 4+, +1: 3+: 160/9 wounds.
    case("spacewolves", "unbridled-ferocity", "fight", "Blood Claws", "Intercessor Squad",
         weapon="Astartes chainsword", figure="wounds", expected=40 * d6(3) * d6(3)),
    # Legendary Slayers (Saga of the Beastslayer detachment rule): [LETHAL HITS] against a
    # CHARACTER, MONSTER or VEHICLE: S4 v T10 6+: 20 x (1/6 + 3/6 x 1/6) = 5 wounds; the
    # Grey Hunters' own Cunning Hunters re-rolls Wound rolls of 1 (6+: 7/36): 95/18 wounds.
    case("spacewolves", "legendary-slayers", "shoot", "Grey Hunters", "Predator Destructor",
         weapon="Bolt carbine", figure="wounds",
         expected=20 * (Fr(1, 6) + (d6(3) - Fr(1, 6)) * (d6(6) + Fr(1, 6) * d6(6)))),
    # Elder's Guidance (Saga of the Beastslayer enhancement): while the bearer leads Blood
    # Claws, their melee AP improves by 1: chainswords AP-2 v Sv3+ fail on 1-4: 80/3 hits x
    # 1/2 wounds x 4/6 = 80/9 failed saves (20/3 without).
    case("spacewolves", "elders-guidance", "fight", "Blood Claws", "Intercessor Squad",
         "--leader", "Wolf Guard Battle Leader", weapon="Astartes chainsword",
         figure="failed_saves", expected=40 * d6(3) * d6(4) * fail(5)),
    # ----------------------------------------------------------------------------------------
    # T'au Empire (tau.json). Strike Team: 10 pulse rifles A1 BS4+ S5 AP0 [RAPID FIRE 1];
    # Kroot Carnivores: T3 Sv6+, Stealth; Crisis Fireknife Battlesuits: 3 missile pods A2 BS4+
    # S7 AP-1 D2.
    # For the Greater Good (army rule, the Guided unit's half): BS improved by 1: 10 x 4/6 =
    # 20/3 hits (5 without).
    case("tau", "for-the-greater-good", "shoot", "Strike Team", "Orks/Boyz",
         weapon="Pulse rifle", figure="hits", expected=10 * d6(3)),
    # Skirmish Fighters (Kroot Hunting Pack detachment rule, target side): KROOT models have a
    # 5+ invulnerable save against ranged attacks. Stealth (cover: BS 4+): bolt rifles 5 hits,
    # S4 v T3 3+: 10/3 wounds; AP-1 v Sv6+ no armour save, the 5+ invulnerable save: 20/9
    # failed.
    case("tau", "skirmish-fighters", "shoot", "Intercessor Squad", "Kroot Carnivores",
         weapon="Bolt rifle", figure="failed_saves", expected=10 * d6(4) * d6(3) * fail(5)),
    # The Arro'kon Protocol (Retaliation Cadre stratagem): BATTLESUIT attacks have [SUSTAINED
    # HITS 1] against a unit of 6 to 10 models (the Boyz' 10): 6 x (3/6 + 1/6) = 4 hits; the
    # Fireknives' own Fireknife re-rolls the Hit roll against a unit at its Starting Strength
    # (the Boyz are): the 3/6 misses roll again: 6 x 4/6 x (1 + 3/6) = 6 hits.
    case("tau", "the-arrokon-protocol", "shoot", "Crisis Fireknife Battlesuits", "Orks/Boyz",
         weapon="Missile pod", figure="hits",
         expected=6 * (d6(4) + Fr(1, 6)) * (1 + (1 - d6(4)))),
    # ----------------------------------------------------------------------------------------
    # Thousand Sons (thousandsons.json). Rubric Marines: 4 inferno boltguns A2 BS3+ S4 AP-2
    # and an Aspiring Sorcerer's force weapon A3 WS3+ S6 AP-1 D D3 [PSYCHIC]; T4 Sv3+.
    # Twist of Fate (a Ritual of the army rule Cabal of Sorcerers): attacks against the target
    # improve their AP by 1: 16/3 hits, 8/3 wounds, AP-3 v Sv3+ saves only on 6: 20/9 failed;
    # the Rubrics' own Bringers of Change re-rolls ranged Wound rolls of 1 (1/2 + 1/6 x 1/2 =
    # 7/12): 70/27 failed.
    case("thousandsons", "twist-of-fate", "shoot", "Rubric Marines", "Intercessor Squad",
         weapon="Inferno boltgun", figure="failed_saves",
         expected=8 * d6(3) * (d6(4) + Fr(1, 6) * d6(4)) * fail(6)),
    # Psychic Maelstrom (a Kindred Sorcery of the Grand Coven detachment rule): +1 to the Wound
    # roll of Psychic weapons: the force weapon's 2 hits, S6 v T4 3+, +1: 2+: 5/3 wounds.
    case("thousandsons", "psychic-maelstrom", "fight", "Rubric Marines", "Intercessor Squad",
         weapon="Force weapon", figure="wounds", expected=3 * d6(3) * d6(2)),
    # Sulphurous Veil (Changehost of Deceit stratagem, target side): -1 to the Hit roll: bolt
    # rifles hit on 4+: 5 hits.
    case("thousandsons", "sulphurous-veil", "shoot", "Intercessor Squad", "Rubric Marines",
         weapon="Bolt rifle", figure="hits", expected=10 * d6(4)),
    # ----------------------------------------------------------------------------------------
    # Tyranids (tyranids.json). Hormagaunts: 10 models, talons A3 WS4+ S3 AP-1; Carnifexes:
    # one Carnifex, scything talons A6 WS4+ S9 AP-2 D3, W8.
    # Synapse (army rule): +1 S to melee attacks within Synapse Range (asserted): 15 hits, S4
    # v T4 4+: 7.5 wounds (5 at S3).
    case("tyranids", "synapse", "fight", "Hormagaunts", "Intercessor Squad",
         weapon="Hormagaunt talons", figure="wounds", expected=30 * d6(4) * d6(4)),
    # Enraged Behemoths (Crusher Stampede detachment rule): +1 to the Hit roll of a MONSTER
    # below its Starting Strength (a lone Carnifex with 5 of 8 wounds; not yet Below
    # Half-strength, so no Wound-roll bonus): 6 x 4/6 = 4 hits.
    case("tyranids", "enraged-behemoths", "fight", "Carnifexes", "Intercessor Squad",
         "--models", "1", "--wounds-left", "5", weapon="Carnifex scything talons",
         figure="hits", expected=6 * d6(3)),
    # Massive Impact (Crusher Stampede stratagem): after the charge, six D6, 1 mortal wound
    # per 4+: 6 x 1/2 = 3.
    case("tyranids", "massive-impact", "fight", "Carnifexes", "Intercessor Squad", "--charged",
         weapon="Massive Impact", figure="mortal_wounds", expected=6 * d6(4)),
    # ----------------------------------------------------------------------------------------
    # Leagues of Votann (votann.json). Hearthkyn Warriors: 10 Autoch-pattern bolters A2 BS4+
    # S4 AP0; T5 Sv4+ W1, invulnerable 5+; Ironkin Steeljacks with Melee Weapons: 3 or 6
    # models.
    # Hostile Acquisition (army rule Prioritised Efficiency): +1 to the Hit roll against a
    # target within range of an objective marker: 20 x 4/6 = 40/3 hits (10 without); the
    # Warriors' own Panspectral Scanning re-rolls ranged Hit rolls of 1: 20 x (4/6 + 1/6 x
    # 4/6) = 140/9 hits.
    case("votann", "hostile-acquisition", "shoot", "Hearthkyn Warriors", "Intercessor Squad",
         "--objective", weapon="Autoch-pattern bolter", figure="hits",
         expected=20 * (d6(3) + Fr(1, 6) * d6(3))),
    # Fortify Takeover (army rule, target half): -1 to the Wound roll of attacks with S above
    # T against a unit that is not a VEHICLE: autocannon S9 v T5 3+ becomes 4+: 8/3 x 1/2 =
    # 4/3 wounds.
    case("votann", "fortify-takeover", "shoot", "Predator Destructor", "Hearthkyn Warriors",
         weapon="Predator autocannon", figure="wounds", expected=4 * d6(3) * d6(4)),
    # Wall of Steel (Hearthfyre Arsenal stratagem): after the charge, one D6 per model, 1
    # mortal wound per 4+ (at most 6): six Steeljacks, 6 x 1/2 = 3.
    case("votann", "wall-of-steel", "fight", "Ironkin Steeljacks with Melee Weapons",
         "Intercessor Squad", "--models", "6", "--charged", weapon="Wall of Steel",
         figure="mortal_wounds", expected=capped(6, d6(4), 6)),
    # ----------------------------------------------------------------------------------------
    # World Eaters (worldeaters.json). Khorne Berzerkers: 10 chainblades A4 WS3+ S4; T4 Sv3+.
    # Martial Excellence (a Blessing of Khorne, the army rule): melee [SUSTAINED HITS 1]:
    # 40 x (4/6 + 1/6) = 100/3 hits.
    case("worldeaters", "martial-excellence", "fight", "Khorne Berzerkers", "Intercessor Squad",
         weapon="Chainblade", figure="hits", expected=40 * (d6(3) + Fr(1, 6))),
    # Relentless Rage (Berzerker Warband detachment rule): after a Charge move, +1 A and +2 S:
    # 50 attacks x 4/6 hits; S6 v T4 3+: 200/9 wounds.
    case("worldeaters", "relentless-rage", "fight", "Khorne Berzerkers", "Intercessor Squad",
         "--charged", weapon="Chainblade", figure="wounds", expected=10 * (4 + 1) * d6(3) * d6(3)),
    # Enraged Abjuration (a Blood Tithe ability of Khorne Daemonkin, target side): Feel No
    # Pain 5+ against mortal wounds. A Carnifex's Massive Impact (six D6, 1 mortal wound per
    # 4+: 3) into Berzerkers: 3 x (1 - 2/6) = 2 get through.
    case("worldeaters", "enraged-abjuration", "fight", "Carnifexes", "Khorne Berzerkers",
         "--charged", "--effect", "massive-impact", weapon="Massive Impact", figure="damage",
         expected=6 * d6(4) * (1 - d6(5))),
    # ----------------------------------------------------------------------------------------
    # Edition 11, records that the vocabulary of save_improve/save_limit, target_save_worsen,
    # toughness_majority, extra_rolls, psychic mortal wounds and target_has_character express
    # (each read again against its text in data 912). Intercessor Squad: 5 bolt rifles A2 BS3+
    # S4 AP-1 D1 (10 attacks: 20/3 hits); T4 Sv3+ W2.
    # Take Cover! (Voice of Command): the Save characteristic +1, not better than 3+. Kasrkin
    # (T3 Sv4+): 3+ to wound: 40/9 wounds; Sv3+ after the Order, AP-1: 4+: 20/9 failed.
    case("astramilitarum", "take-cover", "shoot", "Intercessor Squad", "Kasrkin",
         weapon="Bolt rifle", figure="failed_saves", expected=10 * d6(3) * d6(3) * fail(4)),
    # Bullgryn Squad (T6 Sv3+): already 3+, no better: S4 v T6 5+: 20/9 wounds, AP-1: 4+:
    # 10/9 failed (a +1 save modifier would have made it 20/27).
    case("astramilitarum", "take-cover", "shoot", "Intercessor Squad", "Bullgryn Squad",
         weapon="Bolt rifle", figure="failed_saves", expected=10 * d6(3) * d6(5) * fail(4)),
    # Rattlejoint Ague (a Plague of Nurgle's Gift): the Afflicted target has -1 T and its Save
    # characteristic worsened by 1. Plague Marines' boltguns at T3: 5 wounds (as above);
    # Sv4+ at AP 0: 5 x 3/6 = 5/2 failed.
    case("deathguard", "rattlejoint-ague", "shoot", "Plague Marines", "Intercessor Squad",
         weapon="Boltgun", figure="failed_saves",
         expected=10 * (Fr(1, 6) + (d6(3) - Fr(1, 6)) * d6(3)) * fail(4)),
    # Host of the Hybridised Pox (enhancement; an extra Plague, a choice): for the Death Guard
    # attacker only its Rattlejoint Ague option acts: Sv worse by 1, no -1 T: boltguns at T4:
    # 10 x (1/6 + 3/6 x 1/2) = 25/6 wounds, Sv4+: 25/12 failed.
    case("deathguard", "host-of-the-hybridised-pox", "shoot", "Plague Marines",
         "Intercessor Squad", weapon="Boltgun", figure="failed_saves",
         expected=10 * (Fr(1, 6) + (d6(3) - Fr(1, 6)) * d6(4)) * fail(4)),
    # Death's Heads (stratagem): every Plague on the chosen enemy: its melee attacks take -1
    # to hit (the Intercessors' 15 close combat attacks WS3+ at Plague Marines: 4+, 15/2).
    case("deathguard", "deaths-heads", "fight", "Intercessor Squad", "Plague Marines",
         weapon="Close combat weapon", figure="hits", expected=15 * d6(4)),
    # ... and its Save is worse by 1 against the Death Guard (25/12 failed, as above).
    case("deathguard", "deaths-heads", "shoot", "Plague Marines", "Intercessor Squad",
         weapon="Boltgun", figure="failed_saves",
         expected=10 * (Fr(1, 6) + (d6(3) - Fr(1, 6)) * d6(4)) * fail(4)),
    # Doombolt (a Psychic Ritual): D3 mortal wounds (mean 2), Psychic Attacks: Flesh Hounds'
    # Feel No Pain 3+ against Psychic Attacks ignores each with 4/6: 2/3 damage.
    case("thousandsons", "doombolt", "shoot", "Rubric Marines", "Chaos Daemons/Flesh Hounds",
         weapon="Doombolt", figure="damage", expected=2 * (1 - d6(3))),
    # Fleshy Curse (Cabal of Chaos stratagem): one D6: 1 one mortal wound, 2-4 D3, 5-6 2D3,
    # "inflicted by a psychic attack": (1 + 3 x 2 + 2 x 4)/6 = 5/2, x 2/6 past the Flesh
    # Hounds' Feel No Pain 3+: 5/6 damage.
    case("chaos_spacemarines", "fleshy-curse", "shoot", "Chaos Space Marines/Sorcerer",
         "Chaos Daemons/Flesh Hounds", weapon="Fleshy Curse", figure="damage",
         expected=Fr(1 * 1 + 3 * 2 + 2 * 4, 6) * (1 - d6(3))),
    # Wall of Steel with 2YP spent: one D6 per model and two more, 4+, at most 6 in all: six
    # Steeljacks, 8 D6: E[min(Binomial(8, 1/2), 6)] = 4 - (8 + 2 x 1)/256 = 507/128.
    case("votann", "wall-of-steel:yp", "fight", "Ironkin Steeljacks with Melee Weapons",
         "Intercessor Squad", "--models", "6", "--charged", weapon="Wall of Steel",
         figure="mortal_wounds", expected=capped(8, d6(4), 6)),
    # Unstoppable Momentum (Da Big Hunt stratagem) against the Prey: one D6 per model and
    # three more, 4+, at most 6 in all: 8 Squighog Boyz, 11 D6: E[min(Binomial(11, 1/2), 6)].
    case("orks", "unstoppable-momentum:prey", "fight", "Squighog Boyz", "Intercessor Squad",
         "--models", "8", "--charged", weapon="Unstoppable Momentum", figure="mortal_wounds",
         expected=capped(11, d6(4), 6)),
    # Kill Teams (Deathwatch army rule): the Toughness most models of the KILL TEAM unit have.
    # Decimus Kill Team: 3 Veterans and a Sergeant T4, a Gravis Veteran T6: T4, S4 4+: 10/3
    # wounds (T6, 5+, 20/9 without the rule).
    case("deathwatch", "kill-teams", "shoot", "Intercessor Squad", "Decimus Kill Team",
         weapon="Bolt rifle", figure="wounds", expected=10 * d6(3) * d6(4)),
    # Kill Team (the Aquila Kill Team's own datasheet ability, agents-units.yaml, applied by
    # default): the same Toughness rule: 3 Veterans and a Sergeant T4, a Gravis Veteran T6:
    # 10/3 wounds.
    case("agents-units", "kill-team", "shoot", "Intercessor Squad", "Aquila Kill Team",
         weapon="Bolt rifle", figure="wounds", expected=10 * d6(3) * d6(4)),
    # Stoic Defender (enhancement; while the bearer leads a unit, Feel No Pain 6+ within range
    # of an objective): Intercessors led by a Captain: 10/3 wounds, AP-1 v Sv3+: 5/3 failed,
    # D1, x 5/6: 25/18 damage.
    case("space_marines", "stoic-defender", "shoot", "Intercessor Squad", "Intercessor Squad",
         "--target-leader", "Captain", "--objective", weapon="Bolt rifle", figure="damage",
         expected=10 * d6(3) * d6(4) * fail(4) * (1 - d6(6))),
    # Nether-realm Casket (enhancement; while the bearer leads a unit, Stealth): Necron
    # Warriors led by an Overlord have the Benefit of Cover (13.08: BS worsened by 1): bolt
    # rifles hit on 4+: 5 hits.
    case("necrons", "nether-realm-casket", "shoot", "Intercessor Squad", "Necron Warriors",
         "--target-leader", "Overlord", weapon="Bolt rifle", figure="hits", expected=10 * d6(4)),
    # ----------------------------------------------------------------------------------------
    # Edition 10, Orks (edition-10/orks.yaml, the seed pages 000 and 001; the shipped
    # 10th-edition datasheets): Boyz as above; Lootas: a Spanner's big shoota A3 BS5+ S5.
    # Get Stuck In (War Horde detachment rule, seed 000): melee [SUSTAINED HITS 1]: 27 x 5/6
    # = 22.5 choppa hits.
    case("orks", "get-stuck-in", "fight", "Boyz", "Intercessor Squad",
         weapon="Choppa", figure="hits", expected=27 * (d6(3) + Fr(1, 6)), ed="10"),
    # Belligerent Boarders (Ramship Raiders detachment rule, seed 000, target side): -1 to
    # the Wound roll of attacks with S above the unit's T: autocannon S9 v T5 3+ becomes 4+:
    # 8/3 hits x 1/2 = 4/3 wounds.
    case("orks", "belligerent-boarders", "shoot", "Space Marines/Predator Destructor", "Boyz",
         weapon="Predator autocannon", figure="wounds", expected=4 * d6(3) * d6(4), ed="10"),
    # Dat's Our Loot! (the Lootas' unit rule, seed 001, applied by default): against a target
    # within range of an objective marker, re-roll the Hit roll: big shoota 3 x (1 - (4/6)^2)
    # = 5/3 hits.
    case("orks", "dats-our-loot", "shoot", "Lootas", "Intercessor Squad", "--objective",
         weapon="Big shoota", figure="hits", expected=3 * (1 - (1 - d6(5)) ** 2), ed="10"),
    # ----------------------------------------------------------------------------------------
    # Edition 10, World Eaters (edition-10/world-eaters.yaml, seed 004). Khorne Berzerkers:
    # 10 chainblades A4 WS3+ S4 AP-1; T4 Sv3+; Lord Invocatus.
    # Hack and Slash (Berzerker Warband stratagem): after a charge, melee AP improved by 1:
    # 80/3 hits, 40/3 wounds, AP-2 v Sv3+ fails on 1-4: 80/9 failed saves.
    case("world-eaters", "hack-and-slash", "fight", "World Eaters/Khorne Berzerkers",
         "Intercessor Squad", "--charged", weapon="Chainblade", figure="failed_saves",
         expected=40 * d6(3) * d6(4) * fail(5), ed="10"),
    # Frenzied Resilience (Berzerker Warband stratagem, target side): -1 Damage in the Fight
    # phase: the Boss Nob's big choppa (D2): 2 hits, S7 v T4 3+: 4/3 wounds, AP-1 v Sv3+ 4+:
    # 2/3 failed, 1 damage each.
    case("world-eaters", "frenzied-resilience", "fight", "Boyz", "World Eaters/Khorne Berzerkers",
         weapon="Big choppa", figure="damage", expected=3 * d6(3) * d6(3) * fail(4) * (2 - 1),
         ed="10"),
    # Bloody Stampede (Lord Invocatus's unit rule, seed 004, applied by default after a
    # charge): one D6: 2-3 one mortal wound, 4-5 D3, 6 D3+3: (2 x 1 + 2 x 2 + 5)/6 = 11/6.
    case("world-eaters", "bloody-stampede", "fight", "Lord Invocatus", "Intercessor Squad",
         "--charged", weapon="Bloody Stampede", figure="mortal_wounds",
         expected=Fr(2 * 1 + 2 * 2 + 1 * 5, 6), ed="10"),
    # ----------------------------------------------------------------------------------------
    # Edition 10, the army rules of the 10th-edition export (effects/edition-10/<faction>.yaml;
    # each row read against the rule's text in Abilities.csv of wahapedia-10e-2025-07) with the
    # shipped 10th-edition datasheets. Intercessor Squad: 5 models, bolt rifles A2 BS3+ S4
    # AP-1, close combat weapons A3 WS3+ S4; T4 Sv3+ W2. Boyz: T5 Sv5+.
    #
    # Space Marines (space-marines.yaml). Oath of Moment with the codex-army option: re-roll
    # the Hit roll, +1 to the Wound roll: 10 x (1 - (1/3)^2) = 80/9 hits; S4 v T5 5+, +1: 4+:
    # 40/9 wounds.
    case("space-marines", "oath-of-moment:codex-army", "shoot", "Intercessor Squad", "Boyz",
         weapon="Bolt rifle", figure="wounds", expected=10 * (1 - (1 - d6(3)) ** 2) * d6(4),
         ed="10"),
    # Oath of Moment, codex-army, for a BLOOD ANGELS unit (Death Company Marines: 5 heavy bolt
    # pistols A1 BS3+ S4): the +1 to wound is not theirs: 5 x 8/9 = 40/9 hits, 5+ to wound:
    # 40/27 wounds.
    case("space-marines", "oath-of-moment:codex-army", "shoot", "Death Company Marines", "Boyz",
         weapon="Heavy bolt pistol", figure="wounds",
         expected=5 * (1 - (1 - d6(3)) ** 2) * d6(5), ed="10"),
    # Furor Tactics (a Mission Tactic): [SUSTAINED HITS 1]. Deathwatch Veterans: 5 boltguns A2
    # BS3+ S4: 10 x (4/6 + 1/6) = 25/3 hits; their own Death to the Alien re-rolls Hit rolls
    # of 1 against IMPERIUM (a 1 rolls again: x 7/6): 175/18 hits.
    case("space-marines", "furor-tactics", "shoot", "Deathwatch Veterans", "Intercessor Squad",
         weapon="Boltgun", figure="hits", expected=10 * (d6(3) + Fr(1, 6)) * Fr(7, 6),
         ed="10"),
    # Malleus Tactics: [LETHAL HITS]: each attack a 6 (1/6) wounds outright, a 3-5 (3/6) hits
    # and wounds T4 on 4+: 10 x (1/6 + 3/6 x 1/2) = 25/6 wounds; with Death to the Alien's
    # re-roll of a 1 (x 7/6): 175/36 wounds.
    case("space-marines", "malleus-tactics", "shoot", "Deathwatch Veterans", "Intercessor Squad",
         weapon="Boltgun", figure="wounds",
         expected=10 * (Fr(1, 6) + Fr(3, 6) * d6(4)) * Fr(7, 6), ed="10"),
    # Kill Team: the Wound roll uses the Toughness most of the unit's models have. Kill Team
    # Cassius: 8 Veterans and Cassius T4, a Terminator and a Biker T5: T4, bolt rifles 4+:
    # 10/3 wounds (T5, 5+, 20/9 without the rule).
    case("space-marines", "kill-team", "shoot", "Intercessor Squad",
         "Space Marines/Kill Team Cassius",
         weapon="Bolt rifle", figure="wounds", expected=10 * d6(3) * d6(4), ed="10"),
    # The same rule in the Imperial Agents' file, for their own copy of Kill Team Cassius (the
    # same models): 10/3 wounds.
    case("imperial-agents", "Imperial Agents/kill-team", "shoot", "Intercessor Squad",
         "Imperial Agents/Kill Team Cassius", weapon="Bolt rifle", figure="wounds",
         expected=10 * d6(3) * d6(4), ed="10"),
    # ----------------------------------------------------------------------------------------
    # Astra Militarum (astra-militarum.yaml), Voice of Command. Cadian Shock Troops: 9 Shock
    # Troopers with a lasgun (A1 BS4+ S3 [RAPID FIRE 1]: A1 beyond half range) and a close
    # combat weapon (A1 WS4+ S3), a Sergeant with a laspistol and a chainsword.
    # Take Aim!: +1 BS: lasguns hit on 3+: 9 x 4/6 = 6 hits.
    case("astra-militarum", "take-aim", "shoot", "Cadian Shock Troops", "Intercessor Squad",
         weapon="Lasgun", figure="hits", expected=9 * d6(3), ed="10"),
    # First Rank, Fire! Second Rank, Fire!: +1 A to [RAPID FIRE] weapons: 9 x 2 = 18 lasgun
    # attacks, 18 x 1/2 = 9 hits.
    case("astra-militarum", "first-rank-fire-second-rank-fire", "shoot", "Cadian Shock Troops",
         "Intercessor Squad", weapon="Lasgun", figure="hits", expected=9 * 2 * d6(4), ed="10"),
    # The laspistol has no [RAPID FIRE]: the Sergeant's 1 attack, 1/2 a hit.
    case("astra-militarum", "first-rank-fire-second-rank-fire", "shoot", "Cadian Shock Troops",
         "Intercessor Squad", weapon="Laspistol", figure="attacks", expected=1, ed="10"),
    # Fix Bayonets!: +1 WS: close combat weapons hit on 3+: 9 x 4/6 = 6 hits.
    case("astra-militarum", "fix-bayonets", "fight", "Cadian Shock Troops", "Intercessor Squad",
         weapon="Close combat weapon", figure="hits", expected=9 * d6(3), ed="10"),
    # Take Cover! (Voice of Command): the Save characteristic +1, not better than 3+. Bolt
    # rifles at Kasrkin (T3 Sv4+): 20/3 hits, 3+ to wound: 40/9; Sv3+ after the Order, AP-1:
    # 4+: 20/9 failed.
    case("astra-militarum", "take-cover", "shoot", "Intercessor Squad",
         "Astra Militarum/Kasrkin",
         weapon="Bolt rifle", figure="failed_saves", expected=10 * d6(3) * d6(3) * fail(4),
         ed="10"),
    # Bullgryn Squad (T6 Sv3+): already 3+: 20/9 wounds, 4+ after AP-1: 10/9 failed.
    case("astra-militarum", "take-cover", "shoot", "Intercessor Squad", "Bullgryn Squad",
         weapon="Bolt rifle", figure="failed_saves", expected=10 * d6(3) * d6(5) * fail(4),
         ed="10"),
    # ----------------------------------------------------------------------------------------
    # Thousand Sons (thousand-sons.yaml), the Rituals of Cabal of Sorcerers. Rubric Marines: 4
    # inferno boltguns A2 BS3+ S4 AP-2 (8 attacks).
    # Twist of Fate: AP improved by 1: 16/3 hits, S4 v T4 4+: 8/3 wounds, AP-3 v Sv3+ saves
    # on 6 only: 8/3 x 5/6 = 20/9 failed saves; the Rubrics' own Bringers of Change re-rolls
    # ranged Wound rolls of 1 (1/2 + 1/6 x 1/2 = 7/12): 70/27.
    case("thousand-sons", "twist-of-fate", "shoot", "Thousand Sons/Rubric Marines",
         "Intercessor Squad", weapon="Inferno boltgun", figure="failed_saves",
         expected=8 * d6(3) * (d6(4) + Fr(1, 6) * d6(4)) * fail(6), ed="10"),
    # Destiny's Ruin: re-roll a Hit roll of 1: 8 x (4/6 + 1/6 x 4/6) = 56/9 hits.
    case("thousand-sons", "destinys-ruin", "shoot", "Thousand Sons/Rubric Marines",
         "Intercessor Squad",
         weapon="Inferno boltgun", figure="hits", expected=8 * (d6(3) + Fr(1, 6) * d6(3)),
         ed="10"),
    # Destiny's Ruin with a Psychic test of 10+: re-roll the Hit roll: 8 x (1 - (2/6)^2) = 64/9.
    case("thousand-sons", "destinys-ruin:test-10", "shoot", "Thousand Sons/Rubric Marines",
         "Intercessor Squad",
         weapon="Inferno boltgun", figure="hits", expected=8 * (1 - (1 - d6(3)) ** 2), ed="10"),
    # Doombolt: D3 mortal wounds (mean 2); with a Psychic test of 11+, D3+3 (mean 5).
    case("thousand-sons", "doombolt", "shoot", "Thousand Sons/Rubric Marines",
         "Intercessor Squad",
         weapon="Doombolt", figure="mortal_wounds", expected=2, ed="10"),
    case("thousand-sons", "doombolt:test-11", "shoot", "Thousand Sons/Rubric Marines",
         "Intercessor Squad",
         weapon="Doombolt", figure="mortal_wounds", expected=5, ed="10"),
    # Doombolt's mortal wounds are Psychic Attacks (the Ritual is tagged Psychic): Flesh
    # Hounds' Feel No Pain 3+ against Psychic Attacks: 2 x 2/6 = 2/3 damage.
    case("thousand-sons", "doombolt", "shoot", "Thousand Sons/Rubric Marines",
         "Chaos Daemons/Flesh Hounds", weapon="Doombolt", figure="damage",
         expected=2 * (1 - d6(3)), ed="10"),
    # ----------------------------------------------------------------------------------------
    # Death Guard (death-guard.yaml), the Plagues of Nurgle's Gift: the Afflicted target has
    # -1 T. Plague Marines: 5 boltguns A2 BS3+ S4 AP0 [LETHAL HITS] (10 attacks); T6 Sv3+.
    # Skullsquirm Blight, attacker half: Intercessors at T3: a 6 (1/6) wounds outright, a 3-5
    # (3/6) wounds on 3+ (S4 > T3): 10 x (1/6 + 3/6 x 4/6) = 5 wounds (25/6 at T4).
    case("death-guard", "skullsquirm-blight", "shoot", "Death Guard/Plague Marines",
         "Intercessor Squad",
         weapon="Boltgun", figure="wounds", expected=10 * (Fr(1, 6) + Fr(3, 6) * d6(3)),
         ed="10"),
    # Skullsquirm Blight, target half: the Afflicted unit's attacks take -1 to hit: bolt rifles
    # at Plague Marines hit on 4+: 10 x 1/2 = 5 hits.
    case("death-guard", "skullsquirm-blight", "shoot", "Intercessor Squad",
         "Death Guard/Plague Marines",
         weapon="Bolt rifle", figure="hits", expected=10 * d6(4), ed="10"),
    # Rattlejoint Ague and Scabrous Soulrot: -1 T as above (5 wounds).
    case("death-guard", "rattlejoint-ague", "shoot", "Death Guard/Plague Marines",
         "Intercessor Squad",
         weapon="Boltgun", figure="wounds", expected=10 * (Fr(1, 6) + Fr(3, 6) * d6(3)),
         ed="10"),
    case("death-guard", "scabrous-soulrot", "shoot", "Death Guard/Plague Marines",
         "Intercessor Squad",
         weapon="Boltgun", figure="wounds", expected=10 * (Fr(1, 6) + Fr(3, 6) * d6(3)),
         ed="10"),
    # Rattlejoint Ague also worsens the Save characteristic by 1: 5 wounds, Sv4+ at AP 0:
    # 5/2 failed saves.
    case("death-guard", "rattlejoint-ague", "shoot", "Death Guard/Plague Marines",
         "Intercessor Squad", weapon="Boltgun", figure="failed_saves",
         expected=10 * (Fr(1, 6) + Fr(3, 6) * d6(3)) * fail(4), ed="10"),
    # ----------------------------------------------------------------------------------------
    # Chaos Space Marines (chaos-space-marines.yaml; its Legion records are for the cult
    # datasheets filed with Chaos Space Marines).
    # Dark Pacts: [LETHAL HITS] or [SUSTAINED HITS 1], the better. Legionaries: 5 boltguns A2
    # BS3+ S4 (10 attacks) at Termagants (T3 Sv5+ W1, 10 models), 3+ to wound: lethal
    # 10 x (1/6 + 3/6 x 4/6) = 5 wounds, sustained 10 x 5/6 x 4/6 = 50/9 (more, and every
    # weapon of the unit gains more from it): 50/9.
    case("chaos-space-marines", "dark-pacts", "shoot", "Chaos Space Marines/Legionaries",
         "Termagants",
         weapon="Boltgun", figure="wounds", expected=10 * (d6(3) + Fr(1, 6)) * d6(3), ed="10"),
    # Warp Blades (a Blessing of Khorne): melee [LETHAL HITS]. Khorne Berzerkers: 10
    # chainblades A4 WS3+ S4 (40 attacks): 40 x (1/6 + 3/6 x 1/2) = 50/3 wounds.
    case("chaos-space-marines", "Chaos Space Marines/warp-blades", "fight",
         "Chaos Space Marines/Khorne Berzerkers", "Intercessor Squad", weapon="Chainblade",
         figure="wounds", expected=40 * (Fr(1, 6) + Fr(3, 6) * d6(4)), ed="10"),
    # Decapitating Strikes: melee attacks against INFANTRY have [DEVASTATING WOUNDS]: 80/3
    # hits, of which a 6 to wound (1/6) is a Critical Wound: 80/3 x 1/6 = 40/9 mortal wounds.
    case("chaos-space-marines", "Chaos Space Marines/decapitating-strikes", "fight",
         "Chaos Space Marines/Khorne Berzerkers", "Intercessor Squad", weapon="Chainblade",
         figure="mortal_wounds", expected=40 * d6(3) * Fr(1, 6), ed="10"),
    # Doombolt (Cabal of Sorcerers), for the Rubric Marines filed with Chaos Space Marines:
    # D3 mortal wounds, mean 2.
    case("chaos-space-marines", "Chaos Space Marines/doombolt", "shoot",
         "Chaos Space Marines/Rubric Marines", "Intercessor Squad", weapon="Doombolt",
         figure="mortal_wounds", expected=2, ed="10"),
    # ----------------------------------------------------------------------------------------
    # Imperial Knights (imperial-knights.yaml).
    # Lay Low the Tyrant (an Oath of Code Chivalric): one Hit roll and one Wound roll
    # re-rolled. A Knight Warden's heavy flamer (D6 automatic hits, S5 v T4 3+) and Icarus
    # autocannons (A3 BS3+ S7 v T4 3+, [TWIN-LINKED]: every failed Wound roll re-rolled
    # already): the Hit re-roll can only help the autocannons, the Wound re-roll only the
    # flamer. Flamer: 2/3 x 7/2 wounds, plus 2/3 when one of its N Wound rolls fails
    # (1 - (2/3)^N), N a D6. (The Warden's own Thin Their Ranks gives both [DEVASTATING
    # WOUNDS] against INFANTRY: it makes a 6 to wound mortal, not more or fewer wounds.)
    case("imperial-knights", "lay-low-the-tyrant", "shoot", "Knight Warden", "Intercessor Squad",
         "--weapon", "Heavy flamer x1", "--weapon", "Icarus autocannons x1",
         weapon="Heavy flamer", figure="wounds",
         expected=d6(3) * Fr(7, 2) + d6(3) * sum(1 - d6(3) ** n for n in range(1, 7)) / 6,
         ed="10"),
    # Autocannons: 3 x 2/3 = 2 hits, plus 2/3 when one of the 3 Hit rolls fails (1 - (2/3)^3
    # = 19/27): 200/81 hits, each wounding with a re-roll: 1 - (1/3)^2 = 8/9: 1600/729.
    case("imperial-knights", "lay-low-the-tyrant", "shoot", "Knight Warden", "Intercessor Squad",
         "--weapon", "Heavy flamer x1", "--weapon", "Icarus autocannons x1",
         weapon="Icarus autocannons", figure="wounds",
         expected=(3 * d6(3) + (1 - d6(3) ** 3) * d6(3)) * (1 - (1 - d6(3)) ** 2),
         ed="10"),
    # Protector Imperative (Doctrina Imperatives, the ADEPTUS MECHANICUS datasheets filed with
    # the Knights): ranged [HEAVY] and +1 BS. Skitarii Rangers: 10 galvanic rifles A2 BS4+:
    # 3+, Remained Stationary: +1: 2+: 20 x 5/6 = 50/3 hits.
    case("imperial-knights", "protector-imperative", "shoot", "Imperial Knights/Skitarii Rangers",
         "Intercessor Squad", "--stationary", weapon="Galvanic rifle", figure="hits",
         expected=20 * d6(2), ed="10"),
    # Its target half: melee attacks against the (BATTLELINE) Rangers take -1 to hit:
    # Intercessors' close combat weapons (15 attacks WS3+) hit on 4+: 15/2.
    case("imperial-knights", "protector-imperative", "fight", "Intercessor Squad",
         "Imperial Knights/Skitarii Rangers", weapon="Close combat weapon", figure="hits",
         expected=15 * d6(4), ed="10"),
    # Conqueror Imperative: melee +1 WS, and a BATTLELINE unit improves its AP by 1: the
    # Rangers' close combat weapons (10 attacks WS4+ S3 AP0): 3+: 20/3 hits; S3 v T4 5+:
    # 20/9 wounds; AP-1 v Sv3+: 4+: 10/9 failed saves.
    case("imperial-knights", "conqueror-imperative", "fight", "Imperial Knights/Skitarii Rangers",
         "Intercessor Squad", weapon="Close combat weapon", figure="failed_saves",
         expected=10 * d6(3) * d6(5) * fail(4), ed="10"),
    # ----------------------------------------------------------------------------------------
    # Army rules of the files with fewer than three records (the guard does not ask for them).
    # Leagues of Votann: Eye of the Ancestors: +1 to hit against a target with a Judgement
    # token; with two (two-tokens), +1 to wound too. Hearthkyn Warriors: 10 bolters A2 BS4+
    # S4: 3+: 40/3 hits; S4 v T4 3+: 80/9 wounds.
    case("leagues-of-votann", "eye-of-the-ancestors", "shoot", "Hearthkyn Warriors",
         "Intercessor Squad", weapon="Autoch-pattern bolter", figure="hits",
         expected=20 * d6(3), ed="10"),
    case("leagues-of-votann", "eye-of-the-ancestors:two-tokens", "shoot", "Hearthkyn Warriors",
         "Intercessor Squad", weapon="Autoch-pattern bolter", figure="wounds",
         expected=20 * d6(3) * d6(3), ed="10"),
    # Adeptus Mechanicus: Protector Imperative's target half against BATTLELINE Skitarii
    # Rangers: 15/2 hits, as above; against Sicarian Ruststalkers (not BATTLELINE) only with
    # near-battleline: 15/2, else 15 x 2/3 = 10.
    case("adeptus-mechanicus", "protector-imperative", "fight", "Intercessor Squad",
         "Adeptus Mechanicus/Skitarii Rangers", weapon="Close combat weapon", figure="hits",
         expected=15 * d6(4), ed="10"),
    case("adeptus-mechanicus", "protector-imperative", "fight", "Intercessor Squad",
         "Sicarian Ruststalkers", weapon="Close combat weapon", figure="hits",
         expected=15 * d6(3), ed="10", idle=True),
    case("adeptus-mechanicus", "protector-imperative:near-battleline", "fight",
         "Intercessor Squad", "Sicarian Ruststalkers", weapon="Close combat weapon",
         figure="hits", expected=15 * d6(4), ed="10"),
    # Drukhari: Power From Pain (Empowered): re-roll the Hit roll, melee AP improved by 1.
    # Kabalite Warriors: 10 close combat weapons A2 WS3+ S3 AP0 (20 attacks): 20 x 8/9 =
    # 160/9 hits; S3 v T4 5+: 160/27 wounds; AP-1 v Sv3+: 4+: 80/27 failed saves.
    case("drukhari", "power-from-pain", "fight", "Kabalite Warriors", "Intercessor Squad",
         weapon="Close combat weapon", figure="failed_saves",
         expected=20 * (1 - (1 - d6(3)) ** 2) * d6(5) * fail(4), ed="10"),
    # Adeptus Custodes: Dacatarai Stance (Martial Ka'tah): melee [SUSTAINED HITS 1]. Custodian
    # Guard: 4 guardian spears A5 WS2+ (20 attacks): 20 x (5/6 + 1/6) = 20 hits.
    case("adeptus-custodes", "dacatarai-stance", "fight", "Custodian Guard", "Intercessor Squad",
         weapon="Guardian spear (melee)", figure="hits", expected=20 * (d6(2) + Fr(1, 6)),
         ed="10"),
]  # fmt: skip


def run(c: Case) -> dict:
    """``calc COMMAND ATTACKER --target TARGET --edition E --effect EFFECT FLAGS --json``."""
    args = [c.command, c.attacker, "--target", c.target, "--edition", c.edition]
    args += ["--effect", c.effect, *c.flags, "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return json.loads(result.stdout)


def figure(out: dict, weapon: str | None, name: str) -> float:
    """One weapon's (or the activation's) expected ``name``."""
    if weapon is None:
        return out["expected"][name]
    rows = [w for w in out["weapons"] if w["name"].lower() == weapon.lower()]
    assert len(rows) == 1, [w["name"] for w in out["weapons"]]
    return rows[0]["expected"][name]


@pytest.mark.parametrize("c", CASES)
def test_rule_against_hand_worked_value(c: Case) -> None:
    out = run(c)
    if c.idle:
        assert not ids(c.effect) & set(out["effects"]), out["effects"]
        assert any(f"--effect {c.effect}: no effect: " in n for n in out["notes"]), out["notes"]
    else:
        assert ids(c.effect) & set(out["effects"]), out["effects"]
    got = figure(out, c.weapon, c.figure)
    assert got == pytest.approx(float(c.expected), abs=TOL, rel=0), (got, float(c.expected))


def test_every_faction_file_has_three_rules_tested() -> None:
    """Every faction file with three modelled rules or more has three rows or more."""
    from collections import Counter

    from wh40k_calc import effect_files as ef

    rows = Counter((p.values[0].edition, p.values[0].faction) for p in CASES)
    missing = []
    for edition in ef.EDITIONS:
        for key, paths in ef.hand_files_of(edition).items():  # not the generated unit rules
            for path in paths:
                n = len(ef.load(path).effects)
                stem = path.stem
                if stem == "core" or stem.endswith("-units") or n < 3:
                    continue
                if rows[(edition, stem)] < 3:
                    missing.append(f"{edition}/{stem} ({key}): {rows[(edition, stem)]} rows")
    assert not missing, missing


# Enhancements that act "while the bearer is leading a unit" (the encoding guide: a CHARACTER
# in a unit of two or more models): refused for the character on its own, applied when it
# leads (the led unit's own weapons then have them).
LEADING = [
    ("fire-discipline", "shoot", "Captain", "Intercessor Squad", ()),
    ("drill-commander", "shoot", "Cadian Castellan", "Cadian Shock Troops", ("--stationary",)),
]


@pytest.mark.parametrize(("effect", "command", "leader", "unit", "flags"), LEADING)
def test_leading_enhancements_need_a_led_unit(effect, command, leader, unit, flags) -> None:
    base = [command, "--target", "Orks/Boyz", "--edition", "11", "--effect", effect, *flags]
    alone = CliRunner().invoke(app, [base[0], leader, *base[1:]])
    assert alone.exit_code == 1, alone.stdout
    assert "needs an attacking unit of 2 or more models" in alone.stderr
    led = CliRunner().invoke(app, [base[0], unit, "--leader", leader, *base[1:], "--json"])
    assert led.exit_code == 0, led.stderr
    assert effect in json.loads(led.stdout)["effects"]


# Target-side enhancements that act "while the bearer is leading a unit" (leading: the target
# is an Attached unit): refused for the unit without its Leader, applied when it is led.
TARGET_LEADING = [
    ("stoic-defender", "Captain", "Intercessor Squad", ("--objective",)),
    ("nether-realm-casket", "Overlord", "Necron Warriors", ()),
]


@pytest.mark.parametrize(("effect", "leader", "unit", "flags"), TARGET_LEADING)
def test_target_leading_enhancements_need_a_leader(effect, leader, unit, flags) -> None:
    base = ["shoot", "Intercessor Squad", "--target", unit, "--edition", "11"]
    base += ["--effect", effect, *flags]
    alone = CliRunner().invoke(app, base)
    assert alone.exit_code == 1, alone.stdout
    assert "applies while its model leads a unit" in alone.stderr
    lone = CliRunner().invoke(app, [*base[:3], leader, *base[4:]])
    assert lone.exit_code == 1 and "leads a unit" in lone.stderr, lone.stdout
    led = CliRunner().invoke(app, [*base, "--target-leader", leader, "--json"])
    assert led.exit_code == 0, led.stderr
    assert effect in json.loads(led.stdout)["effects"]


# Target-side enhancements for "the bearer's unit" (target_has_character: an enhancement goes
# to a CHARACTER unless it says otherwise, 25.04 Select Enhancements): refused for a unit
# without one, applied to the led unit and to the character on its own.
TARGET_BEARER = [
    ("seals-of-reconquest", "Captain", "Intercessor Squad"),
    ("radiant-mantle", "Shield-Captain", "Custodian Guard"),
]


@pytest.mark.parametrize(("effect", "leader", "unit"), TARGET_BEARER)
def test_target_bearer_unit_enhancements_need_the_bearer(effect, leader, unit) -> None:
    def run_on(*target: str):
        args = ["shoot", "Intercessor Squad", "--target", *target, "--edition", "11"]
        return CliRunner().invoke(app, [*args, "--effect", effect, "--json"])

    alone = run_on(unit)
    assert alone.exit_code == 1, alone.stdout
    assert "needs a target unit that is or contains a CHARACTER" in alone.stderr
    for target in ((unit, "--target-leader", leader), (leader,)):
        out = run_on(*target)
        assert out.exit_code == 0, out.stderr
        assert effect in json.loads(out.stdout)["effects"]

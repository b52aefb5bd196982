"""``--weapon`` names weapons that *attack*: each model's named weapons must be a set the rules
let it attack with (wh40k_calc/attack_sets.py, used by wh40k_calc/composition/).

The rules, read from the rules text (10th edition: seed 000, Core rules: Pistol and "select
one of its profiles to make attacks with"; the seeds README: weapons a model uses, [EXTRA
ATTACKS]; edition 11: core_rules.json 04.01 Select Weapons, 04.01.03 Multiple Weapon Profiles,
24.07 [CLOSE-QUARTERS], 24.27 [PISTOL], 24.11 [EXTRA ATTACKS]): one profile of each weapon;
a model's Pistols or its other ranged weapons, unless it is a MONSTER or VEHICLE model; one
melee weapon besides all its [EXTRA ATTACKS] weapons. Each refusal below was accepted before
(the fresh-user trial: wrong figures, accepted silently). The search is also checked against
a brute force that gives every model every way to attack allowed by those rules, written out
here independently of the module.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wh40k_calc.attack_sets import CARRYING
from wh40k_calc.catalog import Catalog
from wh40k_calc.cli import app
from wh40k_calc.composition import assign
from wh40k_calc.datasheet import Datasheet, load_datasheet
from wh40k_calc.selection import SelectionError, UnitChoice
from wh40k_calc.units import build_unit

CAT = Catalog(use_env=False, home=None)
EDITIONS = ("10", "11")


def run(command: str, unit: str, edition: str, *weapons: str) -> tuple[int, str]:
    """``calc COMMAND UNIT -t boyz --edition E --weapon ...``: exit code and output on one
    line."""
    res = CliRunner().invoke(
        app,
        [
            *(command, unit, "-t", "boyz", "--edition", edition),
            *(a for w in weapons for a in ("--weapon", w)),
        ],
    )
    assert "Traceback" not in res.output
    return res.exit_code, " ".join(res.output.split())


def refused(unit: str, edition: str, *specs: tuple[str, int]) -> str:
    ds = CAT.find(unit, edition=edition)
    with pytest.raises(SelectionError) as info:
        build_unit(UnitChoice(ds, 10, None, tuple(specs)), "attacker", edition)
    return str(info.value)


def groups(unit: str, edition: str, *specs: tuple[str, int]) -> list[tuple[str, int, list[str]]]:
    ds = CAT.find(unit, edition=edition)
    built = build_unit(UnitChoice(ds, None, None, tuple(specs)), "attacker", edition)
    return [(g.profile.name, g.count, [w.name for w in g.weapons]) for g in built.groups]


# ---------------------------------------------------------------------------------------------
# One profile of each weapon


@pytest.mark.parametrize("edition", EDITIONS)
def test_two_plasma_guns_fire_one_profile_each(edition: str) -> None:
    """A Tactical Squad carries at most 2 plasma guns (plasma-gun-x2): 2 standard and 2
    supercharge shots need 4 plasma guns (they were 2 models firing both profiles)."""
    std, sup = ("standard", "supercharge") if edition == "10" else ("Standard", "Supercharge")
    why = refused("tactical squad", edition, (f"Plasma gun – {std}", 2), (f"Plasma gun – {sup}", 2))
    assert why == (
        "--weapon: a model attacks with one profile of each weapon it carries: "
        f"Plasma gun – {std} x2 and Plasma gun – {sup} x2 are Plasma gun x4; this unit of 10 "
        "models can carry only 2 of Plasma gun (Tactical Marine ×2)"
    )
    code, out = run("shoot", "tactical squad", edition, f"Plasma gun – {sup} x2")
    assert code == 0, out
    got = groups("tactical squad", edition, (f"Plasma gun – {sup}", 2))
    assert {(n, tuple(ws)) for n, _, ws in got} == {("Tactical Marine", (f"Plasma gun – {sup}",))}
    assert sum(c for _, c, _ in got) == 2  # two models, one plasma gun each
    # one of each profile: two models, one plasma gun each
    got = groups("tactical squad", edition, (f"Plasma gun – {std}", 1), (f"Plasma gun – {sup}", 1))
    assert [(n, c) for n, c, _ in got] == [("Tactical Marine", 1), ("Tactical Marine", 1)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_one_sergeant_fires_one_plasma_pistol_profile(edition: str) -> None:
    """Only the Tactical Sergeant may take a plasma pistol (its choices, once): both profiles
    are two plasma pistols; it made 2 shots."""
    std, sup = ("standard", "supercharge") if edition == "10" else ("Standard", "Supercharge")
    code, out = run(
        "shoot", "tactical squad", edition, f"Plasma pistol – {sup}", f"Plasma pistol – {std}"
    )
    assert code == 1
    assert (
        "a model attacks with one profile of each weapon it carries: Plasma pistol – "
        f"{sup} x1 and Plasma pistol – {std} x1 are Plasma pistol x2; the largest (10 models) "
        "can carry only 1 of Plasma pistol (Tactical Sergeant ×1)"
    ) in out, out
    assert groups("tactical squad", edition, (f"Plasma pistol – {sup}", 1)) == [
        ("Tactical Sergeant", 1, [f"Plasma pistol – {sup}"])
    ]


# ---------------------------------------------------------------------------------------------
# Pistols or the other ranged weapons


@pytest.mark.parametrize("edition", EDITIONS)
def test_ten_models_do_not_shoot_pistols_and_boltguns(edition: str) -> None:
    """10 bolt pistols and 10 boltguns from 10 models were 30 attacks: each model shoots its
    bolt pistol or its boltgun."""
    why = refused("tactical squad", edition, ("Bolt pistol", 10), ("Boltgun", 10))
    assert why == (
        "--weapon: a model shoots its Pistols or its other ranged weapons, not both (not a "
        "MONSTER or VEHICLE): this unit of 10 models can shoot only 10 of Bolt pistol and "
        "Boltgun at once (Tactical Marine ×9, Tactical Sergeant ×1); Bolt pistol x10 and "
        "Boltgun x10 need 20"
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_one_pistol_and_nine_boltguns_by_hand(edition: str) -> None:
    """1 bolt pistol (A1) and 9 boltguns (A2), BS3+, S4 against the Boyz' T5 (5+ to wound),
    AP0 against Sv5+ (2 in 3 fail), D1: attacks 1 + 18 = 19, hits 19·2/3, wounds 19·2/9,
    failed saves 19·4/27."""
    res = CliRunner().invoke(
        app,
        [
            *("shoot", "tactical squad", "-t", "boyz", "--edition", edition, "--json"),
            *("--weapon", "Bolt pistol x1", "--weapon", "Boltgun x9"),
        ],
    )
    assert res.exit_code == 0, res.output
    exp = json.loads(res.output)["expected"]
    assert exp["attacks"] == pytest.approx(19)
    assert exp["hits"] == pytest.approx(19 * 2 / 3)
    assert exp["wounds"] == pytest.approx(19 * 2 / 9)
    assert exp["failed_saves"] == pytest.approx(19 * 4 / 27)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_vehicle_fires_its_pistol_and_its_other_guns(edition: str) -> None:
    """Paragon Warsuits are VEHICLE models: each fires its bolt pistol, heavy bolter and storm
    bolters together (the Pistol rule exempts them)."""
    specs = (("Bolt pistol", 3), ("Heavy bolter", 3), ("Paragon storm bolters", 3))
    got = groups("paragon warsuits", edition, *specs)
    assert sum(c for _, c, _ in got) == 9 and {n for n, _, _ in got} == {
        "Paragon",
        "Paragon Superior",
    }
    code, out = run("shoot", "paragon warsuits", edition, *(f"{n} x{c}" for n, c in specs))
    assert code == 0, out


# ---------------------------------------------------------------------------------------------
# One melee weapon, besides [EXTRA ATTACKS] weapons


@pytest.mark.parametrize("edition", EDITIONS)
def test_eleven_melee_weapons_from_ten_models_refused(edition: str) -> None:
    """The Sergeant's power fist and 10 close combat weapons were 11 melee weapons from 10
    models; a power fist and 9 close combat weapons fight."""
    why = refused("tactical squad", edition, ("Power fist", 1), ("Close combat weapon", 10))
    assert why == (
        "--weapon: a model fights with one melee weapon, besides its [EXTRA ATTACKS] weapons: "
        "this unit of 10 models can fight with only 10 of Power fist and Close combat weapon "
        "at once (Tactical Marine ×9, Tactical Sergeant ×1); Power fist x1 and Close combat "
        "weapon x10 need 11"
    )
    code, out = run("fight", "tactical squad", edition, "Power fist", "Close combat weapon x9")
    assert code == 0, out
    got = groups("tactical squad", edition, ("Power fist", 1), ("Close combat weapon", 9))
    assert sorted(got) == [
        ("Tactical Marine", 9, ["Close combat weapon"]),
        ("Tactical Sergeant", 1, ["Power fist"]),
    ]


@pytest.mark.parametrize(
    ("edition", "other"), [("10", "Thunder hammer"), ("10", "Power weapon"), ("11", "Power weapon")]
)
def test_the_sergeant_swings_one_of_its_melee_weapons(edition: str, other: str) -> None:
    """Only the Sergeant may take a power fist and a thunder hammer (edition 10) or a power
    weapon: it carries two but fights with one. (Edition 11's datasheet offers the thunder
    hammer by no option, so any model may carry it: a Tactical Marine swings it then.)"""
    code, out = run("fight", "tactical squad", edition, "Power fist", other)
    assert code == 1
    assert (
        "a model fights with one melee weapon, besides its [EXTRA ATTACKS] weapons: the "
        f"largest (10 models) can fight with only 1 of Power fist and {other} at once "
        f"(Tactical Sergeant ×1); Power fist x1 and {other} x1 need 2"
    ) in out, out


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_power_fist_and_a_thunder_hammer_are_the_sergeants_alone(edition: str) -> None:
    """Both editions: the thunder hammer is one of the Sergeant's two different weapons (edition
    11's list read to its last item since its footnote is split off; before, no option listed
    it there and a Tactical Marine took it), as is the power fist: he carries both but fights
    with one, so the two never fight together."""
    ds = CAT.find("tactical squad", edition=edition)
    with pytest.raises(SelectionError, match="a model fights with one melee weapon"):
        build_unit(
            UnitChoice(ds, None, None, (("Power fist", 1), ("Thunder hammer", 1))),
            "attacker",
            edition,
        )
    counts = {"Tactical Marine": 9, "Tactical Sergeant": 1}
    both = {"powerfist": 1, "thunderhammer": 1}
    assert assign(ds, counts, both, 10, counting=CARRYING) is not None


def test_extra_attacks_weapons_fight_beside_the_chosen_one() -> None:
    """A Brotherhood Techmarine fights with its Omnissian power axe, its servo-arms and one
    profile of its plasma cutter (both [EXTRA ATTACKS] in our data); not both profiles."""
    code, out = run(
        "fight",
        "brotherhood techmarine",
        "10",
        *("Omnissian power axe", "Servo-arms", "Plasma cutter – supercharge"),
    )
    assert code == 0, out
    code, out = run(
        "fight",
        "brotherhood techmarine",
        "10",
        *("Plasma cutter – standard", "Plasma cutter – supercharge"),
    )
    assert code == 1
    assert "a model attacks with one profile of each weapon it carries" in out, out
    assert "Plasma cutter x2" in out and "can carry only 1 of Plasma cutter" in out, out


# ---------------------------------------------------------------------------------------------
# Army lists count carried weapons, once a weapon


def test_an_army_list_counts_a_plasma_pistol_once(tmp_path: Path) -> None:
    """2 plasma pistols on Blood Claws' Blood Claws (only the Pack Leader may take one): the
    warning counted each profile ("2 of Plasma pistol – standard and Plasma pistol –
    supercharge ... need 4"); a plasma pistol is one weapon. A bolt pistol beside a chainsword
    is carried, not refused."""
    text = (
        "Pack (135 Points)\n\nSpace Marines\nSpace Wolves\nChampions of Fenris\n"
        "Strike Force (2,000 Points)\n\nBATTLELINE\n\nBlood Claws (135 Points)\n"
        "  • 1x Blood Claw Pack Leader\n     ◦ 1x Astartes chainsword\n     ◦ 1x Bolt pistol\n"
        "  • 9x Blood Claw\n     ◦ 9x Astartes chainsword\n     ◦ 7x Bolt pistol\n"
        "     ◦ 2x Plasma pistol\n"
    )
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(app, ["army", str(path), "-t", "boyz"])
    out = " ".join(res.output.split())
    assert res.exit_code == 0, out
    assert (
        "Blood Claws is over our data's wargear limits: this unit of 10 models can carry only "
        "1 of Plasma pistol (Blood Claw Pack Leader ×1); Plasma pistol x2 needs 2"
    ) in out, out
    assert "supercharge x2" not in out


# ---------------------------------------------------------------------------------------------
# The search against brute force

SYNTHETIC = """name: Testers
faction: Testers
models:
  - {name: Trooper, M: 6, T: 4, Sv: 4, W: 1, Ld: 7, OC: 1,
     equipped: [pistol, rifle, knife]}
  - {name: Sergeant, M: 6, T: 4, Sv: 4, W: 1, Ld: 7, OC: 1,
     equipped: [pistol, rifle, knife, claw]}
sizes:
  - {models: {Trooper: 3, Sergeant: 1}, points: 50}
weapons:
  - {name: Pistol, range: 12, A: 1, skill: 4, S: 4, AP: 0, D: 1, abilities: [pistol]}
  - {name: Rifle, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Gun – low, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1, profile_of: Gun}
  - {name: Gun – high, range: 24, A: 1, skill: 4, S: 5, AP: 0, D: 1, profile_of: Gun}
  - {name: Knife, range: melee, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Axe, range: melee, A: 1, skill: 4, S: 5, AP: 0, D: 1}
  - {name: Claw, range: melee, A: 1, skill: 4, S: 5, AP: 0, D: 1, abilities: [extra attacks]}
loadouts:
  guns:
    - {model: Trooper, count: 2, equipped: [pistol, gun – low, gun – high, knife]}
  axe:
    - {model: Sergeant, count: 1, equipped: [pistol, rifle, axe, knife, claw]}
"""
PROFILE_OF = {"gunlow": "gun", "gunhigh": "gun"}
PISTOLS = {"pistol"}
MAIN_MELEE = {"knife", "axe"}


def _legal(uses: dict[str, int], carried: tuple[str, ...]) -> bool:
    """Whether one (non-MONSTER/VEHICLE) model carrying ``carried`` may attack with ``uses``,
    by the rules text, checked directly: every use carried; at most as many uses of a
    weapon's profiles as copies of it; Pistols or the other ranged weapons; at most one main
    melee weapon."""
    copies: dict[str, int] = {}
    for k in carried:
        copies[k] = copies.get(k, 0) + 1
    per_weapon: dict[str, int] = {}
    for k, n in uses.items():
        if not n:
            continue
        if copies.get(k, 0) == 0:
            return False
        w = PROFILE_OF.get(k, k)
        per_weapon[w] = per_weapon.get(w, 0) + n
    guns = {PROFILE_OF.get(k, k) for k in carried}
    held = {w: max(copies[k] for k in copies if PROFILE_OF.get(k, k) == w) for w in guns}
    if any(n > held[w] for w, n in per_weapon.items()):
        return False
    ranged = {k for k, n in uses.items() if n and k not in MAIN_MELEE | {"claw"}}
    if ranged & PISTOLS and ranged - PISTOLS:
        return False
    return sum(1 for k, n in uses.items() if n and k in MAIN_MELEE) <= 1


def _brute_force(ds: Datasheet, need: dict[str, int]) -> bool:
    """Every way to give each of the 4 models an equipment option (within the loadouts'
    counts) and a set of at most one use of each named key (no model carries two copies of
    anything here) the rules allow (:func:`_legal`), model after model: the states reached
    are what the models so far cover of each need and how many took each loadout."""
    options = {
        "Trooper": [(ds.models[0].equipped, None)]
        + [(tuple(e.equipped), e.count) for e in ds.loadouts["guns"]],
        "Sergeant": [(ds.models[1].equipped, None)]
        + [(tuple(e.equipped), e.count) for e in ds.loadouts["axe"]],
    }
    keys = list(need)
    subsets = [
        dict(zip(keys, bits, strict=True)) for bits in itertools.product((0, 1), repeat=len(keys))
    ]
    legal = {
        m: [[s for s in subsets if _legal(s, kit)] for kit, _ in opts]
        for m, opts in options.items()
    }
    states = {(tuple(0 for _ in keys), ())}
    for m in ["Trooper"] * 3 + ["Sergeant"]:
        reached = set()
        for covered, used in states:
            for oi, (_, cap) in enumerate(options[m]):
                n_used = sum(1 for u in used if u == (m, oi))
                if cap is not None and n_used >= cap:
                    continue
                for s in legal[m][oi]:
                    more = tuple(min(need[k], c + s[k]) for k, c in zip(keys, covered, strict=True))
                    reached.add((more, tuple(sorted((*used, (m, oi))))))
        states = reached
    return any(
        all(c >= need[k] for k, c in zip(keys, covered, strict=True)) for covered, _ in states
    )


def test_search_agrees_with_brute_force(tmp_path: Path) -> None:
    """Every request naming up to 3 of pistol, rifle, both gun profiles, knife, axe and claw
    (a few of each): the search accepts exactly what the brute force finds."""
    path = tmp_path / "testers.yaml"
    path.write_text(SYNTHETIC, encoding="utf-8")
    ds = load_datasheet(path)
    counts = {"Trooper": 3, "Sergeant": 1}
    keys = ["pistol", "rifle", "gunlow", "gunhigh", "knife", "axe", "claw"]
    ranges = [range(4), range(4), range(3), range(3), range(5), range(2), range(2)]
    checked = accepted = 0
    for values in itertools.product(*ranges):
        need = {k: n for k, n in zip(keys, values, strict=True) if n}
        if not need or len(need) > 3:
            continue
        got = assign(ds, counts, need, 4)
        assert (got is not None) == _brute_force(ds, need), need
        if got is not None:
            accepted += 1
            for k, n in need.items():
                assert sum(models * each for _, models, each in got[k]) == n
        checked += 1
    assert checked > 300 and 0 < accepted < checked


def test_carrying_counts_a_weapon_once(tmp_path: Path) -> None:
    """Carried, a weapon of two profiles is one weapon (key ``gun``): 2 Troopers carry 2."""
    path = tmp_path / "testers.yaml"
    path.write_text(SYNTHETIC, encoding="utf-8")
    ds = load_datasheet(path)
    counts = {"Trooper": 3, "Sergeant": 1}
    assert assign(ds, counts, {"gun": 2, "pistol": 4, "rifle": 2}, 4, counting=CARRYING)
    assert assign(ds, counts, {"gun": 3}, 4, counting=CARRYING) is None

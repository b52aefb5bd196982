"""The importer of the game-datacards edition-11 format (importers/gdc*.py) on small faction
files written here, in the shape the data README describes: names and keywords as typed
(non-breaking hyphens), weapon keywords in the edition's forms kept as ability strings, weapons
with several profiles, the core abilities Damaged X, Feel No Pain X+ and Stealth, invulnerable
saves against ranged or melee attacks only, damage reduction, Leader and Support attachments,
points per size and the additional cost, Legends datasheets, refusals with the reason, and a
deterministic output. Needs nothing outside the repository.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from wh40k_calc.datasheet import load_datasheet
from wh40k_calc.importers.export import ImportFailure
from wh40k_calc.importers.generate_gdc import generate_gdc

NB = "\u2011"  # a non-breaking hyphen, as the data types some names


def en(text: str) -> dict:
    return {"en": text}


def profile(name: str, rng: str = "Melee", *, a="2", skill="3+", s="4", ap="0", d="1", kw=()):
    return {
        "name": en(name),
        "range": rng,
        "attacks": a,
        "skill": skill,
        "strength": s,
        "ap": ap,
        "damage": d,
        "keywords": list(kw),
    }


def stat(name: str, w: str = "1", **kw: str) -> dict:
    return {
        "name": en(name),
        "m": '6"',
        "t": kw.get("t", "5"),
        "sv": kw.get("sv", "5+"),
        "w": w,
        "ld": "7+",
        "oc": kw.get("oc", "2"),
    }


def sheet(name: str, **fields) -> dict:
    base = {
        "name": en(name),
        "factions": ["Orks"],
        "keywords": [en("Infantry")],
        "stats": [stat(name)],
        "rangedWeapons": [],
        "meleeWeapons": [{"profiles": [profile("Choppa")]}],
        "abilities": {},
        "composition": [en(f"**1 {name}**")],
        "loadout": en("**This model is equipped with:** choppa."),
        "points": [{"cost": "50", "models": "1", "keyword": None, "detachment": None}],
    }
    base.update(fields)
    return base


def faction_file(*sheets: dict, name: str = "Orks", version: int = 999) -> dict:
    return {
        "name": en(name),
        "source": "40k-11e",
        "compatibleDataVersion": version,
        "updated": "2026-08-01T10:00:00.000Z",
        "datasheets": list(sheets),
    }


def generate(tmp_path: Path, *sheets: dict, **kw):
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / "orks.json").write_text(json.dumps(faction_file(*sheets, **kw)), encoding="utf-8")
    out = tmp_path / "out"
    report = generate_gdc(src, out)
    return report, out


def load(out: Path, name: str):
    path = out / "orks" / f"{name}.yaml"
    return load_datasheet(path), yaml.safe_load(path.read_text(encoding="utf-8"))


def test_weapon_keywords_in_the_edition_s_forms_are_kept(tmp_path: Path) -> None:
    gun = profile(
        f"Kombi{NB}shoota",
        '24"',
        kw=[
            "LETHAL HITS: non-MONSTER/VEHICLE",
            "ANTI-MONSTER/VEHICLE 4+",
            "BLAST 2",
            f"CLOSE{NB}QUARTERS",
            "Rapid Fire D3",
            "Snagged",
        ],
    )
    axe = profile("Axe", kw=["CLEAVE 1", "DEVASTATING WOUNDS: MONSTER/VEHICLE"])
    unit = sheet(
        "Gunz",
        rangedWeapons=[{"profiles": [gun]}],
        meleeWeapons=[{"profiles": [axe]}],
        loadout=en(f"**This model is equipped with:** kombi{NB}shoota; axe."),
    )
    report, out = generate(tmp_path, unit)
    ds, raw = load(out, "gunz")
    assert raw["weapons"][0]["name"] == "Kombi-shoota"  # hyphens as typed
    assert raw["weapons"][0]["abilities"] == [
        "lethal hits: non-monster/vehicle",
        "anti-monster/vehicle 4+",
        "blast 2",
        "close-quarters",
        "rapid fire d3",
        "snagged",
    ]
    w = ds.weapon("kombi-shoota")
    assert w.abilities.blast == 2 and w.abilities.pistol  # [CLOSE-QUARTERS] is [PISTOL]
    assert str(w.abilities.rapid_fire) == "D3"
    # the target-conditional forms are held until the target is known (24.01); a datasheet
    # rule is kept and reported as not modelled
    assert w.abilities.unmodelled == ("snagged",)
    assert w.abilities.conditional == (("lethal hits", "NON-MONSTER/VEHICLE"),)
    assert not w.abilities.lethal_hits and w.abilities.anti == (("MONSTER/VEHICLE", 4),)
    axe_w = ds.weapon("axe")
    assert axe_w.abilities.cleave == 1
    assert axe_w.abilities.unmodelled == ()
    assert axe_w.abilities.conditional == (("devastating wounds", "MONSTER/VEHICLE"),)
    assert ds.models[0].equipped == ("kombishoota", "axe")
    assert report.refused == []


def test_a_weapon_of_several_profiles_is_one_weapon(tmp_path: Path) -> None:
    unit = sheet(
        "Snaggas",
        meleeWeapons=[
            {
                "profiles": [
                    profile("Choppa \u2013 Standard", a="3"),
                    profile("Choppa \u2013 Hunter", a="2", s="6"),
                ]
            }
        ],
    )
    _, out = generate(tmp_path, unit)
    ds, _ = load(out, "snaggas")
    assert [(w.name, w.profile_of) for w in ds.weapons] == [
        ("Choppa \u2013 Standard", "Choppa"),
        ("Choppa \u2013 Hunter", "Choppa"),
    ]
    assert ds.models[0].equipped == ("choppastandard", "choppahunter")  # 'choppa': both profiles


def test_statlines_points_and_the_additional_cost(tmp_path: Path) -> None:
    unit = sheet(
        "Boyz",
        stats=[stat("Boy"), stat("Boss Nob", w="2")],
        composition=[en("**1 Boss Nob**"), en(f"**9{NB}19 Boyz**")],
        loadout=en(
            "**The Boss Nob is equipped with:** choppa.\n**Every Boy is equipped with:** choppa."
        ),
        points=[
            {"cost": "160", "models": "20", "keyword": None, "detachment": None},
            {"cost": "75", "models": "10", "keyword": None, "detachment": None},
            {"cost": "90", "models": "10", "keyword": en("Imperium"), "detachment": None},
        ],
        additionalCost={"cost": "10", "afterSelections": 3},
    )
    _, out = generate(tmp_path, unit)
    ds, _ = load(out, "boyz")
    assert [m.name for m in ds.models] == ["Boy", "Boss Nob"]  # rank-and-file first
    assert [(m.T, m.Sv, m.W) for m in ds.models] == [(5, 5, 1), (5, 5, 2)]
    assert [(s.total, s.points) for s in ds.sizes] == [(10, 75), (20, 160)]
    assert ds.sizes[0].composition == (("Boy", 9), ("Boss Nob", 1))
    assert [(s.label, s.points) for s in ds.dropped_sizes] == [("Imperium (keyword)", 90)]
    assert (ds.additional_cost.points, ds.additional_cost.after) == (10, 3)


def test_core_abilities_and_defences(tmp_path: Path) -> None:
    abilities = {
        "core": [
            {"name": en("Feel No Pain 5+")},
            {"name": en("Stealth")},
            {"name": en("Damaged 4")},
            {"name": en("Deep Strike")},
        ],
        "other": [
            {
                "name": en("Tough"),
                "description": en(
                    "Each time an attack is allocated to this model, subtract 1 from the Damage "
                    "characteristic of that attack."
                ),
            }
        ],
        "invul": {"value": None, "info": en("*4+ against melee attacks only*")},
    }
    _, out = generate(tmp_path, sheet("Brute", abilities=abilities, stats=[stat("Brute", w="9")]))
    ds, _ = load(out, "brute")
    m = ds.models[0]
    assert (m.feel_no_pain, m.stealth, m.damage_reduction) == (5, True, 1)
    assert (m.invuln, m.invuln_melee_only, m.invuln_ranged_only) == (4, True, False)
    assert (ds.damaged.wounds_left, ds.damaged.hit_mod) == (4, -1)  # 24.39 Damaged X
    assert ds.not_modelled_target == () and ds.not_modelled_attacker == ()


@pytest.mark.parametrize(
    ("invul", "want"),
    [
        ({"value": "5+"}, (5, False, False, None)),
        ({"value": "5+", "info": en("*Against ranged attacks only*")}, (5, True, False, None)),
        ({"value": "4+", "info": en("*Against melee attacks only*")}, (4, False, True, None)),
        # a better save against melee attacks besides the general one (Howling Banshees)
        ({"value": "6+", "info": en("*4+ against melee attacks only*")}, (6, False, False, 4)),
    ],
)
def test_invulnerable_saves_and_their_notes(tmp_path: Path, invul, want) -> None:
    _, out = generate(tmp_path, sheet("Wagon", abilities={"invul": invul}))
    ds, _ = load(out, "wagon")
    m = ds.models[0]
    assert (m.invuln, m.invuln_ranged_only, m.invuln_melee_only, m.invuln_melee) == want
    assert ds.not_modelled_target == ()


def test_an_ability_s_insv_in_the_edition_s_words(tmp_path: Path) -> None:
    abilities = {
        "other": [{"name": en("Banner"), "description": en("▪ This unit has a 5+ **InSv**.")}]
    }
    _, out = generate(tmp_path, sheet("Nob", abilities=abilities))
    assert load(out, "nob")[0].models[0].invuln == 5


def test_the_damaged_profile_with_its_range(tmp_path: Path) -> None:
    damaged = {
        "range": en(f"1{NB}5 WOUNDS REMAINING"),
        "description": en(
            "While this model has 1-5 wounds remaining, each time this model makes an attack, "
            "subtract 1 from the Hit roll."
        ),
    }
    _, out = generate(tmp_path, sheet("Wagon", abilities={"damaged": damaged}))
    ds, _ = load(out, "wagon")
    assert (ds.damaged.wounds_left, ds.damaged.hit_mod) == (5, -1)


def test_leader_and_support_name_the_units_as_their_datasheets_do(tmp_path: Path) -> None:
    boss = sheet(
        "Warboss",
        leader=en("This model can be attached to the following units:  ■ **BOYZ** ■ **BIG’UNS**"),
    )
    banner = sheet(
        "Bannernob",
        abilities={
            "special": [
                {
                    "name": en("Support"),
                    "description": en(
                        "This model can be attached to the following units:\n\n"
                        "■ **BOYZ**\n■ **NOBZ**"
                    ),
                }
            ]
        },
    )
    _, out = generate(tmp_path, boss, banner, sheet("Boyz"), sheet("Big’uns"))
    assert load(out, "warboss")[0].leader_of == ("Boyz", "Big’uns")
    assert load(out, "bannernob")[0].support_of == ("Boyz", "Nobz")  # Nobz: no datasheet here


def test_legends_datasheets_are_kept_and_marked(tmp_path: Path) -> None:
    old = sheet("Boyz", legends=True)
    report, out = generate(tmp_path, sheet("Boyz"), old)
    assert sorted(e["name"] for e in report.index) == ["Boyz", "Boyz (Legends)"]
    assert [e.get("legends", False) for e in report.index] == [False, True]
    ds = load_datasheet(out / "orks" / "boyz-legends.yaml")
    assert ds.legends and ds.name == "Boyz (Legends)"


def test_a_datasheet_that_cannot_be_generated_is_listed_with_the_reason(tmp_path: Path) -> None:
    report, out = generate(tmp_path, sheet("Boyz"), sheet("Ghosts", stats=[]))
    assert report.generated == 1
    assert [(r.file, r.name) for r in report.refused] == [("orks.json", "Ghosts")]
    assert "no model statline" in report.refused[0].reason
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert index["refused"][0]["name"] == "Ghosts"


def test_the_index_says_where_each_faction_comes_from(tmp_path: Path) -> None:
    _, out = generate(tmp_path, sheet("Boyz"), version=946)
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert index["files"] == [
        {
            "file": "orks.json",
            "faction": "Orks",
            "data_faction": "Orks",
            "parent": None,
            "version": 946,
            "date": "2026-08-01",
            "count": 1,
        }
    ]
    ds, raw = load(out, "boyz")
    assert raw["data"] == {"source": "game-datacards", "version": 946, "date": "2026-08-01"}
    assert ds.editions == ("11",)


def test_the_output_is_deterministic(tmp_path: Path) -> None:
    units = [sheet("Boyz"), sheet("Nobz"), sheet("Gretchin")]
    first, _ = generate(tmp_path, *units)
    again, _ = generate(tmp_path, *copy.deepcopy(units))
    assert first.files == again.files and first.index_text() == again.index_text()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a JSON file"),
        (
            json.dumps({"name": en("Orks"), "source": "40k-10e", "datasheets": []}),
            "not a faction file of the 11th edition",
        ),
        (
            json.dumps({"name": en("Orks"), "source": "40k-11e", "datasheets": []}),
            "no data version",
        ),
    ],
)
def test_faction_files_that_are_not_refused_with_the_reason(tmp_path: Path, content, message):
    src = tmp_path / "src"
    src.mkdir()
    (src / "orks.json").write_text(content, encoding="utf-8")
    with pytest.raises(ImportFailure, match=message):
        generate_gdc(src)


def test_a_folder_without_faction_files_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ImportFailure, match="no faction file"):
        generate_gdc(tmp_path)
    with pytest.raises(ImportFailure, match="does not exist"):
        generate_gdc(tmp_path / "missing")

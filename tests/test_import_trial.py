"""Datasheet import faults a fresh-user trial found, on the real July 2025 export in
../shared/data (skipped where it is absent) and on the shipped generated files.

Every expected value was read by hand from the export's rows (Datasheets_models.csv,
Datasheets_unit_composition.csv, Datasheets_models_cost.csv, the loadout and leader footer
columns of Datasheets.csv); the facts are quoted in the comments, not the prose.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from helpers import cli as calc
from helpers import cli_json as as_json

from wh40k_calc.catalog import GENERATED, Catalog
from wh40k_calc.datasheet import Datasheet, parse_datasheet
from wh40k_calc.importers.composition import entries, split_outside_brackets
from wh40k_calc.importers.leaders import leader_alongside
from wh40k_calc.importers.wahapedia import import_unit
from wh40k_calc.selection import SelectionError, UnitChoice
from wh40k_calc.units import build_unit

CSV_DIR = Path(__file__).resolve().parents[2] / "shared/data/wahapedia-10e-2025-07"
real = pytest.mark.skipif(
    not (CSV_DIR / "Datasheets.csv").is_file(), reason=f"the export is not here: {CSV_DIR}"
)
GENERATED_FILES = sorted(p for p in GENERATED.rglob("*.yaml") if p.parent.name != "unit-rules")


def imported(name: str, faction: str | None = None) -> tuple[Datasheet, dict, list[str]]:
    data, warnings = import_unit(CSV_DIR, name, faction)
    return parse_datasheet(data, f"<{name}>"), data, warnings


def weapon_counts(sheet: Datasheet, models: int | None = None, loadout: str | None = None):
    """Weapon name -> how many models of the built unit carry it."""
    unit = build_unit(UnitChoice(sheet, models, loadout), "attacker")
    out: Counter[str] = Counter()
    for g in unit.groups:
        for w in dict.fromkeys(x.profile_of or x.name for x in g.weapons):
            out[w] += g.count
    return out


# ---------------------------------------------------------------------------------------------
# 1. Several statlines in one datasheet; equipment for some models only


@real
@pytest.mark.parametrize("faction", ["AM", "GC"])
def test_hells_last_has_a_profile_per_statline_and_one_meltagun(faction: str) -> None:
    # statline rows: MINKA LESK W3, LESK'S VETERANS W2; composition: 1 Minka Lesk, 4 Lesk's
    # Heroes; loadout: Minka Lesk bolt pistol + power weapon; 1 Hero demolitions + meltagun +
    # close combat weapon; 1 Hero hot-shot laspistol + dirk; 1 Hero bolt pistol + power
    # weapon; 1 Hero power weapon + regimental banner
    sheet, _, warnings = imported("Hell’s Last", faction)
    hero, minka = sheet.model("Lesk’s Hero"), sheet.model("Minka Lesk")
    assert (hero.W, minka.W) == (2, 3)
    assert sum(m.W * n for m, n in zip((hero, minka), (4, 1), strict=True)) == 11
    assert weapon_counts(sheet) == {
        "Demolitions": 1,
        "Meltagun": 1,
        "Close combat weapon": 1,
        "Hot-shot laspistol": 1,
        "Dirk": 1,
        "Bolt pistol": 2,
        "Power weapon": 3,
    }
    assert any("Lesk’s Veterans" in w and "Lesk’s Hero" in w for w in warnings), warnings


def test_the_shipped_hells_last_has_11_wounds_and_one_meltagun() -> None:
    # the trial: `calc show "astra militarum/hell's last"` showed 15 wounds and 4 meltaguns
    out = as_json("shoot", "astra militarum/hell's last", "--target", "boyz")
    assert {w["name"]: w["count"] for w in out["weapons"]}["Meltagun"] == 1
    target = as_json("shoot", "boyz", "--target", "astra militarum/hell's last")["target"]
    assert target["wounds"] == 11


@real
@pytest.mark.parametrize(
    ("name", "faction", "model", "wounds"),
    [
        # statline row "FARSTALKERS & KILL-BROKER" (W1) is for both models it names
        ("Kroot Farstalkers", None, "Kroot Kill-broker", 1),
        # row "COMBAT SERVITORS AND GUN SERVITORS" (W1); the Underseer's own row W2
        ("Servitor Battleclade", None, "Gun Servitor", 1),
        ("Servitor Battleclade", None, "Servitor Underseer", 2),
        # "KILL TEAM TERMINATOR" W3, composition "1 Kill Team Terminator (Garran Branatar)"
        ("Kill Team Cassius", "SM", "Kill Team Terminator", 3),
    ],
)
def test_a_statline_row_for_several_models(name, faction, model, wounds) -> None:
    sheet, _, warnings = imported(name, faction)
    got = sheet.model(model).W
    assert got == wounds
    assert not any("not in the unit composition" in x or "no statline" in x for x in warnings)


@real
@pytest.mark.parametrize(
    ("name", "faction", "model", "equipped", "some"),
    [
        # "2 Havocs are equipped with: Havoc autocannon; close combat weapon" and "2 Havocs
        # ...: Havoc lascannon; close combat weapon" (composition: 4 Havocs)
        (
            "Havocs",
            "CSM",
            "Havoc",
            ["Havoc autocannon", "Close combat weapon"],
            [(2, ["Havoc lascannon", "Close combat weapon"])],
        ),
        # "3 Raveners ...: Ravener heavy claws and talons"; "1 Ravener ...: venom bolt; ..."
        (
            "Hyperadapted Raveners",
            "TYR",
            "Ravener",
            ["Ravener heavy claws and talons"],
            [(1, ["Venom bolt", "Ravener heavy claws and talons"])],
        ),
        # "One Navis Armsman ...: Navis las-volley", "One other ...: Navis heavy shotgun",
        # "Every other model ...: Navis shotgun; close combat weapon"
        (
            "Imperial Navy Breachers",
            None,
            "Navis Armsman",
            ["Navis shotgun", "Close combat weapon"],
            [
                (1, ["Navis las-volley", "Close combat weapon"]),
                (1, ["Navis heavy shotgun", "Close combat weapon"]),
            ],
        ),
    ],
)
def test_equipment_for_some_models_is_kept_per_count(name, faction, model, equipped, some):
    _, data, _ = imported(name, faction)
    row = next(m for m in data["models"] if m["name"] == model)
    assert row["equipped"] == equipped
    assert [(e["count"], e["equipped"]) for e in row["equipped_by_count"]] == some


@real
def test_the_bearer_only_wargear_of_one_model_is_listed_not_given_to_all() -> None:
    # Breachers: "Endurant Shield: the bearer has a 4+ invulnerable save", carried by one
    # Navis Armsman of nine: no model kind gets the 4+
    sheet, data, _ = imported("Imperial Navy Breachers")
    assert {m.invuln for m in sheet.models} == {None}
    assert "Endurant Shield (some models only)" in data["not_modelled"]["target"]


@real
def test_an_option_for_a_model_with_its_own_equipment_replaces_that_equipment() -> None:
    # Krieg Command Squad (AM): the Lord Commissar with laspistol + power weapon; 5 Veteran
    # Guardsmen, one each with laspistol + chainsword, laspistol + close combat weapon, lasgun
    # + ccw (twice) and boltgun + ccw; option "1 Veteran Guardsman's boltgun can be replaced
    # with ... 1 plasma gun"
    sheet, _, _ = imported("Krieg Command Squad", "AM")
    default = weapon_counts(sheet)
    assert (default["Lasgun"], default["Laspistol"], default["Boltgun"]) == (2, 3, 1)
    plasma = weapon_counts(sheet, loadout="plasma-gun")
    assert (plasma["Lasgun"], plasma["Laspistol"], plasma["Boltgun"]) == (2, 3, 0)
    assert plasma["Plasma gun"] == 1 and plasma["Chainsword"] == 1


def test_no_shipped_file_gives_one_models_equipment_to_all() -> None:
    # the importer's old notes for this fault: "imported as every X's equipment", "not
    # imported (add a loadout by hand)", "no statline named X; used Y" for a row named after
    # no model (the Bike Squad's sergeant, on the first row "Space Marine Bike", is right)
    bad = re.compile(r"imported as every|add a loadout by hand|no statline named (?!'Biker S)")
    found = [p.name for p in GENERATED_FILES if bad.search(p.read_text(encoding="utf-8"))]
    assert found == []


# ---------------------------------------------------------------------------------------------
# 2. Composition text with brackets


def test_composition_is_not_split_inside_brackets() -> None:
    text = "1 Big Wall (2 tall towers and 1 gate), 3 Guards and 1 Captain (Sir Nobody)"
    assert split_outside_brackets(text) == [
        "1 Big Wall (2 tall towers and 1 gate)",
        "3 Guards",
        "1 Captain (Sir Nobody)",
    ]
    assert [(e.name, e.low, e.high, e.parts) for e in entries(text)] == [
        ("Big Wall", 1, 1, (("tall tower", 2), ("gate", 1))),
        ("Guard", 3, 3, ()),
        ("Captain", 1, 1, ()),
    ]


@real
@pytest.mark.parametrize(
    ("name", "model", "w", "equipped"),
    [
        # "1 Aegis Defence Line with Weapon Emplacement (4 large shield sections, 4 small
        # shield sections and 1 gun emplacement)", W10, "This unit is equipped with: quad-gun"
        (
            "Aegis Defence Line With Weapon Emplacement",
            "Aegis Defence Line with Weapon Emplacement",
            10,
            ["Quad-gun"],
        ),
        # "1 Imperial Fortress Walls (1 gate section, 2 gate tower sections, 2 tower sections
        # and 2 wall sections)", W80; every gate tower section: twin heavy bolter; every tower
        # section: twin long-barrelled autocannon
        (
            "Imperial Fortress Walls",
            "Imperial Fortress Walls",
            80,
            ["Twin heavy bolter"] * 2 + ["Twin long-barrelled autocannon"] * 2,
        ),
    ],
)
def test_a_fortification_with_sections_is_one_model(name, model, w, equipped) -> None:
    sheet, data, _ = imported(name)
    assert [(m.name, m.W) for m in sheet.models] == [(model, w)]
    assert [dict(s.composition) for s in sheet.sizes] == [{model: 1}]
    assert data["models"][0]["equipped"] == equipped


@real
def test_each_row_after_one_of_the_following_is_an_alternative() -> None:
    # Death Korps Grenadier Squad: rows "One of the following:", "1 Grenadier Sergeant and 9
    # Grenadiers", "1 Grenadier Sergeant, 7 Grenadiers and 1 Heavy Weapons Team"; cost row
    # "10 models" 110 (the second alternative lists 9 models: no cost row has that count)
    sheet, _, warnings = imported("Death Korps Grenadier Squad", "AM")
    assert [(dict(s.composition), s.points) for s in sheet.sizes] == [
        ({"Grenadier": 9, "Grenadier Sergeant": 1}, 110)
    ]
    assert any("Heavy Weapons Team matches no cost row" in w for w in warnings), warnings


def test_no_shipped_model_name_holds_a_bracket() -> None:
    names = re.compile(r"^  - name: .*[()]", re.MULTILINE)
    assert [p.name for p in GENERATED_FILES if names.search(p.read_text("utf-8"))] == []


# ---------------------------------------------------------------------------------------------
# 3. Two sizes with one model count


def test_the_dropped_composition_is_shown_and_noted() -> None:
    # Wolf Guard Headtakers: "3 Wolf Guard Headtakers and 3 Hunting Wolves" 110 is kept,
    # "6 Wolf Guard Headtakers" 170 is dropped (both 6 models)
    shown = as_json("show", "wolf guard headtakers")
    assert shown["dropped_sizes"] == [{"models": {"Wolf Guard Headtaker": 6}, "points": 170}]
    text = calc("show", "wolf guard headtakers").output
    assert re.search(r"6 Wolf Guard Headtaker — not\s+selectable", text), text
    out = as_json("fight", "wolf guard headtakers", "--models", "6", "--target", "boyz")
    note = next(n for n in out["notes"] if "not selectable" in n)
    assert "3 Wolf Guard Headtaker, 3 Hunting Wolf (110 pts)" in note
    assert "6 Wolf Guard Headtaker (170 pts)" in note
    assert out["attacker"]["points"] == 110
    # as a target too; and no note for a model count with one size
    out = as_json("fight", "boyz", "--target", "wolf guard headtakers", "--target-models", "6")
    assert any("6 Wolf Guard Headtaker (170 pts)" in n for n in out["notes"])
    out = as_json("fight", "wolf guard headtakers", "--models", "3", "--target", "boyz")
    assert not any("not selectable" in n for n in out["notes"])


# ---------------------------------------------------------------------------------------------
# 4. A Leader that may join another Leader


@real
@pytest.mark.parametrize(
    ("name", "faction", "alongside", "bodyguard"),
    [
        # footer names CAPTAIN and CHAPTER MASTER; any unit it can lead
        ("Lieutenant", "SM", ["CAPTAIN", "CHAPTER MASTER"], []),
        ("Sanguinary Priest", "SM", ["CAPTAIN", "CHAPTER MASTER", "LIEUTENANT"], []),
        # footer: a PLAGUE MARINES or POXWALKERS unit, "one other Leader unit"
        ("Noxious Blightbringer", None, ["CHARACTER"], ["PLAGUE MARINES", "POXWALKERS"]),
        # footer: a KASTELAN ROBOTS unit, other CYBERNETICA DATASMITH models
        ("Cybernetica Datasmith", None, ["CYBERNETICA DATASMITH"], ["KASTELAN ROBOTS"]),
        ("Captain", "SM", [], []),  # its footer makes no such exception
    ],
)
def test_leader_alongside_is_read_from_the_leader_footer(name, faction, alongside, bodyguard):
    sheet, _, _ = imported(name, faction)
    assert (list(sheet.leader_alongside), list(sheet.leader_alongside_bodyguard)) == (
        alongside,
        bodyguard,
    )


def test_42_shipped_datasheets_have_leader_alongside() -> None:
    # the export's leader footers with the exception ("even if one ... has already been
    # attached"): 42 datasheets
    has = [p for p in GENERATED_FILES if "\nleader_alongside:" in p.read_text(encoding="utf-8")]
    assert len(has) == 42


def test_the_footer_sentence_forms() -> None:
    # sentences written for the test in the footer's forms
    assert leader_alongside(
        "You can attach this model to one of the above units even if one ALPHA, BETA or "
        "GAMMA model has already been attached to it."
    ) == (["ALPHA", "BETA", "GAMMA"], [])
    assert leader_alongside(
        "You can attach this model to a FOOT SQUAD or BAR SQUAD unit, even if one other "
        "Leader unit has already been attached to it."
    ) == (["CHARACTER"], ["FOOT SQUAD", "BAR SQUAD"])
    assert leader_alongside("This model cannot be attached to a FOO unless it has a shield.") == (
        [],
        [],
    )


@pytest.mark.parametrize("edition", ["10", "11"])
def test_captain_and_lieutenant_lead_intercessors_together(edition: str) -> None:
    # Core rules, Leader: "Each Bodyguard unit can only have one Leader attached to it";
    # 24.22: "Unless otherwise stated, each bodyguard unit can only have one leader unit and one
    # support unit attached to it". The Lieutenant's datasheet states otherwise: it may join a
    # CAPTAIN. Rows: Intercessors W2 (10 models), Captain W5 80 pts, Lieutenant W4 65 pts. In
    # edition 11 (data 912) the Lieutenant is a Support character (24.34: one Leader and one
    # Support): 10 Intercessors 150 pts, Captain 80, Lieutenant 45; W 2, 5 and 4 as before.
    out = as_json(
        *("fight", "boyz", "--models", "20", "--target", "intercessor squad"),
        *("--target-models", "10", "--target-leader", "captain"),
        *("--target-leader", "lieutenant", "--edition", edition),
    )
    target = out["target"]
    assert (target["models"], target["wounds"]) == (12, 10 * 2 + 5 + 4)
    assert target["points"] == (160 + 80 + 65 if edition == "10" else 150 + 80 + 45)


@pytest.mark.parametrize(
    ("leaders", "reason"),
    [
        (["lieutenant", "lieutenant"], "Lieutenant cannot join another Lieutenant"),
        (["captain", "captain"], "Captain has no rule to join another Leader"),
    ],
)
def test_a_second_leader_without_the_rule_is_refused_with_the_reason(leaders, reason) -> None:
    args = ["fight", "boyz", "--target", "intercessor squad"]
    for lead in leaders:
        args += ["--target-leader", lead]
    result = calc(*args)
    assert result.exit_code == 1
    assert "can have 1 Leader attached, not 2" in result.output and reason in result.output


def test_a_leader_alongside_only_in_the_bodyguard_units_it_names(monkeypatch) -> None:
    # Foul Blightspawn: "one other Leader unit", in a PLAGUE MARINES unit; not itself twice
    monkeypatch.setenv("WH40K_CALC_FACTIONS", "Death Guard")
    base = ["shoot", "lootas", "--target", "plague marines", "--target-leader"]
    out = as_json(*base, "foul blightspawn", "--target-leader", "plague surgeon")
    assert out["target"]["name"] == "Plague Marines led by Foul Blightspawn and Plague Surgeon"
    result = calc(*base, "foul blightspawn", "--target-leader", "foul blightspawn")
    assert result.exit_code == 1 and "cannot join another Foul Blightspawn" in result.output


def test_the_exception_holds_only_in_the_bodyguard_units_it_names() -> None:
    # Imagifier: "can be attached to a BATTLE SISTERS SQUAD, even if one CANONESS, ..."; it
    # and the Canoness can both lead a Retributor Squad, but not together
    cat = Catalog()
    imagifier, canoness = cat.find("imagifier"), cat.find("adepta sororitas/canoness")
    sisters = cat.find("battle sisters squad")
    unit = build_unit(UnitChoice(sisters, None, None, (), (canoness, imagifier)), "target")
    assert unit.name == "Battle Sisters Squad led by Canoness and Imagifier"
    retributors = cat.find("retributor squad")
    with pytest.raises(SelectionError, match="only in a BATTLE SISTERS SQUAD unit"):
        build_unit(UnitChoice(retributors, None, None, (), (canoness, imagifier)), "target")


# ---------------------------------------------------------------------------------------------
# 5. calc import skips curated units


@real
def test_import_by_name_skips_a_curated_unit(tmp_path: Path) -> None:
    out = tmp_path / "user"
    result = calc("import", "Lootas", "Burna Boyz", "--csv", str(CSV_DIR), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "orks" / "burna-boyz.yaml").is_file()
    assert not (out / "orks" / "lootas.yaml").exists()
    assert "skipped 1 unit with a curated shipped datasheet" in result.output
    assert "Orks/Lootas" in result.output and "--replace-curated" in result.output
    result = calc(
        *("import", "Lootas", "--csv", str(CSV_DIR), "--out", str(out)), "--replace-curated"
    )
    assert result.exit_code == 0 and (out / "orks" / "lootas.yaml").is_file()
    # an earlier import still in the folder is pointed out
    result = calc("import", "Lootas", "--csv", str(CSV_DIR), "--out", str(out))
    assert "still replaces the curated datasheet" in result.output


# `calc import --all` skipping the curated units, and the Lootas' loadouts working afterwards:
# test_names_across_factions.py::test_import_all_writes_the_user_data_folder


# ---------------------------------------------------------------------------------------------
# 6. Units without points; M "-"


@real
@pytest.mark.parametrize("name", ["Sir Hekhtur", "Castellum Stronghold"])
def test_no_cost_row_means_points_not_listed(name: str) -> None:
    # neither has a row in Datasheets_models_cost.csv
    sheet, _, _ = imported(name)
    assert sheet.points_listed is False and [s.points for s in sheet.sizes] == [0]


def test_points_not_listed_in_text_json_and_compare() -> None:
    result = calc("shoot", "sir hekhtur", "--target", "boyz")
    assert "1 Sir Hekhtur (Imperial Knights, no points listed)" in result.output
    out = as_json("shoot", "sir hekhtur", "--target", "castellum stronghold")
    assert (out["attacker"]["points"], out["attacker"]["points_listed"]) == (0, False)
    assert out["target"]["points_listed"] is False
    assert as_json("shoot", "lootas", "--target", "boyz")["attacker"]["points_listed"] is True
    seq = as_json("sequence", "--target", "boyz", "shoot 'sir hekhtur'", "shoot lootas")
    assert seq["attacker"]["points_listed"] is False and seq["target"]["points_listed"] is True
    assert [u["points_listed"] for u in seq["attacker"]["units"]] == [False, True]
    # compare --sort efficiency: no efficiency for either side without points, ranked last
    result = calc(
        *("compare", "sir hekhtur", "lootas", "--target", "castellum stronghold"),
        *("--target", "boyz", "--sort", "efficiency", "--csv", "-"),
    )
    assert result.exit_code == 0, result.output
    rows = [line.split(",") for line in result.stdout.strip().splitlines()]
    head, body = rows[0], rows[1:]
    col = {c: i for i, c in enumerate(head)}
    eff = {(r[col["attacker"]], r[col["target"]]): r[col["points_per_100"]] for r in body}
    assert eff[("Sir Hekhtur", "Boyz")] == "" and eff[("Lootas", "Castellum Stronghold")] == ""
    # Lootas into Boyz: 8 pts a Boy (80 / 10), over 50 pts of Lootas: finite and first
    boyz = [r for r in body if r[col["target"]] == "Boyz"]
    assert boyz[0][col["attacker"]] == "Lootas" and float(boyz[0][col["points_per_100"]]) > 0


def test_m_is_null_where_the_datasheet_prints_a_dash() -> None:
    # Castellum Stronghold's statline row: M "-"; an aircraft's "20+" stays text
    assert as_json("show", "castellum stronghold")["models"][0]["M"] is None
    assert "│ — " in calc("show", "castellum stronghold").output
    assert Catalog().find("space marines/stormhawk interceptor").models[0].M == "20+"


# ---------------------------------------------------------------------------------------------
# 7. Add-on costs


@real
@pytest.mark.parametrize(
    ("name", "add_on", "sizes"),
    [
        # "5 Shadow Spectres" 115, "10 Shadow Spectres" 230, "Shadow Spectre Exarch" +30
        (
            "Shadow Spectres",
            {"name": "Shadow Spectre Exarch", "points": 30, "model": "Shadow Spectre Exarch"},
            [(5, 115), (6, 145), (10, 230), (11, 260)],
        ),
        # "3 models" 80, "6 models" 160, "Attack Bike" +55 (composition: 0-1 Attack Bike)
        (
            "Bike Squad",
            {"name": "Attack Bike", "points": 55, "model": "Attack Bike"},
            [(3, 80), (4, 135), (6, 160), (7, 215)],
        ),
        # "3 models" 80, "6 models" 160, "Invader ATV" +60
        (
            "Outrider Squad",
            {"name": "Invader ATV", "points": 60, "model": "Invader ATV"},
            [(3, 80), (4, 140), (6, 160), (7, 220)],
        ),
        # "1 model" 85, "Tidewall Defence Platform" +20: not a model of the composition
        ("Tidewall Shieldline", {"name": "Tidewall Defence Platform", "points": 20}, [(1, 85)]),
    ],
)
def test_add_on_costs_are_data_and_priced_into_the_sizes_with_them(name, add_on, sizes) -> None:
    sheet, data, _ = imported(name)
    assert data["add_ons"] == [add_on]
    assert [(s.total, s.points) for s in sheet.sizes] == sizes
    for s in sheet.sizes:
        assert (add_on.get("model") in dict(s.composition)) == bool(s.add_ons)


def test_a_size_with_the_exarch_has_it_and_costs_the_add_on() -> None:
    # Shadow Spectre Exarch: row W2; the Spectres W1
    out = as_json("shoot", "shadow spectres", "--models", "6", "--target", "boyz")
    assert out["attacker"]["points"] == 145
    target = as_json("shoot", "boyz", "--target", "shadow spectres", "--target-models", "6")
    assert target["target"]["wounds"] == 5 * 1 + 2
    assert "Add-ons: Shadow Spectre Exarch +30 pts" in calc("show", "shadow spectres").output

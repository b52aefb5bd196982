"""Every unit by name out of the box (issue 9): qualified names, ambiguous names, faction
preferences, the user data folder, `calc units TEXT` / `--json`, `calc show --json`,
`calc import --all`, and the "unknown unit" message (DATASHEET_FORMAT.md, part 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import SWEEP, export_subset, in_sample
from helpers import cli as calc
from helpers import cli_json as as_json

from wh40k_calc.catalog import (
    SHIPPED,
    AmbiguousUnitError,
    Catalog,
    UnknownFactionError,
    UnknownUnitError,
)
from wh40k_calc.datasheet import load_datasheet

CSV_DIR = Path(__file__).resolve().parents[2] / "shared/data/wahapedia-10e-2025-07"


# ---------------------------------------------------------------------------------------------
# The commands


@pytest.mark.parametrize(
    ("command", "attacker", "target", "factions"),
    [
        ("shoot", "hellblaster squad", "custodian guard", ("Space Marines", "Adeptus Custodes")),
        (
            "fight",
            "world eaters/khorne berzerkers",
            "intercessor squad",
            ("World Eaters", "Space Marines"),
        ),
        ("shoot", "riptide battlesuit", "wraithguard", ("T’au Empire", "Aeldari")),
    ],
)
def test_every_unit_by_name(command, attacker, target, factions) -> None:
    out = as_json(command, attacker, "--target", target, "--charged")
    assert (out["attacker"]["faction"], out["target"]["faction"]) == factions
    assert out["expected"]["attacks"] > 0


def test_the_faction_is_in_the_header() -> None:
    res = calc("shoot", "lootas", "--target", "boyz")
    assert res.exit_code == 0
    assert res.stdout.splitlines()[0].startswith("5 Lootas (Orks, 50 pts) shoots 10 Boyz (Orks,")


# ---------------------------------------------------------------------------------------------
# Qualified and ambiguous names


@pytest.mark.parametrize(
    "name",
    [
        "Chaos Space Marines/Chaos Lord",
        "chaos-space-marines/chaos-lord",
        "CHAOS SPACE MARINES / chaos lord",
    ],
)
def test_qualified_names(name: str) -> None:
    sheet = Catalog().find(name)
    assert (sheet.faction, sheet.name) == ("Chaos Space Marines", "Chaos Lord")


def test_a_bare_name_of_several_factions_is_refused_with_the_choices() -> None:
    with pytest.raises(AmbiguousUnitError) as info:
        Catalog().find("Chaos Lord")
    assert info.value.choices == ["Chaos Daemons/Chaos Lord", "Chaos Space Marines/Chaos Lord"]
    res = calc("shoot", "chaos lord", "--target", "boyz")
    assert res.exit_code == 1
    assert "Chaos Daemons/Chaos Lord" in res.output and "--faction" in res.output


def test_a_curated_file_wins_over_generated_ones_of_other_factions() -> None:
    # Cadian Shock Troops exist in Astra Militarum (curated) and Genestealer Cults (generated)
    assert Catalog().find("cadian-shock-troops").faction == "Astra Militarum"
    assert Catalog().find("genestealer cults/cadian shock troops").faction == "Genestealer Cults"


def test_faction_options_and_preferences(monkeypatch: pytest.MonkeyPatch) -> None:
    cat = Catalog()
    assert cat.find("khorne berzerkers", "World Eaters").faction == "World Eaters"
    assert cat.find("khorne berzerkers", "chaos space marines").faction == "Chaos Space Marines"
    with pytest.raises(UnknownUnitError, match="not a datasheet of Orks"):
        cat.find("khorne berzerkers", "orks")
    with pytest.raises(UnknownFactionError, match="did you mean 'World Eaters'"):
        cat.find("khorne berzerkers", "world eater")
    monkeypatch.setenv("WH40K_CALC_FACTIONS", "Orks, World Eaters")
    assert Catalog().find("khorne berzerkers").faction == "World Eaters"
    # the preference does not override an explicit faction
    assert (
        Catalog().find("khorne berzerkers", "Chaos Space Marines").faction == "Chaos Space Marines"
    )
    # a faction no datasheet has is ignored (warned about always: below), so the name is as
    # ambiguous as without the preference
    monkeypatch.setenv("WH40K_CALC_FACTIONS", "Orcs")
    with pytest.raises(AmbiguousUnitError):
        Catalog().find("khorne berzerkers")
    monkeypatch.setenv("WH40K_CALC_FACTIONS", "Orcs, World Eaters")
    assert Catalog().find("khorne berzerkers").faction == "World Eaters"
    assert Catalog().preference_warnings() == [
        "WH40K_CALC_FACTIONS: unknown faction 'Orcs', ignored; did you mean 'Orks'?"
    ]  # not 'Unaligned Forces' too (orcs ~ forces): far suggestions are left out


@pytest.mark.parametrize("args", [["units", "lootas"], ["shoot", "lootas", "-t", "boyz"]])
def test_an_unknown_preferred_faction_is_always_a_warning(args) -> None:
    """``WH40K_CALC_FACTIONS`` naming no faction is warned about on every command that looks
    a unit up, not only when a name is ambiguous; the command still runs."""
    res = calc(*args, env={"WH40K_CALC_FACTIONS": "Space Marines, Orcs"})
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith("warning: WH40K_CALC_FACTIONS: unknown faction 'Orcs', ignored")
    assert calc(*args, env={"WH40K_CALC_FACTIONS": "Orks"}).stderr == ""


def test_faction_options_on_the_command_line() -> None:
    out = as_json(
        "fight",
        "khorne berzerkers",
        "--faction",
        "world eaters",
        "--target",
        "cadian shock troops",
        "--target-faction",
        "genestealer cults",
    )
    assert (out["attacker"]["faction"], out["target"]["faction"]) == (
        "World Eaters",
        "Genestealer Cults",
    )
    res = calc(
        "fight",
        "khorne berzerkers",
        "--target",
        "boyz",
        env={"WH40K_CALC_FACTIONS": "World Eaters"},
    )
    assert res.exit_code == 0 and "World Eaters" in res.stdout.splitlines()[0]


# ---------------------------------------------------------------------------------------------
# Unknown units


def test_unknown_unit_names_the_folders_and_suggests_an_import(tmp_path: Path) -> None:
    res = calc("shoot", "hellblastr squad", "--target", "boyz")
    assert res.exit_code == 1
    assert "did you mean 'Hellblaster Squad'" in res.output
    assert "the shipped datasheets" in res.output and "calc import" not in res.output
    res = calc("shoot", "zzyzx", "--target", "boyz", env={"WH40K_CALC_CSV": str(tmp_path)})
    assert res.exit_code == 1 and "calc import" in res.output


# ---------------------------------------------------------------------------------------------
# calc units and calc show


def test_units_json_lists_every_datasheet() -> None:
    rows = as_json("units")
    assert len(rows) >= 1550
    assert set(rows[0]) >= {"name", "faction", "qualified", "source", "file"}
    sources = {r["source"] for r in rows}
    assert sources == {"curated", "generated"}
    lootas = [r for r in rows if r["name"] == "Lootas"]
    assert [(r["qualified"], r["source"]) for r in lootas] == [("Orks/Lootas", "curated")]


def test_units_filter_by_a_name_fragment() -> None:
    names = [r["name"] for r in as_json("units", "leman russ")]
    assert "Leman Russ Battle Tank" in names and "Leman Russ Demolisher" in names
    assert "Boyz" not in names
    assert as_json("units", "hellblastr")[0]["name"] == "Hellblaster Squad"  # misspelt


def test_show_json_has_the_datasheet_fields() -> None:
    data = as_json("show", "poxwalkers")
    assert (data["name"], data["faction"]) == ("Poxwalkers", "Death Guard")
    assert data["models"][0]["feel_no_pain"] == 5
    assert set(data) >= {"models", "sizes", "weapons", "loadouts", "damaged", "not_modelled"}
    res = calc("show", "wraithknight")
    assert res.exit_code == 0 and "Damaged: 1-6 wounds remaining: -1" in res.stdout


# ---------------------------------------------------------------------------------------------
# The user data folder and calc import --all


def test_the_user_data_folder_is_always_searched(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    mine = home / "datasheets" / "orks"
    mine.mkdir(parents=True)
    data = yaml.safe_load(Catalog().find("lootas").path.read_text(encoding="utf-8"))
    data["sizes"][0]["points"] = 999
    (mine / "my-lootas.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    monkeypatch.setenv("WH40K_CALC_HOME", str(home))
    assert Catalog().find("lootas").sizes[0].points == 999
    rows = as_json("units", "lootas")
    (user,) = [r for r in rows if r["source"] == "user"]
    assert user["replaces"].endswith("orks/lootas.yaml")


@pytest.mark.skipif(
    not (CSV_DIR / "Datasheets.csv").is_file(), reason=f"the export is not here: {CSV_DIR}"
)
@pytest.mark.sweep
def test_import_all_writes_the_user_data_folder(tmp_path: Path, monkeypatch) -> None:
    """``calc import --all`` of the whole export (make test-slow), or in make test of a copy
    of it with about one datasheet in ten and every one that has a curated file."""
    home = tmp_path / "home"
    monkeypatch.setenv("WH40K_CALC_HOME", str(home))
    export, total = CSV_DIR, 1623  # every datasheet but the placeholder "Example Wargear"
    if not SWEEP:
        curated = {(s.faction, s.name) for s in map(load_datasheet, SHIPPED.rglob("*.yaml"))}
        names = {name for _, name in curated} | {"Burna Boyz", "Example Wargear"}
        export = tmp_path / "export"
        kept = export_subset(
            CSV_DIR, export, lambda row: row["name"] in names or in_sample(row["id"], 10)
        )
        total = kept - 1
        assert len(curated) == 16 and total < 400
    res = calc("import", "--all", "--csv", export)
    assert res.exit_code == 0, res.output
    # the datasheets less the 16 with a curated shipped file (skipped, and said so)
    assert f"wrote {total - 16} datasheets" in res.stdout and "skipped 16 units" in res.stdout
    again = calc("import", "--all", "--csv", export)
    assert again.exit_code == 1 and "--force" in again.output
    # found without --datasheets; the curated Boyz stay (seed page points: 20 Boyz 160)
    assert Catalog().find("orks/burna-boyz").path.is_relative_to(home)
    assert [s.points for s in Catalog().find("boyz").sizes] == [80, 160]
    # the fresh-user trial: the curated Lootas' loadouts failed 3 of the example's 4 runs
    batch = Path(__file__).resolve().parents[1] / "examples" / "lootas-loadouts.yaml"
    runs = as_json("compare", batch)
    assert len({r["run"] for r in runs}) == 4
    # --replace-curated: the user's copy replaces the curated one (export points)
    res = calc("import", "--all", "--csv", export, "--force", "--replace-curated")
    assert res.exit_code == 0 and f"wrote {total} datasheets" in res.stdout, res.output
    sheet = Catalog().find("boyz")
    assert sheet.path == home / "datasheets" / "orks" / "boyz.yaml"
    assert [s.points for s in sheet.sizes] == [80, 170]


def test_import_needs_an_export_folder(tmp_path: Path) -> None:
    res = calc("import", "boyz")
    assert res.exit_code == 1 and "WH40K_CALC_CSV" in res.output
    res = calc("import", "--csv", tmp_path)
    assert res.exit_code == 2 and "names or --all" in res.output


def test_compare_takes_the_factions_too() -> None:
    rows = as_json(
        "compare",
        "khorne berzerkers",
        "--faction",
        "world eaters",
        "--fight",
        "--target",
        "cadian shock troops",
        "--target-faction",
        "genestealer cults",
    )
    assert (rows[0]["attacker"]["faction"], rows[0]["target"]["faction"]) == (
        "World Eaters",
        "Genestealer Cults",
    )
    res = calc("compare", "khorne berzerkers", "--fight", "--target", "boyz")
    assert "several factions" in res.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("/lootas", "-t", "boyz"), "'/lootas'; did you mean 'Lootas', 'Orks/Lootas'?"),
        (("lootas", "-t", " / boyz"), "' / boyz'; did you mean 'Boyz', 'Orks/Boyz'?"),
        (("//lootaz", "-t", "boyz"), "'//lootaz'; did you mean 'Lootas'?"),
    ],
)
def test_no_faction_before_the_slash_is_refused(args, said) -> None:
    """``calc shoot /lootas``: ``FACTION/UNIT`` with nothing before the slash is refused with
    the reason, as ``--effect /waaagh`` is (it was taken as "lootas"), and the unit's own
    names (bare and qualified) or the closest ones suggested."""
    res = calc("shoot", *args)
    assert res.exit_code == 2  # malformed whatever the data holds: a usage error
    assert res.stderr.startswith(f"error: unknown unit {said}")
    assert "no faction before '/' (write FACTION/UNIT, or the UNIT alone)" in res.stderr
    assert "Traceback" not in res.output


def test_a_faction_with_no_unit_name_says_what_is_missing() -> None:
    """``calc shoot "orks/"``: the unit's name after the faction is missing (was "unknown
    unit ''")."""
    res = calc("shoot", "orks/", "-t", "boyz")
    assert res.exit_code == 2  # malformed: a usage error
    assert res.stderr == (
        "error: unknown unit 'orks/'; the unit's name is missing after 'orks/' (FACTION/UNIT) "
        "(`calc units --faction Orks` lists its units)\n"
    )
    res = calc("shoot", "lootas", "-t", "space marines/ ")
    assert "the unit's name is missing after 'space marines/'" in res.stderr
    assert '`calc units --faction "Space Marines"` lists its units' in res.stderr

"""Units on the table: sizes, damaged targets, loadouts, --weapon specs and Leaders (units.py).

Counts and points are worked out by hand from the shipped Orks datasheets:
Boyz 9 Boys + Boss Nob (80 pts) or 19 + 1 (160 pts); Lootas 4 Lootas + Spanner (50 pts) or
8 + 2 (100 pts); Warboss 1 model (75 pts), leads Nobz, Boyz, Breaka Boyz.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wh40k_calc.catalog import Catalog
from wh40k_calc.datasheet import Datasheet, load_datasheet
from wh40k_calc.selection import SelectionError, UnitChoice
from wh40k_calc.units import Unit, build_unit, parse_weapon_spec, pick_size

CAT = Catalog(use_env=False)
BOYZ = CAT.find("boyz")
LOOTAS = CAT.find("lootas")
WARBOSS = CAT.find("warboss")


def groups(unit: Unit) -> list[tuple[str, int, list[str]]]:
    """(model, count, weapon names) for each group, in allocation order."""
    return [(g.profile.name, g.count, [w.name for w in g.weapons]) for g in unit.groups]


def refused(choice: UnitChoice, role: str = "attacker") -> str:
    with pytest.raises(SelectionError) as info:
        build_unit(choice, role)
    return str(info.value)


def leader_sheet(tmp_path: Path, name: str, keywords: str, leader_of: str = "[Boyz]") -> Datasheet:
    path = tmp_path / f"{name.lower()}.yaml"
    path.write_text(
        f"""name: {name}
faction: Orks
keywords: [{keywords}]
faction_keywords: [ORKS]
models:
  - {{name: {name}, M: 6, T: 5, Sv: 5, W: 4, Ld: 6, OC: 1, equipped: [choppa]}}
sizes:
  - {{models: {{{name}: 1}}, points: 55}}
weapons:
  - {{name: Choppa, range: melee, A: 4, skill: 3, S: 5, AP: -1, D: 1}}
leader_of: {leader_of}
""",
        encoding="utf-8",
    )
    return load_datasheet(path)


# ---------------------------------------------------------------------------------------------
# Sizes


def test_default_size_is_the_smallest() -> None:
    unit = build_unit(UnitChoice(LOOTAS), "attacker")
    assert unit.models == 5
    assert unit.points == 50
    assert unit.starting_strength == 5
    assert groups(unit) == [
        ("Loota", 4, ["Deffgun", "Close combat weapon"]),
        ("Spanner", 1, ["Big shoota", "Close combat weapon"]),
    ]
    boyz = build_unit(UnitChoice(BOYZ), "target")
    assert boyz.models == 10 and boyz.points == 80


def test_listed_attacker_size() -> None:
    unit = build_unit(UnitChoice(LOOTAS, 10), "attacker")
    assert unit.models == 10
    assert unit.points == 100
    assert [(g.profile.name, g.count) for g in unit.groups] == [("Loota", 8), ("Spanner", 2)]


@pytest.mark.parametrize("models", [11, 0, -3])
def test_attacker_size_must_fit(models: int) -> None:
    """A listed size, or a damaged unit of 1 up to the largest size (11 and 0 are neither)."""
    msg = refused(UnitChoice(LOOTAS, models))
    assert "Lootas" in msg
    assert str(models) in msg
    assert "5, 10" in msg  # the legal sizes


def test_damaged_attacker_between_sizes() -> None:
    """7 Lootas: the 10-model size (8 Lootas, 2 Spanners) with 3 Lootas (rank-and-file, listed
    first) removed; Starting Strength 10; points pro rata 100 x 7 / 10 = 70."""
    unit = build_unit(UnitChoice(LOOTAS, 7), "attacker")
    assert unit.models == 7
    assert unit.starting_strength == 10
    assert unit.points == pytest.approx(70)
    assert [(g.profile.name, g.count) for g in unit.groups] == [("Loota", 5), ("Spanner", 2)]


@pytest.mark.parametrize(("models", "lootas"), [(1, 0), (3, 2), (4, 3)])
def test_damaged_attacker_below_the_smallest_size(models: int, lootas: int) -> None:
    """Issue 10 item 9: "A damaged attacking unit: `--models N` below the smallest size works
    as `--target-models` does": the 5-model size with rank-and-file (Lootas, listed first)
    removed first; the Spanner stays; points pro rata (50 x N / 5); Starting Strength 5."""
    unit = build_unit(UnitChoice(LOOTAS, models), "attacker")
    assert unit.models == models
    assert unit.starting_strength == 5
    assert unit.points == pytest.approx(50 * models / 5)
    want = [("Loota", lootas, ["Deffgun", "Close combat weapon"])] if lootas else []
    assert groups(unit) == [*want, ("Spanner", 1, ["Big shoota", "Close combat weapon"])]


def test_pick_size() -> None:
    size, counts = pick_size(BOYZ, 20, "attacker")
    assert size.total == 20 and size.points == 160
    assert counts == {"Boss Nob": 1, "Boy": 19}


def test_damaged_target_of_7_boyz() -> None:
    unit = build_unit(UnitChoice(BOYZ, 7), "target")
    # from the 10-model size, Boys removed first: 6 Boys + the Boss Nob
    assert [(g.profile.name, g.count) for g in unit.groups] == [("Boy", 6), ("Boss Nob", 1)]
    assert unit.models == 7
    assert unit.points == pytest.approx(80 * 7 / 10)  # 56
    assert unit.starting_strength == 10


def test_damaged_target_of_15_boyz() -> None:
    unit = build_unit(UnitChoice(BOYZ, 15), "target")
    # 15 > 10, so from the 20-model size: 14 Boys + the Boss Nob
    assert [(g.profile.name, g.count) for g in unit.groups] == [("Boy", 14), ("Boss Nob", 1)]
    assert unit.points == pytest.approx(160 * 15 / 20)  # 120
    assert unit.starting_strength == 20


def test_damaged_target_of_1_boy_is_the_boss_nob() -> None:
    unit = build_unit(UnitChoice(BOYZ, 1), "target")
    assert [(g.profile.name, g.count) for g in unit.groups] == [("Boss Nob", 1)]
    assert unit.points == pytest.approx(8)


def test_listed_target_sizes_are_whole_units() -> None:
    assert build_unit(UnitChoice(BOYZ, 10), "target").points == 80
    unit = build_unit(UnitChoice(BOYZ, 20), "target")
    assert unit.points == 160 and unit.starting_strength == 20


@pytest.mark.parametrize("models", [0, 21, -1])
def test_target_size_out_of_bounds(models: int) -> None:
    msg = refused(UnitChoice(BOYZ, models), "target")
    assert "Boyz" in msg
    assert "20" in msg


def test_damaged_target_with_a_loadout_keeps_the_special_weapon() -> None:
    unit = build_unit(UnitChoice(BOYZ, 7, "shootas-big-shoota"), "target")
    # Boys go first; within the Boys the big shoota is listed before the shootas
    assert groups(unit) == [
        ("Boy", 1, ["Big shoota", "Close combat weapon"]),
        ("Boy", 5, ["Shoota", "Close combat weapon"]),
        ("Boss Nob", 1, ["Slugga", "Big choppa"]),
    ]


# ---------------------------------------------------------------------------------------------
# Loadouts


def test_loadout_kustom_mega_blastas() -> None:
    unit = build_unit(UnitChoice(LOOTAS, None, "kustom-mega-blastas"), "attacker")
    assert groups(unit) == [
        ("Loota", 4, ["Deffgun", "Close combat weapon"]),
        ("Spanner", 1, ["Kustom mega-blasta", "Close combat weapon"]),
    ]
    unit = build_unit(UnitChoice(LOOTAS, 10, "kustom-mega-blastas"), "attacker")
    assert ("Spanner", 2, ["Kustom mega-blasta", "Close combat weapon"]) in groups(unit)


@pytest.mark.parametrize("name", ["Kustom Mega Blastas", "KUSTOM_MEGA_BLASTAS"])
def test_loadout_names_match_loosely(name: str) -> None:
    unit = build_unit(UnitChoice(LOOTAS, None, name), "attacker")
    assert groups(unit)[1][2] == ["Kustom mega-blasta", "Close combat weapon"]


def test_default_loadout_is_as_equipped() -> None:
    for name in ("default", "DEFAULT", None):
        unit = build_unit(UnitChoice(LOOTAS, None, name), "attacker")
        assert groups(unit)[1] == ("Spanner", 1, ["Big shoota", "Close combat weapon"])


def test_mixed_spanners_with_10_models() -> None:
    unit = build_unit(UnitChoice(LOOTAS, 10, "mixed-spanners"), "attacker")
    assert groups(unit) == [
        ("Loota", 8, ["Deffgun", "Close combat weapon"]),
        ("Spanner", 1, ["Kustom mega-blasta", "Close combat weapon"]),
        ("Spanner", 1, ["Rokkit launcha", "Close combat weapon"]),
    ]


def test_mixed_spanners_with_5_models_is_refused() -> None:
    msg = refused(UnitChoice(LOOTAS, 5, "mixed-spanners"))
    assert "mixed-spanners" in msg
    assert "Spanner" in msg


def test_mixed_spanners_refusal_names_the_weapons_as_written() -> None:
    msg = refused(UnitChoice(LOOTAS, 5, "mixed-spanners"))
    assert "Kustom mega-blasta, Close combat weapon" in msg
    assert "at least 10" in msg


def test_loadout_with_min_unit_size() -> None:
    msg = refused(UnitChoice(BOYZ, 10, "shootas-2-rokkit-launchas"))
    assert "20" in msg
    assert "10" in msg
    unit = build_unit(UnitChoice(BOYZ, 20, "shootas-2-rokkit-launchas"), "attacker")
    assert groups(unit) == [
        ("Boy", 2, ["Rokkit launcha", "Close combat weapon"]),
        ("Boy", 17, ["Shoota", "Close combat weapon"]),
        ("Boss Nob", 1, ["Slugga", "Big choppa"]),
    ]


def test_loadout_for_the_boss_nob() -> None:
    unit = build_unit(UnitChoice(BOYZ, None, "power-klaw"), "attacker")
    assert groups(unit) == [
        ("Boy", 9, ["Slugga", "Choppa"]),
        ("Boss Nob", 1, ["Slugga", "Power klaw"]),
    ]


def test_unknown_loadout_suggests_names() -> None:
    msg = refused(UnitChoice(LOOTAS, None, "kustom"))
    assert "'kustom'" in msg
    assert "did you mean 'kustom-mega-blastas'" in msg
    for name in ("default", "kustom-mega-blastas", "rokkit-launchas", "mixed-spanners"):
        assert name in msg


# ---------------------------------------------------------------------------------------------
# --weapon specs


@pytest.mark.parametrize(
    ("text", "name", "count"),
    [
        ("Deffgun x4", "Deffgun", 4),
        ("deffgun", "deffgun", 1),
        ("Deffgun X2", "Deffgun", 2),
        ("Deffgun×3", "Deffgun", 3),
        ("Big shoota x 2", "Big shoota", 2),
        ("  Kustom mega-blasta x1 ", "Kustom mega-blasta", 1),
    ],
)
def test_parse_weapon_spec(text: str, name: str, count: int) -> None:
    assert parse_weapon_spec(text) == (name, count)


@pytest.mark.parametrize("text", ["Deffgun x0", "Deffgun x00", ""])
def test_parse_weapon_spec_refused(text: str) -> None:
    with pytest.raises(SelectionError) as info:
        parse_weapon_spec(text)
    assert repr(text) in str(info.value)


def test_explicit_weapons() -> None:
    unit = build_unit(UnitChoice(LOOTAS, None, None, (("Deffgun", 4),)), "attacker")
    assert groups(unit) == [("Loota", 4, ["Deffgun"])]
    unit = build_unit(
        UnitChoice(LOOTAS, None, None, (("deffgun", 1), ("BIG SHOOTA", 1))), "attacker"
    )
    assert groups(unit) == [("Loota", 1, ["Deffgun"]), ("Spanner", 1, ["Big shoota"])]
    # a loadout weapon is carried by the model the loadout gives it to
    unit = build_unit(UnitChoice(LOOTAS, None, None, (("Kustom mega-blasta", 1),)), "attacker")
    assert groups(unit) == [("Spanner", 1, ["Kustom mega-blasta"])]


def test_unknown_weapon_suggests() -> None:
    msg = refused(UnitChoice(LOOTAS, None, None, (("Defgun", 4),)))
    assert "'Defgun'" in msg
    assert "did you mean 'Deffgun'" in msg


def test_weapon_count_above_the_unit_size() -> None:
    """Issue 10 item 5: "`--weapon` chooses which weapons attack; the unit is still the whole
    unit of the size `--models` gives (or the smallest listed size that can carry the named
    weapons)". Deffguns are carried by Lootas (4 in 5 models, 8 in 10). (Before, 6 Deffguns
    without --models were refused against the 5-model size, and 5 were accepted there although
    its Spanner carries none.)"""
    msg = refused(UnitChoice(LOOTAS, 5, None, (("Deffgun", 5),)))
    assert "Deffgun x5" in msg and "only 4" in msg and "Loota" in msg
    msg = refused(UnitChoice(LOOTAS, None, None, (("Deffgun", 9),)))
    assert "no listed size" in msg and "Deffgun x9" in msg
    # no --models: the smallest size with 6 Lootas is 10; the whole unit stands by
    unit = build_unit(UnitChoice(LOOTAS, None, None, (("Deffgun", 6),)), "attacker")
    assert groups(unit) == [("Loota", 6, ["Deffgun"])]
    assert unit.models == 10
    assert [(g.profile.name, g.count) for g in unit.all_groups] == [("Loota", 8), ("Spanner", 2)]


def test_one_weapon_twice_counts_together() -> None:
    refused(UnitChoice(LOOTAS, 5, None, (("Deffgun", 4), ("Deffgun", 4))))
    refused(UnitChoice(LOOTAS, None, None, (("Deffgun", 4), ("Deffgun", 5))))
    unit = build_unit(UnitChoice(LOOTAS, None, None, (("Deffgun", 4), ("Deffgun", 4))), "attacker")
    assert unit.models == 10
    assert groups(unit) == [("Loota", 4, ["Deffgun"]), ("Loota", 4, ["Deffgun"])]


def test_explicit_weapons_keep_the_whole_unit() -> None:
    """The models that do not attack are still in the unit (``all_groups``), with their
    keywords; a weapon no model carries by default but a loadout gives goes to that model."""
    unit = build_unit(UnitChoice(LOOTAS, None, None, (("Kustom mega-blasta", 1),)), "attacker")
    assert unit.models == 5 and unit.points == 50
    assert groups(unit) == [("Spanner", 1, ["Kustom mega-blasta"])]
    assert [(g.profile.name, g.count) for g in unit.all_groups] == [("Loota", 4), ("Spanner", 1)]
    msg = refused(UnitChoice(LOOTAS, None, None, (("Kustom mega-blasta", 3),)))
    assert "Spanner" in msg


# ---------------------------------------------------------------------------------------------
# Leaders


def test_warboss_leads_boyz() -> None:
    unit = build_unit(UnitChoice(BOYZ, None, None, (), (WARBOSS,)), "attacker")
    assert unit.models == 11
    assert unit.points == 80 + 75
    assert unit.starting_strength == 10
    assert unit.is_attached
    assert "Warboss" in unit.name and "Boyz" in unit.name
    assert [g.profile.name for g in unit.bodyguard] == ["Boy", "Boss Nob"]
    assert [(g.profile.name, g.count) for g in unit.characters] == [("Warboss", 1)]
    assert [w.name for w in unit.characters[0].weapons] == [
        "Kombi-weapon",
        "Twin slugga",
        "Big choppa",
    ]
    assert {"WARBOSS", "BOYZ", "ORKS", "CHARACTER"} <= unit.keywords


def test_warboss_leads_a_damaged_target() -> None:
    unit = build_unit(UnitChoice(BOYZ, 7, None, (), (WARBOSS,)), "target")
    assert unit.models == 8
    assert unit.points == pytest.approx(56 + 75)
    assert unit.groups[-1].character


def test_warboss_cannot_lead_lootas() -> None:
    msg = refused(UnitChoice(LOOTAS, None, None, (), (WARBOSS,)))
    assert "Warboss cannot lead Lootas" in msg
    for name in ("Nobz", "Boyz", "Breaka Boyz"):
        assert name in msg


def test_two_leaders_on_10_boyz_refused(tmp_path: Path) -> None:
    painboy = leader_sheet(tmp_path, "Painboy", "CHARACTER, INFANTRY, PAINBOY")
    msg = refused(UnitChoice(BOYZ, 10, None, (), (WARBOSS, painboy)))
    assert "10" in msg
    assert "1 Leader" in msg


def test_two_leaders_on_20_boyz_with_a_warboss(tmp_path: Path) -> None:
    painboy = leader_sheet(tmp_path, "Painboy", "CHARACTER, INFANTRY, PAINBOY")
    unit = build_unit(UnitChoice(BOYZ, 20, None, (), (WARBOSS, painboy)), "attacker")
    assert unit.models == 22
    assert unit.points == 160 + 75 + 55
    assert [g.profile.name for g in unit.characters] == ["Warboss", "Painboy"]
    # the other order is the same unit
    unit = build_unit(UnitChoice(BOYZ, 20, None, (), (painboy, WARBOSS)), "attacker")
    assert unit.models == 22


def test_two_leaders_on_20_boyz_without_a_warboss_refused(tmp_path: Path) -> None:
    painboy = leader_sheet(tmp_path, "Painboy", "CHARACTER, INFANTRY, PAINBOY")
    mek = leader_sheet(tmp_path, "Mek", "CHARACTER, INFANTRY, MEK")
    msg = refused(UnitChoice(BOYZ, 20, None, (), (painboy, mek)))
    assert "WARBOSS" in msg


def test_three_leaders_on_20_boyz_refused(tmp_path: Path) -> None:
    painboy = leader_sheet(tmp_path, "Painboy", "CHARACTER, INFANTRY, PAINBOY")
    mek = leader_sheet(tmp_path, "Mek", "CHARACTER, INFANTRY, MEK")
    msg = refused(UnitChoice(BOYZ, 20, None, (), (WARBOSS, painboy, mek)))
    assert "2 Leaders" in msg


def test_two_warbosses_on_20_boyz_allowed() -> None:
    # Bodyguard (Boyz): "you can attach up to two Leader units to it instead of one (but only
    # if one of those is a WARBOSS model)": two Warboss units of an army are two Leader units
    unit = build_unit(UnitChoice(BOYZ, 20, None, (), (WARBOSS, WARBOSS)), "target")
    assert unit.models == 22
    assert [g.profile.name for g in unit.characters] == ["Warboss", "Warboss"]


def test_leader_of_another_unit_refused(tmp_path: Path) -> None:
    nob = leader_sheet(tmp_path, "Nob", "CHARACTER, INFANTRY", "[Nobz]")
    msg = refused(UnitChoice(BOYZ, None, None, (), (nob,)))
    assert "Nob cannot lead Boyz" in msg
    assert "Nobz" in msg


def test_a_unit_that_leads_nothing() -> None:
    msg = refused(UnitChoice(BOYZ, None, None, (), (LOOTAS,)))
    assert "Lootas cannot lead Boyz" in msg


def test_rules_keep_built_units_by_datasheet_identity() -> None:
    """rules/activation.py builds a unit once per (choice, role, edition): the kept unit is the one
    build_unit gives for that choice; another datasheet object (even with the same name and
    stats, e.g. another catalog's) or another size gets its own; errors are not kept."""
    from wh40k_calc.records import replace
    from wh40k_calc.rules import activation

    choice = UnitChoice(BOYZ, 20, None, (), (WARBOSS,))
    first = activation.built_unit(choice, "target", "10")
    assert (
        activation.built_unit(UnitChoice(BOYZ, 20, None, (), (WARBOSS,)), "target", "10") is first
    )
    assert first == build_unit(choice, "target", "10")
    assert activation.built_unit(UnitChoice(BOYZ, 10), "target", "10").starting_strength == 10
    other = replace(BOYZ, name="Boyz")  # equal, but another object
    assert (
        activation.built_unit(UnitChoice(other, 20, None, (), (WARBOSS,)), "target", "10")
        is not first
    )
    for _ in range(2):
        with pytest.raises(SelectionError):
            activation.built_unit(UnitChoice(BOYZ, 50), "target", "10")


@pytest.mark.parametrize("loadout", ["default", "Default", "kustom-mega-blastas"])
def test_weapon_is_refused_with_any_explicit_loadout(loadout: str) -> None:
    """README: ``--weapon`` is "refused ... with ``--loadout``". The fresh-user trial found
    ``--loadout default`` accepted silently while other loadouts were refused."""
    msg = refused(UnitChoice(LOOTAS, loadout=loadout, weapons=(("Deffgun", 4),)))
    assert "cannot be combined with --loadout" in msg
    assert "lists exactly which weapons attack" in msg  # the reason
    assert build_unit(UnitChoice(LOOTAS, weapons=(("Deffgun", 4),)), "attacker").groups


def test_weapon_with_loadout_default_refused_on_the_command_line() -> None:
    from helpers import cli

    res = cli("shoot", "lootas", "-t", "boyz", "--weapon", "Deffgun x4", "--loadout", "default")
    assert res.exit_code == 2  # options that do not go together: a usage error
    assert "cannot be combined with --loadout" in res.output

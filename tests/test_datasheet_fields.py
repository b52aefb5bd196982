"""The datasheet fields added for the fresh-user trial's import faults: equipment of some models
(``equipped_by_count``) and loadout entries that name what they replace (``replaces``),
``dropped_sizes``, ``add_ons`` (and a size's ``add_ons``/``label``), ``points_listed``, ``M``
as text or null, ``leader_alongside``. Validation names the file and the field; the unit a
selection builds follows the documented order."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_datasheet import base, refused, write

from wh40k_calc.datasheet import load_datasheet
from wh40k_calc.selection import SelectionError, UnitChoice
from wh40k_calc.units import build_unit


def with_some(data: dict) -> dict:
    """Two of the Troopers carry a plasma gun instead of the lasgun by default."""
    data["models"][0]["equipped_by_count"] = [{"count": 2, "equipped": ["Plasma gun", "Knife"]}]
    return data


def groups(ds, models=None, loadout=None) -> list[tuple[str, int, tuple[str, ...]]]:
    unit = build_unit(UnitChoice(ds, models, loadout), "attacker")
    return [(g.profile.name, g.count, tuple(w.name for w in g.weapons)) for g in unit.groups]


def test_equipped_by_count_splits_the_models_of_a_kind(tmp_path: Path) -> None:
    ds = load_datasheet(write(tmp_path, with_some(base())))
    trooper = ds.models[0]
    assert trooper.equipped_by_count == ((2, ("plasmagun", "knife")),)
    # the unit of 5: 4 Troopers (2 with plasma guns) and the Sergeant; plain ones first
    assert groups(ds) == [
        ("Trooper", 2, ("Lasgun", "Knife")),
        ("Trooper", 2, ("Plasma gun", "Knife")),
        ("Sergeant", 1, ("Lasgun", "Knife")),
    ]
    # a damaged unit of 3 (the unit of 5 less 2 Troopers): the special ones stay
    assert groups(ds, 3) == [
        ("Trooper", 2, ("Plasma gun", "Knife")),
        ("Sergeant", 1, ("Lasgun", "Knife")),
    ]
    assert trooper.default_equipment(1) == [(0, trooper.equipped), (1, ("plasmagun", "knife"))]
    assert trooper.default_equipment(9) == [(7, trooper.equipped), (2, ("plasmagun", "knife"))]


def test_a_loadout_entry_takes_the_models_whose_equipment_it_replaces(tmp_path: Path) -> None:
    data = with_some(base())
    data["loadouts"]["melta"] = [
        {"model": "Trooper", "count": 1, "equipped": ["Flamer", "Knife"],
         "replaces": ["Plasma gun", "Knife"]}
    ]  # fmt: skip
    ds = load_datasheet(write(tmp_path, data))
    assert groups(ds, loadout="melta") == [
        ("Trooper", 2, ("Lasgun", "Knife")),
        ("Trooper", 1, ("Plasma gun", "Knife")),
        ("Trooper", 1, ("Flamer", "Knife")),
        ("Sergeant", 1, ("Lasgun", "Knife")),
    ]
    # without `replaces`, the models with `equipped` are taken first
    assert groups(ds, loadout="flamers")[:2] == [
        ("Trooper", 2, ("Plasma gun", "Knife")),
        ("Trooper", 2, ("Flamer", "Knife")),
    ]


def test_a_loadout_entry_needs_enough_models_with_the_equipment_it_replaces(tmp_path) -> None:
    data = with_some(base())
    data["loadouts"]["three"] = [
        {"model": "Trooper", "count": 3, "equipped": ["Flamer", "Knife"],
         "replaces": ["Plasma gun", "Knife"]}
    ]  # fmt: skip
    ds = load_datasheet(write(tmp_path, data))
    with pytest.raises(SelectionError, match="only 2 Trooper models with Plasma gun, Knife left"):
        build_unit(UnitChoice(ds, 10, "three"), "attacker")


def test_the_new_fields_load(tmp_path: Path) -> None:
    data = base()
    data["models"][0]["M"] = "20+"
    data["models"][1]["M"] = None
    data["sizes"][1].update(label="Assigned Agent", add_ons=["Spare Sergeant"])
    data["dropped_sizes"] = [{"models": {"Trooper": 10}, "points": 90}]
    data["add_ons"] = [
        {"name": "Spare Sergeant", "points": 15, "model": "Sergeant"},
        {"name": "Barricade", "points": 20},
    ]
    data["points_listed"] = False
    data["leader_alongside"] = ["captain", "Chapter Master"]
    data["leader_alongside_bodyguard"] = ["battleline"]
    ds = load_datasheet(write(tmp_path, data))
    assert (ds.models[0].M, ds.models[1].M) == ("20+", None)
    assert (ds.sizes[1].label, ds.sizes[1].add_ons) == ("Assigned Agent", ("Spare Sergeant",))
    assert [(s.total, s.points) for s in ds.dropped_sizes] == [(10, 90)]
    assert [(a.name, a.points, a.model) for a in ds.add_ons] == [
        ("Spare Sergeant", 15, "Sergeant"),
        ("Barricade", 20, None),
    ]
    assert ds.points_listed is False
    assert ds.leader_alongside == ("CAPTAIN", "CHAPTER MASTER")
    assert ds.leader_alongside_bodyguard == ("BATTLELINE",)
    assert ds.sizes[1].describe(points=True) == (
        "9 Trooper, 1 Sergeant (Assigned Agent; add-on Spare Sergeant; 95 pts)"
    )


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (
            lambda d: d["models"][0].update(
                equipped_by_count=[{"count": 1, "equipped": ["railgun"]}]
            ),
            "models[0].equipped_by_count[0][0]",
        ),
        (
            lambda d: d["loadouts"]["flamers"][0].update(replaces=["Flamer"]),
            "loadouts.flamers[0].replaces",
        ),
        (
            lambda d: d.update(dropped_sizes=[{"models": {"Ghost": 1}, "points": 5}]),
            "dropped_sizes[0].models",
        ),
        (lambda d: d.update(add_ons=[{"name": "X", "points": 5, "model": "Ghost"}]), "add_ons[0]"),
        (lambda d: d["sizes"][0].update(add_ons=["Nothing"]), "sizes[0].add_ons"),
    ],
)
def test_the_new_fields_are_checked(tmp_path: Path, mutate, field: str) -> None:
    assert field in refused(tmp_path, mutate)


@pytest.mark.parametrize(("models", "words"), [(1, "the size of 1 model"), (5, "of 5 models")])
def test_show_says_why_a_dropped_size_is_not_selectable(tmp_path: Path, models, words) -> None:
    """A dropped size has the model count of a size listed first (a detachment's or a
    keyword's price of it): ``calc show`` says ``--models N`` picks that one, with the count
    and noun agreeing (the fresh trial found "a size above has 1 models" of a size of the
    same count)."""
    from helpers import cli

    data = base()
    if models == 1:
        data["models"] = data["models"][1:]
        data.pop("loadouts", None)
        data["sizes"] = [{"models": {"Sergeant": 1}, "points": 20}]
        data["dropped_sizes"] = [{"models": {"Sergeant": 1}, "points": 30, "label": "X"}]
    else:
        data["dropped_sizes"] = [{"models": {"Trooper": 4, "Sergeant": 1}, "points": 60}]
    write(tmp_path, data)
    r = cli("show", "test squad", dirs=[tmp_path], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert f"not selectable: --models {models} picks the size " in r.output
    assert words in r.output and "1 models" not in r.output and "above" not in r.output

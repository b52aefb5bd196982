"""Wargear option forms read since the option limits: each copy of a weapon replaced on its own,
one copy of several, both copies at once, a one-model unit's weapon, "for every N Ms" counting
one kind of model, additions "in addition to any other weapons" and of "1 additional X", and
the export's slips ("replaced one of the following", "X replaced with" without "can be", "1 of
the following", a weapon's name misspelt in the option).

The expected loadouts are the options' own, worked by hand from each option's wording; the
texts of the parser and generator tests are written for these tests, in the forms' shapes,
with made-up names.
"""

from __future__ import annotations

import pytest
from helpers import cli

from wh40k_calc.importers import loadouts as L
from wh40k_calc.importers.models import ImportedModel
from wh40k_calc.importers.weapons import ImportedWeapon


def _weapon(name: str, melee: bool = False) -> ImportedWeapon:
    return ImportedWeapon({"name": name}, melee, name, 0)


def _row(text: str) -> dict[str, str]:
    return {"description": text.replace("\n", "<br>"), "button": "•"}


def _loadouts(text: str, model: ImportedModel, weapons: list[str], most: int = 1):
    out = L.generate_loadouts(
        [_row(text)], [model], [_weapon(w) for w in weapons], {model.name: most}
    )
    return {name: [e["equipped"] for e in entries] for name, entries in out.loadouts.items()}, out


# ---------------------------------------------------------------------------------------------
# Reading the forms


@pytest.mark.parametrize(
    ("text", "model", "count", "old", "new", "each"),
    [
        ("This model’s guns can each be replaced with one of the following:\n1 axe\n1 maul",
         None, None, ("guns",), (("1 axe",), ("1 maul",)), True),
        ("Any number of this model’s lances can each be replaced with 1 cannon.",
         None, None, ("lances",), (("1 cannon",),), True),
        ("Each model can have each rifle it is equipped with replaced with one of the "
         "following:\n1 mortar\n1 laser", None, None, ("rifle",), (("1 mortar",), ("1 laser",)),
         True),
        ("Each of this model’s 2 stubbers can be replaced with 1 flamer.",
         None, None, ("stubbers",), (("1 flamer",),), True),
        ("Both of this model’s cannons can be replaced with 1 claw and 2 flamers.",
         None, None, ("all cannons",), (("1 claw", "2 flamers"),), False),
        ("Any number of models can each replace one of their blades with one of the "
         "following:\n1 claw\n1 whip", None, None, ("1 blades",), (("1 claw",), ("1 whip",)),
         False),
        ("This unit’s gun can be replaced with 1 lascannon.",
         None, None, ("gun",), (("1 lascannon",),), False),
        ("Any number of Boss models can replace their fist and bolter with one of the "
         "following:\n1 bolter and 1 sword", "Boss", None, ("fist", "bolter"),
         (("1 bolter", "1 sword"),), False),
        # the export's slips
        ("Any number of models can each have their pistol replaced one of the following:\n"
         "1 flamer\n1 plasma pistol", None, None, ("pistol",),
         (("1 flamer",), ("1 plasma pistol",)), False),
        ("This model’s stubber replaced with 1 lascannon.",
         None, None, ("stubber",), (("1 lascannon",),), False),
        ("This model’s 2 lascannons can be replaced with on of the following:\n2 flamers\n"
         "2 stubbers", None, None, ("2 lascannons",), (("2 flamers",), ("2 stubbers",)), False),
        ("The Boss’s axe can be replaced with 1 of the following:\n1 maul\n1 claw",
         "Boss", 1, ("axe",), (("1 maul",), ("1 claw",)), False),
        ("Any number of models can each have their cannon can be replaced with 1 blaster.",
         None, None, ("cannon",), (("1 blaster",),), False),
    ],
)  # fmt: skip
def test_swap_forms_are_read(text, model, count, old, new, each) -> None:
    o = L.parse_option(text)
    assert o is not None
    assert (o.model, o.count, o.old, o.new, o.each) == (model, count, old, new, each)


def test_for_every_n_of_a_kind_is_read_with_the_kind() -> None:
    o = L.parse_option(
        "For every 4 Riders in this unit, up to 2 Riders’ knives can each be replaced with 1 axe."
    )
    assert o is not None and (o.model, o.count, o.per_models, o.per_kind) == (
        "Rider",
        2,
        4,
        "Riders",
    )
    words = L.parse_equipped_addition(
        "For every four models in this unit, one model can be equipped with one of the "
        "following in addition to any other weapons:\n1 flamer\n1 mortar"
    )
    assert words is not None and words.adds and (words.count, words.per_models) == (1, 4)
    assert words.new == (("1 flamer",), ("1 mortar",))


def test_an_additional_weapon_is_one_more_of_it() -> None:
    o = L.parse_equipped_addition(
        "If this unit’s Boss is equipped with 1 rifle, it can be equipped with 1 additional rifle."
    )
    assert (
        o is not None
        and o.adds
        and (o.model, o.old, o.new) == ("Boss", ("1 rifle",), (("1 rifle",),))
    )


# ---------------------------------------------------------------------------------------------
# Generating


def test_each_copy_is_replaced_on_its_own() -> None:
    """2 guns, each kept or replaced by an axe or a maul: 1 or 2 replaced, in every mix: 5
    loadouts (axe; maul; 2 axes; axe and maul; 2 mauls), named with their numbers."""
    walker = ImportedModel("Walker", 1, 1, equipped=["Gun", "Gun", "Fists"])
    made, _ = _loadouts(
        "This model’s guns can each be replaced with one of the following:\n1 axe\n1 maul",
        walker,
        ["Gun", "Axe", "Maul", "Fists"],
    )
    assert made == {
        "axe": [["Axe", "Gun", "Fists"]],
        "maul": [["Maul", "Gun", "Fists"]],
        "2-axe": [["Axe", "Axe", "Fists"]],
        "axe-maul": [["Axe", "Maul", "Fists"]],
        "2-maul": [["Maul", "Maul", "Fists"]],
    }


def test_any_number_of_three_lances() -> None:
    """3 lances, any number of them a cannon: 1, 2 or 3 cannons."""
    raider = ImportedModel("Raider", 1, 1, equipped=["Lance", "Lance", "Lance", "Vanes"])
    made, _ = _loadouts(
        "Any number of this model’s lances can each be replaced with 1 cannon.",
        raider,
        ["Lance", "Cannon", "Vanes"],
    )
    assert made == {
        "cannon": [["Cannon", "Lance", "Lance", "Vanes"]],
        "2-cannon": [["Cannon", "Cannon", "Lance", "Vanes"]],
        "3-cannon": [["Cannon", "Cannon", "Cannon", "Vanes"]],
    }


def test_one_of_two_blades_and_both_cannons() -> None:
    beast = ImportedModel("Beast", 1, 2, equipped=["Gun", "Blade", "Blade"])
    one, _ = _loadouts(
        "Any number of models can each replace one of their blades with 1 claw.",
        beast,
        ["Gun", "Blade", "Claw"],
        most=2,
    )
    assert one == {"claw": [["Gun", "Claw", "Blade"]]}
    tank = ImportedModel("Tank", 1, 1, equipped=["Cannon", "Cannon", "Tracks"])
    both, _ = _loadouts(
        "Both of this model’s cannons can be replaced with 1 claw and 2 flamers.",
        tank,
        ["Cannon", "Claw", "Flamer", "Tracks"],
    )
    assert both == {"claw-flamer": [["Claw", "Flamer", "Flamer", "Tracks"]]}


def test_for_every_four_riders_of_a_unit_of_riders_and_a_bike() -> None:
    """4 Riders and 1 Bike, or 8 and 2: "for every 4 Riders" is for every 5 models of the
    unit; a kind not in a fixed share of the unit is not generated."""
    riders = ImportedModel("Rider", 4, 8, equipped=["Knife"])
    bike = ImportedModel("Bike", 1, 2, equipped=["Stubber"])
    text = "For every 4 Riders in this unit, 1 Rider’s knife can be replaced with 1 axe."
    weapons = [_weapon("Knife", True), _weapon("Axe", True), _weapon("Stubber")]
    out = L.generate_loadouts([_row(text)], [riders, bike], weapons, {"Rider": 8, "Bike": 2})
    assert out.loadouts == {
        "axe": [{"model": "Rider", "count": 1, "equipped": ["Axe"], "per_models": 5}]
    }
    odd = ImportedModel("Bike", 1, 1, equipped=["Stubber"])  # 4 and 1, 8 and 1: no share
    out = L.generate_loadouts([_row(text)], [riders, odd], weapons, {"Rider": 8, "Bike": 1})
    assert not out.loadouts
    assert (
        out.not_generated[0]["reason"] == "the models it counts are not a fixed share of the unit"
    )


def test_a_misspelt_weapon_is_the_one_carried_but_not_another() -> None:
    """The option's "macro-blades" is the model's "Maco-blade" (one letter, one word
    apart); its "laspistol" is not a carried plasma pistol."""
    beast = ImportedModel("Beast", 1, 1, equipped=["Maco-blade", "Plasma pistol"])
    weapons = ["Maco-blade", "Plasma pistol", "Claw", "Bolt pistol"]
    made, _ = _loadouts("This model’s macro-blades can be replaced with 1 claw.", beast, weapons)
    assert made == {"claw": [["Claw", "Plasma pistol"]]}
    made, out = _loadouts(
        "This model’s laspistol can be replaced with 1 bolt pistol.", beast, weapons
    )
    assert made == {} and out.not_generated[0]["reason"] == "no model carries the weapons replaced"


# ---------------------------------------------------------------------------------------------
# The shipped datasheets (generated; the numbers are the options' own)


@pytest.mark.parametrize(
    ("args", "ok"),
    [
        # Deff Dread: each of 2 big shootas and each of 2 dread klaws on its own
        (("Deff Dread", "--weapon", "Rokkit launcha x2", "--weapon", "Skorcha x2"), True),
        (("Deff Dread", "--weapon", "Rokkit launcha x4"), True),
        (("Deff Dread", "--weapon", "Rokkit launcha x5"), False),
        (("Deff Dread", "--edition", "11", "--weapon", "Rokkit launcha", "--weapon",
          "Big shoota"), True),
        # Ravager: any number of its 3 dark lances
        (("Ravager", "--weapon", "Disintegrator cannon x3"), True),
        (("Ravager", "--weapon", "Disintegrator cannon x2", "--weapon", "Dark lance"), True),
        (("Ravager", "--weapon", "Disintegrator cannon x3", "--weapon", "Dark lance"), False),
        # War Walkers: each of a model's 2 shuriken cannons; 2 models
        (("War Walkers", "--models", "2", "--weapon", "Bright lance x3", "--weapon",
          "Starcannon"), True),
        (("War Walkers", "--edition", "11", "--models", "1", "--weapon", "Bright lance x2",
          "--weapon", "Starcannon"), False),
        # Talos: one of its two macro-scalpels (edition 11's data spells the weapon
        # "Maco-scalpel"), the other by the second option
        (("Talos", "--edition", "11", "--models", "1", "--weapon", "Twin liquifier gun",
          "--weapon", "Talos gauntlet"), True),
        (("Talos", "--models", "1", "--weapon", "Twin liquifier gun x2"), False),
        # Atalan Jackals: 1 grenade launcher for every 4 Jackals (5 models, 10 with Wolfquads)
        (("Atalan Jackals", "--models", "10", "--weapon", "Grenade launcher – frag x2"), True),
        (("Atalan Jackals", "--models", "5", "--weapon", "Grenade launcher – frag x2"), False),
        # Grot Tanks: each model's big shoota may become a rokkit launcha (option 1), and 1
        # model for every 4 adds one (option 2): 5 in 4 models, 10 in 8
        (("Grot Tanks", "--models", "4", "--weapon", "Rokkit launcha x5"), True),
        (("Grot Tanks", "--models", "4", "--weapon", "Rokkit launcha x6"), False),
        (("Grot Tanks", "--models", "8", "--weapon", "Rokkit launcha x10"), True),
        (("Grot Tanks", "--models", "8", "--weapon", "Rokkit launcha x11"), False),
    ],
)  # fmt: skip
def test_shipped_datasheets_take_what_their_options_allow(args: tuple[str, ...], ok: bool) -> None:
    result = cli("shoot", *args, "-t", "boyz")
    if ok:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 1 and "error: --weapon" in result.stderr, result.output

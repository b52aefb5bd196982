"""Wargear options read since issue 17's forms, and the limit one option sets on several
loadouts (``option_limits``).

* One option offered as several loadouts (its items: "up to 3 models can each have their X
  replaced with one of the following"; or the model types that carry X: "for every 5 models, 1
  model equipped with X can ...", which a Sergeant may take as well as a trooper) lets at most
  its number of models take them in all. ``--weapon`` and army lists refuse more, naming the
  option by its loadouts.
* "(duplicates are not allowed)" and "You cannot select the same weapon from this list more
  than once": each item once in the unit.
* "either ... or": "This model can be equipped with 1 Y or can replace 1 X with 1 Y"; "Up to N
  M can each have their X replaced with 1 Y, or can be equipped with one of the following";
  "The M's X and Y can be replaced with 1 Z, or two different weapons from the following list".
* Additions: "N M can be equipped with Y", "If this model is equipped with X, it can be
  equipped with Y", "This model can be equipped with up to N Ys", "... any of the following".
* Swaps: "The M can replace its X with", "Any number of M can each replace their X with", "Any
  number of models' X can each be replaced with", "up to one model's X", "... with:" and a
  list, a heading ("For every 5 models in this unit:") over several options.

The expected numbers are the options' own (worked by hand from each option's wording); the
texts of the parser tests are written for these tests, in the forms' shapes, with made-up
names.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli, cli_json

from wh40k_calc.catalog import Catalog
from wh40k_calc.datasheet import DatasheetError, parse_datasheet
from wh40k_calc.importers import loadouts as L
from wh40k_calc.yamlio import load

# ---------------------------------------------------------------------------------------------
# Reading the forms (made-up texts in the forms' shapes)


def test_no_duplicates_is_read_from_the_option_or_its_footnote() -> None:
    o = L.parse_option(
        "Up to 3 Troopers can each have their rifle replaced with one of the following "
        "(duplicates are not allowed):\n1 flamer\n1 meltagun\n1 plasma gun"
    )
    assert o is not None and o.once and o.count == 3 and o.model == "Troopers"
    assert o.new == (("1 flamer",), ("1 meltagun",), ("1 plasma gun",))
    words = L.parse_option(
        "For every 5 models in this unit, up to two Troopers can each have their rifle "
        "replaced with one of the following:\n1 flamer\n1 meltagun You cannot select the "
        "same weapon from this list more than once per unit."
    )
    assert words is not None and words.once and (words.count, words.per_models) == (2, 5)
    assert words.new == (("1 flamer",), ("1 meltagun",))
    # "... unless it contains 20 models": not a plain "once"
    twice = L.parse_option(
        "Up to 2 Troopers can each have their rifle replaced with one of the following:\n"
        "1 flamer\n1 meltagun\nYou cannot select the same weapon more than once per unit "
        "unless it contains 20 models."
    )
    assert twice is None or not twice.once


@pytest.mark.parametrize(
    ("text", "model", "count", "per", "old", "new"),
    [
        ("The Boss can replace its knife with one of the following:\n1 axe\n1 maul",
         "Boss", 1, None, ("knife",), (("1 axe",), ("1 maul",))),
        ("Any number of Troopers can each replace their rifle with 1 carbine.",
         "Troopers", None, None, ("rifle",), (("1 carbine",),)),
        ("Any number of models’ stubbers can each be replaced with one of the following:\n"
         "1 autocannon\n1 mortar",
         None, None, None, ("stubbers",), (("1 autocannon",), ("1 mortar",))),
        ("For every 5 models in the unit, up to one model’s rifle can be replaced with 1 "
         "long rifle.", None, 1, 5, ("rifle",), (("1 long rifle",),)),
        ("This model’s big gun can be replaced with:\n1 cannon and 1 stubber",
         None, None, None, ("big gun",), (("1 cannon", "1 stubber"),)),
        ("The Boss can have its axe replaced with one of the following:\n1 axe and 1 pistol "
         "(this model’s axe cannot be replaced)",
         "Boss", 1, None, ("axe",), (("1 axe", "1 pistol"),)),
        ("One Trooper can replace their rifle with one of the following:\n1 flamer\n1 mortar",
         "Trooper", 1, None, ("rifle",), (("1 flamer",), ("1 mortar",))),
        ("For every 5 models in this unit, 1 model can have their rifle and knife replaced "
         "with 1 carbine and 1 axe.",
         None, 1, 5, ("rifle", "knife"), (("1 carbine", "1 axe"),)),
        ("2 models can each have their rifle replaced with 1 carbine.",
         None, 2, None, ("rifle",), (("1 carbine",),)),
        ("This model can have its gun and axe replaced with 1 claw.",
         None, None, None, ("gun", "axe"), (("1 claw",),)),
        ("The Boss Princeps’ blade can be replaced with 1 claw.",
         "Boss Princeps", 1, None, ("blade",), (("1 claw",),)),
        ("The Boss’s rifle can be replaced with 1 pistol and one of the following:\n1 axe\n"
         "1 maul", "Boss", 1, None, ("rifle",), (("1 pistol", "1 axe"), ("1 pistol", "1 maul"))),
        ("Up to 2 Troopers can each have their rifle or carbine replaced with 1 flamer.",
         "Troopers", 2, None, ("rifle",), (("1 flamer",),)),
    ],
)  # fmt: skip
def test_swap_forms_are_read(text, model, count, per, old, new) -> None:
    o = L.parse_option(text)
    assert o is not None
    assert (o.model, o.count, o.per_models, o.old, o.new) == (model, count, per, old, new)


@pytest.mark.parametrize(
    ("text", "model", "count", "per", "old", "new"),
    [
        ("1 model can be equipped with 1 grenade sack.", None, 1, None, (),
         (("1 grenade sack",),)),
        ("For every 5 models in this unit, 1 Trooper can be equipped with 1 rocket pack.",
         "Trooper", 1, 5, (), (("1 rocket pack",),)),
        ("If the Boss is equipped with 1 pistol, it can be equipped with 1 knife.",
         "Boss", None, None, ("1 pistol",), (("1 knife",),)),
        ("If this model is equipped with a pistol and an axe, it can be equipped with 1 "
         "shield. This model’s pistol and axe cannot be replaced.",
         None, None, None, ("pistol", "axe"), (("1 shield",),)),
    ],
)  # fmt: skip
def test_addition_forms_are_read(text, model, count, per, old, new) -> None:
    assert L.parse_option(text) is None  # nothing is taken away
    o = L.parse_equipped_addition(text)
    assert o is not None and o.adds
    assert (o.model, o.count, o.per_models, o.old, o.new) == (model, count, per, old, new)


def test_several_of_one_weapon_and_any_of_a_list_are_choices() -> None:
    many = L.parse_addition("This model can be equipped with up to 4 stubbers.")
    assert many is not None and (many.up_to, many.duplicates, many.items) == (
        4,
        True,
        ("stubbers",),
    )
    more = L.parse_addition("This model can be equipped with up to three additional stubbers.")
    assert more is not None and (more.up_to, more.items) == (3, ("stubbers",))
    anyof = L.parse_addition("This model can be equipped with any of the following:\n1 a\n1 b")
    assert anyof is not None and (anyof.up_to, anyof.duplicates) == (2, False)
    one = L.parse_addition("This model can be equipped with:\n1 mortar")
    assert one is not None and (one.up_to, one.items) == (1, ("1 mortar",))


def test_one_of_several_groups_of_weapons_is_a_choice_of_one_set() -> None:
    group = L.parse_addition(
        "This model can be equipped with one of the following:\n2 cannons and 2 stubbers\n"
        "2 cannons and 2 flamers"
    )
    assert group is not None and group.up_to == 4
    assert group.sets == (("2 cannons", "2 stubbers"), ("2 cannons", "2 flamers"))
    singles = L.parse_addition("This model can be equipped with one of the following:\n1 a\n1 b")
    assert singles is not None and singles.sets == ()  # one weapon an item: up to 1 of them


def test_either_or_options_are_read_as_the_options_they_offer() -> None:
    add_or_swap = L.parse_either(
        "This model can be equipped with 1 missile or can replace 1 stubber with 1 missile.",
        [],
        [],
    )
    assert add_or_swap is not None
    add, swap = add_or_swap
    assert isinstance(add, L._Option) and add.adds and add.old == ()
    assert isinstance(swap, L._Option) and swap.old == ("1 stubber",) and not swap.adds
    swap_or_add = L.parse_either(
        "Up to 2 Riders can each have their gun replaced with 1 combi-gun, or can be equipped "
        "with one of the following:\n1 flamer\n1 meltagun",
        [],
        [],
    )
    assert swap_or_add is not None
    first, second = swap_or_add
    assert isinstance(first, L._Option) and (first.count, first.new) == (2, (("1 combi-gun",),))
    assert isinstance(second, L._Option) and second.adds and second.count == 2
    two = L.parse_either(
        "The Boss’s pistol and rifle can be replaced with 1 claws, or two different weapons "
        "from the following list:*\n1 pistol\n1 rifle\n1 axe",
        [],
        [],
    )
    assert two is not None
    claws, pick = two
    assert isinstance(claws, L._Option) and claws.old == ("pistol", "rifle")
    assert isinstance(pick, L._Choice) and (pick.up_to, pick.duplicates) == (2, False)


def test_no_duplicates_unless_the_unit_has_n_models() -> None:
    o = L.parse_option(
        "For every 10 models in this unit, up to 2 Troopers can each have their rifle replaced "
        "with one of the following:\n1 flamer\n1 meltagun\nYou cannot select the same weapon "
        "more than once per unit unless it contains 20 models, in which case you cannot select "
        "the same weapon more than twice per unit."
    )
    assert o is not None and o.once and o.once_at == (20, 2)
    assert (o.count, o.per_models) == (2, 10)


def test_a_heading_over_several_options_gives_each_its_prefix() -> None:
    parts = L.split_headed(
        "For every 5 models in this unit:\n1 Trooper’s rifle can be replaced with 1 flamer\n"
        "1 Trooper’s knife can be replaced with 1 axe"
    )
    assert parts == [
        "For every 5 models in this unit, 1 Trooper’s rifle can be replaced with 1 flamer",
        "For every 5 models in this unit, 1 Trooper’s knife can be replaced with 1 axe",
    ]
    option = L.parse_option(parts[0])
    assert option is not None and (option.count, option.per_models) == (1, 5)


# ---------------------------------------------------------------------------------------------
# Generating: one option, several loadouts, one limit


def _row(text: str) -> dict[str, str]:
    return {"description": text.replace("\n", "<br>"), "button": "•"}


def test_a_none_row_is_no_option() -> None:
    out = L.generate_loadouts([_row("None")], [], [], {})
    assert out.not_generated == [] and not out.skipped


# ---------------------------------------------------------------------------------------------
# Checking: a hand-written datasheet with option limits

SQUAD = """name: Test Squad
faction: Testers
keywords: [INFANTRY]
models:
  - {name: Trooper, M: 6, T: 4, Sv: 3, W: 2, Ld: 6, OC: 2, equipped: [rifle, knife]}
  - {name: Sergeant, M: 6, T: 4, Sv: 3, W: 2, Ld: 6, OC: 2, equipped: [rifle, knife]}
sizes:
  - {models: {Trooper: 4, Sergeant: 1}, points: 90}
  - {models: {Trooper: 9, Sergeant: 1}, points: 180}
weapons:
  - {name: Rifle, range: 24, A: 2, skill: 3, S: 4, AP: -1, D: 1}
  - {name: Flamer, range: 12, A: D6, skill: null, S: 4, AP: 0, D: 1, abilities: [torrent]}
  - {name: Meltagun, range: 12, A: 1, skill: 3, S: 9, AP: -4, D: D6}
  - {name: Launcher, range: 24, A: 1, skill: 3, S: 9, AP: -2, D: D3}
  - {name: Knife, range: melee, A: 3, skill: 3, S: 4, AP: 0, D: 1}
loadouts:
  flamer:
    - {model: Trooper, count: 1, equipped: [flamer, knife]}
  meltagun:
    - {model: Trooper, count: 1, equipped: [meltagun, knife]}
  launcher:
    - {model: Trooper, count: 1, per_models: 5, equipped: [rifle, launcher, knife]}
  sergeant-launcher:
    - {model: Sergeant, count: 1, min_unit_size: 5, equipped: [rifle, launcher, knife]}
option_limits:
  - {loadouts: [flamer, meltagun], models: 1}
  - {loadouts: [launcher, sergeant-launcher], models: 1, per_models: 5}
"""


@pytest.fixture
def squad_dir(tmp_path: Path) -> Path:
    (tmp_path / "test-squad.yaml").write_text(SQUAD, encoding="utf-8")
    return tmp_path


def _shoot(folder: Path, *args: str):
    return cli("shoot", "Test Squad", *args, "-t", "boyz", dirs=[folder])


def test_an_option_limit_caps_its_loadouts_together(squad_dir: Path) -> None:
    """One model may take the flamer or the meltagun (one option, two loadouts, each with a
    count of 1): either alone is accepted, both together refused, naming the option."""
    for weapon in ("Flamer", "Meltagun"):
        ok = cli_json("shoot", "Test Squad", "--weapon", weapon, "-t", "boyz", dirs=[squad_dir])
        assert [w["count"] for w in ok["weapons"]] == [1]
    both = _shoot(squad_dir, "--weapon", "Flamer", "--weapon", "Meltagun")
    assert both.exit_code == 1
    text = " ".join(both.stderr.split())
    assert "can give only 1 model one of the loadouts flamer and meltagun" in text
    assert "Flamer x1 and Meltagun x1 need it on 2 models" in text


@pytest.mark.parametrize(("models", "most"), [(5, 1), (10, 2)])
def test_an_option_for_every_5_models_that_a_sergeant_may_take(
    squad_dir: Path, models: int, most: int
) -> None:
    """1 launcher for every 5 models, taken by a Trooper or the Sergeant: 1 in a unit of 5, 2
    in one of 10; one more is refused. The Sergeant's own loadout equips him."""
    size = ("--models", str(models))
    ok = cli_json(
        "shoot", "Test Squad", *size, "--weapon", f"Launcher x{most}", "-t", "boyz",
        dirs=[squad_dir],
    )  # fmt: skip
    assert [w["count"] for w in ok["weapons"]] == [most]
    over = _shoot(squad_dir, *size, "--weapon", f"Launcher x{most + 1}")
    assert over.exit_code == 1
    text = " ".join(over.stderr.split())
    assert f"can give only {most} model" in text and "(1 for every 5 models)" in text
    assert f"Launcher x{most + 1} needs it on {most + 1} models" in text
    sergeant = cli_json(
        "shoot", "Test Squad", *size, "--loadout", "sergeant-launcher", "-t", "boyz",
        dirs=[squad_dir],
    )  # fmt: skip
    launcher = [w for w in sergeant["weapons"] if w["name"] == "Launcher"]
    assert [w["count"] for w in launcher] == [1]


def test_an_army_list_over_an_option_limit_is_said(squad_dir: Path, tmp_path: Path) -> None:
    from wh40k_calc.lists.detect import parse_bytes
    from wh40k_calc.lists.resolve import resolve_army

    mine = Catalog([squad_dir], use_env=False, home=None)
    text = (
        "Test Squad (90 Points)\n  • 4x Trooper\n     ◦ 1x Flamer\n     ◦ 1x Meltagun\n"
        "     ◦ 2x Rifle\n     ◦ 4x Knife\n  • 1x Sergeant\n     ◦ 1x Rifle\n     ◦ 1x Knife\n"
    )
    r = resolve_army(parse_bytes(_gw(text), "t"), mine)
    (unit,) = r.units
    assert unit.status == "resolved" and not r.complete
    (why,) = unit.beyond_options
    assert "one of the loadouts flamer and meltagun" in why


def _gw(body: str) -> bytes:
    """A list in the app's text layout (as test_lists_resolve writes them)."""
    from test_lists_resolve import _gw as app_list

    return app_list(body, faction="Testers")


def test_a_choice_of_sets_takes_one_set(tmp_path: Path) -> None:
    """A hand-written choice of one set of weapons (2 cannons and 2 stubbers, or 2 cannons
    and 2 flamers): part of one set is accepted, weapons of two sets or more of one are
    refused, and a set naming a weapon outside its 'of' is refused naming the field."""
    tank = """name: Test Tank
faction: Testers
keywords: [VEHICLE]
models:
  - name: Tank
    M: 10
    T: 11
    Sv: 3
    W: 13
    Ld: 7
    OC: 3
    equipped: [cannon]
    choices:
      - {up_to: 4, of: [cannon, stubber, flamer], adds: true,
         sets: [[cannon, cannon, stubber, stubber], [cannon, cannon, flamer, flamer]]}
sizes:
  - {models: {Tank: 1}, points: 200}
weapons:
  - {name: Cannon, range: 48, A: 1, skill: 4, S: 12, AP: -3, D: 6}
  - {name: Stubber, range: 36, A: 3, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Flamer, range: 12, A: D6, skill: null, S: 4, AP: 0, D: 1, abilities: [torrent]}
"""
    (tmp_path / "test-tank.yaml").write_text(tank, encoding="utf-8")

    def shoot(*weapons: str) -> int:
        args = [a for w in weapons for a in ("--weapon", w)]
        return cli("shoot", "Test Tank", *args, "-t", "boyz", dirs=[tmp_path]).exit_code

    assert shoot("Cannon x3", "Stubber x2") == 0
    assert shoot("Cannon x3", "Flamer x1") == 0
    assert shoot("Stubber x1", "Flamer x1") == 1
    assert shoot("Cannon x4") == 1
    bad = tank.replace("[cannon, cannon, flamer, flamer]]", "[cannon, lance]]")
    bad += "  - {name: Lance, range: 24, A: 1, skill: 4, S: 9, AP: -3, D: 3}\n"
    with pytest.raises(DatasheetError) as info:
        parse_datasheet(load(bad), "tank.yaml")
    assert "models[0].choices[0].sets[1]" in str(info.value) and "'lance'" in str(info.value)


@pytest.mark.parametrize(
    ("limits", "field"),
    [
        ("[{loadouts: [nothing], models: 1}]", "option_limits[0].loadouts[0]"),
        ("[{loadouts: [flamer], models: 1}, {loadouts: [flamer], models: 2}]",
         "option_limits[1].loadouts[0]"),
        ("[{loadouts: [flamer], models: 0}]", "option_limits[0].models"),
    ],
)  # fmt: skip
def test_a_bad_option_limit_is_refused_naming_the_field(limits: str, field: str) -> None:
    text = SQUAD.split("option_limits:")[0] + f"option_limits: {limits}\n"
    with pytest.raises(DatasheetError) as info:
        parse_datasheet(load(text), "squad.yaml")
    assert field in str(info.value) and "squad.yaml" in str(info.value)


# ---------------------------------------------------------------------------------------------
# The shipped datasheets (generated from the data; the numbers are the options' own)


def _calc(*args: str):
    return cli("shoot", *args, "-t", "boyz")


@pytest.mark.parametrize(
    ("args", "ok"),
    [
        # Tactical Squad (edition 10): two options each give 1 model a special or heavy
        # weapon; the flamer is in both, the lascannon in one
        (("Space Marines/Tactical Squad", "--weapon", "Flamer", "--weapon", "Lascannon"), True),
        (("Space Marines/Tactical Squad", "--weapon", "Flamer x2"), True),
        (("Space Marines/Tactical Squad", "--weapon", "Flamer", "--weapon", "Lascannon",
          "--weapon", "Meltagun"), False),
        # the Sergeant: two different weapons of a list, in place of his pistol and boltgun
        (("Space Marines/Tactical Squad", "--weapon", "Power fist", "--weapon",
          "Plasma pistol – standard"), True),
        (("Space Marines/Tactical Squad", "--weapon", "Plasma pistol – standard x2"), False),
        # Chaos Rhino (edition 11): 1 havoc launcher, added or in place of its combi-bolter
        (("Chaos Space Marines/Chaos Rhino", "--edition", "11", "--weapon", "Havoc launcher",
          "--weapon", "Combi-bolter"), True),
        (("Chaos Space Marines/Chaos Rhino", "--edition", "11", "--weapon",
          "Havoc launcher x2"), False),
        # Battlewagon (edition 10): up to 4 big shootas
        (("Orks/Battlewagon", "--weapon", "Big shoota x4"), True),
        (("Orks/Battlewagon", "--weapon", "Big shoota x5"), False),
        # Devilfish (edition 11): up to 2 seeker missiles
        (("Devilfish", "--edition", "11", "--weapon", "Seeker missile x2"), True),
        (("Devilfish", "--edition", "11", "--weapon", "Seeker missile x3"), False),
        # Chaos Bikers (edition 11): up to 2, a combi-weapon or one added weapon each
        (("Chaos Bikers", "--edition", "11", "--models", "6", "--weapon", "Combi-weapon",
          "--weapon", "Flamer"), True),
        (("Chaos Bikers", "--edition", "11", "--models", "6", "--weapon", "Combi-weapon x2",
          "--weapon", "Flamer"), False),
        # Hearthkyn Warriors (edition 11): up to 2, no duplicates
        (("Hearthkyn Warriors", "--edition", "11", "--models", "10", "--weapon",
          "HYLas auto rifle", "--weapon", "Magna-rail rifle"), True),
        (("Hearthkyn Warriors", "--edition", "11", "--models", "10", "--weapon",
          "HYLas auto rifle x2"), False),
        (("Hearthkyn Warriors", "--edition", "11", "--models", "10", "--weapon",
          "HYLas auto rifle", "--weapon", "Magna-rail rifle", "--weapon",
          "HYLas rotary cannon"), False),
        # Cadian Shock Troops (edition 11): 2 for every 10 models, no weapon twice unless the
        # unit has 20 models, then no more than twice
        (("Cadian Shock Troops", "--edition", "11", "--models", "10", "--weapon", "Flamer",
          "--weapon", "Meltagun"), True),
        (("Cadian Shock Troops", "--edition", "11", "--models", "10", "--weapon", "Flamer x2"),
         False),
        (("Cadian Shock Troops", "--edition", "11", "--models", "20", "--weapon", "Flamer x2",
          "--weapon", "Meltagun x2"), True),
        (("Cadian Shock Troops", "--edition", "11", "--models", "20", "--weapon", "Flamer x3"),
         False),
        # Termagants (edition 11): 1 model's "ranged weapon" (its fleshborer) for every 10
        (("Termagants", "--edition", "11", "--models", "20", "--weapon", "Strangleweb x2"), True),
        (("Termagants", "--edition", "11", "--models", "10", "--weapon", "Strangleweb x2"), False),
        # Baneblade (edition 11): sponsons of 2 lascannons and 2 twin heavy bolters or 2
        # twin heavy flamers, besides its own 2 lascannons, twin heavy bolter, 2 flamers
        (("Baneblade", "--edition", "11", "--weapon", "Lascannon x4", "--weapon",
          "Twin heavy bolter x3", "--weapon", "Twin heavy flamer x2"), True),
        (("Baneblade", "--edition", "11", "--weapon", "Lascannon x4", "--weapon",
          "Twin heavy bolter x3", "--weapon", "Twin heavy flamer x4"), False),
        (("Baneblade", "--edition", "11", "--weapon", "Lascannon x5"), False),
        # Predator Destructor (edition 11): 2 heavy bolters or 2 lascannons, never one of each
        (("Space Marines/Predator Destructor", "--edition", "11", "--weapon", "Lascannon x2"),
         True),
        (("Space Marines/Predator Destructor", "--edition", "11", "--weapon", "Lascannon",
          "--weapon", "Heavy bolter"), False),
        # Fortis Kill Team (edition 11): optional kinds in place of the Kill Team
        # Intercessors, who keep their minimum of 2: at most 7 of the 9
        (("Fortis Kill Team", "--edition", "11", "--weapon",
          "Plasma incinerator – Standard x4", "--weapon", "Pyreblaster x3"), True),
        (("Fortis Kill Team", "--edition", "11", "--weapon",
          "Plasma incinerator – Standard x4", "--weapon", "Pyreblaster x4"), False),
        # Legionaries (edition 11): 1 for every 5 models, no duplicates
        (("Legionaries", "--edition", "11", "--models", "10", "--weapon", "Flamer",
          "--weapon", "Meltagun"), True),
        (("Legionaries", "--edition", "11", "--models", "10", "--weapon", "Flamer x2"), False),
        (("Legionaries", "--edition", "11", "--models", "5", "--weapon", "Flamer",
          "--weapon", "Meltagun"), False),
    ],
)  # fmt: skip
def test_shipped_datasheets_take_what_their_options_allow(args: tuple[str, ...], ok: bool) -> None:
    result = _calc(*args)
    if ok:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 1 and "error: --weapon" in result.stderr, result.output


def test_the_refusal_names_the_option() -> None:
    over = _calc(
        "Legionaries", "--edition", "11", "--models", "10", "--weapon", "Flamer",
        "--weapon", "Meltagun", "--weapon", "Lascannon",
    )  # fmt: skip
    text = " ".join(over.stderr.split())
    assert "can give only 2 models (1 for every 5 models) one of the loadouts" in text
    assert "flamer" in text and "lascannon" in text and "need it on 3 models" in text
    twice = _calc("Legionaries", "--edition", "11", "--models", "10", "--weapon", "Flamer x2")
    assert "(wargear option: one of the loadouts" in " ".join(twice.stderr.split())


def test_optional_kinds_leave_the_rank_and_file_their_minimum() -> None:
    over = _calc(
        "Fortis Kill Team", "--edition", "11", "--weapon", "Plasma incinerator – Standard x4",
        "--weapon", "Pyreblaster x4",
    )  # fmt: skip
    text = " ".join(over.stderr.split())
    assert "can field only 7 models of its optional kinds in place of Kill Team Intercessor" in text
    assert "(it keeps 2 of them)" in text and "need 8" in text
    shown = json.loads(cli("show", "Fortis Kill Team", "--edition", "11", "--json").stdout)
    assert [m.get("keeps") for m in shown["models"] if m["name"] == "Kill Team Intercessor"] == [2]


def test_an_intercessor_sergeant_may_take_the_grenade_launcher() -> None:
    """Edition 11's Intercessors: "1 model equipped with a bolt rifle" for every 5 models is
    any of them, the Sergeant too: his own loadout, in the same limit as the Intercessor's."""
    shown = json.loads(cli("show", "Intercessor Squad", "--edition", "11", "--json").stdout)
    limits = [lim["loadouts"] for lim in shown["option_limits"]]
    assert ["astartes-grenade-launcher", "intercessor-sergeant-astartes-grenade-launcher"] in (
        limits
    )
    entry = shown["loadouts"]["intercessor-sergeant-astartes-grenade-launcher"][0]
    assert entry["model"] == "Intercessor Sergeant"

"""Options only for the models "not equipped with X" (a loadout entry's ``excludes``).

"For every 10 models in this unit, 1 Boy not equipped with 1 shoota can have its choppa and
slugga replaced with ..." (edition 11's Boyz): the Boy who takes the big shoota does not take
the shoota another option adds to any Boy ("Any number of Boyz can each be equipped with 1
shoota"). The generator reads the clause in every form an option names its models by (also
"model that is not equipped with X or Y", "If this model is not equipped with X, its Y can be
replaced with ..."), and writes the X that a weapon of the datasheet names as the entry's
``excludes``; ``--weapon`` and army lists never give a model taking the entry an X by a choice
or by an option combined with it. The parser texts are written for these tests in the forms'
shapes, with made-up names; the Boyz figures are the datasheet's, worked by hand: a unit of
10 is 9 Boys and a Boss Nob, so at most 9 Boys carry a shoota or a big shoota between them,
and with 2 big shootas in 20 models (1 for every 10) at most 17 shootas.
"""

from __future__ import annotations

import pytest
from helpers import cli

from wh40k_calc.attack_sets import CARRYING
from wh40k_calc.catalog import Catalog
from wh40k_calc.composition import assign
from wh40k_calc.datasheet import DatasheetError, norm_name, parse_datasheet
from wh40k_calc.importers import loadouts as L
from wh40k_calc.yamlio import load

# ---------------------------------------------------------------------------------------------
# Reading the clause


def test_a_swap_for_the_models_not_equipped_with_x() -> None:
    o = L.parse_option(
        "For every 10 models in this unit, 1 Grunt not equipped with 1 rifle can have its axe "
        "and pistol replaced with one of the following:\n1 big gun and 1 knife\n1 rocket"
    )
    assert o is not None and (o.model, o.count, o.per_models) == ("Grunt", 1, 10)
    assert o.old == ("axe", "pistol") and o.excludes == ("1 rifle",)
    plain = L.parse_option("1 Grunt can have its axe replaced with 1 rocket")
    assert plain is not None and plain.model == "Grunt" and plain.excludes == ()


def test_an_addition_for_the_models_not_equipped_with_x_or_y() -> None:
    o = L.parse_equipped_addition(
        "For every 5 models in this unit, 1 model that is not equipped with a gauntlet or a "
        "launcher can be equipped with 1 launcher."
    )
    assert o is not None and o.adds and (o.model, o.count, o.per_models) == (None, 1, 5)
    assert o.excludes == ("gauntlet", "launcher") and o.new == (("1 launcher",),)
    either = L.parse_equipped_addition(
        "1 Grunt that is not equipped with either a cannon or a drum can be equipped with 1 horn."
    )
    assert either is not None and either.model == "Grunt"
    assert either.excludes == ("cannon", "drum")


def test_if_this_model_is_not_equipped_with_x() -> None:
    o = L.parse_option(
        "If this model is not equipped with a cannon, its flamer can be replaced with 1 cannon."
    )
    assert o is not None and o.model is None and o.count is None
    assert o.old == ("flamer",) and o.new == (("1 cannon",),) and o.excludes == ("cannon",)
    the = L.parse_option(
        "If the Boss is not equipped with a power axe, its knife can be replaced with 1 power axe."
    )
    assert the is not None and (the.model, the.count, the.excludes) == ("Boss", 1, ("power axe",))


# ---------------------------------------------------------------------------------------------
# Checking: a hand-written datasheet

MOB = """name: Test Mob
faction: Testers
keywords: [INFANTRY]
models:
  - name: Grunt
    M: 6
    T: 5
    Sv: 5
    W: 1
    Ld: 7
    OC: 2
    equipped: [pistol, axe]
    choices:
      - {up_to: 1, of: [rifle], adds: true}
sizes:
  - {models: {Grunt: 10}, points: 80}
  - {models: {Grunt: 20}, points: 160}
weapons:
  - {name: Pistol, range: 12, A: 1, skill: 5, S: 4, AP: 0, D: 1, abilities: [pistol]}
  - {name: Rifle, range: 18, A: 2, skill: 5, S: 4, AP: 0, D: 1}
  - {name: Big gun, range: 36, A: 3, skill: 5, S: 5, AP: 0, D: 1}
  - {name: Axe, range: melee, A: 3, skill: 3, S: 4, AP: -1, D: 1}
  - {name: Knife, range: melee, A: 2, skill: 3, S: 4, AP: 0, D: 1}
loadouts:
  big-gun:
    - {model: Grunt, count: 1, per_models: 10, equipped: [big gun, knife]EXCLUDES}
"""


def _mob(excludes: str = ", excludes: [rifle]"):
    return parse_datasheet(load(MOB.replace("EXCLUDES", excludes)), "mob.yaml")


@pytest.mark.parametrize(
    ("models", "rifles", "guns", "ok"),
    [(10, 10, 0, True), (10, 10, 1, False), (10, 9, 1, True), (20, 18, 2, True),
     (20, 19, 1, True), (20, 19, 2, False), (20, 20, 1, False)],
)  # fmt: skip
def test_a_choice_never_gives_an_excluded_weapon(
    models: int, rifles: int, guns: int, ok: bool
) -> None:
    """10 Grunts, each may add a rifle; 1 for every 10 may swap pistol and axe for a big gun
    and then takes no rifle: rifles + big guns <= the models, big guns <= models / 10."""
    ds = _mob()
    wanted = {norm_name(k): n for k, n in (("Rifle", rifles), ("Big gun", guns)) if n}
    got = assign(ds, {"Grunt": models}, wanted, models)
    assert (got is not None) is ok
    carried = assign(ds, {"Grunt": models}, wanted, models, counting=CARRYING)
    assert (carried is not None) is ok
    loose = _mob("")  # without the clause the big gun's Grunt takes a rifle too
    assert assign(loose, {"Grunt": models}, wanted, models) is not None


def test_options_combined_on_one_model_respect_excludes() -> None:
    """Two numbered options on one Grunt: a big gun for his pistol, and a knife added beside
    his axe; with ``excludes: [knife]`` on the big gun's entry, no Grunt has both."""
    text = MOB.replace("EXCLUDES", ", option: 1, excludes: [knife]").replace(
        "equipped: [big gun, knife]", "equipped: [big gun, axe]"
    )
    text += (
        "  knife:\n"
        "    - {model: Grunt, count: all, equipped: [pistol, axe, knife], option: 2, "
        "needs: [axe]}\n"
    )
    ds = parse_datasheet(load(text), "mob.yaml")
    assert assign(ds, {"Grunt": 10}, {"biggun": 1, "knife": 9}, 10, counting=CARRYING)
    assert assign(ds, {"Grunt": 10}, {"biggun": 1, "knife": 10}, 10, counting=CARRYING) is None
    free = parse_datasheet(load(text.replace(", excludes: [knife]", "")), "mob.yaml")
    assert assign(free, {"Grunt": 10}, {"biggun": 1, "knife": 10}, 10, counting=CARRYING)


def test_excludes_naming_a_weapon_the_entry_carries_is_refused() -> None:
    with pytest.raises(DatasheetError, match=r"loadouts\.big-gun\[0\]\.excludes"):
        _mob(", excludes: [knife]")
    with pytest.raises(DatasheetError, match=r"excludes\[0\]: weapon 'lance' is not defined"):
        _mob(", excludes: [lance]")


# ---------------------------------------------------------------------------------------------
# The generated data (both editions' Boyz; the other datasheets with the clause)


def test_the_generated_entries_carry_the_clause() -> None:
    cat = Catalog(use_env=False, home=None)
    boyz = cat.find("Boyz", "Orks", "11")
    for name in ("big-shoota-close-combat-weapon", "rokkit-launcha-close-combat-weapon"):
        (entry,) = boyz.loadouts[name]
        assert entry.model == "Boy" and entry.excludes == ("shoota",)
    for edition in ("10", "11"):  # each excludes the weapon the other option gives
        beserks = cat.find("Cthonian Beserks", "Leagues of Votann", edition)
        (gauntlet,) = beserks.loadouts["twin-concussion-gauntlet"]
        (mole,) = beserks.loadouts["mole-grenade-launcher"]
        assert gauntlet.excludes == ("molegrenadelauncher",)
        assert mole.excludes == ("twinconcussiongauntlet",)
        assert (gauntlet.count, gauntlet.per_models, mole.count, mole.per_models) == (1, 5, 1, 5)


def _shoot(edition: str, models: int, *weapons: str):
    args = [a for w in weapons for a in ("--weapon", w)]
    return cli(
        "shoot", "Orks/Boyz", "--edition", edition, "--models", str(models), "-t",
        "intercessor-squad", *args,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("models", "shootas", "big", "ok"),
    [(10, 9, 0, True), (10, 9, 1, False), (10, 8, 1, True), (20, 19, 2, False),
     (20, 18, 2, False), (20, 17, 2, True), (20, 18, 1, True), (20, 19, 1, False)],
)  # fmt: skip
@pytest.mark.parametrize("edition", ["10", "11"])
def test_boyz_big_shoota_boy_takes_no_shoota(
    edition: str, models: int, shootas: int, big: int, ok: bool
) -> None:
    weapons = [f"Shoota x{shootas}"] + ([f"Big shoota x{big}"] if big else [])
    res = _shoot(edition, models, *weapons)
    if ok:
        assert res.exit_code == 0, res.output
    else:
        said = " ".join(res.output.split())
        assert res.exit_code == 1, res.output
        assert (
            f"can carry only {models - 1} of Shoota and Big shoota at once (Boy ×{models - 1})"
            in said
        )

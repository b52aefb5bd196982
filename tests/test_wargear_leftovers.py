"""Refusal reasons that name what breaks the limit, and army lists below a unit's smallest size.

From the edition-11 datasheets (game-datacards data 912, as our generated files read them):

- Tactical Squad: two options, each for 1 Tactical Marine ("1 Tactical Marine's boltgun can be
  replaced with one of the following": flamer, grav-gun, meltagun, plasma gun; and a second
  list with the flamer, the heavy weapons, the grav-gun, the meltagun and the plasma gun). A
  flamer and a meltagun fit (one from each option), so do a flamer and a lascannon, and a
  meltagun and a lascannon; the three need 3 models of two options of 1 model each: both
  options together are the reason, and all three weapons are what breaks them.
- Boyz: "1 Boy not equipped with 1 shoota" takes the big shoota (1 for every 10 models): a Boy
  never carries both, so 9 shootas and a big shoota need 10 Boys of 9.
- Tempestus Scions: each special weapon once per unit, twice in a unit of 10 (the option's
  footnote): the loadouts `flamer` (1 model) and `flamer-x2` (2 models, units of 10).
- A unit fields one of its datasheet's sizes: a Tactical Squad of 4 models (its only size is
  10) is read as a damaged unit, with a warning, and ``--strict`` refuses the list.
"""

from __future__ import annotations

from pathlib import Path

from helpers import cli


def _refusal(*args: str) -> str:
    result = cli(*args, "--target", "boyz")
    assert result.exit_code == 1, result.output
    return " ".join(result.stderr.split())


TACTICAL = ("shoot", "tactical squad", "--edition", "11")


def test_two_option_limits_together_are_named_with_the_weapons_that_break_them() -> None:
    text = _refusal(
        *TACTICAL, "--weapon", "Flamer", "--weapon", "Meltagun", "--weapon", "Lascannon"
    )
    assert "can give only 2 models the loadouts of 2 wargear options (one of the loadouts " in text
    assert "flamer, grav-gun, meltagun and plasma-gun (1 model); one of the loadouts " in text
    assert text.endswith("Flamer x1, Meltagun x1 and Lascannon x1 need them on 3 models")


def test_each_pair_of_the_three_fits() -> None:
    pairs = [("Flamer", "Meltagun"), ("Flamer", "Lascannon"), ("Meltagun", "Lascannon")]
    for a, b in pairs:
        ok = cli(*TACTICAL, "--weapon", a, "--weapon", b, "--target", "boyz")
        assert ok.exit_code == 0, (a, b, ok.output)


def test_one_limit_alone_names_only_its_weapons() -> None:
    """Two lascannons: only the second option gives one, so that option (1 model) alone is the
    reason, and the weapon named is the lascannon."""
    text = _refusal(*TACTICAL, "--weapon", "Lascannon x2")
    assert "Lascannon x2 needs 2" in text
    assert "loadouts of 2 wargear options" not in text


def _list(tmp_path: Path, marines: int, weapons: list[str]) -> Path:
    lines = [
        "Test (140 Points)",
        "",
        "Space Marines",
        "Gladius Task Force (1 Detachment Points)",
        "Strike Force (2,000 Points)",
        "",
        "BATTLELINE",
        "",
        "Tactical Squad (140 Points)",
        "  • 1x Tactical Sergeant",
        "     ◦ 1x Bolt pistol",
        "     ◦ 1x Boltgun",
        "     ◦ 1x Close combat weapon",
        f"  • {marines}x Tactical Marine",
        *(f"     ◦ {w}" for w in weapons),
        f"     ◦ {marines}x Bolt pistol",
        f"     ◦ {marines}x Close combat weapon",
        "",
        "Exported with App Version: v2.3.0 (1), Data Version: v912",
    ]
    path = tmp_path / "list.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_army_list_warning_blames_the_three_weapons(tmp_path: Path) -> None:
    path = _list(tmp_path, 9, ["6x Boltgun", "1x Flamer", "1x Meltagun", "1x Lascannon"])
    result = cli("army", path, "--show")
    text = " ".join(result.output.split())
    assert "Flamer x1, Meltagun x1 and Lascannon x1 need them on 3 models" in text
    assert "Flamer x1 and Meltagun x1 need it" not in text
    assert cli("army", path, "--show", "--strict").exit_code == 1
    ok = _list(tmp_path, 9, ["7x Boltgun", "1x Flamer", "1x Lascannon"])
    assert cli("army", ok, "--show", "--strict").exit_code == 0


def test_an_exclusion_names_the_loadout_and_the_weapon_it_keeps_off() -> None:
    text = _refusal(
        "shoot", "boyz", "--edition", "11", "--models", "10", "--weapon", "Shoota x9",
        "--weapon", "Big shoota",
    )  # fmt: skip
    assert "can carry only 9 of Shoota and Big shoota at once (Boy ×9)" in text
    assert text.endswith(
        "(wargear option: one of the loadouts big-shoota-close-combat-weapon, each for the "
        "models it lists: 1 model for every 10 models; loadout big-shoota-close-combat-weapon "
        "is for a Boy not equipped with Shoota: no model taking it carries one)"
    )


def test_once_per_unit_twice_in_ten_names_each_loadouts_models() -> None:
    text = _refusal(
        "shoot", "tempestus scions", "--edition", "11", "--models", "5", "--weapon", "Flamer x2"
    )
    assert text.endswith(
        "Flamer x2 needs 2 (wargear option: one of the loadouts flamer and flamer-x2, each for "
        "the models it lists: flamer for 1 model in units of 5 models or more and flamer-x2 for "
        "2 models in units of 10 models or more)"
    )
    assert cli(
        "shoot", "tempestus scions", "--edition", "11", "--models", "10", "--weapon",
        "Flamer x2", "--target", "boyz",
    ).exit_code == 0  # fmt: skip


def test_a_unit_below_its_smallest_size_is_flagged_and_strict_refuses_it(tmp_path: Path) -> None:
    path = _list(tmp_path, 3, ["3x Boltgun"])
    shown = cli("army", path, "--show")
    assert shown.exit_code == 0
    text = " ".join(shown.output.split())
    assert (
        "Tactical Squad has 4 models, fewer than its smallest size (sizes 10): read as a "
        "damaged unit of 10, as --models 4 takes it (--strict refuses it)"
    ) in text
    assert "(1 unit below the smallest size)" in text
    strict = cli("army", path, "--show", "--strict")
    assert strict.exit_code == 1
    assert "1 unit below the smallest size" in " ".join(strict.stderr.split())
    full = _list(tmp_path, 9, ["9x Boltgun"])
    assert cli("army", full, "--show", "--strict").exit_code == 0


def test_the_json_lists_the_reason(tmp_path: Path) -> None:
    import json

    path = _list(tmp_path, 3, ["3x Boltgun"])
    out = json.loads(cli("army", path, "--show", "--json").output)
    unit = out["resolution"]["units"][0]
    assert unit["below_minimum"] and "fewer than its smallest size" in unit["below_minimum"][0]
    assert out["resolution"]["complete"] is False


WARHOUND = ("shoot", "warhound titan", "--edition", "10")


def test_the_same_weapon_from_two_options_is_two_weapons() -> None:
    """Warhound Titan (10th edition export): "This model's Warhound plasma blastgun can be
    replaced with one of the following: 1 Warhound inferno gun, 1 Warhound turbo-laser
    destructor, 1 Warhound vulcan mega-bolter" and "This model's Warhound vulcan mega-bolter
    can be replaced with one of the following: 1 Warhound inferno gun, 1 Warhound plasma
    blastgun, 1 Warhound turbo-laser destructor". Each option is the player's own, so both arms
    may become inferno guns (two), never three, and two leave no mega-bolter."""
    import json

    two = cli(*WARHOUND, "--weapon", "Warhound inferno gun x2", "--target", "boyz", "--json")
    assert two.exit_code == 0, two.output
    used = {w["name"]: w["count"] for w in json.loads(two.output)["weapons"]}
    assert used == {"Warhound inferno gun": 2}
    mixed = ("--weapon", "Warhound inferno gun", "--weapon", "Warhound turbo-laser destructor")
    assert cli(*WARHOUND, *mixed, "--target", "boyz").exit_code == 0
    text = _refusal(*WARHOUND, "--weapon", "Warhound inferno gun x3")
    assert "can carry only 2 of Warhound inferno gun (Warhound Titan ×1, 2 in all)" in text
    text = _refusal(
        *WARHOUND, "--weapon", "Warhound inferno gun x2", "--weapon", "Warhound vulcan mega-bolter"
    )
    assert "Warhound inferno gun x2 and Warhound vulcan mega-bolter x1 need 3" in text


VOIDREAVERS = ("shoot", "corsair voidreavers", "--edition", "11")


def _voidreavers(*weapons: str, models: int | None = None) -> int:
    size = () if models is None else ("--models", str(models))
    args = [a for w in weapons for a in ("--weapon", w)]
    return cli(*VOIDREAVERS, *size, *args, "--target", "boyz").exit_code


def test_a_weapon_gained_by_one_option_is_replaced_by_another() -> None:
    """Corsair Voidreavers (data 912): "Any number of Corsair Voidreavers in this unit can each
    have their shuriken pistol and power sword replaced with 1 shuriken rifle", then "If this
    unit contains 10 models, 1 Corsair Voidreaver's shuriken rifle can be replaced with one of
    the following: 1 shuriken cannon, 1 wraithcannon". No model carries a rifle by default, so
    the second option applies after the first: one Voidreaver of a 10-model unit ends with a
    shuriken cannon (or a wraithcannon) and its close combat weapon. Before, the option was not
    generated and any number of cannons went to any models."""
    assert _voidreavers("Shuriken cannon") == 0
    assert _voidreavers("Shuriken cannon x2") == 1
    assert _voidreavers("Shuriken cannon", "Wraithcannon") == 1  # one option: one item
    assert _voidreavers("Shuriken cannon", models=5) == 1  # only if the unit has 10 models
    # 8 other Voidreavers and the Felarch (his pistol replaced) carry rifles; not 10
    assert _voidreavers("Shuriken cannon", "Shuriken rifle x9") == 0
    assert _voidreavers("Shuriken cannon", "Shuriken rifle x10") == 1
    assert _voidreavers("Shuriken cannon", "Blaster") == 0  # a blaster is another model's
    text = _refusal(*VOIDREAVERS, "--models", "5", "--weapon", "Shuriken cannon")
    assert "Shuriken cannon x1 needs 1" in text and "in units of 10 models or more" in text


def test_an_army_list_model_with_the_cannon_keeps_no_pistol(tmp_path: Path) -> None:
    """The cannon's model gave its pistol and power sword for the rifle the cannon replaced:
    listed with a shuriken pistol too, it is over the limits; without it, it is taken."""
    from wh40k_calc.catalog import Catalog
    from wh40k_calc.composition import lines_fit

    ds = Catalog(use_env=False, home=None).find("corsair voidreavers", edition="11")
    cannon = "Shuriken cannon"
    felarch = ("Voidreaver Felarch", 1, {"shurikenpistol": 1, "powersword": 1})
    rest = ("Corsair Voidreaver", 8, {"shurikenpistol": 8, "powersword": 8})
    alone = ("Corsair Voidreaver", 1, {"shurikencannon": 1, "closecombatweapon": 1})
    with_pistol = ("Corsair Voidreaver", 1, {"shurikencannon": 1, "shurikenpistol": 1})
    assert ds.weapon(cannon) is not None
    assert lines_fit(ds, [felarch, rest, alone], 10)
    assert not lines_fit(ds, [felarch, rest, with_pistol], 10)

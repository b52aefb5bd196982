"""Wargear footnotes: the Sergeant's "two ranged weapons only if one of them is a Pistol, and
one Pistol at most" (a choice's ``one_pistol``), "no weapon more than twice per unit" (and
"... once per unit, unless this unit contains 10 models, then twice"), edition 11's footnotes
printed after an unmarked last item, and the footnotes we do not read listed by ``calc show``.

The figures are the options' own, worked by hand: a Tactical Sergeant takes two different
weapons of his list in place of his bolt pistol and boltgun, so a combi-weapon with a storm
bolter (two ranged weapons, no Pistol), a grav-pistol with a plasma pistol (two Pistols) and a
storm bolter beside the 10 boltguns of 9 Tactical Marines and the Sergeant are refused; a
storm bolter with 9 boltguns, or a storm bolter and a grav-pistol carried, are not. Up to 4
Kasrkin Troopers take a special weapon, no weapon more than twice: 2 flamers and 2
meltaguns, not 3 flamers. Up to 2 Tempestus Scions for every 5 models take one, each weapon
once unless the unit has 10 models, then twice.
"""

from __future__ import annotations

import pytest
from helpers import cli

from wh40k_calc.attack_sets import CARRYING
from wh40k_calc.catalog import Catalog
from wh40k_calc.composition import assign
from wh40k_calc.datasheet import norm_name
from wh40k_calc.importers import gdc_sheet
from wh40k_calc.importers import loadouts as L

CAT = Catalog(use_env=False, home=None)


def _shoot(*args: str):
    return cli("shoot", *args, "-t", "boyz")


@pytest.mark.parametrize(
    ("args", "ok"),
    [
        (("--weapon", "Combi-weapon x1", "--weapon", "Storm bolter x1"), False),
        (("--weapon", "Grav-pistol x1", "--weapon", "Plasma pistol – standard x1"), False),
        (("--weapon", "Storm bolter x1", "--weapon", "Boltgun x10"), False),
        (("--weapon", "Storm bolter x1", "--weapon", "Boltgun x9"), True),
        (("--weapon", "Combi-weapon x1", "--weapon", "Power fist x1"), True),
        (("--edition", "11", "--weapon", "Combi-weapon x1", "--weapon", "Storm bolter x1"),
         False),
        (("--edition", "11", "--weapon", "Storm bolter x1", "--weapon", "Boltgun x9"), True),
    ],
)  # fmt: skip
def test_the_tactical_sergeants_ranged_weapons(args: tuple[str, ...], ok: bool) -> None:
    res = _shoot("Space Marines/Tactical Squad", *args)
    if ok:
        assert res.exit_code == 0, res.output
    else:
        assert res.exit_code == 1 and "error: --weapon" in res.stderr, res.output


@pytest.mark.parametrize("edition", ["10", "11"])
def test_carried_one_pistol_and_one_other(edition: str) -> None:
    ds = CAT.find("Tactical Squad", "Space Marines", edition)
    counts = {"Tactical Marine": 9, "Tactical Sergeant": 1}

    def carried(*names: str) -> bool:
        wanted = {norm_name(n): 1 for n in names}
        return assign(ds, counts, wanted, 10, counting=CARRYING) is not None

    assert carried("Storm bolter", "Grav-pistol")
    assert carried("Thunder hammer", "Power fist")  # edition 11's last item, read since
    assert carried("Combi-weapon", "Plasma pistol")
    assert not carried("Storm bolter", "Combi-weapon")
    assert not carried("Grav-pistol", "Plasma pistol")


@pytest.mark.parametrize("edition", ["10", "11"])
def test_the_devastator_sergeants_two_different_weapons(edition: str) -> None:
    """ "The Devastator Sergeant's bolt pistol and boltgun can be replaced with two different
    weapons from the following list" (with the same footnote): a choice of 2, each once."""
    ds = CAT.find("Devastator Squad", "Space Marines", edition)
    (choice,) = ds.model("Devastator Sergeant").choices
    assert choice.up_to == 2 and choice.one_pistol and not choice.adds
    assert {"powerfist", "thunderhammer", "gravpistol", "combiweapon"} <= set(choice.weapons)
    assert set(choice.weapons) <= choice.once


def test_an_unmarked_last_item_keeps_its_name_and_the_footnote_is_apart() -> None:
    body, notes = gdc_sheet.option_text(
        "The Boss's axe and pistol can be replaced with two different weapons from the "
        "following list:\n◦ 1 rifle\n◦ 1 big hammer  * This model can only be equipped with "
        "two ranged weapons if one of them is a Pistol (and it can only have one Pistol)."
    )
    assert body.splitlines()[-1] == "1 big hammer"
    assert len(notes) == 1 and L._ONE_PISTOL.search(notes[0])


def test_no_weapon_more_than_twice_per_unit_is_read() -> None:
    assert L._twice(
        "You cannot select the same weapon from this list more than twice per unit"
    ) == (
        0,
        2,
    )
    assert L._twice(
        "You cannot select the same weapon from this list more than once per unit, unless this "
        "unit contains 10 models, in which case you cannot select the same weapon more than "
        "twice per unit."
    ) == (10, 2)


@pytest.mark.parametrize(
    ("args", "ok"),
    [
        (("Astra Militarum/Kasrkin", "--weapon", "Flamer x2", "--weapon", "Meltagun x2"), True),
        (("Astra Militarum/Kasrkin", "--weapon", "Flamer x3"), False),
        (("Astra Militarum/Kasrkin", "--edition", "11", "--weapon",
          "Plasma gun – Standard x2", "--weapon", "Flamer x2"), True),
        (("Astra Militarum/Kasrkin", "--edition", "11", "--weapon",
          "Plasma gun – Standard x3"), False),
        (("Tempestus Scions", "--models", "5", "--weapon", "Flamer", "--weapon", "Meltagun"),
         True),
        (("Tempestus Scions", "--models", "5", "--weapon", "Flamer x2"), False),
        (("Tempestus Scions", "--models", "10", "--weapon", "Flamer x2", "--weapon",
          "Meltagun x2"), True),
        (("Tempestus Scions", "--models", "10", "--weapon", "Flamer x3"), False),
    ],
)  # fmt: skip
def test_no_weapon_more_than_k_times(args: tuple[str, ...], ok: bool) -> None:
    res = _shoot(*args)
    if ok:
        assert res.exit_code == 0, res.output
    else:
        assert res.exit_code == 1 and "error: --weapon" in res.stderr, res.output


def test_show_lists_the_footnotes_not_modelled_and_the_pistol_rule() -> None:
    shown = " ".join(cli("show", "Deathwing Command Squad").output.split())
    assert "Options not generated: a footnote not modelled: Watcher in the Dark" in shown
    tactical = " ".join(cli("show", "Space Marines/Tactical Squad").output.split())
    assert "at most one Pistol and one other ranged weapon" in tactical
    rows = [{"description": "1 Grunt's axe can be replaced with 1 hammer.*", "button": "•"}]
    rows.append({"description": "* Designer's note: a made-up footnote.", "button": "*"})
    out = L.generate_loadouts(rows, [], [], {})
    assert {"reason": "a footnote not modelled", "items": ["hammer"]} in out.not_generated
    read = [rows[0], {"description": "* Maximum 1 per model.", "button": "*"}]
    assert not any(
        o["reason"] == "a footnote not modelled"
        for o in L.generate_loadouts(read, [], [], {}).not_generated
    )

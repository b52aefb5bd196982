"""Wargear options applied after another option (10th edition export, 2025-07; both
editions' core rules: options are taken one after the other, a swap of X needs the model to
carry X, and a model may take each of its options).

- Death Company Marines with Boltguns (and with Jump Packs): default boltgun and close combat
  weapon. Option 1: any number of models swap both for an Astartes chainsword and a bolt
  pistol, or for a thunder hammer. Option 2: any number swap their bolt pistol for a hand
  flamer, an inferno pistol or a plasma pistol. Option 3: any number swap their Astartes
  chainsword for a power fist or a power weapon. A model reaches: its default, the hammer,
  or a melee weapon of {chainsword, fist, power weapon} with a pistol of {bolt, hand flamer,
  inferno, plasma}: 14 equipments, each for any number of models.
- Furioso Dreadnought (one model): heavy frag cannon, Furioso fist, storm bolter. Option 1:
  the cannon and fist become Blood Talons and a meltagun, or twin Furioso fists and a
  meltagun; option 2: the storm bolter becomes a heavy flamer; option 3: the meltagun becomes
  a heavy flamer. So at most 2 heavy flamers (storm bolter and meltagun both swapped), and 2
  only beside Blood Talons or twin fists, never beside the cannon or a meltagun.
- Reiver Squad: "All models ..." swap their combat knife for a bolt carbine and a close combat
  weapon; then the Sergeant, if he has a bolt carbine, may add a combat knife. Left not
  generated: an all-or-none option (``whole``) is checked by the weapons only one alternative
  gives, and the Sergeant's knife on the carbine equipment would make the knife no evidence,
  so 9 Reivers' knives beside a Sergeant's carbine (not allowed) would pass.

Each accepted and refused set is worked out by hand from the lists above."""

from __future__ import annotations

import pytest
from helpers import cli

from wh40k_calc.catalog import Catalog

DC = ("shoot", "death company marines with boltguns", "--edition", "10")
FURIOSO = ("shoot", "furioso dreadnought", "--edition", "10")
PLASMA = "Plasma pistol – standard"


def _code(unit: tuple[str, ...], *weapons: str, models: int | None = None) -> int:
    size = () if models is None else ("--models", str(models))
    args = [a for w in weapons for a in ("--weapon", w)]
    result = cli(*unit, *size, *args, "--target", "boyz")
    assert result.exit_code in (0, 1), result.output
    return result.exit_code


@pytest.mark.parametrize(
    ("weapons", "models", "code"),
    [
        (("Power fist x10", f"{PLASMA} x10"), None, 0),  # every model both swaps
        (("Power fist x11",), None, 1),  # one melee weapon a model
        ((f"{PLASMA} x5", "Bolt pistol x5", "Power weapon x10"), None, 0),
        ((f"{PLASMA} x10", "Bolt pistol x1"), None, 1),  # the bolt pistol was swapped
        (("Thunder hammer x2", "Power fist x8", f"{PLASMA} x8"), None, 0),
        (("Thunder hammer x2", "Power fist x8", f"{PLASMA} x9"), None, 1),  # a hammer: no pistol
        (("Thunder hammer", "Power fist x10"), None, 1),
        (("Power fist", "Boltgun x9"), None, 0),
        (("Power fist", "Boltgun x10"), None, 1),  # the fist's model gave its boltgun
        (("Hand flamer x5", "Inferno pistol"), 5, 1),  # one pistol a model
        (("Power fist x5", "Power weapon"), 5, 1),
        (
            (
                "Hand flamer x3",
                "Inferno pistol x3",
                f"{PLASMA} x4",
                "Power fist x6",
                "Power weapon x4",
            ),
            None,
            0,
        ),
    ],
)
def test_death_company_take_both_chained_options(
    weapons: tuple[str, ...], models: int | None, code: int
) -> None:
    assert _code(DC, *weapons, models=models) == code


def test_death_company_options_are_generated_in_both_kits() -> None:
    """Both datasheets with these options: nothing of them is left not generated."""
    cat = Catalog(use_env=False, home=None)
    for name in (
        "death company marines with boltguns",
        "death company marines with boltguns and jump packs",
    ):
        ds = cat.find(name, edition="10")
        assert not ds.options_not_generated, name
        assert "power-fist-plasma-pistol" in ds.loadouts


@pytest.mark.parametrize(
    ("weapons", "code"),
    [
        (("Blood talons", "Heavy flamer x2"), 0),  # options 1, 2 and 3
        (("Twin Furioso fists", "Heavy flamer", "Storm bolter"), 0),  # 1 and 3
        (("Meltagun", "Heavy flamer"), 0),  # 1 and 2
        (("Heavy frag cannon", "Heavy flamer x2"), 1),  # the second flamer replaces a meltagun
        (("Furioso fist", "Heavy flamer x2"), 1),
        (("Meltagun", "Heavy flamer x2"), 1),
        (("Heavy flamer x3",), 1),
        (("Blood talons", "Twin Furioso fists"), 1),  # items of one option
    ],
)
def test_the_furioso_s_meltagun_from_either_item_becomes_a_heavy_flamer(
    weapons: tuple[str, ...], code: int
) -> None:
    assert _code(FURIOSO, *weapons) == code


@pytest.mark.parametrize("edition", ["10", "11"])
def test_the_reiver_sergeant_s_knife_after_an_all_or_none_option_stays_not_generated(
    edition: str,
) -> None:
    ds = Catalog(use_env=False, home=None).find("reiver squad", edition=edition)
    left = {(o.reason, i) for o in ds.options_not_generated for i in o.items}
    assert ("no model carries the weapons replaced", "combat knife") in left

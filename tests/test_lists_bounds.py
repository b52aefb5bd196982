"""Army lists: a count of a weapon above what the unit's models could carry under any loadout
is refused; the finer wargear limits stay warnings (``tests/test_lists_melee_limits.py``).

The bound is the unit's models times the most copies of one weapon any one model of the
datasheet could carry (:func:`wh40k_calc.lists.bounds.most_copies`), worked out here by hand
from the datasheets (edition 11, data 912):

* Boyz: a Boy carries a slugga and a choppa, may add one shoota (``once``), or trade both for
  a big shoota or a rokkit launcha and a close combat weapon; a Boss Nob a slugga and one of
  a big choppa, power klaw, kustom shoota, kombi-weapon... : never two of one weapon, so 1.
* Killa Kans: a kan shoota or one of three other guns, and a kan klaw: 1.
* Commander in Coldstar Battlesuit: its high-output burst cannon may become a fusion blaster
  (a loadout: +1) and it may add up to three more guns of a list, duplicates allowed (a
  choice, ``up_to: 3``): 4 fusion blasters.
* Deff Dread: two big shootas, two dread klaws and stompy feet (5 weapons), and two wargear
  options our data does not generate (each big shoota, each dread klaw, may become a skorcha,
  a rokkit launcha, ...): each may turn every weapon of the kit into one of its items, 5 more
  each, so 10 — generous on purpose: 4 skorchas on a Deff Dread (all four arms swapped, which
  the datasheet allows but our options do not say) must not be refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import WTC_ORKS_HEADER, cli

from wh40k_calc.catalog import Catalog
from wh40k_calc.lists.bounds import most_copies
from wh40k_calc.lists.detect import parse_bytes
from wh40k_calc.lists.model import UnitCountError
from wh40k_calc.lists.resolve import resolve_army

ROSTERS = Path(__file__).resolve().parents[2] / "shared" / "rosters"
ORKS = ROSTERS / "nr-wtc-compact-orks" / "list.txt"

HEADER = WTC_ORKS_HEADER


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return Catalog(use_env=False, home=None)


@pytest.mark.parametrize(
    ("unit", "most"),
    [
        ("Boyz", 1),
        ("Killa Kans", 1),
        ("Commander in Coldstar Battlesuit", 4),
        # its 2 big shootas and 2 dread klaws may each become a skorcha (both options generated)
        ("Deff Dread", 4),
        # up to 4 big shootas besides its tracks and wheels; its deff rolla option (not
        # generated) adds the largest kit's 1 weapon
        ("Battlewagon", 4),
    ],
)
def test_the_most_copies_one_model_could_carry(cat: Catalog, unit: str, most: int) -> None:
    assert most_copies(cat.find(unit, edition="11")) == most


def _wtc(body: str, points: int) -> bytes:
    return (HEADER.format(points=points) + body + "\nCreated with newrecruit.eu v35.82\n").encode()


def test_a_count_within_the_bound_but_over_our_options_is_a_warning(cat: Catalog) -> None:
    """10 shootas on 10 Boyz, one of them on the Boss Nob: 10 models could carry 10 (the
    bound), our options give only the 9 Boys one each: a warning, the list's weapons used
    (--strict refuses it)."""
    body = (
        "10x Boyz (90 pts)\n• 1x Nob: Power Klaw, Shoota\n• 9x Boy: 9 with Choppa, Slugga, Shoota\n"
    )
    r = resolve_army(parse_bytes(_wtc(body, 90), "t.txt"), cat)
    (boyz,) = r.units
    assert boyz.status == "resolved"
    assert boyz.beyond_options == (
        "this unit of 10 models can carry only 9 of Shoota (Boy ×9); Shoota x10 needs 10",
    )


def test_a_count_beyond_any_loadout_refuses_the_list(cat: Catalog) -> None:
    body = (
        "10x Boyz (90 pts)\n• 1x Nob: Power Klaw, 2x Shoota\n"
        "• 9x Boy: 9 with Choppa, Slugga, Shoota\n"
    )
    with pytest.raises(UnitCountError) as exc:
        resolve_army(parse_bytes(_wtc(body, 90), "t.txt"), cat)
    assert str(exc.value) == (
        "lines 9, 10: 'Boyz' lists 11 of 'Shoota' on 10 models, more than they could carry under "
        "any loadout of Boyz (at most one of a weapon a model: 10); fix the count in the list"
    )


def test_the_bound_is_generous_where_our_options_are_incomplete(cat: Catalog) -> None:
    """A deff rolla on a Battlewagon: an option our data does not generate (the replaced
    weapon is no default one) gives it; the bound takes it, with the warning that the count is
    not checked against that option; 5 are more than the bound (4) lets one model carry."""
    body = "1x Battlewagon (160 pts): 1x Deff rolla, 1x Kannon, Tracks and wheels\n"
    r = resolve_army(parse_bytes(_wtc(body, 160), "t.txt"), cat)
    (wagon,) = r.units
    assert wagon.status == "resolved"
    assert any("wargear option our data does not generate" in w for w in wagon.warnings)
    body = "1x Battlewagon (160 pts): 5x Deff rolla, Tracks and wheels\n"
    with pytest.raises(UnitCountError, match="at most 4 of a weapon a model: 4"):
        resolve_army(parse_bytes(_wtc(body, 160), "t.txt"), cat)


def test_four_skorchas_on_a_deff_dread_are_its_generated_options(cat: Catalog) -> None:
    """Each of a Deff Dread's four arms may become a skorcha (the generator reads "This
    model's big shootas can each be replaced with one of the following" and its dread klaws'
    twin option): 4 are checked and accepted without a warning; 5 are refused."""
    body = "1x Deff Dread (130 pts): 4x Skorcha, Stompy feet\n"
    r = resolve_army(parse_bytes(_wtc(body, 130), "t.txt"), cat)
    (dread,) = r.units
    assert dread.status == "resolved"
    assert dread.warnings == () and dread.beyond_options == ()
    body = "1x Deff Dread (130 pts): 5x Skorcha, Stompy feet\n"
    with pytest.raises(UnitCountError, match="at most 4 of a weapon a model: 4"):
        resolve_army(parse_bytes(_wtc(body, 130), "t.txt"), cat)


@pytest.mark.skipif(not ORKS.is_file(), reason=f"needs {ORKS} (the sample army lists)")
def test_the_trial_s_twelve_weapons_on_nine_boys(tmp_path: Path) -> None:
    """The fresh trial: ``9x Boy: 12 with Choppa, Shoota, Slugga`` ran 12 shootas and 12
    choppas on 9 Boys (a warning only). Now refused, exit code 1; the list as exported
    still runs."""
    text = ORKS.read_text(encoding="utf-8").replace("9x Boy: 9 with", "9x Boy: 12 with")
    path = tmp_path / "b12.txt"
    path.write_text(text, encoding="utf-8")
    result = cli("army", path, "-t", "Space Marines/Intercessor Squad")
    assert result.exit_code == 1
    assert (
        "line 17: 'Boyz' lists 12 of 'Choppa' on 10 models, more than they could carry under "
        "any loadout of Boyz" in " ".join(result.output.split())
    )
    assert cli("army", ORKS, "--show").exit_code == 0


def test_two_names_for_one_weapon_on_a_line_count_it_once(cat: Catalog) -> None:
    """``3 with Saddlegit weapons, Stikka, Stikka (melee)`` on 3 Squighog Boyz (edition 10):
    "Stikka" is a base name that stands for the ranged and the melee Stikka, so the melee
    one is named twice on the line: 3 carried, not 6 (which refused the benchmark's list)."""
    body = (
        "4x Squighog Boyz (100 pts)\n• 1x Nob On Smasha Squig: Slugga, Big choppa\n"
        "• 3x Squighog Boy: 3 with Saddlegit weapons, Stikka, Stikka (melee)\n"
    )
    text = HEADER.replace("+ FORCE DISPOSITION: Purge the Foe\n", "").format(points=100)
    text += body + "\nCreated with newrecruit.eu v35.82\n"
    r = resolve_army(parse_bytes(text.encode(), "t.txt"), cat)
    assert r.edition == "10" and r.units[0].status == "resolved"

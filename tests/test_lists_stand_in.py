"""Army lists: a listed weapon we do not have is replaced by what its model carries by default
in that slot (``wh40k_calc/lists/stand_in.py``).

Hand-worked from the edition-11 datasheets (data 912): a Killa Kan carries a kan shoota and a
kan klaw; "Kan Blasta" is not among its weapons. Listed "Kan Blasta, Kan Klaw", the klaw
fills the klaw's slot and the gun's slot is left empty, so the Kans keep their kan shootas
there (they lost all shooting: the fresh trial). A Kan listed with a rokkit launcha (a
loadout that replaces the kan shoota) has its gun slot filled, so nothing is added to it. A
Deff Dread carries two big shootas, two dread klaws and stompy feet; listed "Dread Klaws,
Extra Klaw, Skorcha" it has three default slots unfilled (a big shoota, a dread klaw, its
stompy feet) and one unknown weapon: which slot it takes is not known, so it is left out, as
before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import WTC_ORKS_HEADER, cli_json

from wh40k_calc.catalog import Catalog
from wh40k_calc.lists.detect import parse_bytes
from wh40k_calc.lists.resolve import resolve_army
from wh40k_calc.units import build_unit

ROSTERS = Path(__file__).resolve().parents[2] / "shared" / "rosters"
ORKS = ROSTERS / "nr-wtc-compact-orks" / "list.txt"
HEADER = WTC_ORKS_HEADER


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return Catalog(use_env=False, home=None)


def _resolve(cat: Catalog, body: str, points: int):
    text = HEADER.format(points=points) + body + "\nCreated with newrecruit.eu v35.82\n"
    return resolve_army(parse_bytes(text.encode(), "t.txt"), cat)


def _kits(row) -> list[tuple[int, list[str]]]:
    return sorted(
        (g.count, sorted(w.name for w in g.weapons))
        for g in build_unit(row.choice, "attacker", "11").groups
    )


def test_killa_kans_keep_their_default_gun_for_one_we_lack(cat: Catalog) -> None:
    r = _resolve(cat, "3x Killa Kans (130 pts): 3 with Kan Blasta, Kan Klaw\n", 130)
    (kans,) = r.units
    assert _kits(kans) == [(3, ["Kan klaw", "Kan shoota"])]
    assert (
        "Killa Kans: line 8: Kan Blasta is not one of ours: its 3 models keep their default "
        "Kan shoota ×3 in its place"
    ) in kans.warnings
    (blasta,) = [w for w in kans.weapons if w.listed == "Kan Blasta"]
    assert blasta.status == "unresolved"  # still counted as not ours (--strict)
    assert blasta.weapons == ("Kan shoota",)
    assert not r.complete


def test_a_filled_slot_gets_nothing(cat: Catalog) -> None:
    """Two Kans with the unknown gun, one with a rokkit launcha (its loadout replaces the
    kan shoota): the two keep a kan shoota each, the third none."""
    body = (
        "3x Killa Kans (130 pts)\n• 2x Killa Kan: 2 with Kan Blasta, Kan Klaw\n"
        "• 1x Killa Kan: Rokkit launcha, Kan Klaw\n"
    )
    (kans,) = _resolve(cat, body, 130).units
    assert _kits(kans) == [(1, ["Kan klaw", "Rokkit launcha"]), (2, ["Kan klaw", "Kan shoota"])]


def test_more_empty_slots_than_unknown_weapons_leave_it_out(cat: Catalog) -> None:
    (dread,) = _resolve(
        cat, "1x Deff Dread (130 pts): Dread Klaws, Extra Klaw, Skorcha\n", 130
    ).units
    assert _kits(dread) == [(1, ["Dread klaw", "Skorcha"])]
    (extra,) = [w for w in dread.weapons if w.listed == "Extra Klaw"]
    assert extra.weapons == () and extra.fold is None
    assert not any("in its place" in w for w in dread.warnings)


@pytest.mark.skipif(not ORKS.is_file(), reason=f"needs {ORKS} (the sample army lists)")
def test_the_readme_s_orks_list_kans_shoot() -> None:
    """The README's example list: the Kans had no shoot step; now each Kans unit shoots its
    kan shootas (an activation in the army's sequence)."""
    out = cli_json("army", ORKS, "-t", "Space Marines/Intercessor Squad")
    kans = [u for u in out["units"] if u["name"] == "Killa Kans"]
    assert len(kans) == 2
    for u in kans:
        assert u["steps"][0].startswith("shoot Killa Kans")
        assert u["weapons_used"] == [
            {"name": "Kan shoota", "count": 3},
            {"name": "Kan klaw", "count": 3},
        ]

"""The text readers give each model type and each weapon the line of the export it is written
on, and a refusal of a weapon's count names that weapon's line, not its unit's heading (a
trial: "line 15: 'Boyz' lists 12 of 'Choppa'" named the heading; the choppas were on line
17).

The lines are checked against the text itself: the line a model type or weapon is given must
be one that names it (the test reads the text, not the reader); each refusal's line is
counted by hand in the list written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from wh40k_calc.catalog import Catalog
from wh40k_calc.lists.detect import parse_bytes
from wh40k_calc.lists.model import UnitCountError
from wh40k_calc.lists.resolve import resolve_army

DATA = Path(__file__).parent / "data" / "lists"
TEXTS = [
    "waaagh.gw-app.txt",
    "waaagh.gw-app-flat.txt",
    "waaagh.gw-app-plain.txt",
    "waaagh.gw-style.txt",
    "waaagh.listforge.txt",
    "waaagh.nr-simple.txt",
    "waaagh.wtc-compact.txt",
    "waaagh.wtc-full.txt",
]


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return Catalog(use_env=False, home=None)


@pytest.mark.parametrize("name", TEXTS)
def test_every_weapon_s_line_names_it(name: str) -> None:
    """Each weapon's line (and each model type's) is a line of the text that names it; every
    weapon of the list has one."""
    raw = (DATA / name).read_text(encoding="utf-8")
    text = raw.splitlines()
    army = parse_bytes(raw.encode(), name)
    seen = 0
    for u in army.units:
        for m in u.models:
            if m.line is not None:
                assert m.name is not None and m.name.lower() in text[m.line - 1].lower()
            for weapon, _ in m.weapons:
                lines = m.lines_of(weapon)
                assert lines, (u.name, weapon)
                for n in lines:
                    assert weapon.lower() in text[n - 1].lower(), (u.name, weapon, n)
                    seen += 1
    assert seen >= 10


def test_a_model_type_line_is_its_own() -> None:
    """The WTC compact list's Boyz: the heading, then the Boss Nob's and the Boys' lines."""
    army = parse_bytes((DATA / "waaagh.wtc-compact.txt").read_bytes(), "t.txt")
    text = (DATA / "waaagh.wtc-compact.txt").read_text(encoding="utf-8").splitlines()
    (boyz,) = [u for u in army.units if u.name == "Boyz"]
    assert boyz.line is not None and "Boyz (" in text[boyz.line - 1]
    nob, boys = boyz.models
    assert nob.line == boyz.line + 1 and boys.line == boyz.line + 2
    assert boys.lines_of("Choppa") == (boys.line,)


NR_SIMPLE = """Xenos - Orks - Test - [85 pts]

# ++ Army Roster ++ [85 pts]
## Configuration
Battle Size: Strike Force (2000 Point limit)
Detachment: War Horde

## Battleline [85 pts]
Boyz [85 pts]:
• 1x Boss Nob: Slugga, Power klaw
• 9x Boy: Slugga, 2x Choppa
"""

LISTFORGE = """Test - Orks - War Horde (85 Points)


Battleline:
Boyz (85 pts)
  • Boss Nob
    • Slugga
    • Power klaw
  • 9x Boy
    • 9x Slugga
    • 18x Choppa
"""

GW_STYLE = """+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - Orks
+ DETACHMENT: War Horde
+ TOTAL ARMY POINTS: 85pts
+++++++++++++++++++++++++++++++++++++++++++++++

BATTLELINE

10x Boyz (85 pts)
• 1x Boss Nob
  • 1x Slugga, 1x Choppa
• 9x Boy
  • 9x Slugga
  • 18x Choppa
"""

WTC = """+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - Orks
+ DETACHMENT: War Horde
+ FORCE DISPOSITION: Purge the Foe
+ TOTAL ARMY POINTS: 85pts
+++++++++++++++++++++++++++++++++++++++++++++++

10x Boyz (85 pts)
• 1x Nob: Power Klaw, Slugga
• 9x Boy: 9 with Slugga
  9 with Choppa
  9 with Choppa

Created with newrecruit.eu v35.82
"""

GW_APP = """T (85 Points)

Orks
Strike Force (2000 Points)
War Horde

OTHER DATASHEETS

Boyz (85 Points)
  • 1x Boss Nob
     ◦ 1x Slugga
     ◦ 1x Choppa
  • 9x Boy
     ◦ 9x Slugga
     ◦ 18x Choppa

Exported with App Version: v1.24.0 (1), Data Version: v620
"""

REFUSE = (
    "more than they could carry under any loadout of Boyz (at most one of a weapon a model: 10)"
)


@pytest.mark.parametrize(
    ("text", "where", "copies"),
    [
        (NR_SIMPLE, "line 11", 18),  # 2 choppas on each of the 9 Boys (line 11)
        (LISTFORGE, "line 11", 18),  # "• 18x Choppa" under the Boys
        (GW_STYLE, "lines 11, 14", 19),  # the Nob's choppa (line 11) and the Boys' 18
        (WTC, "lines 11, 12", 18),  # two "9 with Choppa" lines (header 1-6, heading 8)
        (GW_APP, "lines 12, 15", 19),
    ],
)
def test_the_refusal_names_the_weapon_s_lines(
    cat: Catalog, text: str, where: str, copies: int
) -> None:
    with pytest.raises(UnitCountError) as exc:
        resolve_army(parse_bytes(text.encode(), "t.txt"), cat)
    assert str(exc.value).startswith(f"{where}: 'Boyz' lists {copies} of 'Choppa' on 10 models")
    assert REFUSE in str(exc.value)


def test_a_weapon_listed_past_any_option_names_its_line(cat: Catalog) -> None:
    """101 shootas on one model (past the 100 a model any list may give): its line, 11."""
    text = NR_SIMPLE.replace("2x Choppa", "101x Shoota").replace("9x Boy:", "1x Boy:")
    with pytest.raises(UnitCountError, match=r"^line 11: 'Boyz' lists 101 of 'Shoota'"):
        resolve_army(parse_bytes(text.encode(), "t.txt"), cat)


def test_a_weapon_we_lack_is_warned_on_its_line(cat: Catalog) -> None:
    """Killa Kans with a Kan Blasta (not one of ours) on the compact list's line 8."""
    text = WTC.replace(
        "10x Boyz (85 pts)\n• 1x Nob: Power Klaw, Slugga\n• 9x Boy: 9 with Slugga\n"
        "  9 with Choppa\n  9 with Choppa\n",
        "3x Killa Kans (130 pts): 3 with Kan Blasta, Kan Klaw\n",
    ).replace("85pts", "130pts")
    (kans,) = resolve_army(parse_bytes(text.encode(), "t.txt"), cat).units
    assert any(
        w.startswith("Killa Kans: line 8: Kan Blasta is not one of ours") for w in kans.warnings
    )


def test_a_model_type_we_lack_is_warned_on_its_line(cat: Catalog) -> None:
    text = NR_SIMPLE.replace("• 9x Boy: Slugga, 2x Choppa", "• 9x Gretchin: Slugga, Choppa")
    (boyz,) = resolve_army(parse_bytes(text.encode(), "t.txt"), cat).units
    assert any(
        w.startswith("Boyz: line 11: no model type is called 'Gretchin'") for w in boyz.warnings
    )

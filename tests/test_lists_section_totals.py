"""New Recruit's "simple" export states each section's points in its heading (``## Epic
Hero [195 pts]``): a section whose units do not add up to it gets a note naming the heading's
line, the stated points and the sum, as the list's total does; a note, not an error (the
list still reads). The sums are worked out by hand from the list written here."""

from __future__ import annotations

from wh40k_calc.lists.detect import parse_bytes

LIST = """Xenos - Orks - Test - [255 pts]

# ++ Army Roster ++ [255 pts]
## Configuration
Battle Size: Strike Force (2000 Point limit)
Detachment: War Horde

## Character [95 pts]
Warboss [95 pts]: Warlord, Kombi-weapon, Twin slugga, Power klaw

## Battleline [170 pts]
Boyz [85 pts]: Slugga, Choppa
Boyz [75 pts]: Slugga, Choppa

## Vehicle [0 pts]

## Dedicated Transport [10 pts]
Trukk [10 pts]: Big shoota, Spiked wheels
"""


def test_a_section_whose_units_do_not_add_up_gets_a_note() -> None:
    """Battleline says 170 but its two Boyz add up to 160 (85 + 75); Character (95) and
    Dedicated Transport (10) add up; Vehicle (0, no units) is not checked; the list's own
    total (255) is 95 + 160 + 10 = 265: its note as before."""
    army = parse_bytes(LIST.encode(), "t.txt")
    assert army.notes == (
        "line 11: section 'Battleline' says 170 points but its units add up to 160",
        "the list says 255 points but its units add up to 265",
    )


def test_sections_that_add_up_get_none() -> None:
    text = LIST.replace("[170 pts]", "[160 pts]").replace("[255 pts]", "[265 pts]")
    assert parse_bytes(text.encode(), "t.txt").notes == ()


def test_a_section_named_twice_is_summed_on_its_own() -> None:
    """A second ``## Battleline`` heading holds its own units: each total against its own."""
    text = LIST.replace("## Vehicle [0 pts]", "## Battleline [20 pts]\nTrukk [20 pts]: Big shoota")
    text = text.replace("[170 pts]", "[160 pts]").replace("[255 pts]", "[285 pts]")
    assert parse_bytes(text.encode(), "t.txt").notes == ()

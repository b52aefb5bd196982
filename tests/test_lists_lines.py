"""A text export's line that no list builder writes is refused naming that line and what is
wrong with it, in every text reader: it was taken as part of the unit above it (a fresh-user
trial: ``10x Boyz (-90 pts)`` or a heading with ESC after it made line 13's Warboss "count 21
models", and a single-line unit so damaged vanished into the one before it without a word),
or dropped with the unit under it. Text after an export's closing line, and a list pasted
twice, are refused the same way (9 units were read and the rest dropped, exit 0). The tree
exports refuse a unit nested in another unit (its models were read as the outer unit's
wargear) and a force's selection of no known type (dropped).

Each case changes one line of a test export (its position worked out from the text, not
from the reader) and checks the message; the exports as written are read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

from wh40k_calc.lists.detect import parse_bytes
from wh40k_calc.lists.model import ListError

DATA = Path(__file__).parent / "data" / "lists"
ROSTERS = Path(__file__).resolve().parents[2] / "shared" / "rosters"

POINTS = "points are a whole number from 0 up (e.g. '(90 pts)')"
CONTROL = "which no list builder writes: remove it, or copy or export the list again"
TWO = "the text holds two lists (pasted twice?); give calc army one list"

# (export, text replaced, by what, the line at fault as it then reads, words of the message)
CASES = {
    "wtc negative points": (
        "waaagh.wtc-compact.txt",
        "10x Boyz (85 pts)",
        "10x Boyz (-85 pts)",
        "10x Boyz (-85 pts)",
        f"'10x Boyz (-85 pts)' gives '(-85 pts)' as points; {POINTS}",
    ),
    "wtc fractional points": (
        "waaagh.wtc-compact.txt",
        "1x Trukk (65 pts)",
        "1x Trukk (6.5 pts)",
        "1x Trukk (6.5 pts): Big shoota, Spiked wheels, Wrecking ball",
        f"gives '(6.5 pts)' as points; {POINTS}",
    ),
    "wtc ESC after the heading": (
        "waaagh.wtc-compact.txt",
        "10x Boyz (85 pts)",
        "10x Boyz (85 pts)\x1b[31m",
        "10x Boyz (85 pts)\x1b[31m",
        f"'10x Boyz (85 pts)\\x1b[31m' holds a control character (\\x1b), {CONTROL}",
    ),
    "wtc a bell in a model line": (
        "waaagh.wtc-compact.txt",
        "• 9x Boy: 9 with",
        "• 9x Boy\x07: 9 with",
        "• 9x Boy\x07: 9 with Slugga, Choppa",
        f"holds a control character (\\x07), {CONTROL}",
    ),
    "wtc a single-line unit it cannot read": (  # it was a marker of the Deff Dread above it
        "waaagh.wtc-compact.txt",
        "1x Trukk (65 pts): Big",
        "1x Trukk (65 pts) Big",
        "1x Trukk (65 pts) Big shoota, Spiked wheels, Wrecking ball",
        "under unit 'Deff Dread' (line 23) is none of the lines New Recruit writes: a unit heading",
    ),
    "wtc a line before the first unit": (
        "waaagh.wtc-compact.txt",
        "Char1: 1x Warboss (95 pts)",
        "Char1: 1x Warboss 95 pts",
        "Char1: 1x Warboss 95 pts: Warlord, Kombi-weapon, Twin slugga, Power klaw",
        "before the first unit is none of the lines New Recruit writes",
    ),
    "wtc a unit after the closing line": (
        "waaagh.wtc-compact.txt",
        "Created with newrecruit.eu v35.82",
        "Created with newrecruit.eu v35.82\n\n1x Trukk (65 pts): Big shoota",
        "1x Trukk (65 pts): Big shoota",
        "'1x Trukk (65 pts): Big shoota' comes after New Recruit's closing line (line 26, "
        "'Created with newrecruit.eu v35.82'), after which the export writes nothing; remove "
        "it (a unit goes above the closing line)",
    ),
    "wtc full a heading it cannot read": (
        "waaagh.wtc-full.txt",
        "1x Trukk (65 pts)",
        "1x Trukk 65 pts",
        "1x Trukk 65 pts",
        "'1x Trukk 65 pts' under unit 'Deff Dread' (line 40) is none of the lines",
    ),
    "gw-style a heading it cannot read": (
        "waaagh.gw-style.txt",
        "Trukk (65 pts)",
        "Trukk 65 pts",
        "Trukk 65 pts",
        "'Trukk 65 pts' where a unit heading belongs is none of the lines New Recruit writes",
    ),
    "gw-style text after the closing line": (
        "waaagh.gw-style.txt",
        "• 1x Wrecking ball",
        "• 1x Wrecking ball\n\nCreated with newrecruit.eu v35.82\nGretchin (45 pts)",
        "Gretchin (45 pts)",
        "'Gretchin (45 pts)' comes after New Recruit's closing line",
    ),
    "gw-app negative points": (
        "waaagh.gw-app.txt",
        "Deff Dread (130 Points)",
        "Deff Dread (-130 Points)",
        "Deff Dread (-130 Points)",
        f"gives '(-130 Points)' as points; {POINTS}",
    ),
    "gw-app a heading it cannot read, no blank line": (  # it was a model type of the Lootas
        "waaagh.gw-app.txt",
        "\n\nDeff Dread (130 Points)",
        "\nDeff Dread 130 Points",
        "Deff Dread 130 Points",
        "'Deff Dread 130 Points' under unit 'Lootas' (line 31) is none of the lines the app "
        "writes in a unit",
    ),
    # the app's unit headings whose points are no whole number: the bracket was kept in the
    # unit's name, its points lost (an Attached unit of 90 pts, not 225), and with a second
    # ")" the unit was unresolved and its attachment to its Leader lost (a fresh-user trial)
    **{
        f"gw-app heading with points {bad}": (
            "waaagh.gw-app.txt",
            "Boyz (85 Points)",
            f"Boyz {bad}",
            f"Boyz {bad}",
            f"'Boyz {bad}' gives '{bad}' as points; points are a whole number from 0 up",
        )
        for bad in ("(1e3 Points)", "(0x87 Points)", "(½ Points)")
    },
    "gw-app heading with points (85 Points))": (
        "waaagh.gw-app.txt",
        "Boyz (85 Points)",
        "Boyz (85 Points))",
        "Boyz (85 Points))",
        "'Boyz (85 Points))' stands where the app writes a unit heading, which ends with its "
        "points, a whole number ('Blood Claws (135 Points)'); correct it or remove it",
    ),
    "gw-app a count with nothing counted": (  # it was a weapon named "9x"
        "waaagh.gw-app.txt",
        "◦ 9x Slugga",
        "◦ 9x Slugga\n     ◦ 9x",
        "     ◦ 9x",
        "'9x' under unit 'Boyz' (line 20) is a count with nothing counted, which the app never "
        "writes ('◦ 9x Bolt pistol'); correct it or remove it",
    ),
    "gw-app flat a count with nothing counted": (
        "waaagh.gw-app-flat.txt",
        "\n9x Slugga",
        "\n9x Slugga\n9x",
        "9x",
        "'9x' under unit 'Boyz' (line 18) is a count with nothing counted",
    ),
    "gw-app a unit after the closing line": (
        "waaagh.gw-app.txt",
        "Data Version: v912",
        "Data Version: v912\n\nGretchin (45 Points)\n  • 10x Grot blasta",
        "Gretchin (45 Points)",
        "'Gretchin (45 Points)' comes after the app's closing line (line 50, 'Exported with App "
        "Version ...'), after which the app writes nothing; remove it (a unit goes above the "
        "closing line)",
    ),
    "gw-app notes after the closing line": (
        "waaagh.gw-app-flat.txt",
        "Data Version: v946",
        "Data Version: v946\nDeploy the Boyz first",
        "Deploy the Boyz first",
        "'Deploy the Boyz first' comes after the app's closing line (line 49,",
    ),
    "listforge a heading it cannot read": (  # it was dropped, and its weapons with it
        "waaagh.listforge.txt",
        "Trukk (65 pts)",
        "Trukk (65)",
        "Trukk (65)",
        "'Trukk (65)' where a unit heading or a section belongs is none of the lines ListForge "
        "writes",
    ),
    "listforge a line at the margin in a unit": (
        "waaagh.listforge.txt",
        "  • Stompy feet\n",
        "  • Stompy feet\nTrukk 65 pts\n",
        "Trukk 65 pts",
        "'Trukk 65 pts' under unit 'Deff Dread' (line 35) is none of the lines ListForge",
    ),
    "nr-simple a heading it cannot read": (  # it was dropped with its model types
        "waaagh.nr-simple.txt",
        "Lootas [50 pts]:",
        "Lootas (50 pts):",
        "Lootas (50 pts):",
        "'Lootas (50 pts):' where a unit belongs is none of the lines New Recruit writes",
    ),
    "nr-simple negative points": (
        "waaagh.nr-simple.txt",
        "Trukk [65 pts]",
        "Trukk [-65 pts]",
        "Trukk [-65 pts]: Big shoota, Spiked wheels, Wrecking ball",
        f"gives '[-65 pts]' as points; {POINTS}",
    ),
    # a trial: "[1e2 pts]" was read as no points, and the list refused as "cut short"
    "nr-simple points with a letter": (
        "waaagh.nr-simple.txt",
        "Warboss [95 pts]",
        "Warboss [1e2 pts]",
        "Warboss [1e2 pts]: Warlord, Headwoppa's Killchoppa, Kombi-weapon, Twin slugga, Power "
        "klaw (Headwoppa's Killchoppa upgrade)",
        "gives '[1e2 pts]' as points; points are a whole number from 0 up",
    ),
}


def _changed(case: str) -> tuple[str, str, int]:
    name, old, new, line, _ = CASES[case]
    text = (DATA / name).read_text(encoding="utf-8")
    assert text.count(old) == 1, case
    changed = text.replace(old, new)
    return name, changed, changed.split("\n").index(line) + 1


@pytest.mark.parametrize("case", list(CASES))
def test_a_line_no_export_writes_is_refused_naming_it(case: str) -> None:
    name, changed, number = _changed(case)
    with pytest.raises(ListError) as info:
        parse_bytes(changed.encode(), name)
    message = str(info.value)
    assert message.startswith(f"{name}: line {number}: "), message
    assert CASES[case][4] in message, message
    assert "\n" not in message
    parse_bytes((DATA / name).read_bytes(), name)  # the export as written is read


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("waaagh.*.txt")))
def test_a_text_export_pasted_twice_is_refused(name: str) -> None:
    """Every text export twice in one file: refused as two lists, naming where the second
    begins (the app's was read up to its closing line, New Recruit's as one list of both)."""
    text = (DATA / name).read_text(encoding="utf-8")
    twice = f"{text.rstrip()}\n{text}"
    second = len(text.rstrip().split("\n")) + 1  # the second copy's first line
    with pytest.raises(ListError) as info:
        parse_bytes(twice.encode(), name)
    message = str(info.value)
    assert TWO in message, message
    assert message.startswith(f"{name}: line {second}: "), message


def test_a_unit_heading_without_items_is_read_in_the_simple_export() -> None:
    """``Trukk [65 pts]`` (no colon: a unit without options) is a unit, not a line the
    "simple" reader skipped (the unit was dropped)."""
    text = (DATA / "waaagh.nr-simple.txt").read_text(encoding="utf-8")
    old = "Trukk [65 pts]: Big shoota, Spiked wheels, Wrecking ball"
    army = parse_bytes(text.replace(old, "Trukk [65 pts]").encode(), "l")
    trukk = army.units[-1]
    assert (trukk.name, trukk.points, trukk.weapons, trukk.line) == ("Trukk", 65, (), 24)


def _nr_json() -> dict:
    return json.loads((DATA / "waaagh.nr.json").read_bytes())


def _selections(data: dict) -> list:
    return data.get("roster", data)["forces"][0]["selections"]


def test_a_unit_inside_a_unit_of_a_tree_export_is_refused() -> None:
    """The Lootas' selection moved inside the Boyz' (a damaged export): its Loota and
    Spanner were read as the Boyz' wargear."""
    data = _nr_json()
    sels = _selections(data)
    boyz = next(s for s in sels if s["name"] == "Boyz")
    lootas = next(s for s in sels if s["name"] == "Lootas")
    sels.remove(lootas)
    boyz["selections"].append(lootas)
    with pytest.raises(ListError) as info:
        parse_bytes(json.dumps(data).encode(), "l.json")
    assert str(info.value) == (
        "l.json: unit 'Boyz': it holds the unit 'Lootas' inside it; a unit is a selection of "
        "its force, not of another unit: export the list again"
    )
    rz = json.loads((DATA / "waaagh.rosterizer.json").read_bytes())
    units = rz["snapshot"]["assets"]["included"]
    outer = next(a for a in units if a["item"] == "Unit§Boyz")
    inner = next(a for a in units if a["item"] == "Unit§Lootas")
    units.remove(inner)
    outer["assets"]["included"].append(inner)
    with pytest.raises(ListError, match="unit 'Boyz': it holds the unit 'Lootas' inside it"):
        parse_bytes(json.dumps(rz).encode(), "rz.json")


@pytest.mark.parametrize("kind", ["modle", None])
def test_a_force_selection_of_no_known_type_is_refused(kind: str | None) -> None:
    """A top-level selection whose ``type`` is none of unit, model and upgrade (or missing)
    was dropped with its unit."""
    data = _nr_json()
    trukk = next(s for s in _selections(data) if s["name"] == "Trukk")
    if kind is None:
        del trukk["type"]
    else:
        trukk["type"] = kind
    with pytest.raises(ListError) as info:
        parse_bytes(json.dumps(data).encode(), "l.json")
    shown = '"modle"' if kind else "no type"
    assert str(info.value).startswith(f"l.json: selection 'Trukk' of the force has {shown}; ")


def _trial(old: str, new: str, line: int) -> bytes:
    """The fresh trial's WTC roster with line ``line`` changed."""
    lines = (ROSTERS / "nr-wtc-compact-orks" / "list.txt").read_text(encoding="utf-8").split("\n")
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)
    return "\n".join(lines).encode()


@pytest.mark.skipif(not ROSTERS.is_dir(), reason=f"needs {ROSTERS} (the sample army lists)")
@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("(90 pts)", "(-90 pts)", "'10x Boyz (-90 pts)' gives '(-90 pts)' as points"),
        ("(90 pts)", "(90 pts)\x1b", "'10x Boyz (90 pts)\\x1b' holds a control character"),
    ],
)
def test_the_trials_lists_name_line_15(tmp_path: Path, old: str, new: str, words: str) -> None:
    """The trial's lists: ``calc army`` blamed line 13 (the Warboss "counting 21 models") for
    line 15's Boyz heading."""
    path = tmp_path / "w.txt"
    path.write_bytes(_trial(old, new, 15))
    result = cli("army", path, "--target", "boyz")
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: line 15: {words}"), lines


@pytest.mark.skipif(not ROSTERS.is_dir(), reason=f"needs {ROSTERS} (the sample army lists)")
def test_the_trials_app_list_with_a_unit_after_its_closing_line(tmp_path: Path) -> None:
    text = (ROSTERS / "gw-app-space-wolves" / "list.txt").read_text(encoding="utf-8")
    footer = (
        text.rstrip()
        .split("\n")
        .index(next(ln for ln in text.split("\n") if ln.startswith("Exported")))
    )
    path = tmp_path / "extra.txt"
    path.write_text(text.rstrip() + "\n\nBlood Claws (135 Points)\n  • 10x Blood Claw\n", "utf-8")
    result = cli("army", path, "--target", "boyz")
    assert result.exit_code == 1
    assert f"line {footer + 3}: 'Blood Claws (135 Points)' comes after the app's closing line " in (
        " ".join(result.output.split())
    )
    path.write_text(text.rstrip() + "\n" + text, "utf-8")
    result = cli("army", path, "--target", "boyz")
    assert result.exit_code == 1 and TWO in " ".join(result.output.split())


def test_a_wtc_heading_with_only_warlord_after_its_colon_has_its_model_lines() -> None:
    """``Char1: 4x Chaplain Grimaldus (100 pts): Warlord`` over ``• 3x Cenobyte Servitor``
    and ``• 1x Chaplain Grimaldus`` (a real export): 4 models, the Warlord; the heading's
    ``Warlord`` made a model type of 4 of its own, and the list was refused as "counts 4
    models in its heading, but its model lines add up to 8"."""
    text = (DATA / "waaagh.wtc-compact.txt").read_text(encoding="utf-8")
    old = "Char1: 1x Warboss (95 pts): Warlord, Kombi-weapon, Twin slugga, Power klaw"
    new = "Char1: 2x Warboss (95 pts): Warlord\n• 1x Warboss: Kombi-weapon\n• 1x Grot: Twin slugga"
    assert text.count(old) == 1
    boss = parse_bytes(text.replace(old, new).encode(), "l").units[0]
    assert boss.warlord and boss.model_count == 2
    assert [(m.name, m.count, m.weapons) for m in boss.models] == [
        ("Warboss", 1, (("Kombi-weapon", 1),)),
        ("Grot", 1, (("Twin slugga", 1),)),
    ]


@pytest.mark.parametrize(
    ("name", "cut"),
    [
        ("waaagh.listforge.txt", "Trukk (6"),
        ("waaagh.nr-simple.txt", "Trukk [6"),
        ("waaagh.wtc-compact.txt", "1x Trukk (6"),
        ("waaagh.gw-style.txt", "Trukk (6"),
        ("waaagh.gw-app.txt", "Trukk (6"),
    ],
)
def test_a_list_cut_inside_its_last_heading_is_cut_short(name: str, cut: str) -> None:
    """A copy that stops inside the last unit's heading leaves a line no builder writes:
    the list is refused as cut short (it stops inside a line, and its units come short of
    its total), not for that line."""
    text = (DATA / name).read_text(encoding="utf-8")
    at = text.index(cut + "5")  # the last unit's heading: "Trukk (65 ..."
    with pytest.raises(ListError) as info:
        parse_bytes(text[: at + len(cut)].encode(), name)
    message = str(info.value)
    assert message.startswith(f"{name}: cut short: it says 425 points but its units add up "), (
        message
    )
    assert f"it stops inside a line ({cut!r})" in message, message


_NAMED_AS_ITS_UNIT = """Warboss (95 Points)

Orks
War Horde (1 Detachment Points)
Strike Force (2,000 Points)

CHARACTERS

Warboss (95 Points)
  • Warlord
  • 1x Kombi-weapon
  • 1x Twin slugga
  • 1x Power klaw

Exported with App Version: v2.3.0 (1), Data Version: v912
"""


def test_an_app_list_named_as_its_only_units_heading_is_one_list() -> None:
    """The app's title line is the list's name and points; a one-unit list may be named as its
    unit's heading reads ("Warboss (95 Points)" over a 95-point Warboss): that line again is
    no second list (the final trial's case, and hypothesis's round trip on "Boss (1 Points)");
    the list's first *two* lines again are."""
    army = parse_bytes(_NAMED_AS_ITS_UNIT.encode(), "one.txt")
    assert [(u.name, u.points) for u in army.units] == [("Warboss", 95)]
    body = _NAMED_AS_ITS_UNIT.split("Exported")[0]  # a copy without its closing line
    twice = body + _NAMED_AS_ITS_UNIT
    second = len(body.split("\n"))  # the copy ends in a newline: the next line is the second's
    with pytest.raises(ListError) as info:
        parse_bytes(twice.encode(), "two.txt")
    assert TWO in str(info.value) and f"line {second}:" in str(info.value), str(info.value)

"""Inputs that are not army lists are one line of error and a non-zero exit, never a
traceback: an empty file, blank text, binary data, a truncated export, a file larger than the
cap, text of another kind, a folder, a missing file, XML with a document type declaration, a
zip archive without a roster or with a roster too large to unpack."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from helpers import cli

from wh40k_calc.lists.detect import parse_bytes, read_list
from wh40k_calc.lists.model import ListError
from wh40k_calc.lists.source import MAX_BYTES, MAX_UNZIPPED

DATA = Path(__file__).parent / "data" / "lists"


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


BAD = {
    "empty": (b"", "empty"),
    "blank": (b"  \n\n \r\n", "empty"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "binary"),
    "latin-1": ("Boyz (90 pts) \xe9\xe8".encode("latin-1") + b"\xff\xfe", "not UTF-8"),
    "truncated json": ((DATA / "waaagh.nr.json").read_bytes()[:700], "truncated JSON"),
    "truncated xml": ((DATA / "waaagh.ros").read_bytes()[:900], "truncated XML"),
    "other json": (b'{"name": "x", "items": [1, 2]}', "not an army list export"),
    "other xml": (b"<html><body>hi</body></html>", "not a BattleScribe roster"),
    "prose": (
        b"Dear diary,\nToday I painted some models.\n" * 20,
        "no army list format recognised: none of its 40 lines is a list builder's title",
    ),
    "yaml": (
        (Path(__file__).parents[1] / "examples" / "lootas-loadouts.yaml").read_bytes(),
        "no army list format recognised",
    ),
    # the fresh trial: "no unit line like 'Boyz (90 pts)'" for a file of just that line
    "one unit line": (
        b"Boyz (90 pts)\n",
        "no army list format recognised: its only line, 'Boyz (90 pts)', is no list on its own",
    ),
    "one unit line among prose": (
        b"Hello\nBoyz (90 pts)\n",
        "of its 2 lines only one looks like part of a list (a unit heading or a section)",
    ),
    "dtd": (
        b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaa">]><roster>&a;</roster>',
        "document type declaration",
    ),
    "zip without roster": (
        _zip({"notes.txt": b"hello", "b.txt": b"x"}),
        "the zip archive holds no roster (.ros): its files are 'notes.txt', 'b.txt'",
    ),
    # the fresh trial: a text file alone was read as the roster ("malformed or truncated XML")
    "zip of one text file": (
        _zip({"x.txt": b"hello\n"}),
        "the zip archive holds no roster (.ros): its files are 'x.txt'",
    ),
    "damaged zip": (_zip({"a.ros": b"<roster/>" * 50})[:60], "damaged or truncated zip"),
    "bad share link": (b"https://listforge.club/#/listforge-json/H4sIAAAA%%%", "does not decode"),
    "roster without units": (
        b'<roster xmlns="x" name="a"><forces><force catalogueName="Orks">'
        b"<selections/></force></forces></roster>",
        "without units",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_line_of_error(case: str) -> None:
    data, words = BAD[case]
    with pytest.raises(ListError) as exc:
        parse_bytes(data, "in.txt")
    message = str(exc.value)
    assert "\n" not in message
    assert message.startswith("in.txt: ")
    assert words in message


def test_a_file_over_the_cap_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as fh:  # sparse: 100 MB on disk costs nothing
        fh.seek(100 * 1024 * 1024)
        fh.write(b"x")
    with pytest.raises(ListError, match="larger than 4 MB"):
        read_list(str(big))
    just = tmp_path / "just.txt"
    just.write_bytes(b"a" * (MAX_BYTES + 1))
    with pytest.raises(ListError, match="larger than"):
        read_list(str(just))


def test_a_roster_too_large_to_unpack_is_refused() -> None:
    bomb = _zip({"big.ros": b"\0" * (MAX_UNZIPPED + 1)})
    assert len(bomb) < MAX_BYTES  # small packed: the cap is on what it unpacks to
    with pytest.raises(ListError, match="unpacks to more than"):
        parse_bytes(bomb, "bomb.rosz")


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(ListError, match="no such file"):
        read_list(str(tmp_path / "nope.txt"))
    with pytest.raises(ListError, match="is a folder"):
        read_list(str(tmp_path))


@pytest.mark.parametrize("case", ["empty", "binary", "truncated json", "prose"])
def test_calc_army_exits_with_one_error_line(tmp_path: Path, case: str) -> None:
    path = tmp_path / "list.txt"
    path.write_bytes(BAD[case][0])
    result = cli("army", path, "--target", "boyz")
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")


def test_calc_army_needs_a_target_unless_show() -> None:
    result = cli("army", DATA / "waaagh.gw-app.txt")
    assert result.exit_code == 2
    assert "--target" in result.output


# ---------------------------------------------------------------------------------------------
# Counts in the tree exports: a model's "number" (New Recruit / ListForge JSON, .ros XML) or
# "quantity" (Rosterizer) of -3, 2.5 or true was read as 1, 2 and 1 models without a word


def _nr_json(model: str, value: object) -> bytes:
    """The New Recruit JSON test list with ``model``'s (or a weapon's) ``number`` set."""
    import json

    data = json.loads((DATA / "waaagh.nr.json").read_bytes())

    def walk(x: object) -> int:
        if isinstance(x, dict):
            hit = int(x.get("name") == model and "number" in x)
            if hit:
                x["number"] = value
            return hit + sum(walk(v) for v in x.values())
        return sum(walk(v) for v in x) if isinstance(x, list) else 0

    assert walk(data) >= 1
    return json.dumps(data).encode()


def _ros(old: str, new: str) -> bytes:
    text = (DATA / "waaagh.ros").read_text(encoding="utf-8")
    assert text.count(old) == 1
    return text.replace(old, new).encode()


def _rosterizer(old: str, new: str) -> bytes:
    text = (DATA / "waaagh.rosterizer.json").read_text(encoding="utf-8")
    assert text.count(old) == 1
    return text.replace(old, new).encode()


BOY_ROS = 'name="Boy" type="model" number="9"'
CHOPPA_ROS = 'name="Choppa" type="upgrade" number="9"'
BOY_RZ = '"item": "Model§Boy", "quantity": 9'
WHOLE = "a count is a whole number of at least"

BAD_COUNTS = {
    "json -3": (_nr_json("Boy", -3), "unit 'Boyz': model 'Boy': 'number' is -3; " + WHOLE + " 1"),
    "json 2.5": (_nr_json("Boy", 2.5), "model 'Boy': 'number' is 2.5;"),
    "json true": (_nr_json("Boy", True), "model 'Boy': 'number' is true;"),
    "json null": (_nr_json("Boy", None), "model 'Boy': 'number' is null;"),
    "json text": (_nr_json("Boy", "nine"), "model 'Boy': 'number' is \"nine\";"),
    "json no models": (_nr_json("Boy", 0), "model 'Boy': 'number' is 0; " + WHOLE + " 1"),
    "json weapon": (_nr_json("Choppa", -1), "unit 'Boyz': 'Choppa': 'number' is -1; " + WHOLE),
    "ros -3": (_ros(BOY_ROS, BOY_ROS.replace("9", "-3")), "model 'Boy': 'number' is \"-3\";"),
    "ros 2.5": (_ros(BOY_ROS, BOY_ROS.replace("9", "2.5")), "model 'Boy': 'number' is \"2.5\";"),
    "ros true": (_ros(BOY_ROS, BOY_ROS.replace("9", "true")), "'number' is \"true\";"),
    "ros weapon": (_ros(CHOPPA_ROS, CHOPPA_ROS.replace("9", "1.5")), "'Choppa': 'number' is"),
    "rosterizer -3": (_rosterizer(BOY_RZ, BOY_RZ.replace("9", "-3")), "'quantity' is -3;"),
    "rosterizer 2.5": (_rosterizer(BOY_RZ, BOY_RZ.replace("9", "2.5")), "'quantity' is 2.5;"),
    "rosterizer true": (_rosterizer(BOY_RZ, BOY_RZ.replace("9", "true")), "'quantity' is true;"),
}


@pytest.mark.parametrize("case", list(BAD_COUNTS))
def test_a_count_that_is_not_a_whole_number_is_refused(tmp_path: Path, case: str) -> None:
    data, words = BAD_COUNTS[case]
    with pytest.raises(ListError) as info:
        parse_bytes(data, "list")
    assert words in str(info.value) and str(info.value).startswith("list: unit ")
    path = tmp_path / ("list.ros" if case.startswith("ros ") else "list.json")
    path.write_bytes(data)
    result = cli("army", path, "--show")
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0]


def test_whole_counts_in_any_spelling_are_read() -> None:
    """``9.0`` in JSON and ``" 9 "`` in an XML attribute are 9 models; a missing count is 1."""
    boyz = next(u for u in parse_bytes(_nr_json("Boy", 9.0), "l").units if u.name == "Boyz")
    assert [(m.name, m.count) for m in boyz.models] == [("Boss Nob", 1), ("Boy", 9)]
    ros = parse_bytes(_ros(BOY_ROS, BOY_ROS.replace('"9"', '" 9 "')), "l")
    boyz = next(u for u in ros.units if u.name == "Boyz")
    assert [(m.name, m.count) for m in boyz.models] == [("Boss Nob", 1), ("Boy", 9)]
    ros = parse_bytes(_ros(CHOPPA_ROS, 'name="Choppa" type="upgrade"'), "l")
    boyz = next(u for u in ros.units if u.name == "Boyz")
    assert dict(boyz.models[1].weapons)["Choppa"] == 1


ZERO_COUNTS = {  # (text export, the text changed, its line, the count of 0 named)
    "wtc-compact unit": ("waaagh.wtc-compact.txt", "10x Boyz (85 pts)", 16, "0x Boyz (85 pts)"),
    "wtc-compact with": ("waaagh.wtc-compact.txt", "• 9x Boy: 9 with Slugga", 18, "0 with Slugga"),
    "nr-simple model": ("waaagh.nr-simple.txt", "• 9x Boy: Slugga", 15, "0x Boy"),
    "gw-app model": ("waaagh.gw-app.txt", "  • 9x Boy\n", 25, "0x Boy"),
    "listforge model": ("waaagh.listforge.txt", "  • 9x Boy\n", 18, "0x Boy"),
    "nr-simple item": ("waaagh.nr-simple.txt", "Deff Dread [130 pts]: 2x Big", 23, "0x Big shoota"),
}


@pytest.mark.parametrize("case", list(ZERO_COUNTS))
def test_a_count_of_0_in_a_text_list_is_refused_with_its_line(tmp_path: Path, case: str) -> None:
    """``0x Boyz`` (or a model type or item of 0) in a text export is refused naming the line,
    as the JSON and XML readers refuse a ``number`` of 0 (it was read as a 1-model unit with
    a warning: the readers take a missing count for 1)."""
    name, old, number, shown = ZERO_COUNTS[case]
    text = (DATA / name).read_text(encoding="utf-8")
    assert text.count(old) == 1
    if case == "wtc-compact with":
        new = old.replace("9x Boy: 9 with", "9x Boy: 0 with")
    elif case == "nr-simple item":
        new = old.replace("2x Big", "0x Big")
    else:
        new = old.replace("10x", "0x").replace("9x", "0x")
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    assert shown in text.replace(old, new).splitlines()[number - 1]
    result = cli("army", path, "--show")
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: line {number}: "), lines
    assert f"{shown!r} counts 0; a count is a whole number of at least 1" in lines[0]
    path.write_text(text, encoding="utf-8")  # the list as exported is read
    assert cli("army", path, "--show").exit_code == 0


BAD_TEXT_COUNTS = {  # (text export, the text changed, to what, its line, the item named, the fault)
    "negative unit": (
        "waaagh.wtc-compact.txt",
        "10x Boyz (85 pts)",
        "-1x Boyz (85 pts)",
        16,
        "-1x Boyz (85 pts)",
        "counts -1",
    ),
    "huge unit": (
        "waaagh.wtc-compact.txt",
        "10x Boyz (85 pts)",
        "99999999999999999999x Boyz (85 pts)",
        16,
        "99999999999999999999x Boyz (85 pts)",
        "counts 99999999999999999999, more models than any unit has",
    ),
    "no number, gw-app model": (
        "waaagh.gw-app.txt",
        "  • 9x Boy\n",
        "  • x Boy\n",
        25,
        "x Boy",
        "has no number before its 'x'",
    ),
    "fraction, nr-simple model": (
        "waaagh.nr-simple.txt",
        "• 9x Boy: Slugga",
        "• 1.5x Boy: Slugga",
        15,
        "1.5x Boy",
        "counts 1.5",
    ),
    "negative item": (
        "waaagh.nr-simple.txt",
        "Deff Dread [130 pts]: 2x Big",
        "Deff Dread [130 pts]: -2x Big",
        23,
        "-2x Big shoota",
        "counts -2",
    ),
}


@pytest.mark.parametrize("case", list(BAD_TEXT_COUNTS))
def test_a_count_that_is_no_whole_number_from_1_is_refused_with_its_line(
    tmp_path: Path, case: str
) -> None:
    """``-1x Boyz``, ``99999999999999999999x Boyz``, ``• x Blood Claw`` and ``1.5x Boy`` are
    refused as ``0x`` is, naming the line and the fault (they were read as a unit named
    "-1x Boyz", left unresolved, or as one model of a damaged unit, and the army ran
    without them, exit 0)."""
    name, old, new, number, shown, fault = BAD_TEXT_COUNTS[case]
    text = (DATA / name).read_text(encoding="utf-8")
    assert text.count(old) == 1
    changed = text.replace(old, new)
    assert shown in changed.splitlines()[number - 1]
    path = tmp_path / name
    path.write_text(changed, encoding="utf-8")
    result = cli("army", path, "--show")
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1, lines
    assert lines[0] == (
        f"error: {path}: line {number}: {shown!r} {fault}; a count is a whole number of at least 1"
    )


def test_a_unit_of_more_models_than_any_size_is_refused_with_the_sizes(tmp_path: Path) -> None:
    """29 Boys and a Boss Nob are 30 models, more than Boyz' largest size (sizes 10 and 20 in
    the data): the list is refused naming the unit's line and the sizes (the unit was left
    unresolved and the army ran without it, exit 0); 19 Boys make a damaged unit of 20."""
    text = (DATA / "waaagh.wtc-compact.txt").read_text(encoding="utf-8")
    old = "• 9x Boy: 9 with Slugga, Choppa"
    assert text.count(old) == 1
    path = tmp_path / "30-boyz.txt"
    head = "10x Boyz (85 pts)"  # the heading counts the unit's models too
    assert text.count(head) == 1
    text_30 = text.replace(head, "30x Boyz (85 pts)")
    path.write_text(text_30.replace(old, "• 29x Boy: 29 with Slugga, Choppa"), encoding="utf-8")
    result = cli("army", path, "--show")
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert lines == [
        f"error: {path}: line 16: 'Boyz' counts 30 models, more than any size of Boyz (sizes "
        "10, 20); a count is a whole number from 1 up to the largest size's"
    ]
    text_20 = text.replace(head, "20x Boyz (85 pts)")
    path.write_text(text_20.replace(old, "• 19x Boy: 19 with Slugga, Choppa"), encoding="utf-8")
    assert cli("army", path, "--show").exit_code == 0


def test_a_heading_counting_other_than_its_model_lines_is_refused(tmp_path: Path) -> None:
    """A WTC-compact heading counts the unit's models (``10x Boyz`` over a Boss Nob and 9
    Boys); ``5x Boyz`` or ``99x Boyz`` over the same model lines was read as 10 models, exit
    0: it is refused naming the line and both counts."""
    text = (DATA / "waaagh.wtc-compact.txt").read_text(encoding="utf-8")
    for count in (5, 99):
        path = tmp_path / f"{count}-boyz.txt"
        path.write_text(text.replace("10x Boyz (85 pts)", f"{count}x Boyz (85 pts)"), "utf-8")
        result = cli("army", path, "--show")
        assert result.exit_code == 1, result.output
        assert (
            f"line 16: 'Boyz' counts {count} models in its heading, but its model lines add up "
            "to 10" in " ".join(result.output.split())
        )


def test_a_zip_whose_only_file_is_a_renamed_roster_is_read() -> None:
    """An archive's only file is its roster where it is XML, whatever its name; a text file
    alone is no roster (above)."""
    data = _zip({"roster.xml": (DATA / "waaagh.ros").read_bytes()})
    army = parse_bytes(data, "in.rosz")
    assert army.format == "battlescribe-rosz"
    assert army.units


@pytest.mark.parametrize(
    ("old", "new", "line", "named", "n", "given"),
    [
        ("3 with Kan Blasta, Kan Klaw", "2 with Kan Shoota, Kan Klaw", 22, "Killa Kans", 3, 2),
        ("• 4x Loota: 4 with", "• 4x Loota: 3 with", 20, "Loota", 4, 3),
    ],
)
def test_n_with_fewer_than_the_model_lines_count_is_refused(
    tmp_path: Path, old: str, new: str, line: int, named: str, n: int, given: int
) -> None:
    """``3x Killa Kans (120 pts): 2 with Kan Shoota, Kan Klaw`` was read as 3 Kans with 2
    Kan shootas, exit 0 under --strict (the third Kan carrying nothing); it is refused naming
    the line and both counts, as a heading counting other than its model lines is."""
    text = (Path(__file__).resolve().parents[1] / "examples" / "orks-list.txt").read_text("utf-8")
    assert text.count(old) == 1
    path = tmp_path / "list.txt"
    path.write_text(text.replace(old, new), encoding="utf-8")
    result = cli("army", path, "--target", "boyz", "--strict")
    assert result.exit_code == 1, result.output
    assert (
        f"line {line}: '{named}' counts {n} models, but its 'N with' lines give wargear to "
        f"{given}: the other {n - given} would carry nothing the list names"
    ) in " ".join(result.output.split())


@pytest.mark.parametrize(
    ("faction_lines", "faction", "detachments"),
    [
        ("Orks\nWar Horde", "Orks", ("War Horde",)),
        ("Space Marines\nGladius Task Force", "Space Marines", ("Gladius Task Force",)),
        ("Space Marines\nSpace Wolves", "Space Wolves", ()),  # a chapter: the faction
        ("Orks", "Orks", ()),
    ],
)
def test_an_app_detachment_without_detachment_points_is_the_detachment(
    faction_lines: str, faction: str, detachments: tuple[str, ...]
) -> None:
    """``Orks`` / ``War Horde`` / ``Strike Force (2,000 Points)`` was read as the faction
    'War Horde' with no detachment (its rule lost); a second line that is no chapter is the
    detachment."""
    text = (DATA / "waaagh.gw-app-plain.txt").read_text(encoding="utf-8")
    old = "Orks\nWar Horde (1 Detachment Points)\n"
    assert text.count(old) == 1
    army = parse_bytes(text.replace(old, faction_lines + "\n").encode(), "app.txt")
    assert (army.faction, army.detachments, army.edition) == (faction, detachments, None)


def test_an_app_list_without_detachment_points_gets_its_detachment_rule(tmp_path: Path) -> None:
    text = (DATA / "waaagh.gw-app-plain.txt").read_text(encoding="utf-8")
    path = tmp_path / "app.txt"
    path.write_text(text.replace("War Horde (1 Detachment Points)", "War Horde"), "utf-8")
    result = cli("army", path, "--target", "intercessor squad")
    assert result.exit_code == 0, result.output
    assert "Orks · War Horde ·" in result.output
    assert "Effects applied: get-stuck-in" in result.output
    assert "none of ours" not in result.output


def test_a_zip_of_two_rosters_is_refused_naming_both(tmp_path: Path) -> None:
    """A ``.rosz`` holding two ``.ros`` files was read as its first, silently."""
    ros = (DATA / "waaagh.ros").read_bytes()
    path = tmp_path / "two.rosz"
    path.write_bytes(_zip({"first.ros": ros, "second.ros": ros}))
    result = cli("army", path, "--show")
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    assert "holds 2 rosters (.ros): 'first.ros', 'second.ros'" in lines[0]


def test_another_factions_unit_is_named_with_its_article(tmp_path: Path) -> None:
    """'is not a Orks datasheet' read wrong: the article follows the faction's first sound."""
    text = (Path(__file__).resolve().parents[1] / "examples" / "orks-list.txt").read_text("utf-8")
    old = "1x Trukk (55 pts): Big Shoota, Spiked Wheels"
    assert text.count(old) == 1
    path = tmp_path / "list.txt"
    path.write_text(text.replace(old, "1x War Dog Brigand (55 pts): Armoured feet"), "utf-8")
    out = " ".join(cli("army", path, "--show").output.split())
    assert "'War Dog Brigand' is not an Orks datasheet (it is Chaos Knights/War Dog Brigand)" in out


def test_the_armys_own_unit_under_allied_units_is_the_armys(tmp_path: Path) -> None:
    """An Orks Trukk listed under ALLIED UNITS of an Orks list was shown as 'ally · Orks': a
    datasheet of the army's own faction is one of the army's units, said."""
    text = (DATA / "waaagh.gw-style.txt").read_text(encoding="utf-8")
    assert text.count("\nTrukk (65 pts)") == 1
    path = tmp_path / "list.txt"
    path.write_text(text.replace("\nTrukk (65 pts)", "\nALLIED UNITS\n\nTrukk (65 pts)"), "utf-8")
    result = cli("army", path, "--show")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Trukk resolved · Orks" in out and "Trukk ally" not in out
    assert "'Trukk' is listed as an ally but is an Orks datasheet, the army's own faction" in out

"""Every format we read, on one army written by hand in the shape of each (tests/data/lists,
``real_export: false``; the shapes are those of the exports the public list tools document):
each file reads to what ``waaagh.expected.yaml`` says — the same units, models by model type,
weapons and wargear counted across each unit, points, enhancement, Warlord and (where the
format says it) the Attached unit — and a ``.rosz`` built here from the ``.ros`` reads the
same. The expected values were written by reading the files, not by running the readers."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
import yaml

from wh40k_calc.datasheet import norm_name
from wh40k_calc.lists.detect import parse_bytes, read_list

DATA = Path(__file__).parent / "data" / "lists"
EXPECTED = yaml.safe_load((DATA / "waaagh.expected.yaml").read_text(encoding="utf-8"))
FILES = sorted(EXPECTED["formats"])


def check_army(army, fmt: dict, expected: dict = EXPECTED) -> None:
    """``army`` against the expected list (``fmt``: what the file's format says)."""
    assert army.format == fmt["format"]
    assert army.name == fmt["name"]
    assert army.edition == fmt["edition"]
    assert norm_name(army.faction or "") == norm_name(expected["list_faction"])
    assert list(army.detachments) == expected["detachments"]
    assert army.points == expected["points_total"]
    assert [u.name for u in army.units] == [u["name"] for u in expected["units"]]
    for mine, want in zip(army.units, expected["units"], strict=True):
        assert mine.model_count == want["models"], want["name"]
        assert mine.points == want["points"], want["name"]
        assert dict(mine.weapons) == want["weapons"], want["name"]
        assert mine.warlord == bool(want.get("warlord")), want["name"]
        if "model_types" in want:
            assert {m.name: m.count for m in mine.models} == want["model_types"]
    boss = army.units[0]
    assert boss.enhancement == fmt["enhancement"]
    assert boss.enhancement_points == fmt["enhancement_points"]
    boyz = army.units[1]
    if fmt["attached"]:
        assert boss.attachment is not None and boss.attachment.role == "leader"
        assert boyz.attachment is not None and boyz.attachment.role == "bodyguard"
        assert boss.attachment.group is not None
        assert boss.attachment.group == boyz.attachment.group
    else:
        assert boyz.attachment is None or boyz.attachment.group is None
    assert not army.notes  # the units add up to the total


@pytest.mark.parametrize("name", FILES)
def test_each_format_reads_to_the_army(name: str) -> None:
    check_army(read_list(str(DATA / name)), EXPECTED["formats"][name])


def test_rosz_is_a_zipped_ros(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("Test Waaagh.ros", (DATA / "waaagh.ros").read_bytes())
    path = tmp_path / "waaagh.rosz"
    path.write_bytes(buf.getvalue())
    fmt = {**EXPECTED["formats"]["waaagh.ros"], "format": "battlescribe-rosz"}
    check_army(read_list(str(path)), fmt)


def test_windows_line_endings_nbsp_and_bom_read_the_same() -> None:
    """The app's text as a Windows clipboard gives it: CRLF line endings, a byte-order mark,
    non-breaking spaces for the indentation and around words."""
    text = (DATA / "waaagh.gw-app.txt").read_text(encoding="utf-8")
    pasted = "\ufeff" + text.replace("\n", "\r\n").replace("  •", "\u00a0 •").replace(
        "Test Waaagh", "Test\u00a0Waaagh"
    )
    check_army(
        parse_bytes(pasted.encode("utf-8"), "pasted"), EXPECTED["formats"]["waaagh.gw-app.txt"]
    )


def test_utf16_with_its_byte_order_mark() -> None:
    text = (DATA / "waaagh.wtc-compact.txt").read_text(encoding="utf-8")
    army = parse_bytes(text.encode("utf-16"), "utf16")
    check_army(army, EXPECTED["formats"]["waaagh.wtc-compact.txt"])


def test_standard_input() -> None:
    data = (DATA / "waaagh.listforge.txt").read_bytes()
    check_army(read_list("-", io.BytesIO(data)), EXPECTED["formats"]["waaagh.listforge.txt"])


def test_a_list_without_bullets_and_indentation_is_single_models() -> None:
    """Text with neither bullets nor indentation cannot say which lines are model types: every
    line of a unit is read as its single model's equipment (never guessed otherwise)."""
    text = "Test (20 Points)\n\nOrks\nStrike Force (2000 Points)\nWar Horde\n\nBATTLELINE\n\n"
    text += "Gretchin (20 Points)\n1x Runtherd\n1x Grot blasta\n"
    army = parse_bytes(text.encode(), "t")
    (unit,) = army.units
    assert unit.model_count == 1
    assert dict(unit.weapons) == {"Runtherd": 1, "Grot blasta": 1}


def test_a_listforge_share_link_is_its_json() -> None:
    """ListForge's share link carries the JSON gzipped in base64 after ``#/listforge-json/``;
    the link, or its data alone, reads as the JSON."""
    import base64
    import gzip

    data = base64.b64encode(gzip.compress((DATA / "waaagh.listforge.json").read_bytes()))
    fmt = EXPECTED["formats"]["waaagh.listforge.json"]
    link = b"https://listforge.club/#/listforge-json/" + data
    check_army(parse_bytes(link, "link"), fmt)
    check_army(parse_bytes(data, "data"), fmt)


@pytest.mark.parametrize(
    "name", ["waaagh.wtc-compact.txt", "waaagh.wtc-full.txt", "waaagh.gw-style.txt"]
)
def test_a_header_unit_count_that_is_not_the_list_s_is_a_note(name: str) -> None:
    """The fresh trial: ``+ NUMBER OF UNITS: 3`` over a list of 5 units said nothing. New
    Recruit's WTC header (its three text exports) is the only header that counts units; a
    count the list does not hold is a note, as a points total that does not add up is (the
    units are all there: the header is what is wrong). The true count (5) gives none."""
    text = (DATA / name).read_text(encoding="utf-8")
    assert parse_bytes(text.encode(), name).notes == ()
    wrong = parse_bytes(text.replace("NUMBER OF UNITS: 5", "NUMBER OF UNITS: 3").encode(), name)
    assert len(wrong.units) == 5
    # the GW-style export writes no attachment: its count names no Leader
    why = (
        ""
        if name == "waaagh.gw-style.txt"
        else " (an attached Leader counted as a unit of its own)"
    )
    assert wrong.notes == (f"the list says 3 units but it holds 5{why}",)


def test_the_unit_count_note_names_a_leader_only_where_the_list_attaches_one() -> None:
    """The WTC-compact list without its Warboss's ``Leading Boyz[1]`` and the Boyz's
    ``Attached to Warboss`` attaches no Leader: its count note says nothing of one."""
    text = (DATA / "waaagh.wtc-compact.txt").read_text(encoding="utf-8")
    lines = [ln for ln in text.split("\n") if not ln.strip().startswith(("Leading", "Attached"))]
    assert len(lines) == len(text.split("\n")) - 2
    bare = "\n".join(lines).replace("NUMBER OF UNITS: 5", "NUMBER OF UNITS: 3")
    army = parse_bytes(bare.encode(), "list.txt")
    assert all(u.attachment is None for u in army.units)
    assert army.notes == ("the list says 3 units but it holds 5",)

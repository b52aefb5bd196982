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
    "prose": (b"Dear diary,\nToday I painted some models.\n" * 20, "not an army list"),
    "yaml": (
        (Path(__file__).parents[1] / "examples" / "lootas-loadouts.yaml").read_bytes(),
        "not an army list",
    ),
    "dtd": (
        b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaa">]><roster>&a;</roster>',
        "document type declaration",
    ),
    "zip without roster": (_zip({"notes.txt": b"hello", "b.txt": b"x"}), "without a .ros"),
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

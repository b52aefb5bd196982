"""Points and header figures that are no number a list builder writes are refused naming
where they stand, in the tree exports (a ``pts`` cost's ``value`` of NaN, ``1e400``, -5 or
80.5) as in the text exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

from wh40k_calc.lists.detect import parse_bytes
from wh40k_calc.lists.model import ListError

DATA = Path(__file__).parent / "data" / "lists"
RULE = "points are a whole number from 0 up"


def _json_with(value_text: str, where: int) -> bytes:
    """The New Recruit JSON test list with the ``where``-th ``"value": N`` (0: the list's
    cost, 2: the Warboss's) written as ``value_text`` (raw JSON: ``NaN``, ``1e400``)."""
    text = (DATA / "waaagh.nr.json").read_text(encoding="utf-8")
    parts = text.split('"value": ')
    assert len(parts) > where + 1
    _, tail = parts[where + 1].split("\n", 1)
    parts[where + 1] = value_text + "\n" + tail
    return '"value": '.join(parts).encode()


def _ros_with(old: str, new: str) -> bytes:
    text = (DATA / "waaagh.ros").read_text(encoding="utf-8")
    assert text.count(old) == 1
    return text.replace(old, new).encode()


LIST_COST = 'name="pts" typeId="points" value="425"'
UNIT_COST = 'name="pts" typeId="points" value="85"'  # Boyz

BAD_POINTS = {  # the export, where the fault is, what is named
    "json list NaN": (_json_with("NaN", 0), "the list's 'costs'", "'pts' NaN"),
    "json list 1e400": (_json_with("1e400", 0), "the list's 'costs'", "'pts' inf"),
    "json list 1e308": (_json_with("1e308", 0), "the list's 'costs'", "'pts' 1e+308"),
    "json limit Infinity": (_json_with("Infinity", 1), "the list's 'costLimits'", "inf"),
    "json unit -5": (_json_with("-5", 2), "unit 'Warboss'", "'pts' -5;"),
    "json unit 80.5": (_json_with("80.5", 2), "unit 'Warboss'", "'pts' 80.5;"),
    "json unit text": (_json_with('"lots"', 2), "unit 'Warboss'", "'pts' \"lots\";"),
    "ros list NaN": (_ros_with(LIST_COST, LIST_COST.replace("425", "NaN")), "the list's", "NaN"),
    "ros list inf": (_ros_with(LIST_COST, LIST_COST.replace("425", "inf")), "the list's", "inf"),
    "ros unit 1e400": (_ros_with(UNIT_COST, UNIT_COST.replace("85", "1e400")), "unit 'Boyz'", ""),
    "ros unit -5": (_ros_with(UNIT_COST, UNIT_COST.replace("85", "-5")), "unit 'Boyz'", '"-5"'),
    "ros unit 80.5": (_ros_with(UNIT_COST, UNIT_COST.replace("85", "80.5")), "unit 'Boyz'", ""),
}


@pytest.mark.parametrize("case", list(BAD_POINTS))
def test_points_that_are_no_whole_number_are_refused(tmp_path: Path, case: str) -> None:
    data, where, words = BAD_POINTS[case]
    with pytest.raises(ListError) as info:
        parse_bytes(data, "list")
    message = str(info.value)
    assert message.startswith(f"list: {where}") and words in message and RULE in message
    path = tmp_path / ("list.ros" if case.startswith("ros ") else "list.json")
    path.write_bytes(data)
    result = cli("army", path, "--show")
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and RULE in lines[0]


def test_whole_points_in_any_spelling_are_read() -> None:
    """``85.0`` (as BattleScribe writes it) is 85 pts; -1 as the limit is BattleScribe's 'no
    limit'."""
    ros = parse_bytes(_ros_with(UNIT_COST, UNIT_COST.replace('"85"', '"85.0"')), "l")
    assert next(u for u in ros.units if u.name == "Boyz").points == 85
    limit = 'name="pts" typeId="points" value="2000"'
    ros = parse_bytes(_ros_with(limit, limit.replace("2000", "-1.0")), "l")
    assert ros.points_limit is None and ros.points == 425
    data = json.loads(_json_with("75.0", 2))
    warboss = next(u for u in parse_bytes(json.dumps(data).encode(), "l").units)
    assert warboss.points == 75 + 20  # its own 75.0 and its enhancement's 20


EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "orks-list.txt"
BAD_FIGURES = {  # (header line's old text, new value, what it is read as)
    "1234567pts": ("TOTAL ARMY POINTS: 495pts", "the army's points"),
    "12345678pts": ("TOTAL ARMY POINTS: 495pts", "the army's points"),
    "495.5pts": ("TOTAL ARMY POINTS: 495pts", "the army's points"),
    "1e9pts": ("TOTAL ARMY POINTS: 495pts", "the army's points"),
    "-495pts": ("TOTAL ARMY POINTS: 495pts", "the army's points"),
    "abcpts": ("TOTAL ARMY POINTS: 495pts", "the army's points"),
    "½pts": ("TOTAL ARMY POINTS: 495pts", "the army's points"),
    "0x1Fpts": ("TOTAL ARMY POINTS: 495pts", "the army's points"),
    "abc": ("NUMBER OF UNITS: 6", "the number of units"),
    "-1": ("NUMBER OF UNITS: 6", "the number of units"),
    "0": ("NUMBER OF UNITS: 6", "the number of units"),
}


@pytest.mark.parametrize("value", list(BAD_FIGURES))
def test_a_header_figure_that_is_no_whole_number_is_refused_with_its_line(
    tmp_path: Path, value: str
) -> None:
    """``1234567pts`` was read as 234,567 points, ``495.5pts`` as 5, ``-495pts`` as 495,
    ``abcpts`` as none and ``0x1Fpts`` refused as a count of 0; ``abc`` units were ignored."""
    old, what = BAD_FIGURES[value]
    text = EXAMPLE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "list.txt"
    key = old.split(":")[0]
    path.write_text(text.replace(old, f"{key}: {value}"), encoding="utf-8")
    line = 1 + text.split("\n").index(f"+ {old}")
    result = cli("army", path, "--show")
    assert result.exit_code == 1, result.output
    out = " ".join(result.output.split())
    assert f"line {line}: '+ {key}: {value}' gives '{value}' as {what};" in out
    assert "counts 0" not in out


def test_a_header_figure_is_read_whole(tmp_path: Path) -> None:
    """``1,495 Points`` is 1,495 points (the units add up to 495: noted), ``999999pts`` the
    most the readers take."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for value, shown in (("1,495 Points", "1,495"), ("999999pts", "999,999")):
        path = tmp_path / "list.txt"
        path.write_text(text.replace("POINTS: 495pts", f"POINTS: {value}"), encoding="utf-8")
        result = cli("army", path, "--show")
        assert result.exit_code == 0, result.output
        assert f"the list says {shown} points but its units add up to 495" in " ".join(
            result.output.split()
        )

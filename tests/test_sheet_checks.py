"""Datasheet fields a fresh-user trial found unchecked or shown oddly: the Move characteristic
``M`` accepted any text ("fast"), and a datasheet without a ``faction`` (optional: a unit of
one's own) showed an empty separator and an empty "Faction:" in ``calc show``."""

from __future__ import annotations

import pytest
from helpers import cli, write_datasheet

from wh40k_calc.datasheet import DatasheetError, load_datasheet


@pytest.mark.parametrize("move", [6, 0, "20+", '12"', "-", None])
def test_a_move_the_datasheets_print_loads(tmp_path, move):
    path = write_datasheet(tmp_path, "Runner", stats={"M": move})
    loaded = load_datasheet(path).models[0]
    assert move == loaded.M


@pytest.mark.parametrize("move", ["fast", "6 inches", "+20", "20++", "", "20+ ", " 12"])
def test_any_other_move_text_is_refused_naming_file_and_field(tmp_path, move):
    path = write_datasheet(tmp_path, "Runner", stats={"M": move})
    with pytest.raises(DatasheetError) as err:
        load_datasheet(path)
    assert str(err.value).startswith(f"{path}: models[0].M: must be inches")
    assert repr(move) in str(err.value)


@pytest.mark.parametrize("move", [40, 60, "60+", '40"'])
def test_a_move_up_to_the_board_loads(tmp_path, move):
    """The fastest model of the data moves 40" (edition 11's Manta); the bound is the long edge
    of a Strike Force battlefield, 60"."""
    path = write_datasheet(tmp_path, "Runner", stats={"M": move})
    assert move == load_datasheet(path).models[0].M


@pytest.mark.parametrize("move", [61, 1000, "61", "1000+", '100"'])
def test_a_move_beyond_the_board_is_refused_naming_file_and_field(tmp_path, move):
    """A fresh-user trial found ``M: 1000`` accepted (a typing slip, never a datasheet's)."""
    path = write_datasheet(tmp_path, "Runner", stats={"M": move})
    with pytest.raises(DatasheetError) as err:
        load_datasheet(path)
    assert str(err.value) == f"{path}: models[0].M: must be from 0 to 60, not {move!r}"
    check = cli("units", "--check", dirs=[tmp_path], env={"COLUMNS": "200"})
    assert check.exit_code == 1 and "models[0].M: must be from 0 to 60" in check.output
    run = cli("show", "runner", dirs=[tmp_path])
    assert run.exit_code == 1 and "models[0].M: must be from 0 to 60" in run.stderr


@pytest.mark.parametrize(("oc", "loads"), [(0, True), (30, True), (100, True), (101, False)])
def test_an_objective_control_up_to_100_loads(tmp_path, oc, loads):
    """A fresh-user trial found ``OC: 1000000`` accepted; the data's largest OC is 30 (a
    titan's), the bound 100."""
    path = write_datasheet(tmp_path, "Holder", stats={"OC": oc})
    if loads:
        assert oc == load_datasheet(path).models[0].OC
        return
    with pytest.raises(DatasheetError) as err:
        load_datasheet(path)
    assert str(err.value) == f"{path}: models[0].OC: must be from 0 to 100, not {oc}"


def test_a_datasheet_without_a_faction_shows_no_empty_fields(tmp_path):
    path = write_datasheet(tmp_path, "Loner")
    path.write_text(path.read_text().replace("faction: Testers\n", ""))
    out = cli("show", "loner", dirs=[tmp_path], env={"COLUMNS": "120"})
    assert out.exit_code == 0, out.output
    first, second = out.output.splitlines()[:2]
    assert first == "Loner · edition 10 and 11"
    assert second == "Keywords: INFANTRY"


def test_show_lists_a_weapons_own_rules_as_not_modelled(tmp_path):
    """``calc show`` says what ``calc shoot`` says: a weapon ability that is no core one is
    the weapon's own rule, not modelled (a fresh-user trial: show listed it silently)."""
    gun = {"name": "Zapper", "range": 24, "A": 1, "skill": 4, "S": 4, "AP": 0, "D": 1}
    write_datasheet(tmp_path, "Zap Team", [{**gun, "abilities": ["zap hits", "assault"]}])
    out = cli("show", "zap-team", dirs=[tmp_path], env={"COLUMNS": "120"})
    assert out.exit_code == 0, out.output
    assert "Not modelled (weapon rules): Zapper: [zap hits]" in out.stdout


def test_an_unquoted_keyword_ability_says_to_quote_it(tmp_path):
    """``abilities: [devastating wounds: monster]`` unquoted is a YAML mapping: the error says
    to quote it, with the text it wants (a fresh-user trial: "must be text, not a mapping")."""
    path = write_datasheet(tmp_path, "Quoter", [])
    text = path.read_text().replace(
        "weapons: []",
        "weapons:\n- {name: Gun, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1,"
        " abilities: [torrent, devastating wounds: monster]}",
    )
    path.write_text(text.replace("equipped: []", "equipped: [gun]"))
    with pytest.raises(DatasheetError) as err:
        load_datasheet(path)
    assert str(err.value).endswith(
        "weapons[0].abilities[1]: must be text, not a mapping (YAML read an unquoted ':' as "
        'a mapping: write it quoted, "devastating wounds: monster")'
    )

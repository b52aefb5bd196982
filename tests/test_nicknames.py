"""Nicknames (wh40k_calc/nicknames.yaml): "fire warriors" for the T'au Strike Team. Offered
first among the suggestions, saying so, and listed by ``calc units``; never taken (a unit is
found only by its own name or file stem)."""

from __future__ import annotations

import pytest
from helpers import cli, cli_json

from wh40k_calc.catalog import Catalog, UnknownUnitError
from wh40k_calc.nicknames import _table, nickname


def test_every_nickname_names_a_unit_and_is_not_one() -> None:
    cat = Catalog()
    for n in _table():
        faction, _, name = n.qualified.partition("/")
        ds = cat.find(n.qualified)
        assert (ds.faction, ds.name) == (faction, name), n
        with pytest.raises(UnknownUnitError):  # else the entry would never be read
            cat.find(n.nickname)


def test_a_nickname_is_suggested_first_not_taken() -> None:
    res = cli("shoot", "fire warriors", "-t", "boyz")
    assert res.exit_code == 1
    assert res.stderr.startswith(
        "error: unknown unit 'fire warriors'; did you mean 'T’au Empire/Strike Team', "
    )
    assert "'fire warriors' is what players call T’au Empire/Strike Team" in res.stderr
    typo = cli("shoot", "fire warrior", "-t", "boyz")  # within a letter of it
    assert "did you mean 'T’au Empire/Strike Team'" in typo.stderr
    out = cli_json("shoot", "T’au Empire/Strike Team", "-t", "boyz")  # the suggestion works
    assert out["attacker"]["name"] == "Strike Team"


def test_units_lists_the_unit_a_nickname_means_first() -> None:
    rows = cli_json("units", "fire warriors")
    assert (rows[0]["faction"], rows[0]["name"]) == ("T’au Empire", "Strike Team")


def test_only_close_names_are_nicknames() -> None:
    assert nickname("Fire-Warriors!").qualified == "T’au Empire/Strike Team"
    assert nickname("fire dragons") is None
    assert nickname("lootas") is None

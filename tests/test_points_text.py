"""Points in text output: whole, else to one decimal (``wording.points_figure``); JSON keeps
the number. A damaged unit's points are its size's pro rata per model (DATASHEET_FORMAT.md:
unit sizes), so 1 model of edition 11's 3-model Victrix Honour Guard (110 pts) is 110 / 3."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.wording import points_figure

ARGS = ("shoot", "victrix honour guard", "--edition", "11", "--target", "boyz")


@pytest.mark.parametrize(
    ("points", "shown"),
    [(110.0, "110"), (110 / 3, "36.7"), (2000.0, "2000"), (12.34, "12.3"), (99.96, "100")],
)
def test_points_are_whole_or_to_one_decimal(points: float, shown: str) -> None:
    assert points_figure(points) == shown


def test_a_damaged_units_points_print_to_one_decimal_and_json_keeps_them() -> None:
    """It printed "36.6667 pts" (``:g``'s six figures)."""
    full = CliRunner().invoke(app, [*ARGS])
    assert full.exit_code == 0 and "(Space Marines, 110 pts)" in full.output
    text = CliRunner().invoke(app, [*ARGS, "--models", "1"])
    assert text.exit_code == 0, text.output
    assert "(Space Marines, 36.7 pts)" in text.output and "36.6667" not in text.output
    out = CliRunner().invoke(app, [*ARGS, "--models", "1", "--json"])
    assert out.exit_code == 0
    assert json.loads(out.output)["attacker"]["points"] == pytest.approx(110 / 3, abs=1e-9)


def test_calc_compare_prints_a_damaged_units_points_to_one_decimal_too() -> None:
    """``calc compare``'s heading printed ``:g``'s "36.6667 pts" for the same unit."""
    out = CliRunner().invoke(
        app, ["compare", "victrix honour guard", "--edition", "11", "--models", "1", "-t", "boyz"]
    )
    assert out.exit_code == 0, out.output
    assert "(36.7 pts)" in out.output and "36.6667" not in out.output

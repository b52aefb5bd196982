"""Figures and notes a fresh-user trial found wrong: the "Exact vs sampled" table wrote a
chance short of certain (0.99999977) as 1.0000 while it wrote one near zero as "<0.0001"."""

from __future__ import annotations

import json

from helpers import cli

from wh40k_calc.report import comparison_cell


def test_comparison_cells_never_round_a_chance_short_of_certain_to_one() -> None:
    cells = [comparison_cell(x) for x in (0.99999977, 0.99995001, 0.99994, 1.0, 1.00003, 2.5)]
    assert cells == [">0.9999", ">0.9999", "0.9999", "1.0000", "1.0000", "2.5000"]
    assert comparison_cell(0.00004) == "<0.0001"  # as before, near zero


SEQUENCE = (
    "sequence",
    "shoot lootas --models 10",
    "fight boyz --models 20 --charged",
    'shoot "redemptor dreadnought"',
    "--target",
    "intercessor squad",
    "--target-models",
    "10",
)


def test_the_sequence_table_writes_near_one_as_above_0_9999() -> None:
    """The trial's command: P(at least 1 destroyed) is below 1 in the exact kill table (the
    JSON's figure, independent of how the table writes it), so its cell is ">0.9999"."""
    exact = json.loads(cli(*SEQUENCE, "--json").stdout)["kill_table"]
    near = [k["models"] for k in exact if 0.99995 <= k["at_least"] < 1.0]
    assert near, exact  # the case still has such figures
    out = cli(*SEQUENCE, "--method", "both", "--trials", "20000").stdout
    for k in near:
        row = next(x for x in out.splitlines() if f"P(≥ {k} destroyed)" in x)
        assert row.split("│")[2].strip() == ">0.9999", row  # the exact column

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


def _notes(*args: str) -> list[str]:
    out = cli(*args, "--json")
    assert out.exit_code == 0, out.output
    return [n for n in json.loads(out.stdout)["notes"] if "--precision-target" in n]


def test_precision_target_leader_given_where_it_changes_nothing_is_noted() -> None:
    """Lootas have no [PRECISION] weapon (their datasheet): ``--precision-target leader``
    given has no effect, and says so as a model's name does; not given, nothing is said."""
    no_precision = "no effect: no weapon here has [PRECISION]"
    assert _notes("shoot", "lootas", "--target", "boyz", "--precision-target", "leader") == [
        f"--precision-target leader: {no_precision}"
    ]
    assert _notes("shoot", "lootas", "--target", "boyz", "--precision-target", "Boss Nob") == [
        f"--precision-target Boss Nob: {no_precision}"
    ]
    assert _notes("shoot", "lootas", "--target", "boyz") == []


def test_precision_target_against_a_unit_with_no_character_is_noted() -> None:
    """Eliminators' bolt sniper rifles have [PRECISION]; Boyz with no Leader have no
    CHARACTER model for it to reach (Core rules: [PRECISION])."""
    args = ("shoot", "eliminator-squad", "--target", "boyz", "--precision-target")
    for value in ("leader", "bodyguard"):
        assert _notes(*args, value) == [
            f"--precision-target {value}: no effect: Boyz has no CHARACTER model"
        ]
    assert _notes("shoot", "eliminator-squad", "--target", "boyz") == []

"""A probability is never printed as a certainty or an impossibility it is not (a fresh-user
trial): an army's long sequence printed its unit's P(destroyed) as 100.00%, >99.99%, 100.00%
step after step (the mass on "destroyed" is 1.0 or 0.9999999999999999 in floating point
while the unit's survival, 1e-17, is still possible: it cannot change back and forth), and
``calc compare`` printed a possible wipe (3e-13: the contract object's kill table is rounded
to 12 decimals) as 0.0% where ``calc shoot`` printed <0.01%.

Each outcome here is possible by the dice alone: every Loota can miss, so a unit shot at
survives with a positive chance after any number of steps; ten Boyz' shots can each hit,
wound and get through, so five Intercessors (10 wounds) can be wiped."""

from __future__ import annotations

import re

from helpers import cli

from wh40k_calc.compare.table import probability_text
from wh40k_calc.report import pct


def test_pct_keeps_short_of_certain_and_above_impossible() -> None:
    assert pct(1.0) == "100.00%" and pct(0.0) == "0.00%"
    assert pct(1.0, 0.0) == "100.00%"  # nothing else can happen: certain
    assert pct(1.0, 5e-17) == ">99.99%"  # 1.0 in floating point, but the rest can happen
    assert pct(0.99995) == ">99.99%"  # 99.995 rounds up to 100.00
    assert pct(0.999949) == "99.99%"
    assert pct(1e-300) == "<0.01%" and pct(0.00004999) == "<0.01%"
    assert pct(0.5, 0.5) == "50.00%"


def test_the_compare_table_says_possible_and_certain_from_the_distribution() -> None:
    assert probability_text(0.0, possible=True) == "<0.1%"  # rounded to 0 in the object
    assert probability_text(0.0, possible=False) == "0.0%"
    assert probability_text(1.0, certain=False) == ">99.9%"
    assert probability_text(1.0, certain=True) == "100.0%"
    assert probability_text(1e-13) == "0.0%"  # without the distribution: within the noise


def test_a_long_sequence_never_prints_a_unit_that_may_survive_as_surely_destroyed() -> None:
    """60 Loota volleys into 5 Intercessors: after the 60th the mass on "destroyed" is 1.0 in
    floating point, the survival 5e-17."""
    run = cli("sequence", "shoot lootas", "--repeat", "60", "--target", "intercessor-squad",
              env={"COLUMNS": "120"})  # fmt: skip
    assert run.exit_code == 0, run.output
    rows = [ln for ln in run.stdout.splitlines() if re.match(r"\s*\d+\.1\s", ln)]
    assert len(rows) == 60
    shown = [re.findall(r"(>99\.99%|<0\.01%|\d+\.\d\d%)", ln)[-1] for ln in rows]
    assert "100.00%" not in shown
    assert shown[-1] == ">99.99%"
    values = [100.0 if s == ">99.99%" else 0.0 if s == "<0.01%" else float(s[:-1]) for s in shown]
    assert values == sorted(values)  # never down
    assert "P(unit destroyed) >99.99%" in " ".join(run.stdout.split())
    assert "100.00%" not in run.stdout  # nor in the kill table of the whole sequence


def test_compare_shows_a_possible_wipe_as_possible() -> None:
    run = cli("compare", "boyz", "--target", "intercessor-squad", "--edition", "11",
              env={"COLUMNS": "120"})  # fmt: skip
    assert run.exit_code == 0, run.output
    [row] = [ln for ln in run.stdout.splitlines() if ln.strip().startswith("boyz")]
    assert "<0.1%" in row and " 0.0%" not in row
    shoot = cli("shoot", "boyz", "--target", "intercessor-squad", "--edition", "11")
    assert "≥ 5 │      <0.01%" in shoot.stdout


def test_expected_counts_are_never_the_whole_while_a_model_may_survive() -> None:
    """The second fresh-user trial: "models destroyed 5.000 of 5" beside P(unit destroyed)
    >99.99% (the expected count is within 1e-13 of the whole: floating-point noise by the old
    rule); the distribution says a model may be left, so the count is ">4.999"."""
    run = cli("sequence", "shoot lootas", "--repeat", "60", "--target", "intercessor-squad",
              env={"COLUMNS": "120"})  # fmt: skip
    text = " ".join(run.stdout.split())
    assert "models destroyed >4.999 of 5" in text and "wounds lost >9.999 of 10" in text
    last = next(ln for ln in run.stdout.splitlines() if re.match(r"\s*60\.1\s", ln))
    assert ">4.99" in last and " 5.00 " not in last
    # one activation: 10 Lootas' 20D6 extra shots at half range into 20 Boyz
    shoot = cli("shoot", "lootas", "--models", "10", "-t", "boyz", "--target-models", "20",
                "--half-range", "--add-ability", "rapid fire 20D6")  # fmt: skip
    assert "models destroyed >19.999 of 20" in " ".join(shoot.stdout.split())


def test_an_exchange_never_leaves_none_of_a_unit_that_may_survive() -> None:
    """20 Boyz and a Warboss charging 11 Gretchin: some Gretchin may be left, however likely
    the unit's end (P(B destroyed) >99.99%): "<0.01 of 11", never "0.00"."""
    run = cli("exchange", "--side-a", "fight boyz --models 20 --charged --leader warboss",
              "--side-b", "fight gretchin", env={"COLUMNS": "120"})  # fmt: skip
    assert run.exit_code == 0, run.output
    text = " ".join(run.stdout.split())
    assert "P(B destroyed) >99.99%" in text
    assert "B models left <0.01 of 11" in text and "0.00 of 10" not in text


def test_an_expected_count_that_may_be_above_none_is_never_none() -> None:
    """The third trial: 20 Boyz fighting a Land Raider showed "Models 0.000" beside a Wipe of
        <0.1% (3.5e-8 expected); and ``calc army``'s rows said P(≥1) 100.0% of Boyz that may miss
        everything. An expected count above 0 is "<0.001" (the army rows read their rest, as the
    compare table does)."""
    run = cli("compare", "boyz", "--fight", "--models", "20", "--target", "land raider",
              env={"COLUMNS": "120"})  # fmt: skip
    [row] = [ln for ln in run.stdout.splitlines() if ln.strip().startswith("boyz")]
    cols = row.split()
    assert cols[cols.index("<0.1%") - 1] == "<0.001", row  # the Models column, then Wipe
    # the fourth trial: Pts/100 (240 pts x 3.5e-8 / 20 models per 160 pts) read 0.0 beside it
    assert cols[cols.index("<0.1%") + 1] == "<0.1", row

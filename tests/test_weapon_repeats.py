"""A weapon named more than once with ``--weapon`` (or in a batch run's ``weapons``) counts
together, as the README says, and a note names the weapon and the total, so that a repeat by
mistake is seen (text and ``--json``). Checked against the same unit with the total named
once: the figures are the same."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import cli

NOTE = (
    "--weapon: Deffgun is named 2 times (deffgun x2, Deffgun x1): they count together, Deffgun x3"
)


def _json(*args: str) -> dict:
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_a_repeated_weapon_counts_together_with_a_note() -> None:
    twice = _json(
        "shoot", "lootas", "--weapon", "deffgun x2", "--weapon", "Deffgun", "--target", "boyz"
    )
    once = _json("shoot", "lootas", "--weapon", "deffgun x3", "--target", "boyz")
    assert NOTE in twice["notes"]
    assert not any("named 2 times" in n for n in once["notes"])
    assert twice["expected"] == once["expected"]
    assert twice["weapons"] == once["weapons"]
    text = cli(
        "shoot", "lootas", "--weapon", "deffgun x2", "--weapon", "Deffgun", "--target", "boyz"
    )
    assert text.exit_code == 0
    assert NOTE in " ".join(text.stdout.split())


def test_other_weapons_named_once_each_get_no_note() -> None:
    out = _json(
        "shoot", "lootas", "--weapon", "deffgun x2", "--weapon", "big shoota", "--target", "boyz"
    )
    assert not any("times (" in n for n in out["notes"])


def test_a_batch_runs_weapons_repeated_get_the_note(tmp_path: Path) -> None:
    batch = tmp_path / "repeat.yaml"
    batch.write_text(
        "runs:\n"
        "  - attacker: {name: lootas, weapons: [deffgun x2, deffgun x2]}\n"
        "    target: boyz\n",
        encoding="utf-8",
    )
    result = cli("compare", batch, "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    note = (  # named by the file's field, as the batch's errors are
        "attacker.weapons: Deffgun is named 2 times (deffgun x2, deffgun x2): they count "
        "together, Deffgun x4"
    )
    assert note in rows[0]["notes"]

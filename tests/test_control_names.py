"""A unit, Leader, faction or effect name holding a control character (ESC, a newline, a
bidirectional override) is refused, shown escaped: no datasheet's name holds one
(``datasheet.CONTROL``), and the name look-up folds such a name to its letters, so a fresh
check found ``calc shoot $'loo\\x1btas'`` shooting Lootas without a word. On the command line
(a step of ``calc sequence`` too) it is a usage error (exit code 2); in a batch file the run's
error (exit code 1, the batch rule)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli


@pytest.mark.parametrize(
    "args",
    [
        ("shoot", "loo\x1btas", "--target", "boyz"),
        ("shoot", "lootas", "--target", "bo\nyz"),
        ("fight", "boyz", "--target", "lootas", "--leader", "war\u202eboss"),
        ("shoot", "lootas", "--target", "boyz", "--effect", "waa\tagh"),
        ("compare", "loo\x1btas", "--target", "boyz"),
        ("sequence", "-t", "boyz", "shoot loo\x1btas"),
    ],
)
def test_a_name_with_a_control_character_is_a_usage_error(args: tuple[str, ...]) -> None:
    res = cli(*args)
    assert res.exit_code == 2, res.output
    assert "holds a control character" in res.output
    assert not any(c in res.output for c in "\x1b\u202e\t")  # shown escaped, never raw


def test_in_a_batch_file_it_is_the_runs_error(tmp_path: Path) -> None:
    batch = tmp_path / "b.yaml"
    batch.write_text(
        'runs:\n- name: x\n  attacker: "loo\\x1btas"\n  target: boyz\n', encoding="utf-8"
    )
    res = cli("compare", batch)
    assert res.exit_code == 1
    assert "run 'x': attacker: unknown unit 'loo\\x1btas'; it holds a control character" in (
        res.output
    )
    assert "\x1b" not in res.output


def test_printable_names_still_fold() -> None:
    """Accents and spaces are folded as the README says (``lootäs``, ``l o o t a s``)."""
    for name in ("lootäs", "l o o t a s"):
        res = cli("shoot", name, "--target", "boyz")
        assert res.exit_code == 0 and "5 Lootas" in res.output

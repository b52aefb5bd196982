"""Every command's ``--json`` gives editions as strings ("10", "11"), as ``--edition`` takes
them: ``edition`` fields and ``editions`` lists, at any depth (README, "JSON output")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from wh40k_calc.catalog import ENV_VAR
from wh40k_calc.cli import app

# an army list the repository ships (the shared rosters are not in every checkout)
ORKS = Path(__file__).resolve().parents[1] / "examples" / "orks-list.txt"

COMMANDS = [
    (["shoot", "lootas", "--target", "boyz"], "10"),
    (["fight", "boyz", "--target", "lootas", "--edition", "11"], "11"),
    (["sequence", "shoot lootas", "fight boyz", "--target", "boyz"], "10"),
    (["exchange", "--side-a", "fight boyz --charged", "--side-b", "shoot lootas"], "10"),
    (["compare", "lootas", "--target", "boyz", "--edition", "11"], "11"),
    (["army", str(ORKS), "--target", "boyz"], None),
    (["effects", "waaagh"], "10"),
    (["units", "lootas"], "10"),  # an int list before the fix
    (["show", "lootas", "--edition", "11"], "11"),  # an int list before the fix
    (["data", "status"], "11"),  # a number before the fix
]


def editions(value: Any) -> list[Any]:
    """Every value of an ``edition`` key, and every item of an ``editions`` list, in ``value``
    (a parsed JSON document), depth first."""
    found: list[Any] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "edition":
                found.append(item)
            elif key == "editions":
                found.extend(item)
            else:
                found.extend(editions(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(editions(item))
    return found


@pytest.mark.parametrize(("args", "edition"), COMMANDS, ids=lambda a: a[0] if a else "")
def test_json_editions_are_strings(args: list[str], edition: str | None) -> None:
    res = CliRunner().invoke(app, [*args, "--json"], env={ENV_VAR: None, "COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    found = editions(json.loads(res.stdout))
    assert found, "no edition in the JSON"
    # the list's own edition may be null (not said by the list); every other one is a string
    assert all(e is None or e in ("10", "11") for e in found), found
    assert any(isinstance(e, str) for e in found)
    if edition is not None:
        assert edition in found

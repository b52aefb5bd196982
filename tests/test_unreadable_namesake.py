"""A file of the user's that cannot be read, found by the same name as a readable one: the
readable one is used and a note names the other (its path and what is wrong with it), rather
than a refusal listing the unreadable file as a "faction"; a file of the user's that cannot be
read and would replace a shipped datasheet is an error (it may be the unit meant)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli
from oracle import model, weapon, write_sheet


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "expected a mapping"),
        ("just a string\n", "expected a mapping"),
        ("[1, 2]\n", "expected a mapping"),
        ("name: [unclosed\n", "malformed yaml: line 2"),
    ],
)
def test_the_readable_file_is_used_and_the_other_noted(tmp_path: Path, text: str, why: str):
    mine = tmp_path / "testers"
    mine.mkdir()
    write_sheet(mine, "Gunline", model("Gunner", equipped=["Gun"]), 5, weapons=[weapon("Gun")])
    write_sheet(mine, "Dummies", model("Dummy"), 5)
    other = tmp_path / "other"
    other.mkdir()
    (other / "gunline.yaml").write_text(text)
    res = cli("shoot", "gunline", "--target", "dummies", "--json", dirs=[tmp_path])
    assert res.exit_code == 0, res.output
    import json

    notes = json.loads(res.stdout)["notes"]
    note = next(n for n in notes if "other/gunline.yaml" in n)
    assert note.startswith(
        "using testers/gunline.yaml (Testers/Gunline); other/gunline.yaml, of the same name, "
        "cannot be read: "
    )
    assert why in note.lower()
    assert "several factions" not in res.output


def test_an_unreadable_file_replacing_a_shipped_one_is_an_error(tmp_path: Path):
    (tmp_path / "lootas.yaml").write_text("just a string\n")
    res = cli("shoot", "lootas", "--target", "boyz", dirs=[tmp_path])
    assert res.exit_code == 1
    assert f"{tmp_path / 'lootas.yaml'}: expected a mapping" in res.stderr

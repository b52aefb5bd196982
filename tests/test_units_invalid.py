"""``calc units`` marks a user's datasheet file that does not load (issue 21, 3): on its line,
and in a note after the listing naming the file, the field and why, as ``calc units --check``
and loading it would; a valid file is listed as before, and unchanged valid files are not
loaded again (a mark in the cache folder)."""

from __future__ import annotations

from pathlib import Path

from helpers import cli, write_datasheet

BAD = """name: Bad Unit
faction: Testers
models:
  - {name: Bad, M: 6, T: four, Sv: 4, W: 1, Ld: 7, OC: 1}
sizes:
  - {models: {Bad: 1}, points: 10}
weapons:
  - {name: Gun, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}
"""


def test_an_invalid_user_file_is_marked_and_its_field_named(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD, encoding="utf-8")
    write_datasheet(tmp_path, "Good Unit", [{"name": "Gun", "range": 24, "A": 1, "skill": 4,
                    "S": 4, "AP": 0, "D": 1}])  # fmt: skip
    out = cli("units", "unit", "--datasheets", tmp_path, env={"COLUMNS": "200"}).output
    lines = out.splitlines()
    bad = next(ln for ln in lines if "Bad Unit" in ln)
    good = next(ln for ln in lines if "Good Unit" in ln)
    assert bad.endswith("bad.yaml (invalid: see below)")
    assert good.endswith("good-unit.yaml")
    note = next(ln for ln in lines if ln.startswith("Note: "))
    assert note.endswith(
        "bad.yaml is not a valid datasheet: models[0].T: must be a whole number, not text"
    )
    assert sum(ln.startswith("Note: ") for ln in lines) == 1
    # the same reason --check gives
    check = " ".join(cli("units", "--check", "--datasheets", tmp_path).output.split())
    assert "models[0].T: must be a whole number, not text" in check


def test_a_valid_file_is_loaded_once(tmp_path: Path, monkeypatch) -> None:
    from wh40k_calc import listing
    from wh40k_calc.catalog import Catalog

    monkeypatch.setenv("WH40K_CALC_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "mine"
    folder.mkdir()
    path = write_datasheet(folder, "Good Unit", [{"name": "Gun", "range": 24, "A": 1,
                           "skill": 4, "S": 4, "AP": 0, "D": 1}])  # fmt: skip
    entries = Catalog(user_dirs=[folder], use_env=False).entries(hidden=True)
    loaded: list[Path] = []
    import wh40k_calc.datasheet as datasheet

    real = datasheet.load_datasheet
    monkeypatch.setattr(datasheet, "load_datasheet", lambda p: loaded.append(p) or real(p))
    assert listing.invalid_user_files(entries) == {}
    assert listing.invalid_user_files(entries) == {}
    assert loaded == [path]  # the second listing took the mark
    path.write_text(BAD.replace("Bad Unit", "Good Unit"), encoding="utf-8")  # changed: loaded
    entries = Catalog(user_dirs=[folder], use_env=False).entries(hidden=True)
    assert list(listing.invalid_user_files(entries).values()) == [
        "models[0].T: must be a whole number, not text"
    ]


def test_the_json_listing_carries_the_mark(tmp_path: Path) -> None:
    """``calc units --json``: the invalid file's row has ``invalid: true`` and the reason the
    text listing's note gives; a valid file's row has neither."""
    import json

    (tmp_path / "bad.yaml").write_text(BAD, encoding="utf-8")
    write_datasheet(tmp_path, "Good Unit", [{"name": "Gun", "range": 24, "A": 1, "skill": 4,
                    "S": 4, "AP": 0, "D": 1}])  # fmt: skip
    result = cli("units", "unit", "--json", "--datasheets", tmp_path)
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    assert rows["Bad Unit"]["invalid"] is True
    assert rows["Bad Unit"]["error"] == "models[0].T: must be a whole number, not text"
    assert "invalid" not in rows["Good Unit"] and "error" not in rows["Good Unit"]


def test_a_same_size_edit_with_its_time_restored_is_loaded_again(
    tmp_path: Path, monkeypatch
) -> None:
    """The mark is keyed on the file's content too: an edit that keeps the size and puts the
    modification time back (``cp -p``, ``touch -r``) is loaded again and found invalid."""
    import os

    monkeypatch.setenv("WH40K_CALC_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "mine"
    folder.mkdir()
    good = BAD.replace("T: four", "T:    4")  # the same size as BAD
    assert len(good) == len(BAD)
    path = folder / "unit.yaml"
    path.write_text(good, encoding="utf-8")
    first = cli("units", "bad unit", "--datasheets", folder, env={"COLUMNS": "200"}).output
    assert "invalid" not in first and "Bad Unit" in first
    before = path.stat()
    path.write_text(BAD, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    out = cli("units", "bad unit", "--datasheets", folder, env={"COLUMNS": "200"}).output
    assert "unit.yaml (invalid: see below)" in out
    assert "models[0].T: must be a whole number, not text" in " ".join(out.split())

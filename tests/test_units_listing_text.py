"""``calc units``' and ``calc units --check``'s text: no Markdown on the terminal, a name too
long to be valid cut (not printed over a thousand lines), and both count the files alike (the
datasheets, plus the hidden files)."""

from __future__ import annotations

from pathlib import Path

from helpers import cli

UNIT = """name: {name}
faction: Testers
models:
  - {{name: Trooper, M: 6, T: 4, Sv: 4, W: 1, Ld: 7, OC: 1}}
sizes:
  - {{models: {{Trooper: 1}}, points: 10}}
weapons:
  - {{name: Gun, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}}
"""
WIDE = {"COLUMNS": "200"}


def test_an_unreadable_file_is_marked_without_markdown(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_bytes(b"- just\n- a list\n")  # no datasheet's fields
    out = cli("units", "--datasheets", tmp_path, env=WIDE).output
    line = next(ln for ln in out.splitlines() if "broken.yaml" in ln)
    assert line.endswith("broken.yaml (unreadable: 'calc units --check' says why)")
    assert "`" not in out


def test_a_name_too_long_to_be_valid_is_cut_in_both_listings(tmp_path: Path) -> None:
    long = "L" * 100_000  # over the 200 characters a datasheet's name may have
    (tmp_path / "long.yaml").write_text(UNIT.format(name=long), encoding="utf-8")
    listed = cli("units", "--datasheets", tmp_path, env=WIDE)  # its faction: not read so far
    assert listed.exit_code == 0, listed.output[:500]
    lines = listed.output.splitlines()
    assert len(lines) < 4_000  # about 1,600 units of the shipped data, a line each or two
    unit = next(ln for ln in lines if "long.yaml (" in ln)
    assert unit.startswith("  " + "L" * 79 + "…  ")
    assert unit.endswith("long.yaml (invalid: see below)")
    assert lines[-1].endswith("is not a valid datasheet: name: is longer than 200 characters")
    assert sum(len(ln) for ln in lines if "L" * 79 in ln) < 300
    checked = cli("units", "--check", "--datasheets", tmp_path, env=WIDE)
    assert checked.exit_code == 1
    assert "L" * 79 + "…  " in checked.output and "L" * 81 not in checked.output
    fine = "N" * 200  # the longest valid name: listed whole
    (tmp_path / "long.yaml").write_text(UNIT.format(name=fine), encoding="utf-8")
    listed = cli("units", fine, "--datasheets", tmp_path, env={"COLUMNS": "400"})
    assert f"  {fine}  " in listed.output and "…" not in listed.output


def test_check_counts_the_datasheets_and_the_hidden_files_as_the_listing(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for where in (tmp_path / "x.yaml", tmp_path / "sub" / "x.yaml"):  # the second is hidden
        where.write_text(UNIT.format(name="Twin Unit"), encoding="utf-8")
    (tmp_path / "y.yaml").write_text(UNIT.format(name="Other Unit"), encoding="utf-8")
    listed = cli("units", "--faction", "testers", "--datasheets", tmp_path, env=WIDE).output
    first = listed.splitlines()[0]
    assert first.startswith("2 datasheets, plus 1 hidden file · edition ")
    assert "Testers (2, plus 1 hidden)" in listed
    checked = cli("units", "--faction", "testers", "--check", "--datasheets", tmp_path).output
    assert checked.splitlines()[-1] == "2 datasheets, plus 1 hidden file, checked, all valid"

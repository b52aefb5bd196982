"""The parsed YAML of a datasheet kept between runs (wh40k_calc/filecache.py): what is read back
is what the YAML reader gives for the file (the oracle: :func:`yamlio.read_document` itself),
a changed file is parsed again, data MessagePack would not give back unchanged is not kept, and
a bad file is refused as before."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wh40k_calc import filecache
from wh40k_calc.datasheet import DatasheetError, load_datasheet
from wh40k_calc.yamlio import read_document

SHEETS = Path(__file__).resolve().parents[1] / "datasheets"


def _entries() -> list[Path]:
    where = filecache.folder("datasheets")
    assert where is not None
    return sorted(where.glob("*.msgpack")) if where.is_dir() else []


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(filecache.CACHE_VAR, str(tmp_path / "cache"))


def test_shipped_datasheets_read_back_as_parsed() -> None:
    files = sorted(SHEETS.rglob("*.yaml"))
    assert files
    for path in files:
        parsed, _ = read_document(path, "datasheet file")
        assert filecache.datasheet_data(path) == parsed  # parsed, then kept
        assert filecache.datasheet_data(path) == parsed  # read back from the cache
    assert len(_entries()) == len(files)


def test_read_back_keeps_types_and_order(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("b: 1\na: [1.5, true, null, '2', -3]\nc: {z: 0x10, y: 1e3}\n")
    filecache.datasheet_data(path)
    got = filecache.datasheet_data(path)
    assert got == {"b": 1, "a": [1.5, True, None, "2", -3], "c": {"z": 16, "y": "1e3"}}
    assert list(got) == ["b", "a", "c"] and type(got["a"][1]) is bool
    assert type(got["c"]["z"]) is int and len(_entries()) == 1


def test_a_changed_file_is_parsed_again(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("name: One\n")
    assert filecache.datasheet_data(path) == {"name": "One"}
    path.write_text("name: Two\n")  # same size; the modification time differs
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert filecache.datasheet_data(path) == {"name": "Two"}


def test_a_same_size_edit_with_its_time_restored_is_parsed_again(tmp_path: Path) -> None:
    """An edit copied back with ``cp -p`` or ``touch -r``: the size and the modification time
    as before, the content not; the entry is keyed on the content too."""
    path = tmp_path / "x.yaml"
    path.write_text("name: One\n")
    assert filecache.datasheet_data(path) == {"name": "One"}
    before = path.stat()
    path.write_text("name: Two\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert filecache.datasheet_data(path) == {"name": "Two"}


@pytest.mark.parametrize(
    "text", ["when: 2024-01-02\n", "1: one\n", "x: !!binary aGk=\n", "n: 100000000000000000000\n"]
)
def test_data_msgpack_would_change_is_not_kept(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text)
    parsed, _ = read_document(path, "datasheet file")
    assert filecache.datasheet_data(path) == parsed
    assert filecache.datasheet_data(path) == parsed
    assert _entries() == []


def test_a_bad_file_is_refused_as_before(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n")
    for _ in range(2):
        with pytest.raises(DatasheetError, match=r"bad\.yaml: malformed YAML: line"):
            load_datasheet(bad, keep=True)
    with pytest.raises(DatasheetError, match=r"missing\.yaml: datasheet file not found"):
        load_datasheet(tmp_path / "missing.yaml", keep=True)
    assert _entries() == []


def test_an_invalid_datasheet_is_refused_from_the_cache_too(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("name: X\nfaction: Y\n")  # YAML, but not a datasheet
    errors = []
    for _ in range(2):
        with pytest.raises(DatasheetError) as exc:
            load_datasheet(path, keep=True)
        errors.append(str(exc.value))
    assert len(_entries()) == 1 and errors[0] == errors[1]


def test_an_unwritable_cache_is_skipped(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(filecache.CACHE_VAR, "/dev/null/no-cache")
    path = tmp_path / "x.yaml"
    path.write_text("name: X\n")
    assert filecache.datasheet_data(path) == {"name": "X"}
    assert filecache.datasheet_data(path) == {"name": "X"}


def test_a_file_checked_once_is_not_kept(tmp_path: Path) -> None:
    """An import or an update checks each file once (load_datasheet without ``keep``)."""
    path = SHEETS / "orks" / "boyz.yaml"
    assert load_datasheet(path) == load_datasheet(path, keep=True)
    assert len(_entries()) == 1  # the second call only
    assert filecache.datasheet_data(path, keep=False) == read_document(path, "x")[0]


def test_nested_aliases_are_not_written_out(tmp_path: Path) -> None:
    """``&k1 [*k0, *k0]`` ... 60 levels: 2^61 values written out in full (the trial's 27
    levels wrote an 805 MB cache entry and took minutes). Data sharing a list is parsed each
    time, not kept, and the datasheet is refused for the first nested list at once."""
    items = ["&k0 [A, A]"] + [f"&k{i} [*k{i - 1}, *k{i - 1}]" for i in range(1, 60)]
    path = tmp_path / "x" / "bomb.yaml"
    path.parent.mkdir()
    path.write_text(f"name: Bomb\nkeywords: [{', '.join(items)}]\n")
    data = filecache.datasheet_data(path)
    kw = data["keywords"]
    assert kw[59][0] is kw[59][1] is kw[58]  # shared, as YAML built it
    assert _entries() == []
    with pytest.raises(DatasheetError, match=r"keywords\[0\]: must be text, not a list"):
        load_datasheet(path)
    shared = tmp_path / "shared.yaml"
    shared.write_text("a: &a [1, 2]\nb: *a\n")  # one alias: parsed each time too
    assert filecache.datasheet_data(shared) == {"a": [1, 2], "b": [1, 2]}
    assert _entries() == []

"""Finding datasheets among the ~1,640 shipped ones (issue 9), and the whole `calc` command.

`make bench` runs these. The command benchmarks start a fresh `calc` process per round, as a
player does, so they include Python's start-up; `extra_info` holds the figures. Issue 9's
targets: `calc shoot lootas --target boyz` no slower than with 16 shipped datasheets, and
`calc units` over everything well under a second.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wh40k_calc.catalog import Catalog, _load_cached, _read_index

CALC = [sys.executable, "-m", "wh40k_calc"]


@pytest.fixture
def no_user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("WH40K_CALC_HOME", str(tmp_path))
    return {**os.environ, "WH40K_CALC_HOME": str(tmp_path)}


def test_find_two_units_cold(benchmark, no_user_data) -> None:
    """A fresh catalog finding and parsing two units (what one `calc shoot` does)."""

    def run():
        _read_index.cache_clear()
        _load_cached.cache_clear()
        cat = Catalog()
        return cat.find("lootas"), cat.find("death guard/poxwalkers")

    benchmark(run)
    benchmark.extra_info["what"] = "Catalog() + find x2, index and YAML caches cleared"


def test_list_every_unit(benchmark, no_user_data) -> None:
    def run():
        _read_index.cache_clear()
        return Catalog().entries(hidden=True)

    entries = benchmark(run)
    benchmark.extra_info["datasheets"] = len(entries)


@pytest.mark.parametrize(
    "args",
    [["shoot", "lootas", "--target", "boyz"], ["units"], ["units", "--json"]],
    ids=lambda a: " ".join(a),
)
def test_command_end_to_end(benchmark, no_user_data, args) -> None:
    def run():
        subprocess.run(CALC + args, check=True, stdout=subprocess.DEVNULL, env=no_user_data)

    benchmark.pedantic(run, rounds=10, iterations=1)
    benchmark.extra_info["command"] = "calc " + " ".join(args)

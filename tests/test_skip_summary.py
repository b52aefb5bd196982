"""``make test`` outside the workspace: the tests that read ``/work/shared`` skip, and the
summary says how many and why (conftest.py's ``pytest_terminal_summary``), instead of their
skips passing unnoticed among the rest."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from conftest import shared_skips, shared_summary


def skipped(reason: str) -> SimpleNamespace:
    return SimpleNamespace(longrepr=("tests/test_x.py", 3, f"Skipped: {reason}"))


def test_counts_the_skips_that_name_the_shared_folder() -> None:
    shared = Path("/somewhere/shared")
    reports = [
        skipped(f"the CSV export is not here: {shared}/data/wahapedia-10e-2025-07"),
        skipped(f"the export is not here: {shared}/data/x"),
        skipped("no /dev/full here"),
        SimpleNamespace(longrepr=None),
    ]
    assert shared_skips(reports, shared) == 2
    assert shared_summary(2, shared) == (
        "2 tests skipped: they read the datasheet export in /somewhere/shared (the importer's "
        "tests and the regeneration check), which is not here; run them in the workspace"
    )
    assert shared_summary(0, shared) is None
    assert shared_summary(1, shared).startswith("1 test skipped:")

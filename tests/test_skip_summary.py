"""``make test`` outside the workspace: the tests that read ``/work/shared`` skip, and the
summary says how many and why (conftest.py's ``pytest_terminal_summary``), instead of their
skips passing unnoticed among the rest."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from conftest import other_skips, other_summary, shared_skips, shared_summary


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


def test_every_other_skip_is_explained_by_its_reason() -> None:
    """A clean clone run as root skipped 169 tests and the summary explained 168: the one
    needing a non-root user ("root writes anywhere") was counted nowhere. Every skip that
    does not name the shared folder gets a line with its reason and count."""
    shared = Path("/somewhere/shared")
    reports = [
        skipped(f"the CSV export is not here: {shared}/data/wahapedia-10e-2025-07"),
        skipped("run as root: root writes anywhere"),
        skipped("no /dev/full here"),
        skipped("no /dev/full here"),
        SimpleNamespace(longrepr=("tests/test_x.py", 3, "")),
        SimpleNamespace(longrepr=None),
    ]
    reasons = other_skips(reports, shared)
    assert reasons == {
        "run as root: root writes anywhere": 1,
        "no /dev/full here": 2,
        "no reason given": 1,
    }
    assert shared_skips(reports, shared) + sum(reasons.values()) == 5  # every skip
    assert other_summary(reasons) == [
        "1 test skipped for another reason: run as root: root writes anywhere",
        "2 tests skipped for another reason: no /dev/full here",
        "1 test skipped for another reason: no reason given",
    ]
    assert other_summary({}) == []

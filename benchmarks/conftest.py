"""Benchmarks of both engines (pytest-benchmark): run by ``make bench``.

The default ``pytest`` run collects only ``tests/`` (and passes ``--benchmark-skip``), so
nothing here runs there. Benchmarks marked ``heavy`` (10^7 sampler trials) run only when
benchmarks are enabled (``--benchmark-enable``, as ``make bench`` does). Speed targets are
reported in ``extra_info``, never asserted.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# the profile builders shared with the tests (tests/profiles.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "heavy: long or memory-hungry benchmark; runs only with --benchmark-enable"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("benchmark_enable", False):
        return
    skip = pytest.mark.skip(reason="heavy benchmark: run with `make bench`")
    for item in items:
        if "heavy" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Print each benchmark's ``extra_info`` (the ratios and figures) after the timing table."""
    session = getattr(config, "_benchmarksession", None)
    rows = [b for b in getattr(session, "benchmarks", None) or [] if getattr(b, "extra_info", None)]
    if not rows:
        return
    terminalreporter.section("benchmark figures (extra_info)")
    for b in rows:
        figures = ", ".join(f"{k}={v}" for k, v in b.extra_info.items())
        terminalreporter.write_line(f"{b.name}: {figures}")

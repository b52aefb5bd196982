"""Shared test set-up: every test runs without the player's own data folder, faction
preferences or export location (they would change which datasheets a name finds), and keeps
compiled effect files in the session's own cache folder; and the summary says how many tests
were skipped for want of the workspace's reference data (``/work/shared``: the datasheet
export), which a checkout elsewhere (CI) lacks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"  # tests that need it skip, naming it


@pytest.fixture(autouse=True)
def _isolated_user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> None:
    monkeypatch.setenv("WH40K_CALC_HOME", str(tmp_path_factory.mktemp("calc-home")))
    monkeypatch.setenv("WH40K_CALC_CACHE", str(tmp_path_factory.getbasetemp() / "calc-cache"))
    monkeypatch.delenv("WH40K_CALC_FACTIONS", raising=False)
    monkeypatch.delenv("WH40K_CALC_CSV", raising=False)


@pytest.fixture(autouse=True)
def _no_kept_outcomes() -> None:
    """Each test starts with no exact outcome kept by another (``resolve.exact_outcome`` keeps
    them per process): a test that stands a refusing engine in for ``run_exact`` would leave
    its refusals to whichever test of the same worker resolves the same activation next."""
    from wh40k_calc import resolve

    resolve._OUTCOMES.clear()


def shared_skips(reports: list[Any], shared: Path = SHARED) -> int:
    """How many of the skipped ``reports`` were skipped for want of ``shared`` (their reason
    names a path inside it: every such skip does)."""
    count = 0
    for report in reports:
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        count += str(shared) in str(reason)
    return count


def shared_summary(count: int, shared: Path = SHARED) -> str | None:
    """The summary line for ``count`` tests skipped for want of ``shared`` (None for none)."""
    if not count:
        return None
    tests = "1 test" if count == 1 else f"{count} tests"
    return (
        f"{tests} skipped: they read the datasheet export in {shared} (the importer's tests "
        "and the regeneration check), which is not here; run them in the workspace"
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    line = shared_summary(shared_skips(terminalreporter.stats.get("skipped", [])))
    if line:
        terminalreporter.write_line(line, yellow=True, bold=True)


@pytest.fixture
def fx(tmp_path):
    """``fx(record, ...)`` writes the records (dicts) as the Testers effect file of both
    editions (``faction``, file ``name``) and points the effect loader at them; the shipped
    files come back afterwards."""
    import yaml

    from wh40k_calc import effect_files, effects

    root = tmp_path / "effects"

    def write(*records: dict, faction: str = "Testers", name: str = "testers") -> None:
        for ed in ("10", "11"):
            folder = root / f"edition-{ed}"
            folder.mkdir(parents=True, exist_ok=True)
            doc = {
                "schema": 1,
                "edition": int(ed),
                "faction": faction,
                "data": {"source": "tests"},
                "effects": list(records),
            }
            (folder / f"{name}.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
        effect_files.set_roots([root])
        effects.clear_caches()

    yield write
    effect_files.set_roots(None)
    effects.clear_caches()

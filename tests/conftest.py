"""Shared test set-up: every test runs without the player's own data folder, faction
preferences or export location (they would change which datasheets a name finds), and keeps
compiled effect files in the session's own cache folder; and the summary says how many tests
were skipped for want of the workspace's reference data (``/work/shared``: the datasheet
export), which a checkout elsewhere (CI) lacks, and why each other skip was skipped (a run as
root, a machine without ``/dev/full``...)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

SHARED = Path(__file__).resolve().parents[2] / "shared"  # tests that need it skip, naming it

# Property tests: a developer's `make test` draws new examples each run (that is how the round
# trip of army lists found a list named as its only unit); CI (`.ci/run` sets
# HYPOTHESIS_PROFILE=ci) draws the same ones every run, so that a commit's result does not hang
# on the draw: a failure there is the commit's, and reproducible.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _isolated_user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> None:
    monkeypatch.setenv("WH40K_CALC_HOME", str(tmp_path_factory.mktemp("calc-home")))
    monkeypatch.setenv("WH40K_CALC_CACHE", str(tmp_path_factory.getbasetemp() / "calc-cache"))
    monkeypatch.delenv("WH40K_CALC_FACTIONS", raising=False)
    monkeypatch.delenv("WH40K_CALC_CSV", raising=False)


@pytest.fixture(autouse=True, scope="session")
def _shipped_files_checked_once() -> Any:
    """``calc units --check`` (and whatever else loads a datasheet through
    ``wh40k_calc.datasheet.load_datasheet`` at call time) reads each shipped file once a
    worker, not once a test: a shipped file's validated datasheet (frozen) is kept by its path,
    modification time and size, so an edited file is read again. Files elsewhere (a test's own
    folder, the user data folder) are read each time, and errors are never kept."""
    from wh40k_calc import catalog, datasheet

    roots = [r for r in (catalog.SHIPPED, catalog.GENERATED, catalog.GENERATED_11) if r]
    original = datasheet.load_datasheet
    kept: dict[tuple[str, int, int], Any] = {}

    def load(path: Path, keep: bool = False) -> Any:
        p = Path(path)
        if not any(p.is_relative_to(r) for r in roots):
            return original(path, keep)
        try:
            st = p.stat()
        except OSError:
            return original(path, keep)
        key = (str(p), st.st_mtime_ns, st.st_size)
        if key not in kept:
            kept[key] = original(path, keep)
        return kept[key]

    load.__doc__ = original.__doc__
    datasheet.load_datasheet = load  # type: ignore[assignment]
    yield
    datasheet.load_datasheet = original


@pytest.fixture(autouse=True)
def _no_kept_outcomes() -> None:
    """Each test starts with no exact outcome kept by another (``resolve.exact_outcome`` keeps
    them per process): a test that stands a refusing engine in for ``run_exact`` would leave
    its refusals to whichever test of the same worker resolves the same activation next."""
    from wh40k_calc import resolve

    resolve._OUTCOMES.clear()


def _reason(report: Any) -> str:
    """A skipped report's reason ("" when it has none), without pytest's "Skipped: "."""
    longrepr = getattr(report, "longrepr", None)
    reason = str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
    return reason.removeprefix("Skipped: ")


def shared_skips(reports: list[Any], shared: Path = SHARED) -> int:
    """How many of the skipped ``reports`` were skipped for want of ``shared`` (their reason
    names a path inside it: every such skip does)."""
    return sum(str(shared) in _reason(r) for r in reports)


def other_skips(reports: list[Any], shared: Path = SHARED) -> dict[str, int]:
    """The skipped ``reports`` not counted by :func:`shared_skips` (a machine without
    ``/dev/full``, a run as root...): reason -> how many, in the order first met; a report
    with no reason is counted under "no reason given"."""
    out: dict[str, int] = {}
    for r in reports:
        if getattr(r, "longrepr", None) is None:
            continue  # not a skip's report (pytest keeps others under "skipped" too)
        reason = _reason(r)
        if str(shared) not in reason:
            key = reason or "no reason given"
            out[key] = out.get(key, 0) + 1
    return out


def other_summary(reasons: dict[str, int]) -> list[str]:
    """One summary line per reason of :func:`other_skips`, so that every skip is explained."""
    return [
        f"{'1 test' if n == 1 else f'{n} tests'} skipped for another reason: {reason}"
        for reason, n in reasons.items()
    ]


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
    """After the run: how many tests skipped for want of the reference data, and each other
    skip's reason, so that the lines account for every skip pytest counts."""
    skipped = terminalreporter.stats.get("skipped", [])
    line = shared_summary(shared_skips(skipped))
    for text in ([line] if line else []) + other_summary(other_skips(skipped)):
        terminalreporter.write_line(text, yellow=True, bold=True)


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

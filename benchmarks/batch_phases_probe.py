"""The serial phases of ``calc compare benchmarks/batch-2000.yaml --csv -`` (what runs before
the first job is resolved), timed inside one run of the command in this process, for whichever
package is importable (this checkout, or main at an earlier commit put first on
``PYTHONPATH``: run both in turn to compare them in the same minutes). Prints one JSON object,
in milliseconds:

- ``yaml``: reading the batch file (``yamlio.read_data``: libyaml's parse and the data built
  from its events);
- ``load_rest``: the rest of ``batch.load_batch`` (the top level validated, the runs listed);
- ``build``: the jobs built (``compare.command._jobs_from_batch_file`` less ``load_batch``:
  the catalog, each run checked, its datasheets loaded, its Selections and jobs made);
- ``keys``: ``runner.job_key`` of every job (for the distinct jobs);
- ``to_first_job``: ``runner.run_jobs`` up to the first job resolved (the keys, the import of
  numpy and the engine, the forked process started);
- ``serial``: from the start of ``_jobs_from_batch_file`` to the first job resolved.

The first four leave out the modules imported meanwhile, given as ``load_imports`` (``yamlio``
and PyYAML), ``build_imports`` and ``to_first_job_imports`` (within ``to_first_job``). Each
phase is timed by wrapping the function named as its module is imported (the probe imports
nothing the command has not imported by then; ``job_key``'s 2,000 calls through the wrapper
add about 0.5 ms to ``keys``, for either tree alike).

    .venv/bin/python benchmarks/batch_phases_probe.py [--cpu] [--jobs N]

``--cpu``: the phases in this process's CPU time rather than wall time (on a shared machine it
moves far less from run to run).
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BATCH = Path(__file__).resolve().with_name("batch-2000.yaml")


class _Wrapped(importlib.abc.MetaPathFinder):
    """Wraps the functions :data:`TIMED` names in each module as it is imported (none is
    imported before the command imports it), and times every import (of a module found on
    the path) as the innermost phase running then spends it: a module that a change of the
    code imports in another phase (earlier or later: the engine's modules import it anyway)
    moves its time, which is not a saving."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.spent: dict[str, float] = {}  # phase -> seconds inside it
        self.imports: dict[str, float] = {}  # phase -> seconds of it importing modules
        self.at: dict[str, float] = {}  # phase -> when it first started
        self.running: list[str] = []  # the phases running now, innermost last
        self.importing = 0  # imports running now (an import inside another's is its own)

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None:
            return None  # left to the usual finders
        run = spec.loader.exec_module

        def exec_module(module: Any) -> None:
            self.imported(run, module)
            for function, phase in TIMED.get(name, {}).items():
                self.wrap(module, function, phase)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec

    def imported(self, run: Callable, module: Any) -> None:
        start = self.clock()
        self.importing += 1
        try:
            run(module)
        finally:
            self.importing -= 1
            if self.importing == 0 and self.running:
                phase = self.running[-1]
                self.imports[phase] = self.imports.get(phase, 0.0) + self.clock() - start

    def call(self, phase: str, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        start = self.clock()
        self.at.setdefault(phase, start)
        self.running.append(phase)
        try:
            return fn(*args, **kwargs)
        finally:
            self.running.pop()
            self.spent[phase] = self.spent.get(phase, 0.0) + self.clock() - start

    def wrap(self, module: Any, name: str, phase: str) -> None:
        fn = getattr(module, name)
        setattr(module, name, lambda *args, **kwargs: self.call(phase, fn, *args, **kwargs))

    def own(self, phase: str, *inner: str) -> float:
        """The time of ``phase`` less its ``inner`` phases' and less its imports."""
        return self.spent[phase] - sum(self.spent[p] for p in inner) - self.imports.get(phase, 0)


# module -> function -> phase
TIMED = {
    "wh40k_calc.yamlio": {"read_data": "yaml"},
    "wh40k_calc.batch": {"load_batch": "load_batch"},
    "wh40k_calc.compare.runner": {
        "job_key": "keys",
        "run_jobs": "run_jobs",
        "_resolve": "resolve",
    },
}


def main() -> None:
    import wh40k_calc.__main__ as entry
    import wh40k_calc.compare.command as command

    args = sys.argv[1:]
    cpu = "--cpu" in args  # this process's CPU time: what another program's load moves least
    clock = time.process_time if cpu else time.perf_counter
    probe = _Wrapped(clock)
    sys.meta_path.insert(0, probe)
    probe.wrap(command, "_jobs_from_batch_file", "jobs")
    sys.argv = ["calc", "compare", str(BATCH), "--csv", "-", *(a for a in args if a != "--cpu")]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        entry.main()
    at, imports = probe.at, probe.imports
    ms = {
        "yaml": probe.own("yaml"),
        "load_rest": probe.own("load_batch", "yaml"),
        "load_imports": imports.get("load_batch", 0.0),
        "build": probe.own("jobs", "load_batch"),
        "build_imports": imports.get("jobs", 0.0),
        "keys": probe.own("keys"),
        "to_first_job": at["resolve"] - at["run_jobs"],
        "to_first_job_imports": imports.get("run_jobs", 0.0),
        "serial": at["resolve"] - at["jobs"],
    }
    print(json.dumps({k: round(v * 1000, 1) for k, v in ms.items()}))


if __name__ == "__main__":
    main()

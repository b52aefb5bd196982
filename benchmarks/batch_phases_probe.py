"""The serial phases of ``calc compare benchmarks/batch-2000.yaml --csv -`` (what runs before
the first job is resolved), timed inside one run of the command in this process, for whichever
package is importable (this checkout, or main at an earlier commit put first on
``PYTHONPATH``: run both in turn to compare them in the same minutes). Prints one JSON object,
in milliseconds:

- ``yaml_import``: the import of ``yamlio`` (PyYAML's with it), the first thing
  ``load_batch`` does;
- ``yaml``: reading the batch file (``yamlio.read_data``: libyaml's parse and the data built
  from its events);
- ``load_rest``: the rest of ``batch.load_batch`` (the top level validated, the runs listed);
- ``build``: the jobs built (``compare.command._jobs_from_batch_file`` less ``load_batch``:
  the catalog, each run checked, its datasheets loaded, its Selections and jobs made, the
  modules that needs imported);
- ``keys``: ``runner.job_key`` of every job (for the distinct jobs);
- ``to_first_job``: ``runner.run_jobs`` up to the first job resolved (the keys, the import of
  numpy and the engine, the forked process started);
- ``serial``: from the start of ``_jobs_from_batch_file`` to the first job resolved.

Each phase is timed by wrapping the function named as its module is imported (the probe
imports nothing the command has not imported by then; ``job_key``'s 2,000 calls through the
wrapper add about 0.5 ms to ``keys``, for either tree alike).

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
    imported before the command imports it), and times the import of :data:`IMPORTS`."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.spent: dict[str, float] = {}  # phase -> seconds inside it
        self.at: dict[str, float] = {}  # phase -> when it first started

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name not in TIMED and name not in IMPORTS:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module: Any) -> None:
            self.call(IMPORTS.get(name), run, module)
            for function, phase in TIMED.get(name, {}).items():
                self.wrap(module, function, phase)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec

    def call(self, phase: str | None, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        if phase is None:
            return fn(*args, **kwargs)
        start = self.clock()
        self.at.setdefault(phase, start)
        try:
            return fn(*args, **kwargs)
        finally:
            self.spent[phase] = self.spent.get(phase, 0.0) + self.clock() - start

    def wrap(self, module: Any, name: str, phase: str) -> None:
        fn = getattr(module, name)
        setattr(module, name, lambda *args, **kwargs: self.call(phase, fn, *args, **kwargs))


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
IMPORTS = {"wh40k_calc.yamlio": "yaml_import"}  # module -> phase (its import, PyYAML's too)


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
    spent, at = probe.spent, probe.at
    ms = {
        "yaml_import": spent["yaml_import"],
        "yaml": spent["yaml"],
        "load_rest": spent["load_batch"] - spent["yaml"] - spent["yaml_import"],
        "build": spent["jobs"] - spent["load_batch"],
        "keys": spent["keys"],
        "to_first_job": at["resolve"] - at["run_jobs"],
        "serial": at["resolve"] - at["jobs"],
    }
    print(json.dumps({k: round(v * 1000, 1) for k, v in ms.items()}))


if __name__ == "__main__":
    main()

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
- ``keys``: ``runner.job_key`` of every job (the distinct jobs);
- ``to_first_job``: ``runner.run_jobs`` up to the first job resolved (the keys, the import of
  numpy and the engine, the forked process started);
- ``serial``: from the start of ``load_batch`` to the first job resolved.

Each phase is timed by wrapping the function named (``job_key``'s 2,000 calls add about
0.5 ms to ``keys``, for both trees alike). The modules the command imports at start-up are
imported before the clock starts, as ``calc`` has them by then.

    .venv/bin/python benchmarks/batch_phases_probe.py [--jobs N]
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BATCH = Path(__file__).resolve().with_name("batch-2000.yaml")


def main() -> None:
    import wh40k_calc.__main__ as entry
    import wh40k_calc.batch as batch
    import wh40k_calc.compare.command as command
    import wh40k_calc.compare.runner as runner
    import wh40k_calc.yamlio as yamlio

    clock = time.perf_counter
    spent: dict[str, float] = {}
    at: dict[str, float] = {}

    def timed(module: Any, name: str, phase: str) -> None:
        fn: Callable = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            at.setdefault(phase, start)
            try:
                return fn(*args, **kwargs)
            finally:
                spent[phase] = spent.get(phase, 0.0) + clock() - start

        setattr(module, name, wrapper)

    timed(yamlio, "read_data", "yaml")
    timed(batch, "load_batch", "load_batch")
    timed(command, "_jobs_from_batch_file", "jobs")
    timed(runner, "job_key", "keys")
    timed(runner, "run_jobs", "run_jobs")
    resolve_one = runner._resolve

    def first_resolved(job: Any) -> Any:
        at.setdefault("first_job", clock())
        return resolve_one(job)

    runner._resolve = first_resolved
    sys.argv = ["calc", "compare", str(BATCH), "--csv", "-", *sys.argv[1:]]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        entry.main()
    ms = {
        "yaml": spent["yaml"],
        "load_rest": spent["load_batch"] - spent["yaml"],
        "build": spent["jobs"] - spent["load_batch"],
        "keys": spent["keys"],
        "to_first_job": at["first_job"] - at["run_jobs"],
        "serial": at["first_job"] - at["load_batch"],
    }
    print(json.dumps({k: round(v * 1000, 1) for k, v in ms.items()}))


if __name__ == "__main__":
    main()

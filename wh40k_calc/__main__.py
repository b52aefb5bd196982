"""The ``calc`` program (the console script) and ``python -m wh40k_calc``:
:func:`wh40k_calc.cli.main` in a process tuned for a short life.

Start-up creates some 35,000 long-lived objects (modules, classes, functions, the option
groups) and no garbage worth a cycle collection, yet Python's default thresholds run about 90
collections while they are made (~9 ms), and the collection at exit walks them all again
(~15 ms). So the first generation collects only after 100,000 new objects instead of 700 (a
long batch still collects, every 100,000 objects), and everything alive at exit is frozen out
of the final collection (``gc.freeze``; the process ends, the memory goes with it), and once
the output is written the process ends without tearing down its objects (:func:`_end`). Measured
in ``benchmarks/test_bench_startup.py`` (issue 12).

numpy's OpenBLAS starts a thread per core when it loads, and they spin while the program runs:
nothing ``calc`` multiplies is large enough to gain from them (the largest exact activations
ran 3-5 times faster on one thread on a 2-core machine, and a batch's worker processes already
use every core). So OpenBLAS is given one thread unless ``OPENBLAS_NUM_THREADS`` says otherwise.
"""

from __future__ import annotations

import gc
import os

FIRST_GENERATION = 100_000  # new objects between collections (Python's default: 700)


def main() -> None:
    """Run ``calc`` (see :func:`wh40k_calc.cli.main`) with the collector and OpenBLAS tuned
    as above."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # read when numpy loads OpenBLAS
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(FIRST_GENERATION, older, oldest)
    from .cli import main as cli_main  # typer, rich and the options: after the threshold

    code: str | int | None
    try:
        cli_main()
    except SystemExit as exc:
        code = exc.code
    else:
        code = 0
    finally:
        gc.freeze()
    _end(code)


def _end(code: str | int | None) -> None:
    """End the process with exit status ``code`` (SystemExit's) once its output is written,
    without Python's teardown of its objects (every module, cache and array freed one by one:
    20-45 ms after a 2,000-run batch; ``os._exit``, as a forked worker ends). Where the exit
    has anything else to do (an ``atexit`` callback, another thread, output that cannot be
    flushed, a message for its status), the usual exit does it, as before."""
    import atexit
    import sys
    import threading

    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError, AttributeError):
        sys.exit(code)  # the usual exit reports the output that cannot be written
    if code is None:
        code = 0
    if type(code) is not int or atexit._ncallbacks() or threading.active_count() > 1:
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":
    main()

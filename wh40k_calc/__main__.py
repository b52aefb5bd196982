"""The ``calc`` program (the console script) and ``python -m wh40k_calc``:
:func:`wh40k_calc.cli.main` in a process tuned for a short life.

Start-up creates some 35,000 long-lived objects (modules, classes, functions, the option
groups) and no garbage worth a cycle collection, yet Python's default thresholds run about 90
collections while they are made (~9 ms), and the collection at exit walks them all again
(~15 ms). So the first generation collects only after 100,000 new objects instead of 700 (a
long batch still collects, every 100,000 objects), and everything alive at exit is frozen out
of the final collection (``gc.freeze``; the process ends, the memory goes with it). Measured in
``benchmarks/test_bench_startup.py`` (issue 12).

numpy's OpenBLAS starts a thread per core when it loads, and they spin while the program runs:
nothing ``calc`` multiplies is large enough to gain from them (the largest exact activations
ran 3-5 times faster on one thread on a 2-core machine, and a batch's worker processes already
use every core). So OpenBLAS is given one thread unless ``OPENBLAS_NUM_THREADS`` says otherwise.
"""

from . import interrupts  # first: a Ctrl-C from here on is held (see the docstring)

interrupts.hold()

import gc  # noqa: E402
import os  # noqa: E402

FIRST_GENERATION = 100_000  # new objects between collections (Python's default: 700)


def main() -> None:
    """Run ``calc`` (see :func:`wh40k_calc.cli.main`) with the collector and OpenBLAS tuned
    as above."""
    interrupts.hold()  # again, for a caller that imported this module long before
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # read when numpy loads OpenBLAS
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(FIRST_GENERATION, older, oldest)
    from .cli import main as cli_main  # typer, rich and the options: after the threshold

    try:
        cli_main()
    finally:
        gc.freeze()


if __name__ == "__main__":
    main()

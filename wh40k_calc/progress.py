"""A progress bar for long sampler runs: rich's, on the standard error, shown only when that
is a terminal and once the run has taken half a second (a quick run shows nothing), and gone
when the run ends. Nothing is ever written to the standard output, so ``--json`` output and
pipes are untouched.

Used by ``calc shoot``/``fight`` (the sampler's chunks of trials) and ``calc sequence`` (its
chunks of trials through every step); ``calc compare`` counts its rows instead
(``compare/command.py``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Any

SHOW_AFTER = 0.5  # seconds a run takes before its bar is shown


class Progress:
    """Called as ``(done, total)`` (trials) after each chunk of a run; draws the bar on
    ``stream`` once ``SHOW_AFTER`` seconds have passed since it was made and the run is not
    done yet; :meth:`stop` removes it.

    Args:
        stream: where the bar goes (a terminal).
        what: the bar's label ("sampling").
        clock: seconds (``time.monotonic``; a test gives its own).
    """

    def __init__(
        self,
        stream: IO[str],
        what: str = "sampling",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream, self.what, self.clock = stream, what, clock
        self.start = clock()
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if self.clock() - self.start < SHOW_AFTER or done >= total:
                return
            from rich.console import Console
            from rich.progress import Progress as Bar

            self.bar = Bar(console=Console(file=self.stream), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.what, total=total)
        self.bar.update(self.task, completed=done, total=total)

    def stop(self) -> None:
        """Remove the bar (if it was shown)."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def progress_bar(what: str = "sampling", stream: IO[str] | None = None) -> Progress | None:
    """A :class:`Progress` on ``stream`` (default: the standard error) when it is a terminal,
    else None (no bar: a pipe, a file, a test)."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return Progress(stream, what) if tty else None

"""Paired wall-time runs of whole programs, for figures given as a ratio to the floor
(``benchmarks/floor.py``, the smallest typer + rich + numpy + yaml program).

Each round runs every command once, in turn, so that a busy machine slows all of them alike;
the figures are the medians over the rounds, and the ratios are taken between medians of the
same rounds. Besides wall time each run's CPU time (user + system, the process and its
children) is kept: on a machine shared with other work it moves far less than wall time.
"""

from __future__ import annotations

import compileall
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
FLOOR = [sys.executable, str(ROOT / "benchmarks" / "floor.py")]


def calc(*args: str) -> list[str]:
    """The command line of ``calc ARGS`` in this environment."""
    return [str(BIN / "calc"), *args]


def compile_package() -> None:
    """Write the package's bytecode first, as an installed copy has it (an editable checkout
    run with PYTHONDONTWRITEBYTECODE would otherwise compile every module at every start)."""
    compileall.compile_dir(ROOT / "wh40k_calc", quiet=1)
    compileall.compile_file(ROOT / "benchmarks" / "floor.py", quiet=1)


def run_once(command: Sequence[str], cwd: Path = ROOT) -> tuple[float, float]:
    """(wall time, CPU time) of one run, in seconds (output discarded; a failure raises)."""
    env = dict(os.environ, COLUMNS="100")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


class Paired:
    """Times of several commands, run in turn (one round per call)."""

    def __init__(self, commands: dict[str, Sequence[str]], cwd: Path = ROOT):
        self.commands = commands
        self.cwd = cwd
        self.reset()

    def reset(self) -> None:
        """Forget the rounds so far (after a warm-up round)."""
        self.times: dict[str, list[float]] = {name: [] for name in self.commands}
        self.cpu: dict[str, list[float]] = {name: [] for name in self.commands}

    def round(self) -> None:
        """Run every command once, in turn."""
        for name, command in self.commands.items():
            wall, cpu = run_once(command, self.cwd)
            self.times[name].append(wall)
            self.cpu[name].append(cpu)

    def median(self, name: str) -> float:
        """Median wall time of ``name`` over the rounds, in seconds."""
        return statistics.median(self.times[name])

    def median_cpu(self, name: str) -> float:
        """Median CPU time of ``name`` over the rounds, in seconds."""
        return statistics.median(self.cpu[name])

"""Paired wall-time runs of whole programs, for figures given as a ratio to the floor
(``benchmarks/floor.py``, the smallest typer + rich + numpy + yaml program).

Each round runs every command once, in turn, so that a busy machine slows all of them alike;
the figures are the medians over the rounds, and the ratios are taken between medians of the
same rounds.
"""

from __future__ import annotations

import compileall
import os
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


def run_once(command: Sequence[str], cwd: Path = ROOT) -> float:
    """Wall time of one run, in seconds (output discarded; a failure raises)."""
    env = dict(os.environ, COLUMNS="100")
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


class Paired:
    """Times of several commands, run in turn (one round per call)."""

    def __init__(self, commands: dict[str, Sequence[str]], cwd: Path = ROOT):
        self.commands = commands
        self.cwd = cwd
        self.times: dict[str, list[float]] = {name: [] for name in commands}

    def round(self) -> None:
        """Run every command once, in turn."""
        for name, command in self.commands.items():
            self.times[name].append(run_once(command, self.cwd))

    def median(self, name: str) -> float:
        """Median wall time of ``name`` over the rounds, in seconds."""
        return statistics.median(self.times[name])

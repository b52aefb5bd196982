"""Paired wall-time runs of whole programs, for figures given as a ratio to the floor
(``benchmarks/floor.py``, the smallest typer + rich + numpy + yaml program).

Each round runs every command once, in turn, so that a busy machine slows all of them alike;
the figures are the medians over the rounds, and the ratios are taken between medians of the
same rounds. Besides wall time each run's CPU time (user + system, the process and its
children) is kept: on a machine shared with other work it moves far less than wall time.
"""

from __future__ import annotations

import atexit
import compileall
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
FLOOR = [sys.executable, str(ROOT / "benchmarks" / "floor.py")]
# The floor on one OpenBLAS thread, as `calc` runs (wh40k_calc/__main__.py): like for like.
FLOOR_ONE_THREAD = (FLOOR, {"OPENBLAS_NUM_THREADS": "1"})
# main before the second round of issue 12's start-up and batch work: the "before" figures.
BEFORE = "eabb83f"
# main at the start of issue 21's speed work (start-up, sampler, batches, sequences), or the
# commit (or branch) named by WH40K_BENCH_BEFORE, e.g. main, to compare with it in the same run
BEFORE_SPEED = os.environ.get("WH40K_BENCH_BEFORE", "e9a54b7")

# A command: its argv, or (argv, extra environment variables).
Command = Sequence[str] | tuple[Sequence[str], Mapping[str, str]]


def calc(*args: str) -> list[str]:
    """The command line of ``calc ARGS`` in this environment."""
    return [str(BIN / "calc"), *args]


_TREES: dict[str, Path | None] = {}


def before_tree(commit: str = BEFORE) -> Path | None:
    """The package at ``commit`` exported from git into a temporary folder (datasheets
    included, bytecode written), or None where git or the commit is unavailable."""
    if commit not in _TREES:
        try:
            tar = subprocess.run(
                ["git", "archive", "--format=tar", commit],
                cwd=ROOT,
                capture_output=True,
                check=True,
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            _TREES[commit] = None
            return None
        folder = Path(tempfile.mkdtemp(prefix=f"calc-{commit}-"))
        atexit.register(shutil.rmtree, folder, True)
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            archive.extractall(folder, filter="data")
        compileall.compile_dir(folder / "wh40k_calc", quiet=1)
        _TREES[commit] = folder
    return _TREES[commit]


def calc_before(*args: str, commit: str = BEFORE) -> Command | None:
    """``calc ARGS`` as main was at ``commit`` (default :data:`BEFORE`, whose console script
    ran ``wh40k_calc.cli:main``; later commits run ``wh40k_calc.__main__:main``, the tuned
    process), with this environment's Python and libraries; None when the commit cannot be
    exported."""
    tree = before_tree(commit)
    if tree is None:
        return None
    entry = "cli" if commit == BEFORE else "__main__"
    script = (
        f"import sys; from wh40k_calc.{entry} import main; sys.argv[0] = 'calc'; sys.exit(main())"
    )
    # -P: the working folder (this checkout) is not put before PYTHONPATH
    return [sys.executable, "-P", "-c", script, *args], {"PYTHONPATH": str(tree)}


def compile_package() -> None:
    """Write the package's bytecode first, as an installed copy has it (an editable checkout
    run with PYTHONDONTWRITEBYTECODE would otherwise compile every module at every start)."""
    compileall.compile_dir(ROOT / "wh40k_calc", quiet=1)
    compileall.compile_file(ROOT / "benchmarks" / "floor.py", quiet=1)


def run_once(command: Command, cwd: Path = ROOT) -> tuple[float, float]:
    """(wall time, CPU time) of one run, in seconds (output discarded; a failure raises)."""
    extra: Mapping[str, str] = {}
    if isinstance(command, tuple):
        command, extra = command
    env = dict(os.environ, COLUMNS="100", **extra)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


class Paired:
    """Times of several commands, run in turn (one round per call)."""

    def __init__(self, commands: Mapping[str, Command | None], cwd: Path = ROOT):
        self.commands = {name: c for name, c in commands.items() if c is not None}
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

    def has(self, name: str) -> bool:
        """Whether ``name`` is timed (a "before" command may be unavailable)."""
        return name in self.commands

    def best(self, name: str) -> float:
        """Shortest wall time of ``name`` over the rounds (the least disturbed run)."""
        return min(self.times[name])

    def median_cpu(self, name: str) -> float:
        """Median CPU time of ``name`` over the rounds, in seconds."""
        return statistics.median(self.cpu[name])

"""Edition 11's exact engine for realistic units (the engine3 work): three commands main
declined (the sampler answered), with and without ``--json`` (which reads the damage
distribution, a second pass). ``make bench`` runs them; figures in ``extra_info``, none
asserted.

* the whole command, ``calc ARGS`` (``--json``) run as a user runs it (the console script, in a
  child process): its mean wall time, the method that answered and its notes; with ``--json``,
  one run of it with ``--method sample`` too (what main answered with: the same sampler);
* with ``--json``, the engine alone (``benchmarks/edition11_probe.py``, in a child process with
  one OpenBLAS thread, as ``calc`` runs): the state pass and the state pass plus the damage
  distribution, best of five with nothing kept from the run before, and the same for main's
  engine before this work (its budget lifted; its own verdict recorded) in the same run, with
  the ratios (``speedup_state``, ``speedup_with_damage``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CALC = str(Path(sys.executable).parent / "calc")
COMMANDS = {
    "lootas-dw": (
        "shoot lootas --models 10 -t boyz --target-models 20 --target-leader warboss "
        '--edition 11 --add-ability "devastating wounds"'
    ),
    "lootas-dw-sh1": (
        "shoot lootas --models 10 -t boyz --target-models 20 --target-leader warboss "
        '--edition 11 --add-ability "devastating wounds" --add-ability "sustained hits 1"'
    ),
    "boyz-fight-dw-sh1": (
        "fight boyz --models 20 -t boyz --target-models 20 --target-leader warboss "
        '--edition 11 --add-ability "devastating wounds" --add-ability "sustained hits 1"'
    ),
}


def _calc(args: list[str]) -> str:
    res = subprocess.run([CALC, *args], capture_output=True, text=True, check=False, timeout=600)
    assert res.returncode == 0, res.stderr
    return res.stdout


def _probe(line: str) -> dict:
    res = subprocess.run(
        [sys.executable, str(HERE / "edition11_probe.py"), line],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_edition11_command(benchmark, name: str, as_json: bool) -> None:
    import shlex

    line = COMMANDS[name]
    args = shlex.split(line) + (["--json"] if as_json else [])
    out = benchmark.pedantic(_calc, args=(args,), rounds=5, iterations=1)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["wall_seconds_mean"] = round(float(stats.stats.mean), 3)
    if not as_json:
        benchmark.extra_info["exact"] = "· exact" in out
        return
    obj = json.loads(out)
    benchmark.extra_info["method"] = obj["method"]
    benchmark.extra_info["notes"] = obj["notes"]
    # main answered with the sampler (the exact engine declined): the same command sampled
    start = time.perf_counter()
    _calc([*args, "--method", "sample"])
    benchmark.extra_info["sampled_wall_seconds"] = round(time.perf_counter() - start, 3)
    benchmark.extra_info.update(_probe(line))

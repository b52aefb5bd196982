"""How ``calc`` (``wh40k_calc.__main__``) ends: once its output is written it leaves without
Python's teardown of its objects (``__main__._end``), with the exit status and output of the
usual exit; where the exit has work of its own (an ``atexit`` callback, another thread, a
message for its status), the usual exit does it."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROGRAM = """\
import atexit, os, sys, threading
sys.argv = ["calc", *sys.argv[2:]]
from wh40k_calc import __main__ as entry
def ended(code):  # the last word on how the process ends
    sys.stderr.write("os._exit\\n")
    sys.stderr.flush()
    real(code)
real, os._exit = os._exit, ended
if {extra!r} == "atexit":
    atexit.register(lambda: sys.stderr.write("callback ran\\n"))
if {extra!r} == "thread":
    threading.Thread(target=lambda: __import__("time").sleep(0.3)).start()
if {extra!r} == "message":
    import wh40k_calc.cli as cli
    cli.main = lambda: sys.exit("a message for the status")
entry.main()
"""


def run(*args: str, extra: str = "") -> subprocess.CompletedProcess[str]:
    code = PROGRAM.format(extra=extra)
    return subprocess.run(
        [sys.executable, "-c", code, "x", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "status"),
    [(["--version"], 0), (["shoot", "lootas", "--target", "nope"], 1), (["nosuch"], 2)],
)
def test_the_status_and_output_of_the_usual_exit(args: list[str], status: int) -> None:
    res = run(*args)
    assert res.returncode == status
    assert res.stderr.endswith("os._exit\n")  # no teardown
    if status == 0:
        assert res.stdout.startswith("wh40k-calc ")
    else:
        assert "error" in res.stderr.lower() or "usage" in res.stderr.lower()


@pytest.mark.parametrize("extra", ["atexit", "thread", "message"])
def test_work_left_for_the_exit_is_done(extra: str) -> None:
    res = run("--version", extra=extra)
    assert "os._exit" not in res.stderr  # the usual exit
    if extra == "atexit":
        assert res.returncode == 0 and "callback ran" in res.stderr
    elif extra == "thread":
        assert res.returncode == 0 and res.stdout.startswith("wh40k-calc ")
    else:
        assert res.returncode == 1 and "a message for the status" in res.stderr

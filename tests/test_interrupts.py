"""Ctrl-C at any moment of a run is ``interrupted`` and exit code 130, never a traceback
(wh40k_calc/interrupts.py): a SIGINT sent at several moments of start-up, the command and its
end, through both ways of starting the program (the ``calc`` console script's entry point and
``python -m wh40k_calc``).

Only after ``wh40k_calc.__main__``'s first line has held SIGINT: before that line a signal is
the interpreter's own to report, out of the program's reach. The moments of start-up and of
the command are the program's own steps: the main thread sends the signal to itself as it
starts importing a given module (the first after the hold, typer, numpy, the engine, rich's
tables when printing), so it lands there however busy the machine is, and the run must be an
interruption. The moments about the end are times after the hold (a thread of the child
watches the main thread's blocked-signal mask in ``/proc``, then sleeps): the command may have
ended by then, so either outcome is right, and only the output and the exit code are checked.
That the first line is reached before anything heavy is imported is checked on its own.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["shoot", "lootas", "--target", "boyz"]
# the signal is sent as the main thread starts importing one of these (after the hold; ""
# stands for the first import of all after it): start-up, then the command and its output
IMPORTS = ("", "typer", "numpy", "wh40k_calc.engine", "rich.table")
LATER = (0.08, 0.15, 0.25)  # seconds after the hold: in the command, about its end

# the console script runs `from wh40k_calc.__main__ import main; sys.exit(main())` (the entry
# point read from the installed metadata); `python -m` runs the package's __main__ module
STARTS = {
    "console script": (
        "from importlib.metadata import entry_points\n"
        "(ep,) = [e for e in entry_points(group='console_scripts') if e.name == 'calc']\n"
        "module, _, name = ep.value.partition(':')\n"
        "start = lambda: sys.exit(getattr(importlib.import_module(module), name)())\n"
    ),
    "python -m": "start = lambda: runpy.run_module('wh40k_calc', run_name='__main__')\n",
}

DRIVER = """\
import importlib, runpy, signal, sys, threading, time
main = threading.main_thread().ident
mask = f'/proc/self/task/{{threading.main_thread().native_id}}/status'

def held():
    for line in open(mask):
        if line.startswith('SigBlk:'):
            return int(line.split()[1], 16) & (1 << (signal.SIGINT - 1))

def ctrl_c():
    sys.stderr.write('SIGINT sent\\n')
    sys.stderr.flush()
    signal.pthread_kill(main, signal.SIGINT)

def later(delay):
    while not held():
        time.sleep(0.0002)
    time.sleep(delay)
    ctrl_c()

class AtImport:  # sends the signal, from the main thread, as it starts importing `name`
    def __init__(self, name):
        self.name, self.after_hold, self.done = name, False, False

    def find_spec(self, name, path=None, target=None):
        self.after_hold = self.after_hold or bool(held())  # (released later, in the command)
        if self.after_hold and not self.done and name.startswith(self.name):
            self.done = True
            ctrl_c()
        return None

sys.argv = ['calc', *{args!r}]
{start}
moment = {moment!r}
if isinstance(moment, str):
    sys.meta_path.insert(0, AtImport(moment))
else:
    threading.Thread(target=later, args=(moment,), daemon=True).start()
start()
"""

needs_linux = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or not hasattr(signal, "pthread_kill"),
    reason="needs POSIX signals and Linux's /proc",
)


@needs_linux
def test_ctrl_c_at_any_moment_is_a_quiet_exit_130(tmp_path: Path) -> None:
    env = {**os.environ, "WH40K_CALC_HOME": str(tmp_path), "COLUMNS": "100"}
    runs = {
        (how, moment): subprocess.Popen(
            [sys.executable, "-c", DRIVER.format(moment=moment, args=ARGS, start=start)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for how, start in STARTS.items()
        for moment in IMPORTS + LATER
    }
    for (how, moment), proc in runs.items():
        out, err = proc.communicate(timeout=120)
        when = f"importing {moment or 'the first module'}" if moment in IMPORTS else moment
        where = f"{how}, SIGINT {when} after the hold: exit {proc.returncode}\n{err}"
        assert "Traceback" not in err and "Error" not in err, where
        if moment in IMPORTS:
            assert "SIGINT sent" in err, f"{where}: not imported after the hold"
        if moment in IMPORTS or proc.returncode != 0:
            assert proc.returncode == 130 and err.endswith("SIGINT sent\ninterrupted\n"), where
        else:  # the command had ended (printed all of its output) when the signal came
            assert "Allocation order" in out, where


@needs_linux
def test_the_hold_is_the_first_thing_the_entry_point_does() -> None:
    """Importing ``wh40k_calc.__main__`` (what both ways of starting do first) holds SIGINT
    before it imports the command line or anything of the standard library's beyond the
    interpreter's start-up set."""
    probe = (
        "import _signal, sys\n"
        "before, seen, hold = set(sys.modules), [], _signal.pthread_sigmask\n"
        "def spy(*args):\n"
        "    seen.append(sorted(set(sys.modules) - before))\n"
        "    return hold(*args)\n"
        "_signal.pthread_sigmask = spy\n"
        "import wh40k_calc.__main__\n"
        "print(seen[0])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['wh40k_calc', 'wh40k_calc.__main__', 'wh40k_calc.interrupts']"


@needs_linux
def test_typer_s_own_exit_for_a_late_ctrl_c_is_said(monkeypatch, capsys) -> None:
    """A Ctrl-C landing after the command returned, inside typer's own main, is turned by
    typer into exit code 130 without a word (``Exit(130) from`` the KeyboardInterrupt, then
    ``sys.exit``); seen under load by the test above ("SIGINT 0.15 s after the hold: exit 130"
    with no "interrupted"). The entry point says it as any other Ctrl-C, once."""
    from wh40k_calc import cli

    def typer_main() -> None:
        try:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as e:
                raise RuntimeError("click's Exit(130)") from e
        except RuntimeError:
            sys.exit(130)

    # main() holds SIGINT and makes SIGPIPE the default: both put back after
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    pipe = signal.getsignal(signal.SIGPIPE)
    try:
        monkeypatch.setattr(cli, "app", typer_main)
        with pytest.raises(SystemExit) as exc:
            cli.main()
        assert exc.value.code == 130
        assert capsys.readouterr().err == "interrupted\n"
        # an exit of 130 for another reason (no Ctrl-C behind it) is left as it is
        monkeypatch.setattr(cli, "app", lambda: sys.exit(130))
        with pytest.raises(SystemExit) as plain:
            cli.main()
        assert plain.value.code == 130 and capsys.readouterr().err == ""

        # a command's own exit for a Ctrl-C it said (``raise fail(...) from None``: calc data
        # update's "interrupted; the data in use is unchanged") is not said again
        def said_by_the_command() -> None:
            try:
                try:
                    raise KeyboardInterrupt
                except KeyboardInterrupt:
                    raise RuntimeError("typer.Exit(130)") from None
            except RuntimeError:
                sys.exit(130)

        monkeypatch.setattr(cli, "app", said_by_the_command)
        with pytest.raises(SystemExit) as own:
            cli.main()
        assert own.value.code == 130 and capsys.readouterr().err == ""
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGPIPE, pipe)

"""The sampler's progress bar: on the standard error of a terminal only, shown once a run has
taken half a second, never on the standard output (``--json`` stays pure JSON); ``calc shoot``,
``calc fight`` and ``calc sequence`` give it the sampler's chunks, ``--json`` or not."""

from __future__ import annotations

import io
import json

import pytest
from helpers import cli

from wh40k_calc import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_waits_half_a_second_and_goes_to_its_stream():
    now = [0.0]
    screen = Terminal()
    bar = progress.Progress(screen, clock=lambda: now[0])
    bar(1, 10)
    assert bar.bar is None and screen.getvalue() == ""  # a quick run shows nothing
    now[0] = 0.6
    bar(2, 10)
    assert bar.bar is not None
    bar(10, 10)
    bar.stop()
    assert "sampling" in screen.getvalue()


def test_no_bar_off_a_terminal():
    assert progress.progress_bar(stream=io.StringIO()) is None
    assert isinstance(progress.progress_bar(stream=Terminal()), progress.Progress)


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))

    def stop(self) -> None:
        pass


@pytest.mark.parametrize(
    "args",
    [
        ["shoot", "lootas", "-t", "boyz", "--method", "sample", "--trials", "70000"],
        ["sequence", "-t", "boyz", "shoot lootas", "--method", "sample", "--trials", "70000"],
    ],
)
def test_commands_report_the_sampler_progress(monkeypatch, args):
    """Each chunk of trials is reported (the sequence did not report any; ``--json`` turned
    the bar off though it never touches the standard output), and the JSON is untouched."""
    seen = Recorder()
    monkeypatch.setattr(progress, "progress_bar", lambda *a, **k: seen)
    res = cli(*args, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["sample"]["trials"] == 70_000
    assert seen.calls and seen.calls[-1] == (70_000, 70_000)

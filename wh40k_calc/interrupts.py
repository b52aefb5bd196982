"""Ctrl-C at any moment of a ``calc`` run: a quiet ``interrupted`` and exit code 130, never a
traceback.

Python turns SIGINT into :class:`KeyboardInterrupt` wherever the program is, so a Ctrl-C during
the ~70 ms of imports before :func:`wh40k_calc.cli.main` is inside its ``try`` (or during the
shut-down after it) would escape every handler. So SIGINT is *held* (blocked for the process's
one thread, ``pthread_sigmask``) from the first line of the entry point until the command runs,
and again from the moment it ends: a Ctrl-C pressed meanwhile waits, pending, and is delivered
where :func:`wh40k_calc.cli.main` catches it, or found pending at the end
(:func:`interrupted_meanwhile`). Only the interpreter's own start-up, before any of our code
runs (its ``site`` import, a few milliseconds), stays out of reach: a signal then is Python's to
report.

This module imports ``_signal``, the C module the interpreter has already loaded: ``signal``
itself would import ``enum`` first, a window of its own. Neither this module nor
``wh40k_calc.__main__`` imports ``__future__`` (a module file to load). Where
``pthread_sigmask`` does not exist (Windows) holding does nothing and Python's default handling
applies.
"""

import _signal  # type: ignore[import-not-found]  # see the module docstring

_SIGINT = {_signal.SIGINT}
_CAN_HOLD = hasattr(_signal, "pthread_sigmask")


def hold() -> None:
    """Keep SIGINT pending instead of delivered (this thread and the threads and processes it
    starts). Harmless when already held."""
    if _CAN_HOLD:
        _signal.pthread_sigmask(_signal.SIG_BLOCK, _SIGINT)


def release() -> None:
    """Deliver SIGINT again; one that was pending is delivered now, as
    :class:`KeyboardInterrupt` at the caller's next line."""
    if _CAN_HOLD:
        _signal.pthread_sigmask(_signal.SIG_UNBLOCK, _SIGINT)


def interrupted_meanwhile() -> bool:
    """Whether a SIGINT is pending (sent while held and not yet delivered)."""
    return _CAN_HOLD and _signal.SIGINT in _signal.sigpending()

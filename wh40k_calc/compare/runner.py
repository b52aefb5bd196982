"""Running the jobs of ``calc compare``: each distinct job resolved once, large batches spread
over worker processes, and the results given back in batch order.

Two jobs are the same when everything that reaches ``resolve`` is the same: the Selection (with
each datasheet taken by identity, as the job builder hands out one object per unit) and the
engine settings (method, trials, seed). The sampler is seeded per job, so a job gives the same
numbers wherever it runs: the rows of ``--jobs 4`` are those of ``--jobs 1``, in the same order.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ..datasheet import Datasheet
from .jobs import USER_ERRORS, Job, Row, RunError, job_outcome

AUTO_PARALLEL_RUNS = 300  # distinct jobs above which --jobs defaults to every core
CHUNKS_PER_WORKER = 4  # smaller chunks balance uneven jobs; larger keep a worker on few targets

# A job's outcome: ("row", contract object without "run", figures) or ("error", message).
Outcome = tuple[str, Any, Any]


def job_key(job: Job) -> Hashable:
    """What decides a job's result: its Selection (datasheets by identity), a sequence's steps
    and the engine settings. The run's name, target label and batch line are not part of it."""
    return (_key(job.selection), _key(job.steps), job.method, job.trials, job.seed)


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type, None for any other type (looked up once a type:
    a batch keys thousands of Selections)."""
    if cls not in _FIELD_NAMES:
        is_dc = dataclasses.is_dataclass(cls)
        _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls)) if is_dc else None
    return _FIELD_NAMES[cls]


def _key(value: Any) -> Hashable:
    if isinstance(value, Datasheet):
        return ("datasheet", id(value))
    names = _field_names(type(value))
    if names is not None:
        return (type(value).__name__, *(_key(getattr(value, n)) for n in names))
    if isinstance(value, (tuple, list)):
        return tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    return value


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says; at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def default_workers(distinct_jobs: int) -> int:
    """Worker processes for ``distinct_jobs`` when --jobs is not given: every core the
    process may use once there are more than AUTO_PARALLEL_RUNS, else 1 (this process)."""
    return 1 if distinct_jobs <= AUTO_PARALLEL_RUNS else usable_cores()


def run_jobs(
    items: Iterable[Job | RunError],
    strict: bool = False,
    tick: Callable[[], None] | None = None,
    workers: int | None = 1,
) -> tuple[list[Row], list[RunError]]:
    """Resolve every distinct job once; errors (given or raised) are collected, not raised.

    Args:
        items: jobs and the errors found while building them, in batch order.
        strict: stop at the first error in batch order (it is the last item of the returned
            errors; with several workers the later jobs may have been resolved, unseen).
        tick: called once per item (a progress bar).
        workers: worker processes; 1 resolves in this process, None chooses
            (:func:`default_workers`); never more than :func:`usable_cores` nor the number
            of distinct jobs (more processes than cores only slow the batch down).

    Returns:
        (rows, errors), both in batch order.
    """
    items = list(items)
    keys = {i: job_key(item) for i, item in enumerate(items) if isinstance(item, Job)}
    distinct: dict[Hashable, Job] = {}
    for i, key in keys.items():
        distinct.setdefault(key, items[i])  # type: ignore[arg-type]
    if workers is None:
        workers = default_workers(len(distinct))
    workers = min(workers, usable_cores(), len(distinct))
    done: dict[Hashable, Outcome] = {}
    if workers > 1 and len(distinct) > 1:
        done = _resolve_in_workers(distinct, workers, tick)
    untick = set(done)  # first copies the pool has ticked for already
    rows: list[Row] = []
    errors: list[RunError] = []
    for i, item in enumerate(items):
        if isinstance(item, RunError):
            errors.append(item)
        else:
            key = keys[i]
            if key not in done:
                done[key] = _resolve(item)
            _collect(item, done[key], rows, errors)
        if i in keys and keys[i] in untick:
            untick.discard(keys[i])
        elif tick is not None:
            tick()
        if strict and errors:
            break
    return rows, errors


def _collect(job: Job, outcome: Outcome, rows: list[Row], errors: list[RunError]) -> None:
    """Append ``job``'s row (or error) made from its outcome."""
    kind, first, second = outcome
    if kind == "row":
        rows.append(Row(job, {"run": job.run, **first}, second))
    else:
        errors.append(
            RunError(job.run, first, source=job.source, line=job.line, target=job.target_label)
        )


def _resolve(job: Job) -> Outcome:
    """One job's outcome; a user error becomes its message."""
    try:
        obj, figures = job_outcome(job)
    except USER_ERRORS as exc:
        return ("error", _message(exc), None)
    return ("row", obj, figures)


def _resolve_chunk(jobs: list[Job]) -> list[Outcome]:
    return [_resolve(job) for job in jobs]


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool on Ctrl-C


def _by_target(item: tuple[Hashable, Job]) -> tuple[str, str]:
    """Jobs against the same target resolved in the same worker where possible: each worker
    builds the target's state space and kernels once (engine/memo.py)."""
    ds = item[1].selection.target.datasheet
    return (ds.faction or "", ds.name)


def _resolve_in_workers(
    jobs: dict[Hashable, Job], workers: int, tick: Callable[[], None] | None
) -> dict[Hashable, Outcome]:
    """Outcomes of ``jobs`` (by key) resolved by ``workers`` processes, chunk by chunk,
    grouped by target; none (the caller resolves them itself) where worker processes cannot be
    started."""
    import multiprocessing

    items = sorted(jobs.items(), key=_by_target)
    size = max(1, -(-len(items) // (workers * CHUNKS_PER_WORKER)))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    # fork shares the loaded modules and catalog; elsewhere spawn re-imports them
    method = "fork" if sys.platform == "linux" else "spawn"
    if method == "fork":  # what every job needs, imported once here rather than in each worker
        from .. import report, resolve  # noqa: F401
    ctx = multiprocessing.get_context(method)
    out: dict[Hashable, Outcome] = {}
    try:
        pool = ctx.Pool(min(workers, len(chunks)), initializer=_ignore_interrupts)
    except (OSError, ImportError):  # no worker processes here (no /dev/shm, ...): one process
        return out
    with pool:
        work = ([job for _, job in chunk] for chunk in chunks)
        for chunk, outcomes in zip(chunks, pool.imap(_resolve_chunk, work), strict=True):
            for (key, _), outcome in zip(chunk, outcomes, strict=True):
                out[key] = outcome
                if tick is not None:
                    tick()
    return out


def _message(exc: BaseException) -> str:
    if isinstance(exc, KeyError) and exc.args:  # KeyError's str() adds quotes
        return str(exc.args[0])
    return str(exc)

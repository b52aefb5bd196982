"""Running the jobs of ``calc compare``: each distinct job resolved once, large batches spread
over worker processes, and the results given back in batch order.

Two jobs are the same when everything that reaches ``resolve`` is the same: the Selection (with
each datasheet taken by identity, as the job builder hands out one object per unit) and the
engine settings (method, trials, seed). The sampler is seeded per job, so a job gives the same
numbers wherever it runs: the rows of ``--jobs 4`` are those of ``--jobs 1``, in the same order.
"""

from __future__ import annotations

import math
import operator
import os
import sys
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from msgspec.structs import astuple

from ..datasheet import Datasheet
from ..records import field_names
from ..selection import ATTACKER_FIELD, TARGET_FIELD, OptionError, Selection
from ..sequence.steps import StepError
from .jobs import USER_ERRORS, WIPE_ODDS, Job, Row, RunError, job_outcome, row_figures

AUTO_PARALLEL_RUNS = 300  # distinct jobs above which --jobs defaults to every core
CHUNKS_PER_WORKER = 4  # smaller chunks balance uneven jobs; larger keep a worker on few targets

# A job's outcome: ("row", contract object without "run", figures) or ("error", message,
# None or (the batch field at fault, its line or None)).
Outcome = tuple[str, Any, Any]


def job_key(job: Job, seen: dict[int, Hashable] | None = None) -> Hashable:
    """What decides a job's result: its Selection (datasheets by identity), a sequence's steps
    and the engine settings (with the sampler settings given, which its notes name). The run's
    name, target label and batch line are not part of it.

    ``seen`` keeps the keys of the record objects met so far, by identity, for keying many
    jobs that share them (a batch's 2,000 jobs hold 150 unit choices); the caller keeps those
    objects alive while it uses ``seen``."""
    seen = {} if seen is None else seen
    exchange = job.exchange.key if job.exchange is not None else None
    return (
        _key(job.selection, seen),
        _key(job.steps, seen) if job.steps else (),
        exchange,
        job.method,
        job.trials,
        job.seed,
        job.sampler_set,
    )


_FIELDS: dict[type, Callable[[Any], tuple] | None] = {}


def _fields_of(cls: type) -> Callable[[Any], tuple] | None:
    """A function giving the field values of a ``cls`` object as a tuple when ``cls`` is a
    record type (msgspec Struct or dataclass), else None (made once a type: a batch keys
    thousands of Selections)."""
    if cls not in _FIELDS:
        _FIELDS[cls] = _field_getter(cls)
    return _FIELDS[cls]


def _field_getter(cls: type) -> Callable[[Any], tuple] | None:
    names = field_names(cls)
    if names is None:
        return None
    if len(names) > 1:
        return operator.attrgetter(*names)
    one = operator.attrgetter(*names) if names else None
    return lambda v: (one(v),) if one is not None else ()


_PLAIN = frozenset({int, float, str, bool, type(None)})  # their own keys
# the Selection's two units come second and third (selection.ATTACKER_FIELD, TARGET_FIELD); its
# other fields hash and compare by value
assert (ATTACKER_FIELD, TARGET_FIELD) == (1, 2)


def _selection_key(sel: Selection, seen: dict[int, Hashable]) -> Hashable:
    """A Selection's key: every field by value (records such as Conditions hash and compare
    by value; tuples of strings and records), its units' datasheets (and Leaders') by identity
    (the unit choices, which runs share, keyed once each by :func:`_key`)."""
    values = astuple(sel)
    attacker = _key(values[ATTACKER_FIELD], seen)
    target = _key(values[TARGET_FIELD], seen)
    return ("Selection", values[0], attacker, target, *values[3:])


def _key(value: Any, seen: dict[int, Hashable]) -> Hashable:
    """The key of ``value`` (see :func:`job_key`); a Selection first: most calls are for one
    (a batch keys 2,000 jobs' Selections and their units)."""
    if type(value) is Selection:  # runs written alike share one: keyed once
        key = seen.get(id(value))
        if key is None:
            key = seen[id(value)] = _selection_key(value, seen)
        return key
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Datasheet):
        return ("datasheet", id(value))
    values = _fields_of(type(value))
    if values is not None:
        key = seen.get(id(value))
        if key is None:
            key = seen[id(value)] = (
                type(value).__name__,
                *(v if type(v) in _PLAIN else _key(v, seen) for v in values(value)),
            )
        return key
    if isinstance(value, (tuple, list)):
        return tuple(_key(v, seen) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v, seen)) for k, v in value.items()))
    return value


def distinct_jobs(items: Iterable[Job | RunError]) -> int:
    """How many distinct jobs (:func:`job_key`) ``items`` hold: those :func:`run_jobs`
    resolves, each once."""
    jobs = [item for item in items if isinstance(item, Job)]  # alive while keyed
    seen: dict[int, Hashable] = {}
    return len({job_key(job, seen) for job in jobs})


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says; at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def default_workers(distinct_jobs: int) -> int:
    """Worker processes for ``distinct_jobs`` when --jobs is not given: once there are more
    than AUTO_PARALLEL_RUNS, every core the process may use less those other programs are
    running on now (:func:`running_elsewhere`), at least 1; else 1 (this process). A process
    started onto a core another program keeps busy only slows the batch down: with the two
    cores of the development machine shared, the default two processes took 2.18 s where one
    took 1.73 s (median of ten paired rounds, load average 3.4), and 1.88 s against 1.83 s at
    load average 1.4-3 (``benchmarks/test_bench_batch.py``); on an idle machine two are
    faster (the README's batch figures)."""
    if distinct_jobs <= AUTO_PARALLEL_RUNS:
        return 1
    cores = usable_cores()
    return max(1, min(cores, cores - running_elsewhere()))


def running_elsewhere() -> int:
    """Tasks running now other than this process: the running count of Linux's
    ``/proc/loadavg`` (which counts this one) less one; 0 where the system does not say."""
    try:
        with open("/proc/loadavg", encoding="ascii") as fh:
            running = int(fh.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return 0
    return max(0, running - 1)


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
    seen: dict[int, Hashable] = {}  # the items keep the keyed objects alive
    keys = {i: job_key(item, seen) for i, item in enumerate(items) if isinstance(item, Job)}
    distinct: dict[Hashable, Job] = {}
    for i, key in keys.items():
        distinct.setdefault(key, items[i])  # type: ignore[arg-type]
    if workers is None:
        workers = default_workers(len(distinct))
    workers = min(workers, usable_cores(), len(distinct))
    done: dict[Hashable, Outcome] = {}
    if distinct:  # the engine's modules and numpy imported first: settled with the rest
        from .. import report, resolve  # noqa: F401
    _settled()
    if workers > 1 and len(distinct) > 1:
        done = _resolve_in_workers(distinct, workers, tick)
    elif not strict:  # grouped by target, as the workers resolve them (the caches' reuse)
        for key, job in sorted(distinct.items(), key=_by_target):
            done[key] = _resolve(job)
            if tick is not None:
                tick()
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


def _settled() -> None:
    """Tell the cycle collector that every object made so far lives on (the catalog, the
    batch as read, its jobs: the batch keeps them to the end): they go to the oldest
    generation at once (``gc.freeze`` then ``gc.unfreeze``, which also starts the count of new
    objects afresh), so that the batch's first collection does not walk them all again. A
    2,000-run batch left some 60,000 of them young, and collected once more in each process
    while it resolved (about 50 ms of CPU each: ``benchmarks/test_bench_batch.py``). Nothing
    is left uncollectable: the oldest generation is collected as it always is. A forked
    worker inherits the objects frozen (``_Alongside.run``), so that its collections never
    touch, and copy, the pages they are on (the fork advice of the ``gc`` module). The
    modules that resolve the jobs (numpy, the rules, the engine) are imported before, so
    that their objects are settled too: left young, one collection in a batch resolved in
    one process walked them (20-25 ms)."""
    import gc

    gc.freeze()
    gc.unfreeze()


def _collect(job: Job, outcome: Outcome, rows: list[Row], errors: list[RunError]) -> None:
    """Append ``job``'s row (or error) made from its outcome."""
    kind, first, second = outcome
    if kind == "row":
        if job.points is not None:  # identical jobs share an outcome, not their points
            att = first["attacker"]
            first = {
                **first,
                "attacker": {**att, "points": job.points, "points_datasheet": att["points"]},
            }
            odds = {k: second[k] for k in WIPE_ODDS if k in second}  # not in the object
            second = {**row_figures(first, job.points), **odds}
        rows.append(Row(job, {"run": job.run, **job.field_notes(first)}, second))
    else:
        field, line = second if second is not None else (None, None)
        errors.append(
            RunError(job.run, first, field, job.source, line or job.line, job.target_label)
        )


def _resolve(job: Job) -> Outcome:
    """One job's outcome; a user error becomes its message."""
    try:
        obj, figures = job_outcome(job)
    except (OptionError, StepError) as exc:  # a batch file's own field (named weapons too)
        named = job.field_error(exc)
        if named is None:  # a step's error: the step's line
            line = job.step_line(exc)
            return ("error", _message(exc), None if line is None else (None, line))
        field, reason, line = named
        return ("error", reason, (field, line))
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
    items = sorted(jobs.items(), key=_by_target)
    if sys.platform == "linux":
        chunks, spans = _shrinking_chunks(items, workers)
        return _Alongside(chunks, spans, tick).run(workers - 1)
    size = max(1, -(-len(items) // (workers * CHUNKS_PER_WORKER)))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    return _resolve_in_pool(chunks, workers, tick)


FIRST_SHARE = 0.4  # a span's first chunk takes this share of it, each next one of what is left
MIN_CHUNK = 8  # jobs: the smallest chunk (about 10 ms of work)


def _shrinking_chunks(items: list, parts: int) -> tuple[list[list], list[int]]:
    """``items`` (grouped by target) in ``parts`` consecutive spans as even as can be, each
    cut into chunks that shrink (FIRST_SHARE of what is left, at least MIN_CHUNK jobs), and
    the spans as chunk indexes, flattened: [start0, end0, start1, ...]. A process works
    through its own span's large chunks first, while the small ones at each span's end are
    what another process takes once its own are done: on a busy machine, where one process
    may get less of a core than the other, the batch then waits for at most a small chunk
    rather than a quarter of a span."""
    chunks: list[list] = []
    spans: list[int] = []
    bounds = [len(items) * k // parts for k in range(parts + 1)]
    for k in range(parts):
        first = len(chunks)
        i, end = bounds[k], bounds[k + 1]
        while i < end:
            size = max(MIN_CHUNK, math.ceil((end - i) * FIRST_SHARE))
            chunks.append(items[i : min(i + size, end)])
            i += size
        spans += [first, len(chunks)]
    return chunks, spans


Chunk = list[tuple[Hashable, Job]]


class _Alongside:
    """Chunks resolved by this process and ``extra`` forked ones together. Each process
    claims the chunks of its own span of targets in turn, then takes the last chunks of the
    span with the most left: a process on a busy core (another program) takes fewer chunks,
    so the batch never waits on one process; each keeps to few targets (its caches,
    engine/memo.py); and this process's outcomes are not pickled. The forked processes
    (:class:`_Worker`: plain ``os.fork``, no multiprocessing machinery to import and start,
    about 25 ms before the first chunk) inherit the jobs (nothing is sent to them; their
    outcomes come back) and end with their last chunk. A chunk one of them claimed but did
    not return (it died, or failed) is missing from the outcomes: the caller resolves it (and
    meets the failure again, here)."""

    def __init__(self, chunks: list[Chunk], spans: list[int], tick: Callable[[], None] | None):
        self.chunks = chunks
        self.span_bounds = spans  # each process's span of chunks (``_shrinking_chunks``)
        self.tick = tick
        self.out: dict[Hashable, Outcome] = {}
        self.pending = set(range(len(chunks)))

    def run(self, extra: int) -> dict[Hashable, Outcome]:
        import gc

        from .. import report, resolve  # noqa: F401  (imported once, before the fork)

        workers: list[_Worker] = []
        try:
            self.claims = _Claims(self.span_bounds)
        except (OSError, AttributeError):  # no shared memory or locks here: one process
            return self.out
        try:
            gc.freeze()  # the forked processes' collections leave what they inherit alone
            for k in range(1, extra + 1):
                workers.append(_Worker.start(self, k))
        except OSError:  # no more processes here: this process resolves every chunk
            for worker in workers:
                worker.stop()
            self.claims.close()
            return self.out
        finally:
            gc.unfreeze()  # this process's objects are collectable again
        try:
            while (i := self.claims.claim(0)) is not None:
                self._take(i, _resolve_chunk([job for _, job in self.chunks[i]]))
                self._receive(workers, block=False)
            while self.pending and self._receive(workers, block=True):
                pass
        finally:
            for worker in workers:
                worker.stop()  # nothing left to do (or Ctrl-C): each one ended and reaped
            self.claims.close()
        return self.out  # without a chunk claimed by a process that returned nothing

    def _take(self, i: int, outcomes: list[Outcome]) -> None:
        for (key, _), outcome in zip(self.chunks[i], outcomes, strict=True):
            self.out[key] = outcome
            if self.tick is not None:
                self.tick()
        self.pending.discard(i)

    def _receive(self, workers: list[_Worker], block: bool) -> bool:
        """Take the outcomes the forked processes have sent: all there are, or (``block``)
        at least one, waiting for it; False once none can come (every process has ended and
        everything it sent is taken)."""
        import select

        while True:
            live = [w for w in workers if not w.ended]
            if not live:
                return False
            ready = live
            if block:
                ready = [
                    w for w in live if w.pipe in select.select([w.pipe for w in live], [], [])[0]
                ]
            got = False
            for w in ready:
                for i, outcomes in w.sent():
                    self._take(i, outcomes)
                    got = True
            if got or not block:
                return True

    def _work(self, k: int, worker: _Worker) -> None:
        """Forked process ``k``: claim and resolve chunks, send each one's outcomes back."""
        _ignore_interrupts()
        try:
            while (i := self.claims.claim(k)) is not None:
                worker.send(i, _resolve_chunk([job for _, job in self.chunks[i]]))
        except BaseException:  # the chunk it held is resolved again in the parent, which reports it
            pass


class _Claims:
    """The spans of chunks each process has left (``_shrinking_chunks``' bounds: [start0,
    end0, start1, ...]) in memory every forked process shares, changed under a lock that a
    process which dies lets go of (a POSIX record lock, ``fcntl.lockf``, on the memory's
    file)."""

    def __init__(self, bounds: list[int]):
        import mmap

        self.fd = os.memfd_create("calc-compare-claims")
        try:
            os.ftruncate(self.fd, 4 * len(bounds))
            self.map = mmap.mmap(self.fd, 4 * len(bounds))  # shared with the forked ones
        except OSError:
            os.close(self.fd)
            raise
        self.spans = memoryview(self.map).cast("i")
        for j, b in enumerate(bounds):
            self.spans[j] = b

    def claim(self, k: int) -> int | None:
        """The next chunk for process ``k``: the first left in its own span, else the last
        left in the span with the most left (a neighbour's targets, taken from the far end)."""
        import fcntl

        spans = self.spans
        fcntl.lockf(self.fd, fcntl.LOCK_EX)
        try:
            if spans[2 * k] < spans[2 * k + 1]:
                spans[2 * k] += 1
                return spans[2 * k] - 1
            left = [spans[2 * j + 1] - spans[2 * j] for j in range(len(spans) // 2)]
            j = max(range(len(left)), key=left.__getitem__)
            if left[j] == 0:
                return None
            spans[2 * j + 1] -= 1
            return spans[2 * j + 1]
        finally:
            fcntl.lockf(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        self.spans.release()
        self.map.close()
        os.close(self.fd)


_NOTICE = "=iqq"  # a chunk sent: its index, and where its pickled outcomes are in the file


class _Worker:
    """One forked process and what it sends back: each chunk's outcomes pickled into a file
    of its own (``os.memfd_create``: writing never waits on this process to read), and a
    notice of 20 bytes per chunk on a pipe (where they are), which this process reads
    between its own chunks; the pipe's end says the process has ended. The process never
    returns into the program: it ends with ``os._exit`` once it has written everything it
    sends (with ``os.write``: nothing of it buffered), as a multiprocessing fork child ends,
    so that nothing of this process's (its buffered output, its exit handlers) runs twice."""

    def __init__(self, pid: int, pipe: int, file: int):
        self.pid, self.pipe, self.file = pid, pipe, file
        self.ended = False
        self.status: int | None = None  # os.waitpid's, once reaped
        self._buffer = b""
        self._written = 0
        self._stopped = False

    @classmethod
    def start(cls, work: _Alongside, k: int) -> _Worker:
        """Fork process ``k`` of ``work``.

        Raises:
            OSError: no process could be started (or no pipe or file made).
        """
        file = os.memfd_create("calc-compare-outcomes")
        try:
            read, write = os.pipe()
        except OSError:
            os.close(file)
            raise
        try:
            pid = os.fork()
        except OSError:
            for fd in (file, read, write):
                os.close(fd)
            raise
        if pid == 0:  # the forked process
            code = 1
            try:
                os.close(read)
                worker = cls(0, write, file)
                work._work(k, worker)
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        return cls(pid, read, file)

    def send(self, i: int, outcomes: list[Outcome]) -> None:
        """(In the forked process) chunk ``i``'s outcomes to this process."""
        import pickle
        import struct

        data = pickle.dumps(outcomes, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(self.file, view) :]
        os.write(self.pipe, struct.pack(_NOTICE, i, self._written, len(data)))
        self._written += len(data)

    def sent(self) -> list[tuple[int, list[Outcome]]]:
        """The chunks sent since the last call, without waiting (the pipe read as far as it
        goes; at its end the process has ended)."""
        import pickle
        import struct

        size = struct.calcsize(_NOTICE)
        os.set_blocking(self.pipe, False)
        while True:
            try:
                data = os.read(self.pipe, 65536)
            except BlockingIOError:
                break
            if not data:
                self.ended = True
                break
            self._buffer += data
        out = []
        while len(self._buffer) >= size:
            i, at, n = struct.unpack(_NOTICE, self._buffer[:size])
            self._buffer = self._buffer[size:]
            out.append((i, pickle.loads(os.pread(self.file, n, at))))
        return out

    def stop(self) -> None:
        """End the process (at once, when it is still working) and reap it."""
        import contextlib
        import signal

        if self._stopped:
            return
        self._stopped = True
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)  # nothing happens to one that has ended
        _, self.status = os.waitpid(self.pid, 0)
        os.close(self.pipe)
        os.close(self.file)


def _resolve_in_pool(
    chunks: list[Chunk], workers: int, tick: Callable[[], None] | None
) -> dict[Hashable, Outcome]:
    """Outcomes of ``chunks`` resolved by a pool of ``workers`` spawned processes (where
    fork is not available: each re-imports the modules and gets its chunks pickled)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
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

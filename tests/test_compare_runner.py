"""Running a batch (issue 12): identical runs resolved once, ``--jobs N`` worker processes, and
the same rows in the same order whatever the number of processes; batch files read once and
with a size limit (issue 10 item 12)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wh40k_calc.batch import BatchError, load_batch
from wh40k_calc.catalog import Catalog
from wh40k_calc.cli import app
from wh40k_calc.compare import jobs_from_batch, runner
from wh40k_calc.compare.jobs import Job, RunError
from wh40k_calc.compare.runner import AUTO_PARALLEL_RUNS, default_workers, job_key, run_jobs
from wh40k_calc.yamlio import MAX_BYTES

BATCH = """\
title: mixed
targets: [boyz, {name: intercessor-squad, models: 10}]
runs:
  - name: lootas
    attacker: lootas
  - name: lootas again
    attacker: {name: Lootas}
  - name: lootas stationary
    attacker: lootas
    conditions: [stationary]
  - name: sampled
    attacker: {name: lootas, models: 10}
    method: sample
    trials: 3000
    seed: 7
  - name: edition 11
    attacker: boyz
    phase: fight
    edition: 11
    conditions: [charged]
  - name: bad loadout
    attacker: {name: lootas, loadout: nope}
  - name: carnifexes shoot nothing
    attacker: {name: carnifexes, loadout: crushing-claws}
    target: boyz
  - name: lootas third
    attacker: lootas
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "batch.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def compare(*args: str):
    return CliRunner().invoke(app, ["compare", *map(str, args)])


def test_identical_runs_are_resolved_once(tmp_path: Path, monkeypatch) -> None:
    batch = load_batch(write(tmp_path, BATCH))
    items = jobs_from_batch(batch, Catalog([], use_env=False))
    calls = []
    real = runner.job_outcome

    def counting(job):
        calls.append(job.run)
        return real(job)

    monkeypatch.setattr(runner, "job_outcome", counting)
    rows, errors = run_jobs(items, workers=1)
    # 'lootas', 'lootas again' (same datasheet by another spelling) and 'lootas third' are one
    # job per target; the other runs differ in conditions, size, method or edition.
    assert sorted(set(calls)) == sorted(
        ["lootas", "lootas stationary", "sampled", "edition 11", "carnifexes shoot nothing"]
    )
    assert len(calls) == 2 + 2 + 2 + 2 + 1
    by_run = {}
    for r in rows:
        by_run.setdefault(r.result["run"], []).append(r.result)
    for again in ("lootas again", "lootas third"):
        assert [{**o, "run": "lootas"} for o in by_run[again]] == by_run["lootas"]
    assert [e.run for e in errors] == ["bad loadout", "carnifexes shoot nothing"]


ALIKE = """\
runs:
  - name: first
    attacker: {name: lootas, models: 10}
    target: boyz
    precision_target: "2020-01-01"
  - name: same
    attacker: {name: lootas, models: 10}
    target: boyz
    precision_target: "2020-01-01"
  - name: a date
    attacker: {name: lootas, models: 10}
    target: boyz
    precision_target: 2020-01-01
  - name: a decimal
    attacker: {name: lootas, models: 10.0}
    target: boyz
    precision_target: "2020-01-01"
  - name: 7
    attacker: {name: lootas, models: 10}
    target: boyz
    precision_target: "2020-01-01"
"""


def test_runs_written_alike_share_jobs_and_no_other_run_does(tmp_path: Path) -> None:
    """A run written as an earlier valid one but for its name gets that run's jobs, under its
    own name and line, unparsed (compare/alike.py); one whose fields are only equal by ``==``
    (a date for its text, 10.0 for 10), or whose name is not text, is parsed and refused as
    its own."""
    items = jobs_from_batch(load_batch(write(tmp_path, ALIKE)), Catalog([], use_env=False))
    first, same, date, decimal, number = items
    assert isinstance(first, Job) and isinstance(same, Job)
    assert same.selection is first.selection and (same.run, same.line) == ("same", 6)
    assert isinstance(date, RunError) and date.field == "precision_target"
    assert isinstance(decimal, RunError) and decimal.field == "attacker.models"
    assert isinstance(number, RunError) and number.field == "name"


def test_job_key_ignores_names_but_not_settings(tmp_path: Path) -> None:
    batch = load_batch(write(tmp_path, BATCH))
    jobs = jobs_from_batch(batch, Catalog([], use_env=False))
    by_name = {(j.run, j.target_label): j for j in jobs if hasattr(j, "selection")}
    same = [by_name[(n, "boyz")] for n in ("lootas", "lootas again", "lootas third")]
    assert len({job_key(j) for j in same}) == 1
    assert job_key(by_name[("lootas stationary", "boyz")]) != job_key(same[0])
    assert job_key(by_name[("lootas", "10 intercessor-squad")]) != job_key(same[0])


def test_job_key_tells_every_field_of_the_selection_apart(tmp_path: Path) -> None:
    """Each field of the Selection (its units' too) changed alone gives another key; copies
    made apart with equal fields give the same key; a datasheet counts by identity (an equal
    copy of one is another key: the job builder hands out one object per unit)."""
    from wh40k_calc.records import replace
    from wh40k_calc.selection import AddedAbility, Conditions, Modifiers, Selection

    batch = load_batch(write(tmp_path, BATCH))
    jobs = jobs_from_batch(batch, Catalog([], use_env=False))
    job = next(j for j in jobs if getattr(j, "run", None) == "lootas")
    sel = job.selection
    changed = {
        "phase": "fight",
        "attacker": replace(sel.attacker, models=(sel.attacker.models or 5) + 5),
        "target": replace(sel.target, loadout="shootas"),
        "conditions": Conditions(stationary=True),
        "modifiers": Modifiers(hit_mod=1),
        "effects": ("waaagh",),
        "edition": "11",
        "order": ("x",),
        "allocation": "best",
        "precision_target": "bodyguard",
        "precision_given": True,
        "added_abilities": (AddedAbility("*", "lethal hits"),),
        "attacker_wounds_left": 1,
        "attacker_alive": (1,),
        "target_wounds_left": 1,
        "notes": ("n",),
        "without_rules": ("r",),
        "without_abilities": (AddedAbility("x", "y"),),
        "skip_unmet": True,
        "edition_note": "e",
    }
    assert set(changed) == set(Selection.__struct_fields__)
    keys = {job_key(replace(job, selection=replace(sel, **{f: v}))) for f, v in changed.items()}
    assert len(keys) == len(changed) and job_key(job) not in keys
    apart = replace(
        sel,
        conditions=Conditions(
            **{f: getattr(sel.conditions, f) for f in Conditions.__struct_fields__}
        ),
        attacker=replace(sel.attacker),
    )
    assert apart.conditions is not sel.conditions and job_key(
        replace(job, selection=apart)
    ) == job_key(job)
    sheet = sel.target.datasheet
    copy = replace(sheet)
    assert copy == sheet and copy is not sheet
    other = replace(sel, target=replace(sel.target, datasheet=copy))
    assert job_key(replace(job, selection=other)) != job_key(job)


@pytest.mark.parametrize("extra", [[], ["--strict"]])
def test_jobs_2_gives_the_rows_of_one_process(tmp_path: Path, extra: list[str]) -> None:
    path = write(tmp_path, BATCH)
    one = compare(path, "--json", "--jobs", "1", *extra)
    two = compare(path, "--json", "--jobs", "2", *extra)
    assert one.exit_code == two.exit_code == 1  # the batch has two bad runs
    assert one.stdout == two.stdout
    assert one.stderr == two.stderr
    rows = json.loads(two.stdout) if two.stdout else []
    names = [r["run"] for r in rows]
    if extra:  # stops at the first error: the runs before 'bad loadout'
        assert names == [n for n in names if n != "lootas third"]
        assert len(two.stderr.strip().splitlines()) == 1
    else:
        assert (
            names
            == [
                n
                for n in ("lootas", "lootas again", "lootas stationary", "sampled", "edition 11")
                for _ in range(2)
            ]
            + ["lootas third"] * 2
        )
        assert rows[6]["sample"]["seed"] == 7


def test_table_and_csv_are_the_same_with_jobs(tmp_path: Path) -> None:
    path = write(tmp_path, BATCH.replace("  - name: bad loadout", "  - name: bad\n    x: 1"))
    for fmt in (["--csv", "-"], []):
        one = compare(path, *fmt, "--jobs", "1")
        two = compare(path, *fmt, "--jobs", "2")
        assert one.stdout == two.stdout and one.stdout


def test_default_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every usable core less those other programs run on now, at least one; one process for
    a batch of AUTO_PARALLEL_RUNS distinct runs or fewer whatever the cores."""
    assert default_workers(AUTO_PARALLEL_RUNS) == 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    monkeypatch.setattr(runner, "running_elsewhere", lambda: 0)
    assert default_workers(AUTO_PARALLEL_RUNS + 1) == cores
    monkeypatch.setattr(runner, "usable_cores", lambda: 8)
    for busy, workers in ((0, 8), (1, 7), (3, 5), (7, 1), (8, 1), (40, 1)):
        monkeypatch.setattr(runner, "running_elsewhere", lambda busy=busy: busy)
        assert default_workers(AUTO_PARALLEL_RUNS + 1) == workers
        assert default_workers(AUTO_PARALLEL_RUNS) == 1


def test_running_elsewhere_reads_the_running_count(tmp_path: Path, monkeypatch) -> None:
    """The oracle: /proc/loadavg's fourth field written out ("3/100": three running, this
    process one of them); 0 where the file is missing or unreadable."""
    import builtins

    real_open = builtins.open
    fake = tmp_path / "loadavg"

    def opening(path, *args, **kwargs):
        return real_open(fake if path == "/proc/loadavg" else path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", opening)
    for text, expected in (("3.11 3.02 3.39 3/100 27389\n", 2), ("0.00 0.01 0.05 1/90 7\n", 0)):
        fake.write_text(text)
        assert runner.running_elsewhere() == expected
    fake.write_text("garbled\n")
    assert runner.running_elsewhere() == 0
    fake.unlink()
    assert runner.running_elsewhere() == 0


def test_jobs_must_be_positive(tmp_path: Path) -> None:
    res = compare(write(tmp_path, BATCH), "--jobs", "0")
    assert res.exit_code == 2
    assert "--jobs" in res.output


# ---------------------------------------------------------------------------------------------
# Issue 10 item 12: "Batch and datasheet files are read with a size limit of 8 MB (a symlink to
# /dev/zero as a batch file today reads until MemoryError and prints a traceback): refuse
# larger ones clearly."


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_endless_batch_file_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(BatchError, match="larger than 8 MB"):
        load_batch(link)
    res = compare(link)
    assert res.exit_code == 1
    assert res.stderr.startswith("error: ") and "larger than 8 MB" in res.stderr
    assert "Traceback" not in res.output


def test_batch_file_just_over_the_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    comment = "# padding\n"
    big.write_text(BATCH + comment * (MAX_BYTES // len(comment) + 1), encoding="utf-8")
    with pytest.raises(BatchError, match="larger than 8 MB"):
        load_batch(big)
    exact = tmp_path / "exact.yaml"
    exact.write_text(BATCH + "#" * (MAX_BYTES - len(BATCH) - 1) + "\n", encoding="utf-8")
    assert os.path.getsize(exact) == MAX_BYTES
    assert load_batch(exact).defaults.title == "mixed"  # 8 MB itself is allowed


def test_large_datasheet_file_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "ds"
    folder.mkdir()
    (folder / "huge.yaml").write_text(
        "name: Huge\n" + "#" * (MAX_BYTES + 10) + "\n", encoding="utf-8"
    )
    res = CliRunner().invoke(app, ["shoot", "huge", "-t", "boyz", "--datasheets", str(folder)])
    assert res.exit_code == 1
    assert "larger than 8 MB" in res.stderr and "huge.yaml" in res.stderr


def test_batch_errors_keep_their_lines_with_the_fast_parser(tmp_path: Path) -> None:
    path = write(tmp_path, BATCH)
    res = compare(path, "--json")
    # line 22 holds the bad loadout; line 23 starts the run whose target cannot be shot
    assert "batch.yaml:22: run 'bad loadout': attacker.loadout:" in res.stderr
    assert "batch.yaml:23: run 'carnifexes shoot nothing' against boyz" in res.stderr


def test_no_worker_processes_means_one_process(tmp_path: Path, monkeypatch) -> None:
    """Where processes cannot be started the batch still runs, in this process."""

    def broken():
        raise OSError("no more processes")

    path = write(tmp_path, BATCH)
    one = compare(path, "--json", "--jobs", "1")
    monkeypatch.setattr(os, "fork", broken)
    two = compare(path, "--json", "--jobs", "2")
    assert one.stdout == two.stdout and one.stderr == two.stderr


def test_no_shared_memory_means_one_process(tmp_path: Path, monkeypatch) -> None:
    """Where the claims cannot be shared (no memory file) the batch still runs, here."""

    def broken(name, flags=0):
        raise OSError("no memory files")

    path = write(tmp_path, BATCH)
    one = compare(path, "--json", "--jobs", "1")
    monkeypatch.setattr(os, "memfd_create", broken)
    two = compare(path, "--json", "--jobs", "2")
    assert one.stdout == two.stdout and one.stderr == two.stderr


def _rows_json(rows) -> list:
    return [json.dumps(r.result, sort_keys=True) for r in rows]


@pytest.mark.parametrize("how", ["raises", "dies"])
def test_a_worker_that_fails_or_dies_leaves_its_chunks_to_this_process(
    tmp_path: Path, monkeypatch, how: str
) -> None:
    """A forked worker that raises (a bug) or dies (killed) returns nothing for the chunk it
    claimed: this process resolves it, and the rows are those of one process."""
    batch = load_batch(write(tmp_path, BATCH))
    items = jobs_from_batch(batch, Catalog([], use_env=False))
    one = run_jobs(items, workers=1)
    parent = os.getpid()
    real = runner._resolve_chunk

    def failing(jobs):
        if os.getpid() != parent:
            if how == "dies":
                os._exit(3)
            raise RuntimeError("a bug in a worker")
        return real(jobs)

    monkeypatch.setattr(runner, "_resolve_chunk", failing)
    two = run_jobs(items, workers=2)
    assert _rows_json(two[0]) == _rows_json(one[0])
    assert [e.message for e in two[1]] == [e.message for e in one[1]]


def test_an_unexpected_error_is_raised_here_not_swallowed(tmp_path: Path, monkeypatch) -> None:
    """A bug met in every process still surfaces (from this process) with --jobs 2."""
    batch = load_batch(write(tmp_path, BATCH))
    items = jobs_from_batch(batch, Catalog([], use_env=False))

    def broken(job):
        raise RuntimeError("a bug")

    monkeypatch.setattr(runner, "job_outcome", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        run_jobs(items, workers=2)


def test_jobs_are_capped_at_the_usable_cores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fresh-user trial: ``-j 200`` started 201 processes. The worker count is capped at the
    cores the process may use (said in a note) and at the number of distinct runs."""
    started: list[int] = []

    def record(jobs, workers, tick):
        started.append(workers)
        return {}  # the caller then resolves every job itself

    monkeypatch.setattr(runner, "usable_cores", lambda: 2)
    monkeypatch.setattr(runner, "_resolve_in_workers", record)
    path = write(tmp_path, BATCH)
    res = compare(path, "--jobs", "200")
    assert started == [2]
    assert "note: --jobs 200 lowered to 2 (the cores this process may use" in res.stderr
    assert res.stdout == compare(path, "--jobs", "1").stdout
    started.clear()
    res = compare(path, "--jobs", "2")
    assert started == [2] and "lowered" not in res.stderr
    # two distinct jobs: at most two workers whatever the cores
    monkeypatch.setattr(runner, "usable_cores", lambda: 64)
    started.clear()
    two = "targets: [boyz]\nruns:\n  - attacker: lootas\n  - attacker: gretchin\n"
    assert compare(write(tmp_path, two), "--jobs", "64").exit_code == 0
    assert started == [2]


def test_jobs_above_the_distinct_jobs_note_the_processes_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fresh-user trial: ``calc compare lootas --target boyz --jobs 9999`` said "lowered to
    2" for its one run: the note gives the processes really used (one job: this process)."""
    monkeypatch.setattr(runner, "usable_cores", lambda: 2)
    res = CliRunner().invoke(app, ["compare", "lootas", "--target", "boyz", "--jobs", "9999"])
    assert res.exit_code == 0, res.output
    assert "note: --jobs 9999: 1 process used (one for each distinct job" in res.stderr
    assert "lowered" not in res.stderr
    # the same run twice is one distinct job, resolved once
    same = "targets: [boyz]\nruns:\n  - attacker: lootas\n  - {attacker: lootas, name: again}\n"
    res = compare(write(tmp_path, same), "--jobs", "3")
    assert "note: --jobs 3: 1 process used" in res.stderr


def test_a_worker_that_cannot_start_stops_the_others(tmp_path: Path, monkeypatch) -> None:
    """Where the second worker process cannot be started, the first is stopped and this
    process resolves every run: the rows of one process."""
    import signal

    real = os.fork
    forked: list[int] = []

    def second_fails():
        if forked:
            raise OSError("no more processes")
        pid = real()
        if pid:
            forked.append(pid)
        return pid

    stopped: list = []
    real_stop = runner._Worker.stop

    def stop(self):
        real_stop(self)
        stopped.append(self)

    batch = load_batch(write(tmp_path, BATCH))
    items = jobs_from_batch(batch, Catalog([], use_env=False))
    one = run_jobs(items, workers=1)
    monkeypatch.setattr(runner, "usable_cores", lambda: 3)
    monkeypatch.setattr(os, "fork", second_fails)
    monkeypatch.setattr(runner._Worker, "stop", stop)
    three = run_jobs(items, workers=3)
    assert _rows_json(three[0]) == _rows_json(one[0])
    (first,) = stopped
    assert first.pid == forked[0]
    assert os.WIFSIGNALED(first.status) and os.WTERMSIG(first.status) == signal.SIGTERM


@pytest.mark.parametrize("workers", [1, 2])
def test_a_batch_leaves_every_object_collectable(tmp_path: Path, workers: int) -> None:
    """The runner settles the objects made before the batch into the oldest generation and
    freezes them across the fork (``runner._settled``, ``_Alongside.run``): afterwards nothing
    stays frozen, and cyclic garbage made before the batch is still collected."""
    import gc
    import weakref

    class Cycle:
        pass

    batch = load_batch(write(tmp_path, BATCH))
    items = jobs_from_batch(batch, Catalog([], use_env=False))
    a = Cycle()
    a.me = a  # type: ignore[attr-defined]
    alive = weakref.ref(a)
    del a
    run_jobs(items, workers=workers)
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert alive() is None


@pytest.mark.parametrize(("n", "parts"), [(2, 2), (3, 2), (17, 2), (1050, 2), (1050, 3), (40, 4)])
def test_shrinking_chunks_cover_every_job_once_in_order(n: int, parts: int) -> None:
    """``runner._shrinking_chunks``: the spans are consecutive and as even as can be (their
    job counts differ by at most one), each span's chunks shrink (every one but its last at
    least MIN_CHUNK jobs), and together the chunks are the jobs in order, each once."""
    items = list(range(n))
    chunks, spans = runner._shrinking_chunks(items, parts)
    assert [x for c in chunks for x in c] == items
    assert spans[0] == 0 and spans[-1] == len(chunks) and len(spans) == 2 * parts
    sizes = []
    for k in range(parts):
        mine = chunks[spans[2 * k] : spans[2 * k + 1]]
        assert mine and (k == 0 or spans[2 * k] == spans[2 * k - 1])
        lengths = [len(c) for c in mine]
        assert lengths == sorted(lengths, reverse=True) or lengths[:-1] == sorted(
            lengths[:-1], reverse=True
        )
        assert all(x >= runner.MIN_CHUNK for x in lengths[:-1])
        sizes.append(sum(lengths))
    assert max(sizes) - min(sizes) <= 1

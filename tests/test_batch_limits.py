"""A batch file's size in runs and rows: at most 10,000 runs, and 10,000 rows (a run against
each of its targets), refused before anything is resolved; runs that are one YAML mapping
repeated through an alias share their jobs, so identical runs cost next to nothing."""

from __future__ import annotations

import json
import time
from pathlib import Path

from helpers import cli, cli_json

from wh40k_calc.batch import MAX_RUNS, load_batch
from wh40k_calc.catalog import Catalog
from wh40k_calc.compare.jobs import MAX_ROWS, Job, jobs_from_batch


def aliased(tmp_path: Path, runs: int, head: str = "") -> Path:
    lines = [head + "runs:", "  - &r {attacker: lootas, target: boyz}"] + ["  - *r"] * (runs - 1)
    path = tmp_path / "alias.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_documented_limits():
    assert MAX_RUNS == MAX_ROWS == 10_000  # README: "at most 10,000 runs and 10,000 rows"


def test_more_runs_than_the_limit_are_refused_at_once(tmp_path):
    """300,001 runs through one alias (0.9 MB of YAML) took 104 s and 2 GB; now one error,
    before any run is built."""
    start = time.monotonic()
    res = cli("compare", aliased(tmp_path, 300_001))
    assert time.monotonic() - start < 20  # reading 0.9 MB of YAML, nothing resolved
    assert res.exit_code == 1
    assert res.stderr == (
        f"error: {tmp_path / 'alias.yaml'}: 300,001 runs; a batch file takes at most 10,000 "
        "(split it into several files)\n"
    )


def test_more_rows_than_the_limit_are_refused(tmp_path):
    path = aliased(tmp_path, 5_001, head="targets: [boyz, rhino]\n")
    path.write_text(path.read_text(encoding="utf-8").replace(", target: boyz", ""), "utf-8")
    res = cli("compare", path)
    assert res.exit_code == 1
    assert "more than 10,000 rows (a run against each of its targets; runs[5000] passes it)" in (
        res.stderr
    )


def test_aliased_runs_share_their_jobs(tmp_path):
    """The same mapping 1,000 times: one Selection object for all the jobs, each under its own
    name (``lootas``, ``lootas #2``, ...), and one row each in the output."""
    batch = load_batch(aliased(tmp_path, 1_000))
    jobs = jobs_from_batch(batch, Catalog())
    assert all(isinstance(j, Job) for j in jobs)
    assert len({id(j.selection) for j in jobs}) == 1
    assert [j.run for j in jobs[:3]] == ["lootas", "lootas #2", "lootas #3"]
    assert len({j.run for j in jobs}) == 1_000


def test_the_json_of_repeated_rows_is_each_row_in_full(tmp_path):
    """``--json`` is written row by row (each distinct object serialised once): the same
    text as one ``json.dumps`` of the list, every row whole."""
    res = cli("compare", aliased(tmp_path, 3), "--json")
    rows = json.loads(res.stdout)
    assert [r["run"] for r in rows] == ["lootas", "lootas #2", "lootas #3"]
    assert all({**r, "run": "lootas", "compared": rows[0]["compared"]} == rows[0] for r in rows)
    assert res.stdout == json.dumps(rows, indent=2) + "\n"
    (one,) = cli_json("compare", aliased(tmp_path, 1))
    # the only row is its target's best; three that tie are not (README)
    assert one["compared"]["best"] is True and rows[0]["compared"]["best"] is False
    assert {**one, "compared": rows[0]["compared"]} == rows[0]

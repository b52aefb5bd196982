"""Identical runs (issue 21, A2): a batch of 10,000 runs that are one mapping repeated through a
YAML alias, against the same batch with one run, ``calc compare --json`` in a child process each
(``measure.calc_child``), in the same round. Figures in ``extra_info`` (peak memory of each and
their difference per 1,000 runs, seconds); nothing is asserted. Before this work the 10,000
runs took 318 MiB and 4.9 s with ``--json`` (one ``json.dumps`` of every row) against 42 MiB."""

from __future__ import annotations

from pathlib import Path

from measure import calc_child

RUNS = 10_000


def _batch(folder: Path, runs: int) -> Path:
    lines = ["runs:", "  - &r {attacker: lootas, target: boyz}"] + ["  - *r"] * (runs - 1)
    path = folder / f"alias-{runs}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_identical_runs_through_an_alias(benchmark, tmp_path) -> None:
    one, many = _batch(tmp_path, 1), _batch(tmp_path, RUNS)
    figures: dict[str, list[float]] = {"one_s": [], "one_mib": [], "many_s": [], "many_mib": []}

    def run() -> None:
        for label, path in (("one", one), ("many", many)):
            seconds, mib, out = calc_child("compare", str(path))
            assert len(out) == (1 if path is one else RUNS)
            figures[f"{label}_s"].append(seconds)
            figures[f"{label}_mib"].append(mib)

    benchmark.pedantic(run, rounds=3, iterations=1)
    best = {k: min(v) for k, v in figures.items()}
    benchmark.extra_info.update(
        {
            **{k: round(v, 2) for k, v in best.items()},
            "mib_per_1000_runs": round((best["many_mib"] - best["one_mib"]) / RUNS * 1000, 2),
            "peak_ratio": round(best["many_mib"] / best["one_mib"], 2),
        }
    )

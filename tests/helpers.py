"""Helpers shared by the tests: the CLI run in-process (:func:`cli`, :func:`cli_json`,
:func:`both_json`: the one way tests run ``calc``), small datasheets written on the fly
(:func:`write_datasheet`), binomial distributions and their convolutions worked out exactly,
the sampler's standard errors, and the checks of a models-destroyed distribution (or an
oracle's final states) against both engines."""

from __future__ import annotations

import json
import math
import os
import zlib
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest
import yaml

from wh40k_calc.records import replace

# the header of a New Recruit WTC-compact Orks list, with its points to fill in
WTC_ORKS_HEADER = (
    "+++++++++++++++++++++++++++++++++++++++++++++++\n"
    "+ FACTION KEYWORD: Xenos - Orks\n"
    "+ DETACHMENT: War Horde\n"
    "+ FORCE DISPOSITION: Purge the Foe\n"
    "+ TOTAL ARMY POINTS: {points}pts\n"
    "+++++++++++++++++++++++++++++++++++++++++++++++\n\n"
)
T = TypeVar("T")
# `make test` runs a fixed sample of each sweep over the whole data set; `make test-slow` sets
# WH40K_CALC_SWEEP=all and runs every case (see "What runs where" in README.md)
SWEEP = os.environ.get("WH40K_CALC_SWEEP", "") == "all"
TRIALS = 40_000  # sampler trials of the CLI-level statistical tests
SEED = 40_000  # the sampler's default seed


def write_datasheet(
    folder: Path,
    name: str,
    weapons: Iterable[dict] = (),
    *,
    models: int = 1,
    model: str | None = None,
    keywords: Iterable[str] = ("INFANTRY",),
    faction: str = "Testers",
    faction_keywords: Iterable[str] | None = None,
    points: int = 100,
    stats: dict[str, Any] | None = None,
    **fields: Any,
) -> Path:
    """Write a datasheet of one model type for both editions into ``folder`` and return its
    path (``name`` in lower case, spaces as hyphens, ``.yaml``): ``models`` models named
    ``model`` (default: the last word of ``name``), M6 T4 Sv4+ W1 Ld7 OC1 changed by ``stats``
    (``{"T": 6, "W": 5}``, or any other model field: ``"stealth": True``), each equipped with
    every one of ``weapons`` (datasheet weapon mappings), ``points`` for the unit, and any
    other datasheet ``fields`` (``leader_of``, ``rules``, ``source``, ...)."""
    weapons = list(weapons)
    kind = model if model is not None else name.split()[-1]
    one = {"name": kind, "M": 6, "T": 4, "Sv": 4, "W": 1, "Ld": 7, "OC": 1, **(stats or {})}
    one["equipped"] = [w["name"].lower() for w in weapons]
    sheet: dict[str, Any] = {"name": name, "faction": faction, "keywords": list(keywords)}
    if faction_keywords is not None:
        sheet["faction_keywords"] = list(faction_keywords)
    sheet |= {
        "models": [one],
        "sizes": [{"models": {kind: models}, "points": points}],
        "weapons": weapons,
        "source": "written by a test (tests/helpers.py)",
        "edition": [10, 11],
        **fields,
    }
    path = folder / f"{name.lower().replace(' ', '-')}.yaml"
    path.write_text(yaml.safe_dump(sheet, sort_keys=False), encoding="utf-8")
    return path


def binom(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes in n trials of probability p), k = 0..n, exactly."""
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def conv(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    """The distribution of the sum of two independent counts (lists of P(k)), exactly."""
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def se_p(p: float, trials: int = TRIALS) -> float:
    """Standard error of a sampled probability p (floored at 1/trials)."""
    return max(math.sqrt(p * (1 - p) / trials), 1 / trials)


def se_mean(dist: dict, trials: int = TRIALS) -> float:
    """Standard error of the sampled mean of the distribution {value: probability}."""
    mean = sum(v * p for v, p in dist.items())
    var = sum(p * (v - mean) ** 2 for v, p in dist.items())
    return max(math.sqrt(float(var) / trials), 1 / trials)


def check_models(out: dict, dist: list, *, sampled_mean: bool = False) -> None:
    """The exact models-destroyed distribution and its mean (JSON, within 1e-6) and the
    sampled one (within 5 standard errors of TRIALS trials) against ``dist``; with
    ``sampled_mean``, also that ``dist`` sums to 1 and that the sampled mean is within 5
    standard errors of its mean."""
    n = len(out["models_destroyed_distribution"])
    want = [float(dist[k]) if k < len(dist) else 0.0 for k in range(n)]
    if sampled_mean:
        assert sum(want) == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(out["models_destroyed_distribution"], want, atol=1e-6)
    mean = sum(k * p for k, p in enumerate(want))
    assert out["expected"]["models_destroyed"] == pytest.approx(mean, abs=1e-6)
    sampled = out["sample"]["models_destroyed_distribution"]
    for k, p in enumerate(want):
        assert abs(sampled[k] - p) <= 5 * se_p(p), (k, sampled[k], p)
    if sampled_mean:
        se = se_mean(dict(enumerate(want)))
        assert abs(out["sample"]["expected"]["models_destroyed"] - mean) <= 5 * se


def check_final_states(out, act, final: dict, groups: list, trials: int, seed: int, **kw) -> None:
    """An exact outcome ``out`` of ``act`` against an oracle's final states (``final``:
    state -> probability, over ``groups``, as ``save_oracle`` gives them): its models-destroyed
    and wounds-lost distributions; then the sampler, with the exact engine's allocation policy
    (and ``kw``, e.g. ``start``), within 5 standard errors of ``out``."""
    from profiles import disagreements
    from save_oracle import models_dist, wounds_dist

    from wh40k_calc.engine.sample import run_sample

    np.testing.assert_allclose(out.models_destroyed_distribution, models_dist(final, groups))
    np.testing.assert_allclose(out.wounds_lost_distribution, wounds_dist(final, groups))
    sample = run_sample(replace(act, policy=out.policy), trials=trials, seed=seed, **kw)
    assert not disagreements(out, sample)


def cli(*args: str | Path, dirs: Iterable[Path] = (), env: dict[str, str] | None = None) -> Any:
    """Run ``calc ARGS [--datasheets DIR ...]`` in-process (typer's CliRunner, with ``env``)
    and return its Result; no traceback may show in the output."""
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    full = [str(a) for a in args]
    for d in dirs:
        full += ["--datasheets", str(d)]
    result = CliRunner().invoke(app, full, env=env)
    assert "Traceback" not in result.output
    return result


def cli_json(
    *args: str | Path, dirs: Iterable[Path] = (), env: dict[str, str] | None = None
) -> dict:
    """``calc ARGS --json`` as :func:`cli` runs it: exit code 0, and the JSON it printed."""
    result = cli(*args, "--json", dirs=dirs, env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def both_json(
    *args: str | Path,
    dirs: Iterable[Path] = (),
    trials: int = TRIALS,
    seed: int = SEED,
    edition: str | None = None,
) -> dict:
    """``calc ARGS --method both --trials TRIALS --seed SEED [--edition E] --json`` as
    :func:`cli_json` runs it (exit code 0, the JSON): the exact engine's figures and the
    sampler's side by side, for the statistical checks."""
    more = ["--method", "both", "--trials", str(trials), "--seed", str(seed)]
    if edition is not None:
        more += ["--edition", edition]
    return cli_json(*args, *more, dirs=dirs)


def check_exchange(out: dict, joint, steps, tol: float = 1e-9) -> None:
    """A ``calc exchange --json`` result against an independent chain's (tests/exchange_oracle):
    its joint distribution of models left (``joint``), each activation's P(made), expected
    attacks and models destroyed (``steps``: one (made, attacks, destroyed) per activation)
    and each side's expected wounds left, within ``tol``."""
    from exchange_oracle import models_left_joint, wounds_left

    want = models_left_joint(joint)
    for i, row in enumerate(out["result"]["joint_models_left"]):
        for j, p in enumerate(row):
            assert p == pytest.approx(float(want.get((i, j), 0)), abs=tol), (i, j)
    for k, (made, attacks, destroyed) in enumerate(steps):
        act = out["activations"][k]
        assert act["p_made"] == pytest.approx(float(made), abs=tol), k
        assert act["expected"]["attacks"] == pytest.approx(float(attacks), abs=tol), k
        assert act["expected"]["models_destroyed"] == pytest.approx(float(destroyed), abs=tol), k
    for side in "ab":
        assert out["result"]["expected_wounds_left"][side] == pytest.approx(
            float(wounds_left(joint, side)), abs=tol
        )


# ---------------------------------------------------------------------------------------------
# Sweeps over the whole data set: a fixed sample in `make test`, every case in `make test-slow`


def in_sample(key: str, every: int) -> bool:
    """Whether the case named ``key`` (a file's relative path, a unit's name...) is among the
    about one in ``every`` that a sampled sweep runs: the same cases every run and on every
    machine (a CRC of the name, not Python's salted ``hash``), spread over the set rather than
    its first names. ``every`` 1 keeps everything.

    Raises:
        ValueError: ``every`` is below 1.
    """
    if every < 1:
        raise ValueError(f"every must be at least 1, not {every}")
    return zlib.crc32(key.encode("utf-8")) % every == 0


def _in_groups(
    items: Sequence[T], key: Callable[[T], str], group: Callable[[T], str] | None
) -> set[str]:
    """The key of the first item (by key) of each ``group`` value, so that a sample holds
    every group (each faction, each edition) at least once."""
    if group is None:
        return set()
    first: dict[str, str] = {}
    for item in sorted(items, key=key):
        first.setdefault(group(item), key(item))
    return set(first.values())


def sample(
    items: Iterable[T],
    every: int,
    *,
    key: Callable[[T], str] = str,
    group: Callable[[T], str] | None = None,
    keep: Iterable[str] = (),
) -> list[T]:
    """The ``items`` (in their order) a sampled sweep runs: all of them under
    ``WH40K_CALC_SWEEP=all`` (`make test-slow`), else those :func:`in_sample` picks by
    ``key(item)`` (default ``str``), the first item of each ``group(item)`` (say, a faction:
    each is met at least once) and every item whose key is in ``keep`` (the known hard cases,
    always run; a key of ``keep`` that names no item raises, so that a renamed case is not
    dropped unseen).

    Raises:
        ValueError: a key of ``keep`` is not among the items', or ``every`` is below 1.
    """
    items = list(items)
    keys = [key(item) for item in items]
    kept = set(keep)
    if missing := kept - set(keys):
        raise ValueError(f"sample(): kept cases not among the items: {sorted(missing)}")
    if SWEEP:
        return items
    kept |= _in_groups(items, key, group)
    return [item for item, k in zip(items, keys, strict=True) if k in kept or in_sample(k, every)]


def swept(
    items: Iterable[T],
    every: int,
    *,
    key: Callable[[T], str] = str,
    group: Callable[[T], str] | None = None,
    keep: Iterable[str] = (),
) -> list[Any]:
    """``items`` as ``pytest.param`` cases for ``@pytest.mark.parametrize`` (ids from ``key``),
    all marked ``sweep``: those :func:`sample` picks run in `make test`, the others are marked
    ``slow`` too, so that `make test-slow` (``-m 'slow or sweep'``) runs the whole set and
    `make test` only the sample. Same arguments and errors as :func:`sample`."""
    items = list(items)
    picked = {key(item) for item in sample(items, every, key=key, group=group, keep=keep)}
    out = []
    for item in items:
        marks = [pytest.mark.sweep] + ([] if key(item) in picked else [pytest.mark.slow])
        out.append(pytest.param(item, id=key(item), marks=marks))
    return out


def export_subset(csv_dir: Path, dest: Path, keep: Callable[[dict[str, str]], bool]) -> int:
    """Copy the datasheet export at ``csv_dir`` (the 10th-edition CSV files) into ``dest``
    with only the datasheets whose Datasheets.csv row ``keep(row)`` accepts (a row: column
    name -> text): the other files keep the rows of those datasheets (Datasheets_leader.csv
    the pairs of two kept ones) and every row that names no datasheet. Returns how many
    datasheets were kept. For a sampled ``calc import --all``.

    Raises:
        OSError: a file of ``csv_dir`` cannot be read or ``dest`` written.
    """
    dest.mkdir(parents=True, exist_ok=True)
    sheets = (csv_dir / "Datasheets.csv").read_text(encoding="utf-8-sig").splitlines()
    header = sheets[0].split("|")
    kept = {
        row["id"]
        for line in sheets[1:]
        if line.strip() and keep(row := dict(zip(header, line.split("|"), strict=False)))
    }
    for path in sorted(csv_dir.glob("*.csv")):
        head, *rows = path.read_text(encoding="utf-8-sig").splitlines()
        columns = [c for c in ("id", "datasheet_id", "leader_id", "attached_id") if c in head]
        if path.name != "Datasheets.csv":
            columns = [c for c in columns if c != "id"]  # ability and source ids, not sheets
        at = [head.split("|").index(c) for c in columns]
        rows = [r for r in rows if all(r.split("|")[i] in kept for i in at)]
        (dest / path.name).write_text("\n".join([head, *rows]) + "\n", encoding="utf-8")
    return len(kept)

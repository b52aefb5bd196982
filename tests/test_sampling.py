"""The sampled sweeps of tests/helpers.py: `make test` runs a fixed sample of each sweep over
the whole data set (every group at least once, the named hard cases always), `make test-slow`
runs every case (README.md, "What runs where")."""

from __future__ import annotations

import zlib

import helpers
import pytest
from helpers import in_sample, sample, swept

NAMES = [f"{faction}/unit-{i}.yaml" for faction in ("orks", "necrons", "tau") for i in range(40)]


def faction(name: str) -> str:
    return name.split("/")[0]


def test_the_sample_is_fixed_by_a_checksum_of_the_name() -> None:
    # worked out apart from the helper: a CRC-32 of the UTF-8 name, one in `every`
    picked = [n for n in NAMES if zlib.crc32(n.encode()) % 7 == 0]
    assert [n for n in NAMES if in_sample(n, 7)] == picked
    assert 0 < len(picked) < len(NAMES) // 3
    assert all(in_sample(n, 1) for n in NAMES)
    with pytest.raises(ValueError, match="at least 1"):
        in_sample("x", 0)


def test_a_sample_holds_every_group_and_the_kept_cases(monkeypatch) -> None:
    monkeypatch.setattr(helpers, "SWEEP", False)
    keep = ["tau/unit-3.yaml"]
    got = sample(NAMES, 1000, group=faction, keep=keep)  # next to none by the checksum
    assert {faction(n) for n in got} == {"orks", "necrons", "tau"}
    assert "tau/unit-3.yaml" in got
    assert got == [n for n in NAMES if n in got]  # in the items' order
    assert len(got) <= 4 + sum(in_sample(n, 1000) for n in NAMES)
    with pytest.raises(ValueError, match="not among the items"):
        sample(NAMES, 5, keep=["orks/renamed.yaml"])


def test_the_whole_sweep_takes_everything(monkeypatch) -> None:
    monkeypatch.setattr(helpers, "SWEEP", True)
    assert sample(NAMES, 9, group=faction) == NAMES


def test_swept_cases_outside_the_sample_are_slow(monkeypatch) -> None:
    monkeypatch.setattr(helpers, "SWEEP", False)
    picked = set(sample(NAMES, 5, group=faction))
    cases = swept(NAMES, 5, group=faction)
    assert [c.id for c in cases] == NAMES
    for case in cases:
        marks = {m.name for m in case.marks}
        assert "sweep" in marks
        assert ("slow" in marks) == (case.values[0] not in picked), case.id

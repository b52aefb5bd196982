"""``exchange:`` runs of a batch file: ``calc compare`` ranks whole exchanges ("charge with the
Boyz" against "charge with the Nobz"), side A's figures against side B. Expected figures come
from the independent chain of ``tests/exchange_oracle.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from exchange_oracle import Model, Unit, Weapon, exchange
from helpers import cli

DATA = Path(__file__).parent / "data" / "exchange"

BOY = Model("Boy", 1, 5, 5, Weapon(A=3, skill=3, S=4, AP=-1, D=1))
NOB = Model("Boss Nob", 2, 5, 5, Weapon(A=3, skill=3, S=7, AP=-1, D=2))
BOYZ = Unit((BOY,) * 9 + (NOB,), ((9,), tuple(range(9))))
MARINE = Model("Intercessor", 2, 4, 3, Weapon(A=3, skill=3, S=4, AP=0, D=1))
FIVE = Unit((MARINE,) * 5, (tuple(range(5)),))
THREE = Unit((MARINE,) * 3, (tuple(range(3)),))  # 5 Intercessors down to 3 (--models 3)


def _batch(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "ex.yaml"
    path.write_text(body)
    return path


BATCH = """
title: who charges
runs:
  - name: into five
    exchange:
      side_a: "fight boyz --models 10 --charged"
      side_b: "fight intercessor-squad --models 5"
      rounds: 1
  - name: into three
    exchange:
      side_a: "fight boyz --models 10 --charged"
      side_b: "fight intercessor-squad --models 3"
      turns: 2
"""


def _oracle(target: Unit) -> dict:
    """Two turns, 10th edition: the Boyz charge (Fights First in turn 1, then the
    Intercessors); in turn 2 (B's) neither has Fights First and the side whose turn it is not
    selects first (Core rules, Fight phase): the Boyz again, then the Intercessors."""
    joint, _ = exchange(BOYZ, target, ["a", "b", "a", "b"])
    n_b = len(target.models)
    left_b = sum(p * sum(1 for w in lb if w) for (_, lb), p in joint.items())
    left_a = sum(p * sum(1 for w in la if w) for (la, _), p in joint.items())
    wipe = sum(p for (_, lb), p in joint.items() if not any(lb))
    return {"models": float(n_b - left_b), "wipe": float(wipe), "losses": float(10 - left_a)}


def test_exchange_runs_are_ranked_by_side_b_models_destroyed(tmp_path):
    out = cli("compare", _batch(tmp_path, BATCH), "--json", dirs=[DATA])
    assert out.exit_code == 0, out.output
    rows = {r["run"]: r for r in json.loads(out.stdout)}
    for name, target in (("into five", FIVE), ("into three", THREE)):
        r = rows[name]
        want = _oracle(target)
        assert r["phase"] == "exchange"
        assert r["expected"]["models_destroyed"] == pytest.approx(want["models"], abs=1e-9)
        assert r["kill_table"][-1]["at_least"] == pytest.approx(want["wipe"], abs=1e-9)
        assert r["attacker_losses"]["models_destroyed"] == pytest.approx(want["losses"], abs=1e-9)
        assert r["target"]["name"] == "Intercessor Squad"
        assert r["attacker"]["name"] == "Boyz"


def test_exchange_runs_against_one_side_b_share_a_section_and_are_sorted(tmp_path):
    body = BATCH.replace("--models 3", "--models 5").replace("turns: 2", "turns: 1")
    out = cli("compare", _batch(tmp_path, body), "--sort", "wipe", env={"COLUMNS": "100"})
    assert out.exit_code == 0, out.output
    text = out.stdout
    assert text.count("5 Intercessor Squad") == 1  # one section: the same side B
    # two turns (the Intercessors' turn too) destroy more than one: "into five" first
    assert text.index("into five") < text.index("into three")
    assert "an exchange: side A's models lost to side B" in " ".join(text.split())


@pytest.mark.parametrize(
    ("run", "words"),
    [
        (
            "{name: x, exchange: {side_a: 'fight boyz', side_b: 'fight fencer'}, target: boyz}",
            ["run 'x'", "target: not in an exchange run"],
        ),
        (
            "{name: x, exchange: {side_a: 'fight boyz --modles 3', side_b: 'fight fencer'}}",
            ["exchange.side_a", "--modles"],
        ),
        (
            "{name: x, exchange: {side_a: ['fight boyz', 'fight boyz'], side_b: 'fight fencer'}}",
            ["exchange.side_a[1]", "fights once"],
        ),
        (
            "{name: x, exchange: {side_a: 'fight boyz', side_b: 'fight fencer', rounds: 1, "
            "turns: 2}}",
            ["exchange", "rounds or turns"],
        ),
        (
            "{name: x, exchange: {side_a: 'fight boyz', side_b: 'fight fencer', wat: 1}}",
            ["exchange", "wat"],
        ),
        (
            "{name: x, attacker: boyz, exchange: {side_a: 'fight boyz', side_b: 'fight fencer'}}",
            ["one of 'attacker', 'sequence' and 'exchange'"],
        ),
        (
            "{name: x, exchange: {side_a: 'fight boyz --charged', "
            "side_b: 'fight fencer --charged'}}",
            ["both sides"],
        ),
    ],
)
def test_exchange_run_errors_name_the_run_and_field(tmp_path, run, words):
    path = _batch(tmp_path, f"runs:\n  - {run}\n")
    out = cli("compare", path, dirs=[DATA])
    assert out.exit_code == 1, out.output
    for w in words:
        assert w in out.stderr, (w, out.stderr)
    assert f"{path}:2" in out.stderr

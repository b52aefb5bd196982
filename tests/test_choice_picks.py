"""The options of a choice rule a unit may have at once (a second fresh-user trial: two
Doctrina Imperatives, both Ka'tah Stances and three Blessings of Khorne were applied
together, each adding to the figures). The rules' own texts (edition 10's export, edition
11's data 912, seed 004) say how many: "select one of the Doctrina Imperatives", "select one
of the Ka'tah Stances", "select one of the following Vows", "select one of the Plagues", "a
unit can only be affected by one Order at a time", "activate up to two Blessings of Khorne";
each record of those rules carries that number (``picks``), and more given together are
refused."""

from __future__ import annotations

from collections import defaultdict

import pytest
from helpers import cli

from wh40k_calc import effects as fx
from wh40k_calc.effect_files import EDITIONS

PICKS = {
    "Martial Ka’tah": 1,
    "Doctrina Imperatives": 1,
    "Templar Vows": 1,
    "Voice of Command": 1,
    "Nurgle’s Gift (Aura)": 1,
    "Blessings of Khorne": 2,
}


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_option_of_those_rules_carries_its_number(edition: str) -> None:
    seen: dict[tuple[str, str], set] = defaultdict(set)
    for e in fx.all_effects(edition):
        if e.record.rule in PICKS:
            seen[(e.faction, e.record.rule)].add(e.record.picks)
    assert seen  # each edition has some of them
    for (_, rule), values in seen.items():
        assert values == {PICKS[rule]}, (rule, values)


def _run(*args: str):
    return cli(*args, env={"COLUMNS": "300"})


def test_two_imperatives_are_refused_one_runs() -> None:
    base = ("shoot", "skitarii-rangers", "--faction", "adeptus mechanicus")
    base += ("-t", "intercessor-squad")
    both = _run(*base, "--effect", "protector-imperative", "--effect", "conqueror-imperative")
    assert both.exit_code == 1
    assert both.stderr.strip() == (
        "error: --effect protector-imperative and --effect conqueror-imperative: Doctrina "
        "Imperatives gives a unit one of its options at once; give one"
    )
    assert _run(*base, "--effect", "conqueror-imperative").exit_code == 0


def test_both_stances_are_refused_the_same_twice_is_one() -> None:
    base = ("fight", "custodian-guard", "-t", "intercessor-squad", "--edition", "11")
    both = _run(*base, "--effect", "dacatari-stance", "--effect", "rendax-stance")
    assert both.exit_code == 1 and "Martial Ka’tah gives a unit one of its options" in both.stderr
    same = _run(*base, "--effect", "dacatari-stance", "--effect", "dacatari-stance")
    assert same.exit_code == 0 and "is named 2 times" in same.stdout
    best = _run(*base, "--effect", "martial-katah")  # the rule's name: the calculator picks one
    assert best.exit_code == 0
    with_one = _run(*base, "--effect", "martial-katah", "--effect", "rendax-stance")
    assert with_one.exit_code == 1


def test_two_blessings_run_three_are_refused() -> None:
    base = ("fight", "world eaters/khorne berzerkers", "-t", "intercessor-squad")
    two = _run(*base, "--effect", "warp-blades", "--effect", "martial-excellence")
    assert two.exit_code == 0, two.stderr
    three = _run(*base, "--effect", "warp-blades", "--effect", "martial-excellence",
                 "--effect", "decapitating-strikes")  # fmt: skip
    assert three.exit_code == 1
    assert "Blessings of Khorne gives a unit up to 2 of its options at once; give at most 2" in (
        three.stderr
    )


def test_a_batch_file_names_the_entry(tmp_path) -> None:
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "runs:\n  - name: two\n    phase: fight\n    attacker: custodian-guard\n"
        "    target: intercessor-squad\n    edition: 11\n"
        "    effects: [dacatari-stance, rendax-stance]\n",
        encoding="utf-8",
    )
    res = cli("compare", batch)
    assert res.exit_code == 1
    assert "effects[1]: dacatari-stance and rendax-stance: Martial Ka’tah gives a unit one" in (
        res.stderr
    )


def test_the_rule_s_name_picks_the_best_set_of_up_to_its_picks() -> None:
    """``--effect blessings-of-khorne`` (the rule by its name: the calculator picks for the
    attacker) takes the best of every set of one or two blessings, as the rule lets a unit
    have two: its figure is the largest of the figures of each pair given explicitly."""
    base = ("fight", "world eaters/khorne berzerkers", "-t", "intercessor-squad", "--json")
    pairs = [
        ("warp-blades", "martial-excellence"),
        ("warp-blades", "decapitating-strikes"),
        ("martial-excellence", "decapitating-strikes"),
    ]
    import json

    def models(*effects: str) -> float:
        args = [a for e in effects for a in ("--effect", e)]
        res = cli(*base, *args)
        assert res.exit_code == 0, res.stderr
        return json.loads(res.stdout)["expected"]["models_destroyed"]

    # the name beside one of its options would be three blessings: refused
    both = cli(*base, "--effect", "blessings-of-khorne", "--effect", "warp-blades")
    assert both.exit_code == 1
    assert "Blessings of Khorne by its own name picks the best of its options itself" in (
        both.stderr
    )
    best = max(models(*p) for p in pairs)
    chosen = cli(*base, "--effect", "blessings-of-khorne")
    out = json.loads(chosen.stdout)
    assert out["expected"]["models_destroyed"] == pytest.approx(best, abs=1e-9)
    assert any(" and " in c for c in out["choices"] if "Blessings of Khorne" in c)

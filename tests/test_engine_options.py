"""The engine options where they change nothing or too little: ``--trials``/``--seed`` with only
the exact engine answering (a no-effect note, as for any option that changes nothing), and
the sampler's standard error with fewer than two trials."""

from __future__ import annotations

from helpers import cli, cli_json

NOTE = "the exact engine rolls no dice (method sample or both runs the sampler)"


def notes(*args: str) -> list[str]:
    return cli_json(*args)["notes"]


def test_trials_and_seed_with_the_exact_engine_are_noted():
    said = notes("shoot", "lootas", "-t", "boyz", "--trials", "5", "--seed", "3")
    assert f"--trials and --seed: no effect: {NOTE}" in said
    assert f"--seed: no effect: {NOTE}" in notes("fight", "boyz", "-t", "lootas", "--seed", "3")
    assert not [n for n in notes("shoot", "lootas", "-t", "boyz") if "no dice" in n]


def test_not_noted_where_the_sampler_runs():
    for method in ("sample", "both"):
        said = notes("shoot", "lootas", "-t", "boyz", "--method", method, "--trials", "2000")
        assert not [n for n in said if "no dice" in n]


def test_the_sequence_notes_it_once():
    said = notes("sequence", "-t", "boyz", "shoot lootas", "shoot lootas", "--trials", "9")
    assert said.count(f"--trials: no effect: {NOTE}") == 1


def test_compare_notes_it_from_the_command_line_and_the_batch_file(tmp_path):
    res = cli("compare", "lootas", "-t", "boyz", "--seed", "4", "--json")
    assert f"--seed: no effect: {NOTE}" in res.stdout
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "trials: 500\nruns:\n  - {attacker: lootas, target: boyz}\n"
        "  - {attacker: lootas, target: boyz, method: sample}\n",
        encoding="utf-8",
    )
    rows = cli_json("compare", batch)
    assert f"trials: no effect: {NOTE}" in rows[0]["notes"]
    assert not [n for n in rows[1]["notes"] if "no dice" in n]
    text = cli("compare", batch).stdout
    assert "Note (run 'lootas'): trials: no effect" in " ".join(text.split())


def test_fewer_than_two_trials_are_refused(tmp_path):
    """One trial has no standard error (the sample variance divides by trials - 1): refused,
    on the command line (a usage error) and in a batch file, rather than an SE of 0.0000."""
    for command in (["shoot", "lootas", "-t", "boyz"], ["sequence", "-t", "boyz", "shoot lootas"]):
        res = cli(*command, "--method", "both", "--trials", "1")
        assert res.exit_code == 2
        assert "'--trials': 1 is not in the range 2<=x" in res.output
    batch = tmp_path / "b.yaml"
    batch.write_text("trials: 1\nruns:\n  - {attacker: lootas, target: boyz}\n", encoding="utf-8")
    res = cli("compare", batch)
    assert res.exit_code == 1
    assert "b.yaml:1: trials: must be from 2 to 100000000, not 1" in res.output
    two = cli_json("shoot", "lootas", "-t", "boyz", "--method", "both", "--trials", "2")
    assert two["sample"]["trials"] == 2


def test_repeat_goes_up_to_the_60_activation_limit(tmp_path):
    """``--repeat`` (and a batch run's ``repeat:``) is bounded by the 60 activations of a
    sequence, not by 20: 1 step × 30 repeats runs, 61 activations are refused saying so (a
    usage error, exit code 2: too many whatever the data says; a fresh-user trial found 1)."""
    out = cli_json("sequence", "-t", "rhino", "shoot lootas", "--repeat", "30")
    assert len(out["steps"]) == 30
    res = cli("sequence", "-t", "rhino", "shoot lootas", "shoot lootas", "--repeat", "31")
    assert res.exit_code == 2
    assert "2 steps × 31 repeats is 62 activations; a sequence takes at most 60" in res.output
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "targets: [rhino]\nruns:\n  - {name: x, sequence: ['shoot lootas'], repeat: 30}\n",
        encoding="utf-8",
    )
    rows = cli_json("compare", batch)
    assert rows[0]["repeat"] == 30

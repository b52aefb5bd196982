"""A batch file's values that stand for a command-line option (a target's ``wounds_left`` and
``allocation``, ``modifiers``' keys) are named by the file's own field when refused, not by
the option (a fresh-user trial): as ``attacker.weapons`` is; and a step's error gives the
step's line (of a sequence with several bad steps, the first's). The command line keeps the
option's name. Lines are counted by hand in the text below."""

from __future__ import annotations

from pathlib import Path

from helpers import cli

BATCH = """\
runs:
  - name: wounded boy
    attacker: lootas
    target: {name: boyz, wounds_left: 5}
  - name: nob twice
    attacker: lootas
    target:
      name: boyz
      allocation: "Boss Nob,Boss Nob"
  - name: hit mod
    attacker: lootas
    target: boyz
    modifiers: {hit_mod: 7}
  - name: step mod
    target: boyz
    sequence:
      - {attacker: lootas, modifiers: {wound_mod: -9}}
  - name: in a list
    attacker: lootas
    targets:
      - boyz
      - {name: boyz, models: 20, allocation: "Boss Nob,Boss Nob"}
  - name: quoted step
    target: boyz
    sequence:
      - "shoot lootas"
      - "shoot lootas --advanced"
  - name: both steps
    target: boyz
    sequence:
      - "shoot lootas --advanced"
      - {attacker: {name: lootas, models: 99}}
"""


def _errors(tmp_path: Path) -> dict[str, str]:
    """Each run's error line, after the batch file's name: ``LINE: run ...: ...``."""
    batch = tmp_path / "fields.yaml"
    batch.write_text(BATCH, encoding="utf-8")
    result = cli("compare", batch)
    assert result.exit_code == 1, result.output
    lines = [" ".join(x.split()) for x in result.stderr.splitlines() if x.startswith("error:")]
    assert len(lines) == 7, lines
    return {x.split("run '", 1)[1].split("'", 1)[0]: x.split(f"{batch}:", 1)[1] for x in lines}


def test_batch_values_refused_name_the_files_fields_and_lines(tmp_path: Path) -> None:
    by_run = _errors(tmp_path)
    assert by_run["wounded boy"] == (
        "4: run 'wounded boy' against boyz, 5 wounds left: target.wounds_left: Boy, the model "
        "allocated first, has W1 and cannot be left wounded"
    )
    assert by_run["nob twice"] == (
        "9: run 'nob twice' against boyz: target.allocation: Boss Nob is named twice; name "
        "each model once"
    )
    assert by_run["hit mod"] == "13: run 'hit mod': modifiers.hit_mod: 7 is out of range (-6 to 6)"
    assert by_run["step mod"] == (
        "17: run 'step mod': step 1: modifiers.wound_mod: -9 is out of range (-6 to 6)"
    )
    assert by_run["in a list"].startswith(
        "22: run 'in a list' against 20 boyz: targets[1].allocation: Boss Nob is named twice"
    )
    # a step written as a command line keeps its option, at the step's own line
    assert by_run["quoted step"].startswith("27: run 'quoted step' against boyz: step 2 (")
    assert "(--advanced)" in by_run["quoted step"]
    # a step refused when resolved, before one refused as written: the first is told
    assert by_run["both steps"].startswith(
        "31: run 'both steps' against boyz: step 1 ('shoot lootas --advanced'): Lootas cannot "
        "shoot after an Advance move"
    )
    assert not any("--target-wounds-left" in x or "--allocation" in x or "--hit-mod" in x
                   or "--wound-mod" in x for x in by_run.values())  # fmt: skip


def test_the_command_line_keeps_the_options_names() -> None:
    result = cli("shoot", "lootas", "--target", "boyz", "--target-wounds-left", "5")
    assert result.exit_code != 0
    assert "--target-wounds-left 5: Boy, the model allocated first, has W1" in result.output
    result = cli("shoot", "lootas", "--target", "boyz", "--allocation", "Boss Nob,Boss Nob")
    assert result.exit_code != 0
    assert "--allocation: Boss Nob is named twice" in result.output


NOTES = """\
targets: [boyz]
runs:
  - name: twice
    attacker: {name: lootas, weapons: ["Deffgun x2", "Deffgun x2"]}
  - name: bodyguard first
    attacker: lootas
    precision_target: bodyguard
  - name: odd condition
    attacker: lootas
    conditions: [stationary, nonsense]
"""


def test_notes_name_the_field_the_file_wrote(tmp_path: Path) -> None:
    """A note about a value the batch file gave as a field names that field, as its errors
    do (a fresh-user trial: ``--weapon: Deffgun is named 2 times`` for a run's
    ``attacker.weapons``); the command line keeps the option's name."""
    path = tmp_path / "notes.yaml"
    path.write_text(NOTES, encoding="utf-8")
    out = cli("compare", path, env={"COLUMNS": "400"})
    assert out.exit_code == 1  # the odd condition's run
    said = out.stdout
    assert "Note (run 'twice'): attacker.weapons: Deffgun is named 2 times" in said
    assert "Note (run 'bodyguard first'): precision_target: bodyguard: no effect" in said
    assert "--weapon" not in said and "--precision-target" not in said
    assert "run 'odd condition': conditions: unknown condition 'nonsense' (conditions: " in (
        out.stderr
    )
    line = cli("shoot", "lootas", "-t", "boyz", "--weapon", "Deffgun x2", "--weapon", "Deffgun x2")
    assert "Note: --weapon: Deffgun is named 2 times" in " ".join(line.stdout.split())


def test_a_mapping_steps_notes_name_its_fields(tmp_path: Path) -> None:
    """The same in a sequence run's mapping steps: ``step 1: attacker.weapons: ...``; a quoted
    step, a command line, keeps the option (``step 2: --weapon: ...``)."""
    path = tmp_path / "steps.yaml"
    path.write_text(
        "runs:\n"
        "  - name: seq\n"
        "    target: boyz\n"
        "    sequence:\n"
        '      - {attacker: {name: lootas, weapons: ["Deffgun x2", "Deffgun x2"]}}\n'
        "      - \"shoot lootas --weapon 'Deffgun x2' --weapon 'Deffgun x2'\"\n"
        "      - {attacker: lootas, precision_target: bodyguard}\n",
        encoding="utf-8",
    )
    out = cli("compare", path, env={"COLUMNS": "400"})
    assert out.exit_code == 0, out.output
    assert "step 1: attacker.weapons: Deffgun is named 2 times" in out.stdout
    assert "step 2: --weapon: Deffgun is named 2 times" in out.stdout
    assert "step 3: precision_target: bodyguard: no effect" in out.stdout


def test_a_condition_with_no_effect_is_named_by_the_file_s_field(tmp_path: Path) -> None:
    """A fresh-user trial: a run's ``conditions: [charged]`` for a shooting run was noted as
    ``--charged: no effect ...``; the note names the file's field, the run's own or the top
    level's (the command line keeps ``--charged``)."""
    import json

    batch = tmp_path / "b.yaml"
    batch.write_text(
        "conditions: {charged: true}\n"
        "runs:\n"
        "  - {name: listed, attacker: lootas, target: boyz, conditions: [charged]}\n"
        "  - {name: mapped, attacker: lootas, target: boyz, conditions: {charged: true}}\n"
        "  - {name: top, attacker: lootas, target: boyz}\n",
        encoding="utf-8",
    )
    res = cli("compare", batch, "--json")
    assert res.exit_code == 0, res.output
    rows = {r["run"]: [str(n) for n in r["notes"]] for r in json.loads(res.stdout)}
    said = "conditions.charged: no effect in this phase (only melee attacks use it)"
    assert said in rows["listed"] and said in rows["mapped"]
    assert f"(top level) {said}" in rows["top"]
    assert not any(n.startswith("--charged") for notes in rows.values() for n in notes)
    line = cli("shoot", "lootas", "--target", "boyz", "--charged")
    assert "--charged: no effect in this phase" in " ".join(line.stdout.split())

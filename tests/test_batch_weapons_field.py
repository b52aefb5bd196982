"""A batch file's named weapons that cannot attack as named are its ``weapons`` field's error,
not ``--weapon``'s (issue 21, a fresh-user trial): the message names the file, the line, the
run and the field, as every batch error does; a quoted step, written as a command line,
keeps the option's name."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli

BATCH = """\
runs:
  - name: fists
    attacker: {name: intercessor-squad, weapons: ["power fist x2"]}
    phase: fight
    target: boyz
  - name: rifle in a fight
    attacker: {name: intercessor-squad, weapons: ["bolt rifle x2"]}
    phase: fight
    target: boyz
  - name: mapped step
    sequence:
      - {attacker: {name: intercessor-squad, weapons: ["power fist x2"]}, phase: fight}
    target: boyz
  - name: quoted step
    sequence:
      - "fight intercessor-squad --weapon 'power fist x2'"
    target: boyz
"""
FISTS = "can carry only 1 of Power fist (Intercessor Sergeant ×1); Power fist x2 needs 2"


def test_batch_weapon_errors_name_the_file_the_run_and_the_field(tmp_path: Path) -> None:
    batch = tmp_path / "weapons.yaml"
    batch.write_text(BATCH, encoding="utf-8")
    result = cli("compare", batch)
    assert result.exit_code == 1, result.output
    lines = [" ".join(x.split()) for x in result.stderr.splitlines() if x.startswith("error:")]
    assert len(lines) == 4, lines
    by_run = {run: next(x for x in lines if f"run '{run}'" in x) for run in (
        "fists", "rifle in a fight", "mapped step", "quoted step")}  # fmt: skip
    assert by_run["fists"].startswith(f"error: {batch}:3: run 'fists': attacker.weapons: no ")
    assert FISTS in by_run["fists"]
    assert by_run["rifle in a fight"].endswith(
        "run 'rifle in a fight' against boyz: attacker.weapons: Bolt rifle: a ranged weapon, "
        "which does not fight: give the run phase: shooting"
    )
    assert "step 1: attacker.weapons: no listed size" in by_run["mapped step"]
    assert "--weapon: no listed size" in by_run["quoted step"]  # a command line: its option
    assert not any("--weapon" in x for x in lines if "quoted step" not in x)


STEPS = """\
runs:
  - name: mapped rifle
    sequence:
      - {attacker: {name: intercessor-squad, weapons: ["bolt rifle x2"]}, phase: fight}
    target: boyz
  - name: mapped fists
    phase: fight
    sequence:
      - {attacker: {name: intercessor-squad, weapons: ["power fist"]}, phase: shooting}
    target: boyz
  - name: second step
    sequence:
      - {attacker: lootas}
      - {attacker: {name: intercessor-squad, weapons: ["bolt rifle x2"]}, phase: fight}
    target: boyz
  - name: quoted rifle
    sequence:
      - "fight intercessor-squad --weapon 'bolt rifle x2'"
    target: boyz
"""


def test_a_mapping_steps_weapons_found_idle_while_resolving_name_its_field(tmp_path: Path) -> None:
    """A phase mismatch is found while the sequence is resolved, not while its steps are
    built: a step written as a mapping names its field (``step 2: attacker.weapons``) and the
    step's own phase in its advice, as a one-activation run names ``attacker.weapons`` (it
    said ``--weapon``, which the file does not have); a quoted step keeps the option."""
    batch = tmp_path / "steps.yaml"
    batch.write_text(STEPS, encoding="utf-8")
    result = cli("compare", batch)
    assert result.exit_code == 1, result.output
    lines = [" ".join(x.split()) for x in result.stderr.splitlines() if x.startswith("error:")]
    by_run = {run: next(x for x in lines if f"run '{run}'" in x) for run in (
        "mapped rifle", "mapped fists", "second step", "quoted rifle")}  # fmt: skip
    assert by_run["mapped rifle"].endswith(
        "run 'mapped rifle' against boyz: step 1: attacker.weapons: Bolt rifle: a ranged "
        "weapon, which does not fight: give the step phase: shooting"
    )
    assert by_run["mapped fists"].endswith(
        "step 1: attacker.weapons: Power fist: a melee weapon, which does not shoot: give the "
        "step phase: fight"
    )
    assert "step 2: attacker.weapons: Bolt rifle: a ranged weapon" in by_run["second step"]
    assert "--weapon Bolt rifle: a ranged weapon, which does not fight" in by_run["quoted rifle"]
    assert not any("--weapon" in x for x in lines if "quoted rifle" not in x)


EMPTY_RUN = """\
runs:
  - name: no weapons
    attacker: {name: lootas, weapons: []}
    target: boyz
"""
EMPTY_STEP = """\
runs:
  - name: mapped step
    sequence:
      - {attacker: {name: lootas, weapons: []}}
    target: boyz
"""


@pytest.mark.parametrize(
    ("text", "where"),
    [(EMPTY_RUN, "3: run 'no weapons'"), (EMPTY_STEP, "4: run 'mapped step': step 1")],
)
def test_an_empty_weapons_list_is_refused(tmp_path: Path, text: str, where: str) -> None:
    """``weapons: []`` ran the default loadout without a word (a fresh-user trial): no weapon
    named is no selection, refused naming the file, the line, the run and the field."""
    batch = tmp_path / "empty.yaml"
    batch.write_text(text, encoding="utf-8")
    result = cli("compare", batch)
    assert result.exit_code == 1, result.output
    message = " ".join(result.stderr.split())
    assert message == f"error: {batch}:{where}: attacker.weapons: needs at least one weapon"

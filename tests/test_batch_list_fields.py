"""A batch file's list fields that stand for an option given once per entry (``effects``,
``add_abilities``) are named by the file's own entry when the rules refuse one where the run is
planned (``effects[1]: get-stuck-in:zz: ...``), not by ``--effect`` or ``--add-ability``: a
record's unknown option, another faction's rule, a Miracle dice out of range, a weapon the
unit lacks; a mapping step's entry as ``step N: effects[i]``, the top level's as ``(top level)
effects[i]``, two chapters' rules (two entries at fault) as the list. A quoted step and the
command line keep the option's name (the words the player wrote). Lines are counted by hand
in the texts below."""

from __future__ import annotations

from pathlib import Path

from helpers import cli

BATCH = """\
runs:
  - name: own option
    attacker: lootas
    target: boyz
    effects:
      - waaagh
      - "get-stuck-in:zz"
  - name: other faction
    attacker: lootas
    target: boyz
    effects: [oath-of-moment]
  - name: step entry
    target: boyz
    sequence:
      - attacker: lootas
        effects: [waaagh, "waaagh:7"]
  - name: run entry
    target: boyz
    effects: ["waaagh:7"]
    sequence:
      - attacker: lootas
  - name: quoted
    target: boyz
    sequence:
      - "shoot lootas --effect waaagh:7"
  - name: miracle
    attacker: battle sisters squad
    target: boyz
    effects: ["acts-of-faith:9"]
  - name: no such gun
    attacker: lootas
    target: boyz
    add_abilities: ["*:lethal hits", "nothing:lethal hits"]
  - name: chapters
    attacker: hellblaster squad
    target: space marines/rhino
    edition: 11
    phase: fight
    conditions: {charged: true}
    effects: [invocations-of-ancient-fury, red-thirst]
"""

TOP = """\
effects: [waaagh, "waaagh:7"]
runs:
  - name: top entry
    attacker: lootas
    target: boyz
"""


def _errors(tmp_path: Path, text: str, count: int) -> dict[str, str]:
    """Each run's error line, after the batch file's name: ``LINE: run ...: ...``."""
    batch = tmp_path / "lists.yaml"
    batch.write_text(text, encoding="utf-8")
    result = cli("compare", batch)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [" ".join(x.split()) for x in result.stderr.splitlines() if x.startswith("error:")]
    assert len(lines) == count, lines
    return {x.split("run '", 1)[1].split("'", 1)[0]: x.split(f"{batch}:", 1)[1] for x in lines}


def test_effect_and_added_ability_entries_are_named_by_the_file(tmp_path: Path) -> None:
    got = _errors(tmp_path, BATCH, 8)
    assert got["own option"] == (
        "7: run 'own option' against boyz: effects[1]: get-stuck-in:zz: Get Stuck In has no "
        "option 'zz'; it takes no option"
    )
    assert got["other faction"].startswith(
        "11: run 'other faction' against boyz: effects[0]: oath-of-moment: Oath of Moment "
        "needs an attacking unit with ADEPTUS ASTARTES"
    )
    assert got["step entry"] == (
        "15: run 'step entry' against boyz: step 1: effects[1]: waaagh:7: Waaagh! has no "
        "option '7'; it takes no option"
    )
    assert got["run entry"].startswith("21: run 'run entry' against boyz: effects[0]: waaagh:7:")
    assert got["quoted"] == (
        "25: run 'quoted' against boyz: step 1 ('shoot lootas --effect waaagh:7'): --effect "
        "waaagh:7: Waaagh! has no option '7'; it takes no option"
    )
    assert got["miracle"] == (
        "29: run 'miracle' against boyz: effects[0]: acts-of-faith:9: a Miracle dice is 1 to 6 "
        "(the D6 rolled when it was gained), not 9"
    )
    assert got["no such gun"].startswith(
        "33: run 'no such gun' against boyz: add_abilities[1]: Lootas has no weapon 'nothing'"
    )
    chapters = got["chapters"]
    assert chapters.startswith("40: run 'chapters' against space marines/rhino: effects: ")
    assert "invocations-of-ancient-fury (Dark Angels) and red-thirst (Blood Angels)" in chapters
    assert "--effect" not in chapters and "one chapter" in chapters


def test_a_top_level_entry_is_named_as_the_top_levels(tmp_path: Path) -> None:
    got = _errors(tmp_path, TOP, 1)
    assert got["top entry"].startswith(
        "1: run 'top entry' against boyz: (top level) effects[1]: waaagh:7: Waaagh! has no option"
    )


def test_the_command_line_keeps_the_options_name() -> None:
    result = cli("shoot", "lootas", "--target", "boyz", "--effect", "waaagh:7")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: --effect waaagh:7: Waaagh! has no option '7'")
    result = cli("shoot", "lootas", "--target", "boyz", "--add-ability", "nothing:lethal hits")
    assert result.exit_code == 1
    assert "error: --add-ability nothing: lethal hits: Lootas has no weapon" in result.stderr
    result = cli("shoot", "battle sisters squad", "--target", "boyz", "--effect", "acts-of-faith:9")
    assert result.exit_code == 2  # a value out of range: a usage error, as before
    assert result.stderr.startswith("error: --effect acts-of-faith:9: a Miracle dice is 1 to 6")
    result = cli("compare", "lootas", "--target", "boyz", "--effect", "waaagh:7")
    assert result.exit_code == 1 and "--effect waaagh:7: Waaagh! has no option" in result.stderr

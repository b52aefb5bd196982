"""One line for one datasheet rule that acts not at all or only in part here (issue 21's
leftovers): a rule that would act only with an option the player did not give (Finest Hour:
+3 A and [DEVASTATING WOUNDS] for the Captain's melee weapons, only when the player uses it)
is said once, under "Not modelled", not as a hint there and a "no effect" note as well; a
rule's part that asks for an option is hinted only where the option would make it act (the
Macharius' Battlefield Control changes ranged attacks: no hint in the Fight phase); a rule the
datasheet lists as partly modelled and that changes nothing here has its reason on its one
"Not modelled" line (the Big Mek's Kustom Force Field: a 5+ invulnerable save against ranged
attacks, none in a fight). Checked in the text and in ``--json``, against the shipped
edition-10 datasheets."""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers import cli

SHIPPED = Path(__file__).resolve().parents[1] / "datasheets-generated"


def _json(*args: str) -> dict:
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _text(*args: str) -> str:
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    return re.sub(r"\s+", " ", result.stdout)  # lines folded at the terminal's width


def _naming(out: dict, name: str) -> list[str]:
    return [n for n in out["notes"] + out["not_modelled"] if name in n]


CAPTAIN = ("fight", "assault intercessor squad", "--leader", "captain", "--target", "boyz")


def test_a_rule_acting_only_with_an_option_is_said_once():
    out = _json(*CAPTAIN)
    said = _naming(out, "Finest Hour")
    assert said == [
        "Finest Hour (Captain unit ability): no effect here without --effect finest-hour:used "
        "(for when the player uses this ability now (it is limited to once per battle, round "
        "or turn))"
    ]
    assert said[0] in out["not_modelled"]
    assert "finest-hour" not in out["effects"]
    text = _text(*CAPTAIN)
    assert text.count("Finest Hour") == 1, text
    assert "Not modelled: Finest Hour (Captain unit ability): no effect here without" in text


def test_the_option_given_the_rule_acts_and_nothing_is_said():
    out = _json(*CAPTAIN, "--effect", "finest-hour:used")
    assert "finest-hour" in out["effects"]
    assert _naming(out, "Finest Hour") == []


def test_a_part_the_option_would_not_make_act_is_not_hinted():
    """Battlefield Control's changes are for ranged attacks: in a fight its option (on an
    objective) changes nothing, so only the "no effect" note is said."""
    args = ("fight", "astra militarum/macharius", "--target", "boyz")
    out = _json(*args)
    assert _naming(out, "Battlefield Control") == [
        "Battlefield Control (Macharius unit rule): no effect: it changes ranged attacks only"
    ]
    assert _text(*args).count("Battlefield Control") == 1


def test_a_partly_modelled_rule_that_changes_nothing_is_one_line():
    args = (
        "fight",
        "boyz",
        "--target",
        "boyz",
        "--target-leader",
        "big mek with kustom force field",
    )
    out = _json(*args)
    assert _naming(out, "Kustom Force Field") == [
        "Kustom Force Field (Big Mek with Kustom Force Field unit ability): partly modelled; "
        "no effect: it changes ranged attacks only"
    ]
    assert _text(*args).count("Kustom Force Field (Big Mek") == 1
    # shot at, it acts: the datasheet's line as it is, no note
    shot = _json("shoot", *args[1:])
    assert _naming(shot, "Kustom Force Field") == [
        "Kustom Force Field (partly) (Big Mek with Kustom Force Field unit ability)"
    ]
    assert shot["effects"] == ["kustom-force-field"]


def test_a_partly_modelled_rule_acting_only_with_an_option_is_one_line(tmp_path: Path) -> None:
    """The Captain as a user's datasheet that lists Finest Hour as partly modelled: the one
    "Not modelled" line says both, and the datasheet's ``(partly)`` line is not repeated."""
    sheet = (SHIPPED / "space-marines" / "captain.yaml").read_text(encoding="utf-8")
    sheet = sheet.replace("name: Captain\n", "name: Test Captain\n", 1)
    sheet += "not_modelled:\n  attacker: [Finest Hour (partly)]\n"
    (tmp_path / "test-captain.yaml").write_text(sheet, encoding="utf-8")
    args = ("fight", "assault intercessor squad", "--leader", "test captain", "--target", "boyz")
    out = _json(*args, "--datasheets", str(tmp_path))
    assert _naming(out, "Finest Hour") == [
        "Finest Hour (Test Captain unit ability): partly modelled; no effect here without "
        "--effect finest-hour:used (for when the player uses this ability now (it is limited "
        "to once per battle, round or turn))"
    ]
    used = _json(*args, "--datasheets", str(tmp_path), "--effect", "finest-hour:used")
    assert _naming(used, "Finest Hour") == ["Finest Hour (partly) (Test Captain unit ability)"]

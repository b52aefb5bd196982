"""``--weapon`` with an attached Leader: notes are about the weapons the user named only (not
the Leader's default equipment, which the user never typed), and a Leader's weapon named with
``--weapon`` is said to be the Leader's, with how a Leader's wargear is chosen."""

from __future__ import annotations

from helpers import cli


def test_no_note_about_the_leaders_default_equipment():
    """The Warboss carries a Kombi-weapon and a Twin slugga (ranged: they do not fight); the
    user named only Choppas, so nothing is said about them."""
    res = cli("fight", "boyz", "--leader", "warboss", "--target", "intercessor-squad",
              "--weapon", "Choppa x9")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "Kombi-weapon" not in res.output and "Twin slugga" not in res.output
    assert "which does not fight" not in res.output


def test_a_named_weapon_that_does_not_fight_is_still_noted():
    res = cli("fight", "boyz", "--leader", "warboss", "--target", "intercessor-squad",
              "--weapon", "Choppa x9", "--weapon", "Slugga x9")  # fmt: skip
    assert res.exit_code == 0, res.output
    notes = " ".join(res.output.split())
    assert "Note: --weapon Slugga: a ranged weapon, which does not fight" in notes
    assert "Kombi-weapon" not in notes


def test_a_leaders_weapon_named_with_weapon_is_said_to_be_the_leaders():
    res = cli("fight", "boyz", "--leader", "warboss", "--target", "intercessor-squad",
              "--weapon", "Attack squig")  # fmt: skip
    assert res.exit_code == 1
    err = " ".join(res.stderr.split())
    assert err.startswith(
        "error: --weapon 'Attack squig': Attack squig is a weapon of the attached Leader "
        "(Warboss), not of Boyz: --weapon picks the Bodyguard's weapons"
    )
    assert "no option chooses a Leader's wargear" in err
    res = cli("fight", "boyz", "--target", "intercessor-squad", "--weapon", "Attack squig")
    assert "Boyz has no weapon 'Attack squig'" in res.stderr  # no Leader: as before

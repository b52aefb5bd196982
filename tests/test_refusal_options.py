"""A ``--weapon`` refusal names the wargear options that cap the weapons it is about, and only
those (issue 21, a fresh-user trial): the shipped Intercessor Squad's grenade-launcher option
(for every 5 models, 1 model) is offered in loadouts that also give the Sergeant a power fist,
but the Sergeant takes a power fist without it, so a refusal of two power fists owes nothing
to that option, while one of four grenade launchers does."""

from __future__ import annotations

from helpers import cli


def _refusal(command: str, weapon: str) -> str:
    result = cli(command, "intercessor-squad", "--target", "boyz", "--weapon", weapon)
    assert result.exit_code == 1, result.output
    return " ".join(result.stderr.split())


def test_a_power_fist_refusal_names_no_grenade_launcher_option() -> None:
    for command in ("fight", "shoot"):
        text = _refusal(command, "power fist x2")
        assert "can carry only 1 of Power fist (Intercessor Sergeant ×1)" in text
        assert "grenade" not in text.lower() and "wargear option" not in text


def test_a_grenade_launcher_refusal_names_the_option_that_caps_it() -> None:
    text = _refusal("shoot", "astartes grenade launcher – frag x4")
    assert "can carry only 3 of Astartes grenade launcher – frag" in text
    assert "(wargear option: one of the loadouts grenade-launcher, 2-grenade-launchers," in text

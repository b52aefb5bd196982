"""A datasheet ability whose options the effect files hold as records of its rule (the
player picks one: Martial Ka'tah's Dacatari and Rendax stances, edition 11) was said as "Not
modelled: Martial Ka'tah" even with a stance given (a fresh-user trial), and without one
never named the ``--effect`` that models it. Now: with a stance given, nothing is said of the
ability; without, its stances are named; in a phase none of its records acts in (the stances
are for the Fight phase), nothing."""

from __future__ import annotations

from helpers import cli

ED11 = ("--edition", "11")
WIDE = {"COLUMNS": "300"}


def _not_modelled(*args: str) -> list[str]:
    run = cli(*args, *ED11, env=WIDE)
    assert run.exit_code == 0, run.output
    return [ln for ln in run.stdout.splitlines() if ln.startswith("Not modelled:")]


def test_no_stance_given_names_the_stances() -> None:
    lines = _not_modelled("fight", "custodian-guard", "--target", "intercessor-squad")
    assert (
        "Not modelled: Martial Ka’tah (Custodian Guard unit ability): the player's choice, not "
        "made: --effect dacatari-stance or --effect rendax-stance"
    ) in lines


def test_a_stance_given_is_the_ability_modelled() -> None:
    for stance in ("dacatari-stance", "rendax-stance"):
        lines = _not_modelled(
            "fight", "custodian-guard", "--target", "intercessor-squad", "--effect", stance
        )
        assert not any("Martial Ka" in ln for ln in lines), lines


def test_a_phase_its_records_do_not_act_in_says_nothing_of_it() -> None:
    lines = _not_modelled("shoot", "custodian-guard", "--target", "intercessor-squad")
    assert not any("Martial Ka" in ln for ln in lines), lines


def test_the_json_lists_it_as_not_modelled_likewise() -> None:
    import json

    run = cli("fight", "custodian-guard", "--target", "intercessor-squad", *ED11, "--json")
    out = json.loads(run.stdout)
    said = "--effect dacatari-stance or --effect rendax-stance"
    assert any(said in n for n in out["not_modelled"])

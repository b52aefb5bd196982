"""Wargear that only some kinds of model carry acts while its bearer is in the unit
(``When.with_model``): Victrix Honour Guard's Banner of Macragge is the Chapter Ancient's
(data 912, space_marines.json: the Chapter Ancient is equipped with it; the ability adds 1 to
the Strength and Attacks of the melee weapons of "the bearer's unit").

Hand-worked: a Victrix Honour Guard makes 5 attacks with its master-crafted power weapon (A5);
three of them make 15, or 18 with the banner's +1 A. The default loadout has no Chapter Ancient,
so the banner is refused there; the ``chapter-ancient`` loadout swaps one Honour Guard for the
Ancient (A5 too), so 3 x 6 = 18 with it.
"""

from __future__ import annotations

from helpers import cli, cli_json

from wh40k_calc.effect_schema import When
from wh40k_calc.rules.when import Context, Facts, UnitState, why_not

FIGHT = ("fight", "victrix honour guard", "--edition", "11", "-t", "boyz")
BANNER = ("--effect", "banner-of-macragge:used")


def _attacks(out: dict) -> float:
    return sum(w["expected"]["attacks"] for w in out["weapons"])


def test_the_banner_is_refused_without_its_bearer():
    result = cli(*FIGHT, *BANNER)
    assert result.exit_code == 1
    assert "Chapter Ancient" in result.output
    assert "--loadout" in result.output


def test_no_hint_to_use_the_banner_without_its_bearer():
    out = cli_json(*FIGHT)
    assert _attacks(out) == 15.0
    assert not any("banner" in n.lower() for n in out["not_modelled"] + out["notes"])


def test_the_banner_with_the_chapter_ancient():
    ancient = ("--loadout", "chapter-ancient")
    assert _attacks(cli_json(*FIGHT, *ancient)) == 15.0
    out = cli_json(*FIGHT, *ancient)
    assert any("banner-of-macragge:used" in n for n in out["not_modelled"])
    assert _attacks(cli_json(*FIGHT, *ancient, *BANNER)) == 18.0


def test_with_model_reads_the_side_it_acts_for():
    when = When(with_model=["Chapter Ancient"])
    base = dict(
        phase="fight",
        charged=False,
        stationary=False,
        half_range=False,
        disembarked=False,
        objective=False,
        beyond_12=False,
        engaged=False,
        target_engaged=False,
        advanced=False,
        cover=None,
        attacker_keywords=frozenset(),
        target_keywords=frozenset(),
        attacker=UnitState(3, 3),
        target=UnitState(10, 10),
        attacker_has_character=False,
        edition=None,
    )
    f = Facts(**base, attacker_model_names=frozenset({"Chapter Ancient"}))  # type: ignore[arg-type]
    assert why_not(when, f, Context("attacker"), "Banner") is None
    why = why_not(when, f, Context("target"), "Banner")
    assert why is not None and "--target-loadout" in why


def test_a_target_of_at_most_one_model_is_said_in_the_singular():
    """A condition on a target of at most N models names N with its noun agreeing."""
    base = dict(
        phase="shooting",
        charged=False,
        stationary=False,
        half_range=False,
        disembarked=False,
        objective=False,
        beyond_12=False,
        engaged=False,
        target_engaged=False,
        advanced=False,
        cover=None,
        attacker_keywords=frozenset(),
        target_keywords=frozenset(),
        attacker=UnitState(3, 3),
        target=UnitState(10, 10),
        attacker_has_character=False,
        edition=None,
    )
    f = Facts(**base)  # type: ignore[arg-type]
    one = why_not(When(target_max_models=1), f, Context("attacker"), "It")
    assert one == "It needs a target of 1 model or fewer"
    five = why_not(When(target_max_models=5), f, Context("attacker"), "It")
    assert five == "It needs a target of 5 models or fewer"

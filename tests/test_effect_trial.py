"""The effects defects a fresh-user trial found (issue 18), each against a value worked out by
hand from the shipped edition-11 datasheets (data 912) and the rule's text in data 912.

Rules cited (edition 11): 13.08 Benefit of Cover (a ranged attack's BS worsened by 1, once
whatever gives it); Masters of Camouflage (Astra Militarum, Recon Element: WALKER and
REGIMENT units have the Benefit of Cover; while such a unit has it "for any other reason",
its Save improves by 1, to 3+ at best); Oath of Moment (Space Marines: re-roll the Hit roll
against the target; +1 to the Wound roll too with a Codex army); Stand Vigil (Custodian
Guard: re-roll Wound rolls of 1, any Wound roll on an objective). Wound rolls: S > T 3+,
S = T 4+; an unmodified 1 always fails.

Units: Intercessor Squad (5 models, Bolt rifle A2 BS3+ S4 AP-1 D1); Kasrkin (10 models T3
Sv4+ W1, REGIMENT); Necron Warriors (10 models T4 Sv4+ W1); Custodian Guard (4 Guardian
spear - Melee A5 WS2+ S7 AP-2 D2, and one model with other weapons)."""

from __future__ import annotations

import json
from fractions import Fraction as Fr

import pytest
from helpers import cli

TOL = 1e-6
ED11 = ("--edition", "11")


def run(*args: str) -> dict:
    """``calc ARGS --edition 11 --json``, parsed."""
    result = cli(*args, *ED11, "--json")
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return json.loads(result.stdout)


def row(out: dict, weapon: str) -> dict:
    rows = [w for w in out["weapons"] if w["name"].lower() == weapon.lower()]
    assert len(rows) == 1, [w["name"] for w in out["weapons"]]
    return rows[0]["expected"]


def near(value: Fr | float):
    return pytest.approx(float(value), abs=TOL, rel=0)


# ---------------------------------------------------------------------------------------------
# 1. A rule conditional on cover "for any other reason" does not count its own cover


KASRKIN = ("shoot", "intercessor squad", "--target", "Astra Militarum/kasrkin")
# the record's own cover: BS3+ worsened to 4+: 10 x 1/2 = 5 hits; S4 v T3 3+: 10/3 wounds
HITS, WOUNDS = Fr(5), Fr(10, 3)


def test_masters_of_camouflage_alone_gives_cover_and_nothing_more():
    """Its own Benefit of Cover is not "another reason": AP-1 against Sv4+ saves on 5+, so
    10/3 wounds x 2/3 = 20/9 failed saves (2.222), not the improved save's 5/3."""
    out = run(*KASRKIN, "--effect", "masters-of-camouflage")
    r = row(out, "Bolt rifle")
    assert r["hits"] == near(HITS)
    assert r["wounds"] == near(WOUNDS)
    assert r["failed_saves"] == near(WOUNDS * Fr(2, 3))
    assert "masters-of-camouflage" in out["effects"]


@pytest.mark.parametrize(
    "other",
    [("--cover",), ("--target-stealth",), ("--effect", "smoke-shells")],
    ids=["cover", "stealth", "another-record's-stealth"],
)
def test_masters_of_camouflage_with_cover_from_another_source(other):
    """With cover from --cover, Stealth or another record (Smoke Shells' Stealth): Sv4+
    improved to 3+, AP-1: 4+: 10/3 x 1/2 = 5/3 failed saves; the BS is worsened once (5
    hits), however many sources give the cover."""
    out = run(*KASRKIN, "--effect", "masters-of-camouflage", *other)
    r = row(out, "Bolt rifle")
    assert r["hits"] == near(HITS)
    assert r["failed_saves"] == near(WOUNDS * Fr(1, 2))


def test_masters_of_camouflage_with_the_cover_of_indirect_fire():
    """An [INDIRECT FIRE] attack made with --indirect gives its target the Benefit of Cover
    (10.07), another reason than the rule's own: the Silent King's Staff of Stars (A12 BS2+
    S6 AP-1 D1, indirect fire) into Kasrkin (T3 Sv4+): only unmodified 6s hit (10.07, not
    spotted): 2 hits; 2+ to wound: 5/3 wounds; Sv4+ improved to 3+, AP-1: 4+: 5/6 failed
    saves (without the rule 5+: 10/9)."""
    base = ("shoot", "the silent king", "--target", "Astra Militarum/kasrkin", "--indirect")
    without = row(run(*base), "Staff of Stars")
    assert without["hits"] == near(2)
    assert without["wounds"] == near(Fr(5, 3))
    assert without["failed_saves"] == near(Fr(5, 3) * Fr(2, 3))
    r = row(run(*base, "--effect", "masters-of-camouflage"), "Staff of Stars")
    assert r["failed_saves"] == near(Fr(5, 3) * Fr(1, 2))


def test_masters_of_camouflage_changes_no_melee_attack():
    """In the Fight phase its cover (against ranged attacks) and its save bonus (while in
    cover) do nothing: not listed, a note says why; Intercessors' close combat weapons
    (A3 WS3+ S4 AP0: 15 attacks, 10 hits, S4 v T3 3+: 20/3 wounds) against Sv4+ fail 1/2."""
    out = run("fight", "intercessor squad", "--target", "Astra Militarum/kasrkin",
              "--effect", "masters-of-camouflage")  # fmt: skip
    assert out["effects"] == []
    assert any(n.startswith("--effect masters-of-camouflage: no effect: ") for n in out["notes"])
    assert row(out, "Close combat weapon")["failed_saves"] == near(Fr(20, 3) * Fr(1, 2))


# ---------------------------------------------------------------------------------------------
# 2. The same rule named twice is applied once, with every option given

NECRONS = ("shoot", "intercessor squad", "--target", "necron warriors")


@pytest.mark.parametrize(
    "names",
    [
        ("oath-of-moment", "oath-of-moment:codex-army"),
        ("oath-of-moment:codex-army", "oath-of-moment"),
    ],
)
def test_an_option_is_kept_whichever_name_comes_first(names):
    """Oath of Moment with codex-army: 10 attacks re-rolling the Hit roll: 10 x 8/9 = 80/9
    hits; S4 v T4 4+, +1: 3+: 80/9 x 2/3 = 160/27 wounds (5.926; 4.444 without the
    option)."""
    args = [a for n in names for a in ("--effect", n)]
    out = run(*NECRONS, *args)
    r = row(out, "Bolt rifle")
    assert r["hits"] == near(Fr(80, 9))
    assert r["wounds"] == near(Fr(160, 27))
    assert out["effects"] == ["oath-of-moment"]


def test_the_effects_line_names_the_option_given():
    """Oath of Moment given with codex-army: the Effects line and the JSON name the option
    (it changes the figures: 160/27 wounds rather than 40/9), as ``--effect`` takes it; a rule
    given without one is listed bare."""
    out = run(*NECRONS, "--effect", "oath-of-moment:codex-army")
    assert out["effect_options"] == {"oath-of-moment": ["codex-army"]}
    assert row(out, "Bolt rifle")["wounds"] == near(Fr(160, 27))
    text = cli(*NECRONS, "--effect", "oath-of-moment:codex-army", *ED11).stdout
    assert "Effects: oath-of-moment:codex-army\n" in text
    bare = run(*NECRONS, "--effect", "oath-of-moment")
    assert bare["effect_options"] == {} and bare["effects"] == ["oath-of-moment"]
    assert "Effects: oath-of-moment\n" in cli(*NECRONS, "--effect", "oath-of-moment", *ED11).stdout


@pytest.mark.parametrize(
    "names",
    [("stand-vigil", "stand-vigil:on-objective"), ("stand-vigil:on-objective", "stand-vigil")],
)
def test_a_datasheets_own_rule_named_twice_takes_the_option(names):
    """Stand Vigil (the Custodian Guard's own rule, applied unasked) on an objective: 20
    Guardian spear attacks WS2+: 50/3 hits; S7 v T4 3+ re-rolling every failure: 2/3 + 1/3 x
    2/3 = 8/9: 400/27 wounds (14.815; re-rolling 1s only: 7/9, 350/27 = 12.963)."""
    args = [a for n in names for a in ("--effect", n)]
    out = run("fight", "custodian guard", "--target", "necron warriors", *args)
    r = row(out, "Guardian spear – Melee")
    assert r["hits"] == near(Fr(50, 3))
    assert r["wounds"] == near(Fr(400, 27))


def test_a_choice_rule_named_twice_is_one_choice():
    """Martial Mastery named twice is one pick of its options, not one pick each: the choice
    sentence names the rule once. Armour Penetration (the pick): AP-2 improved to -3 against
    Sv4+: no save, so every wound (20 x 5/6 x 7/9 = 350/27, Stand Vigil's 1s) fails."""
    out = run("fight", "custodian guard", "--target", "necron warriors",
              "--effect", "martial-mastery", "--effect", "martial-mastery")  # fmt: skip
    assert out["choices"] == [
        "chose Martial Mastery: Martial Mastery: Armour Penetration (most models destroyed)"
    ]
    assert row(out, "Guardian spear – Melee")["failed_saves"] == near(Fr(350, 27))


# ---------------------------------------------------------------------------------------------
# 3. A rule that changes nothing here is not listed as applied; a note says why


def test_a_datasheets_rule_for_a_target_below_strength_against_a_whole_unit():
    """Fortis Doctrines (+1 to hit against a target below its Starting Strength) against 10
    Necron Warriors (their Starting Strength): not applied; with 9 it is (the JSON too). The
    datasheet lists the rule as partly modelled, so the reason is on that one line of
    ``not_modelled`` (not a note as well)."""
    out = run("shoot", "fortis kill team", "--target", "necron warriors")
    assert out["effects"] == []
    head = (
        "Fortis Doctrines (Fortis Kill Team unit ability): partly modelled; no effect: it needs "
        "a target below its Starting Strength"
    )
    said = [n for n in out["notes"] + out["not_modelled"] if "Fortis Doctrines" in n]
    assert len(said) == 1 and said[0].startswith(head), said
    out = run("shoot", "fortis kill team", "--target", "necron warriors", "--target-models", "9")
    assert out["effects"] == ["fortis-doctrines"]
    assert not any("Fortis Doctrines" in n for n in out["notes"])
    assert "Fortis Doctrines (partly) (Fortis Kill Team unit ability)" in out["not_modelled"]


def test_a_rule_for_a_state_later_in_a_sequence_is_listed_there():
    """In ``calc sequence``, a step that starts from the states the earlier steps left reads
    the target's state in each: Fortis Doctrines may act in the second step, so it is listed
    and no note says it has no effect."""
    result = cli("sequence", "shoot intercessor-squad", "shoot fortis-kill-team",
                 "--target", "necron warriors", *ED11, "--json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert steps[1]["effects"] == ["fortis-doctrines"]
    assert not any("Fortis Doctrines" in n for n in steps[1]["notes"])


def test_an_enhancement_with_no_bearer_changes_nothing():
    """Proper Killy (+1 Damage to the bearer's melee weapons) on Beast Snagga Boyz with no
    Beastboss: no bearer, not applied; led by a Beastboss it is, and only the Beastboss's
    weapon deals more."""
    base = ("fight", "beast snagga boyz", "--target", "boyz", "--effect", "proper-killy")
    out = run(*base)
    assert out["effects"] == []
    assert any(n.startswith("--effect proper-killy: no effect: it is for the bearer's attacks")
               for n in out["notes"])  # fmt: skip
    led = run(*base, "--leader", "beastboss")
    assert "proper-killy" in led["effects"]


def test_a_defensive_enhancement_with_no_bearer_changes_nothing():
    """Supa-Cybork Body (the bearer's Feel No Pain 4+) on Boyz with no Warboss: not
    applied, a note says why; with a Warboss leading them it is."""
    base = ("shoot", "intercessor squad", "--target", "boyz", "--effect", "supa-cybork-body")
    out = run(*base)
    assert out["effects"] == []
    assert any(n.startswith("--effect supa-cybork-body: no effect: it is for the bearer")
               for n in out["notes"])  # fmt: skip
    assert "supa-cybork-body" in run(*base, "--target-leader", "warboss")["effects"]


def test_a_stratagem_whose_every_change_needs_half_range():
    """Protocol of the Conquering Tyrant (re-rolls against a target within half range): not
    applied without --half-range (10 Necron Warriors' gauss flayers, A1 BS4+: 10 x 1/2 = 5
    hits); with it, [RAPID FIRE 1] makes 20 attacks, re-rolling 1s: 20 x (1/2 + 1/6 x 1/2)
    = 35/3 hits (10 without the re-roll)."""
    base = ("shoot", "necron warriors", "--target", "boyz",
            "--effect", "protocol-of-the-conquering-tyrant")  # fmt: skip
    out = run(*base)
    assert out["effects"] == []
    note = (
        "--effect protocol-of-the-conquering-tyrant: no effect: it needs a target within "
        "half range (add --half-range)"
    )
    assert note in out["notes"]
    assert row(out, "Gauss flayer")["hits"] == near(5)
    out = run(*base, "--half-range")
    assert out["effects"] == ["protocol-of-the-conquering-tyrant"]
    assert row(out, "Gauss flayer")["hits"] == near(Fr(35, 3))


# ---------------------------------------------------------------------------------------------
# 4. Refusals that say the real reason


def error(*args: str, code: int = 1) -> str:
    """The message of a refused ``calc ARGS``: exit code ``code`` (2: a usage error), one
    ``error:`` line, no traceback."""
    result = cli(*args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.stderr.startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    return " ".join(result.stderr.split())


SHOOT = ("shoot", "intercessor squad", "--target", "necron warriors", *ED11)


def test_a_rule_given_with_a_faction_that_does_not_have_it():
    """Necrons/oath-of-moment names the Space Marines' army rule (and the chapters'), not an
    unknown one with itself as the suggestion."""
    msg = error(*SHOOT, "--effect", "Necrons/oath-of-moment")
    assert "Oath of Moment is an army rule of Space Marines (Adeptus Astartes)" in msg
    assert "not of Necrons (give Space Marines/oath-of-moment" in msg
    assert "did you mean" not in msg and "unknown effect" not in msg
    msg = error(*SHOOT, "--effect", "Necrons/command-re-roll")
    assert "Command Re-roll is a core stratagem, not a rule of Necrons" in msg


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("shoot", "intercessor squad", "--target", "rubric marines", "--effect",
          "attacker:all-is-dust"), "changes the target's defence only: it has no attacker half"),
        (("shoot", "intercessor squad", "--target", "necron warriors", "--effect",
          "target:oath-of-moment"), "changes the attacker's attacks only: it has no target half"),
        (("fight", "custodian guard", "--target", "necron warriors", "--effect",
          "target:martial-mastery"), "Martial Mastery (Adeptus Custodes detachment rule (Shield "
         "Host)) changes the attacker's attacks only: it has no target half"),
    ],
    ids=["all-is-dust", "oath-of-moment", "martial-mastery"],
)  # fmt: skip
def test_a_side_the_rule_has_no_half_for(args, said):
    """A side prefix for a side the record does not act for is refused for that reason, not
    for a faction the unit has."""
    msg = error(*args, *ED11)
    assert said in msg
    assert "an effect applies to a unit of its own faction" not in msg


@pytest.mark.parametrize(
    ("target", "needs"),
    [
        ("necron warriors", "ASTRA MILITARUM, and WALKER or REGIMENT"),
        ("Space Marines/redemptor dreadnought", "ASTRA MILITARUM"),
    ],
    ids=["neither", "a-walker"],
)
def test_masters_of_camouflage_names_the_faction_keyword_it_needs(target, needs):
    """Masters of Camouflage acts on ASTRA MILITARUM units that are WALKER or REGIMENT: Necron
    Warriors (NECRONS INFANTRY) lack the faction keyword and both others, and the refusal
    names all it needs (it named WALKER or REGIMENT only); a Redemptor Dreadnought is a
    WALKER and lacks only ASTRA MILITARUM."""
    msg = error("shoot", "intercessor squad", "--target", target, *ED11,
                "--effect", "masters-of-camouflage")  # fmt: skip
    assert msg == (
        f"error: --effect masters-of-camouflage: Masters of Camouflage needs a target unit "
        f"with {needs}"
    )


def test_a_choice_rule_is_refused_by_its_own_name():
    """Blessings of Khorne (World Eaters) on Custodes is refused naming the rule, not the
    option record (Martial Excellence) the condition was read from."""
    msg = error("fight", "custodian guard", "--target", "necron warriors", *ED11,
                "--effect", "blessings-of-khorne")  # fmt: skip
    assert "--effect blessings-of-khorne: Blessings of Khorne needs an attacking unit with " \
        "WORLD EATERS" in msg  # fmt: skip
    assert "Martial Excellence" not in msg


@pytest.mark.parametrize(
    "args",
    [("all is dust",), ("sacred-rites",), ("--detachment", "rubricae phalanx")],
    ids=["name", "close-to-another-name", "detachment"],
)
def test_calc_effects_says_the_other_edition_has_it(args):
    """In edition 10, an edition-11 rule or detachment is not "nothing like it" alone."""
    msg = error("effects", "--edition", "10", *args)
    assert msg.endswith("; edition 11 has it (add --edition 11)"), msg
    assert "edition 11 has it" not in error("effects", "--edition", "10", "zzqqxx")


def test_calc_effects_lists_the_closest_names_when_no_edition_has_it():
    """A name like none of either edition's still lists this edition's closest (a typo)."""
    result = cli("effects", "--edition", "10", "oatj of moment")
    assert result.exit_code == 0, result.output
    assert "oath-of-moment" in result.output


def test_an_empty_faction_before_the_slash_is_refused():
    """``/oath-of-moment`` is refused as ``orks/`` is, not read as ``oath-of-moment``: a
    usage error (its form is wrong whatever the data says)."""
    msg = error(*SHOOT, "--effect", "/oath-of-moment", code=2)
    assert "no faction before '/'" in msg


def test_effects_joined_by_a_comma():
    """Two effects in one --effect (a job file's entry too) are refused saying one per
    --effect, not with one of them as the suggestion."""
    msg = error("shoot", "boyz", "--target", "necron warriors", *ED11,
                "--effect", "waaagh,get-stuck-in")  # fmt: skip
    assert "one effect per --effect" in msg
    assert "give --effect waaagh --effect get-stuck-in" in msg
    assert "did you mean" not in msg


def test_effects_joined_by_a_comma_in_a_job_file(tmp_path):
    batch = tmp_path / "batch.yaml"
    batch.write_text(
        "edition: 11\n"
        "targets: [{name: necron warriors}]\n"
        "runs: [{name: x, attacker: {name: boyz}, effects: ['waaagh,get-stuck-in']}]\n"
    )
    msg = error("compare", str(batch))
    assert "effects[0]: unknown effect 'waaagh,get-stuck-in'; one effect per --effect (or " \
        "per entry of a list)" in msg  # fmt: skip


def test_compare_names_the_run_a_not_modelled_part_belongs_to(tmp_path):
    """Of two runs, only 'dust' names All is Dust, whose record leaves a part out: its "Not
    modelled" line names the run; the Intercessors' own ability (both runs) names none."""
    batch = tmp_path / "batch.yaml"
    batch.write_text(
        "edition: 11\n"
        "targets: [{name: rubric marines}]\n"
        "runs:\n"
        "  - {name: plain, attacker: {name: intercessor squad}}\n"
        "  - {name: dust, attacker: {name: intercessor squad}, effects: [all-is-dust]}\n"
    )
    result = cli("compare", str(batch))
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "Not modelled (run 'dust'): All is Dust:" in text
    assert "Not modelled: Hail of Bolts (Intercessor Squad unit ability)" in text


def test_compare_names_the_targets_of_a_target_only_part():
    """One run against two targets: Reanimation Protocols (the Necron Warriors' ability) is
    about the rows against them only."""
    result = cli("compare", "intercessor squad", "-t", "necron warriors", "-t", "boyz", *ED11)
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "Not modelled (against Necron Warriors): Reanimation Protocols" in text

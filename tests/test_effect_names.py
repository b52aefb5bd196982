"""Finding effects by name (issue 18, item 4), the refusals (edition, faction, conditions,
options), bad input and bad effect files (never a traceback), ``calc effects`` (item 6), and
the issue's done-when: Armour of Contempt against Lootas in edition 11.

Rules cited: Armour of Contempt (data 912, the Space Marines' stratagem: attacks against the
unit have their AP worsened by 1); the Deffgun (AP-1) against an Intercessor's Sv3+ saves on
4+ (fails 1/2), with AP worsened to 0 on 3+ (fails 1/3): a third fewer failed saves; the Big
shoota's AP 0 cannot be worsened (AP never goes above 0)."""

from __future__ import annotations

import json
from fractions import Fraction as Fr

import pytest
import yaml
from helpers import cli, cli_json
from oracle import approx, attacker, invoke, shoot, target, weapon, weapon_row

from wh40k_calc import effect_files, effects

ED11 = ("--edition", "11")


def calc(*args: str):
    """``calc ARGS`` in-process (tests/helpers.cli: no traceback)."""
    return cli(*args)


def error(*args: str, code: int = 1) -> str:
    """``calc ARGS`` refused: exit code ``code`` (1: found wrong in the data; 2: a usage
    error, wrong whatever the data says) and ``error: ...`` on stderr."""
    result = calc(*args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.stderr.startswith("error: ")
    return result.stderr


def failed_saves(out: dict, name: str) -> float:
    return weapon_row(out, name)["failed_saves"]


# ---------------------------------------------------------------------------------------------
# The done-when


@pytest.mark.parametrize("faction", ["Space Marines", "Adeptus Astartes"])
def test_armour_of_contempt_lowers_the_deffguns_failed_saves_by_a_third(faction):
    """Edition 11, Lootas at Intercessors: the Deffgun's failed saves x 2/3, the Big
    shoota's unchanged (the same hits and wounds; only the save changes)."""
    base = ["shoot", "Orks/Lootas", *ED11, "--target", f"{faction}/Intercessor Squad", "--json"]
    plain = calc(*base)
    if plain.exit_code != 0 and "unknown faction" in plain.stderr:
        pytest.skip(f"the catalog does not know {faction!r} yet (edition-11 datasheet import)")
    assert plain.exit_code == 0, plain.stderr
    aoc = calc(*base, "--effect", "armour-of-contempt")
    assert aoc.exit_code == 0, aoc.stderr
    p, a = json.loads(plain.stdout), json.loads(aoc.stdout)
    assert "armour-of-contempt" in a["effects"]
    deff = failed_saves(p, "Deffgun")
    assert deff > 0
    assert failed_saves(a, "Deffgun") == approx(Fr(2, 3) * Fr(str(deff)).limit_denominator(10**6))
    assert failed_saves(a, "Big shoota") == approx(failed_saves(p, "Big shoota"))
    # the ratio itself, from the save rolls: 4+ fails 1/2, 3+ fails 1/3
    assert failed_saves(a, "Deffgun") / deff == pytest.approx(2 / 3, abs=1e-5)


@pytest.mark.parametrize("qualified", ["Space Marines", "Adeptus Astartes", "adeptus-astartes"])
def test_faction_names_ours_and_the_datas(qualified):
    """``FACTION/ID`` takes our faction name and the data's (case and punctuation aside)."""
    out = calc("shoot", "lootas", *ED11, "--target", "Space Marines/Intercessor Squad", "--json",
               "--effect", f"{qualified}/armour-of-contempt")  # fmt: skip
    assert out.exit_code == 0, out.stderr
    assert "armour-of-contempt" in json.loads(out.stdout)["effects"]


# ---------------------------------------------------------------------------------------------
# Names: sides, factions, editions


def test_a_bare_id_resolves_to_the_side_of_its_faction():
    """Armour of Contempt is the target's (a target-side Space Marines rule) whether the
    Space Marines shoot or are shot: with Space Marines attacking Orks it is refused, its own
    condition (an ADEPTUS ASTARTES target) said first."""
    ok = calc("shoot", "lootas", *ED11, "--target", "intercessor-squad", "--effect",
              "armour-of-contempt", "--json")  # fmt: skip
    assert ok.exit_code == 0
    line = error("shoot", "intercessor-squad", *ED11, "--target", "boyz", "--effect",
                 "armour-of-contempt")  # fmt: skip
    assert "needs a target unit with ADEPTUS ASTARTES" in line


def test_records_of_one_name_that_ask_for_different_units_are_each_said():
    """A fresh-user trial: with neither unit of a faction that has Armour of Contempt (Orks
    both), the refusal said the Imperial Agents record's condition alone (a DEATHWATCH
    target), though the Blood Angels', Dark Angels', Deathwatch and Space Marines records ask
    for an ADEPTUS ASTARTES one (edition 11 data: each record's target keywords)."""
    line = error("shoot", "lootas", *ED11, "--target", "boyz", "--effect", "armour-of-contempt")
    assert " ".join(line.split()) == (
        "error: --effect armour-of-contempt: Armour of Contempt needs a target unit with "
        "ADEPTUS ASTARTES (Blood Angels, Dark Angels, Deathwatch, Space Marines) or a target "
        "unit with DEATHWATCH (Imperial Agents)"
    )


def test_an_effect_of_another_faction_is_refused_with_the_reason():
    """Get Stuck In (Orks) for a Space Marines unit: its own conditions first (an ORKS unit),
    as for any effect."""
    line = error("fight", "intercessor-squad", "--target", "boyz", "--effect", "get-stuck-in")
    assert "needs an attacking unit with ORKS" in line


def test_an_effect_of_the_other_edition_is_refused_with_the_reason():
    """Grenade's edition-11 text is not in our sources: refused there, applied in edition 10."""
    line = error("shoot", "boyz", *ED11, "--target", "lootas", "--effect", "grenade")
    assert "edition-11 text" in line and "not in our sources" in line


def test_a_rule_listed_as_not_modelled_says_why():
    """Explosives (edition 11's Grenade) is a coverage line: its reason, not "unknown"."""
    line = error("shoot", "boyz", *ED11, "--target", "lootas", "--effect", "explosives")
    assert "not modelled" in line and "not in our sources" in line


def test_unknown_effect_suggests():
    line = error("shoot", "lootas", "--target", "boyz", "--effect", "armor-of-contemp", *ED11)
    assert "unknown effect" in line and "armour-of-contempt" in line


@pytest.mark.parametrize(("text", "listing"), [("ワーグ", "NAME"), ("orks/!!", "'orks'")])
def test_a_name_with_nothing_to_match_says_so(text, listing):
    """A name was given, but ids keep only Latin letters and digits and it has none: the
    message says that (not that no name was given) and where the names are listed; a usage
    error (no data could match it)."""
    line = error("shoot", "lootas", "--target", "boyz", "--effect", text, code=2)
    assert "no effect name" not in line
    assert "has no letters or digits we can match" in line
    assert f"`calc effects --faction {listing}`" in line


def test_unknown_faction_suggests():
    line = error("shoot", "lootas", "--target", "boyz", "--effect", "Orkz/waaagh")
    assert "'Orkz'" in line and "'Orks'" in line


def test_unknown_option_lists_the_options():
    """Dakka! Dakka! Dakka! (edition 11) has the option waaagh; 'waagh' is none of its."""
    line = error("shoot", "lootas", *ED11, "--target", "boyz", "--effect",
                 "dakka-dakka-dakka:waagh")  # fmt: skip
    assert "no option 'waagh'" in line and "waaagh" in line


def test_an_unknown_option_of_a_choice_rules_option_names_that_option():
    """``devastator-doctrine`` is one option of Combat Doctrines, found by its own name: an
    option given to it is refused naming the Devastator Doctrine (it named Combat Doctrines)."""
    line = error("shoot", "eradicator-squad", *ED11, "--target", "boyz", "--advanced",
                 "--effect", "devastator-doctrine:used")  # fmt: skip
    assert "Devastator Doctrine has no option 'used'" in line


def test_an_option_is_taken():
    """Dakka! Dakka! Dakka! with :waaagh: the Lootas' ranged weapons gain [SUSTAINED HITS 1].
    The Deffgun's 8 shots with Dat's Our Loot! (a 1 re-rolled) roll a 6 with 1/6 + 1/6 x 1/6
    = 7/36 each, and each 6 adds one hit: 8 x 7/36 = 14/9 more hits."""
    base = ["shoot", "lootas", *ED11, "--target", "boyz", "--json"]
    plain = json.loads(calc(*base, "--effect", "dakka-dakka-dakka").stdout)
    more = json.loads(calc(*base, "--effect", "dakka-dakka-dakka:waaagh").stdout)
    gain = weapon_row(more, "Deffgun")["hits"] - weapon_row(plain, "Deffgun")["hits"]
    assert gain == approx(Fr(14, 9))


@pytest.mark.parametrize(
    "text",
    [":", "attacker:", "a:b:c", "waaagh:", "/waaagh/"],
)
def test_bad_effect_input_is_one_error_line(text):
    """A malformed ``--effect`` is a usage error (exit code 2) of one line."""
    line = error("shoot", "lootas", "--target", "boyz", "--effect", text, code=2)
    assert "effect" in line and line.count("\n") == 1


def test_an_empty_effect_is_a_usage_error():
    result = calc("shoot", "lootas", "--target", "boyz", "--effect", "")
    assert result.exit_code == 2, result.stderr
    assert "Invalid value for '--effect'" in result.stderr and "no name given" in result.stderr


def test_a_name_of_several_rules_is_refused_with_the_choices(tmp_path, monkeypatch):
    """A unit with the ORKS and WORLD EATERS keywords (of a third faction) is of both; an id
    both files have, at the same rank, is refused with FACTION/ID for each."""
    root = tmp_path / "effects"
    for faction in ("Orks", "World Eaters"):
        folder = root / "edition-10"
        folder.mkdir(parents=True, exist_ok=True)
        doc = {"schema": 1, "edition": 10, "faction": faction, "data": {"source": "tests"},
               "effects": [{"id": "shout", "name": "Shout", "kind": "army", "summary": "s",
                            "side": "attacker", "changes": [{"hit_mod": 1}]}]}  # fmt: skip
        (folder / f"{faction.lower().replace(' ', '-')}.yaml").write_text(yaml.safe_dump(doc))
    effect_files.set_roots([root])
    effects.clear_caches()
    try:
        a = attacker(tmp_path, weapon(A=6), faction_keywords=("ORKS", "WORLD EATERS"))
        t = target(tmp_path, T=4, Sv=7)
        result = invoke(["shoot", a, "--target", t, "--effect", "shout"], [tmp_path])
        assert result.exit_code == 1
        assert "Orks/shout" in result.stderr and "World Eaters/shout" in result.stderr
        out = shoot(a, t, "--effect", "Orks/shout", dirs=[tmp_path])
        assert out["effects"] == ["shout"]
    finally:
        effect_files.set_roots(None)
        effects.clear_caches()


def test_a_chapters_own_rule_ranks_before_the_larger_factions():
    """A Blood Angels unit (Space Marines datasheet, BLOOD ANGELS keyword) is of both; a name
    both files have resolves to the chapter's (Blood Angels before Space Marines)."""
    from wh40k_calc.effect_files import unit_factions

    keys = unit_factions("Space Marines", frozenset({"ADEPTUS ASTARTES", "BLOOD ANGELS"}))
    assert keys[:2] == ("bloodangels", "spacemarines")
    keys = unit_factions("World Eaters", frozenset({"HERETIC ASTARTES", "WORLD EATERS"}))
    assert keys[:2] == ("worldeaters", "chaosspacemarines")


def test_a_chapters_rule_applies_to_a_codex_space_marines_datasheet():
    """A Dark Angels army fields the Codex: Space Marines datasheets: Invocations of Ancient
    Fury (Dark Angels, Dark Age Arsenal: +1 S to plasma weapons of ADEPTUS ASTARTES) applies to
    a Hellblaster Squad, generic Space Marines, and is no longer refused as another faction's.
    Five supercharged plasma incinerators (A2, BS3+, S8) at a Rhino (T9): 20/3 hits wound on 5+
    (S8 < T9), with the rule on 4+ (S9 = T9): 20/9 -> 10/3 wounds. A chapter ranks after the
    unit's own faction, and a unit of a chapter keeps only its own chapter."""
    from wh40k_calc.effect_files import unit_factions

    args = ("shoot", "hellblaster-squad", *ED11, "--target", "space marines/rhino")
    plain = cli_json(*args)
    fury = cli_json(*args, "--effect", "invocations-of-ancient-fury")
    assert weapon_row(plain, "Plasma incinerator – Supercharge")["wounds"] == approx(Fr(20, 9))
    assert weapon_row(fury, "Plasma incinerator – Supercharge")["wounds"] == approx(Fr(10, 3))
    generic = unit_factions("Space Marines", frozenset({"ADEPTUS ASTARTES"}))
    assert generic[0] == "spacemarines" and "darkangels" in generic and "bloodangels" in generic
    chapter = unit_factions("Space Marines", frozenset({"ADEPTUS ASTARTES", "BLOOD ANGELS"}))
    assert "darkangels" not in chapter


def test_two_chapters_rules_on_one_codex_datasheet_are_refused():
    """A Codex datasheet is fielded in one chapter's army: the Dark Angels' Invocations of
    Ancient Fury with the Blood Angels' Red Thirst on one Hellblaster Squad is refused,
    naming both; either alone applies."""
    args = ("fight", "hellblaster-squad", *ED11, "--target", "space marines/rhino", "--charged")
    line = error(*args, "--effect", "invocations-of-ancient-fury", "--effect", "red-thirst")
    assert "(Dark Angels)" in line and "(Blood Angels)" in line and "one chapter" in line
    assert calc(*args, "--effect", "red-thirst").exit_code == 0


def test_a_choice_rule_for_both_units_asks_which_side(tmp_path):
    """A choice rule whose options act for either side (+1 to hit, or a 4+ invulnerable
    save), between two units of its faction: refused until attacker: or target: says whose
    pick it is; attacker: picks the attacker's option (+1 to hit: 12 shots at 3+, 8 hits)."""
    root = tmp_path / "effects" / "edition-10"
    root.mkdir(parents=True)
    options = [
        {"id": "aim", "name": "Aim", "rule": "Drill", "kind": "army", "summary": "s",
         "side": "attacker", "changes": [{"hit_mod": 1}]},
        {"id": "brace", "name": "Brace", "rule": "Drill", "kind": "army", "summary": "s",
         "side": "target", "changes": [{"invuln": 4}]},
    ]  # fmt: skip
    doc = {"schema": 1, "edition": 10, "faction": "Testers", "data": {"source": "tests"},
           "effects": options}  # fmt: skip
    (root / "testers.yaml").write_text(yaml.safe_dump(doc))
    effect_files.set_roots([tmp_path / "effects"])
    effects.clear_caches()
    try:
        a = attacker(tmp_path, weapon(A=12))
        t = target(tmp_path, T=4, Sv=7, models=20)
        result = invoke(["shoot", a, "--target", t, "--effect", "drill"], [tmp_path])
        assert result.exit_code == 1
        assert "attacker:drill" in result.stderr and "target:drill" in result.stderr
        out = shoot(a, t, "--effect", "attacker:drill", dirs=[tmp_path])
        assert weapon_row(out)["hits"] == approx(8)
    finally:
        effect_files.set_roots(None)
        effects.clear_caches()


# ---------------------------------------------------------------------------------------------
# Bad effect files: one error line naming the file and the field


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("effects: [{id: x, name: X, kind: army, summary: s, side: attacker, "
         "changes: [{hitmod: 1}]}]", "hitmod"),
        ("effects: [{id: x, name: X, kind: army, summary: s, side: attacker, "
         "changes: [{invuln: 4}]}]", "invuln"),
        ("effects: [{id: x, name: X, kind: army, summary: s, side: attacker, "
         "changes: [{ability: 'lethal hitz'}]}]", "lethal hitz"),
        ("effects: [{id: x, name: X, kind: army, summary: s, side: both, "
         "changes: [{hit_mod: 1}]}]", "side"),
        ("effects: [[", "cannot read"),
    ],
)  # fmt: skip
def test_a_bad_effect_file_is_one_error_line(tmp_path, body, said):
    folder = tmp_path / "effects" / "edition-10"
    folder.mkdir(parents=True)
    head = "schema: 1\nedition: 10\nfaction: Orks\ndata: {source: tests}\n"
    (folder / "orks.yaml").write_text(head + body)
    effect_files.set_roots([tmp_path / "effects"])
    effects.clear_caches()
    try:
        line = error("shoot", "lootas", "--target", "boyz", "--effect", "x")
        assert "orks.yaml" in line and said in line
        line = error("effects", "--faction", "Orks")
        assert "orks.yaml" in line
    finally:
        effect_files.set_roots(None)
        effects.clear_caches()


# ---------------------------------------------------------------------------------------------
# calc effects


def test_calc_effects_necrons_edition_11_json():
    """Every Necron rule with its status: records (modelled) and coverage lines."""
    out = calc("effects", "--faction", "Necrons", "--edition", "11", "--json")
    assert out.exit_code == 0
    items = json.loads(out.stdout)
    statuses = {i["status"] for i in items}
    assert statuses == {"modelled", "not-attack", "not-modelled"}
    assert all(i["faction"] == "Necrons" and i["edition"] == "11" for i in items)
    modelled = [i for i in items if i["status"] == "modelled"]
    assert all({"id", "kind", "side", "summary"} <= set(i) for i in modelled)
    assert all("reason" in i for i in items if i["status"] == "not-modelled")


@pytest.mark.parametrize(
    ("args", "must", "must_not"),
    [
        (("--faction", "Orks", "--kind", "stratagem"), "ard-as-nails", "waaagh"),
        (("--faction", "Orks", "--detachment", "green tide"), "mob-mentality", "get-stuck-in"),
        (("waagh",), "waaagh", "ard-as-nails"),
        (("--kind", "core"), "command-re-roll", "waaagh"),
        (("--kind", "unit", "--faction", "core"), "unit-hit-minus-1", "grenade"),
    ],
)
def test_calc_effects_filters(args, must, must_not):
    out = calc("effects", *args, "--json")
    assert out.exit_code == 0, out.stderr
    ids = {i.get("id") for i in json.loads(out.stdout)}
    assert must in ids and must_not not in ids


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--faction", "Orkz"), "'Orks'"),
        (("--kind", "relic"), "army, detachment"),
        (("--faction", "Orks", "--detachment", "Grean Tide"), "'Green Tide'"),
        (("--edition", "9"), "10 or 11"),
        (("zzzzzz",), "no effect name is like"),
    ],
)
def test_calc_effects_refusals(args, said):
    # --edition 9 and --kind relic are usage errors (2), as `calc shoot --edition 9` is click's
    assert said in error("effects", *args, code=2 if args[0] in ("--edition", "--kind") else 1)


def test_calc_effects_status_adds_the_coverage_lines():
    plain = calc("effects", "--edition", "11", "--faction", "core").stdout
    status = calc("effects", "--edition", "11", "--faction", "core", "--status").stdout
    assert "Smokescreen" not in plain and "Smokescreen" in status


def test_a_core_stratagem_is_named_once_as_core():
    """Messages name a rule with its owner and kind: "Waaagh! (Orks army rule)"; a core
    stratagem's kind already says core ("Grenade (core stratagem)", once "core core
    stratagem"), and `calc effects` heads it "Core stratagem" (once "Core, core stratagem")."""
    by_id = {e.id: e for e in effects.all_effects("10")}
    assert by_id["grenade"].describe() == "Grenade (core stratagem)"
    assert by_id["waaagh"].describe() == "Waaagh! (Orks army rule)"
    listing = cli("effects", "grenade", env={"COLUMNS": "120"}).output
    assert "Core stratagem" in listing and "core core" not in listing.lower()
    assert "Core, core" not in listing


@pytest.mark.parametrize(
    ("edition", "given", "other", "suggested"),
    [
        ("11", "dacatarai-stance", "10", "dacatari-stance"),
        ("10", "dacatari-stance", "11", "dacatarai-stance"),
    ],
)
def test_another_edition_s_spelling_suggests_this_edition_s(edition, given, other, suggested):
    """The Custodes' stance is Dacatarai in the edition-10 records and Dacatari in edition 11's
    (data 912): the other edition's name is refused with the reason and this edition's
    spelling offered, as any misspelt name is."""
    said = error(
        "fight", "custodian-guard", "--target", "boyz", "--edition", edition, "--effect", given
    )
    assert f"is an edition-{other} rule" in said
    assert f"give --edition {other}" in said
    assert f"did you mean '{suggested}'" in said

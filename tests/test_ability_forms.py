"""The recogniser of datasheet abilities (``importers.ability_forms`` through
``unit_abilities.read_ability``): each family read into the changes its text says, and
sentences that look alike but mean something else left as not modelled (never applied).

The texts are written for the tests, in the data's wordings."""

from __future__ import annotations

import pytest

from wh40k_calc.importers.unit_abilities import Context, UnitAbilities, read_ability

KEYWORDS = frozenset({"ADEPTUS ASTARTES", "INFANTRY", "MONSTER", "VEHICLE", "CHARACTER", "FLY"})


def read(text: str, *, one_model: bool = True, character: bool = False) -> UnitAbilities:
    """Read ``text`` as the ability "Test" of a unit of one kind of model (or two kinds)."""
    out = UnitAbilities(context=Context(character, frozenset({"bolt rifle"}), KEYWORDS))
    everyone = ["Trooper"] if one_model else ["Trooper", "Sergeant"]
    read_ability("Test", text, everyone, everyone, out)
    return out


def body(text: str, **kw) -> dict:
    """The one record ``text`` gives."""
    got = read(text, **kw)
    assert len(got.generated) == 1, (got.generated, got.not_modelled)
    return got.generated[0][1]


def test_re_rolls_and_modifiers_of_the_units_own_attacks() -> None:
    b = body("Each time a model in this unit makes a ranged attack, re-roll a Hit roll of 1.")
    assert b["side"] == "attacker" and b["default"] is True
    assert b["changes"] == [{"reroll_hits": "ones", "weapons": "ranged"}]
    b = body(
        "Each time a model in this unit makes a melee attack that targets a MONSTER or VEHICLE "
        "unit, add 1 to the Hit roll and add 1 to the Wound roll."
    )
    assert b["when"] == {"target_keywords": ["MONSTER", "VEHICLE"]}
    assert b["changes"] == [
        {"hit_mod": 1, "weapons": "melee"},
        {"wound_mod": 1, "weapons": "melee"},
    ]


def test_a_follow_up_keeps_the_first_sentences_attacks() -> None:
    b = body(
        "Each time a model in this unit makes an attack, re-roll a Wound roll of 1. If the "
        "target of that attack is within range of an objective marker, you can re-roll the "
        "Wound roll instead."
    )
    assert b["changes"] == [
        {"reroll_wounds": "ones"},
        {"reroll_wounds": "all", "when": {"objective": True}},
    ]
    b = body(
        "Each time this model makes a melee attack that targets a unit that is below its "
        "Starting Strength, add 1 to the Hit roll. If that target is also Below Half-strength, "
        "add 1 to the Wound roll as well."
    )
    assert b["when"] == {"target_below_starting_strength": True}
    assert b["changes"][1] == {
        "wound_mod": 1,
        "weapons": "melee",
        "bearer_only": True,
        "when": {"target_below_half_strength": True},
    }


def test_leader_abilities_apply_while_leading_and_the_bodyguards_while_led() -> None:
    b = body(
        "While this model is leading a unit, weapons equipped by models in that unit have the "
        "[LETHAL HITS] ability.",
        character=True,
    )
    assert b["when"] == {"leading": True} and b["changes"] == [{"ability": "lethal hits"}]
    b = body(
        "While this model is leading a unit:\nEach time a model in that unit makes an attack, "
        "add 1 to the Hit roll.\nEach time an attack targets that unit, subtract 1 from the "
        "Wound roll.",
        character=True,
    )
    assert b["side"] == "both" and b["when"] == {"leading": True}
    b = body(
        "While a CHARACTER model is leading this unit, each time an attack targets this unit, "
        "subtract 1 from the Wound roll."
    )
    assert b["when"] == {"led_by": ["CHARACTER"]} and b["changes"] == [{"wound_mod": -1}]


def test_defence_forms_and_a_limited_ability_as_an_option() -> None:
    b = body(
        "While this model is leading a unit, models in that unit have the Feel No Pain 4+ "
        "ability against Psychic Attacks and mortal wounds.",
        character=True,
    )
    assert b["changes"] == [{"fnp_mortal": 4}, {"fnp_psychic": 4}]
    b = body(
        "Once per battle, at the start of the Fight phase, this unit can use this ability. If "
        "it does, until the end of the phase, models in this unit have a 4+ invulnerable save."
    )
    assert b["options"] == {"used": b["options"]["used"]}
    assert b["when"] == {"phases": ["fight"]}
    assert b["changes"] == [{"invuln": 4, "when": {"option": "used"}}]


def test_an_aura_is_named_never_applied_by_default() -> None:
    got = read(
        'While a friendly ADEPTUS ASTARTES INFANTRY unit is within 6" of this model, each time '
        "a model in that unit makes an attack, re-roll a Hit roll of 1."
    )
    [(_, b)] = got.generated
    assert b["default"] is False and got.rules == []
    assert b["when"] == {"attacker_all": ["ADEPTUS ASTARTES", "INFANTRY"]}
    assert b["changes"] == [{"reroll_hits": "ones"}]
    assert got.not_modelled["attacker"] == ["Test (aura: --effect test)"]


# Sentences like the forms that mean something else: none is read, each is listed as not
# modelled on the side it can change
NOT_READ = [
    # another unit's attacks: a suppressed enemy, an enemy near this unit
    "While a unit is suppressed, each time a model in that unit makes an attack, subtract 1 from "
    "the Hit roll.",
    'While an enemy unit is within 6" of this unit, each time a model in that unit makes a melee '
    "attack, subtract 1 from the Hit roll.",
    # "that unit" with no Leader frame saying which
    "Each time a model in that unit makes an attack, add 1 to the Hit roll.",
    # a target only the player knows, a range the vocabulary cannot say
    "Each time a model in this unit makes an attack that targets its quarry, re-roll a Hit roll "
    "of 1.",
    'Each time this model makes an attack that targets a unit within 12", add 1 to the Hit roll.',
    # a condition on the army, a change the vocabulary lacks, a worse characteristic
    "Each time this model makes a melee attack, if the Waaagh! is active for your army, add 1 to "
    "the Hit roll.",
    "Each time this model makes an attack, re-roll a Damage roll of 1.",
    "Add 1 to the Ballistic Skill characteristic of ranged weapons equipped by models in this "
    "unit.",
    # a choice, and an activation without the sentence that says when it is used
    "At the start of the Fight phase, select one of the following:\nEach time a model in this "
    "unit makes an attack, add 1 to the Hit roll.\nModels in this unit have the Feel No Pain 5+ "
    "ability.",
    "If it does, until the end of the phase, models in this unit have a 4+ invulnerable save.",
    # "this model" in a unit of two kinds of model
    "Each time this model makes a ranged attack, re-roll a Hit roll of 1.",
]


@pytest.mark.parametrize("text", NOT_READ)
def test_look_alikes_are_not_modelled(text: str) -> None:
    got = read(text, one_model="this model" not in text)
    assert got.generated == [] and got.rules == [] and got.model_fields == {}, got.generated
    assert "Test" in got.not_modelled["attacker"] + got.not_modelled["target"]
    assert got.census == ["not-modelled"]


def test_ids_are_the_names_without_tags_and_fit_a_narrow_line() -> None:
    from wh40k_calc.importers.unit_rules import ID_LIMIT, RuleSet, rule_id
    from wh40k_calc.importers.unit_rules import Generated as G

    assert rule_id("Wisdom of the Ancients (Aura)") == "wisdom-of-the-ancients"
    assert rule_id("Malign Wardings(Psychic)") == "malign-wardings"
    long = "Overwhelming and Unrelenting Short-range Firepower of the Ancients"
    assert len(rule_id(long)) <= ID_LIMIT and long.lower().startswith(
        rule_id(long).replace("-", " ")[:20]
    )
    # the same name doing something else in another datasheet of the faction: its unit's name
    rules = RuleSet()
    one = rules.add(G("Orks", "Warboss", "Might is Right", {"changes": [{"hit_mod": 1}]}))
    same = rules.add(G("Orks", "Beastboss", "Might is Right", {"changes": [{"hit_mod": 1}]}))
    other = rules.add(
        G("Orks", "Stormboy Boss on a Very Long Name", "Might is Right", {"changes": []})
    )
    assert one == same == "might-is-right"
    assert other.startswith("might-is-right-stormboy") and len(other) <= ID_LIMIT

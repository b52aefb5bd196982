"""The effect-record vocabulary (wh40k_calc/effect_schema.py): what a file may hold, and that a
field the vocabulary lacks is refused with the file and the field named."""

from __future__ import annotations

import pytest

from wh40k_calc.effect_coverage import key, slug
from wh40k_calc.effect_schema import EffectFileError, load_effect_file

HEAD = "schema: 1\nedition: 11\nfaction: Orks\ndata: {source: game-datacards, version: 912}\n"


def _file(tmp_path, body: str):
    p = tmp_path / "orks.yaml"
    p.write_text(HEAD + body, encoding="utf-8")
    return p


def test_a_record_with_conditions_and_options_loads(tmp_path):
    p = _file(
        tmp_path,
        """effects:
  - id: avenge-the-fallen
    name: Avenge the Fallen
    kind: stratagem
    summary: melee +1 A, +2 A instead when Below Half-strength
    side: attacker
    options: {unravelling: the target is unravelling}
    when: {phases: [fight]}
    changes:
      - {attacks: 1, weapons: melee, when: {attacker_below_half_strength: false}}
      - {attacks: 2, weapons: melee, when: {attacker_below_half_strength: true}}
      - {reroll_wounds: ones, when: {option: unravelling}}
coverage:
  - {rule: Krump and Run, kind: stratagem, detachment: Freebooter Krew, status: not-attack}
""",
    )
    f = load_effect_file(p)
    assert [c.attacks for c in f.effects[0].changes[:2]] == [1, 2]
    assert f.coverage[0].status == "not-attack"


@pytest.mark.parametrize(
    "change, message",
    [
        ("{hitmod: 1}", "unknown field `hitmod` - at `$.effects[0].changes[0]`"),
        ("{hit_mod: 1, wound_mod: 1}", "needs exactly one change field, has hit_mod, wound_mod"),
        ("{weapons: melee}", "needs exactly one change field, has none"),
        ("{crit_hit: 7}", "Expected `int` <= 6 - at `$.effects[0].changes[0].crit_hit`"),
        (
            "{reroll_hits: twice}",
            "Invalid enum value 'twice' - at `$.effects[0].changes[0].reroll_hits`",
        ),
        ("{hit_mod: 1, when: {option: marked}}", "'marked' is not in options"),
        ("{mortal_wounds: {rolls: 6}}", "rolls needs on and each"),
        ("{mortal_wounds: {dice: D3, extra_rolls: 2}}", "extra_rolls needs rolls"),
        ("{mortal_wounds: {dice: D3, psychic: maybe}}", "Expected `bool`"),
        ("{save_limit: 3}", "needs exactly one change field, has none"),
        ("{hit_mod: 1, save_limit: 3}", "changes[0].save_limit: only with save_improve"),
        (
            "{hit_mod: 1, before_allocation: true}",
            "before_allocation: only with damage_reduction or half_damage or damage_set",
        ),
        ("{save_improve: 1}", "save_improve: a target-side change in an attacker-side record"),
        ("{toughness_majority: true}", "a target-side change in an attacker-side record"),
        ("{target_save_worsen: 0}", "Expected `int` >= 1"),
    ],
)
def test_a_change_outside_the_vocabulary_is_refused_naming_the_field(tmp_path, change, message):
    p = _file(
        tmp_path,
        f"""effects:
  - {{id: x, name: X, kind: army, summary: s, side: attacker, changes: [{change}]}}
""",
    )
    with pytest.raises(EffectFileError) as e:
        load_effect_file(p)
    assert str(p) in str(e.value)
    assert message in str(e.value)


def test_ids_are_the_rule_names_slugged():
    assert slug("'Ard as Nails") == "ard-as-nails"
    assert slug("Dat's Our Loot!") == "dats-our-loot"
    assert slug("Martial Ka’tah") == "martial-katah"
    assert slug("Armour of Contempt") == "armour-of-contempt"
    assert key("Fool’s Flight") == key("fools flight")


@pytest.mark.parametrize(
    "change, message",
    [
        ("{save_improve: 1, save_limit: 1}", "Expected `int` >= 2"),
        ("{toughness_majority: true, weapons: melee}", "it takes no weapons"),
        ("{toughness_majority: false}", "write true, or leave the change out"),
        ("{target_save_worsen: 1}", "an attacker-side change in a target-side record"),
    ],
)
def test_a_target_change_outside_the_vocabulary_is_refused(tmp_path, change, message):
    p = _file(
        tmp_path,
        f"""effects:
  - {{id: x, name: X, kind: army, summary: s, side: target, changes: [{change}]}}
""",
    )
    with pytest.raises(EffectFileError) as e:
        load_effect_file(p)
    assert message in str(e.value)


def test_the_new_fields_load(tmp_path):
    """save_improve with save_limit, target_save_worsen, toughness_majority, a mortal-wound
    roll with extra_rolls and psychic, target_has_character."""
    p = _file(
        tmp_path,
        """effects:
  - id: a
    name: A
    kind: army
    summary: s
    side: attacker
    changes:
      - {target_save_worsen: 1}
      - mortal_wounds: {rolls: models, extra_rolls: 2, "on": 4, each: "1", max: 6, psychic: true}
  - id: t
    name: T
    kind: army
    summary: s
    side: target
    when: {target_has_character: true, unit_min_models: 2}
    changes:
      - {save_improve: 1, save_limit: 3}
      - {toughness_majority: true}
""",
    )
    f = load_effect_file(p)
    m = f.effects[0].changes[1].mortal_wounds
    assert (m.extra_rolls, m.psychic, m.max) == (2, True, 6)
    assert f.effects[1].changes[0].save_limit == 3
    assert f.effects[1].when.target_has_character is True


def test_effect_files_are_parsed_by_libyaml_where_pyyaml_has_it():
    """The effect files are read with PyYAML's libyaml loader (CSafeLoader) when PyYAML was
    built with it (about 6x faster), else the pure-Python SafeLoader; both read the shipped
    files the same (a file with anchors, one with quoted "on" keys, curly apostrophes)."""
    from pathlib import Path

    import yaml

    from wh40k_calc.effect_schema import _safe_loader

    want = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader
    assert _safe_loader() is want
    root = Path(__file__).resolve().parents[1] / "effects"
    for name in ("edition-10/chaos-space-marines.yaml", "edition-11/orks.yaml"):
        text = (root / name).read_text(encoding="utf-8")
        assert yaml.load(text, Loader=_safe_loader()) == yaml.safe_load(text), name

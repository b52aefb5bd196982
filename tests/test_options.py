"""The shared option groups: one declaration of each option set, the same options on every
command that takes it, and ``parse_request`` (calc shoot's own parser, for sequence steps)."""

from __future__ import annotations

import pytest

from wh40k_calc.cli import click_command
from wh40k_calc.options import (
    AttackerOptions,
    ConditionOptions,
    EngineOptions,
    ModifierOptions,
    TargetOptions,
    catalog,
)
from wh40k_calc.request import AttackRequest, RequestError, parse_request
from wh40k_calc.selection import AddedAbility, Conditions, Modifiers, Selection, UnitChoice


def _options(command: str) -> dict[str, tuple[tuple[str, ...], str | None]]:
    """Each option of ``calc COMMAND``: its flags and help text."""
    cmd = click_command(command)
    return {p.name: (tuple(p.opts), getattr(p, "help", None)) for p in cmd.params}


def test_groups_mirror_the_selection_types() -> None:
    """Every condition and modifier the Selection knows has exactly one option, same name."""
    assert set(ConditionOptions.option_names()) == set(Conditions.__struct_fields__)
    # --target-stealth is a target option (a sequence step may not set it) kept in Modifiers
    assert "target_stealth" in TargetOptions.option_names()
    assert set(ModifierOptions.option_names()) | {"target_stealth"} == set(
        Modifiers.__struct_fields__
    )


def test_shoot_fight_and_compare_share_the_declarations() -> None:
    shoot, fight, compare = _options("shoot"), _options("fight"), _options("compare")
    assert shoot == fight
    for name in (*ConditionOptions.option_names(), "effect", "datasheets"):
        assert compare[name] == shoot[name], name
    # the engine options are the same options; compare words the help for batch files
    for name in EngineOptions.option_names():
        assert compare[name][0] == shoot[name][0], name


def test_option_names_as_typed() -> None:
    assert ConditionOptions.option_names()["beyond_12"] == "--beyond-12"
    assert TargetOptions.option_names()["target"] == "--target"
    assert AttackerOptions.option_names()["attacker"] == "ATTACKER"
    assert EngineOptions.option_names()["as_json"] == "--json"


def test_changed_lists_options_off_their_default() -> None:
    assert ConditionOptions(cover=True, beyond_12=True).changed() == ["--cover", "--beyond-12"]
    assert ModifierOptions().changed() == []


def test_parse_request_gives_the_typed_groups() -> None:
    req = parse_request(
        ["fight", "boyz", "--models", "20", "--charged", "--hit-mod", "1", "-e", "waaagh"],
        require_target=False,
    )
    assert isinstance(req, AttackRequest)
    assert req.phase == "fight"
    assert req.attacker.attacker == "boyz" and req.attacker.models == 20
    assert req.conditions == ConditionOptions(charged=True)
    assert req.modifiers == ModifierOptions(hit_mod=1)
    assert req.effects == ("waaagh",)
    assert req.target.target is None
    assert req.given_in(TargetOptions, EngineOptions) == []


def test_parse_request_names_the_target_and_engine_options_given() -> None:
    req = parse_request(
        ["shoot", "lootas", "-t", "boyz", "--target-models", "5", "--edition", "10", "--json"],
        require_target=False,
    )
    # given on the command line, even at the default value (--edition 10)
    assert req.given_in(TargetOptions, EngineOptions) == [
        "--target",
        "--target-models",
        "--edition",
        "--json",
    ]


def test_parse_request_refuses_like_calc() -> None:
    with pytest.raises(RequestError, match="--hit-mod"):
        parse_request(["shoot", "lootas", "-t", "boyz", "--hit-mod", "x"])
    with pytest.raises(RequestError, match="--target"):
        parse_request(["shoot", "lootas"])
    with pytest.raises(RequestError, match="No such option"):
        parse_request(["shoot", "lootas", "--sort", "damage"], require_target=False)
    with pytest.raises(RequestError, match="'shoot' or 'fight'"):
        parse_request(["compare", "lootas"])


def test_request_builds_the_selection() -> None:
    cat = catalog(None)
    req = parse_request(
        [
            "shoot",
            "lootas",
            "-t",
            "boyz",
            "--models",
            "10",
            "--stationary",
            "--ap-mod",
            "1",
            "--order",
            "Big shoota, Deffgun",
            "--allocation",
            "Boss Nob",
            "--edition",
            "11",
            "--plunging-fire",
            "--add-ability",
            "Deffgun: sustained hits 1",
            "--target-stealth",
            "--precision-target",
            "Bodyguard",
            "--faction",
            "Orks",
            "--target-faction",
            "orks",
        ]
    )
    want = Selection(
        phase="shooting",
        attacker=UnitChoice(cat.find("lootas", edition="11"), 10),  # edition 11's datasheets
        target=UnitChoice(cat.find("boyz", edition="11")),
        conditions=Conditions(stationary=True, plunging_fire=True),
        modifiers=Modifiers(ap_mod=1, target_stealth=True),
        edition="11",
        order=("Big shoota", "Deffgun"),
        allocation=("Boss Nob",),
        precision_target="bodyguard",
        precision_given=True,
        added_abilities=(AddedAbility("Deffgun", "sustained hits 1"),),
    )
    assert req.selection(cat) == want
    # a sequence step: the sequence supplies the target
    step = parse_request(["shoot", "lootas", "--models", "10"], require_target=False)
    rhino = UnitChoice(cat.find("rhino"))
    assert step.selection(cat, target=rhino).target == rhino

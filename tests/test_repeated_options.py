"""An ``--effect`` or ``--add-ability`` given again where it adds nothing is noted (a fresh-user
trial found ``--effect waaagh --effect waaagh`` applied once without a word): a rule applies once
(core rules: "Each player cannot use the same stratagem more than once in the same phase"; "if a
unit is within range of the same aura ability more than once, that aura ability only applies to
that unit once"), and so does a weapon ability (24.02: "Multiple instances of the same core
ability or weapon ability are not cumulative"). The figures are worked out by hand: the repeat
changes none of them.
"""

from __future__ import annotations

from fractions import Fraction as Fr

from helpers import cli_json
from oracle import approx, shoot, target, weapon, weapon_row
from oracle import attacker as write_attacker

BOYZ_FIGHT = ("fight", "boyz", "--target", "intercessor squad")


def _repeat_notes(out: dict) -> list[str]:
    return [n for n in out["notes"] if " is named " in n and " applies once" in n]


def test_an_effect_named_twice_is_noted_and_applied_once() -> None:
    """Waaagh! (Orks army rule, edition 10): +1 S and +1 A to melee weapons. 9 Choppas (A3
    WS3+ S4) become A4 S5: 36 attacks, 36 x 4/6 = 24 hits, S5 v T4 wounds on 3+: 24 x 4/6 =
    16 wounds, once however often it is named (without it: 27 x 4/6 x 3/6 = 9)."""
    out = cli_json(*BOYZ_FIGHT, "--effect", "waaagh", "--effect", "waaagh")
    choppa = weapon_row(out, "Choppa")
    assert choppa["attacks"] == approx(36) and choppa["wounds"] == approx(16)
    assert out["effects"] == ["waaagh"]
    assert _repeat_notes(out) == [
        "--effect: Waaagh! is named 2 times (waaagh, waaagh): a rule applies once"
    ]
    assert _repeat_notes(cli_json(*BOYZ_FIGHT, "--effect", "waaagh")) == []


def test_names_of_one_rule_written_differently_are_one_rule() -> None:
    """A name with its faction, another case, or one half of a both-sides rule after the whole
    adds nothing: listed in the order given."""
    out = cli_json(
        *BOYZ_FIGHT, "--effect", "waaagh", "--effect", "Orks/Waaagh", "--effect", "attacker:waaagh"
    )
    assert weapon_row(out, "Choppa")["wounds"] == approx(16)
    assert _repeat_notes(out) == [
        "--effect: Waaagh! is named 3 times (waaagh, Orks/Waaagh, attacker:waaagh): a rule "
        "applies once"
    ]


def test_a_second_name_that_adds_an_option_is_no_repeat() -> None:
    """``oath-of-moment`` then ``oath-of-moment:codex-army`` is ``oath-of-moment:codex-army``
    (README, Effects): the second name adds its option, so no note; the other way round the
    second adds nothing. Intercessors' 5 bolt rifles (A2 BS3+ S4) into Boyz (T5), edition 10
    Oath of Moment with codex-army: re-roll the Hit roll, +1 to the Wound roll: 10 x (1 -
    (2/6)^2) = 80/9 hits, 4+ to wound: 40/9 wounds."""
    args = ("shoot", "intercessor squad", "--target", "boyz")
    plain, codex = "oath-of-moment", "oath-of-moment:codex-army"
    first = cli_json(*args, "--effect", plain, "--effect", codex)
    assert weapon_row(first, "Bolt rifle")["wounds"] == approx(Fr(40, 9))
    assert _repeat_notes(first) == []
    second = cli_json(*args, "--effect", codex, "--effect", plain)
    assert weapon_row(second, "Bolt rifle")["wounds"] == approx(Fr(40, 9))
    assert _repeat_notes(second) == [
        f"--effect: Oath of Moment is named 2 times ({codex}, {plain}): a rule applies once"
    ]


def test_an_added_ability_given_twice_is_noted_and_applied_once(tmp_path) -> None:
    """One model with a Gun (A6 BS3+ S4) into T8 (6+ to wound), Lethal Hits: a Critical Hit
    (1/6) wounds automatically, the other hits (3/6) on a 6: 6 x (1/6 + 3/6 x 1/6) = 1.5
    wounds, given once or twice (any case or spacing: the same ability)."""
    a = write_attacker(tmp_path, weapon("Gun", A=6, skill=3, S=4))
    t = target(tmp_path, T=8)
    out = shoot(
        a, t, "--add-ability", "lethal hits", "--add-ability", "Lethal  Hits", dirs=[tmp_path]
    )
    assert weapon_row(out, "Gun")["wounds"] == approx(Fr(3, 2))
    assert _repeat_notes(out) == [
        "--add-ability: 'lethal hits' is named 2 times ('lethal hits', 'lethal hits'): an "
        "ability applies once"
    ]
    once = shoot(a, t, "--add-ability", "lethal hits", dirs=[tmp_path])
    assert _repeat_notes(once) == []


def test_different_added_abilities_are_no_repeat(tmp_path) -> None:
    """[SUSTAINED HITS 1] and [SUSTAINED HITS 2] are two values (the better kept: README),
    and the same ability for every weapon and for one weapon two grants: no note. Sustained
    Hits 2 on A6 BS3+: 6 x (4/6 + 1/6 x 2) = 6 hits (5 with Sustained Hits 1)."""
    a = write_attacker(tmp_path, weapon("Gun", A=6, skill=3, S=4))
    t = target(tmp_path, T=8)
    out = shoot(
        a,
        t,
        "--add-ability",
        "sustained hits 1",
        "--add-ability",
        "sustained hits 2",
        "--add-ability",
        "Gun: sustained hits 2",
        dirs=[tmp_path],
    )
    assert weapon_row(out, "Gun")["hits"] == approx(6)
    assert _repeat_notes(out) == []


def _batch_repeat_notes(tmp_path, text: str) -> list[str]:
    """The repeat notes of the one row of ``calc compare`` on a batch file holding ``text``."""
    batch = tmp_path / "b.yaml"
    batch.write_text(text, encoding="utf-8")
    return _repeat_notes(cli_json("compare", str(batch))[0])


def test_a_mapping_steps_repeat_notes_name_the_steps_field(tmp_path) -> None:
    """The notes are the options' own (``notes.OptionNote``): in a batch file's mapping step,
    which gave the names as its ``effects`` and ``add_abilities``, they name those fields."""
    assert _batch_repeat_notes(
        tmp_path,
        "runs:\n- name: s\n  target: intercessor squad\n  sequence:\n"
        "  - attacker: {name: boyz}\n    phase: fight\n    effects: [waaagh, waaagh]\n"
        "    add_abilities: [lethal hits, lethal hits]\n",
    ) == [
        "step 1: sequence[0].effects: Waaagh! is named 2 times (waaagh, waaagh): a rule "
        "applies once",
        "step 1: sequence[0].add_abilities: 'lethal hits' is named 2 times ('lethal hits', "
        "'lethal hits'): an ability applies once",
    ]


def test_a_runs_repeat_notes_name_its_list_field(tmp_path) -> None:
    """A fresh-user trial: a run's own ``effects: [waaagh, waaagh]`` was noted as
    ``--effect: ...``; the note names the file's list field, as a mapping step's does (and
    ``add_abilities`` likewise)."""
    assert _batch_repeat_notes(
        tmp_path,
        "targets: [intercessor squad]\nruns:\n- name: r\n  phase: fight\n"
        "  attacker: {name: boyz}\n  effects: [waaagh, waaagh]\n"
        "  add_abilities: [lethal hits, lethal hits]\n",
    ) == [
        "effects: Waaagh! is named 2 times (waaagh, waaagh): a rule applies once",
        "add_abilities: 'lethal hits' is named 2 times ('lethal hits', 'lethal hits'): an "
        "ability applies once",
    ]

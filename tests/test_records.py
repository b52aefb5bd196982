"""The records (msgspec Structs) behave as the frozen dataclasses they replaced: equality and
hashing by field values, some fields left out as ``field(compare=False)`` left them out, a
changed copy that runs the checks again, assignment refused (wh40k_calc/records.py)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from msgspec import Struct

from wh40k_calc.profile import AttackProfile, RollTable, TargetStates
from wh40k_calc.records import compared_without, field_defaults, field_names, replace
from wh40k_calc.selection import Modifiers, SelectionError

WOUND = RollTable((0, 0, 0, 1, 1, 1, 2))


def _gun(**kw) -> AttackProfile:
    base = dict(name="gun", models=2, attacks=np.array([0.0, 1.0]), hit=None, wound=WOUND, vs=())
    return AttackProfile(**{**base, **kw})


def test_left_out_fields_take_no_part_in_equality_or_hash() -> None:
    a = _gun()
    b = _gun(attacks=np.array([0.0, 0.0, 1.0]), sustained=np.array([1.0]), choices=("said",))
    assert a == b and hash(a) == hash(b)  # the arrays and the sentences are left out
    assert a != _gun(models=3) and a != _gun(lethal=True)  # every other field counts
    states = TargetStates((), np.zeros((1, 0), dtype=np.int64))
    assert states == TargetStates((), np.zeros((2, 0), dtype=np.int64))


def test_equal_only_within_one_class() -> None:
    class A(Struct, frozen=True):
        x: int
        __eq__, __hash__ = compared_without()

    class B(Struct, frozen=True):
        x: int
        __eq__, __hash__ = compared_without()

    assert A(1) == A(1) and A(1) != B(1) and A(1) != A(2)


def test_a_name_left_out_must_be_a_field() -> None:
    class C(Struct, frozen=True):
        x: int
        __eq__, __hash__ = compared_without("y")

    with pytest.raises(TypeError, match="no field 'y'"):
        C(1) == C(1)  # noqa: B015


def test_replace_runs_the_checks_again_and_refuses_unknown_fields() -> None:
    m = Modifiers()
    assert replace(m, hit_mod=1).hit_mod == 1 and m.hit_mod == 0
    with pytest.raises(SelectionError, match="--hit-mod 9"):
        replace(m, hit_mod=9)
    with pytest.raises(TypeError):
        replace(m, no_such_field=1)


def test_replace_and_field_names_take_dataclasses_too() -> None:
    @dataclass(frozen=True)
    class D:
        x: int
        y: int = 0

    assert replace(D(1), y=2) == D(1, 2)
    assert field_names(D) == ("x", "y")
    assert field_names(Modifiers)[:2] == ("hit_mod", "wound_mod")
    assert field_names(int) is None


def test_a_record_refuses_assignment() -> None:
    with pytest.raises(AttributeError):
        Modifiers().hit_mod = 1  # type: ignore[misc]


def test_field_defaults_of_records_and_dataclasses() -> None:
    @dataclass(frozen=True)
    class D:
        x: int
        y: tuple = ()

    from dataclasses import MISSING

    assert field_defaults(D) == {"x": MISSING, "y": ()}
    got = field_defaults(Modifiers)
    assert list(got) == list(Modifiers.__struct_fields__)
    assert got["hit_mod"] == 0 and got["reroll_hits"] is None and got["half_damage"] is False
    with pytest.raises(TypeError):
        field_defaults(int)

"""The edition protocol (``rules/edition.py``): each edition answers every question it asks,
with the same arguments, and nothing outside ``rules/`` reaches an edition's answers. Also
the house rule of the rules layer: every module opens with a docstring that names the rules
sections it owns (STYLE.md)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from wh40k_calc.rules import edition as protocol
from wh40k_calc.rules import get_rules
from wh40k_calc.rules.edition10 import Edition10
from wh40k_calc.rules.edition11 import Edition11

QUESTIONS = [
    name
    for name, value in vars(protocol.Edition).items()
    if inspect.isfunction(value) and not name.startswith("_")
]
RULES = Path(protocol.__file__).parent


def test_the_protocol_asks_the_questions_the_editions_answer() -> None:
    assert "toughness" in QUESTIONS and "hazard" in QUESTIONS and len(QUESTIONS) >= 15
    answered = {n for n, v in vars(Edition10).items() if inspect.isfunction(v)}
    answered |= {n for n, v in vars(Edition11).items() if inspect.isfunction(v)}
    assert answered == set(QUESTIONS), answered ^ set(QUESTIONS)  # no answer nobody asks


@pytest.mark.parametrize("edition", [Edition10, Edition11])
@pytest.mark.parametrize("question", QUESTIONS)
def test_each_edition_answers_with_the_protocols_arguments(edition, question) -> None:
    asked = inspect.signature(getattr(protocol.Edition, question))
    answer = getattr(edition, question)
    assert list(inspect.signature(answer).parameters) == list(asked.parameters)
    assert answer.__doc__, f"{edition.__name__}.{question} cites no rule"


def test_each_edition_has_its_name() -> None:
    assert (Edition10.name, Edition11.name) == ("10", "11")
    assert get_rules("10").edition.name == "10" and get_rules("11").edition.name == "11"
    assert isinstance(get_rules("11").edition, Edition11)


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_every_rules_module_says_what_it_owns(path: Path) -> None:
    doc = inspect.cleandoc(path.read_text(encoding="utf-8").split('"""')[1])
    assert len(doc) > 60, f"{path.name}: no module docstring"


STEPS = ["attacks", "hit", "wound", "save", "damage", "target", "mortal", "conditions"]


@pytest.mark.parametrize("module", STEPS)
def test_each_step_of_the_attack_sequence_cites_both_editions_sections(module: str) -> None:
    """'Core rules: X' for 10th edition and a section number ('05.01') for edition 11."""
    doc = (RULES / f"{module}.py").read_text(encoding="utf-8").split('"""')[1]
    assert "Core rules:" in doc
    assert re.search(r"\b\d\d\.\d\d\b", doc), module


def test_nothing_outside_the_rules_layer_imports_an_edition() -> None:
    package = RULES.parent
    for path in package.rglob("*.py"):
        if path.parent == RULES:
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"rules\.(edition10|edition11|edition)\b", text), path

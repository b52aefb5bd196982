"""Every weapon ability printed in the 10th-edition export is classified by
wh40k_calc.abilities: a known core ability ("modelled" or "no effect"), or one of the known
datasheet-specific rules ("not modelled"). A new unknown text, or a core ability that falls
into "not modelled", fails here."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from wh40k_calc.abilities import (
    MODELLED,
    NO_EFFECT,
    NOT_MODELLED,
    Ability,
    WeaponAbilities,
    parse_ability,
)
from wh40k_calc.dice import Dice
from wh40k_calc.importers.wahapedia import read_table, weapon_abilities

CSV_DIR = Path(__file__).resolve().parents[2] / "shared/data/wahapedia-10e-2025-07"

# each test skipped (not the module): the summary counts them (conftest.py)
pytestmark = pytest.mark.skipif(
    not (CSV_DIR / "Datasheets_wargear.csv").is_file(),
    reason=f"the CSV export is not here: {CSV_DIR}",
)

# Datasheet-specific rules printed among weapon abilities in the July 2025 export.
EXPECTED_NOT_MODELLED = {
    "bubblechukka",
    "c'tan power",
    "dead choppy",
    "harpooned",
    "hooked",
    "impaled",
    "linked fire",
    "plasma warhead",
    "psychic assassin",
    "reverberating summons",
    "snagged",
}

# Every KEYWORD of an [ANTI-KEYWORD X+] in the export.
EXPECTED_ANTI_KEYWORDS = {
    "CHAOS", "CHARACTER", "DAEMON", "EPIC HERO", "FLY", "INFANTRY", "MONSTER", "PSYKER",
    "TITANIC", "TYRANIDS", "VEHICLE", "WALKER",
}  # fmt: skip


@pytest.fixture(scope="module")
def parsed() -> list[tuple[dict[str, str], list[Ability]]]:
    """Every wargear row with its parsed abilities."""
    rows = read_table(CSV_DIR, "Datasheets_wargear.csv")
    assert len(rows) > 6000
    return [(row, [parse_ability(t) for t in weapon_abilities(row["description"])]) for row in rows]


@pytest.fixture(scope="module")
def texts(parsed) -> dict[str, Ability]:
    """Each distinct (normalised) ability text of the export and its parse."""
    return {a.text: a for _, abilities in parsed for a in abilities}


def test_every_ability_is_classified(parsed) -> None:
    statuses = Counter(a.status for _, abilities in parsed for a in abilities)
    assert set(statuses) <= {MODELLED, NO_EFFECT, NOT_MODELLED}
    assert statuses[MODELLED] > 6000


def test_not_modelled_texts_are_exactly_the_known_datasheet_rules(texts) -> None:
    not_modelled = {t for t, a in texts.items() if a.status == NOT_MODELLED}
    assert not_modelled == EXPECTED_NOT_MODELLED
    assert all(texts[t].key == "datasheet rule" for t in not_modelled)


def test_core_abilities_are_never_not_modelled(texts) -> None:
    for text, ability in texts.items():
        if ability.key != "datasheet rule":
            assert ability.status in (MODELLED, NO_EFFECT), text


def test_weapon_ability_lists_parse(parsed) -> None:
    for row, abilities in parsed:
        weapon = WeaponAbilities.parse(weapon_abilities(row["description"]))
        unmodelled = [a.text for a in abilities if a.status == NOT_MODELLED]
        assert list(weapon.unmodelled) == unmodelled, row["name"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("rapid fire d6+3", "rapid fire", Dice(1, 6, 3)),
        ("rapid fire d3", "rapid fire", Dice(1, 3, 0)),
        ("rapid fire 10", "rapid fire", Dice(0, 6, 10)),
        ("sustained hits d3", "sustained hits", Dice(1, 3, 0)),
        ("sustained hits 2", "sustained hits", Dice(0, 6, 2)),
        ("melta d3", "melta", Dice(1, 3, 0)),
        ("melta 6", "melta", Dice(0, 6, 6)),
        ("anti-epic hero 2+", "anti", ("EPIC HERO", 2)),
        ("anti-infantry 5+", "anti", ("INFANTRY", 5)),
        ("blast", "blast", 1),
        ("one shot", "one shot", None),
        ("assault", "assault", None),
        ("psychic", "psychic", None),
        ("conversion", "conversion", None),
        ("extra attacks", "extra attacks", None),
    ],
)
def test_specific_parses_of_real_texts(texts, text: str, key: str, value: object) -> None:
    assert text in texts, f"{text!r} is no longer in the export"
    ability = parse_ability(text)
    assert (ability.key, ability.value) == (key, value)


def test_upper_case_texts_parse_like_lower_case() -> None:
    assert parse_ability("ANTI-VEHICLE 2+").value == ("VEHICLE", 2)
    assert parse_ability("Sustained Hits D3").value == Dice(1, 3, 0)


def test_every_anti_keyword(texts) -> None:
    anti = {t: a for t, a in texts.items() if a.key == "anti"}
    assert {kw for kw, _ in (a.value for a in anti.values())} == EXPECTED_ANTI_KEYWORDS
    for text, ability in anti.items():
        keyword, x = ability.value
        assert text == f"anti-{keyword.lower()} {x}+"
        assert 2 <= x <= 6
        assert ability.status == MODELLED


def test_anti_keywords_of_every_named_kind() -> None:
    for keyword in sorted(EXPECTED_ANTI_KEYWORDS):
        ability = parse_ability(f"anti-{keyword.lower()} 4+")
        assert (ability.key, ability.value, ability.status) == ("anti", (keyword, 4), MODELLED)

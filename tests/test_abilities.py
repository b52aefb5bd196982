"""Weapon ability texts parsed into the typed fields of WeaponAbilities."""

from __future__ import annotations

import pytest

from wh40k_calc.abilities import (
    MODELLED,
    NO_EFFECT,
    NOT_MODELLED,
    WeaponAbilities,
    parse_ability,
    split_abilities,
)
from wh40k_calc.dice import Dice


def one(text: str) -> WeaponAbilities:
    return WeaponAbilities.parse([text])


# ---------------------------------------------------------------------------------------------
# Abilities with a value


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("rapid fire 1", Dice(0, 6, 1)),
        ("rapid fire 2", Dice(0, 6, 2)),
        ("rapid fire d3", Dice(1, 3, 0)),
        ("rapid fire d6+3", Dice(1, 6, 3)),
        ("Rapid Fire D6 + 3", Dice(1, 6, 3)),
        ("RAPID FIRE 2D6", Dice(2, 6, 0)),
    ],
)
def test_rapid_fire(text: str, dice: Dice) -> None:
    ab = one(text)
    assert ab.rapid_fire == dice
    assert ab.unmodelled == ()
    assert ab.sustained_hits is None and ab.melta is None


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("sustained hits 1", Dice(0, 6, 1)),
        ("sustained hits 2", Dice(0, 6, 2)),
        ("sustained hits d3", Dice(1, 3, 0)),
        ("Sustained Hits D3", Dice(1, 3, 0)),
    ],
)
def test_sustained_hits(text: str, dice: Dice) -> None:
    ab = one(text)
    assert ab.sustained_hits == dice
    assert ab.rapid_fire is None
    assert ab.unmodelled == ()


@pytest.mark.parametrize(
    ("text", "dice"),
    [("melta 2", Dice(0, 6, 2)), ("melta 4", Dice(0, 6, 4)), ("melta d3", Dice(1, 3, 0))],
)
def test_melta(text: str, dice: Dice) -> None:
    ab = one(text)
    assert ab.melta == dice
    assert ab.unmodelled == ()


@pytest.mark.parametrize(("text", "value"), [("blast", 1), ("Blast", 1), ("blast 2", 2)])
def test_blast(text: str, value: int) -> None:
    assert one(text).blast == value


def test_no_blast_by_default() -> None:
    assert WeaponAbilities().blast == 0
    assert one("heavy").blast == 0


@pytest.mark.parametrize(
    ("text", "anti"),
    [
        ("anti-infantry 4+", (("INFANTRY", 4),)),
        ("Anti-Infantry 4+", (("INFANTRY", 4),)),
        ("anti-vehicle 2+", (("VEHICLE", 2),)),
        ("anti-epic hero 2+", (("EPIC HERO", 2),)),
        ("anti-fly 2+", (("FLY", 2),)),
        ("anti-monster 5+", (("MONSTER", 5),)),
    ],
)
def test_anti(text: str, anti: tuple[tuple[str, int], ...]) -> None:
    ab = one(text)
    assert ab.anti == anti
    assert ab.unmodelled == ()


def test_two_anti_keywords_and_the_better_x_kept() -> None:
    ab = WeaponAbilities.parse(["anti-infantry 4+", "anti-vehicle 3+", "anti-infantry 2+"])
    assert dict(ab.anti) == {"INFANTRY": 2, "VEHICLE": 3}
    ab = WeaponAbilities.parse(["anti-infantry 2+", "anti-infantry 5+"])
    assert ab.anti == (("INFANTRY", 2),)


# ---------------------------------------------------------------------------------------------
# Flag abilities

FLAGS = [
    ("lethal hits", "lethal_hits"),
    ("devastating wounds", "devastating_wounds"),
    ("twin-linked", "twin_linked"),
    ("ignores cover", "ignores_cover"),
    ("torrent", "torrent"),
    ("heavy", "heavy"),
    ("hazardous", "hazardous"),
    ("assault", "assault"),
    ("psychic", "psychic"),
    ("one shot", "one_shot"),
    ("precision", "precision"),
    ("extra attacks", "extra_attacks"),
    ("indirect fire", "indirect_fire"),
    ("lance", "lance"),
    ("conversion", "conversion"),
    ("pistol", "pistol"),
]
FLAG_ATTRS = [attr for _, attr in FLAGS]


@pytest.mark.parametrize(("text", "attr"), FLAGS)
def test_flag_ability_sets_only_its_field(text: str, attr: str) -> None:
    ab = one(text)
    assert getattr(ab, attr) is True
    for other in FLAG_ATTRS:
        if other != attr:
            assert getattr(ab, other) is False, other
    assert ab.unmodelled == ()
    assert ab.rapid_fire is None and ab.blast == 0 and ab.anti == ()


@pytest.mark.parametrize(("text", "attr"), FLAGS)
def test_flag_ability_any_case_and_spacing(text: str, attr: str) -> None:
    assert getattr(one("  " + text.upper().replace(" ", "  ") + " "), attr) is True


def test_close_quarters_counts_as_pistol() -> None:
    assert one("close-quarters").pistol is True


def test_default_is_empty() -> None:
    ab = WeaponAbilities()
    assert not any(getattr(ab, a) for a in FLAG_ATTRS)
    assert ab.rapid_fire is None and ab.sustained_hits is None and ab.melta is None
    assert ab.anti == () and ab.unmodelled == ()


# ---------------------------------------------------------------------------------------------
# Unknown text is kept, never dropped


@pytest.mark.parametrize(
    "text",
    ["linked fire", "c'tan power", "harpooned", "snagged", "rapid fire", "sustained hits d7"],
)
def test_unknown_text_goes_to_unmodelled(text: str) -> None:
    ab = one(text)
    assert ab.unmodelled == (text,)
    assert ab.rapid_fire is None and ab.sustained_hits is None
    assert not any(getattr(ab, a) for a in FLAG_ATTRS)


def test_unknown_text_is_normalised_but_kept() -> None:
    ab = one("C\u2019tan  Power")
    assert ab.unmodelled == ("c'tan power",)


def test_unknown_among_known() -> None:
    ab = WeaponAbilities.parse(["heavy", "linked fire", "blast", "snagged"])
    assert ab.heavy and ab.blast == 1
    assert ab.unmodelled == ("linked fire", "snagged")


# ---------------------------------------------------------------------------------------------
# Several sources of one ability; lists


def test_sustained_hits_keeps_the_larger() -> None:
    assert WeaponAbilities.parse(["sustained hits 1", "sustained hits 2"]).sustained_hits == Dice(
        0, 6, 2
    )
    assert WeaponAbilities.parse(["sustained hits 2", "sustained hits 1"]).sustained_hits == Dice(
        0, 6, 2
    )
    # D3 (mean 2) beats 1
    assert WeaponAbilities.parse(["sustained hits 1", "sustained hits d3"]).sustained_hits == Dice(
        1, 3, 0
    )


def test_rapid_fire_and_melta_keep_the_larger() -> None:
    assert WeaponAbilities.parse(["rapid fire 2", "rapid fire 1"]).rapid_fire == Dice(0, 6, 2)
    assert WeaponAbilities.parse(["melta 2", "melta 4"]).melta == Dice(0, 6, 4)


def test_blast_keeps_the_larger() -> None:
    assert WeaponAbilities.parse(["blast 2", "blast"]).blast == 2


def test_with_texts_adds_granted_abilities() -> None:
    base = WeaponAbilities.parse(["sustained hits 2"])
    more = base.with_texts(["sustained hits 1", "lethal hits"])
    assert more.sustained_hits == Dice(0, 6, 2)
    assert more.lethal_hits
    assert not base.lethal_hits  # the original is unchanged (frozen)


def test_comma_separated_list() -> None:
    ab = WeaponAbilities.parse(["anti-infantry 4+, devastating wounds, rapid fire 1"])
    assert ab.anti == (("INFANTRY", 4),)
    assert ab.devastating_wounds
    assert ab.rapid_fire == Dice(0, 6, 1)
    assert ab.unmodelled == ()


def test_period_and_semicolon_separated_list() -> None:
    ab = WeaponAbilities.parse(["assault. torrent", "blast; heavy"])
    assert ab.assault and ab.torrent and ab.heavy and ab.blast == 1
    assert ab.unmodelled == ()


def test_split_abilities() -> None:
    assert split_abilities("blast, heavy") == ["blast", "heavy"]
    assert split_abilities("assault. torrent") == ["assault", "torrent"]
    assert split_abilities(" lethal hits ,, ") == ["lethal hits"]
    assert split_abilities("") == []


# ---------------------------------------------------------------------------------------------
# Classification


@pytest.mark.parametrize(
    ("text", "key", "status"),
    [
        ("rapid fire 2", "rapid fire", MODELLED),
        ("anti-infantry 4+", "anti", MODELLED),
        ("lethal hits", "lethal hits", MODELLED),
        ("assault", "assault", MODELLED),
        ("one shot", "one shot", NO_EFFECT),
        ("linked fire", "datasheet rule", NOT_MODELLED),
    ],
)
def test_parse_ability_status(text: str, key: str, status: str) -> None:
    ab = parse_ability(text)
    assert ab.key == key
    assert ab.status == status
    assert ab.text == text


def test_parse_ability_values() -> None:
    assert parse_ability("anti-epic hero 2+").value == ("EPIC HERO", 2)
    assert parse_ability("blast 2").value == 2
    assert parse_ability("melta 2").value == Dice(0, 6, 2)
    assert parse_ability("sustained hits d3").value == Dice(1, 3, 0)

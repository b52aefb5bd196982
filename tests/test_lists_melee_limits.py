"""Army lists: melee weapons checked against the wargear limits as ranged ones are.

A list names the weapons its models *carry*; a model fights with one melee weapon, but an
option says how many it carries, so 19 choppas on 9 Boys are over the limits however many of
them would fight (the fresh trial: 19 chainswords on 9 Blood Claws, 3 power klaws on one Nob
and 50 choppas on 9 Boys were taken without a word). The figures are from the datasheets
(seeds 001, edition 10): a unit of 10 Boyz is 9 Boys with a choppa each (their options
replace it, none adds one) and a Boss Nob with a big choppa (one option makes it a power
klaw: at most one).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

from wh40k_calc.catalog import Catalog
from wh40k_calc.lists.detect import parse_bytes
from wh40k_calc.lists.model import UnitCountError
from wh40k_calc.lists.resolve import resolve_army

FOOTER = "\n\nExported with App Version: v2.3.0 (1), Data Version: v912\n"


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return Catalog(use_env=False, home=None)


def _boyz(choppas: int, klaws: int = 1) -> bytes:
    """Ten Boyz in the app's text layout (edition 10: no Detachment Points)."""
    head = "T (100 Points)\n\nOrks\nStrike Force (2000 Points)\nWar Horde\n\nOTHER DATASHEETS\n\n"
    unit = (
        "Boyz (80 Points)\n  • 1x Boss Nob\n     ◦ 1x Slugga\n"
        f"     ◦ {klaws}x Power klaw\n"
        f"  • 9x Boy\n     ◦ 9x Slugga\n     ◦ {choppas}x Choppa\n"
    )
    return (head + unit + FOOTER).encode()


@pytest.mark.parametrize(
    ("choppas", "klaws", "why"),
    [
        (9, 1, None),
        (
            10,
            1,
            "this unit of 10 models can carry only 9 of Choppa (Boy ×9); Choppa x10 needs 10",
        ),
        (
            9,
            3,
            "this unit of 10 models can carry only 1 of Power klaw (Boss Nob ×1); "
            "Power klaw x3 needs 3",
        ),
    ],
)
def test_melee_weapons_over_the_wargear_limits(
    cat: Catalog, choppas: int, klaws: int, why: str | None
) -> None:
    r = resolve_army(parse_bytes(_boyz(choppas, klaws), "t"), cat)
    (boyz,) = r.units
    assert boyz.status == "resolved"
    if why is None:
        assert boyz.beyond_options == () and r.complete
    else:
        assert boyz.beyond_options == (why,)
        assert any("over our data's wargear limits" in w for w in boyz.warnings)
        assert not r.complete


@pytest.mark.parametrize("choppas", [11, 19, 50])
def test_more_choppas_than_the_models_could_carry_refuse_the_list(
    cat: Catalog, choppas: int
) -> None:
    """No model of Boyz carries two of one weapon (a Boy: slugga and choppa, or a shoota
    added, or a big shoota or rokkit launcha with a close combat weapon; a Boss Nob: one
    big choppa or power klaw), so 10 models carry at most 10 choppas whatever the options:
    11 is no list that can be on the table and is refused, naming the line, the weapon and
    the bound; 10 (within it, over the finer limit of 9 Boys) is a warning (above)."""
    with pytest.raises(UnitCountError) as exc:
        resolve_army(parse_bytes(_boyz(choppas), "t"), cat)
    assert str(exc.value) == (
        f"line 15: 'Boyz' lists {choppas} of 'Choppa' on 10 models, more than they could carry "
        "under any loadout of Boyz (at most one of a weapon a model: 10); fix the count in "
        "the list"
    )


def test_strict_refuses_melee_weapons_over_the_limits(tmp_path: Path) -> None:
    path = tmp_path / "boyz.txt"
    path.write_bytes(_boyz(10))
    assert cli("army", path, "--show").exit_code == 0
    assert cli("army", path, "--show", "--strict").exit_code == 1
    path.write_bytes(_boyz(9))
    assert cli("army", path, "--show", "--strict").exit_code == 0


def _new_recruit(number: object) -> bytes:
    boy = {
        "name": "Boy",
        "type": "model",
        "number": 9,
        "selections": [{"name": "Choppa", "type": "upgrade", "number": number}],
    }
    unit = {
        "name": "Boyz",
        "type": "unit",
        "number": 1,
        "selections": [boy, {"name": "Boss Nob", "type": "model", "number": 1}],
    }
    roster = {
        "name": "x",
        "costs": [{"name": "pts", "value": 80}],
        "forces": [{"catalogueName": "Xenos - Orks", "selections": [unit]}],
    }
    return json.dumps({"roster": roster}).encode()


def test_a_new_recruit_count_far_beyond_any_option_is_refused_at_once(cat: Catalog) -> None:
    """1e9 choppas on 9 Boys: no wargear option gives a model more than 10 of a weapon (the
    data's most, a Manta's seeker missiles), so a count above 100 a model is refused with
    the reason instead of being dealt out copy by copy (which never finished for 1e9)."""
    r = resolve_army(parse_bytes(_new_recruit(10), "t.json"), cat)
    assert r.units[0].beyond_options == (
        "this unit of 10 models can carry only 9 of Choppa (Boy ×9); Choppa x10 needs 10",
    )
    with pytest.raises(UnitCountError, match=r"1001 of 'Choppa' on 10 models: more than any"):
        resolve_army(parse_bytes(_new_recruit(1001), "t.json"), cat)  # 100 a model: 1000
    with pytest.raises(UnitCountError, match=r"lists 50 of 'Choppa' on 10 models, more than"):
        resolve_army(parse_bytes(_new_recruit(50), "t.json"), cat)  # any loadout: 10

"""A weapon ability in a datasheet that is a misspelling of a core ability is a validation
error naming the file and field with "did you mean" (a fresh-user trial: ``lethal hitz`` and
``sustained hit 1`` ran as "not modelled" datasheet rules, and ``calc units --check`` called the
file valid); an ability like no core one stays a datasheet rule, reported as not modelled.

The cutoff is measured against the shipped data: every shipped datasheet of both editions is
loaded by test_datasheets_shipped.py, test_generated.py and test_generated_11.py, so a shipped
ability near a core name would fail those; here the shipped ones that are no core ability
are checked here by name too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli, write_datasheet

from wh40k_calc.abilities import misspelt_ability, parse_ability
from wh40k_calc.datasheet import DatasheetError, load_datasheet

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("lethal hitz", "lethal hits"),
        ("Lethal Hitz", "lethal hits"),
        ("sustained hit 1", "sustained hits 1"),
        ("sustained hit", "sustained hits X"),
        ("rapid fir d3", "rapid fire d3"),
        ("devastating wound", "devastating wounds"),
        ("twin linked", "twin-linked"),
        ("ignore cover", "ignores cover"),
        ("blst", "blast"),
        ("hevy 2", "heavy"),  # heavy takes no value
        ("anti infantry 4+", "anti-infantry 4+"),
        ("lethal hitz: vehicle", "lethal hits: vehicle"),
        # short forms, word by word (a second fresh-user trial: these ran as datasheet rules)
        ("sustained 1", "sustained hits 1"),
        ("lethal", "lethal hits"),
        ("dev wounds", "devastating wounds"),
        ("rapid 2", "rapid fire 2"),
        ("twin", "twin-linked"),
        ("extra", "extra attacks"),
    ],
)
def test_a_misspelling_names_the_core_ability(written: str, meant: str) -> None:
    assert misspelt_ability(written) == meant
    assert parse_ability(meant.replace(" X", " 1")).status != "not modelled"


@pytest.mark.parametrize(
    "text",
    # the shipped data's own weapon rules that are no core ability (the closest to a core
    # name: linked fire ~ rapid fire, 67; psychic assassin ~ psychic, 61), a core ability
    # itself, one with a word of no core ability, and short forms of several ("hits": lethal
    # or sustained; "fire": rapid or indirect)
    ["linked fire", "psychic assassin", "c'tan power", "snagged", "harpooned", "bubblechukka",
     "reverberating summons", "dead choppy", "impaled", "hooked", "overcharge",
     "lethal hits", "sustained hits 2", "zap hits", "hits", "fire 2"],
)  # fmt: skip
def test_a_rule_of_its_own_is_no_misspelling(text: str) -> None:
    assert misspelt_ability(text) is None


def _sheet(tmp_path: Path, abilities: list[str]) -> Path:
    gun = {"name": "Gun", "range": 24, "A": 2, "skill": 4, "S": 4, "AP": 0, "D": 1}
    return write_datasheet(tmp_path, "Testers", [{**gun, "abilities": abilities}])


def test_the_datasheet_is_refused_naming_file_and_field(tmp_path: Path) -> None:
    path = _sheet(tmp_path, ["lethal hitz, sustained hit 1"])
    with pytest.raises(DatasheetError) as err:
        load_datasheet(path)
    assert str(err.value) == (
        f"{path}: weapons[0] (Gun).abilities[0]: 'lethal hitz' is not an ability we know; "
        "did you mean 'lethal hits'?"
    )
    path = _sheet(tmp_path, ["heavy", "sustained hit 1"])
    with pytest.raises(DatasheetError, match=r"abilities\[1\]: .*'sustained hits 1'"):
        load_datasheet(path)


def test_units_check_lists_the_file_and_a_run_refuses_it(tmp_path: Path) -> None:
    _sheet(tmp_path, ["lethal hitz"])
    check = cli("units", "--check", dirs=[tmp_path], env={"COLUMNS": "300"})
    assert check.exit_code == 1
    assert "did you mean 'lethal hits'" in check.output and "1 invalid" in check.output
    run = cli("shoot", "testers", "--target", "boyz", dirs=[tmp_path])
    assert run.exit_code == 1 and "did you mean 'lethal hits'" in run.output


def test_a_rule_of_its_own_still_runs_as_not_modelled(tmp_path: Path) -> None:
    _sheet(tmp_path, ["linked fire"])
    run = cli("shoot", "testers", "--target", "boyz", dirs=[tmp_path])
    assert run.exit_code == 0, run.output
    assert "[linked fire] (datasheet rule, not modelled)" in run.output


def test_units_check_warns_of_an_ability_like_none(tmp_path: Path) -> None:
    """An ability of a user's file like no core one ("zap hits") runs as the datasheet's own
    rule, not modelled; ``calc units --check`` calls the file valid but warns, in text and in
    JSON (exit code 0). The warning names the ability's entry, as an error does
    (``abilities[1]``: the second item of the list, "heavy, zap hits"; the fresh-user trial
    found ``abilities`` alone)."""
    path = _sheet(tmp_path, ["assault", "heavy, zap hits"])
    check = cli("units", "--check", dirs=[tmp_path], env={"COLUMNS": "300"})
    assert check.exit_code == 0, check.output
    assert "warning: weapons[0] (Gun).abilities[1]: 'zap hits' is no core ability" in check.output
    assert check.output.rstrip().endswith("checked, all valid, 1 warning")
    out = json.loads(cli("units", "--check", "--json", dirs=[tmp_path]).stdout)
    assert out["invalid"] == []
    assert [(w["file"], w["warning"][:52]) for w in out["warnings"]] == [
        (str(path), "weapons[0] (Gun).abilities[1]: 'zap hits' is no core")
    ]


def test_units_check_warns_of_a_unit_rule_no_effect_file_names(tmp_path: Path) -> None:
    """A ``rules:`` entry of a user's file that no effect file of either edition names (a
    fresh-user trial: ``rules: [flibbertigibbet]`` passed ``--check`` silently and ran as a
    unit rule not modelled) is warned of, with the closest names; an id, a printed name
    (any case or punctuation) or another edition's rule are known and not warned of."""
    gun = {"name": "Gun", "range": 24, "A": 1, "skill": 3, "S": 4, "AP": 0, "D": 1}
    write_datasheet(
        tmp_path,
        "Rule Testers",
        [gun],
        rules=["dats-our-lot", "dats-our-loot", "Dat's Our Loot!", "flibbertigibbet"],
    )
    check = cli("units", "--check", dirs=[tmp_path], env={"COLUMNS": "300"})
    assert check.exit_code == 0, check.output
    assert "warning: rules[0]: 'dats-our-lot' is no unit rule of the effect files; did you " \
        "mean 'dats-our-loot'?" in check.output  # fmt: skip
    assert "warning: rules[3]: 'flibbertigibbet' is no unit rule of the effect files (" in (
        check.output
    )
    assert "rules[1]" not in check.output and "rules[2]" not in check.output
    assert check.output.rstrip().endswith("checked, all valid, 2 warnings")
    run = cli("shoot", "rule testers", "--target", "boyz", dirs=[tmp_path])
    assert run.exit_code == 0 and "unit rule 'flibbertigibbet' of Rule Testers" in run.output


def test_units_check_fits_a_narrow_terminal(tmp_path: Path) -> None:
    """A second fresh-user trial: at 30 columns the summary line ran past the edge (every
    other line of ``calc units --check`` was wrapped)."""
    _sheet(tmp_path, ["assault", "zap hits"])
    check = cli("units", "--check", dirs=[tmp_path], env={"COLUMNS": "30"})
    assert check.exit_code == 0, check.output
    lines = check.output.rstrip("\n").splitlines()
    assert all(len(ln) <= 30 for ln in lines), lines
    assert " ".join(" ".join(lines).split()).endswith("checked, all valid, 1 warning")

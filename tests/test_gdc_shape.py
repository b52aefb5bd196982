"""A malformed edition-11 faction file never gives a traceback (trial defect 1): the importer
checks the shape of what it reads (``wh40k_calc.importers.gdc_shape``) and ``calc data update``
refuses, in one line naming the file, the datasheet and the field, a faction file with a
datasheet it cannot generate; the data in use stays as it was.

The property test mutates one or two fields of a small faction file built here (Boyz: a Boy
and a Boss Nob, a ranged and a melee weapon, abilities, an invulnerable save, a damaged
profile, a Leader text, wargear options, points and an added cost) into arbitrary JSON values
and checks that the generator raises nothing but its own ``ImportFailure`` (each naming the
file, and each refused datasheet named), and that an update from such a file either succeeds
or is an ``UpdateError``.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

import pytest
from helpers import cli
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wh40k_calc.importers.export import ImportFailure
from wh40k_calc.importers.generate_gdc import generate_gdc
from wh40k_calc.updates import UpdateError, run
from wh40k_calc.updates.run import update
from wh40k_calc.updates.sources import Source


def _text(s: str) -> dict:
    return {"en": s}


def _profile(name: str, range_: str, a: str, skill: str, s: str, ap: str, d: str) -> dict:
    return {"name": _text(name), "range": range_, "attacks": a, "skill": skill,
            "strength": s, "ap": ap, "damage": d, "keywords": ["Pistol"]}  # fmt: skip


def _stat(name: str, w: str) -> dict:
    return {"name": _text(name), "m": '6"', "t": "5", "sv": "5+", "w": w, "ld": "7+", "oc": "2"}


def faction(version: int = 913) -> dict:
    """A small Orks faction file of the game-datacards shape: one datasheet, Boyz."""
    boyz = {
        "name": _text("Boyz"),
        "keywords": [_text("Infantry"), _text("Mob")],
        "factions": ["Orks"],
        "stats": [_stat("Boy", "1"), _stat("Boss Nob", "2")],
        "composition": [_text("**1 Boss Nob**"), _text("**9-19 Boyz**")],
        "loadout": _text("**Every model is equipped with:** slugga; choppa."),
        "rangedWeapons": [{"profiles": [_profile("Slugga", '12"', "1", "5+", "4", "0", "1")]}],
        "meleeWeapons": [{"profiles": [_profile("Choppa", "Melee", "3", "3+", "4", "-1", "1")]}],
        "abilities": {
            "core": [{"name": _text('Scouts 6"')}],
            "faction": [{"name": _text("Waaagh!")}],
            "other": [{"name": _text("Ere We Go"), "description": _text("re-roll charges")}],
            "wargear": [{"name": _text("Bosspole"), "description": _text("a pole")}],
            "invul": {"value": "6+", "info": _text("")},
            "damaged": {"range": _text("1-3"), "description": _text("worse")},
        },
        "leader": _text("This model can be attached to: Boyz"),
        "wargear": [_text("The Boss Nob's choppa can be replaced with a big choppa.")],
        "wargearOptions": [
            {"instruction": _text("Default Wargear"), "options": [{"name": _text("Slugga")}]}
        ],
        "points": [
            {"cost": "80", "models": "10", "keyword": None, "detachment": None},
            {"cost": "160", "models": "20", "keyword": None, "detachment": None},
        ],
        "additionalCost": {"cost": "10", "afterSelections": 1},
    }
    return {
        "id": "orks-id",
        "name": "Orks",
        "source": "40k-11e",
        "compatibleDataVersion": version,
        "updated": "2026-09-01T00:00:00Z",
        "parent_name": None,
        "rules": {"army": [{"name": _text("Waaagh!"), "rules": [{"text": _text("shout")}]}]},
        "datasheets": [boyz],
    }


def _paths(value: object, path: tuple = ()) -> list[tuple]:
    """Every path to a field or list item of a JSON value."""
    out = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


PATHS = _paths(faction())
# values a faction file may hold in the wrong place: the other JSON types, and texts that are
# not numbers where numbers are read
ODD = st.sampled_from(["abc", "", "-", "N/A", "D", "2D", "0+", "99+", "D6+D3", "1e999",
                       "NaN", "\x00", "**", "\u2011", "-7"])  # fmt: skip
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats() | st.text(max_size=8)
    | ODD,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=4,
)  # fmt: skip


def _mutated(changes: list[tuple[tuple, object]]) -> dict:
    """The faction file with each (path, value) set in turn (a path under one already replaced
    is left out)."""
    data = faction()
    for path, value in changes:
        here = data
        try:
            for key in path[:-1]:
                here = here[key]
            here[path[-1]] = copy.deepcopy(value)
        except (KeyError, IndexError, TypeError):
            continue
    return data


def _write(folder: Path, data: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "orks.json").write_text(json.dumps(data, allow_nan=True), encoding="utf-8")
    return folder


def test_the_file_built_here_generates_with_no_refusal(tmp_path: Path) -> None:
    report = generate_gdc(_write(tmp_path / "src", faction()))
    assert [r.reason for r in report.refused] == [] and len(report.index) == 1


@pytest.mark.parametrize(
    ("path", "value", "said"),
    [
        (("stats", 0, "t"), "abc", "stats[0].t is 'abc', not a number"),
        (("stats", 1, "w"), "", "stats[1].w is '', not a number"),
        (("stats", 0, "sv"), "good", "stats[0].sv is 'good', not a number or '-'"),
        (("stats", 0, "oc"), True, "stats[0].oc: true or false where a whole number or a text"),
        (("stats",), 5, "stats: a whole number where a list belongs"),
        (("abilities", "core"), None, "abilities.core: null where a list belongs"),
        (("rangedWeapons", 0, "profiles", 0), "x", "rangedWeapons[0].profiles[0]: a text where"),
        (("points", 0, "keyword"), 3, "points[0].keyword: a whole number where a text or an"),
    ],
)
def test_a_field_of_the_wrong_shape_refuses_the_datasheet_naming_it(
    tmp_path: Path, path: tuple, value: object, said: str
) -> None:
    report = generate_gdc(_write(tmp_path, _mutated([(("datasheets", 0, *path), value)])))
    [refused] = report.refused
    assert (refused.file, refused.name) == ("orks.json", "Boyz")
    assert refused.reason.startswith("orks.json: Boyz: " + said), refused.reason


def test_a_malformed_top_is_refused_naming_the_field(tmp_path: Path) -> None:
    for path, value, said in (
        (("datasheets", 0), 3, "datasheets[0]: a whole number where an object belongs"),
        (("rules", "army"), "x", "rules.army: a text where a list belongs"),
        (("rules", "army", 0, "rules", 0), [], "rules.army[0].rules[0]: a list where an object"),
    ):
        with pytest.raises(ImportFailure, match=r"orks\.json: " + said.replace("[", r"\[")):
            generate_gdc(_write(tmp_path / str(len(path)), _mutated([(path, value)])))


def test_the_trial_s_update_is_one_error_line_and_changes_nothing(tmp_path: Path) -> None:
    """The trial's case: a Boy's ``"t": "abc"`` in the file an update is given."""
    folder = _write(tmp_path / "dl", _mutated([(("datasheets", 0, "stats", 0, "t"), "abc")]))
    result = cli("data", "update", "--from", str(folder))
    assert result.exit_code == 1
    err = result.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err == (
        f"error: {folder / 'orks.json'}: the datasheet 'Boyz' cannot be read: stats[0].t is "
        "'abc', not a number; --force updates without it; the data in use is unchanged"
    )
    shown = json.loads(cli("show", "boyz", "--edition", "11", "--json").stdout)
    assert shown["data"]["version"] == 912  # the shipped data, still in use


def test_with_force_the_others_are_taken_and_the_refused_one_named(tmp_path: Path) -> None:
    data = faction()
    other = copy.deepcopy(data["datasheets"][0])
    other["name"] = _text("Beast Snagga Boyz")
    other["stats"][0]["w"] = "many"
    data["datasheets"].append(other)
    folder = _write(tmp_path / "dl", data)
    out = cli("data", "update", "--from", str(folder), "--force")
    assert out.exit_code == 0, out.stderr
    said = " ".join(out.stdout.split())
    assert "Not generated: 1 datasheet: Beast Snagga Boyz (orks.json):" in said
    assert "stats[0].w is 'many', not a number" in said


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), JSON), min_size=1, max_size=2))
@example([(("datasheets", 0, "keywords"), True)])  # found by this test: a traceback once
@example([(("datasheets", 0, "factions"), 7)])
def test_any_mutation_is_an_import_failure_or_a_set(changes: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _write(Path(tmp), _mutated(changes))
        try:
            report = generate_gdc(folder)
        except ImportFailure as exc:
            assert "orks.json" in str(exc) or "no faction file here" in str(exc)
            return
        for r in report.refused:
            assert r.file == "orks.json" and r.reason


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(changes=st.lists(st.tuples(st.sampled_from(PATHS), JSON), min_size=1, max_size=2))
def test_an_update_from_any_mutation_succeeds_or_is_refused(
    changes: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the file's one datasheet stands for the whole faction (not a faction mostly removed)
    monkeypatch.setattr(run, "MAX_REMOVED_SHARE", 1.0)
    with tempfile.TemporaryDirectory() as tmp:
        folder = _write(Path(tmp) / "dl", _mutated(changes))
        home = Path(tmp) / "home"
        try:
            done = update(Source(folder=folder), home)
        except UpdateError as exc:
            assert "\n" not in str(exc)
            assert not (home / "datasheets-11").exists()  # nothing was swapped in
            return
        assert done.refused == ()

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
import yaml
from helpers import cli
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wh40k_calc.importers.export import ImportFailure
from wh40k_calc.importers.generate_gdc import generate_gdc
from wh40k_calc.importers.generate_gdc import main as generate_gdc_main
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
                       "NaN", "\x00", "**", "\u2011", "-7", "-5", "0", "ten", "1.5"])  # fmt: skip
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
        (("stats", 0, "t"), "abc", "stats[0].t is 'abc', not a whole number of 1 or more"),
        (("stats", 1, "w"), "", "stats[1].w is '', not a whole number of 1 or more"),
        (("stats", 0, "sv"), "good", "stats[0].sv is 'good', not a roll (3+) or '-'"),
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


POINTS = "not a number of points (a whole number, 1 or more)"
ONE_UP = "not a whole number of 1 or more"
DICE = f"{ONE_UP} or dice (D6+1)"
SLUGGA = ("rangedWeapons", 0, "profiles", 0)


@pytest.mark.parametrize(
    ("path", "value", "said"),
    [
        # the fresh trial's cases: points, a number of models, an added cost
        (("points", 0, "cost"), "-5", f"points[0].cost is '-5', {POINTS}"),
        (("points", 0, "cost"), -5, f"points[0].cost is -5, {POINTS}"),
        (("points", 0, "cost"), "0", f"points[0].cost is '0', {POINTS}"),
        (("points", 1, "cost"), "abc", f"points[1].cost is 'abc', {POINTS}"),
        (("points", 1, "cost"), None, "points[1].cost: null where a whole number or a text"),
        (("points", 0, "models"), "0", "points[0].models is '0', not a number of models (a whole "
         "number, 1 or more)"),
        (("points", 0, "models"), 2.5, "points[0].models: a number where a whole number or a"),
        (("additionalCost",), {"cost": "ten"}, f"additionalCost.cost is 'ten', {POINTS}"),
        (("additionalCost",), {"cost": "10"}, "additionalCost has no 'afterSelections'"),
        (("additionalCost", "afterSelections"), 0,
         f"additionalCost.afterSelections is 0, {ONE_UP}"),
        (("additionalCost", "cost"), "", f"additionalCost.cost is '', {POINTS}"),
        # statline numbers
        (("stats", 0, "t"), "0", f"stats[0].t is '0', {ONE_UP}"),
        (("stats", 1, "w"), -2, f"stats[1].w is -2, {ONE_UP}"),
        (("stats", 1, "w"), "-2", f"stats[1].w is '-2', {ONE_UP}"),
        (("stats", 0, "ld"), "0+", "stats[0].ld is '0+', not a roll (7+)"),
        (("stats", 0, "sv"), "-3+", "stats[0].sv is '-3+', not a roll (3+) or '-'"),
        (("stats", 0, "oc"), -1, "stats[0].oc is -1, not a whole number or '-'"),
        # weapon numbers
        ((*SLUGGA, "attacks"), "abc", f"{SLUGGA[0]}[0].profiles[0].attacks is 'abc', {DICE}"),
        ((*SLUGGA, "attacks"), "0", f"{SLUGGA[0]}[0].profiles[0].attacks is '0', {DICE}"),
        ((*SLUGGA, "damage"), "-1", f"{SLUGGA[0]}[0].profiles[0].damage is '-1', {DICE}"),
        ((*SLUGGA, "strength"), "strong", f"{SLUGGA[0]}[0].profiles[0].strength is 'strong',"),
        ((*SLUGGA, "ap"), "abc", "rangedWeapons[0].profiles[0].ap is 'abc', not an AP (0, -1"),
        ((*SLUGGA, "ap"), 2, "rangedWeapons[0].profiles[0].ap is 2, not an AP (0, -1"),
        ((*SLUGGA, "ap"), "2", "rangedWeapons[0].profiles[0].ap is '2', not an AP (0, -1"),
        ((*SLUGGA, "damage"), None, "rangedWeapons[0].profiles[0].damage: null where a whole"),
        ((*SLUGGA, "range"), "far", "rangedWeapons[0].profiles[0].range is 'far', not a range"),
        ((*SLUGGA, "range"), '0"', "rangedWeapons[0].profiles[0].range is '0\"', not a range"),
        ((*SLUGGA, "skill"), "good", "rangedWeapons[0].profiles[0].skill is 'good', not a roll"),
        (("meleeWeapons", 0, "profiles", 0, "damage"), 0,
         f"meleeWeapons[0].profiles[0].damage is 0, {DICE}"),
        (("abilities", "invul", "value"), "abc",
         "abilities.invul.value is 'abc', not an invulnerable save (2+ to 6+) or '-'"),
        (("abilities", "invul", "value"), "1+", "abilities.invul.value is '1+', not an"),
        # beyond the datasheet format's bounds, named as the data names the field
        (("stats", 0, "t"), "25", "stats[0].t is '25', out of range (1 to 20)"),
        (("stats", 1, "w"), 500, "stats[1].w is 500, out of range (1 to 200)"),
        (("stats", 0, "ld"), "13+", "stats[0].ld is '13+', out of range (2 to 12)"),
        (("stats", 0, "sv"), "1+", "stats[0].sv is '1+', out of range (2 to 7)"),
        (("stats", 0, "oc"), "150", "stats[0].oc is '150', out of range (0 to 100)"),
        ((*SLUGGA, "strength"), "99", f"{SLUGGA[0]}[0].profiles[0].strength is '99', out of range"),
        ((*SLUGGA, "ap"), "-9", "rangedWeapons[0].profiles[0].ap is '-9', out of range (-6 to 0)"),
        ((*SLUGGA, "skill"), "7+", "rangedWeapons[0].profiles[0].skill is '7+', out of range (2"),
        (("points", 0, "cost"), "999999", "points[0].cost is '999999', out of range (0 to 100000)"),
        (("additionalCost", "afterSelections"), 500,
         "additionalCost.afterSelections is 500, out of range (1 to 100)"),
    ],
)  # fmt: skip
def test_a_number_that_is_not_one_or_out_of_range_refuses_the_datasheet(
    tmp_path: Path, path: tuple, value: object, said: str
) -> None:
    """Before, these were taken (a size of 1 Boss Nob for ``models: "0"``), dropped with a
    note in the file's header (a points line, an added cost, a weapon) or refused only by the
    datasheet format, naming its own field (``sizes[1].points``) instead of the data's."""
    report = generate_gdc(_write(tmp_path, _mutated([(("datasheets", 0, *path), value)])))
    assert [(r.file, r.name) for r in report.refused] == [("orks.json", "Boyz")]
    [refused] = report.refused
    assert refused.reason.startswith("orks.json: Boyz: " + said), refused.reason
    assert refused.why == refused.reason.removeprefix("orks.json: Boyz: ")


def _generated(folder: Path) -> dict:
    report = generate_gdc(folder)
    assert report.refused == []
    [text] = report.files.values()
    return yaml.safe_load(text)


@pytest.mark.parametrize(
    ("path", "value", "field", "want"),
    [
        ((*SLUGGA, "attacks"), "D6+1", ("weapons", 0, "A"), "D6+1"),
        ((*SLUGGA, "attacks"), 2, ("weapons", 0, "A"), 2),
        ((*SLUGGA, "damage"), "2D6", ("weapons", 0, "D"), "2D6"),
        ((*SLUGGA, "ap"), "-", ("weapons", 0, "AP"), 0),
        ((*SLUGGA, "ap"), -2, ("weapons", 0, "AP"), -2),
        ((*SLUGGA, "range"), 18, ("weapons", 0, "range"), 18),
        (("points", 0, "cost"), 85, ("sizes", 0, "points"), 85),
        (("points", 0, "cost"), " 90 ", ("sizes", 0, "points"), 90),
        (("additionalCost",), {"cost": 20, "afterSelections": "2"}, ("additional_cost",),
         {"points": 20, "after": 2}),
        (("stats", 0, "t"), 6, ("models", 0, "T"), 6),  # the Boy (first: the most of them)
        (("stats", 0, "sv"), "-", ("models", 0, "Sv"), 7),
    ],
)  # fmt: skip
def test_numbers_in_the_forms_the_data_writes_are_read(
    tmp_path: Path, path: tuple, value: object, field: tuple, want: object
) -> None:
    data = _generated(_write(tmp_path, _mutated([(("datasheets", 0, *path), value)])))
    for key in field:
        data = data[key]
    assert data == want


def test_a_random_strength_is_still_a_weapon_not_modelled_not_a_refusal(tmp_path: Path) -> None:
    data = _generated(_write(tmp_path, _mutated([(("datasheets", 0, *SLUGGA, "strength"), "D6")])))
    assert [w["name"] for w in data["weapons"]] == ["Choppa"]
    assert any("Slugga" in n for n in data["not_modelled"]["attacker"])


def test_make_datasheets_11_lists_the_datasheet_as_refused_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The shipped generation runs the same check (``make datasheets-11`` is this ``main``)."""
    folder = _write(tmp_path / "src", _mutated([(("datasheets", 0, "points", 0, "models"), "0")]))
    assert generate_gdc_main(["--gdc", str(folder), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "0 datasheets of 1 faction files (data 913)" in out
    assert (
        "  refused: Boyz (orks.json): orks.json: Boyz: points[0].models is '0', not a number of "
        "models (a whole number, 1 or more)\n"
    ) in out


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
        "'abc', not a whole number of 1 or more; --force updates without it; the data in use is "
        "unchanged"
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
    assert "(orks.json): stats[0].w is 'many', not a whole number of 1 or more." in said


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


# A number field, the bounds a value must be within (the lowest the game has, the highest the
# datasheet format holds), the trailing marks the data may write after it, and where the
# datasheet generated from it shows the value (None: the points of the size of that many
# models). The file built here: points[0] is 80 points for 10 models, points[1] 160 for 20;
# stats[0] is the Boy (models[0] of the datasheet, the most numerous), stats[1] the Boss Nob.
NUMBERS = {
    ("points", 0, "cost"): (1, 100_000, "", ("cost",)),
    ("points", 0, "models"): (1, 101, "", None),  # the format: at most 100 Boyz and the Nob
    ("additionalCost", "cost"): (1, 100_000, "", ("additional_cost", "points")),
    ("additionalCost", "afterSelections"): (1, 100, "", ("additional_cost", "after")),
    ("stats", 0, "t"): (1, 20, '+"*', ("models", 0, "T")),
    ("stats", 1, "w"): (1, 200, '+"*', ("models", 1, "W")),
}
FORMS = ["{}", " {} ", "{}+", '{}"', "{}*", "0{}", "{}.0", "{} pts", "+{}"]
VALUES = (
    st.builds(lambda n, form: form.format(n), st.integers(-50, 300), st.sampled_from(FORMS))
    | st.integers(-50, 300)
    | st.sampled_from([None, True, False, 1.5, 10.0, [], {}])
    | ODD
)


def _read_by_hand(value: object, marks: str) -> int | None:
    """The whole number a value stands for, read here without the importer: a JSON whole
    number, or a text of ASCII digits (spaces around it, one trailing mark of ``marks``)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    if isinstance(value, int):
        return value
    t = value.strip()
    if t and t[-1] in marks:
        t = t[:-1].rstrip()
    return int(t) if t.isascii() and t.isdigit() else None


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(NUMBERS)), VALUES)
@example(("points", 0, "cost"), "-5")  # the fresh trial's cases
@example(("points", 0, "models"), "0")
@example(("points", 0, "cost"), "abc")
@example(("additionalCost", "cost"), "ten")
def test_a_number_is_read_as_written_or_the_datasheet_is_refused(
    path: tuple, value: object
) -> None:
    """The independent reading (:func:`_read_by_hand`) decides: a number within the bounds
    is generated as that number, anything else refuses the datasheet naming the field."""
    low, high, marks, where = NUMBERS[path]
    number = _read_by_hand(value, marks)
    with tempfile.TemporaryDirectory() as tmp:
        report = generate_gdc(_write(Path(tmp), _mutated([(("datasheets", 0, *path), value)])))
    field = ".".join(str(k) for k in path).replace(".0", "[0]").replace(".1", "[1]")
    if number is None or not low <= number <= high:
        [refused] = report.refused
        assert refused.name == "Boyz", refused
        # too many models is the format's bound on one model's count (the Boyz), not the data's
        too_many = path[-1] == "models" and number is not None and number > high
        named = (f"orks.json: Boyz: {field} is {value!r}, ", f"orks.json: Boyz: {field}: ")
        assert refused.reason.startswith(named) or (
            too_many and "does not fit the datasheet format" in refused.reason
        ), refused.reason
        return
    assert report.refused == [], (value, report.refused)
    [text] = report.files.values()
    data = yaml.safe_load(text)
    if where is None:  # a number of models: a size of that many, at the line's 80 points
        sizes = data["sizes"] + data.get("dropped_sizes", [])
        assert (number, 80) in [(sum(z["models"].values()), z["points"]) for z in sizes]
    elif where == ("cost",):
        [ten] = [z for z in data["sizes"] if sum(z["models"].values()) == 10]
        assert ten["points"] == number
    else:
        for key in where:
            data = data[key]
        assert data == number

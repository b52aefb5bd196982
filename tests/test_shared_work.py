"""Work shared between the runs of a batch (issue 21, batches): weapon profiles made once for
other unit sizes and loadouts (``rules.attacks.shared_profile``), exact outcomes resolved once
per activation (``resolve.exact_outcome``), and runs written alike given one set of jobs
(``compare.jobs``). Each shared result is checked against the one made afresh, with nothing
kept (the oracle: the same code with its sharing switched off), on selections that differ in
exactly what a key must tell apart."""

from __future__ import annotations

import dataclasses
import itertools
import shlex
from pathlib import Path

import numpy as np
import pytest

from wh40k_calc import resolve as resolve_module
from wh40k_calc.batch import load_batch
from wh40k_calc.catalog import Catalog
from wh40k_calc.compare import jobs_from_batch
from wh40k_calc.compare.jobs import Job, RunError
from wh40k_calc.engine.exact import ExactUnsupported, run_exact
from wh40k_calc.options import catalog
from wh40k_calc.profile import MortalWounds
from wh40k_calc.records import replace
from wh40k_calc.request import parse_request
from wh40k_calc.resolve import exact_outcome, resolve
from wh40k_calc.rules import attacks, get_rules, reads

# Selections in an order where a later one finds profiles an earlier one kept: other sizes and
# loadouts of one unit, every condition a profile reads, both editions, Leaders on either
# side, a damaged single model, MONSTER/VEHICLE shooting while engaged.
COMMANDS = [
    "shoot boyz --models 10 -t intercessor-squad",
    "shoot boyz --models 20 -t intercessor-squad",
    "shoot boyz --models 20 --loadout big-shoota -t intercessor-squad",
    "shoot boyz --models 20 --loadout big-shoota -t intercessor-squad --half-range",
    "shoot boyz --models 20 --loadout big-shoota -t intercessor-squad --cover",
    "shoot boyz --models 10 --loadout rokkit-launcha -t intercessor-squad --stationary",
    "shoot boyz --models 10 --loadout rokkit-launcha -t leman-russ-battle-tank --stationary",
    "shoot boyz --models 20 -t intercessor-squad --hit-mod 1 --reroll-wounds ones",
    "shoot boyz --models 20 -t intercessor-squad --overwatch",
    "shoot boyz --models 20 -t intercessor-squad --engaged",
    "shoot boyz --models 20 -t intercessor-squad --target-engaged",
    "shoot boyz --models 10 --leader warboss -t intercessor-squad",
    "shoot boyz --models 10 -t intercessor-squad --target-leader captain",
    "fight boyz --models 10 -t intercessor-squad",
    "fight boyz --models 20 -t intercessor-squad --charged",
    "fight boyz --models 20 --loadout power-klaw -t intercessor-squad",
    "fight boyz --models 20 --loadout power-klaw -t terminator-squad",
    "shoot lootas --models 5 -t boyz",
    "shoot lootas --models 10 -t boyz",
    "shoot lootas --models 10 --loadout kustom-mega-blastas -t boyz --half-range",
    "shoot cadian-shock-troops --models 10 --loadout plasma-gun-meltagun -t carnifexes",
    "shoot cadian-shock-troops --models 20 --loadout plasma-gun-meltagun -t carnifexes",
    "shoot cadian-shock-troops --models 20 --loadout plasma-gun-meltagun -t carnifexes "
    "--half-range",
    "shoot leman-russ-battle-tank -t intercessor-squad",
    "shoot leman-russ-battle-tank -t intercessor-squad --wounds-left 3",
    "shoot leman-russ-battle-tank -t intercessor-squad --engaged",
    "shoot armiger-warglaive -t boyz --target-models 20",
    "shoot lootas --models 5 -t boyz --edition 11",
    "shoot lootas --models 10 -t boyz --edition 11",
    "shoot lootas --models 10 -t boyz --edition 11 --cover",
    "shoot lootas --models 10 -t boyz --edition 11 --plunging-fire",
    "fight boyz --models 10 -t boyz --edition 11",
    "fight boyz --models 20 -t boyz --edition 11 --charged",
]


def _selection(cat, line: str):
    return parse_request(shlex.split(line)).selection(cat)


def _profiles(sel) -> list:
    """Every option's weapon profiles of ``sel`` (each group's every option, each variant)."""
    plan = get_rules(sel.edition).plan(sel)
    out = []
    for i, g in enumerate(plan.groups):
        for j in range(len(g.options)):
            picks = tuple(j if k == i else 0 for k in range(len(plan.groups)))
            for v in range(max(1, len(plan.variants))):
                out += list(plan.build(picks, v, None).weapons)
    return out


def _same_profiles(a: list, b: list, line: str) -> None:
    assert len(a) == len(b), line
    for x, y in zip(a, b, strict=True):
        assert x == y, (line, x.name)  # every field but the arrays and the sentences
        assert x.models == y.models, (line, x.name)
        np.testing.assert_array_equal(x.attacks, y.attacks, err_msg=line)
        assert (x.sustained is None) == (y.sustained is None), line
        if x.sustained is not None:
            np.testing.assert_array_equal(x.sustained, y.sustained, err_msg=line)
        assert x.choices == y.choices, line


def test_shared_profiles_are_the_profiles_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    cat = catalog(None)
    sels = [_selection(cat, line) for line in COMMANDS]
    attacks._SHARED.clear()
    shared = [_profiles(s) for s in sels]
    assert len(attacks._SHARED) < sum(map(len, shared))  # something was shared
    monkeypatch.setattr(attacks, "shared_key", lambda *args: None)  # nothing shared
    attacks._SHARED.clear()
    for line, s, got in zip(COMMANDS, sels, shared, strict=True):
        _same_profiles(got, _profiles(s), line)


# Each condition a profile reads through one ability only, first without it and then with it,
# on a weapon without that ability (its profile kept, shared) and on one with it (made again).
CONDITION_COMMANDS = [
    "shoot boyz --models 20 -t intercessor-squad",
    "shoot boyz --models 10 -t intercessor-squad --stationary --half-range",
    "shoot boyz --models 20 -t intercessor-squad --add-ability 'Slugga: heavy'",
    "shoot boyz --models 20 -t intercessor-squad --add-ability 'Slugga: heavy' --stationary",
    "shoot boyz --models 20 -t intercessor-squad --add-ability 'Slugga: rapid fire 1'",
    "shoot boyz --models 20 -t intercessor-squad --add-ability 'Slugga: rapid fire 1' --half-range",
    "shoot boyz --models 20 -t intercessor-squad --add-ability 'Slugga: melta 2'",
    "shoot boyz --models 20 -t intercessor-squad --add-ability 'Slugga: melta 2' --half-range",
    "fight boyz --models 20 -t intercessor-squad",
    "fight boyz --models 10 -t intercessor-squad --charged",
    "fight boyz --models 20 -t intercessor-squad --add-ability 'Choppa: lance'",
    "fight boyz --models 20 -t intercessor-squad --add-ability 'Choppa: lance' --charged",
    "shoot lootas --models 5 -t boyz --edition 11",
    "shoot lootas --models 5 -t boyz --edition 11 --stationary",
    "shoot boyz --models 20 -t intercessor-squad --add-ability 'Slugga: conversion'",
    "shoot boyz --models 20 -t intercessor-squad --add-ability 'Slugga: conversion' --beyond-12",
]


def _shared_and_fresh(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> list[tuple]:
    """(line, profiles made with sharing, profiles made afresh) of each of ``lines``."""
    cat = catalog(None)
    sels = [_selection(cat, line) for line in lines]
    attacks._SHARED.clear()
    shared = [_profiles(s) for s in sels]
    with monkeypatch.context() as m:
        m.setattr(attacks, "shared_key", lambda *args: None)  # nothing shared
        fresh = [_profiles(s) for s in sels]
    attacks._SHARED.clear()
    return list(zip(lines, shared, fresh, strict=True))


def test_profiles_shared_across_conditions_they_do_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[tuple] = []  # the profiles made while sharing
    making, sharing = attacks.attack_profile, attacks.shared_key

    def counted(s, w, *args, **kwargs):
        if attacks.shared_key is sharing:
            made.append((s.sel.conditions, w.name))
        return making(s, w, *args, **kwargs)

    monkeypatch.setattr(attacks, "attack_profile", counted)
    for line, shared, fresh in _shared_and_fresh(monkeypatch, CONDITION_COMMANDS):
        _same_profiles(shared, fresh, line)
    # the second run's Slugga (no [HEAVY], [RAPID FIRE] or [MELTA]) was the first's
    first, second = (_selection(catalog(None), x).conditions for x in CONDITION_COMMANDS[:2])
    assert (first, "Slugga") in made
    assert (second, "Slugga") not in made


@pytest.mark.parametrize("condition", [r.condition for r in reads.read_through("10")])
def test_each_condition_read_through_an_ability_tells_profiles_apart(
    monkeypatch: pytest.MonkeyPatch, condition: str
) -> None:
    """With the ability that reads ``condition`` taken as reading nothing (its row of the
    table emptied), some weapon with it gets a profile made without the condition: the
    sharing would be wrong."""
    wrong = {
        e: tuple(
            dataclasses.replace(r, abilities=()) if r.condition == condition else r for r in rows
        )
        for e, rows in reads._THROUGH.items()
    }
    monkeypatch.setattr(reads, "_THROUGH", wrong)
    pairs = _shared_and_fresh(monkeypatch, CONDITION_COMMANDS)
    assert any(
        len(a) != len(b) or any(x != y for x, y in zip(a, b, strict=True)) for _, a, b in pairs
    )


def test_a_kept_profile_serves_another_size_with_its_own_count() -> None:
    cat = catalog(None)
    attacks._SHARED.clear()
    small = _profiles(_selection(cat, "shoot boyz --models 10 -t intercessor-squad"))
    large = _profiles(_selection(cat, "shoot boyz --models 20 -t intercessor-squad"))
    slugga_small = next(p for p in small if p.name == "Slugga")
    slugga_large = next(p for p in large if p.name == "Slugga")
    # 9 Boyz and the Boss Nob with a slugga, or 19 and the Nob (the datasheet's default)
    assert (slugga_small.models, slugga_large.models) == (10, 20)
    assert replace(slugga_small, models=20) == slugga_large


# ---- exact outcomes kept per activation -----------------------------------------------------


def _activation(line: str):
    return resolve(_selection(catalog(None), line), "exact").activation


def test_an_activation_is_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def counted(act, *args, **kwargs):
        calls.append(act)
        return run_exact(act, *args, **kwargs)

    act = _activation("shoot lootas --models 10 -t boyz --stationary")
    monkeypatch.setattr(resolve_module, "run_exact", counted)
    resolve_module._OUTCOMES.clear()
    first = exact_outcome(act)
    again = exact_outcome(replace(act, notes=("a note the engine never reads",)))
    assert len(calls) == 1 and again.expected is first.expected  # one run, its figures shared
    assert not first.models_destroyed_distribution.flags.writeable  # shared: read-only
    fresh = run_exact(act)
    np.testing.assert_array_equal(
        first.models_destroyed_distribution, fresh.models_destroyed_distribution
    )
    assert first.expected == fresh.expected


def test_reading_a_damage_distribution_leaves_the_kept_one_to_compute() -> None:
    """Each caller gets its own copy of the kept Outcome: reading its lazy damage distribution
    computes it there, and the next caller still finds it to compute (the sequence's figure
    budget charges only such figures, so it must not depend on what ran before)."""
    act = _activation("shoot lootas --models 10 -t boyz")
    resolve_module._OUTCOMES.clear()
    first = exact_outcome(act)
    np.testing.assert_allclose(first.damage_distribution, run_exact(act).damage_distribution)
    assert callable(exact_outcome(act).__dict__["_damage"])


def test_no_kept_outcome_serves_another_activation(monkeypatch: pytest.MonkeyPatch) -> None:
    act = _activation("shoot lootas --models 10 -t boyz")
    w = act.weapons[0]
    more = replace(w, attacks=np.convolve(w.attacks, [0.0, 1.0]))  # one attack more each
    other = replace(act, weapons=(more, *act.weapons[1:]))
    assert other == act  # the record's equality leaves the arrays out: the key does not
    start = replace(act, start=act.start)
    resolve_module._OUTCOMES.clear()
    exact_outcome(act)
    got = exact_outcome(other)
    want = run_exact(other)
    assert got.expected == want.expected
    assert got.expected["attacks"] > exact_outcome(start).expected["attacks"]


def test_mortal_wounds_before_the_attacks_tell_activations_apart() -> None:
    act = _activation("shoot lootas --models 10 -t boyz")
    one = replace(act, before=(MortalWounds("grenade", np.array([0.0, 1.0])),))
    three = replace(act, before=(MortalWounds("grenade", np.array([0.0, 0.0, 0.0, 1.0])),))
    assert one == three  # the record's equality leaves the count out: the key does not
    resolve_module._OUTCOMES.clear()
    exact_outcome(one)
    got = (
        exact_outcome(three).expected["mortal_wounds"]
        - exact_outcome(act).expected["mortal_wounds"]
    )
    assert got == pytest.approx(3.0)  # 3 mortal wounds, each on a Boy of W1 (no FNP)


def test_a_refusal_is_kept_and_raised_again(monkeypatch: pytest.MonkeyPatch) -> None:
    act = _activation("shoot lootas --models 10 -t boyz")
    once = replace(act, weapons=(replace(act.weapons[0], reroll_one_damage=True),))
    resolve_module._OUTCOMES.clear()
    with pytest.raises(ExactUnsupported) as first:
        exact_outcome(once)
    monkeypatch.setattr(resolve_module, "run_exact", lambda *a, **k: pytest.fail("ran again"))
    with pytest.raises(ExactUnsupported) as again:
        exact_outcome(once)
    assert str(again.value) == str(first.value)


def test_a_refusal_under_another_budget_does_not_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's admission budget is read when it runs, so it is part of the key: a refusal
    kept while the budget was lower (here 1e-9 s: every selection declined) leaves the same
    activation resolved under the usual budget, with the figures of a fresh run."""
    from wh40k_calc.engine import work

    act = _activation("shoot lootas --models 10 -t boyz")
    resolve_module._OUTCOMES.clear()
    with monkeypatch.context() as tight:
        tight.setattr(work, "STATE_SECONDS", 1e-9)
        with pytest.raises(ExactUnsupported):
            exact_outcome(act)
    got = exact_outcome(act)
    assert got.expected == run_exact(act).expected


def test_given_orders_probabilities_tell_activations_apart() -> None:
    """The defender's orders given to the engine come back in the Outcome's ``policy`` with
    their P(n, m) (the report's allocation sentences read them): two activations whose orders
    differ only in those probabilities (which the policy's equality leaves out) get each its
    own."""
    line = "shoot lootas --models 10 -t boyz --target-models 20 --target-leader warboss"
    act = _activation(f"{line} --edition 11")
    policy = run_exact(act).policy
    assert policy is not None and any(p is not None for p in policy.probabilities)
    flat = tuple(None if p is None else np.full_like(p, 1.0 / p.size) for p in policy.probabilities)
    other = replace(policy, probabilities=flat)
    assert other == policy  # the record's equality leaves the probabilities out: the key does not
    resolve_module._OUTCOMES.clear()
    exact_outcome(replace(act, policy=policy))
    got = exact_outcome(replace(act, policy=other)).policy
    assert got is not None
    for given, back in zip(flat, got.probabilities, strict=True):
        assert (given is None and back is None) or np.array_equal(given, back)


# ---- runs written alike ---------------------------------------------------------------------

ALIKE = """\
title: alike
runs:
  - name: first
    attacker: {name: lootas, models: 10}
    target: boyz
  - name: second
    attacker: {name: lootas, models: 10}
    target: boyz
  - attacker: {name: lootas, models: 10}
    target: boyz
  - name: first
    attacker: {name: lootas, models: 10}
    target: boyz
  - name: twice
    attacker: {name: lootas, models: 10}
    targets:
      - boyz
      - boyz
  - name: twice again
    attacker: {name: lootas, models: 10}
    targets:
      - boyz
      - boyz
  - name: bad
    attacker: {name: lootas, models: 10, loadout: nope}
    target: boyz
  - name: bad again
    attacker: {name: lootas, models: 10, loadout: nope}
    target: boyz
"""


def test_runs_alike_share_their_jobs_each_with_its_name_and_line(tmp_path: Path) -> None:
    path = tmp_path / "alike.yaml"
    path.write_text(ALIKE, encoding="utf-8")
    items = jobs_from_batch(load_batch(path), Catalog([], use_env=False))
    jobs = [i for i in items if isinstance(i, Job)]
    errors = [i for i in items if isinstance(i, RunError)]
    assert [j.run for j in jobs[:3]] == ["first", "second", "lootas x10"]
    assert [j.line for j in jobs[:3]] == [3, 6, 9]  # each run's own line
    assert jobs[1].selection is jobs[0].selection  # one set of jobs, renamed
    # a name given twice is refused for the later run, alike or not
    assert any(e.run == "first" and "name used by runs[0]" in e.message for e in errors)
    # targets told apart by their lines: each run's own
    twice = [j.target_label for j in jobs if j.run.startswith("twice")]
    assert twice == ["boyz (line 17)", "boyz (line 18)", "boyz (line 22)", "boyz (line 23)"]
    bad = [e for e in errors if e.run in ("bad", "bad again")]
    assert [e.line for e in bad] == [25, 28]  # its own attacker field: never shared


# ---- unit facts found once: keywords, bearers, faction tiers --------------------------------


def _units(cat) -> list:
    """The built attacker and target of every selection of COMMANDS (Leaders on either side,
    single models, VEHICLE and MONSTER units), and each attacker with its Leader taken away
    and its models cut (replaced units: new objects that must not inherit a kept fact)."""
    from wh40k_calc.rules.activation import built_units

    out = []
    for line in COMMANDS:
        att, tgt = built_units(_selection(cat, line))
        out += [att, tgt, replace(att, datasheets=att.datasheets[:1], groups=att.groups[-1:])]
    return out


def test_unit_keywords_kept_are_those_found_afresh() -> None:
    """The oracle: the union of the datasheets' and the models' keywords, written out here."""
    for unit in _units(catalog(None)):
        for _ in range(2):  # found, then kept
            fresh = frozenset().union(
                *(ds.keywords | ds.faction_keywords for ds in unit.datasheets),
                *(g.profile.keywords for g in unit.all_groups),
            )
            assert unit.keywords == fresh, unit.name


def test_kept_bearers_are_those_found_afresh() -> None:
    from wh40k_calc.rules import when

    units = _units(catalog(None))
    kept = [when.bearer_groups(u) for u in units]
    assert [when.bearer_groups(u) for u in units] == kept  # now from what was kept
    for unit, got in zip(units, kept, strict=True):
        assert got == when._bearer_groups(unit), unit.name
        assert got <= {id(g) for g in unit.all_groups}, unit.name  # the unit's own groups
    with_leader = next(u for u in units if len(u.datasheets) > 1)
    cut = replace(with_leader, datasheets=with_leader.datasheets[1:])  # another unit object
    assert when.bearer_groups(cut) == when._bearer_groups(cut)


def test_kept_faction_tiers_are_those_found_afresh_and_each_call_gets_its_own() -> None:
    from wh40k_calc import effect_files

    cat = catalog(None)
    effect_files._TIERS.clear()
    units = _units(cat)
    cases = [(ds.faction or "", u.keywords) for u in units for ds in u.datasheets]
    first = [effect_files.faction_tiers(f, k) for f, k in cases]
    for got in first:
        got["changed by a caller"] = 9
    for f, k in cases:
        again = effect_files.faction_tiers(f, k)  # kept
        assert again == effect_files._faction_tiers(f, k) == effect_files._faction_tiers(f, set(k))


# ---- target profiles made once per target -----------------------------------------------------

# Against the same targets, in an order where each selection after the first of its target
# differs from an earlier one in one part of the target profile's key: the phase, --invuln,
# --allocation, --precision-target, whether some weapon has [PRECISION], the edition; the
# conditions and the attacker (not in the key) vary too.
TARGET_COMMANDS = [
    "shoot boyz --models 10 -t intercessor-squad",
    "shoot lootas --models 5 -t intercessor-squad --cover --half-range",
    "shoot boyz --models 10 -t intercessor-squad --invuln 4",
    "shoot boyz --models 10 -t intercessor-squad --allocation 'Intercessor Sergeant'",
    "fight boyz --models 20 -t intercessor-squad --charged",
    "shoot boyz --models 10 -t intercessor-squad --target-leader captain",
    "shoot boyz --models 10 -t intercessor-squad --target-leader captain "
    "--add-ability 'Slugga: precision'",
    "shoot boyz --models 10 -t intercessor-squad --target-leader captain "
    "--add-ability 'Slugga: precision' --precision-target bodyguard",
    "shoot boyz --models 10 -t intercessor-squad --target-leader captain "
    "--add-ability 'Slugga: precision' --precision-target Captain",
    "fight boyz --models 10 -t intercessor-squad --target-leader captain",
    "shoot boyz --models 10 -t boyz --target-leader warboss --edition 11",
    "fight boyz --models 10 -t boyz --target-leader warboss --edition 11",
    "fight boyz --models 10 -t boyz --target-leader warboss --edition 11 --invuln 5",
    "shoot boyz --models 10 -t boyz --target-leader warboss",
    "shoot lootas --models 10 -t leman-russ-battle-tank --stationary",
    "fight boyz --models 10 -t leman-russ-battle-tank",
]


# edition 11 groups models by their invulnerable save against the attacks resolved (05.03):
# a unit whose models have a 4+ against ranged attacks only, beside models with none, is two
# groups against shooting and one in a fight
MIXED_COMMANDS = [
    "shoot boyz --models 10 -t mixed-guard --edition 11",
    "fight boyz --models 10 -t mixed-guard --edition 11",
]


def _mixed_unit(folder: Path) -> Path:
    from oracle import model, write_unit

    shielded = model("Shielded", invuln=4, invuln_ranged_only=True)
    write_unit(folder, "mixed-guard", models=[(shielded, 5), (model("Plain"), 5)])
    return folder


def _target_calls(monkeypatch: pytest.MonkeyPatch, folder: Path) -> list[tuple]:
    """(situation, precise, parts) of every target profile TARGET_COMMANDS' (and
    MIXED_COMMANDS', with the unit in ``folder``) plans ask for, with the kept parts shared
    (each command planned after the ones before it)."""
    from wh40k_calc.rules import activation, target

    calls: list[tuple] = []

    def recording(s, precise):
        calls.append((s, precise, target.target_profile(s, precise)))
        return calls[-1][2]

    monkeypatch.setattr(activation, "target_profile", recording)
    target._SHARED.clear()
    cat, mixed = catalog(None), catalog([_mixed_unit(folder)], edition="11")
    lines = [(cat, line) for line in TARGET_COMMANDS] + [(mixed, x) for x in MIXED_COMMANDS]
    for c, line in lines:
        sel = _selection(c, line)
        get_rules(sel.edition).plan(sel)
    return calls


def _same_parts(a: tuple, b: tuple) -> bool:
    return all(x == y for x, y in zip(a, b, strict=True))


def test_shared_target_profiles_are_those_made_afresh(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from wh40k_calc.rules import target

    calls = _target_calls(monkeypatch, tmp_path)
    kept = len(target._SHARED)
    assert 0 < kept < len(calls)  # something was shared
    for s, precise, got in calls:
        fresh = target.made_target_profile(s, precise)
        assert _same_parts(got, fresh), (s.sel.phase, s.target.name)
        got[0].append("changed by a caller")  # each caller has its own lists
        got[2].clear()
    for s, precise, _ in calls:  # the kept parts are untouched
        assert _same_parts(
            target.target_profile(s, precise), target.made_target_profile(s, precise)
        )
    assert len(target._SHARED) == kept


def test_every_part_of_the_target_key_tells_profiles_apart(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """For each part of the key but the unit's identity, two of TARGET_COMMANDS' targets
    whose keys differ only there have different profiles: a key without that part would hand
    one the other's (the test above would fail)."""
    from wh40k_calc.rules import target

    calls = _target_calls(monkeypatch, tmp_path)
    keyed = [(k, got) for s, p, got in calls if (k := target.shared_key(s, p)) is not None]
    # the parts (by index) each check drops: without [PRECISION] the precision target is
    # not read (None in the key), so "precise" differs together with it
    parts = {"phase": [2], "invuln": [3], "allocation": [4], "precision target": [5]}
    parts["precise"] = [5, 6]
    for name, drop in parts.items():

        def rest(key: tuple, drop: list[int] = drop) -> tuple:
            return tuple(x for i, x in enumerate(key) if i not in drop)

        apart = [
            (a, b)
            for (ka, a), (kb, b) in itertools.combinations(keyed, 2)
            if rest(ka) == rest(kb) and ka != kb
        ]
        assert any(not _same_parts(a, b) for a, b in apart), name


# ---- wound counts shared across target sizes (engine/memo.py) --------------------------------


def test_wound_counts_are_shared_across_target_sizes_as_far_as_blast_allows() -> None:
    """A weapon's wound counts read the target's models when selected only through Blast's
    extra attacks (one per five models): without Blast one kept result serves every size, with
    it one per bracket of five; each the counts made afresh (``wound_joint``, nothing kept),
    asked for in an order where a key without the bracket would hand 9 models the counts of
    5 and 10 those of 9."""
    from profiles import Kind, weapon

    from wh40k_calc.engine import memo
    from wh40k_calc.engine.exact import _trim_tails
    from wh40k_calc.engine.wounds import joint_cost, wound_joint

    ks = (Kind(W=1, Sv=4),)
    plain = weapon(ks, "plain", models=3, A="D6")
    blast = weapon(ks, "blast", models=3, A="D6", blast=True)
    sizes = [5, 9, 10, 14, 15, 1, 20]
    memo.clear()
    for ap in (plain, blast):
        for n in sizes:
            p2, meta = memo.joint(ap, n, _trim_tails)
            fresh, fresh_meta = wound_joint(ap, n)
            np.testing.assert_array_equal(p2, _trim_tails(fresh))
            assert meta == fresh_meta
            assert memo.cost(ap, n) == joint_cost(ap, n)
    # one entry for the plain weapon, one per bracket (0, 1, 2, 3, 4 fives) for the Blast one
    assert memo._joint.cache_info().currsize == 1 + len({n // 5 for n in sizes})
    # the brackets differ indeed: a key that dropped them would fail above
    assert not np.array_equal(wound_joint(blast, 9)[0], wound_joint(blast, 10)[0])
    memo.clear()


# ---- the table's part of the contract object (report.table_json) ----------------------------


def _subset(full: dict, part: dict) -> dict:
    """``full`` cut to the keys of ``part`` (nested dicts too)."""
    return {
        k: _subset(full[k], v) if isinstance(v, dict) and isinstance(full[k], dict) else full[k]
        for k, v in part.items()
    }


def test_table_objects_are_the_contract_objects_parts() -> None:
    """``report.table_json`` (what a batch's table and CSV read) gives each of its keys as
    ``to_json`` does, on selections with Leaders on either side, a damaged single model,
    choices, notes and both editions."""
    from wh40k_calc.report import TABLE_KEYS, table_json, to_json

    cat = catalog(None)
    lines = [
        *COMMANDS,
        "shoot leman-russ-battle-tank -t land-raider --target-wounds-left 5",
        "shoot boyz --models 10 -t intercessor-squad --stationary --cover --half-range",
    ]
    for line in lines:
        r = resolve(_selection(cat, line))
        part = table_json(r)
        assert tuple(part) == TABLE_KEYS, line
        assert part == _subset(to_json(r, damage=False), part), line


BOTH = """\
title: table parts
runs:
  - attacker: {name: lootas, models: 10}
    targets: [boyz, intercessor-squad]
    conditions: [stationary]
  - attacker: {name: boyz, models: 10}
    target: intercessor-squad
    conditions: [stationary, cover, half-range]
  - attacker: {name: boyz, models: 20, leader: warboss}
    phase: fight
    target: {name: intercessor-squad, leader: captain}
  - attacker: {name: leman-russ-battle-tank}
    target: {name: land-raider, wounds_left: 5}
  - attacker: {name: cadian-shock-troops, models: 10, loadout: plasma-gun-meltagun}
    target: carnifexes
    method: both
    trials: 200
  - attacker: {name: lootas, models: 5}
    target: boyz
    edition: 11
"""


@pytest.mark.parametrize("args", [(), ("--csv", "-"), ("--explain",)])
def test_a_batch_reads_the_same_from_table_objects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    """The table, the CSV and ``--explain`` of a batch are the same whether its rows hold
    ``table_json``'s objects or the whole contract objects (the oracle: no cut-down object)."""
    from typer.testing import CliRunner

    from wh40k_calc.cli import app
    from wh40k_calc.compare import jobs as jobs_module
    from wh40k_calc.report import to_json

    path = tmp_path / "both.yaml"
    path.write_text(BOTH, encoding="utf-8")
    env = {"COLUMNS": "120"}
    cut = CliRunner().invoke(app, ["compare", str(path), "--jobs", "1", *args], env=env)
    monkeypatch.setattr(jobs_module, "_table_object", lambda r: to_json(r, damage=False))
    whole = CliRunner().invoke(app, ["compare", str(path), "--jobs", "1", *args], env=env)
    assert cut.exit_code == whole.exit_code == 0, cut.output
    assert cut.stdout == whole.stdout and cut.stderr == whole.stderr


# ---- hashes kept (msgspec ``cache_hash``) ----------------------------------------------------


def test_records_whose_hash_is_kept_hash_as_their_values() -> None:
    """The records a batch hashes again and again (weapons and their abilities, dice, roll
    tables, target models, conditions, modifiers, model kinds and groups) keep their hash:
    equal records made apart hash alike, a changed copy (``replace``) hashes as a record made
    with that value, and a record whose hash was kept never answers for another in a dict."""
    from wh40k_calc.rules.activation import built_units
    from wh40k_calc.selection import Conditions

    cat = catalog(None)
    att, _ = built_units(_selection(cat, "shoot boyz --models 20 -t intercessor-squad"))
    again, _ = built_units(_selection(cat, "shoot boyz --models 10 -t intercessor-squad"))
    pairs = list(zip(att.groups, again.groups, strict=False))
    assert pairs
    for g, g2 in pairs:
        for w, w2 in zip(g.weapons, g2.weapons, strict=True):
            assert w == w2
            assert hash(w) == hash(w2) and hash(w.abilities) == hash(w2.abilities)
    w = att.groups[0].weapons[0]
    hash(w)
    stronger = replace(w, S=w.S + 1)
    assert hash(stronger) == hash(replace(replace(w, S=w.S + 2), S=w.S + 1))
    kept = {w: "as written", stronger: "stronger"}
    assert kept[replace(stronger, S=w.S)] == "as written"
    cond = Conditions(stationary=True)
    hash(cond)
    moved = replace(cond, stationary=False)
    assert moved == Conditions() and hash(moved) == hash(Conditions())
    seen = {cond: "stationary", Conditions(): "none"}
    assert seen[replace(Conditions(), stationary=True)] == "stationary"
    assert seen[moved] == "none"


def test_a_plain_copy_of_an_outcome_holds_what_replace_would() -> None:
    """``Outcome.replaced()`` without changes (each caller's copy of a kept exact outcome) holds
    the very values ``dataclasses.replace`` puts in a copy, its damage distribution still to
    compute, and computing it in the copy leaves the kept one to compute."""
    import dataclasses

    cat = catalog(None)
    act = resolve(_selection(cat, "shoot lootas --models 10 -t boyz")).activation
    kept = run_exact(act)
    copy = kept.replaced()
    made = dataclasses.replace(kept, damage_distribution=kept.__dict__["_damage"])
    assert copy is not kept and copy.__dict__.keys() == made.__dict__.keys()
    assert all(copy.__dict__[k] is made.__dict__[k] for k in made.__dict__)
    assert callable(copy.__dict__["_damage"])
    np.testing.assert_allclose(copy.damage_distribution.sum(), 1.0)
    assert callable(kept.__dict__["_damage"])


# ---- no notes worked out where none is shown (calc compare --csv) ----------------------------


def test_a_plan_without_notes_builds_the_same_activations() -> None:
    """``resolve(sel, words=False)`` (the CSV's: no note shown) makes the very activation,
    choices and figures of ``resolve(sel)``, its notes a part of the full ones (the oracle:
    the same selection with every note worked out)."""
    from wh40k_calc.report import table_json

    cat = catalog(None)
    lines = [
        *COMMANDS,
        "shoot boyz --models 10 -t intercessor-squad --stationary --cover --half-range",
        "shoot cadian-shock-troops --models 10 --loadout plasma-gun-flamer -t boyz --cover",
    ]
    for line in lines:
        sel = _selection(cat, line)
        full, bare = resolve(sel), resolve(sel, words=False)
        assert bare.activation == full.activation, line
        assert bare.choices == full.choices, line
        assert set(bare.notes) <= set(full.notes), line
        a, b = table_json(full), table_json(bare)
        for k in ("attacker", "target", "expected", "kill_table", "attacker_losses"):
            assert a[k] == b[k], (line, k)
    assert any(
        len(resolve(_selection(cat, line), words=False).notes)
        < len(resolve(_selection(cat, line)).notes)
        for line in lines
    )  # some note was left out indeed


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batch_csv_is_the_same_without_notes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """``--csv`` (whose jobs work out no note) writes what it writes with every note worked
    out (the oracle: ``Job.notes`` left True)."""
    from typer.testing import CliRunner

    from wh40k_calc.cli import app
    from wh40k_calc.compare import command

    path = tmp_path / "both.yaml"
    path.write_text(BOTH, encoding="utf-8")
    args = ["compare", str(path), "--csv", "-", "--jobs", jobs]
    bare = CliRunner().invoke(app, args)
    real = command._without_detail
    monkeypatch.setattr(command, "_without_detail", lambda items, notes=True: real(items))
    real_jobs = command._jobs
    monkeypatch.setattr(command, "_jobs", lambda *a: real_jobs(*a[:5], True))
    full = CliRunner().invoke(app, args)
    assert bare.exit_code == full.exit_code == 0, bare.output
    assert bare.stdout == full.stdout and bare.stderr == full.stderr


# ---- plans shared across a condition they cannot read (rules.unread) -------------------------


def _invocatus(cat, rules: bool = True, horn: tuple[str, ...] = ("extra attacks", "lance")):
    """Lord Invocatus's datasheet, its unit rules (Bloody Stampede reads the charge) kept or
    not, its Bladed horn with the abilities ``horn`` (its own: [LANCE])."""
    from wh40k_calc.abilities import WeaponAbilities

    ds = cat.find("lord-invocatus")
    weapons = tuple(
        replace(w, abilities=WeaponAbilities.parse(list(horn)), ability_texts=horn)
        if w.name == "Bladed horn"
        else w
        for w in ds.weapons
    )
    return replace(ds, weapons=weapons, rules=ds.rules if rules else ())


def _charge_pairs(cat) -> list[tuple[str, object, object, bool]]:
    """(case, selection without --charged, the same with it, words) for each reader of the
    charge: none (shared), [LANCE], a unit rule, an --effect, --add-ability, an ability
    against some keywords only, the Shooting phase (where the charge is an idle condition),
    and the notes (words)."""
    from wh40k_calc.selection import AddedAbility

    def pair(case, line, ds=None, words=False, **fields):
        sel = _selection(cat, line)
        if ds is not None:
            sel = replace(sel, attacker=replace(sel.attacker, datasheet=ds))
        sel = replace(sel, **fields)
        charged = replace(sel, conditions=replace(sel.conditions, charged=True))
        return case, sel, charged, words

    plain = _invocatus(cat, rules=False, horn=("extra attacks",))
    return [
        pair("nothing reads it", "fight lord-invocatus -t rhino", plain),
        pair("nothing reads it (a shipped unit)", "fight cadian-shock-troops -t boyz"),
        pair("[LANCE]", "fight lord-invocatus -t rhino", _invocatus(cat, rules=False)),
        pair("a unit rule", "fight lord-invocatus -t rhino", _invocatus(cat, horn=())),
        pair(
            "an --effect",
            "fight lord-invocatus -t rhino",
            plain,
            effects=("relentless-rage",),
            skip_unmet=True,  # without the charge it is left out, not refused
        ),
        pair(
            "--add-ability",
            "fight lord-invocatus -t rhino",
            plain,
            added_abilities=(AddedAbility("Bladed horn", "lance"),),
        ),
        pair(
            "[LANCE] against VEHICLE only",
            "fight lord-invocatus -t rhino",
            _invocatus(cat, rules=False, horn=("extra attacks", "lance: vehicle")),
        ),
        pair("the Shooting phase", "shoot lord-invocatus -t rhino", plain),
        pair("with words", "fight lord-invocatus -t rhino", plain, words=True),
    ]


def _plan_parts(plan) -> dict:
    """Every field of a plan but its ``build``, and every activation it builds (each group's
    every option, each variant) as its record and its arrays."""
    from msgspec.structs import asdict

    out = {k: v for k, v in asdict(plan).items() if k != "build"}
    for i, g in enumerate(plan.groups):
        for j in range(len(g.options)):
            picks = tuple(j if k == i else 0 for k in range(len(plan.groups)))
            for v in range(max(1, len(plan.variants))):
                act = plan.build(picks, v, None)
                out[("activation", picks, v)] = (
                    act,
                    [(w.attacks.tolist(), None if w.sustained is None else w.sustained.tolist(),
                      w.choices) for w in act.weapons],
                    [m.count.tolist() for m in act.before],
                )  # fmt: skip
    return out


def test_plans_shared_across_an_unread_charge_are_the_plans_made_afresh() -> None:
    """``resolve.planned`` takes ``--charged`` as unset where nothing of the plan reads it
    (``rules.unread``): the plan found for the run with it is, field by field and in every
    activation it builds, the plan made afresh; where something reads the charge (each case
    but the first two) the fresh plans with and without it differ, so a key leaving that
    reader out would hand out a wrong plan here."""
    cat = catalog(None)
    for case, without, charged, words in _charge_pairs(cat):
        resolve_module._PLANS.clear()
        attacks._SHARED.clear()
        shared = [resolve_module.planned(s, words) for s in (without, charged)]
        attacks._SHARED.clear()
        fresh = [get_rules(s.edition).plan(s, words=words) for s in (without, charged)]
        for got, want in zip(shared, fresh, strict=True):
            assert _plan_parts(got) == _plan_parts(want), case
        if case.startswith("nothing reads it"):
            assert shared[1] is shared[0], case  # one plan for both runs
        else:
            assert shared[1] is not shared[0], case
            assert _plan_parts(fresh[0]) != _plan_parts(fresh[1]), case


def test_switched_off_unit_rules_tell_shared_plans_apart() -> None:
    """Lord Invocatus without [LANCE] reads the charge through Bloody Stampede, a unit rule:
    with the rule switched off (``without_rules``, as ``--explain`` does) its plans with and
    without the charge are one, with it on they are two, whichever was asked first (the
    unit rules found are kept by the units, the rules switched off among the key)."""
    cat = catalog(None)
    ds = _invocatus(cat, horn=())
    base = _selection(cat, "fight lord-invocatus -t rhino")
    base = replace(base, attacker=replace(base.attacker, datasheet=ds))
    off = replace(base, without_rules=("bloody-stampede",))
    for first, then in ((off, base), (base, off)):
        resolve_module._PLANS.clear()
        for sel, one in ((first, first is off), (then, then is off)):
            charged = replace(sel, conditions=replace(sel.conditions, charged=True))
            plans = [resolve_module.planned(s, False) for s in (sel, charged)]
            assert (plans[0] is plans[1]) is one
            fresh = get_rules(sel.edition).plan(charged, words=False)
            assert _plan_parts(plans[1]) == _plan_parts(fresh)


def test_a_target_unit_rule_keeps_plans_apart() -> None:
    """A unit rule of the target (a target-side record, ``-1 to the Hit roll of melee attacks
    against it`` given to a Rhino) is an effect that may read the charge: no plan is shared
    against it, though one is against the same target without it (the units are the key)."""
    cat = catalog(None)
    plain = _invocatus(cat, rules=False, horn=("extra attacks",))
    ruled = replace(cat.find("rhino"), rules=("unit-hit-minus-1-melee",))
    resolve_module._PLANS.clear()
    for target, one in ((None, True), (ruled, False)):
        sel = _selection(cat, "fight lord-invocatus -t rhino")
        sel = replace(sel, attacker=replace(sel.attacker, datasheet=plain))
        if target is not None:
            sel = replace(sel, target=replace(sel.target, datasheet=target))
        charged = replace(sel, conditions=replace(sel.conditions, charged=True))
        plans = [resolve_module.planned(s, False) for s in (sel, charged)]
        assert (plans[0] is plans[1]) is one
        assert _plan_parts(plans[1]) == _plan_parts(get_rules("10").plan(charged, words=False))


def test_kept_unit_rules_are_those_found_afresh() -> None:
    """``rules.applied.datasheet_rules`` keeps what it finds per unit, side, edition and rules
    switched off: each call gives what finding them afresh gives (Leaders on either side,
    edition 11, a rule switched off and on again and the other edition's records, on the
    same units), as its own lists."""
    from wh40k_calc.rules import applied
    from wh40k_calc.rules.activation import built_units

    cat = catalog(None)
    lines = [
        "fight lord-invocatus -t rhino",
        "shoot boyz --models 10 --leader warboss -t intercessor-squad",
        "shoot boyz --models 10 -t intercessor-squad --target-leader captain",
        "shoot lootas --models 10 -t boyz --edition 11",
    ]
    applied._RULES.clear()
    for line in lines:
        sel = _selection(cat, line)
        attacker, target = built_units(sel)
        for off, edition in (((), "10"), (("bloody-stampede",), "10"), ((), "11"), ((), "10")):
            s = replace(sel, without_rules=off, edition=edition)  # the same units either way
            got = applied.datasheet_rules(s, attacker, target)
            parts = [
                applied._found_rules_of(u, role, edition, off)
                for u, role in ((attacker, "attacker"), (target, "target"))
            ]
            want = [e for p in parts for e in p[0]], [n for p in parts for n in p[1]]
            assert got == (want[0], list(dict.fromkeys(want[1]))), (line, off)
            got[0].append("changed")  # the caller's own lists
            assert applied.datasheet_rules(s, attacker, target)[0] == want[0]
    sel = _selection(cat, lines[0])
    a, t = built_units(sel)
    as_target = applied.datasheet_rules(sel, a, a)[0]  # one unit object on both sides: by side
    want_target = applied._found_rules_of(a, "target", "10", ())[0]
    assert as_target == [*applied._found_rules_of(a, "attacker", "10", ())[0], *want_target]
    on = applied.datasheet_rules(sel, a, t)[0]
    off = applied.datasheet_rules(replace(sel, without_rules=("bloody-stampede",)), a, t)[0]
    assert on and len(off) < len(on)  # switching the rule off is seen


def test_kept_unit_facts_are_those_found_afresh() -> None:
    """``rules.when._unit_facts`` (what the Facts read of one unit: a CHARACTER model, every
    model the bearer, the Leaders' keywords, the models' names, its models, Starting Strength
    with its Leaders and first model's W), kept per unit object: the
    oracle is each written out here from the unit's groups and datasheets."""
    from wh40k_calc.rules import when

    units = _units(catalog(None))
    for _ in range(2):  # found, then kept
        for unit in units:
            chars = [g for g in unit.all_groups if when.is_character(g)]
            bearers = when.bearer_groups(unit)
            leaders = frozenset().union(*(ds.all_keywords() for ds in unit.datasheets[1:]))
            names = frozenset(g.profile.name for g in unit.all_groups if g.count)
            all_bearer = bool(bearers) and all(id(g) in bearers for g in unit.all_groups)
            with_leaders = unit.starting_strength + sum(
                g.count for g in unit.all_groups if g.character
            )
            first_w = unit.all_groups[0].profile.W if unit.all_groups else 1
            size = (unit.models, with_leaders, first_w)
            found = (bool(chars), all_bearer, leaders, names, size)
            assert when._unit_facts(unit) == found, unit.name
    with_leader = next(u for u in units if len(u.datasheets) > 1)
    cut = replace(with_leader, datasheets=with_leader.datasheets[1:])  # another unit object
    assert when._unit_facts(cut).leaders != when._unit_facts(with_leader).leaders

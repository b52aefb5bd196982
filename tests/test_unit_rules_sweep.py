"""Every generated unit rule (``datasheets-generated*/unit-rules/``: the datasheet abilities the
importers read as records) loads and applies to a selection without error: a datasheet's own
rule to the datasheet that names it (leading a Bodyguard unit where it asks for that, led by a
Leader with the keyword it asks for, with the flags, models and target keywords its conditions
name), unasked; an aura named with ``--effect`` on a unit of its faction with the keywords it
names. Each selection is planned and built for every variant (every step of the attack
sequence reads every change). The whole sweep is slow (``make test-slow``); ``make test`` runs
every file's first record and every tenth one."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from wh40k_calc import effect_files as ef
from wh40k_calc.catalog import GENERATED, GENERATED_11, Catalog
from wh40k_calc.datasheet import Datasheet, load_datasheet
from wh40k_calc.effects import Effect, effects_of
from wh40k_calc.rules import get_rules
from wh40k_calc.selection import Conditions, Selection, UnitChoice

SETS = {"10": GENERATED, "11": GENERATED_11}
FLAGS = ("charged", "stationary", "half_range", "objective")


def _records() -> list[tuple[str, Effect]]:
    out = []
    for ed in ef.EDITIONS:
        for key in ef.files_of(ed):
            for e in effects_of(ed, key):
                if e.path.parent.name == ef.UNIT_RULES:
                    out.append((f"{ed}/{e.path.name}/{e.id}", e))
    return out


RECORDS = _records()
QUICK = {rid for i, (rid, _) in enumerate(RECORDS) if i % 10 == 0}
QUICK |= {next(rid for rid, e in RECORDS if e.path == p) for p in {e.path for _, e in RECORDS}}


@lru_cache(maxsize=2)
def _naming(edition: str) -> dict[tuple[str, str], list[Path]]:
    """(faction, rule id) -> the generated datasheet files whose ``rules:`` name it."""
    out: dict[tuple[str, str], list[Path]] = {}
    folder = SETS[edition]
    line = re.compile(r"^rules: \[(.*)\]$", re.MULTILINE)
    faction = re.compile(r"^faction: (.*)$", re.MULTILINE)
    for path in sorted(folder.glob("*/*.yaml")):
        if path.parent.name == ef.UNIT_RULES:
            continue
        text = path.read_text(encoding="utf-8")
        m = line.search(text)
        if m:
            f = ef.faction_key(yaml.safe_load(faction.search(text).group(1))) or ""
            for rid in m.group(1).split(", "):
                out.setdefault((f, rid.strip()), []).append(path)
    return out


def _dummy(folder: Path, stem: str, keywords: list[str], models: int, faction: str) -> Path:
    """A unit of ``models`` plain models (T4 Sv4+ W2) with a gun and a blade."""
    sheet = {
        "name": stem,
        "faction": faction,
        "keywords": keywords,
        "faction_keywords": [],
        "models": [
            {
                "name": "Dummy",
                "M": 6,
                "T": 4,
                "Sv": 4,
                "W": 2,
                "Ld": 7,
                "OC": 1,
                "equipped": ["gun", "blade"],
            }
        ],
        "sizes": [{"models": {"Dummy": models}, "points": 10 * models}],
        "weapons": [
            {"name": "Gun", "range": 24, "A": 2, "skill": 4, "S": 4, "AP": 0, "D": 1},
            {"name": "Blade", "range": "melee", "A": 2, "skill": 4, "S": 4, "AP": 0, "D": 1},
        ],
        "edition": [10, 11],
    }
    path = folder / f"{stem}.yaml"
    path.write_text(yaml.safe_dump(sheet, sort_keys=False), encoding="utf-8")
    return path


def _phase(e: Effect, ds) -> str:
    w = e.when
    if w is not None and w.phases:
        return w.phases[0]
    scopes = {c.weapons for c in e.changes}
    if scopes == {"melee"}:
        return "fight"
    if scopes == {"ranged"}:
        return "shooting"
    if ds is not None:
        from wh40k_calc.units import build_unit

        unit = build_unit(ds, "attacker", e.edition)
        if not any(not wp.is_melee for g in unit.groups for wp in g.weapons):
            return "fight"
    return "shooting"


def _other(e: Effect, side: str, tmp: Path, n: int):
    """The other unit: a dummy with the keywords the record asks of it."""
    w = e.when
    other = "target" if side == "attacker" else "attacker"
    kws = {"INFANTRY"}
    if w is not None:
        any_of = getattr(w, f"{other}_keywords") or []
        kws |= set(any_of[:1]) | set(getattr(w, f"{other}_all") or [])
        kws -= set(getattr(w, f"{other}_not") or [])
    models = 10
    if w is not None and w.target_min_models:
        models = max(models, w.target_min_models)
    return load_datasheet(_dummy(tmp, f"other-{n}", sorted(kws), models, "Testers")), models


def _leading(ds, edition: str):
    """A Bodyguard unit ``ds`` can lead (as a Leader, or an edition-11 Support character)."""
    cat = Catalog(edition=edition)
    for name in (*ds.leader_of, *ds.support_of):
        try:
            return cat.find(f"{ds.faction}/{name}", edition=edition)
        except LookupError:
            continue
    return None


def _leader_with(ds, keywords: list[str], edition: str):
    """A Leader of ``ds``'s faction that can lead it and has one of ``keywords``."""
    cat = Catalog(edition=edition)
    for entry in cat.entries(edition=edition):
        if entry.faction != ds.faction:
            continue
        lead = cat.find(f"{entry.faction}/{entry.name}", edition=edition)
        joins = (*lead.leader_of, *lead.support_of)
        if ds.name in joins and set(keywords) & lead.all_keywords():
            return lead
    return None


def _fielding(ds: Datasheet, models: Sequence[str] | None) -> str | None:
    """A loadout of ``ds`` that fields every model named in ``models`` (a rule's
    ``with_model``) where the unit's sizes leave one out (an optional model, fielded
    ``instead_of`` a rank-and-file one: the Victrix Honour Guard's Chapter Ancient); None
    (the default) where the sizes already hold them or no loadout does."""
    if not models:
        return None
    names = {name for sz in ds.sizes for name, _ in sz.composition}
    if set(models) <= names:
        return None
    for key, entries in ds.loadouts.items():
        if set(models) <= names | {e.model for e in entries}:
            return key
    return None


def _selection(e: Effect, tmp: Path) -> Selection | str:
    ed = e.edition
    w = e.when
    side = "attacker" if e.side in ("attacker", "both") else "target"
    if e.default:
        paths = _naming(ed).get((e.faction, e.id))
        if not paths:
            return f"no datasheet names {e.id}"
        own = load_datasheet(paths[0])
        effects: tuple[str, ...] = ()
    else:
        kws = sorted(set(getattr(w, f"{side}_all") or []) | {"INFANTRY"}) if w else ["INFANTRY"]
        own = load_datasheet(_dummy(tmp, "aura-unit", kws, 10, ef.display_name(e.faction)))
        effects = (f"{side}:{ef.display_name(e.faction)}/{e.id}",)
    if e.options:
        effects = (f"{side}:{ef.display_name(e.faction)}/{e.id}:{','.join(e.options)}",)
    choice = UnitChoice(own, loadout=_fielding(own, w.with_model if w else None))
    if w is not None and w.leading:
        bodyguard = _leading(own, ed)
        if bodyguard is None:
            return f"{own.name} leads no unit we have"
        choice = UnitChoice(bodyguard, leaders=(own,))
    if w is not None and w.led_by:
        lead = _leader_with(own, w.led_by, ed)
        if lead is None:
            return f"no Leader of {own.name} with {w.led_by}"
        choice = UnitChoice(own, leaders=(lead,))
    other, models = _other(e, side, tmp, 0)
    target_models = None
    if w is not None and side == "attacker":
        if w.target_below_half_strength:
            target_models = models // 2 - 1
        elif w.target_below_starting_strength:
            target_models = models - 1
    wounds_left = None
    if w is not None and (w.attacker_below_starting_strength or w.attacker_below_half_strength):
        if side != "attacker":
            return "a condition on the attacker's own strength, for a target-side record"
        sizes = sorted({sz.total for sz in choice.datasheet.sizes})
        if sizes == [1] and not choice.leaders:
            wounds_left = 1  # one model, wounded: below its Starting Strength and half of it
        else:
            reduced = [n for n in range(1, sizes[-1]) if 2 * n < sizes[0] and n not in sizes]
            if not reduced:
                return "no model count below half of the unit's"
            choice = UnitChoice(choice.datasheet, reduced[0], leaders=choice.leaders)
    flags = {f: bool(w is not None and getattr(w, f)) for f in FLAGS}
    attacker, target = (
        (choice, UnitChoice(other, target_models))
        if side == "attacker"
        else (UnitChoice(other), choice)
    )
    return Selection(
        phase=_phase(e, attacker if side == "attacker" else None),
        attacker=attacker,
        target=target,
        conditions=Conditions(**flags),
        effects=effects,
        edition=ed,
        attacker_wounds_left=wounds_left,
    )


def _check(e: Effect, tmp: Path) -> None:
    sel = _selection(e, tmp)
    if isinstance(sel, str):
        pytest.skip(f"{e.qualified}: {sel}")
    plan = get_rules(sel.edition).plan(sel)
    # applied: acting, or idle here (a change's own conditions or scope unmet: said in a
    # "no effect" note); either way its record's conditions hold
    applied = set(plan.effects) | {i.id for i in plan.idle_effects}
    assert e.id in applied, (e.qualified, plan.effects, plan.not_modelled)
    for v in range(max(1, len(plan.variants))):
        act = plan.build(tuple(0 for _ in plan.groups), v, None)
        assert act.weapons or act.before, e.qualified


@pytest.mark.parametrize("rid", sorted(QUICK))
def test_unit_rules_apply_quick(rid: str, tmp_path: Path) -> None:
    _check(dict(RECORDS)[rid], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("rid", [rid for rid, _ in RECORDS if rid not in QUICK])
def test_every_unit_rule_applies(rid: str, tmp_path: Path) -> None:
    _check(dict(RECORDS)[rid], tmp_path)


def test_every_set_has_a_unit_rules_file_per_faction() -> None:
    """The generators write one file per faction (so a set says which factions it gives),
    each loading as an effect file of its edition."""
    for ed, folder in SETS.items():
        files = sorted((folder / ef.UNIT_RULES).glob("*.yaml"))
        factions = {ef.faction_key(ef.load(p).faction) for p in files}
        assert all(ef.load(p).edition == int(ed) for p in files)
        index = yaml.safe_load((folder / "index.json").read_text(encoding="utf-8"))
        assert {ef.faction_key(u["faction"]) for u in index["units"]} <= factions
    assert len(RECORDS) > 500


def test_an_updated_set_gives_the_unit_rules_of_its_factions(tmp_path, monkeypatch) -> None:
    """The user data folder's edition-11 set (calc data update) gives the unit rules of the
    factions it has a file for; the shipped set's give the others."""
    from wh40k_calc import effects

    mine = tmp_path / "datasheets-11" / ef.UNIT_RULES
    mine.mkdir(parents=True)
    shipped = GENERATED_11 / ef.UNIT_RULES / "orks.yaml"
    (mine / "orks.yaml").write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setenv("WH40K_CALC_HOME", str(tmp_path))
    ef.set_roots(None)
    effects.clear_caches()
    try:
        files = ef.files_of("11")
        assert mine / "orks.yaml" in files["orks"] and shipped not in files["orks"]
        necrons = GENERATED_11 / ef.UNIT_RULES / "necrons.yaml"
        assert necrons in files["necrons"]
        assert effects.unit_rule("might-is-right", "11", ("orks",)).path == mine / "orks.yaml"
    finally:
        monkeypatch.delenv("WH40K_CALC_HOME")
        ef.set_roots(None)
        effects.clear_caches()

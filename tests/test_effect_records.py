"""Every record of every effect file loads and applies to some selection without error: for
each record, a selection that meets its record-level conditions is built from the datasheets
of its faction (the acting unit of its faction with the keywords it asks for, the other unit
any datasheet with the keywords it asks for — a CHARACTER, or an Attached unit, where it asks
for one —, the phase, the flags and the option it needs; where
no datasheet of the edition's data has those keywords, one of the faction's given them),
then planned and built for each of its variants (every step of the attack sequence reads
every change). The whole sweep is slow (``make test-slow``); ``make test`` runs every file's
first records and every tenth one."""

from __future__ import annotations

from functools import lru_cache

import pytest

from wh40k_calc import effect_files as ef
from wh40k_calc.effect_coverage import slug
from wh40k_calc.effects import Effect, all_effects
from wh40k_calc.rules import get_rules
from wh40k_calc.selection import Conditions, Selection, UnitChoice

FLAGS = (
    "charged", "stationary", "half_range", "disembarked", "objective", "beyond_12", "advanced",
)  # fmt: skip


@lru_cache(maxsize=2)
def _sheets(edition: str) -> list:
    """Every datasheet we ship for ``edition``, loaded once: (datasheet, its faction keys, the
    keywords of its unit as built by default: the datasheet's and its models')."""
    from wh40k_calc.catalog import Catalog
    from wh40k_calc.datasheet import load_datasheet
    from wh40k_calc.units import build_unit

    out = []
    for e in Catalog(edition=edition).entries():
        ds = load_datasheet(e.path)
        try:
            kws = build_unit(UnitChoice(ds), "attacker", edition).keywords
        except ValueError:
            continue
        out.append((ds, set(ef.faction_tiers(ds.faction or "", kws)), frozenset(kws)))
    return out


def _has_character(ds) -> bool:
    return "CHARACTER" in ds.all_keywords()


def _stand_in(
    edition: str,
    faction: str | None,
    when,
    side: str,
    phase: str | None,
    extra=(),
    character: bool = False,
):
    """Where no datasheet of the edition's data has the keywords a record asks for (or is a
    CHARACTER where it asks for one, ``character``): a datasheet of the faction (any, for
    core) that has weapons for ``phase``, given those keywords."""
    from wh40k_calc.records import replace

    prefix = "attacker" if side == "attacker" else "target"
    any_of = getattr(when, f"{prefix}_keywords") if when else None
    all_of = getattr(when, f"{prefix}_all") if when else None
    none_of = set(getattr(when, f"{prefix}_not") or ()) if when else set()
    for ds, keys, _ in _sheets(edition):
        if faction is not None and faction != ef.CORE and faction not in keys:
            continue
        if phase is not None and not _armed(ds, phase == "fight", edition):
            continue
        if none_of & ds.all_keywords() or not all(test(ds) for test in extra):
            continue
        wanted = set(all_of or ()) | ({any_of[0]} if any_of else set())
        if character:
            wanted.add("CHARACTER")
        return replace(ds, keywords=frozenset(ds.keywords | wanted) - none_of)
    return None


def _keywords_ok(kws: frozenset[str], any_of, all_of, none_of) -> bool:
    return (
        (not any_of or bool(set(any_of) & kws))
        and (not all_of or set(all_of) <= kws)
        and not (none_of and set(none_of) & kws)
    )


def _pick(edition: str, faction: str | None, when, side: str, phase: str | None, extra=()):
    """A datasheet of ``faction`` (None: any) meeting ``when``'s keyword conditions of
    ``side``, with weapons for ``phase`` when it attacks; ``extra``: more tests."""
    prefix = "attacker" if side == "attacker" else "target"
    any_of = getattr(when, f"{prefix}_keywords") if when else None
    all_of = getattr(when, f"{prefix}_all") if when else None
    none_of = getattr(when, f"{prefix}_not") if when else None
    for ds, keys, kws in _sheets(edition):
        if faction is not None and faction != ef.CORE and faction not in keys:
            continue
        if not _keywords_ok(kws, any_of, all_of, none_of):
            continue
        if phase is not None and not _armed(ds, phase == "fight", edition):
            continue
        if all(test(ds) for test in extra):
            return ds
    return None


@lru_cache(maxsize=8192)
def _armed(ds, melee: bool, edition: str) -> bool:
    """Whether the datasheet's models, as equipped by default, have a weapon of that kind."""
    from wh40k_calc.units import build_unit

    try:
        unit = build_unit(UnitChoice(ds), "attacker", edition)
    except ValueError:
        return False
    return any(w.is_melee == melee for g in unit.groups for w in g.weapons)


def _led(edition: str, faction: str | None, when, side: str, phase: str | None):
    """An Attached unit of ``faction`` (a Bodyguard datasheet and one Leader that can lead it)
    whose keywords together meet ``when``'s keyword conditions of ``side``, armed for
    ``phase`` when it attacks, as a :class:`UnitChoice`; None when the data has none."""
    from wh40k_calc.datasheet import norm_name
    from wh40k_calc.units import build_unit

    prefix = "attacker" if side == "attacker" else "target"
    any_of = getattr(when, f"{prefix}_keywords") if when else None
    all_of = getattr(when, f"{prefix}_all") if when else None
    none_of = getattr(when, f"{prefix}_not") if when else None
    sheets = _sheets(edition)
    by_name: dict[str, list] = {}
    for ds, keys, kws in sheets:
        by_name.setdefault(norm_name(ds.name), []).append((ds, keys, kws))
    for lead, keys, lead_kws in sheets:
        if not lead.leader_of or (faction not in (None, ef.CORE) and faction not in keys):
            continue
        for name in lead.leader_of:
            for body, _, body_kws in by_name.get(norm_name(name), []):
                if not _keywords_ok(lead_kws | body_kws, any_of, all_of, none_of):
                    continue
                if phase is not None and not _armed(body, phase == "fight", edition):
                    continue
                choice = UnitChoice(body, leaders=(lead,))
                try:
                    build_unit(choice, side, edition)
                except ValueError:
                    continue
                return choice
    return _led_stand_in(edition, faction, when, side, phase)


def _led_stand_in(edition: str, faction: str | None, when, side: str, phase: str | None):
    """Where no Attached unit of the data meets the conditions: the first one that can be
    built (armed for ``phase``), its Leader given the keywords asked for and the faction's."""
    from wh40k_calc.datasheet import norm_name
    from wh40k_calc.records import replace
    from wh40k_calc.units import build_unit

    prefix = "attacker" if side == "attacker" else "target"
    any_of = getattr(when, f"{prefix}_keywords") if when else None
    all_of = getattr(when, f"{prefix}_all") if when else None
    none_of = set(getattr(when, f"{prefix}_not") or ()) if when else set()
    wanted = set(all_of or ()) | ({any_of[0]} if any_of else set())
    f = ef.faction_of_key(faction) if faction else None
    if f is not None and f.keywords:
        wanted.add(f.keywords[0])
    sheets = _sheets(edition)
    by_name = {norm_name(ds.name): ds for ds, _, _ in sheets}
    for lead, _, _ in sheets:
        for name in lead.leader_of:
            body = by_name.get(norm_name(name))
            if body is None or none_of & (body.all_keywords() | lead.all_keywords()):
                continue
            if phase is not None and not _armed(body, phase == "fight", edition):
                continue
            given = replace(lead, keywords=frozenset(lead.keywords | wanted))
            choice = UnitChoice(body, leaders=(given,))
            try:
                build_unit(choice, side, edition)
            except ValueError:
                continue
            return choice
    return None


def _reduced(ds, half: bool) -> int | None:
    """A model count that makes the unit below its Starting Strength (Below Half-strength
    with ``half``): fewer models than a listed size, and not itself a listed size."""
    sizes = sorted({s.total for s in ds.sizes})
    for start in sizes:
        n = (start - 1) // 2 if half else start - 1
        if n >= 1 and n not in sizes:
            return n
    return None


def _size(ds, at_least: int = 1):
    sizes = sorted(s.total for s in ds.sizes)
    return next((s for s in sizes if s >= at_least), None)


def _selection(e: Effect, side: str) -> Selection | str:
    """A selection in which ``e`` acts for ``side``, or why none could be built."""
    w = e.when
    phases = (w.phases if w and w.phases else None) or ["shooting", "fight"]
    last = "no datasheet"
    for phase in phases:
        attacker_needs = []
        models = None
        character = bool(w is not None and w.attacker_has_character)
        if w is not None and w.unit_min_models and side == "attacker":
            n = w.unit_min_models
            attacker_needs.append(lambda ds, n=n: _size(ds, n) is not None)
        below = w is not None and (
            w.attacker_below_starting_strength or w.attacker_below_half_strength
        )
        half = bool(w is not None and w.attacker_below_half_strength)
        if below:
            attacker_needs.append(lambda ds, half=half: _reduced(ds, half) is not None)
        own = e.faction
        if e.side == "both":
            a_faction, t_faction = (own, None) if side == "attacker" else (None, own)
            a_when = w if side == "attacker" else None
            t_when = w if side == "target" else None
        else:
            a_faction, t_faction = (own, None) if side == "attacker" else (None, own)
            a_when = t_when = w
        ed = e.edition
        needs = attacker_needs + ([_has_character] if character else [])
        att = _pick(ed, a_faction, a_when, "attacker", phase, needs) or _stand_in(
            ed, a_faction, a_when, "attacker", phase, attacker_needs, character
        )
        t_character = bool(t_when is not None and t_when.target_has_character)
        t_needs = [_has_character] if t_character else []
        tgt = _pick(ed, t_faction, t_when, "target", None, t_needs) or _stand_in(
            ed, t_faction, t_when, "target", None, character=t_character
        )
        leading = bool(w is not None and w.leading)
        if leading and side == "target":
            tgt = _led(ed, t_faction, t_when, "target", None)
        if att is None or tgt is None:
            last = f"no {'attacker' if att is None else 'target'} datasheet ({phase})"
            continue
        if w is not None and w.unit_min_models and side == "attacker":
            models = _size(att, w.unit_min_models)
        if below:
            models = _reduced(att, half)
        flags = {f: bool(w is not None and getattr(w, f)) for f in FLAGS}
        if w is not None and w.target_in_cover:
            flags["cover"] = True
        option = f":{w.option}" if w is not None and w.option else ""
        if e.miracle_limit:  # the Miracle dice held: a value is needed
            option = ":6"
        name = f"{side}:{ef.display_name(e.faction)}/{e.id}{option}"
        return Selection(
            phase=phase,
            attacker=UnitChoice(att, models),
            target=tgt if isinstance(tgt, UnitChoice) else UnitChoice(tgt),
            conditions=Conditions(**flags),
            effects=(name,),
            edition=e.edition,
        )
    return last


def _sides(e: Effect) -> tuple[str, ...]:
    return ("attacker", "target") if e.side == "both" else (e.side,)


def _records() -> list[tuple[str, Effect]]:
    out = []
    for ed in ef.EDITIONS:
        for e in all_effects(ed):
            if e.path.parent.name == ef.UNIT_RULES:
                continue  # generated with the datasheets: tests/test_unit_rules_sweep.py
            out.append((f"{ed}/{e.path.name}/{e.id}", e))
    return out


def _reads_the_advance(e: Effect) -> bool:
    """A record with an ``advanced`` condition, or one granting [ASSAULT] (which changes an
    attack only after an Advance, ``--advanced``)."""
    whens = [e.when] + [c.when for c in e.changes]
    return any(w is not None and w.advanced is not None for w in whens) or any(
        c.ability == "assault" or "assault" in (c.choose_ability or ()) for c in e.changes
    )


RECORDS = _records()
QUICK = {rid for i, (rid, _) in enumerate(RECORDS) if i % 10 == 0 or "edition" in rid}
# every record that reads the Advance or grants [ASSAULT] (few, and the newest kind)
QUICK |= {rid for rid, e in RECORDS if _reads_the_advance(e)}
# files' first three records too
_seen: dict[str, int] = {}
for rid, e in RECORDS:
    key = f"{e.edition}/{e.path.name}"
    if _seen.get(key, 0) < 3:
        QUICK.add(rid)
        _seen[key] = _seen.get(key, 0) + 1


def _check(e: Effect) -> None:
    for side in _sides(e):
        sel = _selection(e, side)
        if isinstance(sel, str):
            pytest.fail(f"{e.qualified} ({side}): no selection meets its conditions: {sel}")
        plan = get_rules(sel.edition).plan(sel)
        # applied: acting, or idle here (a change's own conditions or scope unmet: said in a
        # "no effect" note); either way its record's conditions hold
        applied = set(plan.effects) | {i.id for i in plan.idle_effects}
        assert e.id in applied or slug(e.rule) in applied, plan.effects
        for v in range(max(1, len(plan.variants))):
            act = plan.build(tuple(0 for _ in plan.groups), v, None)
            assert act.weapons or act.before, e.qualified


@pytest.mark.parametrize("rid", sorted(QUICK))
def test_records_apply_quick(rid: str) -> None:
    _check(dict(RECORDS)[rid])


@pytest.mark.slow
@pytest.mark.parametrize("rid", [rid for rid, _ in RECORDS if rid not in QUICK])
def test_every_record_applies(rid: str) -> None:
    _check(dict(RECORDS)[rid])


def test_every_file_loads() -> None:
    """Every file of both editions loads (the schema and the loader's own checks)."""
    for ed in ef.EDITIONS:
        for paths in ef.files_of(ed).values():
            for p in paths:
                ef.load(p)
    assert len(RECORDS) > 1000

"""Properties of the readers and of equipping a unit as listed (hypothesis):

* a list printed back in a format (``list_printers``) and read again is the same list: its
  name, faction, detachments, points and every unit with its models by model type, weapons,
  enhancement and Warlord;
* :func:`wh40k_calc.lists.equip.kits` keeps every copy of every weapon, gives each model
  type's models all of them between them, and never gives a model a second melee weapon
  while another has none.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from list_printers import CARRIES_ENHANCEMENT, PRINTERS

from wh40k_calc.lists.detect import parse_bytes
from wh40k_calc.lists.model import ArmyList, ListedModels, ListedUnit

WORDS = ["Boss", "Grot", "Shoota", "Klaw", "Mek", "Dakka", "Kan", "Squig", "Burna", "Zzap"]
names = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)


@st.composite
def model_type(draw, named: bool) -> ListedModels:
    count = draw(st.integers(1, 10)) if named else 1
    weapons = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    each = [draw(st.integers(1, 3)) for _ in weapons]
    carried = tuple((w, k * count) for w, k in zip(weapons, each, strict=True))
    return ListedModels(draw(names) if named else None, count, carried)


@st.composite
def unit(draw) -> ListedUnit:
    if draw(st.booleans()):
        models = (draw(model_type(False)),)
    else:
        types = draw(st.lists(model_type(True), min_size=1, max_size=3))
        seen, models = set(), []
        for m in types:  # distinct model names
            if m.name not in seen:
                seen.add(m.name)
                models.append(m)
        models = tuple(models)
    return ListedUnit(
        draw(names),
        draw(st.integers(1, 500)),
        models,
        enhancement=draw(st.none() | names.map(lambda n: n + " Relic")),
        warlord=draw(st.booleans()),
    )


@st.composite
def army(draw) -> ArmyList:
    units = tuple(draw(st.lists(unit(), min_size=1, max_size=5)))
    return ArmyList(
        "?",
        draw(names),
        "Orks",
        (draw(names),),
        units,
        points=sum(u.points or 0 for u in units),
    )


def _view(a: ArmyList, fmt: str) -> tuple:
    units = tuple(
        (
            u.name,
            u.points,
            tuple((m.name, m.count, m.weapons) for m in u.models),
            u.enhancement if fmt in CARRIES_ENHANCEMENT else None,
            u.warlord,
        )
        for u in a.units
    )
    return (a.name, a.faction, a.detachments, a.points, units)


@settings(max_examples=40, deadline=None)
@given(army(), st.sampled_from(sorted(PRINTERS)))
def test_printed_and_read_again_is_the_same_list(a: ArmyList, fmt: str) -> None:
    back = parse_bytes(PRINTERS[fmt](a), "printed")
    assert back.format == fmt
    assert _view(back, fmt) == _view(a, fmt)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 12),
    st.lists(st.tuples(st.booleans(), st.integers(1, 30)), min_size=1, max_size=5),
)
def test_kits_keep_every_weapon(models: int, spec: list[tuple[bool, int]]) -> None:
    from wh40k_calc.datasheet import parse_datasheet
    from wh40k_calc.lists.equip import kits

    profiles = [
        {"name": f"w{i}", "range": "melee" if melee else 24, "A": 1, "skill": 4, "S": 4,
         "AP": 0, "D": 1}
        for i, (melee, _) in enumerate(spec)
    ]  # fmt: skip
    ds = parse_datasheet(
        {
            "name": "T", "faction": "F", "keywords": [], "faction_keywords": [],
            "models": [{"name": "m", "M": 6, "T": 4, "Sv": 4, "W": 1, "Ld": 7, "OC": 1,
                        "equipped": []}],
            "sizes": [{"models": {"m": 1}, "points": 1}],
            "weapons": profiles,
        }
    )  # fmt: skip
    weapons = [((w,), total) for w, (_, total) in zip(ds.weapons, spec, strict=True)]
    out = kits(models, weapons)
    assert sum(n for n, _ in out) == models
    carried: Counter[str] = Counter()
    for n, keys in out:
        for k in keys:
            carried[k] += n
    assert carried == Counter({w[0].key: total for w, total in weapons})
    melee_keys = {w[0].key for w, _ in weapons if w[0].is_melee}
    melee_total = sum(t for (w,), t in weapons if w.is_melee)
    if melee_total <= models:
        assert all(sum(k in melee_keys for k in keys) <= 1 for _, keys in out)

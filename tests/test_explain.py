"""``--explain``: each rule's Shapley value of models destroyed, wounds lost and damage.

The expected values are worked out here, never asked of the code: each subset's exact
expectation by hand (Core rules: Hit Roll, Wound Roll, Lance; Waaagh! from seed 000: +1 S and
+1 A to melee weapons), then the Shapley values by averaging each rule's marginal contribution
over every order of the rules (:func:`shapley_by_orders`: itertools.permutations, not the
subset-weight formula the code uses). The properties (the values add up to all rules less
none, whatever the order the options were given in; the sampled orders agree with the exact
values within their standard errors) run on random selections of shipped datasheets.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import approx, attacker, fight, invoke, melee, shoot, target
from profiles import selection

from wh40k_calc.explain import METRICS, explain
from wh40k_calc.records import replace
from wh40k_calc.resolve import resolve
from wh40k_calc.rules.players import players, switched_off

PROPS = settings(max_examples=25, deadline=None, derandomize=True, database=None)


def shapley_by_orders(names: list[str], v) -> dict[str, F]:
    """Each name's marginal contribution v(S + i) - v(S) averaged over every order of the
    names (``v`` takes a frozenset of names)."""
    total = dict.fromkeys(names, F(0))
    orders = list(itertools.permutations(names))
    for order in orders:
        before: set[str] = set()
        for name in order:
            total[name] += v(frozenset(before | {name})) - v(frozenset(before))
            before.add(name)
    return {k: x / len(orders) for k, x in total.items()}


def _rules(out: dict) -> dict[str, dict]:
    return {r["name"]: r for r in out["attribution"]["rules"]}


LANCE = "Lance choppa"


def _duel(tmp_path, faction: str = "TESTERS") -> tuple[str, str]:
    """One model with a melee weapon A1 WS3+ S4 AP0 D1 [LANCE] against one T4 W1 model with
    no save (Sv 7+): a hit is 4/6; S4 against T4 wounds on 4+ (1/2), with [LANCE] after a
    Charge move +1 to the Wound roll: 3+ (2/3)."""
    att = attacker(
        tmp_path, melee(LANCE, A=1, skill=3, S=4, abilities=["lance"]), faction_keywords=[faction]
    )
    tgt = target(tmp_path, models=1, T=4, Sv=7, W=1)
    return att, tgt


def test_charge_and_lance_share_what_they_add_by_hand(tmp_path) -> None:
    """Two rules: --charged and the weapon's own [LANCE]. Neither acts alone (Lance needs the
    charge; the charge does nothing else here), so v(none) = v(charged) = v(lance) = 4/6 x
    1/2 = 1/3 models destroyed and v(both) = 4/6 x 2/3 = 4/9: each adds half of 1/9. W1 and
    D1: wounds lost and damage are the same figures."""
    att, tgt = _duel(tmp_path)
    out = fight(att, tgt, "--charged", "--explain", dirs=[tmp_path])
    table = {frozenset(): F(1, 3), frozenset({"c"}): F(1, 3), frozenset({"l"}): F(1, 3)}
    table[frozenset({"c", "l"})] = F(4, 9)
    want = shapley_by_orders(["c", "l"], table.__getitem__)
    assert want == {"c": F(1, 18), "l": F(1, 18)}
    rules = _rules(out)
    assert set(rules) == {"--charged", f"{LANCE} [LANCE]"}
    assert rules["--charged"]["kind"] == "condition"
    assert rules[f"{LANCE} [LANCE]"]["kind"] == "weapon ability"
    for name, key in (("--charged", "c"), (f"{LANCE} [LANCE]", "l")):
        for m in METRICS:
            assert rules[name][m] == approx(want[key])
    a = out["attribution"]
    assert a["method"] == "exact" and a["subsets"] == 4
    assert a["all"]["models_destroyed"] == approx(F(4, 9))
    assert a["none"]["models_destroyed"] == approx(F(1, 3))


def test_charge_lance_and_waaagh_by_hand(tmp_path) -> None:
    """Three rules with an ORKS attacker: --charged, [LANCE] and --effect waaagh (+1 S: S5
    against T4 wounds on 3+; +1 A: two attacks). A hit is 2/3; the wound roll is 4+ (1/2)
    alone, 3+ (2/3) with Lance or Waaagh!'s S5, 2+ (5/6) with both. One attack kills with q =
    2/3 x P(wound); two kill with 1 - (1 - q)^2; the damage figure is the expected wounds (D1,
    no save): attacks x q. So, models destroyed: 1/3 without Waaagh! or without the charge and
    Lance together, 4/9 with those two; with Waaagh!: 1 - (5/9)^2 = 56/81, and 1 - (4/9)^2 =
    65/81 with all three. Damage: 1/3, 4/9; 8/9, 10/9."""
    att, tgt = _duel(tmp_path, faction="ORKS")
    out = fight(att, tgt, "--charged", "--effect", "waaagh", "--explain", dirs=[tmp_path])

    def value(metric: str):
        def v(s: frozenset) -> F:
            lance = {"c", "l"} <= s
            if "w" not in s:
                q = F(2, 3) * (F(2, 3) if lance else F(1, 2))
                return q
            q = F(2, 3) * (F(5, 6) if lance else F(2, 3))
            return 2 * q if metric == "damage" else 1 - (1 - q) ** 2

        return v

    names = {"c": "--charged", "l": f"{LANCE} [LANCE]", "w": "--effect waaagh"}
    rules = _rules(out)
    assert set(rules) == set(names.values())
    for m in METRICS:
        want = shapley_by_orders(["c", "l", "w"], value(m))
        for key, name in names.items():
            assert rules[name][m] == approx(want[key]), (m, name)
        v = value(m)
        assert sum(want.values()) == v(frozenset("clw")) - v(frozenset())
    # a hand figure: Waaagh!'s models destroyed, averaged over the six orders
    assert shapley_by_orders(["c", "l", "w"], value("models_destroyed"))["w"] == (
        F(2, 6) * (F(56, 81) - F(1, 3))  # first (2 orders)
        + F(1, 6) * (F(56, 81) - F(1, 3)) * 2  # after the charge or Lance alone (2 orders)
        + F(2, 6) * (F(65, 81) - F(4, 9))  # last (2 orders)
    )


def test_rules_that_change_nothing_are_not_players(tmp_path) -> None:
    """--stationary with no [HEAVY] weapon and --charged in shooting are idle notes (rules/
    idle.py), and a [LANCE] weapon without --charged cannot act: none is a player."""
    att = attacker(tmp_path, melee(LANCE, abilities=["lance"]), melee("Gun", abilities=[]))
    tgt = target(tmp_path, models=1, Sv=7)
    out = fight(att, tgt, "--stationary", "--explain", dirs=[tmp_path])
    assert out["attribution"]["rules"] == []
    gun = attacker(tmp_path, shoot_gun := {"name": "Gun", "range": 24, "A": 1, "skill": 4,
                   "S": 4, "AP": 0, "D": 1, "abilities": ["heavy"]}, stem="gunner")  # fmt: skip
    assert shoot_gun["abilities"] == ["heavy"]
    out = shoot(gun, tgt, "--charged", "--explain", dirs=[tmp_path])
    assert out["attribution"]["rules"] == []  # [HEAVY] without --stationary; --charged idle
    out = shoot(gun, tgt, "--stationary", "--explain", dirs=[tmp_path])
    assert [r["name"] for r in out["attribution"]["rules"]] == ["--stationary", "Gun [HEAVY]"]


def test_an_effect_needing_the_charge_is_left_out_without_it() -> None:
    """Hack and Slash (World Eaters: AP +1 after a Charge move) with --charged: the subsets
    without the charge leave the stratagem out (it cannot be used) rather than refuse."""
    sel = selection(
        "World Eaters/Khorne Berzerkers",
        "intercessor-squad",
        phase="fight",
        effects=["hack-and-slash"],
        conditions={"charged": True},
    )
    r = resolve(sel)
    a = explain(r)
    names = [s.player.name for s in a.shares]
    assert "--effect hack-and-slash" in names and "--charged" in names
    total = sum(s.value["models_destroyed"] for s in a.shares)
    assert total == pytest.approx(a.all["models_destroyed"] - a.none["models_destroyed"], abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Properties on random selections of shipped datasheets

SHOOT = ("lootas", "boyz", "shooting")
FIGHT = ("boyz", "intercessor-squad", "fight")
CONDITIONS = {
    "shooting": ("half_range", "stationary", "cover", "objective", "overwatch"),
    "fight": ("charged",),
}
MODIFIERS = (
    ("hit_mod", 1),
    ("hit_mod", -1),
    ("wound_mod", 1),
    ("ap_mod", 1),
    ("reroll_hits", "ones"),
    ("reroll_wounds", "fails"),
    ("damage_mod", 1),
    ("invuln", 5),
    ("fnp", 6),
)
ADDED = (("*", "lethal hits"), ("*", "sustained hits 1"), ("*", "devastating wounds"))


@st.composite
def selections(draw):
    """A random selection: Lootas shooting Boyz or Boyz fighting Intercessors, with a few
    conditions, modifiers, effects and added abilities."""
    attacker_, target_, phase = draw(st.sampled_from((SHOOT, FIGHT)))
    conds = draw(st.sets(st.sampled_from(CONDITIONS[phase]), max_size=3))
    mods = dict(draw(st.lists(st.sampled_from(MODIFIERS), max_size=2, unique_by=lambda m: m[0])))
    effects = []
    if phase == "fight":
        effects = draw(st.sets(st.sampled_from(("waaagh", "get-stuck-in")), max_size=2))
    added = draw(st.lists(st.sampled_from(ADDED), max_size=1, unique=True))
    models = draw(st.sampled_from((None, 10))) if phase == "fight" else None
    return selection(
        attacker_,
        target_,
        phase=phase,
        models=models,
        conditions=dict.fromkeys(conds, True),
        modifiers=mods,
        effects=sorted(effects),
        added=added,
    )


@PROPS
@given(sel=selections())
def test_the_values_add_up_to_all_rules_less_none(sel) -> None:
    """Exact: the values sum to v(all) - v(none); v(all) is the selection's own figures and
    v(none) those of the selection with every player switched off."""
    r = resolve(sel)
    a = explain(r, method="exact")
    for m in METRICS:
        total = sum(s.value[m] for s in a.shares)
        assert total == pytest.approx(a.all[m] - a.none[m], abs=1e-9)
        assert a.all[m] == pytest.approx(r.exact.expected[m], abs=1e-9)
    off = resolve(switched_off(sel, players(sel, r.plan, r.activation)))
    for m in METRICS:
        assert a.none[m] == pytest.approx(off.exact.expected[m], abs=1e-9)


@PROPS
@given(sel=selections(), data=st.data())
def test_the_values_do_not_depend_on_the_order_of_the_options(sel, data) -> None:
    """The same effects and added abilities given in another order: the same players, the
    same values."""
    effects = data.draw(st.permutations(sel.effects))
    shuffled = replace(sel, effects=tuple(effects))
    a, b = explain(resolve(sel)), explain(resolve(shuffled))
    assert [s.player.name for s in a.shares] == [s.player.name for s in b.shares]
    for x, y in zip(a.shares, b.shares, strict=True):
        for m in METRICS:
            assert x.value[m] == pytest.approx(y.value[m], abs=1e-12)


@settings(max_examples=8, deadline=None, derandomize=True, database=None)
@given(sel=selections())
def test_sampled_orders_agree_with_the_exact_values(sel) -> None:
    """Sampled orders (seeded): each value within 4.5 standard errors of the exact one (a
    value the orders all agree on has SE 0: then equal), and the sampled values still add up
    exactly to all rules less none."""
    r = resolve(sel)
    exact = explain(r)
    sampled = explain(r, method="sampled", orders=200, seed=7)
    assert sampled.method == "sampled" and sampled.orders == 200
    for x, y in zip(exact.shares, sampled.shares, strict=True):
        for m in METRICS:
            se = y.se[m]
            assert abs(x.value[m] - y.value[m]) <= 4.5 * se + 1e-9, (x.player.name, m, se)
    for m in METRICS:
        total = sum(s.value[m] for s in sampled.shares)
        assert total == pytest.approx(exact.all[m] - exact.none[m], abs=1e-9)


def test_the_main_job_with_five_rules_in_the_text_output() -> None:
    """``calc shoot lootas --target boyz`` with four options and Dat's Our Loot!: the
    attribution table and the wasted damage table, whole at 80 columns."""
    result = invoke(
        ["shoot", "lootas", "--target", "boyz", "--objective", "--cover", "--hit-mod", "1",
         "--reroll-wounds", "ones", "--explain"]
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout
    text = result.stdout
    assert "What each rule adds (exact Shapley values)" in text
    assert "Where the damage went" in text
    for name in ("Dat's Our Loot!", "--cover", "--objective", "--hit-mod 1"):
        assert name in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text


def test_json_carries_attribution_and_wasted() -> None:
    """``--json --explain``: the ``attribution`` and ``wasted`` objects; without --explain,
    neither."""
    args = ["shoot", "lootas", "--target", "boyz", "--hit-mod", "1", "--json"]
    plain = json.loads(invoke(args).stdout)
    assert "attribution" not in plain and "wasted" not in plain
    out = json.loads(invoke([*args, "--explain"]).stdout)
    rules = _rules(out)
    assert set(rules) == {"Dat's Our Loot!", "--hit-mod 1"}
    w = out["wasted"]
    assert [x["name"] for x in w["weapons"]] == ["Deffgun", "Big shoota"]
    # Deffgun (D2) into W1 Boyz: each failed save wastes one point
    deffgun = out["weapons"][0]["expected"]
    assert w["weapons"][0]["beyond_wounds_left"] == approx(deffgun["failed_saves"])
    assert w["total"]["damage"] == approx(out["expected"]["damage"])
    assert w["total"]["wounds_lost"] == approx(out["expected"]["wounds_lost"])


def test_with_the_sampler_the_attribution_stays_exact_and_the_waste_is_sampled() -> None:
    """``--method both --explain``: the attribution is the exact engine's (as with --method
    exact); ``wasted`` is the exact one and ``sample.wasted`` the sampler's per-trial counts,
    within 5 standard errors of it."""
    base = ["shoot", "lootas", "--target", "boyz", "--half-range", "--explain", "--json"]
    exact = json.loads(invoke(base).stdout)
    both = json.loads(invoke([*base, "--method", "both", "--trials", "20000"]).stdout)
    assert both["attribution"] == exact["attribution"]
    sampled = both["sample"]["wasted"]
    assert sampled["method"] == "sample"
    for k, v in exact["wasted"]["total"].items():
        if k in sampled["standard_error"]["total"]:
            se = max(sampled["standard_error"]["total"][k], 1 / 20000)
            assert abs(sampled["total"][k] - v) <= 5 * se, k


def test_no_attribution_where_the_exact_engine_declines(monkeypatch) -> None:
    """The exact engine declining gives no attribution and a note saying why (here forced)."""
    import wh40k_calc.explain as ex
    from wh40k_calc.engine.exact import ExactUnsupported

    def declines(act):
        raise ExactUnsupported("too large (forced by the test)")

    monkeypatch.setattr(ex, "run_exact", declines)
    r = resolve(selection("lootas", "boyz", modifiers={"hit_mod": 1}))
    a = explain(r)
    assert a.declined == "too large (forced by the test)" and a.shares == ()
    assert "no attribution" in a.notes[0]


def test_a_torrent_weapon_keeps_its_torrent(tmp_path) -> None:
    """[TORRENT] is not a rule to switch off: a weapon with no BS has no Hit roll to make
    without it. The flamer's other rules are: --wound-mod 1 here."""
    flamer = {"name": "Flamer", "range": 12, "A": "D6", "skill": None, "S": 4, "AP": 0, "D": 1,
              "abilities": ["torrent", "ignores cover"]}  # fmt: skip
    att = attacker(tmp_path, flamer, stem="flamers")
    out = shoot(att, target(tmp_path, models=5, Sv=7), "--wound-mod", "1", "--explain",
                dirs=[tmp_path])  # fmt: skip
    assert [r["name"] for r in out["attribution"]["rules"]] == ["--wound-mod 1"]


@pytest.mark.parametrize(
    "args",
    [
        ["exchange", "--side-a", "fight boyz", "--side-b", "fight intercessor-squad"],
        ["army", "benchmarks/army-2000.txt", "--target", "boyz"],
    ],
)
def test_commands_without_an_attribution_refuse_explain(args) -> None:
    """``calc exchange`` and ``calc army`` take the engine options but give no attribution:
    ``--explain`` is refused (a usage error), never dropped without a word."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    args = [str(root / a) if a.endswith(".txt") else a for a in args]
    result = invoke([*args, "--explain"])
    assert result.exit_code == 2
    assert "--explain" in result.output

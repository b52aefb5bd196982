"""``calc sequence``: several activations against one target, the target's state carried from
step to step.

Rules quoted:

* README "How it resolves an activation", 6: damage goes "to that one model; excess normal
  damage is lost" — so a single model is destroyed when the summed damage of every attack,
  whichever activation made it, reaches its W.
* Core rules, [BLAST] (seed 000): "add 1 to the result for every five models that were in the
  target unit when you selected it as the target (rounding down)" — each step selects the
  target anew, so Blast counts the models the earlier steps left.
* Mob Mentality (seed 000, Green Tide): "Each time an attack targets a BOYZ unit from your army
  that contains 10 or more models, models in that unit have a 5+ invulnerable save against that
  attack" (else 6+) — read per attack, so also after earlier steps.
* Save Rolls, 2. Allocation Order (seed 004, edition 11): "If a non-CHARACTER group contains a
  model that has lost one or more wounds, that group must be first in the allocation order."

Expected values are worked out by hand (fractions), by convolution, or by a small Markov chain
written here; never by the code under test.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from helpers import binom, cli, cli_json, conv, se_p

SEQ = Path(__file__).parent / "data" / "sequence"
ALLOC = Path(__file__).parent / "data" / "alloc"
TRIALS = 40_000
COLUMNS_100 = {"COLUMNS": "100"}

calc = partial(cli, dirs=[SEQ, ALLOC], env=COLUMNS_100)
as_json = partial(cli_json, dirs=[SEQ, ALLOC], env=COLUMNS_100)


def close(got: list[float], want: list, atol: float = 1e-9) -> None:
    n = max(len(got), len(want))
    g = list(got) + [0.0] * (n - len(got))
    w = [float(x) for x in want] + [0.0] * (n - len(want))
    np.testing.assert_allclose(g, w, atol=atol, rtol=0)


# ---------------------------------------------------------------------------------------------
# Two identical volleys into one model: the convolution of one volley's damage


def _one_volley() -> list[F]:
    """3 Lancers (BS3+, S12, AP-3, D D6) into a Walker (T10, Sv3+, 5+ invulnerable): each
    attack hits on 3+ (2/3), wounds on 3+ (S12 > T10, 2/3), the 5+ invulnerable save beats
    the 6+ armour save and fails on 1-4 (2/3); then D6 damage."""
    p = F(2, 3) ** 3
    attack = [1 - p] + [p / 6] * 6
    return conv(conv(attack, attack), attack)


@pytest.mark.parametrize("form", ["repeat", "two-steps"])
def test_two_volleys_into_one_model_are_a_convolution(form):
    one = _one_volley()
    total = conv(one, one)  # the damage of both volleys
    want_lost = [*total[:12], sum(total[12:])]  # the W12 model keeps at most 12 wounds lost
    steps = ["shoot lancers"] * (1 if form == "repeat" else 2)
    extra = ["--repeat", "2"] if form == "repeat" else []
    out = as_json(
        "sequence", "-t", "walker", *steps, *extra, "--method", "both", "--trials", str(TRIALS)
    )
    assert [(s["repeat"], s["step"]) for s in out["steps"]] == (
        [(1, 1), (2, 1)] if form == "repeat" else [(1, 1), (1, 2)]
    )
    close(out["wounds_lost_distribution"], want_lost, 1e-12)
    p_dead = float(sum(total[12:]))
    assert out["kill_table"] == [{"models": 1, "at_least": pytest.approx(p_dead, abs=1e-12)}]
    assert out["steps"][1]["cumulative"]["p_destroyed"] == pytest.approx(p_dead, abs=1e-12)
    # each volley's own damage figure is one volley's (damage counted before any is lost),
    # the second's only where the Walker survived the first (a destroyed unit cannot be
    # targeted: 05.04.04): 0 damage with P(first volley reaches 12)
    q = sum(one[12:])
    close(out["steps"][0]["damage_distribution"], one, 1e-12)
    second = [(1 - q) * p for p in one]
    second[0] += q
    close(out["steps"][1]["damage_distribution"], second, 1e-12)
    # step 1 alone: destroyed when one volley reaches 12 (at most 18)
    assert out["steps"][0]["cumulative"]["p_destroyed"] == pytest.approx(float(q))
    # the sampler, trial by trial
    sampled = out["sample"]["wounds_lost_distribution"]
    for w, p in enumerate(want_lost):
        assert abs(sampled[w] - float(p)) <= 5 * se_p(float(p), TRIALS), w


# ---------------------------------------------------------------------------------------------
# Step 1 is calc shoot


STEP_ONE = [
    (
        ["shoot lootas --models 10 --stationary"],
        ["-t", "intercessor-squad", "--target-models", "10"],
    ),
    (
        ["shoot lootas --loadout kustom-mega-blastas"],
        ["-t", "boyz", "--target-models", "20", "--target-leader", "warboss"],
    ),
    (
        ["fight lord-invocatus --charged"],
        ["-t", "boyz", "--target-leader", "warboss", "--edition", "11"],
    ),
    (["shoot lancers"], ["-t", "walker", "--target-wounds-left", "7"]),
    (
        ["shoot marksmen --weapon 'Needle rifle x3'"],
        ["-t", "grunts", "--target-models", "10", "--target-leader", "captain"],
    ),
]


@pytest.mark.parametrize(("steps", "target"), STEP_ONE)
def test_step_one_equals_calc_shoot(steps, target):
    """Step 1's own object and its cumulative figures are ``calc shoot``'s for that step alone
    (to 1e-9), the sampler's too (same seed)."""
    import shlex

    words = shlex.split(steps[0])
    engine = ["--method", "both", "--trials", "5000"]
    shot = as_json(*words, *target, *engine)
    seq = as_json("sequence", *target, *steps, "fight boyz", *engine)
    first = seq["steps"][0]
    for key in ("weapons", "choices", "attacker", "target", "effects", "not_modelled"):
        assert first[key] == shot[key], key
    for key in ("expected", "attacker_losses"):
        for f, v in shot[key].items():
            assert first[key][f] == pytest.approx(v, abs=1e-9), (key, f)
    for key in ("models_destroyed_distribution", "damage_distribution"):
        close(first[key], shot[key])
    close([r["at_least"] for r in first["kill_table"]], [r["at_least"] for r in shot["kill_table"]])
    cum = first["cumulative"]
    assert cum["models_destroyed"] == pytest.approx(shot["expected"]["models_destroyed"], abs=1e-9)
    assert cum["wounds_lost"] == pytest.approx(shot["expected"]["wounds_lost"], abs=1e-9)
    close([r["at_least"] for r in cum["kill_table"]], [r["at_least"] for r in shot["kill_table"]])
    assert cum["p_destroyed"] == pytest.approx(shot["kill_table"][-1]["at_least"], abs=1e-9)
    assert first["sample"]["expected"] == pytest.approx(shot["sample"]["expected"], abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Rules that read the state at each step


def test_blast_counts_the_models_left_when_the_step_selects_the_target():
    """Step 1: one Autogun (6 [TORRENT] attacks, S4 into T3: wound on 3+) kills x ~ Bin(6, 2/3)
    of 10 Grunts (W1, no save). Step 2: a [TORRENT, BLAST] flamer, A1 + 1 per five models
    left: 3 attacks if x = 0, 2 if 1 <= x <= 5, 1 if x = 6; S6 into T3 wounds on 2+ (5/6)."""
    xs = binom(6, F(2, 3))
    want = [F(0)] * 11
    wrong = [F(0)] * 11  # as if Blast counted the unharmed unit (3 attacks)
    for x, px in enumerate(xs):
        attacks = 1 + (10 - x) // 5
        for y, py in enumerate(binom(attacks, F(5, 6))):
            want[x + y] += px * py
        for y, py in enumerate(binom(3, F(5, 6))):
            wrong[x + y] += px * py
    out = as_json(
        "sequence",
        "-t",
        "grunts",
        "--target-models",
        "10",
        "shoot marksmen --weapon 'Autogun x1'",
        "shoot grenadiers --loadout flamer",
        "--method",
        "both",
        "--trials",
        str(TRIALS),
    )
    close(out["models_destroyed_distribution"], want, 1e-12)
    assert max(abs(float(a) - float(b)) for a, b in zip(want, wrong, strict=True)) > 0.01
    # step 2's own attacks and kills: E[1 + (10 - x) // 5]
    attacks = sum(px * (1 + (10 - x) // 5) for x, px in enumerate(xs))
    assert out["steps"][1]["expected"]["attacks"] == pytest.approx(float(attacks), abs=1e-12)
    own = [F(0)] * 4
    for x, px in enumerate(xs):
        for y, py in enumerate(binom(1 + (10 - x) // 5, F(5, 6))):
            own[y] += px * py
    close(out["steps"][1]["models_destroyed_distribution"], own, 1e-12)
    sampled_own = out["steps"][1]["sample"]["models_destroyed_distribution"]
    for y, p in enumerate(own):  # the sampler's: each trial's kills in step 2
        assert abs(sampled_own[y] - float(p)) <= 5 * se_p(float(p), TRIALS), y
    for k, p in enumerate(want):
        assert abs(out["sample"]["models_destroyed_distribution"][k] - float(p)) <= 5 * se_p(
            float(p), TRIALS
        )


def _mob_chain(start: dict[int, F], attacks: int, wound: F) -> dict[int, F]:
    """Models alive after ``attacks`` attacks that each wound with ``wound`` and, through a 5+
    invulnerable save with 10 or more models alive (6+ below), kill one W1 Boy."""
    dist = dict(start)
    for _ in range(attacks):
        nxt: dict[int, F] = {}
        for alive, p in dist.items():
            fail = F(4, 6) if alive >= 10 else F(5, 6)
            kill = wound * fail
            nxt[alive - 1] = nxt.get(alive - 1, F(0)) + p * kill
            nxt[alive] = nxt.get(alive, F(0)) + p * (1 - kill)
        dist = nxt
    return dist


def test_mob_mentality_reads_the_models_left_at_each_step():
    """10 Boyz. Step 1 (no Mob Mentality): one Breacher (S8 into T5: 3+) against a Boy's 5+
    save kills one Boy with 2/3 * 2/3. Step 2, with Mob Mentality: one Autogun at AP-3 (6
    [TORRENT] S4 attacks: 5+ to wound; no armour save) against a 5+ invulnerable save while 10
    or more models remain, 6+ below."""
    after_one = {10: 1 - F(4, 9), 9: F(4, 9)}
    want = _mob_chain(after_one, 6, F(1, 3))
    wrong = _mob_chain({10: F(1)}, 6, F(1, 3))  # as if step 2 started from the unharmed unit
    out = as_json(
        "sequence",
        "-t",
        "boyz",
        "shoot marksmen --weapon 'Breacher x1'",
        "shoot marksmen --weapon 'Autogun x1' --ap-mod 3 --effect mob-mentality",
        "--method",
        "both",
        "--trials",
        str(TRIALS),
    )
    dist = [want.get(10 - k, F(0)) for k in range(11)]
    close(out["models_destroyed_distribution"], dist, 1e-12)
    mean = sum(k * p for k, p in enumerate(dist))
    wrong_mean = F(4, 9) + sum((10 - a) * p for a, p in wrong.items())
    assert abs(float(mean - wrong_mean)) > 0.02
    assert out["expected"]["models_destroyed"] == pytest.approx(float(mean), abs=1e-12)
    for k, p in enumerate(dist):
        sampled = out["sample"]["models_destroyed_distribution"][k]
        assert abs(sampled - float(p)) <= 5 * se_p(float(p), TRIALS), k


def test_edition11_a_wounded_group_goes_first_in_the_next_step():
    """Duo: a W2 Sv6+ Hulk listed before a W1 Sv2+ Shield (two allocation groups). Step 1: one
    [TORRENT] S12 AP-6 Damage 1 attack (wounds on 2+, no save possible): the defender puts the
    Hulk first (no model destroyed rather than the Shield), so the Hulk has lost 1 wound with
    5/6. Step 2: one such attack at AP0: a wounded Hulk must be first and fails its 6+ save on
    1-5 (destroyed); an unharmed Hulk is put first again (no model can die). P(a model
    destroyed) = 5/6 * 5/6 * 5/6 = 125/216 (without the rule the defender would put the Shield
    first: 5/6 * 5/6 * 1/6)."""
    out = as_json(
        "sequence",
        "-t",
        "duo",
        "--edition",
        "11",
        "shoot piercer",
        "shoot piercer --loadout prod",
        "--method",
        "both",
        "--trials",
        str(TRIALS),
    )
    assert out["expected"]["models_destroyed"] == pytest.approx(125 / 216, abs=1e-12)
    assert out["kill_table"][0]["at_least"] == pytest.approx(125 / 216, abs=1e-12)
    assert out["kill_table"][1]["at_least"] == 0.0
    assert out["steps"][0]["cumulative"]["models_destroyed"] == 0.0
    se = se_p(125 / 216, TRIALS)
    assert abs(out["sample"]["kill_table"][0]["at_least"] - 125 / 216) <= 5 * se


# ---------------------------------------------------------------------------------------------
# The figures hold together


SEQUENCES = [
    [
        "-t",
        "boyz",
        "--target-models",
        "20",
        "--target-leader",
        "warboss",
        "shoot lootas --models 10 --stationary",
        "shoot lootas --loadout kustom-mega-blastas",
        "fight lord-invocatus --charged",
    ],
    [
        "-t",
        "intercessor-squad",
        "--target-models",
        "10",
        "shoot lootas --models 10",
        "fight boyz --models 20 --charged --effect waaagh",
        "--repeat",
        "2",
    ],
    [
        "-t",
        "boyz",
        "--target-leader",
        "warboss",
        "--edition",
        "11",
        "shoot lootas --models 10",
        "fight lord-invocatus --charged",
    ],
]


@pytest.mark.parametrize("args", SEQUENCES)
def test_figures_hold_together(args):
    """Kill tables never increase; every distribution sums to 1; a step's own expected models
    destroyed is the mean of its own distribution, and the steps' add up to the whole."""
    out = as_json("sequence", *args)
    n = out["target"]["models"]

    def check_kill(rows):
        ps = [r["at_least"] for r in rows]
        assert [r["models"] for r in rows] == list(range(1, n + 1))
        assert all(a >= b - 1e-12 for a, b in itertools.pairwise(ps))

    check_kill(out["kill_table"])
    assert sum(out["models_destroyed_distribution"]) == pytest.approx(1.0, abs=1e-9)
    assert sum(out["wounds_lost_distribution"]) == pytest.approx(1.0, abs=1e-9)
    own_total = 0.0
    prev_cum = 0.0
    for s in out["steps"]:
        check_kill(s["kill_table"])
        check_kill(s["cumulative"]["kill_table"])
        md = s["models_destroyed_distribution"]
        assert sum(md) == pytest.approx(1.0, abs=1e-9)
        mean = sum(k * p for k, p in enumerate(md))
        assert s["expected"]["models_destroyed"] == pytest.approx(mean, abs=1e-9)
        own_total += s["expected"]["models_destroyed"]
        assert s["cumulative"]["models_destroyed"] >= prev_cum - 1e-12
        prev_cum = s["cumulative"]["models_destroyed"]
    assert own_total == pytest.approx(out["expected"]["models_destroyed"], abs=1e-9)
    assert out["steps"][-1]["cumulative"]["kill_table"] == out["kill_table"]


def test_repeat_gives_one_row_per_step_per_repeat():
    out = as_json("sequence", "-t", "walker", "shoot lancers", "shoot marksmen", "--repeat", "3")
    assert out["repeat"] == 3
    assert [(s["repeat"], s["step"]) for s in out["steps"]] == [
        (i, j) for i in (1, 2, 3) for j in (1, 2)
    ]
    text = calc("sequence", "-t", "walker", "shoot lancers", "shoot marksmen", "--repeat", "3")
    assert text.exit_code == 0, text.output
    for label in ("1.1", "1.2", "2.1", "3.2", "repeat.step"):
        assert label in text.stdout


def test_the_text_output():
    res = calc("sequence", *SEQUENCES[0], "--method", "both", "--trials", "2000")
    assert res.exit_code == 0, res.output
    out = res.stdout
    for text in (
        "Sequence of 3 activations",
        "shoot: 10 Lootas",
        "fight: Lord Invocatus",
        "Kill table of the whole sequence",
        "Leader Warboss destroyed",
        "Step 2 Hazardous",
        "Exact vs sampled",
        "step 3 models so far",
        "Step 3: fight lord-invocatus --charged",
        "Effects: bloody-stampede",
    ):
        assert text in out, text
    assert "!" not in out.split("Exact vs sampled")[1].split("Step 1:")[0].replace("'!'", "")


def test_json_shape_and_plan_points():
    """The object of the issue's contract; the attacker's points count each unit once: the
    same Boyz shoot and then fight (one unit), two identical Loota units shoot (two units)."""
    out = as_json(
        "sequence",
        "-t",
        "intercessor-squad",
        "shoot lootas",
        "shoot lootas",
        "shoot boyz",
        "fight boyz",
        "--repeat",
        "2",
    )
    for key in (
        "schema",
        "target",
        "steps",
        "expected",
        "kill_table",
        "models_destroyed_distribution",
        "wounds_lost_distribution",
        "attacker",
        "attacker_losses",
    ):
        assert key in out, key
    assert out["schema"] == 1 and out["phase"] == "sequence"
    assert len(out["steps"]) == 8
    units = {u["name"]: u for u in out["attacker"]["units"]}
    assert units["Lootas"]["units"] == 2 and units["Lootas"]["steps"] == [1, 2]
    assert units["Boyz"]["units"] == 1 and units["Boyz"]["steps"] == [3, 4]
    assert out["attacker"]["points"] == 2 * 50 + 80
    step = out["steps"][0]
    for key in (
        "repeat",
        "step",
        "text",
        "expected",
        "weapons",
        "choices",
        "not_modelled",
        "kill_table",
        "cumulative",
    ):
        assert key in step, key
    assert set(step["cumulative"]) >= {
        "models_destroyed",
        "wounds_lost",
        "p_destroyed",
        "kill_table",
    }
    assert "sample" not in out


# ---------------------------------------------------------------------------------------------
# Mistakes


# (steps, the step in error, its message, the exit code: 2 for words that do not parse, a
# usage error as on the command line; 1 for what they name that cannot be)
ERRORS = [
    (["shoot lootas --modles 10"], 1, "No such option: --modles", 2),
    (["shoot lootas --models ten"], 1, "Invalid value for '--models': 'ten'", 2),
    (["shoot lootas", "fight boyz -t rhino"], 2, "--target: not inside a step", 2),
    (["shoot lootas --method sample --json"], 1, "--method, --json: not inside a step", 2),
    (["shoot lootas --target-models 5"], 1, "--target-models: not inside a step", 2),
    (["shoot lootaz"], 1, "unknown unit 'lootaz'; did you mean 'Lootas'", 1),
    (["shot lootas"], 1, "expected 'shoot' or 'fight' first", 2),
    (["shoot lootas", "fight lootas --loadout nope"], 2, "Lootas has no loadout 'nope'", 1),
    (
        ["shoot lootas", "fight lootas --effect hack-and-slash"],
        2,
        "needs a unit that made a Charge",
        1,
    ),
    (["shoot lootas 'unclosed"], 1, "cannot read it", 2),
    (["shoot lootas --help"], 1, "--help: not inside a step (see calc shoot --help", 2),
    (["shoot lootas", "fight boyz -h"], 2, "--help: not inside a step (see calc fight --help", 2),
]


@pytest.mark.parametrize(("steps", "index", "message", "code"), ERRORS)
def test_errors_name_the_step(steps, index, message, code):
    """Fresh-user trial: a bad option in a step exited 1 where the same at top level exits 2,
    and ``--help`` in a step printed all of calc shoot's help before an error."""
    res = calc("sequence", "-t", "boyz", *steps)
    assert res.exit_code == code, res.output
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert lines[0].startswith(f"error: step {index} ({steps[index - 1]!r}): ")
    assert message in lines[0]


def test_step_verbs_take_any_case():
    """``SHOOT``/``Fight`` as ``shoot``/``fight`` (the commands' other choices take any case);
    a misspelt verb gets a suggestion."""
    lower = as_json("sequence", "-t", "walker", "shoot lancers", "fight boyz")
    upper = as_json("sequence", "-t", "walker", "SHOOT lancers", "Fight boyz")
    assert upper["steps"][1]["phase"] == "fight"
    assert upper["expected"] == lower["expected"]
    assert upper["kill_table"] == lower["kill_table"]
    res = calc("sequence", "-t", "walker", "shot lancers")
    assert res.exit_code == 2  # a usage error
    assert "expected 'shoot' or 'fight' first, got 'shot'; did you mean 'shoot'?" in res.stderr


def test_target_errors_are_not_a_steps():
    res = calc("sequence", "-t", "boyzz", "shoot lootas")
    assert res.exit_code == 1
    assert res.stderr.startswith("error: unknown unit 'boyzz'; did you mean 'Boyz'")
    res = calc("sequence", "-t", "boyz", "--target-models", "50", "shoot lootas")
    assert res.exit_code == 1 and "step" not in res.stderr.split(":")[1]
    res = calc("sequence", "-t", "boyz")
    assert res.exit_code != 0 and "STEP" in res.output


def test_too_many_steps_are_refused():
    res = calc(
        "sequence",
        "-t",
        "boyz",
        "shoot lootas",
        "shoot lootas",
        "shoot lootas",
        "fight boyz",
        "--repeat",
        "20",
    )
    assert res.exit_code == 2  # too many whatever the data says: a usage error
    assert "at most 60" in res.stderr


def test_the_readme_example():
    """The README's example, row by row (its figures are this command's output)."""
    res = calc("sequence", "--target", "intercessor-squad", "--target-models", "10",
               "shoot lootas --models 10 --stationary",
               "shoot lootas --models 10 --loadout kustom-mega-blastas",
               "fight boyz --models 20 --charged --effect waaagh")  # fmt: skip
    assert res.exit_code == 0, res.output
    lines = [line.split() for line in res.stdout.splitlines()]
    rows = [
        [t for t in line if t[0].isdigit()][2:]
        for line in lines
        if line[:1] in (["1"], ["2"], ["3"])
    ]
    assert rows == [
        ["8.56", "6.74", "5.70", "2.68", "5.70", "0.01%"],
        ["5.44", "4.54", "7.13", "5.07", "10.27", "2.35%"],
        ["52.08", "35.15", "18.66", "9.94", "19.90", "96.17%"],
    ]
    assert "wounds lost 19.904 of 20 · models destroyed 9.940 of 10" in res.stdout


def test_when_the_exact_engine_declines_a_step_every_step_is_sampled(monkeypatch):
    """A step the exact engine declines (here: any activation with the Lascannon, made to
    decline) makes the whole sequence sampled, with the same trials for every step."""
    import wh40k_calc.resolve as resolve_module
    from wh40k_calc.engine.exact import ExactUnsupported

    real = resolve_module.run_exact

    def declining(act, *args, **kwargs):
        if any(w.name == "Lascannon" for w in act.weapons):
            raise ExactUnsupported("too large (test)")
        return real(act, *args, **kwargs)

    monkeypatch.setattr(resolve_module, "run_exact", declining)
    out = as_json("sequence", "-t", "walker", "shoot marksmen", "shoot lancers", "shoot marksmen",
                  "--trials", "3000")  # fmt: skip
    assert out["method"] == "sample"
    assert out["notes"][0].startswith("the exact engine declined step 2 (too large (test))")
    assert [s["sample"]["trials"] for s in out["steps"]] == [3000, 3000, 3000]
    assert out["sample"]["trials"] == 3000


def test_so_far_figures_never_show_the_whole_unit_when_a_model_may_survive() -> None:
    """A fresh-user trial: row 2 printed "11.00  12.00" of 11 Gretchin (12 wounds) while the
    line below said ">10.999 of 11"."""
    args = ["sequence", "--target", "gretchin"]
    args += ["fight boyz --models 20 --effect waaagh", "fight boyz --models 20"]
    cumulative = cli_json(*args)["steps"][1]["cumulative"]
    assert (
        f"{cumulative['models_destroyed']:.2f}" == "11.00" and cumulative["models_destroyed"] < 11
    )
    assert f"{cumulative['wounds_lost']:.2f}" == "12.00" and cumulative["wounds_lost"] < 12
    row = next(line for line in cli(*args).stdout.splitlines() if line.lstrip().startswith("2 "))
    assert ">10.99" in row.split() and ">11.99" in row.split()


def test_step_notes_name_the_repeats_that_have_them() -> None:
    """A fresh-user trial: with --repeat, "step 1: the target is destroyed before this step in
    every trial" was printed though steps 1.1 and 1.2 were made (it came from 2.2 and 3.2).
    A note every repeat of a step has is "step N: ..."; one only some have names them."""
    from types import SimpleNamespace as NS

    from wh40k_calc.sequence.output import _step_notes
    from wh40k_calc.sequence.steps import Step

    def step(repeat: int, index: int, notes: list[str]):
        s = NS(repeat=repeat, index=index, label=lambda rep: Step.label(s, rep))
        return NS(step=s, result=NS(notes=notes))

    gone, flag = "the target is destroyed before this step", "--charged: no effect"
    steps = [
        step(r, i, [flag] + ([gone] if (r, i) in {(2, 2), (3, 2)} else []))
        for r in (1, 2, 3)
        for i in (1, 2)
    ]
    notes = _step_notes(NS(steps=steps, repeated=True))
    assert notes == [f"step 1: {flag}", f"step 2: {flag}", f"step 2.2, 3.2: {gone}"]


@pytest.mark.parametrize("method", ["exact", "sample", "both"])
def test_a_step_that_cannot_be_planned_is_named_by_every_engine(method: str) -> None:
    """A fresh-user trial: with the sampler the error lost its "step 2 ('...')" prefix."""
    res = cli("sequence", "--method", method, "--target", "boyz", "shoot lootas",
              "shoot lootas --models 15")  # fmt: skip
    assert res.exit_code == 1
    assert res.stderr.startswith(
        "error: step 2 ('shoot lootas --models 15'): --models 15: Lootas cannot have 15 models"
    )

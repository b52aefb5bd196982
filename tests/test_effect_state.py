"""Conditions on the target's state read at each step of ``calc sequence`` (issue 18, item 5):
an effect "+1 to the Hit roll against a Below Half-strength unit" in a second step acts in the
states the first step left the target Below Half-strength, and only there; both engines.

Hand-worked: the target is 4 W1 models with no save (Starting Strength 4: Below
Half-strength with fewer than 2 models left). Step 1: 3 torrent attacks S8 (each wounds on 2+,
5/6, and destroys a model): it leaves 1 model with P = (5/6)^3 = 125/216. Step 2: 12 shots at
BS4+ (S4 v T4), +1 to hit in those states: expected hits 12 x (4/6 x 125/216 + 3/6 x 91/216)."""

from __future__ import annotations

from fractions import Fraction as F

import yaml
from helpers import cli_json
from oracle import attacker, target, weapon

from wh40k_calc import effect_files, effects

TRIALS = 40_000


def _files(tmp_path):
    root = tmp_path / "effects"
    for ed in ("10", "11"):
        folder = root / f"edition-{ed}"
        folder.mkdir(parents=True)
        doc = {
            "schema": 1,
            "edition": int(ed),
            "faction": "Testers",
            "data": {"source": "tests"},
            "effects": [
                {"id": "finish-them", "name": "Finish Them", "kind": "stratagem",
                 "summary": "s", "side": "attacker",
                 "changes": [{"hit_mod": 1, "when": {"target_below_half_strength": True}}]},
            ],
        }  # fmt: skip
        (folder / "testers.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    effect_files.set_roots([root])
    effects.clear_caches()


def test_below_half_strength_is_read_from_each_steps_start(tmp_path):
    _files(tmp_path)
    try:
        attacker(tmp_path, weapon("Flame", A=3, skill=None, S=8, abilities=["torrent"]),
                 stem="burner")  # fmt: skip
        attacker(tmp_path, weapon(A=12, skill=4, S=4), stem="gunner")
        t = target(tmp_path, models=4, T=4, Sv=7, W=1)
        out = cli_json(
            "sequence", "-t", t, "shoot burner", "shoot gunner --effect finish-them",
            "--method", "both", "--trials", str(TRIALS), "--seed", "7", dirs=[tmp_path],
        )  # fmt: skip
        p_one_left = F(5, 6) ** 3
        want = 12 * (F(4, 6) * p_one_left + F(3, 6) * (1 - p_one_left))
        step2 = out["steps"][1]
        assert abs(step2["expected"]["hits"] - float(want)) < 1e-6
        sampled = step2["sample"]["expected"]["hits"]
        # per trial hits ~ Binomial(12, 1/2 or 2/3): sd below 1.8
        assert abs(sampled - float(want)) < 5 * 1.8 / TRIALS**0.5
        # without the effect: 6 hits in every state
        plain = cli_json("sequence", "-t", t, "shoot burner", "shoot gunner", dirs=[tmp_path])
        assert abs(plain["steps"][1]["expected"]["hits"] - 6) < 1e-6
    finally:
        effect_files.set_roots(None)
        effects.clear_caches()

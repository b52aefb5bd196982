"""Batch files whose YAML aliases nest (``&k1 [*k0, *k0]``, ``&k2 [*k1, *k1]``, ...): a few
hundred bytes standing for 2^n values. Each error comes at once, whatever the depth (the
check costs what the file does, not what it expands to), and a run too large written out in
full is refused for its size rather than walked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli

from wh40k_calc import batch as batch_module

MAX_VALUES = 1_000_000  # README: "more than 1,000,000 values"


def chain(depth: int, leaf: str = "waaagh", k: str = "k") -> str:
    """``[&k0 [leaf, leaf], &k1 [*k0, *k0], ...]``: its last item is 2^(depth+1) leaves (its
    anchors named ``k`` and a number)."""
    items = [f"&{k}0 [{leaf}, {leaf}]"]
    items += [f"&{k}{i} [*{k}{i - 1}, *{k}{i - 1}]" for i in range(1, depth)]
    return "[" + ", ".join(items) + "]"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "b.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_tester_file_ends_at_once(tmp_path):
    """The 544-byte file of the trial (27 levels) ran for minutes; 60 levels (2^61 values)
    now give the schema error of the first nested list. In a child process with a time limit:
    a regression hangs, it does not stop the test run."""
    path = write(
        tmp_path, f"targets: [boyz]\nruns:\n  - attacker: lootas\n    effects: {chain(60)}\n"
    )
    cmd = [sys.executable, "-m", "wh40k_calc", "compare", str(path)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert res.returncode == 1
    assert res.stderr == f"error: {path}:4: run 'runs[0]': effects[0]: must be text, not a list\n"


def test_nested_aliases_in_each_kind_of_field(tmp_path):
    """A run's list field, a unit's, a sequence step's, an exchange side's and a default's:
    each its own schema error, with its line."""
    text = (
        f"targets: [boyz]\nruns:\n"
        f"  - {{attacker: lootas, effects: {chain(40, k='a')}}}\n"
        f"  - {{name: w, attacker: {{name: lootas, weapons: {chain(40, k='b')}}}}}\n"
        f"  - {{name: s, sequence: [{{attacker: boyz, add_abilities: {chain(40, k='c')}}}]}}\n"
        f"  - {{name: x, exchange: {{side_a: {chain(40, k='d')}, side_b: boyz}}}}\n"
        f"  - {{name: t, attacker: lootas, targets: {chain(40, k='e')}}}\n"
        f"  - {{name: ok, attacker: lootas, target: boyz}}\n"
    )
    res = cli("compare", write(tmp_path, text))
    path = tmp_path / "b.yaml"
    assert res.exit_code == 1
    errors = res.stderr.splitlines()
    assert errors == [
        f"error: {path}:3: run 'runs[0]': effects[0]: must be text, not a list",
        f"error: {path}:4: run 'w': attacker.weapons[0]: must be text, not a list",
        f"error: {path}:5: run 's': step 1: add_abilities[0]: must be text, not a list",
        f"error: {path}:6: run 'x': exchange.side_a[0]: must be text, not a list",
        f"error: {path}:7: run 't': targets[0]: must be text or a mapping, not a list",
    ]
    assert "ok" in res.stdout  # the good run still prints

    res = cli("compare", write(tmp_path, f"targets: {chain(40)}\nruns: [{{attacker: lootas}}]\n"))
    assert res.stderr == f"error: {path}:1: targets[0]: must be text or a mapping, not a list\n"


def test_a_valid_run_too_large_written_out_is_refused_for_its_size(tmp_path):
    """Nothing nests too deeply here, but 1,100 steps of 1,100 effects each are 1.2 million
    values written out (a few kB of YAML): refused for the size, the other runs kept."""
    effects = "&e [" + ", ".join(["waaagh"] * 1_100) + "]"
    steps = "[&s {attacker: boyz, effects: " + effects + "}" + ", *s" * 1_099 + "]"
    text = f"targets: [boyz]\nruns:\n  - {{name: big, sequence: {steps}}}\n  - attacker: lootas\n"
    res = cli("compare", write(tmp_path, text))
    assert res.exit_code == 1
    assert res.stderr == (
        f"error: {tmp_path / 'b.yaml'}:3: run 'big': the run written out in full (YAML "
        f"aliases expanded) would be more than {MAX_VALUES:,} values (list items, mapping keys and "
        "values); a batch file takes at most that\n"
    )
    assert "lootas" in res.stdout


def test_runs_too_large_together_are_refused_from_the_one_that_passes_the_limit(
    tmp_path, monkeypatch
):
    """Runs each under the limit (here 1,000 values) but sharing one 301-value list: the
    fourth passes the total and is refused, and so is the fifth (each checked on its copy cut
    short: valid, so refused for its size); the first three are resolved (one error for the
    three: 'x' is no weapon ability)."""
    monkeypatch.setattr(batch_module, "MAX_VALUES", 1_000)
    rows = "\n".join(f"  - {{name: r{i}, attacker: lootas, add_abilities: *a}}" for i in range(4))
    text = "targets: [boyz]\nruns:\n  - {name: r, attacker: lootas, add_abilities: &a [" + (
        ", ".join(["x"] * 300) + "]}\n" + rows + "\n"
    )
    res = cli("compare", write(tmp_path, text))
    lines = res.stderr.splitlines()
    assert len(lines) == 3 and "runs 'r', 'r0' and 'r1': add_abilities[0]" in lines[0]
    assert ":6: run 'r2': the runs up to this one, together, written out in full" in lines[1]
    assert ":7: run 'r3': the runs up to this one, together, written out in full" in lines[2]


def test_the_documented_limit():
    assert batch_module.MAX_VALUES == MAX_VALUES


def test_the_count_against_a_hand_count():
    """1 for a scalar; a list: 1 + its items; a mapping: 1 + its keys + its values."""
    from wh40k_calc.batch import _Expansion

    leaf = ["a", "b"]  # 3
    nested: list = [leaf, leaf]  # 1 + 3 + 3
    for _ in range(98):
        nested = [nested, nested]
    # level n (leaf: level 0) counts 2^(n+2) - 1: the 100th is 2^101 - 1, capped at 2^63
    assert _Expansion().size([[leaf, leaf], [leaf, leaf]]) == 15
    assert _Expansion().size({"a": leaf, "b": 1}) == 1 + 2 + 3 + 1
    assert _Expansion().size(nested) == 2**63
    loop: list = []
    loop.append(loop)
    assert _Expansion().size(loop) > MAX_VALUES  # inside itself: endless


def test_the_cut_copy_keeps_every_valid_run_whole():
    """No valid run nests deeper than the schema's depth, so the copy cut there is the run."""
    from wh40k_calc.batch import RunSpec, _cut, _schema_depth

    run = {
        "sequence": [{"attacker": {"name": "boyz", "weapons": ["Choppa x9"]}}],
        "conditions": {"charged": True},
    }
    assert _cut(run, _schema_depth(RunSpec)) == run
    assert _cut([[["x"]]], 2) == [[[]]]


def test_the_count_made_while_reading_is_the_hand_count():
    """The quick reading counts each list and mapping as it builds it (``Parsed.sizes``):
    the same numbers as the hand-checked walk above, on every value of documents whose
    aliases nest, repeat mappings and reach past the cap."""
    from wh40k_calc.batch import _Expansion
    from wh40k_calc.yamlio import parse_data

    texts = [
        f"runs: {chain(12)}\n",
        f"runs: {chain(70)}\n",  # 2^71 values: capped at 2^63, as the walk caps them
        "a: &m {x: 1, y: [p, q], z: {w: null}}\nruns: [*m, *m, {k: *m, j: [*m, 2]}]\n",
        "a: &s x\nruns: [*s, b, 1.5, {}, [], {x: []}]\n",
    ]
    for text in texts:
        parsed = parse_data(text)
        values: list = []
        stack = [parsed.data]
        while stack:
            v = stack.pop()
            if isinstance(v, (list, dict)) and all(v is not w for w in values):
                values.append(v)
                stack.extend(v.values() if isinstance(v, dict) else v)
        assert values and len(parsed.sizes) == len(values)
        for v in values:
            assert parsed.sizes[id(v)] == _Expansion().size(v), (text, v)
    assert parse_data("runs: [a, b]\n").sizes == {}  # no alias: nothing counted


# --- lines of runs written through anchors: ``<<: *anchor`` merges and ``- *anchor`` repeats ---

MERGED = """\
targets: [boyz]
runs:
  - &r1
    name: one
    attacker: {name: lootas, models: 5}
  - name: two
    attacker: lootas
  - <<: *r1
    name: five
    attacker: {name: lootas, modles: 3}
  - <<: *r1
    name: six
    attacker: {name: lootas, modles: 3}
"""

MODLES = "attacker: unknown field 'modles'; did you mean 'models'?"


def test_a_field_a_merging_run_writes_itself_is_reported_at_its_own_line(tmp_path):
    """Each run that merges ``*r1`` and writes its own bad ``attacker`` has the error at its own
    attacker (lines 10 and 13, counted by hand above), so the two are two errors, not one
    error of "runs 'five' and 'six'" at the anchored run's attacker (line 5)."""
    path = write(tmp_path, MERGED)
    res = cli("compare", path)
    assert res.exit_code == 1
    errors = res.stderr.splitlines()
    assert [e.split(" (fields:")[0] for e in errors] == [
        f"error: {path}:10: run 'five': {MODLES}",
        f"error: {path}:13: run 'six': {MODLES}",
    ]
    assert "one" in res.stdout and "two" in res.stdout  # the good runs still print


def test_a_field_only_merged_is_reported_where_it_is_written(tmp_path):
    """A bad field the merging runs take from the anchored run is that run's line (5): one
    error there, naming each run that has it."""
    text = MERGED.replace("models: 5", "modles: 5").replace(
        "    attacker: {name: lootas, modles: 3}\n", ""
    )
    path = write(tmp_path, text)
    res = cli("compare", path)
    assert res.exit_code == 1
    errors = [e.split(" (fields:")[0] for e in res.stderr.splitlines()]
    assert errors == [f"error: {path}:5: runs 'one', 'five' and 'six': {MODLES}"]


def test_a_whole_run_repeated_by_an_alias_under_a_taken_name_is_told_at_the_alias(tmp_path):
    """``- *r1`` repeats run 'one' whole, name included: the error is at the alias (line 8),
    says which run repeats which, and how to name it."""
    text = MERGED.split("  - <<: *r1")[0] + "  - *r1\n"
    path = write(tmp_path, text)
    res = cli("compare", path)
    assert res.exit_code == 1
    assert res.stderr.splitlines() == [
        f"error: {path}:8: run 'one': name: name used by runs[0] as well: runs[2] repeats "
        "runs[0] through a YAML alias; give it a name of its own (<<: *anchor, then name: ...)"
    ]
    # an unnamed run repeated whole is numbered, as any run whose made name is taken
    text = text.replace("    name: one\n", "")
    res = cli("compare", write(tmp_path, text), "--json")
    assert res.exit_code == 0, res.output
    assert [r["run"] for r in json.loads(res.stdout)] == ["lootas x5", "two", "lootas x5 #2"]


@pytest.mark.parametrize("tree", ["constructed", "composed"])
def test_the_line_of_a_key_is_that_of_the_value_the_data_holds(tree):
    """``batch._child`` against what PyYAML builds: for each key of each mapping, the node it
    finds holds the value the data has (an own key over a merged one, an earlier ``<<`` over
    a later, the first mapping of a ``<<`` list over the next), in the tree PyYAML constructed
    (its merged pairs moved in front) and in one only composed (its ``<<`` pairs in place)."""
    from wh40k_calc import yamlio

    text = (
        "a: &a {x: 1, y: 1}\n"
        "b: &b {x: 2, z: 2, w: 2}\n"
        "c:\n  <<: *a\n  w: 3\n  <<: *b\n"
        "d:\n  <<: [*a, *b]\n"
        "e:\n  <<: [*b, *a]\n  y: 5\n"
    )
    data, built = yamlio.parse(text)
    node = built if tree == "constructed" else yamlio.compose(text)
    for name in "cde":
        for key, value in data[name].items():
            found = batch_module._child(batch_module._child(node, name), key)
            assert int(found.value) == value, (name, key)


def test_a_whole_run_alias_in_a_file_with_merge_keys_is_told_at_the_alias(tmp_path):
    """A ``<<`` merge key sends the file to PyYAML's full reading, whose node tree gives an
    alias its anchor's node: the repeated run's line (6, counted by hand) comes from the
    parser's events instead, not the anchor's (3)."""
    text = (
        "targets: [boyz]\nruns:\n"
        "  - &r1 {name: one, attacker: {name: lootas, models: 5}}\n"
        "  - {<<: *r1, name: two, attacker: {name: lootas, modles: 3}}\n"
        "  - {<<: *r1, name: three}\n"
        "  - *r1\n"
    )
    path = write(tmp_path, text)
    res = cli("compare", path)
    assert res.exit_code == 1
    errors = [e.split(" (fields:")[0] for e in res.stderr.splitlines()]
    assert errors == [
        f"error: {path}:4: run 'two': {MODLES}",
        f"error: {path}:6: run 'one': name: name used by runs[0] as well: runs[3] repeats "
        "runs[0] through a YAML alias; give it a name of its own (<<: *anchor, then name: ...)",
    ]
    from wh40k_calc.yamlio import top_list_lines

    def runs(key: str) -> bool:
        return key == "runs"

    assert top_list_lines(text, runs) == [3, 4, 5, 6]
    assert top_list_lines("runs: 3\n", runs) is None


def test_a_name_taken_through_a_merge_or_written_twice_names_the_run_at_its_own_line(tmp_path):
    """The second trial: runs that take run 'one''s name through ``<<: *r1`` were refused at
    the anchored run's name (line 4) as "run 'one' ... used by runs[0]", the runs themselves
    unnamed. Each is now told at its own line (6 and 8, counted by hand), as runs[1] and
    runs[2]; a name written twice, at its own line (10) as runs[3]."""
    text = (
        "targets: [boyz]\nruns:\n"
        "  - &r1\n    name: one\n    attacker: {name: lootas, models: 5}\n"
        "  - <<: *r1\n    attacker: {name: lootas, models: 3}\n"
        "  - <<: *r1\n    phase: fight\n"
        "  - name: one\n    attacker: lootas\n"
    )
    path = write(tmp_path, text)
    res = cli("compare", path)
    assert res.exit_code == 1
    head = "run 'one': name: name used by runs[0] as well: "
    merged = "takes it from the run it merges (<<); give it a name of its own"
    assert res.stderr.splitlines() == [
        f"error: {path}:6: {head}runs[1] {merged}",
        f"error: {path}:8: {head}runs[2] {merged}",
        f"error: {path}:10: {head}runs[3] needs a name of its own",
    ]

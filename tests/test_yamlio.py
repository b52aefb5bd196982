"""yamlio.parse builds the data its strict loader builds when it constructs the whole
document (a quick path for strings, lists and mappings; anything unusual left to the loader
whole): the same data, the same aliases, the same errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from wh40k_calc.yamlio import MAX_BYTES, YamlError, _describe, _StrictLoader, parse, read_text

DOCUMENTS = {
    "plain": "title: t\nruns:\n- name: a\n  attacker: {name: boyz, models: 10}\n  target: rhino\n",
    "scalars": "a: 1\nb: 2.5\nc: true\nd: null\ne:\nf: 2024-01-02\ng: '12'\nh: !!str 7\ni: 0x1F\n",
    "anchors": "base: &b {name: boyz, models: 10}\nruns: [*b, *b, {attacker: *b}]\n",
    "merge key": "base: &b {name: boyz, models: 10}\nrun: {<<: *b, models: 20}\n",
    "set and omap": "s: !!set {a, b}\no: !!omap [{x: 1}, {y: 2}]\n",
    "keys": "1: one\nfalse: yes\n~: none\n2.5: x\n",
    "unhashable key": "[1, 2]: list\n",
    "key twice": "a: 1\nb: 2\na: 3\n",
    "key twice inside": "r: [{k: 1}, {k: 1, j: 2, k: 2}]\n",
    "key twice, equal values": "1: a\n1.0: b\n",
    "sequence top": "- 1\n- [a, {b: c}]\n",
    "scalar top": "just text\n",
}


def whole(text: str) -> tuple[str, object]:
    """What the strict loader gives constructing the whole document: ("data", data) or
    ("error", message)."""
    loader = _StrictLoader(text)
    try:
        return "data", loader.construct_document(loader.get_single_node())
    except yaml.YAMLError as exc:
        return "error", _describe(exc)
    finally:
        loader.dispose()


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_parse_builds_what_the_loader_builds_whole(name: str) -> None:
    text = DOCUMENTS[name]
    kind, expected = whole(text)
    if kind == "error":
        with pytest.raises(YamlError) as info:
            parse(text)
        assert str(info.value) == expected
        return
    data, node = parse(text)
    assert data == expected and type(data) is type(expected)
    assert node is not None


def test_an_alias_is_the_same_object_as_its_anchor() -> None:
    data, _ = parse(DOCUMENTS["anchors"])
    assert data["runs"][0] is data["base"] and data["runs"][2]["attacker"] is data["base"]


def test_a_node_inside_itself_is_built_by_the_loader() -> None:
    data, _ = parse("a: &a [1, *a]\n")
    assert data["a"][0] == 1 and data["a"][1] is data["a"]


@pytest.mark.parametrize("name", ["key twice", "key twice inside", "key twice, equal values"])
def test_a_key_given_twice_is_refused_with_its_line(name: str) -> None:
    with pytest.raises(YamlError, match=r"given twice \(first at line \d+\)"):
        parse(DOCUMENTS[name])


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("models: !!int ten\n", "line 1, column 9", "'ten' is not a valid !!int"),
        ("a: 1\nb: !!float many\n", "line 2, column 4", "'many' is not a valid !!float"),
        (
            "d: !!timestamp 2020-99-99\n",
            "line 1, column 4",
            "'2020-99-99' is not a valid !!timestamp",
        ),
    ],
)
def test_a_tagged_value_that_does_not_convert_is_a_yaml_error(
    text: str, where: str, what: str
) -> None:
    """PyYAML raises a bare ValueError for ``!!int ten``; it reached the user as a traceback
    (a batch or datasheet file). It is a YAML error at the value, through both paths."""
    for read in (parse, lambda t: yaml.load(t, Loader=_StrictLoader)):
        with pytest.raises((YamlError, yaml.YAMLError)) as info:
            read(text)
        message = str(info.value) if isinstance(info.value, YamlError) else _describe(info.value)
        assert message.startswith(f"{where}: {what}")


@pytest.mark.parametrize(
    "text",
    [
        "a: &d {name: lootas, models: 10}\nb: {<<: *d, loadout: x}\n",
        "a: &d {name: lootas, models: 10}\nb: {<<: [*d], models: 5}\n",  # explicit key wins
        "a: &d {m: 1}\nc: &e {n: 2}\nb:\n  <<: [*d, *e]\n  p: 3\n",
    ],
)
def test_merge_keys_read_as_pyyaml_reads_them(text: str) -> None:
    """``<<`` merge keys (YAML 1.1, read by PyYAML's safe_load) were refused: the duplicate-key
    check built every key, ``<<`` included, before PyYAML merged them."""
    assert parse(text)[0] == yaml.safe_load(text)
    assert yaml.load(text, Loader=_StrictLoader) == yaml.safe_load(text)


def test_a_key_given_twice_beside_a_merge_key_is_still_refused() -> None:
    with pytest.raises(YamlError, match="key 'p' given twice"):
        parse("a: &d {m: 1}\nb: {<<: *d, p: 1, p: 2}\n")


def test_the_size_cap_is_the_one_the_readme_states(tmp_path) -> None:
    """Issue 21, A1: the cap was 8 MiB (8,388,608 bytes) while the README said 8 MB."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    stated = re.search(r"larger than (\d+) MB \(([\d,]+) bytes\) are refused", readme)
    assert stated is not None
    assert MAX_BYTES == int(stated.group(2).replace(",", "")) == int(stated.group(1)) * 10**6
    over = tmp_path / "over.yaml"
    over.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(YamlError, match=rf"larger than {stated.group(1)} MB"):
        read_text(over, "batch file")
    exact = tmp_path / "exact.yaml"
    exact.write_bytes(b"#" * MAX_BYTES)
    assert read_text(exact, "batch file") == "#" * MAX_BYTES


@pytest.mark.parametrize(
    ("text", "where", "code"),
    [("runs:\n  - attacker: lootas\x00\n", "line 2, column 21", "U+0000"),
     ("\x07a: 1\n", "line 1, column 1", "U+0007")],
)  # fmt: skip
def test_a_character_yaml_does_not_allow_is_one_line_with_its_place(text, where, code) -> None:
    """A NUL byte or another control character: one line naming its line and column (the
    reader's error has a position, not a mark; the fresh trial got its two lines joined by a
    literal "\\n")."""
    with pytest.raises(YamlError) as info:
        parse(text)
    message = str(info.value)
    assert message == f"{where}: a character YAML does not allow ({code})"


def test_a_batch_file_with_a_nul_byte_is_one_line_of_error(tmp_path: Path) -> None:
    from helpers import cli

    path = tmp_path / "nul.yaml"
    path.write_bytes(b"runs:\n  - attacker: lootas\x00\ntargets: [boyz]\n")
    r = cli("compare", str(path))
    assert r.exit_code == 1
    assert r.output.strip() == (
        f"error: {path}: malformed YAML: line 2, column 21: a character YAML does not allow "
        "(U+0000)"
    )


# parse_data: the same data read from the parser's events, the node tree only when asked for

MORE = {
    **DOCUMENTS,
    "empty": "",
    "comment only": "# nothing\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "tagged": "a: !!str 7\nb: !custom x\nc: ! plain\n",
    "undefined alias": "a: *nowhere\n",
    "anchor twice": "a: &x 1\nb: &x 2\nc: *x\n",
    "nested alias": "a: &x [1, &y {k: v}]\nb: *y\nc: *x\n",
    "value key": "a: {=: 1}\n",
    "deep": "a: " + "[" * 300 + "]" * 300 + "\n",
    "too deep": "a: " + "[" * 2000 + "]" * 2000 + "\n",
    "malformed": "a: [1, 2\nb: 3\n",
    "quoted scalars": "a: '1'\nb: \"true\"\nc: 'null'\nd: ~\ne: yes\nf: 0o17\ng: .inf\n",
    "key not a scalar": "? [1, 2]\n: list\n? {a: 1}\n: map\n",
    "nul": "runs:\n  - attacker: lootas\x00\n",
    # one text plain and quoted, as keys and as values, before and after its plain reading
    "texts plain and quoted": (
        "a: 'yes'\nyes: 1\n'1': x\n2: y\nb: [\"no\", no, '~', ~, 1.5, '1.5', 0x1f, '0x1f']\n"
        "'no': [x, 'x', &q 'z', *q, \"2\", 2]\nc: {'yes': 'no', \"1.5\": 1.5, no: 'a'}\n"
    ),
}

QUICK = {"plain", "anchors", "keys", "sequence top", "scalar top", "nested alias", "deep"}
QUICK |= {"quoted scalars", "texts plain and quoted"}


@pytest.mark.parametrize("name", sorted(MORE))
def test_parse_data_builds_what_parse_builds(name: str) -> None:
    """The oracle: :func:`parse` (itself checked against the loader's whole construction
    above): the same data (types included), the same aliases, the same error message."""
    from wh40k_calc.yamlio import parse_data

    text = MORE[name]
    try:
        expected, node = parse(text)
    except YamlError as exc:
        with pytest.raises(YamlError) as info:
            parse_data(text)
        assert str(info.value) == str(exc)
        return
    got = parse_data(text)
    assert ("node" not in got._composed) == (name in QUICK)  # read from the events, or whole
    assert got.data == expected and type(got.data) is type(expected)
    assert repr(got.data) == repr(expected)  # 1 and 1.0, True and 1 told apart
    assert _tree(got.node) == _tree(node)  # the same tree, composed when asked for


def test_parse_data_keeps_aliases_as_one_object() -> None:
    from wh40k_calc.yamlio import parse_data

    data = parse_data(MORE["nested alias"]).data
    assert data["c"] is data["a"] and data["b"] is data["a"][1]
    data = parse_data(DOCUMENTS["anchors"]).data
    assert data["runs"][0] is data["base"] and data["runs"][2]["attacker"] is data["base"]


def test_parse_data_gives_each_list_item_its_line() -> None:
    """``item_lines``: the oracle is the node tree's own marks, item by item, for every list
    of a batch-like document (flow and block lists, items of several lines, comments)."""
    from wh40k_calc.yamlio import parse_data

    text = (
        "# a batch\ntitle: t\nruns:\n- name: a\n  attacker: {name: boyz}\n\n"
        "  targets: [rhino,\n    boyz]\n# between\n- name: b\n  attacker: lootas\n"
        "-   name: c\n    sequence:\n      - attacker: x\n      -\n        attacker: y\n"
    )
    parsed = parse_data(text)
    node = compose_node(text)

    def walk(data, node) -> int:
        n = 0
        if isinstance(data, list):
            assert parsed.item_lines[id(data)] == tuple(c.start_mark.line + 1 for c in node.value)
            n += 1
            for d, c in zip(data, node.value, strict=True):
                n += walk(d, c)
        elif isinstance(data, dict):
            for (_, c), d in zip(node.value, data.values(), strict=True):
                n += walk(d, c)
        return n

    assert walk(parsed.data, node) == 3  # runs, targets and sequence: every list checked
    assert parsed.item_lines[id(parsed.data["runs"])] == (4, 10, 12)


def compose_node(text: str):
    loader = _StrictLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _tree(node, seen=None):
    """A node tree as nested tuples: tag, marks, values (a node met again: its marks)."""
    seen = set() if seen is None else seen
    if node is None:
        return None
    head = (node.tag, node.start_mark.line, node.start_mark.column)
    if id(node) in seen:
        return head
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        return (*head, node.value)
    if isinstance(node, yaml.SequenceNode):
        return (*head, tuple(_tree(c, seen) for c in node.value))
    return (*head, tuple((_tree(k, seen), _tree(v, seen)) for k, v in node.value))

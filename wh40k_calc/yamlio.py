"""Reading the user's YAML (datasheets, batch files) strictly: a file larger than 8 MB is
refused before it is read; a key given twice in one mapping is an error, not a silent
overwrite; a document nested too deeply is an error, not a crash; every error says where (line
and column).

Parsing goes through libyaml's C parser where PyYAML has it (``yaml.CSafeLoader``, several
times faster), else through the pure-Python ``SafeLoader``; both build safe types only, and the
duplicate-key check is the same Python code on top of either. :func:`parse` builds strings,
lists and mappings from the node tree itself (PyYAML's constructor costs a third of reading a
2,000-run batch) and gives the loader anything else. libyaml refuses nesting deeper
than its own limit with an error, the Python parser with a RecursionError: both are reported as
"nested too deeply" or with the parser's message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

_T = TypeVar("_T")

MAX_BYTES = 8_000_000  # 8 MB, as the README says; no datasheet or batch file comes near it


class YamlError(ValueError):
    """Malformed YAML; the message gives the line and column where known."""


_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_BASE):  # type: ignore[valid-type,misc]
    """The safe loader (libyaml's where available) refusing duplicate keys in a mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # ``<<``: merged by PyYAML below; an explicit key overrides a merged one
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                continue  # SafeLoader reports unhashable keys itself
            if key in seen:
                first = seen[key].start_mark
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"key {key!r} given twice (first at line {first.line + 1})",
                    key_node.start_mark,
                )
            seen[key] = key_node
        return super().construct_mapping(node, deep=deep)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """PyYAML's, with a tagged scalar that does not convert (``!!int ten``: PyYAML raises
        a bare ValueError) reported as a YAML error at the value."""
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, TypeError, OverflowError) as exc:
            tag = str(node.tag).removeprefix("tag:yaml.org,2002:")
            raise yaml.constructor.ConstructorError(
                None, None, f"{node.value!r} is not a valid !!{tag} ({exc})", node.start_mark
            ) from None


def _describe(exc: yaml.YAMLError, text: str = "") -> str:
    """One line for a YAML error: "line L, column C: problem (context at ...)". A character
    YAML does not allow (a NUL byte, a control character: the reader's error, which has a
    position in ``text`` rather than a mark) by its line, column and code point."""
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        line, column = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character))
        return f"line {line}, column {column}: a character YAML does not allow (U+{char:04X})"
    mark = getattr(exc, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
    problem = getattr(exc, "problem", None) or str(exc)
    if "maximum nesting depth" in problem:  # libyaml's limit
        return f"{where}nested too deeply"
    ctx, cmark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if ctx and cmark:
        problem += f" ({ctx} at line {cmark.line + 1}, column {cmark.column + 1})"
    return f"{where}{problem}"


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of a user's YAML file (``what``: "datasheet file", "batch file"), with
    line endings made ``\\n`` and a leading byte-order mark dropped. At most MAX_BYTES are
    read: a larger file (or an endless one, such as a link to /dev/zero) is refused.

    Raises:
        YamlError: missing, a folder, unreadable, larger than 8 MB, or not UTF-8; the message
            names ``path``.
    """
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise YamlError(
                f"{path}: larger than {MAX_BYTES // 1_000_000} MB, too large for a {what}"
            )
        text = data.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark is no text
        return text.replace("\r\n", "\n").replace("\r", "\n")
    except FileNotFoundError:
        raise YamlError(f"{path}: {what} not found") from None
    except IsADirectoryError:
        raise YamlError(f"{path}: is a folder, not a {what}") from None
    except OSError as exc:
        raise YamlError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise YamlError(f"{path}: not UTF-8 text") from None


def _parsed(path: Path, what: str, how: Callable[[str], _T]) -> _T:
    """``how`` applied to the text of ``path`` (:func:`read_text`); its YamlError said with the
    file's name ("PATH: malformed YAML: line L, column C: ...")."""
    text = read_text(path, what)
    try:
        return how(text)
    except YamlError as exc:
        raise YamlError(f"{path}: malformed YAML: {exc}") from None


def read_document(path: Path, what: str) -> tuple[Any, yaml.Node | None]:
    """The data and node tree of the user's YAML file ``path`` (``what``: "batch file", ...):
    :func:`read_text` then :func:`parse`.

    Raises:
        YamlError: as :func:`read_text` says, or "PATH: malformed YAML: line L, column C: ...".
    """
    return _parsed(path, what, parse)


def load(text: str) -> Any:
    """Parse ``text`` as one YAML document (safe types only).

    Raises:
        YamlError: malformed YAML, a duplicate key, or nesting too deep.
    """
    return parse(text)[0]  # a safe loader subclass: safe types only


def parse(text: str) -> tuple[Any, yaml.Node | None]:
    """Parse ``text`` once into its data (safe types only) and its node tree (for line numbers
    of fields); (None, None) for an empty document.

    Raises:
        YamlError: malformed YAML, a duplicate key, or nesting too deep.
    """
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        data = _construct(loader, node) if node is not None else None
    except yaml.YAMLError as exc:
        raise YamlError(_describe(exc, text)) from None
    except RecursionError:
        raise YamlError("nested too deeply") from None
    finally:
        loader.dispose()
    return data, node


@dataclass(frozen=True)
class Parsed:
    """One YAML document read by :func:`parse_data`: its ``data`` (what :func:`parse`
    builds), its ``text``, and ``item_lines``: for each list the quick reading built (by
    ``id``; the data keeps them alive), the line (1-based) each of its items starts on. The
    node tree (:attr:`node`, for the line of any field) is composed from the text when first
    asked for: only an error message needs it."""

    data: Any
    text: str
    item_lines: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    # each list and mapping the quick reading built (by ``id``) -> its size written out in
    # full, every alias expanded (``batch._Expansion``'s count, made while reading); empty
    # where the text has no alias or the reading was not the quick one
    sizes: Mapping[int, int] = field(default_factory=dict)
    _composed: dict[str, yaml.Node | None] = field(default_factory=dict, compare=False, repr=False)

    @property
    def node(self) -> yaml.Node | None:
        """The document's node tree, as :func:`parse` gives it (composed once)."""
        if "node" not in self._composed:
            self._composed["node"] = compose(self.text)
        return self._composed["node"]


def read_data(path: Path, what: str) -> Parsed:
    """:func:`read_text` then :func:`parse_data`: a batch file's data, read the quick way.

    Raises:
        YamlError: as :func:`read_document` says.
    """
    return _parsed(path, what, parse_data)


def parse_data(text: str) -> Parsed:
    """The data :func:`parse` builds from ``text``, read from libyaml's events (with
    PyYAML's own resolver and constructor for every scalar that is not a string) without
    composing the node tree: a 2,000-run batch reads in a quarter of the time. Anything
    unusual (a tag, a merge key, a key given twice or not a scalar, an anchor given twice or
    used inside itself, several documents, an error of any kind) is read by :func:`parse`
    whole, which builds it or says what is wrong, as it always did.

    Raises:
        YamlError: as :func:`parse`.
    """
    if hasattr(yaml, "CSafeLoader") and not _StrictLoader.yaml_path_resolvers:
        try:
            return _events_document(text)
        except (_NotPlain, yaml.YAMLError, RecursionError, LookupError, TypeError):
            pass  # read whole, below: the same data, or the error said as parse says it
    data, node = parse(text)
    return Parsed(data, text, {}, {}, {"node": node})


_IMMUTABLE = (int, float, bool, type(None))


def _events_document(text: str) -> Parsed:
    """:func:`parse_data`'s quick reading: the data built straight from the parser's events
    (one function with its names local: it runs once per event)."""
    loader = _StrictLoader(text)
    get, resolve, construct = loader.get_event, loader.resolve, loader.construct_object
    plain: dict[str, str] = {}  # the tags of plain scalars resolved so far, by their text
    made: dict[tuple[str, str], Any] = {}  # numbers, booleans, nulls constructed so far
    anchors: dict[str, Any] = {}
    lines: dict[int, tuple[int, ...]] = {}
    # sizes written out in full (1 a scalar; a list or mapping 1 plus its items, a mapping's
    # keys and values), counted only where an alias may repeat a value (batch._Expansion)
    sizes: dict[int, int] = {}
    count = "*" in text
    size_of, cap = sizes.get, 2**63
    str_tag, merge_tag = _TAG + "str", _TAG + "merge"
    scalar, alias = yaml.ScalarEvent, yaml.AliasEvent
    seq, seq_end = yaml.SequenceStartEvent, yaml.SequenceEndEvent
    mapping, mapping_end = yaml.MappingStartEvent, yaml.MappingEndEvent

    def build(ev: Any) -> Any:
        kind = type(ev)
        if kind is alias:
            return anchors[ev.anchor]  # a missing one (undefined, or inside itself): parse's
        if ev.tag is not None:
            raise _NotPlain  # an explicit tag: the loader's
        out: Any
        if kind is scalar:
            if ev.implicit[0]:  # plain: resolved by its text
                tag = plain.get(ev.value)
                if tag is None:
                    tag = plain[ev.value] = resolve(yaml.ScalarNode, ev.value, ev.implicit)
            else:  # quoted (an untagged one: implicit[1]): a string
                tag = str_tag
            if tag == str_tag:
                out = ev.value
            elif tag == merge_tag:
                raise _NotPlain
            elif (tag, ev.value) in made:
                out = made[tag, ev.value]
            else:
                out = construct(yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark))
                if type(out) in _IMMUTABLE:  # the same value again is the same object
                    made[tag, ev.value] = out
        elif kind is seq:
            out, at = [], []
            e = get()
            while type(e) is not seq_end:
                at.append(e.start_mark.line + 1)
                if (  # a string (as build gives it, without the call: most of a batch)
                    type(e) is scalar
                    and e.anchor is None
                    and e.tag is None
                    and (not e.implicit[0] or plain.get(e.value) == str_tag)
                ):
                    out.append(e.value)
                else:
                    out.append(build(e))
                e = get()
            lines[id(out)] = tuple(at)
            if count:
                sizes[id(out)] = min(cap, 1 + sum([size_of(id(v), 1) for v in out]))
        elif kind is mapping:
            out = {}
            e = get()
            while type(e) is not mapping_end:
                if type(e) is not scalar:
                    raise _NotPlain
                if e.anchor is None and e.tag is None and plain.get(e.value) == str_tag:
                    k = e.value  # a key as plain text: a string (as build gives it)
                else:
                    k = build(e)
                if k in out:  # (a scalar's key is hashable)
                    raise _NotPlain
                e = get()
                if (  # a string, as above
                    type(e) is scalar
                    and e.anchor is None
                    and e.tag is None
                    and (not e.implicit[0] or plain.get(e.value) == str_tag)
                ):
                    out[k] = e.value
                else:
                    out[k] = build(e)
                e = get()
            if count:  # (its keys are scalars)
                values = [size_of(id(v), 1) for v in out.values()]
                sizes[id(out)] = min(cap, 1 + len(out) + sum(values))
        else:
            raise _NotPlain
        if ev.anchor is not None:
            if ev.anchor in anchors:
                raise _NotPlain  # an anchor given twice: the composer refuses it
            anchors[ev.anchor] = out
        return out

    try:
        if not isinstance(get(), yaml.StreamStartEvent):
            raise _NotPlain
        if not isinstance(get(), yaml.DocumentStartEvent):
            raise _NotPlain  # an empty stream: parse says what it is
        data = build(get())
        if not isinstance(get(), yaml.DocumentEndEvent):
            raise _NotPlain
        if not isinstance(get(), yaml.StreamEndEvent):
            raise _NotPlain  # a second document: parse refuses it
        return Parsed(data, text, lines, sizes)
    finally:
        loader.dispose()
        # the function above calls itself (a cycle, through its closure): what it holds is
        # let go here, not left to the collector (the scalar nodes made for the constructor,
        # the tags and values kept)
        loader.constructed_objects.clear()
        for kept in (plain, made, anchors):
            kept.clear()


def top_list_lines(text: str, is_key: Callable[[str], bool]) -> list[int] | None:
    """The line (1-based) each item starts on of the list under the first key of the
    top-level mapping that ``is_key`` accepts, read from the parser's events: an item written
    as an alias (``- *r1``) at the alias, which a node tree (where an alias is its anchor's
    node) cannot tell. None where the text has no such list or does not parse."""
    depth, at_key, key_next = 0, False, True
    lines: list[int] | None = None
    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    try:
        for ev in yaml.parse(text, Loader=_StrictLoader):
            end = isinstance(ev, ends)
            if lines is not None and depth == 2 and not end:
                if ev.start_mark is None:
                    return None
                lines.append(ev.start_mark.line + 1)  # an item of the list (its first event)
            if depth == 1 and not end:  # the top-level mapping's keys and values, in turn
                if key_next:
                    at_key = isinstance(ev, yaml.ScalarEvent) and is_key(ev.value)
                elif at_key and isinstance(ev, yaml.SequenceStartEvent):
                    lines = []
                key_next = not key_next
            if isinstance(ev, starts):
                depth += 1
            elif end:
                depth -= 1
                if lines is not None and depth == 1:
                    return lines
    except yaml.YAMLError:
        return None
    return lines


def compose(text: str) -> yaml.Node | None:
    """The node tree of ``text`` (for line numbers of fields).

    Raises:
        YamlError: malformed YAML or nesting too deep.
    """
    try:
        return yaml.compose(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        raise YamlError(_describe(exc, text)) from None
    except RecursionError:
        raise YamlError("nested too deeply") from None


_TAG = "tag:yaml.org,2002:"


class _NotPlain(Exception):
    """A node the quick construction leaves to PyYAML's (a key given twice, a merge key, an
    unhashable key, a node inside itself)."""


def _construct(loader: _StrictLoader, node: yaml.Node) -> Any:
    """``loader.construct_document(node)``, the same data built faster: strings, lists and
    mappings directly (a batch file is mostly these), any other node by the loader; a
    document with anything unusual (a key given twice, a merge key, an unhashable key, a
    node inside itself) goes through the loader whole, which builds it or says what is
    wrong.

    Raises:
        yaml.YAMLError: as the loader's construction does.
    """
    try:
        return _Quick(loader).build(node)
    except _NotPlain:
        return loader.construct_document(node)


class _Quick:
    def __init__(self, loader: _StrictLoader):
        self.loader = loader
        self.built: dict[int, Any] = {}  # by node: an alias is the same object, as in PyYAML
        self.open: set[int] = set()

    def build(self, node: yaml.Node) -> Any:
        key = id(node)
        if key in self.built:
            return self.built[key]
        if key in self.open:
            raise _NotPlain
        tag = node.tag
        if tag == _TAG + "str" and isinstance(node, yaml.ScalarNode):
            out: Any = node.value
        elif tag == _TAG + "seq" and isinstance(node, yaml.SequenceNode):
            self.open.add(key)
            out = [self.build(child) for child in node.value]
            self.open.discard(key)
        elif tag == _TAG + "map" and isinstance(node, yaml.MappingNode):
            self.open.add(key)
            out = self._mapping(node)
            self.open.discard(key)
        elif isinstance(node, yaml.ScalarNode):
            out = self.loader.construct_object(node, deep=True)
        else:
            raise _NotPlain
        self.built[key] = out
        return out

    def _mapping(self, node: yaml.MappingNode) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge":
                raise _NotPlain
            key = self.build(key_node)
            try:
                if key in out:
                    raise _NotPlain
            except TypeError:  # unhashable
                raise _NotPlain from None
            out[key] = self.build(value_node)
        return out

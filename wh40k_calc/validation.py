"""Schema errors (msgspec's) in our words, for datasheet and batch files.

msgspec checks a file's types, ranges and field names and says what is wrong in its own terms
("Object missing required field `models`", "Expected `array` of length >= 1", "Object contains
unknown field `foo`", "Expected `int` >= 2 - at `$.models[0].Sv`"). :func:`explain` turns such an
error into the place (the field's path) and a message a player reads: "missing field
'models'", "needs at least one run", "unknown field 'foo'; did you mean 'loadout'? (fields:
...)", "must be from 2 to 7, not 8". The schema itself (``msgspec.inspect``) gives the known
fields, the allowed range and the allowed words; the document gives the value at fault.
"""

from __future__ import annotations

import re
from typing import Any

from .fuzzy import did_you_mean

_AT = re.compile(r" - at `\$(.*)`$")
_PART = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_TYPES = {
    "int": "a whole number",
    "float": "a number",
    "str": "text",
    "bool": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "nothing",
}
_DICE = "a whole number or a dice expression (e.g. D6+1)"
_FIELD_TYPES = {"A": _DICE, "D": _DICE}  # what a field takes, where msgspec's types say less
_PLUS = ("Sv", "invuln", "feel_no_pain", "feel_no_pain_mortal", "feel_no_pain_psychic", "skill")
_ONE = {  # a list field -> what one entry of it is
    "runs": "run",
    "models": "model",
    "sizes": "size",
    "targets": "target",
    "weapons": "weapon",
    "leader": "Leader",
}


def explain(exc: Exception, root: type, data: Any) -> tuple[list[str | int], str]:
    """The path (keys and list indexes) of the field at fault and the message in our words.

    Args:
        exc: a ``msgspec.ValidationError`` from converting ``data`` to ``root``.
        root: the msgspec Struct type converted to.
        data: the document converted (for the value at fault).
    """
    text = str(exc)
    raw: list[str | int | None] = []
    m = _AT.search(text)
    if m:
        text = text[: m.start()]
        for key, idx in _PART.findall(m.group(1)):
            raw.append(None if idx == "..." else int(idx) if idx else key)
    parts = _with_keys(raw, root, data, text)
    kind = _schema_at(root, parts)
    value = _value_at(data, parts)
    return parts, _message(text, kind, value, parts)


def _with_keys(raw: list[str | int | None], root: type, data: Any, text: str) -> list[str | int]:
    """The path with each mapping key msgspec leaves out (None) found in the document: of the
    keys whose value has the rest of the path, the one whose value is at fault."""
    parts: list[str | int] = []
    for i, p in enumerate(raw):
        if p is not None:
            parts.append(p)
            continue
        mapping = _value_at(data, parts)
        if not isinstance(mapping, dict) or None in raw[i + 1 :]:
            break
        rest = [p for p in raw[i + 1 :] if p is not None]  # all of them (no None left)
        keys = [k for k in mapping if _has(mapping[k], rest)]
        if not keys:
            break
        kind = _schema_at(root, [*parts, keys[0], *rest])
        bad = [k for k in keys if _at_fault(_value_at(mapping[k], rest), kind, text)]
        parts.append((bad or keys)[0])
    return parts


def _has(data: Any, parts: list[str | int]) -> bool:
    for p in parts:
        found = (isinstance(data, dict) and p in data) or (
            isinstance(data, list) and isinstance(p, int) and p < len(data)
        )
        if not found:
            return False
        data = data[p]
    return True


def _at_fault(value: Any, kind: Any, text: str) -> bool:
    """Whether ``value`` can be what the error is about (the schema ``kind`` rejects it)."""
    m = re.fullmatch(r"Object (missing required|contains unknown) field `(.+)`", text)
    if m:
        present = isinstance(value, dict) and m.group(2) in value
        return present if m.group(1) == "contains unknown" else not present
    return not any(_accepts(alt, value) for alt in _alternatives(kind))


def _accepts(kind: Any, value: Any) -> bool:
    """Whether a scalar schema node accepts ``value`` (other nodes: never, as far as we know)."""
    name = type(kind).__name__
    if name == "IntType":
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        low = kind.ge if kind.ge is not None else value
        high = kind.le if kind.le is not None else value
        return low <= value <= high
    checks = {
        "LiteralType": lambda: value in kind.values,
        "StrType": lambda: isinstance(value, str) and bool(value.strip()),
        "NoneType": lambda: value is None,
        "BoolType": lambda: isinstance(value, bool),
    }
    return checks.get(name, lambda: False)()


def unknown_field(exc: Exception) -> str | None:
    """The field name of an "unknown field" error (for its line in the file), else None."""
    m = re.match(r"Object contains unknown field `(.+?)`", str(exc))
    return m.group(1) if m else None


def dotted(parts: list[str | int]) -> str:
    """``["models", 0, "Sv"]`` -> ``models[0].Sv``."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".")


def _message(text: str, kind: Any, value: Any, parts: list[str | int]) -> str:
    field = next((p for p in reversed(parts) if isinstance(p, str)), "")
    m = re.fullmatch(r"Object missing required field `(.+)`", text)
    if m:
        return f"missing field {m.group(1)!r}"
    m = re.fullmatch(r"Object contains unknown field `(.+)`", text)
    if m:
        return _unknown_field(m.group(1), kind)
    m = re.fullmatch(r"Expected `array` of length (>=|<=) (\d+)", text)
    if m:
        one = _ONE.get(field, "entry")
        n = int(m.group(2))
        if m.group(1) == ">=":
            return f"needs at least {'one' if n == 1 else n} {one if n == 1 else one + 's'}"
        return f"has more than {n} entries"
    m = re.fullmatch(r"Expected `str` of length (>=|<=) (\d+)", text)
    if m:
        if m.group(1) == ">=":
            return "must not be empty"
        return f"is longer than {m.group(2)} characters"
    if text.startswith("Expected `str` matching regex"):
        if isinstance(value, str) and value.strip() and "?=" in text:
            return "must not contain control characters (such as ESC, a tab or a newline)"
        return "must not be blank" + (" or only commas" if "," in text else "")
    m = re.fullmatch(r"Expected `int` (>=|<=|>|<) (-?\d+)", text)
    if m:
        return _out_of_range(kind, value, m.group(1), int(m.group(2)))
    m = re.fullmatch(r"Expected `(.+)`, got `(.+)`", text)
    if m:
        hint = " (3 means 3+)" if field in _PLUS and isinstance(value, str) else ""
        if m.group(1) == "str" and isinstance(value, dict) and len(value) == 1:
            # YAML read "lethal hits: vehicle" unquoted as a mapping: the text wanted, quoted
            ((k, v),) = value.items()
            hint = f" (YAML read an unquoted ':' as a mapping: write it quoted, \"{k}: {v}\")"
        expected = _FIELD_TYPES.get(field) or _types(m.group(1))
        got = _types(m.group(2))
        if m.group(2) == "float":  # 10.0, .inf: say what was written, and that it has a point
            got = "a decimal number"
            if isinstance(value, float):
                got = f"{value!r} ({got})"
        return f"must be {expected}, not {got}{hint}"
    m = re.fullmatch(r"Invalid enum value (.+)", text)
    if m:
        return f"{m.group(1)} is not allowed here: {_allowed(kind)}"
    return text


def _unknown_field(name: str, kind: Any) -> str:
    known = [f.encode_name for alt in _alternatives(kind) for f in getattr(alt, "fields", ())]
    if not known:
        return f"unknown field {name!r}"
    return f"unknown field {name!r}" + did_you_mean(name, known) + f" (fields: {', '.join(known)})"


def _out_of_range(kind: Any, value: Any, op: str, bound: int) -> str:
    """'must be from 2 to 7, not 8' where the schema gives both bounds, else one of them."""
    ints = [t for t in _alternatives(kind) if type(t).__name__ == "IntType"]
    low = high = None
    if ints:
        t = ints[0]
        low = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else None)
        high = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else None)
    if low is None and high is None:
        low, high = (bound, None) if op in (">=", ">") else (None, bound)
    got = f", not {value}" if isinstance(value, int) and not isinstance(value, bool) else ""
    if low is not None and high is not None:
        return f"must be from {low} to {high}{got}"
    if low is not None:
        return f"must be at least {low}{got}"
    return f"must be at most {high}{got}"


def _types(names: str) -> str:
    """msgspec's ``int | str | null`` as "a whole number or text" (null: the field may be left
    out, not worth saying)."""
    found = [n.strip() for n in names.split("|")]
    words = [_TYPES.get(n, n) for n in found if n != "null" or len(found) == 1]
    words = list(dict.fromkeys(words))
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _allowed(kind: Any) -> str:
    """What a field accepts, from its schema: "expected a whole number or 'melee'"."""
    options: dict[str, str] = {}
    for t in _alternatives(kind):
        name = type(t).__name__
        if name == "IntType":
            options.setdefault("int", "a whole number")
        elif name == "StrType":
            options.setdefault("str", "text")
        elif name == "BoolType":
            options.setdefault("true", "true")
            options.setdefault("false", "false")
        elif name == "LiteralType":
            for v in t.values:
                options.setdefault(str(v).lower(), repr(v).lower())
    if not options:
        return "not one of the allowed values"
    words = list(options.values())
    last = f" or {words[-1]}" if len(words) > 1 else ""
    return "expected " + ", ".join(words[: len(words) - 1 if last else 1]) + last


def _alternatives(kind: Any) -> list[Any]:
    return list(kind.types) if type(kind).__name__ == "UnionType" else [kind]


def _schema_at(root: type, parts: list[str | int]) -> Any:
    """The msgspec type-info node at ``parts`` (None where the schema does not say)."""
    import msgspec

    node: Any = msgspec.inspect.type_info(root)
    for p in parts:
        node = _child(node, p)
        if node is None:
            return None
    return node


def _child(node: Any, part: str | int) -> Any:
    for alt in _alternatives(node):
        name = type(alt).__name__
        if isinstance(part, str) and name == "StructType":
            for f in alt.fields:
                if f.encode_name == part:
                    return f.type
        if isinstance(part, int) and name == "ListType":
            return alt.item_type
        if isinstance(part, str) and name == "DictType":
            return alt.value_type
    return None


def _value_at(data: Any, parts: list[str | int]) -> Any:
    for p in parts:
        try:
            data = data[p]
        except (KeyError, IndexError, TypeError):
            return None
    return data

"""The package's immutable value types: msgspec ``Struct`` classes, and how some compare.

A concept is a small immutable record (STYLE.md): ``class Dice(Struct, frozen=True)`` with
annotated fields and defaults, as a frozen dataclass would declare it. msgspec (already what
checks the datasheet schema) builds such a class in C in about 12 µs, where ``dataclasses``
compiles five or six methods per frozen class from source text (0.3-2 ms each on Python 3.11:
some 40 ms of a ``calc shoot`` run for the records it loads, a fifth of the process; issue 21),
and it makes, compares, hashes and copies instances several times faster. A record behaves as
a frozen dataclass does: positional or keyword construction, defaults, ``__post_init__``
checks, equality and hashing by field values (instances of one class only), a
``Name(field=value, ...)`` repr; :func:`msgspec.structs.replace` makes a changed copy (running
``__post_init__``), and assigning to a field raises ``AttributeError``. A record that keeps a
derived value (``functools.cached_property``) is declared with ``dict=True``.

:func:`compared_without` is a dataclass's ``field(compare=False)``: equality and hashing
without some fields, for records that carry numpy arrays, notes or caches that take no part.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from msgspec import Struct
from msgspec.structs import replace as _replace


def compared_without(
    *excluded: str,
) -> tuple[Callable[[Any, object], Any], Callable[[Any], int]]:
    """``__eq__`` and ``__hash__`` for a record whose fields ``excluded`` take no part, as a
    frozen dataclass compares with those fields ``compare=False``: equal when ``other`` is of
    the very same class and every other field is equal; the hash is that of their tuple.

    Use in the class body: ``__eq__, __hash__ = compared_without("attacks", "choices")``.

    Raises:
        TypeError: (at the first comparison) a name in ``excluded`` is not a field.
    """
    getters: dict[type, Callable[[Any], tuple]] = {}

    def values(record: Any) -> tuple:
        cls = record.__class__
        get = getters.get(cls)
        if get is None:
            fields = cls.__struct_fields__
            if unknown := [n for n in excluded if n not in fields]:
                raise TypeError(f"{cls.__name__} has no field {unknown[0]!r} to leave out")
            names = [n for n in fields if n not in excluded]
            one = attrgetter(*names)
            get = getters[cls] = one if len(names) > 1 else (lambda r: (one(r),))
        return get(record)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) == values(other)

    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __eq__, __hash__


def replace(record: Any, /, **changes: Any) -> Any:
    """A copy of ``record`` with the fields ``changes`` changed (``__post_init__`` checks run
    again): :func:`msgspec.structs.replace` for a record, :func:`dataclasses.replace` for a
    dataclass (the few mutable working objects that still are).

    Raises:
        TypeError: a name in ``changes`` is not a field of the record's class.
    """
    if isinstance(record, Struct):
        return _replace(record, **changes)
    return dataclasses.replace(record, **changes)


def field_names(cls: type) -> tuple[str, ...] | None:
    """The field names of the record class ``cls`` (a msgspec Struct or a dataclass) in
    declaration order, or None when ``cls`` is neither."""
    names = getattr(cls, "__struct_fields__", None)
    if names is not None:
        return names
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls))
    return None


def field_defaults(cls: type) -> dict[str, Any]:
    """Each field of the record class ``cls`` (a msgspec Struct or a dataclass) and its
    default, in declaration order (``dataclasses.MISSING`` where it has none; a default
    factory's value for a field that has one).

    Raises:
        TypeError: ``cls`` is neither.
    """
    names = getattr(cls, "__struct_fields__", None)
    if names is not None:
        defaults = cls.__struct_defaults__  # type: ignore[attr-defined]
        first = len(names) - len(defaults)
        out = {}
        for i, name in enumerate(names):
            d: Any = defaults[i - first] if i >= first else dataclasses.MISSING
            out[name] = d.factory() if type(d).__name__ == "Factory" else d
        return out
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a record")
    return {
        f.name: f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        for f in dataclasses.fields(cls)
    }

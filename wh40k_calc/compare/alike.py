"""Runs of a batch file written alike: the same fields but their ``name``. A generated batch
is full of them (``benchmarks/batch-2000.yaml``: 2,000 runs, 1,050 unlike), and each one after
the first gets the first one's jobs, renamed, without being parsed or checked again
(:class:`~wh40k_calc.compare.jobs._BatchRuns`).

A run is found by its fields written as MessagePack (``msgspec``: a seventh of the time of
their ``repr``, the key this replaced, which was a tenth of building a generated batch's jobs),
then compared with ``==`` to the run kept under that key. MessagePack tells apart what ``==``
takes as equal (1, 1.0 and True; a mapping's keys in another order) and ``==`` what
MessagePack writes alike (a date and its ISO text, a set and a list): the two runs' fields are
the same values, of the same types, in the same order, and parse alike. (Only valid runs are
kept: none holds what both could still take as equal and parsing would not, such as one time
of day written in two time zones.)
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..batch import RawRun

_ENCODE = msgspec.msgpack.Encoder().encode


class AlikeRuns:
    """The runs kept so far (by their fields but the name) with what was made of them, and
    each run's key, made once for a mapping that YAML aliases repeat (the batch keeps the
    mappings alive: their ``id`` stays theirs)."""

    def __init__(self) -> None:
        self._kept: dict[bytes, tuple[dict, Any]] = {}  # key -> (fields, what was made)
        self._keys: dict[int, tuple[bytes, dict] | None] = {}  # id(raw.data) -> (key, fields)

    def find(self, raw: RawRun) -> Any:
        """What was kept for a run written as ``raw`` but for its name; None: none was."""
        found = self._key(raw)
        if found is None:
            return None
        key, fields = found
        kept = self._kept.get(key)
        return kept[1] if kept is not None and kept[0] == fields else None

    def keep(self, raw: RawRun, made: Any) -> None:
        """Keep ``made`` for the runs written as ``raw`` (the first one kept stays)."""
        found = self._key(raw)
        if found is not None:
            key, fields = found
            self._kept.setdefault(key, (fields, made))

    def _key(self, raw: RawRun) -> tuple[bytes, dict] | None:
        if id(raw.data) not in self._keys:
            self._keys[id(raw.data)] = _fields_key(raw)
        return self._keys[id(raw.data)]


def _fields_key(raw: RawRun) -> tuple[bytes, dict] | None:
    """A run's fields but its name, and their MessagePack; None where they cannot tell alike
    runs apart before the run is parsed: not a mapping, a name that is not text (its own
    error), a run too large to write out (:attr:`RawRun.too_large`), or a value MessagePack
    does not take (an integer past 64 bits)."""
    data = raw.data
    if not isinstance(data, dict) or raw.too_large:
        return None
    if not isinstance(data.get("name"), (str, type(None))):
        return None
    fields = dict(data)  # a copy then a pop: a third of the time of a comprehension
    fields.pop("name", None)
    try:
        return _ENCODE(fields), fields
    except (TypeError, ValueError, OverflowError):
        return None

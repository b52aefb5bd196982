"""Values made once per process and kept by key: the one mechanism behind the planning layer's
look-ups that a batch or a sequence asks again and again (built units, plans, weapon and target
profiles, bearers, faction tiers).

A :class:`Kept` holds at most its ``size`` entries and drops them all when full (the batches
that fill one ask for a few hundred keys; a least-recently-used order would cost more per hit
than it saves). Keys that name objects by identity (``id(...)``) must be stored with those
objects in the value, so that an id is not reused while its entry is kept; that is the
caller's part. Errors are never kept: a caller stores only what it made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A bounded store of made values: ``get(key)`` what was ``put`` under a key, or None
    (the store's own dict's ``get``, not a method calling it: a batch of 2,000 runs asks some
    19,000 times).

    Args:
        size: the most entries kept; a ``put`` into a full store first drops every entry."""

    __slots__ = ("_found", "get", "size")

    get: Callable[[K], V | None]

    def __init__(self, size: int) -> None:
        self.size = size
        self._found: dict[K, V] = {}
        self.get = self._found.get

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (every entry dropped first when full); returns it."""
        if len(self._found) >= self.size:
            self._found.clear()
        self._found[key] = value
        return value

    def clear(self) -> None:
        """Forget every entry (tests that compare kept values with fresh ones)."""
        self._found.clear()

    def __len__(self) -> int:
        return len(self._found)


class HashedKey:
    """A key (a tuple) whose hash is worked out once, for keys that are hashed again and again:
    every weapon of a selection keys its shared profile with one part, and an activation's key
    hashes every table of every weapon profile while a store looks it up twice. Equal when the
    tuples are.

    Args:
        key: the tuple, hashable."""

    __slots__ = ("_hash", "key")

    def __init__(self, key: tuple) -> None:
        self.key = key
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, HashedKey) and self.key == other.key)

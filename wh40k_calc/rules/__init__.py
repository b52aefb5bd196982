"""The rules layer: from a Selection to attack profiles, the only place that reads keywords,
weapon abilities, conditions and effects (DESIGN.md). ``ARCHITECTURE.md`` maps its modules:
``activation`` is the entry point, one module per step of the attack sequence holds the rules
both editions share, and each edition answers the questions where its text differs
(``edition.Edition``, ``edition10``, ``edition11``)."""

from __future__ import annotations

from .activation import Rules

EDITIONS = ("10", "11")


def get_rules(edition: str) -> Rules:
    """The rules of ``edition`` ("10" or "11"): ``get_rules(e).plan(sel)``.

    Raises:
        ValueError: an unknown edition.
    """
    if edition == "10":
        from .edition10 import Edition10

        return Rules(Edition10())
    if edition == "11":
        from .edition11 import Edition11

        return Rules(Edition11())
    raise ValueError(f"unknown edition {edition!r} (choose 10 or 11)")

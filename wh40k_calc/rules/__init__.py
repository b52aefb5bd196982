"""The rules layer: from a Selection to attack profiles, the only place that reads keywords,
weapon abilities, conditions and effects (DESIGN.md). ``ARCHITECTURE.md`` maps its modules:
``activation`` is the entry point, one module per step of the attack sequence holds the rules
both editions share, and each edition answers the questions where its text differs
(``edition.Edition``, ``edition10``, ``edition11``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .activation import Rules

if TYPE_CHECKING:
    from .edition import Edition

EDITIONS = ("10", "11")


_RULES: dict[str, Rules] = {}  # each edition's, made once (its modules imported at first use)


def get_rules(edition: str) -> Rules:
    """The rules of ``edition`` ("10" or "11"): ``get_rules(e).plan(sel)``. Made once per
    process (an edition answers questions and keeps nothing: a batch plans hundreds of
    selections).

    Raises:
        ValueError: an unknown edition.
    """
    rules = _RULES.get(edition)
    if rules is None:
        rules = _RULES[edition] = Rules(_edition(edition))
    return rules


def _edition(edition: str) -> Edition:
    if edition == "10":
        from .edition10 import Edition10

        return Edition10()
    if edition == "11":
        from .edition11 import Edition11

        return Edition11()
    raise ValueError(f"unknown edition {edition!r} (choose 10 or 11)")

"""The rules layer: one module per edition, plus what they share."""

from __future__ import annotations

from .base import Rules

EDITIONS = ("10", "11")


def get_rules(edition: str) -> Rules:
    """The rules of ``edition`` ("10" or "11").

    Raises:
        ValueError: an unknown edition.
    """
    if edition == "10":
        from .edition10 import Edition10

        return Edition10()
    if edition == "11":
        from .edition11 import Edition11

        return Edition11()
    raise ValueError(f"unknown edition {edition!r} (choose 10 or 11)")

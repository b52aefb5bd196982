"""Counted nouns in messages: "1 row", "2 rows" (never "1 rows")."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` agreeing: ``count(1, "row")`` -> "1 row", ``count(3, "row")`` -> "3
    rows"; ``plural`` for nouns that do not take an "s". Thousands are grouped ("100,000")."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"

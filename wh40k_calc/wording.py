"""Words in messages: counted nouns ("1 row", "2 rows", never "1 rows") and runs of names
("Boy ×9, Boss Nob")."""

from __future__ import annotations

import itertools


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` agreeing: ``count(1, "row")`` -> "1 row", ``count(3, "row")`` -> "3
    rows"; ``plural`` for nouns that do not take an "s". Thousands are grouped ("100,000")."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def models_doing(n: int, name: str, verb: str) -> str:
    """Models and a verb agreeing: ``models_doing(1, "Intercessor Sergeant", "shoots")`` ->
    "1 Intercessor Sergeant shoots"; ``models_doing(4, "Intercessor", "shoots")`` -> "4
    Intercessor models shoot" (a model's name is not made plural, "models" is added: Boyz,
    Lootas); ``verb`` is in the singular, its first word taking the "s" ("fights with")."""
    if n == 1:
        return f"1 {name} {verb}"
    first, space, rest = verb.partition(" ")
    return f"{n:,} {name} models {first.removesuffix('s')}{space}{rest}"


def join_words(items: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"`` (one item as it is)."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def compress_names(names: list[str]) -> str:
    """``["Boy", "Boy", "Boss Nob"]`` -> ``"Boy ×2, Boss Nob"`` (runs of one name counted)."""
    parts = []
    for name, grp in itertools.groupby(names):
        n = len(list(grp))
        parts.append(f"{name} ×{n}" if n > 1 else name)
    return ", ".join(parts)


ECHO_LIMIT = 80  # characters of the player's input a message repeats, at most


def shorten_quoted(message: str, limit: int = ECHO_LIMIT) -> str:
    """``message`` with every quoted span longer than ``limit`` characters (what the player
    typed, echoed as ``'...'`` or ``"..."``) cut to ``limit`` with "…": an error about a
    100 KB argument is one line, not 100 KB."""
    import re

    if len(message) <= limit:
        return message
    n = limit + 1
    # a quote opens only at the start, after a space or a bracket (so the text between two
    # quoted names is never taken for one); backslash escapes (an escaped quote) stay inside
    quoted = re.compile(
        f"(?<![^\\s(\\[=:])(?:'(?:[^'\\\\\\n]|\\\\.){{{n},}}'|\"(?:[^\"\\\\\\n]|\\\\.){{{n},}}\")"
    )

    def cut(m: re.Match[str]) -> str:
        quote = m.group(0)[0]
        return f"{quote}{m.group(0)[1:limit]}…{quote}"

    return quoted.sub(cut, message)


CERTAIN_NOISE = 1e-12  # float sums of a certain outcome may miss it by this much


def percent(
    p: float,
    decimals: int,
    noise: float = 0.0,
    possible: bool | None = None,
    certain: bool | None = None,
) -> str:
    """A probability as a percentage to ``decimals`` places, never rounded to a certainty or
    an impossibility it is not: ``>99.99%`` short of 1, ``<0.01%`` above 0 (at 2 places).
    ``possible`` and ``certain``: whether the outcome may happen and whether it must, where
    the caller read them off the distribution itself (``p`` may be rounded, or 1.0 in floating
    point though the rest is 1e-17); where not given, ``p`` within ``noise`` of 0 or 1 is
    taken as that."""
    text = f"{100 * p:.{decimals}f}%"
    step = 10**-decimals
    if text == f"{100:.{decimals}f}%" and (p < 1 - noise if certain is None else not certain):
        return f">{100 - step:.{decimals}f}%"
    if text == f"{0:.{decimals}f}%" and (p > noise if possible is None else possible):
        return f"<{step:.{decimals}f}%"
    return text


def of_whole(expected: float, whole: int, decimals: int = 3, short: bool | None = None) -> str:
    """An expected count out of ``whole`` (models destroyed of a unit's models, wounds lost of
    its wounds) to ``decimals`` places, never shown as the whole when less may happen: 14.99995
    of 15 is ">14.999", not 15.000, and never as none when some may: 3.5e-8 is "<0.001".
    ``short``: whether less than the whole may happen, where
    the caller read it off the distribution (a unit that may survive, by 1e-13: the expected
    figure is then within floating-point noise of the whole); None: an ``expected`` within
    ``CERTAIN_NOISE`` of the whole is taken as the whole."""
    text = f"{expected:.{decimals}f}"
    less = expected < whole - CERTAIN_NOISE if short is None else short
    if whole and less and text == f"{whole:.{decimals}f}":
        return f">{whole - 10**-decimals:.{decimals}f}"
    if expected > 0.0 and text == f"{0:.{decimals}f}":  # possible, however unlikely: not none
        return f"<{10**-decimals:.{decimals}f}"
    return text


def points_figure(points: float) -> str:
    """Points (a float) as text shows them: whole (``110``), else to one decimal (a damaged
    unit's points, pro rata per model of its size: 110 / 3 -> ``36.7``); JSON keeps the
    number."""
    if abs(points - round(points)) < 0.05:
        return str(round(points))
    return f"{points:.1f}"

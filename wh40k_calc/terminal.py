"""Lines of text on the terminal: wrapped between words at the console's width (rich's word
wrapping: a word longer than the line is folded), and without trailing spaces.

Used for the one-line headings (``calc shoot``'s first line, ``calc compare``'s title and
target headings), which rich would otherwise wrap wherever the width falls, leaving the space
before the break at the end of the line.
"""

from __future__ import annotations

from typing import Any


def print_wrapped(console: Any, text: Any) -> None:
    """Print ``text`` (a rich Text) wrapped between words, each line right-stripped."""
    for line in text.wrap(console, max(console.width, 1)):
        line.rstrip()
        console.print(line, soft_wrap=True)


def print_joined(console: Any, head: Any, tail: Any) -> None:
    """Print ``head`` and ``tail`` (rich Texts) on one line when they fit, else ``tail`` on a
    line of its own (its leading spaces dropped), each wrapped as :func:`print_wrapped` does:
    ``5 Lootas ... shoots 10 Boyz (...)`` then ``· edition 10 · exact``."""
    if head.cell_len + tail.cell_len <= console.width:
        print_wrapped(console, head + tail)
        return
    print_wrapped(console, head)
    spaces = len(tail.plain) - len(tail.plain.lstrip())
    print_wrapped(console, tail.divide([spaces])[-1] if spaces else tail)

"""Lines of text on the terminal: wrapped between words at the console's width (rich's word
wrapping: a word longer than the line is folded), and without trailing spaces.

Used for the one-line headings (``calc shoot``'s first line, ``calc compare``'s title and
target headings), which rich would otherwise wrap wherever the width falls, leaving the space
before the break at the end of the line; and the output console every command prints on
(:func:`output_console`), which drops the spaces that end a line wherever they come from.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from typing import IO, Any, cast

_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# A run of spaces and colour codes (SGR) at the end of what has been written so far.
_TAIL = re.compile(r"(?: |\x1b\[[0-9;]*m)+\Z")
_SGR = re.compile(r"\x1b\[[0-9;]*m")


class EndTrimmed:
    """A text stream that drops the spaces at the end of every line written to it (rich pads
    a table's rows, and a title, to the table's width): spaces are held back until what
    follows shows whether they end a line (a newline, or the end of the output: dropped) or
    not (written). Colour codes among them are kept. Everything else (``isatty``,
    ``fileno``, ``encoding``...) is the wrapped stream's."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._held = ""  # spaces and colour codes not yet known to end a line

    def write(self, text: str) -> int:
        """Write ``text`` without the spaces that end its lines; returns ``len(text)``."""
        lines = (self._held + text).split("\n")
        last = lines.pop()
        out = [_TAIL.sub(lambda m: "".join(_SGR.findall(m.group())), line) for line in lines]
        tail = _TAIL.search(last)
        self._held = tail.group() if tail else ""
        out.append(last[: tail.start()] if tail else last)
        self._stream.write("\n".join(out))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def output_console(**options: Any) -> Any:
    """The console every command prints its output on: rich's ``Console`` on standard output
    (as it is when called: a test's captured output too), not highlighting numbers, and
    never ending a line in spaces (the padding of a table's cells and titles is dropped, at
    any width). ``options`` go to the ``Console`` as given."""
    from rich.console import Console

    options.setdefault("highlight", False)
    return Console(file=cast(IO[str], EndTrimmed(sys.stdout)), **options)


def escape_controls(text: str) -> str:
    """``text`` with each control character (ESC, a newline, a bidirectional override...)
    written as its Python escape (``\\x1b``, ``\\n``, ``\\u202e``): names from files are
    shown, never obeyed by the terminal."""
    if text.isprintable():
        return text
    return "".join(
        repr(c)[1:-1] if unicodedata.category(c) == "Cc" or c in _BIDI else c for c in text
    )


# a space between a figure and the word after it ("80 pts", "10 Boyz", "11 wounds"): never a
# line break; held by a stand-in character of one cell while the text is wrapped
_FIGURE_SPACE = re.compile(r"(?<=\d) (?=[^\W\d_])")
_HELD = "\ue000"  # a private-use character: one cell, never in our output


def wrap_lines(console: Any, text: Any, width: int) -> list[Any]:
    """``text`` (a rich Text) wrapped between words in ``width`` cells (a word longer than
    the line folded), never between a figure and the word after it, each line
    right-stripped."""
    held = text.copy()
    held.plain = _FIGURE_SPACE.sub(_HELD, text.plain)  # one for one: the styles stay put
    lines = list(held.wrap(console, max(width, 1)))
    for line in lines:
        line.plain = line.plain.replace(_HELD, " ")
        line.rstrip()
    return lines


def print_wrapped(console: Any, text: Any) -> None:
    """Print ``text`` (a rich Text) wrapped as :func:`wrap_lines` wraps it."""
    for line in wrap_lines(console, text, console.width):
        console.print(line, soft_wrap=True)


def print_hanging(console: Any, lead: Any, text: Any) -> None:
    """Print ``lead`` then ``text`` (rich Texts) wrapped between words in the width the lead
    leaves, each later line indented as far as the lead (a hanging indent: ``  - Boy ×9,
    Boss Nob`` / ``    for 1-10 save rolls``), each line right-stripped."""
    from rich.text import Text

    indent = lead.cell_len
    for i, line in enumerate(wrap_lines(console, text, console.width - indent)):
        first = lead if i == 0 else Text(" " * indent)
        console.print(Text.assemble(first, line), soft_wrap=True)


def print_joined(console: Any, head: Any, tail: Any) -> None:
    """Print ``head`` then ``tail`` (rich Texts), breaking only before ``tail`` where it can:
    ``head`` wrapped as :func:`print_wrapped` does, ``tail`` after its last line when it fits
    there, else on a line of its own (its leading spaces dropped): ``5 Lootas ... shoots 10
    Boyz (...)`` then ``· edition 10 · exact``."""
    width = max(console.width, 1)
    lines = wrap_lines(console, head, width)
    if lines and lines[-1].cell_len + tail.cell_len <= width:
        lines[-1] = lines[-1] + tail
    else:
        spaces = len(tail.plain) - len(tail.plain.lstrip())
        lines.append(tail.divide([spaces])[-1] if spaces else tail)
    for line in lines:
        for part in wrap_lines(console, line, width):  # a tail longer than the line
            console.print(part, soft_wrap=True)


def warning(message: str) -> None:
    """Print ``warning: message`` on stderr (rich; a module low in the layers, so that the
    edition and the options can both warn)."""
    from rich.console import Console
    from rich.text import Text

    Console(stderr=True, highlight=False, soft_wrap=True).print(
        Text.assemble(("warning:", "bold yellow"), " ", message)
    )

"""Tables that fit the terminal, at any width, without cutting a figure or breaking a word.

rich narrows a table that is too wide column by column, then cuts what no longer fits
("3.1…", "Attac…"), drops columns, or folds a word anywhere ("Master-craft|ed boltgun").
:func:`print_table` chooses the widths first, and the layout with them:

1. the table as built, each column as wide as its content where the room allows (the widest
   columns narrowed first), and never narrower than its longest unbreakable piece: a figure
   (a cell of a ``no_wrap`` column) whole, a word whole — names in :class:`Words` cells break
   only between words and after a hyphen (``Master-`` / ``crafted boltgun``);
2. where that does not fit, the same table with light borders (no edges, a space between
   columns);
3. then the table turned on its side: one column per row (its label as the heading, in at
   most two lines), the headings down the first column;
4. else one block per row: its label, then ``heading value`` items filled line by line,
   each item whole, a figure never parted from its heading (:func:`item_lines`).

Only a word longer than the whole terminal is ever folded. A table that fits as built prints
exactly as rich would print it, but for a title justified left (on its own line, as rich
styles it, without the spaces rich pads it with to the table's width) and for the blank
space that ends a line (a borderless table's last cell padded to its column's width), left
off.
"""

from __future__ import annotations

import copy
import re
from typing import Any, cast

from rich import box
from rich.bar import Bar
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

_HYPHEN = re.compile(r"(?<=[^\W\d_]-)(?=[^\W\d_])")  # after "Master-" in "Master-crafted"
_WIDE = 100_000  # measuring width: content at its natural width


class Words:
    """A text that wraps between words and after a hyphen inside a word (``(Shield-`` /
    ``captain)``), never inside a word shorter than the line: for names in table cells (a
    weapon, a unit, an activation) and for any line that must keep its words whole. Its
    narrowest width is its longest piece, so :func:`print_table` never gives it less.

    Args:
        text: the text (``str`` or rich ``Text``; its styles are kept); newlines start lines.
        style: the style of a ``str`` text.
        justify: "left", "right" or "center" (default: the table column's).
    """

    def __init__(self, text: str | Text, style: str = "", justify: Any = None):
        self.text = text if isinstance(text, Text) else Text(text, style)
        self.justify = justify

    @property
    def plain(self) -> str:
        return self.text.plain

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        lines = self.text.plain.split("\n")
        longest = max(cell_len(line) for line in lines)
        piece = max((cell_len(p) for line in lines for p, _ in _pieces(line)), default=0)
        return Measurement(min(piece, longest), longest).with_maximum(options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        out = Text("\n").join(wrap_words(self.text, max(options.max_width, 1)))
        out.justify = self.justify or options.justify
        out.no_wrap = True  # already wrapped: rich must not wrap it again
        out.overflow = "fold"
        yield out


# a figure and the word after it, one space apart ("260 pts", "(10 models"): never broken
_FIGURE_WORD = re.compile(r"\S*\d \S+|\S+")


def _pieces(line: str, width: int | None = None) -> list[tuple[str, bool]]:
    """The pieces a line may break between: its words (a figure with the word after it as
    one, unless the two are wider than ``width``), each split after an inner hyphen;
    (piece, starts a word)."""
    out = []
    for held in _FIGURE_WORD.findall(line):
        words = held.split(" ") if width is not None and cell_len(held) > width else [held]
        for word in words:
            for i, part in enumerate(_HYPHEN.split(word)):
                out.append((part, i == 0))
    return out


def longest_piece(text: str) -> int:
    """The width of ``text``'s longest piece: a word, or a part of a hyphenated word (the
    narrowest a column of it can be with its words whole)."""
    return max((cell_len(p) for line in text.split("\n") for p, _ in _pieces(line)), default=0)


def line_count(text: str, width: int) -> int:
    """The lines ``text`` takes wrapped at ``width`` as :func:`wrap_words` wraps it."""
    return sum(max(1, len(_wrap_line(line, max(width, 1)))) for line in text.split("\n"))


def wrap_words(text: Text, width: int) -> list[Text]:
    """``text`` wrapped at ``width`` cells between words or after a hyphen inside a word
    (as a hyphenated word is printed, greedy like ``textwrap``), its styles kept; a piece
    longer than the line is folded."""
    out: list[Text] = []
    plain = text.plain
    offset = 0
    for line in plain.split("\n"):
        spans = _wrap_line(line, width)
        out += [text[offset + a : offset + b] for a, b in spans] or [Text("")]
        offset += len(line) + 1
    return out


def _wrap_line(line: str, width: int) -> list[tuple[int, int]]:
    """(start, end) of each wrapped line of ``line`` (see :func:`wrap_words`)."""
    spans: list[tuple[int, int]] = []
    start: int | None = None  # of the line being filled
    end = 0
    used = 0
    at = 0
    for piece, starts_word in _pieces(line, width):
        at = line.index(piece, at)
        size = cell_len(piece)
        gap = 1 if starts_word and used else 0
        if start is not None and used + gap + size <= width:
            end, used = at + len(piece), used + gap + size
        else:
            if start is not None:
                spans.append((start, end))
            while size > width:  # longer than the whole line: folded
                cut = _fold_at(piece, width)
                spans.append((at, at + cut))
                at, piece = at + cut, piece[cut:]
                size = cell_len(piece)
            start, end, used = at, at + len(piece), size
        at += len(piece)
    if start is not None:
        spans.append((start, end))
    return spans


def _fold_at(piece: str, width: int) -> int:
    """How many characters of ``piece`` fill ``width`` cells (at least one)."""
    used = 0
    for i, c in enumerate(piece):
        used += cell_len(c)
        if used > width:
            return max(i, 1)
    return len(piece)


# ---------------------------------------------------------------------------------------------
# Tables


def print_table(console: Console, table: Table, label_columns: int = 1) -> None:
    """Print ``table`` within the console's width, figures whole and words unbroken (see the
    module docstring for the layouts tried, in order).

    Args:
        console: where to print (its width is the room).
        table: a rich Table; a figure goes in a ``no_wrap`` column (never cut), a name in a
            :class:`Words` cell or a wrapping column (broken between words only).
        label_columns: how many leading columns name a row (``#`` and ``Activation``), for
            the turned and per-row layouts.
    """
    width = max(console.width, 1)
    for candidate in (table, _light(table)):
        widths = _fit(console, candidate, width)
        if widths is not None:
            _print_titled(console, _with_widths(candidate, widths))
            return
    turned = _turned(console, table, label_columns)
    widths = _fit(console, turned, width)
    if widths is not None and _labels_readable(turned, widths):
        _print_titled(console, _with_widths(turned, widths))
        return
    _print_rows(console, table, label_columns, width)


def _print_titled(console: Console, table: Table) -> None:
    """Print ``table``, each line without the spaces rich pads its last cell with
    (:class:`_Trimmed`); a title justified left on its own line first, as rich styles it but
    without the spaces rich pads it with to the table's width ("Kill table" and 60 spaces)."""
    if not table.title or table.title_justify != "left":
        console.print(_Trimmed(table))
        return
    title = table.title if isinstance(table.title, Text) else Text(str(table.title))
    console.print(title, style=table.title_style or "table.title")
    untitled = copy.copy(table)
    untitled.title = None
    console.print(_Trimmed(untitled))


class _Trimmed:
    """A renderable's lines as rich renders them, less the blank space that ends each line
    (a table's last cell padded to its column's width): only spaces that show nothing go (no
    background but the terminal's own, no underline, strike-through or reverse), so what the
    terminal shows is the same."""

    def __init__(self, renderable: Any) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment

        for line in console.render_lines(self.renderable, options, pad=False):
            while line and _blank_end(line[-1]):
                last = line.pop()
                kept = last.text.rstrip(" ")
                if kept:
                    line.append(Segment(kept, last.style, last.control))
                    break
            yield from line
            yield Segment.line()


def _blank_end(segment: Any) -> bool:
    """Whether ``segment`` (a rich Segment) ends in spaces that show nothing."""
    if segment.control or not segment.text.endswith(" "):
        return False
    style = segment.style
    if style is None:
        return True
    background = style.bgcolor is not None and not style.bgcolor.is_default  # a bar: "on default"
    return not (background or style.underline or style.strike or style.reverse)


TURNED_LABEL_LINES = 2  # a turned table's heading (a row's label) wraps to at most this


def _labels_readable(turned: Table, widths: list[int]) -> bool:
    """Whether each row's label, as a turned table's column heading, takes at most
    :data:`TURNED_LABEL_LINES` lines at its width (long labels read better as blocks)."""
    return all(
        line_count(cast(Words, column.header).plain, w) <= TURNED_LABEL_LINES
        for column, w in zip(turned.columns[1:], widths[1:], strict=True)
    )


def _cells(table: Table, column: Any) -> list[Any]:
    out = [column.header] if table.show_header else []
    out += list(column.cells)
    if table.show_footer:
        out.append(column.footer)
    return out


def _whole(cell: Any) -> bool:
    """A cell a ``no_wrap`` column keeps on one line: text (a figure); not a Words, a bar."""
    return isinstance(cell, (str, Text))


def _padding(table: Table, i: int) -> int:
    """The cells of padding left and right of column ``i``'s content, as rich pads the
    cells (``Table._get_cells``)."""
    _, right, _, left = table.padding
    if table.collapse_padding and i > 0:
        left = max(0, left - right)
    if not table.pad_edge:
        left = 0 if i == 0 else left
        right = 0 if i == len(table.columns) - 1 else right
    return left + right


def _fit(console: Console, table: Table, width: int) -> list[int] | None:
    """The content width of each column of ``table`` so that it fits in ``width`` cells with
    nothing cut or broken inside a word; None when even the narrowest widths do not fit."""
    wide = console.options.update_width(_WIDE)
    least, natural = [], []
    pads = [_padding(table, i) for i in range(len(table.columns))]
    for column in table.columns:
        if column.width is not None:
            least.append(column.width)
            natural.append(column.width)
            continue
        lo, hi = 1, 1
        for cell in _cells(table, column):
            m = Measurement.get(console, wide, cell)
            lo = max(lo, m.maximum if column.no_wrap and _whole(cell) else m.minimum)
            hi = max(hi, m.maximum)
        if column.min_width is not None:
            lo, hi = max(lo, column.min_width), max(hi, column.min_width)
        if column.max_width is not None:
            hi = max(min(hi, column.max_width), 1)
            lo = min(lo, hi)
        least.append(lo)
        natural.append(hi)
    room = width - table._extra_width - sum(pads)  # rich's borders: one between columns
    if sum(least) > room:
        return None
    widths = list(natural)
    excess = sum(widths) - room
    while excess > 0:  # the widest column that can give (the last of equals), a cell at a time
        i = max(
            (j for j in range(len(widths)) if widths[j] > least[j]), key=lambda j: (widths[j], j)
        )
        widths[i] -= 1
        excess -= 1
    return widths


def _with_widths(table: Table, widths: list[int]) -> Table:
    """``table`` with each column's content ``widths`` fixed. rich adds its own count of a
    column's padding to a fixed width (``_get_padding_width``), which is one short of the
    padding it draws for the first column of a table with collapsed padding: made up here."""
    for i, (column, w) in enumerate(zip(table.columns, widths, strict=True)):
        column.width = w + _padding(table, i) - table._get_padding_width(i)
        column.min_width = column.max_width = None
    table.expand = False
    return table


def _light(table: Table) -> Table:
    """``table`` with light borders: the heading rule only, a space between columns."""
    light = copy.copy(table)
    light.columns = [copy.copy(c) for c in table.columns]
    light.box = box.SIMPLE_HEAD
    light.show_edge = False
    light.pad_edge = False
    light.collapse_padding = True
    return light


def _plain(console: Console, cell: Any) -> str | None:
    """A cell's text (None for a bar, which only the table can show)."""
    if isinstance(cell, Padding):
        return _plain(console, cell.renderable)
    if isinstance(cell, Bar):
        return None
    if isinstance(cell, str):
        return console.render_str(cell).plain
    if isinstance(cell, (Text, Words)):
        return cell.plain
    return None


def _rows(table: Table) -> list[tuple[list[Any], Any]]:
    """Every row's cells (the footer as a last row) and its style."""
    columns = [list(c.cells) for c in table.columns]
    out = [([col[i] for col in columns], row.style) for i, row in enumerate(table.rows)]
    if table.show_footer:
        out.append(([c.footer for c in table.columns], table.footer_style))
    return out


def _label(console: Console, cells: list[Any]) -> str:
    return " ".join(t for t in (_plain(console, c) for c in cells) if t).strip()


def _heading(console: Console, column: Any) -> str:
    return " ".join((_plain(console, column.header) or "").split())


def _turned(console: Console, table: Table, label_columns: int) -> Table:
    """``table`` on its side: the headings of its other columns down the first column, one
    column per row headed by the row's label (and the footer's, "Total"), figures right."""
    turned = Table(
        title=table.title,
        title_justify=table.title_justify,
        title_style=table.title_style,
        box=table.box,
        show_edge=table.show_edge,
    )
    heads = [_heading(console, c) for c in table.columns[:label_columns]]
    turned.add_column(Words(" ".join(h for h in heads if h)))
    rows = _rows(table)
    for cells, style in rows:
        turned.add_column(Words(_label(console, cells[:label_columns])), justify="right",
                          no_wrap=True, style=style or "")  # fmt: skip
    for k, column in enumerate(table.columns[label_columns:], start=label_columns):
        turned.add_row(Words(_heading(console, column)), *(cells[k] for cells, _ in rows))
    return turned


def _print_rows(console: Console, table: Table, label_columns: int, width: int) -> None:
    """One block per row: its label on a line, then ``heading value`` items (a bar left out)
    filled line by line after two spaces, an item broken only where it is longer than the
    line."""
    from .terminal import print_wrapped

    if table.title:
        print_wrapped(console, Text(str(table.title), "italic"))
    heads = [_heading(console, c) for c in table.columns]
    for cells, style in _rows(table):
        label = _label(console, cells[:label_columns])
        if label:
            print_wrapped(console, Text(label, "bold"))
        items = []
        for head, cell in zip(heads[label_columns:], cells[label_columns:], strict=True):
            value = _plain(console, cell)
            if value:
                items.append((head, value))
        for line in item_lines(items, width, 2):
            console.print(Text(line, style or ""), soft_wrap=True)


def fill_items(items: list[str], width: int, sep: str = " · ") -> list[str]:
    """``items`` joined with ``sep`` into lines of at most ``width`` cells where they fit."""
    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1]) + cell_len(sep) + cell_len(item) <= width:
            lines[-1] += sep + item
        else:
            lines.append(item)
    return lines


def item_lines(
    items: list[tuple[str, str]],
    width: int,
    indent: int = 0,
    sep: str = " · ",
    split_figures: bool = True,
) -> list[str]:
    """``items`` ((label, figure) pairs: ``("Mortal wounds", "0.000")``; a label may be "")
    as lines of at most ``width`` cells after ``indent`` spaces: each item ``label figure``
    on one line, joined with ``sep`` where they fit (:func:`fill_items`). A figure is never cut
    nor parted from its label: an item longer than the line takes fewer spaces before it (as
    few as none) rather than break; longer than the whole width, the label's first words go
    on lines of their own, and the figure stays whole after as many of its last words as fit
    (:func:`label_then_figure`; ``split_figures`` False: a figure's words are one piece,
    as ``1.667 mortal wounds``)."""
    room = max(width - indent, 1)
    pad = " " * min(indent, max(width - 1, 0))
    out: list[str] = []
    texts = [f"{label} {figure}" if label else figure for label, figure in items]
    for line in fill_items(texts, room, sep):
        if cell_len(line) <= room:
            out.append(pad + line)
            continue
        label, figure = items[texts.index(line)]  # an item alone on its line
        if cell_len(line) <= width:
            out.append(" " * (width - cell_len(line)) + line)  # the spaces before it given up
            continue
        out += [pad + x for x in label_then_figure(label, figure, room, split_figures)]
    return out


def print_items(
    console: Console,
    items: list[tuple[str, str]],
    bold: tuple[str, ...] = (),
    sep: str = " · ",
    split_figures: bool = True,
) -> None:
    """Print ``items`` ((label, figure) pairs) as :func:`item_lines` lays them out at the
    console's width (joined with ``sep``), each of the figures in ``bold`` (numbers as
    printed) in bold: ``Wounds lost 1.253 of 11 · models destroyed 1.253 of 10`` on one
    line where it fits (``split_figures``: as :func:`item_lines`)."""
    marked = [rf"(?<![\d.]){re.escape(b)}(?![\d.])" for b in dict.fromkeys(bold)]
    for line in item_lines(items, max(console.width, 1), sep=sep, split_figures=split_figures):
        out = Text(line)
        for pattern in marked:
            out.highlight_regex(pattern, "bold")
        console.print(out, soft_wrap=True)


def label_then_figure(label: str, figure: str, width: int, split: bool = True) -> list[str]:
    """``label figure`` in lines of at most ``width`` cells: the label wrapped between words,
    the figure whole after its last line where it fits there. Else, in this order: the
    figure's first word (its number: ``1.253`` of ``1.253 of 10``) after that line and the
    rest of the figure wrapped after (``wounds lost 9.719`` / ``of 10``); the whole figure
    after as many of the label's last words as fit beside it (``Mortal`` / ``wounds
    123.456``); its number so. The figure starts a line of its own only where no label word
    fits beside its number. ``split`` False: the figure is never split (``1.667 mortal
    wounds``: a number and the words saying what it counts), on a line of its own where it
    does not fit beside a label word."""
    lines = _wrapped(label, width)
    number, _, rest = figure.partition(" ")
    tries = [(figure, "")] + ([(number, rest)] if rest and split else [])
    if lines:
        for part, after in tries:  # the label as wrapped, its last line with the figure
            if cell_len(lines[-1]) + 1 + cell_len(part) <= width:
                return [*lines[:-1], f"{lines[-1]} {part}", *_wrapped(after, width)]
    words = label.split()
    for part, after in tries:  # fewer of the label's words beside the figure
        for k in range(1, len(words)):  # k: the label's words moved off the figure's line
            tail = " ".join(words[k:])
            if cell_len(tail) + 1 + cell_len(part) <= width:
                head = _wrapped(" ".join(words[:k]), width)
                return [*head, f"{tail} {part}", *_wrapped(after, width)]
    return [*lines, *_wrapped(figure, width)]


def _wrapped(text: str, width: int) -> list[str]:
    """``text``'s lines wrapped at ``width`` (:func:`wrap_words`); none for no text."""
    return [t.plain for t in wrap_words(Text(text), width)] if text else []

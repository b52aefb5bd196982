"""Rendering ``calc compare`` rows: grouped by target and ranked, as a rich table with bars or
as CSV records."""

from __future__ import annotations

from enum import StrEnum
from typing import IO, TYPE_CHECKING, Any

from ..terminal import escape_controls
from ..wording import CERTAIN_NOISE, of_whole, percent, points_figure

if TYPE_CHECKING:
    from .jobs import Row

SORT_LABELS = {
    "models": "models destroyed",
    "damage": "expected damage",
    "wipe": "P(wipe)",
    "efficiency": "points destroyed per 100 points",
    "losses": "Hazardous losses, fewest first",
}
SHORT_LABELS = {
    "damage": "Damage",
    "models": "Models",
    "wipe": "Wipe",
    "efficiency": "Pts/100",
    "losses": "Losses",
}
LOWER_IS_BETTER = frozenset({"losses"})
CSV_COLUMNS = (
    "run",
    "target",
    "target_models",
    "target_loadout",
    "target_points",
    "attacker",
    "attacker_models",
    "attacker_points",
    "phase",
    "edition",
    "method",
    "damage",
    "models_destroyed",
    "p_wipe",
    "points_per_100",
    "attacker_losses",
    "best",
)


class SortKey(StrEnum):
    """``--sort``: the figure rows are ranked by."""

    models = "models"
    damage = "damage"
    wipe = "wipe"
    efficiency = "efficiency"
    losses = "losses"


def group_rows(rows: list[Row], key: str) -> list[list[Row]]:
    """Rows grouped by target (groups in order of first appearance), each group sorted best
    first by ``key`` (one of SORT_LABELS; ``losses``: fewest first; None last; ties keep
    batch order)."""
    groups: dict[tuple, list[Row]] = {}
    for r in rows:
        groups.setdefault(r.target_key, []).append(r)
    sign = 1.0 if key in LOWER_IS_BETTER else -1.0

    def order(r: Row) -> tuple[int, float]:
        v = r.figures[key]
        return (1, 0.0) if v is None else (0, sign * v)

    return [sorted(g, key=order) for g in groups.values()]


def best_rows(group: list[Row], key: str) -> set[int]:
    """Indexes (in ``group``) of the best rows by ``key``: the only row of a target is its
    best (where it has the figure); empty when every one of several rows ties."""
    values = [r.figures[key] for r in group]
    known = [v for v in values if v is not None]
    if not known:
        return set()
    best = min(known) if key in LOWER_IS_BETTER else max(known)
    idx = {i for i, v in enumerate(values) if v is not None and abs(v - best) <= 1e-9}
    return set() if len(idx) == len(group) > 1 else idx


def _attacker_text(o: dict[str, Any]) -> str:
    a = o["attacker"]
    if o["phase"] == "sequence":  # "Lootas then Boyz": each unit's size is in its steps
        return f"{', '.join(u['name'] for u in a['units'])} ({_points(a)})"
    return f"{a['models']} {a['name']} ({_points(a)})"


def target_heading(t: dict[str, Any]) -> str:
    """A target's heading: ``1 Land Raider · 240 pts``, ``· Land Raider on 10 of 16`` when a
    model starts wounded (the words of ``calc shoot``'s and ``calc sequence``'s headers)."""
    from ..report import wounded_text

    wounded = t.get("wounded_model")
    return " · ".join(
        [f"{t['models']} {t['name']}", _points(t), *([wounded_text(wounded)] if wounded else [])]
    )


def group_headings(groups: list[list[Row]]) -> list[str]:
    """Each group's :func:`target_heading`; where the rows are of more than one edition, each
    heading says its edition (``· edition 11``: each edition's datasheet of the target, with
    its points, is its own group); where two groups share one, what tells their targets apart
    is added: the target's loadout and the allocation order asked for (``· loadout
    shootas``, ``· allocation Boy, Boss Nob``, ``· allocation best``)."""
    editions = {g[0].target_key[5] for g in groups}
    plain = [
        target_heading(g[0].result["target"])
        + (f" · edition {g[0].target_key[5]}" if len(editions) > 1 else "")
        for g in groups
    ]
    headings = list(plain)
    for i, group in enumerate(groups):
        if plain.count(plain[i]) < 2:
            continue
        _, _, loadout, order, _, _ = group[0].target_key  # what groups the rows (Row.target_key)
        extra = [f"loadout {loadout}"] if loadout else []
        if order is not None:
            extra.append("allocation " + (order if isinstance(order, str) else ", ".join(order)))
        headings[i] = " · ".join([headings[i], *extra])
    return headings


def _points(unit: dict[str, Any]) -> str:
    """``50 pts`` (a damaged unit's to one decimal: :func:`~wh40k_calc.wording.points_figure`),
    or ``no points listed`` where the source lists none."""
    if not unit.get("points_listed", True):
        return "no points listed"
    return f"{points_figure(unit['points'])} pts"


BAR_WIDTH = 10
SECTION_ROWS = 500  # rows drawn at a time: rich lays a table out whole, in memory
RUN_INDENT = 2  # run names sit under their target's heading


def _numbers(r: Row) -> list[str]:
    """The figures of one row as printed, in SHORT_LABELS order."""
    f = r.figures
    eff, models, wipe = f["efficiency"], f["models"], f["wipe"]
    damage, losses = f["damage"], f["losses"]
    # only the efficiency may be None
    assert models is not None and wipe is not None and damage is not None and losses is not None
    # (of a whole of 0: a figure above 0 that rounds to none is shown as "<0.01", as models are)
    return [
        of_whole(damage, 0, DECIMALS["damage"]),
        of_whole(models, r.result["target"]["models"], short=_may_survive(f)),
        probability_text(wipe, _odds(f, "wipe_possible"), _odds(f, "wipe_certain")),
        "—" if eff is None else of_whole(eff, 0, DECIMALS["efficiency"]),
        of_whole(losses, 0, DECIMALS["losses"]),
    ]


def _odds(figures: dict, key: str) -> bool | None:
    """A flag of ``jobs.wipe_odds`` in a row's figures; None where they do not hold it."""
    value = figures.get(key)
    return None if value is None else bool(value)


def _may_survive(figures: dict) -> bool | None:
    """Whether a model of the target may be left (not a certain wipe), where the figures say
    it (``jobs.wipe_odds``); None where they do not."""
    certain = _odds(figures, "wipe_certain")
    return None if certain is None else not certain


def probability_text(p: float, possible: bool | None = None, certain: bool | None = None) -> str:
    """A probability as a percentage to 0.1%, never rounded to a certainty or an
    impossibility it is not: ">99.9%" below 1 (0.99985 is not 100.0%), "<0.1%" above 0.
    ``possible`` and ``certain`` (true or false, where the caller read them off the
    distribution itself: ``jobs.wipe_odds``) say it of ``p``, which may be rounded; where not
    given, a ``p`` within ``CERTAIN_NOISE`` of 0 or 1 is taken as that."""
    return percent(p, 1, CERTAIN_NOISE, possible, certain)


DECIMALS = {"damage": 2, "models": 3, "wipe": 3, "efficiency": 1, "losses": 3}  # as printed


def shown(r: Row, key: str) -> float:
    """Row ``r``'s figure ``key`` as the table prints it (rounded: a probability to 0.1%), 0
    for none. Bars are drawn from it, so a figure printed as 0.000 gets no bar, and a best that
    rounds to 0 cannot make a full bar out of almost nothing."""
    return round(r.figures[key] or 0.0, DECIMALS[key])


MIN_BAR = 3  # the sort column's bar (its heading whole) narrowed before the rows are stacked
BAR_LABEL = "Bar"  # the bar column's heading: not the sort figure's, which has its own column


def text_widths(room: int, natural: list[int], least: list[int]) -> list[int] | None:
    """Widths of the text columns in ``room`` cells: each its ``natural`` width when all fit;
    else each at least its ``least`` (its longest piece: a word, or a part of a hyphenated
    word, so words stay whole) and the rest of the room given to the columns in order (the
    run names first); None when even the longest pieces do not fit (the rows are then
    stacked: :func:`render_table`)."""
    if sum(natural) <= room:
        return list(natural)
    if sum(least) > room:
        return None
    widths = list(least)
    spare = room - sum(widths)
    for i, (n, m) in enumerate(zip(natural, least, strict=True)):
        add = max(0, min(spare, n - m))
        widths[i] += add
        spare -= add
    return widths


def render_table(rows: list[Row], key: str, console: Any, title: str | None = None) -> None:
    """Print the comparison (rich) on ``console``: the title, the column headings, then a
    section per target — its heading on a line of its own, its rows sorted by ``key``, the
    best row(s) in bold green, a bar for the sort column; then the rules not modelled and the
    notes (each once).

    What every row shares (phase, edition, method, attacker) goes in the title; what differs
    gets a column. Every section has the same column widths, chosen to fit the console: the
    figures whole, the text columns (run names, attacker) wide enough for their longest word
    (or part of a hyphenated word) and wrapped between words; the bar narrowed where that
    makes them fit; on a terminal too narrow even so, each row a block of its own (its name,
    then its figures) instead of a table.
    """
    from rich.text import Text

    from ..terminal import print_wrapped

    groups = group_rows(rows, key)
    columns, common = _varying(rows)
    heading = " · ".join([title or "Comparison", *common])
    print_wrapped(console, Text(escape_controls(heading)))
    print_wrapped(console, Text(f"by target, sorted by {SORT_LABELS[key]}; best in bold"))
    console.print()
    numbers = [_numbers(r) for r in rows]
    fixed = [
        max(len(label), *(len(n[i]) for n in numbers))
        for i, label in enumerate(SHORT_LABELS.values())
    ]
    for bar in (BAR_WIDTH, max(MIN_BAR, len(BAR_LABEL))):  # its heading whole
        room = console.width - sum(fixed) - bar - 2 * (len(fixed) + 1)  # 2 between columns
        chosen = _text_columns(rows, columns, room)
        if chosen is not None:
            break
    if chosen is None:
        _stacked(groups, key, columns, console)
        _legend_and_notes(rows, console, None)
        return
    labels, widths = chosen
    folded = len(labels) == 1 and bool(columns)
    console.print(_section([], labels, widths, fixed, key, columns, folded, bar, True))
    for gi, (group, heading) in enumerate(zip(groups, group_headings(groups), strict=True)):
        if gi:
            console.print()
        print_wrapped(console, Text(escape_controls(heading), "bold"))
        for start in range(0, len(group), SECTION_ROWS):  # the same widths: one table to see
            part = range(start, min(start + SECTION_ROWS, len(group)))
            console.print(
                _section(group, labels, widths, fixed, key, columns, folded, bar, part=part)
            )
    _legend_and_notes(rows, console, key)


def _stacked(
    groups: list[list[Row]], key: str, columns: list[tuple[str, Any]], console: Any
) -> None:
    """The rows on a terminal too narrow for the table: under each target's heading, each
    run's name (bold green for the best), then its figures and varying values as
    ``label value`` items, each whole, filled line by line."""
    from rich.text import Text

    from ..layout import item_lines, wrap_words
    from ..terminal import print_wrapped

    width = max(console.width, 1)
    for gi, (group, heading) in enumerate(zip(groups, group_headings(groups), strict=True)):
        if gi:
            console.print()
        print_wrapped(console, Text(escape_controls(heading), "bold"))
        best = best_rows(group, key)
        for i, r in enumerate(group):
            name = Text(_run(r), "bold green" if i in best else "")
            for line in wrap_words(name, max(width - RUN_INDENT, 1)):
                console.print(Text.assemble(" " * RUN_INDENT, line), soft_wrap=True)
            labels = SHORT_LABELS.values()
            items = [(label, str(n)) for label, n in zip(labels, _numbers(r), strict=True)]
            items += [(label, str(get(r.result))) for label, get in columns]
            for item_line in item_lines(items, width, 2 * RUN_INDENT):
                console.print(Text(item_line), soft_wrap=True)


def _text_columns(
    rows: list[Row], columns: list[tuple[str, Any]], room: int
) -> tuple[list[str], list[int]] | None:
    """The text columns' headings and widths in ``room`` cells (gaps included): the run name
    and each varying value in columns of their own, or the varying values folded on a line
    under the run name (one column, "Run / Attacker"), whichever takes fewer lines (side by
    side on a tie), words whole; None when neither keeps its longest word whole."""
    from ..layout import line_count, longest_piece

    texts = [[_run(r), *(get(r.result) for _, get in columns)] for r in rows]
    labels = ["Run", *(label for label, _ in columns)]
    natural = [max(len(label), *(len(t[i]) for t in texts)) for i, label in enumerate(labels)]
    least = [
        max(len(label), *(longest_piece(t[i]) for t in texts)) for i, label in enumerate(labels)
    ]
    natural[0] += RUN_INDENT
    least[0] += RUN_INDENT
    gaps = 2 * (len(labels) - 1)
    widths = text_widths(room - gaps, natural, least)
    if not columns:
        return None if widths is None else (labels, widths)
    label = " / ".join(labels)
    folded = [" · ".join(t[1:]) for t in texts]
    fold = text_widths(
        room,
        [RUN_INDENT + max(len(label) - RUN_INDENT, *(len(x) for t in texts for x in t))],
        [RUN_INDENT + max(longest_piece(x) for t in texts for x in t)],
    )
    if widths is None or fold is None:
        if widths is not None:
            return labels, widths
        return None if fold is None else ([label], fold)
    width = fold[0] - RUN_INDENT
    side = sum(
        max(
            line_count(x, w - (RUN_INDENT if i == 0 else 0))
            for i, (x, w) in enumerate(zip(t, widths, strict=True))
        )
        for t in texts
    )
    under = sum(
        line_count(t[0], width) + line_count(f, width) for t, f in zip(texts, folded, strict=True)
    )
    return ([label], fold) if under < side else (labels, widths)


def _run(r: Row) -> str:
    """The run's name as the table shows it (control characters escaped)."""
    return escape_controls(r.job.run)


def _varying(rows: list[Row]) -> tuple[list[tuple[str, Any]], list[str]]:
    """The columns whose value differs between rows (label, getter), and the shared values."""
    varying = {
        "Phase": lambda o: o["phase"],
        "Edition": lambda o: o["edition"],
        "Method": lambda o: o["method"],
        "Attacker": _attacker_text,
    }
    first = rows[0].result
    common, columns = [], []
    for label, get in varying.items():
        if len({get(r.result) for r in rows}) > 1:
            columns.append((label, lambda o, get=get: escape_controls(str(get(o)))))
        elif label == "Edition":
            common.append(f"edition {get(first)}")
        else:
            common.append(get(first))
    return columns, common


def _section(
    group: list[Row],
    labels: list[str],
    widths: list[int],
    fixed: list[int],
    key: str,
    columns: list[tuple[str, Any]],
    folded: bool,
    bar: int = BAR_WIDTH,
    header: bool = False,
    part: range | None = None,
) -> Any:
    """One target's rows (or, with ``header``, only the column headings and their rule) as a
    rich table of the given column widths (``bar``: the sort column's); ``folded``: the
    varying values on a dim line under the run name; ``part``: only these rows of ``group``
    (best rows and bars are the whole group's). Names wrap between words and after hyphens
    only (:class:`~wh40k_calc.layout.Words`)."""
    from rich import box
    from rich.bar import Bar
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    from ..layout import Words

    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        show_edge=False,
        show_header=header,
    )
    for label, width in zip(labels, widths, strict=True):
        table.add_column(label, width=width)
    for label, width in zip(SHORT_LABELS.values(), fixed, strict=True):
        table.add_column(label, justify="right", no_wrap=True, width=width)
    table.add_column(BAR_LABEL, width=bar, no_wrap=True)
    best = best_rows(group, key)
    scale = max((shown(r, key) for r in group), default=0.0)
    for i in part if part is not None else range(len(group)):
        r = group[i]
        value = shown(r, key)
        values: list[Any] = [Words(get(r.result)) for _, get in columns]
        run = Text(_run(r))
        if folded:
            run = Text.assemble(run, "\n", (" · ".join(v.plain for v in values), "dim"))
            values = []
        table.add_row(
            Padding(Words(run), (0, 0, 0, RUN_INDENT)),
            *values,
            *_numbers(r),
            Bar(scale, 0.0, value, color="red" if key == "losses" else "green")
            if value > 0
            else "",
            style="bold green" if i in best else None,
        )
    return table


def _legend_and_notes(rows: list[Row], console: Any, bar: str | None) -> None:
    """The legend of the figures (``bar``: the sort key the bars show, None where no bar is
    drawn: the stacked rows), then the rules not modelled and the notes, each once."""
    from rich.text import Text

    from ..terminal import print_wrapped

    exchange = any(r.result["phase"] == "exchange" for r in rows)
    losses = "expected lost to Hazardous" + (
        " (an exchange: side A's models lost to side B and to Hazardous; its target is side "
        "B, its figures side A's)"
        if exchange
        else ""
    )
    print_wrapped(
        console,
        Text(
            "Models: expected models destroyed · Wipe: P(every model destroyed) · Pts/100: "
            "target points destroyed per 100 points of attacker · Losses: attacker models "
            f"{losses}"
            + (
                f" · {BAR_LABEL}: the {SHORT_LABELS[bar]} column, relative to the highest of "
                "each target, none for a figure shown as 0"
                if bar is not None
                else ""
            ),
            style="dim",
        ),
    )
    seen: set[str] = set()
    for n, which in _not_modelled_rows(rows):
        seen.add(n)
        print_wrapped(
            console, Text.assemble((f"Not modelled{which}: ", "yellow"), escape_controls(n))
        )
    runs: dict[str, list[str]] = {}
    for r in rows:
        for n in r.result["notes"]:
            if n not in seen:
                runs.setdefault(n, [])
                if r.job.run not in runs[n]:
                    runs[n].append(r.job.run)
    every = list(dict.fromkeys(r.job.run for r in rows))
    for n, named in runs.items():
        which = "" if named == every else f" ({_some_runs(named)})"
        print_wrapped(console, Text.assemble((f"Note{which}: ", "dim"), escape_controls(n)))


def _not_modelled_rows(rows: list[Row]) -> list[tuple[str, str]]:
    """Each "not modelled" item once, with the rows it is about when not every row: `` (run
    'a')`` when some runs have it, `` (against Rubric Marines)`` when every run has it
    against some targets only, "" when every row has it."""
    found: dict[str, list[Row]] = {}
    for r in rows:
        for n in r.result["not_modelled"]:
            found.setdefault(n, []).append(r)
    every_run = list(dict.fromkeys(r.job.run for r in rows))
    every_target = list(dict.fromkeys(r.result["target"]["name"] for r in rows))
    out = []
    for n, have in found.items():
        runs = list(dict.fromkeys(r.job.run for r in have))
        targets = list(dict.fromkeys(r.result["target"]["name"] for r in have))
        if len(have) == len(rows):
            which = ""
        elif runs != every_run:
            which = f" ({_some_runs(runs)})"
        elif targets != every_target:
            which = f" (against {_some_targets(targets)})"
        else:
            which = ""
        out.append((n, which))
    return out


def _some_targets(names: list[str], shown: int = 3) -> str:
    """``Boyz``, ``Boyz and Rhino``, ``Boyz, Rhino, Lootas and 2 more``."""
    from ..wording import join_words

    if len(names) > shown:
        return f"{', '.join(names[:shown])} and {len(names) - shown} more"
    return join_words(names)


def _some_runs(names: list[str], shown: int = 3) -> str:
    """``run 'a'``, ``runs 'a', 'b' and 'c'``, ``runs 'a', 'b', 'c' and 4 more``: the runs a
    note is about, when it is not about every run."""
    from ..wording import join_words

    quoted = [repr(n) for n in names[:shown]]
    if len(names) > shown:
        return f"runs {', '.join(quoted)} and {len(names) - shown} more"
    if len(quoted) == 1:
        return f"run {quoted[0]}"
    return f"runs {join_words(quoted)}"


def compared(rows: list[Row], key: str) -> list[dict[str, Any]]:
    """The table's own figures of each row, in the rows' order, for ``--json``'s
    ``"compared"``: the CSV's ``damage``, ``models_destroyed``, ``p_wipe``,
    ``points_per_100`` (None where the table shows "—"), ``attacker_losses``, and ``best``
    (the row is a best one of its target by ``sort``, as the bold rows and the CSV's
    ``best`` say), with ``sort`` the ``--sort`` value ranked by (``key``: "models",
    "damage", "wipe", "efficiency" or "losses"; README, ``calc compare``)."""
    best: set[int] = set()
    for group in group_rows(rows, key):
        best |= {id(group[i]) for i in best_rows(group, key)}
    return [
        {
            "damage": r.figures["damage"],
            "models_destroyed": r.figures["models"],
            "p_wipe": r.figures["wipe"],
            "points_per_100": r.figures["efficiency"],
            "attacker_losses": r.figures["losses"],
            "sort": key,
            "best": id(r) in best,
        }
        for r in rows
    ]


def _csv_points(unit: dict[str, Any]) -> float | int | str:
    """The points (a whole number as one: ``1985``, not ``1985.0``), or "" where the source
    lists none."""
    if not unit.get("points_listed", True):
        return ""
    points = unit["points"]
    return int(points) if isinstance(points, float) and points.is_integer() else points


def csv_records(rows: list[Row], key: str) -> list[dict[str, Any]]:
    """The table's rows as CSV_COLUMNS records, grouped and sorted as the table is."""
    out = []
    for group in group_rows(rows, key):
        best = best_rows(group, key)
        for i, r in enumerate(group):
            o, f = r.result, r.figures
            out.append(
                {
                    "run": r.job.run,
                    "target": o["target"]["name"],
                    "target_models": o["target"]["models"],
                    "target_loadout": r.job.selection.target.loadout or "",
                    "target_points": _csv_points(o["target"]),
                    "attacker": o["attacker"]["name"],
                    "attacker_models": o["attacker"]["models"],
                    "attacker_points": _csv_points(o["attacker"]),
                    "phase": o["phase"],
                    "edition": o["edition"],
                    "method": o["method"],
                    "damage": f["damage"],
                    "models_destroyed": f["models"],
                    "p_wipe": f["wipe"],
                    "points_per_100": "" if f["efficiency"] is None else f["efficiency"],
                    "attacker_losses": f["losses"],
                    "best": "yes" if i in best else "",
                }
            )
    return out


# what a spreadsheet reads as the start of a formula in a text cell (OWASP, CSV Injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def write_csv(rows: list[Row], key: str, fh: IO[str]) -> None:
    """Write the comparison as CSV (header CSV_COLUMNS) to an open text file; control
    characters in names written escaped (``\\x1b``), as in the table, and a text cell that
    begins as a formula would (:data:`FORMULA_STARTS`) prefixed with a single quote, so a
    spreadsheet shows it as text (numbers, negative ones included, are written as numbers)."""
    import csv  # only for --csv
    from operator import itemgetter

    writer = csv.writer(fh, lineterminator="\n")  # a record's values in CSV_COLUMNS order
    writer.writerow(CSV_COLUMNS)
    values = itemgetter(*CSV_COLUMNS)
    texts: dict[str, str] = {}  # each text as written, made once (names repeat row after row)

    def text(v: str) -> str:
        shown = texts.get(v)
        if shown is None:
            shown = texts[v] = csv_text(v)
        return shown

    writer.writerows(
        [text(v) if isinstance(v, str) else v for v in values(record)]
        for record in csv_records(rows, key)
    )


def csv_text(text: str) -> str:
    """A text cell as ``--csv`` writes it: control characters escaped, and a single quote
    before a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return."""
    shown = escape_controls(text)
    return "'" + shown if text.startswith(FORMULA_STARTS) else shown

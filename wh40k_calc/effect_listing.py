"""``calc effects``: the effect records (and, with ``--status``, the coverage lines: rules not
modelled with the reason, rules that change no attack) of one edition, filtered by faction,
kind, detachment and name (fuzzy, as ``calc units TEXT``), as a table that fits 80 columns or
as JSON.

Each row of the table is one record: its id (what ``--effect`` takes), faction, kind and
detachments, the side it acts for and its phases, then what it does, its options
(``--effect ID:OPTION``), the conditions the selection must meet, and what it leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import effect_files as ef
from .effect_coverage import key

if TYPE_CHECKING:
    from .effect_schema import Coverage, When
    from .effects import Effect

KINDS = ("army", "detachment", "stratagem", "enhancement", "unit", "core")


class ListingError(ValueError):
    """A filter that matches nothing or names nothing we know; the message says what exists.

    ``refused``: the refusal without its hint (``--detachment 'dred mob': no such detachment
    here``) and ``hints`` the names it suggests, for a filter whose value names nothing (the
    other edition's hints are offered when this edition has none)."""

    def __init__(self, message: str, refused: str = "", hints: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.refused = refused
        self.hints = hints


class KindError(ListingError):
    """``--kind`` names no kind of effect: a usage error (exit code 2), whatever the data."""


@dataclass(frozen=True)
class Line:
    """A coverage line with its file's faction key (for listing)."""

    faction: str
    coverage: Coverage


def select(
    edition: str,
    faction: str | None = None,
    kind: str | None = None,
    detachment: str | None = None,
    text: str | None = None,
) -> tuple[list[Effect], list[Line]]:
    """The records and coverage lines of ``edition`` that pass every filter given.

    Raises:
        ListingError: an unknown faction, kind or detachment, or a name no record is like;
            where the other edition has what was asked for, the message says so (``all is
            dust`` is an edition-11 rule).
    """
    try:
        return _select(edition, faction, kind, detachment, text, closest=False)
    except ListingError as exc:
        other = "11" if edition == "10" else "10"
        try:
            effects, lines = _select(other, faction, kind, detachment, text, closest=False)
        except ListingError as there:
            if there.hints and not exc.hints and there.refused == exc.refused:
                hints = ", ".join(repr(h) for h in there.hints)
                raise ListingError(
                    f"{exc.refused}; did you mean {hints} (edition {other})?"
                ) from None
            if text is None or not text.strip():
                raise exc from None
            # no name like it in either edition: the closest names of this one, if any
            return _select(edition, faction, kind, detachment, text)
        if not effects and not lines:
            raise
        raise ListingError(f"{exc}; edition {other} has it (add --edition {other})") from None


def _select(
    edition: str,
    faction: str | None,
    kind: str | None,
    detachment: str | None,
    text: str | None,
    closest: bool = True,
) -> tuple[list[Effect], list[Line]]:
    """:func:`select` in one edition (``closest``: with no name like ``text``, the closest
    names, else refused)."""
    from .effects import all_effects, effects_of
    from .fuzzy import did_you_mean, suggest_names

    files = ef.files_of(edition)
    if faction is not None:
        fkey = ef.faction_key(faction)
        if fkey is None or fkey not in files:
            known = sorted({ef.display_name(k) for k in files})
            names = [f.name for f in ef.FACTIONS] + [a for f in ef.FACTIONS for a in f.aliases]
            raise ListingError(
                f"no edition-{edition} effects of faction {faction!r}"
                + did_you_mean(faction, names)
                + f" (factions with effects: {', '.join(known)})"
            )
        effects = list(effects_of(edition, fkey))
        keys = [fkey]
    else:
        effects = list(all_effects(edition))
        keys = list(files)
    lines = [Line(k, c) for k in keys for p in files.get(k, ()) for c in ef.load(p).coverage]
    if kind is not None:
        if kind not in KINDS:
            raise KindError(f"--kind {kind!r}: choose {', '.join(KINDS)}")
        effects = [e for e in effects if e.kind == kind]
        lines = [x for x in lines if x.coverage.kind == kind]
    if detachment is not None:
        known_d = sorted(
            {d for e in effects for d in e.detachments}
            | {x.coverage.detachment for x in lines if x.coverage.detachment}
        )
        if not any(key(d) == key(detachment) for d in known_d):
            from .fuzzy import words

            # some of the words of one detachment's name, as written ('gladius': Gladius Task
            # Force); several such detachments, or a misspelling: refused with the closest
            asked = set(words(detachment))
            matched = [d for d in known_d if asked and asked <= set(words(d))]
            if len(matched) != 1:
                refused = f"--detachment {detachment!r}: no such detachment here"
                if matched:
                    refused += f" ({len(matched)} match its words)"
                hints = tuple(matched[:4] or suggest_names(detachment, known_d))
                shown = ", ".join(repr(h) for h in hints)
                said = f"; did you mean {shown}?" if hints else ""
                raise ListingError(refused + said, refused, hints)
            detachment = matched[0]
        effects = [e for e in effects if any(key(d) == key(detachment) for d in e.detachments)]
        lines = [x for x in lines if key(x.coverage.detachment) == key(detachment)]
    if text is not None and text.strip():
        effects, lines = _like(text, effects, lines, closest)
    return effects, lines


def _like(
    text: str, effects: list[Effect], lines: list[Line], closest: bool = True
) -> tuple[list[Effect], list[Line]]:
    """The records and lines whose name (or id, or rule) is like ``text`` (:mod:`~wh40k_calc.
    fuzzy`: every word like a word of the name), best first; the closest when none is (with
    ``closest``).

    Raises:
        ListingError: nothing is like it.
    """
    from .fuzzy import rank, suggest

    names = [f"{e.name} {e.rule}" for e in effects] + [x.coverage.rule for x in lines]
    found = [i for i, _ in rank(text, names)]
    if not found and closest:
        close = set(suggest(text, names))
        found = [i for i, n in enumerate(names) if n in close]
    if not found:
        raise ListingError(f"no effect name is like {text!r}")
    n = len(effects)
    return [effects[i] for i in found if i < n], [lines[i - n] for i in found if i >= n]


def only_lines(lines: list[Line], text: str | None) -> str:
    """Why ``calc effects`` without ``--status`` lists nothing when the filters matched only
    coverage lines (``lines``: rules that are not modelled or not attack rules): what was found
    and that ``--status`` shows it, e.g. "no effect record is like 'fire ridrs': Fire Riders
    (World Eaters, unit) is not an attack rule: movement and Deep Strike only; add --status to
    list it"."""
    shown = lines[:3]
    said = []
    for x in shown:
        c = x.coverage
        where = f", {c.detachment}" if c.detachment else ""
        status = "not an attack rule" if c.status == "not-attack" else "not modelled"
        said.append(
            f"{c.rule} ({ef.display_name(x.faction)}, {c.kind}{where}) is {status}"
            + (f": {c.reason}" if c.reason else "")
        )
    more = f"; and {len(lines) - len(shown)} more" if len(lines) > len(shown) else ""
    what = f"like {text.strip()!r}" if text and text.strip() else "matches these filters"
    it = "it" if len(lines) == 1 else "them"
    return f"no effect record {what}: {'; '.join(said)}{more}; add --status to list {it}"


# ---------------------------------------------------------------------------------------------
# Words


def conditions_text(when: When | None, phases: bool = True) -> str:
    """The record's conditions in words (``fight phase; charged; attacker: ORKS``; without
    the phases where they are shown apart)."""
    if when is None:
        return ""
    parts = []
    if when.phases and phases:
        parts.append(f"{' or '.join(when.phases)} phase")
    flags = (
        "charged",
        "stationary",
        "half_range",
        "disembarked",
        "objective",
        "beyond_12",
        "target_in_cover",
        "engaged",
        "target_engaged",
        "advanced",
        "attacker_has_character",
        "target_has_character",
        "leading",
        "attacker_below_starting_strength",
        "attacker_below_half_strength",
        "target_below_starting_strength",
        "target_below_half_strength",
    )
    for f in flags:
        v = getattr(when, f)
        if v is not None:
            parts.append(f.replace("_", " ") if v else f"not {f.replace('_', ' ')}")
    for who in ("attacker", "target"):
        kw = getattr(when, f"{who}_keywords")
        every = getattr(when, f"{who}_all")
        none = getattr(when, f"{who}_not")
        words = []
        if every:
            words.append(" and ".join(every))
        if kw:
            words.append(" or ".join(kw))
        if none:
            words.append("not " + "/".join(none))
        if words:
            parts.append(f"{who}: {', '.join(words)}")
    for f, what in (
        ("unit_min_models", "models at least"),
        ("target_min_models", "target models at least"),
        ("target_max_models", "target models at most"),
    ):
        v = getattr(when, f)
        if v is not None:
            parts.append(f"{what} {v}")
    if when.led_by:
        parts.append(f"led by: {' or '.join(when.led_by)}")
    if when.with_model:
        parts.append(f"with a {' or '.join(when.with_model)} model")
    if when.option:
        parts.append(f"option {when.option}")
    return "; ".join(parts)


def phases_of(e: Effect) -> str:
    """The phases it can act in."""
    w = e.when
    return " or ".join(w.phases) if w is not None and w.phases else "shooting or fight"


def effect_json(e: Effect) -> dict[str, Any]:
    """One record for ``calc effects --json``."""
    out: dict[str, Any] = {
        "id": e.id,
        "qualified": e.qualified,
        "name": e.name,
        "rule": e.rule,
        "faction": ef.display_name(e.faction),
        "faction_in_file": e.faction_name,
        "edition": e.edition,
        "kind": e.kind,
        "detachments": list(e.detachments),
        "side": e.side,
        "phases": phases_of(e).split(" or "),
        "summary": e.summary,
        "status": "modelled",
        "options": e.options,
        "conditions": conditions_text(e.when),
        "default": e.default,
        "file": e.path.name,
    }
    if e.record.cost:
        out["cost"] = e.record.cost
    if e.record.not_modelled:
        out["not_modelled"] = e.record.not_modelled
    return out


def line_json(x: Line, edition: str) -> dict[str, Any]:
    """One coverage line for ``calc effects --json``."""
    c = x.coverage
    out: dict[str, Any] = {
        "rule": c.rule,
        "faction": ef.display_name(x.faction),
        "edition": edition,
        "kind": c.kind,
        "detachments": [c.detachment] if c.detachment else [],
        "status": c.status,
    }
    if c.reason:
        out["reason"] = c.reason
    return out


def render(effects: list[Effect], lines: list[Line], edition: str, console) -> None:
    """The records (and ``lines``) as a table that fits the console, words never cut
    (:func:`~wh40k_calc.layout.print_table`)."""
    from rich.table import Table
    from rich.text import Text

    from .layout import Words, print_table

    narrow = console.width < 100
    table = Table(title=f"Effects, edition {edition} (--effect ID; ID:OPTION)", show_lines=True)
    table.add_column("Id: faction, kind" + ("; side, phases" if narrow else ""))
    if not narrow:
        table.add_column("Side: phases")
    table.add_column("What it does")
    for e in effects:
        kind = e.kind_words + (" (applied by default)" if e.default else "")
        owner = ef.display_name(e.faction)
        # "Core stratagem", not "Core, core stratagem"
        said = kind[0].upper() + kind[1:] if e.kind == "core" else f"{owner}, {kind}"
        head = Text.assemble((e.id, "bold"), "\n", (said, "dim"))
        side = f"{e.side}: {phases_of(e)}"
        what = Text(e.summary)
        for o, said in e.options.items():
            what.append(f"\noption {o}: {said}", "dim")
        cond = conditions_text(e.when, phases=False)
        if cond:
            what.append(f"\nneeds: {cond}", "dim")
        if e.record.not_modelled:
            what.append(f"\nnot modelled: {e.record.not_modelled}", "dim")
        if narrow:
            table.add_row(Words(Text.assemble(head, "\n", (side, "dim"))), Words(what))
        else:
            table.add_row(Words(head), Words(side), Words(what))
    for x in lines:
        c = x.coverage
        where = f" ({c.detachment})" if c.detachment else ""
        head = Text.assemble(
            (c.rule, "bold"), "\n", (f"{ef.display_name(x.faction)}, {c.kind}{where}", "dim")
        )
        status = "not an attack rule" if c.status == "not-attack" else "not modelled"
        said_of = Words(status + (f": {c.reason}" if c.reason else ""))
        if narrow:
            table.add_row(Words(head), said_of)
        else:
            table.add_row(Words(head), Words("-"), said_of)
    print_table(console, table)
    from .wording import count

    console.print(
        Text(
            count(len(effects), "record")
            + (f", {count(len(lines), 'rule')} not modelled or not attack rules" if lines else ""),
            "dim",
        )
    )

"""Named loadouts from the datasheet's wargear options: one for each option that replaces named
weapons by other named weapons, on one model, some models or every model of a type.

Understood forms (a "for every N models in this unit" prefix makes the option's number of
models a number for every N models, ``per_models``: 2 of 10 Wolf Guard Terminators may take
the assault cannon that 1 of 5 may; "if this unit contains N models" sets ``min_unit_size``):

* "This model's X can be replaced with 1 Y" (or "one of the following:" a list: one loadout per
  item; an item may name several weapons: "1 Y and 1 Z");
* "N of this model's X / Each of this model's X can be replaced with ...";
* "The M's X can be replaced with ..." (one model M);
* "N M's X / One M's X can be replaced with ..." (N models M; "model" means the models that
  carry X);
* "Any number of / All M can each have their X replaced with ...", "Each M's X can be replaced
  with ..." (every model M; "All M" is every model M or none: ``whole``);
* "Up to N M can each have their X replaced with ..." and "N M can replace its X with ...";
* "This model's Xs can each be replaced with ...", "Any number of this model's Xs can each
  ...", "Each model can have each X it is equipped with replaced with ...", "Each of this
  model's Xs ..." (``each``: every copy of X on its own, a loadout for every mix), "Both of
  this model's Xs ..." (every copy at once), "Any number of models can each replace one of
  their Xs with ..." (one copy), "This unit's X ..." (a one-model unit's);
* "for every N Ms in this unit" (one kind of model counted: ``per_kind``, said in models of
  the unit where M is a fixed share of it);
* "N model(s) [in this unit] equipped with X can be equipped with Y" (usually "for every N
  models in this unit, 1 model equipped with a bolt rifle can be equipped with 1 Astartes
  grenade launcher"): Y added to the equipment of N models of the first type that carries X,
  which keep X (``adds``; :func:`parse_equipped_addition`).

A loadout is named after the new weapons (``plasma-gun``; with the model's name when two options
give the same weapon).

Options that give a model several weapons of a list — "This model / Any number of models / The
M can [each] be equipped with up to N of the following[, and can take duplicates]" — become
``choices`` of the models they are for (:func:`parse_choice`): up to N of the list's weapons,
duplicates only where the option allows them and never of an item marked ``*`` (the export's
footnote: no duplicates of these), besides the weapons the model carries (``adds``: a
Commander's gun, or the one that replaced it, and up to three more), or in place of the list's
weapons it carries where a footnote caps its ranged weapons at that number ("cannot be
equipped with more than 3 ranged weapons": a Crisis Battlesuit's burst cannon is one of its
three). Non-weapon items of the list are left out.

Options that add a weapon, that take away or give non-weapon wargear only, or whose weapons the
datasheet does not list, are not generated: ``skipped`` counts them by reason and
``not_generated`` says, for each, why and which equipment it names (``calc show`` lists them).
The export's footnote rows (marked ``*``) are not options.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .export import html_to_text, slug
from .models import ImportedModel
from .names import find, name_words, near_match, same_name, singular
from .optional_models import optional_model_loadouts, rank_and_file_minimum
from .weapons import ImportedWeapon, resolve_item, split_count

_NUM = r"(?P<n>\d+|one|a|an)"
_PREFIX = re.compile(
    r"^(?:for every (?P<per>\d+|two|three|four|five|six|ten) (?:models|(?P<kind>[^,]+?)) in "
    r"(?:this|the) unit, |if this unit contains (?P<ifn>\d+) (?:or more )?models, )",
    re.IGNORECASE,
)
_FORMS: tuple[tuple[str, re.Pattern[str], bool], ...] = tuple(
    (kind, re.compile(p, re.IGNORECASE), fresh)
    for kind, p, fresh in (
        ("this", r"^this model[’']s (?P<old>.+?) can be replaced with (?P<new>.+)$", False),
        (
            "this-all",
            r"^each of this model[’']s (?P<old>.+?) can be replaced with (?P<new>.+)$",
            False,
        ),
        (
            "this-n",
            rf"^{_NUM} of this model[’']s (?P<old>.+?) can be replaced with (?P<new>.+)$",
            False,
        ),
        ("the", r"^the (?P<model>.+?)[’']s (?P<old>.+?) can be replaced with (?P<new>.+)$", False),
        (
            "each",
            r"^each (?P<model>.+?)[’']s (?P<old>.+?) can be replaced with (?P<new>.+)$",
            False,
        ),
        (
            "n",
            rf"^{_NUM} (?P<model>.+?)[’']s (?P<old>.+?) can be replaced with (?P<new>.+)$",
            False,
        ),
        (
            "all",
            r"^(?:any number of|all) (?P<model>.+?) (?:in this unit )?can each have their "
            r"(?P<old>.+?) replaced with (?P<new>.+)$",
            False,
        ),
        (
            "up-to",
            r"^up to (?P<n>\d+) (?P<model>.+?) can each have their (?P<old>.+?) replaced "
            r"with (?P<new>.+)$",
            False,
        ),
        (
            "n-its",
            rf"^{_NUM} (?P<model>.+?) can (?:have its (?P<old>.+?) replaced|replace its "
            r"(?P<old2>.+?)) with (?P<new>.+)$",
            False,
        ),
        # the forms read since (``fresh``: named after the others, which keep their names)
        (
            "n",
            rf"^(?:up to )?{_NUM} (?P<model>.+?)(?:[’']s|s[’']) (?P<old>.+?) can (?:each )?be "
            r"replaced with (?P<new>.+)$",
            True,
        ),
        (
            "the-its",
            r"^the (?P<model>.+?) can (?:replace its (?P<old>.+?)|have its (?P<old2>.+?) "
            r"replaced) with (?P<new>.+)$",
            True,
        ),
        (
            "all",
            r"^(?:any number of|all) (?P<model>.+?) (?:in this unit )?can each (?:have their "
            r"(?P<old>.+?) replaced|replace their (?P<old2>.+?)) with (?P<new>.+)$",
            True,
        ),
        (
            "all",
            r"^any numbers? of (?P<model>.+?)s[’'] (?P<old>.+?) can each be replaced with "
            r"(?P<new>.+)$",
            True,
        ),
        (
            "up-to",
            r"^up to (?P<n>\d+|one|two|three|four|five) (?P<model>.+?) can each (?:have their "
            r"(?P<old>.+?) replaced|replace their (?P<old2>.+?)) with (?P<new>.+)$",
            True,
        ),
        (
            "up-to",
            rf"^{_NUM} (?P<model>.+?) can each (?:have their (?P<old>.+?) replaced|replace "
            r"their (?P<old2>.+?)) with (?P<new>.+)$",
            True,
        ),
        (
            "n-its",
            rf"^(?:up to )?{_NUM} (?P<model>.+?) can (?:have (?:its|their) (?P<old>.+?) "
            r"replaced|replace (?:its|their) (?P<old2>.+?)) with (?P<new>.+)$",
            True,
        ),
        ("this", r"^this model can have its (?P<old>.+?) replaced with (?P<new>.+)$", True),
        ("the", r"^the (?P<model>.+?)[’'] (?P<old>.+?) can be replaced with (?P<new>.+)$", True),
        # a one-model unit's: "This unit's X can be replaced with ..."
        ("this", r"^this unit[’']s (?P<old>.+?) can be replaced with (?P<new>.+)$", True),
        # every copy at once: "Both of this model's Xs can be replaced with ..."
        (
            "this-all",
            r"^both of this model[’']s (?P<old>.+?) can be replaced with (?P<new>.+)$",
            True,
        ),
        # each copy on its own ("this-each"): "This model's Xs can each be replaced with",
        # "Any number of this model's Xs can each be replaced with", "Each model can have each
        # X it is equipped with replaced with"
        (
            "this-each",
            r"^(?:any number of )?this model[’']s (?P<old>.+?) can each be replaced "
            r"with (?P<new>.+)$",
            True,
        ),
        (
            "this-each",
            r"^each model can have each (?P<old>.+?) it is equipped with replaced "
            r"with (?P<new>.+)$",
            True,
        ),
        # one copy of a weapon a model carries several of: "Any number of models can each
        # replace one of their Xs with ..."
        (
            "all-one",
            r"^any number of (?P<model>.+?) can (?:each )?replace one of their "
            r"(?P<old>.+?) with (?P<new>.+)$",
            True,
        ),
        # "Any number of M can replace their X with ..." (without "each")
        (
            "all",
            r"^(?:any number of|all) (?P<model>.+?) (?:in this unit )?can (?:have their "
            r"(?P<old>.+?) replaced|replace their (?P<old2>.+?)) with (?P<new>.+)$",
            True,
        ),
    )
)


@dataclass(frozen=True)
class _Option:
    """One understood option: ``model`` (None: the models carrying the old weapons), ``count``
    (None: all of them), ``min_unit_size``, the old and new items, and ``per_models`` (the
    count is for every that many models of the unit)."""

    model: str | None
    count: int | None
    min_unit_size: int | None
    old: tuple[str, ...]
    new: tuple[tuple[str, ...], ...]  # alternatives, each a list of items
    per_models: int | None = None
    adds: bool = False  # the new items besides the old ones (which only say who may)
    once: bool = False  # no item twice in the unit ("duplicates are not allowed")
    or_old: tuple[str, ...] = ()  # "X or Y replaced": Y, replaced where no model carries X
    once_at: tuple[int, int] | None = None  # with once: (N, K): K of an item in N models
    fresh: bool = True  # a form read since the first ones: its loadouts are named after theirs
    whole: bool = False  # "All M can each ...": every model of the type takes it, or none
    # (with ``model`` None, "All models in this unit ...": every model of the unit)
    excludes: tuple[str, ...] = ()  # "M not equipped with X": X, never carried besides
    per_kind: str | None = None  # "for every N Ms in this unit": M (with ``per_models`` N)
    each: bool = False  # "each of this model's Xs": every copy of X replaced on its own


_EQUIPPED_ADD = re.compile(
    rf"^{_NUM} (?P<model>.+?) (?:in this unit )?equipped with (?P<old>.+?) can be equipped "
    r"with (?P<new>.+)$",
    re.IGNORECASE,
)
_COUNT_ADD = re.compile(
    rf"^{_NUM} (?P<model>.+?) (?:in this unit )?can be equipped with (?P<new>.+)$",
    re.IGNORECASE,
)
_IF_EQUIPPED = re.compile(
    r"^if (?:this model|the (?P<model>.+?)|this unit[’']s (?P<unit_model>.+?)) is equipped "
    r"with (?P<old>.+?), it can be equipped with (?P<new>.+)$",
    re.IGNORECASE,
)


def _prefix(head: str) -> tuple[int | None, str | None, int | None, str]:
    """An option's ``head`` without its prefix, and what the prefix says: "for every N models
    in this unit" (N), "for every N Ms in this unit" (N and M: models of one kind counted,
    :func:`_per_unit`), "if this unit contains N models" (the least unit size)."""
    m = _PREFIX.match(head)
    if m is None:
        return None, None, None, head
    per = _number(m["per"]) if m["per"] else None
    least = int(m["ifn"]) if m["ifn"] else None
    return per, m["kind"], least, head[m.end() :]


def parse_equipped_addition(text: str) -> _Option | None:
    """ "[For every N models in this unit, ]N model(s) equipped with X can be equipped with Y"
    (or "... with one of the following:" and a list): ``count`` models of the first type
    carrying X may add Y (X is kept: ``adds``), for every N models of the unit with the prefix;
    a sentence after the option's ("That model's pulse carbine cannot be replaced.") is left
    out. None for any other text."""
    lines, _ = _lines(text)
    head = lines[0].split(". ")[0].rstrip(".") if lines else ""
    per, kind, least, head = _prefix(head)
    if (m := _IF_EQUIPPED.match(head)) and not per and not least:
        old_items = tuple(_ARTICLE.sub("", i) for i in _items(m["old"]))
        alternatives = _alternatives(m["new"].strip().rstrip(":*").strip(), lines)
        if alternatives is None:
            return None
        named = m["model"] or m["unit_model"]  # "the M", "this unit's M"
        return _Option(named, None, None, old_items, alternatives, adds=True)
    m = None if re.search(r"\bnot equipped with\b", head, re.I) else _EQUIPPED_ADD.match(head)
    if m is None:
        m = _COUNT_ADD.match(head)
        who = _not_equipped(m["model"])[0] if m is not None else ""
        if m is None or re.search(r"\d|\bequipped\b|\bup to\b", who, re.I):
            return None
        m_old = None
    else:
        m_old = m["old"]
    who, excludes = _not_equipped(m["model"])
    model: str | None = who
    if who.lower() in ("model", "models"):
        model = None
    elif re.search(r"\d|\bequipped\b", who, re.IGNORECASE):
        return None
    old = () if m_old is None else (_ARTICLE.sub("", m_old.strip()),)
    new = re.sub(r"\s*\([^()]*\)$", "", m["new"].strip()).rstrip(":*").strip()  # "(... kept)"
    new = _BESIDES.sub("", new)  # "one of the following in addition to any other weapons:"
    alternatives = _alternatives(new, lines)
    if alternatives is None:
        return None
    n = _number(m["n"])
    return _Option(
        model,
        n,
        least,
        old,
        alternatives,
        per,
        adds=True,
        fresh=m_old is None or bool(kind),
        excludes=excludes,
        per_kind=kind,
    )


# "... can be equipped with one of the following in addition to any other weapons": the item
# is added (as every such option's is)
_BESIDES = re.compile(r"\s+in addition to any other weapons(?=\W*$)", re.IGNORECASE)


_ARTICLE = re.compile(r"^(?:a|an|one)\s+", re.IGNORECASE)
_NOT_EQUIPPED = re.compile(
    r"^(?P<model>.+?)\s+(?:that is |which is |who is )?not equipped with (?:either )?"
    r"(?P<x>.+)$",
    re.IGNORECASE,
)
_IF_NOT = re.compile(
    r"^if (?:this model|the (?P<model>.+?)) is not equipped with (?:either )?(?P<x>.+?), "
    r"(?P<rest>its .+)$",
    re.IGNORECASE,
)


def _not_equipped(model: str) -> tuple[str, tuple[str, ...]]:
    """``model`` ("Boy not equipped with 1 shoota", "model that is not equipped with either a
    HYLas rotary cannon or an ion beamer") as the models it names and the items those may not
    carry (none: ``model`` itself and ())."""
    m = _NOT_EQUIPPED.match(model.strip())
    if m is None:
        return model, ()
    items = re.split(r"\s*,\s*|\s+or\s+", m["x"].strip())
    return m["model"].strip(), tuple(_ARTICLE.sub("", i).strip() for i in items if i.strip())


def _if_not(head: str) -> tuple[str, tuple[str, ...]]:
    """An option's ``head`` "If this model (the M) is not equipped with X, its Y can be
    replaced with Z" as "This model's (The M's) Y can be replaced with Z" and the X (a model
    taking it carries none besides); any other head as it is and ()."""
    m = _IF_NOT.match(head)
    if m is None:
        return head, ()
    who = "this model" if m["model"] is None else f"the {m['model']}"
    _, items = _not_equipped(f"model not equipped with {m['x']}")
    return f"{who}’s {m['rest'][4:]}", items


def _alternatives(new: str, lines: list[str]) -> tuple[tuple[str, ...], ...] | None:
    """The item sets an addition offers: ``new`` (the text after "equipped with") read as one
    set, or, when it is "one of the following", each of the option's later ``lines`` as one;
    None when ``new`` is another form (a choice, "up to", "either ... or") or a set is empty."""
    if re.fullmatch(r"one of the following\W*", new, re.IGNORECASE):
        alternatives = tuple(_items(i) for i in lines[1:])
    elif re.search(r"following|up to|either|\bor\b", new, re.IGNORECASE):
        return None
    else:
        alternatives = (_items(new),)
    if not alternatives or not all(alternatives):
        return None
    return alternatives


def _number(text: str | None) -> int:
    if text is None:
        return 1
    word = text.lower()
    return 1 if word in ("one", "a", "an") else _WORDS.get(word) or int(text)


def _items(text: str) -> tuple[str, ...]:
    """``'bolt pistol, boltgun and chainsword'`` -> the three items ("1 additional X": 1 X)."""
    parts = re.split(r"\s*,\s*|\s+and\s+", text.strip().rstrip(".*").strip())
    items = (p.strip().rstrip("*").strip() for p in parts if p.strip())
    return tuple(re.sub(r"^(\d+|one|an?) additional ", r"\1 ", i, flags=re.I) for i in items)


_ONCE = re.compile(
    r"\s*\(?(?:duplicates are not allowed|you cannot select the same (?:option|weapon)"
    r"(?: from this list)? more than once(?: per unit)?)(?![^.]*\bunless\b)\)?\.?",
    re.IGNORECASE,
)
_TWICE = re.compile(
    r"\s*(?:you cannot select the same (?:weapon|option)(?: from this list)? more than once "
    r"per unit,? unless (?:it|this unit) contains (?P<n>\d+) models, in which case you cannot "
    r"select the same (?:weapon|option) more than (?P<k>twice|\d+ times)\s+per unit|"
    r"you cannot select the same (?:weapon|option)(?: from this list)? more than "
    r"(?P<k2>twice|\d+ times) per unit)\.?",
    re.IGNORECASE,
)
_KEPT = re.compile(r"\s*\((?:[^()]*\bcannot be replaced)\)\s*$", re.IGNORECASE)


def _twice(text: str) -> tuple[int, int] | None:
    """(N, K) of "no item twice unless the unit contains N models, then no more than K times"
    in ``text`` (N 0: "no item more than K times per unit"; None: not said)."""
    m = _TWICE.search(text)
    if m is None:
        return None
    k = (m["k"] or m["k2"]).lower()
    return int(m["n"] or 0), 2 if k == "twice" else int(k.split()[0])


def _lines(text: str) -> tuple[list[str], bool]:
    """The option's lines without the notes that say no item may be taken twice ("(duplicates
    are not allowed)", "You cannot select the same weapon from this list more than once",
    also "... unless it contains N models, in which case ... more than twice": see
    :func:`_twice`), which a line may end with, and whether there was one; "... with:" and a
    list is "... with one of the following:"."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    once = False
    out: list[str] = []
    for line in lines:
        cut = _ONCE.sub("", _TWICE.sub("", line))
        if cut != line:
            once = True
            if "*" in line and not out:
                cut = cut.rstrip("*")
            line = cut.strip()
        line = _KEPT.sub("", line)
        if line.strip(" *"):
            out.append(line)
    if len(out) > 1 and re.search(r"\bwith:\W*$", out[0], re.IGNORECASE):
        out[0] = re.sub(r"\bwith:(\W*)$", r"with one of the following:\1", out[0])
    if out:
        for slip, meant in _SLIPS:
            out[0] = slip.sub(meant, out[0])
    return out, once


# The export's slips in an option's first line, and what they stand for: "1 of the following"
# and "on of the following" ("one of ..."), "replaced one of the following" ("replaced with
# one of ..."), "This model's X replaced with" ("... can be replaced with"), "have their X
# can be replaced with" ("have their X replaced with").
_SLIPS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), r)
    for p, r in (
        (r"\b(?:1|on) of the following\b", "one of the following"),
        (r"\breplaced (one of the following)", r"replaced with \1"),
        (
            r"^(this (?:model|unit)[’']s (?:(?!\bcan\b).)+?) replaced with\b",
            r"\1 can be replaced with",
        ),
        (r"\b(have their (?:(?!\bcan\b).)+?) can be replaced with\b", r"\1 replaced with"),
    )
)


# A stray "equipped with" before the new item ("... can be replaced with equipped with 1 Y", as
# the edition-10 export prints one Death Company Marines option): the item is what follows it.
_STRAY_EQUIPPED = re.compile(r"^equipped with\s+", re.IGNORECASE)


def parse_option(text: str) -> _Option | None:
    """The option in ``text`` (an options row as plain text, list items on their own lines),
    or None when it is not a weapon swap of an understood form."""
    lines, once = _lines(text)
    if not lines:
        return None
    first = text.splitlines()[0]
    rewritten = re.search(r"\bwith:", first) is not None or any(  # named after the others
        slip.search(first) for slip, _ in _SLIPS
    )
    head = lines[0].rstrip(".")
    per, per_kind, least, head = _prefix(head)
    head, excludes = _if_not(head)
    for kind, regex, fresh in _FORMS:
        m = regex.match(head)
        if m is None:
            continue
        groups = m.groupdict()
        if groups.get("model") is not None:
            groups["model"], barred = _not_equipped(groups["model"])
            excludes += barred
        old = groups.get("old") or groups.get("old2") or ""
        new = groups["new"].strip().rstrip(":*").strip()
        new = _STRAY_EQUIPPED.sub("", new)  # "replaced with equipped with 1 Y": an export's slip
        fixed: tuple[str, ...] = ()
        if m_and := re.fullmatch(r"(?P<x>[^,]+?) and (?P<rest>one of the following\W*)", new):
            fixed, new, fresh = _items(m_and["x"]), m_and["rest"], True  # "1 X and one of"
        if re.search(r"one of the following|up to|either|\bor\b", new, re.IGNORECASE):
            if not re.fullmatch(r"one of the following\W*", new, re.IGNORECASE):
                return None  # a choice of several weapons at once: not generated
            alternatives = tuple(fixed + _items(i) for i in lines[1:])
        else:
            alternatives = (_items(new),)
        if not alternatives or not all(alternatives):
            return None
        model = groups.get("model")
        count: int | None
        each = kind == "this-each" or (kind == "this-all" and head.lower().startswith("each"))
        if kind in ("this", "this-all", "this-each", "all", "all-one", "each"):
            count = None
        elif kind in ("the", "the-its"):
            count = 1
        else:
            count = _number(groups.get("n"))
        if kind == "this-n":
            old = f"{count} {old}"
            count = None
        if kind == "this-all" and not each:
            old = f"all {old}"
        if kind == "all-one":
            old = f"1 {old}"
        if each:  # every copy on its own: how many the model carries, not the text's number
            old = split_count(old)[1]
        if model is not None and model.lower() in (
            "model",
            "models",
            "models in this unit",
            "of the models",  # "All of the models in this unit can each ..."
        ):
            model = None
        elif model is not None:  # "Kill Team Terminator models": the Kill Team Terminators
            model = re.sub(r"^(?!of )(.+\w) models?$", r"\1", model, flags=re.I)
        if per is not None and count is None:
            if per_kind:
                return None  # "for every N Ms, every M ...": not a form we read
            least, per = per, None  # every model of a kind: the prefix is a least size
        once = once and len(alternatives) > 1 and count is not None
        once_at = _twice(text) if once else None
        fresh = fresh or once or rewritten
        either = re.fullmatch(r"(?P<x>[^,]+?) or (?:an? )?(?P<y>[^,]+)", old.strip())
        if either:  # "their Autoch-pattern bolter or ion blaster"
            old, or_old, fresh = either["x"], _items(either["y"]), True
        else:
            or_old = ()
        return _Option(
            model,
            count,
            least,
            _items(old),
            alternatives,
            per,
            once=once,
            fresh=fresh,
            or_old=or_old,
            once_at=once_at,
            whole=kind == "all" and head.lower().startswith("all "),
            excludes=excludes,
            per_kind=per_kind,
            each=each,
        )
    return None


_HEADING = re.compile(
    r"^(?:for every \d+ models in (?:this|the) unit|if this unit contains \d+ (?:or more )?"
    r"models)\s*:\s*$",
    re.IGNORECASE,
)


def split_headed(text: str) -> list[str]:
    """The options of a row whose first line is only a prefix ("For every 5 models in this
    unit:", "If this unit contains 10 models:") and whose other lines are each an option: each
    of those with the prefix (``text`` itself for any other row)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) < 2 or not _HEADING.match(lines[0]):
        return [text]
    head = lines[0].rstrip(" :")
    if not all(re.search(r"\bcan\b", line) for line in lines[1:]):
        return [text]
    return [f"{head}, {line[:1].lower()}{line[1:]}" for line in lines[1:]]


_EITHER_ADD = re.compile(
    r"^this model can be equipped with (?P<add>.+?) or can replace (?P<old>.+?) with "
    r"(?P<new>.+)$",
    re.IGNORECASE,
)
_EITHER_UP_TO = re.compile(
    r"^up to (?P<n>\d+) (?P<model>.+?) can each have their (?P<old>.+?) replaced with "
    r"(?P<new>[^,]+), or can be equipped with (?P<add>.+)$",
    re.IGNORECASE,
)
_TWO_OF = re.compile(
    r"^the (?P<model>.+?)[’']s (?P<old>.+?) can be replaced with (?P<n>two|three) different "
    r"weapons from the following list\W*$",
    re.IGNORECASE,
)
_EITHER_TWO = re.compile(
    r"^the (?P<model>.+?)[’']s (?P<old>.+?) can be replaced with (?P<new>[^,]+), or "
    r"(?P<n>two|three) different weapons from the following list\W*$",
    re.IGNORECASE,
)


def parse_either(
    text: str, models: list[ImportedModel], weapons: list[ImportedWeapon]
) -> list[_Option | _Choice] | None:
    """An "either ... or" option as the options it offers, of which a model takes one (None
    for any other text):

    * "This model can be equipped with 1 Y or can replace 1 X with 1 Y" (a Chaos Rhino's havoc
      launcher): Y added, or X swapped for Y;
    * "Up to N M can each have their X replaced with 1 Y, or can be equipped with one of the
      following:" and a list: the swap or one item added, N models in all;
    * "The M's X and Y can be replaced with 1 Z, or two different weapons from the following
      list:" (a Tactical Sergeant): the swap, or up to two different weapons of the list in
      place of those of the list the model carries (a ``choices`` entry); "The M's X and Y can
      be replaced with two different weapons from the following list:" (a Devastator
      Sergeant) the choice alone.
    """
    lines, _ = _lines(text)
    head = lines[0].rstrip(".") if lines else ""
    if m := _EITHER_ADD.match(head):
        if len(lines) > 1:
            return None
        return [
            _Option(None, None, None, (), (_items(m["add"]),), adds=True),
            _Option(None, None, None, _items(m["old"]), (_items(m["new"]),)),
        ]
    if m := _EITHER_UP_TO.match(head):
        add = m["add"].strip().rstrip(":*").strip()
        if re.fullmatch(r"one of the following\W*", add, re.IGNORECASE):
            added = tuple(_items(i) for i in lines[1:])
        elif len(lines) == 1 and not re.search(r"following|up to|\bor\b", add, re.I):
            added = (_items(add),)
        else:
            return None
        if not added or not all(added):
            return None
        n, model = int(m["n"]), m["model"]
        return [
            _Option(model, n, None, _items(m["old"]), (_items(m["new"]),)),
            _Option(model, n, None, _items(m["old"]), added, adds=True),
        ]
    if (m := _TWO_OF.match(head)) and len(lines) >= 3:  # a Devastator Sergeant's
        return [_Choice(m["model"], _WORDS[m["n"].lower()], False, tuple(lines[1:]))]
    if m := _EITHER_TWO.match(head):
        if len(lines) < 3:
            return None
        up_to = _WORDS[m["n"].lower()]
        return [
            _Option(m["model"], 1, None, _items(m["old"]), (_items(m["new"]),)),
            _Choice(m["model"], up_to, False, tuple(lines[1:])),
        ]
    return None


@dataclass
class Options:
    """What a datasheet's wargear options become: ``loadouts`` by name (the datasheet
    format's), ``choices`` by model name (its ``choices`` entries), ``limits`` (its
    ``option_limits``: an option offered as several loadouts, by its items or by the model
    types that may take it, and how many models may take it in all), and the options not
    generated: counted by reason (``skipped``, for the file's notes) and one by one
    (``not_generated``: ``{"reason", "items"}``, the datasheet's ``options_not_generated``)."""

    loadouts: dict[str, list[dict[str, object]]]
    choices: dict[str, list[dict[str, object]]]
    skipped: Counter[str]
    not_generated: list[dict[str, object]]
    limits: list[dict[str, object]] = field(default_factory=list)


def generate_loadouts(
    option_rows: list[dict[str, str]],
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    max_counts: dict[str, int],
) -> Options:
    """Loadouts and choices for the wargear options of a datasheet.

    Args:
        option_rows: the datasheet's rows of Datasheets_options.csv.
        models: its models with their default ``equipped``.
        weapons: its weapon profiles.
        max_counts: model name -> how many the largest unit size has (a loadout may not
            equip more).
    """
    out, pending, limited = _generate(option_rows, models, weapons, max_counts)
    if not out.skipped[_NO_CARRIER]:
        return out
    gained = _gained(pending, limited, models)
    if not any(gained.values()):
        return out
    chained = [replace(m, gained=gained[m.name]) for m in models]
    after = _generate(option_rows, chained, weapons, max_counts)[0]
    if _chains_apart(out, after, chained) and not _cross_chains(out, after, chained, weapons):
        return out
    return after


_NO_CARRIER = "no model carries the weapons replaced"
_NOT_A_SHARE = "the models it counts are not a fixed share of the unit"


def _per_unit(option: _Option, models: list[ImportedModel]) -> _Option | None:
    """``option`` with "for every N Ms in this unit" (``per_kind`` M) said in models of the
    unit (``per_models``): for every P models, P the unit's models for N Ms at both ends of
    the unit's sizes (4 Atalan Jackals of 5 models, 8 of 10: for every 5 models); None where
    no P says it (M not a model of the unit, or not in a fixed share of it)."""
    if option.per_kind is None or option.per_models is None:
        return option
    names = [m.name for m in models]
    idx = find(option.per_kind, names)
    if idx is None:
        idx = find(singular(option.per_kind), names)
    if idx is None:
        return None
    kind, n = models[idx], option.per_models
    low, high = sum(m.low for m in models), sum(m.high for m in models)
    if kind.high == 0 or (n * high) % kind.high:
        return None
    per = n * high // kind.high
    if low // per != kind.low // n or high // per != kind.high // n:
        return None
    return replace(option, per_models=per, per_kind=None)


def _gained(
    pending: list[_Made], limited: set[int], models: list[ImportedModel]
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Model name -> the equipment lists that a wargear option lets any number of its models
    swap to (an entry for every model of the type that wants it: count ``all``, not all-or-none
    ``whole``, no unit size, in no option limit, taking a default weapon away), in options'
    order: an option that replaces a weapon only such an option gives applies to these models
    after it ("Any number of Corsair Voidreavers can each have their shuriken pistol and
    power sword replaced with 1 shuriken rifle", then "1 Corsair Voidreaver's shuriken rifle
    can be replaced with ..."; both editions: each option is taken in turn, a swap of X needs
    the model to carry X). The chained entry takes away what the first option took away, so
    it is never combined with that option again (:mod:`wh40k_calc.composition.combined`)."""
    out: dict[str, tuple[tuple[str, ...], ...]] = {m.name: () for m in models}
    by_name = {m.name: m for m in models}
    for i, made in enumerate(pending):
        if i in limited:
            continue
        for e in made.entries:
            m = by_name.get(str(e["model"]))
            equipped = e["equipped"]
            kit = tuple(str(w) for w in equipped) if isinstance(equipped, list) else ()
            if m is None or e.get("count") != "all" or e.get("whole"):
                continue
            if e.get("min_unit_size") or e.get("replaces") or e.get("needs"):
                continue
            if Counter(m.equipped or []) - Counter(kit) and kit not in out[m.name]:
                out[m.name] += (kit,)
    return out


def _chains_apart(before: Options, after: Options, models: list[ImportedModel]) -> bool:
    """Whether two of the loadout entries that options applied after another option made (in
    ``after``, not in ``before``) take away different weapons of the equipment that option
    gave: a model may then take both (a Death Company Marine's chainsword and bolt pistol,
    each replaced by an option of its own), which entries made from the default equipment
    cannot say (both take away what the first option took away, so they would never be
    combined): the options are then left as they were, not generated."""
    gained = {m.name: m.gained for m in models}
    made: list[tuple[str, object, Counter[str]]] = []  # (model, option, weapons taken away)
    for name, entries in after.loadouts.items():
        if name in before.loadouts:
            continue
        for e in entries:
            kits = gained.get(str(e["model"]), ())
            equipped = e["equipped"]
            have = Counter(str(w) for w in equipped) if isinstance(equipped, list) else Counter()
            if not kits:
                continue
            kit = max(kits, key=lambda k: _overlap(k, have))
            made.append((str(e["model"]), e.get("option"), Counter(kit) - have))
    return any(
        a[0] == b[0] and a[1] != b[1] and not set(a[2]) & set(b[2])
        for i, a in enumerate(made)
        for b in made[i + 1 :]
    )


_CROSSED_MOST = 64  # the most equipments two or more chained options may make together


def _cross_chains(
    before: Options, after: Options, models: list[ImportedModel], weapons: list[ImportedWeapon]
) -> bool:
    """Add to ``after`` the equipment a model reaches by taking two or more options applied
    after another option (made in ``after``, not in ``before``), each replacing different
    weapons of the equipment that option gave (a Death Company Marine's chainsword and bolt
    pistol, given by option 1 and replaced by options 3 and 2: a power fist and a plasma
    pistol): one loadout per such equipment, an entry of the model type for any number of its
    models (``count: all``), numbered as the last of its options (an option taken after the
    others; it takes away what the first option took away, so it is never combined with
    another again). True when added; False (``after`` unchanged) where one of the entries is
    anything but "any number of models" (a count, all-or-none, a unit size, an option limit,
    a weapon it needs, keeps off or replaces on models with their own equipment: one entry
    cannot say how such options share models) or where more than :data:`_CROSSED_MOST` would
    be made."""
    from itertools import combinations, product

    gained = {m.name: m.gained for m in models}
    limited = {str(n) for lim in after.limits for n in lim["loadouts"]}  # type: ignore[attr-defined]
    # (model, the gained equipment) -> option -> [(loadout, entry, taken away, added)]
    groups: dict[tuple[str, tuple[str, ...]], dict[object, list[tuple]]] = {}
    for name, entries in after.loadouts.items():
        if name in before.loadouts:
            continue
        for e in entries:
            kits = gained.get(str(e["model"]), ())
            if not kits:
                continue
            equipped = e["equipped"]
            have = Counter(str(w) for w in equipped) if isinstance(equipped, list) else Counter()
            kit = max(kits, key=lambda k: _overlap(k, have))
            away, added = Counter(kit) - have, have - Counter(kit)
            by_option = groups.setdefault((str(e["model"]), kit), {})
            by_option.setdefault(e.get("option"), []).append((name, e, away, added))
    made: list[tuple[str, tuple[str, ...], list[tuple]]] = []  # (model, kit, the entries)
    for (model, kit), by_option in groups.items():
        for r in range(2, len(by_option) + 1):
            for options in combinations(list(by_option), r):
                for chosen in product(*(by_option[o] for o in options)):
                    aways = [set(p[2]) for p in chosen]
                    if any(a & b for i, a in enumerate(aways) for b in aways[i + 1 :]):
                        continue
                    made.append((model, kit, list(chosen)))
    if not made or len(made) > _CROSSED_MOST:
        return False
    plain = {"model", "count", "equipped", "option"}
    for _, _, picked in made:
        for name, e, _, _ in picked:
            if name in limited or e.get("count") != "all" or set(e) - plain:
                return False
    for _, kit, picked in made:
        equipped = list(kit)
        for _, _, away, added in picked:
            equipped = _swap_counted(equipped, away, added)
        new = [p[1] for p in picked]
        entry = {**new[-1], "equipped": equipped}
        base = {w.name: w.base for w in weapons}
        items = tuple(dict.fromkeys(base.get(n, n) for n in equipped if n not in kit))
        after.loadouts[_name(items, [entry], weapons, after.loadouts)] = [entry]
    return True


def _swap_counted(equipped: list[str], away: Counter[str], added: Counter[str]) -> list[str]:
    """``equipped`` with the ``away`` weapons taken out and the ``added`` ones put where the
    first of them was (at the end where none was)."""
    out: list[str] = []
    at, left = None, Counter(away)
    for name in equipped:
        if left[name]:
            left[name] -= 1
            at = len(out) if at is None else at
            continue
        out.append(name)
    at = len(out) if at is None else at
    return out[:at] + list(added.elements()) + out[at:]


def _overlap(kit: tuple[str, ...], have: Counter[str]) -> int:
    """How many of ``kit``'s weapons ``have`` holds too (copies counted)."""
    both: Counter[str] = Counter(kit) & have
    return sum(both.values())


def _generate(
    option_rows: list[dict[str, str]],
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    max_counts: dict[str, int],
) -> tuple[Options, list[_Made], set[int]]:
    """:func:`generate_loadouts`' one reading of the options: the loadouts and choices, every
    loadout made (in the options' order) and the indices of those in an option limit."""
    out = Options({}, {}, Counter(), [])
    capped = ranged_cap(option_rows)

    def skip(why: str, items: list[str]) -> None:
        out.skipped[why] += 1
        out.not_generated.append({"reason": why, "items": items})

    pending: list[_Made] = []  # every option's loadouts, in the options' order
    limits: list[tuple[list[int], dict[str, object]]] = []  # (indices in pending, limit)
    once = _once_footnotes(option_rows)
    one_pistol = _marked_by(option_rows, _ONE_PISTOL)
    numbered = 0  # the options read, a heading's each counted
    for number, row in enumerate(option_rows):
        if row.get("button", "").strip() == "*":  # a footnote to the options above
            if not _read_footnote(html_to_text(row["description"])):
                j = _footnoted(option_rows, number)
                above = "" if j is None else html_to_text(option_rows[j]["description"])
                out.not_generated.append(
                    {"reason": "a footnote not modelled", "items": _named_items(above)}
                )
            continue
        whole = html_to_text(row["description"]) + once.get(number, "")
        if _NO_OPTION.fullmatch(whole):
            continue  # "None": the datasheet has no wargear options
        parts = split_headed(whole)
        for text in parts:
            numbered += 1
            choice = parse_choice(text) or parse_addition(text)
            if choice is not None:
                why = _add_choice(
                    out.choices,
                    choice,
                    models,
                    weapons,
                    choice.up_to != capped,
                    number in one_pistol,
                )
                if why:
                    skip(why, _named_items(text))
                continue
            options = parse_either(text, models, weapons)
            if options is None:
                single = parse_option(text) or parse_equipped_addition(text)
                options = [single] if single is not None else None
            if options is None:
                skip("not a weapon swap of a known form", _named_items(text))
                continue
            counted = [_per_unit(o, models) if isinstance(o, _Option) else o for o in options]
            if any(o is None for o in counted):
                skip(_NOT_A_SHARE, _named_items(text))
                continue
            options = [o for o in counted if o is not None]
            made: list[_Made] = []
            for one in options:
                if isinstance(one, _Choice):  # in place of the list's weapons it carries
                    why = _add_choice(
                        out.choices, one, models, weapons, False, number in one_pistol
                    )
                    if why:
                        skip(why, _named_items(text))
                    continue
                fresh = one.fresh or len(parts) > 1 or len(options) > 1
                made += [
                    replace(m, option=numbered)
                    for m in _option_loadouts(one, models, weapons, max_counts, skip, number, fresh)
                ]
            first = len(pending)
            pending += made
            limit = _limit(options, [m.entries for m in made], max_counts)
            if limit is not None:
                limits.append((list(range(first, len(pending))), limit))
    names = _names(pending, weapons)
    for i in range(len(pending)):
        out.loadouts[names[i]] = pending[i].entries
    for indices, limit in limits:
        out.limits.append({"loadouts": [names[i] for i in indices], **limit})
    origin = {names[i]: m.row for i, m in enumerate(pending)}
    _add_up_separate_options(out.loadouts, origin, max_counts)
    _number_options(out.loadouts, {names[i]: m.option for i, m in enumerate(pending)}, option_rows)
    return out, pending, {i for indices, _ in limits for i in indices}


_RESTRICTS = re.compile(
    r"\b(?:cannot|only|both|maximum|instead|unless|not equipped|same model|more than)\b",
    re.IGNORECASE,
)


def combinable(option_rows: list[dict[str, str]]) -> bool:
    """Whether the datasheet's separate options may be combined on one model as far as its
    text says: no option or footnote row says anything of what a model may take together
    ("A model can only take one of these options", "These options cannot be taken on the
    same model", "That model's X cannot be replaced", "Maximum 1 per model", "cannot be
    equipped with more than 3 ranged weapons", ...), the notes that no item is taken twice in
    the unit left aside (they are read as limits)."""
    for row in option_rows:
        text = html_to_text(row["description"])
        if _RESTRICTS.search(_ONCE.sub("", _TWICE.sub("", text))):
            return False
    return True


def _number_options(
    loadouts: dict[str, list[dict[str, object]]],
    option_of: dict[str, int],
    option_rows: list[dict[str, str]],
) -> None:
    """Write each generated loadout entry's option number (``option``; ``needs``, the weapons
    an added item needs kept, only with it) where it can matter: for the model types with
    entries of two options or more, on a datasheet whose text does not restrict which options
    a model takes together (:func:`combinable`). Loadouts made by adding up separate options
    (``-xN``) have none: they are never combined."""
    per_model: dict[str, set[int]] = {}
    for name, entries in loadouts.items():
        if name in option_of:
            for e in entries:
                per_model.setdefault(str(e["model"]), set()).add(option_of[name])
    ok = combinable(option_rows)
    for name, entries in loadouts.items():
        for e in entries:
            needs = e.pop("needs", None)
            if ok and name in option_of and len(per_model[str(e["model"])]) > 1:
                e["option"] = option_of[name]
                if needs:
                    e["needs"] = needs


@dataclass(frozen=True)
class _Made:
    """One loadout of an option, before it is named: the option's item (``alternative``), its
    entries, the option row it comes from, and whether a form read since the first ones (or
    a model type besides the first) made it (``fresh``: named after the others, so that
    reading a new form never renames a loadout)."""

    alternative: tuple[str, ...]
    entries: list[dict[str, object]]
    row: int
    fresh: bool
    suffix: str = ""  # "-x2": the item's loadout for K models in units of N (``once_at``)
    counted: bool = False  # named with its items' numbers ("2-rokkit-launcha": ``each``)
    option: int = 0  # the option's number on the datasheet (from 1, a heading's each counted)


def _names(pending: list[_Made], weapons: list[ImportedWeapon]) -> list[str]:
    """The loadouts' names (:func:`_name`), given first to those not ``fresh``, each group in
    the options' order."""
    taken: dict[str, list[dict[str, object]]] = {}
    names: dict[int, str] = {}
    for rank in (False, True):
        for i, m in enumerate(pending):
            if m.fresh is rank:
                if m.suffix:  # after its item's own loadout (the one before it)
                    base = f"{names[i - 1]}{m.suffix}"
                    name, n = base, 2
                    while name in taken:
                        name, n = f"{base}-{n}", n + 1
                else:
                    name = _name(m.alternative, m.entries, weapons, taken, m.counted)
                names[i] = name
                taken[names[i]] = m.entries
    return [names[i] for i in range(len(pending))]


def _once_footnotes(option_rows: list[dict[str, str]]) -> dict[int, str]:
    """Option row number -> the footnote saying none of its items may be taken twice ("You
    cannot select the same weapon from this list more than once"), as a line to add to its
    text: the footnote is for the nearest option above it that has a footnote mark."""
    out: dict[int, str] = {}
    for i, row in enumerate(option_rows):
        if row.get("button", "").strip() != "*":
            continue
        note = html_to_text(row["description"])
        said = _TWICE.search(note) or _ONCE.search(note)
        if said is None:
            continue
        j = _footnoted(option_rows, i)
        if j is not None:
            out[j] = "\n" + said.group(0).strip()
    return out


def _read_footnote(text: str) -> bool:
    """Whether a footnote row's ``text`` is one the generator reads: no item twice (or more
    than K times) in the unit, a cap on a model's ranged weapons, one Pistol and one other
    ranged weapon, or what one model may take together (its datasheet's options are then
    never combined: :func:`combinable`). A "Designer's Note" or "To a maximum of 1 per 10
    models" is not read."""
    return bool(
        _ONCE.search(text)
        or _TWICE.search(text)
        or _CAP.search(text)
        or _ONE_PISTOL.search(text)
        or _TOGETHER.search(text)
    )


_TOGETHER = re.compile(  # a footnote on what one model takes together: options not combined
    r"same model|at the same time|cannot be replaced|one of these|more than one of these|"
    r"duplicates|cannot be equipped with both|per model",
    re.IGNORECASE,
)


def _footnoted(option_rows: list[dict[str, str]], i: int) -> int | None:
    """The option row that footnote row ``i`` is for: the nearest option above it with a
    footnote mark, else the option just above it (edition 11's footnotes follow their option,
    whose mark the text may have lost); None where no option is above it."""
    options = [j for j in range(i - 1, -1, -1) if option_rows[j].get("button", "").strip() != "*"]
    marked = [j for j in options if "*" in option_rows[j]["description"]]
    found = marked or options
    return found[0] if found else None


_NO_OPTION = re.compile(r"\s*none\.?\s*", re.IGNORECASE)
_ONE_PISTOL = re.compile(
    r"can only be equipped with two ranged weapons if one of them is a pistol \(and it can "
    r"only have one pistol\)",
    re.IGNORECASE,
)


def _marked_by(option_rows: list[dict[str, str]], note: re.Pattern[str]) -> set[int]:
    """The option rows (numbers) that a footnote row saying ``note`` is for
    (:func:`_footnoted`)."""
    out: set[int] = set()
    for i, row in enumerate(option_rows):
        if row.get("button", "").strip() != "*" or not note.search(
            html_to_text(row["description"])
        ):
            continue
        j = _footnoted(option_rows, i)
        if j is not None:
            out.add(j)
    return out


def _option_loadouts(
    option: _Option,
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    max_counts: dict[str, int],
    skip: Callable[[str, list[str]], None],
    row: int,
    fresh: bool,
) -> list[_Made]:
    """The loadouts of one understood option: one for each item (each alternative), and where
    the option is for a number of models that several model types may be (the models carrying
    X: a Sergeant's bolt rifle as well as an Intercessor's), one for each of those types (the
    first type's as before, the others ``fresh``)."""
    if option.each:
        return _each_loadouts(option, models, weapons, max_counts, skip, row, fresh)
    made: list[_Made] = []
    if option.or_old and not _carriers(option, models, weapons):
        option = replace(option, old=option.or_old, or_old=())
    groups: list[list[ImportedModel] | None] = [None]
    if option.count is not None and option.model is None:
        groups = [[m] for m in _carriers(option, models, weapons)] or [None]
    for alternative in option.new:
        for g, group in enumerate(groups):
            entries, why = _entries(option, alternative, models, weapons, max_counts, group)
            if entries is None:
                if g == 0:
                    skip(why, _named_items("\n".join(["", *alternative])))
                continue
            made.append(_Made(alternative, entries, row, fresh or g > 0))
            if option.once_at is not None:  # K of the item in units of N models or more
                least, k = option.once_at
                more = [
                    {**e, "count": k, **({"min_unit_size": least} if least else {})}
                    for e in entries
                ]
                more = [{x: v for x, v in e.items() if x != "per_models"} for e in more]
                made.append(_Made(alternative, more, row, True, f"-x{k}"))
    return made


_EACH_MOST = 64  # the most loadouts one "each of this model's Xs" option makes a model type


def _each_loadouts(
    option: _Option,
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    max_counts: dict[str, int],
    skip: Callable[[str, list[str]], None],
    row: int,
    fresh: bool,
) -> list[_Made]:
    """The loadouts of an option replacing each copy of a weapon on its own ("This model's big
    shootas can each be replaced with one of the following", ``each``): for each model type
    carrying K copies of it, one loadout for every way of replacing 1 to K of them, each by
    one of the items (a Deff Dread's 2 big shootas: 1 or 2 rokkit launchas, a rokkit launcha
    and a skorcha, ...; 14 of 4 items), for any number of the models. Named after the new
    weapons with their numbers (``2-rokkit-launcha``, ``rokkit-launcha-skorcha``). Items
    that are not weapons of the datasheet are left out (each said, as for other options);
    a model type where more than :data:`_EACH_MOST` loadouts would be made gets none."""
    from itertools import combinations_with_replacement

    if len(option.old) != 1:
        skip("not a weapon swap of a known form", _named_items("\n".join(["", *option.old])))
        return []
    usable: list[tuple[str, ...]] = []
    for alternative in option.new:
        if any(resolve_item(item, weapons) is None for item in alternative):
            skip(
                "a new item is not a weapon of the datasheet",
                _named_items("\n".join(["", *alternative])),
            )
        else:
            usable.append(alternative)
    if not usable:
        return []
    (old,) = option.old
    made: list[_Made] = []
    carriers = _carriers(option, models, weapons)
    if not carriers:
        skip(_NO_CARRIER, _named_items("\n".join(["", *option.old])))
    for g, model in enumerate(carriers):
        kit = model.equipped or []
        profiles = [w.name for w in weapons if same_name(w.base, old)]
        profiles = profiles or _misspelt(old, kit, weapons)
        copies = kit.count(profiles[0]) if profiles else 0
        ways = [
            picks
            for picks in combinations_with_replacement(range(len(usable) + 1), copies)
            if any(picks)  # 0: the copy kept
        ]
        if not ways or len(ways) > _EACH_MOST:
            skip(_NO_CARRIER if not ways else _TOO_MANY, _named_items("\n".join(["", old])))
            continue
        for picks in sorted(ways, key=lambda p: (sum(1 for i in p if i), p)):
            taken = Counter(i for i in picks if i)
            new: Counter[str] = Counter()
            for i, times in taken.items():
                for item in usable[i - 1]:
                    n, name = split_count(item)
                    new[name] += n * times
            items = tuple(f"{n} {name}" for name, n in new.items())
            swap = replace(option, each=False, old=(f"{sum(taken.values())} {old}",), new=(items,))
            entries, why = _entries(swap, items, models, weapons, max_counts, [model])
            if entries is None:
                skip(why, _named_items("\n".join(["", *items])))
                continue
            made.append(_Made(items, entries, row, fresh or g > 0, counted=True))
    return made


_TOO_MANY = "more ways of taking it than the generator writes"


def _limit(
    options: list[_Option | _Choice],
    made: list[list[dict[str, object]]],
    max_counts: dict[str, int],
) -> dict[str, object] | None:
    """The ``option_limits`` entry (without its loadouts' names) of an option made into
    several loadouts (``made``: their entries) for a number of models (None: one loadout,
    every model may take it, or no more models of the kind than the option's number): at most
    that many models in all (for every N models, with the prefix)."""
    counted = [o for o in options if isinstance(o, _Option) and o.count is not None]
    if len(made) < 2 or not counted or len(counted) != len(options):
        return None
    first = counted[0]
    limit: dict[str, object] = {"models": first.count}
    if first.per_models:
        limit["per_models"] = first.per_models
    kinds = {str(e["model"]) for entries in made for e in entries}
    if len(kinds) == 1 and first.per_models is None and not first.once:
        kind = kinds.pop()
        if max_counts.get(kind, 0) <= (first.count or 0):
            return None  # no more models of the kind than the option's: no limit to add
    return limit


def _add_up_separate_options(
    loadouts: dict[str, list[dict[str, object]]],
    origin: dict[str, int],
    max_counts: dict[str, int],
) -> None:
    """Add a loadout for each swap that several separate options offer the same models: two
    options each letting "1 Battle Sister's boltgun" become a meltagun let two Battle Sisters
    take one (options are taken together; the items of one option are alternatives). The
    loadout added equips as many models as those options add up to (at most the largest
    size's), named after the first with ``-xN`` (``meltagun-x2``); the loadouts of each
    option stay as they are. Only loadouts of one entry with a count are added up."""
    same: dict[tuple[object, ...], list[str]] = {}
    for name, entries in loadouts.items():
        if len(entries) != 1 or not isinstance(entries[0].get("count"), int):
            continue
        e = entries[0]
        key = tuple(
            (k, tuple(v) if isinstance(v, list) else v)
            for k, v in sorted(e.items())
            if k != "count"
        )
        same.setdefault(key, []).append(name)
    for names in same.values():
        if len({origin[n] for n in names}) < 2:
            continue
        first = loadouts[names[0]][0]
        by_option: dict[int, int] = {}
        for n in names:  # one option's items are alternatives: its largest count
            c = loadouts[n][0]["count"]
            assert isinstance(c, int)
            by_option[origin[n]] = max(by_option.get(origin[n], 0), c)
        total = min(sum(by_option.values()), max_counts.get(str(first["model"]), 0))
        if total <= max(by_option.values()):
            continue
        name, k = f"{names[0]}-x{total}", 2
        while name in loadouts:
            name, k = f"{names[0]}-x{total}-{k}", k + 1
        loadouts[name] = [{**first, "count": total}]


_CHOICE = re.compile(
    r"^(?:(?P<this>this model)|(?P<any>any number of models)|the (?P<model>.+?)) can "
    r"(?:each )?be equipped with up to (?P<n>\d+|two|three|four|five) of the following"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_CAP = re.compile(
    r"cannot be equipped with more than (?P<n>\d+|one|two|three|four|five) ranged weapons?",
    re.IGNORECASE,
)


def ranged_cap(option_rows: list[dict[str, str]]) -> int | None:
    """The most ranged weapons the options' text (a footnote row) lets a model carry ("Each
    model cannot be equipped with more than 3 ranged weapons"), or None where it says none."""
    for row in option_rows:
        m = _CAP.search(html_to_text(row["description"]))
        if m:
            n = m["n"].lower()
            return {"one": 1, **_WORDS}.get(n) or int(n)
    return None


@dataclass(frozen=True)
class _Choice:
    """A "can be equipped with up to N of the following" option: the model it names (None:
    every model of the unit), N, whether duplicates are allowed, and the items (``*``: none
    of that item twice)."""

    model: str | None
    up_to: int
    duplicates: bool
    items: tuple[str, ...]
    sets: tuple[tuple[str, ...], ...] = ()  # "one of the following": one item (its weapons)


def parse_choice(text: str) -> _Choice | None:
    """The "up to N of the following" option in ``text`` (an options row as plain text, list
    items on their own lines), or None when it is not one."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    m = _CHOICE.match(lines[0]) if lines else None
    if m is None or len(lines) < 2:
        return None
    rest = m["rest"].lower()
    duplicates = "can take duplicate" in rest and "cannot" not in rest
    n = m["n"].lower()
    return _Choice(m["model"], _WORDS.get(n) or int(n), duplicates, tuple(lines[1:]))


_ADD = re.compile(
    r"^(?:(?P<this>this model|any number of models|all models in this unit)|"
    r"(?:the )?(?P<model>.+?)) can (?:each )?be equipped with (?P<new>.+)$",
    re.IGNORECASE,
)


_UP_TO_N = re.compile(
    r"up to (?P<n>\d+|two|three|four|five|six) (?:additional )?(?P<item>[^,()]+)", re.IGNORECASE
)


def parse_addition(text: str) -> _Choice | None:
    """An option that adds a weapon to a model without taking one away — "This model / The M /
    Any number of models can [each] be equipped with 1 X [and 1 Y]" or "... with one of the
    following:" and a list — as a choice of that many of the items (up to the most weapons one
    item names), or None for any other text. An option with a condition on the models ("One
    M equipped with ..."), a number of models, or an "up to N" or "either" choice is not one."""
    lines, _ = _lines(text)
    head = lines[0].rstrip(".") if lines else ""
    m = _ADD.match(head)
    if m is None or _PREFIX.match(head):
        return None
    if m["model"] is not None and re.search(r"\d|\bequipped\b|\bone\b|\bup to\b", m["model"], re.I):
        return None
    new = m["new"].strip().rstrip(":*").strip()
    model = None if m["this"] else m["model"]
    if (many := _UP_TO_N.fullmatch(new)) and len(lines) == 1:
        n = many["n"].lower()
        return _Choice(model, _WORDS.get(n) or int(n), True, (many["item"],))
    if re.fullmatch(r"any of the following\W*", new, re.IGNORECASE) and len(lines) > 1:
        listed = tuple(x for i in lines[1:] for x in _items(i))
        return _Choice(model, len(listed), False, listed)
    if re.fullmatch(r"one of the following\W*", new, re.IGNORECASE):
        items = [_items(i) for i in lines[1:]]
    elif re.search(r"following|up to|either|\bor\b|\(", new, re.IGNORECASE) or len(lines) > 1:
        return None
    else:
        items = [_items(new)]
    if not items or not all(items):
        return None
    counts = [sum(split_count(x)[0] for x in i) for i in items]
    flat = tuple(dict.fromkeys(x for i in items for x in i))
    twice = any(split_count(x)[0] > 1 for i in items for x in i)  # "2 heavy bolters"
    several = max(counts) > 1  # an item of more than one weapon: "2 lascannons and ..."
    sets = tuple(items) if len(items) > 1 and several else ()  # one item, all its weapons
    return _Choice(model, max(counts), twice, flat, sets)


def _add_choice(
    choices: dict[str, list[dict[str, object]]],
    choice: _Choice,
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    adds: bool,
    one_pistol: bool = False,
) -> str:
    """Add ``choice`` to the ``choices`` of the models it is for (``adds``: besides the
    weapons they carry; ``one_pistol``: the footnote "only two ranged weapons if one of them is
    a Pistol, and only one Pistol"); the reason it is not generated, or "" when it is."""
    of: list[str] = []
    once: list[str] = []
    for item in choice.items:
        single = item.rstrip().endswith("*") or not choice.duplicates
        names = resolve_item(item.rstrip(" *").strip(), weapons)
        if names is None:
            continue  # a drone, a support system: not a weapon
        of += [n for n in dict.fromkeys(names) if n not in of]
        once += [n for n in dict.fromkeys(names) if single and n not in once]
    if not of:
        return "a new item is not a weapon of the datasheet"
    if choice.model is None:
        targets = models
    else:
        idx = find(choice.model, [m.name for m in models])
        if idx is None:
            idx = find(singular(choice.model), [m.name for m in models])
        if idx is None:
            return "the model it names is not in the unit"
        targets = [models[idx]]
    entry: dict[str, object] = {"up_to": choice.up_to, "of": of}
    if once:
        entry["once"] = once
    if adds:
        entry["adds"] = True
    if one_pistol:
        entry["one_pistol"] = True
    sets = []
    for group in choice.sets:
        found = [resolve_item(item.rstrip(" *").strip(), weapons) for item in group]
        names = [n for f in found if f is not None for n in f]
        if names and names not in sets:
            sets.append(names)
    if len(sets) > 1:
        entry["sets"] = sets
    for m in targets:
        choices.setdefault(m.name, []).append(entry)
    return ""


def _named_items(text: str) -> list[str]:
    """The equipment an option names, for ``calc show`` (names only): its list's items, or
    the item after the last "with", without counts and footnote marks."""
    lines = [line.strip() for line in text.splitlines()]  # the first: the option's head
    lines = [line for line in lines if not (line and _ONCE.fullmatch(line))]  # a footnote's
    if not any(lines):
        return []
    if len([line for line in lines[1:] if line]) > 0:
        raw = [line for line in lines[1:] if line]
    else:
        m = re.search(r".*\bwith (.+?)\.?$", lines[0], re.IGNORECASE)  # after the last "with"
        raw = list(_items(m.group(1))) if m else []
    out = []
    for item in raw:
        name = split_count(item.strip(" *:."))[1].strip(" *:.")
        if name and name not in out and len(name.split()) <= 6:  # a name, not a sentence
            out.append(name)
    return out


def _entries(
    option: _Option,
    new_items: tuple[str, ...],
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    max_counts: dict[str, int],
    group: list[ImportedModel] | None = None,
) -> tuple[list[dict[str, object]] | None, str]:
    """The entries of one alternative of ``option`` (None and the reason where it gives none),
    for the models of ``group`` (None: the option's carriers, :func:`_carriers`)."""
    new: list[str] = []
    for item in new_items:
        names = resolve_item(item, weapons)
        if names is None:
            return None, "a new item is not a weapon of the datasheet"
        new.extend(names)
    carriers = _carriers(option, models, weapons) if group is None else group
    if group is None and option.count is not None and option.model is None:
        carriers = carriers[:1]
    if not carriers:
        return None, _NO_CARRIER
    entries: list[dict[str, object]] = []
    for model in carriers:
        if max_counts.get(model.name, 0) == 0:
            return None, "the model is not in the largest unit size"
        kits = _kits(model, max_counts[model.name], option.old, weapons, _several(option))
        if not kits:
            return None, _NO_CARRIER
        for n, kit, plain in kits if option.count is None else kits[:1]:
            entry: dict[str, object] = {"model": model.name}
            count = 1 if option.once else option.count
            if count is not None or model.by_count:  # models with their own equipment keep it
                count = min(count or n, n)
            entry["count"] = "all" if count is None else count
            entry["equipped"] = (
                _added(kit, option.old, new, weapons)
                if option.adds
                else _swap(kit, option.old, new, weapons)
            )
            if option.min_unit_size:
                entry["min_unit_size"] = option.min_unit_size
            if option.per_models and count is not None:
                largest = sum(max_counts.values())
                if not option.once and count * (largest // option.per_models) <= n:
                    entry["per_models"] = option.per_models
                else:  # no item twice, or a Sergeant (1 a unit): its count, in units of N
                    # models or more (the option's limit says how many for every N models)
                    entry["min_unit_size"] = max(option.min_unit_size or 0, option.per_models)
            if not plain:
                entry["replaces"] = kit
            if option.whole and entry["count"] == "all":
                entry["whole"] = True
            if option.adds and option.old:  # the items it is added beside stay
                entry["needs"] = _kept(kit, option.old, weapons)
            barred = _barred(option.excludes, entry["equipped"], weapons)  # type: ignore[arg-type]
            if barred:
                entry["excludes"] = barred
            entries.append(entry)
    if option.model is None and len({e["model"] for e in entries if e.get("whole")}) > 1:
        for e in entries:  # "All models in this unit": across its model types, not each
            if e.get("whole"):
                e["whole"] = "unit"
    return entries, ""


def _barred(
    excludes: tuple[str, ...], equipped: list[str], weapons: list[ImportedWeapon]
) -> list[str]:
    """The weapon profiles of the items an option's models are "not equipped with" that a
    model taking it must not carry besides its ``equipped`` (non-weapon items left out: a
    daemonic icon)."""
    out: list[str] = []
    for item in excludes:
        names = resolve_item(split_count(item)[1], weapons)
        out += [n for n in names or () if n not in equipped and n not in out]
    return out


def _kits(
    model: ImportedModel,
    largest: int,
    old: tuple[str, ...],
    weapons: list[ImportedWeapon],
    several: bool = False,
) -> list[tuple[int, list[str], bool]]:
    """The default equipments of ``model`` that carry the ``old`` items, with how many models
    have each in the largest size: (count, weapon names, is ``equipped``), ``equipped`` first.
    Where none does, the equipment another option gave it (``model.gained``) that carries
    them: one, or (``several``: an option for any number of the models, each taking it on
    its own equipment, so one entry each says it exactly) each of several (the Furioso
    Dreadnought's meltagun, given beside Blood Talons or beside twin Furioso fists)."""
    special = sum(n for n, *_ in model.by_count)
    kits = [(largest - special, model.equipped or [], True)]
    kits += [(n, names, False) for n, names, _ in model.by_count]
    found = [k for k in kits if k[0] > 0 and _swap(k[1], old, [], weapons) is not None]
    if found or not model.gained:
        return found
    gained = [(largest, list(names), True) for names in model.gained]  # after another option
    gained = [k for k in gained if _swap(k[1], old, [], weapons) is not None]
    return gained if len(gained) == 1 or several else []  # else which is not one entry's to say


def _carriers(
    option: _Option, models: list[ImportedModel], weapons: list[ImportedWeapon]
) -> list[ImportedModel]:
    """The model types the option applies to: the one it names, else those that carry the old
    weapons by default."""
    if option.model is not None:
        name = option.model
        idx = find(name, [m.name for m in models])
        if idx is None:
            idx = find(singular(name), [m.name for m in models])
        return [models[idx]] if idx is not None else []
    return [m for m in models if _kits(m, m.high, option.old, weapons, _several(option))]


def _several(option: _Option) -> bool:
    """Whether ``option`` is for any number of its models, each on its own (no count, not
    all-or-none, no unit size): one entry for each equipment another option gave them, each
    for any number of models, says it exactly (:func:`_kits`). Not "each of this model's Xs"
    (every copy of X: which copies another option's equipment holds is not one entry's to
    say)."""
    every = any(item.lower().startswith("all ") for item in option.old)
    return option.count is None and not option.whole and not option.min_unit_size and not every


def _swap(
    equipped: list[str], old: tuple[str, ...], new: list[str], weapons: list[ImportedWeapon]
) -> list[str] | None:
    """``equipped`` with the old items' weapons taken out and ``new`` put in their place; None
    when an old item is not a weapon the model carries."""
    out = list(equipped)
    at = None
    for item in old:
        every = item.lower().startswith("all ")
        count, text = split_count(item[4:] if every else item)
        profiles = [w.name for w in weapons if same_name(w.base, text)]
        if not profiles:
            profiles = _of_a_kind(text, equipped, weapons) or _misspelt(text, equipped, weapons)
        if not profiles:
            return None
        for profile in profiles:
            have = out.count(profile)
            take = have if every else count
            if have < take or have == 0:
                return None
            for _ in range(take):
                i = out.index(profile)
                at = i if at is None else min(at, i)
                out.pop(i)
    at = len(out) if at is None else min(at, len(out))
    return out[:at] + new + out[at:]


def _misspelt(text: str, equipped: list[str], weapons: list[ImportedWeapon]) -> list[str]:
    """The profiles of the weapon of ``equipped`` that ``text`` names in another spelling (the
    export's "macro-scalpels" for its weapon "Maco-scalpel"; rapidfuzz similarity at the
    equipment's threshold, :func:`~wh40k_calc.importers.names.near_match`, and as many words,
    all but one the same: "laspistol" is not a plasma pistol, nor a "twin phosphor pistols"
    a phosphor pistol), [] where none."""
    carried = list(dict.fromkeys(w.base for w in weapons if w.name in equipped))
    match = near_match(text, carried) if carried else None
    if match is None or not match.how.startswith("similarity"):
        return []
    said, meant = name_words(text), name_words(match.weapon)
    if len(said) != len(meant) or sum(a != b for a, b in zip(said, meant, strict=True)) > 1:
        return []
    return [w.name for w in weapons if w.base == match.weapon]


def _of_a_kind(text: str, equipped: list[str], weapons: list[ImportedWeapon]) -> list[str]:
    """The profiles of the one ranged (melee) weapon of ``equipped`` where an option names
    "ranged weapon" ("melee weapon") and the datasheet has no weapon of that name (a
    Termagant's "ranged weapon": its fleshborer); [] where it names anything else, or where
    the models carry none or several weapons of that kind."""
    kind = {"ranged weapon": False, "melee weapon": True}.get(text.strip().lower())
    if kind is None:
        return []
    groups = {w.group for w in weapons if w.name in equipped and w.melee is kind}
    if len(groups) != 1:
        return []
    return [w.name for w in weapons if w.group in groups and w.name in equipped]


def _added(
    equipped: list[str], old: tuple[str, ...], new: list[str], weapons: list[ImportedWeapon]
) -> list[str]:
    """``equipped`` with ``new`` put after the old items' weapons (which stay: the option adds
    a weapon to the models that carry them)."""
    kept = _kept(equipped, old, weapons)
    at = max((i + 1 for i, name in enumerate(equipped) if name in kept), default=len(equipped))
    return equipped[:at] + new + equipped[at:]


def _kept(equipped: list[str], old: tuple[str, ...], weapons: list[ImportedWeapon]) -> list[str]:
    """The profiles of ``equipped`` that the old items of an addition name (the models it is
    for carry them, and keep them)."""
    named = {w.name for item in old for w in weapons if same_name(w.base, split_count(item)[1])}
    return [name for name in equipped if name in named]


def _name(
    new_items: tuple[str, ...],
    entries: list[dict[str, object]],
    weapons: list[ImportedWeapon],
    taken: dict[str, list[dict[str, object]]],
    counted: bool = False,
) -> str:
    """A loadout's name: its new items' weapon names (``counted``: each with its number where
    more than 1, ``2-rokkit-launcha``), then the model's name and a number where taken."""
    split = [split_count(item) for item in new_items]
    printed = [next((w.base for w in weapons if same_name(w.base, b)), b) for _, b in split]
    if counted:
        printed = [f"{n} {p}" if n > 1 else p for (n, _), p in zip(split, printed, strict=True)]
    name = slug(" ".join(printed)) or "option"
    if name == "default" or name in taken:
        name = f"{slug(str(entries[0]['model']))}-{name}"
    base, n = name, 2
    while name in taken:
        name = f"{base}-{n}"
        n += 1
    return name


def write_options(
    data: dict,
    options: Options,
    models: list[ImportedModel],
    sizes: list[dict[str, object]],
    notes: list[str],
) -> None:
    """Write a datasheet's generated ``options`` into its YAML ``data`` (both importers): the
    named loadouts with those fielding its optional model kinds, the option limits, each
    model's ``choices``, the rank-and-file's ``keeps`` where an optional kind stands in for
    it, and the options not generated (``options_not_generated``; counted by reason in
    ``notes``)."""
    loadouts = options.loadouts | optional_model_loadouts(models, sizes, options.loadouts)
    if loadouts:
        data["loadouts"] = loadouts
    if options.limits:
        data["option_limits"] = options.limits
    keeps = rank_and_file_minimum(models, sizes)
    instead = any(e.get("instead_of") for entries in loadouts.values() for e in entries)
    for row in data["models"]:
        if keeps is not None and instead and row["name"] == keeps[0]:
            row["keeps"] = keeps[1]
        if row["name"] in options.choices:
            row["choices"] = options.choices[row["name"]]
    if options.not_generated:
        data["options_not_generated"] = options.not_generated
    for why, n in sorted(options.skipped.items()):
        notes.append(f"{n} wargear option(s) not generated as loadouts: {why}")

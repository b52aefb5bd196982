"""Fuzzy name matching (rapidfuzz): the filter of ``calc units TEXT`` and every "did you mean".

Names are compared as words: case, accents and punctuation ignored ("Kâhl-Vor" is the words
``kahl vor``). A query **matches** a name when every word of the query is like some word of
the name — rapidfuzz's similarity ratio (0-100, from the edit distance) of at least
:data:`WORD_CUTOFF`, or the start of it (three letters or more): "intercessor squad" matches
Intercessor Squad and Heavy Intercessor Squad but not Bike Squad; "hellblastr" matches
Hellblaster Squad; "leman" every Leman Russ. Matches rank by how alike the words are, then by
the ratio of the whole names (so "boy" lists Boyz before Burna Boyz).

**Suggestions** for a name that is not known (:func:`suggest`; :func:`did_you_mean` words them
for an error message: weapons, loadouts, effects, factions, fields) rank every candidate by its
whole-name ratio, or, where every query word is like one of its words, the mean of that word
score and the ratio (words the query lacks count against a name, so 'shootaz' suggests the
loadout 'shootas' before 'big-shoota'); they keep those of at least :data:`SUGGEST_CUTOFF` and
within :data:`SUGGEST_SPREAD` of the best, closest first: 'lootaz' suggests 'Lootas' alone,
not 'Blood Claws'; 'orcs' suggests the faction 'Orks' (75) alone, not 'Unaligned Forces' (60:
one word like 'forces', the other missing). A suggestion must also be **kin** to the query
(:func:`kin`): a word of each alike at :data:`WORD_CUTOFF`, or at :data:`KIN_CUTOFF` where
they begin with the same two letters (or the query's word the start of the name's), or the
two run together alike at :data:`WORD_CUTOFF`; a whole-name ratio
of 60 alone is no likeness between short names ('nope' and 'Troupe' share three letters of ten,
60, and no word), so a name like nothing gets no suggestion. Units, factions, weapons, loadouts
and effects are suggested by this one rule.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

WORD_CUTOFF = 80  # ratio for one query word to be like a word of the name
SUGGEST_CUTOFF = 60  # score for a candidate to be suggested at all
SUGGEST_SPREAD = 12  # ... and at most this far below the best suggestion (20 let 'orcs'
# suggest 'Unaligned Forces', 15 below 'Orks')
SUGGEST_COUNT = 4
KIN_CUTOFF = 70  # ratio of a word of the query and a word of the name that begin alike (their
# first two letters), for a suggestion: 'orcs' and 'orks', 'bozy' and 'boyz' are 75,
# 'custodes' and 'custodian' 71; 'nope' and 'troupe', 'test' and 'tetras' 60; 'bogus' and
# 'biophagus' (71) or 'custodes' and 'crusaders' (71) begin otherwise: four letters of five
# in order are no likeness. Words that begin otherwise are kin at WORD_CUTOFF ('kustom',
# 'custom': 83)
MAX_QUERY = 200  # characters: a longer query is like no name (the longest are about 60)


_APOSTROPHES = str.maketrans("", "", "'’‘ʼ`")  # inside a word: "Ka'tah" and "Ka’tah" are katah


def words(text: str) -> list[str]:
    """The words of ``text``: lower case, accents dropped, apostrophes left out (one word:
    "Ka'tah", "Ka’tah" and "katah" alike, "Dat's" is "dats"), other punctuation as spaces."""
    from rapidfuzz import utils

    ascii_text = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    return utils.default_process(ascii_text.encode("ascii", "ignore").decode()).split()


def word_score(query: Sequence[str], name: Sequence[str]) -> float | None:
    """How alike two word lists are when every word of ``query`` is like a word of ``name``
    (the mean of each query word's best ratio; a prefix of three letters or more scores 90 to
    100 by how much of the word it is); None when some query word is like none."""
    from rapidfuzz import fuzz

    if not query or not name:
        return None
    best = []
    for q in query:
        top = 0.0
        for w in name:
            s = fuzz.ratio(q, w)
            if len(q) >= 3 and w.startswith(q):
                s = max(s, 90 + 10 * len(q) / len(w))
            top = max(top, s)
        if top < WORD_CUTOFF:
            return None
        best.append(top)
    return sum(best) / len(best)


def whole_ratio(query: Sequence[str], name: Sequence[str]) -> float:
    """rapidfuzz's ratio of the two names written as words."""
    from rapidfuzz import fuzz

    return fuzz.ratio(" ".join(query), " ".join(name))


def rank(query: str, names: Sequence[str]) -> list[tuple[int, float]]:
    """The names ``query`` matches (every word, see the module docstring) as (index, score),
    best first: by word score, then by whole-name ratio, then in the given order; none for a
    query longer than :data:`MAX_QUERY` characters."""
    if len(query) > MAX_QUERY:
        return []
    q = words(query)
    found = []
    for i, name in enumerate(names):
        n = words(name)
        s = word_score(q, n)
        if s is not None:
            found.append((i, s, whole_ratio(q, n)))
    found.sort(key=lambda t: (-t[1], -t[2], t[0]))
    return [(i, s) for i, s, _ in found]


def like(query: str, names: Sequence[str], limit: int | None = None) -> list[str]:
    """The names like ``query``, best first, each once (at most ``limit``): those it matches
    (:func:`rank`: every word of it like a word of the name), or, when it matches none, the
    closest (:func:`suggest`). The one ranking of unit names: ``calc units TEXT`` lists them so
    and ``calc import`` suggests them so."""
    found = list(dict.fromkeys(names[i] for i, _ in rank(query, names)))
    if not found:
        found = suggest(query, names, limit=len(names))
    return found if limit is None else found[:limit]


def kin(query: Sequence[str], name: Sequence[str]) -> bool:
    """Whether the words ``name`` are close enough to the words ``query`` to be suggested
    (see the module docstring): some word of ``query`` is like some word of ``name`` at
    :data:`WORD_CUTOFF` or more, or at :data:`KIN_CUTOFF` where both begin with the same two
    letters, or starts it (three letters or more), or the two, each run
    together without spaces, are alike at :data:`WORD_CUTOFF` or more ('deffdred' and
    'Deff Dread')."""
    from rapidfuzz import fuzz

    for q in query:
        for w in name:
            r = fuzz.ratio(q, w)
            if r >= WORD_CUTOFF or (r >= KIN_CUTOFF and q[:2] == w[:2]):
                return True
            if len(q) >= 3 and w.startswith(q):
                return True
    return fuzz.ratio("".join(query), "".join(name)) >= WORD_CUTOFF


def suggest(query: str, candidates: Sequence[str], limit: int = SUGGEST_COUNT) -> list[str]:
    """The candidates closest to ``query``, closest first (at most ``limit``; none when nothing
    is close: none :func:`kin` to it at :data:`SUGGEST_CUTOFF`). A candidate given twice (or
    two spellings of one name) is listed once. A query longer than :data:`MAX_QUERY`
    characters gets none (the matching would cost seconds)."""
    if len(query) > MAX_QUERY:
        return []
    q = words(query)
    if not q:
        return []
    scored: dict[str, float] = {}
    for c in candidates:
        n = words(c)
        whole = whole_ratio(q, n)
        s = max(whole, ((word_score(q, n) or 0.0) + whole) / 2)
        if s >= SUGGEST_CUTOFF and s > scored.get(c, -1.0) and kin(q, n):
            scored[c] = s
    if not scored:
        return []
    top = max(scored.values())
    order = sorted(scored, key=lambda c: -scored[c])  # stable: ties keep the given order
    return [c for c in order if scored[c] >= top - SUGGEST_SPREAD][:limit]


def closest(query: str, candidates: Sequence[str], cutoff: float = WORD_CUTOFF) -> str | None:
    """The one candidate ``query`` is most like as a whole (:func:`whole_ratio`), when that
    ratio is at least ``cutoff`` (by default :data:`WORD_CUTOFF`, what makes two words alike);
    else None. For a text that is meant to *be* a known name, misspelt ("lethal hitz" ->
    "lethal hits"), where :func:`suggest`'s looser cutoff would also reach names merely
    related to it. Ties keep the given order."""
    q = words(query)
    if not q or len(query) > MAX_QUERY:
        return None
    best, top = None, float(cutoff)
    for c in candidates:
        s = whole_ratio(q, words(c))
        if s > top or (s == top and best is None):
            best, top = c, s
    return best


def shortened(query: str, candidates: Sequence[str]) -> str | None:
    """The one candidate that ``query`` is a short or misspelt form of, word by word (each
    word of ``query`` like a word of it, as :func:`word_score` counts: "dev wounds" for
    "devastating wounds", "sustained" for "sustained hits"), with no more words than it; None
    when no candidate or several are such (then the words do not tell which was meant)."""
    q = words(query)
    if not q or len(query) > MAX_QUERY:
        return None
    found = [c for c in candidates if len(q) <= len(words(c)) and word_score(q, words(c))]
    return found[0] if len(found) == 1 else None


def suggest_names(name: str, candidates: list[str]) -> list[str]:
    """Closest of ``candidates`` to ``name``, closest first (:func:`suggest` with its default
    limit): weapons, loadouts, effects, factions."""
    return suggest(name, candidates)


def did_you_mean(name: str, candidates: list[str]) -> str:
    """``"; did you mean 'A', 'B'?"`` for the closest of ``candidates`` to ``name``, or ``""``."""
    hint = suggest_names(name, candidates)
    return f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""

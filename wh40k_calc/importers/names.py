"""Matching the names the export prints in different places: model names in the unit
composition, statlines and loadout text ("Boyz", "Boy", "BOSS NOB"), and equipment names against
weapon profiles ("master-crafted bolter" printed for the "Master-crafted boltgun" profile).

Exact matches ignore case, punctuation and plural endings. Equipment that matches no weapon
exactly is matched by similarity (rapidfuzz) above a threshold, or by a unique weapon whose
name contains it; the caller records every such match in the file it writes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..datasheet import norm_name

FUZZY_THRESHOLD = 85  # rapidfuzz ratio (0-100) of the normalised names
# words that make another weapon when added to a name ("twin lascannon" is not a lascannon)
_PROFILE_WORDS = frozenset({"twin", "heavy", "light", "assault", "hand", "great", "long"})


# names the same in the singular: the Drukhari engines (one Talos, three Talos), not plurals in s
_SAME_IN_SINGULAR = frozenset({"talos", "cronos"})


def _singular_word(word: str) -> str:
    low = word.lower()
    if len(low) <= 3 or low in _SAME_IN_SINGULAR:
        return word
    if low.endswith("ies"):
        return word[:-3] + "y"
    if low.endswith("men"):
        return word[:-3] + "man"
    if low.endswith("olves"):
        return word[:-3] + "f"
    if low.endswith("ives"):
        return word[:-3] + "fe"
    if re.search(r"(x|ch|sh|ss)es$|oes$", low):
        return word[:-2]
    if re.search(r"[^aeiouz]z$", low):
        return word[:-1]
    if low.endswith("s") and not re.search(r"(ss|us|is)$", low):
        return word[:-1]
    return word


def singular(name: str) -> str:
    """Singular of a plural model name: Boyz, Lootas, Carnifexes, Guardsmen; in names with
    'with', both halves (``Intercessors with plasma incinerators``)."""
    parts = name.split(" with ")
    out = []
    for part in parts:
        head, _, last = part.rpartition(" ")
        last = _singular_word(last)
        out.append(f"{head} {last}" if head else last)
    return " with ".join(out)


@functools.lru_cache(maxsize=65536)
def key(name: str) -> str:
    """Matching key of a model or weapon name: every word singular, case and punctuation
    ignored, a trailing 'model' dropped."""
    name = re.sub(r"\s+models?$", "", name.strip(), flags=re.IGNORECASE)
    return norm_name(" ".join(_singular_word(w) for w in name.split()))


def same_name(a: str, b: str) -> bool:
    """Names equal ignoring case, punctuation and plural endings."""
    return norm_name(a) == norm_name(b) or key(a) == key(b)


def find(name: str, candidates: list[str]) -> int | None:
    """Index of the candidate that is ``name`` (plural tolerant), or else the only candidate
    containing it or contained in it (``Sword Brother`` / ``Primaris Sword Brother``)."""
    k = key(name)
    for i, c in enumerate(candidates):
        if same_name(name, c):
            return i
    near = [i for i, c in enumerate(candidates) if k and key(c) and (k in key(c) or key(c) in k)]
    return near[0] if len(near) == 1 else None


_SMALL_WORDS = frozenset({"of", "the", "and", "with", "in", "on", "a"})
_INNER_SMALL = _SMALL_WORDS | {"an", "at", "by", "for", "from", "to"}


def unit_name(name: str, printed: list[str]) -> str:
    """A datasheet's name in the data's own casing. The export's datasheet table capitalises
    every word ("Captain On Bike", "Shield-captain On Dawneagle Jetbike") where the unit's
    composition prints the name as the publications do ("1 Captain on Bike"): of the
    ``printed`` names, the one equal to ``name`` (case and punctuation aside) is taken. Else a
    name capitalised word by word has the small words inside it lowered ("Rein And Raus" ->
    "Rein and Raus"); any other name is kept as written."""
    name = " ".join(name.split())
    key = norm_name(name)
    for text in printed:
        text = " ".join(text.split())
        if norm_name(text) == key:
            return text
    words = name.split(" ")
    if not all(w[:1].isupper() for w in words if w[:1].isalpha()):
        return name
    return " ".join(
        w.lower() if i and w.lower() in _INNER_SMALL else w for i, w in enumerate(words)
    )


def nice_case(name: str) -> str:
    """``BOSS NOB`` -> ``Boss Nob``; names already in mixed case are kept."""
    name = " ".join(name.split())
    if name != name.upper():
        return name
    words = name.lower().split(" ")
    return " ".join(
        w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)
    )


@dataclass(frozen=True)
class NearMatch:
    """An equipment name matched to a differently spelt weapon name: ``how`` is
    ``similarity N`` (rapidfuzz ratio) or ``contained``."""

    printed: str
    weapon: str
    how: str


def near_match(printed: str, names: list[str]) -> NearMatch | None:
    """The weapon name among ``names`` that ``printed`` means although the spelling differs:
    the most similar one when its similarity reaches :data:`FUZZY_THRESHOLD`, else the only one
    whose words contain all of ``printed``'s words in order (``sniper rifle`` in ``Scout sniper
    rifle``; two words at least, and not by adding a word such as 'twin' that makes another
    weapon), else the only one whose words ``printed``'s contain so (a maker's or a mount's
    name before the weapon's: ``Militarum multi-laser``, ``steed's savage claws``); None
    otherwise."""
    from rapidfuzz import fuzz, process  # lazy: only the importer needs it

    keys = {key(n): n for n in names}
    best = process.extractOne(key(printed), list(keys), scorer=fuzz.ratio)
    if best is not None and best[1] >= FUZZY_THRESHOLD:
        return NearMatch(printed, keys[best[0]], f"similarity {round(best[1])}")
    words = name_words(printed)
    if len(words) < 2:
        return None
    hits = [n for n in names if _contains(name_words(n), words)]
    if len(hits) == 1:
        return NearMatch(printed, hits[0], "contained")
    hits = [n for n in names if len(name_words(n)) >= 2 and _contains(words, name_words(n))]
    return NearMatch(printed, hits[0], "contains it") if len(hits) == 1 else None


def name_words(name: str) -> list[str]:
    """The matching keys (:func:`key`) of a name's words, split at spaces and hyphens:
    "Macro-scalpels" -> ["macro", "scalpel"]."""
    return [key(w) for w in re.split(r"[\s\-]+", name) if key(w)]


def _contains(words: list[str], part: list[str]) -> bool:
    n = len(part)
    for i in range(len(words) - n + 1):
        if words[i : i + n] == part:
            extra = words[:i] + words[i + n :]
            return bool(extra) and not set(extra) & _PROFILE_WORDS
    return False

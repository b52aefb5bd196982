"""The light part of the datasheet layer: its error type and how names are normalised for
matching, importable without the schema, the abilities or numpy (``calc units`` lists names
and files only; ``datasheet.py`` re-exports both)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


class DatasheetError(ValueError):
    """A datasheet file that cannot be used; the message names the file and the field."""


@lru_cache(maxsize=4096)  # the same few hundred names, looked up again and again in a batch
def norm_name(text: str) -> str:
    """Normalise a unit, model or weapon name for matching: case, accents and punctuation
    ignored ("Kâhl" matches "kahl")."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", text.lower())

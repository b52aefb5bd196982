"""The light part of the datasheet layer: its error type and how names are normalised for
matching, importable without the schema, the abilities or numpy (``calc units`` lists names
and files only; ``datasheet.py`` re-exports them), and which editions a file is for."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


class DatasheetError(ValueError):
    """A datasheet file that cannot be used; the message names the file and the field."""


@lru_cache(maxsize=4096)  # the same few hundred names, looked up again and again in a batch
def norm_name(text: str) -> str:
    """Normalise a unit, model or weapon name for matching: case, accents, character width
    and punctuation (everything but letters and digits, spaces included) ignored: "Kâhl"
    matches "kahl", "ｌｏｏｔａｓ" and "l o o t a s" match "Lootas". A letter with no plain
    form (``ж``) is kept, so a name with one is another name, not the same one."""
    if text.isascii():
        return re.sub(r"[^a-z0-9]+", "", text.lower())
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text.casefold() if c.isalnum() and not unicodedata.combining(c))


def file_editions(value: object) -> tuple[str, ...]:
    """The editions a datasheet's ``edition`` field names, as sorted text: None (not given)
    means edition 10; ``11`` -> ("11",); ``[10, 11]`` -> ("10", "11"). Values outside 10 and 11
    are left out (the schema refuses them in a file; the catalog reads the field from a file's
    top before the schema does)."""
    if value is None:
        return ("10",)
    items = value if isinstance(value, list | tuple) else [value]
    found = sorted({str(v) for v in items if str(v) in ("10", "11")})
    return tuple(found) or ("10",)

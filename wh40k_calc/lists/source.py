"""Reading an army list's bytes: a file or standard input (``-``), within a size cap, and the
text in it as everyday pasting leaves it.

A list export is a few kilobytes (a BattleScribe tree with every profile, a few hundred);
anything over :data:`MAX_BYTES` is refused unread, and a ``.rosz`` archive's roster over
:data:`MAX_UNZIPPED` is refused before it is unpacked. Text is UTF-8 (a byte-order mark
ignored; UTF-16 with its byte-order mark too); NUL bytes or bytes that are not text are
"binary data". :func:`clean_text` makes the text every reader sees: Windows and old Mac line
endings as newlines, non-breaking and other odd spaces as spaces, zero-width characters gone,
tabs as four spaces. Curly quotes and bullets are left for the readers (names keep them;
matching ignores punctuation).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from .model import ListError

MAX_BYTES = 4 * 1024 * 1024  # 4 MB: the largest export we read (lists are kilobytes)
MAX_UNZIPPED = 16 * 1024 * 1024  # a .rosz's roster, unpacked
ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"  # a zip archive of no files: its end record alone
_SPACES = "\u00a0\u2007\u202f\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a\u3000"
_GONE = "\u200b\u200c\u200d\u2060\ufeff"
_TABLE = {**{ord(c): " " for c in _SPACES}, **{ord(c): None for c in _GONE}}


@dataclass(frozen=True)
class Source:
    """An input read: ``label`` names it in messages (the path, or "standard input"),
    ``data`` its bytes."""

    label: str
    data: bytes


def read_source(path: str, stdin=None) -> Source:
    """The bytes of ``path`` (``-``: standard input, or ``stdin``, a binary stream).

    Raises:
        ListError: no such file, a folder, unreadable (standard input closed included), or
            larger than MAX_BYTES.
    """
    if path == "-":
        return Source("standard input", _capped(_read_stdin(stdin), "standard input"))
    p = Path(path)
    if p.is_dir():
        raise ListError(f"{path}: is a folder, not an army list file")
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ListError(f"{path}: no such file") from None
    except OSError as exc:
        raise ListError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    return Source(path, _capped(data, path))


def _read_stdin(stdin) -> bytes:
    """Up to MAX_BYTES + 1 bytes of ``stdin`` (None: the process's standard input), which may be
    closed: started with it closed (``<&-``, ``sys.stdin`` is None) or closed since."""
    stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ListError("standard input is closed; give the list's file name, or pipe it in")
    try:
        return stream.read(MAX_BYTES + 1)
    except (OSError, ValueError) as exc:  # EBADF; ValueError: I/O on a closed file
        raise ListError(f"standard input: cannot read it ({_why(exc)})") from None


def _why(exc: Exception) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _capped(data: bytes, label: str) -> bytes:
    if len(data) > MAX_BYTES:
        raise ListError(
            f"{label}: larger than {MAX_BYTES // (1024 * 1024)} MB; not an army list export "
            "(they are a few kilobytes)"
        )
    return data


def decode_text(data: bytes, label: str) -> str:
    """``data`` as text: UTF-8 (a byte-order mark dropped), or UTF-16 with its byte-order
    mark.

    Raises:
        ListError: empty, binary (NUL bytes), or not valid text.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise ListError(f"{label}: not valid UTF-16 text") from None
    if b"\x00" in data:
        raise ListError(f"{label}: binary data, not an army list")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ListError(
            f"{label}: not UTF-8 text (byte {exc.start:,}); binary data or another encoding"
        ) from None
    return text


def clean_text(text: str) -> str:
    """The text as the readers see it: ``\\r\\n`` and ``\\r`` as ``\\n``, odd spaces as spaces,
    zero-width characters removed, tabs as four spaces, trailing spaces stripped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_TABLE)
    return "\n".join(line.replace("\t", "    ").rstrip() for line in text.split("\n"))


def unzip_roster(data: bytes, label: str) -> bytes:
    """The roster file inside a ``.rosz`` archive (its ``.ros`` member, else its only
    member where that is XML: a roster renamed; a text file alone is no roster).

    Raises:
        ListError: not a readable zip archive, no roster in it, two or more ``.ros`` files
            (named), or a roster larger than MAX_UNZIPPED.
    """
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            members = [i for i in zf.infolist() if not i.is_dir()]
            ros = [i for i in members if i.filename.lower().endswith(".ros")]
            chosen = ros[0] if ros else (members[0] if len(members) == 1 else None)
            if not members:
                raise ListError(f"{label}: an empty zip archive: it holds no roster")
            if len(ros) > 1:  # BattleScribe zips one roster: which is the list is unknown
                files = ", ".join(repr(i.filename) for i in ros[:5])
                more = f" and {len(ros) - 5} more" if len(ros) > 5 else ""
                raise ListError(
                    f"{label}: the zip archive holds {len(ros)} rosters (.ros): {files}{more}; "
                    "BattleScribe saves one: give calc army one roster"
                )
            if chosen is not None and not ros and not _xml_start(zf, chosen):
                chosen = None  # its only file is not named .ros and is no XML either
            if chosen is None:
                files = ", ".join(repr(i.filename) for i in members[:5])
                more = f" and {len(members) - 5} more" if len(members) > 5 else ""
                raise ListError(
                    f"{label}: the zip archive holds no roster (.ros): its files are {files}{more}"
                )
            if chosen.file_size > MAX_UNZIPPED:
                raise ListError(
                    f"{label}: its roster {chosen.filename!r} unpacks to more than "
                    f"{MAX_UNZIPPED // (1024 * 1024)} MB; not an army list"
                )
            with zf.open(chosen) as fh:
                out = fh.read(MAX_UNZIPPED + 1)
    except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as exc:
        raise ListError(f"{label}: a damaged or truncated zip archive ({exc})") from None
    if len(out) > MAX_UNZIPPED:
        raise ListError(f"{label}: its roster unpacks to more than 16 MB; not an army list")
    return out


def _xml_start(zf, member) -> bool:
    """Whether ``member`` of the open zip archive ``zf`` begins as XML does (``<`` after a
    byte-order mark and white space): a roster saved under another name."""
    with zf.open(member) as fh:
        head = fh.read(512)
    for bom in (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"):
        head = head.removeprefix(bom)
    head = head.replace(b"\x00", b"").lstrip()
    return head.startswith(b"<")

"""The rules edition a command uses, and where that choice comes from.

A player sets their edition once: ``--edition`` on the command line always wins; otherwise the
``WH40K_CALC_EDITION`` environment variable, otherwise ``edition`` in the config file of the
user data folder (``<user data folder>/config.toml``, read with the standard library's TOML
reader)::

    edition = 11

(a key other than ``edition`` is warned about, with the closest known key) and otherwise
edition 10 (the seed pages' edition). ``calc compare`` puts a batch file's own ``edition``
between the command line and the environment. The output's first line says when the
edition came from the environment or the config file (:attr:`EditionChoice.note`). A value
that is not 10 or 11 is refused with one line that names where it came from.
"""

from __future__ import annotations

import os
from pathlib import Path

from msgspec import Struct

EDITION_VAR = "WH40K_CALC_EDITION"
CONFIG_FILE = "config.toml"
CONFIG_KEYS = ("edition",)  # the keys a config file may have
_WARNED: set[tuple[str, str]] = set()  # (config file, unknown key) already warned about
DEFAULT = "10"
EDITIONS = ("10", "11")


class EditionError(ValueError):
    """An edition setting that is not 10 or 11, or a config file that cannot be read; the
    message is one line naming the variable or the file."""


class EditionSettingError(EditionError):
    """``--edition`` or ``WH40K_CALC_EDITION`` given as something else than 10 or 11: the
    player's own setting, so a usage error (exit code 2, :func:`wh40k_calc.options.exit_code`)
    whatever the data says; a batch file's or the config file's ``edition`` is the data's
    (a plain :class:`EditionError`, exit code 1)."""

    usage = True


class EditionChoice(Struct, frozen=True):
    """The edition to use ("10" or "11") and what set it: "--edition", "WH40K_CALC_EDITION",
    the config file's path, "batch file" or "default"."""

    edition: str
    source: str = "default"

    @property
    def note(self) -> str:
        """What the first line of the output adds: ``(from WH40K_CALC_EDITION)`` or ``(from
        /home/me/.local/share/wh40k-calc/config.toml)``; "" when the command line, a batch
        file or the default chose it."""
        if self.source in ("--edition", "batch file", "default"):
            return ""
        return f"(from {self.source})"


def config_path() -> Path:
    """The config file: ``<user data folder>/config.toml``.

    Raises:
        DatasheetError: ``WH40K_CALC_HOME`` names a file.
    """
    from .catalog import user_home

    return user_home() / CONFIG_FILE


def _value(raw: object, label: str, fix: str = "", error: type[EditionError] = EditionError) -> str:
    """``raw`` (10, 11, "10", " 11 ") as an edition.

    Raises:
        EditionError: (``error``) anything else: "``label``: not an edition (give 10 or
            11``fix``)".
    """
    text = str(raw).strip() if isinstance(raw, int | str) and not isinstance(raw, bool) else None
    if text in EDITIONS:
        return text
    raise error(f"{label}: not an edition (give 10 or 11{fix})")


def from_config(path: Path) -> str | None:
    """The ``edition`` of a config file (None: no file, or no ``edition`` in it).

    Raises:
        EditionError: the file cannot be read, is not TOML, or its edition is not 10 or 11.
    """
    if not path.exists():
        return None
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # a byte-order mark read
    except IsADirectoryError:
        raise EditionError(f"{path}: is a folder, not the config file") from None
    except OSError as exc:
        raise EditionError(f"{path}: cannot read the config file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise EditionError(f"{path}: the config file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise EditionError(f"{path}: not a valid TOML file ({exc})") from None
    _warn_unknown_keys(data, path)
    if "edition" not in data:
        return None
    raw = data["edition"]
    return _value(raw, f"{path}: edition = {toml_text(raw)}")


def toml_text(value: object) -> str:
    """A value read from a TOML file written back as TOML writes it (for messages that echo
    the file): ``true``, ``"11"``, ``11``, ``[10, 11]``; a table or a date as its text."""
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def _warn_unknown_keys(data: dict, path: Path) -> None:
    """A warning on stderr for each key of the config file that is not one of CONFIG_KEYS
    (a misspelt ``editon = 11`` would otherwise be ignored without a word), with the closest
    known key."""
    if all(key in CONFIG_KEYS for key in data):
        return
    from .fuzzy import did_you_mean
    from .terminal import escape_controls, warning

    for key in data:
        if key not in CONFIG_KEYS and (str(path), key) not in _WARNED:
            _WARNED.add((str(path), key))  # once a process: the edition is chosen more than once
            hint = did_you_mean(key, list(CONFIG_KEYS))
            warning(
                escape_controls(
                    f"{path}: unknown key {key!r} (ignored){hint} (the config file's keys: "
                    f"{', '.join(CONFIG_KEYS)})"
                )
            )


def choose(flag: str | None, batch: str | None = None) -> EditionChoice:
    """The edition to use: ``flag`` (``--edition``), else ``batch`` (a batch file's own),
    else ``WH40K_CALC_EDITION``, else the config file's, else 10.

    Raises:
        EditionSettingError: ``flag``, or the environment variable (only read when the command
            line and the batch file do not say), gives something else than 10 or 11.
        EditionError: the batch file's edition or the config file's does.
    """
    if flag:
        return EditionChoice(
            _value(flag, f"--edition {flag}", error=EditionSettingError), "--edition"
        )
    if batch:
        return EditionChoice(_value(batch, f"edition: {batch}"), "batch file")
    env = os.environ.get(EDITION_VAR)
    if env is not None and env.strip():
        value = _value(env, f"{EDITION_VAR}={env.strip()!r}", ", or unset it", EditionSettingError)
        return EditionChoice(value, EDITION_VAR)
    from .sheetnames import DatasheetError

    try:
        path = config_path()
    except DatasheetError as exc:
        raise EditionError(str(exc)) from None
    found = from_config(path)
    if found is not None:
        return EditionChoice(found, str(path))
    return EditionChoice(DEFAULT, "default")


def data_label(datasheets) -> str:
    """``data 912``: the data versions the datasheets come from (``data 912/946`` when they
    differ), "" when none has one (hand-written files, the 10th-edition export)."""
    versions = list(dict.fromkeys(str(ds.data.version) for ds in datasheets if ds.data))
    return f"data {'/'.join(versions)}" if versions else ""


def heading_words(edition: str, note: str, datasheets) -> str:
    """The edition part of an output's first line: `` · edition 11 (from WH40K_CALC_EDITION)
    · data 912 · `` (the note and the data version only where there are some)."""
    data = data_label(datasheets)
    return f" · edition {edition}{' ' + note if note else ''}{' · ' + data if data else ''} · "

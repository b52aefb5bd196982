"""Notes that know what they are about. A note is a sentence under the figures (the text
output, ``--json``'s ``notes`` lists), and stays a ``str`` equal to that sentence; a note
about one command-line option is an :class:`OptionNote` (``--weapon: Deffgun is named 2
times ...``), which also carries the option and the words after it, and a sequence step's
note a :class:`StepNote` (``step 2: ...``), which carries the step and its own note. They
are made where the note is written, so that ``calc compare`` can name a batch file's field
in place of the option (``attacker.weapons: Deffgun is named 2 times ...``) by what a note
is, never by reading its text back (:meth:`wh40k_calc.compare.jobs.Job.field_notes`), as
:class:`~wh40k_calc.selection.OptionError` does for errors.

Both are immutable, pickle as themselves (a batch's outcomes cross processes pickled) and
encode as their text with ``json``; ``msgspec``'s encoders take them with ``enc_hook=str``.
Any ``str`` operation on one (``+``, ``replace``, an f-string) gives a plain ``str``: a note
is structured only as long as it is passed on whole.
"""

from __future__ import annotations

from typing import Any, NoReturn


class _Note(str):
    """A ``str`` that carries fields (``_FIELDS``, in the order its ``__new__`` takes them),
    never changed once made, and pickled as itself: made again from those fields."""

    _FIELDS: tuple[str, ...] = ()

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type, tuple]:
        return (type(self), tuple(getattr(self, f) for f in self._FIELDS))

    @classmethod
    def _made(cls, text: str, *values: Any) -> Any:
        """A note reading ``text`` with ``values`` as its ``_FIELDS``, in order."""
        note = str.__new__(cls, text)
        for name, value in zip(cls._FIELDS, values, strict=True):
            object.__setattr__(note, name, value)
        return note


class OptionNote(_Note):
    """A note about one command-line option: the text ``OPTION: DETAIL`` (``sep`` ``": "``,
    the default: ``--weapon: Deffgun is named 2 times ...``) or ``OPTION DETAIL`` (``sep``
    ``" "``, where the option's value comes first: ``--precision-target bodyguard: no
    effect: ...``, detail ``bodyguard: no effect: ...``).

    Args:
        option: the option as written on the command line (``"--weapon"``).
        detail: the words after the option and ``sep``.
        sep: what joins them (``": "`` or ``" "``).
    """

    option: str
    detail: str
    sep: str
    _FIELDS = ("option", "detail", "sep")

    def __new__(cls, option: str, detail: str, sep: str = ": ") -> OptionNote:
        return cls._made(f"{option}{sep}{detail}", option, detail, sep)

    def named(self, field: str) -> str:
        """The note with ``field`` (a batch file's, standing for the option) in the option's
        place: ``FIELD: DETAIL`` (``attacker.weapons: Deffgun is named 2 times ...``,
        ``precision_target: bodyguard: no effect: ...``)."""
        return f"{field}: {self.detail}"


class StepNote(_Note):
    """A note of one step of a sequence: ``step LABEL: NOTE``, ``label`` the step's number
    (``"2"``) or the repeats that have the note (``"2.2, 3.2"``; ``"2.1"``).

    Args:
        step: the step's place in the list of steps (1-based, ``Step.index``; not named
            ``index``, which is ``str.index``).
        note: the step's own note (an :class:`OptionNote` too, kept as it is).
        label: how the text names the step (None: ``step``).
    """

    step: int
    note: str
    label: str
    _FIELDS = ("step", "note", "label")

    def __new__(cls, step: int, note: str, label: str | None = None) -> StepNote:
        shown = str(step) if label is None else label
        return cls._made(f"step {shown}: {note}", step, note, shown)

    def with_note(self, note: str) -> StepNote:
        """The same step's note with ``note`` as its own."""
        return StepNote(self.step, note, self.label)


def options_note(options: list[str], detail: str) -> str:
    """The note ``OPTION, OPTION: DETAIL`` about the options given: an :class:`OptionNote`
    about one option, a plain ``str`` about several (no one option is its subject)."""
    if len(options) == 1:
        return OptionNote(options[0], detail)
    return f"{', '.join(options)}: {detail}"

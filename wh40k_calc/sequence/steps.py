"""The steps of a sequence: each quoted activation (``"shoot lootas --models 10
--stationary"``) parsed by ``calc shoot``'s own parser (:func:`wh40k_calc.request.parse_request`)
and turned into a Selection against the sequence's one target.

A step takes every attacker-side option of ``calc shoot``/``calc fight`` — the attacker and its
choices, conditions, modifiers (target-side ones such as ``--fnp`` too: they hold for that
activation only) and effects. The target, its options and the engine options are the
sequence's, given once; inside a step they are refused, naming the step and the option.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..options import EngineOptions, TargetOptions
from ..records import replace
from ..request import AttackRequest, RequestError, parse_request, target_choice

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..selection import Selection, UnitChoice

MAX_STEPS = 60  # activations in one sequence, repeats included


@dataclass(frozen=True)
class Step:
    """One activation of a sequence.

    ``repeat`` and ``index`` are 1-based: the pass through the list of steps (``--repeat N``)
    and the step's place in that list; ``selection`` is the activation against the sequence's
    target; ``text`` the step as the player wrote it (for messages and the report).
    """

    repeat: int
    index: int
    selection: Selection
    text: str

    def label(self, repeated: bool) -> str:
        """``"2"``, or ``"3.2"`` (repeat 3, step 2) when the steps are repeated."""
        return f"{self.repeat}.{self.index}" if repeated else str(self.index)


class StepError(ValueError):
    """A step that cannot be parsed or resolved; the message names the step (its number and
    text) and what is wrong. ``usage``: the step's words do not parse (a usage error, exit
    code 2 as on the command line), rather than naming something impossible.
    ``option_detail``: where an option's value is refused (an
    :class:`~wh40k_calc.selection.OptionError`; named weapons that cannot attack as named are
    one, of ``--weapon``), (the option, the reason without it), for a batch file to name the
    field that gave it (a target's ``allocation``; a mapping step's ``attacker.weapons``);
    ``option_index``: for an option given once per entry (``--effect``, ``--add-ability``),
    which entry (the OptionError's ``index``; None: not known)."""

    def __init__(
        self,
        index: int,
        text: str,
        message: str,
        usage: bool = False,
        option_detail: tuple[str, str] | None = None,
        option_index: int | None = None,
    ):
        super().__init__(f"step {index} ({text!r}): {message}")
        self.index = index
        self.reason = message
        self.usage = usage
        self.option_detail = option_detail
        self.option_index = option_index


HELP_WORDS = ("--help", "-h")


def parse_step(index: int, text: str) -> AttackRequest:
    """Parse step ``index`` (1-based) as ``calc shoot``/``calc fight`` parse a command line,
    without a target.

    Raises:
        StepError: (all with ``usage``) the text does not split into words, does not start
            with shoot or fight, asks for --help, has an unknown option or a bad value, or
            gives a target or engine option.
    """
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise StepError(index, text, f"cannot read it ({exc})", usage=True) from None
    if any(w in HELP_WORDS for w in words):
        verb = words[0].lower() if words and words[0].lower() in ("shoot", "fight") else "shoot"
        raise StepError(
            index,
            text,
            f"--help: not inside a step (see calc {verb} --help for a step's options and "
            "calc sequence --help for the steps' rules)",
            usage=True,
        )
    try:
        req = parse_request(words, require_target=False)
    except RequestError as exc:
        raise StepError(index, text, str(exc), usage=True) from None
    refused = req.given_in(TargetOptions, EngineOptions)
    if refused:
        raise StepError(
            index,
            text,
            f"{', '.join(refused)}: not inside a step; the target, its options and "
            "--method/--trials/--seed/--json/--explain/--edition/--datasheets are given once, "
            "for the whole sequence",
            usage=True,
        )
    return req


class TooManyActivationsError(ValueError):
    """More than MAX_STEPS activations in one sequence: wrong whatever the data says (a usage
    error, exit code 2, as a value out of its range)."""

    usage = True


def repeated(steps: list[Step], repeat: int) -> list[Step]:
    """``steps`` (all of repeat 1) followed by ``repeat - 1`` more passes through them.

    Raises:
        TooManyActivationsError: more than MAX_STEPS activations in all.
    """
    if len(steps) * repeat > MAX_STEPS:
        from ..wording import count

        raise TooManyActivationsError(
            f"{count(len(steps), 'step')} × {count(repeat, 'repeat')} is "
            f"{len(steps) * repeat:,} activations; a sequence takes at most {MAX_STEPS}"
        )
    return [replace(s, repeat=i) for i in range(1, repeat + 1) for s in steps]


def build_steps(
    texts: list[str],
    cat: Catalog,
    target: TargetOptions,
    engine: EngineOptions,
    repeat: int = 1,
) -> list[Step]:
    """The steps of ``calc sequence``: each text parsed and given the sequence's target.

    Raises:
        StepError: a step that does not parse, or whose attacker or options are impossible.
        UnknownUnitError, DatasheetError, SelectionError: the target itself is.
        ValueError: no steps, or too many.
    """
    from ..options import exit_code
    from ..selection import SelectionError
    from ..units import build_unit

    if not texts:
        raise ValueError('give at least one step, e.g. "shoot lootas --models 10"')
    choice = target_choice(cat, target)
    build_unit(choice, "target", engine.edition_value)  # a target error is not a step's
    once = []
    for j, text in enumerate(texts, start=1):
        req = parse_step(j, text)
        try:
            sel = step_selection(req, cat, target, engine, choice)
        except (SelectionError, LookupError, ValueError) as exc:
            raise StepError(j, text, str(exc), usage=exit_code(exc) == 2) from None
        once.append(Step(1, j, sel, text))
    return repeated(once, repeat)


def step_selection(
    req: AttackRequest,
    cat: Catalog,
    target: TargetOptions,
    engine: EngineOptions,
    choice: UnitChoice,
) -> Selection:
    """The Selection of one step: its own attacker-side options with the sequence's target
    options (allocation, the wounded model, Stealth) and edition.

    Raises:
        UnknownUnitError, DatasheetError, SelectionError: as
            :meth:`~wh40k_calc.request.AttackRequest.selection`.
    """
    return replace(req, target=target, engine=engine).selection(cat, target=choice)

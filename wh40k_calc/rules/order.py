"""The target's allocation order as the player gives it: ``--allocation`` (which models, or
groups, take attacks first) and ``--precision-target NAME`` (which CHARACTER [PRECISION]
attacks go to first).

CHARACTER models of an Attached unit (and, in edition 11, every CHARACTER group) come after
every other model (Core rules: LEADER: an attack "cannot be allocated to a CHARACTER model in
that unit" while a Bodyguard model remains; 05.03 Allocation Order: "No CHARACTER group can be
earlier in the allocation order than a non-CHARACTER group"), so ``--allocation`` may name them
only at the end, where they order the CHARACTER models among themselves.
"""

from __future__ import annotations

from ..datasheet import norm_name
from ..fuzzy import did_you_mean
from ..selection import OptionError, OptionUsageError, SelectionError
from ..units import ModelGroup


def _matches(g: ModelGroup, name: str) -> bool:
    """A model group answers to its model name (a plural 's' tolerated) and, for an attached
    character, to its datasheet's name."""
    key, own = norm_name(name), norm_name(g.profile.name)
    return own in (key, key + "s") or own + "s" == key or (g.character and g.datasheet.key == key)


def _unknown(
    name: str, groups: list[ModelGroup], unit: str, option: str, what: str = "model"
) -> SelectionError:
    known = list(dict.fromkeys(g.profile.name for g in groups))
    why = f"{unit} has no {what} {name!r}{did_you_mean(name, known)} (models: {', '.join(known)})"
    return OptionError(f"{option}: {why}", option, why)


def reorder(
    names: tuple[str, ...], groups: list[ModelGroup], characters: list[ModelGroup], unit: str
) -> tuple[list[ModelGroup], list[ModelGroup]]:
    """(``groups``, ``characters``) in the order ``names`` gives; models not named follow in
    their own order.

    Raises:
        SelectionError: an unknown model (with the closest names), a model named twice, or a
            CHARACTER model named before another model.
    """
    out: list[ModelGroup] = []
    chars: list[ModelGroup] = []
    for n in names:
        hits = [g for g in groups if _matches(g, n)]
        if hits and chars:
            why = (
                f"{chars[0].profile.name} is a protected CHARACTER model: it comes after every "
                f"other model, so name it last (after {n}; Core rules: LEADER; edition 11: "
                "05.03 Allocation Order)"
            )
            raise OptionError(f"--allocation: {why}", "--allocation", why)
        found = [g for g in characters if _matches(g, n)]
        if not hits and not found:
            raise _unknown(n, groups + characters, unit, "--allocation")
        again = [g for g in hits if g in out] + [g for g in found if g in chars]
        if again:
            name = again[0].profile.name
            said = (
                f"{name} is named twice"
                if norm_name(n) == norm_name(name)
                else (f"{n!r} names {name} again")
            )
            why = f"{said}; name each model once"
            # the same name twice is wrong whatever the data (exit code 2); another name that
            # turns out to be that model, found in the data (1)
            same = norm_name(n) == norm_name(name)
            raise (OptionUsageError if same else OptionError)(
                f"--allocation: {why}", "--allocation", why
            )
        for g in hits:
            if g not in out:
                out.append(g)
        for g in found:
            if g not in chars:
                chars.append(g)
    return (
        out + [g for g in groups if g not in out],
        chars + [g for g in characters if g not in chars],
    )


def precision_named(name: str, characters: list[ModelGroup], unit: str) -> ModelGroup:
    """The CHARACTER model group called ``name`` (``--precision-target NAME``: the CHARACTER
    model [PRECISION] attacks go to; Core rules: [PRECISION]: "a visible CHARACTER model in that
    unit"; 24.28: "one allocation group that contains one of those visible CHARACTER models").
    The listing order of ``characters`` is left as it is, so the unit's structure (and a state
    carried between activations) does not depend on it.

    Raises:
        SelectionError: the target has no CHARACTER model of that name (with the closest).
    """
    hits = [g for g in characters if _matches(g, name)]
    if not hits:
        if not characters:
            raise SelectionError(
                f"--precision-target {name}: {unit} has no CHARACTER model that [PRECISION] "
                "attacks could be allocated to"
            )
        raise _unknown(name, characters, unit, "--precision-target", "CHARACTER model")
    return hits[0]

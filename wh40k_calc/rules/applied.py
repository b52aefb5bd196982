"""Which effects apply to an activation, and to which side: the requested ``--effect`` names
and the unit rules named in the datasheets, each checked against its own conditions."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..effects import Effect, check, lookup
from ..selection import Selection, SelectionError
from ..units import Unit


@dataclass
class Applied:
    """Effects sorted by side after their conditions were checked."""

    attacker: list[Effect] = field(default_factory=list)
    target: list[Effect] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    sides: dict[str, list[str]] = field(default_factory=dict)


_Request = tuple[Effect, str | None, bool]  # an effect, the side asked for, named explicitly


def apply_effects(sel: Selection, attacker: Unit, target: Unit) -> tuple[Applied, list[str]]:
    """Check the requested effects and the unit rules named in the datasheets against their
    own conditions, and sort those that apply by side; list unknown unit rules as not
    modelled.

    Raises:
        SelectionError: an unknown effect, a wrong side prefix, or an explicit effect whose
            conditions are not met (with the reason; with ``sel.skip_unmet`` it is left out).
    """
    requested, not_modelled = _unit_rules(sel, attacker, target)
    requested += [_named_effect(sel, name) for name in sel.effects]
    out = Applied()
    akw, tkw = attacker.keywords, target.keywords
    cond = sel.conditions
    seen: set[tuple[str, str]] = set()
    for e, side, explicit in requested:
        why = check(e, sel.phase, cond.charged, cond.disembarked, akw, tkw)
        if why is not None:
            if explicit and not sel.skip_unmet:
                raise SelectionError(f"--effect {e.id}: {why}")
            continue
        if e.no_attack_effect:
            continue
        applied_any = _apply_sides(out, seen, e, side, akw, tkw)
        if applied_any and e.id not in out.ids:
            out.ids.append(e.id)
        elif not applied_any and explicit and not sel.skip_unmet:
            who = {"attacker": "an attacking unit", "target": "a target unit"}.get(
                side or "", "an attacker or target"
            )
            kws = {"attacker": e.attacker_keywords, "target": e.target_keywords}.get(side or "")
            need = f" with {' or '.join(kws)}" if kws else ""
            raise SelectionError(f"--effect {e.id}: {e.name} needs {who}{need}")
    return out, not_modelled


def _unit_rules(sel: Selection, attacker: Unit, target: Unit) -> tuple[list[_Request], list[str]]:
    """The unit rules named in both units' datasheets (they apply by default, to the side the
    unit is on), and what is not modelled: unknown unit rules, rules of another edition, and
    the abilities each datasheet lists as not modelled for its side. The rules of
    ``sel.without_rules`` (switched off by ``--explain``) are left out."""
    requested: list[_Request] = []
    not_modelled: list[str] = []
    for unit, role in ((attacker, "attacker"), (target, "target")):
        for ds in unit.datasheets:
            for rid in ds.rules:
                try:
                    e = lookup(rid)
                except LookupError:
                    not_modelled.append(f"unit rule {rid!r} of {ds.name}")
                    continue
                if sel.edition not in e.editions:
                    not_modelled.append(f"unit rule {e.name} of {ds.name} (edition 10 only)")
                    continue
                if e.side in (role, "both") and e.id not in sel.without_rules:
                    requested.append((e, role, False))
            mine = ds.not_modelled_attacker if role == "attacker" else ds.not_modelled_target
            not_modelled += [f"{n} ({ds.name} unit ability)" for n in mine]
    return requested, not_modelled


def _named_effect(sel: Selection, name: str) -> _Request:
    """One ``--effect [SIDE:]NAME``: the effect, the side asked for (or None).

    Raises:
        SelectionError: a side other than attacker/target, an unknown name, an effect this
            edition does not have, or a side the effect does not apply to.
    """
    side = None
    if ":" in name:
        side, name = (part.strip() for part in name.split(":", 1))
        if side not in ("attacker", "target"):
            raise SelectionError(f"--effect {side}:{name}: the side must be 'attacker' or 'target'")
    try:
        e = lookup(name)
    except LookupError as exc:
        raise SelectionError(str(exc)) from None
    if sel.edition not in e.editions:
        raise SelectionError(
            f"--effect {e.id}: {e.name} is a {e.kind} whose edition-{sel.edition} text is "
            f"not in our sources (file 004's section 15 does not print it), so it is not "
            f"applied with --edition {sel.edition} (it exists in edition "
            f"{' and '.join(e.editions)})"
        )
    if side == "attacker" and not e.applies_to_attacker:
        raise SelectionError(f"{e.name} applies to the target, not the attacker")
    if side == "target" and not e.applies_to_target:
        raise SelectionError(f"{e.name} applies to the attacker, not the target")
    return e, side, True


def _apply_sides(
    out: Applied,
    seen: set[tuple[str, str]],
    e: Effect,
    side: str | None,
    akw: frozenset[str],
    tkw: frozenset[str],
) -> bool:
    """Add ``e`` to ``out`` on the side asked for (else its own side or sides) where that
    unit has the keywords it needs (and none it excludes), once a side; True if it applies
    on some side (already added counts: a default unit rule, or one named twice)."""
    sides = [side] if side else (["attacker", "target"] if e.side == "both" else [e.side])
    applied_any = False
    for s in sides:
        if (e.id, s) in seen:
            applied_any = True  # already applied (a default unit rule, or named twice)
            continue
        if s == "attacker":
            if e.attacker_keywords and not set(e.attacker_keywords) & akw:
                continue
            out.attacker.append(e)
        else:
            if e.target_keywords and not set(e.target_keywords) & tkw:
                continue
            if set(e.target_excludes) & tkw:
                continue
            out.target.append(e)
        seen.add((e.id, s))
        out.sides.setdefault(e.id, []).append(s)
        applied_any = True
    return applied_any


def variants(applied: Applied) -> list[tuple[str, ...]]:
    """Every combination of the abilities the applied effects let the player choose."""
    choices = [e.choose_melee_ability for e in applied.attacker if e.choose_melee_ability]
    if not choices:
        return []
    return [tuple(combo) for combo in itertools.product(*choices)]

"""Unit abilities of one edition-11 datasheet (game-datacards), read into the same facts as the
10th-edition importer's (:mod:`.unit_abilities`, whose recognisers this reuses).

The datasheet's ``abilities`` hold: ``core`` (names with their parameter: ``Feel No Pain 5+``,
``Stealth``, ``Damaged 5``, ``Leader``, ``Deep Strike``, ...), ``faction`` (army rule names,
their text in the faction file's ``rules``), ``other`` and ``wargear`` (name and text),
``special`` (``Support`` with the units it can join, Bodyguard rules), ``primarch`` (groups of
abilities a player picks from), ``invul`` (``{value, info}``: an invulnerable save and its
note) and ``damaged`` (``{range, description}``).

Edition 11 words some of them its own way, also recognised here: "this unit has a 5+ InSv"
(an invulnerable save), "... against melee attacks" (``invuln_melee``), "This unit has Stealth",
"Psychic Attack and mortal wounds". Core abilities: Feel No Pain X+ (24.12), Stealth (24.33) and
Damaged X (24.39: -1 to the model's Hit rolls while it has X wounds or fewer left). Only names
and numbers are kept, never the text.
"""

from __future__ import annotations

import re
from typing import Any

from .gdc import FactionFile, gdc_name, plain, text
from .names import same_name
from .unit_abilities import (
    _FNP_RE,
    _SUBJECT,
    QUIET_CORE,
    Context,
    UnitAbilities,
    _who,
    choice,
    effect_id,
    give_fights_first,
    norm_rule,
    read_ability,
    read_damaged,
    read_special,
    recognise,
    sentences,
    sides_touched,
)
from .unit_rules import FIGHTS_FIRST

# core abilities that cannot touch one attack sequence (besides those read below)
_QUIET_CORE = QUIET_CORE | {norm_rule(n) for n in ("Support", "Super-heavy Walker")}
_CORE_FNP = re.compile(r"^feel no pain ([2-6])\+$", re.IGNORECASE)
_CORE_DAMAGED = re.compile(r"^damaged (\d+)$", re.IGNORECASE)
_INVULN_11 = re.compile(
    rf"^{_SUBJECT} (?:has|have) an? (?P<x>[2-6])\+ (?:invulnerable save|insv)"
    r"(?: against (?P<kind>ranged|melee) attacks)?$",
    re.IGNORECASE,
)
_STEALTH_11 = re.compile(rf"^{_SUBJECT} (?:has|have) (?:the )?stealth(?: ability)?$", re.I)
_SPECIAL_LISTS = frozenset({"support"})  # special rules that list the units a model can join


def recognise_11(s: str, holders: list[str], everyone: list[str], out: UnitAbilities) -> bool:
    """One sentence in edition 11's wording (module docstring), else as
    :func:`.unit_abilities.recognise` reads it; True when it was applied."""
    if m := _INVULN_11.match(s):
        kind = (m["kind"] or "").lower()
        key = {"ranged": "invuln_ranged", "melee": "invuln_melee"}.get(kind, "invuln")
        out.give(_who(m["who"], holders, everyone), key, int(m["x"]))
        return True
    if m := _STEALTH_11.match(s):
        out.give(_who(m["who"], holders, everyone), "stealth", True)
        return True
    fixed = re.sub(r"\bpsychic attack and\b", "psychic attacks and", s, flags=re.IGNORECASE)
    if fixed != s and _FNP_RE.match(fixed):
        return recognise(fixed, holders, everyone, out)
    return recognise(s, holders, everyone, out)


def _described(items: object) -> list[tuple[str, str]]:
    """(name, plain text) of an ability list's entries (``{name, description}``)."""
    out = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            out.append((gdc_name(item.get("name")), plain(text(item.get("description")))))
    return out


def read_gdc_abilities(
    faction: FactionFile,
    sheet: dict[str, Any],
    everyone: list[str],
    wargear_of: dict[str, list[str]],
    warnings: list[str],
    context: Context | None = None,
) -> tuple[UnitAbilities, list[str]]:
    """Every ability of ``sheet`` (see the module docstring), for a unit whose models are
    ``everyone`` (names), ``wargear_of`` giving the non-weapon wargear each carries by default;
    ``context``: what the effect forms need to know of the datasheet.

    Returns:
        The abilities read, and ``support_of`` (the units a Support character can join, as the
        data names them).
    """
    out = UnitAbilities(context=context or Context())
    abilities = sheet.get("abilities")
    if not isinstance(abilities, dict):
        abilities = {}
    for name in (gdc_name(a.get("name")) for a in abilities.get("core", []) if isinstance(a, dict)):
        _core(name, everyone, out)
    for item in abilities.get("faction", []):
        if isinstance(item, dict):
            _faction(gdc_name(item.get("name")), faction, out)
    for name, body in _described(abilities.get("other")):
        read_ability(name, body, everyone, everyone, out, recognise_11)
    for name, body in _described(abilities.get("wargear")):
        bearers = [m for m in everyone if any(same_name(g, name) for g in wargear_of.get(m, []))]
        if bearers:
            read_ability(name, body, bearers, everyone, out, recognise_11, wargear=True)
        # else: optional wargear, not carried by default
    support: list[str] = []
    for name, body in _described(abilities.get("special")):
        if norm_rule(name) in _SPECIAL_LISTS:
            support += attachable_units(body)
        else:
            read_special(body, out)
    for group in (
        abilities.get("primarch", []) if isinstance(abilities.get("primarch"), list) else []
    ):
        for name, body in _described(group.get("abilities") if isinstance(group, dict) else None):
            choice(name, body, out)  # a choice the player makes: not applied
    damaged = abilities.get("damaged")
    if isinstance(damaged, dict) and text(damaged.get("range")).strip():
        read_damaged(
            gdc_name(damaged.get("range")), plain(text(damaged.get("description"))), out, warnings
        )
    return out, support


def _core(name: str, everyone: list[str], out: UnitAbilities) -> None:
    """A core ability by name: Feel No Pain X+, Stealth and Damaged X are applied, the others
    cannot change an attack."""
    if m := _CORE_FNP.match(name):
        out.give(everyone, "feel_no_pain", int(m.group(1)))
        out.recognised.append(name)
    elif norm_rule(name) == "stealth":
        out.give(everyone, "stealth", True)
        out.recognised.append(name)
    elif norm_rule(name) == norm_rule(FIGHTS_FIRST):  # 24.13: the Fight phase order
        give_fights_first(out)
    elif m := _CORE_DAMAGED.match(name):  # 24.39 Damaged X: -1 to Hit rolls at X or fewer
        out.damaged = {"wounds_left": int(m.group(1)), "hit_mod": -1}
        out.recognised.append(name)
    elif not any(norm_rule(name).startswith(q) for q in _QUIET_CORE):
        out.not_modelled_on({"attacker", "target"}, name)


def _faction(name: str, faction: FactionFile, out: UnitAbilities) -> None:
    """An army rule: nothing when the calculator has it as an effect (``--effect``), else
    listed as not modelled on the sides its text (in the faction file) can touch."""
    if not name or effect_id(name, out.context.edition, ("army",)) is not None:
        return
    body = faction.army_rules.get(name, "")
    touched = set().union(*(sides_touched(p) for p in sentences(body))) if body else set()
    out.not_modelled_on(touched, name)


def attachable_units(body: str) -> list[str]:
    """The units a Leader or Support text lists ("This model can be attached to the following
    units:" then one unit a bullet, in capitals), as printed; [] when it lists none."""
    lines = body.splitlines()
    start = next((i for i, line in enumerate(lines) if "following unit" in line.lower()), None)
    if start is None:
        return []
    out = []
    for line in lines[start + 1 :]:
        words = []
        for word in line.split():
            if word != word.upper() or not any(c.isalpha() for c in word):
                break
            words.append(word)  # a unit name in capitals; a sentence may follow it
        if len(words) == 0 or len(" ".join(words)) < 2:
            break
        out.append(" ".join(words))
    return out

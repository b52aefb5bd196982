"""Datasheet abilities read by :mod:`.ability_forms` as effect records, and the files that hold
them: one per faction, generated with the datasheets (``make datasheets``, ``make
datasheets-11``, ``calc data update``), in the set's ``unit-rules/`` folder
(``datasheets-generated/unit-rules/orks.yaml``), which :mod:`wh40k_calc.effect_files` reads.

A record is ``kind: unit``: ``default: true`` for the unit's own ability (its datasheet names
it in ``rules:``, and it applies whenever its conditions hold), ``default: false`` for an aura
(it affects other units, a player-known condition: ``--effect ID`` names it). Its id is the
ability's name slugged (:func:`rule_id`); where two datasheets of one faction have abilities of
one name that do different things, the later ones (in the data's order) add their unit's name
(``might-is-right``, ``tank-hunter-stygies-destroyer-tank``). The summary is ours,
made from the changes (:func:`summary`), never the ability's text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..effect_coverage import slug
from .ability_forms import Reading

UNIT_RULES = "unit-rules"  # the folder of a datasheet set that holds them
SCHEMA = 1
# conditions that may sit on the record (all of its changes share them); per-attack ones and
# the option stay on the change
_PER_CHANGE = ("strength_above_toughness", "strength_below_toughness")


@dataclass
class Collected:
    """What importing datasheets collects besides their files: the abilities read as
    records (``records``: (name, record body)) and the census of every ability read
    (``census``: :data:`~.unit_abilities.CENSUS` values)."""

    records: list[tuple[str, dict]] = field(default_factory=list)
    census: list[str] = field(default_factory=list)


@dataclass
class Generated:
    """One ability read as a record, before its id is final: the datasheet's faction and
    unit, the ability's ``name``, the record's fields (``body``: every field but ``id``)."""

    faction: str
    unit: str
    name: str
    body: dict[str, Any]

    @property
    def default(self) -> bool:
        """The unit's own ability (else an aura, named with ``--effect``)."""
        return bool(self.body.get("default"))

    @property
    def key(self) -> str:
        """What the record does, for telling apart two abilities of one name."""
        return json.dumps(self.body, sort_keys=True)


_TAGS = re.compile(r"\s*\((?:aura|psychic)(?:,\s*(?:aura|psychic))*\)\s*$", re.IGNORECASE)


ID_LIMIT = 36  # an id fits a narrow listing's line whole (ids are never broken)


def rule_id(name: str) -> str:
    """An ability's id: its name slugged, without the "(Aura)" / "(Psychic)" tags the
    10th-edition data prints after some names (``wisdom-of-the-ancients``), at most
    :data:`ID_LIMIT` characters (cut after a word)."""
    return _short(slug(_TAGS.sub("", name)) or slug(name) or "ability")


def _short(rid: str) -> str:
    """``rid`` cut to :data:`ID_LIMIT` characters at a hyphen (whole words kept)."""
    if len(rid) <= ID_LIMIT:
        return rid
    cut = rid[: ID_LIMIT + 1].rsplit("-", 1)[0]
    return cut if cut else rid[:ID_LIMIT]


def record_body(name: str, reading: Reading) -> dict[str, Any]:
    """The record of an ability's reading (every field but ``id``)."""
    changes = [dict(c) for c in reading.changes]
    aura = reading.aura
    if aura is not None:
        for c in changes:
            who = "attacker" if c["side"] == "attacker" else "target"
            c["when"] = {**c.get("when", {}), f"{who}_all": aura["keywords"]}
    sides = {c["side"] for c in changes}
    side = sides.pop() if len(sides) == 1 else "both"
    common = _common(changes)
    for c in changes:
        for k in common:
            c["when"].pop(k, None)
        if not c["when"]:
            del c["when"]
    words = summary(changes, common, aura)
    if side != "both":
        for c in changes:
            del c["side"]
    body: dict[str, Any] = {
        "name": name,
        "kind": "unit",
        "default": aura is None,
        "summary": words,
        "side": side,
    }
    if common:
        body["when"] = common
    if reading.options:
        body["options"] = dict(sorted(reading.options.items()))
    body["changes"] = [_ordered(c) for c in changes]
    return body


FIGHTS_FIRST = "Fights First"


def fights_first_body() -> dict[str, Any]:
    """The record of a datasheet's own Fights First ability (10th edition: Core rules,
    Fights First; edition 11: 24.13 Fights First): it orders the Fight phase
    (``fights_first``) and changes no attack."""
    return {
        "name": FIGHTS_FIRST,
        "kind": "unit",
        "default": True,
        "summary": "Fights First: the Fight phase order (calc exchange); changes no attack.",
        "side": "attacker",
        "changes": [{"fights_first": True}],
    }


def _common(changes: list[dict[str, Any]]) -> dict[str, Any]:
    """The conditions every change has (the record's ``when``)."""
    whens = [c.get("when", {}) for c in changes]
    out = {}
    for k, v in whens[0].items():
        if k in _PER_CHANGE or k in ("option", "not_option"):
            continue
        if all(w.get(k) == v for w in whens[1:]):
            out[k] = v
    return out


_SCOPE_ORDER = ("side", "weapons", "named", "weapons_with", "bearer_only", "when")


def _ordered(c: dict[str, Any]) -> dict[str, Any]:
    """The change field first, then its scope, in a fixed order (deterministic files)."""
    main = {k: v for k, v in c.items() if k not in _SCOPE_ORDER}
    return {**main, **{k: c[k] for k in _SCOPE_ORDER if k in c}}


# ---------------------------------------------------------------------------------------------
# Summaries, in our words


_ROLLS = {"hit_mod": "Hit", "wound_mod": "Wound"}
_FNP = {
    "fnp": "",
    "fnp_mortal": " against mortal wounds",
    "fnp_psychic": " against Psychic Attacks",
}


def _what(c: dict[str, Any]) -> str:
    """One change in words."""
    field_ = next(k for k in c if k not in _SCOPE_ORDER)
    v = c[field_]
    target = c.get("side") == "target" or field_ in _TARGET_ONLY
    if field_ in _ROLLS:
        roll = _ROLLS[field_]
        return (
            f"{v:+d} to the {roll} rolls of attacks against it"
            if target
            else f"{v:+d} to {roll} rolls"
        )
    if field_ in ("reroll_hits", "reroll_wounds"):
        roll = "Hit" if field_ == "reroll_hits" else "Wound"
        return {"ones": f"re-roll {roll} rolls of 1", "all": f"re-roll {roll} rolls"}.get(
            v, f"re-roll failed {roll} rolls"
        )
    words = {
        "reroll_damage": "re-roll Damage rolls",
        "ability": f"[{str(v).upper()}]",
        "strength": f"+{v} S",
        "attacks": f"+{v} A",
        "damage": f"+{v} D",
        "ap": f"AP improved by {v}",
        "skill": f"BS/WS improved by {v}",
        "crit_hit": f"Critical Hits on {v}+",
        "crit_wound": f"Critical Wounds on {v}+",
        "single_reroll": f"one {str(v).capitalize()} roll re-rolled",
        "invuln": f"a {v}+ invulnerable save",
        "cover": "the Benefit of Cover",
        "stealth": "Stealth",
        "toughness": f"+{v} T",
        "damage_reduction": f"-{v} to the Damage of attacks allocated to it",
        "half_damage": "the Damage of attacks allocated to it halved",
        "ap_worsen": f"the AP of attacks against it worsened by {v}",
        "save_set": f"a {v}+ save",
    }
    if field_ in _FNP:
        return f"Feel No Pain {v}+{_FNP[field_]}"
    if field_ == "ignore_harmful":
        return "ignores modifiers to " + " and ".join(
            {"skill": "BS/WS", "hit": "the Hit roll"}.get(x, x) for x in v
        )
    return words.get(field_, field_.replace("_", " "))


_TARGET_ONLY = frozenset(
    {"invuln", "cover", "stealth", "toughness", "damage_reduction", "half_damage", "ap_worsen"}
    | set(_FNP)
)


def _scope_words(c: dict[str, Any]) -> str:
    parts = []
    target = c.get("side") == "target"
    if c.get("weapons") in ("melee", "ranged"):
        parts.append(f"{c['weapons']} attacks" if target else f"{c['weapons']} weapons")
    if c.get("named"):
        parts.append(", ".join(c["named"]))
    if c.get("weapons_with"):
        parts.append(" or ".join(f"[{w.upper()}]" for w in c["weapons_with"]) + " weapons")
    if c.get("bearer_only"):
        parts.append("its own model" if target else "its own weapons")
    return f" ({'; '.join(parts)})" if parts else ""


_CONDITION_WORDS = {
    "leading": "while it leads a unit",
    "charged": "after a Charge move",
    "stationary": "if it Remained Stationary",
    "half_range": "within half range",
    "objective": "against a target within range of an objective marker",
    "attacker_below_starting_strength": "while below its Starting Strength",
    "attacker_below_half_strength": "while Below Half-strength",
    "strength_above_toughness": "when the attack's S is greater than its T",
}


def _conditions(when: dict[str, Any]) -> list[str]:
    out = []
    for k, v in when.items():
        if k in _CONDITION_WORDS:
            out.append(_CONDITION_WORDS[k] if v else f"not {_CONDITION_WORDS[k]}")
        elif k == "target_keywords":
            out.append("against " + " or ".join(v))
        elif k == "target_not":
            out.append("against units that are not " + " or ".join(v))
        elif k == "target_below_starting_strength":
            out.append(
                "against a target below its Starting Strength"
                if v
                else "against a target at its Starting Strength"
            )
        elif k == "target_below_half_strength":
            out.append(
                "against a target Below Half-strength"
                if v
                else "against a target not Below Half-strength"
            )
        elif k == "led_by":
            out.append("while a " + " or ".join(v) + " leads it")
        elif k == "with_model":
            out.append("while its " + " or ".join(v) + " is in the unit")
        elif k in ("attacker_all", "target_all"):
            out.append("for a friendly " + " ".join(v) + " unit")
        elif k == "option":
            out.append(f"with option {v}")
        elif k == "target_min_models":
            out.append(f"against a unit of {v}+ models")
    return out


def summary(changes: list[dict[str, Any]], common: dict[str, Any], aura) -> str:
    """The record's summary: each change with its scope and own conditions, then the
    conditions every change shares (at most 400 characters)."""
    pieces = []
    for c in changes:
        own = _conditions(c.get("when", {}))
        pieces.append(_what(c) + _scope_words(c) + (f", {', '.join(own)}" if own else ""))
    text = "; ".join(dict.fromkeys(pieces))
    shared = _conditions(common)
    head = "Aura: " if aura is not None else ""
    if aura is not None and aura.get("marked"):
        head = "Against the unit it selected, for friendly units: "
    out = f"{head}{text}" + (f" ({', '.join(shared)})" if shared else "") + "."
    return out if len(out) <= 400 else out[:396].rsplit(" ", 1)[0] + " ..."


# ---------------------------------------------------------------------------------------------
# Ids and files


@dataclass
class RuleSet:
    """The records of a whole generated set, by faction, with their final ids."""

    by_faction: dict[str, dict[str, Generated]] = field(default_factory=dict)

    def add(self, g: Generated) -> str:
        """Take one ability's record; returns its id (the name slugged, or with the unit's
        name where the faction already has a different record of that id)."""
        mine = self.by_faction.setdefault(g.faction, {})
        base = rule_id(g.name)
        rid = base
        if rid in mine and mine[rid].key != g.key:
            rid = _short(f"{base}-{slug(g.unit)}")
            n = 2
            while rid in mine and mine[rid].key != g.key:
                rid = f"{_short(f'{base}-{slug(g.unit)}')[: ID_LIMIT - 3]}-{n}"
                n += 1
        mine.setdefault(rid, g)
        return rid

    def files(
        self, factions: list[str], edition: int, data: dict[str, Any], only: str | None = None
    ) -> dict[str, str]:
        """One file per faction (``unit-rules/<faction>.yaml``, relative path -> text), also
        for a faction without records (a set's file says which factions it gives); ``only``:
        that faction's file alone."""
        from .yaml_out import to_yaml

        out = {}
        every = sorted(set(factions) | set(self.by_faction))
        for faction in [only] if only is not None else every:
            records = self.by_faction.get(faction, {})
            effects = [{"id": rid, **records[rid].body} for rid in sorted(records)]
            doc = {
                "schema": SCHEMA,
                "edition": edition,
                "faction": faction,
                "data": data,
                "effects": effects,
            }
            head = (
                f"The datasheet abilities of {faction} that the importer read as effect "
                f"records (edition {edition}).\nGenerated with the datasheets: do not edit "
                "(regenerating overwrites it). Summaries are our own words."
            )
            out[f"{UNIT_RULES}/{slug(faction)}.yaml"] = to_yaml(doc, header=head)
        return out


def census_line(counts: dict[str, int]) -> str:
    """The census in words: abilities read, attack rules among them, applied."""
    total = sum(counts.values())
    attack = total - counts.get("not-attack", 0)
    applied = counts.get("applied", 0) + counts.get("record", 0)
    return (
        f"{total} datasheet abilities, {attack} attack rules: {applied} applied, "
        f"{counts.get('partly', 0)} partly, {counts.get('aura', 0)} auras (by name), "
        f"{counts.get('not-modelled', 0)} not modelled"
    )


def final_ids(data: dict[str, Any], records: list[tuple[str, dict]], rules: RuleSet) -> None:
    """Give one datasheet's records (name, body) their final ids in ``rules`` and rename
    them in the datasheet's ``rules`` and in the aura lines of its ``not_modelled``."""
    faction, unit = str(data["faction"]), str(data["name"])
    renamed = {}
    for name, body in records:
        first = rule_id(name)
        rid = rules.add(Generated(faction, unit, name, body))
        if rid != first:
            renamed[first] = rid
    if not renamed:
        return
    if "rules" in data:
        data["rules"] = [renamed.get(r, r) for r in data["rules"]]
    for names in (data.get("not_modelled") or {}).values():
        for i, n in enumerate(names):
            for old, new in renamed.items():
                if n.endswith(f"(aura: --effect {old})"):
                    names[i] = n[: -len(old) - 1] + f"{new})"

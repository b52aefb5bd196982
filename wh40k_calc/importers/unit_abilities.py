"""Unit abilities of one datasheet of the export, read into facts the calculator applies.

Recognised as datasheet fields (each sentence matched whole, and only where no condition frames
the ability's text):

* core abilities: Feel No Pain X+ (``feel_no_pain``) and Stealth (``stealth``) on every model;
* "this model / models in this unit / the bearer ... has the Feel No Pain X+ ability against
  mortal wounds / Psychic Attacks" (``feel_no_pain_mortal`` / ``feel_no_pain_psychic``);
* "... has a X+ invulnerable save [against ranged attacks]" from an ability or from wargear the
  model carries by default (``invuln``, ``invuln_ranged_only``);
* "each time an attack is allocated to this model, subtract N from / halve the Damage
  characteristic" (``damage_reduction`` / ``half_damage``);
* "each time a [ranged/melee] attack targets this unit, subtract 1 from the Hit roll / the Wound
  roll [if its Strength is greater than this unit's Toughness]", "worsen the Armour Penetration
  by 1": effects by id in ``rules`` (``effects.py``);
* the damaged profile ("While this model has 1-N wounds remaining ... subtract 1 from the Hit
  roll": ``damaged``) and the Bodyguard rule that allows two Leaders (``leaders_allowed``).

The other sentences, conditional ones included (a Leader's "while this model is leading a
unit", "after a Charge move", auras), are read by :mod:`.ability_forms` into effect records
(``generated``, written by the generators: :mod:`.unit_rules`), which ``rules`` names. Any other
ability whose text can change an attack (a Hit or Wound roll, a characteristic of an attack,
saves, Feel No Pain, mortal wounds, re-rolls, weapon abilities) is listed by name under
``not_modelled``, on the side it acts for (``attacker``: its own attacks; ``target``: attacks
against it). Abilities that cannot touch an attack sequence (Deep Strike, Scouts, Leadership,
Objective Control) are not listed. No ability text is copied: only names and numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..datasheet import norm_rule
from .ability_forms import Holder, Reading
from .ability_forms import read as read_forms
from .export import Export, html_to_text
from .models import ImportedModel
from .names import same_name
from .unit_rules import FIGHTS_FIRST

# the core abilities that cannot touch one attack sequence (no listing needed)
QUIET_CORE = frozenset(
    norm_rule(n)
    for n in (
        "Leader",
        "Deep Strike",
        "Deadly Demise",
        "Infiltrators",
        "Scouts",
        "Lone Operative",
        "Hover",
        "Fights First",
        "Firing Deck",
    )
)
_SKIPPED_TYPES = ("Wargear profile",)  # weapon rules: reported with the weapon's abilities

_SUBJECT = (
    r"(?P<who>this model|this unit|models in this unit|each model in this unit|the bearer|"
    r"models in the bearer[’']s unit|the bearer[’']s unit)"
)
_FNP_RE = re.compile(
    rf"^{_SUBJECT} (?:has|have) (?:the )?feel no pain (?P<x>[2-6])\+(?: ability)?"
    r"(?: against (?P<vs>.+?))?$",
    re.IGNORECASE,
)
_INVULN_RE = re.compile(
    rf"^{_SUBJECT} (?:has|have) an? (?P<x>[2-6])\+ invulnerable save"
    r"(?P<ranged> against ranged attacks)?$",
    re.IGNORECASE,
)
_STEALTH_RE = re.compile(rf"^{_SUBJECT} (?:has|have) the stealth ability$", re.IGNORECASE)
_ALLOCATED = (
    r"^each time an attack is allocated to (?P<who>this model|a model in this unit|the bearer|"
    r"this fortification), "
)
_REDUCE_RE = re.compile(
    _ALLOCATED + r"subtract (?P<n>[1-9]) from (?:the damage characteristic of that attack|that "
    r"attack[’']s damage characteristic)$",
    re.IGNORECASE,
)
_HALVE_RE = re.compile(_ALLOCATED + r"halve the damage characteristic of that attack$", re.I)
_TARGETS = (
    r"^each time an? (?P<kind>ranged |melee )?attack (?:targets|is allocated to) "
    r"(?P<who>this model|this unit|the bearer), "
)
_STRONGER = (
    r"if the strength characteristic of that attack is greater than (?:the toughness "
    r"characteristic of this (?:model|unit)|this (?:model|unit)[’']s toughness characteristic), "
)
_MODIFIERS = (
    (re.compile(_TARGETS + _STRONGER + r"subtract 1 from the wound roll$", re.I), "wound-stronger"),
    (re.compile(_TARGETS + r"subtract 1 from the wound roll$", re.I), "wound"),
    (re.compile(_TARGETS + r"subtract 1 from the hit roll$", re.I), "hit"),
    (
        re.compile(
            _TARGETS + r"subtract 1 from the hit roll and subtract 1 from the wound roll$", re.I
        ),
        "hit+wound",
    ),
    (
        re.compile(
            _TARGETS + r"worsen the armour penetration characteristic of that attack by 1$", re.I
        ),
        "ap",
    ),
)
# effect ids (effects.py) for each recognised modifier and kind of attack
_EFFECT_IDS = {
    "wound-stronger": "unit-wound-minus-1-vs-stronger",
    "wound": "unit-wound-minus-1",
    "hit": "unit-hit-minus-1",
    "ap": "unit-ap-worsen-1",
}
_DAMAGED_HIT_RE = re.compile(r"subtract (?P<n>[1-6]) from the hit roll", re.IGNORECASE)
_BODYGUARD_RE = re.compile(
    r"starting strength of (?P<ss>\d+), you can attach up to two leader units to it instead of "
    r"one(?: \(but only if one of those is an? (?P<kw>[A-Z][A-Z ]*?) model\))?",
    re.IGNORECASE,
)

# a sentence that frames the others (a choice, a condition, a time limit): the text is then
# not applied, whatever its parts say
_CONTEXT = re.compile(
    r"^(?:once per|at the start|at the end|in your|in the|select|choose|while|until|if|when|"
    r"after|each time this (?:model|unit) (?:is|uses|makes a charge))\b|following|:$",
    re.IGNORECASE,
)
_TARGET_CUES = re.compile(
    r"attack (?:targets|is allocated to|is made against) (?:this|that|the bearer|a model|it)|"
    r"invulnerable save|feel no pain|saving throw|benefit of cover|toughness characteristic|"
    r"save characteristic|stealth ability|lost wound|is allocated to",
    re.IGNORECASE,
)
_ATTACKER_CUES = re.compile(
    r"makes? an? (?:ranged |melee |psychic )?attack|makes? (?:ranged |melee )?attacks|"
    r"attacks characteristic|strength characteristic|armour penetration|damage characteristic|"
    r"ballistic skill|weapon skill|hit roll|wound roll|critical (?:hit|wound)|mortal wound|"
    r"re-roll (?:the |a |that )?(?:hit|wound|damage|dice)|number of attacks|"
    r"\[[a-z0-9+ -]+\]|(?:weapons?|attacks?) (?:has|have|gains?) the",
    re.IGNORECASE,
)


# what became of one ability (``UnitAbilities.census``): it changes no attack; it is applied
# by a hand-written record, or whole (fields and records, conditions included), or in part;
# it is an aura, a record named with --effect; it changes an attack and is not modelled
CENSUS = ("not-attack", "record", "applied", "partly", "aura", "not-modelled")


@dataclass(frozen=True)
class Context:
    """What the forms of :mod:`.ability_forms` need to know of the datasheet: whether it is
    a CHARACTER's, its weapons' names (lower case) and every keyword of the data (to split a
    run of keywords); and the edition of the data (``"10"``, ``"11"``), whose hand-written
    effect records an ability's name is looked up in (:func:`effect_id`)."""

    character: bool = False
    weapons: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    edition: str = "10"


@dataclass
class UnitAbilities:
    """What a datasheet's abilities give: per-model fields (by model name), effect ids for
    ``rules``, abilities not modelled by side, the damaged profile, ``leaders_allowed``, the
    names of the abilities recognised (for the file's header), and the abilities read as
    effect records (``generated``: (name, record body), :mod:`.unit_rules`; their ids in
    ``rules`` are the names slugged until the generator makes them final), and what became of
    each ability read (``census``: one of :data:`CENSUS` each, for the figures)."""

    model_fields: dict[str, dict[str, object]] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)
    not_modelled: dict[str, list[str]] = field(
        default_factory=lambda: {"attacker": [], "target": []}
    )
    damaged: dict[str, int] | None = None
    leaders_allowed: list[dict[str, object]] = field(default_factory=list)
    recognised: list[str] = field(default_factory=list)
    generated: list[tuple[str, dict]] = field(default_factory=list)
    context: Context = field(default_factory=Context)
    census: list[str] = field(default_factory=list)

    def give(self, models: list[str], key: str, value: object) -> None:
        """Set ``key`` on each of ``models``: the better value where one is there already
        (lower X+, larger reduction)."""
        for m in models:
            fields = self.model_fields.setdefault(m, {})
            old = fields.get(key)
            if old is None or isinstance(value, bool):
                fields[key] = value
            elif key == "damage_reduction":
                fields[key] = max(int(old), int(value))  # type: ignore[call-overload]
            else:
                fields[key] = min(int(old), int(value))  # type: ignore[call-overload]

    def not_modelled_on(self, sides: set[str], name: str) -> None:
        """List ``name`` as not modelled on each of ``sides``."""
        for side in ("attacker", "target"):
            if side in sides and name not in self.not_modelled[side]:
                self.not_modelled[side].append(name)

    def without_profile(self, missing: list[str], notes: list[str]) -> None:
        """List each item of the loadout that matches no weapon nor wargear (``missing``) as
        not modelled on the attacker's side, so that ``calc show`` and every activation say
        it: ``X (not imported: REASON)``, X as its profile is named, where the importer's
        ``notes`` say its profile was skipped (``weapon 'X' skipped: REASON``, a profile the
        format cannot hold), else ``X (equipment with no profile in the data)``."""
        skipped = [
            m.groups() for n in notes if (m := re.match(r"^weapon '(.+)' skipped: (.+)$", n))
        ]
        for item in dict.fromkeys(missing):
            found = next(((name, r) for name, r in skipped if same_name(item, name)), None)
            if found is None:
                self.not_modelled_on(
                    {"attacker"}, f"{item} (equipment with no profile in the data)"
                )
            else:  # named as its profile is
                self.not_modelled_on({"attacker"}, f"{found[0]} (not imported: {found[1]})")


def effect_id(name: str, edition: str, kinds: tuple[str, ...] = ("unit",)) -> str | None:
    """The id of the hand-written effect record of ``edition`` (``"10"``, ``"11"``) of one of
    ``kinds`` printed as ``name`` ("Dat's Our Loot!"; ``("army",)`` for a faction ability such
    as "Waaagh!"), or None (``effects.unit_rule_id``): each edition's datasheets name their
    own edition's records."""
    from ..effects import unit_rule_id  # lazy: the effect files are read on first use

    return unit_rule_id(name, edition, kinds)


def wargear_names(export: Export, sheet: dict[str, str]) -> list[str]:
    """Names of the datasheet's non-weapon wargear that has an ability (a shield, a medi-pack)."""
    return [
        " ".join(r["name"].split())
        for r in export.rows("Datasheets_abilities.csv", sheet["id"])
        if r["type"] == "Wargear" and r["name"].strip()
    ]


def sentences(text: str) -> list[str]:
    """The sentences of an ability's plain text, without the final full stop."""
    out = []
    for line in text.splitlines():
        for part in re.split(r"(?<=[.!])\s+(?=[A-Z])", line):
            part = part.strip().rstrip(".").strip()
            if part and not part.lower().startswith("designer"):
                out.append(part)
    return out


# edition 11's abbreviations of characteristics ("+1 T", "a 5+ InSv", "improve the AP"); case
# matters ("A" is also a word)
_CHANGE = r"(?:[+-]\d+|improve|worsen|add \d+ to|subtract \d+ from)\s+(?:the\s+)?"
_TARGET_ABBR = re.compile(rf"\bInSv\b|{_CHANGE}(?:T|Sv|W)\b")
_ATTACKER_ABBR = re.compile(rf"{_CHANGE}(?:A|S|AP|D|BS|WS)\b")


def sides_touched(text: str) -> set[str]:
    """Which side's attacks a sentence can change: "target" (attacks against the unit),
    "attacker" (its own attacks), both or neither."""
    out = set()
    if _TARGET_CUES.search(text) or _TARGET_ABBR.search(text):
        out.add("target")
    elif _ATTACKER_CUES.search(text) or _ATTACKER_ABBR.search(text):
        out.add("attacker")
    return out


def read_unit_abilities(
    export: Export,
    sheet: dict[str, str],
    models: list[ImportedModel],
    warnings: list[str],
    context: Context | None = None,
) -> UnitAbilities:
    """Read every ability row of ``sheet`` (see the module docstring); ``context``: what the
    effect forms need to know of the datasheet."""
    out = UnitAbilities(context=context or Context())
    everyone = [m.name for m in models]
    for row in export.rows("Datasheets_abilities.csv", sheet["id"]):
        kind = row["type"]
        if kind in _SKIPPED_TYPES:
            continue
        if row["ability_id"].strip():
            _shared_ability(export, row, everyone, out)
            continue
        name = " ".join(row["name"].split())
        text = html_to_text(row["description"])
        if kind.startswith("Special"):
            read_special(text, out)
            continue
        if kind == "Primarch":  # one of a group the player picks from: not applied
            choice(name, text, out)
            continue
        if kind == "Wargear":
            bearers = [m.name for m in models if any(same_name(g, name) for g in m.wargear)]
            if bearers:
                read_ability(name, text, bearers, everyone, out, wargear=True)
            elif any(same_name(g, name) for m in models for _, _, gs in m.by_count for g in gs):
                _some_bearers(name, text, everyone, out)
            # else: optional wargear, not carried by default
        else:
            read_ability(name, text, everyone, everyone, out)
    _damaged(sheet, out, warnings)
    return out


_SOME = "\0some models"  # the bearers among some models of a kind (equipped_by_count)


def _some_bearers(name: str, text: str, everyone: list[str], out: UnitAbilities) -> None:
    """Wargear that some models of a kind carry (``equipped_by_count``): what it gives the
    whole unit is applied; what it gives the bearers alone (a model field per kind cannot say
    "one of them") is listed as not modelled."""
    scratch = UnitAbilities()
    scratch.context = out.context
    read_ability(name, text, [_SOME], everyone, scratch, wargear=True)
    for model, fields in scratch.model_fields.items():
        for key, value in fields.items():
            if model == _SOME:
                out.not_modelled_on({"target"}, f"{name} (some models only)")
            else:
                out.give([model], key, value)
    out.rules += [r for r in scratch.rules if r not in out.rules]
    out.generated += scratch.generated
    out.recognised += scratch.recognised
    for side, names in scratch.not_modelled.items():
        for n in names:
            out.not_modelled_on({side}, n)


def _shared_ability(
    export: Export, row: dict[str, str], everyone: list[str], out: UnitAbilities
) -> None:
    """A core or faction ability (Abilities.csv), with its parameter."""
    ability = export.abilities.get(row["ability_id"].strip())
    if ability is None:
        return
    name = " ".join(ability["name"].split())
    key = norm_rule(name)
    param = row.get("parameter", "").strip()
    if key == "feel-no-pain":
        m = re.match(r"^([2-6])\+$", param)
        if m:
            out.give(everyone, "feel_no_pain", int(m.group(1)))
            out.recognised.append(f"Feel No Pain {param}")
        return
    if key == "stealth":
        out.give(everyone, "stealth", True)
        out.recognised.append("Stealth")
        return
    if key == norm_rule(FIGHTS_FIRST):
        give_fights_first(out)
        return
    if row["type"] == "Core" or key in QUIET_CORE:
        return
    if effect_id(name, out.context.edition, ("army",)) is not None:
        return  # an army rule the calculator has as an effect (--effect)
    text = html_to_text(ability.get("description", ""))
    touched = set().union(*(sides_touched(s) for s in sentences(text))) if text else set()
    out.not_modelled_on(touched, name)


def read_ability(
    name: str,
    text: str,
    holders: list[str],
    everyone: list[str],
    out: UnitAbilities,
    recognise_one: Callable[[str, list[str], list[str], UnitAbilities], bool] | None = None,
    wargear: bool = False,
) -> None:
    """A datasheet or wargear ability (``wargear``): ``holders`` are the models it is printed
    for (the bearers of a wargear item, or every model). A unit rule the calculator has as a
    hand-written effect (Dat's Our Loot!) goes to ``rules``. Otherwise, where no condition
    frames the text, each sentence :func:`recognise` (or ``recognise_one``: the edition-11
    importer adds its edition's wordings) reads becomes a datasheet field, and the other
    sentences are read by :mod:`.ability_forms` into an effect record (``generated``); what
    neither reads and can change an attack is listed as not modelled."""
    recognise_one = recognise_one or recognise
    rule = effect_id(name, out.context.edition)
    parts = sentences(text)
    if rule is not None:
        if rule not in out.rules:
            out.rules.append(rule)
        out.recognised.append(name)
        out.census.append("record" if any(attack_sentence(p) for p in parts) else "not-attack")
        return
    fielded = []
    if not any(_CONTEXT.search(p) for p in parts):  # no choice or condition frames the text
        fielded = [p for p in parts if recognise_one(p, holders, everyone, out)]
    rest = [p for p in parts if p not in fielded]
    reading = read_forms(rest, _holder(out.context, holders, everyone, wargear))
    if wargear and reading.aura is None:
        _with_bearer(reading, holders, everyone)
    # the sides the sentences not read can change (none for what is no part of an attack:
    # wounds regained, mortal wounds at the end of a move)
    left: set[str] = set().union(
        set(), *(sides_touched(p) for p in reading.left if attack_sentence(p))
    )
    if reading.changes:
        _generated(name, reading, out)
    matched = bool(fielded) or bool(reading.changes)
    if matched:
        out.recognised.append(name)
    out.not_modelled_on(left, f"{name} (partly)" if matched and left else name)
    missed = any(attack_sentence(p) for p in reading.left)
    if reading.aura is not None and reading.changes:
        out.census.append("aura")
    elif matched:
        out.census.append("partly" if missed else "applied")
    else:
        out.census.append("not-modelled" if missed else "not-attack")


# cues that alone do not make a sentence part of an attack sequence: wounds regained, mortal
# wounds outside the Shooting and Fight phases' attacks
_NOT_ATTACK_CUES = re.compile(r"\b(?:regains?|lost wounds?|mortal wounds?)\b", re.IGNORECASE)
_MORTAL_IN_ATTACKS = re.compile(
    r"selected to (?:shoot|fight)|(?:makes?|made|making) (?:an? |its )?(?:ranged |melee )?"
    r"attacks?|attacks? made (?:by|with)|scores? an? (?:hit|wound|critical)|in addition to "
    r"(?:any )?normal damage|has shot|has fought|(?:in|during|at the start of) (?:your |the "
    r"|your opponent's )?(?:shooting|fight) phase",
    re.IGNORECASE,
)


def attack_sentence(s: str) -> bool:
    """Whether a sentence can change an attack sequence, as the census counts attack rules:
    it names part of an attack (:func:`sides_touched`), or inflicts mortal wounds as part of
    shooting or fighting; wounds regained and mortal wounds at other times (a move, the
    Command phase, the end of a phase) are not."""
    if not sides_touched(s):
        return False
    rest = _NOT_ATTACK_CUES.sub("", s)
    if sides_touched(rest):
        return True
    if not re.search(r"mortal wound", s, re.IGNORECASE):
        return False
    end = re.search(r"at the end of|ends? an? (?:normal|charge|advance)|is destroyed", s, re.I)
    return bool(_MORTAL_IN_ATTACKS.search(s)) and not end


def choice(name: str, text: str, out: UnitAbilities) -> None:
    """An ability of a group the player picks one from (a Daemon Prince's allegiance, a
    Primarch's): listed as not modelled where it can change an attack, never applied."""
    parts = sentences(text)
    touched = set().union(set(), *(sides_touched(p) for p in parts))
    out.not_modelled_on(touched, name)
    out.census.append("not-modelled" if any(attack_sentence(p) for p in parts) else "not-attack")


def _with_bearer(reading: Reading, holders: list[str], everyone: list[str]) -> None:
    """Wargear that only some kinds of model carry acts while one of them is in the unit: its
    changes get ``with_model`` (a loadout without the bearer, such as Victrix Honour Guard
    without its Chapter Ancient, has no Banner of Macragge)."""
    kinds = sorted(set(holders))
    if _SOME in kinds or set(kinds) >= set(everyone):
        return
    for c in reading.changes:
        c["when"] = {**c.get("when", {}), "with_model": kinds}


def _holder(ctx: Context, holders: list[str], everyone: list[str], wargear: bool) -> Holder:
    """Who an ability is printed for, as :mod:`.ability_forms` reads "this model": every model
    of the datasheet when it has one kind of model, or for wargear every model carries."""
    whole = len(set(everyone)) == 1 or (wargear and set(holders) == set(everyone))
    return Holder(
        ctx.character, whole and _SOME not in holders, ctx.weapons, ctx.keywords, attack_sentence
    )


def _generated(name: str, reading: Reading, out: UnitAbilities) -> None:
    """An ability read as a record: the unit's own in ``rules``; an aura listed as not
    applied, with the id that names it (``--effect``)."""
    from .unit_rules import record_body, rule_id

    body = record_body(name, reading)
    out.generated.append((name, body))
    rid = rule_id(name)
    if body["default"]:
        if rid not in out.rules:
            out.rules.append(rid)
    else:
        sides = {"attacker", "target"} if body["side"] == "both" else {body["side"]}
        out.not_modelled_on(sides, f"{name} (aura: --effect {rid})")


def give_fights_first(out: UnitAbilities) -> None:
    """The datasheet's own Fights First ability, as its unit rule (``fights_first``)."""
    from .unit_rules import fights_first_body, rule_id

    body = fights_first_body()
    out.generated.append((FIGHTS_FIRST, body))
    rid = rule_id(FIGHTS_FIRST)
    if rid not in out.rules:
        out.rules.append(rid)
    out.recognised.append(FIGHTS_FIRST)


def _who(who: str, holders: list[str], everyone: list[str]) -> list[str]:
    """The models a subject names: the whole unit for 'models in this unit' / 'the bearer's
    unit', else the holders (this model, the bearer)."""
    low = who.lower()
    if "unit" in low or low.startswith("models") or low.startswith("each model"):
        return everyone
    return holders


def recognise(s: str, holders: list[str], everyone: list[str], out: UnitAbilities) -> bool:
    """Apply one sentence if it is one of the recognised forms (module docstring); True when
    it was. ``holders``: the models the ability is printed for; ``everyone``: the unit's."""
    if m := _FNP_RE.match(s):
        who, x, vs = _who(m["who"], holders, everyone), int(m["x"]), (m["vs"] or "").lower()
        if not vs:
            out.give(who, "feel_no_pain", x)
            return True
        parts = set(re.split(r"\s+and\s+|,\s*", vs))
        if not parts <= {"mortal wounds", "psychic attacks"}:
            return False
        for part in parts:
            key = "feel_no_pain_mortal" if part == "mortal wounds" else "feel_no_pain_psychic"
            out.give(who, key, x)
        return True
    if m := _INVULN_RE.match(s):
        who = _who(m["who"], holders, everyone)
        out.give(who, "invuln_ranged" if m["ranged"] else "invuln", int(m["x"]))
        return True
    if m := _STEALTH_RE.match(s):
        out.give(_who(m["who"], holders, everyone), "stealth", True)
        return True
    if m := _REDUCE_RE.match(s):
        out.give(_who(m["who"], holders, everyone), "damage_reduction", int(m["n"]))
        return True
    if m := _HALVE_RE.match(s):
        out.give(_who(m["who"], holders, everyone), "half_damage", True)
        return True
    for regex, what in _MODIFIERS:
        if m := regex.match(s):
            kind = (m["kind"] or "").strip()
            for part in what.split("+"):
                rid = _EFFECT_IDS[part] + (f"-{kind}" if kind else "")
                if rid not in out.rules:
                    out.rules.append(rid)
            return True
    # "... has a 4+ invulnerable save and each time an attack is allocated to ..."
    head, sep, tail = s.partition(" and each time ")
    if sep and _INVULN_RE.match(head):
        return recognise(head, holders, everyone, out) & recognise(
            "Each time " + tail, holders, everyone, out
        )
    return False


def read_special(text: str, out: UnitAbilities) -> None:
    """A special rule's text: the Bodyguard rule allowing two Leaders (``leaders_allowed``)."""
    m = _BODYGUARD_RE.search(text)
    if m:
        rule: dict[str, object] = {"starting_strength": int(m["ss"]), "count": 2}
        if m["kw"]:
            rule["one_with_keyword"] = m["kw"].upper()
        out.leaders_allowed.append(rule)
        out.recognised.append("Bodyguard (two Leaders)")


def _damaged(sheet: dict[str, str], out: UnitAbilities, warnings: list[str]) -> None:
    """The damaged profile: 'While this model has 1-N wounds remaining' (``damaged_w`` is
    '1-N'); see :func:`read_damaged`."""
    rng = sheet.get("damaged_w", "").strip()
    if rng:
        read_damaged(rng, html_to_text(sheet.get("damaged_description", "")), out, warnings)


def read_damaged(rng: str, text: str, out: UnitAbilities, warnings: list[str]) -> None:
    """A damaged profile from its range ('1-5', or '1-5 WOUNDS REMAINING') and plain text: a
    Hit roll modifier is applied (``damaged``), anything else in the text that touches an
    attack is listed as not modelled."""
    m = re.match(r"^\d+\s*:?\s*[-\u2010\u2011\u2013]\s*(\d+)(?:\s+wounds? remaining)?$", rng, re.I)
    if not m:
        warnings.append(f"damaged profile {rng!r} not understood")
        return
    hit = _DAMAGED_HIT_RE.search(text)
    out.damaged = {"wounds_left": int(m.group(1)), "hit_mod": -int(hit["n"]) if hit else 0}
    rest = _DAMAGED_HIT_RE.sub("", text)
    rest = re.sub(r"each time (?:this model|it|this unit) makes an attack,?", "", rest, flags=re.I)
    if _ATTACKER_CUES.search(rest):
        out.not_modelled_on({"attacker"}, f"damaged profile (1-{m.group(1)} wounds remaining)")

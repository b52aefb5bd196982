"""The common forms of datasheet abilities that change the unit's own attacks or the attacks
made against it, read into changes of the effect vocabulary (:mod:`wh40k_calc.effect_schema`).

Model: an ability is a list of sentences (:func:`~.unit_abilities.sentences`). Each sentence
is read whole: zero or more *frames* at its front, then one *form*, and nothing left over; a
sentence with anything else in it is not read (the ability is then listed as not modelled, or
as partly modelled when some of its sentences were read). The families:

* frames: "While this model is leading a unit," (``leading``; also as a heading, "While this
  model is leading a unit:", over the bullets that follow), "While a CAPTAIN model is leading
  this unit," (the unit's keywords), "Each time this unit makes / ends a Charge move, until the
  end of the turn," and "if it made a Charge move this turn" (``charged``), "Each time this unit
  Remains Stationary, until ..." (``stationary``), "While this unit is within range of an
  objective marker" (a player-known option, ``on-objective``), "In addition,";
* the unit's own attacks, "Each time a model in this unit / this model / the bearer makes a
  [ranged / melee / Psychic] attack [with a WEAPON] [that targets ...], EFFECTS": the target
  conditions are keywords (any of; "excluding ..." none of; "that can / cannot FLY"), below its
  Starting Strength, (not) Below Half-strength, at its Starting Strength, within half range,
  within range of an objective marker, and the player-known "closest eligible target" and
  "Battle-shocked"; the effects are ±N to the Hit or Wound roll, re-rolls of Hit, Wound and
  Damage rolls (of 1, or any), +N S / AP / D, BS / WS improved, Critical Hits and Wounds on
  X+, weapon abilities granted, ignoring modifiers to BS / WS and the Hit roll;
* weapons: "[Ranged / Melee] weapons equipped by models in this unit have the [ABILITY]
  ability", "This unit's melee weapons have [ABILITY]", "this model's WEAPON has ...", "Add N
  to the Attacks / Strength / Damage characteristic of [melee] weapons equipped by ...",
  "improve the Armour Penetration / Ballistic Skill / Weapon Skill characteristic of ...";
* defence: "models in this unit have the Feel No Pain X+ ability [against mortal wounds /
  Psychic Attacks]", "... an X+ invulnerable save [against ranged attacks]", "... the Benefit
  of Cover", "... the Stealth ability", "Each time a [ranged / melee] attack targets this unit,
  [if its Strength is greater than this unit's Toughness,] subtract 1 from the Hit / Wound
  roll", "worsen the Armour Penetration of that attack by 1", "Each time an attack is
  allocated to a model in this unit, subtract 1 from / halve the Damage", "add 1 to the
  Toughness characteristic of models in this unit", edition 11's "Melee attacks that target
  this unit have -1 to hit rolls";
* follow-ups: "If the target of that attack is X, EFFECT instead / as well" and "If that target
  is also X, ..." read with the previous sentence's attacks and conditions.

"This model" and "the bearer" are the models the ability is printed for, when that is every
model of its datasheet (one kind of model, or wargear every model carries; else the sentence
is not read): for the unit's own attacks, ``bearer_only`` (the rules layer reads it as the
models of the datasheet that names the rule: a Leader's own weapons, not its Bodyguard's);
for its defence, ``bearer_only`` on a CHARACTER's datasheet (attacks allocated to it; a
whole-roll change only when it is the whole target), the whole unit elsewhere. An ability
that affects other units ("While a friendly ... unit is within 6" of this model, ...") is an
*aura*: read the same way for the units it names (``aura``), never applied by default.

Only numbers, keywords and names are kept, never the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# a keyword phrase as the data prints it: capitals, read case-sensitively inside patterns that
# ignore case elsewhere ("a MONSTER or VEHICLE unit", "ADEPTUS ASTARTES", "T’AU EMPIRE")
_KW = r"(?-i:[A-Z][A-Z’'\-]*(?: [A-Z][A-Z’'\-]*)*)"
_KWS = rf"{_KW}(?:(?:, | or | and |/|, or ){_KW})*"
_N = r"(?P<n>[1-6])"
_APOS = "[’']"

# who the sentence is about: the unit, or the models the ability is printed for
_UNIT_SUBJECT = (
    r"(?:a model in|models in|each model in) (?:this|that|the bearer[’']s|this model[’']s) unit"
    r"|this unit|that unit|the bearer[’']s unit|this model[’']s unit"
)
_MODEL_SUBJECT = r"this model|the bearer|this PSYKER"


class NotRead(Exception):
    """A sentence (or part of one) that is none of the forms."""


@dataclass
class Holder:
    """Who an ability is printed for: ``character`` (the datasheet is a CHARACTER's),
    ``whole`` ("this model" / "the bearer" are every model of the unit: one kind of model, or
    wargear every model carries), ``weapons`` (the datasheet's weapon names, lower case),
    ``keywords`` (every keyword of the data, to split "ADEPTUS ASTARTES INFANTRY")."""

    character: bool = False
    whole: bool = True
    weapons: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()


@dataclass
class Scope:
    """What a sentence's changes are about, for a follow-up sentence to inherit: ``side``,
    the scope fields of its changes and its conditions."""

    side: str
    scope: dict[str, Any]
    when: dict[str, Any]
    aura: dict[str, Any] | None = None


@dataclass
class Reading:
    """What an ability's sentences gave: ``changes`` (vocabulary dicts, each with its own
    ``side`` and ``when``), ``options`` (player-known conditions the changes name),
    ``aura`` (the record-level conditions of the units an aura affects; None: the unit's
    own ability), ``read`` and ``left`` (the sentences read, and those that were not)."""

    changes: list[dict[str, Any]] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    aura: dict[str, Any] | None = None
    read: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


OPTIONS = {
    "on-objective": "this unit is within range of an objective marker",
    "closest-target": "the target is the closest eligible target",
    "battle-shocked": "the target is Battle-shocked",
}


def clean(s: str) -> str:
    """One sentence for matching: single spaces, straight quotes and hyphens, no final stop."""
    s = s.replace("\u2011", "-").replace("\u2013", "-").replace("\u201d", '"')
    s = s.replace("’", "'").replace("lf the", "If the")  # a typo of the data ("lf the target")
    return " ".join(s.split()).rstrip(".").strip()


def read(parts: list[str], holder: Holder) -> Reading:
    """Read the sentences ``parts`` of one ability (module docstring)."""
    out = Reading()
    heading: dict[str, Any] | None = None
    last: Scope | None = None
    for raw in parts:
        s = clean(raw)
        h = _heading(s, holder)
        if h is not None:
            heading = h
            out.read.append(raw)
            continue
        try:
            changes, last = _sentence(s, dict(heading or {}), last, holder, out)
        except NotRead:
            out.left.append(raw)
            last = None
            continue
        out.changes += changes
        out.read.append(raw)
    first = next((i for i, x in enumerate(parts) if x in out.read), len(parts))
    before = [x for x in out.left if parts.index(x) < first]
    heading = any(_HEADING.search(clean(x)) for x in out.left)
    if out.changes and (heading or any(_FRAMING.search(clean(x)) for x in before)):
        # a choice, a time limit or a condition we did not read frames the others
        out.left = list(parts)
        out.read, out.changes, out.options, out.aura = [], [], {}, None
    return out


_HEADING = re.compile(r"following|:$", re.IGNORECASE)
_FRAMING = re.compile(
    r"^(?:once per|at the start|at the end|in your|in the|select|choose|while|until|if|when|"
    r"after|each time this (?:model|unit)(?:'s unit)? (?:is selected|uses|has shot|shoots|is "
    r"set up|destroys))\b|following|:$",
    re.IGNORECASE,
)


# ---------------------------------------------------------------------------------------------
# Frames


def _heading(s: str, holder: Holder) -> dict[str, Any] | None:
    """A heading over the bullets that follow ("While this model is leading a unit:")."""
    if not s.endswith(":"):
        return None
    frames, rest = _frames(s[:-1].strip() + ",", holder)
    return frames if frames and not rest else None


_LEADING = re.compile(
    r"^while (?:this model|the bearer|this unit) is leading a unit,\s*", re.IGNORECASE
)
_LED_BY = re.compile(rf"^while an? (?P<kws>{_KWS}) model is leading this unit,\s*", re.IGNORECASE)
_CHARGE = re.compile(
    r"^each time (?:this model|this unit|this model's unit|a model in this unit) "
    r"(?:makes|ends) a charge move, until the end of (?:the|that) turn,\s*",
    re.IGNORECASE,
)
_STATIONARY = re.compile(
    r"^each time this (?:model|unit) remains stationary, until the (?:start of your next "
    r"movement phase|end of the turn),\s*",
    re.IGNORECASE,
)
_ON_OBJECTIVE = re.compile(
    r"^while this (?:model|unit) is within range of (?:an|one or more) objective markers?"
    r"(?: you control)?,\s*",
    re.IGNORECASE,
)
_SHOOTS_STATIONARY = re.compile(
    r"^each time this (?:model|unit) shoots in your shooting phase, provided it remained "
    r"stationary this turn,\s*",
    re.IGNORECASE,
)
_IN_ADDITION = re.compile(r"^in addition,\s*", re.IGNORECASE)
_AURA = re.compile(
    rf"^while (?:a|one or more) friendly (?P<kws>{_KWS}) (?P<what>units?|models?) (?:is|are) "
    r"(?:wholly )?within (?P<range>\d+)\" of (?:this model|this unit|the bearer),\s*",
    re.IGNORECASE,
)


def _frames(s: str, holder: Holder) -> tuple[dict[str, Any], str]:
    """The frames at the front of ``s`` (as conditions: ``leading``, ``charged``, keywords,
    an option, an aura's ``aura``) and the rest of the sentence."""
    out: dict[str, Any] = {}
    while True:
        if m := _LEADING.match(s):
            out["leading"] = True
        elif m := _LED_BY.match(s):
            out["led_by"] = _keywords(m["kws"], holder)
        elif m := _CHARGE.match(s):
            out["charged"] = True
        elif m := _STATIONARY.match(s) or _SHOOTS_STATIONARY.match(s):
            out["stationary"] = True
        elif m := _ON_OBJECTIVE.match(s):
            out["option"] = "on-objective"
        elif m := _IN_ADDITION.match(s):
            pass
        elif m := _AURA.match(s):
            out["aura"] = {"keywords": _keywords(m["kws"], holder, split=True), "what": m["what"]}
        else:
            return out, s
        s = s[m.end() :]


# ---------------------------------------------------------------------------------------------
# One sentence


def _sentence(
    s: str, frames: dict[str, Any], last: Scope | None, holder: Holder, out: Reading
) -> tuple[list[dict[str, Any]], Scope]:
    """The changes of one sentence and its scope (for a follow-up).

    Raises:
        NotRead: the sentence is none of the forms.
    """
    more, s = _frames(s, holder)
    frames.update(more)
    aura = frames.pop("aura", None)
    if aura is not None:
        if out.aura is not None and out.aura != aura:
            raise NotRead(s)
        out.aura = aura
    follow = _follow_up(s, last, holder)
    if follow is not None:
        changes, scope = follow
    else:
        led = bool(frames.get("leading")) or aura is not None
        changes, scope = _form(s, Where(holder, aura is not None, led))
    for key in ("leading", "charged", "stationary"):
        if frames.get(key):
            scope.when[key] = True
    if "led_by" in frames:
        scope.when["led_by"] = frames["led_by"]
    if "option" in frames:
        scope.when["option"] = frames["option"]
    for c in changes:
        c["when"] = {**scope.when, **c.get("when", {})}
        for key in ("option", "not_option"):
            if key in c["when"]:
                out.options[c["when"][key]] = OPTIONS[c["when"][key]]
    return changes, scope


@dataclass(frozen=True)
class Where:
    """Where a sentence is read: for whom (``holder``), in an aura (its subject is "that
    unit"), under a frame that makes "that unit" the unit led (``led``)."""

    holder: Holder
    aura: bool = False
    led: bool = False


def _form(s: str, where: Where) -> tuple[list[dict[str, Any]], Scope]:
    for form in (_attack_form, _weapon_form, _characteristic_form, _defence_form):
        got = form(s, where)
        if got is not None:
            return got
    raise NotRead(s)


def _subject(who: str, where: Where) -> dict[str, Any]:
    """The scope a subject gives (``bearer_only`` for a CHARACTER's own models).

    Raises:
        NotRead: "this model" where that is not a well-defined set of models; an aura's
            subject that is not "that unit"; "that unit" outside a frame that says which.
    """
    holder = where.holder
    low = who.lower()
    if where.aura:
        if "that unit" in low or low in ("that model", "those models"):
            return {}
        raise NotRead(who)
    if "that unit" in low or low == "that model":
        if where.led and low != "that model":
            return {}
        raise NotRead(who)
    if low.startswith(("a model in", "models in", "each model in")) or low.endswith("unit"):
        return {}
    if holder.whole:  # the models of the datasheet that names the rule
        return {"bearer_only": True}
    raise NotRead(who)


# --- the unit's own attacks ------------------------------------------------------------------

_ATTACK = re.compile(
    rf"^each time (?P<who>{_UNIT_SUBJECT}|{_MODEL_SUBJECT}|that model|a model in that unit) "
    r"makes (?:an? )?(?P<kind>ranged |melee |psychic )?attacks?"
    r"(?: with (?:its |a |an |their |that model's |this model's )?(?P<wpn>[^,]+?))?"
    r"(?: (?:that targets|against) (?P<tgt>[^,]+?))?,\s*(?P<rest>.+)$",
    re.IGNORECASE,
)
_ATTACK_MADE_BY = re.compile(
    rf"^each time an? (?P<kind>ranged |melee )?attack made by (?P<who>{_MODEL_SUBJECT}|"
    rf"a model in this unit) (?:targets|is allocated to) (?P<tgt>[^,]+?),\s*(?P<rest>.+)$",
    re.IGNORECASE,
)
_TARGETS_WITH = re.compile(
    rf"^each time (?P<who>{_UNIT_SUBJECT}|{_MODEL_SUBJECT}) targets (?P<tgt>[^,]+?) with an? "
    r"(?P<kind>ranged |melee )?attack,\s*(?P<rest>.+)$",
    re.IGNORECASE,
)


def _attack_form(s: str, where: Where):
    holder = where.holder
    m = _ATTACK.match(s) or _ATTACK_MADE_BY.match(s) or _TARGETS_WITH.match(s)
    if not m:
        return None
    scope = _subject(m["who"], where)
    kind = (m["kind"] or "").strip().lower()
    if kind in ("ranged", "melee"):
        scope["weapons"] = kind
    elif kind == "psychic":
        scope["weapons_with"] = ["psychic"]
    wpn = m.groupdict().get("wpn")
    if wpn:
        scope.update(_weapon_scope(wpn, holder))
    when: dict[str, Any] = {}
    if m["tgt"]:
        when.update(_target(m["tgt"], holder))
    changes = _effects(m["rest"], holder)
    for c in changes:
        c.update(scope)
        c["side"] = "attacker"
    return changes, Scope("attacker", scope, when)


def _weapon_scope(text: str, holder: Holder) -> dict[str, Any]:
    """``with a Torrent or Melta weapon`` (by ability) or ``with its twin las-talon`` (named).

    Raises:
        NotRead: a weapon the datasheet does not have.
    """
    low = text.lower().strip()
    m = re.match(r"^(?P<abs>[a-z]+(?: or [a-z]+)*) weapons?$", low)
    known = {"torrent", "melta", "blast", "pistol", "heavy", "assault", "psychic"}
    if m and set(m["abs"].split(" or ")) <= known:
        return {"weapons_with": m["abs"].split(" or ")}
    name = re.sub(r"^(?:its|a|an|their|the) ", "", low)
    weapons = {clean(n).lower(): n for n in holder.weapons}
    names = [n for k, n in weapons.items() if k == name or k.startswith(name + " - ")]
    if not names and name.endswith("s"):
        names = [n for k, n in weapons.items() if k == name[:-1]]
    if not names:
        raise NotRead(text)
    base = sorted({re.split(" [-–] ", n)[0] for n in names})
    return {"named": base}


# --- what the attacks target -----------------------------------------------------------------

_PLURALS = {"MONSTERS": "MONSTER", "VEHICLES": "VEHICLE", "CHARACTERS": "CHARACTER"}


def _keywords(text: str, holder: Holder, split: bool = False) -> list[str]:
    """The keywords of a phrase ("MONSTER or VEHICLE", "MONSTERS and VEHICLES"), plurals
    made singular; ``split``: a run of keywords naming one unit ("ADEPTUS ASTARTES
    INFANTRY") split into the data's keywords (all of them apply).

    Raises:
        NotRead: a run that is not made of the data's keywords.
    """
    parts = [p.strip() for p in re.split(r", or |, | or | and |/", text) if p.strip()]
    out = []
    for p in parts:
        p = p.replace("’", "'")
        p = _PLURALS.get(p, p)
        if split:
            out += _split_run(p, holder)
        else:
            out.append(p)
    return out


def _split_run(run: str, holder: Holder) -> list[str]:
    known = {k.replace("’", "'") for k in holder.keywords}
    if not known or run in known:
        return [run]
    words = run.split()
    out = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            piece = " ".join(words[i:j])
            if piece in known or _PLURALS.get(piece) in known:
                out.append(_PLURALS.get(piece, piece))
                i = j
                break
        else:
            raise NotRead(run)
    return out


_TARGET_FORMS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"^(?:an? )?(?:enemy )?unit that can fly$", re.I), {"target_keywords": ["FLY"]}),
    (re.compile(r"^(?:an? )?(?:enemy )?unit that cannot fly$", re.I), {"target_not": ["FLY"]}),
    (
        re.compile(
            r"^(?:an? )?(?:enemy )?unit (?:that is )?below (?:its|their) starting strength$", re.I
        ),
        {"target_below_starting_strength": True},
    ),
    (
        re.compile(
            r"^(?:an? )?(?:enemy )?unit (?:that is )?at (?:its|their) starting strength$", re.I
        ),
        {"target_below_starting_strength": False},
    ),
    (
        re.compile(r"^(?:an? )?(?:enemy )?unit (?:that is )?below half-strength$", re.I),
        {"target_below_half_strength": True},
    ),
    (
        re.compile(r"^(?:an? )?(?:enemy )?unit (?:that is )?not below half-strength$", re.I),
        {"target_below_half_strength": False},
    ),
    (
        re.compile(r"^(?:an? )?(?:enemy )?unit (?:that is )?within half range$", re.I),
        {"half_range": True},
    ),
    (
        re.compile(
            r"^(?:an? )?(?:enemy )?unit (?:that is )?within range of (?:an|one or more) "
            r"objective markers?(?: you control| you do not control| your opponent controls)?$",
            re.I,
        ),
        {"objective": True},
    ),
    (
        re.compile(r"^the closest eligible (?:enemy )?(?:unit|target)$", re.I),
        {"option": "closest-target"},
    ),
    (
        re.compile(
            r"^(?:an? )?(?:enemy )?(?:unit that is battle-shocked|battle-shocked unit)$", re.I
        ),
        {"option": "battle-shocked"},
    ),
    (re.compile(r"^(?:an? )?(?:enemy )?unit$", re.I), {}),
)
_TARGET_KW = re.compile(rf"^(?:an? )?(?:enemy )?(?P<kws>{_KWS})(?: units?| models?)?$", re.I)
_TARGET_NOT = re.compile(
    rf"^(?:an? )?(?:enemy )?units? \(excluding (?P<kws>{_KWS})(?: units| models)?\)$", re.I
)


_CLOSEST_KW = re.compile(rf"^the closest eligible (?P<kws>{_KWS}) (?:units?|targets?)$", re.I)


def _target(text: str, holder: Holder) -> dict[str, Any]:
    """The conditions a target phrase sets ("a MONSTER or VEHICLE unit": ``target_keywords``).

    Raises:
        NotRead: a target the vocabulary cannot say ("a unit within 12"", "its quarry").
    """
    t = text.strip()
    for regex, when in _TARGET_FORMS:
        if regex.match(t):
            return dict(when)
    if m := _CLOSEST_KW.match(t):
        return {"option": "closest-target", "target_keywords": _keywords(m["kws"], holder)}
    if m := _TARGET_NOT.match(t):
        return {"target_not": _keywords(m["kws"], holder)}
    if m := _TARGET_KW.match(t):
        return {"target_keywords": _keywords(m["kws"], holder)}
    raise NotRead(text)


# --- the effects on the unit's own attacks ---------------------------------------------------

_ABILITY = r"\[(?P<ab>[A-Z0-9+\- ]+)\]"
_EFFECT_FORMS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(rf"^add {_N} to the hit roll$", re.I), lambda m: [{"hit_mod": int(m["n"])}]),
    (re.compile(rf"^add {_N} to the wound roll$", re.I), lambda m: [{"wound_mod": int(m["n"])}]),
    (
        re.compile(rf"^subtract {_N} from the hit roll$", re.I),
        lambda m: [{"hit_mod": -int(m["n"])}],
    ),
    (
        re.compile(rf"^subtract {_N} from the wound roll$", re.I),
        lambda m: [{"wound_mod": -int(m["n"])}],
    ),
    (
        re.compile(r"^(?:you can |that model can )?re-roll a hit roll of 1$", re.I),
        lambda m: [{"reroll_hits": "ones"}],
    ),
    (
        re.compile(r"^(?:you can |that model can )?re-roll the hit roll$", re.I),
        lambda m: [{"reroll_hits": "all"}],
    ),
    (
        re.compile(r"^(?:you can |that model can )?re-roll a wound roll (?:of|or) 1$", re.I),
        lambda m: [{"reroll_wounds": "ones"}],
    ),
    (
        re.compile(r"^(?:you can |that model can )?re-roll the wound roll$", re.I),
        lambda m: [{"reroll_wounds": "all"}],
    ),
    (
        re.compile(r"^(?:you can )?re-roll the damage roll$", re.I),
        lambda m: [{"reroll_damage": True}],
    ),
    (
        re.compile(
            rf"^improve the armour penetration characteristic of (?:that|the) attack by {_N}$",
            re.I,
        ),
        lambda m: [{"ap": int(m["n"])}],
    ),
    (
        re.compile(
            rf"^(?:add {_N} to|improve) the (?P<what>strength|damage|strength and damage|"
            r"attacks and strength) characteristics? of (?:that|the) attack"
            r"(?: by (?P<by>[1-6]))?$",
            re.I,
        ),
        lambda m: _characteristics(m["what"], int(m["n"] or m["by"] or 0)),
    ),
    (
        re.compile(
            rf"^improve the (?P<what>ballistic skill|weapon skill|ballistic skill and weapon "
            rf"skill) characteristics? of (?:that|the) attack by {_N}$",
            re.I,
        ),
        lambda m: [{"skill": int(m["n"])}],
    ),
    (
        re.compile(
            rf"^(?:that attack|it) (?:has|gains) the {_ABILITY}"
            r"(?P<more>(?: and \[[A-Z0-9+\- ]+\])*)"
            r" abilit(?:y|ies)$",
            re.I,
        ),
        lambda m: _abilities(m),
    ),
    (
        re.compile(
            r"^an? (?:successful )?unmodifi?ed hit roll of (?P<x>[2-5])\+ scores a critical hit$",
            re.I,
        ),
        lambda m: [{"crit_hit": int(m["x"])}],
    ),
    (
        re.compile(
            r"^an? (?:successful )?unmodifi?ed wound roll of (?P<x>[2-5])\+ scores a critical "
            r"wound$",
            re.I,
        ),
        lambda m: [{"crit_wound": int(m["x"])}],
    ),
    (
        re.compile(
            r"^you can ignore any or all modifiers to (?:that attack's )?(?:ballistic skill|"
            r"weapon skill|ballistic skill or weapon skill) characteristics?(?: and/or (?:any or "
            r"all modifiers )?to| and to| and) the hit roll$",
            re.I,
        ),
        lambda m: [{"ignore_harmful": ["skill", "hit"]}],
    ),
    (
        re.compile(
            r"^you can ignore any or all modifiers to the following: that attack's ballistic skill"
            r" characteristic; the hit roll$",
            re.I,
        ),
        lambda m: [{"ignore_harmful": ["skill", "hit"]}],
    ),
    (
        re.compile(r"^you can ignore any or all modifiers to the hit roll$", re.I),
        lambda m: [{"ignore_harmful": ["hit"]}],
    ),
)
_EFFECT_SPLIT = re.compile(
    r",? and (?=(?:you can |that model can )?(?:re-roll|add|improve|subtract|that attack|it has))"
    r"|, (?=(?:you can |that model can )?(?:re-roll|add|improve|subtract|that attack))",
    re.IGNORECASE,
)
# a condition on one effect, at its end ("add 1 to the Hit roll if this unit is below its
# Starting Strength") or at the front of the effects ("if it made a Charge move this turn, ...")
_OWN_STATE = {
    "below its starting strength": {"attacker_below_starting_strength": True},
    "below half-strength": {"attacker_below_half_strength": True},
}
_EFFECT_IF = re.compile(
    r"^(?P<effect>.+?) if (?:this|that) unit is (?P<state>below its starting strength|"
    r"below half-strength)(?: as well)?$",
    re.IGNORECASE,
)
_OBJECTIVE_IF = re.compile(
    r"^if (?:it|this model|this unit) is within range of an objective marker(?: you control)?,\s*",
    re.IGNORECASE,
)
_INLINE_IF = re.compile(
    r"^if (?:that unit|the target|that target|the target of that attack) is (?P<cond>[^,]+), "
    r"(?P<effect>.+?)(?P<instead> instead)?$",
    re.IGNORECASE,
)
_CHARGED_IF = re.compile(
    r"^if (?:it|this model|this unit|that model|the bearer|its unit) made a charge move this "
    r"turn,\s*",
    re.IGNORECASE,
)


def _characteristics(what: str, n: int) -> list[dict[str, Any]]:
    if n < 1:
        raise NotRead(what)
    fields = {"strength": "strength", "damage": "damage", "attacks": "attacks"}
    return [{fields[w.strip().lower()]: n} for w in re.split(r" and ", what)]


def _abilities(m: re.Match[str]) -> list[dict[str, Any]]:
    names = [m["ab"], *re.findall(r"\[([A-Z0-9+\- ]+)\]", m["more"] or "")]
    return [{"ability": _ability_text(n)} for n in names]


def _ability_text(name: str) -> str:
    """A weapon ability as a datasheet writes it (``SUSTAINED HITS 1`` -> ``sustained hits
    1``), if it is one the calculator knows.

    Raises:
        NotRead: an ability the calculator does not know.
    """
    from ..abilities import parse_ability

    text = " ".join(name.lower().split())
    if parse_ability(text).key == "datasheet rule":
        raise NotRead(name)
    return text


def _effects(text: str, holder: Holder) -> list[dict[str, Any]]:
    """The effects of an attack sentence ("add 1 to the Hit roll and add 1 to the Wound
    roll"), each a change dict (its own conditions in ``when``).

    Raises:
        NotRead: a part that is none of the effect forms.
    """
    when: dict[str, Any] = {}
    if m := _CHARGED_IF.match(text):
        when["charged"] = True
        text = text[m.end() :]
    elif m := _OBJECTIVE_IF.match(text):
        when["option"] = "on-objective"
        text = text[m.end() :]
    out = []
    chunks = re.split(r",? and,? (?=if )", text.strip(), flags=re.IGNORECASE)
    parts = []
    for chunk in chunks:
        parts += [chunk] if chunk.lower().startswith("if ") else _EFFECT_SPLIT.split(chunk)
    for part in parts:
        part = part.strip().rstrip(",")
        own: dict[str, Any] = {}
        instead = False
        if m := _INLINE_IF.match(part):
            own = _condition(m["cond"], holder)
            part, instead = m["effect"], bool(m["instead"])
        elif m := _EFFECT_IF.match(part):
            part = m["effect"].strip().rstrip(",")
            own = dict(_OWN_STATE[m["state"].lower()])
        part = re.sub(r" as well$", "", part, flags=re.I)
        made = _one_effect(part)
        if instead:
            _instead(made, own)
        for c in made:
            if when or own:
                c["when"] = {**when, **own}
        out += made
    return out


def _one_effect(part: str) -> list[dict[str, Any]]:
    """The changes one effect phrase makes ("add 1 to the Hit roll").

    Raises:
        NotRead: none of the effect forms.
    """
    for regex, make in _EFFECT_FORMS:
        if m := regex.match(part):
            return make(m)
    raise NotRead(part)


# --- weapons: abilities granted, characteristics changed --------------------------------------

_WEAPONS_HAVE = re.compile(
    r"^(?:all )?(?:\[(?P<with>[A-Z ]+)\] )?(?P<kind>ranged |melee )?weapons equipped by "
    rf"(?P<who>{_UNIT_SUBJECT}|{_MODEL_SUBJECT}|"
    rf"models in that unit) have the {_ABILITY}(?P<more>(?: and \[[A-Z0-9+\- ]+\])*) "
    r"abilit(?:y|ies)(?P<tail> while targeting .+| when targeting .+)?$",
    re.IGNORECASE,
)
_OWN_WEAPONS_HAVE = re.compile(
    rf"^(?P<who>this unit|this model|the bearer|its|that unit)(?:'s)? (?P<kind>ranged |melee )?"
    rf"(?:weapons|attacks) have (?:the )?{_ABILITY}(?P<more>(?: and \[[A-Z0-9+\- ]+\])*)"
    r"(?: abilit(?:y|ies))?(?P<tail> while targeting .+| when targeting .+)?$",
    re.IGNORECASE,
)
_NAMED_HAS = re.compile(
    rf"^(?P<who>this model|the bearer)'s (?P<wpn>[a-z’' -]+?) (?:has|have) the {_ABILITY}"
    r"(?P<more>(?: and \[[A-Z0-9+\- ]+\])*) abilit(?:y|ies)(?P<tail> while targeting .+| when "
    r"targeting .+)?$",
    re.IGNORECASE,
)
_CHARACTERISTIC = re.compile(
    rf"^(?:add (?P<n>[1-6]) to|improve) the (?P<what>attacks|strength|damage|armour penetration|"
    r"attacks and strength|strength and damage|ballistic skill|weapon skill|ballistic skill and "
    r"weapon skill) characteristics? of (?:(?P<kind>ranged |melee |ranged and melee )?weapons "
    rf"equipped by (?P<who>{_UNIT_SUBJECT}|{_MODEL_SUBJECT}|models in that unit)|"
    r"(?P<who2>this model|the bearer)'s (?P<wpn>[a-z’' -]+?))(?: by (?P<by>[1-6]))?$",
    re.IGNORECASE,
)


def _tail(tail: str | None, holder: Holder) -> dict[str, Any]:
    """``while targeting a unit within half range`` / ``when targeting MONSTER units``."""
    if not tail:
        return {}
    t = re.sub(r"^ (?:while|when) targeting ", "", tail, flags=re.I)
    return _target(t, holder)


def _weapon_form(s: str, where: Where):
    holder = where.holder
    m = _WEAPONS_HAVE.match(s) or _OWN_WEAPONS_HAVE.match(s)
    named: dict[str, Any] = {}
    if not m:
        m = _NAMED_HAS.match(s)
        if not m:
            return None
        named = _weapon_scope(m["wpn"], holder)
    who = m["who"]
    if who.lower() == "its":
        who = "this model"
    scope = _subject(who, where)
    scope.update(named)
    kind = (m.groupdict().get("kind") or "").strip().lower()
    if kind:
        scope["weapons"] = kind
    if m.groupdict().get("with"):
        scope["weapons_with"] = [_weapon_ability_key(m["with"])]
    when = _tail(m["tail"], holder)
    changes = [{**c, **scope, "side": "attacker"} for c in _abilities(m)]
    return changes, Scope("attacker", scope, when)


def _weapon_ability_key(name: str) -> str:
    """``HEAVY`` -> ``heavy``: an ability ``weapons_with`` can name.

    Raises:
        NotRead: one the calculator does not know.
    """
    from ..abilities import SPECS

    key = " ".join(name.lower().split())
    if key not in {sp.key for sp in SPECS}:
        raise NotRead(name)
    return key


def _characteristic_form(s: str, where: Where):
    holder = where.holder
    m = _CHARACTERISTIC.match(s)
    if not m:
        return None
    what = m["what"].lower()
    n = int(m["n"] or m["by"] or 0)
    if n < 1 or (m["n"] and m["by"]):
        raise NotRead(s)
    if what.startswith(("armour", "ballistic", "weapon")) and m["n"]:
        raise NotRead(s)  # "add 1 to the Ballistic Skill" would worsen it
    if what == "armour penetration":
        changes = [{"ap": n}]
    elif what.startswith(("ballistic", "weapon skill")):
        changes = [{"skill": n}]
    else:
        changes = _characteristics(what, n)
    if m["who2"]:
        scope = _subject(m["who2"], where)
        scope.update(_weapon_scope(m["wpn"], holder))
    else:
        scope = _subject(m["who"], where)
        kind = (m["kind"] or "").strip().lower()
        if kind in ("ranged", "melee"):
            scope["weapons"] = kind
        if what.startswith("ballistic skill and") and kind != "ranged and melee" and kind:
            raise NotRead(s)
        if what == "ballistic skill" and kind != "ranged":
            scope["weapons"] = "ranged"
        if what == "weapon skill" and kind != "melee":
            scope["weapons"] = "melee"
    out = [{**c, **scope, "side": "attacker"} for c in changes]
    return out, Scope("attacker", scope, {})


# --- the unit's defence ----------------------------------------------------------------------

_DEF_SUBJECT = (
    rf"(?P<who>models in (?:this|that|the bearer's|this model's) unit|each model in this unit|"
    rf"this unit|that unit|the bearer's unit|this model's unit|{_MODEL_SUBJECT}|those models)"
)
_HAS_FNP = re.compile(
    rf"^{_DEF_SUBJECT} (?:has|have) the feel no pain (?P<x>[2-6])\+ ability"
    r"(?: against (?P<vs>.+))?$",
    re.IGNORECASE,
)
_HAS_INVULN = re.compile(
    rf"^{_DEF_SUBJECT} (?:has|have) an? (?P<x>[2-6])\+ (?:invulnerable save|insv)"
    r"(?: against (?P<vs>ranged|melee) attacks)?$",
    re.IGNORECASE,
)
_HAS_COVER = re.compile(
    rf"^{_DEF_SUBJECT} (?:has|have) the benefit of cover(?: against that attack)?$", re.I
)
_HAS_STEALTH = re.compile(rf"^{_DEF_SUBJECT} (?:has|have) (?:the )?stealth(?: ability)?$", re.I)
_HAS_T = re.compile(rf"^{_DEF_SUBJECT} (?:has|have) \+{_N} t(?:oughness)?$", re.I)
_ADD_T = re.compile(
    rf"^add {_N} to the toughness characteristic of (?P<who>models in (?:this|that) unit|this "
    rf"model|the bearer)$",
    re.I,
)
_TARGETED = re.compile(
    r"^each time an? (?P<kind>ranged |melee )?attack (?:targets|is made against) "
    r"(?P<who>this unit|that unit|this model|the bearer|the bearer's unit|this model's unit),\s*"
    r"(?P<rest>.+)$",
    re.IGNORECASE,
)
_TARGETED_BY_MODEL = re.compile(
    r"^each time a model makes an? (?P<kind>ranged |melee )?attack that targets "
    r"(?P<who>this unit|this model|the bearer|the bearer's unit|this model's unit),\s*"
    r"(?P<rest>.+)$",
    re.IGNORECASE,
)
_ATTACKS_AGAINST = re.compile(
    r"^(?P<kind>ranged |melee )?attacks that target (?P<who>this unit|this model) have "
    r"-(?P<n>1) to (?P<roll>hit|wound) rolls?$",
    re.IGNORECASE,
)
_ALLOCATED = re.compile(
    r"^each time an? (?P<kind>ranged |melee )?attack is allocated to (?P<who>a model in (?:this|"
    r"that) unit|this model|the bearer),\s*(?P<rest>.+)$",
    re.IGNORECASE,
)
_STRONGER = re.compile(
    r"^if the strength characteristic of that attack is greater than (?:the toughness "
    r"characteristic of (?:this|that) (?:model|unit)|this (?:model|unit)'s toughness "
    r"characteristic),\s*",
    re.IGNORECASE,
)
_DEFENCE_EFFECTS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"^subtract 1 from the hit roll$", re.I), [{"hit_mod": -1}]),
    (re.compile(r"^subtract 1 from the wound roll$", re.I), [{"wound_mod": -1}]),
    (
        re.compile(r"^subtract 1 from the hit roll and subtract 1 from the wound roll$", re.I),
        [{"hit_mod": -1}, {"wound_mod": -1}],
    ),
    (
        re.compile(
            r"^worsen the armour penetration characteristic of that attack by (?P<n>[1-3])$", re.I
        ),
        None,
    ),
)
_ALLOCATED_EFFECTS = (
    (
        re.compile(
            r"^subtract (?P<n>[1-3]) from (?:the damage characteristic of that attack|that "
            r"attack's damage characteristic)$",
            re.I,
        ),
        "damage_reduction",
    ),
    (re.compile(r"^halve the damage characteristic of that attack$", re.I), "half_damage"),
)


def _def_scope(who: str, where: Where) -> dict[str, Any]:
    """The scope of a defensive subject: the unit, or the models the ability is printed for
    (``bearer_only`` on a CHARACTER's datasheet)."""
    holder = where.holder
    low = who.lower()
    if where.aura:
        if low in ("models in that unit", "that unit", "those models", "that model"):
            return {}
        raise NotRead(who)
    if "that unit" in low:
        if where.led:
            return {}
        raise NotRead(who)
    if low == "those models":
        raise NotRead(who)
    if "unit" in low:
        return {}
    if holder.character:
        return {"bearer_only": True}
    if holder.whole:
        return {}
    raise NotRead(who)


def _defence_form(s: str, where: Where):
    if m := _HAS_FNP.match(s):
        scope = _def_scope(m["who"], where)
        vs = (m["vs"] or "").lower().replace("psychic attack and", "psychic attacks and")
        parts = set(re.split(r"\s+and\s+|,\s*", vs)) if vs else {""}
        fields = {"": "fnp", "mortal wounds": "fnp_mortal", "psychic attacks": "fnp_psychic"}
        if not parts <= set(fields):
            raise NotRead(s)
        changes = [{fields[p]: int(m["x"])} for p in sorted(parts)]
        return _target_changes(changes, scope)
    if m := _HAS_INVULN.match(s):
        scope = _def_scope(m["who"], where)
        if m["vs"]:
            scope["weapons"] = m["vs"].lower()
        return _target_changes([{"invuln": int(m["x"])}], scope)
    if m := _HAS_COVER.match(s):
        return _target_changes([{"cover": True}], _def_scope(m["who"], where))
    if m := _HAS_STEALTH.match(s):
        return _target_changes([{"stealth": True}], _def_scope(m["who"], where))
    if m := _HAS_T.match(s) or _ADD_T.match(s):
        scope = _def_scope(m["who"], where)
        if scope:
            raise NotRead(s)  # T of one model: the unit's T is what the Wound roll reads
        return _target_changes([{"toughness": int(m["n"])}], scope)
    if m := _ATTACKS_AGAINST.match(s):
        scope = _def_scope(m["who"], where)
        if m["kind"]:
            scope["weapons"] = m["kind"].strip().lower()
        return _target_changes([{f"{m['roll'].lower()}_mod": -1}], scope)
    if m := _TARGETED.match(s) or _TARGETED_BY_MODEL.match(s):
        scope = _def_scope(m["who"], where)
        if m["kind"]:
            scope["weapons"] = m["kind"].strip().lower()
        rest = m["rest"]
        own: dict[str, Any] = {}
        if st := _STRONGER.match(rest):
            rest = rest[st.end() :]
            own = {"strength_above_toughness": True}
        for regex, made in _DEFENCE_EFFECTS:
            if e := regex.match(rest):
                changes = made if made is not None else [{"ap_worsen": int(e["n"])}]
                changes = [{**c, **({"when": dict(own)} if own else {})} for c in changes]
                return _target_changes(changes, scope)
        raise NotRead(s)
    if m := _ALLOCATED.match(s):
        scope = _def_scope(m["who"], where)
        if m["kind"]:
            scope["weapons"] = m["kind"].strip().lower()
        for regex, name in _ALLOCATED_EFFECTS:
            if e := regex.match(m["rest"]):
                value = int(e["n"]) if name == "damage_reduction" else True
                return _target_changes([{name: value}], scope)
        raise NotRead(s)
    return None


def _target_changes(changes: list[dict[str, Any]], scope: dict[str, Any]):
    out = [{**c, **scope, "side": "target"} for c in changes]
    return out, Scope("target", scope, {})


# --- follow-ups: "If the target of that attack is X, ... instead / as well" -------------------

_FOLLOW = re.compile(
    r"^if (?:the target of that attack|that target|the target|that enemy unit|such an attack"
    r" targets|that attack targets|that unit) (?P<also>(?:is|has) also |also |is |has |does not "
    r"have the |does not have |)(?P<cond>[^,]+),\s*(?P<rest>.+?)(?P<instead> instead)?$",
    re.IGNORECASE,
)
_FOLLOW_CONDS: tuple[tuple[re.Pattern[str], dict[str, Any]], ...] = (
    (
        re.compile(
            r"^(?:an enemy unit )?within range of (?:an|one or more) objective markers?(?: you "
            r"control| you do not control| your opponent controls)?$",
            re.I,
        ),
        {"objective": True},
    ),
    (
        re.compile(r"^below (?:its|their) starting strength$", re.I),
        {"target_below_starting_strength": True},
    ),
    (re.compile(r"^below half-strength$", re.I), {"target_below_half_strength": True}),
    (re.compile(r"^not below half-strength$", re.I), {"target_below_half_strength": False}),
    (
        re.compile(r"^at (?:its|their) starting strength$", re.I),
        {"target_below_starting_strength": False},
    ),
    (re.compile(r"^within half range$", re.I), {"half_range": True}),
    (re.compile(r"^battle-shocked$", re.I), {"option": "battle-shocked"}),
)


def _condition(cond: str, holder: Holder) -> dict[str, Any]:
    """The conditions a follow-up's phrase sets ("within range of an objective marker",
    "below its Starting Strength", "a MONSTER unit").

    Raises:
        NotRead: none the vocabulary can say.
    """
    for regex, w in _FOLLOW_CONDS:
        if regex.match(cond.strip()):
            return dict(w)
    return _target(cond, holder)


def _follow_up(s: str, last: Scope | None, holder: Holder):
    """A sentence that qualifies the one before it; None when ``s`` is not one.

    Raises:
        NotRead: a follow-up whose condition or effects are not forms we read.
    """
    m = _FOLLOW.match(s)
    if not m:
        return None
    if last is None or last.side != "attacker":
        raise NotRead(s)
    cond = m["cond"].strip()
    lead = m["also"].lower().strip()
    when: dict[str, Any] | None = None
    if lead.startswith("does not have"):
        kws = re.sub(r" keywords?$", "", cond)
        when = {"target_not": _keywords(kws, holder)}
    elif lead.startswith("has"):
        kws = re.sub(r"^the | keywords?$", "", cond)
        when = {"target_keywords": _keywords(kws, holder)}
    else:
        when = _condition(cond, holder)
    changes = _effects(m["rest"], holder)
    inherit = dict(last.when)
    for c in changes:
        c.update(last.scope)
        c["side"] = "attacker"
        c["when"] = {**inherit, **when, **c.get("when", {})}
    if m["instead"]:
        _instead(changes, when)
    return changes, Scope("attacker", dict(last.scope), {**inherit, **when})


def _instead(changes: list[dict[str, Any]], when: dict[str, Any]) -> None:
    """ "X instead": a re-roll already gives way to the better one; a modifier or a
    characteristic replaced needs the opposite condition on the first, which the vocabulary
    says only for the boolean conditions.

    Raises:
        NotRead: a replaced value whose condition has no opposite.
    """
    for c in changes:
        f = next(k for k in c if k not in ("when", "side", "weapons", "named", "bearer_only"))
        if f.startswith("reroll") or f in ("ability", "crit_hit", "crit_wound"):
            continue
        raise NotRead(f)  # "+2 instead": the vocabulary's conditions cannot be negated here

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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# a keyword phrase as the data prints it: capitals, read case-sensitively inside patterns that
# ignore case elsewhere ("a MONSTER or VEHICLE unit", "ADEPTUS ASTARTES", "T’AU EMPIRE")
_KW = r"(?-i:[A-Z][A-Z’'\-]*(?: [A-Z][A-Z’'\-]*)*)"
_KWS = rf"{_KW}(?:(?:, | or | and |/|, or ){_KW})*"
_N = r"(?P<n>[1-6])"
_ABILITY = r"\[(?P<ab>[A-Z0-9+\- ]+)\]"  # a weapon ability in brackets
_STATS = r"(?:attacks|strength|damage|armour penetration)"
_STAT_LIST = rf"{_STATS}(?:(?:, and |, | and ){_STATS})*"  # "Strength and Damage"
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
    ``keywords`` (every keyword of the data, to split "ADEPTUS ASTARTES INFANTRY"),
    ``touches`` (whether a sentence can change an attack: a part of a sentence that cannot is
    left out of it; None: every part counts)."""

    character: bool = False
    whole: bool = True
    weapons: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    touches: Callable[[str], bool] | None = None


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
    "used": "the player uses this ability now (it is limited to once per battle, round or turn)",
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
    held: tuple[str, dict[str, Any], re.Pattern[str]] | None = None
    for raw in parts:
        s = clean(raw)
        frames = dict(heading or {})
        if held is not None:  # the sentence before said when this one applies
            held_raw, frame, prefix = held
            held = None
            if m := prefix.match(s):
                s = s[m.end() :]
                frames.update(frame)
                out.read.append(held_raw)
            else:
                out.left.append(held_raw)
        elif got := _announcing(s):
            held = (raw, *got)
            continue
        h = _heading(s, holder)
        if h is not None:
            heading = h
            out.read.append(raw)
            continue
        try:
            changes, last = _sentence(s, frames, last, holder, out)
        except NotRead:
            out.left.append(raw)
            last = None
            continue
        out.changes += changes
        out.read.append(raw)
    if held is not None:
        out.left.append(held[0])
    first = next((i for i, x in enumerate(parts) if x in out.read), len(parts))
    before = [x for x in out.left if parts.index(x) < first]
    headed = any(_HEADING.search(clean(x)) for x in out.left)
    if out.changes and (headed or any(_FRAMING.search(clean(x)) for x in before)):
        # a choice, a time limit or a condition we did not read frames the others
        out.left = list(parts)
        out.read, out.changes, out.options, out.aura = [], [], {}, None
    return out


_HEADING = re.compile(r"following|:$", re.IGNORECASE)

# a sentence that says when the next one applies: the player uses a limited ability ("Once per
# battle, at the start of the Fight phase, this model can use this ability." then "If it does,
# until the end of the phase, ..."), or this unit's shooting marks a target for its friends
# ("In your Shooting phase, after this model has shot, select one enemy unit hit by ..." then
# "Until the end of the phase, each time a friendly ... makes an attack that targets that
# unit, ...")
_ONCE = re.compile(
    r"^once per (?:battle|battle round|turn|phase)(?P<when>, [^.]*?)?, (?:this|the) "
    r"(?:model|unit|bearer)(?:'s unit)? can use this ability$",
    re.IGNORECASE,
)
_IF_IT_DOES = re.compile(
    r"^(?:if|when) (?:it|they|you) do(?:es)?, until the end of the (?:phase|turn),\s*", re.I
)
_MARKS = re.compile(
    r"^(?:(?:in your (?:shooting|fight) phase, )?(?:after|each time|when) this (?:model|unit)"
    r" has (?:shot|fought)(?: [^,]*)?|at the start of (?:your|the) (?:shooting|fight) phase), "
    r"(?:you can )?select (?:one|up to one) (?:visible )?enemy [^.]*$",
    re.IGNORECASE,
)
_UNTIL_END = re.compile(r"^until the end of the (?:phase|turn),\s*", re.IGNORECASE)


def _announcing(s: str) -> tuple[dict[str, Any], re.Pattern[str]] | None:
    """(the frame, the start the next sentence must have) of a sentence that says when the
    next one applies (:data:`_ONCE`, :data:`_MARKS`), or None."""
    if m := _ONCE.match(s):
        phase = re.search(r"\b(shooting|fight) phase", m["when"] or "", re.IGNORECASE)
        frame: dict[str, Any] = {"option": "used"}
        if phase:
            frame["phases"] = [phase.group(1).lower()]
        return frame, _IF_IT_DOES
    if m := _MARKS.match(s):
        low = s.lower()
        shot = "fight" if "fought" in low or "fight phase" in low else "shooting"
        return {"marked": True, "phases": [shot]}, _UNTIL_END
    return None


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
_LED_BY = re.compile(
    rf"^while an? (?P<kws>{_KWS})(?: model)? is leading this unit,\s*", re.IGNORECASE
)
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
_OWN_KEYWORD = re.compile(
    rf"^if this (?:model|unit) has the (?P<kws>{_KWS}) keywords?,\s*", re.IGNORECASE
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
            # each run's last keyword: "an ADEPTA SORORITAS CHARACTER model" -> CHARACTER
            runs = [p.strip() for p in re.split(r", or |, | or | and |/", m["kws"]) if p.strip()]
            out["led_by"] = [_split_run(_PLURALS.get(r, r), holder)[-1] for r in runs]
        elif m := _CHARGE.match(s):
            out["charged"] = True
        elif m := _STATIONARY.match(s) or _SHOOTS_STATIONARY.match(s):
            out["stationary"] = True
        elif m := _ON_OBJECTIVE.match(s):
            out["option"] = "on-objective"
        elif m := _OWN_KEYWORD.match(s):
            out["own_keywords"] = _keywords(m["kws"], holder)
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
    if frames.pop("marked", False):
        aura, changes, scope = _marked(s, holder)
    if aura is not None:
        if out.aura is not None and out.aura != aura:
            raise NotRead(s)
        out.aura = aura
    follow = None if aura is not None and aura.get("marked") else _follow_up(s, last, holder)
    if follow is None and more and last is not None and aura is None:
        follow = _bare(s, last, holder)  # "While ..., you can re-roll the Wound roll instead"
    if aura is not None and aura.get("marked"):
        pass
    elif follow is not None:
        changes, scope = follow
    else:
        led = bool(frames.get("leading")) or aura is not None
        changes, scope = _form(s, Where(holder, aura is not None, led))
    for key in ("leading", "charged", "stationary"):
        if frames.get(key):
            scope.when[key] = True
    if "led_by" in frames:
        scope.when["led_by"] = frames["led_by"]
    if "own_keywords" in frames:
        scope.when[f"{scope.side}_keywords"] = frames["own_keywords"]
    if "option" in frames:
        scope.when["option"] = frames["option"]
    if "phases" in frames:
        scope.when["phases"] = frames["phases"]
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


_FRIENDLY_ATTACK = re.compile(
    rf"^each time (?:a model in )?a friendly (?P<kws>{_KWS}) (?:unit|model) makes an? "
    r"(?P<kind>ranged |melee )?attack that targets that (?:enemy )?unit,\s*(?P<rest>.+)$",
    re.IGNORECASE,
)


def _marked(s: str, holder: Holder) -> tuple[dict[str, Any], list[dict[str, Any]], Scope]:
    """The attacks of friendly units against the unit this one marked (an aura of a kind:
    the player names it against that unit).

    Raises:
        NotRead: not that form.
    """
    m = _FRIENDLY_ATTACK.match(s)
    if not m:
        raise NotRead(s)
    aura = {"keywords": _keywords(m["kws"], holder, split=True), "what": "unit", "marked": True}
    scope: dict[str, Any] = {}
    kind = (m["kind"] or "").strip().lower()
    if kind:
        scope["weapons"] = kind
    changes = _effects(m["rest"], holder)
    for c in changes:
        c.update(scope)
        c["side"] = "attacker"
    return aura, changes, Scope("attacker", scope, {})


def _form(s: str, where: Where) -> tuple[list[dict[str, Any]], Scope]:
    got = _one_form(s, where)
    if got is not None:
        return got
    return _conjunction(s, where)


def _one_form(s: str, where: Where):
    for form in (_attack_form, _weapon_form, _characteristic_form, _defence_form, _selected):
        got = form(s, where)
        if got is not None:
            return got
    return None


_JOIN = re.compile(
    r",? and (?=(?:those weapons|each time|models in|all models|ranged weapons|melee weapons|"
    r"weapons|add \d|improve|this unit|that unit|it has|its |this model))",
    re.IGNORECASE,
)
_THOSE_HAVE = re.compile(
    rf"^those weapons (?:have|has) the {_ABILITY}(?P<more>(?: and \[[A-Z0-9+\- ]+\])*) "
    r"abilit(?:y|ies)$",
    re.IGNORECASE,
)


def _conjunction(s: str, where: Where) -> tuple[list[dict[str, Any]], Scope]:
    """Two statements joined by "and" ("models in that unit have the Scouts 6" ability and
    ranged weapons ... have the [ASSAULT] ability", "add 3 to the Attacks characteristic of
    melee weapons equipped by this model and those weapons have the [LANCE] ability"): each
    read, a part that cannot change an attack left out.

    Raises:
        NotRead: a part that can change an attack and is none of the forms.
    """
    touches = where.holder.touches
    for m in _JOIN.finditer(s):
        left, right = s[: m.start()], s[m.end() :]
        first = _one_form(left, where)
        if first is None and (touches is None or touches(left)):
            continue
        changes, scope = first if first is not None else ([], None)
        if t := _THOSE_HAVE.match(right):
            if scope is None:
                continue
            more = [{**c, **scope.scope, "side": "attacker"} for c in _abilities(t)]
            return changes + more, scope
        try:
            second = _form(right, where)
        except NotRead:
            if touches is None or touches(right):
                continue
            second = None
        if second is None:
            if scope is None:
                continue
            return changes, scope
        if scope is not None and second[1].side != scope.side:
            return changes + second[0], scope  # both sides: each change says its own
        return changes + second[0], second[1] if scope is None else scope
    raise NotRead(s)


_SELECTED = re.compile(
    r"^each time (?:this model|this unit|this model's unit) is selected to (?P<phase>shoot|fight|"
    r"shoot or fight), (?P<rest>(?:you can re-roll one (?:hit|wound|damage) roll(?:, | and |, and )"
    r"?)+) when resolving (?:its|those|their|this unit's|this model's) attacks$",
    re.IGNORECASE,
)


def _selected(s: str, where: Where):
    """ "Each time this model is selected to shoot, you can re-roll one Hit roll, ... when
    resolving its attacks": one roll of each kind re-rolled (``single_reroll``)."""
    m = _SELECTED.match(s)
    if not m:
        return None
    if where.aura:
        raise NotRead(s)
    rolls = re.findall(r"re-roll one (hit|wound|damage) roll", m["rest"], re.IGNORECASE)
    phase = m["phase"].lower()
    phases = {"shoot": ["shooting"], "fight": ["fight"]}.get(phase, ["shooting", "fight"])
    changes = [{"single_reroll": r.lower(), "side": "attacker"} for r in rolls]
    return changes, Scope("attacker", {}, {"phases": phases})


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
    r"(?: (?:that targets|against) (?P<tgt>(?:[^,]|, (?-i:(?=[A-Z]{2})))+?))?,\s*(?P<rest>.+)$",
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
    if m := _TARGET_COUNT.match(t):
        return {"target_min_models": _number(m["n"])}
    if m := _TARGET_NOT_FLY.match(t):
        return {"target_not": ["FLY"]}
    if m := _LOOSE_NOT.match(t):
        return {"target_not": _known(m["kws"], holder)}
    if m := _LOOSE_KW.match(t):
        return {"target_keywords": _known(m["kws"], holder)}
    raise NotRead(text)


_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10}
_TARGET_COUNT = re.compile(
    r"^(?:an? )?(?:enemy )?unit (?:that contains|containing) (?P<n>\d+|two|three|four|five|six|"
    r"ten) or more models$",
    re.I,
)
_TARGET_NOT_FLY = re.compile(r"^(?:an? )?(?:enemy )?unit \(excluding units that can fly\)$", re.I)
# keywords the data prints in title case ("a Character unit", "Monsters and Vehicles")
_LOOSE = r"[A-Za-z][A-Za-z’'\-]*(?:(?:, | or | and )[A-Za-z][A-Za-z’'\-]*)*"
_LOOSE_KW = re.compile(rf"^(?:an? )?(?:enemy )?(?P<kws>{_LOOSE}) units?$", re.I)
_LOOSE_NOT = re.compile(
    rf"^(?:an? )?(?:enemy )?units? \(excluding (?P<kws>{_LOOSE})(?: units)?\)$", re.I
)


def _number(text: str) -> int:
    return int(text) if text.isdigit() else _NUMBERS[text.lower()]


def _known(text: str, holder: Holder) -> list[str]:
    """Keywords printed in any case, each one the data has (in capitals, plurals singular).

    Raises:
        NotRead: a word that is no keyword of the data (or no keywords known).
    """
    out = []
    for p in re.split(r", | or | and ", text):
        k = p.strip().upper()
        k = _PLURALS.get(k, k)
        if not holder.keywords or k not in holder.keywords or k in ("UNIT", "ENEMY"):
            raise NotRead(text)
        out.append(k)
    return out


# --- the effects on the unit's own attacks ---------------------------------------------------

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
            rf"^(?:add {_N} to|improve) the (?P<what>{_STAT_LIST}) characteristics? of "
            r"(?:that|the) attack(?: by (?P<by>[1-6]))?$",
            re.I,
        ),
        lambda m: _attack_stats(m),
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
            r"^an? (?:successful )?unmodifi?ed (?:successful )?hit roll of (?P<x>[2-5])\+ scores "
            r"a critical hit$",
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
            r"all modifiers |all modifiers )?to| and to| and (?:any or all modifiers to )?) ?"
            r"the hit roll$",
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
_OWN_STATE_IF = re.compile(
    r"^if (?:it|this model|this unit|its unit) is (?P<state>below its starting strength|"
    r"below half-strength),\s*",
    re.IGNORECASE,
)
_CHARGED_IF = re.compile(
    r"^if (?:it|this model|this unit|that model|the bearer|its unit) made a charge move this "
    r"turn,\s*",
    re.IGNORECASE,
)


def _characteristics(what: str, n: int) -> list[dict[str, Any]]:
    """``strength and damage`` improved by ``n``: one change each (AP improved is ``ap``)."""
    if n < 1:
        raise NotRead(what)
    fields = {"strength": "strength", "damage": "damage", "attacks": "attacks"}
    fields["armour penetration"] = "ap"
    return [{fields[w.strip().lower()]: n} for w in re.split(r", and |, | and ", what)]


def _attack_stats(m: re.Match[str]) -> list[dict[str, Any]]:
    """ "improve the S and D of that attack by 1" / "add 1 to the S ...": AP only improved."""
    if "armour" in m["what"].lower() and m["n"]:
        raise NotRead(m["what"])
    if m["n"] and m["by"]:
        raise NotRead(m["what"])
    return _characteristics(m["what"], int(m["n"] or m["by"] or 0))


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
    elif m := _OWN_STATE_IF.match(text):
        when.update(_OWN_STATE[m["state"].lower()])
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
_EQUIPPED_WITH = re.compile(
    rf"^(?P<kind>ranged |melee )?weapons (?P<who>it|this model|the bearer) is equipped with have "
    rf"the {_ABILITY}(?P<more>(?: and \[[A-Z0-9+\- ]+\])*) abilit(?:y|ies)(?P<tail>)$",
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
    rf"^(?:add (?P<n>[1-6]) to|improve) the (?P<what>{_STAT_LIST}|ballistic skill|weapon skill|"
    r"ballistic skill and weapon skill) characteristics? of "
    r"(?:(?P<kind>ranged |melee |ranged and melee )?weapons "
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
    m = _WEAPONS_HAVE.match(s) or _OWN_WEAPONS_HAVE.match(s) or _EQUIPPED_WITH.match(s)
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
    if ("armour" in what or what.startswith(("ballistic", "weapon"))) and m["n"]:
        raise NotRead(s)  # "add 1 to the Ballistic Skill" would worsen it
    if what.startswith(("ballistic", "weapon skill")):
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
    r"(?P<who>(?:all )?models in (?:this|that|the bearer's|this model's) unit|"
    r"each model in this unit|"
    rf"this unit|that unit|the bearer's unit|this model's unit|{_MODEL_SUBJECT}|those models)"
)
_HAS_FNP = re.compile(
    rf"^{_DEF_SUBJECT} (?:has|have) the feel no pain (?P<x>[2-6])\+ ability"
    r"(?: against (?P<vs>.+))?$",
    re.IGNORECASE,
)
_HAS_INVULN = re.compile(
    rf"^{_DEF_SUBJECT} (?:has|have) (?:an?|the) (?P<x>[2-6])\+ (?:invulnerable save|insv)"
    r"(?: against (?P<vs>ranged|melee) attacks)?$",
    re.IGNORECASE,
)
_HAS_COVER = re.compile(
    rf"^{_DEF_SUBJECT} (?:has|have) the benefit of cover(?: against that attack)?$", re.I
)
_HAS_STEALTH = re.compile(rf"^{_DEF_SUBJECT} (?:has|have) (?:the )?stealth(?: ability)?$", re.I)
_HAS_T = re.compile(rf"^{_DEF_SUBJECT} (?:has|have) \+{_N} t(?:oughness)?$", re.I)
_ADD_T = re.compile(
    rf"^(?:add {_N} to|improve) the toughness characteristic of (?P<who>models in (?:this|that) "
    rf"unit|this model|the bearer)(?: by (?P<by>[1-3]))?$",
    re.I,
)
_OWN_T = re.compile(rf"^add {_N} to (?P<who>this model)[’']?s toughness characteristic$", re.I)
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
    (
        re.compile(
            r"^(?:models in (?:it|that unit|this unit)|(?:this|that) (?:model|unit)|it) (?:has|"
            r"have) the benefit of cover against that attack$",
            re.I,
        ),
        [{"cover": True}],
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
        changes: list[dict[str, Any]] = [{fields[p]: int(m["x"])} for p in sorted(parts)]
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
    if m := _HAS_T.match(s) or _ADD_T.match(s) or _OWN_T.match(s):
        scope = _def_scope(m["who"], where)
        if scope:
            raise NotRead(s)  # T of one model: the unit's T is what the Wound roll reads
        n = m["n"] or m.groupdict().get("by")
        if not n or (m["n"] and m.groupdict().get("by")):
            raise NotRead(s)
        return _target_changes([{"toughness": int(n)}], scope)
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


def _bare(s: str, last: Scope, holder: Holder):
    """Effects alone after a frame ("While this unit is within range of an objective marker,
    you can re-roll the Wound roll instead"), about the previous sentence's attacks; None when
    ``s`` is not effects alone."""
    if last.side != "attacker":
        return None
    instead = s.lower().endswith(" instead")
    text = s[: -len(" instead")] if instead else s
    try:
        changes = _effects(text, holder)
    except NotRead:
        return None
    if instead:
        _instead(changes, {})
    for c in changes:
        c.update(last.scope)
        c["side"] = "attacker"
        c["when"] = {**last.when, **c.get("when", {})}
    return changes, Scope("attacker", dict(last.scope), dict(last.when))


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

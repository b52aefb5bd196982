"""The batch file of ``calc compare``: schema, loading and per-run validation.

A batch file is YAML: shared defaults at the top and a list of ``runs``::

    title: Lootas loadouts            # optional, shown above the table
    edition: 10                       # defaults for every run (each optional)
    method: exact                     # exact, sample or both
    trials: 100000
    seed: 40000
    phase: shooting                   # or fight
    conditions: [stationary]          # or a mapping: {stationary: true, cover: false}
    modifiers: {hit_mod: 1}           # the calc shoot modifier options, '_' or '-'
    effects: [waaagh]
    targets: [boyz, {name: intercessor-squad, models: 10}]
    datasheets: [my-datasheets]       # folders, relative to the batch file
    runs:
      - name: rokkits                 # optional; made from the attacker when missing
        attacker: {name: lootas, models: 10, loadout: rokkit-launchas}
        # phase, conditions, modifiers, effects, edition, method, trials, seed, order,
        # precision_target, add_abilities, target_stealth, target, targets or target_set
        # may be given per run as well
      - name: lootas then boyz        # a sequence of activations instead of one attacker
        sequence:
          - "shoot lootas --models 10 --stationary"      # as a calc sequence step
          - {attacker: boyz, phase: fight, conditions: [charged]}
        repeat: 1
      - name: charge with the boyz    # two units attacking each other (calc exchange)
        exchange:
          side_a: "fight boyz --models 20 --charged"
          side_b: "fight intercessor-squad --models 10"
          rounds: 1

Schema checks are done by ``msgspec`` (as for datasheets); each run is validated on its own so
that one bad run does not hide the others. Every error names the file, the line, the run and the
field.

YAML aliases let a small file stand for a huge document (``&a [x, x]``, ``&b [*a, *a]``, ...:
2^27 values in 544 bytes), and every walk of the data (validation, the error message, the
key that tells alike runs apart) costs what the document written out in full would. So before
anything walks it, a file that uses aliases has its size written out counted once per distinct
value (:class:`_Expansion`, proportional to the file): a run, or the defaults, over
:data:`MAX_VALUES` is validated on a copy cut at the schema's depth (no valid field nests deeper:
:func:`_schema_depth`), which gives the error in the part that nests too deeply ("effects[0]:
must be text, not a list") at once, and is refused for its size when that copy is valid or
still too large; runs adding up to more than :data:`MAX_VALUES` are refused together.

(No ``from __future__ import annotations`` here, as in :mod:`wh40k_calc.datasheet`: msgspec
reads the schema's annotations at the first file's conversion, and text annotations would
each be compiled and evaluated then: three quarters of the first conversions' time, about
2 ms of every batch.)
"""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

PHASES = ("shooting", "fight")
MAX_RUNS = 10_000  # runs in one batch file (runs × targets: MAX_ROWS in compare/jobs.py)
# values (each list item, mapping key and value, counted as written out in full through YAML
# aliases) of one run, of the defaults, and of all the distinct runs together; 10,000 runs
# written out are about 300,000
MAX_VALUES = 1_000_000

Plus = Annotated[int, msgspec.Meta(ge=2, le=6)]
Reroll = Literal["ones", "fails", "all"]
NameList = (
    Annotated[str, msgspec.Meta(pattern=r"[^,\s]")]
    | Annotated[list[Annotated[str, msgspec.Meta(pattern=r"\S")]], msgspec.Meta(min_length=1)]
)


class BatchError(ValueError):
    """A batch file that cannot be used at all (unreadable, malformed YAML, bad top level); the
    message names the file (and the line, column and field where known)."""


class RunFieldError(ValueError):
    """One run of a batch is invalid: ``field`` is its dotted path inside the run (or None),
    ``line`` the 1-based line of the batch file (or None)."""

    def __init__(self, field: str | None, message: str, line: int | None = None):
        super().__init__(message)
        self.field = field
        self.message = message
        self.line = line


# ---------------------------------------------------------------------------------------------
# Schema. Every field is optional (None: not given) so that run values can override defaults.


class ConditionsSpec(msgspec.Struct, forbid_unknown_fields=True):
    """Battlefield conditions (the names of :class:`~wh40k_calc.selection.Conditions`)."""

    half_range: bool | None = None
    stationary: bool | None = None
    charged: bool | None = None
    cover: bool | None = None
    objective: bool | None = None
    overwatch: bool | None = None
    indirect: bool | None = None
    beyond_12: bool | None = None
    disembarked: bool | None = None
    plunging_fire: bool | None = None
    spotted: bool | None = None
    engaged: bool | None = None
    target_engaged: bool | None = None
    advanced: bool | None = None


class ModifiersSpec(msgspec.Struct, forbid_unknown_fields=True):
    """Modifiers (the names of :class:`~wh40k_calc.selection.Modifiers`)."""

    hit_mod: int | None = None
    wound_mod: int | None = None
    ap_mod: int | None = None
    damage_mod: int | None = None
    crit_hit: Plus | None = None
    crit_wound: Plus | None = None
    reroll_hits: Reroll | None = None
    reroll_wounds: Reroll | None = None
    reroll_damage: bool | None = None
    invuln: Plus | None = None
    fnp: Plus | None = None
    fnp_mortal: Plus | None = None
    save_mod: int | None = None
    reroll_saves: Literal["ones", "fails"] | None = None
    damage_reduction: Annotated[int, msgspec.Meta(ge=0)] | None = None
    half_damage: bool | None = None
    target_stealth: bool | None = None


class UnitSpec(msgspec.Struct, forbid_unknown_fields=True):
    """An attacker or a target: datasheet name, size, named loadout, explicit weapons ('NAME
    xN', attacker only), attached Leaders, allocation order and the wounded model's wounds left
    (target only)."""

    name: str
    models: Annotated[int, msgspec.Meta(ge=1)] | None = None
    loadout: str | None = None
    # an empty list is refused: it would silently run the default loadout
    weapons: Annotated[
        list[Annotated[str, msgspec.Meta(pattern=r"\S")]], msgspec.Meta(min_length=1)
    ] = []
    leader: NameList = []
    allocation: NameList | None = None
    wounds_left: Annotated[int, msgspec.Meta(ge=1)] | None = None


class StepSpec(msgspec.Struct, forbid_unknown_fields=True):
    """One step of a run's ``sequence`` written as a mapping: an attacker and that activation's
    phase, conditions, modifiers, effects, weapon order, [PRECISION] target and added abilities
    (each, when missing, the run's or the defaults')."""

    attacker: str | UnitSpec
    phase: Literal["shooting", "fight"] | None = None
    conditions: ConditionsSpec | None = None
    modifiers: ModifiersSpec | None = None
    effects: list[str] | None = None
    order: NameList | None = None
    precision_target: Annotated[str, msgspec.Meta(pattern=r"\S")] | None = None
    add_abilities: list[Annotated[str, msgspec.Meta(pattern=r"\S")]] | None = None


SideTexts = (
    Annotated[str, msgspec.Meta(pattern=r"\S")]
    | Annotated[list[Annotated[str, msgspec.Meta(pattern=r"\S")]], msgspec.Meta(min_length=1)]
)


class ExchangeSpec(msgspec.Struct, forbid_unknown_fields=True):
    """A run's ``exchange``: each side's activations as ``calc exchange --side-a``/``--side-b``
    take them (one text, or a list of one shoot and one fight activation), and its length and
    order (``rounds`` or ``turns``, ``first``, ``fight_first``)."""

    side_a: SideTexts
    side_b: SideTexts
    rounds: Annotated[int, msgspec.Meta(ge=1, le=10)] | None = None
    turns: Annotated[int, msgspec.Meta(ge=1, le=20)] | None = None
    first: Literal["a", "b"] | None = None
    fight_first: Literal["a", "b"] | None = None


class RunSpec(msgspec.Struct, forbid_unknown_fields=True):
    """One run: an attacker against one or more targets, a ``sequence`` of activations
    (each a :class:`StepSpec` or a quoted ``calc sequence`` step) repeated ``repeat`` times,
    or an ``exchange`` of two units (:class:`ExchangeSpec`)."""

    attacker: str | UnitSpec | None = None
    sequence: Annotated[list[str | StepSpec], msgspec.Meta(min_length=1)] | None = None
    exchange: ExchangeSpec | None = None
    repeat: Annotated[int, msgspec.Meta(ge=1)] | None = None  # steps × repeat: at most 60
    target_set: Annotated[str, msgspec.Meta(pattern=r"\S")] | None = None
    name: str | None = None
    phase: Literal["shooting", "fight"] | None = None
    target: str | UnitSpec | None = None
    targets: list[str | UnitSpec] | None = None
    conditions: ConditionsSpec | None = None
    modifiers: ModifiersSpec | None = None
    effects: list[str] | None = None
    edition: Literal["10", "11", 10, 11] | None = None
    method: Literal["exact", "sample", "both"] | None = None
    trials: Annotated[int, msgspec.Meta(ge=2, le=100_000_000)] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None
    order: NameList | None = None
    precision_target: Annotated[str, msgspec.Meta(pattern=r"\S")] | None = None
    add_abilities: list[Annotated[str, msgspec.Meta(pattern=r"\S")]] | None = None
    target_stealth: bool | None = None


class DefaultsSpec(msgspec.Struct, forbid_unknown_fields=True):
    """The top level of a batch file: defaults shared by every run, and the runs (validated one
    by one with :class:`RunSpec`)."""

    runs: Annotated[list[Any], msgspec.Meta(min_length=1)]
    title: str | None = None
    phase: Literal["shooting", "fight"] | None = None
    targets: list[str | UnitSpec] | None = None
    target_set: Annotated[str, msgspec.Meta(pattern=r"\S")] | None = None
    conditions: ConditionsSpec | None = None
    modifiers: ModifiersSpec | None = None
    effects: list[str] | None = None
    edition: Literal["10", "11", 10, 11] | None = None
    method: Literal["exact", "sample", "both"] | None = None
    trials: Annotated[int, msgspec.Meta(ge=2, le=100_000_000)] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None
    order: NameList | None = None
    precision_target: Annotated[str, msgspec.Meta(pattern=r"\S")] | None = None
    add_abilities: list[Annotated[str, msgspec.Meta(pattern=r"\S")]] | None = None
    target_stealth: bool | None = None
    datasheets: list[Annotated[str, msgspec.Meta(pattern=r"\S")]] = []


# ---------------------------------------------------------------------------------------------
# Loading


@dataclass
class RawRun:
    """One entry of ``runs`` as written: its index, data and line (1-based)."""

    index: int
    data: Any
    line: int | None
    # why the run as written out in full through its aliases is too large to check (set by
    # load_batch: it is checked on a copy cut short instead); "": it is not
    too_large: str = ""

    @property
    def label(self) -> str:
        """The run's ``name`` if it has a usable one, else ``runs[i]``."""
        if isinstance(self.data, dict) and isinstance(self.data.get("name"), str):
            return self.data["name"]
        return f"runs[{self.index}]"


@dataclass
class Batch:
    """A loaded batch file: ``defaults`` (validated), the ``runs`` (not yet validated), the
    document as read (:class:`~wh40k_calc.yamlio.Parsed`: its node tree, for line numbers, is
    composed when an error first asks for one) and the datasheet folders it names
    (absolute)."""

    path: Path
    defaults: DefaultsSpec
    runs: list[RawRun]
    source: Any  # yamlio.Parsed (yamlio imports PyYAML: not at start-up)
    datasheets: list[Path]

    @property
    def node(self) -> Any:
        """The batch file's YAML node tree (composed once, when first asked for)."""
        return self.source.node

    def line_of(self, parts: list[str | int], run: RawRun | None = None) -> int | None:
        """The line of the field at ``parts`` (keys and indexes) inside ``run`` (or the top
        level); the deepest part that exists when the field itself does not."""
        node = self.node
        if run is not None:
            node = _child(node, "runs")
            node = _child(node, run.index) if node is not None else None
            if node is None:
                return run.line
        return _line_in(node, parts)


_MERGE_TAG = "tag:yaml.org,2002:merge"


def _child(node: Any, key: str | int) -> Any:
    """The node of ``key`` in a mapping node (or of index ``key`` in a sequence node); None
    where it has none. A key written in the mapping itself wins over one it merges (``<<:
    *anchor``): in a tree PyYAML constructed, the merged pairs stand first (so the last
    match is the one the data holds); in a composed tree, the mappings ``<<`` merges are
    searched after the mapping's own keys, in the order PyYAML lets them win (an earlier
    ``<<`` before a later one, the first mapping of a ``<<`` list before the next)."""
    import yaml

    if isinstance(node, yaml.MappingNode) and isinstance(key, str):
        want = _norm_key(key)
        merged: list[Any] = []
        for k, v in reversed(node.value):
            if not isinstance(k, yaml.ScalarNode):
                continue
            if k.tag == _MERGE_TAG:
                merged[:0] = v.value if isinstance(v, yaml.SequenceNode) else [v]
            elif _norm_key(k.value) == want:
                return v
        for m in merged:
            found = _child(m, key)
            if found is not None:
                return found
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        return node.value[key]
    return None


def _line_in(node: Any, parts: list[str | int]) -> int | None:
    if node is None:
        return None
    line = node.start_mark.line + 1
    for p in parts:
        node = _child(node, p)
        if node is None:
            break
        line = node.start_mark.line + 1
    return line


def _norm_key(key: str) -> str:
    return key.replace("-", "_")


def _normalise(data: Any) -> Any:
    """Accept ``half-range`` for ``half_range`` in condition and modifier mappings (a run's and
    each of its ``sequence`` steps'), and a list of names for ``conditions``."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    if isinstance(out.get("sequence"), list):
        out["sequence"] = [_normalise(step) for step in out["sequence"]]
    cond = out.get("conditions")
    if isinstance(cond, list) and all(isinstance(c, str) for c in cond):
        out["conditions"] = {_norm_key(c.strip()): True for c in cond}
    elif isinstance(cond, dict):
        out["conditions"] = {_norm_key(str(k)): v for k, v in cond.items()}
    mods = out.get("modifiers")
    if isinstance(mods, dict):
        out["modifiers"] = {_norm_key(str(k)): v for k, v in mods.items()}
    for key in ("precision-target", "add-abilities", "target-stealth", "target-set"):
        if key in out and _norm_key(key) not in out:
            out[_norm_key(key)] = out.pop(key)
    ex = out.get("exchange")
    if isinstance(ex, dict):
        out["exchange"] = {_norm_key(str(k)): v for k, v in ex.items()}
    return out


def split_msgspec_error(
    exc: msgspec.ValidationError, root: type, data: Any
) -> tuple[str | None, list[str | int], str]:
    """(dotted field, path parts for its line, message in our words) of a msgspec error
    converting ``data`` to ``root`` (:func:`wh40k_calc.validation.explain`); an unknown
    field's line is its own."""
    from .validation import dotted, explain, unknown_field

    parts, msg = explain(exc, root, data)
    extra = unknown_field(exc)
    return dotted(parts) or None, [*parts, *([extra] if extra else [])], msg


def load_batch(path: Path) -> Batch:
    """Read a batch file and validate its top level.

    Args:
        path: the YAML file.

    Returns:
        The :class:`Batch`; its runs are validated later, one by one, by :func:`parse_run`.

    Raises:
        BatchError: unreadable file, malformed YAML (with line and column), not a mapping,
            an invalid top-level field (named, with its line), no runs, or more than
            :data:`MAX_RUNS`.
    """
    from .yamlio import YamlError, read_data

    try:
        source = read_data(path, "batch file")
    except YamlError as exc:
        raise BatchError(str(exc)) from None
    data = source.data
    if data is None:
        raise BatchError(f"{path}: the batch file is empty (it needs a list of runs)")
    if not isinstance(data, dict):
        raise BatchError(f"{path}: expected a mapping with 'runs' (and defaults) at the top level")
    # no alias: nothing shared; the sizes of the values read are counted as they were read
    expansion = _Expansion(source.sizes) if "*" in source.text else None

    def refuse(exc: msgspec.ValidationError, data: Any) -> BatchError:
        field, parts, msg = split_msgspec_error(exc, DefaultsSpec, data)
        line = _line_in(source.node, parts) if parts else None
        loc = f":{line}" if line else ""
        return BatchError(f"{path}{loc}: {field + ': ' if field else ''}{msg}")

    if expansion is not None:
        top = {k: v for k, v in _normalise(data).items() if k != "runs"}
        if expansion.size(top) > MAX_VALUES:
            cut = _cut(top, _schema_depth(DefaultsSpec))
            if _Expansion().size(cut) <= MAX_VALUES:
                cut["runs"] = data.get("runs")  # list[Any]: not walked by the conversion
                try:
                    msgspec.convert(cut, DefaultsSpec, strict=True)
                except msgspec.ValidationError as exc:
                    raise refuse(exc, cut) from None
            raise BatchError(f"{path}: the defaults (all but 'runs') {_TOO_LARGE}")
    try:
        defaults = msgspec.convert(_normalise(data), DefaultsSpec, strict=True)
    except msgspec.ValidationError as exc:
        raise refuse(exc, _normalise(data)) from None
    if len(defaults.runs) > MAX_RUNS:
        raise BatchError(
            f"{path}: {len(defaults.runs):,} runs; a batch file takes at most {MAX_RUNS:,} "
            "(split it into several files)"
        )
    runs = [RawRun(i, item, line) for i, (item, line) in enumerate(_run_lines(source, defaults))]
    # the list of runs written out within the limit holds each run, and each distinct one once:
    # none is too large then, nor are they together (not counted run by run: a tenth of
    # loading a generated batch of 2,000, but its YAML)
    if expansion is not None and expansion.size(data.get("runs")) > MAX_VALUES:
        _mark_too_large(runs, expansion)
    folders = []
    for i, d in enumerate(defaults.datasheets):
        p = Path(d).expanduser()
        if not p.is_absolute():
            p = path.parent / p
        if not p.is_dir():
            line = _line_in(source.node, ["datasheets", i])
            raise BatchError(
                f"{path}{f':{line}' if line else ''}: datasheets[{i}]: folder {d!r} does not exist"
            )
        folders.append(p)
    return Batch(path, defaults, runs, source, folders)


def _mark_too_large(runs: list[RawRun], expansion: "_Expansion") -> None:
    """Set :attr:`RawRun.too_large` of each of ``runs`` that written out in full is over
    :data:`MAX_VALUES`, or that takes the distinct runs so far over it together."""
    counted: set[int] = set()  # a run repeated by an alias is one run (built once)
    total = 0
    for raw in runs:
        size = expansion.size(raw.data)
        if size > MAX_VALUES:
            raw.too_large = f"the run {_TOO_LARGE}"
        elif id(raw.data) not in counted and total + size > MAX_VALUES:
            raw.too_large = f"the runs up to this one, together, {_TOO_LARGE}"
        elif id(raw.data) not in counted:
            counted.add(id(raw.data))
            total += size


def _run_lines(source: Any, defaults: DefaultsSpec) -> list[tuple[Any, int | None]]:
    """Each run of ``defaults.runs`` and the line it starts on: from the lines the quick
    reading kept of the ``runs`` list (``Parsed.item_lines``), else from the node tree."""
    runs = source.data.get("runs")
    lines = source.item_lines.get(id(runs)) if isinstance(runs, list) else None
    if lines is not None and len(lines) == len(defaults.runs):
        return list(zip(defaults.runs, lines, strict=True))
    runs_node = _child(source.node, "runs")
    out: list[tuple[Any, int | None]] = []
    for i, item in enumerate(defaults.runs):
        item_node = _child(runs_node, i) if runs_node is not None else None
        out.append((item, item_node.start_mark.line + 1 if item_node else None))
    import yaml

    from .yamlio import top_list_lines

    items = runs_node.value if isinstance(runs_node, yaml.SequenceNode) else []
    if len({id(n) for n in items}) < len(items):  # a run repeated whole: its alias's own line
        lines = top_list_lines(source.text, lambda key: _norm_key(key) == "runs")
        if lines is not None and len(lines) == len(out):
            out = [(item, line) for (item, _), line in zip(out, lines, strict=True)]
    return out


def parse_run(batch: Batch, raw: RawRun) -> RunSpec:
    """Validate one run of ``batch``.

    Raises:
        RunFieldError: naming the field (dotted path inside the run) and its line.
    """
    if not isinstance(raw.data, dict):
        raise RunFieldError(
            None,
            "expected a mapping with at least 'attacker' (and 'name', 'targets', ...)",
            raw.line,
        )
    data = _normalise(raw.data)
    if raw.too_large:  # checked on a copy cut short: its error, else the size's
        data = _cut(data, _schema_depth(RunSpec))
        if _Expansion().size(data) > MAX_VALUES:
            raise RunFieldError(None, raw.too_large, raw.line)
    try:
        spec = msgspec.convert(data, RunSpec, strict=True)
    except msgspec.ValidationError as exc:
        field, parts, msg = split_msgspec_error(exc, RunSpec, data)
        msg = _misplaced(parts, msg)
        raise RunFieldError(field, msg, batch.line_of(parts, raw)) from None
    if raw.too_large:  # the copy is valid: the run is only too large
        raise RunFieldError(None, raw.too_large, raw.line)
    return spec


_TOO_LARGE = (
    f"written out in full (YAML aliases expanded) would be more than {MAX_VALUES:,} values "
    "(list items, mapping keys and values); a batch file takes at most that"
)


class _Expansion:
    """The size of values as written out in full (every alias expanded): 1 for a scalar, and
    for a list or mapping 1 plus its items (a mapping: its keys and values). Each distinct
    list or mapping is walked once (its size kept by ``id``: the data keeps it alive), so the
    count costs what the file does, not what it expands to; a value inside itself (``&a
    [*a]``) is endless, counted as more than :data:`MAX_VALUES`."""

    def __init__(self, known: Mapping[int, int] | None = None) -> None:
        """``known``: sizes counted already (by ``id``: :attr:`wh40k_calc.yamlio.Parsed.sizes`,
        whose data keeps the values alive), not walked again."""
        self.sizes: dict[int, int] = dict(known or {})

    def size(self, value: Any) -> int:
        """The size of ``value`` written out (at most a little more than 2^63)."""
        sizes, cap = self.sizes, 2**63
        path: set[int] = set()  # the lists and mappings being counted (the walk's path)
        stack: list[tuple[Any, bool]] = [(value, False)]
        while stack:
            obj, done = stack.pop()
            if not isinstance(obj, (list, dict)) or (not done and id(obj) in sizes):
                continue
            items = [*obj, *obj.values()] if isinstance(obj, dict) else obj
            if done:
                total = 1 + sum(sizes.get(id(i), 1) for i in items)
                sizes[id(obj)] = min(total, cap)
                path.discard(id(obj))
            elif id(obj) in path:
                return MAX_VALUES + 1  # inside itself: endless
            else:
                path.add(id(obj))
                stack.append((obj, True))
                stack.extend((i, False) for i in items if isinstance(i, (list, dict)))
        return sizes.get(id(value), 1)


def _cut(value: Any, depth: int, made: dict[tuple[int, int], Any] | None = None) -> Any:
    """A copy of ``value`` with every list or mapping ``depth`` levels down made empty (a
    shared one copied once per level, so the copy costs at most ``depth`` times the file)."""
    if not isinstance(value, (list, dict)):
        return value
    made = {} if made is None else made
    key = (id(value), depth)
    if key not in made:
        if depth <= 0:
            made[key] = type(value)()
        elif isinstance(value, dict):
            made[key] = {k: _cut(v, depth - 1, made) for k, v in value.items()}
        else:
            made[key] = [_cut(v, depth - 1, made) for v in value]
    return made[key]


def _schema_depth(root: type) -> int:
    """How deeply lists and mappings nest in a valid ``root`` (a msgspec Struct, itself one
    level): no valid document holds one deeper."""
    import msgspec

    def depth(kind: Any) -> int:
        name = type(kind).__name__
        if name == "StructType":
            return 1 + max((depth(f.type) for f in kind.fields), default=0)
        if name in ("ListType", "DictType"):
            return 1 + depth(getattr(kind, "item_type", None) or kind.value_type)
        if name == "UnionType":
            return max(depth(t) for t in kind.types)
        return 0

    return depth(msgspec.inspect.type_info(root))


_TARGET_FIELDS = ("target", "targets", "target_set", "target_stealth")


def _misplaced(parts: list[str | int], msg: str) -> str:
    """An unknown field's message, told where the field belongs: a run's field (the target,
    the engine settings) written in a sequence step, or a condition or modifier written
    beside ``conditions``/``modifiers`` rather than in them."""
    if len(parts) < 1 or not isinstance(parts[-1], str) or not msg.startswith("unknown field"):
        return msg
    name, at = parts[-1], parts[:-1]
    if at and at[-1] == "conditions" and "did you mean" not in msg:
        # a condition written as a list entry is a field here: say which one was meant
        from .fuzzy import did_you_mean

        fields = list(ConditionsSpec.__struct_fields__)
        hint = did_you_mean(name.replace("-", "_"), fields)
        return f"unknown condition {name!r}{hint} (conditions: {', '.join(fields)})"
    in_step = len(at) == 2 and at[0] == "sequence"
    if in_step and name in _TARGET_FIELDS:
        return f"unknown field {name!r}: the target belongs to the run, not to a step"
    if in_step and name in RunSpec.__struct_fields__ and name not in StepSpec.__struct_fields__:
        return f"unknown field {name!r}: {name} belongs to the run, not to a step"
    if not (in_step or at == []) or "did you mean" in msg:
        return msg
    from .fuzzy import suggest

    for group, spec in (("conditions", ConditionsSpec), ("modifiers", ModifiersSpec)):
        key = name.replace("-", "_")
        if key in spec.__struct_fields__:
            return f"unknown field {name!r}: it goes under '{group}:'"
        hit = suggest(key, list(spec.__struct_fields__), limit=1)
        if hit:
            return f"unknown field {name!r}; did you mean {hit[0]!r} (under '{group}:')?"
    return msg


def names(value: str | list[str] | None) -> tuple[str, ...]:
    """A name list written either as a list or as a comma-separated string."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(n.strip() for n in value.split(",") if n.strip())
    return tuple(v.strip() for v in value if v.strip())

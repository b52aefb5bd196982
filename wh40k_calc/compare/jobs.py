"""Jobs of ``calc compare``: (run, target) activations built from a batch file or from
command-line options, resolved exactly as ``calc shoot``/``calc fight`` resolve one, into rows
carrying the contract object and the compared figures."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

import msgspec
from msgspec import Struct
from msgspec.structs import astuple

from ..batch import (
    Batch,
    BatchError,
    ConditionsSpec,
    RawRun,
    RunFieldError,
    RunSpec,
    StepSpec,
    UnitSpec,
    names,
    parse_run,
)
from ..datasheet import Datasheet, DatasheetError, norm_name
from ..notes import OptionNote, StepNote
from ..records import field_names, replace
from ..selection import (
    AddedAbility,
    Conditions,
    Modifiers,
    OptionError,
    Selection,
    SelectionError,
    UnitChoice,
    WeaponsError,
    allocation_choice,
    precision_target_value,
)
from ..sequence.steps import MAX_STEPS, Step, StepError, repeated
from ..wording import count, join_words
from .alike import AlikeRuns

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..engine.outcome import Outcome
    from ..resolve import Result
    from ..target_set import SetEntry

# the options a run (or a mapping step) gives as fields of its own: option -> field
STEP_OPTIONS = {"--order": "order", "--precision-target": "precision_target"}
# the options given once per entry of a list field: option -> field (``effects[1]``)
LIST_OPTIONS = {"--effect": "effects", "--add-ability": "add_abilities"}
_encode_json = msgspec.json.Encoder().encode  # a unit spec as the key of its checked choice
USER_ERRORS: tuple[type[Exception], ...] = (DatasheetError, SelectionError, LookupError, ValueError)
MAX_ROWS = 10_000  # jobs (a run against each of its targets) in one batch

# ---------------------------------------------------------------------------------------------
# Jobs, rows and errors


class Job(Struct, frozen=True):
    """One (run, target) activation to resolve: the run's name, the Selection, the engine
    settings, and for error messages a label for the target and the batch file and line.

    A run with a ``sequence`` has its ``steps`` (repeats included; ``selection`` is the first
    step's): the job is then the whole sequence, as ``calc sequence`` resolves it.

    ``detail``: the whole contract object (``--json``); False: only what the table and the
    CSV show (:func:`job_outcome`), so that distributions they never show are not computed.
    ``sampler_set``: the sampler settings given (``--trials``, ``seed``, ...), noted as having
    no effect where only the exact engine runs.
    ``explain``: ``--explain`` (an activation's or a sequence's ``attribution`` and
    ``wasted``; an exchange has none).
    ``notes``: False where the output shows no note (``--csv``): an activation's object then
    lacks the notes only words need, never worked out (``resolve``'s ``notes``).
    ``points``: the attacker's points where they are not the datasheets' (an army list's
    own): its row's ``attacker.points`` and efficiency are then these (the datasheets' kept
    as ``attacker.points_datasheet``); None: the datasheets'."""

    run: str
    selection: Selection
    method: str = "exact"
    trials: int | None = None  # None: the default number, within a time budget
    seed: int = 40_000
    target_label: str = ""
    source: str | None = None
    line: int | None = None
    steps: tuple[Step, ...] = ()
    detail: bool = True
    sampler_set: tuple[str, ...] = ()  # trials and seed set, as written (for a no-effect note)
    points: float | None = None
    exchange: Any = None  # an exchange run: its ExchangeJob (wh40k_calc.exchange.batch)
    explain: bool = False  # --explain: the attribution and the damage wasted in the object
    notes: bool = True  # False: no note is shown (--csv), none worked out that words alone need
    step_weapons: tuple[int, ...] = ()  # the 1-based steps written as mappings naming weapons
    # (option, batch field, its line) of the fields that stand for an option
    # (("--allocation", "targets[1].allocation", 7); ("--weapon", "attacker.weapons", None)):
    # an OptionError then names the field
    option_fields: tuple[tuple[str, str, int | None], ...] = ()
    step_lines: tuple[int | None, ...] = ()  # a sequence run's steps' lines in the batch file
    # (step, option, batch field) of the mapping steps' run-wide options (STEP_OPTIONS), from
    # the step itself, the run or the top level ((1, "--order", "sequence[0].order"))
    step_fields: tuple[tuple[int, str, str], ...] = ()

    def field_notes(self, obj: dict) -> dict:
        """``obj`` (a row's contract object) with each note about an option this job's file
        gave as a field (an :class:`~wh40k_calc.notes.OptionNote` of one of
        :attr:`option_fields`: ``--weapon: ...``, ``--precision-target leader: ...``; a
        sequence step's, a :class:`~wh40k_calc.notes.StepNote`, of its own fields) opening
        with that field instead (``attacker.weapons: ...``, ``precision_target: leader:
        ...``), as its errors are named. A note is known by its type, never by its text."""
        fields: dict[str, str] = {}  # a list field's notes name the list (effects)
        for o, f, _ in self.option_fields:
            fields.setdefault(o, f.rsplit("[", 1)[0] if o in LIST_OPTIONS else f)
        steps: dict[int, dict[str, str]] = {i: {"--weapon": "attacker.weapons"} for i in
                                            self.step_weapons}  # fmt: skip
        for i, option, field in self.step_fields:
            steps.setdefault(i, {})[option] = STEP_OPTIONS.get(option, field)
        notes = obj.get("notes") or []
        named = [_field_note(n, fields, steps) for n in notes]
        return obj if named == notes else {**obj, "notes": named}

    def field_error(self, exc: Exception) -> tuple[str, str, int | None] | None:
        """(field, reason, line or None) of an error the batch file should name by its own
        field: an option's value refused (:class:`~wh40k_calc.selection.OptionError`, named
        weapons among them), also inside a sequence's step, where the file gave it as one of
        :attr:`option_fields` or as a mapping step's weapons (``sequence[0].attacker.weapons``,
        shown as ``step 1: attacker.weapons``, whose phase advice is the step's); None where the
        option is the message's (the command line, a quoted step, ``compare --attacker``)."""
        index = exc.index if isinstance(exc, OptionError) else None
        if isinstance(exc, OptionError):
            option, detail = exc.option, exc.detail
        elif isinstance(exc, StepError) and exc.option_detail is not None:
            option, detail = exc.option_detail
            index = exc.option_index
            if option == "--weapon":
                if exc.index not in self.step_weapons:
                    return None
                reason = detail.replace("give the run phase:", "give the step phase:")
                return f"sequence[{exc.index - 1}].attacker.weapons", reason, None
            if option in STEP_OPTIONS or option in LIST_OPTIONS:  # a mapping step's
                field = next(
                    (f for i, o, f in self.step_fields if i == exc.index and o == option), None
                )  # the step's line: its own field, or the run's it takes
                if field is not None and option in LIST_OPTIONS and index is not None:
                    field = f"{field}[{index}]"
                return None if field is None else (field, detail, self.step_line(exc))
        else:
            return None
        if option in LIST_OPTIONS:  # one field per entry; none named: the list
            named = [(f, line) for o, f, line in self.option_fields if o == option]
            if not named:
                return None
            if index is not None and index < len(named):
                return named[index][0], detail, named[index][1]
            return named[0][0].rsplit("[", 1)[0], detail, named[0][1]
        for opt, field, line in self.option_fields:
            if opt == option:
                return field, detail, line
        return None

    def step_line(self, exc: Exception) -> int | None:
        """The batch file's line of the step a StepError ``exc`` is about (None: unknown)."""
        if isinstance(exc, StepError) and 0 < exc.index <= len(self.step_lines):
            return self.step_lines[exc.index - 1]
        return None


@dataclass
class RunError:
    """A run (or one of its targets) that could not be resolved.

    ``run`` is the run's name (None for the batch as a whole), ``field`` the field at fault
    (dotted, inside the run), ``source``/``line`` the batch file and line when known.
    """

    run: str | None
    message: str
    field: str | None = None
    source: str | None = None
    line: int | None = None
    target: str | None = None

    def __str__(self) -> str:
        return self.describe()

    def describe(self, runs: list[str] | None = None) -> str:
        """The error as one line; ``runs``: the runs it affects, when several have it."""
        loc = ""
        if self.source:
            loc = f"{self.source}:{self.line}: " if self.line else f"{self.source}: "
        who = f"run {self.run!r}" if self.run is not None else ""
        if runs and len(runs) > 1:
            names = [repr(r) for r in runs]
            who = f"runs {join_words(names)}"
        if self.target:
            who += f" against {self.target}"
        head = f"{who}: " if who else ""
        fld = f"{step_field(self.field)}: " if self.field else ""
        return f"{loc}{head}{fld}{self.message}"


def step_field(field: str) -> str:
    """A field inside a run's sequence as ``calc sequence`` counts steps, from 1:
    ``sequence[0].conditions`` -> ``step 1: conditions``; other fields unchanged."""
    import re

    m = re.match(r"(\(top level\) )?sequence\[(\d+)\]\.?", field)
    if m is None:
        return field
    rest = field[m.end() :]
    return f"step {int(m.group(2)) + 1}" + (f": {rest}" if rest else "")


@dataclass
class Row:
    """One resolved (run, target): the contract object (``report.to_json`` plus ``"run"``) and
    the figures compared (see :func:`row_figures`)."""

    job: Job
    result: dict[str, Any]
    figures: dict[str, float | None]

    @property
    def target_key(self) -> tuple:
        """What makes two rows' targets the same (name with Leaders, size, loadout, allocation,
        wounds left, and the rules edition: each edition's datasheet of a unit is its own
        target, with its own points and profile)."""
        t = self.job.selection.target
        return (
            self.result["target"]["name"],
            self.result["target"]["models"],
            norm_name(t.loadout) if t.loadout and norm_name(t.loadout) != "default" else "",
            self.job.selection.allocation,
            self.job.selection.target_wounds_left,
            str(self.result["edition"]),
        )


def row_figures(obj: dict[str, Any], points: float | None = None) -> dict[str, float | None]:
    """The compared figures of one contract object (``report.to_json``, or a sequence's
    object, whose attacker points count every attacking unit of the plan once and whose
    losses add up every step's); ``points`` the attacker's points where they are not the
    object's (an army list's own, :attr:`Job.points`).

    Returns a dict with ``damage`` (expected damage), ``models`` (expected models destroyed),
    ``wipe`` (P(every target model destroyed): the last kill-table entry), ``efficiency``
    (target points destroyed per 100 points of attacker: the target's points per model times
    expected models destroyed, over the attacker's points, times 100; None for a 0-point
    attacker, or where either side's source lists no points) and ``losses`` (the attacker's
    expected models lost to Hazardous; an exchange's: side A's models lost in it).
    """
    models = float(obj["expected"]["models_destroyed"])
    kill = obj["kill_table"]
    att_pts = float(obj["attacker"]["points"] if points is None else points)
    tgt = obj["target"]
    per_model = float(tgt["points"]) / tgt["models"] if tgt["models"] else 0.0
    own = points is not None or obj["attacker"].get("points_listed", True)
    listed = own and tgt.get("points_listed", True)
    eff = round(per_model * models / att_pts * 100, 6) if att_pts > 0 and listed else None
    return {
        "damage": float(obj["expected"]["damage"]),
        "models": models,
        "wipe": float(kill[-1]["at_least"]) if kill else 0.0,
        "efficiency": eff,
        "losses": float(obj["attacker_losses"]["models_destroyed"]),
    }


def job_outcome(job: Job) -> tuple[dict[str, Any], dict[str, float | None]]:
    """Resolve one job: its contract object (``report.to_json``, without ``"run"``) and its
    compared figures. Without ``job.detail``, the object leaves out what only ``--json``
    shows, never computed: a sequence's ``steps`` (their own kill tables and damage
    distributions) and an activation's exact ``damage_distribution`` (its figure pass); an
    activation's exact object (without ``--explain``) is then only what the table and the
    CSV read (``report.table_json``).

    Raises:
        SelectionError, LookupError, ValueError, DatasheetError: as ``resolve`` does.
    """
    if job.exchange is not None:
        from ..exchange.output import to_json_exchange
        from ..exchange.run import run_exchange

        ex = run_exchange(job.exchange.setup, job.method, job.trials, job.seed)
        obj = to_json_exchange(ex)
        if job.explain:
            obj["notes"] = [
                *obj["notes"],
                OptionNote("--explain", "an exchange gives no attribution"),
            ]
        return obj, row_figures(obj)
    if job.steps:
        from ..sequence.output import to_json_sequence
        from ..sequence.run import run_sequence

        seq = run_sequence(list(job.steps), job.method, job.trials, job.seed)
        if seq.method == "exact" and job.sampler_set:
            seq.notes.append(_sampler_unused(job))
        if job.explain:
            from ..sequence.explain import explain_sequence

            seq = explain_sequence(seq, job.seed)
        obj = to_json_sequence(seq, steps=job.detail)
        last = seq.primary(len(seq.steps) - 1)
        n = seq.steps[0].result.activation.target.models
        return obj, {**row_figures(obj, job.points), **wipe_odds(last, n)}
    report, resolving = _resolving()
    damage = job.detail or job.explain  # the table and the CSV never read it
    result = resolving.resolve(
        job.selection,
        job.method,
        job.trials,
        job.seed,
        waste=job.explain,
        damage=damage,
        words=job.notes or job.explain,
    )
    if result.sample is None and job.sampler_set:
        result.notes.append(_sampler_unused(job))
    if job.explain:
        from ..explain import explained

        result = explained(result, seed=job.seed)
    if job.detail or result.method == "sample":
        obj = report.to_json(result)
    elif job.explain or result.method != "exact":
        obj = report.to_json(result, damage=False)  # its exact figure pass never run
    else:
        obj = _table_object(result)
    odds = wipe_odds(result.primary, result.plan.target.models)
    return obj, {**row_figures(obj, job.points), **odds}


WIPE_ODDS = ("wipe_possible", "wipe_certain")


def wipe_odds(o: "Outcome", models: int) -> dict[str, float | None]:
    """Whether destroying every one of the target's ``models`` is possible and whether it is
    certain, read off ``o``'s own distribution (the contract object's kill table is rounded to
    12 decimals: a wipe of 3e-13 is 0.0 there, and one short of certain by 1e-13 is 1.0), so
    that the table's Wipe column never shows a possible wipe as 0.0% nor an uncertain one as
    100.0% (``table.probability_text``). Not in the CSV or the JSON: their ``p_wipe`` is the
    rounded figure."""
    md = o.models_destroyed_distribution
    wipe = float(md[models]) if len(md) > models else 0.0
    return {"wipe_possible": wipe > 0.0, "wipe_certain": o.p_some_left(models) == 0.0}


def _sampler_unused(job: Job) -> str:
    from ..resolve import sampler_unused_note

    note = sampler_unused_note(job.sampler_set)
    assert note is not None
    return note


def _table_object(result: "Result") -> dict[str, Any]:
    """What the table and the CSV read of ``report.to_json`` of an exact ``result``
    (``report.table_json``: no damage distribution, its figure pass never run, nor anything
    else only ``--json`` shows)."""
    assert result.exact is not None
    return _resolving()[0].table_json(result)


@cache
def _resolving() -> tuple[ModuleType, ModuleType]:
    """The ``report`` and ``resolve`` modules, imported when the first job is resolved (not
    with this module: building and checking jobs loads no engine nor numpy), once: an import
    in the function each job calls cost about 1.2 us each, three a job."""
    from .. import report, resolve

    return report, resolve


def _field_note(note: str, fields: dict[str, str], steps: dict[int, dict[str, str]]) -> str:
    """``note`` opening with the field that stands for its option (``fields``: option ->
    field), where it is a note about one of them (:class:`~wh40k_calc.notes.OptionNote`); a
    sequence step's note (:class:`~wh40k_calc.notes.StepNote`: ``step 2: --weapon: ...``)
    with that step's field (``steps``: step -> option -> field). Any other note as it is."""
    if isinstance(note, StepNote):
        own = _field_note(note.note, steps.get(note.step, {}), {})
        return note if own is note.note else note.with_note(own)
    if isinstance(note, OptionNote) and note.option in fields:
        return note.named(fields[note.option])
    return note


def run_job(job: Job) -> Row:
    """Resolve one job and build its row.

    Raises:
        SelectionError, LookupError, ValueError, DatasheetError: as ``resolve`` does.
    """
    obj, figures = job_outcome(job)
    return Row(job, {"run": job.run, **job.field_notes(obj)}, figures)


# ---------------------------------------------------------------------------------------------
# Building jobs: shared by batch files and command-line options


_CONDITIONS = tuple(field_names(ConditionsSpec) or ())  # a batch file's condition names


class _Lookup:
    """Catalog look-ups cached for one compare (``Catalog.find`` lists files on every call),
    and the unit choices already checked (a batch names the same units run after run)."""

    def __init__(self, cat: "Catalog", factions: dict[str, str | None] | None = None):
        self.cat = cat
        self.factions = factions or {}  # role -> faction (--faction, --target-faction)
        self.cache: dict[tuple[str, str | None, str | None], Datasheet | Exception] = {}
        self.choices: dict[tuple[str, str, bytes], UnitChoice] = {}
        self.noted: dict[tuple[int, ...], tuple[str, ...]] = {}  # by the datasheets' identity
        # the same by the unit choices' identity (kept alive here: their ids stay theirs)
        self.noted_choices: dict[tuple[int, ...], tuple[tuple[UnitChoice, ...], tuple]] = {}

    def find(self, name: str, role: str = "attacker", edition: str | None = None) -> Datasheet:
        from ..catalog import AmbiguousUnitError

        faction = self.factions.get(role)
        key = (norm_name(name), faction, edition)
        if key not in self.cache:
            try:
                self.cache[key] = self.cat.find(name, faction, edition)
            except AmbiguousUnitError as exc:  # the command line's option for the side
                option = {"attacker": "--faction", "target": "--target-faction"}.get(role, "")
                self.cache[key] = exc.saying(option) if role in self.factions else exc
            except USER_ERRORS as exc:
                self.cache[key] = exc
        hit = self.cache[key]
        if isinstance(hit, Exception):
            raise hit
        return hit

    def notes(self, *choices: UnitChoice) -> tuple[str, ...]:
        """The catalog's notes on these units' datasheets (several user files for one),
        found by the choices themselves first (a batch asks for each of its thousand pairs of
        the units it checked once)."""
        known = self.noted_choices.get(tuple(map(id, choices)))
        if known is not None:
            return known[1]
        sheets = [ds for c in choices for ds in (c.datasheet, *c.leaders)]
        key = tuple(map(id, sheets))  # the catalog keeps the datasheets alive
        if key not in self.noted:
            self.noted[key] = self.cat.duplicate_notes(sheets)
        self.noted_choices[tuple(map(id, choices))] = (choices, self.noted[key])
        return self.noted[key]


class _FieldError(Exception):
    def __init__(self, parts: list[str | int], message: str, top: bool = False):
        super().__init__(message)
        self.parts = parts
        self.message = message
        self.top = top  # the field is the defaults' (top level), not the run's
        self.earlier: list[_StepTemplate] = []  # a sequence's steps before the one at fault


def _dotted(parts: list[str | int]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".")


def _check_loadout(ds: Datasheet, loadout: str | None) -> None:
    from ..units import find_loadout

    find_loadout(ds, loadout)


def has_loadout(ds: Datasheet, loadout: str | None) -> bool:
    """True when ``loadout`` is None, ``default`` or one of ``ds``'s named loadouts."""
    try:
        _check_loadout(ds, loadout)
    except SelectionError:
        return False
    return True


def _unit_choice(
    look: _Lookup, spec: UnitSpec, role: str, base: list[str | int], edition: str = "10"
) -> UnitChoice:
    """The UnitChoice for ``spec``, checked field by field (``_FieldError`` names the field
    under ``base``), then as a whole with ``units.build_unit`` (in ``edition``); one a spec
    checked before in the same edition."""
    key = (role, edition, _encode_json(spec))
    if key in look.choices:
        return look.choices[key]
    choice = _check_unit_choice(look, spec, role, base, edition)
    look.choices[key] = choice
    return choice


def _check_unit_choice(
    look: _Lookup, spec: UnitSpec, role: str, base: list[str | int], edition: str
) -> UnitChoice:
    from ..units import build_unit, pick_size

    def at(*more: str | int) -> list[str | int]:
        return [*base, *more]

    try:
        ds = look.find(spec.name, role, edition)
    except (LookupError, DatasheetError) as exc:
        raise _FieldError(at("name"), str(exc)) from None
    try:
        pick_size(ds, spec.models, role)
    except SelectionError as exc:
        raise _FieldError(at("models"), str(exc)) from None
    try:
        _check_loadout(ds, spec.loadout)
    except SelectionError as exc:
        raise _FieldError(at("loadout"), str(exc)) from None
    if spec.weapons and spec.loadout is not None:
        raise _FieldError(
            at("weapons"), "weapons list exactly which weapons attack: not with a loadout"
        )
    if spec.weapons and role == "target":
        raise _FieldError(at("weapons"), "weapons are for the attacker; give the target a loadout")
    if spec.allocation is not None and role == "attacker":
        raise _FieldError(at("allocation"), "allocation is the target's model order")
    weapons = _checked_weapons(ds, spec.weapons, at("weapons"))
    leaders, leader_loadouts = _checked_leaders(look, spec, role, at("leader"), edition)
    choice = UnitChoice(ds, spec.models, spec.loadout, weapons, leaders, leader_loadouts)
    try:
        unit = build_unit(choice, role, edition)
    except WeaponsError as exc:  # the batch field, not the option it stands for
        raise _FieldError(at("weapons"), exc.detail) from None
    except SelectionError as exc:
        raise _FieldError(base, str(exc)) from None
    if spec.wounds_left is not None and role == "attacker":  # as --wounds-left
        from ..rules.unit_abilities import check_wounds_left

        try:
            check_wounds_left(spec.wounds_left, unit, "wounds_left")
        except SelectionError as exc:
            raise _FieldError(at("wounds_left"), str(exc)) from None
    return choice


def _checked_weapons(
    ds: Datasheet, texts: list[str], base: list[str | int]
) -> tuple[tuple[str, int], ...]:
    """A spec's ``weapons`` (``NAME xN`` each) as (name, count), each a weapon of ``ds``.

    Raises:
        _FieldError: naming the entry (under ``base``) that does not parse or names no weapon
            of ``ds`` (with the closest names and the list).
    """
    from ..units import parse_weapon_spec

    weapons = []
    for i, text in enumerate(texts):
        try:
            wname, count = parse_weapon_spec(text)
        except SelectionError as exc:
            raise _FieldError([*base, i], str(exc)) from None
        if ds.weapon(wname) is None:
            from ..fuzzy import did_you_mean

            raise _FieldError(
                [*base, i],
                f"{ds.name} has no weapon {wname!r}"
                + did_you_mean(wname, [w.name for w in ds.weapons])
                + f" (weapons: {', '.join(w.name for w in ds.weapons)})",
            )
        weapons.append((wname, count))
    return tuple(weapons)


def _checked_leaders(
    look: _Lookup, spec: UnitSpec, role: str, base: list[str | int], edition: str | None = None
) -> tuple[tuple[Datasheet, ...], tuple[str | None, ...]]:
    """The datasheets of a spec's ``leader`` (a name or a list of names, each ``NAME`` or
    ``NAME:LOADOUT``), in ``edition``, and their named loadouts (empty where none names one).

    Raises:
        _FieldError: naming the leader (under ``base``; its index in a list) not found, or
            whose loadout its datasheet does not have.
    """
    from ..units import find_loadout, given_loadouts, split_leader

    leaders, loadouts = [], []
    for i, text in enumerate(names(spec.leader)):
        field = [*base, i] if isinstance(spec.leader, list) else base
        try:
            lname, loadout = split_leader(text, "leader")
            ds = look.find(lname, role, edition)
            find_loadout(ds, loadout)
        except (LookupError, DatasheetError, SelectionError) as exc:
            raise _FieldError(field, str(exc)) from None
        leaders.append(ds)
        loadouts.append(loadout)
    return tuple(leaders), given_loadouts(loadouts)


def _check_effects(effects: list[str]) -> None:
    """Each effect name of a job names some record (of either edition): the units are not
    known yet, so which one is decided when the run is planned."""
    if not effects:  # most runs name none: not even the import, a batch checks thousands
        return
    from ..effects import known_anywhere, parse_request, suggestions

    for i, name in enumerate(effects):
        try:
            req = parse_request(name)
        except LookupError as exc:
            raise _FieldError(["effects", i], str(exc)) from None
        if not known_anywhere(name):
            raise _FieldError(
                ["effects", i],
                f"unknown effect {req.name!r}{suggestions(req.name)} (`calc effects` lists them)",
            )


def _merge(cls: type[Struct], *specs: Any) -> Any:
    """The record ``cls`` (Conditions or Modifiers) from its defaults overridden, field by
    field, by each spec's non-None values in turn: one record for each set of values
    (:func:`_merged`).

    Raises:
        SelectionError: a value ``cls`` refuses (each time it is asked for).
    """
    return _merged(cls, tuple((type(spec), _values(spec)) for spec in specs if spec is not None))


def _values(spec: Any) -> tuple:
    """The field values of the record ``spec`` (a msgspec Struct or a dataclass), in order."""
    if isinstance(spec, Struct):
        return astuple(spec)
    kind: type = type(spec)
    return tuple(getattr(spec, k) for k in _field_names(kind))


@lru_cache(maxsize=1024)
def _merged(cls: type[Struct], given: tuple[tuple[type, tuple], ...]) -> Any:
    """The record ``cls`` with the values ``given`` (each spec's type and field values: its
    non-None values for the fields of ``cls``, a later one winning). Made once for each set
    of values: a batch's runs set a few between them, and a record made anew for each of its
    thousands of runs cost as much as all of its checks but the units' (Modifiers checks its
    values when made); the jobs sharing one also key faster (``runner.job_key``). A field's
    values all have its schema's type (``strict`` parsing: 1 and True, equal keys, never meet
    in one field)."""
    fields = _field_set(cls)
    values = {}
    for kind, spec_values in given:
        for k, v in zip(_field_names(kind), spec_values, strict=True):
            if v is not None and k in fields:
                values[k] = v
    return cls(**values)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return field_names(cls) or ()  # once a type: a batch merges thousands


@cache
def _field_set(cls: type) -> frozenset[str]:
    return frozenset(_field_names(cls))


def _unit_spec(value: str | UnitSpec) -> UnitSpec:
    return UnitSpec(name=value) if isinstance(value, str) else value


def _auto_name(spec: UnitSpec) -> str:
    parts = [spec.name]
    if spec.models is not None:
        parts.append(f"x{spec.models}")
    if spec.loadout:
        parts.append(spec.loadout)
    if spec.weapons:
        parts.append(" + ".join(spec.weapons))
    leaders = names(spec.leader)
    if leaders:
        parts.append("led by " + " and ".join(leaders))
    if spec.wounds_left is not None:
        parts.append(f"on {count(spec.wounds_left, 'wound')}")
    return " ".join(parts)


def _target_label(spec: UnitSpec) -> str:
    text = spec.name if spec.models is None else f"{spec.models} {spec.name}"
    if spec.loadout:
        text += f" ({spec.loadout})"
    if names(spec.leader):
        text += " led by " + " and ".join(names(spec.leader))
    if spec.wounds_left is not None:
        text += f", {count(spec.wounds_left, 'wound')} left"
    return text


def _sampler_set(ov: "Overrides", spec: RunSpec, d: Any) -> tuple[str, ...]:
    """The sampler settings a run has, as written: ``--trials``/``--seed`` from the command
    line, else ``trials``/``seed`` from the run or the file's defaults."""
    out = []
    for field in ("trials", "seed"):
        if getattr(ov, field) is not None:
            out.append(f"--{field}")
        elif getattr(spec, field) is not None or getattr(d, field) is not None:
            out.append(field)
    return tuple(out)


@dataclass
class Overrides:
    """Command-line settings that override a batch file's (None: keep the file's)."""

    edition: str | None = None
    method: str | None = None
    trials: int | None = None
    seed: int | None = None
    fallback_edition: str = "10"  # where neither the command line nor the file says
    detail: bool = True  # Job.detail: False for the table and the CSV (not --json)
    notes: bool = True  # Job.notes: False for the CSV (no note shown)


def jobs_from_batch(
    batch: Batch, cat: "Catalog", overrides: Overrides | None = None
) -> list[Job | RunError]:
    """Every (run, target) job of a loaded batch, with an error in place of each bad run (or bad
    target of a run), in batch order.

    Args:
        batch: from :func:`wh40k_calc.batch.load_batch`.
        cat: where datasheets are looked up.
        overrides: command-line settings that win over the file's.

    Raises:
        BatchError: more than :data:`MAX_ROWS` jobs (before any is resolved).
    """
    reader = _BatchRuns(batch, _Lookup(cat), overrides or Overrides())
    out: list[Job | RunError] = []
    for raw in batch.runs:
        out += reader.jobs(raw)
        if len(out) > MAX_ROWS:
            raise BatchError(
                f"{batch.path}: more than {MAX_ROWS:,} rows (a run against each of its "
                f"targets; runs[{raw.index}] passes it): split the batch into several files"
            )
    return out


_Target = tuple[list[str | int], UnitSpec, bool, "SetEntry | None"]  # as _targets gives them


@dataclass
class _Run:
    """A batch run checked up to its targets: the run as written and parsed, its name, its
    targets (not checked yet: :func:`_targets`), and what its jobs share (edition, modifiers,
    engine settings, weapon order); ``att`` is its attacker, or ``templates`` its steps (a
    ``sequence`` run)."""

    raw: RawRun
    spec: RunSpec
    name: str
    targets: list[_Target]
    edition: str
    effects: list[str]
    added: tuple[AddedAbility, ...]
    att: UnitChoice | None
    templates: "list[_StepTemplate] | None"
    modifiers: Modifiers
    method: str
    trials: int | None  # None: the default, within a time budget
    seed: int
    order: tuple[str, ...] | str | None
    sampler_set: tuple[str, ...] = ()


class _BatchRuns:
    """Builds the jobs of a batch file's runs one run at a time, remembering the names given
    so far (a repeated name is an error; a repeated automatic name gets ``#2``, ``#3``)."""

    def __init__(self, batch: Batch, look: _Lookup, ov: Overrides):
        self.batch, self.look, self.ov = batch, look, ov
        self.d = batch.defaults
        self.src = str(batch.path)
        self.seen: dict[str, int] = {}  # run name -> index of the run that has it
        self.auto: dict[str, int] = {}  # automatic name -> runs made with it so far
        # a run's mapping (by identity) -> its spec and jobs: a YAML alias repeats one mapping,
        # whose jobs are made once and shared (renamed), so identical runs cost next to nothing
        self.by_data: dict[int, tuple[RunSpec, list[Job | RunError]]] = {}
        # a run's mapping (by identity) -> the index of the first run written as it: a later
        # run with the same mapping is a YAML alias of that one (``- *anchor``), whose fields'
        # lines are the anchored run's
        self.first_of: dict[int, int] = {}
        # runs written alike but for their names (a generated batch) -> the first one's spec
        # and jobs, shared (renamed, each its own line), found before the run is parsed
        # (compare.alike); only runs with no error and targets told apart without lines are
        # kept
        self.alike = AlikeRuns()
        # (the values of a run's or the top level's conditions, the level) -> their option
        # fields (_condition_fields)
        self.conditions_seen: dict[tuple[tuple, str], tuple] = {}

    def error(
        self,
        raw: RawRun,
        message: str,
        parts: list[str | int] | None = None,
        target: str | None = None,
        top: bool = False,
        name: str | None = None,
        line: int | None = None,
    ) -> RunError:
        """A RunError for run ``raw`` (named ``name``, else its label) at the field ``parts``
        (of the defaults when ``top``), with the line of that field in the batch file (or
        ``line`` when given)."""
        if line is None and parts is not None:
            line = self.batch.line_of(parts, None if top else raw)
        return RunError(
            raw.label if name is None else name,
            message,
            (("(top level) " if top else "") + _dotted(parts)) if parts else None,
            self.src,
            line or raw.line,
            target,
        )

    def jobs(self, raw: RawRun) -> list[Job | RunError]:
        """The jobs of run ``raw``, one per target (an error in place of a bad target), or the
        one error that stops the whole run. A run whose mapping is one met before (a YAML
        alias: the same object, hence the same lines) gets that run's jobs under its own name;
        a run written as an earlier valid one but for its name, that run's jobs under its own
        name and line, unparsed."""
        self.first_of.setdefault(id(raw.data), raw.index)
        same = self.by_data.get(id(raw.data))
        if same is not None:
            known, made = same
            return self._renamed(raw, known.name, known, made)
        alike = self.alike.find(raw)
        if alike is not None:  # its fields are those of a valid run: it is valid as well
            known, made = alike
            return self._renamed(raw, raw.data.get("name"), known, made, raw.line)
        spec = self._spec(raw)
        if not isinstance(spec, RunError) and spec.exchange is not None:
            return [self._exchange_job(raw, spec)]
        run = self._run(raw, spec)
        if isinstance(run, RunError):
            return [run]
        plain = [_target_label(t[1]) for t in run.targets]  # told apart by lines where alike
        labels = self._target_labels(run, plain)
        made = [
            self._target_job(run, *target, label)
            for target, label in zip(run.targets, labels, strict=True)
        ]
        self.by_data[id(raw.data)] = (run.spec, made)
        if len(set(plain)) == len(plain):
            jobs = [j for j in made if isinstance(j, Job)]
            if len(jobs) == len(made):
                self.alike.keep(raw, (run.spec, jobs))
        return made

    def _renamed(
        self,
        raw: RawRun,
        given: str | None,
        spec: RunSpec,
        made: Sequence[Job | RunError],
        line: int | None = None,
    ) -> list[Job | RunError]:
        """The jobs ``made`` for an earlier run (parsed as ``spec``) under the name of run
        ``raw`` (``given``, else made as ``spec``'s would be), at ``line`` when given; or the
        one error of that name."""
        name = self._name(raw, given, spec)
        if isinstance(name, RunError):
            return [name]
        if line is None:
            return [replace(j, run=name) for j in made]
        return [replace(j, run=name, line=line) for j in made]

    def _target_labels(self, run: _Run, plain: list[str]) -> list[str]:
        """The labels of ``run``'s targets for its error messages (``plain``: each one's
        :func:`_target_label`), told apart where two are the same ("boyz" twice: "boyz (line
        3)" and "boyz (line 4)", or by their fields when on one line: "boyz (targets[0])",
        "boyz (targets[1])")."""
        labels = list(plain)
        if len(set(labels)) == len(labels):  # most runs: one target, or each its own
            return labels
        for label in {x for x in labels if labels.count(x) > 1}:
            same = [i for i, x in enumerate(labels) if x == label]
            wheres = [self._target_where(run, *run.targets[i]) for i in same]
            by_line = len({w[0] for w in wheres}) == len(wheres)
            for i, (line, fld) in zip(same, wheres, strict=True):
                labels[i] = f"{label} ({line if by_line else fld})"
        return labels

    def _target_where(
        self, run: _Run, parts: list[str | int], tspec: UnitSpec, top: bool, where: Any
    ) -> tuple[str, str]:
        """(its line, its field) of one of a run's targets, in words."""
        if where is not None:  # an entry of a target set
            return (where.where, f"{where.field([])} of target set {where.target_set.name!r}")
        line = self.batch.line_of(parts, None if top else run.raw)
        return (f"line {line}", ("top-level " if top else "") + _dotted(parts))

    def _exchange_job(self, raw: RawRun, spec: RunSpec) -> Job | RunError:
        """The one job of an ``exchange`` run (its sides say everything about both units and
        their activations; the run gives only its name and the engine settings), or its
        error naming the field."""
        from ..exchange.batch import auto_name, exchange_job, texts
        from ..exchange.order import OrderError
        from ..exchange.setup import ExchangeError
        from ..exchange.sides import SideError

        for f in _NOT_IN_EXCHANGE:
            if getattr(spec, f) is not None:
                message = (
                    f"{f}: not in an exchange run (each side's texts hold its unit, "
                    "conditions, modifiers and effects; side_b is the unit attacked)"
                )
                return self.error(raw, message, [f])
        ex = spec.exchange
        assert ex is not None
        name = self._name(raw, spec.name, spec, auto_name(ex))
        if isinstance(name, RunError):
            return name
        edition = self.ov.edition or str(spec.edition or self.d.edition or "10")
        try:
            job, selection = exchange_job(ex, self.look.cat, edition)
        except SideError as exc:
            given = texts(getattr(ex, f"side_{exc.side}"))
            parts: list[str | int] = ["exchange", f"side_{exc.side}"]
            if not isinstance(getattr(ex, f"side_{exc.side}"), str):
                if exc.index is not None:
                    parts.append(exc.index)
                elif exc.text in given:
                    parts.append(given.index(exc.text))
            message = f"{exc.text!r}: {exc.reason}" if exc.text else exc.reason
            return self.error(raw, message, parts, name=name)
        # mypy does not read a starred tuple of exception classes (ruff wants this form)
        except (OrderError, ExchangeError, *USER_ERRORS) as exc:  # type: ignore[misc]
            return self.error(raw, str(exc), ["exchange"], name=name)
        d, ov = self.d, self.ov
        side_b = job.setup.tracks["b"].unit
        return Job(
            name,
            selection,
            ov.method or spec.method or d.method or "exact",
            ov.trials or spec.trials or d.trials,
            _first(ov.seed, spec.seed, d.seed, 40_000),
            f"{side_b.models} {side_b.name}",
            self.src,
            raw.line,
            exchange=job,
            detail=ov.detail,
        )

    def _run(self, raw: RawRun, spec: RunSpec | RunError | None = None) -> _Run | RunError:
        """Run ``raw`` parsed and checked field by field, in the order its errors are told:
        its fields, attacker or sequence, name, targets, effects and added abilities, the
        attacker or the steps, modifiers, the number of activations."""
        spec = self._spec(raw) if spec is None else spec
        if isinstance(spec, RunError):
            return spec
        attacker = _unit_spec(spec.attacker) if spec.attacker is not None else None
        name = self._name(raw, spec.name, spec)
        if isinstance(name, RunError):
            return name
        try:
            targets = _targets(spec, self.d, self.look.cat)
        except _FieldError as exc:
            return self.error(raw, exc.message, exc.parts, name=name, top=exc.top)
        d = self.d
        effects = spec.effects if spec.effects is not None else (d.effects or [])
        edition = self.ov.edition or str(spec.edition or d.edition or self.ov.fallback_edition)
        att, templates = None, None
        try:
            _check_effects(effects)
            added = _added_abilities(spec, d)
            if attacker is not None:
                att = _unit_choice(self.look, attacker, "attacker", ["attacker"], edition)
            else:
                templates = _sequence_templates(self.look, spec, d, edition)
        except _FieldError as exc:
            first = self._earlier_step_error(raw, name, targets, edition, exc.earlier)
            return first or self._attacker_error(raw, spec, name, exc)
        try:
            modifiers = _run_modifiers(spec, d)
        except OptionError as exc:  # the file's field, not the option it stands for
            key = exc.option.lstrip("-").replace("-", "_")
            top = getattr(spec.modifiers, key, None) is None
            return self.error(raw, exc.detail, ["modifiers", key], name=name, top=top)
        except SelectionError as exc:
            return self.error(raw, str(exc), ["modifiers"], name=name, top=spec.modifiers is None)
        if templates is not None and len(templates) * (spec.repeat or 1) > MAX_STEPS:
            message = f"a sequence takes at most {MAX_STEPS} activations, repeats included"
            return self.error(raw, message, ["repeat"], name=name)
        ov = self.ov
        return _Run(
            raw,
            spec,
            name,
            targets,
            edition,
            effects,
            added,
            att,
            templates,
            modifiers,
            method=ov.method or spec.method or d.method or "exact",
            trials=ov.trials or spec.trials or d.trials,
            seed=_first(ov.seed, spec.seed, d.seed, 40_000),
            order=_order(_first(spec.order, d.order)),
            sampler_set=_sampler_set(ov, spec, d),
        )

    def _spec(self, raw: RawRun) -> RunSpec | RunError:
        """Run ``raw``'s fields parsed, with either an ``attacker`` or a ``sequence``."""
        try:
            spec = parse_run(self.batch, raw)
        except RunFieldError as exc:
            return RunError(raw.label, exc.message, exc.field, self.src, exc.line or raw.line)
        given: list[str | int] = [
            f for f in ("attacker", "sequence", "exchange") if getattr(spec, f) is not None
        ]
        if len(given) != 1:
            message = "give 'attacker' (one activation) or 'sequence' (several)"
            if not given:
                message += ", or 'exchange' (two units attacking each other)"
            elif "exchange" in given:
                message = "give one of 'attacker', 'sequence' and 'exchange', not several"
            else:
                message += ", not both"
            return self.error(raw, message, given[1:2] or ["attacker"])
        if spec.attacker is not None and spec.repeat is not None:
            # refused, not applied: an attacker run is one activation (its row, its JSON, its
            # points per 100); repeating is a plan of several, which sequence: says
            message = (
                f"only a sequence run repeats; an 'attacker' run is one activation "
                f"(for {spec.repeat} in a row, write it as sequence: [{{attacker: ...}}] with "
                f"repeat: {spec.repeat})"
            )
            return self.error(raw, message, ["repeat"])
        return spec

    def _name(
        self, raw: RawRun, given: str | None, spec: RunSpec, auto: str | None = None
    ) -> str | RunError:
        """The run's name: ``given``, its ``name`` (an error if an earlier run has it), or one
        made from the attacker or steps of ``spec`` (or ``auto``), numbered ``#N`` when an
        earlier run has it too."""
        if given is not None:
            name = given
            if name in self.seen:
                message = f"name used by runs[{self.seen[name]}] as well: runs[{raw.index}] "
                first = self.first_of.get(id(raw.data), raw.index)
                line = self.batch.line_of(["name"], raw)
                if first != raw.index:  # a whole run repeated by an alias
                    message += f"repeats runs[{first}] through a YAML alias; give it a name"
                    message += " of its own (<<: *anchor, then name: ...)"
                elif line is not None and raw.line is not None and line < raw.line:
                    message += "takes it from the run it merges (<<); give it a name of its own"
                else:
                    return self.error(raw, message + "needs a name of its own", ["name"], name=name)
                # the name is written in the anchored run: the line is the run's own
                return self.error(raw, message, ["name"], name=name, line=raw.line)
        else:
            if auto is not None:
                name = auto
            elif spec.attacker is not None:
                name = _auto_name(_unit_spec(spec.attacker))
            else:
                name = _sequence_name(spec)
            self.auto[name] = self.auto.get(name, 0) + 1
            if self.auto[name] > 1 or name in self.seen:
                name = f"{name} #{self.auto[name]}"
        self.seen[name] = raw.index
        return name

    def _earlier_step_error(
        self,
        raw: RawRun,
        name: str,
        targets: list[_Target],
        edition: str,
        earlier: "list[_StepTemplate]",
    ) -> RunError | None:
        """The error of the first of ``earlier`` (a sequence's steps before a step refused
        as written) that cannot be planned against the run's first target, found only when
        its jobs are resolved otherwise: the first error of the run is told, at its step's
        line; None when they plan (or the target itself is refused: its error comes later)."""
        if not earlier or not targets:
            return None
        from ..rules import get_rules
        from ..sequence.run import _step_error

        parts, tspec, _, _ = targets[0]
        try:
            tgt = _unit_choice(self.look, tspec, "target", list(parts), edition)
        except _FieldError:
            return None
        for t in earlier:
            step = t.against(tgt, tspec, False)
            try:
                get_rules(edition).plan(step.selection)
            except USER_ERRORS as exc:
                err = self.error(
                    raw, str(_step_error(step, exc)), ["sequence", t.index - 1], name=name
                )
                return replace(err, field=None, target=_target_label(tspec))
        return None

    def _attacker_error(self, raw: RawRun, spec: RunSpec, name: str, exc: _FieldError) -> RunError:
        """The error of a run's effects, added abilities, attacker or steps: a field the run
        leaves to the defaults is named at the top level; an attacker given as a name is
        the whole ``attacker`` field."""
        top = (
            exc.top
            or (exc.parts[:1] == ["effects"] and spec.effects is None)
            or (exc.parts[:1] == ["add_abilities"] and spec.add_abilities is None)
        )
        if isinstance(spec.attacker, str) and exc.parts[:1] == ["attacker"]:
            exc.parts = ["attacker"]
        return self.error(raw, exc.message, exc.parts, name=name, top=top)

    def _target_job(
        self,
        run: _Run,
        parts: list[str | int],
        tspec: UnitSpec,
        top: bool,
        where: "SetEntry | None",
        label: str,
    ) -> Job | RunError:
        """The job of ``run`` against one of its targets (``parts``: the target's field;
        ``where``: the target set entry it is, if any; ``label``: its name in messages), or the
        error naming the target's field (in the target set file for an entry of a set)."""
        raw, spec, name = run.raw, run.spec, run.name
        try:
            tgt = _unit_choice(self.look, tspec, "target", list(parts), run.edition)
        except _FieldError as exc:
            if where is not None:  # an entry of a target set: name its file and field
                e = self.error(raw, exc.message, ["target_set"], target=label, top=top, name=name)
                return replace(e, field=_set_entry_field(where, exc.parts[1:]))
            if isinstance(_raw_target(spec, self.d, parts, top), str):
                exc.parts = list(parts)
            return self.error(raw, exc.message, exc.parts, target=label, top=top, name=name)
        steps: tuple[Step, ...] = ()
        if run.templates is not None:
            stealth = bool(run.modifiers.target_stealth)
            steps = tuple(
                repeated(
                    [t.against(tgt, tspec, stealth, self.look.notes(tgt)) for t in run.templates],
                    spec.repeat or 1,
                )
            )
            selection = steps[0].selection
        else:
            assert run.att is not None
            selection = self._selection(run, run.att, tgt, tspec)
        step_weapons, step_lines, step_fields = self._sequence_fields(run)
        return Job(
            name,
            selection,
            run.method,
            run.trials,
            run.seed,
            label,
            self.src,
            raw.line,
            steps,
            sampler_set=run.sampler_set,
            detail=self.ov.detail,
            notes=self.ov.notes,
            option_fields=self._option_fields(run, parts, tspec, top, where),
            step_weapons=step_weapons,
            step_lines=step_lines,
            step_fields=step_fields,
        )

    def _sequence_fields(
        self, run: _Run
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], tuple[tuple[int, str, str], ...]]:
        """Where a sequence run's steps are written, for its jobs (:attr:`Job.step_weapons`,
        :attr:`Job.step_lines`, :attr:`Job.step_fields`); nothing for a one-activation run
        (not even the three loops: a batch makes a thousand such jobs)."""
        if not run.templates:
            return (), (), ()
        return (
            tuple(t.index for t in run.templates if t.weapons),
            tuple(self.batch.line_of(["sequence", t.index - 1], run.raw) for t in run.templates),
            tuple(
                (t.index, option, field)
                for t in run.templates
                for option, field in t.fields.items()
            ),
        )

    def _option_fields(
        self,
        run: _Run,
        parts: list[str | int],
        tspec: UnitSpec,
        top: bool,
        where: "SetEntry | None",
    ) -> tuple[tuple[str, str, int | None], ...]:
        """(option, field, line) of the fields that stand for an option
        (:attr:`Job.option_fields`): the attacker's ``weapons``, the run's (or the top
        level's) ``order`` and ``precision_target`` (STEP_OPTIONS) and each of its
        ``effects`` and ``add_abilities`` (LIST_OPTIONS: ``effects[0]``, one entry each), and
        the target's ``wounds_left`` and ``allocation``, where given."""
        out: list[tuple[str, str, int | None]] = []
        if run.att is not None and run.att.weapons:
            out.append(("--weapon", "attacker.weapons", None))
        if run.att is not None:
            for option, name in STEP_OPTIONS.items():
                if getattr(run.spec, name) is not None:
                    out.append((option, name, self.batch.line_of([name], run.raw)))
                elif getattr(self.d, name) is not None:
                    out.append((option, f"(top level) {name}", self.batch.line_of([name], None)))
            out += self._condition_fields(run.spec.conditions, "")
            out += self._condition_fields(self.d.conditions, "(top level) ")
            given = {"effects": run.effects, "add_abilities": run.added}
            for option, name in LIST_OPTIONS.items():
                own = getattr(run.spec, name) is not None
                for i, _ in enumerate(given[name]):
                    field = f"{name}[{i}]" if own else f"(top level) {name}[{i}]"
                    line = self.batch.line_of([name, i], run.raw if own else None)
                    out.append((option, field, line))
        options = (("--target-wounds-left", "wounds_left"), ("--allocation", "allocation"))
        for option, name in options:
            if getattr(tspec, name) is None:
                continue
            if where is not None:  # an entry of a target set: its file and field
                field, line = _set_entry_field(where, [name]), None
            else:
                field = ("(top level) " if top else "") + _dotted([*parts, name])
                line = self.batch.line_of([*parts, name], None if top else run.raw)
            out.append((option, field, line))
        return tuple(out)

    def _condition_fields(
        self, spec: ConditionsSpec | None, level: str
    ) -> tuple[tuple[str, str, int | None], ...]:
        """(option, field, line) of each condition ``spec`` sets (the run's, or the top
        level's: ``level``), for :meth:`_option_fields`; no line (nothing refuses a
        condition's value once read, and finding a line composes the file's node tree). Made
        once for each set of conditions (a batch's runs set a few between them)."""
        if spec is None:
            return ()
        key = (astuple(spec), level)
        if key not in self.conditions_seen:
            self.conditions_seen[key] = tuple(
                (f"--{c.replace('_', '-')}", f"{level}conditions.{c}", None)
                for c, v in zip(_CONDITIONS, key[0], strict=True)
                if v is not None
            )
        return self.conditions_seen[key]

    def _selection(self, run: _Run, att: UnitChoice, tgt: UnitChoice, tspec: UnitSpec) -> Selection:
        """The Selection of a one-activation run against one target: the run's values, else
        the defaults' (conditions merged key by key)."""
        spec, d = run.spec, self.d
        return Selection(
            phase=spec.phase or d.phase or "shooting",
            attacker=att,
            target=tgt,
            conditions=_merge(Conditions, d.conditions, spec.conditions),
            modifiers=run.modifiers,
            effects=tuple(run.effects),
            edition=run.edition,
            order=run.order,
            allocation=allocation_choice(names(tspec.allocation)),
            target_wounds_left=tspec.wounds_left,
            precision_target=precision_target_value(
                spec.precision_target or d.precision_target or "leader"
            ),
            precision_given=(spec.precision_target or d.precision_target) is not None,
            added_abilities=run.added,
            attacker_wounds_left=_unit_spec(spec.attacker).wounds_left if spec.attacker else None,
            notes=self.look.notes(att, tgt),
        )


# a run's fields an exchange run does not take (its sides' texts say them)
_NOT_IN_EXCHANGE = (
    "repeat",
    "target",
    "targets",
    "target_set",
    "phase",
    "conditions",
    "modifiers",
    "effects",
    "order",
    "precision_target",
    "add_abilities",
    "target_stealth",
)


def _run_modifiers(spec: RunSpec, d: Any) -> Modifiers:
    """A run's modifiers: the defaults', then the run's, key by key, ``target_stealth``
    included.

    Raises:
        SelectionError: a modifier value Modifiers refuses.
    """
    return _merge(
        Modifiers,
        d.modifiers,
        _Stealth(d.target_stealth) if d.target_stealth is not None else None,
        spec.modifiers,
        _Stealth(spec.target_stealth) if spec.target_stealth is not None else None,
    )


def _order(order_spec: Any) -> tuple[str, ...] | str | None:
    """A weapon order as written (``best``, or weapon names) as the Selection takes it."""
    if isinstance(order_spec, str) and order_spec.strip().lower() == "best":
        return "best"
    if order_spec is not None:
        return names(order_spec) or None
    return None


@dataclass(frozen=True)
class _Stealth:
    """A run's (or the defaults') ``target_stealth: true``, merged into its modifiers."""

    target_stealth: bool | None


def _added_abilities(*specs: Any) -> tuple[AddedAbility, ...]:
    """The first ``add_abilities`` given among ``specs`` (a run's, then the defaults'), parsed
    like ``--add-ability``.

    Raises:
        _FieldError: naming the entry that does not parse.
    """
    texts = _first(*(s.add_abilities for s in specs))
    if not texts:  # most runs add none: not even the import, a batch has thousands
        return ()
    from ..abilities import parse_added_ability

    out = []
    for i, text in enumerate(texts):
        try:
            out.append(AddedAbility(*parse_added_ability(text)))
        except ValueError as exc:  # the field names it: not the option it stands for
            why = str(exc).removeprefix(f"--add-ability {text!r}: ")
            raise _FieldError(["add_abilities", i], why) from None
    return tuple(out)


def _raw_target(spec: RunSpec, d: Any, parts: list[str | int], top: bool) -> Any:
    if parts == ["target"]:
        return spec.target
    if parts[:1] == ["target_set"]:
        return None  # an entry of a target set file
    j = parts[1]
    assert isinstance(j, int)
    targets = d.targets if top else spec.targets
    assert targets is not None  # the field at fault is one of them
    return targets[j]


# ---------------------------------------------------------------------------------------------
# Targets (names, a target set) and the steps of a sequence run


def _targets(
    spec: RunSpec, d: Any, cat: "Catalog"
) -> list[tuple[list[str | int], UnitSpec, bool, "SetEntry | None"]]:
    """A run's targets: (field path, spec, from the defaults, the target set entry it is)
    each; ``target``, ``targets`` or ``target_set`` in the run, else the defaults' ``targets``
    or ``target_set``.

    Raises:
        _FieldError: none given, more than one way given, an empty list, an unknown target set.
    """
    given = [k for k in ("target", "targets", "target_set") if getattr(spec, k) is not None]
    if len(given) > 1:
        which = " or ".join(repr(g) for g in given)
        raise _FieldError(
            [given[-1]], f"give {which}, not both" if len(given) == 2 else f"give one of {which}"
        )
    if d.targets is not None and d.target_set is not None and not given:
        raise _FieldError(["target_set"], "give 'targets' or 'target_set', not both", top=True)
    if spec.target is not None:
        return [(["target"], _unit_spec(spec.target), False, None)]
    if spec.targets is not None:
        if not spec.targets:
            raise _FieldError(["targets"], "'targets' is empty")
        return [(["targets", j], _unit_spec(t), False, None) for j, t in enumerate(spec.targets)]
    for name, top in ((spec.target_set, False), (d.target_set, True)):
        if name is not None:
            return [
                (["target_set"], _unit_spec(t.entry), top, t) for t in _target_set(name, cat, top)
            ]
    if d.targets:
        return [(["targets", j], _unit_spec(t), True, None) for j, t in enumerate(d.targets)]
    raise _FieldError(
        ["attacker" if spec.attacker is not None else "sequence"],
        "no target: give 'target', 'targets' or 'target_set' in the run, or 'targets' or "
        "'target_set' at the top",
    )


def _target_set(name: str, cat: "Catalog", top: bool) -> "list[SetEntry]":
    from ..target_set import TargetSetError, find_target_set

    try:
        return find_target_set(name, cat).entries()
    except TargetSetError as exc:
        raise _FieldError(["target_set"], str(exc), top=top) from None


def _set_of(target: Any) -> "SetEntry | None":
    """``target`` when it is an entry of a target set (with where it comes from), else None."""
    from ..target_set import SetEntry

    return target if isinstance(target, SetEntry) else None


def _set_entry_field(where: "SetEntry", parts: list[str | int]) -> str:
    """A target set entry's field at fault, as a batch run's error names it: ``target_set
    'NAME' (PATH:LINE): targets[0].models`` (``parts`` below the entry)."""
    sub = [] if isinstance(where.entry, str) else parts
    return f"target_set {where.target_set.name!r} ({where.where}): {where.field(sub)}"


def _sequence_name(spec: RunSpec) -> str:
    """A sequence run's name from its steps: ``shoot lootas --models 10 then boyz``."""
    parts = []
    for step in spec.sequence or []:
        parts.append(step if isinstance(step, str) else _auto_name(_unit_spec(step.attacker)))
    return " then ".join(parts)


_NO_TARGET = UnitChoice(None)  # type: ignore[arg-type]  # replaced by each target of the run


@dataclass(frozen=True)
class _StepTemplate:
    """A step of a sequence run before its target is chosen: its number (1-based), its text and
    its Selection (target: a placeholder)."""

    index: int
    text: str
    selection: Selection
    weapons: bool = False  # a mapping step naming its attacker's weapons (``weapons:``)
    # a mapping step's STEP_OPTIONS: option -> the batch field that gave it (its own, the
    # run's or the top level's); none for a quoted step
    fields: dict[str, str] = dataclass_field(default_factory=dict)

    def against(
        self, target: UnitChoice, spec: UnitSpec, stealth: bool, notes: tuple[str, ...] = ()
    ) -> Step:
        """The step against one target of the run (its allocation, wounded model, Stealth;
        ``notes``: the catalog's on the target's datasheets)."""
        sel = replace(
            self.selection,
            target=target,
            notes=tuple(dict.fromkeys((*self.selection.notes, *notes))),
            allocation=allocation_choice(names(spec.allocation)),
            target_wounds_left=spec.wounds_left,
            modifiers=replace(self.selection.modifiers, target_stealth=stealth),
        )
        return Step(1, self.index, sel, self.text)


def _sequence_templates(look: _Lookup, spec: RunSpec, d: Any, edition: str) -> list[_StepTemplate]:
    """The steps of a sequence run: a quoted step as ``calc sequence`` parses it (nothing taken
    from the run but the target, the edition and the engine settings), a mapping as a run's
    attacker with the run's (else the defaults') phase, conditions, modifiers, effects, order,
    [PRECISION] target and added abilities, its own values winning.

    Raises:
        _FieldError: naming the step (``sequence[j]``) and its field.
    """
    out: list[_StepTemplate] = []
    for j, step in enumerate(spec.sequence or []):
        try:
            if isinstance(step, str):
                out.append(_text_step(look, j, step, edition))
            else:
                out.append(_mapping_step(look, j, step, spec, d, edition))
        except _FieldError as exc:
            exc.earlier = list(out)  # the steps before it, for an error of theirs first
            raise
    return out


def _text_step(look: _Lookup, j: int, text: str, edition: str) -> _StepTemplate:
    from ..sequence.steps import StepError, parse_step

    try:
        req = parse_step(j + 1, text)
        sel = req.selection(look.cat, target=_NO_TARGET, edition=edition)
    except StepError as exc:
        raise _FieldError(["sequence", j], exc.reason) from None
    except USER_ERRORS as exc:
        raise _FieldError(["sequence", j], str(exc)) from None
    return _StepTemplate(j + 1, text, replace(sel, edition=edition))


def _first(*values: Any) -> Any:
    """The first of ``values`` that is not None (None: none is)."""
    for v in values:
        if v is not None:
            return v
    return None


def _mapping_step(
    look: _Lookup, j: int, step: StepSpec, spec: RunSpec, d: Any, edition: str
) -> _StepTemplate:
    base: list[str | int] = ["sequence", j]
    attacker = _unit_spec(step.attacker)
    try:
        att = _unit_choice(look, attacker, "attacker", [*base, "attacker"], edition)
    except _FieldError as exc:
        if isinstance(step.attacker, str):  # the name is the whole field
            exc.parts = [*base, "attacker"]
        raise
    if step.modifiers is not None and step.modifiers.target_stealth is not None:
        raise _FieldError(
            [*base, "modifiers", "target_stealth"],
            "target_stealth is the target's: give it for the run (or at the top)",
        )
    effects = _first(step.effects, spec.effects, d.effects) or []
    try:
        _check_effects(effects)
        added = _added_abilities(step, spec, d)
    except _FieldError as exc:
        raise _FieldError([*base, *exc.parts], exc.message) from None
    try:
        modifiers = _merge(Modifiers, d.modifiers, spec.modifiers, step.modifiers)
    except OptionError as exc:  # the file's field (the step's, the run's or the top's)
        key = exc.option.lstrip("-").replace("-", "_")
        if getattr(step.modifiers, key, None) is not None:
            raise _FieldError([*base, "modifiers", key], exc.detail) from None
        top = getattr(spec.modifiers, key, None) is None
        raise _FieldError(["modifiers", key], exc.detail, top=top) from None
    except SelectionError as exc:
        raise _FieldError([*base, "modifiers"], str(exc)) from None
    phase = step.phase or spec.phase or d.phase or "shooting"
    order = _order(_first(step.order, spec.order, d.order))
    sel = Selection(
        phase=phase,
        attacker=att,
        target=_NO_TARGET,
        conditions=_merge(Conditions, d.conditions, spec.conditions, step.conditions),
        modifiers=modifiers,
        effects=tuple(effects),
        edition=edition,
        order=order,
        precision_target=precision_target_value(
            _first(step.precision_target, spec.precision_target, d.precision_target) or "leader"
        ),
        precision_given=_first(step.precision_target, spec.precision_target, d.precision_target)
        is not None,
        added_abilities=added,
        attacker_wounds_left=attacker.wounds_left,
        notes=look.notes(att),
    )
    verb = "shoot" if phase == "shooting" else "fight"
    fields = {}
    for option, name in (*STEP_OPTIONS.items(), *LIST_OPTIONS.items()):
        if getattr(step, name) is not None:
            fields[option] = f"sequence[{j}].{name}"
        elif getattr(spec, name) is not None:
            fields[option] = name
        elif getattr(d, name) is not None:
            fields[option] = f"(top level) {name}"
    return _StepTemplate(j + 1, f"{verb} {_auto_name(attacker)}", sel, bool(att.weapons), fields)


def jobs_from_options(
    cat: "Catalog",
    attackers: list[str],
    targets: list[str | UnitSpec],
    *,
    loadouts: list[str] | None = None,
    models: list[int] | None = None,
    leaders: list[str] | None = None,
    phase: str = "shooting",
    conditions: Conditions | None = None,
    effects: list[str] | None = None,
    edition: str = "10",
    method: str = "exact",
    trials: int | None = None,
    seed: int = 40_000,
    factions: dict[str, str | None] | None = None,
    sampler_set: tuple[str, ...] = (),
) -> list[Job | RunError]:
    """The jobs of ``calc compare ATTACKER... --target T...``: attackers × sizes × loadouts ×
    targets (names, or a target set's entries); ``factions`` maps "attacker"/"target" to the
    faction names are looked up in. A run is named by what varies between runs (attacker,
    ``xN`` size, loadout), or from its attacker when nothing does. ``sampler_set``: the
    sampler options given (``--trials``, ``--seed``), noted where only the exact engine runs.

    With several attackers, a loadout is only crossed with the attackers that have it (a
    loadout none of them has is an error). ``leaders`` are attached to every attacker.
    """
    look = _Lookup(cat, factions)
    try:
        _check_effects(list(effects or []))
    except _FieldError as exc:
        return [RunError(None, exc.message, "--effect")]
    out: list[Job | RunError] = []
    sheets = _attacker_sheets(look, attackers, out, edition)
    choices = _option_targets(look, targets, edition, out)
    for name, spec in _option_runs(attackers, sheets, models, loadouts, leaders):
        try:
            att = _unit_choice(look, spec, "attacker", [], edition)
        except _FieldError as exc:
            out.append(RunError(name, exc.message))
            continue
        for label, (tgt, tspec) in choices.items():
            sel = Selection(
                phase=phase,
                attacker=att,
                target=tgt,
                conditions=conditions or Conditions(),
                effects=tuple(effects or ()),
                edition=edition,
                allocation=allocation_choice(names(tspec.allocation)),
                target_wounds_left=tspec.wounds_left,
                notes=look.notes(att, tgt),
            )
            out.append(Job(name, sel, method, trials, seed, label, sampler_set=sampler_set))
    return out


def _attacker_sheets(
    look: _Lookup, attackers: list[str], out: list[Job | RunError], edition: str | None = None
) -> dict[str, Datasheet]:
    """The datasheet of each attacker named on the command line; an error appended to
    ``out`` for each name not found (once a name)."""
    sheets: dict[str, Datasheet] = {}
    for a in dict.fromkeys(attackers):  # each unknown name reported once
        try:
            sheets[a] = look.find(a, edition=edition)
        except USER_ERRORS as exc:
            out.append(RunError(None, str(exc), "attacker"))
    return sheets


def option_targets(
    cat: "Catalog",
    targets: "list[str | UnitSpec | SetEntry]",
    edition: str,
    factions: dict[str, str | None] | None = None,
) -> tuple[dict[str, tuple[UnitChoice, UnitSpec]], list[RunError]]:
    """The command line's targets (names, or a target set's entries), checked, by label, and
    an error for each that cannot be a target (for jobs built elsewhere: an army list's)."""
    out: list[RunError] = []
    return _option_targets(_Lookup(cat, factions), targets, edition, out), out


def _option_targets(
    look: _Lookup, targets: "Sequence[str | UnitSpec | SetEntry]", edition: str, out: list
) -> dict[str, tuple[UnitChoice, UnitSpec]]:
    """The checked targets of the command line (names, or a target set's entries) by label,
    each once (two entries of a set that differ only in what the label leaves out, such as
    the allocation order, are two targets, labelled with their lines); an error appended to
    ``out`` for each that cannot be a target (naming the set file and field of a set's
    entry)."""
    import msgspec

    found: dict[bytes, tuple[UnitSpec, SetEntry | None]] = {}
    for t in targets:
        where = _set_of(t)
        spec = _unit_spec(where.entry if where is not None else cast("str | UnitSpec", t))
        found.setdefault(msgspec.json.encode(spec), (spec, where))
    labels = [_target_label(spec) for spec, _ in found.values()]
    specs: dict[str, tuple[UnitSpec, SetEntry | None]] = {}
    for label, (spec, where) in zip(labels, found.values(), strict=True):
        if labels.count(label) > 1 and where is not None:
            label = f"{label} ({where.where})"
        specs.setdefault(label, (spec, where))
    choices: dict[str, tuple[UnitChoice, UnitSpec]] = {}
    for label, (tspec, where) in specs.items():
        try:
            choices[label] = (_unit_choice(look, tspec, "target", [], edition), tspec)
        except _FieldError as exc:
            if where is None:
                out.append(RunError(None, exc.message, f"--target {label}"))
                continue
            parts = [] if isinstance(where.entry, str) else exc.parts
            out.append(RunError(None, exc.message, where.field(parts), where.where))
    return choices


def _option_runs(
    attackers: list[str],
    sheets: dict[str, Datasheet],
    models: list[int] | None,
    loadouts: list[str] | None,
    leaders: list[str] | None,
) -> Iterator[tuple[str, UnitSpec]]:
    """The runs of the command line, named: each attacker found × size × loadout (with
    several attackers, a loadout only for those that have it, unless none has it), named by
    what varies between runs, or from the attacker when nothing does."""
    loadout_list: list[str | None] = list(loadouts) if loadouts else [None]
    model_list: list[int | None] = list(models) if models else [None]
    known = {lo for lo in loadout_list if any(has_loadout(ds, lo) for ds in sheets.values())}
    for a in attackers:
        if a not in sheets:
            continue
        for m in model_list:
            for lo in loadout_list:
                if len(attackers) > 1 and lo in known and not has_loadout(sheets[a], lo):
                    continue
                spec = UnitSpec(name=a, models=m, loadout=lo, leader=list(leaders or []))
                varying = [
                    part
                    for part, many in (
                        (a, len(attackers) > 1),
                        (f"x{m}", len(model_list) > 1),
                        (lo, len(loadout_list) > 1),
                    )
                    if many
                ]
                yield " ".join(str(p) for p in varying) or _auto_name(spec), spec

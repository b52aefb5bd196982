"""Jobs of ``calc compare``: (run, target) activations built from a batch file or from
command-line options, resolved exactly as ``calc shoot``/``calc fight`` resolve one, into rows
carrying the contract object and the compared figures."""

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from ..batch import (
    Batch,
    RawRun,
    RunFieldError,
    RunSpec,
    UnitSpec,
    names,
    parse_run,
)
from ..datasheet import Datasheet, DatasheetError, norm_name
from ..selection import (
    AddedAbility,
    Conditions,
    Modifiers,
    Selection,
    SelectionError,
    UnitChoice,
    allocation_choice,
    precision_target_value,
)

if TYPE_CHECKING:
    from ..catalog import Catalog

USER_ERRORS: tuple[type[Exception], ...] = (DatasheetError, SelectionError, LookupError, ValueError)

# ---------------------------------------------------------------------------------------------
# Jobs, rows and errors


@dataclass(frozen=True)
class Job:
    """One (run, target) activation to resolve: the run's name, the Selection, the engine
    settings, and for error messages a label for the target and the batch file and line."""

    run: str
    selection: Selection
    method: str = "exact"
    trials: int = 100_000
    seed: int = 40_000
    target_label: str = ""
    source: str | None = None
    line: int | None = None


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
        loc = ""
        if self.source:
            loc = f"{self.source}:{self.line}: " if self.line else f"{self.source}: "
        who = f"run {self.run!r}" if self.run is not None else ""
        if self.target:
            who += f" against {self.target}"
        head = f"{who}: " if who else ""
        fld = f"{self.field}: " if self.field else ""
        return f"{loc}{head}{fld}{self.message}"


@dataclass
class Row:
    """One resolved (run, target): the contract object (``report.to_json`` plus ``"run"``) and
    the figures compared (see :func:`row_figures`)."""

    job: Job
    result: dict[str, Any]
    figures: dict[str, float | None]

    @property
    def target_key(self) -> tuple:
        """What makes two rows' targets the same (name with Leaders, size, loadout, allocation)."""
        t = self.job.selection.target
        return (
            self.result["target"]["name"],
            self.result["target"]["models"],
            norm_name(t.loadout) if t.loadout and norm_name(t.loadout) != "default" else "",
            self.job.selection.allocation,
            self.job.selection.target_wounds_left,
        )


def row_figures(obj: dict[str, Any]) -> dict[str, float | None]:
    """The compared figures of one contract object (``report.to_json``).

    Returns a dict with ``damage`` (expected damage), ``models`` (expected models destroyed),
    ``wipe`` (P(every target model destroyed): the last kill-table entry), ``efficiency``
    (target points destroyed per 100 points of attacker: the target's points per model times
    expected models destroyed, over the attacker's points, times 100; None for a 0-point
    attacker, or where either side's source lists no points) and ``losses`` (the attacker's
    expected models lost to Hazardous).
    """
    models = float(obj["expected"]["models_destroyed"])
    kill = obj["kill_table"]
    att_pts = float(obj["attacker"]["points"])
    tgt = obj["target"]
    per_model = float(tgt["points"]) / tgt["models"] if tgt["models"] else 0.0
    listed = obj["attacker"].get("points_listed", True) and tgt.get("points_listed", True)
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
    compared figures.

    Raises:
        SelectionError, LookupError, ValueError, DatasheetError: as ``resolve`` does.
    """
    from ..report import to_json
    from ..resolve import resolve

    obj = to_json(resolve(job.selection, job.method, job.trials, job.seed))
    return obj, row_figures(obj)


def run_job(job: Job) -> Row:
    """Resolve one job and build its row.

    Raises:
        SelectionError, LookupError, ValueError, DatasheetError: as ``resolve`` does.
    """
    obj, figures = job_outcome(job)
    return Row(job, {"run": job.run, **obj}, figures)


# ---------------------------------------------------------------------------------------------
# Building jobs: shared by batch files and command-line options


class _Lookup:
    """Catalog look-ups cached for one compare (``Catalog.find`` lists files on every call),
    and the unit choices already checked (a batch names the same units run after run)."""

    def __init__(self, cat: "Catalog", factions: dict[str, str | None] | None = None):
        self.cat = cat
        self.factions = factions or {}  # role -> faction (--faction, --target-faction)
        self.cache: dict[tuple[str, str | None], Datasheet | Exception] = {}
        self.choices: dict[tuple[str, str, bytes], UnitChoice] = {}

    def find(self, name: str, role: str = "attacker") -> Datasheet:
        faction = self.factions.get(role)
        key = (norm_name(name), faction)
        if key not in self.cache:
            try:
                self.cache[key] = self.cat.find(name, faction)
            except USER_ERRORS as exc:
                self.cache[key] = exc
        hit = self.cache[key]
        if isinstance(hit, Exception):
            raise hit
        return hit


class _FieldError(Exception):
    def __init__(self, parts: list[str | int], message: str):
        super().__init__(message)
        self.parts = parts
        self.message = message


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
    import msgspec

    key = (role, edition, msgspec.json.encode(spec))
    if key in look.choices:
        return look.choices[key]
    choice = _check_unit_choice(look, spec, role, base, edition)
    look.choices[key] = choice
    return choice


def _check_unit_choice(
    look: _Lookup, spec: UnitSpec, role: str, base: list[str | int], edition: str
) -> UnitChoice:
    from ..units import build_unit, parse_weapon_spec, pick_size

    def at(*more: str | int) -> list[str | int]:
        return [*base, *more]

    try:
        ds = look.find(spec.name, role)
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
    if spec.wounds_left is not None and role == "attacker":
        raise _FieldError(at("wounds_left"), "wounds_left is the target's wounded model")
    weapons = []
    for i, text in enumerate(spec.weapons):
        try:
            wname, count = parse_weapon_spec(text)
        except SelectionError as exc:
            raise _FieldError(at("weapons", i), str(exc)) from None
        if ds.weapon(wname) is None:
            from ..catalog import did_you_mean

            raise _FieldError(
                at("weapons", i),
                f"{ds.name} has no weapon {wname!r}"
                + did_you_mean(wname, [w.name for w in ds.weapons])
                + f" (weapons: {', '.join(w.name for w in ds.weapons)})",
            )
        weapons.append((wname, count))
    leaders = []
    for i, lname in enumerate(names(spec.leader)):
        try:
            leaders.append(look.find(lname, role))
        except (LookupError, DatasheetError) as exc:
            raise _FieldError(
                at("leader", i) if isinstance(spec.leader, list) else at("leader"), str(exc)
            ) from None
    choice = UnitChoice(ds, spec.models, spec.loadout, tuple(weapons), tuple(leaders))
    try:
        build_unit(choice, role, edition)
    except SelectionError as exc:
        raise _FieldError(base, str(exc)) from None
    return choice


def _check_effects(effects: list[str]) -> None:
    from ..effects import lookup

    for i, name in enumerate(effects):
        bare = name.split(":", 1)[1] if ":" in name else name
        try:
            lookup(bare.strip())
        except LookupError as exc:
            raise _FieldError(["effects", i], str(exc)) from None


def _merge(cls: type, *specs: Any) -> Any:
    """The dataclass ``cls`` (Conditions or Modifiers) from its defaults overridden, field by
    field, by each spec's non-None values in turn."""
    values = {}
    for f in fields(cls):
        for spec in specs:
            v = getattr(spec, f.name, None) if spec is not None else None
            if v is not None:
                values[f.name] = v
    return cls(**values)


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
    return " ".join(parts)


def _target_label(spec: UnitSpec) -> str:
    text = spec.name if spec.models is None else f"{spec.models} {spec.name}"
    if spec.loadout:
        text += f" ({spec.loadout})"
    if names(spec.leader):
        text += " led by " + " and ".join(names(spec.leader))
    if spec.wounds_left is not None:
        text += f", {spec.wounds_left} wounds left"
    return text


@dataclass
class Overrides:
    """Command-line settings that override a batch file's (None: keep the file's)."""

    edition: str | None = None
    method: str | None = None
    trials: int | None = None
    seed: int | None = None


def jobs_from_batch(
    batch: Batch, cat: "Catalog", overrides: Overrides | None = None
) -> list[Job | RunError]:
    """Every (run, target) job of a loaded batch, with an error in place of each bad run (or bad
    target of a run), in batch order.

    Args:
        batch: from :func:`wh40k_calc.batch.load_batch`.
        cat: where datasheets are looked up.
        overrides: command-line settings that win over the file's.
    """
    look = _Lookup(cat)
    ov = overrides or Overrides()
    d = batch.defaults
    src = str(batch.path)
    out: list[Job | RunError] = []
    seen: dict[str, int] = {}
    auto: dict[str, int] = {}
    for raw in batch.runs:

        def err(
            message: str,
            parts: list[str | int] | None = None,
            target: str | None = None,
            top: bool = False,
            name: str = raw.label,
            raw: RawRun = raw,
        ) -> RunError:
            line = None
            if parts is not None:
                line = batch.line_of(parts, None if top else raw)
            return RunError(
                name,
                message,
                (("(top level) " if top else "") + _dotted(parts)) if parts else None,
                src,
                line or raw.line,
                target,
            )

        try:
            spec = parse_run(batch, raw)
        except RunFieldError as exc:
            out.append(RunError(raw.label, exc.message, exc.field, src, exc.line or raw.line))
            continue
        attacker = _unit_spec(spec.attacker)
        if spec.name is not None:
            name = spec.name
            if name in seen:
                out.append(err(f"name used by runs[{seen[name]}] as well", ["name"], name=name))
                continue
        else:
            name = _auto_name(attacker)
            auto[name] = auto.get(name, 0) + 1
            if auto[name] > 1 or name in seen:
                name = f"{name} #{auto[name]}"
        seen[name] = raw.index
        if spec.target is not None and spec.targets is not None:
            out.append(err("give 'target' or 'targets', not both", ["targets"], name=name))
            continue
        if spec.target is not None:
            targets = [(["target"], _unit_spec(spec.target), False)]
        elif spec.targets is not None:
            targets = [(["targets", j], _unit_spec(t), False) for j, t in enumerate(spec.targets)]
        elif d.targets:
            targets = [(["targets", j], _unit_spec(t), True) for j, t in enumerate(d.targets)]
        else:
            out.append(
                err(
                    "no target: give 'target' or 'targets' in the run, or 'targets' at the top",
                    ["attacker"],
                    name=name,
                )
            )
            continue
        if not targets:
            out.append(err("'targets' is empty", ["targets"], name=name))
            continue
        effects = spec.effects if spec.effects is not None else (d.effects or [])
        edition = ov.edition or str(spec.edition or d.edition or "10")
        try:
            _check_effects(effects)
            added = _added_abilities(spec, d)
            att = _unit_choice(look, attacker, "attacker", ["attacker"], edition)
        except _FieldError as exc:
            top = (exc.parts[:1] == ["effects"] and spec.effects is None) or (
                exc.parts[:1] == ["add_abilities"] and spec.add_abilities is None
            )
            if isinstance(spec.attacker, str) and exc.parts[:1] == ["attacker"]:
                exc.parts = ["attacker"]
            out.append(err(exc.message, exc.parts, name=name, top=top))
            continue
        try:
            modifiers = _merge(
                Modifiers,
                d.modifiers,
                _Stealth(d.target_stealth),
                spec.modifiers,
                _Stealth(spec.target_stealth),
            )
        except SelectionError as exc:
            out.append(err(str(exc), ["modifiers"], name=name, top=spec.modifiers is None))
            continue
        method = ov.method or spec.method or d.method or "exact"
        trials = ov.trials or spec.trials or d.trials or 100_000
        seed = next(s for s in (ov.seed, spec.seed, d.seed, 40_000) if s is not None)
        order_spec = spec.order if spec.order is not None else d.order
        order: tuple[str, ...] | str | None = None
        if isinstance(order_spec, str) and order_spec.strip().lower() == "best":
            order = "best"
        elif order_spec is not None:
            order = names(order_spec) or None
        for parts, tspec, top in targets:
            label = _target_label(tspec)
            try:
                tgt = _unit_choice(look, tspec, "target", list(parts), edition)
            except _FieldError as exc:
                if isinstance(_raw_target(spec, d, parts, top), str):
                    exc.parts = list(parts)
                out.append(err(exc.message, exc.parts, target=label, top=top, name=name))
                continue
            sel = Selection(
                phase=spec.phase or d.phase or "shooting",
                attacker=att,
                target=tgt,
                conditions=_merge(Conditions, d.conditions, spec.conditions),
                modifiers=modifiers,
                effects=tuple(effects),
                edition=edition,
                order=order,
                allocation=allocation_choice(names(tspec.allocation)),
                target_wounds_left=tspec.wounds_left,
                precision_target=precision_target_value(
                    spec.precision_target or d.precision_target or "leader"
                ),
                added_abilities=added,
            )
            out.append(Job(name, sel, method, trials, seed, label, src, raw.line))
    return out


@dataclass(frozen=True)
class _Stealth:
    """A run's (or the defaults') ``target_stealth: true``, merged into its modifiers."""

    target_stealth: bool | None


def _added_abilities(spec: RunSpec, d: Any) -> tuple[AddedAbility, ...]:
    """The run's ``add_abilities`` (else the defaults'), parsed like ``--add-ability``.

    Raises:
        _FieldError: naming the entry that does not parse.
    """
    from ..abilities import parse_added_ability

    texts = spec.add_abilities if spec.add_abilities is not None else (d.add_abilities or [])
    out = []
    for i, text in enumerate(texts):
        try:
            out.append(AddedAbility(*parse_added_ability(text)))
        except ValueError as exc:
            raise _FieldError(["add_abilities", i], str(exc)) from None
    return tuple(out)


def _raw_target(spec: RunSpec, d: Any, parts: list[str | int], top: bool) -> Any:
    if parts == ["target"]:
        return spec.target
    j = parts[1]
    assert isinstance(j, int)
    return (d.targets if top else spec.targets)[j]


def jobs_from_options(
    cat: "Catalog",
    attackers: list[str],
    targets: list[str],
    *,
    loadouts: list[str] | None = None,
    models: list[int] | None = None,
    leaders: list[str] | None = None,
    phase: str = "shooting",
    conditions: Conditions | None = None,
    effects: list[str] | None = None,
    edition: str = "10",
    method: str = "exact",
    trials: int = 100_000,
    seed: int = 40_000,
    factions: dict[str, str | None] | None = None,
) -> list[Job | RunError]:
    """The jobs of ``calc compare ATTACKER... --target T...``: attackers × sizes × loadouts ×
    targets; ``factions`` maps "attacker"/"target" to the faction names are looked up in. A
    run is named by what varies between runs (attacker, ``xN`` size, loadout), or from its
    attacker when nothing does.

    With several attackers, a loadout is only crossed with the attackers that have it (a
    loadout none of them has is an error). ``leaders`` are attached to every attacker.
    """
    look = _Lookup(cat, factions)
    out: list[Job | RunError] = []
    try:
        _check_effects(list(effects or []))
    except _FieldError as exc:
        return [RunError(None, exc.message, "--effect")]
    sheets: dict[str, Datasheet] = {}
    for a in dict.fromkeys(attackers):  # each unknown name reported once
        try:
            sheets[a] = look.find(a)
        except USER_ERRORS as exc:
            out.append(RunError(None, str(exc), "attacker"))
    choices: dict[str, UnitChoice] = {}
    for t in dict.fromkeys(targets):
        try:
            choices[t] = _unit_choice(look, UnitSpec(name=t), "target", [], edition)
        except _FieldError as exc:
            out.append(RunError(None, exc.message, f"--target {t}"))
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
                name = " ".join(str(p) for p in varying) or _auto_name(spec)
                try:
                    att = _unit_choice(look, spec, "attacker", [], edition)
                except _FieldError as exc:
                    out.append(RunError(name, exc.message))
                    continue
                for t in targets:
                    if t not in choices:
                        continue
                    sel = Selection(
                        phase=phase,
                        attacker=att,
                        target=choices[t],
                        conditions=conditions or Conditions(),
                        effects=tuple(effects or ()),
                        edition=edition,
                    )
                    out.append(Job(name, sel, method, trials, seed, t))
    return out

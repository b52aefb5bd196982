"""Typed groups of command-line options for typer commands.

typer declares one function parameter per option. Options that travel together (the condition
flags, the modifiers, the target options, the engine options) are declared once instead, as the
fields of a frozen record (a msgspec Struct, or a dataclass) whose annotations carry the
``typer.Option``, and a command takes
the whole group as one typed parameter::

    @app.command()
    @with_groups
    def shoot(*, conditions: ConditionOptions, engine: EngineOptions) -> None: ...

:func:`with_groups` shows typer a signature in which each parameter annotated with an
:class:`OptionGroup` subclass is replaced by the group's fields (keyword-only, named like the
fields), and on each call packs the parsed values back into one group object. Every command
that takes a group therefore has the same options with the same names, types, ranges and help,
and builds the same typed object from them.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping
from copy import copy
from typing import Annotated, Any, ClassVar, TypeVar, get_args, get_origin, get_type_hints

F = TypeVar("F", bound=Callable[..., Any])


class OptionGroup:
    """Base of the option groups: subclasses are frozen records (``class G(OptionGroup,
    Struct, frozen=True)``, or frozen dataclasses) whose fields are annotated
    ``Annotated[T, typer.Option(...)]`` (or ``typer.Argument``) with the option's default.

    ``help_overrides`` (field name -> help text) lets a subclass reuse a group with help worded
    for another command (``calc compare``'s engine options override a batch file's).
    """

    __slots__ = ()
    help_overrides: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def parameters(cls) -> list[inspect.Parameter]:
        """The group's fields as keyword-only parameters for typer (annotation with the typer
        info, default)."""
        hints = get_type_hints(cls, include_extras=True)
        out = []
        # a class is hashable: mypy refuses type[X] as Hashable (python/mypy#11470)
        for name, default in _fields(cls):  # type: ignore[arg-type]
            annotation = hints[name]
            if name in cls.help_overrides:
                annotation = _with_help(annotation, cls.help_overrides[name])
            out.append(
                inspect.Parameter(
                    name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
                )
            )
        return out

    @classmethod
    def option_names(cls) -> dict[str, str]:
        """Field name -> the option as the user types it (``--half-range``; an argument's
        metavar)."""
        hints = get_type_hints(cls, include_extras=True)
        # a class is hashable: mypy refuses type[X] as Hashable (python/mypy#11470)
        return {name: _option_name(name, hints[name]) for name, _ in _fields(cls)}  # type: ignore[arg-type]

    def changed(self) -> list[str]:
        """The options whose value is not the default (and not empty), as the user types them."""
        names = self.option_names()
        out = []
        # a class is hashable: mypy refuses type[X] as Hashable (python/mypy#11470)
        for name, default in _fields(type(self)):  # type: ignore[arg-type]
            value = getattr(self, name)
            if value not in (default, None, (), []):
                out.append(names[name])
        return out


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """(name, default) of each field of the group ``cls`` in order, the default
    ``inspect.Parameter.empty`` where there is none (an option group declares no default
    factories); read once per class. A record's defaults are those of its last fields."""
    names = getattr(cls, "__struct_fields__", None)
    if names is not None:
        defaults = cls.__struct_defaults__  # type: ignore[attr-defined]
        first = len(names) - len(defaults)
        return tuple(
            (n, defaults[i - first] if i >= first else inspect.Parameter.empty)
            for i, n in enumerate(names)
        )
    return tuple(
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(cls)
    )


def _typer_info(annotation: Any) -> Any:
    if get_origin(annotation) is Annotated:
        for extra in get_args(annotation)[1:]:
            if hasattr(extra, "param_decls"):  # typer's OptionInfo / ArgumentInfo
                return extra
    return None


def _with_help(annotation: Any, text: str) -> Any:
    info = _typer_info(annotation)
    if info is None:
        raise TypeError(f"help override for an option without typer info: {annotation!r}")
    info = copy(info)
    info.help = text
    return Annotated[get_args(annotation)[0], info]


def _option_name(field: str, annotation: Any) -> str:
    info = _typer_info(annotation)
    if info is None:
        return field
    if type(info).__name__ == "ArgumentInfo":
        return info.metavar or field.upper()
    # In Annotated style typer keeps the first declaration in ``default``.
    decls = [info.default] if isinstance(info.default, str) else []
    decls += list(info.param_decls or ())
    long = [d for d in decls if d.startswith("--")]
    return long[0] if long else "--" + field.replace("_", "-")


def _is_group(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, OptionGroup)


def _evaluated_signature(func: Callable[..., Any]) -> inspect.Signature:
    """``func``'s signature with its parameters' annotations evaluated (``from __future__
    import annotations`` leaves them as text) and without the return annotation (which may
    name a type imported only for type checkers)."""
    sig = inspect.signature(func)
    params = [
        p.replace(annotation=eval(p.annotation, func.__globals__))  # our own annotations
        if isinstance(p.annotation, str)
        else p
        for p in sig.parameters.values()
    ]
    return sig.replace(parameters=params, return_annotation=inspect.Signature.empty)


def with_groups(func: F) -> F:
    """Let typer see the fields of each :class:`OptionGroup` parameter of ``func`` as options.

    Returns a wrapper whose signature (what typer reads) has every parameter keyword-only, each
    group parameter replaced by its fields; called with those fields, it calls ``func`` with one
    group object per group parameter.

    Raises:
        TypeError: two groups (or a group and a parameter) use the same name.
    """
    sig = _evaluated_signature(func)
    groups = {p.name: p.annotation for p in sig.parameters.values() if _is_group(p.annotation)}
    params: list[inspect.Parameter] = []
    for p in sig.parameters.values():
        if p.name in groups:
            params.extend(groups[p.name].parameters())
        else:
            params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))
    seen: set[str] = set()
    for p in params:
        if p.name in seen:
            raise TypeError(f"{func.__name__}: option {p.name!r} declared twice")
        seen.add(p.name)
    fields = {name: [f for f, _ in _fields(cls)] for name, cls in groups.items()}

    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> Any:
        for name, cls in groups.items():
            kwargs[name] = cls(**{f: kwargs.pop(f) for f in fields[name]})
        return func(**kwargs)

    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper  # type: ignore[return-value]


def once_command_class() -> type:
    """A typer command class whose single-valued options may be given only once.

    click keeps the last of a repeated option silently (``--target boyz --target rhino``
    resolved the Rhino); this class refuses the command line instead, as a usage error naming
    the option. Repeatable options (``multiple``), counters and flags are not affected.
    """
    import typer
    from typer.core import TyperCommand, TyperOption

    # click's UsageError (typer vendors click and exports only this subclass of it)
    usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

    class OnceCommand(TyperCommand):
        def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            seen: set[str | None] = set()
            for p in order:
                once = isinstance(p, TyperOption) and not (p.multiple or p.count or p.is_flag)
                if once and p.name in seen:
                    raise usage_error(_twice(p.opts[0], self.name), ctx)
                seen.add(p.name)
            return super().parse_args(ctx, args)

    return OnceCommand


def _twice(option: str, command: str | None) -> str:
    """The refusal of a repeated single-valued option."""
    several = option == "--target" and command in ("shoot", "fight", "sequence")
    hint = " (calc compare takes several)" if several else ""
    return f"{option} is given more than once; it takes one value, so give it once{hint}"

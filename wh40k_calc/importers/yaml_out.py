"""Datasheet data written as readable YAML: one block per model, one line per weapon, unit size
and loadout entry (wrapped at 100 columns), short lists inline, keys in the order given.

Hand-rolled on purpose: PyYAML's emitter either puts everything in block style (a weapon over
ten lines) or everything in flow style; a datasheet reads best as a mix. Each scalar is still
written by PyYAML, so quoting is always right, and ``yaml.safe_load`` gives the data back.
"""

from __future__ import annotations

import functools

_WIDTH = 100


def _scalar(value: object) -> str:
    """One scalar as YAML text, quoted where a flow context needs it."""
    if value is None or isinstance(value, bool | int | float):
        return _dumped(value)
    return _dumped(str(value))


@functools.lru_cache(maxsize=65536)
def _dumped(value: object) -> str:
    import yaml  # lazy: only needed when a file is written

    text = yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, width=1 << 30)
    return text.strip()[1:-1]  # drop the list's brackets


def _atoms(value: object) -> list[str]:
    """Flow-style text of ``value`` cut where a line may break (after each ', ')."""
    if isinstance(value, dict | list):
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        atoms: list[str] = []
        for key, item in items:
            sub = _atoms(item)
            if key is not None:
                sub[0] = f"{_scalar(key)}: {sub[0]}"
            atoms.extend(sub)
        if not atoms:
            return [opening + closing]
        atoms[0] = opening + atoms[0]
        atoms[-1] += closing
        return atoms
    return [_scalar(value)]


def _flow(prefix: str, value: object, indent: int) -> list[str]:
    """``prefix`` then ``value`` in flow style, wrapped at ``_WIDTH`` columns: between its
    entries where possible, inside an entry (an ability list) only when it is too long."""
    if not isinstance(value, dict | list) or not value:
        return [prefix + _atoms(value)[0]]
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    entries = []
    for key, item in items:
        atoms = _atoms(item)
        if key is not None:
            atoms[0] = f"{_scalar(key)}: {atoms[0]}"
        entries.append(atoms)
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    entries[0][0] = opening + entries[0][0]
    entries[-1][-1] += closing
    cont = " " * (indent + 3)
    lines = [prefix]
    for n, atoms in enumerate(entries):
        sep = ", " if n else ""
        whole = ", ".join(atoms)
        if len(lines[-1]) + len(sep) + len(whole) <= _WIDTH:
            lines[-1] += sep + whole
            continue
        if n:
            lines[-1] += ","
            lines.append(cont)
        for i, atom in enumerate(atoms):
            if i and len(lines[-1]) + 2 + len(atom) > _WIDTH:
                lines[-1] += ","
                lines.append(cont + atom)
            else:
                lines[-1] += (", " if i else "") + atom
    return lines


def _block(key: str, value: object, indent: int) -> list[str]:
    pad = " " * indent
    head = f"{pad}{_scalar(key)}:"
    if isinstance(value, dict) and value:
        return [head] + [line for k, v in value.items() for line in _block(k, v, indent + 2)]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        lines = [head]
        for item in value:
            if key in ("models", "effects"):  # a block mapping per model (record), lists inline
                for i, (k, v) in enumerate(item.items()):
                    sub = _block(k, v, indent + 4)
                    sub[0] = (f"{pad}  - " if i == 0 else f"{pad}    ") + sub[0].lstrip()
                    lines.extend(sub)
            else:
                lines.extend(_flow(f"{pad}  - ", item, indent + 4))
        return lines
    return _flow(head + " ", value, indent + 2)


def to_yaml(data: dict, header: str | None = None) -> str:
    """Datasheet data as readable YAML: one block per model, one line per weapon, unit size and
    loadout entry (wrapped at 100 columns), short lists inline, keys in the order given.
    ``header`` lines become ``#`` comments at the top. ``yaml.safe_load`` gives ``data`` back.
    """
    lines = [f"# {line}".rstrip() for line in (header or "").splitlines()]
    for key, value in data.items():
        lines.extend(_block(key, value, 0))
    return "\n".join(lines) + "\n"

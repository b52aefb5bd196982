"""``calc compare``: many activations side by side, from a batch file or from the command line.

``calc compare BATCH.yaml`` runs every run of a batch file (:mod:`wh40k_calc.batch`) against its
targets; ``calc compare lootas --loadout default --loadout rokkit-launchas --target boyz`` crosses
attackers, sizes, loadouts and targets. Each (run, target) pair is one :class:`Row`, resolved
exactly like ``calc shoot``/``calc fight`` (same Selection, same ``resolve``), so the numbers are
those of the single commands. Output: a rich table grouped by target and sorted, ``--json`` (a
list of contract objects with ``"run"``) or ``--csv``.
"""

from importlib import import_module
from typing import Any

_WHERE = {
    "register": "command",
    "Job": "jobs",
    "Row": "jobs",
    "RunError": "jobs",
    "jobs_from_batch": "jobs",
    "jobs_from_options": "jobs",
    "row_figures": "jobs",
    "run_job": "jobs",
    "run_jobs": "runner",
    "CSV_COLUMNS": "table",
    "SortKey": "table",
    "csv_records": "table",
    "render_table": "table",
    "write_csv": "table",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    """The names above, imported on first use: ``calc`` registers the command on every
    start-up, but needs the batch and job machinery only when ``calc compare`` runs."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_WHERE[name]}", __name__), name)

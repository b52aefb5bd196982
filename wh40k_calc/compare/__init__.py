"""``calc compare``: many activations side by side, from a batch file or from the command line.

``calc compare BATCH.yaml`` runs every run of a batch file (:mod:`wh40k_calc.batch`) against its
targets; ``calc compare lootas --loadout default --loadout rokkit-launchas --target boyz`` crosses
attackers, sizes, loadouts and targets. Each (run, target) pair is one :class:`Row`, resolved
exactly like ``calc shoot``/``calc fight`` (same Selection, same ``resolve``), so the numbers are
those of the single commands. Output: a rich table grouped by target and sorted, ``--json`` (a
list of contract objects with ``"run"``) or ``--csv``.
"""

from .command import register
from .jobs import (
    Job,
    Row,
    RunError,
    jobs_from_batch,
    jobs_from_options,
    row_figures,
    run_job,
    run_jobs,
)
from .table import CSV_COLUMNS, SortKey, csv_records, render_table, write_csv

__all__ = [
    "CSV_COLUMNS",
    "Job",
    "Row",
    "RunError",
    "SortKey",
    "csv_records",
    "jobs_from_batch",
    "jobs_from_options",
    "register",
    "render_table",
    "row_figures",
    "run_job",
    "run_jobs",
    "write_csv",
]

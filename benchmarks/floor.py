"""The floor of our stack: the smallest program built like ``calc``.

A typer app with one command and one option that imports numpy and yaml and prints one small
rich table. Nothing the calculator does can start faster than this, so start-up figures are
given as a ratio to its wall time (``benchmarks/test_bench_startup.py``; issue 12).

    python benchmarks/floor.py --rows 3
"""

from __future__ import annotations

from typing import Annotated

import numpy as np
import typer
import yaml
from rich.console import Console
from rich.table import Table

app = typer.Typer(add_completion=False)


@app.command()
def main(rows: Annotated[int, typer.Option(help="Rows to print.")] = 3) -> None:
    """Print a small table of a few numbers."""
    data = yaml.safe_load("[1, 2, 3]")
    table = Table(title="floor")
    table.add_column("k")
    table.add_column("value", justify="right")
    for k in range(rows):
        table.add_row(str(k), f"{np.float64(data[k % len(data)]) / 3:.3f}")
    Console(highlight=False).print(table)


if __name__ == "__main__":
    app()

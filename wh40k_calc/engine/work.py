"""What the exact engine's passes cost, estimated from the shapes they work on before they run:
the admission budget (:mod:`~wh40k_calc.engine.exact`) and the choice of each kernel's form.

The passes spend their time in a few kinds of numpy work, each with its own rate:

* **steps** of a kernel over an array (state first, then "the rest": figure bins, pending
  counts, count slots, Blast brackets), in one of three forms (:func:`step_costs`): a dense
  matrix product (``DENSE_NS`` per multiply-add), offsets (``OFFSET_NS`` per state, jump and
  element of the rest) or sparse entries (``SPARSE_NS`` per entry and element), plus a fixed
  cost per call (``CALL_NS``, and ``JUMP_CALL_NS`` per offset);
* **matrix products** over the counts (BLAS: ``DENSE_NS`` per multiply-add);
* **elementwise** work (copies, sums, deposits: ``ELEMENT_NS`` per element).

Complex arrays (the figure pass in Fourier bins) cost ``COMPLEX`` times as much.

Calibration: the rates were measured on the 2-core development machine with one OpenBLAS
thread (as ``calc`` runs), on the large arrays where the time goes (memory-bound: a step over
10^4-10^6 elements), and rounded up. ``benchmarks/calibrate_exact.py`` compares the estimate
that decides (at admission, and with the orders the defender chose where it switches orders
with the counts) with the measured pass (best of three, process time, nothing kept from the
run before) over the agreement grid, 300 random profiles and shipped units in edition 11 with
Devastating Wounds and one or two attached CHARACTER models. At the last calibration, over the
passes of at least 0.1 s (where the budget decides), measured / estimated was 0.55-0.93
(median 0.63) for the state pass and 0.40-0.98 (median 0.56) for the figure pass, so a pass
estimated at the 2 s budget takes about 1-2 s. Below 0.1 s the measured time is mostly
building the kernels (paid before the estimate is made) and fixed costs: up to 3.5 times the
estimate, at most about 0.03 s more. The budgets are in estimated seconds on that machine.
"""

from __future__ import annotations

DENSE_NS = 0.035  # ns per multiply-add of a dense matrix product (BLAS, one thread)
OFFSET_NS = 0.5  # ns per state, jump and element of the rest, of an offset step
SPARSE_NS = 10.0  # ns per entry and element of the rest, of a sparse (gather, segment-sum) step
ELEMENT_NS = 1.0  # ns per element of an elementwise operation (add, multiply, copy, sum)
COMPLEX = 3.0  # complex arrays cost this many times more per element
CALL_NS = 6_000.0  # ns of Python and numpy overhead per step
JUMP_CALL_NS = 1_500.0  # ns more per offset of an offset step
TYPICAL_REST = 32.0  # a kernel's form is chosen for steps over S x this many elements

STATE_SECONDS = 2.0  # the state pass the exact engine accepts (estimated seconds)
FIGURE_SECONDS = 2.0  # the figure pass computed exactly when the damage distribution is read
# its largest array may be this many times the state pass's limit (exact.MAX_ELEMENTS): it runs
# only when the distribution is read, and the arrays it works on are complex
FIGURE_ARRAYS = 2.0


def step_costs(states: int, entries: int, jumps: int, dense: bool) -> dict[str, float]:
    """Nanoseconds per element of the rest of the array, of one step of a kernel in each form
    it can take: offsets (every state once per distinct jump), sparse entries (each entry
    gathered, multiplied and summed), and with ``dense`` (the state pass) a dense matrix
    product (every pair of states)."""
    out = {"offsets": jumps * OFFSET_NS * states, "sparse": entries * SPARSE_NS}
    if dense:
        out["dense"] = states * states * DENSE_NS
    return out


def call_ns(kind: str, jumps: int) -> float:
    """The fixed cost of one step in form ``kind`` (nanoseconds)."""
    return CALL_NS + (JUMP_CALL_NS * jumps if kind == "offsets" else 0.0)


def elements_ns(count: float, complex_: bool = False) -> float:
    """Nanoseconds of elementwise work on ``count`` elements."""
    return count * ELEMENT_NS * (COMPLEX if complex_ else 1.0)


def product_ns(multiply_adds: float, complex_: bool = False) -> float:
    """Nanoseconds of a matrix product of ``multiply_adds`` multiply-adds (BLAS)."""
    return multiply_adds * DENSE_NS * (COMPLEX if complex_ else 1.0) + CALL_NS


def seconds_text(x: float) -> str:
    """Estimated seconds in words, as the budgets' messages give them: "1.6 s", "90 s",
    "3,000 s"."""
    return f"{x:.2g} s" if x < 100 else f"{x:,.0f} s"

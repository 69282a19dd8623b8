"""Single calls on 10^5 elements, below the threads' threshold: what one core does per element.

Each case is a call a program makes in a loop (a clip, a mask, a gather, a transcendental
function), on arrays small enough that arrayx runs it on the calling thread, as NumPy does:
here a slow path shows at its full cost, where at 10^7 elements two threads could hide it.
Cases without a target report where arrayx still trails NumPy on one core (the float64
functions that compute through two exponentials, a double-double logarithm or a
double-double quotient to stay within one ULP, where NumPy's SVML functions stray up to 4;
those costing 8 adds an element or more run on the kernel threads from 2^15 elements);
``vecdot`` of short rows).
"""

from __future__ import annotations

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, compare

N = 100_000


def run(repeats: int) -> list[Timing]:
    """Time the single-call cases.

    Parameters
    ----------
    repeats : int
        Alternating repeats per case.

    Returns
    -------
    list of Timing
        One per case, in the order of the report.
    """
    rng = np.random.default_rng(0)
    a_np = rng.random(N) * 4 - 2
    a = xp.asarray(a_np)
    pos_np = np.abs(a_np) + 0.01
    pos = xp.asarray(pos_np)
    mask_np = a_np > 0
    mask = xp.asarray(mask_np)
    idx_np = rng.integers(-N, N, N)
    idx = xp.asarray(idx_np)
    ints_np = rng.integers(0, 1000, N)
    ints = xp.asarray(ints_np)
    masked_np = a_np.copy()
    masked_np[::3] = -np.inf
    masked = xp.asarray(masked_np)
    rows_np = rng.random((N // 64, 64))
    rows = xp.asarray(rows_np)
    short_np = rng.random(1000)
    short = xp.asarray(short_np)
    name = f"10^{len(str(N)) - 1}"

    def case(label, ax, np_, target, exact=True):
        return compare(f"{label}, {name}", ax, np_, repeats=repeats, target=target, exact=exact)

    def np_log_of_negatives():
        with np.errstate(invalid="ignore"):
            return np.log(a_np)

    return [
        case("clip(x, -1, 1)", lambda: xp.clip(a, -1.0, 1.0), lambda: np.clip(a_np, -1.0, 1.0),
             1.5),
        case("x ** 2", lambda: a ** 2, lambda: a_np ** 2, 1.0),
        case("where(x > 0, x, 0.0)", lambda: xp.where(mask, a, 0.0),
             lambda: np.where(mask_np, a_np, 0.0), 1.0),
        case("floor", lambda: xp.floor(a), lambda: np.floor(a_np), 1.0),
        case("sign", lambda: xp.sign(a), lambda: np.sign(a_np), 1.0),
        case("x[mask]", lambda: a[mask], lambda: a_np[mask_np], 1.0),
        case("x[idx], idx int64", lambda: a[idx], lambda: a_np[idx_np], 1.0),
        case("nonzero of bools", lambda: xp.nonzero(mask)[0], lambda: np.nonzero(mask_np)[0],
             1.5),
        case("count_nonzero of bools", lambda: xp.count_nonzero(mask),
             lambda: np.count_nonzero(mask_np), 1.2),
        case("isin(ints, 100 of them)", lambda: xp.isin(ints, ints[:100]),
             lambda: np.isin(ints_np, ints_np[:100]), 1.0),
        case("repeat(1000 floats, 100)", lambda: xp.repeat(short, 100),
             lambda: np.repeat(short_np, 100), 2.0),
        case("exp with -inf every third", lambda: xp.exp(masked), lambda: np.exp(masked_np),
             1.0, exact=False),
        case("log of half negatives", lambda: xp.log(a), np_log_of_negatives, 1.0, exact=False),
        case("log10", lambda: xp.log10(pos), lambda: np.log10(pos_np), None, exact=False),
        case("log1p", lambda: xp.log1p(pos), lambda: np.log1p(pos_np), None, exact=False),
        case("expm1", lambda: xp.expm1(a), lambda: np.expm1(a_np), None, exact=False),
        case("sinh", lambda: xp.sinh(a), lambda: np.sinh(a_np), None, exact=False),
        case("tan", lambda: xp.tan(a), lambda: np.tan(a_np), None, exact=False),
        case("asin", lambda: xp.asin(a / 2), lambda: np.arcsin(a_np / 2), None, exact=False),
        case("atan2", lambda: xp.atan2(a, pos), lambda: np.arctan2(a_np, pos_np), None,
             exact=False),
        case("asinh", lambda: xp.asinh(a), lambda: np.arcsinh(a_np), None, exact=False),
        case("vecdot of rows of 64", lambda: xp.vecdot(rows, rows),
             lambda: np.vecdot(rows_np, rows_np), None, exact=False),
    ]

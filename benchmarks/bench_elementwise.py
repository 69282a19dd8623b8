"""Elementwise: bandwidth-bound ops, transcendental functions, transposed and broadcast operands.

The small-array and plain ``x + y`` / ``a == b`` cases live in ``bench_foundation``.
"""

from __future__ import annotations

from functools import partial

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, compare


def run(repeats: int) -> list[Timing]:
    """Time the elementwise cases (targets from the elementwise and vector-width issues).

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
    a_np, b_np = rng.random(10**7), rng.random(10**7)
    a, b = xp.asarray(a_np), xp.asarray(b_np)
    f_np, g_np = a_np.astype(np.float32), b_np.astype(np.float32)
    f, g = xp.asarray(f_np), xp.asarray(g_np)
    m_np, n_np = rng.random((3000, 3000)), rng.random((3000, 3000))
    m, n = xp.asarray(m_np), xp.asarray(n_np)
    col_np, row_np = rng.random((3000, 1)), rng.random((1, 3000))
    col, row = xp.asarray(col_np), xp.asarray(row_np)
    c_np = a_np > 0.5
    c = xp.asarray(c_np)
    return [
        compare("x + y, 10^7 float32", lambda: f + g, lambda: f_np + g_np, repeats=repeats,
                target=1.0),
        compare("x + y.mT, 3000x3000", lambda: m + n.mT, lambda: m_np + n_np.T,
                repeats=repeats, target=0.7),
        compare("(3000,1) + (1,3000)", lambda: col + row, lambda: col_np + row_np,
                repeats=repeats, target=1.0),
        *[compare(f"{name}, 10^7 {dtype}", partial(getattr(xp, name), x),
                  partial(getattr(np, name), x_np), repeats=repeats, target=0.6, exact=False)
          for dtype, x, x_np in (("float64", a, a_np), ("float32", f, f_np))
          for name in ("exp", "log", "sin", "tanh")],
        compare("where(c, x, y), 10^7", lambda: xp.where(c, a, b),
                lambda: np.where(c_np, a_np, b_np), repeats=repeats, target=0.6),
    ]

"""Elementwise: small-array overhead, bandwidth-bound ops, transposed and broadcast operands."""

from __future__ import annotations

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, check_equal, compare


def run(repeats: int) -> list[Timing]:
    """Time the elementwise cases (targets from the elementwise issue)."""
    rng = np.random.default_rng(0)
    ten_np = rng.random(10)
    ten = xp.asarray(ten_np)
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
    check_equal(m + n.mT, m_np + n_np.T)
    check_equal(xp.where(c, a, b), np.where(c_np, a_np, b_np))
    big = max(3, repeats // 3)
    return [
        compare("x + y, (10,)", lambda: ten + ten, lambda: ten_np + ten_np, repeats=repeats,
                target=2.0),
        compare("x + y, 10^7 float64", lambda: a + b, lambda: a_np + b_np, repeats=big,
                budget=0.05, target=1.0),
        compare("x + y, 10^7 float32", lambda: f + g, lambda: f_np + g_np, repeats=big,
                budget=0.05, target=1.0),
        compare("x + y.mT, 3000x3000", lambda: m + n.mT, lambda: m_np + n_np.T, repeats=big,
                budget=0.05, target=0.7),
        compare("(3000,1) + (1,3000)", lambda: col + row, lambda: col_np + row_np,
                repeats=big, budget=0.05, target=1.0),
        compare("exp, 10^7", lambda: xp.exp(a), lambda: np.exp(a_np), repeats=big,
                budget=0.1, target=0.75),
        compare("sin, 10^7", lambda: xp.sin(a), lambda: np.sin(a_np), repeats=big,
                budget=0.1, target=0.75),
        compare("where(c, x, y), 10^7", lambda: xp.where(c, a, b),
                lambda: np.where(c_np, a_np, b_np), repeats=big, budget=0.05, target=0.6),
        compare("a == b, 10^6", lambda: a[:10**6] == b[:10**6],
                lambda: a_np[:10**6] == b_np[:10**6], repeats=repeats),
    ]

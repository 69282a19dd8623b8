"""Reductions, statistics, scans, searching, sorting and sets: the cases of the reductions issue.

Targets are ratios of arrayx's time to NumPy's (below 1 is faster). ``unique_values`` is
compared with ``np.unique`` (sorted, as arrayx's result is), since NumPy 2.4's
``unique_values`` no longer sorts.
"""

from __future__ import annotations

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, compare


def run(repeats: int) -> list[Timing]:
    """Time the reduction cases.

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
    small_np = rng.random(10)
    small = xp.asarray(small_np)
    v_np = rng.random(10**7)
    v = xp.asarray(v_np)
    v32_np = v_np.astype(np.float32)
    v32 = xp.asarray(v32_np)
    m_np = rng.random((3000, 3000))
    m = xp.asarray(m_np)
    s_np = rng.random(10**6)
    s = xp.asarray(s_np)
    i_np = rng.integers(0, 10**5, 10**6)
    i = xp.asarray(i_np)
    big = 8 * 10**7
    return [
        compare("sum, (10,)", lambda: xp.sum(small), lambda: np.sum(small_np),
                repeats=repeats, target=1.0, exact=False),
        compare("sum, 10^7", lambda: xp.sum(v), lambda: np.sum(v_np), repeats=repeats,
                target=0.9, exact=False, nbytes=big),
        compare("sum, 10^7 float32", lambda: xp.sum(v32), lambda: np.sum(v32_np),
                repeats=repeats, target=0.9, exact=False, nbytes=big // 2),
        compare("max, 10^7", lambda: xp.max(v), lambda: np.max(v_np), repeats=repeats,
                target=1.0, nbytes=big),
        compare("argmax, 10^7", lambda: xp.argmax(v), lambda: np.argmax(v_np),
                repeats=repeats, target=1.0, nbytes=big),
        compare("sum(axis=0), 3000x3000", lambda: xp.sum(m, axis=0),
                lambda: np.sum(m_np, axis=0), repeats=repeats, target=0.7, exact=False,
                nbytes=72 * 10**6),
        compare("sum(axis=1), 3000x3000", lambda: xp.sum(m, axis=1),
                lambda: np.sum(m_np, axis=1), repeats=repeats, target=0.9, exact=False,
                nbytes=72 * 10**6),
        compare("mean(axis=1), 3000x3000", lambda: xp.mean(m, axis=1),
                lambda: np.mean(m_np, axis=1), repeats=repeats, target=0.9, exact=False,
                nbytes=72 * 10**6),
        compare("std(axis=0), 3000x3000", lambda: xp.std(m, axis=0),
                lambda: np.std(m_np, axis=0), repeats=repeats, target=0.35, exact=False,
                nbytes=72 * 10**6),
        compare("std(axis=1), 3000x3000", lambda: xp.std(m, axis=1),
                lambda: np.std(m_np, axis=1), repeats=repeats, target=0.35, exact=False,
                nbytes=72 * 10**6),
        compare("cumulative_sum, 10^7", lambda: xp.cumulative_sum(v),
                lambda: np.cumulative_sum(v_np), repeats=repeats, target=0.6, exact=False,
                nbytes=2 * big),
        compare("stable sort, 10^6 float64", lambda: xp.sort(s),
                lambda: np.sort(s_np, stable=True), repeats=repeats, target=1.0),
        compare("stable argsort, 10^6 float64", lambda: xp.argsort(s),
                lambda: np.argsort(s_np, stable=True), repeats=repeats, target=1.0),
        compare("unique_values, 10^6 int64", lambda: xp.unique_values(i),
                lambda: np.unique(i_np), repeats=repeats, target=1.0),
    ]

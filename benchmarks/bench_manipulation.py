"""Manipulation and advanced indexing: the cases of the manipulation/indexing issue."""

from __future__ import annotations

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, compare


def run(repeats: int) -> list[Timing]:
    """Time the gather, mask and concatenation cases.

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
    v_np = rng.random(10**7)
    v = xp.asarray(v_np)
    idx_np = rng.integers(0, 10**7, 10**6)
    idx = xp.asarray(idx_np)
    mask_np = v_np > 0.5
    mask = xp.asarray(mask_np)
    parts_np = [rng.random(10**6) for _ in range(8)]
    parts = [xp.asarray(p) for p in parts_np]
    return [
        compare("take 10^6 of 10^7", lambda: xp.take(v, idx), lambda: np.take(v_np, idx_np),
                repeats=repeats, target=1.0),
        compare("x[mask], 10^7 half true", lambda: v[mask], lambda: v_np[mask_np],
                repeats=repeats, target=0.7, nbytes=9 * 10**7),
        compare("concat 8 x 10^6", lambda: xp.concat(parts), lambda: np.concat(parts_np),
                repeats=repeats, target=1.0, nbytes=128 * 10**6),
    ]

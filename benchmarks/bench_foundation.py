"""Foundation: views, small-array overhead, creation and copies."""

from __future__ import annotations

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, check_equal, compare


def run(repeats: int) -> list[Timing]:
    """Time the foundation cases (targets from the foundation issue)."""
    small_np = np.arange(100.0)
    small = xp.asarray(small_np)
    rng = np.random.default_rng(0)
    big_np = rng.random((3000, 3000))
    big = xp.asarray(big_np)
    vec_np = rng.random(10**6)
    vec = xp.asarray(vec_np)
    check_equal(small[1:5], small_np[1:5])
    check_equal(xp.reshape(small, (10, 10)), small_np.reshape(10, 10))
    check_equal(xp.astype(big.mT, xp.float64), np.ascontiguousarray(big_np.T))
    cases = [
        compare("x[1:5], (100,)", lambda: small[1:5], lambda: small_np[1:5],
                repeats=repeats, target=3.0),
        compare("asarray([1, 2, 3])", lambda: xp.asarray([1, 2, 3]),
                lambda: np.asarray([1, 2, 3]), repeats=repeats, target=2.5),
        compare("reshape (100,) -> (10, 10)", lambda: xp.reshape(small, (10, 10)),
                lambda: np.reshape(small_np, (10, 10)), repeats=repeats, target=1.5),
        compare("transposed 3000x3000 f64 to C order",
                lambda: xp.astype(big.mT, xp.float64),
                lambda: np.ascontiguousarray(big_np.T), repeats=max(3, repeats // 3),
                budget=0.05, target=1.0),
        compare("zeros((1000, 1000))", lambda: xp.zeros((1000, 1000)),
                lambda: np.zeros((1000, 1000)), repeats=repeats),
        compare("ones(10^6)", lambda: xp.ones(10**6), lambda: np.ones(10**6), repeats=repeats),
        compare("arange(10^6)", lambda: xp.arange(10**6), lambda: np.arange(10**6),
                repeats=repeats),
        compare("astype f64 -> f32, 10^6", lambda: xp.astype(vec, xp.float32),
                lambda: vec_np.astype(np.float32), repeats=repeats),
    ]
    transposed = cases[3]
    print(f"transposed copy: arrayx {2 * 8 * 9e6 / transposed.arrayx / 1e9:.1f} GB/s, "
          f"numpy {2 * 8 * 9e6 / transposed.numpy / 1e9:.1f} GB/s")
    return cases

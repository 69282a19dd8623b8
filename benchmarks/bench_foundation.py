"""Foundation: views, small-array overhead, creation, copies and the basic operators."""

from __future__ import annotations

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, compare

#: Bytes a copy of a 3000 x 3000 float64 array reads and writes.
TRANSPOSED_BYTES = 2 * 8 * 3000 * 3000


def run(repeats: int) -> list[Timing]:
    """Time the foundation cases (targets from the foundation issue).

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
    small_np = np.arange(100.0)
    small = xp.asarray(small_np)
    seq_np = np.arange(100)
    seq = xp.asarray(seq_np)
    big_np = rng.random((3000, 3000))
    big = xp.asarray(big_np)
    vec_np = rng.random(10**6)
    vec = xp.asarray(vec_np)
    ten_np, ten2_np = rng.random(10), rng.random(10)
    ten, ten2 = xp.asarray(ten_np), xp.asarray(ten2_np)
    a_np, b_np = rng.random(10**7), rng.random(10**7)
    a, b = xp.asarray(a_np), xp.asarray(b_np)
    ints_np, ints2_np = rng.integers(0, 4, 10**6), rng.integers(0, 4, 10**6)
    ints, ints2 = xp.asarray(ints_np), xp.asarray(ints2_np)
    return [
        compare("x[1:5], (100,) float64", lambda: small[1:5], lambda: small_np[1:5],
                repeats=repeats, target=3.0),
        compare("asarray([1, 2, 3])", lambda: xp.asarray([1, 2, 3]),
                lambda: np.asarray([1, 2, 3]), repeats=repeats, target=2.5),
        compare("reshape arange(100) -> (10, 10)", lambda: xp.reshape(seq, (10, 10)),
                lambda: np.reshape(seq_np, (10, 10)), repeats=repeats, target=1.5),
        compare("3000x3000 f64 .T to C order", lambda: xp.astype(big.T, big.dtype),
                lambda: np.ascontiguousarray(big_np.T), repeats=repeats, target=1.0,
                nbytes=TRANSPOSED_BYTES),
        compare("zeros((1000, 1000))", lambda: xp.zeros((1000, 1000)),
                lambda: np.zeros((1000, 1000)), repeats=repeats, target=1.0),
        compare("ones(10^6)", lambda: xp.ones(10**6), lambda: np.ones(10**6), repeats=repeats),
        compare("arange(10^6)", lambda: xp.arange(10**6), lambda: np.arange(10**6),
                repeats=repeats),
        compare("astype f64 -> f32, 10^6", lambda: xp.astype(vec, xp.float32),
                lambda: vec_np.astype(np.float32), repeats=repeats),
        compare("x + y, (10,) float64", lambda: ten + ten2, lambda: ten_np + ten2_np,
                repeats=repeats),
        compare("x + y, 10^7 float64", lambda: a + b, lambda: a_np + b_np, repeats=repeats),
        compare("a == b, 10^6 int64", lambda: ints == ints2, lambda: ints_np == ints2_np,
                repeats=repeats),
    ]

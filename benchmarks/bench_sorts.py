"""Sorts against NumPy's fastest sort on this machine: ``np.sort`` and ``np.argsort`` at their
default kind (x86-simd-sort where NumPy has it), at NumPy's default dispatch level and, on an
AVX-512 CPU, also with ``NPY_DISABLE_CPU_FEATURES`` set to its AVX-512 targets (NumPy's
AVX-512 sort is the slower on AMD's Zen 4, whose memory compress-store is microcoded); the
"numpy" column is the faster of the two.

Each library runs in a process of its own, alternating for ``ROUNDS`` rounds (no library's idle
threads beside another's); each cell is the median over the rounds of each process's median
time, and each process checks its result against NumPy's first.
"""

from __future__ import annotations

import os

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, apart_runs, apart_timing, check_equal, medians_apart, timed

ROUNDS = 3
AVX512_OFF = "X86_V4 AVX512_ICL AVX512_SPR"
# name -> (input from a generator, the call in the namespace ns)
CASES = {
    "sort 10^6 float64, NumPy's fastest": (
        lambda rng: rng.standard_normal(10**6), lambda ns, x: ns.sort(x)),
    "sort 10^6 int32, NumPy's fastest": (
        lambda rng: rng.integers(-2**31, 2**31 - 1, 10**6, dtype=np.int32),
        lambda ns, x: ns.sort(x)),
    "argsort 10^6 float64, NumPy's fastest": (
        lambda rng: rng.standard_normal(10**6), lambda ns, x: ns.argsort(x)),
    "sort 2000x5000 float64 axis 1, NumPy's fastest": (
        lambda rng: rng.standard_normal((2000, 5000)), lambda ns, x: ns.sort(x, axis=1)),
    "sort 2000x5000 float64 axis 0, NumPy's fastest": (
        lambda rng: rng.standard_normal((2000, 5000)), lambda ns, x: ns.sort(x, axis=0)),
    "argsort 10^4 x 100 float64 rows, NumPy's fastest": (
        lambda rng: rng.standard_normal((10**4, 100)), lambda ns, x: ns.argsort(x, axis=1)),
}


def _avx512() -> bool:
    import numpy._core._multiarray_umath as mu
    return bool(mu.__cpu_features__.get("AVX512F"))


def seconds(name: str, library: str, repeats: int) -> float:
    """Seconds per call of case ``name`` in ``library`` ("arrayx" or "numpy"), in this
    process, after checking arrayx's result against NumPy's (the inputs hold no ties, so the
    stable and unstable orders agree)."""
    make, call = CASES[name]
    data = make(np.random.default_rng(0))
    if library == "numpy":
        return timed(lambda: call(np, data), repeats)
    x = xp.asarray(data)
    check_equal(np.asarray(call(xp, x)), call(np, data))
    return timed(lambda: call(xp, x), repeats)


def run(repeats: int) -> list[Timing]:
    """Time each case in fresh processes, the libraries alternating.

    Parameters
    ----------
    repeats : int
        Repeats per process.

    Returns
    -------
    list of Timing
        One per case, NumPy's time the faster of its dispatch levels.
    """
    env = dict(os.environ, ARRAYX_NUM_THREADS=str(xp.get_num_threads()))
    references = [("numpy", "numpy", env)]
    if _avx512():
        references.append(("numpy-avx2", "numpy",
                           dict(env, NPY_DISABLE_CPU_FEATURES=AVX512_OFF)))
    runs = apart_runs(env, references)
    out = []
    for name in CASES:
        median = medians_apart(__name__, name, runs, repeats, ROUNDS)
        out.append(apart_timing(name, median, 1.0))
    return out

"""Linear algebra and FFT: the cases of the linalg/fft issue, with its targets.

``svd`` and ``eigh`` are checked on their values (vectors are defined up to sign); the timed
call computes the whole decomposition in both libraries.

The BLAS and LAPACK cases run each library in a process of its own, alternating for ``ROUNDS``
rounds, as the sorts do: NumPy's OpenBLAS threads keep polling for work for about 0.1 s after
each of its products, on the cores arrayx's pool would split arrayx's next product over (a
1000 x 1000 product right after NumPy's took 27 ms on the 2-core Xeon, 13.6 ms alone).

"matmul in 2 Python threads" runs two products at once from two Python threads with BLAS held
to one thread: a library that kept the GIL through gemm would take twice NumPy's time here.
It needs threadpoolctl, and is left out without it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

import numpy as np

import arrayx as xp
from benchmarks.harness import (
    Timing,
    apart_runs,
    apart_timing,
    check_equal,
    compare,
    medians_apart,
    timed,
)

ROUNDS = 3
# Seconds to wait after the process's first product (see `seconds`).
LOAD_SPIN_S = 0.3


def _inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The BLAS cases' operands, the same in every process."""
    a64, b64 = rng.standard_normal((1000, 1000)), rng.standard_normal((1000, 1000))
    a32 = rng.standard_normal((2000, 2000)).astype(np.float32)
    b32 = rng.standard_normal((2000, 2000)).astype(np.float32)
    s500 = rng.standard_normal((500, 500))
    tall, w, r = (rng.standard_normal((100_000, 100)), rng.standard_normal(100),
                  rng.standard_normal(100_000))
    return {"a64": a64, "b64": b64, "a32": a32, "b32": b32, "s500": s500,
            "sym": s500 + s500.T, "tall": tall, "w": w, "r": r}


# name -> (the call in the namespace ns on the operands d, target, absolute tolerance)
BLAS_CASES: dict[str, tuple[Callable, float, float]] = {
    "matmul float64 1000": (lambda ns, d: d["a64"] @ d["b64"], 1.05, 1e-9),
    "matmul float32 2000": (lambda ns, d: d["a32"] @ d["b32"], 1.05, 1e-3),
    "A.mT @ B float64 1000": (lambda ns, d: d["a64"].mT @ d["b64"], 1.05, 1e-9),
    "X.mT @ X float64 1000": (lambda ns, d: d["a64"].mT @ d["a64"], 1.05, 1e-9),
    "X @ w, 100000 x 100": (lambda ns, d: d["tall"] @ d["w"], 1.05, 1e-9),
    "X.mT @ r, 100000 x 100": (lambda ns, d: d["tall"].mT @ d["r"], 1.05, 1e-8),
    "solve 1000": (lambda ns, d: ns.linalg.solve(d["a64"], d["b64"]), 0.8, 1e-8),
    "svd 500": (lambda ns, d: ns.linalg.svd(d["s500"]).S, 1.1, 1e-9),
    "eigh 500": (lambda ns, d: ns.linalg.eigh(d["sym"]).eigenvalues, 1.1, 1e-9),
}


def seconds(name: str, library: str, repeats: int) -> float:
    """Seconds per call of BLAS case ``name`` in ``library`` ("arrayx" or "numpy"), in this
    process; arrayx's result is checked against NumPy's after the timing, which NumPy's
    polling threads would otherwise reach (a wrong result still fails the run)."""
    call, _, atol = BLAS_CASES[name]
    data = _inputs(np.random.default_rng(0))
    if library == "numpy":
        return timed(lambda: call(np, data), repeats)
    ours = {k: xp.asarray(v) for k, v in data.items()}
    got = call(xp, ours)
    # The first product loads arrayx's copy of OpenBLAS, whose server thread spins for
    # OpenBLAS's idle timeout (about 0.1 s) after loading, once a process: let it pass.
    time.sleep(LOAD_SPIN_S)
    took = timed(lambda: call(xp, ours), repeats)
    check_equal(got, call(np, data), exact=False, atol=atol)
    return took


def _in_two_threads(product: Callable[[], object]) -> Callable[[], list]:
    """A callable that runs ``product`` in two Python threads at once and returns both results."""
    def run() -> list:
        results: list = [None, None]

        def work(i: int) -> None:
            results[i] = product()

        threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return results
    return run


def _two_thread_case(repeats: int, a: np.ndarray, A: xp.Array) -> list[Timing]:
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return []
    with threadpool_limits(limits=1, user_api="blas"):
        return [compare("matmul 500 in 2 Python threads", _in_two_threads(lambda: A @ A),
                        _in_two_threads(lambda: a @ a), repeats=repeats, target=1.1,
                        exact=False, atol=1e-9)]


def run(repeats: int) -> list[Timing]:
    """Time the linear-algebra and FFT cases.

    Parameters
    ----------
    repeats : int
        Alternating repeats per case (repeats per process for the BLAS cases).

    Returns
    -------
    list of Timing
        One per case, in the order of the report.
    """
    env = dict(os.environ, ARRAYX_NUM_THREADS=str(xp.get_num_threads()))
    runs = apart_runs(env, [("numpy", "numpy", env)])
    out = []
    for name, (_, target, _) in BLAS_CASES.items():
        median = medians_apart(__name__, name, runs, repeats, ROUNDS)
        out.append(apart_timing(name, median, target))
    rng = np.random.default_rng(0)
    s500 = rng.standard_normal((500, 500))
    z = rng.standard_normal(1 << 20) + 1j * rng.standard_normal(1 << 20)
    i64 = rng.integers(-100, 100, (300, 300))
    S500, Z, I64 = (xp.asarray(v) for v in (s500, z, i64))
    return out + [
        compare("matmul int64 300", lambda: I64 @ I64, lambda: i64 @ i64, repeats=repeats),
        *_two_thread_case(repeats, s500, S500),
        compare("fft complex128 2^20", lambda: xp.fft.fft(Z), lambda: np.fft.fft(z),
                repeats=repeats, target=1.1, exact=False, atol=1e-8),
    ]

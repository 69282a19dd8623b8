"""Linear algebra and FFT: the cases of the linalg/fft issue, with its targets.

``svd`` and ``eigh`` are checked on their values (vectors are defined up to sign); the timed
call computes the whole decomposition in both libraries.

"matmul in 2 Python threads" runs two products at once from two Python threads with BLAS held
to one thread (both libraries call the same OpenBLAS): a library that kept the GIL through gemm
would take twice NumPy's time here. It needs threadpoolctl, and is left out without it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, compare


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
        Alternating repeats per case.

    Returns
    -------
    list of Timing
        One per case, in the order of the report.
    """
    rng = np.random.default_rng(0)
    a64, b64 = rng.standard_normal((1000, 1000)), rng.standard_normal((1000, 1000))
    a32 = rng.standard_normal((2000, 2000)).astype(np.float32)
    b32 = rng.standard_normal((2000, 2000)).astype(np.float32)
    s500 = rng.standard_normal((500, 500))
    sym = s500 + s500.T
    z = rng.standard_normal(1 << 20) + 1j * rng.standard_normal(1 << 20)
    i64 = rng.integers(-100, 100, (300, 300))
    tall, w, r = (rng.standard_normal((100_000, 100)), rng.standard_normal(100),
                  rng.standard_normal(100_000))
    A64, B64, A32, B32 = (xp.asarray(v) for v in (a64, b64, a32, b32))
    TALL, W, R = (xp.asarray(v) for v in (tall, w, r))
    S500, SYM, Z, I64 = (xp.asarray(v) for v in (s500, sym, z, i64))
    return [
        compare("matmul float64 1000", lambda: A64 @ B64, lambda: a64 @ b64,
                repeats=repeats, target=1.05, exact=False, atol=1e-9),
        compare("matmul float32 2000", lambda: A32 @ B32, lambda: a32 @ b32,
                repeats=repeats, target=1.05, exact=False, atol=1e-3),
        compare("A.mT @ B float64 1000", lambda: A64.mT @ B64, lambda: a64.T @ b64,
                repeats=repeats, target=1.05, exact=False, atol=1e-9),
        compare("X.mT @ X float64 1000", lambda: A64.mT @ A64, lambda: a64.T @ a64,
                repeats=repeats, target=1.05, exact=False, atol=1e-9),
        compare("X @ w, 100000 x 100", lambda: TALL @ W, lambda: tall @ w, repeats=repeats,
                target=1.05, exact=False, atol=1e-9),
        compare("X.mT @ r, 100000 x 100", lambda: TALL.mT @ R, lambda: tall.T @ r,
                repeats=repeats, target=1.05, exact=False, atol=1e-8),
        compare("matmul int64 300", lambda: I64 @ I64, lambda: i64 @ i64, repeats=repeats),
        compare("solve 1000", lambda: xp.linalg.solve(A64, B64),
                lambda: np.linalg.solve(a64, b64), repeats=repeats, target=0.8, exact=False,
                atol=1e-8),
        compare("svd 500", lambda: xp.linalg.svd(S500).S, lambda: np.linalg.svd(s500).S,
                repeats=repeats, target=1.1, exact=False, atol=1e-9),
        compare("eigh 500", lambda: xp.linalg.eigh(SYM).eigenvalues,
                lambda: np.linalg.eigh(sym).eigenvalues, repeats=repeats, target=1.1,
                exact=False, atol=1e-9),
        *_two_thread_case(repeats, s500, S500),
        compare("fft complex128 2^20", lambda: xp.fft.fft(Z), lambda: np.fft.fft(z),
                repeats=repeats, target=1.1, exact=False, atol=1e-8),
    ]

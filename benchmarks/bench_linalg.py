"""arrayx against NumPy on the linear-algebra and FFT workloads of issue 6.

Run with ``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/bench_linalg.py``.
Each case alternates arrayx and NumPy in one process and prints the median times and their
ratio (arrayx / NumPy; below 1 is faster).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import arrayx as ax


def _median_pair(fa, fn, repeat: int) -> tuple[float, float]:
    fa()
    fn()
    ta, tn = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fa()
        t1 = time.perf_counter()
        fn()
        t2 = time.perf_counter()
        ta.append(t1 - t0)
        tn.append(t2 - t1)
    return statistics.median(ta), statistics.median(tn)


def _cases() -> list[tuple[str, object, object, int]]:
    rng = np.random.default_rng(0)
    a64 = rng.standard_normal((1000, 1000))
    b64 = rng.standard_normal((1000, 1000))
    a32 = rng.standard_normal((2000, 2000)).astype(np.float32)
    b32 = rng.standard_normal((2000, 2000)).astype(np.float32)
    s500 = rng.standard_normal((500, 500))
    sym = s500 + s500.T
    z = (rng.standard_normal(1 << 20) + 1j * rng.standard_normal(1 << 20))
    i64 = rng.integers(-100, 100, (300, 300))
    stack = rng.standard_normal((2000, 4, 4))
    A64, B64, A32, B32 = (ax.asarray(v) for v in (a64, b64, a32, b32))
    S500, SYM, Z, I64, STACK = (ax.asarray(v) for v in (s500, sym, z, i64, stack))
    return [
        ("matmul f64 1000", lambda: A64 @ B64, lambda: a64 @ b64, 15),
        ("matmul f32 2000", lambda: A32 @ B32, lambda: a32 @ b32, 7),
        ("A.mT @ B f64 1000", lambda: A64.mT @ B64, lambda: a64.T @ b64, 15),
        ("matmul i64 300", lambda: I64 @ I64, lambda: i64 @ i64, 7),
        ("matmul f64 stack 2000x4x4", lambda: STACK @ STACK, lambda: stack @ stack, 15),
        ("solve 1000", lambda: ax.linalg.solve(A64, B64), lambda: np.linalg.solve(a64, b64),
         7),
        ("svd 500", lambda: ax.linalg.svd(S500), lambda: np.linalg.svd(s500), 7),
        ("eigh 500", lambda: ax.linalg.eigh(SYM), lambda: np.linalg.eigh(sym), 7),
        ("fft c128 2^20", lambda: ax.fft.fft(Z), lambda: np.fft.fft(z), 15),
    ]


def main() -> None:
    print(f"{'case':28s} {'arrayx ms':>10s} {'numpy ms':>10s} {'ratio':>7s}")
    for name, fa, fn, repeat in _cases():
        ta, tn = _median_pair(fa, fn, repeat)
        print(f"{name:28s} {ta * 1e3:10.2f} {tn * 1e3:10.2f} {ta / tn:7.3f}")


if __name__ == "__main__":
    main()

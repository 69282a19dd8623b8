"""Long one-dimensional complex transforms by the four-step algorithm, on several threads.

A transform of length ``n = n1 * n2`` is ``n2`` transforms of length ``n1``, a twiddle factor
per element, then ``n1`` transforms of length ``n2`` (Bailey's "four-step" FFT): viewed as an
``n1 x n2`` matrix ``A[j1, j2] = x[n2*j1 + j2]``, the result is
``X[k1 + n1*k2] = sum_j2 w^(j2*k1) (sum_j1 A[j1, j2] w1^(j1*k1)) w2^(j2*k2)`` with
``w = exp(-2 pi i / n)``. Each pass is a batch of short transforms whose data fits in cache,
which pocketfft (``numpy.fft``) runs faster than one long transform, and a batch splits
over threads: ``numpy.fft`` releases the GIL, so the batch's rows go to arrayx's kernel thread
count of Python threads. The transposes and the twiddle multiply are arrayx's own kernels (the
multiply reads the transposed rows and writes them in order: one pass for both); the second
pass writes its rows in order and a last transposed copy puts them in place.

Used for a 1-D ``fft``/``ifft`` of complex64 or complex128 of ``MIN_LENGTH`` to ``MAX_LENGTH``
elements whose length has a divisor pair of at least ``MIN_SIDE`` each; the twiddle factors
(as many as the transform has elements: 64 MiB at the longest, complex128) of the last
``CACHED`` lengths and directions are kept, as pocketfft keeps its plans: a forward and
inverse pair of one length.
"""

from __future__ import annotations

import functools
import math
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from arrayx._array import Array
from arrayx._creation import arange, asarray, empty
from arrayx._data_type_functions import astype
from arrayx._devices import CPU
from arrayx._dtypes import float64, int64
from arrayx._elementwise import cos, multiply, remainder, sin
from arrayx._engine import get_num_threads
from arrayx._manipulation import reshape

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "MIN_SIDE", "split", "transform"]

# Below this length one pocketfft transform is as fast (its data fits in cache).
MIN_LENGTH = 1 << 16
# Above it the twiddle table (16 bytes an element for complex128) is too much to keep.
MAX_LENGTH = 1 << 22
MIN_SIDE = 64
# Pieces of a pass per thread: what a thread waiting for a core leaves to the others.
PIECES = 4
CACHED = 2

_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_pool_lock = threading.Lock()


def _reset_after_fork() -> None:
    # The parent's worker threads do not exist in a forked child, and a lock another thread
    # held at the fork stays held there.
    global _pool, _pool_size, _pool_lock
    _pool, _pool_size, _pool_lock = None, 0, threading.Lock()


os.register_at_fork(after_in_child=_reset_after_fork)


def split(n: int) -> tuple[int, int] | None:
    """``(n1, n2)`` with ``n1 * n2 == n``, ``n1`` the largest divisor of ``n`` at most its
    square root, both at least ``MIN_SIDE``; None when ``n`` has no such pair."""
    for n1 in range(math.isqrt(n), MIN_SIDE - 1, -1):
        if n % n1 == 0:
            return n1, n // n1
    return None


@functools.lru_cache(maxsize=CACHED)
def _twiddles(n1: int, n2: int, inverse: bool, dtype: str) -> Array:
    """``w^(j2*k1)`` as a C-ordered ``n1 x n2`` array (row ``k1``, column ``j2``), the angle's
    product reduced modulo ``n`` first (exact in int64) so every factor is as exact as ``cos``
    and ``sin`` make it."""
    n = n1 * n2
    product = remainder(reshape(arange(n1, dtype=int64, device=CPU), (n1, 1))
                        * arange(n2, dtype=int64, device=CPU), n)
    angle = astype(product, float64) * ((2.0 if inverse else -2.0) * math.pi / n)
    return astype(cos(angle) + sin(angle) * 1j, dtype)


def _rows(fn, src: np.ndarray, dst: np.ndarray) -> None:
    """``fn`` (a ``numpy.fft`` transform, unscaled) of each row of ``src`` into ``dst``, the
    rows cut into pieces that the calling thread and ``threads - 1`` workers take one at a
    time (a thread that waits for a core leaves its share to the others)."""
    norm = "backward" if fn is np.fft.fft else "forward"
    threads = min(get_num_threads(), src.shape[0])
    if threads == 1:
        fn(src, axis=1, norm=norm, out=dst)
        return
    parts = min(PIECES * threads, src.shape[0])
    cuts = [src.shape[0] * i // parts for i in range(parts + 1)]
    pieces = iter(range(parts))  # shared: each next() hands one piece to one thread

    def work() -> None:
        for i in pieces:
            fn(src[cuts[i]:cuts[i + 1]], axis=1, norm=norm, out=dst[cuts[i]:cuts[i + 1]])
    jobs = _submit(work, threads - 1)
    work()
    for job in jobs:
        job.result()


def _submit(work: Callable[[], None], count: int) -> list[Future]:
    """``work`` submitted ``count`` times to the shared pool of worker threads, grown to at
    least ``count`` workers first. The pool only grows and is never shut down while in use:
    the thread count is process-wide, and a caller that shut down a pool of another size made
    another caller's submit to it fail ("cannot schedule new futures after shutdown"). A
    larger pool than a call needs starts no more threads than the jobs it is given."""
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size < count:
            _pool, _pool_size = ThreadPoolExecutor(count, "arrayx-fft"), count
        return [_pool.submit(work) for _ in range(count)]


def transform(a: Array, inverse: bool, norm: str) -> Array | None:
    """The ``fft`` (``ifft`` when ``inverse``) of the 1-D complex CPU array ``a`` with
    ``norm``, by the four-step algorithm; None where it does not apply (the caller runs
    pocketfft)."""
    n = a.shape[0]
    sides = split(n) if MIN_LENGTH <= n <= MAX_LENGTH else None
    if sides is None:
        return None
    n1, n2 = sides
    dtype = str(a.dtype)
    scale = {"backward": 1 / n if inverse else 1.0, "ortho": 1 / math.sqrt(n),
             "forward": 1.0 if inverse else 1 / n}[norm]
    fn = np.fft.ifft if inverse else np.fft.fft
    # The columns of A as rows (a transposed copy, scaled in the same pass).
    columns = reshape(a, (n1, n2)).mT
    first = multiply(columns, scale) if scale != 1.0 else asarray(columns, copy=True)
    inner = empty((n2, n1), dtype=a.dtype, device=CPU)
    _rows(fn, np.asarray(first), np.asarray(inner))
    # Twiddled and transposed back in one pass: rows k1, columns j2. The twiddles are C-ordered
    # so that the product is too (an elementwise result takes its operands' memory order: with
    # both operands transposed it came out column-major, and the second pass read its rows
    # down columns). On one thread of the Xeon, for 2^20 complex128, the twiddle pass and the
    # second pass took 1.8 + 7.4 ms so, 2.8 + 5.4 ms now.
    middle = multiply(inner.mT, _twiddles(n1, n2, inverse, dtype))
    # Row k1's transform over j2 lands at k1 + n1 * k2: the rows' results, transposed. They
    # are written in order, then transposed by arrayx's copy: pocketfft writing each row's
    # result down a column made the whole transform of 2^20 complex128 5% slower (11.8-12.2
    # ms against 11.2-11.6 on two threads of the Xeon).
    _rows(fn, np.asarray(middle), np.asarray(inner).reshape(n1, n2))
    return reshape(asarray(reshape(inner, (n1, n2)).mT, copy=True), (n,))

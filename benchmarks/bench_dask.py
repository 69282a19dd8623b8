"""dask.array over arrayx chunks against the same over NumPy chunks (the PyData-stack issue).

A reduction of 10^8 float64 in 16 chunks, on dask's threaded scheduler with 2 workers. dask
gives the parallelism here, so arrayx's kernels run on one thread each, as NumPy's do; the
suite puts arrayx's thread count back when it ends. Skipped (no rows) without dask.
"""

from __future__ import annotations

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, compare

N = 10**8
CHUNKS = N // 16


def run(repeats: int) -> list[Timing]:
    """Time the dask cases.

    Parameters
    ----------
    repeats : int
        Alternating repeats per case.

    Returns
    -------
    list of Timing
        One per case; empty when dask is not installed.
    """
    try:
        import dask
        import dask.array as da
    except ImportError:
        return []
    a_np = np.random.default_rng(0).random(N)
    d_np = da.from_array(a_np, chunks=CHUNKS)
    d_ax = da.from_array(xp.asarray(a_np), chunks=CHUNKS, asarray=False)
    threads = xp.get_num_threads()
    xp.set_num_threads(1)
    try:
        with dask.config.set(scheduler="threads", num_workers=2):
            return [
                compare("dask (d * 2 + 1).sum(), 10^8, 2 workers",
                        lambda: float((d_ax * 2 + 1).sum().compute()),
                        lambda: float((d_np * 2 + 1).sum().compute()),
                        repeats=repeats, exact=False),
                compare("dask exp(d).mean(), 10^8, 2 workers",
                        lambda: float(da.exp(d_ax).mean().compute()),
                        lambda: float(da.exp(d_np).mean().compute()),
                        repeats=repeats, exact=False),
            ]
    finally:
        xp.set_num_threads(threads)

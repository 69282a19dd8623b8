"""Shared pieces of the benchmark scripts: the timer lives in ``arrayx._bench``."""

from __future__ import annotations

import os

import numpy as np

import arrayx as xp
from arrayx._bench import Timing, compare, table

__all__ = ["Timing", "compare", "environment", "table"]


def environment() -> str:
    """The machine and library settings the timings were taken under."""
    blas = "unknown"
    try:
        from threadpoolctl import threadpool_info

        infos = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if infos:
            blas = ", ".join(f"{i['internal_api']} {i.get('architecture', '')}" for i in infos)
    except ImportError:
        pass
    return (f"cpus: {os.cpu_count()}  arrayx threads: {xp.get_num_threads()}  "
            f"numpy {np.__version__}  blas: {blas}  "
            f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}")


def check_equal(ax_result: object, np_result: np.ndarray) -> None:
    """Refuse to time a case whose arrayx result differs from NumPy's."""
    got = np.asarray(ax_result)
    if got.shape != np_result.shape or not np.allclose(got, np_result, equal_nan=True):
        raise AssertionError("arrayx and NumPy disagree; not timing a wrong result")

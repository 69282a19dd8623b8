"""Single calls against PyTorch's CPU build (the "numpy" column is PyTorch here): the calls
whose targets are PyTorch's time, ``fft`` of 2^20 complex128 and ``sum`` of 10^7 float64.

Each library runs in a process of its own, the two alternating for ``ROUNDS`` rounds, so that
neither library's idle threads spin against the other's; PyTorch gets arrayx's thread count.
Each cell is the median over the rounds of each process's median time; each process checks its
result against NumPy's first. Skipped without torch.
"""

from __future__ import annotations

import os
from importlib.util import find_spec

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing, apart_runs, apart_timing, check_equal, medians_apart, timed

ROUNDS = 3
# name -> (input, the call in the namespace ns, NumPy's call, the target)
CASES = {
    "fft complex128 2^20, own processes": (
        lambda rng: rng.standard_normal(1 << 20) + 1j * rng.standard_normal(1 << 20),
        lambda ns, x: ns.fft.fft(x), np.fft.fft, 1.0),
    "sum 10^7 float64, own processes": (
        lambda rng: rng.standard_normal(10**7), lambda ns, x: ns.sum(x), np.sum, 1.0),
}


def skip_reason() -> str | None:
    """Why this suite cannot run here (None when it can)."""
    return None if find_spec("torch") else "PyTorch is not installed"


def seconds(name: str, library: str, repeats: int) -> float:
    """Seconds per call of case ``name`` in ``library`` ("arrayx" or "torch"), in this
    process, after checking the result against NumPy's."""
    make, call, reference, _ = CASES[name]
    data = make(np.random.default_rng(0))
    if library == "torch":
        import torch

        torch.set_num_threads(xp.get_num_threads())
        x, ns = torch.from_numpy(data), torch
    else:
        x, ns = xp.asarray(data), xp
    check_equal(np.asarray(call(ns, x)), reference(data), exact=False, atol=1e-6)
    return timed(lambda: call(ns, x), repeats)


def run(repeats: int) -> list[Timing]:
    """Time each case in fresh processes, the libraries alternating.

    Parameters
    ----------
    repeats : int
        Repeats per process.

    Returns
    -------
    list of Timing
        One per case.
    """
    env = dict(os.environ, ARRAYX_NUM_THREADS=str(xp.get_num_threads()))
    runs = apart_runs(env, [("torch", "torch", env)])
    out = []
    for name, (*_, target) in CASES.items():
        median = medians_apart(__name__, name, runs, repeats, ROUNDS)
        out.append(apart_timing(name, median, target))
    return out

"""The benchmarks' timer and report, reused from ``arrayx._bench``, plus the run's settings.

``arrayx._bench`` holds the timer itself so that ``python -m arrayx`` works from an installed
package, where this directory is not importable.
"""

from __future__ import annotations

import ast
import contextlib
import os
import statistics
import subprocess
import sys
from collections.abc import Iterator

from arrayx._bench import (
    THREADS_TARGET,
    Timing,
    alternate,
    check_equal,
    compare,
    environment,
    paired_threads,
    table,
    timed,
)

__all__ = [
    "Timing", "alternate", "apart", "apart_runs", "apart_timing", "busy", "check_equal",
    "compare", "describe_environment", "medians_apart", "paired_threads", "repeats", "settings",
    "table", "timed",
]

#: Repeats per case (each one timed loop of arrayx and one of NumPy), full and ``--quick``.
FULL_REPEATS = 21
QUICK_REPEATS = 7


def apart(module: str, call: str, env: dict[str, str] | None = None):
    """The value of ``call``, a Python expression of ``module``'s public names whose value is
    a literal (a number, a tuple of them), computed in a fresh Python process (with ``env``
    as its environment when given), so that no library's threads of this process run beside
    it.

    Parameters
    ----------
    module : str
        The module to import the names from, e.g. ``"benchmarks.bench_torch"``.
    call : str
        The expression.
    env : dict, optional
        The child's environment (this process's by default).

    Returns
    -------
    object
        The expression's value.
    """
    code = f"from {module} import *; print(repr({call}))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    return ast.literal_eval(done.stdout.splitlines()[-1])


def medians_apart(module: str, name: str, runs: list[tuple[str, str, dict[str, str]]],
                  repeats: int, rounds: int) -> dict[str, float]:
    """Seconds per call of case ``name`` for each run, each in processes of its own: ``rounds``
    rounds in which the runs alternate, each process calling ``module``'s
    ``seconds(name, library, repeats)``; the median over the rounds.

    Parameters
    ----------
    module : str
        The suite module, which defines ``seconds``.
    name : str
        The case.
    runs : list of (label, library, environment)
        What to run: ``library`` is passed to ``seconds``, in a process with ``environment``.
    repeats : int
        Repeats per process.
    rounds : int
        Processes per run.

    Returns
    -------
    dict
        The median seconds of each run, by label.
    """
    times: dict[str, list[float]] = {label: [] for label, _, _ in runs}
    for _ in range(rounds):
        for label, library, env in runs:
            times[label].append(apart(module, f"seconds({name!r}, {library!r}, {repeats})", env))
    return {label: statistics.median(values) for label, values in times.items()}


def apart_runs(env: dict[str, str],
               references: list[tuple[str, str, dict[str, str]]]) -> list[tuple[str, str, dict]]:
    """The runs of a suite that times each library in processes of its own: arrayx, then the
    ``references`` (NumPy at its levels, PyTorch); in a paired-threads run (``--paired-threads``)
    arrayx and arrayx on one thread (``"arrayx-1"``) instead.

    Parameters
    ----------
    env : dict
        arrayx's environment (its thread count in ``ARRAYX_NUM_THREADS``).
    references : list of (label, library, environment)
        What arrayx is compared with otherwise.

    Returns
    -------
    list of (label, library, environment)
        The runs for `medians_apart`.
    """
    if paired_threads():
        return [("arrayx", "arrayx", env),
                ("arrayx-1", "arrayx", dict(env, ARRAYX_NUM_THREADS="1"))]
    return [("arrayx", "arrayx", env), *references]


def apart_timing(name: str, median: dict[str, float], target: float | None) -> Timing:
    """The `Timing` of a case timed by `medians_apart` over `apart_runs`: arrayx against the
    fastest reference run (or, paired, against arrayx on one thread, with
    ``THREADS_TARGET``).

    Parameters
    ----------
    name : str
        The case.
    median : dict
        The median seconds of each run, by label.
    target : float or None
        The case's target against its references.

    Returns
    -------
    Timing
    """
    if paired_threads():
        return Timing(name, median["arrayx"], median["arrayx-1"], THREADS_TARGET)
    return Timing(name, median["arrayx"], min(t for label, t in median.items()
                                              if label != "arrayx"), target)


@contextlib.contextmanager
def busy(on: bool = True) -> Iterator[None]:
    """One busy-looping Python process beside the run while the block runs (when ``on``), as
    on a shared machine where another program takes a core.

    Parameters
    ----------
    on : bool, optional
        Whether to start the process (a no-op context otherwise).
    """
    load = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if on else None
    try:
        yield
    finally:
        if load is not None:
            load.kill()
            load.wait()


def repeats(quick: bool) -> int:
    """How many alternating repeats a case gets.

    Parameters
    ----------
    quick : bool
        Whether the run was asked for with ``--quick``.

    Returns
    -------
    int
        The number of repeats to take the median over.
    """
    return QUICK_REPEATS if quick else FULL_REPEATS


def settings() -> dict[str, str]:
    """The settings the timings are taken under.

    Returns
    -------
    dict of str to str
        CPU count, arrayx threads, NumPy version and BLAS, and the OpenBLAS variables that
        change NumPy's speed.
    """
    env = environment()
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OMP_NUM_THREADS"):
        env[var] = os.environ.get(var, "(unset)")
    return env


def describe_environment() -> str:
    """The settings the timings are taken under, one ``key: value`` per line.

    Returns
    -------
    str
        `settings`, as text.
    """
    return "\n".join(f"{key}: {value}" for key, value in settings().items())

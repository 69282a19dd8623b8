"""A small side-by-side timer: arrayx against NumPy, alternating runs in one process.

``python -m arrayx`` and the repository's ``benchmarks/`` package both time with this module,
so it ships inside arrayx. Each case is a pair of zero-argument callables doing the same work
with arrayx and with NumPy. Their results are compared once, outside the timing, so a wrong
result is never timed. Each callable then gets a loop length ``N`` calibrated so that one
repeat (``N`` calls) lasts a few milliseconds; the repeats alternate arrayx and NumPy, and the
report is the median per-call time of each and their ratio.
"""

from __future__ import annotations

import gc
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import numpy as np

import arrayx

__all__ = ["THREADS_TARGET", "Timing", "alternate", "calibrate", "check_equal", "compare",
           "environment", "pair_threads", "paired_threads", "table", "timed"]

#: The ratio of a paired-threads run (`pair_threads`): arrayx at its thread count over arrayx
#: on one thread, at most (its threads never cost more than noise).
THREADS_TARGET = 1.05
_pairing = {"threads": False}

#: One repeat should last at least this long (nanoseconds) unless a single call is longer.
MIN_REPEAT_NS = 2_000_000
#: Calibration aims one repeat at this length (nanoseconds), inside 2 to 10 ms.
AIM_REPEAT_NS = 4_000_000
#: The longest loop one repeat runs, whatever the call costs.
MAX_CALLS = 1 << 20
#: Warm-up before a case is timed: calls go on until there were ``WARM_CALLS`` of them and
#: ``WARM_NS`` had passed, or ``WARM_MAX_NS`` had. A library's allocator or plan cache can take
#: several calls to settle: PyTorch's ``fft`` of 2^20 complex128 took 9.4 ms a call for its
#: first ten calls and 5.5 ms after, so one warm-up call timed the first ones.
WARM_CALLS = 10
WARM_NS = 50_000_000
WARM_MAX_NS = 300_000_000


@dataclass(frozen=True)
class Timing:
    """Median seconds per call of arrayx and of NumPy for one case.

    Attributes
    ----------
    name : str
        The case's label.
    arrayx, numpy : float
        Median seconds per call.
    target : float or None
        The ratio the case should stay at or under, when one is set.
    nbytes : int or None
        Bytes one call reads and writes, to report a bandwidth.
    """

    name: str
    arrayx: float
    numpy: float
    target: float | None = None
    nbytes: int | None = None

    @property
    def ratio(self) -> float:
        """arrayx's time over NumPy's (below 1: arrayx is faster)."""
        return self.arrayx / self.numpy

    @property
    def met(self) -> bool | None:
        """Whether the ratio meets the target (None without a target)."""
        return None if self.target is None else self.ratio <= self.target


def check_equal(ax_result: object, np_result: object, *, exact: bool = True,
                atol: float = 0.0) -> None:
    """Refuse to time a case whose arrayx result differs from NumPy's.

    Parameters
    ----------
    ax_result : array_like
        What the arrayx callable returned (read with ``np.asarray``, without a copy).
    np_result : array_like
        What the NumPy callable returned.
    exact : bool, optional
        Require identical values (NaNs in the same places); otherwise allow the rounding
        differences of transcendental functions (``np.allclose``, relative 1e-6).
    atol : float, optional
        The absolute tolerance when not ``exact`` (for results that cancel to near zero, as
        matrix products do).

    Raises
    ------
    AssertionError
        When the shapes, dtypes or values differ.
    """
    got, want = np.asarray(ax_result), np.asarray(np_result)
    if got.shape != want.shape or got.dtype != want.dtype:
        raise AssertionError(
            f"arrayx gives {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}; not timing it")
    nan_ok = got.dtype.kind in "fc"
    same = (np.array_equal(got, want, equal_nan=nan_ok) if exact
            else np.allclose(got, want, rtol=1e-6, atol=atol, equal_nan=True))
    if not same:
        raise AssertionError("arrayx and NumPy disagree; not timing a wrong result")


def _loop_ns(fn: Callable[[], object], n: int) -> int:
    """Nanoseconds ``n`` back-to-back calls of ``fn`` take."""
    start = time.perf_counter_ns()
    for _ in range(n):
        fn()
    return time.perf_counter_ns() - start


def calibrate(fn: Callable[[], object]) -> int:
    """How many calls of ``fn`` make one repeat of about 2 to 10 ms.

    Parameters
    ----------
    fn : callable
        The zero-argument callable to time.

    Returns
    -------
    int
        The loop length; 1 when a single call already lasts 2 ms or more.
    """
    n = 1
    while True:
        elapsed = _loop_ns(fn, n)
        if elapsed >= MIN_REPEAT_NS or n >= MAX_CALLS:
            return n
        n = min(MAX_CALLS, max(2 * n, n * AIM_REPEAT_NS // max(elapsed, 1)))


def compare(name: str, ax: Callable[[], object], np_: Callable[[], object], *,
            repeats: int = 21, target: float | None = None, exact: bool = True,
            nbytes: int | None = None, atol: float = 0.0) -> Timing:
    """Check that ``ax`` and ``np_`` agree, then time them alternately.

    Parameters
    ----------
    name : str
        The case's label.
    ax, np_ : callable
        Zero-argument callables doing the same work with arrayx and with NumPy.
    repeats : int, optional
        How many repeats of each to take the median over; the repeats alternate between the
        two libraries so that drifts of the machine reach both alike.
    target : float, optional
        The ratio (arrayx time over NumPy time) the case should stay at or under.
    exact : bool, optional
        Whether the results must be identical (see `check_equal`).
    nbytes : int, optional
        Bytes one call moves, to report a bandwidth.
    atol : float, optional
        The absolute tolerance of the check when not ``exact`` (see `check_equal`).

    Returns
    -------
    Timing
        The median per-call times.
    """
    check_equal(ax(), np_(), exact=exact, atol=atol)
    if _pairing["threads"]:
        t_ax, t_one = _medians([ax, ax], repeats, threads=(arrayx.get_num_threads(), 1))
        return Timing(name, t_ax, t_one, THREADS_TARGET, nbytes)
    t_ax, t_np = alternate(ax, np_, repeats)
    return Timing(name, t_ax, t_np, target, nbytes)


def pair_threads(on: bool = True) -> None:
    """Make `compare` time arrayx at its thread count against arrayx on one thread, in
    alternating repeats of this process, in place of NumPy (the thread count's cost or gain,
    case by case: ``python -m benchmarks --paired-threads``). The results are still checked
    against NumPy's; the second time of each `Timing` is then arrayx's on one thread and its
    target `THREADS_TARGET`.

    Parameters
    ----------
    on : bool, optional
        Pair the thread counts (True) or time against NumPy again (False).
    """
    _pairing["threads"] = on


def paired_threads() -> bool:
    """Whether `pair_threads` is on.

    Returns
    -------
    bool
    """
    return _pairing["threads"]


def timed(fn: Callable[[], object], repeats: int) -> float:
    """The median seconds per call of ``fn`` over ``repeats`` repeats (after its warm-up:
    ``WARM_CALLS``, ``WARM_NS``), with the garbage collector off.

    Parameters
    ----------
    fn : callable
        A zero-argument callable.
    repeats : int
        How many repeats to take the median over.

    Returns
    -------
    float
    """
    return _medians([fn], repeats)[0]


def alternate(first: Callable[[], object], second: Callable[[], object],
              repeats: int) -> tuple[float, float]:
    """Time two callables in alternating repeats, with the garbage collector off.

    Parameters
    ----------
    first, second : callable
        Zero-argument callables.
    repeats : int
        How many repeats of each to take the median over; they alternate so that drifts of
        the machine reach both alike.

    Returns
    -------
    tuple of float
        The median seconds per call of ``first`` and of ``second``.
    """
    t_first, t_second = _medians([first, second], repeats)
    return t_first, t_second


def _warm(fn: Callable[[], object]) -> None:
    """Call ``fn`` as ``WARM_CALLS``, ``WARM_NS`` and ``WARM_MAX_NS`` say."""
    calls, start = 0, time.perf_counter_ns()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter_ns() - start
        if calls >= WARM_CALLS and elapsed >= WARM_NS or elapsed >= WARM_MAX_NS:
            return


def _medians(fns: list[Callable[[], object]], repeats: int,
             threads: tuple[int, ...] | None = None) -> list[float]:
    """The median seconds per call of each of ``fns``, their repeats in turn; each on its
    entry of ``threads`` arrayx kernel threads when given (set before its warm-up, its
    calibration and each of its repeats; the count before is set back after)."""
    before = arrayx.get_num_threads()
    counts = threads or (before,) * len(fns)
    times: list[list[float]] = [[] for _ in fns]
    gc_was_enabled = gc.isenabled()
    try:
        # Warm-up calls pay the one-time costs (caches filled, code compiled, allocators
        # settled) that would make `calibrate` take a single call for a repeat and the
        # repeats time them.
        for fn, k in zip(fns, counts, strict=True):
            arrayx.set_num_threads(k)
            _warm(fn)
        loops = []
        for fn, k in zip(fns, counts, strict=True):
            arrayx.set_num_threads(k)
            loops.append(calibrate(fn))
        gc.disable()
        for _ in range(repeats):
            for fn, n, k, t in zip(fns, loops, counts, times, strict=True):
                arrayx.set_num_threads(k)
                t.append(_loop_ns(fn, n) / n * 1e-9)
    finally:
        arrayx.set_num_threads(before)
        if gc_was_enabled:
            gc.enable()
    return [median(t) for t in times]


def cpu_model() -> str:
    """The CPU's model name, from ``/proc/cpuinfo`` where there is one.

    Returns
    -------
    str
        For example ``"AMD EPYC"``; ``platform.processor()`` (or ``"unknown CPU"``) elsewhere.
    """
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def numpy_dispatch() -> str:
    """NumPy's baseline and the dispatch targets it found on this CPU.

    Returns
    -------
    str
        For example ``"baseline X86_V2; found X86_V3 X86_V4 AVX512_ICL"``.
    """
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:
        return "unknown"
    found = [t for t in umath.__cpu_dispatch__ if umath.__cpu_features__.get(t)]
    return f"baseline {' '.join(umath.__cpu_baseline__)}; found {' '.join(found) or 'none'}"


def environment() -> dict[str, str]:
    """The machine and library settings timings are taken under.

    Returns
    -------
    dict of str to str
        CPU model and count, load average (other work on the machine skews timings, the
        threaded kernels' most), arrayx's kernel threads, the ISA level arrayx's
        kernels run at (of those the build and the CPU have), NumPy version, NumPy's own
        dispatch targets and, when ``threadpoolctl`` is importable, NumPy's BLAS.
    """
    from arrayx._kernels.cpu import dispatch

    env = {
        "cpu": cpu_model(),
        "cpus": str(os.cpu_count()),
        "load average (1 min)": f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?",
        "arrayx": arrayx.__version__,
        "arrayx threads": f"{arrayx.get_num_threads()} (arrayx's own pool)",
        "arrayx ISA level": f"{dispatch.level()} (this CPU: "
                            f"{', '.join(dispatch.supported_levels())}; ARRAYX_CPU_LEVEL caps it)",
        "numpy": np.__version__,
        "numpy dispatch": numpy_dispatch(),
    }
    env["numpy blas"] = _numpy_blas()
    return env


def _numpy_blas() -> str:
    """NumPy's BLAS as threadpoolctl sees it at run time, else as NumPy was built."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        try:
            blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        except (TypeError, KeyError):
            return "unknown"
        return f"{blas.get('name')} {blas.get('version')} (build; threadpoolctl not installed)"
    found = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    return ", ".join(
        f"{i.get('internal_api')} {i.get('version')} {i.get('architecture', '')} "
        f"({i.get('num_threads')} threads)" for i in found) or "none loaded"


def _format_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:7.2f} {unit}"
    return f"{seconds / 1e-9:7.1f} ns"


def table(timings: list[Timing]) -> str:
    """The timings as a text table: case, arrayx, NumPy, ratio, target.

    Parameters
    ----------
    timings : list of Timing
        The cases, in the order to print them.

    Returns
    -------
    str
        One header line and one line per case; a case with ``nbytes`` also shows each
        library's bandwidth in GB/s.
    """
    width = max([len(t.name) for t in timings] + [4])
    second = "1 thread" if paired_threads() else "numpy"
    lines = [f"{'case':<{width}}  {'arrayx':>10}  {second:>10}  {'ratio':>6}  target"]
    for t in timings:
        verdict = ""
        if t.target is not None:
            verdict = f"<= {t.target:<4} {'ok' if t.met else 'MISSED'}"
        if t.nbytes is not None:
            verdict += (f"  [{t.nbytes / t.arrayx / 1e9:.1f} vs "
                        f"{t.nbytes / t.numpy / 1e9:.1f} GB/s]")
        lines.append(f"{t.name:<{width}}  {_format_time(t.arrayx):>10}  "
                     f"{_format_time(t.numpy):>10}  {t.ratio:6.2f}  {verdict}".rstrip())
    return "\n".join(lines)

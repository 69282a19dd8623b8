"""A small side-by-side timer: arrayx against NumPy, alternating runs in one process."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from statistics import median


@dataclass
class Timing:
    """Median seconds per call of arrayx and of NumPy for one case."""

    name: str
    arrayx: float
    numpy: float
    target: float | None = None

    @property
    def ratio(self) -> float:
        """arrayx's time over NumPy's (below 1: arrayx is faster)."""
        return self.arrayx / self.numpy


def _calls_per_repeat(fn: Callable[[], object], budget: float) -> int:
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - start >= budget or n >= 1 << 20:
            return n
        n *= 4


def compare(name: str, ax: Callable[[], object], np_: Callable[[], object], *,
            repeats: int = 15, budget: float = 0.004, target: float | None = None) -> Timing:
    """Time ``ax`` and ``np_`` alternately and return their median per-call times.

    Parameters
    ----------
    name : str
        The case's label.
    ax, np_ : callable
        Zero-argument callables doing the same work with arrayx and with NumPy.
    repeats : int
        How many alternating rounds to take the median over.
    budget : float
        About how long (seconds) one round of one library lasts.
    target : float, optional
        The ratio the case should stay under, for the report.

    Returns
    -------
    Timing
    """
    n_ax = _calls_per_repeat(ax, budget)
    n_np = _calls_per_repeat(np_, budget)
    t_ax, t_np = [], []
    for _ in range(repeats):
        for fn, n, out in ((ax, n_ax, t_ax), (np_, n_np, t_np)):
            start = time.perf_counter_ns()
            for _ in range(n):
                fn()
            out.append((time.perf_counter_ns() - start) / n * 1e-9)
    return Timing(name, median(t_ax), median(t_np), target)


def _format_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:7.2f} {unit}"
    return f"{seconds / 1e-9:7.1f} ns"


def table(timings: list[Timing]) -> str:
    """The timings as a text table: case, arrayx, NumPy, ratio, target."""
    width = max([len(t.name) for t in timings] + [4])
    lines = [f"{'case':<{width}}  {'arrayx':>10}  {'numpy':>10}  {'ratio':>6}  target"]
    for t in timings:
        verdict = ""
        if t.target is not None:
            verdict = f"<= {t.target:<4} {'ok' if t.ratio <= t.target else 'MISSED'}"
        lines.append(f"{t.name:<{width}}  {_format_time(t.arrayx):>10}  "
                     f"{_format_time(t.numpy):>10}  {t.ratio:6.2f}  {verdict}")
    return "\n".join(lines)

"""Write a benchmark run to files: its numbers as JSON (``--json``) and a bar chart (``--plot``).

The documentation's benchmarks page reads both (``docs/_data/benchmarks.json`` and
``docs/_static/benchmarks.png``). matplotlib is imported only when a chart is asked for.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

import arrayx as xp
from arrayx._bench import cpu_model, paired_threads
from benchmarks.harness import Timing, settings

__all__ = ["run_record", "write_json", "write_plot"]


def run_record(results: dict[str, list[Timing]], quick: bool,
               suite_info: dict[str, dict] | None = None, busy: bool = False) -> dict:
    """A run as plain data: when, where, with what settings, and each case's times.

    Parameters
    ----------
    results : dict of str to list of Timing
        The timings of each suite that ran, by suite name.
    quick : bool
        Whether the run used ``--quick``.
    suite_info : dict of str to dict, optional
        What suites report of their own setting, by suite name (the GPU of ``cuda``).
    busy : bool, optional
        Whether a busy-looping process ran beside the suites (``--busy``).

    Returns
    -------
    dict
        ``measured`` (UTC, ISO 8601), ``cpu``, ``cpus``, ``threads``, ``quick``,
        ``paired_threads`` (the second library of each case is arrayx on one thread),
        ``busy``, the environment lines the run printed, ``suites`` (``suite_info``, when given) and
        ``cases``: suite, case, seconds per call of each library (``numpy_s`` holds the
        suite's baseline, CuPy for ``cuda``), their ratio, the target and, where counted, the
        bytes a call moves.
    """
    record = {
        "measured": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "threads": xp.get_num_threads(),
        "quick": quick,
        "paired_threads": paired_threads(),
        "busy": busy,
        "environment": settings(),
        "cases": [
            {"suite": suite, "case": t.name, "arrayx_s": t.arrayx, "numpy_s": t.numpy,
             "ratio": round(t.ratio, 4), "target": t.target,
             **({"nbytes": t.nbytes} if t.nbytes is not None else {})}
            for suite, timings in results.items() for t in timings
        ],
    }
    if suite_info:
        record["suites"] = suite_info
    return record


def write_json(path: str | Path, record: dict) -> None:
    """Write ``record`` (from `run_record`) to ``path`` as indented JSON.

    Parameters
    ----------
    path : str or Path
        The file to write.
    record : dict
        The run, as `run_record` gives it.
    """
    Path(path).write_text(json.dumps(record, indent=1) + "\n")


def write_plot(path: str | Path, record: dict) -> None:
    """Draw each case's ratio (arrayx time over NumPy time) as a horizontal bar, to ``path``.

    Bars left of the line at 1 are cases where arrayx is faster. The title names the CPU, the
    arrayx thread count and the date; the x axis is logarithmic so that 0.5 and 2 are as far
    from 1.

    Parameters
    ----------
    path : str or Path
        The image to write; its suffix picks the format (``.png``, ``.svg``).
    record : dict
        The run, as `run_record` gives it.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, NullLocator

    cases = record["cases"][::-1]
    suites = list(dict.fromkeys(c["suite"] for c in record["cases"]))
    colours = {s: plt.get_cmap("tab10")(i) for i, s in enumerate(suites)}
    fig, ax = plt.subplots(figsize=(10, 1.6 + 0.24 * len(cases)), layout="constrained")
    ratios = [c["ratio"] for c in cases]
    ax.barh(range(len(cases)), ratios, color=[colours[c["suite"]] for c in cases], height=0.7)
    ax.set_yticks(range(len(cases)), [c["case"] for c in cases], fontsize=8)
    ax.set_xscale("log")
    lo, hi = min(ratios + [0.5]) / 1.3, max(ratios + [2.0]) * 1.3
    ax.set_xlim(lo, hi)
    ticks = [t for t in (0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32) if lo <= t <= hi]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{t:g}" for t in ticks])
    ax.axvline(1.0, color="black", linewidth=1)
    ax.grid(axis="x", color="#ddd", linewidth=0.6)
    ax.set_axisbelow(True)
    for y, ratio in enumerate(ratios):
        ax.text(ratio * 1.03, y, f"{ratio:.2f}", va="center", fontsize=7)
    paired = record.get("paired_threads")
    against = "arrayx's one-thread time" if paired else "NumPy time"
    ax.set_xlabel(f"arrayx time / {against} (log scale; below 1: arrayx is faster)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[s]) for s in suites]
    ax.legend(handles, suites, loc="lower left", bbox_to_anchor=(0, 1.0), ncols=len(suites),
              fontsize=8, frameon=False)
    ax.set_title(f"arrayx / {'one thread' if paired else 'NumPy'} per case: {record['cpu']}, "
                 f"{record['cpus']} CPUs, "
                 f"{record['threads']} arrayx threads ({record['measured']})", fontsize=10,
                 pad=22)
    ax.margins(y=0.01)
    fig.savefig(path, dpi=110)
    plt.close(fig)

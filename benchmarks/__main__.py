"""Run every benchmark: ``python -m benchmarks [--quick] [--threads N] [--paired-threads]
[--busy] [--json FILE] [--plot FILE] [SUITE ...]``, or the whole programs: ``python -m
benchmarks workloads [--rounds N] [--busy] ...`` (``benchmarks/workloads.py``: each library in
its own process).

``--paired-threads`` times arrayx at its thread count against arrayx on one thread, case by
case (alternating repeats in one process, or alternating processes where a suite times each
library apart), in place of NumPy or PyTorch: the second column is then arrayx's one-thread
time, and each case's target 1.05. ``--busy`` runs the suites with one busy-looping process
beside them (a shared machine; the issue's bound there is 1.1 of one thread's time).

A suite module has ``run(repeats)``; it may also have ``skip_reason()`` (a suite that cannot
run here prints one line saying why and is left out), its own ``table(timings)`` and
``suite_info()`` (recorded in the JSON). ``cuda`` (arrayx against CuPy on a GPU) has all three.

Unset ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` in the benchmark command only (they slow
NumPy's BLAS on some machines): ``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python -m
benchmarks``.
"""

from __future__ import annotations

import argparse
import sys

import arrayx as xp
from arrayx._bench import pair_threads
from benchmarks import (
    bench_autograd,
    bench_calls,
    bench_cuda,
    bench_dask,
    bench_elementwise,
    bench_foundation,
    bench_linalg,
    bench_manipulation,
    bench_reductions,
    bench_sorts,
    bench_torch,
    workloads,
)
from benchmarks.harness import Timing, busy, describe_environment, repeats, table
from benchmarks.report import run_record, write_json, write_plot

SUITES = {
    "foundation": bench_foundation, "elementwise": bench_elementwise, "calls": bench_calls,
    "reductions": bench_reductions, "sorts": bench_sorts, "manipulation": bench_manipulation,
    "linalg": bench_linalg,
    "dask": bench_dask, "torch": bench_torch, "autograd": bench_autograd, "cuda": bench_cuda,
}


def main(argv: list[str] | None = None) -> None:
    """Parse the options, print the environment, run the suites, print one table per suite.

    Parameters
    ----------
    argv : list of str, optional
        The command-line arguments (``sys.argv[1:]`` when None).
    """
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description="arrayx against NumPy, side by side")
    parser.add_argument("--quick", action="store_true", help="fewer repeats per case")
    parser.add_argument("--threads", type=int, help="arrayx kernel threads")
    parser.add_argument("--paired-threads", action="store_true",
                        help="time arrayx against arrayx on one thread, not against NumPy")
    parser.add_argument("--busy", action="store_true",
                        help="one busy-looping process beside the run")
    parser.add_argument("--json", metavar="FILE", help="write the run's numbers to FILE")
    parser.add_argument("--plot", metavar="FILE",
                        help="draw the arrayx/NumPy ratio of each case to FILE (matplotlib)")
    parser.add_argument("suites", nargs="*", metavar="SUITE",
                        help=f"suites to run (default: all of {', '.join(SUITES)})")
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["workloads"]:
        workloads.main(argv[1:])
        return
    args = parser.parse_args(argv)
    unknown = [s for s in args.suites if s not in SUITES]
    if unknown:
        parser.error(f"unknown suite(s): {', '.join(unknown)}")
    if args.threads:
        xp.set_num_threads(args.threads)
    if args.paired_threads:
        pair_threads()
    names = []
    for name in args.suites or SUITES:
        skip = getattr(SUITES[name], "skip_reason", None)
        reason = skip() if skip else None
        if reason:
            print(f"{name}: skipped ({reason})", flush=True)
        else:
            names.append(name)
    if not names:
        return
    print(describe_environment())
    results: dict[str, list[Timing]] = {}
    with busy(args.busy):
        for name in names:
            print(f"\n== {name}" + (" (arrayx / arrayx on one thread)" if args.paired_threads
                                     else ""))
            results[name] = SUITES[name].run(repeats(args.quick))
            text = getattr(SUITES[name], "table", table)(results[name])
            if text:
                print(text, flush=True)
    if args.json or args.plot:
        info = {name: SUITES[name].suite_info() for name in names
                if hasattr(SUITES[name], "suite_info")}
        record = run_record(results, args.quick, info, args.busy)
        if args.json:
            write_json(args.json, record)
        if args.plot:
            write_plot(args.plot, record)


if __name__ == "__main__":
    main()

"""Run every benchmark: ``python -m benchmarks [--quick] [--threads N]``.

Unset ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` in the benchmark command only (they slow
NumPy's BLAS): ``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python -m benchmarks``.
"""

from __future__ import annotations

import argparse

import arrayx as xp
from benchmarks import bench_elementwise, bench_foundation
from benchmarks.harness import environment, table

SUITES = {"foundation": bench_foundation, "elementwise": bench_elementwise}


def main() -> None:
    """Parse the options, run the suites, print one table per suite."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--threads", type=int, help="arrayx kernel threads")
    parser.add_argument("suites", nargs="*", choices=[*SUITES, []], help="suites to run")
    args = parser.parse_args()
    if args.threads:
        xp.set_num_threads(args.threads)
    print(environment())
    for name in args.suites or SUITES:
        print(f"\n== {name}")
        print(table(SUITES[name].run(5 if args.quick else 15)))


if __name__ == "__main__":
    main()

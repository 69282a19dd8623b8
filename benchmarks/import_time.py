"""``import arrayx`` against ``import numpy``: the median of 10 fresh interpreters each, warm
(the files in the page cache) and cold (every file of both packages dropped from the page
cache first, with ``posix_fadvise``, where the platform has it).

    python -m benchmarks.import_time

The interpreter's own start-up is measured alone and taken off both.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 10
TARGET = 1.5


def _package_files() -> list[Path]:
    import numpy

    import arrayx
    roots = [Path(numpy.__file__).parent, Path(arrayx.__file__).parent]
    libs = Path(numpy.__file__).parent.parent / "numpy.libs"
    if libs.is_dir():
        roots.append(libs)
    return [p for root in roots for p in root.rglob("*") if p.is_file()]


def _drop_from_page_cache(files: list[Path]) -> None:
    for path in files:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def _time(statement: str, cold: bool, files: list[Path]) -> float:
    """The median wall time of ``python -c statement`` over `RUNS` fresh interpreters."""
    times = []
    for _ in range(RUNS):
        if cold:
            _drop_from_page_cache(files)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", statement], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the import times and their ratio."""
    from benchmarks.harness import describe_environment
    print(describe_environment())
    files = _package_files()
    modes = ["warm"] + (["cold"] if hasattr(os, "posix_fadvise") else [])
    print(f"\n{'':6} {'python':>9} {'numpy':>9} {'arrayx':>9}  ratio  target")
    for mode in modes:
        cold = mode == "cold"
        bare = _time("pass", cold, files)
        numpy_s = _time("import numpy", cold, files) - bare
        arrayx_s = _time("import arrayx", cold, files) - bare
        ratio = arrayx_s / numpy_s
        verdict = "ok" if ratio <= TARGET else "MISSED"
        print(f"{mode:6} {bare * 1e3:7.1f}ms {numpy_s * 1e3:7.1f}ms {arrayx_s * 1e3:7.1f}ms"
              f"  {ratio:5.2f}  <= {TARGET} {verdict}")


if __name__ == "__main__":
    main()

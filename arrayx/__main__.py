"""``python -m arrayx``: what this arrayx is, and a short timing beside NumPy."""

from __future__ import annotations

import platform

import numpy as np

import arrayx as xp
from arrayx._bench import compare, table
from arrayx._kernels.cpu.iterate import has_openmp


def info() -> str:
    """Library, standard, devices and threads, one per line."""
    return "\n".join([
        f"arrayx {xp.__version__} (array API standard {xp.__array_api_version__})",
        f"python {platform.python_version()}, numpy {np.__version__}",
        "devices: " + ", ".join(str(d) for d in xp.__array_namespace_info__().devices()),
        f"kernel threads: {xp.get_num_threads()} (OpenMP {'on' if has_openmp() else 'off'})",
    ])


def short_benchmark() -> str:
    """A few side-by-side timings (a few seconds in all)."""
    rng = np.random.default_rng(0)
    small_np = np.arange(100.0)
    small = xp.asarray(small_np)
    ten_np = np.ones(10)
    ten = xp.asarray(ten_np)
    big_np = rng.random(10**6)
    big = xp.asarray(big_np)
    square_np = rng.random((1000, 1000))
    square = xp.asarray(square_np)
    cases = [
        compare("x[1:5]", lambda: small[1:5], lambda: small_np[1:5], repeats=7),
        compare("asarray([1, 2, 3])", lambda: xp.asarray([1, 2, 3]),
                lambda: np.asarray([1, 2, 3]), repeats=7),
        compare("x + y, (10,)", lambda: ten + ten, lambda: ten_np + ten_np, repeats=7),
        compare("x + y, 10^6 float64", lambda: big + big, lambda: big_np + big_np, repeats=7),
        compare("exp, 10^6 float64", lambda: xp.exp(big), lambda: np.exp(big_np), repeats=7),
        compare("transposed 1000x1000 to C order",
                lambda: xp.astype(square.mT, xp.float64),
                lambda: np.ascontiguousarray(square_np.T), repeats=7),
    ]
    return table(cases)


def main() -> None:
    """Print the library information and the short benchmark."""
    print(info())
    print()
    print(short_benchmark())


if __name__ == "__main__":
    main()

"""``python -m arrayx``: what this arrayx is, and a short timing beside NumPy (a few seconds)."""

from __future__ import annotations

import platform

import numpy as np

import arrayx as xp
from arrayx._bench import Timing, compare, environment, table

#: Alternating repeats per case; enough for a stable median, short enough for a quick look.
REPEATS = 7


def info() -> str:
    """What this arrayx is and how it runs here.

    Returns
    -------
    str
        The arrayx and standard versions, Python and NumPy versions, the devices, then the
        machine (CPU model, load, kernel threads, the ISA level the kernels run at,
        NumPy's own dispatch targets and BLAS), one per line.
    """
    devices = ", ".join(str(d) for d in xp.__array_namespace_info__().devices())
    lines = [
        f"arrayx {xp.__version__}",
        f"array API standard: {xp.__array_api_version__}",
        f"python {platform.python_version()}, numpy {np.__version__}",
        f"devices: {devices}",
    ]
    lines += [f"{key}: {value}" for key, value in environment().items()
              if key not in ("arrayx", "numpy")]
    return "\n".join(lines)


def short_benchmark(repeats: int = REPEATS) -> list[Timing]:
    """Time a few representative operations with arrayx and with NumPy.

    Parameters
    ----------
    repeats : int, optional
        Alternating repeats per case.

    Returns
    -------
    list of Timing
        Small-array overhead (a view, ``asarray``, a small add), a bandwidth-bound add, a
        transcendental function and a transposed copy.
    """
    rng = np.random.default_rng(0)
    small_np = np.arange(100.0)
    small = xp.asarray(small_np)
    ten_np = rng.random(10)
    ten = xp.asarray(ten_np)
    vec_np = rng.random(10**6)
    vec = xp.asarray(vec_np)
    square_np = rng.random((1000, 1000))
    square = xp.asarray(square_np)
    return [
        compare("x[1:5], (100,)", lambda: small[1:5], lambda: small_np[1:5], repeats=repeats),
        compare("asarray([1, 2, 3])", lambda: xp.asarray([1, 2, 3]),
                lambda: np.asarray([1, 2, 3]), repeats=repeats),
        compare("x + y, (10,) float64", lambda: ten + ten, lambda: ten_np + ten_np,
                repeats=repeats),
        compare("x + y, 10^6 float64", lambda: vec + vec, lambda: vec_np + vec_np,
                repeats=repeats),
        compare("exp, 10^6 float64", lambda: xp.exp(vec), lambda: np.exp(vec_np),
                repeats=repeats, exact=False),
        compare("1000x1000 .T to C order", lambda: xp.astype(square.T, square.dtype),
                lambda: np.ascontiguousarray(square_np.T), repeats=repeats,
                nbytes=2 * square_np.nbytes),
    ]


def main() -> None:
    """Print the library information, then the short side-by-side benchmark."""
    print(info())
    print("\narrayx beside NumPy (median time per call; ratio below 1: arrayx is faster)",
          flush=True)
    print(table(short_benchmark()))


if __name__ == "__main__":
    main()

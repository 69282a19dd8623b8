"""Accuracy of the transcendental functions in ULP, arrayx and NumPy side by side.

``python -m benchmarks.ulp [--n N] [--level LEVEL ...] [FUNCTION ...]`` sweeps each float32 and
float64 function over named input ranges (uniform, log-uniform magnitudes from the smallest
subnormal to the largest finite values, tiny, near poles, near 1, overflowing) and measures
each result against a reference computed in x86's 80-bit long double (64-bit significand: its
own error is about 2**-11 float64 ULP, so the measure holds to about 0.001 ULP). Each ISA level
the CPU has (``ARRAYX_CPU_LEVEL``) runs in its own interpreter, since the level is chosen at
import. Two measures per function, the worst over every range:

- ``err``: the largest ``|result - exact| / ulp(exact)``, a fraction (the correctly rounded
  result is within 0.5);
- ``cr``: the largest distance, in representable numbers, from the correctly rounded result
  (0: every result correctly rounded; 1: within one ULP of it, the bound arrayx keeps).

The tests (``tests/test_vector_math.py``) check the same measure over the same ranges.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable

import numpy as np

UNARY: dict[str, Callable] = {
    "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
    "atan": np.arctan, "atanh": np.arctanh, "cos": np.cos, "cosh": np.cosh, "exp": np.exp,
    "expm1": np.expm1, "log": np.log, "log1p": np.log1p, "log2": np.log2, "log10": np.log10,
    "sin": np.sin, "sinh": np.sinh, "sqrt": np.sqrt, "tan": np.tan, "tanh": np.tanh,
}
BINARY: dict[str, Callable] = {"atan2": np.arctan2, "hypot": np.hypot, "pow": np.power}
DTYPES = (np.float32, np.float64)
#: ULP of the function's dtype within which the long-double reference is taken as exact.
REFERENCE_TOLERANCE = 2.0**-9


def reference_exact() -> bool:
    """Whether long double carries a 64-bit significand here (x86's extended precision)."""
    return np.finfo(np.longdouble).nmant >= 63


def unary_inputs(name: str, dtype: type, n: int, rng: np.random.Generator) -> dict:
    """Named input ranges of ``n`` values of ``dtype`` for the unary function ``name``."""
    fi = np.finfo(dtype)
    huge, small = (1e30, 1e-30) if dtype == np.float32 else (1e300, 1e-300)

    def log_uniform(lo: float, hi: float) -> np.ndarray:
        return np.exp(rng.uniform(np.log(lo), np.log(hi), n)) * rng.choice([-1.0, 1.0], n)

    out = {
        "unit": rng.uniform(-1, 1, n),
        "wide": log_uniform(small, huge),
        "tiny": log_uniform(small, 1e-4),
        "subnormal": log_uniform(float(fi.smallest_subnormal), float(fi.smallest_normal) * 4),
    }
    if name in ("exp", "expm1", "sinh", "cosh", "tanh"):
        out["moderate"] = rng.uniform(-20, 20, n)
        out["overflow"] = rng.uniform(-1, 1, n) * (105 if dtype == np.float32 else 750)
    if name in ("sin", "cos", "tan"):
        out["moderate"] = rng.uniform(-10, 10, n)
        out["periods"] = rng.uniform(-1e4, 1e4, n)
        k = rng.integers(-1000, 1000, n)
        out["poles"] = (np.pi / 2 * k) * (1 + rng.uniform(-1e-6, 1e-6, n))
    if name in ("log", "log1p", "log2", "log10", "acosh", "atanh", "sqrt"):
        out["moderate"] = rng.uniform(0, 10, n)
        out["near_one"] = rng.choice([-1.0, 1.0], n) * (1 + rng.uniform(-1e-4, 1e-4, n))
    if name == "acosh":
        out["above_one"] = 1 + np.abs(log_uniform(small, 10))
    with np.errstate(over="ignore"):
        return {key: value.astype(dtype) for key, value in out.items()}


def binary_inputs(name: str, dtype: type, n: int, rng: np.random.Generator) -> dict:
    """Named pairs of input ranges of ``n`` values of ``dtype`` for ``name``."""
    huge = 1e30 if dtype == np.float32 else 1e300

    def wide() -> np.ndarray:
        return np.exp(rng.uniform(-np.log(huge), np.log(huge), n)) * rng.choice([-1.0, 1.0], n)

    if name == "pow":
        pairs = {
            "positive": (rng.uniform(0, 10, n), rng.uniform(-30, 30, n)),
            "wide": (np.abs(wide()), rng.uniform(-2, 2, n)),
            "integer_exponent": (rng.uniform(-10, 10, n), rng.integers(-20, 20, n) * 1.0),
        }
    else:
        pairs = {"unit": (rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)),
                 "moderate": (rng.uniform(-50, 50, n), rng.uniform(-50, 50, n)),
                 "wide": (wide(), wide())}
    with np.errstate(over="ignore"):
        return {k: (a.astype(dtype), b.astype(dtype)) for k, (a, b) in pairs.items()}


def _ordered(x: np.ndarray) -> np.ndarray:
    """Float bits as integers that count representable numbers in order (-0 and +0 equal)."""
    if x.dtype == np.float32:
        bits, mask = x.view(np.int32).astype(np.int64), np.int64(0x7FFFFFFF)
    else:
        bits, mask = x.view(np.int64), np.int64(0x7FFFFFFFFFFFFFFF)
    return np.where(bits < 0, -(bits & mask), bits)


def ulp_errors(got: np.ndarray, exact: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per element: ``|got - exact|`` in ULP of ``exact``, and the distance from the correctly
    rounded result in representable numbers (both 0 where ``got`` is that result, NaN or not).

    ``exact`` is the long-double reference; ``got`` has the function's dtype.
    """
    fi = np.finfo(got.dtype)
    with np.errstate(all="ignore"):
        _, e = np.frexp(exact)
        ulp = np.ldexp(np.longdouble(1), np.maximum(e - 1, fi.minexp) - fi.nmant)
        err = (np.abs(got.astype(np.longdouble) - exact) / ulp).astype(np.float64)
        rounded = exact.astype(got.dtype)
        dist = np.abs(_ordered(got) - _ordered(rounded)).astype(np.float64)
    # Within the reference's own error of half an ULP, got is the correctly rounded result
    # (rounding the reference again may land on the other side of a halfway point).
    dist[err <= 0.5 + REFERENCE_TOLERANCE] = 0.0
    same = (got == rounded) | (np.isnan(got) & np.isnan(rounded))
    err[same & ~np.isfinite(got)] = 0.0
    dist[same] = 0.0
    err[np.isnan(got) != np.isnan(rounded)] = np.inf
    dist[np.isnan(got) != np.isnan(rounded)] = np.inf
    return err, dist


def _reference(fn: Callable, *args: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return fn(*(a.astype(np.longdouble) for a in args))


def _sweep_one(name: str, dtype: type, n: int, xp: object) -> dict:
    """The worst of each measure over every range, for arrayx and NumPy, and where."""
    rng = np.random.default_rng(sum(map(ord, name + dtype.__name__)))
    if name in UNARY:
        ranges = {k: (a,) for k, a in unary_inputs(name, dtype, n, rng).items()}
        fn = UNARY[name]
    else:
        ranges = binary_inputs(name, dtype, n, rng)
        fn = BINARY[name]
    worst = {"arrayx": [0.0, 0.0, ""], "numpy": [0.0, 0.0, ""]}
    for label, args in ranges.items():
        exact = _reference(fn, *args)
        with np.errstate(all="ignore"):
            results = {"numpy": fn(*args),
                       "arrayx": np.asarray(getattr(xp, name)(*map(xp.asarray, args)))}
        for lib, got in results.items():
            err, dist = ulp_errors(got, exact)
            i = int(np.argmax(err))
            if err[i] > worst[lib][0]:
                where = ", ".join(repr(float(a[i])) for a in args)
                worst[lib][0], worst[lib][2] = float(err[i]), f"{label}: {name}({where})"
            worst[lib][1] = max(worst[lib][1], float(dist.max()))
    return worst


def sweep(names: list[str], n: int) -> dict:
    """Every function of ``names`` at both dtypes, at this interpreter's ISA level."""
    import arrayx as xp
    from arrayx._kernels.cpu import dispatch

    rows = {f"{name} {np.dtype(d).name}": _sweep_one(name, d, n, xp)
            for name in names for d in DTYPES}
    return {"level": dispatch.level(), "rows": rows}


def _at_level(level: str, names: list[str], n: int) -> dict:
    env = dict(os.environ, ARRAYX_CPU_LEVEL=level)
    code = ("import json, sys; from benchmarks.ulp import sweep; "
            f"print(json.dumps(sweep({names!r}, {n})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main(argv: list[str] | None = None) -> None:
    """Print one table per ISA level: each function's worst error, NumPy's beside it."""
    from arrayx._bench import cpu_model, numpy_dispatch
    from arrayx._kernels.cpu import dispatch

    parser = argparse.ArgumentParser(prog="python -m benchmarks.ulp", description=__doc__)
    parser.add_argument("--n", type=int, default=400_000, help="inputs per range")
    parser.add_argument("--level", action="append", help="ISA levels (default: every one)")
    parser.add_argument("--markdown", action="store_true",
                        help="one Markdown table, a column per level (the docs' table)")
    parser.add_argument("names", nargs="*", metavar="FUNCTION")
    args = parser.parse_args(argv)
    if not reference_exact():
        parser.error("the reference needs x86's 80-bit long double")
    names = args.names or sorted(UNARY) + sorted(BINARY)
    print(f"cpu: {cpu_model()}\nnumpy {np.__version__} dispatch: {numpy_dispatch()}")
    print(f"{args.n} inputs per range; err: max |result - exact| in ULP; "
          "cr: max distance from the correctly rounded result")
    results = [_at_level(level, names, args.n)
               for level in args.level or dispatch.supported_levels()]
    if args.markdown:
        print(markdown(results))
        return
    for result in results:
        print(f"\n== ISA level {result['level']}")
        print(f"{'function':<16}{'arrayx err':>11}{'cr':>4}{'numpy err':>11}{'cr':>4}  worst")
        for row, r in result["rows"].items():
            a, m = r["arrayx"], r["numpy"]
            print(f"{row:<16}{a[0]:>11.3f}{a[1]:>4.0f}{m[0]:>11.3f}{m[1]:>4.0f}  {a[2]}")


def markdown(results: list[dict]) -> str:
    """The sweeps of each level as one table: per function and dtype, arrayx at each level and
    NumPy, each cell the distance from the correctly rounded result (error in ULP)."""
    def cell(r: list) -> str:
        return f"{r[1]:.0f} ({r[0]:.2f})"

    levels = [r["level"] for r in results]
    lines = ["| function | " + " | ".join(f"arrayx, {lv}" for lv in levels) + " | NumPy |",
             "|---|" + "---|" * (len(levels) + 1)]
    for row in results[0]["rows"]:
        cells = [cell(r["rows"][row]["arrayx"]) for r in results]
        lines.append(f"| {row} | " + " | ".join(cells)
                     + f" | {cell(results[-1]['rows'][row]['numpy'])} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()

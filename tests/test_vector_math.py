"""The vectorised transcendental functions against NumPy: error in ULP over a million inputs.

At the AVX2 and AVX-512 levels (``ARRAYX_CPU_LEVEL``) contiguous float32 and float64 runs of
these functions go through glibc's vector math library; at the baseline, through the C
library's scalar functions. Either way the error stays within 4 ULP of the reference (NumPy
in float64; for float32, NumPy's float64 result rounded to float32, which is within half an
ULP of the true value), over uniform, wide (log-uniform magnitudes up to the largest finite
values), subnormal and near-pole inputs, and the standard's special values are exact.
"""

from collections.abc import Callable

import numpy as np
import pytest

import arrayx as xp

N = 1_000_000
MAX_ULP = 4

UNARY = {
    "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
    "atan": np.arctan, "atanh": np.arctanh, "cos": np.cos, "cosh": np.cosh, "exp": np.exp,
    "expm1": np.expm1, "log": np.log, "log1p": np.log1p, "log2": np.log2, "log10": np.log10,
    "sin": np.sin, "sinh": np.sinh, "sqrt": np.sqrt, "tan": np.tan, "tanh": np.tanh,
}
BINARY = {"atan2": np.arctan2, "hypot": np.hypot, "pow": np.power}


def ulp_error(got: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """|got - ref| in units of ref's last place (0 where both are equal or both NaN)."""
    same = (got == ref) | (np.isnan(got) & np.isnan(ref))
    with np.errstate(invalid="ignore"):
        err = np.abs(got.astype(np.float64) - ref.astype(np.float64))
        err /= np.spacing(np.abs(ref)).astype(np.float64)
    err[same] = 0.0
    err[np.isnan(err)] = np.inf
    return err


def inputs(name: str, dtype: type, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Named input ranges of N values for ``name``."""
    fi = np.finfo(dtype)
    huge, small = (1e30, 1e-30) if dtype == np.float32 else (1e300, 1e-300)

    def log_uniform(lo: float, hi: float) -> np.ndarray:
        return np.exp(rng.uniform(np.log(lo), np.log(hi), N)) * rng.choice([-1.0, 1.0], N)

    out = {
        "unit": rng.uniform(-1, 1, N),
        "wide": log_uniform(small, huge),
        "subnormal": log_uniform(float(fi.smallest_subnormal), float(fi.smallest_normal) * 4),
    }
    if name in ("exp", "expm1", "sinh", "cosh", "tanh"):
        out["overflow"] = rng.uniform(-1, 1, N) * (100 if dtype == np.float32 else 750)
    if name in ("sin", "cos", "tan"):
        out["periods"] = rng.uniform(-1e4, 1e4, N)
        k = rng.integers(-1000, 1000, N)
        out["poles"] = (np.pi / 2 + np.pi * k) * (1 + rng.uniform(-1e-6, 1e-6, N))
    if name in ("log", "log1p", "log2", "log10", "acosh", "atanh"):
        out["near_one"] = rng.choice([-1.0, 1.0], N) * (1 + rng.uniform(-1e-4, 1e-4, N))
    return {key: value.astype(dtype) for key, value in out.items()}


def reference(fn: Callable, *args: np.ndarray) -> np.ndarray:
    """NumPy's result, computed in float64 and rounded for float32 inputs."""
    dtype = args[0].dtype
    with np.errstate(all="ignore"):
        return fn(*(a.astype(np.float64) for a in args)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_within_4_ulp(name: str, dtype: type) -> None:
    rng = np.random.default_rng(abs(hash((name, dtype.__name__))) % 2**32)
    for label, a in inputs(name, dtype, rng).items():
        with np.errstate(all="ignore"):
            got = np.asarray(getattr(xp, name)(xp.asarray(a)))
        err = ulp_error(got, reference(UNARY[name], a))
        worst = int(np.argmax(err))
        assert err[worst] <= MAX_ULP, (
            f"{name}({a[worst]!r}) = {got[worst]!r}, NumPy {reference(UNARY[name], a)[worst]!r}:"
            f" {err[worst]} ULP over the {label} range")


def binary_inputs(name: str, dtype: type, rng: np.random.Generator) -> dict:
    """Named pairs of input ranges of N values for ``name``."""
    huge = 1e30 if dtype == np.float32 else 1e300
    wide = np.exp(rng.uniform(-np.log(huge), np.log(huge), N)) * rng.choice([-1.0, 1.0], N)
    wide2 = np.exp(rng.uniform(-np.log(huge), np.log(huge), N)) * rng.choice([-1.0, 1.0], N)
    if name == "pow":
        return {
            "positive": (rng.uniform(0, 10, N), rng.uniform(-30, 30, N)),
            "wide": (np.abs(wide), rng.uniform(-2, 2, N)),
            "integer_exponent": (rng.uniform(-10, 10, N), rng.integers(-20, 20, N).astype(float)),
        }
    return {"unit": (rng.uniform(-1, 1, N), rng.uniform(-1, 1, N)), "wide": (wide, wide2)}


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_within_4_ulp(name: str, dtype: type) -> None:
    rng = np.random.default_rng(abs(hash((name, dtype.__name__))) % 2**32)
    for label, (a, b) in binary_inputs(name, dtype, rng).items():
        a, b = a.astype(dtype), b.astype(dtype)
        ref = reference(BINARY[name], a, b)
        for ga, gb in ((a, b), (a[:1], b), (a, b[:1])):
            # Both operands as runs, and either one a broadcast scalar.
            with np.errstate(all="ignore"):
                got = np.asarray(getattr(xp, name)(xp.asarray(ga), xp.asarray(gb)))
                want = ref if ga is a and gb is b else reference(BINARY[name], ga, gb)
            err = ulp_error(got, want)
            assert err.max() <= MAX_ULP, f"{name}: {err.max()} ULP over the {label} range"


SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e-310, -1e-310,
           1e308, -1e308, 88.8, 710.0, -746.0, np.pi / 2, np.pi]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_special_values_exact(name: str, dtype: type) -> None:
    # Each special value at every position of a vector, with partial vectors at the end.
    with np.errstate(all="ignore"):
        base = np.array(SPECIAL, dtype)
    for length in (1, 7, 33):
        a = np.resize(base, len(base) * length)
        with np.errstate(all="ignore"):
            got = np.asarray(getattr(xp, name)(xp.asarray(a)))
            want = UNARY[name](a)
        special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(a) | (a == 0)
        np.testing.assert_array_equal(got[special], want[special], err_msg=name)
        zero = want == 0
        np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]),
                                      err_msg=f"{name}: sign of zero")


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_special_values_exact(name: str, dtype: type) -> None:
    with np.errstate(all="ignore"):
        vals = np.array(SPECIAL, dtype)
    a, b = (g.ravel() for g in np.meshgrid(vals, vals))
    with np.errstate(all="ignore"):
        got = np.asarray(getattr(xp, name)(xp.asarray(a), xp.asarray(b)))
        want = BINARY[name](a, b)
    special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(a) | ~np.isfinite(b)
    special |= (a == 0) | (b == 0)
    if name == "pow":
        special |= np.abs(a) == 1
    np.testing.assert_array_equal(got[special], want[special], err_msg=name)
    zero = want == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]),
                                  err_msg=f"{name}: sign of zero")

"""The transcendental functions within one ULP of the correctly rounded result.

At the AVX2 and AVX-512 levels (``ARRAYX_CPU_LEVEL``) contiguous float32 runs are computed in
float64 by glibc's vector math library or arrayx's own vector code, and float64 exp, expm1,
log, log1p, log2, log10, sin, cos, tan, sinh, cosh, tanh, asin, acos, atan, atan2, asinh,
acosh and atanh by arrayx's own vector code; the rest,
and every op at the baseline, goes through the C library's scalar functions in a wider type
where glibc's own strays. Whatever the path,
over uniform, wide (log-uniform magnitudes up to the largest finite values), tiny, subnormal,
near-pole and near-one inputs, each result is within one ULP of the correctly rounded one,
measured against x86's 80-bit long double (``benchmarks/ulp.py``, which prints the table);
tiny inputs give the correctly rounded result itself (``cos(1e-9)`` is 1.0, ``sin(x)`` is x);
and the standard's special values are exact. CI runs this at every ISA level the machine has.
"""

import numpy as np
import pytest

import arrayx as xp
from benchmarks.ulp import (
    BINARY,
    UNARY,
    binary_inputs,
    reference_exact,
    ulp_errors,
    unary_inputs,
)

N = 200_000

needs_long_double = pytest.mark.skipif(
    not reference_exact(), reason="the reference is x86's 80-bit long double")
DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])


def exact(fn: object, *args: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return fn(*(a.astype(np.longdouble) for a in args))


def compute(name: str, *args: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.asarray(getattr(xp, name)(*map(xp.asarray, args)))


def assert_within_one_ulp(name: str, label: str, args: tuple, got: np.ndarray) -> None:
    err, dist = ulp_errors(got, exact(UNARY.get(name) or BINARY[name], *args))
    worst = int(np.argmax(dist))
    where = ", ".join(repr(a[worst if a.size > 1 else 0]) for a in args)
    assert dist[worst] <= 1, (
        f"{name}({where}) = {got[worst]!r}: {dist[worst]:.0f} ULP from the correctly rounded"
        f" result ({err[worst]:.3f} ULP from the exact value) over the {label} range")


@needs_long_double
@DTYPES
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_within_1_ulp(name: str, dtype: type) -> None:
    rng = np.random.default_rng(sum(map(ord, name + dtype.__name__)))
    for label, a in unary_inputs(name, dtype, N, rng).items():
        assert_within_one_ulp(name, label, (a,), compute(name, a))


@needs_long_double
@DTYPES
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_within_1_ulp(name: str, dtype: type) -> None:
    rng = np.random.default_rng(sum(map(ord, name + dtype.__name__)))
    for label, (a, b) in binary_inputs(name, dtype, N, rng).items():
        # Both operands as runs, and either one a broadcast scalar.
        for args in ((a, b), (a[:1], b), (a, b[:1])):
            assert_within_one_ulp(name, label, args, compute(name, *args))


# Functions whose value at tiny x is x or 1 to within far less than half an ULP.
TINY_EXACT = ["asin", "asinh", "atan", "atanh", "cos", "exp", "expm1", "log1p", "sin", "sinh",
              "tan", "tanh"]


@needs_long_double
@DTYPES
@pytest.mark.parametrize("name", TINY_EXACT)
def test_tiny_inputs_correctly_rounded(name: str, dtype: type) -> None:
    rng = np.random.default_rng(7)
    top = 1e-8 if dtype == np.float64 else 1e-4
    smallest = float(np.finfo(dtype).smallest_subnormal)
    a = (np.exp(rng.uniform(np.log(smallest), np.log(top), 10_000))
         * rng.choice([-1.0, 1.0], 10_000)).astype(dtype)
    _, dist = ulp_errors(compute(name, a), exact(UNARY[name], a))
    assert dist.max() == 0, f"{name}: tiny inputs {a[dist > 0][:5]} not correctly rounded"


@DTYPES
def test_tiny_inputs_exact_values(dtype: type) -> None:
    # What SciPy's tests compare bitwise (stats.circmean: cos of angles below 1e-8 is 1).
    a = np.array([1e-9, -1e-9, 1e-20, -3e-30, 1e-300, 5e-324, 0.0, -0.0] * 5).astype(dtype)
    one = np.ones_like(a)
    np.testing.assert_array_equal(compute("cos", a), one)
    # e^x rounds to 1, log1p(x) and expm1(x) to x, below 2^-54 (float64) or 2^-25 (float32).
    below = np.abs(a) < 1e-17
    np.testing.assert_array_equal(compute("exp", a[below]), one[below])
    for name, tiny in (("sin", a), ("tan", a), ("tanh", a), ("sinh", a), ("log1p", a[below]),
                       ("expm1", a[below])):
        got = compute(name, tiny)
        np.testing.assert_array_equal(got, tiny, err_msg=name)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(tiny), err_msg=name)


SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e-310, -1e-310,
           1e308, -1e308, 88.8, 710.0, -746.0, np.pi / 2, np.pi,
           # exp's thresholds of 0 and of overflow, each side.
           -745.2, -745.14, -745.13, 709.78, 709.79]


@DTYPES
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_special_values_exact(name: str, dtype: type) -> None:
    # Each special value at every position of a vector, with partial vectors at the end.
    with np.errstate(all="ignore"):
        base = np.array(SPECIAL, dtype)
    for length in (1, 7, 33):
        a = np.resize(base, len(base) * length)
        got = compute(name, a)
        with np.errstate(all="ignore"):
            want = UNARY[name](a)
        special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(a) | (a == 0)
        np.testing.assert_array_equal(got[special], want[special], err_msg=name)
        zero = want == 0
        np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]),
                                      err_msg=f"{name}: sign of zero")


#: Bit patterns of lanes the vector code leaves to the C library, whose exponent arithmetic
#: overflowed int64 (undefined behaviour, reported by tools/sanitize.sh): NaNs of every
#: payload and sign, -0, the most negative finite values, and magnitudes near 2^53 and beyond.
LIBRARY_LANES = np.array([0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0xFFF8000000000000,
                          0x7FF0000000000001, 0x8000000000000000, 0xFFEFFFFFFFFFFFFF,
                          0xC341C37937E08000, 0xC3E0000000000000, 0xFFF0000000000000,
                          0x7FEFFFFFFFFFFFFF, 0x8000000000000001], dtype=np.uint64)


@pytest.mark.parametrize("name", ["exp", "log", "tanh", "sin", "cos"])
def test_lanes_left_to_the_c_library_as_numpy(name: str) -> None:
    for dtype in (np.float64, np.float32):
        with np.errstate(all="ignore"):
            base = LIBRARY_LANES.view(np.float64).astype(dtype)
            for length in (1, 5, 17):
                a = np.resize(base, len(base) * length)
                want = UNARY[name](a)
                got = compute(name, a)
                exact_lanes = ~np.isfinite(want) | (np.abs(want) <= 1) & ~np.isfinite(a)
                np.testing.assert_array_equal(got[exact_lanes], want[exact_lanes],
                                              err_msg=name)
                np.testing.assert_allclose(got, want, rtol=4e-16 if dtype == np.float64
                                           else 2e-7, err_msg=name)


@DTYPES
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_special_values_exact(name: str, dtype: type) -> None:
    with np.errstate(all="ignore"):
        vals = np.array(SPECIAL, dtype)
    a, b = (g.ravel() for g in np.meshgrid(vals, vals))
    got = compute(name, a, b)
    with np.errstate(all="ignore"):
        want = BINARY[name](a, b)
    special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(a) | ~np.isfinite(b)
    special |= (a == 0) | (b == 0)
    if name == "pow":
        special |= np.abs(a) == 1
    np.testing.assert_array_equal(got[special], want[special], err_msg=name)
    zero = want == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]),
                                  err_msg=f"{name}: sign of zero")


@needs_long_double
def test_float32_log_correctly_rounded_across_its_table() -> None:
    """float32 log at the AVX-512 level reads 1/c and log(1/c) from a 16-entry table over
    [0.703125, 1.40625): every float32 of the binades around 1 (each entry's edges and middle,
    and 1 itself) and a stride through the rest of the range round as the exact logarithm."""
    near_one = np.arange(0x3F000000, 0x3FC00000, dtype=np.uint32)
    spread = np.arange(0x00000001, 0x7F800000, 4099, dtype=np.uint32)
    for bits in (near_one, spread):
        a = bits.view(np.float32)
        want = exact(np.log, a).astype(np.float32)
        got = compute("log", a)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, f"log({a[bad[0]]!r}) = {got[bad[0]]!r}, not {want[bad[0]]!r}"

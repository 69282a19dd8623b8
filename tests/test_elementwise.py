"""Every elementwise function and operator against NumPy, over drawn dtypes, shapes and strides."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from conftest import DTYPES_BY_KIND, arrays, to_np
from hypothesis import assume, given
from hypothesis import strategies as st

import arrayx as xp
from arrayx._kernels import ops

UNARY = {name: kinds for name, kinds, _, _ in ops.UNARY}
BINARY = {name: kinds for name, kinds, _, _ in ops.BINARY}
FLOAT_RESULT = {name for name, _, result, _ in ops.UNARY + ops.BINARY if result == "float"}
NUMPY_NAMES = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
               "atan": "arctan", "atanh": "arctanh", "atan2": "arctan2",
               "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
               "bitwise_right_shift": "right_shift", "pow": "power", "conj": "conjugate"}
# Functions whose float results need a tolerance (transcendental), by dtype precision.
EXACT = {"abs", "negative", "positive", "logical_not", "bitwise_invert", "ceil", "floor",
         "trunc", "round", "conj", "real", "imag", "isnan", "isinf", "isfinite", "signbit",
         "add", "subtract", "multiply", "equal", "not_equal", "less", "less_equal", "greater",
         "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
         "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "maximum",
         "minimum", "copysign", "nextafter", "floor_divide", "remainder", "square", "sign"}


def numpy_func(name: str):
    return getattr(np, NUMPY_NAMES.get(name, name))


def expected_of(name: str, *args: np.ndarray) -> np.ndarray:
    """NumPy's result, computing integer inputs of float ops in float64 as arrayx does."""
    if name in FLOAT_RESULT and all(a.dtype.kind in "biu" for a in args):
        args = tuple(a.astype(np.float64) for a in args)
    with np.errstate(all="ignore"):
        return numpy_func(name)(*args)


def assert_matches(got: xp.Array, expected: np.ndarray, name: str) -> None:
    got_np = to_np(got)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
    exact = name in EXACT and not (expected.dtype.kind == "c" and name in (
        "multiply", "square", "sign")) and not (name == "abs" and expected.dtype.kind == "f")
    if expected.dtype.kind in "biu" or exact:
        np.testing.assert_array_equal(got_np, expected)
        if expected.dtype.kind == "f" and name in ("ceil", "floor", "trunc", "round",
                                                   "negative", "copysign"):
            np.testing.assert_array_equal(np.signbit(got_np), np.signbit(expected))
        return
    single = expected.dtype in (np.float32, np.complex64)
    rtol = 2e-5 if single else 1e-12
    atol = 1e-30 if expected.dtype.kind == "f" else (1e-5 if single else 1e-12)
    if expected.dtype.kind == "c":
        # Compare the parts apart (a complex infinity compares its finite part exactly), each
        # to a tolerance of the modulus: one part can cancel while the other does not.
        finite = np.abs(expected[np.isfinite(expected)])
        scale = max(1.0, float(finite.max())) if finite.size else 1.0
        for part in (np.real, np.imag):
            np.testing.assert_allclose(part(got_np), part(expected), rtol=rtol,
                                       atol=atol * scale, equal_nan=True)
        return
    np.testing.assert_allclose(got_np, expected, rtol=rtol, atol=atol, equal_nan=True)


def view_of(a: np.ndarray, how: str) -> tuple[np.ndarray, xp.Array]:
    """The same strided view of ``a`` in NumPy and in arrayx (sharing ``a``'s memory)."""
    x = xp.asarray(a)
    if how == "reversed" and a.ndim:
        return a[::-1], x[::-1]
    if how == "transposed" and a.ndim >= 2:
        return a.mT, x.mT
    if how == "stepped" and a.ndim:
        return a[..., ::2], x[..., ::2]
    return a, x


def well_defined(name: str, *args: np.ndarray) -> bool:
    """Inputs where NumPy's result is the reference (branch cuts aside)."""
    if name in ("acos", "asin", "atanh", "acosh", "log", "log2", "log10", "log1p", "sqrt") \
            and any(a.dtype.kind == "c" for a in args):
        # On a branch cut, signed zeros decide the side: NumPy and arrayx may differ there.
        # NumPy's complex log1p forms |1 + z| with a hypot that overflows within a factor
        # sqrt(2) of the largest float, where the true logarithm is finite.
        return all(np.all(a.imag != 0) for a in args) and (
            name != "log1p" or all(np.all(np.abs(a) < 1e300) for a in args))
    if name in ("tan", "tanh", "sinh", "cosh", "exp", "expm1") and \
            any(a.dtype.kind == "c" for a in args):
        return all(np.all(np.abs(a) < 50) for a in args)
    if name == "pow":
        # NumPy raises for negative integer exponents; arrayx truncates like C.
        return not any(a.dtype.kind == "c" for a in args) and not (
            args[1].dtype.kind == "i" and np.any(args[1] < 0))
    if name == "floor_divide" and any(a.dtype.kind == "f" for a in args):
        # With an infinite operand arrayx follows the standard's floor(x1 / x2); NumPy
        # pairs // with % as Python does.
        return all(np.all(np.isfinite(a)) for a in args)
    if name in ("multiply", "divide", "square", "reciprocal") and any(
            a.dtype.kind == "c" for a in args):
        # Complex infinities and overflow: C's Annex G and NumPy's formulas pick different
        # (equally valid) infinities and NaNs.
        return all(np.all(np.isfinite(a)) and np.all(np.abs(a) < 1e15) for a in args) and (
            name not in ("divide", "reciprocal") or np.all(np.abs(args[-1]) > 1e-30))
    if name == "sign" and args[0].dtype.kind == "c":
        # The standard makes any NaN part give NaN; NumPy keeps an infinite part's direction.
        # Where |z| overflows or is subnormal NumPy's z / |z| loses the unit modulus
        # (test_complex_sign_keeps_unit_modulus checks arrayx there).
        finfo = np.finfo(args[0].dtype)
        with np.errstate(all="ignore"):
            modulus = np.abs(args[0])
        return not np.isnan(args[0]).any() and not np.any(
            np.isfinite(args[0]) & ((modulus > finfo.max) | ((modulus < finfo.tiny)
                                                             & (modulus > 0))))
    return True


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_sign_keeps_unit_modulus(dtype: type) -> None:
    big, tiny = np.finfo(dtype).max, np.finfo(dtype).smallest_subnormal
    z = np.array([big * (0.9 + 0.9j), big * (0.9 - 0.7j), tiny * (1 + 1j), -tiny * 3 + 0j,
                  0.5 * big + 0j], dtype=dtype)
    got = to_np(xp.sign(xp.asarray(z)))
    want = np.exp(1j * np.angle(z.astype(np.complex128)))
    np.testing.assert_allclose(got, want.astype(dtype), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(UNARY))
@given(data=st.data())
def test_unary_matches_numpy(name: str, data: st.DataObject) -> None:
    kinds = UNARY[name]
    dtypes = DTYPES_BY_KIND[kinds]
    a = data.draw(arrays(dtypes))
    how = data.draw(st.sampled_from(["plain", "reversed", "transposed", "stepped"]))
    a, x = view_of(a, how)
    assume(well_defined(name, a))
    assert_matches(getattr(xp, name)(x), expected_of(name, a), name)


@pytest.mark.parametrize("name", sorted(BINARY))
@given(data=st.data())
def test_binary_matches_numpy(name: str, data: st.DataObject) -> None:
    dtypes = DTYPES_BY_KIND[BINARY[name]]
    dtype = data.draw(st.sampled_from(dtypes))
    shape = data.draw(st.sampled_from([(), (3,), (2, 3), (4, 1, 3), (0, 3)]))
    other = data.draw(st.sampled_from([shape, shape[1:], (1,) * len(shape)]))
    from hypothesis.extra import numpy as hnp
    a = data.draw(hnp.arrays(dtype, shape))
    b = data.draw(hnp.arrays(dtype, other))
    if name in ("bitwise_left_shift", "bitwise_right_shift"):
        b = (np.abs(b.astype(np.int64)) % (8 * dtype.itemsize)).astype(dtype)
    how = data.draw(st.sampled_from(["plain", "reversed", "transposed"]))
    a, x = view_of(a, how)
    if how == "transposed" and a.ndim >= 2:
        b = np.broadcast_to(b, a.mT.shape).mT if b.ndim else b
    y = xp.asarray(b.copy())
    assume(well_defined(name, a, b))
    assert_matches(getattr(xp, name)(x, y), expected_of(name, a, b), name)


@pytest.mark.parametrize("a_dtype,b_dtype", [
    ("int8", "int64"), ("uint8", "int8"), ("int32", "float32"), ("float32", "float64"),
    ("int16", "complex64"), ("float32", "complex128"), ("uint64", "int64")])
@pytest.mark.parametrize("name", ["add", "multiply", "divide", "equal", "maximum"])
def test_mixed_dtypes_promote_like_numpy(a_dtype: str, b_dtype: str, name: str) -> None:
    if name == "maximum" and "complex" in a_dtype + b_dtype:
        return
    rng = np.random.default_rng(0)
    a = (rng.random((3, 1500)) * 100).astype(a_dtype)
    b = (rng.random((1500,)) * 100 + 1).astype(b_dtype)
    got = getattr(xp, name)(xp.asarray(a)[:, ::-1], xp.asarray(b))
    assert_matches(got, expected_of(name, a[:, ::-1], b), name)


BINARY_OPERATORS = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "divide": operator.truediv, "floor_divide": operator.floordiv, "remainder": operator.mod,
    "pow": operator.pow, "bitwise_left_shift": operator.lshift,
    "bitwise_right_shift": operator.rshift, "bitwise_and": operator.and_,
    "bitwise_or": operator.or_, "bitwise_xor": operator.xor, "equal": operator.eq,
    "not_equal": operator.ne, "less": operator.lt, "less_equal": operator.le,
    "greater": operator.gt, "greater_equal": operator.ge,
}
IN_PLACE = {"add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul,
            "divide": operator.itruediv, "floor_divide": operator.ifloordiv,
            "remainder": operator.imod, "pow": operator.ipow,
            "bitwise_left_shift": operator.ilshift, "bitwise_right_shift": operator.irshift,
            "bitwise_and": operator.iand, "bitwise_or": operator.ior,
            "bitwise_xor": operator.ixor}


def scalar_for(dtype: np.dtype, data: st.DataObject) -> object:
    if dtype.kind == "b":
        return data.draw(st.booleans())
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return data.draw(st.integers(max(info.min, -100), min(info.max, 100)))
    if dtype.kind == "f":
        return data.draw(st.floats(-1e3, 1e3))
    return data.draw(st.complex_numbers(max_magnitude=1e3))


@pytest.mark.parametrize("name", sorted(BINARY_OPERATORS))
@given(data=st.data())
def test_operators_with_arrays_and_scalars(name: str, data: st.DataObject) -> None:
    op = BINARY_OPERATORS[name]
    dtypes = [d for d in DTYPES_BY_KIND[BINARY[name]]
              if not (name in ("pow", "divide") and d.kind == "c")]
    dtype = data.draw(st.sampled_from(dtypes))
    a = data.draw(arrays([dtype], shape=st.sampled_from([(), (4,), (2, 3)]), finite=True))
    if name in ("bitwise_left_shift", "bitwise_right_shift", "pow") and dtype.kind in "iu":
        a = np.abs(a.astype(np.int64) % 7).astype(dtype)
    x = xp.asarray(a)
    s = scalar_for(dtype, data)
    if name in ("bitwise_left_shift", "bitwise_right_shift", "pow") and dtype.kind in "iu":
        s = abs(int(s)) % 7
    with np.errstate(all="ignore"):
        expected = op(a, s)
        expected_r = op(s, a)
    assert_matches(op(x, x), expected_of(name, a, a), name)
    if name in FLOAT_RESULT and dtype.kind in "biu":
        return
    assert_matches(op(x, s), to_np(expected), name)
    assert_matches(op(s, x), to_np(expected_r), name)


@pytest.mark.parametrize("name", sorted(IN_PLACE))
@given(data=st.data())
def test_in_place_operators(name: str, data: st.DataObject) -> None:
    dtypes = [d for d in DTYPES_BY_KIND[BINARY[name]] if not (name == "pow" and d.kind == "c")]
    dtype = data.draw(st.sampled_from(dtypes))
    if name in FLOAT_RESULT and dtype.kind in "biu":
        x = xp.ones(3, dtype=dtype)
        with pytest.raises(TypeError):
            IN_PLACE[name](x, x)
        return
    a = data.draw(arrays([dtype], shape=st.just((3, 4)), finite=True))
    b = data.draw(arrays([dtype], shape=st.sampled_from([(4,), (1, 4), (3, 4)]), finite=True))
    if dtype.kind in "iu" and name in ("bitwise_left_shift", "bitwise_right_shift", "pow"):
        b = np.abs(b.astype(np.int64) % 5).astype(dtype)
    assume(well_defined(name, a, b))
    x = xp.asarray(a.copy())
    expected = a.copy()
    with np.errstate(all="ignore"):
        IN_PLACE[name](expected, b)
    before = x._storage
    x = IN_PLACE[name](x, xp.asarray(b))
    assert x._storage is before
    assert_matches(x, expected, name)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64"])
@pytest.mark.parametrize("exponent", [2, 2.0])
def test_square_exponent_is_an_exact_square(dtype: str, exponent: float) -> None:
    # ``x ** 2`` is one multiply (NumPy's fast path), bit for bit NumPy's result, the dtype
    # kept; a float exponent with an integer array promotes as any float scalar.
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(50) * 30).astype(dtype)
    if dtype.startswith("float"):
        a[:4] = [np.nan, np.inf, -np.inf, -0.0]
    x = xp.asarray(a)
    with np.errstate(all="ignore"):
        want = a ** exponent
    got = x ** exponent
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(to_np(got), want)
    np.testing.assert_array_equal(to_np(xp.pow(x, exponent)), want)


def test_in_place_keeps_dtype_or_raises() -> None:
    x = xp.arange(4, dtype=xp.int32)
    with pytest.raises(TypeError):
        x += 1.5
    with pytest.raises(TypeError):
        x += xp.ones(4, dtype=xp.float64)
    with pytest.raises(ValueError):
        x += xp.ones((2, 4), dtype=xp.int32)
    with pytest.raises(ValueError):
        view = xp.broadcast_to(x, (2, 4))
        view += 1
    np.testing.assert_array_equal(to_np(x), np.arange(4, dtype=np.int32))


@given(a=arrays(DTYPES_BY_KIND["numeric"], shape=st.sampled_from([(7,), (3, 5)]), finite=True))
def test_in_place_with_overlap_matches_numpy(a: np.ndarray) -> None:
    x = xp.asarray(a.copy())
    expected = a.copy()
    x[1:] += x[:-1]
    expected[1:] += expected[:-1].copy()
    x += x[::-1]
    expected += expected[::-1].copy()
    np.testing.assert_array_equal(to_np(x), expected)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_operators_and_bad_dtypes(name: str) -> None:
    allowed = set(DTYPES_BY_KIND[UNARY[name]])
    for dtype in DTYPES_BY_KIND["all"]:
        x = xp.ones(2, dtype=dtype)
        if dtype in allowed or (name in FLOAT_RESULT and dtype.kind in "iu"):
            getattr(xp, name)(x)
        elif name == "logical_not":
            # An extension: a numeric array counts as its truth, as in NumPy; strict mode
            # keeps the standard's bool-only rule.
            np.testing.assert_array_equal(to_np(xp.logical_not(x)),
                                          np.logical_not(np.ones(2, dtype=dtype)))
            xp.set_strict_flags(strict=True)
            try:
                with pytest.raises(TypeError, match=name):
                    xp.logical_not(x)
            finally:
                xp.reset_strict_flags()
        else:
            with pytest.raises(TypeError, match=name):
                getattr(xp, name)(x)


def test_unary_operators() -> None:
    a = np.array([[1, -2, 3]], dtype=np.int16)
    x = xp.asarray(a)
    for got, expected in ((-x, -a), (+x, +a), (abs(x), abs(a)), (~x, ~a)):
        assert_matches(got, expected, "negative")


def test_shapes_that_do_not_broadcast() -> None:
    with pytest.raises(ValueError, match=r"\(3,\).*\(4,\)"):
        xp.add(xp.ones(3), xp.ones(4))
    with pytest.raises(TypeError):
        xp.add(1, 2)


@given(a=arrays(DTYPES_BY_KIND["real"], shape=st.sampled_from([(5,), (2, 3)]), finite=True),
       data=st.data())
def test_clip(a: np.ndarray, data: st.DataObject) -> None:
    lo = data.draw(st.none() | st.integers(-5, 0))
    hi = data.draw(st.none() | st.integers(0, 5))
    got = xp.clip(xp.asarray(a), lo, hi)
    expected = a.copy() if lo is None and hi is None else np.clip(a, lo, hi).astype(a.dtype)
    assert_matches(got, expected, "clip")


@pytest.mark.parametrize(("dtype", "bound_dtype"), [
    ("uint8", "int8"), ("int8", "uint8"), ("int8", "int64"), ("uint16", "int64"),
    ("uint64", "int8"), ("int32", "uint64")])
def test_clip_with_integer_bounds_of_another_dtype(dtype: str, bound_dtype: str) -> None:
    # A bound was cast to x's dtype before clamping: an int8 bound of -5 became 251 for uint8.
    # NumPy promotes; arrayx keeps x's dtype (the standard's), so the values are NumPy's.
    info, binfo = np.iinfo(dtype), np.iinfo(bound_dtype)
    a = np.array([info.min, 1, 100, info.max], dtype=dtype)
    lo = np.array([max(binfo.min, -5), 0, 3, 0], dtype=bound_dtype)
    hi = np.array([binfo.max, 0, 50, min(binfo.max, 1000)], dtype=bound_dtype)
    want = np.clip(a, lo, hi)
    got = xp.clip(xp.asarray(a), xp.asarray(lo), xp.asarray(hi))
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(to_np(got), want)


@given(c=arrays([np.dtype(bool)], shape=st.sampled_from([(4,), (2, 4)])),
       a=arrays(DTYPES_BY_KIND["all"], shape=st.just((4,))), data=st.data())
def test_where(c: np.ndarray, a: np.ndarray, data: st.DataObject) -> None:
    b = data.draw(arrays([a.dtype], shape=st.sampled_from([(1,), (4,)])))
    got = xp.where(xp.asarray(c), xp.asarray(a), xp.asarray(b))
    np.testing.assert_array_equal(to_np(got), np.where(c, a, b))
    with pytest.raises(TypeError):
        xp.where(xp.asarray(a.astype(np.int8)), xp.asarray(a), xp.asarray(b))


@pytest.mark.parametrize(("stem", "op", "form"), ops.OPERATORS)
def test_each_declared_operator_is_its_ops_function(stem: str, op: str, form: str) -> None:
    # The operators are generated from ops.OPERATORS: each method (and its reflected and
    # in-place forms) computes what the op's function does, and its docstring names it.
    method = getattr(xp.Array, f"__{stem}__")
    assert f":func:`arrayx.{op}`" in method.__doc__
    fn = getattr(xp, op)
    dtype = xp.float64 if op == "divide" else xp.int32
    x = xp.asarray([[3, 1, 2]], dtype=dtype)
    y = xp.asarray([[1], [2]], dtype=dtype)
    if form == "unary":
        assert_matches(method(x), to_np(fn(x)), op)
        return
    assert_matches(method(x, y), to_np(fn(x, y)), op)
    if form == "comparison":
        return
    assert_matches(getattr(xp.Array, f"__r{stem}__")(y, x), to_np(fn(x, y)), op)
    z = xp.asarray(xp.broadcast_to(x, (2, 3)), copy=True)
    assert_matches(getattr(xp.Array, f"__i{stem}__")(z, y), to_np(fn(x, y)), op)


# The compiler's own complex quotient (libgcc's __divdc3) gave nan+nanj where the quotient
# overflows; Smith's method (NumPy's) gives the infinities, and reciprocal keeps an exact zero.
OVERFLOWING_QUOTIENTS = [(1e308 + 1e308j, 0.5 + 0j), (3 + 4j, 1e-309 + 0j), (3 + 4j, 1e-309j),
                         (1e300 + 1e300j, 1e-10 + 0j), (1e200 + 1e200j, 1e-200j),
                         (1 + 2j, 0j), (3 + 4j, 1 + 2j), (-0.0 - 1j, 2 - 0j)]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [1, 17, 100_003])
def test_complex_quotients_that_overflow_match_numpy(dtype: type, n: int) -> None:
    with np.errstate(all="ignore"):
        for a, b in OVERFLOWING_QUOTIENTS:
            x, y = np.full(n, a, dtype), np.full(n, b, dtype)
            for got, want in ((xp.divide(xp.asarray(x), xp.asarray(y)), x / y),
                              (xp.asarray(x) / b, x / np.asarray(b, dtype))):
                got = to_np(got)
                np.testing.assert_array_equal(got, want)
                _same_signs(got.real, want.real)
                _same_signs(got.imag, want.imag)
        for z in (1e-310j, 1e-309 + 0j, 0j, complex(np.inf, 1), 1e308 + 1e308j, -2 - 0j, 3 + 4j):
            x = np.full(n, z, dtype)
            got, want = to_np(xp.reciprocal(xp.asarray(x))), np.reciprocal(x)
            np.testing.assert_array_equal(got, want)
            _same_signs(got.imag, want.imag)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_negative_and_conj_flip_the_sign_of_a_nan(dtype: type) -> None:
    # IEEE 754's negate flips every sign bit, a NaN's too, as NumPy; a GPU's own negation
    # leaves a NaN's sign unspecified (negative(nan) kept it clear on an H200).
    nan = np.float64(np.nan)
    parts = np.array([nan, -nan, 0.0, -0.0, 1.5])
    a = (parts[:, None] + 1j * parts[None, :]).ravel() if np.dtype(dtype).kind == "c" else parts
    a = a.astype(dtype)
    for name in ("negative", "conj"):
        got, want = to_np(getattr(xp, name)(xp.asarray(a))), getattr(np, name)(a)
        for part in ("real", "imag"):
            np.testing.assert_array_equal(np.signbit(getattr(got, part)),
                                          np.signbit(getattr(want, part)), err_msg=name)


def _same_signs(got: np.ndarray, want: np.ndarray) -> None:
    """The signs of ``want``'s numbers (zeros included) in ``got``. A NaN that arithmetic made
    has no sign to compare: x86 makes them negative, a GPU positive."""
    number = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[number]), np.signbit(want[number]))

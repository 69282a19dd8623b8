"""Elementwise results in their inputs' memory order (NumPy's ``K``), Python scalars as weak
operands, and overlap between an output and its inputs, all against NumPy."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from conftest import DTYPES_BY_KIND
from hypothesis import given
from hypothesis import strategies as st

import arrayx as xp

RNG = np.random.default_rng(0)
BASE = RNG.random((4, 5, 6))

# Views of memory order other than C's: transposed, Fortran-ordered, permuted, stepped,
# reversed, and mixes of them (every axis longer than one, so every stride is meaningful).
VIEWS = {
    "transposed": lambda a: a[0].T,
    "fortran": lambda a: np.asfortranarray(a),
    "permuted": lambda a: np.transpose(a, (1, 2, 0)),
    "permuted-2": lambda a: np.transpose(a, (2, 0, 1)),
    "stepped": lambda a: a[:, ::2, 1:],
    "reversed": lambda a: a[::-1, :, ::-1],
    "transposed-stepped": lambda a: np.transpose(a[::2, :, ::3], (2, 1, 0)),
    "fortran-reversed": lambda a: np.asfortranarray(a)[:, ::-1],
}


def arrayx_view(name: str) -> tuple[np.ndarray, xp.Array]:
    """The NumPy view ``name`` of ``BASE`` and the same view of an arrayx copy of its base."""
    view = VIEWS[name](BASE)
    if name.startswith("fortran"):
        base = np.asfortranarray(BASE)
        x = xp.asarray(base)
        x = x[:, ::-1] if name == "fortran-reversed" else x
        return view, x
    x = xp.asarray(BASE)
    if name == "transposed":
        return view, x[0].T
    if name == "permuted":
        return view, xp.permute_dims(x, (1, 2, 0))
    if name == "permuted-2":
        return view, xp.permute_dims(x, (2, 0, 1))
    if name == "stepped":
        return view, x[:, ::2, 1:]
    if name == "reversed":
        return view, x[::-1, :, ::-1]
    return view, xp.permute_dims(x[::2, :, ::3], (2, 1, 0))


def element_strides(a: np.ndarray) -> tuple[int, ...]:
    return tuple(s // a.itemsize for s in a.strides)


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_results_keep_the_inputs_memory_order(name: str) -> None:
    a, x = arrayx_view(name)
    np.testing.assert_array_equal(np.asarray(x), a)
    cases = [
        (x + 1, np.add(a, 1)),
        (1.5 * x, np.multiply(1.5, a)),
        (x + x, np.add(a, a)),
        (-x, np.negative(a)),
        (xp.exp(x), np.exp(a)),
        (x < 0.5, np.less(a, 0.5)),
        (xp.where(x < 0.5, x, 0.0), np.where(a < 0.5, a, 0.0)),
    ]
    for got, expected in cases:
        assert got._layout.strides == element_strides(expected), name
        # exp differs from NumPy's in the last bit at times (another vector library).
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-15, atol=0)


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_results_of_disagreeing_orders_follow_numpy(name: str) -> None:
    a, x = arrayx_view(name)
    c = np.ascontiguousarray(a) + 1
    got = x + xp.asarray(c)
    expected = a + c
    assert got._layout.strides == element_strides(expected)
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_broadcast_operand_leaves_the_order_to_the_others() -> None:
    f = np.asfortranarray(RNG.random((30, 40)))
    row = RNG.random(40)
    got = xp.asarray(f) * xp.asarray(row)
    expected = f * row
    assert got._layout.strides == element_strides(expected)
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_results_in_another_order_reshape_and_copy_in_c_order() -> None:
    a = RNG.random((300, 200))
    got = xp.asarray(a).mT + 1
    expected = a.T + 1
    assert got._layout.strides == element_strides(expected)
    np.testing.assert_array_equal(np.asarray(xp.reshape(got, (-1,))), expected.reshape(-1))
    np.testing.assert_array_equal(np.asarray(got[::7, 3]), expected[::7, 3])
    np.testing.assert_allclose(np.asarray(xp.sum(got, axis=1)), expected.sum(axis=1),
                               rtol=1e-13)
    np.testing.assert_array_equal(np.asarray(xp.cumulative_sum(got, axis=0)),
                                  np.cumsum(expected, axis=0))
    assert bytes(memoryview(got)) == expected.tobytes(order="C")


SCALARS = [True, False, 0, 3, -2, 127, 255, 2**40, 2.5, -0.0, float("inf"), 1.5 + 2j]
SCALAR_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
              "==": operator.eq, "<": operator.lt}


def numpy_result(op, a: object, b: object) -> np.ndarray | type[Exception]:
    """NumPy's ``op(a, b)``, or the type of the error it raises."""
    try:
        with np.errstate(all="ignore"):
            return np.asarray(op(a, b))
    except (OverflowError, TypeError) as e:
        return type(e)


def check_scalar_case(op, symbol: str, x: xp.Array, a: np.ndarray, s: object,
                      reflected: bool) -> None:
    """``op(x, s)`` (``op(s, x)`` when ``reflected``) against NumPy."""
    want = numpy_result(op, s, a) if reflected else numpy_result(op, a, s)
    try:
        with np.errstate(all="ignore"):
            got = op(s, x) if reflected else op(x, s)
    except OverflowError:
        # A Python int is checked against the dtype the kernel reads; NumPy's comparisons
        # alone answer for ints beyond it (the standard leaves those open).
        info = np.iinfo(a.dtype)
        assert want is OverflowError or (
            symbol in ("==", "<") and not info.min <= s <= info.max)
        return
    except TypeError:
        # The standard leaves out bool arithmetic and complex ordering, which NumPy allows:
        # an array of the dtype the scalar takes is refused the same way.
        with pytest.raises(TypeError):
            op(x, xp.full(3, s, dtype=xp.result_type(x, s)))
        return
    assert isinstance(want, np.ndarray), want
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("dtype", DTYPES_BY_KIND["all"], ids=str)
@pytest.mark.parametrize("symbol", sorted(SCALAR_OPS))
def test_python_scalars_promote_as_numpy(dtype: np.dtype, symbol: str) -> None:
    a = np.array([0, 1, 2], dtype=dtype)
    x = xp.asarray(a)
    for s in SCALARS:
        for reflected in (False, True):
            check_scalar_case(SCALAR_OPS[symbol], symbol, x, a, s, reflected)


def test_python_scalar_out_of_range_raises() -> None:
    for dtype, value in ((xp.int8, 128), (xp.uint8, -1), (xp.uint64, 2**64), (xp.int64, 2**63),
                         (xp.int64, -(2**63) - 1), (xp.uint32, 2**32)):
        x = xp.ones(3, dtype=dtype)
        with pytest.raises(OverflowError):
            x + value
        with pytest.raises(OverflowError):
            value * x
        with pytest.raises(OverflowError):
            x += value


def test_python_scalar_at_the_edges_of_integer_dtypes() -> None:
    for dtype in DTYPES_BY_KIND["integer"]:
        info = np.iinfo(dtype)
        a = np.array([0, 1], dtype=dtype)
        x = xp.asarray(a)
        for value in (int(info.min), int(info.max)):
            np.testing.assert_array_equal(np.asarray(x + value), a + value)
            np.testing.assert_array_equal(np.asarray(x == value), a == value)


def test_zero_d_arrays_are_not_weak() -> None:
    for a_dtype, s_dtype in (("int8", "float64"), ("float32", "float64"), ("uint8", "int64"),
                             ("float32", "complex128")):
        a = np.arange(3, dtype=a_dtype)
        s = np.asarray(2, dtype=s_dtype)
        got = xp.asarray(a) + xp.asarray(s)
        assert got.dtype == (a + s).dtype
        np.testing.assert_array_equal(np.asarray(got), a + s)


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_in_place_on_other_orders_matches_numpy(name: str) -> None:
    a, x = arrayx_view(name)
    a = a.copy(order="K")
    x = xp.asarray(a)
    assert x._layout.strides == element_strides(a)
    x += 2.0
    a += 2.0
    x *= x
    a *= a
    np.testing.assert_array_equal(np.asarray(x), a)


@given(n=st.integers(2, 9), order=st.sampled_from("CF"))
def test_in_place_with_an_overlapping_transpose(n: int, order: str) -> None:
    a = np.asarray(np.arange(n * n, dtype=np.float64).reshape(n, n), order=order)
    x = xp.asarray(a)
    x += x.mT
    a += a.T.copy()
    np.testing.assert_array_equal(np.asarray(x), a)
    x[1:, :] -= x[:-1, :]
    a[1:, :] -= a[:-1, :].copy()
    np.testing.assert_array_equal(np.asarray(x), a)


@given(order=st.sampled_from("CF"), step=st.sampled_from([1, 2, -1]))
def test_assignment_from_an_overlapping_view(order: str, step: int) -> None:
    a = np.asarray(np.arange(48, dtype=np.int64).reshape(6, 8), order=order)
    x = xp.asarray(a)
    x[1:, ::step] = x[:-1, ::step]
    a[1:, ::step] = a[:-1, ::step].copy()
    np.testing.assert_array_equal(np.asarray(x), a)
    x[:, 1:] = x[:, :-1]
    a[:, 1:] = a[:, :-1].copy()
    np.testing.assert_array_equal(np.asarray(x), a)

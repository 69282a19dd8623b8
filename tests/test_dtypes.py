"""Dtypes, promotion, casting and the data type functions."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL, FLOAT, INTEGER, arrays, to_np
from hypothesis import assume, given
from hypothesis import strategies as st

import arrayx as xp

STANDARD_KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating",
                  "complex floating", "numeric")


def test_dtypes_are_numpy_dtypes() -> None:
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float32", "float64", "complex64", "complex128"):
        assert getattr(xp, name) == np.dtype(name)
        assert isinstance(getattr(xp, name), np.dtype)


@given(a=st.sampled_from(ALL), b=st.sampled_from(ALL))
def test_result_type_follows_numpy(a: np.dtype, b: np.dtype) -> None:
    assert xp.result_type(a, b) == np.result_type(a, b)
    assert xp.result_type(xp.empty(1, dtype=a), b) == np.result_type(a, b)


@given(d=st.sampled_from(ALL), scalar=st.sampled_from([True, 1, 1.0, 1j]))
def test_result_type_python_scalars_are_weak(d: np.dtype, scalar: object) -> None:
    assume(not (d == np.bool_ and isinstance(scalar, int) and not isinstance(scalar, bool)))
    assert xp.result_type(d, scalar) == np.result_type(d, scalar)


def test_result_type_needs_something() -> None:
    with pytest.raises(ValueError):
        xp.result_type()
    assert xp.result_type(1, 2.0) == xp.float64


@given(a=st.sampled_from(ALL), b=st.sampled_from(ALL))
def test_can_cast_matches_safe_casting(a: np.dtype, b: np.dtype) -> None:
    assert xp.can_cast(a, b) == np.can_cast(a, b, "safe")
    assert xp.can_cast(xp.empty(1, dtype=a), b) == np.can_cast(a, b, "safe")


@given(d=st.sampled_from(ALL), kind=st.sampled_from(STANDARD_KINDS))
def test_isdtype(d: np.dtype, kind: str) -> None:
    assert xp.isdtype(d, kind) == np.isdtype(d, kind)
    assert xp.isdtype(d, (kind, d))
    with pytest.raises(ValueError):
        xp.isdtype(d, "not a kind")


@pytest.mark.parametrize("d", FLOAT)
def test_finfo(d: np.dtype) -> None:
    got, expected = xp.finfo(d), np.finfo(d)
    for field in ("bits", "eps", "max", "min", "smallest_normal"):
        assert getattr(got, field) == getattr(expected, field)
        assert isinstance(getattr(got, field), int if field == "bits" else float)
    assert got.dtype == expected.dtype


@pytest.mark.parametrize("d", INTEGER)
def test_iinfo(d: np.dtype) -> None:
    got, expected = xp.iinfo(d), np.iinfo(d)
    assert (got.bits, got.min, got.max) == (expected.bits, expected.min, expected.max)
    assert got.dtype == d
    with pytest.raises(TypeError):
        xp.finfo(d)
    with pytest.raises(TypeError):
        xp.iinfo(xp.float64)


def castable(a: np.ndarray, to: np.dtype) -> bool:
    """Whether NumPy's cast of ``a`` to ``to`` is defined (no NaN/inf/out-of-range to int)."""
    if to.kind not in "iub" or a.dtype.kind not in "fc":
        return True
    if to.kind == "b":
        return True
    values = a.real if a.dtype.kind == "c" else a
    info = np.iinfo(to)
    return bool(np.all(np.isfinite(values)) and np.all(values > info.min - 1)
                and np.all(values < info.max + 1))


@given(a=arrays(ALL), to=st.sampled_from(ALL), data=st.data())
def test_astype_matches_numpy(a: np.ndarray, to: np.dtype, data: st.DataObject) -> None:
    assume(castable(a, to))
    x = xp.asarray(a)
    step = data.draw(st.sampled_from([1, -1, 2]))
    view = (slice(None, None, step),) * a.ndim
    expected = a[view].real.astype(to) if (a.dtype.kind == "c" and to.kind != "c"
                                          and to.kind != "b") else a[view].astype(to)
    got = xp.astype(x[view], to)
    assert got.dtype == to and got.shape == expected.shape
    np.testing.assert_array_equal(to_np(got), expected)
    assert got._storage is not x._storage


def test_astype_copy_false_returns_same_array() -> None:
    x = xp.arange(3)
    assert xp.astype(x, xp.int64, copy=False) is x
    assert xp.astype(x, xp.int64) is not x


def test_transposed_copy_is_c_ordered() -> None:
    n = np.arange(200 * 300, dtype=np.float64).reshape(200, 300)
    got = xp.astype(xp.asarray(n).mT, xp.float64)
    assert got._layout.c_contiguous
    np.testing.assert_array_equal(to_np(got), n.T)


operands = st.one_of(st.sampled_from(ALL).map(lambda d: ("dtype", d)),
                     st.sampled_from(ALL).map(lambda d: ("array", d)),
                     st.sampled_from([True, 1, -1, 1.0, 1j]).map(lambda v: ("scalar", v)))


@given(args=st.lists(operands, min_size=1, max_size=4))
def test_result_type_of_many_operands(args: list[tuple[str, object]]) -> None:
    ours, numpys = [], []
    for kind, value in args:
        if kind == "array":
            ours.append(xp.zeros((2,), dtype=value))
            numpys.append(np.zeros((2,), dtype=value))
        else:
            ours.append(value)
            numpys.append(value)
    assume(any(kind != "scalar" for kind, _ in args))
    assert xp.result_type(*ours) == np.result_type(*numpys)


@given(d=st.sampled_from(ALL), kinds=st.lists(st.sampled_from(STANDARD_KINDS) | st.sampled_from(
    ALL), min_size=1, max_size=3))
def test_isdtype_with_tuples(d: np.dtype, kinds: list) -> None:
    assert xp.isdtype(d, tuple(kinds)) == np.isdtype(d, tuple(kinds))


@given(d=st.sampled_from(ALL))
def test_finfo_and_iinfo_of_arrays(d: np.dtype) -> None:
    x = xp.zeros((2,), dtype=d)
    if d.kind in "fc":
        got, expected = xp.finfo(x), np.finfo(d)
        assert (got.bits, got.eps, got.max, got.min, got.smallest_normal) == (
            expected.bits, expected.eps, expected.max, expected.min, expected.smallest_normal)
        assert got.dtype == expected.dtype
    elif d.kind in "iu":
        got, expected = xp.iinfo(x), np.iinfo(d)
        assert (got.bits, got.min, got.max, got.dtype) == (expected.bits, expected.min,
                                                           expected.max, d)
    else:
        with pytest.raises(TypeError):
            xp.finfo(x)
        with pytest.raises(TypeError):
            xp.iinfo(x)


@given(a=arrays(ALL), data=st.data())
def test_astype_copy_keyword(a: np.ndarray, data: st.DataObject) -> None:
    x = xp.asarray(a, copy=True)
    step = data.draw(st.sampled_from([1, -1, 2]))
    view = x[(slice(None, None, step),) * a.ndim]
    assert xp.astype(view, a.dtype, copy=False) is view
    for copy in (True, None):
        got = xp.astype(view, a.dtype, copy=copy) if copy is not None else xp.astype(view,
                                                                                     a.dtype)
        assert got is not view and got._storage is not x._storage and got._writeable
        np.testing.assert_array_equal(to_np(got), to_np(view))
    other = data.draw(st.sampled_from(ALL).filter(lambda d: d != a.dtype))
    assume(castable(a, other))
    converted = xp.astype(view, other, copy=False)  # a new dtype always needs a copy
    assert converted.dtype == other and converted._storage is not x._storage


def test_result_type_of_numpy_scalars_and_scalar_types() -> None:
    # A NumPy scalar has its dtype (np.float64 subclasses float, and counted as a weak Python
    # float); a scalar type is a dtype (its class attribute `dtype` raised KeyError).
    x = xp.ones(3, dtype=xp.float32)
    for args in [(np.float64,), (x, np.float32), (x, np.float64(2.0)), (x, np.complex128(1j)),
                 (xp.ones(2, dtype=xp.int8), np.int64(1)), (np.float32(1), 1.0)]:
        want = np.result_type(*[to_np(a) if isinstance(a, xp.Array) else a for a in args])
        assert xp.result_type(*args) == want

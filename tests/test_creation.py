"""Creation functions against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL, NUMERIC, REAL_FLOAT, arrays, shapes, to_np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arrayx as xp

dtypes = st.sampled_from(ALL)


def check(got: xp.Array, expected: np.ndarray) -> None:
    assert isinstance(got, xp.Array)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(to_np(got), expected)


@given(start=st.integers(-50, 50), stop=st.integers(-50, 50) | st.none(),
       step=st.integers(-7, 7).filter(bool), dtype=st.sampled_from([None, "int8", "int64",
                                                                      "float32", "float64"]))
def test_arange_ints(start: int, stop: int | None, step: int, dtype: str | None) -> None:
    if stop is None:
        expected = np.arange(start, dtype=dtype)
        got = xp.arange(start, dtype=dtype)
    else:
        expected = np.arange(start, stop, step, dtype=dtype)
        got = xp.arange(start, stop, step, dtype=dtype)
    check(got, expected)


@given(start=st.floats(-100, 100), stop=st.floats(-100, 100),
       step=st.floats(0.1, 10) | st.floats(-10, -0.1))
def test_arange_floats(start: float, stop: float, step: float) -> None:
    expected = np.arange(start, stop, step)
    got = xp.arange(start, stop, step)
    assert got.shape == expected.shape
    np.testing.assert_allclose(to_np(got), expected, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize(("start", "stop", "step"), [
    (0.0, -5e-324, -2.0), (0.0, 5e-324, 2.0), (0.0, -5e-324, 2.0), (0.0, 5e-324, -2.0),
    (1.0, 1.0 + 2.0**-52, 1e300), (1.0, 1.0 + 2.0**-52, -1e300), (-0.0, 0.0, 1.0)])
def test_arange_whose_length_underflows(start: float, stop: float, step: float) -> None:
    # (stop - start) / step rounds to a zero: one element when stop lies beyond start in
    # step's direction, as NumPy's arange.
    expected = np.arange(start, stop, step)
    got = xp.arange(start, stop, step)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(to_np(got), expected)


@given(shape=shapes, dtype=dtypes)
def test_zeros_ones_empty(shape: tuple, dtype: np.dtype) -> None:
    check(xp.zeros(shape, dtype=dtype), np.zeros(shape, dtype=dtype))
    check(xp.ones(shape, dtype=dtype), np.ones(shape, dtype=dtype))
    out = xp.empty(shape, dtype=dtype)
    assert out.shape == shape and out.dtype == dtype


@given(shape=shapes, data=st.data())
def test_full(shape: tuple, data: st.DataObject) -> None:
    value = data.draw(st.booleans() | st.integers(-100, 100) | st.floats(allow_nan=False)
                      | st.complex_numbers(allow_nan=False))
    check(xp.full(shape, value), np.full(shape, value))
    if isinstance(value, (bool, int)):
        check(xp.full(shape, value, dtype=xp.float32), np.full(shape, value, dtype=np.float32))


def test_full_nan_and_dtype_defaults() -> None:
    assert xp.full(2, True).dtype == xp.bool
    assert xp.full(2, 1).dtype == xp.int64
    assert xp.full(2, 1.0).dtype == xp.float64
    assert xp.full(2, 1j).dtype == xp.complex128
    assert np.isnan(to_np(xp.full((2, 2), float("nan")))).all()


@given(a=arrays(ALL), dtype=st.none() | dtypes)
def test_like_functions(a: np.ndarray, dtype: np.dtype | None) -> None:
    x = xp.asarray(a)
    check(xp.zeros_like(x, dtype=dtype), np.zeros_like(a, dtype=dtype))
    check(xp.ones_like(x, dtype=dtype), np.ones_like(a, dtype=dtype))
    check(xp.full_like(x, 1, dtype=dtype), np.full_like(a, 1, dtype=dtype))
    out = xp.empty_like(x, dtype=dtype)
    assert out.shape == a.shape and out.dtype == (dtype or a.dtype)
    assert out._storage is not x._storage


@given(n=st.integers(0, 6), m=st.integers(0, 6) | st.none(), k=st.integers(-8, 8),
       dtype=dtypes)
def test_eye(n: int, m: int | None, k: int, dtype: np.dtype) -> None:
    check(xp.eye(n, m, k=k, dtype=dtype), np.eye(n, m, k=k, dtype=dtype))


@given(start=st.floats(-1e3, 1e3), stop=st.floats(-1e3, 1e3), num=st.integers(0, 30),
       endpoint=st.booleans(), dtype=st.sampled_from(REAL_FLOAT))
def test_linspace(start: float, stop: float, num: int, endpoint: bool, dtype: np.dtype) -> None:
    expected = np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
    got = xp.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(to_np(got), expected, rtol=rtol, atol=rtol * 1e3)
    if endpoint and num > 1:
        assert float(got[-1]) == float(expected[-1])


def test_linspace_complex() -> None:
    got = xp.linspace(0, 1 + 2j, 5)
    np.testing.assert_allclose(to_np(got), np.linspace(0, 1 + 2j, 5))
    assert got.dtype == xp.complex128


@given(lengths=st.lists(st.integers(0, 4), min_size=0, max_size=3),
       indexing=st.sampled_from(["xy", "ij"]), dtype=st.sampled_from(NUMERIC))
def test_meshgrid(lengths: list[int], indexing: str, dtype: np.dtype) -> None:
    arrays_np = [np.arange(n).astype(dtype) for n in lengths]
    got = xp.meshgrid(*[xp.asarray(a) for a in arrays_np], indexing=indexing)
    expected = np.meshgrid(*arrays_np, indexing=indexing)
    assert isinstance(got, tuple) and len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        check(g, e)


@given(a=arrays(ALL, shape=hnp.array_shapes(min_dims=2, max_dims=4, min_side=0, max_side=5)),
       k=st.integers(-6, 6), data=st.data())
def test_tril_triu_of_stacks_and_views(a: np.ndarray, k: int, data: st.DataObject) -> None:
    x = xp.asarray(a)
    step = data.draw(st.sampled_from([1, -1, 2]))
    index = (slice(None, None, step),) * a.ndim
    for v, e in ((x, a), (x[index], a[index]), (x.mT, np.swapaxes(a, -1, -2))):
        lower, upper = xp.tril(v, k=k), xp.triu(v, k=k)
        check(lower, np.tril(e, k=k))
        check(upper, np.triu(e, k=k))
        assert lower._storage is not x._storage and upper._storage is not x._storage
    check(xp.tril(x), np.tril(a))
    check(xp.triu(x), np.triu(a))


@given(a=arrays(ALL), dtype=st.none() | dtypes, data=st.data())
def test_full_like_values(a: np.ndarray, dtype: np.dtype | None, data: st.DataObject) -> None:
    target = np.dtype(dtype or a.dtype)
    value = data.draw(hnp.from_dtype(target)).item()
    check(xp.full_like(xp.asarray(a), value, dtype=dtype), np.full_like(a, value, dtype=dtype))
    own = data.draw(hnp.from_dtype(a.dtype)).item()
    check(xp.full_like(xp.asarray(a)[::-1] if a.ndim else xp.asarray(a), own),
          np.full_like(a, own))


@given(n=st.integers(0, 6), dtype=dtypes)
def test_int_shapes(n: int, dtype: np.dtype) -> None:
    check(xp.zeros(n, dtype=dtype), np.zeros(n, dtype=dtype))
    check(xp.ones(n, dtype=dtype), np.ones(n, dtype=dtype))
    check(xp.full(n, True, dtype=dtype), np.full(n, True, dtype=dtype))
    assert xp.empty(n, dtype=dtype).shape == (n,)
    for fresh in (xp.zeros(n), xp.empty((n, 2)), xp.ones(()), xp.eye(n), xp.arange(n)):
        assert fresh._writeable and fresh._layout.c_contiguous


@given(lengths=st.lists(st.integers(1, 5), min_size=1, max_size=3),
       indexing=st.sampled_from(["xy", "ij"]), step=st.sampled_from([1, -1, 2]))
def test_meshgrid_of_strided_inputs(lengths: list[int], indexing: str, step: int) -> None:
    arrays_np = [np.arange(2 * n, dtype=np.float32)[::step][:n] for n in lengths]
    arrays_ax = [xp.arange(2 * n, dtype=xp.float32)[::step][:n] for n in lengths]
    got = xp.meshgrid(*arrays_ax, indexing=indexing)
    for g, e in zip(got, np.meshgrid(*arrays_np, indexing=indexing), strict=True):
        check(g, e)


@given(data=st.data())
def test_asarray_nested_sequences(data: st.DataObject) -> None:
    shape = data.draw(st.sampled_from([(), (3,), (2, 3), (2, 0), (1, 2, 2)]))
    elements = data.draw(st.sampled_from([st.booleans(), st.integers(-2**63, 2**63 - 1),
                                          st.floats(allow_nan=False), st.complex_numbers(
                                              allow_nan=False)]))
    flat = data.draw(st.lists(elements, min_size=int(np.prod(shape)),
                              max_size=int(np.prod(shape))))
    obj = np.array(flat, dtype=object).reshape(shape).tolist() if shape else (
        flat[0] if flat else 0)
    check(xp.asarray(obj), to_np(obj))


@given(a=arrays(NUMERIC, finite=True), dtype=st.sampled_from(NUMERIC))
def test_asarray_dtype_and_copy(a: np.ndarray, dtype: np.dtype) -> None:
    assume(a.dtype.kind != "c" or dtype.kind == "c")
    x = xp.asarray(a)
    if x.device == xp.Device("cpu"):  # NumPy's memory, shared; on a device, a copy
        assert np.shares_memory(to_np(x), a) or a.size == 0
    copied = xp.asarray(x, copy=True)
    assert copied._storage is not x._storage
    assert xp.asarray(x) is x
    assert xp.asarray(x, copy=False) is x
    converted = xp.asarray(x, dtype=dtype)
    check(converted, a.astype(dtype))
    if dtype != a.dtype:
        with pytest.raises(ValueError):
            xp.asarray(x, dtype=dtype, copy=False)


def test_asarray_python_values_need_a_copy() -> None:
    with pytest.raises(ValueError):
        xp.asarray([1, 2], copy=False)
    check(xp.asarray([[1, 2], [3, 4]], dtype=xp.int8), to_np([[1, 2], [3, 4]], np.int8))
    check(xp.asarray([1, 2.5]), to_np([1, 2.5]))
    check(xp.asarray([True, 2]), to_np([True, 2]))
    check(xp.asarray([xp.asarray(1.5), 2]), to_np([1.5, 2]))
    check(xp.asarray(2**64 - 1, dtype=xp.uint64), to_np(2**64 - 1, dtype=np.uint64))
    with pytest.raises(OverflowError):
        xp.asarray([2**64])


@pytest.mark.parametrize(("args", "dtype"), [
    ((0, 300, 1), "int8"), ((250, 260, 1), "uint8"), ((0.5, 300.5, 1), "int8"),
    ((5, 0, -2), "uint8"), ((0, 10, 2.5), "int16"), ((0, 5, 1), "uint64")])
def test_integer_arange_wraps_as_numpy(args: tuple, dtype: str) -> None:
    # Float arguments went through float values saturated into the dtype.
    np.testing.assert_array_equal(to_np(xp.arange(*args, dtype=dtype)),
                                  np.arange(*args, dtype=dtype))


@pytest.mark.parametrize(("args", "dtype"), [
    ((0, 1e18, 1e17), "int32"), ((2**62, 2**63 - 1, 2**61), "int8"), ((-1, 3, 1), "uint8")])
def test_integer_arange_out_of_the_dtype_raises(args: tuple, dtype: str) -> None:
    with pytest.raises(OverflowError):
        np.arange(*args, dtype=dtype)
    with pytest.raises(OverflowError):
        xp.arange(*args, dtype=dtype)


def test_arange_keeps_a_negative_zero_start() -> None:
    got = to_np(xp.arange(-0.0, 2.0))
    np.testing.assert_array_equal(got, np.arange(-0.0, 2.0))
    assert np.signbit(got[0])


@pytest.mark.parametrize(("args", "dtype"), [((200, 0), "int8"), ((300, 0), "uint8"),
                                             ((-1, -5), "uint8")])
def test_an_empty_integer_arange_checks_no_value(args: tuple, dtype: str) -> None:
    np.testing.assert_array_equal(to_np(xp.arange(*args, dtype=dtype)),
                                  np.arange(*args, dtype=dtype))

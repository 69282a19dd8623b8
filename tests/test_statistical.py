"""Reductions, scans, diff and joins against NumPy (the parts of the reductions issue built)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DTYPES_BY_KIND, REAL_FLOAT, arrays, to_np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arrayx as xp

shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6)


@st.composite
def axes_for(draw: st.DrawFn, ndim: int) -> int | tuple | None:
    return draw(st.none() | st.integers(-ndim, ndim - 1)
                | st.lists(st.integers(0, ndim - 1), unique=True).map(tuple))


def strided(a: np.ndarray, how: str) -> tuple[np.ndarray, xp.Array]:
    x = xp.asarray(a)
    if how == "reversed":
        return a[::-1], x[::-1]
    if how == "transposed" and a.ndim >= 2:
        return a.mT, x.mT
    return a, x


def close(got: xp.Array, expected: np.ndarray, rtol: float = 1e-10) -> None:
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(to_np(got), expected, rtol=rtol, atol=rtol,
                               equal_nan=True)


@pytest.mark.parametrize("name", ["sum", "prod"])
@given(a=arrays(DTYPES_BY_KIND["numeric"], shape=shapes, finite=True), data=st.data())
def test_sum_prod(name: str, a: np.ndarray, data: st.DataObject) -> None:
    a, x = strided(a, data.draw(st.sampled_from(["plain", "reversed", "transposed"])))
    axis = data.draw(axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    if name == "prod":
        a = np.clip(a.real if a.dtype.kind == "c" else a, -2, 2).astype(a.dtype)
        x = xp.asarray(a)
    expected = getattr(np, name)(a, axis=axis, keepdims=keepdims)
    got = getattr(xp, name)(x, axis=axis, keepdims=keepdims)
    rtol = 1e-4 if a.dtype in (np.float32, np.complex64) else 1e-10
    if a.dtype.kind in "iu":
        np.testing.assert_array_equal(to_np(got), expected)
        assert got.dtype == expected.dtype
    else:
        close(got, expected, rtol)


@pytest.mark.parametrize("name", ["max", "min"])
@given(a=arrays(DTYPES_BY_KIND["real"], shape=shapes), data=st.data())
def test_max_min(name: str, a: np.ndarray, data: st.DataObject) -> None:
    a, x = strided(a, data.draw(st.sampled_from(["plain", "reversed", "transposed"])))
    axis = data.draw(axes_for(a.ndim))
    reduced = range(a.ndim) if axis is None else ([axis] if isinstance(axis, int) else axis)
    if any(a.shape[i] == 0 for i in reduced):
        with pytest.raises(ValueError):
            getattr(xp, name)(x, axis=axis)
        return
    expected = getattr(np, name)(a, axis=axis)
    got = getattr(xp, name)(x, axis=axis)
    np.testing.assert_array_equal(to_np(got), expected)


@pytest.mark.parametrize("name", ["mean", "var", "std"])
@given(a=arrays(REAL_FLOAT, shape=shapes, finite=True), data=st.data())
def test_mean_var_std(name: str, a: np.ndarray, data: st.DataObject) -> None:
    a, x = strided(a, data.draw(st.sampled_from(["plain", "reversed", "transposed"])))
    axis = data.draw(axes_for(a.ndim))
    kwargs = {} if name == "mean" else {"correction": data.draw(st.sampled_from([0, 1]))}
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(a, axis=axis, **({"ddof": kwargs["correction"]}
                                                      if kwargs else {}))
    got = getattr(xp, name)(x, axis=axis, **kwargs)
    rtol = 1e-3 if a.dtype == np.float32 else 1e-8
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(to_np(got), expected, rtol=rtol, atol=rtol * 1e3,
                               equal_nan=True)


def test_float32_sum_is_pairwise() -> None:
    assert float(xp.sum(xp.ones(10**7, dtype=xp.float32))) == 1e7
    values = np.random.default_rng(0).random(10**6).astype(np.float32)
    exact = float(np.sum(values.astype(np.float64)))
    assert abs(float(xp.sum(xp.asarray(values))) - exact) <= abs(
        float(np.sum(values)) - exact) + 1e-3 * abs(exact) * 1e-3


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape_axis", [((3000,), None), ((700, 900), 0), ((700, 900), 1),
                                        ((4, 150, 3), 1), ((600, 1000), None)])
def test_float_prod_folds_in_order(dtype: type, shape_axis: tuple, cpu_default) -> None:
    # NumPy multiplies in order; so does arrayx's CPU, to the bit, on any thread count.
    # Regrouped, a zero in one group times an overflow in another would be NaN instead of 0 (a
    # GPU's fold is a tree: tests/test_cuda.py compares its products to a tolerance).
    shape, axis = shape_axis
    rng = np.random.default_rng(7)
    a = rng.uniform(0.5, 1.9, shape).astype(dtype)
    before = xp.get_num_threads()
    try:
        for threads in (1, 2):
            xp.set_num_threads(threads)
            got = to_np(xp.prod(xp.asarray(a), axis=axis))
            np.testing.assert_array_equal(got, np.prod(a, axis=axis))
    finally:
        xp.set_num_threads(before)
    fives = np.full(shape, 5, dtype=dtype)
    fives.flat[0] = 0
    with np.errstate(all="ignore"):
        want = np.prod(fives, axis=axis)
    np.testing.assert_array_equal(to_np(xp.prod(xp.asarray(fives), axis=axis)), want)


def test_default_sum_dtypes_and_errors() -> None:
    assert xp.sum(xp.ones(3, dtype=xp.int8)).dtype == xp.int64
    assert xp.sum(xp.ones(3, dtype=xp.uint8)).dtype == xp.uint64
    assert xp.sum(xp.ones(3, dtype=xp.int8), dtype=xp.int8).dtype == xp.int8
    assert xp.prod(xp.ones(3, dtype=xp.float32)).dtype == xp.float32
    with pytest.raises(ValueError):
        xp.max(xp.ones((2, 0)), axis=1)
    with pytest.raises(ValueError):
        xp.sum(xp.ones((2, 3)), axis=(0, 0))
    with pytest.raises((ValueError, IndexError)):
        xp.sum(xp.ones((2, 3)), axis=2)
    with pytest.raises(TypeError):
        xp.max(xp.ones(2, dtype=xp.complex64))
    with pytest.raises(TypeError):
        xp.mean(xp.ones(2, dtype=xp.int32))
    assert np.isnan(float(xp.mean(xp.ones(0))))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@given(a=arrays(DTYPES_BY_KIND["numeric"], shape=hnp.array_shapes(min_dims=1, max_dims=3,
                                                                  max_side=5), finite=True),
       data=st.data())
def test_cumulative(name: str, a: np.ndarray, data: st.DataObject) -> None:
    if name == "cumulative_prod":
        a = (np.abs(a) % 3).astype(a.dtype) if a.dtype.kind != "c" else a / (1 + np.abs(a))
    a, x = strided(a, data.draw(st.sampled_from(["plain", "reversed", "transposed"])))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1)) if a.ndim > 1 else None
    initial = data.draw(st.booleans())
    expected = getattr(np, name)(a, axis=axis, include_initial=initial)
    got = getattr(xp, name)(x, axis=axis, include_initial=initial)
    rtol = 1e-4 if a.dtype in (np.float32, np.complex64) else 1e-10
    assert got.dtype == expected.dtype
    if a.dtype.kind in "iu":
        np.testing.assert_array_equal(to_np(got), expected)
    else:
        close(got, expected, rtol)


@pytest.mark.parametrize("shape", [(3 * 2**20 + 5,), (1500, 1001)])
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.uint8])
@pytest.mark.parametrize("initial", [False, True])
def test_long_cumulative_sum(shape: tuple, dtype: type, initial: bool) -> None:
    # One row above the parallel threshold is scanned in ranges, each starting from the total
    # of those before it; many rows go to the threads a row each: the same on one thread as
    # on several, and as NumPy's running sum.
    a = (np.random.default_rng(2).standard_normal(shape) * 50).astype(dtype)
    x = xp.asarray(a)
    threads = xp.get_num_threads()
    try:
        xp.set_num_threads(1)
        one = to_np(xp.cumulative_sum(x, axis=-1, include_initial=initial))
        xp.set_num_threads(max(2, threads))
        many = to_np(xp.cumulative_sum(x, axis=-1, include_initial=initial))
    finally:
        xp.set_num_threads(threads)
    np.testing.assert_array_equal(one, many)
    expected = np.cumulative_sum(a, axis=-1, include_initial=initial)
    assert one.dtype == expected.dtype
    if a.dtype.kind == "f":
        np.testing.assert_allclose(one, expected, rtol=1e-9, atol=1e-9 * np.abs(a).sum())
    else:
        np.testing.assert_array_equal(one, expected)


@given(a=arrays(DTYPES_BY_KIND["numeric"], shape=hnp.array_shapes(min_dims=1, max_dims=3),
                finite=True), data=st.data())
def test_diff(a: np.ndarray, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = data.draw(st.integers(0, 3))
    extra = data.draw(st.booleans())
    kwargs = {}
    if extra:
        side = list(a.shape)
        side[axis] = 1
        kwargs = {"prepend": np.zeros(side, a.dtype), "append": np.ones(side, a.dtype)}
    with np.errstate(all="ignore"):
        expected = np.diff(a, axis=axis, n=n, **kwargs)
    got = xp.diff(xp.asarray(a), axis=axis, n=n,
                  **{k: xp.asarray(v) for k, v in kwargs.items()})
    np.testing.assert_array_equal(to_np(got), expected)


@given(data=st.data())
def test_concat_and_stack(data: st.DataObject) -> None:
    dtypes = data.draw(st.lists(st.sampled_from(DTYPES_BY_KIND["real"]), min_size=1,
                                max_size=3))
    ndim = data.draw(st.integers(1, 3))
    axis = data.draw(st.integers(-ndim, ndim - 1) | st.none())
    base = data.draw(hnp.array_shapes(min_dims=ndim, max_dims=ndim, min_side=0, max_side=4))
    parts = []
    for d in dtypes:
        shape = list(base)
        if axis is not None:
            shape[axis] = data.draw(st.integers(0, 3))
        parts.append(data.draw(hnp.arrays(d, tuple(shape))))
    assume(np.result_type(*parts) == xp.result_type(*[p.dtype for p in parts]))
    got = xp.concat([xp.asarray(p) for p in parts], axis=axis)
    np.testing.assert_array_equal(to_np(got), np.concat(parts, axis=axis))
    assert got.dtype == np.concat(parts, axis=axis).dtype
    same = [np.broadcast_to(p.astype(parts[0].dtype), base) for p in parts] if axis is None \
        else [parts[0]] * len(parts)
    stack_axis = data.draw(st.integers(-ndim - 1, ndim))
    np.testing.assert_array_equal(
        to_np(xp.stack([xp.asarray(p) for p in same], axis=stack_axis)),
        np.stack(same, axis=stack_axis))
    with pytest.raises(ValueError):
        xp.concat([xp.ones((2, 3)), xp.ones((3, 2))], axis=0)


@pytest.mark.parametrize("name", ["all", "any"])
@given(a=arrays(DTYPES_BY_KIND["all"], shape=shapes), data=st.data())
def test_all_any(name: str, a: np.ndarray, data: st.DataObject) -> None:
    a, x = strided(a, data.draw(st.sampled_from(["plain", "reversed", "transposed"])))
    axis = data.draw(axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    got = getattr(xp, name)(x, axis=axis, keepdims=keepdims)
    expected = getattr(np, name)(a, axis=axis, keepdims=keepdims)
    assert got.dtype == xp.bool
    np.testing.assert_array_equal(to_np(got), expected)


@pytest.mark.parametrize("shape_axis", [((3 * 2**20,), None), ((2048, 1024), 0),
                                        ((1024, 2048), 1), ((64, 128, 256), (0, 2))])
def test_large_sums_and_variances_do_not_depend_on_the_thread_count(shape_axis: tuple) -> None:
    # Above the parallel threshold a fold is cut into a fixed number of ranges: the rounding
    # of a float sum (and of var's squared deviations) is the same on one thread as on
    # several, and close to NumPy's.
    shape, axis = shape_axis
    a = np.random.default_rng(1).standard_normal(shape)
    x = xp.asarray(a)
    threads = xp.get_num_threads()
    for name in ("sum", "var"):
        try:
            xp.set_num_threads(1)
            one = to_np(getattr(xp, name)(x, axis=axis))
            xp.set_num_threads(max(2, threads))
            many = to_np(getattr(xp, name)(x, axis=axis))
        finally:
            xp.set_num_threads(threads)
        np.testing.assert_array_equal(one, many, err_msg=name)
        np.testing.assert_allclose(one, getattr(np, name)(a, axis=axis), rtol=1e-10, atol=1e-9,
                                   err_msg=name)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 300_000])
def test_cumulative_sum_keeps_a_leading_negative_zero(dtype: type, n: int) -> None:
    # NumPy's cumsum starts from the first element (+0.0 + -0.0 would be +0.0); a long run is
    # scanned in ranges, each starting from the running total before it.
    a = np.full(n, -0.0, dtype)
    a[n // 2:] = np.where(np.arange(n - n // 2) % 3 == 0, 0.0, -0.0)
    got, want = to_np(xp.cumulative_sum(xp.asarray(a))), np.cumsum(a)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))
    np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("values", [
    [1e30 + 0j, 1e300 + 0j], [1e20 + 1e-10j, 1e20 + 1e-10j], [-3e38 - 1j, 2 - 1j],
    [complex(np.inf, 0.0)], [1 + 0j, complex(np.inf, 0.0), 2 + 0j]])
def test_complex_prod_past_overflow(dtype: type, values: list) -> None:
    # A row's product was multiplied into the output's identity 1 + 0j: an overflowed
    # inf + 0j became inf + nanj (0 * inf) where NumPy's product in order stays inf + 0j.
    # (NumPy multiplies its identity in first too: the product of [inf + 0j] is inf + nanj.)
    # The CPU's fold: a GPU folds as a tree, from the identity in every thread (devices guide).
    a = np.asarray(values, dtype=dtype)
    with np.errstate(all="ignore"):
        want = np.prod(a)
        np.testing.assert_array_equal(to_np(xp.prod(xp.asarray(a, device="cpu"))), want)
        m = np.stack([a, a])
        np.testing.assert_array_equal(to_np(xp.prod(xp.asarray(m, device="cpu"), axis=1)),
                                      np.prod(m, axis=1))


@pytest.mark.parametrize(("a", "dtype"), [
    (np.r_[0, np.full(1999, 5)].astype(np.int64), np.float64),
    (np.r_[0, np.full(1099, 1e30)].astype(np.float32), np.float64),
    (np.r_[0, np.full(1099, 1e300)], np.float32)])
def test_prod_with_a_dtype_folds_in_order(a: np.ndarray, dtype: type) -> None:
    # A cast input folds chunk by chunk; each chunk's product was multiplied in, so the chunk
    # that overflowed met the 0 of the first as 0 * inf = NaN, where the product in order is 0.
    # The CPU's fold: a GPU folds as a tree (devices guide).
    with np.errstate(all="ignore"):
        want = np.prod(a, dtype=dtype)
        np.testing.assert_array_equal(to_np(xp.prod(xp.asarray(a, device="cpu"), dtype=dtype)),
                                      want)
        m = np.stack([a, a[::-1]])  # several rows folded into one value
        np.testing.assert_array_equal(to_np(xp.prod(xp.asarray(m, device="cpu"), dtype=dtype)),
                                      np.prod(m, dtype=dtype))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": -1}, {"include_initial": True}])
def test_scans_of_a_0d_array(name: str, kwargs: dict) -> None:
    # NumPy's cumulative_sum scans a 0-d array as one of shape (1,); PyTorch's cumsum takes it
    # too. Strict mode keeps the standard's one dimension or more.
    want = getattr(np, name)(np.asarray(2.5), **kwargs)
    got = getattr(xp, name)(xp.asarray(2.5), **kwargs)
    np.testing.assert_array_equal(to_np(got), want)
    assert got.shape == want.shape
    with pytest.raises(IndexError):
        getattr(xp, name)(xp.asarray(2.5), axis=1)
    xp.set_strict_flags(strict=True)
    try:
        with pytest.raises(ValueError):
            getattr(xp, name)(xp.asarray(2.5), **kwargs)
    finally:
        xp.reset_strict_flags()


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("how", ["contiguous", "transposed", "reversed"])
def test_scans_with_an_initial_keep_a_leading_negative_zero(name: str, how: str) -> None:
    # Along an axis other than the contiguous last one, the scan's first slice was the initial
    # value plus x[0]: 0.0 + -0.0 is +0.0, where NumPy's starts from x[0].
    a = np.array([[-0.0, 1.0, -0.0], [-0.0, -0.0, 2.0]])
    a, x = strided(a, how)
    for axis in range(a.ndim):
        for include_initial in (False, True):
            want = getattr(np, name)(a, axis=axis, include_initial=include_initial)
            got = to_np(getattr(xp, name)(x, axis=axis, include_initial=include_initial))
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))

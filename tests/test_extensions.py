"""The names and behaviours beyond the standard (pad, nan* reductions, positional diff, bool
sums), against NumPy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import arrays, to_np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arrayx as xp

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def same(got: xp.Array, expected: np.ndarray) -> None:
    assert isinstance(got, xp.Array)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(to_np(got), expected, rtol=1e-6, atol=1e-12,
                               equal_nan=True)


@pytest.mark.parametrize("name", ["sum", "prod"])
@given(a=arrays([np.dtype(bool)], shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0)))
def test_bool_sum_and_prod_give_the_default_integer(name: str, a: np.ndarray) -> None:
    same(getattr(xp, name)(xp.asarray(a)), getattr(np, name)(a))


@pytest.mark.parametrize("name, numpy_name", [("cumulative_sum", "cumsum"),
                                              ("cumulative_prod", "cumprod")])
@given(a=arrays([np.dtype(bool)], shape=hnp.array_shapes(min_dims=1, max_dims=1, min_side=0)))
def test_bool_scans_give_the_default_integer(name: str, numpy_name: str, a: np.ndarray) -> None:
    same(getattr(xp, name)(xp.asarray(a)), getattr(np, numpy_name)(a))


@pytest.mark.parametrize("args", [(1,), (2,), (1, 0), (3, -1), (0,)])
def test_diff_takes_n_and_axis_by_position(args: tuple) -> None:
    a = np.arange(24).reshape(4, 6) ** 2
    same(xp.diff(xp.asarray(a), *args), np.diff(a, *args))


@pytest.mark.parametrize("n, error", [(1.5, TypeError), (True, TypeError), (-1, ValueError)])
def test_diff_rejects_a_bad_n(n: object, error: type) -> None:
    with pytest.raises(error, match="diff"):
        xp.diff(xp.asarray([1, 2, 3]), n)


@pytest.mark.parametrize("mode", MODES)
@given(a=arrays([np.dtype("int64"), np.dtype("float64"), np.dtype("complex64")],
                shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)),
       data=st.data())
def test_pad(mode: str, a: np.ndarray, data: st.DataObject) -> None:
    width = data.draw(st.integers(0, 9)
                      | st.tuples(st.integers(0, 9), st.integers(0, 9))
                      | st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)),
                                 min_size=a.ndim, max_size=a.ndim))
    expected = np.pad(a, width, mode=mode)
    got = xp.pad(xp.asarray(a), width, mode=mode)
    np.testing.assert_array_equal(to_np(got), expected)
    assert got.dtype == expected.dtype


@pytest.mark.parametrize("values", [7, (1, 2), [(1, 2), (3, 4)], np.float64(np.nan)])
def test_pad_constant_values(values: object) -> None:
    a = np.arange(6.0).reshape(2, 3)
    same(xp.pad(xp.asarray(a), ((1, 2), (2, 0)), constant_values=values),
         np.pad(a, ((1, 2), (2, 0)), constant_values=values))


def test_pad_without_widths_copies() -> None:
    x = xp.asarray([1, 2])
    y = xp.pad(x, 0)
    y[0] = 5
    assert int(x[0]) == 1


@pytest.mark.parametrize("args, kwargs, error", [
    ((2,), {"mode": "mean"}, ValueError),
    ((-1,), {}, ValueError),
    ((1.5,), {}, TypeError),
    (([(1, 2), (3, 4), (5, 6)],), {}, ValueError),
    ((1,), {"constant_values": "a"}, TypeError),
])
def test_pad_bad_input(args: tuple, kwargs: dict, error: type) -> None:
    with pytest.raises(error, match="pad"):
        xp.pad(xp.asarray([[1, 2]]), *args, **kwargs)


def test_pad_empty_axis_in_a_copying_mode() -> None:
    with pytest.raises(ValueError, match="empty axis"):
        xp.pad(xp.zeros((0, 2)), 1, mode="wrap")
    same(xp.pad(xp.zeros((0, 2)), 1), np.pad(np.zeros((0, 2)), 1))


NAN_REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin"]


@pytest.mark.parametrize("name", NAN_REDUCTIONS)
@given(a=arrays([np.dtype("float32"), np.dtype("float64"), np.dtype("int32")],
                shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5),
                finite=False),
       data=st.data())
def test_nan_reductions(name: str, a: np.ndarray, data: st.DataObject) -> None:
    if a.dtype.kind == "f":
        a = np.where(np.isinf(a), 1.0, np.clip(a, -10, 10)).astype(a.dtype)
    axis = data.draw(st.none() | st.integers(-a.ndim, a.ndim - 1))
    keepdims = data.draw(st.booleans())
    kwargs = {"ddof": data.draw(st.integers(0, 2))} if name in ("nanvar", "nanstd") else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = to_np(getattr(np, name)(a, axis=axis, keepdims=keepdims, **kwargs))
    got = getattr(xp, name)(xp.asarray(a), axis=axis, keepdims=keepdims, **kwargs)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    rtol = 1e-3 if a.dtype == np.float32 else 1e-9
    np.testing.assert_allclose(to_np(got), expected, rtol=rtol, atol=rtol, equal_nan=True)


@pytest.mark.parametrize("name", ["nanvar", "nanstd"])
@pytest.mark.parametrize("values", [
    [np.inf], [-np.inf, np.inf], [1.0, np.inf], [np.nan, np.inf, 2.0],
    [[1.0, np.inf], [np.nan, 3.0]], [3j, complex(np.nan, -np.inf)],
    [1 + 1j, complex(np.inf, 0.0), np.nan]])
def test_nan_moments_keep_infinities(name: str, values: list) -> None:
    # The NaNs dropped were found in the deviations, not the input: inf - inf (an infinity's
    # own deviation) was dropped as a NaN, and a complex NaN whose deviation is inf was kept.
    a = np.asarray(values)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis in [None, *range(a.ndim)]:
            expected = getattr(np, name)(a, axis=axis)
            got = getattr(xp, name)(xp.asarray(a), axis=axis)
            np.testing.assert_array_equal(to_np(got), expected)


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_arg_reductions(name: str, axis: int | None) -> None:
    a = np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, -1.0]])
    same(getattr(xp, name)(xp.asarray(a), axis=axis), to_np(getattr(np, name)(a, axis=axis)))


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nan_arg_reductions_of_an_all_nan_slice_raise(name: str) -> None:
    a = np.array([[1.0, np.nan], [np.nan, np.nan]])
    with pytest.raises(ValueError, match="All-NaN"):
        getattr(np, name)(a, axis=1)
    with pytest.raises(ValueError, match="all-NaN"):
        getattr(xp, name)(xp.asarray(a), axis=1)


@pytest.mark.parametrize("name", NAN_REDUCTIONS + ["nanargmax", "pad"])
def test_extensions_reject_non_arrays(name: str) -> None:
    args = (1,) if name == "pad" else ()
    with pytest.raises(TypeError, match=name):
        getattr(xp, name)([1.0, 2.0], *args)


def test_pad_refuses_a_result_too_big_before_any_work() -> None:
    # Axis by axis, the intermediates grew until memory ran out (the process was killed).
    with pytest.raises(ValueError, match="too big"):
        xp.pad(xp.zeros((1,) * 40), 1)

"""Manipulation functions that copy or rearrange: moveaxis, unstack, roll, tile, repeat."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL, arrays, to_np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arrayx as xp

shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4)


def same(got: xp.Array, expected: np.ndarray) -> None:
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(to_np(got), expected)


@given(a=arrays(ALL, shape=shapes), data=st.data())
def test_moveaxis_is_a_view(a: np.ndarray, data: st.DataObject) -> None:
    k = data.draw(st.integers(1, a.ndim))
    source = tuple(data.draw(st.permutations(range(a.ndim)))[:k])
    destination = tuple(data.draw(st.permutations(range(a.ndim)))[:k])
    x = xp.asarray(a)
    got = xp.moveaxis(x, source, destination)
    same(got, np.moveaxis(a, source, destination))
    assert got._storage is x._storage


@given(a=arrays(ALL, shape=shapes), data=st.data())
def test_unstack(a: np.ndarray, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    got = xp.unstack(xp.asarray(a), axis=axis)
    expected = np.unstack(a, axis=axis)
    assert isinstance(got, tuple) and len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        same(g, e)


@given(a=arrays(ALL, shape=shapes), data=st.data())
def test_roll(a: np.ndarray, data: st.DataObject) -> None:
    if data.draw(st.booleans()):
        shift, axis = data.draw(st.integers(-7, 7)), None
    else:
        axes = tuple(data.draw(st.lists(st.integers(0, a.ndim - 1), min_size=1, max_size=2)))
        shift = tuple(data.draw(st.integers(-7, 7)) for _ in axes)
        axis = axes
    same(xp.roll(xp.asarray(a)[::-1], shift, axis=axis), np.roll(a[::-1], shift, axis=axis))


@given(a=arrays(ALL, shape=shapes), reps=st.lists(st.integers(0, 3), min_size=1, max_size=4))
def test_tile(a: np.ndarray, reps: list[int]) -> None:
    same(xp.tile(xp.asarray(a), tuple(reps)), np.tile(a, tuple(reps)))


@given(a=arrays(ALL, shape=shapes), data=st.data())
def test_repeat(a: np.ndarray, data: st.DataObject) -> None:
    axis = data.draw(st.none() | st.integers(-a.ndim, a.ndim - 1))
    size = a.size if axis is None else a.shape[axis]
    if data.draw(st.booleans()):
        repeats = data.draw(st.integers(0, 3))
        got = xp.repeat(xp.asarray(a), repeats, axis=axis)
    else:
        repeats = to_np(data.draw(st.lists(st.integers(0, 3), min_size=size,
                                                max_size=size)), dtype=np.int64)
        got = xp.repeat(xp.asarray(a), xp.asarray(repeats), axis=axis)
    same(got, np.repeat(a, repeats, axis=axis))


def test_bad_manipulation_input() -> None:
    x = xp.ones((2, 3))
    with pytest.raises(ValueError):
        xp.repeat(x, xp.asarray([1, 2]), axis=1)
    with pytest.raises(ValueError):
        xp.repeat(x, -1)
    with pytest.raises(ValueError):
        xp.tile(x, (-1,))
    with pytest.raises(ValueError):
        xp.moveaxis(x, (0, 1), (0,))
    with pytest.raises(ValueError):
        xp.roll(x, (1, 2), axis=(0,))


@pytest.mark.parametrize(("window", "axis"), [
    (2, None), ((2, 1, 3), None), (2, 1), ((2, 3), (2, 2)), (1, -1), ((0,), 0),
    ((2, 2), (0, -1)), (3, (2,)),
])
@pytest.mark.parametrize("layout", ["c", "flipped", "strided", "transposed"])
def test_sliding_window_view_matches_numpy(window, axis, layout) -> None:
    from arrayx.lib.stride_tricks import sliding_window_view

    base = np.arange(2 * 3 * 5, dtype=np.float64).reshape(2, 3, 5)
    x = {"c": base, "flipped": base[:, ::-1],
         "strided": np.arange(60.0).reshape(2, 3, 10)[..., ::2],
         "transposed": np.transpose(np.arange(30.0).reshape(5, 3, 2))}[layout]
    if axis is None and isinstance(window, int):
        window = (window,) * x.ndim
    a = xp.asarray(x)
    want = np.lib.stride_tricks.sliding_window_view(x, window, axis=axis)
    got = sliding_window_view(a, window, axis=axis)
    assert got.shape == want.shape
    np.testing.assert_array_equal(to_np(got), want)
    # A view: no copy, and read-only.
    assert got._base_storage is a._base_storage
    with pytest.raises(ValueError, match="read-only"):
        got[...] = 1.0


def test_sliding_window_view_checks_its_input() -> None:
    from arrayx.lib.stride_tricks import sliding_window_view

    x = xp.ones((3, 4))
    with pytest.raises(ValueError, match="negative"):
        sliding_window_view(x, -1, axis=0)
    with pytest.raises(ValueError, match="larger than its axis"):
        sliding_window_view(x, 5, axis=1)
    with pytest.raises(ValueError, match="one size per axis"):
        sliding_window_view(x, 2)
    with pytest.raises(ValueError, match="2 window sizes for 1 axes"):
        sliding_window_view(x, (2, 2), axis=0)
    with pytest.raises(ValueError, match="read-only"):
        sliding_window_view(x, 2, axis=0, writeable=True)
    with pytest.raises(TypeError):
        sliding_window_view(x, 2.5, axis=0)
    with pytest.raises(TypeError):
        sliding_window_view(np.ones(3), 2)
    with pytest.raises(IndexError):
        sliding_window_view(x, 2, axis=2)

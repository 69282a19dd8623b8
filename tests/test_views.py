"""The view algebra replayed on NumPy: values, strides and shared memory must agree."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL, arrays
from hypothesis import given
from hypothesis import strategies as st

import arrayx as xp


def element_strides(a: np.ndarray) -> tuple[int, ...]:
    return tuple(s // a.itemsize for s in a.strides)


def assert_same_view(view: xp.Array, expected: np.ndarray, base: xp.Array) -> None:
    """Values, shape, dtype and layout of ``view`` equal NumPy's ``expected``; no copy made."""
    got = np.asarray(view)
    assert view.shape == expected.shape
    assert view.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    if expected.size > 0:
        for n, s_ax, s_np in zip(expected.shape, view._layout.strides,
                                 element_strides(expected), strict=True):
            if n > 1:
                assert s_ax == s_np, (view._layout, expected.strides)
        assert view._storage is base._storage


index_items = st.one_of(
    st.builds(slice, st.integers(-6, 6) | st.none(), st.integers(-6, 6) | st.none(),
              st.sampled_from([None, 1, 2, 3, -1, -2, -3])),
    st.integers(-4, 3), st.just(None), st.just(Ellipsis))


def draw_op(data: st.DataObject, ndim: int) -> tuple:
    """One view operation with arguments that may or may not be valid for ``ndim``."""
    kind = data.draw(st.sampled_from(["index", "expand", "permute", "flip", "squeeze", "mT"]))
    if kind == "index":
        key = data.draw(st.lists(index_items, max_size=ndim + 1))
        if key.count(Ellipsis) > 1:
            key = [k for k in key if k is not Ellipsis]
        return kind, tuple(key)
    if kind == "expand":
        return kind, data.draw(st.integers(-ndim - 2, ndim + 1))
    if kind == "permute":
        return kind, tuple(data.draw(st.permutations(range(ndim))))
    if kind == "flip":
        return kind, data.draw(st.none() | st.integers(-ndim - 1, ndim))
    return kind, None


def apply(op: tuple, arr: np.ndarray | xp.Array) -> np.ndarray | xp.Array:
    """Apply a view operation with NumPy's or arrayx's functions, whichever owns ``arr``."""
    mod = np if isinstance(arr, np.ndarray) else xp
    kind, arg = op
    if kind == "index":
        out = arr[arg]
    elif kind == "expand":
        out = mod.expand_dims(arr, axis=arg)
    elif kind == "permute":
        out = mod.permute_dims(arr, arg)
    elif kind == "flip":
        out = mod.flip(arr, axis=arg)
    elif kind == "squeeze":
        out = mod.squeeze(arr, axis=tuple(i for i, n in enumerate(arr.shape) if n == 1))
    else:
        out = arr.mT
    # NumPy hands back scalars for 0-d results; arrayx keeps 0-d arrays.
    return np.asarray(out) if isinstance(out, np.generic) else out


@given(data=st.data(), a=arrays(ALL))
def test_view_chains_match_numpy(data: st.DataObject, a: np.ndarray) -> None:
    x = xp.asarray(a.copy())
    base = x
    a = np.asarray(x)
    for _ in range(data.draw(st.integers(1, 5))):
        op = draw_op(data, a.ndim)
        try:
            expected = apply(op, a)
        except (IndexError, ValueError) as exc:
            # NumPy's AxisError is both; arrayx's AxisError is too.
            kinds = tuple(k for k in (IndexError, ValueError) if isinstance(exc, k))
            with pytest.raises(kinds):
                apply(op, x)
            continue
        a, x = expected, apply(op, x)
        assert_same_view(x, a, base)


@given(a=arrays(ALL), data=st.data())
def test_reshape_view_or_copy_like_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x = xp.asarray(a.copy())
    step = data.draw(st.sampled_from([1, -1, 2]))
    index = (slice(None, None, step),) * a.ndim
    transpose = data.draw(st.booleans()) and a.ndim >= 2
    av = np.asarray(x)[index]
    xv = x[index]
    if transpose:
        av, xv = av.mT, xv.mT
    shape = data.draw(st.sampled_from([(-1,), (av.size,), (1, -1), (-1, 1)]))
    expected = av.reshape(shape)
    try:
        np_view = np.reshape(av, shape, copy=False)
    except ValueError:
        np_view = None
    got = xp.reshape(xv, shape)
    np.testing.assert_array_equal(np.asarray(got), expected)
    if np_view is not None:
        assert_same_view(xp.reshape(xv, shape, copy=False), np_view, x)
    else:
        with pytest.raises(ValueError):
            xp.reshape(xv, shape, copy=False)
        assert got._storage is not x._storage
    copied = xp.reshape(xv, shape, copy=True)
    assert copied._storage is not x._storage
    np.testing.assert_array_equal(np.asarray(copied), expected)


@given(a=arrays(ALL, shape=st.sampled_from([(1,), (3,), (1, 4), (2, 1, 3)])),
       target=st.sampled_from([(2, 3), (4, 1, 3), (3, 2, 4, 3)]))
def test_broadcast_to_is_a_readonly_stride0_view(a: np.ndarray, target: tuple) -> None:
    x = xp.asarray(a)
    try:
        expected = np.broadcast_to(a, target)
    except ValueError:
        with pytest.raises(ValueError):
            xp.broadcast_to(x, target)
        return
    view = xp.broadcast_to(x, target)
    assert_same_view(view, expected, x)
    with pytest.raises(ValueError):
        view[...] = 0


def test_broadcast_arrays_and_shapes() -> None:
    a, b = xp.broadcast_arrays(xp.ones((3, 1)), xp.zeros((1, 4)))
    assert isinstance(xp.broadcast_arrays(xp.ones(2)), tuple)
    assert a.shape == b.shape == (3, 4)
    assert xp.broadcast_shapes((3, 1), (4,), (2, 1, 1)) == np.broadcast_shapes((3, 1), (4,),
                                                                              (2, 1, 1))
    with pytest.raises(ValueError):
        xp.broadcast_shapes((3,), (4,))


@given(a=arrays(ALL, shape=st.sampled_from([(6,), (2, 3), (3, 4)])), data=st.data())
def test_writes_through_views_reach_the_base(a: np.ndarray, data: st.DataObject) -> None:
    x = xp.asarray(a.copy())
    expected = a.copy()
    key = tuple(data.draw(st.sampled_from([slice(None, None, -1), slice(1, None, 2), 0, -1]))
                for _ in range(a.ndim))
    value = a.flat[0].item() if a.size else 0
    x[key] = value
    expected[key] = value
    np.testing.assert_array_equal(np.asarray(x), expected)
    view = xp.flip(x)
    view[(0,) * a.ndim] = value
    expected[(-1,) * a.ndim] = value
    np.testing.assert_array_equal(np.asarray(x), expected)


@given(a=arrays(ALL, shape=st.sampled_from([(7,), (3, 4), (4, 4)])), data=st.data())
def test_overlapping_assignment_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x = xp.asarray(a.copy())
    expected = a.copy()
    case = data.draw(st.sampled_from(["shift", "flip", "transpose"]))
    if case == "shift":
        x[1:] = x[:-1]
        expected[1:] = expected[:-1].copy()
    elif case == "flip":
        x[...] = xp.flip(x)
        expected[...] = np.flip(expected).copy()
    else:
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            return
        x[...] = x.mT
        expected[...] = expected.T.copy()
    np.testing.assert_array_equal(np.asarray(x), expected)


def test_views_copy_nothing() -> None:
    x = xp.reshape(xp.arange(24), (2, 3, 4))
    for view in (x[1], x[:, ::-1], x.mT, xp.permute_dims(x, (2, 0, 1)), xp.flip(x),
                 xp.expand_dims(x, axis=(0, 2)), xp.squeeze(x[:1], axis=0),
                 xp.broadcast_to(x, (5, 2, 3, 4)), xp.reshape(x, (6, 4))):
        assert view._storage is x._storage

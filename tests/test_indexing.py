"""Advanced indexing (integer arrays, masks, mixed with basic indices), take and
take_along_axis against NumPy; a failing assignment changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL, arrays, to_np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arrayx as xp

shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5)


@st.composite
def advanced_keys(draw: st.DrawFn, shape: tuple) -> tuple:
    """A key mixing integer arrays, masks (0-d ones too), ints, slices and None for an array of
    ``shape``."""
    key = []
    dim = 0
    while dim < len(shape):
        kind = draw(st.sampled_from(["array", "array", "slice", "int", "none", "mask",
                                          "bool", "stop"]))
        n = shape[dim]
        if kind == "stop":
            break
        if kind == "array":
            key.append(to_np(draw(st.lists(st.integers(-n, n - 1), min_size=0,
                                                max_size=4)), dtype=np.int64))
            dim += 1
        elif kind == "slice":
            key.append(slice(draw(st.integers(-n, n) | st.none()), None,
                             draw(st.sampled_from([None, 1, 2, -1]))))
            dim += 1
        elif kind == "int":
            key.append(draw(st.integers(-n, n - 1)))
            dim += 1
        elif kind == "none":
            key.append(None)
        elif kind == "bool":
            flag = draw(st.booleans())
            key.append(draw(st.sampled_from([flag, to_np(flag)])))
        else:
            key.append(draw(hnp.arrays(np.bool_, (n,))))
            dim += 1
    return tuple(key)


def as_arrayx(key: tuple) -> tuple:
    return tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in key)


@given(a=arrays(ALL, shape=shapes), data=st.data())
def test_getitem_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    key = data.draw(advanced_keys(a.shape))
    try:
        expected = a[key]
    except IndexError:
        with pytest.raises(IndexError):
            xp.asarray(a)[as_arrayx(key)]
        return
    got = xp.asarray(a)[as_arrayx(key)]
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(to_np(got), expected)


@given(a=arrays(ALL, shape=shapes), data=st.data())
def test_setitem_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    key = data.draw(advanced_keys(a.shape))
    try:
        target_shape = a[key].shape
    except IndexError:
        x = xp.asarray(a.copy())
        with pytest.raises(IndexError):
            x[as_arrayx(key)] = xp.asarray(a.flat[0])
        np.testing.assert_array_equal(to_np(x), a)
        return
    value = data.draw(hnp.arrays(a.dtype, st.sampled_from([(), target_shape[-1:]])))
    expected = a.copy()
    expected[key] = value
    x = xp.asarray(a.copy())
    x[as_arrayx(key)] = xp.asarray(value)
    np.testing.assert_array_equal(to_np(x), expected)


def test_failed_assignment_changes_nothing() -> None:
    x = xp.arange(5)
    with pytest.raises(IndexError):
        x[xp.asarray([0, 1, 7])] = 9
    with pytest.raises(IndexError):
        x[xp.asarray([True, False])] = 9
    with pytest.raises(IndexError):
        x[xp.asarray([0.5])]  # noqa: B018
    np.testing.assert_array_equal(to_np(x), np.arange(5))


@given(a=arrays(ALL, shape=shapes), data=st.data())
def test_take_and_take_along_axis(a: np.ndarray, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    idx = to_np(data.draw(st.lists(st.integers(-n, n - 1), max_size=5)), dtype=np.int64)
    np.testing.assert_array_equal(to_np(xp.take(xp.asarray(a), xp.asarray(idx),
                                                     axis=axis)),
                                  np.take(a, idx, axis=axis))
    along = data.draw(hnp.arrays(np.int64, a.shape, elements=st.integers(0, n - 1)))
    np.testing.assert_array_equal(
        to_np(xp.take_along_axis(xp.asarray(a), xp.asarray(along), axis=axis)),
        np.take_along_axis(a, along, axis=axis))


def test_empty_mask_axes_select_nothing() -> None:
    for shape, mask_shape in (((2, 3), (0,)), ((0, 1), (0, 0)), ((2, 3), (2, 0))):
        a = np.ones(shape)
        mask = np.zeros(mask_shape, dtype=bool)
        try:
            expected = a[mask]
        except IndexError:
            with pytest.raises(IndexError):
                xp.asarray(a)[xp.asarray(mask)]
            continue
        assert xp.asarray(a)[xp.asarray(mask)].shape == expected.shape


@given(a=arrays(ALL, shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6)),
       data=st.data())
def test_leading_mask_get_and_set_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    # A mask over the leading axes of a C-contiguous array takes the one-pass compress and
    # expand kernels (rows of 1 to 16 bytes and longer); a reversed array the general path.
    k = data.draw(st.integers(1, a.ndim))
    mask = data.draw(hnp.arrays(np.bool_, a.shape[:k]))
    reverse = data.draw(st.booleans())
    x = xp.asarray(a)
    if reverse:
        a, x = a[::-1], x[::-1]
    expected = a[mask]
    got = x[xp.asarray(mask)]
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(to_np(got), expected)
    shape = data.draw(st.sampled_from([(), expected.shape[1:], expected.shape,
                                       (1,) + expected.shape[1:]]))
    value = data.draw(hnp.arrays(a.dtype, shape))
    target = a.copy()
    target[mask] = value
    y = xp.asarray(a.copy())
    y[xp.asarray(mask)] = xp.asarray(value)
    np.testing.assert_array_equal(to_np(y), target)


def test_leading_mask_set_of_a_wrong_shape_changes_nothing() -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(a.copy())
    mask = xp.asarray(np.array([True, False, True]))
    with pytest.raises(ValueError):
        x[mask] = xp.ones((3, 4))
    with pytest.raises(IndexError):
        x[xp.asarray(np.array([True, False]))]
    np.testing.assert_array_equal(to_np(x), a)


def test_leading_mask_in_the_targets_own_memory() -> None:
    # a[a[0, :2]] = v: the mask is a view of a, and writing a row changes it; the selection is
    # the mask as it was (NumPy's result with the mask copied first), and no row past the
    # selection is written (from memory past the value's).
    base = np.array([[True, True, True], [True, False, True]])
    want = base.copy()
    want[base[0, :2].copy()] = False
    x = xp.asarray(base)
    x[x[0, :2]] = False
    np.testing.assert_array_equal(to_np(x), want)
    base = np.zeros((64, 64), bool)
    base[0, :2] = True
    v = np.zeros((2, 64), bool)
    v[0] = True
    want = base.copy()
    want[base[0].copy()] = v
    x = xp.asarray(base)
    x[x[0]] = xp.asarray(v)
    np.testing.assert_array_equal(to_np(x), want)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64, np.complex128])
def test_long_take_matches_numpy_and_checks_every_index(dtype: type) -> None:
    # 2^17 indices go to the parallel gather; negative ones count from the end, and one bad
    # index anywhere is an IndexError.
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(5000) * 100).astype(dtype)
    idx = rng.integers(-5000, 5000, 2**17)
    x = xp.asarray(a)
    np.testing.assert_array_equal(to_np(xp.take(x, xp.asarray(idx))), np.take(a, idx))
    np.testing.assert_array_equal(to_np(xp.take(x[::-3], xp.asarray(idx % 1667))),
                                  np.take(a[::-3], idx % 1667))
    for bad in (5000, -5001):
        wrong = idx.copy()
        wrong[rng.integers(0, idx.size)] = bad
        with pytest.raises(IndexError):
            xp.take(x, xp.asarray(wrong))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64"])
@given(data=st.data())
def test_scatter_add_matches_numpy_add_at(dtype: str, data: st.DataObject) -> None:
    from arrayx._indexing import scatter_add

    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5))
    size = int(np.prod(shape))
    m = data.draw(st.integers(0, 12)) if size else 0
    positions = to_np(data.draw(st.lists(st.integers(0, max(size - 1, 0)), min_size=m,
                                              max_size=m)), dtype=np.int64)
    values = (np.arange(1, 2 * m + 1, dtype=np.float64).reshape(m, 2) / 4).astype(dtype)
    want = np.zeros(size, dtype=dtype)
    np.add.at(want, positions, values[:, 0])
    # Strided and offset inputs: every other column, and positions read backwards twice.
    got = scatter_add(xp.asarray(values)[:, 0], xp.asarray(positions[::-1])[::-1], shape)
    assert got.shape == shape and got.dtype == xp.asarray(values).dtype
    np.testing.assert_array_equal(to_np(got).reshape(-1), want)


def test_scatter_add_checks_its_input() -> None:
    from arrayx._indexing import scatter_add

    values = xp.asarray([1.0, 2.0])
    with pytest.raises(IndexError, match="position 3 is out of bounds"):
        scatter_add(values, xp.asarray([0, 3]), (3,))
    with pytest.raises(IndexError, match="position -1"):
        scatter_add(values, xp.asarray([-1, 0]), (3,))
    with pytest.raises(ValueError, match="2 values"):
        scatter_add(values, xp.asarray([0]), (3,))
    with pytest.raises(TypeError, match="integers"):
        scatter_add(values, xp.asarray([0.0, 1.0]), (3,))
    with pytest.raises(TypeError, match="booleans"):
        scatter_add(xp.asarray([True]), xp.asarray([0]), (3,))
    with pytest.raises(IndexError, match="out of bounds"):
        scatter_add(values, xp.asarray([2**63, 0], dtype=xp.uint64), (3,))


@pytest.mark.parametrize("index", [np.int64(1), np.int32(-1), np.uint8(1), np.array(1)])
def test_a_numpy_integer_index_selects_as_numpy(index) -> None:
    # A NumPy integer scalar went to advanced indexing (a copy), so a write through the result
    # was lost. (A 0-d NumPy array is an index array in NumPy too: a copy.)
    a, x = np.zeros((2, 3)), xp.zeros((2, 3))
    a[index][0] = 5.0
    x[index][0] = 5.0
    np.testing.assert_array_equal(to_np(x), a)
    np.testing.assert_array_equal(to_np(x[index, ::2]), a[index, ::2])
    if isinstance(index, np.integer):
        with pytest.raises(ValueError, match="read-only"):
            xp.broadcast_to(xp.zeros(3), (2, 3))[index][0] = 1.0


@pytest.mark.parametrize("call", [
    lambda x, i: xp.take(x, i), lambda x, i: xp.take_along_axis(x, i)])
def test_take_refuses_boolean_indices(call) -> None:
    # A bool array went through as a mask (NumPy casts it to 0 and 1, PyTorch refuses it).
    with pytest.raises(IndexError, match="integer dtype"):
        call(xp.asarray([10, 20, 30]), xp.asarray([True, False, True]))


@pytest.mark.parametrize(("key", "value_shape"), [
    (slice(None), (1, 2, 3)), (slice(None), (1, 1, 2, 3)), ((slice(None), None), (1, 2, 1, 3)),
    (np.array([0, 1]), (1, 2, 3)), (1, (1, 3)), ((1, np.array([0, 2])), (1, 1, 2))])
def test_assignment_takes_leading_unit_axes_beyond_the_selection(key, value_shape) -> None:
    # NumPy, CuPy and PyTorch assign a[:] = b[None]; arrayx refused it ("fewer dimensions").
    a = np.zeros((2, 3))
    value = np.arange(1.0, 1.0 + np.prod(value_shape)).reshape(value_shape)
    x = xp.asarray(a)
    a[key] = value
    ours = key if isinstance(key, tuple) else (key,)
    x[tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in ours)] = xp.asarray(value)
    np.testing.assert_array_equal(to_np(x), a)
    with pytest.raises(ValueError):
        x[:] = xp.ones((2, 2, 3))
    xp.set_strict_flags(strict=True)  # the standard's broadcast: fewer dimensions
    try:
        with pytest.raises(ValueError):
            x[:] = xp.ones((1, 2, 3))
    finally:
        xp.reset_strict_flags()

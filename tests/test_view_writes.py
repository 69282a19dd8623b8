"""Writes through views reach the base exactly as NumPy's do; overlapping copies included."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL, arrays, to_np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from view_ops import WRITABLE_OPS, apply, index_items, replay

import arrayx as xp

small = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5)


def draw_value(data: st.DataObject, dtype: np.dtype, shape: tuple[int, ...]
               ) -> tuple[object, object]:
    """A value for a target of ``shape``: a Python scalar, a 0-d array, an array of the full
    shape or one that broadcasts to it (sometimes flipped); as (NumPy's, arrayx's)."""
    kind = data.draw(st.sampled_from(["scalar", "0-d", "full", "broadcast"]))
    if kind == "scalar":
        value = data.draw(hnp.from_dtype(dtype)).item()
        return value, value
    if kind == "0-d":
        vshape: tuple[int, ...] = ()
    elif kind == "full":
        vshape = shape
    else:
        vshape = tuple(1 if data.draw(st.booleans()) else n for n in shape)
        vshape = vshape[data.draw(st.integers(0, len(vshape))):]
    value = data.draw(hnp.arrays(dtype, vshape))
    xvalue = xp.asarray(value, copy=True)
    if value.ndim and data.draw(st.booleans()):
        value, xvalue = np.flip(value), xp.flip(xvalue)
    return value, xvalue


@given(a=arrays(ALL, shape=small), data=st.data())
def test_writes_through_views_reach_the_base(a: np.ndarray, data: st.DataObject) -> None:
    base = xp.asarray(a, copy=True)
    ops: list = []
    view, _ = replay(data, base, data.draw(st.integers(0, 3)), WRITABLE_OPS, ops)
    reference = a.copy()
    ref_view = reference
    for op in ops:
        ref_view = apply(op, ref_view)
    key = tuple(data.draw(st.lists(index_items, max_size=ref_view.ndim)))
    if key.count(Ellipsis) > 1:
        key = ()
    try:
        target = ref_view[(*key, Ellipsis) if Ellipsis not in key else key]
    except IndexError:
        with pytest.raises(IndexError):
            view[key] = xp.zeros((), dtype=a.dtype)
        np.testing.assert_array_equal(to_np(base), a)
        return
    value, xvalue = draw_value(data, a.dtype, target.shape)
    ref_view[key] = value
    view[key] = xvalue
    np.testing.assert_array_equal(to_np(base), reference)
    if isinstance(xvalue, xp.Array):
        np.testing.assert_array_equal(to_np(xvalue), value)


@given(a=arrays(ALL, shape=st.just(())), data=st.data())
def test_writes_into_0d_arrays(a: np.ndarray, data: st.DataObject) -> None:
    x = xp.asarray(np.zeros((), dtype=a.dtype), copy=True)
    key = data.draw(st.sampled_from([(), Ellipsis, (None, Ellipsis)]))
    x[key] = xp.asarray(a)
    np.testing.assert_array_equal(to_np(x), a)
    view = x[...]
    view[()] = a.item()
    assert view._storage is x._storage
    np.testing.assert_array_equal(to_np(x), a)


def equal_length_slice(data: st.DataObject, n: int, length: int) -> slice:
    """A slice of an axis of ``n`` with ``length`` elements, of a drawn step (negative too)."""
    if length == 0:
        return slice(0, 0)
    steps = [s for s in (1, 2, 3) if (length - 1) * s < n]
    step = data.draw(st.sampled_from(steps))
    span = (length - 1) * step
    lo = data.draw(st.integers(0, n - 1 - span))
    if data.draw(st.booleans()):
        return slice(lo, lo + span + 1, step)
    stop = lo - 1
    return slice(lo + span, stop if stop >= 0 else None, -step)


@given(a=arrays(ALL, shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=7)),
       data=st.data())
def test_overlapping_assignment_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    """``x[dst] = x[src]`` with overlapping strided (negative, transposed, broadcast) views."""
    x = xp.asarray(a, copy=True)
    expected = a.copy()
    lengths = [data.draw(st.integers(0, n)) for n in a.shape]
    dst = tuple(equal_length_slice(data, n, k) for n, k in zip(a.shape, lengths, strict=True))
    src_lengths = list(lengths)
    transpose = (a.ndim >= 2 and lengths[-1] <= a.shape[-2] and lengths[-2] <= a.shape[-1]
                 and data.draw(st.booleans()))
    if transpose:
        src_lengths[-2:] = src_lengths[-1], src_lengths[-2]
    for i in range(a.ndim):
        if data.draw(st.integers(0, 3)) == 0:
            src_lengths[i] = 1  # broadcast along this axis
    src = tuple(equal_length_slice(data, n, k)
                for n, k in zip(a.shape, src_lengths, strict=True))
    source = expected[src].copy()
    expected[dst] = np.swapaxes(source, -1, -2) if transpose else source
    x[dst] = x[src].mT if transpose else x[src]
    np.testing.assert_array_equal(to_np(x), expected)


@given(a=arrays(ALL, shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6)),
       data=st.data())
def test_assigning_a_flipped_or_permuted_self(a: np.ndarray, data: st.DataObject) -> None:
    x = xp.asarray(a, copy=True)
    axis = data.draw(st.none() | st.integers(0, a.ndim - 1))
    x[...] = xp.flip(x, axis=axis)
    expected = np.flip(a, axis=axis).copy()
    np.testing.assert_array_equal(to_np(x), expected)
    perm = data.draw(st.permutations(range(a.ndim)))
    if tuple(a.shape[p] for p in perm) == a.shape:
        x[...] = xp.permute_dims(x, tuple(perm))
        expected = np.transpose(expected, perm).copy()
        np.testing.assert_array_equal(to_np(x), expected)


@pytest.mark.parametrize("n", [7, 64, 1000])
def test_classic_overlaps(n: int) -> None:
    a = np.arange(n, dtype=np.int64)
    half = (n + 1) // 2
    for dst, src in ((slice(1, None), slice(None, -1)), (slice(None, -1), slice(1, None)),
                     (slice(None, None, -1), Ellipsis), (slice(None, None, 2), slice(None, half)),
                     (slice(half), slice(None, None, 2)), (slice(None, half), slice(-half, None))):
        x = xp.asarray(a, copy=True)
        x[dst] = x[src]
        expected = a.copy()
        expected[dst] = a[src].copy()
        np.testing.assert_array_equal(to_np(x), expected)


def test_square_transpose_into_itself() -> None:
    a = np.arange(36.0).reshape(6, 6)
    x = xp.asarray(a, copy=True)
    x[...] = x.mT
    np.testing.assert_array_equal(to_np(x), a.T)
    x[1:, :-1] = x[:-1, 1:].mT
    expected = a.T.copy()
    expected[1:, :-1] = expected[:-1, 1:].T.copy()
    np.testing.assert_array_equal(to_np(x), expected)

"""The view algebra replayed on NumPy: values, strides, offsets and shared memory must agree."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL, arrays, shapes, to_np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from view_ops import VIEW_OPS, apply, assert_view_of, draw_shape_of_size, replay

import arrayx as xp

# Mostly non-empty arrays, so that strides and addresses are compared.
base_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=5) | shapes


@settings(max_examples=100)
@given(a=arrays(ALL, shape=base_shapes), data=st.data())
def test_view_chains_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    base = xp.asarray(a, copy=True)
    replay(data, base, data.draw(st.integers(1, 6)))


@pytest.mark.parametrize("kind", VIEW_OPS)
@given(a=arrays(ALL, shape=base_shapes), data=st.data())
def test_each_view_operation_on_strided_views(kind: str, a: np.ndarray,
                                              data: st.DataObject) -> None:
    base = xp.asarray(a, copy=True)
    # Some strided view first (negative steps, transposes), then the operation under test.
    x, _ = replay(data, base, data.draw(st.integers(0, 2)),
                  kinds=("index", "permute", "flip"))
    replay(data, x, 1, kinds=(kind,))


@given(a=arrays(ALL, shape=base_shapes), data=st.data())
def test_reshape_copy_keyword_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    base = xp.asarray(a, copy=True)
    x, e = replay(data, base, data.draw(st.integers(0, 3)),
                  kinds=("index", "permute", "mT", "flip", "broadcast", "expand"))
    shape = draw_shape_of_size(data, e.size)
    copy = data.draw(st.sampled_from([None, True, False]))
    try:
        expected = np.reshape(e, shape, copy=copy)
    except ValueError:
        with pytest.raises(ValueError):
            xp.reshape(x, shape, copy=copy)
        return
    got = xp.reshape(x, shape, copy=copy)
    if np.shares_memory(expected, e) or (copy is not True and _view_possible(e, shape)):
        assert_view_of(got, expected, base)
        return
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(to_np(got), expected)
    assert got._storage is not base._storage
    assert got._writeable
    if expected.size:
        assert not np.shares_memory(to_np(got), to_np(base))


def _view_possible(e: np.ndarray, shape: tuple[int, ...]) -> bool:
    try:
        np.reshape(e, shape, copy=False)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(("shape", "index", "target"), [
    ((2, 3), (slice(None), slice(None)), (6,)),
    ((2, 3), (slice(None, None, -1), slice(None)), (6,)),
    ((4, 6), (slice(None, None, 2), slice(1, None, 2)), (3, 2)),
    ((2, 3, 4), (slice(None), slice(None, None, -1)), (2, 12)),
])
def test_reshape_of_transposed_views_needs_a_copy(shape: tuple, index: tuple,
                                                  target: tuple) -> None:
    a = np.arange(int(np.prod(shape))).reshape(shape)[index]
    x = xp.reshape(xp.arange(int(np.prod(shape))), shape)[index]
    for e, v in ((a, x), (a.mT, x.mT)):
        try:
            np.reshape(e, target, copy=False)
        except ValueError:
            with pytest.raises(ValueError):
                xp.reshape(v, target, copy=False)
            got = xp.reshape(v, target)
            assert got._storage is not x._storage
        else:
            got = xp.reshape(v, target, copy=False)
            assert got._storage is x._storage
        np.testing.assert_array_equal(to_np(got), np.reshape(e, target))
        copied = xp.reshape(v, target, copy=True)
        assert copied._storage is not x._storage
        np.testing.assert_array_equal(to_np(copied), np.reshape(e, target))


@given(a=arrays(ALL, shape=st.sampled_from([(1,), (3,), (1, 4), (2, 1, 3), ()])),
       target=st.sampled_from([(2, 3), (4, 1, 3), (3, 2, 4, 3), (0, 3), (2, 0, 1), ()]))
def test_broadcast_to_is_a_readonly_stride0_view(a: np.ndarray, target: tuple) -> None:
    x = xp.asarray(a, copy=True)
    try:
        expected = apply(("broadcast", target), to_np(x))
    except ValueError:
        with pytest.raises(ValueError):
            xp.broadcast_to(x, target)
        return
    view = xp.broadcast_to(x, target)
    assert_view_of(view, expected, x)
    assert not view._writeable
    with pytest.raises(ValueError):
        view[...] = xp.zeros((), dtype=a.dtype)


@given(shapes=st.lists(st.lists(st.integers(0, 3), max_size=4).map(tuple), min_size=1,
                       max_size=4))
def test_broadcast_arrays_and_shapes(shapes: list[tuple]) -> None:
    try:
        expected = np.broadcast_shapes(*shapes)
    except ValueError:
        with pytest.raises(ValueError):
            xp.broadcast_shapes(*shapes)
        with pytest.raises(ValueError):
            xp.broadcast_arrays(*[xp.zeros(s) for s in shapes])
        return
    assert xp.broadcast_shapes(*shapes) == expected
    bases = [xp.asarray(np.arange(int(np.prod(s)), dtype=np.int16).reshape(s)) for s in shapes]
    got = xp.broadcast_arrays(*bases)
    want = np.broadcast_arrays(*[to_np(b) for b in bases])
    assert isinstance(got, tuple) and len(got) == len(shapes)
    for g, w, b in zip(got, want, bases, strict=True):
        # NumPy hands back writeable (warning on write) views of stretched arrays; arrayx's are
        # read-only, and an input that already has the shape stays writeable (as NumPy's
        # input itself, and PyTorch's views).
        assert_view_of(g, w, b, writeable=b.shape == expected)
        if b.shape == expected and b.size:
            g[(0,) * g.ndim] = -1
            assert int(b[(0,) * b.ndim]) == -1


def test_views_copy_nothing() -> None:
    x = xp.reshape(xp.arange(24), (2, 3, 4))
    for view in (x[1], x[:, ::-1], x.mT, xp.permute_dims(x, (2, 0, 1)), xp.flip(x),
                 xp.expand_dims(x, axis=(0, 2)), xp.squeeze(x[:1], axis=0), x[None, ..., None],
                 xp.broadcast_to(x, (5, 2, 3, 4)), xp.reshape(x, (6, 4)), x[1:, ::-2, 3],
                 xp.matrix_transpose(x), x[0].T, xp.reshape(x[..., 1], (6,), copy=False)):
        assert view._storage is x._storage
        if x.device == xp.Device("cpu"):  # on a device, to_np copies
            assert np.shares_memory(to_np(view), to_np(x))

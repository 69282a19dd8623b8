"""asarray against NumPy: copy=True/False/None on NumPy and arrayx inputs (views included),
Python scalars and nested sequences with and without dtype=, and buffer-protocol objects."""

from __future__ import annotations

import array

import numpy as np
import pytest
from conftest import ALL, arrays, to_np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from view_ops import WRITABLE_OPS, address, replay

import arrayx as xp


def same_values(got: xp.Array, expected: np.ndarray) -> None:
    assert isinstance(got, xp.Array)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(to_np(got), expected)


@given(a=arrays(ALL), data=st.data(), readonly=st.booleans(),
       copy=st.sampled_from([None, False, True]))
def test_asarray_of_numpy_views(a: np.ndarray, data: st.DataObject, readonly: bool,
                                copy: bool | None) -> None:
    _, view = replay(data, xp.asarray(a, copy=True), data.draw(st.integers(0, 3)),
                     WRITABLE_OPS)
    view = view.copy() if data.draw(st.booleans()) else view
    if readonly:
        view.flags.writeable = False
    original = view.copy()
    got = xp.asarray(view, copy=copy)
    same_values(got, view)
    if copy:
        assert got._writeable
        if view.size:
            assert not np.shares_memory(to_np(got), view)
        got[...] = xp.zeros((), dtype=a.dtype)
        np.testing.assert_array_equal(view, original)
    else:
        assert bool(got._writeable) == view.flags.writeable
        if view.size:
            assert address(to_np(got)) == address(view)
            assert to_np(got).strides == view.strides or view.size == 1


@given(a=arrays(ALL), data=st.data(), dtype=st.sampled_from(ALL))
def test_asarray_of_arrayx_arrays(a: np.ndarray, data: st.DataObject, dtype: np.dtype) -> None:
    base = xp.asarray(a, copy=True)
    x, expected = replay(data, base, data.draw(st.integers(0, 3)))
    assert xp.asarray(x) is x
    assert xp.asarray(x, copy=False) is x
    assert xp.asarray(x, dtype=x.dtype, copy=False) is x
    assert xp.asarray(x, device=x.device) is x
    copied = xp.asarray(x, copy=True)
    same_values(copied, expected)
    assert copied._storage is not base._storage and copied._writeable
    if dtype != a.dtype:
        with pytest.raises(ValueError):
            xp.asarray(x, dtype=dtype, copy=False)
    if a.dtype.kind == "c" and dtype.kind in "iuf":
        return  # the standard leaves complex -> real conversion unspecified
    with np.errstate(all="ignore"):
        want = expected.astype(dtype)
    if a.dtype.kind in "fc" and dtype.kind in "iu" and not np.isfinite(expected).all():
        return  # NaN/inf to integers is undefined
    if a.dtype.kind in "fc" and dtype.kind in "iu":
        info = np.iinfo(dtype)
        if not ((expected.real > info.min - 1) & (expected.real < info.max + 1)).all():
            return  # out of range is undefined too
    same_values(xp.asarray(x, dtype=dtype), want)


@given(data=st.data(), dtype=st.sampled_from(ALL))
def test_asarray_python_scalars(data: st.DataObject, dtype: np.dtype) -> None:
    value = data.draw(hnp.from_dtype(dtype)).item()
    same_values(xp.asarray(value, dtype=dtype), to_np(value, dtype=dtype))
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2**63:
        with pytest.raises(OverflowError):
            xp.asarray(value)
        return
    default = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}
    same_values(xp.asarray(value), to_np(value, dtype=default[type(value)]))


@given(a=arrays(ALL, shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)))
def test_asarray_nested_lists_round_trip(a: np.ndarray) -> None:
    nested = a.tolist()  # an empty axis hides those after it: NumPy sees the same lists
    same_values(xp.asarray(nested, dtype=a.dtype), to_np(nested, dtype=a.dtype))
    if a.dtype != np.uint64 or a.size == 0 or int(a.max()) < 2**63:
        same_values(xp.asarray(nested), to_np(nested))
    if a.ndim:
        same_values(xp.asarray(tuple(nested), dtype=a.dtype),
                    to_np(tuple(nested), dtype=a.dtype))


def test_asarray_buffer_protocol_objects_share_memory() -> None:
    n = np.arange(12, dtype=np.int16).reshape(3, 4)
    for source, expected in ((memoryview(n)[::-1], n[::-1]), (memoryview(n.T), n.T),
                             (bytearray(b"\x01\x02\x03"), np.array([1, 2, 3], np.uint8)),
                             (array.array("d", [1.5, 2.5]), np.array([1.5, 2.5]))):
        got = xp.asarray(source)
        same_values(got, expected)
        view = to_np(memoryview(source))
        assert address(to_np(got)) == address(view)
        same_values(xp.asarray(source, copy=False), expected)
        copied = xp.asarray(source, copy=True)
        assert not np.shares_memory(to_np(copied), view)
        same_values(copied, expected)
    readonly = xp.asarray(b"\x05\x06")
    assert readonly.dtype == xp.uint8 and not readonly._writeable
    with pytest.raises(ValueError):
        readonly[0] = 1


@pytest.mark.parametrize("inner", [xp.asarray, np.asarray])
def test_a_nested_list_with_an_array_after_a_list(inner) -> None:
    # The scan took an array where the first items' path had found a list as ragged.
    for value in ([[1, 2], inner([3, 4])], [[1.5], inner([2.0])], [[[1], [2]], inner([[3], [4]])]):
        same_values(xp.asarray(value), np.asarray([np.asarray(v) for v in value]))
    with pytest.raises(ValueError, match="ragged"):
        xp.asarray([[1, 2], inner([3, 4, 5])])


def test_a_mapping_is_refused() -> None:
    # It was read as the sequence of its keys (NumPy makes an object array, PyTorch refuses).
    with pytest.raises(TypeError):
        xp.asarray({0: 5, 1: 6})


@pytest.mark.parametrize(("fmt", "values"), [("N", [1, 2**64 - 1]), ("n", [-(2**63), 5])])
def test_size_t_buffers(fmt: str, values: list) -> None:
    view = memoryview(array.array("Q" if fmt == "N" else "q", values)).cast("B").cast(fmt)
    same_values(xp.asarray(view), np.asarray(view))
    shared = xp.asarray(view, copy=False)
    assert np.shares_memory(np.asarray(shared), np.asarray(view))

"""Interop without copies: NumPy (buffer protocol, __array__, DLPack) and PyTorch (DLPack)."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from conftest import ALL, arrays
from hypothesis import given
from hypothesis import strategies as st
from view_ops import replay

import arrayx as xp


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


@given(a=arrays(ALL), data=st.data())
def test_numpy_both_ways_share_memory(a: np.ndarray, data: st.DataObject) -> None:
    step = data.draw(st.sampled_from([1, -1, 2]))
    view = a[(slice(None, None, step),) * a.ndim] if a.ndim else a
    x = xp.asarray(view)
    assert x.shape == view.shape and x.dtype == view.dtype
    back = np.asarray(x)
    np.testing.assert_array_equal(back, view)
    if view.size:
        assert address(back) == address(view)
        # An axis of length 1 has no meaningful stride (NumPy 2.2 gives it the item size).
        assert all(b == v for b, v, n in zip(back.strides, view.strides, view.shape, strict=True)
                   if n > 1)


def test_numpy_writes_are_seen_both_ways() -> None:
    n = np.zeros((3, 4))
    x = xp.asarray(n)
    n[1, 2] = 5.0
    assert float(x[1, 2]) == 5.0
    x[0, 0] = 7.0
    assert n[0, 0] == 7.0
    back = np.asarray(x[:, ::-1])
    back[0, 0] = 9.0
    assert n[0, -1] == 9.0


def test_readonly_numpy_stays_readonly() -> None:
    n = np.arange(4.0)
    n.flags.writeable = False
    x = xp.asarray(n)
    with pytest.raises(ValueError):
        x[0] = 1.0
    assert not np.asarray(x).flags.writeable


@given(a=arrays(ALL))
def test_dlpack_with_numpy(a: np.ndarray) -> None:
    x = xp.from_dlpack(a)
    np.testing.assert_array_equal(np.asarray(x), a)
    back = np.from_dlpack(x)
    np.testing.assert_array_equal(back, a)
    if a.size:
        assert address(back) == address(a)
    copied = xp.from_dlpack(a, copy=True)
    np.testing.assert_array_equal(np.asarray(copied), a)
    if a.size:
        assert address(np.asarray(copied)) != address(a)


@given(a=arrays(ALL), data=st.data())
def test_buffer_protocol_of_views(a: np.ndarray, data: st.DataObject) -> None:
    x, e = replay(data, xp.asarray(a, copy=True), data.draw(st.integers(0, 3)))
    got, want = memoryview(x), memoryview(e)
    assert got.format == want.format and got.itemsize == want.itemsize
    assert got.ndim == want.ndim and got.shape == want.shape and got.nbytes == want.nbytes
    assert got.readonly == want.readonly
    if e.size:
        # (Python's contiguity flags of an empty 1-D buffer depend on its unused stride.)
        assert got.c_contiguous == want.c_contiguous and got.f_contiguous == want.f_contiguous
        for n, s_got, s_want in zip(e.shape, got.strides, want.strides, strict=True):
            if n > 1:
                assert s_got == s_want
    assert got.tobytes() == want.tobytes()
    back = np.asarray(got)
    if e.size:
        assert address(back) == address(e)


def test_buffer_protocol() -> None:
    x = xp.reshape(xp.arange(12, dtype=xp.int32), (3, 4))[:, ::-2]
    m = memoryview(x)
    assert m.format == "i" and m.shape == (3, 2) and m.strides == (16, -8)
    assert m.tolist() == np.asarray(x).tolist()
    assert memoryview(xp.ones(2, dtype=xp.complex128)).format == "Zd"
    ro = memoryview(xp.broadcast_to(xp.ones(2), (3, 2)))
    assert ro.readonly and ro.strides == (0, 8)
    assert not memoryview(xp.ones(2)).readonly
    b = xp.asarray(bytearray(b"\x01\x02\x03"))
    assert b.dtype == xp.uint8 and b.shape == (3,)


@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_numpy_sees_its_own_type_numbers(dtype: np.dtype) -> None:
    # Compiled code switches on NumPy's type number (SciPy's ndimage.value_indices knows NPY_LONG,
    # not NPY_LONGLONG, for int64): the buffer says what NumPy's own buffer says.
    x = xp.zeros(3, dtype=dtype)
    n = np.zeros(3, dtype=dtype)
    assert memoryview(x).format == memoryview(n).format
    assert np.asarray(x).dtype.num == n.dtype.num
    assert np.asarray(x).dtype.char == n.dtype.char


def test_dlpack_export_flags() -> None:
    x = xp.arange(6.0)
    assert x.__dlpack_device__() == (1, 0)
    for kwargs in ({}, {"max_version": (1, 0)}, {"max_version": (0, 8)},
                   {"dl_device": (1, 0), "copy": False}, {"copy": True}):
        assert type(x.__dlpack__(**kwargs)).__name__ == "PyCapsule"
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))
    ro = xp.broadcast_to(x, (2, 6))
    y = xp.from_dlpack(ro)
    with pytest.raises(ValueError):
        y[0, 0] = 1.0
    with pytest.raises(BufferError):
        ro.__dlpack__()


def capsule(name: bytes) -> object:
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    buf = ctypes.create_string_buffer(64)
    capsule.keep = (buf, name)
    return new(ctypes.addressof(buf), name, None)


class Producer:
    def __init__(self, cap: object) -> None:
        self.cap = cap

    def __dlpack__(self, **kwargs: object) -> object:
        return self.cap

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


def test_malformed_dlpack_capsules_raise() -> None:
    with pytest.raises(TypeError):
        xp.from_dlpack(Producer(capsule(b"not_a_tensor")))
    with pytest.raises(TypeError):
        xp.from_dlpack(object())
    x = xp.arange(3.0)
    cap = x.__dlpack__(max_version=(1, 0))
    xp.from_dlpack(Producer(cap))
    with pytest.raises(TypeError):
        xp.from_dlpack(Producer(cap))


@pytest.mark.parametrize(("ctype", "dtype"), [(ctypes.c_float, np.float32),
                                              (ctypes.c_double, np.float64),
                                              (ctypes.c_int32, np.int32),
                                              (ctypes.c_uint16, np.uint16)])
def test_ctypes_arrays_are_shared_in_their_dtype(ctype, dtype) -> None:
    # ctypes exports "<f", "<i" ... (little-endian, standard sizes): the native order here,
    # shared as NumPy shares it, where arrayx copied the elements as Python numbers (float64,
    # int64) and refused 2-D ones.
    flat = (ctype * 3)(1, 2, 3)
    a = xp.asarray(flat)
    assert a.dtype == np.dtype(dtype) and a.dtype == np.asarray(flat).dtype
    a[0] = 9
    assert flat[0] == 9
    grid = ((ctype * 2) * 3)()
    grid[2][1] = 5
    np.testing.assert_array_equal(np.asarray(xp.asarray(grid)), np.asarray(grid))

"""DLPack 1.0 both ways with NumPy: capsules read field by field and compared with NumPy's own
export, zero-copy imports and exports of strided views, copies, read-only arrays, and
malformed capsules built with ctypes (errors, never crashes; the deleter runs exactly once)."""

from __future__ import annotations

import ctypes
import os

import numpy as np
import pytest
from conftest import ALL, arrays
from hypothesis import given
from hypothesis import strategies as st
from view_ops import WRITABLE_OPS, address, apply, replay

import arrayx as xp

CUDA = any(getattr(d, "kind", None) == "cuda" for d in xp.__array_namespace_info__().devices())
FLAG_READ_ONLY = 1
FLAG_IS_COPIED = 2

DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", DELETER)]


_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]
_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def describe(capsule: object) -> dict:
    """The fields of an unconsumed DLPack capsule (it stays unconsumed)."""
    name = _get_name(capsule)
    pointer = _get_pointer(capsule, name)
    if name == b"dltensor_versioned":
        m = DLManagedTensorVersioned.from_address(pointer)
        version, flags, t = (m.major, m.minor), m.flags, m.dl_tensor
    else:
        assert name == b"dltensor"
        version, flags, t = None, None, DLManagedTensor.from_address(pointer).dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        strides = tuple(t.strides[i] for i in range(t.ndim))
    else:  # NULL strides: compact and row-major
        strides = tuple(int(np.prod(shape[i + 1:])) for i in range(t.ndim))
    return {"name": name, "version": version, "flags": flags, "start": (t.data or 0) +
            t.byte_offset, "device": (t.device.device_type, t.device.device_id),
            "dtype": (t.dtype.code, t.dtype.bits, t.dtype.lanes), "shape": shape,
            "strides": strides}


class Producer:
    """Hands a given capsule to a consumer, as a DLPack producer would."""

    def __init__(self, capsule: object, device: tuple[int, int] = (1, 0)) -> None:
        self.capsule = capsule
        self.device = device

    def __dlpack__(self, **kwargs: object) -> object:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device


def same_capsule(got: dict, want: dict, copied: bool) -> None:
    """The same capsule fields; a copy's memory order is the producer's choice."""
    for field in ("name", "version", "flags", "device", "dtype", "shape"):
        assert got[field] == want[field], field
    if np.prod(want["shape"]) > 0 and not copied:
        for n, s_got, s_want in zip(want["shape"], got["strides"], want["strides"],
                                    strict=True):
            if n > 1:
                assert s_got == s_want
        assert got["start"] == want["start"]


EXPORTS = [{}, {"max_version": (1, 0)}, {"max_version": (1, 2)}, {"max_version": (0, 8)},
           {"max_version": (1, 0), "copy": False}, {"max_version": (1, 0), "copy": True},
           {"max_version": (1, 0), "dl_device": (1, 0)}]


@given(a=arrays(ALL), data=st.data(), kwargs=st.sampled_from(EXPORTS))
def test_export_matches_numpys_capsule(a: np.ndarray, data: st.DataObject,
                                       kwargs: dict) -> None:
    base = xp.asarray(a, copy=True)
    view, expected = replay(data, base, data.draw(st.integers(0, 3)),
                            ("index", "permute", "flip", "broadcast", "expand", "mT"))
    try:
        reference = expected.__dlpack__(**kwargs)
    except BufferError:
        with pytest.raises(BufferError):
            view.__dlpack__(**kwargs)
        return
    want = describe(reference)
    capsule = view.__dlpack__(**kwargs)
    got = describe(capsule)
    same_capsule(got, want, copied=bool(kwargs.get("copy")))
    # The capsule keeps the memory alive on its own, and reads back as the view's values,
    # as writeable as NumPy's own capsule reads back.
    values = expected.copy()
    del view, base, expected
    back = np.from_dlpack(Producer(capsule))
    np.testing.assert_array_equal(back, values)
    assert back.flags.writeable == np.from_dlpack(Producer(reference)).flags.writeable


@given(a=arrays(ALL), data=st.data())
def test_numpy_imports_views_without_copies(a: np.ndarray, data: st.DataObject) -> None:
    base = xp.asarray(a, copy=True)
    ops: list = []
    view, expected = replay(data, base, data.draw(st.integers(0, 3)), WRITABLE_OPS, ops)
    imported = np.from_dlpack(view)
    assert imported.shape == expected.shape and imported.dtype == expected.dtype
    np.testing.assert_array_equal(imported, expected)
    if expected.size:
        assert address(imported) == address(expected)
    # Writes to arrayx's base show through NumPy's import.
    fresh = data.draw(arrays([a.dtype], shape=st.just(a.shape)))
    base[...] = xp.asarray(fresh)
    want = fresh
    for op in ops:
        want = apply(op, want)
    np.testing.assert_array_equal(imported, want)
    copied = np.from_dlpack(view, copy=True)
    np.testing.assert_array_equal(copied, want)
    if expected.size:
        assert not np.shares_memory(copied, np.asarray(base))


@given(a=arrays(ALL), data=st.data())
def test_arrayx_imports_numpy_views_without_copies(a: np.ndarray, data: st.DataObject) -> None:
    n = a.copy()
    ops: list = []
    _, _ = replay(data, xp.asarray(a, copy=True), data.draw(st.integers(0, 3)), WRITABLE_OPS,
                  ops)
    nv = n
    for op in ops:
        nv = apply(op, nv)
    x = xp.from_dlpack(nv)
    assert x.shape == nv.shape and x.dtype == nv.dtype and x._writeable
    np.testing.assert_array_equal(np.asarray(x), nv)
    if nv.size:
        assert address(np.asarray(x)) == address(nv)
        for k, s_x, s_n in zip(nv.shape, x._layout.strides, nv.strides, strict=True):
            if k > 1:
                assert s_x * nv.itemsize == s_n
    copied = xp.from_dlpack(nv, copy=True)
    n[...] = data.draw(arrays([a.dtype], shape=st.just(a.shape)))
    np.testing.assert_array_equal(np.asarray(x), nv)  # sees NumPy's write
    if nv.size:
        x[(0,) * x.ndim] = xp.asarray(nv[(-1,) * nv.ndim])
        assert nv[(0,) * nv.ndim] == nv[(-1,) * nv.ndim] or np.isnan(nv[(0,) * nv.ndim])
        assert not np.shares_memory(np.asarray(copied), n)
        assert copied._writeable


def test_copy_false_and_arrayx_producers() -> None:
    x = xp.reshape(xp.arange(12.0), (3, 4))[::-1, 1::2]
    same = xp.from_dlpack(x, copy=False)
    assert same._storage.address == x._storage.address or np.shares_memory(
        np.asarray(same), np.asarray(x))
    assert same._layout.strides == x._layout.strides
    other = xp.from_dlpack(x, copy=True)
    x[...] = -1.0
    np.testing.assert_array_equal(np.asarray(same), np.asarray(x))
    np.testing.assert_array_equal(np.asarray(other), np.arange(12.0).reshape(3, 4)[::-1, 1::2])
    assert not np.shares_memory(np.asarray(other), np.asarray(x))


def test_read_only_arrays_export_read_only_versioned_capsules() -> None:
    x = xp.broadcast_to(xp.arange(3.0), (2, 3))
    capsule = x.__dlpack__(max_version=(1, 0))
    info = describe(capsule)
    assert info["name"] == b"dltensor_versioned" and info["flags"] & FLAG_READ_ONLY
    assert info["strides"] == (0, 1)
    with pytest.raises(BufferError):
        x.__dlpack__()  # a legacy capsule cannot say "read-only"
    imported = np.from_dlpack(x)
    assert not imported.flags.writeable
    assert address(imported) == address(np.asarray(x))
    again = xp.from_dlpack(x)
    assert not again._writeable
    with pytest.raises(ValueError):
        again[0, 0] = 1.0
    n = np.arange(4.0)
    n.flags.writeable = False
    y = xp.from_dlpack(n)
    assert not y._writeable and address(np.asarray(y)) == address(n)
    with pytest.raises(ValueError):
        y[0] = 1.0
    assert describe(y.__dlpack__(max_version=(1, 0)))["flags"] & FLAG_READ_ONLY
    writable = xp.from_dlpack(n, copy=True)
    writable[0] = 5.0
    assert n[0] == 0.0


def test_legacy_producer_without_keywords() -> None:
    class Legacy:
        def __init__(self, a: np.ndarray) -> None:
            self.a = a

        def __dlpack__(self, stream: object = None) -> object:
            return self.a.__dlpack__()

        def __dlpack_device__(self) -> tuple[int, int]:
            return (1, 0)

    n = np.arange(6.0).reshape(2, 3)[:, ::-1]
    x = xp.from_dlpack(Legacy(n))
    np.testing.assert_array_equal(np.asarray(x), n)
    assert address(np.asarray(x)) == address(n)


# --- malformed capsules, built by hand --------------------------------------------------------

class Handmade:
    """A ``DLManagedTensorVersioned`` in ctypes memory, with a deleter that counts its calls."""

    def __init__(self, *, shape: tuple = (3,), strides: tuple | None = None,
                 data: int | None = -1, ndim: int | None = None, code: int = 2, bits: int = 64,
                 lanes: int = 1, device: tuple = (1, 0), version: tuple = (1, 0),
                 flags: int = 0, byte_offset: int = 0, null_shape: bool = False) -> None:
        self.buffer = (ctypes.c_double * 16)(*range(16))
        self.calls = 0
        self.shape = (ctypes.c_int64 * 70)(*shape)
        self.strides = (ctypes.c_int64 * 70)(*strides) if strides is not None else None
        self.deleter = DELETER(self._delete)
        m = DLManagedTensorVersioned()
        m.major, m.minor = version
        m.deleter = self.deleter
        m.flags = flags
        t = m.dl_tensor
        t.data = ctypes.addressof(self.buffer) if data == -1 else data
        t.device = DLDevice(*device)
        t.ndim = len(shape) if ndim is None else ndim
        t.dtype = DLDataType(code, bits, lanes)
        t.shape = None if null_shape else ctypes.cast(self.shape, ctypes.POINTER(ctypes.c_int64))
        if self.strides is not None:
            t.strides = ctypes.cast(self.strides, ctypes.POINTER(ctypes.c_int64))
        t.byte_offset = byte_offset
        self.managed = m
        self.name = b"dltensor_versioned"
        self.capsule = _new_capsule(ctypes.addressof(m), self.name, None)

    def _delete(self, pointer: int) -> None:
        self.calls += 1

    @property
    def consumed(self) -> bool:
        return _get_name(self.capsule).startswith(b"used_")


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"version": (2, 0)}, BufferError),
    ({"ndim": -1}, ValueError),
    ({"ndim": 65, "shape": (1,) * 65}, ValueError),
    ({"shape": (-3,)}, ValueError),
    ({"shape": (2, 3), "null_shape": True}, ValueError),
    ({"data": None}, ValueError),
    ({"bits": 16}, TypeError),
    ({"code": 99}, TypeError),
    ({"lanes": 4}, TypeError),
    ({"code": 6, "bits": 1}, TypeError),
    ({"device": (2, 7)}, BufferError),
])
def test_malformed_capsule_raises_and_frees_once(kwargs: dict, error: type) -> None:
    made = Handmade(**kwargs)
    with pytest.raises(error):
        xp.from_dlpack(Producer(made.capsule))
    # A consumer that took the capsule (renamed it) owns it and must call the deleter once;
    # one that left it alone must not call it at all.
    assert made.calls == (1 if made.consumed else 0)


@pytest.mark.skipif(not CUDA or bool(os.environ.get("ARRAYX_FAKE_CUDA")),
                    reason="needs a GPU as cuda:0 (the fake one's memory is the host's)")
def test_host_memory_said_to_be_a_gpus_is_refused() -> None:
    # Plain host memory in a kDLCUDA capsule: refused before any kernel reads it, since a
    # kernel's illegal address would spoil the CUDA context for every later GPU call.
    made = Handmade(device=(2, 0))
    with pytest.raises(BufferError, match="cuda:0"):
        xp.from_dlpack(Producer(made.capsule))
    assert made.calls == (1 if made.consumed else 0)
    assert float(xp.sum(xp.ones(3, device="cuda:0"))) == 3.0  # the GPU still works


def test_handmade_capsules_import_and_free_once() -> None:
    cases = [
        ({"shape": (2, 3)}, np.arange(6.0).reshape(2, 3)),
        ({"shape": (2, 3), "strides": (1, 2)}, np.arange(6.0).reshape(3, 2).T),
        ({"shape": (4,), "strides": (-2,), "byte_offset": 6 * 8}, np.arange(16.0)[6::-2][:4]),
        ({"shape": (3, 2), "strides": (0, 1)}, np.broadcast_to(np.arange(2.0), (3, 2))),
        ({"shape": ()}, np.asarray(0.0)),
        ({"shape": (0, 5), "data": None}, np.zeros((0, 5))),
        ({"shape": (2,), "flags": FLAG_READ_ONLY}, np.arange(2.0)),
    ]
    for kwargs, expected in cases:
        made = Handmade(**kwargs)
        x = xp.from_dlpack(Producer(made.capsule))
        assert made.consumed
        assert x.shape == expected.shape and x.dtype == xp.float64
        np.testing.assert_array_equal(np.asarray(x), expected)
        assert bool(x._writeable) == (not kwargs.get("flags"))
        view = x[..., None]
        del x
        assert made.calls == 0  # a view still holds the memory
        del view
        assert made.calls == 1  # freed with the last view: reference counting, no cycles


@pytest.mark.parametrize("name", [b"not_a_tensor", b"used_dltensor", b"used_dltensor_versioned",
                                  b"dltensor_versioned_x"])
def test_capsules_with_wrong_names(name: bytes) -> None:
    made = Handmade()
    capsule = _new_capsule(ctypes.addressof(made.managed), name, None)
    with pytest.raises((TypeError, ValueError, BufferError)):
        xp.from_dlpack(Producer(capsule))
    assert made.calls == 0


def test_consumed_capsules_and_non_producers() -> None:
    capsule = xp.arange(3.0).__dlpack__(max_version=(1, 0))
    np.testing.assert_array_equal(np.asarray(xp.from_dlpack(Producer(capsule))), [0, 1, 2])
    with pytest.raises((TypeError, ValueError, BufferError)):
        xp.from_dlpack(Producer(capsule))
    for bad in (object(), [1, 2], Producer(3), Producer(None)):
        with pytest.raises((TypeError, ValueError, BufferError)):
            xp.from_dlpack(bad)
    with pytest.raises(ValueError):
        xp.from_dlpack(np.ones(2), device="not-a-device")
    with pytest.raises(BufferError):
        xp.arange(3.0).__dlpack__(dl_device=(2, 0))


def test_capsule_whose_extent_overflows_is_refused() -> None:
    # Three elements 2**60 apart: the last lies 2**64 bytes past the first, beyond any address
    # space; such a tensor cannot describe real memory and reading it would crash.
    made = Handmade(shape=(3,), strides=(2**60,))
    with pytest.raises((ValueError, BufferError)):
        xp.from_dlpack(Producer(made.capsule))
    assert made.calls == (1 if made.consumed else 0)


def test_copy_of_a_misaligned_import_reads_nothing_after_the_deleter() -> None:
    # An import that copies (memory not aligned to its dtype) keeps no reference to the
    # producer, whose deleter runs as the import ends; from_dlpack(copy=True) then read the
    # tensor's flags from freed memory. The tensor sits on a page of its own that the deleter
    # unmaps, so a late read is a crash, not a silent read of freed heap.
    code = """
import ctypes
import numpy as np
import arrayx as xp
import test_dlpack as t
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
page = libc.mmap(None, 4096, 3, 0x22, -1, 0)
raw = (ctypes.c_uint8 * 41)(*range(41))
shape = (ctypes.c_int64 * 1)(4)
deleter = t.DELETER(lambda p: libc.munmap(page, 4096))
m = t.DLManagedTensorVersioned.from_address(page)
m.major, m.minor, m.flags, m.deleter = 1, 0, 0, deleter
m.dl_tensor.data = ctypes.addressof(raw) + 1
m.dl_tensor.device = t.DLDevice(1, 0)
m.dl_tensor.ndim = 1
m.dl_tensor.dtype = t.DLDataType(2, 64, 1)
m.dl_tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
capsule = t._new_capsule(page, b"dltensor_versioned", None)
got = xp.from_dlpack(t.Producer(capsule), copy=True)
want = np.frombuffer(bytes(raw)[1:33], dtype=np.float64)
assert np.array_equal(np.asarray(got), want, equal_nan=True), (got, want)
print("ok")
"""
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=here,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(
                             filter(None, [here, os.environ.get("PYTHONPATH")]))})
    assert run.returncode == 0 and run.stdout.strip() == "ok", (run.returncode, run.stderr[-2000:])

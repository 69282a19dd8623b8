"""Foreign memory that is not aligned to its element type (a NumPy view at an odd byte offset,
a DLPack tensor with such a ``byte_offset``, a buffer): the kernels read elements as C++ types,
where a misaligned one is undefined behaviour (reported by ``tools/sanitize.sh``), so arrayx
copies such memory into its own aligned buffer, and ``copy=False`` is a ValueError."""

from __future__ import annotations

import numpy as np
import pytest

import arrayx as xp

DTYPES = ["int16", "int32", "int64", "uint32", "float32", "float64", "complex64", "complex128"]


def misaligned(dtype: str, n: int = 37) -> np.ndarray:
    """``n`` elements of ``dtype`` starting one byte past an aligned address."""
    dt = np.dtype(dtype)
    raw = np.zeros(n * dt.itemsize + 64, dtype=np.uint8)
    start = (-raw.ctypes.data) % 64 + 1
    u = raw[start:start + n * dt.itemsize].view(dt)
    u[...] = (np.arange(n) % 7 - 3).astype(dt)
    assert not u.flags.aligned
    return u


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("convert", ["asarray", "from_dlpack", "memoryview"])
def test_misaligned_foreign_memory_is_read_correctly(dtype: str, convert: str) -> None:
    u = misaligned(dtype)
    if convert == "asarray":
        a = xp.asarray(u)
    elif convert == "from_dlpack":
        a = xp.from_dlpack(u)
    else:
        a = xp.asarray(memoryview(u))
    np.testing.assert_array_equal(np.asarray(a), u)
    np.testing.assert_array_equal(np.asarray(a + a), u + u)
    np.testing.assert_array_equal(np.asarray(a[::-3][:12] * a[1::3]), u[::-3][:12] * u[1::3])
    np.testing.assert_allclose(np.asarray(xp.sum(a)), np.sum(u), rtol=1e-6)
    r = u.reshape(-1, 1)[:36].reshape(6, 6)
    np.testing.assert_allclose(np.asarray(xp.sum(xp.asarray(r), axis=0)), r.sum(axis=0),
                               rtol=1e-6)
    if u.dtype.kind != "c":
        assert float(xp.max(a)) == u.max()
        np.testing.assert_array_equal(np.asarray(xp.sort(a)), np.sort(u))


@pytest.mark.parametrize("convert", ["asarray", "from_dlpack"])
def test_misaligned_foreign_memory_with_copy_false_raises(convert: str) -> None:
    u = misaligned("float64")
    fn = xp.asarray if convert == "asarray" else xp.from_dlpack
    with pytest.raises(ValueError, match="aligned"):
        fn(u, copy=False)
    a = fn(u, copy=True)
    a[0] = 100.0
    assert u[0] == -3.0 and float(a[0]) == 100.0


def test_aligned_foreign_memory_is_still_shared() -> None:
    u = np.arange(10.0)
    a = xp.asarray(u, copy=False)
    a[0] = 5.0
    assert u[0] == 5.0
    b = xp.from_dlpack(np.arange(10, dtype=np.int32)[1:])  # 4-byte aligned: shared
    assert b._storage.owner is not None

"""Interop with PyTorch's CPU build through DLPack, without copies (skipped without torch).

PyTorch has no negative strides (and its DLPack import aborts the process on them, whichever
library produced them), so the views exchanged here have steps >= 0; NumPy covers the negative
ones in test_dlpack.py.
"""

from __future__ import annotations

import numpy as np
from conftest import ALL, arrays
from hypothesis import given
from hypothesis import strategies as st
from needs_torch import import_torch
from view_ops import address, apply, replay

import arrayx as xp

torch = import_torch()

FORWARD_OPS = ("forward index", "permute", "mT", "expand", "squeeze", "broadcast", "reshape")
FORWARD_WRITABLE_OPS = ("forward index", "permute", "mT", "expand", "squeeze", "reshape")


def same_as(t: object, expected: np.ndarray) -> None:
    """A torch tensor with NumPy's shape, dtype, values, first-element address and strides."""
    assert tuple(t.shape) == expected.shape
    assert str(t.dtype) == f"torch.{expected.dtype.name}"
    np.testing.assert_array_equal(t.numpy(), expected)
    if expected.size:
        assert t.data_ptr() == address(expected)
        for n, s_t, s_e in zip(expected.shape, t.stride(), expected.strides, strict=True):
            if n > 1:
                assert s_t * expected.itemsize == s_e


@given(a=arrays(ALL), data=st.data())
def test_torch_imports_arrayx_views_without_copies(a: np.ndarray, data: st.DataObject) -> None:
    base = xp.asarray(a, copy=True)
    ops: list = []
    view, expected = replay(data, base, data.draw(st.integers(0, 3)), FORWARD_OPS, ops)
    t = torch.from_dlpack(view)
    same_as(t, expected)
    # arrayx's writes show through the tensor.
    fresh = data.draw(arrays([a.dtype], shape=st.just(a.shape)))
    base[...] = xp.asarray(fresh)
    want = fresh
    for op in ops:
        want = apply(op, want)
    np.testing.assert_array_equal(t.numpy(), want)
    copied = torch.from_dlpack(view, copy=True)
    np.testing.assert_array_equal(copied.numpy(), want)
    if want.size:
        assert copied.data_ptr() != t.data_ptr()


@given(a=arrays(ALL), data=st.data())
def test_arrayx_imports_torch_views_without_copies(a: np.ndarray, data: st.DataObject) -> None:
    n = a.copy()
    whole = torch.from_dlpack(n)
    assert whole.data_ptr() == address(n) or n.size == 0
    # The layout of a drawn view of ``n``, rebuilt in torch with as_strided.
    ops: list = []
    replay(data, xp.asarray(a, copy=True), data.draw(st.integers(0, 3)), FORWARD_WRITABLE_OPS,
           ops)
    expected = n
    for op in ops:
        expected = apply(op, expected)
    offset = (address(expected) - address(n)) // n.itemsize if expected.size else 0
    strides = tuple(s // n.itemsize for s in expected.strides)
    tv = torch.as_strided(whole, expected.shape, strides, offset) if n.size else whole.reshape(
        expected.shape)
    x = xp.from_dlpack(tv)
    assert x.shape == expected.shape and x.dtype == expected.dtype and x._writeable
    np.testing.assert_array_equal(np.asarray(x), expected)
    if expected.size:
        assert address(np.asarray(x)) == address(expected)
        # A write through arrayx lands in torch's (and NumPy's) memory.
        first = (0,) * x.ndim
        x[first] = xp.asarray(expected[(-1,) * x.ndim])
        assert tv[first].item() == expected[first].item() or np.isnan(expected[first])
        copied = xp.from_dlpack(tv, copy=True)
        assert not np.shares_memory(np.asarray(copied), n)
        np.testing.assert_array_equal(np.asarray(copied), expected)


def test_torch_sees_arrayx_writes() -> None:
    x = xp.zeros((2, 3))
    t = torch.from_dlpack(x.mT)
    x[0, 1] = 4.0
    assert t[1, 0].item() == 4.0
    t[2, 1] = 8.0
    assert float(x[1, 2]) == 8.0
    y = xp.from_dlpack(torch.arange(5))
    assert y.dtype == xp.int64 and float(y[4]) == 4.0


def test_torch_0d_empty_and_broadcast() -> None:
    for t in (torch.tensor(3.5), torch.zeros((0, 3)), torch.ones(3, dtype=torch.bool),
              torch.arange(4.0).expand(2, 4), torch.arange(6).reshape(2, 3).T[1:]):
        x = xp.from_dlpack(t)
        assert x.shape == tuple(t.shape) and x._layout.strides[-1:] == t.stride()[-1:]
        np.testing.assert_array_equal(np.asarray(x), t.numpy())
        back = torch.from_dlpack(x)
        assert back.data_ptr() == t.data_ptr() or t.numel() == 0
        assert torch.equal(back, t)
    x = xp.asarray(2.5)
    t = torch.from_dlpack(x)
    x[()] = 7.0
    assert t.item() == 7.0 and t.shape == ()
    copied = xp.from_dlpack(torch.arange(3.0), copy=True)
    source = torch.arange(3.0)
    shared = xp.from_dlpack(source)
    source.add_(1)
    np.testing.assert_array_equal(np.asarray(shared), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(np.asarray(copied), [0.0, 1.0, 2.0])

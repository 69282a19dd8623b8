"""Interop with PyTorch's CPU build through DLPack, without copies (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL, arrays
from hypothesis import given
from hypothesis import strategies as st

import arrayx as xp

torch = pytest.importorskip("torch")


@given(a=arrays(ALL), data=st.data())
def test_dlpack_with_torch_both_ways(a: np.ndarray, data: st.DataObject) -> None:
    t = torch.from_numpy(a.copy()) if a.dtype.kind != "u" or a.dtype == np.uint8 else None
    if t is None:
        return
    if a.ndim and data.draw(st.booleans()):
        t = t.flip(0)
    x = xp.from_dlpack(t)
    np.testing.assert_array_equal(np.asarray(x), t.numpy())
    if t.numel():
        assert np.asarray(x).__array_interface__["data"][0] == t.data_ptr()
    back = torch.from_dlpack(x)
    np.testing.assert_array_equal(back.numpy(), t.numpy())
    if t.numel():
        assert back.data_ptr() == t.data_ptr()


def test_torch_sees_arrayx_writes() -> None:
    x = xp.zeros((2, 3))
    t = torch.from_dlpack(x.mT)
    x[0, 1] = 4.0
    assert t[1, 0].item() == 4.0
    t[2, 1] = 8.0
    assert float(x[1, 2]) == 8.0
    y = xp.from_dlpack(torch.arange(5))
    assert y.dtype == xp.int64 and float(y[4]) == 4.0

"""Bad input gets a clear TypeError, ValueError or IndexError: never a crash or a wrong result."""

from __future__ import annotations

import numpy as np
import pytest

import arrayx as xp


@pytest.mark.parametrize("dtype", ["foo", object, "float16", "U3", np.dtype("M8[s]"), 3])
def test_bad_dtype(dtype: object) -> None:
    with pytest.raises(TypeError):
        xp.zeros(3, dtype=dtype)
    with pytest.raises(TypeError):
        xp.astype(xp.ones(2), dtype)


@pytest.mark.parametrize("shape", [-1, (2, -3), (2**40, 2**40), (2**62, 4), (2**63,)])
def test_bad_or_overflowing_shape(shape: object) -> None:
    with pytest.raises(ValueError):
        xp.empty(shape)
    with pytest.raises(ValueError):
        xp.zeros(shape, dtype=xp.int8)


@pytest.mark.parametrize("shape", [(1.5,), "3", (None,), (2, [3])])
def test_shape_of_wrong_type(shape: object) -> None:
    with pytest.raises(TypeError):
        xp.zeros(shape)


def test_too_many_dimensions() -> None:
    with pytest.raises(ValueError):
        xp.zeros((1,) * 65)


def test_impossible_reshape() -> None:
    x = xp.arange(6)
    with pytest.raises(ValueError):
        xp.reshape(x, (4,))
    with pytest.raises(ValueError):
        xp.reshape(x, (-1, -1))
    with pytest.raises(ValueError):
        xp.reshape(xp.reshape(x, (2, 3)).mT, (6,), copy=False)


@pytest.mark.parametrize("key", [3, -4, (0, 5), (slice(None), -6), (0, 0, 0)])
def test_index_out_of_range(key: object) -> None:
    x = xp.zeros((3, 5))
    with pytest.raises(IndexError):
        x[key]
    with pytest.raises(IndexError):
        x[key] = 1.0


@pytest.mark.parametrize("key", [1.0, (0, 1.5), "a", [0.5]])
def test_index_of_wrong_type(key: object) -> None:
    with pytest.raises(IndexError):
        xp.zeros((3, 5))[key]


def test_two_ellipses() -> None:
    with pytest.raises(IndexError):
        xp.zeros((2, 2))[..., ...]


@pytest.mark.parametrize("call", [
    lambda x: xp.permute_dims(x, (0, 0)),
    lambda x: xp.permute_dims(x, (0, 2)),
    lambda x: xp.permute_dims(x, (0,)),
    lambda x: xp.expand_dims(x, axis=3),
    lambda x: xp.squeeze(x, axis=5),
    lambda x: xp.flip(x, axis=2),
    lambda x: xp.flip(x, axis=(0, 0)),
])
def test_bad_axis(call: object) -> None:
    with pytest.raises((ValueError, IndexError)):
        call(xp.zeros((2, 3)))


def test_squeeze_non_unit_axis() -> None:
    with pytest.raises(ValueError):
        xp.squeeze(xp.zeros((2, 1)), axis=0)


def test_write_into_broadcast_view() -> None:
    view = xp.broadcast_to(xp.zeros(3), (2, 3))
    with pytest.raises(ValueError):
        view[0, 0] = 1.0
    with pytest.raises(ValueError):
        view[...] = xp.ones((2, 3))


def test_bad_devices() -> None:
    for device in ("gpu", "cuda:x", "tpu:0", 3):
        with pytest.raises(ValueError):
            xp.zeros(2, device=device)
    with pytest.raises(ValueError):
        xp.asarray([1, 2], device="quantum")


def test_bad_creation_arguments() -> None:
    with pytest.raises(ValueError):
        xp.arange(0, 10, 0)
    with pytest.raises(ValueError):
        xp.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        xp.linspace(0, 1, 5, dtype=xp.int32)
    with pytest.raises(ValueError):
        xp.meshgrid(xp.ones(2), indexing="ab")
    with pytest.raises(ValueError):
        xp.tril(xp.ones(3))
    with pytest.raises(ValueError):
        xp.asarray([[1, 2], [3]])
    with pytest.raises(TypeError):
        xp.asarray([object()])
    with pytest.raises(TypeError):
        xp.full(2, "x")
    with pytest.raises(OverflowError):
        xp.full(2, 300, dtype=xp.int8)


def test_assign_incompatible_values() -> None:
    x = xp.zeros(3, dtype=xp.int32)
    with pytest.raises(TypeError):
        x[0] = 1.5
    with pytest.raises(TypeError):
        x[...] = xp.ones(3, dtype=xp.float64)
    with pytest.raises(ValueError):
        x[...] = xp.ones(4, dtype=xp.int32)
    assert np.asarray(x).tolist() == [0, 0, 0]

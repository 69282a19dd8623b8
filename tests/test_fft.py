"""arrayx.fft against numpy.fft over drawn shapes, dtypes, lengths, axes and norms."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arrayx as ax

SETTINGS = settings(max_examples=60, deadline=None)
NORMS = st.sampled_from(["backward", "ortho", "forward"])
shapes = st.lists(st.integers(1, 6), min_size=1, max_size=3).map(tuple)


def draw(data, shape, dtype):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def check(res, expected):
    res = np.asarray(res)
    assert res.dtype == expected.dtype
    assert res.shape == expected.shape
    tol = 1e-4 if expected.dtype in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(res, expected, rtol=tol, atol=tol * 10)


@SETTINGS
@given(data=st.data(), shape=shapes, name=st.sampled_from(["fft", "ifft", "irfft", "hfft"]),
       dtype=st.sampled_from([np.complex64, np.complex128]), norm=NORMS,
       n=st.none() | st.integers(2, 9))
def test_one_dimensional_complex_input(data, shape, name, dtype, norm, n):
    x = draw(data, shape, dtype)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    if name in ("irfft", "hfft") and n is None and shape[axis] < 2:
        n = 2
    got = getattr(ax.fft, name)(ax.asarray(x), n=n, axis=axis, norm=norm)
    check(got, getattr(np.fft, name)(x, n=n, axis=axis, norm=norm))


@SETTINGS
@given(data=st.data(), shape=shapes, name=st.sampled_from(["rfft", "ihfft", "fft"]),
       dtype=st.sampled_from([np.float32, np.float64]), norm=NORMS,
       n=st.none() | st.integers(1, 9))
def test_one_dimensional_real_input(data, shape, name, dtype, norm, n):
    x = draw(data, shape, dtype)
    got = getattr(ax.fft, name)(ax.asarray(x), n=n, norm=norm)
    check(got, getattr(np.fft, name)(x, n=n, norm=norm))


@SETTINGS
@given(data=st.data(), shape=shapes, name=st.sampled_from(["fftn", "ifftn", "rfftn",
                                                            "irfftn"]), norm=NORMS)
def test_n_dimensional(data, shape, name, norm):
    dtype = np.float64 if name == "rfftn" else np.complex128
    x = draw(data, shape, dtype)
    axes = data.draw(st.none() | st.lists(st.integers(0, len(shape) - 1), min_size=1,
                                          unique=True), label="axes")
    sel = list(range(len(shape))) if axes is None else axes
    s = data.draw(st.none() | st.tuples(*[st.integers(2, 7) for _ in sel]), label="s")
    if axes is None and s is not None:
        s = None
    if name == "irfftn" and s is None and shape[sel[-1]] < 2:
        s = tuple(shape[a] for a in sel[:-1]) + (2,)
    got = getattr(ax.fft, name)(ax.asarray(x), s=s, axes=axes, norm=norm)
    check(got, getattr(np.fft, name)(x, s=s, axes=axes, norm=norm))


def test_transform_of_a_strided_view():
    x = np.arange(24.0).reshape(4, 6) + 1j
    a = ax.asarray(x)[:, ::2].mT
    check(ax.fft.fft(a), np.fft.fft(x[:, ::2].T))


@given(n=st.integers(1, 40), d=st.floats(0.1, 5), dtype=st.sampled_from([None, "float32"]))
@SETTINGS
def test_frequencies(n, d, dtype):
    dt = ax.float32 if dtype else None
    expected = np.fft.fftfreq(n, d).astype(dtype or np.float64)
    check(ax.fft.fftfreq(n, d=d, dtype=dt), expected)
    check(ax.fft.rfftfreq(n, d=d, dtype=dt), np.fft.rfftfreq(n, d).astype(dtype or np.float64))


@SETTINGS
@given(data=st.data(), shape=shapes)
def test_shifts(data, shape):
    x = draw(data, shape, np.float64)
    axes = data.draw(st.none() | st.integers(0, len(shape) - 1)
                     | st.lists(st.integers(0, len(shape) - 1), min_size=1, unique=True),
                     label="axes")
    np.testing.assert_array_equal(np.asarray(ax.fft.fftshift(ax.asarray(x), axes=axes)),
                                  np.fft.fftshift(x, axes=axes))
    np.testing.assert_array_equal(np.asarray(ax.fft.ifftshift(ax.asarray(x), axes=axes)),
                                  np.fft.ifftshift(x, axes=axes))


def test_bad_input():
    with pytest.raises(TypeError, match="int64"):
        ax.fft.fft(ax.asarray([1, 2, 3]))
    with pytest.raises(TypeError, match="complex128"):
        ax.fft.rfft(ax.asarray([1j, 2j]))
    with pytest.raises(ValueError):
        ax.fft.fft(ax.asarray([1j, 2j]), n=0)
    with pytest.raises(ValueError):
        ax.fft.fft(ax.asarray([1j, 2j]), norm="sideways")
    with pytest.raises(ValueError):
        ax.fft.fftfreq(0)
    with pytest.raises(TypeError):
        ax.fft.fftfreq(4, dtype=ax.int64)


def test_namespace_is_complete():
    names = {"fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft",
             "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"}
    assert names == set(ax.fft.__all__)

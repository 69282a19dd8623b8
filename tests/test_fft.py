"""arrayx.fft over drawn shapes, dtypes, lengths, axes and norms: shapes and dtypes as
numpy.fft gives them, values against the direct DFT of ``test_fft_dft`` (numpy.fft and
arrayx.fft both run pocketfft, so comparing their values could not catch a shared error)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fft_dft import dft, fit, hermitian

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


def direct(name: str, x: np.ndarray, n: int | None, axis: int, norm: str) -> np.ndarray:
    """The transform ``name`` of ``x`` along ``axis``, by the direct DFT."""
    half = name in ("irfft", "hfft")
    m = n if n is not None else (2 * (x.shape[axis] - 1) if half else x.shape[axis])
    if name in ("fft", "ifft"):
        return dft(x, m, axis, norm, inverse=name == "ifft")
    if name in ("rfft", "ihfft"):
        out = dft(x, m, axis, norm, inverse=name == "ihfft")
        return np.moveaxis(np.moveaxis(out, axis, -1)[..., : m // 2 + 1], -1, axis)
    return dft(hermitian(x, m, axis), m, axis, norm, inverse=name == "irfft").real


def direct_n(name: str, x: np.ndarray, s: tuple | None, axes: list, norm: str) -> np.ndarray:
    """The n-dimensional transform ``name`` by direct DFTs along ``axes`` (the last of them
    the half-spectrum axis of rfftn and irfftn)."""
    lengths = list(s) if s is not None else [x.shape[a] for a in axes]
    if name == "irfftn" and s is None:
        lengths[-1] = 2 * (x.shape[axes[-1]] - 1)
    inverse = name in ("ifftn", "irfftn")
    out = to_np(x, np.complex128)
    if name == "irfftn":
        for a, m in zip(axes[:-1], lengths[:-1], strict=True):
            out = dft(out, m, a, norm, inverse=True)
        return dft(hermitian(out, lengths[-1], axes[-1]), lengths[-1], axes[-1], norm,
                   inverse=True).real
    for a, m in zip(axes, lengths, strict=True):
        out = dft(fit(out, m, a), m, a, norm, inverse=inverse)
    if name == "rfftn":
        last, m = axes[-1], lengths[-1]
        out = np.moveaxis(np.moveaxis(out, last, -1)[..., : m // 2 + 1], -1, last)
    return out


def check(res, shape_of, want):
    """``res`` has numpy.fft's shape and dtype (``shape_of``) and the direct DFT's values."""
    res = to_np(res)
    assert res.dtype == shape_of.dtype
    assert res.shape == shape_of.shape == want.shape
    tol = 1e-4 if shape_of.dtype in (np.float32, np.complex64) else 1e-10
    size = max(1.0, float(np.abs(want).max(initial=0)))
    np.testing.assert_allclose(res, want, rtol=tol, atol=tol * size * 10)


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
    check(got, getattr(np.fft, name)(x, n=n, axis=axis, norm=norm),
          direct(name, x, n, axis, norm))


@SETTINGS
@given(data=st.data(), shape=shapes, name=st.sampled_from(["rfft", "ihfft", "fft"]),
       dtype=st.sampled_from([np.float32, np.float64]), norm=NORMS,
       n=st.none() | st.integers(1, 9))
def test_one_dimensional_real_input(data, shape, name, dtype, norm, n):
    x = draw(data, shape, dtype)
    got = getattr(ax.fft, name)(ax.asarray(x), n=n, norm=norm)
    check(got, getattr(np.fft, name)(x, n=n, norm=norm), direct(name, x, n, -1, norm))


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
    check(got, getattr(np.fft, name)(x, s=s, axes=axes, norm=norm),
          direct_n(name, x, s, sel, norm))


def test_transform_of_a_strided_view():
    x = np.arange(24.0).reshape(4, 6) + 1j
    a = ax.asarray(x)[:, ::2].mT
    check(ax.fft.fft(a), np.fft.fft(x[:, ::2].T), dft(x[:, ::2].T, 4, -1, "backward"))


@given(n=st.integers(1, 40), d=st.floats(0.1, 5), dtype=st.sampled_from([None, "float32"]))
@SETTINGS
def test_frequencies(n, d, dtype):
    dt = ax.float32 if dtype else None
    k = np.arange(n)
    want = np.where(k < (n + 1) // 2, k, k - n) / (n * d)  # the definition, not numpy.fft's
    expected = np.fft.fftfreq(n, d).astype(dtype or np.float64)
    check(ax.fft.fftfreq(n, d=d, dtype=dt), expected, want.astype(expected.dtype))
    expected = np.fft.rfftfreq(n, d).astype(dtype or np.float64)
    check(ax.fft.rfftfreq(n, d=d, dtype=dt), expected,
          (np.arange(n // 2 + 1) / (n * d)).astype(expected.dtype))


@SETTINGS
@given(data=st.data(), shape=shapes)
def test_shifts(data, shape):
    x = draw(data, shape, np.float64)
    axes = data.draw(st.none() | st.integers(0, len(shape) - 1)
                     | st.lists(st.integers(0, len(shape) - 1), min_size=1, unique=True),
                     label="axes")
    np.testing.assert_array_equal(to_np(ax.fft.fftshift(ax.asarray(x), axes=axes)),
                                  np.fft.fftshift(x, axes=axes))
    np.testing.assert_array_equal(to_np(ax.fft.ifftshift(ax.asarray(x), axes=axes)),
                                  np.fft.ifftshift(x, axes=axes))


@pytest.mark.parametrize("axes", [np.int64(1), np.int32(-1), np.array(0), ax.asarray(1)],
                         ids=["np.int64", "np.int32", "numpy 0-d", "arrayx 0-d"])
def test_shifts_take_any_integer_for_one_axis(axes):
    x = np.arange(12.0).reshape(3, 4)
    for ours, theirs in ((ax.fft.fftshift, np.fft.fftshift), (ax.fft.ifftshift, np.fft.ifftshift)):
        np.testing.assert_array_equal(to_np(ours(ax.asarray(x), axes=axes)),
                                      theirs(x, axes=int(axes)))


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

"""arrayx.fft against a direct DFT written here (an O(n^2) sum), Parseval and round trips.

The oracle is the definition ``X[k] = sum_j x[j] exp(-2 pi i j k / n)``, summed with NumPy
products in complex double precision, never ``numpy.fft``; the real and Hermitian transforms
are checked against the same sum over the Hermitian extension of their input.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_np
from hypothesis import given, settings
from hypothesis import strategies as st

import arrayx as ax

SETTINGS = settings(max_examples=50, deadline=None)
NORMS = ["backward", "ortho", "forward"]
TOL = {np.dtype("complex64"): 3e-5, np.dtype("float32"): 3e-5,
       np.dtype("complex128"): 1e-12, np.dtype("float64"): 1e-12}
shapes = st.lists(st.integers(1, 9), min_size=1, max_size=3).map(tuple)


def scale(n: int, norm: str, inverse: bool) -> float:
    """The factor a transform of length ``n`` applies under ``norm``."""
    if norm == "ortho":
        return n ** -0.5
    return 1.0 / n if (norm == "forward") != inverse else 1.0


def fit(x: np.ndarray, n: int, axis: int) -> np.ndarray:
    """``x`` cut or zero-padded to ``n`` along ``axis``."""
    x = np.moveaxis(x, axis, -1)[..., :n]
    pad = n - x.shape[-1]
    if pad:
        x = np.concatenate([x, np.zeros(x.shape[:-1] + (pad,), x.dtype)], axis=-1)
    return np.moveaxis(x, -1, axis)


def dft(x: np.ndarray, n: int, axis: int, norm: str, inverse: bool = False) -> np.ndarray:
    """The direct DFT of length ``n`` along ``axis``."""
    x = np.moveaxis(fit(to_np(x, np.complex128), n, axis), axis, -1)
    jk = np.outer(np.arange(n), np.arange(n)) % n  # exact angles: j*k reduced mod n
    w = np.exp((2j if inverse else -2j) * np.pi * jk / n)
    out = np.einsum("...j,jk->...k", x, w) * scale(n, norm, inverse)
    return np.moveaxis(out, -1, axis)


def hermitian(x: np.ndarray, n: int, axis: int) -> np.ndarray:
    """The length-``n`` Hermitian extension of the first ``n//2 + 1`` values of ``x``."""
    half = np.moveaxis(fit(to_np(x, np.complex128), n // 2 + 1, axis), axis, -1)
    full = np.zeros(half.shape[:-1] + (n,), np.complex128)
    full[..., : n // 2 + 1] = half
    k = np.arange(1, (n + 1) // 2)
    full[..., n - k] = np.conj(half[..., k])
    return np.moveaxis(full, -1, axis)


def check(got: ax.Array, want: np.ndarray, dtype: np.dtype) -> None:
    res = to_np(got)
    assert res.dtype == dtype, (res.dtype, dtype)
    assert res.shape == want.shape
    tol = TOL[dtype]
    size = max(1.0, float(np.abs(want).max(initial=0)))
    np.testing.assert_allclose(res, want, rtol=tol, atol=tol * size * 4)


def draw(seed: int, shape: tuple, dtype: str) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def complex_of(dtype: str) -> np.dtype:
    return np.dtype("complex64" if dtype in ("float32", "complex64") else "complex128")


def real_of(dtype: str) -> np.dtype:
    return np.dtype("float32" if dtype in ("float32", "complex64") else "float64")


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), shape=shapes, data=st.data(),
       dtype=st.sampled_from(["float32", "float64", "complex64", "complex128"]),
       norm=st.sampled_from(NORMS), n=st.none() | st.integers(1, 12))
def test_fft_and_ifft_are_the_direct_dft(seed, shape, data, dtype, norm, n) -> None:
    x = draw(seed, shape, dtype)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    m = shape[axis] if n is None else n
    a = ax.asarray(x)
    check(ax.fft.fft(a, n=n, axis=axis, norm=norm), dft(x, m, axis, norm), complex_of(dtype))
    check(ax.fft.ifft(a, n=n, axis=axis, norm=norm), dft(x, m, axis, norm, inverse=True),
          complex_of(dtype))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), shape=shapes, data=st.data(),
       dtype=st.sampled_from(["float32", "float64"]), norm=st.sampled_from(NORMS),
       n=st.none() | st.integers(1, 12))
def test_real_transforms_are_the_direct_dft(seed, shape, data, dtype, norm, n) -> None:
    x = draw(seed, shape, dtype)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    m = shape[axis] if n is None else n
    a = ax.asarray(x)
    # rfft: the first m//2 + 1 coefficients of the DFT.
    want = np.moveaxis(np.moveaxis(dft(x, m, axis, norm), axis, -1)[..., : m // 2 + 1], -1,
                       axis)
    check(ax.fft.rfft(a, n=n, axis=axis, norm=norm), want, complex_of(dtype))
    # ihfft: the first m//2 + 1 coefficients of the inverse DFT.
    want = np.moveaxis(np.moveaxis(dft(x, m, axis, norm, inverse=True), axis, -1)
                       [..., : m // 2 + 1], -1, axis)
    check(ax.fft.ihfft(a, n=n, axis=axis, norm=norm), want, complex_of(dtype))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), shape=shapes, data=st.data(),
       dtype=st.sampled_from(["complex64", "complex128"]), norm=st.sampled_from(NORMS),
       n=st.none() | st.integers(2, 12))
def test_hermitian_input_transforms_are_the_direct_dft(seed, shape, data, dtype, norm,
                                                        n) -> None:
    x = draw(seed, shape, dtype)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    m = 2 * (shape[axis] - 1) if n is None else n
    if m < 1:
        return
    a = ax.asarray(x)
    full = hermitian(x, m, axis)
    # irfft: the inverse DFT of the Hermitian extension, a real signal.
    check(ax.fft.irfft(a, n=n, axis=axis, norm=norm),
          dft(full, m, axis, norm, inverse=True).real, real_of(dtype))
    # hfft: the forward DFT of the Hermitian extension, a real spectrum.
    check(ax.fft.hfft(a, n=n, axis=axis, norm=norm), dft(full, m, axis, norm).real,
          real_of(dtype))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), data=st.data(),
       shape=st.lists(st.integers(1, 6), min_size=2, max_size=3).map(tuple),
       dtype=st.sampled_from(["float32", "float64", "complex128"]),
       norm=st.sampled_from(NORMS))
def test_n_dimensional_transforms_are_dfts_along_each_axis(seed, data, shape, dtype,
                                                           norm) -> None:
    x = draw(seed, shape, dtype)
    nd = len(shape)
    axes = data.draw(st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True),
                     label="axes")
    s = [data.draw(st.integers(1, 7), label="s") for _ in axes]
    a = ax.asarray(x)
    want, inv = x.astype(np.complex128), x.astype(np.complex128)
    for axis, n in zip(axes, s, strict=True):
        want = dft(want, n, axis, norm)
        inv = dft(inv, n, axis, norm, inverse=True)
    check(ax.fft.fftn(a, s=s, axes=axes, norm=norm), want, complex_of(dtype))
    check(ax.fft.ifftn(a, s=s, axes=axes, norm=norm), inv, complex_of(dtype))
    if dtype.startswith("float"):
        # rfftn: the full DFT over every axis, halved along the last one.
        last = axes[-1]
        half = np.moveaxis(np.moveaxis(want, last, -1)[..., : s[-1] // 2 + 1], -1, last)
        check(ax.fft.rfftn(a, s=s, axes=axes, norm=norm), half, complex_of(dtype))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), shape=shapes,
       dtype=st.sampled_from(["float32", "float64", "complex64", "complex128"]),
       norm=st.sampled_from(NORMS))
def test_round_trips_and_parseval(seed, shape, dtype, norm) -> None:
    x = draw(seed, shape, dtype)
    a = ax.asarray(x)
    n = shape[-1]
    spectrum = ax.fft.fft(a, norm=norm)
    check(ax.fft.ifft(spectrum, norm=norm), x.astype(complex_of(dtype)), complex_of(dtype))
    check(ax.fft.ifftn(ax.fft.fftn(a, norm=norm), norm=norm), x.astype(complex_of(dtype)),
          complex_of(dtype))
    # Parseval: sum |x|^2 = sum |X|^2 / n for the unnormalised forward transform.
    energy = float(np.sum(np.abs(x.astype(np.complex128)) ** 2, axis=-1).sum())
    s = to_np(spectrum).astype(np.complex128)
    factor = {"backward": 1 / n, "ortho": 1.0, "forward": float(n)}[norm]
    np.testing.assert_allclose(float(np.sum(np.abs(s) ** 2)) * factor, energy,
                               rtol=TOL[complex_of(dtype)] * 10)
    if dtype.startswith("float"):
        # Real signals of either parity come back from their half spectrum given n.
        check(ax.fft.irfft(ax.fft.rfft(a, norm=norm), n=n, norm=norm), x, real_of(dtype))
        check(ax.fft.hfft(ax.fft.ihfft(a, norm=norm), n=n, norm=norm), x, real_of(dtype))
        check(ax.fft.irfftn(ax.fft.rfftn(a, norm=norm), s=shape, norm=norm), x,
              real_of(dtype))


@pytest.mark.parametrize("n", [1, 2, 5, 8])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_frequencies_are_their_definition(n: int, d: float) -> None:
    want = [(k if k < (n + 1) // 2 else k - n) / (n * d) for k in range(n)]
    np.testing.assert_allclose(to_np(ax.fft.fftfreq(n, d=d)), want, rtol=1e-15)
    want = [k / (n * d) for k in range(n // 2 + 1)]
    np.testing.assert_allclose(to_np(ax.fft.rfftfreq(n, d=d)), want, rtol=1e-15)
    x = ax.arange(n)
    assert to_np(ax.fft.fftshift(x)).tolist() == [(k - n // 2) % n for k in range(n)]
    assert to_np(ax.fft.ifftshift(ax.fft.fftshift(x))).tolist() == list(range(n))

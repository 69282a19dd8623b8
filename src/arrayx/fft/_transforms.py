"""The discrete Fourier transforms: pocketfft (``numpy.fft``) on zero-copy views of arrayx
memory, the results adopted back without a copy. Single precision stays single precision.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from arrayx._array import Array
from arrayx._creation import asarray
from arrayx._data_type_functions import astype, isdtype
from arrayx._dtypes import complex64, complex128, float32

__all__ = [
    "fft", "fftn", "hfft", "ifft", "ifftn", "ihfft", "irfft", "irfftn", "rfft", "rfftn",
]

_NORMS = ("backward", "ortho", "forward")


def _input(x: object, name: str, real: bool) -> Array:
    """Check ``x``'s dtype; real floating input to a complex transform is cast to complex."""
    if not isinstance(x, Array):
        raise TypeError(f"fft.{name} expects an arrayx array, got {type(x).__name__}")
    if x.ndim == 0:
        raise ValueError(f"fft.{name} needs at least one dimension, got a 0-d array")
    if real:
        if not isdtype(x.dtype, "real floating"):
            raise TypeError(f"fft.{name} needs a real floating-point array, got {x.dtype}")
        return x
    if isdtype(x.dtype, "complex floating"):
        return x
    if isdtype(x.dtype, "real floating"):
        return astype(x, complex64 if x.dtype == float32 else complex128)
    raise TypeError(f"fft.{name} needs a floating-point array, got {x.dtype}")


def _norm(norm: str, name: str) -> str:
    if norm not in _NORMS:
        raise ValueError(f"fft.{name}: norm must be one of {_NORMS}, got {norm!r}")
    return norm


def _length(n: int | None, name: str) -> int | None:
    if n is None:
        return None
    if isinstance(n, bool):
        raise TypeError(f"fft.{name}: n must be an int, not a bool")
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"fft.{name}: n must be at least 1, got {n}")
    return n


def _one(fn, name: str, real: bool, x, n, axis, norm) -> Array:
    a = _input(x, name, real)
    out = fn(np.asarray(a), n=_length(n, name), axis=operator.index(axis),
             norm=_norm(norm, name))
    return asarray(out)


def _s_axes(a: Array, s: Sequence[int] | None, axes: Sequence[int] | None,
            name: str) -> tuple[list[int] | None, list[int]]:
    if axes is None:
        axes = list(range(a.ndim)) if s is None else list(range(-len(s), 0))
    else:
        axes = [operator.index(ax) for ax in axes]
    for ax in axes:
        if not -a.ndim <= ax < a.ndim:
            raise ValueError(f"fft.{name}: axis {ax} is out of range for {a.ndim} dimensions")
    if s is not None:
        s = [_length(v, name) for v in s]
        if len(s) != len(axes):
            raise ValueError(f"fft.{name}: s has {len(s)} entries for {len(axes)} axes")
    return s, axes


def _many(fn, name: str, real: bool, x, s, axes, norm) -> Array:
    a = _input(x, name, real)
    s, axes = _s_axes(a, s, axes, name)
    return asarray(fn(np.asarray(a), s=s, axes=axes, norm=_norm(norm, name)))


def fft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The one-dimensional discrete Fourier transform along ``axis``.

    Parameters
    ----------
    x : Array
        Complex (real floating input is converted to complex of the same precision).
    n : int, optional
        Transform length: ``x`` is cropped or zero-padded along ``axis``.
    axis : int
    norm : {'backward', 'ortho', 'forward'}
        Scale the forward transform by 1, ``1/sqrt(n)`` or ``1/n``.

    Returns
    -------
    Array
        ``x``'s complex dtype; ``axis`` has length ``n``.
    """
    return _one(np.fft.fft, "fft", False, x, n, axis, norm)


def ifft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The one-dimensional inverse discrete Fourier transform (arguments as ``fft``)."""
    return _one(np.fft.ifft, "ifft", False, x, n, axis, norm)


def fftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str = "backward") -> Array:
    """The n-dimensional discrete Fourier transform.

    Parameters
    ----------
    x : Array
        Complex (real floating input is converted to complex of the same precision).
    s : sequence of ints, optional
        Transform length along each of ``axes`` (crop or zero-pad).
    axes : sequence of ints, optional
        Default: every axis, or the last ``len(s)`` axes when ``s`` is given.
    norm : {'backward', 'ortho', 'forward'}

    Returns
    -------
    Array
    """
    return _many(np.fft.fftn, "fftn", False, x, s, axes, norm)


def ifftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str = "backward") -> Array:
    """The n-dimensional inverse discrete Fourier transform (arguments as ``fftn``)."""
    return _many(np.fft.ifftn, "ifftn", False, x, s, axes, norm)


def rfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The one-dimensional transform of real input: the ``n // 2 + 1`` non-negative
    frequencies along ``axis``, complex of ``x``'s precision."""
    return _one(np.fft.rfft, "rfft", True, x, n, axis, norm)


def irfft(x: Array, /, *, n: int | None = None, axis: int = -1,
          norm: str = "backward") -> Array:
    """The inverse of ``rfft``: a real array of length ``n`` (default ``2 * (m - 1)``)
    along ``axis``."""
    return _one(np.fft.irfft, "irfft", False, x, n, axis, norm)


def rfftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str = "backward") -> Array:
    """The n-dimensional transform of real input (the last axis halved as in ``rfft``)."""
    return _many(np.fft.rfftn, "rfftn", True, x, s, axes, norm)


def irfftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: str = "backward") -> Array:
    """The inverse of ``rfftn``: real output, the last axis of length ``s[-1]`` (default
    ``2 * (m - 1)``)."""
    return _many(np.fft.irfftn, "irfftn", False, x, s, axes, norm)


def hfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The transform of a Hermitian-symmetric signal given by its first half: real output
    of length ``n`` (default ``2 * (m - 1)``) along ``axis``."""
    return _one(np.fft.hfft, "hfft", False, x, n, axis, norm)


def ihfft(x: Array, /, *, n: int | None = None, axis: int = -1,
          norm: str = "backward") -> Array:
    """The inverse of ``hfft`` for real input: ``n // 2 + 1`` complex values along ``axis``."""
    return _one(np.fft.ihfft, "ihfft", True, x, n, axis, norm)

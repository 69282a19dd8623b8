"""FFT helper functions: sample frequencies and zero-frequency shifts, in arrayx kernels."""

from __future__ import annotations

import operator
from collections.abc import Sequence

from arrayx._array import Array
from arrayx._creation import arange, empty, empty_like
from arrayx._data_type_functions import astype, isdtype
from arrayx._docfill import fill, sections
from arrayx._dtypes import as_dtype, float64, int64

__all__ = ["fftfreq", "fftshift", "ifftshift", "rfftfreq"]


def _freq_args(n: int, d: float, dtype: object, name: str) -> tuple[int, float, object]:
    if isinstance(n, bool):
        raise TypeError(f"fft.{name}: n must be an int, not a bool")
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"fft.{name}: n must be at least 1, got {n}")
    dtype = float64 if dtype is None else as_dtype(dtype)
    if not isdtype(dtype, "real floating"):
        raise TypeError(f"fft.{name}: dtype must be a real floating-point dtype, got {dtype}")
    d = float(d)
    if d == 0:
        raise ValueError(f"fft.{name}: the sample spacing d must not be 0")
    return n, d, dtype


def fftfreq(n: int, /, *, d: float = 1.0, dtype: object = None, device: object = None) -> Array:
    """The sample frequencies of an ``n``-point ``fft``, in cycles per unit of ``d``.

    For even ``n``: ``[0, 1, ..., n//2 - 1, -n//2, ..., -1] / (n * d)``.

    %(frequency_sections)s

    %(examples)s
    >>> xp.fft.fftfreq(4)
    Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64)
    >>> xp.fft.fftfreq(5, d=0.5)
    Array([ 0. ,  0.4,  0.8, -0.8, -0.4], dtype=float64)
    """
    n, d, dtype = _freq_args(n, d, dtype, "fftfreq")
    k = empty((n,), dtype=int64, device=device)
    half = (n - 1) // 2 + 1
    k[:half] = arange(0, half, dtype=int64, device=device)
    k[half:] = arange(-(n // 2), 0, dtype=int64, device=device)
    return astype(astype(k, float64) * (1.0 / (n * d)), dtype, copy=False)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: object = None, device: object = None) -> Array:
    """The non-negative sample frequencies of an ``n``-point ``rfft``.

    ``[0, 1, ..., n // 2] / (n * d)``.

    %(frequency_sections)s

    %(examples)s
    >>> xp.fft.rfftfreq(4)
    Array([0.  , 0.25, 0.5 ], dtype=float64)
    """
    n, d, dtype = _freq_args(n, d, dtype, "rfftfreq")
    k = arange(0, n // 2 + 1, dtype=float64, device=device)
    return astype(k * (1.0 / (n * d)), dtype, copy=False)


def _roll_halves(x: object, axes: int | Sequence[int] | None, inverse: bool,
                 name: str) -> Array:
    """``x`` rolled by half of each of ``axes`` (back by half for ``inverse``), one copy."""
    if not isinstance(x, Array):
        raise TypeError(f"fft.{name} expects an arrayx array, got {type(x).__name__}")
    if axes is None:
        axes = range(x.ndim)
    elif hasattr(axes, "__index__"):  # an int, a NumPy integer, a 0-d integer array
        axes = (operator.index(axes),)
    shift = [0] * x.ndim
    for ax in axes:
        ax = operator.index(ax)
        if not -x.ndim <= ax < x.ndim:
            raise ValueError(f"fft.{name}: axis {ax} is out of range for {x.ndim} dimensions")
        size = x.shape[ax]
        shift[ax % x.ndim] += -(size // 2) if inverse else size // 2
    out = empty_like(x)
    pieces: list[tuple] = [()]
    for ax in range(x.ndim):
        size = x.shape[ax]
        s = shift[ax] % size if size else 0
        options = [(slice(0, size - s), slice(s, size)), (slice(size - s, size), slice(0, s))]
        pieces = [p + (o,) for p in pieces for o in (options if s else options[:1])]
    for p in pieces:
        out[tuple(o[1] for o in p)] = x[tuple(o[0] for o in p)]
    return out


def fftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """``x`` with the zero-frequency term moved to the centre of each of ``axes``.

    %(shift_sections)s

    %(examples)s
    >>> xp.fft.fftshift(xp.fft.fftfreq(5))
    Array([-0.4, -0.2,  0. ,  0.2,  0.4], dtype=float64)
    """
    return _roll_halves(x, axes, False, "fftshift")


def ifftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """The inverse of ``fftshift``: the zero-frequency term moved back to the start.

    The two differ for odd lengths.

    %(shift_sections)s

    %(examples)s
    >>> xp.fft.ifftshift(xp.fft.fftshift(xp.fft.fftfreq(5)))
    Array([ 0. ,  0.2,  0.4, -0.4, -0.2], dtype=float64)
    """
    return _roll_halves(x, axes, True, "ifftshift")


fill([fftfreq, fftshift, ifftshift, rfftfreq],
     shift_sections=sections([
         "x : Array\n    The array to shift.",
         "axes : int or sequence of ints, optional\n    The axes to shift; default every axis."],
         "returns_new"),
     frequency_sections=sections([
         "n : int\n    The window length; at least 1.",
         "d : float, optional\n    The sample spacing (default 1.0); not zero.",
         "dtype : dtype, optional\n    A real floating dtype; default ``float64``.",
         "device : Device or str, optional\n"
         "    Where the result lives; default the default device."],
         "The frequencies, ``n`` (``fftfreq``) or ``n // 2 + 1`` (``rfftfreq``) of them.", [
         "ValueError\n    If ``n`` is less than 1 or ``d`` is zero.",
         "TypeError\n    If ``n`` is not an int or ``dtype`` is not real floating."]))

"""The discrete Fourier transforms: the arguments checked here, the transform run by the
library of the input's device (``_devices.backend(device).fft``): on the CPU pocketfft
(``numpy.fft``) on zero-copy views of arrayx memory, the results adopted back without a copy
(``_host_fft``, registered here), a long 1-D complex transform by the four-step algorithm; on
a GPU cuFFT. Single precision stays single precision.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from arrayx._array import Array, on_host_device
from arrayx._creation import asarray
from arrayx._data_type_functions import astype, isdtype
from arrayx._devices import CPU, backend, register_host
from arrayx._docfill import fill, sections
from arrayx._dtypes import complex64, complex128, float32
from arrayx.fft import _four_step

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


def _host_fft(name: str, a: Array, **kwargs: object) -> Array:
    """``numpy.fft.<name>(a, **kwargs)`` (NumPy's keywords) for an array in the CPU's memory,
    on its device: a test device's array is seen as a CPU array of the same memory and its
    result tagged back. A long 1-D ``fft``/``ifft`` runs by the four-step algorithm."""
    x = on_host_device(a, CPU)
    out = None
    if (name in ("fft", "ifft") and x.ndim == 1 and kwargs.get("n") in (None, x.shape[0])
            and kwargs.get("axis") in (0, -1)):
        out = _four_step.transform(x, name == "ifft", kwargs["norm"])
    if out is None:
        out = asarray(getattr(np.fft, name)(np.asarray(x), **kwargs), device=CPU)
    return on_host_device(out, a.device)


register_host(fft=_host_fft)


def _one(name: str, real: bool, x, n, axis, norm) -> Array:
    a = _input(x, name, real)
    return backend(a.device).fft(name, a, n=_length(n, name), axis=operator.index(axis),
                                 norm=_norm(norm, name))


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


def _many(name: str, real: bool, x, s, axes, norm) -> Array:
    a = _input(x, name, real)
    s, axes = _s_axes(a, s, axes, name)
    return backend(a.device).fft(name, a, s=s, axes=axes, norm=_norm(norm, name))


# Docstring blocks that the transforms share (``_docfill``).
_BLOCKS = {
    "x": """\
x : Array
    A floating-point array; real input is converted to complex of the same precision.""",
    "axis": """\
axis : int, optional
    The axis to transform; default -1, the last.""",
    "s_axes": """\
s : sequence of ints, optional
    The transform length along each of ``axes`` (crop or zero-pad).
%(axes)s""",
    "axes": """\
axes : sequence of ints, optional
    The axes to transform; default every axis, or the last ``len(s)`` when ``s`` is given.""",
    "norm": """\
norm : {"backward", "ortho", "forward"}, optional
    Which direction is scaled: "backward" (default) scales the inverse transform by ``1/n``,
    "ortho" both by ``1/sqrt(n)``, "forward" the forward transform by ``1/n``.""",
    "raises": """\
Raises
------
TypeError
    If ``x`` is not an arrayx array of a floating dtype.
ValueError
    If ``x`` is 0-d, ``norm`` is unknown, or a length is less than 1.""",
    "n": """\
n : int, optional
    The transform length: ``x`` is cropped or zero-padded along ``axis`` to it; default
    ``x.shape[axis]``.""",
    "raises_real": """\
Raises
------
TypeError
    If ``x`` is not an arrayx array of a real floating dtype.
ValueError
    If ``x`` is 0-d, ``norm`` is unknown, or a length is less than 1.""",
    "x_real": """\
x : Array
    A real floating-point array.""",
}


def fft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The one-dimensional discrete Fourier transform along ``axis``.

    %(one_sections)s

    %(examples)s
    >>> xp.fft.fft(xp.asarray([1.0, 0.0, 0.0, 0.0]))
    Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128)
    >>> xp.fft.fft(xp.asarray([1.0, 1.0, 1.0, 1.0]))
    Array([4.+0.j, 0.+0.j, 0.+0.j, 0.+0.j], dtype=complex128)
    """
    return _one("fft", False, x, n, axis, norm)


def ifft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The one-dimensional inverse discrete Fourier transform along ``axis``.

    %(one_sections)s

    %(examples)s
    >>> xp.fft.ifft(xp.asarray([4.0, 0.0, 0.0, 0.0]))
    Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128)
    """
    return _one("ifft", False, x, n, axis, norm)


def fftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str = "backward") -> Array:
    """The n-dimensional discrete Fourier transform over ``axes``.

    %(many_sections)s

    %(examples)s
    >>> xp.fft.fftn(xp.ones((2, 2)))
    Array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]], dtype=complex128)
    """
    return _many("fftn", False, x, s, axes, norm)


def ifftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str = "backward") -> Array:
    """The n-dimensional inverse discrete Fourier transform over ``axes``.

    %(many_sections)s

    %(examples)s
    >>> xp.fft.ifftn(xp.asarray([[4.0, 0.0], [0.0, 0.0]]))
    Array([[1.+0.j, 1.+0.j],
           [1.+0.j, 1.+0.j]], dtype=complex128)
    """
    return _many("ifftn", False, x, s, axes, norm)


def rfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The one-dimensional discrete Fourier transform of real input: the non-negative frequencies.

    %(real_input_sections)s

    %(examples)s
    >>> xp.fft.rfft(xp.asarray([1.0, 1.0, 1.0, 1.0]))
    Array([4.+0.j, 0.+0.j, 0.+0.j], dtype=complex128)
    """
    return _one("rfft", True, x, n, axis, norm)


def irfft(x: Array, /, *, n: int | None = None, axis: int = -1,
          norm: str = "backward") -> Array:
    """The inverse of ``rfft``: a real signal from its non-negative frequencies.

    Parameters
    ----------
    x : Array
        A floating-point array of the non-negative frequency terms.
    %(real_output_sections)s

    %(examples)s
    >>> xp.fft.irfft(xp.asarray([4.0 + 0j, 0j, 0j]))
    Array([1., 1., 1., 1.], dtype=float64)
    """
    return _one("irfft", False, x, n, axis, norm)


def rfftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str = "backward") -> Array:
    """The n-dimensional discrete Fourier transform of real input.

    The last transformed axis is halved as in ``rfft``.

    Parameters
    ----------
    %(x_real)s
    s : sequence of ints, optional
        The number of input points used along each of ``axes`` (crop or zero-pad).
    %(axes)s
    %(norm)s

    Returns
    -------
    Array
        Complex of ``x``'s precision; the last transformed axis of length ``s[-1] // 2 + 1``.

    %(raises_real)s

    %(examples)s
    >>> xp.fft.rfftn(xp.ones((2, 4)))
    Array([[8.+0.j, 0.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j, 0.+0.j]], dtype=complex128)
    """
    return _many("rfftn", True, x, s, axes, norm)


def irfftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: str = "backward") -> Array:
    """The inverse of ``rfftn``: real output, the last transformed axis of length ``s[-1]``.

    Parameters
    ----------
    x : Array
        A floating-point array of the transform's terms.
    s : sequence of ints, optional
        The output length along each of ``axes``; the last defaults to ``2 * (m - 1)``.
    %(axes)s
    %(norm)s

    Returns
    -------
    Array
        Real of ``x``'s precision.

    %(raises)s

    %(examples)s
    >>> xp.fft.irfftn(xp.asarray([[8.0 + 0j, 0j, 0j], [0j, 0j, 0j]]))
    Array([[1., 1., 1., 1.],
           [1., 1., 1., 1.]], dtype=float64)
    """
    return _many("irfftn", False, x, s, axes, norm)


def hfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The transform of a Hermitian-symmetric signal given by its first half: a real spectrum.

    Parameters
    ----------
    x : Array
        A floating-point array: the first half of a signal with Hermitian symmetry.
    %(real_output_sections)s

    %(examples)s
    >>> xp.fft.hfft(xp.asarray([1.0 + 0j, 0j, 0j]))
    Array([1., 1., 1., 1.], dtype=float64)
    """
    return _one("hfft", False, x, n, axis, norm)


def ihfft(x: Array, /, *, n: int | None = None, axis: int = -1,
          norm: str = "backward") -> Array:
    """The inverse of ``hfft`` for real input: the first half of a Hermitian-symmetric signal.

    %(real_input_sections)s

    %(examples)s
    >>> r = xp.fft.ihfft(xp.asarray([1.0, 1.0, 1.0, 1.0]))
    >>> r.dtype, xp.real(r)
    (dtype('complex128'), Array([1., 0., 0.], dtype=float64))
    """
    return _one("ihfft", True, x, n, axis, norm)


fill([fft, fftn, hfft, ifft, ifftn, ihfft, irfft, irfftn, rfft, rfftn], **_BLOCKS,
     one_sections=sections(
         ["x", "n", "axis", "norm"],
         "``x``'s complex dtype (``complex64`` for ``float32`` input); ``axis`` of length ``n``."
     ) + "\n\n%(raises)s",
     many_sections=sections(
         ["x", "s_axes", "norm"],
         "``x``'s complex dtype; each transformed axis of its length in ``s``."
     ) + "\n\n%(raises)s",
     real_input_sections=sections([
         "x_real",
         "n : int, optional\n"
         "    The number of input points used (cropped or zero-padded); default ``x.shape[axis]``.",
         "axis", "norm"], "Complex of ``x``'s precision; ``axis`` of length ``n // 2 + 1``."
     ) + "\n\n%(raises_real)s",
     real_output_sections="""\
n : int, optional
    The length of the output along ``axis``; default ``2 * (m - 1)`` for ``m`` input
    points.
%(axis)s
%(norm)s

Returns
-------
Array
    Real of ``x``'s precision; ``axis`` of length ``n``.

%(raises)s""")

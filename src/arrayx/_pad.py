"""``pad``: an extension, shaped as NumPy's, for the modes xarray and scikit-learn use.

Constant padding joins blocks of the fill value; the other modes gather along each padded axis
with an index vector (``take``), so every mode is one copy per axis on arrayx's kernels.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from arrayx._array import Array
from arrayx._core.layout import joined_extent
from arrayx._creation import arange, asarray, full, zeros_like
from arrayx._dtypes import int64
from arrayx._elementwise import clip, remainder
from arrayx._indexing import take
from arrayx._manipulation import concat
from arrayx._searching import where

INT64_MAX = (1 << 63) - 1

__all__ = ["pad"]

MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def _pairs(value: object, ndim: int, name: str, as_number: object) -> list[tuple]:
    """``value`` broadcast to one ``(before, after)`` pair per axis, as ``numpy.pad`` does."""
    if isinstance(value, Array):
        value = value.__array__()
    try:
        table = np.broadcast_to(np.asarray(value, dtype=object), (ndim, 2))
    except ValueError:
        raise ValueError(f"pad: {name} must be a number, a pair, or one pair per axis "
                         f"({ndim}); got {value!r}") from None
    return [(as_number(before), as_number(after)) for before, after in table.tolist()]


def _width(v: object) -> int:
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError(f"pad: widths must be integers, not {type(v).__name__}")
    w = operator.index(v)
    if w < 0:
        raise ValueError(f"pad: widths must be non-negative, got {w}")
    return w


def _fill(v: object) -> object:
    if isinstance(v, np.generic):
        v = v.item()  # a NumPy scalar, as xarray passes
    if not isinstance(v, (bool, int, float, complex)):
        raise TypeError(f"pad: constant_values must be numbers, not {type(v).__name__}")
    return v


def _source(before: int, n: int, after: int, mode: str, device: object) -> Array:
    """The index along an axis of length ``n`` that each of the ``before + n + after``
    positions of the padded axis copies in ``mode``, computed by arrayx's kernels (one
    ``arange`` and a few elementwise passes, no Python loop)."""
    i = arange(-before, n + after, dtype=int64, device=device)
    if mode == "edge":
        return clip(i, 0, n - 1)
    if mode == "wrap":
        return remainder(i, n)
    if mode == "symmetric":
        j = remainder(i, 2 * n)
        return where(j < n, j, 2 * n - 1 - j)
    if n == 1:  # reflect about a single element repeats it
        return zeros_like(i)
    j = remainder(i, 2 * n - 2)
    return where(j < n, j, 2 * n - 2 - j)


def pad(x: Array, /, pad_width: object, mode: str = "constant", *,
        constant_values: object = 0) -> Array:
    """``x`` padded along each axis, as ``numpy.pad`` pads (an extension).

    Parameters
    ----------
    x : Array
        The array to pad.
    pad_width : int, pair of ints, or sequence of pairs
        How many elements to add before and after each axis: ``n`` for every side,
        ``(before, after)`` for every axis, or one ``(before, after)`` per axis.
    mode : str, optional
        ``"constant"`` (default: ``constant_values``), ``"edge"`` (the edge value),
        ``"reflect"`` (mirrored about the edge, which is not repeated), ``"symmetric"``
        (mirrored, the edge repeated) or ``"wrap"`` (from the other end).
    constant_values : scalar, pair, or sequence of pairs, optional
        The values of ``"constant"`` mode, broadcast as ``pad_width`` is; default 0.

    Returns
    -------
    Array
        A new array of ``x``'s dtype, each axis ``before + after`` longer.

    Raises
    ------
    ValueError
        If ``mode`` is not one of the above, a width is negative, ``pad_width`` does not fit
        ``x``'s dimensions, or an empty axis is padded in a mode other than ``"constant"``.
    TypeError
        If a width is not an integer.

    Examples
    --------
    >>> import arrayx as xp
    >>> x = xp.asarray([1, 2, 3])
    >>> xp.pad(x, (2, 1))
    Array([0, 0, 1, 2, 3, 0], dtype=int64)
    >>> xp.pad(x, 2, mode="reflect")
    Array([3, 2, 1, 2, 3, 2, 1], dtype=int64)
    >>> xp.pad(xp.asarray([[1.0, 2.0]]), ((1, 0), (0, 1)), mode="edge")
    Array([[1., 2., 2.],
           [1., 2., 2.]], dtype=float64)
    """
    if not isinstance(x, Array):
        raise TypeError(f"pad expects an arrayx array, got {type(x).__name__}")
    if mode not in MODES:
        raise ValueError(f"pad: mode must be one of {', '.join(MODES)}; got {mode!r}")
    widths = _pairs(pad_width, x.ndim, "pad_width", _width)
    fills = _pairs(constant_values, x.ndim, "constant_values", _fill) \
        if mode == "constant" else None
    final = math.prod(before + n + after for n, (before, after) in zip(x.shape, widths,
                                                                        strict=True))
    if final * x.dtype.itemsize > INT64_MAX:
        # Before any work: axis by axis, the intermediates grew to memory's end first.
        raise ValueError(f"pad: the result of {final} elements is too big")
    out = x
    for axis, (before, after) in enumerate(widths):
        if before == 0 and after == 0:
            continue
        n = out.shape[axis]
        joined_extent((before, n, after))  # ValueError before any work if it overflows
        if mode == "constant":
            parts = []
            for width, value in ((before, fills[axis][0]), (0, None), (after, fills[axis][1])):
                if value is None:
                    parts.append(out)
                elif width:
                    shape = out.shape[:axis] + (width,) + out.shape[axis + 1:]
                    parts.append(full(shape, value, dtype=out.dtype, device=out.device))
            out = concat(parts, axis=axis)
            continue
        if n == 0:
            raise ValueError(f"pad: cannot pad an empty axis ({axis}) in {mode!r} mode")
        out = take(out, _source(before, n, after, mode, out.device), axis=axis)
    return out if out is not x else asarray(x, copy=True)

"""Vector and matrix norms, on arrayx's own kernels.

Vector norms are folds (``sum``, ``max``, ``min``) of ``abs`` and its powers; the 2-norm sums
squares (one BLAS dot for the whole of a real array) and, where that overflows or
underflows, sums again scaled by the largest modulus (as LAPACK's ``nrm2`` scales). Matrix
norms are abs-sum folds (orders 1, -1, inf, -inf), the Frobenius 2-norm, or folds of
``svdvals`` (orders 2, -2 and 'nuc').
"""

from __future__ import annotations

import math

from arrayx._array import Array
from arrayx._creation import zeros
from arrayx._data_type_functions import astype, finfo, isdtype
from arrayx._docfill import fill
from arrayx._elementwise import (
    abs,
    imag,
    isfinite,
    isinf,
    less,
    logical_or,
    real,
    sqrt,
    square,
)
from arrayx._manipulation import reshape
from arrayx._searching import where
from arrayx._statistical import max, min, sum
from arrayx._utility import any
from arrayx.linalg._bridge import array_arg, as_inexact, floating_stack
from arrayx.linalg._decompositions import svdvals
from arrayx.linalg._matmul import matmul

__all__ = ["matrix_norm", "vector_norm"]


def vector_norm(
    x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False,
    ord: int | float = 2,
) -> Array:
    """The vector ``ord``-norm of ``x`` over ``axis`` (all axes by default).

    Parameters
    ----------
    x : Array
        Integer input is converted to float64 first.
    axis : int or tuple of ints, optional
        The axes holding the vectors; None flattens ``x``.
    keepdims : bool
        Keep the reduced axes with size 1.
    ord : int or float
        ``p`` of the p-norm; ``inf``/``-inf`` give the largest/smallest modulus, 0 the count
        of non-zero elements.

    Returns
    -------
    Array
        The real floating dtype of ``x``'s precision.

    %(examples)s
    >>> x = xp.asarray([3.0, -4.0])
    >>> xp.linalg.vector_norm(x)
    Array(5., dtype=float64)
    >>> xp.linalg.vector_norm(x, ord=1)
    Array(7., dtype=float64)
    >>> xp.linalg.vector_norm(x, ord=xp.inf)
    Array(4., dtype=float64)
    """
    a = as_inexact(array_arg(x, "vector_norm"))
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise ValueError(f"vector_norm: ord must be a number, got {ord!r}")
    return _vector_norm(a, axis, bool(keepdims), ord)

def matrix_norm(
    x: Array, /, *, keepdims: bool = False, ord: int | float | str | None = "fro",
) -> Array:
    """The matrix norm of each matrix of ``x``.

    Parameters
    ----------
    %(x_matrices)s
    keepdims : bool
        Keep the two matrix axes with size 1.
    ord : {'fro', 'nuc', 1, -1, 2, -2, inf, -inf}
        Frobenius, nuclear, max/min column sum, largest/smallest singular value, max/min row
        sum.

    Returns
    -------
    Array
        The real floating dtype of ``x``'s precision, shape ``x.shape[:-2]``.

    Raises
    ------
    %(raises_not_float)s
    ValueError
        If ``ord`` is not one of the orders above.

    %(examples)s
    >>> x = xp.asarray([[3.0, 0.0], [0.0, 4.0]])
    >>> xp.linalg.matrix_norm(x)
    Array(5., dtype=float64)
    >>> xp.linalg.matrix_norm(x, ord=2)
    Array(4., dtype=float64)
    """
    a = floating_stack(x, "matrix_norm")
    if ord == "fro":
        out = _two_norm(a, (-2, -1), False)
    elif ord == "nuc":
        out = sum(svdvals(a), axis=-1)
    elif isinstance(ord, bool) or ord not in (1, -1, 2, -2, math.inf, -math.inf):
        raise ValueError(f"matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, "
                         f"got {ord!r}")
    elif ord in (2, -2):
        out = last_axis_extreme(svdvals(a), ord > 0)
    else:
        # 1/-1: the largest/smallest column sum; inf/-inf: the largest/smallest row sum.
        out = last_axis_extreme(sum(abs(a), axis=-2 if ord in (1, -1) else -1), ord > 0)
    return reshape(out, out.shape + (1, 1)) if keepdims else out


def last_axis_extreme(v: Array, largest: bool) -> Array:
    """The largest (smallest) of the non-negative ``v`` along its last axis; 0 for the
    largest over an empty axis (the 1-, 2- and inf-norms of an empty matrix, as NumPy and
    PyTorch give). The smallest over an empty axis has no value, as in NumPy (ValueError)."""
    if largest and v.shape[-1] == 0:
        return zeros(v.shape[:-1], dtype=v.dtype, device=v.device)
    return (max if largest else min)(v, axis=-1)


def _vector_norm(a: Array, axis: int | tuple[int, ...] | None, keepdims: bool,
                 ord: float) -> Array:
    """The ``ord``-norm of the floating-point ``a`` over ``axis``."""
    if ord == 2:
        return _two_norm(a, axis, keepdims)
    m = abs(a)
    if ord == math.inf:
        return max(m, axis=axis, keepdims=keepdims)
    if ord == -math.inf:
        return min(m, axis=axis, keepdims=keepdims)
    if ord == 0:
        return sum(astype(m != 0, m.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return sum(m, axis=axis, keepdims=keepdims)
    return sum(m ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _every_axis(axis: int | tuple[int, ...] | None, ndim: int) -> bool:
    """Whether ``axis`` names every one of ``ndim`` axes."""
    if axis is None:
        return True
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    return len(axes) == ndim and {int(i) % ndim for i in axes} == set(range(ndim))


def _squares(a: Array) -> Array:
    if isdtype(a.dtype, "complex floating"):
        return square(real(a)) + square(imag(a))
    return square(a)


# The smallest 2-norm whose sum of squares is trusted, by dtype.
_LOW: dict[object, float] = {}


def _two_norm(a: Array, axis: int | tuple[int, ...] | None, keepdims: bool) -> Array:
    """The 2-norm over ``axis``: the root of the sum of squares, computed again scaled by
    the largest modulus for the vectors whose sum of squares overflowed or underflowed."""
    if not isdtype(a.dtype, "complex floating") and _every_axis(axis, a.ndim):
        # All of a real array: one BLAS dot of the flattened values, no temporary of squares.
        flat = reshape(a, (-1,))
        out = sqrt(matmul(flat, flat))
        if keepdims:
            out = reshape(out, (1,) * a.ndim)
    else:
        out = sqrt(sum(_squares(a), axis=axis, keepdims=keepdims))
    # Below sqrt(tiny / eps) squares lost to underflow can matter; inf may be an overflow.
    low = _LOW.get(out.dtype)
    if low is None:
        info = finfo(out.dtype)
        low = _LOW[out.dtype] = math.sqrt(info.smallest_normal / info.eps)
    if a.size == 0:
        return out
    if out.ndim == 0:
        v = float(out)
        return out if low <= v < math.inf or v != v else _scaled_two_norm(a, axis, keepdims)
    bad = logical_or(isinf(out), less(out, low))
    return where(bad, _scaled_two_norm(a, axis, keepdims), out) if bool(any(bad)) else out


def _scaled_two_norm(a: Array, axis: int | tuple[int, ...] | None, keepdims: bool) -> Array:
    """The 2-norm over ``axis`` as ``max|a| * norm(a / max|a|)``, as LAPACK's ``nrm2``
    scales: no square overflows, and the largest is 1, far from underflow."""
    m = abs(a)
    top = max(m, axis=axis, keepdims=True)
    # Scale by the largest modulus where it is finite and not 0 (an infinite one is the norm).
    scale = where(logical_or(~isfinite(top), top == 0), 1.0, top)
    scaled = sqrt(sum(square(m / scale), axis=axis, keepdims=keepdims))
    return scaled * (scale if keepdims else reshape(scale, scaled.shape))


fill([matrix_norm, vector_norm])

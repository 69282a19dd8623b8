"""Products built on ``matmul`` and the elementwise engine: tensordot, vecdot, outer, cross."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

from arrayx._array import Array
from arrayx._creation import empty
from arrayx._data_type_functions import astype, isdtype, result_type
from arrayx._docfill import fill
from arrayx._elementwise import conj, multiply, subtract
from arrayx._manipulation import (
    broadcast_shapes,
    broadcast_to,
    expand_dims,
    permute_dims,
    reshape,
)
from arrayx._statistical import sum as sum_
from arrayx._statistical import sum_of_last_products
from arrayx.linalg._bridge import array_arg
from arrayx.linalg._matmul import matmul

__all__ = ["cross", "outer", "tensordot", "vecdot"]


def _contracted_axes(axes: object, nd1: int, nd2: int) -> tuple[list[int], list[int]]:
    if isinstance(axes, bool):
        raise TypeError("tensordot: axes must be an int or a pair of sequences, not a bool")
    if isinstance(axes, int):
        if not 0 <= axes <= min(nd1, nd2):
            raise ValueError(f"tensordot: axes={axes} must lie in [0, {min(nd1, nd2)}]")
        return list(range(nd1 - axes, nd1)), list(range(axes))
    if not isinstance(axes, Sequence) or len(axes) != 2:
        raise TypeError("tensordot: axes must be an int or a pair of sequences of ints")
    first, second = ([axes[i]] if isinstance(axes[i], int) else list(axes[i]) for i in (0, 1))
    if len(first) != len(second):
        raise ValueError(f"tensordot: {len(first)} axes of x1 against {len(second)} of x2")
    out = []
    for seq, nd in ((first, nd1), (second, nd2)):
        norm = []
        for ax in seq:
            ax = operator.index(ax)
            if not -nd <= ax < nd:
                raise ValueError(f"tensordot: axis {ax} is out of range for {nd} dimensions")
            norm.append(ax % nd)
        if len(set(norm)) != len(norm):
            raise ValueError(f"tensordot: repeated axis in {tuple(seq)}")
        out.append(norm)
    return out[0], out[1]


def tensordot(
    x1: Array, x2: Array, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2,
) -> Array:
    """The sum of products of ``x1`` and ``x2`` over the contracted axes.

    Parameters
    ----------
    x1, x2 : Array
    axes : int or (sequence of ints, sequence of ints)
        An int ``N``: the last ``N`` axes of ``x1`` against the first ``N`` of ``x2``; a pair:
        those axes of ``x1`` against those of ``x2``, in order. Contracted axes must have
        equal sizes (they do not broadcast).

    Returns
    -------
    Array
        The free axes of ``x1`` then those of ``x2``; the promoted dtype.

    Raises
    ------
    ValueError
        If contracted axes differ in size.
    %(raises_promote)s

    %(examples)s
    >>> a = xp.reshape(xp.arange(6.0), (2, 3))
    >>> xp.tensordot(a, xp.ones((3, 4)), axes=1).shape
    (2, 4)
    >>> xp.tensordot(a, a, axes=([0, 1], [0, 1]))
    Array(55., dtype=float64)
    """
    a, b = array_arg(x1, "tensordot"), array_arg(x2, "tensordot")
    ax1, ax2 = _contracted_axes(axes, a.ndim, b.ndim)
    for i, j in zip(ax1, ax2, strict=True):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"tensordot: axis {i} of x1 {a.shape} and axis {j} of x2 "
                             f"{b.shape} differ in size")
    free1 = [i for i in range(a.ndim) if i not in ax1]
    free2 = [j for j in range(b.ndim) if j not in ax2]
    shape1 = tuple(a.shape[i] for i in free1)
    shape2 = tuple(b.shape[j] for j in free2)
    k = math.prod(a.shape[i] for i in ax1)
    a2 = reshape(permute_dims(a, tuple(free1 + ax1)), (math.prod(shape1), k))
    b2 = reshape(permute_dims(b, tuple(ax2 + free2)), (k, math.prod(shape2)))
    return reshape(matmul(a2, b2), shape1 + shape2)


def _vector_axis(a: Array, b: Array, axis: object, name: str) -> int:
    """``axis`` as a negative index valid in both ``a`` and ``b``, with equal sizes there."""
    if isinstance(axis, bool):
        raise TypeError(f"{name}: axis must be an int, not a bool")
    axis = operator.index(axis)
    nd = max(a.ndim, b.ndim)
    if axis >= 0:
        axis -= nd
    if not -min(a.ndim, b.ndim) <= axis < 0:
        raise ValueError(f"{name}: axis {axis} is out of range for shapes {a.shape} and "
                         f"{b.shape}")
    if a.shape[axis] != b.shape[axis]:
        raise ValueError(f"{name}: shapes {a.shape} and {b.shape} differ along axis {axis}")
    return axis


# The vector length from which vecdot is a BLAS dot per vector (matmul's own threshold for
# BLAS, ``BLAS_MIN_WORK``, for one row times one column).
_DOT_MIN = 4096


def _axis_last(x: Array, axis: int) -> Array:
    if axis == -1:
        return x
    order = [i for i in range(x.ndim) if i != x.ndim + axis] + [x.ndim + axis]
    return permute_dims(x, tuple(order))


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The dot product ``sum(conj(x1) * x2)`` of the vectors along ``axis``.

    Parameters
    ----------
    x1, x2 : Array
        Numeric; broadcast against each other apart from ``axis``, where sizes must agree.
    axis : int
        Counted from the end (negative); ``-min(x1.ndim, x2.ndim) <= axis < 0``.

    Returns
    -------
    Array
        The broadcast shape without ``axis``; the promoted dtype.

    Raises
    ------
    ValueError
        If the sizes along ``axis`` differ or the other axes do not broadcast.
    TypeError
        If an operand is not numeric.

    %(examples)s
    >>> xp.vecdot(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([4.0, 5.0, 6.0]))
    Array(32., dtype=float64)
    >>> xp.vecdot(xp.asarray([1j]), xp.asarray([1j]))
    Array(1.+0.j, dtype=complex128)
    """
    a, b = array_arg(x1, "vecdot"), array_arg(x2, "vecdot")
    axis = _vector_axis(a, b, axis, "vecdot")
    a, b = _axis_last(a, axis), _axis_last(b, axis)
    if isdtype(a.dtype, "complex floating"):
        a = conj(a)
    dtype = result_type(a, b)
    if not isdtype(dtype, ("real floating", "complex floating")):
        return sum_(multiply(a, b), axis=-1, dtype=dtype)
    if a.shape[-1] >= _DOT_MIN:
        # Long vectors: a BLAS dot product for each.
        return matmul(expand_dims(a, axis=-2), expand_dims(b, axis=-1))[..., 0, 0]
    # Short ones (rows of a matrix, say): one pass summing the products, not one small
    # product per vector nor a temporary of them.
    if a.dtype != dtype:
        a = astype(a, dtype)
    if b.dtype != dtype:
        b = astype(b, dtype)
    if a.shape != b.shape:
        shape = broadcast_shapes(a.shape, b.shape)
        a, b = broadcast_to(a, shape), broadcast_to(b, shape)
    return sum_of_last_products(a, b)


def outer(x1: Array, x2: Array, /) -> Array:
    """The outer product of two vectors: ``out[i, j] = x1[i] * x2[j]``.

    Parameters
    ----------
    x1 : Array
        A 1-D numeric array of length ``N``.
    x2 : Array
        A 1-D numeric array of length ``M``.

    Returns
    -------
    Array
        Shape ``(N, M)``, the promoted dtype.

    Raises
    ------
    ValueError
        If an operand is not 1-D.

    %(examples)s
    >>> xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([1, 10, 100]))
    Array([[  1,  10, 100],
           [  2,  20, 200]], dtype=int64)
    """
    a, b = array_arg(x1, "outer"), array_arg(x2, "outer")
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"outer needs two 1-D arrays, got shapes {a.shape} and {b.shape}")
    return multiply(a[:, None], b[None, :])


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The cross product of the 3-element vectors along ``axis``.

    Parameters
    ----------
    x1, x2 : Array
        Numeric, size 3 along ``axis``; other axes broadcast.
    axis : int
        Counted from the end (negative); ``-min(x1.ndim, x2.ndim) <= axis < 0``.

    Returns
    -------
    Array
        The broadcast shape; the promoted dtype.

    Raises
    ------
    TypeError
        If an operand is not numeric.
    ValueError
        If the vectors along ``axis`` do not have 3 elements, or the other axes do not
        broadcast.

    %(examples)s
    >>> xp.linalg.cross(xp.asarray([1.0, 0.0, 0.0]), xp.asarray([0.0, 1.0, 0.0]))
    Array([0., 0., 1.], dtype=float64)
    """
    a, b = array_arg(x1, "cross"), array_arg(x2, "cross")
    axis = _vector_axis(a, b, axis, "cross")
    if a.shape[axis] != 3:
        raise ValueError(f"cross needs vectors of 3 elements along axis {axis}, got shapes "
                         f"{a.shape} and {b.shape}")
    if not isdtype(a.dtype, "numeric") or not isdtype(b.dtype, "numeric"):
        raise TypeError(f"cross needs numeric arrays, got {a.dtype} and {b.dtype}")
    out = empty(broadcast_shapes(a.shape, b.shape), dtype=result_type(a, b), device=a.device)
    a, b, o = _axis_last(a, axis), _axis_last(b, axis), _axis_last(out, axis)
    for i, (j, k) in enumerate(((1, 2), (2, 0), (0, 1))):
        o[..., i] = subtract(multiply(a[..., j], b[..., k]), multiply(a[..., k], b[..., j]))
    return out


fill([cross, outer, tensordot, vecdot])

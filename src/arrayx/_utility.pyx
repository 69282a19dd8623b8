"""Utility functions: all, any."""
from arrayx._array cimport Array, as_array, wrap
from arrayx._core.layout cimport normalize_axis, reduction_axes, squeeze
from arrayx._engine cimport fold

from arrayx._array import apply_binary
from arrayx._manipulation import concat


__all__ = ["all", "any", "diff"]

# Folds over bool: min is "all", max is "any" (ax_reduce.hpp).
cdef int FOLD_MAX = 2, FOLD_MIN = 3



cdef Array _logical_reduce(int op, object x, object axis, bint keepdims, str name):
    if not isinstance(x, Array):
        raise TypeError(f"{name} expects an arrayx array, got {type(x).__name__}")
    cdef Array a = <Array>x
    axes = reduction_axes(axis, a._layout.ndim)
    if a._code != 0:
        a = a != 0
    s, L, c = fold(op, a._storage, a._layout, 0, 0, axes)
    if not keepdims:
        L = squeeze(L, axes)
    return wrap(s, L, c)


def all(x, /, *, axis=None, keepdims=False) -> Array:
    """Whether every element (along ``axis``) is true (non-zero).

    Parameters
    ----------
    x : Array
    axis : int or tuple of ints, optional
        Axes to reduce; None reduces all.
    keepdims : bool
        Keep the reduced axes as unit axes.

    Returns
    -------
    Array
        A bool array.
    """
    return _logical_reduce(FOLD_MIN, x, axis, keepdims, "all")


def any(x, /, *, axis=None, keepdims=False) -> Array:
    """Whether any element (along ``axis``) is true (non-zero); parameters as ``all``."""
    return _logical_reduce(FOLD_MAX, x, axis, keepdims, "any")


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None) -> Array:
    """The ``n``-th forward difference along ``axis``.

    Parameters
    ----------
    x : Array
        A numeric (or bool: "differs") array of at least one dimension.
    axis : int
    n : int
        How many times to difference (non-negative).
    prepend, append : Array, optional
        Values joined to ``x`` along ``axis`` before differencing (same shape off ``axis``).

    Returns
    -------
    Array
        ``x``'s shape with ``n`` fewer elements along ``axis``.
    """
    cdef Array a = as_array(x, "diff")
    if a._layout.ndim == 0:
        raise ValueError("diff needs an array of at least one dimension")
    if n < 0:
        raise ValueError(f"diff's n must be non-negative, got {n}")
    cdef int ax = normalize_axis(axis, a._layout.ndim)
    if n == 0:
        return a
    parts = [a]
    if prepend is not None:
        parts.insert(0, as_array(prepend, "diff"))
    if append is not None:
        parts.append(as_array(append, "diff"))
    if len(parts) > 1:
        a = concat(parts, axis=ax)
    op = "not_equal" if a._code == 0 else "subtract"
    head = [slice(None)] * a._layout.ndim
    tail = [slice(None)] * a._layout.ndim
    head[ax] = slice(1, None)
    tail[ax] = slice(None, -1)
    # Past the axis length every difference is empty: a huge n ends there, not in a long loop.
    for _ in range(min(n, a._layout.shape_[ax] + 1)):
        a = apply_binary(op, a[tuple(head)], a[tuple(tail)])
    return a

"""Utility functions: all, any, diff."""
from arrayx._array cimport Array, as_array, wrap
from arrayx._core.arguments cimport normalize_axis, reduction_axes
from arrayx._core.layout cimport squeeze
from arrayx._engine cimport fold
from arrayx._kernels.dtype_codes cimport DT_BOOL
from arrayx._kernels.op_ids cimport FOLD_MAX, FOLD_MIN

from arrayx._array import apply_binary
from arrayx._manipulation import concat
from arrayx._docfill import fill, sections


__all__ = ["all", "any", "diff"]


cdef Array _logical_reduce(int op, object x, object axis, bint keepdims, str name):
    # Folds over bool: min is "all", max is "any" (ax_reduce.hpp).
    if not isinstance(x, Array):
        raise TypeError(f"{name} expects an arrayx array, got {type(x).__name__}")
    cdef Array a = <Array>x
    axes = reduction_axes(axis, a._layout.ndim)
    if a._code != DT_BOOL:
        a = a != 0
    s, L, c = fold(op, a._storage, a._layout, DT_BOOL, DT_BOOL, axes)
    if not keepdims:
        L = squeeze(L, axes)
    return wrap(s, L, c)


def all(x, /, *, axis=None, keepdims=False) -> Array:
    """Whether every element of ``x`` is true (non-zero), along ``axis``; True where nothing is
    reduced.

    NaN counts as true, as it is non-zero.

    %(truth_sections)s

    %(examples)s
    >>> x = xp.asarray([[True, False], [True, True]])
    >>> xp.all(x)
    Array(False, dtype=bool)
    >>> xp.all(x, axis=1)
    Array([False,  True], dtype=bool)
    """
    return _logical_reduce(FOLD_MIN, x, axis, keepdims, "all")


def any(x, /, *, axis=None, keepdims=False) -> Array:
    """Whether any element of ``x`` is true (non-zero), along ``axis``; False where nothing is
    reduced.

    %(truth_sections)s

    %(examples)s
    >>> xp.any(xp.asarray([[0, 0], [0, 3]]), axis=1)
    Array([False,  True], dtype=bool)
    >>> xp.any(xp.zeros(0))
    Array(False, dtype=bool)
    """
    return _logical_reduce(FOLD_MAX, x, axis, keepdims, "any")


def diff(x, /, n=1, axis=-1, *, prepend=None, append=None) -> Array:
    """The ``n``-th forward difference of ``x`` along ``axis``.

    One difference is ``x[i + 1] - x[i]``; ``n`` of them are taken in turn. ``n`` and ``axis``
    may be given by position, in NumPy's order (``diff(x, 2)``): an extension, as the standard
    makes them keyword-only.

    Parameters
    ----------
    x : Array
        An array of at least one dimension; numeric, or bool (where the difference is "differs").
    n : int, optional
        How many times to difference; non-negative, default 1.
    axis : int, optional
        The axis to difference along; default -1, the last.
    prepend, append : Array, optional
        Values joined to ``x`` along ``axis`` before differencing (of ``x``'s shape off
        ``axis``).

    Returns
    -------
    Array
        ``x``'s shape with ``n`` fewer elements along ``axis`` (counting the joined ones).

    Raises
    ------
    TypeError
        If ``n`` is not an integer.
    ValueError
        If ``x`` is 0-d or ``n`` is negative.

    %(examples)s
    >>> x = xp.asarray([1, 4, 9, 16])
    >>> xp.diff(x)
    Array([3, 5, 7], dtype=int64)
    >>> xp.diff(x, n=2)
    Array([2, 2], dtype=int64)
    >>> xp.diff(x, 2)
    Array([2, 2], dtype=int64)
    >>> xp.diff(x, prepend=xp.asarray([0]))
    Array([1, 3, 5, 7], dtype=int64)
    """
    cdef Array a = as_array(x, "diff")
    if a._layout.ndim == 0:
        raise ValueError("diff needs an array of at least one dimension")
    if isinstance(n, bool) or not hasattr(n, "__index__"):
        raise TypeError(f"diff's n must be an integer, not {type(n).__name__}")
    n = n.__index__()
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
    op = "not_equal" if a._code == DT_BOOL else "subtract"
    head = [slice(None)] * a._layout.ndim
    tail = [slice(None)] * a._layout.ndim
    head[ax] = slice(1, None)
    tail[ax] = slice(None, -1)
    # Past the axis length every difference is empty: a huge n ends there, not in a long loop.
    for _ in range(min(n, a._layout.shape_[ax] + 1)):
        a = apply_binary(op, a[tuple(head)], a[tuple(tail)])
    return a


fill([all, any, diff],
     truth_sections=sections(["x_any", "reduce_axis", "keepdims_broadcast"], "A bool array."))

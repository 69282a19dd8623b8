"""Utility functions: all, any."""
from arrayx._array cimport Array, wrap
from arrayx._core.layout cimport reduction_axes, squeeze
from arrayx._engine cimport reduce_binary

from arrayx._engine import BINARY_NAMES

__all__ = ["all", "any"]

cdef int LOGICAL_AND = BINARY_NAMES.index("logical_and")
cdef int LOGICAL_OR = BINARY_NAMES.index("logical_or")


cdef Array _logical_reduce(int op, object x, object axis, bint keepdims, bint identity,
                           str name):
    if not isinstance(x, Array):
        raise TypeError(f"{name} expects an arrayx array, got {type(x).__name__}")
    cdef Array a = <Array>x
    axes = reduction_axes(axis, a._layout.ndim)
    if a._code != 0:
        a = a != 0
    s, L, c = reduce_binary(op, a._storage, a._layout, 0, identity, axes)
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
    return _logical_reduce(LOGICAL_AND, x, axis, keepdims, True, "all")


def any(x, /, *, axis=None, keepdims=False) -> Array:
    """Whether any element (along ``axis``) is true (non-zero); parameters as ``all``."""
    return _logical_reduce(LOGICAL_OR, x, axis, keepdims, False, "any")

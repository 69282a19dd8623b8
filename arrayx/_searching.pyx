"""Searching functions: where."""
from arrayx._array cimport Array, wrap
from arrayx._engine cimport where as engine_where

from arrayx._array import _scalar_array
from arrayx import _dtypes

__all__ = ["where"]


def where(condition, x1, x2, /) -> Array:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2`` (broadcast together).

    Parameters
    ----------
    condition : Array
        A bool array.
    x1, x2 : Array or Python scalar
        At most one may be a Python scalar; it takes the other argument's dtype where its
        kind fits.

    Returns
    -------
    Array
    """
    if not isinstance(condition, Array):
        raise TypeError(f"where's condition must be an arrayx array, got "
                        f"{type(condition).__name__}")
    cdef Array c = <Array>condition
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        raise TypeError("where needs x1 or x2 to be an array")
    if not isinstance(x1, Array):
        x1 = _scalar_array(x1, _dtypes.result_type(x2, x1), x2.device)
    if not isinstance(x2, Array):
        x2 = _scalar_array(x2, _dtypes.result_type(x1, x2), x1.device)
    cdef Array a = <Array>x1
    cdef Array b = <Array>x2
    s, L, code = engine_where(c._storage, c._layout, c._code, a._storage, a._layout, a._code,
                              b._storage, b._layout, b._code)
    return wrap(s, L, code)

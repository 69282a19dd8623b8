"""Sorting functions: sort, argsort, on the rows of a C-ordered copy with the axis last."""
from arrayx._array cimport Array, as_array, contiguous_copy, new_array
from arrayx._core.arguments cimport normalize_axis
from arrayx._core.layout cimport contiguous
from arrayx._engine cimport argsort_rows, sort_rows
from arrayx._kernels.dtype_codes cimport DT_INT64

from arrayx._manipulation import moveaxis
from arrayx._docfill import fill

__all__ = ["argsort", "sort"]


cdef Array _arr(object x, str name):
    if as_array(x, name)._layout.ndim == 0:
        raise ValueError(f"{name} needs an array of at least one dimension")
    return <Array>x


cdef Array lanes(Array a, int axis):
    """A C-ordered copy of ``a`` with ``axis`` last: its rows are the lanes along ``axis``."""
    return contiguous_copy(moveaxis(a, axis, -1), a._code)


def sort(x, /, *, axis=-1, descending=False, stable=True) -> Array:
    """``x`` sorted along ``axis``, in a new array.

    NaNs sort last, ascending or descending; complex numbers sort by real part, then
    imaginary part.

    Parameters
    ----------
    x : Array
        The array to sort (not 0-d).
    axis : int, optional
        The axis to sort along; default -1, the last.
    descending : bool, optional
        Largest first (default False).
    stable : bool, optional
        Keep equal elements in their original order (default True); False allows an unstable
        sort.

    Returns
    -------
    %(returns_new)s

    Raises
    ------
    %(raises_axis_range)s
    %(raises_0d)s

    %(examples)s
    >>> xp.sort(xp.asarray([3.0, xp.nan, 1.0, 2.0]))
    Array([ 1.,  2.,  3., nan], dtype=float64)
    >>> xp.sort(xp.asarray([[3, 1], [2, 4]]), axis=0, descending=True)
    Array([[3, 4],
           [2, 1]], dtype=int64)
    """
    cdef Array a = _arr(x, "sort")
    cdef int ax = normalize_axis(axis, a._layout.ndim)
    cdef Array work = lanes(a, ax)
    sort_rows(work._storage, work._layout, work._code, descending, stable)
    return moveaxis(work, -1, ax)


def argsort(x, /, *, axis=-1, descending=False, stable=True) -> Array:
    """The indices that sort ``x`` along ``axis``.

    The order is that of :func:`sort` (NaNs last, complex lexicographically); with ``stable``,
    equal elements keep their original order.

    Parameters
    ----------
    x, axis, descending, stable
        As :func:`sort` takes them; with ``stable``, equal elements keep their order descending
        too.

    Returns
    -------
    Array
        ``int64`` indices of ``x``'s shape; ``take_along_axis(x, argsort(x), axis=-1)`` is
        ``sort(x)``.

    Raises
    ------
    %(raises_axis_range)s
    %(raises_0d)s

    %(examples)s
    >>> xp.argsort(xp.asarray([30, 10, 20, 10]))
    Array([1, 3, 2, 0], dtype=int64)
    >>> xp.argsort(xp.asarray([30, 10, 20, 10]), descending=True)
    Array([0, 2, 1, 3], dtype=int64)
    """
    cdef Array a = _arr(x, "argsort")
    cdef int ax = normalize_axis(axis, a._layout.ndim)
    cdef Array work = lanes(a, ax)
    cdef Array out = new_array(contiguous(work._layout.ndim, work._layout.shape_), DT_INT64,
                               a._storage.device)
    argsort_rows(work._storage, work._layout, work._code, out._storage, descending, stable)
    return moveaxis(out, -1, ax)


fill([argsort, sort])

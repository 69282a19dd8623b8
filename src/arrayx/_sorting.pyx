"""Sorting functions: sort, argsort (std::sort / std::stable_sort over lanes)."""
from libc.stdint cimport int64_t

from arrayx._array cimport Array, as_array, contiguous_copy, new_array
from arrayx._core.layout cimport contiguous, normalize_axis
from arrayx._kernels.cpu.kernels cimport argsort_kernel, sort_kernel

from arrayx._manipulation import moveaxis

__all__ = ["argsort", "sort"]


cdef Array _arr(object x, str name):
    if as_array(x, name)._layout.ndim == 0:
        raise ValueError(f"{name} needs an array of at least one dimension")
    return <Array>x


cdef Array lanes(Array a, int axis):
    """A C-ordered copy of ``a`` with ``axis`` last: its rows are the lanes along ``axis``."""
    return contiguous_copy(moveaxis(a, axis, -1), a._code)


def sort(x, /, *, axis=-1, descending=False, stable=True) -> Array:
    """``x`` sorted along ``axis`` (NaNs last; complex numbers lexicographically).

    Parameters
    ----------
    x : Array
    axis : int
    descending : bool
        Largest first; equal elements keep their order when ``stable``.
    stable : bool
        Keep equal elements in their original order.

    Returns
    -------
    Array
    """
    cdef Array a = _arr(x, "sort")
    cdef int ax = normalize_axis(axis, a._layout.ndim)
    cdef Array work = lanes(a, ax)
    cdef int64_t n = work._layout.shape_[work._layout.ndim - 1]
    cdef int64_t rows = work._layout.size // n if n else 0
    cdef bint desc = descending, stab = stable
    with nogil:
        sort_kernel(work._code)(work._storage.data, rows, n, desc, stab)
    return moveaxis(work, -1, ax)


def argsort(x, /, *, axis=-1, descending=False, stable=True) -> Array:
    """The indices that sort ``x`` along ``axis`` (int64); parameters as ``sort``."""
    cdef Array a = _arr(x, "argsort")
    cdef int ax = normalize_axis(axis, a._layout.ndim)
    cdef Array work = lanes(a, ax)
    cdef Array out = new_array(contiguous(work._layout.ndim, work._layout.shape_), 4,
                               a._storage.device)
    cdef int64_t n = work._layout.shape_[work._layout.ndim - 1]
    cdef int64_t rows = work._layout.size // n if n else 0
    cdef bint desc = descending, stab = stable
    with nogil:
        argsort_kernel(work._code)(work._storage.data, <int64_t*>out._storage.data, rows, n,
                                   desc, stab)
    return moveaxis(out, -1, ax)

"""Set functions: unique_all, unique_counts, unique_inverse, unique_values, isin.

All build on one stable sort of the flattened input; NaNs are each distinct, as the
standard says.
"""
from collections import namedtuple

from libc.stdint cimport int64_t

from arrayx._array cimport Array, as_array, code_of, contiguous_copy, new_array
from arrayx._core.layout cimport contiguous
from arrayx._kernels.cpu.kernels cimport gather_kernel, isin_kernel, run_starts_kernel

from arrayx import _dtypes
from arrayx._manipulation import reshape
from arrayx._sorting import argsort, sort

__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices",
                                                 "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])



cdef Array _int64(int64_t n, object device):
    cdef int64_t shape[1]
    shape[0] = n
    return new_array(contiguous(1, shape), 4, device)


cdef tuple _unique(Array a, bint want_indices):
    """(values, first indices, inverse of the flattened input, counts)."""
    cdef Array flat = contiguous_copy(reshape(a, (-1,)), a._code)
    cdef int64_t n = flat._layout.size
    cdef Array order = argsort(flat, stable=True)
    cdef Array ordered = contiguous_copy(sort(flat, stable=True), a._code)
    cdef Array starts = _int64(n, a._storage.device)
    cdef int64_t groups
    with nogil:
        groups = run_starts_kernel(a._code)(ordered._storage.data, n,
                                            <int64_t*>starts._storage.data)
    cdef int64_t* st = <int64_t*>starts._storage.data
    cdef int64_t* od = <int64_t*>order._storage.data
    cdef int64_t shape[1]
    shape[0] = groups
    cdef Array values = new_array(contiguous(1, shape), a._code, a._storage.device)
    with nogil:
        gather_kernel(a._code)(ordered._storage.data, st, groups, values._storage.data)
    cdef Array counts = _int64(groups, a._storage.device)
    cdef Array first = _int64(groups, a._storage.device)
    cdef Array inverse = _int64(n, a._storage.device)
    cdef int64_t* cnt = <int64_t*>counts._storage.data
    cdef int64_t* fst = <int64_t*>first._storage.data
    cdef int64_t* inv = <int64_t*>inverse._storage.data
    cdef int64_t k, i, end
    with nogil:
        for k in range(groups):
            end = st[k + 1] if k + 1 < groups else n
            cnt[k] = end - st[k]
            fst[k] = od[st[k]]
            for i in range(st[k], end):
                inv[od[i]] = k
    return values, first, inverse, counts


def unique_values(x, /) -> Array:
    """The distinct elements of ``x``, ascending (each NaN distinct)."""
    return _unique(as_array(x, "unique_values"), False)[0]


def unique_counts(x, /):
    """The distinct elements of ``x`` and how often each occurs."""
    values, _, _, counts = _unique(as_array(x, "unique_counts"), False)
    return UniqueCountsResult(values, counts)


def unique_inverse(x, /):
    """The distinct elements of ``x`` and, for each element of ``x``, its value's index."""
    cdef Array a = as_array(x, "unique_inverse")
    values, _, inverse, _ = _unique(a, False)
    return UniqueInverseResult(values, reshape(inverse, a.shape))


def unique_all(x, /):
    """Distinct values, first indices (flattened), inverse indices (``x``'s shape), counts."""
    cdef Array a = as_array(x, "unique_all")
    values, first, inverse, counts = _unique(a, True)
    return UniqueAllResult(values, first, reshape(inverse, a.shape), counts)


def isin(x1, x2, /, *, invert=False) -> Array:
    """Whether each element of ``x1`` occurs in ``x2`` (negated with ``invert``).

    Parameters
    ----------
    x1 : Array
    x2 : Array
    invert : bool

    Returns
    -------
    Array
        A bool array of ``x1``'s shape.
    """
    if not isinstance(x1, Array) and isinstance(x2, Array):
        from arrayx._array import _scalar_array
        x1 = _scalar_array(x1, _dtypes.result_type(x2, x1), x2.device)
    cdef Array a = as_array(x1, "isin")
    cdef Array b
    if not isinstance(x2, Array):
        from arrayx._array import _scalar_array
        x2 = _scalar_array(x2, _dtypes.result_type(a, x2), a.device)
    b = <Array>x2
    cdef int code = code_of(_dtypes.result_type(a, b))
    cdef Array values = contiguous_copy(a, code)
    cdef Array table = contiguous_copy(sort(reshape(contiguous_copy(b, code), (-1,))), code)
    cdef Array out = new_array(contiguous(a._layout.ndim, a._layout.shape_), 0,
                               a._storage.device)
    cdef bint inv = invert
    with nogil:
        isin_kernel(code)(table._storage.data, table._layout.size, values._storage.data,
                          values._layout.size, inv, out._storage.data)
    return out

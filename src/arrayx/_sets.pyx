"""Set functions: unique_all, unique_counts, unique_inverse, unique_values, isin.

The unique functions find the runs of equal elements of the flattened input in stable ascending
order: values and counts need only the sorted values; first and inverse indices need the sorting
permutation, through which the values are then gathered. NaNs are each distinct, as the
standard says.
"""
from collections import namedtuple

from libc.stdint cimport int64_t

from arrayx._array cimport Array, as_array, code_of, contiguous_copy, new_array
from arrayx._core.layout cimport contiguous
from arrayx._kernels.dtype_codes cimport DT_BOOL, DT_INT64
from arrayx._engine cimport (
    argsort_rows, gather, isin as engine_isin, run_labels, run_lengths, run_starts, sort_rows,
)

from arrayx import _dtypes, _strict
from arrayx._manipulation import reshape
from arrayx._sorting import sort

__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices",
                                                 "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


cdef Array _vector(int64_t n, int code, object device):
    cdef int64_t shape[1]
    shape[0] = n
    return new_array(contiguous(1, shape), code, device)


cdef Array _flat(Array a):
    """A fresh C-contiguous 1-D copy of ``a``."""
    return contiguous_copy(reshape(a, (-1,)), a._code)


cdef Array _sorted(Array a):
    """The elements of ``a`` in ascending order (1-D)."""
    cdef Array flat = _flat(a)
    sort_rows(flat._storage, flat._layout, flat._code, False, True)
    return flat


cdef Array _order(Array flat):
    """The stable ascending sorting permutation of the 1-D contiguous ``flat``."""
    cdef Array order = _vector(flat._layout.size, DT_INT64, flat._storage.device)
    argsort_rows(flat._storage, flat._layout, flat._code, order._storage, False, True)
    return order


cdef Array _gather(Array src, Array idx, int64_t m):
    """``src[idx[:m]]`` for 1-D contiguous ``src`` and int64 ``idx``."""
    cdef Array out = _vector(m, src._code, src._storage.device)
    gather(src._storage, src._code, idx._storage, m, out._storage)
    return out


cdef tuple _runs(Array ordered):
    """(where each run of equal elements of the ascending ``ordered`` starts, how many runs)."""
    cdef int64_t n = ordered._layout.size
    cdef Array starts = _vector(n, DT_INT64, ordered._storage.device)
    return starts, run_starts(ordered._storage, n, ordered._code, starts._storage)


cdef Array _counts(Array starts, int64_t groups, int64_t n):
    """The length of each of the ``groups`` runs starting at ``starts`` among ``n`` elements."""
    cdef Array counts = _vector(groups, DT_INT64, starts._storage.device)
    run_lengths(starts._storage, groups, n, counts._storage)
    return counts


cdef Array _inverse(Array order, Array starts, int64_t groups):
    """For each element, the index of its run, through the sorting permutation ``order``."""
    cdef int64_t n = order._layout.size
    cdef Array inverse = _vector(n, DT_INT64, order._storage.device)
    run_labels(order._storage, starts._storage, groups, n, inverse._storage)
    return inverse


cdef tuple _unique_sorted(Array a):
    """(values, run starts, runs, the sorting permutation) of the flattened ``a``."""
    cdef Array flat = _flat(a)
    cdef Array order = _order(flat)
    cdef Array ordered = _gather(flat, order, flat._layout.size)
    starts, groups = _runs(ordered)
    return _gather(ordered, starts, groups), starts, groups, order


def unique_values(x, /) -> Array:
    """The distinct elements of ``x``, ascending.

    NaNs are all distinct (each appears), as the standard asks; ``0.0`` and ``-0.0`` are one
    value. The length of the result depends on the data.

    Parameters
    ----------
    x : Array
        An array of any shape (it is flattened).

    Returns
    -------
    Array
        A 1-D array of ``x``'s dtype.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.unique_values(xp.asarray([[3, 1], [3, 2]]))
    Array([1, 2, 3], dtype=int64)
    """
    _strict.check_data_dependent("unique_values")
    cdef Array ordered = _sorted(as_array(x, "unique_values"))
    starts, groups = _runs(ordered)
    return _gather(ordered, starts, groups)


def unique_counts(x, /) -> UniqueCountsResult:
    """The distinct elements of ``x`` and how often each occurs.

    Parameters
    ----------
    x : Array
        As :func:`unique_values` takes it: flattened.

    Returns
    -------
    UniqueCountsResult
        A named tuple ``(values, counts)``: 1-D arrays, ``values`` ascending as in
        ``unique_values``, ``counts`` of ``int64``.

    Examples
    --------
    >>> import arrayx as xp
    >>> r = xp.unique_counts(xp.asarray([3, 1, 3, 3]))
    >>> r.values, r.counts
    (Array([1, 3], dtype=int64), Array([1, 3], dtype=int64))
    """
    _strict.check_data_dependent("unique_counts")
    cdef Array ordered = _sorted(as_array(x, "unique_counts"))
    starts, groups = _runs(ordered)
    return UniqueCountsResult(_gather(ordered, starts, groups),
                              _counts(starts, groups, ordered._layout.size))


def unique_inverse(x, /) -> UniqueInverseResult:
    """The distinct elements of ``x`` and, for each element of ``x``, the index of its value.

    Parameters
    ----------
    x : Array
        An array of any shape.

    Returns
    -------
    UniqueInverseResult
        A named tuple ``(values, inverse_indices)``: ``values`` as ``unique_values`` gives, and
        ``int64`` indices of ``x``'s shape with ``values[inverse_indices] == x``.

    Examples
    --------
    >>> import arrayx as xp
    >>> r = xp.unique_inverse(xp.asarray([3, 1, 3]))
    >>> r.values, r.inverse_indices
    (Array([1, 3], dtype=int64), Array([1, 0, 1], dtype=int64))
    """
    _strict.check_data_dependent("unique_inverse")
    cdef Array a = as_array(x, "unique_inverse")
    values, starts, groups, order = _unique_sorted(a)
    return UniqueInverseResult(values, reshape(_inverse(order, starts, groups), a.shape))


def unique_all(x, /) -> UniqueAllResult:
    """The distinct elements of ``x``, where each first occurs, the inverse indices and the counts.

    Parameters
    ----------
    x : Array
        An array of any shape: ``indices`` index it flattened, ``inverse_indices`` take its
        shape.

    Returns
    -------
    UniqueAllResult
        A named tuple ``(values, indices, inverse_indices, counts)``: ``values`` ascending,
        ``indices`` of each value's first occurrence in the flattened ``x``,
        ``inverse_indices`` of ``x``'s shape, and ``counts``; the indices and counts are
        ``int64``.

    Examples
    --------
    >>> import arrayx as xp
    >>> r = xp.unique_all(xp.asarray([3, 1, 3]))
    >>> r.values, r.indices, r.counts
    (Array([1, 3], dtype=int64), Array([1, 0], dtype=int64), Array([1, 2], dtype=int64))
    """
    _strict.check_data_dependent("unique_all")
    cdef Array a = as_array(x, "unique_all")
    values, starts, groups, order = _unique_sorted(a)
    return UniqueAllResult(values, _gather(order, starts, groups),
                           reshape(_inverse(order, starts, groups), a.shape),
                           _counts(starts, groups, a._layout.size))


def isin(x1, x2, /, *, invert=False) -> Array:
    """Whether each element of ``x1`` occurs in ``x2``.

    Parameters
    ----------
    x1 : Array
        The elements to look up.
    x2 : Array or Python scalar
        The values to look in (its shape does not matter).
    invert : bool, optional
        Return whether each element does *not* occur instead (default False).

    Returns
    -------
    Array
        A bool array of ``x1``'s shape.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.isin(xp.asarray([1, 2, 3, 4]), xp.asarray([2, 4]))
    Array([False,  True, False,  True], dtype=bool)
    >>> xp.isin(xp.asarray([1, 2]), xp.asarray([2]), invert=True)
    Array([ True, False], dtype=bool)
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
    cdef Array out = new_array(contiguous(a._layout.ndim, a._layout.shape_), DT_BOOL,
                               a._storage.device)
    engine_isin(table._storage, table._layout.size, values._storage, values._layout.size, code,
                invert, out._storage)
    return out

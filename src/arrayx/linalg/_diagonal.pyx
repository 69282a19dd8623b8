"""``diagonal`` (a strided view, no copy) and ``trace`` (that view summed by ``matmul``)."""
from libc.stdint cimport int64_t

from arrayx._array cimport Array, wrap
from arrayx._core.layout cimport MAXDIM, Layout, new_layout

from arrayx import _dtypes
from arrayx._creation import ones
from arrayx._data_type_functions import astype
from arrayx.linalg._matmul import matmul
from arrayx._docfill import fill

__all__ = ["diagonal", "trace"]


def diagonal(x, /, *, offset=0) -> Array:
    """A view of the ``offset``-th diagonal of each matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., M, N)``.
    offset : int
        0 the main diagonal, positive above it, negative below it.

    Returns
    -------
    Array
        Shape ``(..., D)`` (``D`` 0 when ``offset`` lies outside the matrices); writes through
        the view reach ``x``.

    Raises
    ------
    %(raises_few_dims)s

    %(examples)s
    >>> x = xp.reshape(xp.arange(9), (3, 3))
    >>> xp.linalg.diagonal(x)
    Array([0, 4, 8], dtype=int64)
    >>> xp.linalg.diagonal(x, offset=1)
    Array([1, 5], dtype=int64)
    """
    if not isinstance(x, Array):
        raise TypeError(f"diagonal expects an arrayx array, got {type(x).__name__}")
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise TypeError(f"diagonal: offset must be an int, got {type(offset).__name__}")
    cdef Array a = <Array>x
    cdef Layout L = a._layout
    cdef int nd = L.ndim
    if nd < 2:
        raise ValueError(f"diagonal needs at least 2 dimensions, got shape {a.shape}")
    cdef int64_t rows = L.shape_[nd - 2], cols = L.shape_[nd - 1]
    cdef int64_t sr = L.strides_[nd - 2], sc = L.strides_[nd - 1]
    cdef int64_t d, start = L.offset
    if offset >= 0:
        d = max(0, min(rows, cols - offset))
        if d:
            start += offset * sc
    else:
        d = max(0, min(rows + offset, cols))
        if d:
            start -= offset * sr
    cdef int64_t shape[MAXDIM]
    cdef int64_t strides[MAXDIM]
    cdef int i
    for i in range(nd - 2):
        shape[i] = L.shape_[i]
        strides[i] = L.strides_[i]
    shape[nd - 2] = d
    strides[nd - 2] = sr + sc
    return wrap(a._storage, new_layout(nd - 1, shape, strides, start), a._code, a._writeable)


cdef object _sum_dtype(object dtype):
    """The standard's default ``trace`` dtype for an input of ``dtype``."""
    if dtype in _dtypes.KINDS["signed integer"]:
        return _dtypes.int64
    if dtype in _dtypes.KINDS["unsigned integer"]:
        return _dtypes.uint64
    return dtype


def trace(x, /, *, offset=0, dtype=None) -> Array:
    """The sum of the ``offset``-th diagonal of each matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., M, N)``, numeric.
    offset : int
        As in ``diagonal``.
    dtype : dtype, optional
        The accumulation and result dtype. Default: int64 for signed and uint64 for unsigned
        integers, else ``x``'s dtype.

    Returns
    -------
    Array
        Shape ``x.shape[:-2]``.

    Raises
    ------
    %(raises_few_dims)s

    %(examples)s
    >>> xp.linalg.trace(xp.asarray([[1, 2], [3, 4]]))
    Array(5, dtype=int64)
    >>> xp.linalg.trace(xp.ones((2, 3, 3)), offset=1)
    Array([2., 2.], dtype=float64)
    """
    d = diagonal(x, offset=offset)
    if d.dtype == _dtypes.bool:
        raise TypeError("trace needs a numeric array, got bool")
    acc = _sum_dtype(d.dtype) if dtype is None else _dtypes.as_dtype(dtype)
    return matmul(astype(d, acc, copy=False), ones((d.shape[d.ndim - 1],), dtype=acc,
                                                        device=d.device))


fill([diagonal, trace])

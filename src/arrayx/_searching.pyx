"""Searching functions: argmax, argmin, count_nonzero, nonzero, searchsorted, where."""
from libc.stdint cimport int64_t

from arrayx._array cimport Array, code_of, contiguous_copy, new_array, scalar_array, wrap
from arrayx._core.arguments cimport normalize_axis, zero_d_axis
from arrayx._core.layout cimport contiguous
from arrayx._engine cimport arg_extreme, count_true, nonzero as engine_nonzero
from arrayx._engine cimport int_beyond, searchsorted as engine_searchsorted
from arrayx._engine cimport where as engine_where
from arrayx._kernels.dtype_codes cimport (
    DT_BOOL, DT_COMPLEX64, DT_FLOAT32, DT_INT8, DT_INT16, DT_INT32, DT_INT64,
)

from arrayx._manipulation import expand_dims, moveaxis, reshape
from arrayx._statistical import sum as _sum

from arrayx._array import _scalar_array
from arrayx._convert import scalar_like
from arrayx import _dtypes, _strict
from arrayx._docfill import fill, sections

__all__ = [
    "argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where",
]


def where(condition, x1=None, x2=None, /) -> object:
    """Elements of ``x1`` where ``condition`` is true, of ``x2`` elsewhere.

    ``where(condition)`` alone is ``nonzero(condition)``, as in NumPy (an extension: the
    standard needs all three arguments).

    Parameters
    ----------
    condition : Array
        A bool array.
    x1, x2 : Array or Python scalar
        The values to choose from, broadcast with ``condition``. A scalar beside an array takes
        the array's dtype where its kind fits; two scalars take the default dtype of the higher
        kind, as NumPy's (an extension: the standard needs one of them to be an array).

    Returns
    -------
    Array
        A new array of the broadcast shape and of the dtype ``x1`` and ``x2`` promote to
        (with ``condition`` alone: the tuple of index arrays ``nonzero`` gives).

    Raises
    ------
    TypeError
        If ``condition`` is not bool, only one value is given, a value is neither an array nor
        a scalar, or the dtypes do not promote.
    %(raises_broadcast)s

    %(examples)s
    >>> x = xp.asarray([1.0, -2.0, 3.0])
    >>> xp.where(x > 0, x, 0.0)
    Array([1., 0., 3.], dtype=float64)
    >>> xp.where(x > 0)
    (Array([0, 2], dtype=int64),)
    """
    if not isinstance(condition, Array):
        raise TypeError(f"where's condition must be an arrayx array, got "
                        f"{type(condition).__name__}")
    cdef Array c = <Array>condition
    if x1 is None and x2 is None:
        return nonzero(c)
    if x1 is None or x2 is None:
        raise TypeError("where takes a condition and two values, where(condition, x1, x2), or "
                        "the condition alone (as nonzero); got one value")
    # The common call first: a Python float beside a floating-point array takes its dtype.
    if type(x1) is float and isinstance(x2, Array) and (<Array>x2)._code >= DT_FLOAT32:
        x1 = scalar_array(x1, (<Array>x2)._code, (<Array>x2)._storage.device)
    elif type(x2) is float and isinstance(x1, Array) and (<Array>x1)._code >= DT_FLOAT32:
        x2 = scalar_array(x2, (<Array>x1)._code, (<Array>x1)._storage.device)
    x1 = _typed(x1, "where's x1", c)
    x2 = _typed(x2, "where's x2", c)
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        x1 = _scalar_array(x1, _dtypes.result_type(x1, x2), c.device)
    if not isinstance(x1, Array):
        x1 = _scalar_array(x1, _dtypes.result_type(x2, x1), x2.device)
    if not isinstance(x2, Array):
        x2 = _scalar_array(x2, _dtypes.result_type(x1, x2), x1.device)
    cdef Array a = <Array>x1
    cdef Array b = <Array>x2
    s, L, code = engine_where(c._storage, c._layout, c._code, a._storage, a._layout, a._code,
                              b._storage, b._layout, b._code)
    return wrap(s, L, code)


cdef object _typed(object x, str what, Array like):
    """A value of ``where``: an array as it is, a Python scalar as it is (weak), a NumPy
    scalar or another library's 0-d array as a 0-d array of its own dtype (strong, as NumPy
    treats it)."""
    if isinstance(x, Array):
        return x
    value, code = scalar_like(x, what)
    return value if code < 0 else _scalar_array(value, _dtypes.DTYPES[code], like.device)


cdef Array _argextreme(object x, object axis, bint keepdims, bint want_max, str name):
    if not isinstance(x, Array):
        raise TypeError(f"{name} expects an arrayx array, got {type(x).__name__}")
    cdef Array a = <Array>x
    if a._code == DT_BOOL or a._code >= DT_COMPLEX64:
        raise TypeError(f"{name} takes a real-valued array, not {a.dtype}")
    if zero_d_axis(axis, a._layout.ndim):
        axis = None
    cdef Array work = reshape(a, (-1,)) if axis is None else moveaxis(
        a, normalize_axis(axis, a._layout.ndim), -1)
    if work._layout.shape_[work._layout.ndim - 1] == 0:
        raise ValueError(f"{name} along an empty axis has no position")
    if not work._layout.c_contiguous:
        work = contiguous_copy(work, work._code)
    cdef Array out = new_array(contiguous(work._layout.ndim - 1, work._layout.shape_), DT_INT64,
                               a._storage.device)
    if out._layout.size:
        arg_extreme(work._storage, work._layout, work._code, out._storage, want_max)
    if keepdims:
        if axis is None:
            return reshape(out, (1,) * a._layout.ndim)
        return expand_dims(out, axis=normalize_axis(axis, a._layout.ndim))
    return out


def argmax(x, /, *, axis=None, keepdims=False) -> Array:
    """The index of the largest element, along ``axis``.

    The first occurrence wins; a NaN counts as larger than any number (the first NaN wins).

    %(search_sections)s

    %(examples)s
    >>> xp.argmax(xp.asarray([3, 9, 2, 9]))
    Array(1, dtype=int64)
    >>> xp.argmax(xp.asarray([[1, 5], [7, 0]]), axis=1)
    Array([1, 0], dtype=int64)
    """
    return _argextreme(x, axis, keepdims, True, "argmax")


def argmin(x, /, *, axis=None, keepdims=False) -> Array:
    """The index of the smallest element, along ``axis``.

    The first occurrence wins; a NaN counts as smaller than any number (the first NaN wins).

    %(search_sections)s

    %(examples)s
    >>> x = xp.asarray([[1, 5], [7, 0]])
    >>> xp.argmin(x, axis=0)
    Array([0, 1], dtype=int64)
    >>> xp.argmin(x)
    Array(3, dtype=int64)
    """
    return _argextreme(x, axis, keepdims, False, "argmin")


def count_nonzero(x, /, *, axis=None, keepdims=False) -> Array:
    """How many elements are non-zero (true, for bool), along ``axis``.

    %(reduce_any_params)s

    Returns
    -------
    Array
        ``int64`` counts.

    %(examples)s
    >>> x = xp.asarray([[0, 1, 2], [0, 0, 3]])
    >>> xp.count_nonzero(x)
    Array(3, dtype=int64)
    >>> xp.count_nonzero(x, axis=1)
    Array([2, 1], dtype=int64)
    """
    if not isinstance(x, Array):
        raise TypeError(f"count_nonzero expects an arrayx array, got {type(x).__name__}")
    cdef Array mask = x if (<Array>x)._code == DT_BOOL else x != 0
    if axis is None and not keepdims and mask._layout.c_contiguous:
        # The whole array: one counting pass over its bytes.
        return scalar_array(count_true(mask._storage, mask._layout), DT_INT64,
                            mask._storage.device)
    return _sum(mask, axis=axis, dtype=_dtypes.int64, keepdims=keepdims)


def nonzero(x, /) -> tuple:
    """The indices of the non-zero (true) elements of ``x``, one array per dimension.

    The result's length depends on the data.

    Parameters
    ----------
    x : Array
        An array of at least one dimension (a 0-d array has no index to give).

    Returns
    -------
    tuple of Array
        ``x.ndim`` ``int64`` arrays of equal length; element ``k`` of each gives the ``k``-th
        non-zero element's position along that axis, in row-major order.

    Raises
    ------
    %(raises_0d)s

    %(examples)s
    >>> rows, cols = xp.nonzero(xp.asarray([[0, 7], [8, 0]]))
    >>> rows, cols
    (Array([0, 1], dtype=int64), Array([1, 0], dtype=int64))
    """
    if not isinstance(x, Array):
        raise TypeError(f"nonzero expects an arrayx array, got {type(x).__name__}")
    _strict.check_data_dependent("nonzero")
    cdef Array a = <Array>x
    if a._layout.ndim == 0:
        raise ValueError("nonzero of a 0-d array is not defined; use a 1-d array")
    # The kernel reads a C-contiguous mask; a comparison's result keeps its input's memory
    # order (a transposed input gives an F-ordered mask).
    cdef Array mask = a if a._code == DT_BOOL else a != 0
    if not mask._layout.c_contiguous:
        mask = contiguous_copy(mask, DT_BOOL)
    cdef int64_t count = count_true(mask._storage, mask._layout)
    cdef int64_t size[1]
    size[0] = count
    outs = [new_array(contiguous(1, size), DT_INT64, a._storage.device) for _ in range(a.ndim)]
    engine_nonzero(mask._storage, mask._layout, count, [(<Array>o)._storage for o in outs])
    return tuple(outs)


def searchsorted(x1, x2, /, *, side="left", sorter=None) -> Array:
    """Where the elements of ``x2`` would go in the sorted 1-D array ``x1`` to keep it sorted.

    Parameters
    ----------
    x1 : Array
        A 1-D array, sorted ascending (NaNs last), or made so by ``sorter``.
    x2 : Array or Python scalar
        The values to place.
    side : {"left", "right"}, optional
        For values equal to elements of ``x1``: the position before them ("left", default) or
        after them ("right").
    sorter : Array, optional
        Integer indices that sort ``x1`` (as ``argsort`` gives).

    Returns
    -------
    Array
        ``int64`` positions of ``x2``'s shape.

    Raises
    ------
    ValueError
        If ``x1`` is not 1-D or ``side`` is neither "left" nor "right".

    %(examples)s
    >>> x1 = xp.asarray([1, 2, 2, 3])
    >>> xp.searchsorted(x1, xp.asarray([2, 5]))
    Array([1, 4], dtype=int64)
    >>> xp.searchsorted(x1, xp.asarray([2, 5]), side='right')
    Array([3, 4], dtype=int64)
    """
    if not isinstance(x1, Array):
        raise TypeError(f"searchsorted expects an arrayx array, got {type(x1).__name__}")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    cdef Array a = <Array>x1
    if a._layout.ndim != 1:
        raise ValueError(f"searchsorted needs a 1-D x1, got shape {a.shape}")
    cdef Array order
    order_storage = None
    if sorter is not None:
        if not isinstance(sorter, Array) or (<Array>sorter)._code not in (DT_INT8, DT_INT16, DT_INT32, DT_INT64):
            raise TypeError("sorter must be an array of signed integers")
        order = contiguous_copy(<Array>sorter, DT_INT64)
        if order._layout.size != a._layout.size:
            raise ValueError("sorter must have x1's length")
        order_storage = order._storage
    cdef int beyond
    if not isinstance(x2, Array):
        # A Python int beyond x1's integer dtype goes after every element, or before: NumPy
        # and PyTorch place it so; strict mode refuses it, as the standard leaves it undefined.
        beyond = int_beyond(a._code, x2)
        if beyond != 0:
            return scalar_array(a._layout.size if beyond > 0 else 0, DT_INT64, a.device)
        x2 = _scalar_array(x2, _dtypes.result_type(a, x2), a.device)
    cdef int code = code_of(_dtypes.result_type(a, x2))
    cdef Array s = contiguous_copy(a, code)
    cdef Array v = contiguous_copy(<Array>x2, code)
    cdef Array out = new_array(contiguous(v._layout.ndim, v._layout.shape_), DT_INT64,
                               a._storage.device)
    engine_searchsorted(s._storage, s._layout.size, order_storage, v._storage, v._layout.size,
                        code, side == "right", out._storage)
    return out


fill([argmax, argmin, count_nonzero, nonzero, searchsorted, where],
     search_sections=sections([
         "x_real",
         "axis : int, optional\n"
         "    The axis to search along; None (default) searches the flattened array.",
         "keepdims_searched"],
         "``int64`` indices: 0-d for ``axis=None`` (an index into the flattened array),\n"
         "otherwise ``x``'s shape without ``axis``.",
         ["ValueError\n    If the searched axis is empty.", "raises_complex"]))

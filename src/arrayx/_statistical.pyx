"""Statistical functions: sum, prod, max, min, mean, var, std (folds of the engine)."""
from arrayx._array cimport Array, as_array, code_of, wrap
from arrayx._core.arguments cimport normalize_axis, reduction_axes
from arrayx._core.layout cimport Layout, expand_dims, squeeze
from arrayx._engine cimport fold, scan, squared_deviations, sum_of_products
from arrayx._kernels.dtype_codes cimport (
    DT_BOOL, DT_COMPLEX64, DT_FLOAT32, DT_FLOAT64, DT_INT64, DT_UINT8, DT_UINT64,
)
from arrayx._kernels.op_ids cimport FOLD_MAX, FOLD_MIN, FOLD_PROD, FOLD_SUM, OP_ADD, OP_MULTIPLY

from arrayx._elementwise import add, divide, imag, not_equal, real, sqrt
from arrayx._docfill import fill, sections
from arrayx import _strict

__all__ = [
    "cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var",
]


cdef int _sum_code(int code, object dtype, str name) except -1:
    """The accumulator dtype of sum and prod: the standard's defaults, or ``dtype``.

    Bool input sums (and multiplies) to the default integer dtype, as NumPy, CuPy and PyTorch
    do; the standard leaves it open, so it is an extension (strict mode raises instead).
    """
    if dtype is not None:
        return code_of(dtype)
    if code <= DT_INT64:
        return DT_INT64
    if DT_UINT8 <= code <= DT_UINT64:
        return DT_UINT64
    return code


def sum_of_last_products(Array x1, Array x2) -> Array:
    """The sums of ``x1 * x2`` along the last axis, without the products' temporary: the
    vecdot of short vectors. Both arrays are floating point, of one dtype and one shape, and
    at least 1-d (the caller broadcasts and promotes)."""
    axes = (x1._layout.ndim - 1,)
    s, L, c = sum_of_products(x1._storage, x1._layout, x2._storage, x2._layout, x1._code, axes)
    return wrap(s, squeeze(L, axes), c)


cdef Array _bool_fold(int op, Array a, tuple axes, bint keepdims):
    """The largest (``FOLD_MAX``: any) or smallest (``FOLD_MIN``: all) of the bool ``a``
    along ``axes``, as bool: its bytes read as uint8 (a byte other than 0 and 1 still counts
    as True)."""
    cdef Array bytes_ = wrap(a._storage, a._layout, DT_UINT8)
    return not_equal(_fold(op, bytes_, axes, DT_UINT8, keepdims), 0)


cdef object _as_bool_fold(int op, Array a, object axis, object dtype, bint keepdims):
    """``sum`` (``FOLD_SUM``) or ``prod`` of ``a`` with ``dtype=bool``, as NumPy and PyTorch
    give it (each element as bool, then any or all), or None where ``dtype`` is not bool or
    strict mode is on (the standard has no bool sum: the engine refuses it)."""
    if dtype is None or _strict.FLAGS.strict or code_of(dtype) != DT_BOOL:
        return None
    cdef Array b = a if a._code == DT_BOOL else not_equal(a, 0)
    return _bool_fold(FOLD_MAX if op == FOLD_SUM else FOLD_MIN, b,
                      reduction_axes(axis, a._layout.ndim), keepdims)


cdef Array _fold(int op, Array a, tuple axes, int acc, bint keepdims):
    s, L, c = fold(op, a._storage, a._layout, a._code, acc, axes)
    if not keepdims:
        L = squeeze(L, axes)
    return wrap(s, L, c)


def sum(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:
    """The sum of the elements of ``x``, along ``axis``.

    Floating-point sums are pairwise, and do not depend on the thread count.

    Parameters
    ----------
    %(x_numeric)s
    %(reduce_axis)s
    %(sum_dtype)s
    %(keepdims_broadcast)s

    Returns
    -------
    Array
        The sums; 0-d when every axis is reduced. An empty sum is 0.

    %(examples)s
    >>> x = xp.asarray([[1, 2], [3, 4]], dtype=xp.int8)
    >>> xp.sum(x)
    Array(10, dtype=int64)
    >>> xp.sum(x, axis=0, keepdims=True)
    Array([[4, 6]], dtype=int64)
    >>> xp.sum(xp.asarray([0.5, 0.25]))
    Array(0.75, dtype=float64)
    >>> xp.sum(xp.asarray([True, False, True]))
    Array(2, dtype=int64)
    """
    cdef Array a = as_array(x, "sum")
    as_bool = _as_bool_fold(FOLD_SUM, a, axis, dtype, keepdims)
    if as_bool is not None:
        return as_bool
    return _fold(FOLD_SUM, a, reduction_axes(axis, a._layout.ndim),
                 _sum_code(a._code, dtype, "sum"), keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:
    """The product of the elements of ``x``, along ``axis``.

    Parameters
    ----------
    %(x_numeric)s
    %(reduce_axis)s
    %(sum_dtype)s
    %(keepdims)s

    Returns
    -------
    Array
        The products; an empty product is 1.

    %(examples)s
    >>> xp.prod(xp.asarray([1, 2, 3, 4]))
    Array(24, dtype=int64)
    >>> xp.prod(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    Array([ 2., 12.], dtype=float64)
    """
    cdef Array a = as_array(x, "prod")
    as_bool = _as_bool_fold(FOLD_PROD, a, axis, dtype, keepdims)
    if as_bool is not None:
        return as_bool
    return _fold(FOLD_PROD, a, reduction_axes(axis, a._layout.ndim),
                 _sum_code(a._code, dtype, "prod"), keepdims)


cdef Array _extreme(int op, object x, object axis, bint keepdims, str name):
    cdef Array a = as_array(x, name)
    axes = reduction_axes(axis, a._layout.ndim)
    # Bool is an extension (any or all, as NumPy and PyTorch give it); strict mode refuses it,
    # as the standard's max and min take real numbers.
    if (a._code == DT_BOOL and _strict.FLAGS.strict) or a._code >= DT_COMPLEX64:
        raise TypeError(f"{name} takes a real-valued array, not {a.dtype}")
    for i in axes:
        if a._layout.shape_[i] == 0:
            raise ValueError(f"{name} of an empty axis has no value")
    if a._code == DT_BOOL:
        return _bool_fold(op, a, axes, keepdims)
    return _fold(op, a, axes, a._code, keepdims)


def max(x, /, *, axis=None, keepdims=False) -> Array:
    """The largest element of ``x``, along ``axis``.

    A NaN anywhere in a reduced run makes its result NaN.

    %(extreme_sections)s

    %(examples)s
    >>> x = xp.asarray([[1.0, 5.0], [7.0, 2.0]])
    >>> xp.max(x)
    Array(7., dtype=float64)
    >>> xp.max(x, axis=0)
    Array([7., 5.], dtype=float64)
    """
    return _extreme(FOLD_MAX, x, axis, keepdims, "max")


def min(x, /, *, axis=None, keepdims=False) -> Array:
    """The smallest element of ``x``, along ``axis``.

    A NaN anywhere in a reduced run makes its result NaN.

    %(extreme_sections)s

    %(examples)s
    >>> x = xp.asarray([[1.0, 5.0], [7.0, xp.nan]])
    >>> xp.min(x, axis=1)
    Array([ 1., nan], dtype=float64)
    """
    return _extreme(FOLD_MIN, x, axis, keepdims, "min")


cdef object _count(Array a, tuple axes):
    n = 1
    for i in axes:
        n *= a._layout.shape_[i]
    return n


def mean(x, /, *, axis=None, keepdims=False) -> Array:
    """The arithmetic mean of the elements of ``x``, along ``axis``.

    Parameters
    ----------
    x : Array
        A floating-point (real or complex) array.
    %(reduce_axis)s
    %(keepdims_broadcast)s

    Returns
    -------
    Array
        An array of ``x``'s dtype; NaN where a reduced axis is empty.

    Raises
    ------
    TypeError
        If ``x`` is not floating point (convert integers with ``astype`` first).

    %(examples)s
    >>> xp.mean(xp.asarray([[1.0, 2.0], [3.0, 6.0]]), axis=1)
    Array([1.5, 4.5], dtype=float64)
    >>> xp.mean(xp.asarray([1.0, 2.0, 3.0, 6.0]))
    Array(3., dtype=float64)
    """
    cdef Array a = as_array(x, "mean")
    if a._code < DT_FLOAT32:
        raise TypeError(f"mean takes a floating-point array, not {a.dtype}")
    axes = reduction_axes(axis, a._layout.ndim)
    total = _fold(FOLD_SUM, a, axes, a._code, keepdims)
    return divide(total, float(_count(a, axes)) if _count(a, axes) else float("nan"))


def var(x, /, *, axis=None, correction=0.0, keepdims=False) -> Array:
    """The variance of the elements of ``x``, along ``axis``.

    Computed in two passes (the mean, then a fused sum of squared deviations) without a
    full-size temporary.

    %(spread_sections)s

    %(examples)s
    >>> x = xp.asarray([1.0, 2.0, 3.0, 4.0])
    >>> xp.var(x)
    Array(1.25, dtype=float64)
    >>> xp.var(x, correction=1)
    Array(1.66666667, dtype=float64)
    """
    cdef Array a = as_array(x, "var")
    if a._code >= DT_COMPLEX64 and not _strict.FLAGS.strict:
        # |z - mean|^2 is the real parts' squared deviation plus the imaginary parts': the
        # sum of their variances, real (as NumPy and PyTorch give it; the standard's var takes
        # real floating point, and strict mode refuses complex).
        return add(var(real(a), axis=axis, correction=correction, keepdims=keepdims),
                   var(imag(a), axis=axis, correction=correction, keepdims=keepdims))
    if a._code not in (DT_FLOAT32, DT_FLOAT64):
        raise TypeError(f"var takes a real floating-point array, not {a.dtype}")
    axes = reduction_axes(axis, a._layout.ndim)
    n = _count(a, axes)
    # Two passes over x and no full-size temporary: the mean, then the squared deviations.
    cdef Array centre = mean(a, axis=axes, keepdims=True)
    s, L, c = squared_deviations(a._storage, a._layout, a._code, centre._storage,
                                 centre._layout, axes)
    if not keepdims:
        L = squeeze(L, axes)
    squares = wrap(s, L, c)
    divisor = n - correction
    return divide(squares, float(divisor) if divisor > 0 else float("nan"))


def std(x, /, *, axis=None, correction=0.0, keepdims=False) -> Array:
    """The standard deviation of the elements of ``x``, along ``axis``: the square root of ``var``.

    %(spread_sections)s

    %(examples)s
    >>> xp.std(xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]))
    Array(2., dtype=float64)
    """
    return sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


cdef Array _scan(int op, object x, object axis, object dtype, bint include_initial,
                 object identity, str name):
    cdef Array a = as_array(x, name)
    cdef int ax = 0
    cdef Layout layout = a._layout
    if layout.ndim == 0:
        # A 0-d array scans as one of shape (1,), as NumPy's cumulative_sum does (PyTorch's
        # cumsum takes it too); the standard asks for one dimension or more.
        if _strict.FLAGS.strict:
            raise ValueError(f"{name} needs an array of at least one dimension (strict mode)")
        if axis is not None:
            normalize_axis(axis, 1)
        layout = expand_dims(layout, (0,))
    elif axis is None:
        if layout.ndim > 1:
            raise ValueError(f"{name} of an array of {a.ndim} dimensions needs an axis")
    else:
        ax = normalize_axis(axis, layout.ndim)
    s, L, c = scan(op, a._storage, layout, a._code, _sum_code(a._code, dtype, name), ax,
                   include_initial, identity)
    return wrap(s, L, c)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    """The running sum of the elements of ``x`` along ``axis``.

    %(scan_sections)s

    %(examples)s
    >>> xp.cumulative_sum(xp.asarray([1, 2, 3, 4]))
    Array([ 1,  3,  6, 10], dtype=int64)
    >>> xp.cumulative_sum(xp.asarray([[1, 2], [3, 4]]), axis=1, include_initial=True)
    Array([[0, 1, 3],
           [0, 3, 7]], dtype=int64)
    >>> xp.cumulative_sum(xp.asarray([True, True, False]))
    Array([1, 2, 2], dtype=int64)
    """
    return _scan(OP_ADD, x, axis, dtype, include_initial, 0, "cumulative_sum")


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    """The running product of the elements of ``x`` along ``axis``.

    %(scan_sections)s

    %(examples)s
    >>> xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))
    Array([ 1,  2,  6, 24], dtype=int64)
    >>> xp.cumulative_prod(xp.asarray([2.0, 3.0]), include_initial=True)
    Array([1., 2., 6.], dtype=float64)
    """
    return _scan(OP_MULTIPLY, x, axis, dtype, include_initial, 1, "cumulative_prod")


fill([cumulative_prod, cumulative_sum, max, mean, min, prod, std, sum, var],
     spread_sections=sections([
         "x : Array\n    A floating-point array; complex (outside strict mode) gives the spread of\n"
         "    the complex values about their mean, as NumPy.",
         "reduce_axis",
         "correction : int or float, optional\n"
         "    Subtracted from the number of elements in the divisor: 0 (default) for the\n"
         "    population's, 1 for the sample's variance or standard deviation.",
         "keepdims"],
         "An array of ``x``'s real dtype; NaN where the divisor is not positive.",
         ["TypeError\n    If ``x`` is not floating point (or, in strict mode, is complex)."]),
     extreme_sections=sections(
         ["x_real", "reduce_axis", "keepdims_broadcast"],
         "An array of ``x``'s dtype (bool outside strict mode: ``max`` is any, ``min`` all).",
         ["ValueError\n    If a reduced axis is empty (the extreme of nothing has no value).",
          "raises_complex"]),
     scan_sections=sections([
         "x_numeric",
         "axis : int, optional\n"
         "    The axis to accumulate along; required when ``x`` has more than one dimension.",
         "sum_dtype",
         "include_initial : bool, optional\n"
         "    Start with the operation's identity (0 for a sum, 1 for a product), making the\n"
         "    axis one longer (default False)."],
         "``x``'s shape (one longer along ``axis`` with ``include_initial``).",
         ["ValueError\n    If ``x`` has more than one dimension and no ``axis`` is given."]))

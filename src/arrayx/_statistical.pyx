"""Statistical functions: sum, prod, max, min, mean, var, std (folds of the engine)."""
from arrayx._array cimport Array, as_array, code_of, wrap
from arrayx._core.layout cimport normalize_axis, reduction_axes, squeeze
from arrayx._engine cimport fold, scan, squared_deviations

from arrayx._engine import BINARY_NAMES

from arrayx._elementwise import divide, sqrt

__all__ = [
    "cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var",
]

cdef int FOLD_SUM = 0, FOLD_PROD = 1, FOLD_MAX = 2, FOLD_MIN = 3
cdef int ADD = BINARY_NAMES.index("add"), MULTIPLY = BINARY_NAMES.index("multiply")



cdef int _sum_code(int code, object dtype, str name) except -1:
    """The accumulator dtype of sum and prod: the standard's defaults, or ``dtype``."""
    if dtype is not None:
        return code_of(dtype)
    if code == 0:
        raise TypeError(f"{name} does not accept bool input; pass dtype=")
    if 1 <= code <= 4:
        return 4
    if 5 <= code <= 8:
        return 8
    return code


cdef Array _fold(int op, Array a, tuple axes, int acc, bint keepdims):
    s, L, c = fold(op, a._storage, a._layout, a._code, acc, axes)
    if not keepdims:
        L = squeeze(L, axes)
    return wrap(s, L, c)


def sum(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:
    """The sum of the elements (along ``axis``), pairwise for floating point.

    Parameters
    ----------
    x : Array
        A numeric array.
    axis : int or tuple of ints, optional
        Axes to reduce; None reduces all.
    dtype : dtype, optional
        The accumulator and result dtype; default: int64 for signed, uint64 for unsigned
        integers, the input's dtype for floating point.
    keepdims : bool
        Keep the reduced axes as unit axes.

    Returns
    -------
    Array
    """
    cdef Array a = as_array(x, "sum")
    return _fold(FOLD_SUM, a, reduction_axes(axis, a._layout.ndim),
                 _sum_code(a._code, dtype, "sum"), keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:
    """The product of the elements (along ``axis``); parameters as ``sum``."""
    cdef Array a = as_array(x, "prod")
    return _fold(FOLD_PROD, a, reduction_axes(axis, a._layout.ndim),
                 _sum_code(a._code, dtype, "prod"), keepdims)


cdef Array _extreme(int op, object x, object axis, bint keepdims, str name):
    cdef Array a = as_array(x, name)
    axes = reduction_axes(axis, a._layout.ndim)
    if a._code == 0 or a._code >= 11:
        raise TypeError(f"{name} takes a real-valued array, not {a.dtype}")
    for i in axes:
        if a._layout.shape_[i] == 0:
            raise ValueError(f"{name} of an empty axis has no value")
    return _fold(op, a, axes, a._code, keepdims)


def max(x, /, *, axis=None, keepdims=False) -> Array:
    """The largest element (along ``axis``); NaN if any is NaN; ValueError when empty."""
    return _extreme(FOLD_MAX, x, axis, keepdims, "max")


def min(x, /, *, axis=None, keepdims=False) -> Array:
    """The smallest element (along ``axis``); NaN if any is NaN; ValueError when empty."""
    return _extreme(FOLD_MIN, x, axis, keepdims, "min")


cdef object _count(Array a, tuple axes):
    n = 1
    for i in axes:
        n *= a._layout.shape_[i]
    return n


def mean(x, /, *, axis=None, keepdims=False) -> Array:
    """The arithmetic mean (along ``axis``) of a floating-point array; NaN when empty."""
    cdef Array a = as_array(x, "mean")
    if a._code < 9:
        raise TypeError(f"mean takes a floating-point array, not {a.dtype}")
    axes = reduction_axes(axis, a._layout.ndim)
    total = _fold(FOLD_SUM, a, axes, a._code, keepdims)
    return divide(total, float(_count(a, axes)) if _count(a, axes) else float("nan"))


def var(x, /, *, axis=None, correction=0.0, keepdims=False) -> Array:
    """The variance (along ``axis``) of a real floating-point array.

    Parameters
    ----------
    x : Array
    axis : int or tuple of ints, optional
    correction : int or float
        Degrees of freedom removed from the divisor (0: population, 1: sample).
    keepdims : bool

    Returns
    -------
    Array
        NaN where the divisor is not positive.
    """
    cdef Array a = as_array(x, "var")
    if a._code not in (9, 10):
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
    """The standard deviation (along ``axis``); parameters as ``var``."""
    return sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


cdef Array _scan(int op, object x, object axis, object dtype, bint include_initial,
                 object identity, str name):
    cdef Array a = as_array(x, name)
    cdef int ax
    if axis is None:
        if a._layout.ndim > 1:
            raise ValueError(f"{name} of an array of {a.ndim} dimensions needs an axis")
        if a._layout.ndim == 0:
            raise ValueError(f"{name} needs an array of at least one dimension")
        ax = 0
    else:
        ax = normalize_axis(axis, a._layout.ndim)
    s, L, c = scan(op, a._storage, a._layout, a._code, _sum_code(a._code, dtype, name), ax,
                   include_initial, identity)
    return wrap(s, L, c)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    """The running sum along ``axis``.

    Parameters
    ----------
    x : Array
        A numeric array.
    axis : int, optional
        Required when ``x`` has more than one dimension.
    dtype : dtype, optional
        Accumulator and result dtype (defaults as ``sum``).
    include_initial : bool
        Start with a zero, making the axis one longer.

    Returns
    -------
    Array
    """
    return _scan(ADD, x, axis, dtype, include_initial, 0, "cumulative_sum")


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    """The running product along ``axis`` (starting with a one when ``include_initial``)."""
    return _scan(MULTIPLY, x, axis, dtype, include_initial, 1, "cumulative_prod")

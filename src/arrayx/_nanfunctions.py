"""NaN-skipping reductions (``nansum``, ``nanmean``, ...): an extension, shaped as NumPy's.

The standard has none of them; xarray, pandas and Cubed call them on the namespace, with NumPy's
keywords (``dtype``, ``ddof``, ``keepdims``). Each one is the standard reduction over ``x``
with the NaNs replaced by the reduction's identity, so it runs on arrayx's kernels.
"""

from __future__ import annotations

from arrayx._array import Array
from arrayx._creation import ones_like
from arrayx._data_type_functions import astype, isdtype
from arrayx._docfill import fill, sections
from arrayx._elementwise import abs, isnan, logical_not, maximum, sqrt
from arrayx._searching import argmax, argmin, where
from arrayx._statistical import max, min, prod, sum
from arrayx._utility import all, any

__all__ = [
    "nanargmax", "nanargmin", "nanmax", "nanmean", "nanmin", "nanprod", "nanstd", "nansum",
    "nanvar",
]


def _array(x: object, name: str) -> Array:
    if not isinstance(x, Array):
        raise TypeError(f"{name} expects an arrayx array, got {type(x).__name__}")
    return x


def _has_nan(a: Array) -> bool:
    """Whether ``a``'s dtype can hold NaN (real or complex floating point)."""
    return isdtype(a.dtype, ("real floating", "complex floating"))


def _filled(a: Array, value: float) -> Array:
    """``a`` with its NaNs replaced by ``value`` (``a`` itself where there can be none)."""
    return where(isnan(a), value, a) if _has_nan(a) else a


def _floating(a: Array, dtype: object) -> Array:
    """``a`` as the floating dtype a mean is taken in: ``dtype``, or float64 for integers."""
    if dtype is not None:
        return astype(a, dtype)
    if isdtype(a.dtype, ("bool", "integral")):
        return astype(a, "float64")
    return a


def _count(a: Array, axis: object, keepdims: bool) -> Array:
    """The number of non-NaN elements along ``axis``."""
    present = logical_not(isnan(a)) if _has_nan(a) else ones_like(a, dtype="bool")
    return sum(present, axis=axis, keepdims=keepdims)


def nansum(x: Array, /, axis: object = None, dtype: object = None,
           keepdims: bool = False) -> Array:
    """The sum of the elements of ``x`` along ``axis``, NaNs counted as zero (an extension).

    %(nan_fold_sections)s

    %(examples)s
    >>> xp.nansum(xp.asarray([1.0, xp.nan, 2.0]))
    Array(3., dtype=float64)
    >>> xp.nansum(xp.asarray([[1.0, xp.nan], [xp.nan, xp.nan]]), axis=1)
    Array([1., 0.], dtype=float64)
    """
    a = _array(x, "nansum")
    return sum(_filled(a, 0), axis=axis, dtype=dtype, keepdims=keepdims)


def nanprod(x: Array, /, axis: object = None, dtype: object = None,
            keepdims: bool = False) -> Array:
    """The product of the elements of ``x`` along ``axis``, NaNs counted as one (an extension).

    %(nan_fold_sections)s

    %(examples)s
    >>> xp.nanprod(xp.asarray([[2.0, xp.nan], [3.0, 4.0]]), axis=0)
    Array([6., 4.], dtype=float64)
    """
    a = _array(x, "nanprod")
    return prod(_filled(a, 1), axis=axis, dtype=dtype, keepdims=keepdims)


def nanmean(x: Array, /, axis: object = None, dtype: object = None,
            keepdims: bool = False) -> Array:
    """The mean of the non-NaN elements of ``x`` along ``axis`` (an extension).

    Parameters
    ----------
    x : Array
        A numeric array; integers and bools are averaged in float64, as NumPy does.
    %(reduce_axis)s
    dtype : dtype, optional
        A floating dtype to compute and return the mean in.
    %(keepdims)s

    Returns
    -------
    Array
        The means; NaN where a slice holds only NaNs (or nothing).

    %(examples)s
    >>> xp.nanmean(xp.asarray([1.0, xp.nan, 3.0]))
    Array(2., dtype=float64)
    >>> xp.nanmean(xp.asarray([[1.0, 2.0], [xp.nan, xp.nan]]), axis=1)
    Array([1.5, nan], dtype=float64)
    """
    a = _floating(_array(x, "nanmean"), dtype)
    total = sum(_filled(a, 0), axis=axis, keepdims=keepdims)
    return total / astype(_count(a, axis, keepdims), total.dtype)


def nanvar(x: Array, /, axis: object = None, dtype: object = None, ddof: float = 0,
           keepdims: bool = False) -> Array:
    """The variance of the non-NaN elements of ``x`` along ``axis`` (an extension).

    %(nan_moment_sections)s

    %(examples)s
    >>> xp.nanvar(xp.asarray([1.0, xp.nan, 3.0]))
    Array(1., dtype=float64)
    >>> xp.nanvar(xp.asarray([1.0, xp.nan, 3.0]), ddof=1)
    Array(2., dtype=float64)
    """
    given = _array(x, "nanvar")
    a = _floating(given, dtype)
    centre = nanmean(a, axis=axis, keepdims=True)
    # The NaNs dropped are the input's: inf - inf is NaN in a kept element's deviation, and a
    # complex NaN's deviation (abs of nan - inf j) can be inf.
    deviation = abs(a - centre)
    if _has_nan(a):
        deviation = where(isnan(a), 0.0, deviation)
    squares = sum(deviation * deviation, axis=axis, keepdims=keepdims)
    divisor = astype(_count(a, axis, keepdims), squares.dtype) - ddof
    if not _has_nan(given):  # NumPy's var, which divides by max(divisor, 0)
        return squares / maximum(divisor, 0.0)
    return where(divisor > 0, squares / divisor, float("nan"))


def nanstd(x: Array, /, axis: object = None, dtype: object = None, ddof: float = 0,
           keepdims: bool = False) -> Array:
    """The standard deviation of the non-NaN elements of ``x`` along ``axis`` (an extension).

    %(nan_moment_sections)s

    %(examples)s
    >>> xp.nanstd(xp.asarray([[1.0, xp.nan, 3.0], [2.0, 2.0, xp.nan]]), axis=1)
    Array([1., 0.], dtype=float64)
    """
    return sqrt(nanvar(_array(x, "nanstd"), axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims))


def _nan_extreme(a: Array, fold: object, fill: float, axis: object, keepdims: bool) -> Array:
    if not _has_nan(a):
        return fold(a, axis=axis, keepdims=keepdims)
    nans = isnan(a)
    found = fold(where(nans, fill, a), axis=axis, keepdims=keepdims)
    return where(all(nans, axis=axis, keepdims=keepdims), float("nan"), found)


def nanmax(x: Array, /, axis: object = None, keepdims: bool = False) -> Array:
    """The largest non-NaN element of ``x`` along ``axis`` (an extension).

    %(nan_extreme_sections)s

    %(examples)s
    >>> xp.nanmax(xp.asarray([[1.0, xp.nan], [xp.nan, xp.nan]]), axis=1)
    Array([ 1., nan], dtype=float64)
    """
    return _nan_extreme(_array(x, "nanmax"), max, float("-inf"), axis, keepdims)


def nanmin(x: Array, /, axis: object = None, keepdims: bool = False) -> Array:
    """The smallest non-NaN element of ``x`` along ``axis`` (an extension).

    %(nan_extreme_sections)s

    %(examples)s
    >>> xp.nanmin(xp.asarray([3.0, xp.nan, 2.0]))
    Array(2., dtype=float64)
    """
    return _nan_extreme(_array(x, "nanmin"), min, float("inf"), axis, keepdims)


def _nan_arg(a: Array, fold: object, fill: float, axis: object, keepdims: bool,
             name: str) -> Array:
    if not _has_nan(a):
        return fold(a, axis=axis, keepdims=keepdims)
    nans = isnan(a)
    if any(all(nans, axis=axis)):
        raise ValueError(f"{name}: all-NaN slice encountered")
    return fold(where(nans, fill, a), axis=axis, keepdims=keepdims)


def nanargmax(x: Array, /, axis: int | None = None, keepdims: bool = False) -> Array:
    """The index of the largest non-NaN element of ``x`` along ``axis`` (an extension).

    %(nan_search_sections)s

    %(examples)s
    >>> xp.nanargmax(xp.asarray([1.0, xp.nan, 3.0, 2.0]))
    Array(2, dtype=int64)
    """
    return _nan_arg(_array(x, "nanargmax"), argmax, float("-inf"), axis, keepdims, "nanargmax")


def nanargmin(x: Array, /, axis: int | None = None, keepdims: bool = False) -> Array:
    """The index of the smallest non-NaN element of ``x`` along ``axis`` (an extension).

    %(nan_search_sections)s

    %(examples)s
    >>> xp.nanargmin(xp.asarray([[xp.nan, 1.0], [0.5, 2.0]]), axis=1)
    Array([1, 0], dtype=int64)
    """
    return _nan_arg(_array(x, "nanargmin"), argmin, float("inf"), axis, keepdims, "nanargmin")


fill([nanargmax, nanargmin, nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar],
     nan_fold_sections=sections([
         "x_numeric", "reduce_axis",
         "dtype : dtype, optional\n"
         "    The accumulator and result dtype, as the reduction without NaNs\n"
         "    (:func:`arrayx.sum`, :func:`arrayx.prod`) takes it.",
         "keepdims"],
         "As the reduction without NaNs returns; where a slice holds only NaNs, its identity:\n"
         "0 for a sum, 1 for a product."),
     nan_moment_sections=sections([
         "x : Array\n"
         "    A numeric array; integers and bools are taken in float64, as NumPy does.",
         "reduce_axis",
         "dtype : dtype, optional\n    A floating dtype to compute in.",
         "ddof : int or float, optional\n"
         "    Subtracted from the count of non-NaN elements in the divisor (NumPy's name for\n"
         "    the standard's ``correction``); default 0.",
         "keepdims"],
         "The variances (``nanvar``) or standard deviations (``nanstd``), real-valued; NaN where\n"
         "the divisor is not positive (for integer input, which cannot hold NaN, the divisor is\n"
         "clamped at zero, as ``numpy.var`` does)."),
     nan_extreme_sections=sections(
         ["x_real", "reduce_axis", "keepdims"],
         "The extreme values; NaN where a slice holds only NaNs.", ["raises_empty_axis"]),
     nan_search_sections=sections([
         "x_real",
         "axis : int, optional\n"
         "    The axis to search; None (default) searches the flattened array.",
         "keepdims_searched"],
         "``int64`` indices (of the first occurrence of a tie).",
         ["ValueError\n    If a searched slice holds only NaNs, as NumPy raises."]))

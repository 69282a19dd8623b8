"""Elementwise functions: thin, documented entries into the elementwise engine.

Each op is declared once, as data, in ``arrayx/_kernels/ops.py``; the kernels are generated
from that table. Arguments are arrays, or for two-argument functions one array and one Python
scalar. Broadcasting and type promotion follow the standard.
"""

from __future__ import annotations

from arrayx._array import Array, apply_binary, apply_binary_into, apply_unary, clip_bound

__all__ = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_invert", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "ceil", "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1", "floor",
    "floor_divide", "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan",
    "less", "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply", "negative",
    "nextafter", "not_equal", "positive", "pow", "real", "reciprocal", "remainder", "round", "sign",
    "signbit", "sin", "sinh", "sqrt", "square", "subtract", "tan", "tanh", "trunc",
]


def _truth(x: Array | complex) -> Array | complex:
    """A numeric array's truth (nonzero) for the logical functions, as NumPy takes it (an
    extension: the standard's logical functions take bool; strict mode refuses the rest)."""
    if isinstance(x, Array) and x.dtype != "bool":
        return apply_binary("not_equal", x, 0)
    return x


def abs(x: Array, /) -> Array:
    """The absolute value of each element.

    For complex input, the modulus, as the matching real dtype. The absolute value of the most
    negative integer is itself (it wraps, as in C).

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s shape; real floating for complex input (``float32`` for ``complex64``,
    ``float64`` for ``complex128``), ``x``'s dtype otherwise.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.abs(xp.asarray([-1.5, 0.0, 2.0]))
    Array([1.5, 0. , 2. ], dtype=float64)
    >>> xp.abs(xp.asarray([3 + 4j]))
    Array([5.], dtype=float64)
    """
    return apply_unary("abs", x)


def acos(x: Array, /) -> Array:
    """The principal inverse cosine of each element, in radians.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.acos(xp.asarray([1.0, 0.0]))
    Array([0.        , 1.57079633], dtype=float64)
    """
    return apply_unary("acos", x)


def acosh(x: Array, /) -> Array:
    """The inverse hyperbolic cosine of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.acosh(xp.asarray([1.0]))
    Array([0.], dtype=float64)
    """
    return apply_unary("acosh", x)


def asin(x: Array, /) -> Array:
    """The principal inverse sine of each element, in radians.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.asin(xp.asarray([0.0, 1.0]))
    Array([0.        , 1.57079633], dtype=float64)
    """
    return apply_unary("asin", x)


def asinh(x: Array, /) -> Array:
    """The inverse hyperbolic sine of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.asinh(xp.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    return apply_unary("asinh", x)


def atan(x: Array, /) -> Array:
    """The principal inverse tangent of each element, in radians.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.atan(xp.asarray([0.0, 1.0]))
    Array([0.        , 0.78539816], dtype=float64)
    """
    return apply_unary("atan", x)


def atanh(x: Array, /) -> Array:
    """The inverse hyperbolic tangent of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.atanh(xp.asarray([0.0, 1.0]))
    Array([ 0., inf], dtype=float64)
    """
    return apply_unary("atanh", x)


def bitwise_invert(x: Array, /) -> Array:
    """The bitwise NOT of each element.

    For bool input, the logical NOT.

    Parameters
    ----------
    x : Array
        Input array of an integer or bool dtype.

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of an integer or bool dtype.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.bitwise_invert(xp.asarray([0, 5], dtype=xp.uint8))
    Array([255, 250], dtype=uint8)
    >>> xp.bitwise_invert(xp.asarray([True, False]))
    Array([False,  True], dtype=bool)
    """
    return apply_unary("bitwise_invert", x)


def ceil(x: Array, /) -> Array:
    """The smallest integer-valued number not less than each element.

    Integer input is returned unchanged (as a copy).

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype (integer or real floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a real-valued dtype (integer or real floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.ceil(xp.asarray([-1.5, 0.2, 2.0]))
    Array([-1.,  1.,  2.], dtype=float64)
    """
    return apply_unary("ceil", x)


def conj(x: Array, /) -> Array:
    """The complex conjugate of each element.

    Real input is returned unchanged (as a copy).

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.conj(xp.asarray([1 + 2j, 3 - 1j]))
    Array([1.-2.j, 3.+1.j], dtype=complex128)
    """
    return apply_unary("conj", x)


def cos(x: Array, /) -> Array:
    """The cosine of each element, in radians.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.cos(xp.asarray([0.0, xp.pi]))
    Array([ 1., -1.], dtype=float64)
    """
    return apply_unary("cos", x)


def cosh(x: Array, /) -> Array:
    """The hyperbolic cosine of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.cosh(xp.asarray([0.0]))
    Array([1.], dtype=float64)
    """
    return apply_unary("cosh", x)


def exp(x: Array, /) -> Array:
    """The exponential of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.exp(xp.asarray([0.0, 1.0]))
    Array([1.        , 2.71828183], dtype=float64)
    """
    return apply_unary("exp", x)


def expm1(x: Array, /) -> Array:
    """``exp(x) - 1`` of each element, accurate for elements near zero.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.expm1(xp.asarray([0.0, 1e-10]))
    Array([0.e+00, 1.e-10], dtype=float64)
    """
    return apply_unary("expm1", x)


def floor(x: Array, /) -> Array:
    """The largest integer-valued number not greater than each element.

    Integer input is returned unchanged (as a copy).

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype (integer or real floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a real-valued dtype (integer or real floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.floor(xp.asarray([-1.5, 0.2, 2.0]))
    Array([-2.,  0.,  2.], dtype=float64)
    """
    return apply_unary("floor", x)


def imag(x: Array, /) -> Array:
    """The imaginary part of each element.

    For real input, zeros.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s shape; real floating for complex input (``float32`` for ``complex64``,
    ``float64`` for ``complex128``), ``x``'s dtype otherwise.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.imag(xp.asarray([1 + 2j, 3 - 1j]))
    Array([ 2., -1.], dtype=float64)
    """
    return apply_unary("imag", x)


def isfinite(x: Array, /) -> Array:
    """Whether each element is finite.

    A complex element is finite when both parts are.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A bool array of ``x``'s shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.isfinite(xp.asarray([1.0, xp.inf, xp.nan]))
    Array([ True, False, False], dtype=bool)
    """
    return apply_unary("isfinite", x)


def isinf(x: Array, /) -> Array:
    """Whether each element is infinite.

    A complex element is infinite when either part is.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A bool array of ``x``'s shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.isinf(xp.asarray([1.0, -xp.inf, xp.nan]))
    Array([False,  True, False], dtype=bool)
    """
    return apply_unary("isinf", x)


def isnan(x: Array, /) -> Array:
    """Whether each element is NaN.

    A complex element is NaN when either part is.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A bool array of ``x``'s shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.isnan(xp.asarray([1.0, xp.inf, xp.nan]))
    Array([False, False,  True], dtype=bool)
    """
    return apply_unary("isnan", x)


def log(x: Array, /) -> Array:
    """The natural logarithm of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.log(xp.asarray([1.0, xp.e]))
    Array([0., 1.], dtype=float64)
    """
    return apply_unary("log", x)


def log1p(x: Array, /) -> Array:
    """``log(1 + x)`` of each element, accurate for elements near zero.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.log1p(xp.asarray([0.0, 1e-10]))
    Array([0.e+00, 1.e-10], dtype=float64)
    """
    return apply_unary("log1p", x)


def log2(x: Array, /) -> Array:
    """The base-2 logarithm of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.log2(xp.asarray([1.0, 8.0]))
    Array([0., 3.], dtype=float64)
    """
    return apply_unary("log2", x)


def log10(x: Array, /) -> Array:
    """The base-10 logarithm of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.log10(xp.asarray([1.0, 1000.0]))
    Array([0., 3.], dtype=float64)
    """
    return apply_unary("log10", x)


def logical_not(x: Array, /) -> Array:
    """The logical NOT of each element.

    Parameters
    ----------
    x : Array
        Input array of the bool dtype (a numeric array counts as its truth, nonzero, as in
        NumPy: an extension).

    Returns
    -------
    Array
        A bool array of ``x``'s shape.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.logical_not(xp.asarray([True, False]))
    Array([False,  True], dtype=bool)
    """
    return apply_unary("logical_not", _truth(x))


def negative(x: Array, /) -> Array:
    """The negation of each element.

    Unsigned integers wrap around.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.negative(xp.asarray([1, -2]))
    Array([-1,  2], dtype=int64)
    """
    return apply_unary("negative", x)


def positive(x: Array, /) -> Array:
    """Each element unchanged, as a new array.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.positive(xp.asarray([1, -2]))
    Array([ 1, -2], dtype=int64)
    """
    return apply_unary("positive", x)


def real(x: Array, /) -> Array:
    """The real part of each element.

    Real input is returned unchanged (as a copy).

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s shape; real floating for complex input (``float32`` for ``complex64``,
    ``float64`` for ``complex128``), ``x``'s dtype otherwise.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.real(xp.asarray([1 + 2j, 3 - 1j]))
    Array([1., 3.], dtype=float64)
    """
    return apply_unary("real", x)


def reciprocal(x: Array, /) -> Array:
    """``1 / x`` of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.reciprocal(xp.asarray([2.0, 4.0]))
    Array([0.5 , 0.25], dtype=float64)
    """
    return apply_unary("reciprocal", x)


def round(x: Array, /) -> Array:
    """Each element rounded to the nearest integer-valued number, ties to even.

    Complex elements round each part.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.round(xp.asarray([0.5, 1.5, -2.7]))
    Array([ 0.,  2., -3.], dtype=float64)
    """
    return apply_unary("round", x)


def sign(x: Array, /) -> Array:
    """The sign of each element: -1, 0 or 1.

    For complex input, ``x / |x|`` (0 where ``x`` is 0). The sign of NaN is NaN.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.sign(xp.asarray([-3.0, 0.0, 2.0]))
    Array([-1.,  0.,  1.], dtype=float64)
    >>> xp.sign(xp.asarray([3 + 4j]))
    Array([0.6+0.8j], dtype=complex128)
    """
    return apply_unary("sign", x)


def signbit(x: Array, /) -> Array:
    """Whether the sign bit of each element is set.

    True for negative numbers, ``-0.0`` and NaNs with the sign bit set.

    Parameters
    ----------
    x : Array
        Input array of a real floating dtype.

    Returns
    -------
    Array
        A bool array of ``x``'s shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a real floating dtype.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.signbit(xp.asarray([-1.0, -0.0, 0.0, 2.0]))
    Array([ True,  True, False, False], dtype=bool)
    """
    return apply_unary("signbit", x)


def sin(x: Array, /) -> Array:
    """The sine of each element, in radians.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.sin(xp.asarray([0.0, xp.pi / 2]))
    Array([0., 1.], dtype=float64)
    """
    return apply_unary("sin", x)


def sinh(x: Array, /) -> Array:
    """The hyperbolic sine of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.sinh(xp.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    return apply_unary("sinh", x)


def sqrt(x: Array, /) -> Array:
    """The principal square root of each element.

    Negative real input gives NaN; take complex input for complex roots.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.sqrt(xp.asarray([4.0, 2.0]))
    Array([2.        , 1.41421356], dtype=float64)
    >>> xp.sqrt(xp.asarray([-4 + 0j]))
    Array([0.+2.j], dtype=complex128)
    """
    return apply_unary("sqrt", x)


def square(x: Array, /) -> Array:
    """The square of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.square(xp.asarray([-3, 2]))
    Array([9, 4], dtype=int64)
    """
    return apply_unary("square", x)


def tan(x: Array, /) -> Array:
    """The tangent of each element, in radians.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.tan(xp.asarray([0.0, xp.pi / 4]))
    Array([0., 1.], dtype=float64)
    """
    return apply_unary("tan", x)


def tanh(x: Array, /) -> Array:
    """The hyperbolic tangent of each element.

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype (integer, real or complex floating).

    Returns
    -------
    Array
        A floating-point array of ``x``'s shape: ``x``'s dtype for floating input, ``float64`` for
    integer input.

    Raises
    ------
    TypeError
        If ``x`` is not of a numeric dtype (integer, real or complex floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.tanh(xp.asarray([0.0, xp.inf]))
    Array([0., 1.], dtype=float64)
    """
    return apply_unary("tanh", x)


def trunc(x: Array, /) -> Array:
    """Each element rounded towards zero to an integer-valued number.

    Integer input is returned unchanged (as a copy).

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype (integer or real floating).

    Returns
    -------
    Array
        An array of ``x``'s dtype and shape.

    Raises
    ------
    TypeError
        If ``x`` is not of a real-valued dtype (integer or real floating).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.trunc(xp.asarray([-1.7, 1.7]))
    Array([-1.,  1.], dtype=float64)
    """
    return apply_unary("trunc", x)


def add(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The sum of each pair of elements.

    The ``+`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a numeric dtype (integer, real or complex floating): two arrays, or one
    array and one Python scalar; broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of a numeric dtype (integer, real or complex floating), or the two do
    not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.add(xp.asarray([1, 2]), xp.asarray([10, 20]))
    Array([11, 22], dtype=int64)
    >>> xp.add(xp.asarray([1.5, 2.5]), 1)
    Array([2.5, 3.5], dtype=float64)
    """
    return apply_binary("add", x1, x2)


def atan2(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The inverse tangent of ``x1 / x2``, in the quadrant of the point ``(x2, x1)``.

    The result is in radians, in ``[-pi, pi]``.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A floating-point array of the broadcast shape: the promoted dtype for floating input,
    ``float64`` for integer input.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.atan2(xp.asarray([1.0, -1.0]), xp.asarray([-1.0, -1.0]))
    Array([ 2.35619449, -2.35619449], dtype=float64)
    """
    return apply_binary("atan2", x1, x2)


def bitwise_and(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise AND of each pair of elements.

    The ``&`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of an integer or bool dtype: two arrays, or one array and one Python scalar;
    broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of an integer or bool dtype, or the two do not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.bitwise_and(xp.asarray([12, 10]), xp.asarray([10, 6]))
    Array([8, 2], dtype=int64)
    """
    return apply_binary("bitwise_and", x1, x2)


def bitwise_left_shift(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``x1`` shifted left by ``x2`` bits.

    ``x2`` must be non-negative; a shift by the width of the type or more gives 0. The ``<<``
    operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of an integer dtype: two arrays, or one array and one Python scalar; broadcast
    together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of an integer dtype, or the two do not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.bitwise_left_shift(xp.asarray([1, 3]), xp.asarray([2, 1]))
    Array([4, 6], dtype=int64)
    """
    return apply_binary("bitwise_left_shift", x1, x2)


def bitwise_or(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise OR of each pair of elements.

    The ``|`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of an integer or bool dtype: two arrays, or one array and one Python scalar;
    broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of an integer or bool dtype, or the two do not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.bitwise_or(xp.asarray([12, 10]), xp.asarray([10, 6]))
    Array([14, 14], dtype=int64)
    """
    return apply_binary("bitwise_or", x1, x2)


def bitwise_right_shift(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``x1`` shifted right by ``x2`` bits.

    The shift is arithmetic: signed values keep their sign. ``x2`` must be non-negative. The ``>>``
    operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of an integer dtype: two arrays, or one array and one Python scalar; broadcast
    together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of an integer dtype, or the two do not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.bitwise_right_shift(xp.asarray([16, -16]), 2)
    Array([ 4, -4], dtype=int64)
    """
    return apply_binary("bitwise_right_shift", x1, x2)


def bitwise_xor(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise exclusive OR of each pair of elements.

    The ``^`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of an integer or bool dtype: two arrays, or one array and one Python scalar;
    broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of an integer or bool dtype, or the two do not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.bitwise_xor(xp.asarray([12, 10]), xp.asarray([10, 6]))
    Array([ 6, 12], dtype=int64)
    """
    return apply_binary("bitwise_xor", x1, x2)


def copysign(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The magnitude of ``x1`` with the sign of ``x2``, elementwise.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A floating-point array of the broadcast shape: the promoted dtype for floating input,
    ``float64`` for integer input.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.copysign(xp.asarray([1.0, 2.0]), xp.asarray([-0.0, 3.0]))
    Array([-1.,  2.], dtype=float64)
    """
    return apply_binary("copysign", x1, x2)


def divide(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The true quotient of each pair of elements.

    Integer operands divide in the default floating dtype (``float64``). The ``/`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a numeric dtype (integer, real or complex floating): two arrays, or one
    array and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A floating-point array of the broadcast shape: the promoted dtype for floating input,
    ``float64`` for integer input.

    Raises
    ------
    TypeError
        If an operand is not of a numeric dtype (integer, real or complex floating), or the two do
    not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.divide(xp.asarray([1, 3]), 2)
    Array([0.5, 1.5], dtype=float64)
    >>> xp.divide(xp.asarray([1.0]), 0.0)
    Array([inf], dtype=float64)
    """
    return apply_binary("divide", x1, x2)


def equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each pair of elements is equal.

    NaN equals nothing, itself included. The ``==`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of any dtype: two arrays, or one array and one Python scalar; broadcast
    together.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If the operands' dtypes do not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.equal(xp.asarray([1.0, 2.0, xp.nan]), xp.asarray([1.0, 3.0, xp.nan]))
    Array([ True, False, False], dtype=bool)
    """
    return apply_binary("equal", x1, x2)


def floor_divide(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The quotient of each pair of elements, rounded towards negative infinity.

    Integer division by zero gives 0. The ``//`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.floor_divide(xp.asarray([7, -7]), 2)
    Array([ 3, -4], dtype=int64)
    """
    return apply_binary("floor_divide", x1, x2)


def greater(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is greater than that of ``x2``.

    The ``>`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.greater(xp.asarray([1, 5]), 3)
    Array([False,  True], dtype=bool)
    """
    return apply_binary("greater", x1, x2)


def greater_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is greater than or equal to that of ``x2``.

    The ``>=`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.greater_equal(xp.asarray([1, 3, 5]), 3)
    Array([False,  True,  True], dtype=bool)
    """
    return apply_binary("greater_equal", x1, x2)


def hypot(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``sqrt(x1**2 + x2**2)`` of each pair, without undue overflow or underflow.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A floating-point array of the broadcast shape: the promoted dtype for floating input,
    ``float64`` for integer input.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.hypot(xp.asarray([3.0, 1e200]), xp.asarray([4.0, 1e200]))
    Array([5.00000000e+000, 1.41421356e+200], dtype=float64)
    """
    return apply_binary("hypot", x1, x2)


def less(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is less than that of ``x2``.

    The ``<`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.less(xp.asarray([1, 5]), 3)
    Array([ True, False], dtype=bool)
    """
    return apply_binary("less", x1, x2)


def less_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is less than or equal to that of ``x2``.

    The ``<=`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.less_equal(xp.asarray([1, 3, 5]), 3)
    Array([ True,  True, False], dtype=bool)
    """
    return apply_binary("less_equal", x1, x2)


def logaddexp(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``log(exp(x1) + exp(x2))`` of each pair, without overflow.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A floating-point array of the broadcast shape: the promoted dtype for floating input,
    ``float64`` for integer input.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.logaddexp(xp.asarray([0.0, 1000.0]), xp.asarray([0.0, 1000.0]))
    Array([6.93147181e-01, 1.00069315e+03], dtype=float64)
    """
    return apply_binary("logaddexp", x1, x2)


def logical_and(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical AND of each pair of elements.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of the bool dtype: two arrays, or one array and one Python scalar; broadcast
        together. Numeric arrays count as their truth (nonzero), as in NumPy: an extension.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If a Python scalar operand is not a bool.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.logical_and(xp.asarray([True, True]), xp.asarray([True, False]))
    Array([ True, False], dtype=bool)
    """
    return apply_binary("logical_and", _truth(x1), _truth(x2))


def logical_or(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical OR of each pair of elements.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of the bool dtype: two arrays, or one array and one Python scalar; broadcast
        together. Numeric arrays count as their truth (nonzero), as in NumPy: an extension.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If a Python scalar operand is not a bool.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.logical_or(xp.asarray([False, False]), xp.asarray([True, False]))
    Array([ True, False], dtype=bool)
    >>> xp.logical_or(xp.asarray([0.0, 2.0]), xp.asarray([0, 0]))
    Array([False,  True], dtype=bool)
    """
    return apply_binary("logical_or", _truth(x1), _truth(x2))


def logical_xor(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical exclusive OR of each pair of elements.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of the bool dtype: two arrays, or one array and one Python scalar; broadcast
        together. Numeric arrays count as their truth (nonzero), as in NumPy: an extension.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If a Python scalar operand is not a bool.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.logical_xor(xp.asarray([True, True]), xp.asarray([True, False]))
    Array([False,  True], dtype=bool)
    """
    return apply_binary("logical_xor", _truth(x1), _truth(x2))


def maximum(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The larger of each pair of elements.

    NaN if either element is NaN.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.maximum(xp.asarray([1.0, 5.0, xp.nan]), xp.asarray([3.0, 2.0, 0.0]))
    Array([ 3.,  5., nan], dtype=float64)
    """
    return apply_binary("maximum", x1, x2)


def minimum(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The smaller of each pair of elements.

    NaN if either element is NaN.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.minimum(xp.asarray([1.0, 5.0, xp.nan]), xp.asarray([3.0, 2.0, 0.0]))
    Array([ 1.,  2., nan], dtype=float64)
    """
    return apply_binary("minimum", x1, x2)


def multiply(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The product of each pair of elements.

    The ``*`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a numeric dtype (integer, real or complex floating): two arrays, or one
    array and one Python scalar; broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of a numeric dtype (integer, real or complex floating), or the two do
    not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.multiply(xp.asarray([1, 2]), xp.asarray([[1], [10]]))
    Array([[ 1,  2],
           [10, 20]], dtype=int64)
    """
    return apply_binary("multiply", x1, x2)


def nextafter(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The next representable floating-point value after ``x1`` towards ``x2``.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        A floating-point array of the broadcast shape: the promoted dtype for floating input,
    ``float64`` for integer input.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> float(xp.nextafter(xp.asarray(1.0), 2.0)) - 1.0
    2.220446049250313e-16
    """
    return apply_binary("nextafter", x1, x2)


def not_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each pair of elements differs.

    NaN differs from everything, itself included. The ``!=`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of any dtype: two arrays, or one array and one Python scalar; broadcast
    together.

    Returns
    -------
    Array
        A bool array of the broadcast shape.

    Raises
    ------
    TypeError
        If the operands' dtypes do not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.not_equal(xp.asarray([1.0, xp.nan]), xp.asarray([1.0, xp.nan]))
    Array([False,  True], dtype=bool)
    """
    return apply_binary("not_equal", x1, x2)


def pow(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``x1`` raised to the power ``x2``, elementwise.

    Integer operands give integers (a negative integer exponent is not defined by the standard). The
    ``**`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a numeric dtype (integer, real or complex floating): two arrays, or one
    array and one Python scalar; broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of a numeric dtype (integer, real or complex floating), or the two do
    not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.pow(xp.asarray([2, 3]), 2)
    Array([4, 9], dtype=int64)
    >>> xp.pow(xp.asarray([4.0]), 0.5)
    Array([2.], dtype=float64)
    """
    return apply_binary("pow", x1, x2)


def remainder(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The remainder of the floor division of each pair of elements.

    The result has the sign of ``x2`` (as Python's ``%``); integer remainder by zero gives 0. The
    ``%`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a real-valued dtype (integer or real floating): two arrays, or one array
    and one Python scalar; broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of a real-valued dtype (integer or real floating), or the two do not
    promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.remainder(xp.asarray([7, -7]), 3)
    Array([1, 2], dtype=int64)
    """
    return apply_binary("remainder", x1, x2)


def subtract(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The difference of each pair of elements.

    The ``-`` operator.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        The operands, of a numeric dtype (integer, real or complex floating): two arrays, or one
    array and one Python scalar; broadcast together.

    Returns
    -------
    Array
        An array of the broadcast shape, with the dtype ``x1`` and ``x2`` promote to.

    Raises
    ------
    TypeError
        If an operand is not of a numeric dtype (integer, real or complex floating), or the two do
    not promote.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.subtract(xp.asarray([10, 20]), xp.asarray([1, 2]))
    Array([ 9, 18], dtype=int64)
    """
    return apply_binary("subtract", x1, x2)


def clip(
    x: Array, /, min: Array | float | None = None, max: Array | float | None = None
) -> Array:
    """Each element of ``x`` clamped to ``[min, max]``.

    Parameters
    ----------
    x : Array
        A real-valued array.
    min, max : Array, Python scalar or None
        The bounds (broadcast against ``x``); None leaves that side open.

    Returns
    -------
    Array
        A new array of ``x``'s dtype and shape; NaN wherever ``x`` or a bound is NaN. Python
        int bounds outside the range of ``x``'s integer dtype are clamped to it.

    Raises
    ------
    TypeError
        If ``x`` is complex, or a bound is of a kind ``x``'s dtype does not hold (a float bound
        for an integer array).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.clip(xp.asarray([-2, 0, 5, 9]), 0, 5)
    Array([0, 0, 5, 5], dtype=int64)
    >>> xp.clip(xp.asarray([1.0, xp.nan, 3.0]), max=2.0)
    Array([ 1., nan,  2.], dtype=float64)
    """
    if min is None and max is None:
        return apply_unary("positive", x)
    if min is None:
        return apply_binary("minimum", x, clip_bound(max, x, "clip"))
    out = apply_binary("maximum", x, clip_bound(min, x, "clip"))
    if max is None:
        return out
    hi = clip_bound(max, out, "clip")
    if hi.ndim and hi.shape != out.shape:
        # A bound that may widen the result: a new array of the broadcast shape.
        return apply_binary("minimum", out, hi)
    return apply_binary_into("minimum", out, hi)

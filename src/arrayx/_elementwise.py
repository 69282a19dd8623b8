"""Elementwise functions: thin, documented entries into the elementwise engine.

Each op is declared once, as data, in ``arrayx/_kernels/ops.py``; the kernels are generated
from that table. Arguments are arrays, or for two-argument functions one array and one Python
scalar. Broadcasting and type promotion follow the standard.
"""

from __future__ import annotations

from arrayx._array import Array, apply_binary, apply_unary, clip_bound

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


def abs(x: Array, /) -> Array:
    """The absolute value of each element (the modulus for complex input, as a real dtype)."""
    return apply_unary("abs", x)


def acos(x: Array, /) -> Array:
    """The principal inverse cosine of each element."""
    return apply_unary("acos", x)


def acosh(x: Array, /) -> Array:
    """The inverse hyperbolic cosine of each element."""
    return apply_unary("acosh", x)


def asin(x: Array, /) -> Array:
    """The principal inverse sine of each element."""
    return apply_unary("asin", x)


def asinh(x: Array, /) -> Array:
    """The inverse hyperbolic sine of each element."""
    return apply_unary("asinh", x)


def atan(x: Array, /) -> Array:
    """The principal inverse tangent of each element."""
    return apply_unary("atan", x)


def atanh(x: Array, /) -> Array:
    """The inverse hyperbolic tangent of each element."""
    return apply_unary("atanh", x)


def bitwise_invert(x: Array, /) -> Array:
    """The bitwise NOT of each element of an integer or bool array."""
    return apply_unary("bitwise_invert", x)


def ceil(x: Array, /) -> Array:
    """The smallest integer-valued number not less than each element."""
    return apply_unary("ceil", x)


def conj(x: Array, /) -> Array:
    """The complex conjugate of each element."""
    return apply_unary("conj", x)


def cos(x: Array, /) -> Array:
    """The cosine of each element (radians)."""
    return apply_unary("cos", x)


def cosh(x: Array, /) -> Array:
    """The hyperbolic cosine of each element."""
    return apply_unary("cosh", x)


def exp(x: Array, /) -> Array:
    """The exponential of each element."""
    return apply_unary("exp", x)


def expm1(x: Array, /) -> Array:
    """``exp(x) - 1`` of each element, accurate near zero."""
    return apply_unary("expm1", x)


def floor(x: Array, /) -> Array:
    """The largest integer-valued number not greater than each element."""
    return apply_unary("floor", x)


def imag(x: Array, /) -> Array:
    """The imaginary part of each element (a real dtype; zero for real input)."""
    return apply_unary("imag", x)


def isfinite(x: Array, /) -> Array:
    """Whether each element is finite (both parts, for complex)."""
    return apply_unary("isfinite", x)


def isinf(x: Array, /) -> Array:
    """Whether each element is infinite (either part, for complex)."""
    return apply_unary("isinf", x)


def isnan(x: Array, /) -> Array:
    """Whether each element is NaN (either part, for complex)."""
    return apply_unary("isnan", x)


def log(x: Array, /) -> Array:
    """The natural logarithm of each element."""
    return apply_unary("log", x)


def log1p(x: Array, /) -> Array:
    """``log(1 + x)`` of each element, accurate near zero."""
    return apply_unary("log1p", x)


def log2(x: Array, /) -> Array:
    """The base-2 logarithm of each element."""
    return apply_unary("log2", x)


def log10(x: Array, /) -> Array:
    """The base-10 logarithm of each element."""
    return apply_unary("log10", x)


def logical_not(x: Array, /) -> Array:
    """The logical NOT of each element of a bool array."""
    return apply_unary("logical_not", x)


def negative(x: Array, /) -> Array:
    """The negation of each element."""
    return apply_unary("negative", x)


def positive(x: Array, /) -> Array:
    """Each element unchanged (a copy)."""
    return apply_unary("positive", x)


def real(x: Array, /) -> Array:
    """The real part of each element (a real dtype)."""
    return apply_unary("real", x)


def reciprocal(x: Array, /) -> Array:
    """``1 / x`` of each element."""
    return apply_unary("reciprocal", x)


def round(x: Array, /) -> Array:
    """Each element rounded to the nearest integer-valued number, ties to even."""
    return apply_unary("round", x)


def sign(x: Array, /) -> Array:
    """The sign of each element (``x / |x|`` for complex input, 0 at 0)."""
    return apply_unary("sign", x)


def signbit(x: Array, /) -> Array:
    """Whether the sign bit of each element of a real floating array is set."""
    return apply_unary("signbit", x)


def sin(x: Array, /) -> Array:
    """The sine of each element (radians)."""
    return apply_unary("sin", x)


def sinh(x: Array, /) -> Array:
    """The hyperbolic sine of each element."""
    return apply_unary("sinh", x)


def sqrt(x: Array, /) -> Array:
    """The principal square root of each element."""
    return apply_unary("sqrt", x)


def square(x: Array, /) -> Array:
    """The square of each element."""
    return apply_unary("square", x)


def tan(x: Array, /) -> Array:
    """The tangent of each element (radians)."""
    return apply_unary("tan", x)


def tanh(x: Array, /) -> Array:
    """The hyperbolic tangent of each element."""
    return apply_unary("tanh", x)


def trunc(x: Array, /) -> Array:
    """Each element rounded towards zero to an integer-valued number."""
    return apply_unary("trunc", x)


def add(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The sum of each pair of elements."""
    return apply_binary("add", x1, x2)


def atan2(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The inverse tangent of ``x1 / x2``, in the quadrant of the point ``(x2, x1)``."""
    return apply_binary("atan2", x1, x2)


def bitwise_and(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise AND of each pair of integer or bool elements."""
    return apply_binary("bitwise_and", x1, x2)


def bitwise_left_shift(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``x1`` shifted left by ``x2`` bits (0 for counts outside the width)."""
    return apply_binary("bitwise_left_shift", x1, x2)


def bitwise_or(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise OR of each pair of integer or bool elements."""
    return apply_binary("bitwise_or", x1, x2)


def bitwise_right_shift(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``x1`` shifted right arithmetically by ``x2`` bits."""
    return apply_binary("bitwise_right_shift", x1, x2)


def bitwise_xor(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise XOR of each pair of integer or bool elements."""
    return apply_binary("bitwise_xor", x1, x2)


def copysign(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The magnitude of ``x1`` with the sign of ``x2``."""
    return apply_binary("copysign", x1, x2)


def divide(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The true quotient of each pair of elements (integers divide in float64)."""
    return apply_binary("divide", x1, x2)


def equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each pair of elements is equal."""
    return apply_binary("equal", x1, x2)


def floor_divide(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The quotient of each pair of elements rounded towards negative infinity."""
    return apply_binary("floor_divide", x1, x2)


def greater(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is greater than that of ``x2``."""
    return apply_binary("greater", x1, x2)


def greater_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is at least that of ``x2``."""
    return apply_binary("greater_equal", x1, x2)


def hypot(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``sqrt(x1**2 + x2**2)`` of each pair, without undue overflow or underflow."""
    return apply_binary("hypot", x1, x2)


def less(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is less than that of ``x2``."""
    return apply_binary("less", x1, x2)


def less_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is at most that of ``x2``."""
    return apply_binary("less_equal", x1, x2)


def logaddexp(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``log(exp(x1) + exp(x2))`` of each pair, without overflow."""
    return apply_binary("logaddexp", x1, x2)


def logical_and(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical AND of each pair of bool elements."""
    return apply_binary("logical_and", x1, x2)


def logical_or(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical OR of each pair of bool elements."""
    return apply_binary("logical_or", x1, x2)


def logical_xor(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical XOR of each pair of bool elements."""
    return apply_binary("logical_xor", x1, x2)


def maximum(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The larger of each pair of elements (NaN if either is NaN)."""
    return apply_binary("maximum", x1, x2)


def minimum(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The smaller of each pair of elements (NaN if either is NaN)."""
    return apply_binary("minimum", x1, x2)


def multiply(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The product of each pair of elements."""
    return apply_binary("multiply", x1, x2)


def nextafter(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The next representable value after ``x1`` towards ``x2``."""
    return apply_binary("nextafter", x1, x2)


def not_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each pair of elements differs."""
    return apply_binary("not_equal", x1, x2)


def pow(x1: Array | complex, x2: Array | complex, /) -> Array:
    """``x1`` raised to the power ``x2``, elementwise."""
    return apply_binary("pow", x1, x2)


def remainder(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The remainder of floor division, with the sign of ``x2``."""
    return apply_binary("remainder", x1, x2)


def subtract(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The difference of each pair of elements."""
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
        An array of ``x``'s dtype and shape; NaN wherever ``x`` or a bound is NaN.
    """
    out = apply_unary("positive", x)
    if min is not None:
        out = apply_binary("maximum", out, clip_bound(min, out, "clip"))
    if max is not None:
        out = apply_binary("minimum", out, clip_bound(max, out, "clip"))
    return out

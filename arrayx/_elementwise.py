"""Elementwise functions: thin, documented entries into the elementwise engine.

Each op is declared once, as data, in ``arrayx/_kernels/ops.py``; the kernels are generated
from that table. Arguments are arrays, or for two-argument functions one array and one Python
scalar. Broadcasting and type promotion follow the standard.
"""

from __future__ import annotations

from arrayx._array import Array, apply_binary, apply_unary

__all__ = [
    "abs", "add", "bitwise_and", "bitwise_invert", "bitwise_or", "bitwise_xor", "conj", "equal",
    "greater", "greater_equal", "imag", "isfinite", "isinf", "isnan", "less", "less_equal",
    "logical_and", "logical_not", "logical_or", "logical_xor", "multiply", "negative", "not_equal",
    "positive", "real", "signbit", "subtract",
]


def abs(x: Array, /) -> Array:
    """The absolute value of each element (the modulus for complex input, as a real dtype)."""
    return apply_unary("abs", x)


def negative(x: Array, /) -> Array:
    """The negation of each element."""
    return apply_unary("negative", x)


def positive(x: Array, /) -> Array:
    """Each element unchanged (a copy)."""
    return apply_unary("positive", x)


def logical_not(x: Array, /) -> Array:
    """The logical NOT of each element of a bool array."""
    return apply_unary("logical_not", x)


def bitwise_invert(x: Array, /) -> Array:
    """The bitwise NOT of each element of an integer or bool array."""
    return apply_unary("bitwise_invert", x)


def isnan(x: Array, /) -> Array:
    """Whether each element is NaN (either part, for complex)."""
    return apply_unary("isnan", x)


def isinf(x: Array, /) -> Array:
    """Whether each element is infinite (either part, for complex)."""
    return apply_unary("isinf", x)


def isfinite(x: Array, /) -> Array:
    """Whether each element is finite (both parts, for complex)."""
    return apply_unary("isfinite", x)


def signbit(x: Array, /) -> Array:
    """Whether the sign bit of each element of a real floating array is set."""
    return apply_unary("signbit", x)


def real(x: Array, /) -> Array:
    """The real part of each element (a real dtype)."""
    return apply_unary("real", x)


def imag(x: Array, /) -> Array:
    """The imaginary part of each element (a real dtype; zero for real input)."""
    return apply_unary("imag", x)


def conj(x: Array, /) -> Array:
    """The complex conjugate of each element."""
    return apply_unary("conj", x)


def add(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The sum of each pair of elements."""
    return apply_binary("add", x1, x2)


def subtract(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The difference of each pair of elements."""
    return apply_binary("subtract", x1, x2)


def multiply(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The product of each pair of elements."""
    return apply_binary("multiply", x1, x2)


def equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each pair of elements is equal."""
    return apply_binary("equal", x1, x2)


def not_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each pair of elements differs."""
    return apply_binary("not_equal", x1, x2)


def less(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is less than that of ``x2``."""
    return apply_binary("less", x1, x2)


def less_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is at most that of ``x2``."""
    return apply_binary("less_equal", x1, x2)


def greater(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is greater than that of ``x2``."""
    return apply_binary("greater", x1, x2)


def greater_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Whether each element of ``x1`` is at least that of ``x2``."""
    return apply_binary("greater_equal", x1, x2)


def logical_and(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical AND of each pair of bool elements."""
    return apply_binary("logical_and", x1, x2)


def logical_or(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical OR of each pair of bool elements."""
    return apply_binary("logical_or", x1, x2)


def logical_xor(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The logical XOR of each pair of bool elements."""
    return apply_binary("logical_xor", x1, x2)


def bitwise_and(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise AND of each pair of integer or bool elements."""
    return apply_binary("bitwise_and", x1, x2)


def bitwise_or(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise OR of each pair of integer or bool elements."""
    return apply_binary("bitwise_or", x1, x2)


def bitwise_xor(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The bitwise XOR of each pair of integer or bool elements."""
    return apply_binary("bitwise_xor", x1, x2)

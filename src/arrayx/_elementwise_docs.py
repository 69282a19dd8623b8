"""The documentation of each elementwise function: its description and its examples.

``arrayx._elementwise`` makes one function per op of ``arrayx/_kernels/ops.py`` and writes its
docstring from the row here and the op's declaration there: the Parameters, Returns and Raises
sections follow from the dtype kinds the op takes and its result rule (``docstring``). Adding
an op is its entry in ``ops.py`` and its row here. The examples run as tests
(``tests/test_docs.py``).
"""

from __future__ import annotations

__all__ = ["DOCS", "OPERATOR_DOCS"]

# name: (description, examples)
DOCS: dict[str, tuple[str, str]] = {
    "abs": (
        """The absolute value of each element.

For complex input, the modulus, as the matching real dtype. The absolute value of the most
negative integer is itself (it wraps, as in C).""",
        """\
>>> import arrayx as xp
>>> xp.abs(xp.asarray([-1.5, 0.0, 2.0]))
Array([1.5, 0. , 2. ], dtype=float64)
>>> xp.abs(xp.asarray([3 + 4j]))
Array([5.], dtype=float64)
"""),
    "acos": (
        """The principal inverse cosine of each element, in radians.""",
        """\
>>> import arrayx as xp
>>> xp.acos(xp.asarray([1.0, 0.0]))
Array([0.        , 1.57079633], dtype=float64)
"""),
    "acosh": (
        """The inverse hyperbolic cosine of each element.""",
        """\
>>> import arrayx as xp
>>> xp.acosh(xp.asarray([1.0]))
Array([0.], dtype=float64)
"""),
    "add": (
        """The sum of each pair of elements.

The ``+`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.add(xp.asarray([1, 2]), xp.asarray([10, 20]))
Array([11, 22], dtype=int64)
>>> xp.add(xp.asarray([1.5, 2.5]), 1)
Array([2.5, 3.5], dtype=float64)
"""),
    "asin": (
        """The principal inverse sine of each element, in radians.""",
        """\
>>> import arrayx as xp
>>> xp.asin(xp.asarray([0.0, 1.0]))
Array([0.        , 1.57079633], dtype=float64)
"""),
    "asinh": (
        """The inverse hyperbolic sine of each element.""",
        """\
>>> import arrayx as xp
>>> xp.asinh(xp.asarray([0.0]))
Array([0.], dtype=float64)
"""),
    "atan": (
        """The principal inverse tangent of each element, in radians.""",
        """\
>>> import arrayx as xp
>>> xp.atan(xp.asarray([0.0, 1.0]))
Array([0.        , 0.78539816], dtype=float64)
"""),
    "atan2": (
        """The inverse tangent of ``x1 / x2``, in the quadrant of the point ``(x2, x1)``.

The result is in radians, in ``[-pi, pi]``.""",
        """\
>>> import arrayx as xp
>>> xp.atan2(xp.asarray([1.0, -1.0]), xp.asarray([-1.0, -1.0]))
Array([ 2.35619449, -2.35619449], dtype=float64)
"""),
    "atanh": (
        """The inverse hyperbolic tangent of each element.""",
        """\
>>> import arrayx as xp
>>> xp.atanh(xp.asarray([0.0, 1.0]))
Array([ 0., inf], dtype=float64)
"""),
    "bitwise_and": (
        """The bitwise AND of each pair of elements.

The ``&`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.bitwise_and(xp.asarray([12, 10]), xp.asarray([10, 6]))
Array([8, 2], dtype=int64)
"""),
    "bitwise_invert": (
        """The bitwise NOT of each element.

For bool input, the logical NOT.""",
        """\
>>> import arrayx as xp
>>> xp.bitwise_invert(xp.asarray([0, 5], dtype=xp.uint8))
Array([255, 250], dtype=uint8)
>>> xp.bitwise_invert(xp.asarray([True, False]))
Array([False,  True], dtype=bool)
"""),
    "bitwise_left_shift": (
        """``x1`` shifted left by ``x2`` bits.

``x2`` must be non-negative; a shift by the width of the type or more gives 0. The ``<<``
operator.""",
        """\
>>> import arrayx as xp
>>> xp.bitwise_left_shift(xp.asarray([1, 3]), xp.asarray([2, 1]))
Array([4, 6], dtype=int64)
"""),
    "bitwise_or": (
        """The bitwise OR of each pair of elements.

The ``|`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.bitwise_or(xp.asarray([12, 10]), xp.asarray([10, 6]))
Array([14, 14], dtype=int64)
"""),
    "bitwise_right_shift": (
        """``x1`` shifted right by ``x2`` bits.

The shift is arithmetic: signed values keep their sign. ``x2`` must be non-negative. The ``>>``
operator.""",
        """\
>>> import arrayx as xp
>>> xp.bitwise_right_shift(xp.asarray([16, -16]), 2)
Array([ 4, -4], dtype=int64)
"""),
    "bitwise_xor": (
        """The bitwise exclusive OR of each pair of elements.

The ``^`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.bitwise_xor(xp.asarray([12, 10]), xp.asarray([10, 6]))
Array([ 6, 12], dtype=int64)
"""),
    "ceil": (
        """The smallest integer-valued number not less than each element.

Integer input is returned unchanged (as a copy).""",
        """\
>>> import arrayx as xp
>>> xp.ceil(xp.asarray([-1.5, 0.2, 2.0]))
Array([-1.,  1.,  2.], dtype=float64)
"""),
    "conj": (
        """The complex conjugate of each element.

Real input is returned unchanged (as a copy).""",
        """\
>>> import arrayx as xp
>>> xp.conj(xp.asarray([1 + 2j, 3 - 1j]))
Array([1.-2.j, 3.+1.j], dtype=complex128)
"""),
    "copysign": (
        """The magnitude of ``x1`` with the sign of ``x2``, elementwise.""",
        """\
>>> import arrayx as xp
>>> xp.copysign(xp.asarray([1.0, 2.0]), xp.asarray([-0.0, 3.0]))
Array([-1.,  2.], dtype=float64)
"""),
    "cos": (
        """The cosine of each element, in radians.""",
        """\
>>> import arrayx as xp
>>> xp.cos(xp.asarray([0.0, xp.pi]))
Array([ 1., -1.], dtype=float64)
"""),
    "cosh": (
        """The hyperbolic cosine of each element.""",
        """\
>>> import arrayx as xp
>>> xp.cosh(xp.asarray([0.0]))
Array([1.], dtype=float64)
"""),
    "divide": (
        """The true quotient of each pair of elements.

Integer operands divide in the default floating dtype (``float64``). The ``/`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.divide(xp.asarray([1, 3]), 2)
Array([0.5, 1.5], dtype=float64)
>>> xp.divide(xp.asarray([1.0]), 0.0)
Array([inf], dtype=float64)
"""),
    "equal": (
        """Whether each pair of elements is equal.

NaN equals nothing, itself included. The ``==`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.equal(xp.asarray([1.0, 2.0, xp.nan]), xp.asarray([1.0, 3.0, xp.nan]))
Array([ True, False, False], dtype=bool)
"""),
    "exp": (
        """The exponential of each element.""",
        """\
>>> import arrayx as xp
>>> xp.exp(xp.asarray([0.0, 1.0]))
Array([1.        , 2.71828183], dtype=float64)
"""),
    "expm1": (
        """``exp(x) - 1`` of each element, accurate for elements near zero.""",
        """\
>>> import arrayx as xp
>>> xp.expm1(xp.asarray([0.0, 1e-10]))
Array([0.e+00, 1.e-10], dtype=float64)
"""),
    "floor": (
        """The largest integer-valued number not greater than each element.

Integer input is returned unchanged (as a copy).""",
        """\
>>> import arrayx as xp
>>> xp.floor(xp.asarray([-1.5, 0.2, 2.0]))
Array([-2.,  0.,  2.], dtype=float64)
"""),
    "floor_divide": (
        """The quotient of each pair of elements, rounded towards negative infinity.

Integer division by zero gives 0. The ``//`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.floor_divide(xp.asarray([7, -7]), 2)
Array([ 3, -4], dtype=int64)
"""),
    "greater": (
        """Whether each element of ``x1`` is greater than that of ``x2``.

The ``>`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.greater(xp.asarray([1, 5]), 3)
Array([False,  True], dtype=bool)
"""),
    "greater_equal": (
        """Whether each element of ``x1`` is greater than or equal to that of ``x2``.

The ``>=`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.greater_equal(xp.asarray([1, 3, 5]), 3)
Array([False,  True,  True], dtype=bool)
"""),
    "hypot": (
        """``sqrt(x1**2 + x2**2)`` of each pair, without undue overflow or underflow.""",
        """\
>>> import arrayx as xp
>>> xp.hypot(xp.asarray([3.0, 1e200]), xp.asarray([4.0, 1e200]))
Array([5.00000000e+000, 1.41421356e+200], dtype=float64)
"""),
    "imag": (
        """The imaginary part of each element.

For real input, zeros.""",
        """\
>>> import arrayx as xp
>>> xp.imag(xp.asarray([1 + 2j, 3 - 1j]))
Array([ 2., -1.], dtype=float64)
"""),
    "isfinite": (
        """Whether each element is finite.

A complex element is finite when both parts are.""",
        """\
>>> import arrayx as xp
>>> xp.isfinite(xp.asarray([1.0, xp.inf, xp.nan]))
Array([ True, False, False], dtype=bool)
"""),
    "isinf": (
        """Whether each element is infinite.

A complex element is infinite when either part is.""",
        """\
>>> import arrayx as xp
>>> xp.isinf(xp.asarray([1.0, -xp.inf, xp.nan]))
Array([False,  True, False], dtype=bool)
"""),
    "isnan": (
        """Whether each element is NaN.

A complex element is NaN when either part is.""",
        """\
>>> import arrayx as xp
>>> xp.isnan(xp.asarray([1.0, xp.inf, xp.nan]))
Array([False, False,  True], dtype=bool)
"""),
    "less": (
        """Whether each element of ``x1`` is less than that of ``x2``.

The ``<`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.less(xp.asarray([1, 5]), 3)
Array([ True, False], dtype=bool)
"""),
    "less_equal": (
        """Whether each element of ``x1`` is less than or equal to that of ``x2``.

The ``<=`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.less_equal(xp.asarray([1, 3, 5]), 3)
Array([ True,  True, False], dtype=bool)
"""),
    "log": (
        """The natural logarithm of each element.""",
        """\
>>> import arrayx as xp
>>> xp.log(xp.asarray([1.0, xp.e]))
Array([0., 1.], dtype=float64)
"""),
    "log10": (
        """The base-10 logarithm of each element.""",
        """\
>>> import arrayx as xp
>>> xp.log10(xp.asarray([1.0, 1000.0]))
Array([0., 3.], dtype=float64)
"""),
    "log1p": (
        """``log(1 + x)`` of each element, accurate for elements near zero.""",
        """\
>>> import arrayx as xp
>>> xp.log1p(xp.asarray([0.0, 1e-10]))
Array([0.e+00, 1.e-10], dtype=float64)
"""),
    "log2": (
        """The base-2 logarithm of each element.""",
        """\
>>> import arrayx as xp
>>> xp.log2(xp.asarray([1.0, 8.0]))
Array([0., 3.], dtype=float64)
"""),
    "logaddexp": (
        """``log(exp(x1) + exp(x2))`` of each pair, without overflow.""",
        """\
>>> import arrayx as xp
>>> xp.logaddexp(xp.asarray([0.0, 1000.0]), xp.asarray([0.0, 1000.0]))
Array([6.93147181e-01, 1.00069315e+03], dtype=float64)
"""),
    "logical_and": (
        """The logical AND of each pair of elements.""",
        """\
>>> import arrayx as xp
>>> xp.logical_and(xp.asarray([True, True]), xp.asarray([True, False]))
Array([ True, False], dtype=bool)
"""),
    "logical_not": (
        """The logical NOT of each element.""",
        """\
>>> import arrayx as xp
>>> xp.logical_not(xp.asarray([True, False]))
Array([False,  True], dtype=bool)
"""),
    "logical_or": (
        """The logical OR of each pair of elements.""",
        """\
>>> import arrayx as xp
>>> xp.logical_or(xp.asarray([False, False]), xp.asarray([True, False]))
Array([ True, False], dtype=bool)
>>> xp.logical_or(xp.asarray([0.0, 2.0]), xp.asarray([0, 0]))
Array([False,  True], dtype=bool)
"""),
    "logical_xor": (
        """The logical exclusive OR of each pair of elements.""",
        """\
>>> import arrayx as xp
>>> xp.logical_xor(xp.asarray([True, True]), xp.asarray([True, False]))
Array([False,  True], dtype=bool)
"""),
    "maximum": (
        """The larger of each pair of elements.

NaN if either element is NaN.""",
        """\
>>> import arrayx as xp
>>> xp.maximum(xp.asarray([1.0, 5.0, xp.nan]), xp.asarray([3.0, 2.0, 0.0]))
Array([ 3.,  5., nan], dtype=float64)
"""),
    "minimum": (
        """The smaller of each pair of elements.

NaN if either element is NaN.""",
        """\
>>> import arrayx as xp
>>> xp.minimum(xp.asarray([1.0, 5.0, xp.nan]), xp.asarray([3.0, 2.0, 0.0]))
Array([ 1.,  2., nan], dtype=float64)
"""),
    "multiply": (
        """The product of each pair of elements.

The ``*`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.multiply(xp.asarray([1, 2]), xp.asarray([[1], [10]]))
Array([[ 1,  2],
       [10, 20]], dtype=int64)
"""),
    "negative": (
        """The negation of each element.

Unsigned integers wrap around.""",
        """\
>>> import arrayx as xp
>>> xp.negative(xp.asarray([1, -2]))
Array([-1,  2], dtype=int64)
"""),
    "nextafter": (
        """The next representable floating-point value after ``x1`` towards ``x2``.""",
        """\
>>> import arrayx as xp
>>> float(xp.nextafter(xp.asarray(1.0), 2.0)) - 1.0
2.220446049250313e-16
"""),
    "not_equal": (
        """Whether each pair of elements differs.

NaN differs from everything, itself included. The ``!=`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.not_equal(xp.asarray([1.0, xp.nan]), xp.asarray([1.0, xp.nan]))
Array([False,  True], dtype=bool)
"""),
    "positive": (
        """Each element unchanged, as a new array.""",
        """\
>>> import arrayx as xp
>>> xp.positive(xp.asarray([1, -2]))
Array([ 1, -2], dtype=int64)
"""),
    "pow": (
        """``x1`` raised to the power ``x2``, elementwise.

Integer operands give integers (a negative integer exponent is not defined by the standard). The
``**`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.pow(xp.asarray([2, 3]), 2)
Array([4, 9], dtype=int64)
>>> xp.pow(xp.asarray([4.0]), 0.5)
Array([2.], dtype=float64)
"""),
    "real": (
        """The real part of each element.

Real input is returned unchanged (as a copy).""",
        """\
>>> import arrayx as xp
>>> xp.real(xp.asarray([1 + 2j, 3 - 1j]))
Array([1., 3.], dtype=float64)
"""),
    "reciprocal": (
        """``1 / x`` of each element.""",
        """\
>>> import arrayx as xp
>>> xp.reciprocal(xp.asarray([2.0, 4.0]))
Array([0.5 , 0.25], dtype=float64)
"""),
    "remainder": (
        """The remainder of the floor division of each pair of elements.

The result has the sign of ``x2`` (as Python's ``%``); integer remainder by zero gives 0. The
``%`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.remainder(xp.asarray([7, -7]), 3)
Array([1, 2], dtype=int64)
"""),
    "round": (
        """Each element rounded to the nearest integer-valued number, ties to even.

Complex elements round each part.""",
        """\
>>> import arrayx as xp
>>> xp.round(xp.asarray([0.5, 1.5, -2.7]))
Array([ 0.,  2., -3.], dtype=float64)
"""),
    "sign": (
        """The sign of each element: -1, 0 or 1.

For complex input, ``x / |x|`` (0 where ``x`` is 0). The sign of NaN is NaN.""",
        """\
>>> import arrayx as xp
>>> xp.sign(xp.asarray([-3.0, 0.0, 2.0]))
Array([-1.,  0.,  1.], dtype=float64)
>>> xp.sign(xp.asarray([3 + 4j]))
Array([0.6+0.8j], dtype=complex128)
"""),
    "signbit": (
        """Whether the sign bit of each element is set.

True for negative numbers, ``-0.0`` and NaNs with the sign bit set.""",
        """\
>>> import arrayx as xp
>>> xp.signbit(xp.asarray([-1.0, -0.0, 0.0, 2.0]))
Array([ True,  True, False, False], dtype=bool)
"""),
    "sin": (
        """The sine of each element, in radians.""",
        """\
>>> import arrayx as xp
>>> xp.sin(xp.asarray([0.0, xp.pi / 2]))
Array([0., 1.], dtype=float64)
"""),
    "sinh": (
        """The hyperbolic sine of each element.""",
        """\
>>> import arrayx as xp
>>> xp.sinh(xp.asarray([0.0]))
Array([0.], dtype=float64)
"""),
    "sqrt": (
        """The principal square root of each element.

Negative real input gives NaN; take complex input for complex roots.""",
        """\
>>> import arrayx as xp
>>> xp.sqrt(xp.asarray([4.0, 2.0]))
Array([2.        , 1.41421356], dtype=float64)
>>> xp.sqrt(xp.asarray([-4 + 0j]))
Array([0.+2.j], dtype=complex128)
"""),
    "square": (
        """The square of each element.""",
        """\
>>> import arrayx as xp
>>> xp.square(xp.asarray([-3, 2]))
Array([9, 4], dtype=int64)
"""),
    "subtract": (
        """The difference of each pair of elements.

The ``-`` operator.""",
        """\
>>> import arrayx as xp
>>> xp.subtract(xp.asarray([10, 20]), xp.asarray([1, 2]))
Array([ 9, 18], dtype=int64)
"""),
    "tan": (
        """The tangent of each element, in radians.""",
        """\
>>> import arrayx as xp
>>> xp.tan(xp.asarray([0.0, xp.pi / 4]))
Array([0., 1.], dtype=float64)
"""),
    "tanh": (
        """The hyperbolic tangent of each element.""",
        """\
>>> import arrayx as xp
>>> xp.tanh(xp.asarray([0.0, xp.inf]))
Array([0., 1.], dtype=float64)
"""),
    "trunc": (
        """Each element rounded towards zero to an integer-valued number.

Integer input is returned unchanged (as a copy).""",
        """\
>>> import arrayx as xp
>>> xp.trunc(xp.asarray([-1.7, 1.7]))
Array([-1.,  1.], dtype=float64)
"""),
}
# The array object's operators (``ops.OPERATORS``): stem -> (expression, description, examples).
# ``ops.generate_operators`` writes each method's docstring from its row at build time.
OPERATOR_DOCS: dict[str, tuple[str, str, str]] = {
    "add": ("self + other", "the sum of each pair of elements", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) + 1
Array([2, 3], dtype=int64)
>>> 1.5 + xp.asarray([1.0, 2.0])
Array([2.5, 3.5], dtype=float64)
"""),
    "sub": ("self - other", "the difference of each pair of elements", """\
>>> import arrayx as xp
>>> xp.asarray([5, 6]) - xp.asarray([1, 2])
Array([4, 4], dtype=int64)
"""),
    "mul": ("self * other", "the product of each pair of elements", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) * 3
Array([3, 6], dtype=int64)
"""),
    "truediv": ("self / other", "the true quotient of each pair of elements", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) / 2
Array([0.5, 1. ], dtype=float64)
"""),
    "floordiv": ("self // other", "the quotient rounded towards negative infinity", """\
>>> import arrayx as xp
>>> xp.asarray([7, -7]) // 2
Array([ 3, -4], dtype=int64)
"""),
    "mod": ("self % other", "the remainder of floor division", """\
>>> import arrayx as xp
>>> xp.asarray([7, -7]) % 3
Array([1, 2], dtype=int64)
"""),
    "pow": ("self ** other", "each element raised to a power", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2, 3]) ** 2
Array([1, 4, 9], dtype=int64)
"""),
    "lshift": ("self << other", "each element shifted left", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) << 3
Array([ 8, 16], dtype=int64)
"""),
    "rshift": ("self >> other", "each element shifted right", """\
>>> import arrayx as xp
>>> xp.asarray([16, -16]) >> 2
Array([ 4, -4], dtype=int64)
"""),
    "and": ("self & other", "the bitwise AND of each pair of elements", """\
>>> import arrayx as xp
>>> xp.asarray([True, True]) & xp.asarray([True, False])
Array([ True, False], dtype=bool)
"""),
    "or": ("self | other", "the bitwise OR of each pair of elements", """\
>>> import arrayx as xp
>>> xp.asarray([12]) | 3
Array([15], dtype=int64)
"""),
    "xor": ("self ^ other", "the bitwise XOR of each pair of elements", """\
>>> import arrayx as xp
>>> xp.asarray([12]) ^ 10
Array([6], dtype=int64)
"""),
    "eq": ("self == other", "whether each pair of elements is equal", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) == 2
Array([False,  True], dtype=bool)
"""),
    "ne": ("self != other", "whether each pair of elements differs", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) != 2
Array([ True, False], dtype=bool)
"""),
    "lt": ("self < other", "whether each element is less than the other's", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) < 2
Array([ True, False], dtype=bool)
"""),
    "le": ("self <= other", "whether each element is at most the other's", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) <= 2
Array([ True,  True], dtype=bool)
"""),
    "gt": ("self > other", "whether each element is greater than the other's", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) > 1
Array([False,  True], dtype=bool)
"""),
    "ge": ("self >= other", "whether each element is at least the other's", """\
>>> import arrayx as xp
>>> xp.asarray([1, 2]) >= 2
Array([False,  True], dtype=bool)
"""),
    "neg": ("-self", "the negation of each element", """\
>>> import arrayx as xp
>>> -xp.asarray([1, -2])
Array([-1,  2], dtype=int64)
"""),
    "pos": ("+self", "each element, as a new array", """\
>>> import arrayx as xp
>>> +xp.asarray([1, -2])
Array([ 1, -2], dtype=int64)
"""),
    "abs": ("abs(self)", "the absolute value of each element", """\
>>> import arrayx as xp
>>> abs(xp.asarray([-1, 2]))
Array([1, 2], dtype=int64)
"""),
    "invert": ("~self", "the bitwise NOT of each element", """\
>>> import arrayx as xp
>>> ~xp.asarray([True, False])
Array([False,  True], dtype=bool)
"""),
}

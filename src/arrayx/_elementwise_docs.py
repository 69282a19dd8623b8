"""The documentation of each elementwise function: its description and its examples.

``arrayx._elementwise`` makes one function per op of ``arrayx/_kernels/ops.py`` and writes its
docstring from its entry in ``_elementwise_docs.txt`` (read here into ``DOCS``: the prose and
examples live in a text file, not in code) and the op's declaration there: the Parameters,
Returns and Raises sections follow from the dtype kinds the op takes and its result rule
(``docstring``). Adding an op is its entry in ``ops.py`` and its entry in the text file. The
examples run as tests (``tests/test_docs.py``).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DOCS", "OPERATOR_DOCS"]


def _read(text: str) -> dict[str, tuple[str, str]]:
    """The entries of ``_elementwise_docs.txt``: name -> (description, examples)."""
    entries: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in text.split("\n"):
        if line.startswith("#"):
            continue
        if line and not line[0].isspace():
            lines = entries[line.strip()] = []
        else:
            lines.append(line[4:])
    docs = {}
    for name, body in entries.items():
        text = "\n".join(body).strip("\n")
        start = text.index(">>>")
        docs[name] = (text[:start].rstrip("\n"), text[start:] + "\n")
    return docs


DOCS = _read((Path(__file__).parent / "_elementwise_docs.txt").read_text(encoding="utf-8"))
"""name -> (description, examples), in the order of ``_elementwise_docs.txt``."""

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

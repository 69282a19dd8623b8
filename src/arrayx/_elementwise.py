"""Elementwise functions, made from the op table: one function per op of
``arrayx/_kernels/ops.py``, documented from its row of ``_elementwise_docs.py``.

Each op is declared once, as data, in ``ops.py``; the kernels are generated from the same
table at build time and these entries at import. Arguments are arrays, or for two-argument
functions one array and one Python scalar. Broadcasting and type promotion follow the
standard. ``clip``, which is two ops, is written out.
"""

from __future__ import annotations

from collections.abc import Callable
from textwrap import fill

from arrayx import _docfill
from arrayx._array import Array, apply_binary, apply_binary_into, apply_unary, clip_bound
from arrayx._elementwise_docs import DOCS
from arrayx._kernels.ops import BINARY, UNARY, metadata

# What each dtype kind of ops.py reads as in a docstring.
_KIND_TEXT = {
    "numeric": "a numeric dtype (integer, real or complex floating)",
    "real": "a real-valued dtype (integer or real floating)",
    "integer_or_bool": "an integer or bool dtype",
    "integer": "an integer dtype",
    "real_float": "a real floating dtype",
    "all": "any dtype",
    "bool": "the bool dtype",
}
_TRUTH = "a numeric array counts as its truth (nonzero), as in NumPy: an extension"
# The Returns text by result (a bool op's ``same`` result is bool), of the result's shape and
# the operands' own dtype, by arity.
_RESULT_TEXT = {
    "same": "An array of {shape}, of {dtype}.",
    "bool": "A bool array of {shape}.",
    "real": "An array of {shape}; real floating for complex input (``float32`` for "
            "``complex64``, ``float64`` for ``complex128``), {dtype} otherwise.",
    "float": "A floating-point array of {shape}: {dtype} for floating input, ``float64`` for "
             "integer input.",
}
_OPERANDS = {1: {"shape": "``x``'s shape", "dtype": "``x``'s dtype"},
             2: {"shape": "the broadcast shape", "dtype": "the dtype the operands promote to"}}


def _section(title: str, head: str, text: str) -> str:
    body = fill(text, 96, initial_indent="    ", subsequent_indent="    ")
    return f"{title}\n{'-' * len(title)}\n{head}\n{body}\n"


def docstring(name: str, arity: int, kinds: str, result: str) -> str:
    """The numpydoc docstring of the elementwise function ``name``: its row of ``DOCS``
    with the sections its declaration in ``ops.py`` (arity, dtype kinds, result) implies."""
    description, examples = DOCS[name]
    if kinds == "all" and result != "bool":
        # add and multiply take bool as NumPy does (an extension): the standard's domain.
        kinds = "numeric"
    domain = _KIND_TEXT[kinds]
    if kinds == "bool":
        result = "bool"
    if arity == 1:
        params = f"Input array of {domain}" + (f" ({_TRUTH})." if kinds == "bool" else ".")
        raises = None if kinds == "bool" else f"If ``x`` is not of {domain}."
    else:
        params = (f"The operands, of {domain}: two arrays, or one array and one Python scalar; "
                  f"broadcast together.")
        if kinds == "bool":
            params += f" {_TRUTH[0].upper()}{_TRUTH[1:]}."
        raises = ("If a Python scalar operand is not a bool." if kinds == "bool" else
                  "If the operands' dtypes do not promote." if kinds == "all" else
                  f"If an operand is not of {domain}, or the two do not promote.")
    sections = [description + "\n",
                _section("Parameters", "x : Array" if arity == 1 else
                         "x1, x2 : Array or Python scalar", params),
                _section("Returns", "Array", _RESULT_TEXT[result].format(**_OPERANDS[arity]))]
    if raises:
        sections.append(_section("Raises", "TypeError", raises))
    sections.append(f"Examples\n--------\n{examples}")
    return "\n".join(sections)


def _truth(x: Array | complex) -> Array | complex:
    """A numeric array's truth (nonzero) for the logical functions, as NumPy takes it (an
    extension: the standard's logical functions take bool; strict mode refuses the rest)."""
    if isinstance(x, Array) and x.dtype != "bool":
        return apply_binary("not_equal", x, 0)
    return x


# Each function's source, by arity and whether its arguments are taken by their truth: the
# op's name is a constant in it, as if written out.
_SOURCE = {
    (1, False): "def {name}(x: Array, /) -> Array:\n    return apply_unary({name!r}, x)\n",
    (1, True): "def {name}(x: Array, /) -> Array:\n    return apply_unary({name!r}, _truth(x))\n",
    (2, False): "def {name}(x1: Array | complex, x2: Array | complex, /) -> Array:\n"
                "    return apply_binary({name!r}, x1, x2)\n",
    (2, True): "def {name}(x1: Array | complex, x2: Array | complex, /) -> Array:\n"
               "    return apply_binary({name!r}, _truth(x1), _truth(x2))\n",
}


def _entry(name: str, arity: int, kinds: str, result: str) -> Callable[..., Array]:
    """The public function of op ``name``, made from its source template and documented."""
    made: dict[str, Callable[..., Array]] = {}
    code = compile(_SOURCE[arity, kinds == "bool"].format(name=name),
                   f"<arrayx elementwise {name}>", "exec")
    exec(code, globals(), made)
    function = made[name]
    function.__doc__ = docstring(name, arity, kinds, result)
    return function


_OPS = [(name, 1, kinds, result) for name, kinds, result in metadata(UNARY)] + \
       [(name, 2, kinds, result) for name, kinds, result in metadata(BINARY)]
globals().update({name: _entry(name, *rest) for name, *rest in _OPS})
__all__ = sorted([name for name, *_ in _OPS] + ["clip"])


def clip(
    x: Array, /, min: Array | float | None = None, max: Array | float | None = None
) -> Array:
    """Each element of ``x`` clamped to ``[min, max]``.

    Parameters
    ----------
    %(x_real)s
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


_docfill.fill([clip])

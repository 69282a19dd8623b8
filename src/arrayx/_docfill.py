"""Docstring text that several functions share, written once.

A docstring names a shared block by a line of its own, ``%(name)s``, and :func:`fill` puts the
block there at that line's indentation (as SciPy's ``doccer`` does). The blocks are numpydoc
text: parameter entries, a ``Raises`` section, and so on; a family of functions documented
alike shares its sections as one block, which may name blocks in turn. ``%(examples)s`` is the
``Examples`` heading with the import every example starts with. ``COMMON`` holds those of several
modules; a module keeps the blocks of its own functions beside them and passes them to
:func:`fill`.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable

__all__ = ["COMMON", "fill", "sections"]

COMMON = {
    "examples": """\
Examples
--------
>>> import arrayx as xp""",
    "reduce_axis": """\
axis : int or tuple of ints, optional
    The axes to reduce; None (default) reduces all.""",
    "keepdims": """\
keepdims : bool, optional
    Keep the reduced axes as axes of size one.""",
    "keepdims_broadcast": """\
keepdims : bool, optional
    Keep the reduced axes as axes of size one, so the result broadcasts against ``x``.""",
    "keepdims_searched": """\
keepdims : bool, optional
    Keep the searched axis as an axis of size one.""",
    "reduce_any_params": """\
Parameters
----------
%(x_any)s
%(reduce_axis)s
%(keepdims_broadcast)s""",
    "x_real": """\
x : Array
    A real-valued array.""",
    "x_numeric": """\
x : Array
    A numeric or bool array.""",
    "x_any": """\
x : Array
    An array of any dtype.""",
    "x_input": """\
x : Array
    The input array.""",
    "raises_complex": """\
TypeError
    If ``x`` is complex.""",
    "raises_empty_axis": """\
ValueError
    If a reduced axis is empty.""",
    "raises_0d": """\
ValueError
    If ``x`` is 0-d.""",
    "raises_not_float": """\
TypeError
    If ``x`` is not floating point.""",
    "x_square": """\
x : Array
    Shape ``(..., M, M)``, floating point.""",
    "square_parameters": """\
Parameters
----------
%(x_square)s""",
    "x_stack": """\
x : Array
    An array of at least two dimensions: a stack of matrices in its last two axes.""",
    "x_matrices": """\
x : Array
    Shape ``(..., M, N)``, floating point.""",
    "raises_not_square": """\
ValueError
    If the matrices are not square.""",
    "raises_no_convergence": """\
LinAlgError
    If the eigenvalue computation does not converge.""",
    "raises_few_dims": """\
ValueError
    If ``x`` has fewer than two dimensions.""",
    "returns_new": """\
Array
    A new array of ``x``'s shape and dtype.""",
    "device": """\
device : Device or str, optional
    Where the array lives; default the default device (the CPU; see ``ARRAYX_DEVICE``).""",
    "like_x": """\
x : Array
    The array whose shape (and, by default, dtype and device) the result takes.""",
    "like_dtype": """\
dtype : dtype, optional
    Default ``x.dtype``.""",
    "like_device": """\
device : Device or str, optional
    Default ``x.device``.""",
    "returns_like": """\
Array
    A new C-contiguous array of ``x``'s shape.""",
    "raises_not_array": """\
TypeError
    If ``x`` is not an arrayx array.""",
    "shape": """\
shape : int or tuple of ints
    The shape; every size non-negative.""",
    "dtype_float64": """\
dtype : dtype, optional
    Default ``float64``.""",
    "raises_negative_size": """\
ValueError
    If a size is negative.""",
    "raises_axis_range": """\
IndexError
    If ``axis`` is out of range.""",
    "raises_an_axis_range": """\
IndexError
    If an axis is out of range.""",
    "returns_view": """\
Array
    A view sharing ``x``'s memory.""",
    "raises_broadcast": """\
ValueError
    If the shapes do not broadcast together.""",
    "raises_promote": """\
TypeError
    If the dtypes do not promote.""",
    "sum_dtype": """\
dtype : dtype, optional
    The accumulator and result dtype. Default: ``int64`` for bool and signed and ``uint64``
    for unsigned integers, ``x``'s dtype for floating point (bool is an extension).""",
}

_PLACE = re.compile(r"^(\s*)%\((\w+)\)s\s*$")


def expand(doc: str, blocks: dict[str, str]) -> str:
    """``doc`` with each line ``%(name)s`` replaced by ``blocks[name]`` (itself expanded),
    indented as it.

    Raises
    ------
    KeyError
        If ``doc`` names a block that ``blocks`` lacks.
    """
    out = []
    for line in doc.split("\n"):
        found = _PLACE.match(line)
        if found is None:
            out.append(line)
            continue
        indent, name = found.groups()
        block = expand(textwrap.dedent(blocks[name]).strip("\n"), blocks)
        out.extend(indent + text if text else "" for text in block.split("\n"))
    return "\n".join(out)


def fill(functions: Iterable[Callable], **blocks: str) -> None:
    """Fill each of ``functions``' docstrings with ``blocks`` and ``COMMON`` (see the
    module's text)."""
    blocks = {**COMMON, **blocks}
    for fn in functions:
        fn.__doc__ = expand(fn.__doc__, blocks)


def sections(parameters: Iterable[str], returns: str | None = None,
             raises: Iterable[str] = ()) -> str:
    """A family's ``Parameters``, ``Returns`` and ``Raises`` sections, as a block.

    Each parameter and each raised error is a block's name or its numpydoc text; ``returns``
    is a block's name or the text that describes the returned array (lines unindented).
    """
    def entries(items: Iterable[str]) -> str:
        return "\n".join(f"%({item})s" if item.isidentifier() else item for item in items)

    text = f"Parameters\n----------\n{entries(parameters)}"
    if returns is not None:
        body = entries([returns]) if returns.isidentifier() else (
            "Array\n" + textwrap.indent(returns, "    "))
        text += f"\n\nReturns\n-------\n{body}"
    raised = entries(raises)
    return text + (f"\n\nRaises\n------\n{raised}" if raised else "")

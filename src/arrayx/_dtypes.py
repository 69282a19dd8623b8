"""The 13 dtypes of the standard (NumPy dtype objects), their kinds, and type promotion.

The standard fixes promotion within a kind (and between signed and unsigned integers); for the
pairs it leaves open (integer with floating, bool with numeric, ``int64`` with ``uint64``)
arrayx follows NumPy, because consumers rely on those results. Python scalars are "weak": they
take the array's dtype where their kind fits in it.
"""

from __future__ import annotations

import builtins
import functools

import numpy as np

from arrayx._kernels import dtypes as _registry

__all__ = [
    "DTYPES", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128", "CODE", "KINDS", "as_dtype", "kind_of",
    "promote", "result_type", "default_int", "default_float", "default_complex",
    "default_index",
]

# The registry's 13 dtypes as NumPy dtype objects, ordered by arrayx's dtype code: every kernel
# table is indexed by it.
DTYPES = tuple(np.dtype(name) for name in _registry.NAMES)
(bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,  # noqa: A001 - the standard's name
 float32, float64, complex64, complex128) = DTYPES
CODE = {d: i for i, d in enumerate(DTYPES)}

default_int = int64
default_float = float64
default_complex = complex128
default_index = int64

KINDS = {
    "bool": (bool,),
    "signed integer": (int8, int16, int32, int64),
    "unsigned integer": (uint8, uint16, uint32, uint64),
    "integral": (int8, int16, int32, int64, uint8, uint16, uint32, uint64),
    "real floating": (float32, float64),
    "complex floating": (complex64, complex128),
    "numeric": DTYPES[1:],
}

# Category name -> (rank used for Python-scalar rules)
_SCALAR_RANK = {"bool": 0, "int": 1, "float": 2, "complex": 3}


def as_dtype(dtype: object) -> np.dtype:
    """``dtype`` as one of the 13 dtypes; TypeError for anything else."""
    if isinstance(dtype, np.dtype):
        if dtype in CODE:
            return dtype
    else:
        try:
            d = np.dtype(dtype)
        except (TypeError, ValueError):
            d = None
        if d is not None and d in CODE and (
                isinstance(dtype, (str, type)) or hasattr(dtype, "dtype")):
            return d
    raise TypeError(f"{dtype!r} is not a data type of the array API standard")


def kind_of(dtype: np.dtype) -> str:
    """The scalar kind of a dtype: 'bool', 'int', 'float' or 'complex'."""
    k = dtype.kind
    if k == "b":
        return "bool"
    if k in "iu":
        return "int"
    if k == "f":
        return "float"
    return "complex"


def _build_promotion() -> dict[tuple[np.dtype, np.dtype], np.dtype]:
    table = {}
    for a in DTYPES:
        for b in DTYPES:
            table[a, b] = np.promote_types(a, b)
    return table


_PROMOTION = _build_promotion()


def promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """The dtype two arrays of dtypes ``a`` and ``b`` promote to."""
    return _PROMOTION[a, b]


def same_kind(src: np.dtype, dst: np.dtype) -> bool:
    """Whether values of ``src`` may be written into ``dst`` in place: NumPy's ``same_kind``
    casting rule (within a kind, or to a higher one), which NumPy's and CuPy's in-place
    operators apply."""
    return builtins.bool(np.can_cast(src, dst, "same_kind"))


def _complex_of(d: np.dtype) -> np.dtype:
    return complex64 if d == float32 else complex128


def _scalar_kind(x: object) -> str | None:
    if isinstance(x, builtins.bool):
        return "bool"
    if isinstance(x, int):
        return "int"
    if isinstance(x, float):
        return "float"
    if isinstance(x, complex):
        return "complex"
    return None


def kind_of_scalar(x: object) -> str:
    """The kind of a Python scalar: 'bool', 'int', 'float' or 'complex'."""
    kind = _scalar_kind(x)
    if kind is None:
        raise TypeError(f"{x!r} is not a Python scalar")
    return kind


def with_scalar(dtype: np.dtype, kind: str) -> np.dtype:
    """The dtype of an operation between an array of ``dtype`` and a Python scalar of ``kind``."""
    have = _SCALAR_RANK[kind_of(dtype)]
    want = _SCALAR_RANK[kind]
    if want <= have:
        return dtype
    if kind == "int":
        return default_int
    if kind == "float":
        return default_float
    return _complex_of(dtype) if dtype.kind == "f" else default_complex


_DEFAULT_OF_KIND = {"bool": bool, "int": int64, "float": float64, "complex": complex128}


def _promote_all(dtypes: list[np.dtype]) -> np.dtype:
    """The dtype ``dtypes`` promote to together.

    Pairwise promotion is not associative across kinds (int8 with uint16 gives int32, which
    with float32 gives float64, while float32 holds both): as NumPy, an operand every other
    one promotes to is the answer; otherwise the pairwise fold is.
    """
    for d in dtypes:
        if all(promote(e, d) == d for e in dtypes):
            return d
    return functools.reduce(promote, dtypes)


def result_type(*arrays_and_dtypes: object) -> np.dtype:
    """The dtype that arrays, dtypes and Python scalars promote to together.

    Arrays and dtypes promote by the standard's table (and NumPy's rules for the mixed-kind pairs
    the standard leaves open). Python scalars are "weak": they take the others' dtype where their
    kind fits in it (an ``int`` beside ``int8`` stays ``int8``; a ``float`` beside an integer
    dtype gives ``float64``).

    Parameters
    ----------
    *arrays_and_dtypes : Array, dtype, bool, int, float or complex
        At least one. Python scalars alone give their default dtypes.

    Returns
    -------
    dtype
        The promoted dtype.

    Raises
    ------
    ValueError
        If no argument is given.
    TypeError
        If two dtypes do not promote, or an argument is of another type.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.result_type(xp.int8, xp.uint8)
    dtype('int16')
    >>> xp.result_type(xp.asarray([1], dtype=xp.int8), 1)
    dtype('int8')
    >>> xp.result_type(xp.float32, 1j)
    dtype('complex64')
    """
    if not arrays_and_dtypes:
        raise ValueError("result_type needs at least one array, dtype or scalar")
    dtypes = []
    scalars = []
    for x in arrays_and_dtypes:
        # A NumPy scalar has its dtype, as beside an array in an operator (np.float64 and
        # np.complex128 subclass float and complex); a class (np.float64 itself) is a dtype.
        if isinstance(x, np.generic):
            dtypes.append(as_dtype(x.dtype))
        elif (kind := _scalar_kind(x)) is not None:
            scalars.append(kind)
        elif hasattr(x, "__array_namespace__") and not isinstance(x, type):
            dtypes.append(x.dtype)
        else:
            dtypes.append(as_dtype(x))
    if not dtypes:
        return _DEFAULT_OF_KIND[max(scalars, key=_SCALAR_RANK.__getitem__)]
    result = _promote_all(dtypes)
    for kind in scalars:
        result = with_scalar(result, kind)
    return result

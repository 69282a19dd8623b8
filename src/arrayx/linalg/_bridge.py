"""``LinAlgError`` and the argument checks shared by the linalg functions."""

from __future__ import annotations

from arrayx._array import Array
from arrayx._data_type_functions import astype, isdtype
from arrayx._dtypes import float64

FLOATING = ("real floating", "complex floating")

__all__ = ["FLOATING", "LinAlgError", "array_arg", "as_inexact", "floating_stack", "square_stack"]


class LinAlgError(ValueError):
    """A linear-algebra function cannot compute its result for this input.

    Raised for a singular matrix (``solve``, ``inv``, ``matrix_power`` with a negative power),
    a matrix that is not positive definite (``cholesky``), or a factorisation that does not
    converge (``svd``, ``eigh``, ``eig``, ...). A ``ValueError``, as NumPy's ``LinAlgError``
    is, so ``except ValueError`` catches it too.

    Examples
    --------
    >>> import arrayx as xp
    >>> try:
    ...     xp.linalg.inv(xp.zeros((2, 2)))
    ... except xp.linalg.LinAlgError as e:
    ...     print(e)
    inv: the matrix is singular
    >>> issubclass(xp.linalg.LinAlgError, ValueError)
    True
    """


LinAlgError.__module__ = "arrayx.linalg"


def array_arg(x: object, name: str) -> Array:
    """``x`` if it is an arrayx array, else a TypeError naming ``name``."""
    if not isinstance(x, Array):
        raise TypeError(f"{name} expects an arrayx array, got {type(x).__name__}")
    return x


def floating_stack(x: object, name: str) -> Array:
    """Check ``x`` is a floating-point array of shape ``(..., M, N)``."""
    a = array_arg(x, name)
    if not isdtype(a.dtype, FLOATING):
        raise TypeError(f"{name} needs a floating-point array, got {a.dtype}")
    if a.ndim < 2:
        raise ValueError(f"{name} needs a stack of matrices (at least 2 dimensions), got an "
                         f"array of shape {a.shape}")
    return a


def square_stack(x: object, name: str) -> Array:
    """Check ``x`` is a floating-point array of shape ``(..., M, M)``."""
    a = floating_stack(x, name)
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name} needs square matrices, got shape {a.shape}")
    return a


def as_inexact(a: Array) -> Array:
    """``a`` itself when floating point, else converted to float64 (by arrayx's cast)."""
    if isdtype(a.dtype, FLOATING):
        return a
    return astype(a, float64)

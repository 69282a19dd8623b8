"""Vector and matrix norms (NumPy's linalg on zero-copy views of arrayx memory)."""

from __future__ import annotations

import numpy as np

from arrayx._array import Array
from arrayx.linalg._bridge import adopt, array_arg, as_inexact, floating_stack, lapack_view

__all__ = ["matrix_norm", "vector_norm"]


def vector_norm(
    x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False,
    ord: int | float = 2,
) -> Array:
    """The vector ``ord``-norm of ``x`` over ``axis`` (all axes by default).

    Parameters
    ----------
    x : Array
        Integer input is converted to float64 first.
    axis : int or tuple of ints, optional
        The axes holding the vectors; None flattens ``x``.
    keepdims : bool
        Keep the reduced axes with size 1.
    ord : int or float
        ``p`` of the p-norm; ``inf``/``-inf`` give the largest/smallest modulus, 0 the count
        of non-zero elements.

    Returns
    -------
    Array
        The real floating dtype of ``x``'s precision.

    Examples
    --------
    >>> import arrayx as xp
    >>> x = xp.asarray([3.0, -4.0])
    >>> xp.linalg.vector_norm(x)
    Array(5., dtype=float64)
    >>> xp.linalg.vector_norm(x, ord=1)
    Array(7., dtype=float64)
    >>> xp.linalg.vector_norm(x, ord=xp.inf)
    Array(4., dtype=float64)
    """
    a = as_inexact(array_arg(x, "vector_norm"))
    return adopt(np.linalg.vector_norm(lapack_view(a), axis=axis, keepdims=bool(keepdims),
                                       ord=ord))


def matrix_norm(
    x: Array, /, *, keepdims: bool = False, ord: int | float | str | None = "fro",
) -> Array:
    """The matrix norm of each matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., M, N)``, floating point.
    keepdims : bool
        Keep the two matrix axes with size 1.
    ord : {'fro', 'nuc', 1, -1, 2, -2, inf, -inf}
        Frobenius, nuclear, max/min column sum, largest/smallest singular value, max/min row
        sum.

    Returns
    -------
    Array
        The real floating dtype of ``x``'s precision, shape ``x.shape[:-2]``.

    Raises
    ------
    TypeError
        If ``x`` is not floating point.
    ValueError
        If ``ord`` is not one of the orders above.

    Examples
    --------
    >>> import arrayx as xp
    >>> x = xp.asarray([[3.0, 0.0], [0.0, 4.0]])
    >>> xp.linalg.matrix_norm(x)
    Array(5., dtype=float64)
    >>> xp.linalg.matrix_norm(x, ord=2)
    Array(4., dtype=float64)
    """
    a = floating_stack(x, "matrix_norm")
    return adopt(np.linalg.matrix_norm(lapack_view(a), keepdims=bool(keepdims), ord=ord))

"""``diag``: NumPy's, CuPy's and PyTorch's ``diag``, an extension of the standard (strict mode
hides it): the diagonal of a matrix, or a square matrix with a vector on a diagonal."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from arrayx._array import Array

__all__ = ["diag"]


def diag_with(v: Any, k: int, zeros: Callable, reshape: Callable, diagonal: Callable) -> Any:
    """``diag(v, k)`` built from a namespace's ``zeros``, ``reshape`` and ``diagonal`` (arrayx's,
    or the traced ones of ``arrayx.autograd``): a 1-D ``v`` is written, with one strided
    assignment, onto diagonal ``k`` of a zero matrix seen flat."""
    if v.ndim == 2:
        return diagonal(v, offset=k)
    if v.ndim != 1:
        raise ValueError(f"diag takes a 1-D or a 2-D array, not {v.ndim}-D")
    n = v.shape[0]
    m = n + abs(k)
    flat = zeros((m * m,), dtype=v.dtype, device=v.device)
    start = k if k >= 0 else -k * m
    flat[start:start + (m + 1) * n:m + 1] = v
    return reshape(flat, (m, m))


def diag(v: Array, /, k: int = 0) -> Array:
    """The ``k``-th diagonal of a matrix, or a square matrix with ``v`` on diagonal ``k``.

    An extension (NumPy's, CuPy's and PyTorch's ``diag``; the standard has
    ``linalg.diagonal``); strict mode hides it.

    Parameters
    ----------
    v : Array
        A 2-D array (its diagonal is returned) or a 1-D array (placed on a diagonal).
    k : int, optional
        The diagonal: 0 (default) the main one, above it for ``k > 0``, below for ``k < 0``.

    Returns
    -------
    Array
        For a 2-D ``v``, a view of its diagonal (as ``linalg.diagonal``); for a 1-D ``v`` of
        ``n`` elements, a new ``(n + |k|, n + |k|)`` array of ``v``'s dtype, zero off the
        diagonal.

    Raises
    ------
    TypeError
        If ``v`` is not an arrayx array or ``k`` is not an integer.
    ValueError
        If ``v`` is neither 1-D nor 2-D.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.diag(xp.asarray([1, 2]))
    Array([[1, 0],
           [0, 2]], dtype=int64)
    >>> xp.diag(xp.asarray([1.0, 2.0]), k=1)
    Array([[0., 1., 0.],
           [0., 0., 2.],
           [0., 0., 0.]], dtype=float64)
    >>> xp.diag(xp.reshape(xp.arange(9), (3, 3)), k=-1)
    Array([3, 7], dtype=int64)
    """
    if not isinstance(v, Array):
        raise TypeError(f"diag expects an arrayx array, got {type(v).__name__}")
    from arrayx._creation import zeros
    from arrayx._manipulation import reshape
    from arrayx.linalg import diagonal

    return diag_with(v, operator.index(k), zeros, reshape, diagonal)

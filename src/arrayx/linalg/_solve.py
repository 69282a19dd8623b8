"""Linear systems, inverses, determinants, ranks and matrix powers.

``solve``, ``inv``, ``det`` and ``slogdet`` factor in LAPACK (``_lapack``: ``getrf``/``getrs``
without the GIL) and finish in arrayx: a determinant is the permutation's sign times the
product of ``U``'s diagonal. ``pinv`` and ``matrix_rank`` are built on ``svd``/``svdvals``
with arrayx's elementwise ops, folds and ``matmul``.
"""

from __future__ import annotations

import builtins
import operator
from typing import NamedTuple

from arrayx._array import Array
from arrayx._creation import zeros
from arrayx._data_type_functions import astype, finfo, isdtype, result_type
from arrayx._docfill import fill
from arrayx._elementwise import abs, conj, log, sign
from arrayx._manipulation import broadcast_shapes, broadcast_to, matrix_transpose
from arrayx._searching import count_nonzero, where
from arrayx._statistical import prod, sum
from arrayx._utility import any
from arrayx.linalg import _lapack_dispatch
from arrayx.linalg._bridge import FLOATING, array_arg, floating_stack, square_stack
from arrayx.linalg._decompositions import svd, svdvals
from arrayx.linalg._diagonal import diagonal
from arrayx.linalg._matmul import matmul
from arrayx.linalg._norms import last_axis_extreme

__all__ = [
    "SlogdetResult", "det", "inv", "matrix_power", "matrix_rank", "pinv", "slogdet", "solve",
]


class SlogdetResult(NamedTuple):
    """The result of ``slogdet``: ``det(x) = sign * exp(logabsdet)``.

    A named tuple ``(sign, logabsdet)``.

    %(examples)s
    >>> r = xp.linalg.slogdet(xp.eye(2))
    >>> float(r.sign), float(r.logabsdet)
    (1.0, 0.0)
    """

    sign: Array
    logabsdet: Array


def solve(x1: Array, x2: Array, /) -> Array:
    """The solution ``X`` of ``x1 @ X = x2`` for each square matrix of ``x1``.

    Parameters
    ----------
    x1 : Array
        Shape ``(..., M, M)``, invertible, floating point.
    x2 : Array
        Shape ``(M,)`` (one right-hand side for every matrix of ``x1``) or ``(..., M, K)``
        (batch dimensions broadcast against ``x1``'s), floating point.

    Returns
    -------
    Array
        Shape ``x1.shape[:-2] + (M,)`` or ``broadcast(...) + (M, K)``; the promoted dtype.

    Raises
    ------
    TypeError
        If an operand is not floating point.
    ValueError
        If the shapes do not match.
    LinAlgError
        If a matrix of ``x1`` is singular.

    %(examples)s
    >>> a = xp.asarray([[3.0, 1.0], [1.0, 2.0]])
    >>> xp.linalg.solve(a, xp.asarray([9.0, 8.0]))
    Array([2., 3.], dtype=float64)
    """
    a = square_stack(x1, "solve")
    b = array_arg(x2, "solve")
    if not isdtype(b.dtype, FLOATING):
        raise TypeError(f"solve needs a floating-point x2, got {b.dtype}")
    m = a.shape[-1]
    rows = b.shape[0] if b.ndim == 1 else (b.shape[-2] if b.ndim >= 2 else None)
    if rows != m:
        raise ValueError(f"solve: x1 of shape {a.shape} does not match x2 of shape {b.shape}")
    dtype = result_type(a, b)
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    x = _lapack_dispatch.solve(broadcast_to(a, batch + a.shape[-2:]),
                      broadcast_to(b, batch + b.shape[-2:]), dtype)
    return x[..., 0] if vector else x


def inv(x: Array, /) -> Array:
    """The inverse of each square matrix of ``x``.

    %(square_parameters)s

    Returns
    -------
    %(returns_new)s

    Raises
    ------
    %(raises_not_float)s
    LinAlgError
        If a matrix is singular.

    %(examples)s
    >>> xp.linalg.inv(xp.asarray([[2.0, 0.0], [0.0, 4.0]]))
    Array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float64)
    """
    return _lapack_dispatch.inv(square_stack(x, "inv"))


def det(x: Array, /) -> Array:
    """The determinant of each square matrix of ``x``.

    %(square_parameters)s

    Returns
    -------
    Array
        Shape ``x.shape[:-2]``, ``x``'s dtype.

    Raises
    ------
    %(raises_not_float)s
    %(raises_not_square)s

    %(examples)s
    >>> round(float(xp.linalg.det(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))), 12)
    -2.0
    """
    lu, parity = _lapack_dispatch.lu_factor(square_stack(x, "det"), "det")
    pivots = diagonal(lu)
    # A zero pivot makes the determinant zero, even where the product of the pivots before it
    # overflowed (inf * 0 is nan; NumPy's det is exp(logdet), 0 there).
    return where(any(pivots == 0, axis=-1), 0.0, prod(pivots, axis=-1) * parity)


def slogdet(x: Array, /) -> SlogdetResult:
    """The sign and the natural log of the absolute determinant of each square matrix.

    %(square_parameters)s

    Returns
    -------
    SlogdetResult
        ``sign`` of ``x``'s dtype (0 for a singular matrix) and ``logabsdet`` of the real
        dtype of its precision (``-inf`` for a singular matrix).

    Raises
    ------
    %(raises_not_float)s
    %(raises_not_square)s

    %(examples)s
    >>> sign, logabsdet = xp.linalg.slogdet(xp.asarray([[-2.0, 0.0], [0.0, 3.0]]))
    >>> float(sign), round(float(logabsdet), 6)
    (-1.0, 1.791759)
    """
    lu, parity = _lapack_dispatch.lu_factor(square_stack(x, "slogdet"), "slogdet")
    u = diagonal(lu)
    # sign(0) is 0, so a singular matrix has sign 0 and logabsdet -inf, as NumPy gives.
    return SlogdetResult(prod(sign(u), axis=-1) * parity, sum(log(abs(u)), axis=-1))


def _cutoff(s: Array, rtol: float | Array | None, shape: tuple[int, ...]) -> Array:
    """``rtol`` (default ``max(M, N) * eps``) times the largest singular value, for each
    matrix of the stack, with a trailing axis to compare with the singular values ``s``."""
    if rtol is None:
        rtol = builtins.max(shape[-2:]) * finfo(s.dtype).eps
    elif isinstance(rtol, Array):
        rtol = rtol[..., None]
    # An empty matrix has no singular value (rank 0, pseudo-inverse empty): 0 serves.
    return last_axis_extreme(s, True)[..., None] * rtol


def pinv(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """The Moore-Penrose pseudo-inverse of each matrix of ``x`` (shape ``(..., N, M)``).

    Parameters
    ----------
    %(x_matrices)s
    rtol : float or Array, optional
        Singular values below ``rtol`` times the largest are taken as zero; an array
        broadcasts against the stack shape. Default: ``max(M, N) * eps``.

    Returns
    -------
    Array
        Shape ``(..., N, M)``, ``x``'s dtype.

    Raises
    ------
    %(raises_not_float)s
    LinAlgError
        If the SVD does not converge.

    %(examples)s
    >>> xp.linalg.pinv(xp.asarray([[2.0, 0.0], [0.0, 0.0]]))
    Array([[0.5, 0. ],
           [0. , 0. ]], dtype=float64)
    """
    a = floating_stack(x, "pinv")
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        return zeros(a.shape[:-2] + (n, m), dtype=a.dtype, device=a.device)
    u, s, vh = svd(a, full_matrices=False)
    # 1/s of the singular values above the cutoff, 0 for the others.
    s_inv = where(s > _cutoff(s, rtol, a.shape), 1 / s, 0)
    if isdtype(a.dtype, "complex floating"):
        u, vh = conj(u), conj(vh)
    # pinv(x) = V diag(1/s) U^H.
    return matmul(matrix_transpose(vh) * s_inv[..., None, :],
                  matrix_transpose(u))


def matrix_rank(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """The rank of each matrix of ``x``: its singular values above ``rtol`` times the largest.

    Parameters
    ----------
    %(x_matrices)s
    rtol : float or Array, optional
        Default: ``max(M, N) * eps``; an array broadcasts against the stack shape.

    Returns
    -------
    Array
        int64, shape ``x.shape[:-2]``.

    Raises
    ------
    %(raises_not_float)s
    %(raises_few_dims)s
    LinAlgError
        If the SVD does not converge.

    %(examples)s
    >>> xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))
    Array(1, dtype=int64)
    """
    a = floating_stack(x, "matrix_rank")
    s = svdvals(a)
    return count_nonzero(s > _cutoff(s, rtol, a.shape), axis=-1)


def matrix_power(x: Array, n: int, /) -> Array:
    """Each square matrix of ``x`` raised to the integer power ``n``.

    ``n = 0`` gives identity matrices and ``n < 0`` powers of the inverse (floating point only).
    Products are computed by repeated squaring with ``matmul``.

    Parameters
    ----------
    x : Array
        Shape ``(..., M, M)``, numeric.
    n : int
        The power.

    Returns
    -------
    %(returns_new)s

    Raises
    ------
    LinAlgError
        If ``n < 0`` and a matrix is singular.
    TypeError
        If ``n`` is not an int, or ``n < 0`` for an integer ``x``.

    %(examples)s
    >>> xp.linalg.matrix_power(xp.asarray([[1, 1], [0, 1]]), 3)
    Array([[1, 3],
           [0, 1]], dtype=int64)
    >>> xp.linalg.matrix_power(xp.asarray([[2.0, 0.0], [0.0, 4.0]]), -1)
    Array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float64)
    """
    a = array_arg(x, "matrix_power")
    if isinstance(n, bool):
        raise TypeError("matrix_power: n must be an integer, not a bool")
    n = operator.index(n)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"matrix_power needs square matrices, got shape {a.shape}")
    if n == 0:
        out = zeros(a.shape, dtype=a.dtype, device=a.device)
        diagonal(out)[...] = 1
        return out
    if n < 0:
        a = inv(a)
        n = -n
    result = None
    while True:
        if n & 1:
            result = a if result is None else matmul(result, a)
        n >>= 1
        if not n:
            break
        a = matmul(a, a)
    return astype(result, result.dtype) if result is x else result


fill([SlogdetResult, det, inv, matrix_power, matrix_rank, pinv, slogdet, solve])

"""Factorisations and eigenproblems.

Every factorisation calls LAPACK directly (``_lapack``: the OpenBLAS NumPy calls, without
the GIL); ``qr`` and ``svd`` of empty matrices, whose factors are empty or identity
matrices, are built here. ``svdvals`` feeds the norms, ``pinv`` and ``matrix_rank``, whose
finishing steps run in arrayx.

Results are the standard's named tuples. ``eig``/``eigvals`` always return complex arrays of
the input's precision, also when every eigenvalue happens to be real.
"""

from __future__ import annotations

from typing import NamedTuple

from arrayx._array import Array
from arrayx._creation import zeros
from arrayx._data_type_functions import isdtype
from arrayx._docfill import fill, sections
from arrayx._dtypes import complex64, float32, float64
from arrayx._elementwise import conj
from arrayx.linalg import _lapack_dispatch
from arrayx.linalg._bridge import floating_stack, square_stack
from arrayx.linalg._diagonal import diagonal

__all__ = [
    "EigResult", "EighResult", "QRResult", "SVDResult", "cholesky", "eig", "eigh", "eigvals",
    "eigvalsh", "qr", "svd", "svdvals",
]


class EighResult(NamedTuple):
    """The result of ``eigh``: real eigenvalues (ascending) and orthonormal eigenvectors.

    A named tuple ``(eigenvalues, eigenvectors)``; the eigenvectors are the columns.

    %(examples)s
    >>> r = xp.linalg.eigh(xp.eye(2))
    >>> r.eigenvalues
    Array([1., 1.], dtype=float64)
    """

    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    """The result of ``eig``: complex eigenvalues and eigenvectors.

    A named tuple ``(eigenvalues, eigenvectors)``; the eigenvectors are the columns.

    %(examples)s
    >>> xp.linalg.eig(xp.eye(2)).eigenvectors.dtype
    dtype('complex128')
    """

    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """The result of ``qr``: ``Q`` with orthonormal columns and upper-triangular ``R``.

    A named tuple ``(Q, R)`` with ``x = Q @ R``.

    %(examples)s
    >>> r = xp.linalg.qr(xp.eye(2))
    >>> r.Q.shape, r.R.shape
    ((2, 2), (2, 2))
    """

    Q: Array
    R: Array


class SVDResult(NamedTuple):
    """The result of ``svd``: ``x = U @ diag(S) @ Vh``, ``S`` descending.

    A named tuple ``(U, S, Vh)``.

    %(examples)s
    >>> xp.linalg.svd(xp.asarray([[0.0, 2.0], [1.0, 0.0]])).S
    Array([2., 1.], dtype=float64)
    """

    U: Array
    S: Array
    Vh: Array


def _real(a: Array) -> object:
    """The real floating dtype of ``a``'s precision."""
    return float32 if a.dtype in (float32, complex64) else float64


def _empty(a: Array, shape: tuple[int, ...], dtype: object = None) -> Array:
    """Zeros of ``shape`` (with no element when a factor of an empty matrix has none)."""
    return zeros(shape, dtype=a.dtype if dtype is None else dtype, device=a.device)


def _identities(a: Array, n: int) -> Array:
    """A stack of ``n x n`` identity matrices over ``a``'s batch shape."""
    out = zeros(a.shape[:-2] + (n, n), dtype=a.dtype, device=a.device)
    diagonal(out)[...] = 1
    return out


def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """The Cholesky factor of each symmetric/Hermitian positive-definite matrix of ``x``.

    Parameters
    ----------
    %(x_square)s
    upper : bool
        Return the upper factor ``U`` (``x = U^H U``) instead of the lower ``L``.

    Returns
    -------
    Array
        Same shape and dtype as ``x``.

    Raises
    ------
    %(raises_not_float)s
    LinAlgError
        If a matrix is not positive definite.

    %(examples)s
    >>> x = xp.asarray([[4.0, 2.0], [2.0, 5.0]])
    >>> L = xp.linalg.cholesky(x)
    >>> L
    Array([[2., 0.],
           [1., 2.]], dtype=float64)
    >>> xp.linalg.cholesky(x, upper=True)
    Array([[2., 1.],
           [0., 2.]], dtype=float64)
    """
    return _lapack_dispatch.cholesky(square_stack(x, "cholesky"), bool(upper))


def qr(x: Array, /, *, mode: str = "reduced") -> QRResult:
    """The QR factorisation of each matrix of ``x``.

    Parameters
    ----------
    %(x_matrices)s
    mode : {'reduced', 'complete'}
        'reduced': ``Q`` is ``(..., M, K)`` and ``R`` ``(..., K, N)`` with ``K = min(M, N)``;
        'complete': ``Q`` is ``(..., M, M)`` and ``R`` ``(..., M, N)``.

    Returns
    -------
    QRResult

    Raises
    ------
    %(raises_not_float)s
    ValueError
        If ``x`` has fewer than two dimensions or ``mode`` is unknown.

    %(examples)s
    >>> q, r = xp.linalg.qr(xp.asarray([[3.0, 1.0], [4.0, 2.0]]))
    >>> q.shape, r.shape
    ((2, 2), (2, 2))
    >>> bool(xp.all(xp.abs(q @ r - xp.asarray([[3.0, 1.0], [4.0, 2.0]])) < 1e-12))
    True
    """
    a = floating_stack(x, "qr")
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', got {mode!r}")
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        batch = a.shape[:-2]
        if mode == "complete":
            return QRResult(_identities(a, m), _empty(a, batch + (m, n)))
        return QRResult(_empty(a, batch + (m, 0)), _empty(a, batch + (0, n)))
    return QRResult(*_lapack_dispatch.qr(a, mode == "complete"))


def svd(x: Array, /, *, full_matrices: bool = True) -> SVDResult:
    """The singular value decomposition of each matrix of ``x``.

    Parameters
    ----------
    %(x_matrices)s
    full_matrices : bool
        True: ``U`` is ``(..., M, M)`` and ``Vh`` ``(..., N, N)``; False: ``(..., M, K)`` and
        ``(..., K, N)`` with ``K = min(M, N)``.

    Returns
    -------
    SVDResult
        ``S`` has shape ``(..., K)`` and the real dtype of ``x``'s precision.

    Raises
    ------
    %(raises_svd)s

    %(examples)s
    >>> u, s, vh = xp.linalg.svd(xp.asarray([[3.0, 0.0], [0.0, -4.0]]))
    >>> s
    Array([4., 3.], dtype=float64)
    """
    a = floating_stack(x, "svd")
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        batch = a.shape[:-2]
        s = _empty(a, batch + (0,), _real(a))
        if full_matrices:
            return SVDResult(_identities(a, m), s, _identities(a, n))
        return SVDResult(_empty(a, batch + (m, 0)), s, _empty(a, batch + (0, n)))
    return SVDResult(*_lapack_dispatch.svd(a, True, bool(full_matrices)))


def svdvals(x: Array, /) -> Array:
    """The singular values of each matrix of ``x``, descending.

    Parameters
    ----------
    %(x_matrices)s

    Returns
    -------
    Array
        Shape ``(..., min(M, N))``, of the real floating dtype of ``x``'s precision.

    Raises
    ------
    %(raises_svd)s

    %(examples)s
    >>> xp.linalg.svdvals(xp.asarray([[3.0, 0.0], [0.0, -4.0]]))
    Array([4., 3.], dtype=float64)
    """
    a = floating_stack(x, "svdvals")
    if 0 in a.shape[-2:]:
        return _empty(a, a.shape[:-2] + (0,), _real(a))
    return _lapack_dispatch.svd(a, False, False)[1]


def eigh(x: Array, /) -> EighResult:
    """Eigenvalues (ascending, real) and eigenvectors of symmetric/Hermitian matrices.

    %(hermitian_parameters)s

    Returns
    -------
    EighResult
        ``eigenvalues`` ``(..., M)`` of the real dtype of ``x``'s precision, ``eigenvectors``
        ``(..., M, M)`` of ``x``'s dtype.

    Raises
    ------
    %(raises_eigen)s

    %(examples)s
    >>> w, v = xp.linalg.eigh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
    >>> w
    Array([1., 3.], dtype=float64)
    >>> xp.abs(v) * 2 ** 0.5
    Array([[1., 1.],
           [1., 1.]], dtype=float64)
    """
    w, rows = _lapack_dispatch.eigh(square_stack(x, "eigh"), True)
    # Row k holds the conjugate of eigenvector k (see _lapack).
    if isdtype(rows.dtype, "complex floating"):
        rows = conj(rows)
    return EighResult(w, rows.mT)


def eigvalsh(x: Array, /) -> Array:
    """The eigenvalues of symmetric or Hermitian matrices, ascending.

    %(hermitian_parameters)s

    Returns
    -------
    Array
        Shape ``(..., M)``, of the real floating dtype of ``x``'s precision.

    Raises
    ------
    %(raises_not_float)s
    %(raises_no_convergence)s

    %(examples)s
    >>> xp.linalg.eigvalsh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
    Array([1., 3.], dtype=float64)
    """
    return _lapack_dispatch.eigh(square_stack(x, "eigvalsh"), False)[0]


def eig(x: Array, /) -> EigResult:
    """Eigenvalues and right eigenvectors (columns) of general square matrices.

    %(square_parameters)s

    Returns
    -------
    EigResult
        ``eigenvalues`` ``(..., M)`` and ``eigenvectors`` ``(..., M, M)``, both complex64 for
        float32/complex64 input and complex128 otherwise.

    Raises
    ------
    %(raises_eigen)s
    %(raises_non_finite)s

    %(examples)s
    >>> w, v = xp.linalg.eig(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))
    >>> w
    Array([2.+0.j, 3.+0.j], dtype=complex128)
    >>> v
    Array([[1.+0.j, 0.+0.j],
           [0.+0.j, 1.+0.j]], dtype=complex128)
    """
    return EigResult(*_lapack_dispatch.eig(square_stack(x, "eig"), True))


def eigvals(x: Array, /) -> Array:
    """The eigenvalues of general square matrices.

    %(square_parameters)s

    Returns
    -------
    Array
        Shape ``(..., M)``; complex (``complex64`` for ``float32``/``complex64`` input,
        ``complex128`` otherwise), even when every eigenvalue is real.

    Raises
    ------
    %(raises_not_float)s
    %(raises_no_convergence)s
    %(raises_non_finite)s

    %(examples)s
    >>> xp.linalg.eigvals(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
    Array([0.+1.j, 0.-1.j], dtype=complex128)
    """
    return _lapack_dispatch.eig(square_stack(x, "eigvals"), False)[0]


fill([EigResult, EighResult, QRResult, SVDResult, cholesky, eig, eigh, eigvals, eigvalsh, qr, svd,
     svdvals],
     raises_eigen="%(raises_not_float)s\n%(raises_not_square)s\n%(raises_no_convergence)s",
     raises_svd="%(raises_not_float)s\nLinAlgError\n    If the decomposition does not converge, or "
                "a matrix holds an infinity or a NaN.",
     raises_non_finite="LinAlgError\n    If a matrix holds an infinity or a NaN.",
     hermitian_parameters=sections([
         "x : Array\n"
         "    Shape ``(..., M, M)``, floating point, symmetric or Hermitian: only the lower\n"
         "    triangle of each matrix is read."]))

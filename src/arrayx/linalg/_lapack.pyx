"""LU factorisations and the solves and inverses built on them, in LAPACK without the GIL.

LAPACK comes from SciPy's ``cython_lapack``, the same library as ``matmul``'s BLAS
(``cython_blas``). LAPACK is column-major and arrayx row-major, so a C-contiguous matrix is
LAPACK's transpose: its LU factors are those of ``A.T``, which has the determinant of ``A``;
``solve`` asks ``getrs`` for the transposed system, and ``inv`` solves ``A.T X = I`` in
LAPACK's order, which is ``X = inv(A)`` in arrayx's. Every call works on a fresh C-contiguous
copy, since LAPACK overwrites its operands.
"""
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from scipy.linalg.cython_lapack cimport (
    cgetrf, cgetrs, dgetrf, dgetrs, sgetrf, sgetrs, zgetrf, zgetrs,
)

from arrayx._array cimport Array, code_of, contiguous_copy, new_array
from arrayx._core.layout cimport MAXDIM, Layout, contiguous
from arrayx._engine cimport ITEMSIZE

from arrayx.linalg._bridge import LinAlgError

__all__ = ["inv", "lu_factor", "solve"]

cdef enum:
    FLOAT32 = 9
    FLOAT64 = 10
    COMPLEX64 = 11
    COMPLEX128 = 12

cdef int64_t INT_MAX = 2147483647


cdef int getrf(int code, int n, char* a, int* ipiv) noexcept nogil:
    """LU of the n x n column-major ``a`` in place; LAPACK's ``info``."""
    cdef int info = 0
    cdef int lda = n if n > 1 else 1
    if code == FLOAT32:
        sgetrf(&n, &n, <float*>a, &lda, ipiv, &info)
    elif code == FLOAT64:
        dgetrf(&n, &n, <double*>a, &lda, ipiv, &info)
    elif code == COMPLEX64:
        cgetrf(&n, &n, <float complex*>a, &lda, ipiv, &info)
    else:
        zgetrf(&n, &n, <double complex*>a, &lda, ipiv, &info)
    return info


cdef void getrs(int code, char trans, int n, int nrhs, char* lu, int* ipiv,
                char* b) noexcept nogil:
    """Solve with ``getrf``'s factors for the ``nrhs`` column-major columns of ``b``."""
    cdef int info = 0
    cdef int ld = n if n > 1 else 1
    if code == FLOAT32:
        sgetrs(&trans, &n, &nrhs, <float*>lu, &ld, ipiv, <float*>b, &ld, &info)
    elif code == FLOAT64:
        dgetrs(&trans, &n, &nrhs, <double*>lu, &ld, ipiv, <double*>b, &ld, &info)
    elif code == COMPLEX64:
        cgetrs(&trans, &n, &nrhs, <float complex*>lu, &ld, ipiv, <float complex*>b, &ld,
               &info)
    else:
        zgetrs(&trans, &n, &nrhs, <double complex*>lu, &ld, ipiv, <double complex*>b, &ld,
               &info)


cdef void put_one(int code, char* p, bint negative) noexcept nogil:
    """Write 1 (or -1) of dtype ``code`` at ``p``."""
    cdef double v = -1.0 if negative else 1.0
    if code == FLOAT32 or code == COMPLEX64:
        (<float*>p)[0] = <float>v
        if code == COMPLEX64:
            (<float*>p)[1] = 0
    else:
        (<double*>p)[0] = v
        if code == COMPLEX128:
            (<double*>p)[1] = 0


cdef int square_side(Array x, str name) except -1:
    """The side of ``x``'s square matrices, checked to fit LAPACK's int and a float dtype."""
    cdef int nd = x._layout.ndim
    if nd < 2 or x._layout.shape_[nd - 1] != x._layout.shape_[nd - 2]:
        raise ValueError(f"{name} needs square matrices, got shape {x.shape}")
    if x._layout.shape_[nd - 1] > INT_MAX:
        raise ValueError(f"{name}: matrices of side {x._layout.shape_[nd - 1]} are beyond "
                         f"LAPACK's int")
    if not FLOAT32 <= x._code <= COMPLEX128:
        raise TypeError(f"{name} needs a floating-point array, got {x.dtype}")
    return <int>x._layout.shape_[nd - 1]


cdef int* new_pivots(int n) except NULL:
    cdef int* ipiv = <int*>malloc((n if n > 0 else 1) * sizeof(int))
    if ipiv == NULL:
        raise MemoryError()
    return ipiv


def lu_factor(Array x) -> tuple:
    """The LU factors of each square matrix of ``x``, for determinants.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``, floating point.

    Returns
    -------
    tuple of Array
        ``(lu, parity)``: ``lu``, C-contiguous of ``x``'s shape and dtype, holds the factors of
        each matrix's transpose (``U`` on the diagonal, as for the matrix itself), and
        ``parity``, of shape ``x.shape[:-2]`` and ``x``'s dtype, the sign (1 or -1) of each
        row permutation. ``det(x) = parity * prod(diagonal(lu))``; a singular matrix has a 0
        on its diagonal.
    """
    cdef int n = square_side(x, "det")
    cdef int code = x._code
    cdef Array lu = contiguous_copy(x, code)
    cdef Layout L = lu._layout
    cdef Layout P = contiguous(L.ndim - 2, L.shape_)
    cdef Array parity = new_array(P, code, x._storage.device)
    cdef int64_t batches = P.size, u, step = <int64_t>n * n * ITEMSIZE[code]
    cdef int isz = ITEMSIZE[code]
    cdef char* a = lu.ptr()
    cdef char* s = parity.ptr()
    cdef int* ipiv = new_pivots(n)
    cdef int i
    cdef bint negative
    with nogil:
        for u in range(batches):
            getrf(code, n, a + u * step, ipiv)
            negative = False
            for i in range(n):
                if ipiv[i] != i + 1:
                    negative = not negative
            put_one(code, s + u * isz, negative)
    free(ipiv)
    return lu, parity


cdef void identity(int code, int n, char* b) noexcept nogil:
    cdef int isz = ITEMSIZE[code]
    cdef int i
    memset(b, 0, <size_t>n * n * isz)
    for i in range(n):
        put_one(code, b + (<int64_t>i * n + i) * isz, False)


cdef Array _solve(Array a, Array bt, int code, int n, int nrhs, char trans, bint eye,
                  str name):
    """Factor each matrix of ``a`` (a fresh copy) and solve for the columns of each matrix of
    ``bt`` (C-contiguous, ``nrhs`` rows of ``n``: column-major right-hand sides), in place;
    with ``eye`` each ``bt`` is set to the identity first. LinAlgError if one is singular."""
    cdef int64_t batches = a._layout.size // (<int64_t>n * n) if n else 0
    cdef int64_t astep = <int64_t>n * n * ITEMSIZE[code]
    cdef int64_t bstep = <int64_t>n * nrhs * ITEMSIZE[code]
    cdef char* pa = a.ptr()
    cdef char* pb = bt.ptr()
    cdef int* ipiv = new_pivots(n)
    cdef int64_t u, bad = -1
    with nogil:
        for u in range(batches):
            if getrf(code, n, pa + u * astep, ipiv) > 0:
                bad = u
                break
            if eye:
                identity(code, n, pb + u * bstep)
            if nrhs:
                getrs(code, trans, n, nrhs, pa + u * astep, ipiv, pb + u * bstep)
    free(ipiv)
    if bad >= 0:
        raise LinAlgError(f"{name}: the matrix is singular" if batches == 1 else
                          f"{name}: matrix {bad} of the stack is singular")
    return bt


def solve(Array x1, Array x2, dtype) -> Array:
    """``X`` with ``x1 @ X = x2`` for each pair of matrices.

    Parameters
    ----------
    x1 : Array
        Shape ``(..., n, n)``, floating point.
    x2 : Array
        Shape ``(..., n, k)`` with the same batch shape as ``x1``.
    dtype : dtype
        The floating dtype both are computed in.

    Returns
    -------
    Array
        Shape ``(..., n, k)`` of ``dtype`` (the transpose of a C-contiguous array).

    Raises
    ------
    LinAlgError
        If a matrix of ``x1`` is singular.
    """
    cdef int code = code_of(dtype)
    cdef int n = square_side(x1, "solve")
    cdef int64_t k = x2._layout.shape_[x2._layout.ndim - 1]
    if k > INT_MAX:
        raise ValueError(f"solve: {k} right-hand sides are beyond LAPACK's int")
    cdef Array a = contiguous_copy(x1, code)
    # The right-hand sides column-major: the rows of a C-contiguous copy of x2.mT.
    cdef Array bt = contiguous_copy(<Array>x2.mT, code)
    _solve(a, bt, code, n, <int>k, b"T", False, "solve")
    return bt.mT


def inv(Array x) -> Array:
    """The inverse of each square matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``, floating point.

    Returns
    -------
    Array
        C-contiguous, ``x``'s shape and dtype.

    Raises
    ------
    LinAlgError
        If a matrix is singular.
    """
    cdef int n = square_side(x, "inv")
    cdef int code = x._code
    cdef Array a = contiguous_copy(x, code)
    cdef Array out = new_array(contiguous(a._layout.ndim, a._layout.shape_), code,
                               x._storage.device)
    # getrs solves with LAPACK's view of the memory, A.T: A.T X = I in column-major order is
    # X = inv(A) in row-major order.
    return _solve(a, out, code, n, n, b"N", True, "inv")

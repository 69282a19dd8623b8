"""LAPACK factorisations without the GIL: LU (with the solves and inverses built on it),
Cholesky, the Hermitian eigenproblem and the SVD.

LAPACK is the CPU backend's (``arrayx._kernels.cpu.backend``, reached through the engine): the
OpenBLAS NumPy itself calls, the library of ``matmul``'s BLAS. LAPACK is column-major and arrayx row-major, so a C-contiguous matrix is
LAPACK's transpose, and each routine is asked for what the transpose gives directly:

- LU: the factors of ``A.T``, which has the determinant of ``A``; ``solve`` asks ``getrs``
  for the transposed system, and ``inv`` solves ``A.T X = I`` in LAPACK's order, which is
  ``X = inv(A)`` in arrayx's.
- Cholesky and ``eigh`` of a Hermitian ``A``: LAPACK sees ``A.T = conj(A)``. Its upper
  triangle is ``A``'s lower one; the upper Cholesky factor of ``conj(A)``, read row-major, is
  ``A``'s lower factor (and the other way round); the eigenvectors of ``conj(A)`` are the
  conjugates of ``A``'s, and come out as rows.
- QR and ``eig`` need ``A`` itself, so they work on a C-contiguous copy of ``A.mT`` (``A``
  column-major); ``Q`` and complex eigenvectors come back as the transpose of a C-contiguous
  array, and real ``geev``'s packed conjugate pairs are unpacked into complex vectors.
- SVD: ``A.T = U' S V'^H`` gives ``A = conj(V') S U'^T``: LAPACK's ``VT`` read row-major is
  ``U`` and its ``U`` read row-major is ``Vh``, with no copy.

Every call works on a fresh C-contiguous copy, since LAPACK overwrites its operands, and
loops over the stack without the GIL.
"""
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from arrayx._array cimport Array, code_of, contiguous_copy, new_array
from arrayx._core.layout cimport MAXDIM, Layout, contiguous
from arrayx._engine cimport (
    ITEMSIZE, blas_int, evd, geev, geqrf, gesdd, getrf, getrs, load_blas, orgqr, potrf,
)
from arrayx._kernels.dtype_codes cimport DT_COMPLEX128, DT_COMPLEX64, DT_FLOAT32, DT_FLOAT64

from arrayx._manipulation import matrix_transpose
from arrayx.linalg._bridge import LinAlgError

__all__ = ["cholesky", "eig", "eigh", "inv", "lu_factor", "qr", "solve", "svd"]

cdef int64_t INT_MAX = 2147483647
load_blas()


cdef void put_one(int code, char* p, bint negative) noexcept nogil:
    """Write 1 (or -1) of dtype ``code`` at ``p``."""
    cdef double v = -1.0 if negative else 1.0
    if code == DT_FLOAT32 or code == DT_COMPLEX64:
        (<float*>p)[0] = <float>v
        if code == DT_COMPLEX64:
            (<float*>p)[1] = 0
    else:
        (<double*>p)[0] = v
        if code == DT_COMPLEX128:
            (<double*>p)[1] = 0


cdef int square_side(Array x, str name) except -1:
    """The side of ``x``'s square matrices, checked to fit LAPACK's int and a float dtype."""
    cdef int nd = x._layout.ndim
    if nd < 2 or x._layout.shape_[nd - 1] != x._layout.shape_[nd - 2]:
        raise ValueError(f"{name} needs square matrices, got shape {x.shape}")
    if x._layout.shape_[nd - 1] > INT_MAX:
        raise ValueError(f"{name}: matrices of side {x._layout.shape_[nd - 1]} are beyond "
                         f"LAPACK's int")
    if not DT_FLOAT32 <= x._code <= DT_COMPLEX128:
        raise TypeError(f"{name} needs a floating-point array, got {x.dtype}")
    return <int>x._layout.shape_[nd - 1]


cdef int matrix_dims(Array x, str name, int* m, int* n) except -1:
    """The rows and columns of ``x``'s (non-empty) matrices into ``m`` and ``n``, checked to fit
    LAPACK's int (the whole matrix too) and a float dtype."""
    cdef int nd = x._layout.ndim
    if nd < 2:
        raise ValueError(f"{name} needs a stack of matrices, got shape {x.shape}")
    cdef int64_t m64 = x._layout.shape_[nd - 2], n64 = x._layout.shape_[nd - 1]
    if m64 < 1 or n64 < 1 or m64 > INT_MAX or n64 > INT_MAX or m64 * n64 > INT_MAX:
        raise ValueError(f"{name}: matrices of shape ({m64}, {n64}) are beyond this path")
    if not DT_FLOAT32 <= x._code <= DT_COMPLEX128:
        raise TypeError(f"{name} needs a floating-point array, got {x.dtype}")
    m[0] = <int>m64
    n[0] = <int>n64
    return 0


cdef char* work_alloc(int64_t count, int size) except NULL:
    cdef char* p = <char*>malloc(<size_t>(count if count > 0 else 1) * size)
    if p == NULL:
        raise MemoryError()
    return p


cdef int converged(int64_t bad, str what) except -1:
    """LinAlgError unless ``bad``, the first matrix whose ``what`` did not converge, is -1."""
    if bad >= 0:
        raise LinAlgError(f"{what} did not converge")
    return 0


cdef void release(void* a, void* b, void* c=NULL, void* d=NULL, void* e=NULL) noexcept nogil:
    """Free the workspaces ``a`` ... ``e`` (NULL ones are skipped, as ``free`` skips them)."""
    free(a)
    free(b)
    free(c)
    free(d)
    free(e)


cdef blas_int* new_pivots(int n) except NULL:
    return <blas_int*>work_alloc(n, sizeof(blas_int))


def lu_factor(Array x, str name) -> tuple:
    """The LU factors of each square matrix of ``x``, for determinants.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``, floating point.
    name : str
        The calling function, for error messages.

    Returns
    -------
    tuple of Array
        ``(lu, parity)``: ``lu``, C-contiguous of ``x``'s shape and dtype, holds the factors of
        each matrix's transpose (``U`` on the diagonal, as for the matrix itself), and
        ``parity``, of shape ``x.shape[:-2]`` and ``x``'s dtype, the sign (1 or -1) of each
        row permutation. ``det(x) = parity * prod(diagonal(lu))``; a singular matrix has a 0
        on its diagonal.
    """
    cdef int n = square_side(x, name)
    cdef int code = x._code
    cdef Array lu = contiguous_copy(x, code)
    cdef Layout L = lu._layout
    cdef Layout P = contiguous(L.ndim - 2, L.shape_)
    cdef Array parity = new_array(P, code, x._storage.device)
    cdef int64_t batches = P.size, u, step = <int64_t>n * n * ITEMSIZE[code]
    cdef int isz = ITEMSIZE[code]
    cdef char* a = lu.ptr()
    cdef char* s = parity.ptr()
    cdef blas_int* ipiv = new_pivots(n)
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
    cdef blas_int* ipiv = new_pivots(n)
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


def cholesky(Array x, bint upper) -> Array:
    """The Cholesky factor of each Hermitian positive-definite matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``, floating point; the lower triangle is read (the upper one for
        ``upper``), as NumPy reads it.
    upper : bool
        Return ``U`` with ``x = U^H U`` instead of ``L`` with ``x = L L^H``.

    Returns
    -------
    Array
        C-contiguous, ``x``'s shape and dtype, zero outside the factor's triangle.

    Raises
    ------
    LinAlgError
        If a matrix is not positive definite.
    """
    cdef int n = square_side(x, "cholesky")
    cdef int code = x._code
    cdef Array a = contiguous_copy(x, code)
    cdef int isz = ITEMSIZE[code]
    cdef int64_t batches = a._layout.size // (<int64_t>n * n) if n else 0
    cdef int64_t step = <int64_t>n * n * isz, u, bad = -1
    cdef char* p = a.ptr()
    cdef char* m
    cdef int i
    # LAPACK's upper triangle of conj(A) read row-major is A's lower factor (see above).
    cdef char uplo = b"L" if upper else b"U"
    with nogil:
        for u in range(batches):
            m = p + u * step
            if potrf(code, uplo, n, m) > 0:
                bad = u
                break
            # Zero what LAPACK left of the input: row-major, above (or below) the diagonal.
            for i in range(n):
                if upper:
                    memset(m + <int64_t>i * n * isz, 0, <size_t>i * isz)
                else:
                    memset(m + (<int64_t>i * n + i + 1) * isz, 0, <size_t>(n - i - 1) * isz)
    if bad >= 0:
        raise LinAlgError("cholesky: the matrix is not positive definite" if batches == 1
                          else f"cholesky: matrix {bad} of the stack is not positive definite")
    return a


cdef inline int real_code(int code) noexcept nogil:
    return DT_FLOAT32 if code == DT_FLOAT32 or code == DT_COMPLEX64 else DT_FLOAT64


cdef int64_t work_size(int code, const char* p) noexcept nogil:
    """A workspace size LAPACK wrote as a (real part of a) float of ``code``'s precision."""
    if real_code(code) == DT_FLOAT32:
        return <int64_t>(<const float*>p)[0] + 1
    return <int64_t>(<const double*>p)[0] + 1


def eigh(Array x, bint vectors) -> tuple:
    """Eigenvalues (ascending) and eigenvectors of each Hermitian matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``, floating point; only the lower triangle is read.
    vectors : bool
        Compute the eigenvectors too.

    Returns
    -------
    tuple
        ``(w, rows)``: ``w`` of shape ``(..., n)`` and the real dtype of ``x``'s precision;
        ``rows`` (None without ``vectors``) of ``x``'s shape and dtype, holding in row ``k``
        the conjugate of the eigenvector of ``w[..., k]``: the eigenvectors are
        ``conj(rows).mT``.

    Raises
    ------
    LinAlgError
        If the computation does not converge.
    """
    cdef int n = square_side(x, "eigh")
    cdef int code = x._code, rcode = real_code(code)
    cdef Array a = contiguous_copy(x, code)
    cdef Layout L = a._layout
    cdef Array w = new_array(contiguous(L.ndim - 1, L.shape_), rcode, x._storage.device)
    cdef int64_t batches = L.size // (<int64_t>n * n) if n else 0
    cdef int64_t step = <int64_t>n * n * ITEMSIZE[code], wstep = <int64_t>n * ITEMSIZE[rcode]
    cdef int64_t u, bad = -1
    cdef char jobz = b"V" if vectors else b"N"
    cdef char* pa = a.ptr()
    cdef char* pw = w.ptr()
    cdef char q_work[16]
    cdef char q_rwork[8]
    cdef blas_int q_iwork = 0
    cdef blas_int lwork, lrwork, liwork
    cdef char* work = NULL
    cdef char* rwork = NULL
    cdef blas_int* iwork = NULL
    if batches:
        evd(code, jobz, n, pa, pw, q_work, -1, q_rwork, -1, &q_iwork, -1)
        lwork = <int>work_size(code, q_work)
        lrwork = <int>work_size(code, q_rwork) if code >= DT_COMPLEX64 else 1
        liwork = q_iwork if q_iwork > 0 else 1
        try:
            work = work_alloc(lwork, ITEMSIZE[code])
            rwork = work_alloc(lrwork, ITEMSIZE[rcode])
            iwork = <blas_int*>work_alloc(liwork, sizeof(blas_int))
            with nogil:
                for u in range(batches):
                    if evd(code, jobz, n, pa + u * step, pw + u * wstep, work, lwork, rwork,
                           lrwork, iwork, liwork) > 0:
                        bad = u
                        break
        finally:
            release(work, rwork, iwork)
    converged(bad, "eigh: the eigenvalue computation")
    return w, (a if vectors else None)


def svd(Array x, bint vectors, bint full) -> tuple:
    """The singular value decomposition of each matrix of ``x`` (no empty matrices).

    Parameters
    ----------
    x : Array
        Shape ``(..., M, N)`` with ``M, N >= 1``, floating point.
    vectors : bool
        Compute ``U`` and ``Vh`` too.
    full : bool
        ``U`` ``(..., M, M)`` and ``Vh`` ``(..., N, N)`` rather than ``(..., M, K)`` and
        ``(..., K, N)``, ``K = min(M, N)``.

    Returns
    -------
    tuple
        ``(U, S, Vh)`` (``U`` and ``Vh`` None without ``vectors``); ``S`` descending, of the
        real dtype of ``x``'s precision.

    Raises
    ------
    LinAlgError
        If the computation does not converge.
    """
    cdef int m, n
    matrix_dims(x, "svd", &m, &n)
    cdef int nd = x._layout.ndim, k = m if m < n else n
    cdef int64_t mn = <int64_t>m * n
    cdef int code = x._code, rcode = real_code(code), isz = ITEMSIZE[code]
    # LAPACK factors A itself, copied column-major (each matrix of A.mT row-major), as NumPy
    # hands it to the same gesdd: the singular vectors then have NumPy's signs. U and Vh come
    # back column-major too, and are returned as transposed views of their buffers.
    cdef Array a = contiguous_copy(matrix_transpose(x), code)
    cdef Layout L = a._layout
    cdef int64_t batches = L.size // mn
    cdef int64_t shape[MAXDIM]
    cdef int i
    for i in range(nd - 2):
        shape[i] = L.shape_[i]
    shape[nd - 2] = k
    cdef Array s = new_array(contiguous(nd - 1, shape), rcode, x._storage.device)
    cdef Array uu = None, vh = None
    cdef int cols_u = m if full else k, rows_vh = n if full else k
    cdef char jobz = (b"A" if full else b"S") if vectors else b"N"
    cdef char* pu = NULL
    cdef char* pvh = NULL
    if vectors:
        shape[nd - 2], shape[nd - 1] = cols_u, m
        uu = new_array(contiguous(nd, shape), code, x._storage.device)
        shape[nd - 2], shape[nd - 1] = n, rows_vh
        vh = new_array(contiguous(nd, shape), code, x._storage.device)
        pu, pvh = uu.ptr(), vh.ptr()
    cdef int64_t ustep = <int64_t>m * cols_u * isz if vectors else 0
    cdef int64_t vstep = <int64_t>rows_vh * n * isz if vectors else 0
    cdef int64_t astep = mn * isz, sstep = <int64_t>k * ITEMSIZE[rcode], b, bad = -1
    cdef char q_work[16]
    cdef int64_t mx = m if m > n else n
    cdef int64_t lrwork = (7 * k if not vectors else
                           max(5 * <int64_t>k * k + 5 * k, 2 * mx * k + 2 * <int64_t>k * k + k))
    cdef char* pa = a.ptr()
    cdef char* ps = s.ptr()
    cdef char* work = NULL
    cdef char* rwork = NULL
    cdef blas_int* iwork = NULL
    cdef int lwork
    try:
        iwork = <blas_int*>work_alloc(8 * <int64_t>k, sizeof(blas_int))
        rwork = work_alloc(lrwork if code >= DT_COMPLEX64 else 1, ITEMSIZE[rcode])
        gesdd(code, jobz, m, n, pa, ps, pu, m, pvh, rows_vh, q_work, -1, rwork, iwork)
        lwork = <int>work_size(code, q_work)
        work = work_alloc(lwork, isz)
        with nogil:
            for b in range(batches):
                if gesdd(code, jobz, m, n, pa + b * astep, ps + b * sstep,
                         pu + b * ustep if vectors else NULL, m,
                         pvh + b * vstep if vectors else NULL, rows_vh, work, lwork, rwork,
                         iwork) != 0:
                    bad = b
                    break
    finally:
        release(work, rwork, iwork)
    converged(bad, "svd: the decomposition")
    if not vectors:
        return None, s, None
    return matrix_transpose(uu), s, matrix_transpose(vh)


def qr(Array x, bint complete) -> tuple:
    """The QR factorisation of each matrix of ``x`` (no empty matrices).

    Parameters
    ----------
    x : Array
        Shape ``(..., M, N)`` with ``M, N >= 1``, floating point.
    complete : bool
        ``Q`` ``(..., M, M)`` and ``R`` ``(..., M, N)`` rather than ``(..., M, K)`` and
        ``(..., K, N)``, ``K = min(M, N)``.

    Returns
    -------
    tuple of Array
        ``(Q, R)``: ``Q`` the transpose of a C-contiguous array, ``R`` C-contiguous and zero
        below its diagonal; both of ``x``'s dtype.
    """
    cdef int m, n
    matrix_dims(x, "qr", &m, &n)
    cdef int nd = x._layout.ndim, k = m if m < n else n
    cdef int64_t mn = <int64_t>m * n
    cdef int rows_r = m if complete else k, cols_q = m if complete else k
    cdef int code = x._code, isz = ITEMSIZE[code]
    # A column-major: the rows of a C-contiguous copy of x.mT.
    cdef Array at = contiguous_copy(<Array>x.mT, code)
    cdef int64_t batches = at._layout.size // mn
    cdef int64_t shape[MAXDIM]
    cdef int i, j
    for i in range(nd - 2):
        shape[i] = at._layout.shape_[i]
    shape[nd - 2], shape[nd - 1] = rows_r, n
    cdef Array r = new_array(contiguous(nd, shape), code, x._storage.device, True)
    # Q's columns, column-major: in place in ``at`` unless the complete Q is wider than A.
    cdef bint wider = cols_q > n
    cdef Array qt = at
    if wider:
        shape[nd - 2], shape[nd - 1] = cols_q, m
        qt = new_array(contiguous(nd, shape), code, x._storage.device)
    cdef int64_t astep = mn * isz, rstep = <int64_t>rows_r * n * isz
    cdef int64_t qstep = <int64_t>cols_q * m * isz if wider else astep, b
    cdef char q_work[16]
    cdef char* pa = at.ptr()
    cdef char* pr = r.ptr()
    cdef char* pq = qt.ptr()
    cdef char* tau = NULL
    cdef char* work = NULL
    cdef char* fa
    cdef int lwork
    try:
        tau = work_alloc(k, isz)
        geqrf(code, m, n, pa, tau, q_work, -1)
        lwork = <int>work_size(code, q_work)
        orgqr(code, m, cols_q, k, pq, tau, q_work, -1)
        lwork = max(lwork, <int>work_size(code, q_work))
        work = work_alloc(lwork, isz)
        with nogil:
            for b in range(batches):
                fa = pa + b * astep
                geqrf(code, m, n, fa, tau, work, lwork)
                # R: the upper triangle of the factored A (column j is row j of ``at``).
                for j in range(n):
                    for i in range(min(j + 1, rows_r)):
                        memcpy(pr + b * rstep + (<int64_t>i * n + j) * isz,
                               fa + (<int64_t>j * m + i) * isz, isz)
                if wider:
                    memcpy(pq + b * qstep, fa, <size_t>astep)
                orgqr(code, m, cols_q, k, pq + b * qstep, tau, work, lwork)
    finally:
        release(tau, work)
    if not wider and cols_q < n:
        qt = qt[..., :cols_q, :]
    return qt.mT, r


cdef inline double get_real(int code, const char* p, int64_t i) noexcept nogil:
    if code == DT_FLOAT32:
        return (<const float*>p)[i]
    return (<const double*>p)[i]


cdef inline void put_complex(int ccode, char* p, int64_t i, double re, double im) noexcept nogil:
    if ccode == DT_COMPLEX64:
        (<float*>p)[2 * i] = <float>re
        (<float*>p)[2 * i + 1] = <float>im
    else:
        (<double*>p)[2 * i] = re
        (<double*>p)[2 * i + 1] = im


cdef void unpack_real(int code, int ccode, int n, const char* wr, const char* wi,
                      const char* vr, char* w, char* v) noexcept nogil:
    """Real ``geev`` output as complex: eigenvalues ``wr + i wi`` into ``w``; eigenvectors
    (``vr`` column-major, a conjugate pair as the real and imaginary parts in two adjacent
    columns) into the row-major ``v`` (None when ``v`` is NULL)."""
    cdef int64_t r, j = 0
    cdef double re, im
    for r in range(n):
        put_complex(ccode, w, r, get_real(code, wr, r), get_real(code, wi, r))
    if v == NULL:
        return
    while j < n:
        if get_real(code, wi, j) == 0 or j + 1 == n:
            for r in range(n):
                put_complex(ccode, v, r * n + j, get_real(code, vr, j * n + r), 0)
            j += 1
        else:
            for r in range(n):
                re = get_real(code, vr, j * n + r)
                im = get_real(code, vr, (j + 1) * n + r)
                put_complex(ccode, v, r * n + j, re, im)
                put_complex(ccode, v, r * n + j + 1, re, -im)
            j += 2


def eig(Array x, bint vectors) -> tuple:
    """Eigenvalues and, if ``vectors``, right eigenvectors of each square matrix of ``x``
    (``(..., n, n)``, floating point).

    Returns
    -------
    tuple
        ``(w, v)``: ``w`` of shape ``(..., n)`` and ``v`` (None without ``vectors``) of
        ``x``'s shape, eigenvectors in its columns, both complex of ``x``'s precision.

    Raises
    ------
    LinAlgError
        If the computation does not converge.
    """
    cdef int n = square_side(x, "eig")
    cdef int code = x._code
    cdef int ccode = DT_COMPLEX64 if real_code(code) == DT_FLOAT32 else DT_COMPLEX128
    cdef bint real = code < DT_COMPLEX64
    cdef Array at = contiguous_copy(<Array>x.mT, code)
    cdef Layout L = at._layout
    cdef Array w = new_array(contiguous(L.ndim - 1, L.shape_), ccode, x._storage.device)
    cdef Array v = new_array(contiguous(L.ndim, L.shape_), ccode, x._storage.device) \
        if vectors else None
    cdef int64_t batches = L.size // (<int64_t>n * n) if n else 0
    cdef int isz = ITEMSIZE[code], csz = ITEMSIZE[ccode]
    cdef int64_t step = <int64_t>n * n * isz, vstep = <int64_t>n * n * csz
    cdef int64_t wstep = <int64_t>n * csz, b, bad = -1
    cdef char jobvr = b"V" if vectors else b"N"
    cdef char* pa = at.ptr()
    cdef char* pw = w.ptr()
    cdef char* pv = v.ptr() if vectors else NULL
    cdef char q_work[16]
    cdef char* work = NULL
    cdef char* rwork = NULL
    cdef char* wr = NULL
    cdef char* wi = NULL
    cdef char* vr = NULL
    cdef int lwork
    if not batches:
        return w, v
    try:
        # Real input: eigenvalues and packed vectors in scratch, unpacked per matrix.
        wr = work_alloc(n if real else 1, isz)
        wi = work_alloc(n if real else 1, isz)
        vr = work_alloc(<int64_t>n * n if real and vectors else 1, isz)
        rwork = work_alloc(2 * <int64_t>n, ITEMSIZE[real_code(code)])
        geev(code, jobvr, n, pa, wr if real else pw, wi, vr if real else pv, q_work, -1,
             rwork)
        lwork = <int>work_size(code, q_work)
        work = work_alloc(lwork, isz)
        with nogil:
            for b in range(batches):
                if real:
                    if geev(code, jobvr, n, pa + b * step, wr, wi, vr, work, lwork, rwork) != 0:
                        bad = b
                        break
                    unpack_real(code, ccode, n, wr, wi, vr, pw + b * wstep,
                                pv + b * vstep if vectors else NULL)
                elif geev(code, jobvr, n, pa + b * step, pw + b * wstep, NULL,
                          pv + b * vstep if vectors else NULL, work, lwork, rwork) != 0:
                    bad = b
                    break
    finally:
        release(work, rwork, wr, wi, vr)
    converged(bad, "eig: the eigenvalue computation")
    # Complex geev wrote its vectors column-major.
    return w, (v.mT if vectors and not real else v)

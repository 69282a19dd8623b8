"""``matmul``: BLAS gemm for floating point, arrayx's blocked kernel for bool and integers.

A product of one row by one column (``vecdot``, a 1-D by 1-D ``matmul``) is a BLAS dot,
which reads strided vectors as they lie; gemm of a 1 x 1 result is many times slower.

Operands are never copied to change their memory order: a matrix whose rows or whose columns
are contiguous (``A`` or ``A.mT`` of a C-contiguous array) goes to gemm as is, with a transpose
flag. Only operands with no unit stride (or negative strides) are copied first. Batches are
broadcast and looped here, without the GIL.
"""
from cython.parallel cimport prange
from libc.stdint cimport int64_t

from arrayx._array cimport Array, contiguous_copy, new_array
from arrayx._core.layout cimport MAXDIM, Layout, contiguous
from arrayx._engine cimport ITEMSIZE, promote_codes
from arrayx._kernels.cpu.iterate cimport threads_now
from arrayx.linalg._blas cimport Lapack, blas_int, lapack

from arrayx import _dtypes

cdef extern from "ax_matmul.hpp" namespace "ax" nogil:
    ctypedef void (*matmul_fn)(const char* a, int64_t as0, int64_t as1, const char* b,
                               int64_t bs0, char* c, int64_t m, int64_t n, int64_t k)
    matmul_fn matmul_kernel(int code)
    ctypedef void (*mirror_fn)(char* c, int64_t n, bint from_lower)
    mirror_fn mirror_kernel(int code)

__all__ = ["matmul"]

cdef enum:
    FLOAT32 = 9
    FLOAT64 = 10
    COMPLEX64 = 11
    COMPLEX128 = 12

# Below this many multiply-adds per matrix a BLAS call costs more than the blocked kernel.
cdef int64_t BLAS_MIN_WORK = 4096
# Below this many multiply-adds in all the blocked kernel runs on one thread.
cdef int64_t PARALLEL_MIN_WORK = 1 << 20
cdef int64_t INT_MAX = 2147483647


cdef struct Mat:
    # One operand seen as a stack of (rows x cols) matrices.
    char* data
    int64_t rows, cols, s0, s1
    int nbatch
    int64_t bshape[MAXDIM]
    int64_t bstride[MAXDIM]   # in bytes


cdef void describe(Array x, bint vector_is_row, Mat* m) noexcept:
    """``x`` as a stack of matrices; a 1-D ``x`` is one row (``vector_is_row``) or column."""
    cdef Layout L = x._layout
    cdef int nd = L.ndim
    cdef int isz = ITEMSIZE[x._code]
    cdef int i
    m.data = x.ptr()
    if nd == 1:
        m.nbatch = 0
        if vector_is_row:
            m.rows, m.cols, m.s0, m.s1 = 1, L.shape_[0], 0, L.strides_[0]
        else:
            m.rows, m.cols, m.s0, m.s1 = L.shape_[0], 1, L.strides_[0], 0
        return
    m.nbatch = nd - 2
    m.rows, m.cols = L.shape_[nd - 2], L.shape_[nd - 1]
    m.s0, m.s1 = L.strides_[nd - 2], L.strides_[nd - 1]
    for i in range(nd - 2):
        m.bshape[i] = L.shape_[i]
        m.bstride[i] = L.strides_[i] * isz


cdef bint blas_order(Mat* m, char* trans, int* ld) noexcept:
    """Whether gemm can read ``m`` as it lies; sets its transpose flag and leading dimension.

    arrayx is row-major and gemm column-major, so a row-major matrix is passed as ``"N"`` of
    its transpose and a column-major one as ``"T"``.
    """
    cdef int64_t s0 = m.s0, s1 = m.s1
    if m.rows > INT_MAX or m.cols > INT_MAX:
        return False
    if m.rows <= 1 and m.cols <= 1:
        trans[0], ld[0] = b"N", 1
        return True
    if m.cols <= 1:
        s1 = 1
    if m.rows <= 1:
        s0 = m.cols if s1 == 1 else 1
    if s1 == 1 and s0 >= m.cols and s0 <= INT_MAX:
        trans[0], ld[0] = b"N", <int>s0
        return True
    if s0 == 1 and s1 >= m.rows and s1 <= INT_MAX:
        trans[0], ld[0] = b"T", <int>s1
        return True
    return False


cdef bint row_contiguous(Mat* m) noexcept:
    """Whether the blocked kernel can read ``m`` as its right operand (unit column stride)."""
    return m.cols <= 1 or m.s1 == 1


cdef int broadcast_batches(Mat* a, Mat* b, int64_t* shape, int64_t* sa,
                           int64_t* sb) except -1:
    """The broadcast batch shape of ``a`` and ``b`` and their byte strides over it."""
    cdef int nb = max(a.nbatch, b.nbatch)
    cdef int i, ia, ib
    cdef int64_t da, db
    for i in range(nb):
        ia = a.nbatch - nb + i
        ib = b.nbatch - nb + i
        da = a.bshape[ia] if ia >= 0 else 1
        db = b.bshape[ib] if ib >= 0 else 1
        if da != db and da != 1 and db != 1:
            raise ValueError("matmul: the batch dimensions do not broadcast")
        shape[i] = db if da == 1 else da
        sa[i] = a.bstride[ia] if ia >= 0 and da != 1 else 0
        sb[i] = b.bstride[ib] if ib >= 0 and db != 1 else 0
    return nb


cdef inline void batch_offsets(int64_t u, int nb, const int64_t* shape, const int64_t* sa,
                               const int64_t* sb, int64_t* oa, int64_t* ob) noexcept nogil:
    cdef int i
    cdef int64_t r
    oa[0] = 0
    ob[0] = 0
    for i in range(nb - 1, -1, -1):
        r = u % shape[i]
        u = u // shape[i]
        oa[0] += r * sa[i]
        ob[0] += r * sb[i]


cdef const Lapack* BLAS = lapack()
# 1 and 0 for alpha and beta: a complex one's first half is the real one of its precision.
cdef float complex ONE_SINGLE = 1
cdef double complex ONE_DOUBLE = 1
cdef double complex ZERO = 0


cdef inline const void* one(int code) noexcept nogil:
    return &ONE_SINGLE if code == FLOAT32 or code == COMPLEX64 else &ONE_DOUBLE


cdef void gemm(int code, char ta, char tb, blas_int m, blas_int n, blas_int k, char* a,
               blas_int lda, char* b, blas_int ldb, char* c) noexcept nogil:
    """Row-major ``c = a @ b`` as column-major ``c.T = b.T @ a.T``."""
    cdef blas_int ldc = n if n > 1 else 1
    BLAS.gemm[code - FLOAT32](&tb, &ta, &n, &m, &k, one(code), b, &ldb, a, &lda, &ZERO, c, &ldc)


cdef void dot(int code, blas_int k, char* a, blas_int inca, char* b, blas_int incb,
              char* c) noexcept nogil:
    """``c = sum(a[i] * b[i])`` over ``k`` elements with element increments (no conjugate)."""
    if code == FLOAT32:
        (<float*>c)[0] = BLAS.sdot(k, a, inca, b, incb)
    elif code == FLOAT64:
        (<double*>c)[0] = BLAS.ddot(k, a, inca, b, incb)
    else:
        BLAS.dotu_sub[code - COMPLEX64](k, a, inca, b, incb, c)


cdef void syrk(int code, char trans, blas_int n, blas_int k, char* a, blas_int lda,
               char* c) noexcept nogil:
    """One triangle of the symmetric ``a @ a.T`` (``trans`` "T": a is given as its column-major
    transpose) or ``a.T @ a`` ("N") into ``c`` (n x n): BLAS's upper triangle, which is the
    lower one of the row-major ``c``."""
    cdef char uplo = b"U"
    cdef blas_int ldc = n if n > 1 else 1
    BLAS.syrk[code - FLOAT32](&uplo, &trans, &n, &k, one(code), a, &lda, &ZERO, c, &ldc)

cdef bint _is_gram(Mat* ma, Mat* mb, int nb) noexcept:
    """Whether ``b`` is ``a`` transposed (the same memory with the strides swapped), so the
    product is symmetric: ``X @ X.mT`` or ``X.mT @ X``."""
    return (nb == 0 and ma.nbatch == 0 and mb.nbatch == 0 and ma.data == mb.data
            and ma.rows == mb.cols and ma.cols == mb.rows and ma.s0 == mb.s1
            and ma.s1 == mb.s0 and ma.rows > 1)


cdef Array _as_code(Array x, int code):
    return x if x._code == code else contiguous_copy(x, code)


cpdef Array matmul_arrays(Array x1, Array x2):
    """``x1 @ x2`` for two arrayx arrays (the standard's 1-D and broadcasting rules)."""
    if x1._layout.ndim == 0 or x2._layout.ndim == 0:
        raise ValueError(f"matmul needs operands with at least one dimension, got shapes "
                         f"{x1.shape} and {x2.shape}")
    if x1._storage.device != x2._storage.device:
        raise ValueError(f"matmul operands are on different devices: {x1.device} and "
                         f"{x2.device}")
    cdef int code = promote_codes(x1._code, x2._code)
    cdef Array a = _as_code(x1, code)
    cdef Array b = _as_code(x2, code)
    cdef Mat ma, mb
    describe(a, True, &ma)
    describe(b, False, &mb)
    if ma.cols != mb.rows:
        raise ValueError(f"matmul: shapes {x1.shape} and {x2.shape} do not align: the inner "
                         f"dimensions are {ma.cols} and {mb.rows}")
    cdef int64_t m = ma.rows, n = mb.cols, k = ma.cols
    cdef bint blas = code >= FLOAT32 and m * n * k >= BLAS_MIN_WORK and k <= INT_MAX \
        and n <= INT_MAX and m <= INT_MAX
    cdef char ta, tb
    cdef int lda = 1, ldb = 1
    # One row times one column: a dot product per batch, on the vectors as they lie.
    cdef bint as_dot = blas and m == 1 and n == 1 and 0 < ma.s1 <= INT_MAX \
        and 0 < mb.s0 <= INT_MAX
    if blas and not as_dot:
        if not blas_order(&ma, &ta, &lda):
            a = contiguous_copy(a, code)
            describe(a, True, &ma)
            blas_order(&ma, &ta, &lda)
        if not blas_order(&mb, &tb, &ldb):
            b = contiguous_copy(b, code)
            describe(b, False, &mb)
            blas_order(&mb, &tb, &ldb)
    elif not row_contiguous(&mb):
        b = contiguous_copy(b, code)
        describe(b, False, &mb)

    cdef int64_t bshape[MAXDIM]
    cdef int64_t sa[MAXDIM]
    cdef int64_t sb[MAXDIM]
    cdef int nb = broadcast_batches(&ma, &mb, bshape, sa, sb)
    cdef int64_t oshape[MAXDIM]
    cdef int nd = 0, i
    cdef int64_t batches = 1
    for i in range(nb):
        oshape[nd] = bshape[i]
        batches *= bshape[i]
        nd += 1
    if x1._layout.ndim > 1:
        oshape[nd] = m
        nd += 1
    if x2._layout.ndim > 1:
        oshape[nd] = n
        nd += 1
    cdef Layout L = contiguous(nd, oshape)
    cdef Array out = new_array(L, code, a._storage.device, not blas or k == 0)
    if L.size == 0 or k == 0:
        return out
    cdef char* c = out.ptr()
    cdef matmul_fn blocked = matmul_kernel(code)
    cdef mirror_fn mirror = mirror_kernel(code)
    cdef int isz = ITEMSIZE[code]
    # BLAS and the blocked kernel run without the GIL: other Python threads go on meanwhile.
    if as_dot:
        with nogil:
            _run_dot(code, <int>k, ma.data, <int>ma.s1, mb.data, <int>mb.s0, c, batches, nb,
                     bshape, sa, sb)
    elif blas and _is_gram(&ma, &mb, nb):
        # A Gram product: half the work in syrk, then the triangle mirrored (as NumPy does).
        # gemm's "N" for a means BLAS sees a's transpose, so it asks for A'^T A' ("T").
        with nogil:
            syrk(code, b"T" if ta == b"N" else b"N", <int>m, <int>k, ma.data, lda, c)
            mirror(c, m, True)
    elif blas:
        with nogil:
            _run_blas(code, ta, tb, <int>m, <int>n, <int>k, ma.data, lda, mb.data, ldb, c,
                      batches, nb, bshape, sa, sb)
    else:
        with nogil:
            _run_blocked(blocked, isz, &ma, &mb, c, m, n, k, batches, nb, bshape, sa, sb)
    return out


cdef void _run_dot(int code, int k, char* a, int inca, char* b, int incb, char* c,
                   int64_t batches, int nb, int64_t* shape, int64_t* sa,
                   int64_t* sb) noexcept nogil:
    cdef int64_t u, oa, ob
    cdef int isz = ITEMSIZE[code]
    for u in range(batches):
        batch_offsets(u, nb, shape, sa, sb, &oa, &ob)
        dot(code, k, a + oa, inca, b + ob, incb, c + u * isz)


cdef void _run_blas(int code, char ta, char tb, int m, int n, int k, char* a, int lda,
                    char* b, int ldb, char* c, int64_t batches, int nb, int64_t* shape,
                    int64_t* sa, int64_t* sb) noexcept nogil:
    cdef int64_t u, oa, ob
    cdef int64_t cstep = <int64_t>m * n * ITEMSIZE[code]
    for u in range(batches):
        batch_offsets(u, nb, shape, sa, sb, &oa, &ob)
        gemm(code, ta, tb, m, n, k, a + oa, lda, b + ob, ldb, c + u * cstep)


cdef void _run_blocked(matmul_fn fn, int isz, Mat* ma, Mat* mb, char* c, int64_t m,
                       int64_t n, int64_t k, int64_t batches, int nb, int64_t* shape,
                       int64_t* sa, int64_t* sb) noexcept nogil:
    """The blocked kernel over every batch, split in row chunks over threads when it pays."""
    cdef int64_t chunks = 1, rows_per = m, units, u
    cdef int threads = threads_now()
    cdef int64_t work = batches * m * n * k
    if threads > 1 and work >= PARALLEL_MIN_WORK and batches < threads:
        chunks = min(m, <int64_t>threads * 4)
        rows_per = (m + chunks - 1) // chunks
        chunks = (m + rows_per - 1) // rows_per
    units = batches * chunks
    if threads <= 1 or work < PARALLEL_MIN_WORK or units < 2:
        for u in range(units):
            _blocked_unit(fn, isz, ma, mb, c, m, n, k, nb, shape, sa, sb, u, chunks, rows_per)
    else:
        for u in prange(units, num_threads=threads, schedule="static"):
            _blocked_unit(fn, isz, ma, mb, c, m, n, k, nb, shape, sa, sb, u, chunks, rows_per)


cdef inline void _blocked_unit(matmul_fn fn, int isz, Mat* ma, Mat* mb, char* c, int64_t m,
                               int64_t n, int64_t k, int nb, int64_t* shape, int64_t* sa,
                               int64_t* sb, int64_t u, int64_t chunks,
                               int64_t rows_per) noexcept nogil:
    cdef int64_t bi = u // chunks
    cdef int64_t r0 = (u % chunks) * rows_per
    cdef int64_t r1 = min(m, r0 + rows_per)
    cdef int64_t oa, ob
    if r0 >= r1:
        return
    batch_offsets(bi, nb, shape, sa, sb, &oa, &ob)
    fn(ma.data + oa + r0 * ma.s0 * isz, ma.s0, ma.s1, mb.data + ob, mb.s0,
       c + (bi * m + r0) * n * isz, r1 - r0, n, k)


def matmul(x1, x2, /) -> Array:
    """The matrix product of ``x1`` and ``x2`` (the ``@`` operator).

    Parameters
    ----------
    x1 : Array
        Shape ``(..., M, K)``, or ``(K,)`` (a vector, promoted to one row then dropped).
    x2 : Array
        Shape ``(..., K, N)``, or ``(K,)`` (a vector, promoted to one column then dropped).

    Returns
    -------
    Array
        Shape ``broadcast(x1.shape[:-2], x2.shape[:-2]) + (M, N)`` without the dimensions of
        1-D operands; the promoted dtype.

    Raises
    ------
    ValueError
        For 0-d operands, mismatched inner dimensions or batch dimensions that do not
        broadcast.

    Examples
    --------
    >>> import arrayx as xp
    >>> a = xp.asarray([[1, 2], [3, 4]])
    >>> xp.matmul(a, a)
    Array([[ 7, 10],
           [15, 22]], dtype=int64)
    >>> xp.matmul(a, xp.asarray([1, 0]))
    Array([1, 3], dtype=int64)
    >>> xp.matmul(xp.ones((5, 2, 3)), xp.ones((3, 4))).shape
    (5, 2, 4)
    """
    if not isinstance(x1, Array) or not isinstance(x2, Array):
        raise TypeError(f"matmul expects two arrayx arrays, got {type(x1).__name__} and "
                        f"{type(x2).__name__}")
    return matmul_arrays(<Array>x1, <Array>x2)


def matmul_operator(x1, x2):
    """``x1 @ x2`` for the operator: NotImplemented unless both are arrayx arrays."""
    if not isinstance(x1, Array) or not isinstance(x2, Array):
        return NotImplemented
    return matmul_arrays(<Array>x1, <Array>x2)


def imatmul(Array x1, x2) -> Array:
    """``x1 @= x2``: the product written into ``x1`` (its shape and dtype must hold it)."""
    if not isinstance(x2, Array):
        return NotImplemented
    cdef Array res = matmul_arrays(x1, <Array>x2)
    if res.shape != x1.shape:
        raise ValueError(f"x1 @= x2 would change x1's shape from {x1.shape} to {res.shape}")
    if _dtypes.promote(res.dtype, x1.dtype) != x1.dtype:
        raise TypeError(f"x1 @= x2 would change x1's dtype from {x1.dtype} to {res.dtype}")
    x1[...] = res
    return x1

"""``matmul``: BLAS gemm for floating point, arrayx's blocked kernel for bool and integers.

A product of one row by one column (``vecdot``, a 1-D by 1-D ``matmul``) is a BLAS dot,
and a matrix by a vector (``X @ w``, ``X.mT @ r``, ``r @ X``) a BLAS gemv, both reading the
vectors at their strides; gemm of a 1 x 1 or n x 1 result is several times slower.

Operands are never copied to change their memory order: a matrix whose rows or whose columns
are contiguous (``A`` or ``A.mT`` of a C-contiguous array) goes to gemm as is, with a transpose
flag. Only operands with no unit stride (or negative strides) are copied first. This module
plans the product (operand layouts, broadcast batches, which of dot, gemv, syrk, gemm or the
blocked kernel); the engine runs it on the operands' device, without the GIL. A stack of
matrices times one matrix (``x @ W`` with ``x`` of shape ``(batch, m, k)``, or ``W`` broadcast
over the batch) is one product of the stack's rows when they lie one after another.
"""
from libc.stdint cimport int64_t

from arrayx._array cimport Array, contiguous_copy, new_array, wrap
from arrayx._core.layout cimport MAXDIM, Layout, contiguous
from arrayx._core.layout cimport reshape as layout_reshape
from arrayx._engine cimport (
    ITEMSIZE, MATMUL_BLOCKED, MATMUL_DOT, MATMUL_GEMM, MATMUL_GEMV, MATMUL_GRAM, Mat,
    MatmulPlan, promote_codes,
)
from arrayx._engine cimport device_matmul
from arrayx._engine cimport matmul as engine_matmul
from arrayx._kernels.dtype_codes cimport DT_FLOAT32

from arrayx import _dtypes
from arrayx._elementwise import multiply
from arrayx._manipulation import reshape

__all__ = ["matmul"]

# Below this many multiply-adds per matrix a BLAS call costs more than the blocked kernel.
cdef int64_t BLAS_MIN_WORK = 4096
cdef int64_t INT_MAX = 2147483647


cdef int describe(Array x, bint vector_is_row, Mat* m) except -1:
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
        return 0
    m.nbatch = nd - 2
    m.rows, m.cols = L.shape_[nd - 2], L.shape_[nd - 1]
    m.s0, m.s1 = L.strides_[nd - 2], L.strides_[nd - 1]
    for i in range(nd - 2):
        m.bshape[i] = L.shape_[i]
        m.bstride[i] = L.strides_[i] * isz
    return 0


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


cdef Array blas_matrix(Array x, int code, bint is_left, Mat* m, char* trans, int* ld):
    """``x``, or its C-contiguous copy where BLAS cannot read it as it lies; ``m``, ``trans``
    and ``ld`` describe what is returned."""
    if not blas_order(m, trans, ld):
        x = contiguous_copy(x, code)
        describe(x, is_left, m)
        blas_order(m, trans, ld)
    return x


cdef Array blas_vector(Array x, int code, bint is_left, Mat* m):
    """``x``, or its contiguous copy where gemv cannot step through it (a stride that is not
    positive or not an int); the left operand's vector is a row, the right one's a column."""
    if not 0 < (m.s1 if is_left else m.s0) <= INT_MAX:
        x = contiguous_copy(x, code)
        describe(x, is_left, m)
    return x


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
            raise ValueError(
                "matmul: operands could not be broadcast together: batch shapes "
                f"{tuple([a.bshape[k] for k in range(a.nbatch)])} and "
                f"{tuple([b.bshape[k] for k in range(b.nbatch)])}")
        shape[i] = db if da == 1 else da
        sa[i] = a.bstride[ia] if ia >= 0 and da != 1 else 0
        sb[i] = b.bstride[ib] if ib >= 0 and db != 1 else 0
    return nb


cdef bint _one_matrix(Layout A, Layout B) noexcept:
    """Whether ``B`` is one matrix (or vector) for every batch of ``A``: no batch axes, or
    only broadcast ones (size 1, or stride 0 over ``A``'s own batch axis)."""
    cdef int nb = B.ndim - 2, na = A.ndim - 2, i
    if nb <= 0:
        return True
    if nb > na:
        return False
    for i in range(nb):
        if B.shape_[i] != 1 and (B.strides_[i] != 0 or B.shape_[i] != A.shape_[na - nb + i]):
            return False
    return True


cdef bint _is_gram(Mat* ma, Mat* mb, int nb) noexcept:
    """Whether ``b`` is ``a`` transposed (the same memory with the strides swapped), so the
    product is symmetric: ``X @ X.mT`` or ``X.mT @ X``."""
    return (nb == 0 and ma.nbatch == 0 and mb.nbatch == 0 and ma.data == mb.data
            and ma.rows == mb.cols and ma.cols == mb.rows and ma.s0 == mb.s1
            and ma.s1 == mb.s0 and ma.rows > 1)


cdef Array _as_code(Array x, int code):
    return x if x._code == code else contiguous_copy(x, code)


def _product_shape(tuple sa, tuple sb) -> tuple:
    """The shape of ``a @ b`` for operands of shapes ``sa`` and ``sb`` (at least 1-D)."""
    cdef tuple a = sa if len(sa) > 1 else (1,) + sa
    cdef tuple b = sb if len(sb) > 1 else sb + (1,)
    cdef int na = len(a), nb = len(b)
    if a[na - 1] != b[nb - 2]:
        raise ValueError(f"matmul: shapes {sa} and {sb} do not align: the inner dimensions "
                         f"are {a[na - 1]} and {b[nb - 2]}")
    cdef int n = max(na, nb) - 2
    ba = (1,) * (n - na + 2) + a[:na - 2]
    bb = (1,) * (n - nb + 2) + b[:nb - 2]
    batch = []
    for i, j in zip(ba, bb):
        if i != j and 1 not in (i, j):
            raise ValueError(f"matmul: batch shapes of {sa} and {sb} do not broadcast")
        batch.append(j if i == 1 else i)
    return (tuple(batch) + ((a[na - 2],) if len(sa) > 1 else ())
            + ((b[nb - 1],) if len(sb) > 1 else ()))


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
    if not a._storage.host:
        found = device_matmul(a._storage, a._layout, b._storage, b._layout, code,
                              _product_shape(x1.shape, x2.shape))
        return wrap(found[0], found[1], code)
    cdef MatmulPlan p
    describe(a, True, &p.a)
    describe(b, False, &p.b)
    if p.a.cols != p.b.rows:
        raise ValueError(f"matmul: shapes {x1.shape} and {x2.shape} do not align: the inner "
                         f"dimensions are {p.a.cols} and {p.b.rows}")
    # Batch shapes that do not broadcast raise here, before either shortcut below.
    broadcast_batches(&p.a, &p.b, p.bshape, p.sa, p.sb)
    if p.a.cols == 1 and a._layout.ndim >= 2 and b._layout.ndim >= 2:
        # Inner dimension 1: outer products, one broadcast multiplication (the per-example
        # gradient of a weight matrix), not one small product per batch.
        return multiply(a, b)
    cdef int64_t tall[2]
    cdef Layout rows
    if (a._layout.ndim >= 3 and a._layout.size and b._layout.size
            and _one_matrix(a._layout, b._layout)):
        # A stack times one matrix: one product of the stack's rows (``x @ W`` with ``x`` of
        # shape (batch, m, k), or ``W`` broadcast over the batch), not one per batch, when
        # the rows read as one matrix without a copy.
        tall[0], tall[1] = a._layout.size // p.a.cols, p.a.cols
        rows = layout_reshape(a._layout, 2, tall)
        if rows is not None:
            one = b[(0,) * (b._layout.ndim - 2)] if b._layout.ndim > 2 else b
            return reshape(matmul_arrays(wrap(a._storage, rows, a._code, False), one),
                           a.shape[:-1] + one.shape[1:])
    cdef int64_t m = p.a.rows, n = p.b.cols, k = p.a.cols
    p.m, p.n, p.k = m, n, k
    p.lda, p.ldb = 1, 1
    cdef bint blas = code >= DT_FLOAT32 and m * n * k >= BLAS_MIN_WORK and k <= INT_MAX \
        and n <= INT_MAX and m <= INT_MAX
    # One row times one column: a dot product per batch, on the vectors as they lie.
    cdef bint as_dot = blas and m == 1 and n == 1 and 0 < p.a.s1 <= INT_MAX \
        and 0 < p.b.s0 <= INT_MAX
    # A matrix times a column, or a row times a matrix: gemv per batch, the vector read at its
    # stride (NumPy does the same; gemm of one column is several times slower).
    cdef bint as_gemv = blas and not as_dot and (n == 1 or m == 1)
    if as_gemv and n == 1:
        a = blas_matrix(a, code, True, &p.a, &p.ta, &p.lda)
        b = blas_vector(b, code, False, &p.b)
    elif as_gemv:
        b = blas_matrix(b, code, False, &p.b, &p.tb, &p.ldb)
        a = blas_vector(a, code, True, &p.a)
    elif blas and not as_dot:
        a = blas_matrix(a, code, True, &p.a, &p.ta, &p.lda)
        b = blas_matrix(b, code, False, &p.b, &p.tb, &p.ldb)
    elif not row_contiguous(&p.b):
        b = contiguous_copy(b, code)
        describe(b, False, &p.b)

    p.nb = broadcast_batches(&p.a, &p.b, p.bshape, p.sa, p.sb)
    cdef int64_t oshape[MAXDIM]
    cdef int nd = 0, i
    p.batches = 1
    for i in range(p.nb):
        oshape[nd] = p.bshape[i]
        p.batches *= p.bshape[i]
        nd += 1
    if x1._layout.ndim > 1:
        oshape[nd] = m
        nd += 1
    if x2._layout.ndim > 1:
        oshape[nd] = n
        nd += 1
    cdef Layout L = contiguous(nd, oshape)
    # gemv's output is zeroed first: a BLAS may compute beta * y with beta = 0 rather than
    # overwrite y, which would keep a NaN that uninitialised memory holds.
    cdef Array out = new_array(L, code, a._storage.device, not blas or k == 0 or as_gemv)
    if L.size == 0 or k == 0:
        return out
    if as_dot:
        p.how = MATMUL_DOT
    elif as_gemv:
        p.how = MATMUL_GEMV
    elif blas and _is_gram(&p.a, &p.b, p.nb):
        # A Gram product: half the work in syrk, then the triangle mirrored (as NumPy does).
        p.how = MATMUL_GRAM
    elif blas:
        p.how = MATMUL_GEMM
    else:
        p.how = MATMUL_BLOCKED
    engine_matmul(&p, code, out._storage)
    return out


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

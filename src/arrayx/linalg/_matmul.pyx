"""``matmul``: the standard's shape rules for ``@``; the engine runs the product.

This module checks the operands, promotes them to one dtype, works out the product's shape
(1-D operands, broadcast batches) and rewrites two cases as cheaper ones: an inner dimension of
1 is a broadcast multiplication (outer products), and a stack of matrices times one matrix
(``x @ W`` with ``x`` of shape ``(batch, m, k)``, or ``W`` broadcast over the batch) is one
product of the stack's rows when they lie one after another. The engine hands the rest to the
operands' device: on the CPU, the backend plans it (BLAS dot, gemv, syrk or gemm for floating
point, its blocked kernel for bool and integers; operands copied only where BLAS cannot read
them as they lie) and runs it without the GIL.
"""
from libc.stdint cimport int64_t

from arrayx._array cimport Array, contiguous_copy, wrap
from arrayx._core.layout cimport MAXDIM, Layout, contiguous
from arrayx._core.layout cimport reshape as layout_reshape
from arrayx._engine cimport matmul as engine_matmul
from arrayx._engine cimport promote_codes, same_device

from arrayx import _dtypes
from arrayx._elementwise import multiply
from arrayx._manipulation import reshape

__all__ = ["matmul"]


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


cdef Array _as_code(Array x, int code):
    return x if x._code == code else contiguous_copy(x, code)


cdef Layout _product_layout(Array x1, Array x2):
    """The C-contiguous layout of ``x1 @ x2`` (both at least 1-D): the broadcast batch shape,
    then the rows of a 2-D ``x1`` and the columns of a 2-D ``x2``."""
    cdef Layout A = x1._layout, B = x2._layout
    cdef int na = A.ndim, nb = B.ndim
    cdef int ba = na - 2 if na > 1 else 0, bb = nb - 2 if nb > 1 else 0
    cdef int n = max(ba, bb), nd, i, ia, ib
    cdef int64_t da, db
    cdef int64_t dims[MAXDIM]
    if A.shape_[na - 1] != B.shape_[nb - 2 if nb > 1 else 0]:
        raise ValueError(f"matmul: shapes {x1.shape} and {x2.shape} do not align: the inner "
                         f"dimensions are {A.shape_[na - 1]} and "
                         f"{B.shape_[nb - 2 if nb > 1 else 0]}")
    for i in range(n):
        ia, ib = ba - n + i, bb - n + i
        da = A.shape_[ia] if ia >= 0 else 1
        db = B.shape_[ib] if ib >= 0 else 1
        if da != db and da != 1 and db != 1:
            raise ValueError(f"matmul: operands could not be broadcast together: batch "
                             f"shapes {x1.shape[:ba]} and {x2.shape[:bb]}")
        dims[i] = db if da == 1 else da
    nd = n
    if na > 1:
        dims[nd] = A.shape_[na - 2]
        nd += 1
    if nb > 1:
        dims[nd] = B.shape_[nb - 1]
        nd += 1
    return contiguous(nd, dims)


cpdef Array matmul_arrays(Array x1, Array x2):
    """``x1 @ x2`` for two arrayx arrays (the standard's 1-D and broadcasting rules)."""
    if x1._layout.ndim == 0 or x2._layout.ndim == 0:
        raise ValueError(f"matmul needs operands with at least one dimension, got shapes "
                         f"{x1.shape} and {x2.shape}")
    same_device(x1._storage, x2._storage, "matmul")
    cdef Layout out = _product_layout(x1, x2)
    cdef int code = promote_codes(x1._code, x2._code)
    cdef Array a = _as_code(x1, code)
    cdef Array b = _as_code(x2, code)
    cdef int64_t k = x1._layout.shape_[x1._layout.ndim - 1]
    if k == 1 and a._layout.ndim >= 2 and b._layout.ndim >= 2:
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
        tall[0], tall[1] = a._layout.size // k, k
        rows = layout_reshape(a._layout, 2, tall)
        if rows is not None:
            one = b[(0,) * (b._layout.ndim - 2)] if b._layout.ndim > 2 else b
            return reshape(matmul_arrays(wrap(a._storage, rows, a._code, False), one),
                           a.shape[:a._layout.ndim - 1] + one.shape[1:])
    return wrap(engine_matmul(a._storage, a._layout, b._storage, b._layout, code, out), out,
                code)


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

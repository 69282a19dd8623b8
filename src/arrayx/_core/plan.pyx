"""Iteration planning: the order of an iteration's axes and the fewest dimensions it needs.

``coalesce`` reduces an iteration over several operands of one shape to the fewest dimensions,
for the CPU and CUDA kernels alike; ``sort_axes`` orders axes by stride, innermost first.
"""
from libc.stdint cimport int64_t
from libc.string cimport memcpy

from arrayx._core.layout cimport MAX_COALESCE_OPERANDS, MAXDIM


cdef inline int64_t _abs(int64_t v) noexcept nogil:
    return -v if v < 0 else v


cdef void sort_axes(int nop, int ndim, const int64_t* strides, int* perm) noexcept nogil:
    """The axes of an iteration ordered by stride, innermost first, into ``perm``.

    ``strides`` holds ``nop`` rows of ``ndim`` element strides. As NumPy's iterator
    (``npyiter_find_best_axis_ordering``), an insertion sort moves an axis inside another when
    every operand with a non-zero stride on both says it runs with the smaller stride; a
    stride of 0 says nothing, and where operands disagree C order stays.
    """
    cdef int i0, i1, ipos, j0, j1, k
    cdef int64_t s0, s1
    cdef bint ambiguous, swap
    for i0 in range(ndim):
        perm[i0] = ndim - 1 - i0
    for i0 in range(1, ndim):
        ipos = i0
        j0 = perm[i0]
        i1 = i0 - 1
        while i1 >= 0:
            ambiguous = True
            swap = False
            j1 = perm[i1]
            for k in range(nop):
                s0 = strides[k * ndim + j0]
                s1 = strides[k * ndim + j1]
                if s0 != 0 and s1 != 0:
                    if _abs(s1) <= _abs(s0):
                        swap = False
                    elif ambiguous:
                        swap = True
                    ambiguous = False
            if not ambiguous:
                if not swap:
                    break
                ipos = i1
            i1 -= 1
        if ipos != i0:
            i1 = i0
            while i1 > ipos:
                perm[i1] = perm[i1 - 1]
                i1 -= 1
            perm[ipos] = j0


cdef inline void _order_axes(int nop, int ndim, int n, int64_t* shape, int64_t* strides,
                             int* perm, int64_t* tmp) noexcept nogil:
    """Permute the first ``n`` axes (rows ``ndim`` long) outermost to innermost by stride."""
    cdef int i, k, d
    cdef int64_t dims[MAXDIM]
    # The first row apart: there is always one, and GCC then sees ``tmp`` written before
    # ``sort_axes`` reads it (-Wmaybe-uninitialized otherwise).
    for i in range(n):
        tmp[i] = strides[i]
    for k in range(1, nop):
        for i in range(n):
            tmp[k * n + i] = strides[k * ndim + i]
    sort_axes(nop, n, tmp, perm)
    for i in range(n):
        dims[i] = shape[i]
    for i in range(n):
        d = perm[n - 1 - i]
        shape[i] = dims[d]
        for k in range(nop):
            strides[k * ndim + i] = tmp[k * n + d]


cdef int coalesce(int nop, int ndim, int64_t* shape, int64_t* strides,
                  bint order) noexcept nogil:
    """Reduce an iteration over ``nop`` operands of one shape to the fewest dimensions.

    ``strides`` holds ``nop`` (at most ``MAX_COALESCE_OPERANDS``) rows of ``ndim`` element
    strides; both arrays are rewritten in place. Unit axes are dropped; with ``order`` (an
    iteration whose visiting order does not matter) the rest are ordered by stride
    (``sort_axes``), so transposed and Fortran-ordered operands are read with the grain;
    then neighbours merge where, for every operand, ``stride[i] == stride[i + 1] *
    shape[i + 1]``. The result has at least two dimensions (leading unit axes of stride 0 are
    added) so a 2-D kernel can take it; the new dimension count is returned. An empty shape
    comes back as one zero-length axis. Both arrays need room for ``max(ndim, 2)``
    dimensions.
    """
    cdef int i, k, n = 0
    cdef int perm[MAXDIM]
    cdef int64_t tmp[MAX_COALESCE_OPERANDS * MAXDIM]
    if ndim == 1 and shape[0] != 0:
        # One axis (the common small case): only the leading unit axis to add, rows from
        # the last down so none is overwritten before it is read.
        k = nop - 1
        while k >= 0:
            strides[2 * k + 1] = strides[k]
            strides[2 * k] = 0
            k -= 1
        shape[1] = shape[0]
        shape[0] = 1
        return 2
    for i in range(ndim):
        if shape[i] == 0:
            shape[0] = 1
            shape[1] = 0
            for k in range(nop):
                strides[k * 2] = 0
                strides[k * 2 + 1] = 0
            return 2
    # Drop unit axes (compacting rows in place is safe: n <= i).
    for i in range(ndim):
        if shape[i] != 1:
            shape[n] = shape[i]
            for k in range(nop):
                strides[k * ndim + n] = strides[k * ndim + i]
            n += 1
    if order and n > 1:
        _order_axes(nop, ndim, n, shape, strides, perm, tmp)
    # Merge neighbours, right to left, into positions [m, n).
    cdef int m = n
    cdef bint ok
    if n > 0:
        m = n - 1
        i = n - 2
        while i >= 0:
            ok = True
            for k in range(nop):
                if strides[k * ndim + i] != strides[k * ndim + m] * shape[m]:
                    ok = False
                    break
            if ok:
                shape[m] *= shape[i]
            else:
                m -= 1
                shape[m] = shape[i]
                for k in range(nop):
                    strides[k * ndim + m] = strides[k * ndim + i]
            i -= 1
    cdef int out_n = n - m
    cdef int pad = 2 - out_n if out_n < 2 else 0
    cdef int total = out_n + pad
    # Re-pack to rows of length ``total`` (through ``tmp``: rows may grow by the padding).
    for k in range(nop):
        for i in range(out_n):
            tmp[k * total + pad + i] = strides[k * ndim + m + i]
        for i in range(pad):
            tmp[k * total + i] = 0
    memcpy(strides, tmp, nop * total * sizeof(int64_t))
    for i in range(out_n):
        shape[pad + i] = shape[m + i]
    for i in range(pad):
        shape[i] = 1
    return total

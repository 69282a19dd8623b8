# Plans that the engine hands to a backend: plain structs, the same for every device.
from libc.stdint cimport int64_t

cdef enum:
    PLAN_MAXDIM = 64

# How a matrix product runs: one dot per batch (a row by a column), gemv per batch (a matrix
# by a column, or a row by a matrix), a Gram product (half in syrk, then mirrored), gemm per
# batch, arrayx's blocked kernel (bool, integers, tiny products), or arrayx's kernel for
# products with few columns (``work_bytes`` of scratch from the caller at ``work``).
cdef enum MatmulHow:
    MATMUL_DOT
    MATMUL_GEMV
    MATMUL_GRAM
    MATMUL_GEMM
    MATMUL_BLOCKED
    MATMUL_SKINNY

cdef struct Mat:
    # One operand seen as a stack of (rows x cols) matrices.
    char* data
    int64_t rows, cols, s0, s1   # element strides
    int nbatch
    int64_t bshape[PLAN_MAXDIM]
    int64_t bstride[PLAN_MAXDIM]   # in bytes

cdef struct MatmulPlan:
    MatmulHow how
    Mat a, b
    int64_t m, n, k
    char ta, tb                # gemm's transpose flags (column-major view of a and b)
    int lda, ldb
    int64_t batches             # the product of the broadcast batch shape
    int nb                      # batch dimensions
    int64_t bshape[PLAN_MAXDIM]
    int64_t sa[PLAN_MAXDIM]     # a's and b's byte strides over the batch shape
    int64_t sb[PLAN_MAXDIM]
    int64_t work_bytes          # scratch the product needs (0: none), which the caller
    char* work                  # allocates and points work at


cdef inline void batch_offsets(int64_t u, MatmulPlan* p, int64_t* oa,
                               int64_t* ob) noexcept nogil:
    """The byte offsets of batch ``u``'s matrices in the two operands."""
    cdef int i
    cdef int64_t r
    oa[0] = 0
    ob[0] = 0
    for i in range(p.nb - 1, -1, -1):
        r = u % p.bshape[i]
        u = u // p.bshape[i]
        oa[0] += r * p.sa[i]
        ob[0] += r * p.sb[i]

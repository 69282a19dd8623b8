"""The CPU backend: sorts, searches, set runs, gathers and scatters, fills and matrix products.

Each function takes raw pointers, counts and dtype codes and runs without the GIL; the engine
(``arrayx._engine``) checks the operands, allocates, and picks this backend for CPU storage.
Elementwise passes, folds and scans go through the strided driver (``iterate``) instead.

Matrix products of floating point call BLAS gemm, gemv, dot and syrk through ``products``,
which splits them over arrayx's pool on a single-threaded copy of OpenBLAS; ``linalg``'s
factorisations call the LAPACK routines (getrf, getrs, potrf, syevd/heevd, gesdd, geqrf,
orgqr, geev) of the OpenBLAS NumPy calls (``arrayx._kernels.blas``), bound at the first product
or factorisation (``load_blas``).
"""
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from arrayx._kernels.cpu cimport dispatch
from arrayx._kernels.cpu cimport iterate
from arrayx._kernels.cpu cimport kernels as K
from arrayx._kernels.cpu cimport products
from arrayx._kernels.blas cimport Lapack, blas_int, lapack
from arrayx._kernels.dtype_codes cimport (
    DT_COMPLEX64, DT_COMPLEX128, DT_FLOAT32, DT_FLOAT64, KB_INT, KB_REAL_FLOAT, of_kind,
)
from arrayx._kernels.plans cimport (
    MATMUL_BLOCKED, MATMUL_DOT, MATMUL_GEMM, MATMUL_GEMV, MATMUL_GRAM, MATMUL_SKINNY, Mat,
    MatmulPlan, batch_offsets,
)

cdef extern from "ax_matmul.hpp" namespace "ax" nogil:
    ctypedef void (*matmul_fn)(const char* a, int64_t as0, int64_t as1, const char* b,
                               int64_t bs0, char* c, int64_t m, int64_t n, int64_t k)
    matmul_fn matmul_kernel(int code)
    ctypedef void (*mirror_fn)(char* c, int64_t n, bint from_lower)
    mirror_fn mirror_kernel(int code)
    ctypedef void (*pack_fn)(const char* b, int64_t bs0, int64_t bs1, int64_t k, int64_t n,
                             int64_t width, char* out)
    pack_fn pack_kernel(int code)

cdef extern from "ax_hash.hpp" namespace "ax" nogil:
    int64_t HASH_BLOCK
    uint64_t hash_block(const unsigned char* p, int64_t n, int64_t b)
    void hash_digest(const uint64_t* blocks, int64_t count, int64_t n, uint64_t* out)

# Below this many multiply-adds in all the blocked kernel runs on one thread.
cdef int64_t PARALLEL_MIN_WORK = 1 << 20


# From this many elements in all, rows are sorted on several threads (a sort costs tens of
# nanoseconds an element: 2^15 of them outlast a thread's wake-up many times).
cdef int64_t SORT_PARALLEL_MIN = 1 << 15
# Row groups per thread: what a thread waiting for a core leaves to the others.
cdef int64_t SORT_UNITS_PER_THREAD = 4


cdef struct RowsJob:
    K.sort_fn sort
    K.argsort_fn argsort
    char* data
    int64_t* out
    int64_t rows, n, per, row_bytes
    bint desc, stable


cdef void sort_part(void* ctx, int64_t u) noexcept nogil:
    cdef RowsJob* j = <RowsJob*>ctx
    cdef int64_t lo = u * j.per
    cdef int64_t count = min(j.per, j.rows - lo)
    if count <= 0:
        return
    if j.sort != NULL:
        j.sort(j.data + lo * j.row_bytes, count, j.n, j.desc, j.stable)
    else:
        j.argsort(j.data + lo * j.row_bytes, j.out + lo * j.n, count, j.n, j.desc, j.stable)


cdef bint rows_in_parallel(RowsJob* job, int itemsize) noexcept nogil:
    """Run ``job``'s rows in groups over the kernel threads; False (nothing run) when one
    thread should sort them: a single row, too few elements, or one thread."""
    cdef int64_t threads = iterate.threads_now()
    if threads == 1 or job.rows < 2 or job.rows * job.n < SORT_PARALLEL_MIN:
        return False
    cdef int64_t units = min(job.rows, threads * SORT_UNITS_PER_THREAD)
    job.per = (job.rows + units - 1) // units
    job.row_bytes = job.n * itemsize
    iterate.parallel_for((job.rows + job.per - 1) // job.per, sort_part, job)
    return True


# A single row of 8-byte values from this long is sorted by buckets of its keys' leading bits,
# the buckets in parallel: 0.7-0.8 of the whole-row sort's time on two threads for 10^6 int64 or
# float64. Narrower keys take four passes or fewer, which the split's three do not repay.
cdef int64_t SORT_SPLIT_MIN = 1 << 16


cdef struct BucketsJob:
    K.bucket_fn fn
    char* source
    char* target
    int64_t itemsize
    int64_t starts[K.SPLIT_BUCKETS + 1]
    bint desc


cdef void bucket_part(void* ctx, int64_t b) noexcept nogil:
    cdef BucketsJob* j = <BucketsJob*>ctx
    cdef int64_t lo = j.starts[b]
    cdef int64_t m = j.starts[b + 1] - lo
    if m:
        j.fn(j.source + lo * j.itemsize, j.target + lo * j.itemsize, m, j.desc)


cdef bint sort_long_row(int code, int itemsize, char* data, int64_t n, bint desc) noexcept nogil:
    """Sort one long row of integers or real floats through the buckets of its keys' leading
    bits (``radix_split_row``), the buckets over the kernel threads; False (nothing done)
    without memory for the scratch row, or when one bucket would hold most of the row."""
    cdef BucketsJob job
    cdef char* tmp = <char*>malloc(n * itemsize)
    if tmp == NULL:
        return False
    cdef int buckets = K.split_kernel(code)(data, n, desc, tmp, job.starts)
    if buckets > 0:
        job.fn, job.source, job.target = K.bucket_kernel(code), tmp, data
        job.itemsize, job.desc = itemsize, desc
        iterate.parallel_for(buckets, bucket_part, &job)
    free(tmp)
    return buckets >= 0


cdef void sort_rows(int code, int itemsize, char* data, int64_t rows, int64_t n, bint desc,
                    bint stable) noexcept nogil:
    """Sort each row of the C-contiguous (rows, n) ``data`` in place; many rows in parallel,
    one long row by parts over threads. 32- and 64-bit integers and real floats take the
    vector quicksort where the ISA level has one (``ax_vsort.hpp``), the others the radix or
    comparison sorts."""
    cdef K.long_sort_fn long_sort = dispatch.sort_long_of(dispatch.kernels, code)
    cdef int threads = iterate.threads_now()
    if rows == 1 and n >= SORT_PARALLEL_MIN and threads > 1 and long_sort != NULL:
        long_sort(data, n, desc, stable, threads, <K.run_units_fn>iterate.parallel_for)
        return
    if (rows == 1 and n >= SORT_SPLIT_MIN and itemsize == 8 and long_sort == NULL
            and of_kind(code, KB_INT | KB_REAL_FLOAT)
            and sort_long_row(code, itemsize, data, n, desc)):
        return
    cdef RowsJob job
    job.sort = dispatch.sort_rows_of(dispatch.kernels, code)
    if job.sort == NULL:
        job.sort = K.sort_kernel(code)
    job.argsort = NULL
    job.data = data
    job.out = NULL
    job.rows, job.n, job.desc, job.stable = rows, n, desc, stable
    if not rows_in_parallel(&job, itemsize):
        job.sort(data, rows, n, desc, stable)


cdef void argsort_rows(int code, int itemsize, const char* data, int64_t* out, int64_t rows,
                       int64_t n, bint desc, bint stable) noexcept nogil:
    """Each row's sorting permutation into ``out``; many rows in parallel. Integers and real
    floats take the vector sort of (key, index) words where the ISA level has it
    (``packed_argsort``), one long row over the threads too."""
    cdef K.packed_argsort_fn packed = dispatch.packed_argsort_of(dispatch.kernels, code)
    cdef int threads = iterate.threads_now()
    if packed != NULL and n < (<int64_t>1 << 32):
        if rows * n < SORT_PARALLEL_MIN:
            threads = 1
        packed(data, out, rows, n, desc, threads, <K.run_units_fn>iterate.parallel_for)
        return
    cdef RowsJob job
    job.sort = NULL
    job.argsort = K.argsort_kernel(code)
    job.data = <char*>data
    job.out = out
    job.rows, job.n, job.desc, job.stable = rows, n, desc, stable
    if not rows_in_parallel(&job, itemsize):
        job.argsort(data, out, rows, n, desc, stable)


cdef void arg_extreme(int code, int itemsize, const char* data, int64_t* out, int64_t rows,
                      int64_t n, bint want_max) noexcept nogil:
    """The first position of each row's extreme; one row is searched in ranges in parallel."""
    cdef K.argextreme_fn fn = dispatch.argextreme_of(dispatch.kernels, code)
    if rows == 1:
        out[0] = iterate.arg_extreme(fn, data, n, itemsize, want_max)
    else:
        fn(data, out, rows, n, want_max)


cdef int64_t first_outside(const int64_t* idx, int64_t m, int64_t n) noexcept nogil:
    """The first position of ``idx[:m]`` whose value is outside ``[0, n)``, or -1."""
    cdef int64_t i
    for i in range(m):
        if not 0 <= idx[i] < n:
            return i
    return -1


# Binary searches wait on memory, as gathers do: from this many values they go parallel, in
# ranges of SEARCH_UNIT values taken by the pool's threads.
cdef int64_t SEARCH_PARALLEL_MIN = 1 << 16
cdef int64_t SEARCH_UNIT = 1 << 14


cdef struct SearchJob:
    K.searchsorted_fn fn
    const char* sorted
    const int64_t* sorter
    const char* values
    int64_t n, m
    int itemsize
    bint right
    int64_t* out


cdef void search_unit(void* ctx, int64_t u) noexcept nogil:
    cdef SearchJob* j = <SearchJob*>ctx
    cdef int64_t start = u * SEARCH_UNIT
    j.fn(j.sorted, j.n, j.sorter, j.values + start * j.itemsize, min(SEARCH_UNIT, j.m - start),
         j.right, j.out + start)


cdef void searchsorted(int code, const char* sorted, int64_t n, const int64_t* sorter,
                       const char* values, int64_t m, bint right, int64_t* out,
                       int itemsize) noexcept nogil:
    cdef K.searchsorted_fn fn = K.searchsorted_kernel(code)
    if m < SEARCH_PARALLEL_MIN or iterate.threads_now() == 1:
        fn(sorted, n, sorter, values, m, right, out)
        return
    cdef SearchJob job
    job.fn, job.sorted, job.sorter, job.values = fn, sorted, sorter, values
    job.n, job.m, job.itemsize, job.right, job.out = n, m, itemsize, right, out
    iterate.parallel_for((m + SEARCH_UNIT - 1) // SEARCH_UNIT, search_unit, &job)


cdef int64_t run_starts(int code, const char* sorted, int64_t n,
                        int64_t* starts) noexcept nogil:
    return K.run_starts_kernel(code)(sorted, n, starts)


cdef void run_lengths(const int64_t* starts, int64_t groups, int64_t n,
                      int64_t* counts) noexcept nogil:
    """The length of each of the ``groups`` runs starting at ``starts`` among ``n`` elements."""
    cdef int64_t k
    for k in range(groups):
        counts[k] = (starts[k + 1] if k + 1 < groups else n) - starts[k]


cdef void run_labels(const int64_t* order, const int64_t* starts, int64_t groups, int64_t n,
                     int64_t* labels) noexcept nogil:
    """For each element, the index of its run, through the sorting permutation ``order``."""
    cdef int64_t k, i, end
    for k in range(groups):
        end = starts[k + 1] if k + 1 < groups else n
        for i in range(starts[k], end):
            labels[order[i]] = k


cdef void isin(int code, const char* sorted, int64_t n, const char* values, int64_t m,
               bint invert, char* out) noexcept nogil:
    K.isin_kernel(code)(sorted, n, values, m, invert, out)


cdef void nonzero_positions(const char* mask, int ndim, const int64_t* shape, int64_t count,
                            int64_t** out) noexcept nogil:
    K.nonzero_positions(mask, ndim, shape, count, out)


cdef void gather(int code, const char* src, const int64_t* idx, int64_t m,
                 char* out) noexcept nogil:
    K.gather_kernel(code)(src, idx, m, out)


cdef int64_t scatter_add(int code, const char* values, const int64_t* idx, int64_t m,
                         int64_t n, char* out) noexcept nogil:
    return K.scatter_add_kernel(code)(values, idx, m, n, out)


cdef int64_t take(const char* src, int64_t n, int64_t stride, const int64_t* idx, int64_t m,
                  char* out, int itemsize) noexcept nogil:
    return iterate.take(src, n, stride, idx, m, out, itemsize)


cdef void gather_blocks(int code, char* base, const int64_t* offs, int64_t nb, int rnd,
                        const int64_t* rshape, const int64_t* rstrides,
                        char* flat) noexcept nogil:
    dispatch.gather_blocks_of(dispatch.kernels, code)(base, offs, nb, rnd, rshape, rstrides, flat)


cdef void scatter_blocks(int code, char* base, const int64_t* offs, int64_t nb, int rnd,
                         const int64_t* rshape, const int64_t* rstrides,
                         char* flat) noexcept nogil:
    dispatch.scatter_blocks_of(dispatch.kernels, code)(base, offs, nb, rnd, rshape, rstrides, flat)


cdef int64_t count_true(const uint8_t* mask, int64_t n) noexcept nogil:
    return K.count_true(mask, n)


cdef void compress_rows(const char* src, const uint8_t* mask, int64_t n, int64_t row_bytes,
                        char* dst) noexcept nogil:
    K.compress_rows(src, mask, n, row_bytes, dst)


cdef void expand_rows(char* dst, const uint8_t* mask, int64_t n, int64_t row_bytes,
                      const char* src, int64_t src_step) noexcept nogil:
    K.expand_rows(dst, mask, n, row_bytes, src, src_step)


cdef void progression(int code, char* p, int64_t n, double start_re, double start_im,
                      double step_re, double step_im) noexcept nogil:
    K.progression_kernel(code)(p, n, start_re, start_im, step_re, step_im)


cdef void int_progression(int code, char* p, int64_t n, int64_t start,
                          int64_t step) noexcept nogil:
    K.int_progression_kernel(code)(p, n, start, step)


cdef void zero_triangle(char* p, int64_t batch, int64_t rows, int64_t cols, int64_t k,
                        bint keep_lower, int64_t itemsize) noexcept nogil:
    K.zero_triangle(p, batch, rows, cols, k, keep_lower, itemsize)


# --- The matrix product's plan: which of dot, gemv, syrk, gemm or the blocked kernel ------

# Below this many multiply-adds per matrix a BLAS call costs more than the blocked kernel.
cdef int64_t BLAS_MIN_WORK = 4096
cdef int64_t INT_MAX = 2147483647


cdef void describe(Mat* m, char* data, int nd, const int64_t* shape, const int64_t* strides,
                   int isz, bint vector_is_row) noexcept nogil:
    """An operand as a stack of matrices; a 1-D one is one row (``vector_is_row``) or column."""
    cdef int i
    m.data = data
    if nd == 1:
        m.nbatch = 0
        if vector_is_row:
            m.rows, m.cols, m.s0, m.s1 = 1, shape[0], 0, strides[0]
        else:
            m.rows, m.cols, m.s0, m.s1 = shape[0], 1, strides[0], 0
        return
    m.nbatch = nd - 2
    m.rows, m.cols = shape[nd - 2], shape[nd - 1]
    m.s0, m.s1 = strides[nd - 2], strides[nd - 1]
    for i in range(nd - 2):
        m.bshape[i] = shape[i]
        m.bstride[i] = strides[i] * isz


cdef bint blas_order(Mat* m, char* trans, int* ld) noexcept nogil:
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


cdef int broadcast_batches(Mat* a, Mat* b, int64_t* shape, int64_t* sa,
                           int64_t* sb) noexcept nogil:
    """The broadcast batch shape of ``a`` and ``b`` (which broadcast: the caller checked) and
    their byte strides over it."""
    cdef int nb = a.nbatch if a.nbatch > b.nbatch else b.nbatch
    cdef int i, ia, ib
    cdef int64_t da, db
    for i in range(nb):
        ia = a.nbatch - nb + i
        ib = b.nbatch - nb + i
        da = a.bshape[ia] if ia >= 0 else 1
        db = b.bshape[ib] if ib >= 0 else 1
        shape[i] = db if da == 1 else da
        sa[i] = a.bstride[ia] if ia >= 0 and da != 1 else 0
        sb[i] = b.bstride[ib] if ib >= 0 and db != 1 else 0
    return nb


cdef bint is_gram(Mat* ma, Mat* mb, int nb) noexcept nogil:
    """Whether ``b`` is ``a`` transposed (the same memory with the strides swapped), so the
    product is symmetric: ``X @ X.mT`` or ``X.mT @ X``."""
    return (nb == 0 and ma.nbatch == 0 and mb.nbatch == 0 and ma.data == mb.data
            and ma.rows == mb.cols and ma.cols == mb.rows and ma.s0 == mb.s1
            and ma.s1 == mb.s0 and ma.rows > 1)


# Products with at most SKINNY_VECTORS vectors of columns run on arrayx's kernel
# (ax_skinny.hpp) where the level has one and b, packed to whole vectors, fits in this many
# bytes (the L2 cache); rows go in units of about SKINNY_UNIT multiply-adds (vector lanes
# counted), over the threads from SKINNY_PARALLEL in all.
cdef int64_t SKINNY_MAX_PACKED = 1 << 18
cdef int64_t SKINNY_UNIT = 1 << 17
cdef int64_t SKINNY_PARALLEL = 1 << 20


cdef inline int64_t skinny_width(int64_t n, int isz) noexcept nogil:
    """The columns of b packed for the kernel: n rounded up to whole vectors."""
    cdef int64_t lanes = K.SKINNY_VECTOR_BYTES // isz
    return (n + lanes - 1) // lanes * lanes


cdef bint skinny_fits(MatmulPlan* p, int code, int isz) noexcept nogil:
    """Whether ``p`` (one batch) runs on the kernel for few columns; sets its scratch."""
    cdef int64_t width = skinny_width(p.n, isz)
    if (dispatch.skinny_of(dispatch.kernels, code) == NULL or p.batches != 1 or p.n < 2
            or width * isz > K.SKINNY_VECTORS * K.SKINNY_VECTOR_BYTES
            or p.k * width * isz > SKINNY_MAX_PACKED):
        return False
    p.work_bytes = p.k * width * isz
    return True


cdef inline int64_t gemv_work(char order, int64_t rows, int64_t cols, int isz) noexcept nogil:
    """The scratch bytes of a matrix-vector product's partial vectors (0: none)."""
    cdef int64_t parts = products.gemv_parts(order, rows, cols)
    return parts * rows * isz if parts > 1 else 0


cdef int plan_matmul(MatmulPlan* p, int code, int isz, char* a, int nda, const int64_t* sha,
                     const int64_t* sta, char* b, int ndb, const int64_t* shb,
                     const int64_t* stb) noexcept nogil:
    """Plan ``a @ b`` (dtype ``code``; shapes that align and broadcast, element strides) into
    ``p``. Returns the operands the plan cannot read as they lie, to be copied C-contiguous and
    planned again: 1 for ``a``, 2 for ``b``, 3 for both; 0 when ``p`` is ready.

    Floating point goes to BLAS from ``BLAS_MIN_WORK`` multiply-adds on: a row by a column is a
    dot, a matrix by a vector (``X @ w``, ``X.mT @ r``, ``r @ X``) gemv with the vector read at
    its stride, a matrix by its own transpose syrk, the rest gemm per batch with a transpose
    flag for column-major operands. Bool, integers and tiny products take the blocked kernel.
    """
    cdef int copy = 0, i
    describe(&p.a, a, nda, sha, sta, isz, True)
    describe(&p.b, b, ndb, shb, stb, isz, False)
    cdef int64_t m = p.a.rows, n = p.b.cols, k = p.a.cols
    p.m, p.n, p.k = m, n, k
    p.lda, p.ldb = 1, 1
    p.work_bytes, p.work = 0, <char*>NULL
    p.nb = broadcast_batches(&p.a, &p.b, p.bshape, p.sa, p.sb)
    p.batches = 1
    for i in range(p.nb):
        p.batches *= p.bshape[i]
    cdef bint blas = code >= DT_FLOAT32 and m * n * k >= BLAS_MIN_WORK and k <= INT_MAX \
        and n <= INT_MAX and m <= INT_MAX
    if blas and m == 1 and n == 1 and 0 < p.a.s1 <= INT_MAX and 0 < p.b.s0 <= INT_MAX:
        p.how = MATMUL_DOT
    elif blas and n == 1:
        p.how = MATMUL_GEMV
        copy |= 0 if blas_order(&p.a, &p.ta, &p.lda) else 1
        copy |= 0 if 0 < p.b.s0 <= INT_MAX else 2
        p.work_bytes = gemv_work(p.ta, m, k, isz)
    elif blas and m == 1:
        p.how = MATMUL_GEMV
        copy |= 0 if 0 < p.a.s1 <= INT_MAX else 1
        copy |= 0 if blas_order(&p.b, &p.tb, &p.ldb) else 2
        p.work_bytes = gemv_work(b"T" if p.tb == b"N" else b"N", n, k, isz)
    elif blas and skinny_fits(p, code, isz):
        p.how = MATMUL_SKINNY
    elif blas:
        p.how = MATMUL_GRAM if is_gram(&p.a, &p.b, p.nb) else MATMUL_GEMM
        copy |= 0 if blas_order(&p.a, &p.ta, &p.lda) else 1
        copy |= 0 if blas_order(&p.b, &p.tb, &p.ldb) else 2
        if p.how == MATMUL_GRAM:
            p.work_bytes = (products.gram_parts(m, k, isz) - 1) * m * m * isz
    else:
        p.how = MATMUL_BLOCKED
        copy |= 0 if p.b.cols <= 1 or p.b.s1 == 1 else 2
    return copy


cdef const Lapack* BLAS = NULL


cdef int load_blas() except -1:
    """Bind the BLAS routines, once (with the GIL held): LAPACK's here, the products'
    (``products``) for the pool to split."""
    global BLAS
    if BLAS == NULL:
        products.bind()
        BLAS = lapack()
    return 0


# trsm's and gemm's alpha minus one (one is ``products.one``): a complex one's first half is
# the real one of its precision.


cdef float complex MINUS_ONE_SINGLE = -1
cdef double complex MINUS_ONE_DOUBLE = -1


cdef inline bint single(int code) noexcept nogil:
    return code == DT_FLOAT32 or code == DT_COMPLEX64


cdef inline const void* minus_one(int code) noexcept nogil:
    return &MINUS_ONE_SINGLE if single(code) else &MINUS_ONE_DOUBLE


cdef inline int64_t lapack_itemsize(int code) noexcept nogil:
    """The bytes of an element of LAPACK's dtype ``code`` (float32 ... complex128)."""
    return 4 if code == DT_FLOAT32 else 16 if code == DT_COMPLEX128 else 8


cdef void matmul(int code, int itemsize, MatmulPlan* p, char* c) noexcept nogil:
    """The product ``p`` describes into the C-contiguous ``c`` (BLAS after ``load_blas``)."""
    cdef int64_t u, oa, ob
    cdef int isz = itemsize
    cdef int64_t cstep = p.m * p.n * isz
    if p.how == MATMUL_BLOCKED:
        _run_blocked(matmul_kernel(code), isz, p, c)
    elif p.how == MATMUL_DOT:
        for u in range(p.batches):
            batch_offsets(u, p, &oa, &ob)
            products.run_dot(code, isz, p.k, p.a.data + oa, <int>p.a.s1, p.b.data + ob,
                             <int>p.b.s0, c + u * isz)
    elif p.how == MATMUL_GEMV and p.n == 1:
        for u in range(p.batches):
            batch_offsets(u, p, &oa, &ob)
            products.run_gemv(code, isz, p.ta, <int>p.m, <int>p.k, p.a.data + oa, p.lda,
                              p.b.data + ob, <int>p.b.s0, c + u * cstep, p.work)
    elif p.how == MATMUL_GEMV:
        # A row times a matrix: the matrix's transpose times the row, b's order flipped.
        for u in range(p.batches):
            batch_offsets(u, p, &oa, &ob)
            products.run_gemv(code, isz, b"T" if p.tb == b"N" else b"N", <int>p.n, <int>p.k,
                              p.b.data + ob, p.ldb, p.a.data + oa, <int>p.a.s1, c + u * cstep,
                              p.work)
    elif p.how == MATMUL_SKINNY:
        _run_skinny(code, isz, p, c)
    elif p.how == MATMUL_GRAM:
        # gemm's "N" for a means BLAS sees a's transpose, so it asks for A'^T A' ("T").
        products.run_gram(code, isz, b"T" if p.ta == b"N" else b"N", <int>p.m, <int>p.k,
                          p.a.data, p.lda, c, p.work)
        mirror_kernel(code)(c, p.m, False)
    else:
        products.run_gemm(code, isz, p, c)


cdef struct SkinnyJob:
    K.skinny_fn fn
    MatmulPlan* p
    char* c
    int64_t rows_per


cdef void _skinny_unit(void* ctx, int64_t u) noexcept nogil:
    cdef SkinnyJob* j = <SkinnyJob*>ctx
    cdef int64_t row0 = u * j.rows_per
    j.fn(j.p.a.data, j.p.a.s0, j.p.a.s1, j.p.work, j.c, j.p.n, j.p.k, row0,
         min(j.rows_per, j.p.m - row0))


cdef void _run_skinny(int code, int isz, MatmulPlan* p, char* c) noexcept nogil:
    """A product with few columns: b packed into the plan's scratch, then the rows of a in
    units of a multiple of 8 rows (the kernel's groups are 8 or 4 rows) over the threads."""
    cdef int64_t width = skinny_width(p.n, isz)
    pack_kernel(code)(p.b.data, p.b.s0, p.b.s1, p.k, p.n, width, p.work)
    cdef SkinnyJob job
    job.fn, job.p, job.c = dispatch.skinny_of(dispatch.kernels, code), p, c
    cdef int64_t per_row = max(p.k * width, 1)
    job.rows_per = max(8, (SKINNY_UNIT // per_row + 7) // 8 * 8)
    cdef int64_t units = (p.m + job.rows_per - 1) // job.rows_per, u
    if units < 2 or p.m * per_row < SKINNY_PARALLEL or iterate.threads_now() == 1:
        for u in range(units):
            _skinny_unit(&job, u)
    else:
        iterate.parallel_for(units, _skinny_unit, &job)


cdef void _run_blocked(matmul_fn fn, int isz, MatmulPlan* p, char* c) noexcept nogil:
    """The blocked kernel over every batch, split in row chunks over threads when it pays."""
    cdef int64_t chunks = 1, rows_per = p.m, units, u
    cdef int threads = iterate.threads_now()
    cdef int64_t work = p.batches * p.m * p.n * p.k
    if threads > 1 and work >= PARALLEL_MIN_WORK and p.batches < threads:
        chunks = min(p.m, <int64_t>threads * 4)
        rows_per = (p.m + chunks - 1) // chunks
        chunks = (p.m + rows_per - 1) // rows_per
    units = p.batches * chunks
    cdef BlockedJob job
    job.fn, job.isz, job.p, job.c, job.chunks, job.rows_per = fn, isz, p, c, chunks, rows_per
    if threads <= 1 or work < PARALLEL_MIN_WORK or units < 2:
        for u in range(units):
            _blocked_unit(&job, u)
    else:
        iterate.parallel_for(units, _blocked_unit, &job)


cdef struct BlockedJob:
    matmul_fn fn
    int isz
    MatmulPlan* p
    char* c
    int64_t chunks, rows_per


cdef void _blocked_unit(void* ctx, int64_t u) noexcept nogil:
    cdef BlockedJob* j = <BlockedJob*>ctx
    cdef MatmulPlan* p = j.p
    cdef int64_t bi = u // j.chunks
    cdef int64_t r0 = (u % j.chunks) * j.rows_per
    cdef int64_t r1 = min(p.m, r0 + j.rows_per)
    cdef int64_t oa, ob
    if r0 >= r1:
        return
    batch_offsets(bi, p, &oa, &ob)
    j.fn(p.a.data + oa + r0 * p.a.s0 * j.isz, p.a.s0, p.a.s1, p.b.data + ob, p.b.s0,
         j.c + (bi * p.m + r0) * p.n * j.isz, r1 - r0, p.n, p.k)


# --- LAPACK: column-major buffers overwritten in place; each returns LAPACK's info ---------

# The LU of a matrix with fewer columns than LU_RECURSIVE_BELOW (by dtype, float32 first) is
# recursive (_lu), down to panels of LU_PANEL columns, which getrf factors. OpenBLAS's own
# getrf runs at 40% of its gemm's rate on 1000 x 1000 float64 (16 ms on 2 Zen 5 cores, where
# gemm gives 100 GFLOP/s); the recursion spends its time in gemm and takes 11-14 ms, and
# 0.75-0.85 of getrf's time from 200 columns to 1000; from 1500 up the two are within 3%, and
# so are they for complex128 from 1000 up.
cdef blas_int[4] LU_RECURSIVE_BELOW = [1536, 1536, 1536, 1024]
cdef blas_int LU_PANEL = 64


cdef blas_int getrf(int code, blas_int n, char* a, blas_int* ipiv) noexcept nogil:
    """LU of the n x n column-major ``a`` in place: LAPACK getrf's factors, pivots and
    ``info``."""
    cdef blas_int lda = n if n > 1 else 1
    if n < LU_RECURSIVE_BELOW[code - DT_FLOAT32]:
        return _lu(code, n, n, a, lda, ipiv)
    return _getrf(code, n, n, a, lda, ipiv)


cdef blas_int _getrf(int code, blas_int m, blas_int n, char* a, blas_int lda,
                     blas_int* ipiv) noexcept nogil:
    cdef blas_int info = 0
    BLAS.getrf[code - DT_FLOAT32](&m, &n, a, &lda, ipiv, &info)
    return info


cdef blas_int _lu(int code, blas_int m, blas_int n, char* a, blas_int lda,
                  blas_int* ipiv) noexcept nogil:
    """The LU with partial pivoting of the m x n (m >= n) column-major ``a`` (leading
    dimension ``lda``) in place, recursively (Toledo's): the left columns, their row swaps
    applied to the right ones, the right's top rows solved with the left's unit lower
    triangle, the rest of the right updated by gemm and factored in turn, and its row swaps
    applied to the left. The same pivots (1-based, ``ipiv[:n]``) as getrf's; ``info`` is
    getrf's: the 1-based index of the first exactly zero pivot, 0 if none."""
    if n <= LU_PANEL:
        return _getrf(code, m, n, a, lda, ipiv)
    cdef int t = code - DT_FLOAT32
    cdef int64_t isz = lapack_itemsize(code)
    cdef blas_int n1 = max(LU_PANEL, n // 2 // LU_PANEL * LU_PANEL)
    cdef blas_int n2 = n - n1, rest = m - n1, step = 1, first = 1, last = n1, i
    cdef char left = b"L", lower = b"L", none = b"N", unit = b"U"
    cdef char* right = a + n1 * lda * isz
    cdef char* corner = right + n1 * isz
    cdef blas_int info = _lu(code, m, n1, a, lda, ipiv)
    BLAS.laswp[t](&n2, right, &lda, &first, &last, ipiv, &step)
    BLAS.trsm[t](&left, &lower, &none, &unit, &n1, &n2, products.one(code), a, &lda, right, &lda)
    BLAS.gemm[t](&none, &none, &rest, &n2, &n1, minus_one(code), a + n1 * isz, &lda, right, &lda,
                 products.one(code), corner, &lda)
    cdef blas_int below = _lu(code, rest, n2, corner, lda, ipiv + n1)
    for i in range(n1, n):
        ipiv[i] += n1
    first, last = n1 + 1, n
    BLAS.laswp[t](&n1, a, &lda, &first, &last, ipiv, &step)
    return info if info else below + n1 if below else 0


# For TRSM_RECURSIVE_FROM right-hand sides and more, getrs's two triangular solves are
# recursive (_trsm): OpenBLAS's trsm of 1000 x 1000 with 1000 right-hand sides runs at half its
# gemm's rate (14 ms on 2 Xeon Emerald Rapids cores, where gemm takes 7 ms for as many
# multiply-adds); halving the triangle down to TRSM_LEAF rows puts all but a sliver of the work
# in gemm and takes 11-12 ms. Fewer right-hand sides keep getrs (a matrix-vector solve reads
# the triangle once either way).
cdef blas_int TRSM_RECURSIVE_FROM = 64
cdef blas_int TRSM_LEAF = 64


cdef void getrs(int code, char trans, blas_int n, blas_int nrhs, char* lu, blas_int* ipiv,
                char* b) noexcept nogil:
    """Solve with ``getrf``'s factors for the ``nrhs`` column-major columns of ``b``: LAPACK
    getrs's steps (the row swaps, then the unit lower and the upper triangle for ``trans``
    "N"; the two triangles transposed, then the swaps undone, otherwise)."""
    cdef blas_int info = 0
    cdef blas_int ld = n if n > 1 else 1
    cdef blas_int first = 1, forward = 1, backward = -1
    cdef char lower = b"L", upper = b"U", unit = b"U", general = b"N"
    if nrhs < TRSM_RECURSIVE_FROM or n <= TRSM_LEAF:
        BLAS.getrs[code - DT_FLOAT32](&trans, &n, &nrhs, lu, &ld, ipiv, b, &ld, &info)
        return
    if trans == b"N":
        BLAS.laswp[code - DT_FLOAT32](&nrhs, b, &ld, &first, &n, ipiv, &forward)
        _trsm(code, lower, trans, unit, n, nrhs, lu, ld, b, ld)
        _trsm(code, upper, trans, general, n, nrhs, lu, ld, b, ld)
    else:
        _trsm(code, upper, trans, general, n, nrhs, lu, ld, b, ld)
        _trsm(code, lower, trans, unit, n, nrhs, lu, ld, b, ld)
        BLAS.laswp[code - DT_FLOAT32](&nrhs, b, &ld, &first, &n, ipiv, &backward)


cdef void _trsm(int code, char uplo, char trans, char diag, blas_int m, blas_int k, char* t,
                blas_int ldt, char* b, blas_int ldb) noexcept nogil:
    """``op(t) x = b`` for the m x k column-major ``b`` in place, ``t`` an m x m triangle
    (trsm's side "L", ``uplo``, ``transa`` and ``diag``), recursively: the first half of the
    unknowns (of a lower ``op(t)``; the last half of an upper one), their product with the
    off-diagonal block taken from the rest of ``b`` by gemm, then the other half."""
    cdef int tc = code - DT_FLOAT32
    cdef char left = b"L", none = b"N"
    if m <= TRSM_LEAF:
        BLAS.trsm[tc](&left, &uplo, &trans, &diag, &m, &k, products.one(code), t, &ldt, b, &ldb)
        return
    cdef int64_t isz = lapack_itemsize(code)
    cdef blas_int h = m // 2
    cdef blas_int r = m - h
    cdef char* t22 = t + (h + <int64_t>h * ldt) * isz
    # op(t)'s block below the diagonal is t's lower block (uplo "L") for "N" and the transpose
    # of t's upper block otherwise; above it, the other way round.
    cdef char* t21 = t + h * isz
    cdef char* t12 = t + <int64_t>h * ldt * isz
    cdef char* b2 = b + h * isz
    if (uplo == b"L") == (trans == b"N"):
        _trsm(code, uplo, trans, diag, h, k, t, ldt, b, ldb)
        BLAS.gemm[tc](&trans, &none, &r, &k, &h, minus_one(code), t21 if trans == b"N" else t12,
                      &ldt, b, &ldb, products.one(code), b2, &ldb)
        _trsm(code, uplo, trans, diag, r, k, t22, ldt, b2, ldb)
    else:
        _trsm(code, uplo, trans, diag, r, k, t22, ldt, b2, ldb)
        BLAS.gemm[tc](&trans, &none, &h, &k, &r, minus_one(code), t12 if trans == b"N" else t21,
                      &ldt, b2, &ldb, products.one(code), b, &ldb)
        _trsm(code, uplo, trans, diag, h, k, t, ldt, b, ldb)


cdef blas_int potrf(int code, char uplo, blas_int n, char* a) noexcept nogil:
    cdef blas_int info = 0
    cdef blas_int lda = n if n > 1 else 1
    BLAS.potrf[code - DT_FLOAT32](&uplo, &n, a, &lda, &info)
    return info


cdef blas_int evd(int code, char jobz, blas_int n, char* a, char* w, char* work,
                  blas_int lwork, char* rwork, blas_int lrwork, blas_int* iwork,
                  blas_int liwork) noexcept nogil:
    """``syevd``/``heevd`` on the upper triangle of the column-major ``a``; LAPACK's info."""
    cdef blas_int info = 0
    cdef blas_int lda = n if n > 1 else 1
    cdef char uplo = b"U"
    if code < DT_COMPLEX64:
        BLAS.syevd[code - DT_FLOAT32](&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork,
                                      &info)
    else:
        BLAS.heevd[code - DT_COMPLEX64](&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork,
                                        &lrwork, iwork, &liwork, &info)
    return info


cdef blas_int gesdd(int code, char jobz, blas_int m, blas_int n, char* a, char* s, char* u,
                    blas_int ldu, char* vt, blas_int ldvt, char* work, blas_int lwork,
                    char* rwork, blas_int* iwork) noexcept nogil:
    cdef blas_int info = 0
    cdef blas_int lda = m if m > 1 else 1
    if code < DT_COMPLEX64:
        BLAS.gesdd_real[code - DT_FLOAT32](&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work,
                                           &lwork, iwork, &info)
    else:
        BLAS.gesdd_complex[code - DT_COMPLEX64](&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt,
                                                work, &lwork, rwork, iwork, &info)
    return info


cdef blas_int geqrf(int code, blas_int m, blas_int n, char* a, char* tau, char* work,
                    blas_int lwork) noexcept nogil:
    cdef blas_int info = 0
    cdef blas_int lda = m if m > 1 else 1
    BLAS.geqrf[code - DT_FLOAT32](&m, &n, a, &lda, tau, work, &lwork, &info)
    return info


cdef blas_int orgqr(int code, blas_int m, blas_int n, blas_int k, char* a, char* tau,
                    char* work, blas_int lwork) noexcept nogil:
    """``Q``'s first ``n`` columns from ``geqrf``'s reflectors (``ungqr`` for complex)."""
    cdef blas_int info = 0
    cdef blas_int lda = m if m > 1 else 1
    BLAS.orgqr[code - DT_FLOAT32](&m, &n, &k, a, &lda, tau, work, &lwork, &info)
    return info


cdef blas_int geev(int code, char jobvr, blas_int n, char* a, char* w, char* wi, char* vr,
                   char* work, blas_int lwork, char* rwork) noexcept nogil:
    """Eigenvalues (``w``, and ``wi`` for the imaginary parts of a real ``a``) and right
    eigenvectors of the column-major ``a``; LAPACK's info."""
    cdef blas_int info = 0
    cdef blas_int ld = n if n > 1 else 1
    cdef char jobvl = b"N"
    if code < DT_COMPLEX64:
        BLAS.geev_real[code - DT_FLOAT32](&jobvl, &jobvr, &n, a, &ld, w, wi, NULL, &ld, vr, &ld,
                                          work, &lwork, &info)
    else:
        BLAS.geev_complex[code - DT_COMPLEX64](&jobvl, &jobvr, &n, a, &ld, w, NULL, &ld, vr, &ld,
                                               work, &lwork, rwork, &info)
    return info


# From this many blocks (of ax::HASH_BLOCK bytes, a tenth of a millisecond each) a content
# hash runs over the kernel threads.
cdef int64_t HASH_PARALLEL_BLOCKS = 8


cdef struct HashJob:
    const unsigned char* data
    int64_t n
    uint64_t* blocks


cdef void hash_part(void* ctx, int64_t b) noexcept nogil:
    cdef HashJob* j = <HashJob*>ctx
    j.blocks[b] = hash_block(j.data, j.n, b)


cdef int content_hash(const char* data, int64_t nbytes, uint64_t* out) noexcept nogil:
    """The two-word content digest of the ``nbytes`` bytes at ``data`` into ``out``
    (``ax_hash.hpp``): its blocks hashed over the kernel threads, the same digest on any
    number of them. -1 without memory for the blocks' hashes."""
    cdef int64_t count = (nbytes + HASH_BLOCK - 1) // HASH_BLOCK
    cdef HashJob job
    job.data, job.n = <const unsigned char*>data, nbytes
    job.blocks = <uint64_t*>malloc(max(count, 1) * sizeof(uint64_t))
    if job.blocks == NULL:
        return -1
    cdef int64_t b
    if count >= HASH_PARALLEL_BLOCKS and iterate.threads_now() > 1:
        iterate.parallel_for(count, hash_part, &job)
    else:
        for b in range(count):
            hash_part(&job, b)
    hash_digest(job.blocks, count, nbytes, out)
    free(job.blocks)
    return 0

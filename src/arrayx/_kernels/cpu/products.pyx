# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Floating-point matrix products on BLAS, split over arrayx's own pool.

The product routines come from ``blas.products()``: a copy of OpenBLAS of arrayx's own, set to
one thread. Each product is cut into units (rows or columns of the output, column panels of a
Gram matrix's triangle, ranges of a long sum) that the pool's threads take, each unit one
single-threaded BLAS call. OpenBLAS's own threads, which keep polling for work for a while
after each product, then never hold the cores arrayx's next kernel needs, and with a busy
process beside it a product backs off to the calling thread with the rest of arrayx's kernels.

A matrix-vector product, a dot and a Gram matrix are cut by their shape only, never by the
thread count, so their rounding does not depend on how many threads ran them: rows of a
matrix-vector product in a fixed number of ranges (OpenBLAS's gemv rounds a row by where its
call starts), a long sum in a fixed number of ranges whose partial results are added in
order. A gemm's rows or columns are cut by the thread count: an element next to a cut may
round differently in its last bit (as in OpenBLAS's and MKL's own threads).

Where no separate copy exists (``blas.products()`` is ``blas.lapack()``'s table), each product
is one call and OpenBLAS threads it itself.
"""
from libc.stdint cimport int64_t
from libc.math cimport sqrt
from libc.string cimport memset

from arrayx._kernels.blas cimport Lapack, blas_int, lapack, products
from arrayx._kernels.cpu cimport iterate
from arrayx._kernels.dtype_codes cimport DT_COMPLEX64, DT_FLOAT32, DT_FLOAT64
from arrayx._kernels.plans cimport MatmulPlan, batch_offsets

cdef const Lapack* TABLE = NULL
cdef bint SPLIT = False

# A gemm or a Gram panel is split into units of at least this many multiply-adds (0.05-0.15
# ms of one core's gemm, float32 to float64), and into at most UNITS_PER_THREAD units a thread
# (each unit packs its own copy of the shared operand). Units of 2^20 gained nothing on the
# 2-core Xeon: (64 x 784) @ (784 x 256), 12M multiply-adds, took 1.00-1.13x one thread's time
# on two (a worker woken on a virtual machine can take as long as its unit), and the float32
# MLP step of batch 64 (two such products) 1.29x one thread's in the paired benchmark.
cdef int64_t UNIT_WORK = 1 << 23
cdef int64_t UNITS_PER_THREAD = 1
# gemm units cover a multiple of this many rows or columns (OpenBLAS's register blocks).
cdef int64_t UNIT_ALIGN = 16
# A matrix-vector product is split from this many matrix elements into at most GEMV_ROW_UNITS
# row ranges of at least GEMV_UNIT elements (memory-bound: an element a multiply-add), on any
# thread count: OpenBLAS's gemv rounds a row by where its call starts (its kernel's blocks), so
# ranges cut by the thread count gave 1 and 2 threads different last bits in up to 2% of the
# elements. Nothing is packed: small units cost nothing, and a late worker holds less (16 a
# thread on 2 threads; with 2, the caller waited for a late worker and the pool backed off).
cdef int64_t GEMV_SPLIT = 1 << 18
cdef int64_t GEMV_UNIT = 1 << 16
cdef int64_t GEMV_ROW_UNITS = 32
# A column-major matrix with fewer rows than GEMV_ROWS_SPLIT, or at least GEMV_WIDE columns,
# is split along its columns into at most PARTS ranges of at least GEMV_UNIT elements, whose
# partial vectors are added in order (at GEMV_WIDE columns they are at most 1/16 of the
# matrix); a taller, narrower one is split by rows. Rows of a column-major matrix cut a
# column into pieces, which OpenBLAS's kernel runs slowly: (2000 x 3000).mT @ r in 32 row
# ranges took 1.3-1.5 ms on two threads of the Xeon, where NumPy's took 0.85.
cdef int64_t GEMV_ROWS_SPLIT = 1024
cdef int64_t GEMV_WIDE = 256
cdef int64_t PARTS = 16
# A dot is split from DOT_SPLIT elements into at most PARTS ranges of at least DOT_UNIT.
cdef int64_t DOT_SPLIT = 1 << 18
cdef int64_t DOT_UNIT = 1 << 16
# A Gram matrix of an operand at least GRAM_TALL times as long as it is wide is summed in
# ranges of that operand (at most PARTS, their partial triangles within GRAM_SCRATCH bytes);
# another's triangle is cut into at most GRAM_PANELS column panels of equal area.
cdef int64_t GRAM_TALL = 4
cdef int64_t GRAM_SCRATCH = 1 << 26
cdef int64_t GRAM_PANELS = 4

cdef float complex ONE_SINGLE = 1
cdef double complex ONE_DOUBLE = 1
cdef double complex ZERO = 0


cdef const void* one(int code) noexcept nogil:
    """alpha = 1 in dtype ``code``'s precision (a complex one's first half is the real one)."""
    return &ONE_SINGLE if code == DT_FLOAT32 or code == DT_COMPLEX64 else &ONE_DOUBLE


cdef int bind() except -1:
    """Bind the product routines, once (with the GIL held)."""
    global TABLE, SPLIT
    if TABLE == NULL:
        own = products()
        SPLIT = own != lapack()
        TABLE = own
    return 0


cdef inline void add_into(int code, char* dst, const char* src, int64_t count) noexcept nogil:
    """``dst[:count] += src[:count]`` in dtype ``code`` (a complex one as its two parts)."""
    cdef int64_t i
    cdef int64_t parts = count * (2 if code >= DT_COMPLEX64 else 1)
    if code == DT_FLOAT32 or code == DT_COMPLEX64:
        for i in range(parts):
            (<float*>dst)[i] += (<const float*>src)[i]
    else:
        for i in range(parts):
            (<double*>dst)[i] += (<const double*>src)[i]


# --- gemm ----------------------------------------------------------------------------------

cdef struct GemmJob:
    MatmulPlan* p
    int code, isz
    char* c
    int64_t chunks, per
    bint by_rows


cdef void gemm_unit(void* ctx, int64_t u) noexcept nogil:
    """Unit ``u``: one chunk of rows (or columns) of one batch's output."""
    cdef GemmJob* j = <GemmJob*>ctx
    cdef MatmulPlan* p = j.p
    cdef int64_t oa, ob, lo, hi
    batch_offsets(u // j.chunks, p, &oa, &ob)
    cdef char* a = p.a.data + oa
    cdef char* b = p.b.data + ob
    cdef char* c = j.c + (u // j.chunks) * p.m * p.n * j.isz
    cdef blas_int m = p.m, n = p.n, k = p.k, lda = p.lda, ldb = p.ldb
    cdef blas_int ldc = n if n > 1 else 1
    lo = (u % j.chunks) * j.per
    if j.by_rows:
        hi = min(p.m, lo + j.per)
        m = hi - lo
        a += lo * (p.lda if p.ta == b"N" else 1) * j.isz
        c += lo * p.n * j.isz
    else:
        hi = min(p.n, lo + j.per)
        n = hi - lo
        b += lo * (1 if p.tb == b"N" else p.ldb) * j.isz
        c += lo * j.isz
    if lo >= hi:
        return
    # Row-major c = a @ b is column-major c.T = b.T @ a.T.
    TABLE.gemm[j.code - DT_FLOAT32](&p.tb, &p.ta, &n, &m, &k, one(j.code), b, &ldb, a, &lda,
                                    &ZERO, c, &ldc)


cdef void run_gemm(int code, int isz, MatmulPlan* p, char* c) noexcept nogil:
    """The product ``p`` (gemm per batch) into the C-contiguous ``c``."""
    cdef GemmJob job
    job.p, job.code, job.isz, job.c = p, code, isz, c
    job.by_rows = p.m >= p.n
    cdef int64_t dim = p.m if job.by_rows else p.n
    cdef int64_t threads = iterate.threads_now()
    cdef int64_t work = p.m * p.n * p.k
    cdef int64_t chunks = 1, u
    if SPLIT and threads > 1 and p.batches < threads * UNITS_PER_THREAD:
        chunks = (threads * UNITS_PER_THREAD + p.batches - 1) // p.batches
        chunks = max(1, min(chunks, work // UNIT_WORK, dim // UNIT_ALIGN))
    job.per = (dim + chunks - 1) // chunks
    if chunks > 1:
        job.per = (job.per + UNIT_ALIGN - 1) // UNIT_ALIGN * UNIT_ALIGN
    job.chunks = (dim + job.per - 1) // job.per
    cdef int64_t units = p.batches * job.chunks
    if not SPLIT or threads == 1 or units < 2 or p.batches * work < 2 * UNIT_WORK:
        for u in range(units):
            gemm_unit(&job, u)
    else:
        iterate.parallel_for(units, gemm_unit, &job)


# --- gemv ----------------------------------------------------------------------------------

cdef int64_t gemv_parts(char order, int64_t rows, int64_t cols) noexcept nogil:
    """The ranges of columns a matrix-vector product's sum is cut into (1: not cut): only a
    column-major matrix (``order`` "T") of few rows or many columns, from GEMV_SPLIT elements
    on."""
    if (order == b"N" or rows * cols < GEMV_SPLIT
            or (rows >= GEMV_ROWS_SPLIT and cols < GEMV_WIDE)):
        return 1
    return max(1, min(PARTS, rows * cols // GEMV_UNIT, cols))


cdef struct GemvJob:
    int code, isz
    char order, trans
    blas_int rows, cols, lda, incx
    char* a
    char* x
    char* y
    char* partial
    int64_t per
    bint by_rows


cdef void gemv_unit(void* ctx, int64_t u) noexcept nogil:
    """Unit ``u``: a range of rows into ``y``, or of columns into partial vector ``u``."""
    cdef GemvJob* j = <GemvJob*>ctx
    cdef int64_t lo = u * j.per
    cdef blas_int rows = j.rows, cols = j.cols, incy = 1, m, n
    cdef char* a = j.a
    cdef char* x = j.x
    cdef char* y
    if j.by_rows:
        rows = min(j.rows - lo, j.per)
        a += lo * (j.lda if j.order == b"N" else 1) * j.isz
        y = j.y + lo * j.isz
    else:
        cols = min(j.cols - lo, j.per)
        a += lo * (1 if j.order == b"N" else j.lda) * j.isz
        x += lo * j.incx * j.isz
        y = j.partial + u * j.rows * j.isz
    if rows <= 0 or cols <= 0:
        return
    # beta = 0 may be taken as y * 0 by a BLAS, which would keep a NaN that fresh memory held.
    memset(y, 0, rows * j.isz)
    m = cols if j.order == b"N" else rows
    n = rows if j.order == b"N" else cols
    TABLE.gemv[j.code - DT_FLOAT32](&j.trans, &m, &n, one(j.code), a, &j.lda, x, &j.incx,
                                    &ZERO, y, &incy)


cdef void run_gemv(int code, int isz, char order, blas_int rows, blas_int cols, char* a,
                   blas_int lda, char* x, blas_int incx, char* y, char* work) noexcept nogil:
    """``y = a @ x`` for the (rows x cols) matrix ``a``, row-major with row stride ``lda``
    (``order`` "N") or column-major with column stride ``lda`` ("T"), ``x`` at element
    increments ``incx`` and the contiguous ``y``; ``work`` holds
    ``gemv_parts(order, rows, cols) * rows`` elements where that is above one."""
    cdef GemvJob job
    cdef int64_t parts = gemv_parts(order, rows, cols), units, u
    cdef int64_t threads = iterate.threads_now()
    job.code, job.isz, job.order = code, isz, order
    job.trans = b"T" if order == b"N" else b"N"
    job.rows, job.cols, job.lda, job.incx = rows, cols, lda, incx
    job.a, job.x, job.y, job.partial = a, x, y, work
    job.by_rows = parts == 1
    if not SPLIT:
        job.by_rows, job.per = True, rows
        gemv_unit(&job, 0)
        return
    if job.by_rows:
        units = 1
        if <int64_t>rows * cols >= GEMV_SPLIT:
            units = min(GEMV_ROW_UNITS, <int64_t>rows * cols // GEMV_UNIT, rows)
        job.per = (rows + units - 1) // units
    else:
        job.per = (cols + parts - 1) // parts
    units = ((rows if job.by_rows else cols) + job.per - 1) // job.per
    if threads == 1 or units < 2:
        for u in range(units):
            gemv_unit(&job, u)
    else:
        iterate.parallel_for(units, gemv_unit, &job)
    if not job.by_rows:
        memset(y, 0, rows * isz)
        for u in range(units):
            add_into(code, y, work + u * rows * isz, rows)


# --- dot -----------------------------------------------------------------------------------

cdef struct DotJob:
    int code, isz
    int64_t per, k
    char* a
    char* b
    blas_int inca, incb
    char part[256]          # PARTS results of up to 16 bytes each


cdef void dot_unit(void* ctx, int64_t u) noexcept nogil:
    cdef DotJob* j = <DotJob*>ctx
    cdef int64_t lo = u * j.per
    cdef blas_int k = min(j.per, j.k - lo)
    cdef char* a = j.a + lo * j.inca * j.isz
    cdef char* b = j.b + lo * j.incb * j.isz
    cdef char* out = j.part + u * 16
    if j.code == DT_FLOAT32:
        (<float*>out)[0] = TABLE.sdot(k, a, j.inca, b, j.incb)
    elif j.code == DT_FLOAT64:
        (<double*>out)[0] = TABLE.ddot(k, a, j.inca, b, j.incb)
    else:
        TABLE.dotu_sub[j.code - DT_COMPLEX64](k, a, j.inca, b, j.incb, out)


cdef void run_dot(int code, int isz, int64_t k, char* a, blas_int inca, char* b,
                  blas_int incb, char* c) noexcept nogil:
    """``c = sum(a[i] * b[i])`` over ``k`` elements with element increments (no conjugate);
    from DOT_SPLIT elements in fixed ranges whose results are added in order."""
    cdef DotJob job
    cdef int64_t parts = 1, u
    if SPLIT and k >= DOT_SPLIT:
        parts = min(PARTS, k // DOT_UNIT)
    job.code, job.isz, job.k, job.a, job.b, job.inca, job.incb = code, isz, k, a, b, inca, incb
    job.per = (k + parts - 1) // parts
    parts = (k + job.per - 1) // job.per
    if parts < 2 or iterate.threads_now() == 1:
        for u in range(parts):
            dot_unit(&job, u)
    else:
        iterate.parallel_for(parts, dot_unit, &job)
    memset(c, 0, isz)
    for u in range(parts):
        add_into(code, c, job.part + u * 16, 1)


# --- Gram matrix ---------------------------------------------------------------------------

cdef int64_t gram_parts(int64_t n, int64_t k, int isz) noexcept nogil:
    """The ranges of ``k`` a Gram matrix's sum is cut into (1: not cut): a tall operand's,
    each range at least GRAM_TALL times ``n`` long and their partial triangles at most
    GRAM_SCRATCH bytes."""
    if n * n * k // 2 < 2 * UNIT_WORK:
        return 1
    return max(1, min(PARTS, k // max(GRAM_TALL * n, 256), GRAM_SCRATCH // (n * n * isz) + 1))


cdef struct GramJob:
    int code, isz
    char trans
    blas_int n, k, lda
    char* a
    char* c
    char* partial
    int64_t per
    int64_t bounds[17]


cdef void gram_panel(void* ctx, int64_t u) noexcept nogil:
    """Column panel ``u`` of the lower triangle (column-major): its diagonal block by syrk,
    the block below it by gemm."""
    cdef GramJob* j = <GramJob*>ctx
    cdef blas_int j0 = j.bounds[u], j1 = j.bounds[u + 1]
    cdef blas_int w = j1 - j0, below = j.n - j1
    cdef char uplo = b"L"
    cdef char other = b"N" if j.trans == b"T" else b"T"
    cdef int64_t step = j.lda if j.trans == b"T" else 1
    cdef char* c = j.c + (j0 + <int64_t>j0 * j.n) * j.isz
    if w <= 0:
        return
    TABLE.syrk[j.code - DT_FLOAT32](&uplo, &j.trans, &w, &j.k, one(j.code),
                                    j.a + j0 * step * j.isz, &j.lda, &ZERO, c, &j.n)
    if below > 0:
        TABLE.gemm[j.code - DT_FLOAT32](&j.trans, &other, &below, &w, &j.k, one(j.code),
                                        j.a + j1 * step * j.isz, &j.lda,
                                        j.a + j0 * step * j.isz, &j.lda, &ZERO, c + w * j.isz,
                                        &j.n)


cdef void gram_range(void* ctx, int64_t u) noexcept nogil:
    """Range ``u`` of the sum: its lower triangle into ``c`` (range 0) or partial ``u - 1``."""
    cdef GramJob* j = <GramJob*>ctx
    cdef int64_t lo = u * j.per
    cdef blas_int k = min(j.per, j.k - lo)
    cdef char uplo = b"L"
    cdef int64_t step = 1 if j.trans == b"T" else j.lda
    cdef char* c = j.c if u == 0 else j.partial + (u - 1) * <int64_t>j.n * j.n * j.isz
    TABLE.syrk[j.code - DT_FLOAT32](&uplo, &j.trans, &j.n, &k, one(j.code),
                                    j.a + lo * step * j.isz, &j.lda, &ZERO, c, &j.n)


cdef void run_gram(int code, int isz, char trans, blas_int n, blas_int k, char* a,
                   blas_int lda, char* c, char* work) noexcept nogil:
    """One triangle of the symmetric ``a @ a.T`` (``trans`` "T": a is given as its column-major
    transpose) or ``a.T @ a`` ("N") into ``c`` (n x n): BLAS's lower triangle, which is the
    upper one of the row-major ``c`` (as NumPy's row-major upper call: OpenBLAS's upper
    kernel packed the operand through a slower transposing copy, 12.5 against 9.1 ms for the
    Gram matrix of 20000 x 200 float64 here).

    A tall operand's sum is cut into ``gram_parts`` ranges, their triangles added in order
    (``work`` holds all but the first); another's triangle into column panels of about equal
    area (at most GRAM_PANELS, each at least UNIT_WORK), which read the operand again each.
    """
    cdef GramJob job
    cdef int64_t parts = gram_parts(n, k, isz) if SPLIT else 1
    cdef int64_t units = 1, u, col
    cdef double left
    job.code, job.isz, job.trans, job.n, job.k, job.lda, job.a, job.c, job.partial = (
        code, isz, trans, n, k, lda, a, c, work)
    if parts > 1:
        job.per = (k + parts - 1) // parts
        units = (k + job.per - 1) // job.per
        if iterate.threads_now() == 1:
            for u in range(units):
                gram_range(&job, u)
        else:
            iterate.parallel_for(units, gram_range, &job)
        for u in range(1, units):
            for col in range(n):
                add_into(code, c + (col + col * <int64_t>n) * isz,
                         work + ((u - 1) * <int64_t>n * n + col + col * <int64_t>n) * isz,
                         n - col)
        return
    if SPLIT and <int64_t>n * n * k // 2 >= 2 * UNIT_WORK:
        units = max(1, min(GRAM_PANELS, <int64_t>n * n * k // 2 // UNIT_WORK, n // UNIT_ALIGN))
    # Panel u starts where the triangle to its right holds (units - u) / units of the area.
    for u in range(units + 1):
        left = 1.0 - <double>u / units
        job.bounds[u] = n - <int64_t>(n * sqrt(left) + 0.5)
    job.bounds[units] = n
    if units < 2 or iterate.threads_now() == 1:
        for u in range(units):
            gram_panel(&job, u)
    else:
        iterate.parallel_for(units, gram_panel, &job)

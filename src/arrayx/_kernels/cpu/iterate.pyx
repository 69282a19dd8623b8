"""The one strided driver of the CPU kernels.

It takes a coalesced iteration space (``ndim`` dimensions, the last one innermost), the base
pointers of ``nop`` operands and their element strides (``strides[k * ndim + d]``), and hands
2-D blocks (the last two dimensions, or row and column chunks of them) to a typed ``loop2d_fn``.
Above a size threshold the blocks are spread over the threads of arrayx's own pool
(``ax_pool.hpp``): each parallel loop below is a context struct and a function of one unit.
"""
import os

from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from arrayx._kernels.cpu.dispatch cimport kernels, take_of
from arrayx._kernels.cpu.kernels cimport (
    argextreme_fn, fold_init_fn, loop2d_fn, scan_fn, take_fn, total_fn,
)

cdef extern from "ax_pool.hpp" nogil:
    void pool_parallel_for "ax_pool::parallel_for"(int64_t units, int threads, unit_fn fn,
                                                    void* ctx)

# Below this many elements a kernel runs on the calling thread: on a busy machine waking a
# second thread (which may have to wait for a core) costs more than it saves.
cdef int64_t PARALLEL_MIN = 1 << 18
# A parallel work unit covers about this many elements.
cdef int64_t BLOCK = 1 << 15
# Units a thread is given at the least, where an op's cost makes its blocks smaller.
cdef int64_t UNITS_PER_THREAD = 8
# Side of the square tiles a block is walked in when an operand is transposed.
cdef int64_t TILE = 64

cdef int num_threads = 1


# More threads than this are a mistake, not a wish.
MAX_THREADS = 1024


def _cores() -> int:
    """The cores this process may run on (its affinity mask, as OpenMP counts them)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _omp_num_threads() -> int | None:
    """``OMP_NUM_THREADS``'s first count when it is a valid one (users set it to cap every
    library's threads), else None."""
    first = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    return int(first) if first.isdigit() and 1 <= int(first) <= MAX_THREADS else None


def _default_threads() -> int:
    env = os.environ.get("ARRAYX_NUM_THREADS")
    if env:
        try:
            n = int(env)
        except ValueError:
            raise ValueError(f"ARRAYX_NUM_THREADS must be an int, got {env!r}") from None
        if not 1 <= n <= MAX_THREADS:  # as set_num_threads refuses it, not clamped
            raise ValueError(f"ARRAYX_NUM_THREADS must be from 1 to {MAX_THREADS}, got {env!r}")
        return n
    return _omp_num_threads() or min(_cores(), MAX_THREADS)


def get_num_threads() -> int:
    """The number of threads the CPU kernels use for operations on large arrays.

    Operations of at least 2^18 elements (sizes vary by kernel) run on this many threads of
    arrayx's own pool (the calling thread among them); smaller ones run on the calling thread.
    The default is ``ARRAYX_NUM_THREADS``, else ``OMP_NUM_THREADS`` (as OpenMP libraries read
    it), else every core the process may run on.

    Returns
    -------
    int

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.get_num_threads() >= 1
    True
    """
    return threads_now()


def set_num_threads(n) -> None:
    """Set the number of threads the CPU kernels use for operations on large arrays.

    Reductions give the same result on any thread count: parallel folds cut their input into
    fixed ranges and combine the partial results in order.

    Parameters
    ----------
    n : int
        From 1 to 1024.

    Raises
    ------
    TypeError
        If ``n`` is not an int.
    ValueError
        If ``n`` is not from 1 to 1024.

    Examples
    --------
    >>> import arrayx as xp
    >>> before = xp.get_num_threads()
    >>> xp.set_num_threads(1)
    >>> xp.get_num_threads()
    1
    >>> xp.set_num_threads(before)
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"the thread count must be an int, got {n!r}")
    if not 1 <= n <= MAX_THREADS:
        raise ValueError(f"the thread count must be from 1 to {MAX_THREADS}, got {n}")
    ax_store_int(&num_threads, n)


ax_store_int(&num_threads, _default_threads())


cdef inline void run_unit(loop2d_fn fn, int nop, int ndim, const int64_t* shape, char** base,
                          const int64_t* strides, const int* itemsize, int64_t unit,
                          int64_t row_blocks, int64_t col_blocks, int64_t rows_per,
                          int64_t cols_per, bint tiled, const loop2d_fn* casts) noexcept nogil:
    cdef char* ptrs[MAX_OPERANDS]
    cdef char* tile[MAX_OPERANDS]
    cdef int64_t st[2 * MAX_OPERANDS]
    cdef int64_t cb = unit % col_blocks
    cdef int64_t rest = unit // col_blocks
    cdef int64_t rb = rest % row_blocks
    cdef int64_t outer = rest // row_blocks
    cdef int64_t r0 = rb * rows_per
    cdef int64_t c0 = cb * cols_per
    cdef int64_t nr = min(rows_per, shape[ndim - 2] - r0)
    cdef int64_t nc = min(cols_per, shape[ndim - 1] - c0)
    cdef int64_t idx, off, i, j
    cdef int k, d
    for k in range(nop):
        off = r0 * strides[k * ndim + ndim - 2] + c0 * strides[k * ndim + ndim - 1]
        idx = outer
        d = ndim - 3
        while d >= 0:
            off += (idx % shape[d]) * strides[k * ndim + d]
            idx = idx // shape[d]
            d -= 1
        ptrs[k] = base[k] + off * itemsize[k]
        st[2 * k] = strides[k * ndim + ndim - 2]
        st[2 * k + 1] = strides[k * ndim + ndim - 1]
    if casts != NULL:
        run_buffered(fn, nop, ptrs, st, itemsize, nr, nc, casts)
        return
    if not tiled:
        fn(ptrs, st, nr, nc)
        return
    # Walk the block in TILE x TILE tiles so an operand read across its rows stays in cache.
    i = 0
    while i < nr:
        j = 0
        while j < nc:
            for k in range(nop):
                tile[k] = ptrs[k] + (i * st[2 * k] + j * st[2 * k + 1]) * itemsize[k]
            fn(tile, st, min(TILE, nr - i), min(TILE, nc - j))
            j += TILE
        i += TILE


cdef inline void run_buffered(loop2d_fn fn, int nop, char** ptrs, const int64_t* st,
                              const int* itemsize, int64_t nr, int64_t nc,
                              const loop2d_fn* casts) noexcept nogil:
    """Run ``fn`` row by row in chunks, casting operands whose ``casts[k]`` is set into
    cache-sized buffers first (inputs only: the last operand is written directly)."""
    cdef double buffers[MAX_OPERANDS][CHUNK * 2]
    cdef char* cptrs[2]
    cdef char* kptrs[MAX_OPERANDS]
    cdef int64_t cst[4]
    cdef int64_t kst[2 * MAX_OPERANDS]
    cdef int64_t i, j, m
    cdef int k
    cst[0] = 0
    cst[2] = 0
    cst[3] = 1
    for i in range(nr):
        j = 0
        while j < nc:
            m = min(CHUNK, nc - j)
            for k in range(nop):
                kptrs[k] = ptrs[k] + (i * st[2 * k] + j * st[2 * k + 1]) * itemsize[k]
                kst[2 * k] = 0
                kst[2 * k + 1] = st[2 * k + 1]
                if casts[k] != NULL:
                    cptrs[0] = kptrs[k]
                    cptrs[1] = <char*>buffers[k]
                    cst[1] = st[2 * k + 1]
                    casts[k](cptrs, cst, 1, m)
                    kptrs[k] = <char*>buffers[k]
                    kst[2 * k + 1] = 1
            fn(kptrs, kst, 1, m)
            j += CHUNK


cdef inline bint needs_tiles(int nop, int ndim, const int64_t* shape,
                             const int64_t* strides) noexcept nogil:
    """Whether some operand runs faster across rows than along them (a transposed operand)."""
    if shape[ndim - 2] < TILE or shape[ndim - 1] < TILE:
        return False
    cdef int k
    cdef int64_t inner, outer
    for k in range(nop):
        inner = strides[k * ndim + ndim - 1]
        outer = strides[k * ndim + ndim - 2]
        if inner < 0:
            inner = -inner
        if outer < 0:
            outer = -outer
        if inner > outer:
            return True
    return False


cdef void run(loop2d_fn fn, int nop, int ndim, const int64_t* shape, char** base,
              const int64_t* strides, const int* itemsize, bint serial=False,
              const loop2d_fn* casts=NULL, int cost=1) noexcept nogil:
    """Run ``fn`` over the whole iteration space; ``ndim`` is at least 2 (pad with size 1).

    ``serial`` keeps it on one thread (for kernels whose blocks share output elements, such
    as a reduction written as an accumulating binary op). ``casts``, when given, holds one
    cast kernel per operand (NULL where none is needed): those inputs are converted to the
    kernel's dtype in buffers of ``CHUNK`` elements as the loop goes, never as whole copies.
    ``cost``: what an element costs against one of ``add`` (``ops.COST``); the threads start
    from ``PARALLEL_MIN`` elements' worth of ``add``.
    """
    cdef int64_t n0 = shape[ndim - 2]
    cdef int64_t n1 = shape[ndim - 1]
    cdef int64_t outer = 1
    cdef int d
    for d in range(ndim - 2):
        outer *= shape[d]
    cdef int64_t total = outer * n0 * n1
    if total == 0:
        return
    cdef int64_t work = total * cost
    cdef char* ptrs[MAX_OPERANDS]
    cdef int k
    cdef int threads = 1 if serial else threads_now()
    cdef int64_t block = BLOCK
    if ndim == 2 and casts == NULL and (threads == 1 or work < PARALLEL_MIN) \
            and not needs_tiles(nop, ndim, shape, strides):
        # One block on this thread: the strides are already the kernel's rows.
        for k in range(nop):
            ptrs[k] = base[k]
        fn(ptrs, strides, n0, n1)
        return
    cdef int64_t rows_per = n0, cols_per = n1
    if threads > 1 and work >= PARALLEL_MIN:
        # Units of BLOCK elements, or fewer for a costly op that has few blocks (at least
        # UNITS_PER_THREAD a thread, down to BLOCK / cost): more, smaller units cost their
        # scheduling where the blocks are many.
        block = max(BLOCK // cost, min(BLOCK, total // (threads * UNITS_PER_THREAD)))
        # Row blocks are multiples of the tiles transposed operands are walked in.
        if n1 >= block:
            cols_per = block
            rows_per = 64
        else:
            rows_per = ((block // n1 + 63) // 64) * 64
    else:
        threads = 1
    cdef int64_t row_blocks = (n0 + rows_per - 1) // rows_per
    cdef int64_t col_blocks = (n1 + cols_per - 1) // cols_per
    cdef int64_t units = outer * row_blocks * col_blocks
    cdef bint tiled = needs_tiles(nop, ndim, shape, strides)
    cdef int64_t u
    if threads == 1 or units == 1:
        for u in range(units):
            run_unit(fn, nop, ndim, shape, base, strides, itemsize, u, row_blocks, col_blocks,
                     rows_per, cols_per, tiled, casts)
        return
    # Units of about BLOCK elements, taken one at a time: a thread that gets no core for a
    # while leaves the rest to the others. Blocks smaller than that (the last two axes hold
    # fewer elements than a block: an outer product per example) are taken several at a
    # time, as many as make a unit.
    cdef RunJob job
    job.fn, job.nop, job.ndim, job.shape, job.base = fn, nop, ndim, shape, base
    job.strides, job.itemsize, job.casts, job.tiled = strides, itemsize, casts, tiled
    job.row_blocks, job.col_blocks, job.rows_per, job.cols_per = (row_blocks, col_blocks,
                                                                   rows_per, cols_per)
    job.units = units
    job.group = max(1, block // (min(rows_per, n0) * min(cols_per, n1)))
    pool_parallel_for((units + job.group - 1) // job.group, threads, run_job_unit, &job)


cdef struct RunJob:
    loop2d_fn fn
    int nop, ndim
    const int64_t* shape
    char** base
    const int64_t* strides
    const int* itemsize
    const loop2d_fn* casts
    bint tiled
    int64_t row_blocks, col_blocks, rows_per, cols_per, units, group


cdef void run_job_unit(void* ctx, int64_t g) noexcept nogil:
    cdef RunJob* j = <RunJob*>ctx
    cdef int64_t u
    for u in range(g * j.group, min((g + 1) * j.group, j.units)):
        run_unit(j.fn, j.nop, j.ndim, j.shape, j.base, j.strides, j.itemsize, u,
                 j.row_blocks, j.col_blocks, j.rows_per, j.cols_per, j.tiled, j.casts)


cdef void parallel_for(int64_t units, unit_fn fn, void* ctx) noexcept nogil:
    """``fn(ctx, u)`` for every ``u`` below ``units``, over the kernel threads (the pool)."""
    pool_parallel_for(units, threads_now(), fn, ctx)


cdef inline int64_t part_start(int64_t part, int64_t n) noexcept nogil:
    """Where range ``part`` of the ``FOLD_PARTS`` ranges of ``n`` elements starts (``part``
    ``FOLD_PARTS`` gives ``n``)."""
    return part * n // FOLD_PARTS


cdef inline void run_part(loop2d_fn fn, int nop, int ndim, const int64_t* shape, char** base,
                          const int64_t* strides, const int* itemsize, const loop2d_fn* casts,
                          int axis, int64_t part, char* private_out) noexcept nogil:
    """Fold range ``part`` along ``axis`` (into ``private_out`` when not NULL)."""
    cdef int64_t sub[MAX_DIMS]
    cdef char* ptrs[MAX_OPERANDS]
    cdef int64_t start = part_start(part, shape[axis])
    cdef int d
    for d in range(ndim):
        sub[d] = shape[d]
    sub[axis] = part_start(part + 1, shape[axis]) - start
    for d in range(nop):
        ptrs[d] = base[d] + start * strides[d * ndim + axis] * itemsize[d]
    if private_out != NULL:
        ptrs[nop - 1] = private_out
    run(fn, nop, ndim, sub, ptrs, strides, itemsize, True, casts)


cdef struct FoldJob:
    loop2d_fn fn
    int nop, ndim, axis
    const int64_t* shape
    char** base
    const int64_t* strides
    const int* itemsize
    const loop2d_fn* casts
    char* buffers   # the private outputs of ranges 1.. (NULL: ranges write disjoint outputs)
    int64_t bytes_per


cdef void fold_part(void* ctx, int64_t p) noexcept nogil:
    cdef FoldJob* j = <FoldJob*>ctx
    run_part(j.fn, j.nop, j.ndim, j.shape, j.base, j.strides, j.itemsize, j.casts, j.axis, p,
             j.buffers + (p - 1) * j.bytes_per if j.buffers != NULL and p else NULL)


cdef int run_fold(loop2d_fn fn, loop2d_fn combine, fold_init_fn init, int nop, int ndim,
                  const int64_t* shape, char** base, const int64_t* strides,
                  const int* itemsize, const loop2d_fn* casts, int64_t out_size) noexcept nogil:
    """Fold the inputs into the last operand, a C-ordered buffer of ``out_size`` accumulators
    seen with stride 0 along the reduced axes (already holding the fold's identity).

    Above ``PARALLEL_MIN`` elements the outermost axis of at least ``FOLD_PARTS`` elements is
    cut into ``FOLD_PARTS`` ranges folded in parallel. Ranges of a kept axis write disjoint
    outputs; ranges of a reduced axis fold into private identity-filled buffers, which
    ``combine`` (the fold of one input into an output, both contiguous) adds to the output in
    range order afterwards, so the result does not depend on the schedule.
    Returns -1 when the private buffers cannot be allocated (nothing is written then).
    """
    cdef int64_t total = 1
    cdef int d, axis = -1
    cdef int out = nop - 1
    for d in range(ndim):
        total *= shape[d]
    for d in range(ndim):
        if shape[d] >= FOLD_PARTS:
            axis = d
            break
    cdef bint reduced = axis >= 0 and strides[out * ndim + axis] == 0
    if total < PARALLEL_MIN or axis < 0 or (reduced and out_size * FOLD_PARTS > total // 4):
        run(fn, nop, ndim, shape, base, strides, itemsize, True, casts)
        return 0
    cdef char* buffers = NULL
    cdef int64_t p, bytes_per = out_size * itemsize[out]
    if reduced:
        buffers = <char*>malloc((FOLD_PARTS - 1) * bytes_per)
        if buffers == NULL:
            return -1
        for p in range(FOLD_PARTS - 1):
            init(buffers + p * bytes_per, out_size)
    cdef FoldJob job
    job.fn, job.nop, job.ndim, job.shape, job.base = fn, nop, ndim, shape, base
    job.strides, job.itemsize, job.casts, job.axis = strides, itemsize, casts, axis
    job.buffers, job.bytes_per = buffers if reduced else NULL, bytes_per
    parallel_for(FOLD_PARTS, fold_part, &job)
    cdef char* ptrs[2]
    cdef int64_t st[4]
    st[0] = 0
    st[1] = 1
    st[2] = 0
    st[3] = 1
    if reduced:
        for p in range(FOLD_PARTS - 1):
            ptrs[0] = buffers + p * bytes_per
            ptrs[1] = base[out]
            combine(ptrs, st, 1, out_size)
        free(buffers)
    return 0


cdef struct ArgJob:
    argextreme_fn fn
    const char* data
    int64_t n
    int itemsize
    bint want_max
    int64_t* found


cdef void arg_part(void* ctx, int64_t p) noexcept nogil:
    cdef ArgJob* j = <ArgJob*>ctx
    cdef int64_t start = part_start(p, j.n)
    j.fn(j.data + start * j.itemsize, &j.found[p], 1, part_start(p + 1, j.n) - start,
         j.want_max)
    j.found[p] = j.found[p] + start


cdef int64_t arg_extreme(argextreme_fn fn, const char* data, int64_t n, int itemsize,
                         bint want_max) noexcept nogil:
    """The position of the first extreme of the contiguous run ``data[0..n)`` (``n >= 1``).

    Above ``PARALLEL_MIN`` elements ``FOLD_PARTS`` ranges are searched in parallel; the
    answer is the first range's candidate that the kernel picks among the candidates.
    """
    cdef int64_t found[FOLD_PARTS]
    cdef char candidates[FOLD_PARTS * 16]
    cdef int64_t p, start, best = 0
    cdef int threads = threads_now()
    if n < PARALLEL_MIN or threads == 1:
        fn(data, &best, 1, n, want_max)
        return best
    cdef ArgJob job
    job.fn, job.data, job.n, job.itemsize, job.want_max, job.found = (fn, data, n, itemsize,
                                                                      want_max, found)
    pool_parallel_for(FOLD_PARTS, threads, arg_part, &job)
    for p in range(FOLD_PARTS):
        memcpy(candidates + p * itemsize, data + found[p] * itemsize, itemsize)
    fn(candidates, &best, 1, FOLD_PARTS, want_max)
    return found[best]


cdef struct ScanJob:
    scan_fn scan
    total_fn total
    const char* data
    int64_t n, row_stride, stride, out_row
    char* out
    int itemsize
    char* totals    # one per range
    char* offsets   # the running total before each range but the first


cdef void scan_row(void* ctx, int64_t r) noexcept nogil:
    cdef ScanJob* j = <ScanJob*>ctx
    j.scan(j.data + r * j.row_stride * j.itemsize, j.n, j.stride,
           j.out + r * j.out_row * j.itemsize, NULL)


cdef void scan_total(void* ctx, int64_t p) noexcept nogil:
    cdef ScanJob* j = <ScanJob*>ctx
    cdef int64_t start = part_start(p, j.n)
    j.total(j.data + start * j.stride * j.itemsize, part_start(p + 1, j.n) - start, j.stride,
            j.totals + p * j.itemsize)


cdef void scan_part(void* ctx, int64_t p) noexcept nogil:
    cdef ScanJob* j = <ScanJob*>ctx
    cdef int64_t start = part_start(p, j.n)
    j.scan(j.data + start * j.stride * j.itemsize, part_start(p + 1, j.n) - start, j.stride,
           j.out + start * j.itemsize, j.offsets + (p - 1) * j.itemsize if p else <char*>NULL)


cdef void run_scan(scan_fn scan, total_fn total, const char* data, int64_t rows, int64_t n,
                   int64_t row_stride, int64_t stride, char* out, int64_t out_row,
                   int itemsize) noexcept nogil:
    """Scan ``rows`` runs of ``n`` elements (strides in elements) into contiguous output rows
    ``out_row`` elements apart.

    Many rows go to the threads a row each. One row above ``PARALLEL_MIN`` elements is cut into
    ``FOLD_PARTS`` ranges: their totals first (in parallel), then each range scanned from the
    running total of those before it (in parallel), whatever the thread count.
    """
    cdef int threads = threads_now()
    cdef int64_t r
    cdef char totals[FOLD_PARTS * 16]
    cdef char offsets[FOLD_PARTS * 16]
    cdef ScanJob job
    job.scan, job.total, job.data, job.n, job.row_stride = scan, total, data, n, row_stride
    job.stride, job.out, job.out_row, job.itemsize = stride, out, out_row, itemsize
    job.totals, job.offsets = totals, offsets
    if rows > 1 or n < PARALLEL_MIN:
        if threads == 1 or rows * n < PARALLEL_MIN or rows < threads:
            for r in range(rows):
                scan_row(&job, r)
        else:
            pool_parallel_for(rows, threads, scan_row, &job)
        return
    pool_parallel_for(FOLD_PARTS, threads, scan_total, &job)
    scan(totals, FOLD_PARTS, 1, offsets, NULL)
    pool_parallel_for(FOLD_PARTS, threads, scan_part, &job)


# Random reads wait on memory, not on arithmetic: gathers go parallel from this many indices.
cdef int64_t GATHER_PARALLEL_MIN = 1 << 16


cdef struct TakeJob:
    take_fn take_1d
    const char* src
    int64_t n, stride, m
    const int64_t* idx
    char* out
    int itemsize
    int64_t* bad    # per range: the position of its first bad index, or -1


cdef void take_part(void* ctx, int64_t p) noexcept nogil:
    cdef TakeJob* j = <TakeJob*>ctx
    cdef int64_t start = part_start(p, j.m)
    j.bad[p] = j.take_1d(j.src, j.n, j.stride, j.idx + start, part_start(p + 1, j.m) - start,
                         j.out + start * j.itemsize, j.itemsize)
    if j.bad[p] >= 0:
        j.bad[p] = j.bad[p] + start


cdef int64_t take(const char* src, int64_t n, int64_t stride, const int64_t* idx, int64_t m,
                  char* out, int itemsize) noexcept nogil:
    """``take_1d`` over ``FOLD_PARTS`` ranges of the indices in parallel (from
    ``GATHER_PARALLEL_MIN`` indices); returns the position of the first bad index, or -1."""
    cdef int threads = threads_now()
    cdef take_fn take_1d = take_of(kernels)
    if threads == 1 or m < GATHER_PARALLEL_MIN:
        return take_1d(src, n, stride, idx, m, out, itemsize)
    cdef int64_t bad[FOLD_PARTS]
    cdef int64_t p
    cdef TakeJob job
    job.take_1d, job.src, job.n, job.stride, job.idx = take_1d, src, n, stride, idx
    job.m, job.out, job.itemsize, job.bad = m, out, itemsize, bad
    pool_parallel_for(FOLD_PARTS, threads, take_part, &job)
    for p in range(FOLD_PARTS):
        if bad[p] >= 0:
            return bad[p]
    return -1

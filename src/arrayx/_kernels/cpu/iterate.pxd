from libc.stdint cimport int64_t

from arrayx._kernels.cpu.kernels cimport (
    argextreme_fn, fold_init_fn, loop2d_fn, scan_fn, total_fn,
)

cdef enum:
    MAX_OPERANDS = 4
    CHUNK = 1024
    MAX_DIMS = 64
    # Large folds, scans and gathers are cut into this many ranges whatever the thread count,
    # so that a float result's rounding does not depend on how many threads ran it.
    FOLD_PARTS = 16

cdef int num_threads

cdef extern from *:
    """
    /* The thread count is read by kernels on any thread while a Python thread may set it:
       relaxed atomic loads and stores (no torn value, no second read of the global). */
    static inline int ax_load_int(const int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void ax_store_int(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    int ax_load_int(const int* p) noexcept nogil
    void ax_store_int(int* p, int v) noexcept nogil


cdef inline int threads_now() noexcept nogil:
    """The kernel thread count, read once (atomically)."""
    return ax_load_int(&num_threads)

ctypedef void (*unit_fn)(void* ctx, int64_t unit) noexcept nogil

cdef void parallel_for(int64_t units, unit_fn fn, void* ctx) noexcept nogil
cdef void run(loop2d_fn fn, int nop, int ndim, const int64_t* shape, char** base,
              const int64_t* strides, const int* itemsize, bint serial=*,
              const loop2d_fn* casts=*, int cost=*) noexcept nogil
cdef int run_fold(loop2d_fn fn, loop2d_fn combine, fold_init_fn init, int nop, int ndim,
                  const int64_t* shape, char** base, const int64_t* strides,
                  const int* itemsize, const loop2d_fn* casts, int64_t out_size) noexcept nogil
cdef int64_t arg_extreme(argextreme_fn fn, const char* data, int64_t n, int itemsize,
                         bint want_max) noexcept nogil
cdef void run_scan(scan_fn scan, total_fn total, const char* data, int64_t rows, int64_t n,
                   int64_t row_stride, int64_t stride, char* out, int64_t out_row,
                   int itemsize) noexcept nogil
cdef int64_t take(const char* src, int64_t n, int64_t stride, const int64_t* idx, int64_t m,
                  char* out, int itemsize) noexcept nogil

# Declarations of the C++ kernel tables (header-only templates in this folder).
from libc.stdint cimport int64_t, uint8_t

cdef extern from "ax_types.hpp" namespace "ax" nogil:
    ctypedef void (*loop2d_fn)(char** ptrs, const int64_t* strides, int64_t n0, int64_t n1)
    int NCODES
    ctypedef void (*fold_init_fn)(char* out, int64_t n)
    ctypedef void (*scan_fn)(const char* data, int64_t n, int64_t stride, char* out,
                             const char* start)
    ctypedef void (*total_fn)(const char* data, int64_t n, int64_t stride, char* out)
    ctypedef void (*argextreme_fn)(const char* data, int64_t* out, int64_t rows, int64_t n,
                                   bint want_max)

cdef extern from "ax_fill.hpp" namespace "ax" nogil:
    ctypedef void (*progression_fn)(char* p, int64_t n, double start_re, double start_im,
                                    double step_re, double step_im)
    ctypedef void (*int_progression_fn)(char* p, int64_t n, int64_t start, int64_t step)
    progression_fn progression_kernel(int code)
    int_progression_fn int_progression_kernel(int code)
    void zero_triangle(char* p, int64_t batch, int64_t rows, int64_t cols, int64_t k,
                       bint keep_lower, int64_t itemsize)

cdef extern from "ax_sort.hpp" namespace "ax" nogil:
    ctypedef void (*sort_fn)(char* data, int64_t rows, int64_t n, bint desc, bint stable)
    ctypedef void (*argsort_fn)(const char* data, int64_t* out, int64_t rows, int64_t n,
                                bint desc, bint stable)
    sort_fn sort_kernel(int code)
    argsort_fn argsort_kernel(int code)
    ctypedef int (*split_fn)(const char* row, int64_t n, bint desc, char* tmp, int64_t* starts)
    ctypedef void (*bucket_fn)(char* source, char* target, int64_t m, bint desc)
    split_fn split_kernel(int code)
    enum: SPLIT_BUCKETS  # ax_radix.hpp's bucket count of a split
    bucket_fn bucket_kernel(int code)
    ctypedef void (*searchsorted_fn)(const char* sorted, int64_t n, const int64_t* sorter,
                                     const char* values, int64_t m, bint right, int64_t* out)
    searchsorted_fn searchsorted_kernel(int code)
    void nonzero_positions(const char* mask, int ndim, const int64_t* shape, int64_t count,
                           int64_t** out)
    ctypedef int64_t (*run_starts_fn)(const char* sorted, int64_t n, int64_t* starts)
    ctypedef void (*isin_fn)(const char* sorted, int64_t n, const char* values, int64_t m,
                             bint invert, char* out)
    run_starts_fn run_starts_kernel(int code)
    isin_fn isin_kernel(int code)
    ctypedef void (*gather_fn)(const char* src, const int64_t* idx, int64_t m, char* out)
    gather_fn gather_kernel(int code)
    ctypedef int64_t (*scatter_add_fn)(const char* values, const int64_t* idx, int64_t m,
                                       int64_t n, char* out)
    scatter_add_fn scatter_add_kernel(int code)

cdef extern from "ax_types.hpp" namespace "ax" nogil:
    ctypedef void (*unit_fn)(void* ctx, int64_t unit) noexcept nogil
    ctypedef void (*run_units_fn)(int64_t units, unit_fn fn, void* ctx) noexcept nogil
    ctypedef void (*rows_sort_fn)(char* data, int64_t rows, int64_t n, bint desc, bint stable)
    ctypedef void (*long_sort_fn)(char* data, int64_t n, bint desc, bint stable, int threads,
                                  run_units_fn run)
    ctypedef void (*packed_argsort_fn)(const char* data, int64_t* out, int64_t rows, int64_t n,
                                       bint desc, int threads, run_units_fn run)
    ctypedef void (*skinny_fn)(const char* a, int64_t as0, int64_t as1, const char* b,
                               char* c, int64_t n, int64_t k, int64_t row0, int64_t rows)
    int SKINNY_VECTORS
    int SKINNY_VECTOR_BYTES
    ctypedef void (*move_blocks_fn)(char* base, const int64_t* offs, int64_t nb, int rnd,
                                    const int64_t* rshape, const int64_t* rstrides, char* flat)
    ctypedef int64_t (*take_fn)(const char* src, int64_t n, int64_t stride, const int64_t* idx,
                                int64_t m, char* out, int itemsize)

cdef extern from "ax_gather.hpp" namespace "ax" nogil:
    int64_t count_true(const uint8_t* mask, int64_t n)
    void compress_rows(const char* src, const uint8_t* mask, int64_t n, int64_t row_bytes,
                       char* dst)
    void expand_rows(char* dst, const uint8_t* mask, int64_t n, int64_t row_bytes,
                     const char* src, int64_t src_step)

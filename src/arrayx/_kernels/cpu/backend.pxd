# The CPU backend: every kernel call that is not an elementwise pass, a fold or a scan (those
# run through the driver, iterate.pxd), on raw pointers, counts and dtype codes. Only the
# engine calls it (linalg's LAPACK loops through the engine's re-export of the LAPACK entries);
# a device backend beside it offers the same functions.
from libc.stdint cimport int64_t, uint8_t, uint64_t

from arrayx._kernels.blas cimport blas_int
from arrayx._kernels.plans cimport MatmulPlan

# Lanes: the rows of a C-ordered buffer (the axis last).
cdef void sort_rows(int code, int itemsize, char* data, int64_t rows, int64_t n, bint desc,
                    bint stable) noexcept nogil
cdef void argsort_rows(int code, int itemsize, const char* data, int64_t* out, int64_t rows,
                       int64_t n, bint desc, bint stable) noexcept nogil
cdef void arg_extreme(int code, int itemsize, const char* data, int64_t* out, int64_t rows,
                      int64_t n, bint want_max) noexcept nogil
cdef int64_t first_outside(const int64_t* idx, int64_t m, int64_t n) noexcept nogil
cdef void searchsorted(int code, const char* sorted, int64_t n, const int64_t* sorter,
                       const char* values, int64_t m, bint right, int64_t* out,
                       int itemsize) noexcept nogil
cdef int64_t run_starts(int code, const char* sorted, int64_t n,
                        int64_t* starts) noexcept nogil
cdef void run_lengths(const int64_t* starts, int64_t groups, int64_t n,
                      int64_t* counts) noexcept nogil
cdef void run_labels(const int64_t* order, const int64_t* starts, int64_t groups, int64_t n,
                     int64_t* labels) noexcept nogil
cdef void isin(int code, const char* sorted, int64_t n, const char* values, int64_t m,
               bint invert, char* out) noexcept nogil
cdef void nonzero_positions(const char* mask, int ndim, const int64_t* shape, int64_t count,
                            int64_t** out) noexcept nogil

# Gathers and scatters.
cdef void gather(int code, const char* src, const int64_t* idx, int64_t m,
                 char* out) noexcept nogil
cdef int64_t scatter_add(int code, const char* values, const int64_t* idx, int64_t m,
                         int64_t n, char* out) noexcept nogil
cdef int64_t take(const char* src, int64_t n, int64_t stride, const int64_t* idx, int64_t m,
                  char* out, int itemsize) noexcept nogil
cdef void gather_blocks(int code, char* base, const int64_t* offs, int64_t nb, int rnd,
                        const int64_t* rshape, const int64_t* rstrides,
                        char* flat) noexcept nogil
cdef void scatter_blocks(int code, char* base, const int64_t* offs, int64_t nb, int rnd,
                         const int64_t* rshape, const int64_t* rstrides,
                         char* flat) noexcept nogil
cdef int64_t count_true(const uint8_t* mask, int64_t n) noexcept nogil
cdef void compress_rows(const char* src, const uint8_t* mask, int64_t n, int64_t row_bytes,
                        char* dst) noexcept nogil
cdef void expand_rows(char* dst, const uint8_t* mask, int64_t n, int64_t row_bytes,
                      const char* src, int64_t src_step) noexcept nogil

# Fills.
cdef void progression(int code, char* p, int64_t n, double start_re, double start_im,
                      double step_re, double step_im) noexcept nogil
cdef void int_progression(int code, char* p, int64_t n, int64_t start,
                          int64_t step) noexcept nogil
cdef void zero_triangle(char* p, int64_t batch, int64_t rows, int64_t cols, int64_t k,
                        bint keep_lower, int64_t itemsize) noexcept nogil

# Matrix products: the plan (which BLAS routine or kernel, operands to copy first), then the run.
cdef int plan_matmul(MatmulPlan* p, int code, int isz, char* a, int nda, const int64_t* sha,
                     const int64_t* sta, char* b, int ndb, const int64_t* shb,
                     const int64_t* stb) noexcept nogil
cdef int load_blas() except -1
cdef void matmul(int code, int itemsize, MatmulPlan* p, char* c) noexcept nogil

# LAPACK on column-major buffers, overwritten in place; each returns LAPACK's info (after
# load_blas).
cdef blas_int getrf(int code, blas_int n, char* a, blas_int* ipiv) noexcept nogil
cdef void getrs(int code, char trans, blas_int n, blas_int nrhs, char* lu, blas_int* ipiv,
                char* b) noexcept nogil
cdef blas_int potrf(int code, char uplo, blas_int n, char* a) noexcept nogil
cdef blas_int evd(int code, char jobz, blas_int n, char* a, char* w, char* work,
                  blas_int lwork, char* rwork, blas_int lrwork, blas_int* iwork,
                  blas_int liwork) noexcept nogil
cdef blas_int gesdd(int code, char jobz, blas_int m, blas_int n, char* a, char* s, char* u,
                    blas_int ldu, char* vt, blas_int ldvt, char* work, blas_int lwork,
                    char* rwork, blas_int* iwork) noexcept nogil
cdef blas_int geqrf(int code, blas_int m, blas_int n, char* a, char* tau, char* work,
                    blas_int lwork) noexcept nogil
cdef blas_int orgqr(int code, blas_int m, blas_int n, blas_int k, char* a, char* tau,
                    char* work, blas_int lwork) noexcept nogil
cdef blas_int geev(int code, char jobvr, blas_int n, char* a, char* w, char* wi, char* vr,
                   char* work, blas_int lwork, char* rwork) noexcept nogil

# Content digests (dask's tokens).
cdef int content_hash(const char* data, int64_t nbytes, uint64_t* out) noexcept nogil

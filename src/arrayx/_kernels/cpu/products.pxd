# Floating-point matrix products on BLAS, split over arrayx's pool (products.pyx).
from libc.stdint cimport int64_t

from arrayx._kernels.blas cimport blas_int
from arrayx._kernels.plans cimport MatmulPlan

cdef int bind() except -1
cdef const void* one(int code) noexcept nogil
cdef int64_t gemv_parts(char order, int64_t rows, int64_t cols) noexcept nogil
cdef int64_t gram_parts(int64_t n, int64_t k, int isz) noexcept nogil
cdef void run_gemm(int code, int isz, MatmulPlan* p, char* c) noexcept nogil
cdef void run_gemv(int code, int isz, char order, blas_int rows, blas_int cols, char* a,
                   blas_int lda, char* x, blas_int incx, char* y, char* work) noexcept nogil
cdef void run_dot(int code, int isz, int64_t k, char* a, blas_int inca, char* b,
                  blas_int incb, char* c) noexcept nogil
cdef void run_gram(int code, int isz, char trans, blas_int n, blas_int k, char* a,
                   blas_int lda, char* c, char* work) noexcept nogil

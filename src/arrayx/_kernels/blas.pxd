# cython: language_level=3
"""BLAS and LAPACK of an ILP64 OpenBLAS, bound at run time: tables of function pointers (one for
LAPACK, one for the products, which may be the same),
indexed by ``code - FLOAT32`` (float32, float64, complex64, complex128) within a family, or by
``code - COMPLEX64`` / ``code - FLOAT32`` for the families that exist for complex or real only.
Arrays are passed as ``void*``: each routine reads them as its own dtype."""
from libc.stdint cimport int64_t

ctypedef int64_t blas_int

ctypedef void (*gemm_t)(const char* ta, const char* tb, const blas_int* m, const blas_int* n,
                        const blas_int* k, const void* alpha, const void* a,
                        const blas_int* lda, const void* b, const blas_int* ldb,
                        const void* beta, void* c, const blas_int* ldc) noexcept nogil
ctypedef void (*syrk_t)(const char* uplo, const char* trans, const blas_int* n,
                        const blas_int* k, const void* alpha, const void* a,
                        const blas_int* lda, const void* beta, void* c,
                        const blas_int* ldc) noexcept nogil
ctypedef void (*gemv_t)(const char* trans, const blas_int* m, const blas_int* n,
                        const void* alpha, const void* a, const blas_int* lda, const void* x,
                        const blas_int* incx, const void* beta, void* y,
                        const blas_int* incy) noexcept nogil
ctypedef float (*sdot_t)(blas_int n, const void* x, blas_int incx, const void* y,
                         blas_int incy) noexcept nogil
ctypedef double (*ddot_t)(blas_int n, const void* x, blas_int incx, const void* y,
                          blas_int incy) noexcept nogil
ctypedef void (*dotu_sub_t)(blas_int n, const void* x, blas_int incx, const void* y,
                            blas_int incy, void* dot) noexcept nogil
ctypedef void (*getrf_t)(const blas_int* m, const blas_int* n, void* a, const blas_int* lda,
                         blas_int* ipiv, blas_int* info) noexcept nogil
ctypedef void (*getrs_t)(const char* trans, const blas_int* n, const blas_int* nrhs,
                         const void* a, const blas_int* lda, const blas_int* ipiv, void* b,
                         const blas_int* ldb, blas_int* info) noexcept nogil
ctypedef void (*trsm_t)(const char* side, const char* uplo, const char* transa, const char* diag,
                        const blas_int* m, const blas_int* n, const void* alpha, const void* a,
                        const blas_int* lda, void* b, const blas_int* ldb) noexcept nogil
ctypedef void (*laswp_t)(const blas_int* n, void* a, const blas_int* lda, const blas_int* k1,
                         const blas_int* k2, const blas_int* ipiv,
                         const blas_int* incx) noexcept nogil
ctypedef void (*potrf_t)(const char* uplo, const blas_int* n, void* a, const blas_int* lda,
                         blas_int* info) noexcept nogil
ctypedef void (*syevd_t)(const char* jobz, const char* uplo, const blas_int* n, void* a,
                         const blas_int* lda, void* w, void* work, const blas_int* lwork,
                         blas_int* iwork, const blas_int* liwork, blas_int* info) noexcept nogil
ctypedef void (*heevd_t)(const char* jobz, const char* uplo, const blas_int* n, void* a,
                         const blas_int* lda, void* w, void* work, const blas_int* lwork,
                         void* rwork, const blas_int* lrwork, blas_int* iwork,
                         const blas_int* liwork, blas_int* info) noexcept nogil
ctypedef void (*gesdd_real_t)(const char* jobz, const blas_int* m, const blas_int* n, void* a,
                              const blas_int* lda, void* s, void* u, const blas_int* ldu,
                              void* vt, const blas_int* ldvt, void* work,
                              const blas_int* lwork, blas_int* iwork,
                              blas_int* info) noexcept nogil
ctypedef void (*gesdd_complex_t)(const char* jobz, const blas_int* m, const blas_int* n,
                                 void* a, const blas_int* lda, void* s, void* u,
                                 const blas_int* ldu, void* vt, const blas_int* ldvt,
                                 void* work, const blas_int* lwork, void* rwork,
                                 blas_int* iwork, blas_int* info) noexcept nogil
ctypedef void (*geqrf_t)(const blas_int* m, const blas_int* n, void* a, const blas_int* lda,
                         void* tau, void* work, const blas_int* lwork,
                         blas_int* info) noexcept nogil
ctypedef void (*orgqr_t)(const blas_int* m, const blas_int* n, const blas_int* k, void* a,
                         const blas_int* lda, const void* tau, void* work,
                         const blas_int* lwork, blas_int* info) noexcept nogil
ctypedef void (*geev_real_t)(const char* jobvl, const char* jobvr, const blas_int* n, void* a,
                             const blas_int* lda, void* wr, void* wi, void* vl,
                             const blas_int* ldvl, void* vr, const blas_int* ldvr, void* work,
                             const blas_int* lwork, blas_int* info) noexcept nogil
ctypedef void (*geev_complex_t)(const char* jobvl, const char* jobvr, const blas_int* n,
                                void* a, const blas_int* lda, void* w, void* vl,
                                const blas_int* ldvl, void* vr, const blas_int* ldvr,
                                void* work, const blas_int* lwork, void* rwork,
                                blas_int* info) noexcept nogil

# Every field is a function pointer, in the order of blas.pyx's SYMBOLS, which fills them.
cdef struct Lapack:
    gemm_t gemm[4]
    syrk_t syrk[4]
    gemv_t gemv[4]
    sdot_t sdot
    ddot_t ddot
    dotu_sub_t dotu_sub[2]
    getrf_t getrf[4]
    getrs_t getrs[4]
    potrf_t potrf[4]
    syevd_t syevd[2]
    heevd_t heevd[2]
    gesdd_real_t gesdd_real[2]
    gesdd_complex_t gesdd_complex[2]
    geqrf_t geqrf[4]
    orgqr_t orgqr[4]
    geev_real_t geev_real[2]
    geev_complex_t geev_complex[2]
    trsm_t trsm[4]
    laswp_t laswp[4]

cdef const Lapack* lapack() except NULL
cdef const Lapack* products() except NULL

from libc.stdint cimport int64_t

from arrayx._core.layout cimport MAXDIM, Layout
from arrayx._core.storage cimport Storage
from arrayx._kernels.cpu.backend cimport (  # the CPU's LAPACK, for linalg's loops
    blas_int, evd, geev, geqrf, gesdd, getrf, getrs, load_blas, orgqr, potrf,
)
from arrayx._kernels.cpu.kernels cimport fold_init_fn, loop2d_fn
from arrayx._kernels.dtype_codes cimport NDTYPES
from arrayx._kernels.plans cimport MATMUL_BLOCKED, MATMUL_GEMV, MatmulPlan

cdef int ITEMSIZE[NDTYPES]

cdef struct Operand:
    # One operand of a kernel run: its first element, its element strides over the run's
    # shape, the dtype code it is stored in and the one the kernel reads.
    char* data
    const int64_t* strides
    int stored
    int code

cdef struct Fresh:
    # A fresh elementwise result: dtype code, shape and strides of its new buffer.
    int code
    int ndim
    int64_t size
    int64_t shape[MAXDIM]
    int64_t strides[MAXDIM]

cdef Storage allocate(Layout layout, int code, object device, bint zero=*)
cdef int copy_cast(Storage src, Layout sl, int scode, Storage dst, Layout dl,
                   int dcode) except -1
cdef bint may_overlap(Storage a, Layout al, int acode, Storage b, Layout bl,
                      int bcode) noexcept
cdef int scalar_kind(object value) noexcept
cdef int write_scalar(char* ptr, int code, object value) except -1
cdef int int_beyond(int code, object value)
cdef object read_scalar(const char* ptr, int code)
cdef object read_element(Storage s, int64_t offset, int code)
cdef int write_element(Storage s, int64_t offset, int code, object value) except -1
cdef int transfer(Storage src, int64_t skip, Storage dst, int64_t nbytes) except -1
cdef int same_device(Storage a, Storage b, str what) except -1
cdef int run2(loop2d_fn fn, Storage s0, Layout l0, int c0, Storage s1, Layout l1,
              int c1) except -1
cdef int run_n(loop2d_fn fn, int nop, const Operand* ops, int ndim, const int64_t* shape,
               int64_t size, bint serial=*, bint order=*, fold_init_fn fold_init=*,
               int64_t fold_size=*, loop2d_fn fold_combine=*, int cost=*) except -1
cdef int promote_codes(int a, int b) noexcept
cdef Storage unary(int op, Storage s, Layout l, int code, Fresh* out)
cdef Storage binary(int op, Storage sa, Layout la, int ca, Storage sb, Layout lb, int cb,
                    Fresh* out)
cdef Storage binary_scalar(int op, Storage sa, Layout la, int ca, object value,
                           bint reflected, Fresh* out)
cdef tuple where(Storage sc, Layout lc, int cc, Storage sx, Layout lx, int cx,
                 Storage sy, Layout ly, int cy)
cdef int binary_into(int op, Storage sa, Layout la, int ca, Storage sb, Layout lb,
                     int cb, bint same_kind) except -1
cdef int binary_into_scalar(int op, Storage sa, Layout la, int ca, object value) except -1
cdef tuple fold(int op, Storage s, Layout l, int code, int acc, tuple axes)
cdef tuple squared_deviations(Storage s, Layout l, int code, Storage cs, Layout cl,
                              tuple axes)
cdef tuple sum_of_products(Storage s, Layout l, Storage t, Layout tl, int code, tuple axes)
cdef tuple scan(int op, Storage s, Layout l, int code, int acc, int axis,
                bint include_initial, object identity)

# Lanes, sets, gathers, fills and products (the backend of the operands' device).
cdef int sort_rows(Storage s, Layout l, int code, bint desc, bint stable) except -1
cdef int argsort_rows(Storage s, Layout l, int code, Storage out, bint desc,
                      bint stable) except -1
cdef int arg_extreme(Storage s, Layout l, int code, Storage out, bint want_max) except -1
cdef int searchsorted(Storage s, int64_t n, Storage sorter, Storage v, int64_t m, int code,
                      bint right, Storage out) except -1
cdef int64_t run_starts(Storage s, int64_t n, int code, Storage starts) except -1
cdef int run_lengths(Storage starts, int64_t groups, int64_t n, Storage counts) except -1
cdef int run_labels(Storage order, Storage starts, int64_t groups, int64_t n,
                    Storage labels) except -1
cdef int isin(Storage table, int64_t n, Storage values, int64_t m, int code, bint invert,
              Storage out) except -1
cdef int nonzero(Storage mask, Layout l, int64_t count, list outs) except -1
cdef int gather(Storage src, int code, Storage idx, int64_t m, Storage out) except -1
cdef int64_t scatter_add(Storage values, int code, Storage idx, int64_t m, Storage out,
                         int64_t n) except -2
cdef int64_t take(Storage s, Layout l, int code, Storage idx, Layout il,
                  Storage out) except -2
cdef int gather_blocks(Storage src, int code, Storage offs, int64_t nb, int rnd,
                       const int64_t* rshape, const int64_t* rstrides, Storage out) except -1
cdef int scatter_blocks(Storage dst, int code, Storage offs, int64_t nb, int rnd,
                        const int64_t* rshape, const int64_t* rstrides,
                        Storage values) except -1
cdef int64_t count_true(Storage mask, Layout l) except -1
cdef int compress_rows(Storage src, Layout l, int code, Storage mask, Layout ml,
                       int64_t row, Storage out) except -1
cdef int expand_rows(Storage dst, Layout l, int code, Storage mask, Layout ml, int64_t row,
                     Storage values, bint repeat) except -1
cdef int progression(Storage out, int code, int64_t n, double complex start,
                     double complex step) except -1
cdef int int_progression(Storage out, int code, int64_t n, int64_t start,
                         int64_t step) except -1
cdef int zero_triangle(Storage s, Layout l, int code, int64_t k, bint keep_lower) except -1
cdef Storage matmul(Storage sa, Layout la, Storage sb, Layout lb, int code, Layout ol)

# The active ISA level's kernel tables (ax_dispatch.hpp), chosen once at import: every caller of
# a hot kernel (elementwise, casts, folds, scans, arg-extremes, where, gathers, the vector sorts)
# asks ``kernels`` for it (``unary_of(kernels, op, code)``).
from arrayx._kernels.cpu.kernels cimport (
    argextreme_fn, fold_init_fn, long_sort_fn, loop2d_fn, move_blocks_fn, packed_argsort_fn,
    rows_sort_fn, scan_fn, skinny_fn, take_fn, total_fn,
)

cdef extern from "ax_dispatch.hpp" namespace "ax" nogil:
    cppclass KernelSet:
        pass
    loop2d_fn unary_of(const KernelSet* k, int op, int code)
    loop2d_fn binary_of(const KernelSet* k, int op, int code)
    loop2d_fn where_of(const KernelSet* k, int code)
    loop2d_fn cast_of(const KernelSet* k, int src, int dst)
    loop2d_fn fold_of(const KernelSet* k, int op, int code)
    fold_init_fn fold_init_of(const KernelSet* k, int op, int code)
    loop2d_fn squared_deviations_of(const KernelSet* k, int code)
    loop2d_fn products_of(const KernelSet* k, int code)
    scan_fn scan_of(const KernelSet* k, int op, int code)
    total_fn total_of(const KernelSet* k, int op, int code)
    argextreme_fn argextreme_of(const KernelSet* k, int code)
    move_blocks_fn gather_blocks_of(const KernelSet* k, int code)
    move_blocks_fn scatter_blocks_of(const KernelSet* k, int code)
    take_fn take_of(const KernelSet* k)
    rows_sort_fn sort_rows_of(const KernelSet* k, int code)
    long_sort_fn sort_long_of(const KernelSet* k, int code)
    packed_argsort_fn packed_argsort_of(const KernelSet* k, int code)
    skinny_fn skinny_of(const KernelSet* k, int code)

cdef KernelSet* kernels


from libc.stdint cimport int64_t

cdef void sort_axes(int nop, int ndim, const int64_t* strides, int* perm) noexcept nogil
cdef int coalesce(int nop, int ndim, int64_t* shape, int64_t* strides,
                  bint order) noexcept nogil

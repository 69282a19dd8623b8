from libc.stdint cimport int64_t

cdef enum:
    MAXDIM = 64
    INLINE_DIMS = 4
    MAX_COALESCE_OPERANDS = 8

cdef class Layout:
    cdef readonly int ndim
    cdef int64_t* shape_
    cdef int64_t* strides_
    cdef readonly int64_t offset
    cdef readonly int64_t size
    cdef readonly bint c_contiguous
    cdef readonly bint f_contiguous
    cdef object _shape
    cdef int64_t _inline[2 * INLINE_DIMS]

    cdef int64_t min_offset(self) noexcept
    cdef int64_t max_offset(self) noexcept

cdef Layout new_layout(int ndim, const int64_t* shape, const int64_t* strides, int64_t offset)
cdef Layout contiguous(int ndim, const int64_t* shape, bint fortran=*)
cdef Layout contiguous_like(Layout src)
cdef int64_t checked_nbytes(Layout layout, int64_t itemsize) except -1
cdef int64_t add_extent(int64_t total, int64_t extent) except -1

cdef Layout permute(Layout a, object axes)
cdef Layout expand_dims(Layout a, object axes)
cdef Layout squeeze(Layout a, object axes)
cdef Layout broadcast_to(Layout a, int ndim, const int64_t* shape)
cdef int broadcast_strides(Layout a, int ndim, const int64_t* shape, int64_t* out) except -1
cdef Layout flip(Layout a, object axes)
cdef Layout reshape(Layout a, int ndim, const int64_t* shape)
cdef Layout basic_index(Layout a, object key)
cdef Layout slice_first(Layout a, object key)
cdef bint merge_shape(Layout a, int ndim, int64_t* out) noexcept
cdef int broadcast_shapes(list layouts, int64_t* out) except -1
cdef int64_t fresh_strides(int nin, int ndim, const int64_t* shape, const int64_t* strides,
                           int64_t* out) except -1

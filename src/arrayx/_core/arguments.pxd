from libc.stdint cimport int64_t

cdef int parse_shape(object shape, int64_t* out) except -1
cdef object integer(object v, str what)
cdef object exact_sequence(object seq)
cdef int normalize_axis(object axis, int ndim) except -1
cdef tuple reduction_axes(object axis, int ndim)
cdef bint zero_d_axis(object axis, int ndim) except -1
cdef tuple as_items(object arg)
cdef list normalized_axes(object axes, int ndim, str what=*)

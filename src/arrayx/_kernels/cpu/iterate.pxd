from libc.stdint cimport int64_t

from arrayx._kernels.cpu.kernels cimport loop2d_fn

cdef enum:
    MAX_OPERANDS = 4
    CHUNK = 1024

cdef int num_threads
cdef void run(loop2d_fn fn, int nop, int ndim, const int64_t* shape, char** base,
              const int64_t* strides, const int* itemsize, bint serial=*,
              const loop2d_fn* casts=*) noexcept nogil

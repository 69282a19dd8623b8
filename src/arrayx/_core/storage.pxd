cdef class Storage:
    cdef char* data
    cdef void* raw
    cdef size_t capacity  # the bytes allocated at raw (for the reuse cache)
    cdef bint mapped      # raw is a mapping of its own (munmap frees it), not malloc's
    cdef readonly Py_ssize_t nbytes
    cdef readonly object device
    cdef readonly bint host       # the memory is the CPU's: the CPU's kernels serve it
    cdef readonly object owner
    cdef readonly bint readonly

cdef Storage allocate(Py_ssize_t nbytes, bint zero, object device)
cdef Storage wrap(char* data, Py_ssize_t nbytes, object owner, bint readonly, object device)
cdef Storage wrap_aligned(char* data, Py_ssize_t nbytes, object owner, bint readonly,
                          object device, Py_ssize_t align)

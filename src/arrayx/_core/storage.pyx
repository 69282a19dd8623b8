"""``Storage``: one reference-counted buffer, shared by every view of it.

Memory arrayx allocates is 64-byte aligned; buffers of 4 MiB and more are advised to use huge
pages, as NumPy does (first touch of a fresh buffer otherwise costs as much as the work done on
it). Memory owned by someone else (a NumPy array, a DLPack producer, a buffer exporter) is kept
alive through ``owner``. The last view that goes frees the buffer.
"""
from libc.stdint cimport uintptr_t
from libc.stdlib cimport calloc, free, malloc

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE

cdef enum:
    ALIGN = 64
    HUGEPAGE_MIN = 1 << 22
    PAGE = 4096


cdef class Storage:
    """A device-tagged buffer of ``nbytes`` bytes."""

    def __dealloc__(self):
        if self.raw != NULL:
            free(self.raw)
            self.raw = NULL

    @property
    def address(self) -> int:
        """The address of the first byte."""
        return <uintptr_t>self.data

    def __repr__(self) -> str:
        return f"Storage(nbytes={self.nbytes}, device={self.device!r})"


cdef Storage allocate(Py_ssize_t nbytes, bint zero, object device):
    """A fresh buffer of ``nbytes`` bytes (zero-filled when ``zero``)."""
    cdef Storage s = Storage.__new__(Storage)
    cdef size_t n = <size_t>nbytes + ALIGN
    cdef void* raw
    if nbytes < 0:
        raise ValueError(f"negative buffer size {nbytes}")
    with nogil:
        raw = calloc(n, 1) if zero else malloc(n)
    if raw == NULL:
        raise MemoryError(f"arrayx could not allocate {nbytes} bytes")
    s.raw = raw
    s.data = <char*>((<uintptr_t>raw + ALIGN) & ~(<uintptr_t>(ALIGN - 1)))
    cdef size_t offset
    if nbytes >= HUGEPAGE_MIN:
        offset = PAGE - (<uintptr_t>s.data % PAGE)
        madvise(s.data + offset, nbytes - offset, MADV_HUGEPAGE)
    s.nbytes = nbytes
    s.device = device
    s.readonly = False
    return s


cdef Storage wrap(char* data, Py_ssize_t nbytes, object owner, bint readonly, object device):
    """A view of memory that ``owner`` keeps alive."""
    cdef Storage s = Storage.__new__(Storage)
    s.data = data
    s.raw = NULL
    s.nbytes = nbytes
    s.owner = owner
    s.readonly = readonly
    s.device = device
    return s

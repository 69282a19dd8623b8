"""``Storage``: one reference-counted buffer, shared by every view of it.

Memory arrayx allocates is 64-byte aligned; buffers of 4 MiB and more are advised to use huge
pages, as NumPy does (first touch of a fresh buffer otherwise costs as much as the work done on
it), and a few buffers of 128 KiB and more are kept for reuse when freed (``CACHE_SLOTS``
buffers, ``CACHE_BYTES`` in all): the operating system zeroes every page of fresh memory at its first touch, which costs
about as much as a pass of ``exp`` over it, and ``y = exp(x)`` in a loop would pay it on every
call. A zero-filled buffer of 4 MiB or more is a fresh mapping of its own (``mmap``): its pages
are zero until written and none is touched before then, where ``calloc`` from the heap (which
glibc serves after freeing a mapping of that size) would clear every byte. Memory owned by
someone else (a NumPy array, a DLPack producer, a buffer exporter) is kept alive through
``owner``. The last view that goes frees the buffer. Foreign memory that is not
aligned to its element type is copied (``wrap_aligned``): the kernels read elements as C++
types, and a misaligned one is undefined behaviour.

Built with ``-DAX_EXACT_ALLOC`` (the sanitizer build, ``tools/sanitize.sh``), a buffer is
exactly ``nbytes`` long (``posix_memalign``, still 64-byte aligned, no slack and no huge-page
advice), so AddressSanitizer reports an overrun of even one byte past the end.
"""
cimport cython
from libc.stdint cimport uintptr_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

# The CPU device object, set at the end of this module: arrayx._devices, which it comes from,
# may itself use this module while it loads (ARRAYX_DEVICE=cuda:0 registers an allocator).
cdef object CPU = None

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* addr, size_t length, int advice)
    void* mmap(void* addr, size_t length, int prot, int flags, int fd, long offset)
    int munmap(void* addr, size_t length)
    int MADV_HUGEPAGE, MAP_ANONYMOUS, MAP_PRIVATE, PROT_READ, PROT_WRITE
    void* MAP_FAILED

cdef extern from *:
    """
    #include <stdlib.h>
    #ifdef AX_EXACT_ALLOC
    #define AX_EXACT_ALLOC_ON 1
    #else
    #define AX_EXACT_ALLOC_ON 0
    #endif
    #if defined(__SANITIZE_ADDRESS__)
    #include <sanitizer/asan_interface.h>
    #define AX_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
    #else
    #define AX_POISON(p, n) ((void)(p), (void)(n))
    #endif
    /* nbytes exactly (no slack past the end), 64-byte aligned; NULL when out of memory. A
       zero-byte buffer is a valid pointer whose one byte ASan reports any access to. */
    static void* ax_exact_alloc(size_t nbytes) {
        void* p = NULL;
        if (posix_memalign(&p, 64, nbytes ? nbytes : 1) != 0) return NULL;
        if (nbytes == 0) AX_POISON(p, 1);
        return p;
    }
    """
    bint AX_EXACT_ALLOC_ON
    void* ax_exact_alloc(size_t nbytes) nogil

cdef enum:
    ALIGN = 64
    HUGEPAGE_MIN = 1 << 22
    CACHE_MIN = 1 << 17
    PAGE = 4096
    CACHE_SLOTS = 8

# Freed buffers of CACHE_MIN bytes or more wait here for a request they fit (with at most a
# quarter to spare), up to CACHE_SLOTS buffers and CACHE_BYTES bytes; the GIL guards them.
# From CACHE_MIN (glibc's default threshold for serving a request by its own mapping) the C
# allocator would hand such a buffer back to the system when it is freed (unmapping it, or
# trimming the heap's top) and take fresh zeroed pages for the next: a chain of temporaries
# (clip of 10^5 float64: a copy, a maximum and a minimum) paid a page fault per page each
# time, 30x the work.
cdef size_t CACHE_BYTES = 1 << 28
cdef void* cache_raw[CACHE_SLOTS]
cdef size_t cache_capacity[CACHE_SLOTS]
cdef int cache_count = 0
cdef size_t cache_total = 0


cdef void* cache_take(size_t* n) noexcept:
    """A cached buffer of at least ``n[0]`` bytes and at most a quarter more (its capacity
    into ``n[0]``), or NULL."""
    global cache_count, cache_total
    cdef int i, best = -1
    for i in range(cache_count):
        if n[0] <= cache_capacity[i] <= n[0] + n[0] // 4 and (
                best < 0 or cache_capacity[i] < cache_capacity[best]):
            best = i
    if best < 0:
        return NULL
    cdef void* raw = cache_raw[best]
    n[0] = cache_capacity[best]
    cache_total -= cache_capacity[best]
    cache_count -= 1
    cache_raw[best] = cache_raw[cache_count]
    cache_capacity[best] = cache_capacity[cache_count]
    return raw


cdef bint cache_put(void* raw, size_t capacity) noexcept:
    """Keep a freed buffer for reuse, making room by freeing the buffers kept longest; False
    when it is too small or too large to keep (the caller frees it)."""
    global cache_count, cache_total
    if capacity < CACHE_MIN or capacity > CACHE_BYTES:
        return False
    # The newest buffer is the likeliest to be asked for again (a loop frees and requests the
    # same sizes): without eviction, buffers of sizes no longer in use would hold the slots
    # for good and every later request would take fresh pages.
    cdef int i
    while cache_count == CACHE_SLOTS or cache_total + capacity > CACHE_BYTES:
        free(cache_raw[0])
        cache_total -= cache_capacity[0]
        cache_count -= 1
        for i in range(cache_count):
            cache_raw[i] = cache_raw[i + 1]
            cache_capacity[i] = cache_capacity[i + 1]
    cache_raw[cache_count] = raw
    cache_capacity[cache_count] = capacity
    cache_count += 1
    cache_total += capacity
    return True


def cached_bytes() -> int:
    """The bytes of freed buffers kept for reuse."""
    return cache_total


#: Whether freed buffers are kept for reuse (not in the sanitizer build, whose buffers are
#: each exactly as long as asked for).
REUSE = not AX_EXACT_ALLOC_ON


# Every fresh result makes a Storage: a free list spares the allocator.
@cython.freelist(64)
cdef class Storage:
    """A device-tagged buffer of ``nbytes`` bytes."""

    def __dealloc__(self):
        if self.raw != NULL:
            if self.mapped:
                munmap(self.raw, self.capacity)
            elif AX_EXACT_ALLOC_ON or not cache_put(self.raw, self.capacity):
                free(self.raw)
            self.raw = NULL

    @property
    def address(self) -> int:
        """The address of the first byte."""
        return <uintptr_t>self.data

    def __repr__(self) -> str:
        return f"Storage(nbytes={self.nbytes}, device={self.device!r})"


# Allocators of the devices that are not the CPU, by device kind: ``fn(nbytes, zero, device)``
# returns ``(address, owner)``, memory that lives as long as ``owner`` does. A device backend
# registers its own when it loads (``arrayx._kernels.cuda.runtime``), so this module knows no
# device library.
cdef dict DEVICE_ALLOCATORS = {}


def register_allocator(str kind, object fn) -> None:
    """Make ``fn(nbytes, zero, device) -> (address, owner)`` the allocator of ``kind``."""
    DEVICE_ALLOCATORS[kind] = fn


def device_storage(object address, Py_ssize_t nbytes, object owner, object device,
                   bint readonly=False) -> Storage:
    """A Storage of ``nbytes`` bytes at ``address`` in ``device``'s memory, kept alive by
    ``owner`` (a device backend's allocation, or a DLPack producer's tensor)."""
    if device.host:
        raise ValueError("device_storage takes device memory; CPU memory is wrapped by wrap")
    return wrap(<char*><uintptr_t>address, nbytes, owner, readonly, device)


cdef Storage _device_allocate(Py_ssize_t nbytes, bint zero, object device):
    """A fresh buffer in the memory of ``device``, which is not the CPU."""
    fn = DEVICE_ALLOCATORS.get(device.kind)
    if fn is None:
        raise ValueError(f"device {device} is not available here")
    address, owner = fn(nbytes, zero, device)
    return wrap(<char*><uintptr_t>address, nbytes, owner, False, device)


cdef Storage allocate(Py_ssize_t nbytes, bint zero, object device):
    """A fresh buffer of ``nbytes`` bytes (zero-filled when ``zero``) on ``device``."""
    if nbytes < 0:
        raise ValueError(f"negative buffer size {nbytes}")
    if device is not CPU and not device.host:
        return _device_allocate(nbytes, zero, device)
    cdef Storage s = Storage.__new__(Storage)
    cdef size_t n = <size_t>nbytes + ALIGN
    cdef void* raw
    if AX_EXACT_ALLOC_ON:
        with nogil:
            raw = ax_exact_alloc(<size_t>nbytes)
            if raw != NULL and zero:
                memset(raw, 0, <size_t>nbytes)
        if raw == NULL:
            raise MemoryError(f"arrayx could not allocate {nbytes} bytes")
        return _owning(s, raw, <char*>raw, 0, nbytes, device)
    cdef size_t offset
    if zero and nbytes >= HUGEPAGE_MIN:
        return _mapped_zeros(s, <size_t>nbytes, device)
    raw = NULL if zero or n < CACHE_MIN else cache_take(&n)
    cdef bint fresh = raw == NULL
    if fresh and n < HUGEPAGE_MIN:
        # A small request is served from the allocator's free lists at once: releasing the
        # GIL around it would cost more than the call.
        raw = calloc(n, 1) if zero else malloc(n)
    elif fresh:
        with nogil:
            raw = calloc(n, 1) if zero else malloc(n)
    if raw == NULL:
        raise MemoryError(f"arrayx could not allocate {nbytes} bytes")
    _owning(s, raw, <char*>((<uintptr_t>raw + ALIGN) & ~(<uintptr_t>(ALIGN - 1))), n, nbytes,
            device)
    if fresh and nbytes >= HUGEPAGE_MIN:
        offset = PAGE - (<uintptr_t>s.data % PAGE)
        madvise(s.data + offset, nbytes - offset, MADV_HUGEPAGE)
    return s


cdef Storage _owning(Storage s, void* raw, char* data, size_t capacity, Py_ssize_t nbytes,
                     object device):
    """``s`` as the writeable owner of ``raw`` (``capacity`` bytes; its ``nbytes`` from
    ``data``)."""
    s.raw = raw
    s.capacity = capacity
    return _placed(s, data, nbytes, False, device)


cdef inline Storage _placed(Storage s, char* data, Py_ssize_t nbytes, bint readonly,
                            object device):
    """``s`` as ``nbytes`` bytes at ``data`` on ``device``."""
    s.data = data
    s.nbytes = nbytes
    s.readonly = readonly
    s.device = device
    s.host = device is CPU or device.host
    return s


cdef Storage _mapped_zeros(Storage s, size_t nbytes, object device):
    """``s`` on a fresh private mapping of ``nbytes`` zero bytes (page-aligned), none touched."""
    cdef void* raw
    with nogil:
        raw = mmap(NULL, nbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if raw != MAP_FAILED:
            madvise(raw, nbytes, MADV_HUGEPAGE)
    if raw == MAP_FAILED:
        raise MemoryError(f"arrayx could not allocate {nbytes} bytes")
    s.mapped = True
    return _owning(s, raw, <char*>raw, nbytes, nbytes, device)


cdef Storage wrap(char* data, Py_ssize_t nbytes, object owner, bint readonly, object device):
    """A view of memory that ``owner`` keeps alive."""
    cdef Storage s = Storage.__new__(Storage)
    s.owner = owner
    return _placed(s, data, nbytes, readonly, device)


cdef Storage wrap_aligned(char* data, Py_ssize_t nbytes, object owner, bint readonly,
                          object device, Py_ssize_t align):
    """``wrap``, or, when ``data`` is not ``align``-byte aligned, a copy of its ``nbytes`` bytes
    in a fresh (aligned, owner-less, equally read-only) buffer."""
    if nbytes == 0 or <uintptr_t>data % <uintptr_t>align == 0:
        return wrap(data, nbytes, owner, readonly, device)
    cdef Storage s = allocate(nbytes, False, device)
    with nogil:
        memcpy(s.data, data, <size_t>nbytes)
    s.readonly = readonly
    return s


from arrayx._devices import CPU as _CPU  # noqa: E402  (see CPU above)

CPU = _CPU

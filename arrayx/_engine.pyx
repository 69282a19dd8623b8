"""The dispatch layer: allocate outputs, coalesce dimensions, guard overlap, call a kernel.

The engine works on ``(Storage, Layout, dtype code)`` triples, never on ``Array``, so that
``_array`` can import it without a cycle. Every operation that moves or converts data goes
through ``run``: it coalesces the operands' common iteration space and hands it to the CPU
driver (``arrayx._kernels.cpu.iterate``) with a typed 2-D kernel.
"""
from libc.stdint cimport int64_t, uint8_t, uint64_t, uintptr_t
from libc.string cimport memcpy

from arrayx._core.layout cimport (
    MAX_COALESCE_OPERANDS, MAXDIM, Layout, checked_nbytes, coalesce, contiguous_like,
)
from arrayx._core.storage cimport Storage
from arrayx._core.storage cimport allocate as storage_allocate
from arrayx._kernels.cpu.iterate cimport run as cpu_run
from arrayx._kernels.cpu.kernels cimport cast_kernel, loop2d_fn

ITEMSIZE[:] = [1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16]

cdef enum:
    C_BOOL = 0
    C_INT64 = 4
    C_UINT64 = 8
    C_FLOAT64 = 10
    C_COMPLEX128 = 12

# Inclusive bounds of the integer codes, for range checks on Python ints.
_INT_BOUNDS = {
    1: (-(1 << 7), (1 << 7) - 1), 2: (-(1 << 15), (1 << 15) - 1),
    3: (-(1 << 31), (1 << 31) - 1), 4: (-(1 << 63), (1 << 63) - 1),
    5: (0, (1 << 8) - 1), 6: (0, (1 << 16) - 1), 7: (0, (1 << 32) - 1), 8: (0, (1 << 64) - 1),
}


cdef Storage allocate(Layout layout, int code, object device, bint zero=False):
    """A fresh buffer for a C-contiguous ``layout`` of dtype ``code``."""
    return storage_allocate(checked_nbytes(layout, ITEMSIZE[code]), zero, device)


cdef bint may_overlap(Storage a, Layout al, int acode, Storage b, Layout bl,
                      int bcode) noexcept:
    """Whether the bytes two layouts reach can intersect (a cheap, conservative test)."""
    if al.size == 0 or bl.size == 0:
        return False
    cdef uintptr_t a0 = <uintptr_t>a.data + al.min_offset() * ITEMSIZE[acode]
    cdef uintptr_t a1 = <uintptr_t>a.data + (al.max_offset() + 1) * ITEMSIZE[acode]
    cdef uintptr_t b0 = <uintptr_t>b.data + bl.min_offset() * ITEMSIZE[bcode]
    cdef uintptr_t b1 = <uintptr_t>b.data + (bl.max_offset() + 1) * ITEMSIZE[bcode]
    return a0 < b1 and b0 < a1


cdef int run2(loop2d_fn fn, Storage s0, Layout l0, int c0, Storage s1, Layout l1,
              int c1) except -1:
    """Run a two-operand kernel (operand 1 written) over ``l1``'s shape."""
    cdef int n = l1.ndim
    cdef int64_t shape[MAXDIM + 2]
    cdef int64_t strides[2 * (MAXDIM + 2)]
    cdef char* base[2]
    cdef int isz[2]
    cdef int i, nd
    if l1.size == 0:
        return 0
    for i in range(n):
        shape[i] = l1.shape_[i]
        strides[i] = l0.strides_[i]
        strides[n + i] = l1.strides_[i]
    isz[0] = ITEMSIZE[c0]
    isz[1] = ITEMSIZE[c1]
    base[0] = s0.data + l0.offset * isz[0]
    base[1] = s1.data + l1.offset * isz[1]
    with nogil:
        nd = coalesce(2, n, shape, strides)
        cpu_run(fn, 2, nd, shape, base, strides, isz)
    return 0


cdef int copy_cast(Storage src, Layout sl, int scode, Storage dst, Layout dl,
                   int dcode) except -1:
    """Copy ``src`` (already broadcast to ``dl``'s shape) into ``dst``, casting its dtype.

    When the two overlap in memory the source is first copied to a fresh buffer, so the result
    is as if the source had been read whole before anything was written.
    """
    if sl.ndim != dl.ndim:
        raise ValueError(f"copy between shapes {sl.shape} and {dl.shape}")
    cdef Layout tl
    cdef Storage tmp
    if src.data == dst.data and sl.offset == dl.offset and scode == dcode \
            and sl.strides == dl.strides:
        return 0
    if may_overlap(src, sl, scode, dst, dl, dcode):
        tl = contiguous_like(sl)
        tmp = allocate(tl, scode, src.device)
        run2(cast_kernel(scode, scode), src, sl, scode, tmp, tl, scode)
        src, sl = tmp, tl
    return run2(cast_kernel(scode, dcode), src, sl, scode, dst, dl, dcode)


cdef int write_scalar(char* ptr, int code, object value) except -1:
    """Store the Python scalar ``value`` as one element of dtype ``code`` at ``ptr``.

    Python ints are range-checked against integer dtypes (OverflowError, as NumPy);
    floats are truncated towards zero into integer dtypes; complex into a real dtype is a
    TypeError.
    """
    cdef uint8_t b
    cdef int64_t i
    cdef uint64_t u
    cdef double d
    cdef double complex z
    cdef int64_t zero_strides[4]
    cdef char* ptrs[2]
    zero_strides[:] = [0, 0, 0, 0]
    ptrs[1] = ptr
    if isinstance(value, bool):
        b = 1 if value else 0
        ptrs[0] = <char*>&b
        cast_kernel(C_BOOL, code)(ptrs, zero_strides, 1, 1)
    elif isinstance(value, int):
        if 1 <= code <= 8:
            lo, hi = _INT_BOUNDS[code]
            if not lo <= value <= hi:
                raise OverflowError(f"Python integer {value} out of bounds for the dtype")
        if value > 0x7FFFFFFFFFFFFFFF:
            if value > 0xFFFFFFFFFFFFFFFF:
                d = <double>value
                ptrs[0] = <char*>&d
                cast_kernel(C_FLOAT64, code)(ptrs, zero_strides, 1, 1)
            else:
                u = value
                ptrs[0] = <char*>&u
                cast_kernel(C_UINT64, code)(ptrs, zero_strides, 1, 1)
        elif value < -0x8000000000000000:
            d = <double>value
            ptrs[0] = <char*>&d
            cast_kernel(C_FLOAT64, code)(ptrs, zero_strides, 1, 1)
        else:
            i = value
            ptrs[0] = <char*>&i
            cast_kernel(C_INT64, code)(ptrs, zero_strides, 1, 1)
    elif isinstance(value, float):
        d = value
        ptrs[0] = <char*>&d
        cast_kernel(C_FLOAT64, code)(ptrs, zero_strides, 1, 1)
    elif isinstance(value, complex):
        if code < 11:
            raise TypeError(f"cannot store the complex value {value!r} in a real dtype")
        z = value
        ptrs[0] = <char*>&z
        cast_kernel(C_COMPLEX128, code)(ptrs, zero_strides, 1, 1)
    else:
        raise TypeError(f"expected a Python scalar, got {type(value).__name__}")
    return 0


cdef object read_scalar(const char* ptr, int code):
    """The element of dtype ``code`` at ``ptr`` as a Python scalar."""
    if code == 0:
        return (<const uint8_t*>ptr)[0] != 0
    if code == 1:
        return (<const signed char*>ptr)[0]
    if code == 2:
        return (<const short*>ptr)[0]
    if code == 3:
        return (<const int*>ptr)[0]
    if code == 4:
        return (<const long long*>ptr)[0]
    if code == 5:
        return (<const unsigned char*>ptr)[0]
    if code == 6:
        return (<const unsigned short*>ptr)[0]
    if code == 7:
        return (<const unsigned int*>ptr)[0]
    if code == 8:
        return (<const unsigned long long*>ptr)[0]
    if code == 9:
        return <double>(<const float*>ptr)[0]
    if code == 10:
        return (<const double*>ptr)[0]
    if code == 11:
        return complex((<const float*>ptr)[0], (<const float*>ptr)[1])
    return complex((<const double*>ptr)[0], (<const double*>ptr)[1])

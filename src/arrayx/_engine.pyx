"""The dispatch layer: allocate outputs, coalesce dimensions, guard overlap, call a kernel.

The engine works on ``(Storage, Layout, dtype code)`` triples, never on ``Array``, so that
``_array`` can import it without a cycle, and it is the only caller of kernels. Elementwise
passes, casts, folds and scans coalesce the operands' common iteration space and hand it to
the CPU driver (``arrayx._kernels.cpu.iterate``) with a typed 2-D kernel from the tables of
the CPU's ISA level (``arrayx._kernels.cpu.dispatch``). Sorts, searches, set runs, gathers and
scatters, fills and matrix products are entries at the end of this module that pick the
backend of their operands' device (``arrayx._kernels.cpu.backend`` for the CPU).
"""
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.ref cimport PyObject
from libc.stdint cimport INT64_MAX, INT64_MIN, int64_t, uint8_t, uint64_t, uintptr_t
from libc.string cimport memcpy

from arrayx._core.layout cimport (
    MAXDIM, Layout, broadcast_strides, broadcast_to, checked_nbytes, contiguous,
    contiguous_like, fresh_strides, merge_shape, new_layout,
)
from arrayx._core.plan cimport coalesce
from arrayx._core.layout cimport reshape as layout_reshape
from arrayx._core.storage cimport Storage
from arrayx._core.storage cimport allocate as storage_allocate
from arrayx._kernels.cpu.iterate cimport run as cpu_run
from arrayx._kernels.cpu.iterate cimport run_fold, run_scan
from arrayx._kernels.cpu.dispatch cimport (
    binary_of, cast_of, fold_init_of, fold_of, kernels, products_of, scan_of,
    squared_deviations_of, total_of, unary_of, where_of,
)
from arrayx._kernels.cpu cimport backend as cpu
from arrayx._kernels.cpu.kernels cimport fold_init_fn, loop2d_fn, scan_fn, total_fn
from arrayx._kernels.dtype_codes cimport (
    DT_BOOL, DT_COMPLEX64, DT_COMPLEX128, DT_FLOAT32, DT_FLOAT64, DT_INT8, DT_INT16, DT_INT32,
    DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, KB_BOOL, KB_COMPLEX, KB_INT, NDTYPES,
    component_code, of_kind,
)
from arrayx._kernels.op_ids cimport (
    FOLD_PROD, FOLD_SUM, OP_ADD, OP_EQUAL, OP_GREATER, OP_GREATER_EQUAL, OP_LESS,
    OP_LESS_EQUAL, OP_MULTIPLY, OP_NOT_EQUAL, OP_SUBTRACT,
)

import numpy as _np

from arrayx._kernels import dtypes as _registry
# The CPU backend's thread count, which the namespace exports.
from arrayx._kernels.cpu.iterate import get_num_threads, set_num_threads  # noqa: F401
from arrayx import _devices

cdef object CPU_DEVICE = _devices.CPU

for _code in range(NDTYPES):
    ITEMSIZE[_code] = _registry.ITEMSIZE[_code]

# Kernels over at least this many elements release the GIL while they run; below it, taking
# the GIL back would cost more than other Python threads could gain.
cdef int64_t NOGIL_MIN = 1 << 14

# Inclusive bounds of each integer code, Python ints from NumPy's iinfo of the registry's
# dtypes (the one table: clip's bounds read it too); INT_LO and INT_HI hold them for range
# checks on Python ints in C (uint64's upper bound beyond int64 is checked apart), bool's too.
INT_RANGE = {c: (int(_info.min), int(_info.max)) for c, _info in
             ((c, _np.iinfo(_registry.NAMES[c])) for c in range(NDTYPES) if of_kind(c, KB_INT))}
cdef int64_t INT_LO[NDTYPES]
cdef int64_t INT_HI[NDTYPES]
for _code in range(NDTYPES):
    if _code in INT_RANGE:
        INT_LO[_code] = INT_RANGE[_code][0]
        INT_HI[_code] = min(INT_RANGE[_code][1], INT64_MAX)
    else:
        INT_LO[_code], INT_HI[_code] = 0, 1


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
    """Run a two-operand kernel (operand 1 written) over ``l1``'s shape, in the order the
    operands' strides favour (the caller has ruled out harmful overlap)."""
    cdef Operand ops[2]
    ops[0] = operand(s0, l0, c0, c0)
    ops[1] = operand(s1, l1, c1, c1)
    return run_n(fn, 2, ops, l1.ndim, l1.shape_, l1.size, False, True)


cdef inline int execute(loop2d_fn fn, int nop, int n, int64_t* dims, char** base,
                        int64_t* strides, int* isz, bint serial, bint order,
                        const loop2d_fn* casts, fold_init_fn fold_init, loop2d_fn fold_combine,
                        int64_t fold_size, int cost) noexcept nogil:
    """Coalesce the iteration space, then run the kernel (or the fold); non-zero when a
    parallel fold found no memory for its partial results."""
    cdef int nd = coalesce(nop, n, dims, strides, order)
    if fold_init != NULL:
        return run_fold(fn, fold_combine, fold_init, nop, nd, dims, base, strides, isz, casts,
                        fold_size)
    cpu_run(fn, nop, nd, dims, base, strides, isz, serial, casts, cost)
    return 0


cdef inline int launch(loop2d_fn fn, int nop, int n, int64_t* dims, char** base,
                       int64_t* strides, int* isz, bint serial, bint order,
                       const loop2d_fn* casts, fold_init_fn fold_init, loop2d_fn fold_combine,
                       int64_t fold_size, int64_t size, int cost) except -1:
    """``execute``, without the GIL when it runs over ``size`` >= NOGIL_MIN elements."""
    cdef int status
    if size >= NOGIL_MIN:
        with nogil:
            status = execute(fn, nop, n, dims, base, strides, isz, serial, order, casts,
                             fold_init, fold_combine, fold_size, cost)
    else:
        status = execute(fn, nop, n, dims, base, strides, isz, serial, order, casts,
                         fold_init, fold_combine, fold_size, cost)
    if status:
        raise MemoryError("no memory for a parallel reduction's partial results")
    return 0


cdef inline bint same_view(Storage a, Layout al, int acode, Storage b, Layout bl,
                           int bcode) noexcept:
    """Whether two layouts see the same elements of the same memory, element for element."""
    if a.data != b.data or al.offset != bl.offset or acode != bcode or al.ndim != bl.ndim:
        return False
    cdef int i
    for i in range(al.ndim):
        if al.shape_[i] != bl.shape_[i] or (al.strides_[i] != bl.strides_[i]
                                            and al.shape_[i] != 1):
            return False
    return True


cdef int copy_cast(Storage src, Layout sl, int scode, Storage dst, Layout dl,
                   int dcode) except -1:
    """Copy ``src`` (already broadcast to ``dl``'s shape) into ``dst``, casting its dtype.

    When the two overlap in memory the source is first copied to a fresh buffer, so the result
    is as if the source had been read whole before anything was written.
    """
    if sl.ndim != dl.ndim:
        raise ValueError(f"copy between shapes {sl.shape} and {dl.shape}")
    if same_view(src, sl, scode, dst, dl, dcode):
        return 0
    if may_overlap(src, sl, scode, dst, dl, dcode):
        src, sl = _cast_copy(src, sl, scode, scode)
    return _run_cast(src, sl, scode, dst, dl, dcode)


cdef int _run_cast(Storage src, Layout sl, int scode, Storage dst, Layout dl,
                   int dcode) except -1:
    """The cast kernel from ``src`` to ``dst`` on their device (no overlap to guard)."""
    if src.host and dst.host:
        return run2(cast_of(kernels, scode, dcode), src, sl, scode, dst, dl, dcode)
    same_device(src, dst, "copy")
    cdef Operand ops[2]
    ops[0] = operand(src, sl, scode, scode)
    ops[1] = operand(dst, dl, dcode, dcode)
    return run_device(dst.device, "cast", "cast", (scode, dcode), 2, ops, dl.ndim, dl.shape_,
                      dl.size)


cdef inline void _store(char* ptr, int code, int src, const void* value) noexcept:
    """Cast the one element of dtype ``src`` at ``value`` into ``ptr`` as dtype ``code``."""
    cdef int64_t zero_strides[4]
    cdef char* ptrs[2]
    zero_strides[:] = [0, 0, 0, 0]
    ptrs[0] = <char*>value
    ptrs[1] = ptr
    cast_of(kernels, src, code)(ptrs, zero_strides, 1, 1)


cdef int scalar_kind(object value) noexcept:
    """The kind of a Python scalar: 0 bool, 1 int, 2 float, 3 complex; -1 for anything else."""
    if type(value) is float:
        return 2
    if type(value) is int:
        return 1
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return 1
    if isinstance(value, float):
        return 2
    if isinstance(value, complex):
        return 3
    return -1


cdef int int_beyond(int code, object value):
    """1 where ``value`` is a Python int above every value of the integer dtype ``code``, -1
    where it is below every one, 0 otherwise (in range, not an int, not an integer dtype, or
    strict mode: the standard leaves such an int undefined, and it is refused when written
    as a scalar of ``code``)."""
    if scalar_kind(value) != 1 or not of_kind(code, KB_INT) or _strict.FLAGS.strict:
        return 0
    lo, hi = INT_RANGE[code]
    return 1 if value > hi else -1 if value < lo else 0


# A comparison of an integer array with a Python int its dtype cannot hold has one value for
# every element (1000 > any int8): NumPy (2.x) and PyTorch give it, and so does arrayx outside
# strict mode; the standard leaves it undefined, and strict mode refuses it (OverflowError).
cdef int _comparison_beyond(int op, int code, object value, bint reflected):
    """1 or 0: the comparison ``op`` of every element of dtype ``code`` with ``value``
    (``value`` first when ``reflected``) where ``value`` is an int beyond the dtype; -1 where
    that does not apply."""
    if op not in (OP_EQUAL, OP_NOT_EQUAL, OP_LESS, OP_LESS_EQUAL, OP_GREATER,
                  OP_GREATER_EQUAL):
        return -1
    cdef int side = int_beyond(code, value)
    if side == 0:
        return -1
    if op == OP_EQUAL or op == OP_NOT_EQUAL:
        return op == OP_NOT_EQUAL
    # Whether the element is on the smaller side of the operator: x < v, or v > x reflected.
    cdef bint element_less = (op == OP_LESS or op == OP_LESS_EQUAL) != reflected
    return element_less == (side > 0)


cdef object _int_out_of_bounds(object value, int code):
    return OverflowError(f"Python integer {value} out of bounds for {_dtypes.DTYPES[code]}")


cdef int write_scalar(char* ptr, int code, object value) except -1:
    """Store the Python scalar ``value`` as one element of dtype ``code`` at ``ptr``.

    Python ints are range-checked against integer dtypes (OverflowError, as NumPy);
    floats are truncated towards zero into integer dtypes, then range-checked (NaN is a
    ValueError, infinity and values out of range OverflowError, as NumPy's ``full``); complex
    into a real dtype is a TypeError.
    """
    cdef uint8_t b
    cdef long long i
    cdef int overflow
    cdef uint64_t u
    cdef double d
    cdef double complex z
    cdef int kind = scalar_kind(value)
    if kind == 2:
        if of_kind(code, KB_INT):  # truncated, then range-checked as an int (NaN: ValueError)
            return write_scalar(ptr, code, int(value))
        d = value
        if code == DT_FLOAT64:
            (<double*>ptr)[0] = d
        else:
            _store(ptr, code, DT_FLOAT64, &d)
    elif kind == 1:
        i = PyLong_AsLongLongAndOverflow(value, &overflow)
        if overflow == 0:
            if of_kind(code, KB_INT) and not INT_LO[code] <= i <= INT_HI[code]:
                raise _int_out_of_bounds(value, code)
            if code == DT_INT64:
                (<int64_t*>ptr)[0] = i
            else:
                _store(ptr, code, DT_INT64, &i)
        elif overflow > 0 and value <= 0xFFFFFFFFFFFFFFFF:
            if of_kind(code, KB_INT) and code != DT_UINT64:
                raise _int_out_of_bounds(value, code)
            u = value
            _store(ptr, code, DT_UINT64, &u)
        else:
            if of_kind(code, KB_INT):
                raise _int_out_of_bounds(value, code)
            d = <double>value
            _store(ptr, code, DT_FLOAT64, &d)
    elif kind == 0:
        b = 1 if value else 0
        _store(ptr, code, DT_BOOL, &b)
    elif kind == 3:
        if not of_kind(code, KB_COMPLEX):
            raise TypeError(f"cannot store the complex value {value!r} in a real dtype")
        z = value
        _store(ptr, code, DT_COMPLEX128, &z)
    else:
        raise TypeError(f"expected a Python scalar, got {type(value).__name__}")
    return 0


cdef object read_scalar(const char* ptr, int code):
    """The element of dtype ``code`` at ``ptr`` as a Python scalar."""
    if code == DT_BOOL:
        return (<const uint8_t*>ptr)[0] != 0
    if code == DT_INT8:
        return (<const signed char*>ptr)[0]
    if code == DT_INT16:
        return (<const short*>ptr)[0]
    if code == DT_INT32:
        return (<const int*>ptr)[0]
    if code == DT_INT64:
        return (<const long long*>ptr)[0]
    if code == DT_UINT8:
        return (<const unsigned char*>ptr)[0]
    if code == DT_UINT16:
        return (<const unsigned short*>ptr)[0]
    if code == DT_UINT32:
        return (<const unsigned int*>ptr)[0]
    if code == DT_UINT64:
        return (<const unsigned long long*>ptr)[0]
    if code == DT_FLOAT32:
        return <double>(<const float*>ptr)[0]
    if code == DT_FLOAT64:
        return (<const double*>ptr)[0]
    if code == DT_COMPLEX64:
        return complex((<const float*>ptr)[0], (<const float*>ptr)[1])
    return complex((<const double*>ptr)[0], (<const double*>ptr)[1])


# --- elementwise ----------------------------------------------------------------------------

from arrayx._kernels import ops as _ops

from arrayx import _dtypes, _strict

UNARY_NAMES = [name for name, _, _ in _ops.metadata(_ops.UNARY)]
BINARY_NAMES = [name for name, _, _ in _ops.metadata(_ops.BINARY)]
# NumPy's logical or and and of two bools; refused in strict mode.
cdef tuple _BOOL_ARITHMETIC = (OP_ADD, OP_MULTIPLY)
# The binary ops a scan runs: each has a lane kernel under the fold op of the same name.
cdef dict _SCAN_FOLDS = {OP_ADD: FOLD_SUM, OP_MULTIPLY: FOLD_PROD}
# The codes each dtype-kind name of ops.py accepts, from its kind bits ("K_INT | K_BOOL").
cdef dict _KIND_CODES = {
    kinds: _registry.codes_of("".join(_registry.KIND_MASKS[bits.strip()]
                                      for bits in expression.split("|")))
    for kinds, expression in _ops.KIND_BITS.items()
}
cdef dict _RESULT_MODE = {"same": 0, "bool": 1, "real": 2, "float": 3}
cdef unsigned UNARY_KINDS[64]
cdef unsigned BINARY_KINDS[64]
cdef int UNARY_RESULT[64]
cdef int BINARY_RESULT[64]
# Each op's cost per element against add's (``ops.COST``), for the driver's thread choice.
cdef int UNARY_COST[64]
cdef int BINARY_COST[64]
cdef int PROMOTE[NDTYPES][NDTYPES]
# The dtype a Python scalar of each kind (bool, int, float, complex) takes beside an array of
# each dtype (the standard's weak scalars).
cdef int SCALAR_CODE[NDTYPES][4]
# Whether a result of the first dtype may be written into an array of the second in place
# (NumPy's same_kind casting rule, which NumPy's and CuPy's in-place operators apply).
cdef bint SAME_KIND[NDTYPES][NDTYPES]


def _load_tables() -> None:
    cdef int a, b
    for table, kinds, results in ((_ops.UNARY, 0, 0), (_ops.BINARY, 1, 1)):
        for i, (name, k, r) in enumerate(_ops.metadata(table)):
            mask = 0
            for c in _KIND_CODES[k]:
                mask |= 1 << c
            if kinds == 0:
                UNARY_KINDS[i] = mask
                UNARY_RESULT[i] = _RESULT_MODE[r]
                UNARY_COST[i] = _ops.COST.get(name, 1)
            else:
                BINARY_KINDS[i] = mask
                BINARY_RESULT[i] = _RESULT_MODE[r]
                BINARY_COST[i] = _ops.COST.get(name, 1)
    for a in range(NDTYPES):
        for b in range(NDTYPES):
            PROMOTE[a][b] = _dtypes.CODE[_dtypes.promote(_dtypes.DTYPES[a], _dtypes.DTYPES[b])]
            SAME_KIND[a][b] = _dtypes.same_kind(_dtypes.DTYPES[a], _dtypes.DTYPES[b])
        for b, kind in enumerate(("bool", "int", "float", "complex")):
            SCALAR_CODE[a][b] = _dtypes.CODE[_dtypes.with_scalar(_dtypes.DTYPES[a], kind)]


_load_tables()


cdef inline int compute_code(int mode, int code) noexcept:
    """The dtype an op computes in: ``float`` ops compute integers and bools in float64."""
    return DT_FLOAT64 if mode == 3 and of_kind(code, KB_INT | KB_BOOL) else code


cdef inline int result_code(int mode, int code) noexcept:
    if mode == 1:
        return 0
    if mode == 2:
        return component_code(code)
    return code


cdef int promote_codes(int a, int b) noexcept:
    return PROMOTE[a][b]


cdef inline Operand operand(Storage s, Layout l, int stored, int code) noexcept:
    """``s`` seen through ``l`` (dtype ``stored``) as a kernel operand of dtype ``code``."""
    cdef Operand op
    op.data = s.data + l.offset * ITEMSIZE[stored]
    op.strides = l.strides_
    op.stored = stored
    op.code = code
    return op


cdef int run_n(loop2d_fn fn, int nop, const Operand* ops, int ndim, const int64_t* shape,
               int64_t size, bint serial=False, bint order=False, fold_init_fn fold_init=NULL,
               int64_t fold_size=0, loop2d_fn fold_combine=NULL, int cost=1) except -1:
    """Run a kernel over ``shape`` (``size`` elements); the last operand is the one written.

    ``ops`` holds the ``nop`` operands (at most ``MAX_OPERANDS``), each with strides over
    ``shape`` (already broadcast): inputs stored in another dtype than the kernel takes are
    cast chunk by chunk as the kernel runs. ``order`` lets the axes be visited in the order
    the strides favour (for kernels whose result does not depend on the visiting order).
    With ``fold_init``, the kernel is a fold of the inputs into a fresh C-ordered output of
    ``fold_size`` accumulators whose partial results ``fold_combine`` adds up (see
    ``iterate.run_fold``). ``cost``: an element's cost against one of ``add`` (``ops.COST``).
    """
    cdef int64_t dims[MAXDIM + 2]
    cdef int64_t strides[4 * (MAXDIM + 2)]
    cdef char* base[4]
    cdef int isz[4]
    cdef loop2d_fn casts[4]
    cdef bint cast = False
    cdef int i, k
    if size == 0:
        return 0
    for i in range(ndim):
        dims[i] = shape[i]
    for k in range(nop):
        for i in range(ndim):
            strides[k * ndim + i] = ops[k].strides[i]
        casts[k] = NULL
        if ops[k].stored != ops[k].code:
            casts[k] = cast_of(kernels, ops[k].stored, ops[k].code)
            cast = True
        isz[k] = ITEMSIZE[ops[k].stored]
        base[k] = ops[k].data
    return launch(fn, nop, ndim, dims, base, strides, isz, serial, order,
                  &casts[0] if cast else NULL, fold_init, fold_combine, fold_size, size, cost)


# --- Devices other than the CPU ------------------------------------------------------------
# The engine does the same dtype, broadcasting and layout work for every device; where the
# CPU runs a kernel from its tables, another device's backend (``_devices.backend``) runs its
# own, keyed by kind, op name and dtype codes.

cdef int same_device(Storage a, Storage b, str what) except -1:
    if a.device is not b.device and a.device != b.device:
        raise ValueError(f"{what}: arrays on {a.device} and {b.device}; move one with "
                         f"to_device first")
    return 0


cdef int run_device(object device, str kind, str op, tuple codes, int nop, const Operand* ops,
                    int ndim, const int64_t* shape, int64_t size) except -1:
    """``run_n`` on ``device``: an elementwise kernel of ``kind``/``op`` for dtype ``codes``
    over ``shape``, the last operand written. An input stored in another dtype than the kernel
    takes is cast first, into a temporary of ``shape``."""
    if size == 0:
        return 0
    be = _devices.backend(device)
    cdef tuple dims = tuple([shape[i] for i in range(ndim)])
    cdef int64_t cstrides[MAXDIM]
    cdef int64_t step = 1
    cdef int i, k
    for i in range(ndim - 1, -1, -1):
        cstrides[i] = step if shape[i] != 1 else 0
        step *= shape[i]
    cdef tuple temp_strides = tuple([cstrides[i] for i in range(ndim)])
    operands = []
    temps = []
    cdef Storage t
    for k in range(nop):
        address = <uintptr_t>ops[k].data
        strides = tuple([ops[k].strides[i] for i in range(ndim)])
        if k < nop - 1 and ops[k].stored != ops[k].code:
            t = storage_allocate(size * ITEMSIZE[ops[k].code], False, device)
            temps.append(t)
            be.elementwise("cast", "cast", (ops[k].stored, ops[k].code), dims,
                           [(address, strides), (<uintptr_t>t.data, temp_strides)])
            address, strides = <uintptr_t>t.data, temp_strides
        operands.append((address, strides))
    be.elementwise(kind, op, codes, dims, operands)
    return 0


cdef Storage device_scalar(object device, int code, object value):
    """A 0-d buffer on ``device`` holding the Python scalar ``value`` as dtype ``code``."""
    cdef double complex v
    write_scalar(<char*>&v, code, value)
    cdef Storage t = storage_allocate(ITEMSIZE[code], False, device)
    _devices.backend(device).upload(<uintptr_t>t.data, (<char*>&v)[:ITEMSIZE[code]])
    return t


cdef object read_element(Storage s, int64_t offset, int code):
    """The element at element offset ``offset`` of ``s`` as a Python scalar, on any device
    (a GPU's is copied to the host after the work queued before it)."""
    cdef double complex v
    if s.host:
        return read_scalar(s.data + offset * ITEMSIZE[code], code)
    data = _devices.backend(s.device).download(<uintptr_t>(s.data + offset * ITEMSIZE[code]),
                                               ITEMSIZE[code])
    memcpy(&v, <const char*>data, ITEMSIZE[code])
    return read_scalar(<char*>&v, code)


cdef int write_element(Storage s, int64_t offset, int code, object value) except -1:
    """Write the Python scalar ``value`` at element offset ``offset`` of ``s``, on any
    device."""
    cdef double complex v
    if s.host:
        return write_scalar(s.data + offset * ITEMSIZE[code], code, value)
    write_scalar(<char*>&v, code, value)
    _devices.backend(s.device).upload(<uintptr_t>(s.data + offset * ITEMSIZE[code]),
                                      (<char*>&v)[:ITEMSIZE[code]])
    return 0


cdef int transfer(Storage src, int64_t skip, Storage dst, int64_t nbytes) except -1:
    """Copy ``nbytes`` of ``src`` from byte ``skip`` to the start of ``dst``, where one is the
    CPU and the other a device (after the work queued on the device before)."""
    if nbytes < 0 or skip < 0 or skip + nbytes > src.nbytes or nbytes > dst.nbytes:
        raise ValueError(f"transfer of {nbytes} bytes outside its buffers")
    cdef char* p = src.data + skip
    if src.host and dst.host:
        memcpy(dst.data, p, nbytes)
    elif src.host:
        _devices.backend(dst.device).copy_from_host(<uintptr_t>dst.data, <uintptr_t>p, nbytes)
    elif dst.host:
        _devices.backend(src.device).copy_to_host(<uintptr_t>dst.data, <uintptr_t>p, nbytes)
    else:
        raise ValueError(f"transfer between {src.device} and {dst.device} goes through the CPU")
    return 0


cdef tuple _cast_copy(Storage s, Layout l, int code, int to, bint c_order=False):
    """``s`` seen through ``l`` copied to a fresh buffer of dtype ``to``, laid out in ``l``'s
    memory order (C order with ``c_order``)."""
    cdef int64_t st[MAXDIM]
    cdef Layout cl
    if c_order:
        cl = contiguous(l.ndim, l.shape_)
    else:
        fresh_strides(1, l.ndim, l.shape_, l.strides_, st)
        cl = new_layout(l.ndim, l.shape_, st, 0)
    cdef Storage t = allocate(cl, to, s.device)
    _run_cast(s, l, code, t, cl, to)
    return t, cl


# The layout of a Python scalar operand: 0-d, its one element on the stack.
cdef Layout SCALAR = contiguous(0, NULL)


cdef Storage _fresh(Fresh* out, int nin, const int64_t* strides, int code, object device,
                    Operand* written):
    """The buffer of a fresh result of ``out.shape`` and dtype ``code``, its strides in the
    order of its ``nin`` inputs' ``strides`` (NumPy's order ``K``) into ``out``, and the
    operand a kernel writes it through into ``written``."""
    out.code = code
    out.size = fresh_strides(nin, out.ndim, out.shape, strides, out.strides)
    cdef Storage o = storage_allocate(out.size * ITEMSIZE[code], False, device)
    written.data = o.data
    written.strides = out.strides
    written.stored = code
    written.code = code
    return o


cdef int _spread_inputs(int nin, PyObject** ls, char** data, int* stored, int* code,
                        Fresh* out, int64_t* strides, Operand* ops,
                        void* scalars, bint host=True) except -1:
    """Broadcast ``nin`` inputs together into ``out.shape`` and their strides (rows of
    ``out.ndim``) into ``strides``, and fill their operands. A 0-d input stored in another
    dtype than its kernel's is cast once, into its slot of ``scalars`` (16 bytes each).
    """
    cdef int k, n = 0
    for k in range(nin):
        n = max(n, (<Layout>ls[k]).ndim)
    out.ndim = n
    for k in range(n):
        out.shape[k] = 1
    for k in range(nin):
        if not merge_shape(<Layout>ls[k], n, out.shape):
            raise ValueError("shapes " + ", ".join([str((<Layout>ls[i]).shape)
                                                    for i in range(nin)])
                             + " cannot be broadcast together")
    for k in range(nin):
        broadcast_strides(<Layout>ls[k], n, out.shape, &strides[k * n])
        ops[k].data = data[k]
        ops[k].strides = &strides[k * n]
        ops[k].stored = stored[k]
        ops[k].code = code[k]
        if host and (<Layout>ls[k]).ndim == 0 and stored[k] != code[k]:
            _store(<char*>scalars + 16 * k, code[k], stored[k], data[k])
            ops[k].data = <char*>scalars + 16 * k
            ops[k].stored = code[k]
    return 0


cdef Storage unary(int op, Storage s, Layout l, int code, Fresh* out):
    """Apply unary op ``op``; return the buffer of a fresh result laid out as ``out`` says,
    in the input's memory order."""
    if not (UNARY_KINDS[op] >> code) & 1:
        raise TypeError(f"{UNARY_NAMES[op]} does not accept {_dtypes.DTYPES[code]} input")
    cdef int cc = compute_code(UNARY_RESULT[op], code)
    cdef int rc = result_code(UNARY_RESULT[op], cc)
    out.ndim = l.ndim
    memcpy(out.shape, l.shape_, l.ndim * sizeof(int64_t))
    cdef Operand ops[2]
    cdef Storage o = _fresh(out, 1, l.strides_, rc, s.device, &ops[1])
    ops[0] = operand(s, l, code, cc)
    if not s.host:
        run_device(s.device, "unary", UNARY_NAMES[op], (cc,), 2, ops, out.ndim, out.shape,
                   out.size)
        return o
    run_n(unary_of(kernels, op, cc), 2, ops, out.ndim, out.shape, out.size, False, True, NULL, 0,
          NULL, UNARY_COST[op])
    return o


cdef int binary_code(int op, int ca, int cb) except -1:
    """The dtype binary op ``op`` computes in for inputs of dtypes ``ca`` and ``cb``."""
    cdef int code = PROMOTE[ca][cb]
    if not (BINARY_KINDS[op] >> code) & 1:
        raise TypeError(f"{BINARY_NAMES[op]} does not accept {_dtypes.DTYPES[ca]} and "
                        f"{_dtypes.DTYPES[cb]} inputs")
    if code == DT_BOOL and _strict.FLAGS.strict and op in _BOOL_ARITHMETIC:
        raise _strict.StrictError(_strict.rule(f"{BINARY_NAMES[op]} of two bools",
                                               "bool-arithmetic"))
    return compute_code(BINARY_RESULT[op], code)


cdef inline int check_devices(int op, Storage a, Storage b) except -1:
    if a.device is not b.device:
        same_device(a, b, BINARY_NAMES[op])
    return 0


cdef int _into(int op, Storage sa, Layout la, int code, char* b,
               const int64_t* bstrides) except -1:
    """``a = op(a, b)`` in place, ``b`` of ``a``'s dtype with strides over ``a``'s shape."""
    cdef Operand ops[3]
    ops[0] = operand(sa, la, code, code)
    ops[1].data = b
    ops[1].strides = bstrides
    ops[1].stored = code
    ops[1].code = code
    ops[2] = ops[0]
    if not sa.host:
        return run_device(sa.device, "binary", BINARY_NAMES[op], (code,), 3, ops, la.ndim,
                          la.shape_, la.size)
    return run_n(binary_of(kernels, op, code), 3, ops, la.ndim, la.shape_, la.size, False, True,
                 NULL, 0, NULL, BINARY_COST[op])


cdef int _into_code(int op, int ca, int cb, bint same_kind) except -1:
    """The dtype ``a = op(a, b)`` computes in: ``a``'s, or with ``same_kind`` any dtype whose
    result casts to ``a``'s by NumPy's ``same_kind`` rule (``int32 += int64``); TypeError
    otherwise."""
    cdef int code = binary_code(op, ca, cb)
    cdef int rc = result_code(BINARY_RESULT[op], code)
    if rc == ca and code == ca:
        return code
    if not same_kind or not SAME_KIND[rc][ca]:
        raise TypeError(f"{BINARY_NAMES[op]} in place cannot cast its {_dtypes.DTYPES[rc]} "
                        f"result to the array's dtype {_dtypes.DTYPES[ca]}"
                        + (" (NumPy's same_kind rule)" if same_kind else ""))
    return code


cdef int binary_into(int op, Storage sa, Layout la, int ca, Storage sb, Layout lb,
                     int cb, bint same_kind) except -1:
    """``a = op(a, b)`` in place: ``b`` broadcasts to ``a``, the result keeps ``a``'s dtype.

    The result's dtype must be ``a``'s, or with ``same_kind`` cast to it by NumPy's rule (the
    result is then computed whole and cast, as NumPy's loop computes in the promoted dtype);
    TypeError otherwise. An operand that overlaps ``a`` in any other way than element for
    element is copied first, so the result is as if ``b`` had been read whole before ``a``
    was written.
    """
    cdef int code = _into_code(op, ca, cb, same_kind)
    cdef Fresh r
    check_devices(op, sa, sb)
    lb = broadcast_to(lb, la.ndim, la.shape_)
    if code != ca:
        out = _binary(op, la, sa.data + la.offset * ITEMSIZE[ca], ca,
                      lb, sb.data + lb.offset * ITEMSIZE[cb], cb, sa.device, &r)
        return copy_cast(out, new_layout(r.ndim, r.shape, r.strides, 0), r.code, sa, la, ca)
    if cb != code or (may_overlap(sa, la, ca, sb, lb, cb)
                      and not same_view(sa, la, ca, sb, lb, cb)):
        sb, lb = _cast_copy(sb, lb, cb, code)
    return _into(op, sa, la, code, sb.data + lb.offset * ITEMSIZE[code], lb.strides_)


cdef int binary_into_scalar(int op, Storage sa, Layout la, int ca, object value) except -1:
    """``a = op(a, value)`` in place for a Python scalar ``value`` (a stride-0 operand on the
    stack); TypeError when the result's dtype is not ``a``'s."""
    cdef int kind = scalar_kind(value)
    if kind < 0:
        raise TypeError(f"{BINARY_NAMES[op]} takes arrays and Python scalars, not "
                        f"{type(value).__name__}")
    cdef int code = _into_code(op, ca, SCALAR_CODE[ca][kind], False)
    cdef double complex v
    cdef int64_t zeros[MAXDIM]
    cdef int i
    for i in range(la.ndim):
        zeros[i] = 0
    cdef Storage t
    if not sa.host:
        t = device_scalar(sa.device, code, value)
        return _into(op, sa, la, code, t.data, zeros)
    write_scalar(<char*>&v, code, value)
    return _into(op, sa, la, code, <char*>&v, zeros)


cdef Storage _binary(int op, Layout la, char* pa, int ca, Layout lb, char* pb, int cb,
                     object device, Fresh* out):
    """``op(a, b)`` with promotion and broadcasting into a fresh result in the inputs'
    memory order; ``pa`` and ``pb`` point at the inputs' first elements."""
    cdef int code = binary_code(op, ca, cb)
    cdef int rc = result_code(BINARY_RESULT[op], code)
    cdef PyObject* ls[2]
    cdef char* data[2]
    cdef int stored[2]
    cdef int codes[2]
    cdef int64_t strides[2 * MAXDIM]
    cdef double complex scalars[2]
    cdef Operand ops[3]
    ls[0] = <PyObject*>la
    ls[1] = <PyObject*>lb
    data[0] = pa
    data[1] = pb
    stored[0] = ca
    stored[1] = cb
    codes[0] = code
    codes[1] = code
    cdef bint host = device is CPU_DEVICE or device.host
    _spread_inputs(2, ls, data, stored, codes, out, strides, ops, scalars, host)
    cdef Storage o = _fresh(out, 2, strides, rc, device, &ops[2])
    if not host:
        run_device(device, "binary", BINARY_NAMES[op], (code,), 3, ops, out.ndim, out.shape,
                   out.size)
        return o
    run_n(binary_of(kernels, op, code), 3, ops, out.ndim, out.shape, out.size, False, True, NULL, 0,
          NULL, BINARY_COST[op])
    return o


cdef Storage binary(int op, Storage sa, Layout la, int ca, Storage sb, Layout lb, int cb,
                    Fresh* out):
    """Apply binary op ``op`` with promotion and broadcasting; return the buffer of a fresh
    result laid out as ``out`` says."""
    check_devices(op, sa, sb)
    return _binary(op, la, sa.data + la.offset * ITEMSIZE[ca], ca,
                   lb, sb.data + lb.offset * ITEMSIZE[cb], cb, sa.device, out)


cdef Storage binary_scalar(int op, Storage sa, Layout la, int ca, object value,
                           bint reflected, Fresh* out):
    """``op(a, value)`` (``op(value, a)`` when ``reflected``) for a Python scalar ``value``.

    The scalar is weak: it takes the dtype ``SCALAR_CODE`` gives beside ``a``'s, and is
    written once, in the dtype the kernel reads (a Python int is range-checked against that
    dtype, as NumPy does: ``int8 / 255`` computes in float64), to the stack, where the kernel
    reads it as a stride-0 operand.
    """
    cdef int kind = scalar_kind(value)
    if kind < 0:
        raise TypeError(f"{BINARY_NAMES[op]} takes arrays and Python scalars, not "
                        f"{type(value).__name__}")
    cdef int sc = SCALAR_CODE[ca][kind]
    cdef int code = binary_code(op, sc, ca) if reflected else binary_code(op, ca, sc)
    cdef double complex v
    cdef char* pa = sa.data + la.offset * ITEMSIZE[ca]
    cdef char* pv = <char*>&v
    cdef Storage t
    cdef int constant = _comparison_beyond(op, code, value, reflected)
    if constant >= 0:
        # x == x is true and x != x false for every integer x.
        return _binary(OP_EQUAL if constant else OP_NOT_EQUAL, la, pa, ca, la, pa, ca,
                       sa.device, out)
    if not sa.host:
        t = device_scalar(sa.device, code, value)
        pv = t.data
    else:
        write_scalar(pv, code, value)
    if reflected:
        return _binary(op, SCALAR, pv, code, la, pa, ca, sa.device, out)
    return _binary(op, la, pa, ca, SCALAR, pv, code, sa.device, out)


cdef tuple where(Storage sc, Layout lc, int cc, Storage sx, Layout lx, int cx,
                 Storage sy, Layout ly, int cy):
    """``x`` where ``cond`` else ``y``, broadcast together; return ``(storage, layout,
    code)`` of a fresh result in the inputs' memory order."""
    if cc != 0:
        raise TypeError(f"where's condition must be bool, not {_dtypes.DTYPES[cc]}")
    same_device(sc, sx, "where")
    same_device(sc, sy, "where")
    cdef int code = PROMOTE[cx][cy]
    cdef PyObject* ls[3]
    cdef char* data[3]
    cdef int stored[3]
    cdef int codes[3]
    cdef int64_t strides[3 * MAXDIM]
    cdef double complex scalars[3]
    cdef Operand ops[4]
    cdef Fresh out
    ls[0] = <PyObject*>lc
    ls[1] = <PyObject*>lx
    ls[2] = <PyObject*>ly
    data[0] = sc.data + lc.offset
    data[1] = sx.data + lx.offset * ITEMSIZE[cx]
    data[2] = sy.data + ly.offset * ITEMSIZE[cy]
    stored[:] = [0, cx, cy]
    codes[:] = [0, code, code]
    cdef bint host = sx.host
    _spread_inputs(3, ls, data, stored, codes, &out, strides, ops, scalars, host)
    cdef Storage o = _fresh(&out, 3, strides, code, sx.device, &ops[3])
    if host:
        run_n(where_of(kernels, code), 4, ops, out.ndim, out.shape, out.size, False, True)
    else:
        run_device(sx.device, "where", "where", (code,), 4, ops, out.ndim, out.shape,
                   out.size)
    return o, new_layout(out.ndim, out.shape, out.strides, 0), code


cdef Layout _spread(Layout l, Layout over, tuple axes):
    """``over`` (unit axes at ``axes``) seen over ``l``'s shape, with stride 0 along ``axes``."""
    cdef int64_t st[MAXDIM]
    cdef int i
    for i in range(l.ndim):
        st[i] = 0 if i in axes else over.strides_[i]
    return new_layout(l.ndim, l.shape_, st, over.offset)


cdef Layout _kept(Layout l, tuple axes):
    """The C-ordered layout of a fold of ``l`` over ``axes``: its shape with unit axes there."""
    cdef int64_t shape[MAXDIM]
    cdef int i
    for i in range(l.ndim):
        shape[i] = 1 if i in axes else l.shape_[i]
    return contiguous(l.ndim, shape)


cdef tuple fold(int op, Storage s, Layout l, int code, int acc, tuple axes):
    """Fold ``s`` (seen through ``l``, dtype ``code``) over ``axes`` with fold op ``op``.

    The input is cast to the accumulator dtype ``acc`` chunk by chunk as the kernel reads it.
    Returns ``(storage, layout, acc)`` of a C-ordered result that keeps unit axes at ``axes``.
    """
    cdef loop2d_fn fn = fold_of(kernels, op, acc)
    if fn == NULL:
        raise TypeError(f"this reduction does not accept {_dtypes.DTYPES[acc]}")
    cdef Layout ol = _kept(l, axes)
    if not s.host:
        return _device_fold(op, s, l, code, acc, axes, ol)
    cdef Storage o = allocate(ol, acc, s.device)
    fold_init_of(kernels, op, acc)(o.data, ol.size)
    if l.size == 0:
        return o, ol, acc
    cdef Layout spread = _spread(l, ol, axes)
    cdef Operand ops[2]
    ops[0] = operand(s, l, code, acc)
    ops[1] = operand(o, spread, acc, acc)
    if op == FOLD_PROD and acc >= DT_FLOAT32:
        # A float product folds in order (see ax_reduce.hpp's fold_in_order), so on one thread.
        run_n(fn, 2, ops, spread.ndim, spread.shape_, spread.size, True, False)
    else:
        run_n(fn, 2, ops, spread.ndim, spread.shape_, spread.size, True, False,
              fold_init_of(kernels, op, acc), ol.size, fn)
    return o, ol, acc


cdef Storage _device_fill(object device, Layout l, int code, object value):
    """A fresh C-ordered buffer of ``l`` on ``device`` with every element ``value``."""
    cdef Storage one = device_scalar(device, code, value)
    cdef Storage o = allocate(l, code, device)
    _run_cast(one, broadcast_to(SCALAR, l.ndim, l.shape_), code, o, l, code)
    return o


cdef tuple _device_fold(int op, Storage s, Layout l, int code, int acc, tuple axes,
                        Layout ol):
    """``fold`` on a device other than the CPU (``ol``: the result's layout)."""
    cdef Storage o
    if l.size == 0:
        o = allocate(ol, acc, s.device, True)
        if op != FOLD_SUM:
            host = allocate(SCALAR, acc, CPU_DEVICE)
            fold_init_of(kernels, op, acc)(host.data, 1)
            o = _device_fill(s.device, ol, acc, read_scalar(host.data, acc))
        return o, ol, acc
    if code != acc:
        s, l = _cast_copy(s, l, code, acc)
    o = allocate(ol, acc, s.device)
    _devices.backend(s.device).reduce(op, acc, <uintptr_t>at(s, l, acc), l.shape, l.strides,
                                      axes, <uintptr_t>o.data)
    return o, ol, acc


cdef tuple squared_deviations(Storage s, Layout l, int code, Storage cs, Layout cl,
                              tuple axes):
    """The sums of ``(x - centre)^2`` over ``axes`` of a float32/float64 ``x`` (seen through
    ``l``), ``centre`` (``cl``) keeping unit axes at ``axes``: var's second pass, without a
    full-size temporary. Returns ``(storage, layout, code)`` of a C-ordered result shaped as
    ``centre``.
    """
    cdef loop2d_fn fn = squared_deviations_of(kernels, code)
    _pair_fold_operands(fn == NULL, "var", code, s, cs)
    cdef Fresh r
    cdef Storage d
    if not s.host:
        d = binary(OP_SUBTRACT, s, l, code, cs, _spread(l, cl, axes), code, &r)
        dl = new_layout(r.ndim, r.shape, r.strides, 0)
        return _sum_of_fresh(binary(OP_MULTIPLY, d, dl, code, d, dl, code, &r), &r, code, axes)
    return _fold_pairs(fn, s, l, code, cs, _spread(l, cl, axes), contiguous(cl.ndim, cl.shape_),
                       axes)


cdef tuple sum_of_products(Storage s, Layout l, Storage t, Layout tl, int code, tuple axes):
    """The sums of ``x * y`` over ``axes`` of two floating-point arrays of one shape and dtype
    (``l`` and ``tl``): vecdot of short vectors, without the products' temporary. Returns
    ``(storage, layout, code)`` of a C-ordered result with unit axes at ``axes``."""
    cdef loop2d_fn fn = products_of(kernels, code)
    _pair_fold_operands(fn == NULL, "vecdot", code, s, t)
    cdef Fresh r
    if not s.host:
        return _sum_of_fresh(binary(OP_MULTIPLY, s, l, code, t, tl, code, &r), &r, code, axes)
    return _fold_pairs(fn, s, l, code, t, tl, _kept(l, axes), axes)


cdef int _pair_fold_operands(bint no_kernel, str name, int code, Storage s, Storage t) except -1:
    """Check the operands of a fold of pairs for ``name``: a dtype with a kernel
    (``no_kernel`` false), on one device."""
    if no_kernel:
        raise TypeError(f"{name} has no fold of pairs of {_dtypes.DTYPES[code]} values")
    same_device(s, t, name)
    return 0


cdef tuple _sum_of_fresh(Storage d, Fresh* r, int code, tuple axes):
    """The sums over ``axes`` of ``d``, a fresh C-ordered result described by ``r``."""
    return fold(FOLD_SUM, d, new_layout(r.ndim, r.shape, r.strides, 0), code, code, axes)


cdef tuple _fold_pairs(loop2d_fn fn, Storage s, Layout l, int code, Storage t, Layout tl,
                       Layout ol, tuple axes):
    """Run ``fn``, a fold of two operands of ``l``'s shape (``t`` seen through ``tl``), into a
    new sum of C-ordered layout ``ol`` (``l``'s shape with unit axes at ``axes``), started at
    zero; on the kernel threads, each thread's partial sums combined."""
    cdef Storage o = allocate(ol, code, s.device, True)
    cdef Layout spread = _spread(l, ol, axes)
    if l.size == 0:
        return o, ol, code
    cdef Operand ops[3]
    ops[0] = operand(s, l, code, code)
    ops[1] = operand(t, tl, code, code)
    ops[2] = operand(o, spread, code, code)
    run_n(fn, 3, ops, spread.ndim, spread.shape_, spread.size, True, False,
          fold_init_of(kernels, FOLD_SUM, code), ol.size, fold_of(kernels, FOLD_SUM, code))
    return o, ol, code


cdef Layout _along(Layout l, int axis, int64_t start, int64_t length):
    """The slice ``[start, start + length)`` of ``l`` along ``axis`` (a view layout)."""
    cdef int64_t shape[MAXDIM]
    for i in range(l.ndim):
        shape[i] = l.shape_[i]
    shape[axis] = length
    return new_layout(l.ndim, shape, l.strides_, l.offset + start * l.strides_[axis])


cdef bint _scan_lanes(int op, Storage s, Layout l, int code, int acc, int axis, Storage o,
                      int64_t skip) except -1:
    """Scan along the last axis with the lane kernel, when that axis is ``axis``, no cast is
    needed and the other axes merge into one row stride; False (nothing done) otherwise.

    Output rows are ``n + skip`` long; the first ``skip`` elements of each are left alone.
    """
    cdef int nd = l.ndim
    if axis != nd - 1 or code != acc or l.size == 0 or op not in _SCAN_FOLDS:
        return False
    cdef int64_t n = l.shape_[axis]
    cdef int64_t two[2]
    two[0] = l.size // n
    two[1] = n
    cdef Layout rows = layout_reshape(l, 2, two)
    if rows is None:
        return False
    cdef int isz = ITEMSIZE[acc]
    cdef int fold_op = _SCAN_FOLDS[op]
    cdef scan_fn fn = scan_of(kernels, fold_op, acc)
    cdef total_fn tot = total_of(kernels, fold_op, acc)
    if fn == NULL or tot == NULL:  # no lane kernel (bool): the binary kernel's serial scan
        return False
    cdef const char* data = s.data + rows.offset * isz
    with nogil:
        run_scan(fn, tot, data, two[0], n, rows.strides_[0], rows.strides_[1],
                 o.data + skip * isz, n + skip, isz)
    return True


cdef tuple scan(int op, Storage s, Layout l, int code, int acc, int axis,
                bint include_initial, object identity):
    """Running ``op`` (a binary op id) of ``s`` along ``axis``, accumulated in dtype ``acc``.

    Slice ``k`` of the result is ``op(result[k - 1], x[k])``: one serial binary kernel over
    the whole array, whose first operand is the result shifted by one slice. With
    ``include_initial`` the result starts with a slice of ``identity``.
    """
    cdef loop2d_fn fn = binary_of(kernels, op, acc)
    if fn == NULL:  # no kernel: cumulative_sum(x, dtype=bool) called NULL
        raise TypeError(f"this running {BINARY_NAMES[op]} does not accept {_dtypes.DTYPES[acc]}")
    cdef int64_t n = l.shape_[axis]
    cdef int64_t m = n + (1 if include_initial else 0)
    cdef Layout ol = _along(contiguous_like(l), axis, 0, m)
    ol = contiguous(l.ndim, ol.shape_)
    if not s.host:
        return _device_scan(op, s, l, code, acc, axis, identity, ol)
    cdef Storage o = allocate(ol, acc, s.device)
    if ol.size == 0:
        return o, ol, acc
    cdef Layout first = _along(ol, axis, 0, 1)
    cdef Layout one
    cdef Storage init
    if include_initial:
        one = contiguous(0, NULL)
        init = allocate(one, acc, s.device)
        write_scalar(init.data, acc, identity)
        copy_cast(init, broadcast_to(one, first.ndim, first.shape_), acc, o, first, acc)
    if _scan_lanes(op, s, l, code, acc, axis, o, m - n):
        return o, ol, acc
    # The scan of x starts from x[0] itself, after the initial slice when there is one (as
    # NumPy's: 0.0 + -0.0 would lose a leading -0.0).
    cdef int64_t start = m - n
    if n == 0:
        return o, ol, acc
    copy_cast(s, _along(l, axis, 0, 1), code, o, _along(ol, axis, start, 1), acc)
    if n < 2:
        return o, ol, acc
    cdef Layout prev = _along(ol, axis, start, n - 1)
    cdef Layout rest = _along(ol, axis, start + 1, n - 1)
    cdef Layout xin = _along(l, axis, 1, n - 1)
    cdef Operand ops[3]
    ops[0] = operand(o, prev, acc, acc)
    ops[1] = operand(s, xin, code, acc)
    ops[2] = operand(o, rest, acc, acc)
    run_n(fn, 3, ops, rest.ndim, rest.shape_, rest.size, True)
    return o, ol, acc


cdef tuple _device_scan(int op, Storage s, Layout l, int code, int acc, int axis,
                        object identity, Layout ol):
    """``scan`` on a device other than the CPU (``ol``: the result's layout)."""
    if op not in _SCAN_FOLDS:
        raise TypeError(f"this running {BINARY_NAMES[op]} does not accept {_dtypes.DTYPES[acc]}")
    cdef Storage o
    if acc == DT_BOOL:
        # A running sum or product in bool is a running or or and (as on the CPU): counted in
        # int64, then nonzero (a product of zeros and ones stays zero or one).
        o, ol, _ = _device_scan(op, s, l, code, DT_INT64, axis, int(identity), ol)
        o, ol = _cast_copy(o, ol, DT_INT64, DT_BOOL)
        return o, ol, DT_BOOL
    o = allocate(ol, acc, s.device)
    if ol.size == 0:
        return o, ol, acc
    cdef int64_t n = l.shape_[axis]
    cdef int64_t skip = ol.shape_[axis] - n
    cdef Storage init
    cdef Layout first
    if skip:
        first = _along(ol, axis, 0, 1)
        init = device_scalar(s.device, acc, identity)
        _run_cast(init, broadcast_to(SCALAR, first.ndim, first.shape_), acc, o, first, acc)
    if n == 0 or l.size == 0:
        return o, ol, acc
    if code != acc:
        s, l = _cast_copy(s, l, code, acc)
    cdef Layout rest = _along(ol, axis, skip, n)
    order = [i for i in range(l.ndim) if i != axis] + [axis]
    _devices.backend(s.device).scan(
        _SCAN_FOLDS[op], acc, [l.shape_[i] for i in order],
        (<uintptr_t>at(s, l, acc), [l.strides_[i] for i in order]),
        (<uintptr_t>at(o, rest, acc), [rest.strides_[i] for i in order]))
    return o, ol, acc


# --- Lane, set, gather, fill and product entries -------------------------------------------
# Each entry checks which backend serves its operands' device and calls it: the CPU
# backend's cdef function for a storage in the CPU's memory, the device's backend object
# (``_devices.backend``) otherwise. The section modules say what to compute (dtype codes,
# counts, C-ordered buffers) and never call a kernel themselves.
cdef inline char* at(Storage s, Layout l, int code) noexcept:
    return s.data + l.offset * ITEMSIZE[code]


cdef inline int64_t lane_length(Layout l) noexcept:
    return l.shape_[l.ndim - 1]


cdef inline int64_t lane_count(Layout l) noexcept:
    cdef int64_t n = l.shape_[l.ndim - 1]
    return l.size // n if n else 0


cdef int sort_rows(Storage s, Layout l, int code, bint desc, bint stable) except -1:
    """Sort each row of the C-contiguous ``l`` (its last axis) in place."""
    cdef int64_t rows = lane_count(l), n = lane_length(l)
    if not s.host:
        _devices.backend(s.device).sort_rows(code, <uintptr_t>at(s, l, code), rows, n, desc)
        return 0
    cdef char* p = at(s, l, code)
    with nogil:
        cpu.sort_rows(code, ITEMSIZE[code], p, rows, n, desc, stable)
    return 0


cdef int argsort_rows(Storage s, Layout l, int code, Storage out, bint desc,
                      bint stable) except -1:
    """The sorting permutation of each row of the C-contiguous ``l`` into int64 ``out``."""
    cdef int64_t rows = lane_count(l), n = lane_length(l)
    same_device(s, out, "argsort")
    if not s.host:
        _devices.backend(s.device).argsort_rows(code, <uintptr_t>at(s, l, code),
                                                <uintptr_t>out.data, rows, n, desc)
        return 0
    cdef const char* p = at(s, l, code)
    with nogil:
        cpu.argsort_rows(code, ITEMSIZE[code], p, <int64_t*>out.data, rows, n, desc, stable)
    return 0


cdef int arg_extreme(Storage s, Layout l, int code, Storage out, bint want_max) except -1:
    """The first position of each row's largest (``want_max``) or smallest element of the
    C-contiguous ``l``, into int64 ``out``."""
    cdef int64_t rows = lane_count(l), n = lane_length(l)
    if not s.host:
        if code == DT_BOOL:
            s, l = _cast_copy(s, l, code, DT_UINT8)  # the device's kernels take real dtypes
            code = DT_UINT8
        _devices.backend(s.device).argreduce(want_max, code, <uintptr_t>at(s, l, code), rows,
                                             n, n, 1, <uintptr_t>out.data)
        return 0
    cdef const char* p = at(s, l, code)
    cdef int isz = ITEMSIZE[code]
    with nogil:
        cpu.arg_extreme(code, isz, p, <int64_t*>out.data, rows, n, want_max)
    return 0


cdef int searchsorted(Storage s, int64_t n, Storage sorter, Storage v, int64_t m, int code,
                      bint right, Storage out) except -1:
    """Where the ``m`` values of ``v`` go among the ``n`` sorted ones of ``s`` (through the
    int64 permutation ``sorter`` unless it is None), into int64 ``out``.

    Raises IndexError when ``sorter`` holds an index outside ``[0, n)``.
    """
    same_device(s, v, "searchsorted")
    if not s.host:
        _devices.backend(s.device).searchsorted(
            code, <uintptr_t>s.data, n, None if sorter is None else <uintptr_t>sorter.data,
            <uintptr_t>v.data, m, right, <uintptr_t>out.data)
        return 0
    cdef const int64_t* order = NULL
    cdef int64_t bad
    if sorter is not None:
        order = <const int64_t*>sorter.data
        bad = cpu.first_outside(order, n, n)
        if bad >= 0:
            raise IndexError(f"sorter holds an index out of range: {order[bad]}")
    with nogil:
        cpu.searchsorted(code, s.data, n, order, v.data, m, right, <int64_t*>out.data,
                         ITEMSIZE[code])
    return 0


def content_hash(Storage s, Layout l, int code) -> bytes:
    """The 16-byte content digest (``ax_hash.hpp``) of the elements of the CPU storage ``s``
    seen through ``l``, in C order (a C-ordered copy is hashed where ``l`` is not
    C-contiguous): equal for equal elements on any thread count. The digest does not name the
    dtype or the shape; the caller adds them.

    Raises ValueError for memory that is not the CPU's.
    """
    if not s.host:
        raise ValueError(f"a content digest reads the CPU's memory, not {s.device}'s")
    if not l.c_contiguous:
        s, l = _cast_copy(s, l, code, code, True)
    cdef uint64_t digest[2]
    cdef const char* p = s.data + l.offset * ITEMSIZE[code]
    cdef int64_t nbytes = l.size * ITEMSIZE[code]
    cdef int status
    with nogil:
        status = cpu.content_hash(p, nbytes, digest)
    if status < 0:
        raise MemoryError(f"no memory to hash {nbytes} bytes")
    return (<char*>digest)[:16]


cdef int64_t run_starts(Storage s, int64_t n, int code, Storage starts) except -1:
    """Where each run of equal elements of the ``n`` sorted ones of ``s`` starts (into int64
    ``starts``); returns how many runs."""
    if not s.host:
        return _devices.backend(s.device).run_starts(code, <uintptr_t>s.data, n,
                                                     <uintptr_t>starts.data)
    cdef int64_t groups
    with nogil:
        groups = cpu.run_starts(code, s.data, n, <int64_t*>starts.data)
    return groups


cdef int run_lengths(Storage starts, int64_t groups, int64_t n, Storage counts) except -1:
    """The length of each of ``groups`` runs, from their ``starts`` among ``n`` elements."""
    if not starts.host:
        _devices.backend(starts.device).run_lengths(<uintptr_t>starts.data, groups, n,
                                                    <uintptr_t>counts.data)
        return 0
    with nogil:
        cpu.run_lengths(<const int64_t*>starts.data, groups, n, <int64_t*>counts.data)
    return 0


cdef int run_labels(Storage order, Storage starts, int64_t groups, int64_t n,
                    Storage labels) except -1:
    """For each of ``n`` elements, the index of its run, through the permutation ``order``."""
    if not order.host:
        _devices.backend(order.device).run_labels(<uintptr_t>order.data, <uintptr_t>starts.data,
                                                  groups, n, <uintptr_t>labels.data)
        return 0
    with nogil:
        cpu.run_labels(<const int64_t*>order.data, <const int64_t*>starts.data, groups, n,
                       <int64_t*>labels.data)
    return 0


cdef int isin(Storage table, int64_t n, Storage values, int64_t m, int code, bint invert,
              Storage out) except -1:
    """Whether each of the ``m`` values occurs among the ``n`` sorted ones of ``table``."""
    same_device(table, values, "isin")
    if not table.host:
        _devices.backend(table.device).isin(code, <uintptr_t>table.data, n,
                                            <uintptr_t>values.data, m, invert,
                                            <uintptr_t>out.data)
        return 0
    with nogil:
        cpu.isin(code, table.data, n, values.data, m, invert, out.data)
    return 0


cdef int nonzero(Storage mask, Layout l, int64_t count, list outs) except -1:
    """The positions of the ``count`` true elements of the C-contiguous bool ``l`` (``count``
    as ``count_true`` gives it), one int64 Storage of ``count`` per dimension in ``outs``."""
    if not mask.host:
        _devices.backend(mask.device).nonzero(<uintptr_t>at(mask, l, DT_BOOL), l.shape, count,
                                              [<uintptr_t>(<Storage>o).data for o in outs])
        return 0
    cdef int64_t* ptrs[MAXDIM]
    cdef int d
    for d in range(l.ndim):
        ptrs[d] = <int64_t*>(<Storage>outs[d]).data
    cdef const char* p = at(mask, l, DT_BOOL)
    with nogil:
        cpu.nonzero_positions(p, l.ndim, l.shape_, count, ptrs)
    return 0


cdef int gather(Storage src, int code, Storage idx, int64_t m, Storage out) except -1:
    """``out[i] = src[idx[i]]`` for ``i < m`` (1-D contiguous; the indices are trusted)."""
    same_device(src, idx, "gather")
    if not src.host:
        _devices.backend(src.device).gather(code, <uintptr_t>src.data,
                                            src.nbytes // ITEMSIZE[code], <uintptr_t>idx.data,
                                            m, <uintptr_t>out.data)
        return 0
    with nogil:
        cpu.gather(code, src.data, <const int64_t*>idx.data, m, out.data)
    return 0


cdef int64_t scatter_add(Storage values, int code, Storage idx, int64_t m, Storage out,
                         int64_t n) except -2:
    """``out[idx[i]] += values[i]`` for ``i < m`` (1-D contiguous; ``out`` has ``n``
    elements): the first ``i`` whose index is out of range, or -1."""
    same_device(values, idx, "scatter_add")
    if not values.host:
        return _devices.backend(values.device).scatter_add(
            code, <uintptr_t>values.data, <uintptr_t>idx.data, m, <uintptr_t>out.data, n)
    cdef int64_t bad
    with nogil:
        bad = cpu.scatter_add(code, values.data, <const int64_t*>idx.data, m, n, out.data)
    return bad


cdef int64_t take(Storage s, Layout l, int code, Storage idx, Layout il,
                  Storage out) except -2:
    """``out[i] = x[idx[i]]`` along the 1-D ``l``, each int64 index checked: the first
    position whose index is out of range, or -1."""
    same_device(s, idx, "take")
    if not s.host:
        return _devices.backend(s.device).take(
            code, <uintptr_t>at(s, l, code), l.shape_[0], l.strides_[0],
            <uintptr_t>idx.data + il.offset * 8, il.size, <uintptr_t>out.data)
    cdef int isz = ITEMSIZE[code]
    cdef const char* p = at(s, l, code)
    cdef const int64_t* ip = <const int64_t*>idx.data + il.offset
    cdef int64_t n = l.shape_[0], stride = l.strides_[0], m = il.size, bad
    with nogil:
        bad = cpu.take(p, n, stride, ip, m, out.data, isz)
    return bad


cdef int gather_blocks(Storage src, int code, Storage offs, int64_t nb, int rnd,
                       const int64_t* rshape, const int64_t* rstrides, Storage out) except -1:
    """The ``nb`` strided blocks (``rshape``, ``rstrides``) at the int64 element offsets
    ``offs`` of ``src``, packed into the C-contiguous ``out``."""
    same_device(src, offs, "gather")
    return _move_blocks(True, src, code, offs, nb, rnd, rshape, rstrides, out)


cdef int scatter_blocks(Storage dst, int code, Storage offs, int64_t nb, int rnd,
                        const int64_t* rshape, const int64_t* rstrides,
                        Storage values) except -1:
    """The C-contiguous ``values`` written over ``nb`` strided blocks of ``dst``."""
    same_device(dst, values, "setitem")
    return _move_blocks(False, dst, code, offs, nb, rnd, rshape, rstrides, values)


cdef int _move_blocks(bint gather, Storage base, int code, Storage offs, int64_t nb, int rnd,
                      const int64_t* rshape, const int64_t* rstrides, Storage flat) except -1:
    """Blocks of ``base`` packed into the C-contiguous ``flat`` (``gather``) or written from
    it, on their device."""
    if not base.host:
        be = _devices.backend(base.device)
        (be.gather_blocks if gather else be.scatter_blocks)(
            code, <uintptr_t>base.data, base.nbytes // ITEMSIZE[code], <uintptr_t>offs.data, nb,
            [rshape[i] for i in range(rnd)], [rstrides[i] for i in range(rnd)],
            <uintptr_t>flat.data)
        return 0
    with nogil:
        if gather:
            cpu.gather_blocks(code, base.data, <const int64_t*>offs.data, nb, rnd, rshape,
                              rstrides, flat.data)
        else:
            cpu.scatter_blocks(code, base.data, <const int64_t*>offs.data, nb, rnd, rshape,
                               rstrides, flat.data)
    return 0


cdef int64_t count_true(Storage mask, Layout l) except -1:
    """How many elements of the C-contiguous bool ``l`` are true."""
    if not mask.host:
        return _devices.backend(mask.device).count_true(<uintptr_t>at(mask, l, DT_BOOL),
                                                        l.shape)
    cdef const uint8_t* p = <const uint8_t*>at(mask, l, DT_BOOL)
    cdef int64_t n = l.size, count
    with nogil:
        count = cpu.count_true(p, n)
    return count


cdef int compress_rows(Storage src, Layout l, int code, Storage mask, Layout ml,
                       int64_t row, Storage out) except -1:
    """The rows (``row`` elements each) of the C-contiguous ``l`` where the bool ``ml`` is
    true, packed into ``out``, which has room for one row more than selected."""
    same_device(src, mask, "indexing")
    if not src.host:
        _devices.backend(src.device).compress_rows(code, <uintptr_t>at(src, l, code),
                                                   <uintptr_t>at(mask, ml, DT_BOOL), ml.size,
                                                   row, <uintptr_t>out.data)
        return 0
    cdef const char* p = at(src, l, code)
    cdef const uint8_t* mp = <const uint8_t*>at(mask, ml, DT_BOOL)
    cdef int64_t n = ml.size, row_bytes = row * ITEMSIZE[code]
    with nogil:
        cpu.compress_rows(p, mp, n, row_bytes, out.data)
    return 0


cdef int expand_rows(Storage dst, Layout l, int code, Storage mask, Layout ml, int64_t row,
                     Storage values, bint repeat) except -1:
    """The rows of the C-contiguous ``values`` written over the rows of ``l`` where the bool
    ``ml`` is true (its one row over each of them with ``repeat``)."""
    same_device(dst, mask, "setitem")
    if not dst.host:
        _devices.backend(dst.device).expand_rows(code, <uintptr_t>at(dst, l, code),
                                                 <uintptr_t>at(mask, ml, DT_BOOL), ml.size,
                                                 row, <uintptr_t>values.data, repeat)
        return 0
    cdef char* p = at(dst, l, code)
    cdef const uint8_t* mp = <const uint8_t*>at(mask, ml, DT_BOOL)
    cdef int64_t n = ml.size, row_bytes = row * ITEMSIZE[code]
    cdef int64_t step = 0 if repeat else row_bytes
    with nogil:
        cpu.expand_rows(p, mp, n, row_bytes, values.data, step)
    return 0


cdef int progression(Storage out, int code, int64_t n, double complex start,
                     double complex step) except -1:
    """``out[i] = start + i * step`` for ``i < n`` (the real parts for a real ``code``)."""
    cdef Storage host = _host_twin(out, n, code)
    with nogil:
        cpu.progression(code, host.data, n, start.real, start.imag, step.real, step.imag)
    return _from_twin(host, out, n, code)


cdef int int_progression(Storage out, int code, int64_t n, int64_t start,
                         int64_t step) except -1:
    """``out[i] = start + i * step`` for ``i < n`` in integer (or bool) arithmetic."""
    cdef Storage host = _host_twin(out, n, code)
    with nogil:
        cpu.int_progression(code, host.data, n, start, step)
    return _from_twin(host, out, n, code)


cdef Storage _host_twin(Storage out, int64_t n, int code):
    """``out`` itself on the CPU; elsewhere a host buffer of ``n`` elements that
    ``_from_twin`` copies to it (a fill computed from scalars, no input array)."""
    if out.host:
        return out
    return storage_allocate(n * ITEMSIZE[code], False, CPU_DEVICE)


cdef int _from_twin(Storage host, Storage out, int64_t n, int code) except -1:
    if host is not out:
        transfer(host, 0, out, n * ITEMSIZE[code])
    return 0


cdef int zero_triangle(Storage s, Layout l, int code, int64_t k, bint keep_lower) except -1:
    """Zero the part of each matrix of the C-contiguous ``l`` above diagonal ``k``
    (``keep_lower``) or below it."""
    cdef int64_t rows = l.shape_[l.ndim - 2], cols = l.shape_[l.ndim - 1]
    cdef int64_t batch = l.size // (rows * cols) if rows * cols else 0
    if not s.host:
        if batch:
            _devices.backend(s.device).zero_triangle(code, <uintptr_t>at(s, l, code), batch,
                                                     rows, cols, k, keep_lower)
        return 0
    cdef char* p = at(s, l, code)
    cdef int64_t isz = ITEMSIZE[code]
    with nogil:
        cpu.zero_triangle(p, batch, rows, cols, k, keep_lower, isz)
    return 0


cdef Storage matmul(Storage sa, Layout la, Storage sb, Layout lb, int code, Layout ol):
    """``a @ b`` (both of dtype ``code``, shapes that align and broadcast) into a fresh
    buffer for the C-contiguous layout ``ol`` of the product. The CPU backend plans the
    product (``plan_matmul``: BLAS routine or one of its kernels; the scratch it asks for is
    allocated here) and names the operands it cannot
    read as they lie, which are copied C-contiguous first; another device's backend takes the
    operands as they are."""
    same_device(sa, sb, "matmul")
    cdef Storage o
    if not sa.host:
        o = allocate(ol, code, sa.device)
        if ol.size:
            _devices.backend(sa.device).matmul(
                code, (<uintptr_t>at(sa, la, code), la.shape, la.strides),
                (<uintptr_t>at(sb, lb, code), lb.shape, lb.strides),
                (<uintptr_t>o.data, ol.shape, ol.strides))
        return o
    cdef MatmulPlan p
    cdef int isz = ITEMSIZE[code]
    cdef int copy = cpu.plan_matmul(&p, code, isz, at(sa, la, code), la.ndim, la.shape_,
                                    la.strides_, at(sb, lb, code), lb.ndim, lb.shape_,
                                    lb.strides_)
    if copy:
        if copy & 1:
            sa, la = _cast_copy(sa, la, code, code, True)
        if copy & 2:
            sb, lb = _cast_copy(sb, lb, code, code, True)
        cpu.plan_matmul(&p, code, isz, at(sa, la, code), la.ndim, la.shape_, la.strides_,
                        at(sb, lb, code), lb.ndim, lb.shape_, lb.strides_)
    # The blocked kernel adds into its output, and k = 0 gives zeros (gemv zeroes its own
    # rows before each call: a BLAS may compute beta * y with beta = 0 rather than overwrite
    # y, which would keep a NaN that fresh memory holds).
    o = allocate(ol, code, sa.device, p.how == MATMUL_BLOCKED or p.k == 0)
    cdef Storage work = None
    if p.work_bytes:
        work = storage_allocate(p.work_bytes, False, sa.device)
        p.work = work.data
    if ol.size == 0 or p.k == 0:
        return o
    if p.how != MATMUL_BLOCKED:
        cpu.load_blas()
    with nogil:
        cpu.matmul(code, isz, &p, o.data)
    return o


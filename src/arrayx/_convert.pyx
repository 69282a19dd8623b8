"""Python objects into arrays: scalars, nested sequences and buffer-protocol exporters.

``asarray`` (in ``_creation``) decides between these and DLPack; this module does the
reading. Nested sequences are read in two passes over the objects: one to find the shape and
the widest scalar kind, one to write each element straight into the new buffer.
"""
from cpython.buffer cimport PyBUF_RECORDS_RO, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport int64_t

from arrayx._array cimport Array, code_of, new_array, wrap
from arrayx._core.arguments cimport exact_sequence
from arrayx._core.layout cimport MAXDIM, Layout, contiguous, new_layout
from arrayx._core.storage cimport Storage, wrap_aligned
from arrayx._engine cimport ITEMSIZE, write_scalar
from arrayx._kernels.dtype_codes cimport (
    DT_BOOL, DT_COMPLEX64, DT_COMPLEX128, DT_FLOAT64, DT_INT64, NDTYPES,
)

import struct
import sys

import numpy as np

from arrayx import _devices, _dtypes
from arrayx._kernels import dtypes as _registry

cdef enum:
    K_BOOL = 0
    K_INT = 1
    K_FLOAT = 2
    K_COMPLEX = 3

# Default dtype code of each scalar kind: bool, int64, float64, complex128.
cdef int DEFAULT_CODE[4]
DEFAULT_CODE[:] = [DT_BOOL, DT_INT64, DT_FLOAT64, DT_COMPLEX128]
cdef object CPU = _devices.CPU
# The scalar kind (K_BOOL ... K_COMPLEX) of each dtype code, from the dtype registry.
cdef int KIND_OF_CODE[NDTYPES]
KIND_OF_CODE[:] = ["bifc".index(kind.replace("u", "i")) for kind in _registry.KIND]
cdef dict CODE = _dtypes.CODE
cdef tuple DTYPES = _dtypes.DTYPES

# Buffer-protocol format characters (native, standard sizes) -> dtype codes: the registry's,
# and C long's and size_t's (ssize_t's), which are the integers of their platform's sizes.
_FORMAT_CODES = {fmt: code for code, fmt in enumerate(_registry.FORMAT)}
for _signed, _unsigned in ("lL", "nN"):
    _SIZED = {4: ("i", "I"), 8: ("q", "Q")}[struct.calcsize(_signed)]
    _FORMAT_CODES[_signed] = _FORMAT_CODES[_SIZED[0]]
    _FORMAT_CODES[_unsigned] = _FORMAT_CODES[_SIZED[1]]


cdef inline int scalar_kind(object x) except -2:
    """The kind of a scalar leaf, or -1 when ``x`` is not one."""
    if isinstance(x, bool):
        return K_BOOL
    if isinstance(x, int):
        return K_INT
    if isinstance(x, float):
        return K_FLOAT
    if isinstance(x, complex):
        return K_COMPLEX
    if isinstance(x, Array) and (<Array>x)._layout.ndim == 0:
        return KIND_OF_CODE[(<Array>x)._code]
    if hasattr(x, "dtype") and getattr(x, "shape", None) == ():
        # A foreign 0-d array or scalar (NumPy's); anything else with these names is not one.
        k = getattr(x.dtype, "kind", None)
        if isinstance(k, str) and len(k) == 1 and k in "biufc" and callable(
                getattr(x, "item", None)):
            return "bifc".index(k if k != "u" else "i")
    return -1


cdef int leaf_code(object x, int kind) except -2:
    """The dtype code a scalar leaf of ``kind`` brings to its sequence's dtype, as NumPy reads
    sequences: a Python scalar its kind's default dtype, a 0-d array or a NumPy scalar its own
    (``[np.int32(1), np.int32(2)]`` is int32; beside a Python int, int64)."""
    if isinstance(x, Array):
        return (<Array>x)._code
    if isinstance(x, (bool, int, float, complex)):
        return DEFAULT_CODE[kind]
    return CODE.get(x.dtype, DEFAULT_CODE[kind])


cdef int promote_codes(int a, int b) except -2:
    """NumPy's promotion of two leaves' dtype codes (-1: no leaf yet)."""
    if a == b or b < 0:
        return a
    if a < 0:
        return b
    return CODE.get(np.promote_types(DTYPES[a], DTYPES[b]), DEFAULT_CODE[KIND_OF_CODE[max(a, b)]])


cdef inline object leaf_value(object x):
    """A scalar leaf as a Python scalar."""
    if isinstance(x, (bool, int, float, complex)):
        return x
    if isinstance(x, Array):
        return (<Array>x).scalar()
    return x.item()


def scalar_like(object x, str what) -> tuple:
    """``x`` as a Python scalar and the dtype code it carries: -1 for a Python scalar, its own
    for a 0-d array (arrayx's or another library's) or a NumPy scalar, which NumPy, CuPy and
    PyTorch accept wherever a scalar is; TypeError naming ``what`` for anything else."""
    cdef int kind = -1 if isinstance(x, Array) and (<Array>x)._layout.ndim else scalar_kind(x)
    if kind < 0:
        raise TypeError(f"{what} must be a Python scalar or a 0-d array, got "
                        f"{type(x).__name__}")
    if isinstance(x, (bool, int, float, complex)):
        return x, -1
    return leaf_value(x), leaf_code(x, kind)


cdef inline bint is_sequence(object x):
    return isinstance(x, (list, tuple))


cdef inline bint is_exact(object x):
    """Whether ``x`` is a list or a tuple itself, not a subclass."""
    return type(x) is list or type(x) is tuple


cdef object exact_tree(object obj, int depth):
    """``obj`` with every list or tuple subclass in it read once through its iterator into a
    list, as NumPy reads sequences: a subclass's ``__len__``, ``__getitem__`` and
    ``__iter__`` need not agree, so the two passes below only ever see exact lists and tuples.
    """
    if not is_sequence(obj):
        return obj
    if depth > MAXDIM:
        raise ValueError(f"arrayx supports at most {MAXDIM} dimensions")
    return [exact_tree(item, depth + 1) for item in exact_sequence(obj)]


cdef int scan(object obj, int depth, int ndim, const int64_t* shape) except -2:
    """Check ``obj`` has ``shape`` from ``depth`` on; return the dtype code its leaves
    promote to (``leaf_code``), -1 when it has none.

    Only exact lists and tuples are read (``exact_tree`` makes them so); -3 says a
    subclass was met and nothing can be concluded, -4 that an array of one or more dimensions
    is among the items (``from_nested_arrays`` stacks those).
    """
    cdef int code = -1, k
    if depth == ndim:
        k = scalar_kind(obj)
        if k < 0:
            if is_sequence(obj):
                raise ValueError("the nested sequence is ragged: its lengths differ")
            if _is_array(obj):
                return -4
            raise TypeError(f"Unsupported array element: a {type(obj).__name__} (arrayx "
                            f"arrays hold bools and numbers)")
        return leaf_code(obj, k)
    if not is_exact(obj):
        if is_sequence(obj):
            return -3
        if _is_array(obj):  # an array where the first items' path had a list: stack them
            return -4
        raise ValueError("the nested sequence is ragged: its lengths differ")
    if len(obj) != shape[depth]:
        raise ValueError("the nested sequence is ragged: its lengths differ")
    for item in obj:
        k = scan(item, depth + 1, ndim, shape)
        if k == -3 or k == -4:
            return k
        if k != code:
            code = promote_codes(code, k)
    return code


cdef int fill(object obj, int depth, int ndim, const int64_t* shape, char** ptr,
              int code, int kind) except -1:
    """Write the leaves of ``obj`` in C order at ``*ptr``, advancing it.

    Each level's count, and each leaf's kind (at most ``kind``, the widest ``scan`` found), is
    checked as it is read: a leaf's conversion runs user code that may change the sequences
    after ``scan`` measured them.
    """
    cdef int k
    if depth == ndim:
        k = scalar_kind(obj)  # -1 for a sequence too
        if k < 0 or k > kind:
            raise ValueError("the nested sequence changed while it was read")
        write_scalar(ptr[0], code, leaf_value(obj))
        ptr[0] += ITEMSIZE[code]
        return 0
    if not is_sequence(obj):
        raise ValueError("the nested sequence changed while it was read")
    cdef int64_t count = 0
    for item in obj:
        if count == shape[depth]:
            raise ValueError("the nested sequence changed while it was read")
        fill(item, depth + 1, ndim, shape, ptr, code, kind)
        count += 1
    if count != shape[depth]:
        raise ValueError("the nested sequence changed while it was read")
    return 0


cdef int fill_int64(list obj, int64_t n, int64_t* out) except -1:
    """The fast path of a flat list of ``n`` Python ints into int64 (-2: not all ints)."""
    cdef Py_ssize_t i
    if len(obj) != n:
        raise ValueError("the nested sequence changed while it was read")
    for i in range(n):
        x = obj[i]
        if type(x) is not int:
            return -2
        out[i] = x
    return 0


cdef int shape_of(object x, int64_t* shape) except -1:
    """The dimension count and ``shape`` of a nested sequence, read along its first items
    (-3: a list or tuple subclass is on that path)."""
    cdef int ndim = 0
    while is_sequence(x):
        if not is_exact(x):
            return -3
        if ndim == MAXDIM:
            raise ValueError(f"arrayx supports at most {MAXDIM} dimensions")
        shape[ndim] = len(x)
        ndim += 1
        if len(x) == 0:
            break
        x = x[0]
    return ndim


def from_sequence(obj, dtype, device) -> Array:
    """An array holding a Python scalar or a nested sequence of scalars (or 0-d arrays),
    built on the CPU and copied to ``device`` when that is another."""
    cdef Array out = _host_sequence(obj, dtype, device)
    if device is CPU or out._storage.device is device:
        return out
    return out.to_device(device)


cdef Array _host_sequence(obj, dtype, device):
    """``from_sequence`` on the CPU (arrays nested in ``obj`` stacked on ``device``)."""
    cdef int64_t shape[MAXDIM]
    cdef int ndim = shape_of(obj, shape)
    cdef int found = -3 if ndim == -3 else scan(obj, 0, ndim, shape)
    if found == -3:
        obj = exact_tree(obj, 0)
        ndim = shape_of(obj, shape)
        found = scan(obj, 0, ndim, shape)
    if found == -4:
        return from_nested_arrays(obj, dtype, device)
    cdef int kind = KIND_OF_CODE[found] if found >= 0 else -1
    cdef int code
    if dtype is None:
        code = found if found >= 0 else 10
    else:
        code = code_of(dtype)
        _check_kind(kind, code)
    cdef Layout L = contiguous(ndim, shape)
    cdef Array out = new_array(L, code, CPU)
    cdef char* p = out._storage.data
    if ndim == 1 and code == DT_INT64 and type(obj) is list:
        try:
            if fill_int64(obj, shape[0], <int64_t*>p) == 0:
                return out
        except OverflowError:
            raise OverflowError("a Python int in the sequence does not fit in int64") from None
    fill(obj, 0, ndim, shape, &p, code, kind)
    return out


cdef bint _is_array(object x):
    """Whether ``x`` is an array of arrayx or of another library (one NumPy can read)."""
    return isinstance(x, (Array, np.ndarray)) or hasattr(x, "__dlpack__") or hasattr(
        x, "__array__")


def from_nested_arrays(obj, dtype, device) -> Array:
    """A nested sequence that holds arrays among its items, as NumPy reads it: the arrays
    (arrayx's or another library's), sequences and scalars of each level stacked, their
    dtypes promoted; ValueError when their shapes differ (ragged)."""
    from arrayx._creation import asarray
    from arrayx._data_type_functions import astype
    from arrayx._manipulation import stack

    def stacked(item, int depth):
        if depth > MAXDIM:
            raise ValueError(f"arrayx supports at most {MAXDIM} dimensions")
        if not is_sequence(item):
            return asarray(item, device=device)
        parts = [stacked(part, depth + 1) for part in exact_sequence(item)]
        if not parts:
            return from_sequence([], None, device)
        if len({part.shape for part in parts}) > 1:
            raise ValueError("the nested sequence is ragged: its arrays' shapes differ")
        return stack(parts)

    out = stacked(obj, 0)
    return out if dtype is None or out.dtype == dtype else astype(out, dtype)


cdef int _check_kind(int kind, int code) except -1:
    if kind == K_COMPLEX and code < DT_COMPLEX64:
        raise TypeError("cannot store complex values in a real dtype")
    return 0


_NATIVE_ORDER = "@=<" if sys.byteorder == "little" else "@=>"


def from_buffer(obj) -> Array:
    """A zero-copy array over a buffer-protocol exporter (read-only if the buffer is); a copy
    when the buffer is not aligned to its element type (``Storage.owner`` is then None)."""
    mv = memoryview(obj)
    # "<" (little-endian, standard sizes: ctypes' arrays say so) is the native order on a
    # little-endian machine; a standard size that differs from the native one fails the
    # itemsize check below.
    fmt = mv.format.lstrip(_NATIVE_ORDER)
    code = _FORMAT_CODES.get(fmt)
    if code is None or ITEMSIZE[code] != mv.itemsize:
        raise TypeError(f"buffer format {mv.format!r} is not one of the standard's dtypes")
    cdef int64_t shape[MAXDIM]
    cdef int64_t strides[MAXDIM]
    cdef int isz = mv.itemsize
    cdef int n = mv.ndim
    if n > MAXDIM:
        raise ValueError(f"arrayx supports at most {MAXDIM} dimensions")
    for i in range(n):
        shape[i] = mv.shape[i]
        if mv.strides[i] % isz:
            raise ValueError("buffer strides are not a multiple of its item size")
        strides[i] = mv.strides[i] // isz
    cdef Layout L = new_layout(n, shape, strides, 0)
    cdef int64_t lo = L.min_offset()
    cdef int64_t hi = L.max_offset()
    cdef Py_ssize_t address = _buffer_address(mv)
    cdef Storage s
    cdef Layout shifted
    if L.size == 0:
        lo = 0
        hi = -1
    shifted = new_layout(n, shape, strides, -lo)
    # Memory not aligned to the element type is copied (complex: to one part's alignment).
    s = wrap_aligned(<char*>(address + lo * isz), (hi - lo + 1) * isz, mv, mv.readonly, CPU,
                     isz // 2 if code >= DT_COMPLEX64 else isz)
    return wrap(s, shifted, code)


cdef Py_ssize_t _buffer_address(object mv) except? -1:
    cdef Py_buffer view
    PyObject_GetBuffer(mv, &view, PyBUF_RECORDS_RO)
    cdef Py_ssize_t address = <Py_ssize_t>view.buf
    PyBuffer_Release(&view)
    return address

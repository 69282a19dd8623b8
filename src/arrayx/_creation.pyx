"""Creation functions of the standard: arange ... zeros_like."""
from libc.math cimport ceil, isfinite, signbit
from libc.stdint cimport INT64_MAX, int64_t

from arrayx._array cimport (
    Array, as_array, assign_value, code_of, contiguous_copy, new_array, wrap,
)
from arrayx._core.arguments cimport integer, parse_shape
from arrayx._core.layout cimport MAXDIM, Layout, broadcast_to, contiguous, new_layout
from arrayx._engine cimport (
    ITEMSIZE, copy_cast, int_progression, progression, write_element, zero_triangle,
)
from arrayx._kernels.dtype_codes cimport (
    DT_BOOL, DT_COMPLEX64, DT_COMPLEX128, DT_FLOAT32, DT_FLOAT64, DT_INT8, DT_UINT64,
)

import operator
from collections.abc import Mapping

import numpy as np

from arrayx import _devices, _dtypes
from arrayx._array import _scalar_array, apply_binary, apply_unary
from arrayx._convert import from_buffer, from_sequence, scalar_like
from arrayx._dlpack import from_dlpack
from arrayx._engine import INT_RANGE
from arrayx._docfill import fill, sections

__all__ = [
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
    "linspace", "logspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros",
    "zeros_like",
]

cdef object CPU = _devices.CPU
cdef object as_device = _devices.as_device


cdef inline object _device_of(object device):
    return CPU if device is None and _devices._default is CPU else as_device(device)


cdef Array _new(object shape, object dtype, object device, bint zero):
    cdef int64_t sh[MAXDIM]
    cdef int n = parse_shape(shape, sh)
    cdef int code = DT_FLOAT64 if dtype is None else code_of(dtype)
    return new_array(contiguous(n, sh), code, _device_of(device), zero)


cdef int _fill(Array out, object value) except -1:
    """Set every element of ``out`` to the Python scalar ``value``."""
    if out._layout.size == 0:
        return 0
    cdef Layout one = contiguous(0, NULL)
    cdef Array s = new_array(one, out._code, out._storage.device)
    write_element(s._storage, 0, out._code, value)
    copy_cast(s._storage, broadcast_to(one, out._layout.ndim, out._layout.shape_), out._code,
              out._storage, out._layout, out._code)
    return 0


def empty(shape, *, dtype=None, device=None) -> Array:
    """An uninitialised array of ``shape``: its elements are whatever the memory held.

    %(new_sections)s

    %(examples)s
    >>> x = xp.empty((2, 3), dtype=xp.int32)
    >>> x.shape, x.dtype
    ((2, 3), dtype('int32'))
    """
    return _new(shape, dtype, device, False)


def zeros(shape, *, dtype=None, device=None) -> Array:
    """An array of ``shape`` filled with zeros.

    %(new_sections)s

    %(examples)s
    >>> xp.zeros((2, 2))
    Array([[0., 0.],
           [0., 0.]], dtype=float64)
    >>> xp.zeros(3, dtype=xp.int8)
    Array([0, 0, 0], dtype=int8)
    """
    return _new(shape, dtype, device, True)


def ones(shape, *, dtype=None, device=None) -> Array:
    """An array of ``shape`` filled with ones.

    %(new_sections)s

    %(examples)s
    >>> xp.ones(3)
    Array([1., 1., 1.], dtype=float64)
    >>> xp.ones((1, 2), dtype=xp.bool)
    Array([[ True,  True]], dtype=bool)
    """
    cdef Array out = _new(shape, dtype, device, False)
    _fill(out, True)
    return out


def _default_dtype_of(value) -> object:
    if isinstance(value, bool):
        return _dtypes.bool
    if isinstance(value, int):
        return _dtypes.default_int
    if isinstance(value, float):
        return _dtypes.default_float
    if isinstance(value, complex):
        return _dtypes.default_complex
    raise TypeError(f"fill_value must be a Python scalar, got {type(value).__name__}")


def full(shape, fill_value, *, dtype=None, device=None) -> Array:
    """An array of ``shape`` filled with ``fill_value``.

    Parameters
    ----------
    %(shape)s
    fill_value : bool, int, float, complex, or a 0-d array
        The value of every element, written as assignment writes it (a float into an
        integer dtype truncates, as NumPy's ``full`` does).
    dtype : dtype, optional
        Default: a 0-d array's (or NumPy scalar's) own dtype, else the default dtype of
        ``fill_value``'s kind (``bool``, ``int64``, ``float64`` or ``complex128``).
    %(device)s

    Returns
    -------
    Array
        A new C-contiguous array.

    Raises
    ------
    TypeError
        If ``fill_value`` is not a Python scalar or a 0-d array, or is complex for a real
        ``dtype``.

    %(examples)s
    >>> xp.full((2, 2), 7)
    Array([[7, 7],
           [7, 7]], dtype=int64)
    >>> xp.full(3, 0.5, dtype=xp.float32)
    Array([0.5, 0.5, 0.5], dtype=float32)
    """
    value, code = scalar_like(fill_value, "fill_value")
    if dtype is None:
        dtype = _dtypes.DTYPES[code] if code >= 0 else _default_dtype_of(value)
    cdef Array out = _new(shape, dtype, device, False)
    _fill(out, assign_value(value, out._code))
    return out


cdef Array _new_like(object x, str name, object dtype, object device, bint zero):
    """A new array of ``x``'s shape, of ``dtype`` and on ``device`` (by default ``x``'s)."""
    cdef Array a = as_array(x, name)
    return _new(a.shape, a.dtype if dtype is None else dtype,
                a._storage.device if device is None else device, zero)


def empty_like(x, /, *, dtype=None, device=None) -> Array:
    """An uninitialised array with the shape of ``x`` (its elements are whatever the memory held).

    %(like_sections)s

    %(examples)s
    >>> x = xp.empty_like(xp.zeros((2, 3)))
    >>> x.shape, x.dtype
    ((2, 3), dtype('float64'))
    """
    return _new_like(x, "empty_like", dtype, device, False)


def zeros_like(x, /, *, dtype=None, device=None) -> Array:
    """Zeros with the shape of ``x``.

    %(like_sections)s

    %(examples)s
    >>> xp.zeros_like(xp.asarray([1, 2, 3]))
    Array([0, 0, 0], dtype=int64)
    """
    return _new_like(x, "zeros_like", dtype, device, True)


def ones_like(x, /, *, dtype=None, device=None) -> Array:
    """Ones with the shape of ``x``.

    %(like_sections)s

    %(examples)s
    >>> xp.ones_like(xp.asarray([[1.5, 2.5]]))
    Array([[1., 1.]], dtype=float64)
    """
    cdef Array out = _new_like(x, "ones_like", dtype, device, False)
    _fill(out, True)
    return out


def full_like(x, /, fill_value, *, dtype=None, device=None) -> Array:
    """``fill_value`` in every element, with the shape of ``x``.

    Parameters
    ----------
    %(like_x)s
    fill_value : bool, int, float, complex, or a 0-d array
        The value of every element, written as assignment writes it.
    %(like_dtype)s
    %(like_device)s

    Returns
    -------
    %(returns_like)s

    Raises
    ------
    %(raises_not_array)s

    %(examples)s
    >>> xp.full_like(xp.asarray([1, 2, 3]), 9)
    Array([9, 9, 9], dtype=int64)
    """
    cdef Array out = _new_like(x, "full_like", dtype, device, False)
    _fill(out, assign_value(scalar_like(fill_value, "fill_value")[0], out._code))
    return out


def asarray(obj, /, *, dtype=None, device=None, copy=None) -> Array:
    """Convert ``obj`` to an array, sharing its memory where that is possible.

    Parameters
    ----------
    obj : Array, Python scalar, nested sequence, buffer or DLPack producer
        What to convert. Arrays of any library with ``__dlpack__`` (NumPy, PyTorch, ...) and
        objects with the buffer protocol are read without a copy; Python scalars and (nested)
        sequences are copied.
    dtype : dtype, optional
        The result's dtype. Default: ``obj``'s dtype, or for Python objects the default dtype of
        the widest kind present (``bool``, ``int64``, ``float64``, ``complex128``).
    device : Device or str, optional
        Default: ``obj``'s device when it is an arrayx array or lives on a GPU; the default
        device for Python objects and host data (NumPy arrays, buffers, CPU DLPack tensors).
    copy : bool, optional
        True always copies; False never does; None (default) copies only when needed (a dtype
        conversion, a move to another device, or Python objects).

    Returns
    -------
    Array
        ``obj`` itself when it is an arrayx array of the asked dtype and device and ``copy`` is
        not True; otherwise a new array or a view of ``obj``'s memory.

    Raises
    ------
    ValueError
        If ``copy=False`` and a copy is needed; if the nested sequences are ragged.
    TypeError
        If ``obj`` cannot be converted.
    OverflowError
        If a Python int does not fit ``dtype``.

    %(examples)s
    >>> xp.asarray([[1, 2], [3, 4]])
    Array([[1, 2],
           [3, 4]], dtype=int64)
    >>> xp.asarray([1, 2.5])
    Array([1. , 2.5], dtype=float64)
    >>> import numpy as np
    >>> n = np.zeros(3)
    >>> a = xp.asarray(n)        # shares n's memory
    >>> n[0] = 7.0
    >>> a
    Array([7., 0., 0.], dtype=float64)
    >>> xp.asarray(a, copy=False) is a
    True
    """
    cdef Array a
    cdef int code
    if isinstance(obj, Array):
        a = <Array>obj
    elif isinstance(obj, (list, tuple, bool, int, float, complex)):
        if copy is False:
            raise ValueError("converting Python objects needs a copy, but copy=False")
        return from_sequence(obj, dtype, _device_of(device))
    elif isinstance(obj, np.generic):
        # A NumPy scalar is immutable: its buffer is read-only. As NumPy does, the array is
        # new and writeable (the 0-d NumPy array it views is made for it).
        if copy is False:
            raise ValueError("converting a NumPy scalar needs a copy, but copy=False")
        a = from_buffer(np.array(obj))
    elif hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        try:
            a = from_dlpack(obj)
        except BufferError:
            a = from_buffer(obj)
    else:
        try:
            a = from_buffer(obj)
        except TypeError:
            if copy is False:
                raise ValueError(f"a {type(obj).__name__} needs a copy, but copy=False") from None
            # A mapping iterates over its keys, which are not its elements (NumPy makes an
            # object array of a dict, PyTorch refuses it).
            if (hasattr(obj, "__len__") and hasattr(obj, "__getitem__")
                    and not isinstance(obj, Mapping)):
                return from_sequence(list(obj), dtype, _device_of(device))
            raise TypeError(f"cannot convert a {type(obj).__name__} to an arrayx array") from None
    if copy is False and a is not obj and a._storage.owner is None:
        raise ValueError(f"the {type(obj).__name__}'s memory is not aligned to its dtype, so "
                         f"arrayx needs a copy, but copy=False")
    code = a._code if dtype is None else code_of(dtype)
    if device is not None:
        dev = as_device(device)
    elif a is not obj and a._storage.device is CPU:
        # Host data from another library (NumPy, a buffer, a CPU DLPack tensor) goes to the
        # default device, as Python sequences do; an array on a GPU stays there.
        dev = _device_of(None)
    else:
        dev = a._storage.device
    if dev != a._storage.device:
        if copy is False:
            raise ValueError(f"moving an array to {dev} needs a copy, but copy=False")
        a = a.to_device(dev)
        copy = None  # the move made a fresh array: copy=True needs no second copy
    if code != a._code:
        if copy is False:
            raise ValueError(f"casting {a.dtype} to {_dtypes.DTYPES[code]} needs a copy, but "
                             f"copy=False")
        return contiguous_copy(a, code)
    if copy:
        return contiguous_copy(a, code)
    return a


cdef object _real_arg(object v):
    """``v`` as a Python int or float (NumPy's integer and float scalars included); TypeError
    for bools, complex numbers and anything else."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v
    if not isinstance(v, (bool, complex)) and getattr(v, "dtype", None) is not None \
            and getattr(v, "shape", None) == ():
        kind = getattr(v.dtype, "kind", None)
        if kind in ("i", "u"):
            return operator.index(v)
        if kind == "f":
            return float(v)
    raise TypeError(f"arange takes real numbers, got {v!r}")


cdef bint _is_int(object x):
    return isinstance(x, int) and not isinstance(x, bool)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Array:
    """Evenly spaced values in the half-open interval ``[start, stop)``, ``step`` apart.

    Parameters
    ----------
    start : int or float
        The first value; with ``stop`` None, the end of the interval, which then starts at 0.
    stop : int or float, optional
        The end of the interval (not included).
    step : int or float, optional
        The spacing; not zero. Default 1.
    dtype : dtype, optional
        Default ``int64`` when every argument is an int, ``float64`` otherwise.
    %(device)s

    Returns
    -------
    Array
        A 1-D array of ``ceil((stop - start) / step)`` elements (none if that is negative).

    Raises
    ------
    ValueError
        If ``step`` is zero.
    TypeError
        If an argument is not a real number (a bool or complex included).

    %(examples)s
    >>> xp.arange(5)
    Array([0, 1, 2, 3, 4], dtype=int64)
    >>> xp.arange(1, 2, 0.25)
    Array([1.  , 1.25, 1.5 , 1.75], dtype=float64)
    >>> xp.arange(5, 0, -2)
    Array([5, 3, 1], dtype=int64)
    """
    if stop is None:
        start, stop = 0, start
    start, stop, step = _real_arg(start), _real_arg(stop), _real_arg(step)
    if step == 0:
        raise ValueError("arange's step must not be zero")
    all_int = _is_int(start) and _is_int(stop) and _is_int(step)
    if dtype is None:
        dtype = _dtypes.default_int if all_int else _dtypes.default_float
    cdef int code = code_of(dtype)
    cdef double span, delta
    if all_int:
        if not all(-(1 << 63) <= v < (1 << 63) for v in (start, stop, step)):
            raise OverflowError(f"arange's arguments ({start}, {stop}, {step}) do not fit in "
                                f"int64")
        n = max(0, -((start - stop) // step))
    else:
        delta = <double>stop - <double>start
        span = delta / <double>step
        # A quotient that underflows to zero is one element when stop lies beyond start in
        # step's direction (NumPy's rule: the sign of the zero).
        span = (0.0 if signbit(span) else 1.0) if span == 0.0 and delta != 0.0 else ceil(span)
        if not isfinite(span):
            raise ValueError("arange's length is not finite")
        n = max(0, <int64_t>span) if span < <double>INT64_MAX else span
    if n > INT64_MAX:
        raise ValueError(f"arange would have {n} elements: too many")
    cdef int64_t sh[1]
    sh[0] = n
    cdef Array out = new_array(contiguous(1, sh), code, _device_of(device))
    cdef int64_t i0, i1
    if DT_INT8 <= code <= DT_UINT64:
        # NumPy's rule: the first two values in the dtype, then their difference repeated
        # (wrapping); OverflowError when either value does not fit in the dtype.
        first = start if all_int else int(start)
        second = start + step if all_int else int(start + step)
        lo, hi = INT_RANGE[code]
        for v in (first, second)[:min(n, 2)]:
            if not lo <= v <= hi:
                raise OverflowError(f"arange's value {v} is out of bounds for {dtype}")
        i0 = _wrapped(first)
        i1 = _wrapped(second - first)
        int_progression(out._storage, code, n, i0, i1)
    elif code == DT_BOOL and n > 0:
        if n > 2 or (n == 2 and bool(start) == bool(start + step)):
            raise ValueError("arange of more than two distinct values cannot be bool")
        int_progression(out._storage, code, n, 1 if start else 0,
                        0 if bool(start) == bool(start + step) else 1)
    else:
        progression(out._storage, code, n, <double>start, <double>step)
        if n and start == 0 and signbit(<double>start):
            write_element(out._storage, 0, code, start)  # -0.0 + 0 * step is +0.0
    return out


cdef int64_t _wrapped(object v):
    """The Python int ``v`` (in -2^63 .. 2^64) as the int64 of its low 64 bits (the uint64
    values above 2^63 wrap, as int_progression's arithmetic does)."""
    return ((v + (1 << 63)) % (1 << 64)) - (1 << 63)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True) -> Array:
    """``num`` evenly spaced values from ``start`` to ``stop``, by NumPy's formula.

    Element ``i`` is ``start + i * step`` with ``step = (stop - start) / div`` (``div`` is
    ``num - 1``, or ``num`` without the endpoint), computed in the dtype NumPy computes in:
    ``float32`` or ``complex64`` when a bound is a 0-d array or NumPy scalar of that dtype,
    else ``float64`` or ``complex128``. The last element is ``stop`` exactly.

    Parameters
    ----------
    start, stop : int, float, complex, or a 0-d array
        The ends of the interval.
    num : int
        How many values; non-negative.
    dtype : dtype, optional
        The result's dtype; default the dtype computed in. An integer dtype takes the floor of
        each value, as NumPy's does.
    %(device)s
    endpoint : bool, optional
        Whether ``stop`` is the last value (default True); False leaves it out and spaces the
        values ``(stop - start) / num`` apart.

    Returns
    -------
    Array
        A 1-D array of ``num`` elements.

    Raises
    ------
    ValueError
        If ``num`` is negative.
    TypeError
        If a bound is neither a Python scalar nor a 0-d array, or is complex for a real
        ``dtype``.

    %(examples)s
    >>> xp.linspace(0, 1, 5)
    Array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float64)
    >>> xp.linspace(0, 1, 4, endpoint=False)
    Array([0.  , 0.25, 0.5 , 0.75], dtype=float64)
    >>> xp.linspace(0, 10, 4, dtype=xp.int64)
    Array([ 0,  3,  6, 10], dtype=int64)
    """
    num = integer(num, "num")
    if num < 0:
        raise ValueError(f"linspace's num must be non-negative, got {num}")
    start, c1 = scalar_like(start, "linspace's start")
    stop, c2 = scalar_like(stop, "linspace's stop")
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    typed = [_dtypes.DTYPES[c] for c in (c1, c2) if c >= 0]
    work = _dtypes.with_scalar(_dtypes.result_type(*typed), "float") if typed \
        else _dtypes.default_float
    if is_complex:
        work = _dtypes.with_scalar(work, "complex")
    cdef int code = code_of(work if dtype is None else dtype)
    if is_complex and code < DT_COMPLEX64:
        raise TypeError(f"linspace with complex bounds makes complex arrays, not "
                        f"{_dtypes.DTYPES[code]}")
    device = _device_of(device)
    div = (num - 1) if endpoint else num
    out = _spaced(start, stop, num, div, code_of(work), device)
    if endpoint and num > 1:
        out[num - 1] = stop
    if code <= DT_UINT64 and code != DT_BOOL:
        out = apply_unary("floor", out)
    return out if (<Array>out)._code == code else contiguous_copy(out, code)


def logspace(start, stop, /, num=50, *, endpoint=True, base=10.0, dtype=None,
             device=None) -> Array:
    """``num`` powers of ``base`` with exponents evenly spaced from ``start`` to ``stop``.

    An extension (NumPy's, CuPy's and PyTorch's ``logspace``; the standard has none; strict
    mode hides it). Computed as NumPy does: ``base`` in the dtype of
    ``linspace(start, stop, num, endpoint=endpoint)`` raised to it, then cast to ``dtype``.

    Parameters
    ----------
    start, stop : Python scalar, 0-d array or NumPy scalar
        The first and last exponents (``stop`` excluded when ``endpoint`` is false).
    num : int, optional
        The number of values (default 50).
    endpoint : bool, optional
        Whether ``stop`` is the last exponent (default True).
    base : Python scalar, optional
        The base (default 10.0).
    dtype : dtype, optional
        The result's dtype (default: the exponents' floating dtype).
    device : Device or str, optional
        Default: the default device.

    Returns
    -------
    Array
        A new 1-D array of ``num`` values.

    Raises
    ------
    TypeError, ValueError
        As ``linspace`` for the exponents; TypeError if ``base`` does not fit their dtype.

    %(examples)s
    >>> xp.logspace(0, 3, 4)
    Array([   1.,   10.,  100., 1000.], dtype=float64)
    >>> xp.logspace(0, 3, 3, endpoint=False, base=2.0)
    Array([1., 2., 4.], dtype=float64)
    """
    exponents = linspace(start, stop, num, endpoint=endpoint, device=device)
    out = apply_binary("pow", _scalar_array(base, exponents.dtype, exponents.device), exponents)
    return out if dtype is None or out.dtype == dtype else contiguous_copy(out, code_of(dtype))


cdef Array _spaced(object start, object stop, int64_t num, int64_t div, int code,
                   object device):
    """``start + i * step`` for ``i < num`` in dtype ``code`` (floating), as NumPy computes
    it: the double-precision progression kernel for 64-bit dtypes, whose arithmetic is
    NumPy's; the elementwise kernels in float32 and complex64, and where ``step`` underflows
    to 0 (NumPy then scales ``i / div`` by the whole interval)."""
    cdef int64_t sh[1]
    sh[0] = num
    if code == DT_FLOAT64 or code == DT_COMPLEX128:
        if code == DT_FLOAT64:
            delta = float(stop) - float(start)
            step = delta / div if div > 0 else 0.0
        else:  # NumPy divides a complex by a real as a product with its reciprocal
            delta = complex(stop) - complex(start)
            step = complex(delta.real * (1.0 / div), delta.imag * (1.0 / div)) if div > 0 \
                else 0j
        if step != 0 or delta == 0:
            out = new_array(contiguous(1, sh), code, device)
            progression((<Array>out)._storage, code, num, complex(start), step)
            return out
    dt = _dtypes.DTYPES[code]
    i = arange(num, dtype=dt, device=device)
    lo = _scalar_array(start, dt, device)
    delta = _scalar_array(stop, dt, device) - lo
    if div <= 0:
        return i * delta + lo
    step = delta / div
    return (i / div * delta if bool(step == 0) else i * step) + lo


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None) -> Array:
    """A 2-D array with ones on diagonal ``k`` and zeros elsewhere.

    Parameters
    ----------
    n_rows : int
        The number of rows.
    n_cols : int, optional
        The number of columns; default ``n_rows``.
    k : int, optional
        The diagonal: 0 (default) the main one, positive above it, negative below it.
    %(dtype_float64)s
    %(device)s

    Returns
    -------
    Array
        A new ``(n_rows, n_cols)`` array.

    %(examples)s
    >>> xp.eye(2)
    Array([[1., 0.],
           [0., 1.]], dtype=float64)
    >>> xp.eye(2, 3, k=1, dtype=xp.int64)
    Array([[0, 1, 0],
           [0, 0, 1]], dtype=int64)
    """
    n_rows = integer(n_rows, "n_rows")
    n_cols = n_rows if n_cols is None else integer(n_cols, "n_cols")
    k = integer(k, "k")
    cdef Array out = _new((n_rows, n_cols), dtype, device, True)
    k = max(-n_rows, min(n_cols, k))
    cdef int64_t r0 = max(0, -k), c0 = max(0, k)
    cdef int64_t length = max(0, min(n_rows - r0, n_cols - c0))
    cdef int64_t sh[1]
    cdef int64_t st[1]
    sh[0] = length
    st[0] = n_cols + 1
    cdef Array diag
    if length > 0:
        diag = wrap(out._storage, new_layout(1, sh, st, r0 * n_cols + c0), out._code)
        _fill(diag, True)
    return out


def _triangle(x, k, bint keep_lower, str name) -> Array:
    cdef Array a = as_array(x, name)
    if a._layout.ndim < 2:
        raise ValueError(f"{name} needs an array of at least 2 dimensions, got {a.ndim}")
    k = operator.index(k)
    cdef Array out = contiguous_copy(a, a._code)
    cdef int64_t rows = a._layout.shape_[a._layout.ndim - 2]
    cdef int64_t cols = a._layout.shape_[a._layout.ndim - 1]
    cdef int64_t kk = max(-rows - 1, min(cols + 1, k)) if -rows - 1 <= k <= cols + 1 else (
        -rows - 1 if k < 0 else cols + 1)
    zero_triangle(out._storage, out._layout, out._code, kk, keep_lower)
    return out


def tril(x, /, *, k=0) -> Array:
    """The lower triangle of each matrix of ``x`` (on and below diagonal ``k``); zeros above.

    %(triangle_sections)s

    %(examples)s
    >>> x = xp.reshape(xp.arange(1, 10), (3, 3))
    >>> xp.tril(x)
    Array([[1, 0, 0],
           [4, 5, 0],
           [7, 8, 9]], dtype=int64)
    >>> xp.tril(x, k=-1)
    Array([[0, 0, 0],
           [4, 0, 0],
           [7, 8, 0]], dtype=int64)
    """
    return _triangle(x, k, True, "tril")


def triu(x, /, *, k=0) -> Array:
    """The upper triangle of each matrix of ``x`` (on and above diagonal ``k``); zeros below.

    %(triangle_sections)s

    %(examples)s
    >>> xp.triu(xp.reshape(xp.arange(1, 10), (3, 3)))
    Array([[1, 2, 3],
           [0, 5, 6],
           [0, 0, 9]], dtype=int64)
    """
    return _triangle(x, k, False, "triu")


def meshgrid(*arrays, indexing="xy") -> tuple:
    """Coordinate matrices from 1-D coordinate arrays.

    Parameters
    ----------
    *arrays : Array
        1-D arrays, all of one dtype.
    indexing : {"xy", "ij"}, optional
        Cartesian ("xy", default: the first two output axes swapped) or matrix ("ij") indexing.

    Returns
    -------
    tuple of Array
        One array per input, each of the full grid's shape (new arrays, not views).

    Raises
    ------
    ValueError
        If an array is not 1-D or ``indexing`` is neither "xy" nor "ij".
    TypeError
        If the arrays' dtypes differ.

    %(examples)s
    >>> gx, gy = xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([10, 20]))
    >>> gx
    Array([[1, 2, 3],
           [1, 2, 3]], dtype=int64)
    >>> gy
    Array([[10, 10, 10],
           [20, 20, 20]], dtype=int64)
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', got {indexing!r}")
    cdef list arrs = [as_array(x, "meshgrid") for x in arrays]
    for x in arrs:
        if x.ndim != 1:
            raise ValueError(f"meshgrid takes 1-D arrays, got shape {x.shape}")
    if arrs and any(x.dtype != arrs[0].dtype for x in arrs):
        raise TypeError("meshgrid's arrays must share one dtype")
    if arrs and any(x.device != arrs[0].device for x in arrs):
        raise ValueError("meshgrid's arrays must share one device")
    cdef int n = len(arrs)
    if n > MAXDIM:
        raise ValueError(f"meshgrid of {n} arrays would need {n} dimensions; arrayx supports "
                         f"at most {MAXDIM}")
    shape = [a.shape[0] for a in arrs]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    cdef int64_t sh[MAXDIM]
    cdef int64_t st[MAXDIM]
    for i in range(n):
        sh[i] = shape[i]
    cdef Array a, out
    result = []
    for i in range(n):
        a = arrs[i]
        axis = i
        if indexing == "xy" and n >= 2 and i < 2:
            axis = 1 - i
        for j in range(n):
            st[j] = a._layout.strides_[0] if j == axis else 0
        out = new_array(contiguous(n, sh), a._code, a._storage.device)
        copy_cast(a._storage, new_layout(n, sh, st, a._layout.offset), a._code,
                  out._storage, out._layout, out._code)
        result.append(out)
    return tuple(result)


fill([arange, asarray, empty, empty_like, eye, full, full_like, linspace, logspace, meshgrid, ones,
     ones_like, tril, triu, zeros, zeros_like],
     triangle_sections=sections([
         "x_stack",
         "k : int, optional\n"
         "    The diagonal that bounds the triangle: 0 (default) the main one, positive above\n"
         "    it, negative below it."], "returns_new", ["raises_few_dims"]),
     new_sections=sections(["shape", "dtype_float64", "device"], "A new C-contiguous array.", [
         "raises_negative_size",
         "TypeError\n    If ``dtype`` is not one of the standard's dtypes."]),
     like_sections=sections(["like_x", "like_dtype", "like_device"], "returns_like",
                            ["raises_not_array"]))

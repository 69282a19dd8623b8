"""Creation functions of the standard: arange ... zeros_like."""
from libc.math cimport ceil, isfinite
from libc.stdint cimport INT64_MAX, int64_t

from arrayx._array cimport Array, as_array, code_of, contiguous_copy, new_array, wrap
from arrayx._core.layout cimport (
    MAXDIM, Layout, broadcast_to, contiguous, new_layout, parse_shape,
)
from arrayx._engine cimport ITEMSIZE, copy_cast, write_scalar
from arrayx._kernels.cpu.kernels cimport (
    int_progression_kernel, progression_kernel, zero_triangle,
)

import operator

from arrayx import _devices, _dtypes
from arrayx._convert import from_buffer, from_sequence
from arrayx._dlpack import from_dlpack

__all__ = [
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
    "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
]

cdef object CPU = _devices.CPU
cdef object as_device = _devices.as_device


cdef inline object _device_of(object device):
    return CPU if device is None and _devices._default is CPU else as_device(device)


cdef Array _new(object shape, object dtype, object device, bint zero):
    cdef int64_t sh[MAXDIM]
    cdef int n = parse_shape(shape, sh)
    cdef int code = 10 if dtype is None else code_of(dtype)
    return new_array(contiguous(n, sh), code, _device_of(device), zero)


cdef int _fill(Array out, object value) except -1:
    """Set every element of ``out`` to the Python scalar ``value``."""
    if out._layout.size == 0:
        return 0
    cdef Layout one = contiguous(0, NULL)
    cdef Array s = new_array(one, out._code, out._storage.device)
    write_scalar(s._storage.data, out._code, value)
    copy_cast(s._storage, broadcast_to(one, out._layout.ndim, out._layout.shape_), out._code,
              out._storage, out._layout, out._code)
    return 0


def empty(shape, *, dtype=None, device=None) -> Array:
    """An uninitialised array of ``shape``.

    Parameters
    ----------
    shape : int or tuple of ints
    dtype : dtype, optional
        Default ``float64``.
    device : device, optional

    Returns
    -------
    Array
    """
    return _new(shape, dtype, device, False)


def zeros(shape, *, dtype=None, device=None) -> Array:
    """An array of ``shape`` filled with zeros (see ``empty`` for the parameters)."""
    return _new(shape, dtype, device, True)


def ones(shape, *, dtype=None, device=None) -> Array:
    """An array of ``shape`` filled with ones (see ``empty`` for the parameters)."""
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
    shape : int or tuple of ints
    fill_value : bool, int, float or complex
    dtype : dtype, optional
        Default: inferred from ``fill_value`` (bool, int64, float64 or complex128).
    device : device, optional

    Returns
    -------
    Array
    """
    if isinstance(fill_value, Array) and (<Array>fill_value)._layout.ndim == 0:
        fill_value = (<Array>fill_value).scalar()
    if dtype is None:
        dtype = _default_dtype_of(fill_value)
    cdef Array out = _new(shape, dtype, device, False)
    _fill(out, _fill_value_for(fill_value, out._code))
    return out


cdef object _fill_value_for(object value, int code):
    _default_dtype_of(value)
    if isinstance(value, complex) and code < 11:
        raise TypeError(f"cannot fill an array of {_dtypes.DTYPES[code]} with {value!r}")
    return value


cdef object _like_dtype(Array x, object dtype):
    return x.dtype if dtype is None else dtype


cdef object _like_device(Array x, object device):
    return x._storage.device if device is None else device


def empty_like(x, /, *, dtype=None, device=None) -> Array:
    """An uninitialised array with the shape of ``x`` (and its dtype and device by default)."""
    cdef Array a = as_array(x, "empty_like")
    return _new(a.shape, _like_dtype(a, dtype), _like_device(a, device), False)


def zeros_like(x, /, *, dtype=None, device=None) -> Array:
    """Zeros with the shape of ``x`` (and its dtype and device by default)."""
    cdef Array a = as_array(x, "zeros_like")
    return _new(a.shape, _like_dtype(a, dtype), _like_device(a, device), True)


def ones_like(x, /, *, dtype=None, device=None) -> Array:
    """Ones with the shape of ``x`` (and its dtype and device by default)."""
    cdef Array a = as_array(x, "ones_like")
    cdef Array out = _new(a.shape, _like_dtype(a, dtype), _like_device(a, device), False)
    _fill(out, True)
    return out


def full_like(x, /, fill_value, *, dtype=None, device=None) -> Array:
    """``fill_value`` with the shape of ``x`` (and its dtype and device by default)."""
    cdef Array a = as_array(x, "full_like")
    cdef Array out = _new(a.shape, _like_dtype(a, dtype), _like_device(a, device), False)
    _fill(out, _fill_value_for(fill_value, out._code))
    return out


def asarray(obj, /, *, dtype=None, device=None, copy=None) -> Array:
    """Convert ``obj`` to an array.

    Parameters
    ----------
    obj : Array, Python scalar, nested sequence, buffer or DLPack producer
    dtype : dtype, optional
        Default: ``obj``'s dtype, or inferred from Python scalars (bool, int64, float64,
        complex128).
    device : device, optional
    copy : bool, optional
        True always copies; False never does (ValueError if a copy is needed); None copies
        only when needed.

    Returns
    -------
    Array
    """
    cdef Array a
    cdef int code
    if isinstance(obj, Array):
        a = <Array>obj
    elif isinstance(obj, (list, tuple, bool, int, float, complex)):
        if copy is False:
            raise ValueError("converting Python objects needs a copy, but copy=False")
        return from_sequence(obj, dtype, _device_of(device))
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
            if hasattr(obj, "__len__") and hasattr(obj, "__getitem__"):
                return from_sequence(list(obj), dtype, _device_of(device))
            raise TypeError(f"cannot convert a {type(obj).__name__} to an arrayx array") from None
    if copy is False and a is not obj and a._storage.owner is None:
        raise ValueError(f"the {type(obj).__name__}'s memory is not aligned to its dtype, so "
                         f"arrayx needs a copy, but copy=False")
    code = a._code if dtype is None else code_of(dtype)
    dev = a._storage.device if device is None else as_device(device)
    if dev != a._storage.device:
        if copy is False:
            raise ValueError(f"moving an array to {dev} needs a copy, but copy=False")
        a = a.to_device(dev)
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


cdef object _int_arg(object value, str name):
    """``value`` as a Python int; TypeError for a bool or a non-integer."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None


cdef bint _is_int(object x):
    return isinstance(x, int) and not isinstance(x, bool)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Array:
    """Evenly spaced values in ``[start, stop)``.

    Parameters
    ----------
    start : int or float
        The first value (or the end, with ``start`` 0, when ``stop`` is None).
    stop : int or float, optional
    step : int or float
        Not zero.
    dtype : dtype, optional
        Default: int64 if all arguments are ints, else float64.
    device : device, optional

    Returns
    -------
    Array
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
    cdef double span
    if all_int:
        if not all(-(1 << 63) <= v < (1 << 63) for v in (start, stop, step)):
            raise OverflowError(f"arange's arguments ({start}, {stop}, {step}) do not fit in "
                                f"int64")
        n = max(0, -((start - stop) // step))
    else:
        span = ceil((<double>stop - <double>start) / <double>step)
        if not isfinite(span):
            raise ValueError("arange's length is not finite")
        n = max(0, <int64_t>span) if span < <double>INT64_MAX else span
    if n > INT64_MAX:
        raise ValueError(f"arange would have {n} elements: too many")
    cdef int64_t sh[1]
    sh[0] = n
    cdef Array out = new_array(contiguous(1, sh), code, _device_of(device))
    cdef int64_t i0, i1
    if 1 <= code <= 8 and all_int and -(1 << 63) <= start < (1 << 63) and \
            -(1 << 63) <= step < (1 << 63):
        i0 = start
        i1 = step
        int_progression_kernel(code)(out._storage.data, n, i0, i1)
    elif code == 0 and n > 0:
        if n > 2 or (n == 2 and bool(start) == bool(start + step)):
            raise ValueError("arange of more than two distinct values cannot be bool")
        int_progression_kernel(code)(out._storage.data, n, 1 if start else 0,
                                     0 if bool(start) == bool(start + step) else 1)
    else:
        progression_kernel(code)(out._storage.data, n, <double>start, 0.0, <double>step, 0.0)
    return out


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True) -> Array:
    """``num`` evenly spaced values from ``start`` to ``stop``.

    Parameters
    ----------
    start, stop : int, float or complex
    num : int
        Non-negative.
    dtype : dtype, optional
        A floating dtype; default float64 (complex128 for complex bounds).
    device : device, optional
    endpoint : bool
        Whether ``stop`` is the last value.

    Returns
    -------
    Array
    """
    num = _int_arg(num, "num")
    if num < 0:
        raise ValueError(f"linspace's num must be non-negative, got {num}")
    for v in (start, stop):
        if isinstance(v, bool) or not isinstance(v, (int, float, complex)):
            raise TypeError(f"linspace takes numbers, got {v!r}")
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    if dtype is None:
        dtype = _dtypes.default_complex if is_complex else _dtypes.default_float
    cdef int code = code_of(dtype)
    if code < 9:
        raise TypeError(f"linspace makes floating-point arrays, not {_dtypes.DTYPES[code]}")
    if is_complex and code < 11:
        raise TypeError("complex bounds need a complex dtype")
    cdef int64_t sh[1]
    sh[0] = num
    cdef Array out = new_array(contiguous(1, sh), code, _device_of(device))
    s = complex(start)
    div = (num - 1) if endpoint else num
    step = (complex(stop) - s) / div if div > 0 else 0j
    progression_kernel(code)(out._storage.data, num, s.real, s.imag, step.real, step.imag)
    if endpoint and num > 1:
        write_scalar(out._storage.data + (<int64_t>num - 1) * ITEMSIZE[code], code,
                     stop if code >= 11 else float(stop.real if is_complex else stop))
    return out


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None) -> Array:
    """A 2-D array with ones on diagonal ``k`` and zeros elsewhere.

    Parameters
    ----------
    n_rows : int
    n_cols : int, optional
        Default ``n_rows``.
    k : int
        The diagonal: 0 the main one, positive above it, negative below it.
    dtype : dtype, optional
    device : device, optional

    Returns
    -------
    Array
    """
    n_rows = _int_arg(n_rows, "n_rows")
    n_cols = n_rows if n_cols is None else _int_arg(n_cols, "n_cols")
    k = _int_arg(k, "k")
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
    cdef int64_t batch = a._layout.size // (rows * cols) if rows * cols else 0
    cdef int64_t kk = max(-rows - 1, min(cols + 1, k)) if -rows - 1 <= k <= cols + 1 else (
        -rows - 1 if k < 0 else cols + 1)
    zero_triangle(out._storage.data, batch, rows, cols, kk, keep_lower, ITEMSIZE[a._code])
    return out


def tril(x, /, *, k=0) -> Array:
    """The lower triangle (on and below diagonal ``k``) of each matrix of ``x``; zeros above."""
    return _triangle(x, k, True, "tril")


def triu(x, /, *, k=0) -> Array:
    """The upper triangle (on and above diagonal ``k``) of each matrix of ``x``; zeros below."""
    return _triangle(x, k, False, "triu")


def meshgrid(*arrays, indexing="xy") -> tuple:
    """Coordinate matrices from 1-D coordinate arrays.

    Parameters
    ----------
    *arrays : Array
        1-D arrays of one dtype.
    indexing : {"xy", "ij"}
        Cartesian ("xy": the first two output axes swapped) or matrix ("ij") indexing.

    Returns
    -------
    tuple of Array
        One array per input, each of the full grid's shape (fresh copies).
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

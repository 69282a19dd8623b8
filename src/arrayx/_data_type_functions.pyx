"""Data type functions: astype, can_cast, finfo, iinfo, isdtype, result_type."""
from arrayx._array cimport Array, code_of, contiguous_copy

from dataclasses import dataclass

import numpy as np

from arrayx import _devices, _dtypes
from arrayx._dtypes import result_type

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def astype(x, dtype, /, *, copy=True, device=None) -> Array:
    """``x`` converted to ``dtype`` (and moved to ``device``).

    Any dtype converts to any other, as NumPy's ``astype`` does (complex to real keeps the real
    part, floating to integer truncates towards zero). The standard leaves complex to real
    undefined; portable code takes ``real`` first.

    Parameters
    ----------
    x : Array
        The array to convert.
    dtype : dtype
        The target dtype.
    copy : bool, optional
        True (default) always returns a new array; False returns ``x`` itself when its dtype
        (and device) already match.
    device : Device or str, optional
        The target device; default ``x.device``.

    Returns
    -------
    Array
        A new C-contiguous array of ``dtype``, or ``x`` itself (``copy=False`` and nothing to do).

    Raises
    ------
    TypeError
        If ``x`` is not an arrayx array or ``dtype`` is not one of the standard's.
    ValueError
        If ``device`` is not available.

    Examples
    --------
    >>> import arrayx as xp
    >>> x = xp.asarray([1.7, -2.7])
    >>> xp.astype(x, xp.int32)
    Array([ 1, -2], dtype=int32)
    >>> xp.astype(x, x.dtype, copy=False) is x
    True
    """
    if not isinstance(x, Array):
        raise TypeError(f"astype expects an arrayx array, got {type(x).__name__}")
    cdef Array a = <Array>x
    cdef int code = code_of(dtype)
    if device is not None:
        a = a.to_device(_devices.as_device(device))
    if not copy and code == a._code:
        return a
    return contiguous_copy(a, code)


def can_cast(from_, to, /) -> bool:
    """Whether ``from_`` can be cast to ``to`` without changing a value's kind in a lossy way.

    The answer follows the promotion rules: integers cast to integers they promote to, and
    otherwise NumPy's "safe" casting decides (so ``int32`` casts to ``float64`` but not to
    ``float32``, and complex never casts to real).

    Parameters
    ----------
    from_ : dtype or Array
        The source dtype, or an array whose dtype it is.
    to : dtype
        The target dtype.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        If a dtype is not one of the standard's.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.can_cast(xp.int8, xp.int16)
    True
    >>> xp.can_cast(xp.int64, xp.int32)
    False
    >>> xp.can_cast(xp.asarray([1.0]), xp.complex128)
    True
    """
    src = from_.dtype if isinstance(from_, Array) else _dtypes.as_dtype(from_)
    dst = _dtypes.as_dtype(to)
    if src.kind in "iu" and dst.kind in "iu":
        return _dtypes.promote(src, dst) == dst
    return bool(np.can_cast(src, dst, "safe"))


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating-point dtype."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: object


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype."""

    bits: int
    max: int
    min: int
    dtype: object


def finfo(type, /) -> finfo_object:
    """Machine limits of a floating-point dtype.

    Parameters
    ----------
    type : dtype or Array
        A real or complex floating dtype, or an array of one. A complex dtype gives the limits
        of its real part.

    Returns
    -------
    finfo_object
        With ``bits``, ``eps``, ``max``, ``min``, ``smallest_normal`` (Python floats and ints)
        and ``dtype`` (the real floating dtype they describe).

    Raises
    ------
    TypeError
        If ``type`` is not of a floating dtype.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.finfo(xp.complex128).dtype
    dtype('float64')
    >>> f = xp.finfo(xp.float32)
    >>> f.bits, f.eps
    (32, 1.1920928955078125e-07)
    """
    d = type.dtype if isinstance(type, Array) else _dtypes.as_dtype(type)
    if d.kind not in "fc":
        raise TypeError(f"finfo takes a floating-point dtype, not {d}")
    info = np.finfo(d)
    real = np.dtype(info.dtype)
    return finfo_object(int(info.bits), float(info.eps), float(info.max), float(info.min),
                        float(info.smallest_normal), real)


def iinfo(type, /) -> iinfo_object:
    """Machine limits of an integer dtype.

    Parameters
    ----------
    type : dtype or Array
        An integer dtype, or an array of one.

    Returns
    -------
    iinfo_object
        With ``bits``, ``max``, ``min`` (Python ints) and ``dtype``.

    Raises
    ------
    TypeError
        If ``type`` is neither an integer dtype nor an array of one (bool is not an integer
        dtype, as the standard has it).

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.iinfo(xp.int16).min, xp.iinfo(xp.uint8).max
    (-32768, 255)
    """
    d = type.dtype if isinstance(type, Array) else _dtypes.as_dtype(type)
    if d.kind not in "iu":
        raise TypeError(f"iinfo takes an integer dtype, not {d}")
    info = np.iinfo(d)
    return iinfo_object(int(info.bits), int(info.max), int(info.min), d)


def isdtype(dtype, kind) -> bool:
    """Whether ``dtype`` is of ``kind``.

    Parameters
    ----------
    dtype : dtype
        The dtype to test.
    kind : dtype, str or tuple
        A dtype; a kind name: ``"bool"``, ``"signed integer"``, ``"unsigned integer"``,
        ``"integral"``, ``"real floating"``, ``"complex floating"`` or ``"numeric"``; or a
        tuple of them (true if any matches).

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If a kind name is unknown.
    TypeError
        If ``dtype`` is not one of the standard's dtypes.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.isdtype(xp.float32, 'real floating')
    True
    >>> xp.isdtype(xp.uint8, ('signed integer', 'bool'))
    False
    >>> xp.isdtype(xp.int64, xp.int64)
    True
    """
    d = _dtypes.as_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(d, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _dtypes.KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}; one of {', '.join(_dtypes.KINDS)}")
        return d in _dtypes.KINDS[kind]
    return d == _dtypes.as_dtype(kind)

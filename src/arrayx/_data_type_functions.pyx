"""Data type functions: astype, can_cast, finfo, iinfo, isdtype, result_type."""
from arrayx._array cimport Array, code_of, contiguous_copy

from dataclasses import dataclass

import numpy as np

from arrayx import _devices, _dtypes
from arrayx._dtypes import result_type

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def astype(x, dtype, /, *, copy=True, device=None) -> Array:
    """``x`` converted to ``dtype`` (and ``device``).

    Parameters
    ----------
    x : Array
    dtype : dtype
    copy : bool
        True (default) always returns a new array; False returns ``x`` itself when nothing
        needs converting.
    device : device, optional

    Returns
    -------
    Array
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
    """Whether ``from_`` (a dtype or an array) can be cast to ``to`` by the promotion rules."""
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
    """Limits of a floating dtype (or an array's); complex dtypes give their real part's."""
    d = type.dtype if isinstance(type, Array) else _dtypes.as_dtype(type)
    if d.kind not in "fc":
        raise TypeError(f"finfo takes a floating-point dtype, not {d}")
    info = np.finfo(d)
    real = np.dtype(info.dtype)
    return finfo_object(int(info.bits), float(info.eps), float(info.max), float(info.min),
                        float(info.smallest_normal), real)


def iinfo(type, /) -> iinfo_object:
    """Limits of an integer dtype (or an array's)."""
    d = type.dtype if isinstance(type, Array) else _dtypes.as_dtype(type)
    if d.kind not in "iu":
        raise TypeError(f"iinfo takes an integer dtype, not {d}")
    info = np.iinfo(d)
    return iinfo_object(int(info.bits), int(info.max), int(info.min), d)


def isdtype(dtype, kind) -> bool:
    """Whether ``dtype`` is of ``kind``: a dtype, a kind name, or a tuple of them."""
    d = _dtypes.as_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(d, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _dtypes.KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}; one of {', '.join(_dtypes.KINDS)}")
        return d in _dtypes.KINDS[kind]
    return d == _dtypes.as_dtype(kind)

"""The one rule for mixing arrayx and NumPy, and the fallback through NumPy.

Inputs: NumPy arrays and NumPy scalars met beside arrayx arrays are adopted as arrayx arrays
without a copy (``asarray`` reads them through DLPack or the buffer protocol); Python scalars
stay Python scalars and follow the standard's rules.

Fallback: a NumPy function arrayx has no implementation of runs on NumPy views of the arrayx
arrays' memory (no copy), and what it returns comes back as arrayx arrays (no copy either).
Only CPU memory can be viewed: an array on another device never falls back, and a result
NumPy gives in a dtype arrayx lacks (object, strings, float16, datetimes) is an error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arrayx import _devices, _dtypes
from arrayx._array import Array
from arrayx._creation import asarray


def is_ours(obj: Any) -> bool:
    """Whether the protocols take ``obj`` as an operand: arrayx arrays, NumPy's own arrays and
    scalars (not subclasses such as masked arrays, whose meaning a view would lose), Python
    scalars, and lists and tuples of these (NumPy makes arrays of them). Anything else is
    another library's, which NumPy then asks."""
    if isinstance(obj, (list, tuple)):
        return all(is_ours(o) for o in obj)
    return isinstance(obj, (Array, np.generic, bool, int, float, complex)) \
        or type(obj) is np.ndarray


def adopt(obj: Any, device: _devices.Device | None = None) -> Any:
    """``obj`` with NumPy arrays and scalars (also inside lists and tuples) as arrayx arrays
    on ``device`` (that of the call's arrayx arrays, ``device_of``; None: the default)."""
    if isinstance(obj, (np.ndarray, np.generic)):
        return _adopt_array(obj, None, device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(adopt(o, device) for o in obj)
    return obj


def device_of(obj: Any) -> _devices.Device | None:
    """The device of the first arrayx array in ``obj`` (also inside lists and tuples), where
    the NumPy operands beside it go; None when it holds none."""
    arrays = _arrays_in(obj)
    return arrays[0].device if arrays else None


def _adopt_array(value: np.ndarray | np.generic, name: str | None,
                 device: _devices.Device | None = None) -> Array:
    if value.dtype not in _dtypes.DTYPES:
        what = f"{name} returned" if name else "an operand has"
        raise TypeError(f"{what} the NumPy dtype {value.dtype}, which arrayx does not have")
    return asarray(value, device=device)


def check_cpu(args: Any, name: str) -> None:
    """Raise TypeError when an arrayx array in ``args`` is not in CPU memory, which NumPy
    cannot view: such arrays never fall back."""
    for a in _arrays_in(args):
        if a.device != _devices.CPU:
            raise TypeError(f"numpy.{name} has no arrayx implementation, and an array on "
                            f"{a.device} cannot fall back to NumPy; move it with "
                            f"to_device('cpu') first")


def _arrays_in(obj: Any) -> list[Array]:
    if isinstance(obj, Array):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [a for o in obj for a in _arrays_in(o)]
    if isinstance(obj, dict):
        return [a for o in obj.values() for a in _arrays_in(o)]
    return []


def views(obj: Any) -> Any:
    """``obj`` with every arrayx array (also in lists, tuples and dicts) as a NumPy view."""
    if isinstance(obj, Array):
        return obj.__array__()
    if isinstance(obj, (list, tuple)):
        return type(obj)(views(o) for o in obj)
    if isinstance(obj, dict):
        return {k: views(v) for k, v in obj.items()}
    return obj


def as_plain_numpy(call: Any, args: tuple, kwargs: dict, name: str) -> Any:
    """Strict mode's protocols: ``call`` (a NumPy function or ufunc method) computes on NumPy
    views and returns NumPy's own results, as for an array that offers only ``__array__``
    (array-api-strict's): nothing dispatches to arrayx and nothing comes back as arrayx."""
    check_cpu((args, kwargs), name)
    check_beyond_under_where(args, kwargs)
    return call(*views(args), **views(kwargs))


def check_beyond_under_where(args: tuple, kwargs: dict) -> None:
    """Raise OverflowError for a Python int beyond an integer array's dtype in a call with
    ``where=``: NumPy's loops for such ints ignore the mask and crash the process (NumPy 2.4,
    ``numpy.equal(uint8_array, -2, where=mask)``), and strict mode refuses the int anyway, as
    the standard leaves it undefined."""
    if kwargs.get("where", True) is True:
        return
    ints = [a for a in args if type(a) is int]
    for a in _arrays_in(args):
        if a.dtype.kind in "iu":
            info = np.iinfo(a.dtype)
            for value in ints:
                if not info.min <= value <= info.max:
                    raise OverflowError(f"Python integer {value} out of bounds for {a.dtype}")


def results(value: Any, name: str) -> Any:
    """What NumPy returned, with its arrays and scalars as arrayx arrays (no copy)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return _adopt_array(value, f"numpy.{name}")
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(results(v, name) for v in value)
    if isinstance(value, tuple):  # a named tuple (numpy.linalg's results)
        return type(value)(*(results(v, name) for v in value))
    return value


def check_out(out: Any, name: str) -> None:
    """``out=`` must be arrayx arrays: NumPy's own arrays cannot receive arrayx's results."""
    for o in out if isinstance(out, tuple) else (out,):
        if o is not None and not isinstance(o, Array):
            raise TypeError(f"numpy.{name}: out= must be arrayx arrays when the inputs are, "
                            f"not {type(o).__name__}")

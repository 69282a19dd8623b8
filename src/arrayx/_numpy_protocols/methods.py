"""NumPy's array methods on arrayx arrays (``x.sum()``, ``x.reshape(2, 3)``, ``x.astype(t)``).

The standard's array object has no such methods, but dask's chunk functions call them on every
chunk (``_concatenate2(...).sum(axis=...)``, ``a.squeeze(axis)``, ``meta.reshape(...)``), as
CuPy's arrays have them. ``Array.__getattr__``, which Python consults only when an attribute
is not found, answers these names with the NumPy function of the same name bound to the array,
so each method runs as that function does through NEP 18 (on arrayx, or through the fallback),
and the standard's members pay nothing for it. Strict mode turns them off.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from arrayx import _strict
from arrayx._array import Array
from arrayx._elementwise import imag, real
from arrayx._manipulation import reinterpret


def _varargs(func: Callable) -> Callable:
    """NumPy's ``a.reshape(2, 3)`` and ``a.transpose(1, 0)`` take the tuple spread out."""
    def method(a: Array, *args: Any, **kwargs: Any) -> Any:
        if len(args) > 1 or (len(args) == 1 and isinstance(args[0], int)
                             and func is np.transpose):
            args = (args,)
        return func(a, *args, **kwargs)
    return method


def _flatten(a: Array, order: str = "C") -> Any:
    return np.copy(np.ravel(a, order))


def _item(a: Array, *args: Any) -> Any:
    return a.__array__().item(*args)


def _tolist(a: Array) -> Any:
    return a.__array__().tolist()


def _view(a: Array, dtype: Any = None, type: Any = None) -> Array:
    """NumPy's ``a.view(dtype)``: a view of ``a``'s bytes as ``dtype`` (or of ``a`` itself)."""
    if type is not None:
        raise TypeError("Array.view takes a dtype; arrayx has no array subclasses to view as")
    return reinterpret(a, a.dtype if dtype is None else np.dtype(dtype))


#: Method name -> the function that serves it, called with the array first.
METHODS: dict[str, Callable] = {
    name: getattr(np, name) for name in (
        "all", "any", "argmax", "argmin", "argsort", "astype", "clip", "conj", "conjugate",
        "copy", "cumprod", "cumsum", "dot", "max", "mean", "min", "nonzero", "prod", "ravel",
        "repeat", "round", "squeeze", "std", "sum", "swapaxes", "take", "var",
    )
}
METHODS.update({"reshape": _varargs(np.reshape), "transpose": _varargs(np.transpose),
                "flatten": _flatten, "item": _item, "tolist": _tolist, "view": _view})


#: Attribute name -> the function that computes it from the array: NumPy's, CuPy's and
#: PyTorch's ``x.real`` and ``x.imag`` (new arrays here, where NumPy's are views).
ATTRIBUTES: dict[str, Callable] = {"real": real, "imag": imag}


def method(a: Array, name: str) -> Any:
    """``a.name`` for one of NumPy's method or attribute names (and NumPy's
    ``__array_priority__``, 0.0, and dask's ``__dask_tokenize__``), else AttributeError."""
    if name == "__array_priority__":  # dask's tensordot compares operands' priorities
        return 0.0
    if name == "__dask_tokenize__":  # dask's graph keys: the buffer's hash, as NumPy's
        from arrayx._dask import token
        return functools.partial(token, a)
    func = METHODS.get(name)
    attribute = ATTRIBUTES.get(name)
    if func is None and attribute is None:
        raise AttributeError(f"'arrayx.Array' object has no attribute {name!r}")
    if _strict.FLAGS.strict:
        raise AttributeError(_strict.rule(f"Array.{name}", "methods"))
    return attribute(a) if attribute is not None else functools.partial(func, a)

"""NEP 13: NumPy ufuncs on arrayx arrays run on arrayx's kernels (``Array.__array_ufunc__``).

``np.add(x, y)``, ``np.exp(x)``, ``x + numpy_array`` and ``numpy_array + x`` (NumPy defers to
this protocol), and the reductions ``np.add.reduce`` (sum), ``np.multiply.reduce`` (prod),
``np.maximum.reduce`` / ``np.minimum.reduce``, ``np.logical_and.reduce`` /
``np.logical_or.reduce`` and ``np.add.accumulate`` / ``np.multiply.accumulate`` call the arrayx
function of the same meaning. NumPy arrays among the operands are adopted without a copy
(``_numpy_fallback.adopt``). Any other ufunc or method, and a call whose dtypes arrayx refuses
where NumPy accepts them (``np.maximum.reduce`` of bools), (``np.cbrt``, ``np.add.outer``,
``np.add.at``, ...) falls back to NumPy on views of CPU memory and hands back arrayx arrays.
``out=`` must be arrayx arrays; the result is written into them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arrayx import _dask, _numpy_fallback, _strict
from arrayx._array import Array
from arrayx._strict import LENIENT as _xp

#: NumPy's ufuncs by the arrayx function they are (NumPy's aliases are the same objects, so
#: ``np.arccos`` and ``np.acos`` both find ``arrayx.acos``).
UFUNCS: dict[np.ufunc, Any] = {
    ufunc: getattr(_xp, name)
    for name in [*_xp._elementwise.__all__, "matmul", "vecdot"]
    if isinstance(ufunc := getattr(np, name, None), np.ufunc)
}
UFUNCS[np.rint] = _xp.round

#: ``ufunc.reduce`` and ``ufunc.accumulate`` by the arrayx function they are.
REDUCE: dict[np.ufunc, Any] = {
    np.add: _xp.sum, np.multiply: _xp.prod, np.maximum: _xp.max, np.minimum: _xp.min,
    np.logical_and: _xp.all, np.logical_or: _xp.any,
}
ACCUMULATE: dict[np.ufunc, Any] = {np.add: _xp.cumulative_sum, np.multiply: _xp.cumulative_prod}

#: Keywords NumPy's ufuncs take whose default is the only value arrayx honours.
DEFAULTS = {"casting": "same_kind", "order": "K", "where": True, "subok": True}
UNSUPPORTED = ("signature", "sig", "axes", "extobj")


def array_ufunc(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict) -> Any:
    """``Array.__array_ufunc__``: ``ufunc.method(*inputs, **kwargs)`` on arrayx arrays."""
    if _strict.FLAGS.strict:
        return _numpy_fallback.as_plain_numpy(getattr(ufunc, method), inputs, kwargs,
                                              ufunc.__name__)
    _dask.register()
    if not all(_numpy_fallback.is_ours(i) for i in inputs):
        return NotImplemented  # another library's arrays (dask, ...) take over
    name = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
    out = kwargs.pop("out", None)
    if out is not None:
        out = out if isinstance(out, tuple) else (out,)
        _numpy_fallback.check_out(out, name)
    _check_keywords(kwargs, name)
    try:
        result = _on_arrayx(ufunc, method, _numpy_fallback.adopt(inputs), dict(kwargs))
    except TypeError:  # arrayx's dtype rules refuse what NumPy's accept (max of bools, ...)
        result = NotImplemented
    if result is NotImplemented:
        return _fall_back(ufunc, method, inputs, kwargs, out, name)
    if out is None:
        return result
    return _write(result, out, name)


def _check_keywords(kwargs: dict, name: str) -> None:
    for key, default in DEFAULTS.items():
        if key in kwargs:
            value = kwargs.pop(key)
            if not (value is default or (isinstance(value, str) and value == default)):
                raise TypeError(f"numpy.{name}: arrayx does not support {key}={value!r} "
                                f"(only {key}={default!r})")
    for key in UNSUPPORTED:
        if key in kwargs:
            raise TypeError(f"numpy.{name}: arrayx does not support {key}=")


def _on_arrayx(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict) -> Any:
    """The arrayx call for ``ufunc.method``, or NotImplemented where there is none."""
    dtype = kwargs.pop("dtype", None)
    if method == "__call__":
        func = UFUNCS.get(ufunc)
        if func is None or kwargs:
            return NotImplemented
        if dtype is not None:
            inputs = tuple(_xp.astype(i, dtype) if isinstance(i, Array) else i for i in inputs)
        return func(*inputs)
    if method == "reduce" and ufunc in REDUCE:
        (x,) = inputs
        axis = kwargs.pop("axis", 0)
        keepdims = kwargs.pop("keepdims", False)
        if kwargs or not isinstance(x, Array):
            return NotImplemented
        if ufunc in (np.add, np.multiply):
            return REDUCE[ufunc](x, axis=axis, dtype=dtype, keepdims=keepdims)
        result = REDUCE[ufunc](x, axis=axis, keepdims=keepdims)
        return result if dtype is None else _xp.astype(result, dtype)
    if method == "accumulate" and ufunc in ACCUMULATE:
        (x,) = inputs
        axis = kwargs.pop("axis", 0)
        if kwargs or not isinstance(x, Array):
            return NotImplemented
        return ACCUMULATE[ufunc](x, axis=axis, dtype=dtype)
    return NotImplemented


def _fall_back(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict,
               out: tuple | None, name: str) -> Any:
    _numpy_fallback.check_cpu((inputs, out), name)
    if out is not None:
        kwargs["out"] = _numpy_fallback.views(out)
    result = getattr(ufunc, method)(*_numpy_fallback.views(inputs), **kwargs)
    if out is not None:
        return out[0] if len(out) == 1 else out
    return _numpy_fallback.results(result, name)


def _write(result: Any, out: tuple, name: str) -> Any:
    results = result if isinstance(result, tuple) else (result,)
    if len(results) != len(out):
        raise TypeError(f"numpy.{name} gives {len(results)} results but out= holds {len(out)}")
    for r, o in zip(results, out, strict=True):
        if o is not None:
            if o.shape != r.shape:
                raise ValueError(f"numpy.{name}: out= has shape {o.shape}, the result "
                                 f"{r.shape}")
            o[...] = r
    return out[0] if len(out) == 1 else out

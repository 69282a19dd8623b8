"""NEP 13: NumPy ufuncs on arrayx arrays run on arrayx's kernels (``Array.__array_ufunc__``).

``np.add(x, y)``, ``np.exp(x)``, ``x + numpy_array`` and ``numpy_array + x`` (NumPy defers to
this protocol), and the reductions ``np.add.reduce`` (sum), ``np.multiply.reduce`` (prod),
``np.maximum.reduce`` / ``np.minimum.reduce``, ``np.logical_and.reduce`` /
``np.logical_or.reduce`` and ``np.add.accumulate`` / ``np.multiply.accumulate`` call the arrayx
function of the same meaning. NumPy arrays among the operands are adopted without a copy
(``fallback.adopt``), and lists and tuples become arrays as NumPy makes them. Any other
ufunc or method, and a call whose dtypes arrayx refuses where NumPy accepts them
(``np.maximum.reduce`` of bools), (``np.cbrt``, ``np.add.outer``, ``np.add.at``, ...) falls
back to NumPy on views of CPU memory and hands back arrayx arrays.

NumPy's meanings are kept: ``dtype=`` on a call chooses the loop (``ufunc.resolve_dtypes``; the
inputs are cast to it, and no loop is a TypeError; ``dtype=bool`` on a ufunc whose loops all
give bool, such as a comparison, changes nothing), on ``reduce`` it casts the input first;
an integer ``np.reciprocal`` stays integer and ``np.power`` of integers refuses a negative
exponent. ``out=`` must be arrayx arrays: the result is broadcast to each, cast under the
``same_kind`` rule, and written where ``where=`` is true.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arrayx import _dask, _strict
from arrayx._array import Array
from arrayx._numpy_protocols import fallback
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

#: The ufuncs all of whose loops (objects aside) give bool: comparisons, logical functions,
#: ``isnan``... Their ``dtype=bool`` chooses the loop the call chooses without it, and is
#: taken so, not asked of ``ufunc.resolve_dtypes``: NumPy 2.4 caches a reduction's loop under
#: the key of such a call (after ``np.less.accumulate(int64, dtype=bool)``,
#: ``np.less(bool, int64, dtype=bool)`` resolves to bool's loop and raises UFuncTypeError).
BOOL_LOOPS = frozenset(u for u in UFUNCS
                       if all(t.endswith("->?") for t in u.types if "O" not in t))

#: Keywords NumPy's ufuncs take whose default is the only value arrayx honours.
DEFAULTS = {"casting": "same_kind", "order": "K", "subok": True}
UNSUPPORTED = ("signature", "sig", "axes", "extobj")


def array_ufunc(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict) -> Any:
    """``Array.__array_ufunc__``: ``ufunc.method(*inputs, **kwargs)`` on arrayx arrays."""
    if _strict.FLAGS.strict:
        return fallback.as_plain_numpy(getattr(ufunc, method), inputs, kwargs, ufunc.__name__)
    _dask.register()
    if not all(fallback.is_ours(i) for i in inputs):
        return NotImplemented  # another library's arrays (dask, ...) take over
    name = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
    out = kwargs.pop("out", None)
    if out is not None:
        out = out if isinstance(out, tuple) else (out,)
        fallback.check_out(out, name)
    where = kwargs.pop("where", True)
    _check_keywords(kwargs, name)
    result = NotImplemented
    device = fallback.device_of(inputs)
    if where is True or method == "__call__":
        try:
            result = _on_arrayx(ufunc, method, fallback.adopt(inputs, device), dict(kwargs),
                                fallback.adopt(where, device))
        except TypeError:  # arrayx's dtype rules refuse what NumPy's accept (max of bools, ...)
            result = NotImplemented
    if result is NotImplemented:
        if where is not True:
            kwargs["where"] = where
        return _fall_back(ufunc, method, inputs, kwargs, out, name)
    if out is None:
        return result
    return _write(result, out, name, fallback.adopt(where, device))


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


def _on_arrayx(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict,
               where: Any = True) -> Any:
    """The arrayx call for ``ufunc.method``, or NotImplemented where there is none."""
    dtype = kwargs.pop("dtype", None)
    if method in ("__call__", "reduce", "accumulate"):  # NumPy makes arrays of list operands
        inputs = tuple(_xp.asarray(i) if isinstance(i, (list, tuple)) else i for i in inputs)
    if method == "__call__":
        func = UFUNCS.get(ufunc)
        if func is None or kwargs:
            return NotImplemented
        dtype = None if dtype is None else np.dtype(dtype)
        if dtype is None or (dtype == np.bool_ and ufunc in BOOL_LOOPS):
            return _integer_rule(ufunc, inputs, func, where)
        return _in_loop(ufunc, inputs, dtype, func, where)
    if method == "reduce" and ufunc in REDUCE:
        (x,) = inputs
        axis = kwargs.pop("axis", 0)
        keepdims = kwargs.pop("keepdims", False)
        if kwargs or not isinstance(x, Array):
            return NotImplemented
        if x.ndim == 0 and isinstance(axis, int) and axis in (0, -1):
            axis = None  # NumPy reduces a 0-d array along axis 0 to itself
        if dtype is None:
            return REDUCE[ufunc](x, axis=axis, keepdims=keepdims)
        # The dtype of the operation: the input is cast first, and the result is of it (a
        # sum of int8 wraps as NumPy's int8 loop does; of bools, it is their logical or).
        dtype = np.dtype(dtype)  # TypeError, as NumPy's, where no loop is of it:
        ufunc.resolve_dtypes((None, x.dtype, None), signature=(dtype, None, None),
                             casting="unsafe", reduction=True)
        result = REDUCE[ufunc](_xp.astype(x, dtype), axis=axis, keepdims=keepdims)
        return result if result.dtype == dtype else _xp.astype(result, dtype)
    if method == "accumulate" and ufunc in ACCUMULATE:
        (x,) = inputs
        axis = kwargs.pop("axis", 0)
        if kwargs or not isinstance(x, Array):
            return NotImplemented
        return ACCUMULATE[ufunc](x, axis=axis, dtype=dtype)
    return NotImplemented


def _in_loop(ufunc: np.ufunc, inputs: tuple, dtype: np.dtype, func: Any, where: Any) -> Any:
    """``func`` on ``inputs`` in the loop NumPy's ``dtype=`` selects (the output's dtype):
    the inputs cast to that loop's, the result in its output dtype. TypeError, as NumPy's,
    when no loop gives ``dtype`` (``np.divide(int, int, dtype=int64)``)."""
    operands = tuple(i.dtype if isinstance(i, Array) else
                     np.dtype(bool) if isinstance(i, bool) else type(i) for i in inputs)
    loop = ufunc.resolve_dtypes(operands + (None,) * ufunc.nout,
                                signature=(None,) * ufunc.nin + (dtype,) * ufunc.nout)
    inputs = tuple(_xp.astype(i, t) if isinstance(i, Array) and i.dtype != t else i
                   for i, t in zip(inputs, loop, strict=False))
    result = _integer_rule(ufunc, inputs, func, where)
    out = loop[ufunc.nin]
    return result if result.dtype == out else _xp.astype(result, out)


def _integer_rule(ufunc: np.ufunc, inputs: tuple, func: Any, where: Any) -> Any:
    """``func(*inputs)``, with NumPy's integer loops where arrayx's functions differ: an
    integer ``np.reciprocal`` stays integer (``1 // x`` truncated), and ``np.power`` of
    integers refuses negative exponents (ValueError) rather than truncating them to 0, where
    ``where`` computes."""
    integers = all(isinstance(i, int) or (isinstance(i, Array) and i.dtype.kind in "iub")
                   for i in inputs)
    if not integers or ufunc not in (np.reciprocal, np.power):
        return func(*inputs)
    if _xp.result_type(*inputs).kind == "f":  # uint64 with a signed integer: a float loop
        return func(*inputs)
    if ufunc is np.reciprocal:
        (x,) = inputs
        if x.dtype.kind == "b":
            return func(*inputs)
        return _xp.astype(_xp.reciprocal(_xp.astype(x, _xp.float64)), x.dtype)
    exponent = inputs[1]
    if isinstance(exponent, Array) and exponent.dtype.kind == "b":
        return func(*inputs)
    negative = exponent < 0
    if where is not True:
        mask = where if isinstance(where, Array) else _xp.asarray(where)
        negative = _xp.logical_and(negative, _xp.astype(mask, _xp.bool))
    if _xp.any(negative) if isinstance(negative, Array) else negative:
        raise ValueError("Integers to negative integer powers are not allowed.")
    return func(*inputs)


def _fall_back(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict,
               out: tuple | None, name: str) -> Any:
    fallback.check_cpu((inputs, out), name)
    if out is not None:
        kwargs["out"] = fallback.views(out)
    result = getattr(ufunc, method)(*fallback.views(inputs), **kwargs)
    if out is not None:
        return out[0] if len(out) == 1 else out
    return fallback.results(result, name)


def _write(result: Any, out: tuple, name: str, where: Any) -> Any:
    """Write the results into ``out`` as NumPy does: broadcast to each ``out``'s shape, cast
    to its dtype under the ``same_kind`` rule, and only where ``where`` is true."""
    results = result if isinstance(result, tuple) else (result,)
    if len(results) != len(out):
        raise TypeError(f"numpy.{name} gives {len(results)} results but out= holds {len(out)}")
    for r, o in zip(results, out, strict=True):
        if o is None:
            continue
        if np.broadcast_shapes(r.shape, o.shape) != o.shape:
            raise ValueError(f"numpy.{name}: out= has shape {o.shape}, the result {r.shape}")
        if r.dtype != o.dtype:
            if not np.can_cast(r.dtype, o.dtype, "same_kind"):
                raise TypeError(f"numpy.{name}: cannot cast the output from {r.dtype} to "
                                f"{o.dtype} with casting rule 'same_kind'")
            r = _xp.astype(r, o.dtype)
        if where is not True:
            mask = where if isinstance(where, Array) else _xp.asarray(where)
            r = _xp.where(_xp.astype(mask, _xp.bool), r, o)
        o[...] = r
    return out[0] if len(out) == 1 else out

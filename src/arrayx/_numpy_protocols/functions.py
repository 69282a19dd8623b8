"""NEP 18: NumPy functions on arrayx arrays (``Array.__array_function__``).

``IMPLEMENTATIONS`` maps a NumPy function to the arrayx function that serves it, through an
adapter that takes NumPy's signature (``np.concatenate`` -> ``concat``, ``np.transpose`` ->
``permute_dims``, ``np.std(ddof=)`` -> ``std(correction=)``, ...). An adapter returns
NotImplemented for arguments arrayx cannot honour (``np.round(x, decimals=2)``,
``np.sum(x, where=...)``), and arrayx's stricter dtype rules raise TypeError where NumPy's
accept (``np.max`` of bools); then, as for every function not in the table (``np.einsum``,
``np.isclose``, ``np.median``, ...), the call falls back to NumPy on views of CPU memory and
its results come back as arrayx arrays (``fallback``). ``docs/guide/pydata.md`` shows
the table, generated from this module.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from arrayx import _dask, _strict
from arrayx._array import Array
from arrayx._numpy_protocols import fallback
from arrayx._strict import LENIENT as _xp

#: The NumPy function each adapter serves, filled by ``@implements``.
IMPLEMENTATIONS: dict[Callable, Callable] = {}
#: The arrayx function behind each NumPy function of ``IMPLEMENTATIONS`` (for the docs' table).
SERVED_BY: dict[Callable, str] = {}


#: NumPy functions without an adapter whose output shape depends on the data: the
#: data_dependent_shapes flag forbids them (those with one raise in arrayx's function).
DATA_DEPENDENT = frozenset({
    np.unique, np.unique_all, np.unique_counts, np.unique_inverse, np.unique_values,
    np.argwhere, np.flatnonzero, np.extract, np.compress, np.trim_zeros, np.union1d,
    np.intersect1d, np.setdiff1d, np.setxor1d,
})


def implements(*numpy_functions: Callable, by: str | Callable) -> Callable:
    """Register an adapter for ``numpy_functions``, served by the arrayx function ``by``."""
    def register(adapter: Callable) -> Callable:
        for f in numpy_functions:
            IMPLEMENTATIONS[f] = adapter
            SERVED_BY[f] = by if isinstance(by, str) else by.__name__
        return adapter
    return register


def array_function(func: Callable, types: tuple, args: tuple, kwargs: dict) -> Any:
    """``Array.__array_function__``: ``func(*args, **kwargs)`` on arrayx arrays."""
    name = func.__name__
    if _strict.FLAGS.strict:
        return fallback.as_plain_numpy(getattr(func, "_implementation", func), args, kwargs,
                                       name)
    _dask.register()
    if not all(t is np.ndarray or issubclass(t, Array) for t in types):
        return NotImplemented  # another library's arrays (dask, ...) take over
    if kwargs.get("out") is not None:
        fallback.check_out(kwargs["out"], name)
    if func in DATA_DEPENDENT:
        _strict.check_data_dependent(f"numpy.{name}")
    adapter = IMPLEMENTATIONS.get(func)
    if adapter is not None:
        if kwargs.get("dtype") is not None:  # NumPy takes Python types (float) as dtypes
            kwargs = {**kwargs, "dtype": np.dtype(kwargs["dtype"])}
        device = fallback.device_of((args, tuple(kwargs.values())))
        try:
            result = adapter(*fallback.adopt(args, device),
                             **{k: fallback.adopt(v, device) for k, v in kwargs.items()})
        except _strict.StrictError:
            raise
        except TypeError:  # arrayx's dtype rules refuse what NumPy's accept (max of bools)
            result = NotImplemented
        if result is not NotImplemented:
            return result
    return fall_back(func, args, kwargs)


def fall_back(func: Callable, args: tuple, kwargs: dict) -> Any:
    """``func`` run by NumPy on views of the arrayx arrays; arrayx arrays back, no copies."""
    name = func.__name__
    fallback.check_cpu((args, kwargs), name)
    out = kwargs.get("out")
    if out is not None:
        fallback.check_out(out, name)
    implementation = getattr(func, "_implementation", func)
    result = implementation(*fallback.views(args), **fallback.views(kwargs))
    return out if out is not None else fallback.results(result, name)


def _with_out(result: Array, out: Any, name: str) -> Array:
    if out is None:
        return result
    fallback.check_out(out, name)
    if out.shape != result.shape:
        raise ValueError(f"numpy.{name}: out= has shape {out.shape}, the result {result.shape}")
    out[...] = result
    return out


def _flat(x: Array) -> Array:
    return _xp.reshape(x, (-1,))


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else _xp.asarray(x)


def _floating(x: Array, dtype: Any) -> Array:
    """NumPy's mean and var take integers and bools in float64."""
    if dtype is not None:
        return _xp.astype(x, dtype)
    return _xp.astype(x, _xp.float64) if _xp.isdtype(x.dtype, ("bool", "integral")) else x


# --- reductions -----------------------------------------------------------------------------

def _reduction(func: Callable, name: str, *, takes_dtype: bool, floating: bool = False) \
        -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                keepdims: bool = False, **rest: Any) -> Any:
        if not isinstance(a, Array) or rest:
            return NotImplemented  # initial=, where=: NumPy's
        if floating:
            a = _floating(a, dtype)
        elif not takes_dtype and dtype is not None:
            return NotImplemented
        extra = {"dtype": dtype} if takes_dtype else {}
        return _with_out(func(a, axis=axis, keepdims=bool(keepdims), **extra), out, name)
    return adapter


def _spread(func: Callable, name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                ddof: float = 0, keepdims: bool = False, *, correction: Any = None,
                **rest: Any) -> Any:
        if not isinstance(a, Array) or rest:
            return NotImplemented  # where=, mean=: NumPy's
        correction = ddof if correction is None else correction
        a = _floating(a, dtype)
        result = func(a, axis=axis, correction=correction, keepdims=bool(keepdims))
        axes = range(a.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
        n = math.prod(a.shape[i] for i in axes)
        if 0 < n <= correction:  # NumPy divides by max(n - ddof, 0): inf, or NaN for 0 / 0
            result = func(a, axis=axis, correction=0, keepdims=bool(keepdims)) / 0.0
        return _with_out(result, out, name)
    return adapter


for _n, _func, _takes_dtype in [("sum", _xp.sum, True), ("prod", _xp.prod, True),
                                ("nansum", _xp.nansum, True), ("nanprod", _xp.nanprod, True),
                                ("mean", _xp.mean, False), ("nanmean", _xp.nanmean, False)]:
    implements(getattr(np, _n), by=_func)(_reduction(_func, _n, takes_dtype=_takes_dtype,
                                           floating=not _takes_dtype))
implements(np.var, by=_xp.var)(_spread(_xp.var, "var"))
implements(np.std, by=_xp.std)(_spread(_xp.std, "std"))


def _nan_spread(func: Callable, name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                ddof: float = 0, keepdims: bool = False, **rest: Any) -> Any:
        if not isinstance(a, Array) or rest:
            return NotImplemented
        return _with_out(func(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=bool(keepdims)),
                         out, name)
    return adapter


implements(np.nanvar, by=_xp.nanvar)(_nan_spread(_xp.nanvar, "nanvar"))
implements(np.nanstd, by=_xp.nanstd)(_nan_spread(_xp.nanstd, "nanstd"))


def _extreme(func: Callable, name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
                **rest: Any) -> Any:
        if not isinstance(a, Array) or rest:
            return NotImplemented
        return _with_out(func(a, axis=axis, keepdims=bool(keepdims)), out, name)
    return adapter


for _n, _func in [("max", _xp.max), ("amax", _xp.max), ("min", _xp.min), ("amin", _xp.min),
                  ("nanmax", _xp.nanmax), ("nanmin", _xp.nanmin), ("all", _xp.all),
                  ("any", _xp.any), ("argmax", _xp.argmax), ("argmin", _xp.argmin),
                  ("nanargmax", _xp.nanargmax), ("nanargmin", _xp.nanargmin)]:
    implements(getattr(np, _n), by=_func)(_extreme(_func, _n))


def _scan(func: Callable, name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                **rest: Any) -> Any:
        if not isinstance(a, Array) or set(rest) - {"include_initial"}:
            return NotImplemented
        if axis is None and a.ndim != 1:
            a, axis = _flat(a), 0
        return _with_out(func(a, axis=axis, dtype=dtype, **rest), out, name)
    return adapter


for _n, _func in [("cumsum", _xp.cumulative_sum), ("cumulative_sum", _xp.cumulative_sum),
                  ("cumprod", _xp.cumulative_prod),
                  ("cumulative_prod", _xp.cumulative_prod)]:
    implements(getattr(np, _n), by=_func)(_scan(_func, _n))


@implements(np.count_nonzero, by="count_nonzero")
def _count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Any:
    if not isinstance(a, Array):
        return NotImplemented
    return _xp.count_nonzero(a, axis=axis, keepdims=keepdims)


@implements(np.diff, by="diff")
def _diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Any:
    if not isinstance(a, Array) or not all(v is None or isinstance(v, Array)
                                           for v in (prepend, append)):
        return NotImplemented  # NumPy broadcasts scalar prepend/append
    return _xp.diff(a, n, axis, prepend=prepend, append=append)


# --- manipulation ---------------------------------------------------------------------------

def _joined(arrays: Any, dtype: Any, casting: str) -> list | None:
    """The arrays that ``concatenate`` or ``stack`` joins, in ``dtype`` where one is given;
    None for a ``casting`` other than NumPy's default (NumPy computes those)."""
    arrays = [_array(a) for a in arrays]
    if casting != "same_kind":
        return None
    return arrays if dtype is None else [_xp.astype(a, dtype) for a in arrays]


@implements(np.concatenate, np.concat, by="concat")
def _concatenate(arrays: Any, axis: int | None = 0, out: Any = None, *, dtype: Any = None,
                 casting: str = "same_kind") -> Any:
    arrays = _joined(arrays, dtype, casting)
    if arrays is None:
        return NotImplemented
    return _with_out(_xp.concat(arrays, axis=axis), out, "concatenate")


@implements(np.stack, by="stack")
def _stack(arrays: Any, axis: int = 0, out: Any = None, *, dtype: Any = None,
           casting: str = "same_kind") -> Any:
    arrays = _joined(arrays, dtype, casting)
    if arrays is None:
        return NotImplemented
    return _with_out(_xp.stack(arrays, axis=axis), out, "stack")


@implements(np.transpose, np.permute_dims, by="permute_dims")
def _transpose(a: Any, axes: Any = None) -> Any:
    if not isinstance(a, Array):
        return NotImplemented
    return _xp.permute_dims(a, tuple(reversed(range(a.ndim))) if axes is None else tuple(axes))


@implements(np.matrix_transpose, by="matrix_transpose")
def _matrix_transpose(x: Any, /) -> Any:
    return _xp.matrix_transpose(x) if isinstance(x, Array) else NotImplemented


def _axis(axis: Any, ndim: int, name: str) -> int:
    """``axis`` in ``[0, ndim)``; NumPy's AxisError outside ``[-ndim, ndim)``."""
    k = operator.index(axis)
    if not -ndim <= k < ndim:
        raise np.exceptions.AxisError(k, ndim, name)
    return k % ndim


@implements(np.swapaxes, by="permute_dims")
def _swapaxes(a: Any, axis1: int, axis2: int) -> Any:
    if not isinstance(a, Array):
        return NotImplemented
    order = list(range(a.ndim))
    i, j = (_axis(k, a.ndim, name) for k, name in ((axis1, "axis1"), (axis2, "axis2")))
    order[i], order[j] = order[j], order[i]
    return _xp.permute_dims(a, tuple(order))


@implements(np.reshape, by="reshape")
def _reshape(a: Any, /, shape: Any = None, order: str = "C", *, copy: bool | None = None,
             **rest: Any) -> Any:
    shape = rest.pop("newshape", shape)
    if not isinstance(a, Array) or order != "C" or rest:
        return NotImplemented
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return _xp.reshape(a, shape, copy=copy)


@implements(np.ravel, by="reshape")
def _ravel(a: Any, order: str = "C") -> Any:
    return _flat(a) if isinstance(a, Array) and order == "C" else NotImplemented


@implements(np.squeeze, by="squeeze")
def _squeeze(a: Any, axis: Any = None) -> Any:
    if not isinstance(a, Array):
        return NotImplemented
    if axis is None:
        axis = tuple(i for i, n in enumerate(a.shape) if n == 1)
    return _xp.squeeze(a, axis=axis)


@implements(np.expand_dims, by="expand_dims")
def _expand_dims(a: Any, axis: Any) -> Any:
    return _xp.expand_dims(a, axis=axis) if isinstance(a, Array) else NotImplemented


@implements(np.broadcast_to, by="broadcast_to")
def _broadcast_to(array: Any, shape: Any, subok: bool = False) -> Any:
    if not isinstance(array, Array):
        return NotImplemented
    return _xp.broadcast_to(array, (shape,) if isinstance(shape, int) else tuple(shape))


@implements(np.broadcast_arrays, by="broadcast_arrays")
def _broadcast_arrays(*args: Any, subok: bool = False) -> Any:
    return tuple(_xp.broadcast_arrays(*[_array(a) for a in args]))


@implements(np.flip, by="flip")
def _flip(m: Any, axis: Any = None) -> Any:
    return _xp.flip(m, axis=axis) if isinstance(m, Array) else NotImplemented


@implements(np.roll, by="roll")
def _roll(a: Any, shift: Any, axis: Any = None) -> Any:
    return _xp.roll(a, shift, axis=axis) if isinstance(a, Array) else NotImplemented


@implements(np.moveaxis, by="moveaxis")
def _moveaxis(a: Any, source: Any, destination: Any) -> Any:
    return _xp.moveaxis(a, source, destination) if isinstance(a, Array) else NotImplemented


@implements(np.repeat, by="repeat")
def _repeat(a: Any, repeats: Any, axis: int | None = None) -> Any:
    return _xp.repeat(a, repeats, axis=axis) if isinstance(a, Array) else NotImplemented


@implements(np.tile, by="tile")
def _tile(A: Any, reps: Any) -> Any:  # noqa: N803 - NumPy's name
    if not isinstance(A, Array):
        return NotImplemented
    return _xp.tile(A, (reps,) if isinstance(reps, int) else tuple(reps))


@implements(np.unstack, by="unstack")
def _unstack(x: Any, /, *, axis: int = 0) -> Any:
    return _xp.unstack(x, axis=axis) if isinstance(x, Array) else NotImplemented


@implements(np.astype, by="astype")
def _astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    if not isinstance(x, Array) or device is not None:
        return NotImplemented
    return _xp.astype(x, dtype, copy=copy)


@implements(np.copy, by="asarray")
def _copy(a: Any, order: str = "K", subok: bool = False) -> Any:
    return _xp.asarray(a, copy=True) if isinstance(a, Array) else NotImplemented


@implements(np.pad, by="pad")
def _pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Any:
    if not isinstance(array, Array) or mode not in _xp._pad.MODES \
            or set(kwargs) - {"constant_values"}:
        return NotImplemented  # linear_ramp, mean, reflect_type=odd, ...: NumPy's
    return _xp.pad(array, pad_width, mode, **kwargs)


# --- searching, sorting, indexing ------------------------------------------------------------

@implements(np.where, by="where")
def _where(condition: Any, x: Any = None, y: Any = None, /) -> Any:
    condition = _array(condition)
    if x is None and y is None:
        return tuple(_xp.nonzero(condition))
    if not isinstance(x, Array) and not isinstance(y, Array):
        x = _xp.asarray(x)
    return _xp.where(condition, x, y)


@implements(np.nonzero, by="nonzero")
def _nonzero(a: Any) -> Any:
    return tuple(_xp.nonzero(a)) if isinstance(a, Array) else NotImplemented


def _sorting(name: str) -> Callable:
    """The adapter of ``numpy.<name>`` (``sort`` or ``argsort``): ``axis=None`` flattens."""
    def adapter(a: Any, axis: int | None = -1, kind: Any = None, order: Any = None, *,
                stable: bool | None = None) -> Any:
        if not isinstance(a, Array) or order is not None:
            return NotImplemented
        return getattr(_xp, name)(_flat(a) if axis is None else a,
                                  axis=-1 if axis is None else axis)
    return adapter


implements(np.sort, by="sort")(_sorting("sort"))
implements(np.argsort, by="argsort")(_sorting("argsort"))


@implements(np.searchsorted, by="searchsorted")
def _searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    if not isinstance(a, Array) or not isinstance(v, Array):
        return NotImplemented  # a scalar v gives NumPy a scalar
    return _xp.searchsorted(a, v, side=side, sorter=sorter)


@implements(np.take, by="take")
def _take(a: Any, indices: Any, axis: int | None = None, out: Any = None,
          mode: str = "raise") -> Any:
    if not isinstance(a, Array) or mode != "raise":
        return NotImplemented
    indices = _array(indices)
    if indices.ndim != 1:
        return NotImplemented
    return _with_out(_xp.take(_flat(a) if axis is None else a, indices,
                              axis=0 if axis is None else axis), out, "take")


@implements(np.take_along_axis, by="take_along_axis")
def _take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> Any:
    if not isinstance(arr, Array) or axis is None:
        return NotImplemented
    return _xp.take_along_axis(arr, _array(indices), axis=axis)


@implements(np.isin, by="isin")
def _isin(element: Any, test_elements: Any, assume_unique: bool = False,
          invert: bool = False, *, kind: Any = None) -> Any:
    if not isinstance(element, Array):
        return NotImplemented
    return _xp.isin(element, _array(test_elements), invert=invert)


# --- elementwise functions that are not ufuncs ------------------------------------------------

@implements(np.clip, by="clip")
def _clip(a: Any, a_min: Any = None, a_max: Any = None, out: Any = None, **rest: Any) -> Any:
    a_min, a_max = rest.pop("min", a_min), rest.pop("max", a_max)
    if not isinstance(a, Array) or rest:
        return NotImplemented
    return _with_out(_xp.clip(a, a_min, a_max), out, "clip")


@implements(np.round, np.around, by="round")
def _round(a: Any, decimals: int = 0, out: Any = None) -> Any:
    if not isinstance(a, Array) or decimals != 0:
        return NotImplemented
    return _with_out(_xp.round(a), out, "round")


@implements(np.real, by="real")
def _real(val: Any) -> Any:
    if not isinstance(val, Array):
        return NotImplemented
    return _xp.real(val) if val.dtype.kind == "c" else val


@implements(np.imag, by="imag")
def _imag(val: Any) -> Any:
    if not isinstance(val, Array):
        return NotImplemented
    return _xp.imag(val) if val.dtype.kind == "c" else _xp.zeros_like(val)


# --- creation -------------------------------------------------------------------------------

def _like(func: Callable) -> Callable:
    def adapter(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
                shape: Any = None, *, device: Any = None, **rest: Any) -> Any:
        if not isinstance(a, Array) or order not in ("K", "C") or device is not None:
            return NotImplemented
        if shape is not None:
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            a = _xp.empty(shape, dtype=a.dtype, device=a.device)
        return func(a, dtype=dtype, **rest)
    return adapter


implements(np.zeros_like, by=_xp.zeros_like)(_like(_xp.zeros_like))
implements(np.ones_like, by=_xp.ones_like)(_like(_xp.ones_like))
implements(np.empty_like, by=_xp.empty_like)(_like(_xp.empty_like))


@implements(np.full_like, by="full_like")
def _full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K",
               subok: bool = True, shape: Any = None, *, device: Any = None) -> Any:
    if not isinstance(a, Array) or device is not None or isinstance(fill_value, Array):
        return NotImplemented
    if shape is not None:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        return _xp.full(shape, fill_value, dtype=dtype or a.dtype, device=a.device)
    return _xp.full_like(a, fill_value, dtype=dtype)


@implements(np.tril, by="tril")
def _tril(m: Any, k: int = 0) -> Any:
    return _xp.tril(m, k=k) if isinstance(m, Array) else NotImplemented


@implements(np.triu, by="triu")
def _triu(m: Any, k: int = 0) -> Any:
    return _xp.triu(m, k=k) if isinstance(m, Array) else NotImplemented


@implements(np.meshgrid, by="meshgrid")
def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> Any:
    if sparse:
        return NotImplemented
    return tuple(_xp.meshgrid(*[_array(x) for x in xi], indexing=indexing))


# ``like=``: NumPy calls the protocol with the creation function itself, ``like`` removed.

def _asarray(default_copy: bool | None) -> Callable:
    def adapter(a: Any, dtype: Any = None, order: Any = None, *, copy: Any = default_copy,
                **rest: Any) -> Any:
        if order not in (None, "K", "C", "A") or set(rest) - {"ndmin", "subok"} \
                or rest.get("ndmin", 0):
            return NotImplemented
        return _xp.asarray(a, dtype=dtype, copy=copy)
    return adapter


implements(np.asarray, np.asanyarray, by=_xp.asarray)(_asarray(None))
implements(np.array, by=_xp.asarray)(_asarray(True))


def _filled(func: Callable) -> Callable:
    def adapter(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None,
                **rest: Any) -> Any:
        if order != "C" or device is not None or rest:
            return NotImplemented
        return func(shape, dtype=dtype)
    return adapter


implements(np.zeros, by=_xp.zeros)(_filled(_xp.zeros))
implements(np.ones, by=_xp.ones)(_filled(_xp.ones))
implements(np.empty, by=_xp.empty)(_filled(_xp.empty))


@implements(np.full, by="full")
def _full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
          device: Any = None) -> Any:
    if order != "C" or device is not None or isinstance(fill_value, Array):
        return NotImplemented
    return _xp.full(shape, fill_value, dtype=dtype)


@implements(np.arange, by="arange")
def _arange(*args: Any, dtype: Any = None, device: Any = None, **rest: Any) -> Any:
    if device is not None or rest or not args:
        return NotImplemented
    return _xp.arange(*args, dtype=dtype)


@implements(np.eye, by="eye")
def _eye(N: int, M: int | None = None, k: int = 0, dtype: Any = float,  # noqa: N803
         order: str = "C", *, device: Any = None) -> Any:
    if order != "C" or device is not None:
        return NotImplemented
    return _xp.eye(N, M, k=k, dtype=_xp.float64 if dtype is float else dtype)


# --- data types, shapes, products -----------------------------------------------------------

@implements(np.result_type, by="result_type")
def _result_type(*arrays_and_dtypes: Any) -> Any:
    return _xp.result_type(*[a if isinstance(a, (Array, np.dtype, bool, int, float, complex))
                             else np.dtype(a) for a in arrays_and_dtypes])


@implements(np.ndim, by="Array.ndim")
def _ndim(a: Any) -> Any:
    return a.ndim if isinstance(a, Array) else NotImplemented


@implements(np.shape, by="Array.shape")
def _shape(a: Any) -> Any:
    return a.shape if isinstance(a, Array) else NotImplemented


@implements(np.size, by="Array.size")
def _size(a: Any, axis: int | None = None) -> Any:
    if not isinstance(a, Array):
        return NotImplemented
    return a.size if axis is None else a.shape[axis]


@implements(np.tensordot, by="tensordot")
def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    if not isinstance(a, Array) or not isinstance(b, Array):
        return NotImplemented
    return _xp.tensordot(a, b, axes=axes)


@implements(np.dot, by="matmul")
def _dot(a: Any, b: Any, out: Any = None) -> Any:
    if not (isinstance(a, Array) and isinstance(b, Array)
            and 1 <= a.ndim <= 2 and 1 <= b.ndim <= 2):
        return NotImplemented  # NumPy's dot of 0-d and n-d arrays differs from matmul
    return _with_out(_xp.matmul(a, b), out, "dot")


# --- the table the docs show ------------------------------------------------------------------

def table() -> list[tuple[str, str]]:
    """Every NumPy function and ufunc that dispatches on arrayx arrays, with what serves it:
    ``arrayx.<name>``, or the NumPy fallback (rows sorted by NumPy name)."""
    from arrayx._numpy_protocols.ufuncs import ACCUMULATE, REDUCE, UFUNCS
    rows: dict[str, str] = {}
    for name in dir(np):
        obj = getattr(np, name)
        if isinstance(obj, np.ufunc):
            served = UFUNCS.get(obj)
            rows[name] = f"arrayx.{served.__name__}" if served else "NumPy fallback"
            if obj in REDUCE:
                rows[f"{name}.reduce"] = f"arrayx.{REDUCE[obj].__name__}"
            if obj in ACCUMULATE:
                rows[f"{name}.accumulate"] = f"arrayx.{ACCUMULATE[obj].__name__}"
        elif not callable(obj):
            continue
        elif obj in SERVED_BY:
            rows[name] = f"arrayx.{SERVED_BY[obj]}"
        elif type(obj).__name__ == "_ArrayFunctionDispatcher":  # NumPy's NEP 18 functions
            rows[name] = "NumPy fallback"
    return sorted(rows.items())

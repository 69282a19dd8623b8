"""NEP 13 and NEP 18: NumPy's ufuncs and functions on arrayx arrays return arrayx arrays with
NumPy's values; NumPy operands are adopted without a copy; the fallback runs on views."""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest

import arrayx as xp
from arrayx._numpy_protocols import functions as _numpy_functions
from arrayx._numpy_protocols import ufuncs as _numpy_ufuncs

A = np.array([[1.5, -2.0, 3.0], [4.0, np.nan, 6.25]])
B = np.array([[0.5, 2.0, -1.0], [1.0, 3.0, 2.0]])
I = np.array([[3, 1, 2], [0, 5, 4]])  # noqa: E741


def same(got: object, expected: object) -> None:
    """``got`` is arrayx (or a plain Python value where NumPy gives one) with NumPy's values."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            same(g, e)
        return
    if isinstance(expected, (np.ndarray, np.generic)):
        assert isinstance(got, xp.Array), type(got)
        expected = np.asarray(expected)
        assert got.shape == expected.shape and got.dtype == expected.dtype, (got, expected)
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, equal_nan=True)
        return
    assert not isinstance(got, np.ndarray) and got == expected


def numpy_and_arrayx(func, *arrays: np.ndarray, **kwargs: object) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = func(*arrays, **kwargs)
        got = func(*[xp.asarray(a) for a in arrays], **kwargs)
    same(got, expected)


UNARY = [np.exp, np.log1p, np.sqrt, np.negative, np.abs, np.arccos, np.floor, np.isnan,
         np.sign, np.square, np.sin, np.rint, np.cbrt, np.deg2rad]
BINARY = [np.add, np.subtract, np.multiply, np.divide, np.power, np.maximum, np.minimum,
          np.arctan2, np.hypot, np.equal, np.less, np.logaddexp, np.copysign, np.fmax,
          np.floor_divide, np.remainder]


@pytest.mark.parametrize("ufunc", UNARY, ids=lambda u: u.__name__)
def test_unary_ufuncs(ufunc: np.ufunc) -> None:
    numpy_and_arrayx(ufunc, A)


@pytest.mark.parametrize("ufunc", BINARY, ids=lambda u: u.__name__)
def test_binary_ufuncs(ufunc: np.ufunc) -> None:
    numpy_and_arrayx(ufunc, A, B)


def test_ufuncs_run_on_arrayx_where_arrayx_has_them() -> None:
    assert _numpy_ufuncs.UFUNCS[np.add] is xp.add
    assert _numpy_ufuncs.UFUNCS[np.arccos] is xp.acos
    assert _numpy_ufuncs.UFUNCS[np.rint] is xp.round
    assert np.cbrt not in _numpy_ufuncs.UFUNCS


@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv,
                                operator.eq, operator.lt, operator.pow])
def test_mixed_operators_give_arrayx_either_side(op) -> None:
    x = xp.asarray(A)
    same(op(x, B), op(A, B))
    same(op(B, x), op(B, A))


def test_numpy_operands_are_adopted_without_a_copy() -> None:
    x = xp.asarray([1.0, 2.0])
    b = np.array([10.0, 20.0])
    x += b
    same(x, np.array([11.0, 22.0]))
    y = xp.zeros(2)
    np.add(b, b, out=y)
    same(y, b + b)
    v = np.add.reduce(xp.asarray(b), keepdims=True)
    same(v, np.array([30.0]))


def test_numpy_scalars_keep_their_dtype() -> None:
    x = xp.asarray(np.array([1, 2], dtype=np.float32))
    same(np.add(x, np.float64(1)), np.add(np.array([1, 2], dtype=np.float32), np.float64(1)))


@pytest.mark.parametrize("ufunc", [np.add, np.multiply, np.maximum, np.minimum,
                                   np.logical_and, np.logical_or])
@pytest.mark.parametrize("axis", [0, 1, None, (0, 1)])
@pytest.mark.parametrize("a", [B, I, I.astype(np.int8), I > 2], ids=["f8", "i8", "i1", "b"])
def test_reduce(ufunc: np.ufunc, axis: object, a: np.ndarray) -> None:
    numpy_and_arrayx(ufunc.reduce, a, axis=axis)
    numpy_and_arrayx(ufunc.reduce, a, axis=axis, keepdims=True)


@pytest.mark.parametrize("ufunc", [np.add, np.multiply])
@pytest.mark.parametrize("a", [B, I, I.astype(np.int16), I > 2], ids=["f8", "i8", "i2", "b"])
def test_accumulate(ufunc: np.ufunc, a: np.ndarray) -> None:
    numpy_and_arrayx(ufunc.accumulate, a)
    numpy_and_arrayx(ufunc.accumulate, a, axis=1)


def test_other_ufunc_methods_fall_back() -> None:
    numpy_and_arrayx(np.add.outer, B[0], B[1])
    numpy_and_arrayx(np.add.reduce, B, axis=1, initial=10.0)
    numpy_and_arrayx(np.add.reduceat, B[0], [0, 2])
    x = xp.zeros(3)
    np.add.at(x, np.array([0, 0, 2]), 1.0)
    same(x, np.array([2.0, 0.0, 1.0]))


def test_ufunc_out_is_written() -> None:
    out = xp.empty((2, 3))
    r = np.multiply(xp.asarray(B), 2, out=out)
    assert r is out
    same(out, B * 2)
    out = xp.empty((2, 3))
    assert np.cbrt(xp.asarray(B), out=out) is out  # through the fallback
    same(out, np.cbrt(B))


@pytest.mark.parametrize("kwargs, word", [
    ({"casting": "unsafe"}, "casting"), ({"order": "F"}, "order"), ({"out": np.empty(3)}, "out="),
])
def test_ufunc_keywords_arrayx_cannot_honour_say_which(kwargs: dict, word: str) -> None:
    with pytest.raises(TypeError, match=word):
        np.add(xp.asarray(B[0]), 1.0, **kwargs)


def test_ufunc_where_and_out_write_as_numpy() -> None:
    mask = np.array([True, False, True])
    want = np.full(3, -1.0)
    np.add(B[0], 1.0, out=want, where=mask)
    out = xp.full((3,), -1.0)
    assert np.add(xp.asarray(B[0]), 1.0, out=out, where=xp.asarray(mask)) is out
    same(out, want)
    narrow, n_narrow = xp.zeros((3,), dtype=xp.int8), np.zeros(3, np.int8)
    np.add(xp.asarray([100, 100, 1]), 100, out=narrow)  # same_kind: int64 into int8 wraps
    np.add(np.array([100, 100, 1]), 100, out=n_narrow)
    same(narrow, n_narrow)
    with pytest.raises(TypeError):
        np.add(xp.asarray(B[0]), 1.0, out=xp.zeros((3,), dtype=xp.int64))


def test_ufunc_with_a_foreign_operand_is_not_ours() -> None:
    class Other:
        def __array_ufunc__(self, ufunc: object, method: str, *inputs: object,
                            **kwargs: object) -> str:
            return "other"
    assert np.add(xp.asarray([1.0]), Other()) == "other"


FUNCTIONS = [
    (np.sum, (I,), {"axis": 0}), (np.sum, (I > 2,), {}), (np.sum, (B,), {"dtype": "float32"}),
    (np.prod, (I,), {"axis": 1, "keepdims": True}), (np.mean, (I,), {}),
    (np.mean, (B,), {"axis": (0, 1)}), (np.std, (B,), {"ddof": 1}), (np.var, (B,), {"axis": 0}),
    (np.max, (I,), {"axis": 1}), (np.amin, (B,), {}), (np.all, (I,), {"axis": 0}),
    (np.any, (I,), {}), (np.argmax, (I,), {"axis": 1}), (np.argmin, (B,), {}),
    (np.cumsum, (I,), {}), (np.cumsum, (I,), {"axis": 1}), (np.cumprod, (B,), {"axis": 0}),
    (np.count_nonzero, (I,), {"axis": 0}), (np.diff, (I,), {}), (np.diff, (I,), {"n": 2}),
    (np.nansum, (A,), {"axis": 1}), (np.nanmean, (A,), {}), (np.nanstd, (A,), {"ddof": 1}),
    (np.nanvar, (A,), {"axis": 0}), (np.nanmax, (A,), {"axis": 0}), (np.nanmin, (A,), {}),
    (np.nanargmax, (A,), {"axis": 1}), (np.nanargmin, (A,), {}), (np.nanprod, (A,), {}),
    (np.transpose, (I,), {}), (np.transpose, (I[None],), {"axes": (2, 0, 1)}),
    (np.permute_dims, (I,), {}), (np.swapaxes, (I[None],), {"axis1": 0, "axis2": 2}),
    (np.reshape, (I,), {"shape": (3, 2)}), (np.reshape, (I,), {"shape": -1}),
    (np.ravel, (I,), {}), (np.squeeze, (I[None],), {}), (np.expand_dims, (I,), {"axis": 1}),
    (np.broadcast_to, (B[0],), {"shape": (4, 3)}), (np.flip, (I,), {"axis": 0}),
    (np.roll, (I,), {"shift": 2}), (np.moveaxis, (I,), {"source": 0, "destination": 1}),
    (np.repeat, (I,), {"repeats": 2, "axis": 1}), (np.tile, (I,), {"reps": 2}),
    (np.unstack, (I,), {}), (np.astype, (I, np.float32), {}), (np.copy, (B,), {}),
    (np.where, (I > 2,), {}), (np.nonzero, (I,), {}), (np.sort, (I,), {}),
    (np.sort, (I,), {"axis": None}), (np.argsort, (I,), {"axis": 0}),
    (np.take, (I,), {"indices": [0, 2], "axis": 1}), (np.take, (I,), {"indices": [5, 0]}),
    (np.clip, (B,), {"a_min": 0, "a_max": 1.5}), (np.round, (B,), {}),
    (np.around, (B,), {"decimals": 1}), (np.real, (B,), {}), (np.imag, (B + 1j,), {}),
    (np.zeros_like, (I,), {}), (np.ones_like, (B,), {"dtype": np.int8}),
    (np.full_like, (B,), {"fill_value": 7.0}), (np.zeros_like, (B,), {"shape": (4,)}),
    (np.tril, (I,), {}), (np.triu, (I,), {"k": 1}), (np.pad, (I,), {"pad_width": 1}),
    (np.pad, (B,), {"pad_width": (1, 2), "mode": "reflect"}),
    (np.pad, (B,), {"pad_width": 1, "mode": "linear_ramp"}), (np.ndim, (I,), {}),
    (np.shape, (I,), {}), (np.size, (I,), {}), (np.dot, (B, B.T), {}),
    (np.tensordot, (B, B), {"axes": 2}), (np.einsum, ("ij,ij->i", B, B), {}),
    (np.isclose, (A, A), {"equal_nan": True}), (np.allclose, (B, B), {}),
    (np.median, (B,), {"axis": 0}), (np.nanmedian, (A,), {}), (np.quantile, (B, 0.25), {}),
    (np.apply_along_axis, (np.sum, 0, B), {}), (np.unique, (I,), {}), (np.outer, (B[0], B[1]), {}),
    (np.linalg.norm, (B,), {}), (np.atleast_3d, (I,), {}), (np.searchsorted, (B[1], B[0]), {}),
]


def _call(func, args: tuple, kwargs: dict, convert) -> object:
    args = tuple(convert(a) if isinstance(a, np.ndarray) else a for a in args)
    return func(*args, **kwargs)


@pytest.mark.parametrize("func, args, kwargs", FUNCTIONS,
                         ids=[f"{f.__name__}-{i}" for i, (f, _, _) in enumerate(FUNCTIONS)])
def test_numpy_functions_return_arrayx_with_numpy_values(func, args: tuple, kwargs: dict) -> None:
    if func is np.searchsorted:
        args = (np.sort(args[0]), args[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = _call(func, args, kwargs, lambda a: a)
        got = _call(func, args, kwargs, xp.asarray)
    if isinstance(expected, np.ndarray) or not isinstance(expected, (tuple, list)):
        same(got, expected if not isinstance(expected, list) else tuple(expected))
    else:
        same(tuple(got), tuple(expected))


def test_mixed_functions_adopt_numpy_arrays() -> None:
    same(np.concatenate([xp.asarray(B), B]), np.concatenate([B, B]))
    same(np.stack([B, xp.asarray(B)], axis=1), np.stack([B, B], axis=1))
    same(np.where(xp.asarray(I > 2), B, 0.0), np.where(I > 2, B, 0.0))
    same(np.concatenate([xp.asarray(B), B], axis=None), np.concatenate([B, B], axis=None))
    same(np.broadcast_arrays(xp.asarray(B[0]), B[:, :1]), np.broadcast_arrays(B[0], B[:, :1]))
    same(np.meshgrid(xp.asarray(B[0]), B[1]), np.meshgrid(B[0], B[1]))


def test_result_type_and_like_creation() -> None:
    x = xp.asarray(np.ones(2, dtype=np.float32))
    assert np.result_type(x, np.float64) == np.float64
    assert np.result_type(x, xp.asarray([1], dtype=xp.int8)) == np.float32
    for expected, got in [
        (np.asarray([1, 2]), np.asarray([1, 2], like=x)),
        (np.array([1.0]), np.array([1.0], like=x)),
        (np.zeros((2, 2)), np.zeros((2, 2), like=x)),
        (np.ones(3, dtype=np.int8), np.ones(3, dtype=np.int8, like=x)),
        (np.full(2, 3.0), np.full(2, 3.0, like=x)),
        (np.arange(1, 7, 2), np.arange(1, 7, 2, like=x)),
        (np.eye(3, k=1), np.eye(3, k=1, like=x)),
    ]:
        same(got, expected)


def test_standard_counterparts_run_on_arrayx() -> None:
    for f in (np.sum, np.mean, np.concatenate, np.transpose, np.where, np.broadcast_to,
              np.result_type, np.asarray, np.nanmean, np.pad):
        assert f in _numpy_functions.IMPLEMENTATIONS, f.__name__
    assert np.einsum not in _numpy_functions.IMPLEMENTATIONS


def test_fallback_shares_memory_both_ways() -> None:
    b = B.copy()
    x = xp.asarray(b)  # adopted without a copy: x is b's memory
    got = np.atleast_2d(x)  # NumPy returns its input view: the result is x's memory
    got[0, 0] = 99.0
    assert float(x[0, 0]) == 99.0 and b[0, 0] == 99.0
    r = np.asarray(np.median(x, axis=0))
    assert r.shape == (3,)


def test_function_out_is_written_and_numpy_out_refused() -> None:
    out = xp.empty(3)
    assert np.sum(xp.asarray(B), axis=0, out=out) is out
    same(out, B.sum(axis=0))
    out = xp.empty((2, 3))
    assert np.around(xp.asarray(B), 1, out=out) is out  # through the fallback
    same(out, np.around(B, 1))
    with pytest.raises(TypeError, match="out="):
        np.sum(xp.asarray(B), axis=0, out=np.empty(3))


def test_fallback_result_arrayx_cannot_hold_is_refused() -> None:
    with pytest.raises(TypeError, match="numpy.astype returned the NumPy dtype float16"):
        np.astype(xp.asarray(B), np.float16)
    with pytest.raises(TypeError, match="numpy.frompyfunc|object"):
        np.frompyfunc(abs, 1, 1)(xp.asarray(B))


def test_functions_with_foreign_arrays_are_not_ours() -> None:
    class Other:
        def __array_function__(self, func: object, types: object, args: object,
                               kwargs: object) -> str:
            return "other"
    assert np.concatenate([xp.asarray([1.0]), Other()]) == "other"


def test_a_non_cpu_array_never_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from arrayx._numpy_protocols import fallback as _numpy_fallback
    monkeypatch.setattr(_numpy_fallback._devices, "CPU", object())
    with pytest.raises(TypeError, match="numpy.einsum has no arrayx implementation"):
        np.einsum("i->", xp.asarray([1.0]))
    with pytest.raises(TypeError, match="numpy.cbrt has no arrayx implementation"):
        np.cbrt(xp.asarray([1.0]))


@pytest.mark.parametrize("call, expected", [
    (lambda x: x.sum(axis=0), B.sum(axis=0)), (lambda x: x.reshape(3, 2), B.reshape(3, 2)),
    (lambda x: x.reshape((6,)), B.reshape((6,))), (lambda x: x.astype(np.float32),
                                                   B.astype(np.float32)),
    (lambda x: x[None].squeeze(0), B), (lambda x: x.transpose(1, 0), B.transpose(1, 0)),
    (lambda x: x.transpose(), B.T), (lambda x: x.mean(), B.mean()),
    (lambda x: x.flatten(), B.flatten()), (lambda x: x.max(axis=1), B.max(axis=1)),
    (lambda x: x.item(1), B.item(1)), (lambda x: x.tolist(), B.tolist()),
    (lambda x: x.real, B.real), (lambda x: x.imag, B.imag),
    (lambda x: (x * 1j + 2).real, (B * 1j + 2).real), (lambda x: (x * 1j).imag, (B * 1j).imag),
])
def test_numpy_methods(call, expected: object) -> None:
    same(call(xp.asarray(B)), expected)


def test_real_imag_attributes_in_strict_mode() -> None:
    xp.set_strict_flags(strict=True)
    try:
        with pytest.raises(AttributeError, match="strict mode"):
            xp.asarray([1j]).real  # noqa: B018
    finally:
        xp.reset_strict_flags()


def test_numpy_methods_are_not_members() -> None:
    assert "sum" not in dir(xp.Array)
    with pytest.raises(AttributeError, match="no attribute 'frobnicate'"):
        xp.asarray([1]).frobnicate  # noqa: B018


def test_the_docs_table_is_the_dispatch() -> None:
    rows = dict(_numpy_functions.table())
    assert rows["sum"] == "arrayx.sum" and rows["concatenate"] == "arrayx.concat"
    assert rows["transpose"] == "arrayx.permute_dims" and rows["add.reduce"] == "arrayx.sum"
    assert rows["arccos"] == "arrayx.acos" and rows["nanmean"] == "arrayx.nanmean"
    assert rows["einsum"] == rows["cbrt"] == rows["isclose"] == "NumPy fallback"
    served = {f for f in _numpy_functions.IMPLEMENTATIONS if f.__name__ in rows}
    assert all(rows[f.__name__].startswith("arrayx.") for f in served)


def test_object_operands_raise_naming_the_function() -> None:
    objects = np.array([1, None], dtype=object)
    with pytest.raises(TypeError, match="numpy.concatenate returned the NumPy dtype object"):
        np.concatenate([xp.asarray([1.0]), objects])
    with pytest.raises(TypeError, match="numpy.equal returned the NumPy dtype object"):
        np.equal(xp.asarray([1.0, 2.0]), objects, dtype=object)


def test_numpy_subclasses_are_not_adopted() -> None:
    """A masked array adopted as a plain view would lose its mask: arrayx declines it (and so
    does the masked array, so NumPy raises TypeError rather than compute a wrong result)."""
    masked = np.ma.masked_array([1.0, 2.0], mask=[True, False])
    with pytest.raises(TypeError, match="NotImplemented"):
        np.add(xp.asarray([1.0, 1.0]), masked)
    with pytest.raises(TypeError, match="no implementation"):
        np.concatenate([xp.asarray([1.0]), masked])


def test_power_of_uint64_by_signed_integers_is_a_float_loop() -> None:
    # The integer rule (negative exponents refused) looked at the inputs' kinds; uint64 with
    # int8 promotes to float64, where NumPy takes negative exponents.
    u, i = np.array([1, 2, 3], np.uint64), np.array([-2, 1, 3], np.int8)
    want = np.power(u, i)
    for got in (np.power(xp.asarray(u), xp.asarray(i)), xp.asarray(u) ** i):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    with pytest.raises(ValueError, match="negative integer powers"):
        np.power(xp.asarray(u.astype(np.int64)), xp.asarray(i))

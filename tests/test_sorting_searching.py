"""Sorting and searching against NumPy: sort, argsort, argmax, argmin, count_nonzero,
nonzero, searchsorted."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DTYPES_BY_KIND, arrays, long_rows, to_np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arrayx as xp

shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=8)
REAL = DTYPES_BY_KIND["real"]


def stable_order(a: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """NumPy's stable sorting permutation of ``a`` along ``axis``, NaNs last both ways.

    Descending: largest first, equal elements in their original order. NumPy's reference is a
    stable lexsort on (is NaN, minus the value's exact rank), since negating the values
    themselves overflows or rounds.
    """
    if not descending:
        return np.argsort(a, axis=axis, stable=True)
    ranks = np.unique(a, return_inverse=True)[1].reshape(a.shape)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, dtype=bool)
    return np.lexsort((-ranks, nan), axis=axis)


def bits(a: np.ndarray) -> np.ndarray:
    """The elements' bit patterns (tells -0.0 from 0.0 and one NaN from another)."""
    return np.ascontiguousarray(a).view(f"u{a.dtype.itemsize}")


@given(a=arrays(REAL, shape=shapes), data=st.data())
def test_sort_and_argsort(a: np.ndarray, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    descending = data.draw(st.booleans())
    x = xp.asarray(a)[::-1]
    a = a[::-1]
    order = stable_order(a, axis, descending)
    got = xp.argsort(x, axis=axis, descending=descending)
    assert got.dtype == xp.int64
    np.testing.assert_array_equal(to_np(got), order)
    np.testing.assert_array_equal(to_np(xp.sort(x, axis=axis, descending=descending)),
                                  np.take_along_axis(a, order, axis=axis))


@pytest.mark.parametrize("kind", ["integer", "real_float", "bool"])
@given(data=st.data())
def test_long_rows_sort_as_numpy(kind: str, data: st.DataObject) -> None:
    # The radix path against NumPy's stable argsort (-0.0 and 0.0 equal, every NaN last,
    # descending stable too); sorted values bit for bit, so they are the elements themselves.
    a = data.draw(long_rows(DTYPES_BY_KIND[kind]))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    descending = data.draw(st.booleans())
    order = stable_order(a, axis, descending)
    x = xp.asarray(a)
    got = xp.argsort(x, axis=axis, descending=descending)
    np.testing.assert_array_equal(to_np(got), order)
    np.testing.assert_array_equal(bits(to_np(xp.sort(x, axis=axis, descending=descending))),
                                  bits(np.take_along_axis(a, order, axis=axis)))


def _one_long_row(dtype: str, shape: str, rng: np.random.Generator) -> np.ndarray:
    n = (1 << 16) + 4099
    if shape == "spread":
        a = rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)
    elif shape == "clustered":  # every key in a few of the split's buckets
        a = 1.0 + rng.integers(0, 3, n) * 1e-9 + rng.random(n) * 1e-12
    elif shape == "outlier":  # one bucket would hold nearly all: the whole-row sort
        a = rng.random(n)
        a[7] = 1e300
    else:  # ties, signed zeros and NaNs of both signs
        a = rng.integers(-3, 4, n).astype(np.float64)
        a[a == 3] = -0.0
        a[rng.random(n) < 0.05] = np.nan
        a[rng.random(n) < 0.05] = -np.nan
    if np.dtype(dtype).kind in "iu":
        a = np.nan_to_num(a * 1e6).clip(-2**62, 2**62)
        a = np.abs(a) if np.dtype(dtype).kind == "u" else a
    return a.astype(dtype)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shape", ["spread", "clustered", "outlier", "ties"])
@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64"])
def test_one_long_row_sorts_by_buckets_as_numpy(dtype: str, shape: str, threads: int) -> None:
    # A single row of 8-byte values from 2^16 elements is split by its keys' leading bits and
    # the buckets sorted apart (on the kernel threads): bit for bit NumPy's stable order.
    a = _one_long_row(dtype, shape, np.random.default_rng(len(dtype) + len(shape)))
    before = xp.get_num_threads()
    xp.set_num_threads(threads)
    try:
        for descending in (False, True):
            want = np.take_along_axis(a, stable_order(a, -1, descending), axis=-1)
            got = to_np(xp.sort(xp.asarray(a), descending=descending))
            np.testing.assert_array_equal(bits(got), bits(want))
    finally:
        xp.set_num_threads(before)


@pytest.mark.parametrize("kind", ["integer", "real_float"])
@given(data=st.data(), descending=st.booleans())
def test_long_rows_unstable_sort_orders(kind: str, data: st.DataObject, descending: bool) -> None:
    # stable=False may order equal elements either way: the values must match NumPy's and the
    # indices must be a permutation that sorts.
    a = data.draw(long_rows(DTYPES_BY_KIND[kind]))
    expected = np.take_along_axis(a, stable_order(a, -1, descending), axis=-1)
    x = xp.asarray(a)
    got = to_np(xp.argsort(x, descending=descending, stable=False))
    np.testing.assert_array_equal(np.sort(got, axis=-1), np.broadcast_to(
        np.arange(a.shape[-1]), a.shape))
    np.testing.assert_array_equal(np.take_along_axis(a, got, axis=-1), expected)
    np.testing.assert_array_equal(to_np(xp.sort(x, descending=descending, stable=False)),
                                  expected)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@given(a=arrays(REAL, shape=shapes), data=st.data())
def test_argmax_argmin(name: str, a: np.ndarray, data: st.DataObject) -> None:
    axis = data.draw(st.none() | st.integers(-a.ndim, a.ndim - 1))
    keepdims = data.draw(st.booleans())
    x = xp.asarray(a)
    empty = a.size == 0 if axis is None else a.shape[axis] == 0
    if empty:
        with pytest.raises(ValueError):
            getattr(xp, name)(x, axis=axis)
        return
    if a.size == 0:
        return
    expected = getattr(np, name)(a, axis=axis, keepdims=keepdims)
    got = getattr(xp, name)(x, axis=axis, keepdims=keepdims)
    assert got.dtype == xp.int64 and got.shape == np.shape(expected)
    np.testing.assert_array_equal(to_np(got), expected)


@given(a=arrays(DTYPES_BY_KIND["all"], shape=shapes), data=st.data())
def test_count_nonzero_and_nonzero(a: np.ndarray, data: st.DataObject) -> None:
    axis = data.draw(st.none() | st.integers(-a.ndim, a.ndim - 1))
    x = xp.asarray(a)
    np.testing.assert_array_equal(to_np(xp.count_nonzero(x, axis=axis)),
                                  np.count_nonzero(a, axis=axis))
    for got, expected in zip(xp.nonzero(x), np.nonzero(a), strict=True):
        np.testing.assert_array_equal(to_np(got), expected)


@pytest.mark.parametrize("dtype", [np.bool_, np.float64])
@pytest.mark.parametrize("view", ["transposed", "reversed", "strided", "broadcast"])
def test_nonzero_and_count_nonzero_of_views(dtype: type, view: str) -> None:
    # Views in other memory orders: the masks the kernels read must be made C-contiguous
    # (a transposed mask, or a comparison of a transposed array, is F-ordered).
    rng = np.random.default_rng(3)
    a = (rng.random((7, 9)) > 0.5).astype(dtype)
    x = xp.asarray(a)
    pick = {"transposed": lambda m: m.T if m is a else m.mT,
            "reversed": lambda m: m[::-1, ::-1],
            "strided": lambda m: m[::2, 1::3],
            "broadcast": lambda m: (np.broadcast_to(m[0], (4, 9)) if m is a
                                    else xp.broadcast_to(m[0], (4, 9)))}[view]
    want, got = pick(a), pick(x)
    for g, w in zip(xp.nonzero(got), np.nonzero(want), strict=True):
        np.testing.assert_array_equal(to_np(g), w)
    assert int(xp.count_nonzero(got)) == np.count_nonzero(want)
    np.testing.assert_array_equal(to_np(xp.count_nonzero(got, axis=0)),
                                  np.count_nonzero(want, axis=0))


@given(s=hnp.arrays(np.float64, st.integers(0, 20), elements=st.floats(-10, 10)),
       v=hnp.arrays(np.float64, st.sampled_from([(), (3,), (2, 2)]), elements=st.floats(-11, 11)),
       side=st.sampled_from(["left", "right"]), use_sorter=st.booleans())
def test_searchsorted(s: np.ndarray, v: np.ndarray, side: str, use_sorter: bool) -> None:
    if use_sorter:
        sorter = np.argsort(s, stable=True)
        got = xp.searchsorted(xp.asarray(s), xp.asarray(v), side=side,
                              sorter=xp.asarray(sorter))
        expected = np.searchsorted(s, v, side=side, sorter=sorter)
    else:
        s = np.sort(s)
        got = xp.searchsorted(xp.asarray(s), xp.asarray(v), side=side)
        expected = np.searchsorted(s, v, side=side)
    np.testing.assert_array_equal(to_np(got), expected)


def test_bad_sorting_input() -> None:
    with pytest.raises(ValueError):
        xp.sort(xp.asarray(1.0))
    with pytest.raises((ValueError, IndexError)):
        xp.argsort(xp.ones(3), axis=1)
    with pytest.raises(ValueError):
        xp.searchsorted(xp.ones((2, 2)), xp.ones(2))
    with pytest.raises(ValueError):
        xp.searchsorted(xp.ones(2), xp.ones(2), side="middle")
    with pytest.raises(ValueError):
        xp.nonzero(xp.asarray(1))


@pytest.mark.parametrize("n", [5000, 3 * 2**20 + 7])
@given(data=st.data())
def test_long_runs_of_argmax_argmin_max_min(n: int, data: st.DataObject) -> None:
    # Long enough for the blocked kernel (5000) and for the parallel ranges (3 * 2^20 + 7);
    # the planted values (NaNs, ties, signed zeros, infinities) land anywhere, the first
    # occurrence having to win.
    dtype = data.draw(st.sampled_from([np.float64, np.float32, np.int64, np.uint8, np.int16]))
    a = np.zeros(n, dtype=dtype)
    planted = data.draw(st.lists(st.tuples(
        st.integers(0, n - 1),
        st.sampled_from([np.nan, -np.inf, np.inf, -0.0, 1.0, -1.0, 7.0, 7.0, -7.0])),
        min_size=0, max_size=6))
    for i, v in planted:
        if a.dtype.kind in "iu" and (not np.isfinite(v) or v < 0 and a.dtype.kind == "u"):
            continue
        a[i] = v
    x = xp.asarray(a)
    for name in ("argmax", "argmin", "max", "min"):
        got = to_np(getattr(xp, name)(x))
        np.testing.assert_array_equal(got, getattr(np, name)(a), err_msg=name)


@pytest.mark.parametrize("n", [7, 600])
@pytest.mark.parametrize("descending", [False, True])
def test_sorting_bools_holding_other_bytes_than_0_and_1(n: int, descending: bool) -> None:
    # NumPy or DLPack memory may hold any byte in a bool array: every non-zero byte is True,
    # and sorting normalises the values (it once read them as C++ bools, which is undefined).
    raw = np.random.default_rng(4).choice(np.array([0, 1, 2, 3, 128, 255], np.uint8), n)
    x = xp.asarray(raw.view(np.bool_))
    truth = raw != 0
    keys = ~truth if descending else truth
    np.testing.assert_array_equal(to_np(xp.argsort(x, descending=descending)),
                                  np.argsort(keys, stable=True))
    got = to_np(xp.sort(x, descending=descending)).view(np.uint8)
    expected = np.sort(truth)[::-1] if descending else np.sort(truth)
    np.testing.assert_array_equal(got, expected.view(np.uint8))
    np.testing.assert_array_equal(to_np(xp.unique_values(x)), np.unique(truth))


# Integer rows whose values span at most 2^16 (and no more than the row's length) are sorted by
# counting; the ranges around that bound, at each end of every integer dtype, both orders.
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32",
                                   "int64", "uint64"])
@pytest.mark.parametrize("where", ["min", "max", "zero"])
@pytest.mark.parametrize("span", [0, 1, 100, (1 << 16) - 1, 1 << 16, (1 << 16) + 1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_of_narrow_integer_ranges(dtype: str, where: str, span: int,
                                       descending: bool) -> None:
    info = np.iinfo(dtype)
    span = min(span, int(info.max) - int(info.min))
    lo = {"min": int(info.min), "max": int(info.max) - span, "zero": max(int(info.min), -5)}[where]
    rng = np.random.default_rng(span + len(dtype))
    a = rng.integers(lo, min(lo + span, int(info.max)), 70_000, dtype=dtype, endpoint=True)
    a[:2] = [lo, min(lo + span, int(info.max))]  # both ends of the range are present
    expected = np.sort(a)[::-1] if descending else np.sort(a)
    got = to_np(xp.sort(xp.asarray(a), descending=descending))
    np.testing.assert_array_equal(got, expected)
    rows = a[:69_000].reshape(300, 230)
    np.testing.assert_array_equal(to_np(xp.sort(xp.asarray(rows), axis=0)),
                                  np.sort(rows, axis=0))


# From 2^16 values searchsorted runs in ranges over the pool's threads: every range, each side,
# through a sorter too, equal to NumPy's on one thread and on several.
@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("dtype", ["float64", "int32", "uint8"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_of_many_values_on_threads(threads: int, dtype: str, side: str) -> None:
    rng = np.random.default_rng(threads)
    haystack = np.sort(rng.integers(0, 200, 3001)).astype(dtype)
    needles = rng.integers(0, 210, (1 << 16) * 3 + 17).astype(dtype)
    before = xp.get_num_threads()
    xp.set_num_threads(threads)
    try:
        got = xp.searchsorted(xp.asarray(haystack), xp.asarray(needles), side=side)
        shuffled = rng.permutation(haystack)
        sorter = np.argsort(shuffled, kind="stable")
        through = xp.searchsorted(xp.asarray(shuffled), xp.asarray(needles), side=side,
                                  sorter=xp.asarray(sorter))
    finally:
        xp.set_num_threads(before)
    np.testing.assert_array_equal(to_np(got), np.searchsorted(haystack, needles, side=side))
    np.testing.assert_array_equal(to_np(through),
                                  np.searchsorted(shuffled, needles, side=side, sorter=sorter))


# From 2^15 elements in all, many rows are sorted in groups over the pool's threads: every
# group (rows shorter and longer than the radix sort's threshold, a row count the groups do
# not divide), both directions, equal to NumPy's stable sort on one thread and on several.
@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("dtype", ["float64", "int32", "complex64", "bool"])
@pytest.mark.parametrize("shape", [(1001, 40), (37, 3000)])
@pytest.mark.parametrize("descending", [False, True])
def test_sorts_of_many_rows_on_threads(threads: int, dtype: str, shape: tuple,
                                       descending: bool) -> None:
    rng = np.random.default_rng(shape[0])
    a = rng.integers(-50, 50, shape).astype(dtype)
    if dtype == "float64":
        a[rng.random(shape) < 0.01] = np.nan
    if dtype == "complex64":
        a = a + 1j * rng.integers(-3, 3, shape)
    before = xp.get_num_threads()
    xp.set_num_threads(threads)
    try:
        x = xp.asarray(a)
        got = to_np(xp.sort(x, axis=1, descending=descending))
        order = to_np(xp.argsort(x, axis=1, descending=descending))
        columns = to_np(xp.sort(xp.asarray(a.T), axis=0, descending=descending))
    finally:
        xp.set_num_threads(before)
    key = -a if descending and dtype not in ("bool",) else a
    if dtype == "bool" and descending:
        key = ~a
    want_order = np.argsort(key, axis=1, kind="stable")
    want = np.take_along_axis(a, want_order, axis=1)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(order, want_order)
    np.testing.assert_array_equal(columns, want.T)


def _patterned(pattern: str, n: int, dtype: str, rng: np.random.Generator) -> np.ndarray:
    if pattern == "random":
        a = rng.standard_normal(n) * 1e6
    elif pattern == "few":  # many equal values: the partitions' equal-to-pivot runs
        a = rng.integers(-2, 3, n).astype(np.float64)
    elif pattern == "equal":
        a = np.full(n, 7.0)
    elif pattern == "close":  # float64 values one float32 apart at most, integers far apart
        a = 1.0 + rng.integers(0, 50, n) * 1e-13
        if np.dtype(dtype).kind in "iu":
            a = rng.integers(0, 50, n) * 3 + np.where(rng.random(n) < 0.5, 0, 2**40)
    elif pattern == "sorted":
        a = np.arange(n, dtype=np.float64)
    elif pattern == "reversed":
        a = np.arange(n, 0, -1, dtype=np.float64)
    else:  # "organ": up then down, a classic bad case for a sampled pivot
        a = np.minimum(np.arange(n), np.arange(n)[::-1]).astype(np.float64)
    if np.dtype(dtype).kind == "u":
        a = np.abs(a)
    if np.dtype(dtype).itemsize < 4:  # wrap into the type's range
        a = (a % 2**16).astype(np.int64)
    a = a.astype(dtype)
    if np.dtype(dtype).kind == "f" and pattern == "few":
        a[a == 2] = -0.0
        a[rng.random(n) < 0.03] = np.nan
    if np.dtype(dtype).kind in "iu" and pattern == "random":  # the type's extremes
        info = np.iinfo(dtype)
        a[rng.random(n) < 0.02] = info.max
        a[rng.random(n) < 0.02] = info.min
    return a


# The vector quicksort (AVX2 and AVX-512 levels; CI runs this file at each level) of 32- and
# 64-bit integers and real floats: lengths about its register networks (up to 16 vectors) and
# its partitions (from 2 x 8 vectors), a length a long row splits over threads, inputs that
# defeat sampled pivots or hold one value; bit for bit NumPy's stable sort both ways. argsort
# sorts (key, index) words with it, 64-bit keys cut to 32 bits and the runs of one cut key
# ordered after ("close" values share cut keys): NumPy's stable order.
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "uint64", "uint32",
                                   "int16", "uint8"])
@pytest.mark.parametrize("pattern", ["random", "few", "equal", "close", "sorted", "reversed",
                                     "organ"])
@pytest.mark.parametrize("threads", [1, 2])
def test_vector_sort_lengths_and_patterns(dtype: str, pattern: str, threads: int) -> None:
    rng = np.random.default_rng(len(dtype) * 7 + len(pattern))
    lengths = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 127, 128, 129, 255, 256,
               257, 1000, 4099, (1 << 15) + 3, (1 << 17) + 1]
    before = xp.get_num_threads()
    xp.set_num_threads(threads)
    try:
        for n in lengths:
            a = _patterned(pattern, n, dtype, rng)
            for descending in (False, True):
                want = np.take_along_axis(a, stable_order(a, -1, descending), axis=-1)
                got = to_np(xp.sort(xp.asarray(a), descending=descending))
                np.testing.assert_array_equal(bits(got), bits(want), err_msg=f"n={n}")
                order = to_np(xp.argsort(xp.asarray(a), descending=descending))
                np.testing.assert_array_equal(order, stable_order(a, -1, descending),
                                              err_msg=f"n={n}")
            loose = to_np(xp.sort(xp.asarray(a), stable=False))
            np.testing.assert_array_equal(loose, np.sort(a), err_msg=f"n={n}")
            # A permutation of the input, -0.0 and 0.0 included (x86's min and max of two
            # equal values both return one of them).
            np.testing.assert_array_equal(np.sort(bits(loose)), np.sort(bits(a)),
                                          err_msg=f"n={n}")
    finally:
        xp.set_num_threads(before)


def test_complex_nans_in_numpys_order() -> None:
    # Every complex NaN compared equal (after every number, in input order); NumPy orders
    # them too: R + Rj < R + nanj < nan + Rj < nan + nanj, so searchsorted and unique's
    # first indices differed.
    nan = np.nan
    z = np.array([complex(nan, 0), complex(0, nan), 1 + 1j, complex(nan, nan), complex(1, nan),
                  complex(nan, -1), 0j, complex(-1, nan), complex(nan, 0), 1 + 1j])
    x = xp.asarray(z)
    np.testing.assert_array_equal(to_np(xp.sort(x)), np.sort(z))
    np.testing.assert_array_equal(to_np(xp.argsort(x, stable=True)), np.argsort(z, kind="stable"))
    s = np.sort(z)
    for side in ("left", "right"):
        np.testing.assert_array_equal(to_np(xp.searchsorted(xp.asarray(s), x, side=side)),
                                      np.searchsorted(s, z, side=side))
    pair = np.array([complex(nan, 0), complex(0, nan)])
    np.testing.assert_array_equal(to_np(xp.unique_all(xp.asarray(pair)).indices),
                                  np.unique(pair, return_index=True, equal_nan=False)[1])

"""The second round of hostile input (issue #24): the NumPy protocols, sizes near 2^63, pad,
the data_dependent_shapes flag, the thread count and svd's signs.

Crashers run in a child interpreter (``isolated``), so a crash fails its test instead of
killing pytest; the rest compare with NumPy as the oracle.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import arrayx as xp


def isolated(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``code`` (with ``np`` and ``xp`` imported) in a child interpreter; fail on a signal,
    and on any error unless ``env`` is given (then the caller reads the result)."""
    src = "import numpy as np\nimport arrayx as xp\n" + textwrap.dedent(code)
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=120,
                       env=env)
    if r.returncode < 0:
        pytest.fail(f"the interpreter died of signal {-r.returncode}:\n{r.stderr[-2000:]}")
    if env is None:
        assert r.returncode == 0, r.stderr[-2000:]
    return r


# --- 1. joined lengths that overflow int64 ----------------------------------------------------

def test_concat_whose_length_overflows_raises_value_error() -> None:
    isolated("""
        import pytest
        big = xp.broadcast_to(xp.asarray(1.0), (2**62,))
        for parts, kw in [([big] * 4, {}), ([big] * 2, {}), ([big] * 5, {}),
                          ([big] * 4, {"axis": None}),
                          ([xp.broadcast_to(xp.asarray(1, dtype=xp.uint8), (2**62,))] * 4, {})]:
            with pytest.raises(ValueError, match="too big"):
                xp.concat(parts, **kw)
        wide = xp.broadcast_to(xp.asarray(1.0), (1, 2**62))
        with pytest.raises(ValueError, match="too big"):
            xp.concat([wide] * 4, axis=1)
        with pytest.raises(ValueError, match="too big"):
            np.concatenate([big] * 4)
    """)


def test_repeat_and_pad_whose_length_overflows_raise_value_error() -> None:
    isolated("""
        import pytest
        with pytest.raises(ValueError, match="too big"):
            xp.repeat(xp.asarray([1, 2]), xp.asarray([2**62, 2**62]))
        with pytest.raises(ValueError, match="too big"):
            xp.pad(xp.asarray([1.0]), (2**62, 2**62))
        with pytest.raises(ValueError, match="too big"):
            xp.pad(xp.asarray([1.0]), 2**70, mode="edge")
    """)


# --- 2. an Array made without its constructor -------------------------------------------------

def test_array_new_is_refused() -> None:
    isolated("""
        import pytest
        for make in (lambda: xp.Array.__new__(xp.Array), lambda: xp.Array(),
                     lambda: object.__new__(xp.Array)):
            with pytest.raises(TypeError):
                make()
        with pytest.raises(TypeError):
            class Sub(xp.Array):
                pass
            Sub.__new__(Sub)
    """)


def test_crafted_pickle_cannot_make_an_empty_array() -> None:
    isolated("""
        import copyreg, pickle, pytest
        crafted = b"\\x80\\x04c" + b"arrayx._array\\nArray\\n" + b")\\x81."  # NEWOBJ, no state
        with pytest.raises(TypeError):
            pickle.loads(crafted)
        with pytest.raises(TypeError):
            copyreg.__newobj__(xp.Array)
        x = xp.asarray([[1.5, 2.0]])
        assert xp.all(pickle.loads(pickle.dumps(x)) == x)
    """)


# --- 3. swapaxes normalises its axes as NumPy does ---------------------------------------------

@pytest.mark.parametrize("a1, a2", [(0, 3), (1, -4), (3, 0), (-4, 2), (5, 1)])
def test_swapaxes_out_of_range_raises_axis_error(a1: int, a2: int) -> None:
    x = xp.zeros((2, 3, 4))
    with pytest.raises(np.exceptions.AxisError):
        np.swapaxes(np.zeros((2, 3, 4)), a1, a2)
    with pytest.raises(np.exceptions.AxisError):
        np.swapaxes(x, a1, a2)
    with pytest.raises(np.exceptions.AxisError):
        x.swapaxes(a1, a2)


@pytest.mark.parametrize("a1, a2", [(0, 2), (1, -1), (-3, -2), (1, 1)])
def test_swapaxes_in_range_matches_numpy(a1: int, a2: int) -> None:
    n = np.arange(24).reshape(2, 3, 4)
    np.testing.assert_array_equal(np.asarray(np.swapaxes(xp.asarray(n), a1, a2)),
                                  np.swapaxes(n, a1, a2))


# --- 4. dtype= on NumPy's ufuncs chooses the loop ---------------------------------------------

def test_ufunc_dtype_selects_the_loop() -> None:
    xn, yn = np.array([1.0, 2.0, 3.0]), np.array([0.0, 2.0, 5.0])
    x, y = xp.asarray(xn), xp.asarray(yn)
    np.testing.assert_array_equal(np.asarray(np.equal(x, y, dtype=bool)),
                                  np.equal(xn, yn, dtype=bool))
    i8 = np.array([100, 120, -128], dtype=np.int8)
    got = np.add(xp.asarray(i8), xp.asarray(i8), dtype=np.int16)
    want = np.add(i8, i8, dtype=np.int16)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    v = np.array([100, 200, 50])
    got = np.minimum.reduce(xp.asarray(v), dtype=np.int8)
    assert int(got) == int(np.minimum.reduce(v, dtype=np.int8)) == -56
    got = np.add.reduce(xp.asarray([1.5, 2.5]), dtype=np.int64)
    assert int(got) == int(np.add.reduce(np.array([1.5, 2.5]), dtype=np.int64))
    b = np.array([True, True, False])
    got = np.add.reduce(xp.asarray(b), dtype=bool)
    assert got.dtype == np.add.reduce(b, dtype=bool).dtype and bool(got)
    got = np.add.reduce(xp.asarray(i8), dtype=np.int8)
    assert got.dtype == np.int8 and int(got) == int(np.add.reduce(i8, dtype=np.int8))
    with pytest.raises(TypeError):
        np.logical_and.reduce(b, dtype=np.int8)
    with pytest.raises(TypeError):
        np.logical_and.reduce(xp.asarray(b), dtype=np.int8)
    with pytest.raises(TypeError):
        np.divide(np.array([1, 2]), np.array([2, 2]), dtype=np.int64)
    with pytest.raises(TypeError):
        np.divide(xp.asarray([1, 2]), xp.asarray([2, 2]), dtype=np.int64)
    with pytest.raises(TypeError):
        np.add(x, y, dtype=np.int64)


# --- 5. integer reciprocal and negative integer powers -----------------------------------------

@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64"])
def test_integer_reciprocal_stays_integer(dtype: str) -> None:
    n = np.array([1, 2, 3, 100] + ([-1, -2] if dtype[0] == "i" else []), dtype=dtype)
    got = np.reciprocal(xp.asarray(n))
    assert got.dtype == n.dtype
    np.testing.assert_array_equal(np.asarray(got), np.reciprocal(n))


def test_integer_power_of_a_negative_exponent_raises() -> None:
    n = np.array([1, 2, 3])
    for exponent in (-1, np.array([1, -1, 2])):
        with pytest.raises(ValueError, match="negative integer powers"):
            np.power(n, exponent)
        e = xp.asarray(exponent) if isinstance(exponent, np.ndarray) else exponent
        with pytest.raises(ValueError, match="negative integer powers"):
            np.power(xp.asarray(n), e)
    np.testing.assert_array_equal(np.asarray(np.power(xp.asarray(n), 2)), np.power(n, 2))
    np.testing.assert_allclose(np.asarray(np.power(xp.asarray(n), -1.0)), np.power(n, -1.0))


# --- 6. (ISA levels: test_every_elementwise_function_gives_the_same_bits_at_every_level in
# tests/test_cpu_levels.py)

# --- 7. pad and full of integers with values that do not fit ------------------------------------

@pytest.mark.parametrize("dtype, value, error", [
    ("int64", float("nan"), ValueError), ("int64", float("inf"), OverflowError),
    ("int8", 1e10, OverflowError), ("int8", 300, OverflowError), ("uint8", -1.0, OverflowError),
])
def test_integer_fill_that_does_not_fit_raises(dtype: str, value: float, error: type) -> None:
    x = xp.asarray([1, 2], dtype=getattr(xp, dtype))
    with pytest.raises(error):
        xp.pad(x, 1, constant_values=value)
    with pytest.raises(error):
        xp.full((3,), value, dtype=getattr(xp, dtype))
    if not (dtype == "uint8" and value == -1.0):  # NumPy's pad wraps that one
        with pytest.raises((ValueError, OverflowError)):
            np.pad(np.asarray(x), 1, constant_values=value)


def test_integer_fill_of_a_float_truncates_as_numpy() -> None:
    n = np.array([1, 2], dtype=np.int8)
    np.testing.assert_array_equal(np.asarray(xp.pad(xp.asarray(n), 1, constant_values=2.7)),
                                  np.pad(n, 1, constant_values=2.7))
    np.testing.assert_array_equal(np.asarray(xp.full((2,), -3.9, dtype=xp.int32)),
                                  np.full((2,), -3.9).astype(np.int32))


# --- 8. the buffer of a view too big for its size in bytes --------------------------------------

def test_memoryview_of_a_view_too_big_raises() -> None:
    isolated("""
        import pytest
        big = xp.broadcast_to(xp.asarray(1.0), (2**62,))
        with pytest.raises(BufferError, match="too big"):
            memoryview(big)
        small = xp.broadcast_to(xp.asarray(1.0), (2**59,))
        assert memoryview(small).nbytes == 2**62
    """)


# --- 9. svd's singular vectors as NumPy's -------------------------------------------------------

@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 3)])
@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
@pytest.mark.parametrize("full", [True, False])
def test_svd_gives_numpys_signs(shape: tuple, dtype: str, full: bool) -> None:
    rng = np.random.default_rng(7)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dtype)
    u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=full)
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
    tol = 1e-4 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(np.asarray(s), ns, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(u), nu, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(vh), nvh, rtol=tol, atol=tol)


# --- 10. pad's gather modes without Python lists -----------------------------------------------

@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("n, before, after", [(1, 3, 0), (3, 7, 2), (4, 0, 9), (5, 12, 13)])
def test_pad_modes_match_numpy(mode: str, n: int, before: int, after: int) -> None:
    a = np.arange(2 * n, dtype=np.float64).reshape(2, n)
    got = xp.pad(xp.asarray(a), ((1, 2), (before, after)), mode=mode)
    np.testing.assert_array_equal(np.asarray(got), np.pad(a, ((1, 2), (before, after)), mode))


def test_pad_far_too_wide_raises_memory_error_at_once() -> None:
    r = isolated("""
        import resource, time
        from arrayx._core import storage
        if storage.REUSE:  # not the sanitizer build: ASan cannot start its shadow memory
            # under the limit, and its allocator refuses the 16 TiB without one.
            resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        t = time.perf_counter()
        try:
            xp.pad(xp.asarray([1.0, 2.0]), 2**40, mode="edge")
        except MemoryError:
            print("MemoryError", time.perf_counter() - t)
    """)
    word, seconds = r.stdout.split()
    assert word == "MemoryError" and float(seconds) < 10


# --- 11. lists and tuples as ufunc operands ----------------------------------------------------

def test_lists_as_ufunc_operands_follow_numpy() -> None:
    n = np.array([1, 2, 3], dtype=np.int8)
    x = xp.asarray(n)
    for other in ([1, 2, 3], (1.5, 2, 3)):
        got, want = np.add(x, other), np.add(n, other)
        assert isinstance(got, xp.Array) and got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    y, m = xp.asarray([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0])
    np.add.at(y, [0, 0], 1)
    np.add.at(m, [0, 0], 1)
    np.testing.assert_array_equal(np.asarray(y), m)
    got = np.add.reduceat(xp.asarray([1, 2, 3, 4]), [0, 2])
    np.testing.assert_array_equal(np.asarray(got), np.add.reduceat(np.array([1, 2, 3, 4]), [0, 2]))
    np.testing.assert_array_equal(np.asarray(np.add.reduce(xp.asarray(n), dtype=np.int64)),
                                  np.add.reduce(n, dtype=np.int64))


# --- 12. where's message; data_dependent_shapes by every route ---------------------------------

def test_where_with_one_value_names_the_signature() -> None:
    c = xp.asarray([True, False])
    for args in ((xp.asarray([1, 2]), None), (None, xp.asarray([1, 2]))):
        with pytest.raises(TypeError, match=r"where\(condition, x1, x2\)"):
            xp.where(c, *args)


@pytest.fixture
def no_data_dependent_shapes():
    xp.set_strict_flags(data_dependent_shapes=False)
    yield
    xp.reset_strict_flags()


@pytest.mark.parametrize("call", [
    lambda x: xp.repeat(x, xp.asarray([1, 2, 0])),
    lambda x: xp.where(x > 1),
    lambda x: np.nonzero(x),
    lambda x: x.nonzero(),
    lambda x: np.unique(x),
    lambda x: np.flatnonzero(x),
    lambda x: np.argwhere(x),
    lambda x: np.repeat(x, xp.asarray([1, 2, 0])),
    lambda x: np.where(x > 1),
    lambda x: xp.unique_values(x),
])
def test_data_dependent_shapes_flag_is_kept_by_every_route(no_data_dependent_shapes,
                                                           call) -> None:
    with pytest.raises(TypeError, match="data_dependent_shapes"):
        call(xp.asarray([1, 2, 3]))


def test_fixed_shape_repeat_stays_allowed(no_data_dependent_shapes) -> None:
    np.testing.assert_array_equal(np.asarray(xp.repeat(xp.asarray([1, 2]), 2)), [1, 1, 2, 2])


# --- 13. the thread count from the environment; reduce of 0-d; ddof past n ----------------------

@pytest.mark.parametrize("value", ["0", "-3", "1025", "100000"])
def test_num_threads_from_the_environment_out_of_range_is_an_error(value: str) -> None:
    env = {**os.environ, "ARRAYX_NUM_THREADS": value}
    r = isolated("", env=env)
    assert r.returncode != 0
    assert "ARRAYX_NUM_THREADS must be from 1 to 1024" in r.stderr


def test_num_threads_from_the_environment_in_range_is_taken() -> None:
    r = isolated("print(xp.get_num_threads())", env={**os.environ, "ARRAYX_NUM_THREADS": "3"})
    assert r.returncode == 0 and r.stdout.strip() == "3"


@pytest.mark.parametrize("ufunc", [np.add, np.multiply, np.maximum, np.minimum])
@pytest.mark.parametrize("axis", [0, -1, None, ()])
def test_reduce_of_a_0d_array_as_numpy(ufunc, axis) -> None:
    n = np.array(5.0)
    got = ufunc.reduce(xp.asarray(n), axis=axis)
    assert float(got) == float(ufunc.reduce(n, axis=axis))
    with pytest.raises(IndexError):  # an AxisError, as NumPy's
        ufunc.reduce(xp.asarray(n), axis=1)


@pytest.mark.parametrize("func", [np.std, np.var])
@pytest.mark.parametrize("values, ddof", [([1.0, 2.0], 3), ([1.0, 2.0], 2), ([1.0, 1.0], 3),
                                          ([3.0], 1), ([1.0, 2.0, 4.0], 1)])
def test_std_and_var_with_ddof_past_n_as_numpy(func, values: list, ddof: int) -> None:
    n = np.array(values)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = func(n, ddof=ddof)
    np.testing.assert_array_equal(np.asarray(func(xp.asarray(n), ddof=ddof)), want)
    m = np.array([values, values])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = func(m, axis=1, ddof=ddof)
    np.testing.assert_array_equal(np.asarray(func(xp.asarray(m), axis=1, ddof=ddof)), want)


def test_pickle_round_trip_still_works() -> None:
    x = xp.reshape(xp.arange(6.0), (2, 3))
    np.testing.assert_array_equal(np.asarray(pickle.loads(pickle.dumps(x))), np.asarray(x))


def test_running_sum_and_product_in_bool_are_or_and_instead_of_crashing() -> None:
    # Once a NULL kernel; now NumPy's running logical or and and (add and multiply of bools).
    isolated("""
        n = np.array([[0, 3, 0, 0, 1, 0], [2, 2, 0, 1, 1, 1]], dtype=np.uint8)
        x = xp.asarray(n)
        for f, g in ((xp.cumulative_sum, np.cumsum), (xp.cumulative_prod, np.cumprod)):
            for a, m in ((x, n), (xp.astype(x, xp.bool), n.astype(bool))):
                for axis in (0, 1):
                    got = np.asarray(f(a, axis=axis, dtype=xp.bool))
                    np.testing.assert_array_equal(got, g(m, axis=axis, dtype=bool))
                    assert got.dtype == bool and got.view(np.uint8).max() <= 1
        x = xp.asarray(np.array([3, 0], dtype=np.uint8))
        got = np.multiply.accumulate(x, dtype=bool)  # NumPy's meaning, through the fallback
        want = np.multiply.accumulate(np.array([3, 0], np.uint8), dtype=bool)
        np.testing.assert_array_equal(np.asarray(got), want)
    """)


# --- what the fuzzers found at 10^5 cases (NumPy 2.4.6's own faults beside arrayx's calls) ----

def test_comparison_dtype_bool_does_not_depend_on_earlier_reductions() -> None:
    # A comparison's reduction with dtype= leaves its loop in NumPy's dispatch cache under the
    # key of a call, so np.less(bool, int64, dtype=bool) then raises in NumPy itself; arrayx
    # answers as NumPy does in a fresh interpreter, whatever ran before.
    code = """
        b, i = np.array([True, False, True]), np.array([-3, 0, 4])
        for ufunc in (np.less, np.equal):
            for x in (i, xp.asarray(i), xp.asarray(i.astype(np.uint8))):
                try:
                    ufunc.accumulate(x, dtype=bool)
                except TypeError:
                    pass
        print([np.asarray(u(xp.asarray(b), y, dtype=bool)).tolist()
               for u in (np.less, np.equal) for y in (xp.asarray(i), i)])
    """
    got = isolated(code).stdout
    fresh = isolated("""
        b, i = np.array([True, False, True]), np.array([-3, 0, 4])
        print([u(b, i, dtype=bool).tolist() for u in (np.less, np.equal) for _ in range(2)])
    """).stdout
    assert got == fresh


def test_comparison_with_an_int_beyond_the_dtype_under_where() -> None:
    # NumPy segfaults on np.equal(uint8_array, -2, where=mask) (its loop for Python ints out
    # of the dtype's range ignores the mask). arrayx compares as NumPy does without where=
    # (every element gets the same answer) and keeps the mask; in strict mode, where NumPy
    # computes, the int is refused before NumPy sees it.
    isolated("""
        import pytest
        from arrayx import _strict
        x = xp.asarray(np.array([0, 3], dtype=np.uint8))
        wide = np.array([0, 3], dtype=np.int64)
        mask = np.array([False, True])
        for ufunc in (np.equal, np.less):
            for value in (-2, 300):
                for ops, wide_ops in (((x, value), (wide, value)), ((value, x), (value, wide))):
                    assert np.asarray(ufunc(*ops)).tolist() == ufunc(*wide_ops).tolist()
                    out, want = xp.zeros(2, dtype=xp.int8), np.zeros(2, dtype=np.int8)
                    ufunc(*ops, where=mask, out=out)
                    ufunc(*wide_ops, where=mask, out=want)
                    assert np.asarray(out).tolist() == want.tolist()
                    _strict.set_strict_flags(strict=True)
                    try:
                        with pytest.raises(OverflowError):
                            ufunc(*ops, where=mask)
                    finally:
                        _strict.set_strict_flags(strict=False)
    """)


def test_key_of_126_nones_and_a_3d_mask_raises_index_error() -> None:
    # NumPy segfaults on this key (its table of 2 * 64 + 1 index entries overruns); over 64
    # result dimensions, its answer elsewhere is IndexError, and arrayx's here.
    isolated("""
        import pytest
        x = xp.reshape(xp.arange(8, dtype=xp.uint16), (1, 1, 4, 2))[::-1]
        mask = xp.asarray(np.ones((3, 3, 2), dtype=bool))
        for key in [(None,) * 66 + (mask,) + (None,) * 60, (None,) * 65 + (mask,)]:
            with pytest.raises(IndexError):
                x[key]
        with pytest.raises(IndexError):
            np.zeros((1, 1, 4, 2))[(None,) * 65 + (np.ones((3, 3, 2), dtype=bool),)]
    """)

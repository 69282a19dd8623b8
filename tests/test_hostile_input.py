"""Inputs that used to crash the interpreter, corrupt memory or give a silently wrong result.

Each reproducer runs in a child interpreter (``isolated``), so a crash fails its test instead of
killing pytest; the child compares arrayx with NumPy (values or exception type) itself.
"""

from __future__ import annotations

import math
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import arrayx as xp


def isolated(code: str) -> None:
    """Run ``code`` (with ``np`` and ``xp`` imported) in a child interpreter; fail on any error,
    naming a signal when the child died of one."""
    src = "import numpy as np\nimport arrayx as xp\n" + textwrap.dedent(code)
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=120)
    if r.returncode < 0:
        pytest.fail(f"the interpreter died of signal {-r.returncode}:\n{r.stderr[-2000:]}")
    assert r.returncode == 0, r.stderr[-2000:]


# --- 1. more than 64 dimensions --------------------------------------------------------------

def test_new_axes_past_64_dimensions_raise_index_error() -> None:
    isolated("""
        import pytest
        a = xp.reshape(xp.zeros(1), (1,) * 64)
        n = np.zeros((1,) * 64)
        for key in [(None, None, ...), (..., None), (None,) * 65, (0, None, None, ...)]:
            with pytest.raises(IndexError):
                n[key]
            with pytest.raises(IndexError):
                a[key]
            with pytest.raises(IndexError):
                a[key] = 1.0
        assert a[(0,) + (None,) + (...,)].shape == n[(0,) + (None,) + (...,)].shape
    """)


def test_advanced_index_past_64_dimensions_raises_index_error() -> None:
    isolated("""
        import pytest
        key = (xp.zeros((1,) * 64, dtype=xp.int64),) + (None,) * 5
        with pytest.raises(IndexError):
            np.zeros(2)[(np.zeros((1,) * 64, dtype=np.int64),) + (None,) * 5]
        with pytest.raises(IndexError):
            xp.zeros(2)[key]
        with pytest.raises(IndexError):
            xp.zeros(2)[key] = 1.0
    """)


def test_meshgrid_of_more_than_64_arrays_raises_value_error() -> None:
    isolated("""
        import pytest
        with pytest.raises(ValueError):
            np.meshgrid(*[np.ones(1)] * 80)
        with pytest.raises(ValueError):
            xp.meshgrid(*[xp.ones(1)] * 80)
        assert len(xp.meshgrid(*[xp.ones(1)] * 64)) == 64
    """)


@pytest.mark.parametrize("shape", [(1,) * 100, (1,) * 65, (-1,), (2, -3), ("a",), (2.5,)])
def test_unpickling_a_bad_shape_raises(shape: tuple) -> None:
    isolated(f"""
        import pickle, pytest
        fn, (data, _, dtype) = xp.zeros(1).__reduce__()
        payload = pickle.dumps((fn, (data, {shape!r}, dtype)))
        f, args = pickle.loads(payload)
        with pytest.raises((ValueError, TypeError)):
            f(*args)
    """)


@pytest.mark.parametrize(("data", "shape", "dtype"), [
    (b"\0" * 8, (2,), "<f8"), (b"\0" * 24, (2,), "<f8"), (b"", (2**62, 4), "<f8"),
    (b"\0" * 8, (1,), "|O"), (b"\0" * 8, (1,), "<U2"), (b"\0" * 8, (1,), "nonsense"),
])
def test_unpickling_data_that_does_not_match_raises(data: bytes, shape: tuple,
                                                    dtype: str) -> None:
    fn, _ = xp.zeros(1).__reduce__()
    with pytest.raises((ValueError, TypeError)):
        fn(data, shape, dtype)


@pytest.mark.parametrize("x", [np.arange(6.0).reshape(2, 3), np.zeros((0, 3), np.int8),
                               np.array(True), np.arange(24).reshape(2, 3, 4)[:, ::-1].T])
def test_pickle_round_trip(x: np.ndarray) -> None:
    a = pickle.loads(pickle.dumps(xp.asarray(x)))
    assert a.dtype == x.dtype
    np.testing.assert_array_equal(np.asarray(a), x)


# --- 2. DLPack arguments ---------------------------------------------------------------------

@pytest.mark.parametrize("max_version", [(), (1,), (1, 0, 0), "10", [1, 0], (1.0, 0), 1])
def test_dlpack_max_version_of_wrong_form_raises_type_error(max_version: object) -> None:
    isolated(f"""
        import pytest
        with pytest.raises(TypeError):
            np.zeros(2).__dlpack__(max_version={max_version!r})
        with pytest.raises(TypeError):
            xp.zeros(2).__dlpack__(max_version={max_version!r})
    """)


@pytest.mark.parametrize("dl_device", [(), (1,), "cpu", (1, 0, 0), 1])
def test_dlpack_device_of_wrong_form_raises_type_error(dl_device: object) -> None:
    with pytest.raises(TypeError):
        xp.zeros(2).__dlpack__(dl_device=dl_device)


def test_dlpack_export_holds_and_releases_one_reference() -> None:
    a = xp.zeros(3)
    before = sys.getrefcount(a)
    capsule = a.__dlpack__(max_version=(1, 0))
    assert sys.getrefcount(a) == before + 1
    del capsule
    assert sys.getrefcount(a) == before


# --- 3. asarray of sequences whose len() lies --------------------------------------------------

def test_asarray_reads_sequences_through_their_iterators_as_numpy() -> None:
    isolated("""
        class More(list):
            def __iter__(self):
                return iter([1.0, 2.0, 3.0, 4.0, 5.0] * 1000)

        class Fewer(list):
            def __iter__(self):
                return iter([])

        class NoLength(tuple):
            def __len__(self):
                return 0

        class LongLength(tuple):
            def __len__(self):
                return 10**6

        class Nested(list):
            def __iter__(self):
                return iter([[1, 2], [3, 4]])

        cases = [More([1.0, 2.0]), Fewer([1.0] * 100), NoLength((1.0, 2.0, 3.0)),
                 LongLength((1.0, 2.0, 3.0)), [More([0.0]), More([0.0])], Nested([9]),
                 [NoLength((1, 2)), (3, 4)]]
        for obj in cases:
            want = np.asarray(obj)
            got = xp.asarray(obj)
            assert got.shape == want.shape, (got.shape, want.shape)
            np.testing.assert_array_equal(np.asarray(got), want)
    """)


def test_asarray_of_sequences_changed_while_read_raises() -> None:
    isolated("""
        import pytest

        class Shrinks:
            # A NumPy-like scalar whose conversion empties the list that holds it.
            dtype = np.dtype("float64")
            shape = ()

            def __init__(self, victim):
                self.victim = victim

            def item(self):
                self.victim.clear()
                return 1.0

        outer = [1.0, 2.0, 3.0]
        outer.insert(1, Shrinks(outer))
        with pytest.raises(ValueError):
            xp.asarray(outer)

        rows = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
        rows[0][1] = Shrinks(rows[2])
        with pytest.raises(ValueError):
            xp.asarray(rows)
    """)


def test_asarray_of_self_containing_list_raises() -> None:
    a: list = []
    a.append(a)
    with pytest.raises(ValueError):
        xp.asarray(a)


def test_asarray_of_object_with_foreign_dtype_attribute_raises_type_error() -> None:
    class StrDtype:
        dtype = "float64"
        shape = ()

    class NoKind:
        dtype = object()
        shape = ()

    class NoItem:
        dtype = np.dtype("float64")
        shape = ()

    for obj in (StrDtype(), NoKind(), NoItem()):
        with pytest.raises(TypeError):
            xp.asarray([obj])


# --- 4. out-of-range indices in an empty advanced selection ----------------------------------

@pytest.mark.parametrize("key", [
    (5, False), (-4, False), (False, 5), (np.zeros(0, np.int64), 10), (0, np.zeros(0, np.int64), 9),
    ([], 7), (slice(None), np.zeros(0, np.int64), 3), (np.zeros(0, bool), 10),
])
def test_out_of_range_index_in_an_empty_selection_raises(key: tuple) -> None:
    n = np.zeros((3, 4, 2))
    with pytest.raises(IndexError):
        n[key]
    a = xp.zeros((3, 4, 2))
    akey = tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
    with pytest.raises(IndexError):
        a[akey]
    with pytest.raises(IndexError):
        a[akey] = 1.0


@pytest.mark.parametrize("key", [(1, False), (np.zeros(0, np.int64), 2), (-3, False)])
def test_in_range_index_in_an_empty_selection_is_empty(key: tuple) -> None:
    n = np.zeros((3, 4))
    a = xp.zeros((3, 4))
    akey = tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
    assert a[akey].shape == n[key].shape
    a[akey] = 1.0
    assert float(xp.sum(a)) == 0.0


# --- 5. bool memory holding bytes other than 0 and 1 ---------------------------------------------

def _odd_bools() -> tuple[np.ndarray, xp.Array]:
    raw = np.array([2, 0, 1, 255, 0, 128, 7, 1], np.uint8)
    n = raw.view(np.bool_)
    return n, xp.asarray(n)


@pytest.mark.parametrize("op", [
    lambda m, x: x == True,  # noqa: E712
    lambda m, x: x != False,  # noqa: E712
    lambda m, x: m.logical_not(x), lambda m, x: m.logical_and(x, x),
    lambda m, x: m.logical_or(x, x[::-1]), lambda m, x: m.logical_xor(x, x),
    lambda m, x: x == x[::-1], lambda m, x: ~x, lambda m, x: x & x[::-1], lambda m, x: x ^ x,
    lambda m, x: x | x, lambda m, x: m.astype(x, m.int8), lambda m, x: m.astype(x, m.float64),
    lambda m, x: m.astype(x, m.complex64), lambda m, x: m.astype(x, m.uint64),
    lambda m, x: m.where(x, m.asarray(1.0), m.asarray(0.0)), lambda m, x: m.any(x),
    lambda m, x: m.all(x), lambda m, x: m.all(x[[0, 3, 5]]),
    lambda m, x: m.any(m.reshape(x, (2, 4)), axis=1),
    lambda m, x: m.all(m.reshape(x, (2, 4)), axis=0),
    lambda m, x: m.sum(m.astype(x, m.int64)), lambda m, x: m.count_nonzero(x),
    lambda m, x: m.matmul(m.reshape(x, (2, 4)), m.reshape(x, (4, 2))),
    lambda m, x: m.sort(x), lambda m, x: m.argsort(x, stable=True),
    lambda m, x: m.unique_values(x), lambda m, x: m.nonzero(x)[0],
])
def test_any_nonzero_bool_byte_is_true(op) -> None:
    # The oracle is NumPy on the same truth values held as canonical bytes (NumPy's own sort
    # orders raw bytes, so it does not follow the rule everywhere).
    n, a = _odd_bools()
    want = np.asarray(op(np, n.view(np.uint8) != 0))
    got = np.asarray(op(xp, a))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.astype(want.dtype), want)
    if got.dtype == np.bool_:
        assert set(got.view(np.uint8).ravel().tolist()) <= {0, 1}


def test_bool_mask_of_odd_bytes_selects_every_nonzero_byte() -> None:
    n, a = _odd_bools()
    want = np.arange(8)[n.view(np.uint8) != 0]
    np.testing.assert_array_equal(np.asarray(xp.arange(8)[a]), want)
    assert np.asarray(a[a]).view(np.uint8).all()


# --- 6. exception types ----------------------------------------------------------------------

@pytest.mark.parametrize("key", [10**30, -(10**30), [2**63], [2**64], (0, 10**30), [10**30]])
def test_huge_integer_index_raises_index_error(key: object) -> None:
    n = np.zeros((3, 3))
    with pytest.raises(IndexError):
        n[key]
    a = xp.zeros((3, 3))
    with pytest.raises(IndexError):
        a[key]
    with pytest.raises(IndexError):
        a[key] = 1.0


def test_uint64_index_beyond_int64_is_not_wrapped_to_a_negative_index() -> None:
    # NumPy casts such an index to intp and reads x[-1]; arrayx refuses it.
    idx = np.array([2**64 - 1], np.uint64)
    a = xp.arange(3.0)
    with pytest.raises(IndexError):
        a[xp.asarray(idx)]
    with pytest.raises(IndexError):
        xp.take(a, xp.asarray(idx))
    with pytest.raises(IndexError):
        a[xp.asarray(idx)] = 1.0
    np.testing.assert_array_equal(np.asarray(a[xp.asarray(np.array([2], np.uint64))]), [2.0])


# --- 7. complex power -------------------------------------------------------------------------

def test_complex_power_follows_numpy() -> None:
    inf, nan = float("inf"), float("nan")
    bases = [0j, -0j, 1 + 0j, 1 + 1j, complex(1, inf), complex(inf, 0), complex(nan, 0), 2j,
             -1.5 + 0.5j, 1e-300 + 0j]
    exps = [0j, 1 + 0j, 2 + 0j, 3 + 0j, -1 + 0j, -3 + 0j, 7 + 0j, 0.5 + 0j, 1j, 99 + 0j, -99 + 0j,
            100 + 0j, complex(nan, 0)]
    b = np.array([x for x in bases for _ in exps], np.complex128)
    e = np.array([y for _ in bases for y in exps], np.complex128)
    with np.errstate(all="ignore"):
        want = b**e
    got = np.asarray(xp.asarray(b) ** xp.asarray(e))
    np.testing.assert_allclose(got, want, rtol=1e-13, equal_nan=True)
    assert complex(xp.asarray(0j) ** 0) == 1 + 0j
    assert complex(xp.asarray(complex(1, inf)) ** 1) == complex(1, inf)
    with np.errstate(all="ignore"):
        want32 = b.astype(np.complex64) ** e.astype(np.complex64)
    got32 = np.asarray(xp.asarray(b, dtype=xp.complex64) ** xp.asarray(e, dtype=xp.complex64))
    np.testing.assert_allclose(got32, want32, rtol=1e-5, equal_nan=True)


def test_pow_with_a_modulus_raises_type_error() -> None:
    with pytest.raises(TypeError):
        pow(xp.asarray(2), 3, 5)
    with pytest.raises(TypeError):
        xp.asarray(2).__rpow__(3, 5)


# --- 8. integer overflow wraps as NumPy's ------------------------------------------------------

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_arithmetic_wraps_as_numpy(dtype: str) -> None:
    info = np.iinfo(dtype)
    vals = np.array([info.min, info.min + 1, -1 if info.min else 0, 0, 1, info.max - 1, info.max,
                     info.max // 3], dtype)
    x, y = np.meshgrid(vals, vals)
    x, y = x.ravel(), y.ravel()
    ax_, ay = xp.asarray(x), xp.asarray(y)
    with np.errstate(all="ignore"):
        for name in ("add", "subtract", "multiply"):
            np.testing.assert_array_equal(np.asarray(getattr(xp, name)(ax_, ay)),
                                          getattr(np, name)(x, y), err_msg=name)
        np.testing.assert_array_equal(np.asarray(xp.abs(ax_)), np.abs(x))
        np.testing.assert_array_equal(np.asarray(-ax_), -x)
        np.testing.assert_array_equal(np.asarray(xp.square(ax_)), np.square(x))
        small = np.array([0, 1, 2, 3, 7, 15, 16, 31, 63], dtype)
        np.testing.assert_array_equal(np.asarray(xp.pow(ax_[:, None], xp.asarray(small))),
                                      np.power(x[:, None], small))
        big = np.full(1000, info.max, dtype)
        for fn in ("sum", "prod"):
            np.testing.assert_array_equal(
                np.asarray(getattr(xp, fn)(xp.asarray(big), dtype=xp.asarray(big).dtype)),
                getattr(np, fn)(big, dtype=big.dtype), err_msg=fn)
        np.testing.assert_array_equal(np.asarray(xp.cumulative_sum(xp.asarray(big),
                                                                   dtype=xp.asarray(big).dtype)),
                                      np.cumsum(big, dtype=big.dtype))


def test_take_of_complex128_from_8_byte_aligned_memory() -> None:
    raw = np.zeros(2 * 50 + 1, np.float64)
    view = raw[1:].view(np.complex128)  # 8-byte aligned, not 16
    view[:] = np.arange(50) + 1j * np.arange(50)
    assert view.ctypes.data % 16 == 8
    idx = np.array([3, 0, 49, 7, 7], np.int64)
    got = xp.take(xp.asarray(view), xp.asarray(idx))
    np.testing.assert_array_equal(np.asarray(got), view[idx])
    got2 = xp.asarray(view)[xp.asarray(idx)]
    np.testing.assert_array_equal(np.asarray(got2), view[idx])


@pytest.mark.parametrize("step", [2**62, 2**63 - 1, -(2**62), -(2**63 - 1), -(2**63)])
def test_huge_slice_steps(step: int) -> None:
    n = np.arange(100.0).reshape(10, 10)
    a = xp.asarray(n)
    for key in [(slice(None, None, step),), (slice(None), slice(None, None, step)),
                (slice(None, None, step), slice(None, None, -step if -step < 2**63 else 1))]:
        want = n[key]
        got = a[key]
        assert got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)


# --- found by the audit ----------------------------------------------------------------------

@pytest.mark.parametrize("n", [4, 5, 6, 10**12])
def test_diff_with_a_huge_n_ends_at_once(n: int) -> None:
    x = np.arange(5) ** 2
    want = np.diff(x, n=min(n, 10))
    got = xp.diff(xp.asarray(x), n=n)
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)


def test_shape_given_as_a_tuple_subclass_whose_len_lies() -> None:
    class NoLength(tuple):
        def __len__(self) -> int:
            return 0

    for fn in (xp.zeros, xp.ones, xp.empty):
        assert fn(NoLength((2, 3))).shape == np.zeros(NoLength((2, 3))).shape


@pytest.mark.parametrize("n", [0, 1, 16, 100])
def test_axes_given_as_a_list_whose_len_lies(n: int) -> None:
    isolated(f"""
        class L(list):
            def __init__(s, it, n): super().__init__(it); s.n = n
            def __len__(s): return s.n
        x = xp.asarray(np.arange(20.0).reshape(4, 5))
        r = xp.expand_dims(x, axis=L([0, 1], {n}))
        assert r.shape == (1, 1, 4, 5), r.shape
        assert xp.reshape(r, (20,)).shape == (20,)
        assert xp.permute_dims(x, L([1, 0], {n})).shape == (5, 4)
        assert xp.squeeze(r, axis=L([0, 1], {n})).shape == (4, 5)
    """)


def test_uint64_index_changed_by_a_later_key_item_is_not_read() -> None:
    a = xp.asarray(np.arange(6.0).reshape(2, 3))
    idx = xp.asarray(np.array([1], np.uint64))

    class Rewrites(list):
        def __len__(self) -> int:
            idx[0] = 2**64 - 1
            return list.__len__(self)

    # The index is checked and copied before the list runs; the copy is what is read.
    np.testing.assert_array_equal(np.asarray(a[idx, Rewrites([0])]), [3.0])


def test_asarray_leaf_widened_while_read_raises() -> None:
    class Kind:
        kind = "i"

    outer: list = []

    class Widens:
        dtype = Kind()
        shape = ()

        def item(self) -> int:
            outer[1] = 2.5
            return 1

    outer.extend([Widens(), 7])
    with pytest.raises(ValueError):
        xp.asarray(outer)


def test_zero_to_a_complex_power_with_positive_real_part_is_zero() -> None:
    a = np.array([0j, -0j, 0j, 0j, 0j])
    b = np.array([1 + 1j, 2 - 3j, 0.5 + 1e-300j, -1 + 1j, 1j])
    for dt in ("complex64", "complex128"):
        with np.errstate(all="ignore"):
            want = np.power(a.astype(dt), b.astype(dt))
        got = np.asarray(xp.asarray(a, dtype=dt) ** xp.asarray(b, dtype=dt))
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fn", ["any", "all"])
@pytest.mark.parametrize("n", [1, 7, 64, 1000, 4099])
def test_any_all_of_contiguous_odd_bool_bytes(fn: str, n: int) -> None:
    rng = np.random.default_rng(n)
    raw = rng.integers(0, 4, n).astype(np.uint8) * rng.integers(0, 200, n).astype(np.uint8)
    for mem in (raw, np.zeros(n, np.uint8), np.full(n, 3, np.uint8)):
        got = getattr(xp, fn)(xp.asarray(mem.view(np.bool_)))
        want = getattr(np, fn)(mem != 0)
        assert bool(got) == bool(want)
        assert np.asarray(got).view(np.uint8).item() in (0, 1)


@pytest.mark.parametrize("key", [(None, [], Ellipsis, [1]), ([0], Ellipsis, [1]),
                                 (0, Ellipsis, [1]), ([1], Ellipsis, 2)])
def test_an_empty_ellipsis_separates_advanced_indices(key: tuple) -> None:
    # NumPy moves the advanced axes first when anything stands between the advanced items of
    # the key, an ellipsis that covers no axis included.
    for shape in [(2, 3), (0, 0), (2, 3, 4)]:
        n = np.arange(math.prod(shape), dtype=np.float64).reshape(shape)
        want_state = "ok"
        try:
            want = n[key]
        except IndexError:
            want_state = "raise"
        if want_state == "raise":
            with pytest.raises(IndexError):
                xp.asarray(n)[key]
            continue
        got = np.asarray(xp.asarray(n)[key])
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("src", ["float32", "float64"])
@pytest.mark.parametrize("dst", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                 "uint64"])
def test_float_to_int_casts_out_of_range_as_numpy_on_x86(src: str, dst: str) -> None:
    # C++ leaves these conversions undefined, and AVX-512 has instructions that answer them
    # otherwise; arrayx gives NumPy's x86-64 answers at every ISA level (CI runs each level).
    vals = [-2.0, -1.5, -0.5, 0.5, 3.9, 300.7, -300.2, 70000.0, -70000.0, 2.0**31, -2.0**31 - 7,
            2.0**32 + 5, -2.0**40, 2.0**63, 2.0**63 + 2.0**12, 2.0**64, 1e30, -1e30, np.inf,
            -np.inf]
    if dst != "uint32":
        vals.append(np.nan)  # NumPy's uint32 of NaN is 0 or 2^31, as the length of the array
        # picks its loop
    a = np.array(vals, dtype=src)
    with np.errstate(all="ignore"):
        want = a.astype(dst)
    np.testing.assert_array_equal(np.asarray(xp.astype(xp.asarray(a), getattr(xp, dst))), want)

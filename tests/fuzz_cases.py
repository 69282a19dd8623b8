"""Fuzzers: hostile inputs drawn by hypothesis, each case compared with NumPy.

Run by ``tests/test_fuzz.py`` in a child interpreter, so that a crash fails a test instead of
killing pytest: ``python tests/fuzz_cases.py NAME EXAMPLES LOG``. Before each case the child
writes the case to ``LOG``, so the case that crashed it can be named. Every case either gives
NumPy's values or raises a clean exception (``TypeError``, ``ValueError``, ``IndexError``, and
``OverflowError``/``MemoryError``/``BufferError`` where NumPy's own contract has them).
"""

from __future__ import annotations

import ctypes
import math
import pickle
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arrayx as xp

CLEAN = (TypeError, ValueError, IndexError, OverflowError)
LOG: list[str] = []


def record(case: object) -> None:
    """Write ``case`` to the log before it runs (the log names the case that crashed)."""
    if LOG:
        with open(LOG[0], "w") as f:
            f.write(repr(case)[:20000])
            f.flush()


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """``("ok", value)`` or ``("raise", exception type)`` of ``fn()``."""
    try:
        return "ok", fn()
    except Exception as exc:  # noqa: BLE001 - the type is the outcome
        return "raise", type(exc)


def same(got: Any, want: np.ndarray) -> None:
    """``got`` (an arrayx array) holds ``want``'s shape, dtype and values."""
    g = np.asarray(got)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want)


# --- 1. index expressions, get and set --------------------------------------------------------

DTYPES = ["float64", "int32", "bool", "complex128", "int8", "uint16"]
HUGE = [2**31, 2**63 - 1, 2**63, 2**64, -(2**63), -(2**63) - 1, 10**30, -(10**30)]


def _view(m: Any, arr: Any, how: str, lead: int) -> Any:
    """The view ``how`` of ``arr`` in namespace ``m`` (NumPy or arrayx)."""
    if how == "transposed" and arr.ndim >= 2:
        return np.swapaxes(arr, -1, -2) if m is np else arr.mT
    if how == "reversed" and arr.ndim >= 1:
        return arr[::-1]
    if how == "stepped" and arr.ndim >= 1:
        return arr[..., ::2]
    if how == "broadcast":
        return m.broadcast_to(arr, (lead,) + tuple(arr.shape))
    return arr


@st.composite
def layouts(draw: st.DrawFn) -> tuple[np.ndarray, Any, str, Callable]:
    """A NumPy array and the same view made in arrayx (0-d, empty, transposed, reversed,
    stepped or broadcast), and a function making the pair afresh over new copies of the
    base (for writes)."""
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=4)))
    dtype = draw(st.sampled_from(DTYPES))
    base = (np.arange(math.prod(shape)) % 7 - 3).astype(dtype).reshape(shape)
    how = draw(st.sampled_from(["plain", "transposed", "reversed", "stepped", "broadcast"]))
    lead = draw(st.integers(0, 3))

    def fresh() -> tuple[np.ndarray, Any, np.ndarray, Any]:
        nb = base.copy()
        ab = xp.asarray(nb, copy=True)
        return nb, ab, _view(np, nb, how, lead), _view(xp, ab, how, lead)

    _, _, n, a = fresh()
    return n, a, how, fresh


def _int_arrays(ndim: int) -> st.SearchStrategy:
    return st.builds(
        lambda shape, vals, dt: np.resize(np.array(vals or [0]).astype(dt), shape),
        st.lists(st.integers(0, 3), max_size=2).map(tuple),
        st.lists(st.integers(-6, 6), max_size=6),
        st.sampled_from(["int64", "int32", "uint8", "int8", "uint64"]),
    )


def _bool_arrays() -> st.SearchStrategy:
    return st.builds(lambda shape, bits: np.resize(np.array(bits or [True]), shape),
                     st.lists(st.integers(0, 4), max_size=3).map(tuple),
                     st.lists(st.booleans(), max_size=8))


ITEMS = st.one_of(
    st.integers(-6, 6), st.sampled_from(HUGE), st.none(), st.just(Ellipsis), st.booleans(),
    st.builds(slice, st.none() | st.integers(-6, 6) | st.sampled_from(HUGE),
              st.none() | st.integers(-6, 6) | st.sampled_from(HUGE),
              st.none() | st.integers(-3, 3) | st.sampled_from(HUGE)),
    st.lists(st.integers(-6, 6), max_size=4), st.lists(st.booleans(), max_size=4),
    _int_arrays(1), _bool_arrays(), st.sampled_from([1.5, "a", (1,), [1.5]]),
    st.integers(60, 70).map(lambda k: (None,) * k),
)


def _flatten(items: list) -> tuple:
    out: list = []
    for k in items:
        if isinstance(k, tuple) and all(v is None for v in k):
            out.extend(k)
        else:
            out.append(k)
    return tuple(out)


def _ax_key(key: tuple) -> tuple:
    return tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in key)


def _numpy_index(fn: Callable[[], Any]) -> tuple[str, Any]:
    """``outcome(fn)`` of a NumPy indexing call, with NumPy's announced future: before 2.3 it
    ignores an out-of-bounds index when the result has no elements (a DeprecationWarning
    saying the IndexError will come); arrayx raises it, as NumPy 2.3 and later do."""
    with warnings.catch_warnings():
        warnings.filterwarnings("error", "Out of bound index", DeprecationWarning)
        state, got = outcome(fn)
    return (state, IndexError) if state == "raise" and got is DeprecationWarning else (state, got)


def _expected_getitem(n: np.ndarray, key: tuple) -> tuple[str, Any]:
    if sum(k is None for k in key) > 64:
        # Each None adds an axis, so NumPy's answer is an IndexError (over 64 dimensions); it
        # is not asked, because NumPy 2.4 segfaults on some such keys itself: 126 Nones and a
        # 3-d bool mask overrun its table of 2 * 64 + 1 index entries.
        return "raise", IndexError
    state, want = _numpy_index(lambda: n[key])
    if state == "ok" and want.dtype.kind == "O":
        return "raise", TypeError
    return state, want


# Where arrayx deliberately differs from NumPy (each one stricter, never a different value):
# - a uint64 index above 2**63 - 1 is an IndexError (NumPy casts it to intp and wraps);
# - an index that is not an int, slice, None, ..., bool or integer/bool array (a float, a
#   string, a tuple inside the key) is an IndexError where NumPy may say TypeError or
#   ValueError, and so is an integer beyond int64 (NumPy: OverflowError at times);
# - more than 64 result dimensions is an IndexError (NumPy: IndexError or ValueError).
def _index_exceptions_agree(got: type, want: type, key: tuple) -> bool:
    if got is want or (got is IndexError and want in (TypeError, ValueError, OverflowError)):
        return True
    # A key with several faults: NumPy and arrayx may meet a different one first.
    zero_step = any(isinstance(k, slice) and k.step == 0 for k in key)
    return got is ValueError and zero_step


def _has_huge_uint64(key: tuple) -> bool:
    return any(isinstance(k, np.ndarray) and k.dtype == np.uint64 and k.size
               and int(k.max()) > 2**63 - 1 for k in key)


@given(layouts(), st.lists(ITEMS, max_size=6), st.data())
def fuzz_index(layout: tuple, items: list, data: st.DataObject) -> None:
    n, a, how, fresh = layout
    key = _flatten(items)
    record((n.shape, n.dtype, how, key))
    akey = _ax_key(key)
    want_state, want = _expected_getitem(n, key)
    got_state, got = outcome(lambda: a[akey])
    if _has_huge_uint64(key):
        assert got_state == "raise" and got in CLEAN, (got_state, got)
        return
    if want_state == "raise":
        assert got_state == "raise", f"NumPy raised {want.__name__}, arrayx returned"
        assert _index_exceptions_agree(got, want, key), (got, want)
        return
    if got_state == "raise" and got is IndexError and (
            _intermediate_ndim(n, key) > 64 or any(type(k) is tuple for k in key)):
        return  # a key whose intermediate view passes 64 dimensions, or a tuple inside a key
    assert got_state == "ok", f"arrayx raised {got}"
    same(got, want)
    # Setting: the same key, a scalar or an array of the selection's shape.
    if how == "broadcast":
        return
    value = data.draw(st.sampled_from(["scalar", "array", "row"] if want.ndim else
                                      ["scalar", "array"]))
    nbase, abase, n2, a2 = fresh()
    if value == "scalar":
        v_np: Any = np.ones((), n.dtype).item()
        v_ax: Any = v_np
    elif value == "array":
        v_np = (np.arange(want.size) % 5).astype(n.dtype).reshape(want.shape)
        v_ax = xp.asarray(v_np)
    else:
        v_np = (np.arange(want.shape[-1]) % 3).astype(n.dtype)
        v_ax = xp.asarray(v_np)
    ws, we = _numpy_index(lambda: n2.__setitem__(key, v_np))
    gs, ge = outcome(lambda: a2.__setitem__(akey, v_ax))
    if ws == "raise":
        assert gs == "raise" and ge in CLEAN, (gs, ge, we)
        return
    assert gs == "ok", f"arrayx raised {ge} setting"
    same(a2, n2)
    same(abase, nbase)  # the write went through the view into the same base elements


def _intermediate_ndim(n: np.ndarray, key: tuple) -> int:
    """The dimensions of arrayx's view before its advanced indices are applied: every axis
    kept, plus one per None and per bool (a 0-d bool array is one too)."""
    return n.ndim + sum(1 for k in key if k is None or isinstance(k, bool) or (
        isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype == np.bool_))


# --- 2. asarray of adversarial Python objects -------------------------------------------------

class LyingList(list):
    """A list whose ``len()`` lies."""

    def __len__(self) -> int:
        return 3


class OtherItems(list):
    """A list whose iterator yields other items than its ``__getitem__`` and ``len``."""

    def __iter__(self):
        return iter([1.5, 2.5])


class EmptyTuple(tuple):
    """A tuple whose ``len()`` is 0 whatever it holds."""

    def __len__(self) -> int:
        return 0


LEAVES = st.one_of(
    st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from(HUGE),
    st.floats(allow_nan=True, allow_infinity=True), st.complex_numbers(allow_nan=True),
    st.sampled_from([np.float32(1.5), np.int8(-3), np.uint64(2**64 - 1), np.bool_(True),
                     np.array(2.5), np.complex64(1j), np.float64("nan")]),
    st.sampled_from([None, "a", b"b", object()]),
)


def _containers(children: st.SearchStrategy) -> st.SearchStrategy:
    lists = st.lists(children, max_size=4)
    return st.one_of(lists, lists.map(tuple), lists.map(LyingList), lists.map(OtherItems),
                     lists.map(EmptyTuple))


NESTED = st.recursive(LEAVES, _containers, max_leaves=24)


def _regular(n: int, depth: int, leaf: st.SearchStrategy) -> st.SearchStrategy:
    if depth == 0:
        return leaf
    return st.lists(_regular(n, depth - 1, leaf), min_size=n, max_size=n)


REGULAR = st.integers(0, 3).flatmap(
    lambda n: st.integers(1, 4).flatmap(
        lambda d: _regular(n, d, st.one_of(st.integers(-100, 100), st.floats(-1e3, 1e3),
                                           st.booleans()))))


def _kind(dtype: np.dtype) -> str:
    return {"b": "b", "i": "i", "u": "i", "f": "f", "c": "c"}.get(dtype.kind, "?")


@given(st.one_of(NESTED, REGULAR))
def fuzz_asarray(obj: Any) -> None:
    record(obj)
    want_state, want = outcome(lambda: np.asarray(obj))
    got_state, got = outcome(lambda: xp.asarray(obj))
    if got_state == "raise":
        assert got in CLEAN, got
        # NumPy may hold what arrayx cannot (objects, strings, uint64 beyond int64): fine.
        assert want_state == "raise" or _kind(want.dtype) in "?" or any(
            isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
            and not -(2**63) <= int(v) < 2**63 for v in _leaves(obj)), (got, want)
        return
    assert want_state == "ok", f"arrayx returned where NumPy raised {want}"
    if isinstance(obj, (bytes, bytearray)):
        return  # bytes: arrayx reads their buffer as uint8, NumPy makes a string array
    g = np.asarray(got)
    assert g.shape == want.shape, (g.shape, want.shape)
    if want.dtype.kind == "O" or any(
            type(v) is int and not -(2**63) <= v < 2**63 for v in _leaves(obj)):
        # NumPy keeps ints beyond 64 bits as objects and reads those in [2^63, 2^64) as
        # uint64; arrayx reads every Python int as int64 (docs/guide/dtypes.md), so it holds
        # one beyond int64 only where the sequence promotes to a float (beside a float, or a
        # NumPy uint64 scalar: int64 with uint64 is float64), as Python's own arithmetic would.
        assert g.dtype.kind in "fc", g.dtype
    elif any(isinstance(v, (np.generic, np.ndarray)) for v in _leaves(obj)):
        # NumPy scalars keep their dtype in NumPy; arrayx takes their kind's default dtype.
        assert _kind(g.dtype) == _kind(want.dtype), (g.dtype, want.dtype)
    else:
        assert g.dtype == want.dtype, (g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want.astype(g.dtype))


def _leaves(obj: Any) -> list:
    if isinstance(obj, (list, tuple)):
        return [v for item in list(obj) for v in _leaves(item)]
    return [obj]


class Mutating(list):
    """A list whose iterator mutates the list it came from as it goes."""

    def __iter__(self):
        for i, v in enumerate(list.__iter__(self)):
            if i == 1:
                self.append(9.0)
                if len(self) > 6:
                    del self[:]
            yield v


@given(st.lists(st.lists(st.floats(-5, 5), min_size=2, max_size=2), min_size=1, max_size=4))
def fuzz_asarray_mutating(rows: list) -> None:
    obj = [Mutating(r) for r in rows] + [Mutating(rows[0])]
    record(obj)
    state, got = outcome(lambda: xp.asarray(obj))
    assert state == "ok" or got in CLEAN, got
    if state == "ok":
        g = np.asarray(got)
        assert g.dtype == np.float64
        # Whatever the mutation made of the lists, every value came from them.
        allowed = {v for r in rows for v in r} | {9.0}
        assert set(g.ravel().tolist()) <= allowed


# --- 3. reshape and creation with bad sizes ---------------------------------------------------

DIMS = st.one_of(st.integers(-3, 6), st.sampled_from(HUGE + [2**32, 2**62]),
                 st.sampled_from([1.5, None, "3", True, np.int64(2), np.uint8(3)]))
SHAPES = st.one_of(st.lists(DIMS, max_size=5).map(tuple), DIMS,
                   st.integers(60, 70).map(lambda k: (1,) * k))


def _size(shape: Any) -> int | None:
    """The element count of ``shape`` read as a shape of non-negative ints, else None."""
    try:
        dims = [int(d) for d in (shape if isinstance(shape, tuple) else (shape,))]
    except (TypeError, ValueError):
        return None
    return math.prod(dims) if all(d >= 0 for d in dims) else None


@given(SHAPES, st.sampled_from(["zeros", "ones", "empty", "full", "reshape", "broadcast_to",
                                "eye", "arange", "linspace", "tile"]))
def fuzz_creation(shape: Any, fn: str) -> None:
    record((shape, fn))
    dims = shape if isinstance(shape, tuple) else (shape,)
    if _elements(fn, dims) > 10**5:
        return  # valid arguments for an array too big to build here; nothing to learn
    size = _size(shape)
    # A valid shape NumPy can hold cheaply (so both may build it), or one too big to build
    # here though valid.
    cheap = size is not None and size <= 10**5
    big = size is not None and 10**5 < size <= 2**59
    calls: dict[str, tuple[Callable, Callable]] = {
        "zeros": (lambda m: m.zeros(shape), lambda m: m.zeros(shape)),
        "ones": (lambda m: m.ones(shape, dtype=m.int8), None),
        "empty": (lambda m: m.empty(shape).shape, None),
        "full": (lambda m: m.full(shape, 7), None),
        "reshape": (lambda m: m.reshape(m.arange(24), shape), None),
        "broadcast_to": (lambda m: m.broadcast_to(m.asarray([1, 2]), shape), None),
        "eye": (lambda m: m.eye(*[d for d in dims[:2]]), None),
        # NumPy computes arange(4, np.uint8(3)) in uint8 (255 elements): its oracle gets
        # Python ints, as arrayx reads NumPy's integer scalars.
        "arange": (lambda m: m.arange(*(dims if m is xp else _python_ints(dims))[:3]), None),
        "linspace": (lambda m: m.linspace(0, 1, dims[0] if dims else 5), None),
        "tile": (lambda m: m.tile(m.asarray([1, 2]), dims), None),
    }
    call = calls[fn][0]
    if big and fn not in ("reshape", "broadcast_to"):
        return  # a valid shape too big to build here (tens of GiB); nothing to learn
    if not cheap and fn not in ("reshape", "broadcast_to"):
        # Too big (or invalid): arrayx must refuse cleanly or build it lazily; never crash.
        state, got = outcome(lambda: call(xp))
        if state == "raise":
            assert got in CLEAN + (MemoryError,), got
        return
    if fn == "tile" and _too_wide(dims):
        # NumPy 2.4's tile crashes on such repetitions (np.tile([1, 2], (2, 2**62, 0)) dies
        # of SIGSEGV); arrayx must answer cleanly on its own.
        state, got = outcome(lambda: call(xp))
        assert state == "ok" or got in CLEAN + (MemoryError,), got
        return
    want_state, want = outcome(lambda: call(np))
    got_state, got = outcome(lambda: call(xp))
    if got_state == "raise":
        assert got in CLEAN + (MemoryError,), got
        assert want_state == "raise" or _accepts_more(shape, fn), \
            f"arrayx raised {got.__name__} where NumPy gave {want!r:.200}"
        return
    if want_state == "raise" and issubclass(want, MemoryError):
        return  # NumPy ran out of memory on the way to an array arrayx could make
    assert want_state == "ok", f"arrayx returned where NumPy raised {want}"
    if fn == "empty":
        assert got == want
        return
    g = np.asarray(got)
    assert g.shape == np.shape(want), (g.shape, np.shape(want))
    if g.size > 10**5:  # a broadcast view: its corners, not all of it
        for corner in ((0,) * g.ndim, (-1,) * g.ndim):
            assert g[corner] == want[corner]
    else:
        np.testing.assert_array_equal(g, want)


def _too_wide(dims: tuple) -> bool:
    """Whether a fresh array of ``dims`` would span more than 2**59 elements, zero dimensions
    aside: arrayx refuses it (its byte strides must fit int64 at any itemsize), while NumPy's
    bound depends on the itemsize."""
    spans = math.prod(int(d) for d in dims if isinstance(d, (int, np.integer)) and d > 0)
    return spans > (2**63 - 1) // 16


def _python_ints(dims: tuple) -> tuple:
    return tuple(int(d) if isinstance(d, np.integer) else d for d in dims)


def _elements(fn: str, dims: tuple) -> int:
    """How many elements ``fn`` would make of ``dims`` read as its arguments (0 when they
    are not all non-negative ints)."""
    used = {"linspace": 1, "eye": 2, "arange": 3}.get(fn, len(dims))
    dims = dims[:used]  # the arguments the call takes from dims
    if fn == "arange":
        return _arange_elements(dims)
    ints = [int(d) for d in dims if isinstance(d, (int, np.integer, np.bool_))]
    if len(ints) != len(dims) or fn not in ("eye", "linspace", "tile"):
        return 0
    if fn == "linspace":
        return max(ints[0], 0) if ints else 0
    if fn == "eye":
        rows = ints[0] if ints else 0
        return max(rows, 0) * max(ints[1] if len(ints) > 1 else rows, 0)
    return 2 * math.prod(max(v, 0) for v in ints)


def _arange_elements(dims: tuple) -> float:
    """How many elements arange would make of real arguments (floats included), else 0."""
    dims = tuple(dims[:3])
    if len(dims) > 1 and dims[1] is None:  # arange(stop, None, step) counts from 0
        dims = (0, dims[0], *dims[2:])
    args = [d for d in dims if isinstance(d, (int, float, np.integer, np.floating))
            and not isinstance(d, (bool, np.bool_))]
    if not args or len(args) != len(dims):
        return 0
    start, stop, step = ([0.0, float(args[0]), 1.0] if len(args) == 1
                         else [float(v) for v in args] + [1.0])[:3]
    if step == 0 or not all(math.isfinite(v) for v in (start, stop, step)):
        return 0
    return max(0.0, math.ceil((stop - start) / step))




def _accepts_more(shape: Any, fn: str) -> bool:
    """Where NumPy accepts what the standard does not: bools and floats as sizes (NumPy
    deprecations), negative sizes NumPy clips (linspace, arange, eye), more than 64 dims."""
    dims = shape if isinstance(shape, tuple) else (shape,)
    negative = any(isinstance(d, int) and d < -1 for d in dims)
    if _too_wide(dims):
        return True
    lenient = any(isinstance(d, int) and d < 0 for d in dims)
    return (fn in ("linspace", "arange", "eye", "tile") and lenient
            or fn == "reshape" and negative or any(
                not isinstance(d, (int, np.integer)) or isinstance(d, (bool, np.bool_))
                for d in dims) or len(dims) > 64)


# --- 4. DLPack: __dlpack__ arguments and crafted capsules -------------------------------------

ARG = st.sampled_from([None, (1, 0), (0, 8), (2, 0), (), (1,), (1, 0, 0), "1.0", [1, 0],
                       (1.0, 0), (True, 0)])
DEVICE = st.sampled_from([None, (1, 0), (1, -1), (2, 0), (1, 1), (), "cpu", (1,), [1, 0]])


@given(layouts(), ARG, DEVICE, st.sampled_from([None, True, False, 1, "x"]),
       st.sampled_from([None, 0, 1, -1, "s"]))
def fuzz_dlpack_args(layout: tuple, max_version: Any, dl_device: Any, copy: Any,
                     stream: Any) -> None:
    n, a, how, _ = layout
    record((n.shape, how, max_version, dl_device, copy, stream))
    state, capsule = outcome(lambda: a.__dlpack__(max_version=max_version, dl_device=dl_device,
                                                  copy=copy, stream=stream))
    if state == "raise":
        assert capsule in CLEAN + (BufferError,), capsule
        # Arguments the standard allows on a CPU array are served (copy=False aside, which a
        # read-only broadcast view refuses for a legacy capsule only).
        def ints(v: Any) -> bool:
            return isinstance(v, tuple) and all(type(e) is int for e in v)

        valid = (max_version is None or ints(max_version) and max_version in ((1, 0), (0, 8),
                                                                              (2, 0))) and (
            dl_device is None or ints(dl_device) and dl_device == (1, 0)) and (
            copy is None or type(copy) is bool) and stream is None
        assert not valid or (how == "broadcast" and max_version in (None, (0, 8))), \
            f"arrayx refused valid arguments with {capsule.__name__}"
        return

    class Producer:
        def __dlpack__(self, **kwargs: Any) -> object:
            return capsule

        def __dlpack_device__(self) -> tuple:
            return (1, 0)

    same(xp.from_dlpack(Producer()), np.asarray(n))


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
    ("deleter", DELETER), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
DELETED: list[int] = []
KEEP_ALIVE: list[tuple] = []
_on_delete = DELETER(lambda m: DELETED.append(1))

# (code, bits): the standard's dtypes as DLPack spells them, and some it does not have.
DL_TYPES = [(1, 8), (0, 32), (0, 64), (2, 64), (5, 128), (6, 8), (2, 16), (4, 16), (0, 7),
            (9, 64), (1, 1)]


@given(st.integers(-2, 70), st.lists(st.integers(-2, 5) | st.sampled_from(HUGE[:4]), max_size=6),
       st.none() | st.lists(st.integers(-8, 8) | st.sampled_from(HUGE[:4]), max_size=6),
       st.sampled_from(DL_TYPES), st.sampled_from([1, 1, 1, 2]), st.sampled_from([1, 1, 2, 3, 4]),
       st.sampled_from([1, 1, 0, 2]), st.integers(0, 24), st.booleans())
def fuzz_dlpack_capsules(ndim: int, shape: list, strides: list | None, dltype: tuple,
                         lanes: int, device: int, major: int, byte_offset: int,
                         null_shape: bool) -> None:
    record((ndim, shape, strides, dltype, lanes, device, major, byte_offset, null_shape))
    buf = np.arange(64, dtype=np.float64)
    k = max(ndim, 0)
    sh = (ctypes.c_int64 * max(k, 1))(*((shape + [1] * k)[:k]))
    stp = None
    if strides is not None:
        stp = (ctypes.c_int64 * max(k, 1))(*((strides + [1] * k)[:k]))
    m = DLManagedTensorVersioned()
    m.major, m.minor, m.deleter, m.flags = major, 0, _on_delete, 0
    t = m.dl_tensor
    t.data = buf.ctypes.data
    t.device = DLDevice(device, 0)
    t.ndim = ndim
    t.dtype = DLDataType(dltype[0], dltype[1], lanes)
    t.shape = ctypes.cast(sh, ctypes.POINTER(ctypes.c_int64)) if not (null_shape and k) else None
    t.strides = ctypes.cast(stp, ctypes.POINTER(ctypes.c_int64)) if stp is not None else None
    t.byte_offset = byte_offset
    capsule = _capsule_new(ctypes.addressof(m), b"dltensor_versioned", None)
    # The tensor's memory lives as long as the process: an imported array's owner calls its
    # deleter whenever the garbage collector gets to it, maybe after this case has returned.
    KEEP_ALIVE.append((m, sh, stp, buf))

    class Producer:
        def __dlpack__(self, **kwargs: Any) -> object:
            return capsule

        def __dlpack_device__(self) -> tuple:
            return (device, 0)

    before = len(DELETED)
    if _lies_within_reach(k, sh, stp, dltype[1] // 8, byte_offset, buf.nbytes):
        return  # any read of it is undefined behaviour by construction (arrayx copies
        # misaligned memory at import, so it would read at once); nothing to learn
    state, got = outcome(lambda: xp.from_dlpack(Producer()))
    if state == "raise":
        assert got in CLEAN + (BufferError,), got
        return
    try:
        _check_capsule_result(got, sh, stp, k, dltype, byte_offset, buf)
    finally:
        del got
    assert len(DELETED) == before + 1, "the producer's deleter ran more or less than once"


def _lies_within_reach(k: int, sh: Any, stp: Any, itemsize: int, byte_offset: int,
                       nbytes: int) -> bool:
    """Whether a crafted tensor claims more memory than its buffer holds, yet an amount that
    fits the address space (a producer's lie no consumer can catch)."""
    if k < 0 or k > 64 or itemsize == 0:
        return False
    dims = [sh[i] for i in range(k)]
    if any(d <= 0 for d in dims):
        return False
    if stp is None:
        reach = math.prod(dims) * itemsize
    else:
        reach = (sum(abs(stp[i]) * (dims[i] - 1) for i in range(k)) + 1) * itemsize
    return nbytes < reach + byte_offset < 2**62


def _check_capsule_result(got: Any, sh: Any, stp: Any, k: int, dltype: tuple,
                          byte_offset: int, buf: np.ndarray) -> None:
    dims = [sh[i] for i in range(k)]
    itemsize = dltype[1] // 8
    reach = sum(abs(s) * (d - 1) for s, d in zip(stp or [], dims, strict=False)) if stp else 0
    if 0 not in dims and (stp is not None and (reach + 1) * itemsize + byte_offset > buf.nbytes
                          or stp is None and math.prod(dims) * itemsize + byte_offset
                          > buf.nbytes):
        return  # a producer that lies about its memory cannot be caught; nothing is read
    if k and 0 not in dims and all(s >= 0 for s in (stp or [])) and math.prod(dims) <= 10**5:
        state, want = outcome(lambda: np.ndarray(
            dims, dtype=got.dtype, buffer=buf.tobytes(), offset=byte_offset,
            strides=[s * itemsize for s in stp] if stp is not None else None))
        if state == "ok":  # (NumPy cannot always build the oracle: some shapes are too big)
            np.testing.assert_array_equal(np.asarray(got), want)


# --- 5. pickles --------------------------------------------------------------------------------

@given(st.binary(max_size=64), st.one_of(st.lists(DIMS, max_size=4).map(tuple), DIMS),
       st.sampled_from(["<f8", "<i4", "|b1", "<c16", "|u1", "<f2", "|O", "<U3", "x", "<M8[s]"]))
def fuzz_pickle(data: bytes, shape: Any, dtype: str) -> None:
    record((data, shape, dtype))
    fn, _ = xp.zeros(1).__reduce__()
    payload = pickle.dumps((fn, (data, shape, dtype)))
    state, got = outcome(lambda: (lambda f, args: f(*args))(*pickle.loads(payload)))
    want_state, want = outcome(lambda: np.frombuffer(data, dtype=dtype).reshape(shape))
    if state == "raise":
        assert got in CLEAN, got
        # Refused only where NumPy refuses too, or for a dtype or a shape arrayx does not
        # take (not one of the standard's 13; a bool, -1 or None as a size).
        standard = dtype in ("<f8", "<i4", "|b1", "<c16", "|u1")
        dims = shape if isinstance(shape, tuple) else (shape,)
        plain = isinstance(shape, tuple) and all(
            isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)) and d >= 0
            for d in dims)
        assert want_state == "raise" or not standard or not plain or _too_wide(dims), \
            f"arrayx refused a pickle NumPy reads: {got.__name__}"
        return
    same(got, want)


# --- 6. NumPy's ufuncs on arrayx arrays: methods, dtype=, out=, where=, mixed operands -------

UFUNCS = [np.add, np.subtract, np.multiply, np.divide, np.floor_divide, np.power,
          np.maximum, np.minimum, np.equal, np.less, np.logical_and, np.bitwise_xor,
          np.negative, np.absolute, np.sqrt, np.exp, np.reciprocal, np.square, np.sign,
          np.logical_not, np.isnan]
PROTOCOL_DTYPES = ["bool", "int8", "int64", "uint8", "float32", "float64", "complex128"]
#: Exceptions that are NumPy's own answer to a ufunc call it refuses (its UFuncTypeError is a
#: TypeError, AxisError a ValueError and IndexError).
UFUNC_CLEAN = (TypeError, ValueError, IndexError, OverflowError, ZeroDivisionError)
#: Comparisons: NumPy 2.4 mishandles two of their calls, in NumPy alone (see below).
COMPARISONS = (np.equal, np.less)


def _operand(kind: str, n: np.ndarray) -> Any:
    """``n`` as the operand kind drawn: an arrayx array, NumPy's array, a list or a scalar."""
    if kind == "arrayx":
        return xp.asarray(n)
    if kind == "list":
        return n.tolist()
    if kind == "scalar":
        return n.reshape(-1)[0].item() if n.size else 0
    return n


def _numpy_side(obj: Any) -> Any:
    return np.asarray(obj).copy() if isinstance(obj, xp.Array) else obj


@st.composite
def ufunc_calls(draw: st.DrawFn) -> tuple:
    ufunc = draw(st.sampled_from(UFUNCS))
    method = draw(st.sampled_from(["__call__"] * 4 + ["reduce", "accumulate", "at", "outer",
                                                       "reduceat"]))
    shape = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=3)))
    if method != "__call__":
        shape = shape or (2,)
    dtypes = [draw(st.sampled_from(PROTOCOL_DTYPES)) for _ in range(ufunc.nin)]
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    arrays = [rng.integers(-4, 5, shape).astype(dt) for dt in dtypes]
    kinds = ["arrayx"] + [draw(st.sampled_from(["arrayx", "numpy", "list", "scalar"]))
                          for _ in range(ufunc.nin - 1)]
    kinds = draw(st.permutations(kinds)) if method == "__call__" else kinds
    kwargs: dict[str, Any] = {}
    # No dtype= on a comparison's reduce, accumulate or reduceat: in NumPy 2.4 such a call
    # (np.less.accumulate(int64, dtype=bool)) leaves its loop (bool, bool) -> bool in the
    # ufunc's dispatch cache under the key of np.less(bool, int64, dtype=bool), which then
    # raises UFuncTypeError for the rest of the process instead of comparing as int64: NumPy's
    # answers would depend on the cases before.
    reduces = method in ("reduce", "accumulate", "reduceat")
    if draw(st.booleans()) and not (reduces and ufunc in COMPARISONS):
        kwargs["dtype"] = np.dtype(draw(st.sampled_from(PROTOCOL_DTYPES)))
    if method == "__call__" and draw(st.booleans()):
        out_dtype = draw(st.sampled_from(PROTOCOL_DTYPES))
        kwargs["out"] = rng.integers(-4, 5, shape).astype(out_dtype)
        if draw(st.booleans()):
            kwargs["where"] = rng.integers(0, 2, shape).astype(bool)
    if method in ("reduce", "accumulate", "reduceat") and shape:
        kwargs["axis"] = draw(st.integers(-len(shape), len(shape) - 1))
    extra: tuple = ()
    if method == "at":
        extra = (draw(st.lists(st.integers(-shape[0], shape[0] - 1), max_size=4))
                 if shape[0] else [],)
    if method == "reduceat":
        extra = (draw(st.lists(st.integers(0, max(shape[kwargs.get("axis", 0)] - 1, 0)),
                               min_size=1, max_size=3)),)
    return ufunc, method, arrays, kinds, extra, kwargs


def _call(ufunc: np.ufunc, method: str, operands: list, extra: tuple, kwargs: dict) -> Any:
    fn = getattr(ufunc, method)
    if method == "at":
        return fn(operands[0], *extra, *operands[1:])
    if method in ("reduce", "accumulate"):
        return fn(operands[0], **kwargs)
    if method == "reduceat":
        return fn(operands[0], *extra, **kwargs)
    return fn(*operands, **kwargs)


def _segfaults_numpy(ufunc: np.ufunc, method: str, operands: list, kwargs: dict) -> bool:
    """Whether NumPy 2.4 itself segfaults on the call: a comparison of an integer array with
    a Python int beyond its dtype under ``where=`` (``np.equal(uint8_array, -2,
    where=mask)``; its loop for such ints ignores the mask). arrayx refuses the int
    (OverflowError), or the loop ``dtype=`` asks for (TypeError, as NumPy's), instead."""
    if method != "__call__" or ufunc not in COMPARISONS or "where" not in kwargs:
        return False
    ints = [o for o in operands if type(o) is int]
    ranges = [np.iinfo(d) for o in operands if not isinstance(o, int)
              and (d := np.asarray(o).dtype).kind in "iu"]
    return any(not r.min <= v <= r.max for v in ints for r in ranges)


@given(ufunc_calls())
def fuzz_ufunc_protocol(call: tuple) -> None:
    ufunc, method, arrays, kinds, extra, kwargs = call
    record((ufunc.__name__, method, [a.dtype.str for a in arrays], [a.shape for a in arrays],
            kinds, extra, {k: getattr(v, "dtype", v) for k, v in kwargs.items()}))
    if method in ("reduce", "accumulate", "reduceat", "at") and ufunc.nin != 2:
        return
    ops = [_operand(k, a) for k, a in zip(kinds, arrays, strict=True)]
    ours = dict(kwargs)
    if "out" in kwargs:
        ours["out"] = xp.asarray(kwargs["out"])
    n_ops = [_numpy_side(o) for o in ops]
    if method == "at":
        ops[0] = xp.asarray(arrays[0])
        n_ops[0] = arrays[0].copy()
    if _segfaults_numpy(ufunc, method, n_ops, kwargs):
        state, got = outcome(lambda: _call(ufunc, method, ops, extra, ours))
        assert state == "raise" and issubclass(got, UFUNC_CLEAN), (state, got)
        return
    with np.errstate(all="ignore"):
        want_state, want = outcome(lambda: _call(ufunc, method, n_ops, extra, kwargs))
        state, got = outcome(lambda: _call(ufunc, method, ops, extra, ours))
    if want_state == "raise":
        assert state == "raise", f"NumPy raised {want.__name__}, arrayx gave {got!r}"
        assert issubclass(got, UFUNC_CLEAN), got
        return
    if method == "at":  # in place: compare the first operands
        if state == "raise":
            assert issubclass(got, UFUNC_CLEAN), got
            return
        state, got, want = "ok", ops[0], n_ops[0]
    if np.asarray(want).dtype not in xp._dtypes.DTYPES:  # float16: a dtype arrayx lacks
        if state == "raise":
            assert issubclass(got, TypeError), got
        else:  # arrayx computes in a wider float of the same kind
            assert np.asarray(got).dtype.kind == np.asarray(want).dtype.kind
            w = np.asarray(want, np.float64)
            fits = np.isfinite(w) | np.isnan(w)  # float16 overflows where float64 does not
            np.testing.assert_allclose(np.asarray(got)[fits], w[fits], rtol=2e-3)
        return
    if state == "raise" and issubclass(got, OverflowError) and any(
            isinstance(o, int) and not isinstance(o, bool) for o in ops):
        return  # a Python int out of the array's range: arrayx refuses it in comparisons too
    assert state == "ok", f"arrayx raised {got.__name__} where NumPy gave {want!r}"
    if isinstance(want, np.ndarray) or np.isscalar(want):
        want = np.asarray(want)
        g = np.asarray(got)
        assert g.shape == want.shape, (g.shape, want.shape)
        assert g.dtype == want.dtype, (g.dtype, want.dtype)
        mask = kwargs.get("where", True)  # NumPy leaves the rest of a fresh result unset
        if "out" in kwargs:
            want = kwargs["out"]
            g = np.asarray(ours["out"])
            mask = True
        inexact = want.dtype.kind in "fc" and ufunc in (np.exp, np.sqrt, np.divide, np.power,
                                                        np.reciprocal)
        if inexact:
            np.testing.assert_allclose(np.where(mask, g, 0), np.where(mask, want, 0),
                                       rtol=1e-6 if want.dtype.itemsize <= 4 else 1e-13)
        else:
            np.testing.assert_array_equal(np.where(mask, g, 0), np.where(mask, want, 0))


# --- 7. sizes near 2^63: views that big, and what joins or copies them -------------------------

HUGE_DIMS = st.sampled_from([0, 1, 2, 3, 2**61, 2**62, 2**62 + 1, 2**63 - 1])
JOINS = ["concat", "concat_none", "np.concatenate", "stack", "repeat", "np.repeat", "tile",
         "pad", "pad_edge", "reshape", "memoryview", "astype", "add", "expand_dims", "flip",
         "permute", "slice", "broadcast_to"]
#: Clean refusals of a size too big for memory or for 64 bits.
SIZE_CLEAN = (ValueError, MemoryError, BufferError, OverflowError)


def _bytes(shape: tuple, itemsize: int) -> int:
    return math.prod(shape) * itemsize


@given(st.lists(HUGE_DIMS, min_size=1, max_size=3).map(tuple), st.sampled_from(JOINS),
       st.sampled_from(["float64", "uint8", "complex128", "bool"]), st.integers(1, 5))
def fuzz_huge(shape: tuple, op: str, dtype: str, k: int) -> None:
    record((shape, op, dtype, k))
    dt = np.dtype(dtype)
    # NumPy and arrayx size an array's strides by its non-zero dimensions, even when empty.
    big = math.prod(d for d in shape if d) > 2**20
    state, x = outcome(lambda: xp.broadcast_to(xp.asarray(1, dtype=dt), shape))
    if state == "raise":  # refused at the view already: only past 2^63 bytes
        assert issubclass(x, ValueError), x
        assert math.prod(d for d in shape if d) * 16 > 2**63 - 1, shape
        return

    def expect(result_shape: tuple | None, copies: bool) -> None:
        """The op gives ``result_shape`` (a view, or a copy when ``copies``) or refuses
        cleanly, and must refuse when the result cannot be addressed."""
        state, got = outcome(lambda: run())
        if result_shape is None or state == "raise":
            assert state == "raise" and issubclass(got, SIZE_CLEAN + (TypeError,)), got
            if result_shape is not None:  # refused: it must be too big to make
                spans = math.prod(d for d in result_shape if d)
                assert spans > (2**63 - 1) // 16 or (copies and (spans > 2**20 or big)), \
                    (result_shape, got)
            return
        assert not (copies and math.prod(result_shape) > 2**40), "a huge copy was made"
        assert got.shape == result_shape, (got.shape, result_shape)

    n = len(shape)
    if op in ("concat", "np.concatenate"):
        total = shape[0] * k
        run = (lambda: xp.concat([x] * k)) if op == "concat" else (
            lambda: np.concatenate([x] * k))
        expect((total,) + shape[1:] if total < 2**63 else None, True)
    elif op == "concat_none":
        run = lambda: xp.concat([x] * k, axis=None)  # noqa: E731
        expect((math.prod(shape) * k,) if math.prod(shape) * k < 2**63 else None, True)
    elif op == "stack":
        run = lambda: xp.stack([x] * k)  # noqa: E731
        expect((k,) + shape, True)
    elif op in ("repeat", "np.repeat"):
        run = (lambda: xp.repeat(x, k, axis=0)) if op == "repeat" else (
            lambda: np.repeat(x, k, axis=0))
        expect((shape[0] * k,) + shape[1:] if shape[0] * k < 2**63 else None, True)
    elif op == "tile":
        run = lambda: xp.tile(x, (k,) + (1,) * (n - 1))  # noqa: E731
        expect((shape[0] * k,) + shape[1:] if shape[0] * k < 2**63 else None, True)
    elif op in ("pad", "pad_edge"):
        mode = "constant" if op == "pad" else "edge"
        run = lambda: xp.pad(x, ((k, 2**62),) + ((0, 0),) * (n - 1), mode=mode)  # noqa: E731
        total = shape[0] + k + 2**62
        expect((total,) + shape[1:] if total < 2**63 and (shape[0] or mode == "constant")
               else None, True)
    elif op == "reshape":
        run = lambda: xp.reshape(x, (-1,))  # noqa: E731
        expect((math.prod(shape),), False)  # stride-0 axes merge: a view
    elif op == "memoryview":
        state, got = outcome(lambda: memoryview(x))
        if _bytes(shape, dt.itemsize) > 2**63 - 1:
            assert state == "raise" and issubclass(got, BufferError), got
        elif state == "ok":
            assert got.nbytes == _bytes(shape, dt.itemsize)
            assert got.shape == shape
        else:
            assert issubclass(got, BufferError), got
    elif op == "astype":
        run = lambda: xp.astype(x, xp.float32)  # noqa: E731
        expect(shape, True)
    elif op == "add":
        run = (lambda: x + x) if dtype != "bool" else (lambda: x | x)
        expect(shape, True)
    elif op == "expand_dims":
        run = lambda: xp.expand_dims(x, axis=0)  # noqa: E731
        expect((1,) + shape, False)
    elif op == "flip":
        run = lambda: xp.flip(x)  # noqa: E731
        expect(shape, False)
    elif op == "permute":
        run = lambda: xp.permute_dims(x, tuple(reversed(range(n))))  # noqa: E731
        expect(tuple(reversed(shape)), False)
    elif op == "slice":
        run = lambda: x[::k]  # noqa: E731
        expect(((shape[0] + k - 1) // k,) + shape[1:], False)
    elif op == "broadcast_to":
        run = lambda: xp.broadcast_to(x, (k,) + shape)  # noqa: E731
        expect((k,) + shape if math.prod((k,) + shape) < 2**63 else None, False)


FUZZERS = {f.__name__[5:]: f for f in (fuzz_index, fuzz_asarray, fuzz_asarray_mutating,
                                       fuzz_creation, fuzz_dlpack_args, fuzz_dlpack_capsules,
                                       fuzz_pickle, fuzz_ufunc_protocol, fuzz_huge)}


def main(argv: list[str]) -> None:
    name, examples = argv[0], int(argv[1])
    if len(argv) > 2:
        LOG.append(argv[2])
    thorough = examples > 1000
    fuzzer = settings(max_examples=examples, deadline=None, database=None,
                      derandomize=not thorough,
                      suppress_health_check=list(HealthCheck))(FUZZERS[name])
    fuzzer()
    print(f"{name}: {examples} cases, no crash, no mismatch")


if __name__ == "__main__":
    main(sys.argv[1:])

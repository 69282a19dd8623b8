"""Shared hypothesis strategies: NumPy arrays of the standard's dtypes, and their arrayx twins;
``to_np``, which reads an arrayx array on any device back as NumPy; and the default device of
the modules that test the host (``HOST_MODULES``)."""

from __future__ import annotations

import contextlib
import os

# SciPy reads this once, when it is first imported: its array-API code paths (which
# tests/test_autograd_third_party.py differentiates, and scikit-learn's array_api_dispatch
# needs) are on only with it.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

if os.environ.get("ARRAYX_FAKE_CUDA"):
    # cuda:0 backed by host memory (tests/fake_cuda.py): the engine's device paths without a
    # GPU; ARRAYX_FAKE_CUDA=default makes it the default device too (as ARRAYX_DEVICE=cuda:0
    # does on a GPU machine).
    import fake_cuda  # noqa: E402

    fake_cuda.install(default=os.environ["ARRAYX_FAKE_CUDA"] == "default")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

settings.register_profile("arrayx", max_examples=60, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.register_profile("brief", max_examples=20, deadline=None)
# ARRAYX_HYPOTHESIS_PROFILE=thorough draws 2000 examples a test, for a long local search;
# =brief draws 20, for CI's runs beside the main one (.ci/common.sh).
settings.load_profile(os.environ.get("ARRAYX_HYPOTHESIS_PROFILE", "arrayx"))

BOOL = [np.dtype(np.bool_)]
SIGNED = [np.dtype(t) for t in ("int8", "int16", "int32", "int64")]
UNSIGNED = [np.dtype(t) for t in ("uint8", "uint16", "uint32", "uint64")]
INTEGER = SIGNED + UNSIGNED
REAL_FLOAT = [np.dtype("float32"), np.dtype("float64")]
COMPLEX = [np.dtype("complex64"), np.dtype("complex128")]
FLOAT = REAL_FLOAT + COMPLEX
NUMERIC = INTEGER + FLOAT
ALL = BOOL + NUMERIC
DTYPES_BY_KIND = {
    "bool": BOOL, "integer": INTEGER, "real_float": REAL_FLOAT, "float": FLOAT,
    "numeric": NUMERIC, "all": ALL, "real": INTEGER + REAL_FLOAT,
    "integer_or_bool": BOOL + INTEGER,
}

# With a default device other than the CPU (ARRAYX_DEVICE=cuda:0, or tests/fake_cuda.py), the
# modules about the array API's semantics run there and read results back with ``to_np``; these
# modules test the host itself (NumPy's protocols and buffers, the CPU's kernels, threads and
# libraries, documentation that shows CPU arrays) and run with the CPU as the default device.
HOST_MODULES = frozenset({
    "test_alignment", "test_asarray", "test_blas_library", "test_buffer_reuse",
    "test_cpu_levels", "test_docs", "test_dlpack", "test_fuzz", "test_hardening",
    "test_hostile_input", "test_import",
    "test_interop", "test_interop_torch", "test_leaks", "test_memory_order",
    "test_numpy_protocols", "test_numpy_semantics", "test_parallel_paths", "test_pydata_stack",
    "test_strict", "test_threads", "test_vector_math", "test_autograd_third_party",
    "test_products_split", "test_bench_timer", "test_fft_four_step",
})


@contextlib.contextmanager
def _cpu_default_device():
    """The CPU as the default device, in this process and in the Python programs it starts
    (``ARRAYX_DEVICE``)."""
    from arrayx import _devices

    before, variable = _devices.default_device(), os.environ.get("ARRAYX_DEVICE")
    _devices.set_default_device(_devices.CPU)
    os.environ["ARRAYX_DEVICE"] = "cpu"
    try:
        yield
    finally:
        _devices.set_default_device(before)
        if variable is None:
            del os.environ["ARRAYX_DEVICE"]
        else:
            os.environ["ARRAYX_DEVICE"] = variable


@pytest.fixture(autouse=True)
def _host_modules_on_the_cpu(request: pytest.FixtureRequest):
    """The CPU as the default device while a test of ``HOST_MODULES`` runs."""
    if request.module.__name__ in HOST_MODULES:
        with _cpu_default_device():
            yield
    else:
        yield


@pytest.fixture
def cpu_default():
    """The CPU as the default device for one test (documentation examples print CPU arrays)."""
    with _cpu_default_device():
        yield


def to_np(x: object, *args: object, **kwargs: object) -> np.ndarray:
    """``np.asarray`` of ``x``, an arrayx array on any device brought to the host first (a GPU
    array refuses ``np.asarray``, as CuPy's does)."""
    from arrayx import Array
    from arrayx.autograd._tracer import Tracer

    while isinstance(x, Tracer) and x.node is None:  # a constant's tracer: its value
        x = x.value
    if isinstance(x, Array):
        x = x.to_device("cpu")
    return np.asarray(x, *args, **kwargs)


def churn_thread_count(stop: float, pause: float) -> None:
    """Change arrayx's thread count (1, 2, 3 in turn) every ``pause`` seconds until the
    monotonic clock reaches ``stop``: the other side of the tests whose Python threads run
    kernels while the count changes."""
    import time

    import arrayx

    n = 0
    while time.monotonic() < stop:
        arrayx.set_num_threads(1 + n % 3)
        n += 1
        time.sleep(pause)


def fft_errors_from_threads(x: object, want: np.ndarray, seconds: float,
                            churn: bool) -> list[str]:
    """What went wrong when three Python threads computed ``arrayx.fft.fft(x)`` (compared with
    ``want``) again and again for ``seconds``, with a fourth changing arrayx's thread count
    (``churn_thread_count``) where ``churn``: each thread's first exception, or "wrong result";
    the thread count is restored after."""
    import threading
    import time

    import arrayx as xp

    stop, errors = time.monotonic() + seconds, []
    before = xp.get_num_threads()

    def call() -> None:
        while time.monotonic() < stop and not errors:
            try:
                got = to_np(xp.fft.fft(x))
            except Exception as e:  # noqa: BLE001 - any failure is the finding
                errors.append(f"{type(e).__name__}: {e}")
                return
            if not np.allclose(got, want, rtol=0, atol=1e-9 * np.abs(want).max()):
                errors.append("wrong result")

    threads = [threading.Thread(target=call) for _ in range(3)]
    if churn:
        threads.append(threading.Thread(target=churn_thread_count, args=(stop, 0.001)))
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        xp.set_num_threads(before)
    return errors


shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)
nonempty_shapes = hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5)


def arrays(dtypes: list[np.dtype] = ALL, shape: st.SearchStrategy = shapes,
           finite: bool = False) -> st.SearchStrategy[np.ndarray]:
    """NumPy arrays of one of ``dtypes`` (floats include NaN, infinities and signed zeros)."""
    def elements(dtype: np.dtype) -> st.SearchStrategy | None:
        if finite and dtype.kind in "fc":
            width = 32 if dtype in (np.float32, np.complex64) else 64
            if dtype.kind == "f":
                return st.floats(-1e6, 1e6, width=width)
            return st.complex_numbers(max_magnitude=1e6, width=2 * width)
        return None

    return st.sampled_from(dtypes).flatmap(
        lambda d: hnp.arrays(d, shape, elements=elements(d)))


@st.composite
def strided(draw: st.DrawFn, base: np.ndarray) -> tuple[object, object]:
    """A view of ``base`` (negative steps, steps > 1, transposes) as a NumPy index/transform."""
    index = tuple(
        draw(st.sampled_from([slice(None), slice(None, None, -1), slice(None, None, 2),
                              slice(1, None), slice(None, None, -2)]))
        for _ in range(base.ndim))
    transpose = draw(st.booleans()) and base.ndim >= 2
    return index, transpose


def apply_view(x: object, index: tuple, transpose: bool) -> object:
    """Apply a view drawn by ``strided`` to a NumPy or an arrayx array."""
    v = x[index]
    if transpose:
        v = v.mT if hasattr(v, "mT") else np.swapaxes(v, -1, -2)
    return v


# Rows of integers and real floats from this length are radix sorted (ax_radix.hpp).
RADIX_MIN_N = 256
SPECIAL = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1.0, -1.0]


@st.composite
def long_rows(draw: st.DrawFn, dtypes: list[np.dtype]) -> np.ndarray:
    """Arrays with rows both sides of ``RADIX_MIN_N``: a few values repeated (NaNs of either
    sign, signed zeros, infinities among them), a narrow range around any value (few digits
    differ: consecutive bit patterns from any value), or random bit patterns (NaN payloads,
    subnormals, every digit)."""
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(st.sampled_from([(RADIX_MIN_N,), (RADIX_MIN_N - 1,), (1000,), (3, 700),
                                  (600, 2), (2, 3, 300)]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["pool", "narrow", "bits"]))
    if kind == "bits" and dtype.kind != "b":
        return rng.integers(0, 256, (*shape, dtype.itemsize), dtype=np.uint8).view(dtype)[..., 0]
    if kind == "pool" or dtype.kind == "b":
        pool = draw(hnp.arrays(dtype, st.integers(1, 6)))
        if dtype.kind == "f":
            pool = np.concatenate([pool, np.array(draw(st.lists(st.sampled_from(SPECIAL))),
                                                  dtype=dtype)])
        return rng.choice(pool, shape)
    unsigned = np.dtype(f"u{dtype.itemsize}")
    start = np.asarray(draw(hnp.from_dtype(dtype)), dtype=dtype).view(unsigned)
    steps = rng.integers(0, draw(st.sampled_from([2, 3, 300, 70000])), shape)
    return np.add(steps.astype(unsigned), start, dtype=unsigned).view(dtype)  # bits wrap around

"""arrayx against CuPy on one GPU: five memory-bound cases, side by side on the same card.

The cases move a lot of memory and do little arithmetic, so the figure that matters is the
bandwidth each library reaches: ``x + y`` and ``exp`` of 10^8 float32, ``sum`` of 10^8
float32, ``sum(axis=0)`` of a 10^4 x 10^4 float32 matrix, and the C-ordered copy of that
matrix's transpose. Both libraries read the same input memory (arrayx takes CuPy's arrays
through DLPack, without a copy). Each case is checked first: arrayx's result is compared with
CuPy's on the GPU (a wrong result is timed but marked WRONG).

Timing: three warm-up calls (the first compiles the kernels), then a loop of back-to-back
calls long enough to last about 20 ms, between two ``cudaDeviceSynchronize`` calls, timed
with ``perf_counter``; the repeats alternate arrayx and CuPy and the report is the median per
call. A device-wide synchronisation catches work on any stream, so the times hold whichever
stream arrayx launches on; host overhead between launches counts, as it does for a program.

Each row gives the bytes a call reads and writes, the bandwidth each library reaches and its
fraction of the card's peak (memory clock x 2 x bus width; from the device attributes, since
CUDA 13's ``cudaDeviceProp`` no longer has the memory clock), and arrayx's throughput over
CuPy's, whose target is 0.9 or more. A CuPy device-to-device copy gives, as a reference row,
what the card reaches in practice.

Skipped, with one line saying why, without CuPy, without a GPU or when arrayx lists no
``cuda`` device.
"""

from __future__ import annotations

import math
import platform
import time
from collections.abc import Callable
from statistics import median

import numpy as np

import arrayx as xp
from benchmarks.harness import Timing

__all__ = ["BASELINE", "TARGET", "run", "skip_reason", "suite_info", "table"]

#: The library the suite compares arrayx with (the JSON record's "numpy_s" holds its times).
BASELINE = "cupy"
#: arrayx's throughput over CuPy's should be at least this.
TARGET = 0.9
#: Elements of the 1-d cases, and the side of the square matrix.
N = 10**8
SIDE = 10**4
#: One timed loop lasts at least this long (seconds), unless one call is longer.
MIN_LOOP_S = 0.02
#: The most calls one timed loop makes.
MAX_CALLS = 500
WARMUP = 3
DEVICE = "cuda:0"
F4 = np.dtype(np.float32).itemsize

# What the last run found: the GPU's description (printed, and recorded in the JSON) and the
# notes of cases that failed or gave a wrong result.
_INFO: dict[str, object] = {}
_NOTES: list[str] = []


def skip_reason() -> str | None:
    """Why the suite cannot run here, or None when it can.

    Returns
    -------
    str or None
        The reason: CuPy missing, no GPU, or arrayx listing no ``cuda`` device.
    """
    try:
        import cupy
    except Exception as exc:  # ImportError, or a CUDA library that fails to load
        return f"CuPy is not importable ({type(exc).__name__}: {exc})"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        return f"no usable GPU ({type(exc).__name__}: {exc})"
    if count < 1:
        return "no GPU (CuPy counts 0 devices)"
    try:
        devices = xp.__array_namespace_info__().devices()
    except Exception as exc:
        return f"arrayx cannot list its devices ({type(exc).__name__}: {exc})"
    if not any(getattr(d, "kind", None) == "cuda" for d in devices):
        return (f"arrayx lists no cuda device ({', '.join(map(str, devices))}) although CuPy "
                f"sees {count} GPU(s)")
    return None


def _cuda_version(v: int) -> str:
    """A CUDA version number (``13000``) as text (``13.0``)."""
    return f"{v // 1000}.{v % 1000 // 10}" if v > 0 else str(v)


def _peak_bandwidth(cupy, props: dict) -> tuple[float | None, str]:
    """The card's peak memory bandwidth in bytes per second, and where its inputs came from.

    memoryClockRate (kHz) x 2 (double data rate) x memoryBusWidth / 8. CUDA 13 removed the
    memory clock from ``cudaDeviceProp``, so the device attributes come first.
    """
    rt = cupy.cuda.runtime
    clock_khz = bus_bits = 0
    source = "device attributes"
    try:
        clock_khz = rt.deviceGetAttribute(getattr(rt, "cudaDevAttrMemoryClockRate", 36), 0)
        bus_bits = rt.deviceGetAttribute(getattr(rt, "cudaDevAttrGlobalMemoryBusWidth", 37), 0)
    except Exception:
        pass
    if not clock_khz or not bus_bits:
        source = "cudaDeviceProp"
        clock_khz = props.get("memoryClockRate", 0) or 0
        bus_bits = props.get("memoryBusWidth", 0) or 0
    if not clock_khz or not bus_bits:
        return None, (f"unknown: memoryClockRate={clock_khz or 'absent/0'}, "
                      f"memoryBusWidth={bus_bits or 'absent/0'}; no fraction of peak")
    peak = clock_khz * 1e3 * 2 * bus_bits / 8
    return peak, (f"{peak / 1e9:.0f} GB/s ({source}: memory clock {clock_khz / 1e3:.0f} MHz "
                  f"x 2 x {bus_bits}-bit bus)")


def _describe_gpu(cupy) -> dict[str, object]:
    """The GPU, its peak bandwidth and the versions the timings are taken under."""
    rt = cupy.cuda.runtime
    info: dict[str, object] = {"baseline": BASELINE, "target (arrayx/cupy throughput)": TARGET}
    try:
        props = rt.getDeviceProperties(0)
    except Exception as exc:
        props = {}
        info["properties"] = f"unavailable ({type(exc).__name__}: {exc})"
    name = props.get("name", b"?")
    info["gpu"] = name.decode() if isinstance(name, bytes) else str(name)
    if props:
        info["compute capability"] = f"{props.get('major')}.{props.get('minor')}"
        info["multiprocessors"] = props.get("multiProcessorCount")
        info["memory"] = f"{props.get('totalGlobalMem', 0) / 2**30:.1f} GiB"
        info["L2"] = f"{props.get('l2CacheSize', 0) / 2**20:.0f} MiB"
    peak, text = _peak_bandwidth(cupy, props)
    info["peak bandwidth"] = text
    info["peak_bytes_per_s"] = peak
    for key, call in (("cuda runtime", rt.runtimeGetVersion), ("cuda driver",
                                                                 rt.driverGetVersion)):
        try:
            info[key] = _cuda_version(call())
        except Exception as exc:
            info[key] = f"unknown ({type(exc).__name__})"
    info["cupy"] = cupy.__version__
    info["numpy"] = np.__version__
    info["arrayx"] = xp.__version__
    info["python"] = platform.python_version()
    return info


def suite_info() -> dict[str, object]:
    """What the last run found: GPU, peak bandwidth, versions, notes (for the JSON record).

    Returns
    -------
    dict
        Empty when the suite has not run (or was skipped).
    """
    return {**_INFO, "notes": list(_NOTES)} if _INFO else {}


def _sync(cupy) -> Callable[[], None]:
    return cupy.cuda.runtime.deviceSynchronize


def _loop_s(fn: Callable[[], object], calls: int, sync: Callable[[], None]) -> float:
    """Seconds per call of ``calls`` back-to-back calls, between device synchronisations."""
    sync()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    sync()
    return (time.perf_counter() - start) / calls


def _calls_per_loop(fn: Callable[[], object], sync: Callable[[], None]) -> int:
    """Warm ``fn`` up (compiling its kernels), then size a loop to last ``MIN_LOOP_S``."""
    for _ in range(WARMUP):
        fn()
    one = _loop_s(fn, 1, sync)
    return max(1, min(MAX_CALLS, math.ceil(MIN_LOOP_S / max(one, 1e-7))))


def _to_cupy(cupy, a: object):
    """An arrayx GPU array as a CuPy array (DLPack, no copy; through the host if that fails)."""
    try:
        return cupy.from_dlpack(a)
    except Exception:
        return cupy.asarray(np.asarray(a.to_device("cpu")))


def _from_cupy(cupy, a: object) -> tuple[object, bool]:
    """A CuPy array as an arrayx one on cuda:0, and whether it shares CuPy's memory."""
    try:
        return xp.from_dlpack(a), True
    except Exception as exc:
        _NOTES.append(f"xp.from_dlpack(cupy array) failed ({type(exc).__name__}: {exc}); "
                      f"inputs copied through the host")
        return xp.asarray(cupy.asnumpy(a), device=DEVICE), False


def _check(cupy, got: object, want: object, kind: str) -> str | None:
    """None when arrayx's result ``got`` matches ``want`` (CuPy's), else what is wrong."""
    g = _to_cupy(cupy, got)
    w = want
    if g.shape != w.shape or g.dtype != w.dtype:
        return f"arrayx gives {g.dtype}{g.shape}, CuPy {w.dtype}{w.shape}"
    if kind == "exact":
        same = bool(cupy.array_equal(g, w))
    elif kind == "ulp":
        same = bool(cupy.allclose(g, w, rtol=1e-6, atol=0))
    else:  # a float32 sum: any summation order within 1e-4 of CuPy's
        same = bool(cupy.allclose(g.astype(cupy.float64), w.astype(cupy.float64), rtol=1e-4,
                                  atol=0))
    if not same:
        return "values differ from CuPy's"
    if kind == "exact" and g.ndim == 2 and not g.flags.c_contiguous:
        return f"the copy is not C-ordered (strides {g.strides})"
    return None


def _case(cupy, label: str, ax: Callable[[], object], cp: Callable[[], object], nbytes: int,
          kind: str, repeats: int) -> Timing | None:
    """Check and time one case; None (with a note) when arrayx's call raises."""
    sync = _sync(cupy)
    try:
        got = ax()
        sync()
    except Exception as exc:
        _NOTES.append(f"{label}: arrayx raised {type(exc).__name__}: {exc}")
        return None
    try:
        problem = _check(cupy, got, cp(), kind)
    except Exception as exc:
        problem = f"could not compare ({type(exc).__name__}: {exc})"
    del got
    if problem:
        _NOTES.append(f"{label}: WRONG, {problem}")
        label = f"{label} WRONG"
    t_ax, t_cp = [], []
    try:
        n_ax, n_cp = _calls_per_loop(ax, sync), _calls_per_loop(cp, sync)
        for _ in range(repeats):
            t_ax.append(_loop_s(ax, n_ax, sync))
            t_cp.append(_loop_s(cp, n_cp, sync))
    except Exception as exc:
        _NOTES.append(f"{label}: timing failed ({type(exc).__name__}: {exc})")
        return None
    return Timing(label, median(t_ax), median(t_cp), 1 / TARGET, nbytes)


def _reference_copy(cupy, src, repeats: int) -> None:
    """CuPy's device-to-device copy of ``src``: what the card reaches in practice."""
    dst = cupy.empty_like(src)
    sync = _sync(cupy)

    def copy() -> None:
        cupy.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, src.nbytes,
                                      cupy.cuda.runtime.memcpyDeviceToDevice,
                                      cupy.cuda.get_current_stream().ptr)

    calls = _calls_per_loop(copy, sync)
    seconds = median(_loop_s(copy, calls, sync) for _ in range(repeats))
    moved = 2 * src.nbytes
    peak = _INFO.get("peak_bytes_per_s")
    _INFO["cupy D2D copy"] = (f"{moved / seconds / 1e9:.0f} GB/s, read + written"
                              + (f", {moved / seconds / peak:.0%} of peak" if peak else "")
                              + f" ({src.nbytes / 1e9:.1f} GB copied)")
    _INFO["d2d_bytes_per_s"] = moved / seconds


def run(repeats: int) -> list[Timing]:
    """Time the GPU cases, arrayx against CuPy.

    Parameters
    ----------
    repeats : int
        Alternating repeats per case.

    Returns
    -------
    list of Timing
        One per case that ran (``numpy`` holds CuPy's time); empty when skipped.
    """
    _INFO.clear()
    _NOTES.clear()
    reason = skip_reason()
    if reason:
        print(f"cuda: skipped ({reason})")
        return []
    import cupy

    _INFO.update(_describe_gpu(cupy))
    for key, value in _INFO.items():
        if not key.endswith("_per_s"):
            print(f"{key}: {value}")
    pool = cupy.get_default_memory_pool()
    rng = cupy.random.default_rng(0)
    results: list[Timing] = []
    for group in (_vector_cases, _matrix_cases):
        results += _run_group(cupy, group(cupy, rng, repeats), repeats)
        pool.free_all_blocks()  # the group's arrays went with its cases
    return results


def _run_group(cupy, cases: list[tuple], repeats: int) -> list[Timing]:
    """Check and time ``cases``; their arrays are freed when this returns."""
    timings = [_case(cupy, *case, repeats) for case in cases]
    return [t for t in timings if t is not None]


def _vector_cases(cupy, rng, repeats: int) -> list[tuple]:
    """The cases on 10^8 float32: (label, arrayx call, CuPy call, bytes, check)."""
    a_cp = rng.random(N, dtype=cupy.float32)
    b_cp = rng.random(N, dtype=cupy.float32)
    try:
        _reference_copy(cupy, a_cp, repeats)
        print(f"cupy D2D copy: {_INFO['cupy D2D copy']}")
    except Exception as exc:
        _NOTES.append(f"the reference copy failed ({type(exc).__name__}: {exc})")
    a, shared = _from_cupy(cupy, a_cp)
    b, _ = _from_cupy(cupy, b_cp)
    _INFO["inputs"] = ("shared with CuPy through DLPack" if shared
                       else "copied (xp.from_dlpack failed)")
    if a.device != DEVICE:
        _NOTES.append(f"arrayx's input is on {a.device}, not {DEVICE}")
    return [
        ("x + y, 10^8 f32", lambda: a + b, lambda: a_cp + b_cp, 3 * N * F4, "exact"),
        ("sum, 10^8 f32", lambda: xp.sum(a), lambda: cupy.sum(a_cp), N * F4 + F4, "sum"),
        ("exp, 10^8 f32", lambda: xp.exp(a), lambda: cupy.exp(a_cp), 2 * N * F4, "ulp"),
    ]


def _matrix_cases(cupy, rng, repeats: int) -> list[tuple]:
    """The cases on a 10^4 x 10^4 float32 matrix."""
    m_cp = rng.random((SIDE, SIDE), dtype=cupy.float32)
    m, _ = _from_cupy(cupy, m_cp)
    size = SIDE * SIDE * F4
    return [
        ("sum(axis=0), 10^4 x 10^4 f32", lambda: xp.sum(m, axis=0),
         lambda: cupy.sum(m_cp, axis=0), size + SIDE * F4, "sum"),
        # asarray(copy=True) copies into a fresh C-ordered layout (contiguous_copy in
        # _array.pyx), so this writes the transpose out row by row, as ascontiguousarray does.
        ("C-order copy of x.T, 10^4 x 10^4 f32",
         lambda: xp.asarray(xp.permute_dims(m, (1, 0)), copy=True),
         lambda: cupy.ascontiguousarray(m_cp.T), 2 * size, "exact"),
    ]


def _wrong(t: Timing) -> bool:
    return t.name.endswith(" WRONG")


def _gbs(nbytes: int, seconds: float) -> str:
    return f"{nbytes / seconds / 1e9:7.0f}"


def table(timings: list[Timing]) -> str:
    """The timings as a text table, with bandwidths, fractions of peak and the ratio.

    Parameters
    ----------
    timings : list of Timing
        The cases, in the order to print them (``numpy`` holds CuPy's time).

    Returns
    -------
    str
        A header and one line per case, then the notes (failed or wrong cases); empty when
        the suite was skipped.
    """
    if not timings and not _NOTES:
        return ""
    peak = _INFO.get("peak_bytes_per_s")
    width = max([len(t.name) for t in timings] + [4])
    lines = [f"{'case':<{width}}  {'arrayx':>9}  {'cupy':>9}  {'bytes':>7}  "
             f"{'ax GB/s':>7}  {'cp GB/s':>7}  {'ax %pk':>6}  {'cp %pk':>6}  "
             f"{'ax/cp':>5}  target"]
    for t in timings:
        throughput = t.numpy / t.arrayx  # arrayx's throughput over CuPy's
        frac = (f"{t.nbytes / t.arrayx / peak:6.0%}  {t.nbytes / t.numpy / peak:6.0%}"
                if peak else f"{'?':>6}  {'?':>6}")
        verdict = (f">= {TARGET} {'ok' if throughput >= TARGET else 'MISSED'}"
                   if not _wrong(t) else "not met: wrong result")
        lines.append(f"{t.name:<{width}}  {t.arrayx * 1e3:6.3f} ms  {t.numpy * 1e3:6.3f} ms  "
                     f"{t.nbytes / 1e9:5.2f}GB  {_gbs(t.nbytes, t.arrayx)}  "
                     f"{_gbs(t.nbytes, t.numpy)}  {frac}  {throughput:5.2f}  {verdict}")
    if not peak:
        lines.append(f"(peak bandwidth {_INFO.get('peak bandwidth', 'unknown')})")
    met = sum(t.numpy / t.arrayx >= TARGET and not _wrong(t) for t in timings)
    lines.append("(times: median per call; bytes: read + written per call; %pk: of the peak "
                 "bandwidth; ax/cp: arrayx's throughput over CuPy's)")
    lines.append(f"targets met: {met}/{len(timings)} timed cases (of 5)")
    lines += [f"NOTE: {note}" for note in _NOTES]
    return "\n".join(lines)

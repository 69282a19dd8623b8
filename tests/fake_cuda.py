"""A stand-in for the CUDA backend that keeps "device" memory on the host, for testing the
engine's device paths on a machine without a GPU.

``install()`` makes ``cuda:0`` available with this backend: arrays there go through every
device branch of the engine (dtype and broadcasting work, temporaries, scalar uploads,
transfers, DLPack), and the backend's kernels are computed over views of the memory: elementwise
functions by arrayx's CPU kernels (the CUDA kernels are the same templates, with the same math
header), casts, reductions and scans by NumPy. The real kernels (``_kernels/cuda``) run only on a
GPU (tests/test_cuda.py there).
"""

from __future__ import annotations

import contextlib
import ctypes
import warnings
from collections.abc import Sequence

import numpy as np

import arrayx
from arrayx import _devices
from arrayx._kernels import dtypes, ops
from arrayx._kernels.cuda.lanes import Lanes

_NAMES = dtypes.NAMES


def _view(address: int, shape: Sequence[int], strides: Sequence[int], code: int) -> np.ndarray:
    dtype = np.dtype(_NAMES[code])
    isz = dtype.itemsize
    lo = sum(s * (n - 1) for s, n in zip(strides, shape, strict=True) if s < 0 and n)
    hi = sum(s * (n - 1) for s, n in zip(strides, shape, strict=True) if s > 0 and n)
    span = (hi - lo + 1) * isz if all(shape) else 0
    buf = (ctypes.c_char * max(span, 1)).from_address(address + lo * isz)
    return np.ndarray(tuple(shape), dtype, buffer=buf, offset=-lo * isz,
                      strides=tuple(s * isz for s in strides))


class FakeBackend(Lanes):
    """The methods of ``arrayx._kernels.cuda.runtime.Backend``, on host memory."""

    index = 0
    xm = np

    def view(self, address: int, shape: Sequence[int], strides: Sequence[int],
             code: int) -> np.ndarray:
        return _view(address, shape, strides, code)

    def _scatter_add(self, out: np.ndarray, idx: np.ndarray, values: np.ndarray) -> None:
        np.add.at(out, idx, values)

    def _argsort(self, v: np.ndarray) -> np.ndarray:
        return np.argsort(v, axis=-1, kind="stable")

    def linalg_checked(self) -> contextlib.nullcontext:
        return contextlib.nullcontext()  # numpy.linalg always raises

    def lu_factor_2d(self, a: np.ndarray) -> tuple:
        from scipy.linalg import LinAlgWarning, lu_factor

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LinAlgWarning)  # singular: det is 0, as cuSOLVER's
            return lu_factor(a)

    def allocate(self, nbytes: int, zero: bool) -> tuple[int, object]:
        memory = np.zeros(max(nbytes, 1) + 64, np.uint8)
        address = memory.ctypes.data
        address += -address % 64
        return address, memory

    def holds(self, address: int) -> bool:
        return True  # host memory is this device's memory

    def dlpack_stream(self) -> int:
        return 1

    def wait_on(self, stream: int) -> None:
        pass

    def upload(self, address: int, data: bytes) -> None:
        ctypes.memmove(address, bytes(data), len(data))

    def download(self, address: int, nbytes: int) -> bytes:
        return ctypes.string_at(address, nbytes)

    def copy_from_host(self, address: int, host_address: int, nbytes: int) -> None:
        ctypes.memmove(address, host_address, nbytes)

    def copy_to_host(self, host_address: int, address: int, nbytes: int) -> None:
        ctypes.memmove(host_address, address, nbytes)

    def elementwise(self, kind: str, op: str, codes: tuple[int, ...], shape: Sequence[int],
                    operands: Sequence[tuple[int, Sequence[int]]]) -> None:
        if kind == "cast":
            out = _view(operands[1][0], shape, operands[1][1], codes[1])
            with np.errstate(all="ignore"):
                out[...] = _view(operands[0][0], shape, operands[0][1], codes[0]).astype(
                    out.dtype)
            return
        if kind == "where":
            c = _view(operands[0][0], shape, operands[0][1], 0)
            x, y = (_view(a, shape, s, codes[0]) for a, s in operands[1:3])
            _view(operands[3][0], shape, operands[3][1], codes[0])[...] = np.where(c, x, y)
            return
        ins = [arrayx.asarray(_view(a, shape, s, codes[0]), device="cpu")
               for a, s in operands[:-1]]
        result = np.asarray(getattr(arrayx, op)(*ins))
        out_code = _NAMES.index(result.dtype.name)
        _view(operands[-1][0], shape, operands[-1][1], out_code)[...] = result

    def reduce(self, fold: int, code: int, address: int, shape, strides, axes, out) -> None:
        x = _view(address, shape, strides, code)
        name = ops.REDUCE[fold][0]
        fn = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}[name]
        if code == 0:
            fn = {"max": np.any, "min": np.all}.get(name, fn)
        result = np.ascontiguousarray(fn(x, axis=tuple(axes)), dtype=x.dtype)
        _view(out, result.shape, [s // x.itemsize for s in result.strides], code)[...] = result

    def argreduce(self, want_max, code, address, rows, n, row_stride, stride, out) -> None:
        x = _view(address, (rows, n), (row_stride, stride), code)
        _view(out, (rows,), (1,), 4)[...] = (np.argmax if want_max else np.argmin)(x, axis=1)

    def scan(self, fold, code, shape, source, target) -> None:
        x = _view(source[0], shape, source[1], code)
        fn = np.cumsum if ops.REDUCE[fold][0] == "sum" else np.cumprod
        _view(target[0], shape, target[1], code)[...] = fn(x, axis=-1)


def install(default: bool = False) -> None:
    """Make ``cuda:0`` available here, backed by :class:`FakeBackend` (and the default device
    with ``default``)."""
    fake = FakeBackend()
    _devices.register_backend("cuda", 1, lambda index: fake)
    if default:
        _devices.set_default_device("cuda:0")

"""The CUDA backend: device memory, kernel compilation and launches, through CuPy.

Memory comes from CuPy's pool (``cupy.cuda.alloc``) and lives as long as the ``Storage`` that
holds its ``MemoryPointer``. Kernels are the templates of :mod:`.source`, compiled by NVRTC
in :mod:`.compile` (IEEE float32, kept on disk in CuPy's kernel cache directory) and memoised
here per device and :class:`~.source.KernelKey`. They run on CuPy's current stream of the
device, so CuPy code and DLPack consumers see them in order. Launches go through the driver
(``cuLaunchKernel``) with their arguments packed here, as the templates take structs by value.

The engine calls :class:`Backend` with addresses, shapes and element strides it has already
broadcast; nothing here reads an ``Array``. CuPy is imported on first use only, so arrayx
imports without it.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Sequence

from .. import dtypes as registry
from .. import ops
from .compile import load_module
from .lanes import Lanes
from .source import KINDS, KernelKey, check_key, kernel_name, kind_ops, module_source, op_dtypes

__all__ = ["Backend", "backend", "cupy", "device_count"]

_BLOCK = 256
"""Threads per block of the elementwise, reduction and scan kernels."""

_INT32_MAX = 2**31 - 1

_PINNED_HOST, _DEVICE_MEMORY, _MANAGED = 1, 2, 3
"""The ``cudaMemoryType`` values of memory a kernel can read (``cudaPointerGetAttributes``):
host memory CUDA has pinned, one device's memory, managed memory; 0 is plain host memory."""

_FOLD_NAMES = [name for name, _, _ in ops.REDUCE]
_SCAN_BY_FUNCTOR = {functor: name for name, _, functor in ops.SCAN}


@functools.cache
def cupy():
    """CuPy, or None where it is not installed (imported once, on first use)."""
    try:
        import cupy as cp
    except ImportError:
        return None
    return cp


@functools.cache
def device_count() -> int:
    """The number of CUDA devices CuPy sees; 0 without CuPy, a driver or a GPU."""
    cp = cupy()
    if cp is None:
        return 0
    try:
        return int(cp.cuda.runtime.getDeviceCount())
    except cp.cuda.runtime.CUDARuntimeError:
        return 0


def _pack(values: Sequence[tuple[str, object]]) -> tuple[ctypes.Array, list]:
    """The ``void*`` array of kernel parameters ``cuLaunchKernel`` takes, and what keeps the
    values alive; each value is ``(ctype, value)`` with ctype ``p`` (pointer), ``i32``,
    ``i64`` or ``s32``/``s64`` (a struct of such integers, given as a sequence)."""
    keep = []
    for kind, value in values:
        if kind == "p":
            keep.append(ctypes.c_uint64(value))
        elif kind == "i32":
            keep.append(ctypes.c_int32(value))
        elif kind == "i64":
            keep.append(ctypes.c_int64(value))
        else:
            ctype = ctypes.c_int32 if kind == "s32" else ctypes.c_int64
            keep.append((ctype * len(value))(*value))
    params = (ctypes.c_void_p * len(keep))(*[ctypes.addressof(v) for v in keep])
    return params, keep


def coalesce(shape: Sequence[int], strides: Sequence[Sequence[int]],
             order: int = -1) -> tuple[list[int], list[list[int]]]:
    """The fewest axes that visit ``shape`` as ``strides`` (one row per operand) do.

    Unit axes are dropped, the rest ordered by the ``order``-th operand's strides (outermost
    first, the written operand by default, so writes go with the grain), then neighbours merge
    where every operand's ``stride[i] == stride[i + 1] * shape[i + 1]``.
    """
    axes = [i for i, n in enumerate(shape) if n != 1]
    axes.sort(key=lambda i: -abs(strides[order][i]))
    dims = [shape[i] for i in axes]
    rows = [[row[i] for i in axes] for row in strides]
    out_dims: list[int] = []
    out_rows: list[list[int]] = [[] for _ in rows]
    for j, n in enumerate(dims):
        if out_dims and all(r[-1] == row[j] * n for r, row in zip(out_rows, rows, strict=True)):
            out_dims[-1] *= n
            for r, row in zip(out_rows, rows, strict=True):
                r[-1] = row[j]
            continue
        out_dims.append(n)
        for r, row in zip(out_rows, rows, strict=True):
            r.append(row[j])
    return out_dims, out_rows


def _index_bits(size: int, shape: Sequence[int], rows: Sequence[Sequence[int]]) -> int:
    """32 when the element count and every operand's offsets stay below 2**31, else 64."""
    if size > _INT32_MAX:
        return 64
    for row in rows:
        if sum(abs(s) * (n - 1) for s, n in zip(row, shape, strict=True)) > _INT32_MAX:
            return 64
    return 32


class Backend(Lanes):
    """The kernels and memory of one CUDA device (``cuda:index``); sorts, searches, gathers
    and products (:class:`~.lanes.Lanes`) through CuPy on views of the same memory.

    Parameters
    ----------
    index : int
        The CUDA device number.
    """

    def __init__(self, index: int) -> None:
        cp = cupy()
        self.index = index
        self._cp = cp
        self._device = cp.cuda.Device(index)
        attributes = self._device.attributes
        self._sms = int(attributes["MultiProcessorCount"])
        self._functions: dict[KernelKey, object] = {}
        self._modules: dict[tuple, object] = {}
        self.xm = cp

    def view(self, address: int, shape: Sequence[int], strides: Sequence[int],
             code: int) -> object:
        """A ``cupy.ndarray`` over device memory arrayx owns (the caller keeps it alive)."""
        cp = self._cp
        isz = registry.ITEMSIZE[code]
        lo = sum(s * (n - 1) for s, n in zip(strides, shape, strict=True) if s < 0 and n)
        hi = sum(s * (n - 1) for s, n in zip(strides, shape, strict=True) if s > 0 and n)
        span = (hi - lo + 1) * isz if all(shape) else 0
        memory = cp.cuda.UnownedMemory(address + lo * isz, span, None, self.index)
        return cp.ndarray(tuple(shape), registry.NAMES[code],
                          memptr=cp.cuda.MemoryPointer(memory, -lo * isz),
                          strides=tuple(s * isz for s in strides))

    def holds(self, address: int) -> bool:
        """Whether this GPU's kernels can read the memory at ``address``: its own or managed
        memory, or host memory CUDA has pinned (``cudaPointerGetAttributes``). A DLPack
        producer that calls plain host memory a GPU's would otherwise make the first kernel
        fail with an illegal address, which spoils the whole CUDA context. Where the GPU reads
        pageable host memory (HMM or ATS, as on Grace Hopper) CUDA still reports it as
        unregistered, and it is refused too; so is any address CUDA fails to describe."""
        runtime = self._cp.cuda.runtime
        try:
            attributes = runtime.pointerGetAttributes(address)
        except runtime.CUDARuntimeError:
            return False
        kind = attributes.type
        if kind == _DEVICE_MEMORY:
            return attributes.device == self.index
        return kind in (_PINNED_HOST, _MANAGED)

    def _scatter_add(self, out: object, idx: object, values: object) -> None:
        import cupyx

        cupyx.scatter_add(out, idx, values)

    def linalg_checked(self) -> object:
        """The context in which CuPy's solvers check LAPACK's status and raise
        ``numpy.linalg.LinAlgError`` for a singular or not positive definite matrix (by
        default they return NaN and infinities)."""
        import cupyx

        return cupyx.errstate(linalg="raise")

    def lu_factor_2d(self, a: object) -> tuple:
        """The LU factors and 0-based pivots of one matrix (cuSOLVER's getrf)."""
        from cupyx.scipy.linalg import lu_factor

        return lu_factor(a)

    # --- memory -----------------------------------------------------------------------------

    def allocate(self, nbytes: int, zero: bool) -> tuple[int, object]:
        """``nbytes`` of device memory from CuPy's pool: ``(address, owner)``."""
        with self._device:
            memory = self._cp.cuda.alloc(nbytes)
            if zero and nbytes:
                memory.memset_async(0, nbytes)
        return memory.ptr, memory

    def stream(self) -> object:
        """CuPy's current stream of this device."""
        with self._device:
            return self._cp.cuda.get_current_stream()

    def dlpack_stream(self) -> int:
        """The current stream as DLPack names it to a producer: 1 for the legacy default
        stream (CuPy's null stream), else its handle."""
        ptr = self.stream().ptr
        return ptr if ptr else 1

    def wait_on(self, stream: int) -> None:
        """Make the CUDA stream ``stream`` (a handle; 1 and 2 are the legacy and per-thread
        default streams) wait for the work queued on this device's current stream."""
        current = self.stream()
        if stream == (current.ptr or 1):
            return
        with self._device:
            event = self._cp.cuda.Event(disable_timing=True)
            event.record(current)
            self._cp.cuda.ExternalStream(stream).wait_event(event)

    def upload(self, address: int, data: bytes | memoryview) -> None:
        """Copy host bytes to ``address``, in order on the current stream."""
        n = len(data)
        if n == 0:
            return
        host = ctypes.create_string_buffer(bytes(data), n)
        with self._device:
            stream = self._cp.cuda.get_current_stream()
            self._cp.cuda.runtime.memcpyAsync(address, ctypes.addressof(host), n,
                                              self._cp.cuda.runtime.memcpyHostToDevice,
                                              stream.ptr)
            stream.synchronize()

    def download(self, address: int, nbytes: int) -> bytes:
        """``nbytes`` at ``address`` copied to the host, after the work queued before."""
        host = ctypes.create_string_buffer(max(nbytes, 1))
        if nbytes:
            with self._device:
                stream = self._cp.cuda.get_current_stream()
                self._cp.cuda.runtime.memcpyAsync(ctypes.addressof(host), address, nbytes,
                                                  self._cp.cuda.runtime.memcpyDeviceToHost,
                                                  stream.ptr)
                stream.synchronize()
        return host.raw[:nbytes]

    def copy_from_host(self, address: int, host_address: int, nbytes: int) -> None:
        """Copy ``nbytes`` from host memory at ``host_address`` (kept alive by the caller)."""
        self._copy(address, host_address, nbytes, self._cp.cuda.runtime.memcpyHostToDevice)

    def copy_to_host(self, host_address: int, address: int, nbytes: int) -> None:
        """Copy ``nbytes`` at ``address`` into host memory at ``host_address``."""
        self._copy(host_address, address, nbytes, self._cp.cuda.runtime.memcpyDeviceToHost)

    def _copy(self, dst: int, src: int, nbytes: int, kind: int) -> None:
        """``memcpyAsync`` of ``kind`` on the current stream, waited for."""
        if nbytes:
            with self._device:
                stream = self._cp.cuda.get_current_stream()
                self._cp.cuda.runtime.memcpyAsync(dst, src, nbytes, kind, stream.ptr)
                stream.synchronize()

    # --- kernels ----------------------------------------------------------------------------

    def function(self, key: KernelKey) -> object:
        """The compiled kernel of ``key``: its module (:func:`module_keys`) is compiled by
        NVRTC on first use, or loaded from CuPy's disk cache."""
        found = self._functions.get(key)
        if found is None:
            check_key(key)
            group = module_keys(key)
            module = self._modules.get(group)
            if module is None:
                with self._device:
                    module = self._modules[group] = load_module(self._cp, module_source(group))
            with self._device:
                found = self._functions[key] = module.get_function(kernel_name(key))
        return found

    def _launch(self, key: KernelKey, grid: tuple[int, int], block: tuple[int, int],
                args: Sequence[tuple[str, object]]) -> None:
        fn = self.function(key)
        params, keep = _pack(args)
        with self._device:
            stream = self._cp.cuda.get_current_stream()
            self._cp.cuda.driver.launchKernel(
                fn.ptr, grid[0], grid[1], 1, block[0], block[1], 1, 0, stream.ptr,
                ctypes.addressof(params), 0)
        del keep

    def _grid(self, work: int, per_block: int = _BLOCK) -> int:
        """Blocks for ``work`` items of a grid-stride loop: enough to fill the device."""
        return max(1, min(-(-work // per_block), self._sms * 32))

    def elementwise(self, kind: str, op: str, codes: tuple[int, ...], shape: Sequence[int],
                    operands: Sequence[tuple[int, Sequence[int]]]) -> None:
        """Run an elementwise kernel over ``shape``: ``operands`` are ``(address, element
        strides over shape)``, inputs first and the written one last, each already in the
        dtype the kernel takes (``codes``: the key's dtype codes)."""
        size = 1
        for n in shape:
            size *= n
        if size == 0:
            return
        dims, rows = coalesce(shape, [s for _, s in operands])
        contiguous = len(dims) <= 1 and all(not r or r[0] == 1 for r in rows)
        bits = _index_bits(size, dims, rows)
        pointers = [("p", address) for address, _ in operands]
        integer = "i32" if bits == 32 else "i64"
        if kind == "cast" and _is_transpose(dims, rows):
            key = KernelKey("transpose", "transpose", codes, 0, True, bits)
            args = [(integer, dims[0]), (integer, dims[1]), (integer, rows[0][1]),
                    (integer, rows[1][0]), *pointers]
            self._launch(key, (-(-dims[1] // 32), -(-dims[0] // 32)), (32, 8), args)
            return
        if contiguous:
            key = KernelKey(kind, op, codes, 0, True, bits)
            args = [(integer, size), *pointers]
        else:
            if not dims:
                dims, rows = [1], [[0] for _ in rows]
            key = KernelKey(kind, op, codes, len(dims), False, bits)
            struct = [size, *dims, *[s for row in rows for s in row]]
            args = [("s32" if bits == 32 else "s64", struct), *pointers]
        self._launch(key, (self._grid(size), 1), (_BLOCK, 1), args)

    def reduce(self, fold: int, code: int, address: int, shape: Sequence[int],
               strides: Sequence[int], axes: Sequence[int], out: int) -> None:
        """Fold the elements at ``address`` (dtype ``code``) over ``axes`` into the
        C-ordered outputs at ``out`` (one per position of the other axes)."""
        op = _FOLD_NAMES[fold]
        kept = [i for i in range(len(shape)) if i not in axes]
        kdims, krow = _c_order(kept, shape, strides)
        rdims, rrow = _c_order(list(axes), shape, strides)
        n_out = _product(kdims)
        n_red = _product(rdims)
        if n_red == 0 or n_out == 0:
            return
        if len(kdims) == 1 and krow[0] == 1 and len(rdims) == 1 and n_out >= 32:
            self._reduce_columns(op, code, address, rdims[0], n_out, rrow[0], out)
            return
        # Enough blocks to fill the device; a second stage of few partials is one block each.
        chunks = 1 if n_out >= 4 * self._sms or n_red <= 1 << 16 else max(1, min(
            -(-n_red // (32 * _BLOCK)), (32 * self._sms) // n_out))
        partial, owner = (out, None) if chunks == 1 else self.allocate(
            n_out * chunks * _itemsize(code), False)
        dims = kdims + rdims or [1]
        row = krow + rrow or [0]
        size = n_out * n_red
        bits = _index_bits(size, dims, [row])
        contiguous = (not kdims or krow == [n_red]) and len(rdims) == 1 and rrow[0] == 1
        grid = (min(n_out * chunks, 2**31 - 1), 1)
        integer = "i32" if bits == 32 else "i64"
        if contiguous:
            key = KernelKey("reduce", op, (code,), 0, True, bits)
            args = [(integer, n_out), (integer, n_red), (integer, chunks), ("p", address),
                    ("p", partial)]
        else:
            key = KernelKey("reduce", op, (code,), len(dims), False, bits)
            struct = [n_out, n_red, chunks, len(kdims), *dims, *row]
            args = [("s32" if bits == 32 else "s64", struct), ("p", address), ("p", partial)]
        self._launch(key, grid, (_BLOCK, 1), args)
        if chunks > 1:
            self.reduce(fold, code, partial, [n_out, chunks], [chunks, 1], [1], out)
        del owner

    def _reduce_columns(self, op: str, code: int, address: int, rows: int, cols: int,
                        row_stride: int, out: int) -> None:
        """Fold ``rows`` rows (``row_stride`` apart) of ``cols`` contiguous columns, threads
        of a warp on neighbouring columns so that every read is coalesced."""
        col_blocks = -(-cols // 32)
        chunks = max(1, min(-(-rows // 64), (8 * self._sms) // col_blocks + 1))
        partial, owner = (out, None) if chunks == 1 else self.allocate(
            cols * chunks * _itemsize(code), False)
        bits = 64 if rows * abs(row_stride) + cols > _INT32_MAX or rows * cols > _INT32_MAX \
            else 32
        integer = "i32" if bits == 32 else "i64"
        key = KernelKey("colreduce", op, (code,), 0, True, bits)
        args = [(integer, rows), (integer, cols), (integer, row_stride), (integer, chunks),
                ("p", address), ("p", partial)]
        self._launch(key, (col_blocks, chunks), (32, 8), args)
        if chunks > 1:
            self._reduce_columns(op, code, partial, chunks, cols, cols, out)
        del owner

    def argreduce(self, want_max: bool, code: int, address: int, rows: int, n: int,
                  row_stride: int, stride: int, out: int) -> None:
        """The first position of the largest (``want_max``) or smallest element of each of
        ``rows`` lanes of ``n`` elements, into ``rows`` int64 at ``out``."""
        if rows == 0:
            return
        op = "argmax" if want_max else "argmin"
        size = rows * n
        dims, row = [rows, n], [row_stride, stride]
        bits = _index_bits(size, dims, [row])
        key = KernelKey("argreduce", op, (code,), 2, False, bits)
        struct = [rows, n, 1, 1, *dims, *row]
        self._launch(key, (min(rows, 2**31 - 1), 1), (_BLOCK, 1),
                     [("s32" if bits == 32 else "s64", struct), ("p", address), ("p", 0),
                      ("p", out)])

    def scan(self, fold: int, code: int, shape: Sequence[int], source: tuple[int, Sequence[int]],
             target: tuple[int, Sequence[int]]) -> None:
        """Running fold ``fold`` along the last axis of ``shape`` from ``source`` into
        ``target`` (each ``(address, element strides)``), both of dtype ``code``."""
        size = _product(shape)
        if size == 0:
            return
        op = _SCAN_BY_FUNCTOR[ops.REDUCE[fold][2]]
        bits = _index_bits(size, shape, [source[1], target[1]])
        key = KernelKey("scan", op, (code,), len(shape), False, bits)
        struct = [size, *shape, *source[1], *target[1]]
        rows = size // shape[-1]
        self._launch(key, (min(rows, 2**31 - 1), 1), (_BLOCK, 1),
                     [("s32" if bits == 32 else "s64", struct), ("p", source[0]),
                      ("p", target[0])])


_BY_SOURCE = frozenset({"cast", "transpose"})
"""Kinds whose modules are split by source dtype (13 x 13 dtype pairs in one would be slow)."""

_CONTIGUOUS_KINDS = frozenset({"colreduce", "transpose"})
"""Kinds with contiguous kernels only (``source.py``)."""

_MODULE_NDIMS = (1, 2, 3)
"""The strided axis counts compiled together in one module; keys of more axes are compiled
alone."""


def module_keys(key: KernelKey) -> tuple[KernelKey, ...]:
    """The keys compiled in one module with ``key``: every dtype of its kind and op (of its
    source dtype, for a cast), every layout of up to three axes, both index widths.

    NVRTC spends most of a compilation on the headers, so a module of a hundred kernels
    costs little more than one kernel (1.3 s against 0.9 s here).
    """
    if not key.contiguous and key.ndim not in _MODULE_NDIMS:
        return (key,)
    return _group(key.kind, key.op, key.dtypes[0] if key.kind in _BY_SOURCE else None)


@functools.cache
def _group(kind: str, op: str, source: int | None) -> tuple[KernelKey, ...]:
    layouts = [(0, True)] + [(n, False) for n in _MODULE_NDIMS]
    return tuple(KernelKey(kind, op, codes, ndim, contiguous, bits)
                 for codes in op_dtypes(kind, op) if source is None or codes[0] == source
                 for ndim, contiguous in layouts for bits in (32, 64)
                 if contiguous or kind not in _CONTIGUOUS_KINDS)


def all_modules() -> list[tuple[KernelKey, ...]]:
    """Every module :func:`module_keys` makes, for :func:`precompile`."""
    groups = []
    for kind in KINDS:
        for op in kind_ops(kind):
            sources = (sorted({c[0] for c in op_dtypes(kind, op)}) if kind in _BY_SOURCE
                       else [None])
            groups.extend(_group(kind, op, source) for source in sources)
    return groups


def _compile(group: tuple[KernelKey, ...]) -> str:
    load_module(cupy(), module_source(group)).get_function(kernel_name(group[0]))
    return kernel_name(group[0])


def precompile(processes: int = 8) -> int:
    """Compile every module into CuPy's disk cache, ``processes`` at a time; the number of
    modules. A fresh machine then runs its first kernels without waiting for NVRTC."""
    import multiprocessing

    groups = all_modules()
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        for _ in pool.imap_unordered(_compile, groups):
            pass
    return len(groups)


def _is_transpose(dims: Sequence[int], rows: Sequence[Sequence[int]]) -> bool:
    """Whether a two-operand iteration copies a column-major matrix to a row-major one (the
    tiled ``transpose`` kernel's case: both ends coalesced)."""
    return (len(dims) == 2 and len(rows) == 2 and rows[0][0] == 1 and rows[1][1] == 1
            and rows[0][1] >= dims[0] and rows[1][0] >= dims[1] and dims[0] >= 32
            and dims[1] >= 32 and -(-dims[0] // 32) < 65536)


def _product(values: Sequence[int]) -> int:
    total = 1
    for v in values:
        total *= v
    return total


def _itemsize(code: int) -> int:
    return registry.ITEMSIZE[code]


def _c_order(axes: list[int], shape: Sequence[int],
             strides: Sequence[int]) -> tuple[list[int], list[int]]:
    """The extents and strides of ``axes`` in C order with unit axes dropped and neighbours
    merged (argmax positions and output order depend on it, so axes are never reordered)."""
    dims: list[int] = []
    row: list[int] = []
    for i in axes:
        n, s = shape[i], strides[i]
        if n == 1:
            continue
        if dims and row[-1] == s * n:
            dims[-1] *= n
            row[-1] = s
        else:
            dims.append(n)
            row.append(s)
    return dims, row


_BACKENDS: dict[int, Backend] = {}


def backend(index: int) -> Backend:
    """The backend of ``cuda:index`` (made on first use)."""
    found = _BACKENDS.get(index)
    if found is None:
        found = _BACKENDS[index] = Backend(index)
    return found

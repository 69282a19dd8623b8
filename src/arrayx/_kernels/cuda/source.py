"""CUDA sources of arrayx's kernels, generated from the op table and the templates beside this.

A kernel is named by a :class:`KernelKey`: its kind, its op, its operands' dtype codes, the
number of axes of its coalesced layout, whether every operand is contiguous, and the width of
its index arithmetic. Shapes and strides are kernel arguments, never part of the source, so a
key's source serves every array of that layout class. :func:`kernel_source` turns a key into
the name and the self-contained source of one ``extern "C" __global__`` function (what a CuPy
``RawKernel`` is built from) and keeps it in an in-memory cache; :func:`module_source` puts
many kernels into one translation unit (a ``RawModule``, or the CI compile check).

Kinds, ops and dtypes:

- ``unary``, ``binary``: the ops of ``ops.UNARY`` and ``ops.BINARY``, dtypes ``(code,)``; the
  op's expression is the CPU one with ``std::`` calls mapped to ``cuda::std::``.
- ``cast``: op ``cast``, dtypes ``(source, destination)``, any two of the 13 dtypes.
- ``where``: op ``where``, dtypes ``(code,)`` of ``x``, ``y`` and the result.
- ``reduce``: the folds of ``ops.REDUCE`` (``sum``, ``prod`` of numeric dtypes; ``max``,
  ``min`` of real and bool ones: over bool they are ``any`` and ``all``), dtypes
  ``(accumulator,)``.
- ``argreduce``: ``ops.ARG_REDUCE`` (``argmax``, ``argmin`` of real dtypes); positions are
  int64.
- ``scan``: ``ops.SCAN`` (``cumulative_sum``, ``cumulative_prod``) along the last axis.
- ``colreduce``: the folds of ``reduce`` over the rows of contiguous columns (a C-ordered
  array reduced over its leading axes), contiguous only: threads of a warp read neighbouring
  columns of one row.
- ``transpose``: op ``transpose``, dtypes ``(source, destination)`` as a cast, between a
  column-major and a row-major matrix (a copy of ``x.T`` to C order), contiguous only: tiles
  through shared memory, so that reads and writes are both coalesced.

Strided kernels take a ``Strided`` (or, for reductions, ``ReduceParams``) struct by value, laid
out as consecutive integers of the index type (see ``ax_elementwise.cuh``, ``ax_reduce.cuh``);
contiguous kernels (``ndim`` 0 in the key) take plain counts. The 32-bit variant serves layouts
whose element count and every operand's element offsets stay below 2**31.

The source includes libcu++ headers (``<cuda/std/...>``), which nvcc finds by itself; NVRTC
needs the CUDA toolkit's ``include/cccl`` directory on its include path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from .. import dtypes, ops

HEADER_DIR = Path(__file__).parent
"""The directory of the ``*.cuh`` templates (package data)."""

# In dependency order; each is inlined into every generated source. The scalar math is the
# CPU's too (one __host__ __device__ header in _kernels/).
_HEADERS = (HEADER_DIR / "ax_types.cuh", HEADER_DIR.parent / "ax_math.hpp",
            HEADER_DIR / "ax_elementwise.cuh", HEADER_DIR / "ax_reduce.cuh",
            HEADER_DIR / "ax_scan.cuh")

DTYPE_NAMES = dtypes.NAMES
"""The 13 dtypes by arrayx dtype code (the order of ``ax_types.cuh``'s ``Code``)."""

_INT64 = DTYPE_NAMES.index("int64")

# The kind bits of ax_types.cuh (and ../cpu/ax_types.hpp) as sets of dtype codes.
_MASKS = {mask: frozenset(dtypes.codes_of(kinds)) for mask, kinds in dtypes.KIND_MASKS.items()}


def _mask_codes(mask: str) -> frozenset[int]:
    """The dtype codes of a C++ kind mask such as ``"K_INT | K_BOOL"``."""
    return frozenset().union(*(_MASKS[term.strip()] for term in mask.split("|")))


KIND_CODES = {kind: _mask_codes(mask) for kind, mask in ops.KIND_BITS.items()}
"""The dtype codes of each kind name of ``ops.KIND_BITS``."""

# Reductions, arg-reductions and scans, from ops.py as the CPU's: op -> (fold functor or
# argmax flag, kind mask).
_FOLDS = {name: (functor, ops.KIND_BITS[kinds]) for name, kinds, functor in ops.REDUCE}
_ARGFOLDS = {name: ("true" if want_max else "false", ops.KIND_BITS[kinds])
             for name, kinds, want_max in ops.ARG_REDUCE}
_SCANS = {name: (functor, ops.KIND_BITS[kinds]) for name, kinds, functor in ops.SCAN}
_FOLD_KINDS = {"reduce": _FOLDS, "colreduce": _FOLDS, "argreduce": _ARGFOLDS, "scan": _SCANS}

# Kinds whose kernels exist in the contiguous form only.
_CONTIGUOUS_ONLY = frozenset({"colreduce", "transpose"})

KINDS = ("unary", "binary", "cast", "where", "reduce", "argreduce", "scan", "colreduce",
         "transpose")
"""The kernel kinds, in the order :func:`all_keys` lists them."""

_ELEMENTWISE = {
    "unary": {name: (kinds, result, expr) for name, kinds, result, expr in ops.UNARY},
    "binary": {name: (kinds, result, expr) for name, kinds, result, expr in ops.BINARY},
}


class KernelKey(NamedTuple):
    """What a CUDA kernel is compiled for (DESIGN.md, decision 6).

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    op : str
        The op within its kind (see the module docstring).
    dtypes : tuple of int
        Dtype codes: one, or ``(source, destination)`` for a cast.
    ndim : int
        Axes of the coalesced layout; 0 for a contiguous kernel.
    contiguous : bool
        Whether every operand is contiguous (the kernel then takes counts only).
    index_bits : int
        32 or 64: the width of the kernel's index arithmetic.
    """

    kind: str
    op: str
    dtypes: tuple[int, ...]
    ndim: int
    contiguous: bool
    index_bits: int


def _op_mask(kind: str, op: str) -> str:
    """The C++ kind mask of the dtypes ``op`` of ``kind`` accepts."""
    if kind in _ELEMENTWISE:
        kinds, result, _ = _ELEMENTWISE[kind][op]
        mask = ops.KIND_BITS[kinds]
        # As on the CPU: integer and bool inputs of float ops are cast before the kernel.
        return f"({mask}) & K_FLOAT" if result == "float" else mask
    if kind in ("cast", "where", "transpose"):
        return "K_ALL"
    return _FOLD_KINDS[kind][op][1]


def kind_ops(kind: str) -> list[str]:
    """The ops of a kernel kind, in op-id order for ``unary`` and ``binary``.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.

    Returns
    -------
    list of str
    """
    if kind in _ELEMENTWISE:
        return list(_ELEMENTWISE[kind])
    if kind in ("cast", "where", "transpose"):
        return [kind]
    return list(_FOLD_KINDS[kind])


def op_dtypes(kind: str, op: str) -> list[tuple[int, ...]]:
    """The dtype-code tuples ``op`` of ``kind`` has kernels for, in code order.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.
    op : str
        One of ``kind_ops(kind)``.

    Returns
    -------
    list of tuple of int
    """
    if kind in _ELEMENTWISE:
        kinds, result, _ = _ELEMENTWISE[kind][op]
        codes = KIND_CODES[kinds]
        if result == "float":
            codes &= _MASKS["K_FLOAT"]
    else:
        codes = _mask_codes(_op_mask(kind, op))
    if kind in ("cast", "transpose"):
        return [(s, d) for s in sorted(codes) for d in sorted(codes)]
    return [(c,) for c in sorted(codes)]


def result_code(key: KernelKey) -> int:
    """The dtype code of the kernel's output (positions, for ``argreduce``)."""
    code = key.dtypes[-1]
    if key.kind in _ELEMENTWISE:
        result = _ELEMENTWISE[key.kind][key.op][1]
        if result == "bool":
            return 0
        if result == "real":
            return dtypes.component(code)
    if key.kind == "argreduce":
        return _INT64
    return code


def kernel_name(key: KernelKey) -> str:
    """The kernel's C name, e.g. ``ax_binary_add_float32_s2_i32`` or ``ax_cast_int8_bool_c_i64``."""
    dtypes = "_".join(DTYPE_NAMES[c] for c in key.dtypes)
    layout = "c" if key.contiguous else f"s{key.ndim}"
    op = "" if key.op == key.kind else f"{key.op}_"
    return f"ax_{key.kind}_{op}{dtypes}_{layout}_i{key.index_bits}"


def check_key(key: KernelKey) -> None:
    """Raise ``ValueError`` unless some kernel is generated for ``key``.

    Parameters
    ----------
    key : KernelKey
    """
    if key.kind not in KINDS or key.op not in kind_ops(key.kind):
        raise ValueError(f"no CUDA kernel of kind {key.kind!r} and op {key.op!r}")
    if tuple(key.dtypes) not in op_dtypes(key.kind, key.op):
        raise ValueError(f"{key.kind} {key.op} has no CUDA kernel for dtype codes {key.dtypes}")
    if key.index_bits not in (32, 64):
        raise ValueError(f"index_bits must be 32 or 64, not {key.index_bits}")
    if key.kind in _CONTIGUOUS_ONLY and not key.contiguous:
        raise ValueError(f"{key.kind} kernels are contiguous only")
    if key.contiguous != (key.ndim == 0) or key.ndim < 0:
        raise ValueError("a contiguous kernel has ndim 0 and a strided one ndim >= 1, "
                         f"not ndim {key.ndim} with contiguous={key.contiguous}")


@functools.cache
def _headers() -> str:
    """The dtype list, then the templates inlined in dependency order (their own includes of
    each other dropped)."""
    local = re.compile(r'^\s*(#pragma once|#include "[^"]*")\s*$')
    parts = [dtypes.cuda_header()]
    for path in _HEADERS:
        text = path.read_text()
        parts.append(f"// ---- {path.name}\n")
        parts.append("".join(line for line in text.splitlines(keepends=True)
                             if not local.match(line)))
    return "".join(parts)


def _device_expression(expr: str) -> str:
    """An op table expression with its ``std::`` calls mapped to libcu++'s ``cuda::std::``."""
    return re.sub(r"(?<![\w:])std::", "cuda::std::", expr)


def functor_source(kind: str, op: str) -> str:
    """The C++ functor ``ax::op_<op>`` of an elementwise op (host and device code).

    It is the CPU generator's functor with the expression's ``std::`` calls mapped to
    ``cuda::std::``; it belongs in namespace ``ax``.

    Parameters
    ----------
    kind : str
        ``"unary"`` or ``"binary"``.
    op : str
        One of ``kind_ops(kind)``.

    Returns
    -------
    str
    """
    args = "T a" if kind == "unary" else "T a, T b"
    expr = _device_expression(_ELEMENTWISE[kind][op][2])
    return (f"struct op_{op} {{ template <class T> AX_HD static auto f({args}) "
            f"{{ return {expr}; }} }};")


# The counts a contiguous kernel takes in place of a layout struct.
_COUNTS = {"reduce": ("n_out", "n_red", "chunks"), "argreduce": ("n_out", "n_red", "chunks"),
           "scan": ("rows", "n"), "colreduce": ("rows", "cols", "row_stride", "chunks"),
           "transpose": ("rows", "cols", "in_ld", "out_ld")}


def _kernel(key: KernelKey) -> str:
    """The ``extern "C"`` kernel of ``key``: a thin wrapper that instantiates a template."""
    ix = f"cuda::std::int{key.index_bits}_t"
    c, rc = key.dtypes[0], result_code(key)
    t, r = f"ax::T_<{c}>", f"ax::T_<{rc}>"
    mask = re.sub(r"\bK_", "ax::K_", _op_mask(key.kind, key.op))
    if key.kind in _ELEMENTWISE:
        res = ops._RESULT[_ELEMENTWISE[key.kind][key.op][1]]  # the CPU generator's rule names
        check = f"ax::op_accepts<{mask}, ax::{res}, {c}, {rc}>"
    else:
        check = f"((({mask}) >> {c}) & 1u) != 0"
    if key.kind in ("unary", "binary", "cast", "transpose"):
        fn = {"cast": "unary"}.get(key.kind, key.kind)
        cast = key.kind in ("cast", "transpose")
        functor = f"ax::op_cast_to<{r}>" if cast else f"ax::op_{key.op}"
        targs = f"{functor}, {t}, {r}"
        names = ["a", "b", "o"] if fn == "binary" else ["a", "o"]
        params = [f"const {t}* {x}" for x in names[:-1]] + [f"{r}* o"]
    elif key.kind == "where":
        fn, targs, names = "where", t, ["c", "x", "y", "o"]
        params = ["const bool* c", f"const {t}* x", f"const {t}* y", f"{t}* o"]
    elif key.kind in ("scan", "colreduce"):
        fn, targs, names = key.kind, f"ax::{_FOLD_KINDS[key.kind][key.op][0]}, {t}", ["in", "out"]
        params = [f"const {t}* in", f"{t}* out"]
    else:
        fn, names = key.kind, ["in", "out"]
        targs = (f"ax::{_FOLDS[key.op][0]}, {t}" if key.kind == "reduce"
                 else f"{_ARGFOLDS[key.op][0]}, {t}")
        params = [f"const {t}* in", f"{t}* out"]
        if key.kind == "argreduce":
            names.append("out_index")
            params.append("cuda::std::int64_t* out_index")
            if key.contiguous:
                names.insert(1, "in_index")
                params.insert(1, "const cuda::std::int64_t* in_index")
    if key.contiguous:
        counts = _COUNTS.get(key.kind, ("n",))
        head, call = [f"const {ix} {x}" for x in counts], [*counts, *names]
    else:
        struct = (f"ax::ReduceParams<{key.ndim}, {ix}>" if key.kind in ("reduce", "argreduce")
                  else f"ax::Strided<{key.ndim}, {len(params)}, {ix}>")
        head, call = [f"const {struct} p"], ["p", *names]
    layout = "contiguous" if key.contiguous else "strided"
    return (f'extern "C" __global__ void {kernel_name(key)}({", ".join(head + params)}) {{\n'
            f'    static_assert({check}, "{key.kind} {key.op}: dtype rule");\n'
            f"    ax::{fn}_{layout}<{targs}>({', '.join(call)});\n}}\n")


def module_source(keys: Iterable[KernelKey]) -> str:
    """One self-contained translation unit holding the kernels of ``keys``.

    Parameters
    ----------
    keys : iterable of KernelKey
        Each is checked with :func:`check_key`; duplicates are kept once.

    Returns
    -------
    str
        The templates, the functors of the elementwise ops used, and one ``extern "C"``
        kernel per key (named by :func:`kernel_name`).
    """
    keys = list(dict.fromkeys(keys))
    for key in keys:
        check_key(key)
    functors = dict.fromkeys((k.kind, k.op) for k in keys if k.kind in _ELEMENTWISE)
    lines = ["// Generated by arrayx/_kernels/cuda/source.py from ops.py and the *.cuh templates.",
             _headers(), "namespace ax {",
             *(functor_source(kind, op) for kind, op in functors), "}  // namespace ax", ""]
    lines.extend(_kernel(key) for key in keys)
    return "\n".join(lines)


_SOURCES: dict[KernelKey, tuple[str, str]] = {}


def kernel_source(key: KernelKey) -> tuple[str, str]:
    """The name and source of the kernel of ``key``, memoised in an in-memory cache.

    Parameters
    ----------
    key : KernelKey or tuple
        A plain tuple (with ``dtypes`` as any sequence) is taken as a ``KernelKey``.

    Returns
    -------
    tuple of str
        ``(kernel_name(key), module_source([key]))``.

    Raises
    ------
    ValueError
        If no kernel is generated for ``key``.
    """
    kind, op, dtypes, *rest = key
    key = KernelKey(kind, op, tuple(dtypes), *rest)
    found = _SOURCES.get(key)
    if found is None:
        found = _SOURCES[key] = (kernel_name(key), module_source([key]))
    return found


def all_keys(ndims: Iterable[int] = (1, 2, 3)) -> list[KernelKey]:
    """Every key the runtime can request, for strided layouts of ``ndims`` axes.

    Parameters
    ----------
    ndims : iterable of int
        The strided axis counts to enumerate (the runtime may ask for more); each op and
        dtype also gets its contiguous kernel. Both index widths are listed.

    Returns
    -------
    list of KernelKey
        In the order kind, op, dtypes, layout, index width.
    """
    layouts = [(0, True)] + [(n, False) for n in ndims]
    return [KernelKey(kind, op, dtypes, ndim, contiguous, bits)
            for kind in KINDS for op in kind_ops(kind) for dtypes in op_dtypes(kind, op)
            for ndim, contiguous in layouts for bits in (32, 64)
            if contiguous or kind not in _CONTIGUOUS_ONLY]

"""The CUDA kernels' sources: generated from the one op table, and every one compiles.

No GPU is needed: the compile check runs ``nvcc -ptx`` for sm_90 (skipped without nvcc). The
generator is loaded from this checkout's ``src`` tree by file path, so neither CuPy nor the
compiled arrayx extensions are needed.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

KERNELS = Path(__file__).resolve().parents[1] / "src" / "arrayx" / "_kernels"
_PACKAGE = "_arrayx_kernels_under_test"


def _load_kernels_package() -> None:
    """Import ``src/arrayx/_kernels`` as a stand-alone package (it imports nothing else)."""
    if _PACKAGE not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            _PACKAGE, KERNELS / "__init__.py", submodule_search_locations=[str(KERNELS)])
        package = importlib.util.module_from_spec(spec)
        sys.modules[_PACKAGE] = package
        spec.loader.exec_module(package)


_load_kernels_package()
ops = importlib.import_module(f"{_PACKAGE}.ops")
source = importlib.import_module(f"{_PACKAGE}.cuda.source")

NVCC = shutil.which("nvcc")
NVCC_FLAGS = ["-ptx", "-arch=sm_90", "-std=c++17", "--Werror", "all-warnings"]
# Keys per translation unit: big enough that header parsing is paid rarely, small enough that
# the units spread over the cores.
UNIT_KEYS = 1100


def _codes_where(predicate) -> frozenset[int]:
    """The dtype codes whose NumPy dtype satisfies ``predicate``."""
    return frozenset(c for c, name in enumerate(source.DTYPE_NAMES) if predicate(np.dtype(name)))


# The standard's dtype kinds, from NumPy (independently of the C++ kind bits).
NUMPY_KINDS = {
    "bool": _codes_where(lambda d: d.kind == "b"),
    "integer": _codes_where(lambda d: d.kind in "iu"),
    "integer_or_bool": _codes_where(lambda d: d.kind in "biu"),
    "real": _codes_where(lambda d: d.kind in "iuf"),
    "real_float": _codes_where(lambda d: d.kind == "f"),
    "float": _codes_where(lambda d: d.kind in "fc"),
    "numeric": _codes_where(lambda d: d.kind in "iufc"),
    "all": _codes_where(lambda d: True),
}


def _enum_codes(header: Path) -> list[str]:
    """The enumerators of a header's ``enum Code``, in order, without ``NCODES``."""
    body = re.search(r"enum Code : int \{(.*?)\};", header.read_text(), re.S).group(1)
    names = [n.split("=")[0].strip() for n in body.split(",")]
    return [n for n in names if n and n != "NCODES"]


def test_dtype_codes_match_the_cpu_and_numpy():
    expected = [name.upper() for name in source.DTYPE_NAMES]
    assert _enum_codes(KERNELS / "cuda" / "ax_types.cuh") == expected
    assert _enum_codes(KERNELS / "cpu" / "ax_types.hpp") == expected
    assert all(np.dtype(name).name == name for name in source.DTYPE_NAMES)


def test_kind_codes_match_numpy():
    assert source.KIND_CODES == NUMPY_KINDS


@pytest.mark.parametrize("kind, table", [("unary", ops.UNARY), ("binary", ops.BINARY)])
def test_elementwise_ops_are_the_cpu_table(kind, table):
    # Names, arity and order (the op id) come from the one declaration.
    assert source.kind_ops(kind) == [name for name, _, _ in ops.metadata(table)]
    for name, kinds, result in ops.metadata(table):
        accepted = NUMPY_KINDS[kinds]
        if result == "float":  # integer and bool inputs are cast to a float dtype first
            accepted &= NUMPY_KINDS["float"]
        dtypes = source.op_dtypes(kind, name)
        assert dtypes == [(c,) for c in sorted(accepted)], name
        for (code,) in dtypes:
            key = source.KernelKey(kind, name, (code,), 0, True, 32)
            dtype = np.dtype(source.DTYPE_NAMES[code])
            want = {"bool": np.dtype(bool), "real": np.zeros(1, dtype).real.dtype}.get(
                result, dtype)
            assert source.DTYPE_NAMES[source.result_code(key)] == want.name, (name, dtype)


def test_expressions_are_mapped_to_device_calls():
    text = source.module_source(
        source.KernelKey(kind, name, dtypes, 1, False, 64)
        for kind in ("unary", "binary") for name in source.kind_ops(kind)
        for dtypes in source.op_dtypes(kind, name)[:1])
    functors = [line for line in text.splitlines() if line.startswith("struct op_")
                and "op_cast_to" not in line]
    assert len(functors) == len(ops.UNARY) + len(ops.BINARY)
    assert not [f for f in functors if re.search(r"(?<![\w:])std::", f)]
    assert "cuda::std::atan2(a, b)" in text


def test_other_kinds():
    assert source.op_dtypes("cast", "cast") == [(s, d) for s in range(13) for d in range(13)]
    assert source.op_dtypes("where", "where") == [(c,) for c in range(13)]
    numeric = [(c,) for c in sorted(NUMPY_KINDS["numeric"])]
    real_or_bool = [(c,) for c in sorted(NUMPY_KINDS["real"] | NUMPY_KINDS["bool"])]
    assert source.op_dtypes("reduce", "sum") == source.op_dtypes("reduce", "prod") == numeric
    assert source.op_dtypes("reduce", "max") == source.op_dtypes("reduce", "min") == real_or_bool
    assert source.op_dtypes("argreduce", "argmax") == [(c,) for c in range(13)]
    assert source.op_dtypes("scan", "cumulative_sum") == numeric
    key = source.KernelKey("argreduce", "argmin", (10,), 2, False, 64)
    assert source.DTYPE_NAMES[source.result_code(key)] == "int64"


def test_keys_names_and_cache():
    keys = source.all_keys()
    names = [source.kernel_name(k) for k in keys]
    assert len(set(keys)) == len(keys) == len(set(names))
    assert all(re.fullmatch(r"ax_[a-z0-9_]+_(c|s[123])_i(32|64)", n) for n in names)
    key = source.KernelKey("binary", "add", (9,), 2, False, 32)
    name, text = source.kernel_source(key)
    assert name == "ax_binary_add_float32_s2_i32"
    assert source.kernel_source(tuple(key)) is source.kernel_source(key)
    assert f'extern "C" __global__ void {name}(' in text
    assert '#include "' not in text  # self-contained: the templates are inlined


@pytest.mark.parametrize("key", [
    ("binary", "add", (0,), 1, False, 32),          # add has no bool kernel
    ("unary", "sin", (3,), 1, False, 32),           # int inputs of float ops are cast first
    ("reduce", "sum", (0,), 0, True, 32),
    ("unary", "nope", (9,), 1, False, 32),
    ("unary", "sin", (9,), 1, True, 32),            # contiguous kernels have ndim 0
    ("unary", "sin", (9,), 0, False, 32),
    ("unary", "sin", (9,), 1, False, 16),
])
def test_bad_keys(key):
    with pytest.raises(ValueError):
        source.kernel_source(key)


def _compile(text: str, path: Path) -> str:
    """Compile one translation unit to PTX; return the PTX (fails the test on any diagnostic)."""
    path.write_text(text)
    ptx = path.with_suffix(".ptx")
    done = subprocess.run([NVCC, *NVCC_FLAGS, str(path), "-o", str(ptx)],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"{path.name}:\n{done.stderr[-6000:]}"
    assert not done.stderr.strip(), done.stderr[-6000:]
    return ptx.read_text()


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_every_kernel_compiles_for_sm90(tmp_path):
    keys = source.all_keys()
    units = []
    for kind in source.KINDS:
        family = [k for k in keys if k.kind == kind]
        for start in range(0, len(family), UNIT_KEYS):
            units.append((f"{kind}_{start // UNIT_KEYS}",
                          source.module_source(family[start:start + UNIT_KEYS])))
    # One single-kernel source per kind: what a RawKernel gets, on its own.
    samples = {}
    for key in keys:
        samples.setdefault(key.kind, key)
    units += [(f"single_{kind}", source.kernel_source(key)[1]) for kind, key in samples.items()]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        ptx = list(pool.map(lambda u: _compile(u[1], tmp_path / f"{u[0]}.cu"), units))
    entries = set()
    for text in ptx:
        entries.update(re.findall(r"\.entry\s+(\w+)\s*\(", text))
    assert entries == {source.kernel_name(k) for k in keys}

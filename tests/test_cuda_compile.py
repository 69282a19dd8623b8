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
import warnings
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
dtypes = importlib.import_module(f"{_PACKAGE}.dtypes")
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
    "real_or_bool": _codes_where(lambda d: d.kind in "biuf"),
    "real_float": _codes_where(lambda d: d.kind == "f"),
    "float": _codes_where(lambda d: d.kind in "fc"),
    "numeric": _codes_where(lambda d: d.kind in "iufc"),
    "all": _codes_where(lambda d: True),
}


def test_dtype_registry_matches_numpy_and_both_headers():
    # One declaration (dtypes.py): its facts against NumPy's, and the C++ and CUDA lists made
    # from it in code order.
    for code, name in enumerate(dtypes.NAMES):
        d = np.dtype(name)
        assert (dtypes.KIND[code], dtypes.ITEMSIZE[code]) == (d.kind, d.itemsize)
        assert dtypes.DLPACK_CODE[code] == {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}[d.kind]
        assert np.dtype({"Zf": "F", "Zd": "D"}.get(dtypes.FORMAT[code], dtypes.FORMAT[code])) == d
    assert source.DTYPE_NAMES == dtypes.NAMES
    expected = [name.upper() for name in dtypes.NAMES]
    kind_letters = {"K_BOOL": "b", "K_SINT": "i", "K_UINT": "u", "K_INT": "iu",
                    "K_REAL_FLOAT": "f", "K_COMPLEX": "c", "K_FLOAT": "fc", "K_REAL": "iuf",
                    "K_NUMERIC": "iufc", "K_ALL": "biufc"}
    numpy_bits = {name: sum(1 << c for c, d in enumerate(dtypes.NAMES)
                            if np.dtype(d).kind in letters)
                  for name, letters in kind_letters.items()}
    for header in (dtypes.generate_cpu_header(), dtypes.cuda_header()):
        codes = re.search(r"#define AX_DTYPES\(X\) (.*)", header).group(1)
        assert re.findall(r"X\((\w+),", codes) == expected
        kinds = re.search(r"#define AX_KINDS\(X\) (.*)", header).group(1)
        assert {k: int(v, 16) for k, v in re.findall(r"X\((\w+), (0x[0-9a-f]+)u\)", kinds)} \
            == numpy_bits
    assert "AX_DTYPES(AX_CODE)" in (KERNELS / "cpu" / "ax_types.hpp").read_text()
    assert "AX_DTYPES(AX_CODE)" in (KERNELS / "cuda" / "ax_types.cuh").read_text()


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
    assert "cuda::std::copysign(a, b)" in text


def test_other_kinds():
    assert source.op_dtypes("cast", "cast") == [(s, d) for s in range(13) for d in range(13)]
    assert source.op_dtypes("where", "where") == [(c,) for c in range(13)]
    numeric = [(c,) for c in sorted(NUMPY_KINDS["numeric"])]
    real_or_bool = [(c,) for c in sorted(NUMPY_KINDS["real_or_bool"])]
    assert source.op_dtypes("reduce", "sum") == source.op_dtypes("reduce", "prod") == numeric
    assert source.op_dtypes("reduce", "max") == source.op_dtypes("reduce", "min") == real_or_bool
    # As on the CPU (and argmax's check of its input): real dtypes only.
    assert source.op_dtypes("argreduce", "argmax") == [(c,) for c in sorted(NUMPY_KINDS["real"])]
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
    assert source.kernel_source(("binary", "add", [9], 2, False, 32))[0] == name
    assert f'extern "C" __global__ void {name}(' in text
    assert '#include "' not in text  # self-contained: the templates are inlined


@pytest.mark.parametrize("key", [
    ("binary", "subtract", (0,), 1, False, 32),     # subtract has no bool kernel
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


# --- the device math, run on the host -----------------------------------------------------------
# ax_math.hpp and the op functors are __host__ __device__, so a host program built by nvcc runs
# them here. That checks their logic (branches, NaN and sign-of-zero rules, shifts, integer
# division, casts) against NumPy; the device's libm precision is not checked.

NUMPY_NAMES = {"conj": "conjugate"}
# Results compared exactly (bit for bit, zeros' signs included, for the floating ones listed).
EXACT = {"abs", "negative", "positive", "logical_not", "bitwise_invert", "ceil", "floor",
         "trunc", "round", "conj", "real", "imag", "isnan", "isinf", "isfinite", "signbit",
         "add", "subtract", "multiply", "equal", "not_equal", "less", "less_equal", "greater",
         "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
         "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "maximum",
         "minimum", "copysign", "nextafter", "floor_divide", "remainder", "square", "sign"}
SIGNED_ZEROS = {"ceil", "floor", "trunc", "round", "negative", "copysign", "floor_divide",
                "remainder", "maximum", "minimum"}
FLOATS = [-np.inf, -2.5, -1.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.5, 3.0, 1e10, np.inf,
          np.nan]
PARTS = [-np.inf, -1.5, -0.0, 0.0, 0.5, 2.0, np.inf, np.nan]


def _inputs(dtype: np.dtype) -> np.ndarray:
    """Values of ``dtype`` with its edge cases (extremes, signed zeros, infinities, NaNs)."""
    if dtype.kind == "b":
        return np.array([False, True])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        values = [v for v in (-7, -2, -1, 0, 1, 2, 3, 7, 8, 16, 31, 32, 63, 64, 100)
                  if info.min <= v <= info.max]
        return np.array([info.min, *values, info.max], dtype)
    if dtype.kind == "f":
        return np.array(FLOATS, dtype)
    return np.array([complex(r, i) for r in PARTS for i in PARTS], dtype)


def _finite_inputs(x: np.ndarray) -> np.ndarray:
    """Transcendental functions of complex numbers are compared on finite inputs only."""
    return x[np.isfinite(x)] if x.dtype.kind == "c" else x


def _c_array(name: str, x: np.ndarray) -> str:
    data = ", ".join(str(b) for b in x.tobytes())
    return f"static const unsigned char {name}[] = {{{data}}};"


def _assert_close(got: np.ndarray, want: np.ndarray, exact: bool, what: str) -> None:
    if want.dtype.kind in "biu" or (exact and want.dtype.kind == "f"):
        np.testing.assert_array_equal(got, want, err_msg=what)
        if want.dtype.kind == "f":
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=what)
        return
    rtol = 2e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
    if want.dtype.kind == "c":
        if exact:
            _assert_close(got.real, want.real, exact, what + " (real)")
            _assert_close(got.imag, want.imag, exact, what + " (imag)")
            return
        # Each part to a tolerance of the modulus, as the CPU's elementwise tests compare.
        scale = rtol * np.abs(want)
        for part in ("real", "imag"):
            g, w = getattr(got, part), getattr(want, part)
            np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{what} ({part})")
            ok = np.isnan(w) | (g == w) | (np.abs(g - w) <= scale)
            assert ok.all(), f"{what} ({part}): got {g[~ok]}, want {w[~ok]}"
        return
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-30, equal_nan=True, err_msg=what)


def _host_results(tmp_path: Path, cases: list) -> bytes:
    """The results of ``cases`` ``(label, template arguments, a, b or None, expected)``,
    computed by the op functors in a host program that nvcc builds, one after another."""
    lines = [source.module_source([]), "namespace ax {"]
    lines += [source.functor_source(kind, name) for kind, table in
              (("unary", ops.UNARY), ("binary", ops.BINARY)) for name, _, _, _ in table]
    lines += ["}", "#include <cstdio>", "#include <cstring>", """
template <class T> T at(const unsigned char* p, int i) {
    T v; std::memcpy(&v, p + i * sizeof(T), sizeof(T)); return v;
}
template <class Op, class T, class R> void unary(const unsigned char* a, int n, FILE* f) {
    for (int i = 0; i < n; ++i) {
        R r = static_cast<R>(Op::f(at<T>(a, i))); fwrite(&r, sizeof r, 1, f);
    }
}
template <class Op, class T, class R>
void binary(const unsigned char* a, const unsigned char* b, int n, FILE* f) {
    for (int i = 0; i < n; ++i) {
        R r = static_cast<R>(Op::f(at<T>(a, i), at<T>(b, i))); fwrite(&r, sizeof r, 1, f);
    }
}"""]
    body = []
    for i, (_, targs, a, b, _) in enumerate(cases):
        lines.append(_c_array(f"a{i}", a))
        if b is None:
            body.append(f"    unary<{targs}>(a{i}, {a.size}, f);")
        else:
            lines.append(_c_array(f"b{i}", b))
            body.append(f"    binary<{targs}>(a{i}, b{i}, {a.size}, f);")
    lines += ["int main(int, char** argv) {", '    FILE* f = fopen(argv[1], "wb");', *body,
              "    return fclose(f);", "}"]
    program = tmp_path / "host_math.cu"
    program.write_text("\n".join(lines))
    exe = tmp_path / "host_math"
    done = subprocess.run([NVCC, "-std=c++17", "-arch=sm_90", str(program), "-o", str(exe)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-6000:]
    out = tmp_path / "results.bin"
    subprocess.run([str(exe), str(out)], check=True)
    return out.read_bytes()


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_device_math_on_the_host_matches_numpy(tmp_path):
    cases = []  # (label, C++ template arguments, first and second inputs, expected)
    inputs = {c: _inputs(np.dtype(n)) for c, n in enumerate(source.DTYPE_NAMES)}
    for kind, table in (("unary", ops.UNARY), ("binary", ops.BINARY)):
        for name, _, _, _ in table:
            func = getattr(np, NUMPY_NAMES.get(name, name))
            for (code,) in source.op_dtypes(kind, name):
                key = source.KernelKey(kind, name, (code,), 0, True, 64)
                t, r = f"ax::T_<{code}>", f"ax::T_<{source.result_code(key)}>"
                x = inputs[code] if name in EXACT else _finite_inputs(inputs[code])
                if kind == "unary":
                    a, b = x, None
                else:
                    a, b = (v.ravel() for v in np.meshgrid(x, x, indexing="ij"))
                    if name == "pow" and x.dtype.kind in "iu":  # NumPy refuses b < 0
                        a, b = a[b >= 0], b[b >= 0]
                    # Where the standard's rules (which the CPU follows) and NumPy's differ:
                    # floor(a / b) with an infinite operand, exp(b * log(a)) at a = 0.
                    keep = np.ones(a.shape, bool)
                    if name == "floor_divide" and x.dtype.kind == "f":
                        keep = np.isfinite(a) & np.isfinite(b)
                    if name == "pow" and x.dtype.kind == "c":
                        keep = a != 0
                    a, b = a[keep], b[keep]
                with np.errstate(all="ignore"):
                    want = func(a) if b is None else func(a, b)
                if name == "sign" and x.dtype.kind == "c":  # the standard's rule; NumPy's differs
                    want[np.isnan(a)] = complex(np.nan, np.nan)
                cases.append((f"{name} {x.dtype}", f"ax::op_{name}, {t}, {r}", a, b, want))
    for s, d in source.op_dtypes("cast", "cast"):
        # Values every dtype holds (out-of-range float-to-int casts are undefined in C++).
        x = np.array([0, 1, 2, 7, 100], source.DTYPE_NAMES[s]) if s else np.array([0, 1], bool)
        if x.dtype.kind in "fc":
            x = np.concatenate([x, np.array([2.5, 99.75], x.dtype)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            want = x.astype(source.DTYPE_NAMES[d])
        cases.append((f"cast {x.dtype} {want.dtype}",
                      f"ax::op_cast_to<ax::T_<{d}>>, ax::T_<{s}>, ax::T_<{d}>", x, None, want))

    results, at = _host_results(tmp_path, cases), 0
    for label, _, a, _, want in cases:
        size = want.dtype.itemsize * want.size
        got = np.frombuffer(results[at:at + size], want.dtype)
        at += size
        name = label.split()[0]
        exact = name in EXACT and not (want.dtype.kind == "c" and name in (
            "multiply", "square", "sign")) and not (name == "abs" and a.dtype.kind == "c")
        if want.dtype.kind == "c" and not exact:
            # Poles and overflows: C99's complex special values and NumPy's differ.
            got, want = got[np.isfinite(want)], want[np.isfinite(want)]
        _assert_close(got, want, exact or name == "cast", f"{label}: inputs {a}")
        if name in SIGNED_ZEROS and want.dtype.kind == "f":
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=label)
    assert at == len(results)


# libcu++'s asin, asinh, acos and acosh of complex numbers stray for complex64 from |z| ~ 10^3
# and overflow for large |z| in both precisions; its tanh and acosh miss special values.
COMPLEX_EDGES = [1 + 2720j, -1 + 2720j, -2720 + 1j, -2720 - 1j, 3e30 + 1e30j, -3e30 - 1e30j,
                 1e20j, complex(-0.0, 3e20), 3e20 - 2e20j, -3e20 + 2e20j, 0.5 - 0.25j, 2 + 3j]


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_device_complex_functions_at_large_and_special_values(tmp_path):
    cases = []
    for name in ("asin", "asinh", "acos", "acosh"):
        for dtype, code in ((np.complex64, 11), (np.complex128, 12)):
            x = np.array(COMPLEX_EDGES + ([3e300 + 1e300j] if code == 12 else []), dtype)
            want = getattr(np, "arc" + name[1:])(x)
            cases.append((f"{name} {x.dtype}", f"ax::op_{name}, ax::T_<{code}>, ax::T_<{code}>",
                          x, None, want))
    nan, inf = np.nan, np.inf
    special = [("acosh", complex(0.0, nan), complex(nan, np.pi / 2)),
               ("tanh", complex(0.0, inf), complex(0.0, nan)),
               ("tanh", complex(-0.0, inf), complex(-0.0, nan)),
               ("tanh", complex(0.0, nan), complex(0.0, nan))]
    for name, z, w in special:
        for dtype, code in ((np.complex64, 11), (np.complex128, 12)):
            cases.append((f"{name} {np.dtype(dtype)} special",
                          f"ax::op_{name}, ax::T_<{code}>, ax::T_<{code}>",
                          np.array([z], dtype), None, np.array([w], dtype)))
    results, at = _host_results(tmp_path, cases), 0
    for label, _, a, _, want in cases:
        size = want.dtype.itemsize * want.size
        got = np.frombuffer(results[at:at + size], want.dtype)
        at += size
        if label.endswith("special"):  # the standard's special values, zeros' signs included
            for part in ("real", "imag"):
                g, w = getattr(got, part), getattr(want, part)
                np.testing.assert_array_equal(g, w, err_msg=f"{label}: input {a}")
                np.testing.assert_array_equal(np.signbit(g[~np.isnan(g)]),
                                              np.signbit(w[~np.isnan(w)]), err_msg=label)
        else:
            _assert_close(got, want, False, f"{label}: inputs {a}")
    assert at == len(results)


# Parts of complex special values: zeros of both signs, ones (the branch points), finite
# values, infinities and NaN, and values where exp overflows or that are subnormal.
SPECIAL_PARTS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0, np.inf, -np.inf, np.nan,
                 3e38, -1e-40, 100.0, -710.0, 1e-20, -1e30, 1e300, -5e-324]
# Functions whose zero and infinite results may differ from the CPU's in sign: reciprocal's
# complex division is libcu++'s on the device and the C compiler's on the host, and C99 leaves
# those signs open. Every other function matches the CPU's signs too.
LOOSE_SIGNS = {"reciprocal"}


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_device_complex_special_values_match_the_cpu(tmp_path):
    # The CPU's complex functions (the C library's, which follow C99's Annex G and pass the
    # standard's special cases in the conformance suite) are the oracle: the device code gives
    # the same special values, zeros' and infinities' signs included, and finite values close.
    xp = pytest.importorskip("arrayx")
    parts = np.array(SPECIAL_PARTS)
    re, im = (v.ravel() for v in np.meshgrid(parts, parts, indexing="ij"))
    cases = []
    for name, _, _, _ in ops.UNARY:
        for (code,) in source.op_dtypes("unary", name):
            dtype = np.dtype(source.DTYPE_NAMES[code])
            if dtype.kind != "c":
                continue
            z = np.empty(re.shape, dtype)
            with np.errstate(over="ignore"):  # 1e300 is an infinity in complex64
                z.real, z.imag = re, im
            if name == "reciprocal":
                # 1 / z overflows for a subnormal part, where C's complex division gives NaN
                # + inf i and libcu++'s 0 + inf i: neither is a special value of the standard.
                sub = np.finfo(dtype).tiny
                z = z[~(((np.abs(z.real) < sub) & (z.real != 0))
                        | ((np.abs(z.imag) < sub) & (z.imag != 0)))]
            want = np.asarray(getattr(xp, name)(xp.asarray(z, device="cpu")))
            key = source.KernelKey("unary", name, (code,), 0, True, 64)
            r = f"ax::T_<{source.result_code(key)}>"
            cases.append((f"{name} {dtype}", f"ax::op_{name}, ax::T_<{code}>, {r}", z, None, want))
    results, at, wrong = _host_results(tmp_path, cases), 0, []
    for label, _, z, _, want in cases:
        size = want.dtype.itemsize * want.size
        got = np.frombuffer(results[at:at + size], want.dtype)
        at += size
        name = label.split()[0]
        gparts = (got.real, got.imag) if got.dtype.kind == "c" else (got,)
        wparts = (want.real, want.imag) if want.dtype.kind == "c" else (want,)
        scale = np.abs(want) * (2e-5 if want.dtype in (np.float32, np.complex64) else 1e-12)
        bad = np.zeros(z.shape, bool)
        for g, w in zip(gparts, wparts, strict=True):
            g, w = np.asarray(g, float), np.asarray(w, float)
            special = ~np.isfinite(w) | (w == 0)
            loose = name in LOOSE_SIGNS
            same = (np.isnan(g) & np.isnan(w)) | ((g == w) & (
                (np.signbit(g) == np.signbit(w)) | loose)) | (
                np.isinf(g) & np.isinf(w) & loose)
            with np.errstate(invalid="ignore"):  # inf - inf
                close = np.isfinite(g) & (np.abs(g - w) <= scale)
            # a zero where the correctly rounded value is a subnormal of the same sign
            same |= (w == 0) & (np.abs(g) < np.finfo(z.dtype).tiny) & (
                np.signbit(g) == np.signbit(w))
            bad |= np.where(special, ~same, ~(same | close))
        wrong += [f"{label}({v!r}): device {g!r}, CPU {w!r}"
                  for v, g, w in zip(z[bad], got[bad], want[bad], strict=True)]
    assert at == len(results)
    assert not wrong, f"{len(wrong)} values differ:\n" + "\n".join(wrong[:400])


def test_launch_parameters_are_packed_by_value():
    # cuLaunchKernel reads each parameter at its address: the pointer, the integers and the
    # stride structs the elementwise kernels take by value (lists included).
    import ctypes

    runtime = importlib.import_module(f"{_PACKAGE}.cuda.runtime")
    params, keep = runtime._pack([("p", 0xDEADBEEF000), ("i32", -7), ("i64", 2**40),
                                  ("s64", [12, 3, 4, -1]), ("s32", (5, 6))])
    assert len(params) == len(keep) == 5
    assert ctypes.c_uint64.from_address(params[0]).value == 0xDEADBEEF000
    assert ctypes.c_int32.from_address(params[1]).value == -7
    assert ctypes.c_int64.from_address(params[2]).value == 2**40
    assert list((ctypes.c_int64 * 4).from_address(params[3])) == [12, 3, 4, -1]
    assert list((ctypes.c_int32 * 2).from_address(params[4])) == [5, 6]

"""The ISA level the kernels run at: chosen at import, capped by ARRAYX_CPU_LEVEL.

Each check runs in a fresh interpreter, since the level is chosen once, at import. The rest of
the suite runs at whatever level the environment gives; CI (``.ci/run``) runs it at every
level this machine has.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from arrayx._kernels.cpu import dispatch

PROBE = """
import json, numpy as np, arrayx as xp
from arrayx._kernels.cpu import dispatch
rng = np.random.default_rng(0)
a = rng.standard_normal(100_003)
x = xp.asarray(a)
print(json.dumps({
    "level": dispatch.level(),
    "sum": float(xp.sum(x)),
    "exp": np.asarray(xp.exp(x)).tolist()[:1000],
    "max": float(xp.max(x)),
    "argmax": int(xp.argmax(x)),
}))
"""


def run_probe(cap: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("ARRAYX_CPU_LEVEL", None)
    if cap is not None:
        env["ARRAYX_CPU_LEVEL"] = cap
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=120)


def test_levels_are_ordered_and_the_baseline_is_always_there() -> None:
    assert dispatch.LEVELS == ("baseline", "avx2", "avx512")
    assert dispatch.built_levels()[0] == "baseline"
    assert set(dispatch.supported_levels()) <= set(dispatch.built_levels())
    assert dispatch.level() in dispatch.supported_levels()


def test_unset_cap_takes_the_best_level() -> None:
    done = run_probe(None)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["level"] == dispatch.supported_levels()[-1]


@pytest.mark.parametrize("cap", dispatch.LEVELS)
def test_cap_gives_the_best_level_up_to_it(cap: str) -> None:
    done = run_probe(cap)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    supported = dispatch.supported_levels()
    allowed = [lv for lv in supported if dispatch.LEVELS.index(lv) <= dispatch.LEVELS.index(cap)]
    assert result["level"] == allowed[-1]
    rng = np.random.default_rng(0)
    a = rng.standard_normal(100_003)
    np.testing.assert_allclose(result["sum"], a.sum(), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(result["exp"], np.exp(a[:1000]), rtol=4e-16 * 4)
    assert result["max"] == a.max()
    assert result["argmax"] == int(np.argmax(a))


@pytest.mark.parametrize("cap", ["AVX2", "sse2", "x86-64-v4", "fast"])
def test_unknown_cap_is_an_error_naming_the_accepted_values(cap: str) -> None:
    done = run_probe(cap)
    assert done.returncode != 0
    assert "ValueError" in done.stderr
    assert "ARRAYX_CPU_LEVEL must be one of baseline, avx2, avx512" in done.stderr


# Every elementwise function on every dtype, its result's bits at each level (NaNs as one
# value: their sign and payload are not specified). Contiguous runs take the vector loops,
# a strided view the scalar ones; the inputs hold the special values and subnormals.
EVERY_ELEMENTWISE = """
import hashlib, inspect, json, numpy as np, arrayx as xp
rng = np.random.default_rng(5)
special = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, np.inf, -np.inf, np.nan, 5e-324, 1e-310, 1e300,
           -1e300, 710.0, -745.0, 3.0, 1e-8, 100.0]
def values(dtype, k):
    dt = np.dtype(dtype)
    if dt == bool:
        return rng.integers(0, 2, 2003).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        small = rng.integers(max(info.min, -70), 70, 1000)
        full = rng.integers(info.min, info.max, 1003, dtype=dt, endpoint=True)
        return np.concatenate([small.astype(dt), full])
    real = np.concatenate([np.array(special * 3), rng.standard_normal(1000) * 10 ** (k + 1),
                           rng.uniform(-1, 1, 949)])
    rng.shuffle(real)
    if dt.kind == "c":
        imag = np.roll(real, 7 + k)
        return (real + 1j * imag).astype(dt)
    return real.astype(dt)
def digest(r):
    a = np.array(r)
    if a.dtype.kind in "fc":
        a = a.copy()
        flat = a.view(a.real.dtype) if a.dtype.kind == "c" else a
        flat[np.isnan(flat)] = np.nan
    return hashlib.sha1(a.tobytes()).hexdigest() + str(a.dtype)
out = {}
for name in xp._elementwise.__all__:
    f = getattr(xp, name)
    nargs = 3 if name == "clip" else len([p for p in inspect.signature(f).parameters.values()
                                          if p.kind == p.POSITIONAL_ONLY])
    for dt in ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float32", "float64", "complex64", "complex128"]:
        ins = [xp.asarray(values(dt, k)) for k in range(min(nargs, 2))]
        for layout, args in (("run", ins), ("strided", [a[::3] for a in ins])):
            try:
                r = f(*args) if name != "clip" else f(args[0], min=args[1][0], max=args[1][1])
            except (TypeError, ValueError) as e:
                r = type(e).__name__
            out[f"{name} {dt} {layout}"] = r if isinstance(r, str) else digest(r)
print(json.dumps(out))
"""

# The functions whose float32 and float64 runs call glibc's vector math library at the avx2
# and avx512 levels (docs/guide/cpu_levels.md, "What each level changes"): their results on
# real inputs (integers compute in float64) may differ in the last bits from the baseline's C
# library, within the accuracy bounds documented there. complex128 multiply is the one other
# difference documented there (GCC fuses the complex product into vfmaddsub at avx2/avx512).
VECTOR_MATH = {"exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "sinh",
               "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "pow",
               "hypot", "atan2"}


def test_every_elementwise_function_gives_the_same_bits_at_every_level() -> None:
    results = {}
    for level in dispatch.supported_levels():
        env = {**os.environ, "ARRAYX_CPU_LEVEL": level}
        done = subprocess.run([sys.executable, "-c", EVERY_ELEMENTWISE], env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        results[level] = json.loads(done.stdout)
    base = results["baseline"]
    for level, got in results.items():
        assert got.keys() == base.keys()
        differ = {key for key in base if got[key] != base[key]}
        undocumented = {key for key in differ
                        if not (key.split()[0] in VECTOR_MATH
                                and not key.split()[1].startswith("complex"))
                        and key.split()[:2] != ["multiply", "complex128"]}
        assert not undocumented, f"{level} differs from baseline in {sorted(undocumented)}"

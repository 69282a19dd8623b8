"""arrayx through the PyData stack, as a user runs it: dask.array on arrayx chunks (threaded
scheduler and a distributed LocalCluster of processes), xarray, Cubed (single-threaded, threads
and processes executors) and scikit-learn's array API dispatch. Every result must be an arrayx
array with NumPy's values, computed the same way on NumPy data."""

from __future__ import annotations

import operator
import os
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import arrayx as xp

A = np.arange(48.0).reshape(6, 8) / 7.0
A_NAN = A.copy()
A_NAN[1, 2] = A_NAN[4, 0] = np.nan


def same(got: object, expected: object) -> None:
    assert isinstance(got, xp.Array), type(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape and got.dtype == expected.dtype, (got, expected)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, atol=1e-12,
                               equal_nan=True)


# --- dask.array -------------------------------------------------------------------------------

DASK = {
    "add": lambda d, m: d + 1,
    "sum-axis0": lambda d, m: d.sum(axis=0),
    "exp": lambda d, m: m.exp(d),
    "matmul": lambda d, m: d @ d.T,
    "slice": lambda d, m: d[1:3, ::2],
    "map_blocks-sqrt": lambda d, m: d.map_blocks(m.sqrt_func),
    "mean": lambda d, m: d.mean(),
    "std-axis1": lambda d, m: d.std(axis=1),
    "var": lambda d, m: d.var(ddof=1),
    "max-axis0": lambda d, m: d.max(axis=0),
    "cumsum": lambda d, m: d.cumsum(axis=0),
    "nanmean": lambda d, m: m.nanmean(d, axis=0),
    "nansum": lambda d, m: m.nansum(d),
    "argmax": lambda d, m: d.argmax(axis=1),
    "concatenate": lambda d, m: m.concatenate([d, d], axis=1),
    "where": lambda d, m: m.where(d > 3, d, 0.0),
    "rechunk-reshape": lambda d, m: d.rechunk((2, 8)).reshape(48),
    "transpose-sum": lambda d, m: (d.T * 2).sum(axis=1),
    "mixed-numpy": lambda d, m: d + np.ones(8),
}


class _Dask:
    """dask.array's functions, with the chunk function ``map_blocks`` gets for each side."""

    def __init__(self, sqrt: Callable) -> None:
        import dask.array as da
        self.da, self.sqrt_func = da, sqrt

    def __getattr__(self, name: str) -> object:
        return getattr(self.da, name)


def _dask_pair(case: str, data: np.ndarray) -> tuple:
    da = pytest.importorskip("dask.array")
    d_x = da.from_array(xp.asarray(data), chunks=(3, 4), asarray=False)
    d_n = da.from_array(data, chunks=(3, 4))
    return DASK[case](d_x, _Dask(xp.sqrt)), DASK[case](d_n, _Dask(np.sqrt))


@pytest.mark.parametrize("case", sorted(DASK))
def test_dask_threaded(case: str) -> None:
    data = A_NAN if case.startswith("nan") else A
    got, expected = _dask_pair(case, data)
    assert isinstance(got._meta, xp.Array)
    same(got.compute(scheduler="threads"), expected.compute(scheduler="threads"))


@pytest.fixture(scope="module")
def cluster_client() -> Iterator[object]:
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address=None)
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def test_dask_tokens_name_dtype_shape_and_contents() -> None:
    # dask names a graph by a token of the array's contents; without __dask_tokenize__ it
    # pickled the whole array (15x NumPy's time).
    base = pytest.importorskip("dask.base")
    a = np.random.default_rng(4).random((300, 200))
    x = xp.asarray(a)
    assert base.tokenize(x) == base.tokenize(xp.asarray(a.copy()))
    assert base.tokenize(x) == base.tokenize(xp.asarray(np.asfortranarray(a)))  # same values
    assert base.tokenize(x) != base.tokenize(x + 1.0)
    assert base.tokenize(x) != base.tokenize(x.mT)
    assert base.tokenize(x) != base.tokenize(xp.reshape(x, (200, 300)))
    assert base.tokenize(x) != base.tokenize(xp.astype(x, xp.float32))
    assert base.tokenize(x) != base.tokenize(a)  # an arrayx array is not the NumPy array
    kind, dtype, shape, digest = x.__dask_tokenize__()
    assert (kind, dtype, shape) == ("arrayx.Array", "<f8", (300, 200))
    assert digest == _reference_digest(a.tobytes())


# ax_hash.hpp, written again in Python: blocks of 2^20 bytes, eight lanes of xxHash64's round.
_P1, _P2, _P3, _P4, _P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                           0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
_M = (1 << 64) - 1


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M


def _round(acc: int, word: int) -> int:
    return _rotl((acc + word * _P2) & _M, 31) * _P1 & _M


def _hash_bytes(data: bytes, seed: int) -> int:
    n = len(data)
    stripes = n // 64
    words = np.frombuffer(data[:stripes * 64], dtype="<u8").reshape(stripes, 8)
    lane = (np.uint64(seed) + np.uint64(_P1) * np.arange(1, 9, dtype=np.uint64))
    with np.errstate(over="ignore"):
        for row in words:  # the round over all eight lanes at once
            t = lane + row * np.uint64(_P2)
            lane = ((t << np.uint64(31)) | (t >> np.uint64(33))) * np.uint64(_P1)
    h = (seed + _P5 + n) & _M
    for v in lane.tolist():
        h = (_rotl(h ^ _round(0, v), 27) * _P1 + _P4) & _M
    rest = data[stripes * 64:]
    while len(rest) >= 8:
        h = (_rotl(h ^ _round(0, int.from_bytes(rest[:8], "little")), 27) * _P1 + _P4) & _M
        rest = rest[8:]
    for byte in rest:
        h = _rotl(h ^ (byte * _P5 & _M), 11) * _P1 & _M
    h ^= h >> 33
    h = h * _P2 & _M
    h ^= h >> 29
    h = h * _P3 & _M
    return h ^ (h >> 32)


def _reference_digest(data: bytes) -> str:
    block = 1 << 20
    hashes = b"".join(_hash_bytes(data[i:i + block], i // block).to_bytes(8, "little")
                      for i in range(0, len(data), block))
    n = len(data)
    return (_hash_bytes(hashes, n).to_bytes(8, "little")
            + _hash_bytes(hashes, n ^ _P4).to_bytes(8, "little")).hex()


@pytest.mark.parametrize("n", [0, 1, 7, 8, 63, 64, 65, 130, 1000, (1 << 20) - 8, (1 << 20) + 77])
def test_content_digest_is_the_documented_hash(n: int) -> None:
    data = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8)
    x = xp.asarray(data)
    assert x.__dask_tokenize__()[3] == _reference_digest(data.tobytes())


def test_content_digest_sees_every_byte_on_any_thread_count() -> None:
    # 9 blocks and a tail: past the size at which the blocks are hashed over threads.
    data = np.random.default_rng(5).integers(0, 256, 9 * (1 << 20) + 13, dtype=np.uint8)
    token = xp.asarray(data).__dask_tokenize__()
    before = xp.get_num_threads()
    try:
        xp.set_num_threads(1)
        assert xp.asarray(data).__dask_tokenize__() == token
    finally:
        xp.set_num_threads(before)
    seen = {token[3]}
    for i in (0, 1, (1 << 20) - 1, 1 << 20, 5 * (1 << 20) + 4097, data.size - 1):
        changed = data.copy()
        changed[i] ^= 1
        seen.add(xp.asarray(changed).__dask_tokenize__()[3])
    assert len(seen) == 7
    assert xp.asarray(data)[1:].__dask_tokenize__()[3] == _reference_digest(data[1:].tobytes())


@pytest.mark.parametrize("case", ["add", "sum-axis0", "exp", "matmul", "slice",
                                  "map_blocks-sqrt", "std-axis1", "nanmean", "concatenate"])
def test_dask_distributed_processes(cluster_client: object, case: str) -> None:
    data = A_NAN if case.startswith("nan") else A
    got, expected = _dask_pair(case, data)
    same(cluster_client.compute(got).result(), expected.compute(scheduler="threads"))


# --- xarray -----------------------------------------------------------------------------------

XARRAY = {
    "mean": lambda d, xr: d.mean(),
    "mean-dim": lambda d, xr: d.mean("t"),
    "std": lambda d, xr: d.std("s"),
    "max": lambda d, xr: d.max(),
    "min-dim": lambda d, xr: d.min("t"),
    "var": lambda d, xr: d.var(),
    "sum": lambda d, xr: d.sum("s"),
    "cumsum": lambda d, xr: d.cumsum("t"),
    "groupby-mean": lambda d, xr: d.groupby("t").mean(),
    "dataset-mean": lambda d, xr: xr.Dataset({"v": d}).mean()["v"],
    "rolling-mean": lambda d, xr: d.rolling(s=3).mean(),
    "pad": lambda d, xr: d.pad(s=2),
    "pad-edge": lambda d, xr: d.pad(s=(1, 2), mode="edge"),
    "where": lambda d, xr: d.where(d > 2),
    "concat": lambda d, xr: xr.concat([d, d], dim="t"),
    "shift": lambda d, xr: d.shift(s=1),
    "median": lambda d, xr: d.median("s"),
    "argmax": lambda d, xr: d.argmax("s"),
    "diff": lambda d, xr: d.diff("s"),
    "coarsen-mean": lambda d, xr: d.coarsen(s=2).mean(),
    "fillna": lambda d, xr: d.fillna(0.0),
    "arithmetic": lambda d, xr: (d + 1) * d,
}


@pytest.mark.parametrize("case", sorted(XARRAY))
def test_xarray_keeps_arrayx(case: str) -> None:
    xr = pytest.importorskip("xarray", reason="xarray needs Python 3.11")
    def make(data: object) -> object:
        return xr.DataArray(data, dims=("t", "s"), coords={"t": [0, 0, 1, 1, 2, 2]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = XARRAY[case](make(xp.asarray(A_NAN)), xr)
        expected = XARRAY[case](make(A_NAN), xr)
    same(got.data, expected.data)


# --- Cubed and scikit-learn: each in a fresh interpreter, as both read their configuration from
# the environment at import --------------------------------------------------------------------

CUBED = """
import tempfile
import numpy as np
import arrayx as xp
import cubed
import cubed.array_api as cxp
from cubed.runtime.executors.local import ProcessesExecutor, ThreadsExecutor

def main():
    a = np.arange(24.0).reshape(4, 6)
    a[1, 2] = np.nan
    spec = cubed.Spec(work_dir=tempfile.mkdtemp(), allowed_mem="200MB")
    c = cubed.from_array(a, chunks=(2, 3), spec=spec)
    cases = {
        "nanmean": (lambda c: cubed.nanmean(c, axis=0), np.nanmean(a, axis=0)),
        "nansum": (lambda c: cubed.nansum(c), np.nansum(a)),
        "add": (lambda c: c + 1, a + 1),
        "sum": (lambda c: cxp.sum(c, axis=1), a.sum(axis=1)),
        "matmul": (lambda c: c @ cxp.matrix_transpose(c), a @ a.T),
        "mean": (lambda c: cxp.mean(c, axis=1), a.mean(axis=1)),
    }
    for executor in (None, ThreadsExecutor(), ProcessesExecutor()):
        # Every case single-threaded; two on the pools, each of whose runs starts workers.
        names = cases if executor is None else ("nanmean", "matmul")
        for name in names:
            f, expected = cases[name]
            got = f(c).compute(executor=executor)
            assert isinstance(got, xp.Array), (name, type(got))
            np.testing.assert_allclose(np.asarray(got), expected, equal_nan=True)
            print(type(executor).__name__, name, "ok")

if __name__ == "__main__":
    main()
"""

SKLEARN = """
import numpy as np
import sklearn
from sklearn.metrics import roc_auc_score, roc_curve
import arrayx as xp

rng = np.random.default_rng(0)
y = rng.integers(0, 2, 200)
s = np.round(rng.random(200), 2)
expected = roc_curve(y, s), roc_auc_score(y, s)
with sklearn.config_context(array_api_dispatch=True):
    got = roc_curve(xp.asarray(y), xp.asarray(s)), roc_auc_score(xp.asarray(y), xp.asarray(s))
for g, e in zip(got[0], expected[0]):
    assert isinstance(g, xp.Array), type(g)
    np.testing.assert_allclose(np.asarray(g), e)
assert abs(float(got[1]) - expected[1]) < 1e-12
print("roc ok")
"""


def _run(script: str, tmp_path: Path, env: dict[str, str]) -> str:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(script))
    # The child imports the arrayx under test, wherever this process found it.
    where = str(Path(xp.__file__).resolve().parents[1])
    path_env = os.pathsep.join([where, *filter(None, [os.environ.get("PYTHONPATH")])])
    result = subprocess.run([sys.executable, str(path)],
                            env={**os.environ, "PYTHONPATH": path_env, **env},
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_cubed_executors_on_an_arrayx_backend(tmp_path: Path) -> None:
    pytest.importorskip("cubed", reason="Cubed needs Python 3.11")
    out = _run(CUBED, tmp_path, {"CUBED_BACKEND_ARRAY_API_MODULE": "arrayx"})
    for executor in ("NoneType", "ThreadsExecutor", "ProcessesExecutor"):
        assert f"{executor} nanmean ok" in out


def test_sklearn_roc_with_array_api_dispatch(tmp_path: Path) -> None:
    pytest.importorskip("sklearn", reason="scikit-learn needs Python 3.11")
    assert "roc ok" in _run(SKLEARN, tmp_path, {"SCIPY_ARRAY_API": "1"})


# --- dask's NEP-18 dispatch tests (dask/array/tests/test_dispatch.py and
# test_array_function.py), with arrayx chunks and arrayx arrays in place of the wrapped NumPy
# arrays ---------------------------------------------------------------------------------------

DASK_FUNCTIONS = {
    "concatenate": lambda x: np.concatenate([x, x]),
    "cov": lambda x: np.cov(x, x),
    "dot": lambda x: np.dot(x, x),
    "dstack": lambda x: np.dstack((x, x)),
    "flip": lambda x: np.flip(x, axis=0),
    "hstack": lambda x: np.hstack((x, x)),
    "matmul": lambda x: np.matmul(x, x),
    "mean": lambda x: np.mean(x),
    "stack": lambda x: np.stack([x, x]),
    "block": lambda x: np.block([x, x]),
    "sum": lambda x: np.sum(x),
    "var": lambda x: np.var(x),
    "vstack": lambda x: np.vstack((x, x)),
    "norm": lambda x: np.linalg.norm(x),
    "min": lambda x: np.min(x),
    "amin": lambda x: np.amin(x),
    "round": lambda x: np.round(x),
    "insert": lambda x: np.insert(x, 0, 3, axis=0),
    "delete": lambda x: np.delete(x, 0, axis=0),
    "select": lambda x: np.select([x < 0.3, x < 0.6, x > 0.7], [x * 2, x, x / 2], default=0.65),
}


@pytest.mark.parametrize("case", sorted(DASK_FUNCTIONS))
def test_dask_array_function_on_arrayx_chunks(case: str) -> None:
    da = pytest.importorskip("dask.array")
    a = np.random.default_rng(1).random((20, 20))
    d = da.from_array(xp.asarray(a), chunks=(10, 10), asarray=False)
    got = DASK_FUNCTIONS[case](d)
    assert isinstance(got, da.Array)
    same(got.compute(scheduler="threads"), DASK_FUNCTIONS[case](a))


BINARY_OPS = [operator.add, operator.eq, operator.gt, operator.ge, operator.lt, operator.le,
              operator.mod, operator.mul, operator.ne, operator.pow, operator.sub,
              operator.truediv, operator.floordiv, np.add, np.subtract, np.equal, np.matmul,
              np.dot, lambda x, y: np.stack([x, y])]


@pytest.mark.parametrize("op", BINARY_OPS, ids=lambda f: getattr(f, "__name__", "stack"))
def test_dask_wins_over_arrayx_either_side(op: Callable) -> None:
    """dask's type precedence: a dask array beside an arrayx array gives a dask array."""
    da = pytest.importorskip("dask.array")
    a = np.random.default_rng(2).random((10, 10)) + 0.5
    d = da.from_array(xp.asarray(a), chunks=(5, 5), asarray=False)
    x = xp.asarray(a)
    assert type(op(d, x)) is type(op(x, d)) is da.Array
    same(op(x, d).compute(scheduler="threads"), op(a, a))


def test_arrayx_is_a_valid_dask_chunk() -> None:
    """arrayx registers itself as a chunk type when dask first builds on it."""
    da = pytest.importorskip("dask.array")
    from dask.array.chunk_types import is_valid_array_chunk, is_valid_chunk_type
    da.from_array(xp.asarray([1.0]), chunks=1, asarray=False)
    assert is_valid_chunk_type(xp.Array) and is_valid_array_chunk(xp.asarray([1.0]))

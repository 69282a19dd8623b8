"""Which BLAS/LAPACK arrayx binds: for LAPACK, NumPy's own ILP64 OpenBLAS where NumPy has one
(one set of BLAS threads in the process), else the scipy-openblas64 package, else a clear
ImportError; for the products, which arrayx's pool splits, the scipy-openblas64 package's copy
on one thread where it is another file."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import arrayx as ax
from arrayx._kernels import blas as _blas

SCRIPT = """
import ctypes
import json
from pathlib import Path
import numpy as np
import arrayx as ax
from arrayx._kernels import blas as _blas
shared = ctypes.CDLL(_blas.library_path())
before = shared.scipy_openblas_get_num_threads64_()
a = ax.asarray(np.arange(16.0).reshape(4, 4))
big = ax.ones((600, 600))
ax.linalg.svdvals(a @ a.mT)
big @ big, big.mT @ big, big @ big[0], ax.vecdot(big[0], big[1])
np.linalg.svd(np.ones((3, 3)))
maps = Path("/proc/self/maps").read_text().splitlines()
mapped = sorted({str(Path(line.split()[-1]).resolve()) for line in maps
                 if "openblas" in line.split()[-1].lower()})
own = ctypes.CDLL(_blas.products_library())
print(json.dumps({"mapped": mapped, "bound": str(Path(_blas.library_path()).resolve()),
                  "products": str(Path(_blas.products_library()).resolve()),
                  "numpy threads": [before, shared.scipy_openblas_get_num_threads64_()],
                  "products threads": own.scipy_openblas_get_num_threads64_()}))
"""


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc/self/maps")
def test_lapack_on_numpys_openblas_products_on_a_single_threaded_copy() -> None:
    # A fresh interpreter: other tests load SciPy, whose own OpenBLAS has nothing to do with
    # arrayx's.
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["bound"] in got["mapped"]
    assert got["products"] in got["mapped"]
    # NumPy's BLAS threads are as NumPy left them.
    assert got["numpy threads"][0] == got["numpy threads"][1]
    if Path(np.__file__).parent.parent.joinpath("numpy.libs").is_dir():
        assert got["products"] != got["bound"]
        assert got["mapped"] == sorted([got["bound"], got["products"]])
        assert got["products threads"] == 1


def test_products_fall_back_to_the_lapack_copy(monkeypatch, tmp_path) -> None:
    # Without a NumPy copy the package's file is the LAPACK one: no second copy.
    pytest.importorskip("scipy_openblas64")
    fake_numpy = types.SimpleNamespace(__file__=str(tmp_path / "numpy" / "__init__.py"))
    monkeypatch.setattr(_blas, "numpy", fake_numpy)
    assert _blas.own_library_path() is None


def test_fallback_to_the_scipy_openblas64_package(monkeypatch, tmp_path) -> None:
    package = pytest.importorskip("scipy_openblas64")
    fake_numpy = types.SimpleNamespace(__file__=str(tmp_path / "numpy" / "__init__.py"))
    monkeypatch.setattr(_blas, "numpy", fake_numpy)
    path = Path(_blas.library_path())
    assert path.parent == Path(package.get_lib_dir())
    assert package.get_library() in path.name


def test_no_library_is_a_clear_import_error(monkeypatch, tmp_path) -> None:
    fake_numpy = types.SimpleNamespace(__file__=str(tmp_path / "numpy" / "__init__.py"))
    monkeypatch.setattr(_blas, "numpy", fake_numpy)
    monkeypatch.setitem(sys.modules, "scipy_openblas64", None)
    with pytest.raises(ImportError, match="scipy-openblas64"):
        _blas.library_path()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_every_bound_routine_family(dtype) -> None:
    # gemm, dot, syrk (a Gram product), getrf/getrs, potrf, syevd/heevd, gesdd, geqrf/orgqr
    # and geev on one well-conditioned matrix per dtype, checked by identities.
    rng = np.random.default_rng(3)
    n = 40
    m = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n))
                                       if dtype.startswith("complex") else 0)
    spd = (m @ m.conj().T + n * np.eye(n)).astype(dtype)
    a = ax.asarray(spd)
    tol = 1e-3 if dtype in ("float32", "complex64") else 1e-9
    scale = np.abs(spd).max()

    def close(got, want) -> None:
        np.testing.assert_allclose(np.asarray(got), want, atol=tol * scale * n)

    close(a @ a, spd @ spd)
    close(ax.vecdot(a[0], a[1]), np.vdot(spd[0], spd[1]))
    close(a.mT @ a, spd.T @ spd)
    close(ax.linalg.solve(a, a), np.eye(n))
    low = ax.linalg.cholesky(a)
    close(low @ ax.conj(low).mT, spd)
    w, v = ax.linalg.eigh(a)
    close((v * w[None, :]) @ ax.conj(v).mT, spd)
    u, s, vh = ax.linalg.svd(a)
    close((u * s[None, :]) @ vh, spd)
    q, r = ax.linalg.qr(a)
    close(q @ r, spd)
    ew = ax.linalg.eigvals(a)
    np.testing.assert_allclose(np.sort(np.asarray(ew).real), np.sort(np.asarray(w)),
                               rtol=tol * n)

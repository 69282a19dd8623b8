"""The LAPACK entries of ``arrayx.linalg`` by device: ``_lapack`` (the CPU's own binding) for
arrays on the CPU, the device library (``arrayx._kernels.cuda.library``) for the others.

The linear-algebra functions call these names as they would ``_lapack``'s; the first array
argument's device picks the implementation, and both keep ``_lapack``'s contracts.
"""

from __future__ import annotations

from arrayx._devices import CPU
from arrayx.linalg import _lapack

__all__ = ["cholesky", "eig", "eigh", "inv", "lu_factor", "qr", "solve", "svd"]


def _pick(name: str):
    host = getattr(_lapack, name)

    def entry(x, *args):
        if x.device == CPU:
            return host(x, *args)
        from arrayx._kernels.cuda import library

        return getattr(library, name)(x, *args)

    entry.__name__ = name
    entry.__doc__ = f"``_lapack.{name}`` on the CPU, its device library's elsewhere."
    return entry


cholesky = _pick("cholesky")
eig = _pick("eig")
eigh = _pick("eigh")
inv = _pick("inv")
lu_factor = _pick("lu_factor")
qr = _pick("qr")
solve = _pick("solve")
svd = _pick("svd")

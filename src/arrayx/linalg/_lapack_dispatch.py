"""The LAPACK entries of ``arrayx.linalg`` by device: ``_lapack`` (the CPU's own binding) for
arrays on the CPU, the device library (``arrayx._kernels.cuda.library``) for the others.

The linear-algebra functions call these names as they would ``_lapack``'s; the first array
argument's device picks the implementation, and both keep ``_lapack``'s contracts: a singular
or not positive definite matrix raises :class:`LinAlgError` on every device (``lu_factor``,
which ``det`` calls, factors singular matrices too).
"""

from __future__ import annotations

import numpy as np

from arrayx import _devices
from arrayx.linalg import _lapack
from arrayx.linalg._bridge import LinAlgError

__all__ = ["cholesky", "eig", "eigh", "inv", "lu_factor", "qr", "solve", "svd"]


def _pick(name: str, checked: bool = True):
    """The entry ``name``; ``checked``: the device library reports a singular or not positive
    definite matrix as :class:`LinAlgError` (``lu_factor`` is not: it factors those too)."""
    host = getattr(_lapack, name)

    def entry(x, *args):
        if x.device.host:
            return host(x, *args)
        from arrayx._kernels.cuda import library

        device = getattr(library, name)
        if not checked:
            return device(x, *args)
        try:
            with _devices.backend(x.device).linalg_checked():
                return device(x, *args)
        except np.linalg.LinAlgError as e:
            raise LinAlgError(f"{name}: {str(e).lower()}") from None

    entry.__name__ = name
    entry.__doc__ = f"``_lapack.{name}`` on the CPU, its device library's elsewhere."
    return entry


cholesky = _pick("cholesky")
eig = _pick("eig")
eigh = _pick("eigh")
inv = _pick("inv")
lu_factor = _pick("lu_factor", checked=False)
qr = _pick("qr")
solve = _pick("solve")
svd = _pick("svd")

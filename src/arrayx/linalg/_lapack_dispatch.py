"""The LAPACK entries of ``arrayx.linalg`` by device: each runs the namesake of its first array
argument's device backend (``_devices.backend(device).lapack(name)``): ``_lapack`` (arrayx's
own binding) on the CPU and the test devices, cuSOLVER through CuPy on a GPU.

The linear-algebra functions call these names as they would ``_lapack``'s, and every backend
keeps ``_lapack``'s contracts: a singular or not positive definite matrix raises
:class:`LinAlgError` on every device (``lu_factor``, which ``det`` calls, factors singular
matrices too). A device library reports those as ``numpy.linalg.LinAlgError``, turned into
arrayx's here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from arrayx._devices import backend, register_host
from arrayx._elementwise import isfinite
from arrayx._utility import all as all_true
from arrayx.linalg import _lapack
from arrayx.linalg._bridge import LinAlgError

__all__ = ["cholesky", "eig", "eigh", "inv", "lu_factor", "qr", "solve", "svd"]


def _host_lapack(name: str) -> Callable:
    """The LAPACK entry ``name`` of the devices in the CPU's memory: ``_lapack``'s."""
    return getattr(_lapack, name)


register_host(lapack=_host_lapack)


def _entry(name: str, finite: bool = False) -> Callable:
    """The entry ``name`` on its first argument's device; with ``finite``, LinAlgError first
    unless every element of the matrices (complex: both parts) is finite, on every device:
    gesdd and geev refuse a NaN norm with a negative info, leaving their outputs unwritten,
    and geev's clean-up after that writes outside its eigenvalue arrays (an inf off the
    diagonal aborted the process with a double free); cuSOLVER's SVD returns from one without
    an error and its eig fails internally. NumPy checks first too."""

    def entry(x, *args):
        if finite and not bool(all_true(isfinite(x))):
            raise LinAlgError(f"{name}: the matrix contains infinities or NaNs")
        try:
            return backend(x.device).lapack(name)(x, *args)
        except np.linalg.LinAlgError as e:
            why = str(e)
            raise LinAlgError(f"{name}: {why[:1].lower()}{why[1:]}") from None

    entry.__name__ = name
    entry.__doc__ = f"``lapack({name!r})`` of the input's device backend."
    return entry


cholesky = _entry("cholesky")
eig = _entry("eig", finite=True)
eigh = _entry("eigh")
inv = _entry("inv")
lu_factor = _entry("lu_factor")
qr = _entry("qr")
solve = _entry("solve")
svd = _entry("svd", finite=True)

"""LAPACK and FFT on a GPU: cuSOLVER and cuFFT through CuPy, with the CPU's contracts.

A device's backend object serves these as its ``fft`` and ``lapack`` entries (``Lanes``),
which ``arrayx.linalg`` and ``arrayx.fft`` reach through ``_devices.backend``: each reads its
inputs as zero-copy views of the backend's array module (``backend.xm``: CuPy on a GPU, NumPy
in the tests' host stand-in) and copies the library's result into a fresh arrayx array on the
same device. The functions keep the contracts of ``linalg/_lapack.pyx`` (shapes, dtypes and
layouts the callers rely on).
"""

from __future__ import annotations

import math

from arrayx import _devices

__all__ = ["cholesky", "eig", "eigh", "fft", "inv", "lu_factor", "qr", "solve", "svd"]


def _backend(a: object) -> object:
    return _devices.backend(a.device)


def view(a: object) -> object:
    """The arrayx array ``a`` (on a device) as a zero-copy array of its backend's module."""
    isz = a.dtype.itemsize
    return _backend(a).view(a._storage.address + a._layout.offset * isz, a.shape,
                            a._layout.strides, a._code)


def array(r: object, device: object) -> object:
    """A fresh arrayx array on ``device`` holding the library array ``r``."""
    from arrayx._creation import empty

    out = empty(tuple(r.shape), dtype=r.dtype.name, device=device)
    if out.size:
        view(out)[...] = r
    return out


def fft(name: str, a: object, **kwargs: object) -> object:
    """``xm.fft.<name>(a, **kwargs)`` (``numpy.fft``'s signature) for an array on a device."""
    xm = _backend(a).xm
    return array(getattr(xm.fft, name)(view(a), **kwargs), a.device)


def solve(x1: object, x2: object, dtype: object) -> object:
    """``_lapack.solve`` on a device: ``X`` with ``x1 @ X = x2``, matrices of one batch."""
    xm = _backend(x1).xm
    if x1.size == 0 or x2.size == 0:  # CuPy divides by the empty batch's size
        return array(xm.empty(x2.shape, dtype=dtype.name), x1.device)
    return array(xm.linalg.solve(view(x1).astype(dtype.name), view(x2).astype(dtype.name)),
                 x1.device)


def inv(x: object) -> object:
    """``_lapack.inv`` on a device."""
    return array(_backend(x).xm.linalg.inv(view(x)), x.device)


def cholesky(x: object, upper: bool) -> object:
    """``_lapack.cholesky`` on a device: the lower factor, or its conjugate transpose."""
    xm = _backend(x).xm
    low = xm.linalg.cholesky(view(x))
    return array(xm.conj(xm.swapaxes(low, -1, -2)) if upper else low, x.device)


def eigh(x: object, vectors: bool) -> tuple:
    """``_lapack.eigh`` on a device: ``(w, rows)`` with the eigenvectors ``conj(rows).mT``."""
    xm = _backend(x).xm
    if not vectors:
        return array(xm.linalg.eigvalsh(view(x), UPLO="L"), x.device), None
    w, v = xm.linalg.eigh(view(x), UPLO="L")
    return array(w, x.device), array(xm.conj(xm.swapaxes(v, -1, -2)), x.device)


def svd(x: object, vectors: bool, full: bool) -> tuple:
    """``_lapack.svd`` on a device: ``(U, S, Vh)``, ``U`` and ``Vh`` None without ``vectors``."""
    xm = _backend(x).xm
    if not vectors:
        return None, array(xm.linalg.svd(view(x), compute_uv=False), x.device), None
    u, s, vh = xm.linalg.svd(view(x), full_matrices=full)
    return array(u, x.device), array(s, x.device), array(vh, x.device)


def qr(x: object, complete: bool) -> tuple:
    """``_lapack.qr`` on a device: ``(Q, R)``."""
    q, r = _backend(x).xm.linalg.qr(view(x), mode="complete" if complete else "reduced")
    return array(q, x.device), array(r, x.device)


def eig(x: object, vectors: bool) -> tuple:
    """``_lapack.eig`` on a device: ``(w, v)``, complex; TypeError where the library has no
    general eigensolver."""
    linalg = _backend(x).xm.linalg
    if not hasattr(linalg, "eig"):
        raise TypeError(f"eig has no kernels for arrays on {x.device} with this CuPy; call "
                        f"to_device('cpu') first")
    if not vectors:
        return array(_complex(linalg.eigvals(view(x))), x.device), None
    w, v = linalg.eig(view(x))
    return array(_complex(w), x.device), array(_complex(v), x.device)


def _complex(r: object) -> object:
    """``r`` in the complex dtype of its precision (a library may give real eigenvalues)."""
    return r.astype({"float32": "complex64", "float64": "complex128"}.get(r.dtype.name,
                                                                         r.dtype.name))


def lu_factor(x: object, name: str) -> tuple:
    """``_lapack.lu_factor`` on a device: ``(lu, parity)`` with ``det = parity *
    prod(diagonal(lu))``, one matrix at a time (the library's factorisation is 2-D)."""
    be = _backend(x)
    xm = be.xm
    a = view(x)
    n = a.shape[-1]
    if n == 0:  # cuSOLVER refuses 0 x 0 matrices (a leading dimension under 1)
        return (array(xm.empty(a.shape, dtype=a.dtype), x.device),
                array(xm.ones(a.shape[:-2], dtype=a.dtype), x.device))
    batch = a.reshape((math.prod(a.shape[:-2]), n, n))
    lus = xm.empty_like(batch)
    parity = xm.empty(batch.shape[0], dtype=a.dtype)
    steps = xm.arange(n)
    for i in range(batch.shape[0]):
        lu, pivots = be.lu_factor_2d(batch[i])
        lus[i] = lu
        parity[i] = 1 - 2 * (int(xm.count_nonzero(pivots != steps)) % 2)
    return (array(lus.reshape(a.shape), x.device),
            array(parity.reshape(a.shape[:-2]), x.device))

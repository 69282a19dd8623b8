"""The CPU backend's library entries: what ``_devices.backend`` gives for the CPU and the test
devices (whose memory is the CPU's), as a GPU's ``Backend`` gives cuFFT's and cuSOLVER's.

- ``fft``: pocketfft (``numpy.fft``) on a zero-copy NumPy view of the input, its result
  adopted without a copy; a long 1-D complex transform by the four-step algorithm on arrayx's
  threads (``fft/_four_step.py``). A test device's array is seen as a CPU array of the same
  memory and its result tagged back.
- ``lapack``: arrayx's own LAPACK binding (``linalg/_lapack.pyx``), whose loops run through the
  engine's LAPACK entries.

The engine's kernels are not reached through this object: the engine calls the CPU backend's
``cdef`` functions directly for every storage in the CPU's memory (``Storage.host``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from arrayx._array import Array, on_host_device
from arrayx._creation import asarray
from arrayx._devices import CPU, register_host
from arrayx.fft import _four_step
from arrayx.linalg import _lapack

__all__ = ["HostBackend"]


class HostBackend:
    """The library entries of the devices in the CPU's memory."""

    def fft(self, name: str, a: Array, **kwargs: object) -> Array:
        """``numpy.fft.<name>(a, **kwargs)`` (NumPy's keywords), on ``a``'s device."""
        x = on_host_device(a, CPU)
        out = None
        if (name in ("fft", "ifft") and x.ndim == 1 and kwargs.get("n") in (None, x.shape[0])
                and kwargs.get("axis") in (0, -1)):
            out = _four_step.transform(x, name == "ifft", kwargs["norm"])
        if out is None:
            out = asarray(getattr(np.fft, name)(np.asarray(x), **kwargs), device=CPU)
        return on_host_device(out, a.device)

    def lapack(self, name: str) -> Callable:
        """The LAPACK entry ``name`` of ``linalg/_lapack.pyx``."""
        return getattr(_lapack, name)


register_host(HostBackend())

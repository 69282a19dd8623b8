"""The standard's ``fft`` extension: all 14 functions of 2025.12.

Transforms run in pocketfft on zero-copy views; a long 1-D complex transform runs as batches of
short ones on arrayx's kernel threads (the four-step algorithm, ``_four_step``); the helpers run
in arrayx's own kernels. Single precision stays single precision.

Examples
--------
>>> import arrayx as xp
>>> x = xp.asarray([0.0, 1.0, 0.0, -1.0])
>>> xp.fft.fft(x)
Array([0.+0.j, 0.-2.j, 0.+0.j, 0.+2.j], dtype=complex128)
>>> xp.real(xp.fft.ifft(xp.fft.fft(x)))
Array([ 0.,  1.,  0., -1.], dtype=float64)
"""

from arrayx.fft._helpers import fftfreq, fftshift, ifftshift, rfftfreq
from arrayx.fft._transforms import (
    fft,
    fftn,
    hfft,
    ifft,
    ifftn,
    ihfft,
    irfft,
    irfftn,
    rfft,
    rfftn,
)

__all__ = [
    "fft", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifftn", "ifftshift", "ihfft",
    "irfft", "irfftn", "rfft", "rfftfreq", "rfftn",
]

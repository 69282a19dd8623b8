"""The standard's ``fft`` extension: all 14 functions of 2025.12.

Transforms run in pocketfft on zero-copy views; the helpers run in arrayx's own kernels.
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

"""The standard's ``fft`` extension (its functions arrive with the FFT issue)."""

__all__: list[str] = []

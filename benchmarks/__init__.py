"""Side-by-side benchmarks of arrayx against NumPy (``python -m benchmarks``)."""

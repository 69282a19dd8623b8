"""arrayx's kernels. Imports nothing of arrayx outside ``arrayx._kernels``."""

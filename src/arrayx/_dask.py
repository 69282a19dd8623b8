"""arrayx as a dask chunk type.

dask defers, in arithmetic and in NumPy's functions, to every array type it does not know as a
chunk type, so ``dask_array + arrayx_array`` would find no one to compute it. arrayx registers
itself (``dask.array.chunk_types.register_chunk_type``) once dask.array is imported: at arrayx's
import when dask came first, else at the first NumPy-protocol call after it, which dask makes
when it builds a graph on arrayx chunks. arrayx never imports dask itself.
"""

from __future__ import annotations

import sys

_registered = False


def register() -> None:
    """Register ``arrayx.Array`` with dask.array if dask.array is loaded (once)."""
    global _registered
    if _registered or "dask.array" not in sys.modules:
        return
    from dask.array.chunk_types import register_chunk_type

    from arrayx._array import Array
    register_chunk_type(Array)
    _registered = True

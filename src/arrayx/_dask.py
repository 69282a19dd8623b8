"""arrayx as a dask chunk type.

dask defers, in arithmetic and in NumPy's functions, to every array type it does not know as a
chunk type, so ``dask_array + arrayx_array`` would find no one to compute it. arrayx registers
itself (``dask.array.chunk_types.register_chunk_type``) once dask.array is imported: at arrayx's
import when dask came first, else at the first NumPy-protocol call after it, which dask makes
when it builds a graph on arrayx chunks. arrayx never imports dask itself.

dask names every graph it builds from an array by a token of the array's contents
(``dask.base.tokenize``). ``x.__dask_tokenize__()`` of a CPU array is its dtype, its shape and
the engine's content digest of its elements (a non-cryptographic 128-bit hash over the kernel
threads, as dask takes xxHash or CityHash for NumPy's buffers where they are installed): 30 ms
for 5*10^7 float64 on two threads (60 on one), where NumPy's token took 0.25 s by SHA-1 on the
same machine, inside every ``da.from_array``. dask's fallback for unknown objects pickled the
whole array (2.9 s). Another device's array takes NumPy's token of its host copy.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

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


def token(a: Any) -> tuple:
    """dask's token of arrayx array ``a``: its dtype, shape and content digest.

    Parameters
    ----------
    a : Array
        An array.

    Returns
    -------
    tuple
        ``("arrayx.Array", dtype, shape, digest)`` for a CPU array, ``digest`` the engine's
        content hash of its elements in C order (hex): equal for equal dtype, shape and
        elements, whatever the strides. Another device's array gives ``("arrayx.Array",
        <NumPy's normalized token of its host copy>)``.
    """
    if a._storage.host:
        from arrayx._engine import content_hash
        return ("arrayx.Array", a.dtype.str, a.shape,
                content_hash(a._storage, a._layout, a._code).hex())
    from dask.base import normalize_token
    return ("arrayx.Array", normalize_token(np.asarray(a)))

"""arrayx as a dask chunk type.

dask defers, in arithmetic and in NumPy's functions, to every array type it does not know as a
chunk type, so ``dask_array + arrayx_array`` would find no one to compute it. arrayx registers
itself (``dask.array.chunk_types.register_chunk_type``) once dask.array is imported: at arrayx's
import when dask came first, else at the first NumPy-protocol call after it, which dask makes
when it builds a graph on arrayx chunks. arrayx never imports dask itself.

dask names every graph it builds from an array by a token of the array's contents
(``dask.base.tokenize``): ``x.__dask_tokenize__()`` gives NumPy's token of the same memory (a
hash of the buffer), where dask's fallback for unknown objects pickled the whole array (2.9 s
for 5*10^7 float64 against NumPy's 0.19 s, inside every ``da.from_array``).
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
    """dask's token of arrayx array ``a``: NumPy's token of a zero-copy view of its memory.

    Parameters
    ----------
    a : Array
        A CPU array.

    Returns
    -------
    tuple
        ``("arrayx.Array", <NumPy's normalized token>)``: equal for equal contents, layout and
        dtype.
    """
    from dask.base import normalize_token
    return ("arrayx.Array", normalize_token(np.asarray(a)))

"""``sliding_window_view``: overlapping windows as a read-only view (an extension).

Examples
--------
>>> import arrayx as xp
>>> from arrayx.lib.stride_tricks import sliding_window_view
>>> sliding_window_view(xp.arange(4), 3)
Array([[0, 1, 2],
       [1, 2, 3]], dtype=int64)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arrayx import _numpy_fallback
from arrayx._array import Array

__all__ = ["sliding_window_view"]


def sliding_window_view(x: Array, window_shape: Any, axis: Any = None, *,
                        writeable: bool = False) -> Array:
    """Every window of ``window_shape`` over ``x`` along ``axis``, as
    ``numpy.lib.stride_tricks.sliding_window_view`` gives them, without a copy.

    The windows overlap in memory, so the view is read-only. It is NumPy's view of the CPU
    memory adopted back (no copy either way): an array on another device raises TypeError.

    Parameters
    ----------
    x : Array
        The array to window.
    window_shape : int or tuple of ints
        The size of the window along each axis of ``axis``.
    axis : int or tuple of ints, optional
        The axes to slide along; default every axis.
    writeable : bool, optional
        Must be False: arrayx views of overlapping memory are read-only.

    Returns
    -------
    Array
        ``x``'s shape with each windowed axis ``n - w + 1`` long, and the window's axes last.

    Raises
    ------
    TypeError
        If ``x`` is not an arrayx array in CPU memory.
    ValueError
        If ``writeable`` is True or a window is larger than its axis.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.lib.stride_tricks import sliding_window_view
    >>> v = sliding_window_view(xp.asarray([[1, 2, 3], [4, 5, 6]]), 2, axis=1)
    >>> v.shape
    (2, 2, 2)
    >>> xp.sum(v, axis=-1)
    Array([[ 3,  5],
           [ 9, 11]], dtype=int64)
    """
    if not isinstance(x, Array):
        raise TypeError(f"sliding_window_view expects an arrayx array, got {type(x).__name__}")
    if writeable:
        raise ValueError("sliding_window_view: the windows overlap, so the view is read-only")
    _numpy_fallback.check_cpu(x, "lib.stride_tricks.sliding_window_view")
    view = np.lib.stride_tricks.sliding_window_view(x.__array__(), window_shape, axis=axis)
    return _numpy_fallback.results(view, "lib.stride_tricks.sliding_window_view")

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

from arrayx._manipulation import sliding_window_view

__all__ = ["sliding_window_view"]

"""``arrayx.lib``: the corner of NumPy's ``numpy.lib`` that consumers reach through the
namespace (an extension; strict mode hides it).

xarray's ``rolling`` calls ``xp.lib.stride_tricks.sliding_window_view`` on the array's
namespace.

Examples
--------
>>> import arrayx as xp
>>> x = xp.asarray([1.0, 2.0, 3.0, 4.0])
>>> xp.lib.stride_tricks.sliding_window_view(x, 2)
Array([[1., 2.],
       [2., 3.],
       [3., 4.]], dtype=float64)
"""

from arrayx.lib import stride_tricks

__all__ = ["stride_tricks"]

"""NumPy's dispatch protocols on arrayx arrays, so that NumPy-API code keeps arrayx.

- ``functions``: ``__array_function__`` (``np.sum(x)`` runs ``arrayx.sum``), with the table the
  documentation shows;
- ``ufuncs``: ``__array_ufunc__`` (``np.add(x, y)`` runs ``arrayx.add``);
- ``methods``: NumPy's array methods that are not the standard's (``x.sum()``, ``x.flatten()``);
- ``fallback``: what NumPy computes where arrayx has no function, on zero-copy views of CPU
  arrays, its results adopted as arrayx arrays (never for a device array).
"""

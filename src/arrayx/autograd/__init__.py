"""Reverse-mode automatic differentiation of code written against the array API.

Inside :func:`grad` (and :func:`value_and_grad`, :func:`vjp`, :func:`jacobian`,
:func:`hessian`) the inputs become tracers: array-API arrays whose ``__array_namespace__`` is
``arrayx.autograd.numpy``, a traced copy of arrayx's namespace (``linalg`` and ``fft``
included). Code that takes its namespace from its arguments (``xp = array_namespace(x)``)
runs unchanged and is differentiated; transformations nest (``grad(grad(f))``).

Examples
--------
>>> import arrayx as xp
>>> from arrayx.autograd import grad
>>> def loss(w):
...     xp_ = w.__array_namespace__()
...     return xp_.sum(xp_.tanh(w) ** 2)
>>> grad(loss)(xp.asarray([0.5, -1.0]))
Array([ 0.72686198, -0.63970001], dtype=float64)
"""

from arrayx.autograd import _namespace, _vmap
from arrayx.autograd._api import (
    grad,
    hessian,
    jacobian,
    stop_gradient,
    value_and_grad,
    vjp,
)
from arrayx.autograd._custom import checkpoint, custom_jvp, custom_vjp
from arrayx.autograd._forward import jacfwd, jvp, linearize
from arrayx.autograd._tracer import GradientLostWarning, Tracer, sum_to
from arrayx.autograd._vmap import Batched, vmap

numpy = _namespace.build()
batched = _vmap.build()

__all__ = [
    "Batched", "GradientLostWarning", "Tracer", "batched", "checkpoint", "custom_jvp",
    "custom_vjp", "grad", "hessian", "jacfwd", "jacobian", "jvp", "linearize", "numpy",
    "stop_gradient", "sum_to", "value_and_grad", "vjp", "vmap",
]

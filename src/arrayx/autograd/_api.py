"""The functional API: grad, value_and_grad, vjp, jacobian, hessian, stop_gradient,
custom_vjp and checkpoint."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import arrayx
from arrayx.autograd._backward import backward
from arrayx.autograd._tracer import (
    Node,
    Trace,
    Tracer,
    _split,
    _top,
    differentiable,
    live,
    pop_trace,
    push_trace,
    traced,
    unwrap,
)


def _as_input(x, name: str):
    """``x`` as an array to differentiate with respect to: ``TypeError`` unless it is a
    floating-point or complex array (or Python float/complex)."""
    if isinstance(x, (float, complex)) and not isinstance(x, bool):
        x = arrayx.asarray(x)
    if not (type(x) is Tracer or isinstance(x, arrayx.Array)):
        raise TypeError(f"{name} must be an array, got {type(x).__name__}")
    if not differentiable(x.dtype):
        raise TypeError(f"{name} has dtype {x.dtype}; gradients are defined for real and "
                        f"complex floating-point inputs only")
    return x


def _argnums(argnums, n: int) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for i in nums:
        if not -n <= i < n:
            raise ValueError(f"argnums {argnums} is out of range for {n} positional arguments")
    return tuple(i % n for i in nums)


def _trace_call(f: Callable, args: Sequence, nums: tuple[int, ...], has_aux: bool):
    """Run ``f`` with ``args[i]`` (``i`` in ``nums``) as tracers of a new trace. Returns the
    trace, the input nodes (one per entry of ``nums``: a repeated argument shares its node,
    so each entry gets its whole gradient), the output (one level down, and its node) and the
    auxiliary data."""
    trace = push_trace()
    try:
        args = list(args)
        made = {}
        for i in nums:
            if i not in made:
                x = _as_input(args[i], f"argument {i}")
                made[i] = Node(None, (), x.shape, x.dtype, "input")
                args[i] = Tracer(x, made[i], trace.level)
        leaves = [made[i] for i in nums]
        out = f(*args)
    finally:
        pop_trace(trace)
    aux = None
    if has_aux:
        if not (isinstance(out, tuple) and len(out) == 2):
            raise TypeError("with has_aux=True, the function must return a pair (out, aux)")
        out, aux = out
        aux = _lower(aux, trace)
    if type(out) is Tracer and out.level == trace.level:
        return trace, leaves, out.value, out.node, aux
    if not (type(out) is Tracer or isinstance(out, arrayx.Array)):
        raise TypeError(f"the function must return an array, got {type(out).__name__}")
    return trace, leaves, out, None, aux


def _lower(x, trace: Trace):
    """``x`` (or the arrays in a tuple, list or dict) with ``trace``'s tracers unwrapped."""
    if type(x) is Tracer:
        return x.value if x.level == trace.level else x
    if isinstance(x, (list, tuple)):
        return type(x)(_lower(i, trace) for i in x)
    if isinstance(x, dict):
        return {k: _lower(v, trace) for k, v in x.items()}
    return x


def _gradients(trace: Trace, leaves: list, out_node, cotangent, primals, retain: bool):
    """The backward pass from ``out_node`` and the input nodes' gradients (zeros where none
    reached them)."""
    if out_node is not None:
        backward(trace, out_node, cotangent, retain)
    gs = [node.g for node in leaves]
    for node in leaves:
        node.g = None
    return [traced.zeros_like(x) if g is None else g for g, x in zip(gs, primals, strict=True)]


def vjp(f: Callable, *primals, has_aux: bool = False):
    """The value of ``f(*primals)`` and its vector-Jacobian product function.

    Parameters
    ----------
    f : callable
        A function of arrays returning an array, written against the array API.
    *primals : Array
        The floating-point or complex arrays to differentiate with respect to.
    has_aux : bool, optional
        Whether ``f`` returns a pair ``(out, aux)``; ``aux`` is returned as it is.

    Returns
    -------
    tuple
        ``(out, vjp_fn)``, or ``(out, vjp_fn, aux)``; ``vjp_fn(cotangent)`` returns a tuple
        with one gradient per primal (PyTorch's convention for complex values: the conjugate
        Wirtinger derivative). ``vjp_fn`` may be called many times; the tape lives as long as
        it does.

    Raises
    ------
    TypeError
        If a primal is not a floating-point or complex array.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import numpy as tnp, vjp
    >>> out, back = vjp(tnp.sin, xp.asarray([0.0, 1.0]))
    >>> back(xp.ones(2))[0]
    Array([1.        , 0.54030231], dtype=float64)
    """
    nums = tuple(range(len(primals)))
    trace, leaves, out, out_node, aux = _trace_call(f, primals, nums, has_aux)

    def vjp_fn(cotangent):
        ct = cotangent if type(cotangent) is Tracer else arrayx.asarray(cotangent)
        if ct.shape != out.shape:
            raise ValueError(f"the cotangent has shape {ct.shape}; the output has {out.shape}")
        return tuple(_gradients(trace, leaves, out_node, ct, primals, retain=True))

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def value_and_grad(f: Callable, argnums: int | Sequence[int] = 0,
                   has_aux: bool = False) -> Callable:
    """A function returning ``f``'s value and its gradient with respect to ``argnums``.

    Parameters
    ----------
    f : callable
        A function returning a real scalar (an array of one element).
    argnums : int or sequence of int, optional
        The positional arguments to differentiate with respect to.
    has_aux : bool, optional
        Whether ``f`` returns a pair ``(out, aux)``.

    Returns
    -------
    callable
        ``(*args) -> (value, grad)``, or ``((value, aux), grad)`` with ``has_aux``; ``grad``
        is an array for an int ``argnums`` and a tuple otherwise.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import numpy as tnp, value_and_grad
    >>> value_and_grad(lambda x: tnp.sum(x * x))(xp.asarray([1.0, 2.0]))
    (Array(5., dtype=float64), Array([2., 4.], dtype=float64))
    """
    @functools.wraps(f)
    def run(*args):
        nums = _argnums(argnums, len(args))
        trace, leaves, out, out_node, aux = _trace_call(f, args, nums, has_aux)
        if out.dtype.kind == "c" or math.prod(out.shape) != 1:
            raise TypeError(f"grad needs a real scalar output; got shape {out.shape} and "
                            f"dtype {out.dtype} (use vjp or jacobian)")
        try:
            grads = _gradients(trace, leaves, out_node, traced.ones_like(out),
                               [args[i] for i in nums], retain=False)
        finally:
            trace.tape.clear()
        g = grads[0] if isinstance(argnums, int) else tuple(grads)
        return ((out, aux) if has_aux else out), g
    return run


def grad(f: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False) -> Callable:
    """The gradient of a real scalar function ``f`` with respect to ``argnums``.

    Parameters
    ----------
    f : callable
        A function returning a real scalar, written against the array API
        (``xp = x.__array_namespace__()``).
    argnums : int or sequence of int, optional
        The positional arguments to differentiate with respect to.
    has_aux : bool, optional
        Whether ``f`` returns a pair ``(out, aux)``; then the result is ``(grad, aux)``.

    Returns
    -------
    callable
        ``(*args) -> grad`` (an array, or a tuple for a sequence ``argnums``).

    Raises
    ------
    TypeError
        If an argument to differentiate is not floating point or complex, or the output is
        not a real scalar.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import grad, numpy as tnp
    >>> grad(lambda x: tnp.sum(tnp.exp(x)))(xp.asarray([0.0, 1.0]))
    Array([1.        , 2.71828183], dtype=float64)
    >>> grad(grad(lambda x: x ** 3))(xp.asarray(2.0))
    Array(12., dtype=float64)
    """
    vg = value_and_grad(f, argnums, has_aux)

    @functools.wraps(f)
    def run(*args):
        value, g = vg(*args)
        return (g, value[1]) if has_aux else g
    return run


def jacobian(f: Callable, argnums: int | Sequence[int] = 0) -> Callable:
    """The Jacobian of ``f``: an array of shape ``out.shape + x.shape`` per argument.

    Built from one forward pass and one vector-Jacobian product per output element.

    Parameters
    ----------
    f : callable
        A function of arrays returning an array.
    argnums : int or sequence of int, optional
        The positional arguments to differentiate with respect to.

    Returns
    -------
    callable
        ``(*args) -> jacobian`` (an array, or a tuple for a sequence ``argnums``). For a
        complex output, row ``k`` is the gradient of ``Re(out[k])``.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import jacobian
    >>> jacobian(lambda x: x * x)(xp.asarray([1.0, 2.0]))
    Array([[2., 0.],
           [0., 4.]], dtype=float64)
    """
    @functools.wraps(f)
    def run(*args):
        nums = _argnums(argnums, len(args))
        trace, leaves, out, out_node, _ = _trace_call(f, args, nums, False)
        primals = [args[i] for i in nums]
        n = math.prod(out.shape)
        rows = []
        eye = arrayx.eye(n, dtype=out.dtype) if differentiable(out.dtype) else None
        for k in range(n):
            ct = arrayx.reshape(eye[k], out.shape)
            rows.append(_gradients(trace, leaves, out_node, ct, primals, retain=True))
        trace.tape.clear()
        jac = []
        for j, x in enumerate(primals):
            if n:
                col = traced.stack([r[j] for r in rows])
            else:
                col = traced.zeros((0,) + x.shape, dtype=x.dtype)
            jac.append(traced.reshape(col, out.shape + x.shape))
        return jac[0] if isinstance(argnums, int) else tuple(jac)
    return run


def hessian(f: Callable, argnums: int = 0) -> Callable:
    """The Hessian of a real scalar function: ``jacobian(grad(f))``.

    Parameters
    ----------
    f : callable
        A function returning a real scalar.
    argnums : int, optional
        The positional argument to differentiate with respect to.

    Returns
    -------
    callable
        ``(*args) -> hessian``, of shape ``x.shape + x.shape``.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import hessian, numpy as tnp
    >>> hessian(lambda x: tnp.sum(x ** 3))(xp.asarray([1.0, 2.0]))
    Array([[ 6.,  0.],
           [ 0., 12.]], dtype=float64)
    """
    return jacobian(grad(f, argnums), argnums)


def stop_gradient(x):
    """``x`` as a constant: the plain array under every trace (no gradient flows through).

    Parameters
    ----------
    x : Array or Tracer
        The array.

    Returns
    -------
    Array
        The array ``x`` stands for, untraced.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import grad, numpy as tnp, stop_gradient
    >>> grad(lambda x: tnp.sum(x * stop_gradient(x)))(xp.asarray([3.0]))
    Array([3.], dtype=float64)
    """
    return unwrap(x)


class custom_vjp:
    """A function with a user-defined backward rule (JAX's ``custom_vjp``).

    Define the forward function, then ``f.defvjp(fwd, bwd)``: ``fwd(*args)`` returns
    ``(out, residuals)`` and ``bwd(residuals, g)`` a tuple with one gradient (or ``None``) per
    positional argument. ``bwd`` written with the traced namespace is itself differentiable.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import custom_vjp, grad, numpy as tnp
    >>> @custom_vjp
    ... def clipped_identity(x):
    ...     return x
    >>> clipped_identity.defvjp(lambda x: (x, None),
    ...                         lambda res, g: (tnp.clip(g, min=-1.0, max=1.0),))
    >>> grad(lambda x: tnp.sum(5 * clipped_identity(x)))(xp.asarray([1.0]))
    Array([1.], dtype=float64)
    """

    def __init__(self, fun: Callable) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.fwd: Callable | None = None
        self.bwd: Callable | None = None

    def defvjp(self, fwd: Callable, bwd: Callable) -> None:
        """Set the forward function and the backward rule.

        Parameters
        ----------
        fwd : callable
            ``fwd(*args) -> (out, residuals)``.
        bwd : callable
            ``bwd(residuals, g)``: a tuple with one gradient (or ``None``) per positional
            argument.
        """
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args):
        top = _top(args)
        if not top:
            return self.fun(*args)
        if self.fwd is None:
            raise TypeError(f"{self.__name__} has no rule: call defvjp(fwd, bwd) first")
        vals, parents, _, any_live = _split(args, top)
        out, residuals = self.fwd(*vals)
        if not any_live or not differentiable(out.dtype):
            return Tracer(out, None, top)
        bwd = self.bwd

        def back(g):
            grads = tuple(bwd(residuals, g))
            if len(grads) != len(vals):
                raise ValueError(f"the backward rule of {self.__name__} returned "
                                 f"{len(grads)} gradients for {len(vals)} arguments")
            return grads
        node = Node(back, tuple(parents), out.shape, out.dtype, self.__name__)
        live.traces[top - 1].tape.append(node)
        return Tracer(out, node, top)


def checkpoint(f: Callable) -> Callable:
    """``f`` computed without saving its intermediate values for the backward pass: they are
    recomputed when the gradient is needed (memory for time).

    Parameters
    ----------
    f : callable
        A function of arrays returning an array.

    Returns
    -------
    callable
        ``f``, whose node keeps only its inputs and runs ``vjp(f, ...)`` in the backward pass.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import checkpoint, grad, numpy as tnp
    >>> layer = checkpoint(lambda x: tnp.tanh(tnp.tanh(x)))
    >>> float(grad(lambda x: tnp.sum(layer(x)))(xp.asarray(0.0)))
    1.0
    """
    @custom_vjp
    def run(*args):
        return f(*args)

    def fwd(*args):
        out = _constant_value(f(*args))
        return out, args

    def bwd(args, g):
        nums = tuple(i for i, a in enumerate(args)
                     if (type(a) is Tracer or isinstance(a, arrayx.Array))
                     and differentiable(a.dtype))
        _, back = vjp(lambda *xs: f(*_place(args, nums, xs)), *(args[i] for i in nums))
        grads = dict(zip(nums, back(g), strict=False))
        return tuple(grads.get(i) for i in range(len(args)))

    run.defvjp(fwd, bwd)
    functools.update_wrapper(run, f)
    return run


def _place(args, nums, xs):
    args = list(args)
    for i, x in zip(nums, xs, strict=False):
        args[i] = x
    return args


def _constant_value(out):
    """``out`` without the constant wrapper of the innermost trace (made by creation
    functions inside ``f``)."""
    if type(out) is Tracer and out.node is None and out.level == len(live.traces):
        return out.value
    return out

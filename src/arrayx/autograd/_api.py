"""The reverse-mode transformations: grad, value_and_grad, vjp, jacobian, hessian and
stop_gradient; and the tracing of a call that they (and forward mode) share. Arguments and
results may be tuples, lists and dicts of arrays (``_pytree``)."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence

import arrayx
from arrayx.autograd._backward import backward
from arrayx.autograd._pytree import LEAF, flatten, unflatten
from arrayx.autograd._tracer import (
    Node,
    Trace,
    Tracer,
    differentiable,
    pop_trace,
    push_trace,
    traced,
    unwrap,
)
from arrayx.autograd._vmap import (
    VMAP_RULES,
    Batched,
    batch_call,
    batch_inputs,
    has_batched,
    out_axes_applied,
    per_example,
    per_example_inputs,
    relevel,
    whole_batches,
)


def _as_input(x, name: str):
    """``x`` as an array to differentiate with respect to: ``TypeError`` unless it is a
    floating-point or complex array (or Python float/complex)."""
    if isinstance(x, (float, complex)) and not isinstance(x, bool):
        x = arrayx.asarray(x)
    if not (type(x) is Tracer or isinstance(x, arrayx.Array)):
        raise TypeError(f"{name} must be an array (or a tuple, list or dict of arrays), got "
                        f"{type(x).__name__}")
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


@dataclasses.dataclass(slots=True)
class Input:
    """An argument being differentiated: its leaves (arrays), their nodes and its structure."""

    leaves: list
    nodes: list
    structure: object


@dataclasses.dataclass(slots=True)
class Traced:
    """A traced call: its trace, its inputs, its output's leaves (one level down) with their
    nodes (``None`` for a constant leaf) and structure, and the auxiliary data."""

    trace: object
    inputs: list
    outs: list
    out_nodes: list
    structure: object
    aux: object

    def out(self):
        """The output, as ``f`` returned it (tuples, lists and dicts rebuilt)."""
        return unflatten(self.structure, self.outs)

    def gradients(self, cotangents: list, retain: bool) -> list:
        """The backward pass from the outputs' ``cotangents`` (one per output leaf, ``None``
        for zero): one tree per input, zeros where no gradient reached."""
        outs = [(node, ct) for node, ct in zip(self.out_nodes, cotangents, strict=True)
                if node is not None and ct is not None]
        if outs:
            backward(self.trace, outs, retain)
        nodes = {id(n): n for inp in self.inputs for n in inp.nodes}
        held = {key: node.g for key, node in nodes.items()}
        for node in nodes.values():
            node.g = None
        return [unflatten(inp.structure, [
            traced.zeros_like(x) if held[id(n)] is None else held[id(n)]
            for x, n in zip(inp.leaves, inp.nodes, strict=True)]) for inp in self.inputs]


def trace_call(f: Callable, args: Sequence, nums: tuple[int, ...],
               has_aux: bool = False) -> Traced:
    """Run ``f`` with the leaves of ``args[i]`` (``i`` in ``nums``) as tracers of a new trace.
    A repeated entry of ``nums`` shares its argument's nodes, so each gets the whole
    gradient."""
    trace = push_trace()
    try:
        args = list(args)
        made = {}
        for i in nums:
            if i in made:
                continue
            leaves, structure = flatten(args[i])
            leaves = [_as_input(x, f"argument {i}") for x in leaves]
            nodes = [Node(None, (), x.shape, x.dtype, "input") for x in leaves]
            made[i] = Input(leaves, nodes, structure)
            args[i] = unflatten(structure, [Tracer(x, n, trace.level)
                                            for x, n in zip(leaves, nodes, strict=True)])
        out = f(*args)
    finally:
        pop_trace(trace)
    aux = None
    if has_aux:
        if not (isinstance(out, tuple) and len(out) == 2):
            raise TypeError("with has_aux=True, the function must return a pair (out, aux)")
        out, aux = out
        aux = _lower(aux, trace)
    leaves, structure = flatten(out)
    outs, out_nodes = [], []
    for leaf in leaves:
        if type(leaf) is Tracer and leaf.level == trace.level:
            outs.append(leaf.value)
            out_nodes.append(leaf.node if differentiable(leaf.dtype) else None)
        elif type(leaf) is Tracer or isinstance(leaf, arrayx.Array):
            outs.append(leaf)
            out_nodes.append(None)
        elif type(leaf) is Batched:
            raise TypeError("the function's result is batched by a vmap that it closes over; "
                            "pass the batched array as an argument of the transformed function")
        else:
            raise TypeError(f"the function must return an array (or a tuple, list or dict of "
                            f"arrays), got {type(leaf).__name__}")
    return Traced(trace, [made[i] for i in nums], outs, out_nodes, structure, aux)


def _lower(x, trace: Trace):
    """``x`` (or the arrays in a tuple, list or dict) with ``trace``'s tracers unwrapped."""
    if type(x) is Tracer:
        return x.value if x.level == trace.level else x
    if isinstance(x, (list, tuple)):
        return type(x)(_lower(i, trace) for i in x)
    if isinstance(x, dict):
        return {k: _lower(v, trace) for k, v in x.items()}
    return x


def _cotangents(call: Traced, cotangent) -> list:
    """The leaves of ``cotangent``, checked against the output's structure and shapes."""
    leaves, structure = flatten(cotangent)
    if structure != call.structure:
        raise ValueError("the cotangent's structure differs from the output's")
    out = []
    for ct, o in zip(leaves, call.outs, strict=True):
        ct = ct if type(ct) is Tracer else arrayx.asarray(ct)
        if ct.shape != o.shape:
            raise ValueError(f"the cotangent has shape {ct.shape}; the output has {o.shape}")
        out.append(ct)
    return out


def vjp(f: Callable, *primals, has_aux: bool = False):
    """The value of ``f(*primals)`` and its vector-Jacobian product function.

    Parameters
    ----------
    f : callable
        A function of arrays (or tuples, lists and dicts of them) returning the same.
    *primals : Array or tuple, list or dict of Array
        The floating-point or complex arrays to differentiate with respect to.
    has_aux : bool, optional
        Whether ``f`` returns a pair ``(out, aux)``; ``aux`` is returned as it is.

    Returns
    -------
    tuple
        ``(out, vjp_fn)``, or ``(out, vjp_fn, aux)``; ``vjp_fn(cotangent)`` (a cotangent of
        ``out``'s structure) returns a tuple with one gradient per primal, of the primal's
        structure (PyTorch's convention for complex values: the conjugate Wirtinger
        derivative). ``vjp_fn`` may be called many times; the tape lives as long as it does.

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
    >>> out, back = vjp(lambda p: {"y": p["a"] * p["b"]}, {"a": xp.asarray(2.0),
    ...                                                     "b": xp.asarray(3.0)})
    >>> back({"y": xp.asarray(1.0)})
    ({'a': Array(3., dtype=float64), 'b': Array(2., dtype=float64)},)
    """
    if has_batched(primals):
        raise TypeError("vjp inside vmap has no batching rule: vmap a function that calls "
                        "vjp and its vjp_fn together, or use grad")
    call = trace_call(f, primals, tuple(range(len(primals))), has_aux)

    def vjp_fn(cotangent):
        return tuple(call.gradients(_cotangents(call, cotangent), retain=True))

    out = call.out()
    return (out, vjp_fn, call.aux) if has_aux else (out, vjp_fn)


def value_and_grad(f: Callable, argnums: int | Sequence[int] = 0,
                   has_aux: bool = False) -> Callable:
    """A function returning ``f``'s value and its gradient with respect to ``argnums``.

    Parameters
    ----------
    f : callable
        A function returning a real scalar (an array of one element).
    argnums : int or sequence of int, optional
        The positional arguments to differentiate with respect to; each may be an array or a
        tuple, list or dict of arrays (its gradient has the same structure).
    has_aux : bool, optional
        Whether ``f`` returns a pair ``(out, aux)``.

    Returns
    -------
    callable
        ``(*args) -> (value, grad)``, or ``((value, aux), grad)`` with ``has_aux``; ``grad``
        is the gradient for an int ``argnums`` and a tuple of them otherwise.

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
        if has_batched(args):
            return _per_example_value_and_grad(f, argnums, has_aux, args, nums)
        call = trace_call(f, args, nums, has_aux)
        if call.structure != LEAF:
            _not_scalar(type(call.out()).__name__, "arrays")
        return _value_and_gradients(call, argnums, has_aux)
    VMAP_RULES[run] = functools.partial(_vmapped, f, argnums, has_aux, False)
    return run


def _not_scalar(shape, dtype, per: str = ""):
    raise TypeError(f"grad needs a real scalar output{per}; got {shape} of {dtype} (use vjp "
                    f"or jacobian)")


def _value_and_gradients(call: Traced, argnums, has_aux: bool):
    """``value_and_grad``'s result from the traced call of a function of one output."""
    out = call.outs[0]
    if out.dtype.kind == "c" or math.prod(out.shape) != 1:
        _not_scalar(out.shape, out.dtype)
    return ((out, call.aux) if has_aux else out), _seeded(call, argnums)


def _seeded(call: Traced, argnums):
    """The gradients of the sum of the traced call's one output (its tape then cleared):
    one for an int ``argnums``, a tuple of them otherwise."""
    try:
        grads = call.gradients([traced.ones_like(call.outs[0])], retain=False)
    finally:
        call.trace.tape.clear()
    return grads[0] if isinstance(argnums, int) else tuple(grads)


def _per_example_value_and_grad(f: Callable, argnums, has_aux: bool, args, nums):
    """``value_and_grad(f, argnums)`` on every example inside ``vmap``."""
    top, size, full, in_axes = per_example_inputs(args, nums)
    values, grads = _summed_gradients(f, argnums, has_aux, full, nums, in_axes, top, size)
    if has_aux:
        values = (relevel(values[0], top), relevel(values[1], top))
    else:
        values = relevel(values, top)
    return values, relevel(grads, top)


def _vmapped(f: Callable, argnums, has_aux: bool, only_grad: bool, in_axes, out_axes, args):
    """``vmap(value_and_grad(f, argnums, has_aux), in_axes, out_axes)(*args)`` (or of
    ``grad``, ``only_grad``) in one pass, without batching the arguments twice."""
    nums = _argnums(argnums, len(args))
    flat, axes, size = batch_inputs(in_axes, args)
    full, inner = whole_batches(flat, axes, nums, size)
    values, grads = _summed_gradients(f, argnums, has_aux, full, nums, inner, None, size)
    if only_grad:
        out = (grads, values[1]) if has_aux else grads
    else:
        out = values, grads
    return out_axes_applied(out, out_axes)


def _summed_gradients(f: Callable, argnums, has_aux: bool, full: list, nums, in_axes,
                      level: int | None, size: int):
    """Per-example values and gradients (batch axis first): the gradient of the batch's sum
    (the examples' values seeded with ones) with respect to per-example inputs (``full``:
    whole batches of ``size`` examples, inputs not batched copied to every example), the
    batch run by ``vmap`` at ``level`` (a new one for None)."""
    def batch(*xs):
        out = batch_call(f, in_axes, 0, xs, level=level, size=size)
        values, aux = out if has_aux else (out, None)
        if not hasattr(values, "shape"):
            _not_scalar(type(values).__name__, "arrays", " per example")
        if values.dtype.kind == "c" or math.prod(values.shape[1:]) != 1:
            _not_scalar(tuple(values.shape[1:]), values.dtype, " per example")
        return values, aux

    call = trace_call(batch, full, nums, has_aux=True)
    grads = _seeded(call, argnums)
    return ((call.outs[0], call.aux) if has_aux else call.outs[0]), grads


def grad(f: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False) -> Callable:
    """The gradient of a real scalar function ``f`` with respect to ``argnums``.

    Parameters
    ----------
    f : callable
        A function returning a real scalar, written against the array API
        (``xp = x.__array_namespace__()``).
    argnums : int or sequence of int, optional
        The positional arguments to differentiate with respect to; each may be an array or a
        tuple, list or dict of arrays (its gradient has the same structure).
    has_aux : bool, optional
        Whether ``f`` returns a pair ``(out, aux)``; then the result is ``(grad, aux)``.

    Returns
    -------
    callable
        ``(*args) -> grad`` (a gradient, or a tuple of them for a sequence ``argnums``).

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
    >>> grad(lambda p: tnp.sum(p["w"] * p["b"]))({"w": xp.ones(2), "b": xp.asarray(3.0)})
    {'b': Array(2., dtype=float64), 'w': Array([3., 3.], dtype=float64)}
    """
    vg = value_and_grad(f, argnums, has_aux)

    @functools.wraps(f)
    def run(*args):
        value, g = vg(*args)
        return (g, value[1]) if has_aux else g
    VMAP_RULES[run] = functools.partial(_vmapped, f, argnums, has_aux, True)
    return run


def _columns(rows: list, call: Traced) -> list:
    """The Jacobian blocks from its rows: ``rows[k]`` holds, per input, the gradient tree of
    output element ``k`` (elements of the output leaves one after another). Each block is
    ``out_leaf.shape + in_leaf.shape``; the result is, per input, the output's structure of
    the input's structure."""
    per_input = []
    for j, inp in enumerate(call.inputs):
        row_leaves = [flatten(r[j])[0] for r in rows]
        by_output = []
        start = 0
        for o in call.outs:
            n = math.prod(o.shape)
            blocks = []
            for i, x in enumerate(inp.leaves):
                if n:
                    col = traced.stack([row_leaves[k][i] for k in range(start, start + n)])
                else:
                    col = traced.zeros((0,) + x.shape, dtype=x.dtype)
                blocks.append(traced.reshape(col, o.shape + x.shape))
            by_output.append(unflatten(inp.structure, blocks))
            start += n
        per_input.append(unflatten(call.structure, by_output))
    return per_input


def jacobian(f: Callable, argnums: int | Sequence[int] = 0) -> Callable:
    """The Jacobian of ``f`` (reverse mode): an array of shape ``out.shape + x.shape`` per
    argument.

    Built from one forward pass and one vector-Jacobian product per output element.

    Parameters
    ----------
    f : callable
        A function of arrays returning an array (or a tuple, list or dict of them).
    argnums : int or sequence of int, optional
        The positional arguments to differentiate with respect to.

    Returns
    -------
    callable
        ``(*args) -> jacobian`` (for an int ``argnums``; a tuple, one per argument,
        otherwise). For tree inputs or outputs, the output's structure holds the input's
        structure of blocks (as JAX's ``jacrev``). For a complex output, row ``k`` is the
        gradient of ``Re(out[k])``.

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
        if has_batched(args):
            return per_example(run, args)
        nums = _argnums(argnums, len(args))
        call = trace_call(f, args, nums)
        rows = []
        for p, o in enumerate(call.outs):
            n = math.prod(o.shape)
            eye = arrayx.eye(n, dtype=o.dtype) if differentiable(o.dtype) else None
            for k in range(n):
                cts = [None] * len(call.outs)
                if eye is not None:
                    cts[p] = arrayx.reshape(eye[k], o.shape)
                rows.append(call.gradients(cts, retain=True))
        call.trace.tape.clear()
        jac = _columns(rows, call)
        return jac[0] if isinstance(argnums, int) else tuple(jac)
    return run


def hessian(f: Callable, argnums: int = 0) -> Callable:
    """The Hessian of a real scalar function: ``jacfwd(grad(f))``, forward over reverse.

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
    from arrayx.autograd._forward import jacfwd
    return jacfwd(grad(f, argnums), argnums)


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

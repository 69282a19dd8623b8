"""Forward mode: ``linearize``, ``jvp`` and ``jacfwd``, by transposing the reverse pass.

The vector-Jacobian product ``u -> J^H u`` of a traced call is linear in ``u``. Traced itself
(its rules are written with the traced namespace), its own vector-Jacobian product is the
transpose of that linear map, ``t -> J t``: the Jacobian-vector product. This is exact (a
linear map's transpose's transpose is itself, also for complex values under the real inner
product ``Re <a, b>`` that both directions use), so every rule with a VJP has a JVP; one
transposed pass serves every tangent. The backward pass is traced at a cotangent with no zero
element (``_generic``), where the rules that mask an exact-zero cotangent are linear.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import arrayx
from arrayx.autograd._api import _argnums, trace_call
from arrayx.autograd._pytree import flatten, unflatten
from arrayx.autograd._tracer import Tracer, differentiable, traced
from arrayx.autograd._vmap import has_batched, per_example


def linearize(f: Callable, *primals):
    """The value of ``f(*primals)`` and its Jacobian-vector product function.

    Parameters
    ----------
    f : callable
        A function of arrays (or tuples, lists and dicts of them) returning the same.
    *primals : Array or tuple, list or dict of Array
        The floating-point or complex arrays to differentiate with respect to.

    Returns
    -------
    tuple
        ``(out, jvp_fn)``: ``jvp_fn(*tangents)`` (one tangent per primal, of its structure
        and shapes) returns the directional derivative of ``out`` (of ``out``'s structure;
        zeros for integer and boolean outputs). ``jvp_fn`` may be called many times.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import linearize, numpy as tnp
    >>> out, jvp_fn = linearize(tnp.sin, xp.asarray([0.0, 1.0]))
    >>> jvp_fn(xp.asarray([1.0, 2.0]))
    Array([1.        , 1.08060461], dtype=float64)
    """
    if has_batched(primals):
        raise TypeError("linearize inside vmap has no batching rule: vmap a function that "
                        "calls jvp instead")
    call = trace_call(f, primals, tuple(range(len(primals))))
    live = [i for i, o in enumerate(call.outs) if differentiable(o.dtype)]

    def back(*cotangents):
        full = [None] * len(call.outs)
        for i, ct in zip(live, cotangents, strict=True):
            full[i] = ct
        return call.gradients(full, retain=True)

    transposed = trace_call(back, [_generic(call.outs[i]) for i in live],
                            tuple(range(len(live))))
    primal_leaves = [leaf for inp in call.inputs for leaf in inp.leaves]

    def jvp_fn(*tangents):
        leaves, structure = flatten(list(tangents))
        if structure != transposed.structure:
            raise ValueError("the tangents' structure differs from the primals'")
        checked = []
        for t, x in zip(leaves, primal_leaves, strict=True):
            t = t if type(t) is Tracer else arrayx.asarray(t, dtype=x.dtype)
            if t.shape != x.shape:
                raise ValueError(f"a tangent has shape {t.shape}; its primal has {x.shape}")
            checked.append(t)
        moved = transposed.gradients(checked, retain=True)
        out = [traced.zeros_like(o) for o in call.outs]
        for i, t in zip(live, moved, strict=True):
            out[i] = t
        return unflatten(call.structure, out)

    return call.out(), jvp_fn


def _generic(out):
    """A cotangent of ``out`` to linearize the backward pass at: the pass is linear in it, but
    rules that give an exact 0 where the cotangent is 0 (``_rules._masked``) branch on its
    value, so it is one with no zero and no two elements alike (an irregular sequence in
    [1, 2), complex for a complex output)."""
    k = arrayx.reshape(arrayx.arange(math.prod(out.shape), dtype=arrayx.float64), out.shape)
    u = arrayx.sin(k * 12.9898 + 0.5) * 43758.5453
    u = 1.0 + (u - arrayx.floor(u))
    if out.dtype.kind == "c":
        u = u + 1j * (2.0 - u)
    return arrayx.astype(u, out.dtype)


def jvp(f: Callable, primals: Sequence, tangents: Sequence):
    """The value of ``f(*primals)`` and its derivative in the direction ``tangents``.

    Parameters
    ----------
    f : callable
        A function of arrays (or tuples, lists and dicts of them) returning the same.
    primals : sequence
        The arguments.
    tangents : sequence
        One tangent per primal, of its structure and shapes.

    Returns
    -------
    tuple
        ``(out, tangent_out)``, as ``torch.func.jvp`` and ``jax.jvp``.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import jvp, numpy as tnp
    >>> jvp(lambda x: x ** 3, (xp.asarray(2.0),), (xp.asarray(1.0),))
    (Array(8., dtype=float64), Array(12., dtype=float64))
    """
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp got {len(tangents)} tangents for {len(primals)} primals")
    if has_batched(primals) or has_batched(tangents):
        return per_example(lambda p, t: jvp(f, p, t), (primals, tangents))
    out, jvp_fn = linearize(f, *primals)
    return out, jvp_fn(*tangents)


def jacfwd(f: Callable, argnums: int | Sequence[int] = 0) -> Callable:
    """The Jacobian of ``f`` in forward mode: one Jacobian-vector product per input element.

    Parameters
    ----------
    f, argnums
        As :func:`jacobian` takes them.

    Returns
    -------
    callable
        ``(*args) -> jacobian``, laid out as :func:`jacobian`'s: blocks of shape
        ``out.shape + x.shape``. For a complex input, column ``k`` is the derivative along
        the real direction of element ``k``.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import jacfwd
    >>> jacfwd(lambda x: x[:1] * x[1:])(xp.asarray([2.0, 3.0]))
    Array([[3., 2.]], dtype=float64)
    """
    @functools.wraps(f)
    def run(*args):
        if has_batched(args):
            return per_example(run, args)
        nums = _argnums(argnums, len(args))
        unique = tuple(dict.fromkeys(nums))

        def g(*xs):
            full = list(args)
            for i, x in zip(unique, xs, strict=True):
                full[i] = x
            return f(*full)

        out, jvp_fn = linearize(g, *(args[i] for i in unique))
        outs, out_structure = flatten(out)
        blocks = {}
        trees = [flatten(args[i]) for i in unique]
        zeros = [[traced.zeros_like(arrayx.asarray(y)) for y in ls] for ls, _ in trees]
        for j, (leaves, structure) in enumerate(trees):
            per_leaf = []
            for p, x in enumerate(leaves):
                x = arrayx.asarray(x)
                n = math.prod(x.shape)
                eye = arrayx.eye(n, dtype=x.dtype)
                columns = []
                for k in range(n):
                    tangent_leaves = list(zeros[j])
                    tangent_leaves[p] = arrayx.reshape(eye[k], x.shape)
                    tangents = [unflatten(s, tangent_leaves if i == j else zeros[i])
                                for i, (_, s) in enumerate(trees)]
                    columns.append(flatten(jvp_fn(*tangents))[0])
                per_leaf.append([_block(o, [c[q] for c in columns], x)
                                 for q, o in enumerate(outs)])
            by_output = [unflatten(structure, [per_leaf[p][q] for p in range(len(leaves))])
                         for q in range(len(outs))]
            blocks[unique[j]] = unflatten(out_structure, by_output)
        jac = [blocks[i] for i in nums]
        return jac[0] if isinstance(argnums, int) else tuple(jac)
    return run


def _block(out, columns: list, x):
    """The Jacobian block of ``out`` with respect to ``x`` from its columns."""
    if not columns:
        return traced.zeros(out.shape + x.shape, dtype=out.dtype)
    return traced.reshape(traced.stack(columns, axis=-1), out.shape + x.shape)

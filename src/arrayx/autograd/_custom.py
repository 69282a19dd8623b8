"""Functions with rules of their own: ``custom_vjp`` (a backward rule), ``custom_jvp`` (a
forward rule, transposed for the backward pass) and ``checkpoint`` (recomputation)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import arrayx
from arrayx.autograd._api import vjp
from arrayx.autograd._tracer import Node, Tracer, _split, _top, differentiable, live, unwrap


class _Custom:
    """A function with a rule of its own: ``__call__`` runs it plainly outside every trace,
    and otherwise ``_traced(vals, top)`` gives its value and its node's backward closure."""

    how = ""

    def __init__(self, fun: Callable) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.rule = None

    def __call__(self, *args):
        top = _top(args)
        if not top:
            return self.fun(*args)
        if self.rule is None:
            raise TypeError(f"{self.__name__} has no rule: call {self.how} first")
        vals, parents, _, any_live = _split(args, top)
        out, back = self._traced(vals)
        if not any_live or not differentiable(out.dtype):
            return Tracer(out, None, top)
        node = Node(back, tuple(parents), out.shape, out.dtype, self.__name__)
        live.traces[top - 1].tape.append(node)
        return Tracer(out, node, top)


class custom_vjp(_Custom):
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

    how = "defvjp(fwd, bwd)"

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
        self.rule = (fwd, bwd)

    def _traced(self, vals):
        fwd, bwd = self.rule
        out, residuals = fwd(*vals)
        name = self.__name__

        def back(g):
            grads = tuple(bwd(residuals, g))
            if len(grads) != len(vals):
                raise ValueError(f"the backward rule of {name} returned {len(grads)} "
                                 f"gradients for {len(vals)} arguments")
            return grads
        return out, back


class custom_jvp(_Custom):
    """A function with a user-defined forward rule (JAX's ``custom_jvp``).

    Define the function, then ``f.defjvp(rule)``: ``rule(primals, tangents)`` returns
    ``(out, tangent_out)``, with ``tangent_out`` linear in ``tangents`` (one tangent per
    positional argument, ``None`` for one that is not floating point). Reverse mode
    differentiates through the rule's transpose: the vector-Jacobian product of
    ``tangents -> tangent_out``, so one rule serves ``grad``, ``jvp`` and their compositions.
    The rule written with the traced namespace is itself differentiable.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import custom_jvp, grad, jvp, numpy as tnp
    >>> @custom_jvp
    ... def log1pexp(x):
    ...     return tnp.log(1.0 + tnp.exp(x))
    >>> log1pexp.defjvp(lambda p, t: (log1pexp(p[0]),
    ...                               t[0] * (1.0 - 1.0 / (1.0 + tnp.exp(p[0])))))
    >>> grad(lambda x: tnp.sum(log1pexp(x)))(xp.asarray([0.0, 100.0]))
    Array([0.5, 1. ], dtype=float64)
    >>> jvp(log1pexp, (xp.asarray(0.0),), (xp.asarray(2.0),))[1]
    Array(1., dtype=float64)
    """

    how = "defjvp(rule)"

    def defjvp(self, rule: Callable) -> None:
        """Set the forward rule.

        Parameters
        ----------
        rule : callable
            ``rule(primals, tangents) -> (out, tangent_out)``, linear in ``tangents``.
        """
        self.rule = rule

    def _traced(self, vals):
        rule = self.rule
        out = self.fun(*vals)
        nums = _differentiable(vals)

        def tangent_map(*ts):
            return rule(tuple(vals), tuple(_place([None] * len(vals), nums, ts)))[1]

        def back(g):
            _, transpose = vjp(tangent_map, *(arrayx.zeros_like(unwrap(vals[i]))
                                              for i in nums))
            return tuple(_place([None] * len(vals), nums, transpose(g)))
        return out, back


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
        nums = _differentiable(args)
        _, back = vjp(lambda *xs: f(*_place(args, nums, xs)), *(args[i] for i in nums))
        return tuple(_place([None] * len(args), nums, back(g)))

    run.defvjp(fwd, bwd)
    functools.update_wrapper(run, f)
    return run


def _differentiable(args) -> tuple[int, ...]:
    """The positions of the floating-point and complex arrays among ``args``."""
    return tuple(i for i, a in enumerate(args)
                 if (type(a) is Tracer or isinstance(a, arrayx.Array)) and differentiable(a.dtype))


def _place(args, nums, xs) -> list:
    """``args`` with ``xs`` in positions ``nums``."""
    args = list(args)
    for i, x in zip(nums, xs, strict=True):
        args[i] = x
    return args


def _constant_value(out):
    """``out`` without the constant wrapper of the innermost trace (made by creation
    functions inside ``f``)."""
    if type(out) is Tracer and out.node is None and out.level == len(live.traces):
        return out.value
    return out

"""The vector-Jacobian products: one entry per differentiable function, as data.

``RULES[name]`` is either a tuple with one *maker* per positional array input, each
``maker(ans, *args, **kw) -> (g -> gradient of that input)``, so that a node keeps only the
closures, and the values they name, of the inputs that need a gradient (as HIPS/autograd's
``defvjp``); or one joint maker whose closure returns a tuple of gradients (``None`` for none).
Every rule is written with the traced namespace, so the backward pass of an inner
transformation is itself traced when an outer one is live (``grad(grad(f))``).

Broadcasting and dtype are not the rules' concern: the backward pass fits each gradient to its
input (``_tracer.fit``: ``sum_to`` for broadcast axes, the real part for a real input, a cast).

Complex gradients follow PyTorch: a rule multiplies the cotangent by the *conjugate* of the
derivative, so the gradient of a real loss ``L`` is ``dL/dRe(z) + 1j * dL/dIm(z)``, the
direction of steepest ascent (JAX returns its conjugate).

Where a derivative is singular (``sqrt``, ``log``, ``divide`` ... at the edge of their domain)
the rule multiplies through :func:`_masked`, which gives 0 where the cotangent is 0: the
cotangent that ``where`` sends to an unselected branch is an exact 0, so
``where(x > 0, sqrt(x), 0)`` has a finite gradient everywhere (no ``0 * inf``).
"""

from __future__ import annotations

import cmath
import itertools
import math

import arrayx as ax
from arrayx._indexing import scatter_add as _scatter_add
from arrayx.autograd._tracer import Tracer
from arrayx.autograd._tracer import traced as xp


def _cj(x):
    """The complex conjugate of an array or Python scalar (itself when real)."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return x.conjugate() if isinstance(x, complex) else x
    return xp.conj(x) if dtype.kind == "c" else x


def _mul(g, d):
    """``g`` times the conjugate of the derivative ``d`` (an array)."""
    return g * (xp.conj(d) if d.dtype.kind == "c" else d)


def _masked(g, d):
    """``g * conj(d)``, exactly 0 where ``g`` is 0 (so a singular ``d`` there gives no NaN)."""
    return xp.where(g == 0, 0.0, g * _cj(d))


def _unary(derivative, masked=False, of="x"):
    """A rule for ``f(x)`` from ``derivative(v)``, ``v`` the input (``of="x"``) or the result
    (``of="ans"``): the node keeps that one only."""
    times = _masked if masked else _mul
    if of == "x":
        def maker(ans, x, *args, **kw):
            return lambda g: times(g, derivative(x))
    else:
        def maker(ans, x, *args, **kw):
            return lambda g: times(g, derivative(ans))
    return (maker,)


def _axes(axis, ndim: int) -> tuple:
    """``axis`` (None, an int or a tuple) as a tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(a % ndim if ndim else a for a in axis)


def _expand(g, shape: tuple, axis, keepdims: bool):
    """A reduction's cotangent ``g`` broadcast back to the input's ``shape``."""
    if not keepdims:
        axes = _axes(axis, len(shape))
        g = xp.reshape(g, tuple(1 if i in axes else n for i, n in enumerate(shape)))
    return xp.broadcast_to(g, shape)


def _count(shape: tuple, axis) -> int:
    return math.prod(shape[a] for a in _axes(axis, len(shape)))


# --- elementwise --------------------------------------------------------------------------

def _abs(ans, x):
    if x.dtype.kind == "c":
        # x / |x|, 0 at 0 (as PyTorch: the real abs's sign(0) is 0 too; 0 / 0 gave NaN).
        return lambda g: _masked(g, xp.conj(x / xp.where(ans == 0, 1.0, ans)))
    return lambda g: g * xp.sign(x)


def _beneath_traces(v):
    """``v``'s value beneath every trace (a tracer's value, down to an array or a vmap
    batch): what any trace, an enclosing one too, takes as a constant."""
    while isinstance(v, Tracer):
        v = v.value
    return v


def _any_of(v) -> bool:
    """Whether any element of ``v`` (beneath traces and vmap batches: of all examples) is
    true; a Python bool as itself."""
    while not isinstance(v, ax.Array) and hasattr(v, "value"):
        v = v.value
    return bool(ax.any(v)) if isinstance(v, ax.Array) else bool(v)


def _maximum_side(first: bool, pick):
    """One input's rule of maximum or minimum: the gradient goes to the input that wins, and
    half of it to each where they tie (as PyTorch's). The node keeps boolean masks, not the
    inputs (a quarter of float32's memory), and no tie mask when there are no ties. The masks
    are made from the inputs' values beneath every trace: made in the trace of the moment,
    they belonged to it, and a nested transformation (``grad(grad(f))``, ``hessian``) used
    them after it had ended; their derivative is zero wherever they change nothing."""
    def maker(ans, x1, x2):
        a, b = _beneath_traces(x1), _beneath_traces(x2)
        win = pick(a, b) if first else pick(b, a)
        tie = a == b
        if not _any_of(tie):
            return lambda g: xp.where(win, g, 0.0)
        return lambda g: xp.where(win, g, xp.where(tie, g / 2, 0.0))
    return maker


def _pow_base(ans, x1, x2):
    if isinstance(x2, (int, float)):
        if x2 == 0:
            return lambda g: None
        if x2 == 1:
            return lambda g: g
        if x2 == 2:
            return lambda g: _masked(g, 2 * x1)
    if isinstance(x2, (int, float, complex)):
        return lambda g: _masked(g, x2 * x1 ** (x2 - 1))
    # x ** 0 is constant: no 0 * 0 ** -1 (NaN) where x is 0.
    return lambda g: _masked(g, xp.where(x2 == 0, 0.0, x2 * x1 ** (x2 - 1)))


def _divide_numerator(ans, x1, x2):
    if isinstance(x2, (int, float, complex)):
        # 1 / 0 is inf, as PyTorch's gradient (Python's 1 / 0 raises).
        scale = _cj(1 / x2) if x2 != 0 else math.inf
        return lambda g: g * scale
    return lambda g: _masked(g, 1 / x2)


def _pow_exponent(ans, x1, x2):
    if isinstance(x1, (int, float, complex)):
        # A Python base: its logarithm once (NaN for a negative real base, as PyTorch).
        if x1 == 0:
            return lambda g: None
        if isinstance(x1, complex):
            log_base = cmath.log(x1)
        else:
            log_base = math.log(x1) if x1 > 0 else math.nan
        return lambda g: _mul(g, ans * log_base)

    def vjp(g):
        d = _mul(g, xp.log(xp.where(x1 == 0, 1.0, x1)) * ans)
        return xp.where(x1 == 0, 0.0, d)
    return vjp


def _clip_x(ans, x, lo=None, hi=None):
    def vjp(g):
        keep = None
        if lo is not None:
            keep = x >= lo
        if hi is not None:
            keep = x <= hi if keep is None else xp.logical_and(keep, x <= hi)
        return g if keep is None else xp.where(keep, g, 0.0)
    return vjp


def _clip_lo(ans, x, lo, hi):
    """clip's ``min`` gets the gradient where it is the result: below it, unless it is above
    ``max`` (the result is then ``max`` everywhere, as the forward computes it)."""
    def vjp(g):
        chosen = x < lo
        if hi is not None:
            chosen = xp.logical_and(chosen, lo <= hi)
        return xp.where(chosen, g, 0.0)
    return vjp


def _clip_hi(ans, x, lo, hi):
    """clip's ``max`` gets the gradient above it, and everywhere when ``min`` is above it."""
    def vjp(g):
        chosen = x > hi
        if lo is not None:
            chosen = xp.logical_or(chosen, lo > hi)
        return xp.where(chosen, g, 0.0)
    return vjp


def _greater(a, b):
    return a > b


def _less(a, b):
    return a < b


ELEMENTWISE = {
    "abs": (_abs,),
    "acos": _unary(lambda x: -1 / xp.sqrt(1 - x * x), masked=True),
    # sqrt(x - 1) sqrt(x + 1), not sqrt(x * x - 1): the same for real x > 1, and the
    # principal branch's derivative for complex x (the other's sign was wrong in half the plane).
    "acosh": _unary(lambda x: 1 / (xp.sqrt(x - 1) * xp.sqrt(x + 1)), masked=True),
    "add": (lambda ans, x1, x2: lambda g: g, lambda ans, x1, x2: lambda g: g),
    "asin": _unary(lambda x: 1 / xp.sqrt(1 - x * x), masked=True),
    "asinh": _unary(lambda x: 1 / xp.sqrt(x * x + 1)),
    "atan": _unary(lambda x: 1 / (1 + x * x)),
    "atan2": (lambda ans, x1, x2: lambda g: _masked(g, x2 / (x1 * x1 + x2 * x2)),
              lambda ans, x1, x2: lambda g: _masked(g, -x1 / (x1 * x1 + x2 * x2))),
    "atanh": _unary(lambda x: 1 / (1 - x * x), masked=True),
    "clip": (_clip_x, _clip_lo, _clip_hi),
    "conj": ((lambda ans, x: lambda g: xp.conj(g)),),
    "copysign": (lambda ans, x1, x2: lambda g: xp.where(
        xp.signbit(x1) == xp.signbit(ans), g, -g), None),
    "cos": _unary(lambda x: -xp.sin(x)),
    "cosh": _unary(lambda x: xp.sinh(x)),
    "divide": (_divide_numerator,
               lambda ans, x1, x2: lambda g: _masked(g, -ans / x2)),
    "exp": _unary(lambda a: a, of="ans"),
    "expm1": _unary(lambda a: a + 1, of="ans"),
    "hypot": (lambda ans, x1, x2: lambda g: _masked(g, x1 / ans),
              lambda ans, x1, x2: lambda g: _masked(g, x2 / ans)),
    "imag": ((lambda ans, x: lambda g: g * 1j),),
    "log": _unary(lambda x: 1 / x, masked=True),
    "log1p": _unary(lambda x: 1 / (1 + x), masked=True),
    "log2": _unary(lambda x: 1 / (x * math.log(2)), masked=True),
    "log10": _unary(lambda x: 1 / (x * math.log(10)), masked=True),
    "logaddexp": (lambda ans, x1, x2: lambda g: g * xp.exp(x1 - ans),
                  lambda ans, x1, x2: lambda g: g * xp.exp(x2 - ans)),
    "maximum": (_maximum_side(True, _greater), _maximum_side(False, _greater)),
    "minimum": (_maximum_side(True, _less), _maximum_side(False, _less)),
    "multiply": (lambda ans, x1, x2: lambda g: g * _cj(x2),
                 lambda ans, x1, x2: lambda g: g * _cj(x1)),
    "negative": ((lambda ans, x: lambda g: -g),),
    "positive": ((lambda ans, x: lambda g: g),),
    "pow": (_pow_base, _pow_exponent),
    "real": ((lambda ans, x: lambda g: g),),
    "reciprocal": _unary(lambda a: -a * a, masked=True, of="ans"),
    "remainder": (lambda ans, x1, x2: lambda g: g,
                  lambda ans, x1, x2: lambda g: -g * xp.floor_divide(x1, x2)),
    "sin": _unary(lambda x: xp.cos(x)),
    "sinh": _unary(lambda x: xp.cosh(x)),
    "sqrt": _unary(lambda a: 0.5 / a, masked=True, of="ans"),
    "square": _unary(lambda x: 2 * x),
    "subtract": (lambda ans, x1, x2: lambda g: g, lambda ans, x1, x2: lambda g: -g),
    "tan": _unary(lambda a: 1 + a * a, of="ans"),
    "tanh": _unary(lambda a: 1 - a * a, of="ans"),
}


# --- statistical --------------------------------------------------------------------------

def _sum(ans, x, *, axis=None, dtype=None, keepdims=False):
    shape = x.shape
    return lambda g: _expand(g, shape, axis, keepdims)


def _mean(ans, x, *, axis=None, keepdims=False):
    shape = x.shape
    n = _count(shape, axis)
    return lambda g: _expand(g, shape, axis, keepdims) / n


def _extreme(ans, x, *, axis=None, keepdims=False):
    def vjp(g):
        hit = x == _expand(ans, x.shape, axis, keepdims)
        count = xp.sum(xp.astype(hit, x.dtype), axis=axis, keepdims=True)
        return xp.where(hit, _expand(g, x.shape, axis, keepdims) / count, 0.0)
    return vjp


def _var(ans, x, *, axis=None, correction=0.0, keepdims=False):
    n = _count(x.shape, axis) - correction
    # No positive divisor: the forward gives NaN, and so does its gradient (as PyTorch's).
    scale = 2 / n if n > 0 else math.nan

    def vjp(g):
        centred = x - xp.mean(x, axis=axis, keepdims=True)
        return _expand(g, x.shape, axis, keepdims) * centred * scale
    return vjp


def _std(ans, x, *, axis=None, correction=0.0, keepdims=False):
    n = _count(x.shape, axis) - correction

    def vjp(g):
        centred = x - xp.mean(x, axis=axis, keepdims=True)
        s = _expand(ans, x.shape, axis, keepdims)
        ge = _expand(g, x.shape, axis, keepdims)
        return xp.where(ge == 0, 0.0, ge * centred / (xp.where(s == 0, 1.0, s) * n))
    return vjp


def _leave_one_out(x, axis):
    """Each element's product of the *other* elements of its reduction (over ``axis``), from
    an exclusive cumulative product from each end: no division, so it is right where ``x``
    has zeros and is differentiable there again (a hessian of ``prod``)."""
    axes = _axes(axis, x.ndim)
    rest = tuple(a for a in range(x.ndim) if a not in axes)
    order = rest + axes
    moved = xp.permute_dims(x, order)
    flat = xp.reshape(moved, moved.shape[:len(rest)] + (_count(x.shape, axis),))
    left = xp.cumulative_prod(flat, axis=-1, include_initial=True)[..., :-1]
    right = xp.flip(xp.cumulative_prod(xp.flip(flat, axis=-1), axis=-1,
                                       include_initial=True)[..., :-1], axis=-1)
    others = xp.reshape(left * right, moved.shape)
    return xp.permute_dims(others, tuple(order.index(a) for a in range(x.ndim)))


def _prod(ans, x, *, axis=None, dtype=None, keepdims=False):
    return lambda g: _mul(_expand(g, x.shape, axis, keepdims), _leave_one_out(x, axis))


def _reverse_cumsum(g, axis: int):
    return xp.flip(xp.cumulative_sum(xp.flip(g, axis=axis), axis=axis), axis=axis)


def _scan_axis(x, axis):
    return (0 if axis is None else axis % x.ndim) if x.ndim else 0


def _drop_initial(g, axis: int, include_initial: bool):
    if not include_initial:
        return g
    key = (slice(None),) * axis + (slice(1, None),)
    return g[key]


def _cumulative_sum(ans, x, *, axis=None, dtype=None, include_initial=False):
    ax_ = _scan_axis(x, axis)
    return lambda g: _reverse_cumsum(_drop_initial(g, ax_, include_initial), ax_)


def _cumulative_prod(ans, x, *, axis=None, dtype=None, include_initial=False):
    ax_ = _scan_axis(x, axis)

    def vjp(g):
        g = _drop_initial(g, ax_, include_initial)
        a = _drop_initial(ans, ax_, include_initial)
        zero = x == 0
        first = xp.logical_and(zero, xp.cumulative_sum(xp.astype(zero, xp.int64),
                                                       axis=ax_) == 1)
        safe = xp.where(zero, 1.0, x)
        regular = xp.where(zero, 0.0, _reverse_cumsum(_mul(g, a), ax_) / _cj(safe))
        skip = xp.cumulative_prod(xp.where(first, 1.0, x), axis=ax_)
        return xp.where(first, _reverse_cumsum(_mul(g, skip), ax_), regular)
    return vjp


STATISTICAL = {
    "cumulative_prod": (_cumulative_prod,),
    "cumulative_sum": (_cumulative_sum,),
    "max": (_extreme,),
    "mean": (_mean,),
    "min": (_extreme,),
    "prod": (_prod,),
    "std": (_std,),
    "sum": (_sum,),
    "var": (_var,),
}


# --- manipulation -------------------------------------------------------------------------

def _to_shape(ans, x, *args, **kw):
    shape = x.shape
    return lambda g: xp.reshape(g, shape)


def _bounds(lengths):
    """The ``(start, stop)`` of each of consecutive runs of ``lengths``."""
    stops = list(itertools.accumulate(lengths))
    return zip([0] + stops[:-1], stops, strict=True)


def _concat(ans, *arrays, axis=0):
    shapes = [a.shape for a in arrays]

    def vjp(g):
        if axis is None:
            flat = xp.reshape(g, (-1,))
            return tuple(xp.reshape(flat[lo:hi], s) for (lo, hi), s in
                         zip(_bounds(math.prod(s) for s in shapes), shapes, strict=True))
        ax_ = axis % len(shapes[0])
        pre = (slice(None),) * ax_
        return tuple(g[pre + (slice(lo, hi),)] for lo, hi in _bounds(s[ax_] for s in shapes))
    return vjp


def _stack(ans, *arrays, axis=0):
    return lambda g: tuple(xp.unstack(g, axis=axis))


def _flip(ans, x, *, axis=None):
    return lambda g: xp.flip(g, axis=axis)


def _moveaxis(ans, x, source, destination):
    return lambda g: xp.moveaxis(g, destination, source)


def _permute_dims(ans, x, axes):
    inverse = tuple(sorted(range(len(axes)), key=lambda i: axes[i]))
    return lambda g: xp.permute_dims(g, inverse)


def _repeat(ans, x, repeats, *, axis=None):
    shape, flat = x.shape, axis is None
    ax_ = 0 if flat else axis % x.ndim
    n = x.size if flat else shape[ax_]

    def vjp(g):
        counts = (xp.full((n,), repeats, dtype=xp.int64) if isinstance(repeats, int)
                  else xp.broadcast_to(xp.astype(repeats, xp.int64), (n,)))
        ends = xp.cumulative_sum(counts)
        sums = xp.cumulative_sum(g, axis=ax_, include_initial=True)
        out = xp.take(sums, ends, axis=ax_) - xp.take(sums, ends - counts, axis=ax_)
        return xp.reshape(out, shape) if flat else out
    return vjp


def _roll(ans, x, shift, *, axis=None):
    back = tuple(-s for s in shift) if isinstance(shift, tuple) else -shift
    return lambda g: xp.roll(g, back, axis=axis)


def _tile(ans, x, repetitions):
    reps = tuple(repetitions)
    n = max(len(reps), x.ndim)
    reps = (1,) * (n - len(reps)) + reps
    shape = (1,) * (n - x.ndim) + x.shape
    inner = tuple(v for pair in zip(reps, shape, strict=True) for v in pair)
    out_shape = x.shape

    def vjp(g):
        g = xp.sum(xp.reshape(g, inner), axis=tuple(range(0, 2 * n, 2)))
        return xp.reshape(g, out_shape)
    return vjp


MANIPULATION = {
    "broadcast_to": ((lambda ans, x, shape: lambda g: g),),
    "concat": _concat,
    "expand_dims": (_to_shape,),
    "flip": (_flip,),
    "matrix_transpose": ((lambda ans, x: lambda g: xp.matrix_transpose(g)),),
    "moveaxis": (_moveaxis,),
    "permute_dims": (_permute_dims,),
    "repeat": (_repeat, None),
    "reshape": (_to_shape,),
    "roll": (_roll,),
    "squeeze": (_to_shape,),
    "stack": _stack,
    "tile": (_tile,),
}


# --- indexing, searching, sorting, casting, creation --------------------------------------

def _is_basic(key) -> bool:
    keys = key if isinstance(key, tuple) else (key,)
    return all(k is None or k is Ellipsis or isinstance(k, (int, slice)) for k in keys)


def _positions(shape: tuple, select):
    """The flat positions of the elements of an array of ``shape`` that ``select(indices)``
    picks."""
    return select(xp.reshape(xp.arange(math.prod(shape), dtype=xp.int64), shape))


def _getitem(ans, x, key):
    shape = x.shape
    if _is_basic(key):
        return lambda g: index_update(xp.zeros(shape, dtype=g.dtype), key, g)
    return lambda g: scatter_add(g, _positions(shape, lambda i: i[key]), shape)


def _take(ans, x, indices, *, axis=None):
    shape = x.shape
    return lambda g: scatter_add(
        g, _positions(shape, lambda i: xp.take(i, indices, axis=axis)), shape)


def _take_along_axis(ans, x, indices, /, axis=-1):
    shape = x.shape
    return lambda g: scatter_add(
        g, _positions(shape, lambda i: xp.take_along_axis(i, indices, axis=axis)), shape)


def _sort(ans, x, *, axis=-1, descending=False, stable=True):
    order = xp.argsort(x, axis=axis, descending=descending, stable=stable)
    return lambda g: xp.take_along_axis(g, xp.argsort(order, axis=axis), axis=axis)


def _tri(name):
    def maker(ans, x, *, k=0):
        return lambda g: getattr(xp, name)(g, k=k)
    return (maker,)


def _pad(ans, x, pad_width, mode="constant", *, constant_values=0):
    shape = x.shape

    def vjp(g):
        # Every mode gathers: pad the flat positions, -1 where a constant was written.
        positions = _positions(shape, lambda i: xp.pad(i, pad_width, mode, constant_values=-1))
        kept = positions >= 0
        return scatter_add(xp.where(kept, g, 0.0), xp.where(kept, positions, 0), shape)
    return vjp


INDEXING = {
    "getitem": (_getitem, None),
    "take": (_take, None),
    "take_along_axis": (_take_along_axis, None),
    "where": (None,
              lambda ans, c, x1, x2: lambda g: xp.where(c, g, 0.0),
              lambda ans, c, x1, x2: lambda g: xp.where(c, 0.0, g)),
    "sort": (_sort,),
    "astype": ((lambda ans, x, *a, **k: lambda g: g),),
    "tril": _tri("tril"),
    "triu": _tri("triu"),
    "pad": (_pad, None, None),
}


# --- functional updates (the primitives behind __setitem__ and the gradient of indexing) ---

def _index_update(x, key, value):
    """A copy of ``x`` with ``x[key] = value``."""
    out = ax.asarray(x, copy=True)
    out[key] = value
    return out


def _index_update_value(ans, x, key, value):
    return lambda g: g[key]


def _vecmat(x1, x2):
    """``x1 @ x2`` for a stack of rows ``x1`` (..., k) and of matrices ``x2`` (..., k, n):
    one row times one matrix per stack entry, (..., n). Copies of one matrix (a stack axis
    of stride 0: ``vmap``'s per-example copies of an unbatched weight) make one product of
    the rows with that matrix."""
    if x1.ndim == 2 and x2.ndim == 3 and x2._layout.strides[0] == 0:
        return ax.matmul(x1, x2[0])
    return ax.matmul(ax.expand_dims(x1, axis=-2), x2)[..., 0, :]


def _vecmat_row(ans, x1, x2):
    return lambda g: xp.matmul(_cj(x2), xp.expand_dims(g, axis=-1))[..., 0]


def _vecmat_matrix(ans, x1, x2):
    return lambda g: xp.expand_dims(_cj(x1), axis=-1) * xp.expand_dims(g, axis=-2)


# The primitives of arrayx.autograd's own (the traced namespace's ``IMPLEMENTATIONS``): an
# update as a new array, a scatter-add, an update through a view, and the row-times-matrix
# product per example that ``vmap`` uses for ``x @ W`` with both batched.
UPDATES = {
    "index_update": ((lambda ans, x, key, value: lambda g: index_update(g, key, 0.0)),
                     None, _index_update_value),
    "scatter_add": ((lambda ans, g, positions, shape: lambda h: xp.reshape(
        xp.take(xp.reshape(h, (-1,)), xp.reshape(positions, (-1,))), g.shape)), None, None),
    # An update through a view, on the root's flat positions ``flat`` (``_mutation``): for
    # the old root (of ``shape``) and for the value (of the selection's ``shape``).
    "flat_update": (
        lambda shape, flat: lambda g: xp.reshape(
            index_update(xp.reshape(g, (-1,)), flat, 0.0), shape),
        lambda shape, flat: lambda g: xp.reshape(xp.take(xp.reshape(g, (-1,)), flat), shape)),
    "vecmat": (_vecmat_row, _vecmat_matrix),
}


def index_update(x, key, value):
    """``x`` with ``x[key] = value``, as a new array (traced)."""
    return xp.index_update(x, key, value)


def scatter_add(g, positions, shape):
    """Zeros of ``shape`` with ``g`` added at the flat ``positions`` (traced)."""
    return xp.scatter_add(g, positions, shape)


IMPLEMENTATIONS = {"index_update": _index_update, "scatter_add": _scatter_add,
                   "vecmat": _vecmat}

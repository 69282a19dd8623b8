"""The batching rules of ``vmap``, as data: which functions batch how.

Inside ``vmap`` a batched array is a :class:`~arrayx.autograd._vmap.Batched`: its value has
the batch axis first, and it stands for one example (``shape`` is the example's). A function
called with batched arrays runs once on the whole batch by one of the rules below, chosen by
the function's name; a function without a rule runs once per example (correct, not fast).

Each rule takes the namespace to compute with, the function, the batch size, the arguments
with the batched ones replaced by their values, which of them are batched (``bat``: a parallel
list, ``True``, ``False``, or ``None`` for a non-array), the keywords likewise (``kw`` and
``kbat``), and returns the result with the batch axis first.
"""

from __future__ import annotations

from arrayx._kernels.ops import ELEMENTWISE_NAMES

# Every elementwise op of the table, and the functions that broadcast as they do.
ELEMENTWISE = frozenset([*ELEMENTWISE_NAMES, "clip", "where", "astype"])
# Functions of one array with an ``axis`` keyword; the value is the default axis.
AXIS = {
    "sum": None, "prod": None, "mean": None, "std": None, "var": None, "max": None,
    "min": None, "all": None, "any": None, "count_nonzero": None, "nansum": None,
    "nanprod": None, "nanmean": None, "nanstd": None, "nanvar": None, "nanmax": None,
    "nanmin": None, "sort": -1, "argsort": -1, "cumulative_sum": None,
    "cumulative_prod": None, "flip": None, "diff": -1, "argmax": None, "argmin": None,
    "linalg.vector_norm": None, "fft.fft": -1, "fft.ifft": -1, "fft.rfft": -1,
    "fft.irfft": -1, "fft.hfft": -1, "fft.ihfft": -1,
}
# Functions that flatten their input when ``axis`` is None.
FLATTENING = frozenset({"argmax", "argmin", "cumulative_sum", "cumulative_prod"})
# Functions of the last two axes (or of every leading one as a stack): batch axis first works.
MATRIX = frozenset({
    "linalg.inv", "linalg.det", "linalg.slogdet", "linalg.cholesky", "linalg.eigh",
    "linalg.eigvalsh", "linalg.eig", "linalg.eigvals", "linalg.svd", "linalg.svdvals",
    "linalg.qr", "linalg.pinv", "linalg.matrix_rank", "linalg.matrix_power",
    "linalg.matrix_norm", "linalg.trace", "linalg.diagonal", "matrix_transpose",
    "linalg.matrix_transpose", "tril", "triu",
})
LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like"})


def _axis(a, p: int):
    """Per-example axis ``a`` (of an example with ``p`` dimensions) in the batched value."""
    if a is None:
        return None
    if isinstance(a, tuple):
        return tuple(_axis(i, p) for i in a)
    return a + 1 if a >= 0 else a


def _align(ns, vals, bat, rank: int | None = None):
    """The batched values with ones inserted after the batch axis so that every batched
    example has ``rank`` dimensions (the largest example rank by default): broadcasting then
    pairs the examples' axes as it pairs unbatched ones."""
    if rank is None:
        # The common call first: batched values of one rank, unbatched ones of no more.
        mapped, unmapped = -1, 0
        for v, b in zip(vals, bat, strict=True):
            if b:
                if mapped < 0:
                    mapped = v.ndim
                elif v.ndim != mapped:
                    break
            elif b is False and v.ndim > unmapped:
                unmapped = v.ndim
        else:
            if unmapped < mapped:
                return vals
        rank = 0
        for v, b in zip(vals, bat, strict=True):
            if b is not None:
                rank = max(rank, v.ndim - 1 if b else v.ndim)
    out = vals
    for i, (v, b) in enumerate(zip(vals, bat, strict=True)):
        if b and v.ndim - 1 < rank:
            if out is vals:
                out = list(vals)
            out[i] = ns.reshape(v, (v.shape[0],) + (1,) * (rank - v.ndim + 1)
                                + tuple(v.shape[1:]))
    return out


def elementwise(ns, fn, size, vals, bat, kw, kbat):
    keys = sorted(k for k, b in kbat.items() if b is not None)
    allv = list(vals) + [kw[k] for k in keys]
    allb = list(bat) + [kbat[k] for k in keys]
    aligned = _align(ns, allv, allb)
    kw = dict(kw)
    for k, v in zip(keys, aligned[len(vals):], strict=True):
        kw[k] = v
    return fn(*aligned[:len(vals)], **kw)


def axis_rule(name):
    default = AXIS[name]

    def rule(ns, fn, size, vals, bat, kw, kbat):
        x = vals[0]
        p = x.ndim - 1
        kw = dict(kw)
        axis = kw.get("axis", default)
        if axis is None and name in FLATTENING:
            x = ns.reshape(x, (size, -1))
            kw["axis"] = 1
            return fn(x, *vals[1:], **kw)
        if axis is None:
            kw["axis"] = tuple(range(1, p + 1))
        else:
            kw["axis"] = _axis(axis, p)
        return fn(x, *vals[1:], **kw)
    return rule


def direct(ns, fn, size, vals, bat, kw, kbat):
    """The function as it is: the batch axis first is a stack axis it already handles."""
    return fn(*vals, **kw)


def reshape(ns, fn, size, vals, bat, kw, kbat):
    shape = vals[1] if len(vals) > 1 else kw.pop("shape")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return fn(vals[0], (size,) + shape, *vals[2:], **kw)


def permute_dims(ns, fn, size, vals, bat, kw, kbat):
    axes = vals[1] if len(vals) > 1 else kw.pop("axes")
    p = vals[0].ndim - 1
    return fn(vals[0], (0,) + tuple(a % p + 1 for a in axes), **kw)


def expand_squeeze(ns, fn, size, vals, bat, kw, kbat):
    kw = dict(kw)
    if len(vals) > 1:
        kw["axis"], vals = vals[1], vals[:1]
    kw["axis"] = _axis(kw.get("axis", 0), vals[0].ndim - 1)
    return fn(vals[0], **kw)


def moveaxis(ns, fn, size, vals, bat, kw, kbat):
    x, source, destination = vals
    return fn(x, _axis(source, x.ndim - 1), _axis(destination, x.ndim - 1), **kw)


def broadcast_to(ns, fn, size, vals, bat, kw, kbat):
    shape = tuple(vals[1] if len(vals) > 1 else kw.pop("shape"))
    (x,) = _align(ns, [vals[0]], [True], len(shape))
    return fn(x, (size,) + shape, **kw)


def matmul(ns, fn, size, vals, bat, kw, kbat):
    x1, x2 = vals
    r1 = x1.ndim - 1 if bat[0] else x1.ndim
    r2 = x2.ndim - 1 if bat[1] else x2.ndim
    if (not bat[1] and r1 >= 1 and r2 <= 2) or (not bat[0] and r1 == 1 and r2 >= 2):
        # The batch axis is a stack axis (or, of a vector times a matrix, a row) as it is.
        return fn(x1, x2, **kw)
    if r1 == 1 and r2 == 2 and bat[0] and hasattr(ns, "vecmat"):
        # A row times a matrix per example (``x @ W`` with per-example weights): one
        # product, without an axis added and removed around it.
        return ns.vecmat(x1, x2)
    if r1 == 1:
        x1 = ns.expand_dims(x1, axis=-2)
    if r2 == 1:
        x2 = ns.expand_dims(x2, axis=-1)
    x1, x2 = _align(ns, [x1, x2], list(bat))
    out = fn(x1, x2, **kw)
    if r2 == 1:
        out = ns.squeeze(out, axis=-1)
    if r1 == 1:
        out = ns.squeeze(out, axis=-1 if r2 == 1 else -2)
    return out


def getitem(ns, fn, size, vals, bat, kw, kbat):
    x, key = vals
    key = key if isinstance(key, tuple) else (key,)
    return fn(x, (slice(None),) + key)


def concat(ns, fn, size, vals, bat, kw, kbat):
    arrays, flags = vals[0], bat[0]
    axis = kw.get("axis", 0)
    full = [a if b else ns.broadcast_to(a, (size,) + tuple(a.shape))
            for a, b in zip(arrays, flags, strict=True)]
    if axis is None:
        return fn([ns.reshape(a, (size, -1)) for a in full], axis=1)
    return fn(full, axis=_axis(axis, full[0].ndim - 1))


def stack(ns, fn, size, vals, bat, kw, kbat):
    arrays, flags = vals[0], bat[0]
    full = [a if b else ns.broadcast_to(a, (size,) + tuple(a.shape))
            for a, b in zip(arrays, flags, strict=True)]
    return fn(full, axis=_axis(kw.get("axis", 0), full[0].ndim - 1))


def take(ns, fn, size, vals, bat, kw, kbat):
    x, indices = vals
    axis = kw.get("axis")
    return fn(x, indices, axis=1 if axis is None else _axis(axis, x.ndim - 1))


def solve(ns, fn, size, vals, bat, kw, kbat):
    a, b = vals
    rb = b.ndim - 1 if bat[1] else b.ndim
    if rb == 1:
        b = ns.expand_dims(b, axis=-1)
    a, b = _align(ns, [a, b], list(bat))
    out = fn(a, b, **kw)
    return ns.squeeze(out, axis=-1) if rb == 1 else out


def vecdot(ns, fn, size, vals, bat, kw, kbat):
    aligned = _align(ns, list(vals), list(bat))
    axis = kw.get("axis", -1)
    return fn(*aligned, axis=axis if axis < 0 else axis + 1)


# The rules that take batched arrays in any argument (the others: in the first one only).
ANY_POSITION = frozenset({elementwise, matmul, solve, vecdot, concat, stack})

RULES = {
    **{name: elementwise for name in ELEMENTWISE},
    **{name: axis_rule(name) for name in AXIS},
    **{name: direct for name in MATRIX | LIKE},
    "reshape": reshape, "permute_dims": permute_dims, "expand_dims": expand_squeeze,
    "squeeze": expand_squeeze, "moveaxis": moveaxis, "broadcast_to": broadcast_to,
    "matmul": matmul, "linalg.matmul": matmul, "__getitem__": getitem, "concat": concat,
    "stack": stack, "take": take, "linalg.solve": solve, "vecdot": vecdot,
    "linalg.vecdot": vecdot,
}


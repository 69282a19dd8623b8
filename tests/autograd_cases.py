"""One case per differentiable function of the traced namespace, for the gradient checks.

A case draws (with hypothesis) the inputs of a function and returns ``Drawn``: the function,
written against a namespace (``fn(ns, *arrays)``), its NumPy float64 inputs, and, where
PyTorch has the function, the same computation in torch (``torch_fn(*tensors)``). Every case
also draws complex inputs (``case(data, True)``) unless it is in ``REAL_ONLY``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from conftest import to_np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

try:
    import torch
except ImportError:  # the torch comparisons skip
    torch = None


@dataclass
class Drawn:
    fn: Callable
    inputs: list
    torch_fn: Callable | None = None


# The cases whose function has no complex domain (the standard's real-valued-only functions,
# and the functions whose gradient rule is for real inputs only, which refuse complex tracers:
# linalg.qr, see test_rules_for_part_of_the_inputs_say_so); every other case is also drawn
# with complex inputs.
REAL_ONLY = frozenset({
    "atan2", "copysign", "hypot", "logaddexp", "maximum", "minimum", "remainder", "clip",
    "max", "min", "nanmax", "nanmin", "var", "std", "nanvar", "nanstd", "sort",
    "fft.rfft", "fft.rfftn", "fft.ihfft", "linalg.qr",
})

DOMAINS = {
    "any": (-2.0, 2.0), "pos": (0.3, 2.0), "unit": (-0.8, 0.8), "gt1": (1.2, 3.0),
    "away": (0.3, 2.0),
}


def values(data, shape, domain="any", complex_=False, salt=0) -> np.ndarray:
    """An array of ``shape`` with values in ``domain`` (``away``: either sign, away from 0);
    ``salt`` tells apart the inputs of one function."""
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng([seed, salt])
    lo, hi = DOMAINS[domain]
    out = rng.uniform(lo, hi, shape)
    if domain == "away":
        out *= rng.choice([-1.0, 1.0], shape)
    if complex_:
        out = out + 1j * rng.uniform(lo, hi, shape)
    return to_np(out)


small = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)
nonscalar = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)


def t(name):
    """A torch function by dotted name, or None without torch."""
    if torch is None:
        return None
    obj = torch
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def unary(name, domain="any", torch_name=None):
    def draw(data, complex_=False):
        x = values(data, data.draw(small, label="shape"), domain, complex_)
        # torch.imag takes complex tensors only.
        tf = None if name == "imag" and not complex_ else t(torch_name or name)
        return Drawn(lambda ns, a: getattr(ns, name)(a), [x], tf)
    return draw


def binary(name, domain="any", domain2=None, torch_name=None):
    def draw(data, complex_=False):
        shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3,
                                                             max_side=3), label="shapes")
        x1 = values(data, shapes.input_shapes[0], domain, complex_)
        x2 = values(data, shapes.input_shapes[1], domain2 or domain, complex_, salt=1)
        return Drawn(lambda ns, a, b: getattr(ns, name)(a, b), [x1, x2],
                     t(torch_name or name))
    return draw


def _axis(data, ndim, allow_none=True):
    choices = [None] if allow_none else []
    choices += list(range(-ndim, ndim))
    if ndim > 1:
        choices.append((0, ndim - 1))
    return data.draw(st.sampled_from(choices), label="axis")


def reduction(name, torch_name, domain="any", **extra):
    def draw(data, complex_=False):
        # Two elements at least along every axis: var and std divide by n - correction.
        shapes = nonscalar if not extra else hnp.array_shapes(min_dims=1, max_dims=3,
                                                              min_side=2, max_side=4)
        x = values(data, data.draw(shapes, label="shape"), domain, complex_)
        axis = _axis(data, x.ndim)
        keepdims = data.draw(st.booleans(), label="keepdims")
        kw = dict(axis=axis, keepdims=keepdims, **extra)

        def torch_fn(a):
            dims = tuple(range(a.ndim)) if axis is None else axis
            targs = {"correction": extra["correction"]} if "correction" in extra else {}
            if torch_name != "prod":
                return getattr(torch, torch_name)(a, dim=dims, keepdim=keepdims, **targs)
            for d in sorted((dims,) if isinstance(dims, int) else dims, reverse=True):
                a = torch.prod(a, dim=d % max(a.ndim, 1), keepdim=keepdims)
            return a
        return Drawn(lambda ns, a: getattr(ns, name)(a, **kw), [x],
                     torch_fn if torch is not None else None)
    return draw


def extreme(name, torch_name):
    def draw(data, complex_=False):
        shape = data.draw(nonscalar, label="shape")
        # Distinct values, so that the maximum is unique (ties split the gradient).
        x = values(data, shape) + np.arange(np.prod(shape)).reshape(shape) * 5.0
        axis = _axis(data, x.ndim)
        keepdims = data.draw(st.booleans(), label="keepdims")

        def torch_fn(a):
            dims = tuple(range(a.ndim)) if axis is None else axis
            return getattr(torch, torch_name)(a, dim=dims, keepdim=keepdims)
        return Drawn(lambda ns, a: getattr(ns, name)(a, axis=axis, keepdims=keepdims), [x],
                     torch_fn if torch is not None else None)
    return draw


def scan(name, torch_name, domain="any"):
    def draw(data, complex_=False):
        x = values(data, data.draw(nonscalar, label="shape"), domain, complex_)
        axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
        initial = data.draw(st.booleans(), label="include_initial")

        def torch_fn(a):
            out = getattr(torch, torch_name)(a, dim=axis)
            if initial:
                shape = list(a.shape)
                shape[axis] = 1
                fill = 0.0 if name == "cumulative_sum" else 1.0
                out = torch.cat([torch.full(shape, fill, dtype=a.dtype), out], dim=axis)
            return out
        return Drawn(lambda ns, a: getattr(ns, name)(a, axis=axis, include_initial=initial),
                     [x], torch_fn if torch is not None else None)
    return draw


def adjusted(draw, change):
    """``draw``, with its first input replaced by ``change(data, input)``."""
    def wrapped(data, complex_=False):
        d = draw(data, complex_)
        d.inputs[0] = change(data, d.inputs[0])
        return d
    return wrapped


def with_zeros(draw):
    """``draw``, with some inputs set to exactly zero (prod and cumulative_prod)."""
    return adjusted(draw, lambda data, x: np.where(
        to_np(data.draw(hnp.arrays(np.bool_, x.shape), label="zeros")), 0.0, x))


def custom(fn, shapes, domain="any", torch_fn=None):
    """A case with fixed drawn shapes: ``shapes(data)`` returns the input shapes; ``fn`` and
    ``torch_fn`` may depend on further draws through ``data``."""
    def draw(data, complex_=False):
        inputs = [values(data, s, domain, complex_, salt=i)
                  for i, s in enumerate(shapes(data))]
        f, tf = fn(data, inputs)
        return Drawn(f, inputs, tf if torch is not None else None)
    return draw


def _square(data, batch=True):
    n = data.draw(st.integers(1, 3), label="n")
    lead = data.draw(st.sampled_from([(), (2,)] if batch else [()]), label="batch")
    return lead + (n, n)


def _spd(inputs):
    a = inputs[0]
    return [a @ np.swapaxes(a, -1, -2).conj() + 3 * np.eye(a.shape[-1])]


def spd(fn, torch_fn=None):
    """A case on a symmetric positive definite matrix built from a drawn one (the function
    sees ``(a + a^T) / 2`` so the gradient is that of a function of any matrix)."""
    def draw(data, complex_=False):
        a = values(data, _square(data), "any", complex_)
        a = _spd([a])[0]

        def f(ns, m):
            return fn(ns, (m + ns.conj(ns.matrix_transpose(m))) / 2)

        def tf(m):
            return torch_fn((m + m.mH) / 2)
        return Drawn(f, [a], tf if torch is not None and torch_fn else None)
    return draw


def _pick(data, label, options):
    return data.draw(st.sampled_from(options), label=label)


def _manipulation():
    def reshape(data, inputs):
        return (lambda ns, a: ns.reshape(a, (-1,)),
                (lambda a: a.reshape(-1)) if torch else None)

    def permute(data, inputs):
        axes = tuple(data.draw(st.permutations(range(inputs[0].ndim)), label="axes"))
        return (lambda ns, a: ns.permute_dims(a, axes),
                (lambda a: a.permute(axes)) if torch else None)

    def flip(data, inputs):
        axis = _axis(data, inputs[0].ndim)
        dims = tuple(range(inputs[0].ndim)) if axis is None else (
            axis if isinstance(axis, tuple) else (axis,))
        return (lambda ns, a: ns.flip(a, axis=axis),
                (lambda a: torch.flip(a, dims)) if torch else None)

    def roll(data, inputs):
        shift = data.draw(st.integers(-3, 3), label="shift")
        axis = _axis(data, inputs[0].ndim)
        if isinstance(axis, tuple):
            shift_ = (shift, 1)
        else:
            shift_ = shift
        return (lambda ns, a: ns.roll(a, shift_, axis=axis), None)

    def expand_squeeze(data, inputs):
        return (lambda ns, a: ns.squeeze(ns.expand_dims(a, axis=0), axis=0) * 2.0,
                (lambda a: a.unsqueeze(0).squeeze(0) * 2.0) if torch else None)

    def moveaxis(data, inputs):
        n = inputs[0].ndim
        s = data.draw(st.integers(-n, n - 1), label="source")
        d = data.draw(st.integers(-n, n - 1), label="destination")
        return (lambda ns, a: ns.moveaxis(a, s, d),
                (lambda a: torch.movedim(a, s, d)) if torch else None)

    def repeat(data, inputs):
        r = data.draw(st.integers(1, 3), label="repeats")
        axis = data.draw(st.sampled_from([None, 0]), label="axis")
        as_array = data.draw(st.booleans(), label="array repeats")
        n = inputs[0].size if axis is None else inputs[0].shape[0]
        reps = np.arange(n) % 3 if as_array else r

        def f(ns, a):
            rr = ns.asarray(reps) if as_array else reps
            return ns.repeat(a, rr, axis=axis)
        return f, (lambda a: torch.repeat_interleave(
            a, torch.as_tensor(reps) if as_array else r, dim=axis)) if torch else None

    def tile(data, inputs):
        reps = tuple(data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3),
                               label="reps"))
        return (lambda ns, a: ns.tile(a, reps),
                (lambda a: torch.tile(a, reps)) if torch else None)

    def broadcast(data, inputs):
        shape = (2,) + inputs[0].shape
        return (lambda ns, a: ns.broadcast_to(a, shape),
                (lambda a: torch.broadcast_to(a, shape)) if torch else None)

    def getitem(data, inputs):
        key = _pick(data, "key", [(0,), (slice(None, None, -1),), (Ellipsis, 0),
                                  (None, slice(1, None))])
        return (lambda ns, a: a[key], None)

    def getitem_array(data, inputs):
        n = inputs[0].shape[0]
        idx = to_np([0, n - 1, 0])
        return (lambda ns, a: a[ns.asarray(idx)],
                (lambda a: a[torch.as_tensor(idx)]) if torch else None)

    def getitem_mask(data, inputs):
        mask = inputs[0] > 0
        return (lambda ns, a: a[ns.asarray(mask)],
                (lambda a: a[torch.as_tensor(mask)]) if torch else None)

    def take(data, inputs):
        n = inputs[0].shape[-1]
        idx = to_np([n - 1, 0, n - 1])
        return (lambda ns, a: ns.take(a, ns.asarray(idx), axis=-1),
                (lambda a: torch.index_select(a, -1, torch.as_tensor(idx))) if torch else None)

    def take_along(data, inputs):
        idx = np.argsort(inputs[0], axis=-1)[..., ::-1].copy()
        return (lambda ns, a: ns.take_along_axis(a, ns.asarray(idx), axis=-1),
                (lambda a: torch.take_along_dim(a, torch.as_tensor(idx), dim=-1))
                if torch else None)

    def sort(data, inputs):
        desc = data.draw(st.booleans(), label="descending")
        return (lambda ns, a: ns.sort(a, axis=-1, descending=desc),
                (lambda a: torch.sort(a, dim=-1, descending=desc).values) if torch else None)

    def astype(data, inputs):
        return (lambda ns, a: ns.astype(a, ns.complex128) * (1 + 2j),
                (lambda a: a.to(torch.complex128) * (1 + 2j)) if torch else None)

    def diff(data, inputs):
        n = data.draw(st.integers(1, 2), label="n")
        return (lambda ns, a: ns.diff(a, axis=-1, n=n),
                (lambda a: torch.diff(a, n=n, dim=-1)) if torch else None)

    def unstack(data, inputs):
        return (lambda ns, a: ns.stack(ns.unstack(a, axis=0)[::-1], axis=-1), None)

    def concat(data, inputs):
        axis = _pick(data, "axis", [0, -1, None])
        return (lambda ns, a, b: ns.concat([a, b, a], axis=axis), None)

    def stack(data, inputs):
        return (lambda ns, a, b: ns.stack([a, b], axis=-1),
                (lambda a, b: torch.stack([a, b], dim=-1)) if torch else None)

    def tril(data, inputs):
        k = data.draw(st.integers(-1, 1), label="k")
        return (lambda ns, a: ns.tril(a, k=k) + ns.triu(a, k=k),
                (lambda a: torch.tril(a, k) + torch.triu(a, k)) if torch else None)

    def matrix_transpose(data, inputs):
        return (lambda ns, a: ns.matrix_transpose(a) * a.mT,
                (lambda a: a.mT * a.mT) if torch else None)

    def broadcast_arrays(data, inputs):
        return (lambda ns, a, b: ns.sum(ns.stack(ns.broadcast_arrays(a, b)), axis=0), None)

    def meshgrid(data, inputs):
        indexing = _pick(data, "indexing", ["xy", "ij"])
        return (lambda ns, a, b: ns.stack(ns.meshgrid(a, b, indexing=indexing)), None)

    def clip(data, inputs):
        return (lambda ns, a, lo, hi: ns.clip(a, lo - 2.5, hi + 2.5),
                (lambda a, lo, hi: torch.clamp(a, lo - 2.5, hi + 2.5)) if torch else None)

    def where(data, inputs):
        return (lambda ns, c, a, b: ns.where(ns.real(c) > 0, a, b),
                (lambda c, a, b: torch.where(c.real > 0, a, b)) if torch else None)

    def pad(data, inputs):
        mode = _pick(data, "mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
        width = data.draw(st.integers(0, 2), label="width")
        return (lambda ns, a: ns.pad(a, ((width, 1),) * a.ndim, mode, constant_values=1.5),
                None)

    def nd(data):
        return [data.draw(nonscalar, label="shape")]

    def mat(data):
        return [data.draw(hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=3),
                          label="shape")]

    def same2(data):
        s = data.draw(nonscalar, label="shape")
        return [s, s]

    def vec2(data):
        return [(data.draw(st.integers(1, 3), label="m"),),
                (data.draw(st.integers(1, 3), label="n"),)]

    def three(data):
        s = data.draw(nonscalar, label="shape")
        return [s, s, s]

    return {
        "reshape": custom(reshape, nd),
        "permute_dims": custom(permute, nd),
        "flip": custom(flip, nd),
        "roll": custom(roll, nd),
        "expand_dims": custom(expand_squeeze, nd),
        "squeeze": custom(expand_squeeze, nd),
        "moveaxis": custom(moveaxis, nd),
        "repeat": custom(repeat, nd),
        "tile": custom(tile, nd),
        "broadcast_to": custom(broadcast, nd),
        "getitem": custom(getitem, nd),
        "getitem_array": custom(getitem_array, nd),
        "getitem_mask": custom(getitem_mask, nd),
        "take": custom(take, nd),
        "take_along_axis": custom(take_along, nd),
        "sort": custom(sort, nd),
        "astype": custom(astype, nd),
        "diff": custom(diff, nd),
        "unstack": custom(unstack, nd),
        "concat": custom(concat, same2),
        "stack": custom(stack, same2),
        "tril": custom(tril, mat),
        "triu": custom(tril, mat),
        "matrix_transpose": custom(matrix_transpose, mat),
        "broadcast_arrays": custom(broadcast_arrays, lambda d: [
            (d.draw(st.integers(1, 3), label="m"), 1), (d.draw(st.integers(1, 3), label="n"),)]),
        "meshgrid": custom(meshgrid, vec2),
        "clip": custom(clip, three),
        "pad": custom(pad, lambda d: [d.draw(hnp.array_shapes(min_dims=1, max_dims=3,
                                                              min_side=3, max_side=4))]),
        "where": custom(where, three),
    }


def _linalg():
    def matmul(data, inputs):
        return (lambda ns, a, b: ns.matmul(a, b), t("matmul"))

    def matmul_shapes(data):
        m, k, n = (data.draw(st.integers(1, 3), label=c) for c in "mkn")
        kind = _pick(data, "kind", ["mm", "vm", "mv", "vv", "batch"])
        return {"mm": [(m, k), (k, n)], "vm": [(k,), (k, n)], "mv": [(m, k), (k,)],
                "vv": [(k,), (k,)], "batch": [(2, m, k), (k, n)]}[kind]

    def tensordot(data, inputs):
        return (lambda ns, a, b: ns.tensordot(a, b, axes=1),
                (lambda a, b: torch.tensordot(a, b, dims=1)) if torch else None)

    def vecdot(data, inputs):
        return (lambda ns, a, b: ns.vecdot(a, b),
                (lambda a, b: torch.linalg.vecdot(a, b)) if torch else None)

    def inv(data, inputs):
        return (lambda ns, a: ns.linalg.inv(a), t("linalg.inv"))

    def det(data, inputs):
        return (lambda ns, a: ns.linalg.det(a), t("linalg.det"))

    def slogdet(data, inputs):
        return (lambda ns, a: ns.linalg.slogdet(a).logabsdet,
                (lambda a: torch.linalg.slogdet(a).logabsdet) if torch else None)

    def solve(data, inputs):
        return (lambda ns, a, b: ns.linalg.solve(a, b), t("linalg.solve"))

    def diagonal(data, inputs):
        k = data.draw(st.integers(-1, 1), label="offset")
        return (lambda ns, a: ns.linalg.diagonal(a, offset=k),
                (lambda a: torch.diagonal(a, k, -2, -1)) if torch else None)

    def trace(data, inputs):
        return (lambda ns, a: ns.linalg.trace(a),
                (lambda a: torch.diagonal(a, 0, -2, -1).sum(-1)) if torch else None)

    def vector_norm(data, inputs):
        ord_ = _pick(data, "ord", [2, 1, 3, float("inf")])
        axis = _axis(data, inputs[0].ndim)
        return (lambda ns, a: ns.linalg.vector_norm(a, axis=axis, ord=ord_),
                (lambda a: torch.linalg.vector_norm(a, ord_, dim=axis)) if torch else None)

    def matrix_norm(data, inputs):
        ord_ = _pick(data, "ord", ["fro", 1, float("inf"), "nuc", 2])
        return (lambda ns, a: ns.linalg.matrix_norm(a, ord=ord_),
                (lambda a: torch.linalg.matrix_norm(a, ord_)) if torch else None)

    def outer(data, inputs):
        return (lambda ns, a, b: ns.linalg.outer(a, b), t("outer"))

    def cross(data, inputs):
        return (lambda ns, a, b: ns.linalg.cross(a, b),
                (lambda a, b: torch.linalg.cross(a, b)) if torch else None)

    def matrix_power(data, inputs):
        n = data.draw(st.integers(-2, 3), label="power")
        return (lambda ns, a: ns.linalg.matrix_power(a, n),
                (lambda a: torch.linalg.matrix_power(a, n)) if torch else None)

    def svdvals(data, inputs):
        return (lambda ns, a: ns.linalg.svdvals(a), t("linalg.svdvals"))

    def svd(data, inputs):
        # A loss invariant under the sign of singular vectors.
        def f(ns, a):
            u, s, vh = ns.linalg.svd(a, full_matrices=False)
            return ns.concat([ns.reshape(ns.abs(u) ** 2, (-1,)), s,
                              ns.reshape(ns.abs(vh) ** 2, (-1,))])

        def tf(a):
            u, s, vh = torch.linalg.svd(a, full_matrices=False)
            return torch.cat([(u.abs() ** 2).reshape(-1), s, (vh.abs() ** 2).reshape(-1)])
        return f, tf

    def qr(data, inputs):
        # A loss invariant under the signs QR's factors may take.
        def f(ns, a):
            q, r = ns.linalg.qr(a)
            return ns.concat([ns.reshape(q * q, (-1,)), ns.reshape(r * r, (-1,))])

        def tf(a):
            q, r = torch.linalg.qr(a)
            return torch.cat([(q * q).reshape(-1), (r * r).reshape(-1)])
        return f, tf

    def tall(data):
        n = data.draw(st.integers(1, 3), label="n")
        return [(n + data.draw(st.integers(0, 2), label="extra rows"), n)]

    def eigvals(data, inputs):
        return (lambda ns, a: ns.linalg.eigvals(a), t("linalg.eigvals"))

    def eig(data, inputs):
        # A loss invariant under the eigenvectors' phases.
        def f(ns, a):
            w, v = ns.linalg.eig(a)
            return ns.concat([ns.reshape(w, (-1,)),
                              ns.astype(ns.reshape(ns.abs(v) ** 2, (-1,)), w.dtype)])

        def tf(a):
            w, v = torch.linalg.eig(a)
            return torch.cat([w.reshape(-1), (v.abs() ** 2).reshape(-1).to(w.dtype)])
        return f, tf

    def pinv(data, inputs):
        return (lambda ns, a: ns.linalg.pinv(a), t("linalg.pinv"))

    def square(data):
        return [_square(data)]

    def square_rhs(data):
        s = _square(data)
        kind = _pick(data, "rhs", ["matrix", "vector"])
        return [s, s if kind == "matrix" else (s[-1],)]

    def any_matrix(data):
        return [(data.draw(st.integers(1, 3), label="m"), data.draw(st.integers(1, 3),
                                                                     label="n"))]

    def distinct_matrix(data):
        m, n = (data.draw(st.integers(1, 3), label=c) for c in "mn")
        return [(m, n)]

    def vecs(data):
        return [(data.draw(st.integers(1, 3), label="m"),),
                (data.draw(st.integers(1, 3), label="n"),)]

    def threes(data):
        return [(2, 3), (2, 3)]

    def well_conditioned(draw):
        return adjusted(draw, lambda data, a: a + 4 * np.eye(*a.shape[-2:]))

    def separated(draw):
        """Singular values far apart (their gradients are singular where two meet)."""
        def change(data, a):
            m, n = a.shape[-2:]
            k = min(m, n)
            base = np.zeros((m, n))
            base[np.arange(k), np.arange(k)] = np.arange(k, 0, -1) * 2.0 + 1.0
            return base + 0.1 * a
        return adjusted(draw, change)

    def mm_shapes(data):
        return matmul_shapes(data)

    return {
        "matmul": custom(matmul, mm_shapes),
        "tensordot": custom(tensordot, lambda d: [(2, 3), (3, 2)]),
        "vecdot": custom(vecdot, lambda d: [(2, 3), (3,)]),
        "linalg.inv": well_conditioned(custom(inv, square)),
        "linalg.det": well_conditioned(custom(det, square)),
        "linalg.slogdet": well_conditioned(custom(slogdet, square)),
        "linalg.solve": well_conditioned(custom(solve, square_rhs)),
        "linalg.diagonal": custom(diagonal, any_matrix),
        "linalg.trace": custom(trace, square),
        "linalg.vector_norm": custom(vector_norm, lambda d: [d.draw(nonscalar)], "away"),
        "linalg.matrix_norm": separated(custom(matrix_norm, distinct_matrix, "away")),
        "linalg.outer": custom(outer, vecs),
        "linalg.cross": custom(cross, threes),
        "linalg.matrix_power": well_conditioned(custom(matrix_power, square)),
        "linalg.svdvals": separated(custom(svdvals, distinct_matrix)),
        "linalg.svd": separated(custom(svd, distinct_matrix)),
        "linalg.pinv": separated(custom(pinv, distinct_matrix)),
        "linalg.qr": well_conditioned(custom(qr, tall)),
        "linalg.eig": custom(eig, square),
        "linalg.eigvals": custom(eigvals, square),
        "linalg.cholesky": spd(lambda ns, a: ns.linalg.cholesky(a),
                               t("linalg.cholesky")),
        "linalg.eigh": spd(lambda ns, a: ns.concat([
            ns.reshape(ns.linalg.eigh(a).eigenvalues, (-1,)),
            ns.reshape(ns.abs(ns.linalg.eigh(a).eigenvectors) ** 2, (-1,))]),
            lambda a: torch.cat([torch.linalg.eigh(a).eigenvalues.reshape(-1),
                                 (torch.linalg.eigh(a).eigenvectors.abs() ** 2).reshape(-1)])),
        "linalg.eigvalsh": spd(lambda ns, a: ns.linalg.eigvalsh(a), t("linalg.eigvalsh")),
    }


def _fft():
    def one(name):
        def fn(data, inputs):
            x = inputs[0]
            n = _pick(data, "n", [None, x.shape[-1] + 1, max(x.shape[-1] - 1, 1)])
            if name in ("irfft", "hfft") and n is None:
                n = 2 * (x.shape[-1] - 1) or 1
            norm = _pick(data, "norm", ["backward", "ortho", "forward"])
            return (lambda ns, a: getattr(ns.fft, name)(a, n=n, axis=-1, norm=norm),
                    (lambda a: getattr(torch.fft, name)(a, n=n, dim=-1, norm=norm))
                    if torch else None)
        return custom(fn, lambda d: [d.draw(hnp.array_shapes(min_dims=1, max_dims=2,
                                                             min_side=2, max_side=5))])

    def many(name):
        def fn(data, inputs):
            norm = _pick(data, "norm", ["backward", "ortho", "forward"])
            x = inputs[0]
            s = _pick(data, "s", [None, tuple(n + 1 for n in x.shape[-2:])])
            if name == "irfftn" and s is None:
                s = (x.shape[-2], 2 * (x.shape[-1] - 1))
            axes = (-2, -1)
            return (lambda ns, a: getattr(ns.fft, name)(a, s=s, axes=axes, norm=norm),
                    (lambda a: getattr(torch.fft, name)(a, s=s, dim=axes, norm=norm))
                    if torch else None)
        return custom(fn, lambda d: [d.draw(hnp.array_shapes(min_dims=2, max_dims=3,
                                                             min_side=2, max_side=4))])

    def shift(name):
        def fn(data, inputs):
            return (lambda ns, a: getattr(ns.fft, name)(a),
                    (lambda a: getattr(torch.fft, name)(a)) if torch else None)
        return custom(fn, lambda d: [d.draw(nonscalar)])

    return {
        "fft.fft": one("fft"), "fft.ifft": one("ifft"), "fft.rfft": one("rfft"),
        "fft.irfft": one("irfft"), "fft.hfft": one("hfft"), "fft.ihfft": one("ihfft"),
        "fft.fftn": many("fftn"), "fft.ifftn": many("ifftn"), "fft.rfftn": many("rfftn"),
        "fft.irfftn": many("irfftn"), "fft.fftshift": shift("fftshift"),
        "fft.ifftshift": shift("ifftshift"),
    }


ELEMENTWISE = {
    "abs": unary("abs", "away"),
    "acos": unary("acos", "unit"),
    "acosh": unary("acosh", "gt1"),
    "asin": unary("asin", "unit"),
    "asinh": unary("asinh"),
    "atan": unary("atan"),
    "atanh": unary("atanh", "unit"),
    "conj": unary("conj", torch_name="conj_physical"),
    "cos": unary("cos"),
    "cosh": unary("cosh"),
    "exp": unary("exp"),
    "expm1": unary("expm1"),
    "imag": unary("imag"),
    "log": unary("log", "pos"),
    "log1p": unary("log1p", "pos"),
    "log2": unary("log2", "pos"),
    "log10": unary("log10", "pos"),
    "negative": unary("negative"),
    "positive": unary("positive"),
    "real": unary("real"),
    "reciprocal": unary("reciprocal", "away"),
    "sin": unary("sin"),
    "sinh": unary("sinh"),
    "sqrt": unary("sqrt", "pos"),
    "square": unary("square"),
    "tan": unary("tan", "unit"),
    "tanh": unary("tanh"),
    "add": binary("add"),
    "atan2": binary("atan2", "away"),
    "copysign": binary("copysign", "away"),
    "divide": binary("divide", "any", "away"),
    "hypot": binary("hypot", "away"),
    "logaddexp": binary("logaddexp"),
    "maximum": binary("maximum"),
    "minimum": binary("minimum"),
    "multiply": binary("multiply"),
    "pow": binary("pow", "pos"),
    "remainder": binary("remainder", "pos"),
    "subtract": binary("subtract"),
}

STATISTICAL = {
    "sum": reduction("sum", "sum"),
    "mean": reduction("mean", "mean"),
    "prod": with_zeros(reduction("prod", "prod")),
    "prod_nonzero": reduction("prod", "prod", "away"),
    "var": reduction("var", "var", correction=1.0),
    "std": reduction("std", "std", correction=0.0),
    "max": extreme("max", "amax"),
    "min": extreme("min", "amin"),
    "cumulative_sum": scan("cumulative_sum", "cumsum"),
    "cumulative_prod": with_zeros(scan("cumulative_prod", "cumprod")),
    "cumulative_prod_nonzero": scan("cumulative_prod", "cumprod", "away"),
}

def _some_nan(ns, a):
    """``a`` with NaN where it exceeds 1, except in the first column (no all-NaN row)."""
    head = ns.where(ns.real(ns.full_like(a, 1.0)) > 0, a, a)[..., :1]
    rest = a[..., 1:]
    return ns.concat([head, ns.where(ns.real(rest) > 1.0, ns.nan, rest)], axis=-1)


NAN_FUNCTIONS = {
    name: custom(lambda data, inputs, name=name: (
        lambda ns, a: getattr(ns, name)(_some_nan(ns, a), axis=-1), None),
        lambda d: [d.draw(nonscalar)])
    for name in ("nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd")
}


def _diag(data, inputs):
    k = _pick(data, "k", [-2, -1, 0, 1, 2])
    return (lambda ns, a: ns.diag(a, k=k) * 1.5,
            (lambda a: torch.diag(a, k) * 1.5) if torch else None)


EXTENSIONS = {"diag": custom(_diag, lambda d: [
    d.draw(st.sampled_from([(3,), (1,), (2, 3), (3, 3)]), label="shape")])}

CASES = {**ELEMENTWISE, **STATISTICAL, **_manipulation(), **_linalg(), **_fft(),
         **NAN_FUNCTIONS, **EXTENSIONS}

"""Functions whose traced form is a composition of traced functions (their gradients come
from the rules of the parts). Each takes the same arguments as arrayx's function."""

from __future__ import annotations

import math
import operator

from arrayx._diag import diag_with
from arrayx.autograd._tracer import traced as xp


def broadcast_arrays(*arrays):
    shape = xp.broadcast_shapes(*(a.shape for a in arrays))
    return [xp.broadcast_to(a, shape) for a in arrays]


def unstack(x, /, *, axis=0):
    axis = axis % x.ndim
    pre = (slice(None),) * axis
    return tuple(x[pre + (i,)] for i in range(x.shape[axis]))


def meshgrid(*arrays, indexing="xy"):
    n = len(arrays)
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and n > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        axis = {0: 1, 1: 0}.get(i, i) if indexing == "xy" and n > 1 else i
        lead = [1] * n
        lead[axis] = a.shape[0]
        out.append(xp.broadcast_to(xp.reshape(a, tuple(lead)), tuple(shape)))
    return out


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        parts = [xp.expand_dims(p, axis=axis) if p.ndim < x.ndim else p
                 for p in (xp.asarray(p) for p in parts)]
        x = xp.concat(parts, axis=axis)
    axis = axis % x.ndim
    pre = (slice(None),) * axis
    for _ in range(n):
        x = x[pre + (slice(1, None),)] - x[pre + (slice(None, -1),)]
    return x


def tensordot(x1, x2, /, *, axes=2):
    if isinstance(axes, int):
        a1 = tuple(range(x1.ndim - axes, x1.ndim))
        a2 = tuple(range(axes))
    else:
        a1, a2 = (tuple(a) for a in axes)
    a1 = tuple(a % x1.ndim for a in a1)
    a2 = tuple(a % x2.ndim for a in a2)
    free1 = [a for a in range(x1.ndim) if a not in a1]
    free2 = [a for a in range(x2.ndim) if a not in a2]
    k = math.prod(x1.shape[a] for a in a1)
    left = xp.reshape(xp.permute_dims(x1, tuple(free1) + a1),
                      (math.prod(x1.shape[a] for a in free1), k))
    right = xp.reshape(xp.permute_dims(x2, a2 + tuple(free2)),
                       (k, math.prod(x2.shape[a] for a in free2)))
    return xp.reshape(xp.matmul(left, right),
                      tuple(x1.shape[a] for a in free1) + tuple(x2.shape[a] for a in free2))


def vecdot(x1, x2, /, *, axis=-1):
    return xp.sum(xp.conj(x1) * x2 if x1.dtype.kind == "c" else x1 * x2, axis=axis)


def outer(x1, x2, /):
    return xp.reshape(x1, (-1, 1)) * xp.reshape(x2, (1, -1))


def cross(x1, x2, /, *, axis=-1):
    a = xp.unstack(xp.moveaxis(x1, axis, 0), axis=0)
    b = xp.unstack(xp.moveaxis(x2, axis, 0), axis=0)
    out = xp.stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                    a[0] * b[1] - a[1] * b[0]], axis=0)
    return xp.moveaxis(out, 0, axis)


def matrix_power(x, n, /):
    if n < 0:
        return matrix_power(xp.linalg.inv(x), -n)
    out = None
    power = x
    while n:
        if n & 1:
            out = power if out is None else xp.matmul(out, power)
        n >>= 1
        if n:
            power = xp.matmul(power, power)
    if out is None:
        eye = xp.eye(x.shape[-1], dtype=x.dtype)
        return xp.broadcast_to(eye, x.shape) + 0 * x
    return out


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    if ord == "fro":
        # vector_norm's rule is 0 at 0, where sqrt(sum(x * x))'s was NaN (sqrt's slope times 0).
        out = xp.linalg.vector_norm(x, axis=(-2, -1))
    elif ord == "nuc":
        out = xp.sum(xp.linalg.svdvals(x), axis=-1)
    elif ord in (2, -2):
        s = xp.linalg.svdvals(x)
        out = xp.max(s, axis=-1) if ord == 2 else xp.min(s, axis=-1)
    elif ord in (1, -1, math.inf, -math.inf):
        axis = -2 if ord in (1, -1) else -1
        sums = xp.sum(xp.abs(x), axis=axis)
        out = xp.max(sums, axis=-1) if ord > 0 else xp.min(sums, axis=-1)
    else:
        raise ValueError(f"unsupported matrix norm order {ord!r}")
    return xp.reshape(out, out.shape + (1, 1)) if keepdims else out


def trace(x, /, *, offset=0, dtype=None):
    out = xp.sum(xp.linalg.diagonal(x, offset=offset), axis=-1)
    return out if dtype is None else xp.astype(out, dtype)


def pinv(x, /, *, rtol=None):
    u, s, vh = xp.linalg.svd(x, full_matrices=False)
    if rtol is None:
        rtol = max(x.shape[-2:]) * xp.finfo(x.dtype).eps
    cutoff = rtol * xp.max(s, axis=-1, keepdims=True)
    inv_s = xp.where(s > cutoff, 1 / xp.where(s > cutoff, s, 1.0), 0.0)
    return xp.matmul(xp.matrix_transpose(xp.conj(vh)) * xp.expand_dims(inv_s, axis=-2),
                     xp.matrix_transpose(xp.conj(u)))


def _swap(norm: str) -> str:
    return {"backward": "forward", "forward": "backward"}.get(norm, norm)


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    return xp.fft.irfft(xp.conj(x), n=n, axis=axis, norm=_swap(norm))


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    return xp.conj(xp.fft.rfft(x, n=n, axis=axis, norm=_swap(norm)))


def _fftn_axes(x, s, axes):
    if axes is None:
        axes = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
    axes = tuple(a % x.ndim for a in axes)
    return axes, (None,) * len(axes) if s is None else tuple(s)


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, s = _fftn_axes(x, s, axes)
    out = xp.fft.rfft(x, n=s[-1], axis=axes[-1], norm=norm)
    for a, n in zip(axes[:-1], s[:-1], strict=False):
        out = xp.fft.fft(out, n=n, axis=a, norm=norm)
    return out


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, s = _fftn_axes(x, s, axes)
    for a, n in zip(axes[:-1], s[:-1], strict=False):
        x = xp.fft.ifft(x, n=n, axis=a, norm=norm)
    return xp.fft.irfft(x, n=s[-1], axis=axes[-1], norm=norm)


def _shift(x, axes, sign: int):
    axes = tuple(range(x.ndim)) if axes is None else (
        (axes,) if isinstance(axes, int) else tuple(axes))
    shift = tuple(sign * (x.shape[a] // 2) for a in axes)
    return xp.roll(x, shift, axis=axes)


def fftshift(x, /, *, axes=None):
    return _shift(x, axes, 1)


def ifftshift(x, /, *, axes=None):
    return _shift(x, axes, -1)


def diag(v, /, k=0):
    return diag_with(v, operator.index(k), xp.zeros, xp.reshape, xp.linalg.diagonal)


def _nan_free(x, fill):
    return xp.where(xp.isnan(x), fill, x)


def nansum(x, /, *, axis=None, dtype=None, keepdims=False):
    return xp.sum(_nan_free(x, 0.0), axis=axis, dtype=dtype, keepdims=keepdims)


def nanprod(x, /, *, axis=None, dtype=None, keepdims=False):
    return xp.prod(_nan_free(x, 1.0), axis=axis, dtype=dtype, keepdims=keepdims)


def nanmax(x, /, *, axis=None, keepdims=False):
    return xp.max(_nan_free(x, -math.inf), axis=axis, keepdims=keepdims)


def nanmin(x, /, *, axis=None, keepdims=False):
    return xp.min(_nan_free(x, math.inf), axis=axis, keepdims=keepdims)


def nanmean(x, /, *, axis=None, keepdims=False):
    count = xp.sum(xp.astype(xp.logical_not(xp.isnan(x)), x.dtype), axis=axis,
                   keepdims=keepdims)
    return nansum(x, axis=axis, keepdims=keepdims) / count


def nanvar(x, /, *, axis=None, correction=0.0, keepdims=False):
    present = xp.astype(xp.logical_not(xp.isnan(x)), x.dtype)
    filled = _nan_free(x, 0.0)
    mean = xp.sum(filled, axis=axis, keepdims=True) / xp.sum(present, axis=axis, keepdims=True)
    centred = (filled - mean) * present
    total = xp.sum(centred * centred, axis=axis, keepdims=keepdims)
    return total / (xp.sum(present, axis=axis, keepdims=keepdims) - correction)


def nanstd(x, /, *, axis=None, correction=0.0, keepdims=False):
    var = nanvar(x, axis=axis, correction=correction, keepdims=keepdims)
    # 0 where the variance is 0, with a 0 gradient there (as std's rule), not sqrt's inf.
    return xp.where(var == 0, 0.0, xp.sqrt(var))


COMPOSED = {
    "broadcast_arrays": broadcast_arrays, "unstack": unstack, "meshgrid": meshgrid,
    "diff": diff, "tensordot": tensordot, "vecdot": vecdot, "nansum": nansum,
    "nanprod": nanprod, "nanmax": nanmax, "nanmin": nanmin, "nanmean": nanmean,
    "nanvar": nanvar, "nanstd": nanstd, "diag": diag,
}
LINALG_COMPOSED = {
    "outer": outer, "cross": cross, "matrix_power": matrix_power, "matrix_norm": matrix_norm,
    "trace": trace, "pinv": pinv, "tensordot": tensordot, "vecdot": vecdot,
}
FFT_COMPOSED = {
    "hfft": hfft, "ihfft": ihfft, "rfftn": rfftn, "irfftn": irfftn, "fftshift": fftshift,
    "ifftshift": ifftshift,
}

"""Vector-Jacobian products of the ``linalg`` and ``fft`` extensions (and ``matmul``), in the
form of ``_rules`` (per-input makers, or joint makers; multi-output functions get the list of
their outputs' cotangents). Complex gradients follow PyTorch's convention."""

from __future__ import annotations

from arrayx.autograd._rules import _leave_one_out, _positions, scatter_add
from arrayx.autograd._tracer import traced as xp
from arrayx.linalg import LinAlgError


def _h(x):
    """The conjugate transpose of a stack of matrices."""
    x = xp.matrix_transpose(x)
    return xp.conj(x) if x.dtype.kind == "c" else x


def _matmul(wrt):
    """The maker of matmul's vjp for input ``wrt`` (0 or 1): ``g`` times the other operand's
    conjugate transpose, on ``wrt``'s side. A vector operand takes part as a matrix of one row
    (``x1``) or one column (``x2``), and the gradient drops that axis again."""
    def maker(ans, x1, x2):
        a = xp.expand_dims(x1, axis=-2) if x1.ndim == 1 else x1
        b = xp.expand_dims(x2, axis=-1) if x2.ndim == 1 else x2

        def vjp(g):
            if x2.ndim == 1:
                g = xp.expand_dims(g, axis=-1)
            if x1.ndim == 1:
                g = xp.expand_dims(g, axis=-2)
            if wrt == 0:
                out = xp.matmul(g, _h(b))
                return out[..., 0, :] if x1.ndim == 1 else out
            out = xp.matmul(_h(a), g)
            return out[..., 0] if x2.ndim == 1 else out
        return vjp
    return maker


def _inv(ans, x):
    return lambda g: -xp.matmul(xp.matmul(_h(ans), g), _h(ans))


def _cofactors(ans, x):
    """The conjugate of ``det``'s derivative, ``adj(x)^H``: ``conj(det) inv(x)^H`` where
    ``inv`` succeeds, and from the SVD ``x = U S Vh`` where ``x`` is singular (as PyTorch):
    ``adj(x) = det(U) det(Vh) V diag(leave-one-out products of S) U^H``."""
    try:
        inverse = xp.linalg.inv(x)
    except LinAlgError:
        u, s, vh = xp.linalg.svd(x)
        phase = xp.linalg.det(u) * xp.linalg.det(vh)
        adjugate = xp.matmul(_h(vh) * xp.expand_dims(_leave_one_out(s, -1), axis=-2), _h(u))
        return _h(xp.expand_dims(xp.expand_dims(phase, axis=-1), axis=-1) * adjugate)
    det = xp.conj(ans) if ans.dtype.kind == "c" else ans
    return xp.expand_dims(xp.expand_dims(det, axis=-1), axis=-1) * _h(inverse)


def _det(ans, x):
    return lambda g: xp.expand_dims(xp.expand_dims(g, axis=-1), axis=-1) * _cofactors(ans, x)


def _slogdet(ans, x):
    """d log det = tr(A^-1 dA): its real part moves logabsdet, its imaginary part the phase
    of a complex sign (d sign = i sign Im tr(A^-1 dA)); a real sign is constant. The gradient
    is conj(h) A^-H with conj(h) = g_logabsdet - i Im(conj(g_sign) sign)."""
    def vjp(gs):
        g_sign, g = gs
        if g_sign is not None and x.dtype.kind == "c":
            phase = -1j * xp.imag(xp.conj(g_sign) * ans[0])
            g = phase if g is None else g + phase
        if g is None:
            return (None,)
        return (xp.expand_dims(xp.expand_dims(g, axis=-1), axis=-1) * _h(xp.linalg.inv(x)),)
    return vjp


def _solve_adjoint(x1, vector: bool, g):
    """``solve(x1^H, g)``, ``g`` a stack of vectors when ``x2`` was one vector."""
    if vector:
        return xp.linalg.solve(_h(x1), xp.expand_dims(g, axis=-1))[..., 0]
    return xp.linalg.solve(_h(x1), g)


def _solve_x1(ans, x1, x2):
    vector = x2.ndim == 1

    def vjp(g):
        gb = _solve_adjoint(x1, vector, g)
        if vector:
            c = xp.conj(ans) if ans.dtype.kind == "c" else ans
            return -xp.expand_dims(gb, axis=-1) * xp.expand_dims(c, axis=-2)
        return -xp.matmul(gb, _h(ans))
    return vjp


def _solve_x2(ans, x1, x2):
    vector = x2.ndim == 1
    return lambda g: _solve_adjoint(x1, vector, g)


def _cholesky(ans, x, *, upper=False):
    def vjp(g):
        low = _h(ans) if upper else ans
        gl = _h(g) if upper else g
        phi = xp.tril(xp.matmul(_h(low), gl))
        n = phi.shape[-1]
        phi = phi - xp.eye(n, dtype=phi.dtype) * phi / 2
        inv = xp.linalg.inv(low)
        s = xp.matmul(xp.matmul(_h(inv), phi), inv)
        return (s + _h(s)) / 2
    return vjp


def _eigh(ans, x):
    w, v = ans

    def vjp(gs):
        gw, gv = gs
        inner = 0
        if gv is not None:
            gap = xp.expand_dims(w, axis=-2) - xp.expand_dims(w, axis=-1)
            off = gap != 0
            f = xp.where(off, 1 / xp.where(off, gap, 1.0), 0.0)
            inner = f * xp.matmul(_h(v), gv)
        if gw is not None:
            inner = inner + xp.expand_dims(gw, axis=-1) * xp.eye(w.shape[-1], dtype=w.dtype)
        return (xp.matmul(xp.matmul(v, inner), _h(v)),)
    return vjp


def _eig_cotangent(w, v, gw, gv):
    """``V^-H (diag(gw) + F) V^H`` of a general eigendecomposition (PyTorch's rule), ``F``
    the eigenvectors' part, with their unit norm taken into account."""
    n = w.shape[-1]
    eye = xp.eye(n, dtype=v.dtype)
    inner = 0
    if gv is not None:
        vhgv = xp.matmul(_h(v), gv)
        diag = xp.real(xp.linalg.diagonal(vhgv))
        vhgv = vhgv - xp.matmul(_h(v), v * xp.expand_dims(diag, axis=-2))
        wc = xp.conj(w)
        gap = xp.expand_dims(wc, axis=-2) - xp.expand_dims(wc, axis=-1)
        off = gap != 0
        inner = xp.where(off, vhgv / xp.where(off, gap, 1.0), 0.0)
    if gw is not None:
        inner = inner + xp.expand_dims(gw, axis=-1) * eye
    return xp.linalg.solve(_h(v), xp.matmul(inner, _h(v)))


def _eig(ans, x):
    w, v = ans
    return lambda gs: (_eig_cotangent(w, v, gs[0], gs[1]),)


def _eigvals(ans, x):
    return lambda g: _eig_cotangent(ans, xp.linalg.eig(x).eigenvectors, g, None)


def _eigvalsh(ans, x):
    def vjp(g):
        v = xp.linalg.eigh(x).eigenvectors
        return xp.matmul(v * xp.expand_dims(g, axis=-2), _h(v))
    return vjp


def _svdvals(ans, x):
    def vjp(g):
        u, _, vh = xp.linalg.svd(x, full_matrices=False)
        return xp.matmul(u * xp.expand_dims(g, axis=-2), vh)
    return vjp


def _svd(ans, x, *, full_matrices=True):
    u, s, vh = ans
    m, n = x.shape[-2:]
    if full_matrices and m != n:
        raise TypeError("svd has a gradient rule for full_matrices=False (or square matrices) "
                        "only")

    def vjp(gs):
        gu, gsv, gvh = gs
        v = _h(vh)
        eye = xp.eye(s.shape[-1], dtype=s.dtype)
        sq = s * s
        gap = xp.expand_dims(sq, axis=-2) - xp.expand_dims(sq, axis=-1)
        off = gap != 0
        f = xp.where(off, 1 / xp.where(off, gap, 1.0), 0.0)
        smat = xp.expand_dims(s, axis=-2)
        mid = 0
        out = 0
        if gsv is not None:
            mid = xp.expand_dims(gsv, axis=-1) * eye
        if gu is not None:
            uhgu = xp.matmul(_h(u), gu)
            j = f * uhgu
            mid = mid + xp.matmul(j + _h(j), eye * smat)
            if x.dtype.kind == "c":
                # The imaginary part of diag(U^H gU) (PyTorch's svd_backward): the phases.
                d = xp.linalg.diagonal(uhgu)
                mid = mid + xp.expand_dims((d - xp.conj(d)) / (2 * s), axis=-1) * eye
            if m > n:
                proj = gu - xp.matmul(u, xp.matmul(_h(u), gu))
                out = out + xp.matmul(proj / smat, vh)
        if gvh is not None:
            gv = _h(gvh)
            k = f * xp.matmul(vh, gv)
            mid = mid + xp.matmul(eye * smat, k + _h(k))
            if n > m:
                proj = gv - xp.matmul(v, xp.matmul(vh, gv))
                out = out + xp.matmul(u / smat, _h(proj))
        return (out + xp.matmul(xp.matmul(u, mid), vh),)
    return vjp


def _qr(ans, x, *, mode="reduced"):
    q, r = ans
    m, n = x.shape[-2:]
    if m < n or (mode == "complete" and m != n) or x.dtype.kind == "c":
        raise TypeError("qr has a gradient rule for real matrices with at least as many rows "
                        "as columns, in mode='reduced', only")

    def vjp(gs):
        # TensorFlow's QrGrad: A = QR; gA = Q (gR + tril(skew) R^-H) + (gQ - Q Q^H gQ) R^-H.
        gq, gr = gs
        gq = 0 * q if gq is None else gq
        gr = 0 * r if gr is None else gr
        qdq = xp.matmul(_h(q), gq)
        rdr = xp.matmul(r, _h(gr))
        low = xp.tril(qdq - _h(qdq) + rdr - _h(rdr))
        r_inv_h = _h(xp.linalg.inv(r))
        return (xp.matmul(q, gr + xp.matmul(low, r_inv_h))
                + xp.matmul(gq - xp.matmul(q, qdq), r_inv_h),)
    return vjp


def _diagonal(ans, x, *, offset=0):
    shape = x.shape
    return lambda g: scatter_add(
        g, _positions(shape, lambda i: xp.linalg.diagonal(i, offset=offset)), shape)


def _vector_norm(ans, x, *, axis=None, keepdims=False, ord=2):
    from arrayx.autograd._rules import _expand

    def vjp(g):
        ge = _expand(g, x.shape, axis, keepdims)
        ne = _expand(ans, x.shape, axis, keepdims)
        if ord == 1:
            d = xp.sign(x) if x.dtype.kind != "c" else x / xp.where(x == 0, 1.0, xp.abs(x))
            return ge * d
        a = xp.abs(x)
        if ord in (float("inf"), float("-inf")):
            hit = a == ne
            count = xp.sum(xp.astype(hit, a.dtype), axis=axis, keepdims=True)
            unit = x / xp.where(a == 0, 1.0, a)
            return xp.where(hit, ge * unit / count, 0.0)
        if ord == 0:
            return None
        safe = xp.where(ne == 0, 1.0, ne)
        # |x|^(ord - 2) is inf at 0 for ord < 2: x times it is 0 there (no 0 * inf).
        d = (xp.where(a == 0, 0.0, x * a ** (ord - 2)) / safe ** (ord - 1) if ord != 2
             else x / safe)
        return xp.where(ne == 0, 0.0, ge * d)
    return vjp


def _swap(norm: str) -> str:
    return {"backward": "forward", "forward": "backward"}.get(norm, norm)


def _resize(g, axis: int, length: int):
    """``g`` cut or zero-padded along ``axis`` to ``length``."""
    have = g.shape[axis]
    if have > length:
        return g[(slice(None),) * (axis % g.ndim) + (slice(0, length),)]
    if have < length:
        shape = list(g.shape)
        shape[axis] = length - have
        return xp.concat([g, xp.zeros(tuple(shape), dtype=g.dtype)], axis=axis)
    return g


def _fft_rule(inverse: str):
    def maker(ans, x, *, n=None, axis=-1, norm="backward"):
        length = x.shape[axis]

        def vjp(g):
            out = getattr(xp.fft, inverse)(g, axis=axis, norm=_swap(norm))
            return _resize(out, axis, length)
        return vjp
    return (maker,)


def _fftn_rule(inverse: str):
    def maker(ans, x, *, s=None, axes=None, norm="backward"):
        shape = x.shape

        def vjp(g):
            ax_ = tuple(range(g.ndim)) if axes is None and s is None else (
                tuple(range(g.ndim - len(s), g.ndim)) if axes is None else axes)
            out = getattr(xp.fft, inverse)(g, axes=ax_, norm=_swap(norm))
            for a in ax_:
                out = _resize(out, a, shape[a])
            return out
        return vjp
    return (maker,)


def _rfft(ans, x, *, n=None, axis=-1, norm="backward"):
    length = x.shape[axis]
    full = length if n is None else n

    def vjp(g):
        out = xp.fft.ifft(_resize(g, axis, full), axis=axis, norm=_swap(norm))
        return _resize(out, axis, length)
    return vjp


def _irfft(ans, x, *, n=None, axis=-1, norm="backward"):
    length = x.shape[axis]
    full = 2 * (length - 1) if n is None else n

    def vjp(g):
        out = xp.fft.rfft(g, axis=axis, norm=_swap(norm))
        m = out.shape[axis]
        weight = xp.full((m,), 2.0, dtype=xp.float64 if g.dtype == xp.float64 else xp.float32)
        weight[0] = 1.0
        if full % 2 == 0:
            weight[m - 1] = 1.0
        shape = [1] * out.ndim
        shape[axis] = m
        return _resize(out * xp.reshape(weight, tuple(shape)), axis, length)
    return vjp


LINALG = {
    "matmul": (_matmul(0), _matmul(1)),
    "inv": (_inv,),
    "det": (_det,),
    "solve": (_solve_x1, _solve_x2),
    "cholesky": (_cholesky,),
    "eigvalsh": (_eigvalsh,),
    "eigvals": (_eigvals,),
    "svdvals": (_svdvals,),
    "diagonal": (_diagonal,),
    "vector_norm": (_vector_norm,),
    "matrix_transpose": ((lambda ans, x: lambda g: xp.matrix_transpose(g)),),
}
# Functions returning several arrays: joint makers taking the list of cotangents.
LINALG_MULTI = {"slogdet": _slogdet, "eigh": _eigh, "svd": _svd, "qr": _qr,
                "eig": _eig}
FFT = {
    "fft": _fft_rule("ifft"),
    "ifft": _fft_rule("fft"),
    "fftn": _fftn_rule("ifftn"),
    "ifftn": _fftn_rule("fftn"),
    "rfft": (_rfft,),
    "irfft": (_irfft,),
}

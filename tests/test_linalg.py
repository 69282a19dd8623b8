"""linalg and the matmul family against NumPy: drawn stacks, dtypes and transposed operands."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from conftest import to_np
from hypothesis import given, settings
from hypothesis import strategies as st

import arrayx as ax

SETTINGS = settings(max_examples=60, deadline=None)
FLOATS = [np.float32, np.float64, np.complex64, np.complex128]
NUMERIC = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
           *FLOATS]
TOL = {np.float32: 2e-4, np.float64: 1e-10, np.complex64: 2e-4, np.complex128: 1e-10}


def draw_array(data, shape, dtype):
    """A NumPy array of ``dtype`` with small values (integers wrap exactly as NumPy's)."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True,
                            dtype=dtype)
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def maybe_transposed(data, x: np.ndarray, label: str):
    """``x`` as an arrayx array, sometimes built as the ``mT`` view of a transposed copy."""
    if x.ndim >= 2 and data.draw(st.booleans(), label=label):
        base = ax.asarray(np.ascontiguousarray(np.swapaxes(x, -1, -2)))
        return base.mT
    return ax.asarray(x)


def close(res, expected, dtype):
    res = to_np(res)
    assert res.shape == expected.shape
    assert res.dtype == expected.dtype
    if np.issubdtype(expected.dtype, np.inexact):
        tol = TOL.get(np.dtype(dtype).type, 1e-10)
        scale = max(1.0, float(np.max(np.abs(expected), initial=0)))
        np.testing.assert_allclose(res, expected, rtol=tol, atol=tol * scale)
    else:
        np.testing.assert_array_equal(res, expected)


batch = st.lists(st.integers(1, 3), max_size=2).map(tuple)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(NUMERIC + [np.bool_]),
       m=st.integers(0, 9), n=st.integers(0, 9), k=st.integers(0, 9),
       b1=batch, cut=st.integers(0, 2), big=st.booleans())
def test_matmul(data, dtype, m, n, k, b1, cut, big):
    if big:
        m, n, k = m * 5 + 3, n * 5 + 3, k * 5 + 3
    b2 = tuple(1 if data.draw(st.booleans()) else d for d in b1[cut:])
    if data.draw(st.booleans()):
        b1, b2 = b2, b1
    x = draw_array(data, (*b1, m, k), dtype)
    y = draw_array(data, (*b2, k, n), dtype)
    close(maybe_transposed(data, x, "tx") @ maybe_transposed(data, y, "ty"), x @ y, dtype)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(NUMERIC), k=st.integers(1, 70),
       b=batch, which=st.sampled_from(["vm", "mv", "vv"]))
def test_matmul_vectors(data, dtype, k, b, which):
    v = draw_array(data, (k,), dtype)
    mat = draw_array(data, (*b, k, k + 1) if which == "vm" else (*b, k + 1, k), dtype)
    if which == "vm":
        close(ax.matmul(ax.asarray(v), maybe_transposed(data, mat, "t")), v @ mat, dtype)
    elif which == "mv":
        close(ax.matmul(maybe_transposed(data, mat, "t"), ax.asarray(v)), mat @ v, dtype)
    else:
        close(ax.matmul(ax.asarray(v), ax.asarray(v[::-1])), to_np(v @ v[::-1]), dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int32])
def test_matmul_mixed_dtypes_and_strided_operands(dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((40, 60)).astype(dtype)
    y = rng.integers(-5, 5, (90, 50)).astype(np.int16)
    xs, ys = x[:, ::2], y[::3, ::-1]
    close(ax.asarray(x)[:, ::2] @ ax.asarray(y)[::3, ::-1], xs @ ys, dtype)


# Products with few columns (at most four vectors' width of them) run on arrayx's kernel at the
# AVX-512 level (ax_skinny.hpp) and on BLAS elsewhere: columns around the vectors' edges, rows
# around the kernel's groups of 4 and 8, and every layout of either operand, against NumPy.
SKINNY_LAYOUTS = {
    "rows": lambda x: x,
    "columns": lambda x: x.mT,
    "strided": lambda x: x[::2, ::3],
    "reversed": lambda x: x[::-1, ::-1],
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65])
def test_products_with_few_columns_match_numpy(dtype, n: int) -> None:
    rng = np.random.default_rng(n)
    for m, k in ((1, 40), (5, 3), (8, 77), (13, 200), (1000, 64), (3001, 9)):
        for la, lb in (("rows", "rows"), ("columns", "rows"), ("strided", "columns"),
                       ("reversed", "strided")):
            # Draw each operand big enough that its layout's view has the wanted shape.
            shape_a = {"rows": (m, k), "columns": (k, m), "strided": (2 * m, 3 * k),
                       "reversed": (m, k)}[la]
            shape_b = {"rows": (k, n), "columns": (n, k), "strided": (2 * k, 3 * n),
                       "reversed": (k, n)}[lb]
            a = rng.standard_normal(shape_a).astype(dtype)
            b = rng.standard_normal(shape_b).astype(dtype)
            got = SKINNY_LAYOUTS[la](ax.asarray(a)) @ SKINNY_LAYOUTS[lb](ax.asarray(b))
            close(got, SKINNY_LAYOUTS[la](a) @ SKINNY_LAYOUTS[lb](b), dtype)


def test_products_with_few_columns_are_the_same_on_any_thread_count() -> None:
    rng = np.random.default_rng(3)
    a = ax.asarray(rng.standard_normal((20000, 200)))
    b = ax.asarray(rng.standard_normal((200, 200)))[:, -10:]
    before = ax.get_num_threads()
    try:
        ax.set_num_threads(2)
        two = to_np(a @ b)
        ax.set_num_threads(1)
        one = to_np(a @ b)
    finally:
        ax.set_num_threads(before)
    np.testing.assert_array_equal(two, one)
    close(ax.asarray(two), to_np(a) @ to_np(b), np.float64)


# Matrix-vector products go to BLAS gemv with the vector read at its stride: every layout of
# the matrix (rows or columns contiguous, or neither: copied) and of the vector (negative,
# zero or wide strides: copied or read as they lie), batched, against NumPy.
GEMV_CASES = {
    "X @ w": (lambda X, v: X @ v[: X.shape[-1]]),
    "X.mT @ r": (lambda X, v: X.mT @ v[: X.shape[-2]]),
    "r @ X": (lambda X, v: v[: X.shape[-2]] @ X),
    "w @ X.mT": (lambda X, v: v[: X.shape[-1]] @ X.mT),
    "X[:, ::2] @ w": (lambda X, v: X[..., ::2] @ v[: (X.shape[-1] + 1) // 2]),
    "X @ w[::-1]": (lambda X, v: X @ v[: X.shape[-1]][::-1]),
    "X @ v[::3]": (lambda X, v: X @ v[::3][: X.shape[-1]]),
    "X @ column": (lambda X, v: X @ v[: X.shape[-1], None]),
    "row @ X": (lambda X, v: v[None, : X.shape[-2]] @ X),
}


@pytest.mark.parametrize("case", list(GEMV_CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("batch_shape", [(), (3,)])
def test_matrix_vector_products(case, dtype, batch_shape):
    rng = np.random.default_rng(5)
    X = rng.standard_normal((*batch_shape, 300, 80))
    v = rng.standard_normal(900)
    if np.issubdtype(dtype, np.complexfloating):
        X = X + 1j * rng.standard_normal(X.shape)
        v = v - 2j * rng.standard_normal(v.shape)
    X, v = X.astype(dtype), v.astype(dtype)
    f = GEMV_CASES[case]
    close(f(ax.asarray(X), ax.asarray(v)), f(X, v), dtype)


def test_matrix_vector_with_a_broadcast_vector_and_non_finite_values():
    X = np.arange(12000.0).reshape(400, 30)
    X[7, 3], X[9, 0] = np.inf, np.nan
    w = ax.broadcast_to(ax.asarray(0.5), (30,))  # stride 0: copied for gemv
    close(ax.asarray(X) @ w, X @ np.full(30, 0.5), np.float64)
    close(w @ ax.asarray(X).mT, np.full(30, 0.5) @ X.T, np.float64)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("batch_shape", [(), (3,)])
def test_blocked_kernel_threads(threads, batch_shape):
    rng = np.random.default_rng(2)
    x = rng.integers(-1000, 1000, (*batch_shape, 150, 130), dtype=np.int32)
    y = rng.integers(-1000, 1000, (130, 110), dtype=np.int32)
    before = ax.get_num_threads()
    ax.set_num_threads(threads)
    try:
        close(ax.asarray(x) @ ax.asarray(y).mT.mT, x @ y, np.int32)
        close(ax.asarray(x) @ ax.asarray(np.asfortranarray(y)), x @ y, np.int32)
    finally:
        ax.set_num_threads(before)


NO_COPY_SCRIPT = """
import resource
import numpy as np
import arrayx as ax
a = ax.asarray(np.random.default_rng(0).standard_normal((12000, 1000)))  # 96 MB
b = ax.ones((12000, 8))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
c = a.mT @ b
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
assert np.allclose(np.asarray(c), np.asarray(a).T @ np.ones((12000, 8)))
print(grown)
"""


def test_matmul_transposed_operand_is_not_copied(cpu_default):
    # The host's peak memory while BLAS reads a transposed operand in place: on the CPU.
    out = subprocess.run([sys.executable, "-c", NO_COPY_SCRIPT], capture_output=True,
                         text=True, check=True)
    grown_kib = int(out.stdout.split()[-1])
    assert grown_kib < 30_000, f"A.mT @ B grew the peak memory by {grown_kib} KiB"


def test_matmul_errors_name_shapes():
    a = ax.ones((3, 4))
    with pytest.raises(ValueError, match=r"\(3, 4\).*\(3, 4\)"):
        ax.matmul(a, a)
    with pytest.raises(ValueError):
        ax.matmul(ax.ones(()), a)
    with pytest.raises(ValueError, match="broadcast"):
        ax.matmul(ax.ones((2, 3, 4)), ax.ones((3, 4, 2)))
    with pytest.raises(TypeError):
        ax.matmul(a, np.ones((4, 3)))


def test_imatmul_and_rmatmul():
    a = ax.asarray(np.arange(9.0).reshape(3, 3))
    expected = np.arange(9.0).reshape(3, 3) @ np.eye(3)
    b = a
    b @= ax.eye(3)
    assert b is a
    np.testing.assert_array_equal(to_np(a), expected)
    with pytest.raises(ValueError):
        a @= ax.ones((3, 2))
    with pytest.raises(TypeError):
        ax.ones((2, 2), dtype=ax.int32).__imatmul__(ax.ones((2, 2)))


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(NUMERIC), axes=st.sampled_from(
    [0, 1, 2, ((0,), (1,)), ((1, 0), (0, 2)), ((2,), (0,))]))
def test_tensordot(data, dtype, axes):
    x = draw_array(data, (2, 3, 4), dtype)
    y = draw_array(data, (3, 2, 4) if isinstance(axes, tuple) else (3, 4, 2), dtype)
    if axes == 1:
        y = draw_array(data, (4, 3, 2), dtype)
    elif axes == 2:
        y = draw_array(data, (3, 4, 2), dtype)
    elif axes == ((1, 0), (0, 2)):
        y = draw_array(data, (3, 5, 2), dtype)
    elif axes == ((2,), (0,)):
        y = draw_array(data, (4, 5), dtype)
    elif axes == ((0,), (1,)):
        y = draw_array(data, (3, 2), dtype)
    close(ax.tensordot(ax.asarray(x), ax.asarray(y), axes=axes),
          np.tensordot(x, y, axes=axes), dtype)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(NUMERIC), b=batch, k=st.integers(1, 6),
       axis=st.sampled_from([-1, -2]))
def test_vecdot(data, dtype, b, k, axis):
    shape = (*b, k, 3) if axis == -2 else (*b, 3, k)
    x = draw_array(data, shape, dtype)
    y = draw_array(data, shape[-2:], dtype)
    close(ax.linalg.vecdot(ax.asarray(x), ax.asarray(y), axis=axis),
          np.vecdot(x, y, axis=axis), dtype)


# Short vectors are summed in one pass over both operands (vector lanes for contiguous real
# rows, the tail and strided rows one by one): lengths about the lane widths, a strided view,
# a vector broadcast against rows, promotion, complex, empty rows.
@pytest.mark.parametrize("n", [0, 1, 3, 7, 8, 9, 31, 32, 33, 100, 257])
@pytest.mark.parametrize("case", ["rows", "strided", "broadcast", "mixed", "complex"])
def test_vecdot_of_short_vectors(n: int, case: str) -> None:
    rng = np.random.default_rng(n)
    a = rng.standard_normal((5, 2 * n))
    b = rng.standard_normal((5, 2 * n))
    if case == "strided":
        x, y = a[:, ::2], b[:, 1::2]
    elif case == "broadcast":
        x, y = a[:, :n], b[0, :n]
    elif case == "mixed":
        x, y = a[:, :n].astype(np.float32), b[:, :n]
    elif case == "complex":
        x, y = a[:, :n] + 1j * b[:, :n], (b[:, :n] - 2j * a[:, :n]).astype(np.complex64)
    else:
        x, y = a[:, :n], b[:, :n]
    got = ax.vecdot(ax.asarray(np.ascontiguousarray(x)) if case != "strided"
                    else ax.asarray(a)[:, ::2], ax.asarray(y) if case != "strided"
                    else ax.asarray(b)[:, 1::2])
    want = np.vecdot(x, y)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(to_np(got), want, rtol=1e-12 if want.dtype.itemsize >= 8 else 1e-5,
                               atol=1e-12 * max(n, 1))


def test_vecdot_conjugates_and_checks_sizes():
    r = ax.vecdot(ax.asarray([1j, 2j, 3j]), ax.asarray([1, 2j, 3]))
    assert complex(r) == 4 - 10j
    with pytest.raises(ValueError):
        ax.vecdot(ax.ones((3, 4)), ax.ones((3, 5)))


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(NUMERIC), rows=st.integers(0, 5),
       cols=st.integers(0, 5), offset=st.integers(-6, 6), b=batch)
def test_diagonal_and_trace(data, dtype, rows, cols, offset, b):
    x = draw_array(data, (*b, rows, cols), dtype)
    a = maybe_transposed(data, x, "t")
    close(ax.linalg.diagonal(a, offset=offset),
          np.diagonal(x, offset=offset, axis1=-2, axis2=-1), dtype)
    close(ax.linalg.trace(a, offset=offset),
          to_np(np.trace(x, offset=offset, axis1=-2, axis2=-1)), dtype)


def test_diagonal_is_a_view():
    a = ax.zeros((3, 3))
    ax.linalg.diagonal(a)[...] = 1.0
    np.testing.assert_array_equal(to_np(a), np.eye(3))


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(FLOATS), n=st.integers(1, 6), b=batch)
def test_square_factorisations(data, dtype, n, b):
    x = draw_array(data, (*b, n, n), dtype) + (3 * n * np.eye(n)).astype(dtype)
    a = maybe_transposed(data, x, "t")
    close(ax.linalg.inv(a), np.linalg.inv(x), dtype)
    close(ax.linalg.det(a), to_np(np.linalg.det(x)), dtype)
    sign, logabs = ax.linalg.slogdet(a)
    s_np, l_np = np.linalg.slogdet(x)
    close(sign, to_np(s_np), dtype)
    close(logabs, to_np(l_np), dtype)
    rhs = draw_array(data, (n, 2), dtype)
    close(ax.linalg.solve(a, ax.asarray(rhs)), np.linalg.solve(x, rhs), dtype)
    close(ax.linalg.solve(a, ax.asarray(rhs[:, 0])), np.linalg.solve(x, rhs[:, 0]), dtype)
    close(ax.linalg.matrix_power(a, 3), np.linalg.matrix_power(x, 3), dtype)
    close(ax.linalg.matrix_power(a, -2), np.linalg.matrix_power(x, -2), dtype)
    close(ax.linalg.matrix_power(a, 0), np.linalg.matrix_power(x, 0), dtype)
    h = x @ np.conj(np.swapaxes(x, -1, -2))
    close(ax.linalg.cholesky(ax.asarray(h)), np.linalg.cholesky(h), dtype)
    close(ax.linalg.cholesky(ax.asarray(h), upper=True), np.linalg.cholesky(h, upper=True),
          dtype)
    close(ax.linalg.eigvalsh(ax.asarray(h)), np.linalg.eigvalsh(h), dtype)
    w, v = ax.linalg.eigh(ax.asarray(h))
    close(w, np.linalg.eigvalsh(h), dtype)
    vn = to_np(v)
    close(ax.asarray(vn @ (to_np(w)[..., None] * np.conj(np.swapaxes(vn, -1, -2)))), h,
          dtype)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(FLOATS), n=st.integers(1, 5), b=batch)
def test_eig_is_complex_and_decomposes(data, dtype, n, b):
    x = draw_array(data, (*b, n, n), dtype)
    w, v = ax.linalg.eig(ax.asarray(x))
    cdt = np.result_type(dtype, np.complex64)
    assert w.dtype == cdt and v.dtype == cdt
    wn, vn = to_np(w), to_np(v)
    close(ax.asarray(vn * wn[..., None, :]), (x @ vn).astype(cdt), cdt)
    close(ax.linalg.eigvals(ax.asarray(x)), wn, cdt)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(FLOATS), m=st.integers(1, 6),
       n=st.integers(1, 6), b=batch, full=st.booleans(),
       mode=st.sampled_from(["reduced", "complete"]))
def test_rectangular_factorisations(data, dtype, m, n, b, full, mode):
    x = draw_array(data, (*b, m, n), dtype)
    a = maybe_transposed(data, x, "t")
    u, s, vh = ax.linalg.svd(a, full_matrices=full)
    un, sn, vhn = np.linalg.svd(x, full_matrices=full)
    close(s, sn, dtype)
    close(ax.linalg.svdvals(a), np.linalg.svdvals(x), dtype)
    k = min(m, n)
    recon = to_np(u)[..., :, :k] * to_np(s)[..., None, :] @ to_np(vh)[..., :k, :]
    close(ax.asarray(recon), x, dtype)
    assert u.shape == un.shape and vh.shape == vhn.shape
    q, r = ax.linalg.qr(a, mode=mode)
    qn, rn = np.linalg.qr(x, mode=mode)
    assert q.shape == qn.shape and r.shape == rn.shape
    close(ax.asarray(to_np(q) @ to_np(r)), x, dtype)
    close(ax.linalg.pinv(a), np.linalg.pinv(x), dtype)
    close(ax.linalg.matrix_rank(a), to_np(np.linalg.matrix_rank(x)), dtype)
    for ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        close(ax.linalg.matrix_norm(a, ord=ord), to_np(np.linalg.matrix_norm(x, ord=ord)),
              dtype)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(FLOATS), b=batch,
       ord=st.sampled_from([2, 1, 0, -1, -2, np.inf, -np.inf, 3.5]),
       axis=st.sampled_from([None, -1, 0, (0, -1)]), keepdims=st.booleans())
def test_vector_norm(data, dtype, b, ord, axis, keepdims):
    x = draw_array(data, (*b, 4), dtype)
    if isinstance(axis, tuple) and x.ndim < 2:
        axis = -1
    close(ax.linalg.vector_norm(ax.asarray(x), axis=axis, keepdims=keepdims, ord=ord),
          to_np(np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)), dtype)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(NUMERIC), b=batch)
def test_cross_and_outer(data, dtype, b):
    x = draw_array(data, (*b, 3), dtype)
    y = draw_array(data, (3,), dtype)
    with np.errstate(over="ignore"):
        close(ax.linalg.cross(ax.asarray(x), ax.asarray(y)), np.cross(x, y), dtype)
        xt = np.swapaxes(draw_array(data, (2, 3), dtype), 0, 1)
        close(ax.linalg.cross(ax.asarray(np.ascontiguousarray(xt)), ax.asarray(y[:, None]),
                              axis=-2), np.cross(xt, y[:, None], axis=-2), dtype)
    u = draw_array(data, (4,), dtype)
    close(ax.linalg.outer(ax.asarray(u), ax.asarray(y)), np.outer(u, y), dtype)


@pytest.mark.parametrize("fn", ["inv", "solve"])
def test_singular_matrix_raises(fn):
    a = ax.zeros((3, 3))
    with pytest.raises(ax.linalg.LinAlgError):
        ax.linalg.inv(a) if fn == "inv" else ax.linalg.solve(a, ax.ones((3,)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [63, 64, 65, 129, 200, 257])
def test_lu_across_its_panels_matches_numpy(dtype, n):
    # The LU below 1536 columns is recursive over panels of 64: sizes at and across a panel's
    # edge, and two and three levels deep; a few right-hand sides, and from 64 (inv's n among
    # them) as many as make getrs's triangular solves recursive, over halves of 64 rows and
    # less, in both of LAPACK's orders (solve's transposed system, inv's own).
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n))
                                       if np.dtype(dtype).kind == "c" else 0)
    a = a.astype(dtype)
    tol = 50 * n * np.finfo(dtype).eps
    for x in (a, np.ascontiguousarray(a.T)):  # LAPACK sees the transpose of a C-ordered copy
        # LU is backward stable: the residual, not the solution, is bounded (the solution of
        # an ill-conditioned draw moves by its condition number times the rounding).
        for k in (3, 40, 64, 150):
            b = rng.standard_normal((n, k)).astype(dtype)
            got = to_np(ax.linalg.solve(ax.asarray(x), ax.asarray(b)))
            scale = np.abs(x).max() * np.abs(got).max() + np.abs(b).max()
            assert np.abs(x @ got - b).max() <= tol * scale
        inv = to_np(ax.linalg.inv(ax.asarray(x)))
        assert np.abs(inv @ x - np.eye(n)).max() <= tol * np.abs(inv).max() * np.abs(x).max()
        sign, logdet = ax.linalg.slogdet(ax.asarray(x))
        want_sign, want_logdet = np.linalg.slogdet(x)
        assert abs(complex(sign) - want_sign) <= tol and abs(float(logdet) - want_logdet) <= tol * n


@pytest.mark.parametrize("where", [0, 63, 64, 100, 199])
@pytest.mark.parametrize("axis", [0, 1])
def test_an_exactly_zero_pivot_in_any_panel_is_singular(where, axis):
    a = np.random.default_rng(where).standard_normal((200, 200))
    if axis:
        a[:, where] = 0
    else:
        a[where] = 0
    x = ax.asarray(a)
    with pytest.raises(ax.linalg.LinAlgError):
        ax.linalg.solve(x, ax.ones((200,)))
    with pytest.raises(ax.linalg.LinAlgError):
        ax.linalg.inv(x)
    assert float(ax.linalg.det(x)) == np.linalg.det(a) == 0.0
    sign, logdet = ax.linalg.slogdet(x)
    assert float(sign) == 0.0 and float(logdet) == -np.inf


def test_det_of_a_singular_matrix_is_zero_where_its_pivots_overflow():
    # The pivots before the zero one multiply to inf (a 400 x 400 Gaussian matrix's
    # determinant is near 1e400): inf * 0 must not make the determinant nan.
    a = np.random.default_rng(0).standard_normal((2, 400, 400))
    a[0, :, 133] = 0
    got = to_np(ax.linalg.det(ax.asarray(a)))
    want = np.linalg.det(a)
    assert got[0] == want[0] == 0.0 and np.isinf(got[1]) and np.isinf(want[1])


def test_bad_input_errors():
    with pytest.raises(ValueError, match=r"\(2, 3\)"):
        ax.linalg.inv(ax.ones((2, 3)))
    with pytest.raises(TypeError, match="int64"):
        ax.linalg.det(ax.ones((2, 2), dtype=ax.int64))
    with pytest.raises(ValueError):
        ax.linalg.solve(ax.eye(3), ax.ones((4,)))
    with pytest.raises(ValueError):
        ax.linalg.cross(ax.ones((4,)), ax.ones((4,)))
    with pytest.raises(ValueError):
        ax.linalg.outer(ax.ones((2, 2)), ax.ones((2,)))
    with pytest.raises(ValueError):
        ax.tensordot(ax.ones((2, 3)), ax.ones((4, 2)), axes=1)


def test_named_tuples():
    x = ax.eye(3)
    assert ax.linalg.eigh(x)._fields == ("eigenvalues", "eigenvectors")
    assert ax.linalg.eig(x)._fields == ("eigenvalues", "eigenvectors")
    assert ax.linalg.svd(x)._fields == ("U", "S", "Vh")
    assert ax.linalg.qr(x)._fields == ("Q", "R")
    assert ax.linalg.slogdet(x)._fields == ("sign", "logabsdet")


def test_linalg_namespace_is_complete():
    expected = {
        "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
        "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
        "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
        "vector_norm",
    }
    assert expected <= set(ax.linalg.__all__)
    assert all(callable(getattr(ax.linalg, name)) for name in expected)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(70, 30), (30, 70), (130, 5), (2, 9)])
@pytest.mark.parametrize("order", ["C", "F", "stepped"])
def test_gram_products_are_symmetric_and_match_numpy(dtype: str, shape: tuple,
                                                     order: str) -> None:
    # X.mT @ X and X @ X.mT take BLAS syrk and mirror the triangle it fills.
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dtype)
    x = np.asfortranarray(x) if order == "F" else x[::2] if order == "stepped" else x
    a = ax.asarray(x)
    tol = 1e-4 if dtype in ("float32", "complex64") else 1e-12
    for got, want in ((a.mT @ a, x.T @ x), (a @ a.mT, x @ x.T)):
        g = to_np(got)
        # The oracle: a sum of products in float64/complex128, independent of any BLAS.
        exact = np.einsum("ik,kj->ij", *(v.astype(np.complex128 if dtype.startswith("c")
                                                  else np.float64) for v in
                                          ((x.T, x) if want.shape[0] == x.shape[1]
                                           else (x, x.T))))
        assert g.dtype == want.dtype
        np.testing.assert_array_equal(g, g.T)
        np.testing.assert_allclose(g, exact, rtol=tol, atol=tol * np.abs(exact).max())


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int64", "bool"])
def test_matmul_of_a_stack_by_one_matrix_matches_numpy(dtype: str) -> None:
    # A stack of matrices times one matrix (or one broadcast over the stack) is folded into
    # one product of the stack's rows when they lie one after another; other layouts not.
    # An inner dimension of 1 is a broadcast multiplication.
    rng = np.random.default_rng(7)

    def r(*shape):
        return (rng.standard_normal(shape) * 3).astype(dtype)

    w = r(6, 4)
    tolerance = ({"rtol": 1e-4, "atol": 1e-5} if dtype == "float32"
                 else {"rtol": 1e-12, "atol": 1e-12})
    cases = [
        (r(3, 2, 6), w), (r(3, 2, 6), r(1, 6, 4)), (r(5, 1, 6), w), (r(2, 3, 4, 6), w),
        (r(3, 4, 5, 6)[:, ::2], w), (r(3, 4, 5, 6)[:, :, ::2], w), (r(2, 3, 6)[:, ::-1], w),
        (np.swapaxes(r(3, 6, 5), -1, -2), w), (r(3, 4, 6), r(6)), (r(1, 2, 6), None),
        (r(2, 1, 3, 6), None), (r(7, 1, 6)[1:5], r(6, 9)), (r(3, 2, 6), to_np(w).T.T),
        # Inner dimension 1: outer products.
        (r(3, 5, 1), r(3, 1, 4)), (r(5, 1), r(1, 4)), (r(2, 1, 3, 1), r(4, 1, 5)),
        (r(5, 1)[::-2], r(1, 0)),
    ]
    for a, b in cases:
        if b is None:
            b = np.broadcast_to(r(1, 6, 4), (3, 6, 4))
        want = np.matmul(a, b)
        got = ax.matmul(ax.asarray(a), ax.asarray(np.ascontiguousarray(b))
                        if b.strides[0] else ax.broadcast_to(ax.asarray(b[0]), b.shape))
        assert got.shape == want.shape
        np.testing.assert_allclose(to_np(got), want, **tolerance)


# A NaN or an infinity reaches gesdd and geev as a NaN norm, which they refuse with a negative
# info and unwritten outputs (and geev's clean-up then wrote outside its eigenvalue arrays):
# refused first, as NumPy does.
NON_FINITE_CALLS = {
    "eig": lambda a: ax.linalg.eig(a), "eigvals": lambda a: ax.linalg.eigvals(a),
    "svd": lambda a: ax.linalg.svd(a), "svdvals": lambda a: ax.linalg.svdvals(a),
    "matrix_rank": lambda a: ax.linalg.matrix_rank(a), "pinv": lambda a: ax.linalg.pinv(a),
    "matrix_norm 2": lambda a: ax.linalg.matrix_norm(a, ord=2),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", list(NON_FINITE_CALLS))
def test_non_finite_matrices_raise_where_numpy_raises(name: str, dtype: str) -> None:
    for bad in (np.inf, -np.inf, np.nan):
        for n in (2, 3, 4):
            a = np.eye(n, dtype=dtype)
            a[0, n - 1] = a[n - 1, 0] = bad
            batch = np.stack([np.eye(n, dtype=dtype), a])
            for x in (a, batch):
                with pytest.raises(ax.linalg.LinAlgError):
                    NON_FINITE_CALLS[name](ax.asarray(x))


@pytest.mark.parametrize("shape", [(3, 0), (0, 0), (0, 3), (2, 0, 3), (2, 3, 0)])
def test_rank_and_largest_norms_of_empty_matrices_are_zero(shape: tuple[int, ...]) -> None:
    # 0 for each matrix of the stack, as NumPy 2.4 and PyTorch give (older NumPy raises for
    # some, so the expected zeros are written out).
    z = np.zeros(shape)
    rank = to_np(ax.linalg.matrix_rank(ax.asarray(z)))
    assert rank.shape == shape[:-2] and rank.dtype == np.int64 and not rank.any()
    for order in (1, 2, np.inf, "fro", "nuc"):
        got = to_np(ax.linalg.matrix_norm(ax.asarray(z), ord=order))
        assert got.shape == shape[:-2] and got.dtype == np.float64
        np.testing.assert_array_equal(got, np.zeros(shape[:-2]))

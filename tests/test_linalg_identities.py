"""linalg checked by identities and by formulas written here, never by the call arrayx makes.

Factorisations must rebuild their input (``Q @ R``, ``U diag(S) Vh``, ``V diag(w) V^H``,
``L L^H``), inverses must invert, determinants must agree with eigenvalues and with the
Leibniz formula, ``pinv`` must meet the four Penrose conditions, ranks must be the ranks the
matrices were built with, and norms must equal their definitions summed here in Python. The
products in the checks are NumPy's, computed in double or complex double precision.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from conftest import to_np
from hypothesis import given, settings
from hypothesis import strategies as st

import arrayx as ax

SETTINGS = settings(max_examples=40, deadline=None)
FLOATS = ["float32", "float64", "complex64", "complex128"]
# Relative tolerance of an identity in each precision (well-conditioned inputs only).
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-11, "complex128": 1e-11}

batch = st.lists(st.integers(1, 3), max_size=2).map(tuple)


def rng_of(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def random(rng: np.random.Generator, shape: tuple, dtype: str) -> np.ndarray:
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def well_conditioned(rng: np.random.Generator, shape: tuple, dtype: str) -> np.ndarray:
    """Square matrices with a dominant diagonal (condition numbers of a few units)."""
    n = shape[-1]
    return (random(rng, shape, dtype) + 3 * n * np.eye(n)).astype(dtype)


def wide(x: object) -> np.ndarray:
    """An arrayx (or NumPy) result as NumPy in double precision, for the checks' products."""
    a = to_np(x)
    return a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)


def h(x: np.ndarray) -> np.ndarray:
    return np.conj(np.swapaxes(x, -1, -2))


def near(got: np.ndarray, want: np.ndarray, dtype: str, scale: float = 1.0) -> None:
    tol = TOL[dtype]
    want = np.broadcast_to(want, np.shape(got))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, scale))


def eye_like(x: np.ndarray) -> np.ndarray:
    return np.broadcast_to(np.eye(x.shape[-1]), x.shape)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(FLOATS), n=st.integers(1, 7),
       b=batch, k=st.integers(1, 3))
def test_inverse_and_solve_invert(seed: int, dtype: str, n: int, b: tuple, k: int) -> None:
    rng = rng_of(seed)
    x = well_conditioned(rng, (*b, n, n), dtype)
    a = ax.asarray(x)
    inv = ax.linalg.inv(a)
    assert inv.dtype == a.dtype and inv.shape == a.shape
    near(wide(x) @ wide(inv), eye_like(x), dtype)
    near(wide(inv) @ wide(x), eye_like(x), dtype)
    rhs = random(rng, (*b, n, k), dtype)
    sol = ax.linalg.solve(a, ax.asarray(rhs))
    assert sol.shape == rhs.shape
    near(wide(x) @ wide(sol), wide(rhs), dtype, np.abs(rhs).max())
    vec = random(rng, (n,), dtype)
    sol = ax.linalg.solve(a, ax.asarray(vec))
    assert sol.shape == (*b, n)
    near((wide(x) @ wide(sol)[..., None])[..., 0], wide(vec), dtype, np.abs(vec).max())
    # The batch dimensions broadcast: one matrix against several right-hand sides.
    many = random(rng, (2, *b, n, k), dtype)
    sol = ax.linalg.solve(a, ax.asarray(many))
    assert sol.shape == many.shape
    near(wide(x) @ wide(sol), wide(many), dtype, np.abs(many).max())


def leibniz(m: np.ndarray) -> complex:
    """The determinant as the signed sum over permutations (small n only)."""
    n = m.shape[0]
    total = 0j
    for perm in itertools.permutations(range(n)):
        inversions = sum(perm[i] > perm[j] for i in range(n) for j in range(i + 1, n))
        term = complex((-1) ** inversions)
        for i in range(n):
            term *= complex(m[i, perm[i]])
        total += term
    return total


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(FLOATS), n=st.integers(1, 5),
       transposed=st.booleans())
def test_det_is_the_leibniz_sum_and_the_product_of_eigenvalues(seed: int, dtype: str, n: int,
                                                              transposed: bool) -> None:
    x = random(rng_of(seed), (n, n), dtype)
    a = ax.asarray(np.ascontiguousarray(x.T)).mT if transposed else ax.asarray(x)
    d = ax.linalg.det(a)
    assert d.dtype == a.dtype and d.shape == ()
    want = leibniz(x.astype(np.complex128))
    scale = max(1.0, float(np.prod(np.linalg.norm(x.astype(np.complex128), axis=1))))
    near(complex(wide(d)), want, dtype, scale)
    eig = np.prod(wide(ax.linalg.eigvals(a)))
    near(complex(wide(d)), eig, dtype, scale)
    sign, logabs = ax.linalg.slogdet(a)
    assert logabs.dtype == np.abs(x).dtype and sign.dtype == a.dtype
    near(complex(wide(sign)) * math.exp(float(logabs)), want, dtype, scale)
    assert abs(abs(complex(wide(sign))) - 1) < TOL[dtype]


@pytest.mark.parametrize("dtype", FLOATS)
def test_det_of_built_matrices(dtype: str) -> None:
    rng = rng_of(5)
    # Triangular: the product of the diagonal; a row swap flips the sign.
    t = np.triu(random(rng, (6, 6), dtype))
    near(complex(wide(ax.linalg.det(ax.asarray(t)))), complex(np.prod(wide(np.diag(t)))),
         dtype, float(np.abs(np.prod(wide(np.diag(t))))))
    swapped = t[[1, 0, 2, 3, 4, 5]]
    near(complex(wide(ax.linalg.det(ax.asarray(swapped)))),
         -complex(np.prod(wide(np.diag(t)))), dtype, float(np.abs(np.prod(wide(np.diag(t))))))
    # Permutation matrices: the permutation's sign.
    for perm, sign in (((1, 2, 0), 1), ((0, 2, 1), -1), ((3, 2, 1, 0), 1), ((1, 0, 3, 2), 1),
                       ((1, 2, 3, 0), -1)):
        p = np.eye(len(perm), dtype=dtype)[list(perm)]
        assert complex(ax.linalg.det(ax.asarray(p))) == sign
        s, logabs = ax.linalg.slogdet(ax.asarray(p))
        assert complex(s) == sign and float(logabs) == 0.0
    # det(AB) = det(A) det(B), over a stack.
    x, y = random(rng, (3, 4, 4), dtype), random(rng, (3, 4, 4), dtype)
    dxy = wide(ax.linalg.det(ax.asarray(x @ y)))
    want = wide(ax.linalg.det(ax.asarray(x))) * wide(ax.linalg.det(ax.asarray(y)))
    near(dxy, want, dtype, float(np.abs(want).max()) * 10)
    # Singular matrices: det 0, sign 0, logabsdet -inf.
    s = np.zeros((2, 3, 3), dtype=dtype)
    s[1] = np.outer([1, 2, 3], [1, 1, 1])
    assert np.all(to_np(ax.linalg.det(ax.asarray(s))) == 0)
    sign, logabs = ax.linalg.slogdet(ax.asarray(s))
    assert np.all(to_np(sign) == 0) and np.all(to_np(logabs) == -np.inf)
    # The empty matrix has determinant 1.
    assert complex(ax.linalg.det(ax.zeros((0, 0), dtype=getattr(ax, dtype)))) == 1


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_slogdet_beyond_the_float_range(dtype: str) -> None:
    # det = 1e4**100 overflows float64; slogdet still gives its logarithm.
    x = np.diag(np.full(100, 1e4)).astype(dtype)
    x[[0, 1]] = x[[1, 0]]
    sign, logabs = ax.linalg.slogdet(ax.asarray(x))
    assert float(sign) == -1.0
    near(float(logabs), 100 * math.log(1e4), dtype)
    assert float(ax.linalg.det(ax.asarray(x))) == -math.inf


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(FLOATS), m=st.integers(1, 7),
       n=st.integers(1, 7), b=batch, mode=st.sampled_from(["reduced", "complete"]))
def test_qr_rebuilds_with_orthonormal_q(seed: int, dtype: str, m: int, n: int, b: tuple,
                                        mode: str) -> None:
    x = random(rng_of(seed), (*b, m, n), dtype)
    q, r = ax.linalg.qr(ax.asarray(x), mode=mode)
    k = min(m, n) if mode == "reduced" else m
    assert q.shape == (*b, m, k) and r.shape == (*b, k, n)
    qn, rn = wide(q), wide(r)
    near(qn @ rn, wide(x), dtype, np.abs(x).max())
    near(h(qn) @ qn, np.eye(k), dtype)
    assert np.all(np.tril(rn, -1) == 0)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(FLOATS), m=st.integers(1, 7),
       n=st.integers(1, 7), b=batch, full=st.booleans())
def test_svd_rebuilds_with_orthonormal_factors(seed: int, dtype: str, m: int, n: int, b: tuple,
                                               full: bool) -> None:
    x = random(rng_of(seed), (*b, m, n), dtype)
    u, s, vh = ax.linalg.svd(ax.asarray(x), full_matrices=full)
    k = min(m, n)
    assert u.shape == (*b, m, m if full else k) and vh.shape == (*b, n if full else k, n)
    un, sn, vhn = wide(u), wide(s), wide(vh)
    assert s.dtype == np.abs(x).dtype
    assert np.all(sn >= 0) and np.all(np.diff(sn, axis=-1) <= 0)
    near((un[..., :k] * sn[..., None, :]) @ vhn[..., :k, :], wide(x), dtype, np.abs(x).max())
    near(h(un) @ un, np.eye(un.shape[-1]), dtype)
    near(vhn @ h(vhn), np.eye(vhn.shape[-2]), dtype)
    near(wide(ax.linalg.svdvals(ax.asarray(x))), sn, dtype, sn.max(initial=1))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(FLOATS), n=st.integers(1, 7),
       b=batch)
def test_eigh_and_cholesky_rebuild(seed: int, dtype: str, n: int, b: tuple) -> None:
    rng = rng_of(seed)
    y = random(rng, (*b, n, n), dtype)
    sym = (y + h(y)).astype(dtype)
    w, v = ax.linalg.eigh(ax.asarray(sym))
    wn, vn = wide(w), wide(v)
    assert w.dtype == np.abs(sym).dtype and np.all(np.diff(wn, axis=-1) >= 0)
    scale = np.abs(sym).max() * n
    near(wide(sym) @ vn, vn * wn[..., None, :], dtype, scale)
    near(h(vn) @ vn, np.eye(n), dtype)
    near(wide(ax.linalg.eigvalsh(ax.asarray(sym))), wn, dtype, scale)
    # Positive definite: y y^H + n I.
    spd = (y @ h(y) + n * np.eye(n)).astype(dtype)
    low = wide(ax.linalg.cholesky(ax.asarray(spd)))
    up = wide(ax.linalg.cholesky(ax.asarray(spd), upper=True))
    assert np.all(np.triu(low, 1) == 0) and np.all(np.tril(up, -1) == 0)
    diag = np.diagonal(low, axis1=-2, axis2=-1)
    assert np.all(diag.real > 0) and np.all(diag.imag == 0)
    scale = np.abs(spd).max()
    near(low @ h(low), wide(spd), dtype, scale)
    near(h(up) @ up, wide(spd), dtype, scale)


def low_rank(rng: np.random.Generator, m: int, n: int, r: int, dtype: str) -> np.ndarray:
    """An m x n matrix of rank r, its nonzero singular values between 1 and 10."""
    q1, _ = np.linalg.qr(rng.standard_normal((m, m)))
    q2, _ = np.linalg.qr(rng.standard_normal((n, n)))
    s = np.zeros((m, n))
    s[range(r), range(r)] = np.linspace(10, 1, r)
    return (q1 @ s @ q2).astype(dtype)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(FLOATS), m=st.integers(1, 7),
       n=st.integers(1, 7), data=st.data())
def test_pinv_meets_the_penrose_conditions_and_rank_counts(seed: int, dtype: str, m: int,
                                                           n: int, data: st.DataObject) -> None:
    r = data.draw(st.integers(0, min(m, n)), label="rank")
    rng = rng_of(seed)
    x = low_rank(rng, m, n, r, dtype)
    if dtype.startswith("complex"):
        x = (x * np.exp(1j * rng.uniform(0, 6, (m, 1)))).astype(dtype)
    p = ax.linalg.pinv(ax.asarray(x))
    assert p.shape == (n, m) and p.dtype == x.dtype
    a, pn = wide(x), wide(p)
    near(a @ pn @ a, a, dtype, 10)
    near(pn @ a @ pn, pn, dtype, 1)
    near(h(a @ pn), a @ pn, dtype)
    near(h(pn @ a), pn @ a, dtype)
    rank = ax.linalg.matrix_rank(ax.asarray(x))
    assert rank.dtype == ax.int64 and int(rank) == r
    # A stack of them, and a cutoff above the smallest nonzero singular value (1 of 10).
    stack = np.stack([x, np.zeros_like(x)])
    assert to_np(ax.linalg.matrix_rank(ax.asarray(stack))).tolist() == [r, 0]
    above_half = sum(v > 5 for v in np.linspace(10, 1, r))
    assert int(ax.linalg.matrix_rank(ax.asarray(x), rtol=0.5)) == above_half

@pytest.mark.parametrize("dtype", FLOATS)
def test_rank_and_pinv_cutoffs(dtype: str) -> None:
    # Singular values 1, 1e-3 and 1e-6 (float32 has eps 1.2e-7, float64 2.2e-16).
    x = np.diag([1.0, 1e-3, 1e-6]).astype(dtype)
    a = ax.asarray(x)
    assert int(ax.linalg.matrix_rank(a)) == 3
    assert int(ax.linalg.matrix_rank(a, rtol=1e-4)) == 2
    assert int(ax.linalg.matrix_rank(a, rtol=1e-2)) == 1
    # rtol as an array broadcasts against the stack.
    stack = ax.asarray(np.stack([x, x]))
    rtol = ax.asarray(to_np([1e-4, 1e-2], dtype=np.abs(x).dtype))
    assert to_np(ax.linalg.matrix_rank(stack, rtol=rtol)).tolist() == [2, 1]
    p = wide(ax.linalg.pinv(a, rtol=1e-4))
    near(p, np.diag([1.0, 1e3, 0.0]), dtype, 1e3)
    p = wide(ax.linalg.pinv(stack, rtol=rtol))
    near(p[1], np.diag([1.0, 0.0, 0.0]), dtype)
    assert ax.linalg.pinv(ax.zeros((0, 3), dtype=a.dtype)).shape == (3, 0)


def p_norm(values: list[complex], p: float) -> float:
    """The vector p-norm by its definition, in Python floats."""
    mags = [abs(complex(v)) for v in values]
    if p == math.inf:
        return max(mags)
    if p == -math.inf:
        return min(mags)
    if p == 0:
        return float(sum(m != 0 for m in mags))
    if p < 0 and 0 in mags:
        return 0.0
    return math.fsum(m ** p for m in mags) ** (1 / p)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(FLOATS), b=batch,
       n=st.integers(1, 6), ord=st.sampled_from([2, 1, 0, -1, -2, 3.5, math.inf, -math.inf]),
       keepdims=st.booleans())
def test_vector_norm_is_its_definition(seed: int, dtype: str, b: tuple, n: int, ord: float,
                                       keepdims: bool) -> None:
    x = random(rng_of(seed), (*b, n), dtype)
    x[..., 0] = 0  # a zero in every vector: ord 0 counts, negative orders give 0
    got = ax.linalg.vector_norm(ax.asarray(x), axis=-1, keepdims=keepdims, ord=ord)
    assert got.dtype == np.abs(x).dtype
    assert got.shape == ((*b, 1) if keepdims else b)
    flat = x.reshape(-1, n)
    want = to_np([p_norm(list(row), ord) for row in flat]).reshape(got.shape)
    near(wide(got), want, dtype, float(np.abs(want).max(initial=1)))
    whole = ax.linalg.vector_norm(ax.asarray(x), ord=ord)
    near(float(whole), p_norm(list(x.ravel()), ord), dtype, float(np.abs(x).max()) * x.size)


@pytest.mark.parametrize(("dtype", "big", "tiny"), [("float64", 1e300, 1e-300),
                                                    ("float32", 1e30, 1e-30),
                                                    ("complex128", 1e300, 1e-300)])
def test_two_norm_does_not_overflow_or_underflow(dtype: str, big: float, tiny: float) -> None:
    for v in (big, tiny):
        x = ax.asarray(np.full((3, 4), v, dtype=dtype))
        got = to_np(ax.linalg.vector_norm(x, axis=-1))
        np.testing.assert_allclose(got, 2 * v, rtol=TOL[dtype])
        np.testing.assert_allclose(float(ax.linalg.vector_norm(x)), math.sqrt(12) * v,
                                   rtol=TOL[dtype])
        np.testing.assert_allclose(float(ax.linalg.matrix_norm(x)), math.sqrt(12) * v,
                                   rtol=TOL[dtype])
    # One huge vector among ordinary ones; infinities and NaNs pass through.
    x = to_np([[3.0, 4.0], [big, big], [np.inf, 1.0], [np.nan, 1.0], [0.0, 0.0]],
                   dtype=dtype)
    got = to_np(ax.linalg.vector_norm(ax.asarray(x), axis=1))
    np.testing.assert_allclose(got[:2], [5.0, math.sqrt(2) * big], rtol=TOL[dtype])
    assert got[2] == np.inf and np.isnan(got[3]) and got[4] == 0


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(FLOATS), m=st.integers(1, 6),
       n=st.integers(1, 6), b=batch, keepdims=st.booleans())
def test_matrix_norms_are_their_definitions(seed: int, dtype: str, m: int, n: int, b: tuple,
                                            keepdims: bool) -> None:
    x = random(rng_of(seed), (*b, m, n), dtype)
    a = ax.asarray(x)
    mag = np.abs(wide(x))
    # Singular values as the roots of the eigenvalues of x^H x (an oracle apart from svd).
    gram = h(wide(x)) @ wide(x)
    sing = np.sqrt(np.clip(np.linalg.eigvalsh(gram), 0, None))[..., ::-1][..., :min(m, n)]
    want = {
        "fro": np.sqrt((mag ** 2).sum(axis=(-2, -1))),
        "nuc": sing.sum(axis=-1),
        1: mag.sum(axis=-2).max(axis=-1), -1: mag.sum(axis=-2).min(axis=-1),
        math.inf: mag.sum(axis=-1).max(axis=-1), -math.inf: mag.sum(axis=-1).min(axis=-1),
        2: sing[..., 0], -2: sing[..., -1],
    }
    for ord, value in want.items():
        got = ax.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
        assert got.dtype == np.abs(x).dtype
        assert got.shape == ((*b, 1, 1) if keepdims else b)
        # The smallest singular value from eigvalsh is only good to sqrt(eps) relative to the
        # largest.
        slack = 1e3 if ord == -2 and dtype in ("float64", "complex128") else 1.0
        np.testing.assert_allclose(wide(got).reshape(b), value,
                                   rtol=TOL[dtype] * slack,
                                   atol=TOL[dtype] * slack * float(mag.max()) * (m + n))
    with pytest.raises(ValueError):
        ax.linalg.matrix_norm(a, ord=3)
    with pytest.raises(ValueError):
        ax.linalg.vector_norm(a, ord="fro")


@pytest.mark.parametrize("dtype", FLOATS)
def test_matrix_power_is_repeated_products(dtype: str) -> None:
    x = well_conditioned(rng_of(2), (2, 4, 4), dtype) / 12
    a = ax.asarray(x)
    p = wide(x)
    want = np.broadcast_to(np.eye(4), x.shape)
    for k in range(6):
        near(wide(ax.linalg.matrix_power(a, k)), want, dtype, np.abs(want).max())
        want = want @ p
    inv = wide(ax.linalg.matrix_power(a, -3))
    near(inv @ p @ p @ p, np.broadcast_to(np.eye(4), x.shape), dtype, 10)


@pytest.mark.parametrize("fn", ["inv", "solve", "cholesky", "matrix_power"])
def test_linalg_error_is_arrayx_own_and_a_value_error(fn: str) -> None:
    singular = ax.asarray([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]])
    calls = {
        "inv": lambda: ax.linalg.inv(singular),
        "solve": lambda: ax.linalg.solve(singular, ax.ones((2,))),
        "cholesky": lambda: ax.linalg.cholesky(-ax.eye(3)),
        "matrix_power": lambda: ax.linalg.matrix_power(singular[0], -1),
    }
    with pytest.raises(ax.linalg.LinAlgError) as info:
        calls[fn]()
    assert isinstance(info.value, ValueError)
    assert type(info.value).__module__ == "arrayx.linalg"
    assert not isinstance(info.value, np.linalg.LinAlgError)


def test_lapack_calls_from_several_python_threads() -> None:
    # LAPACK runs without the GIL: four Python threads factor shared inputs at once, and each
    # result is the one computed alone (to rounding: BLAS may split work differently).
    import threading

    rng = rng_of(9)
    x = well_conditioned(rng, (3, 40, 40), "float64")
    spd = x @ np.swapaxes(x, -1, -2)
    a, s = ax.asarray(x), ax.asarray(spd)
    calls = {
        "inv": lambda: ax.linalg.inv(a), "det": lambda: ax.linalg.det(a),
        "solve": lambda: ax.linalg.solve(a, a), "svdvals": lambda: ax.linalg.svdvals(a),
        "qr": lambda: ax.linalg.qr(a).R, "eigvalsh": lambda: ax.linalg.eigvalsh(s),
        "cholesky": lambda: ax.linalg.cholesky(s),
    }
    want = {name: to_np(f()).copy() for name, f in calls.items()}
    errors: list[str] = []

    def work(offset: int) -> None:
        names = sorted(calls)
        for i in range(40):
            name = names[(i + offset) % len(names)]
            got = to_np(calls[name]())
            if not np.allclose(got, want[name], rtol=1e-12, atol=1e-12 * np.abs(want[name]).max()):
                errors.append(name)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0), (2, 3, 0), (2, 0, 4), (0, 2, 2)])
def test_empty_matrices_factor_as_numpy_does(shape: tuple) -> None:
    # Empty factors are shapes and identity matrices: compare them with NumPy's.
    x = np.zeros(shape)
    a = ax.asarray(x)
    for full in (True, False):
        for got, want in zip(ax.linalg.svd(a, full_matrices=full),
                             np.linalg.svd(x, full_matrices=full), strict=True):
            np.testing.assert_array_equal(to_np(got), want)
            assert to_np(got).dtype == want.dtype
    np.testing.assert_array_equal(to_np(ax.linalg.svdvals(a)), np.linalg.svdvals(x))
    for mode in ("reduced", "complete"):
        for got, want in zip(ax.linalg.qr(a, mode=mode), np.linalg.qr(x, mode=mode),
                             strict=True):
            np.testing.assert_array_equal(to_np(got), want)
    if shape[-1] == shape[-2]:
        for fn in ("inv", "det", "cholesky", "eigvalsh", "eigvals"):
            assert getattr(ax.linalg, fn)(a).shape == getattr(np.linalg, fn)(x).shape


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("step", [1, 3, -2])
def test_long_dot_products(dtype: str, step: int) -> None:
    # Row times column above the BLAS threshold: a BLAS dot on the strided vectors, one per
    # batch, checked against the sum of products written out (math.fsum, exact rounding).
    rng = rng_of(4)
    x = random(rng, (3, 2, 5000 * abs(step)), dtype)[..., ::step]
    y = random(rng, (2, 5000 * abs(step)), dtype)[..., ::step]
    got = to_np(ax.vecdot(ax.asarray(x), ax.asarray(y)))
    assert got.shape == (3, 2) and got.dtype == x.dtype
    xc = x.astype(np.complex128)
    for i, j in itertools.product(range(3), range(2)):
        prods = np.conj(xc[i, j]) * y[j].astype(np.complex128)
        want = complex(math.fsum(prods.real), math.fsum(prods.imag))
        near(complex(got[i, j]), want, dtype, float(np.abs(prods).sum()))
    one = ax.asarray(x[0, 0]) @ ax.asarray(y[0])
    assert one.shape == ()
    prods = xc[0, 0] * y[0].astype(np.complex128)
    near(complex(one), complex(math.fsum(prods.real), math.fsum(prods.imag)), dtype,
         float(np.abs(prods).sum()))

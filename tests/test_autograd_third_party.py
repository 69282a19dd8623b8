"""arrayx.autograd through other libraries' array-API code: SciPy (``SCIPY_ARRAY_API=1``,
set in ``conftest.py``), scikit-learn (``array_api_dispatch``) and array-api-extra.

Each function ``f`` is differentiated as a user would: the loss ``sum(W * f(x))`` for a fixed
random ``W``, its gradient by ``grad`` against central differences of the same code on plain
arrays. Routines whose code converts to NumPy must refuse the tracer clearly, and functions
that return Python floats must warn that the gradient is lost.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable

import numpy as np
import pytest

import arrayx
from arrayx.autograd import GradientLostWarning, grad

sp = pytest.importorskip("scipy.special")
stats = pytest.importorskip("scipy.stats")
signal = pytest.importorskip("scipy.signal")
xpx = pytest.importorskip("array_api_extra")

RNG = np.random.default_rng(0)
VECTOR = RNG.uniform(0.2, 2.0, 7)
MATRIX = RNG.uniform(0.2, 2.0, (4, 5))


def _sklearn():
    sklearn = pytest.importorskip("sklearn")
    from sklearn import metrics, preprocessing
    from sklearn.utils import extmath
    return sklearn, metrics, preprocessing, extmath


SCIPY = {
    "special.logsumexp": (lambda x: sp.logsumexp(x, axis=-1), MATRIX),
    "special.softmax": (lambda x: sp.softmax(x, axis=-1), MATRIX),
    "special.log_softmax": (lambda x: sp.log_softmax(x, axis=-1), MATRIX),
    "special.rel_entr": (lambda x: sp.rel_entr(x, x[::-1] + 0.5), VECTOR),
    "special.xlogy": (lambda x: sp.xlogy(x, x + 1), VECTOR),
    "stats.zscore": (lambda x: stats.zscore(x, axis=1), MATRIX),
    "stats.zmap": (lambda x: stats.zmap(x, x[::-1]), VECTOR),
    "stats.variation": (lambda x: stats.variation(x, axis=1), MATRIX),
    "stats.moment": (lambda x: stats.moment(x, order=3, axis=1), MATRIX),
    "stats.skew": (lambda x: stats.skew(x, axis=1), MATRIX),
    "stats.kurtosis": (lambda x: stats.kurtosis(x, axis=1), MATRIX),
    "stats.gmean": (lambda x: stats.gmean(x, axis=1), MATRIX),
    "stats.hmean": (lambda x: stats.hmean(x, axis=1), MATRIX),
    "stats.pmean": (lambda x: stats.pmean(x, 2.5, axis=1), MATRIX),
    "stats.sem": (lambda x: stats.sem(x, axis=1), MATRIX),
    "stats.tmean": (stats.tmean, VECTOR),
    "stats.tvar": (stats.tvar, VECTOR),
    "stats.differential_entropy": (stats.differential_entropy, VECTOR),
    "stats.trim_mean": (lambda x: stats.trim_mean(x, 0.2, axis=1), MATRIX),
    "stats.iqr": (lambda x: stats.iqr(x, axis=1), MATRIX),
    "stats.quantile": (lambda x: stats.quantile(x, 0.3, axis=1), MATRIX),
    "signal.fftconvolve": (lambda x: signal.fftconvolve(x, x[::-1]), VECTOR),
}
XPX = {
    "apply_where": (lambda x: xpx.apply_where(x > 1, x, lambda a: a ** 2, fill_value=0.0),
                    VECTOR),
    "at.set(copy=True)": (lambda x: xpx.at(x)[1:3].set(x[:2] ** 2, copy=True), VECTOR),
    "at.add": (lambda x: xpx.at(x, (slice(1, 3),)).add(x[:2] ** 2), VECTOR),
    "at.multiply": (lambda x: xpx.at(x * 1.0)[::2].multiply(x[1::2][:1]), VECTOR),
    "cov": (xpx.cov, MATRIX),
    "sinc": (xpx.sinc, VECTOR),
    "kron": (lambda x: xpx.kron(x, x[:2, :2]), MATRIX),
    "atleast_nd": (lambda x: xpx.atleast_nd(x, ndim=3), VECTOR),
    "create_diagonal": (xpx.create_diagonal, VECTOR),
    "pad": (lambda x: xpx.pad(x, 2), MATRIX),
    "nan_to_num": (xpx.nan_to_num, VECTOR),
}
SKLEARN = {
    "normalize(l2)": (lambda m: lambda x: m[2].normalize(x, norm="l2"), MATRIX),
    "normalize(l1)": (lambda m: lambda x: m[2].normalize(x, norm="l1"), MATRIX),
    "cosine_similarity": (lambda m: m[1].pairwise.cosine_similarity, MATRIX),
    "euclidean_distances": (
        lambda m: lambda x: m[1].pairwise.euclidean_distances(x, x[::-1] + 0.1), MATRIX),
    "rbf_kernel": (lambda m: m[1].pairwise.rbf_kernel, MATRIX),
    "polynomial_kernel": (lambda m: m[1].pairwise.polynomial_kernel, MATRIX),
    "linear_kernel": (lambda m: m[1].pairwise.linear_kernel, MATRIX),
    "softmax": (lambda m: lambda x: m[3].softmax(x * 1.0), MATRIX),
    "row_norms": (lambda m: m[3].row_norms, MATRIX),
    "MinMaxScaler": (lambda m: lambda x: m[2].MinMaxScaler().fit_transform(x), MATRIX),
    "StandardScaler": (lambda m: lambda x: m[2].StandardScaler().fit_transform(x), MATRIX),
}
# SciPy routines whose code converts its input to NumPy: the tracer refuses clearly.
SCIPY_NUMPY_ONLY = {
    "special.expit": sp.expit, "special.erf": sp.erf, "special.gammaln": sp.gammaln,
    "signal.convolve": lambda x: signal.convolve(x, x[::-1]), "signal.detrend": signal.detrend,
    "stats.entropy": stats.entropy,
}


def check(f: Callable, x0: np.ndarray, context=contextlib.nullcontext) -> None:
    """``grad`` of ``sum(W * f(x))`` against central differences of the same code."""
    def run(x):
        with context():
            return f(x)

    w = np.random.default_rng(1).uniform(-1, 1, np.shape(np.asarray(run(arrayx.asarray(
        x0.copy())))))

    def loss(t):
        ns = t.__array_namespace__()
        return ns.sum(ns.asarray(w) * run(t))

    def plain(x):
        return float(np.sum(w * np.asarray(run(arrayx.asarray(x)))))

    with warnings.catch_warnings():
        warnings.simplefilter("error", GradientLostWarning)
        got = np.asarray(grad(loss)(arrayx.asarray(x0.copy())))
    want = np.zeros_like(x0)
    step = 1e-6
    for i in np.ndindex(x0.shape):
        e = np.zeros_like(x0)
        e[i] = step
        want[i] = (plain(x0 + e) - plain(x0 - e)) / (2 * step)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8 * np.max(np.abs(want)))


@pytest.mark.parametrize("name", sorted(SCIPY))
def test_scipy(name: str) -> None:
    check(*SCIPY[name])


@pytest.mark.parametrize("name", sorted(XPX))
def test_array_api_extra(name: str) -> None:
    check(*XPX[name])


@pytest.mark.parametrize("name", sorted(SKLEARN))
def test_scikit_learn(name: str) -> None:
    modules = _sklearn()
    make, x0 = SKLEARN[name]

    def dispatch():
        return modules[0].config_context(array_api_dispatch=True)
    check(make(modules), x0, dispatch)


@pytest.mark.parametrize("name", sorted(SCIPY_NUMPY_ONLY))
def test_scipy_code_that_converts_to_numpy_refuses_the_tracer(name: str) -> None:
    # SciPy 1.17 converts these to NumPy; a later SciPy may have array-API code for them:
    # either way the gradient is never silently wrong.
    f = SCIPY_NUMPY_ONLY[name]
    try:
        grad(lambda x: x.__array_namespace__().sum(f(x)))(arrayx.asarray(VECTOR))
    except TypeError as e:
        assert "stop_gradient" in str(e)
    else:
        check(f, VECTOR)


@pytest.mark.parametrize("metric", ["mean_squared_error", "r2_score"])
def test_metrics_that_return_floats_warn(metric: str) -> None:
    sklearn, metrics, _, _ = _sklearn()

    def loss(x):
        with sklearn.config_context(array_api_dispatch=True):
            score = getattr(metrics, metric)(x, x[::-1] * 0.5)
        return x.__array_namespace__().sum(x * score)

    with pytest.warns(GradientLostWarning, match="float"):
        grad(loss)(arrayx.asarray(MATRIX))

"""Gradients at the points where a rule's formula divides by zero or leaves its branch: each
against PyTorch's autograd (and, where the function is differentiable there, against central
differences), found wrong or failing by a review (NaN from 0 * inf, a wrong complex branch, a
Python-scalar operand the rule could not take)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import to_np
from needs_torch import import_torch

import arrayx as ax
from arrayx.autograd import grad
from arrayx.autograd import numpy as tx

torch = import_torch()
torch.set_default_dtype(torch.float64)


def _both(ours, theirs, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """arrayx's gradient of the scalar ``ours(x)`` and PyTorch's of ``theirs(x)``."""
    got = to_np(grad(ours)(ax.asarray(x)))
    t = torch.tensor(x, requires_grad=True)
    theirs(t).backward()
    return got, t.grad.numpy()


W = np.array([0.3, -1.2, 0.7, 2.0, -0.4])
WA, WR = ax.asarray(W), ax.asarray(W[::-1].copy())


def test_complex_acosh_takes_the_principal_branch():
    rng = np.random.default_rng(4)
    z = rng.standard_normal(5) + 1j * rng.standard_normal(5)
    got, want = _both(lambda a: tx.sum(tx.real(tx.acosh(a)) * WA + tx.imag(tx.acosh(a)) * WR),
                      lambda t: (torch.acosh(t).real * torch.tensor(W)
                                 + torch.acosh(t).imag * torch.tensor(W[::-1].copy())).sum(), z)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_complex_abs_at_zero():
    z = np.array([0j, 1 + 1j, -2j, 0j, 3 + 0j])
    got, want = _both(lambda a: tx.sum(tx.abs(a) * WA), lambda t: (t.abs() * torch.tensor(W)).sum(),
                      z)
    np.testing.assert_allclose(got, want, atol=1e-15)


def test_pow_with_an_array_exponent_of_zero_at_zero():
    x = np.array([0.0, 1.5, 0.0, 2.0, 0.5])
    y = ax.asarray([0.0, 2.0, 0.0, 3.0, 1.0])
    got, want = _both(lambda a: tx.sum(tx.pow(a, y) * WA),
                      lambda t: (torch.pow(t, torch.tensor(to_np(y))) * torch.tensor(W)).sum(),
                      x)
    np.testing.assert_allclose(got, want, atol=1e-15)


@pytest.mark.parametrize("base", [2.0, 0.5, 3])
def test_pow_of_a_python_base(base):
    x = np.array([0.1, -1.0, 2.0, 0.0, 1.5])
    got, want = _both(lambda a: tx.sum(base ** a * WA),
                      lambda t: (base ** t * torch.tensor(W)).sum(), x)
    np.testing.assert_allclose(got, want, rtol=1e-13)


@pytest.mark.parametrize("zero", [0, 0.0])
def test_divide_by_a_python_zero(zero):
    x = np.array([1.0, -2.0, 0.5, 3.0, 1.0])
    with np.errstate(all="ignore"):
        got, want = _both(lambda a: tx.sum(a / zero * WA),
                          lambda t: (t / zero * torch.tensor(W)).sum(), x)
    np.testing.assert_array_equal(got, want)


def test_vector_norm_below_order_two_at_zero_entries():
    x = np.array([0.0, 1.0, -2.0, 0.0, 0.5])
    got, want = _both(lambda a: tx.linalg.vector_norm(a, ord=1.5),
                      lambda t: torch.linalg.vector_norm(t, ord=1.5), x)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


def test_frobenius_norm_of_the_zero_matrix():
    x = np.zeros((3, 2))
    got, want = _both(lambda a: tx.linalg.matrix_norm(a), lambda t: torch.linalg.matrix_norm(t), x)
    np.testing.assert_array_equal(got, want)


def test_clip_with_min_above_max_gives_max_the_gradient():
    x = np.array([-1.0, 1.0, 0.0, 2.0, -2.0])
    lo, hi = np.full(5, 1.0), np.full(5, -1.0)
    g = grad(lambda a, b, c: tx.sum(tx.clip(a, b, c) * WA), argnums=(0, 1, 2))(
        ax.asarray(x), ax.asarray(lo), ax.asarray(hi))
    ts = [torch.tensor(v, requires_grad=True) for v in (x, lo, hi)]
    (torch.clamp(ts[0], ts[1], ts[2]) * torch.tensor(W)).sum().backward()
    for got, t in zip(g, ts, strict=True):
        np.testing.assert_array_equal(to_np(got), t.grad.numpy())


@pytest.mark.parametrize(("shape", "axis", "correction"), [((1,), None, 1), ((3, 2), 1, 2)])
def test_var_without_a_positive_divisor_has_a_nan_gradient(shape, axis, correction):
    # The forward is NaN there (the standard's rule; PyTorch gives inf where the squared
    # deviations are not 0); its gradient is NaN too, where the rule divided by zero in Python.
    x = ax.asarray(np.arange(math.prod(shape), dtype=float).reshape(shape) + 1.0)
    f = lambda a: tx.sum(tx.var(a, axis=axis, correction=correction))  # noqa: E731
    assert np.isnan(float(ax.sum(ax.var(x, axis=axis, correction=correction))))
    assert np.isnan(to_np(grad(f)(x))).all()


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_second_derivatives_through_maximum_and_minimum(name):
    # The rule's masks were made when the node was recorded, in the inner trace, and a nested
    # transformation used them after that trace ended (RuntimeError).
    from arrayx.autograd import hessian

    x = np.array([1.0, -2.0, 3.0, 0.5, -0.1])
    f = lambda a: tx.sum(getattr(tx, name)(a, 0.0) ** 3)  # noqa: E731
    got = to_np(hessian(f)(ax.asarray(x)))
    want = torch.autograd.functional.hessian(
        lambda t: (getattr(torch, name)(t, torch.zeros(5)) ** 3).sum(), torch.tensor(x))
    np.testing.assert_allclose(got, want.numpy(), atol=1e-12)
    twice = grad(lambda a: tx.sum(grad(f)(a)))(ax.asarray(x))
    np.testing.assert_allclose(to_np(twice), want.numpy().sum(axis=0), atol=1e-12)


@pytest.mark.parametrize("with_logabs", [False, True])
def test_complex_slogdet_sign_has_a_gradient(with_logabs):
    # The rule read logabsdet's cotangent alone: a loss on a complex sign got zeros.
    rng = np.random.default_rng(6)
    a = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    w = 0.4 - 0.3j

    def ours(m):
        sign, logabs = tx.linalg.slogdet(m)
        return tx.real(sign * ax.asarray(w)) + (logabs if with_logabs else 0.0)

    def theirs(t):
        sign, logabs = torch.linalg.slogdet(t)
        return (sign * torch.tensor(w)).real + (logabs if with_logabs else 0.0)
    got, want = _both(ours, theirs, a)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("x", [[0.0, 2.0, 3.0, 0.5], [0.0, 0.0, 3.0, 0.5], [1.0, 2.0, 3.0, 0.5]])
def test_hessian_of_prod_where_the_input_has_zeros(x):
    # The rule divided the product by each element and set the zeros' terms apart with masks:
    # its own derivative was 0 where it should be the product of the other elements.
    from arrayx.autograd import hessian

    got = to_np(hessian(lambda a: tx.prod(a))(ax.asarray(x)))
    want = torch.autograd.functional.hessian(lambda t: torch.prod(t), torch.tensor(x))
    np.testing.assert_allclose(got, want.numpy(), atol=1e-15)


@pytest.mark.parametrize(("shape", "axis", "keepdims"), [
    ((3, 4, 5), (0, 2), False), ((3, 4, 5), 1, True), ((3, 4, 5), None, False),
    ((3, 0, 2), 1, False), ((), None, False)])
def test_prod_gradient_over_axes_with_zeros(shape, axis, keepdims):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape)
    x.reshape(-1)[::3] = 0.0
    w = rng.standard_normal(np.prod(x, axis=axis, keepdims=keepdims).shape)
    dims = range(x.ndim) if axis is None else ([axis] if isinstance(axis, int) else axis)

    def theirs(t):
        for d in sorted(dims, reverse=True):
            t = torch.prod(t, dim=d, keepdim=keepdims)
        return (t * torch.tensor(w)).sum()
    got, want = _both(lambda a: tx.sum(tx.prod(a, axis=axis, keepdims=keepdims) * ax.asarray(w)),
                      theirs, x)
    np.testing.assert_allclose(got, want, atol=1e-14)


def _cofactors(a: np.ndarray) -> np.ndarray:
    """The matrix of ``a``'s cofactors, from NumPy's determinants of its minors."""
    n = a.shape[-1]
    out = np.empty_like(a)
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(a, i, axis=0), j, axis=1)
            out[i, j] = (-1) ** (i + j) * np.linalg.det(minor)
    return out


@pytest.mark.parametrize("a", [
    np.array([[1.0, 2.0], [2.0, 4.0]]), np.arange(1.0, 10.0).reshape(3, 3),
    np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 2.0]]), np.zeros((3, 3)),
    np.array([[1 + 1j, 2.0], [2 + 2j, 4.0]]), np.array([[0.5, -1.0], [3.0, 2.0]])])
def test_det_gradient_is_the_cofactor_matrix_also_where_singular(a):
    # The rule was conj(det) * inv(x)^H, and inv of a singular matrix raised LinAlgError.
    # PyTorch returns zeros at an exactly singular matrix (0 * inv through its LU), so the
    # oracle is the cofactor matrix: det's derivative, conjugated for a complex input.
    got = to_np(grad(lambda m: tx.real(tx.linalg.det(m)))(ax.asarray(a)))
    np.testing.assert_allclose(got, np.conj(_cofactors(a)), atol=1e-13)

"""arrayx.autograd's transformations, tracers, mutation rules, numerics and memory; and
namespace-generic models (written only against ``xp``) against PyTorch."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from conftest import to_np
from hypothesis import given, settings
from hypothesis import strategies as st
from needs_torch import import_torch

import arrayx
from arrayx.autograd import (
    Tracer,
    checkpoint,
    custom_jvp,
    custom_vjp,
    grad,
    hessian,
    jacfwd,
    jacobian,
    jvp,
    linearize,
    stop_gradient,
    value_and_grad,
    vjp,
    vmap,
)
from arrayx.autograd import numpy as traced
from arrayx.autograd._tracer import Node


def ns(x):
    """The namespace of ``x``, as library code finds it."""
    return x.__array_namespace__()


def test_array_api_compat_finds_the_traced_namespace():
    compat = pytest.importorskip("array_api_compat")

    def f(x):
        xp = compat.array_namespace(x)
        assert xp is traced
        return xp.sum(x * x)
    np.testing.assert_array_equal(to_np(grad(f)(arrayx.asarray([1.0, 2.0]))), [2.0, 4.0])


def central(f, x: np.ndarray, step: float = 1e-6) -> np.ndarray:
    """The gradient of a real scalar function of a float64 array by central differences."""
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = step
        out[i] = (float(f(arrayx.asarray(x + e))) - float(f(arrayx.asarray(x - e)))) / (2 * step)
    return out


def cubic(x):
    xp = ns(x)
    return xp.sum(x ** 3 + xp.sin(x) * x)


# --- transformations ----------------------------------------------------------------------

@settings(max_examples=10, deadline=None)
@given(st.lists(st.floats(-2, 2), min_size=1, max_size=4))
def test_grad_matches_central_differences(values):
    x = to_np(values)
    np.testing.assert_allclose(to_np(grad(cubic)(arrayx.asarray(x))), central(cubic, x),
                               rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(("scalar", "power"), [(2.0, 2), (-0.5, 1), (3, 2.0), (1.5 - 2j, 2)])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_python_scalar_operands_take_the_array_rules(scalar, power, dtype):
    # Divisions by and powers with a Python scalar have shortcuts of their own (no mask, no
    # pow for the exponents 1 and 2); their gradients are those of the same scalars as 0-d
    # arrays (the general rules, checked against PyTorch).
    if isinstance(scalar, complex) and dtype == "float64":
        pytest.skip("a complex scalar makes a real array complex")
    rng = np.random.default_rng(4)
    x = rng.standard_normal(5) + (1j * rng.standard_normal(5) if dtype == "complex128" else 0)
    w = arrayx.asarray(rng.standard_normal(5))

    def loss(x, c, p):
        xp = ns(x)
        y = x / c + x ** p
        return xp.sum(xp.real(y * xp.conj(y + x)) * w)
    got = grad(loss)(arrayx.asarray(x), scalar, power)
    want = grad(loss)(arrayx.asarray(x), arrayx.asarray(scalar, dtype=dtype),
                      arrayx.asarray(power, dtype=dtype))
    np.testing.assert_allclose(to_np(got), to_np(want), rtol=1e-13)


def test_value_and_grad_argnums_and_aux():
    def f(a, b, c):
        xp = ns(b)
        return xp.sum(a * b) + c, {"ab": a * b}

    a, b = arrayx.asarray([1.0, 2.0]), arrayx.asarray([3.0, 4.0])
    (value, aux), (ga, gb) = value_and_grad(f, argnums=(0, 1), has_aux=True)(a, b, 1.0)
    assert float(value) == 12.0
    assert isinstance(aux["ab"], arrayx.Array)
    np.testing.assert_array_equal(to_np(ga), [3.0, 4.0])
    np.testing.assert_array_equal(to_np(gb), [1.0, 2.0])
    g, aux = grad(f, argnums=1, has_aux=True)(a, b, 1.0)
    np.testing.assert_array_equal(to_np(g), [1.0, 2.0])


def test_gradient_of_an_unused_input_is_zeros():
    g = grad(lambda a, b: ns(a).sum(a * 2.0), argnums=(0, 1))(arrayx.ones(2), arrayx.ones(3))
    np.testing.assert_array_equal(to_np(g[1]), np.zeros(3))


def test_vjp_and_jacobian():
    x = to_np([0.5, -1.0, 2.0])
    out, back = vjp(lambda t: ns(t).exp(t) * t, arrayx.asarray(x))
    (g,) = back(arrayx.ones(3))
    np.testing.assert_allclose(to_np(g), np.exp(x) * (1 + x))
    jac = jacobian(lambda t: ns(t).cumulative_sum(t * t))(arrayx.asarray(x))
    np.testing.assert_allclose(to_np(jac), np.tril(np.ones((3, 3))) * 2 * x)


def test_nested_grad_and_hessian():
    x = to_np([0.3, -0.7])
    second = grad(lambda t: ns(t).sum(grad(cubic)(t)))(arrayx.asarray(x))
    np.testing.assert_allclose(to_np(second), 6 * x + 2 * np.cos(x) - x * np.sin(x))
    h = hessian(cubic)(arrayx.asarray(x))
    np.testing.assert_allclose(to_np(h), np.diag(6 * x + 2 * np.cos(x) - x * np.sin(x)))
    third = grad(grad(grad(lambda t: t ** 4)))(arrayx.asarray(2.0))
    assert float(third) == 48.0


def test_pytree_arguments_and_results():
    def loss(params, x):
        xp = ns(params["w"])
        h = xp.tanh(x @ params["w"] + params["b"])
        return xp.sum(h * params["scale"][0]) + xp.sum(params["scale"][1] * x)

    w = to_np([[0.5, -1.0], [0.25, 2.0]])
    params = {"w": arrayx.asarray(w), "b": arrayx.asarray([0.1, -0.2]),
              "scale": (arrayx.asarray(2.0), arrayx.asarray([1.0, 3.0]))}
    x = arrayx.asarray([[1.0, -0.5]])
    g = grad(loss)(params, x)
    assert sorted(g) == ["b", "scale", "w"] and isinstance(g["scale"], tuple)
    flat = np.concatenate([w.ravel(), [0.1, -0.2, 2.0, 1.0, 3.0]])

    def flat_loss(v):
        v = to_np(v)
        p = {"w": arrayx.asarray(v[:4].reshape(2, 2)), "b": arrayx.asarray(v[4:6]),
             "scale": (arrayx.asarray(v[6]), arrayx.asarray(v[7:]))}
        return loss(p, x)
    want = central(flat_loss, flat)
    got = np.concatenate([to_np(g["w"]).ravel(), to_np(g["b"]),
                          [float(g["scale"][0])], to_np(g["scale"][1])])
    np.testing.assert_allclose(got, want, rtol=1e-6)
    # vjp of a function with a tuple result, and jacobian of one.
    a = arrayx.asarray([1.0, 2.0])
    out, back = vjp(lambda t: (t * t, ns(t).sum(t)), a)
    assert isinstance(out, tuple)
    (ga,) = back((arrayx.ones(2), arrayx.asarray(10.0)))
    np.testing.assert_array_equal(to_np(ga), [12.0, 14.0])
    with pytest.raises(ValueError, match="structure"):
        back([arrayx.ones(2), arrayx.asarray(1.0)])
    jac = jacobian(lambda t: {"sq": t * t, "sum": ns(t).sum(t)})(a)
    np.testing.assert_array_equal(to_np(jac["sq"]), np.diag([2.0, 4.0]))
    np.testing.assert_array_equal(to_np(jac["sum"]), [1.0, 1.0])


def test_forward_mode_agrees_with_reverse_mode():
    def f(x, y):
        xp = traced  # x or y may be a plain array
        return xp.stack([xp.sum(xp.sin(x) * y), xp.prod(x) - y[0] ** 2, xp.exp(x[1] / y[1])])

    x = arrayx.asarray([0.3, -1.2, 0.7])
    y = arrayx.asarray([2.0, 0.5, 1.5])
    for num in (0, 1, (0, 1), (1, 1)):
        forward, reverse = jacfwd(f, num)(x, y), jacobian(f, num)(x, y)
        for a, b in zip(forward if isinstance(num, tuple) else (forward,),
                        reverse if isinstance(num, tuple) else (reverse,), strict=True):
            np.testing.assert_allclose(to_np(a), to_np(b), rtol=1e-12, atol=1e-14)
    # One linearization, many tangents; a tangent of the wrong shape is refused.
    out, jvp_fn = linearize(f, x, y)
    np.testing.assert_array_equal(to_np(out), to_np(f(x, y)))
    tx, ty = arrayx.asarray([1.0, 0.0, 0.0]), arrayx.zeros(3)
    np.testing.assert_allclose(to_np(jvp_fn(tx, ty)), to_np(jacobian(f)(x, y))[:, 0])
    with pytest.raises(ValueError, match="shape"):
        jvp_fn(arrayx.ones(2), ty)
    with pytest.raises(ValueError, match="tangents"):
        jvp(f, (x, y), (tx,))
    # Complex: the derivative along a complex direction of a holomorphic function.
    z = arrayx.asarray([1.0 + 2.0j])
    _, t = jvp(lambda v: v * v, (z,), (arrayx.asarray([1.0j]),))
    np.testing.assert_allclose(to_np(t), [2j * (1 + 2j)])


def test_hessian_of_a_function_of_a_matrix():
    def f(a):
        xp = ns(a)
        return xp.sum(xp.linalg.inv(a) ** 2) + xp.linalg.det(a)

    a = to_np([[2.0, 0.5], [0.3, 1.5]])
    h = to_np(hessian(f)(arrayx.asarray(a)))
    eps = 1e-5
    want = np.zeros((2, 2, 2, 2))
    for i in np.ndindex(2, 2):
        e = np.zeros((2, 2))
        e[i] = eps
        plus = to_np(grad(f)(arrayx.asarray(a + e)))
        minus = to_np(grad(f)(arrayx.asarray(a - e)))
        want[(slice(None), slice(None)) + i] = (plus - minus) / (2 * eps)
    np.testing.assert_allclose(h, want, rtol=1e-6, atol=1e-8)


def test_custom_jvp_serves_both_modes():
    calls = []

    @custom_jvp
    def softplus(x):
        return traced.log1p(traced.exp(x))

    def rule(primals, tangents):
        (x,), (t,) = primals, tangents
        calls.append(1)
        return softplus(x), t * (1.0 / (1.0 + traced.exp(-x)))

    softplus.defjvp(rule)
    x = arrayx.asarray([-1.0, 0.0, 30.0])
    sig = 1 / (1 + np.exp(-to_np(x)))
    np.testing.assert_allclose(to_np(grad(lambda v: ns(v).sum(softplus(v)))(x)), sig)
    assert calls
    _, t = jvp(softplus, (x,), (arrayx.asarray([1.0, 2.0, 3.0]),))
    np.testing.assert_allclose(to_np(t), sig * [1.0, 2.0, 3.0])
    second = grad(lambda v: ns(v).sum(grad(lambda w: ns(w).sum(softplus(w)))(v)))(x)
    np.testing.assert_allclose(to_np(second), sig * (1 - sig), atol=1e-12)
    with pytest.raises(TypeError, match="defjvp"):
        grad(lambda v: ns(v).sum(custom_jvp(lambda w: w)(v)))(x)


def _mlp_loss(params, x, y):
    # The namespace of all the arrays (as array_api_compat.array_namespace picks it).
    xp = max((ns(a) for a in (params["w1"], x)), key=lambda m: (m is traced) + 2 * (
        m is arrayx.autograd.batched))
    h = xp.tanh(x @ params["w1"] + params["b1"])
    out = h @ params["w2"]
    return xp.sum((out - y) ** 2) / 2


def _mlp(rng, n_in=5, n_hidden=7, n_out=3):
    return {"w1": arrayx.asarray(rng.standard_normal((n_in, n_hidden)) / 2),
            "b1": arrayx.asarray(rng.standard_normal(n_hidden) / 4),
            "w2": arrayx.asarray(rng.standard_normal((n_hidden, n_out)) / 2)}


def test_vmap_of_grad_gives_per_example_gradients():
    rng = np.random.default_rng(5)
    params = _mlp(rng)
    x = arrayx.asarray(rng.standard_normal((6, 5)))
    y = arrayx.asarray(rng.standard_normal((6, 3)))
    per_example = vmap(grad(_mlp_loss), in_axes=(None, 0, 0))(params, x, y)
    for i in range(6):
        one = grad(_mlp_loss)(params, x[i], y[i])
        for key in params:
            np.testing.assert_allclose(to_np(per_example[key][i]), to_np(one[key]),
                                       rtol=1e-12, atol=1e-14)
    # The per-example gradients sum to the batch's gradient.
    whole = grad(_mlp_loss)(params, x, y)
    for key in params:
        np.testing.assert_allclose(to_np(arrayx.sum(per_example[key], axis=0)),
                                   to_np(whole[key]), rtol=1e-12)
    # value_and_grad inside vmap, with aux, and gradients with respect to the examples.
    (values, aux), gx = vmap(value_and_grad(
        lambda x, y: (_mlp_loss(params, x, y), ns(x).sum(x)), has_aux=True))(x, y)
    for i in range(6):
        assert float(values[i]) == pytest.approx(float(_mlp_loss(params, x[i], y[i])))
        np.testing.assert_allclose(
            to_np(gx[i]), to_np(grad(_mlp_loss, argnums=1)(params, x[i], y[i])))
    np.testing.assert_allclose(to_np(aux), np.sum(to_np(x), axis=1))


@pytest.mark.parametrize("shapes", [((3,), (3,)), ((3,), (3, 4)), ((2, 3), (3,)),
                                    ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
                                    ((3,), (5, 3, 4)), ((2, 3), (5, 3, 4))])
@pytest.mark.parametrize("which", ["first", "second", "both"])
def test_vmap_of_matmul_matches_a_loop(shapes, which):
    got, want = _vmap_and_loop(lambda u, v: u @ v, shapes, which, seed=8)
    np.testing.assert_allclose(got, want, rtol=1e-13)


def _vmap_and_loop(f, shapes, which: str, seed: int):
    """``vmap(f)`` over 3 examples of the arguments (of ``shapes``) that ``which`` batches
    ("first", "second" or "both"), and ``f`` on each example, stacked, as NumPy arrays."""
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal(s) for s in shapes)
    axes = (0 if which != "second" else None, 0 if which != "first" else None)
    batches = [np.stack([x, 2 * x, -x]) if axis == 0 else x
               for x, axis in zip((a, b), axes, strict=True)]
    got = to_np(vmap(f, in_axes=axes)(*[arrayx.asarray(x) for x in batches]))
    want = np.stack([f(batches[0][i] if axes[0] == 0 else a,
                       batches[1][i] if axes[1] == 0 else b) for i in range(3)])
    assert got.shape == want.shape
    return got, want


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_per_example_gradients_of_a_row_times_a_matrix(dtype):
    # vmap(grad) of x @ W with W per example (a row times a matrix per example, one product)
    # against grad one example at a time, for both operands, complex ones included.
    rng = np.random.default_rng(9)

    def draw(*shape):
        out = rng.standard_normal(shape)
        return out + 1j * rng.standard_normal(shape) if dtype == "complex128" else out
    w, xs = arrayx.asarray(draw(4, 3)), arrayx.asarray(draw(5, 4))

    def loss(w, x):
        xp = ns(x)
        y = x @ w
        return xp.sum(xp.real(y * xp.conj(y)) + xp.real(y) * 0.5)
    gw, gx = vmap(grad(loss, argnums=(0, 1)), in_axes=(None, 0))(w, xs)
    for i in range(5):
        want_w, want_x = grad(loss, argnums=(0, 1))(w, xs[i])
        np.testing.assert_allclose(to_np(gw[i]), to_np(want_w), rtol=1e-12)
        np.testing.assert_allclose(to_np(gx[i]), to_np(want_x), rtol=1e-12)


@pytest.mark.parametrize("shapes", [((3,), (3,)), ((3,), (2, 3)), ((2, 3), (3,)),
                                    ((1, 3), (2, 1)), ((), (2, 3)), ((2, 3), ())])
@pytest.mark.parametrize("which", ["first", "second", "both"])
def test_vmap_of_a_binary_function_matches_a_loop(shapes, which):
    # Two arrays of one vmap, batched or not, of equal and of different example ranks: the
    # ranks that broadcasting already pairs take the direct path, the others are aligned.
    got, want = _vmap_and_loop(lambda u, v: u - v * 2.0, shapes, which, seed=10)
    np.testing.assert_array_equal(got, want)


def test_vmap_of_matmul_keeps_a_per_example_scalar_an_error():
    with pytest.raises((TypeError, ValueError)):
        vmap(lambda u, v: u @ v, in_axes=(0, None))(arrayx.ones(3), arrayx.ones((3, 2)))


def test_vmap_composes_and_nests():
    rng = np.random.default_rng(6)
    a = arrayx.asarray(rng.standard_normal((4, 3)))
    b = arrayx.asarray(rng.standard_normal((2, 3)))

    def f(u, v):
        xp = ns(u)
        return xp.sum(xp.sin(u) * v) + xp.linalg.vector_norm(u - v)

    # Nested: every pair of rows.
    pairs = vmap(vmap(f, in_axes=(None, 0)), in_axes=(0, None))(a, b)
    want = [[float(f(a[i], b[j])) for j in range(2)] for i in range(4)]
    np.testing.assert_allclose(to_np(pairs), want, rtol=1e-12)
    # grad of a batched computation.
    g = grad(lambda u: ns(u).sum(vmap(f, in_axes=(0, None))(u, b[0])))(a)
    g_loop = np.stack([to_np(grad(f)(a[i], b[0])) for i in range(4)])
    np.testing.assert_allclose(to_np(g), g_loop, rtol=1e-12)
    # Batch axes other than the first, out_axes, and an unbatched output.
    moved = vmap(lambda u: ns(u).cumulative_sum(u), in_axes=1, out_axes=1)(a)
    np.testing.assert_allclose(to_np(moved), np.cumsum(to_np(a), axis=0))
    const = vmap(lambda u: (u * 2.0, ns(u).ones(2)), out_axes=(0, None))(a)
    np.testing.assert_array_equal(to_np(const[1]), [1.0, 1.0])
    # jacobian and hessian per example (a loop over the examples).
    jac = vmap(jacobian(lambda u: u * u))(a)
    assert jac.shape == (4, 3, 3)
    np.testing.assert_allclose(to_np(jac[1]), np.diag(2 * to_np(a[1])))


def test_vmap_says_what_it_cannot_do():
    a = arrayx.ones((3, 2))

    def branch(u):
        return u if u[0] > 0 else -u
    with pytest.raises(TypeError, match="control flow"):
        vmap(branch)(a)
    with pytest.raises(ValueError, match="batch sizes 3 and 2"):
        vmap(lambda u, v: u + v)(a, arrayx.ones((2, 2)))
    with pytest.raises(ValueError, match="at least one batched"):
        vmap(lambda u: u, in_axes=None)(a)
    with pytest.raises(TypeError, match="real scalar output per example"):
        vmap(grad(lambda u: u * 2.0))(a)
    with pytest.raises(ValueError, match="in_axes has 1 entries for 2"):
        vmap(lambda u, v: u, in_axes=(0,))(a, a)
    with pytest.raises(TypeError, match="vjp inside vmap"):
        vmap(lambda u: vjp(lambda t: t, u)[0])(a)
    with pytest.raises(ValueError, match="in_axes 2 is out of range"):
        vmap(lambda u: u, in_axes=2)(a)
    with pytest.raises(ValueError, match="in_axes 0 is out of range"):
        vmap(lambda u: u)(arrayx.asarray(1.0))
    with pytest.raises(TypeError, match="in_axes entries must be ints"):
        vmap(lambda u: u, in_axes=0.5)(a)
    with pytest.raises(ValueError, match="out_axes does not match"):
        vmap(lambda u: (u, u), out_axes=(0,))(a)


def test_arrays_made_inside_vmap_from_unbatched_ones():
    rows = arrayx.asarray([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    shift = arrayx.asarray([10.0, 20.0])

    def f(x, c):
        xp = ns(x)
        return x + xp.asarray(c) + xp.full_like(c, 1.0)
    got = vmap(f, in_axes=(0, None))(rows, shift)
    np.testing.assert_array_equal(to_np(got), to_np(rows) + [11.0, 21.0])


def test_nested_grads_do_not_confuse_perturbations():
    # d/dx [x * d/dy (x + y)] = d/dx [x] = 1 (the inner derivative is 1, not a function of x).
    def outer(x):
        return x * grad(lambda y: x + y)(arrayx.asarray(1.0))
    assert float(grad(outer)(arrayx.asarray(3.0))) == 1.0


def test_stop_gradient():
    g = grad(lambda x: ns(x).sum(x * stop_gradient(x)))(arrayx.asarray([3.0, 4.0]))
    np.testing.assert_array_equal(to_np(g), [3.0, 4.0])


def test_custom_vjp_and_its_nested_use():
    @custom_vjp
    def f(x):
        return ns(x).sin(x)

    f.defvjp(lambda x: (ns(x).sin(x), x), lambda x, g: (g * 2 * x,))
    x = arrayx.asarray([1.0, 2.0])
    np.testing.assert_array_equal(to_np(grad(lambda t: ns(t).sum(f(t)))(x)), [2.0, 4.0])
    second = grad(lambda t: ns(t).sum(grad(lambda u: ns(u).sum(f(u)))(t)))(x)
    np.testing.assert_array_equal(to_np(second), [2.0, 2.0])
    np.testing.assert_allclose(to_np(f(x)), np.sin([1.0, 2.0]))


def test_checkpoint_recomputes_and_gives_the_same_gradient():
    calls = []

    def block(x):
        calls.append(1)
        xp = ns(x)
        return xp.tanh(xp.sin(x) * x)

    x = arrayx.asarray([0.1, 0.5, -2.0])
    plain = grad(lambda t: ns(t).sum(block(t)))(x)
    calls.clear()
    saved = grad(lambda t: ns(t).sum(checkpoint(block)(t)))(x)
    assert len(calls) == 2
    np.testing.assert_allclose(to_np(saved), to_np(plain))


# --- the tracer -----------------------------------------------------------------------------

def test_tracers_are_array_api_arrays():
    def f(x):
        xp = x.__array_namespace__()
        return xp.sum(x.T @ x.mT - (-x) + (+x) / 2.0 - 1.0 * x ** 2)

    def check(x):
        assert isinstance(x, Tracer)
        xp = x.__array_namespace__()
        assert xp is traced and xp.__array_api_version__ == "2025.12"
        for name in arrayx.__all__:
            assert hasattr(xp, name), name
        for name in arrayx.linalg.__all__:
            assert hasattr(xp.linalg, name), name
        for name in arrayx.fft.__all__:
            assert hasattr(xp.fft, name), name
        assert (x.shape, x.dtype, x.ndim, x.size) == ((2, 2), arrayx.float64, 2, 4)
        assert x.device == arrayx.asarray(0.0).device
        return f(x)

    x = to_np([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(to_np(grad(check)(arrayx.asarray(x))), central(f, x),
                               rtol=1e-6)


def test_integer_and_bool_results_are_constant_tracers():
    compat = pytest.importorskip("array_api_compat")

    def f(x):
        xp = ns(x)
        made = (xp.argmax(x), x > 0, xp.isnan(x), xp.astype(x, xp.int64), xp.floor(x),
                xp.arange(2), xp.zeros(2, dtype=xp.int32), *xp.unique_counts(x))
        for leaf in made:
            assert type(leaf) is Tracer and leaf.node is None
            # Library code that asks for the namespace of several arrays finds one.
            assert compat.array_namespace(x, leaf) is traced
            # A constant may become a NumPy array: it carries no gradient.
            to_np(leaf)
        mask = x > 0
        return xp.sum(x * xp.astype(mask, x.dtype)) + xp.sum(x[mask]) + xp.sum(x[xp.argmax(x)])
    np.testing.assert_array_equal(to_np(grad(f)(arrayx.asarray([-1.0, 2.0]))),
                                  [0.0, 3.0])


def test_a_python_number_from_a_tracer_warns():
    from arrayx.autograd import GradientLostWarning

    def f(x):
        xp = ns(x)
        with pytest.warns(GradientLostWarning, match="float"):
            scale = float(xp.sum(x))
        assert int(xp.argmax(x)) == 1 and bool(xp.any(x > 0))
        return xp.sum(x) * scale
    np.testing.assert_array_equal(to_np(grad(f)(arrayx.asarray([1.0, 2.0]))), [3.0, 3.0])


def test_repeated_argnums_each_get_the_whole_gradient():
    g = grad(lambda x, y: ns(x).sum(x * x * y), argnums=(0, 0, 1))(
        arrayx.asarray([1.0, 2.0]), arrayx.asarray([3.0, 4.0]))
    for got, want in zip(g, ([6.0, 16.0], [6.0, 16.0], [1.0, 4.0]), strict=True):
        np.testing.assert_array_equal(to_np(got), want)


def test_grad_in_threads_leaves_no_trace_behind():
    import threading

    def loss(x):
        xp = ns(x)
        return xp.sum(xp.tanh(x) ** 2)

    x = np.linspace(-1, 1, 64)
    want = to_np(grad(loss)(arrayx.asarray(x)))
    errors = []
    barrier = threading.Barrier(4)

    def work():
        barrier.wait()
        for _ in range(50):
            g = grad(loss)(arrayx.asarray(x))
            if type(g) is not arrayx.Array or not np.array_equal(to_np(g), want):
                errors.append(g)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    g = grad(loss)(arrayx.asarray(x))
    assert type(g) is arrayx.Array
    np.testing.assert_array_equal(to_np(g), want)


def test_asarray_keeps_tracing():
    def f(x):
        xp = ns(x)
        y = xp.asarray(x)
        z = xp.asarray([x[0], x[1] * 2.0, 3.0])
        return xp.sum(y * y) + xp.sum(z)
    np.testing.assert_array_equal(to_np(grad(f)(arrayx.asarray([1.0, 2.0]))), [3.0, 6.0])


def test_gradient_with_respect_to_an_integer_input_raises():
    with pytest.raises(TypeError, match="floating-point"):
        grad(lambda x: x)(arrayx.asarray([1, 2]))
    with pytest.raises(TypeError, match="real scalar"):
        grad(lambda x: x * 2.0)(arrayx.asarray([1.0, 2.0]))
    with pytest.raises(TypeError, match="array"):
        grad(lambda x: x)("x")


def test_a_tracer_does_not_become_numpy_silently():
    def f(x):
        with pytest.raises(TypeError, match="stop_gradient"):
            to_np(x)
        return ns(x).sum(x)
    grad(f)(arrayx.ones(2))


def test_rules_for_part_of_the_inputs_say_so():
    with pytest.raises(TypeError, match="qr has a gradient rule for real matrices"):
        grad(lambda x: ns(x).sum(ns(x).linalg.qr(x).R))(arrayx.ones((2, 3)))
    with pytest.raises(TypeError, match="full_matrices=False"):
        grad(lambda x: ns(x).sum(ns(x).linalg.svd(x).S))(arrayx.ones((2, 3)))


# --- numerics -------------------------------------------------------------------------------

@pytest.mark.parametrize("branch", ["sqrt", "log", "reciprocal", "pow"])
def test_masked_singular_branches_have_finite_gradients(branch):
    def f(x):
        xp = ns(x)
        value = {"sqrt": lambda: xp.sqrt(x), "log": lambda: xp.log(x),
                 "reciprocal": lambda: 1.0 / x, "pow": lambda: x ** 0.5}[branch]()
        return xp.sum(xp.where(x > 0, value, 0.0))

    x = to_np([-1.0, 0.0, 4.0])
    g = to_np(grad(f)(arrayx.asarray(x)))
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g[2], central(f, x)[2], rtol=1e-6)
    np.testing.assert_array_equal(g[:2], [0.0, 0.0])


def test_complex_gradients_follow_pytorch():
    torch = import_torch()
    z = to_np([1 + 2j, -0.5 + 0.25j])

    def f(t):
        xp = ns(t)
        return xp.sum(xp.real(t * xp.conj(t)) + xp.real(xp.exp(t)) * xp.imag(t))

    g = to_np(grad(f)(arrayx.asarray(z)))
    tz = torch.tensor(z, requires_grad=True)
    ((tz * tz.conj()).real + tz.exp().real * tz.imag).sum().backward()
    np.testing.assert_allclose(g, tz.grad.numpy())
    # dL/dRe + 1j dL/dIm: for |z|^2 it is 2z (JAX returns the conjugate, 2 conj(z)).
    g = to_np(grad(lambda t: ns(t).sum(ns(t).abs(t) ** 2))(arrayx.asarray(z)))
    np.testing.assert_allclose(g, 2 * z)


def test_float32_gradients_stay_float32():
    g = grad(lambda x: ns(x).sum(x * 2.0))(arrayx.ones(3, dtype=arrayx.float32))
    assert g.dtype == arrayx.float32


# --- mutation -------------------------------------------------------------------------------

def test_setitem_is_recorded_as_a_functional_update():
    def f(x):
        xp = ns(x)
        y = x * 1.0
        y[0] = x[1] ** 2
        y[1:] = y[1:] * 3.0
        out = xp.zeros(3, dtype=x.dtype)
        out[0] = xp.sum(y)
        out[2] = y[0]
        return xp.sum(out * out)

    x = to_np([0.5, -1.5, 2.0])
    np.testing.assert_allclose(to_np(grad(f)(arrayx.asarray(x))), central(f, x),
                               rtol=1e-6)


def test_inplace_operators_are_recorded():
    def f(x):
        xp = ns(x)
        y = xp.exp(x)
        y *= x
        y += 1.0
        y /= 2.0
        return xp.sum(y)

    x = to_np([0.5, -1.5])
    np.testing.assert_allclose(to_np(grad(f)(arrayx.asarray(x))), central(f, x),
                               rtol=1e-6)


def test_writing_a_saved_value_keeps_the_gradient():
    # PyTorch refuses these writes (a saved tensor was modified); the saved values are kept.
    def exp_then_write(x):
        xp = ns(x)
        y = xp.exp(x)
        y[0] = 0.0
        return xp.sum(y * y)

    def divide_then_write(x):
        xp = ns(x)
        q = x / xp.sum(x)
        q[1] = q[1] * 3.0
        q += 1.0
        return xp.sum(q * q)

    x = to_np([0.5, 1.5, 2.0])
    for f in (exp_then_write, divide_then_write):
        np.testing.assert_allclose(to_np(grad(f)(arrayx.asarray(x))), central(f, x),
                                   rtol=1e-6)


def _central_complex(f, z: np.ndarray, step: float = 1e-6) -> np.ndarray:
    """dL/dRe + 1j dL/dIm of a real scalar function of a complex array (PyTorch's gradient)."""
    out = np.zeros_like(z)
    for i in np.ndindex(z.shape):
        for direction in (1.0, 1j):
            e = np.zeros_like(z)
            e[i] = step * direction
            d = (float(f(arrayx.asarray(z + e))) - float(f(arrayx.asarray(z - e)))) / (2 * step)
            out[i] += d * direction
    return out


def test_updates_of_complex_arrays_keep_the_conjugates():
    def f(z):
        xp = ns(z)
        y = z * (1.0 + 2.0j)
        y[0] = z[1] * 3.0j                 # a write into the array
        v = y[1:]
        v[0] = v[0] * xp.conj(z[2])        # a write through a view
        w = xp.reshape(y, (2, 2))
        w[:, 1] += z[:2] ** 2              # an in-place operator on a view
        return xp.sum(xp.real(y * xp.conj(y))) + xp.sum(xp.imag(y * z))

    z = to_np([0.5 - 1.0j, 1.5 + 0.25j, -0.75 + 0.5j, 2.0 - 0.5j])
    np.testing.assert_allclose(to_np(grad(f)(arrayx.asarray(z))), _central_complex(f, z),
                               rtol=1e-6, atol=1e-8)


def test_second_derivatives_through_gathers():
    # The backward pass of a gather is a scatter-add; differentiating it again (here by
    # forward mode and by grad of grad) goes through the scatter-add's own rule.
    idx = arrayx.asarray([2, 0, 2, 1])

    def f(x):
        xp = ns(x)
        return xp.sum(xp.take(x, idx) ** 3) + xp.sum(x[xp.asarray([1, 1])] * x[0])

    x = to_np([0.5, -1.0, 2.0])
    h = to_np(hessian(f)(arrayx.asarray(x)))
    want = np.zeros((3, 3))
    for i in range(3):
        e = np.zeros(3)
        e[i] = 1e-5
        want[:, i] = (to_np(grad(f)(arrayx.asarray(x + e)))
                      - to_np(grad(f)(arrayx.asarray(x - e)))) / 2e-5
    np.testing.assert_allclose(h, want, rtol=1e-6, atol=1e-6)

    def g(z):
        xp = ns(z)
        picked = xp.take(z, idx)
        return xp.sum(xp.real(picked * xp.conj(picked) * picked))

    z = to_np([0.5 - 1.0j, 1.5 + 0.25j, -0.75 + 0.5j])
    tangent = to_np([1.0 + 0.5j, -0.25j, 0.75])
    gz = grad(g)
    _, along = jvp(gz, (arrayx.asarray(z),), (arrayx.asarray(tangent),))
    numeric = (to_np(gz(arrayx.asarray(z + 1e-6 * tangent)))
               - to_np(gz(arrayx.asarray(z - 1e-6 * tangent)))) / 2e-6
    np.testing.assert_allclose(to_np(along), numeric, rtol=1e-6, atol=1e-6)


def test_a_fresh_copy_can_be_written():
    def f(x):
        xp = ns(x)
        a = xp.asarray(x, copy=True)
        a[0] = 2.0 * a[1]
        b = xp.astype(x, x.dtype, copy=True)
        b[1:] = b[1:] ** 2
        c = xp.reshape(x, (3, 1)) * 1.0
        d = xp.reshape(c, (3,))
        d[2] = 0.0
        return xp.sum(a * b) + xp.sum(c)

    x = to_np([0.5, 1.5, 2.0])
    np.testing.assert_allclose(to_np(grad(f)(arrayx.asarray(x))), central(f, x),
                               rtol=1e-6)


def test_a_view_reads_updates_of_its_base():
    def f(x):
        y = x * 1.0
        v = y[1:]
        y[1] = 7.0
        return ns(x).sum(v * x[1:])

    # PyTorch and the analytic answer: 7 * x1 + x2 ** 2.
    np.testing.assert_array_equal(to_np(grad(f)(arrayx.asarray([1.0, 2.0, 3.0]))),
                                  [0.0, 7.0, 6.0])


def test_updates_through_views_are_updates_of_the_base():
    def f(x):
        xp = ns(x)
        y = xp.reshape(x * 1.0, (2, 3))
        row = y[1]
        row[0] = x[0] ** 2             # a write into a view
        col = y.mT[2]
        col *= x[1:3]                  # an in-place operator on a view of a view
        out = xp.zeros((2, 2), dtype=x.dtype)
        out[0][1] = xp.sum(x)          # a write into a view of a constant
        flat = xp.reshape(y, (-1,))
        return xp.sum(flat * flat) + xp.sum(out * y[:, :2]) + xp.sum(row)

    x = to_np([0.5, -1.5, 2.0, 1.0, 0.25, -0.75])
    np.testing.assert_allclose(to_np(grad(f)(arrayx.asarray(x))), central(f, x),
                               rtol=1e-6, atol=1e-8)


# --- memory ---------------------------------------------------------------------------------

def test_no_tape_survives_the_call():
    seen = []

    def f(x):
        xp = ns(x)
        h = xp.tanh(x @ x.mT)
        seen.append(weakref.ref(h))
        seen.append(weakref.ref(h.node))
        return xp.sum(h * h)

    x = arrayx.asarray(np.arange(6.0).reshape(2, 3) / 10)
    g = grad(f)(x)
    del g
    gc.collect()
    assert all(ref() is None for ref in seen)
    assert not any(type(o) in (Node, Tracer) for o in gc.get_objects())


def test_a_tracer_used_after_its_transformation_raises():
    escaped = []
    grad(lambda x: escaped.append(x) or ns(x).sum(x))(arrayx.ones(2))
    with pytest.raises(RuntimeError, match="after the transformation"):
        escaped[0] * 2.0


# --- namespace-generic models against PyTorch ---------------------------------------------

def logistic_loss(w, b, x, y):
    xp = ns(w)
    z = x @ w + b
    return xp.mean(xp.logaddexp(0.0, z) - y * z)


def mlp_loss(w1, b1, w2, b2, x, labels):
    xp = ns(w1)
    h = xp.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    top = xp.max(logits, axis=1, keepdims=True)
    shifted = logits - top
    logp = shifted - xp.log(xp.sum(xp.exp(shifted), axis=1, keepdims=True))
    picked = xp.take_along_axis(logp, xp.reshape(labels, (-1, 1)), axis=1)
    return -xp.mean(picked)


def _torch_grads(fn, params, data):
    torch = import_torch()
    tensors = [torch.tensor(p, requires_grad=True) for p in params]
    loss = fn(*tensors, *[torch.tensor(d) for d in data])
    loss.backward()
    return loss.item(), [t.grad.numpy() for t in tensors]


def test_logistic_regression_matches_pytorch():
    torch = import_torch()
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((32, 5)), (rng.random(32) > 0.5).astype(np.float64)
    w, b = rng.standard_normal(5), to_np(0.1)
    value, grads = value_and_grad(logistic_loss, argnums=(0, 1))(
        arrayx.asarray(w), arrayx.asarray(b), arrayx.asarray(x), arrayx.asarray(y))

    def torch_loss(w, b, x, y):
        z = x @ w + b
        return (torch.logaddexp(torch.zeros_like(z), z) - y * z).mean()
    expected_value, expected = _torch_grads(torch_loss, [w, b], [x, y])
    assert float(value) == pytest.approx(expected_value)
    for g, e in zip(grads, expected, strict=True):
        np.testing.assert_allclose(to_np(g), e, rtol=1e-10, atol=1e-12)


def test_two_layer_mlp_matches_pytorch():
    torch = import_torch()
    rng = np.random.default_rng(1)
    x, labels = rng.standard_normal((16, 8)), rng.integers(0, 4, 16)
    params = [rng.standard_normal((8, 6)) / 3, np.zeros(6), rng.standard_normal((6, 4)) / 3,
              np.zeros(4)]
    value, grads = value_and_grad(mlp_loss, argnums=(0, 1, 2, 3))(
        *[arrayx.asarray(p) for p in params], arrayx.asarray(x), arrayx.asarray(labels))

    def torch_loss(w1, b1, w2, b2, x, labels):
        logits = torch.relu(x @ w1 + b1) @ w2 + b2
        return torch.nn.functional.cross_entropy(logits, labels)
    expected_value, expected = _torch_grads(torch_loss, params, [x, labels])
    assert float(value) == pytest.approx(expected_value)
    for g, e in zip(grads, expected, strict=True):
        np.testing.assert_allclose(to_np(g), e, rtol=1e-10, atol=1e-12)


def test_docstring_examples_run(cpu_default):
    import doctest

    import arrayx.autograd as module
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures: list[str] = []
    public = [getattr(module, n) for n in module.__all__ if n != "numpy"]
    for obj in (module, *public):
        for test in finder.find(obj, globs={}):
            runner.run(test, out=failures.append)
    assert not failures, "".join(failures)


def test_rules_keep_only_what_they_need():
    kept = {}

    def f(x):
        xp = ns(x)
        h = x * 2.0          # multiply by a constant keeps the constant only
        kept["h"] = weakref.ref(h.value)
        y = xp.exp(h)        # exp keeps its result, not its input
        kept["y"] = weakref.ref(y.value)
        return xp.sum(y + 1.0)

    _, back = vjp(f, arrayx.asarray([0.5, 1.0]))
    gc.collect()
    assert kept["h"]() is None
    assert kept["y"]() is not None
    (g,) = back(arrayx.asarray(1.0))
    np.testing.assert_allclose(to_np(g), 2 * np.exp([1.0, 2.0]))


def test_hessian_through_setitem():
    def f(x):
        xp = ns(x)
        y = xp.zeros(3, dtype=x.dtype)
        y[0] = x[0] ** 3
        y[1:] = x[1:] * x[0]
        return xp.sum(y * y)   # x0^6 + x0^2 (x1^2 + x2^2)

    x0, x1, x2 = 1.0, 2.0, 3.0
    expected = [[30 * x0 ** 4 + 2 * (x1 ** 2 + x2 ** 2), 4 * x0 * x1, 4 * x0 * x2],
                [4 * x0 * x1, 2 * x0 ** 2, 0.0], [4 * x0 * x2, 0.0, 2 * x0 ** 2]]
    np.testing.assert_allclose(to_np(hessian(f)(arrayx.asarray([x0, x1, x2]))), expected)


def test_maximum_splits_ties_as_pytorch():
    torch = import_torch()
    x = to_np([-1.0, 0.0, 2.0])
    g = grad(lambda t: ns(t).sum(ns(t).maximum(t, 0.0) + ns(t).minimum(t, t * 1.0)))(
        arrayx.asarray(x))
    tx = torch.tensor(x, requires_grad=True)
    (torch.maximum(tx, torch.zeros(3, dtype=torch.float64))
     + torch.minimum(tx, tx * 1.0)).sum().backward()
    np.testing.assert_array_equal(to_np(g), tx.grad.numpy())

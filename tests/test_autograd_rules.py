"""Every differentiable function of the traced namespace: its gradient against central
differences in float64 (hypothesis-drawn shapes, broadcasting and axes; complex inputs in both
real directions) and against PyTorch's autograd where PyTorch has the function; and the
coverage of the tables (every function of arrayx is in exactly one)."""

from __future__ import annotations

import types

import numpy as np
import pytest
from autograd_cases import CASES, REAL_ONLY
from conftest import to_np
from hypothesis import given, settings
from hypothesis import strategies as st
from needs_torch import import_torch

import arrayx
import arrayx.fft
import arrayx.linalg
from arrayx.autograd import _namespace, batched, jvp, vjp, vmap
from arrayx.autograd import numpy as traced

STEP = 1e-6


def _loss(fn, inputs, w):
    """``Re(sum(conj(w) * fn(inputs)))``, the real scalar whose gradient vjp(w) is (terms
    where ``w`` is 0, at non-finite outputs, left out)."""
    out = to_np(fn(arrayx, *[arrayx.asarray(x) for x in inputs]))
    return float(np.sum(np.real(np.where(w != 0, np.conj(w) * out, 0))))


def _cotangent(out: np.ndarray, rng) -> np.ndarray:
    w = rng.standard_normal(out.shape)
    if out.dtype.kind == "c":
        w = w + 1j * rng.standard_normal(out.shape)
    return np.where(np.isfinite(out), w, 0)


def _draw(name, data, complex_):
    drawn = CASES[name](data, complex_)
    if complex_:
        assert any(np.iscomplexobj(x) for x in drawn.inputs), f"{name} drew no complex input"
    return drawn


# Every case with real inputs, and every case of a function with a complex domain with complex
# inputs too.
PAIRS = [pytest.param(name, False, id=f"{name}-real") for name in sorted(CASES)] + [
    pytest.param(name, True, id=f"{name}-complex") for name in sorted(CASES)
    if name.partition("_nonzero")[0] not in REAL_ONLY]


@pytest.mark.parametrize(("name", "complex_"), PAIRS)
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_gradient_matches_central_differences(name, complex_, data):
    drawn = _draw(name, data, complex_)
    rng = np.random.default_rng(0)
    arrays = [arrayx.asarray(x) for x in drawn.inputs]
    out, back = vjp(lambda *xs: drawn.fn(traced, *xs), *arrays)
    w = _cotangent(to_np(out), rng)
    grads = back(arrayx.asarray(w.astype(to_np(out).dtype)))
    for i, (x, g) in enumerate(zip(drawn.inputs, grads, strict=True)):
        g = to_np(g)
        assert g.shape == x.shape and g.dtype == x.dtype
        directions = [rng.standard_normal(x.shape)]
        if x.dtype.kind == "c":
            directions.append(1j * rng.standard_normal(x.shape))
        for v in directions:
            plus = list(drawn.inputs)
            minus = list(drawn.inputs)
            plus[i] = x + STEP * v
            minus[i] = x - STEP * v
            numeric = (_loss(drawn.fn, plus, w) - _loss(drawn.fn, minus, w)) / (2 * STEP)
            analytic = float(np.sum(np.real(np.conj(g) * v)))
            assert analytic == pytest.approx(numeric, rel=1e-4, abs=1e-5), (name, i)


@pytest.mark.parametrize(("name", "complex_"), PAIRS)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_gradient_matches_pytorch(name, complex_, data):
    torch = import_torch()
    drawn = _draw(name, data, complex_)
    if drawn.torch_fn is None:
        pytest.skip(f"no PyTorch counterpart for {name}")
    rng = np.random.default_rng(1)
    arrays = [arrayx.asarray(x) for x in drawn.inputs]
    out, back = vjp(lambda *xs: drawn.fn(traced, *xs), *arrays)
    w = _cotangent(to_np(out), rng).astype(to_np(out).dtype)
    grads = back(arrayx.asarray(w))
    tensors = [torch.tensor(x, requires_grad=True) for x in drawn.inputs]
    tout = drawn.torch_fn(*tensors)
    np.testing.assert_allclose(tout.detach().resolve_conj().numpy(), to_np(out),
                               rtol=1e-9, atol=1e-9)
    expected = torch.autograd.grad(tout, tensors, torch.tensor(w), allow_unused=True)
    for g, e, x in zip(grads, expected, drawn.inputs, strict=True):
        e = np.zeros_like(x) if e is None else e.resolve_conj().numpy()
        np.testing.assert_allclose(to_np(g), e, rtol=1e-7, atol=1e-9)


def _spec_functions() -> set[str]:
    names = {n for n in arrayx.__all__ if n not in ("linalg", "fft", "lib")}
    names |= {f"linalg.{n}" for n in arrayx.linalg.__all__}
    names |= {f"fft.{n}" for n in arrayx.fft.__all__}
    return {n for n in names if _is_function(n)}


def _is_function(name: str) -> bool:
    module, _, attr = name.rpartition(".")
    obj = getattr(getattr(arrayx, module) if module else arrayx, attr)
    return callable(obj) and not isinstance(obj, type)


def test_every_function_is_in_one_table():
    from arrayx.autograd import _composed, _linalg_rules
    tables = {
        "rule": set(_namespace.RULES) | {f"linalg.{n}" for n in _linalg_rules.LINALG}
        | {f"linalg.{n}" for n in _linalg_rules.LINALG_MULTI}
        | {f"fft.{n}" for n in _linalg_rules.FFT},
        "composed": set(_composed.COMPOSED) | {f"linalg.{n}" for n in _composed.LINALG_COMPOSED}
        | {f"fft.{n}" for n in _composed.FFT_COMPOSED},
        "special": set(_namespace.SPECIAL),
        "nondifferentiable": set(_namespace.NONDIFFERENTIABLE),
        "creation": set(_namespace.CREATION),
    }
    # An elementwise op of the op table in none of those: traced, refused when differentiated.
    tables["no rule"] = set(_namespace.TABLE_OPS).difference(*tables.values())
    for name in sorted(_spec_functions()):
        homes = [kind for kind, names in tables.items() if name in names]
        if name == "matmul" or name == "linalg.matmul":
            continue
        assert len(homes) == 1 or set(homes) == {"rule", "special"}, (name, homes)


def test_every_differentiable_function_has_a_gradient_check():
    from arrayx.autograd import _composed, _linalg_rules
    differentiable = (set(_namespace.RULES) | set(_composed.COMPOSED)
                      | {f"linalg.{n}" for n in (*_linalg_rules.LINALG,
                                                 *_linalg_rules.LINALG_MULTI,
                                                 *_composed.LINALG_COMPOSED)}
                      | {f"fft.{n}" for n in (*_linalg_rules.FFT, *_composed.FFT_COMPOSED)})
    checked = {name.partition("_nonzero")[0] for name in CASES} | {"getitem"}
    # The linalg copies of matmul, tensordot, vecdot and matrix_transpose are the same
    # functions as the main namespace's.
    missing = sorted(differentiable - checked - {"linalg.matmul", "linalg.tensordot",
                                                 "linalg.vecdot", "linalg.matrix_transpose"})
    assert not missing


def _tangents(inputs, rng) -> list:
    out = []
    for x in inputs:
        t = rng.standard_normal(x.shape)
        if x.dtype.kind == "c":
            t = t + 1j * rng.standard_normal(x.shape)
        out.append(t.astype(x.dtype))
    return out


@pytest.mark.parametrize(("name", "complex_"), PAIRS)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_jvp_matches_central_differences(name, complex_, data):
    drawn = _draw(name, data, complex_)
    rng = np.random.default_rng(2)
    tangents = _tangents(drawn.inputs, rng)
    out, tangent_out = jvp(lambda *xs: drawn.fn(traced, *xs),
                           [arrayx.asarray(x) for x in drawn.inputs],
                           [arrayx.asarray(t) for t in tangents])

    def at(step):
        moved = [arrayx.asarray(x + step * t) for x, t in zip(drawn.inputs, tangents,
                                                                strict=True)]
        return to_np(drawn.fn(arrayx, *moved))

    numeric = (at(STEP) - at(-STEP)) / (2 * STEP)
    got = to_np(tangent_out)
    assert got.shape == to_np(out).shape
    finite = np.isfinite(to_np(out))
    np.testing.assert_allclose(got[finite], numeric[finite], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(("name", "complex_"), PAIRS)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_jvp_matches_pytorch(name, complex_, data):
    torch = import_torch()
    drawn = _draw(name, data, complex_)
    if drawn.torch_fn is None:
        pytest.skip(f"no PyTorch counterpart for {name}")
    tangents = _tangents(drawn.inputs, np.random.default_rng(3))
    _, got = jvp(lambda *xs: drawn.fn(traced, *xs), [arrayx.asarray(x) for x in drawn.inputs],
                 [arrayx.asarray(t) for t in tangents])
    _, want = torch.func.jvp(drawn.torch_fn, tuple(torch.tensor(x) for x in drawn.inputs),
                             tuple(torch.tensor(t) for t in tangents))
    np.testing.assert_allclose(to_np(got), want.resolve_conj().numpy(), rtol=1e-7,
                               atol=1e-9)


def _batch(drawn, data):
    """Three examples around the drawn inputs (scaled within the case's domain), and which
    inputs are batched: all, or the first alone."""
    first_only = len(drawn.inputs) > 1 and data.draw(st.booleans(), label="first only")
    batched_flags = [not first_only or i == 0 for i in range(len(drawn.inputs))]
    batches = [np.stack([x, x * 0.95, x * 1.05]) if b else x
               for x, b in zip(drawn.inputs, batched_flags, strict=True)]
    return batches, tuple(0 if b else None for b in batched_flags)


@pytest.mark.parametrize(("name", "complex_"), PAIRS)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_vmap_matches_a_loop_over_examples(name, complex_, data):
    drawn = _draw(name, data, complex_)
    batches, in_axes = _batch(drawn, data)
    got = vmap(lambda *xs: drawn.fn(batched, *xs), in_axes=in_axes)(
        *[arrayx.asarray(b) for b in batches])
    want = np.stack([to_np(drawn.fn(arrayx, *[
        arrayx.asarray(b[i] if axis == 0 else b) for b, axis in zip(batches, in_axes,
                                                                    strict=True)]))
        for i in range(3)])
    np.testing.assert_allclose(to_np(got), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(("name", "complex_"), PAIRS)
@settings(max_examples=2, deadline=None)
@given(data=st.data())
def test_vmap_matches_pytorch(name, complex_, data):
    torch = import_torch()
    drawn = _draw(name, data, complex_)
    if drawn.torch_fn is None:
        pytest.skip(f"no PyTorch counterpart for {name}")
    batches, in_axes = _batch(drawn, data)
    try:
        want = torch.func.vmap(drawn.torch_fn, in_dims=in_axes)(
            *[torch.tensor(b) for b in batches])
    except (RuntimeError, NotImplementedError) as e:
        pytest.skip(f"torch.func.vmap has no batching rule for {name}: {e}")
    got = vmap(lambda *xs: drawn.fn(batched, *xs), in_axes=in_axes)(
        *[arrayx.asarray(b) for b in batches])
    np.testing.assert_allclose(to_np(got), want.resolve_conj().numpy(), rtol=1e-9,
                               atol=1e-11)


def test_an_op_without_a_rule_is_traced_and_refuses_differentiation(monkeypatch):
    """An op added to the op table before its gradient rule: it computes under grad on
    constants, and differentiating through it raises (never a zero gradient)."""
    from arrayx.autograd import grad

    rules = {k: v for k, v in _namespace.RULES.items() if k != "sin"}
    monkeypatch.setattr(_namespace, "RULES", rules)
    ns = types.SimpleNamespace()
    _namespace._fill(ns, arrayx, ["sin"], rules, {}, {}, "")
    c = arrayx.asarray([0.5])

    def uses_constant(x):
        return traced.sum(x * ns.sin(c))

    np.testing.assert_allclose(to_np(grad(uses_constant)(arrayx.asarray([2.0]))), np.sin([0.5]))
    with pytest.raises(TypeError, match="sin has no gradient rule"):
        grad(lambda x: traced.sum(ns.sin(x)))(arrayx.asarray([2.0]))

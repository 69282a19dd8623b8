"""arrayx.autograd against PyTorch's eager autograd on the CPU (the "numpy" column is PyTorch
here), at the same thread count.

- per-operation overhead: a chain of 20 elementwise operations on 16 float64 elements,
  forward and backward (the time per operation is printed beside the table);
- a training step (forward, backward, SGD update) of a 784-256-10 MLP in float32 with a
  softmax cross-entropy loss, at batch 64 and 4096; arrayx's step is namespace-generic code.
  The two steps are checked against each other here and timed with each library in processes
  of its own, alternating for ``ROUNDS`` rounds: PyTorch's idle OpenMP threads spin after its
  calls, and timed in one process the two libraries' steps each took 1x to 5x their time
  (batch 64: 0.8 ms or 4 ms, from run to run, for either);
- per-example gradients: ``vmap(grad(loss))`` of a small (20-64-10, float64) tanh network
  over 256 examples against ``torch.func.vmap(torch.func.grad(loss))``; beside the table, its
  time over arrayx's gradient of the batch's loss (the hand-batched gradient), the two timed
  in alternation with each other;
- peak memory of the batch-4096 step: in a fresh process per library, with glibc's
  ``MALLOC_MMAP_THRESHOLD_`` at 64 KiB (so buffers go back to the system when freed), the
  growth of the peak resident set over a step after a warm-up step (so that one-time costs,
  such as OpenBLAS's thread buffers, count for neither), plus, for arrayx, the bytes its
  buffer-reuse cache held before the step (resident, and reused by the step); and a check
  that no tape object is alive after the step.

Skipped (no rows) without torch.
"""

from __future__ import annotations

import gc
import os

import numpy as np
from arrayx._core.storage import cached_bytes

import arrayx as xp
from arrayx.autograd import Tracer, grad, value_and_grad, vmap
from arrayx.autograd._tracer import Node
from benchmarks.harness import (
    Timing,
    alternate,
    apart,
    apart_runs,
    apart_timing,
    check_equal,
    compare,
    medians_apart,
    paired_threads,
    timed,
)

CHAIN = 20
LR = 0.01
ROUNDS = 3

#: The training-step cases: name: (batch, target).
MLP_CASES = {f"MLP 784-256-10 float32 train step, batch {batch}": (batch, target)
             for batch, target in ((64, 1.5), (4096, 1.2))}


def chain(x, w, ns=None):
    """``CHAIN`` elementwise operations, summed, in ``ns`` (``x``'s namespace by default)."""
    ns = ns or x.__array_namespace__()
    y = x
    for _ in range(CHAIN // 4):
        y = ns.tanh(ns.sin(y) * w + y)
    return ns.sum(y)


def mlp_loss(w1, b1, w2, b2, x, labels):
    """Softmax cross-entropy of a two-layer ReLU network, written against the array API."""
    ns = w1.__array_namespace__()
    h = ns.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    shifted = logits - ns.max(logits, axis=1, keepdims=True)
    logp = shifted - ns.log(ns.sum(ns.exp(shifted), axis=1, keepdims=True))
    return -ns.mean(ns.take_along_axis(logp, ns.reshape(labels, (-1, 1)), axis=1))


_mlp_grad = value_and_grad(mlp_loss, argnums=(0, 1, 2, 3))


def small_loss(w1, b1, w2, x, y, ns=None):
    """Squared error of a 20-64-10 tanh network (one example or a batch), in ``ns``
    (``w1``'s namespace by default)."""
    ns = ns or w1.__array_namespace__()
    return ns.sum((ns.tanh(x @ w1 + b1) @ w2 - y) ** 2) / 2


def _small_data():
    rng = np.random.default_rng(1)
    return [rng.standard_normal((20, 64)) / 4, rng.standard_normal(64) / 4,
            rng.standard_normal((64, 10)) / 8, rng.standard_normal((256, 20)),
            rng.standard_normal((256, 10))]


def _per_example(torch, repeats: int) -> Timing:
    data = _small_data()
    ours = [xp.asarray(a) for a in data]
    theirs = [torch.tensor(a) for a in data]
    per = vmap(grad(small_loss), in_axes=(None, None, None, 0, 0))
    def torch_loss(*args):
        return small_loss(*args, ns=torch)
    tper = torch.func.vmap(torch.func.grad(torch_loss), in_dims=(None, None, None, 0, 0))
    check_equal(grad(small_loss)(*ours), torch.func.grad(torch_loss)(*theirs), exact=False,
                atol=1e-9)
    t = compare("per-example gradients vmap(grad), 20-64-10 MLP, 256 examples",
                lambda: per(*ours), lambda: tper(*theirs), repeats=repeats, target=None,
                exact=False, atol=1e-9)
    # At least 21 repeats (under a second): the ratio is the target, and noise moves it.
    t_per, t_whole = apart(__name__, f"per_example_times({max(repeats, 21)})")
    print(f"  per-example gradients over the batch's gradient: {t_per / t_whole:.2f} "
          f"(target: at most 1.5; {t_per * 1e6:.0f} us and {t_whole * 1e6:.0f} us, "
          f"alternating, in a process without torch)")
    return t


def per_example_times(repeats: int) -> tuple[float, float]:
    """Seconds per call of ``vmap(grad(small_loss))`` over 256 examples and of the batch's
    gradient, timed in alternation with each other. `_per_example` runs this in a process of
    its own: PyTorch's idle OpenMP threads keep spinning on the cores after its calls, and
    slow arrayx's two-thread kernels beside them by a varying amount."""
    ours = [xp.asarray(a) for a in _small_data()]
    per = vmap(grad(small_loss), in_axes=(None, None, None, 0, 0))
    whole = grad(small_loss)
    return alternate(lambda: per(*ours), lambda: whole(*ours), repeats)


def mlp_step(params, x, labels):
    """One SGD step: the new parameters."""
    _, grads = _mlp_grad(*params, x, labels)
    return [p - LR * g for p, g in zip(params, grads, strict=True)]


def _torch_step(torch):
    def step(params, x, labels):
        logits = torch.relu(x @ params[0] + params[1]) @ params[2] + params[3]
        loss = torch.nn.functional.cross_entropy(logits, labels)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            return [(p - LR * g).requires_grad_() for p, g in zip(params, grads, strict=True)]
    return step


def _mlp_step_of(library: str, batch: int):
    """A call of one training step at ``batch`` in ``library`` ("arrayx" or "torch", at
    arrayx's thread count), returning the step's new second-layer weights."""
    params_np, x_np, labels_np = _mlp_data(batch)
    if library == "arrayx":
        params = [xp.asarray(p) for p in params_np]
        data = (xp.asarray(x_np), xp.asarray(labels_np))
        return lambda: mlp_step(params, *data)[2]
    import torch
    torch.set_num_threads(xp.get_num_threads())
    step = _torch_step(torch)
    tparams = [torch.tensor(p, requires_grad=True) for p in params_np]
    tdata = (torch.tensor(x_np), torch.tensor(labels_np))
    return lambda: step(tparams, *tdata)[2].detach()


def seconds(name: str, library: str, repeats: int) -> float:
    """Seconds per training step of case ``name`` (of ``MLP_CASES``) in ``library``, in this
    process (`medians_apart` calls it in a fresh one)."""
    return timed(_mlp_step_of(library, MLP_CASES[name][0]), repeats)


def _mlp_data(batch: int):
    rng = np.random.default_rng(0)
    params = [rng.standard_normal((784, 256)) / 28, np.zeros(256),
              rng.standard_normal((256, 10)) / 16, np.zeros(10)]
    params = [p.astype(np.float32) for p in params]
    x = rng.standard_normal((batch, 784)).astype(np.float32)
    labels = rng.integers(0, 10, batch)
    return params, x, labels


def peak_growth(library: str, batch: int = 4096) -> int:
    """Bytes this process's peak resident set grows by over one MLP step of ``library``
    ("arrayx" or "torch") after a warm-up step (for arrayx, plus its reuse cache's bytes)."""
    params, x, labels = _mlp_data(batch)
    if library == "arrayx":
        params, data = [xp.asarray(p) for p in params], (xp.asarray(x), xp.asarray(labels))
        step = mlp_step
    else:
        import torch
        torch.set_num_threads(xp.get_num_threads())
        params = [torch.tensor(p, requires_grad=True) for p in params]
        data = (torch.tensor(x), torch.tensor(labels))
        step = _torch_step(torch)
    step(params, *data)
    gc.collect()
    cached = cached_bytes() if library == "arrayx" else 0
    before = _status("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    step(params, *data)
    return _status("VmHWM") - before + cached


def _peak_growth_apart(library: str) -> int:
    """`peak_growth` of ``library`` in a fresh Python process."""
    return apart(__name__, f"peak_growth({library!r})",
                 dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536"))


def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(key)


def _tape_objects() -> int:
    gc.collect()
    return sum(type(o) in (Node, Tracer) for o in gc.get_objects())


def run(repeats: int) -> list[Timing]:
    """Time the autograd cases against PyTorch.

    Parameters
    ----------
    repeats : int
        Alternating repeats per case.

    Returns
    -------
    list of Timing
        One per case; empty when torch is not installed.
    """
    try:
        import torch
    except ImportError:
        return []
    torch.set_num_threads(xp.get_num_threads())
    out = []

    x_np, w_np = np.linspace(0, 1, 16), np.linspace(1, 2, 16)
    x, w = xp.asarray(x_np), xp.asarray(w_np)
    g = value_and_grad(chain)
    tx, tw = torch.tensor(x_np, requires_grad=True), torch.tensor(w_np)

    def torch_chain():
        (gx,) = torch.autograd.grad(chain(tx, tw, torch), (tx,))
        return gx
    t = compare(f"chain of {CHAIN} ops, 16 float64, forward + backward", lambda: g(x, w)[1],
                torch_chain, repeats=repeats, target=1.5, exact=False)
    out.append(t)
    print(f"  per operation: arrayx {t.arrayx / (CHAIN + 1) * 1e6:.2f} us, "
          f"{'arrayx on one thread' if paired_threads() else 'torch'} "
          f"{t.numpy / (CHAIN + 1) * 1e6:.2f} us (target: at most 5 us)")

    env = dict(os.environ, ARRAYX_NUM_THREADS=str(xp.get_num_threads()))
    runs = apart_runs(env, [("torch", "torch", env)])
    for name, (batch, target) in MLP_CASES.items():
        check_equal(np.asarray(_mlp_step_of("arrayx", batch)()),
                    _mlp_step_of("torch", batch)().numpy(), exact=False, atol=1e-6)
        median = medians_apart(__name__, name, runs, repeats, ROUNDS)
        out.append(apart_timing(name, median, target))
    out.append(_per_example(torch, repeats))
    ours, theirs = _peak_growth_apart("arrayx"), _peak_growth_apart("torch")
    print(f"  peak memory growth of a batch-4096 step: arrayx {ours / 2**20:.1f} MiB, "
          f"torch {theirs / 2**20:.1f} MiB, ratio {ours / max(theirs, 1):.2f} "
          f"(target: at most 1.2)")
    print(f"  tape objects alive after the step: {_tape_objects()}")
    return out

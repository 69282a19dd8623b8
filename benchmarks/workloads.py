"""Whole programs, written once against the array API standard, timed on several libraries.

``python -m benchmarks workloads [--rounds N] [--busy] [--libraries ...]`` runs every program of
``PROGRAMS`` on each library **in a process of its own**, the libraries alternating round after
round, so that no library's idle threads spin against another's; each cell is the median over
the rounds of each round's median time. The libraries:

- ``arrayx`` (its default threads) and ``arrayx-1`` (one kernel thread);
- ``numpy``: NumPy through ``array_api_compat.numpy``, at its default dispatch level and, on an
  AVX-512 CPU, also with ``NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR"``; the
  faster of the two is the reference (NumPy's AVX-512 sort is slower on some CPUs);
- ``torch``: PyTorch's CPU build through ``array_api_compat.torch``, where it is installed.

``--busy`` starts one busy-looping process beside the whole run (a shared machine). ``--json
FILE`` writes the run (``docs/_data/workloads.json`` for the documentation's table) and
``--plot FILE`` draws arrayx's ratios to NumPy and PyTorch (``docs/_static/workloads.png``).
A program a library cannot run (the autograd loop on NumPy, dask over PyTorch) shows ``-``.
Each child also returns a checksum of its program's result; the parent checks it against
NumPy's.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

LIBRARIES = ("arrayx", "arrayx-1", "numpy", "torch")
AVX512_OFF = "X86_V4 AVX512_ICL AVX512_SPR"


# --- the programs: make(rng) gives NumPy inputs, run(xp, ns, *inputs) the result -------------

def _logreg(xp: Any, ns: dict, X: Any, y: Any) -> Any:
    w = xp.zeros(X.shape[1], dtype=X.dtype)
    for _ in range(20):
        p = 1.0 / (1.0 + xp.exp(-(X @ w)))
        w = w - 0.1 * (X.mT @ (p - y)) / X.shape[0]
    return w


def _quantiles(xp: Any, ns: dict, M: Any) -> Any:
    s = xp.sort(M, axis=0)
    n = M.shape[0]
    return xp.stack([s[int(q * (n - 1)), :] for q in (0.1, 0.5, 0.9)])


def _ridge(xp: Any, ns: dict, X: Any, y: Any) -> Any:
    Z = (X - xp.mean(X, axis=0)) / xp.std(X, axis=0)
    G = Z.mT @ Z + 10.0 * xp.eye(Z.shape[1], dtype=Z.dtype)
    w = xp.linalg.solve(G, Z.mT @ y)
    return xp.linalg.vector_norm(Z @ w - y)


def _kmeans(xp: Any, ns: dict, X: Any, C: Any) -> Any:
    k = C.shape[0]
    for _ in range(10):
        d = xp.sum(X * X, axis=1)[:, None] - 2.0 * (X @ C.mT) + xp.sum(C * C, axis=1)[None, :]
        labels = xp.argmin(d, axis=1)
        onehot = xp.astype(labels[:, None] == xp.arange(k)[None, :], X.dtype)
        counts = xp.sum(onehot, axis=0)
        C = (onehot.mT @ X) / xp.maximum(counts, 1.0)[:, None]
    return C


def _mlp(xp: Any, ns: dict, X: Any, W1: Any, W2: Any, T: Any) -> Any:
    for _ in range(5):
        h = xp.tanh(X @ W1)
        out = h @ W2
        g_out = (out - T) / X.shape[0]
        g_W2 = h.mT @ g_out
        g_h = (g_out @ W2.mT) * (1.0 - h * h)
        g_W1 = X.mT @ g_h
        W1 = W1 - 0.01 * g_W1
        W2 = W2 - 0.01 * g_W2
    return W2


def _stencil(xp: Any, ns: dict, U: Any) -> Any:
    for _ in range(40):
        inner = 0.25 * (U[:-2, 1:-1] + U[2:, 1:-1] + U[1:-1, :-2] + U[1:-1, 2:])
        U = xp.concat([U[:1, :], xp.concat([U[1:-1, :1], inner, U[1:-1, -1:]], axis=1),
                       U[-1:, :]], axis=0)
    return xp.sum(U, axis=0)


def _expression(xp: Any, ns: dict, a: Any, b: Any) -> Any:
    r = xp.sqrt(a * a + b * b)
    r = xp.exp(-r) * xp.sin(3.0 * a) + xp.log1p(b) / (1.0 + a)
    return xp.sum(r)


def _matmul_loop(xp: Any, ns: dict, X: Any, W: Any) -> Any:
    acc = xp.zeros(W.shape[1], dtype=X.dtype)
    for _ in range(5):
        h = xp.tanh(X @ W) * 0.5 + 1.0
        acc = acc + xp.sum(h @ W.mT, axis=0)[: W.shape[1]]
    return acc


def _pca(xp: Any, ns: dict, X: Any) -> Any:
    Z = X - xp.mean(X, axis=0)
    cov = Z.mT @ Z / (X.shape[0] - 1)
    values, vectors = xp.linalg.eigh(cov)
    top = vectors[:, -10:]
    return xp.sum(xp.abs(Z @ top), axis=0)


def _attention(xp: Any, ns: dict, Q: Any, K: Any, V: Any) -> Any:
    s = (Q @ K.mT) / math.sqrt(Q.shape[-1])
    s = s - xp.max(s, axis=-1, keepdims=True)
    p = xp.exp(s)
    p = p / xp.sum(p, axis=-1, keepdims=True)
    return xp.sum(p @ V, axis=-2)


def _histogram(xp: Any, ns: dict, x: Any, edges: Any) -> Any:
    idx = xp.searchsorted(edges, x, side="right")
    values, counts = xp.unique_counts(idx)
    return xp.astype(counts, xp.float64)


def _autograd(xp: Any, ns: dict, X: Any, y: Any) -> Any:
    from array_api_compat import array_namespace
    grad = ns["grad"]

    def loss(w: Any) -> Any:
        xt = array_namespace(w)  # the traced namespace, as library code takes it
        r = xt.tanh(X @ w) - y
        return xt.sum(r * r) / X.shape[0]

    w = xp.zeros(X.shape[1], dtype=X.dtype)
    for _ in range(10):
        w = w - 0.5 * grad(loss)(w)
    return w


def _dask(xp: Any, ns: dict, a: Any) -> Any:
    import dask
    import dask.array as da
    d = da.from_array(a, chunks=a.shape[0] // 16, asarray=False)
    with dask.config.set(scheduler="threads", num_workers=2):
        return xp.asarray(float((da.exp(-d) * 2 + d).sum().compute()))


def _normal(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape)


def _logreg_data(rng: np.random.Generator) -> tuple:
    X = _normal(rng, 100_000, 100)
    return X, (X @ _normal(rng, 100) > 0).astype(np.float64)


def _kmeans_data(rng: np.random.Generator) -> tuple:
    X = _normal(rng, 200_000, 16)
    return X, X[:32].copy()


#: name: (program, its inputs from a generator). Inputs are made in the process that runs the
#: program, from the same seed in every process.
PROGRAMS: dict[str, tuple[Callable, Callable[[np.random.Generator], tuple]]] = {
    "logistic regression, 20 steps, 100k x 100": (_logreg, _logreg_data),
    "column quantiles: sort 2000 x 5000 along axis 0": (
        _quantiles, lambda rng: (_normal(rng, 2000, 5000),)),
    "ridge: standardise 50k x 300, Gram, solve, norm": (
        _ridge, lambda rng: (_normal(rng, 50_000, 300), _normal(rng, 50_000))),
    "k-means, 10 Lloyd steps, 200k x 16, 32 centres": (_kmeans, _kmeans_data),
    "MLP step with hand-written backward, batch 1024, x5": (
        _mlp, lambda rng: (_normal(rng, 1024, 512), _normal(rng, 512, 512) / 20,
                           _normal(rng, 512, 10) / 20, _normal(rng, 1024, 10))),
    "5-point stencil through slices, 2000 x 2000, 40 steps": (
        _stencil, lambda rng: (_normal(rng, 2000, 2000),)),
    "eight-step elementwise expression, 10^7 float64": (
        _expression, lambda rng: (rng.random(10**7), rng.random(10**7))),
    "tanh(X @ W) * 0.5 + 1, sum(h @ W.mT), 2048 x 512, x5": (
        _matmul_loop, lambda rng: (_normal(rng, 2048, 512), _normal(rng, 512, 512) / 20)),
    "PCA by eigh, 20000 x 200, top 10": (_pca, lambda rng: (_normal(rng, 20_000, 200),)),
    "softmax attention, 8 heads, 1024 x 64": (
        _attention, lambda rng: tuple(_normal(rng, 8, 1024, 64) for _ in range(3))),
    "histogram by searchsorted, 10^7 values, 100 bins": (
        _histogram, lambda rng: (rng.random(10**7), np.linspace(0.0, 1.0, 101))),
    "autograd loop, tanh regression, 10 steps, 50k x 100": (
        _autograd, lambda rng: (_normal(rng, 50_000, 100), _normal(rng, 50_000))),
    "dask exp(-d) * 2 + d, sum, 5*10^7 in 16 chunks, 2 workers": (
        _dask, lambda rng: (rng.random(5 * 10**7),)),
}


# --- one library in its own process ---------------------------------------------------------

def _namespace(library: str) -> tuple[Any, dict]:
    """The namespace of ``library`` and its extras (``grad`` where it has one)."""
    if library.startswith("arrayx"):
        import arrayx
        import arrayx.autograd
        if library == "arrayx-1":
            arrayx.set_num_threads(1)
        return arrayx, {"grad": arrayx.autograd.grad, "dask": True}
    if library == "numpy":
        import array_api_compat.numpy as xnp
        return xnp, {"dask": True}
    import array_api_compat.torch as xt
    import torch
    torch.set_default_dtype(torch.float64)
    return xt, {"grad": torch.func.grad}


def _checksum(xp: Any, result: Any) -> float:
    return float(xp.sum(xp.abs(xp.astype(result, xp.float64))))


def _prepared(xp: Any, ns: dict, name: str) -> Callable[[], tuple[float, Any]]:
    """Program ``name`` on ``xp`` with its inputs made and one warm-up run done: each call runs
    it again, waits until the work is done (lazy libraries, dask), and gives the seconds it
    took and the result."""
    fn, make = PROGRAMS[name]
    args = [xp.asarray(a) for a in make(np.random.default_rng(list(PROGRAMS).index(name)))]
    fn(xp, ns, *args)

    def run() -> tuple[float, Any]:
        t0 = time.perf_counter()
        result = fn(xp, ns, *args)
        _checksum(xp, result)
        return time.perf_counter() - t0, result
    return run


def child(library: str, names: list[str], reps: int) -> dict[str, list[float] | None]:
    """Time ``names`` on ``library`` in this process: the median of ``reps`` runs after a warm
    up, and the result's checksum; None where the library cannot run the program."""
    xp, ns = _namespace(library)
    out: dict[str, list[float] | None] = {}
    for name in names:
        fn, _ = PROGRAMS[name]
        if (fn is _autograd and "grad" not in ns) or (fn is _dask and "dask" not in ns):
            out[name] = None
            continue
        run = _prepared(xp, ns, name)
        runs = [run() for _ in range(reps)]
        out[name] = [statistics.median(t for t, _ in runs), _checksum(xp, runs[-1][1])]
    return out


def paired_child(names: list[str], runs: int) -> dict[str, list[float]]:
    """arrayx at its default thread count against one thread, in this one process, program by
    program: the two alternate (each going first in turn) ``runs`` times after a warm-up.
    Each program's two medians, and in how many of the pairs the default was faster."""
    xp, ns = _namespace("arrayx")
    default = xp.get_num_threads()
    out: dict[str, list[float]] = {}
    for name in names:
        run = _prepared(xp, ns, name)
        times: dict[int, list[float]] = {default: [], 1: []}
        for i in range(runs):
            for threads in ((default, 1) if i % 2 == 0 else (1, default)):
                xp.set_num_threads(threads)
                times[threads].append(run()[0])
        xp.set_num_threads(default)
        out[name] = [statistics.median(times[default]), statistics.median(times[1]),
                     sum(a < b for a, b in zip(times[default], times[1], strict=True))]
    return out


def report_paired(result: dict[str, list[float]], runs: int) -> str:
    """The table of ``paired_child``'s result."""
    rows = [["program", "default ms", "one thread ms", "default / 1 thread",
             "default faster"], ["---"] * 5]
    for name, (default, one, wins) in result.items():
        rows.append([name, f"{default * 1e3:.1f}", f"{one * 1e3:.1f}", f"{default / one:.2f}",
                     f"{int(wins)} of {runs}"])
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


# --- the parent: alternate the libraries, each round in fresh processes ------------------------

def _run_child(library: str, names: list[str], reps: int, env: dict) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.workloads", "--child", library, "--reps", str(reps),
           "--names", json.dumps(names)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{library}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _has_torch() -> bool:
    """Whether PyTorch and array-api-compat are installed (found, not imported: the parent
    process runs no library)."""
    from importlib.util import find_spec
    return find_spec("torch") is not None and find_spec("array_api_compat") is not None


def _avx512() -> bool:
    try:
        import numpy._core._multiarray_umath as mu
        return bool(mu.__cpu_features__.get("AVX512F"))
    except (ImportError, AttributeError):
        return False


def run_all(rounds: int, reps: int, libraries: list[str], names: list[str],
            busy: bool) -> dict[str, dict[str, float | None]]:
    """Median over ``rounds`` of each library's time per program (None: cannot run it)."""
    env = dict(os.environ)
    runs: list[tuple[str, dict]] = [(lib, env) for lib in libraries]
    if "numpy" in libraries and _avx512():
        runs.append(("numpy-avx2", dict(env, NPY_DISABLE_CPU_FEATURES=AVX512_OFF)))
    times: dict[str, dict[str, list]] = {lib: {n: [] for n in names} for lib, _ in runs}
    sums: dict[str, dict[str, float]] = {lib: {} for lib, _ in runs}
    from benchmarks.harness import busy as busy_process  # the parent only (children import
    # no arrayx where they run another library)
    with busy_process(busy):
        for _ in range(rounds):
            for lib, lib_env in runs:
                child_lib = "numpy" if lib == "numpy-avx2" else lib
                for name, value in _run_child(child_lib, names, reps, lib_env).items():
                    if value is not None:
                        times[lib][name].append(value[0])
                        sums[lib][name] = value[1]
    _check(sums, names)
    return {lib: {n: statistics.median(v) if v else None for n, v in per.items()}
            for lib, per in times.items()}


def _check(sums: dict[str, dict[str, float]], names: list[str]) -> None:
    """Every library's checksum within 1e-6 (relative) of NumPy's, or of arrayx's where NumPy
    does not run the program."""
    for name in names:
        ref = sums.get("numpy", {}).get(name, sums["arrayx"].get(name) if "arrayx" in sums
                                        else None)
        for lib, per in sums.items():
            if name in per and ref is not None and not math.isclose(per[name], ref,
                                                                    rel_tol=1e-6):
                raise AssertionError(f"{name}: {lib} gives {per[name]!r}, expected {ref!r}")


def report(result: dict[str, dict[str, float | None]], names: list[str]) -> str:
    """The table: each library's time in ms, then arrayx's ratio to NumPy's fastest level, to
    PyTorch, and of its default threads to its one thread."""
    def ms(v: float | None) -> str:
        return "-" if v is None else f"{v * 1e3:.1f}"

    def ratio(a: float | None, b: float | None) -> str:
        return "-" if a is None or b is None else f"{a / b:.2f}"

    libs = list(result)
    head = ["program", *[f"{lib} ms" for lib in libs], "/ numpy best", "/ torch",
            "default / 1 thread"]
    rows = [head, ["---"] * len(head)]
    for name in names:
        ax = result.get("arrayx", {}).get(name)
        best_np = best_numpy(result, name)
        rows.append([name, *[ms(result[lib].get(name)) for lib in libs], ratio(ax, best_np),
                     ratio(ax, result.get("torch", {}).get(name)),
                     ratio(ax, result.get("arrayx-1", {}).get(name))])
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def best_numpy(result: dict[str, dict[str, float | None]], name: str) -> float | None:
    """NumPy's faster time for ``name`` over its dispatch levels (None if it cannot run it)."""
    return min((v for v in (result.get("numpy", {}).get(name),
                            result.get("numpy-avx2", {}).get(name)) if v is not None),
               default=None)


def record(result: dict[str, dict[str, float | None]], names: list[str], rounds: int,
           reps: int, busy: bool) -> dict:
    """The run as plain data: when, where, the settings, and each library's seconds."""
    from datetime import datetime, timezone

    from benchmarks.harness import settings
    return {"measured": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "environment": settings(), "rounds": rounds, "reps": reps, "busy": busy,
            "programs": names, "seconds": result}


def plot(path: str, data: dict) -> None:
    """A horizontal bar chart of arrayx's time over NumPy's best and over PyTorch's."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names, seconds = data["programs"], data["seconds"]
    ax_t = [seconds["arrayx"].get(n) for n in names]
    series = [("/ NumPy (fastest level)", [best_numpy(seconds, n) for n in names]),
              ("/ PyTorch CPU", [seconds.get("torch", {}).get(n) for n in names])]
    fig, axes = plt.subplots(figsize=(9, 0.45 * len(names) + 1.5))
    height = 0.38
    for k, (label, ref) in enumerate(series):
        ratios = [a / r if a is not None and r is not None else 0.0 for a, r in zip(ax_t, ref,
                                                                                      strict=True)]
        axes.barh([i + (k - 0.5) * height for i in range(len(names))], ratios, height,
                  label=label)
    axes.axvline(1.0, color="black", linewidth=0.8)
    axes.set_yticks(range(len(names)), names, fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel("arrayx time / other library's time (below 1: arrayx is faster)")
    env = data["environment"]
    axes.set_title(f"whole programs, {env.get('cpu', '?')}, {data['measured']}\narrayx threads "
                   f"{env.get('arrayx threads', '?')}", fontsize=9)
    axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> None:
    """Run the workloads (or, with ``--child``, one library's share of a round)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks workloads")
    parser.add_argument("--child")
    parser.add_argument("--names")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--busy", action="store_true",
                        help="one busy-looping process beside the run")
    parser.add_argument("--libraries", default=",".join(LIBRARIES))
    parser.add_argument("--only", help="programs whose name contains this text")
    parser.add_argument("--paired", action="store_true",
                        help="arrayx's default threads against one thread, alternating in one "
                             "process (--rounds x --reps pairs)")
    parser.add_argument("--json", metavar="FILE", help="write the run's numbers to FILE")
    parser.add_argument("--plot", metavar="FILE", help="draw arrayx's ratios to FILE")
    args = parser.parse_args(argv)
    names = list(PROGRAMS)
    if args.child == "arrayx-paired":
        print(json.dumps(paired_child(json.loads(args.names), args.reps)))
        return
    if args.child:
        print(json.dumps(child(args.child, json.loads(args.names), args.reps)))
        return
    if args.only:
        names = [n for n in names if args.only in n]
    from benchmarks.harness import busy, describe_environment
    if args.paired:
        print(describe_environment())
        runs = args.rounds * args.reps
        print(f"workloads: arrayx's default threads against one thread, {runs} pairs in one "
              f"process{', one busy process beside' if args.busy else ''}\n")
        with busy(args.busy):
            result = _run_child("arrayx-paired", names, runs, dict(os.environ))
        print(report_paired(result, runs))
        return
    libraries = [lib for lib in args.libraries.split(",") if lib != "torch" or _has_torch()]
    print(describe_environment())
    print(f"workloads: {args.rounds} rounds of {args.reps} runs, each library in its own "
          f"process{', one busy process beside' if args.busy else ''}\n")
    result = run_all(args.rounds, args.reps, libraries, names, args.busy)
    print(report(result, names))
    data = record(result, names, args.rounds, args.reps, args.busy)
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    if args.plot:
        plot(args.plot, data)


if __name__ == "__main__":
    main()

"""Several Python threads on shared arrays while another changes the kernel thread count.

Every result must equal the one computed on a single thread beforehand: the kernels release
the GIL, read the thread count once per parallel region, and a float sum rounds the same on
any number of threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np
import pytest
from conftest import churn_thread_count

import arrayx as xp

N = 1 << 20  # above the parallel threshold (2^18 elements)


@pytest.fixture
def restore_threads():
    threads = xp.get_num_threads()
    yield
    xp.set_num_threads(threads)


def test_threads_on_shared_arrays_while_the_thread_count_changes(restore_threads) -> None:
    rng = np.random.default_rng(7)
    x = xp.asarray(rng.standard_normal(N))
    y = xp.asarray(rng.standard_normal(N))
    m = xp.reshape(x, (1024, 1024))
    ops: list[Callable[[], object]] = [
        lambda: xp.sum(x), lambda: xp.sum(m, axis=0), lambda: xp.max(m, axis=1),
        lambda: x + y, lambda: xp.exp(y[::2]), lambda: m.mT + 1.0, lambda: xp.argmax(x),
        lambda: xp.cumulative_sum(x[: N // 4]), lambda: xp.sort(x[: N // 8]),
        lambda: x[xp.asarray(np.arange(0, N, 7))], lambda: xp.where(x > 0, x, y),
        lambda: xp.std(m, axis=1), lambda: xp.astype(x, xp.float32),
    ]
    xp.set_num_threads(1)
    want = [np.asarray(op()).copy() for op in ops]
    stop = time.monotonic() + 3.0
    errors: list[str] = []

    def work(seed: int) -> None:
        k = seed
        while time.monotonic() < stop:
            i = k % len(ops)
            got = np.asarray(ops[i]())
            if not np.array_equal(got, want[i]):
                errors.append(f"op {i} differs")
                return
            k += 1

    workers = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    changer = threading.Thread(target=churn_thread_count, args=(stop, 0.0005))
    for t in workers + [changer]:
        t.start()
    for t in workers + [changer]:
        t.join()
    assert not errors, errors
    # x and y were only read.
    np.testing.assert_array_equal(np.asarray(x + 0.0), np.asarray(x))


def test_writers_on_disjoint_views_of_one_array(restore_threads) -> None:
    xp.set_num_threads(2)
    base = xp.zeros((4, N // 4))
    src = xp.asarray(np.arange(N // 4, dtype=np.float64))

    def fill(row: int) -> None:
        for _ in range(20):
            base[row, ...] = src * row
            base[row, ::2] = src[::2] * row + 1.0

    threads = [threading.Thread(target=fill, args=(r,)) for r in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    want = np.arange(4.0)[:, None] * np.arange(N // 4)
    want[:, ::2] += 1.0
    np.testing.assert_array_equal(np.asarray(base), want)


@pytest.mark.parametrize(("n", "error"), [(0, ValueError), (-1, ValueError),
                                          (10**6, ValueError), (2**64, ValueError),
                                          (1.5, TypeError), (True, TypeError), ("2", TypeError)])
def test_bad_thread_counts(n: object, error: type, restore_threads) -> None:
    with pytest.raises(error):
        xp.set_num_threads(n)


def test_thread_count_and_default_device_set_from_many_threads(restore_threads) -> None:
    # Several Python threads set the thread count and the default device while others read
    # them and create and reduce arrays: every read is a value some thread set, and every
    # result is right.
    from arrayx import _devices

    counts = (1, 2, 3)
    stop = time.monotonic() + 1.5
    problems: list[str] = []
    x = xp.asarray(np.arange(N, dtype=np.float64))
    want = float(np.arange(N, dtype=np.float64).sum())

    def setter(k: int) -> None:
        i = k
        while time.monotonic() < stop:
            xp.set_num_threads(counts[i % len(counts)])
            _devices.set_default_device("cpu" if i % 2 else xp.Device("cpu"))
            i += 1

    def reader() -> None:
        info = xp.__array_namespace_info__()
        while time.monotonic() < stop:
            if xp.get_num_threads() not in counts:
                problems.append(f"thread count {xp.get_num_threads()}")
            if info.default_device() != "cpu" or xp.zeros(3).device != "cpu":
                problems.append("default device")
            if float(xp.sum(x)) != want:
                problems.append("sum")

    xp.set_num_threads(1)
    threads = [threading.Thread(target=setter, args=(k,)) for k in range(3)]
    threads += [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not problems, problems[:5]
    _devices.set_default_device("cpu")


# --- arrayx's own thread pool: fork, concurrent jobs, the default count -----------------------

FORK_SCRIPT = """
import os, sys
import numpy as np
import arrayx as xp
xp.set_num_threads(2)
a = np.random.default_rng(3).random(1 << 21)
x = xp.asarray(a)
expected = float(xp.sum(xp.exp(x)))  # the pool's workers start in the parent
pid = os.fork()
if pid == 0:
    # The child has no workers of its parent's: its own pool must start and finish the job.
    ok = float(xp.sum(xp.exp(x))) == expected and bool(xp.all(xp.exp(x) == xp.exp(x)))
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status), float(xp.sum(xp.exp(x))) == expected)
"""


def test_the_pool_works_in_a_forked_child() -> None:
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", FORK_SCRIPT], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["0", "True"]


def test_parallel_jobs_from_many_python_threads_at_once(restore_threads) -> None:
    # One job holds the pool; the others run on their callers. Every result is exact.
    xp.set_num_threads(2)
    rng = np.random.default_rng(11)
    arrays = [rng.random(N) for _ in range(6)]
    # exp as arrayx computes it on one thread (its bits), checked against NumPy's once.
    xp.set_num_threads(1)
    exps = [np.asarray(xp.exp(xp.asarray(a))) for a in arrays]
    xp.set_num_threads(2)
    for e, a in zip(exps, arrays, strict=True):
        np.testing.assert_allclose(e, np.exp(a), rtol=1e-15, atol=0)
    expected = [(e, a.argmax(), np.sort(a)[::-1][:3]) for e, a in zip(exps, arrays, strict=True)]
    errors: list[str] = []

    def work(k: int) -> None:
        x = xp.asarray(arrays[k])
        for _ in range(5):
            e, am, top = expected[k]
            if not np.array_equal(np.asarray(xp.exp(x)), e):
                errors.append(f"exp {k}")
            if int(xp.argmax(x)) != am:
                errors.append(f"argmax {k}")
            if not np.array_equal(np.asarray(xp.take(x, xp.argsort(x)[::-1][:3])), top):
                errors.append(f"argsort {k}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.parametrize(("env", "expected"), [
    ({"OMP_NUM_THREADS": "3"}, "3"),
    ({"OMP_NUM_THREADS": "3,2"}, "3"),
    ({"OMP_NUM_THREADS": "3", "ARRAYX_NUM_THREADS": "5"}, "5"),
])
def test_default_thread_count_from_the_environment(env: dict, expected: str) -> None:
    import os
    import subprocess
    import sys
    base = {k: v for k, v in os.environ.items()
            if k not in ("OMP_NUM_THREADS", "ARRAYX_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", "import arrayx; print(arrayx.get_num_threads())"],
                         capture_output=True, text=True, check=True, env={**base, **env})
    assert out.stdout.strip() == expected


def test_default_thread_count_is_the_cores_this_process_may_use() -> None:
    import os
    import subprocess
    import sys
    base = {k: v for k, v in os.environ.items()
            if k not in ("OMP_NUM_THREADS", "ARRAYX_NUM_THREADS")}
    script = "import os, arrayx; print(arrayx.get_num_threads(), len(os.sched_getaffinity(0)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env=base).stdout.split()
    assert out[0] == out[1]

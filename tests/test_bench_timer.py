"""``arrayx._bench.alternate``, the timer behind ``compare`` and the benchmarks' ratios: it
warms both callables, then times them in alternating repeats (no timing is asserted)."""

from __future__ import annotations

import gc
import itertools
import time

import pytest

from arrayx import _bench


@pytest.fixture
def one_warm_call(monkeypatch) -> None:
    """Warm-up of a single call, so that the order of the timed calls can be read."""
    monkeypatch.setattr(_bench, "WARM_CALLS", 1)
    monkeypatch.setattr(_bench, "WARM_NS", 0)


def test_alternate_warms_then_interleaves_the_repeats(monkeypatch, one_warm_call) -> None:
    calls: list[str] = []
    monkeypatch.setattr(_bench, "calibrate", lambda fn: 2)
    first, second = _bench.alternate(lambda: calls.append("a"), lambda: calls.append("b"), 3)
    assert calls == ["a", "b"] + ["a", "a", "b", "b"] * 3
    assert first > 0 and second > 0


def test_alternate_restores_the_garbage_collector() -> None:
    assert gc.isenabled()
    _bench.alternate(lambda: None, lambda: None, 1)
    assert gc.isenabled()
    gc.disable()
    try:
        _bench.alternate(lambda: None, lambda: None, 1)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_timed_warms_then_repeats(monkeypatch, one_warm_call) -> None:
    calls: list[str] = []
    monkeypatch.setattr(_bench, "calibrate", lambda fn: 3)
    assert _bench.timed(lambda: calls.append("a"), 2) > 0
    assert calls == ["a"] * (1 + 3 * 2)


@pytest.mark.parametrize(("step_ms", "calls"), [(1, 50), (10, 10), (100, 3)])
def test_warm_up_lasts_ten_calls_and_50_ms_or_300_ms(monkeypatch, step_ms, calls) -> None:
    # A clock that moves step_ms at each reading: one reading at the start, one per call.
    clock = itertools.count(0, step_ms * 1_000_000)
    monkeypatch.setattr(time, "perf_counter_ns", lambda: next(clock))
    made: list[int] = []
    _bench._warm(lambda: made.append(1))
    assert len(made) == calls


def test_paired_threads_times_arrayx_on_its_threads_against_one_thread(monkeypatch,
                                                                        one_warm_call) -> None:
    import numpy as np

    import arrayx

    monkeypatch.setattr(_bench, "calibrate", lambda fn: 2)
    monkeypatch.setattr(_bench, "_pairing", {"threads": False})
    before = arrayx.get_num_threads()
    arrayx.set_num_threads(3)
    seen: list[int] = []

    def ours():
        seen.append(arrayx.get_num_threads())
        return arrayx.asarray([1.0])
    try:
        _bench.pair_threads()
        assert _bench.paired_threads()
        t = _bench.compare("case", ours, lambda: np.asarray([1.0]), repeats=2, target=0.5)
        assert arrayx.get_num_threads() == 3
        # The check against NumPy still runs first, and refuses a wrong result.
        with pytest.raises(AssertionError, match="disagree"):
            _bench.compare("case", ours, lambda: np.asarray([2.0]), repeats=2)
    finally:
        arrayx.set_num_threads(before)
    assert seen[:3] == [3, 3, 1]  # the check's call, then one warm-up call on each count
    assert seen[3:-1] == [3, 3, 1, 1] * 2
    assert t.target == _bench.THREADS_TARGET and t.arrayx > 0 and t.numpy > 0

"""``arrayx._bench.alternate``, the timer behind ``compare`` and the benchmarks' ratios: it
warms both callables, then times them in alternating repeats (no timing is asserted)."""

from __future__ import annotations

import gc

from arrayx import _bench


def test_alternate_warms_then_interleaves_the_repeats(monkeypatch) -> None:
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


def test_timed_warms_then_repeats(monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(_bench, "calibrate", lambda fn: 3)
    assert _bench.timed(lambda: calls.append("a"), 2) > 0
    assert calls == ["a"] * (1 + 3 * 2)

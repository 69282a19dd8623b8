"""Strict mode: the extensions hide, the lenient calls raise naming the standard's rule, and
everything comes back when it is switched off."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

import arrayx as xp


@pytest.fixture
def strict() -> Iterator[None]:
    xp.set_strict_flags(strict=True)
    try:
        yield
    finally:
        xp.reset_strict_flags()


@pytest.mark.parametrize("call, rule", [
    (lambda: xp.diff(xp.asarray([1, 4, 9]), 2), "keyword-only"),
    (lambda: xp.sum(xp.asarray([True, False])), "unspecified"),
    (lambda: xp.cumulative_sum(xp.asarray([True, False])), "unspecified"),
    (lambda: xp.pad, "arrayx extension"),
    (lambda: xp.nanmean, "arrayx extension"),
    (lambda: float(xp.asarray([1.0])), "0-d arrays only"),
    (lambda: xp.asarray([1, 2]).__setitem__(0, 1.5), "promotes to the array's"),
    (lambda: xp.asarray([1, 2]).__setitem__(slice(None), [3, 4]), "promotes to the array's"),
    (lambda: xp.asarray([1.0]).sum(), "no NumPy methods"),
    (lambda: xp.logical_or(xp.asarray([1.0]), xp.asarray([0.0])), "bool arrays only"),
    (lambda: xp.where(xp.asarray([True])), "condition and two values"),
])
def test_strict_mode_errors_name_the_rule(strict: None, call, rule: str) -> None:
    with pytest.raises((TypeError, AttributeError), match=rule) as info:
        call()
    assert "data-apis.org/array-api" in str(info.value)


def test_strict_mode_keeps_the_standard(strict: None) -> None:
    x = xp.asarray([1, 4, 9])
    assert xp.diff(x, n=2).__array__().tolist() == [2]
    assert int(xp.sum(xp.asarray([True, True]), dtype=xp.int64)) == 2
    assert "pad" not in xp.__all__ and "sum" in xp.__all__
    assert not hasattr(xp, "nansum")
    assert xp.get_strict_flags()["strict"]


def test_strict_mode_switches_back() -> None:
    xp.set_strict_flags(strict=True)
    xp.set_strict_flags(strict=False)
    assert "pad" in xp.__all__ and xp.pad is not None
    assert int(xp.sum(xp.asarray([True, True]))) == 2
    assert int(np.sum(xp.asarray([1, 2]))) == 3


@pytest.mark.parametrize("flag", ["boolean_indexing", "data_dependent_shapes"])
def test_boolean_indexing_and_data_dependent_shapes_flags(flag: str) -> None:
    x = xp.asarray([1.0, -1.0, 2.0])
    xp.set_strict_flags(**{flag: False})
    try:
        with pytest.raises(IndexError, match="boolean array indexing"):
            x[x > 0]
        if flag == "data_dependent_shapes":
            with pytest.raises(TypeError, match="depend on the data"):
                xp.unique_values(x)
            with pytest.raises(TypeError, match="depend on the data"):
                xp.nonzero(x)
        else:
            assert xp.unique_values(x).shape == (3,)
    finally:
        xp.reset_strict_flags()
    assert x[x > 0].shape == (2,)
    assert len(xp.nonzero(x)) == 1


def test_the_environment_variable_turns_strict_mode_on() -> None:
    code = "import arrayx as xp; print(xp.get_strict_flags()['strict'], hasattr(xp, 'pad'))"
    env = {**os.environ, "ARRAYX_STRICT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "False"]

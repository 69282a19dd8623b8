"""Long 1-D ``fft``/``ifft`` by the four-step algorithm (``arrayx/fft/_four_step.py``): against
NumPy's single pocketfft transform (a different algorithm, so a shared error would have to be
made twice) and against transforms known in closed form, on one and on two threads."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from conftest import fft_errors_from_threads, to_np

import arrayx as xp
from arrayx.fft import _four_step

# Lengths the four-step path takes: a power of two, one with a factor 3, sides 256 x 320.
LENGTHS = [1 << 16, 3 << 17, 81920]
TOLERANCE = {np.complex128: 1e-13, np.complex64: 3e-6}


@pytest.fixture
def threads():
    before = xp.get_num_threads()
    yield
    xp.set_num_threads(before)


def _signal(n: int, dtype) -> np.ndarray:
    rng = np.random.default_rng(n)
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)


def test_split_takes_the_divisor_pair_nearest_the_square_root() -> None:
    assert _four_step.split(1 << 20) == (1024, 1024)
    assert _four_step.split(3 << 17) == (512, 768)
    assert _four_step.split(81920) == (256, 320)
    assert _four_step.split(1_000_003) is None  # a prime
    assert _four_step.split(2 * 1_000_003) is None  # no pair of sides of 64 or more


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
@pytest.mark.parametrize("name", ["fft", "ifft"])
def test_matches_numpy_on_one_and_two_threads(n, dtype, norm, name, threads) -> None:
    a = _signal(n, dtype)
    want = getattr(np.fft, name)(a, norm=norm)
    results = []
    for count in (1, 2):
        xp.set_num_threads(count)
        got = getattr(xp.fft, name)(xp.asarray(a), norm=norm)
        assert got.dtype == want.dtype and got.shape == want.shape
        results.append(to_np(got))
        err = np.max(np.abs(results[-1] - want)) / np.max(np.abs(want))
        assert err < TOLERANCE[dtype], (count, err)
    # The threads split whole rows: the same arithmetic, the same bits.
    np.testing.assert_array_equal(results[0], results[1])


@pytest.mark.parametrize("name", ["fft", "ifft"])
def test_a_pure_tone_is_one_spike(name) -> None:
    # exp(+-2 pi i f j / n) transforms to n at frequency f and 0 elsewhere.
    n, f = 1 << 16, 12345
    sign = -1 if name == "fft" else 1
    tone = np.exp(-sign * 2j * np.pi * ((f * np.arange(n)) % n) / n)
    got = to_np(getattr(xp.fft, name)(xp.asarray(tone), norm="forward" if name == "fft"
                                      else "backward"))
    want = np.zeros(n, complex)
    want[f] = 1.0
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_strided_input_and_the_inverse_round_trip() -> None:
    a = _signal(1 << 17, np.complex128)
    x = xp.asarray(a)[::2]
    spectrum = xp.fft.fft(x)
    np.testing.assert_allclose(to_np(spectrum), np.fft.fft(a[::2]), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(to_np(xp.fft.ifft(spectrum)), a[::2], atol=1e-13)


FORK_SCRIPT = """
import os
import numpy as np
import arrayx as xp
xp.set_num_threads(2)
a = np.exp(2j * np.pi * np.random.default_rng(5).random(1 << 16))
x = xp.asarray(a, device="cpu")
expected = np.asarray(xp.fft.fft(x))  # the transform's threads start in the parent
pid = os.fork()
if pid == 0:
    ok = np.array_equal(np.asarray(xp.fft.fft(x)), expected)
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""


def test_the_transform_threads_work_in_a_forked_child() -> None:
    out = subprocess.run([sys.executable, "-c", FORK_SCRIPT], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["0"]


def test_callers_in_several_threads_while_the_thread_count_changes() -> None:
    # The worker pool is shared and the thread count process-wide: a caller that replaced the
    # pool for its own count shut down one another caller was about to submit to.
    rng = np.random.default_rng(5)
    a = rng.standard_normal(1 << 17) + 1j * rng.standard_normal(1 << 17)
    errors = fft_errors_from_threads(xp.asarray(a), np.fft.fft(a), 3.0, churn=True)
    assert not errors, errors[:3]

"""The parallel elementwise and copy paths against NumPy, on 1 and on 2 kernel threads.

Operations of at least 2^18 elements (``PARALLEL_MIN`` in ``_kernels/cpu/iterate.pyx``) are
cut into blocks spread over the threads; a transposed operand is walked in 64 x 64 tiles, and
an input of another dtype is cast in buffers as the loop goes. Each case here is above the
threshold, and its result must equal NumPy's exactly (arithmetic and casts round the same)
on one thread and on two. An op that costs more than ``add`` per element (``ops.COST``) goes
parallel from ``PARALLEL_MIN / cost`` elements, in units that much smaller; those cases are
checked against themselves on one thread.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import arrayx as xp

PARALLEL_MIN = 1 << 18
RNG = np.random.default_rng(11)
# Odd sides, so blocks and tiles do not divide them.
F64 = RNG.standard_normal((1031, 1029))
F32 = RNG.standard_normal((1029, 1031)).astype(np.float32)
I32 = RNG.integers(-1000, 1000, (1031, 1029), dtype=np.int32)
U8 = RNG.integers(0, 255, (1029, 1031), dtype=np.uint8)
C64 = (RNG.standard_normal((1031, 1029)) + 1j * RNG.standard_normal((1031, 1029))).astype(
    np.complex64)
WIDE = RNG.standard_normal((17, 70001))  # rows longer than a block: column blocks
CUBE = RNG.standard_normal((97, 101, 103))
# Per-example outer products: blocks of 19 x 63 elements, taken several to a unit.
COLS = RNG.standard_normal((467, 19, 1))
ROWS = RNG.standard_normal((467, 1, 63))
# Between 2^18 and 2^19 elements: parallel since the threshold came down to 2^18.
MID = RNG.standard_normal(300_007)

Case = Callable[[object, dict], object]


def _assign(target: object, value: object) -> object:
    target[...] = value
    return target


# name -> f(namespace, arrays): one expression, run with NumPy (2.x has the standard's names)
# and with arrayx.
CASES: dict[str, Case] = {
    "contiguous add": lambda m, a: a["F64"] + a["F64"] * 2.0,
    "transposed operand (tiled)": lambda m, a: a["F64"].mT - a["F32"],
    "cast int32 + float32 (buffered)": lambda m, a: a["I32"] + m.astype(a["F64"], m.float32),
    "cast uint8 into a transposed float64": lambda m, a: a["U8"] * a["F64"].mT,
    "complex64 + complex128 (buffered)": lambda m, a: a["C64"] + 1j * a["F64"],
    "column blocks": lambda m, a: a["WIDE"] * a["WIDE"] + 1.0,
    "permuted 3-d": lambda m, a: m.permute_dims(a["CUBE"], (2, 0, 1)) * 3.0,
    "small blocks, many to a unit": lambda m, a: a["COLS"] * a["ROWS"] - a["COLS"],
    "negative strides": lambda m, a: m.flip(a["F64"]) - a["F64"],
    "just above the threshold": lambda m, a: a["MID"] * 3.0 - a["MID"],
    "astype of a transposed view": lambda m, a: m.astype(a["F64"].mT, m.float32),
    "copy into a strided view": lambda m, a: _assign(m.zeros((1031, 2058))[:, ::2], a["F64"]),
    "copy with a cast into a transposed view": lambda m, a: _assign(
        m.zeros((1029, 1031)).mT, a["I32"]),
}


def _arrays(lib: object) -> dict[str, object]:
    src = {"F64": F64, "F32": F32, "I32": I32, "U8": U8, "C64": C64, "WIDE": WIDE,
           "CUBE": CUBE, "COLS": COLS, "ROWS": ROWS, "MID": MID}
    return src if lib is np else {k: xp.asarray(v) for k, v in src.items()}


@pytest.fixture
def threads():
    before = xp.get_num_threads()
    yield
    xp.set_num_threads(before)


@pytest.mark.parametrize("name", sorted(CASES))
def test_parallel_path_equals_numpy_on_one_and_two_threads(name: str, threads) -> None:
    want = np.asarray(CASES[name](np, _arrays(np)))
    assert want.size >= PARALLEL_MIN
    arrays = _arrays(xp)
    results = []
    for n in (1, 2):
        xp.set_num_threads(n)
        got = CASES[name](xp, arrays)
        res = np.asarray(got)
        assert res.dtype == want.dtype, (name, n, res.dtype, want.dtype)
        assert res.shape == want.shape
        np.testing.assert_array_equal(res, want, err_msg=f"{name} on {n} threads")
        results.append(res.copy())
    np.testing.assert_array_equal(results[0], results[1])


@pytest.mark.parametrize("name", ["sin", "exp", "sqrt", "atan2", "tan"])
def test_costly_ops_go_parallel_sooner_with_the_same_result(name: str, threads) -> None:
    from arrayx._kernels.ops import COST

    cost = COST[name]
    # Above PARALLEL_MIN / cost elements (parallel), odd sides, a transposed operand (tiles).
    side = int((1.5 * PARALLEL_MIN / cost) ** 0.5) | 1
    assert PARALLEL_MIN // cost < side * side < PARALLEL_MIN
    data = RNG.uniform(0.1, 0.9, (side, side + 2))[:, :side]
    a = xp.asarray(data)
    fn = getattr(xp, name)
    results = []
    for n in (1, 2):
        xp.set_num_threads(n)
        got = fn(a.mT, a) if name == "atan2" else fn(a.mT)
        results.append(np.asarray(got).copy())
    np.testing.assert_array_equal(results[0], results[1])
    want = getattr(np, "arctan2" if name == "atan2" else name)(
        *((data.T, data) if name == "atan2" else (data.T,)))
    np.testing.assert_allclose(results[1], want, rtol=4e-16, atol=0)

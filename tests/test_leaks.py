"""Error paths free what they allocated: each call below allocates about a megabyte or more
before it fails (or hands memory to a capsule that is dropped), and a few hundred calls must
not grow the process's resident memory by more than a fraction of what a leak would add.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable

import numpy as np
import pytest

import arrayx as xp

pytestmark = [
    pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                       reason="resident memory is read from /proc (Linux)"),
    # AddressSanitizer keeps freed memory in quarantine (256 MiB), so resident memory says
    # nothing there; its own reports cover the memory errors.
    pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                       reason="under AddressSanitizer freed memory stays resident"),
]

N = 1 << 17  # 1 MiB of float64
ROUNDS = 300


def _resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _bad_capsule_producer() -> object:
    class Producer:
        def __dlpack__(self, **kwargs: object) -> object:
            # A valid capsule of a fresh array, then a device arrayx refuses after consuming.
            return xp.ones(N).__dlpack__(max_version=(1, 0))

        def __dlpack_device__(self) -> tuple:
            return (1, 0)

    return Producer()


def _ragged_tail() -> list:
    return [[1.0] * 64 for _ in range(N // 64)] + [[1.0]]


BIG = xp.zeros(N)
BAD_INDEX = xp.asarray(np.r_[np.zeros(N - 1, np.int64), [N]])
CALLS: dict[str, Callable[[], object]] = {
    "index out of range at the end": lambda: BIG[BAD_INDEX],
    "set through an index out of range": lambda: BIG.__setitem__(BAD_INDEX, 1.0),
    "asarray with a bad last leaf": lambda: xp.asarray([0.0] * (N - 1) + ["x"]),
    "asarray ragged at the end": lambda: xp.asarray(_ragged_tail()),
    "value of the wrong shape": lambda: BIG.__setitem__(xp.asarray([0, 1]), xp.ones(N)),
    "concat of mismatched shapes": lambda: xp.concat([xp.ones((N, 2)), xp.ones((N, 3))]),
    "export then drop the capsule": lambda: xp.ones(N).__dlpack__(max_version=(1, 0)),
    "export legacy then drop it": lambda: xp.ones(N).__dlpack__(),
    "import, then refused by device": lambda: xp.from_dlpack(_bad_capsule_producer(),
                                                             device="cuda:0"),
    "pickle with short data": lambda: xp.zeros(1).__reduce__()[0](b"\0" * N, (N + 1,), "<f8"),
    "reshape that needs a copy, copy=False": lambda: xp.reshape(BIG[::2], (-1, 2), copy=False),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_error_paths_do_not_leak(name: str) -> None:
    call = CALLS[name]

    def run(k: int) -> None:
        for _ in range(k):
            try:
                call()
            except (TypeError, ValueError, IndexError):
                pass
        gc.collect()

    run(20)  # warm up allocator pools and caches
    before = _resident_bytes()
    run(ROUNDS)
    grown = _resident_bytes() - before
    # A leak of the ~1 MiB each call allocates would add ~300 MiB.
    assert grown < 48 * 2**20, f"{name}: resident memory grew by {grown / 2**20:.0f} MiB"

"""Freed large buffers are reused: fresh memory costs the OS's page zeroing on first touch.

Up to eight buffers of 128 KiB or more (256 MiB in all) wait for a request they fit with at
most a quarter to spare; zero-filled requests never take one (they get fresh, zeroed memory).
"""

import numpy as np
import pytest

import arrayx as xp
from arrayx._core import storage

pytestmark = pytest.mark.skipif(
    not storage.REUSE, reason="the sanitizer build gives every buffer its exact size, fresh")

BIG = 1 << 20  # float64 elements: 8 MiB


def address(a: xp.Array) -> int:
    return np.asarray(a).__array_interface__["data"][0]


def test_a_freed_large_buffer_serves_the_next_request_of_its_size() -> None:
    x_np = np.linspace(-5.0, 5.0, BIG)
    x = xp.asarray(x_np)
    y = xp.exp(x)
    where = address(y)
    del y
    assert storage.cached_bytes() >= 8 * BIG
    z = xp.exp(x)
    assert address(z) == where
    np.testing.assert_allclose(np.asarray(z), np.exp(x_np), rtol=1e-15)


def test_a_freed_mid_size_buffer_serves_the_next_request_of_its_size() -> None:
    # 10^5 float64 (800 KB): above glibc's threshold for a mapping of its own, so without the
    # cache each temporary of a chain would be fresh pages from the system.
    x_np = np.linspace(0.0, 1.0, 100_000)
    x = xp.asarray(x_np)
    y = xp.exp(x)
    where = address(y)
    del y
    assert storage.cached_bytes() >= 800_000
    z = xp.exp(x)
    assert address(z) == where
    np.testing.assert_allclose(np.asarray(z), np.exp(x_np), rtol=1e-15)


def test_zero_filled_requests_get_zeros_after_reuse() -> None:
    x = xp.full(BIG, 7.0)
    del x
    z = xp.zeros(BIG)
    assert not np.asarray(z).any()


def test_small_and_oversized_fits_are_not_reused() -> None:
    a = xp.empty(BIG)
    where = address(a)
    del a
    small = xp.empty(BIG // 2)  # a 4 MiB request does not take the 8 MiB buffer
    assert address(small) != where
    big = xp.empty(BIG + BIG // 8)  # 12.5% more than the cached buffer: it does not fit
    assert address(big) != where


def test_the_cache_stays_bounded() -> None:
    arrays = [xp.empty(8 * BIG) for _ in range(8)]  # 64 MiB each
    del arrays
    assert storage.cached_bytes() <= 256 << 20


def test_a_full_cache_makes_room_for_the_newest_buffer() -> None:
    # Eight buffers of sizes no longer used fill the slots; a buffer freed after them is kept
    # (the oldest one goes), so a loop on a new size still gets its buffer back.
    stale = [xp.empty(BIG * k // 4) for k in (2, 3, 5, 7, 11, 13, 17, 19)]
    del stale
    x = xp.empty(BIG * 23)
    where = address(x)
    del x
    kept = storage.cached_bytes()
    again = xp.empty(BIG * 23)
    assert kept - storage.cached_bytes() >= 8 * BIG * 23
    assert address(again) == where
    assert kept <= 256 << 20


RESIDENT_SCRIPT = """
import ctypes, mmap
import numpy as np
import arrayx as xp

libc = ctypes.CDLL(None, use_errno=True)
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
PAGE = mmap.PAGESIZE

def resident_pages(a):
    start = np.asarray(a).ctypes.data
    first = start - start % PAGE
    n = (start + np.asarray(a).nbytes - first + PAGE - 1) // PAGE
    vec = ctypes.create_string_buffer(n)
    assert libc.mincore(first, n * PAGE, vec) == 0, ctypes.get_errno()
    return sum(b & 1 for b in vec.raw)

# Dirty heap memory of the same size, freed below a live block so that the heap cannot shrink
# (freeing a first mapping of that size makes glibc serve the size from its heap): calloc would
# take it back and clear every byte.
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
SIZE = (8 << 20) + 64
libc.free(libc.malloc(SIZE))
dirty = libc.malloc(SIZE)
ctypes.memset(dirty, 7, SIZE)
pin = libc.malloc(1 << 20)
libc.free(dirty)
z = xp.zeros(1 << 20)
print(resident_pages(z), (z.size * 8) // PAGE)
"""


def test_zeros_touches_no_page() -> None:
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", RESIDENT_SCRIPT], capture_output=True,
                         text=True, check=True).stdout.split()
    resident, pages = int(out[0]), int(out[1])
    assert resident <= pages // 64, f"zeros of 8 MiB made {resident} of {pages} pages resident"

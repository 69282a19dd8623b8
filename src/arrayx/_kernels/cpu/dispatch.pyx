"""The CPU's ISA level and the kernel tables compiled for it.

The hot kernels are built once per level (``ax_level.cpp``): the x86-64 baseline, AVX2 (with
FMA; x86-64-v3) and AVX-512 (x86-64-v4), each level leaving out what the compiler could not
build. At import the best level that both the CPU and the build have is chosen, as NumPy's CPU
dispatch chooses its loops; ``ARRAYX_CPU_LEVEL`` caps it (``baseline``, ``avx2`` or
``avx512``), so every level can be tested on one machine.
"""
import os

from libc.stdlib cimport malloc

cdef extern from "ax_dispatch.hpp" namespace "ax" nogil:
    int NLEVELS
    bint level_built(int level)
    bint level_supported(int level)
    void fill_kernel_set(int level, KernelSet* k)

LEVELS = ("baseline", "avx2", "avx512")


def _cap() -> int:
    value = os.environ.get("ARRAYX_CPU_LEVEL")
    if value is None or value == "":
        return NLEVELS - 1
    if value not in LEVELS:
        raise ValueError(f"ARRAYX_CPU_LEVEL must be one of {', '.join(LEVELS)}; got {value!r}")
    return LEVELS.index(value)


def built_levels() -> tuple:
    """The names of the levels this build holds, lowest first."""
    return tuple(name for i, name in enumerate(LEVELS) if level_built(i))


def supported_levels() -> tuple:
    """The names of the levels this build holds and this CPU runs, lowest first."""
    return tuple(name for i, name in enumerate(LEVELS) if level_built(i) and level_supported(i))


cdef int _choose(int cap):
    cdef int level = cap
    while level > 0 and not (level_built(level) and level_supported(level)):
        level -= 1
    return level


cdef int active_level = _choose(_cap())
kernels = <KernelSet*>malloc(sizeof(KernelSet))
if kernels == NULL:
    raise MemoryError("cannot allocate arrayx's kernel tables")
fill_kernel_set(active_level, kernels)


def level() -> str:
    """The name of the level whose kernels run."""
    return LEVELS[active_level]

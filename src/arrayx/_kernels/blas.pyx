# cython: language_level=3
"""BLAS and LAPACK from one ILP64 OpenBLAS, the one NumPy itself calls, bound at run time.

NumPy's wheels bundle ``scipy-openblas64`` (OpenBLAS with 64-bit integers and ``scipy_``-prefixed
symbols) for ``numpy.linalg`` and ``matmul``. arrayx binds the same library: one set of BLAS
threads in the process, the kernels NumPy runs, and integers wide enough for any matrix. Where
NumPy has no such copy (a NumPy built against another BLAS), the ``scipy-openblas64`` package,
a dependency of arrayx, provides it. The addresses are looked up once, with ctypes, at the
first call of :func:`lapack` (the first floating-point product or factorisation); the routines
are then called through its table, without the GIL.
"""
import importlib
from pathlib import Path

import numpy

# The table's fields in order: the BLAS/LAPACK routine names (ssyevd, cheevd: each family's own).
SYMBOLS = (
    "sgemm", "dgemm", "cgemm", "zgemm", "ssyrk", "dsyrk", "csyrk", "zsyrk",
    "sgemv", "dgemv", "cgemv", "zgemv",
    "cblas_sdot", "cblas_ddot", "cblas_cdotu_sub", "cblas_zdotu_sub",
    "sgetrf", "dgetrf", "cgetrf", "zgetrf", "sgetrs", "dgetrs", "cgetrs", "zgetrs",
    "spotrf", "dpotrf", "cpotrf", "zpotrf", "ssyevd", "dsyevd", "cheevd", "zheevd",
    "sgesdd", "dgesdd", "cgesdd", "zgesdd", "sgeqrf", "dgeqrf", "cgeqrf", "zgeqrf",
    "sorgqr", "dorgqr", "cungqr", "zungqr", "sgeev", "dgeev", "cgeev", "zgeev",
    "strsm", "dtrsm", "ctrsm", "ztrsm", "slaswp", "dlaswp", "claswp", "zlaswp",
)

cdef Lapack LAPACK


def _symbol(name: str) -> str:
    """The exported name of routine ``name`` in scipy-openblas64."""
    if name.startswith("cblas_"):
        return f"scipy_{name}64_"
    return f"scipy_{name}_64_"


def library_path() -> str:
    """The file of the ILP64 OpenBLAS arrayx calls: NumPy's own copy where it has one.

    Returns
    -------
    str
        The path of the shared library.

    Raises
    ------
    ImportError
        If neither NumPy nor the ``scipy-openblas64`` package provides the library.
    """
    here = Path(numpy.__file__).parent
    for folder in (here.parent / "numpy.libs", here / ".dylibs"):
        if folder.is_dir():
            found = sorted(folder.glob("*scipy_openblas64_*"))
            if found:
                return str(found[0])
    try:
        scipy_openblas64 = importlib.import_module("scipy_openblas64")
    except ImportError:
        raise ImportError("arrayx.linalg needs OpenBLAS with 64-bit integers: NumPy's wheels "
                          "bundle it; otherwise `pip install scipy-openblas64`") from None
    lib_dir = Path(scipy_openblas64.get_lib_dir())
    found = sorted(p for p in lib_dir.iterdir()
                   if p.name.startswith(("lib" + scipy_openblas64.get_library(),
                                         scipy_openblas64.get_library())))
    if not found:
        raise ImportError(f"scipy-openblas64 has no library in {lib_dir}")
    return str(found[0])


cdef bint bound = False
_library = None  # the ctypes handle, kept for the life of the process


cdef int bind() except -1:
    global bound, _library
    import ctypes
    if sizeof(Lapack) != len(SYMBOLS) * sizeof(void*):
        raise ImportError("arrayx._kernels.blas: the routine table and its names disagree")
    library = ctypes.CDLL(library_path())
    cdef void** slots = <void**>&LAPACK
    cdef Py_ssize_t i
    for i, name in enumerate(SYMBOLS):
        try:
            address = ctypes.cast(getattr(library, _symbol(name)), ctypes.c_void_p).value
        except AttributeError:
            raise ImportError(f"{library._name} lacks {_symbol(name)}") from None
        slots[i] = <void*><size_t>address
    _library = library
    bound = True
    return 0


def is_bound() -> bool:
    """Whether the routines are bound (arrayx binds them at the first call that needs them).

    Returns
    -------
    bool
        True once a floating-point product or factorisation has run.
    """
    return bound


cdef const Lapack* lapack() except NULL:
    """The routines, bound at the first call (with the GIL held)."""
    if not bound:
        bind()
    return &LAPACK

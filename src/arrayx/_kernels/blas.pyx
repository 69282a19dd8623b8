# cython: language_level=3
"""BLAS and LAPACK from ILP64 OpenBLAS, bound at run time: LAPACK from the copy NumPy itself
calls, the products from a copy of arrayx's own that runs on one thread.

NumPy's wheels bundle ``scipy-openblas64`` (OpenBLAS with 64-bit integers and ``scipy_``-prefixed
symbols) for ``numpy.linalg`` and ``matmul``. arrayx binds the same library for LAPACK: the
factorisations NumPy runs, on the one set of BLAS threads NumPy's calls use, and integers wide
enough for any matrix. Where NumPy has no such copy (a NumPy built against another BLAS), the
``scipy-openblas64`` package, a dependency of arrayx, provides it.

The products (gemm, gemv, syrk, dot) come from the ``scipy-openblas64`` package's file, a
second instance of OpenBLAS (its own globals) set to one thread:
arrayx's pool splits a product over its own threads, so no OpenBLAS thread polls for work
after a product while arrayx's next kernel needs the cores, and NumPy's BLAS threads are left
as they were. Where that file is the one bound for LAPACK (no copy in NumPy), the products take
that table too and OpenBLAS threads them itself.

The addresses are looked up once, with ctypes, at the first call of :func:`lapack` (the first
floating-point product or factorisation); the routines are then called through the tables,
without the GIL.
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
cdef Lapack OWN


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


def own_library_path() -> str | None:
    """The file of arrayx's own single-threaded OpenBLAS for products: the ``scipy-openblas64``
    package's library, where it is another file than :func:`library_path`'s.

    Returns
    -------
    str or None
        The path, or None when the package is missing or its file is the one bound for LAPACK.
    """
    try:
        scipy_openblas64 = importlib.import_module("scipy_openblas64")
        lib_dir = Path(scipy_openblas64.get_lib_dir())
        found = sorted(p for p in lib_dir.iterdir()
                       if p.name.startswith(("lib" + scipy_openblas64.get_library(),
                                             scipy_openblas64.get_library())))
    except (ImportError, OSError):
        return None
    if not found or found[0].resolve() == Path(library_path()).resolve():
        return None
    return str(found[0])


cdef bint bound = False
cdef bint own_copy = False
_libraries = []  # the ctypes handles, kept for the life of the process


cdef int fill(Lapack* table, library) except -1:
    """``table``'s slots from ``library``'s exported routines."""
    import ctypes
    cdef void** slots = <void**>table
    cdef Py_ssize_t i
    for i, name in enumerate(SYMBOLS):
        try:
            address = ctypes.cast(getattr(library, _symbol(name)), ctypes.c_void_p).value
        except AttributeError:
            raise ImportError(f"{library._name} lacks {_symbol(name)}") from None
        slots[i] = <void*><size_t>address
    return 0


cdef int bind() except -1:
    global bound, own_copy
    import ctypes
    if sizeof(Lapack) != len(SYMBOLS) * sizeof(void*):
        raise ImportError("arrayx._kernels.blas: the routine table and its names disagree")
    library = ctypes.CDLL(library_path())
    fill(&LAPACK, library)
    _libraries.append(library)
    own = own_library_path()
    if own is not None:
        private = ctypes.CDLL(own)
        fill(&OWN, private)
        # One thread: a call never hands work to the server threads it started at load,
        # which sleep once OpenBLAS's idle timeout has passed.
        private.scipy_openblas_set_num_threads64_(ctypes.c_int(1))
        _libraries.append(private)
        own_copy = True
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


def products_library() -> str:
    """The file whose routines arrayx's products call (binding them if they are not yet).

    Returns
    -------
    str
        :func:`own_library_path`'s file where there is one, else :func:`library_path`'s.
    """
    if not bound:
        bind()
    return own_library_path() if own_copy else library_path()


cdef const Lapack* lapack() except NULL:
    """The LAPACK routines, bound at the first call (with the GIL held)."""
    if not bound:
        bind()
    return &LAPACK


cdef const Lapack* products() except NULL:
    """The product routines (gemm, gemv, syrk, dot), bound at the first call (with the GIL
    held): the single-threaded copy's where there is one, else ``lapack()``'s table."""
    if not bound:
        bind()
    return &OWN if own_copy else &LAPACK

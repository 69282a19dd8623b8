"""The 13 dtypes of the standard, declared once: every table of dtype facts is made from this.

A dtype's position in ``NAMES`` is arrayx's dtype code, by which every kernel table is
indexed. Each fact of a dtype follows from its name, but for its buffer-protocol format
(``FORMAT``): its kind is NumPy's (``b``, ``i``, ``u``, ``f``, ``c``), its size the name's bits,
its DLPack type code its kind's (``kDLInt`` 0, ``kDLUInt`` 1, ``kDLFloat`` 2, ``kDLComplex`` 5,
``kDLBool`` 6, with ``8 * itemsize`` bits), and its C++ type ``<stdint.h>``'s integer, ``float``
or ``double``, or ax_math.hpp's ``bool8``, ``c64`` and ``c128``.

``generate_pxd`` writes the Cython enum of the codes (``_kernels/dtype_codes.pxd``) and
``generate_cpu_header`` the C++ lists of codes, types and kind bits (``cpu/ax_dtypes.hpp``), at
build time from ``setup.py``; ``cuda_header`` is the CUDA sources' lists (``cuda/source.py``
inlines them).
Cython code names dtypes (``DT_INT64``), never numbers. This module imports nothing.
"""

NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "complex64", "complex128")
"""The dtype names by code."""
FORMAT = ("?", "b", "h", "i", "q", "B", "H", "I", "Q", "f", "d", "Zf", "Zd")
"""Buffer-protocol format strings, by code."""
KIND = tuple("b" if name == "bool" else name[0] for name in NAMES)
"""NumPy's kind letter, by code."""
ITEMSIZE = tuple(int(name[len(name.rstrip("0123456789")):] or 8) // 8 for name in NAMES)
"""Bytes per element, by code."""
DLPACK_CODE = tuple({"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}[kind] for kind in KIND)
"""DLPack type codes, by code."""
_C_TYPES = {"bool": "bool8", "float32": "float", "float64": "double", "complex64": "c64",
            "complex128": "c128"}
CPP_TYPE = tuple(_C_TYPES.get(name, f"{name}_t") for name in NAMES)
"""The kernels' C++ element types, by code."""
CUDA_TYPE = tuple("bool" if name == "bool" else
                  _C_TYPES.get(name, f"cuda::std::{name}_t") for name in NAMES)
"""The CUDA kernels' element types, by code."""


# The kind bits of the C++ and CUDA kernels (ops.py's KIND_BITS combine them): each is a set of
# NumPy kinds.
KIND_MASKS = {
    "K_BOOL": "b", "K_SINT": "i", "K_UINT": "u", "K_INT": "iu", "K_REAL_FLOAT": "f",
    "K_COMPLEX": "c", "K_FLOAT": "fc", "K_REAL": "iuf", "K_NUMERIC": "iufc", "K_ALL": "biufc",
}


def codes_of(kinds: str) -> tuple[int, ...]:
    """The codes of the dtypes whose NumPy kind is one of ``kinds`` (e.g. ``"iu"``)."""
    return tuple(code for code, kind in enumerate(KIND) if kind in kinds)


def kind_bits(letters: str) -> int:
    """The set of codes whose NumPy kind is one of ``letters``, as bits (bit ``code``)."""
    return sum(1 << c for c in codes_of(letters))


def component(code: int) -> int:
    """The code of a complex dtype's real component dtype; ``code`` itself otherwise."""
    if KIND[code] != "c":
        return code
    return next(c for c in codes_of("f") if ITEMSIZE[c] == ITEMSIZE[code] // 2)


def generate_pxd() -> str:
    """The Cython declarations of the dtype codes (``DT_BOOL`` ... ``DT_COMPLEX128``), the kind
    bits (``KB_INT`` ...: ``KIND_MASKS`` as sets of codes) and ``of_kind``/``component_code``."""
    lines = ["# Generated from arrayx/_kernels/dtypes.py at build time: do not edit.",
             "# arrayx's dtype codes, the index of every kernel table.", "cdef enum DtypeCode:"]
    lines += [f"    DT_{name.upper()} = {i}" for i, name in enumerate(NAMES)]
    lines.append(f"    NDTYPES = {len(NAMES)}")
    lines += ["", "# The codes of each kind, as bits (bit ``code``).", "cdef enum KindBits:"]
    lines += [f"    KB{name[1:]} = {kind_bits(letters):#x}" for name, letters in KIND_MASKS.items()]
    lines += ["", "", "cdef inline bint of_kind(int code, unsigned bits) noexcept nogil:",
              "    return (bits >> code) & 1", "", "",
              "cdef inline int component_code(int code) noexcept nogil:",
              '    """A complex dtype\'s real component dtype; ``code`` itself otherwise."""']
    for c in codes_of("c"):
        lines += [f"    if code == DT_{NAMES[c].upper()}:",
                  f"        return DT_{NAMES[component(c)].upper()}"]
    lines.append("    return code")
    return "\n".join(lines) + "\n"


def _x_macros(types: tuple[str, ...]) -> str:
    """``#define AX_DTYPES(X)``: ``X(CODE, type)`` for each dtype, in code order; and
    ``#define AX_KINDS(X)``: ``X(K_..., bits)`` for each kind mask."""
    kinds = " ".join(f"X({name}, {kind_bits(letters):#x}u)"
                     for name, letters in KIND_MASKS.items())
    dtypes = " ".join(f"X({name.upper()}, {t})" for name, t in zip(NAMES, types, strict=True))
    return ("#define AX_DTYPES(X) " + dtypes
            + "\n#define AX_KINDS(X) " + kinds + "\n")


def generate_cpu_header() -> str:
    """The C++ header listing the dtype codes, their C++ types and the kind bits
    (``ax_types.hpp`` uses it)."""
    return ("// Generated from arrayx/_kernels/dtypes.py at build time: do not edit.\n"
            "#pragma once\n" + _x_macros(CPP_TYPE))


def cuda_header() -> str:
    """The CUDA sources' list of the dtype codes, their CUDA C++ types and the kind bits."""
    return "// From arrayx/_kernels/dtypes.py.\n" + _x_macros(CUDA_TYPE)

"""The 13 dtypes of the standard, declared once: every table of dtype facts is made from this.

Each entry of ``DTYPES`` is ``(name, kind, itemsize, buffer format, DLPack type code, C++
type, CUDA C++ type)``; its position is arrayx's dtype code, by which every kernel table is
indexed. ``kind`` is NumPy's (``b``, ``i``, ``u``, ``f``, ``c``); the DLPack type codes are
``kDLInt`` 0, ``kDLUInt`` 1, ``kDLFloat`` 2, ``kDLComplex`` 5 and ``kDLBool`` 6, with
``8 * itemsize`` bits.

``generate_pxd`` writes the Cython enum of the codes (``_kernels/dtype_codes.pxd``) and
``generate_cpu_header`` the C++ lists of codes, types and kind bits (``cpu/ax_dtypes.hpp``), at
build time from ``setup.py``; ``cuda_header`` is the CUDA sources' lists (``cuda/source.py``
inlines them).
Cython code names dtypes (``DT_INT64``), never numbers. This module imports nothing.
"""

DTYPES = [
    ("bool", "b", 1, "?", 6, "bool8", "bool"),
    ("int8", "i", 1, "b", 0, "int8_t", "cuda::std::int8_t"),
    ("int16", "i", 2, "h", 0, "int16_t", "cuda::std::int16_t"),
    ("int32", "i", 4, "i", 0, "int32_t", "cuda::std::int32_t"),
    ("int64", "i", 8, "q", 0, "int64_t", "cuda::std::int64_t"),
    ("uint8", "u", 1, "B", 1, "uint8_t", "cuda::std::uint8_t"),
    ("uint16", "u", 2, "H", 1, "uint16_t", "cuda::std::uint16_t"),
    ("uint32", "u", 4, "I", 1, "uint32_t", "cuda::std::uint32_t"),
    ("uint64", "u", 8, "Q", 1, "uint64_t", "cuda::std::uint64_t"),
    ("float32", "f", 4, "f", 2, "float", "float"),
    ("float64", "f", 8, "d", 2, "double", "double"),
    ("complex64", "c", 8, "Zf", 5, "c64", "c64"),
    ("complex128", "c", 16, "Zd", 5, "c128", "c128"),
]

NAMES = tuple(d[0] for d in DTYPES)
"""The dtype names by code."""
ITEMSIZE = tuple(d[2] for d in DTYPES)
"""Bytes per element, by code."""
FORMAT = tuple(d[3] for d in DTYPES)
"""Buffer-protocol format strings, by code."""
DLPACK_CODE = tuple(d[4] for d in DTYPES)
"""DLPack type codes, by code."""


# The kind bits of the C++ and CUDA kernels (ops.py's KIND_BITS combine them): each is a set of
# NumPy kinds.
KIND_MASKS = {
    "K_BOOL": "b", "K_SINT": "i", "K_UINT": "u", "K_INT": "iu", "K_REAL_FLOAT": "f",
    "K_COMPLEX": "c", "K_FLOAT": "fc", "K_REAL": "iuf", "K_NUMERIC": "iufc", "K_ALL": "biufc",
}


def codes_of(kinds: str) -> tuple[int, ...]:
    """The codes of the dtypes whose NumPy kind is one of ``kinds`` (e.g. ``"iu"``)."""
    return tuple(i for i, d in enumerate(DTYPES) if d[1] in kinds)


def kind_bits(letters: str) -> int:
    """The set of codes whose NumPy kind is one of ``letters``, as bits (bit ``code``)."""
    return sum(1 << c for c in codes_of(letters))


def component(code: int) -> int:
    """The code of a complex dtype's real component dtype; ``code`` itself otherwise."""
    _, kind, itemsize, *_ = DTYPES[code]
    if kind != "c":
        return code
    return next(i for i, d in enumerate(DTYPES) if d[1] == "f" and d[2] == itemsize // 2)


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


def _x_macros(column: int) -> str:
    """``#define AX_DTYPES(X)``: ``X(CODE, type)`` for each dtype, in code order; and
    ``#define AX_KINDS(X)``: ``X(K_..., bits)`` for each kind mask."""
    kinds = " ".join(f"X({name}, {kind_bits(letters):#x}u)"
                     for name, letters in KIND_MASKS.items())
    return ("#define AX_DTYPES(X) " + " ".join(f"X({d[0].upper()}, {d[column]})" for d in DTYPES)
            + "\n#define AX_KINDS(X) " + kinds + "\n")


def generate_cpu_header() -> str:
    """The C++ header listing the dtype codes, their C++ types and the kind bits
    (``ax_types.hpp`` uses it)."""
    return ("// Generated from arrayx/_kernels/dtypes.py at build time: do not edit.\n"
            "#pragma once\n" + _x_macros(5))


def cuda_header() -> str:
    """The CUDA sources' list of the dtype codes, their CUDA C++ types and the kind bits."""
    return "// From arrayx/_kernels/dtypes.py.\n" + _x_macros(6)

"""Operations declared as data: the one declaration both code generators read.

Elementwise ops (``ELEMENTWISE``, read as ``UNARY`` and ``BINARY``): each entry is
``(name, arity, kinds, result, expression)``:

- ``arity``: 1 or 2, the number of operands;
- ``kinds``: the dtype kinds the op accepts (names of ``KIND_BITS``);
- ``result``: ``same`` (the input dtype), ``bool``, ``real`` (a complex input's component
  dtype, otherwise the input dtype), or ``float`` (the input dtype, integer and bool inputs
  being computed in the default floating dtype);
- ``expression``: a C++ expression in ``a`` (and ``b``) of the input type ``T``, using the
  helpers of ``ax_math.hpp`` where plain operators do not say it.

Reductions (``REDUCE``), scans (``SCAN``) and arg-reductions (``ARG_REDUCE``): each entry is
``(name, kinds, functor)``, the functor being the fold struct of ``ax_reduce.hpp`` (CPU) and
``ax_reduce.cuh`` (CUDA), or for an arg-reduction whether it seeks the largest element.

``generate_cpu_header`` turns the elementwise tables into ``ax_ops.hpp`` and
``generate_fold_header`` the others into ``ax_fold_ops.hpp`` at build time (``setup.py``),
with ``generate_pxd`` giving Cython the fold and elementwise op ids (``_kernels/op_ids.pxd``:
``FOLD_SUM``, ``OP_ADD`` ...); the order of each list is the op id used by ``arrayx._engine``.
``OPERATORS`` maps the array object's Python operators to ops, and ``generate_operators``
writes their methods (``_array_operators.pxi``) with the documentation rows it is given.
``VECTOR_MATH`` names the ops whose float32 kernels call a vector math library's float64
function at the AVX2 and AVX-512 levels (glibc's libmvec: ``_ZGVdN4v_exp`` is ``exp`` over four
doubles), ``VECTOR_ACCURATE`` those with vector functions of arrayx's own for both float
dtypes. This module imports nothing.
"""

KIND_BITS = {
    "bool": "K_BOOL",
    "integer": "K_INT",
    "integer_or_bool": "K_INT | K_BOOL",
    "real": "K_REAL",
    "real_or_bool": "K_REAL | K_BOOL",
    "real_float": "K_REAL_FLOAT",
    "float": "K_FLOAT",
    "numeric": "K_NUMERIC",
    "all": "K_ALL",
}

ELEMENTWISE = [
    # One operand.
    ("abs", 1, "numeric", "real", "ax::absolute(a)"),
    ("acos", 1, "numeric", "float", "ax::acos_(a)"),
    ("acosh", 1, "numeric", "float", "ax::acosh_(a)"),
    ("asin", 1, "numeric", "float", "ax::asin_(a)"),
    ("asinh", 1, "numeric", "float", "ax::asinh_(a)"),
    ("atan", 1, "numeric", "float", "ax::atan_(a)"),
    ("atanh", 1, "numeric", "float", "ax::atanh_(a)"),
    ("bitwise_invert", 1, "integer_or_bool", "same", "ax::invert(a)"),
    ("ceil", 1, "real", "same", "ax::ceil_(a)"),
    ("conj", 1, "numeric", "same", "ax::conjugate(a)"),
    ("cos", 1, "numeric", "float", "ax::cos_(a)"),
    ("cosh", 1, "numeric", "float", "ax::cosh_(a)"),
    ("exp", 1, "numeric", "float", "ax::exp_(a)"),
    ("expm1", 1, "numeric", "float", "ax::expm1_(a)"),
    ("floor", 1, "real", "same", "ax::floor_(a)"),
    ("imag", 1, "numeric", "real", "ax::imag_part(a)"),
    ("isfinite", 1, "numeric", "bool", "ax::is_finite(a)"),
    ("isinf", 1, "numeric", "bool", "ax::is_inf(a)"),
    ("isnan", 1, "numeric", "bool", "ax::is_nan(a)"),
    ("log", 1, "numeric", "float", "ax::log_(a)"),
    ("log1p", 1, "numeric", "float", "ax::log1p_(a)"),
    ("log2", 1, "numeric", "float", "ax::log2_(a)"),
    ("log10", 1, "numeric", "float", "ax::log10_(a)"),
    ("logical_not", 1, "bool", "same", "!a"),
    ("negative", 1, "numeric", "same", "ax::neg(a)"),
    ("positive", 1, "numeric", "same", "a"),
    ("real", 1, "numeric", "real", "ax::real_part(a)"),
    ("reciprocal", 1, "numeric", "float", "ax::reciprocal_(a)"),
    ("round", 1, "numeric", "same", "ax::round_(a)"),
    ("sign", 1, "numeric", "same", "ax::sign_(a)"),
    ("signbit", 1, "real_float", "bool", "std::signbit(a)"),
    ("sin", 1, "numeric", "float", "ax::sin_(a)"),
    ("sinh", 1, "numeric", "float", "ax::sinh_(a)"),
    ("sqrt", 1, "numeric", "float", "ax::sqrt_(a)"),
    ("square", 1, "numeric", "same", "ax::mul_(a, a)"),
    ("tan", 1, "numeric", "float", "ax::tan_(a)"),
    ("tanh", 1, "numeric", "float", "ax::tanh_(a)"),
    ("trunc", 1, "real", "same", "ax::trunc_(a)"),
    # Two operands.
    # add and multiply of two bools are NumPy's logical or and and (bool8 results stay 0 or 1).
    ("add", 2, "all", "same", "ax::add_(a, b)"),
    ("atan2", 2, "real", "float", "ax::atan2_(a, b)"),
    ("bitwise_and", 2, "integer_or_bool", "same", "ax::bit_and(a, b)"),
    ("bitwise_left_shift", 2, "integer", "same", "ax::lshift(a, b)"),
    ("bitwise_or", 2, "integer_or_bool", "same", "ax::bit_or(a, b)"),
    ("bitwise_right_shift", 2, "integer", "same", "ax::rshift(a, b)"),
    ("bitwise_xor", 2, "integer_or_bool", "same", "ax::bit_xor(a, b)"),
    ("copysign", 2, "real", "float", "std::copysign(a, b)"),
    ("divide", 2, "numeric", "float", "ax::div_(a, b)"),
    ("equal", 2, "all", "bool", "a == b"),
    ("floor_divide", 2, "real", "same", "ax::floor_div(a, b)"),
    ("greater", 2, "real", "bool", "a > b"),
    ("greater_equal", 2, "real", "bool", "a >= b"),
    ("hypot", 2, "real", "float", "ax::hypot_(a, b)"),
    ("less", 2, "real", "bool", "a < b"),
    ("less_equal", 2, "real", "bool", "a <= b"),
    ("logaddexp", 2, "real", "float", "ax::logaddexp_(a, b)"),
    ("logical_and", 2, "bool", "same", "a && b"),
    ("logical_or", 2, "bool", "same", "a || b"),
    ("logical_xor", 2, "bool", "same", "a != b"),
    ("maximum", 2, "real", "same", "ax::maximum_(a, b)"),
    ("minimum", 2, "real", "same", "ax::minimum_(a, b)"),
    ("multiply", 2, "all", "same", "ax::mul_(a, b)"),
    ("nextafter", 2, "real", "float", "std::nextafter(a, b)"),
    ("not_equal", 2, "all", "bool", "a != b"),
    ("pow", 2, "numeric", "same", "ax::power(a, b)"),
    ("remainder", 2, "real", "same", "ax::remainder_(a, b)"),
    ("subtract", 2, "numeric", "same", "ax::sub_(a, b)"),
]
"""The elementwise ops: ``(name, arity, kinds, result, expression)``, each arity in op-id order."""
UNARY = [(name, *rest) for name, arity, *rest in ELEMENTWISE if arity == 1]
"""The elementwise ops of one operand, ``(name, kinds, result, expression)``, in op-id order."""
BINARY = [(name, *rest) for name, arity, *rest in ELEMENTWISE if arity == 2]
"""The elementwise ops of two operands, as ``UNARY``."""
ELEMENTWISE_NAMES = tuple(name for name, *_ in UNARY + BINARY)
"""The names of the elementwise ops, unary then binary: each a public function of the namespace."""

# Folds, in FoldOp order. Over bool, max is "any" and min is "all".
REDUCE = [
    ("sum", "numeric", "fold_sum"),
    ("prod", "numeric", "fold_prod"),
    ("max", "real_or_bool", "fold_max"),
    ("min", "real_or_bool", "fold_min"),
]

# Running folds along an axis; each scan's op id is that of its fold in REDUCE.
SCAN = [
    ("cumulative_sum", "numeric", "fold_sum"),
    ("cumulative_prod", "numeric", "fold_prod"),
]

# The first position of the largest (True) or smallest (False) element; NaN counts as extreme.
ARG_REDUCE = [
    ("argmax", "real", True),
    ("argmin", "real", False),
]

VECTOR_MATH = {
    "acos": "acos", "acosh": "acosh", "asin": "asin", "asinh": "asinh", "atan": "atan",
    "atanh": "atanh", "cosh": "cosh", "expm1": "expm1", "log1p": "log1p", "log2": "log2",
    "log10": "log10", "sinh": "sinh", "tan": "tan",
    "atan2": "atan2", "hypot": "hypot", "pow": "pow",
}

# Ops with vector functions of our own (ax_vector_accurate.hpp), within one ULP: the float64
# function of each, and the float64 function its float32 vectors are computed in (None: those
# keep libmvec's, the op's VECTOR_MATH entry).
VECTOR_ACCURATE = {
    "acos": ("acos_accurate", None), "acosh": ("acosh_accurate", None),
    "asin": ("asin_accurate", None), "asinh": ("asinh_accurate", None),
    "atan": ("atan_accurate", None), "atan2": ("atan2_accurate", None),
    "atanh": ("atanh_accurate", None),
    "cos": ("cos_accurate", "cos_lean"), "cosh": ("cosh_accurate", None),
    "exp": ("exp_accurate", "exp_lean"), "expm1": ("expm1_accurate", None),
    "log": ("log_accurate", "log_lean"), "log1p": ("log1p_accurate", None),
    "log2": ("log2_accurate", None), "log10": ("log10_accurate", None),
    "sin": ("sin_accurate", "sin_lean"), "sinh": ("sinh_accurate", None),
    "tan": ("tan_accurate", None), "tanh": ("tanh_accurate", "tanh_lean"),
}

# What an element of each op costs against one of ``add`` (default 1), a power of two at or
# below the time measured on one thread at 10^5 elements (float32 and float64, on a Zen 5 at
# the AVX-512 level): the CPU's driver runs an op on several threads from ``PARALLEL_MIN / cost``
# elements, so that an op whose kernel is slow pays a thread's wake-up as soon as ``add``
# does (``iterate.run``).
COST = {
    "sqrt": 2, "exp": 4, "log": 4,
    **dict.fromkeys(("sin", "cos", "tan", "tanh", "expm1", "log1p", "log2", "log10", "sinh",
                     "cosh", "atan", "asinh", "acosh", "atanh", "hypot"), 8),
    **dict.fromkeys(("asin", "acos", "atan2", "pow"), 16),
}

# The array object's Python operators, each calling one op of the tables above: ``(stem, op,
# form)`` for the method ``__<stem>__``. A ``binary`` operator also has its reflected
# (``__r<stem>__``) and in-place (``__i<stem>__``) forms, ``power`` too, with ``pow()``'s
# modulus refused; a ``comparison`` has neither (Python reflects comparisons itself); a
# ``unary`` one takes ``self`` alone. ``@`` is a product, not an elementwise op: the array
# object declares it itself. ``generate_operators`` writes the methods (``_array_operators.pxi``).
OPERATORS = [
    ("add", "add", "binary"), ("sub", "subtract", "binary"), ("mul", "multiply", "binary"),
    ("truediv", "divide", "binary"), ("floordiv", "floor_divide", "binary"),
    ("mod", "remainder", "binary"), ("pow", "pow", "power"),
    ("lshift", "bitwise_left_shift", "binary"), ("rshift", "bitwise_right_shift", "binary"),
    ("and", "bitwise_and", "binary"), ("or", "bitwise_or", "binary"),
    ("xor", "bitwise_xor", "binary"),
    ("eq", "equal", "comparison"), ("ne", "not_equal", "comparison"),
    ("lt", "less", "comparison"), ("le", "less_equal", "comparison"),
    ("gt", "greater", "comparison"), ("ge", "greater_equal", "comparison"),
    ("neg", "negative", "unary"), ("pos", "positive", "unary"), ("abs", "abs", "unary"),
    ("invert", "bitwise_invert", "unary"),
]

_RESULT = {"same": "R_SAME", "bool": "R_BOOL", "real": "R_REAL", "float": "R_SAME"}


def generate_op_counts_header() -> str:
    """The C++ header with the number of unary and binary ops (the kernel tables' sizes)."""
    return (
        "// Generated by arrayx/_kernels/ops.py at build time: do not edit.\n"
        "#pragma once\n\n"
        "namespace ax {\n"
        f"constexpr int NUNARY = {len(UNARY)};\n"
        f"constexpr int NBINARY = {len(BINARY)};\n"
        "}  // namespace ax\n"
    )


def generate_fold_header() -> str:
    """The C++ header with the fold ids and each fold, scan and arg-reduction's dtype kinds.

    ``AX_FOLDS(X)`` calls ``X(id, functor, kinds)`` for each fold and ``AX_SCANS(X)`` for
    each scan; the kernel tables of ``ax_reduce.hpp`` are filled through them.
    """
    folds = [name for name, *_ in REDUCE]
    if [functor for *_, functor in SCAN] != [REDUCE[i][2] for i in range(len(SCAN))]:
        raise ValueError("each scan must share its op id with its fold in REDUCE")
    if len({kinds for _, kinds, _ in ARG_REDUCE}) != 1:
        raise ValueError("argmax and argmin must accept the same kinds")
    ids = ", ".join(f"FOLD_{name.upper()} = {i}" for i, name in enumerate(folds))
    return "\n".join([
        "// Generated by arrayx/_kernels/ops.py at build time: do not edit.",
        "#pragma once",
        '#include "ax_types.hpp"',
        "",
        "namespace ax {",
        f"enum FoldOp {{ {ids}, NFOLDS = {len(folds)} }};",
        f"constexpr int NSCANS = {len(SCAN)};",
        f"constexpr unsigned ARG_REDUCE_KINDS = {KIND_BITS[ARG_REDUCE[0][1]]};",
        "}  // namespace ax",
        "",
        "#define AX_FOLDS(X) " + " ".join(
            f"X(FOLD_{name.upper()}, {functor}, {KIND_BITS[kinds]})"
            for name, kinds, functor in REDUCE),
        "#define AX_SCANS(X) " + " ".join(
            f"X({i}, {functor}, {KIND_BITS[kinds]})" for i, (_, kinds, functor) in enumerate(SCAN)),
        "",
    ])


def generate_pxd() -> str:
    """The Cython declarations of the op ids: the folds' (``FOLD_SUM`` ...), ``REDUCE``'s
    order, and the elementwise ops' (``OP_ADD`` ...), each table's order."""
    lines = ["# Generated from arrayx/_kernels/ops.py at build time: do not edit.",
             "# The ids of the folds (and of the scans, which share their fold's id).",
             "cdef enum FoldOp:"]
    lines += [f"    FOLD_{name.upper()} = {i}" for i, (name, *_) in enumerate(REDUCE)]
    for title, table in (("UnaryOp", UNARY), ("BinaryOp", BINARY)):
        lines += ["", f"# The ids of the {title[:-2].lower()} ops (the kernel tables' order).",
                  f"cdef enum {title}:"]
        lines += [f"    OP_{name.upper()} = {i}" for i, (name, *_) in enumerate(table)]
    return "\n".join(lines) + "\n"


def generate_operators(docs: dict) -> str:
    """The array object's operator methods (``OPERATORS``) as the Cython text of a base class
    of ``Array``, ``_Operators``, included by ``_array.pyx``; ``docs`` gives each operator
    its expression, description and examples (``_elementwise_docs.OPERATOR_DOCS``)."""
    ids = sorted({f"OP_{op.upper()}" for _, op, _ in OPERATORS})
    lines = ["# Generated from arrayx/_kernels/ops.py (OPERATORS) and arrayx/_elementwise_docs.py",
             "# (OPERATOR_DOCS) at build time: do not edit.",
             "from arrayx._kernels.op_ids cimport (",
             *[f"    {ident}," for ident in ids],
             ")",
             "",
             "",
             "cdef class _Operators:",
             '    """The array object\'s Python operators, each an op of arrayx/_kernels/ops.py',
             '    (a base class of Array that holds nothing)."""']
    for stem, op, form in OPERATORS:
        ident = f"OP_{op.upper()}"
        params = "self" if form == "unary" else "self, other"
        if form == "power":
            params += ", mod=None"
        lines += ["", f"    def __{stem}__({params}):"]
        lines += ['        """' + line if i == 0 else (f"        {line}" if line else "")
                  for i, line in enumerate(_operator_doc(stem, op, form, docs[stem]))]
        if form == "unary":
            lines.append(f"        return unary_op({ident}, self)")
            continue
        refusal = ["        if mod is not None:",
                   '            raise TypeError("arrayx arrays do not support pow() with a '
                   'modulus")'] if form == "power" else []
        lines += [*refusal, f"        return binary_op({ident}, self, other, True)"]
        if form == "comparison":
            continue
        lines += ["", f"    def __r{stem}__({params}):", *refusal,
                  f"        return binary_op({ident}, other, self, True)",
                  "", f"    def __i{stem}__(self, other):",
                  f"        return inplace_op({ident}, self, other)"]
    return "\n".join(lines) + "\n"


def _operator_doc(stem: str, op: str, form: str, doc: tuple[str, str, str]) -> list[str]:
    """The numpydoc lines of the operator ``__<stem>__``, closing quotes included."""
    expression, description, examples = doc
    func = f":func:`arrayx.{op}`"
    lines = [f"``{expression}``: {description}, as {func}.", ""]
    if form != "unary":
        lines += ["Parameters", "----------", "other : Array or Python scalar",
                  "    The right operand. A Python scalar takes ``self``'s dtype when it is of a "
                  "kind that",
                  "    dtype holds (see :doc:`/guide/dtypes`)."]
        if form == "power":
            lines += ["mod : None", "    Must be None: arrayx has no modular power."]
        lines.append("")
    lines += ["Returns", "-------", "Array", f"    As {func} returns.", "", "Raises", "------",
              "TypeError"]
    if form == "unary":
        lines.append(f"    If ``self``'s dtype is not accepted by {func}.")
    elif form == "power":
        lines += [f"    If the dtypes are not accepted by {func} or do not promote, or a",
                  "    modulus is given (``pow(x, y, m)``)."]
    else:
        lines.append(f"    If the dtypes are not accepted by {func} or do not promote.")
    lines += ["", "Examples", "--------", *examples.rstrip("\n").split("\n"), '"""']
    return lines


def generate_cpu_header() -> str:
    """The C++ header that declares every op as a functor and its kernel tables."""
    lines = [
        "// Generated by arrayx/_kernels/ops.py at build time: do not edit.",
        "#pragma once",
        '#include "ax_elementwise.hpp"',
        '#include "ax_op_counts.hpp"',
        "",
        "AX_LEVEL_BEGIN",
    ]
    for arity, table in ((1, UNARY), (2, BINARY)):
        args = "T a" if arity == 1 else "T a, T b"
        for name, _, _, expr in table:
            lines.append(f"struct op_{name} {{ template <class T> static inline auto f({args}) "
                         f"{{ return {expr}; }} }};")
    lines.append("#ifdef AX_MVEC")
    for arity, table in ((1, UNARY), (2, BINARY)):
        for name, *_ in table:
            accurate, lean = VECTOR_ACCURATE.get(name, (None, None))
            if name in VECTOR_MATH:
                lines.append(f"AX_VECTOR_MATH_{arity}(op_{name}, {VECTOR_MATH[name]})")
                if accurate:
                    lines.append(f"AX_VECTOR_ACCURATE_FLOAT64_{arity}(op_{name}, {accurate})")
            elif accurate:
                lines.append(f"AX_VECTOR_ACCURATE(op_{name}, {accurate}, {lean})")
    lines.append("#endif")
    for table, kind in ((UNARY, "unary"), (BINARY, "binary")):
        lines.append(f"inline loop2d_fn {kind}_kernel(int op, int code) {{")
        lines.append(f"    static const KernelTable<{len(table)}> table = [] {{")
        lines.append(f"        KernelTable<{len(table)}> t{{}};")
        for i, (name, kinds, result, _) in enumerate(table):
            mask = KIND_BITS[kinds]
            if result == "float":
                # Integer and bool inputs are cast to the default float before the kernel.
                mask = f"({mask}) & K_FLOAT"
            lines.append(f"        fill_table<{kind.capitalize()}Maker<op_{name}, "
                         f"{mask}, {_RESULT[result]}>>(t.fn[{i}]);")
        lines.append("        return t;")
        lines.append("    }();")
        lines.append("    return table.fn[op][code];")
        lines.append("}")
    lines.append("AX_LEVEL_END")
    return "\n".join(lines) + "\n"


def metadata(table: list) -> list[tuple[str, str, str]]:
    """``(name, kinds, result)`` of each op of ``table``, in op-id order."""
    return [(name, kinds, result) for name, kinds, result, _ in table]

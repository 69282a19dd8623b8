"""arrayx: the Python array API standard (2025.12) on its own strided core.

The ``linalg`` and ``fft`` extensions, and ``matmul``, ``tensordot`` and ``vecdot``, load on
first use (module ``__getattr__``): ``import arrayx`` does not load BLAS or LAPACK.
"""

import importlib as _importlib

from arrayx import _dask, _strict, _strict_namespace, lib
from arrayx._array import Array
from arrayx._creation import (
    arange,
    asarray,
    empty,
    empty_like,
    eye,
    from_dlpack,
    full,
    full_like,
    linspace,
    logspace,
    meshgrid,
    ones,
    ones_like,
    tril,
    triu,
    zeros,
    zeros_like,
)
from arrayx._data_type_functions import astype, can_cast, finfo, iinfo, isdtype, result_type
from arrayx._devices import Device
from arrayx._diag import diag
from arrayx._dtypes import (
    bool,
    complex64,
    complex128,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from arrayx._elementwise import (
    abs,
    acos,
    acosh,
    add,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_and,
    bitwise_invert,
    bitwise_left_shift,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    ceil,
    clip,
    conj,
    copysign,
    cos,
    cosh,
    divide,
    equal,
    exp,
    expm1,
    floor,
    floor_divide,
    greater,
    greater_equal,
    hypot,
    imag,
    isfinite,
    isinf,
    isnan,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    nextafter,
    not_equal,
    positive,
    pow,
    real,
    reciprocal,
    remainder,
    round,
    sign,
    signbit,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    trunc,
)
from arrayx._indexing import take, take_along_axis
from arrayx._info import __array_namespace_info__
from arrayx._kernels.cpu.iterate import get_num_threads, set_num_threads
from arrayx._manipulation import (
    broadcast_arrays,
    broadcast_shapes,
    broadcast_to,
    concat,
    expand_dims,
    flip,
    matrix_transpose,
    moveaxis,
    permute_dims,
    repeat,
    reshape,
    roll,
    squeeze,
    stack,
    tile,
    unstack,
)
from arrayx._nanfunctions import (
    nanargmax,
    nanargmin,
    nanmax,
    nanmean,
    nanmin,
    nanprod,
    nanstd,
    nansum,
    nanvar,
)
from arrayx._pad import pad
from arrayx._searching import argmax, argmin, count_nonzero, nonzero, searchsorted, where
from arrayx._sets import isin, unique_all, unique_counts, unique_inverse, unique_values
from arrayx._sorting import argsort, sort
from arrayx._statistical import (
    cumulative_prod,
    cumulative_sum,
    max,
    mean,
    min,
    prod,
    std,
    sum,
    var,
)
from arrayx._strict import get_strict_flags, reset_strict_flags, set_strict_flags
from arrayx._utility import all, any, diff

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

e = 2.718281828459045
inf = float("inf")
nan = float("nan")
newaxis = None
pi = 3.141592653589793

__all__ = [
    "get_strict_flags", "reset_strict_flags", "set_strict_flags",
    "Array", "Device", "__array_api_version__", "__array_namespace_info__", "abs", "acos", "acosh",
    "add", "all", "any", "arange", "argmax", "argmin", "argsort", "asarray", "asin", "asinh",
    "astype", "atan", "atan2", "atanh", "bitwise_and", "bitwise_invert", "bitwise_left_shift",
    "bitwise_or", "bitwise_right_shift", "bitwise_xor", "bool", "broadcast_arrays",
    "broadcast_shapes", "broadcast_to", "can_cast", "ceil", "clip", "complex128", "complex64",
    "concat", "conj", "copysign", "cos", "cosh", "count_nonzero", "cumulative_prod",
    "cumulative_sum", "diag", "diff", "divide", "e", "empty", "empty_like", "equal", "exp",
    "expand_dims",
    "expm1", "eye", "fft", "finfo", "flip", "float32", "float64", "floor", "floor_divide",
    "from_dlpack", "full", "full_like", "get_num_threads", "greater", "greater_equal", "hypot",
    "iinfo", "imag", "inf", "lib", "int16", "int32", "int64", "int8", "isdtype", "isfinite", "isin",
    "isinf", "isnan", "less", "less_equal", "linalg", "linspace", "log", "log10", "log1p", "log2",
    "logaddexp", "logical_and", "logical_not", "logical_or", "logical_xor", "logspace", "matmul",
    "matrix_transpose", "max", "maximum", "mean", "meshgrid", "min", "minimum", "moveaxis",
    "multiply", "nan", "nanargmax", "nanargmin", "nanmax", "nanmean", "nanmin", "nanprod",
    "nanstd", "nansum", "nanvar", "negative", "newaxis", "nextafter", "nonzero", "not_equal",
    "ones",
    "ones_like", "pad", "permute_dims", "pi", "positive", "pow", "prod", "real", "reciprocal",
    "remainder", "repeat", "reshape", "result_type", "roll", "round", "searchsorted",
    "set_num_threads", "sign", "signbit", "sin", "sinh", "sort", "sqrt", "square", "squeeze",
    "stack", "std", "subtract", "sum", "take", "take_along_axis", "tan", "tanh", "tensordot",
    "tile", "tril", "triu", "trunc", "uint16", "uint32", "uint64", "uint8", "unique_all",
    "unique_counts", "unique_inverse", "unique_values", "unstack", "var", "vecdot", "where",
    "zeros", "zeros_like",
]

# Names whose modules load on first use: name -> (module, attribute or None for the module).
_LAZY = {
    "fft": ("arrayx.fft", None),
    "linalg": ("arrayx.linalg", None),
    "matmul": ("arrayx.linalg._matmul", "matmul"),
    "tensordot": ("arrayx.linalg._products", "tensordot"),
    "vecdot": ("arrayx.linalg._products", "vecdot"),
}


def __getattr__(name: str) -> object:
    """Load a lazy name's module on first use and keep the name (later lookups are plain);
    names strict mode hides raise an error naming the rule (see ``set_strict_flags``)."""
    try:
        module, attr = _LAZY[name]
    except KeyError:
        if name in _strict.EXTENSIONS:
            raise _strict.missing(name) from None
        raise AttributeError(f"module 'arrayx' has no attribute {name!r}") from None
    value = _importlib.import_module(module)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


_strict.EXTENSIONS.update({name: globals()[name] for name in (
    "lib", "pad", "nanargmax", "nanargmin", "nanmax", "nanmean", "nanmin", "nanprod", "nanstd",
    "nansum", "nanvar", "logspace", "diag")})
_strict.STRICT_VARIANTS.update(_strict_namespace.VARIANTS)
_strict.from_environment()
_dask.register()

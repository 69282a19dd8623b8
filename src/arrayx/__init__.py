"""arrayx: the Python array API standard (2025.12) on its own strided core.

The ``linalg`` and ``fft`` extensions, and ``matmul``, ``tensordot`` and ``vecdot``, load on
first use (module ``__getattr__``): ``import arrayx`` does not load BLAS or LAPACK.
"""

import importlib as _importlib

# The array type loads first: the modules that serve its methods load at its end, and build on
# the rest of the namespace (see the end of ``_array.pyx``).
from arrayx import _array, _dask, _elementwise, _strict, lib  # noqa: F401
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
from arrayx._devices import Device, set_default_device
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
from arrayx._engine import get_num_threads, set_num_threads
from arrayx._indexing import take, take_along_axis
from arrayx._info import __array_namespace_info__
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
from arrayx._strict import namespace as _strict_namespace
from arrayx._utility import all, any, diff

# The elementwise functions: one per op of _kernels/ops.py, made at import.
globals().update({_name: getattr(_elementwise, _name) for _name in _elementwise.__all__})

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

e = 2.718281828459045
inf = float("inf")
nan = float("nan")
newaxis = None
pi = 3.141592653589793

__all__ = [
    "get_strict_flags", "reset_strict_flags", "set_strict_flags", "Array", "Device",
    "__array_api_version__", "__array_namespace_info__", "all", "any", "arange", "argmax",
    "argmin", "argsort", "asarray", "astype", "bool", "broadcast_arrays", "broadcast_shapes",
    "broadcast_to", "can_cast", "complex128", "complex64", "concat", "count_nonzero",
    "cumulative_prod", "cumulative_sum", "diag", "diff", "e", "empty", "empty_like",
    "expand_dims", "eye", "fft", "finfo", "flip", "float32", "float64", "from_dlpack", "full",
    "full_like", "get_num_threads", "iinfo", "inf", "lib", "int16", "int32", "int64", "int8",
    "isdtype", "isin", "linalg", "linspace", "logspace", "matmul", "matrix_transpose", "max",
    "mean", "meshgrid", "min", "moveaxis", "nan", "nanargmax", "nanargmin", "nanmax", "nanmean",
    "nanmin", "nanprod", "nanstd", "nansum", "nanvar", "newaxis", "nonzero", "ones",
    "ones_like", "pad", "permute_dims", "pi", "prod", "repeat", "reshape", "result_type",
    "roll", "searchsorted", "set_default_device", "set_num_threads", "sort", "squeeze", "stack",
    "std", "sum", "take",
    "take_along_axis", "tensordot", "tile", "tril", "triu", "uint16", "uint32", "uint64",
    "uint8", "unique_all", "unique_counts", "unique_inverse", "unique_values", "unstack", "var",
    "vecdot", "where", "zeros", "zeros_like",
    *_elementwise.__all__,
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

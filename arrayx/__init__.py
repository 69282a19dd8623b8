"""arrayx: the Python array API standard (2025.12) on its own strided core."""

from arrayx import fft, linalg
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
    add,
    bitwise_and,
    bitwise_invert,
    bitwise_or,
    bitwise_xor,
    conj,
    equal,
    greater,
    greater_equal,
    imag,
    isfinite,
    isinf,
    isnan,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    multiply,
    negative,
    not_equal,
    positive,
    real,
    signbit,
    subtract,
)
from arrayx._info import __array_namespace_info__
from arrayx._kernels.cpu.iterate import get_num_threads, set_num_threads
from arrayx._manipulation import (
    broadcast_arrays,
    broadcast_shapes,
    broadcast_to,
    expand_dims,
    flip,
    matrix_transpose,
    permute_dims,
    reshape,
    squeeze,
)
from arrayx._searching import where
from arrayx._utility import all, any
from arrayx.linalg._matmul import matmul
from arrayx.linalg._products import tensordot, vecdot

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

e = 2.718281828459045
inf = float("inf")
nan = float("nan")
newaxis = None
pi = 3.141592653589793

__all__ = [
    "abs", "add", "all", "any", "bitwise_and", "bitwise_invert", "bitwise_or", "bitwise_xor",
    "conj", "equal", "greater", "greater_equal", "imag", "isfinite", "isinf", "isnan", "less",
    "less_equal", "logical_and", "logical_not", "logical_or", "logical_xor", "multiply",
    "negative", "not_equal", "positive", "real", "signbit", "subtract", "tensordot", "vecdot",
    "where",
    "__array_api_version__", "__array_namespace_info__", "Array", "Device",
    "arange", "asarray", "astype", "bool", "broadcast_arrays", "broadcast_shapes",
    "broadcast_to", "can_cast", "complex64", "complex128", "e", "empty", "empty_like",
    "expand_dims", "eye", "fft", "finfo", "flip", "float32", "float64", "from_dlpack", "full",
    "full_like", "get_num_threads", "iinfo", "inf", "int8", "int16", "int32", "int64",
    "isdtype", "linalg", "linspace", "matmul", "matrix_transpose", "meshgrid", "nan", "newaxis",
    "ones",
    "ones_like", "permute_dims", "pi", "reshape", "result_type", "set_num_threads", "squeeze",
    "tril", "triu", "uint8", "uint16", "uint32", "uint64", "zeros", "zeros_like",
]

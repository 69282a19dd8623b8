"""The traced namespace: every name of arrayx's namespace (and of ``linalg`` and ``fft``),
each function in one of four kinds, each kind a table:

- a rule (``_rules``, ``_linalg_rules``): a primitive that records a node;
- composed (``_composed``): a composition of traced functions, used when a tracer comes in;
- non-differentiable (``NONDIFFERENTIABLE``): tracers are unwrapped and the result is a
  constant of the innermost live trace (integer and boolean results, and floating-point
  results whose gradient is zero almost everywhere);
- creation (``CREATION``): constants of the innermost live trace (so
  ``out = xp.zeros(n); out[i] = traced`` records).

Inside a trace every array the namespace returns is a tracer, so code that asks for the
namespace of several arrays (``array_namespace(x, mask)``) finds this one.

Names that are not functions (dtypes, constants, ``Array``) are copied.
"""

from __future__ import annotations

import types

import arrayx
import arrayx.fft
import arrayx.linalg
from arrayx._kernels.ops import ELEMENTWISE_NAMES
from arrayx.autograd import _composed, _linalg_rules, _rules
from arrayx.autograd._pytree import rebuild
from arrayx.autograd._tracer import (
    Tracer,
    current_level,
    install_operators,
    plain,
    primitive,
    primitive_multi,
    traced,
    tracer_inplace,
)

RULES = {**_rules.ELEMENTWISE, **_rules.STATISTICAL, **_rules.MANIPULATION,
         **_rules.INDEXING, "matmul": _linalg_rules.LINALG["matmul"]}
NONDIFFERENTIABLE = frozenset({
    "all", "any", "argmax", "argmin", "argsort", "bitwise_and", "bitwise_invert",
    "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "broadcast_shapes", "can_cast", "ceil", "count_nonzero", "equal", "finfo", "floor",
    "floor_divide", "get_num_threads", "get_strict_flags", "greater", "greater_equal", "iinfo",
    "isdtype", "isfinite", "isin", "isinf", "isnan", "less", "less_equal", "logical_and",
    "logical_not", "logical_or", "logical_xor", "nanargmax", "nanargmin", "nextafter",
    "nonzero", "not_equal", "reset_strict_flags", "result_type", "round", "searchsorted",
    "set_default_device", "set_num_threads", "set_strict_flags", "sign", "signbit", "trunc",
    "unique_all",
    "unique_counts", "unique_inverse", "unique_values", "__array_namespace_info__",
    # linalg and fft
    "linalg.matrix_rank", "fft.fftfreq", "fft.rfftfreq",
})
CREATION = frozenset({
    "arange", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like", "linspace",
    "logspace", "ones", "ones_like", "zeros", "zeros_like",
})
# Functions whose traced form takes its arrays differently (filled in by ``build``).
SPECIAL: dict = {}
# The elementwise ops of arrayx/_kernels/ops.py: one without a rule is traced, not refused.
TABLE_OPS = frozenset(ELEMENTWISE_NAMES)


def _has_tracer(args, kw) -> bool:
    for a in (*args, *kw.values()):
        if type(a) is Tracer or (isinstance(a, (list, tuple))
                                 and any(type(i) is Tracer for i in a)):
            return True
    return False


def _nondifferentiable(fun):
    def op(*args, **kw):
        if not _has_tracer(args, kw):
            return fun(*args, **kw)
        return _constant(fun(*[plain(a) for a in args], **{k: plain(v) for k, v in kw.items()}))
    return op


def _constant(out):
    """``out`` (an array, or a tuple of them) as constants of the innermost live trace."""
    level = current_level()
    if not level:
        return out
    if isinstance(out, arrayx.Array):
        return Tracer(out, None, level)
    if isinstance(out, tuple) and any(isinstance(a, arrayx.Array) for a in out):
        return rebuild(type(out), [Tracer(a, None, level) if isinstance(a, arrayx.Array) else a
                                   for a in out])
    return out


def _creation(fun):
    def op(*args, **kw):
        return _constant(fun(*[plain(a) for a in args], **{k: plain(v) for k, v in kw.items()}))
    return op


def _composed_op(fun, composition):
    def op(*args, **kw):
        return composition(*args, **kw) if _has_tracer(args, kw) else fun(*args, **kw)
    return op


def _sequence(prim):
    """A primitive over ``*arrays`` exposed as a function of one sequence (concat, stack)."""
    def op(arrays, /, *, axis=0):
        return prim(*arrays, axis=axis)
    return op


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """``arrayx.asarray`` that keeps tracing: a tracer stays one (cast or copied as asked),
    and a sequence holding tracers is stacked."""
    if type(obj) is Tracer:
        if dtype is not None and dtype != obj.dtype:
            return traced.astype(obj, dtype)
        return traced.astype(obj, obj.dtype, copy=True) if copy else obj
    if isinstance(obj, (list, tuple)) and _nested_tracer(obj):
        out = traced.stack([asarray(item) for item in obj])
        return out if dtype is None else traced.astype(out, dtype)
    return _constant(arrayx.asarray(obj, dtype=dtype, device=device, copy=copy))


def _nested_tracer(obj) -> bool:
    return any(type(i) is Tracer or (isinstance(i, (list, tuple)) and _nested_tracer(i))
               for i in obj)


def _clip(prim):
    def clip(x, /, min=None, max=None):
        return prim(x, min, max)
    return clip


def _special() -> dict:
    """The functions whose traced form takes its arrays differently from arrayx's."""
    return {
        "asarray": asarray,
        "clip": _clip(primitive(_clip_function, RULES["clip"], "clip")),
        "concat": _sequence(primitive(_concat_function, RULES["concat"], "concat")),
        "stack": _sequence(primitive(_stack_function, RULES["stack"], "stack")),
    }


def _no_rule(name: str):
    """The rule of an elementwise op of the table that has none here yet: it runs on constants
    and refuses, when traced, to be differentiated (rather than give a zero gradient)."""
    def refuse(ans, *args, **kw):
        raise TypeError(f"{name} has no gradient rule in arrayx.autograd (add it to "
                        f"autograd/_rules.py); stop_gradient its inputs to compute through it")
    return refuse


def _wrap(name: str, fun, rules: dict, multi: dict, composed: dict, prefix: str):
    qualified = prefix + name
    if qualified in SPECIAL:
        return SPECIAL[qualified]
    if name in rules:
        return primitive(fun, rules[name], qualified)
    if name in multi:
        return primitive_multi(fun, multi[name], qualified)
    if name in composed:
        return _composed_op(fun, composed[name])
    if qualified in NONDIFFERENTIABLE:
        return _nondifferentiable(fun)
    if qualified in CREATION:
        return _creation(fun)
    if qualified in TABLE_OPS:
        return primitive(fun, _no_rule(qualified), qualified)
    if callable(fun) and not isinstance(fun, type):
        raise RuntimeError(f"arrayx.{qualified} is in no table of arrayx.autograd")
    return fun


def _fill(target, source, names, rules, multi, composed, prefix):
    for name in names:
        setattr(target, name, _wrap(name, getattr(source, name), rules, multi, composed,
                                    prefix))


def _clip_function(x, lo, hi):
    return arrayx.clip(x, min=lo, max=hi)


def _concat_function(*arrays, axis=0):
    return arrayx.concat(arrays, axis=axis)


def _stack_function(*arrays, axis=0):
    return arrayx.stack(arrays, axis=axis)


def _getitem_function(x, key):
    return x[key]


def build() -> types.ModuleType:
    """Fill the traced namespace (``_tracer.traced``) and its ``linalg`` and ``fft``."""
    SPECIAL.update(_special())
    names = [n for n in arrayx.__all__ if n not in ("linalg", "fft", "lib")]
    _fill(traced, arrayx, names, RULES, {}, _composed.COMPOSED, "")
    traced.getitem = primitive(_getitem_function, RULES["getitem"], "__getitem__")
    for name, impl in _rules.IMPLEMENTATIONS.items():
        setattr(traced, name, primitive(impl, _rules.UPDATES[name], name))
    traced.lib = arrayx.lib
    traced.__array_api_version__ = arrayx.__array_api_version__
    traced.__all__ = list(arrayx.__all__)

    linalg = types.ModuleType("arrayx.autograd.numpy.linalg")
    _fill(linalg, arrayx.linalg, arrayx.linalg.__all__, _linalg_rules.LINALG,
          _linalg_rules.LINALG_MULTI, _composed.LINALG_COMPOSED, "linalg.")
    linalg.matmul = traced.matmul
    linalg.__all__ = list(arrayx.linalg.__all__)
    traced.linalg = linalg

    fft = types.ModuleType("arrayx.autograd.numpy.fft")
    _fill(fft, arrayx.fft, arrayx.fft.__all__, _linalg_rules.FFT, {},
          _composed.FFT_COMPOSED, "fft.")
    fft.__all__ = list(arrayx.fft.__all__)
    traced.fft = fft
    install_operators(Tracer, traced, tracer_inplace)
    return traced

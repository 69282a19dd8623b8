"""The functions strict mode puts in the namespace in place of the lenient ones: the standard's
signatures and dtypes, each error naming the rule (see ``_strict``)."""

from __future__ import annotations

import functools
from typing import Any

from arrayx import _elementwise, _searching, _statistical, _utility
from arrayx._array import Array
from arrayx._strict import rule


def _no_bool_sum(lenient: Any) -> Any:
    @functools.wraps(lenient)
    def strict(x: Array, /, **kwargs: Any) -> Array:
        if isinstance(x, Array) and x.dtype == "bool" and kwargs.get("dtype") is None:
            raise TypeError(rule(f"{lenient.__name__} of a bool array", "bool-sum"))
        return lenient(x, **kwargs)
    return strict


def diff(x: Array, /, *positional: Any, axis: int = -1, n: int = 1, prepend: Any = None,
         append: Any = None) -> Array:
    """``arrayx.diff`` with the standard's signature: ``n`` and ``axis`` by keyword only."""
    if positional:
        raise TypeError(rule("diff with n or axis by position", "keyword-only"))
    return _utility.diff(x, n=n, axis=axis, prepend=prepend, append=append)


def _bool_only(lenient: Any) -> Any:
    @functools.wraps(lenient)
    def strict(*args: Any) -> Array:
        if any(isinstance(a, Array) and a.dtype != "bool" for a in args):
            raise TypeError(rule(f"{lenient.__name__} of a non-bool array", "logical"))
        return lenient(*args)
    return strict


@functools.wraps(_searching.where)
def where(condition: Array, x1: Any = None, x2: Any = None, /) -> Array:
    if x1 is None and x2 is None:
        raise TypeError(rule("where with a condition alone", "where"))
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        raise TypeError(rule("where with two scalars", "where-scalars"))
    return _searching.where(condition, x1, x2)


VARIANTS = {
    "sum": _no_bool_sum(_statistical.sum),
    "prod": _no_bool_sum(_statistical.prod),
    "cumulative_sum": _no_bool_sum(_statistical.cumulative_sum),
    "cumulative_prod": _no_bool_sum(_statistical.cumulative_prod),
    "diff": diff,
    "where": where,
    **{name: _bool_only(getattr(_elementwise, name))
       for name in ("logical_and", "logical_not", "logical_or", "logical_xor")},
}

"""Strict mode: arrayx as the standard alone, for the CI of libraries that consume it.

What arrayx adds for users (the names on :doc:`/reference/extensions`, NumPy's methods,
``diff``'s positional ``n`` and ``axis``, bool sums, the NumPy behaviours the standard leaves
open: scalar conversion of one-element arrays, casting in assignment and in-place operators)
hides behind one switch, as ``array_api_strict.set_array_api_strict_flags`` hides NumPy's
leniencies, so portable code can be checked at arrayx's speed. NumPy's functions called on
arrays in strict mode compute in NumPy and return NumPy arrays, as they do on
array-api-strict's arrays (which offer ``__array__`` alone): the protocols no longer dispatch
to arrayx. The switch swaps names in the namespace, so the lenient functions pay
nothing for it. Two further flags, as array-api-strict's, forbid boolean indexing and the
functions whose output shape depends on the data. Every error names the standard's rule broken.
"""

from __future__ import annotations

import os
import sys
from typing import Any

__all__ = ["get_strict_flags", "reset_strict_flags", "set_strict_flags"]

SPEC = "https://data-apis.org/array-api/2025.12/"

#: The standard's rules strict mode enforces, by key.
RULES = {
    "extension": "the standard's namespace has no such name; it is an arrayx extension "
                 f"(see {SPEC}API_specification/index.html)",
    "methods": "the standard's array object has no NumPy methods (sum, reshape, astype, ...); "
               f"call the namespace's functions ({SPEC}API_specification/array_object.html)",
    "keyword-only": "the standard makes n, axis, prepend and append keyword-only: "
                    f"diff(x, /, *, axis=-1, n=1, ...) ({SPEC}API_specification/generated/"
                    "array_api.diff.html)",
    "bool-sum": "the standard leaves the result of summing or multiplying booleans unspecified; "
                "pass dtype= or cast first (" + SPEC + "API_specification/generated/"
                "array_api.sum.html)",
    "0-d": "the standard converts 0-d arrays only to Python scalars ("
           f"{SPEC}API_specification/generated/array_api.array.__float__.html)",
    "assignment": "the standard assigns a value only where its dtype promotes to the "
                  "array's, without casting ("
                  f"{SPEC}API_specification/generated/array_api.array.__setitem__.html)",
    "in-place": "the standard's in-place operators keep the array's dtype only where the "
                "result's dtype equals it, without casting ("
                f"{SPEC}API_specification/array_object.html#in-place-operators)",
    "where": "the standard's where takes a condition and two values: where(condition, x1, x2,"
             f" /); use nonzero ({SPEC}API_specification/generated/array_api.where.html)",
    "bool-arithmetic": "the standard's add and multiply take numeric arrays only; use "
                       f"logical_or and logical_and ({SPEC}API_specification/generated/"
                       "array_api.add.html)",
    "where-scalars": "the standard's where needs x1 or x2 to be an array ("
                     f"{SPEC}API_specification/generated/array_api.where.html)",
    "logical": "the standard's logical functions take bool arrays only "
               f"({SPEC}API_specification/generated/array_api.logical_and.html)",
    "boolean-indexing": "boolean array indexing gives a shape that depends on the data, which "
                        "the standard makes optional ("
                        f"{SPEC}API_specification/indexing.html#boolean-array-indexing); the "
                        "boolean_indexing or data_dependent_shapes flag is off",
    "data-dependent": "output shapes that depend on the data are optional in the standard "
                      f"({SPEC}design_topics/data_dependent_output_shapes.html); strict mode's "
                      "data_dependent_shapes flag is off",
}


class Flags:
    """The switches, read by the protocols and the indexing path (attributes, not a dict)."""

    __slots__ = ("boolean_indexing", "data_dependent_shapes", "strict")

    def __init__(self) -> None:
        self.strict = False
        self.boolean_indexing = True
        self.data_dependent_shapes = True


FLAGS = Flags()

#: Names that exist only outside strict mode, and names strict mode replaces by a stricter
#: function, filled by ``arrayx/__init__.py``.
EXTENSIONS: dict[str, Any] = {}
STRICT_VARIANTS: dict[str, Any] = {}
DATA_DEPENDENT = ("nonzero", "unique_all", "unique_counts", "unique_inverse", "unique_values")
_LENIENT: dict[str, Any] = {}


class _Lenient:
    """arrayx's namespace as it is outside strict mode, whatever the switch says now: NumPy's
    protocols bind their table to it at first use, which may come while strict mode hides
    ``nansum`` and swaps ``sum`` for its strict variant."""

    def __getattr__(self, name: str) -> Any:
        if name in EXTENSIONS:
            return EXTENSIONS[name]
        if name in _LENIENT:
            return _LENIENT[name]
        return getattr(_namespace(), name)


LENIENT = _Lenient()


class StrictError(TypeError):
    """A call strict mode or its flags forbid. NumPy's protocols pass it on instead of falling
    back to NumPy, which would compute what the flags forbid."""


def check_data_dependent(what: str) -> None:
    """Raise StrictError when the data_dependent_shapes flag is off (for the functions whose
    output shape depends on the data, called by any route)."""
    if not FLAGS.data_dependent_shapes:
        raise StrictError(rule(what, "data-dependent"))


def rule(what: str, key: str) -> str:
    """The message of a strict-mode error: what was called and the rule it breaks."""
    return f"{what} is not allowed in arrayx's strict mode: {RULES[key]}"


def set_strict_flags(*, strict: bool | None = None, boolean_indexing: bool | None = None,
                     data_dependent_shapes: bool | None = None) -> None:
    """Switch arrayx's strict mode and its flags; arguments left None keep their value.

    Strict mode hides every name beyond the standard (``pad``, ``nansum``, ...), gives
    ``diff``, ``sum``, ``prod`` and the cumulative functions the standard's signatures and
    dtypes only, makes NumPy's functions (``np.sum(x)``, ``np.add(x, y)``) compute in NumPy
    and return NumPy arrays, as they do on array-api-strict's arrays, and keeps the standard's
    rules where NumPy's are looser (assignment and in-place casting, scalar conversion).
    ``ARRAYX_STRICT=1`` in the environment turns it on at import.

    Parameters
    ----------
    strict : bool, optional
        Strict mode on or off.
    boolean_indexing : bool, optional
        False forbids indexing with boolean arrays (as array-api-strict's flag of that name).
    data_dependent_shapes : bool, optional
        False forbids the functions whose output shape depends on the data (``nonzero``,
        ``unique_*``, one-argument ``where``, ``repeat`` with an array of counts), by any
        route (NumPy's protocols too), and boolean indexing.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.set_strict_flags(strict=True)
    >>> xp.sum(xp.asarray([True, False]))
    Traceback (most recent call last):
        ...
    TypeError: sum of a bool array is not allowed in arrayx's strict mode: ...
    >>> hasattr(xp, "pad")
    False
    >>> xp.reset_strict_flags()
    >>> xp.sum(xp.asarray([True, False]))
    Array(1, dtype=int64)
    """
    if strict is not None:
        _switch(bool(strict))
    if boolean_indexing is not None:
        FLAGS.boolean_indexing = bool(boolean_indexing)
    if data_dependent_shapes is not None:
        FLAGS.data_dependent_shapes = bool(data_dependent_shapes)
        _swap_data_dependent(not FLAGS.data_dependent_shapes)


def get_strict_flags() -> dict[str, bool]:
    """The current strict-mode flags.

    Returns
    -------
    dict
        ``strict``, ``boolean_indexing`` and ``data_dependent_shapes``, each a bool.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.get_strict_flags()
    {'strict': False, 'boolean_indexing': True, 'data_dependent_shapes': True}
    """
    return {"strict": FLAGS.strict, "boolean_indexing": FLAGS.boolean_indexing,
            "data_dependent_shapes": FLAGS.data_dependent_shapes}


def reset_strict_flags() -> None:
    """Turn strict mode off and allow boolean indexing and data-dependent shapes again.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.set_strict_flags(strict=True, boolean_indexing=False)
    >>> xp.reset_strict_flags()
    >>> xp.get_strict_flags()
    {'strict': False, 'boolean_indexing': True, 'data_dependent_shapes': True}
    """
    set_strict_flags(strict=False, boolean_indexing=True, data_dependent_shapes=True)


def _namespace() -> Any:
    return sys.modules["arrayx"]


def _switch(on: bool) -> None:
    if on == FLAGS.strict:
        return
    ns = _namespace()
    FLAGS.strict = on
    for name, func in STRICT_VARIANTS.items():
        _replace(ns, name, func if on else None)
    if on:
        for name in EXTENSIONS:
            if hasattr(ns, name):
                delattr(ns, name)
        ns.__all__ = [n for n in ns.__all__ if n not in EXTENSIONS]
    else:
        for name, func in EXTENSIONS.items():
            setattr(ns, name, func)
        ns.__all__ = sorted({*ns.__all__, *EXTENSIONS})


def _replace(ns: Any, name: str, func: Any) -> None:
    """Put ``func`` at ``ns.name`` (keeping the lenient one), or restore the lenient one."""
    if func is not None:
        _LENIENT.setdefault(name, getattr(ns, name))
        setattr(ns, name, func)
    elif name in _LENIENT:
        setattr(ns, name, _LENIENT.pop(name))


def _swap_data_dependent(forbid: bool) -> None:
    ns = _namespace()
    for name in DATA_DEPENDENT:
        _replace(ns, name, _forbidden(name, _LENIENT.get(name, getattr(ns, name)))
                 if forbid else None)


def _forbidden(name: str, lenient: Any) -> Any:
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise StrictError(rule(name, "data-dependent"))
    forbidden.__name__ = forbidden.__qualname__ = name
    forbidden.__doc__ = lenient.__doc__
    return forbidden


def missing(name: str) -> AttributeError:
    """The error for a name strict mode hides (raised by the namespace's ``__getattr__``)."""
    return AttributeError(rule(f"arrayx.{name}", "extension"))


def from_environment() -> None:
    """Turn strict mode on when ``ARRAYX_STRICT`` is set to 1 (at import)."""
    if os.environ.get("ARRAYX_STRICT", "0") not in ("", "0"):
        set_strict_flags(strict=True)

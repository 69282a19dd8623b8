"""User arguments that describe layouts, read and checked: shapes, axes, sequences.

Every function of arrayx that takes a shape or axes reads it here, so that each takes what
NumPy, CuPy and PyTorch take (an int, a tuple or a list, any ``__index__`` object) and refuses
the rest with the same ``TypeError``, ``ValueError`` or ``AxisError``.
"""
from libc.stdint cimport INT64_MAX, int64_t

from arrayx._core.layout cimport MAXDIM

import operator


class AxisError(ValueError, IndexError):
    """An axis outside ``[-ndim, ndim)`` or repeated."""


cdef int parse_shape(object shape, int64_t* out) except -1:
    """Parse an int or a sequence of ints into ``out``; return the number of dimensions."""
    cdef int n, i
    if isinstance(shape, int) and not isinstance(shape, bool):
        out[0] = _as_dim(shape)
        return 1
    if isinstance(shape, bool):
        raise TypeError(f"a shape must be an int or a tuple of ints, got {shape!r}")
    if isinstance(shape, (tuple, list)):
        shape = exact_sequence(shape)
        n = len(shape)
        if n > MAXDIM:
            raise ValueError(f"arrayx supports at most {MAXDIM} dimensions, got {n}")
        for i in range(n):
            out[i] = _as_dim(shape[i])
        return n
    try:
        return parse_shape(operator.index(shape), out)
    except TypeError:
        pass
    try:
        return parse_shape(tuple(shape), out)
    except TypeError:
        raise TypeError(f"a shape must be an int or a tuple of ints, got {shape!r}") from None


cdef object integer(object v, str what):
    """``operator.index(v)``; TypeError naming ``what`` for a bool or a non-integer."""
    if isinstance(v, bool):
        raise TypeError(f"{what} must be an int, got {v!r}")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what} must be an int, got {type(v).__name__}") from None


cdef inline int64_t _as_dim(object d) except? -1:
    v = integer(d, "a dimension")
    if v < 0:
        raise ValueError(f"negative dimensions are not allowed, got {v}")
    if v > INT64_MAX:
        raise ValueError(f"dimension {v} does not fit in 64 bits")
    return v


cdef int normalize_axis(object axis, int ndim) except -1:
    """``axis`` as an index in ``[0, ndim)``; AxisError (a ValueError and IndexError) if not."""
    a = integer(axis, "an axis")
    if a < -ndim or a >= ndim:
        raise AxisError(f"axis {a} is out of bounds for array of dimension {ndim}")
    return a + ndim if a < 0 else a


cdef bint zero_d_axis(object axis, int ndim) except -1:
    """Whether ``axis`` is the one axis NumPy and PyTorch let a reduction of a 0-d array name:
    the int 0 or -1 (it reduces nothing; NumPy refuses it in a tuple). The standard has no
    axis there, so strict mode refuses it as out of bounds."""
    if ndim != 0 or axis is None or isinstance(axis, (tuple, list)):
        return False
    if integer(axis, "an axis") not in (0, -1):
        return False
    from arrayx._strict import FLAGS
    return not FLAGS.strict


cdef tuple reduction_axes(object axis, int ndim):
    """Sorted, normalised, distinct axes of ``axis`` (None: all); AxisError on a repeat. A
    0-d array's axis 0 or -1 (``zero_d_axis``) is no axis."""
    if axis is None or zero_d_axis(axis, ndim):
        return tuple(range(ndim))
    return tuple(sorted(normalized_axes(axis, ndim)))


cdef tuple as_items(object arg):
    """An argument that is one item or several (axes, shifts) as a tuple of its items: a tuple
    or a list gives its items, as NumPy, CuPy and PyTorch take either; anything else is one."""
    if isinstance(arg, (tuple, list)):
        return tuple(exact_sequence(arg))
    return (arg,)


cdef list normalized_axes(object axes, int ndim, str what=None):
    """Normalised axes of an int, a tuple or a list; AxisError on a repeat. ``what`` names the
    argument in the error (NumPy's ``source: axis 3 is out of bounds ...``)."""
    axes = as_items(axes)
    try:
        out = [normalize_axis(a, ndim) for a in axes]
    except AxisError as e:
        if what is None:
            raise
        raise AxisError(f"{what}: {e}") from None
    if len(set(out)) != len(out):
        raise AxisError(f"repeated axis in {axes}")
    return out


cdef object exact_sequence(object seq):
    """A list or tuple subclass read through its iterator once: its ``len()`` and items need
    not agree, and the lengths taken below size C loops over the items."""
    if type(seq) is tuple or type(seq) is list:
        return seq
    return tuple(seq)

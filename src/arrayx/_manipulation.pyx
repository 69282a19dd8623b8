"""Manipulation functions that are views: nothing here copies data (except ``reshape`` when it
must and ``copy`` allows it)."""
import operator

from libc.stdint cimport INT64_MAX, int64_t

from arrayx._array cimport Array, as_array, code_of, contiguous_copy, new_array, wrap
from arrayx._core.arguments cimport as_items, normalize_axis, normalized_axes, parse_shape
from arrayx._core.layout cimport MAXDIM, Layout, add_extent, contiguous, new_layout
from arrayx._engine cimport ITEMSIZE, copy_cast, same_device
from arrayx._core.layout cimport broadcast_shapes as layout_broadcast_shapes
from arrayx._core.layout cimport broadcast_to as layout_broadcast_to
from arrayx._core.layout cimport expand_dims as layout_expand_dims
from arrayx._core.layout cimport flip as layout_flip
from arrayx._core.layout cimport permute
from arrayx._core.layout cimport reshape as layout_reshape
from arrayx._core.layout cimport squeeze as layout_squeeze

from arrayx._core.layout import joined_extent, make as make_layout
from arrayx import _strict
from arrayx._dtypes import CODE, DTYPES, result_type
from arrayx._docfill import fill

__all__ = [
    "broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims", "flip",
    "matrix_transpose", "moveaxis", "permute_dims", "repeat", "reshape", "roll", "squeeze",
    "sliding_window_view", "stack", "tile", "unstack",
]



cdef inline Array _view(Array a, Layout L, bint writeable=True):
    return wrap(a._storage, L, a._code, writeable and a._writeable)


def reinterpret(x, dtype) -> Array:
    """NumPy's ``x.view(dtype)``: ``x``'s bytes read as ``dtype``, a view that copies nothing.

    A dtype of another item size rescales the last axis, which must then be contiguous and
    hold a whole number of the new items; every other stride and the offset must be whole
    multiples of the new item size (ValueError otherwise, as NumPy's).
    """
    cdef Array a = as_array(x, "view")
    cdef int code = code_of(dtype)
    cdef int64_t old = ITEMSIZE[a._code], new = ITEMSIZE[code]
    cdef Layout L = a._layout
    cdef int n = L.ndim, i
    cdef int64_t shape[MAXDIM]
    cdef int64_t strides[MAXDIM]
    for i in range(n):
        shape[i] = L.shape_[i]
        strides[i] = L.strides_[i] * old
    if old != new:
        if n == 0 or (strides[n - 1] != old and shape[n - 1] != 1):
            raise ValueError(f"to view an array of {a.dtype} as {DTYPES[code]}, its "
                             "last axis must be contiguous")
        if shape[n - 1] * old % new:
            raise ValueError(f"the last axis of {shape[n - 1] * old} bytes does not divide "
                             f"into items of {new} bytes")
        shape[n - 1] = shape[n - 1] * old // new
        strides[n - 1] = new
    for i in range(n):
        if strides[i] % new:
            raise ValueError(f"a stride of {strides[i]} bytes is not a whole number of "
                             f"{DTYPES[code]} items")
        strides[i] //= new
    if L.offset * old % new:
        raise ValueError(f"the array does not start on a {DTYPES[code]} boundary")
    return wrap(a._storage, new_layout(n, shape, strides, L.offset * old // new), code,
                a._writeable)


def permute_dims(x, /, axes) -> Array:
    """A view of ``x`` with its axes permuted: no copy.

    Parameters
    ----------
    %(x_input)s
    axes : tuple of ints
        A permutation of ``range(x.ndim)`` (negative axes count from the end); output axis ``i``
        is input axis ``axes[i]``.

    Returns
    -------
    Array
        A view sharing ``x``'s memory, its axes in the order ``axes``.

    Raises
    ------
    ValueError
        If ``axes`` is not a permutation of the axes.

    %(examples)s
    >>> x = xp.zeros((2, 3, 4))
    >>> xp.permute_dims(x, (2, 0, 1)).shape
    (4, 2, 3)
    """
    cdef Array a = as_array(x, "permute_dims")
    return _view(a, permute(a._layout, axes))


def matrix_transpose(x, /) -> Array:
    """A view of ``x`` with its last two axes swapped (the transpose of each matrix): no copy.

    Parameters
    ----------
    %(x_stack)s

    Returns
    -------
    Array
        A view sharing ``x``'s memory; the same as ``x.mT``.

    Raises
    ------
    %(raises_few_dims)s

    %(examples)s
    >>> xp.matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))
    Array([[1, 4],
           [2, 5],
           [3, 6]], dtype=int64)
    """
    return as_array(x, "matrix_transpose").mT


def expand_dims(x, /, axis=0) -> Array:
    """A view of ``x`` with axes of size one inserted at ``axis``: no copy.

    Parameters
    ----------
    %(x_input)s
    axis : int or tuple of ints, optional
        Positions of the new axes in the result (negative ones count from its end); default 0.

    Returns
    -------
    Array
        A view with ``x.ndim + len(axis)`` dimensions.

    Raises
    ------
    IndexError
        If a position is out of range.
    ValueError
        If a position repeats.

    %(examples)s
    >>> x = xp.asarray([1, 2, 3])
    >>> xp.expand_dims(x, axis=0).shape
    (1, 3)
    >>> xp.expand_dims(x, axis=(0, -1)).shape
    (1, 3, 1)
    """
    cdef Array a = as_array(x, "expand_dims")
    return _view(a, layout_expand_dims(a._layout, axis))


def squeeze(x, /, axis) -> Array:
    """A view of ``x`` without the axes ``axis``, which must have size one: no copy.

    Parameters
    ----------
    %(x_input)s
    axis : int or tuple of ints
        The axes to remove.

    Returns
    -------
    Array
        A view with ``x.ndim - len(axis)`` dimensions.

    Raises
    ------
    ValueError
        If an axis does not have size one.
    %(raises_an_axis_range)s

    %(examples)s
    >>> xp.squeeze(xp.zeros((1, 3, 1)), axis=(0, 2)).shape
    (3,)
    """
    cdef Array a = as_array(x, "squeeze")
    return _view(a, layout_squeeze(a._layout, axis))


def flip(x, /, *, axis=None) -> Array:
    """A view of ``x`` with the order of elements reversed along ``axis``: no copy.

    The view has negative strides on the flipped axes.

    Parameters
    ----------
    %(x_input)s
    axis : int or tuple of ints, optional
        The axes to reverse; None (default) reverses all.

    Returns
    -------
    %(returns_view)s

    Raises
    ------
    %(raises_an_axis_range)s

    %(examples)s
    >>> x = xp.asarray([[1, 2], [3, 4]])
    >>> xp.flip(x)
    Array([[4, 3],
           [2, 1]], dtype=int64)
    >>> xp.flip(x, axis=1)
    Array([[2, 1],
           [4, 3]], dtype=int64)
    """
    cdef Array a = as_array(x, "flip")
    return _view(a, layout_flip(a._layout, axis))


def reshape(x, /, shape, *, copy=None) -> Array:
    """``x`` with a new shape: a view when the strides allow one, otherwise a copy.

    A C-contiguous array always reshapes as a view; a transposed or sliced one does when its
    axes merge (see :doc:`/guide/views`).

    Parameters
    ----------
    %(x_input)s
    shape : tuple of ints
        The new shape, of ``x.size`` elements; one entry may be -1, inferred from the others.
    copy : bool, optional
        True always copies; False never does; None (default) copies only when a view cannot
        serve.

    Returns
    -------
    Array
        A view of ``x``'s memory, or a new C-contiguous array.

    Raises
    ------
    ValueError
        If the sizes differ, or ``copy=False`` and a view cannot serve.

    %(examples)s
    >>> x = xp.arange(6)
    >>> xp.reshape(x, (2, -1))
    Array([[0, 1, 2],
           [3, 4, 5]], dtype=int64)
    >>> xp.reshape(xp.reshape(x, (2, 3)).mT, (6,))
    Array([0, 3, 1, 4, 2, 5], dtype=int64)
    """
    cdef Array a = as_array(x, "reshape")
    cdef int64_t sh[MAXDIM]
    cdef int n = _parse_reshape(shape, a._layout.size, sh)
    cdef Layout L
    if copy:
        a = contiguous_copy(a, a._code)
        return _view(a, layout_reshape(a._layout, n, sh))
    L = layout_reshape(a._layout, n, sh)
    if L is not None:
        return _view(a, L)
    if copy is False:
        raise ValueError(f"reshaping an array of shape {a.shape} and strides "
                         f"{a._layout.strides} to {tuple(shape)} needs a copy, but copy=False")
    a = contiguous_copy(a, a._code)
    return _view(a, layout_reshape(a._layout, n, sh))


cdef int _parse_reshape(object shape, int64_t size, int64_t* out) except -1:
    """Parse a reshape target (one entry may be -1) for ``size`` elements into ``out``.

    Products are formed with Python ints, so an overflowing shape is a ValueError, never a
    wrapped product that happens to match ``size``.
    """
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        shape = tuple(shape)
    except TypeError:
        raise TypeError(f"a shape must be an int or a tuple of ints, got {shape!r}") from None
    cdef int n = len(shape)
    if n > MAXDIM:
        raise ValueError(f"arrayx supports at most {MAXDIM} dimensions, got {n}")
    dims = []
    for d in shape:
        if isinstance(d, bool):
            raise TypeError(f"a dimension must be an int, got {d!r}")
        try:
            dims.append(operator.index(d))
        except TypeError:
            raise TypeError(f"a dimension must be an int, got {type(d).__name__}") from None
    if dims.count(-1) > 1:
        raise ValueError("only one dimension of a new shape can be -1")
    if any(d < -1 for d in dims):
        raise ValueError(f"invalid dimension in shape {shape}: only -1 may be negative")
    known = 1
    nonzero = 1
    for d in dims:
        if d != -1:
            known *= d
            nonzero *= d or 1
    if -1 in dims:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape an array of size {size} into shape {shape}")
        dims[dims.index(-1)] = size // known
    elif known != size or nonzero > INT64_MAX:
        raise ValueError(f"cannot reshape an array of size {size} into shape {shape}")
    for i in range(n):
        out[i] = dims[i]
    return n


def broadcast_to(x, /, shape) -> Array:
    """A read-only view of ``x`` broadcast to ``shape``: no copy.

    Stretched axes get stride 0, so every element of them is the same memory; writing into the
    view raises ``ValueError``.

    Parameters
    ----------
    %(x_input)s
    shape : tuple of ints
        The target shape; ``x``'s shape must broadcast to it.

    Returns
    -------
    Array
        A read-only view of ``shape``.

    Raises
    ------
    ValueError
        If ``x``'s shape does not broadcast to ``shape``.

    %(examples)s
    >>> xp.broadcast_to(xp.asarray([1, 2, 3]), (2, 3))
    Array([[1, 2, 3],
           [1, 2, 3]], dtype=int64)
    """
    cdef Array a = as_array(x, "broadcast_to")
    cdef int64_t sh[MAXDIM]
    cdef int n = parse_shape(shape, sh)
    return _view(a, layout_broadcast_to(a._layout, n, sh), False)


def broadcast_shapes(*shapes) -> tuple:
    """The shape that ``shapes`` broadcast to together.

    Parameters
    ----------
    *shapes : tuple of ints
        The shapes.

    Returns
    -------
    tuple of ints
        The broadcast shape.

    Raises
    ------
    %(raises_broadcast)s

    %(examples)s
    >>> xp.broadcast_shapes((2, 1), (1, 3))
    (2, 3)
    >>> xp.broadcast_shapes((5, 1, 4), (3, 1))
    (5, 3, 4)
    """
    layouts = [make_layout(s) for s in shapes]
    cdef int64_t out[MAXDIM]
    cdef int n = layout_broadcast_shapes(layouts, out)
    return tuple([out[i] for i in range(n)])


def broadcast_arrays(*arrays) -> tuple:
    """Views of ``arrays`` broadcast to their common shape: no copy.

    A view that repeats elements (a dimension added or stretched) is read-only; an array that
    already has the common shape comes back as a view as writeable as it was (NumPy returns
    such inputs themselves, PyTorch writeable views).

    Parameters
    ----------
    *arrays : Array
        The arrays.

    Returns
    -------
    tuple of Array
        One view per input, each of the broadcast shape; read-only where it repeats elements.

    Raises
    ------
    %(raises_broadcast)s

    %(examples)s
    >>> a, b = xp.broadcast_arrays(xp.asarray([[1], [2]]), xp.asarray([10, 20, 30]))
    >>> a
    Array([[1, 1, 1],
           [2, 2, 2]], dtype=int64)
    >>> b.shape
    (2, 3)
    """
    cdef list arrs = [as_array(a, "broadcast_arrays") for a in arrays]
    cdef int64_t out[MAXDIM]
    cdef int n = layout_broadcast_shapes([(<Array>a)._layout for a in arrs], out)
    cdef Array a
    return tuple([_view(a, layout_broadcast_to(a._layout, n, out), _has_shape(a._layout, n, out))
                  for a in arrs])


cdef bint _has_shape(Layout L, int ndim, const int64_t* shape) noexcept:
    """Whether ``L`` already has the shape ``shape`` (broadcasting it repeats nothing)."""
    if L.ndim != ndim:
        return False
    cdef int i
    for i in range(ndim):
        if L.shape_[i] != shape[i]:
            return False
    return True


def concat(arrays, /, *, axis=0) -> Array:
    """Join arrays along an existing axis, into a new array.

    Parameters
    ----------
    arrays : tuple or list of Array
        Arrays on one device whose shapes agree except along ``axis``; their dtypes promote.
    axis : int or None, optional
        The axis to join along (default 0); None flattens each array and joins them end to end.

    Returns
    -------
    Array
        A new array: each input is copied once, cast to the promoted dtype on the way.

    Raises
    ------
    ValueError
        If no array is given, or the shapes disagree off ``axis``.
    %(raises_promote)s

    %(examples)s
    >>> a = xp.asarray([[1, 2]])
    >>> xp.concat([a, xp.asarray([[3, 4]])])
    Array([[1, 2],
           [3, 4]], dtype=int64)
    >>> xp.concat([a, xp.asarray([[5.5]])], axis=1)
    Array([[1. , 2. , 5.5]], dtype=float64)
    """
    cdef list parts = [as_array(a, "concat") for a in arrays]
    if not parts:
        raise ValueError("concat needs at least one array")
    if axis is None:
        parts = [reshape(p, (-1,)) for p in parts]
        axis = 0
    cdef Array first = parts[0], p
    cdef int n = first._layout.ndim
    if n == 0:
        raise ValueError("concat cannot join 0-d arrays")
    cdef int ax = normalize_axis(axis, n)
    cdef int code = CODE[result_type(*parts)]
    cdef int64_t shape[MAXDIM]
    cdef int64_t total = 0, start = 0
    for p in parts:
        same_device(p._storage, first._storage, "concat")
        if p._layout.ndim != n:
            raise ValueError(f"concat: shapes {first.shape} and {p.shape} differ in rank")
        for i in range(n):
            if i != ax and p._layout.shape_[i] != first._layout.shape_[i]:
                raise ValueError(f"concat: shapes {first.shape} and {p.shape} differ off "
                                 f"axis {ax}")
        total = add_extent(total, p._layout.shape_[ax])
    for i in range(n):
        shape[i] = first._layout.shape_[i]
    shape[ax] = total
    cdef Array out = new_array(contiguous(n, shape), code, first._storage.device)
    for p in parts:
        shape[ax] = p._layout.shape_[ax]
        copy_cast(p._storage, p._layout, p._code, out._storage,
                  new_layout(n, shape, out._layout.strides_, start * out._layout.strides_[ax]),
                  code)
        start += p._layout.shape_[ax]
    return out


def stack(arrays, /, *, axis=0) -> Array:
    """Join arrays of one shape along a new axis, into a new array.

    Parameters
    ----------
    arrays : tuple or list of Array
        Arrays of one shape on one device; their dtypes promote.
    axis : int, optional
        The position of the new axis in the result (default 0).

    Returns
    -------
    Array
        A new array with one more dimension than the inputs.

    Raises
    ------
    ValueError
        If no array is given, or the shapes differ.
    %(raises_promote)s

    %(examples)s
    >>> xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])], axis=1)
    Array([[1, 3],
           [2, 4]], dtype=int64)
    """
    cdef list parts = [as_array(a, "stack") for a in arrays]
    if not parts:
        raise ValueError("stack needs at least one array")
    shape = parts[0].shape
    for p in parts:
        if p.shape != shape:
            raise ValueError(f"stack: shapes {shape} and {p.shape} differ")
    ax = normalize_axis(axis, len(shape) + 1)
    return concat([expand_dims(p, axis=ax) for p in parts], axis=ax)


def moveaxis(x, source, destination, /) -> Array:
    """A view of ``x`` with the axes ``source`` moved to positions ``destination``: no copy.

    The other axes keep their order.

    Parameters
    ----------
    %(x_input)s
    source : int or tuple of ints
        The axes to move.
    destination : int or tuple of ints
        Their positions in the result, as many as ``source``.

    Returns
    -------
    %(returns_view)s

    Raises
    ------
    ValueError
        If ``source`` and ``destination`` differ in length or repeat an axis.
    %(raises_an_axis_range)s

    %(examples)s
    >>> xp.moveaxis(xp.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    cdef Array a = as_array(x, "moveaxis")
    cdef int n = a._layout.ndim
    src = normalized_axes(source, n, "source")
    dst = normalized_axes(destination, n, "destination")
    if len(src) != len(dst):
        raise ValueError("moveaxis needs as many destinations as sources")
    order = [i for i in range(n) if i not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return permute_dims(a, tuple(order))


def unstack(x, /, *, axis=0) -> tuple:
    """The slices of ``x`` along ``axis``, as a tuple of views: no copy.

    Parameters
    ----------
    %(x_input)s
    axis : int, optional
        The axis to split along (default 0).

    Returns
    -------
    tuple of Array
        ``x.shape[axis]`` views, each without ``axis``.

    Raises
    ------
    %(raises_axis_range)s

    %(examples)s
    >>> xp.unstack(xp.asarray([[1, 2], [3, 4]]), axis=1)
    (Array([1, 3], dtype=int64), Array([2, 4], dtype=int64))
    """
    cdef Array a = as_array(x, "unstack")
    if a._layout.ndim == 0:
        raise ValueError("unstack needs an array of at least one dimension")
    cdef int ax = normalize_axis(axis, a._layout.ndim)
    lead = (slice(None),) * ax
    return tuple(a[lead + (i,)] for i in range(a._layout.shape_[ax]))


def roll(x, /, shift, *, axis=None) -> Array:
    """``x`` with its elements shifted along ``axis``; those pushed off one end come back at
    the other.

    Parameters
    ----------
    %(x_input)s
    shift : int or tuple of ints
        Places to shift by (negative: towards the start); one per axis when a tuple.
    axis : int or tuple of ints, optional
        The axes to shift along; None (default) shifts the flattened array and restores the
        shape.

    Returns
    -------
    %(returns_new)s

    Raises
    ------
    ValueError
        If ``shift`` and ``axis`` are tuples of different lengths.

    %(examples)s
    >>> xp.roll(xp.asarray([1, 2, 3, 4]), 1)
    Array([4, 1, 2, 3], dtype=int64)
    >>> xp.roll(xp.asarray([[1, 2], [3, 4]]), -1, axis=1)
    Array([[2, 1],
           [4, 3]], dtype=int64)
    """
    cdef Array a = as_array(x, "roll")
    if axis is None:
        flat = roll(reshape(a, (-1,)), sum(as_items(shift)), axis=0)
        return reshape(flat, a.shape)
    shifts = as_items(shift)
    axes = as_items(axis)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        raise ValueError("roll needs one shift per axis")
    out = contiguous_copy(a, a._code)
    for s, ax in zip(shifts, axes, strict=True):
        ax = normalize_axis(ax, a._layout.ndim)
        size = a._layout.shape_[ax]
        if size == 0:
            continue
        k = s % size
        if k == 0:
            continue
        lead = (slice(None),) * ax
        out = concat([out[lead + (slice(size - k, None),)], out[lead + (slice(0, size - k),)]],
                     axis=ax)
    return out


def tile(x, repetitions, /) -> Array:
    """``x`` repeated ``repetitions[i]`` times along each axis ``i``, into a new array.

    Parameters
    ----------
    %(x_input)s
    repetitions : tuple of ints
        Non-negative counts; when shorter than ``x.ndim``, ones are assumed in front, and when
        longer, ``x`` gets leading axes of size one.

    Returns
    -------
    Array
        A new array, ``repetitions[i]`` copies of ``x`` (so padded) along each axis ``i``, one
        after another.

    Raises
    ------
    ValueError
        If a count is negative.

    %(examples)s
    >>> xp.tile(xp.asarray([1, 2]), (2, 2))
    Array([[1, 2, 1, 2],
           [1, 2, 1, 2]], dtype=int64)
    """
    cdef Array a = as_array(x, "tile")
    if isinstance(repetitions, int) and not isinstance(repetitions, bool):
        repetitions = (repetitions,)
    if not isinstance(repetitions, (tuple, list)) or any(isinstance(r, bool)
                                                         for r in repetitions):
        raise TypeError(f"tile's repetitions must be a tuple of ints, got {repetitions!r}")
    try:
        reps = tuple(operator.index(r) for r in repetitions)
    except TypeError:
        raise TypeError(f"tile's repetitions must be a tuple of ints, got {repetitions!r}") \
            from None
    if any(r < 0 for r in reps):
        raise ValueError(f"tile's repetitions must be non-negative, got {reps}")
    n = max(len(reps), a._layout.ndim)
    reps = (1,) * (n - len(reps)) + reps
    a = reshape(a, (1,) * (n - a._layout.ndim) + a.shape)
    cdef int64_t shape[MAXDIM]
    cdef int64_t st[MAXDIM]
    # Each repeated axis becomes (repetitions, length) with stride 0 on the first; the others
    # stay one axis.
    cdef int m = n + sum(1 for r in reps if r != 1)
    if m > MAXDIM:
        raise ValueError(f"tile repeating {m - n} of {n} axes needs {m} dimensions; arrayx "
                         f"supports at most {MAXDIM}")
    cdef int j = 0
    for i in range(n):
        if reps[i] != 1:
            shape[j] = reps[i]
            st[j] = 0
            j += 1
        shape[j] = a._layout.shape_[i]
        st[j] = a._layout.strides_[i]
        j += 1
    cdef Layout spread = new_layout(m, shape, st, a._layout.offset)
    cdef Array out = new_array(contiguous(m, shape), a._code, a._storage.device)
    copy_cast(a._storage, spread, a._code, out._storage, out._layout, a._code)
    return reshape(out, tuple(reps[i] * a.shape[i] for i in range(n)))


def repeat(x, repeats, /, *, axis=None) -> Array:
    """Each element of ``x`` repeated, along ``axis``, into a new array.

    Parameters
    ----------
    %(x_input)s
    repeats : int or Array
        One count for every element, or an integer array of one count per element along
        ``axis``; non-negative.
    axis : int, optional
        The axis to repeat along; None (default) repeats the elements of the flattened array.

    Returns
    -------
    Array
        A new array.

    Raises
    ------
    ValueError
        If a count is negative or ``repeats`` has the wrong length.

    %(examples)s
    >>> xp.repeat(xp.asarray([1, 2, 3]), 2)
    Array([1, 1, 2, 2, 3, 3], dtype=int64)
    >>> xp.repeat(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1, 2]), axis=0)
    Array([[1, 2],
           [3, 4],
           [3, 4]], dtype=int64)
    """
    cdef Array a = as_array(x, "repeat")
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    cdef int ax = normalize_axis(axis, a._layout.ndim)
    cdef int64_t size = a._layout.shape_[ax]
    if isinstance(repeats, Array):
        if repeats.dtype.kind not in "iu":
            raise TypeError(f"repeats must be integers, not {repeats.dtype}")
        _strict.check_data_dependent("repeat with an array of counts")
        counts = [int(c) for c in reshape(repeats, (-1,))]
    else:
        counts = [int(repeats)] * size
    if len(counts) == 1 and size != 1:
        counts = counts * size
    if len(counts) != size:
        raise ValueError(f"repeat: {len(counts)} counts for an axis of {size}")
    if any(c < 0 for c in counts):
        raise ValueError("repeat's counts must be non-negative")
    cdef int64_t shape[MAXDIM]
    cdef int n = a._layout.ndim
    for i in range(n):
        shape[i] = a._layout.shape_[i]
    shape[ax] = joined_extent(counts)
    cdef Array out = new_array(contiguous(n, shape), a._code, a._storage.device)
    cdef int64_t start = 0
    cdef int64_t src_st[MAXDIM]
    cdef int64_t dst_st[MAXDIM]
    if n < MAXDIM and size and counts.count(counts[0]) == size:
        # Every element repeated alike: one copy, the output's axis seen as (size, count)
        # and the input read with a stride of 0 along the count.
        for i in range(n + 1):
            j = i if i <= ax else i - 1
            shape[i] = a._layout.shape_[j]
            src_st[i] = a._layout.strides_[j]
            dst_st[i] = out._layout.strides_[j]
        shape[ax + 1] = counts[0]
        src_st[ax + 1] = 0
        dst_st[ax] = dst_st[ax + 1] * counts[0]
        copy_cast(a._storage, new_layout(n + 1, shape, src_st, a._layout.offset), a._code,
                  out._storage, new_layout(n + 1, shape, dst_st, 0), a._code)
        return out
    for i in range(n):
        src_st[i] = a._layout.strides_[i]
    src_st[ax] = 0
    for i in range(size):
        if counts[i] == 0:
            continue
        shape[ax] = counts[i]
        copy_cast(a._storage, new_layout(n, shape, src_st, a._layout.offset
                                         + i * a._layout.strides_[ax]), a._code,
                  out._storage, new_layout(n, shape, out._layout.strides_,
                                           start * out._layout.strides_[ax]), a._code)
        start += counts[i]
    return out


def sliding_window_view(x, window_shape, axis=None, *, writeable=False) -> Array:
    """Every window of ``window_shape`` over ``x`` along ``axis``, as
    ``numpy.lib.stride_tricks.sliding_window_view`` gives them: a view that copies nothing.

    The windows overlap in memory, so the view is read-only.

    Parameters
    ----------
    x : Array
        The array to window.
    window_shape : int or tuple of ints
        The size of the window along each axis of ``axis``.
    axis : int or tuple of ints, optional
        The axes to slide along (an axis may repeat); default every axis.
    writeable : bool, optional
        Must be False: arrayx views of overlapping memory are read-only.

    Returns
    -------
    Array
        ``x``'s shape with each windowed axis ``n - w + 1`` long, and the window's axes last.

    Raises
    ------
    TypeError
        If ``x`` is not an arrayx array, or a window size or axis is not an integer.
    ValueError
        If ``writeable`` is True, a window is negative or larger than its axis, or
        ``window_shape`` and ``axis`` differ in length.

    %(examples)s
    >>> from arrayx.lib.stride_tricks import sliding_window_view
    >>> v = sliding_window_view(xp.asarray([[1, 2, 3], [4, 5, 6]]), 2, axis=1)
    >>> v.shape
    (2, 2, 2)
    >>> xp.sum(v, axis=-1)
    Array([[ 3,  5],
           [ 9, 11]], dtype=int64)
    """
    cdef Array a = as_array(x, "sliding_window_view")
    if writeable:
        raise ValueError("sliding_window_view: the windows overlap, so the view is read-only")
    cdef Layout L = a._layout
    window = [operator.index(w) for w in as_items(window_shape)]
    if any(w < 0 for w in window):
        raise ValueError("sliding_window_view: window_shape cannot contain negative values")
    if axis is None:
        axes = list(range(L.ndim))
        if len(window) != L.ndim:
            raise ValueError(f"sliding_window_view: with axis None, window_shape needs one "
                             f"size per axis of x; got {len(window)} for {L.ndim} axes")
    else:
        axes = [normalize_axis(i, L.ndim) for i in as_items(axis)]
        if len(window) != len(axes):
            raise ValueError(f"sliding_window_view: {len(window)} window sizes for "
                             f"{len(axes)} axes")
    shape = [L.shape_[i] for i in range(L.ndim)]
    strides = [L.strides_[i] for i in range(L.ndim)]
    for i, w in zip(axes, window):
        if shape[i] < w:
            raise ValueError("sliding_window_view: a window is larger than its axis")
        shape[i] -= w - 1
    return _view(a, make_layout(shape + window, strides + [strides[i] for i in axes],
                                L.offset), False)


fill([broadcast_arrays, broadcast_shapes, broadcast_to, concat, expand_dims, flip, matrix_transpose,
     moveaxis, permute_dims, repeat, reshape, roll, sliding_window_view, squeeze, stack, tile,
     unstack])

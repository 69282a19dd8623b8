"""Advanced indexing (integer arrays and boolean masks, mixed with basic indices), take and
take_along_axis.

A key is resolved NumPy's way: the basic part (ints, slices, ``None``) becomes a view; the
index arrays (masks turned into their nonzero positions) broadcast together and select element
offsets along their axes; the result's advanced axes go where the index arrays stood when they
are adjacent, and first otherwise. Every index is checked before anything is read or written.
"""
from libc.stdint cimport INT64_MAX, int64_t

from arrayx._array cimport (
    Array, assign_source, contiguous_copy, fit_source, new_array, wrap,
)
from arrayx._core.arguments cimport normalize_axis, parse_shape
from arrayx._core.layout cimport MAXDIM, Layout, basic_index, contiguous
from arrayx._core.storage cimport Storage
from arrayx._engine cimport (
    compress_rows, count_true, expand_rows, gather_blocks, may_overlap, same_device,
    scatter_blocks,
)
from arrayx._engine cimport scatter_add as engine_scatter_add
from arrayx._engine cimport take as engine_take
from arrayx._kernels.dtype_codes cimport DT_BOOL, DT_INT8, DT_INT64, DT_UINT64


from arrayx import _dtypes
from arrayx._strict import FLAGS as _FLAGS
from arrayx._strict import rule as _rule
from arrayx._manipulation import broadcast_arrays, broadcast_to, permute_dims, reshape
from arrayx._searching import nonzero
from arrayx._statistical import max as _max

__all__ = ["scatter_add", "take", "take_along_axis"]


cdef object _as_index(object k, Storage indexed):
    """``k`` as an index: an int, a bool, or an integer or boolean arrayx array (a sequence or
    NumPy array made one on the device of ``indexed``, the indexed array's memory; ValueError
    for an arrayx array on another)."""
    from arrayx._creation import asarray
    if isinstance(k, (bool, int, slice)) or k is None or k is Ellipsis:
        return k
    if isinstance(k, Array):
        same_device(indexed, (<Array>k)._storage, "indexing")
    try:
        # An empty sequence selects nothing along its axis: an empty integer index (NumPy).
        a = k if isinstance(k, Array) else asarray(
            k, dtype="int64" if isinstance(k, (list, tuple)) and len(k) == 0 else None,
            device=indexed.device)
    except OverflowError:
        raise IndexError(f"an index in {k!r} is out of bounds for any array") from None
    except TypeError:
        raise IndexError(f"only integers, slices, ..., None and integer or boolean arrays are "
                         f"valid indices, got {type(k).__name__}") from None
    if (<Array>a)._code != DT_BOOL and not DT_INT8 <= (<Array>a)._code <= DT_UINT64:
        raise IndexError(f"arrays used as indices must be integer or boolean, not {a.dtype}")
    if (<Array>a)._layout.ndim == 0:
        return bool(a) if (<Array>a)._code == DT_BOOL else a.__index__()
    if (<Array>a)._code == DT_BOOL and not (_FLAGS.boolean_indexing and _FLAGS.data_dependent_shapes):
        raise IndexError(_rule("boolean array indexing", "boolean-indexing"))
    return _checked_uint64(<Array>a)


cdef Array _checked_uint64(Array a):
    """``a``, or for a uint64 index array a private int64 copy: IndexError when it holds a
    value int64 offsets cannot (no index that large is in range, and a cast would wrap it to a
    negative index). The copy is what is read later, so user code that runs in between (a
    later key item's ``__len__``) cannot slip such a value back in."""
    if a._code != DT_UINT64:
        return a
    top = int(_max(a)) if a._layout.size else 0
    if top > INT64_MAX:
        raise IndexError(f"index {top} is out of bounds for any array")
    return contiguous_copy(a, DT_INT64)


cdef tuple _resolve(Array a, object key):
    """(view, advanced view axes, broadcast index arrays, whether the advanced items are
    adjacent in the key) of an advanced key.

    As in NumPy, once a key is advanced every int and bool in it is an index array too: an int
    a 0-d one, a bool a new unit axis indexed by ``[0]`` (True) or ``[]`` (False).
    """
    from arrayx._creation import asarray, zeros
    device = a._storage.device
    items = [_as_index(k, a._storage) for k in (key if isinstance(key, tuple) else (key,))]
    cdef int ndim = a._layout.ndim
    consumed = 0
    for k in items:
        if isinstance(k, Array):
            consumed += (<Array>k)._layout.ndim if (<Array>k)._code == DT_BOOL else 1
        elif k is not None and k is not Ellipsis and not isinstance(k, bool):
            consumed += 1
    if consumed > ndim:
        raise IndexError(f"too many indices for an array of {ndim} dimensions")
    if sum(k is Ellipsis for k in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    basic = []
    arrays = []
    positions = []
    advanced = []  # the key positions of the advanced items
    dim = 0
    for at, k in enumerate(items):
        if not (k is None or k is Ellipsis or isinstance(k, slice)):
            advanced.append(at)
        if k is Ellipsis:
            basic.extend([slice(None)] * (ndim - consumed))
            dim += ndim - consumed
        elif isinstance(k, bool):
            positions.append(len(basic))
            basic.append(None)
            arrays.append(zeros(int(k), dtype="int64", device=device))
        elif isinstance(k, int):
            # Checked here, as NumPy does: when the selection is empty no offset is computed.
            if not -a.shape[dim] <= k < a.shape[dim]:
                raise IndexError(f"index {k} is out of bounds for axis {dim} with size "
                                 f"{a.shape[dim]}")
            positions.append(len(basic))
            basic.append(slice(None))
            arrays.append(asarray(k, dtype="int64", device=device))
            dim += 1
        elif isinstance(k, Array) and (<Array>k)._code == DT_BOOL:
            for i in range((<Array>k)._layout.ndim):
                # An empty mask axis selects nothing, whatever the array's size (as NumPy).
                if k.shape[i] != a.shape[dim + i] and k.shape[i] != 0:
                    raise IndexError(f"boolean index of shape {k.shape} does not match the "
                                     f"indexed array's shape {a.shape} at axis {dim + i}")
            for idx in nonzero(k):
                positions.append(len(basic))
                basic.append(slice(None))
                arrays.append(idx)
            dim += (<Array>k)._layout.ndim
        elif isinstance(k, Array):
            positions.append(len(basic))
            basic.append(slice(None))
            arrays.append(k)
            dim += 1
        else:
            basic.append(k)
            if k is not None:
                dim += 1
    view = basic_index(a._layout, tuple(basic))
    try:
        arrays = list(broadcast_arrays(*arrays))
    except ValueError as exc:
        raise IndexError(f"index arrays do not broadcast together: {exc}") from None
    # NumPy's rule: the advanced axes stay in place only when the advanced items stand next to
    # each other in the key (an ellipsis between them separates them even when it is empty).
    adjacent = not advanced or advanced == list(range(advanced[0],
                                                      advanced[0] + len(advanced)))
    return view, positions, arrays, adjacent


cdef tuple _offsets(Layout view, list positions, list arrays, object device):
    """Element offsets (int64, one per broadcast index) of the selected sub-blocks."""
    cdef Array first = arrays[0]
    if not device.host:
        return _device_offsets(view, positions, arrays, device), first.shape
    cdef int64_t n = first._layout.size
    cdef int64_t shape[1]
    shape[0] = n
    cdef Array offs = new_array(contiguous(1, shape), DT_INT64, device, True)
    cdef int64_t* o = <int64_t*>offs._storage.data
    cdef Array idx
    cdef int64_t* ip
    cdef int64_t size, stride, i, v
    cdef int p
    for i in range(n):
        o[i] = view.offset
    for k in range(len(arrays)):
        idx = arrays[k]
        if not (idx._code == DT_INT64 and idx._layout.c_contiguous and idx._layout.ndim <= 1):
            idx = contiguous_copy(idx, DT_INT64)
        ip = <int64_t*>idx._storage.data + idx._layout.offset
        p = positions[k]
        size = view.shape_[p]
        stride = view.strides_[p]
        for i in range(n):
            v = ip[i]
            if v < -size or v >= size:
                raise IndexError(f"index {v} is out of bounds for axis {p} with size {size}")
            if v < 0:
                v += size
            o[i] += v * stride
    return offs, first.shape


cdef Array _device_offsets(Layout view, list positions, list arrays, object device):
    """``_offsets`` computed by elementwise kernels on ``device`` (the indices stay there)."""
    from arrayx._creation import full
    from arrayx._data_type_functions import astype
    from arrayx._searching import argmax, where
    from arrayx._utility import any as _any

    cdef int64_t n = (<Array>arrays[0])._layout.size
    offs = full((n,), view.offset, dtype=_dtypes.DTYPES[DT_INT64], device=device)
    for k in range(len(arrays)):
        idx = reshape(astype(arrays[k], _dtypes.DTYPES[DT_INT64]), (n,))
        size = view.shape_[positions[k]]
        bad = (idx < -size) | (idx >= size)
        if bool(_any(bad)):
            v = int(idx[int(argmax(astype(bad, _dtypes.DTYPES[DT_INT8])))])
            raise IndexError(f"index {v} is out of bounds for axis {positions[k]} with size "
                             f"{size}")
        offs = offs + where(idx < 0, idx + size, idx) * view.strides_[positions[k]]
    return offs


cdef tuple _plan(Array a, object key):
    view, positions, arrays, adjacent = _resolve(a, key)
    offs, bshape = _offsets(view, positions, arrays, a._storage.device)
    rest = [d for d in range(view.ndim) if d not in positions]
    # The result (get) and the value's broadcast shape (set): index dims, then the rest.
    if len(bshape) + len(rest) > MAXDIM:
        raise IndexError(f"an index may give at most {MAXDIM} dimensions, this one gives "
                         f"{len(bshape) + len(rest)}")
    return view, positions, offs, tuple(bshape), rest, adjacent


cdef tuple _block(Layout view, list rest, int64_t* rshape, int64_t* rstrides):
    for i, d in enumerate(rest):
        rshape[i] = view.shape_[d]
        rstrides[i] = view.strides_[d]
    return tuple([view.shape_[d] for d in rest])


cdef object _final_order(int nb, list rest, list positions, bint adjacent):
    """The permutation from the (index dims, rest dims) buffer to NumPy's result order."""
    if not adjacent:
        return None
    before = [i for i, d in enumerate(rest) if d < positions[0]]
    after = [i for i, d in enumerate(rest) if d > positions[0]]
    return tuple([nb + i for i in before] + list(range(nb)) + [nb + i for i in after])


cdef Array _leading_mask(Array a, object key):
    """The C-contiguous mask when ``key`` is one boolean array over ``a``'s leading axes of a
    C-contiguous ``a`` (the case the compress kernels serve), else None."""
    if isinstance(key, tuple) and len(key) == 1:
        key = key[0]
    if not isinstance(key, Array) or (<Array>key)._code != DT_BOOL or not a._layout.c_contiguous:
        return None
    cdef Array m = <Array>key
    cdef int k = m._layout.ndim
    if k == 0 or k > a._layout.ndim or m.shape != a.shape[:k]:
        return None
    if not (_FLAGS.boolean_indexing and _FLAGS.data_dependent_shapes):
        raise IndexError(_rule("boolean array indexing", "boolean-indexing"))
    return m if m._layout.c_contiguous else contiguous_copy(m, DT_BOOL)


cdef Array _compress(Array a, Array m):
    """``a[m]`` for a leading mask: the selected rows packed in one pass."""
    cdef int k = m._layout.ndim
    cdef int64_t n = m._layout.size
    cdef int64_t shape[MAXDIM]
    cdef int64_t row = 1
    cdef int i
    for i in range(k, a._layout.ndim):
        shape[i - k + 1] = a._layout.shape_[i]
        row *= a._layout.shape_[i]
    cdef int64_t count = count_true(m._storage, m._layout)
    # One row more than selected: the branch-free kernel stores past the last selected row.
    shape[0] = count + 1
    cdef int nd = a._layout.ndim - k + 1
    cdef Array out = new_array(contiguous(nd, shape), a._code, a._storage.device)
    compress_rows(a._storage, a._layout, a._code, m._storage, m._layout, row, out._storage)
    shape[0] = count
    return wrap(out._storage, contiguous(nd, shape), a._code)


def getitem(Array a, key) -> Array:
    """``a[key]`` for a key with index arrays or masks (a copy)."""
    cdef Array mask = _leading_mask(a, key)
    if mask is not None:
        return _compress(a, mask)
    cdef Array idx
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if (a._layout.ndim == 1 and isinstance(k, Array)
            and DT_INT8 <= (<Array>k)._code <= DT_UINT64):
        # One index array into a 1-D array: one checked gather pass, as take.
        idx = <Array>k
        if idx._layout.ndim == 1:
            return _take_1d(a, idx)
        return reshape(_take_1d(a, reshape(idx, (-1,))), idx.shape)
    view, positions, offs, bshape, rest, adjacent = _plan(a, key)
    cdef int64_t rshape[MAXDIM]
    cdef int64_t rstrides[MAXDIM]
    rtuple = _block(view, rest, rshape, rstrides)
    full = bshape + rtuple
    cdef int64_t fshape[MAXDIM]
    for i, n in enumerate(full):
        fshape[i] = n
    cdef Array out = new_array(contiguous(len(full), fshape), a._code, a._storage.device)
    cdef Array o = offs
    cdef int64_t nb = o._layout.size
    cdef int rnd = len(rest)
    if out._layout.size:
        gather_blocks(a._storage, a._code, o._storage, nb, rnd, rshape, rstrides, out._storage)
    order = _final_order(len(bshape), rest, positions, adjacent)
    return out if order is None else permute_dims(out, order)


cdef int _expand(Array a, Array m, Array v) except -1:
    """``a[m] = v`` for a leading mask: ``v`` broadcast to the selection, written in one pass
    (one row repeated when ``v`` does not vary along the selection). A mask in ``a``'s own
    memory (``a[a[0]] = v``) is copied first: the kernel reads it as it writes the rows, and
    a row written would change which later rows it selects."""
    if may_overlap(m._storage, m._layout, DT_BOOL, a._storage, a._layout, a._code):
        m = contiguous_copy(m, DT_BOOL)
    cdef int k = m._layout.ndim
    cdef int64_t n = m._layout.size
    rest = a.shape[k:]
    cdef int64_t count = count_true(m._storage, m._layout)
    v = broadcast_to(fit_source(v, 1 + len(rest)), (count,) + rest)
    cdef bint repeat = count < 2 or v._layout.strides_[0] == 0
    v = contiguous_copy(v[0] if repeat and count else v, a._code)
    cdef int64_t row = 1
    for d in rest:
        row *= d
    if v._layout.size:
        expand_rows(a._storage, a._layout, a._code, m._storage, m._layout, row, v._storage,
                    repeat)
    return 0


def setitem(Array a, key, value) -> None:
    """``a[key] = value`` for a key with index arrays or masks; nothing is written unless every
    index is in range and ``value`` broadcasts to the selection."""
    cdef Array mask = _leading_mask(a, key)
    if mask is not None:
        _expand(a, mask, assign_source(a, value))
        return
    view, positions, offs, bshape, rest, adjacent = _plan(a, key)
    cdef int64_t rshape[MAXDIM]
    cdef int64_t rstrides[MAXDIM]
    rtuple = _block(view, rest, rshape, rstrides)
    order = _final_order(len(bshape), rest, positions, adjacent)
    full = bshape + rtuple
    result_shape = full if order is None else tuple(full[i] for i in order)
    cdef Array v = broadcast_to(fit_source(assign_source(a, value), len(result_shape)),
                                result_shape)
    if order is not None:
        # The inverse permutation: where each axis of the result's order came from.
        v = permute_dims(v, tuple(sorted(range(len(order)), key=order.__getitem__)))
    v = contiguous_copy(v, a._code)
    cdef Array o = offs
    cdef int64_t nb = o._layout.size
    cdef int rnd = len(rest)
    if v._layout.size:
        scatter_blocks(a._storage, a._code, o._storage, nb, rnd, rshape, rstrides, v._storage)


def take(x, indices, /, *, axis=None) -> Array:
    """The elements of ``x`` at integer ``indices`` along ``axis``, in a new array.

    Negative indices count from the end.

    Parameters
    ----------
    x : Array
        The array to gather from.
    indices : Array
        A 1-D integer array of positions along ``axis``.
    axis : int, optional
        The axis to gather along; may be None only when ``x`` is 1-D.

    Returns
    -------
    Array
        ``x``'s shape with ``axis`` replaced by ``len(indices)``.

    Raises
    ------
    IndexError
        If an index is out of bounds, or ``indices`` is not of an integer dtype.
    ValueError
        If ``axis`` is None and ``x`` is not 1-D.

    Examples
    --------
    >>> import arrayx as xp
    >>> x = xp.asarray([[10, 20, 30], [40, 50, 60]])
    >>> xp.take(x, xp.asarray([2, 0]), axis=1)
    Array([[30, 10],
           [60, 40]], dtype=int64)
    >>> xp.take(xp.asarray([1, 2, 3]), xp.asarray([-1]))
    Array([3], dtype=int64)
    """
    if not isinstance(x, Array) or not isinstance(indices, Array):
        raise TypeError("take expects arrayx arrays")
    if axis is None:
        if x.ndim != 1:
            raise ValueError("take without an axis needs a 1-D array")
        axis = 0
    if (<Array>indices)._layout.ndim != 1:
        raise ValueError("take's indices must be 1-D")
    _integer_indices(<Array>indices, "take")
    ax = normalize_axis(axis, x.ndim)
    if x.ndim == 1:
        return _take_1d(<Array>x, <Array>indices)
    return getitem(x, (slice(None),) * ax + (indices,))


cdef int _integer_indices(Array indices, str name) except -1:
    """IndexError unless ``indices`` is of an integer dtype (a bool array would select as a
    mask where ``name``'s positions are meant)."""
    if not DT_INT8 <= indices._code <= DT_UINT64:
        raise IndexError(f"{name}'s indices must be of an integer dtype, not {indices.dtype}")
    return 0


cdef Array _take_1d(Array a, Array indices):
    """``take`` from a 1-D array: one checked gather pass."""
    cdef Array idx = _checked_uint64(indices)
    if not (idx._code == DT_INT64 and idx._layout.c_contiguous):
        idx = contiguous_copy(idx, DT_INT64)
    cdef int64_t m = idx._layout.size
    cdef Array out = new_array(contiguous(1, &m), a._code, a._storage.device)
    cdef int64_t bad = engine_take(a._storage, a._layout, a._code, idx._storage, idx._layout,
                                   out._storage)
    if bad >= 0:
        raise IndexError(f"index {int(idx[bad])} is out of bounds for axis 0 with size "
                         f"{a._layout.shape_[0]}")
    return out


def take_along_axis(x, indices, /, *, axis=-1) -> Array:
    """The elements of ``x`` at ``indices`` along ``axis``, position by position.

    ``indices`` has ``x``'s number of dimensions and broadcasts against ``x`` off ``axis``; the
    result takes element ``indices[..., j, ...]`` of each line along ``axis``. With the output of
    ``argsort`` it sorts ``x``.

    Parameters
    ----------
    x : Array
        The array to gather from.
    indices : Array
        An integer array of ``x``'s rank.
    axis : int, optional
        The axis to gather along; default -1, the last.

    Returns
    -------
    Array
        An array of the broadcast shape with ``indices``' size along ``axis``.

    Raises
    ------
    IndexError
        If an index is out of bounds, or ``indices`` is not of an integer dtype.
    ValueError
        If ``indices`` and ``x`` differ in rank.

    Examples
    --------
    >>> import arrayx as xp
    >>> x = xp.asarray([[3, 1, 2], [9, 7, 8]])
    >>> xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)
    Array([[1, 2, 3],
           [7, 8, 9]], dtype=int64)
    """
    if not isinstance(x, Array) or not isinstance(indices, Array):
        raise TypeError("take_along_axis expects arrayx arrays")
    if indices.ndim != x.ndim:
        raise ValueError(f"indices of rank {indices.ndim} for an array of rank {x.ndim}")
    _integer_indices(<Array>indices, "take_along_axis")
    ax = normalize_axis(axis, x.ndim)
    from arrayx._creation import arange
    key = []
    for d in range(x.ndim):
        if d == ax:
            key.append(indices)
        else:
            shape = [1] * x.ndim
            shape[d] = x.shape[d]
            key.append(reshape(arange(x.shape[d]), tuple(shape)))
    return getitem(x, tuple(key))


def scatter_add(values, positions, shape) -> Array:
    """Zeros of ``shape`` with each element of ``values`` added at its flat (C-order)
    position in ``positions``; repeated positions add up. The gradient of a gather.

    Parameters
    ----------
    values : Array
        The numeric values to add.
    positions : Array
        Integer flat positions into an array of ``shape``, as many as ``values`` has
        elements (read in C order, as ``values``).
    shape : tuple of int
        The shape of the result.

    Returns
    -------
    Array
        An array of ``shape`` and ``values``' dtype.

    Raises
    ------
    TypeError
        If ``values`` is not a numeric array or ``positions`` not an integer array.
    ValueError
        If ``positions`` and ``values`` differ in size.
    IndexError
        If a position is outside the result.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx._indexing import scatter_add
    >>> scatter_add(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([2, 0, 2]), (2, 2))
    Array([[2., 0.],
           [4., 0.]], dtype=float64)
    """
    if not isinstance(values, Array) or not isinstance(positions, Array):
        raise TypeError("scatter_add expects arrayx arrays")
    cdef Array v = <Array>values
    cdef Array p = <Array>positions
    if v._code == DT_BOOL:
        raise TypeError("scatter_add adds numbers, not booleans")
    if not DT_INT8 <= p._code <= DT_UINT64:
        raise TypeError(f"scatter_add's positions must be integers, not {positions.dtype}")
    if p._layout.size != v._layout.size:
        raise ValueError(f"scatter_add got {p._layout.size} positions for "
                         f"{v._layout.size} values")
    cdef int64_t dims[MAXDIM]
    cdef int ndim = parse_shape(shape, dims)
    cdef Array out = new_array(contiguous(ndim, dims), v._code, v._storage.device, True)
    cdef int64_t m = v._layout.size
    if not m:
        return out
    if not (v._layout.c_contiguous and v._layout.offset == 0):
        v = contiguous_copy(v, v._code)
    p = _checked_uint64(p)
    if not (p._code == DT_INT64 and p._layout.c_contiguous and p._layout.offset == 0):
        p = contiguous_copy(p, DT_INT64)
    cdef int64_t bad = engine_scatter_add(v._storage, v._code, p._storage, m, out._storage,
                                          out._layout.size)
    if bad >= 0:
        raise IndexError(f"position {int(reshape(p, (-1,))[bad])} is out of bounds for an "
                         f"array of {out._layout.size} elements")
    return out

"""``Layout``: shape, signed element strides and an element offset, and the view algebra on it.

Every view operation of arrayx is a pure function from a ``Layout`` to a new one: slicing with
any step, permuting, adding and removing unit axes, broadcasting (stride 0), flipping (negative
strides) and reshaping without a copy (``reshape`` returns ``None`` when a copy is needed).
Reading user arguments (shapes, axes) is ``arguments``' job, planning an iteration ``plan``'s.
"""
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.slice cimport PySlice_Unpack
cimport cython
from libc.stdint cimport INT64_MAX, int64_t
from libc.string cimport memcpy

from arrayx._core.arguments cimport exact_sequence, normalized_axes, parse_shape
from arrayx._core.plan cimport sort_axes

import operator


cdef extern from "Python.h":
    Py_ssize_t PySlice_AdjustIndices(Py_ssize_t length, Py_ssize_t* start, Py_ssize_t* stop,
                                     Py_ssize_t step) nogil


# Views and results make and drop layouts on every call: a free list spares the allocator,
# and since a layout holds no object but a tuple of ints, the cycle collector need not track it.
@cython.freelist(64)
@cython.no_gc
cdef class Layout:
    """Shape, strides (signed, in elements) and offset (in elements) of a strided array."""

    def __dealloc__(self):
        if self.shape_ != NULL and self.shape_ != self._inline:
            PyMem_Free(self.shape_)

    @property
    def shape(self) -> tuple:
        """The shape as a tuple of ints."""
        if self._shape is None:
            self._shape = tuple([self.shape_[i] for i in range(self.ndim)])
        return self._shape

    @property
    def strides(self) -> tuple:
        """The strides, in elements."""
        return tuple([self.strides_[i] for i in range(self.ndim)])

    cdef int64_t min_offset(self) noexcept:
        """The smallest element offset the layout reaches (``offset`` when it is empty)."""
        cdef int64_t m = self.offset
        if self.size == 0:
            return m
        for i in range(self.ndim):
            if self.strides_[i] < 0:
                m += self.strides_[i] * (self.shape_[i] - 1)
        return m

    cdef int64_t max_offset(self) noexcept:
        """The largest element offset the layout reaches (``offset - 1`` when it is empty)."""
        cdef int64_t m = self.offset
        if self.size == 0:
            return m - 1
        for i in range(self.ndim):
            if self.strides_[i] > 0:
                m += self.strides_[i] * (self.shape_[i] - 1)
        return m

    def extent(self) -> tuple:
        """``(min, max)`` element offsets reached; ``max < min`` for an empty layout."""
        return self.min_offset(), self.max_offset()

    def __reduce__(self):
        return _rebuild, (self.shape, self.strides, self.offset)

    def __repr__(self) -> str:
        return f"Layout(shape={self.shape}, strides={self.strides}, offset={self.offset})"

    def __eq__(self, other):
        if not isinstance(other, Layout):
            return NotImplemented
        return (self.shape, self.strides, self.offset) == (other.shape, other.strides,
                                                           other.offset)

    def __hash__(self):
        return hash((self.shape, self.strides, self.offset))


def _rebuild(shape: tuple, strides: tuple, offset: int) -> Layout:
    return make(shape, strides, offset)


def make(shape, strides=None, offset: int = 0) -> Layout:
    """A layout from Python values; C-contiguous strides when ``strides`` is None."""
    cdef int64_t sh[MAXDIM]
    cdef int64_t st[MAXDIM]
    cdef int n = parse_shape(shape, sh)
    if strides is None:
        return contiguous(n, sh)
    if len(strides) != n:
        raise ValueError(f"{len(strides)} strides for {n} dimensions")
    for i in range(n):
        st[i] = strides[i]
    return new_layout(n, sh, st, offset)


cdef inline Layout _rearranged(Layout L, Layout a):
    """``L``, whose axes (shape and strides) are ``a``'s rearranged, finished as a view of
    ``a``'s elements: ``a``'s offset and size, its own flags."""
    L.offset = a.offset
    L.size = a.size
    _set_flags(L)
    return L


cdef inline void _set_flags(Layout L) noexcept:
    cdef int64_t expect = 1
    cdef bint c = True, f = True
    cdef int i
    for i in range(L.ndim - 1, -1, -1):
        if L.shape_[i] != 1:
            if L.strides_[i] != expect:
                c = False
                break
            expect *= L.shape_[i]
    expect = 1
    for i in range(L.ndim):
        if L.shape_[i] != 1:
            if L.strides_[i] != expect:
                f = False
                break
            expect *= L.shape_[i]
    if L.size == 0:
        c = f = True
    L.c_contiguous = c
    L.f_contiguous = f


# The most elements a fresh array may span: its byte strides fit in int64 for every itemsize.
cdef int64_t MAX_ELEMENTS = INT64_MAX // 16


cdef Layout _alloc(int ndim):
    cdef Layout L = Layout.__new__(Layout)
    L.ndim = ndim
    if ndim <= INLINE_DIMS:
        L.shape_ = L._inline
    else:
        L.shape_ = <int64_t*>PyMem_Malloc(2 * ndim * sizeof(int64_t))
        if L.shape_ == NULL:
            raise MemoryError()
    L.strides_ = L.shape_ + ndim
    return L


cdef inline int64_t _size_of(int ndim, const int64_t* shape) except -1:
    cdef int64_t size = 1
    cdef int64_t nonzero = 1
    cdef int i
    for i in range(ndim):
        if shape[i] < 0:
            raise ValueError(f"negative dimension {shape[i]} in a shape")
        if shape[i] == 0:
            size = 0
        elif nonzero > INT64_MAX // shape[i]:
            raise ValueError("array is too big: its element count overflows 64 bits")
        else:
            nonzero *= shape[i]
    return nonzero if size else 0


cdef Layout new_layout(int ndim, const int64_t* shape, const int64_t* strides, int64_t offset):
    """A layout with the given shape, strides and offset (the arrays are copied)."""
    if ndim > MAXDIM:
        raise ValueError(f"arrayx supports at most {MAXDIM} dimensions, got {ndim}")
    cdef Layout L = _alloc(ndim)
    if ndim:
        memcpy(L.shape_, shape, ndim * sizeof(int64_t))
        memcpy(L.strides_, strides, ndim * sizeof(int64_t))
    L.offset = offset
    L.size = _size_of(ndim, shape)
    _set_flags(L)
    return L


cdef Layout contiguous(int ndim, const int64_t* shape, bint fortran=False):
    """The C-ordered (or Fortran-ordered) layout of ``shape``, offset 0."""
    if ndim > MAXDIM:
        raise ValueError(f"arrayx supports at most {MAXDIM} dimensions, got {ndim}")
    cdef Layout L = _alloc(ndim)
    cdef int64_t s = 1
    cdef int i
    if ndim:
        memcpy(L.shape_, shape, ndim * sizeof(int64_t))
    L.size = _size_of(ndim, shape)
    # Strides are products of the non-zero dimensions: they must stay byte offsets for any
    # itemsize (16 at most), even when a zero dimension makes the array empty (as NumPy).
    for i in range(ndim):
        if shape[i] and s > MAX_ELEMENTS // shape[i]:
            raise ValueError("array is too big: its strides in bytes overflow 64 bits")
        s *= shape[i] if shape[i] else 1
    s = 1
    if fortran:
        for i in range(ndim):
            L.strides_[i] = s
            s *= shape[i] if shape[i] else 1
    else:
        for i in range(ndim - 1, -1, -1):
            L.strides_[i] = s
            s *= shape[i] if shape[i] else 1
    L.offset = 0
    _set_flags(L)
    return L


cdef Layout contiguous_like(Layout src):
    """A fresh C-ordered layout of ``src``'s shape."""
    return contiguous(src.ndim, src.shape_)


cdef int64_t add_extent(int64_t total, int64_t extent) except -1:
    """``total + extent``, the length of an axis that joins parts (concat, repeat, pad);
    ValueError, as NumPy's "array is too big", when the sum overflows 64 bits."""
    if extent < 0:
        raise ValueError(f"negative dimension {extent} in a shape")
    if extent > INT64_MAX - total:
        raise ValueError("array is too big: the length of a joined axis overflows 64 bits")
    return total + extent


def joined_extent(extents) -> int:
    """The sum of the non-negative ints ``extents`` as the length of one axis (for Python
    callers such as ``pad``); ValueError when it does not fit in 64 bits."""
    cdef int64_t total = 0
    for e in extents:
        if e > INT64_MAX:
            raise ValueError("array is too big: the length of a joined axis overflows 64 bits")
        total = add_extent(total, e)
    return total


cdef int64_t checked_nbytes(Layout layout, int64_t itemsize) except -1:
    """Bytes needed by a fresh contiguous buffer for ``layout``; ValueError if that overflows."""
    if layout.size > INT64_MAX // itemsize:
        raise ValueError("array is too big: its size in bytes overflows 64 bits")
    return layout.size * itemsize


cdef Layout permute(Layout a, object axes):
    """The layout with its axes in the order ``axes`` (a permutation, negative axes allowed)."""
    if not isinstance(axes, (tuple, list)):
        raise TypeError(f"axes must be a tuple of ints, got {axes!r}")
    axes = exact_sequence(axes)
    if len(axes) != a.ndim:
        raise ValueError(f"axes {tuple(axes)} do not match an array of {a.ndim} dimensions")
    order = normalized_axes(axes, a.ndim)
    cdef Layout L = _alloc(a.ndim)
    cdef int i, j
    for i in range(a.ndim):
        j = order[i]
        L.shape_[i] = a.shape_[j]
        L.strides_[i] = a.strides_[j]
    return _rearranged(L, a)


cdef Layout expand_dims(Layout a, object axes):
    """Insert unit axes at ``axes`` (positions in the result)."""
    if not isinstance(axes, (tuple, list)):
        axes = (axes,)
    axes = exact_sequence(axes)
    cdef int n = a.ndim + len(axes)
    if n > MAXDIM:
        raise ValueError(f"arrayx supports at most {MAXDIM} dimensions, got {n}")
    new = set(normalized_axes(axes, n))
    cdef Layout L = _alloc(n)
    cdef int i, j = 0
    for i in range(n):
        if i in new:
            L.shape_[i] = 1
            L.strides_[i] = 0
        else:
            L.shape_[i] = a.shape_[j]
            L.strides_[i] = a.strides_[j]
            j += 1
    return _rearranged(L, a)


cdef Layout squeeze(Layout a, object axes):
    """Remove the unit axes ``axes`` (None: every unit axis); ValueError for a non-unit one."""
    if axes is None:
        drop = {i for i in range(a.ndim) if a.shape_[i] == 1}
    else:
        drop = set(normalized_axes(axes, a.ndim))
        for i in drop:
            if a.shape_[i] != 1:
                raise ValueError(
                    f"cannot squeeze axis {i} of size {a.shape_[i]}: only unit axes can be removed")
    cdef Layout L = _alloc(a.ndim - len(drop))
    cdef int j = 0
    for i in range(a.ndim):
        if i not in drop:
            L.shape_[j] = a.shape_[i]
            L.strides_[j] = a.strides_[i]
            j += 1
    return _rearranged(L, a)


cdef int broadcast_strides(Layout a, int ndim, const int64_t* shape,
                           int64_t* out) except -1:
    """The strides of ``a`` broadcast to ``shape`` into ``out`` (stride 0 on new and stretched
    axes); ValueError when the shapes do not broadcast."""
    if ndim < a.ndim:
        raise ValueError(
            f"cannot broadcast shape {a.shape} to {_tuple(ndim, shape)}: fewer dimensions")
    cdef int lead = ndim - a.ndim
    cdef int i
    for i in range(ndim):
        if i < lead:
            out[i] = 0
        elif a.shape_[i - lead] == shape[i]:
            out[i] = a.strides_[i - lead]
        elif a.shape_[i - lead] == 1:
            out[i] = 0
        else:
            raise ValueError(f"cannot broadcast shape {a.shape} to {_tuple(ndim, shape)}")
    return 0


cdef Layout broadcast_to(Layout a, int ndim, const int64_t* shape):
    """The layout broadcast to ``shape`` (stride 0 on new and stretched axes)."""
    cdef int64_t st[MAXDIM]
    broadcast_strides(a, ndim, shape, st)
    return new_layout(ndim, shape, st, a.offset)


cdef tuple _tuple(int n, const int64_t* v):
    return tuple([v[i] for i in range(n)])


cdef bint merge_shape(Layout a, int ndim, int64_t* out) noexcept:
    """Broadcast ``out`` (``ndim`` >= ``a.ndim`` dimensions) with ``a``'s shape, in place;
    False when they do not broadcast."""
    cdef int i, k
    cdef int64_t d
    for i in range(a.ndim):
        k = ndim - a.ndim + i
        d = a.shape_[i]
        if d != 1:
            if out[k] == 1:
                out[k] = d
            elif out[k] != d:
                return False
    return True


cdef int broadcast_shapes(list layouts, int64_t* out) except -1:
    """The broadcast shape of the layouts' shapes into ``out``; return its dimension count."""
    cdef int n = 0
    cdef Layout L
    for L in layouts:
        n = max(n, L.ndim)
    cdef int i
    for i in range(n):
        out[i] = 1
    for L in layouts:
        if not merge_shape(L, n, out):
            raise ValueError("shapes " + ", ".join(str(M.shape) for M in layouts)
                             + " cannot be broadcast together")
    return n


cdef Layout flip(Layout a, object axes):
    """Reverse the order of elements along ``axes`` (None: all) with negative strides."""
    cdef list which = list(range(a.ndim)) if axes is None else normalized_axes(axes, a.ndim)
    cdef Layout L = new_layout(a.ndim, a.shape_, a.strides_, a.offset)
    for i in which:
        if L.shape_[i] > 0:
            L.offset += L.strides_[i] * (L.shape_[i] - 1)
        L.strides_[i] = -L.strides_[i]
    _set_flags(L)
    return L


cdef Layout reshape(Layout a, int ndim, const int64_t* shape):
    """The layout of ``a`` (read in C order) seen with ``shape``, or None if that needs a copy.

    Merges runs of old axes that are contiguous with each other (as ``coalesce`` does), then
    splits each run into the new axes that cover it, as NumPy's ``_attempt_nocopy_reshape``.
    """
    cdef int64_t size = _size_of(ndim, shape)
    if size != a.size:
        raise ValueError(f"cannot reshape an array of size {a.size} into shape "
                         f"{_tuple(ndim, shape)}")
    cdef int64_t st[MAXDIM]
    cdef int i, oi = 0, oj = 1, ni = 0, nj = 1, ok, nk
    cdef int64_t np_, op
    cdef int64_t oshape[MAXDIM]
    cdef int64_t ostr[MAXDIM]
    cdef int on = 0
    cdef Layout L
    if size == 0 or a.c_contiguous:
        L = contiguous(ndim, shape)
        L.offset = a.offset
        return L
    for i in range(a.ndim):
        if a.shape_[i] != 1:
            oshape[on] = a.shape_[i]
            ostr[on] = a.strides_[i]
            on += 1
    while ni < ndim and oi < on:
        np_ = shape[ni]
        op = oshape[oi]
        while np_ != op:
            if np_ < op:
                np_ *= shape[nj]
                nj += 1
            else:
                op *= oshape[oj]
                oj += 1
        for ok in range(oi, oj - 1):
            if ostr[ok] != oshape[ok + 1] * ostr[ok + 1]:
                return None
        st[nj - 1] = ostr[oj - 1]
        nk = nj - 1
        while nk > ni:
            st[nk - 1] = st[nk] * shape[nk]
            nk -= 1
        ni = nj
        nj += 1
        oi = oj
        oj += 1
    while ni < ndim:
        st[ni] = 1
        ni += 1
    for i in range(ndim):
        if shape[i] == 1:
            st[i] = 0
    return new_layout(ndim, shape, st, a.offset)


cdef inline int64_t _slice_axis(Layout a, int axis, object key, int64_t* shape,
                                int64_t* stride) except? -1:
    """Axis ``axis`` of ``a`` sliced by ``key``: its length and stride into ``shape[0]`` and
    ``stride[0]``; returns the offset the slice's first element adds."""
    cdef Py_ssize_t start, stop, step, length
    PySlice_Unpack(key, &start, &stop, &step)
    length = PySlice_AdjustIndices(a.shape_[axis], &start, &stop, step)
    shape[0] = length
    # A step is at most the axis length once the slice holds two elements, so the product
    # cannot overflow; with fewer the stride is never used.
    stride[0] = a.strides_[axis] * step if length > 1 else a.strides_[axis]
    return start * a.strides_[axis] if length > 0 else 0


cdef Layout slice_first(Layout a, object key):
    """The view selected by one slice along the first axis (``x[1:5]``: the common key).

    The fast path of ``basic_index``: the other axes are copied as they are, and the size
    follows from the parent's without a pass over the shape.
    """
    if a.ndim == 0:
        return basic_index(a, (key,))
    cdef int i, n = a.ndim
    cdef int64_t first = a.shape_[0]
    cdef Layout L = _alloc(n)
    for i in range(n):
        L.shape_[i] = a.shape_[i]
        L.strides_[i] = a.strides_[i]
    L.offset = a.offset + _slice_axis(a, 0, key, L.shape_, L.strides_)
    L.size = a.size // first * L.shape_[0] if first else 0
    _set_flags(L)
    return L


cdef Layout basic_index(Layout a, object key):
    """The view selected by a basic index: ints, slices, ``None``, ``...`` and bools."""
    if not isinstance(key, tuple):
        key = (key,)
    cdef int64_t shape[MAXDIM]
    cdef int64_t st[MAXDIM]
    cdef int64_t offset = a.offset
    cdef int n = 0, src = 0, consumed = 0, i
    cdef Py_ssize_t idx, dim
    cdef bint seen_ellipsis = False
    cdef int added = 0, dropped = 0
    for k in key:
        if k is None or isinstance(k, bool):
            added += 1
            continue
        if k is Ellipsis:
            if seen_ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            seen_ellipsis = True
            continue
        consumed += 1
        if not isinstance(k, slice):
            dropped += 1
    if consumed > a.ndim:
        raise IndexError(
            f"too many indices for an array of {a.ndim} dimensions: {consumed} were given")
    # The result's dimensions, counted before any is written: new axes, plus every axis of
    # ``a`` but those an integer removes.
    n = added + a.ndim - dropped
    if n > MAXDIM:
        raise IndexError(f"an index may give at most {MAXDIM} dimensions, this one gives {n}")
    n = 0
    for k in key:
        if isinstance(k, slice):
            offset += _slice_axis(a, src, k, &shape[n], &st[n])
            n += 1
            src += 1
        elif k is None:
            shape[n] = 1
            st[n] = 0
            n += 1
        elif k is Ellipsis:
            for i in range(a.ndim - consumed):
                shape[n] = a.shape_[src]
                st[n] = a.strides_[src]
                n += 1
                src += 1
        elif isinstance(k, bool):
            shape[n] = 1 if k else 0
            st[n] = 0
            n += 1
        else:
            dim = a.shape_[src]
            if type(k) is not int:
                try:
                    k = operator.index(k)
                except TypeError:
                    raise IndexError(
                        f"only integers, slices, ..., None and integer or boolean arrays are "
                        f"valid indices, got {type(k).__name__}") from None
            try:
                idx = k
            except OverflowError:  # beyond 64 bits: out of range for any axis
                idx = dim
            if idx < -dim or idx >= dim:
                raise IndexError(
                    f"index {k} is out of bounds for axis {src} with size {dim}")
            if idx < 0:
                idx += dim
            offset += idx * a.strides_[src]
            src += 1
    while src < a.ndim:
        shape[n] = a.shape_[src]
        st[n] = a.strides_[src]
        n += 1
        src += 1
    return new_layout(n, shape, st, offset)


cdef int64_t fresh_strides(int nin, int ndim, const int64_t* shape, const int64_t* strides,
                           int64_t* out) except -1:
    """The strides of a fresh array of ``shape`` laid out in its inputs' memory order
    (NumPy's order ``K``), into ``out``; returns its element count.

    ``strides`` holds the ``nin`` inputs' strides over ``shape`` (rows of ``ndim``); with no
    input, or inputs whose strides fix no order, the result is C-ordered. ValueError when the
    array would be too big (as ``contiguous``).
    """
    cdef int perm[MAXDIM]
    cdef int i, d
    cdef int64_t size = _size_of(ndim, shape)
    cdef int64_t s = 1
    for i in range(ndim):
        if shape[i] and s > MAX_ELEMENTS // shape[i]:
            raise ValueError("array is too big: its strides in bytes overflow 64 bits")
        s *= shape[i] if shape[i] else 1
    sort_axes(nin, ndim, strides, perm)
    s = 1
    for i in range(ndim):
        d = perm[i]
        out[d] = s
        s *= shape[d] if shape[d] else 1
    return size

"""The ``Array`` type: a dtype over a ``Layout`` over a shared ``Storage``.

Views (indexing with ints, slices, ``...`` and ``None``; ``T``; ``mT``) share the storage and
copy nothing. Writing through a view writes the base. The elementwise operators are the base
class ``_Operators``, generated at build time from ``_kernels/ops.py``'s ``OPERATORS`` and
their documentation rows (``_elementwise_docs.OPERATOR_DOCS``) into ``_array_operators.pxi``.
"""
cimport cython
from cpython.buffer cimport (
    PyBUF_ANY_CONTIGUOUS, PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS, PyBUF_FORMAT, PyBUF_ND,
    PyBUF_STRIDES, PyBUF_WRITABLE,
)
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject, PyTypeObject, newfunc
from cpython.type cimport PyType_Modified
from libc.stdint cimport INT64_MAX, int64_t
from libc.string cimport memcpy

from arrayx._core.arguments cimport parse_shape
from arrayx._core.layout cimport (
    MAXDIM, Layout, basic_index, broadcast_to, contiguous, contiguous_like, new_layout, permute,
    slice_first, squeeze,
)
from arrayx._core.storage cimport Storage
from arrayx._core.storage cimport wrap as wrap_memory
from arrayx._engine cimport (
    ITEMSIZE, Fresh, allocate, binary, binary_into, binary_into_scalar, binary_scalar,
    copy_cast, read_element, scalar_kind, transfer, unary, write_element,
)
from arrayx._kernels.dtype_codes cimport (
    DT_BOOL, DT_FLOAT32, DT_FLOAT64, DT_INT8, KB_BOOL, KB_COMPLEX, KB_INT, NDTYPES, of_kind,
)
from arrayx._kernels.op_ids cimport OP_POW, OP_SQUARE

import numpy as np

from arrayx import _devices, _dtypes, _strict
from arrayx._kernels import dtypes as _registry

from arrayx._engine import BINARY_NAMES, INT_RANGE, UNARY_NAMES

cdef tuple DTYPES = _dtypes.DTYPES
cdef dict UNARY_ID = {name: i for i, name in enumerate(UNARY_NAMES)}
cdef dict BINARY_ID = {name: i for i, name in enumerate(BINARY_NAMES)}
cdef dict CODE = _dtypes.CODE
cdef object CPU = _devices.CPU
# Buffer-protocol format strings, by dtype code: the ones NumPy exports for the same dtype, so
# that np.asarray(x) has NumPy's own type number (int64 is "l" where a C long has 64 bits, not
# the registry's portable "q": compiled code that switches on the type number, SciPy's
# ndimage.value_indices among it, knows only NumPy's). The bytes objects stay alive in
# _FORMAT_BYTES.
cdef tuple _FORMAT_BYTES = tuple(memoryview(np.empty(0, name)).format.encode()
                                 for name in _registry.NAMES)
cdef const char* FORMATS[NDTYPES]
for _code in range(NDTYPES):
    FORMATS[_code] = _FORMAT_BYTES[_code]
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


cdef int code_of(object dtype) except -1:
    """arrayx's code for one of the 13 dtypes; TypeError for anything else."""
    code = CODE.get(dtype)
    if code is None:
        code = CODE[_dtypes.as_dtype(dtype)]
    return code


cdef Array wrap(Storage storage, Layout layout, int code, bint writeable=True):
    """An Array over ``storage`` seen through ``layout``; checks the layout lies inside it."""
    cdef Array a = Array.__new__(Array)
    cdef int64_t isz = ITEMSIZE[code]
    if layout.size and (layout.min_offset() < 0
                        or (layout.max_offset() + 1) * isz > storage.nbytes):
        raise ValueError(f"{layout!r} reaches outside a buffer of {storage.nbytes} bytes")
    a._storage = storage
    a._layout = layout
    a._code = code
    a.dtype = DTYPES[code]
    a._writeable = writeable and not storage.readonly
    return a


cdef inline Array fresh(Storage storage, Fresh* r):
    """An Array over the fresh buffer of an elementwise result: the engine laid it out, so
    its bounds are not checked again."""
    cdef Array a = Array.__new__(Array)
    a._storage = storage
    a._layout = new_layout(r.ndim, r.shape, r.strides, 0)
    a._code = r.code
    a.dtype = DTYPES[r.code]
    a._writeable = True
    return a


cdef inline Array view(Array base, Layout layout):
    """A view of ``base`` (same storage, dtype and writeability); the layout is trusted."""
    cdef Array a = Array.__new__(Array)
    a._storage = base._storage
    a._layout = layout
    a._code = base._code
    a.dtype = base.dtype
    a._writeable = base._writeable
    return a


cpdef Array on_host_device(Array a, object device):
    """``a`` as an array on ``device``, sharing its memory, where both are devices whose memory
    is the CPU's (the CPU and the test devices): how host code that makes CPU arrays (NumPy's
    FFT, DLPack's import) serves a test device without a copy.

    Raises
    ------
    ValueError
        If ``a`` or ``device`` is not in the CPU's memory.
    """
    if a._storage.device == device:
        return a
    if not (a._storage.host and device.host):
        raise ValueError(f"{a.device} and {device} do not share the CPU's memory")
    cdef Storage s = a._storage
    return wrap(wrap_memory(s.data, s.nbytes, s, s.readonly, device), a._layout, a._code,
                a._writeable)


cdef Array new_array(Layout layout, int code, object device, bint zero=False):
    """A fresh array of ``layout`` (C-contiguous) and dtype ``code`` on ``device``."""
    return wrap(allocate(layout, code, device, zero), layout, code)


cdef Array as_array(object x, str name):
    """``x`` as an Array; TypeError naming the function ``name`` otherwise."""
    if not isinstance(x, Array):
        raise TypeError(f"{name} expects an arrayx array, got {type(x).__name__}")
    return <Array>x


cdef Array contiguous_copy(Array a, int code):
    """A C-contiguous copy of ``a`` with dtype ``code``."""
    cdef Layout L = contiguous_like(a._layout)
    cdef Array out = new_array(L, code, a._storage.device)
    copy_cast(a._storage, a._layout, a._code, out._storage, L, code)
    return out


def _to_device(Array a, str device) -> Array:
    """``a`` on ``device`` (how a pickled GPU array is rebuilt)."""
    return a.to_device(device)


def _reconstruct(bytes data, tuple shape, str dtype) -> Array:
    """The array a pickle holds (``Array.__reduce__``); its shape and size are checked before
    any memory is written, as a pickle may come from anywhere."""
    cdef int64_t sh[MAXDIM]
    cdef int n = parse_shape(shape, sh)
    cdef Layout L = contiguous(n, sh)
    cdef int code = code_of(np.dtype(dtype))
    if L.size > len(data) or len(data) != L.size * ITEMSIZE[code]:
        raise ValueError("pickled array data does not match its shape")
    cdef Array out = new_array(L, code, CPU)
    memcpy(out._storage.data, <const char*>data, len(data))
    return out


include "_array_operators.pxi"


# Every operation makes an Array: a free list spares the allocator. An Array refers only to
# its Storage, Layout and dtype, none of which can come to refer back to it (a Storage's owner
# is fixed when it is made, before any Array of it), so it takes no part in reference cycles
# and stays out of the cycle collector: no tracking on each creation and deletion, and no
# collections triggered by the arrays a loop makes (about 8 ns of a 100 ns view).
@cython.freelist(64)
@cython.no_gc
cdef class Array(_Operators):
    """An n-dimensional array of one of the standard's 13 dtypes, on one device.

    Create arrays with the creation functions (``asarray``, ``zeros``, ``arange``, ...), not
    with this constructor, which raises ``TypeError``. An array is a dtype and a layout
    (shape, signed element strides, offset) over a buffer that views share.

    A 0-d array converts to a Python scalar with ``bool()``, ``int()``, ``float()`` and
    ``complex()``; ``bool()`` of an array that is not 0-d raises ``ValueError`` (its truth
    value is ambiguous).

    Examples
    --------
    >>> import arrayx as xp
    >>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> x.shape, x.dtype, x.device
    ((2, 2), dtype('float64'), Device('cpu'))
    >>> bool(xp.asarray(0.5)), bool(xp.asarray(0))
    (True, False)
    >>> bool(x)
    Traceback (most recent call last):
        ...
    ValueError: the truth value of an array of shape (2, 2) is ambiguous
    """

    def __init__(self, *args, **kwargs):
        raise TypeError("arrayx arrays are made by creation functions such as arrayx.asarray")

    cdef char* ptr(self) except? NULL:
        """The first element's address in host memory; TypeError for an array on a GPU,
        whose memory the host cannot read (the guard of every host-only path)."""
        if not self._storage.host:
            raise TypeError(f"this operation runs on the CPU only and the array is on "
                            f"{self.device}; call to_device('cpu') first")
        return self._storage.data + self._layout.offset * ITEMSIZE[self._code]

    cdef object scalar(self):
        return read_element(self._storage, self._layout.offset, self._code)

    # --- attributes -------------------------------------------------------------------------

    @property
    def shape(self) -> tuple:
        """The size of each dimension, as a tuple of ints.

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.zeros((2, 3)).shape
        (2, 3)
        """
        return self._layout.shape

    @property
    def ndim(self) -> int:
        """The number of dimensions.

        The length of :attr:`shape`: 0 for a 0-d array.

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.zeros((2, 3)).ndim
        2
        >>> xp.asarray(1.0).ndim
        0
        """
        return self._layout.ndim

    @property
    def size(self) -> int:
        """The number of elements (the product of the shape).

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.ones((4, 5), dtype=xp.int8).size
        20
        """
        return self._layout.size

    @property
    def device(self):
        """The device the array's memory lives on (a :class:`arrayx.Device`; the CPU today).

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.asarray([1]).device
        Device('cpu')
        """
        return self._storage.device

    @property
    def T(self) -> Array:
        """The transpose of a 2-D array, as a view (no copy).

        ``ValueError`` for arrays that are not 2-D: use :attr:`mT` or
        :func:`arrayx.permute_dims`.

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.asarray([[1, 2, 3]]).T
        Array([[1],
               [2],
               [3]], dtype=int64)
        """
        if self._layout.ndim != 2:
            raise ValueError(f"T is defined for 2-D arrays only; this one has {self.ndim} "
                             f"dimensions (use mT or permute_dims)")
        return view(self, permute(self._layout, (1, 0)))

    @property
    def mT(self) -> Array:
        """The transpose of the last two axes, as a view (no copy).

        ``ValueError`` for arrays of fewer than two dimensions.

        Examples
        --------
        >>> import arrayx as xp
        >>> x = xp.zeros((4, 2, 3))
        >>> x.mT.shape
        (4, 3, 2)
        """
        cdef int n = self._layout.ndim
        if n < 2:
            raise ValueError(f"mT needs at least 2 dimensions, got {n}")
        axes = list(range(n))
        axes[n - 2], axes[n - 1] = n - 1, n - 2
        return view(self, permute(self._layout, tuple(axes)))

    @property
    def _base_storage(self) -> Storage:
        return self._storage

    def __array_namespace__(self, *, api_version=None):
        """The namespace of the array's library: the ``arrayx`` module.

        Library code written against the standard gets its functions this way
        (``xp = x.__array_namespace__()``).

        Parameters
        ----------
        api_version : str, optional
            A version of the standard to ask for; None takes the latest.

        Returns
        -------
        module
            ``arrayx``.

        Raises
        ------
        ValueError
            If ``api_version`` is not one of the standard's versions that arrayx implements:
            ``'2021.12'``, ``'2022.12'``, ``'2023.12'``, ``'2024.12'`` or ``'2025.12'`` (the
            latest).

        Examples
        --------
        >>> import arrayx as xp
        >>> x = xp.asarray([1, 2])
        >>> x.__array_namespace__() is xp
        True
        >>> x.__array_namespace__(api_version='2025.12').__name__
        'arrayx'
        """
        if api_version is not None and api_version not in _API_VERSIONS:
            raise ValueError(f"unsupported array API version {api_version!r}; arrayx supports "
                             f"{', '.join(_API_VERSIONS)}")
        return _arrayx

    def to_device(self, device, /, *, stream=None) -> Array:
        """This array on ``device``: ``self`` when it is there already, else a C-ordered copy.

        A copy between the CPU and a GPU runs after the work queued on the GPU's current
        stream and is complete when this returns; a copy between two GPUs goes through the
        CPU.

        Parameters
        ----------
        device : Device or str
            The target device (``"cpu"``, ``"cuda:0"``, ...).
        stream : None
            Must be None: copies run on the device's current stream (CuPy's).

        Returns
        -------
        Array
            ``self``, when it is on ``device`` already; a copy otherwise.

        Raises
        ------
        ValueError
            If ``device`` is not available here, or a stream is given.

        Examples
        --------
        >>> import arrayx as xp
        >>> x = xp.asarray([1, 2])
        >>> x.to_device('cpu') is x
        True
        """
        if stream is not None:
            raise ValueError("to_device takes no stream: copies run on the device's current "
                             "stream")
        dev = _devices.as_device(device)
        if dev == self._storage.device:
            return self
        cdef Array src = self
        if not (self._layout.c_contiguous and self._layout.size):
            src = contiguous_copy(self, self._code)
        if src._storage.device != CPU and dev != CPU:
            src = src.to_device(CPU)
        cdef Array out = new_array(contiguous_like(src._layout), src._code, dev)
        cdef int64_t nbytes = src._layout.size * ITEMSIZE[src._code]
        if nbytes:
            transfer(src._storage, src._layout.offset * ITEMSIZE[src._code], out._storage,
                     nbytes)
        return out

    # --- Python scalars ---------------------------------------------------------------------

    def __bool__(self) -> bool:
        if self._layout.size != 1:
            raise ValueError(f"the truth value of an array of shape {self.shape} is ambiguous")
        if self._layout.ndim != 0 and _strict.FLAGS.strict:
            raise ValueError(_strict.rule(f"bool() of an array of shape {self.shape}", "0-d"))
        return bool(self.scalar())

    def __int__(self) -> int:
        """``int(self)``: the only element of a one-element array as a Python ``int``.

        Returns
        -------
        int
            The element, a float truncated toward zero.

        Raises
        ------
        TypeError
            If ``self`` has more or fewer than one element (in strict mode: is not 0-d), or is
            complex.

        Examples
        --------
        >>> import arrayx as xp
        >>> int(xp.asarray(3.7))
        3
        """
        return int(_only_scalar(self, "int", True))

    def __float__(self) -> float:
        """``float(self)``: the only element of a one-element array as a Python ``float``.

        Returns
        -------
        float

        Raises
        ------
        TypeError
            Where :meth:`__int__` raises one.

        Examples
        --------
        >>> import arrayx as xp
        >>> float(xp.asarray(2))
        2.0
        """
        return float(_only_scalar(self, "float", True))

    def __complex__(self) -> complex:
        """``complex(self)``: the only element of a one-element array as a Python ``complex``; a
        ``TypeError`` if it has more or fewer than one element (in strict mode: is not 0-d).

        Returns
        -------
        complex

        Examples
        --------
        >>> import arrayx as xp
        >>> complex(xp.asarray(1.5))
        (1.5+0j)
        """
        return complex(_only_scalar(self, "complex"))

    def __index__(self) -> int:
        """``operator.index(self)``: a 0-d integer array as a Python ``int``, so it can index a
        list or slice.

        Returns
        -------
        int

        Raises
        ------
        TypeError
            If ``self`` is not of an integer dtype, or not 0-d.

        Examples
        --------
        >>> import arrayx as xp
        >>> [10, 20, 30][xp.asarray(1)]
        20
        """
        if not of_kind(self._code, KB_INT):
            raise TypeError(f"only integer arrays can be used as an index, not {self.dtype}")
        if self._layout.ndim != 0:
            raise TypeError(f"only 0-d arrays can be used as an index; this one has shape "
                            f"{self.shape}")
        return self.scalar()

    def __len__(self) -> int:
        if self._layout.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self._layout.shape_[0]

    def __iter__(self):
        """``iter(self)``: the subarrays along the first axis, as views.

        Returns
        -------
        iterator of Array

        Raises
        ------
        TypeError
            If ``self`` is 0-d.

        Examples
        --------
        >>> import arrayx as xp
        >>> [int(v) for v in xp.asarray([4, 5, 6])]
        [4, 5, 6]
        """
        if self._layout.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._layout.shape_[0]))

    def __format__(self, str spec) -> str:
        """``format(self, spec)``: a 0-d array formats as its element; other arrays take only
        the empty format, which gives ``str(self)``, as NumPy's do.

        Parameters
        ----------
        spec : str
            The format specification.

        Returns
        -------
        str

        Raises
        ------
        TypeError
            If ``spec`` is not empty and ``self`` is not 0-d (in strict mode: not empty).

        Examples
        --------
        >>> import arrayx as xp
        >>> f"{xp.asarray(3.14159):.3f}"
        '3.142'
        """
        if not spec:
            return str(self)
        if self._layout.ndim != 0 or self._storage.device != CPU:
            raise TypeError(f"unsupported format string {spec!r} passed to an arrayx array of "
                            f"shape {self.shape}")
        if _strict.FLAGS.strict:
            raise TypeError(_strict.rule(f"format() of a 0-d array with {spec!r}", "0-d"))
        return format(self.scalar(), spec)

    # --- printing ---------------------------------------------------------------------------

    def __repr__(self) -> str:
        host = self._storage.device == CPU
        body = np.array2string(self._host_values(), separator=", ", prefix="Array(")
        where = "" if host else f", device={self.device}"
        return f"Array({body}, dtype={self.dtype}{where})"

    def __str__(self) -> str:
        return str(self._host_values())

    def _host_values(self) -> np.ndarray:
        """The values as a NumPy array, for display (a device array's through a host copy, as
        CuPy's and PyTorch's reprs show theirs)."""
        return np.asarray(self if self._storage.device == CPU else self.to_device(CPU))

    # --- indexing ---------------------------------------------------------------------------

    @cython.embedsignature(False)
    def __getitem__(self, key):
        """__getitem__($self, key, /)
--

``self[key]``: the elements that ``key`` selects.

        Basic keys (integers, slices, ``...``, ``None``) give a view that shares ``self``'s memory:
        nothing is copied. Integer arrays, lists of integers and boolean masks (advanced indexing)
        give a new array, as NumPy does.

        Parameters
        ----------
        key : int, slice, ellipsis, None, Array, or a tuple of them
            The index.

        Returns
        -------
        Array
            A view for basic keys, a new array for advanced ones.

        Raises
        ------
        IndexError
            If an index is out of bounds or the key has too many indices.

        Examples
        --------
        >>> import arrayx as xp
        >>> x = xp.reshape(xp.arange(6), (2, 3))
        >>> x[1]
        Array([3, 4, 5], dtype=int64)
        >>> x[:, ::-1]
        Array([[2, 1, 0],
               [5, 4, 3]], dtype=int64)
        >>> x[x > 2]
        Array([3, 4, 5], dtype=int64)
        >>> x[xp.asarray([1, 0]), 0]
        Array([3, 0], dtype=int64)
        """
        if type(key) is slice:
            return view(self, slice_first(self._layout, key))
        if _needs_advanced(key):
            return _getitem(self, key)
        cdef Layout L = basic_index(self._layout, _basic_key(key))
        return view(self, L)

    @cython.embedsignature(False)
    def __setitem__(self, key, value):
        """__setitem__($self, key, value, /)
--

``self[key] = value``: write ``value`` where ``key`` selects, in place.

        Parameters
        ----------
        key : int, slice, ellipsis, None, Array, or a tuple of them
            The index, as for :meth:`__getitem__`.
        value : Array, Python scalar, or what ``asarray`` takes
            What to write, broadcast to the selection and cast to ``self``'s dtype as NumPy's
            assignment casts (a float into an integer array truncates; complex into real is an
            error). Strict mode takes arrays and Python scalars whose dtype promotes to
            ``self``'s only, as the standard.

        Raises
        ------
        IndexError
            If an index is out of bounds.
        TypeError
            If ``value`` is neither an array nor a Python scalar, or its dtype does not fit.
        ValueError
            If ``self`` is read-only (a broadcast view).

        Returns
        -------
        None

        Examples
        --------
        >>> import arrayx as xp
        >>> x = xp.zeros(4)
        >>> x[1:3] = 5.0
        >>> x
        Array([0., 5., 5., 0.], dtype=float64)
        >>> x[x > 1] = xp.asarray(-1.0)
        >>> x
        Array([ 0., -1., -1.,  0.], dtype=float64)
        """
        if _needs_advanced(key):
            if not self._writeable:
                raise ValueError("assignment destination is read-only")
            _setitem(self, key, value)
            return
        cdef Layout L = basic_index(self._layout, _basic_key(key))
        if not self._writeable:
            raise ValueError("assignment destination is read-only")
        if L.size == 1 and isinstance(value, (bool, int, float, complex)):
            write_element(self._storage, L.offset, self._code, assign_value(value, self._code))
            return
        cdef Array v = fit_source(assign_source(self, value), L.ndim)
        cdef Layout src = broadcast_to(v._layout, L.ndim, L.shape_)
        copy_cast(v._storage, src, v._code, self._storage, L, self._code)

    # --- operators: the elementwise ones are _Operators' (generated); @ is a product ---

    def __matmul__(self, other):
        """``self @ other``: the matrix product, as :func:`arrayx.matmul`.

        Parameters
        ----------
        other : Array
            The right operand (arrays only: the standard gives ``@`` no Python scalars).

        Returns
        -------
        Array
            As :func:`arrayx.matmul` returns.

        Raises
        ------
        TypeError
            If ``other`` is not an array or a dtype is not numeric.
        ValueError
            If the inner dimensions differ or an operand is 0-d.

        Examples
        --------
        >>> import arrayx as xp
        >>> a = xp.asarray([[1, 2], [3, 4]])
        >>> a @ a
        Array([[ 7, 10],
               [15, 22]], dtype=int64)
        >>> a @ xp.asarray([1, 1])
        Array([3, 7], dtype=int64)
        """
        from arrayx.linalg._matmul import matmul_operator
        return matmul_operator(self, other)

    def __rmatmul__(self, other):
        from arrayx.linalg._matmul import matmul_operator
        return matmul_operator(other, self)

    def __imatmul__(self, other):
        from arrayx.linalg._matmul import imatmul
        return imatmul(self, other)

    # --- interop ----------------------------------------------------------------------------

    def __getbuffer__(self, Py_buffer* buf, int flags):
        if self._storage.device != CPU:
            raise TypeError(f"an array on {self.device} exports no buffer (its memory is not "
                            f"the host's); call to_device('cpu') first")
        if flags & PyBUF_WRITABLE and not self._writeable:
            raise BufferError("the array is read-only")
        cdef Layout L = self._layout
        cdef int isz = ITEMSIZE[self._code]
        if (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS and not L.c_contiguous:
            raise BufferError("the array is not C-contiguous")
        if (flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS and not L.f_contiguous:
            raise BufferError("the array is not Fortran-contiguous")
        if (flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS and not (
                L.c_contiguous or L.f_contiguous):
            raise BufferError("the array is not contiguous")
        if (flags & PyBUF_STRIDES) != PyBUF_STRIDES and not L.c_contiguous:
            raise BufferError("the array is not C-contiguous; ask for strides")
        if L.size > INT64_MAX // isz:  # a broadcast view of 2**62 elements
            raise BufferError(f"the array of shape {self.shape} is too big to export: its "
                              f"size in bytes overflows 64 bits")
        cdef Py_ssize_t* dims = <Py_ssize_t*>PyMem_Malloc(2 * max(L.ndim, 1) * sizeof(Py_ssize_t))
        if dims == NULL:
            raise MemoryError()
        for i in range(L.ndim):
            dims[i] = L.shape_[i]
            dims[L.ndim + i] = L.strides_[i] * isz
        buf.buf = self.ptr()
        buf.obj = self
        buf.len = L.size * isz
        buf.itemsize = isz
        buf.readonly = not self._writeable
        buf.ndim = L.ndim
        buf.format = <char*>FORMATS[self._code] if flags & PyBUF_FORMAT else NULL
        buf.shape = dims if flags & PyBUF_ND else NULL
        buf.strides = dims + L.ndim if (flags & PyBUF_STRIDES) == PyBUF_STRIDES else NULL
        buf.suboffsets = NULL
        buf.internal = dims

    def __releasebuffer__(self, Py_buffer* buf):
        PyMem_Free(buf.internal)

    def __array__(self, dtype=None, copy=None):
        """A NumPy array sharing this array's memory (CPU only)."""
        if self._storage.device != CPU:
            raise TypeError(f"an array on {self.device} cannot be converted to NumPy "
                            f"implicitly; call to_device('cpu') first")
        out = np.asarray(memoryview(self))
        if not self._writeable and out.flags.writeable:
            out.flags.writeable = False
        if dtype is not None and np.dtype(dtype) != out.dtype:
            if copy is False:
                raise ValueError("a dtype conversion needs a copy, but copy=False")
            return out.astype(dtype)
        if copy:
            return out.copy()
        return out

    def __getattr__(self, name):
        # Only names the type lacks get here: NumPy's methods for dask's chunk code.
        from arrayx._numpy_protocols.methods import method
        return method(self, name)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NEP 13: a NumPy ufunc called on arrayx arrays runs on arrayx and returns arrayx arrays.

        ``np.add(x, y)``, ``np.exp(x)``, ``x + numpy_array``, ``numpy_array + x`` and
        ``np.add.reduce(x)`` call arrayx's functions; NumPy operands are adopted without a copy;
        ufuncs arrayx lacks fall back to NumPy on views of CPU memory. See
        :doc:`/guide/pydata`.

        Parameters
        ----------
        ufunc : numpy.ufunc
            The ufunc called.
        method : str
            ``"__call__"``, ``"reduce"``, ``"accumulate"``, ``"outer"``, ``"at"`` ...
        *inputs : Array, numpy.ndarray or Python scalar
            Its operands.
        **kwargs
            Its keywords; ``out=`` must be arrayx arrays.

        Returns
        -------
        Array or tuple of Array
            The result, or NotImplemented for operands of other libraries.

        Raises
        ------
        TypeError
            For ``casting=``, ``where=`` or ``order=`` other than the default, ``out=`` a NumPy
            array, a fallback for an array not in CPU memory, or in strict mode.

        Examples
        --------
        >>> import arrayx as xp
        >>> import numpy as np
        >>> np.exp(xp.asarray([0.0, 1.0]))
        Array([1.        , 2.71828183], dtype=float64)
        >>> np.arange(3) + xp.asarray([1, 1, 1])
        Array([1, 2, 3], dtype=int64)
        """
        from arrayx._numpy_protocols.ufuncs import array_ufunc
        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        """NEP 18: a NumPy function called on arrayx arrays returns arrayx arrays.

        Functions the standard has (``np.sum``, ``np.concatenate``, ``np.transpose``, ...) run
        on arrayx; the rest run on NumPy views of CPU memory and hand back arrayx arrays. See
        :doc:`/guide/pydata` for the table.

        Parameters
        ----------
        func : callable
            The NumPy function called.
        types : collection of types
            The types of the arguments that implement the protocol.
        args : tuple
            Its positional arguments.
        kwargs : dict
            Its keyword arguments.

        Returns
        -------
        object
            The function's result with arrays as arrayx arrays, or NotImplemented when another
            library's arrays take part.

        Raises
        ------
        TypeError
            For a fallback with an array not in CPU memory, a result dtype arrayx lacks,
            ``out=`` a NumPy array, or in strict mode.

        Examples
        --------
        >>> import arrayx as xp
        >>> import numpy as np
        >>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
        >>> np.mean(x, axis=0)
        Array([2., 3.], dtype=float64)
        >>> np.median(x)
        Array(2.5, dtype=float64)
        """
        from arrayx._numpy_protocols.functions import array_function
        return array_function(func, types, args, kwargs)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export the array as a DLPack capsule, for ``from_dlpack`` of any library.

        The capsule shares the array's memory unless ``copy=True``. Call ``from_dlpack`` of the
        consuming library rather than this method: it negotiates the version and the device.

        Parameters
        ----------
        stream : None
            Must be None: a CPU array has no stream.
        max_version : tuple of two ints, optional
            The highest DLPack version the consumer understands; ``(1, 0)`` or more gives a
            versioned capsule (``dltensor_versioned``), None or less an unversioned one.
        dl_device : tuple of two ints, optional
            The device the consumer wants, as ``(device type, id)``; the CPU is ``(1, 0)``.
        copy : bool, optional
            True exports a C-contiguous copy (flagged as copied); False and None share memory.

        Returns
        -------
        PyCapsule
            The DLPack capsule.

        Raises
        ------
        BufferError
            If ``dl_device`` is not the CPU, or a read-only array (a broadcast view) is asked
            for an unversioned capsule, which cannot say it is read-only.
        ValueError
            If ``stream`` is not None.

        Examples
        --------
        >>> import arrayx as xp
        >>> import numpy as np
        >>> np.from_dlpack(xp.asarray([1.0, 2.0]))
        array([1., 2.])
        """
        return _export(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self) -> tuple:
        """The array's device as DLPack numbers devices: ``(device type, device id)``.

        Returns
        -------
        tuple of two ints
            ``(1, 0)`` for the CPU.

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.asarray([1]).__dlpack_device__()
        (1, 0)
        """
        if self._storage.host:
            return (1, 0)
        return (2, self._storage.device.index)

    def __reduce__(self):
        if self._storage.device != CPU:  # pickled through the host, rebuilt on its device
            return _to_device, (self.to_device(CPU), str(self.device))
        cdef Array c = self if self._layout.c_contiguous and self._layout.offset == 0 \
            and self._storage.nbytes == self.size * ITEMSIZE[self._code] \
            else contiguous_copy(self, self._code)
        data = (<char*>c.ptr())[:c.size * ITEMSIZE[c._code]]
        return _reconstruct, (data, self.shape, self.dtype.str)

    def __copy__(self) -> Array:
        return contiguous_copy(self, self._code)

    def __deepcopy__(self, memo) -> Array:
        return contiguous_copy(self, self._code)


cdef object _refuse_new(type cls, PyObject* args, PyObject* kwargs):
    raise TypeError("arrayx arrays are made by creation functions such as arrayx.asarray")


# One constructor path: an Array gets its storage and layout only from wrap, fresh and view,
# which call the type's allocator directly. From Python, ``Array()``, ``Array.__new__(Array)``,
# a subclass's ``__new__`` and a pickle's NEWOBJ all go through tp_new, which refuses, so no
# Array without storage or layout can exist to be dereferenced.
(<PyTypeObject*>Array).tp_new = <newfunc>_refuse_new
PyType_Modified(Array)


cdef object _only_scalar(Array a, str what, bint real=False):
    """The element of a one-element array; NumPy, CuPy and PyTorch convert one of any shape
    (strict mode: 0-d only, as the standard). ``real``: a complex element is a TypeError."""
    if a._layout.size != 1:
        raise TypeError(f"only one-element arrays can be converted to {what}; this one has "
                        f"shape {a.shape}")
    if a._layout.ndim != 0 and _strict.FLAGS.strict:
        raise TypeError(_strict.rule(f"conversion to {what} of an array of shape {a.shape}",
                                     "0-d"))
    v = a.scalar()
    if real and isinstance(v, complex):
        raise TypeError(f"cannot convert a complex array to {what}")
    return v


cdef bint _needs_advanced(object key):
    """Whether ``key`` holds index arrays, lists or boolean arrays (advanced indexing).

    A bool beside another int or bool is advanced too: NumPy moves the axes of non-adjacent
    advanced indices (ints among them) to the front, which no view can express.
    """
    if isinstance(key, (int, slice)) or key is None or key is Ellipsis:
        return False
    items = key if isinstance(key, tuple) else (key,)
    cdef int bools = 0, ints = 0
    for k in items:
        if isinstance(k, Array):
            if (<Array>k)._layout.ndim or (<Array>k)._code == DT_BOOL:
                return True
            ints += 1
        elif isinstance(k, bool):
            bools += 1
        elif isinstance(k, int) or _numpy_int(k):
            ints += 1
        elif isinstance(k, list) or (hasattr(k, "__array__") and hasattr(k, "dtype")):
            return True
    return bools > 0 and bools + ints > 1


cdef inline bint _numpy_int(object k):
    """Whether ``k`` is a NumPy integer scalar: an int index, which selects a view (as NumPy's
    ``a[np.int64(1)]`` does), not an index array (a 0-d NumPy array is one, as in NumPy)."""
    return isinstance(k, np.integer)


cdef object _basic_key(object key):
    """Check an index holds only ints, slices, ``...``, ``None`` and bools."""
    if isinstance(key, (int, slice)) or key is None or key is Ellipsis:
        return key
    if isinstance(key, Array):
        if (<Array>key)._layout.ndim == 0 and of_kind((<Array>key)._code, KB_INT):
            return key.__index__()
        raise IndexError("integer and boolean array indices arrive with advanced indexing")
    if _numpy_int(key):
        return key.__index__()
    if isinstance(key, tuple):
        return tuple([_basic_key(k) for k in key])
    if isinstance(key, (list, float)):
        raise IndexError(f"{type(key).__name__} is not a valid index; use ints, slices, ..., "
                         f"None or arrays")
    return key


cdef object assign_value(object value, int code):
    """A Python scalar as the value it assigns into an array of dtype ``code``.

    As NumPy's assignment: a float into an integer array truncates (``int()``: NaN is a
    ValueError, infinity and out-of-range values an OverflowError), any number into a bool
    array is its truth; a complex into a real array is a TypeError. Strict mode keeps the
    standard's rule: the scalar's kind must be one the dtype holds.
    """
    if isinstance(value, complex) and not of_kind(code, KB_COMPLEX):
        raise TypeError(f"cannot assign the complex scalar {value!r} into a "
                        f"{DTYPES[code]} array")
    if _strict.FLAGS.strict:
        if (isinstance(value, float) and of_kind(code, KB_INT | KB_BOOL)) or (
                isinstance(value, int) and not isinstance(value, bool) and code == DT_BOOL):
            raise TypeError(_strict.rule(f"assigning the {type(value).__name__} {value!r} into "
                                         f"a {DTYPES[code]} array", "assignment"))
        return value
    if code == DT_BOOL:
        return bool(value)
    if isinstance(value, float) and of_kind(code, KB_INT | KB_BOOL):
        return int(value)
    return value


cdef Array fit_source(Array v, int ndim):
    """``v`` without the leading unit axes it has beyond ``ndim``, the selection's dimension
    count: NumPy, CuPy and PyTorch assign ``a[:] = b[None]``, which no broadcast to the
    selection's shape takes (it has fewer dimensions). PyTorch drops them for any selection;
    strict mode keeps the standard's broadcast."""
    cdef int extra = v._layout.ndim - ndim
    cdef int i
    if extra <= 0 or _strict.FLAGS.strict:
        return v
    for i in range(extra):
        if v._layout.shape_[i] != 1:
            return v  # the broadcast then says why it cannot
    return view(v, squeeze(v._layout, tuple(range(extra))))


cdef Array assign_source(Array dst, object value):
    """``value`` as an array to assign into ``dst``, by assignment's one casting rule (which
    ``assign_value`` and ``_check_assign_dtype`` state): an arrayx array, a Python scalar, or,
    outside strict mode, what ``asarray`` takes (NumPy arrays and scalars, nested lists), as
    NumPy, CuPy and PyTorch accept them."""
    cdef Array v
    if isinstance(value, (bool, int, float, complex)):
        return scalar_array(assign_value(value, dst._code), dst._code, dst._storage.device)
    if isinstance(value, Array):
        v = <Array>value
        if v._storage.device != dst._storage.device:
            raise ValueError(f"cannot assign an array on {v.device} into one on {dst.device}")
    elif _strict.FLAGS.strict:
        raise TypeError(_strict.rule(f"assigning a {type(value).__name__}", "assignment"))
    else:
        v = _asarray(value, device=dst._storage.device)
    _check_assign_dtype(v._code, dst._code)
    return v


cdef int _check_assign_dtype(int src, int dst) except -1:
    """An array of any real dtype may be assigned into any real array, cast as ``astype``
    casts (NumPy's assignment); complex into real is a TypeError. Strict mode keeps the
    standard's rule: the source dtype must promote to the destination's."""
    if src == dst:
        return 0
    if _strict.FLAGS.strict:
        if _dtypes.promote(DTYPES[src], DTYPES[dst]) != DTYPES[dst]:
            raise TypeError(_strict.rule(f"assigning an array of {DTYPES[src]} into one of "
                                         f"{DTYPES[dst]}", "assignment"))
    elif src >= 11 and dst < 11:
        raise TypeError(f"cannot cast an array of {DTYPES[src]} to {DTYPES[dst]} in an "
                        f"assignment: it would drop the imaginary part; assign real(value)")
    return 0


cdef Array scalar_array(object value, int code, object device):
    """A 0-d array of dtype ``code`` holding the Python scalar ``value``."""
    cdef Array out = new_array(contiguous(0, NULL), code, device)
    write_element(out._storage, 0, code, value)
    return out


def _scalar_array(value, dtype, device=None) -> Array:
    """A 0-d array holding a Python scalar (for the creation functions)."""
    return scalar_array(value, code_of(dtype), _devices.as_device(device))


cdef bint _is_scalar(object x):
    return scalar_kind(x) >= 0


cdef object binary_op(int op, object a, object b, bint operator):
    """``op`` on two arrays, or an array and a Python scalar (either side)."""
    cdef Array x
    cdef Fresh r
    if isinstance(a, Array):
        x = <Array>a
        if isinstance(b, Array):
            return fresh(binary(op, x._storage, x._layout, x._code, (<Array>b)._storage,
                                (<Array>b)._layout, (<Array>b)._code, &r), &r)
        if isinstance(b, (np.number, np.bool_)):
            # A NumPy scalar takes part with its own dtype, as a 0-d array (NumPy's rule, and
            # the same as in the reflected order, which NumPy's scalar sends through
            # __array_ufunc__): np.float64 and np.complex128 subclass float and complex, so
            # they would otherwise count as weak Python scalars.
            return binary_op(op, a, _asarray(b, device=x._storage.device), operator)
        if _is_scalar(b):
            if op == OP_POW and _is_square(b, x._code):
                return fresh(unary(OP_SQUARE, x._storage, x._layout, x._code, &r), &r)
            return fresh(binary_scalar(op, x._storage, x._layout, x._code, b, False, &r), &r)
        if operator:
            return NotImplemented
        raise TypeError(f"{BINARY_NAMES[op]} takes arrays and Python scalars, not "
                        f"{type(b).__name__}")
    if isinstance(b, Array) and isinstance(a, (np.number, np.bool_)):
        return binary_op(op, _asarray(a, device=(<Array>b)._storage.device), b, operator)
    if isinstance(b, Array) and _is_scalar(a):
        x = <Array>b
        return fresh(binary_scalar(op, x._storage, x._layout, x._code, a, True, &r), &r)
    if operator:
        return NotImplemented
    raise TypeError(f"{BINARY_NAMES[op]} needs at least one array; got "
                    f"{type(a).__name__} and {type(b).__name__}")


cdef bint _is_square(object exponent, int code):
    """Whether ``x ** exponent`` is ``x * x`` for an ``x`` of dtype ``code``: a Python 2 for
    an integer or real floating ``x`` (NumPy's fast path for ``**2``: one multiply, not
    ``pow``, and the same value: ``x * x`` is correctly rounded)."""
    if type(exponent) is int:
        return exponent == 2 and DT_INT8 <= code <= DT_FLOAT64
    return type(exponent) is float and exponent == 2.0 and DT_FLOAT32 <= code <= DT_FLOAT64


cdef object inplace_op(int op, Array a, object b):
    """``a op= b``: writes ``a``, keeps its dtype and shape."""
    cdef Array y
    cdef bint scalar = False
    if isinstance(b, Array):
        y = <Array>b
    elif _is_scalar(b):
        scalar = True
    elif isinstance(b, (np.ndarray, np.generic)):
        y = _asarray(b, device=a._storage.device)  # NumPy's memory, adopted without a copy
    else:
        return NotImplemented
    if not a._writeable:
        raise ValueError("the array is read-only (a broadcast view?); it cannot be updated in "
                         "place")
    if scalar:
        binary_into_scalar(op, a._storage, a._layout, a._code, b)
    else:
        binary_into(op, a._storage, a._layout, a._code, y._storage, y._layout, y._code,
                    not _strict.FLAGS.strict)
    return a


cdef Array unary_op(int op, object a):
    """``op`` on an array."""
    if not isinstance(a, Array):
        raise TypeError(f"{UNARY_NAMES[op]} expects an arrayx array, got {type(a).__name__}")
    cdef Array x = <Array>a
    cdef Fresh r
    return fresh(unary(op, x._storage, x._layout, x._code, &r), &r)


def apply_unary(str name, x) -> Array:
    """Apply the unary op called ``name`` (for the elementwise functions)."""
    return unary_op(UNARY_ID[name], x)


def apply_binary(str name, x1, x2) -> Array:
    """Apply the binary op called ``name`` (for the elementwise functions)."""
    return binary_op(BINARY_ID[name], x1, x2, False)


def apply_binary_into(str name, Array out, Array x2) -> Array:
    """``out = name(out, x2)`` in place, ``out`` a fresh array of a composition (its dtype
    the result's), ``x2`` of no memory of ``out``'s."""
    binary_into(BINARY_ID[name], out._storage, out._layout, out._code, x2._storage, x2._layout,
                x2._code, False)
    return out


def clip_bound(bound, Array like, str name) -> Array:
    """A bound of ``clip`` as an array of ``like``'s dtype (Python ints clamped to its range)."""
    cdef int code = like._code
    cdef int bcode
    if isinstance(bound, Array):
        bcode = (<Array>bound)._code
        if bcode == code:
            return bound
        if of_kind(code, KB_INT) and of_kind(bcode, KB_INT):
            # Clamped to ``like``'s range first, as Python int bounds are: an int8 bound of -5
            # cast to uint8 would be 251 (NumPy's clip promotes instead, to the same values).
            lo, hi = INT_RANGE[code]
            if INT_RANGE[bcode][0] < lo:
                bound = apply_binary("maximum", bound, lo)
            if INT_RANGE[bcode][1] > hi:
                bound = apply_binary("minimum", bound, hi)
        return contiguous_copy(<Array>bound, code)
    if not _is_scalar(bound):
        raise TypeError(f"{name}: bounds are arrays, Python scalars or None, not "
                        f"{type(bound).__name__}")
    if of_kind(code, KB_INT) and isinstance(bound, int):
        lo, hi = INT_RANGE[code]
        bound = min(max(bound, lo), hi)
    elif isinstance(bound, complex) or (isinstance(bound, float) and
                                        of_kind(code, KB_INT | KB_BOOL)):
        raise TypeError(f"{name}: a {type(bound).__name__} bound for a {like.dtype} array")
    return scalar_array(bound, code, like._storage.device)


# The modules that serve some of Array's methods (advanced indexing, DLPack, adopting NumPy
# operands, the namespace) build on this one, so they load once it is complete; the two that
# stay imported on first use are the ones ``import arrayx`` does not load: ``linalg`` (BLAS and
# LAPACK, for ``@``) and NumPy's protocols (for NumPy's calls on arrayx arrays).
import arrayx as _arrayx  # noqa: E402
from arrayx._creation import asarray as _asarray  # noqa: E402
from arrayx._dlpack import export as _export  # noqa: E402
from arrayx._indexing import getitem as _getitem  # noqa: E402
from arrayx._indexing import setitem as _setitem  # noqa: E402

from arrayx._core.layout cimport Layout
from arrayx._core.storage cimport Storage

cdef class _Operators:
    pass

cdef class Array(_Operators):
    cdef readonly Storage _storage
    cdef readonly Layout _layout
    cdef readonly object dtype
    """The data type of the elements: one of the 13 dtypes, which are NumPy dtype objects.

    Examples
    --------
    >>> import arrayx as xp
    >>> x = xp.asarray([1.5])
    >>> x.dtype
    dtype('float64')
    >>> x.dtype == xp.float64
    True
    """
    cdef readonly int _code
    cdef readonly bint _writeable
    cdef object __weakref__

    cdef char* ptr(self) except? NULL
    cdef object scalar(self)

cdef Array wrap(Storage storage, Layout layout, int code, bint writeable=*)
cpdef Array on_host_device(Array a, object device)
cdef Array new_array(Layout layout, int code, object device, bint zero=*)
cdef int code_of(object dtype) except -1
cdef Array contiguous_copy(Array a, int code)
cdef Array as_array(object x, str name)
cdef object assign_value(object value, int code)
cdef Array assign_source(Array dst, object value)
cdef Array fit_source(Array v, int ndim)
cdef Array scalar_array(object value, int code, object device)

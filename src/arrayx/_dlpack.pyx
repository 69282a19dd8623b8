"""DLPack 1.0 both ways: ``Array.__dlpack__`` (export) and ``from_dlpack`` (import).

Export hands out a ``DLManagedTensorVersioned`` (capsule ``dltensor_versioned``) when the
consumer asks for ``max_version >= (1, 0)``, else the legacy ``DLManagedTensor``
(``dltensor``); the capsule keeps the exported array alive until the consumer's deleter runs.
Import validates everything a capsule says (name, version, dtype, device, shape) before
trusting it, and keeps the producer's memory alive through an owner that calls its deleter.
"""
from cpython.pycapsule cimport (
    PyCapsule_Destructor, PyCapsule_GetName, PyCapsule_GetPointer, PyCapsule_IsValid,
    PyCapsule_New, PyCapsule_SetName,
)
from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject
from libc.stdint cimport (
    INT64_MAX, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, uintptr_t,
)
from libc.stdlib cimport free, malloc
from libc.string cimport strcmp

from arrayx._array cimport Array, contiguous_copy, on_host_device, wrap
from arrayx._core.layout cimport MAXDIM, Layout, contiguous, new_layout
from arrayx._core.storage cimport Storage
from arrayx._core.storage cimport wrap_aligned
from arrayx._engine cimport ITEMSIZE
from arrayx._kernels.dtype_codes cimport DT_COMPLEX64, NDTYPES

from arrayx import _devices
from arrayx._core.storage import device_storage
from arrayx._kernels import dtypes as _registry

cdef extern from *:
    """
    typedef struct { int32_t device_type; int32_t device_id; } DLDevice;
    typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
    typedef struct {
        void* data; DLDevice device; int32_t ndim; DLDataType dtype;
        int64_t* shape; int64_t* strides; uint64_t byte_offset;
    } DLTensor;
    typedef struct DLManagedTensor {
        DLTensor dl_tensor; void* manager_ctx; void (*deleter)(struct DLManagedTensor*);
    } DLManagedTensor;
    typedef struct { uint32_t major; uint32_t minor; } DLPackVersion;
    typedef struct DLManagedTensorVersioned {
        DLPackVersion version; void* manager_ctx;
        void (*deleter)(struct DLManagedTensorVersioned*);
        uint64_t flags; DLTensor dl_tensor;
    } DLManagedTensorVersioned;
    """
    ctypedef struct DLDevice:
        int32_t device_type
        int32_t device_id
    ctypedef struct DLDataType:
        uint8_t code
        uint8_t bits
        uint16_t lanes
    ctypedef struct DLTensor:
        void* data
        DLDevice device
        int32_t ndim
        DLDataType dtype
        int64_t* shape
        int64_t* strides
        uint64_t byte_offset
    ctypedef struct DLManagedTensor:
        DLTensor dl_tensor
        void* manager_ctx
        void (*deleter)(DLManagedTensor*) noexcept nogil
    ctypedef struct DLPackVersion:
        uint32_t major
        uint32_t minor
    ctypedef struct DLManagedTensorVersioned:
        DLPackVersion version
        void* manager_ctx
        void (*deleter)(DLManagedTensorVersioned*) noexcept nogil
        uint64_t flags
        DLTensor dl_tensor

cdef enum:
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    FLAG_READ_ONLY = 1
    FLAG_IS_COPIED = 2

# dtype code -> DLPack (type code, bits), from the dtype registry
cdef uint8_t DL_CODE[NDTYPES]
cdef uint8_t DL_BITS[NDTYPES]
for _c in range(NDTYPES):
    DL_CODE[_c] = _registry.DLPACK_CODE[_c]
    DL_BITS[_c] = 8 * _registry.ITEMSIZE[_c]

cdef object CPU = _devices.CPU

# The two kinds of managed tensor, which export fills alike.
ctypedef fused Managed:
    DLManagedTensor
    DLManagedTensorVersioned


# --- export ---------------------------------------------------------------------------------

cdef void _decref(void* ctx) noexcept with gil:
    Py_DECREF(<object>ctx)


cdef void _release_ctx(void* ctx) noexcept nogil:
    _decref(ctx)


cdef void _delete_versioned(DLManagedTensorVersioned* m) noexcept nogil:
    _release_ctx(m.manager_ctx)
    free(m)


cdef void _delete_legacy(DLManagedTensor* m) noexcept nogil:
    _release_ctx(m.manager_ctx)
    free(m)


cdef void _capsule_versioned(object capsule) noexcept:
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        m = <DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, b"dltensor_versioned")
        m.deleter(m)


cdef void _capsule_legacy(object capsule) noexcept:
    if PyCapsule_IsValid(capsule, b"dltensor"):
        m = <DLManagedTensor*>PyCapsule_GetPointer(capsule, b"dltensor")
        m.deleter(m)


cdef void _fill_tensor(DLTensor* t, Array a, int64_t* dims) noexcept:
    cdef Layout L = a._layout
    t.data = a._storage.data
    t.byte_offset = L.offset * ITEMSIZE[a._code]
    if a._storage.host:
        t.device.device_type = kDLCPU
        t.device.device_id = 0
    else:
        t.device.device_type = kDLCUDA
        t.device.device_id = a._storage.device.index
    t.ndim = L.ndim
    t.dtype.code = DL_CODE[a._code]
    t.dtype.bits = DL_BITS[a._code]
    t.dtype.lanes = 1
    for i in range(L.ndim):
        dims[i] = L.shape_[i]
        dims[L.ndim + i] = L.strides_[i]
    t.shape = dims
    t.strides = dims + L.ndim


def export(Array a, stream, max_version, dl_device, copy):
    """A DLPack capsule of ``a`` (see ``Array.__dlpack__``)."""
    cdef bint host = a._storage.host
    if host and stream is not None:
        raise ValueError("a CPU array takes no stream (stream must be None)")
    if not host and not (stream is None or _is_int(stream)):
        raise TypeError(f"stream must be None or an int (a CUDA stream handle), got "
                        f"{type(stream).__name__}")
    if max_version is not None and not (isinstance(max_version, tuple)
                                        and len(max_version) == 2
                                        and all(_is_int(v) for v in max_version)):
        raise TypeError(f"max_version must be None or a tuple of two ints, got "
                        f"{max_version!r}")
    if dl_device is not None and not (isinstance(dl_device, tuple) and len(dl_device) == 2
                                      and all(_is_int(v) for v in dl_device)):
        raise TypeError(f"dl_device must be None or a tuple of two ints, got {dl_device!r}")
    cdef tuple here = (kDLCPU, 0) if host else (kDLCUDA, a._storage.device.index)
    if dl_device is not None and tuple(dl_device) not in (here, (kDLCPU, -1) if host else here):
        if host or tuple(dl_device) != (kDLCPU, 0):
            raise BufferError(f"cannot export an array on {a.device} to DLPack device "
                              f"{dl_device}")
        if copy is False:
            raise BufferError(f"exporting an array on {a.device} to the CPU needs a copy, but "
                              f"copy=False")
        return export(a.to_device(CPU), None, max_version, None, True)
    cdef bint copied = bool(copy)
    if copied:
        a = contiguous_copy(a, a._code)
    if not host and stream != -1:
        # The consumer reads on its stream (None and 1: the legacy default one): it waits
        # for the work queued on arrayx's current stream of the device.
        _devices.backend(a._storage.device).wait_on(1 if stream is None else stream)
    cdef bint versioned = max_version is not None and max_version[0] >= 1
    cdef int n = a._layout.ndim
    cdef DLManagedTensorVersioned* mv
    cdef DLManagedTensor* ml
    if versioned:
        mv = <DLManagedTensorVersioned*>_managed(sizeof(DLManagedTensorVersioned), n)
        mv.version.major = 1
        mv.version.minor = 0
        mv.flags = (0 if a._writeable else FLAG_READ_ONLY) | (FLAG_IS_COPIED if copied else 0)
        mv.deleter = _delete_versioned
        return _capsule(mv, a, b"dltensor_versioned", _capsule_versioned)
    if not a._writeable:
        raise BufferError("a read-only array needs a versioned DLPack capsule "
                          "(pass max_version=(1, 0))")
    ml = <DLManagedTensor*>_managed(sizeof(DLManagedTensor), n)
    ml.deleter = _delete_legacy
    return _capsule(ml, a, b"dltensor", _capsule_legacy)


cdef void* _managed(size_t size, int ndim) except NULL:
    """Memory for a managed tensor of ``size`` bytes followed by its ``ndim`` sizes and
    strides."""
    cdef void* m = malloc(size + 2 * ndim * sizeof(int64_t))
    if m == NULL:
        raise MemoryError()
    return m


cdef object _capsule(Managed* m, Array a, const char* name, PyCapsule_Destructor destructor):
    """The capsule ``name`` of ``m`` (from ``_managed``, its deleter set), filled with ``a``'s
    tensor; ``m`` keeps ``a`` alive until its deleter runs."""
    _fill_tensor(&m.dl_tensor, a, <int64_t*>(m + 1))
    Py_INCREF(a)
    m.manager_ctx = <void*>a
    try:
        return PyCapsule_New(m, name, destructor)
    except BaseException:
        m.deleter(m)
        raise


cdef inline bint _is_int(object v):
    return isinstance(v, int) and not isinstance(v, bool)


# --- import ---------------------------------------------------------------------------------

cdef class _Producer:
    """Keeps an imported DLPack tensor alive; calls the producer's deleter when freed."""
    cdef DLManagedTensorVersioned* versioned
    cdef DLManagedTensor* legacy

    def __dealloc__(self):
        if self.versioned != NULL and self.versioned.deleter != NULL:
            self.versioned.deleter(self.versioned)
        if self.legacy != NULL and self.legacy.deleter != NULL:
            self.legacy.deleter(self.legacy)


cdef int _code_of(DLDataType t) except -1:
    if t.lanes != 1:
        raise TypeError(f"DLPack vector dtypes (lanes={t.lanes}) are not supported")
    cdef int c
    for c in range(NDTYPES):
        if DL_CODE[c] == t.code and DL_BITS[c] == t.bits:
            return c
    raise TypeError(f"DLPack dtype (code={t.code}, bits={t.bits}) is not one of the "
                    f"standard's dtypes")


cdef int _check_extent(int ndim, const int64_t* shape, const int64_t* strides, int64_t isz,
                       uintptr_t address) except -1:
    """ValueError unless the bytes the tensor reaches form a range of the address space.

    The sums run over Python ints: a producer's shape and strides may overflow 64 bits, and a
    wrapped offset would read memory the tensor does not own.
    """
    if any(shape[i] == 0 for i in range(ndim)):
        return 0
    lo = 0
    hi = 0
    for i in range(ndim):
        reach = int(strides[i]) * (int(shape[i]) - 1)
        if reach < 0:
            lo += reach
        else:
            hi += reach
    first = int(address) + lo * int(isz)
    last = int(address) + (hi + 1) * int(isz)
    if first < 0 or last > 2 ** 64 or last - first > INT64_MAX:
        raise ValueError(f"DLPack tensor of shape {tuple([shape[i] for i in range(ndim)])} and "
                         f"strides {tuple([strides[i] for i in range(ndim)])} reaches beyond "
                         f"the address space")
    return 0


cdef Array _from_tensor(DLTensor* t, object owner, bint readonly):
    cdef object device = CPU
    if t.device.device_type == kDLCUDA:
        try:
            device = _devices.as_device(f"cuda:{t.device.device_id}")
        except ValueError as exc:
            raise BufferError(f"DLPack tensor on a CUDA GPU: {exc}") from None
    elif t.device.device_type not in (kDLCPU, kDLCUDAHost):
        raise BufferError(f"DLPack device type {t.device.device_type} is neither the CPU nor "
                          f"a CUDA GPU")
    if t.ndim < 0 or t.ndim > MAXDIM:
        raise ValueError(f"DLPack tensor has an invalid ndim {t.ndim}")
    if t.ndim > 0 and t.shape == NULL:
        raise ValueError("DLPack tensor has no shape")
    cdef int code = _code_of(t.dtype)
    cdef int64_t isz = ITEMSIZE[code]
    cdef int64_t shape[MAXDIM]
    cdef int64_t strides[MAXDIM]
    cdef Layout L
    for i in range(t.ndim):
        if t.shape[i] < 0:
            raise ValueError(f"DLPack tensor has a negative dimension {t.shape[i]}")
        shape[i] = t.shape[i]
    if t.strides == NULL:
        L = contiguous(t.ndim, shape)
        for i in range(t.ndim):
            strides[i] = L.strides_[i]
    else:
        for i in range(t.ndim):
            strides[i] = t.strides[i]
    _check_extent(t.ndim, shape, strides, isz, <uintptr_t>t.data + t.byte_offset)
    L = new_layout(t.ndim, shape, strides, 0)
    cdef int64_t lo = 0, hi = -1
    if L.size:
        lo = L.min_offset()
        hi = L.max_offset()
        if t.data == NULL:
            raise ValueError("DLPack tensor has no data")
    cdef char* base = <char*>t.data + t.byte_offset
    cdef int64_t align = isz // 2 if code >= DT_COMPLEX64 else isz
    cdef Storage s
    if device is not CPU:
        if <uintptr_t>(base + lo * isz) % align:
            raise BufferError("the DLPack tensor's GPU memory is not aligned to its dtype")
        if L.size and not _devices.backend(device).holds(<uintptr_t>(base + lo * isz)):
            raise BufferError(f"the DLPack tensor's memory is not memory {device} can read "
                              f"(plain host memory said to be the GPU's, or CUDA could not "
                              f"tell)")
        s = device_storage(<uintptr_t>(base + lo * isz), (hi - lo + 1) * isz, owner, device,
                           readonly)
        return wrap(s, new_layout(t.ndim, shape, strides, -lo), code)
    # Memory not aligned to the element type is copied (complex: to one part's alignment).
    s = wrap_aligned(base + lo * isz, (hi - lo + 1) * isz, owner, readonly, CPU, align)
    return wrap(s, new_layout(t.ndim, shape, strides, -lo), code)


def from_capsule(capsule) -> Array:
    """An array over the memory a DLPack capsule describes (the capsule is consumed)."""
    cdef _Producer owner = _Producer()
    cdef DLManagedTensorVersioned* mv
    cdef DLManagedTensor* ml
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        mv = <DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, b"dltensor_versioned")
        if mv == NULL:
            raise ValueError("empty DLPack capsule")
        if mv.version.major != 1:
            raise BufferError(f"DLPack version {mv.version.major}.{mv.version.minor} is not "
                              f"supported (arrayx reads 1.x)")
        PyCapsule_SetName(capsule, b"used_dltensor_versioned")
        owner.versioned = mv
        return _from_tensor(&mv.dl_tensor, owner, (mv.flags & FLAG_READ_ONLY) != 0)
    if PyCapsule_IsValid(capsule, b"dltensor"):
        ml = <DLManagedTensor*>PyCapsule_GetPointer(capsule, b"dltensor")
        if ml == NULL:
            raise ValueError("empty DLPack capsule")
        PyCapsule_SetName(capsule, b"used_dltensor")
        owner.legacy = ml
        return _from_tensor(&ml.dl_tensor, owner, False)
    raise TypeError("expected an unconsumed DLPack capsule ('dltensor' or "
                    "'dltensor_versioned')")


def from_dlpack(x, /, *, device=None, copy=None) -> Array:
    """An array sharing the memory of any object that exports DLPack (NumPy, PyTorch, JAX, ...).

    Parameters
    ----------
    x : object
        A DLPack producer: an object with ``__dlpack__`` and ``__dlpack_device__``.
    device : Device or str, optional
        Where the result lives; default ``x``'s device. Another device than ``x``'s takes a
        copy (through the CPU between two GPUs).
    copy : bool, optional
        True always copies; False never does (``BufferError`` if a copy is needed); None
        (default) copies only when needed.

    Returns
    -------
    Array
        A view of ``x``'s memory (read-only when the producer marks it so), or a copy.

    Raises
    ------
    BufferError
        If ``x`` lives on a device arrayx cannot read, or cannot be exported as asked.
    ValueError
        If ``device`` is not available.
    TypeError
        If ``x`` has no ``__dlpack__``, or its dtype is not one of the standard's 13 (a DLPack
        vector type, say).

    Examples
    --------
    >>> import arrayx as xp
    >>> import numpy as np
    >>> n = np.arange(3.0)
    >>> a = xp.from_dlpack(n)
    >>> n[0] = 9.0
    >>> a
    Array([9., 1., 2.], dtype=float64)
    """
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"{type(x).__name__} does not support DLPack (no __dlpack__)")
    target = None if device is None else _devices.as_device(device)
    dev_type, dev_id = x.__dlpack_device__()
    kwargs = {"max_version": (1, 0)}
    if copy is not None:
        kwargs["copy"] = copy
    source = x.device if isinstance(x, Array) and x._storage.host else None
    if int(dev_type) == kDLCUDA:
        source = _devices.as_device(f"cuda:{int(dev_id)}")
        # The producer makes its data ready for arrayx's current stream of the device.
        kwargs["stream"] = _devices.backend(source).dlpack_stream()
    elif int(dev_type) not in (kDLCPU, kDLCUDAHost):
        if copy is False:
            raise ValueError("the producer's memory is neither on the CPU nor on a CUDA GPU, "
                             "and copy=False")
        kwargs["dl_device"] = (kDLCPU, 0)
    if target is not None and target != (source or CPU) and copy is False:
        raise ValueError(f"from_dlpack to {target} of memory on {source or CPU} needs a copy, "
                         f"but copy=False")
    try:
        capsule = x.__dlpack__(**kwargs)
    except TypeError:
        if copy is not None or "dl_device" in kwargs or "stream" in kwargs:
            raise
        capsule = x.__dlpack__()
    # Read before the import: an import that copies (memory not aligned to its dtype) keeps
    # no reference to the producer, whose deleter then frees the tensor it describes.
    cdef bint copied = _copied(capsule)
    cdef Array out = from_capsule(capsule)
    if source is not None:  # an arrayx array of a test device comes back there
        out = on_host_device(out, source)
    if target is not None and out._storage.device != target:
        return out.to_device(target)
    if copy is False and out._storage.owner is None:
        raise ValueError("the producer's memory is not aligned to its dtype, so arrayx needs a "
                         "copy, but copy=False")
    if copy and not copied:
        out = contiguous_copy(out, out._code)
    return out


cdef bint _copied(object capsule):
    """Whether the versioned capsule (not yet consumed) marks its tensor a copy."""
    name = PyCapsule_GetName(capsule)
    if name != NULL and strcmp(name, b"dltensor_versioned") == 0:
        m = <DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, name)
        return m != NULL and (m.flags & FLAG_IS_COPIED) != 0
    return False

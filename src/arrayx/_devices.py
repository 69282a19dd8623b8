"""Devices: ``cpu``, ``cuda:N`` and the test devices ``test:0`` and ``test:1`` as hashable
objects, and the default device."""

from __future__ import annotations

import os
from collections.abc import Callable
from types import SimpleNamespace

__all__ = ["CPU", "TEST", "Device", "as_device", "available", "backend", "default_device",
           "register_backend", "register_host", "set_default_device"]


class Device:
    """A place where an array's memory lives: ``Device("cpu")``, ``Device("cuda", n)`` or a
    test device, ``Device("test", n)``.

    Devices are hashable and compare equal to their names (``Device("cpu") == "cpu"``).
    ``Device("cuda", n)`` can always be made; arrays can live there where CuPy sees that GPU
    (see :doc:`/guide/devices`). The test devices ``test:0`` and ``test:1`` hold their arrays
    in the CPU's memory and compute with the CPU's kernels, but are other devices: arrays on
    two devices never combine, and NumPy's conversions refuse them as they refuse a GPU's.
    They are there for the CI of code that must keep devices apart, as array-api-strict's
    ``device1`` (strict mode lists them among the devices).

    Parameters
    ----------
    kind : {"cpu", "cuda", "test"}
        The kind of device.
    index : int, optional
        The device's number among those of its kind (default 0).

    Raises
    ------
    ValueError
        If ``kind`` is not one of these.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.asarray([1]).device
    Device('cpu')
    >>> xp.Device('cpu') == 'cpu'
    True
    >>> xp.zeros(2, device=xp.Device('cpu')).device
    Device('cpu')
    """

    __slots__ = ("host", "index", "kind")

    def __init__(self, kind: str, index: int = 0) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown device kind {kind!r}; arrayx knows {NAMES}")
        self.kind = kind
        self.index = int(index)
        self.host = kind != "cuda"  # the memory is the CPU's, served by the CPU's kernels

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            try:
                other = parse(other)
            except ValueError:
                return False
        if not isinstance(other, Device):
            return NotImplemented
        return self.kind == other.kind and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.kind, self.index))

    def __str__(self) -> str:
        return "cpu" if self.kind == "cpu" else f"{self.kind}:{self.index}"

    def __repr__(self) -> str:
        return f"Device('{self}')"

    def __reduce__(self) -> tuple:
        return (Device, (self.kind, self.index))


KINDS = ("cpu", "cuda", "test")
NAMES = "'cpu', 'cuda:N', 'test:0' and 'test:1'"

CPU = Device("cpu")
#: The test devices: the CPU's memory and kernels under other names (see ``Device``).
TEST = (Device("test", 0), Device("test", 1))


def parse(name: str) -> Device:
    """The device named ``cpu``, ``cuda``, ``cuda:N``, ``test`` or ``test:N``; ValueError for
    anything else."""
    text = name.strip().lower()
    if text == "cpu":
        return CPU
    kind, _, index = text.partition(":")
    if kind in ("cuda", "test") and (index.isdigit() or not index):
        return Device(kind, int(index or 0))
    raise ValueError(f"unknown device {name!r}; arrayx knows {NAMES}")


_available: tuple[Device, ...] | None = None
# The backend of each device kind that is not the CPU's memory, by kind: ``lookup(index)``
# gives the backend object of one device of that kind (``arrayx._kernels.cuda.runtime``'s
# ``Backend`` for cuda).
_BACKENDS: dict[str, Callable[[int], object]] = {}
# The CPU backend's object, for the CPU and the test devices: its library entries, each
# registered by its extension when it loads (``register_host``). The engine does not ask for
# it: it calls the CPU backend's kernels directly for every storage in the CPU's memory
# (``Storage.host``), where a Python-level call would cost more than a small kernel.
_HOST = SimpleNamespace()


def available() -> tuple[Device, ...]:
    """The devices arrayx can use here: the CPU, then each GPU CuPy sees (none without CuPy,
    a driver or a GPU), then the test devices in strict mode or where one is the default
    device. The first call imports CuPy where it is installed."""
    from arrayx._strict import FLAGS

    return _hardware() + TEST if FLAGS.strict or _default.kind == "test" else _hardware()


def _hardware() -> tuple[Device, ...]:
    if _available is None:
        from arrayx._kernels.cuda import runtime

        register_backend("cuda", runtime.device_count(), runtime.backend)
    return _available


def register_backend(kind: str, count: int, lookup: Callable[[int], object]) -> None:
    """Make ``kind:0`` to ``kind:count-1`` available, served by ``lookup(index)``: its
    backend object, which allocates the device's memory and runs its kernels (the methods of
    ``arrayx._kernels.cuda.runtime.Backend``). No devices when ``count`` is 0."""
    global _available
    from arrayx._core.storage import register_allocator

    if count:
        _BACKENDS[kind] = lookup
        register_allocator(kind, lambda nbytes, zero, device:
                           lookup(device.index).allocate(nbytes, zero))
    _available = (CPU, *(Device(kind, i) for i in range(count)))


def register_host(**entries: Callable) -> None:
    """Give the devices in the CPU's memory (the CPU and the test devices) library entries:
    ``fft(name, a, **kwargs)`` from ``arrayx.fft`` and ``lapack(name)`` from
    ``arrayx.linalg``, each registered as its extension loads, so that loading one does not
    load the other."""
    vars(_HOST).update(entries)


def backend(device: Device) -> object:
    """The backend object of ``device``: the CPU backend's (``register_host``'s entries) for
    the CPU and the test devices, a GPU's ``arrayx._kernels.cuda.runtime.Backend`` for ``cuda:N``.

    Raises
    ------
    ValueError
        If ``device`` is not available here.
    """
    _check(device)
    if device.host:
        return _HOST
    return _BACKENDS[device.kind](device.index)


def _check(device: Device) -> Device:
    if device is CPU or device in TEST:
        return device
    if device not in _hardware():
        raise ValueError(
            f"device {device} is not available here; available: "
            + ", ".join(str(d) for d in available()))
    return device


# The default device: one reference to an immutable-by-convention Device, replaced by a single
# assignment, so any Python thread may set it while others read it (no lock needed: a reader
# sees the old device or the new one, never a mix).
_default: Device = CPU


def default_device() -> Device:
    """The device that creation functions use when ``device`` is None."""
    return _default


def set_default_device(device: Device | str) -> None:
    """Set the device that creation functions and ``asarray`` of host data use by default.

    ``ARRAYX_DEVICE`` sets it at import; this changes it at run time, for the whole process
    (as ``torch.set_default_device``). Safe from any thread: the device is checked first,
    then replaces the old one at once.

    Parameters
    ----------
    device : Device or str
        One of ``__array_namespace_info__().devices()`` (``"cpu"`` or ``"cuda:N"``), or a
        test device.

    Raises
    ------
    ValueError
        If ``device`` is not there (naming the devices that are); the default is unchanged.

    Examples
    --------
    >>> import arrayx as xp
    >>> xp.set_default_device("cpu")
    >>> xp.zeros(2).device
    Device('cpu')
    >>> xp.__array_namespace_info__().default_device()
    Device('cpu')
    """
    global _default
    _default = as_device(device)


def as_device(device: object) -> Device:
    """``device`` as an available ``Device``; None means the default device."""
    if device is None:
        return _default
    if device is CPU:
        return CPU
    if isinstance(device, Device):
        return _check(device)
    if isinstance(device, str):
        try:
            parsed = parse(device)
        except ValueError:
            raise ValueError(f"unknown device {device!r}; available: "
                             + ", ".join(str(d) for d in available())) from None
        return _check(parsed)
    raise ValueError(f"{device!r} is not a device; use {NAMES} or a Device")


if os.environ.get("ARRAYX_DEVICE"):
    set_default_device(os.environ["ARRAYX_DEVICE"])

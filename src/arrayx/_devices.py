"""Devices: ``cpu`` and ``cuda:N`` as hashable objects, and the default device."""

from __future__ import annotations

import os

__all__ = ["CPU", "Device", "as_device", "available", "backend", "default_device",
           "set_default_device"]


class Device:
    """A place where an array's memory lives: ``Device("cpu")`` or ``Device("cuda", n)``.

    Devices are hashable and compare equal to their names (``Device("cpu") == "cpu"``).
    ``Device("cuda", n)`` can always be made; arrays can live there where CuPy sees that GPU
    (see :doc:`/guide/devices`).

    Parameters
    ----------
    kind : {"cpu", "cuda"}
        The kind of device.
    index : int, optional
        The device's number among those of its kind (default 0).

    Raises
    ------
    ValueError
        If ``kind`` is neither "cpu" nor "cuda".

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

    __slots__ = ("kind", "index")

    def __init__(self, kind: str, index: int = 0) -> None:
        if kind not in ("cpu", "cuda"):
            raise ValueError(f"unknown device kind {kind!r}; arrayx knows 'cpu' and 'cuda:N'")
        self.kind = kind
        self.index = int(index)

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
        return "cpu" if self.kind == "cpu" else f"cuda:{self.index}"

    def __repr__(self) -> str:
        return f"Device('{self}')"

    def __reduce__(self) -> tuple:
        return (Device, (self.kind, self.index))


CPU = Device("cpu")


def parse(name: str) -> Device:
    """The device named ``cpu``, ``cuda`` or ``cuda:N``; ValueError for anything else."""
    text = name.strip().lower()
    if text == "cpu":
        return CPU
    if text == "cuda":
        return Device("cuda", 0)
    if text.startswith("cuda:") and text[5:].isdigit():
        return Device("cuda", int(text[5:]))
    raise ValueError(f"unknown device {name!r}; arrayx knows 'cpu' and 'cuda:N'")


_available: tuple[Device, ...] | None = None


def available() -> tuple[Device, ...]:
    """The devices arrayx can use here: the CPU, then each GPU CuPy sees (none without CuPy,
    a driver or a GPU). The first call imports CuPy where it is installed."""
    global _available
    if _available is None:
        from arrayx._core.storage import register_allocator
        from arrayx._kernels.cuda import runtime

        count = runtime.device_count()
        if count:
            register_allocator("cuda", lambda nbytes, zero, device:
                               runtime.backend(device.index).allocate(nbytes, zero))
        _available = (CPU, *(Device("cuda", i) for i in range(count)))
    return _available


def backend(device: Device) -> object:
    """The kernels and memory of ``device``, a GPU (``arrayx._kernels.cuda.runtime.Backend``).

    Raises
    ------
    ValueError
        If ``device`` is not available here.
    """
    _check(device)
    if device.kind != "cuda":
        raise ValueError(f"{device} has no device backend")
    from arrayx._kernels.cuda import runtime

    return runtime.backend(device.index)


def _check(device: Device) -> Device:
    if device is CPU:
        return device
    if device not in available():
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
        One of ``__array_namespace_info__().devices()``: ``"cpu"`` or ``"cuda:N"``.

    Returns
    -------
    None

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
    raise ValueError(f"{device!r} is not a device; use 'cpu', 'cuda:N' or a Device")


if os.environ.get("ARRAYX_DEVICE"):
    set_default_device(os.environ["ARRAYX_DEVICE"])

"""``__array_namespace_info__``: what this arrayx can do, and where."""

from __future__ import annotations

from arrayx import _devices, _dtypes

__all__ = ["__array_namespace_info__"]


class Devices(tuple):
    """The tuple of devices the 2025.12 standard's ``devices()`` returns, which also
    concatenates with a list, as the lists of NumPy, PyTorch and earlier versions of the
    standard do: ``devices() + [None]`` (SciPy's ``devices`` fixture) is a list."""

    __slots__ = ()

    def __add__(self, other: object) -> tuple | list:
        if isinstance(other, list):
            return [*self, *other]
        return tuple.__add__(self, other)

    def __radd__(self, other: object) -> list:
        if isinstance(other, list):
            return [*other, *self]
        return NotImplemented


class Info:
    """The inspection object the standard's ``__array_namespace_info__()`` returns."""

    __module__ = "arrayx"

    def capabilities(self) -> dict:
        """Which optional features of the standard arrayx has.

        Returns
        -------
        dict
            ``"boolean indexing"`` and ``"data-dependent shapes"`` (both True), and
            ``"max dimensions"`` (64).

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.__array_namespace_info__().capabilities()
        {'boolean indexing': True, 'data-dependent shapes': True, 'max dimensions': 64}
        """
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": 64,
        }

    def default_device(self) -> _devices.Device:
        """The device that creation functions use when ``device`` is None.

        The CPU unless the ``ARRAYX_DEVICE`` environment variable names another device.

        Returns
        -------
        Device

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.__array_namespace_info__().default_device()
        Device('cpu')
        """
        return _devices.default_device()

    def default_dtypes(self, *, device: object = None) -> dict:
        """The default dtypes of a device.

        Parameters
        ----------
        device : Device or str, optional
            The device to ask about; default the default device.

        Returns
        -------
        dict
            ``"real floating"``, ``"complex floating"``, ``"integral"`` and ``"indexing"``, each
            mapped to a dtype.

        Raises
        ------
        ValueError
            If ``device`` is not available.

        Examples
        --------
        >>> import arrayx as xp
        >>> d = xp.__array_namespace_info__().default_dtypes()
        >>> d['real floating'], d['integral'], d['indexing']
        (dtype('float64'), dtype('int64'), dtype('int64'))
        """
        _devices.as_device(device)
        return {
            "real floating": _dtypes.default_float,
            "complex floating": _dtypes.default_complex,
            "integral": _dtypes.default_int,
            "indexing": _dtypes.default_index,
        }

    def devices(self) -> Devices:
        """Every device arrayx can put arrays on here.

        Returns
        -------
        tuple of Device
            ``(Device('cpu'),)`` today, a tuple as the 2025.12 standard has it; adding a list
            to it gives a list, as NumPy's list of devices does (SciPy's ``devices`` fixture
            adds ``[None]``).

        Examples
        --------
        >>> import arrayx as xp
        >>> xp.__array_namespace_info__().devices()[0]
        Device('cpu')
        >>> (xp.__array_namespace_info__().devices() + [None])[-1] is None
        True
        """
        return Devices(_devices.available())

    def dtypes(self, *, device: object = None, kind: object = None) -> dict:
        """The dtypes of ``kind`` available on ``device``, by name.

        Parameters
        ----------
        device : Device or str, optional
            The device to ask about; default the default device.
        kind : str or tuple of str, optional
            A kind name (as :func:`arrayx.isdtype` takes), a tuple of them, or None (default) for
            all 13 dtypes.

        Returns
        -------
        dict
            Dtype names mapped to dtypes.

        Raises
        ------
        ValueError
            If ``kind`` is unknown or ``device`` is not available.

        Examples
        --------
        >>> import arrayx as xp
        >>> list(xp.__array_namespace_info__().dtypes(kind='real floating'))
        ['float32', 'float64']
        """
        _devices.as_device(device)
        if kind is None:
            chosen = _dtypes.DTYPES
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            for k in kinds:
                if k not in _dtypes.KINDS:
                    raise ValueError(f"unknown dtype kind {k!r}")
            chosen = [d for d in _dtypes.DTYPES if any(d in _dtypes.KINDS[k] for k in kinds)]
        return {d.name: d for d in chosen}


_INFO = Info()


def __array_namespace_info__() -> Info:
    """The namespace's inspection object: what this arrayx supports, and where.

    Its methods are ``capabilities()``, ``default_device()``, ``default_dtypes()``,
    ``devices()`` and ``dtypes()`` (each documented on its own page).

    Returns
    -------
    Info
        The inspection object (one per process).

    Examples
    --------
    >>> import arrayx as xp
    >>> info = xp.__array_namespace_info__()
    >>> info.devices()[0]
    Device('cpu')
    >>> info.default_dtypes()['real floating']
    dtype('float64')
    """
    return _INFO

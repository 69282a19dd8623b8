"""``__array_namespace_info__``: what this arrayx can do, and where."""

from __future__ import annotations

from arrayx import _devices, _dtypes

__all__ = ["__array_namespace_info__"]


class Info:
    """The inspection object the standard's ``__array_namespace_info__()`` returns."""

    __module__ = "arrayx"

    def capabilities(self) -> dict:
        """Optional features: boolean indexing, data-dependent shapes, ``max dimensions``."""
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": 64,
        }

    def default_device(self) -> _devices.Device:
        """The device creation functions use by default."""
        return _devices.default_device()

    def default_dtypes(self, *, device: object = None) -> dict:
        """The default real, complex, integer and index dtypes."""
        _devices.as_device(device)
        return {
            "real floating": _dtypes.default_float,
            "complex floating": _dtypes.default_complex,
            "integral": _dtypes.default_int,
            "indexing": _dtypes.default_index,
        }

    def devices(self) -> tuple:
        """Every device arrayx can use here."""
        return _devices.available()

    def dtypes(self, *, device: object = None, kind: object = None) -> dict:
        """The dtypes of ``kind`` (a kind name, a tuple of them, or None for all) by name."""
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
    """The namespace's inspection object."""
    return _INFO
